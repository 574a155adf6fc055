//! Group paths beside independent queries: `group MAP.map [--units N]
//! [--area A] [--min-dist D] [--groups G] [--seed S] [--reps R]`.
//!
//! Each group: `N` random open starts in an `A × A` square around a random
//! open cell, one goal at least `D` cells (octile) from that cell and
//! reachable from it. Times one `find_group_paths` and `N` independent
//! `find_path_into` calls with the same warm planner (best of `R` runs
//! each), and compares each unit's path length with its own independent
//! path's.

use regionpath_grid::{octile, read_map, Point};
use regionpath_hierarchy::{CellPlanner, GroupPaths, Hierarchy, HierarchyConfig};
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

fn length(cells: &[Point]) -> f64 {
    cells.windows(2).map(|w| octile(w[0], w[1])).sum()
}

pub fn run(args: Vec<String>) {
    let mut files = Vec::new();
    let (mut units, mut area, mut min_dist, mut groups, mut seed, mut reps) =
        (100usize, 20u32, 800.0f64, 20usize, 7u64, 3usize);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut num = |d: f64| it.next().and_then(|v| v.parse().ok()).unwrap_or(d);
        match a.as_str() {
            "--units" => units = num(units as f64) as usize,
            "--area" => area = num(area as f64) as u32,
            "--min-dist" => min_dist = num(min_dist),
            "--groups" => groups = num(groups as f64) as usize,
            "--seed" => seed = num(seed as f64) as u64,
            "--reps" => reps = num(reps as f64).max(1.0) as usize,
            _ => files.push(a),
        }
    }
    let Some(map) = files.first() else {
        eprintln!("usage: group MAP.map [--units N] [--area A] [--min-dist D] [--groups G] [--seed S] [--reps R]");
        std::process::exit(2);
    };
    let grid = read_map(map).unwrap_or_else(|e| panic!("{map}: {e}"));
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
    let (w, hgt) = (grid.width(), grid.height());
    let mut rng = Rng(seed | 1);
    let mut planner = CellPlanner::new();
    let mut paths = GroupPaths::new();
    let mut cells = Vec::new();
    let mut own_len = Vec::new();
    let (mut t_group, mut t_own) = (0.0f64, 0.0f64);
    let mut ratios = Vec::new();
    let (mut joined, mut independent, mut done) = (0u64, 0u64, 0usize);
    let open = |p: Point| grid.is_passable(p);
    let mut tries = 0;
    while done < groups && tries < groups * 1000 {
        tries += 1;
        let c = Point::new(rng.below(w.into()) as u32, rng.below(hgt.into()) as u32);
        let g = Point::new(rng.below(w.into()) as u32, rng.below(hgt.into()) as u32);
        if !open(c) || !open(g) || octile(c, g) < min_dist {
            continue;
        }
        let (Some(rc), Some(rg)) = (h.region_of(&grid, c), h.region_of(&grid, g)) else {
            continue;
        };
        if !h.regions_connected(rc, rg) {
            continue;
        }
        let mut starts = Vec::with_capacity(units);
        let (x0, y0) = (
            c.x.saturating_sub(area / 2).min(w - area.min(w)),
            c.y.saturating_sub(area / 2).min(hgt - area.min(hgt)),
        );
        for _ in 0..units * 100 {
            if starts.len() == units {
                break;
            }
            let p = Point::new(
                x0 + rng.below(area.into()) as u32,
                y0 + rng.below(area.into()) as u32,
            );
            if open(p) {
                starts.push(p);
            }
        }
        if starts.len() < units {
            continue;
        }
        // Independent queries, best of `reps`.
        let mut best_own = f64::INFINITY;
        for _ in 0..reps {
            own_len.clear();
            let t = Instant::now();
            for &s in &starts {
                let ok = planner.find_path_into(&h, &grid, s, g, &mut cells).is_ok();
                own_len.push(ok.then(|| length(&cells)));
            }
            best_own = best_own.min(t.elapsed().as_secs_f64());
        }
        let mut best_group = f64::INFINITY;
        for _ in 0..reps {
            let t = Instant::now();
            planner
                .find_group_paths(&h, &grid, &starts, g, &mut paths)
                .expect("group");
            best_group = best_group.min(t.elapsed().as_secs_f64());
        }
        t_own += best_own;
        t_group += best_group;
        let st = paths.stats();
        joined += u64::from(st.joined);
        independent += u64::from(st.independent);
        for (i, r) in paths.iter().enumerate() {
            if let (Ok(p), Some(own)) = (r, own_len[i]) {
                if own > 0.0 {
                    ratios.push(length(p) / own);
                }
            }
        }
        done += 1;
        println!(
            "group {done}: centre {c} goal {g} ({:.0} cells): own {:.2} ms, group {:.2} ms ({:.1}x), {} joined, {} leaders, {} own queries, {} cells searched",
            octile(c, g),
            best_own * 1e3,
            best_group * 1e3,
            best_own / best_group,
            st.joined,
            st.leaders,
            st.independent,
            st.field_cells
        );
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
    let worst = ratios.iter().copied().fold(0.0, f64::max);
    let best = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "{map}: {done} groups of {units}: independent {:.2} ms, group {:.2} ms per group, speedup {:.1}x; length ratio group/own mean {mean:.4} max {worst:.4} min {best:.4}; {joined} joined, {independent} own queries",
        t_own * 1e3 / done.max(1) as f64,
        t_group * 1e3 / done.max(1) as f64,
        t_own / t_group.max(1e-12),
    );
}

