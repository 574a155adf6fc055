//! Shared by the bench binaries: peer contenders (dev-dependencies, so they
//! live here rather than in the library), criterion settings and checks.
#![allow(dead_code)]

pub mod peers;

use criterion::Criterion;
use regionpath_benches::paths::check_waypoints;
use regionpath_benches::{check_path, Contender, MapCase, Query};
use std::time::{Duration, Instant};

/// Whether criterion runs as a benchmark (`cargo bench`) rather than as a
/// quick test (`cargo test --benches`, which passes no `--bench`).
pub fn bench_mode() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Short criterion settings for a 2-core machine: 10 samples,
/// `warm_up_secs` of warm-up, `measurement_secs` of measurement.
/// Command-line options (`--sample-size`, `--measurement-time`, …)
/// override them.
pub fn criterion(warm_up_secs: f64, measurement_secs: f64) -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs_f64(warm_up_secs))
        .measurement_time(Duration::from_secs_f64(measurement_secs))
        .without_plots()
        .configure_from_args()
}

/// A number from the environment, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// A comma-separated list from the environment, or `default`.
pub fn env_list(name: &str, default: &[&str]) -> Vec<String> {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        _ => default.iter().map(|s| s.to_string()).collect(),
    }
}

/// Per-contender results of one pass over a set of queries.
#[derive(Clone, Debug, Default)]
pub struct PassStats {
    /// Queries run.
    pub queries: usize,
    /// Queries with no path returned.
    pub failed: usize,
    /// Mean of (octile length of the returned path / scenario optimum).
    pub mean_length_ratio: f64,
    /// Largest such ratio.
    pub max_length_ratio: f64,
    /// Queries whose length is the optimum within print precision.
    pub optimal: usize,
    /// Diagonal moves, summed.
    pub diagonal_steps: usize,
    /// Moves, summed.
    pub steps: usize,
    /// Corner-cutting moves, summed.
    pub corner_cuts: usize,
    /// Paths with at least one corner cut.
    pub paths_with_cuts: usize,
    /// Illegal moves (jumps, into walls), summed.
    pub illegal_steps: usize,
    /// Paths that do not run from start to goal.
    pub bad_endpoints: usize,
    /// Wall-clock time of this one pass (a rough figure; criterion's are
    /// the real ones).
    pub pass_time: Duration,
    /// Octile length of each query's cells, in query order (`None`: no
    /// path), for per-query comparisons in the report.
    pub lengths: Vec<Option<f64>>,
    /// For contenders that smooth: the any-angle figures.
    pub smoothed: Option<SmoothedStats>,
}

/// The any-angle figures of a contender that smooths, over one pass.
#[derive(Clone, Debug, Default)]
pub struct SmoothedStats {
    /// Euclidean length of each query's waypoints, in query order.
    pub lengths: Vec<Option<f64>>,
    /// Mean of (smoothed length / scenario optimum).
    pub mean_length_ratio: f64,
    /// Largest such ratio.
    pub max_length_ratio: f64,
    /// Smallest such ratio.
    pub min_length_ratio: f64,
    /// Mean of (smoothed length / the same query's cell-path length).
    pub mean_ratio_to_cells: f64,
    /// Waypoints, summed.
    pub waypoints: usize,
    /// Segments touching a blocked cell or leaving the map, summed (radius
    /// 0; should be 0).
    pub blocked_segments: usize,
    /// Polylines not running from the start to the goal cell centre.
    pub bad_endpoints: usize,
    /// Queries whose reported smoothed length differs from the measured
    /// polyline length by more than 10⁻⁶ relative.
    pub length_mismatches: usize,
    /// Queries whose smoothed length exceeds the cell path's (should be 0).
    pub longer_than_cells: usize,
}

