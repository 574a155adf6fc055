//! The region graph's data: [`Region`], [`Link`], [`Run`], and the
//! compressed-sparse-row graph that holds them.

use regionpath_grid::{Dir, Point};

/// A region's id: its index in [`crate::Hierarchy::regions`]. Ids are
/// dense (`0..regions().len()`) and stable until the hierarchy is updated
/// or rebuilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(u32);

impl RegionId {
    #[inline]
    pub(crate) fn new(id: u32) -> RegionId {
        RegionId(id)
    }

    /// The id as an index into [`crate::Hierarchy::regions`].
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id as a number (the same as [`RegionId::index`]).
    #[inline]
    pub fn get(self) -> u32 {
        self.0
    }
}

impl std::fmt::Display for RegionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "region {}", self.0)
    }
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
    pub(crate) min: [u16; 2],
    pub(crate) max: [u16; 2],
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

    /// Moves the representative to `p`, a cell of the region.
    pub(crate) fn set_representative(&mut self, p: Point) {
        self.rep = pack(p);
    }

    /// The same region retired by a local update: no cells (its id is a
    /// gap until [`crate::Hierarchy::refresh`]).
    pub(crate) fn retired(&self) -> Region {
        Region { cells: 0, ..*self }
    }

    /// The sector it lies in.
    #[inline]
    pub fn sector(&self) -> u32 {
        self.sector
    }

    /// A cell of the region: the one nearest the region's centroid; in a
    /// hierarchy built for a profile whose costs differ, the region's
    /// cheapest cell nearest that one.
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

/// `x.round() as u32` for `0 ≤ x < 2²⁴`, without a call. Why: `f32::round`
/// is a library call on x86-64 without SSE 4.1, and the level searches
/// round once per edge they relax, a build or load once per link (see
/// `benches/PROFILES.md` P68). `x − ⌊x⌋` is exact below 2²⁴, so halves
/// round up exactly as `round` does.
#[inline]
pub(crate) fn round_non_negative(x: f32) -> u32 {
    let t = x as u32;
    t + u32::from(x - t as f32 >= 0.5)
}

impl Link {
    pub(crate) fn new(cost: f32, from: Point, to: Point, len: u32) -> Link {
        let step = Dir::from_delta(to.x as i32 - from.x as i32, to.y as i32 - from.y as i32)
            .map(|d| d as u8)
            .unwrap_or(0);
        Link {
            cost: Link::cost_units_of(cost),
            from: pack(from),
            step,
            len_m1: (len.clamp(1, 256) - 1) as u8,
        }
    }

    /// `cost` cells in a link's stored units (1/64 cell, rounded to the
    /// nearest; clamped to `0..=u16::MAX`): what [`Link::new`] stores.
    #[inline]
    pub(crate) fn cost_units_of(cost: f32) -> u16 {
        round_non_negative((cost.max(0.0) * LINK_COST_SCALE).min(u16::MAX as f32)) as u16
    }

    /// [`Link::cost`] in its stored units (1/64 cell).
    #[inline]
    pub(crate) fn cost_units(&self) -> u16 {
        self.cost
    }

    /// Estimated cost from this region's representative, through the middle
    /// of the run, to the other's (octile legs; see `ARCHITECTURE.md`);
    /// under a profile whose costs differ, the cheapest way inside the two
    /// sectors through any pair of cells where the two regions face each
    /// other across the border (the run holding the cheapest pair is this
    /// link's). Stored to 1/64 of a cell.
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

    /// The fields a `.rph` edge record stores: the cost units (1/64
    /// cell), the first crossing cell, the step byte (the direction's index
    /// in `Dir::ALL`, bit 3 set when the regions also touch along another
    /// run) and the run length minus one.
    #[inline]
    pub(crate) fn stored(&self) -> (u16, Point, u8, u8) {
        (self.cost, self.from(), self.step, self.len_m1)
    }

