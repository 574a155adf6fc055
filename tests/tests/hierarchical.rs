//! The hierarchical planner on the Moving AI benchmarks: every sampled row
//! of every scenario file is solved (every row in this set has a path), the
//! path passes the independent validator (contiguous, passable, no corner
//! cutting, right endpoints), is never shorter than the row's optimum, and
//! the smoothed polyline is never longer than the cell path. The pooled
//! quality targets of the hierarchy issue are checked on the sample: mean
//! suboptimality ≤ 3 %, 95th percentile ≤ 8 %, mean smoothed length /
//! optimum ≤ 0.97.
//!
//! **Sample.** Every 4th row of each file plus its last (the longest) in
//! optimized builds (`--profile ci`), every 32nd in debug builds;
//! `REGIONPATH_HIERARCHICAL_EVERY=N` overrides. The full set is measured
//! by `regionpath scen --algo both --smooth` (figures in the README).

use rayon::prelude::*;
use regionpath::grid::{read_map, read_scen};
use regionpath::{Config, Hierarchy, HierarchyConfig, Planner};
use regionpath_tests::{check_route, files_ending, movingai_or_skip, Area, Moves};

fn step() -> usize {
    std::env::var("REGIONPATH_HIERARCHICAL_EVERY")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(if cfg!(debug_assertions) { 32 } else { 4 })
}

#[test]
fn hierarchical_paths_are_valid_complete_and_near_optimal() {
    let Some(dir) = movingai_or_skip("hierarchical_paths_are_valid_complete_and_near_optimal")
    else {
        return;
    };
    let files = files_ending(&dir.join("scen"), ".scen");
    assert_eq!(files.len(), 34, "the data README lists 34 scenario files");
    let every = step();
    // Per file: (suboptimality of each row, smoothed ratio of each row).
    let results: Vec<(String, Vec<f64>, Vec<f64>)> = files
        .par_iter()
        .map(|file| {
            let scen = read_scen(file).expect("scenario file parses");
            let name = scen.rows[0].map_file_name().to_string();
            let grid = read_map(dir.join("maps").join(&name)).expect("map parses");
            let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
            let mut planner = Planner::new(Config::new().smooth(true)).expect("valid settings");
            let (mut subs, mut smooth) = (Vec::new(), Vec::new());
            let n = scen.rows.len();
            for (i, row) in scen.rows.iter().enumerate() {
                if i % every != 0 && i + 1 != n {
                    continue;
                }
                let path = planner
                    .find_path(&h, &grid, row.start, row.goal)
                    .unwrap_or_else(|e| panic!("{}:{}: no path: {e}", file.display(), row.line));
                let walk = check_route(
                    &grid,
                    row.start,
                    row.goal,
                    &path.cells,
                    Moves::Eight,
                    Area::whole(&grid),
                )
                .unwrap_or_else(|e| panic!("{}:{}: invalid path: {e}", file.display(), row.line));
                let len = walk.length();
                assert!(
                    (len - path.cost).abs() < 1e-6,
                    "{}:{}: reported cost {} but the cells measure {len}",
                    file.display(),
                    row.line,
                    path.cost
                );
                assert!(
                    len >= row.optimal - scen.precision.tolerance(row.optimal),
                    "{}:{}: {len} is shorter than the optimum {}",
                    file.display(),
                    row.line,
                    row.optimal
                );
                assert!(path.smoothed_length <= len + 1e-6);
                if row.optimal > 0.0 {
                    subs.push(len / row.optimal - 1.0);
                    smooth.push(path.smoothed_length / row.optimal);
                }
            }
            (name, subs, smooth)
        })
        .collect();
    let mut all: Vec<f64> = results.iter().flat_map(|r| r.1.iter().copied()).collect();
    let smooth: Vec<f64> = results.iter().flat_map(|r| r.2.iter().copied()).collect();
    all.sort_by(f64::total_cmp);
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    let p95 = all[(all.len() * 95 / 100).min(all.len() - 1)];
    let smooth_mean = smooth.iter().sum::<f64>() / smooth.len() as f64;
    eprintln!(
        "hierarchical: {} rows (every {every}th + last of 34 files): mean subopt {:.2}%, p95 {:.2}%, max {:.1}%, smoothed/optimal mean {:.4}",
        all.len(),
        mean * 100.0,
        p95 * 100.0,
        all.last().copied().unwrap_or(0.0) * 100.0,
        smooth_mean
    );
    assert!(mean <= 0.03, "mean suboptimality {mean}");
    assert!(p95 <= 0.08, "p95 suboptimality {p95}");
    assert!(smooth_mean <= 0.97, "mean smoothed ratio {smooth_mean}");
}
