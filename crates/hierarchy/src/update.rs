//! Incremental update after cells change.

use crate::build::sectors::{sector_data, sector_edges, EdgeList, SectorData, SectorScratch};
use crate::derived::connectivity::Connectivity;
use crate::graph::{region_graph, Region};
use crate::model::{BuildStats, Hierarchy};
use crate::HierarchyError;
use regionpath_grid::{Grid, Point};
use std::time::Instant;

impl Hierarchy {
    /// Brings the hierarchy up to date after the cells in `changed` were
    /// edited in `grid` (which must otherwise be the grid it was built
    /// for). Only the touched sectors are relabelled; only edges produced
    /// by them and their neighbours are recomputed (a diagonal edge across a
    /// sector corner depends on all four sectors there); the rest of the
    /// graph is kept with renumbered ids. Connectivity is rebuilt from the
    /// graph (linear in regions). The portal layer, where built, redoes the
    /// touched sectors and their neighbours. The result equals a fresh
    /// build (with the portal layer kept or left out as before).
    pub fn update(&mut self, grid: &Grid, changed: &[Point]) -> Result<BuildStats, HierarchyError> {
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
        // Sectors whose produced edges are recomputed.
        let mut dirty = vec![false; n];
        for s in 0..n as u32 {
            if touched[s as usize] {
                for t in neighbours(s) {
                    if t != u32::MAX {
                        dirty[t as usize] = true;
                    }
                }
            }
        }
        // Fresh border data for every sector a dirty sector reads.
        let mut data: Vec<Option<SectorData>> = (0..n).map(|_| None).collect();
        let mut lab = SectorScratch::default();
        for s in 0..n as u32 {
            if dirty[s as usize] {
                for t in neighbours(s) {
                    if t != u32::MAX && data[t as usize].is_none() {
                        data[t as usize] = Some(sector_data(grid, &layout, t, &mut lab));
                    }
                }
            }
        }
        // New region list and id remapping. Every sector labelled above
        // takes its fresh regions: the touched ones and those around them,
        // whose regions an edit next door may have sealed or linked (a
        // region is kept when a move leaves its sector, which depends on
        // the cells across its border). An untouched sector's regions that
        // are still kept are its old ones: found by representative (the
        // same cells give the same components and representatives).
        let old_first = &self.first_region;
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
        self.connectivity = Connectivity::build(&layout, &regions, &graph, grid.cell_count());
        self.landmarks =
            crate::derived::landmarks::Landmarks::build(&graph, self.landmarks.count());
        self.blocks = crate::derived::blocks::Blocks::build(&graph);
        // Only relabelled sectors' regions changed.
        for s in 0..n as u32 {
            if data[s as usize].is_some() {
                self.sealed.refresh(grid, &layout, &first, &regions, s);
            }
        }
        self.regions = regions;
        self.first_region = first;
        self.graph = graph;
        self.grid_checksum = grid.checksum();
        if let Some(portals) = &mut self.portals {
            portals.update(grid, changed);
        }
        self.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        self.stamp = crate::model::next_stamp();
        self.grid_revision = grid.revision();
        Ok(self.stats())
    }
}