/// `partial MAP.map [--queries N] [--seed S]`: partial paths to random
/// blocked or unreachable goals from random open starts; prints the time
/// of `nearest_reachable` (the lookup of the end cell) beside that of the
/// whole `find_path_or_nearest_into`.
pub fn run_partial(args: Vec<String>) {
    let mut files = Vec::new();
    let (mut queries, mut seed) = (200usize, 7u64);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--queries" => queries = it.next().and_then(|v| v.parse().ok()).unwrap_or(queries),
            "--seed" => seed = it.next().and_then(|v| v.parse().ok()).unwrap_or(seed),
            _ => files.push(a),
        }
    }
    let Some(map) = files.first() else {
        eprintln!("usage: partial MAP.map [--queries N] [--seed S]");
        std::process::exit(2);
    };
    let grid = read_map(map).unwrap_or_else(|e| panic!("{map}: {e}"));
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
    let (w, hgt) = (grid.width(), grid.height());
    let mut rng = Rng(seed | 1);
    let mut planner = CellPlanner::new();
    let mut cells = Vec::new();
    let mut lookups = Vec::new();
    let (mut t_partial, mut tries) = (0.0f64, 0usize);
    while lookups.len() < queries && tries < queries * 1000 {
        tries += 1;
        let s = Point::new(rng.below(w.into()) as u32, rng.below(hgt.into()) as u32);
        let g = Point::new(rng.below(w.into()) as u32, rng.below(hgt.into()) as u32);
        if !grid.is_passable(s) {
            continue;
        }
        let t = Instant::now();
        let Ok(r) = planner.find_path_or_nearest_into(&h, &grid, s, g, &mut cells) else {
            continue;
        };
        let whole = t.elapsed().as_secs_f64();
        if !r.partial {
            continue;
        }
        let t = Instant::now();
        let end = planner.nearest_reachable(&h, &grid, s, g);
        lookups.push((t.elapsed().as_secs_f64(), s, g));
        assert_eq!(end, Ok(r.end));
        t_partial += whole;
    }
    let n = lookups.len().max(1) as f64;
    let mean = lookups.iter().map(|l| l.0).sum::<f64>() / n;
    lookups.sort_by(|a, b| a.0.total_cmp(&b.0));
    let q = |f: f64| lookups[((lookups.len() - 1) as f64 * f) as usize];
    let worst = q(1.0);
    println!(
        "{map}: {} partial queries: {:.1} us each; nearest-cell lookup mean {:.1} us, p50 {:.1} us, p99 {:.1} us, max {:.1} us (from {} to {})",
        lookups.len(),
        t_partial * 1e6 / n,
        mean * 1e6,
        q(0.5).0 * 1e6,
        q(0.99).0 * 1e6,
        worst.0 * 1e6,
        worst.1,
        worst.2
    );
}
