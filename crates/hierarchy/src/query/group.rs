//! Group paths: many units from nearby starts to one goal share planned
//! paths and each finds only its own way onto one.
//!
//! A round plans one full path, the *shared path*, from the waiting unit
//! nearest the waiting units' centre (the round's leader). Then one search
//! serves every waiting unit near it: a Dijkstra over a box around them
//! (their bounding box widened by a third of the leg window on each side,
//! at most [`MAX_FIELD_SIDE`] a side around the leader) from all the shared
//! path's cells in the box at once, each seeded with its remaining cost
//! along the shared path: a small flow field towards the goal. A unit it
//! reaches follows its parents to the join cell that minimises its cost to
//! get there plus the shared path's rest, then the shared path. Units it
//! does not reach (walled off from the shared path inside the box, or
//! outside the box) wait for the next round, whose leader is one of them.
//! After [`MAX_ROUNDS`] rounds the rest get a full query each. A unit the
//! connectivity matrix cuts off from the goal gets its own
//! [`PlanError::Unreachable`] in O(1).

use super::{served, CellPlanner, PlanError};
use crate::model::Hierarchy;
use regionpath_grid::{Dir, Grid, Point};
use regionpath_search::{octile_cost, weighted_path_cost, Cost, Window, COST_DIAGONAL, COST_ONE};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Largest side of a round's search box, in cells (centred on the
/// leader): about 16 bytes a cell of scratch (1 MB), a few milliseconds of
/// search at most.
pub const MAX_FIELD_SIDE: u32 = 256;

/// Rounds (shared paths) a group query plans at most; the units still
/// waiting after them get a full query each.
pub const MAX_ROUNDS: u32 = 8;

/// How much dearer than a lower bound on its optimum a unit's path onto a
/// round's shared path may be (see [`GroupPaths::follow_field`]).
const ACCEPT: f64 = 1.03;

/// No parent: a cell of the shared path, or not reached.
const NO_PARENT: u32 = u32::MAX;

/// Figures about one group query ([`CellPlanner::find_group_paths`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupStats {
    /// Units in the group.
    pub units: u32,
    /// Rounds whose leader's full query gave a shared path.
    pub leaders: u32,
    /// Units whose path joins a shared path (leaders not counted).
    pub joined: u32,
    /// Units planned by a full query of their own after the last round,
    /// or because their start is off the grid or blocked.
    pub independent: u32,
    /// Units whose result is an error.
    pub failed: u32,
    /// Cells of the boxes the rounds' searches covered, summed.
    pub field_cells: u64,
    /// Nodes expanded by every search of the group query: the full
    /// queries' ([`crate::PlanStats::expanded`]) and the rounds' searches
    /// (cells).
    pub expanded: u64,
}

/// The paths of a group query, one result per unit in the order of the
/// starts given, plus reusable scratch: keep one and pass it to every
/// [`CellPlanner::find_group_paths`]; once its buffers have grown, a group
/// query allocates nothing.
#[derive(Default)]
pub struct GroupPaths {
    /// Every unit's cells, one after the other.
    cells: Vec<Point>,
    /// Per unit: its cells' range in `cells` and their cost, or its error.
    spans: Vec<Result<(usize, usize, f64), PlanError>>,
    /// The units still waiting for a path.
    todo: Vec<u32>,
    /// The current round's shared path (the leader's).
    shared: Vec<Point>,
    /// `rem[j]`: the cost of `shared[j..]` in the search's fixed point.
    rem: Vec<Cost>,
    /// One unit's path.
    leg: Vec<Point>,
    /// The current round's search box (`None`: no search this round).
    field: Option<Window>,
    /// Per box cell: the cost to the goal through the shared path
    /// (`Cost::MAX`: not reached).
    field_cost: Vec<Cost>,
    /// Per box cell: the box index of the next cell towards the shared
    /// path, or [`NO_PARENT`].
    field_parent: Vec<u32>,
    /// Per box cell: 1 + the index of the shared cell there, or 0.
    field_shared: Vec<u32>,
    /// Per box cell: the cost from the round's leader inside the box
    /// (`Cost::MAX`: not reached).
    lead_cost: Vec<Cost>,
    heap: BinaryHeap<Reverse<(Cost, u32)>>,
    stats: GroupStats,
}

