//! Offline build: sectors → regions → region graph → connectivity.

use crate::blocks::Blocks;
use crate::connectivity::Connectivity;
use crate::landmarks::{Landmarks, LANDMARKS};
use crate::portals::Portals;
use crate::sector::{count_runs, Labeler, Layout, Rect};
use crate::HierarchyError;
use petgraph::csr::Csr;
use petgraph::Undirected;
use rayon::prelude::*;
use regionpath_grid::{octile, Dir, Grid, Point, SQRT2};
use std::time::Instant;

/// Build settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HierarchyConfig {
    /// Side of the square sectors in cells (4..=256). The default, 16, was
    /// chosen by measurement: see `ARCHITECTURE.md`.
    pub sector_size: u32,
    /// Build in parallel with rayon where that pays: sectors are labelled
    /// in parallel on maps with at least 32,768 horizontal runs of passable
    /// cells (region-dense maps: one-cell mazes, random obstacles), the
    /// portal layer on maps of at least 32,768 cells (about 181×181). Below
    /// those, waking the pool cost more than it saved (measured on 2 cores:
    /// see `ARCHITECTURE.md`).
    pub parallel: bool,
    /// Keep the hierarchy within 1 byte per cell: when a build at
    /// `sector_size` is larger (region-dense maps: mazes with one-cell
    /// corridors, dense random obstacles), rebuild with sectors 1.5×, 2×,
    /// 3× or 4× as large (at most 256), starting at the first size that
    /// bytes falling as 1 / side predict to fit (true of one-cell mazes
    /// and random obstacles; open maps fall faster), and keep the first
    /// that fits (else the smallest). A sample of the sectors is labelled
    /// first: when it estimates `sector_size` at over 1.75 times the budget,
    /// the rest is not labelled at that size. Then, if still too large, halve the
    /// landmarks of the abstract search's heuristic (8 by default) until
    /// it fits. Larger sectors mean fewer regions but coarser routes; fewer
    /// landmarks a slower abstract search.
    pub fit_memory: bool,
    /// Whether to build the exact portal layer (see [`PortalMode`]).
    pub portals: PortalMode,
}

impl Default for HierarchyConfig {
    fn default() -> Self {
        HierarchyConfig {
            sector_size: 16,
            parallel: true,
            fit_memory: true,
            portals: PortalMode::Auto,
        }
    }
}

/// When [`Hierarchy::build`] adds the exact portal layer: for every
/// passable cell on a 16 × 16 sector border with a move out of its sector
/// (a *portal*), the first step of a shortest path to it from each cell of
/// its sector (4 bits a cell) and its exact distances to the sector's other
/// portals. [`crate::Planner::find_path_into`] then answers with an A* over
/// the portals and walks the stored steps: an optimal path, without window
/// searches. It pays where sectors meet through narrow openings (rooms
/// joined by one-cell doors, one-cell mazes); on open ground nearly every
/// border cell is a portal and the region planner is far faster. The
/// layer is not held to [`HierarchyConfig::fit_memory`]'s byte per cell:
/// on 8room_000 it adds about 6 bytes per cell (counted in
/// [`BuildStats::bytes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PortalMode {
    /// Build it when the in-sector portal pairs number at most a quarter
    /// of the passable cells (the default).
    #[default]
    Auto,
    /// Always build it (for measurements; slow on open maps).
    Always,
    /// Never build it.
    Never,
}

/// One region: a connected piece of one sector's passable cells.
///
/// Stored in 20 bytes (cell coordinates as `u16`: grids are at most 65,535
/// cells a side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    sector: u32,
    cells: u32,
    rep: [u16; 2],
    min: [u16; 2],
    max: [u16; 2],
}

#[inline]
fn pack(p: Point) -> [u16; 2] {
    [p.x as u16, p.y as u16]
}

#[inline]
fn unpack(p: [u16; 2]) -> Point {
    Point::new(p[0] as u32, p[1] as u32)
}

impl Region {
    pub(crate) fn new(
        sector: u32,
        representative: Point,
        cells: u32,
        min: Point,
        max: Point,
    ) -> Self {
        Region {
            sector,
            cells,
            rep: pack(representative),
            min: pack(min),
            max: pack(max),
        }
    }

    /// The sector it lies in.
    #[inline]
    pub fn sector(&self) -> u32 {
        self.sector
    }

    /// A cell of the region: the one nearest the region's centroid.
    #[inline]
    pub fn representative(&self) -> Point {
        unpack(self.rep)
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> u32 {
        self.cells
    }

    /// Bounding box, top-left cell.
    #[inline]
    pub fn min(&self) -> Point {
        unpack(self.min)
    }

    /// Bounding box, bottom-right cell (inclusive).
    #[inline]
    pub fn max(&self) -> Point {
        unpack(self.max)
    }
}

/// Link costs are stored in units of `1 / LINK_COST_SCALE` cell (a `u16`:
/// up to 1,023 cells, far above any link between two sectors of at most
/// 256 cells).
const LINK_COST_SCALE: f32 = 64.0;

/// A region-graph edge as seen from one end: its estimated travel cost and
/// where it crosses from this region into the other, a run of `len` cell
/// pairs along the shared sector border starting with `from` (on this side)
/// next to `to` (one step away, on the other side). A crossing at a sector
/// corner is a single diagonal pair. Stored in 8 bytes (the cost in 1/64
/// cell units: 12 bytes with an `f32` kept maze512-1 from fitting any
/// landmark under one byte per cell); each undirected edge is kept once per
/// direction, each copy oriented.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Cost in units of 1 / `LINK_COST_SCALE` cell.
    cost: u16,
    from: [u16; 2],
    /// Index in `Dir::ALL` of the step from `from` to `to` (bits 0–2);
    /// bit 3 ([`MORE_CROSSINGS`]): the two regions also touch elsewhere.
    step: u8,
    /// Run length minus one.
    len_m1: u8,
}

/// [`Link`] `step` bit: the regions touch along more than one run, and
/// the link keeps the cheapest.
const MORE_CROSSINGS: u8 = 8;

impl Link {
    pub(crate) fn new(cost: f32, from: Point, to: Point, len: u32) -> Link {
        let step = Dir::from_delta(to.x as i32 - from.x as i32, to.y as i32 - from.y as i32)
            .map(|d| d as u8)
            .unwrap_or(0);
        Link {
            cost: (cost.max(0.0) * LINK_COST_SCALE)
                .round()
                .min(u16::MAX as f32) as u16,
            from: pack(from),
            step,
            len_m1: (len.clamp(1, 256) - 1) as u8,
        }
    }

    /// Estimated cost from this region's representative, through the middle
    /// of the run, to the other's (octile legs; see `ARCHITECTURE.md`).
    /// Stored to 1/64 of a cell.
    #[inline]
    pub fn cost(&self) -> f32 {
        self.cost as f32 * (1.0 / LINK_COST_SCALE)
    }

    /// First crossing cell on this side.
    #[inline]
    pub fn from(&self) -> Point {
        unpack(self.from)
    }

