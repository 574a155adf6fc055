//! Incremental update after cells change.

use crate::build::sectors::{sector_data, sector_edges, EdgeList, SectorData, SectorScratch};
use crate::derived::{Blocks, Connectivity, Landmarks};
use crate::graph::{region_graph, Region};
use crate::model::{BuildStats, Hierarchy};
use crate::profile::ProfileData;
use crate::HierarchyError;
use regionpath_grid::{Grid, Point};
use std::sync::Arc;
use std::time::Instant;

impl Hierarchy {
    /// Brings the hierarchy up to date after the cells in `changed` were
    /// edited in `grid` (which must otherwise be the grid it was built
    /// for). Only the touched sectors are relabelled; only edges produced
    /// by them and their neighbours are recomputed (a diagonal edge across a
    /// sector corner depends on all four sectors there); the rest of the
    /// graph is kept with renumbered ids. Connectivity and the block-cut
    /// tree are rebuilt from the graph (linear in regions), the landmarks by
    /// the build's memory rule ([`crate::HierarchyConfig::fit_memory`] of
    /// [`Hierarchy::config`]: the count may rise or fall). The portal layer,
    /// where built, redoes the touched sectors and their neighbours.
    ///
    /// **Equal to a fresh build** of `grid` with the same settings, the
    /// sector size pinned to [`Hierarchy::sector_size`] and the portal layer
    /// kept or left out as before: the same regions, edges, connectivity,
    /// landmarks and portals, and [`Hierarchy::to_bytes`] gives the same
    /// bytes but for the build time (and the CRC over it). A fresh build
    /// itself may choose another sector size after large edits (the memory
    /// fit), or decide otherwise on the portal layer
    /// ([`crate::PortalMode::Auto`]); `update` keeps both.
    ///
    /// A cell missing from `changed` is never missed: each sector's digest
    /// of its cells (one pass over the grid's bit rows, as cheap as the
    /// grid checksum also taken here) finds the sectors edited, and those
    /// are relabelled as if listed. A list that names unedited cells costs
    /// time only. Errors (a grid of another size, a listed cell off the
    /// grid) leave the hierarchy as it was.
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
        let n = layout.count();
        let mut touched = vec![false; n];
        for &p in changed {
            if !grid.in_bounds(p) {
                return Err(HierarchyError::OutOfBounds(p));
            }
            touched[layout.sector_of(p) as usize] = true;
        }
        // The cells of sector `s` for the portal layer: one per 16 × 16
        // portal sector it overlaps, plus its far corner.
        let mut unlisted: Vec<Point> = Vec::new();
        let cover = |s: u32, out: &mut Vec<Point>| {
            let r = layout.rect(s);
            let step = crate::portal::SIDE as usize;
            for y in (r.y0..r.y1).step_by(step).chain([r.y1 - 1]) {
                for x in (r.x0..r.x1).step_by(step).chain([r.x1 - 1]) {
                    out.push(Point::new(x, y));
                }
            }
        };
        // Sectors edited but not listed: relabelled as if listed.
        let digests = crate::sector::digests(grid, &layout);
        for (s, (new, old)) in digests.iter().zip(&self.digests).enumerate() {
            if new != old && !touched[s] {
                touched[s] = true;
                cover(s as u32, &mut unlisted);
            }
        }
        let neighbours = |s: u32| {
            let (sx, sy) = layout.coords(s);
            let mut v = [u32::MAX; 9];
            let mut k = 0;
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (x, y) = (sx as i64 + dx, sy as i64 + dy);
                    if x >= 0
                        && y >= 0
                        && x < layout.sectors_x as i64
                        && y < layout.sectors_y as i64
                    {
                        v[k] = y as u32 * layout.sectors_x + x as u32;
                        k += 1;
                    }
                }
            }
            v
        };
        let old_first = &self.first_region;
        // `dirty`: sectors whose produced edges are recomputed; `data`:
        // fresh border data for every sector a dirty sector reads.
        let mut dirty = vec![false; n];
        let mut data: Vec<Option<SectorData>> = (0..n).map(|_| None).collect();
        let mut lab = SectorScratch::default();
        loop {
            for s in 0..n as u32 {
                if touched[s as usize] {
                    for t in neighbours(s) {
                        if t != u32::MAX {
                            dirty[t as usize] = true;
                        }
                    }
                }
            }
            for s in 0..n as u32 {
                if dirty[s as usize] {
                    for t in neighbours(s) {
                        if t != u32::MAX && data[t as usize].is_none() {
                            data[t as usize] = Some(sector_data(grid, &layout, t, &mut lab));
                        }
                    }
                }
            }
            // A sector read but not touched whose cells no longer give its
            // regions was edited unseen (only if its digest collided): its
            // labels would name regions that do not exist. Relabel it too.
            let mut again = false;
            for s in 0..n {
                if let (false, Some(d)) = (touched[s], &data[s]) {
                    let kept = &self.regions[old_first[s] as usize..old_first[s + 1] as usize];
                    if d.regions[..] != *kept {
                        touched[s] = true;
                        cover(s as u32, &mut unlisted);
                        again = true;
                    }
                }
            }
            if !again {
                break;
            }
        }
        // New region list and id remapping (the old state stays untouched
        // until the new one is complete). Every sector labelled above
        // takes its fresh regions: the touched ones and those around them,
        // whose regions an edit next door may have sealed or linked (a
        // region is kept when a move leaves its sector, which depends on
        // the cells across its border). An untouched sector's regions that
        // are still kept are its old ones: found by representative (the
        // same cells give the same components and representatives).
        let mut first = Vec::with_capacity(n + 1);
        let mut regions: Vec<Region> = Vec::with_capacity(self.regions.len() + 16);
        let mut remap = vec![u32::MAX; self.regions.len()];
        let key = |r: &Region| {
            let p = r.representative();
            (p.y as u64) << 32 | p.x as u64
        };
        let mut by_rep: Vec<(u64, u32)> = Vec::new();
        for s in 0..n {
            let base = regions.len() as u32;
            first.push(base);
            let old = old_first[s] as usize..old_first[s + 1] as usize;
            match &data[s] {
                Some(d) => {
                    regions.extend_from_slice(&d.regions);
                    if !touched[s] {
                        by_rep.clear();
                        by_rep.extend((base..).zip(&d.regions).map(|(id, r)| (key(r), id)));
                        by_rep.sort_unstable();
                        for o in old {
                            let k = key(&self.regions[o]);
                            if let Ok(i) = by_rep.binary_search_by_key(&k, |e| e.0) {
                                remap[o] = by_rep[i].1;
                            }
                        }
                    }
                }
                None => {
                    regions.extend_from_slice(&self.regions[old.clone()]);
                    for (id, o) in (base..).zip(old) {
                        remap[o] = id;
                    }
                }
            }
        }
        first.push(regions.len() as u32);
        let mut edges: EdgeList = Vec::with_capacity(self.regions.len() * 3);
        self.each_edge(|a, b, l| {
            let producer = self.regions[a as usize]
                .sector()
                .min(self.regions[b as usize].sector());
            // A kept edge joins regions of untouched sectors whose
            // crossing is unchanged, so both are kept and remapped.
            let (a, b) = (remap[a as usize], remap[b as usize]);
            if !dirty[producer as usize] && a != u32::MAX && b != u32::MAX {
                edges.push((a, b, *l));
            }
        });
        let lookup = |t: u32| -> &SectorData {
            // Every sector read by a dirty sector was labelled above.
            data[t as usize]
                .as_ref()
                .expect("sector data prepared for dirty neighbours")
        };
        for s in 0..n as u32 {
            if dirty[s as usize] {
                sector_edges(grid, &layout, s, &lookup, &first, &regions, &mut edges);
            }
        }
        let graph = region_graph(regions.len(), &edges);
        // Only relabelled sectors' regions changed.
        let mut sealed = self.sealed.clone();
        for s in 0..n as u32 {
            if data[s as usize].is_some() {
                sealed.refresh(grid, &layout, &first, &regions, s);
            }
        }
        let mut next = Hierarchy {
            layout,
            grid_checksum: grid.checksum(),
            connectivity: Connectivity::build(&layout, &regions, &graph, grid.cell_count()),
            landmarks: Landmarks::default(),
            blocks: Blocks::build(&graph),
            sealed,
            first_region: first,
            regions,
            graph,
            portals: None,
            build_ms: 0.0,
            config: self.config,
            digests,
            stamp: crate::model::next_stamp(),
            lineage: self.lineage,
            grid_revision: grid.revision(),
            profile: None,
        };
        let count = next.fitted_landmarks(&self.config, grid.cell_count());
        next.landmarks = Landmarks::build(&next.graph, count);
        next.portals = self.portals.take().map(|mut portals| {
            if unlisted.is_empty() {
                portals.update(grid, changed);
            } else {
                unlisted.extend_from_slice(changed);
                portals.update(grid, &unlisted);
            }
            portals
        });
        next.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        *self = next;
        Ok(self.stats())
    }
}

