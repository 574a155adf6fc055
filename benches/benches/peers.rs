//! regionpath beside peer crates, per map and query length bucket.
//!
//! Groups (criterion):
//!
//! * `parse/<map>`: Moving AI map parsing and grid construction
//!   (`regionpath_grid::parse_map` on the file text); throughput in cells.
//! * `peers/<map>/<bucket>`: the same queries (up to
//!   `REGIONPATH_PEERS_QUERIES` per bucket, default 30, 20 on maps of 1024²
//!   cells or more; `REGIONPATH_PEERS_GEN_QUERIES`, default 10, on
//!   generated maps) on the same grid for every contender, timed as one batch per
//!   iteration; throughput in queries.
//! * `first-leg/<map>/<bucket>`: time to first leg (`start_query` + one
//!   `next_leg`), for contenders that have one (regionpath hierarchical).
//!
//! Setup, per map: every contender's preprocessing is built once with its
//! retained allocations counted (bytes per cell), then rebuilt while the
//! runs stay under [`BUILD_BUDGET`] (at most [`BUILD_RUNS`] builds) and the
//! median build time kept; `hierarchical_pathfinding`
//! is built at each chunk size of `REGIONPATH_HPA_CHUNKS` (default
//! 8,16,32,64; only 32,64 on maps of 1024² cells or more unless the
//! variable is set) and the fastest on up to 10 of this map's queries per
//! bucket (geometric mean of the bucket means) is kept and benchmarked. One
//! pass over all queries checks every path: octile length against the
//! scenario optimum, corner cuts, illegal steps; for the smoothed contender
//! also its waypoints (clear segments, endpoints, Euclidean length).
//! regionpath A*, regionpath JPS and pathfinding astar must be optimal and legal (the bench
//! panics otherwise); the others are reported as they are. After the timed
//! groups, the first leg of every query of the map is timed on its own
//! ([`FIRST_LEG_PASSES`] round-robin passes, median per query), for the
//! per-map median first-leg time. The figures go to
//! `target/criterion/regionpath-side/peers/<map>.json` for
//! `benches/report`.
//!
//! In test mode (no `--bench` argument: `cargo test --benches`) it runs
//! only arena, 3 queries per bucket, one chunk size, and writes nothing.
//!
//! `REGIONPATH_PEERS_MAPS` (comma list; `gen-rooms-N` is a generated N×N
//! map) picks the maps.

mod common;

use common::peers::{GridPathfindingJps, HierarchicalPathfinding, PathfindingAStar};
use common::{bench_mode, criterion, env_list, env_usize, run_pass, PassStats};
use criterion::{Criterion, SamplingMode, Throughput};
use regionpath_benches::alloc::{measure, AllocDelta, CountingAlloc};
use regionpath_benches::data::{generated_rooms, missing_data_message};
use regionpath_benches::queries::{split, spread, BucketQueries};
use regionpath_benches::{
    movingai_dir, side, Contender, MapCase, RegionpathAStar, RegionpathHierarchical, RegionpathJps,
    RegionpathSmoothed,
};
use regionpath_grid::{parse_map, write_map};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Default maps: Dragon Age (small, 256², 530×481), Baldur's Gate 512²,
/// mazes 512² (8-cell and one-cell corridors: the one-cell maze is the
/// most region-dense Moving AI map, where the build target is hardest),
/// room 512², StarCraft and street 1024², and a generated 2048² rooms
/// world.
const MAPS: &[&str] = &[
    "arena",
    "den520d",
    "brc202d",
    "AR0044SR",
    "maze512-8-0",
    "maze512-1-0",
    "8room_000",
    "TheFrozenSea",
    "Berlin_0_1024",
    "gen-rooms-2048",
];

/// The contenders, in column order (`hierarchical_pathfinding`, built at
/// its best chunk size by [`tune_hpa`], is added last). `benches/report`
/// takes "regionpath hierarchical" as the ratio baseline; the smoothed
/// contender (the facade planner, smoothing at radius 0) follows it.
fn contenders() -> Vec<Box<dyn Contender>> {
    vec![
        Box::new(RegionpathHierarchical::default()),
        Box::new(RegionpathSmoothed::default()),
        Box::new(RegionpathAStar::new()),
        Box::new(RegionpathJps::new()),
        Box::new(PathfindingAStar::default()),
        Box::new(GridPathfindingJps::default()),
    ]
}

