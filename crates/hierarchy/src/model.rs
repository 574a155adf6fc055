//! The hierarchy's data model: [`Hierarchy`] and its read-only accessors.
//! Everything here is built by [`crate::build`], kept current by
//! [`crate::update`], stored by [`crate::persist`] and read by
//! [`crate::query`].

use crate::config::HierarchyConfig;
use crate::derived::{Blocks, Connectivity, Landmarks, SealedSectors};
use crate::graph::{Link, Region, RegionGraph, RegionId};
use crate::portal::Portals;
use crate::sector::{Labeler, Layout, Rect};
use regionpath_grid::{Grid, Point};

/// What a build produced and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildStats {
    /// Cells in the grid.
    pub cells: u64,
    /// Side of the sectors in cells (may exceed the configured size: see
    /// [`crate::HierarchyConfig::get_fit_memory`]).
    pub sector_size: u32,
    /// Sectors.
    pub sectors: usize,
    /// Regions (only those with a move out of their sector: see
    /// [`Hierarchy::region_of`]); region ids, retired ones included, after
    /// a local update.
    pub regions: usize,
    /// Region-graph edges.
    pub edges: usize,
    /// Clusters: the connected pieces of the region graph inside each
    /// super-sector (a partial path from a closed one scans only its
    /// super-sector).
    pub clusters: usize,
    /// Abstraction levels above the regions (0 below 32,768 regions; see
    /// [`crate::PlannerConfig::get_levels_from`]).
    pub levels: usize,
    /// Nodes of the top abstraction level (0 without levels).
    pub top_nodes: usize,
    /// Landmarks of the abstract search's heuristic (see
    /// [`crate::HierarchyConfig::get_fit_memory`]); after a local
    /// [`Hierarchy::update`], those its repair kept (see there).
    pub landmarks: usize,
    /// Bytes held by the hierarchy (regions, graph, connectivity,
    /// landmark distances, block-cut tree, sector digests, portal layer,
    /// and a movement profile's data).
    pub bytes: usize,
    /// Portals of the exact portal layer (0: not built; see
    /// [`crate::PortalMode`]).
    pub portals: usize,
    /// Bytes of the portal layer (included in `bytes`).
    pub portal_bytes: usize,
    /// Bytes of the movement profile's data: its view of the grid (usable
    /// positions, cost classes) and the leg searches' block tables
    /// (included in `bytes`; 0 without a profile).
    pub profile_bytes: usize,
    /// Wall time of the build, load or last update, in milliseconds.
    pub build_ms: f64,
}