    /// First crossing cell on the other side.
    #[inline]
    pub fn to(&self) -> Point {
        let (dx, dy) = Dir::ALL[self.step as usize & 7].delta();
        let f = self.from();
        Point::new(
            (f.x as i64 + dx as i64) as u32,
            (f.y as i64 + dy as i64) as u32,
        )
    }

    /// Number of cell pairs in the run.
    #[inline]
    pub fn len(&self) -> u32 {
        self.len_m1 as u32 + 1
    }

    /// Always false: a crossing has at least one cell pair.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether this run is the only place where the two regions touch.
    /// When they touch along several separate runs (a region pair has one
    /// edge), the link keeps the cheapest and this is false.
    #[inline]
    pub fn is_only_crossing(&self) -> bool {
        self.step & MORE_CROSSINGS == 0
    }

    /// The same link, marked as one of several crossings between its
    /// regions.
    pub(crate) fn with_more_crossings(mut self, more: bool) -> Link {
        if more {
            self.step |= MORE_CROSSINGS;
        }
        self
    }

    /// The same edge seen from the other end.
    pub fn reversed(&self) -> Link {
        Link::new(self.cost(), self.to(), self.from(), self.len())
            .with_more_crossings(!self.is_only_crossing())
    }

    /// The crossing runs as `(exit on this side, entry on the other)`.
    #[inline]
    pub fn crossing(&self) -> (Run, Run) {
        let (from, to) = (self.from(), self.to());
        // A horizontal step between the sides means the border is vertical.
        let vertical = from.y == to.y;
        (
            Run {
                start: from,
                len: self.len(),
                vertical,
            },
            Run {
                start: to,
                len: self.len(),
                vertical,
            },
        )
    }
}

/// The region graph: a petgraph compressed-sparse-row graph; node `i` is
/// region `i`, and every undirected edge is stored once from each end with
/// its [`Link`] oriented away from that end.
pub type RegionGraph = Csr<(), Link, Undirected, u32>;

/// A straight run of cells on one side of a region border.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// First cell.
    pub start: Point,
    /// Number of cells.
    pub len: u32,
    /// Whether the run goes down (else right).
    pub vertical: bool,
}

impl Run {
    /// Whether `p` is one of the run's cells.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        if self.vertical {
            p.x == self.start.x && p.y >= self.start.y && p.y - self.start.y < self.len
        } else {
            p.y == self.start.y && p.x >= self.start.x && p.x - self.start.x < self.len
        }
    }

    /// The middle cell.
    #[inline]
    pub fn mid(&self) -> Point {
        let k = (self.len.max(1) - 1) / 2;
        if self.vertical {
            Point::new(self.start.x, self.start.y + k)
        } else {
            Point::new(self.start.x + k, self.start.y)
        }
    }
}

/// What a build produced and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildStats {
    /// Cells in the grid.
    pub cells: u64,
    /// Side of the sectors in cells (may exceed the configured size: see
    /// [`HierarchyConfig::fit_memory`]).
    pub sector_size: u32,
    /// Sectors.
    pub sectors: usize,
    /// Regions.
    pub regions: usize,
    /// Region-graph edges.
    pub edges: usize,
    /// Top-level clusters the connectivity matrix is built over.
    pub clusters: usize,
    /// Landmarks of the abstract search's heuristic (see
    /// [`HierarchyConfig::fit_memory`]).
    pub landmarks: usize,
    /// Bytes held by the hierarchy (regions, graph, connectivity,
    /// landmark distances, block-cut tree, portal layer).
    pub bytes: usize,
    /// Portals of the exact portal layer (0: not built; see
    /// [`PortalMode`]).
    pub portals: usize,
    /// Bytes of the portal layer (included in `bytes`).
    pub portal_bytes: usize,
    /// Wall time of the build or last update, in milliseconds.
    pub build_ms: f64,
}

/// The preprocessed hierarchy of one grid. Immutable during queries and
/// `Sync`: share one between threads, give each thread its own
/// [`crate::Planner`].
#[derive(Clone, Debug)]
pub struct Hierarchy {
    pub(crate) layout: Layout,
    pub(crate) grid_checksum: u64,
    /// `first_region[s] .. first_region[s + 1]` are sector `s`'s regions,
    /// in the order of their labels.
    pub(crate) first_region: Vec<u32>,
    pub(crate) regions: Vec<Region>,
    pub(crate) graph: RegionGraph,
    pub(crate) connectivity: Connectivity,
    pub(crate) landmarks: Landmarks,
    /// Biconnected blocks of `graph` (see [`crate::blocks`]).
    pub(crate) blocks: Blocks,
    /// The exact portal layer, where it was built (see [`PortalMode`]).
    pub(crate) portals: Option<Portals>,
    pub(crate) build_ms: f64,
}

