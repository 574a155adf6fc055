//! `regionpath scen`: the Moving AI scenario runner.
//!
//! All scenario files and their maps are loaded and checked first (each map
//! once), so bad input fails before any timing starts. Then, file by file and
//! planner by planner, the rows run in file order: only the query is timed;
//! each returned path is then checked by [`crate::validate`] and compared with
//! the row's optimum by [`Scenario::matches`].
//!
//! Under `--profile` the rows' starts and goals must be usable positions,
//! each path is checked by [`validate::check_profiled_path`] (the
//! profile's rules, applied to the map's terrain) and its cost must match
//! the row's optimum to a relative 1e-6 (or the file's print precision,
//! whichever is looser). `--paths` writes every path as a line
//! `ROW ALGO x,y x,y ...`. With `--smooth`, paths are smoothed for the
//! profile's footprint and costs, each polyline is checked by
//! [`validate::check_profiled_smoothed`] and must cost no more than its
//! path, and the smoothed figures are costs; vehicle curves are checked by
//! [`validate::check_profiled_curve`].

use crate::algo::{self, Algo, Smoother};
use crate::args::ScenArgs;
use crate::error::{CliError, Outcome};
use crate::input::{load_map, load_scen as read_scen};
use crate::out::Out;
use crate::progress;
use crate::report::{self, AlgoRun, AlgoStats, FileRun, RowResult};
use crate::validate;
use indicatif::ProgressBar;
use regionpath::grid::{Grid, Point, Profile, ProfileGrid, ScenRow, Scenario};
use regionpath::hierarchy;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Maps loaded so far, each once.
#[derive(Default)]
struct MapCache {
    maps: Vec<(PathBuf, Grid)>,
    /// Under `--profile` with `--smooth`: the profile's view of each map,
    /// for the smoother and the vehicle curver (the planners build their
    /// own).
    views: Vec<ProfileGrid>,
}

impl MapCache {
    /// The index of the map at `path`, loading it on first use.
    fn load(&mut self, path: &Path) -> Result<usize, CliError> {
        if let Some(i) = self.maps.iter().position(|(p, _)| p == path) {
            return Ok(i);
        }
        let grid = load_map(path)?;
        self.maps.push((path.to_path_buf(), grid));
        Ok(self.maps.len() - 1)
    }
}

/// A scenario file with the map of each of its rows resolved and checked.
struct LoadedScen {
    path: PathBuf,
    scenario: Scenario,
    /// Map index (into the cache) of each row.
    row_maps: Vec<usize>,
}

/// The folders searched for a row's map, in order.
fn map_candidates(scen: &Path, maps_dir: Option<&Path>, name: &str) -> Vec<PathBuf> {
    match maps_dir {
        Some(dir) => vec![dir.join(name)],
        None => {
            let dir = scen.parent().unwrap_or(Path::new(""));
            vec![dir.join(name), dir.join("..").join("maps").join(name)]
        }
    }
}