/// The preprocessed hierarchy of one grid. Immutable during queries and
/// `Sync`: share one between threads, give each thread its own
/// [`crate::CellPlanner`].
#[derive(Clone, Debug)]
pub struct Hierarchy {
    pub(crate) layout: Layout,
    pub(crate) grid_checksum: u64,
    /// `first_region[s]` is the first of sector `s`'s regions, which are
    /// contiguous and in the order of their first cells (sealed pieces have
    /// none); they end at `first_region[s + 1]` while `region_end` is empty
    /// (a build, a load, [`Hierarchy::refresh`]), else at `region_end[s]`
    /// (see [`Hierarchy::sector_regions`]).
    pub(crate) first_region: Vec<u32>,
    /// Per sector, the end of its regions, once a local update has moved a
    /// sector's regions to the end of the table or shortened them; empty
    /// while the table is in sector order with no gaps.
    pub(crate) region_end: Vec<u32>,
    /// Set by a local update ([`Hierarchy::update`]): ids may have gaps
    /// (retired regions, with no cells and no edges) and the route
    /// accelerators are off (no landmarks, no block-cut tree) until
    /// [`Hierarchy::refresh`].
    pub(crate) loose: bool,
    pub(crate) regions: Vec<Region>,
    pub(crate) graph: RegionGraph,
    pub(crate) connectivity: Connectivity,
    pub(crate) landmarks: Landmarks,
    /// Biconnected blocks of `graph` (see [`crate::derived::blocks`]).
    pub(crate) blocks: Blocks,
    /// Sectors with passable cells in no region (see
    /// [`crate::derived::sealed`]).
    pub(crate) sealed: SealedSectors,
    /// The exact portal layer, where it was built (see [`crate::PortalMode`]).
    pub(crate) portals: Option<Portals>,
    pub(crate) build_ms: f64,
    /// The settings it was built with: kept by update, save and load (the
    /// sector size chosen is `layout.size`).
    pub(crate) config: HierarchyConfig,
    /// [`crate::sector::digests`] of the grid it was built or updated for
    /// (an update renews the edited sectors'): how [`Hierarchy::update`]
    /// finds edited cells where the grid's journal does not reach back.
    /// Rebuilt on load, never stored.
    pub(crate) digests: Vec<u64>,
    /// Names this state of the hierarchy: fresh on every build, load and
    /// update, kept by `clone` (a clone is the same state). Lazy queries
    /// record it ([`crate::Query`]).
    pub(crate) stamp: u64,
    /// Names the hierarchy across its states: fresh on every build and
    /// load, kept by update and `clone`. A lazy query started on one state
    /// repairs itself on a later state of the same lineage and is refused
    /// by another hierarchy.
    pub(crate) lineage: u64,
    /// [`Grid::revision`] of the grid the hierarchy was last built,
    /// loaded, updated or attached for: a query with a grid of another
    /// revision is refused in O(1).
    pub(crate) grid_revision: u64,
    /// The latest local updates, oldest first (at most [`CHANGE_LOG`]):
    /// per update the stamps before and after and the sectors whose
    /// regions or links it may have changed (sorted). A lazy query planned
    /// on an earlier state continues without a repair when its route keeps
    /// off all of them ([`Hierarchy::changes_since`]). Emptied by builds,
    /// loads and [`Hierarchy::refresh`] (which renumber regions).
    pub(crate) changes: std::collections::VecDeque<Change>,
    /// The movement profile and its view of the grid, for a hierarchy
    /// built with [`Hierarchy::build_with_profile`] (see
    /// [`crate::profiled`]); shared by clones.
    pub(crate) profile: Option<std::sync::Arc<crate::profile::ProfileData>>,
}

/// How many local updates [`Hierarchy::changes`] remembers.
pub(crate) const CHANGE_LOG: usize = 64;

/// One local update in [`Hierarchy::changes`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Change {
    /// The stamp before the update and after it.
    pub from: u64,
    pub to: u64,
    /// Sectors whose regions or links the update may have changed, sorted.
    pub sectors: Vec<u32>,
}

/// A stamp never handed out before in this process (0 is never used).
pub(crate) fn next_stamp() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The stamp of the state an update or refresh makes from state `from`:
/// a hash of `from` and `words` (what the step read: the edited cells and
/// their terrain), top bit set so it never equals a [`next_stamp`]. Two
/// copies of one state given the same edits reach the same state (updates
/// are deterministic) and the same stamp, so a query planned on one
/// carries over on the other (double-buffered worlds); different edits
/// give different stamps, up to 64-bit hash collisions.
pub(crate) fn derived_stamp(from: u64, words: impl IntoIterator<Item = u64>) -> u64 {
    // SplitMix64's finaliser, chained.
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut h = mix(from ^ 0x9e37_79b9_7f4a_7c15);
    for w in words {
        h = mix(h ^ w.wrapping_add(0x9e37_79b9_7f4a_7c15));
    }
    h | 1 << 63
}

impl Hierarchy {
    /// Width of the grid this hierarchy was built for.
    pub fn width(&self) -> u32 {
        self.layout.width
    }

    /// Height of the grid this hierarchy was built for.
    pub fn height(&self) -> u32 {
        self.layout.height
    }

    /// The profile this hierarchy was built for (`None`: the map's own
    /// passability, every step costing its length).
    pub fn profile(&self) -> Option<&regionpath_grid::Profile> {
        self.profile.as_deref().map(|d| &d.profile)
    }

