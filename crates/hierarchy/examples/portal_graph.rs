//! Experiment (development aid, not part of the library): an exact
//! *portal graph* next to the hierarchical planner, on Moving AI scenario
//! files. Measures what PROFILES.md's "what would close target (a)" is
//! based on.
//!
//! Portals are all passable cells on a sector border with a legal move into
//! another sector; edges are those moves plus, inside each sector, the exact
//! distance between every two of its portals (Dijkstra confined to the
//! sector). A query connects start and goal to the portals of their sectors
//! (Dijkstra again), runs A* over the portals (octile heuristic, consistent:
//! the path is optimal), then refines each in-sector hop with a jump point
//! search in that sector. Prints, per file: the graph's size and build time,
//! the hierarchical planner's and the portal graph's time per query (the
//! same queries, alternated, in one run), the portal query's phases, and
//! both mean suboptimalities.
//!
//! `cargo run --release -p regionpath-hierarchy --example portal_graph -- FILE.scen...`
//! (maps are read from the scenario's `../maps/` folder).
use regionpath_grid::{octile, Dir, Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig};
use regionpath_search::{Window, WindowedJps};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::{Duration, Instant};

mod common;

/// Fixed-point costs of a straight and a diagonal step.
const C1: u32 = 10_000;
const C2: u32 = 14_142;

fn oct(a: Point, b: Point) -> u32 {
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    C1 * dx.max(dy) + (C2 - C1) * dx.min(dy)
}

/// Sector geometry.
struct Sectors {
    side: u32,
    across: u32,
    width: u32,
    height: u32,
}

impl Sectors {
    fn of(&self, p: Point) -> u32 {
        (p.y / self.side) * self.across + p.x / self.side
    }

    fn rect(&self, k: u32) -> Window {
        let (x, y) = ((k % self.across) * self.side, (k / self.across) * self.side);
        Window {
            x,
            y,
            width: self.side.min(self.width - x),
            height: self.side.min(self.height - y),
        }
    }

    fn count(&self) -> usize {
        (self.across * self.height.div_ceil(self.side)) as usize
    }
}

/// Dijkstra confined to one sector (its own copy of the passability).
#[derive(Default)]
struct SectorDijkstra {
    open: Vec<bool>,
    dist: Vec<u32>,
    heap: BinaryHeap<Reverse<u64>>,
    rect: Option<Window>,
}

impl SectorDijkstra {
    fn run(&mut self, grid: &Grid, rect: Window, from: Point) {
        let (w, h) = (rect.width as usize, rect.height as usize);
        self.rect = Some(rect);
        self.open.clear();
        for y in 0..h {
            let bits = grid.row_bits(rect.x, rect.y + y as u32, rect.width);
            self.open.extend((0..w).map(|x| bits >> x & 1 == 1));
        }
        self.dist.clear();
        self.dist.resize(w * h, u32::MAX);
        self.heap.clear();
        let i0 = (from.y - rect.y) as usize * w + (from.x - rect.x) as usize;
        self.dist[i0] = 0;
        self.heap.push(Reverse(i0 as u64));
        let open = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && (x as usize) < w
                && (y as usize) < h
                && self.open[y as usize * w + x as usize]
        };
        while let Some(Reverse(key)) = self.heap.pop() {
            let (d, i) = ((key >> 16) as u32, (key & 0xffff) as usize);
            if d > self.dist[i] {
                continue;
            }
            let (x, y) = ((i % w) as i64, (i / w) as i64);
            let (n, s, e, wst) = (
                open(x, y - 1),
                open(x, y + 1),
                open(x + 1, y),
                open(x - 1, y),
            );
            let moves = [
                (n, 0, -1, C1),
                (s, 0, 1, C1),
                (e, 1, 0, C1),
                (wst, -1, 0, C1),
                (n && e && open(x + 1, y - 1), 1, -1, C2),
                (n && wst && open(x - 1, y - 1), -1, -1, C2),
                (s && e && open(x + 1, y + 1), 1, 1, C2),
                (s && wst && open(x - 1, y + 1), -1, 1, C2),
            ];
            for (ok, dx, dy, c) in moves {
                if ok {
                    let j = (y + dy) as usize * w + (x + dx) as usize;
                    if d + c < self.dist[j] {
                        self.dist[j] = d + c;
                        self.heap.push(Reverse(((d + c) as u64) << 16 | j as u64));
                    }
                }
            }
        }
    }

    fn at(&self, p: Point) -> u32 {
        let r = self.rect.expect("run first");
        self.dist[(p.y - r.y) as usize * r.width as usize + (p.x - r.x) as usize]
    }
}

