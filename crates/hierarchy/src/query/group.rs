//! Group paths: many units from nearby starts to one goal share one planned
//! path and each searches only its own way onto it.
//!
//! One full query plans the *shared path* from the start nearest the
//! group's centre (the leader). Every other unit runs one windowed A* (the
//! planner's leg window, centred on the unit) whose goals are the shared
//! path's cells inside the window, each priced at its remaining cost along
//! the shared path: the search ends at the join cell that minimises the
//! cost to reach it plus the rest of the shared path, and the unit's path is
//! its search path spliced onto the shared path from there. A unit whose
//! window holds no shared cell, or none it can reach inside the window, is
//! planned by its own full query (so a unit in another component gets its
//! own error).

use super::{CellPlanner, PlanError};
use crate::model::Hierarchy;
use regionpath_grid::{Grid, Point};
use regionpath_search::{
    octile_cost, weighted_path_cost, Cost, Status, Window, COST_DIAGONAL, COST_ONE,
};

/// Figures about one group query ([`CellPlanner::find_group_paths`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupStats {
    /// Units in the group.
    pub units: u32,
    /// The unit whose full query gave the shared path (`None`: no unit's
    /// query succeeded, or the group is empty).
    pub leader: Option<u32>,
    /// Cells of the shared path (0 without a leader).
    pub shared_len: u32,
    /// Units whose path joins the shared path (the leader not counted).
    pub joined: u32,
    /// Units planned by a full query of their own (the leader and failed
    /// leader candidates not counted): no shared cell in their window, or
    /// none reachable inside it.
    pub independent: u32,
    /// Units whose result is an error.
    pub failed: u32,
    /// Nodes expanded by every search of the group query: the leader's and
    /// the independent queries' ([`crate::PlanStats::expanded`]) and the
    /// join searches.
    pub expanded: u64,
}

/// The paths of a group query, one result per unit in the order of the
/// starts given, plus reusable scratch: keep one and pass it to every
/// [`CellPlanner::find_group_paths`]; once its buffers have grown, a group
/// query allocates nothing.
#[derive(Debug, Default)]
pub struct GroupPaths {
    /// Every unit's cells, one after the other.
    cells: Vec<Point>,
    /// Per unit: its cells' range in `cells`, or its error.
    spans: Vec<Result<(usize, usize), PlanError>>,
    /// The shared path (the leader's).
    shared: Vec<Point>,
    /// `rem[j]`: the cost of `shared[j..]` in the search's fixed point.
    rem: Vec<Cost>,
    /// Per cell of a unit's window: 1 + the index of the shared cell
    /// there, or 0.
    local: Vec<u32>,
    /// One search's path.
    leg: Vec<Point>,
    stats: GroupStats,
}

impl GroupPaths {
    /// Empty results and scratch.
    pub fn new() -> GroupPaths {
        GroupPaths::default()
    }

    /// Units in the last group query.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the last group query had no units.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Unit `i`'s result: its cells from its start to the goal, or why it
    /// has none. `None` when `i` is not a unit of the last group query.
    pub fn path(&self, i: usize) -> Option<Result<&[Point], &PlanError>> {
        self.spans.get(i).map(|r| match r {
            Ok((a, b)) => Ok(&self.cells[*a..*b]),
            Err(e) => Err(e),
        })
    }

    /// Every unit's result, in the order of the starts.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Result<&[Point], &PlanError>> + '_ {
        self.spans.iter().map(|r| match r {
            Ok((a, b)) => Ok(&self.cells[*a..*b]),
            Err(e) => Err(e),
        })
    }

    /// The shared path of the last group query (the leader's; empty
    /// without one).
    pub fn shared(&self) -> &[Point] {
        &self.shared
    }

    /// Figures about the last group query.
    pub fn stats(&self) -> GroupStats {
        self.stats
    }

    /// Records unit `i`'s result: the cells in `self.leg`, or an error.
    fn push_leg(&mut self, r: Result<(), PlanError>) {
        match r {
            Ok(()) => {
                let a = self.cells.len();
                self.cells.extend_from_slice(&self.leg);
                self.spans.push(Ok((a, self.cells.len())));
            }
            Err(e) => {
                self.stats.failed += 1;
                self.spans.push(Err(e));
            }
        }
    }
}

/// Errors that belong to one unit (its start), not to the whole group.
fn is_unit_error(e: &PlanError) -> bool {
    matches!(
        e,
        PlanError::StartOutOfBounds(_) | PlanError::StartBlocked(_) | PlanError::Unreachable { .. }
    )
}

/// How many units in turn may try to be the leader before the rest are
/// planned one by one (each failed try is one O(1) unreachable answer).
const LEADER_TRIES: usize = 4;