/// Contenders that must return optimal, rule-abiding paths.
fn strict(c: &dyn Contender) -> bool {
    let r = c.rules();
    r.optimal && !r.cuts_corners && r.diagonal_sqrt2
}

fn geo_mean(xs: &[f64]) -> f64 {
    (xs.iter().map(|x| x.max(1e-12).ln()).sum::<f64>() / xs.len().max(1) as f64).exp()
}

/// Queries per bucket the chunk-size trial runs.
const TUNE_QUERIES: usize = 10;

/// Most builds timed per contender and map (the median is reported). Sub-
/// millisecond builds (49×49 arena: 0.02–0.1 ms) need many: with 5, one
/// scheduler hiccup moved arena's build ratio from 12× to 9× between runs.
const BUILD_RUNS: usize = 101;

/// Builds after the first are timed only while the builds so far took
/// less than this, so a 20 s build runs once, a 100 ms build ten times and
/// a 1 ms build [`BUILD_RUNS`] times.
const BUILD_BUDGET: Duration = Duration::from_millis(1000);

/// Round-robin passes over a map's queries timing the first leg of each
/// (bench mode; 3 in test mode).
const FIRST_LEG_PASSES: usize = 21;

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The `q` quantile (0..=1) by nearest rank.
fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return f64::NAN;
    }
    v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1]
}

/// Build times of one contender on one map.
struct Build {
    /// Every timed build, in milliseconds (the first is the counted one).
    runs_ms: Vec<f64>,
    /// Allocations of the first build.
    mem: AllocDelta,
}

impl Build {
    fn median_ms(&self) -> f64 {
        median(&self.runs_ms)
    }
}

/// Runs `build` once counting its allocations, then again while the runs
/// so far took under [`BUILD_BUDGET`], up to [`BUILD_RUNS`] in all.
fn time_builds(mut build: impl FnMut()) -> Build {
    let t = Instant::now();
    let ((), mem) = measure(&mut build);
    let mut runs_ms = vec![t.elapsed().as_secs_f64() * 1e3];
    let total = Instant::now();
    while runs_ms.len() < BUILD_RUNS
        && Duration::from_secs_f64(runs_ms[0] / 1e3) + total.elapsed() < BUILD_BUDGET
    {
        let t = Instant::now();
        build();
        runs_ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Build { runs_ms, mem }
}

/// A built `hierarchical_pathfinding` with its build times and memory.
struct Tuned {
    hpa: HierarchicalPathfinding,
    build: Build,
    trials: Vec<serde_json::Value>,
}

/// Builds `hierarchical_pathfinding` at each chunk size, runs up to
/// [`TUNE_QUERIES`] queries per bucket once, and keeps the build that is
/// fastest by geometric mean of the bucket means (so the bench does not
/// build it again).
fn tune_hpa(case: &MapCase, buckets: &[BucketQueries], chunks: &[usize]) -> Tuned {
    let mut best: Option<(f64, Tuned)> = None;
    let mut trials = Vec::new();
    for &chunk in chunks {
        let mut hpa = HierarchicalPathfinding::new(chunk);
        let build = time_builds(|| hpa.prepare(&case.grid));
        let (build_ms, mem) = (build.median_ms(), build.mem);
        let per_bucket: Vec<f64> = buckets
            .iter()
            .map(|b| {
                let qs: Vec<_> = spread(b.queries.len(), TUNE_QUERIES)
                    .into_iter()
                    .map(|i| b.queries[i])
                    .collect();
                let s = run_pass(case, &qs, &mut hpa, false);
                s.pass_time.as_secs_f64() * 1e6 / qs.len().max(1) as f64
            })
            .collect();
        let score = geo_mean(&per_bucket);
        println!(
            "  hpa chunk {chunk:>3}: build {build_ms:>8.1} ms, {:>6.1} B/cell, µs/query by bucket {:?}",
            mem.retained_bytes as f64 / case.cells() as f64,
            per_bucket
                .iter()
                .map(|x| (x * 10.0).round() / 10.0)
                .collect::<Vec<_>>()
        );
        trials.push(serde_json::json!({
            "chunk_size": chunk,
            "build_ms": build_ms,
            "build_runs_ms": build.runs_ms,
            "retained_bytes": mem.retained_bytes,
            "us_per_query_by_bucket": per_bucket,
            "score_geo_mean_us": score,
        }));
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            let tuned = Tuned {
                hpa,
                build,
                trials: Vec::new(),
            };
            best = Some((score, tuned));
        }
    }
    let (_, mut tuned) = best.expect("at least one chunk size");
    tuned.trials = trials;
    tuned
}

