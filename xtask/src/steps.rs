//! Frame-budgeted queries: `steps MAP.map... [--queries N] [--budgets B,B,...] [--seed S]`.
//! For each map and budget, N random reachable pairs planned as sliced
//! queries (`CellPlanner::start_sliced` + `step` until done, on one warm
//! planner); prints the worst and p99 time of one `step` call, calls per
//! query, and the whole query's time beside a plain lazy query's. Each
//! call is timed as the least of three runs of the same query.

use regionpath_grid::{read_map, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, Step};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

pub fn run(args: Vec<String>) {
    let mut files = Vec::new();
    let (mut queries, mut seed) = (300usize, 7u64);
    let mut budgets = vec![250u32, 1000, 4000];
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--queries" => queries = it.next().and_then(|v| v.parse().ok()).unwrap_or(queries),
            "--seed" => seed = it.next().and_then(|v| v.parse().ok()).unwrap_or(seed),
            "--budgets" => {
                budgets = it
                    .next()
                    .map(|v| v.split(',').filter_map(|b| b.parse().ok()).collect())
                    .unwrap_or(budgets)
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: steps MAP.map... [--queries N] [--budgets B,B,...] [--seed S]");
        std::process::exit(2);
    }
    println!("map,budget,queries,worst_route_call_us,worst_leg_call_us,calls_per_query,worst_call_us,p99_call_us,mean_query_us,lazy_query_us");
    for map in &files {
        let grid = read_map(map).unwrap_or_else(|e| panic!("{map}: {e}"));
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
        let cells: Vec<Point> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
            .filter(|&p| grid.is_passable(p))
            .collect();
        let mut rng = Rng(seed | 1);
        let mut planner = CellPlanner::new();
        let mut pairs = Vec::new();
        while pairs.len() < queries {
            let s = cells[rng.below(cells.len() as u64) as usize];
            let g = cells[rng.below(cells.len() as u64) as usize];
            if planner.start(&h, &grid, s, g).is_ok() {
                pairs.push((s, g));
            }
        }
        let mut out = Vec::new();
        // Plain lazy queries, for comparison (and to warm the planner).
        let t = Instant::now();
        for &(s, g) in &pairs {
            out.clear();
            let mut q = planner.start(&h, &grid, s, g).unwrap();
            while planner.next_leg(&mut q, &h, &grid, &mut out).unwrap() {}
        }
        let lazy_us = t.elapsed().as_secs_f64() * 1e6 / pairs.len() as f64;
        let name = std::path::Path::new(map)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for &b in &budgets {
            let mut calls = Vec::new();
            let (mut pend, mut legs) = (vec![0.0], vec![0.0]);
            let t = Instant::now();
            let mut q = planner
                .start_sliced(&h, &grid, pairs[0].0, pairs[0].1)
                .unwrap();
            for &(s, g) in &pairs {
                // Three runs of the whole query on the same warm query
                // value; call k is timed as the least of its three runs
                // (the same work each time), so the scheduler's
                // preemptions drop out.
                let mut best: Vec<(f64, Step)> = Vec::new();
                for run in 0..3 {
                    out.clear();
                    let c = Instant::now();
                    planner.restart_sliced(&mut q, &h, &grid, s, g).unwrap();
                    let mut times = vec![(c.elapsed().as_secs_f64() * 1e6, Step::Pending)];
                    loop {
                        let c = Instant::now();
                        let st = planner.step(&mut q, &h, &grid, b, &mut out).unwrap();
                        times.push((c.elapsed().as_secs_f64() * 1e6, st));
                        if st == Step::Done {
                            break;
                        }
                    }
                    if run == 0 {
                        best = times;
                    } else {
                        assert_eq!(best.len(), times.len(), "a sliced query is deterministic");
                        for (b, t) in best.iter_mut().zip(&times) {
                            b.0 = b.0.min(t.0);
                        }
                    }
                }
                for (k, &(us, st)) in best.iter().enumerate() {
                    calls.push(us);
                    if k > 0 && st == Step::Pending {
                        pend.push(us);
                    } else if k > 0 {
                        legs.push(us);
                    }
                }
                assert_eq!((out.first(), out.last()), (Some(&s), Some(&g)));
            }
            let total = t.elapsed().as_secs_f64() * 1e6 / pairs.len() as f64 / 3.0;
            let n = calls.len();
            calls.sort_by(f64::total_cmp);
            pend.sort_by(f64::total_cmp);
            legs.sort_by(f64::total_cmp);
            println!(
                "{name},{b},{},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1},{:.1}",
                pairs.len(),
                pend[pend.len() - 1],
                legs[legs.len() - 1],
                n as f64 / pairs.len() as f64,
                calls[n - 1],
                calls[(n - 1) * 99 / 100],
                total,
                lazy_us
            );
        }
    }
}
