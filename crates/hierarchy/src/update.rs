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
        // New region list and id remapping.
        let old_first = std::mem::take(&mut self.first_region);
        let mut first = Vec::with_capacity(n + 1);
        let mut regions: Vec<Region> = Vec::with_capacity(self.regions.len() + 16);
        for s in 0..n {
            first.push(regions.len() as u32);
            if touched[s] {
                // Every touched sector was labelled above.
                if let Some(d) = &data[s] {
                    regions.extend_from_slice(&d.regions);
                }
            } else {
                regions.extend_from_slice(
                    &self.regions[old_first[s] as usize..old_first[s + 1] as usize],
                );
            }
        }
        first.push(regions.len() as u32);
        let remap = |old: u32| -> u32 {
            let s = self.regions[old as usize].sector() as usize;
            first[s] + (old - old_first[s])
        };
        let mut edges: EdgeList = Vec::with_capacity(self.regions.len() * 3);
        self.each_edge(|a, b, l| {
            let producer = self.regions[a as usize]
                .sector()
                .min(self.regions[b as usize].sector());
            if !dirty[producer as usize] {
                edges.push((remap(a), remap(b), *l));
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