/// The chunk sizes to try on a map: all of `chunks`, but on maps of 1024²
/// cells or more only those ≥ 32 unless `REGIONPATH_HPA_CHUNKS` is set
/// (8 and 16 were 3–60× slower per query and slower to build on every
/// such map measured, and each costs up to a minute to try on 2048²).
fn chunks_for(case: &MapCase, chunks: &[usize]) -> Vec<usize> {
    if case.cells() >= 1 << 20 && std::env::var_os("REGIONPATH_HPA_CHUNKS").is_none() {
        let big: Vec<usize> = chunks.iter().copied().filter(|&c| c >= 32).collect();
        if !big.is_empty() {
            return big;
        }
    }
    chunks.to_vec()
}

fn load(dir: &std::path::Path, name: &str, per_bucket: usize) -> MapCase {
    if let Some(size) = name.strip_prefix("gen-rooms-") {
        let size: u32 = size.parse().expect("gen-rooms-<size>");
        let t = Instant::now();
        let case = generated_rooms(size, 30, 8, per_bucket * 3, 0x5eed_0001 ^ size as u64);
        println!(
            "{name}: generated {size}x{size} rooms world and {} queries in {:.1} s",
            case.scenario.rows.len(),
            t.elapsed().as_secs_f64()
        );
        case
    } else {
        MapCase::load(dir, name).unwrap_or_else(|e| panic!("cannot load map {name}: {e}"))
    }
}