impl Hierarchy {
    /// [`Hierarchy::update`] for a hierarchy with a profile: the view is
    /// made again from `grid`, the positions whose footprint holds a
    /// changed cell are the changed positions, and, where costs differ,
    /// every link is priced again (O(edges · sector side)) and the
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
        // The plain update on the view's grid (no profile while it runs).
        self.profile = None;
        let result = self.update(fresh.view.grid(), &positions);
        if let Err(e) = result {
            self.profile = Some(data);
            return Err(e);
        }
        if fresh.table.is_some() {
            crate::build::profiled::reweigh(self, &fresh.view);
        }
        self.bind_profile(grid, fresh);
        self.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(self.stats())
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::xorshift;
    use crate::{Hierarchy, HierarchyConfig, HierarchyError, PortalMode};
    use regionpath_grid::{Grid, Point};
    use regionpath_testkit::maps;

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
                let fresh = assert_equals_fresh_build(&h, &g, &what);
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
            "update vs fresh build: {trials} maps, {updates} updates ({short_lists} with cells left out), {public_equal} also equal to the public build"
        );
        assert!(short_lists > updates / 4 && public_equal > updates / 2);
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
                let fresh = assert_equals_fresh_build(&h, &g, &format!("{side}, {open}"));
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
        assert_equals_fresh_build(&h, &g, "wall left out");
        // Far from every listed cell, and nothing listed at all.
        g.set_passable(Point::new(30, 14), false).unwrap();
        h.update(&g, &[]).unwrap();
        assert_equals_fresh_build(&h, &g, "empty list");
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
