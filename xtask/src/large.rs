//! Large-world measurements (development aid): random long queries on one
//! map, hierarchical full queries and lazy first legs beside our exact jump
//! point search, in one run (hierarchical: the least of three runs per row).
//!
//! ```text
//! cargo run --release -p xtask -- large MAP.map [--queries 30] [--seed 1]
//!     [--min-dist D (default: a third of the longer side)] [--scen OUT.scen]
//! ```
//! `--scen` also writes the rows (with JPS's optimal lengths) as a Moving AI
//! scenario file, for `regionpath scen --first-leg`.

use regionpath_grid::{octile, read_map, Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlanStats, PlannerConfig};
use regionpath_search::JumpPointSearch;
use std::fmt::Write as _;
use std::time::Instant;

use crate::scen as common;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The planner's full query from `s` to `g`, run three times: the first
/// run's statistics and the least of the three times (seconds).
fn least_of_three(
    planner: &mut CellPlanner,
    h: &Hierarchy,
    grid: &Grid,
    (s, g): (Point, Point),
    out: &mut Vec<Point>,
) -> (PlanStats, f64) {
    let mut best = f64::INFINITY;
    let mut stats = None;
    for _ in 0..3 {
        let t = Instant::now();
        let r = planner
            .find_path_into(h, grid, s, g, out)
            .expect("hierarchical");
        best = best.min(t.elapsed().as_secs_f64());
        stats.get_or_insert(r);
    }
    (stats.expect("three runs"), best)
}

fn pct(v: &mut [f64], p: usize) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() * p / 100).min(v.len() - 1)]
}

