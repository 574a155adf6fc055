//! Per-row results, their statistics and the text, JSON and CSV reports.

use regionpath::grid::Point;
use serde::Serialize;
use std::io::Write;

/// What happened on one scenario row for one planner.
#[derive(Clone, Debug, PartialEq)]
pub struct RowResult {
    /// 0-based index of the row in its file.
    pub index: usize,
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// The row's optimal length as printed.
    pub optimal: f64,
    /// Whether the planner claimed a path.
    pub found: bool,
    /// Length recomputed from the cells of a path that passed the check.
    pub length: Option<f64>,
    /// Whether the claimed path failed the independent check.
    pub invalid: bool,
    /// Reachability or length disagrees with the row (see [`crate::algo::Algo::is_optimal`]).
    pub wrong: bool,
    /// The length equals the optimum within the file's print precision.
    pub matches_optimal: bool,
    /// Euclidean length of the smoothed path (with `--smooth`), if it passed
    /// its check; under a movement profile, its cost.
    pub smoothed: Option<f64>,
    /// Euclidean length of the smoothed path, if it passed its check (the
    /// base of the curve ratio).
    pub smoothed_length: Option<f64>,
    /// Whether the smoothed path failed its check.
    pub smooth_invalid: bool,
    /// Smoothed segments not clear for the unit radius (`scen --radius`):
    /// kept where the unit does not fit through a passage.
    pub narrow: usize,
    /// Query time in microseconds.
    pub us: f64,
    /// Smoothing time in microseconds (with `--smooth`, for valid paths).
    pub smooth_us: Option<f64>,
    /// Time to the first leg in microseconds (with `--first-leg`, for
    /// planners that plan leg by leg).
    pub first_leg_us: Option<f64>,
    /// Whether the first leg failed its check (not a valid path from the
    /// start, or none although the goal is reachable).
    pub first_leg_invalid: bool,
    /// Nodes expanded.
    pub expanded: u64,
    /// The vehicle curve of the smoothed path (with `--turning-radius`).
    pub curve: Option<CurveRow>,
}

/// The vehicle curve of one row (`scen --turning-radius`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurveRow {
    /// Length of a curve that passed the independent check.
    pub length: Option<f64>,
    /// A curve was returned but failed the independent check.
    pub invalid: bool,
    /// The checked curve drives backwards somewhere (`--reverse`).
    pub reversing: bool,
    /// The whole query with the curve: planner, smoothing and curve, µs.
    pub us: f64,
    /// The curve alone, µs.
    pub curve_us: f64,
    /// The stage that gave the curve, or `failed` ([`stage_name`]).
    pub stage: &'static str,
}

/// The CSV name of a [`regionpath::CurveStage`].
pub fn stage_name(stage: regionpath::CurveStage) -> &'static str {
    use regionpath::CurveStage as S;
    match stage {
        S::None => "none",
        S::Rounded => "rounded",
        S::Repaired => "repaired",
        S::WidePath => "wide_path",
        S::WholeBox => "whole_box",
        S::Failed => "failed",
    }
}

impl RowResult {
    /// length / optimal − 1 for valid paths: 0 when the length matches the
    /// optimum within the file's print precision (so rounding in the file
    /// does not show as suboptimality) or the optimum is 0.
    pub fn subopt(&self) -> Option<f64> {
        let l = self.length?;
        Some(if self.optimal > 0.0 && !self.matches_optimal {
            (l / self.optimal - 1.0).max(0.0)
        } else {
            0.0
        })
    }

    /// smoothed length / optimal (1 when the optimum is 0).
    pub fn smoothed_ratio(&self) -> Option<f64> {
        let s = self.smoothed?;
        Some(if self.optimal > 0.0 {
            s / self.optimal
        } else {
            1.0
        })
    }
}

