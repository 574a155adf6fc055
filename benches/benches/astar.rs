//! regionpath A* and regionpath jump point search per query beside
//! `pathfinding::prelude::astar`, on the longest Moving AI problems (the top scenario buckets) of a few maps, in
//! one criterion group per map.
//!
//! Setup checks that both return the scenario's optimal length within its
//! print precision on every query (panicking otherwise) and prints the
//! regionpath A* scratch per cell. Throughput is in queries: criterion's
//! `elem/s` is queries per second.
//!
//! Environment: `REGIONPATH_MOVINGAI` (data folder),
//! `REGIONPATH_ASTAR_MAPS` (comma list), `REGIONPATH_ASTAR_QUERIES`
//! (queries per map, default 20).

mod common;

use common::peers::PathfindingAStar;
use common::{bench_mode, criterion, env_list, env_usize, run_pass};
use criterion::{SamplingMode, Throughput};
use regionpath_benches::queries::top_buckets;
use regionpath_benches::{movingai_dir, side, Contender, MapCase, RegionpathAStar, RegionpathJps};
use std::hint::black_box;

const MAPS: &[&str] = &[
    "den520d",
    "brc202d",
    "AR0044SR",
    "maze512-8-0",
    "Berlin_0_1024",
];

fn main() {
    let Some(dir) = movingai_dir() else {
        println!("{}", regionpath_benches::data::missing_data_message());
        return;
    };
    // Test mode (`cargo test --benches`, unoptimised): one query per map,
    // still checked optimal for both systems.
    let per_map = if bench_mode() {
        env_usize("REGIONPATH_ASTAR_QUERIES", 20)
    } else {
        1
    };
    let mut c = criterion(1.0, 3.0);
    let mut side_maps = Vec::new();
    for name in env_list("REGIONPATH_ASTAR_MAPS", MAPS) {
        let case = match MapCase::load(&dir, &name) {
            Ok(case) => case,
            Err(e) => panic!("cannot load map {name}: {e}"),
        };
        let queries = top_buckets(&case.scenario, 2, per_map);
        let mut rp = RegionpathAStar::new();
        let mut pf = PathfindingAStar::default();
        let mut jps = RegionpathJps::new();
        jps.prepare(&case.grid);
        // Correctness first (panics on any non-optimal or illegal path),
        // which also warms regionpath's scratch to the grid.
        let rp_pass = run_pass(&case, &queries, &mut rp, true);
        let pf_pass = run_pass(&case, &queries, &mut pf, true);
        let jps_pass = run_pass(&case, &queries, &mut jps, true);
        let scratch = rp.astar().scratch_bytes();
        let per_cell = scratch as f64 / case.cells() as f64;
        let lo = queries
            .iter()
            .map(|q| q.optimal)
            .fold(f64::INFINITY, f64::min);
        let hi = queries.iter().map(|q| q.optimal).fold(0.0, f64::max);
        println!(
            "astar/{name}: {}x{} ({} cells), {} queries of optimal length {lo:.1}..{hi:.1}, \
             all optimal for both; regionpath A* scratch {scratch} B = {per_cell:.2} B/cell; \
             one-pass ratio pathfinding/regionpath A* {:.1}x, pathfinding/regionpath JPS {:.1}x",
            case.grid.width(),
            case.grid.height(),
            case.cells(),
            queries.len(),
            pf_pass.pass_time.as_secs_f64() / rp_pass.pass_time.as_secs_f64().max(1e-12),
            pf_pass.pass_time.as_secs_f64() / jps_pass.pass_time.as_secs_f64().max(1e-12),
        );
        side_maps.push(serde_json::json!({
            "map": name,
            "width": case.grid.width(),
            "height": case.grid.height(),
            "cells": case.cells(),
            "queries": queries.len(),
            "min_optimal": lo,
            "max_optimal": hi,
            "scratch_bytes": scratch,
            "scratch_bytes_per_cell": per_cell,
            "contenders": {
                rp.name(): rp_pass.to_json(),
                pf.name(): pf_pass.to_json(),
                jps.name(): jps_pass.to_json(),
            },
        }));

        let mut group = c.benchmark_group(format!("astar/{name}"));
        group.sampling_mode(SamplingMode::Flat);
        group.throughput(Throughput::Elements(queries.len() as u64));
        let grid = &case.grid;
        let contenders: [&mut dyn Contender; 3] = [&mut rp, &mut jps, &mut pf];
        for contender in contenders {
            group.bench_function(contender.name().to_string(), |b| {
                b.iter(|| {
                    for q in &queries {
                        black_box(contender.query(grid, q.start, q.goal));
                    }
                })
            });
        }
        group.finish();
    }
    if bench_mode() {
        let value = serde_json::json!({
            "bench": "astar",
            "machine": side::machine_info(),
            "maps": side_maps,
        });
        match side::write("astar", &value) {
            Ok(p) => println!("side figures: {}", p.display()),
            Err(e) => eprintln!("cannot write side figures: {e}"),
        }
    }
    c.final_summary();
}
