//! Moving AI conformance: on every scenario file under the Moving AI `scen/`
//! folder, the exact searchers find a path whose length (recomputed from its
//! cells by the independent validator) matches the row's optimal length
//! within the file's print precision ([`Scenario::matches`]), and every path
//! is a legal 8-connected walk from start to goal. Jump point search is
//! checked on **every row** of every file (77,698 rows, about 20 s on two
//! cores); plain A*, about 10 times slower, on the sample below.
//!
//! **Sample.** All 77,698 rows cost about 7 minutes of A* on the 2-core
//! development machine (412 s of queries single-threaded, release build;
//! over 3 minutes even on both cores), too much for CI. In optimized builds (`cargo test --profile ci` or `--release`) this
//! test checks every 4th row of every file (rows 0, 4, 8, …) plus each
//! file's last row (the files are sorted by length, so that is about the
//! longest): 19,464 rows on all 34 files, in parallel over maps. Debug builds
//! take every 64th row. `REGIONPATH_CONFORMANCE_EVERY=N` overrides the step
//! (`1` checks every row). The sample is printed with the results.
//!
//! The maps the project ships (`maps/*.scen`, lengths from the CLI's own
//! Dijkstra) are checked by a second test that needs no external data: every
//! row in optimized builds, every 8th in debug builds.

use rayon::prelude::*;
use regionpath::grid::Point;
use regionpath::grid::{read_map, read_scen, Grid, ScenRow, Scenario};
use regionpath::search::{AStar, JumpPointSearch, SearchError, SearchStats, Status};
use regionpath_tests::{check_route, files_ending, movingai_or_skip, workspace_root, Area, Moves};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Rows checked per file: every `every`th, plus the last.
fn sample_step() -> usize {
    if let Some(n) = std::env::var("REGIONPATH_CONFORMANCE_EVERY")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
    {
        return n;
    }
    if cfg!(debug_assertions) {
        64
    } else {
        4
    }
}

/// What one scenario file gave.
#[derive(Default)]
struct FileReport {
    name: String,
    total: usize,
    checked: usize,
    jps_checked: usize,
    max_diff: f64,
    seconds: f64,
    failures: Vec<String>,
}

/// One exact searcher under test: writes a path into the buffer.
type Search<'a> = dyn FnMut(Point, Point, &mut Vec<Point>) -> Result<SearchStats, SearchError> + 'a;

fn check_row(
    algo: &str,
    search: &mut Search<'_>,
    path: &mut Vec<Point>,
    grid: &Grid,
    scen: &Scenario,
    row: &ScenRow,
    report: &mut FileReport,
) {
    let fail = |report: &mut FileReport, msg: String| {
        if report.failures.len() < 20 {
            report
                .failures
                .push(format!("{} line {} ({algo}): {msg}", report.name, row.line));
        } else if report.failures.len() == 20 {
            report
                .failures
                .push(format!("{}: more failures not shown", report.name));
        }
    };
    let stats = match search(row.start, row.goal, path) {
        Ok(s) => s,
        Err(e) => return fail(report, format!("search error {e}")),
    };
    let solvable = row.optimal > 0.0 || row.start == row.goal;
    if !solvable {
        if stats.status != Status::NoPath {
            fail(report, format!("unsolvable row, got {:?}", stats.status));
        }
        return;
    }
    if stats.status != Status::Found {
        return fail(report, format!("expected a path, got {:?}", stats.status));
    }
    let walk = match check_route(
        grid,
        row.start,
        row.goal,
        path,
        Moves::Eight,
        Area::whole(grid),
    ) {
        Ok(w) => w,
        Err(e) => return fail(report, format!("invalid path: {e}")),
    };
    let length = walk.length();
    if (length - stats.cost).abs() > 1e-9 {
        fail(
            report,
            format!("reported cost {} but the path is {length}", stats.cost),
        );
    }
    let diff = (length - row.optimal).abs();
    report.max_diff = report.max_diff.max(diff);
    if scen.matches(row, length) {
        return;
    }
    fail(
        report,
        format!(
            "length {length:.8} but the row says {} ({:?})",
            row.optimal, scen.precision
        ),
    );
}

/// Runs the sample of each file in `files` (all on one map) with one warm A*.
fn run_group(map: &Path, files: &[(PathBuf, Scenario)], every: usize) -> Vec<FileReport> {
    let grid = match read_map(map) {
        Ok(g) => g,
        Err(e) => {
            return vec![FileReport {
                name: map.display().to_string(),
                failures: vec![format!("{}: {e}", map.display())],
                ..FileReport::default()
            }]
        }
    };
    let mut astar = AStar::new();
    let mut jps = JumpPointSearch::new(&grid);
    let mut path = Vec::new();
    files
        .iter()
        .map(|(file, scen)| {
            let t = Instant::now();
            let mut report = FileReport {
                name: file
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                total: scen.rows.len(),
                ..FileReport::default()
            };
            for (i, row) in scen.rows.iter().enumerate() {
                if (row.map_width, row.map_height) != (grid.width(), grid.height()) {
                    report.failures.push(format!(
                        "{} line {}: map size mismatch",
                        report.name, row.line
                    ));
                    continue;
                }
                // Jump point search on every row, A* on the sample.
                let mut by_jps = |s, t, out: &mut Vec<Point>| jps.find_path_into(s, t, out);
                check_row("jps", &mut by_jps, &mut path, &grid, scen, row, &mut report);
                report.jps_checked += 1;
                if i % every == 0 || i + 1 == scen.rows.len() {
                    let mut by_astar =
                        |s, t, out: &mut Vec<Point>| astar.find_path_into(&grid, s, t, out);
                    check_row(
                        "astar",
                        &mut by_astar,
                        &mut path,
                        &grid,
                        scen,
                        row,
                        &mut report,
                    );
                    report.checked += 1;
                }
            }
            report.seconds = t.elapsed().as_secs_f64();
            report
        })
        .collect()
}