impl CellPlanner {
    /// Plans paths from each of `starts` to `goal` (units close together,
    /// heading for one place), into `out`: unit `i`'s result is
    /// [`GroupPaths::path`]`(i)`, its own `Result`.
    ///
    /// One full query from the start nearest the starts' centre gives the
    /// shared path; each other unit runs one windowed A* in a
    /// [`PlannerConfig::get_window`](super::PlannerConfig::get_window)
    /// square around itself to the shared cell that minimises its cost to
    /// get there plus the shared path's rest, and follows the shared path
    /// from there. A unit whose window holds no reachable shared cell gets
    /// its own full query (its error, such as [`PlanError::Unreachable`]
    /// for a unit in another component, is its result). For 100 units in
    /// a 20 × 20 area and a goal 800 cells away this costs one full query
    /// and 99 window searches instead of 100 full queries; paths are at
    /// most as long as the unit's best way onto the shared path within its
    /// window plus the shared path's rest. Every path is legal, starts at
    /// its unit and ends at `goal`, and repeats no cell. Under a movement
    /// profile the windows are searched with the profile's costs.
    ///
    /// Errors for the whole group (then `out` holds no results): the grid's
    /// size or revision ([`PlanError::GridMismatch`],
    /// [`PlanError::StaleGrid`]), a goal off the grid or blocked, or a
    /// hierarchy that contradicts the grid. An empty group is `Ok`.
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point};
    /// use regionpath_hierarchy::{CellPlanner, GroupPaths, Hierarchy};
    ///
    /// let grid = Grid::from_rows(&[
    ///     "..........",
    ///     "..@@@@@@..",
    ///     "..........",
    /// ])?;
    /// let h = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = CellPlanner::new();
    /// let mut paths = GroupPaths::new();
    /// let starts = [Point::new(0, 0), Point::new(1, 1), Point::new(0, 2)];
    /// let goal = Point::new(9, 1);
    /// planner.find_group_paths(&h, &grid, &starts, goal, &mut paths)?;
    /// for (i, path) in paths.iter().enumerate() {
    ///     let path = path.map_err(Clone::clone)?;
    ///     assert_eq!((path.first(), path.last()), (Some(&starts[i]), Some(&goal)));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_group_paths(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        starts: &[Point],
        goal: Point,
        out: &mut GroupPaths,
    ) -> Result<GroupStats, PlanError> {
        out.cells.clear();
        out.spans.clear();
        out.shared.clear();
        out.rem.clear();
        out.stats = GroupStats {
            units: starts.len() as u32,
            ..GroupStats::default()
        };
        self.check_group_input(h, grid, goal)?;
        let sg = h.search_grid(grid);
        let usable = |p: Point| sg.in_bounds(p) && sg.is_passable(p);
        let leader = self.plan_leader(h, grid, starts, goal, &usable, out)?;
        // The leader's region, to send units the connectivity matrix cuts
        // off from it straight to their own query (no window search).
        let mut leader_region = None;
        if let Some(l) = leader {
            out.stats.leader = Some(l as u32);
            out.stats.shared_len = out.shared.len() as u32;
            self.remaining_costs(h, out);
            leader_region = h.region_of_with(sg, starts[l], &mut self.lab);
        }
        for (i, &u) in starts.iter().enumerate() {
            if Some(i) == leader {
                out.leg.clear();
                out.leg.extend_from_slice(&out.shared);
                out.push_leg(Ok(()));
                continue;
            }
            let cut_off = usable(u)
                && match (h.region_of_with(sg, u, &mut self.lab), leader_region) {
                    (Some(a), Some(b)) => !h.connectivity.connected(a, b),
                    _ => false,
                };
            if leader.is_some() && usable(u) && !cut_off && self.join_shared(h, sg, u, goal, out)? {
                out.stats.joined += 1;
                out.push_leg(Ok(()));
                continue;
            }
            out.stats.independent += 1;
            let r = self.find_path_into(h, grid, u, goal, &mut out.leg);
            match r {
                Ok(st) => {
                    out.stats.expanded += u64::from(st.expanded);
                    out.push_leg(Ok(()));
                }
                Err(e) if is_unit_error(&e) => out.push_leg(Err(e)),
                Err(e) => return Err(self.group_failed(out, e)),
            }
        }
        Ok(out.stats)
    }

    /// The checks that concern the whole group: the grid and the goal.
    fn check_group_input(&self, h: &Hierarchy, grid: &Grid, goal: Point) -> Result<(), PlanError> {
        if grid.width() != h.width() || grid.height() != h.height() {
            return Err(PlanError::GridMismatch {
                grid_width: grid.width(),
                grid_height: grid.height(),
                width: h.width(),
                height: h.height(),
            });
        }
        if !h.is_current_for(grid) {
            return Err(PlanError::StaleGrid {
                grid: grid.revision(),
                hierarchy: h.grid_revision,
            });
        }
        let sg = h.search_grid(grid);
        if !sg.in_bounds(goal) {
            return Err(PlanError::GoalOutOfBounds(goal));
        }
        if !sg.is_passable(goal) {
            return Err(PlanError::GoalBlocked(goal));
        }
        Ok(())
    }

    /// Clears `out`'s results and returns `e` (a whole-group error).
    fn group_failed(&self, out: &mut GroupPaths, e: PlanError) -> PlanError {
        out.cells.clear();
        out.spans.clear();
        e
    }

    /// Plans the shared path into `out.shared` from the usable start nearest
    /// the usable starts' centre, trying the next nearest when that one
    /// cannot reach the goal (up to [`LEADER_TRIES`] in all). Returns the
    /// leader's index.
    fn plan_leader(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        starts: &[Point],
        goal: Point,
        usable: &impl Fn(Point) -> bool,
        out: &mut GroupPaths,
    ) -> Result<Option<usize>, PlanError> {
        let (mut sx, mut sy, mut n) = (0u64, 0u64, 0u64);
        for &p in starts.iter().filter(|&&p| usable(p)) {
            sx += u64::from(p.x);
            sy += u64::from(p.y);
            n += 1;
        }
        if n == 0 {
            return Ok(None);
        }
        // The centre, doubled to stay in integers.
        let (cx, cy) = (2 * sx / n, 2 * sy / n);
        let dist = |p: Point| {
            let dx = (2 * u64::from(p.x)).abs_diff(cx);
            let dy = (2 * u64::from(p.y)).abs_diff(cy);
            dx * dx + dy * dy
        };
        // Candidates in order of distance, without sorting: each try takes
        // the nearest start farther (in (distance, index) order) than the
        // last one tried.
        let mut last: Option<(u64, usize)> = None;
        for _ in 0..LEADER_TRIES {
            let next = starts
                .iter()
                .enumerate()
                .filter(|&(_, &p)| usable(p))
                .map(|(i, &p)| (dist(p), i))
                .filter(|&k| last.is_none_or(|l| k > l))
                .min();
            let Some((d, i)) = next else {
                return Ok(None);
            };
            last = Some((d, i));
            match self.find_path_into(h, grid, starts[i], goal, &mut out.shared) {
                Ok(st) => {
                    out.stats.expanded += u64::from(st.expanded);
                    return Ok(Some(i));
                }
                Err(e) if is_unit_error(&e) => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// Fills `out.rem` for `out.shared`: the cost from each cell to the
    /// goal along it, in the window searches' fixed point (under a
    /// profile's costs, each step's cost rounded to fixed point).
    fn remaining_costs(&self, h: &Hierarchy, out: &mut GroupPaths) {
        let n = out.shared.len();
        out.rem.clear();
        out.rem.resize(n, 0);
        for j in (0..n.saturating_sub(1)).rev() {
            let (a, b) = (out.shared[j], out.shared[j + 1]);
            let step = match h.weights() {
                Some((view, _)) => (weighted_path_cost(view, &out.shared[j..j + 2])
                    * COST_ONE as f64)
                    .round() as Cost,
                None if a.x != b.x && a.y != b.y => COST_DIAGONAL,
                None => COST_ONE,
            };
            out.rem[j] = out.rem[j + 1] + step;
        }
    }

    /// Searches `u`'s window for the best join onto the shared path and,
    /// when it finds one, writes `u`'s whole path into `out.leg`. `Ok(false)`:
    /// no shared cell in the window, or none reachable inside it.
    fn join_shared(
        &mut self,
        h: &Hierarchy,
        sg: &Grid,
        u: Point,
        goal: Point,
        out: &mut GroupPaths,
    ) -> Result<bool, PlanError> {
        let side = self.config.window;
        let win = Window::around(sg, u, u, side, side);
        out.local.clear();
        out.local.resize(win.area(), 0);
        let at = |p: Point| ((p.y - win.y) * win.width + (p.x - win.x)) as usize;
        let mut any = false;
        for (j, &c) in out.shared.iter().enumerate() {
            if win.contains(c) {
                out.local[at(c)] = j as u32 + 1;
                any = true;
            }
        }
        if !any {
            return Ok(false);
        }
        let (local, rem) = (&out.local, &out.rem);
        let is_goal = |p: Point| local[at(p)] != 0;
        let s = match h.weights() {
            Some((view, table)) => self.window.find_path_to_any_weighted_into(
                view,
                table,
                win,
                u,
                is_goal,
                |p| match local[at(p)] {
                    0 => table.octile(p, goal),
                    j => rem[j as usize - 1],
                },
                None,
                &mut out.leg,
            )?,
            None => self.window.find_path_to_any_into(
                sg,
                win,
                u,
                is_goal,
                |p| match local[at(p)] {
                    0 => octile_cost(p, goal),
                    j => rem[j as usize - 1],
                },
                None,
                &mut out.leg,
            )?,
        };
        out.stats.expanded += u64::from(s.expanded);
        let Some(&join) = out.leg.last().filter(|_| s.status == Status::Found) else {
            return Ok(false);
        };
        // The search stops at the first shared cell it expands, so no
        // other cell of its path is on the shared path: the splice repeats
        // no cell.
        let j = out.local[at(join)] as usize - 1;
        out.leg.extend_from_slice(&out.shared[j + 1..]);
        Ok(true)
    }
}