/// Builds the region graph from undirected edges `(a, b, link from a)`.
pub(crate) fn region_graph(n: usize, edges: &[(u32, u32, Link)]) -> RegionGraph {
    // Both directions of each edge, placed by source (a counting sort:
    // no comparison sort of the whole list), then each row (a region's few
    // neighbours) ordered by target.
    let mut start = vec![0usize; n + 1];
    for &(a, b, _) in edges {
        start[a as usize + 1] += 1;
        start[b as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut directed: Vec<(u32, u32, Link)> = match edges.first() {
        Some(&(_, _, l)) => vec![(0, 0, l); start[n]],
        None => Vec::new(),
    };
    let mut next = start.clone();
    for &(a, b, l) in edges {
        directed[next[a as usize]] = (a, b, l);
        next[a as usize] += 1;
        directed[next[b as usize]] = (b, a, l.reversed());
        next[b as usize] += 1;
    }
    for row in start.windows(2) {
        directed[row[0]..row[1]].sort_unstable_by_key(|e| e.1);
    }
    directed.dedup_by_key(|e| (e.0, e.1));
    let mut g = if directed.is_empty() {
        RegionGraph::new()
    } else {
        // Sorted and unique by construction, so this cannot fail.
        RegionGraph::from_sorted_edges(&directed).unwrap_or_default()
    };
    // Regions after the last one with an edge have no row yet.
    while g.node_count() < n {
        g.add_node(());
    }
    // The CSR grew its arrays by doubling; a clone holds exactly what is
    // used (up to a third less memory, measured by the bench's counting
    // allocator).
    g.clone()
}

/// Per-sector result of the first build pass.
pub(crate) struct SectorData {
    pub regions: Vec<Region>,
    /// Labels along the four borders, one after another: top row, bottom
    /// row (`width` each), left column, right column (`height` each).
    border: Vec<u16>,
    width: usize,
}

impl SectorData {
    /// Labels of the top row.
    pub fn top(&self) -> &[u16] {
        &self.border[..self.width]
    }
    /// Labels of the bottom row.
    pub fn bottom(&self) -> &[u16] {
        &self.border[self.width..2 * self.width]
    }
    /// Labels of the left column.
    pub fn left(&self) -> &[u16] {
        let h = (self.border.len() - 2 * self.width) / 2;
        &self.border[2 * self.width..2 * self.width + h]
    }
    /// Labels of the right column.
    pub fn right(&self) -> &[u16] {
        let h = (self.border.len() - 2 * self.width) / 2;
        &self.border[2 * self.width + h..]
    }
}

/// Per-region sums of one sector: x and y sums, cells, bounding box.
type Sums = (u64, u64, u32, u32, u32, u32, u32);

/// Reusable buffers for [`sector_data`]: no allocation per sector beyond
/// its result once they have grown.
#[derive(Default)]
pub(crate) struct SectorScratch {
    lab: Labeler,
    sums: Vec<Sums>,
    /// Per region: squared distance (scaled) of the best cell so far, and
    /// that cell.
    best: Vec<(u64, u32, u32)>,
}

pub(crate) fn sector_data(
    grid: &Grid,
    layout: &Layout,
    s: u32,
    scratch: &mut SectorScratch,
) -> SectorData {
    let rect = layout.rect(s);
    let SectorScratch { lab, sums, best } = scratch;
    let n = lab.label_runs(grid, rect) as usize;
    let w = rect.width() as usize;
    let h = rect.height() as usize;
    // Sums for centroids and bounding boxes, a run at a time.
    sums.clear();
    sums.resize(n, (0, 0, 0, u32::MAX, u32::MAX, 0, 0));
    let acc = sums;
    for r in &lab.runs {
        let (y, x0, x1) = (r.y as u64, r.x0 as u64, r.x1 as u64);
        let len = x1 - x0;
        let a = &mut acc[r.label as usize - 1];
        a.0 += (x0 + x1 - 1) * len / 2;
        a.1 += y * len;
        a.2 += len as u32;
        a.3 = a.3.min(x0 as u32);
        a.4 = a.4.min(y as u32);
        a.5 = a.5.max(x1 as u32 - 1);
        a.6 = a.6.max(y as u32);
    }
    // Representative: the region's cell nearest its centroid, the first in
    // row-major order among equals. Along a run the squared distance is a
    // parabola in x, least at the centroid's column clamped into the run:
    // one of the two columns around it.
    best.clear();
    best.resize(n, (u64::MAX, 0, 0));
    for r in &lab.runs {
        let a = &acc[r.label as usize - 1];
        let c = a.2 as i64;
        let dy = r.y as i64 * c - a.1 as i64;
        // c² · squared distance, in integers.
        let d = |x: i64| {
            let dx = x * c - a.0 as i64;
            (dx * dx + dy * dy) as u64
        };
        let (lo, hi) = (r.x0 as i64, r.x1 as i64 - 1);
        let left = (a.0 as i64 / c).clamp(lo, hi);
        let right = (left + 1).min(hi);
        let x = if d(right) < d(left) { right } else { left };
        let b = &mut best[r.label as usize - 1];
        if d(x) < b.0 {
            *b = (d(x), x as u32, r.y as u32);
        }
    }
    let regions = acc
        .iter()
        .zip(best.iter())
        .map(|(a, b)| {
            Region::new(
                s,
                Point::new(rect.x0 + b.1, rect.y0 + b.2),
                a.2,
                Point::new(rect.x0 + a.3, rect.y0 + a.4),
                Point::new(rect.x0 + a.5, rect.y0 + a.6),
            )
        })
        .collect();
    // Border labels, from the runs that touch each border.
    let mut border = vec![0u16; 2 * (w + h)];
    let (top, rest) = border.split_at_mut(w);
    let (bottom, rest) = rest.split_at_mut(w);
    let (left, right) = rest.split_at_mut(h);
    for r in &lab.runs {
        let (y, x0, x1) = (r.y as usize, r.x0 as usize, r.x1 as usize);
        if y == 0 {
            top[x0..x1].fill(r.label);
        }
        if y == h - 1 {
            bottom[x0..x1].fill(r.label);
        }
        if x0 == 0 {
            left[y] = r.label;
        }
        if x1 == w {
            right[y] = r.label;
        }
    }
    SectorData {
        regions,
        border,
        width: w,
    }
}

/// An edge candidate between region `a` (global id) and `b`.
pub(crate) type EdgeList = Vec<(u32, u32, Link)>;

/// Adds (or improves) edge `a`–`b` crossing from cell `ca` to cell `cb`.
#[allow(clippy::too_many_arguments)]
fn offer(
    edges: &mut EdgeList,
    base: usize,
    regions: &[Region],
    a: u32,
    b: u32,
    ca: Point,
    cb: Point,
    len: u32,
    step: f64,
) {
    let (ra, rb) = Link::new(0.0, ca, cb, len).crossing();
    let w = octile(regions[a as usize].representative(), ra.mid())
        + step
        + octile(rb.mid(), regions[b as usize].representative());
    let link = Link::new(w as f32, ca, cb, len);
    // Edges of one sector pair are few: a linear scan of them suffices.
    for e in edges[base..].iter_mut() {
        if e.0 == a && e.1 == b {
            if link.cost() < e.2.cost() {
                e.2 = link;
            }
            e.2 = e.2.with_more_crossings(true);
            return;
        }
    }
    edges.push((a, b, link));
}

/// Adds the edge across a sector corner when both corner cells carry a
/// region label and the diagonal step between them is legal (both
/// orthogonal cells passable: the grid's own corner rule).
#[allow(clippy::too_many_arguments)]
fn offer_corner(
    grid: &Grid,
    edges: &mut EdgeList,
    regions: &[Region],
    id: impl Fn(u32, u16) -> u32,
    (s, a): (u32, u16),
    (t, b): (u32, u16),
    ca: Point,
    cb: Point,
) {
    let step = Dir::from_delta(cb.x as i32 - ca.x as i32, cb.y as i32 - ca.y as i32);
    if a != 0 && b != 0 && step.is_some_and(|d| grid.can_step(ca, d)) {
        offer(
            edges,
            edges.len(),
            regions,
            id(s, a),
            id(t, b),
            ca,
            cb,
            1,
            SQRT2,
        );
    }
}

/// Calls `f(a, b, start, len)` for each maximal run of positions where the
/// two facing border strips hold the same pair of non-zero labels.
fn border_runs(mine: &[u16], theirs: &[u16], mut f: impl FnMut(u16, u16, u32, u32)) {
    let n = mine.len().min(theirs.len());
    let mut i = 0usize;
    while i < n {
        let (a, b) = (mine[i], theirs[i]);
        if a == 0 || b == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && mine[i] == a && theirs[i] == b {
            i += 1;
        }
        f(a, b, start as u32, (i - start) as u32);
    }
}

/// Edges between sector `s` and its east, south, south-east and south-west
/// neighbours. `data(t)` gives a sector's border labels, `first` the global
/// id of each sector's first region.
pub(crate) fn sector_edges<'a>(
    grid: &Grid,
    layout: &Layout,
    s: u32,
    data: &impl Fn(u32) -> &'a SectorData,
    first: &[u32],
    regions: &[Region],
    edges: &mut EdgeList,
) {
    let (sx, sy) = layout.coords(s);
    let r = layout.rect(s);
    let me = data(s);
    let id = |t: u32, l: u16| first[t as usize] + l as u32 - 1;
    // East: runs of equal label pairs along the shared column boundary.
    if sx + 1 < layout.sectors_x {
        let t = s + 1;
        let base = edges.len();
        border_runs(me.right(), data(t).left(), |a, b, start, len| {
            let y0 = r.y0 + start;
            offer(
                edges,
                base,
                regions,
                id(s, a),
                id(t, b),
                Point::new(r.x1 - 1, y0),
                Point::new(r.x1, y0),
                len,
                1.0,
            );
        });
    }
    if sy + 1 < layout.sectors_y {
        // South.
        let t = s + layout.sectors_x;
        let base = edges.len();
        border_runs(me.bottom(), data(t).top(), |a, b, start, len| {
            let x0 = r.x0 + start;
            offer(
                edges,
                base,
                regions,
                id(s, a),
                id(t, b),
                Point::new(x0, r.y1 - 1),
                Point::new(x0, r.y1),
                len,
                1.0,
            );
        });
        // South-east corner: (x1-1, y1-1) -> (x1, y1).
        if sx + 1 < layout.sectors_x {
            let t = s + layout.sectors_x + 1;
            let a = *me.bottom().last().unwrap_or(&0);
            let b = data(t).top()[0];
            let (ca, cb) = (Point::new(r.x1 - 1, r.y1 - 1), Point::new(r.x1, r.y1));
            offer_corner(grid, edges, regions, id, (s, a), (t, b), ca, cb);
        }
        // South-west corner: (x0, y1-1) -> (x0-1, y1).
        if sx > 0 {
            let t = s + layout.sectors_x - 1;
            let a = me.bottom()[0];
            let b = *data(t).top().last().unwrap_or(&0);
            let (ca, cb) = (Point::new(r.x0, r.y1 - 1), Point::new(r.x0 - 1, r.y1));
            offer_corner(grid, edges, regions, id, (s, a), (t, b), ca, cb);
        }
    }
}

/// Maps with fewer cells than this build serially even when
/// [`HierarchyConfig::parallel`] is set (portal layer included; sectors
/// need [`PARALLEL_MIN_RUNS`] as well). Measured on crops of three Moving AI
/// maps (2 cores): at 48×48 a parallel build took 3–10× as long as a serial
/// one (about 0.06 ms of it waking the pool), at 128×128 about 2×, and
/// parallel first won clearly at 192×192 (1.1–1.3×).
const PARALLEL_MIN_CELLS: u64 = 1 << 15;

/// Sectors are labelled in parallel only on maps with at least this many
/// horizontal runs of passable cells ([`count_runs`]; labelling costs per
/// run). Measured on all 26 Moving AI maps (2 cores, median of up to 21
/// in-process builds): parallel was 6–35 % slower on every map up to
/// 24,000 runs (Berlin_0_1024: 6,797 runs, 3.70 ms serial, 4.26 parallel;
/// TheFrozenSea: 17,390 runs, 5.74 / 6.31), and 1.34–1.45× faster from
/// 38,423 runs up (random512-40, random512-25, maze512-1).
const PARALLEL_MIN_RUNS: u64 = 32_768;

/// The first candidate of [`Hierarchy::build`]: finished, or left as
/// regions and edges when those alone exceed the memory budget.
enum First {
    Built(Box<Hierarchy>),
    Unfinished(Partial),
    /// Not labelled beyond the sample: estimated far over the budget.
    Skipped,
}

/// A first candidate whose bytes a sample of its sectors ([`sample`])
/// estimates at more than this many times the budget is skipped: the
/// ladder of larger sizes starts at once, from the estimate. On the 25
/// Moving AI maps not skipped (sector size 16) the estimate was 0.49–1.43
/// times the exact lower bound (0.85–1.07 on most; 1.43 on the 49 × 49
/// arena, whose fixed part dominates; under-estimates only skip less), so
/// a candidate estimated at 1.75 times the budget is over it. maze512-1 is
/// estimated at 2.17 times and skipped, which saves labelling its 262,144
/// cells at a size it cannot use (a third of its build's instructions).
const SKIP_OVER_BUDGET: f64 = 1.75;

/// The first half of a build at one sector size: the regions and the
/// edges between them, before the graph, connectivity and block-cut tree.
struct Partial {
    /// Whether the sectors were labelled in parallel: [`Partial::finish`]
    /// then is too.
    parallel: bool,
    layout: Layout,
    first_region: Vec<u32>,
    regions: Vec<Region>,
    edges: EdgeList,
}

/// [`sector_data`] of the listed sectors, in their order.
fn sector_pass(grid: &Grid, layout: &Layout, sectors: &[u32], parallel: bool) -> Vec<SectorData> {
    if parallel {
        sectors
            .par_iter()
            .map_init(SectorScratch::default, |scratch, &s| {
                sector_data(grid, layout, s, scratch)
            })
            .collect()
    } else {
        let mut scratch = SectorScratch::default();
        sectors
            .iter()
            .map(|&s| sector_data(grid, layout, s, &mut scratch))
            .collect()
    }
}

/// Sectors in the sample [`Hierarchy::build`] estimates a first
/// candidate's bytes from: 2 × 2 blocks of sectors at every `stride`-th
/// sector across and down, spread evenly over the map, with borders inside
/// each block to count edges on. The stride (4, 8, 16, …) is the largest
/// that keeps at least [`SAMPLE_MIN`] sectors (a quarter of them on small
/// maps; a 512 × 512 map at 16 samples 64 of 1,024): the sample is all
/// that is labelled of a skipped candidate.
fn sample(layout: &Layout) -> (Vec<u32>, Vec<u32>) {
    let n = layout.count();
    let mut stride = 4u32;
    while n / (stride * stride) as usize >= SAMPLE_MIN {
        stride *= 2;
    }
    (0..n as u32).partition(|&s| {
        let (x, y) = layout.coords(s);
        x % stride < 2 && y % stride < 2
    })
}

/// See [`sample`].
const SAMPLE_MIN: usize = 64;

/// [`Hierarchy::bytes_with_landmarks`] as far as `regions` regions and
/// `edges` edges over `sectors` sectors fix it (see
/// [`Partial::bytes_lower_bound`]).
fn bytes_for(regions: f64, edges: f64, sectors: usize, landmarks: usize) -> f64 {
    let per_region = (std::mem::size_of::<Region>() + std::mem::size_of::<usize>() + 4 + 4) as f64;
    let per_edge = (2 * (std::mem::size_of::<u32>() + std::mem::size_of::<Link>())) as f64;
    (std::mem::size_of::<Hierarchy>() + (sectors + 1) * 4 + std::mem::size_of::<usize>()) as f64
        + regions * (per_region + 2.0 * (landmarks as f64).min(regions))
        + edges * per_edge
}

/// An estimate of a build's [`Partial::bytes_lower_bound`] from the
/// sampled sectors' data alone (`sample[k]` is sector `ids[k]`): their
/// regions scaled by sectors, and the edges across the borders between
/// two sampled sectors scaled by borders, to the whole map.
fn estimate_bytes(
    grid: &Grid,
    layout: &Layout,
    ids: &[u32],
    sample: &[SectorData],
    landmarks: usize,
) -> f64 {
    let n = layout.count();
    if ids.is_empty() {
        return 0.0;
    }
    let mut slot = vec![u32::MAX; n];
    let mut first = vec![0u32; n + 1];
    let mut regions = Vec::new();
    for (k, (&s, d)) in ids.iter().zip(sample).enumerate() {
        slot[s as usize] = k as u32;
        first[s as usize] = regions.len() as u32;
        regions.extend_from_slice(&d.regions);
    }
    // Sectors outside the sample: no labels, so no edges to them.
    let side = layout.size as usize;
    let empty = SectorData {
        regions: Vec::new(),
        border: vec![0; 4 * side],
        width: side,
    };
    let data = |t: u32| match slot[t as usize] {
        u32::MAX => &empty,
        k => &sample[k as usize],
    };
    let mut edges = EdgeList::new();
    for &s in ids {
        sector_edges(grid, layout, s, &data, &first, &regions, &mut edges);
    }
    // Edges scale with sector borders: the map's against the sample's
    // (those between two sampled sectors).
    let (sx, sy) = (layout.sectors_x as usize, layout.sectors_y as usize);
    let borders = (sx - 1) * sy + sx * (sy - 1);
    let inside = ids
        .iter()
        .map(|&s| {
            let (x, y) = layout.coords(s);
            let east = x + 1 < layout.sectors_x && slot[s as usize + 1] != u32::MAX;
            let south =
                y + 1 < layout.sectors_y && slot[(s + layout.sectors_x) as usize] != u32::MAX;
            east as usize + south as usize
        })
        .sum::<usize>();
    let edges = if inside == 0 {
        0.0
    } else {
        edges.len() as f64 * borders as f64 / inside as f64
    };
    bytes_for(
        regions.len() as f64 * n as f64 / ids.len() as f64,
        edges,
        n,
        landmarks,
    )
}

impl Partial {
    /// Labels every sector and finds the edges across sector borders.
    fn new(grid: &Grid, sector_size: u32, parallel: bool) -> Partial {
        let layout = Layout::new(grid.width(), grid.height(), sector_size);
        let all: Vec<u32> = (0..layout.count() as u32).collect();
        let data = sector_pass(grid, &layout, &all, parallel);
        Partial::from_data(grid, layout, data, parallel)
    }

    /// Joins the sectors' data (`data[s]` for sector `s`) into regions and
    /// finds the edges across sector borders.
    fn from_data(grid: &Grid, layout: Layout, data: Vec<SectorData>, parallel: bool) -> Partial {
        let n = layout.count() as u32;
        let mut first_region = Vec::with_capacity(data.len() + 1);
        let mut total = 0u32;
        for d in &data {
            first_region.push(total);
            total += d.regions.len() as u32;
        }
        first_region.push(total);
        let mut regions: Vec<Region> = Vec::with_capacity(total as usize);
        regions.extend(data.iter().flat_map(|d| d.regions.iter().copied()));
        // Edges in any order (`region_graph` orders them): one list per
        // worker, appended to.
        let edges_of = |mut e: EdgeList, s: u32| {
            sector_edges(
                grid,
                &layout,
                s,
                &|t| &data[t as usize],
                &first_region,
                &regions,
                &mut e,
            );
            e
        };
        let edges: EdgeList = if parallel {
            (0..n)
                .into_par_iter()
                .fold(Vec::new, edges_of)
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                })
        } else {
            (0..n).fold(Vec::new(), edges_of)
        };
        Partial {
            parallel,
            layout,
            first_region,
            regions,
            edges,
        }
    }

    /// A lower bound on [`Hierarchy::bytes_with_landmarks`] of the finished
    /// hierarchy: everything whose size the regions and edges fix (region
    /// array, graph rows and edges, one cluster and one block id per
    /// region, landmark distances), nothing of the connectivity matrix or
    /// the block-cut tree's own nodes. Edges are unique already: each pair
    /// of regions lies in one pair of sectors, whose edges `sector_edges`
    /// merges.
    fn bytes_lower_bound(&self, landmarks: usize) -> u64 {
        bytes_for(
            self.regions.len() as f64,
            self.edges.len() as f64,
            self.first_region.len() - 1,
            landmarks,
        ) as u64
    }

    /// Builds the graph, connectivity and block-cut tree (no landmarks).
    fn finish(self, grid: &Grid) -> Hierarchy {
        let graph = region_graph(self.regions.len(), &self.edges);
        let connectivity =
            || Connectivity::build(&self.layout, &self.regions, &graph, grid.cell_count());
        let blocks = || Blocks::build(&graph);
        // Side by side where the sectors were labelled in parallel (the
        // pool is awake and the graph large).
        let (connectivity, blocks) = if self.parallel {
            rayon::join(connectivity, blocks)
        } else {
            (connectivity(), blocks())
        };
        Hierarchy {
            layout: self.layout,
            grid_checksum: grid.checksum(),
            first_region: self.first_region,
            regions: self.regions,
            graph,
            connectivity,
            landmarks: Landmarks::default(),
            blocks,
            portals: None,
            build_ms: 0.0,
        }
    }
}

