//! Zero allocations per warm query: a counting global allocator around
//! regionpath A* (and the windowed A*) on Moving AI queries.
//!
//! For each map: one pass over the queries warms the scratch (node array to
//! the grid, open list and path buffer to their largest size), then the
//! same queries run again `REGIONPATH_ALLOC_ROUNDS` times (default 3) while
//! the allocator counts. The bench prints allocations per query and panics
//! if any warm query allocated. It also prints the scratch bytes per cell.

mod common;

use common::{bench_mode, env_list, env_usize};
use regionpath_benches::alloc::{is_counting, snapshot, CountingAlloc};
use regionpath_benches::queries::split;
use regionpath_benches::{movingai_dir, side, MapCase, Query};
use regionpath_grid::Point;
use regionpath_search::{AStar, Status, WindowedAStar};
use std::hint::black_box;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

const MAPS: &[&str] = &[
    "arena",
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
    assert!(is_counting(), "the counting allocator is not installed");
    // Test mode (`cargo test --benches`, unoptimised): a few queries per
    // bucket, still asserting zero warm allocations.
    let per_bucket = if bench_mode() { 50 } else { 2 };
    let rounds = env_usize("REGIONPATH_ALLOC_ROUNDS", if bench_mode() { 3 } else { 1 });
    let mut rows = Vec::new();
    for name in env_list("REGIONPATH_ALLOC_MAPS", MAPS) {
        let case = MapCase::load(&dir, &name).unwrap_or_else(|e| panic!("{e}"));
        let queries: Vec<Query> = split(&case.scenario, per_bucket)
            .into_iter()
            .flat_map(|b| b.queries)
            .collect();
        let mut astar = AStar::new();
        let mut path: Vec<Point> = Vec::new();
        let run = |astar: &mut AStar, path: &mut Vec<Point>| {
            for q in &queries {
                let s = astar
                    .find_path_into(&case.grid, q.start, q.goal, path)
                    .expect("valid query");
                assert_eq!(s.status, Status::Found);
                assert!(
                    q.is_optimal(s.cost),
                    "{name} line {}: {} vs {}",
                    q.line,
                    s.cost,
                    q.optimal
                );
                black_box(&path);
            }
        };
        run(&mut astar, &mut path); // warm
        let before = snapshot();
        for _ in 0..rounds {
            run(&mut astar, &mut path);
        }
        let after = snapshot();
        let n = (queries.len() * rounds) as u64;
        let allocs = after.allocations - before.allocations;
        let scratch = astar.scratch_bytes();
        let per_cell = scratch as f64 / case.cells() as f64;

        // Windowed A* (the hierarchy's leg planner): short queries that fit
        // its default window.
        let mut win = WindowedAStar::new();
        let short: Vec<&Query> = queries
            .iter()
            .filter(|q| q.start.x.abs_diff(q.goal.x) < 40 && q.start.y.abs_diff(q.goal.y) < 40)
            .collect();
        let wrun = |win: &mut WindowedAStar, path: &mut Vec<Point>| {
            let mut found = 0;
            for q in &short {
                let w = win.window_around(&case.grid, q.start, q.goal);
                let s = win
                    .find_path_into(&case.grid, w, q.start, q.goal, path)
                    .expect("valid window query");
                found += usize::from(s.status == Status::Found);
                black_box(&path);
            }
            found
        };
        wrun(&mut win, &mut path);
        let wbefore = snapshot();
        for _ in 0..rounds {
            wrun(&mut win, &mut path);
        }
        let wallocs = snapshot().allocations - wbefore.allocations;
        let wn = (short.len() * rounds) as u64;

        println!(
            "alloc/{name}: regionpath A* {allocs} allocations over {n} warm queries \
             ({:.3} per query); windowed A* {wallocs} over {wn}; scratch {scratch} B = {per_cell:.2} B/cell \
             ({} x {} cells)",
            allocs as f64 / n.max(1) as f64,
            case.grid.width(),
            case.grid.height(),
        );
        assert_eq!(allocs, 0, "{name}: warm A* queries allocated");
        assert_eq!(wallocs, 0, "{name}: warm windowed A* queries allocated");
        rows.push(serde_json::json!({
            "map": name,
            "cells": case.cells(),
            "warm_queries": n,
            "allocations": allocs,
            "windowed_warm_queries": wn,
            "windowed_allocations": wallocs,
            "scratch_bytes": scratch,
            "scratch_bytes_per_cell": per_cell,
            "windowed_scratch_bytes": win.scratch_bytes(),
        }));
    }
    if bench_mode() {
        let value = serde_json::json!({ "bench": "alloc", "maps": rows });
        if let Err(e) = side::write("alloc", &value) {
            eprintln!("cannot write side figures: {e}");
        }
    }
    println!("alloc: every warm query allocated nothing");
}
