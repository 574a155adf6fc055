//! Offline build: sectors → regions → region graph → connectivity.

use crate::connectivity::Connectivity;
use crate::sector::{Labeler, Layout, Rect};
use crate::HierarchyError;
use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::visit::EdgeRef;
use rayon::prelude::*;
use regionpath_grid::{octile, Grid, Point, SQRT2};
use std::time::Instant;

/// Build settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HierarchyConfig {
    /// Side of the square sectors in cells (4..=256). The default, 16, was
    /// chosen by measurement: see `ARCHITECTURE.md`.
    pub sector_size: u32,
    /// Build sectors in parallel with rayon.
    pub parallel: bool,
}

impl Default for HierarchyConfig {
    fn default() -> Self {
        HierarchyConfig {
            sector_size: 16,
            parallel: true,
        }
    }
}

/// One region: a connected piece of one sector's passable cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The sector it lies in.
    pub sector: u32,
    /// A cell of the region, the one nearest the region's centroid.
    pub representative: Point,
    /// Number of cells.
    pub cells: u32,
    /// Bounding box, top-left cell.
    pub min: Point,
    /// Bounding box, bottom-right cell (inclusive).
    pub max: Point,
}

/// A region-graph edge: its estimated travel cost and where it crosses
/// from one region into the other: a run of `len` cell pairs along the
/// shared sector border, starting with `from` (in the source region) next
/// to `to` (in the target region). A crossing at a sector corner is a
/// single diagonal pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Estimated cost from the source region's representative, through the
    /// middle of the run, to the target's (octile legs; see
    /// `ARCHITECTURE.md`).
    pub cost: f32,
    /// First crossing cell on the source side.
    pub from: Point,
    /// First crossing cell on the target side.
    pub to: Point,
    /// Number of cell pairs in the run.
    pub len: u32,
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

impl Link {
    /// The crossing runs as `(exit side, entry side)` when travelling from
    /// the edge's source region to its target (`forward`), or back.
    #[inline]
    pub fn crossing(&self, forward: bool) -> (Run, Run) {
        // A horizontal step between the sides means the border is vertical.
        let vertical = self.from.y == self.to.y;
        let a = Run {
            start: self.from,
            len: self.len,
            vertical,
        };
        let b = Run {
            start: self.to,
            len: self.len,
            vertical,
        };
        if forward {
            (a, b)
        } else {
            (b, a)
        }
    }
}

/// What a build produced and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildStats {
    /// Cells in the grid.
    pub cells: u64,
    /// Sectors.
    pub sectors: usize,
    /// Regions.
    pub regions: usize,
    /// Region-graph edges.
    pub edges: usize,
    /// Top-level clusters the connectivity matrix is built over.
    pub clusters: usize,
    /// Bytes held by the hierarchy (regions, graph, connectivity).
    pub bytes: usize,
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
    pub(crate) graph: UnGraph<(), Link>,
    pub(crate) connectivity: Connectivity,
    /// Query-time copy of the graph's adjacency in compressed rows: the
    /// neighbours of region `r` are `adj[adj_start[r]..adj_start[r + 1]]`.
    /// Walking petgraph's linked edge lists cost about three times as much
    /// in the abstract search.
    pub(crate) adj_start: Vec<u32>,
    pub(crate) adj: Vec<Adjacent>,
    pub(crate) build_ms: f64,
}

/// One entry of the compressed adjacency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Adjacent {
    pub region: u32,
    pub cost: f32,
    /// Index of the petgraph edge (for its crossing).
    pub edge: u32,
}