/// The portal graph in compressed rows.
struct Portals {
    cells: Vec<Point>,
    offsets: Vec<u32>,
    edges: Vec<(u32, u32)>,
    by_sector: Vec<Vec<u32>>,
}

fn build(grid: &Grid, sec: &Sectors) -> Portals {
    let mut id: HashMap<Point, u32> = HashMap::new();
    let mut cells = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let p = Point::new(x, y);
            let k = sec.of(p);
            let crosses = |d: Dir| grid.can_step(p, d) && p.step(d).is_some_and(|q| sec.of(q) != k);
            if grid.is_passable(p) && Dir::ALL.into_iter().any(crosses) {
                id.insert(p, cells.len() as u32);
                cells.push(p);
            }
        }
    }
    let mut by_sector = vec![Vec::new(); sec.count()];
    for (i, &p) in cells.iter().enumerate() {
        by_sector[sec.of(p) as usize].push(i as u32);
    }
    let mut sd = SectorDijkstra::default();
    let mut offsets = vec![0u32];
    let mut edges = Vec::new();
    for &p in &cells {
        let k = sec.of(p);
        for d in Dir::ALL {
            if let Some(q) = p.step(d).filter(|&q| grid.can_step(p, d) && sec.of(q) != k) {
                edges.push((id[&q], if (d as u8) < 4 { C1 } else { C2 }));
            }
        }
        sd.run(grid, sec.rect(k), p);
        for &q in &by_sector[k as usize] {
            let d = sd.at(cells[q as usize]);
            if cells[q as usize] != p && d != u32::MAX {
                edges.push((q, d));
            }
        }
        offsets.push(edges.len() as u32);
    }
    Portals {
        cells,
        offsets,
        edges,
        by_sector,
    }
}

/// Query scratch (generation-stamped).
struct Query {
    g: Vec<u32>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    closed: Vec<u32>,
    to_goal: Vec<u32>,
    to_goal_stamp: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Reverse<u64>>,
    sd: SectorDijkstra,
    jps: WindowedJps,
    hops: Vec<Point>,
    leg: Vec<Point>,
    expanded: u64,
    phases: [Duration; 3],
}

impl Query {
    fn new(n: usize) -> Query {
        Query {
            g: vec![0; n + 2],
            parent: vec![0; n + 2],
            stamp: vec![0; n + 2],
            closed: vec![0; n + 2],
            to_goal: vec![0; n + 2],
            to_goal_stamp: vec![0; n + 2],
            generation: 0,
            heap: BinaryHeap::new(),
            sd: SectorDijkstra::default(),
            jps: WindowedJps::new(),
            hops: Vec::new(),
            leg: Vec::new(),
            expanded: 0,
            phases: [Duration::ZERO; 3],
        }
    }

