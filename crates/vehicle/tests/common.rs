//! Independent checks shared by the vehicle tests: sampled clearance with
//! the test kit's distances, a numeric curvature bound, and a brute-force
//! directional Dijkstra.
#![allow(dead_code)]

use regionpath_grid::{Grid, Point};
use regionpath_smoothing::CurvedPath;
use regionpath_testkit::clearance::{point_clearance, point_square_dist};
use regionpath_testkit::rng::Rng64;
use regionpath_vehicle::{shortest, Maneuver, Piece, Pose};
use std::collections::BinaryHeap;
use std::f64::consts::{PI, TAU};

/// A 90 × 64 open map with a wall across the way at x = 50 (rows 8–55)
/// and arms back towards x = 22 along rows 8 and 55: a pocket open
/// towards a start at (30, 32), the goal beyond the wall at (80, 32).
pub fn pocket_grid() -> Grid {
    let mut grid = Grid::new(90, 64, true).unwrap();
    for y in 8..56 {
        grid.set_passable(Point::new(50, y), false).unwrap();
    }
    for x in 22..=50 {
        for y in [8, 55] {
            grid.set_passable(Point::new(x, y), false).unwrap();
        }
    }
    grid
}

/// An entry of the brute-force Dijkstras' heaps: cost, cell, heading and
/// direction of travel (0 forwards, 1 in reverse; 0 where the search does
/// not reverse), ordered so that `BinaryHeap` pops the cheapest first.
#[derive(PartialEq)]
pub struct E(pub f64, pub i64, pub i64, pub u32, pub usize);
impl Eq for E {}
impl PartialOrd for E {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for E {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        o.0.total_cmp(&self.0)
    }
}

/// Checks a curve by sampling every 0.02 cells: each sample's disc of
/// radius `r` clear of blocked and off-map squares (test kit distances), the
/// heading turning by at most `ds / R` (+ rounding) between samples, and
/// returns the number of samples.
pub fn check_sampled(grid: &Grid, c: &CurvedPath, big_r: f64, r: f64) -> usize {
    let ds = 0.02f64;
    let n = (c.length() as f64 / ds).ceil() as usize;
    let mut prev: Option<(f64, f64)> = None;
    for i in 0..=n {
        let s = (i as f64 * ds).min(c.length() as f64);
        let (p, h) = c.sample(s as f32);
        let clear = point_clearance(grid, (p.x as f64, p.y as f64), r + 1.0);
        assert!(
            clear > r - 1e-5,
            "sample at s = {s} ({}, {}) has clearance {clear} < {r}",
            p.x,
            p.y
        );
        if let Some((ps, ph)) = prev {
            let turn = (h as f64 - ph).rem_euclid(TAU);
            let turn = turn.min(TAU - turn);
            assert!(
                turn <= (s - ps) / big_r * 1.001 + 2e-4,
                "turn of {turn} rad over {} cells at s = {s}: tighter than R = {big_r}",
                s - ps
            );
        }
        prev = Some((s, h as f64));
    }
    n + 1
}

/// Positions along a maneuver from `from`, every `ds` cells (and the end).
pub fn sample_maneuver(from: Pose, m: &Maneuver, ds: f64) -> Vec<(f64, f64)> {
    let mut out = vec![(from.x, from.y)];
    let mut p = from;
    for piece in m.pieces {
        let len = match piece {
            Piece::Line(l) => l,
            Piece::Arc(a) => a.abs() * m.radius,
        };
        let k = (len / ds).ceil().max(1.0) as usize;
        let mut q = p;
        for i in 1..=k {
            let f = i as f64 / k as f64;
            let (x, y, h) = match piece {
                Piece::Line(l) => (
                    p.x + l * f * p.heading.cos(),
                    p.y + l * f * p.heading.sin(),
                    p.heading,
                ),
                Piece::Arc(a) => {
                    let s = a.signum();
                    let (cx, cy) = (
                        p.x - s * m.radius * p.heading.sin(),
                        p.y + s * m.radius * p.heading.cos(),
                    );
                    let h = p.heading + a * f;
                    (cx + s * m.radius * h.sin(), cy - s * m.radius * h.cos(), h)
                }
            };
            out.push((x, y));
            q = Pose::new(x, y, h);
        }
        p = q;
    }
    out
}