/// Runs the subcommand with its arguments (after the subcommand's name).
pub fn run(args: Vec<String>) {
    let (mut queries, mut seed, mut min_dist) = (30usize, 1u64, None::<f64>);
    let mut scen_out = None;
    let mut only = String::new();
    let mut pc = PlannerConfig::default();
    let mut map = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--queries" => {
                queries = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--seed" => {
                seed = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--min-dist" => {
                min_dist = Some(args[i + 1].parse().expect("number"));
                i += 1;
            }
            "--only" => {
                only = args[i + 1].clone();
                i += 1;
            }
            "--scen" => {
                scen_out = Some(args[i + 1].clone());
                i += 1;
            }
            _ if common::planner_flag(&args, &mut i, &mut pc) => {}
            f => map = Some(f.to_string()),
        }
        i += 1;
    }
    let map = map.expect("a map file");
    let t = Instant::now();
    let grid = read_map(&map).expect("map");
    println!("read {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    if only == "read" {
        return;
    }
    let t = Instant::now();
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
    let built_ms = t.elapsed().as_secs_f64() * 1e3;
    let st = h.stats();
    println!(
        "build {built_ms:.0} ms: regions {} edges {} clusters {} levels {} (top {} nodes) B/cell {:.3}",
        st.regions,
        st.edges,
        st.clusters,
        st.levels,
        st.top_nodes,
        st.bytes as f64 / st.cells as f64
    );
    if only == "load" {
        let bytes = h.to_bytes();
        let mut build = built_ms;
        for _ in 0..2 {
            let t = Instant::now();
            drop(Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build"));
            build = build.min(t.elapsed().as_secs_f64() * 1e3);
        }
        // The least of five loads: the figure least disturbed by the
        // machine's other work.
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let t = Instant::now();
            let back = Hierarchy::from_bytes(&bytes, &grid).expect("load");
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
            drop(back);
        }
        println!(
            "file {} bytes, build {build:.1} ms (least of 3), load {best:.1} ms (least of 5): {:.1}x",
            bytes.len(),
            build / best
        );
        return;
    }
    let min_dist = min_dist.unwrap_or(grid.width().max(grid.height()) as f64 / 3.0);
    let mut rng = Rng(seed);
    let (w, hgt) = (grid.width() as u64, grid.height() as u64);
    let pick = |rng: &mut Rng| loop {
        let p = Point::new(rng.below(w) as u32, rng.below(hgt) as u32);
        if grid.is_passable(p) {
            if let Some(r) = h.region_of(&grid, p) {
                return (p, r);
            }
        }
    };
    let mut pairs = Vec::new();
    while pairs.len() < queries {
        let (s, rs) = pick(&mut rng);
        let (g, rg) = pick(&mut rng);
        if h.regions_connected(rs, rg) && octile(s, g) >= min_dist {
            pairs.push((s, g));
        }
    }
    // The full-grid search keeps 16 bytes per cell: not on 32k² maps
    // without `--only nojps` (or `--only first`, which does not use it).
    let t = Instant::now();
    let mut jps = (only != "nojps" && only != "first").then(|| JumpPointSearch::new(&grid));
    println!("jps snapshot {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    let mut planner = CellPlanner::with_config(pc).expect("valid settings");
    planner.prepare(&h);
    let mut out = Vec::new();
    // One untimed query each first: JPS's first query writes its per-cell
    // scratch (4 GB on 16k², seconds), which is set-up, not query time.
    if let (Some(jps), Some(&(s, g))) = (jps.as_mut(), pairs.first()) {
        jps.find_path_into(s, g, &mut out).expect("jps");
    }
    let (mut tj, mut th, mut subs, mut firsts) = (vec![], vec![], vec![], vec![]);
    let (mut exp, mut abs_exp, mut legs) = (0u64, 0u64, 0u64);
    let (mut cl_exp, mut q_abs) = (0u64, 0u64);
    let mut starts = vec![];
    let mut scen = String::from("version 1\n");
    let name = std::path::Path::new(&map)
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let reps = std::env::var("RP_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    for &(s, g) in &pairs {
        if only == "first" {
            for _ in 0..reps {
                let mut q = planner.start(&h, &grid, s, g).expect("start");
                out.clear();
                planner.next_leg(&mut q, &h, &grid, &mut out).expect("leg");
            }
            continue;
        }
        if only == "full" {
            th.push(least_of_three(&mut planner, &h, &grid, (s, g), &mut out).1);
            continue;
        }
        let t = Instant::now();
        let jcost = if only == "nojps" {
            f64::NAN
        } else {
            jps.as_mut()
                .expect("a snapshot")
                .find_path_into(s, g, &mut out)
                .expect("jps")
                .cost
        };
        tj.push(t.elapsed().as_secs_f64());
        // The least of three, as `--only full` times it: the ratio to JPS
        // in one run.
        let (r, best) = least_of_three(&mut planner, &h, &grid, (s, g), &mut out);
        th.push(best);
        exp += r.expanded as u64;
        abs_exp += r.abstract_expanded as u64;
        legs += r.legs as u64;
        subs.push(r.cost / jcost - 1.0);
        let t = Instant::now();
        let mut q = planner.start(&h, &grid, s, g).expect("start");
        starts.push(t.elapsed().as_secs_f64());
        out.clear();
        planner.next_leg(&mut q, &h, &grid, &mut out).expect("leg");
        firsts.push(t.elapsed().as_secs_f64());
        let qs = q.stats();
        cl_exp += qs.cluster_expanded as u64;
        q_abs += qs.abstract_expanded as u64;
        let _ = writeln!(
            scen,
            "{}\t{name}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.8}",
            (jcost / 4.0) as u64,
            grid.width(),
            grid.height(),
            s.x,
            s.y,
            g.x,
            g.y,
            jcost
        );
    }
    if only == "full" {
        println!(
            "full: least of 3 per row, summed {:.2} ms",
            th.iter().sum::<f64>() * 1e3
        );
    }
    if !only.is_empty() && only != "nojps" {
        return;
    }
    // First legs back to back (as `regionpath scen --first-leg` runs them).
    let mut b2b = Vec::new();
    for &(s, g) in &pairs {
        let t = Instant::now();
        let mut q = planner.start(&h, &grid, s, g).expect("start");
        out.clear();
        planner.next_leg(&mut q, &h, &grid, &mut out).expect("leg");
        b2b.push(t.elapsed().as_secs_f64());
    }
    let n = pairs.len() as f64;
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mj, mh) = (mean(&tj), mean(&th));
    println!(
        "{} queries ≥ {min_dist:.0}: jps mean {:.1} ms | hier mean (least of 3) {:.2} ms p99 {:.2} ms max {:.2} ms | x{:.1}",
        pairs.len(),
        mj * 1e3,
        mh * 1e3,
        pct(&mut th.clone(), 99) * 1e3,
        pct(&mut th.clone(), 100) * 1e3,
        mj / mh
    );
    println!(
        "subopt mean {:.2}% p95 {:.2}% max {:.2}% | expanded {:.0} abstract {:.0} legs {:.1}",
        mean(&subs) * 100.0,
        pct(&mut subs.clone(), 95) * 100.0,
        pct(&mut subs.clone(), 100) * 100.0,
        exp as f64 / n,
        abs_exp as f64 / n,
        legs as f64 / n
    );
    println!(
        "first leg: start() median {:.1} us, clusters expanded {:.0}, regions expanded {:.0}",
        pct(&mut starts.clone(), 50) * 1e6,
        cl_exp as f64 / n,
        q_abs as f64 / n
    );
    println!(
        "first leg median {:.1} us p90 {:.1} us p99 {:.1} us max {:.1} us",
        pct(&mut firsts.clone(), 50) * 1e6,
        pct(&mut firsts.clone(), 90) * 1e6,
        pct(&mut firsts.clone(), 99) * 1e6,
        pct(&mut firsts.clone(), 100) * 1e6
    );
    println!(
        "first legs back to back: median {:.1} us p99 {:.1} us",
        pct(&mut b2b.clone(), 50) * 1e6,
        pct(&mut b2b.clone(), 99) * 1e6
    );
    if let Some(path) = scen_out {
        std::fs::write(&path, scen).expect("write the scenario file");
    }
}
