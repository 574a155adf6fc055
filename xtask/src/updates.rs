//! Incremental update timing: `updates MAP.map [--edits N] [--seed S]
//! [--queries Q]`. Alternates one-cell toggles and 16 × 16 blocks placed
//! and removed at random open spots; prints the update time percentiles.
//! Then times `Q` queries between random connected cells on the updated
//! hierarchy as it is (loose: repaired landmarks, no block tree or levels)
//! and after a refresh (least of 3 runs each), with abstract expansions.
//! `--world` instead times `regionpath::World::edit` (the double buffer)
//! against a clone of grid and hierarchy, edit and update per publish.

use regionpath_grid::{read_map, Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig};
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
    let (mut edits, mut seed, mut queries) = (200usize, 7u64, 0usize);
    let mut world = false;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--edits" => edits = it.next().and_then(|v| v.parse().ok()).unwrap_or(edits),
            "--seed" => seed = it.next().and_then(|v| v.parse().ok()).unwrap_or(seed),
            "--queries" => queries = it.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--world" => world = true,
            _ => files.push(a),
        }
    }
    let Some(map) = files.first() else {
        eprintln!("usage: updates MAP.map [--edits N] [--seed S]");
        std::process::exit(2);
    };
    let mut grid = read_map(map).unwrap_or_else(|e| panic!("{map}: {e}"));
    let t = Instant::now();
    let mut h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
    println!(
        "build {:.1} ms, {} regions",
        t.elapsed().as_secs_f64() * 1e3,
        h.regions().len()
    );
    let mut rng = Rng(seed | 1);
    let (w, hgt) = (grid.width(), grid.height());
    if world {
        return publishes(grid, h, &mut rng, edits);
    }
    let mut one = Vec::new();
    let mut block = Vec::new();
    for i in 0..edits {
        let side = if i % 2 == 0 { 1 } else { 16 };
        let x = rng.below((w - side) as u64) as u32;
        let y = rng.below((hgt - side) as u64) as u32;
        let mut changed = Vec::new();
        for yy in y..y + side {
            for xx in x..x + side {
                let p = Point::new(xx, yy);
                let v = !grid.is_passable(p);
                grid.set_passable(p, v).unwrap();
                changed.push(p);
            }
        }
        let t = Instant::now();
        h.update(&grid, &changed).expect("update");
        let us = t.elapsed().as_secs_f64() * 1e6;
        if side == 1 {
            one.push(us)
        } else {
            block.push(us)
        }
    }
    for (name, v) in [("one-cell", one), ("16x16", block)] {
        percentiles(name, v);
    }
    if queries == 0 {
        return;
    }
    let mut pairs = Vec::new();
    while pairs.len() < queries {
        let pick = |rng: &mut Rng| loop {
            let p = Point::new(rng.below(w as u64) as u32, rng.below(hgt as u64) as u32);
            if let Some(r) = h.region_of(&grid, p) {
                return (p, r);
            }
        };
        let ((s, rs), (g, rg)) = (pick(&mut rng), pick(&mut rng));
        if h.regions_connected(rs, rg) {
            pairs.push((s, g));
        }
    }
    println!("landmarks kept: {}", h.stats().landmarks);
    time_queries("loose", &h, &grid, &pairs);
    h.refresh();
    time_queries("refreshed", &h, &grid, &pairs);
}

/// Mean query time (least of 3 runs per pair) and abstract expansions.
fn time_queries(name: &str, h: &Hierarchy, grid: &Grid, pairs: &[(Point, Point)]) {
    let mut planner = CellPlanner::new();
    let mut out = Vec::new();
    let (mut total, mut abs, mut cost) = (0.0, 0u64, 0.0);
    for &(s, g) in pairs {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let t = Instant::now();
            let r = planner
                .find_path_into(h, grid, s, g, &mut out)
                .expect("connected pair");
            best = best.min(t.elapsed().as_secs_f64());
            abs += r.abstract_expanded as u64;
            cost += r.cost;
        }
        total += best;
    }
    let n = pairs.len() as f64;
    println!(
        "{name}: {} queries, mean {:.0} us, abstract expanded {:.0}, mean cost {:.1}",
        pairs.len(),
        total / n * 1e6,
        abs as f64 / (3.0 * n),
        cost / (3.0 * n)
    );
}

/// Publish times of the double-buffered `World` and of clone + edit +
/// update, for the same toggled rectangles.
fn publishes(grid: Grid, h: Hierarchy, rng: &mut Rng, edits: usize) {
    let (w, hgt) = (grid.width(), grid.height());
    let mut snap = std::sync::Arc::new((grid.clone(), h.clone()));
    let mut world = regionpath::World::new(grid, h).expect("world");
    let (mut tw, mut tc, mut copies) = (Vec::new(), Vec::new(), 0);
    for i in 0..edits {
        let side = if i % 2 == 0 { 1 } else { 16 };
        let x = rng.below((w - side) as u64) as u32;
        let y = rng.below((hgt - side) as u64) as u32;
        let cells: Vec<(Point, bool)> = (y..y + side)
            .flat_map(|yy| (x..x + side).map(move |xx| Point::new(xx, yy)))
            .map(|p| (p, !snap.0.is_passable(p)))
            .collect();
        let t = Instant::now();
        let p = world
            .edit(|g| cells.iter().try_for_each(|&(p, v)| g.set_passable(p, v)))
            .expect("edit");
        tw.push(t.elapsed().as_secs_f64() * 1e6);
        copies += usize::from(p.copied);
        let t = Instant::now();
        let (mut g, mut hh) = (snap.0.clone(), snap.1.clone());
        for &(p, v) in &cells {
            g.set_passable(p, v).expect("in the map");
        }
        let listed: Vec<Point> = cells.iter().map(|&(p, _)| p).collect();
        hh.update(&g, &listed).expect("update");
        snap = std::sync::Arc::new((g, hh));
        tc.push(t.elapsed().as_secs_f64() * 1e6);
    }
    for (name, v) in [("World::edit", tw), ("clone + update", tc)] {
        percentiles(name, v);
    }
    println!("World copies: {copies}");
}

/// Prints the count, p50, p99 and maximum of times `v` (µs).
fn percentiles(name: &str, mut v: Vec<f64>) {
    v.sort_by(f64::total_cmp);
    let q = |f: f64| v[((v.len() - 1) as f64 * f) as usize];
    println!(
        "{name}: n {} p50 {:.0} us p99 {:.0} us max {:.0} us",
        v.len(),
        q(0.5),
        q(0.99),
        q(1.0)
    );
}