/// Statistics of one planner over a set of rows (the JSON `algos` values).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AlgoStats {
    /// Rows run.
    pub rows: usize,
    /// Rows where the planner returned a path that passed the check.
    pub solved: usize,
    /// Rows whose returned path failed the independent check.
    pub invalid: usize,
    /// Rows whose reachability or length disagrees with the scenario.
    pub wrong: usize,
    /// Mean of length / optimal − 1 over solved rows.
    pub mean_subopt: Option<f64>,
    /// 95th percentile (nearest rank) of the suboptimality.
    pub p95_subopt: Option<f64>,
    /// Largest suboptimality.
    pub max_subopt: Option<f64>,
    /// Mean query time, microseconds.
    pub mean_us: Option<f64>,
    /// Median query time, microseconds.
    pub p50_us: Option<f64>,
    /// 99th percentile query time, microseconds.
    pub p99_us: Option<f64>,
    /// Sum of query times, milliseconds.
    pub total_ms: f64,
    /// Mean nodes expanded per query.
    pub mean_expanded: Option<f64>,
    /// Time spent preparing maps for this planner, milliseconds.
    pub prepare_ms: f64,
    /// Mean smoothed length / optimal (with `--smooth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_smoothed_ratio: Option<f64>,
    /// Largest smoothed length / optimal (with `--smooth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_smoothed_ratio: Option<f64>,
    /// Smoothed paths that failed their check (with `--smooth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smooth_invalid: Option<usize>,
    /// Smoothed segments not clear for the unit radius, summed (with
    /// `--smooth`; always 0 for radius 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narrow_segments: Option<usize>,
    /// Mean smoothing time per smoothed path, microseconds (with `--smooth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_smooth_us: Option<f64>,
    /// Smoothing's share of query plus smoothing time, summed over the
    /// smoothed rows (with `--smooth`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smooth_share: Option<f64>,
    /// Median time to the first leg, microseconds (with `--first-leg`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p50_first_leg_us: Option<f64>,
    /// 90th percentile of the time to the first leg (with `--first-leg`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p90_first_leg_us: Option<f64>,
    /// First legs that failed their check (with `--first-leg`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_leg_invalid: Option<usize>,
    /// Rows with a vehicle curve that passed its check (with
    /// `--turning-radius`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve_solved: Option<usize>,
    /// Rows with a smoothed path but no legal curve found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve_failed: Option<usize>,
    /// Curves returned that failed the independent check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve_invalid: Option<usize>,
    /// Mean curve length / smoothed length over solved rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_curve_ratio: Option<f64>,
    /// Mean time of the whole query with the curve (planner, smoothing,
    /// curve), microseconds, over rows with a curve attempt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_curve_us: Option<f64>,
    /// 99th percentile of that time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p99_curve_us: Option<f64>,
    /// Solved rows whose curve drives backwards somewhere (with
    /// `--reverse`; left out when none does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub curve_reversing: Option<usize>,
}

/// Nearest-rank percentile of sorted values (`q` in 0..=1).
fn percentile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

