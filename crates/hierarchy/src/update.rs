//! Local update after cells change ([`Hierarchy::update`]) and the
//! rebuild of what it leaves loose ([`Hierarchy::refresh`]).
//!
//! An update relabels the sectors holding edited cells, recomputes the
//! edges produced by those sectors and the ones around them, and keeps
//! every other region's id and edges. A sector whose regions changed takes
//! new regions in place when they are no more than it had (the surplus
//! ids retired: no cells, no edges) and at the end of the table otherwise
//! (all its old ids retired), so ids need not be dense until
//! [`Hierarchy::refresh`]. Reachability stays exact: the component labels
//! are repaired where edges went away (searches from the edges' ends, side
//! by side, until they meet or one side is exhausted and takes a new label:
//! O(the smaller side) for a split, O(the detour) otherwise) and where
//! edges came (the smaller component relabelled). The landmark bounds are
//! repaired outward from the links made again (`Landmarks::repair`: they
//! stay admissible and consistent; an opening lowers them where it
//! reaches, a new wall leaves them lower than a fresh build's). The
//! block-cut tree and the levels are switched off until a refresh rebuilds
//! them; the clusters are kept as they were (partial paths look at every
//! sector after an update instead of a closed cluster's).

use crate::build::sectors::{sector_data, sector_edges, EdgeList, SectorData, SectorScratch};
use crate::derived::connectivity::NONE;
use crate::derived::{Blocks, Connectivity, Landmarks};
use crate::graph::{region_graph, Link};
use crate::model::{BuildStats, Hierarchy};
use crate::profile::ProfileData;
use crate::HierarchyError;
use regionpath_grid::{Grid, Point};
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Instant;

