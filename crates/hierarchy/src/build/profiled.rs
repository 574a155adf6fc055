//! Hierarchies for a movement profile ([`Hierarchy::build_with_profile`]).
//!
//! A profile's usable positions form a grid of their own
//! ([`ProfileGrid::grid`]: a position is passable when the unit's k × k
//! footprint is, and a diagonal step is legal when both orthogonal
//! positions are), so the build, the update and every query run unchanged
//! on that grid: regions, the region graph, connectivity and sealed pieces
//! are right per profile and size. The hierarchy keeps the view and
//! answers queries given the map's own grid by swapping in the view
//! (`Hierarchy::search_grid`).
//!
//! Where the profile's costs differ between the map's kinds (a non-uniform
//! view), four things change:
//! - each region's representative moves to its cheapest cell nearest the
//!   centroid's, so that a road through a region carries its links;
//! - link costs are priced by the terrain ([`reweigh`]): the cheapest way
//!   inside the two sectors from one representative to the other through
//!   any pair of cells where the regions face each other across the
//!   border, and the link crosses at the run holding that pair; landmarks
//!   are computed over those costs;
//! - the leg searches are jump point searches under the profile's step
//!   costs ([`regionpath_search::WindowedJps::find_path_weighted_into`]:
//!   jumps stop where the terrain's cost changes, so the pruning rules of
//!   uniform costs hold wherever they skip); their heuristic is priced at
//!   the cheapest cost class in the window, not in the map; a lazy leg's
//!   corridor search stays windowed A*;
//! - the exact portal layer, straight-line answers and the quality
//!   recheck's search (all priced in uniform steps) are off; a one-window
//!   answer is checked against the region route instead (it is refined
//!   where it leaves the window for less, P84); the second route prices
//!   each straight piece between crossings at its link's cost per cell and
//!   runs only on routes through narrow crossings (doors, gaps: where
//!   routes through representatives zig-zag; P92).

use crate::graph::{region_graph, Link};
use crate::model::Hierarchy;
use crate::profile::{ProfileData, QueryTables};
use crate::sector::Rect;
use crate::{HierarchyConfig, HierarchyError, PortalMode};
use regionpath_grid::{octile, Dir, Grid, Point, Profile, ProfileGrid, SQRT2};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

impl Hierarchy {
    /// Preprocesses `grid` for units moving under `profile` (see the
    /// crate's documentation of movement profiles and [`Profile`]): the
    /// hierarchy of the profile's usable positions, with link costs priced
    /// by the terrain where its costs differ. Queries take `grid` itself
    /// (and refuse it once edited until [`Hierarchy::update`]); paths are
    /// lists of positions (top-left cells of the unit's footprint) and
    /// [`crate::PlanStats::cost`] is their cost under the profile. Where
    /// the profile's costs differ the exact portal layer is not built
    /// ([`PortalMode`] is treated as `Never`). Costs
    /// [`ProfileGrid::new`] (O(cells · size)) plus a build over the
    /// positions, plus, where costs differ, O(cells log sector side) to price
    /// the links and a second landmark pass. Holds the view besides the
    /// hierarchy: a quarter of a byte per cell for the positions where
    /// costs are uniform; where they differ an eighth (no column copy),
    /// plus 1, 2 or 4 bits per cell for the cost classes (none for a unit
    /// of size 1 on a map that keeps kinds per cell: its view reads the
    /// map's own, shared).
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point, Profile};
    /// use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig};
    ///
    /// // A 2-wide tank cannot pass the one-cell gap in the wall.
    /// let grid = Grid::from_rows(&[
    ///     "........",
    ///     "........",
    ///     "@@@.@@@@",
    ///     "........",
    ///     "........",
    /// ])?;
    /// let tank = Profile::builder("tank").size(2).cost('.', 1.0).build()?;
    /// let h = Hierarchy::build_with_profile(&grid, &tank, &HierarchyConfig::new())?;
    /// let mut planner = CellPlanner::new();
    /// let mut cells = Vec::new();
    /// let reached = planner.find_path_into(&h, &grid, Point::new(0, 0), Point::new(0, 3), &mut cells);
    /// assert!(reached.is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_with_profile(
        grid: &Grid,
        profile: &Profile,
        config: &HierarchyConfig,
    ) -> Result<Hierarchy, HierarchyError> {
        let t0 = std::time::Instant::now();
        let view = ProfileGrid::new(grid, profile);
        let weighted = !view.is_uniform();
        let config = if weighted {
            config.portals(PortalMode::Never)
        } else {
            *config
        };
        // The hierarchy reads only the view: the queries' tables and the
        // map's checksum are made beside it.
        let (built, (tables, checksum)) = crate::par::join(
            config.get_parallel(),
            || {
                // Landmarks once, over the terrain's prices (`reweigh`).
                let mut h = Hierarchy::build_landmarks(view.grid(), &config, !weighted)?;
                if weighted {
                    reweigh(&mut h, &view);
                }
                Ok::<_, HierarchyError>(h)
            },
            || (QueryTables::new(&view), grid.terrain_checksum()),
        );
        let mut h = built?;
        h.bind_checked_profile(
            grid,
            ProfileData::from_parts(profile, view, tables),
            checksum,
        );
        h.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(h)
    }

    /// Records `data` as the profile and `grid` as the map served.
    pub(crate) fn bind_profile(&mut self, grid: &Grid, data: ProfileData) {
        self.bind_checked_profile(grid, data, grid.terrain_checksum());
    }

    /// [`Hierarchy::bind_profile`] with `grid`'s terrain checksum given.
    fn bind_checked_profile(&mut self, grid: &Grid, data: ProfileData, checksum: u64) {
        self.grid_revision = grid.revision();
        self.grid_checksum = checksum;
        self.profile = Some(Arc::new(data));
    }
}

