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
//! view), three things change:
//! - link costs are priced by the terrain ([`reweigh`]): each half of a
//!   link, representative to crossing, costs the cheapest way between them
//!   inside the region's sector, and the crossing step the mean of its two
//!   positions' costs; landmarks are computed over those costs;
//! - the leg searches are windowed A* under the profile's step costs
//!   ([`regionpath_search::WindowedAStar::find_path_weighted_into`]), not
//!   jump point search, which is valid only where costs are uniform;
//! - the exact portal layer, straight-line answers, the quality recheck and
//!   the second route (all priced in uniform steps) are off.

use crate::graph::{region_graph, Link};
use crate::model::Hierarchy;
use crate::profile::ProfileData;
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
    /// positions, plus, where costs differ, O(edges · sector side) to price
    /// the links and a second landmark pass. Holds the view (about
    /// 0.25–0.75 byte per cell) besides the hierarchy.
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
        let data = ProfileData::new(grid, profile);
        let config = if data.table.is_some() {
            config.portals(PortalMode::Never)
        } else {
            *config
        };
        let mut h = Hierarchy::build(data.view.grid(), &config)?;
        if data.table.is_some() {
            reweigh(&mut h, &data.view);
        }
        h.bind_profile(grid, data);
        h.build_ms = t0.elapsed().as_secs_f64() * 1e3;
        Ok(h)
    }

    /// Records `data` as the profile and `grid` as the map served.
    pub(crate) fn bind_profile(&mut self, grid: &Grid, data: ProfileData) {
        self.grid_revision = grid.revision();
        self.grid_checksum = grid.terrain_checksum();
        self.profile = Some(Arc::new(data));
    }
}

/// Scratch of [`half_costs`]: distances over one sector's cells.
#[derive(Default)]
struct SectorDijkstra {
    dist: Vec<f64>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

/// The cheapest cost, moving only inside `rect` (the region's sector) under
/// `view`'s rules and costs, from `from` to each of `targets`, written to
/// `out` in order. A Dijkstra over the sector (at most its cells), stopped
/// once every target is settled; every target is in `from`'s region, a
/// connected piece of the sector, so each is reached.
fn half_costs(
    view: &ProfileGrid,
    rect: Rect,
    from: Point,
    targets: &[Point],
    scratch: &mut SectorDijkstra,
    out: &mut Vec<f64>,
) {
    let grid = view.grid();
    let (w, h) = (rect.width(), rect.height());
    let SectorDijkstra { dist, heap } = scratch;
    dist.clear();
    dist.resize((w * h) as usize, f64::INFINITY);
    heap.clear();
    let local = |p: Point| ((p.y - rect.y0) * w + (p.x - rect.x0)) as usize;
    let cost = |p: Point| view.position_cost(p).unwrap_or(1.0);
    dist[local(from)] = 0.0;
    heap.push(Reverse((0f64.to_bits(), local(from) as u32)));
    let mut left = targets.len();
    let is_target = |p: Point| targets.contains(&p);
    while let Some(Reverse((bits, i))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[i as usize] {
            continue;
        }
        let p = Point::new(rect.x0 + i % w, rect.y0 + i / w);
        if is_target(p) {
            left -= targets.iter().filter(|&&t| t == p).count();
            if left == 0 {
                break;
            }
        }
        let cp = cost(p);
        for dir in Dir::ALL {
            if !grid.can_step(p, dir) {
                continue;
            }
            let (dx, dy) = dir.delta();
            let q = Point::new(
                (p.x as i64 + dx as i64) as u32,
                (p.y as i64 + dy as i64) as u32,
            );
            if !rect.contains(q) {
                continue;
            }
            let base = if dx != 0 && dy != 0 { SQRT2 } else { 1.0 };
            let nd = d + base * (cp + cost(q)) / 2.0;
            let j = local(q);
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(Reverse((nd.to_bits(), j as u32)));
            }
        }
    }
    out.clear();
    out.extend(targets.iter().map(|&t| {
        let d = dist[local(t)];
        // Unreachable only for a hierarchy that does not match the view.
        if d.is_finite() {
            d
        } else {
            octile(from, t) * cost(t)
        }
    }));
}

/// Prices every link of `h` by `view`'s terrain and computes the
/// landmarks again over the new costs. A link from region `a` to region `b`
/// costs the cheapest way inside `a`'s sector from `a`'s representative to
/// the middle of the crossing, the crossing step (its length times the mean
/// of its two positions' costs) and the cheapest way inside `b`'s sector on
/// to `b`'s representative: a road through a sector of swamp makes its
/// links cheap, where a straight line from the representative would miss
/// it. One Dijkstra per region over its sector (O(cells log cells) in all,
/// in parallel where the build is), then O(edges), then the landmarks.
pub(crate) fn reweigh(h: &mut Hierarchy, view: &ProfileGrid) {
    let parallel = h.config.parallel;
    let n = h.regions.len() as u32;
    // halves[a][k]: from a's representative to the middle of the crossing
    // of a's k-th link, on a's side.
    let halves: Vec<Vec<f64>> = crate::par::map_range(
        parallel,
        n,
        || (SectorDijkstra::default(), Vec::new()),
        |(scratch, targets), a| {
            targets.clear();
            targets.extend(h.graph.edges_slice(a).iter().map(|l| l.crossing().0.mid()));
            let region = &h.regions[a as usize];
            let rect = h.layout.rect(h.layout.sector_of(region.representative()));
            let mut out = Vec::with_capacity(targets.len());
            half_costs(
                view,
                rect,
                region.representative(),
                targets,
                scratch,
                &mut out,
            );
            out
        },
    );
    let cost = |p: Point| view.position_cost(p).unwrap_or(1.0);
    let mut edges = Vec::with_capacity(h.graph.edge_count());
    for a in 0..n {
        for (k, (&b, l)) in h
            .graph
            .neighbors_slice(a)
            .iter()
            .zip(h.graph.edges_slice(a))
            .enumerate()
        {
            if b < a {
                continue;
            }
            let (ra, rb) = l.crossing();
            let (ma, mb) = (ra.mid(), rb.mid());
            let step = if ma.x != mb.x && ma.y != mb.y {
                SQRT2
            } else {
                1.0
            };
            // b's half: the position of the reverse link in b's row.
            let back = h.graph.neighbors_slice(b).binary_search(&a).unwrap_or(0);
            let half_b = halves[b as usize].get(back).copied().unwrap_or(0.0);
            let w = halves[a as usize][k] + step * (cost(ma) + cost(mb)) / 2.0 + half_b;
            let link = Link::new(w as f32, l.from(), l.to(), l.len())
                .with_more_crossings(!l.is_only_crossing());
            edges.push((a, b, link));
        }
    }
    h.graph = region_graph(h.regions.len(), &edges);
    let count = h.landmarks.count();
    h.landmarks = crate::derived::Landmarks::build(&h.graph, count);
}