impl Hierarchy {
    /// Brings the hierarchy up to date after cells of `grid` were edited
    /// (it must otherwise be the grid it was built for), **locally**: only
    /// the sectors holding edited cells are labelled again, only edges
    /// produced by them and their neighbours are recomputed (a diagonal
    /// edge across a sector corner depends on all four sectors there), and
    /// reachability is repaired around them. Cost: O(edited sectors) plus,
    /// where the edit changes reachability, the smaller of the pieces a
    /// region-graph component splits into or the smaller of two joined
    /// (and, where removed edges leave a component whole, the detour that
    /// shows it). On a 4096² map of 66,209 regions a one-cell or 16 × 16
    /// edit takes well under a millisecond at the median
    /// (`xtask updates`; see `ARCHITECTURE.md`).
    ///
    /// After it: regions and region-graph edges are those of a fresh build
    /// of `grid` (sector size pinned) but for their ids: a region that
    /// changed may have a new id at the end of the table, and retired ids
    /// (regions with no cells and no edges) may remain until
    /// [`Hierarchy::refresh`]; ids of unchanged regions are kept.
    /// [`Hierarchy::regions_connected`] is exact. The landmark bounds of
    /// the abstract search are repaired outward from the edit (admissible
    /// and consistent on the new graph; after a new wall, weaker than a
    /// fresh build's until a refresh). A landmark's repair settles at most
    /// a few hundred regions per update (plus four per touched region);
    /// one with work left gives no bound until a later update finishes it
    /// ([`BuildStats::landmarks`] counts those giving bounds). The
    /// block-cut tree and the levels are off until a refresh (the abstract
    /// search is not restricted, no route is claimed exact from the tree,
    /// large maps route over one level); queries stay valid and find a
    /// route whenever one exists. The portal layer, where built, redoes the
    /// sectors around the edited cells and stays exact.
    /// [`Hierarchy::to_bytes`] writes the refreshed hierarchy. The stamp is
    /// new, derived from the old one and the cells read (see
    /// [`Hierarchy::stamp`]): lazy queries of the old state carry over or
    /// replan.
    ///
    /// Retired ids and the graph's dead space are bounded: when the dead
    /// space exceeds twice the live edges (plus a constant), the update
    /// ends with a [`Hierarchy::refresh`] (amortised over the thousands of
    /// edits it takes on a large map).
    ///
    /// Edits cannot be forgotten: the cells edited since the revision the
    /// hierarchy was last built, loaded or updated for are read from the
    /// grid's journal ([`Grid::edits_since`], O(edits)), so `changed` may
    /// miss some or all of them. Where the journal does not reach back (a
    /// clone, a grid read again, more than [`regionpath_grid::JOURNAL_CAP`]
    /// edits) each sector's digest of its cells finds the edited sectors
    /// (one pass over the grid). Listing unedited cells costs time only.
    /// Errors (a grid of another size, a listed cell off the grid) leave
    /// the hierarchy as it was.
    pub fn update(&mut self, grid: &Grid, changed: &[Point]) -> Result<BuildStats, HierarchyError> {
        if let Some(data) = self.profile.clone() {
            return self.update_profiled(grid, changed, data);
        }
        let t0 = Instant::now();
        let layout = self.layout;
        if grid.width() != layout.width || grid.height() != layout.height {
            return Err(HierarchyError::GridMismatch(format!(
                "grid is {}x{}, hierarchy {}x{}",
                grid.width(),
                grid.height(),
                layout.width,
                layout.height
            )));
        }
        for &p in changed {
            if !grid.in_bounds(p) {
                return Err(HierarchyError::OutOfBounds(p));
            }
        }
        // The cells of sector `s` for the portal layer: one per 16 × 16
        // portal sector it overlaps, plus its far corner.
        let cover = |s: u32, out: &mut Vec<Point>| {
            let r = layout.rect(s);
            let step = crate::portal::SIDE as usize;
            for y in (r.y0..r.y1).step_by(step).chain([r.y1 - 1]) {
                for x in (r.x0..r.x1).step_by(step).chain([r.x1 - 1]) {
                    out.push(Point::new(x, y));
                }
            }
        };
        // Edited cells: listed, and from the journal (or the digests).
        let mut cells: Vec<Point> = changed.to_vec();
        let mut touched: BTreeSet<u32> = BTreeSet::new();
        match grid.edits_since(self.grid_revision) {
            Some(edits) => cells.extend_from_slice(edits),
            None => {
                let digests = crate::sector::digests(grid, &layout);
                for (s, (new, old)) in digests.iter().zip(&self.digests).enumerate() {
                    if new != old {
                        touched.insert(s as u32);
                        cover(s as u32, &mut cells);
                    }
                }
                self.digests = digests;
            }
        }
        touched.extend(cells.iter().map(|&p| layout.sector_of(p)));
        let ring = |s: u32| {
            let (sx, sy) = layout.coords(s);
            let (x0, y0) = (sx.saturating_sub(1), sy.saturating_sub(1));
            let (x1, y1) = (
                (sx + 1).min(layout.sectors_x - 1),
                (sy + 1).min(layout.sectors_y - 1),
            );
            (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| y * layout.sectors_x + x))
        };
        // `dirty`: sectors whose produced edges are recomputed: the
        // touched ones, those around them, and those around any sector
        // whose regions changed (its edges all change). `data`: fresh
        // labels of every sector a dirty one reads.
        let mut dirty: BTreeSet<u32> = touched.iter().flat_map(|&s| ring(s)).collect();
        let mut data: HashMap<u32, SectorData> = HashMap::new();
        let mut lab = SectorScratch::default();
        let mut moved: BTreeSet<u32>;
        loop {
            for &s in &dirty {
                for t in ring(s) {
                    data.entry(t)
                        .or_insert_with(|| sector_data(grid, &layout, t, &mut lab));
                }
            }
            moved = data
                .iter()
                .filter(|(&s, d)| {
                    d.regions[..] != self.regions[range_usize(self.sector_regions(s))]
                })
                .map(|(&s, _)| s)
                .collect();
            let before = dirty.len();
            dirty.extend(moved.iter().flat_map(|&s| ring(s)));
            if dirty.len() == before {
                break;
            }
        }
        // A sector whose regions changed with no edited cell nearby was
        // edited unseen (only if its digest collided): counted as touched.
        let near: HashSet<u32> = touched.iter().flat_map(|&s| ring(s)).collect();
        for &s in &moved {
            if !near.contains(&s) && touched.insert(s) {
                cover(s, &mut cells);
            }
        }
        // The new stamp: the old one and what was read (see
        // `derived_stamp`).
        let stamp = {
            let mut read: Vec<Point> = cells.clone();
            read.sort_unstable_by_key(|p| (p.y, p.x));
            read.dedup();
            let words = read.iter().map(|&p| {
                let t = grid.terrain(p).map_or(0, |t| t.to_char() as u64);
                u64::from(p.x) | u64::from(p.y) << 24 | t << 48
            });
            let whole = [grid.checksum()];
            crate::model::derived_stamp(self.stamp, whole.into_iter().chain(words))
        };
        if touched.is_empty() {
            // No cell edited: the same hierarchy for this revision.
            let from = self.stamp;
            self.stamp = stamp;
            self.log_change(from, Vec::new());
            self.grid_revision = grid.revision();
            self.build_ms = t0.elapsed().as_secs_f64() * 1e3;
            return Ok(self.stats());
        }
        // Past this point nothing fails: the hierarchy changes in place.
        if self.region_end.is_empty() {
            // The first local update after a build, load, refresh or clone
            // (whose tables hold no spare room): room for an eighth more
            // regions and rows, so that later updates seldom grow a table
            // (a 5 MB copy on a 4096² map).
            self.region_end = self.first_region[1..].to_vec();
            let spare = self.regions.len() / 8 + 64;
            self.regions.reserve(spare);
            self.graph.reserve(spare, 3 * spare);
            self.connectivity.component.reserve(spare);
        }
        for &s in &touched {
            if let Some(d) = self.digests.get_mut(s as usize) {
                *d = crate::sector::sector_digest(grid, &layout, s);
            }
        }
        let sector_of = |h: &Hierarchy, r: u32| h.regions[r as usize].sector();
        // Old edges produced by dirty sectors, as (a, b) with a < b when
        // both ends are in dirty sectors.
        let mut removed: Vec<(u32, u32)> = Vec::new();
        for &s in &dirty {
            for a in self.sector_regions(s) {
                for &b in self.graph.neighbors_slice(a) {
                    let sb = sector_of(self, b);
                    let producer = s.min(sb);
                    if dirty.contains(&producer) && (a < b || !dirty.contains(&sb)) {
                        removed.push((a, b));
                    }
                }
            }
        }
        // New places of the changed sectors' regions; `succ`: old id -> new
        // id of the same slot (`NONE`: retired).
        let mut succ: HashMap<u32, u32> = HashMap::new();
        let mut brand_new: Vec<u32> = Vec::new();
        for &s in &moved {
            let fresh = &data[&s].regions;
            let old = self.sector_regions(s);
            let k = fresh.len() as u32;
            if k <= old.len() as u32 {
                for (i, o) in old.clone().enumerate() {
                    let i = i as u32;
                    if i < k {
                        self.regions[o as usize] = fresh[i as usize];
                        succ.insert(o, o);
                    } else {
                        self.regions[o as usize] = self.regions[o as usize].retired();
                        succ.insert(o, NONE);
                    }
                }
                self.region_end[s as usize] = old.start + k;
            } else {
                let base = self.regions.len() as u32;
                for (i, o) in old.clone().enumerate() {
                    succ.insert(o, base + i as u32);
                    self.regions[o as usize] = self.regions[o as usize].retired();
                }
                self.regions.extend_from_slice(fresh);
                brand_new.extend(base + old.len() as u32..base + k);
                self.first_region[s as usize] = base;
                self.region_end[s as usize] = base + k;
            }
        }
        if let Some(last) = self.first_region.last_mut() {
            *last = self.regions.len() as u32;
        }
        let succ_of = |o: u32| succ.get(&o).copied().unwrap_or(o);
        // New edges produced by dirty sectors (in new ids).
        let mut added: EdgeList = Vec::new();
        {
            let lookup = |t: u32| -> &SectorData {
                // Every sector read by a dirty sector was labelled above.
                data.get(&t)
                    .expect("sector data prepared for dirty neighbours")
            };
            for &s in &dirty {
                sector_edges(
                    grid,
                    &layout,
                    s,
                    &lookup,
                    &self.first_region,
                    &self.regions,
                    &mut added,
                );
            }
        }
        // Rows: every end of a removed or added edge.
        let mut add_rows: HashMap<u32, Vec<(u32, Link)>> = HashMap::new();
        for &(a, b, l) in &added {
            add_rows.entry(a).or_default().push((b, l));
            add_rows.entry(b).or_default().push((a, l.reversed()));
        }
        let mut rows: BTreeSet<u32> = add_rows.keys().copied().collect();
        let mut emptied: BTreeSet<u32> = BTreeSet::new();
        for &(a, b) in &removed {
            for x in [a, b] {
                if succ_of(x) == x {
                    rows.insert(x);
                } else {
                    emptied.insert(x);
                }
            }
        }
        let mut new_rows: Vec<(u32, Vec<(u32, Link)>)> = Vec::with_capacity(rows.len());
        for &x in &rows {
            let sx = sector_of(self, x);
            let mut row: Vec<(u32, Link)> = self
                .graph
                .neighbors_slice(x)
                .iter()
                .zip(self.graph.edges_slice(x))
                .filter(|&(&b, _)| !dirty.contains(&sx.min(sector_of(self, b))))
                .map(|(&b, &l)| (b, l))
                .collect();
            if let Some(more) = add_rows.get(&x) {
                row.extend_from_slice(more);
            }
            row.sort_unstable_by_key(|e| e.0);
            row.dedup_by_key(|e| e.0);
            new_rows.push((x, row));
        }
        self.graph.grow(self.regions.len());
        for x in emptied {
            self.graph.set_row(x, &[]);
        }
        for (x, row) in &new_rows {
            self.graph.set_row(*x, row);
        }
        let edges = self.graph.edge_count() + added.len() - removed.len();
        self.graph.set_edge_count(edges);
        // Reachability.
        let norm = |a: u32, b: u32| (a.min(b), a.max(b));
        let mut seeds: Vec<u32> = Vec::new();
        // Pairs of the removed edges by new ids: `was`; those not made
        // again: `gone`.
        let mut was: HashSet<(u32, u32)> = HashSet::new();
        for &(a, b) in &removed {
            match (succ_of(a), succ_of(b)) {
                (NONE, NONE) => {}
                (NONE, x) | (x, NONE) => seeds.push(x),
                (x, y) => {
                    was.insert(norm(x, y));
                }
            }
        }
        let mut gone = was.clone();
        let now: HashSet<(u32, u32)> = added.iter().map(|&(a, b, _)| norm(a, b)).collect();
        let came: HashSet<(u32, u32)> = now.difference(&was).copied().collect();
        gone.retain(|e| !now.contains(e));
        for &(a, b) in &gone {
            seeds.extend([a, b]);
        }
        reconnect(
            &mut self.connectivity,
            &self.graph,
            &succ,
            &brand_new,
            &seeds,
            &came,
        );
        // Only touched sectors' cells and changed sectors' regions moved.
        for &s in touched.iter().chain(&moved) {
            let mine = range_usize(self.sector_regions(s));
            self.sealed.refresh(grid, &layout, &self.regions[mine], s);
        }
        if let Some(portals) = &mut self.portals {
            portals.update(grid, &cells);
        }
        // Landmark rows: forgotten where a region changed (its slot, new
        // or retired), lowered from the ends of every link made again.
        let mut reset: Vec<u32> = succ
            .iter()
            .filter(|(o, n)| o != n)
            .map(|(&o, _)| o)
            .collect();
        for &s in &moved {
            reset.extend(self.sector_regions(s));
        }
        let ends: Vec<u32> = added.iter().flat_map(|&(a, b, _)| [a, b]).collect();
        self.landmarks
            .repair(&self.graph, self.regions.len(), &reset, &ends);
        self.blocks = Blocks::default();
        self.loose = true;
        self.grid_checksum = grid.checksum();
        let from = self.stamp;
        self.stamp = stamp;
        // `dirty` holds the touched and changed sectors and every sector
        // whose links were produced again.
        self.log_change(from, dirty.iter().copied().collect());
        self.grid_revision = grid.revision();
        // Grown rows leave dead space (and changed sectors retired ids):
        // once it outweighs the live graph, the tables are laid out afresh
        // (a refresh: rare, after thousands of local edits on large maps).
        if self.graph.dead() > 2 * self.graph.edge_count() + 4096 {
            self.refresh();
        }
        self.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(self.stats())
    }

    /// Whether a local [`Hierarchy::update`] left the route accelerators
    /// off and region ids with gaps (see there); [`Hierarchy::refresh`]
    /// clears it. O(1).
    pub fn is_loose(&self) -> bool {
        self.loose
    }

    /// Rebuilds what local updates left loose: region ids dense again in
    /// sector order, the graph laid out afresh, the component labels and
    /// clusters, the block-cut tree and the landmarks (by the build's
    /// memory rule, [`crate::HierarchyConfig::fit_memory`]). Afterwards the
    /// hierarchy equals a fresh build of the grid of its last update (sector
    /// size and portal decision pinned), and saves the same bytes but for
    /// the build time. O(regions · landmarks · log regions), about a third
    /// of a full build, and nothing when not [`Hierarchy::is_loose`]: for a
    /// background thread (on a clone, swapped in) or idle frames. The stamp
    /// is new when anything changed (ids may have moved).
    pub fn refresh(&mut self) {
        if !self.loose {
            return;
        }
        let t0 = Instant::now();
        let n = self.layout.count();
        let mut remap = vec![NONE; self.regions.len()];
        let mut regions = Vec::with_capacity(self.regions.len());
        let mut first = Vec::with_capacity(n + 1);
        for s in 0..n as u32 {
            first.push(regions.len() as u32);
            for id in self.sector_regions(s) {
                remap[id as usize] = regions.len() as u32;
                regions.push(self.regions[id as usize]);
            }
        }
        first.push(regions.len() as u32);
        let mut edges: EdgeList = Vec::with_capacity(self.graph.edge_count());
        for a in 0..self.graph.node_count() as u32 {
            for (&b, l) in self
                .graph
                .neighbors_slice(a)
                .iter()
                .zip(self.graph.edges_slice(a))
            {
                let (x, y) = (remap[a as usize], remap[b as usize]);
                if x < y && y != NONE {
                    edges.push((x, y, *l));
                }
            }
        }
        let cells = self.layout.width as u64 * self.layout.height as u64;
        self.graph = region_graph(regions.len(), &edges);
        self.connectivity = Connectivity::build(&self.layout, &regions, &self.graph, cells);
        self.blocks = Blocks::build(&self.graph);
        self.regions = regions;
        self.first_region = first;
        self.region_end = Vec::new();
        self.landmarks = Landmarks::default();
        let count = self.fitted_landmarks(&self.config, cells);
        let regions = &self.regions;
        self.landmarks = Landmarks::build(
            &self.graph,
            count,
            |r| regions[r as usize].representative(),
            self.config.parallel,
        );
        self.loose = false;
        // Deterministic, as the refresh is (see `derived_stamp`).
        self.stamp = crate::model::derived_stamp(self.stamp, [u64::MAX]);
        // Regions renumbered: no query planned before carries over.
        self.changes.clear();
        self.build_ms = t0.elapsed().as_secs_f64() * 1e3;
    }
}