    /// The profile's view of the grid the hierarchy serves (`None` without
    /// a profile): its usable positions and cost classes.
    pub fn profile_view(&self) -> Option<&regionpath_grid::ProfileGrid> {
        self.profile.as_deref().map(|d| &d.view)
    }

    /// The grid the hierarchy's cells live on for a query given `grid`: the
    /// profile's position grid when `grid` is the map it serves, else
    /// `grid` itself (without a profile, or for a grid it does not serve,
    /// which the query's revision check then refuses). O(1).
    pub(crate) fn search_grid<'a>(&'a self, grid: &'a Grid) -> &'a Grid {
        match self.profile.as_deref() {
            Some(d) if grid.revision() == self.grid_revision => d.view.grid(),
            _ => grid,
        }
    }

    /// The view and step table where the profile's costs differ.
    pub(crate) fn weights(
        &self,
    ) -> Option<(&regionpath_grid::ProfileGrid, &regionpath_search::StepTable)> {
        let d = self.profile.as_deref()?;
        Some((&d.view, d.tables.table.as_ref()?))
    }

    /// The cheapest cost class of a usable position in `win` (0 without a
    /// profile or where costs are uniform): the floor of the leg searches'
    /// heuristic ([`regionpath_search::StepTable::octile_from`]). O(16-cell
    /// blocks the window touches).
    pub(crate) fn window_floor(&self, win: regionpath_search::Window) -> u8 {
        match self.profile.as_deref() {
            Some(d) => d.window_floor(win.x, win.y, win.width, win.height),
            None => 0,
        }
    }