/// The cost of a usable position of `view` (1 elsewhere).
fn cost_of(view: &ProfileGrid, p: Point) -> f64 {
    view.position_cost(p).unwrap_or(1.0)
}

/// Distances inside one sector under a view's costs: the sector's cells
/// are loaded once (cost per cell, `NaN` where not usable, in a copy with
/// a border of `NaN` so that a move never needs a bounds test), then
/// [`SectorDijkstra::flood`] finds a region's cells and
/// [`SectorDijkstra::run`] its costs from one cell.
#[derive(Default)]
struct SectorDijkstra {
    rect: Option<Rect>,
    /// The loaded rect's top-left cell.
    origin: Point,
    /// Row length of the bordered copy: the rect's width + 2.
    stride: usize,
    /// Per bordered cell: the position's cost, `NaN` when not usable or
    /// on the border.
    cost: Vec<f64>,
    /// Per bordered cell: the distance from the last `run`'s source
    /// (infinite where not reached), or after `flood`, 0 on the piece.
    dist: Vec<f64>,
    /// Usable cells in the loaded rect.
    usable: u32,
    /// Bordered-index offsets of the eight moves, straight ones first.
    offsets: [isize; 8],
    /// Min-heap of `(fixed-point distance << 17 | bordered index)`, where
    /// the ring of buckets would be too long.
    heap: BinaryHeap<Reverse<u64>>,
    /// Ring of buckets of bordered indices: bucket `k` holds the cells at
    /// distance `[k·δ, (k+1)·δ)`, δ the cheapest cost in the rect.
    buckets: Vec<Vec<u32>>,
    /// Per bordered cell, for the buckets: taken at its current distance.
    done: Vec<bool>,
    /// The cheapest and dearest costs in the loaded rect.
    cheapest: f64,
    dearest: f64,
    stack: Vec<u32>,
}

/// Fixed-point scale of the heap keys (the distances stay `f64`).
const KEY_SCALE: f64 = (1u64 << 24) as f64;

impl SectorDijkstra {
    /// Loads `rect`'s cells of `view` (once per sector).
    fn load(&mut self, view: &ProfileGrid, rect: Rect) {
        if self.rect == Some(rect) {
            return;
        }
        self.rect = Some(rect);
        self.origin = Point::new(rect.x0, rect.y0);
        let (w, h) = (rect.width() as usize, rect.height() as usize);
        self.stride = w + 2;
        self.cost.clear();
        self.cost.resize(self.stride * (h + 2), f64::NAN);
        let (positions, costs) = (view.grid(), view.class_costs());
        for y in rect.y0..rect.y1 {
            let from = positions.padded_index(Point::new(rect.x0, y));
            let to = self.at(Point::new(rect.x0, y));
            for (k, c) in self.cost[to..to + w].iter_mut().enumerate() {
                let i = from + k;
                if positions.passable_padded(i) {
                    *c = costs[view.cost_class_padded(i) as usize];
                }
            }
        }
        let (mut usable, mut cheapest, mut dearest) = (0u32, f64::INFINITY, 0.0f64);
        for &c in self.cost.iter().filter(|c| !c.is_nan()) {
            usable += 1;
            cheapest = cheapest.min(c);
            dearest = dearest.max(c);
        }
        (self.usable, self.cheapest, self.dearest) = (usable, cheapest, dearest);
        let s = self.stride as isize;
        for (k, d) in Dir::ALL.into_iter().enumerate() {
            let (dx, dy) = d.delta();
            self.offsets[k] = dy as isize * s + dx as isize;
        }
    }