    /// The link of stored fields ([`Link::stored`]); `None` when the step
    /// byte sets a bit above bit 3. The caller checks the cells are on the
    /// map.
    #[inline]
    pub(crate) fn from_stored(cost: u16, from: Point, step: u8, len_m1: u8) -> Option<Link> {
        (step < 16).then(|| Link {
            cost,
            from: pack(from),
            step,
            len_m1,
        })
    }

    /// [`Link::from_stored`] of fields already checked: the step byte's
    /// bits above bit 3 (none in a checked record) are dropped.
    #[inline]
    pub(crate) fn from_checked(cost: u16, from: Point, step: u8, len_m1: u8) -> Link {
        Link {
            cost,
            from: pack(from),
            step: step & 15,
            len_m1,
        }
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
        // The same cost units and run; the step turned round (a region
        // graph's build or load reverses every link: no float round trip).
        Link {
            cost: self.cost,
            from: pack(self.to()),
            step: Dir::ALL[self.step as usize & 7].reverse() as u8 | (self.step & MORE_CROSSINGS),
            len_m1: self.len_m1,
        }
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

/// The region graph: node `i` is region `i`; every undirected edge is
/// stored once from each end with its [`Link`] oriented away from that
/// end. Each node's row (its neighbours by ascending id, and their links)
/// is a slice of two shared arrays. A build lays the rows out back to back
/// (compressed sparse rows); a local update rewrites a row in place when it
/// does not grow and appends it at the end otherwise, leaving the old slots
/// as dead space ([`RegionGraph::dead`]) until the graph is built again.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RegionGraph {
    /// Per node: the start of its row in `targets`/`links` and its length.
    rows: Vec<[u32; 2]>,
    targets: Vec<u32>,
    links: Vec<Link>,
    /// Undirected edges.
    edges: usize,
    /// Entries of `targets` in no row.
    dead: usize,
}

impl RegionGraph {
    /// Nodes (regions, live or retired).
    #[inline]
    pub(crate) fn node_count(&self) -> usize {
        self.rows.len()
    }

    /// Undirected edges.
    #[inline]
    pub(crate) fn edge_count(&self) -> usize {
        self.edges
    }

    /// The neighbours of `a`, by ascending id (empty for a node out of
    /// range).
    #[inline]
    pub(crate) fn neighbors_slice(&self, a: u32) -> &[u32] {
        match self.rows.get(a as usize) {
            Some(&[s, l]) => &self.targets[s as usize..(s + l) as usize],
            None => &[],
        }
    }

    /// The links from `a` to each of [`RegionGraph::neighbors_slice`].
    #[inline]
    pub(crate) fn edges_slice(&self, a: u32) -> &[Link] {
        match self.rows.get(a as usize) {
            Some(&[s, l]) => &self.links[s as usize..(s + l) as usize],
            None => &[],
        }
    }

    /// Entries held by no row (left by rows that grew in an update).
    pub(crate) fn dead(&self) -> usize {
        self.dead
    }

    /// Reserves room for `nodes` more nodes and `entries` more row
    /// entries.
    pub(crate) fn reserve(&mut self, nodes: usize, entries: usize) {
        self.rows.reserve(nodes);
        self.targets.reserve(entries);
        self.links.reserve(entries);
    }

    /// Grows the graph to `n` nodes (new ones without edges).
    pub(crate) fn grow(&mut self, n: usize) {
        if self.rows.len() < n {
            self.rows.resize(n, [0, 0]);
        }
    }

    /// Replaces the row of `a` (grown to hold it) with `row`: pairs of
    /// neighbour and link from `a`, sorted by neighbour, no repeats. The
    /// caller keeps the two ends of every edge in agreement and the edge
    /// count with [`RegionGraph::set_edge_count`]. O(row).
    pub(crate) fn set_row(&mut self, a: u32, row: &[(u32, Link)]) {
        self.grow(a as usize + 1);
        let [s, l] = self.rows[a as usize];
        let start = if row.len() <= l as usize {
            self.dead += l as usize - row.len();
            s as usize
        } else {
            self.dead += l as usize;
            self.targets.len()
        };
        for (i, &(b, link)) in row.iter().enumerate() {
            if start + i < self.targets.len() {
                self.targets[start + i] = b;
                self.links[start + i] = link;
            } else {
                self.targets.push(b);
                self.links.push(link);
            }
        }
        self.rows[a as usize] = [start as u32, row.len() as u32];
    }