/// A brute-force directional search: Dijkstra over (cell, heading) with
/// every offset within Chebyshev `reach` and every heading, each edge the
/// Dubins curve kept under the same length bound as the crate's
/// (1.5 × distance + πR), legal when
/// every sample (every 0.02 cells) keeps more than `r + 0.011` from every
/// blocked square (so the continuous curve keeps more than `r + 0.001`).
/// From the start cell facing anywhere to the goal cell with any heading;
/// the shortest length, or `None`.
pub fn brute_force(
    grid: &Grid,
    start: Point,
    goal: Point,
    big_r: f64,
    r: f64,
    headings: u32,
    reach: i32,
) -> Option<f64> {
    let step = TAU / headings as f64;
    // Per (h0, h1, dx, dy): length and the cells the sampled curve comes
    // near, relative to the start cell.
    struct Prim {
        h0: u32,
        h1: u32,
        dx: i32,
        dy: i32,
        len: f64,
        cells: Vec<(i64, i64)>,
    }
    let ds = 0.02;
    let mut prims: Vec<Vec<Prim>> = (0..headings).map(|_| Vec::new()).collect();
    for h0 in 0..headings {
        for h1 in 0..headings {
            for dy in -reach..=reach {
                for dx in -reach..=reach {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let from = Pose::new(0.5, 0.5, h0 as f64 * step);
                    let to = Pose::new(0.5 + dx as f64, 0.5 + dy as f64, h1 as f64 * step);
                    let Some(m) = shortest(from, to, big_r) else {
                        continue;
                    };
                    let dist = ((dx * dx + dy * dy) as f64).sqrt();
                    if m.length > 1.5 * dist + 0.5 * TAU * big_r + 1e-9 {
                        continue;
                    }
                    let mut cells = Vec::new();
                    let lim = r + ds / 2.0 + 1e-3;
                    for (x, y) in sample_maneuver(from, &m, ds) {
                        for cy in (y - lim).floor() as i64..=(y + lim).floor() as i64 {
                            for cx in (x - lim).floor() as i64..=(x + lim).floor() as i64 {
                                if point_square_dist((x, y), cx, cy) <= lim
                                    && !cells.contains(&(cx, cy))
                                {
                                    cells.push((cx, cy));
                                }
                            }
                        }
                    }
                    prims[h0 as usize].push(Prim {
                        h0,
                        h1,
                        dx,
                        dy,
                        len: m.length,
                        cells,
                    });
                }
            }
        }
    }
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let idx = |x: i64, y: i64, hd: u32| ((y * w + x) as usize) * headings as usize + hd as usize;
    let mut dist = vec![f64::INFINITY; (w * h) as usize * headings as usize];
    let mut heap = BinaryHeap::new();
    for hd in 0..headings {
        dist[idx(start.x as i64, start.y as i64, hd)] = 0.0;
        heap.push(E(0.0, start.x as i64, start.y as i64, hd, 0));
    }
    let free = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w && y < h && grid.is_passable(Point::new(x as u32, y as u32))
    };
    while let Some(E(d, x, y, hd, _)) = heap.pop() {
        if d > dist[idx(x, y, hd)] {
            continue;
        }
        if (x, y) == (goal.x as i64, goal.y as i64) {
            return Some(d);
        }
        for p in &prims[hd as usize] {
            debug_assert_eq!(p.h0, hd);
            let (nx, ny) = (x + p.dx as i64, y + p.dy as i64);
            if !free(nx, ny) || !p.cells.iter().all(|&(cx, cy)| free(x + cx, y + cy)) {
                continue;
            }
            let nd = d + p.len;
            let j = idx(nx, ny, p.h1);
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(E(nd, nx, ny, p.h1, 0));
            }
        }
    }
    None
}

