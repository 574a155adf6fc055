//! Test helpers written independently of the crate: a seeded RNG, random
//! maps, an 8-connected Dijkstra without corner cutting, and exact
//! point/segment-to-square distances in f64.
#![allow(dead_code)]

use regionpath_grid::{Dir, Grid, Point};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, n).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A random map: scattered blocked cells plus a few rectangles.
pub fn random_grid(rng: &mut Rng, w: u32, h: u32, density: f64) -> Grid {
    let mut g = Grid::new(w, h, true).unwrap();
    for y in 0..h {
        for x in 0..w {
            if rng.unit() < density {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    for _ in 0..rng.below(5) {
        let (x0, y0) = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
        let (rw, rh) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
        for y in y0..(y0 + rh).min(h) {
            for x in x0..(x0 + rw).min(w) {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    g
}

/// Dijkstra over 8-connected moves without corner cutting. Each cell gets a
/// random extra cost in `[0, jitter)` (0 gives an optimal path; larger
/// values give winding but valid paths).
pub fn dijkstra(grid: &Grid, s: Point, t: Point, rng: &mut Rng, jitter: f64) -> Option<Vec<Point>> {
    let w = grid.width() as usize;
    let n = w * grid.height() as usize;
    let extra: Vec<f64> = (0..n).map(|_| rng.unit() * jitter).collect();
    let idx = |p: Point| p.y as usize * w + p.x as usize;
    let mut dist = vec![f64::INFINITY; n];
    let mut parent = vec![usize::MAX; n];
    let mut heap = BinaryHeap::new();
    dist[idx(s)] = 0.0;
    heap.push(Reverse((0u64, idx(s))));
    while let Some(Reverse((dbits, i))) = heap.pop() {
        let d = f64::from_bits(dbits);
        if d > dist[i] {
            continue;
        }
        let p = Point::new((i % w) as u32, (i / w) as u32);
        if p == t {
            break;
        }
        for dir in Dir::ALL {
            if !grid.can_step(p, dir) {
                continue;
            }
            let (dx, dy) = dir.delta();
            let q = Point::new((p.x as i32 + dx) as u32, (p.y as i32 + dy) as u32);
            let qi = idx(q);
            let nd = d + dir.cost() + extra[qi];
            if nd < dist[qi] {
                dist[qi] = nd;
                parent[qi] = i;
                heap.push(Reverse((nd.to_bits(), qi)));
            }
        }
    }
    if dist[idx(t)].is_infinite() {
        return None;
    }
    let mut path = vec![t];
    let mut i = idx(t);
    while i != idx(s) {
        i = parent[i];
        path.push(Point::new((i % w) as u32, (i / w) as u32));
    }
    path.reverse();
    Some(path)
}

/// Length of a cell path: steps of 1 and √2.
pub fn cell_path_length(cells: &[Point]) -> f64 {
    cells
        .windows(2)
        .map(|w| {
            if w[0].x != w[1].x && w[0].y != w[1].y {
                std::f64::consts::SQRT_2
            } else {
                1.0
            }
        })
        .sum()
}

/// A random passable cell.
pub fn random_free(rng: &mut Rng, grid: &Grid) -> Option<Point> {
    for _ in 0..1000 {
        let p = Point::new(
            rng.below(grid.width() as u64) as u32,
            rng.below(grid.height() as u64) as u32,
        );
        if grid.is_passable(p) {
            return Some(p);
        }
    }
    None
}

pub type V = (f64, f64);

pub fn point_seg_dist(p: V, a: V, b: V) -> f64 {
    let (abx, aby) = (b.0 - a.0, b.1 - a.1);
    let l2 = abx * abx + aby * aby;
    let t = if l2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * abx + (p.1 - a.1) * aby) / l2).clamp(0.0, 1.0)
    };
    let (qx, qy) = (a.0 + t * abx, a.1 + t * aby);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

/// Distance from a point to the closed square of cell (x, y).
pub fn point_square_dist(p: V, x: i64, y: i64) -> f64 {
    let (x0, y0, x1, y1) = (x as f64, y as f64, x as f64 + 1.0, y as f64 + 1.0);
    let dx = if p.0 < x0 {
        x0 - p.0
    } else if p.0 > x1 {
        p.0 - x1
    } else {
        0.0
    };
    let dy = if p.1 < y0 {
        y0 - p.1
    } else if p.1 > y1 {
        p.1 - y1
    } else {
        0.0
    };
    (dx * dx + dy * dy).sqrt()
}

/// Whether segment a–b meets the closed square of cell (x, y)
/// (Liang–Barsky clipping, touching included).
pub fn seg_meets_square(a: V, b: V, x: i64, y: i64) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = (b.0 - a.0, b.1 - a.1);
    for (p, dp, lo, hi) in [
        (a.0, d.0, x as f64, x as f64 + 1.0),
        (a.1, d.1, y as f64, y as f64 + 1.0),
    ] {
        if dp == 0.0 {
            if p < lo || p > hi {
                return false;
            }
        } else {
            let (mut ta, mut tb) = ((lo - p) / dp, (hi - p) / dp);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Exact distance between segment a–b and the closed square of cell (x, y):
/// 0 if they meet, else the smallest vertex-to-other-shape distance (the
/// minimum distance between two disjoint convex polygons is attained at a
/// vertex of one of them).
pub fn seg_square_dist(a: V, b: V, x: i64, y: i64) -> f64 {
    if seg_meets_square(a, b, x, y) {
        return 0.0;
    }
    let mut d = point_square_dist(a, x, y).min(point_square_dist(b, x, y));
    for (cx, cy) in [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)] {
        d = d.min(point_seg_dist((cx as f64, cy as f64), a, b));
    }
    d
}

/// Whether a cell is blocked; everything outside the map is.
pub fn blocked(grid: &Grid, x: i64, y: i64) -> bool {
    !(x >= 0
        && y >= 0
        && x < grid.width() as i64
        && y < grid.height() as i64
        && grid.is_passable(Point::new(x as u32, y as u32)))
}

/// The smallest distance from segment a–b to a blocked or out-of-map square
/// (squares farther than `reach` beyond the segment's box are not looked
/// at).
pub fn seg_clearance(grid: &Grid, a: V, b: V, reach: f64) -> f64 {
    let x0 = (a.0.min(b.0) - reach).floor() as i64 - 1;
    let x1 = (a.0.max(b.0) + reach).floor() as i64 + 1;
    let y0 = (a.1.min(b.1) - reach).floor() as i64 - 1;
    let y1 = (a.1.max(b.1) + reach).floor() as i64 + 1;
    let mut best = f64::INFINITY;
    for y in y0..=y1 {
        for x in x0..=x1 {
            if blocked(grid, x, y) {
                best = best.min(seg_square_dist(a, b, x, y));
            }
        }
    }
    best
}

/// Exact independent test: every blocked / out-of-map square is farther
/// than `r` from the segment (touching counts as blocked).
pub fn independently_clear(grid: &Grid, a: V, b: V, r: f64) -> bool {
    seg_clearance(grid, a, b, r + 2.0) > r
}

/// Smallest distance from a point to a blocked or out-of-map square within
/// `reach`.
pub fn point_clearance(grid: &Grid, p: V, reach: f64) -> f64 {
    let mut best = f64::INFINITY;
    for y in (p.1 - reach).floor() as i64 - 1..=(p.1 + reach).floor() as i64 + 1 {
        for x in (p.0 - reach).floor() as i64 - 1..=(p.0 + reach).floor() as i64 + 1 {
            if blocked(grid, x, y) {
                best = best.min(point_square_dist(p, x, y));
            }
        }
    }
    best
}