impl AlgoStats {
    /// Statistics over `rows`; the smoothing fields are filled when
    /// `smooth` is set.
    pub fn from_rows<'a>(
        rows: impl IntoIterator<Item = &'a RowResult>,
        prepare_ms: f64,
        smooth: bool,
    ) -> AlgoStats {
        let rows: Vec<&RowResult> = rows.into_iter().collect();
        let subopt = sorted(rows.iter().filter_map(|r| r.subopt()).collect());
        let us = sorted(rows.iter().map(|r| r.us).collect());
        let expanded: Vec<f64> = rows.iter().map(|r| r.expanded as f64).collect();
        let ratios = sorted(rows.iter().filter_map(|r| r.smoothed_ratio()).collect());
        let smooth_us: Vec<f64> = rows.iter().filter_map(|r| r.smooth_us).collect();
        let first_leg = sorted(rows.iter().filter_map(|r| r.first_leg_us).collect());
        let has_first_leg = !first_leg.is_empty() || rows.iter().any(|r| r.first_leg_invalid);
        let curves: Vec<CurveRow> = rows.iter().filter_map(|r| r.curve).collect();
        let has_curve = !curves.is_empty();
        let curve_us = sorted(curves.iter().map(|c| c.us).collect());
        let curve_ratios: Vec<f64> = rows
            .iter()
            .filter_map(
                |r| match (r.curve.and_then(|c| c.length), r.smoothed_length) {
                    (Some(c), Some(s)) if s > 0.0 => Some(c / s),
                    (Some(_), Some(_)) => Some(1.0),
                    _ => None,
                },
            )
            .collect();
        let smooth_total: f64 = smooth_us.iter().sum();
        let query_total: f64 = rows
            .iter()
            .filter(|r| r.smooth_us.is_some())
            .map(|r| r.us)
            .sum();
        AlgoStats {
            rows: rows.len(),
            solved: rows.iter().filter(|r| r.length.is_some()).count(),
            invalid: rows.iter().filter(|r| r.invalid).count(),
            wrong: rows.iter().filter(|r| r.wrong).count(),
            mean_subopt: mean(&subopt),
            p95_subopt: percentile(&subopt, 0.95),
            max_subopt: subopt.last().copied(),
            mean_us: mean(&us),
            p50_us: percentile(&us, 0.50),
            p99_us: percentile(&us, 0.99),
            total_ms: us.iter().sum::<f64>() / 1000.0,
            mean_expanded: mean(&expanded),
            prepare_ms,
            mean_smoothed_ratio: if smooth { mean(&ratios) } else { None },
            max_smoothed_ratio: if smooth { ratios.last().copied() } else { None },
            smooth_invalid: smooth.then(|| rows.iter().filter(|r| r.smooth_invalid).count()),
            narrow_segments: smooth.then(|| rows.iter().map(|r| r.narrow).sum()),
            mean_smooth_us: if smooth { mean(&smooth_us) } else { None },
            smooth_share: if smooth && smooth_total + query_total > 0.0 {
                Some(smooth_total / (smooth_total + query_total))
            } else {
                None
            },
            p50_first_leg_us: percentile(&first_leg, 0.50),
            p90_first_leg_us: percentile(&first_leg, 0.90),
            first_leg_invalid: has_first_leg
                .then(|| rows.iter().filter(|r| r.first_leg_invalid).count()),
            curve_solved: has_curve.then(|| curves.iter().filter(|c| c.length.is_some()).count()),
            curve_failed: has_curve.then(|| {
                curves
                    .iter()
                    .filter(|c| c.length.is_none() && !c.invalid)
                    .count()
            }),
            curve_invalid: has_curve.then(|| curves.iter().filter(|c| c.invalid).count()),
            mean_curve_ratio: mean(&curve_ratios),
            mean_curve_us: mean(&curve_us),
            p99_curve_us: percentile(&curve_us, 0.99),
            curve_reversing: Some(curves.iter().filter(|c| c.reversing).count()).filter(|&n| n > 0),
        }
    }

    /// Whether any row was invalid or wrong.
    pub fn has_failures(&self) -> bool {
        self.invalid > 0
            || self.wrong > 0
            || self.smooth_invalid.unwrap_or(0) > 0
            || self.first_leg_invalid.unwrap_or(0) > 0
            || self.curve_invalid.unwrap_or(0) > 0
    }

    /// One human-readable line.
    pub fn line(&self, name: &str) -> String {
        let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
        let pct = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{:.3}%", v * 100.0));
        let mut s = format!(
            "{name:<13} {solved}/{rows} solved, {invalid} invalid, {wrong} wrong | \
             query mean {mean} µs, p50 {p50} µs, p99 {p99} µs, total {total:.1} ms | \
             {exp} expanded/query | subopt mean {ms}, p95 {p95}, max {mx}",
            solved = self.solved,
            rows = self.rows,
            invalid = self.invalid,
            wrong = self.wrong,
            mean = f(self.mean_us),
            p50 = f(self.p50_us),
            p99 = f(self.p99_us),
            total = self.total_ms,
            exp = f(self.mean_expanded),
            ms = pct(self.mean_subopt),
            p95 = pct(self.p95_subopt),
            mx = pct(self.max_subopt),
        );
        if self.prepare_ms >= 0.05 {
            s.push_str(&format!(" | prepare {:.1} ms", self.prepare_ms));
        }
        if let (Some(m), Some(x)) = (self.mean_smoothed_ratio, self.max_smoothed_ratio) {
            s.push_str(&format!(" | smoothed/optimal mean {m:.4}, max {x:.4}"));
        }
        if let (Some(m), Some(share)) = (self.mean_smooth_us, self.smooth_share) {
            s.push_str(&format!(
                " | smoothing {m:.1} µs ({:.1}% of query + smoothing)",
                share * 100.0
            ));
        }
        if let Some(n) = self.smooth_invalid.filter(|n| *n > 0) {
            s.push_str(&format!(" | {n} smoothed paths INVALID"));
        }
        if let Some(n) = self.narrow_segments.filter(|n| *n > 0) {
            s.push_str(&format!(
                " | {n} smoothed segments too narrow for the unit radius"
            ));
        }
        if let (Some(p50), Some(p90)) = (self.p50_first_leg_us, self.p90_first_leg_us) {
            s.push_str(&format!(" | first leg p50 {p50:.1} µs, p90 {p90:.1} µs"));
        }
        if let Some(n) = self.first_leg_invalid.filter(|n| *n > 0) {
            s.push_str(&format!(" | {n} first legs INVALID"));
        }
        if let (Some(ok), Some(failed), Some(bad)) =
            (self.curve_solved, self.curve_failed, self.curve_invalid)
        {
            s.push_str(&format!(
                " | curves {ok} solved, {failed} failed, {bad} invalid, curve/smoothed mean {}, \
                 query+curve mean {} µs, p99 {} µs",
                self.mean_curve_ratio
                    .map_or("-".to_string(), |v| format!("{v:.4}")),
                f(self.mean_curve_us),
                f(self.p99_curve_us),
            ));
        }
        s
    }
}