/// Builds the compressed adjacency of `graph`.
pub(crate) fn compress(graph: &UnGraph<(), Link>) -> (Vec<u32>, Vec<Adjacent>) {
    let n = graph.node_count();
    let mut degree = vec![0u32; n + 1];
    for e in graph.raw_edges() {
        degree[e.source().index()] += 1;
        degree[e.target().index()] += 1;
    }
    let mut start = Vec::with_capacity(n + 1);
    let mut acc = 0u32;
    for d in &degree[..n] {
        start.push(acc);
        acc += d;
    }
    start.push(acc);
    let mut fill = start.clone();
    let mut adj = vec![
        Adjacent {
            region: 0,
            cost: 0.0,
            edge: 0,
        };
        acc as usize
    ];
    for (i, e) in graph.raw_edges().iter().enumerate() {
        let (a, b) = (e.source().index(), e.target().index());
        adj[fill[a] as usize] = Adjacent {
            region: b as u32,
            cost: e.weight.cost,
            edge: i as u32,
        };
        fill[a] += 1;
        adj[fill[b] as usize] = Adjacent {
            region: a as u32,
            cost: e.weight.cost,
            edge: i as u32,
        };
        fill[b] += 1;
    }
    (start, adj)
}

/// Per-sector result of the first build pass.
pub(crate) struct SectorData {
    pub regions: Vec<Region>,
    /// Labels along the four borders: top row, bottom row, left column,
    /// right column.
    pub top: Vec<u16>,
    pub bottom: Vec<u16>,
    pub left: Vec<u16>,
    pub right: Vec<u16>,
}

