//! Partial paths: when the goal cannot be reached, a path to the reachable
//! cell nearest to it.
//!
//! The nearest cell is found from the hierarchy, not by flooding the
//! start's component: sectors are visited in square rings of growing
//! Chebyshev distance around the goal's sector; in each only the regions the
//! connectivity matrix joins to the start's region (O(1) each) are looked
//! at, by labelling that sector's runs and taking each run's cell nearest
//! the goal; the rings stop once their lower bound exceeds the best cell
//! found. When the start's cluster is closed (its whole component lies in
//! one super-sector of the connectivity matrix) only that super-sector's
//! sectors are looked at. A normal query then plans the path to that cell.

use super::{served, CellPlanner, PlanError, PlanStats};
use crate::model::Hierarchy;
use crate::sector::Rect;
use regionpath_grid::{Grid, Point};
use regionpath_search::{octile_cost, Cost, COST_ONE};

/// Where a path from [`CellPlanner::find_path_or_nearest_into`] ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reached {
    /// Whether the goal was unreachable (or blocked) and the path ends at
    /// the reachable cell nearest to it instead.
    pub partial: bool,
    /// The path's last cell: the goal, or the nearest reachable cell.
    pub end: Point,
    /// Figures about the query that planned the path to `end` (its `cost`
    /// is the returned path's).
    pub stats: PlanStats,
}

/// The ordering key of a candidate end: octile distance to the goal, then
/// octile distance from the start, then row, then column (smaller first).
type Key = (Cost, Cost, u32, u32);

fn key(start: Point, goal: Point, c: Point) -> Key {
    (octile_cost(goal, c), octile_cost(start, c), c.y, c.x)
}

/// The cell of `rect` nearest to `p` (`p` itself when inside).
fn clamp_into(rect: Rect, p: Point) -> Point {
    Point::new(
        p.x.clamp(rect.x0, rect.x1 - 1),
        p.y.clamp(rect.y0, rect.y1 - 1),
    )
}