impl std::fmt::Debug for GroupPaths {
    /// The figures and how many cells are held (not the cells).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupPaths")
            .field("units", &self.spans.len())
            .field("cells", &self.cells.len())
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
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
            Ok((a, b, _)) => Ok(&self.cells[*a..*b]),
            Err(e) => Err(e),
        })
    }

    /// The cost of unit `i`'s path (as [`crate::PlanStats::cost`]: 1 per
    /// straight step and √2 per diagonal, or the profile's costs); `None`
    /// when it has none or `i` is not a unit of the last group query.
    pub fn cost(&self, i: usize) -> Option<f64> {
        match self.spans.get(i) {
            Some(Ok((_, _, c))) => Some(*c),
            _ => None,
        }
    }

    /// Every unit's result, in the order of the starts.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Result<&[Point], &PlanError>> + '_ {
        self.spans.iter().map(|r| match r {
            Ok((a, b, _)) => Ok(&self.cells[*a..*b]),
            Err(e) => Err(e),
        })
    }

    /// Figures about the last group query.
    pub fn stats(&self) -> GroupStats {
        self.stats
    }

    /// Writes `u`'s path into `self.leg` when the round's search reached
    /// it and its cost passes the check below: its parents to the shared
    /// path, then the shared path's rest. The parents never pass a shared
    /// cell after the join (those cost less to the goal than the join
    /// itself), so no cell repeats.
    ///
    /// The check: the path's cost `F` must be at most [`ACCEPT`] times a
    /// bound below the unit's optimum `d(u)`: the octile distance to the
    /// goal priced at `floor`, or the shared path's cost `C` less the
    /// leader's cost to `u` inside the box, `d_box(L, u)` (by the triangle
    /// inequality `d(u) ≥ d(L) − d(L, u)`, and `C` is `d(L)` up to the
    /// leader path's own suboptimality). A unit whose best way onto the
    /// shared path is a detour (the shared path runs the other way round
    /// a wall from it) fails the check and waits for the next round.
    fn follow_field(&mut self, u: Point, goal: Point, floor: f64) -> bool {
        let Some(b) = self.field.filter(|b| b.contains(u)) else {
            return false;
        };
        let mut i = ((u.y - b.y) * b.width + (u.x - b.x)) as usize;
        let f = self.field_cost[i];
        if f == Cost::MAX {
            return false;
        }
        let by_leader = self.rem[0].saturating_sub(self.lead_cost[i]) as f64;
        let by_octile = octile_cost(u, goal) as f64 * floor;
        if f as f64 > ACCEPT * by_leader.max(by_octile) {
            return false;
        }
        self.leg.clear();
        loop {
            let (x, y) = (i as u32 % b.width, i as u32 / b.width);
            self.leg.push(Point::new(b.x + x, b.y + y));
            match self.field_parent[i] {
                NO_PARENT => break,
                p => i = p as usize,
            }
        }
        let j = self.field_shared[i] as usize - 1;
        self.leg.extend_from_slice(&self.shared[j + 1..]);
        true
    }

    /// Records unit `i`'s result: the cells in `self.leg` (priced by `h`),
    /// or an error.
    fn set(&mut self, h: &Hierarchy, i: usize, r: Result<(), PlanError>) {
        self.spans[i] = match r {
            Ok(()) => {
                let a = self.cells.len();
                self.cells.extend_from_slice(&self.leg);
                Ok((a, self.cells.len(), h.path_cost(&self.leg)))
            }
            Err(e) => {
                self.stats.failed += 1;
                Err(e)
            }
        };
    }
}

/// Errors that belong to one unit (its start), not to the whole group.
fn is_unit_error(e: &PlanError) -> bool {
    matches!(
        e,
        PlanError::StartOutOfBounds(_) | PlanError::StartBlocked(_) | PlanError::Unreachable { .. }
    )
}