    /// The bordered index of `p`, a cell of the loaded rect.
    #[inline]
    fn at(&self, p: Point) -> usize {
        let o = self.origin;
        (p.y - o.y + 1) as usize * self.stride + (p.x - o.x + 1) as usize
    }

    /// The cell at bordered index `i` (inside the rect).
    #[inline]
    fn cell(&self, i: usize) -> Point {
        let o = self.origin;
        Point::new(
            o.x + (i % self.stride) as u32 - 1,
            o.y + (i / self.stride) as u32 - 1,
        )
    }
}

/// The legal moves from bordered index `i` (cell costs `cost`, `NaN` where
/// not usable, move offsets `offsets` in [`Dir::ALL`] order), as
/// `(neighbour, base length)`: the view's rule, a diagonal only when both
/// orthogonal positions are usable (both lie inside the rect when the two
/// ends do).
#[inline]
fn moves(cost: &[f64], offsets: &[isize; 8], i: usize, mut f: impl FnMut(usize, f64)) {
    let at = |k: usize| (i as isize + offsets[k]) as usize;
    let open = |k: usize| !cost[at(k)].is_nan();
    // Dir::ALL: north, east, south, west, then north-east, south-east,
    // south-west, north-west.
    let straight = [open(0), open(1), open(2), open(3)];
    for (k, &o) in straight.iter().enumerate() {
        if o {
            f(at(k), 1.0);
        }
    }
    for (k, (a, b)) in [(0, 1), (2, 1), (2, 3), (0, 3)].into_iter().enumerate() {
        if straight[a] && straight[b] && open(4 + k) {
            f(at(4 + k), SQRT2);
        }
    }
}

impl SectorDijkstra {
    /// Marks the piece of the loaded rect holding `from` (`dist` 0 there,
    /// infinite elsewhere). O(cells of the rect).
    fn flood(&mut self, from: Point) {
        self.dist.clear();
        self.dist.resize(self.cost.len(), f64::INFINITY);
        let s = self.at(from);
        self.dist[s] = 0.0;
        self.stack.clear();
        self.stack.push(s as u32);
        let mut stack = std::mem::take(&mut self.stack);
        while let Some(i) = stack.pop() {
            let dist = &mut self.dist;
            moves(&self.cost, &self.offsets, i as usize, |j, _| {
                if dist[j].is_infinite() {
                    dist[j] = 0.0;
                    stack.push(j as u32);
                }
            });
        }
        self.stack = stack;
    }

    /// The cheapest cost from `from` to every cell of its piece of the
    /// loaded rect, moving only inside it, into `dist`. Dial's buckets of
    /// width δ, the cheapest cost in the rect: every step costs at least
    /// δ, so a bucket's cells are final when it is reached (a cell lowered
    /// after that, by rounding only, is taken again: exact either way). A
    /// binary heap where the dearest step spans over 1,024 buckets.
    fn run(&mut self, from: Point) {
        self.dist.clear();
        self.dist.resize(self.cost.len(), f64::INFINITY);
        let s = self.at(from);
        self.dist[s] = 0.0;
        let delta = self.cheapest;
        let span = (SQRT2 * self.dearest / delta).ceil() + 2.0;
        if span.is_nan() || span > 1024.0 {
            return self.run_heap(s);
        }
        let ring = span as usize;
        if self.buckets.len() < ring {
            self.buckets.resize_with(ring, Vec::new);
        }
        let mut buckets = std::mem::take(&mut self.buckets);
        // Whether a cell was taken at its current distance (a cell lowered
        // later is taken again; older entries of a taken cell are skipped).
        self.done.clear();
        self.done.resize(self.cost.len(), false);
        buckets[0].push(s as u32);
        let mut pending = 1usize;
        let mut k = 0usize;
        while pending > 0 {
            while let Some(i) = buckets[k % ring].pop() {
                pending -= 1;
                let i = i as usize;
                if self.done[i] {
                    continue;
                }
                self.done[i] = true;
                let (d, ci) = (self.dist[i], self.cost[i]);
                let (dist, cost, done) = (&mut self.dist, &self.cost, &mut self.done);
                moves(cost, &self.offsets, i, |j, base| {
                    let nd = d + base * (ci + cost[j]) / 2.0;
                    if nd < dist[j] {
                        dist[j] = nd;
                        done[j] = false;
                        let b = ((nd / delta) as usize).max(k);
                        buckets[b % ring].push(j as u32);
                        pending += 1;
                    }
                });
            }
            k += 1;
        }
        self.buckets = buckets;
    }