pub(crate) fn sector_data(grid: &Grid, layout: &Layout, s: u32, lab: &mut Labeler) -> SectorData {
    let rect = layout.rect(s);
    let n = lab.label(grid, rect) as usize;
    let w = rect.width() as usize;
    let h = rect.height() as usize;
    // Sums for centroids and bounding boxes.
    let mut acc = vec![(0u64, 0u64, 0u32, u32::MAX, u32::MAX, 0u32, 0u32); n];
    for y in 0..h {
        for x in 0..w {
            let l = lab.labels[y * w + x];
            if l == 0 {
                continue;
            }
            let a = &mut acc[l as usize - 1];
            a.0 += x as u64;
            a.1 += y as u64;
            a.2 += 1;
            a.3 = a.3.min(x as u32);
            a.4 = a.4.min(y as u32);
            a.5 = a.5.max(x as u32);
            a.6 = a.6.max(y as u32);
        }
    }
    // Representative: the region's cell nearest its centroid.
    let mut best = vec![(u64::MAX, 0u32, 0u32); n];
    for y in 0..h {
        for x in 0..w {
            let l = lab.labels[y * w + x];
            if l == 0 {
                continue;
            }
            let a = &acc[l as usize - 1];
            let c = a.2 as i64;
            // Compare c²·distance² in integers.
            let dx = x as i64 * c - a.0 as i64;
            let dy = y as i64 * c - a.1 as i64;
            let d = (dx * dx + dy * dy) as u64;
            let b = &mut best[l as usize - 1];
            if d < b.0 {
                *b = (d, x as u32, y as u32);
            }
        }
    }
    let regions = acc
        .iter()
        .zip(&best)
        .map(|(a, b)| Region {
            sector: s,
            representative: Point::new(rect.x0 + b.1, rect.y0 + b.2),
            cells: a.2,
            min: Point::new(rect.x0 + a.3, rect.y0 + a.4),
            max: Point::new(rect.x0 + a.5, rect.y0 + a.6),
        })
        .collect();
    let l = &lab.labels;
    SectorData {
        regions,
        top: l[..w].to_vec(),
        bottom: l[(h - 1) * w..].to_vec(),
        left: (0..h).map(|y| l[y * w]).collect(),
        right: (0..h).map(|y| l[y * w + w - 1]).collect(),
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
    let mut link = Link {
        cost: 0.0,
        from: ca,
        to: cb,
        len,
    };
    let (ra, rb) = link.crossing(true);
    let w = octile(regions[a as usize].representative, ra.mid())
        + step
        + octile(rb.mid(), regions[b as usize].representative);
    link.cost = w as f32;
    // Edges of one sector pair are few: a linear scan of them suffices.
    for e in edges[base..].iter_mut() {
        if e.0 == a && e.1 == b {
            if link.cost < e.2.cost {
                e.2 = link;
            }
            return;
        }
    }
    edges.push((a, b, link));
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
        let other = data(t);
        let base = edges.len();
        let mut y = 0usize;
        let h = me.right.len();
        while y < h {
            let (a, b) = (me.right[y], other.left[y]);
            if a == 0 || b == 0 {
                y += 1;
                continue;
            }
            let start = y;
            while y < h && me.right[y] == a && other.left[y] == b {
                y += 1;
            }
            let y0 = r.y0 + start as u32;
            offer(
                edges,
                base,
                regions,
                id(s, a),
                id(t, b),
                Point::new(r.x1 - 1, y0),
                Point::new(r.x1, y0),
                (y - start) as u32,
                1.0,
            );
        }
    }
    if sy + 1 < layout.sectors_y {
        // South.
        let t = s + layout.sectors_x;
        let other = data(t);
        let base = edges.len();
        let w = me.bottom.len();
        let mut x = 0usize;
        while x < w {
            let (a, b) = (me.bottom[x], other.top[x]);
            if a == 0 || b == 0 {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && me.bottom[x] == a && other.top[x] == b {
                x += 1;
            }
            let x0 = r.x0 + start as u32;
            offer(
                edges,
                base,
                regions,
                id(s, a),
                id(t, b),
                Point::new(x0, r.y1 - 1),
                Point::new(x0, r.y1),
                (x - start) as u32,
                1.0,
            );
        }
        // South-east corner: (x1-1, y1-1) -> (x1, y1).
        if sx + 1 < layout.sectors_x {
            let t = s + layout.sectors_x + 1;
            let a = *me.bottom.last().unwrap_or(&0);
            let b = data(t).top[0];
            let (ca, cb) = (Point::new(r.x1 - 1, r.y1 - 1), Point::new(r.x1, r.y1));
            if a != 0
                && b != 0
                && grid.is_passable(Point::new(r.x1, r.y1 - 1))
                && grid.is_passable(Point::new(r.x1 - 1, r.y1))
            {
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
        // South-west corner: (x0, y1-1) -> (x0-1, y1).
        if sx > 0 {
            let t = s + layout.sectors_x - 1;
            let a = me.bottom[0];
            let b = *data(t).top.last().unwrap_or(&0);
            let (ca, cb) = (Point::new(r.x0, r.y1 - 1), Point::new(r.x0 - 1, r.y1));
            if a != 0
                && b != 0
                && grid.is_passable(Point::new(r.x0 - 1, r.y1 - 1))
                && grid.is_passable(Point::new(r.x0, r.y1))
            {
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
    }
}

impl Hierarchy {
    /// Preprocesses `grid`.
    pub fn build(grid: &Grid, config: &HierarchyConfig) -> Result<Hierarchy, HierarchyError> {
        let t0 = Instant::now();
        if !(4..=256).contains(&config.sector_size) {
            return Err(HierarchyError::BadConfig(format!(
                "sector_size {} is outside 4..=256",
                config.sector_size
            )));
        }
        let layout = Layout::new(grid.width(), grid.height(), config.sector_size);
        let n = layout.count() as u32;
        let data: Vec<SectorData> = if config.parallel {
            (0..n)
                .into_par_iter()
                .map_init(Labeler::default, |lab, s| {
                    sector_data(grid, &layout, s, lab)
                })
                .collect()
        } else {
            let mut lab = Labeler::default();
            (0..n)
                .map(|s| sector_data(grid, &layout, s, &mut lab))
                .collect()
        };
        let mut h = Hierarchy::assemble(grid, layout, &data, config.parallel);
        h.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(h)
    }

    /// Builds the global arrays, graph and connectivity from per-sector data.
    pub(crate) fn assemble(
        grid: &Grid,
        layout: Layout,
        data: &[SectorData],
        parallel: bool,
    ) -> Hierarchy {
        let mut first_region = Vec::with_capacity(data.len() + 1);
        let mut total = 0u32;
        for d in data {
            first_region.push(total);
            total += d.regions.len() as u32;
        }
        first_region.push(total);
        let regions: Vec<Region> = data
            .iter()
            .flat_map(|d| d.regions.iter().copied())
            .collect();
        let n = data.len() as u32;
        let edge_lists: Vec<EdgeList> = if parallel {
            (0..n)
                .into_par_iter()
                .map(|s| {
                    let mut e = Vec::new();
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
                })
                .collect()
        } else {
            (0..n)
                .map(|s| {
                    let mut e = Vec::new();
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
                })
                .collect()
        };
        let edge_count: usize = edge_lists.iter().map(|e| e.len()).sum();
        let mut graph = UnGraph::<(), Link>::with_capacity(regions.len(), edge_count);
        for _ in 0..regions.len() {
            graph.add_node(());
        }
        for list in &edge_lists {
            for &(a, b, w) in list {
                graph.add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), w);
            }
        }
        let connectivity = Connectivity::build(&layout, &regions, &graph, grid.cell_count());
        let (adj_start, adj) = compress(&graph);
        Hierarchy {
            layout,
            grid_checksum: grid.checksum(),
            first_region,
            regions,
            graph,
            connectivity,
            adj_start,
            adj,
            build_ms: 0.0,
        }
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
    pub fn graph(&self) -> &UnGraph<(), Link> {
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
    /// bounds). Labels the cell's sector: O(sector area).
    pub fn region_of(&self, grid: &Grid, p: Point) -> Option<u32> {
        let mut lab = Labeler::default();
        self.region_of_with(grid, p, &mut lab)
    }

    pub(crate) fn region_of_with(&self, grid: &Grid, p: Point, lab: &mut Labeler) -> Option<u32> {
        if !grid.is_passable(p) || p.x >= self.layout.width || p.y >= self.layout.height {
            return None;
        }
        let s = self.layout.sector_of(p);
        let rect = self.layout.rect(s);
        lab.label(grid, rect);
        let l = lab.labels[rect.local(p)];
        (l != 0).then(|| self.first_region[s as usize] + l as u32 - 1)
    }

    pub(crate) fn sector_rect(&self, s: u32) -> Rect {
        self.layout.rect(s)
    }

    /// Build statistics, including bytes held.
    pub fn stats(&self) -> BuildStats {
        let node_bytes = self.graph.node_count() * (std::mem::size_of::<u32>() * 2);
        let edge_bytes = self.graph.edge_count()
            * (std::mem::size_of::<Link>() + 4 * std::mem::size_of::<u32>());
        let bytes = std::mem::size_of::<Self>()
            + self.first_region.len() * 4
            + self.regions.len() * std::mem::size_of::<Region>()
            + node_bytes
            + edge_bytes
            + self.connectivity.bytes()
            + self.adj_start.len() * 4
            + self.adj.len() * std::mem::size_of::<Adjacent>();
        BuildStats {
            cells: self.layout.width as u64 * self.layout.height as u64,
            sectors: self.layout.count(),
            regions: self.regions.len(),
            edges: self.graph.edge_count(),
            clusters: self.connectivity.cluster_count(),
            bytes,
            build_ms: self.build_ms,
        }
    }

    /// The edges as `(a, b, link)` sorted by `(a, b)` (`a` is the source,
    /// always the lower id): for comparisons and tools.
    pub fn edge_list(&self) -> Vec<(u32, u32, Link)> {
        let mut v: Vec<_> = self
            .graph
            .edge_references()
            .map(|e| {
                (
                    e.source().index() as u32,
                    e.target().index() as u32,
                    *e.weight(),
                )
            })
            .collect();
        v.sort_by(|x, y| {
            (x.0, x.1)
                .cmp(&(y.0, y.1))
                .then(x.2.cost.total_cmp(&y.2.cost))
        });
        v
    }
}
