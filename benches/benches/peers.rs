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
//! * `first-leg/<map>/<bucket>`: time to first leg, for contenders that have
//!   one (the hierarchical planner, once added).
//!
//! Setup, per map: every contender's preprocessing is timed once and its
//! retained allocations counted (bytes per cell); `hierarchical_pathfinding`
//! is built at each chunk size of `REGIONPATH_HPA_CHUNKS` (default
//! 8,16,32,64; only 32,64 on maps of 1024² cells or more unless the
//! variable is set) and the fastest on up to 10 of this map's queries per
//! bucket (geometric mean of the bucket means) is kept and benchmarked. One pass over all queries checks every
//! path: octile length against the scenario optimum, corner cuts, illegal
//! steps. regionpath A* and pathfinding astar must be optimal and legal
//! (the bench panics otherwise); peers are reported as they are. The
//! figures go to `target/criterion/regionpath-side/peers/<map>.json` for
//! `benches/report`.
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
    movingai_dir, side, Contender, MapCase, RegionpathAStar, RegionpathHierarchical,
};
use regionpath_grid::{parse_map, write_map};
use std::hint::black_box;
use std::time::Instant;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Default maps: Dragon Age (small, 256², 530×481), Baldur's Gate 512²,
/// maze 512², room 512², StarCraft and street 1024², and a generated
/// 2048² rooms world.
const MAPS: &[&str] = &[
    "arena",
    "den520d",
    "brc202d",
    "AR0044SR",
    "maze512-8-0",
    "8room_000",
    "TheFrozenSea",
    "Berlin_0_1024",
    "gen-rooms-2048",
];

/// The contenders, in column order (`hierarchical_pathfinding`, built at
/// its best chunk size by [`tune_hpa`], is added last). `benches/report`
/// takes "regionpath hierarchical" as the ratio baseline. A smoothed column
/// goes after it.
fn contenders() -> Vec<Box<dyn Contender>> {
    vec![
        Box::new(RegionpathHierarchical::default()),
        Box::new(RegionpathAStar::new()),
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

/// A built `hierarchical_pathfinding` with its build time and memory.
struct Tuned {
    hpa: HierarchicalPathfinding,
    build_ms: f64,
    mem: AllocDelta,
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
        let t = Instant::now();
        let ((), mem) = measure(|| hpa.prepare(&case.grid));
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
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
            "retained_bytes": mem.retained_bytes,
            "us_per_query_by_bucket": per_bucket,
            "score_geo_mean_us": score,
        }));
        if best.as_ref().is_none_or(|(b, _)| score < *b) {
            let tuned = Tuned {
                hpa,
                build_ms,
                mem,
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
    println!("{name}: tuning hierarchical_pathfinding chunk size over {chunks:?}");
    let tuned = tune_hpa(case, buckets, &chunks_for(case, chunks));
    let chunk = tuned.hpa.chunk_size();
    let trials = tuned.trials;
    println!("{name}: hierarchical_pathfinding chunk size {chunk}");

    let mut list = contenders();
    let mut prep = Vec::new();
    for ct in list.iter_mut() {
        let t = Instant::now();
        let ((), mem) = measure(|| ct.prepare(&case.grid));
        let ms = t.elapsed().as_secs_f64() * 1e3;
        prep.push((ms, mem));
    }
    // The tuned build is kept, with the figures of its build.
    list.push(Box::new(tuned.hpa));
    prep.push((tuned.build_ms, tuned.mem));

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

    let contenders_json: Vec<serde_json::Value> = list
        .iter()
        .zip(&checks)
        .zip(&prep)
        .map(|((ct, per), (ms, mem))| {
            let r = ct.rules();
            serde_json::json!({
                "name": ct.name(),
                "cuts_corners": r.cuts_corners,
                "diagonal_sqrt2": r.diagonal_sqrt2,
                "optimal": r.optimal,
                "note": r.note,
                "preprocesses": ct.preprocesses(),
                "preprocess_ms": ms,
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
        "hpa_chunk_size": chunk,
        "hpa_trials": trials,
        "contenders": contenders_json,
    })
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
        let mut value = bench_map(&mut c, &case, &buckets, &chunks);
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