/// Checks the direction of travel of a curve against its reported body
/// headings, from positions alone: over each 0.02-cell step whose two ends
/// and midpoint lie on pieces of the same direction, the chord's direction
/// is the midpoint's heading (forwards) or that heading turned by π
/// (reverse), within 0.02 radians. Returns the length travelled in
/// reverse (sum of those steps).
pub fn check_driven(c: &CurvedPath) -> f64 {
    let ds = 0.02f64;
    let total = c.length() as f64;
    let n = (total / ds).floor() as usize;
    let mut reverse = 0.0;
    for i in 0..n {
        let (s0, s1) = (i as f64 * ds, (i as f64 + 1.0) * ds);
        let (p0, _, r0) = c.sample_driven(s0 as f32);
        let (pm, hm, rm) = c.sample_driven(((s0 + s1) / 2.0) as f32);
        let (p1, _, r1) = c.sample_driven(s1 as f32);
        if r0 != rm || rm != r1 {
            continue;
        }
        let (dx, dy) = ((p1.x - p0.x) as f64, (p1.y - p0.y) as f64);
        if dx.hypot(dy) < ds * 0.5 {
            continue;
        }
        let motion = dy.atan2(dx);
        let body = hm as f64 + if rm { PI } else { 0.0 };
        let d = (motion - body).rem_euclid(TAU);
        let d = d.min(TAU - d);
        assert!(
            d < 0.02,
            "at s = {s0}: travel towards {motion} but body heading {hm} (reverse {rm}), \
             position ({}, {})",
            pm.x,
            pm.y
        );
        if rm {
            reverse += s1 - s0;
        }
    }
    reverse
}

/// A primitive of [`Brute`]: end heading, offset, direction, length and
/// the cells it comes near (relative to its start cell).
type BrutePrim = (u32, i64, i64, usize, f64, Vec<(i64, i64)>);

/// A brute-force directional search with reversing: Dijkstra over
/// (cell, heading, direction) states. Its primitives are computed here:
/// for every start and end body heading, offset within Chebyshev `reach`
/// and direction, the Dubins curve between the cell centres with the
/// headings of the motion (the body's, turned by π in reverse), kept under
/// the crate's length bound (1.5 × distance + πR), legal when every sample
/// (every 0.02 cells) keeps more than `r + 0.011` from every blocked
/// square. A forward piece costs its length, a reverse one its length ×
/// `penalty`, plus `gear` when the direction differs from the previous
/// piece's (not for the first piece).
pub struct Brute {
    headings: u32,
    reverse: Option<(f64, f64)>,
    /// Per start heading: (end heading, dx, dy, direction, length, cells).
    prims: Vec<Vec<BrutePrim>>,
}

impl Brute {
    /// The primitives for a vehicle; `reverse` = `Some((penalty, gear))`.
    pub fn new(
        big_r: f64,
        r: f64,
        headings: u32,
        reach: i32,
        reverse: Option<(f64, f64)>,
    ) -> Brute {
        let step = TAU / headings as f64;
        let ds = 0.02;
        let dirs = if reverse.is_some() { 2 } else { 1 };
        let mut prims: Vec<Vec<BrutePrim>> = (0..headings).map(|_| Vec::new()).collect();
        for h0 in 0..headings {
            for h1 in 0..headings {
                for dy in -reach..=reach {
                    for dx in -reach..=reach {
                        if dx == 0 && dy == 0 {
                            continue;
                        }
                        for dir in 0..dirs {
                            let turn = if dir == 1 { PI } else { 0.0 };
                            let from = Pose::new(0.5, 0.5, h0 as f64 * step + turn);
                            let to = Pose::new(
                                0.5 + dx as f64,
                                0.5 + dy as f64,
                                h1 as f64 * step + turn,
                            );
                            let Some(m) = shortest(from, to, big_r) else {
                                continue;
                            };
                            let dist = ((dx * dx + dy * dy) as f64).sqrt();
                            if m.length > 1.5 * dist + 0.5 * TAU * big_r + 1e-9 {
                                continue;
                            }
                            let mut cells = Vec::new();
                            let lim = r + ds / 2.0 + 1e-3;
                            for (x, y) in sample_maneuver(from, &m, ds) {
                                for cy in (y - lim).floor() as i64..=(y + lim).floor() as i64 {
                                    for cx in (x - lim).floor() as i64..=(x + lim).floor() as i64 {
                                        if point_square_dist((x, y), cx, cy) <= lim
                                            && !cells.contains(&(cx, cy))
                                        {
                                            cells.push((cx, cy));
                                        }
                                    }
                                }
                            }
                            prims[h0 as usize]
                                .push((h1, dx as i64, dy as i64, dir, m.length, cells));
                        }
                    }
                }
            }
        }
        Brute {
            headings,
            reverse,
            prims,
        }
    }