/// Loads the scenario files in `scen_dir`, groups them by map, checks the
/// sample and returns the per-file reports (in file-name order).
fn conformance(scen_files: &[PathBuf], maps_dir: &Path, every: usize) -> Vec<FileReport> {
    // (map path, files on it), each file parsed once.
    let mut groups: Vec<(PathBuf, Vec<(PathBuf, Scenario)>)> = Vec::new();
    let mut reports = Vec::new();
    for file in scen_files {
        let scen = match read_scen(file) {
            Ok(s) => s,
            Err(e) => {
                reports.push(FileReport {
                    name: file.display().to_string(),
                    failures: vec![format!("{}: {e}", file.display())],
                    ..FileReport::default()
                });
                continue;
            }
        };
        let Some(first) = scen.rows.first() else {
            reports.push(FileReport {
                name: file.display().to_string(),
                failures: vec![format!("{}: no rows", file.display())],
                ..FileReport::default()
            });
            continue;
        };
        let name = first.map_file_name().to_string();
        if let Some(other) = scen.rows.iter().find(|r| r.map_file_name() != name) {
            reports.push(FileReport {
                name: file.display().to_string(),
                failures: vec![format!(
                    "{} line {}: a second map {}",
                    file.display(),
                    other.line,
                    other.map
                )],
                ..FileReport::default()
            });
            continue;
        }
        let map = maps_dir.join(&name);
        match groups.iter_mut().find(|(m, _)| *m == map) {
            Some((_, files)) => files.push((file.clone(), scen)),
            None => groups.push((map, vec![(file.clone(), scen)])),
        }
    }
    // Biggest groups first so the two threads finish together.
    let weight = |files: &[(PathBuf, Scenario)]| -> f64 {
        files
            .iter()
            .flat_map(|(_, s)| s.rows.iter())
            .map(|r| r.optimal * r.optimal)
            .sum::<f64>()
    };
    groups.sort_by(|a, b| weight(&b.1).total_cmp(&weight(&a.1)));
    let mut done: Vec<FileReport> = groups
        .par_iter()
        .map(|(map, files)| run_group(map, files, every))
        .flatten()
        .collect();
    reports.append(&mut done);
    reports.sort_by(|a, b| a.name.cmp(&b.name));
    reports
}

/// Writes straight to stderr, past the test harness's output capture, so
/// the sample and timings show in every `cargo test` run.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

fn summarize(what: &str, reports: &[FileReport], every: usize, seconds: f64) {
    let sample = if every == 1 {
        "every row".to_string()
    } else {
        format!("sample: every {every}th row of each file plus its last")
    };
    let total: usize = reports.iter().map(|r| r.total).sum();
    let checked: usize = reports.iter().map(|r| r.checked).sum();
    let jps_checked: usize = reports.iter().map(|r| r.jps_checked).sum();
    for r in reports {
        say!(
            "  {:<32} {:>6} of {:>6} rows  max |diff| {:.2e}  {:>7.2} s",
            r.name,
            r.checked,
            r.total,
            r.max_diff,
            r.seconds,
        );
    }
    say!(
        "{what}: A* checked {checked} of {total} rows ({sample}), jump point search \
         {jps_checked} (every row), on {} files in {seconds:.1} s",
        reports.len()
    );
}

fn assert_clean(reports: &[FileReport]) {
    let failures: Vec<&String> = reports.iter().flat_map(|r| r.failures.iter()).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    for r in reports {
        assert!(r.checked > 0, "{}: no row checked", r.name);
    }
}

#[test]
fn astar_matches_every_moving_ai_scenario_file() {
    let Some(dir) = movingai_or_skip("astar_matches_every_moving_ai_scenario_file") else {
        return;
    };
    let files = files_ending(&dir.join("scen"), ".scen");
    assert!(
        !files.is_empty(),
        "no .scen files in {}",
        dir.join("scen").display()
    );
    let every = sample_step();
    let t = Instant::now();
    let reports = conformance(&files, &dir.join("maps"), every);
    summarize(
        "Moving AI conformance",
        &reports,
        every,
        t.elapsed().as_secs_f64(),
    );
    assert_eq!(reports.len(), files.len());
    assert_clean(&reports);
}

#[test]
fn astar_matches_the_shipped_scenarios() {
    let maps = workspace_root().join("maps");
    let files = files_ending(&maps, ".scen");
    assert!(
        files.len() >= 2,
        "expected the generated scenarios in {}",
        maps.display()
    );
    let every = if cfg!(debug_assertions) { 8 } else { 1 };
    let t = Instant::now();
    let reports = conformance(&files, &maps, every);
    summarize("shipped maps", &reports, every, t.elapsed().as_secs_f64());
    assert_clean(&reports);
}