/// A range of region ids as indices.
fn range_usize(r: std::ops::Range<u32>) -> std::ops::Range<usize> {
    r.start as usize..r.end as usize
}

/// A union-find over small integer keys held in a map.
#[derive(Default)]
struct Sets(HashMap<u64, u64>);

impl Sets {
    fn find(&mut self, mut a: u64) -> u64 {
        let mut path = Vec::new();
        while let Some(&p) = self.0.get(&a) {
            if p == a {
                break;
            }
            path.push(a);
            a = p;
        }
        self.0.entry(a).or_insert(a);
        for x in path {
            self.0.insert(x, a);
        }
        a
    }
    fn union(&mut self, a: u64, b: u64) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0.insert(ra.max(rb), ra.min(rb));
        }
        ra != rb
    }
}

/// Repairs the component labels after a local change of the graph (see
/// the module comment). `succ` maps the old ids of changed sectors to their
/// slots' new ids (`NONE`: retired); the ids in `brand_new` have no old
/// slot. `seeds`: regions that lost an edge
/// (not re-made); `came`: edges that are new (both ends by new ids).
fn reconnect(
    conn: &mut Connectivity,
    graph: &crate::graph::RegionGraph,
    succ: &HashMap<u32, u32>,
    brand_new: &[u32],
    seeds: &[u32],
    came: &HashSet<(u32, u32)>,
) {
    let comp = &mut conn.component;
    let sizes = &mut conn.sizes;
    comp.resize(graph.node_count(), NONE);
    // Labels follow their slots; retired slots give theirs up.
    for (&o, &n) in succ {
        let l = comp[o as usize];
        if n == NONE {
            if let Some(c) = sizes.get_mut(l as usize) {
                *c -= 1;
            }
            comp[o as usize] = NONE;
        } else if n != o {
            comp[n as usize] = l;
            comp[o as usize] = NONE;
        }
    }
    // Splits: the graph without the new edges and regions, searched from
    // the ends of the lost edges, label by label.
    let mut by_label: Vec<(u32, u32)> = seeds
        .iter()
        .map(|&r| (comp[r as usize], r))
        .filter(|e| e.0 != NONE)
        .collect();
    by_label.sort_unstable();
    by_label.dedup();
    let mut i = 0;
    while i < by_label.len() {
        let mut j = i;
        while j < by_label.len() && by_label[j].0 == by_label[i].0 {
            j += 1;
        }
        if j - i >= 2 {
            let group: Vec<u32> = by_label[i..j].iter().map(|e| e.1).collect();
            split(comp, sizes, graph, by_label[i].0, &group, came);
        }
        i = j;
    }
    // Joins: the new edges and regions, united with the labels they touch.
    const NODE: u64 = 1 << 32;
    let key = |comp: &[u32], r: u32| match comp[r as usize] {
        NONE => NODE | r as u64,
        l => l as u64,
    };
    let mut sets = Sets::default();
    let mut witness: HashMap<u32, u32> = HashMap::new();
    for &(a, b) in came {
        for r in [a, b] {
            let l = comp[r as usize];
            if l != NONE {
                witness.entry(l).or_insert(r);
            }
        }
        sets.union(key(comp, a), key(comp, b));
    }
    for &r in brand_new {
        sets.find(NODE | r as u64);
    }
    let mut classes: HashMap<u64, (Vec<u32>, Vec<u32>)> = HashMap::new();
    let keys: Vec<u64> = sets.0.keys().copied().collect();
    for k in keys {
        let root = sets.find(k);
        let e = classes.entry(root).or_default();
        if k & NODE != 0 {
            e.1.push(k as u32);
        } else {
            e.0.push(k as u32);
        }
    }
    let mut classes: Vec<(Vec<u32>, Vec<u32>)> = classes.into_values().collect();
    classes.sort_unstable();
    for (labels, nodes) in classes {
        let keep = match labels.iter().max_by_key(|&&l| (sizes[l as usize], l)) {
            Some(&keep) => {
                for &y in labels.iter().filter(|&&y| y != keep) {
                    relabel(comp, graph, witness[&y], y, keep);
                    sizes[keep as usize] += sizes[y as usize];
                    sizes[y as usize] = 0;
                }
                keep
            }
            None => {
                sizes.push(0);
                sizes.len() as u32 - 1
            }
        };
        for &r in &nodes {
            comp[r as usize] = keep;
        }
        sizes[keep as usize] += nodes.len() as u32;
    }
}