    /// The least cost from the start cell (facing `heading`, a heading
    /// index, or anywhere when `None`) to the goal cell, or `None`.
    pub fn solve(
        &self,
        grid: &Grid,
        start: Point,
        heading: Option<u32>,
        goal: Point,
    ) -> Option<f64> {
        self.dijkstra(grid, start, heading, Some(goal), &mut Vec::new())
    }

    /// The cells any chain of primitives from the start cell (facing
    /// `heading`, or anywhere) reaches with some heading: row-major, one
    /// flag per cell of `grid`.
    pub fn reached(&self, grid: &Grid, start: Point, heading: Option<u32>) -> Vec<bool> {
        let mut reached = Vec::new();
        self.dijkstra(grid, start, heading, None, &mut reached);
        reached
    }

    /// The Dijkstra of [`Brute::solve`], to `goal` or (`None`) over every
    /// node it reaches; `reached` gets one flag per cell of `grid`.
    fn dijkstra(
        &self,
        grid: &Grid,
        start: Point,
        heading: Option<u32>,
        goal: Option<Point>,
        reached: &mut Vec<bool>,
    ) -> Option<f64> {
        reached.clear();
        reached.resize(grid.width() as usize * grid.height() as usize, false);
        let hn = self.headings as usize;
        let dirs = if self.reverse.is_some() { 2 } else { 1 };
        let (penalty, gear) = self.reverse.unwrap_or((1.0, 0.0));
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let idx = |x: i64, y: i64, hd: u32, d: usize| {
            (((y * w + x) as usize) * hn + hd as usize) * dirs + d
        };
        let mut dist = vec![f64::INFINITY; (w * h) as usize * hn * dirs];
        let mut heap = BinaryHeap::new();
        for hd in 0..self.headings {
            if heading.is_some_and(|h| h != hd) {
                continue;
            }
            for d in 0..dirs {
                dist[idx(start.x as i64, start.y as i64, hd, d)] = 0.0;
                heap.push(E(0.0, start.x as i64, start.y as i64, hd, d));
            }
        }
        let free = |x: i64, y: i64| {
            x >= 0 && y >= 0 && x < w && y < h && grid.is_passable(Point::new(x as u32, y as u32))
        };
        while let Some(E(c, x, y, hd, d)) = heap.pop() {
            if c > dist[idx(x, y, hd, d)] {
                continue;
            }
            reached[(y * w + x) as usize] = true;
            if goal.is_some_and(|g| (x, y) == (g.x as i64, g.y as i64)) {
                return Some(c);
            }
            for (h1, dx, dy, nd, len, cells) in &self.prims[hd as usize] {
                let (nx, ny) = (x + dx, y + dy);
                if !free(nx, ny) || !cells.iter().all(|&(cx, cy)| free(x + cx, y + cy)) {
                    continue;
                }
                let factor = if *nd == 1 { penalty } else { 1.0 };
                let change = if *nd != d { gear } else { 0.0 };
                let cost = c + len * factor + change;
                let j = idx(nx, ny, *h1, *nd);
                if cost < dist[j] {
                    dist[j] = cost;
                    heap.push(E(cost, nx, ny, *h1, *nd));
                }
            }
        }
        None
    }
}

/// Two passable cells of `grid` drawn at random (possibly the same), or
/// `None` when fewer than two are passable.
pub fn random_pair(grid: &Grid, rng: &mut impl Rng64) -> Option<(Point, Point)> {
    let (w, h) = (grid.width(), grid.height());
    let free: Vec<Point> = (0..w * h)
        .map(|i| Point::new(i % w, i / w))
        .filter(|&p| grid.is_passable(p))
        .collect();
    if free.len() < 2 {
        return None;
    }
    let a = free[rng.below(free.len() as u64) as usize];
    let b = free[rng.below(free.len() as u64) as usize];
    Some((a, b))
}