impl Hierarchy {
    /// The first candidate's regions and edges, at the configured sector
    /// size; with [`HierarchyConfig::fit_memory`], the sampled sectors
    /// first, and `Err(estimate)` instead when their estimate of the
    /// candidate's bytes is over [`SKIP_OVER_BUDGET`] times the budget (the
    /// rest is never labelled). The sample's data is kept otherwise, so
    /// each sector is labelled once either way.
    fn first_pass(grid: &Grid, config: &HierarchyConfig, parallel: bool) -> Result<Partial, u64> {
        if !config.fit_memory {
            return Ok(Partial::new(grid, config.sector_size, parallel));
        }
        let layout = Layout::new(grid.width(), grid.height(), config.sector_size);
        let (ids, rest) = sample(&layout);
        let sample = sector_pass(grid, &layout, &ids, parallel);
        let estimate = estimate_bytes(grid, &layout, &ids, &sample, LANDMARKS);
        if estimate > SKIP_OVER_BUDGET * grid.cell_count() as f64 {
            return Err(estimate as u64);
        }
        let others = sector_pass(grid, &layout, &rest, parallel);
        // Both lists ascend: merge them back into sector order.
        let mut data = Vec::with_capacity(layout.count());
        let (mut a, mut b) = (ids.iter().zip(sample).peekable(), others.into_iter());
        for s in 0..layout.count() as u32 {
            match a.peek() {
                Some((&t, _)) if t == s => data.extend(a.next().map(|(_, d)| d)),
                _ => data.extend(b.next()),
            }
        }
        Ok(Partial::from_data(grid, layout, data, parallel))
    }

