//! Smoothing quality and speed on Moving AI benchmark maps.
//!
//! For each map, takes about `--rows` scenario rows spread over the file,
//! finds an optimal 8-connected path with a plain A* (octile heuristic, no
//! corner cutting), smooths it, and prints the mean / max of
//! `smoothed length / optimal length` and the mean smoothing time, for greedy
//! string pulling alone and for the full smoother.
//!
//! ```text
//! cargo run --release -p xtask -- quality \
//!     [--data ../shared/movingai (or $REGIONPATH_MOVINGAI)] [--rows 200] [--radius 0] [all | MAP...]
//! ```

use regionpath_grid::{read_map, read_scen};
use regionpath_smoothing::{polyline_length, segment_clear, SmoothOptions, Smoother, Vec2};
use std::time::Instant;

/// Timing rounds per map (the best one counts).
const ROUNDS: usize = 7;

use crate::astar::{AStar, GAME_MAPS, OTHER_MAPS};

#[derive(Default)]
struct Stats {
    n: usize,
    sum: f64,
    max: f64,
    min: f64,
    time_us: f64,
}

impl Stats {
    fn add(&mut self, ratio: f64, us: f64) {
        if self.n == 0 {
            self.min = ratio;
        }
        self.n += 1;
        self.sum += ratio;
        self.max = self.max.max(ratio);
        self.min = self.min.min(ratio);
        self.time_us += us;
    }
    fn mean(&self) -> f64 {
        self.sum / self.n.max(1) as f64
    }
    fn us(&self) -> f64 {
        self.time_us / self.n.max(1) as f64
    }
}

/// Runs the subcommand with its arguments (after the subcommand's name).
pub fn run(args: Vec<String>) {
    let mut data =
        std::env::var("REGIONPATH_MOVINGAI").unwrap_or_else(|_| "../shared/movingai".to_string());
    let mut rows = 200usize;
    let mut radius = 0.0f32;
    let mut maps: Vec<String> = Vec::new();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--data" => data = args.next().expect("--data DIR"),
            "--rows" => rows = args.next().and_then(|v| v.parse().ok()).expect("--rows N"),
            "--radius" => {
                radius = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--radius R")
            }
            "all" => maps.extend(GAME_MAPS.iter().chain(OTHER_MAPS).map(|s| s.to_string())),
            _ => maps.push(a),
        }
    }
    if maps.is_empty() {
        maps.extend(GAME_MAPS.iter().map(|s| s.to_string()));
    }
    println!(
        "radius {radius}; ratio = smoothed length / optimal octile length; time = mean µs per smoothing call"
    );
    println!(
        "{:<16} {:>5} {:>6} | {:>7} {:>7} {:>6} | {:>7} {:>7} {:>7} {:>6} {:>5} {:>5}",
        "map", "rows", "cells", "greedy", "max", "µs", "mean", "max", "min", "µs", "wps", "narrow"
    );
    let mut all_greedy = Stats::default();
    let mut all_full = Stats::default();
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    let mut worst: (f64, String) = (0.0, String::new());
    for name in &maps {
        let grid = match read_map(format!("{data}/maps/{name}.map")) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let scen = match read_scen(format!("{data}/scen/{name}.map.scen")) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let mut astar = AStar::new(grid.cell_count() as usize);
        let stride = (scen.rows.len() / rows).max(1);
        // Optimal paths first, then timing of smoothing alone.
        let mut problems = Vec::new();
        for row in scen.rows.iter().step_by(stride).take(rows) {
            if row.start == row.goal {
                continue;
            }
            let Some((path, cost)) = astar.path(&grid, row.start, row.goal) else {
                eprintln!("{name}: no path on line {}", row.line);
                continue;
            };
            // A few printed lengths are off by ~1e-8 (rounding by the generator).
            assert!(
                scen.matches(row, cost) || (cost - row.optimal).abs() <= 1e-7 * row.optimal,
                "{name} line {}: A* {cost} vs {}",
                row.line,
                row.optimal
            );
            problems.push((row, path, cost));
        }
        let (mut greedy, mut full) = (Stats::default(), Stats::default());
        let (mut cells_sum, mut wps_sum, mut narrow_sum) = (0usize, 0usize, 0usize);
        for refine in [false, true] {
            let opts = SmoothOptions { radius, refine };
            // Best of several rounds over all problems: robust to noise from
            // other processes.
            let mut best_us = vec![f64::INFINITY; problems.len()];
            for _ in 0..ROUNDS {
                for (k, (_, path, _)) in problems.iter().enumerate() {
                    let t0 = Instant::now();
                    smoother
                        .smooth(&grid, path, &opts, &mut out)
                        .expect("valid path");
                    best_us[k] = best_us[k].min(t0.elapsed().as_secs_f64() * 1e6);
                }
            }
            for (k, (row, path, cost)) in problems.iter().enumerate() {
                let report = smoother
                    .smooth(&grid, path, &opts, &mut out)
                    .expect("valid path");
                let len = polyline_length(&out);
                assert!(
                    len <= cost + 1e-6,
                    "{name} line {}: longer than input",
                    row.line
                );
                assert_eq!(out.first(), Some(&Vec2::cell_center(row.start)));
                assert_eq!(out.last(), Some(&Vec2::cell_center(row.goal)));
                if radius == 0.0 {
                    for w in out.windows(2) {
                        assert!(
                            segment_clear(&grid, w[0], w[1], 0.0),
                            "{name} line {}",
                            row.line
                        );
                    }
                }
                let ratio = len / row.optimal.max(1e-9);
                if refine {
                    full.add(ratio, best_us[k]);
                    cells_sum += path.len();
                    wps_sum += out.len();
                    narrow_sum += report.narrow_segments;
                    if ratio > worst.0 {
                        worst = (ratio, format!("{name} line {}", row.line));
                    }
                } else {
                    greedy.add(ratio, best_us[k]);
                }
            }
        }
        let n = full.n.max(1);
        println!(
            "{:<16} {:>5} {:>6.0} | {:>7.4} {:>7.4} {:>6.1} | {:>7.4} {:>7.4} {:>7.4} {:>6.1} {:>5.1} {:>5.2}",
            name,
            full.n,
            cells_sum as f64 / n as f64,
            greedy.mean(),
            greedy.max,
            greedy.us(),
            full.mean(),
            full.max,
            full.min,
            full.us(),
            wps_sum as f64 / n as f64,
            narrow_sum as f64 / n as f64,
        );
        for (a, b) in [(&mut all_greedy, &greedy), (&mut all_full, &full)] {
            a.sum += b.sum;
            a.time_us += b.time_us;
            if a.n == 0 || b.min < a.min {
                a.min = b.min;
            }
            a.n += b.n;
            a.max = a.max.max(b.max);
        }
    }
    println!(
        "{:<16} {:>5} {:>6} | {:>7.4} {:>7.4} {:>6.1} | {:>7.4} {:>7.4} {:>7.4} {:>6.1}",
        "ALL",
        all_full.n,
        "",
        all_greedy.mean(),
        all_greedy.max,
        all_greedy.us(),
        all_full.mean(),
        all_full.max,
        all_full.min,
        all_full.us(),
    );
    println!(
        "worst refined ratio {:.4} at {}; mean refined {:.6}, greedy {:.6}",
        worst.0,
        worst.1,
        all_full.mean(),
        all_greedy.mean()
    );
}