fn load_scen(
    path: &Path,
    maps_dir: Option<&Path>,
    cache: &mut MapCache,
    profile: Option<&Profile>,
) -> Result<LoadedScen, CliError> {
    let scenario = read_scen(path)?;
    if scenario.rows.is_empty() {
        return Err(CliError::EmptyScen {
            path: path.to_path_buf(),
        });
    }
    let mut row_maps = Vec::with_capacity(scenario.rows.len());
    // Names resolved so far in this file: (name, map index).
    let mut resolved: Vec<(String, usize)> = Vec::new();
    for row in &scenario.rows {
        let name = row.map_file_name();
        let idx = match resolved.iter().find(|(n, _)| n == name) {
            Some((_, i)) => *i,
            None => {
                let candidates = map_candidates(path, maps_dir, name);
                let found = candidates.iter().find(|c| c.is_file()).ok_or_else(|| {
                    CliError::MapNotFound {
                        scen: path.to_path_buf(),
                        line: row.line,
                        name: name.to_string(),
                        tried: candidates
                            .iter()
                            .map(|c| c.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                    }
                })?;
                let i = cache.load(found)?;
                resolved.push((name.to_string(), i));
                i
            }
        };
        let (map_path, grid) = &cache.maps[idx];
        if grid.width() != row.map_width || grid.height() != row.map_height {
            return Err(CliError::SizeMismatch {
                scen: path.to_path_buf(),
                line: row.line,
                name: row.map.clone(),
                map: map_path.clone(),
                row_width: row.map_width,
                row_height: row.map_height,
                map_width: grid.width(),
                map_height: grid.height(),
            });
        }
        for (which, point) in [("start", row.start), ("goal", row.goal)] {
            if let Some(profile) = profile {
                let (x, y) = (i64::from(point.x), i64::from(point.y));
                if validate::position_cost(grid, profile, x, y).is_none() {
                    return Err(CliError::UnusableEndpoint {
                        scen: path.to_path_buf(),
                        line: row.line,
                        which,
                        point,
                        map: map_path.clone(),
                        profile: profile.name().to_string(),
                    });
                }
            } else if !grid.is_passable(point) {
                return Err(CliError::BlockedEndpoint {
                    scen: path.to_path_buf(),
                    line: row.line,
                    which,
                    point,
                    map: map_path.clone(),
                });
            }
        }
        row_maps.push(idx);
    }
    Ok(LoadedScen {
        path: path.to_path_buf(),
        scenario,
        row_maps,
    })
}

/// A planner with the map it was last prepared for.
struct Slot {
    algo: Box<dyn Algo>,
    prepared: Option<usize>,
}

/// Reused buffers, and the `--paths` file.
struct Buffers {
    path: Vec<Point>,
    smoothed: Vec<(f64, f64)>,
    /// With `--turning-radius`: the vehicle curver, its radii and the
    /// waypoints as it takes them.
    curver: Option<(regionpath::VehicleCurver, f32, f32)>,
    waypoints: Vec<regionpath::Vec2>,
    /// The vehicle curve of the row (its memory reused).
    curve: regionpath::CurvedPath,
    paths: Option<PathsFile>,
}

/// The `--paths` output: one line `ROW ALGO x,y x,y ...` per row and
/// planner.
struct PathsFile {
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
}

impl PathsFile {
    fn create(path: &Path) -> Result<PathsFile, CliError> {
        let file = std::fs::File::create(path).map_err(|source| CliError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(PathsFile {
            path: path.to_path_buf(),
            out: std::io::BufWriter::new(file),
        })
    }

    /// Writes row `index`'s line for planner `algo`: `cells` when a path
    /// was found, no positions when not.
    fn line(&mut self, index: usize, algo: &str, cells: Option<&[Point]>) -> Result<(), CliError> {
        let mut write = || -> std::io::Result<()> {
            write!(self.out, "{index} {algo}")?;
            for p in cells.unwrap_or(&[]) {
                write!(self.out, " {},{}", p.x, p.y)?;
            }
            writeln!(self.out)
        };
        write().map_err(|source| CliError::Write {
            path: self.path.clone(),
            source,
        })
    }

    fn finish(mut self) -> Result<(), CliError> {
        self.out.flush().map_err(|source| CliError::Write {
            path: self.path,
            source,
        })
    }
}

/// Whether `length` is the row's optimum under a profile: within a relative
/// 1e-6, or the file's print precision where that is looser.
fn matches_profiled(scenario: &Scenario, row: &ScenRow, length: f64) -> bool {
    let tolerance = scenario
        .precision
        .tolerance(row.optimal)
        .max(1e-6 * row.optimal.abs());
    (length - row.optimal).abs() <= tolerance
}

/// Whether the row has a path: Moving AI writes unsolvable problems as
/// length 0 with distinct start and goal.
fn solvable(row: &ScenRow) -> bool {
    row.optimal > 0.0 || row.start == row.goal
}

#[allow(clippy::too_many_arguments)]
fn run_row(
    slot: &mut Slot,
    smoother: &mut Option<Box<dyn Smoother>>,
    grid: &Grid,
    scenario: &Scenario,
    row: &ScenRow,
    index: usize,
    file: &Path,
    profile: Option<&Profile>,
    view: Option<&ProfileGrid>,
    buf: &mut Buffers,
) -> Result<RowResult, CliError> {
    let t = Instant::now();
    let info = slot.algo.query(grid, row.start, row.goal, &mut buf.path);
    let us = t.elapsed().as_secs_f64() * 1e6;
    let info = info.map_err(|message| CliError::Algo {
        algo: slot.algo.name().to_string(),
        file: file.to_path_buf(),
        line: Some(row.line),
        message,
    })?;
    let mut result = RowResult {
        index,
        start: row.start,
        goal: row.goal,
        optimal: row.optimal,
        found: info.found,
        length: None,
        invalid: false,
        wrong: false,
        matches_optimal: false,
        smoothed: None,
        smoothed_length: None,
        smooth_invalid: false,
        narrow: 0,
        us,
        smooth_us: None,
        first_leg_us: None,
        first_leg_invalid: false,
        expanded: info.expanded,
        curve: None,
    };
    if let Some(paths) = &mut buf.paths {
        let cells = info.found.then_some(buf.path.as_slice());
        paths.line(index, slot.algo.name(), cells)?;
    }
    if info.found {
        let checked = match profile {
            Some(p) => validate::check_profiled_path(grid, p, row.start, row.goal, &buf.path),
            None => validate::check_path(grid, row.start, row.goal, &buf.path).map(|s| s.length()),
        };
        match checked {
            Ok(length) => result.length = Some(length),
            Err(_) => result.invalid = true,
        }
    }
    result.matches_optimal = result.length.is_some_and(|len| match profile {
        Some(_) => matches_profiled(scenario, row, len),
        None => scenario.matches(row, len),
    });
    result.wrong = match result.length {
        _ if info.found != solvable(row) => true,
        Some(_) if slot.algo.is_optimal() => !result.matches_optimal,
        // A non-optimal planner may be longer, never shorter.
        Some(len) => len < row.optimal && !result.matches_optimal,
        None => false,
    };
    if let (Some(smoother), Some(_)) = (smoother.as_mut(), result.length) {
        let t = Instant::now();
        let smoothed = smoother.smooth(grid, view, &buf.path, &mut buf.smoothed);
        result.smooth_us = Some(t.elapsed().as_secs_f64() * 1e6);
        result.narrow = smoothed.map_err(|message| CliError::Algo {
            algo: "smoothing".to_string(),
            file: file.to_path_buf(),
            line: Some(row.line),
            message,
        })?;
        let checked = match (profile, result.length) {
            (Some(p), Some(path_cost)) => {
                validate::check_profiled_smoothed(grid, p, row.start, row.goal, &buf.smoothed)
                    .ok()
                    // The smoother promises no dearer polyline (to 1e-12
                    // relative; the sums here run in another order).
                    .filter(|s| s.cost <= path_cost * (1.0 + 1e-9) + 1e-9)
                    .map(|s| (s.cost, s.length))
            }
            _ => validate::check_smoothed(grid, row.start, row.goal, &buf.smoothed)
                .ok()
                .map(|len| (len, len)),
        };
        match checked {
            Some((smoothed, length)) => {
                result.smoothed = Some(smoothed);
                result.smoothed_length = Some(length);
            }
            None => result.smooth_invalid = true,
        }
    }
    if let (Some((curver, big_r, r)), Some(_)) = (buf.curver.as_mut(), result.smoothed) {
        buf.waypoints.clear();
        buf.waypoints.extend(
            buf.smoothed
                .iter()
                .map(|&(x, y)| regionpath::Vec2::new(x as f32, y as f32)),
        );
        let t = Instant::now();
        let curve = match view {
            Some(view) => {
                curver.curve_profiled_into(view, &buf.path, &buf.waypoints, &mut buf.curve)
            }
            None => curver.curve_into(grid, &buf.path, &buf.waypoints, &mut buf.curve),
        };
        let curve_us = t.elapsed().as_secs_f64() * 1e6;
        let c = &buf.curve;
        let (big_r, r) = (f64::from(*big_r), f64::from(*r));
        let (length, invalid) = match curve {
            Ok(()) => {
                let checked = match profile {
                    Some(p) => {
                        validate::check_profiled_curve(grid, p, row.start, row.goal, c, big_r, r)
                    }
                    None => validate::check_curve(grid, row.start, row.goal, c, big_r, r),
                };
                match checked {
                    Ok(len) => (Some(len), false),
                    Err(_) => (None, true),
                }
            }
            Err(_) => (None, false),
        };
        result.curve = Some(report::CurveRow {
            length,
            invalid,
            reversing: length.is_some() && c.has_reverse(),
            us: us + result.smooth_us.unwrap_or(0.0) + curve_us,
            curve_us,
            stage: report::stage_name(curver.stage()),
        });
    }
    Ok(result)
}

#[allow(clippy::too_many_arguments)]
fn run_file(
    loaded: &LoadedScen,
    cache: &MapCache,
    slots: &mut [Slot],
    smoother: &mut Option<Box<dyn Smoother>>,
    every: usize,
    first_leg: bool,
    profile: Option<&Profile>,
    buf: &mut Buffers,
    bar: &ProgressBar,
) -> Result<FileRun, CliError> {
    let rows: Vec<(usize, &ScenRow)> = loaded
        .scenario
        .rows
        .iter()
        .enumerate()
        .step_by(every)
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for row in &loaded.scenario.rows {
        if !names.contains(&row.map_file_name()) {
            names.push(row.map_file_name());
        }
    }
    let first = &cache.maps[loaded.row_maps[0]].1;
    let mut file_run = FileRun {
        file: loaded.path.display().to_string(),
        map: names.join(","),
        width: first.width(),
        height: first.height(),
        rows: rows.len(),
        runs: Vec::with_capacity(slots.len()),
    };
    for slot in slots.iter_mut() {
        let mut run = AlgoRun {
            algo: slot.algo.name().to_string(),
            prepare_ms: 0.0,
            rows: Vec::with_capacity(rows.len()),
        };
        for &(index, row) in &rows {
            let map = loaded.row_maps[index];
            let grid = &cache.maps[map].1;
            run.prepare_ms += prepare(slot, cache, map)?;
            run.rows.push(run_row(
                slot,
                smoother,
                grid,
                &loaded.scenario,
                row,
                index,
                &loaded.path,
                profile,
                cache.views.get(map),
                buf,
            )?);
            bar.inc(1);
        }
        if first_leg {
            time_first_legs(slot, loaded, cache, &rows, &mut run.rows, buf)?;
        }
        file_run.runs.push(run);
    }
    Ok(file_run)
}

/// Prepares `slot` for map `map` unless it already is; returns the time
/// taken in milliseconds.
fn prepare(slot: &mut Slot, cache: &MapCache, map: usize) -> Result<f64, CliError> {
    if slot.prepared == Some(map) {
        return Ok(0.0);
    }
    let t = Instant::now();
    slot.algo
        .prepare(&cache.maps[map].1)
        .map_err(|message| CliError::Algo {
            algo: slot.algo.name().to_string(),
            file: cache.maps[map].0.clone(),
            line: None,
            message,
        })?;
    slot.prepared = Some(map);
    Ok(t.elapsed().as_secs_f64() * 1e3)
}

/// The `--first-leg` pass: times each row's first leg (a second pass, so
/// the full query of the same row has not just warmed the caches for it)
/// and checks it: a valid path from the row's start, present exactly when
/// the goal is reachable. Does nothing for planners without legs.
fn time_first_legs(
    slot: &mut Slot,
    loaded: &LoadedScen,
    cache: &MapCache,
    rows: &[(usize, &ScenRow)],
    results: &mut [RowResult],
    buf: &mut Buffers,
) -> Result<(), CliError> {
    for (&(index, row), result) in rows.iter().zip(results.iter_mut()) {
        let map = loaded.row_maps[index];
        let grid = &cache.maps[map].1;
        prepare(slot, cache, map)?;
        let t = Instant::now();
        let leg = slot
            .algo
            .first_leg(grid, row.start, row.goal, &mut buf.path);
        let us = t.elapsed().as_secs_f64() * 1e6;
        let leg = leg.map_err(|message| CliError::Algo {
            algo: slot.algo.name().to_string(),
            file: loaded.path.clone(),
            line: Some(row.line),
            message,
        })?;
        let Some(found) = leg else { return Ok(()) };
        let valid = match (found, buf.path.last()) {
            (true, Some(&end)) => {
                solvable(row) && validate::check_path(grid, row.start, end, &buf.path).is_ok()
            }
            (true, None) => false,
            (false, _) => !solvable(row),
        };
        result.first_leg_invalid = !valid;
        result.first_leg_us = valid.then_some(us);
    }
    Ok(())
}

/// Runs `regionpath scen`.
pub fn run(args: &ScenArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let every = args.every.get();
    let profile = match &args.profile {
        Some(path) => Some((crate::profile::load(path)?, path.as_path())),
        None => None,
    };
    if let (Some((p, path)), true) = (&profile, args.smooth) {
        // The unit's disc must lie inside its footprint.
        if f64::from(args.radius) > f64::from(p.size()) / 2.0 {
            return Err(CliError::Unsupported(format!(
                "`scen --radius {}` with profile `{}` ({}): the radius must be at most half \
                 the profile's size {}",
                args.radius,
                p.name(),
                path.display(),
                p.size()
            )));
        }
    }
    // Fail on unavailable planners before reading anything.
    let mut slots: Vec<Slot> = algo::build(
        args.algo,
        hierarchy::PlannerConfig::new().second_route(!args.no_second_route),
        hierarchy::HierarchyConfig::new().portals(args.portals.mode()),
        profile.as_ref().map(|(p, path)| (p, *path)),
    )?
    .into_iter()
    .map(|algo| Slot {
        algo,
        prepared: None,
    })
    .collect();
    let mut smoother = if args.smooth {
        Some(algo::smoother(args.radius)?)
    } else {
        None
    };

    let mut cache = MapCache::default();
    let mut loaded = Vec::with_capacity(args.files.len());
    for file in &args.files {
        loaded.push(load_scen(
            file,
            args.maps.as_deref(),
            &mut cache,
            profile.as_ref().map(|(p, _)| p),
        )?);
    }

    if let (Some((p, _)), true) = (&profile, args.smooth) {
        cache.views = cache
            .maps
            .iter()
            .map(|(_, grid)| ProfileGrid::new(grid, p))
            .collect();
    }

    // Human-readable lines go to stdout, or to stderr under --json.
    let mut stderr_text = Out::stderr();
    let text: &mut Out = if args.json { &mut stderr_text } else { out };
    let curver = match args.turning_radius {
        Some(big_r) => {
            let config = regionpath::Config::new()
                .smooth(true)
                .unit_radius(args.radius)
                .turning_radius(big_r)
                .turn_policy(regionpath::TurnPolicy::Strict)
                .headings(args.headings);
            let config = if args.reverse {
                config.reverse(args.reverse_penalty)
            } else {
                config
            };
            let curver = regionpath::VehicleCurver::new(&config)
                .map_err(|e| CliError::Unsupported(format!("--turning-radius {big_r}: {e}")))?
                .ok_or_else(|| {
                    CliError::Unsupported(format!(
                        "--turning-radius {big_r}: the vehicle search takes radii in (0, {}]",
                        regionpath::MAX_REPAIR_RADIUS
                    ))
                })?;
            Some((curver, big_r, args.radius))
        }
        None => None,
    };
    let mut buf = Buffers {
        path: Vec::new(),
        smoothed: Vec::new(),
        curver,
        waypoints: Vec::new(),
        curve: regionpath::CurvedPath::default(),
        paths: match &args.paths {
            Some(p) => Some(PathsFile::create(p)?),
            None => None,
        },
    };
    let total_rows: usize = loaded
        .iter()
        .map(|l| l.scenario.rows.len().div_ceil(every))
        .sum();
    let bar = progress::bar(
        args.quiet,
        (total_rows * slots.len()) as u64,
        format!("{} scenario file(s)", loaded.len()),
    );
    let mut files = Vec::with_capacity(loaded.len());
    for l in &loaded {
        let f = run_file(
            l,
            &cache,
            &mut slots,
            &mut smoother,
            every,
            args.first_leg,
            profile.as_ref().map(|(p, _)| p),
            &mut buf,
            &bar,
        )?;
        bar.suspend(|| -> Result<(), CliError> {
            text.line(format_args!(
                "{} ({} {}x{}, {} rows)",
                f.file, f.map, f.width, f.height, f.rows
            ))?;
            for (name, stats) in report::file_stats(&f, args.smooth) {
                text.line(format_args!("  {}", stats.line(&name)))?;
            }
            text.flush()
        })?;
        files.push(f);
    }
    bar.finish_and_clear();
    if let Some(paths) = buf.paths.take() {
        paths.finish()?;
    }
    let totals = report::totals(&files, args.smooth);
    let rows: usize = files.iter().map(|f| f.rows).sum();
    text.line(format_args!(
        "TOTAL {} files, {} rows{}",
        files.len(),
        rows,
        if every > 1 {
            format!(" (every {every}th row)")
        } else {
            String::new()
        }
    ))?;
    for (name, stats) in &totals {
        text.line(format_args!("  {}", stats.line(name)))?;
    }
    text.flush()?;

    if let Some(csv) = &args.csv {
        let write = || -> std::io::Result<()> {
            let mut out = std::io::BufWriter::new(std::fs::File::create(csv)?);
            report::write_csv(&mut out, &files)?;
            out.flush()
        };
        write().map_err(|source| CliError::Write {
            path: csv.clone(),
            source,
        })?;
    }
    let failed = totals
        .iter()
        .any(|(_, s): &(String, AlgoStats)| s.has_failures());
    let outcome = if failed { Outcome::Failed } else { Outcome::Ok };
    if args.json {
        let mut doc = report::json(&files, every, args.smooth);
        doc["status"] = outcome.status().into();
        doc["profile"] = profile.as_ref().map(|(p, _)| p.name()).into();
        doc["exit_code"] = outcome.code().into();
        out.line(doc)?;
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_follow_the_moving_ai_layout() {
        let c = map_candidates(Path::new("data/scen/a.map.scen"), None, "a.map");
        assert_eq!(
            c,
            vec![
                PathBuf::from("data/scen/a.map"),
                PathBuf::from("data/scen/../maps/a.map")
            ]
        );
        let c = map_candidates(Path::new("a.map.scen"), Some(Path::new("m")), "a.map");
        assert_eq!(c, vec![PathBuf::from("m/a.map")]);
    }

    #[test]
    fn profiled_costs_match_to_a_relative_millionth() {
        let text = "version 1\n0\tm\t9\t9\t1\t1\t4\t1\t1000.00000000\n";
        let scen = regionpath::grid::parse_scen(text).unwrap();
        let row = &scen.rows[0];
        assert!(matches_profiled(&scen, row, 1000.0009));
        assert!(!matches_profiled(&scen, row, 1000.0011));
        assert!(!matches_profiled(&scen, row, 999.9989));
        // Two decimals: the print precision is the looser bound.
        let scen = regionpath::grid::parse_scen(&text.replace("1000.00000000", "1.25")).unwrap();
        assert!(matches_profiled(&scen, &scen.rows[0], 1.254));
        assert!(!matches_profiled(&scen, &scen.rows[0], 1.26));
    }

    #[test]
    fn unsolvable_rows() {
        let row = |optimal: f64, goal: Point| ScenRow {
            bucket: 0,
            map: "m".into(),
            map_width: 9,
            map_height: 9,
            start: Point::new(1, 1),
            goal,
            optimal,
            line: 2,
        };
        assert!(solvable(&row(3.0, Point::new(4, 1))));
        assert!(solvable(&row(0.0, Point::new(1, 1))));
        assert!(!solvable(&row(0.0, Point::new(4, 1))));
    }
}