    /// Preprocesses `grid`.
    pub fn build(grid: &Grid, config: &HierarchyConfig) -> Result<Hierarchy, HierarchyError> {
        let t0 = Instant::now();
        if !(4..=256).contains(&config.sector_size) {
            return Err(HierarchyError::BadConfig(format!(
                "sector_size {} is outside 4..=256",
                config.sector_size
            )));
        }
        let parallel_portals = config.parallel && grid.cell_count() >= PARALLEL_MIN_CELLS;
        let parallel = parallel_portals && count_runs(grid) >= PARALLEL_MIN_RUNS;
        let cells = grid.cell_count();
        // Candidates are built without landmarks (a set of Dijkstras over
        // the region graph); the kept one gets them once, at the end. A
        // first candidate whose regions and edges alone exceed the budget
        // is not finished (graph, connectivity, block-cut tree) unless no
        // larger sector size does better, and one whose sample estimates
        // it far over the budget is not even labelled (`first_pass`).
        let (first, first_bytes) = match Self::first_pass(grid, config, parallel) {
            Err(estimate) => (First::Skipped, estimate),
            Ok(first) => {
                let bound = first.bytes_lower_bound(LANDMARKS);
                if config.fit_memory && bound > cells {
                    (First::Unfinished(first), bound)
                } else {
                    let h = first.finish(grid);
                    let bytes = h.bytes_with_landmarks(LANDMARKS);
                    (First::Built(Box::new(h)), bytes)
                }
            }
        };
        // The smallest larger candidate, and its bytes.
        let mut larger: Option<(Hierarchy, u64)> = None;
        if config.fit_memory && first_bytes > cells {
            // Bytes fall at least as 1 / sector side as sectors grow (as
            // 1 / side on one-cell mazes, faster on open ground), so start
            // at the first larger size that this predicts to fit instead of
            // building every size in between.
            let base = config.sector_size;
            let needed = base as f64 * first_bytes as f64 / cells as f64;
            let ladder = [base + base / 2, base * 2, base * 3, base * 4];
            let start = ladder
                .iter()
                .position(|&s| s as f64 >= needed)
                .unwrap_or(ladder.len() - 1);
            for &size in ladder[start..].iter().filter(|&&s| s <= 256) {
                let h = Partial::new(grid, size, parallel).finish(grid);
                let bytes = h.bytes_with_landmarks(LANDMARKS);
                let fits = bytes <= cells;
                if larger.as_ref().is_none_or(|l| bytes < l.1) {
                    larger = Some((h, bytes));
                }
                if fits {
                    break;
                }
            }
        }
        let mut best = match (first, larger) {
            (First::Built(h), None) => *h,
            (First::Built(h), Some((l, bytes))) => {
                if bytes < first_bytes {
                    l
                } else {
                    *h
                }
            }
            (First::Unfinished(p), None) => p.finish(grid),
            (First::Skipped, None) => Partial::new(grid, config.sector_size, parallel).finish(grid),
            (First::Skipped, Some((l, bytes))) => {
                // Nothing fitted and the first candidate may be smaller
                // (its bytes were only estimated): build it after all.
                if bytes <= cells {
                    l
                } else {
                    let h = Partial::new(grid, config.sector_size, parallel).finish(grid);
                    if h.bytes_with_landmarks(LANDMARKS) < bytes {
                        h
                    } else {
                        l
                    }
                }
            }
            (First::Unfinished(p), Some((l, bytes))) => {
                // Nothing fitted and the first candidate may be smaller.
                if bytes <= cells || bytes <= first_bytes {
                    l
                } else {
                    let h = p.finish(grid);
                    if h.bytes_with_landmarks(LANDMARKS) < bytes {
                        h
                    } else {
                        l
                    }
                }
            }
        };
        // Still too large: fewer landmarks (2 bytes each per region).
        let mut count = LANDMARKS;
        while config.fit_memory && count > 0 && best.bytes_with_landmarks(count) > cells {
            count /= 2;
        }
        let graph = &best.graph;
        let landmarks = || Landmarks::build(graph, count);
        let portals = || {
            let wanted = match config.portals {
                PortalMode::Auto => Portals::worth_building(grid),
                PortalMode::Always => true,
                PortalMode::Never => false,
            };
            wanted.then(|| Portals::build(grid, parallel_portals))
        };
        // Side by side where the sectors were labelled in parallel (the
        // pool is awake): the landmarks' Dijkstras and the portal layer (or
        // the test of whether it pays) need only the graph and the grid.
        let (landmarks, portals) = if parallel {
            rayon::join(landmarks, portals)
        } else {
            (landmarks(), portals())
        };
        best.landmarks = landmarks;
        best.portals = portals;
        best.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(best)
    }