fn bench_map(
    c: &mut Criterion,
    case: &MapCase,
    buckets: &[BucketQueries],
    chunks: &[usize],
    first_leg_passes: usize,
) -> serde_json::Value {
    let name = &case.name;
    let cells = case.cells();

    // Parsing: the file text (generated maps: their written form).
    let text = if case.text.is_empty() {
        let mut out = Vec::new();
        write_map(&case.grid, &mut out).expect("write to memory");
        String::from_utf8(out).expect("map text is ASCII")
    } else {
        case.text.clone()
    };
    let (parsed, grid_mem) = measure(|| parse_map(&text).expect("parses"));
    assert_eq!(parsed.checksum(), case.grid.checksum());
    drop(parsed);
    {
        let mut g = c.benchmark_group("parse");
        g.throughput(Throughput::Elements(cells));
        g.bench_function(name.as_str(), |b| {
            b.iter(|| parse_map(black_box(&text)).expect("parses"))
        });
        g.finish();
    }

    // Peers' best chunk size on this map.
    let chunks = chunks_for(case, chunks);
    println!("{name}: tuning hierarchical_pathfinding chunk size over {chunks:?}");
    let tuned = tune_hpa(case, buckets, &chunks);
    let chunk = tuned.hpa.chunk_size();
    let trials = tuned.trials;
    println!("{name}: hierarchical_pathfinding chunk size {chunk}");

    let mut list = contenders();
    let mut prep = Vec::new();
    for ct in list.iter_mut() {
        prep.push(time_builds(|| ct.prepare(&case.grid)));
    }
    // The tuned build is kept, with the figures of its builds.
    list.push(Box::new(tuned.hpa));
    prep.push(tuned.build);

    // Check pass (also warms every contender).
    let mut checks: Vec<Vec<PassStats>> = Vec::new();
    for ct in list.iter_mut() {
        let is_strict = strict(ct.as_ref());
        checks.push(
            buckets
                .iter()
                .map(|b| run_pass(case, &b.queries, ct.as_mut(), is_strict))
                .collect(),
        );
    }
    for (ct, per) in list.iter().zip(&checks) {
        let (cuts, steps): (usize, usize) = per
            .iter()
            .fold((0, 0), |a, s| (a.0 + s.corner_cuts, a.1 + s.diagonal_steps));
        println!(
            "{name}: {:<40} length ratio by bucket {:?}, corner cuts {cuts} of {steps} diagonal steps",
            ct.name(),
            per.iter()
                .map(|s| (s.mean_length_ratio * 1e4).round() / 1e4)
                .collect::<Vec<_>>(),
        );
        if per.iter().any(|s| s.smoothed.is_some()) {
            let sm: Vec<_> = per.iter().filter_map(|s| s.smoothed.as_ref()).collect();
            println!(
                "{name}: {:<40} smoothed length ratio by bucket {:?}, blocked segments {}, \
                 bad endpoints {}, longer than cells {}",
                ct.name(),
                sm.iter()
                    .map(|s| (s.mean_length_ratio * 1e4).round() / 1e4)
                    .collect::<Vec<_>>(),
                sm.iter().map(|s| s.blocked_segments).sum::<usize>(),
                sm.iter().map(|s| s.bad_endpoints).sum::<usize>(),
                sm.iter().map(|s| s.longer_than_cells).sum::<usize>(),
            );
        }
    }

    // Timed groups.
    for b in buckets {
        let mut g = c.benchmark_group(format!("peers/{name}/{}", b.bucket.name()));
        g.sampling_mode(SamplingMode::Flat);
        g.throughput(Throughput::Elements(b.queries.len() as u64));
        for ct in list.iter_mut() {
            let grid = &case.grid;
            g.bench_function(ct.name().to_string(), |bch| {
                bch.iter(|| {
                    for q in &b.queries {
                        black_box(ct.query(grid, q.start, q.goal));
                    }
                })
            });
        }
        g.finish();
        if list.iter_mut().any(|ct| {
            ct.first_leg(&case.grid, b.queries[0].start, b.queries[0].goal)
                .is_some()
        }) {
            let mut g = c.benchmark_group(format!("first-leg/{name}/{}", b.bucket.name()));
            g.sampling_mode(SamplingMode::Flat);
            g.throughput(Throughput::Elements(b.queries.len() as u64));
            for ct in list.iter_mut() {
                if ct
                    .first_leg(&case.grid, b.queries[0].start, b.queries[0].goal)
                    .is_none()
                {
                    continue;
                }
                let grid = &case.grid;
                g.bench_function(ct.name().to_string(), |bch| {
                    bch.iter(|| {
                        for q in &b.queries {
                            black_box(ct.first_leg(grid, q.start, q.goal));
                        }
                    })
                });
            }
            g.finish();
        }
    }

    // Time to first leg of every query, one at a time.
    let first_leg = first_leg_medians(case, buckets, &mut list, first_leg_passes);

    let contenders_json: Vec<serde_json::Value> = list
        .iter()
        .zip(&checks)
        .zip(&prep)
        .map(|((ct, per), build)| {
            let r = ct.rules();
            let mem = build.mem;
            serde_json::json!({
                "name": ct.name(),
                "cuts_corners": r.cuts_corners,
                "diagonal_sqrt2": r.diagonal_sqrt2,
                "optimal": r.optimal,
                "any_angle": r.any_angle,
                "note": r.note,
                "preprocesses": ct.preprocesses(),
                "preprocess_ms": build.median_ms(),
                "preprocess_runs_ms": build.runs_ms,
                "preprocess_retained_bytes": mem.retained_bytes,
                "preprocess_peak_extra_bytes": mem.peak_extra_bytes,
                "preprocess_bytes_per_cell": mem.retained_bytes as f64 / cells as f64,
                "scratch_bytes": ct.scratch_bytes(),
                "buckets": buckets.iter().zip(per).map(|(b, s)| {
                    let mut v = s.to_json();
                    v["bucket"] = b.bucket.name().into();
                    v
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "map": name,
        "family": case.family,
        "width": case.grid.width(),
        "height": case.grid.height(),
        "cells": cells,
        "passable": case.grid.passable_count(),
        "grid_bytes": grid_mem.retained_bytes,
        "grid_bytes_per_cell": grid_mem.retained_bytes as f64 / cells as f64,
        "scen_rows": case.scenario.rows.len(),
        "buckets": buckets.iter().map(|b| serde_json::json!({
            "bucket": b.bucket.name(),
            "rows": b.rows,
            "queries": b.queries.len(),
            "min_optimal": b.min_optimal,
            "max_optimal": b.max_optimal,
        })).collect::<Vec<_>>(),
        "queries": buckets.iter().map(|b| b.queries.iter().map(|q| serde_json::json!({
            "line": q.line,
            "optimal": q.optimal,
        })).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "hpa_chunk_size": chunk,
        "hpa_trials": trials,
        "contenders": contenders_json,
        "first_leg": first_leg,
        "loadavg_after": side::loadavg(),
        "finished_unix": side::unix_now(),
    })
}

/// Times the first leg of each query of `buckets` alone, for every
/// contender that has a first-leg mode: `passes` round-robin passes over
/// all the map's queries (so each query runs in the same conditions as in
/// the criterion batches, not hot from a repeat of itself), the median of
/// each query's passes, then the median, 90th percentile and maximum of
/// those per-query medians, over the map and per bucket.
fn first_leg_medians(
    case: &MapCase,
    buckets: &[BucketQueries],
    list: &mut [Box<dyn Contender>],
    passes: usize,
) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    let all: Vec<_> = buckets
        .iter()
        .flat_map(|b| b.queries.iter().map(move |q| (b.bucket, *q)))
        .collect();
    let Some(&(_, q0)) = all.first() else {
        return out.into();
    };
    for ct in list.iter_mut() {
        if ct.first_leg(&case.grid, q0.start, q0.goal).is_none() {
            continue;
        }
        let mut times = vec![Vec::with_capacity(passes); all.len()];
        let mut leg_cells = vec![0usize; all.len()];
        for _ in 0..passes {
            for (i, (_, q)) in all.iter().enumerate() {
                let t = Instant::now();
                let cells = black_box(ct.first_leg(&case.grid, q.start, q.goal));
                times[i].push(t.elapsed().as_secs_f64() * 1e6);
                leg_cells[i] = cells.unwrap_or(0);
            }
        }
        let per_query: Vec<f64> = times.iter().map(|t| median(t)).collect();
        let summary = |xs: &[f64]| {
            serde_json::json!({
                "queries": xs.len(),
                "median_us": median(xs),
                "p90_us": quantile(xs, 0.9),
                "max_us": xs.iter().copied().fold(f64::NAN, f64::max),
                "mean_us": xs.iter().sum::<f64>() / xs.len().max(1) as f64,
            })
        };
        let mut v = summary(&per_query);
        v["passes"] = passes.into();
        v["buckets"] = buckets
            .iter()
            .map(|b| {
                let xs: Vec<f64> = all
                    .iter()
                    .zip(&per_query)
                    .filter(|((bk, _), _)| *bk == b.bucket)
                    .map(|(_, &t)| t)
                    .collect();
                let mut s = summary(&xs);
                s["bucket"] = b.bucket.name().into();
                s
            })
            .collect();
        v["per_query_us"] = per_query.clone().into();
        v["leg_cells"] = leg_cells.clone().into();
        println!(
            "{}: {} first leg over {} queries ({passes} passes): median {:.2} µs, p90 {:.2} µs, max {:.2} µs",
            case.name,
            ct.name(),
            per_query.len(),
            median(&per_query),
            quantile(&per_query, 0.9),
            per_query.iter().copied().fold(f64::NAN, f64::max),
        );
        out.insert(ct.name().to_string(), v);
    }
    out.into()
}

fn main() {
    let Some(dir) = movingai_dir() else {
        println!("{}", missing_data_message());
        return;
    };
    let full = bench_mode();
    let maps = if full {
        env_list("REGIONPATH_PEERS_MAPS", MAPS)
    } else {
        env_list("REGIONPATH_PEERS_MAPS", &["arena"])
    };
    let chunk_list: Vec<usize> = env_list("REGIONPATH_HPA_CHUNKS", &["8", "16", "32", "64"])
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect();
    let chunks = if full { chunk_list } else { vec![8] };
    // Start rayon's pool (hierarchical_pathfinding builds in parallel) so
    // its bookkeeping is not counted as the first build's memory.
    HierarchicalPathfinding::new(8)
        .prepare(&regionpath_grid::Grid::new(16, 16, true).expect("grid"));

    let mut c = criterion(0.5, 1.5);
    let machine = side::machine_info();
    for name in maps {
        let generated = name.starts_with("gen-");
        let gen_queries = if full {
            env_usize("REGIONPATH_PEERS_GEN_QUERIES", 10)
        } else {
            3
        };
        let case = load(&dir, &name, gen_queries);
        let per_bucket = if !full {
            3
        } else if generated {
            gen_queries
        } else {
            // Fewer on the 1024² maps, where one long A* query takes ~50 ms.
            let default = if case.cells() >= 1 << 20 { 20 } else { 30 };
            env_usize("REGIONPATH_PEERS_QUERIES", default)
        };
        let buckets = split(&case.scenario, per_bucket);
        let loadavg_before = side::loadavg();
        let passes = if full { FIRST_LEG_PASSES } else { 3 };
        let mut value = bench_map(&mut c, &case, &buckets, &chunks, passes);
        value["loadavg_before"] = loadavg_before.into();
        if full {
            value["machine"] = machine.clone();
            match side::write(&format!("peers/{name}"), &value) {
                Ok(p) => println!("{name}: side figures {}", p.display()),
                Err(e) => eprintln!("{name}: cannot write side figures: {e}"),
            }
        }
    }
    c.final_summary();
}
