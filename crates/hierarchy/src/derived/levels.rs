//! Abstraction levels above the regions, for large maps (HPA*'s
//! multi-level abstraction over our regions).
//!
//! Level 1 groups regions: its nodes are the connected pieces of the region
//! graph inside one square of `4 × 4` sectors. Level `k + 1` groups the
//! nodes of level `k` the same way inside squares four times as wide, until
//! a level has at most [`TOP_NODES`] nodes or one square covers the map.
//! A node is therefore connected through its own regions only, and two nodes
//! are neighbours when a region of one has a link to a region of the other:
//! a route of level `k + 1` always holds a route of level `k` (and, at the
//! bottom, of regions) that stays inside its nodes.
//!
//! Each node has a position (the representative of the region nearest the
//! cell-weighted mean of its regions' representatives), and each edge a
//! crossing: the run of one region link between the two nodes, the one
//! nearest the line between their positions. A level route is priced like
//! the region search's crossing costs: the straight lines from the start
//! through the crossings to the goal. Prices through node centres would
//! cost a room crossed at a corner as much as one crossed end to end (up to
//! a node's width per node), and routes chosen by them were 4–6 % longer on
//! 16k² maps. Queries plan the top level first and refine one level at a
//! time inside the route of the level above (see `query/levels.rs`).
//!
//! Built only on maps of at least [`MIN_REGIONS`] regions: below that one
//! region search is cheap already, and Moving AI maps keep their routes.
//! Derived from the region graph alone (build, load and `refresh`); a local
//! update leaves the levels as they were and queries do not use them until
//! `refresh` (regions an update adds have no level).

use super::connectivity::UnionFind;
use crate::graph::{Region, RegionGraph, Run};
use crate::sector::Layout;
use regionpath_grid::Point;

/// Maps with fewer regions get no levels (queries use them only from
/// [`crate::PlannerConfig::get_levels_from`] regions, 262,144 by default).
pub(crate) const MIN_REGIONS: usize = 32_768;
/// Side of a level-1 square, in sectors.
const FIRST_SIDE: u32 = 4;
/// How much wider each level's squares are than the level below's.
const SIDE_FACTOR: u32 = 4;
/// Levels are added until the top one has at most this many nodes.
pub(crate) const TOP_NODES: usize = 1024;

/// One abstraction level (see the module documentation).
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Level {
    /// Side of the level's squares, in sectors.
    pub side: u32,
    /// Per node of the level below (per region for level 1): its node here.
    pub parent: Vec<u32>,
    /// Per node: the position of its representative region.
    pub centre: Vec<Point>,
    /// Neighbours of node `n`: `adj[adj_start[n]..adj_start[n + 1]]`,
    /// sorted, no repeats.
    pub adj_start: Vec<u32>,
    pub adj: Vec<u32>,
    /// The crossing of each edge of `adj`, oriented from the node whose
    /// row holds it (see the module documentation).
    pub run: Vec<Run>,
}