    /// [`SectorDijkstra::run`] on a binary heap (label-correcting on
    /// rounded keys, so exact), from bordered index `s`.
    fn run_heap(&mut self, s: usize) {
        self.heap.clear();
        self.heap.push(Reverse(s as u64));
        let mut heap = std::mem::take(&mut self.heap);
        while let Some(Reverse(key)) = heap.pop() {
            let i = (key & 0x1FFFF) as usize;
            let d = self.dist[i];
            if (key >> 17) > (d * KEY_SCALE) as u64 {
                continue;
            }
            let ci = self.cost[i];
            let (dist, cost) = (&mut self.dist, &self.cost);
            moves(cost, &self.offsets, i, |j, base| {
                let nd = d + base * (ci + cost[j]) / 2.0;
                if nd < dist[j] {
                    dist[j] = nd;
                    heap.push(Reverse(((nd * KEY_SCALE) as u64) << 17 | j as u64));
                }
            });
        }
        self.heap = heap;
    }
}

/// Moves each region's representative to its cheapest cell (nearest the
/// old one), prices every link of `h` by `view`'s terrain and computes the
/// landmarks again over the new costs. A link from region `a` to region `b`
/// costs, over the cell pairs where the two regions face each other across
/// their sectors' border ([`best_crossing`]), the least of: the cheapest
/// way inside `a`'s sector from `a`'s representative to the pair's cell on
/// `a`'s side, the crossing step (its length times the mean of its two
/// positions' costs) and the cheapest way inside `b`'s sector on to `b`'s
/// representative; its crossing run becomes the run of facing pairs that
/// holds the cheapest pair. Why: a route priced through the middle of each
/// run, or through representatives off the road, missed roads that cross
/// a border away from the middle (Berlin_0_1024 painted, infantry: mean
/// suboptimality 4.4 % → 1.0 %, p95 13.9 % → 2.3 %), and one priced
/// through the run the plain build keeps missed roads that cross through
/// another gap of a border split by obstacles (random512-10-0 painted,
/// infantry: 3.1 % → 1.5 %, p95 14.2 % → 5.5 %; see
/// `benches/PROFILES.md`). One flood and one Dijkstra per region over its
/// sector (O(cells log cells) in all, in parallel where the build is; a
/// region that is its whole sector, every cell usable at one cost, takes
/// the octile distances instead), then O(border cells) per link, then the
/// landmarks.
pub(crate) fn reweigh(h: &mut Hierarchy, view: &ProfileGrid) {
    let parallel = h.config.parallel;
    let n = h.regions.len() as u32;
    // Per region: its representative (its cheapest cell nearest the old
    // one) and the cost from there to each cell of its sector's outline
    // (indexed by `outline_slot`; infinite off the region).
    let picked: Vec<(Point, Vec<f64>)> =
        crate::par::map_range(parallel, n, SectorDijkstra::default, |scratch, a| {
            let region = &h.regions[a as usize];
            let old = region.representative();
            let rect = h.layout.rect(h.layout.sector_of(old));
            if region.cells() == 0 {
                return (old, Vec::new());
            }
            // The region's cells (its piece of the sector), then its
            // cheapest cell nearest the old representative.
            scratch.load(view, rect);
            let (w, ht) = (rect.width(), rect.height());
            if region.cells() == w * ht && scratch.cheapest == scratch.dearest {
                // Every cell of the sector is usable, at one cost: the
                // representative stays, and the way to any cell is the
                // straight octile one (no Dijkstra: 34 % of Berlin_0_1024's
                // sectors under infantry; `benches/PROFILES.md` P85).
                let c = scratch.cheapest;
                let mut out = vec![f64::INFINITY; 2 * (w + ht) as usize];
                for_outline(rect, |p| out[outline_slot(rect, p)] = c * octile(old, p));
                return (old, out);
            }
            if region.cells() == scratch.usable {
                // The region is every usable cell of the sector.
                let dist = &mut scratch.dist;
                dist.clear();
                dist.extend(
                    scratch
                        .cost
                        .iter()
                        .map(|c| if c.is_nan() { f64::INFINITY } else { 0.0 }),
                );
            } else {
                scratch.flood(old);
            }
            let mut best = (f64::INFINITY, u64::MAX, old);
            for (i, (&d, &c)) in scratch.dist.iter().zip(&scratch.cost).enumerate() {
                if d == 0.0 && c <= best.0 {
                    let p = scratch.cell(i);
                    let (dx, dy) = (p.x.abs_diff(old.x) as u64, p.y.abs_diff(old.y) as u64);
                    if c < best.0 || dx * dx + dy * dy < best.1 {
                        best = (c, dx * dx + dy * dy, p);
                    }
                }
            }
            let rep = best.2;
            scratch.run(rep);
            let mut out = vec![f64::INFINITY; 2 * (w + ht) as usize];
            for_outline(rect, |p| {
                out[outline_slot(rect, p)] = scratch.dist[scratch.at(p)]
            });
            (rep, out)
        });
    for (a, (rep, _)) in picked.iter().enumerate() {
        h.regions[a].set_representative(*rep);
    }
    let mut edges = Vec::with_capacity(h.graph.edge_count());
    for a in 0..n {
        for (&b, l) in h
            .graph
            .neighbors_slice(a)
            .iter()
            .zip(h.graph.edges_slice(a))
        {
            if b < a {
                continue;
            }
            let rect_a = h.layout.rect(h.layout.sector_of(l.from()));
            let rect_b = h.layout.rect(h.layout.sector_of(l.to()));
            let (da, db) = (&picked[a as usize].1, &picked[b as usize].1);
            let link = match best_crossing(view, l, (rect_a, da), (rect_b, db)) {
                Some((w, run)) => Link::new(w as f32, run.start, run.start_b, run.len),
                None => {
                    // Unreachable for a consistent graph: price the middle.
                    let (ra, rb) = l.crossing();
                    let (ma, mb) = (ra.mid(), rb.mid());
                    let rep_a = h.regions[a as usize].representative();
                    let rep_b = h.regions[b as usize].representative();
                    let w = octile(rep_a, ma) * cost_of(view, ma)
                        + octile(ma, mb) * (cost_of(view, ma) + cost_of(view, mb)) / 2.0
                        + octile(mb, rep_b) * cost_of(view, mb);
                    Link::new(w as f32, l.from(), l.to(), l.len())
                }
            };
            edges.push((a, b, link.with_more_crossings(!l.is_only_crossing())));
        }
    }
    h.graph = region_graph(h.regions.len(), &edges);
    let cells = u64::from(h.layout.width) * u64::from(h.layout.height);
    let count = h.fitted_landmarks(&h.config, cells);
    let regions = &h.regions;
    h.landmarks = crate::derived::Landmarks::build(
        &h.graph,
        count,
        |r| regions[r as usize].representative(),
        h.config.parallel,
    );
}