impl CellPlanner {
    /// Plans a path from `start` to `goal`, or, when `goal` is blocked or
    /// cannot be reached from `start`, to the reachable cell nearest to
    /// `goal` by octile distance, written into `out` (cleared first) and
    /// flagged [`Reached::partial`]. Ties between equally near cells go to
    /// the one nearer to `start` by octile distance (a lower bound on its
    /// path cost), then to the lower row, then the lower column.
    ///
    /// Reachable goals get exactly [`CellPlanner::find_path_into`]'s path.
    /// Otherwise the nearest cell is found without searching the start's
    /// component: sectors are visited in rings around the goal, only
    /// regions the connectivity matrix joins to the start's are labelled,
    /// and the rings stop when their distance bound exceeds the best cell
    /// found (cost: the sectors within that distance of the goal; all of
    /// them only when the start's component is far from the goal). Then
    /// one normal query plans the path. Under a movement profile the cells
    /// are the profile's positions. Errors as
    /// [`CellPlanner::find_path_into`] except [`PlanError::GoalBlocked`]
    /// and [`PlanError::Unreachable`], which become partial paths.
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point};
    /// use regionpath_hierarchy::{CellPlanner, Hierarchy};
    ///
    /// // The goal (6, 1) is walled in: the path ends next to its wall.
    /// let grid = Grid::from_rows(&["....@...", "....@...", "....@..."])?;
    /// let h = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = CellPlanner::new();
    /// let mut path = Vec::new();
    /// let (start, goal) = (Point::new(0, 1), Point::new(6, 1));
    /// let reached = planner.find_path_or_nearest_into(&h, &grid, start, goal, &mut path)?;
    /// assert!(reached.partial);
    /// assert_eq!(reached.end, Point::new(3, 1));
    /// assert_eq!((path.first(), path.last()), (Some(&start), Some(&reached.end)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_path_or_nearest_into(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<Reached, PlanError> {
        match self.find_path_into(h, grid, start, goal, out) {
            Ok(stats) => {
                return Ok(Reached {
                    partial: false,
                    end: goal,
                    stats,
                })
            }
            // Both are returned only after the grid, the revision and the
            // start were checked and the goal was found in bounds.
            Err(PlanError::Unreachable { .. } | PlanError::GoalBlocked(_)) => {}
            Err(e) => return Err(e),
        }
        let end = self.nearest_on(h, h.search_grid(grid), start, goal)?;
        let stats = self.find_path_into(h, grid, start, end, out)?;
        Ok(Reached {
            partial: true,
            end,
            stats,
        })
    }

    /// The cell reachable from `start` nearest to `goal` by octile
    /// distance, ties as in [`CellPlanner::find_path_or_nearest_into`]
    /// (where a partial path would end): `goal` itself when it can be
    /// reached. No path is planned; the cost is the sectors looked at
    /// (see [`CellPlanner::find_path_or_nearest_into`]). Errors: the grid's
    /// size or revision, a start off the grid or blocked, a goal off the
    /// grid.
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point};
    /// use regionpath_hierarchy::{CellPlanner, Hierarchy};
    ///
    /// let grid = Grid::from_rows(&["..@....", "..@....", "..@...."])?;
    /// let h = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = CellPlanner::new();
    /// let near = planner.nearest_reachable(&h, &grid, Point::new(0, 0), Point::new(6, 1))?;
    /// assert_eq!(near, Point::new(1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nearest_reachable(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Point, PlanError> {
        served(h, grid)?;
        let sg = h.search_grid(grid);
        if !sg.in_bounds(start) {
            return Err(PlanError::StartOutOfBounds(start));
        }
        if !sg.in_bounds(goal) {
            return Err(PlanError::GoalOutOfBounds(goal));
        }
        if !sg.is_passable(start) {
            return Err(PlanError::StartBlocked(start));
        }
        self.nearest_on(h, sg, start, goal)
    }

    /// [`CellPlanner::nearest_reachable`] after its checks: `start` is in
    /// bounds and passable on `grid` (the search grid), `goal` in bounds.
    fn nearest_on(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Point, PlanError> {
        let Some(rs) = h.region_of_with(grid, start, &mut self.lab) else {
            return Ok(self.nearest_in_sealed_piece(h, grid, start, goal));
        };
        if rs as usize >= h.regions.len() {
            return Err(PlanError::Stale(
                "a cell's sector has no matching region".into(),
            ));
        }
        let layout = h.layout;
        // The start's region's cluster is closed: its whole
        // component lies in that cluster's super-sector, so only that
        // super-sector's sectors are looked at (a small island far from
        // the goal costs its super-sector, not every sector in between).
        // Only as built, loaded or refreshed: a local update leaves the
        // clusters as they were (its new regions have none, and an opening
        // may join a closed cluster's component to others), so after one
        // every sector is looked at.
        let mut best = key(start, goal, start);
        let mut best_cell = start;
        let conn = &h.connectivity;
        let closed = h.region_end.is_empty()
            && conn
                .cluster_of_region
                .get(rs as usize)
                .and_then(|&c| conn.open_index.get(c as usize))
                == Some(&u32::MAX);
        if closed {
            let m = conn.super_size;
            let (sx, sy) = layout.coords(h.regions[rs as usize].sector());
            let (x0, y0) = (sx / m * m, sy / m * m);
            for y in y0..(y0 + m).min(layout.sectors_y) {
                for x in x0..(x0 + m).min(layout.sectors_x) {
                    let s = y * layout.sectors_x + x;
                    self.nearest_in_sector(
                        h,
                        grid,
                        s,
                        rs,
                        (start, goal),
                        &mut best,
                        &mut best_cell,
                    );
                }
            }
            return Ok(best_cell);
        }
        let (gx, gy) = layout.coords(layout.sector_of(goal));
        let (nx, ny) = (layout.sectors_x as i64, layout.sectors_y as i64);
        let (gx, gy) = (gx as i64, gy as i64);
        let rings = gx.max(nx - 1 - gx).max(gy).max(ny - 1 - gy);
        // The start itself is reachable: the answer is never worse.
        for k in 0..=rings {
            // Every cell of a sector `k` sectors away (Chebyshev) is at
            // least `(k - 1) · size + 1` cells from the goal.
            let bound = if k == 0 {
                0
            } else {
                ((k as u64 - 1) * layout.size as u64 + 1) * COST_ONE
            };
            if bound > best.0 {
                break;
            }
            for (sx, sy) in ring(gx, gy, k) {
                if sx < 0 || sy < 0 || sx >= nx || sy >= ny {
                    continue;
                }
                let s = (sy * nx + sx) as u32;
                self.nearest_in_sector(h, grid, s, rs, (start, goal), &mut best, &mut best_cell);
            }
        }
        Ok(best_cell)
    }

    /// Lowers `best` to the cells of sector `s` that lie in regions
    /// connected to `rs`, if any is nearer.
    #[allow(clippy::too_many_arguments)]
    fn nearest_in_sector(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        s: u32,
        rs: u32,
        (start, goal): (Point, Point),
        best: &mut Key,
        best_cell: &mut Point,
    ) {
        let rect = h.sector_rect(s);
        if octile_cost(goal, clamp_into(rect, goal)) > best.0 {
            return;
        }
        // The sector's regions (after a local update not always followed
        // by the next sector's).
        let (lo, hi) = {
            let mine = h.sector_regions(s);
            (mine.start, mine.end)
        };
        let wanted = |r: u32, best: &Key| {
            let reg = &h.regions[r as usize];
            let bbox = Rect {
                x0: reg.min[0] as u32,
                y0: reg.min[1] as u32,
                x1: reg.max[0] as u32 + 1,
                y1: reg.max[1] as u32 + 1,
            };
            h.connectivity.connected(rs, r) && octile_cost(goal, clamp_into(bbox, goal)) <= best.0
        };
        if !(lo..hi).any(|r| wanted(r, best)) {
            return;
        }
        self.lab.label_runs(grid, rect);
        for r in lo..hi {
            if !wanted(r, best) {
                continue;
            }
            let rep = h.regions[r as usize].representative();
            let (lx, ly) = (rep.x - rect.x0, rep.y - rect.y0);
            let Some(label) = self
                .lab
                .runs
                .iter()
                .find(|run| run.y as u32 == ly && (run.x0 as u32..run.x1 as u32).contains(&lx))
                .map(|run| run.label)
            else {
                continue;
            };
            self.nearest_in_runs(rect, label, (start, goal), best, best_cell);
        }
    }

    /// Lowers `best` to the cells of the labelled runs of `rect` (in
    /// `self.lab`) carrying `label`. Along a row the octile distance to the
    /// goal falls strictly towards the goal's column, so each run's nearest
    /// cell is the goal's column clamped into it.
    fn nearest_in_runs(
        &self,
        rect: Rect,
        label: u16,
        (start, goal): (Point, Point),
        best: &mut Key,
        best_cell: &mut Point,
    ) {
        for run in self.lab.runs.iter().filter(|run| run.label == label) {
            let y = rect.y0 + run.y as u32;
            let x = goal
                .x
                .clamp(rect.x0 + run.x0 as u32, rect.x0 + run.x1 as u32 - 1);
            let c = Point::new(x, y);
            let k = key(start, goal, c);
            if k < *best {
                *best = k;
                *best_cell = c;
            }
        }
    }

    /// The nearest cell for a sealed start (in no region): its piece of its
    /// sector is all it reaches.
    fn nearest_in_sealed_piece(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Point {
        let rect = h.sector_rect(h.layout.sector_of(start));
        self.lab.label_runs(grid, rect);
        let (lx, ly) = (start.x - rect.x0, start.y - rect.y0);
        let label = self
            .lab
            .runs
            .iter()
            .find(|run| run.y as u32 == ly && (run.x0 as u32..run.x1 as u32).contains(&lx))
            .map_or(0, |run| run.label);
        let mut best = key(start, goal, start);
        let mut best_cell = start;
        self.nearest_in_runs(rect, label, (start, goal), &mut best, &mut best_cell);
        best_cell
    }
}

/// The sector coordinates on the square ring `k` sectors (Chebyshev) from
/// `(cx, cy)`; some may lie off the map.
fn ring(cx: i64, cy: i64, k: i64) -> impl Iterator<Item = (i64, i64)> {
    let rows = (cx - k..=cx + k).flat_map(move |x| {
        let bottom = (k > 0).then_some((x, cy + k));
        std::iter::once((x, cy - k)).chain(bottom)
    });
    let cols = (cy - k + 1..cy + k).flat_map(move |y| [(cx - k, y), (cx + k, y)]);
    rows.chain(cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each ring holds exactly the sectors at that Chebyshev distance, once.
    #[test]
    fn rings_cover_each_distance_once() {
        for k in 0..5i64 {
            let mut got: Vec<_> = ring(10, 20, k).collect();
            got.sort_unstable();
            let mut want: Vec<_> = (5..16)
                .flat_map(|x| (15..26).map(move |y| (x, y)))
                .filter(|&(x, y)| (x - 10i64).abs().max((y - 20i64).abs()) == k)
                .collect();
            want.sort_unstable();
            assert_eq!(got, want, "ring {k}");
        }
    }
}