    /// Width of the grid this hierarchy was built for.
    pub fn width(&self) -> u32 {
        self.layout.width
    }

    /// Height of the grid this hierarchy was built for.
    pub fn height(&self) -> u32 {
        self.layout.height
    }

    /// Sector side in cells.
    pub fn sector_size(&self) -> u32 {
        self.layout.size
    }

    /// The regions, by id.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The region graph: node `i` is region `i`; edge weights estimate the
    /// travel cost between the two regions' representatives (see
    /// `ARCHITECTURE.md`).
    pub fn graph(&self) -> &RegionGraph {
        &self.graph
    }

    /// The checksum of the grid it was built from ([`Grid::checksum`]).
    pub fn grid_checksum(&self) -> u64 {
        self.grid_checksum
    }

    /// Whether `grid` is the grid this hierarchy was built for (size and
    /// checksum; O(cells)).
    pub fn matches(&self, grid: &Grid) -> bool {
        grid.width() == self.layout.width
            && grid.height() == self.layout.height
            && grid.checksum() == self.grid_checksum
    }

    /// Whether two regions are connected, from the connectivity matrix in
    /// O(1).
    pub fn regions_connected(&self, a: u32, b: u32) -> bool {
        self.connectivity.connected(a, b)
    }

    /// The region containing a passable cell (`None` if blocked or out of
    /// bounds). O(regions in the sector) when one region's bounding box
    /// holds the cell, else O(regions in the sector + cells of its region).
    pub fn region_of(&self, grid: &Grid, p: Point) -> Option<u32> {
        let mut lab = Labeler::default();
        self.region_of_with(grid, p, &mut lab)
    }

    pub(crate) fn region_of_with(&self, grid: &Grid, p: Point, lab: &mut Labeler) -> Option<u32> {
        if !grid.is_passable(p) || p.x >= self.layout.width || p.y >= self.layout.height {
            return None;
        }
        let s = self.layout.sector_of(p);
        // Usually one region of the sector has `p` in its bounding box:
        // that one holds it, no labelling needed (on 8room_000 and the
        // random maps labelling was 11-20% of the time to the first leg).
        let (lo, hi) = (
            self.first_region[s as usize],
            self.first_region[s as usize + 1],
        );
        let inside = |r: &u32| {
            let (a, b) = (self.regions[*r as usize].min, self.regions[*r as usize].max);
            (a[0] as u32..=b[0] as u32).contains(&p.x) && (a[1] as u32..=b[1] as u32).contains(&p.y)
        };
        let mut candidates = (lo..hi).filter(inside);
        if let (Some(r), None) = (candidates.next(), candidates.next()) {
            return Some(r);
        }
        // Several boxes hold `p`: flood `p`'s component in the sector until
        // it reaches one candidate's representative. Each representative is
        // a cell of its own region and regions are the sector's components,
        // so the one reached is `p`'s region (on maze512-1 this floods part
        // of one region instead of labelling all of the sector's cells).
        let rect = self.layout.rect(s);
        let reps = (lo..hi)
            .filter(inside)
            .map(|r| (self.regions[r as usize].representative(), r));
        if let Some(r) = lab.reach(grid, rect, p, reps) {
            return Some(r);
        }
        // Unreachable for a hierarchy that matches `grid` (`p`'s region is
        // a candidate); label the sector as a fallback.
        lab.label(grid, rect);
        let l = lab.labels[rect.local(p)];
        (l != 0).then(|| self.first_region[s as usize] + l as u32 - 1)
    }