/// One planner's rows on one file.
#[derive(Clone, Debug)]
pub struct AlgoRun {
    /// The planner's name.
    pub algo: String,
    /// Map preparation time for this file, milliseconds.
    pub prepare_ms: f64,
    /// Results in row order.
    pub rows: Vec<RowResult>,
}

/// Everything run on one scenario file.
#[derive(Clone, Debug)]
pub struct FileRun {
    /// The scenario file as given.
    pub file: String,
    /// The map file name(s) its rows name, comma-separated.
    pub map: String,
    /// Width of the (first) map.
    pub width: u32,
    /// Height of the (first) map.
    pub height: u32,
    /// Rows run.
    pub rows: usize,
    /// Per planner, in run order.
    pub runs: Vec<AlgoRun>,
}

#[derive(Serialize)]
struct FileJson<'a> {
    file: &'a str,
    map: &'a str,
    width: u32,
    height: u32,
    rows: usize,
    algos: serde_json::Map<String, serde_json::Value>,
}

/// Totals per planner over all files, in run order.
pub fn totals(files: &[FileRun], smooth: bool) -> Vec<(String, AlgoStats)> {
    let mut names: Vec<String> = Vec::new();
    for f in files {
        for r in &f.runs {
            if !names.contains(&r.algo) {
                names.push(r.algo.clone());
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let runs: Vec<&AlgoRun> = files
                .iter()
                .flat_map(|f| f.runs.iter())
                .filter(|r| r.algo == name)
                .collect();
            let prepare = runs.iter().map(|r| r.prepare_ms).sum();
            let stats =
                AlgoStats::from_rows(runs.iter().flat_map(|r| r.rows.iter()), prepare, smooth);
            (name, stats)
        })
        .collect()
}

fn algo_map(stats: &[(String, AlgoStats)]) -> serde_json::Map<String, serde_json::Value> {
    stats
        .iter()
        .map(|(name, s)| {
            (
                name.clone(),
                serde_json::to_value(s).unwrap_or(serde_json::Value::Null),
            )
        })
        .collect()
}

/// Per-file statistics, in run order.
pub fn file_stats(file: &FileRun, smooth: bool) -> Vec<(String, AlgoStats)> {
    file.runs
        .iter()
        .map(|r| {
            (
                r.algo.clone(),
                AlgoStats::from_rows(&r.rows, r.prepare_ms, smooth),
            )
        })
        .collect()
}

/// The `--json` document: `{"rows", "every", "algos", "files"}`.
pub fn json(files: &[FileRun], every: usize, smooth: bool) -> serde_json::Value {
    let files_json: Vec<serde_json::Value> = files
        .iter()
        .map(|f| {
            serde_json::to_value(FileJson {
                file: &f.file,
                map: &f.map,
                width: f.width,
                height: f.height,
                rows: f.rows,
                algos: algo_map(&file_stats(f, smooth)),
            })
            .unwrap_or(serde_json::Value::Null)
        })
        .collect();
    serde_json::json!({
        "rows": files.iter().map(|f| f.rows).sum::<usize>(),
        "every": every,
        "algos": algo_map(&totals(files, smooth)),
        "files": files_json,
    })
}

/// The CSV header.
pub const CSV_HEADER: &str =
    "file,row,algo,sx,sy,gx,gy,optimal,length,smoothed_length,us,expanded,valid,curve_length,curve_us,curve_stage";

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes one CSV line per row and planner. `valid` is 1 when a path was
/// returned and passed the independent check; `length` is empty otherwise.
pub fn write_csv(out: &mut impl Write, files: &[FileRun]) -> std::io::Result<()> {
    writeln!(out, "{CSV_HEADER}")?;
    for f in files {
        let file = csv_field(&f.file);
        for run in &f.runs {
            let algo = csv_field(&run.algo);
            for r in &run.rows {
                let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.8}"));
                let (curve_length, curve_us, stage) = match &r.curve {
                    Some(c) => (opt(c.length), format!("{:.3}", c.curve_us), c.stage),
                    None => (String::new(), String::new(), ""),
                };
                writeln!(
                    out,
                    "{file},{},{algo},{},{},{},{},{},{},{},{:.3},{},{},{curve_length},{curve_us},{stage}",
                    r.index,
                    r.start.x,
                    r.start.y,
                    r.goal.x,
                    r.goal.y,
                    r.optimal,
                    opt(r.length),
                    opt(r.smoothed),
                    r.us,
                    r.expanded,
                    u8::from(r.length.is_some()),
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: usize, optimal: f64, length: Option<f64>, us: f64) -> RowResult {
        RowResult {
            index,
            start: Point::new(0, 0),
            goal: Point::new(1, 1),
            optimal,
            found: length.is_some(),
            length,
            invalid: false,
            wrong: false,
            matches_optimal: length.is_some(),
            smoothed: None,
            smoothed_length: None,
            smooth_invalid: false,
            narrow: 0,
            us,
            smooth_us: None,
            first_leg_us: None,
            first_leg_invalid: false,
            curve: None,
            expanded: 10,
        }
    }

    #[test]
    fn percentiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), Some(50.0));
        assert_eq!(percentile(&v, 0.95), Some(95.0));
        assert_eq!(percentile(&v, 0.99), Some(99.0));
        assert_eq!(percentile(&[7.0], 0.99), Some(7.0));
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[test]
    fn stats_of_rows() {
        let mut longer = row(1, 10.0, Some(12.0), 3.0);
        longer.matches_optimal = false;
        let rows = vec![
            row(0, 10.0, Some(10.0), 1.0),
            longer,
            row(2, 0.0, Some(0.0), 2.0),
            row(3, 5.0, None, 4.0),
        ];
        let s = AlgoStats::from_rows(&rows, 0.0, false);
        assert_eq!((s.rows, s.solved, s.invalid, s.wrong), (4, 3, 0, 0));
        assert!((s.max_subopt.unwrap() - 0.2).abs() < 1e-12);
        assert!((s.mean_subopt.unwrap() - 0.2 / 3.0).abs() < 1e-12);
        assert_eq!(s.p50_us, Some(2.0));
        assert_eq!(s.mean_us, Some(2.5));
        assert!((s.total_ms - 0.01).abs() < 1e-12);
        assert_eq!(s.mean_smoothed_ratio, None);
        let v = serde_json::to_value(&s).unwrap();
        assert!(v.get("mean_smoothed_ratio").is_none());
        assert!(v.get("p99_us").is_some());
        assert!(v.get("smooth_share").is_none());
    }

    #[test]
    fn first_leg_percentiles() {
        let mut rows: Vec<RowResult> = (0..10)
            .map(|i| {
                let mut r = row(i, 10.0, Some(10.0), 50.0);
                r.first_leg_us = Some((i + 1) as f64);
                r
            })
            .collect();
        let s = AlgoStats::from_rows(&rows, 0.0, false);
        assert_eq!(s.p50_first_leg_us, Some(5.0));
        assert_eq!(s.p90_first_leg_us, Some(9.0));
        assert_eq!(s.first_leg_invalid, Some(0));
        assert!(!s.has_failures());
        assert!(s.line("x").contains("first leg p50 5.0 µs, p90 9.0 µs"));
        rows[3].first_leg_invalid = true;
        rows[3].first_leg_us = None;
        let s = AlgoStats::from_rows(&rows, 0.0, false);
        assert_eq!(s.first_leg_invalid, Some(1));
        assert!(s.has_failures());
        // Without --first-leg nothing is reported.
        let plain = AlgoStats::from_rows(&[row(0, 1.0, Some(1.0), 1.0)], 0.0, false);
        assert_eq!(plain.p50_first_leg_us, None);
        assert_eq!(plain.first_leg_invalid, None);
    }

    #[test]
    fn smoothing_time_share() {
        let mut a = row(0, 10.0, Some(10.0), 3.0);
        a.smoothed = Some(9.5);
        a.smooth_us = Some(1.0);
        let mut b = row(1, 10.0, Some(10.0), 5.0);
        b.smoothed = Some(9.0);
        b.smooth_us = Some(3.0);
        // A row without a smoothed path counts in neither sum.
        let c = row(2, 5.0, None, 100.0);
        let s = AlgoStats::from_rows(&[a, b, c], 0.0, true);
        assert_eq!(s.mean_smooth_us, Some(2.0));
        assert!((s.smooth_share.unwrap() - 4.0 / 12.0).abs() < 1e-12);
        assert!((s.mean_smoothed_ratio.unwrap() - 0.925).abs() < 1e-12);
        assert!(s
            .line("x")
            .contains("smoothing 2.0 µs (33.3% of query + smoothing)"));
    }

    #[test]
    fn csv_lines() {
        // The second row carries a curve: its length, time and stage.
        let mut curved = row(1, 2.0, None, 1.0);
        curved.curve = Some(CurveRow {
            length: Some(2.25),
            invalid: false,
            reversing: false,
            us: 9.0,
            curve_us: 7.5,
            stage: stage_name(regionpath::CurveStage::WholeBox),
        });
        let f = FileRun {
            file: "a,b.scen".into(),
            map: "m.map".into(),
            width: 2,
            height: 2,
            rows: 2,
            runs: vec![AlgoRun {
                algo: "astar".into(),
                prepare_ms: 0.0,
                rows: vec![row(0, 1.5, Some(1.5), 2.0), curved],
            }],
        };
        let mut out = Vec::new();
        write_csv(&mut out, &[f]).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], CSV_HEADER);
        assert_eq!(
            lines[1],
            "\"a,b.scen\",0,astar,0,0,1,1,1.5,1.50000000,,2.000,10,1,,,"
        );
        assert_eq!(
            lines[2],
            "\"a,b.scen\",1,astar,0,0,1,1,2,,,1.000,10,0,2.25000000,7.500,whole_box"
        );
    }
}