/// Runs every query once on `c` (warming it), checks each returned path
/// with [`check_path`] and gathers the figures. When `strict`, panics on
/// any path that is missing, breaks the Moving AI rules or is not optimal:
/// a benchmark on wrong answers is meaningless.
pub fn run_pass(
    case: &MapCase,
    queries: &[Query],
    c: &mut dyn Contender,
    strict: bool,
) -> PassStats {
    let mut s = PassStats {
        queries: queries.len(),
        smoothed: c.rules().any_angle.then(|| SmoothedStats {
            min_length_ratio: f64::INFINITY,
            ..SmoothedStats::default()
        }),
        ..PassStats::default()
    };
    let mut ratio_sum = 0.0;
    let (mut sm_sum, mut sm_cells_sum) = (0.0, 0.0);
    let t0 = Instant::now();
    let mut checked = Duration::ZERO;
    for q in queries {
        let len = c.query(&case.grid, q.start, q.goal);
        let t1 = Instant::now();
        let Some(len) = len else {
            assert!(
                !strict,
                "{}: {} found no path for {} line {} ({} -> {})",
                case.name,
                c.name(),
                case.name,
                q.line,
                q.start,
                q.goal
            );
            s.failed += 1;
            s.lengths.push(None);
            if let Some(sm) = s.smoothed.as_mut() {
                sm.lengths.push(None);
            }
            checked += t1.elapsed();
            continue;
        };
        let chk = check_path(&case.grid, q.start, q.goal, c.path());
        s.lengths.push(Some(chk.length));
        if let Some(sm) = s.smoothed.as_mut() {
            let wps = c.waypoints().unwrap_or(&[]);
            let reported = c.smoothed_length().unwrap_or(f64::NAN);
            let w = check_waypoints(&case.grid, q.start, q.goal, wps);
            let ratio = w.length / q.optimal;
            sm.lengths.push(Some(w.length));
            sm_sum += ratio;
            sm_cells_sum += w.length / chk.length.max(1e-12);
            sm.max_length_ratio = sm.max_length_ratio.max(ratio);
            sm.min_length_ratio = sm.min_length_ratio.min(ratio);
            sm.waypoints += wps.len();
            sm.blocked_segments += w.blocked_segments;
            sm.bad_endpoints += usize::from(!w.endpoints_ok);
            sm.length_mismatches +=
                usize::from((reported - w.length).abs() > 1e-6 * w.length.max(1.0));
            sm.longer_than_cells += usize::from(w.length > chk.length + 1e-6);
        }
        if strict {
            assert!(
                chk.follows_rules(),
                "{}: {} returned a path breaking the Moving AI rules for line {}: {chk:?}",
                case.name,
                c.name(),
                q.line
            );
            assert!(
                q.is_optimal(chk.length) && q.is_optimal(len),
                "{}: {} length {len} (cells: {}) is not the optimum {} ± {} for line {} ({} -> {})",
                case.name,
                c.name(),
                chk.length,
                q.optimal,
                q.tolerance,
                q.line,
                q.start,
                q.goal
            );
        }
        let ratio = chk.length / q.optimal;
        ratio_sum += ratio;
        s.max_length_ratio = s.max_length_ratio.max(ratio);
        s.optimal += usize::from(q.is_optimal(chk.length));
        s.diagonal_steps += chk.diagonal_steps;
        s.steps += chk.steps;
        s.corner_cuts += chk.corner_cuts;
        s.paths_with_cuts += usize::from(chk.corner_cuts > 0);
        s.illegal_steps += chk.illegal_steps;
        s.bad_endpoints += usize::from(!chk.endpoints_ok);
        checked += t1.elapsed();
    }
    s.pass_time = t0.elapsed().saturating_sub(checked);
    let found = s.queries - s.failed;
    s.mean_length_ratio = if found > 0 {
        ratio_sum / found as f64
    } else {
        f64::NAN
    };
    if let Some(sm) = s.smoothed.as_mut() {
        sm.mean_length_ratio = if found > 0 {
            sm_sum / found as f64
        } else {
            f64::NAN
        };
        sm.mean_ratio_to_cells = if found > 0 {
            sm_cells_sum / found as f64
        } else {
            f64::NAN
        };
    }
    s
}

impl PassStats {
    /// As JSON for the side file.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "queries": self.queries,
            "failed": self.failed,
            "mean_length_ratio": self.mean_length_ratio,
            "max_length_ratio": self.max_length_ratio,
            "optimal": self.optimal,
            "steps": self.steps,
            "diagonal_steps": self.diagonal_steps,
            "corner_cuts": self.corner_cuts,
            "paths_with_cuts": self.paths_with_cuts,
            "illegal_steps": self.illegal_steps,
            "bad_endpoints": self.bad_endpoints,
            "pass_us_per_query": self.pass_time.as_secs_f64() * 1e6 / self.queries.max(1) as f64,
            "lengths": self.lengths,
            "smoothed": self.smoothed.as_ref().map(SmoothedStats::to_json),
        })
    }
}

impl SmoothedStats {
    /// As JSON for the side file.
    pub fn to_json(&self) -> serde_json::Value {
        let finite = |x: f64| x.is_finite().then_some(x);
        serde_json::json!({
            "mean_length_ratio": finite(self.mean_length_ratio),
            "max_length_ratio": finite(self.max_length_ratio),
            "min_length_ratio": finite(self.min_length_ratio),
            "mean_ratio_to_cells": finite(self.mean_ratio_to_cells),
            "waypoints": self.waypoints,
            "blocked_segments": self.blocked_segments,
            "bad_endpoints": self.bad_endpoints,
            "length_mismatches": self.length_mismatches,
            "longer_than_cells": self.longer_than_cells,
            "lengths": self.lengths,
        })
    }
}
