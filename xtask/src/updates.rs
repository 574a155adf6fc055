//! Incremental update timing: `updates MAP.map [--edits N] [--seed S]`.
//! Alternates one-cell toggles and 16 × 16 blocks placed and removed at
//! random open spots; prints the update time percentiles.

use regionpath_grid::{read_map, Point};
use regionpath_hierarchy::{Hierarchy, HierarchyConfig};
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
    let (mut edits, mut seed) = (200usize, 7u64);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--edits" => edits = it.next().and_then(|v| v.parse().ok()).unwrap_or(edits),
            "--seed" => seed = it.next().and_then(|v| v.parse().ok()).unwrap_or(seed),
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
    for (name, mut v) in [("one-cell", one), ("16x16", block)] {
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
}