/// Gives every region of label `from` reachable from `start` the label
/// `to` (a breadth-first search over regions of label `from`).
fn relabel(comp: &mut [u32], graph: &crate::graph::RegionGraph, start: u32, from: u32, to: u32) {
    let mut queue = VecDeque::from([start]);
    comp[start as usize] = to;
    while let Some(v) = queue.pop_front() {
        for &w in graph.neighbors_slice(v) {
            if comp[w as usize] == from {
                comp[w as usize] = to;
                queue.push_back(w);
            }
        }
    }
}

/// Splits label `label` where the graph without the edges `came` falls
/// apart: one breadth-first search per seed, side by side; searches that
/// meet join; a group that runs out of regions before all others have met
/// it is a piece of its own and takes a new label; the last group keeps
/// `label`.
fn split(
    comp: &mut [u32],
    sizes: &mut Vec<u32>,
    graph: &crate::graph::RegionGraph,
    label: u32,
    seeds: &[u32],
    came: &HashSet<(u32, u32)>,
) {
    let k = seeds.len();
    let mut owner: HashMap<u32, usize> = HashMap::new();
    let mut queues: Vec<VecDeque<u32>> = Vec::with_capacity(k);
    let mut seen: Vec<Vec<u32>> = Vec::with_capacity(k);
    let mut parent: Vec<usize> = (0..k).collect();
    let mut done = vec![false; k];
    fn root(parent: &mut [usize], mut a: usize) -> usize {
        while parent[a] != a {
            parent[a] = parent[parent[a]];
            a = parent[a];
        }
        a
    }
    for (i, &s) in seeds.iter().enumerate() {
        owner.insert(s, i);
        queues.push(VecDeque::from([s]));
        seen.push(vec![s]);
    }
    loop {
        // Groups still searching; a group with no region left to expand
        // is a whole piece.
        let mut active: Vec<usize> = Vec::new();
        let mut idle: Vec<usize> = Vec::new();
        for i in 0..k {
            if done[i] {
                continue;
            }
            let r = root(&mut parent, i);
            if !queues[i].is_empty() {
                active.push(r);
            } else {
                idle.push(r);
            }
        }
        active.sort_unstable();
        active.dedup();
        idle.sort_unstable();
        idle.dedup();
        idle.retain(|r| active.binary_search(r).is_err());
        let open = active.len() + idle.len();
        if open <= 1 {
            return;
        }
        for &g in &idle {
            if active.is_empty() && g == idle[idle.len() - 1] {
                // The last group keeps the label.
                return;
            }
            let l = sizes.len() as u32;
            let mut count = 0u32;
            for i in 0..k {
                if !done[i] && root(&mut parent, i) == g {
                    done[i] = true;
                    for &r in &seen[i] {
                        comp[r as usize] = l;
                    }
                    count += seen[i].len() as u32;
                }
            }
            sizes.push(count);
            sizes[label as usize] -= count;
        }
        if active.len() <= 1 {
            return;
        }
        for i in 0..k {
            if done[i] {
                continue;
            }
            let Some(v) = queues[i].pop_front() else {
                continue;
            };
            for &w in graph.neighbors_slice(v) {
                if comp[w as usize] != label || came.contains(&(v.min(w), v.max(w))) {
                    continue;
                }
                match owner.get(&w) {
                    None => {
                        owner.insert(w, i);
                        queues[i].push_back(w);
                        seen[i].push(w);
                    }
                    Some(&j) => {
                        let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                        if a != b {
                            parent[a.max(b)] = a.min(b);
                        }
                    }
                }
            }
        }
    }
}

