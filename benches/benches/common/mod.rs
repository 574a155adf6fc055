//! Shared by the bench binaries: peer contenders (dev-dependencies, so they
//! live here rather than in the library), criterion settings and checks.
#![allow(dead_code)]

pub mod peers;

use criterion::Criterion;
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
        ..PassStats::default()
    };
    let mut ratio_sum = 0.0;
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
            checked += t1.elapsed();
            continue;
        };
        let chk = check_path(&case.grid, q.start, q.goal, c.path());
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
        })
    }
}