    /// Sets the undirected edge count (after [`RegionGraph::set_row`]s).
    pub(crate) fn set_edge_count(&mut self, edges: usize) {
        self.edges = edges;
    }
}

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

    /// Cell `i` of the run (`i < len`).
    #[inline]
    pub fn cell(&self, i: u32) -> Point {
        if self.vertical {
            Point::new(self.start.x, self.start.y + i)
        } else {
            Point::new(self.start.x + i, self.start.y)
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

/// Builds the region graph from undirected edges `(a, b, link from a)`
/// over `n` nodes, rows back to back.
pub(crate) fn region_graph(n: usize, edges: &[(u32, u32, Link)]) -> RegionGraph {
    region_graph_of(n, edges.iter().copied())
}

/// [`region_graph`] of edges read through an iterator, walked twice when
/// the edges are ordered (three times otherwise). Why: a load decodes its
/// edge records where they lie instead of listing them (16 bytes per
/// edge of fresh memory, P88).
pub(crate) fn region_graph_of<I>(n: usize, edges: I) -> RegionGraph
where
    I: Iterator<Item = (u32, u32, Link)> + Clone,
{
    // Edges in ascending `(a, b)` order with `a < b` (every loaded file,
    // and builds) fill each row in ascending order already: row `r` gets
    // the `(a, r)` edges (ascending `a < r`) before the `(r, b)` ones
    // (ascending `b > r`), without repeats. Written in place, no sort.
    // Each row's first slot and the entries written to it so far: the
    // scatter's cursor, and the row's length once it is done. No other
    // array per region (a load's graph is most of its fresh memory).
    let mut rows = vec![[0u32; 2]; n];
    let mut ordered = true;
    let mut last = None;
    let mut first = None;
    let mut m = 0usize;
    for (a, b, l) in edges.clone() {
        ordered &= a < b && last < Some((a, b));
        last = Some((a, b));
        first.get_or_insert(l);
        rows[a as usize][1] += 1;
        rows[b as usize][1] += 1;
        m += 1;
    }
    let Some(first) = first else {
        return RegionGraph {
            rows,
            targets: Vec::new(),
            links: Vec::new(),
            edges: 0,
            dead: 0,
        };
    };
    if ordered {
        let mut at = 0u32;
        for r in &mut rows {
            r[0] = at;
            at += r[1];
            r[1] = 0;
        }
        let mut targets = vec![0u32; at as usize];
        let mut links = vec![first; at as usize];
        // Appends `(t, l)` to row `r`.
        let mut put = |r: u32, t: u32, l: Link| {
            let row = &mut rows[r as usize];
            let i = (row[0] + row[1]) as usize;
            row[1] += 1;
            targets[i] = t;
            links[i] = l;
        };
        for (a, b, l) in edges {
            put(a, b, l);
            put(b, a, l.reversed());
        }
        return RegionGraph {
            rows,
            targets,
            links,
            edges: m,
            dead: 0,
        };
    }
    // Both directions of each edge, placed by source (a counting sort:
    // no comparison sort of the whole list), then each row (a region's few
    // neighbours) ordered by target and without repeats.
    let mut start = vec![0usize; n + 1];
    for (s, r) in start[1..].iter_mut().zip(&rows) {
        *s = r[1] as usize;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut directed: Vec<(u32, Link)> = vec![(0, first); start[n]];
    let mut next = start.clone();
    for (a, b, l) in edges {
        directed[next[a as usize]] = (b, l);
        next[a as usize] += 1;
        directed[next[b as usize]] = (a, l.reversed());
        next[b as usize] += 1;
    }
    let mut g = RegionGraph {
        rows: Vec::with_capacity(n),
        targets: Vec::with_capacity(directed.len()),
        links: Vec::with_capacity(directed.len()),
        edges: 0,
        dead: 0,
    };
    for row in start.windows(2) {
        let r = &mut directed[row[0]..row[1]];
        r.sort_unstable_by_key(|e| e.0);
        let s = g.targets.len() as u32;
        let mut last = u32::MAX;
        for &(b, l) in r.iter() {
            if b != last {
                g.targets.push(b);
                g.links.push(l);
                last = b;
            }
        }
        g.rows.push([s, g.targets.len() as u32 - s]);
    }
    g.edges = g.targets.len() / 2;
    g
}

#[cfg(test)]
mod rounding_tests {
    use super::round_non_negative;

    #[test]
    fn rounds_like_the_library_below_two_to_the_24() {
        let mut v = vec![
            0.0f32,
            0.5,
            1.5,
            2.5,
            0.499_999_97,
            0.500_000_06,
            1.499_999_9,
            8_388_607.5,
            16_777_215.0,
            32_767.5,
            32_766.498,
        ];
        let mut x = 0x9E37_79B9u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            // Spread over the magnitudes of map coordinates and of halves.
            v.push((x % 70_000) as f32 / ((x >> 20) % 16 + 1) as f32);
        }
        for &a in &v {
            assert_eq!(round_non_negative(a), a.round() as u32, "{a}");
        }
    }
}

#[cfg(test)]
mod region_graph_tests {
    use super::{region_graph, Link};
    use regionpath_grid::Point;
    use regionpath_testkit::{Rng64, SplitMix64};

    /// The in-place build of ordered edges (each row written by its
    /// cursor) gives the graph the general path gives (placed by source,
    /// each row sorted) for the same undirected edges listed out of order
    /// and half of them turned round.
    #[test]
    fn ordered_edges_build_the_graph_the_sorting_path_builds() {
        let mut rng = SplitMix64(0x2545_F491);
        let mut next = move || rng.next_u64() as u32;
        for round in 0..40 {
            let n = 1 + (next() % 300) as usize;
            let mut edges = Vec::new();
            for a in 0..n as u32 {
                for b in a + 1..n as u32 {
                    if next() % (4 + round) == 0 {
                        let from = Point::new(next() % 1000, 1 + next() % 1000);
                        let to = Point::new(from.x + 1, from.y - (next() % 2));
                        let cost = (next() % 5000) as f32 / 64.0;
                        edges.push((a, b, Link::new(cost, from, to, 1 + next() % 16)));
                    }
                }
            }
            let ordered = region_graph(n, &edges);
            let mut mixed: Vec<_> = edges
                .iter()
                .map(|&(a, b, l)| {
                    if next() % 2 == 0 {
                        (b, a, l.reversed())
                    } else {
                        (a, b, l)
                    }
                })
                .collect();
            for i in (1..mixed.len()).rev() {
                mixed.swap(i, next() as usize % (i + 1));
            }
            let sorted = region_graph(n, &mixed);
            assert_eq!(
                ordered,
                sorted,
                "round {round}: {n} nodes, {} edges",
                edges.len()
            );
            assert_eq!(ordered.edge_count(), edges.len());
            // Every edge in both rows, oriented from the row's node.
            let find = |a: u32, b: u32| {
                let at = ordered.neighbors_slice(a).iter().position(|&t| t == b);
                at.map(|i| ordered.edges_slice(a)[i])
            };
            for &(a, b, l) in &edges {
                assert_eq!(find(a, b), Some(l));
                assert_eq!(find(b, a), Some(l.reversed()));
            }
            for a in 0..n as u32 {
                let row = ordered.neighbors_slice(a);
                assert!(row.windows(2).all(|w| w[0] < w[1]), "row {a} ascends");
            }
        }
    }
}