    pub(crate) fn sector_rect(&self, s: u32) -> Rect {
        self.layout.rect(s)
    }

    /// Bytes held (as [`Hierarchy::stats`] counts them, portal layer
    /// excluded) were the landmarks `count` instead of the ones built.
    fn bytes_with_landmarks(&self, count: usize) -> u64 {
        let held = self.stats().bytes - self.portals.as_ref().map_or(0, Portals::bytes);
        let k = count.min(self.regions.len());
        (held - self.landmarks.bytes() + self.regions.len() * k * 2) as u64
    }

    /// Build statistics, including bytes held.
    pub fn stats(&self) -> BuildStats {
        let n = self.graph.node_count();
        let directed = (0..n as u32)
            .map(|a| self.graph.out_degree(a))
            .sum::<usize>();
        let graph_bytes = (n + 1) * std::mem::size_of::<usize>()
            + directed * (std::mem::size_of::<u32>() + std::mem::size_of::<Link>());
        let bytes = std::mem::size_of::<Self>()
            + self.first_region.len() * 4
            + self.regions.len() * std::mem::size_of::<Region>()
            + graph_bytes
            + self.connectivity.bytes()
            + self.landmarks.bytes()
            + self.blocks.bytes();
        let portal_bytes = self.portals.as_ref().map_or(0, Portals::bytes);
        BuildStats {
            portals: self.portals.as_ref().map_or(0, Portals::len),
            portal_bytes,
            cells: self.layout.width as u64 * self.layout.height as u64,
            sector_size: self.layout.size,
            sectors: self.layout.count(),
            regions: self.regions.len(),
            edges: directed / 2,
            clusters: self.connectivity.cluster_count(),
            landmarks: self.landmarks.count(),
            bytes: bytes + portal_bytes,
            build_ms: self.build_ms,
        }
    }

    /// Calls `f(a, b, link)` once per undirected edge, with `a < b` and the
    /// link oriented from `a`.
    pub fn for_each_edge(&self, mut f: impl FnMut(u32, u32, &Link)) {
        for a in 0..self.graph.node_count() as u32 {
            for (b, l) in self
                .graph
                .neighbors_slice(a)
                .iter()
                .zip(self.graph.edges_slice(a))
            {
                if a < *b {
                    f(a, *b, l);
                }
            }
        }
    }