/// Calls `put` on each cell of `rect`'s outline (a corner cell twice).
fn for_outline(rect: Rect, mut put: impl FnMut(Point)) {
    for x in rect.x0..rect.x1 {
        put(Point::new(x, rect.y0));
        put(Point::new(x, rect.y1 - 1));
    }
    for y in rect.y0..rect.y1 {
        put(Point::new(rect.x0, y));
        put(Point::new(rect.x1 - 1, y));
    }
}

/// Index of the outline cell `p` of `rect` in a region's outline
/// distances ([`reweigh`]): the top row, the bottom row, then the left
/// and right columns (a corner cell takes its row's slot).
fn outline_slot(rect: Rect, p: Point) -> usize {
    let (w, h) = (rect.width() as usize, rect.height() as usize);
    let (x, y) = ((p.x - rect.x0) as usize, (p.y - rect.y0) as usize);
    if y == 0 {
        x
    } else if y == h - 1 {
        w + x
    } else if x == 0 {
        2 * w + y
    } else {
        2 * w + h + y
    }
}

/// A crossing run chosen by [`best_crossing`]: `len` cell pairs from
/// `start` (on the link's side) facing `start_b`.
struct Chosen {
    start: Point,
    start_b: Point,
    len: u32,
}

/// The cheapest way from one representative to the other through a cell
/// pair where the two regions face each other across their sectors'
/// border, and the run of facing pairs that holds that pair. Every pair
/// of the border counts, not only the link's run: where obstacles split
/// the border into several runs, the link kept the run cheapest in plain
/// steps, which may not be the one a road crosses. `a` and `b` are the
/// sectors and the outline distances of the link's two regions (infinite
/// off the region). A link at a sector corner is its one diagonal pair.
/// `None` when no pair has both distances finite.
fn best_crossing(
    view: &ProfileGrid,
    l: &Link,
    a: (Rect, &[f64]),
    b: (Rect, &[f64]),
) -> Option<(f64, Chosen)> {
    let (from, to) = (l.from(), l.to());
    let pair = |ca: Point, cb: Point| -> f64 {
        let step = if ca.x != cb.x && ca.y != cb.y {
            SQRT2
        } else {
            1.0
        };
        a.1[outline_slot(a.0, ca)]
            + step * (cost_of(view, ca) + cost_of(view, cb)) / 2.0
            + b.1[outline_slot(b.0, cb)]
    };
    if from.x != to.x && from.y != to.y {
        let w = pair(from, to);
        return w.is_finite().then_some((
            w,
            Chosen {
                start: from,
                start_b: to,
                len: 1,
            },
        ));
    }
    // The border's facing pairs in order, `(cell on a's side, on b's)`.
    let vertical = from.y == to.y;
    let (lo, hi) = if vertical {
        (a.0.y0.max(b.0.y0), a.0.y1.min(b.0.y1))
    } else {
        (a.0.x0.max(b.0.x0), a.0.x1.min(b.0.x1))
    };
    let at = |t: u32| {
        if vertical {
            (Point::new(from.x, t), Point::new(to.x, t))
        } else {
            (Point::new(t, from.y), Point::new(t, to.y))
        }
    };
    let mut best: Option<(f64, u32)> = None;
    for t in lo..hi {
        let (ca, cb) = at(t);
        let w = pair(ca, cb);
        if w.is_finite() && best.is_none_or(|(bw, _)| w < bw) {
            best = Some((w, t));
        }
    }
    let (w, t) = best?;
    // The run of pairs, both in their regions, around the cheapest one.
    let inside = |t: u32| {
        let (ca, cb) = at(t);
        a.1[outline_slot(a.0, ca)].is_finite() && b.1[outline_slot(b.0, cb)].is_finite()
    };
    let (mut first, mut last) = (t, t);
    while first > lo && inside(first - 1) {
        first -= 1;
    }
    while last + 1 < hi && inside(last + 1) {
        last += 1;
    }
    let (start, start_b) = at(first);
    Some((
        w,
        Chosen {
            start,
            start_b,
            len: last - first + 1,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The premise of the octile shortcut in [`reweigh`]: in a sector whose
    /// every cell is usable at one cost, the Dijkstra inside the sector
    /// reaches each outline cell at that cost times the octile distance,
    /// from any cell (checked against the Dijkstra itself, for costs that
    /// are and are not powers of two, and sectors cut by the map's edge).
    #[test]
    fn open_sectors_of_one_cost_are_octile() {
        for (w, h, cost) in [(16, 16, 1.0), (16, 16, 0.7), (11, 16, 3.0), (16, 5, 1.5)] {
            let rows: Vec<String> = (0..h).map(|_| ".".repeat(w)).collect();
            let grid = Grid::from_rows(&rows).unwrap();
            let profile = Profile::builder("walker").cost('.', cost).build().unwrap();
            let view = ProfileGrid::new(&grid, &profile);
            let rect = Rect {
                x0: 0,
                y0: 0,
                x1: w as u32,
                y1: h as u32,
            };
            let mut scratch = SectorDijkstra::default();
            scratch.load(&view, rect);
            assert_eq!(scratch.usable, (w * h) as u32);
            let mut compared = 0;
            for from in [
                Point::new(0, 0),
                Point::new(3, 2),
                Point::new(w as u32 - 1, h as u32 / 2),
            ] {
                scratch.run(from);
                for_outline(rect, |p| {
                    let got = scratch.dist[scratch.at(p)];
                    let want = cost * octile(from, p);
                    assert!(
                        (got - want).abs() <= 1e-9 * want.max(1.0),
                        "{from:?} -> {p:?}: {got} vs {want}"
                    );
                    compared += 1;
                });
            }
            assert_eq!(compared, 3 * 2 * (w + h));
        }
    }
}