impl Hierarchy {
    /// [`Hierarchy::update`] for a hierarchy with a profile: the view is
    /// made again from `grid`, the positions whose footprint holds a
    /// changed cell are the changed positions, and, where costs differ,
    /// every link is priced again (O(cells log sector side)) and the
    /// landmarks computed over the new costs.
    pub(crate) fn update_profiled(
        &mut self,
        grid: &Grid,
        changed: &[Point],
        data: Arc<ProfileData>,
    ) -> Result<crate::BuildStats, HierarchyError> {
        let t0 = std::time::Instant::now();
        for &p in changed {
            if !grid.in_bounds(p) {
                return Err(HierarchyError::OutOfBounds(p));
            }
        }
        let fresh = ProfileData::new(grid, &data.profile);
        let k = fresh.view.size();
        let mut positions = Vec::with_capacity(changed.len() * (k * k) as usize);
        for &p in changed {
            for y in p.y.saturating_sub(k - 1)..=p.y {
                for x in p.x.saturating_sub(k - 1)..=p.x {
                    positions.push(Point::new(x, y));
                }
            }
        }
        // The plain update on the view's grid (no profile while it runs),
        // refreshed at once: the reweighing below is O(edges) anyway.
        self.profile = None;
        let result = self.update(fresh.view.grid(), &positions);
        if let Err(e) = result {
            self.profile = Some(data);
            return Err(e);
        }
        self.refresh();
        if fresh.tables.table.is_some() {
            crate::build::profiled::reweigh(self, &fresh.view);
        }
        self.bind_profile(grid, fresh);
        // The view's cells say passable or not; the stamp also takes the
        // terrain (a cost changed without passability is another state).
        let words = changed.iter().map(|&p| {
            let t = grid.terrain(p).map_or(0, |t| t.to_char() as u64);
            u64::from(p.x) | u64::from(p.y) << 24 | t << 48
        });
        let whole = [grid.checksum()];
        self.stamp = crate::model::derived_stamp(self.stamp, whole.into_iter().chain(words));
        self.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(self.stats())
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::xorshift;
    use crate::{CellPlanner, Hierarchy, HierarchyConfig, HierarchyError, PlanError, PortalMode};
    use regionpath_grid::{Grid, Point};
    use regionpath_testkit::{check::check_path, maps, oracle, passable_cells};

    /// A locally updated `h` against a fresh build of `grid`: the regions
    /// and edges once ids are made dense in sector order (each live id
    /// mapped to its place), retired ids without cells or edges, the
    /// component labels the same partition as the fresh build's, and after
    /// [`Hierarchy::refresh`] every structure and the saved bytes equal
    /// (`assert_equals_fresh_build`); `to_bytes` of the loose hierarchy
    /// writes the refreshed one. Returns the fresh build.
    fn assert_local_equals_fresh(h: &Hierarchy, grid: &Grid, what: &str) -> Hierarchy {
        let fresh = Hierarchy::build_pinned(grid, &h.config, h.sector_size(), h.portals.is_some());
        let mut place = vec![u32::MAX; h.regions.len()];
        let mut k = 0u32;
        for s in 0..h.layout.count() as u32 {
            for id in h.sector_regions(s) {
                place[id as usize] = k;
                k += 1;
            }
        }
        assert_eq!(k as usize, fresh.regions.len(), "{what}: live regions");
        let mut label = std::collections::HashMap::new();
        let mut back = std::collections::HashMap::new();
        for (id, &p) in place.iter().enumerate() {
            if p == u32::MAX {
                assert_eq!(h.regions[id].cells(), 0, "{what}: retired {id}");
                assert!(h.graph.neighbors_slice(id as u32).is_empty(), "{what}");
                continue;
            }
            assert_eq!(
                h.regions[id], fresh.regions[p as usize],
                "{what}: region {id}"
            );
            let mine: Vec<_> = h
                .graph
                .neighbors_slice(id as u32)
                .iter()
                .zip(h.graph.edges_slice(id as u32))
                .map(|(&b, l)| (place[b as usize], *l))
                .collect();
            let mut mine = mine;
            mine.sort_by_key(|e| e.0);
            let theirs: Vec<_> = fresh
                .graph
                .neighbors_slice(p)
                .iter()
                .copied()
                .zip(fresh.graph.edges_slice(p).iter().copied())
                .collect();
            assert_eq!(mine, theirs, "{what}: edges of {id}");
            // Labels: a bijection onto the fresh build's.
            let (a, b) = (
                h.connectivity.component[id],
                fresh.connectivity.component[p as usize],
            );
            assert_eq!(*label.entry(a).or_insert(b), b, "{what}: component of {id}");
            assert_eq!(*back.entry(b).or_insert(a), a, "{what}: component of {id}");
        }
        assert_eq!(h.graph.edge_count(), fresh.graph.edge_count(), "{what}");
        let mut whole = h.clone();
        whole.refresh();
        assert!(!whole.is_loose());
        assert_equals_fresh_build(&whole, grid, what);
        let (mut x, mut y) = (h.clone(), fresh.clone());
        (x.build_ms, y.build_ms) = (0.0, 0.0);
        assert!(x.to_bytes() == y.to_bytes(), "{what}: saved bytes differ");
        fresh
    }

    /// The landmark bounds of a locally updated `h` against exact
    /// region-graph distances (a float Dijkstra over its live graph) from
    /// up to 6 regions spread over the table: never above the distance;
    /// and along every link, both rows reached or neither (so no bound
    /// skips a landmark on a path it would need), landmarks with repair
    /// work left masked. Returns how many bounds were compared and how
    /// many landmarks were masked.
    fn assert_landmarks_admissible(h: &Hierarchy, what: &str) -> (usize, usize) {
        let n = h.regions.len();
        let k = h.landmarks.count();
        if k == 0 || n == 0 {
            return (0, 0);
        }
        for a in 0..n as u32 {
            for &b in h.graph.neighbors_slice(a) {
                let (x, y) = (h.landmarks.goal_row(a), h.landmarks.goal_row(b));
                for (&u, &v) in x.iter().zip(y.iter()) {
                    assert_eq!(u == u16::MAX, v == u16::MAX, "{what}: link {a}-{b}");
                }
            }
        }
        let mut exact = vec![0f32; n];
        let mut compared = 0;
        for i in 0..6 {
            let from = (i * n / 6) as u32;
            if h.graph.neighbors_slice(from).is_empty() {
                continue;
            }
            crate::derived::landmarks::dijkstra(&h.graph, from, &mut exact);
            let row = h.landmarks.goal_row(from);
            for (to, &d) in exact.iter().enumerate() {
                if d.is_finite() {
                    let bound = h.landmarks.bound_to(to as u32, &row);
                    assert!(
                        bound <= d * (1.0 + 1e-5) + 1e-3,
                        "{what}: bound {bound} over the distance {d} from {from} to {to}"
                    );
                    compared += 1;
                }
            }
        }
        (compared, k - h.landmarks.live())
    }

    /// Queries between random passable cells on a locally updated `h`:
    /// found exactly when the Dijkstra oracle reaches the goal, valid paths
    /// from start to goal, and "unreachable" from the matrix only when the
    /// oracle agrees.
    fn assert_queries_valid(
        h: &Hierarchy,
        g: &Grid,
        below: &mut impl FnMut(u32) -> u32,
        what: &str,
    ) {
        let cells = passable_cells(g);
        if cells.is_empty() {
            return;
        }
        let mut planner = CellPlanner::new();
        let mut out = Vec::new();
        for _ in 0..3 {
            let s = cells[below(cells.len() as u32) as usize];
            let dist = oracle::distances(g, s);
            for _ in 0..4 {
                let t = cells[below(cells.len() as u32) as usize];
                let reachable = dist[(t.y * g.width() + t.x) as usize].is_finite();
                match planner.find_path_into(h, g, s, t, &mut out) {
                    Ok(_) => {
                        assert!(reachable, "{what}: path to an unreachable goal");
                        check_path(g, &out, s, t).unwrap_or_else(|e| panic!("{what}: {e}"));
                    }
                    Err(PlanError::Unreachable { .. }) => {
                        assert!(!reachable, "{what}: {s:?} -> {t:?} reachable")
                    }
                    Err(e) => panic!("{what}: {s:?} -> {t:?}: {e}"),
                }
            }
        }
    }

    /// `h` against a fresh build of `grid` with its settings, sector size
    /// and portal layer: every structure, the stats but for the time, and
    /// the saved bytes once both build times are zeroed.
    fn assert_equals_fresh_build(h: &Hierarchy, grid: &Grid, what: &str) -> Hierarchy {
        let fresh = Hierarchy::build_pinned(grid, &h.config, h.sector_size(), h.portals.is_some());
        assert_eq!(h.layout, fresh.layout, "{what}");
        assert_eq!(h.first_region, fresh.first_region, "{what}");
        assert_eq!(h.regions, fresh.regions, "{what}");
        assert_eq!(h.edge_list(), fresh.edge_list(), "{what}");
        assert_eq!(h.connectivity, fresh.connectivity, "{what}");
        assert_eq!(h.landmarks, fresh.landmarks, "{what}");
        assert_eq!(h.blocks, fresh.blocks, "{what}");
        assert_eq!(h.portals, fresh.portals, "{what}");
        assert_eq!(h.digests, fresh.digests, "{what}");
        assert_eq!(h.config, fresh.config, "{what}");
        assert_eq!(h.grid_checksum, grid.checksum(), "{what}");
        assert!(h.is_current_for(grid), "{what}");
        let (mut a, mut b) = (h.stats(), fresh.stats());
        (a.build_ms, b.build_ms) = (0.0, 0.0);
        // The portal layer counts its vectors' capacities, which an
        // update's rebuilt sectors need not share.
        (a.bytes, b.bytes) = (a.bytes - a.portal_bytes, b.bytes - b.portal_bytes);
        (a.portal_bytes, b.portal_bytes) = (0, 0);
        assert_eq!(a, b, "{what}");
        let (mut x, mut y) = (h.clone(), fresh.clone());
        (x.build_ms, y.build_ms) = (0.0, 0.0);
        assert!(x.to_bytes() == y.to_bytes(), "{what}: saved bytes differ");
        fresh
    }

    /// A random map of one of several families, 8 to 100 cells a side.
    fn random_map(below: &mut impl FnMut(u32) -> u32) -> Grid {
        let (w, h) = (8 + below(93), 8 + below(93));
        let kind = below(6);
        let (a, b) = (below(8), below(2) == 1);
        let mut draw = |n: u64| u64::from(below(n as u32));
        match kind {
            0 => maps::obstacles(w, h, draw(55), &mut draw),
            1 => maps::maze(w, h, false, maps::EAST_FIRST, &mut draw),
            2 => maps::rooms(w, h, 2 + a, 40, &mut draw),
            3 => maps::caves(w, h, 45, 3, &mut draw),
            4 => maps::spiral(w, h, 1 + a % 3, b),
            _ => Grid::new(w, h, b).unwrap(),
        }
    }

    /// Cells to edit: a few random cells, a rectangle opened or blocked,
    /// or every cell of the map.
    fn random_edit(g: &Grid, below: &mut impl FnMut(u32) -> u32) -> Vec<(Point, bool)> {
        let (w, h) = (g.width(), g.height());
        let cell = |below: &mut dyn FnMut(u32) -> u32| Point::new(below(w), below(h));
        match below(8) {
            0 => {
                let open = below(2) == 1;
                (0..h)
                    .flat_map(|y| (0..w).map(move |x| (Point::new(x, y), open)))
                    .collect()
            }
            1 | 2 => {
                let (a, b) = (cell(below), cell(below));
                let open = below(2) == 1;
                (a.y.min(b.y)..=a.y.max(b.y))
                    .flat_map(|y| {
                        (a.x.min(b.x)..=a.x.max(b.x)).map(move |x| (Point::new(x, y), open))
                    })
                    .collect()
            }
            _ => (0..1 + below(40))
                .map(|_| {
                    let p = cell(below);
                    (p, !g.is_passable(p))
                })
                .collect(),
        }
    }

    /// Random maps and settings, random edit sequences, each followed by an
    /// update given the edited cells, a list missing some or all of them,
    /// or one with extra unedited cells: the update equals a fresh build
    /// with the sector size pinned (every structure and the saved bytes,
    /// see `assert_equals_fresh_build`), and never panics.
    #[test]
    fn updates_equal_fresh_builds_whatever_the_list_of_changed_cells() {
        let mut below = xorshift(0x0bad_5eed_0042);
        let trials = if cfg!(debug_assertions) { 40 } else { 400 };
        let (mut updates, mut short_lists, mut public_equal) = (0, 0, 0);
        let (mut bounds, mut masked) = (0, 0);
        for trial in 0..trials {
            let mut g = random_map(&mut below);
            let config = HierarchyConfig {
                sector_size: [4, 8, 16, 24][below(4) as usize],
                parallel: false,
                fit_memory: below(4) != 0,
                portals: [PortalMode::Never, PortalMode::Auto, PortalMode::Always]
                    [below(3) as usize],
            };
            let mut h = Hierarchy::build(&g, &config).unwrap();
            for step in 0..1 + below(4) {
                let edits = random_edit(&g, &mut below);
                let mut changed = Vec::new();
                for &(p, open) in &edits {
                    if g.is_passable(p) != open {
                        g.set_passable(p, open).unwrap();
                        changed.push(p);
                    }
                }
                let kind = below(4);
                match kind {
                    // Some cells left out, or all of them.
                    0 => changed.retain(|_| below(3) == 0),
                    1 => changed.clear(),
                    // Unedited cells too.
                    2 => changed
                        .extend((0..5).map(|_| Point::new(below(g.width()), below(g.height())))),
                    _ => {}
                }
                short_lists += u32::from(kind <= 1);
                let what = format!(
                    "trial {trial} step {step}: {}x{} {config:?}, list {kind}",
                    g.width(),
                    g.height()
                );
                h.update(&g, &changed)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                updates += 1;
                let fresh = assert_local_equals_fresh(&h, &g, &what);
                let (checked, waiting) = assert_landmarks_admissible(&h, &what);
                bounds += checked;
                masked += usize::from(waiting > 0);
                assert_queries_valid(&h, &g, &mut below, &what);
                if below(3) == 0 {
                    h.refresh();
                    assert_equals_fresh_build(&h, &g, &what);
                }
                // Where the public build keeps the size and the portal
                // decision, it is that build.
                let public = Hierarchy::build(&g, &config).unwrap();
                if public.sector_size() == fresh.sector_size()
                    && public.portals.is_some() == fresh.portals.is_some()
                {
                    assert_eq!(public.regions, fresh.regions, "{what}");
                    assert_eq!(public.landmarks, fresh.landmarks, "{what}");
                    public_equal += 1;
                }
            }
        }
        eprintln!(
            "update vs fresh build: {trials} maps, {updates} updates ({short_lists} with cells left out), {public_equal} also equal to the public build, {bounds} landmark bounds checked, {masked} updates with landmarks waiting for repair work"
        );
        assert!(short_lists > updates / 4 && public_equal > updates / 2);
        assert!(bounds > updates as usize * 10, "{bounds} landmark bounds");
        assert!(
            masked > updates as usize / 10,
            "{masked} with repair work left"
        );
    }

    /// A map of walls, then every cell opened: the update takes the
    /// landmarks a fresh build has (it used to keep the old count, 0), with
    /// the memory rule (128 × 128, sector 16) and without (32 × 32, sector
    /// 8); then all walls again, and none again.
    #[test]
    fn landmarks_follow_the_memory_rule_after_an_update() {
        for (side, config) in [
            (128, HierarchyConfig::default()),
            (
                32,
                HierarchyConfig::default().sector_size(8).fit_memory(false),
            ),
        ] {
            let mut g = Grid::new(side, side, false).unwrap();
            let mut h = Hierarchy::build(&g, &config).unwrap();
            assert_eq!(h.stats().landmarks, 0);
            let all: Vec<Point> = (0..side)
                .flat_map(|y| (0..side).map(move |x| Point::new(x, y)))
                .collect();
            for open in [true, false, true] {
                for &p in &all {
                    g.set_passable(p, open).unwrap();
                }
                h.update(&g, &all).unwrap();
                let fresh = assert_local_equals_fresh(&h, &g, &format!("{side}, {open}"));
                h.refresh();
                let public = Hierarchy::build(&g, &config).unwrap();
                assert_eq!(public.landmarks, fresh.landmarks);
                assert_eq!(h.stats().landmarks, if open { 8 } else { 0 });
            }
        }
    }

    /// An edit the list leaves out, next to a listed one, splits an
    /// unlisted sector into more regions than it had: the update relabels
    /// it (it used to index past the region table and panic).
    #[test]
    fn cells_missing_from_the_list_are_found() {
        let mut g = Grid::new(32, 16, true).unwrap();
        let config = HierarchyConfig::default()
            .sector_size(8)
            .portals(PortalMode::Always);
        let mut h = Hierarchy::build(&g, &config).unwrap();
        // A wall down the middle of sector 1 (x 8..16), not listed, and one
        // cell of sector 0, listed.
        for y in 0..8 {
            g.set_passable(Point::new(12, y), false).unwrap();
        }
        g.set_passable(Point::new(3, 3), false).unwrap();
        h.update(&g, &[Point::new(3, 3)]).unwrap();
        assert_local_equals_fresh(&h, &g, "wall left out");
        // Far from every listed cell, and nothing listed at all.
        g.set_passable(Point::new(30, 14), false).unwrap();
        h.update(&g, &[]).unwrap();
        assert_local_equals_fresh(&h, &g, "empty list");
        // The same on a clone of the grid, whose journal does not reach
        // back: the sectors' digests find the edit.
        let mut c = g.clone();
        c.set_passable(Point::new(20, 2), false).unwrap();
        let mut far = c.clone();
        far.set_passable(Point::new(1, 14), false).unwrap();
        h.update(&far, &[]).unwrap();
        assert_local_equals_fresh(&h, &far, "clone");
    }

    /// A local update keeps every region away from the edit: same id, same
    /// region, same edges; and a wall across a corridor splits the map
    /// (reachability across it false at once, by the grid's BFS), opening
    /// it joins it again, each step equal to a fresh build once ids are
    /// made dense.
    #[test]
    fn updates_stay_local_and_split_and_join() {
        let (w, hgt) = (160u32, 48u32);
        let mut g = Grid::new(w, hgt, false).unwrap();
        // A corridor 4 cells high along the middle, rooms above and below.
        for y in 4..44 {
            for x in 2..158 {
                let corridor = (22..26).contains(&y);
                let room = (x / 20) % 2 == 0 && !(20..28).contains(&y);
                if corridor || room || (x % 20 == 5 && (8..40).contains(&y)) {
                    g.set_passable(Point::new(x, y), true).unwrap();
                }
            }
        }
        let config = HierarchyConfig::default().sector_size(8).fit_memory(false);
        let mut h = Hierarchy::build(&g, &config).unwrap();
        let (left, right) = (Point::new(3, 23), Point::new(156, 23));
        let wall: Vec<Point> = (4..44).map(|y| Point::new(81, y)).collect();
        for round in 0..4 {
            let before = h.clone();
            let block = round % 2 == 0;
            for &p in &wall {
                g.set_passable(p, !block).unwrap();
            }
            h.update(&g, &[]).unwrap();
            let what = format!("round {round}");
            assert_local_equals_fresh(&h, &g, &what);
            let reach = oracle::distances(&g, left)[(right.y * w + right.x) as usize].is_finite();
            assert_eq!(reach, !block, "{what}");
            let (a, b) = (
                h.region_of(&g, left).unwrap(),
                h.region_of(&g, right).unwrap(),
            );
            assert_eq!(h.regions_connected(a, b), reach, "{what}");
            // Regions of sectors two or more away from the wall's column
            // keep ids, contents and edges.
            let far = |r: &crate::Region| r.cells() > 0 && r.min().x.abs_diff(81) > 24;
            let mut kept = 0;
            for (id, r) in before.regions().iter().enumerate().filter(|(_, r)| far(r)) {
                let id = id as u32;
                assert_eq!(h.regions[id as usize], *r, "{what}");
                assert_eq!(
                    h.graph.neighbors_slice(id),
                    before.graph.neighbors_slice(id),
                    "{what}"
                );
                kept += 1;
            }
            assert!(kept > before.regions().len() / 2, "{what}: {kept}");
        }
    }

    /// Errors leave the hierarchy as it was: same stamp, same answers.
    #[test]
    fn failed_updates_change_nothing() {
        let g = Grid::new(40, 30, true).unwrap();
        let mut h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
        let before = (h.stamp(), h.to_bytes());
        let mut edited = g.clone();
        edited.set_passable(Point::new(5, 5), false).unwrap();
        assert!(matches!(
            h.update(&edited, &[Point::new(5, 5), Point::new(40, 0)]),
            Err(HierarchyError::OutOfBounds(_))
        ));
        let other = Grid::new(41, 30, true).unwrap();
        assert!(matches!(
            h.update(&other, &[]),
            Err(HierarchyError::GridMismatch(_))
        ));
        assert_eq!((h.stamp(), h.to_bytes()), before);
        assert!(h.is_current_for(&g));
    }
}
