//! Shared by the `quality` and `sample` subcommands: the Moving AI maps they run and a
//! plain, optimal A* (octile heuristic, no corner cutting) with reusable
//! per-cell arrays, to make the cell paths that they smooth.

use regionpath_grid::{octile, Dir, Grid, Point};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The game maps of the Moving AI set `quality` and `sample` run by default.
pub const GAME_MAPS: &[&str] = &[
    "arena",
    "den520d",
    "brc202d",
    "ost003d",
    "lak303d",
    "hrt201n",
    "orz900d",
    "ht_chantry",
    "w_woundedcoast",
    "AR0011SR",
    "AR0044SR",
    "AR0602SR",
    "CatwalkAlley",
    "Aurora",
    "TheFrozenSea",
    "Berlin_0_256",
    "Paris_1_256",
];

/// The synthetic ones (mazes, random obstacles, rooms) and Berlin 1024, added by `all`.
pub const OTHER_MAPS: &[&str] = &[
    "Berlin_0_1024",
    "maze512-1-0",
    "maze512-8-0",
    "maze512-32-0",
    "random512-10-0",
    "random512-25-0",
    "random512-40-0",
    "64room_000",
    "8room_000",
];

/// Plain A* with reusable per-cell arrays.
pub struct AStar {
    g: Vec<f64>,
    parent: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    heap: BinaryHeap<(Reverse<u64>, u64, u32)>,
}

impl AStar {
    pub fn new(n: usize) -> Self {
        AStar {
            g: vec![0.0; n],
            parent: vec![0; n],
            seen: vec![0; n],
            stamp: 0,
            heap: BinaryHeap::new(),
        }
    }

    pub fn path(&mut self, grid: &Grid, s: Point, t: Point) -> Option<(Vec<Point>, f64)> {
        let w = grid.width() as usize;
        let idx = |p: Point| p.y as usize * w + p.x as usize;
        self.stamp += 1;
        self.heap.clear();
        let (si, ti) = (idx(s), idx(t));
        self.g[si] = 0.0;
        self.seen[si] = self.stamp;
        self.parent[si] = si as u32;
        self.heap
            .push((Reverse(octile(s, t).to_bits()), 0, si as u32));
        while let Some((Reverse(fb), gb, i)) = self.heap.pop() {
            let i = i as usize;
            let g = f64::from_bits(u64::MAX - gb);
            if gb != 0 && g > self.g[i] {
                continue;
            }
            let _ = fb;
            if i == ti {
                break;
            }
            let p = Point::new((i % w) as u32, (i / w) as u32);
            for d in Dir::ALL {
                if !grid.can_step(p, d) {
                    continue;
                }
                let (dx, dy) = d.delta();
                let q = Point::new((p.x as i32 + dx) as u32, (p.y as i32 + dy) as u32);
                let qi = idx(q);
                let ng = self.g[i] + d.cost();
                if self.seen[qi] != self.stamp || ng < self.g[qi] - 1e-12 {
                    self.seen[qi] = self.stamp;
                    self.g[qi] = ng;
                    self.parent[qi] = i as u32;
                    let f = ng + octile(q, t);
                    // Ties on f: larger g first.
                    self.heap
                        .push((Reverse(f.to_bits()), u64::MAX - ng.to_bits(), qi as u32));
                }
            }
        }
        if self.seen[ti] != self.stamp {
            return None;
        }
        let mut path = vec![t];
        let mut i = ti;
        while i != si {
            i = self.parent[i] as usize;
            path.push(Point::new((i % w) as u32, (i / w) as u32));
        }
        path.reverse();
        Some((path, self.g[ti]))
    }
}