    fn relax(&mut self, v: u32, g: u32, parent: u32, f: u32) {
        let v = v as usize;
        if self.stamp[v] != self.generation || g < self.g[v] {
            self.g[v] = g;
            self.stamp[v] = self.generation;
            self.parent[v] = parent;
            self.heap.push(Reverse((f as u64) << 32 | v as u64));
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        grid: &Grid,
        sec: &Sectors,
        pg: &Portals,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> bool {
        let t0 = Instant::now();
        let n = pg.cells.len() as u32;
        let (sn, gn) = (n, n + 1);
        self.generation += 1;
        self.heap.clear();
        let (ks, kg) = (sec.of(start), sec.of(goal));
        self.sd.run(grid, sec.rect(kg), goal);
        for &q in &pg.by_sector[kg as usize] {
            let d = self.sd.at(pg.cells[q as usize]);
            if d != u32::MAX {
                self.to_goal[q as usize] = d;
                self.to_goal_stamp[q as usize] = self.generation;
            }
        }
        self.sd.run(grid, sec.rect(ks), start);
        if ks == kg && self.sd.at(goal) != u32::MAX {
            let d = self.sd.at(goal);
            self.relax(gn, d, sn, d);
        }
        for &q in &pg.by_sector[ks as usize] {
            let c = pg.cells[q as usize];
            let d = self.sd.at(c);
            if d != u32::MAX {
                self.relax(q, d, sn, d + oct(c, goal));
            }
        }
        let t1 = Instant::now();
        let mut found = false;
        while let Some(Reverse(key)) = self.heap.pop() {
            let i = key as u32;
            if self.closed[i as usize] == self.generation {
                continue;
            }
            self.closed[i as usize] = self.generation;
            self.expanded += 1;
            if i == gn {
                found = true;
                break;
            }
            let gi = self.g[i as usize];
            let (lo, hi) = (
                pg.offsets[i as usize] as usize,
                pg.offsets[i as usize + 1] as usize,
            );
            for &(j, c) in &pg.edges[lo..hi] {
                self.relax(j, gi + c, i, gi + c + oct(pg.cells[j as usize], goal));
            }
            if self.to_goal_stamp[i as usize] == self.generation {
                let ng = gi + self.to_goal[i as usize];
                self.relax(gn, ng, i, ng);
            }
        }
        let t2 = Instant::now();
        out.clear();
        if found {
            self.hops.clear();
            self.hops.push(goal);
            let mut v = gn;
            while self.parent[v as usize] != sn {
                v = self.parent[v as usize];
                self.hops.push(pg.cells[v as usize]);
            }
            self.hops.push(start);
            self.hops.reverse();
            out.push(start);
            for k in 1..self.hops.len() {
                let (a, b) = (self.hops[k - 1], self.hops[k]);
                if a == b {
                    continue;
                }
                let step = Dir::from_delta(b.x as i32 - a.x as i32, b.y as i32 - a.y as i32);
                if step.is_some_and(|d| grid.can_step(a, d)) {
                    out.push(b);
                    continue;
                }
                let win = sec.rect(sec.of(a));
                if self
                    .jps
                    .find_path_into(grid, win, a, b, &mut self.leg)
                    .is_err()
                    || self.leg.is_empty()
                {
                    return false;
                }
                out.extend_from_slice(&self.leg[1..]);
            }
        }
        let t3 = Instant::now();
        self.phases[0] += t1 - t0;
        self.phases[1] += t2 - t1;
        self.phases[2] += t3 - t2;
        found
    }
}

/// Octile length of a path whose every step is legal, else `None`.
fn checked_length(grid: &Grid, path: &[Point]) -> Option<f64> {
    let mut len = 0.0;
    for w in path.windows(2) {
        let d = Dir::from_delta(w[1].x as i32 - w[0].x as i32, w[1].y as i32 - w[0].y as i32)?;
        if !grid.can_step(w[0], d) {
            return None;
        }
        len += octile(w[0], w[1]);
    }
    Some(len)
}

fn main() {
    for f in std::env::args().skip(1) {
        let (scen, grid) = common::load(&f);
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
        let sec = Sectors {
            side: h.sector_size(),
            across: grid.width().div_ceil(h.sector_size()),
            width: grid.width(),
            height: grid.height(),
        };
        let t = Instant::now();
        let pg = build(&grid, &sec);
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut q = Query::new(pg.cells.len());
        let mut planner = CellPlanner::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let (mut th, mut tp) = (Duration::ZERO, Duration::ZERO);
        let (mut sub_h, mut sub_p, mut rows, mut bad) = (0.0, 0.0, 0u32, 0u32);
        for row in scen
            .rows
            .iter()
            .filter(|r| r.start != r.goal && r.optimal > 0.0)
        {
            let t = Instant::now();
            let ok_h = planner
                .find_path_into(&h, &grid, row.start, row.goal, &mut a)
                .is_ok();
            th += t.elapsed();
            let t = Instant::now();
            let ok_p = q.run(&grid, &sec, &pg, row.start, row.goal, &mut b);
            tp += t.elapsed();
            match (
                ok_h,
                ok_p,
                checked_length(&grid, &a),
                checked_length(&grid, &b),
            ) {
                (true, true, Some(la), Some(lb))
                    if b.first() == Some(&row.start) && b.last() == Some(&row.goal) =>
                {
                    sub_h += la / row.optimal - 1.0;
                    sub_p += lb / row.optimal - 1.0;
                    rows += 1;
                }
                _ => bad += 1,
            }
        }
        let per = |d: Duration| d.as_secs_f64() * 1e6 / (rows + bad).max(1) as f64;
        let cells = grid.width() as f64 * grid.height() as f64;
        println!(
            "{}: sector {}, {} portals, {:.2} edges per cell, build {:.1} ms (hierarchy {:.1} ms) | {} rows ({} failed) | hierarchical {:.1} us, subopt {:.3} % | portal graph {:.1} us (connect {:.1}, A* {:.1}, refine {:.1}), {:.0} expanded, subopt {:.3} %",
            scen.rows[0].map_file_name(),
            sec.side,
            pg.cells.len(),
            pg.edges.len() as f64 / cells,
            build_ms,
            h.stats().build_ms,
            rows,
            bad,
            per(th),
            sub_h / rows.max(1) as f64 * 100.0,
            per(tp),
            per(q.phases[0]),
            per(q.phases[1]),
            per(q.phases[2]),
            q.expanded as f64 / (rows + bad).max(1) as f64,
            sub_p / rows.max(1) as f64 * 100.0,
        );
    }
}