impl Level {
    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.centre.len()
    }

    /// The neighbours of node `n` (empty for an unknown node).
    #[inline]
    pub fn neighbours(&self, n: u32) -> &[u32] {
        let n = n as usize;
        match (self.adj_start.get(n), self.adj_start.get(n + 1)) {
            (Some(&a), Some(&b)) => self.adj.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The crossings of the edges of [`Level::neighbours`]`(n)`, in order.
    #[inline]
    pub fn runs(&self, n: u32) -> &[Run] {
        let n = n as usize;
        match (self.adj_start.get(n), self.adj_start.get(n + 1)) {
            (Some(&a), Some(&b)) => self.run.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    fn bytes(&self) -> usize {
        (self.parent.len() + self.adj_start.len() + self.adj.len()) * 4
            + self.centre.len() * 8
            + self.run.len() * std::mem::size_of::<Run>()
    }
}

/// The levels above the regions, bottom first (empty on small maps).
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Levels {
    pub levels: Vec<Level>,
}

/// What one level is built from: the nodes of the level below.
struct Children {
    /// A sector of each node (all of a node's regions lie in one square of
    /// the level it belongs to, so any of its sectors names the square).
    sector: Vec<(u32, u32)>,
    /// Per node: sums of cells × representative x and y, and of cells.
    sums: Vec<(u64, u64, u64)>,
    /// Per node: its representative position.
    pos: Vec<Point>,
    adj_start: Vec<u32>,
    adj: Vec<u32>,
    run: Vec<Run>,
}

impl Children {
    fn neighbours(&self, n: usize) -> &[u32] {
        &self.adj[self.adj_start[n] as usize..self.adj_start[n + 1] as usize]
    }
    fn runs(&self, n: usize) -> &[Run] {
        &self.run[self.adj_start[n] as usize..self.adj_start[n + 1] as usize]
    }
}

/// The middle cell of a run.
fn middle(r: &Run) -> Point {
    let k = r.len / 2;
    if r.vertical {
        Point::new(r.start.x, r.start.y + k)
    } else {
        Point::new(r.start.x + k, r.start.y)
    }
}

/// Straight-line distance.
fn euclid(a: Point, b: Point) -> f64 {
    let (dx, dy) = (a.x as f64 - b.x as f64, a.y as f64 - b.y as f64);
    (dx * dx + dy * dy).sqrt()
}

impl Levels {
    /// The levels of a region graph (see the module documentation); none
    /// below [`MIN_REGIONS`] regions. O(regions + edges) per level, the
    /// levels shrinking geometrically.
    pub fn build(layout: &Layout, regions: &[Region], graph: &RegionGraph) -> Levels {
        if regions.len() < MIN_REGIONS {
            return Levels::default();
        }
        let n = regions.len();
        let mut adj_start = Vec::with_capacity(n + 1);
        let mut adj = Vec::with_capacity(n * 3);
        for r in 0..n as u32 {
            adj_start.push(adj.len() as u32);
            adj.extend_from_slice(graph.neighbors_slice(r));
        }
        adj_start.push(adj.len() as u32);
        let mut run = Vec::with_capacity(n * 3);
        for r in 0..n as u32 {
            run.extend(graph.edges_slice(r).iter().map(|l| l.crossing().1));
        }
        let mut children = Children {
            pos: regions.iter().map(|r| r.representative()).collect(),
            run,
            sector: regions.iter().map(|r| layout.coords(r.sector())).collect(),
            sums: regions
                .iter()
                .map(|r| {
                    let (w, p) = (r.cells() as u64, r.representative());
                    (w * p.x as u64, w * p.y as u64, w)
                })
                .collect(),
            adj_start,
            adj,
        };
        let mut levels = Vec::new();
        let mut side = FIRST_SIDE;
        loop {
            let n = children.sector.len();
            let across = layout.sectors_x.div_ceil(side);
            let square = |i: usize| {
                let (sx, sy) = children.sector[i];
                (sy / side) * across + sx / side
            };
            let mut uf = UnionFind::new(n);
            for a in 0..n {
                for &b in children.neighbours(a) {
                    if (a as u32) < b && square(a) == square(b as usize) {
                        uf.union(a as u32, b);
                    }
                }
            }
            // Dense ids in the order of first children.
            let (parent, k) = uf.dense();
            let mut sector = vec![(0, 0); k];
            let mut sums = vec![(0u64, 0u64, 0u64); k];
            for (i, &p) in parent.iter().enumerate() {
                let p = p as usize;
                sector[p] = children.sector[i];
                let (x, y, w) = children.sums[i];
                let s = &mut sums[p];
                *s = (s.0 + x, s.1 + y, s.2 + w);
            }
            let mass: Vec<Point> = sums
                .iter()
                .map(|&(x, y, w)| {
                    let w = w.max(1);
                    Point::new(((x + w / 2) / w) as u32, ((y + w / 2) / w) as u32)
                })
                .collect();
            // The representative child: nearest the centre of mass.
            let mut rep = vec![u32::MAX; k];
            let mut best = vec![u64::MAX; k];
            for (i, &p) in parent.iter().enumerate() {
                let p = p as usize;
                let d = regionpath_grid::octile(children.pos[i], mass[p]);
                let d = (d * 1024.0) as u64;
                if d < best[p] {
                    best[p] = d;
                    rep[p] = i as u32;
                }
            }
            let centre: Vec<Point> = rep.iter().map(|&c| children.pos[c as usize]).collect();
            // Edges: per pair of nodes, the crossing nearest the line
            // between their positions (ties: the first in child order).
            let mut pairs: Vec<(u32, u32, u64, u32)> = Vec::new();
            for i in 0..n {
                let p = parent[i];
                for (j, &b) in children.neighbours(i).iter().enumerate() {
                    let q = parent[b as usize];
                    if q != p {
                        let m = middle(&children.runs(i)[j]);
                        let d = euclid(centre[p as usize], m) + euclid(m, centre[q as usize]);
                        let at = children.adj_start[i] + j as u32;
                        pairs.push((p, q, (d * 256.0) as u64, at));
                    }
                }
            }
            pairs.sort_unstable();
            // One crossing per pair: keeping up to 4 or 16 (the others
            // in order of that distance) made routes longer (3.1 %, 3.6 %
            // against 2.9 % on 16,376² rooms): crossings priced by straight
            // lines ignore walls inside the nodes, and more of them let the
            // search believe in more straight lines.
            pairs.dedup_by_key(|e| (e.0, e.1));
            let mut adj_start = Vec::with_capacity(k + 1);
            let mut j = 0;
            for c in 0..k as u32 {
                adj_start.push(j as u32);
                while j < pairs.len() && pairs[j].0 == c {
                    j += 1;
                }
            }
            adj_start.push(j as u32);
            let adj: Vec<u32> = pairs.iter().map(|e| e.1).collect();
            let run: Vec<Run> = pairs.iter().map(|e| children.run[e.3 as usize]).collect();
            levels.push(Level {
                side,
                parent,
                centre: centre.clone(),
                adj_start: adj_start.clone(),
                adj: adj.clone(),
                run: run.clone(),
            });
            let covers = side >= layout.sectors_x && side >= layout.sectors_y;
            if k <= TOP_NODES || covers {
                break;
            }
            children = Children {
                sector,
                sums,
                pos: centre,
                adj_start,
                adj,
                run,
            };
            side = side.saturating_mul(SIDE_FACTOR);
        }
        Levels { levels }
    }

    /// Checks levels read from a file (format 8) over `regions` regions of
    /// `layout`: each level's squares four times as wide as the one below
    /// (the first [`FIRST_SIDE`] sectors), a parent in range for every node
    /// below, positions and crossing runs on the map, neighbour rows sorted
    /// and in range with one run per edge. O(regions). Levels only steer
    /// the region search (it falls back to every region), so what this
    /// does not check (which nodes are really joined) cannot make a path
    /// invalid.
    pub fn check(&self, regions: usize, layout: &Layout) -> Result<(), &'static str> {
        let (w, h) = (layout.width, layout.height);
        let mut below = regions;
        let mut side = FIRST_SIDE;
        for level in &self.levels {
            let k = level.centre.len();
            if level.side != side || level.parent.len() != below {
                return Err("a level's side or parent table");
            }
            if level.parent.iter().any(|&p| p as usize >= k) {
                return Err("a level's parent out of range");
            }
            if level.centre.iter().any(|p| p.x >= w || p.y >= h) {
                return Err("a level's position off the map");
            }
            super::connectivity::check_rows(&level.adj_start, &level.adj, k, k)?;
            if level.run.len() != level.adj.len() {
                return Err("a level's runs are not one per edge");
            }
            let on_map = |r: &Run| {
                let (x, y) = (u64::from(r.start.x), u64::from(r.start.y));
                let end = u64::from(r.len);
                r.len >= 1
                    && if r.vertical {
                        x < u64::from(w) && y + end <= u64::from(h)
                    } else {
                        y < u64::from(h) && x + end <= u64::from(w)
                    }
            };
            if !level.run.iter().all(on_map) {
                return Err("a level's crossing off the map");
            }
            below = k;
            side = side.saturating_mul(SIDE_FACTOR);
        }
        Ok(())
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(Level::bytes).sum()
    }

    /// The node of region `r` at level `k` (0 = level 1), `None` for a
    /// region the levels do not know (added by a local update).
    #[cfg(test)]
    pub fn node_of(&self, r: u32, k: usize) -> Option<u32> {
        let mut n = r;
        for level in &self.levels[..=k] {
            n = *level.parent.get(n as usize)?;
        }
        Some(n)
    }
}