impl CellPlanner {
    /// Plans paths from each of `starts` to `goal` (units close together,
    /// heading for one place), into `out`: unit `i`'s result is
    /// [`GroupPaths::path`]`(i)`, its own `Result`.
    ///
    /// In rounds: one full query from the waiting unit nearest the waiting
    /// units' centre gives a shared path, and one Dijkstra over a box
    /// around the waiting units (at most [`MAX_FIELD_SIDE`] a side), seeded
    /// from the shared path's cells with their remaining costs, gives each
    /// unit it reaches the best way onto the shared path within the box
    /// (see the module documentation). For 100 units in a 20 × 20 area,
    /// one round usually serves all: one full query and one search of
    /// about 60 × 60 cells instead of 100 full queries. Units still
    /// waiting after [`MAX_ROUNDS`] rounds get a full query each; a unit
    /// the connectivity matrix cuts off from the goal gets
    /// [`PlanError::Unreachable`], one off the grid or blocked its own
    /// error. Every path is legal, starts at its unit, ends at `goal` and
    /// repeats no cell; it costs at most its best way onto the shared
    /// path within the box plus the shared path's rest. Under a movement
    /// profile the cells are the profile's positions and the box search
    /// uses the profile's costs.
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
    /// // Open ground with a wall across the middle, a door at its foot.
    /// let mut grid = Grid::new(200, 40, true)?;
    /// for y in 0..36 {
    ///     grid.set_passable(Point::new(100, y), false)?;
    /// }
    /// let h = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = CellPlanner::new();
    /// let mut paths = GroupPaths::new();
    /// let starts = [Point::new(4, 10), Point::new(6, 12), Point::new(5, 14)];
    /// let goal = Point::new(190, 10);
    /// let stats = planner.find_group_paths(&h, &grid, &starts, goal, &mut paths)?;
    /// // One full query; the two others join its path.
    /// assert_eq!((stats.leaders, stats.joined), (1, 2));
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
        let r = self.group_paths(h, grid, starts, goal, out);
        if r.is_err() {
            out.cells.clear();
            out.spans.clear();
        }
        r
    }

    fn group_paths(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        starts: &[Point],
        goal: Point,
        out: &mut GroupPaths,
    ) -> Result<GroupStats, PlanError> {
        out.cells.clear();
        out.spans.clear();
        out.todo.clear();
        out.stats = GroupStats {
            units: starts.len() as u32,
            ..GroupStats::default()
        };
        self.check_group_input(h, grid, goal)?;
        out.spans.resize(starts.len(), Ok((0, 0, 0.0)));
        let sg = h.search_grid(grid);
        let goal_region = h.region_of_with(sg, goal, &mut self.lab);
        for (i, &u) in starts.iter().enumerate() {
            if !(sg.in_bounds(u) && sg.is_passable(u)) {
                // The full query names the defect.
                self.independent(h, grid, i, u, goal, out)?;
                continue;
            }
            let ru = h.region_of_with(sg, u, &mut self.lab);
            if let (Some(a), Some(b)) = (ru, goal_region) {
                if !h.connectivity.connected(a, b) {
                    out.set(h, i, Err(PlanError::Unreachable { start: u, goal }));
                    continue;
                }
            }
            out.todo.push(i as u32);
        }
        let margin = self.config.window / 3;
        let floor = f64::from(h.cost_floor());
        for _ in 0..MAX_ROUNDS {
            let Some(k) = leader_of(starts, &out.todo) else {
                break;
            };
            let i = out.todo.swap_remove(k) as usize;
            match self.find_path_into(h, grid, starts[i], goal, &mut out.shared) {
                Ok(st) => out.stats.expanded += u64::from(st.expanded),
                Err(e) if is_unit_error(&e) => {
                    out.set(h, i, Err(e));
                    continue;
                }
                Err(e) => return Err(e),
            }
            out.stats.leaders += 1;
            std::mem::swap(&mut out.leg, &mut out.shared);
            out.set(h, i, Ok(()));
            std::mem::swap(&mut out.leg, &mut out.shared);
            remaining_costs(h, out);
            round_field(h, sg, starts, starts[i], margin, out);
            let mut k = 0;
            while k < out.todo.len() {
                let i = out.todo[k] as usize;
                if out.follow_field(starts[i], goal, floor) {
                    out.stats.joined += 1;
                    out.set(h, i, Ok(()));
                    out.todo.swap_remove(k);
                } else {
                    k += 1;
                }
            }
        }
        while let Some(i) = out.todo.pop() {
            let i = i as usize;
            self.independent(h, grid, i, starts[i], goal, out)?;
        }
        Ok(out.stats)
    }

    /// Unit `i`'s own full query; a whole-group error is returned.
    fn independent(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        i: usize,
        u: Point,
        goal: Point,
        out: &mut GroupPaths,
    ) -> Result<(), PlanError> {
        out.stats.independent += 1;
        match self.find_path_into(h, grid, u, goal, &mut out.leg) {
            Ok(st) => {
                out.stats.expanded += u64::from(st.expanded);
                out.set(h, i, Ok(()));
            }
            Err(e) if is_unit_error(&e) => out.set(h, i, Err(e)),
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// The checks that concern the whole group: the grid and the goal.
    fn check_group_input(&self, h: &Hierarchy, grid: &Grid, goal: Point) -> Result<(), PlanError> {
        served(h, grid)?;
        let sg = h.search_grid(grid);
        if !sg.in_bounds(goal) {
            return Err(PlanError::GoalOutOfBounds(goal));
        }
        if !sg.is_passable(goal) {
            return Err(PlanError::GoalBlocked(goal));
        }
        Ok(())
    }
}

/// The position in `todo` of the unit nearest the centre of the units in
/// `todo` (ties: the earlier unit), or `None` when `todo` is empty.
fn leader_of(starts: &[Point], todo: &[u32]) -> Option<usize> {
    if todo.is_empty() {
        return None;
    }
    let n = todo.len() as u64;
    let (sx, sy) = todo.iter().fold((0u64, 0u64), |(x, y), &i| {
        let p = starts[i as usize];
        (x + u64::from(p.x), y + u64::from(p.y))
    });
    // The centre, doubled to stay in integers.
    let (cx, cy) = (2 * sx / n, 2 * sy / n);
    let dist = |p: Point| {
        let dx = (2 * u64::from(p.x)).abs_diff(cx);
        let dy = (2 * u64::from(p.y)).abs_diff(cy);
        dx * dx + dy * dy
    };
    (0..todo.len()).min_by_key(|&k| (dist(starts[todo[k] as usize]), todo[k]))
}

/// Fills `out.rem` for `out.shared`: the cost from each cell to the goal
/// along it, in fixed point (under a profile's costs, each step's cost
/// rounded to fixed point).
fn remaining_costs(h: &Hierarchy, out: &mut GroupPaths) {
    let n = out.shared.len();
    out.rem.clear();
    out.rem.resize(n, 0);
    for j in (0..n.saturating_sub(1)).rev() {
        let step = step_cost(h, out.shared[j], out.shared[j + 1]);
        out.rem[j] = out.rem[j + 1] + step;
    }
}

/// The fixed-point cost of one legal step from `a` to `b` (the same both
/// ways).
fn step_cost(h: &Hierarchy, a: Point, b: Point) -> Cost {
    match h.weights() {
        Some((view, _)) => (weighted_path_cost(view, &[a, b]) * COST_ONE as f64).round() as Cost,
        None if a.x != b.x && a.y != b.y => COST_DIAGONAL,
        None => COST_ONE,
    }
}

/// A round's searches over the box around the waiting units (their
/// bounding box widened by `margin` on each side, cut to
/// [`MAX_FIELD_SIDE`] a side around `leader` and to the grid): a Dijkstra
/// from every shared cell in the box, seeded with its remaining cost, into
/// `out.field_*`, and one from the leader into `out.lead_cost`. Moves and
/// costs are symmetric (the corner rule, and a step's cost under a profile
/// is its length times the mean of its two positions' costs), so a cell's
/// parents lead forwards to the shared path. `out.field` stays `None` when
/// the box holds no shared cell.
fn round_field(
    h: &Hierarchy,
    sg: &Grid,
    starts: &[Point],
    leader: Point,
    margin: u32,
    out: &mut GroupPaths,
) {
    out.field = None;
    let (mut lo, mut hi) = (leader, leader);
    for &i in &out.todo {
        let p = starts[i as usize];
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    let half = MAX_FIELD_SIDE / 2;
    let x0 =
        lo.x.saturating_sub(margin)
            .max(leader.x.saturating_sub(half));
    let y0 =
        lo.y.saturating_sub(margin)
            .max(leader.y.saturating_sub(half));
    let x1 =
        hi.x.saturating_add(margin)
            .min(leader.x + half - 1)
            .min(sg.width() - 1);
    let y1 =
        hi.y.saturating_add(margin)
            .min(leader.y + half - 1)
            .min(sg.height() - 1);
    let b = Window {
        x: x0,
        y: y0,
        width: x1 - x0 + 1,
        height: y1 - y0 + 1,
    };
    let at = |p: Point| ((p.y - b.y) * b.width + (p.x - b.x)) as usize;
    out.field_cost.clear();
    out.field_cost.resize(b.area(), Cost::MAX);
    out.field_parent.clear();
    out.field_parent.resize(b.area(), NO_PARENT);
    out.field_shared.clear();
    out.field_shared.resize(b.area(), 0);
    out.heap.clear();
    for (j, &c) in out.shared.iter().enumerate() {
        if b.contains(c) {
            let i = at(c);
            out.field_cost[i] = out.rem[j];
            out.field_shared[i] = j as u32 + 1;
            out.heap.push(Reverse((out.rem[j], i as u32)));
        }
    }
    if out.heap.is_empty() {
        return;
    }
    let mut expanded = box_dijkstra(
        h,
        sg,
        b,
        &mut out.heap,
        &mut out.field_cost,
        Some(&mut out.field_parent),
    );
    out.lead_cost.clear();
    out.lead_cost.resize(b.area(), Cost::MAX);
    out.lead_cost[at(leader)] = 0;
    out.heap.push(Reverse((0, at(leader) as u32)));
    expanded += box_dijkstra(h, sg, b, &mut out.heap, &mut out.lead_cost, None);
    out.field = Some(b);
    out.stats.field_cells += b.area() as u64;
    out.stats.expanded += expanded;
}

/// Dijkstra inside box `b` from the cells already in `heap` (with their
/// costs in `cost`, every other cell `Cost::MAX`), writing each cell's
/// cost and, when given, the box index of the cell it was reached from.
/// Returns the cells expanded.
fn box_dijkstra(
    h: &Hierarchy,
    sg: &Grid,
    b: Window,
    heap: &mut BinaryHeap<Reverse<(Cost, u32)>>,
    cost: &mut [Cost],
    mut parent: Option<&mut Vec<u32>>,
) -> u64 {
    let mut expanded = 0u64;
    while let Some(Reverse((g, i))) = heap.pop() {
        if g > cost[i as usize] {
            continue;
        }
        expanded += 1;
        let p = Point::new(b.x + i % b.width, b.y + i / b.width);
        for d in Dir::ALL {
            if !sg.can_step(p, d) {
                continue;
            }
            let (dx, dy) = d.delta();
            let q = Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
            if !b.contains(q) {
                continue;
            }
            let j = ((q.y - b.y) * b.width + (q.x - b.x)) as usize;
            let ng = g.saturating_add(step_cost(h, q, p));
            if ng < cost[j] {
                cost[j] = ng;
                if let Some(parent) = parent.as_deref_mut() {
                    parent[j] = i;
                }
                heap.push(Reverse((ng, j as u32)));
            }
        }
    }
    expanded
}