    /// The heuristic of a leg search confined to `win` under a profile
    /// whose costs differ ([`crate::profile::LegHeuristic`]); `None`
    /// without a profile or where costs are uniform.
    pub(crate) fn leg_heuristic(
        &self,
        win: regionpath_search::Window,
    ) -> Option<crate::profile::LegHeuristic<'_>> {
        self.profile
            .as_deref()?
            .leg_heuristic(win.x, win.y, win.width, win.height)
    }

    /// The lower bound of a step's cost per unit of length: the cheapest
    /// position's cost where costs differ, else 1 (uniform costs are
    /// searched in steps and priced at the end).
    pub(crate) fn cost_floor(&self) -> f32 {
        match self.profile.as_deref() {
            Some(d) if d.tables.table.is_some() => d.floor() as f32,
            _ => 1.0,
        }
    }

    /// The cost of a path of cells (or positions) under the hierarchy's
    /// profile: 1 per straight step and √2 per diagonal without one.
    pub(crate) fn path_cost(&self, cells: &[Point]) -> f64 {
        match self.profile.as_deref() {
            Some(d) => regionpath_search::weighted_path_cost(&d.view, cells),
            None => crate::profile::plain_path_cost(cells),
        }
    }

    /// Sector side in cells.
    pub fn sector_size(&self) -> u32 {
        self.layout.size
    }

    /// The settings it was built with (as given: the sector size used is
    /// [`Hierarchy::sector_size`]). Kept by [`Hierarchy::update`], which
    /// applies their memory rule again, and stored in `.rph` files.
    pub fn config(&self) -> &HierarchyConfig {
        &self.config
    }

    /// The regions, by id. After a local [`Hierarchy::update`] some ids
    /// may be retired (a region with no cells and no edges) until
    /// [`Hierarchy::refresh`].
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The regions next to `r` in the region graph, each with the link
    /// from `r` to it (oriented away from `r`), by ascending id. O(degree).
    pub fn neighbours(&self, r: RegionId) -> impl Iterator<Item = (RegionId, &Link)> + '_ {
        let row = (r.index() < self.graph.node_count()).then_some(r.get());
        row.into_iter().flat_map(move |a| {
            self.graph
                .neighbors_slice(a)
                .iter()
                .zip(self.graph.edges_slice(a))
                .map(|(&b, l)| (RegionId::new(b), l))
        })
    }

    /// The checksum of the grid it was built from ([`Grid::checksum`]).
    pub fn grid_checksum(&self) -> u64 {
        self.grid_checksum
    }

    /// The stamp of this state of the hierarchy: fresh on every build and
    /// load, new after every update and refresh, equal between a hierarchy
    /// and its clone, and equal between two clones given the same updates
    /// (the same cells edited to the same terrain, in the same order: they
    /// reach the same state). A lazy query started on one state carries
    /// over or replans on the next leg asked on another state of the same
    /// [`Hierarchy::lineage`].
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// The lineage of this hierarchy: fresh on every build and load, kept by
    /// [`Hierarchy::update`] and by `clone` (so a snapshot cloned, updated
    /// and published keeps it). A lazy [`crate::Query`] started on one
    /// state of a lineage repairs itself on any later state of it; another
    /// lineage refuses it with [`crate::PlanError::QueryMismatch`].
    pub fn lineage(&self) -> u64 {
        self.lineage
    }

    /// The sector lists of the local updates from state `stamp` to this
    /// one, in order, when every one of them is remembered (`None` for a
    /// state before a build, load, refresh or the log's reach). Empty for
    /// `stamp` = this state.
    pub(crate) fn changes_since(&self, stamp: u64) -> Option<impl Iterator<Item = &[u32]> + '_> {
        let first = if stamp == self.stamp {
            self.changes.len()
        } else {
            self.changes.iter().position(|c| c.from == stamp)?
        };
        let chained = self
            .changes
            .range(first..)
            .zip(self.changes.range(first..).skip(1))
            .all(|(a, b)| a.to == b.from);
        let reaches = self
            .changes
            .range(first..)
            .next_back()
            .map_or(stamp, |c| c.to);
        (chained && reaches == self.stamp)
            .then(|| self.changes.range(first..).map(|c| &c.sectors[..]))
    }

    /// Records a local update from state `from` to this one that may have
    /// changed the regions and links of `sectors`.
    pub(crate) fn log_change(&mut self, from: u64, sectors: Vec<u32>) {
        if self.changes.len() == CHANGE_LOG {
            self.changes.pop_front();
        }
        self.changes.push_back(Change {
            from,
            to: self.stamp,
            sectors,
        });
    }

    /// Whether queries with `grid` are served: its [`Grid::revision`] is
    /// the one this hierarchy was built, loaded, updated or attached for.
    /// O(1); every query checks it.
    pub fn is_current_for(&self, grid: &Grid) -> bool {
        let revision = grid.revision();
        let view = self
            .profile
            .as_deref()
            .is_some_and(|d| d.view.grid().revision() == revision);
        (revision == self.grid_revision || view)
            && grid.width() == self.layout.width
            && grid.height() == self.layout.height
    }

    /// Binds the hierarchy to `grid`, another `Grid` value with the same
    /// cells (for example the same map read again): checks the size and
    /// checksum (O(1) once the grid's checksum is known, else O(cells /
    /// 64)) and records `grid`'s revision, so that queries
    /// with it are served. Fails with [`crate::HierarchyError::WrongGrid`]
    /// when the cells differ (then [`Hierarchy::update`] or a rebuild is
    /// needed).
    pub fn attach(&mut self, grid: &Grid) -> Result<(), crate::HierarchyError> {
        if !self.matches(grid) {
            return Err(crate::HierarchyError::WrongGrid {
                found: self.grid_checksum,
                expected: grid.checksum(),
            });
        }
        self.grid_revision = grid.revision();
        Ok(())
    }

    /// Whether `grid` is the grid this hierarchy was built for (size and
    /// checksum: [`Grid::checksum`], O(1) once known). With a profile the
    /// checksum covers the terrain kinds ([`Grid::terrain_checksum`],
    /// O(cells)).
    pub fn matches(&self, grid: &Grid) -> bool {
        let checksum = if self.profile.is_some() {
            grid.terrain_checksum()
        } else {
            grid.checksum()
        };
        grid.width() == self.layout.width
            && grid.height() == self.layout.height
            && checksum == self.grid_checksum
    }

    /// Whether two regions are connected: their component labels are
    /// equal. O(1); exact after every [`Hierarchy::update`]. False for a
    /// retired id.
    pub fn regions_connected(&self, a: RegionId, b: RegionId) -> bool {
        self.connectivity.connected(a.get(), b.get())
    }

    /// The region containing cell `p`: `None` if `p` is blocked, out of
    /// bounds, or *sealed*: passable but in no region. The build keeps only
    /// regions with a legal move out of their sector (those with an edge in
    /// the region graph); a sealed cell's piece of its sector is closed off,
    /// so it reaches exactly the cells of that piece (queries answer it
    /// within the sector: see [`crate::CellPlanner::find_path_into`]).
    /// O(regions in the sector) when one region's bounding box holds `p`
    /// and the sector has no sealed cells, else O(regions in the sector +
    /// cells of `p`'s piece of the sector).
    pub fn region_of(&self, grid: &Grid, p: Point) -> Option<RegionId> {
        let grid = self.search_grid(grid);
        let mut lab = Labeler::default();
        self.region_of_with(grid, p, &mut lab).map(RegionId::new)
    }

    pub(crate) fn region_of_with(&self, grid: &Grid, p: Point, lab: &mut Labeler) -> Option<u32> {
        if !grid.is_passable(p) || p.x >= self.layout.width || p.y >= self.layout.height {
            return None;
        }
        let s = self.layout.sector_of(p);
        let range = self.sector_regions(s);
        let (lo, hi) = (range.start, range.end);
        let inside = |r: &u32| {
            let (a, b) = (self.regions[*r as usize].min, self.regions[*r as usize].max);
            (a[0] as u32..=b[0] as u32).contains(&p.x) && (a[1] as u32..=b[1] as u32).contains(&p.y)
        };
        let sealed = self.sealed.contains(s);
        let mut candidates = (lo..hi).filter(inside);
        match (candidates.next(), candidates.next()) {
            // No region's box holds `p`: it is in no region, a sealed
            // piece. In a sector without sealed pieces every passable cell
            // is in a box, unless a loaded file's boxes contradict its grid
            // (the load checks their union, not each box): labelled below.
            (None, _) if sealed => return None,
            // Usually one region of the sector has `p` in its bounding box:
            // where every passable cell of the sector is in a region, that
            // one holds it, no labelling needed (on 8room_000 and the
            // random maps labelling was 11-20% of the time to the first
            // leg).
            (Some(r), None) if !sealed => return Some(r),
            _ => {}
        }
        // Several boxes hold `p`, or `p` may be sealed: flood `p`'s
        // component in the sector until it reaches one candidate's
        // representative. Each representative is a cell of its own region
        // and regions are components of the sector, so the one reached is
        // `p`'s region (on maze512-1 this floods part of one region instead
        // of labelling all of the sector's cells); none reached: `p`'s
        // component is no region, a sealed one (flooded whole: it is small
        // where it matters, one cell on a checkerboard).
        let rect = self.layout.rect(s);
        let reps = (lo..hi)
            .filter(inside)
            .map(|r| (self.regions[r as usize].representative(), r));
        if let Some(r) = lab.reach(grid, rect, p, reps) {
            return Some(r);
        }
        if sealed {
            return None;
        }
        // Unreachable for a hierarchy that matches `grid` (`p`'s region is
        // a candidate); label the sector as a fallback: `p`'s region is the
        // one whose representative carries its label.
        lab.label(grid, rect);
        let l = lab.labels[rect.local(p)];
        (lo..hi).find(|&r| {
            let rep = self.regions[r as usize].representative();
            l != 0 && rect.contains(rep) && lab.labels[rect.local(rep)] == l
        })
    }

    /// The ids of sector `s`'s regions, in the order of their first cells.
    /// O(1).
    #[inline]
    pub(crate) fn sector_regions(&self, s: u32) -> std::ops::Range<u32> {
        let s = s as usize;
        let lo = self.first_region.get(s).copied().unwrap_or(0);
        let hi = match self.region_end.get(s) {
            Some(&e) => e,
            None if self.region_end.is_empty() => {
                self.first_region.get(s + 1).copied().unwrap_or(lo)
            }
            None => lo,
        };
        lo..hi.max(lo)
    }

    pub(crate) fn sector_rect(&self, s: u32) -> Rect {
        self.layout.rect(s)
    }

    /// Bytes held (as [`Hierarchy::stats`] counts them, portal layer and
    /// profile data excluded) were the landmarks `count` instead of the ones built.
    pub(crate) fn bytes_with_landmarks(&self, count: usize) -> u64 {
        let st = self.stats();
        let held = st.bytes - st.portal_bytes - st.profile_bytes;
        let k = count.min(self.regions.len());
        (held - self.landmarks.bytes() + self.regions.len() * k * 2) as u64
    }

    /// Build statistics, including bytes held.
    pub fn stats(&self) -> BuildStats {
        let n = self.graph.node_count();
        let directed = 2 * self.graph.edge_count() + self.graph.dead();
        let graph_bytes = (n + 1) * std::mem::size_of::<usize>()
            + directed * (std::mem::size_of::<u32>() + std::mem::size_of::<Link>());
        let bytes = std::mem::size_of::<Self>()
            + self.first_region.len() * 4
            + self.region_end.len() * 4
            + self.digests.len() * 8
            + self.regions.len() * std::mem::size_of::<Region>()
            + graph_bytes
            + self.connectivity.bytes()
            + self.landmarks.bytes()
            + self.blocks.bytes()
            + self.sealed.bytes();
        let portal_bytes = self.portals.as_ref().map_or(0, Portals::bytes);
        let profile_bytes = self
            .profile
            .as_deref()
            .map_or(0, crate::profile::ProfileData::bytes);
        BuildStats {
            portals: self.portals.as_ref().map_or(0, Portals::len),
            portal_bytes,
            cells: self.layout.width as u64 * self.layout.height as u64,
            sector_size: self.layout.size,
            sectors: self.layout.count(),
            regions: self.regions.len(),
            edges: self.graph.edge_count(),
            clusters: self.connectivity.cluster_count(),
            levels: self.connectivity.levels.levels.len(),
            top_nodes: self
                .connectivity
                .levels
                .levels
                .last()
                .map_or(0, |l| l.len()),
            landmarks: self.landmarks.live(),
            bytes: bytes + portal_bytes + profile_bytes,
            profile_bytes,
            build_ms: self.build_ms,
        }
    }

    /// Calls `f(a, b, link)` once per undirected edge, with `a < b` and the
    /// link oriented from `a`. O(edges).
    pub fn for_each_edge(&self, mut f: impl FnMut(RegionId, RegionId, &Link)) {
        self.each_edge(|a, b, l| f(RegionId::new(a), RegionId::new(b), l));
    }

    /// [`Hierarchy::for_each_edge`] with raw ids.
    pub(crate) fn each_edge(&self, mut f: impl FnMut(u32, u32, &Link)) {
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
    pub fn edge_list(&self) -> Vec<(RegionId, RegionId, Link)> {
        let mut v = Vec::new();
        self.for_each_edge(|a, b, l| v.push((a, b, *l)));
        v
    }
}

impl Hierarchy {
    /// Whether [`crate::PortalMode::Auto`] builds the exact portal layer on
    /// `grid`: the in-sector portal pairs number at most a quarter of the
    /// passable cells (narrow doors); on open ground they do not. Costs a
    /// count of portals per sector, no build.
    pub fn portal_layer_pays(grid: &Grid) -> bool {
        Portals::worth_building(grid)
    }
}