    /// The edges as `(a, b, link from a)` with `a < b`, sorted: for
    /// comparisons and tools.
    pub fn edge_list(&self) -> Vec<(u32, u32, Link)> {
        let mut v = Vec::new();
        self.for_each_edge(|a, b, l| v.push((a, b, *l)));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{maze, random_grid, xorshift};

    /// `sector_data` (a pass over runs) against a scan of every cell of the
    /// cell labelling (itself checked against a flood fill in `sector.rs`):
    /// region sizes, bounding boxes, representatives (the cell nearest the
    /// centroid, first in row-major order among equals) and border labels,
    /// on random maps of several densities and sector sizes.
    #[test]
    fn sector_data_matches_a_cell_scan() {
        let mut below = xorshift(0x2545_f491_4f6c_dd1du64);
        let (mut lab, mut cells) = (SectorScratch::default(), Labeler::default());
        let mut checked = 0;
        for density in [0, 15, 40, 60] {
            let (gw, gh) = (157, 131);
            let g = random_grid(gw, gh, density, &mut below);
            for size in [4, 7, 16, 70, 157] {
                let layout = Layout::new(gw, gh, size);
                for s in 0..layout.count() as u32 {
                    let got = sector_data(&g, &layout, s, &mut lab);
                    let rect = layout.rect(s);
                    let n = cells.label(&g, rect) as usize;
                    let (w, h) = (rect.width(), rect.height());
                    let label = |x: u32, y: u32| cells.labels[(y * w + x) as usize];
                    assert_eq!(got.regions.len(), n);
                    for (i, r) in got.regions.iter().enumerate() {
                        let l = i as u16 + 1;
                        let mine: Vec<(u32, u32)> = (0..h)
                            .flat_map(|y| (0..w).map(move |x| (x, y)))
                            .filter(|&(x, y)| label(x, y) == l)
                            .collect();
                        let c = mine.len() as i64;
                        let (sx, sy) = mine
                            .iter()
                            .fold((0i64, 0i64), |(a, b), &(x, y)| (a + x as i64, b + y as i64));
                        let d = |&(x, y): &(u32, u32)| {
                            let (dx, dy) = (x as i64 * c - sx, y as i64 * c - sy);
                            dx * dx + dy * dy
                        };
                        let least = mine.iter().map(d).min().unwrap();
                        let rep = mine.iter().find(|p| d(p) == least).unwrap();
                        let at = |x: u32, y: u32| Point::new(rect.x0 + x, rect.y0 + y);
                        assert_eq!(r.cells(), c as u32);
                        assert_eq!(r.representative(), at(rep.0, rep.1), "sector {s}");
                        let xs = mine.iter().map(|p| p.0);
                        let ys = mine.iter().map(|p| p.1);
                        assert_eq!(
                            r.min(),
                            at(xs.clone().min().unwrap(), ys.clone().min().unwrap())
                        );
                        assert_eq!(r.max(), at(xs.max().unwrap(), ys.max().unwrap()));
                        checked += 1;
                    }
                    let row = |y: u32| (0..w).map(|x| label(x, y)).collect::<Vec<_>>();
                    let col = |x: u32| (0..h).map(|y| label(x, y)).collect::<Vec<_>>();
                    assert_eq!(got.top(), row(0));
                    assert_eq!(got.bottom(), row(h - 1));
                    assert_eq!(got.left(), col(0));
                    assert_eq!(got.right(), col(w - 1));
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }

    /// The bound that lets `build` skip finishing a candidate never
    /// exceeds the finished candidate's bytes (random maps from open to
    /// dense, every sector size from 4 to 64, 0 to 8 landmarks), and is
    /// within a small factor of them.
    #[test]
    fn bytes_lower_bound_is_a_lower_bound() {
        let mut below = xorshift(0x0123_4567_89ab_cdefu64);
        let mut closest = f64::MAX;
        for density in [0, 20, 40, 55] {
            let (gw, gh) = (150, 97);
            let g = random_grid(gw, gh, density, &mut below);
            for size in [4, 5, 8, 12, 16, 24, 33, 64] {
                for k in [0, 1, 8] {
                    let p = Partial::new(&g, size, false);
                    let bound = p.bytes_lower_bound(k);
                    let exact = p.finish(&g).bytes_with_landmarks(k);
                    assert!(
                        bound <= exact,
                        "{bound} > {exact} at {density}%, {size}, {k}"
                    );
                    closest = closest.min(exact as f64 / bound as f64);
                }
            }
        }
        assert!(closest < 1.5, "{closest}");
    }

    /// The paths of `build` that keep a first candidate unfinished: on a
    /// map of isolated cells (one region per passable cell, far over the
    /// byte budget at every sector size) a first size with no larger one
    /// allowed is finished and kept; a small first size is never beaten by
    /// a larger one that holds more bytes. Each is checked against the
    /// same size built directly.
    /// The sample's estimate against the exact lower bound of the full
    /// candidate, on random obstacles and one-cell mazes.
    #[test]
    fn sampled_estimates_are_within_a_factor_of_the_bound() {
        let mut below = xorshift(0x005e_ed0f_e571_3a7e);
        let mut grids: Vec<Grid> = [0, 20, 40, 55]
            .iter()
            .map(|&d| random_grid(301, 207, d, &mut below))
            .collect();
        grids.push(maze(301, 207, &mut below));
        for g in &grids {
            for size in [8, 16, 24] {
                let layout = Layout::new(g.width(), g.height(), size);
                let (ids, _) = sample(&layout);
                let sample = sector_pass(g, &layout, &ids, false);
                let estimate = estimate_bytes(g, &layout, &ids, &sample, LANDMARKS);
                let bound = Partial::new(g, size, false).bytes_lower_bound(LANDMARKS) as f64;
                let ratio = estimate / bound;
                assert!(
                    (0.75..=1.33).contains(&ratio),
                    "{ratio} at {size}: {estimate} vs {bound}"
                );
            }
        }
    }

    /// For a build kept at `size` on the default ladder from 16 (24, 32,
    /// 48, 64): the rung below it, if any, is over the byte budget, so no
    /// smaller larger size was passed over.
    fn assert_rung_below_is_over_budget(g: &Grid, size: u32) {
        let ladder = [24, 32, 48, 64];
        let at = ladder.iter().position(|&s| s == size).unwrap();
        if at > 0 {
            let h = Partial::new(g, ladder[at - 1], false).finish(g);
            let below = h.bytes_with_landmarks(LANDMARKS);
            assert!(below > g.cell_count(), "{} fits: {below}", ladder[at - 1]);
        }
    }

    /// A one-cell maze far over the budget at 16: the first candidate is
    /// skipped on its estimate, and nothing is lost by it: that candidate
    /// and the ladder size below the kept one are over the budget, the kept
    /// one fits and is the plain build at its size.
    #[test]
    fn skipped_first_candidates_lose_nothing() {
        let mut below = xorshift(0x0000_ddba_11c0_ffee);
        let g = maze(255, 255, &mut below);
        let cells = g.cell_count();
        let config = HierarchyConfig {
            portals: PortalMode::Never,
            ..HierarchyConfig::default()
        };
        assert!(Hierarchy::first_pass(&g, &config, false).is_err());
        let exact = |size| Partial::new(&g, size, false).finish(&g);
        assert!(exact(16).bytes_with_landmarks(LANDMARKS) > cells);
        let h = Hierarchy::build(&g, &config).unwrap();
        let size = h.stats().sector_size;
        assert!(h.bytes_with_landmarks(LANDMARKS) <= cells);
        assert_rung_below_is_over_budget(&g, size);
        assert_eq!(h.edge_list(), exact(size).edge_list());
        assert_eq!(h.stats().regions, exact(size).stats().regions);
    }

    /// Random obstacles a little over the budget at 16: estimated under
    /// the skip threshold, so labelled in full and left unfinished by its
    /// lower bound; the kept candidate is the first larger size that fits
    /// (the size below it does not).
    #[test]
    fn first_candidates_over_budget_by_a_little_are_labelled_in_full() {
        let mut below = xorshift(0x0042_4242_4242_4242);
        // 28 %: estimated at 1.29 times the budget, bound 1.34 times.
        let g = random_grid(256, 256, 28, &mut below);
        let cells = g.cell_count();
        let config = HierarchyConfig {
            portals: PortalMode::Never,
            ..HierarchyConfig::default()
        };
        let first = Hierarchy::first_pass(&g, &config, false).expect("not skipped");
        assert_eq!(
            first.regions.len(),
            Partial::new(&g, 16, false).regions.len()
        );
        assert!(first.bytes_lower_bound(LANDMARKS) > cells);
        let h = Hierarchy::build(&g, &config).unwrap();
        assert!(h.bytes_with_landmarks(LANDMARKS) <= cells);
        let exact = |size| Partial::new(&g, size, false).finish(&g);
        let size = h.stats().sector_size;
        assert_rung_below_is_over_budget(&g, size);
        assert_eq!(h.edge_list(), exact(size).edge_list());
    }

    #[test]
    fn unfinished_first_candidates_are_finished_when_kept() {
        let (gw, gh) = (260, 90);
        let mut g = Grid::new(gw, gh, true).unwrap();
        for y in 0..gh {
            for x in 0..gw {
                if x % 2 == 1 || y % 2 == 1 {
                    g.set_passable(Point::new(x, y), false).unwrap();
                }
            }
        }
        let config = |sector_size| HierarchyConfig {
            sector_size,
            portals: PortalMode::Never,
            ..HierarchyConfig::default()
        };
        let exact = |size| Partial::new(&g, size, false).finish(&g);
        let cells = g.cell_count();
        // Every cell its own region: both sizes are skipped on the sample's
        // estimate and built after all when kept.
        assert!(Hierarchy::first_pass(&g, &config(200), false).is_err());
        assert!(Hierarchy::first_pass(&g, &config(4), false).is_err());
        // 200: 300 is over 256, so no larger candidate exists.
        let h = Hierarchy::build(&g, &config(200)).unwrap();
        let direct = exact(200);
        assert!(Partial::new(&g, 200, false).bytes_lower_bound(LANDMARKS) > cells);
        assert_eq!(h.stats().sector_size, 200);
        assert_eq!(h.stats().regions, direct.stats().regions);
        assert_eq!(h.stats().edges, direct.stats().edges);
        // 4: skipped unfinished, larger sizes all over budget too; the kept
        // one holds no more bytes than the first size would have.
        assert!(Partial::new(&g, 4, false).bytes_lower_bound(LANDMARKS) > cells);
        let h = Hierarchy::build(&g, &config(4)).unwrap();
        let kept = h.bytes_with_landmarks(LANDMARKS);
        assert!(kept > cells, "{kept}");
        assert!(kept <= exact(4).bytes_with_landmarks(LANDMARKS));
        let size = h.stats().sector_size;
        assert!([4, 6, 8, 12, 16].contains(&size), "{size}");
        assert_eq!(h.stats().regions, exact(size).stats().regions);
    }
}
