//! Lazy queries: a [`Query`] value the caller owns, refined leg by leg by
//! any [`CellPlanner`] (the planner is only scratch).

use super::legs::window_of;
use super::route::{seed_route, RouteCosts, RouteRun, RouteSearch};
use super::*;

/// What one [`CellPlanner::step`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Part of the route search ran (or the route is ready) but no leg was
    /// handed out: call again, e.g. next frame.
    Pending,
    /// A leg was appended; more follow.
    Leg,
    /// The last leg was appended (the cells handed out reach the goal), or
    /// nothing was left to hand out.
    Done,
}

/// Whether `q` can go on after the map changes between its state and
/// `h`'s without planning again; if so its state becomes `h`'s. It can when
/// its route is planned (whole, or a quick start's first regions, whose
/// rest is planned on the current state anyway; no straight answer, no
/// paused search), every update since is remembered
/// ([`Hierarchy::changes_since`]) and none of them touched the sector of its position, of its goal or of a region left
/// on its route: those regions keep their ids and the links between them
/// their crossings, and legs are searched on the current grid anyway.
/// O(updates × route regions × log of the sectors an update touched).
fn carry_over(q: &mut Query, h: &Hierarchy, grid: &Grid) -> bool {
    let pr = &q.progress;
    if q.hierarchy == h.stamp()
        || !matches!(pr.route, Planned::Whole | Planned::Partial)
        || pr.straight.is_some()
        || q.sliced.search.is_some()
        || pr.at >= q.route.len()
    {
        return false;
    }
    let Some(changes) = h.changes_since(q.hierarchy) else {
        return false;
    };
    let (pos, goal) = (h.layout.sector_of(pr.pos), h.layout.sector_of(pr.goal));
    let ahead = &q.route[pr.at..];
    for sectors in changes {
        let hit = |s: u32| sectors.binary_search(&s).is_ok();
        if hit(pos) || hit(goal) {
            return false;
        }
        for &r in ahead {
            match h.regions.get(r as usize) {
                Some(region) if !hit(region.sector()) => {}
                _ => return false,
            }
        }
    }
    q.hierarchy = h.stamp();
    q.revision = grid.revision();
    q.carried += 1;
    true
}

/// Nodes a region expansion of a sliced route search is charged in
/// [`CellPlanner::step`]'s budget. A paused search keeps its nodes in the
/// query (a hash map, so steps of many queries can share one planner), and
/// a region expansion there prices up to eight landmark bounds per
/// neighbour: on rooms-4096 about 0.4 µs, some five times a window
/// search's cell (P50), so a budget bounds a call's time on maps of many
/// regions as on maps of few.
pub const REGION_WEIGHT: u32 = 4;

/// A sliced query's route search between steps: the regions it touched
/// and its open list, kept in the query so that steps of many queries can
/// interleave on one planner.
#[derive(Clone, Debug, Default)]
struct Sliced {
    search: Option<RouteSearch>,
    /// Whether the search follows every block: set when the marked blocks
    /// held no route (only a damaged file's block-cut tree does that).
    unrestricted: bool,
    nodes: hashbrown::HashMap<u32, route::ANode>,
    heap: BinaryHeap<Reverse<u64>>,
}

/// A lazily refined query: where it stands, its region route and the
/// hierarchy state and grid revision it was planned on. The caller owns it
/// (one per unit); any [`CellPlanner`] refines it with [`CellPlanner::next_leg`],
/// so queries in flight cannot disturb each other or a planner's full
/// queries.
///
/// Holds 12 bytes per route region, 8 per cell handed out and 20 per leg,
/// plus about 150 bytes; reuse one with
/// [`CellPlanner::restart`] to keep its buffers.
#[derive(Clone, Debug)]
#[must_use = "a query does nothing until its legs are asked for with CellPlanner::next_leg"]
pub struct Query {
    progress: Progress,
    start: Point,
    route: Vec<u32>,
    cross: Vec<(Run, Run)>,
    /// [`Hierarchy::stamp`] at the start.
    hierarchy: u64,
    /// [`Grid::revision`] at the start.
    revision: u64,
    /// [`Hierarchy::lineage`] of the hierarchy it was started on.
    lineage: u64,
    /// How many times it planned again after a map change (or on
    /// [`CellPlanner::replan_from`]).
    repairs: u32,
    /// How many times it went on after map changes off its route.
    carried: u32,
    /// The next leg starts where the unit already stands (after a repair):
    /// its first cell was handed out before and is not handed out again.
    resumed: bool,
    /// The route search of a sliced query ([`CellPlanner::step`]).
    sliced: Sliced,
    stats: PlanStats,
    /// Every cell handed out so far, in order (the last is where the unit
    /// stands): later legs search around them (see
    /// [`CellPlanner::lazy_mask`]).
    handed: Vec<Point>,
    /// Per leg handed out: the bounding box of its cells and the end of its
    /// cells in `handed`, so a leg looks only at the legs near its box.
    handed_legs: Vec<(Rect, u32)>,
}

impl Query {
    /// Where the query started.
    pub fn start(&self) -> Point {
        self.start
    }

    /// The goal.
    pub fn goal(&self) -> Point {
        self.progress.goal
    }

    /// Where the last leg handed out ended (the start before the first).
    pub fn position(&self) -> Point {
        self.progress.pos
    }

    /// Whether the last leg reached the goal.
    pub fn is_done(&self) -> bool {
        self.progress.is_done()
    }

    /// Figures about the legs refined so far (since the last repair, see
    /// [`Query::repairs`]).
    pub fn stats(&self) -> PlanStats {
        self.stats
    }

    /// How many times the query planned again: after a map change (see
    /// [`CellPlanner::next_leg`]) or when asked ([`CellPlanner::replan_from`]).
    pub fn repairs(&self) -> u32 {
        self.repairs
    }

    /// How many times the query went on after map changes without planning
    /// again: every change was off its route (see [`CellPlanner::next_leg`]).
    pub fn carried_over(&self) -> u32 {
        self.carried
    }

    /// Whether a unit standing at `at`, a cell this query handed out, can
    /// still walk the rest of what was handed out on `grid`: every cell
    /// after the last occurrence of `at` passable and every move legal (no
    /// corner cut). Before the first leg (or the first after a repair) that
    /// is whether `at` is [`Query::position`] and passable; `false` when `at`
    /// was not handed out. Costs the cells
    /// after `at` (and a scan back to it); a game calls it after a map edit
    /// for the units walking near it, then [`CellPlanner::replan_from`]
    /// where it says `false`.
    ///
    /// For a hierarchy with a movement profile, pass its view
    /// ([`Hierarchy::profile_view`], its `grid()`): positions are footprints there.
    pub fn ahead_is_clear(&self, grid: &Grid, at: Point) -> bool {
        if self.handed.is_empty() {
            // Nothing handed out since the start or the last repair.
            return at == self.progress.pos && grid.is_passable(at);
        }
        let Some(i) = self.handed.iter().rposition(|&p| p == at) else {
            return false;
        };
        let rest = &self.handed[i..];
        rest.iter().all(|&p| grid.is_passable(p))
            && rest.windows(2).all(|w| {
                let (dx, dy) = (w[1].x as i32 - w[0].x as i32, w[1].y as i32 - w[0].y as i32);
                Dir::from_delta(dx, dy).is_some_and(|d| grid.can_step(w[0], d))
            })
    }

    /// The region route planned so far (region ids, the start's first; empty
    /// when the query was answered without one).
    pub fn route(&self) -> impl ExactSizeIterator<Item = crate::RegionId> + '_ {
        self.route.iter().map(|&r| crate::RegionId::new(r))
    }
}

impl CellPlanner {
    /// Starts a lazy query: checks the input (bounds, blocked cells, a
    /// grid the hierarchy serves), answers reachability from the
    /// connectivity matrix in O(1) and plans the abstract route, which the
    /// returned [`Query`] keeps. Then [`CellPlanner::next_leg`] refines it leg
    /// by leg: the first leg is ready after one window search, an immediate
    /// start for the unit.
    ///
    /// With [`PlannerConfig::get_quick_start`] (the default), a long route is
    /// planned only as far as the first leg needs; the rest is planned when
    /// the second leg is asked for. Allocates the query's route (see
    /// [`CellPlanner::restart`] to reuse one).
    pub fn start(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Query, PlanError> {
        let mut q = Query {
            progress: Progress::finished(start, goal),
            start,
            route: Vec::new(),
            cross: Vec::new(),
            hierarchy: 0,
            revision: 0,
            lineage: 0,
            carried: 0,
            repairs: 0,
            resumed: false,
            sliced: Sliced::default(),
            stats: PlanStats::default(),
            handed: Vec::new(),
            handed_legs: Vec::new(),
        };
        self.restart(&mut q, h, grid, start, goal)?;
        Ok(q)
    }

    /// [`CellPlanner::start`] into an existing query, reusing its buffers: once
    /// they have grown, starting a query allocates nothing. On error the
    /// query is left finished (no legs).
    pub fn restart(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<(), PlanError> {
        q.progress = Progress::finished(start, goal);
        q.start = start;
        q.route.clear();
        q.cross.clear();
        q.handed.clear();
        q.handed_legs.clear();
        q.hierarchy = h.stamp();
        q.revision = grid.revision();
        q.lineage = h.lineage();
        q.repairs = 0;
        q.carried = 0;
        q.resumed = false;
        q.sliced.search = None;
        q.stats = PlanStats::default();
        let quick = self.config.quick_start && !self.defer_route;
        self.begin(h, h.search_grid(grid), start, goal, Kind::Lazy { quick })?;
        if let Some(pr) = self.progress.take() {
            q.progress = pr;
        }
        q.route.extend_from_slice(&self.route);
        q.cross.extend_from_slice(&self.cross);
        q.stats = self.stats;
        Ok(())
    }

    /// Refines the next leg of `q`, appending its cells to `out` (the first
    /// leg includes the start cell; later legs continue from the last
    /// cell). Returns `Ok(true)` while legs remain, `Ok(false)` after the
    /// last (and on every later call).
    ///
    /// A leg covers the longest stretch of the route, from the region of
    /// the current position to some region `j`, whose sectors fit together
    /// in one `window × window` box (two sectors a side when sectors are
    /// larger than half the window). It runs jump point search
    /// ([`WindowedJps`]) inside that box to the nearest cell where the route
    /// leaves region `j` (or to the goal on the last leg), and hands out that
    /// path but its last cells inside region `j`, up to
    /// [`PlannerConfig::get_join_radius`] of them and at most half: the next
    /// leg starts where the handed-out cells end and searches those again
    /// with the way on, which straightens the join. The box holds the
    /// route's chain of regions, so the search succeeds on the grid the
    /// query was planned on; it may also cut through sectors off the route
    /// where that is shorter. Costs one window search (plus the rest of the
    /// route's planning on the second leg of a quick start); allocates
    /// nothing once warm.
    ///
    /// **Map changes.** A query survives them: when `h` is a later state of
    /// the hierarchy it was planned on (updated after edits, or a clone of
    /// it updated: the same [`Hierarchy::lineage`]) or the grid's revision
    /// changed, the query goes on as planned when every update since kept
    /// off the sectors of its position, its goal and the regions left on its
    /// route (the last 64 updates are remembered; counted by
    /// [`Query::carried_over`]); otherwise the next leg first plans again
    /// from where the last leg ended ([`Query::position`]) on the current
    /// state: one route search,
    /// counted by [`Query::repairs`]. The legs before stay handed out (the
    /// unit walks or walked them); the new legs continue from that cell
    /// (it is not handed out twice). A unit standing elsewhere on the legs
    /// handed out (a unit mid-leg when a wall appeared ahead: see
    /// [`Query::ahead_is_clear`]) is replanned with
    /// [`CellPlanner::replan_from`]. A finished query stays finished.
    ///
    /// Errors: [`PlanError::QueryMismatch`] for a hierarchy of another
    /// lineage; [`PlanError::StaleGrid`] for a grid edited without
    /// [`Hierarchy::update`]; after a change, [`PlanError::Trapped`] when the
    /// position is now blocked and [`PlanError::Unreachable`] or
    /// [`PlanError::GoalBlocked`] when the goal can no longer be reached.
    /// After an error the query is finished (no more legs).
    pub fn next_leg(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) -> Result<bool, PlanError> {
        self.check_query(q, h, grid)?;
        if q.progress.is_done() {
            return Ok(false);
        }
        if (q.hierarchy != h.stamp() || q.revision != grid.revision()) && !carry_over(q, h, grid) {
            let at = q.progress.pos;
            self.repair(q, h, grid, at)?;
        }
        // The query's state becomes the planner's for one leg: swapped, not
        // copied, and swapped back whatever the outcome.
        std::mem::swap(&mut self.route, &mut q.route);
        std::mem::swap(&mut self.cross, &mut q.cross);
        std::mem::swap(&mut self.handed, &mut q.handed);
        std::mem::swap(&mut self.handed_legs, &mut q.handed_legs);
        self.progress = Some(q.progress);
        self.stats = q.stats;
        self.marked = None;
        let before = out.len();
        let result = self.leg_into(h, h.search_grid(grid), out);
        if result.is_ok() {
            self.hand_out(&out[before..]);
            if std::mem::take(&mut q.resumed) && out.len() > before {
                // The unit stands on the leg's first cell already.
                out.remove(before);
            }
        }
        std::mem::swap(&mut self.route, &mut q.route);
        std::mem::swap(&mut self.cross, &mut q.cross);
        std::mem::swap(&mut self.handed, &mut q.handed);
        std::mem::swap(&mut self.handed_legs, &mut q.handed_legs);
        if let Some(pr) = self.progress.take() {
            q.progress = pr;
        }
        q.stats = self.stats;
        if result.is_err() {
            q.progress.phase = Phase::Done;
        }
        result
    }
}

impl CellPlanner {
    /// Plans `q` again from `at`, where the unit stands: a cell the query
    /// handed out (its start before the first leg). The cells handed out
    /// after `at` are dropped (the unit will not walk them); the next
    /// [`CellPlanner::next_leg`] continues from `at` without handing it
    /// out again. For a unit mid-leg when the map changed ahead of it
    /// ([`Query::ahead_is_clear`] says `false`), or whenever the game wants
    /// a fresh plan. Costs what [`CellPlanner::restart`] costs (one route
    /// search); counted by [`Query::repairs`].
    ///
    /// Errors: [`PlanError::NotHandedOut`] (the query is left as it was),
    /// the staleness errors of [`CellPlanner::next_leg`], and
    /// [`PlanError::Trapped`], [`PlanError::Unreachable`] or
    /// [`PlanError::GoalBlocked`] (the query is then finished).
    pub fn replan_from(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        at: Point,
    ) -> Result<(), PlanError> {
        self.check_query(q, h, grid)?;
        let handed = if q.handed.is_empty() {
            at == q.start
        } else {
            q.handed.contains(&at)
        };
        if !handed {
            return Err(PlanError::NotHandedOut(at));
        }
        self.repair(q, h, grid, at)
    }

    /// [`CellPlanner::start`] for a query advanced by
    /// [`CellPlanner::step`] under a budget: only the O(1) work is done
    /// here (bounds, blocked cells, reachability from the connectivity
    /// matrix, a straight line where there is one); the route search is
    /// left to the steps. Allocates the query's buffers (see
    /// [`CellPlanner::restart_sliced`] to reuse them).
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point};
    /// use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, Step};
    ///
    /// let mut grid = Grid::new(200, 60, true)?;
    /// for y in 0..50 {
    ///     grid.set_passable(Point::new(100, y), false)?;
    /// }
    /// let h = Hierarchy::build(&grid, &HierarchyConfig::default())?;
    /// let mut planner = CellPlanner::new();
    /// let (s, g) = (Point::new(2, 2), Point::new(197, 2));
    /// let mut q = planner.start_sliced(&h, &grid, s, g)?;
    /// let mut cells = Vec::new();
    /// // At most about 1,000 nodes a call: one call per frame.
    /// while planner.step(&mut q, &h, &grid, 1_000, &mut cells)? != Step::Done {}
    /// assert_eq!((cells[0], *cells.last().unwrap()), (s, g));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start_sliced(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Query, PlanError> {
        self.defer_route = true;
        let q = self.start(h, grid, start, goal);
        self.defer_route = false;
        q
    }

    /// [`CellPlanner::start_sliced`] into an existing query, reusing its
    /// buffers (the route search's too): allocates nothing once warm.
    pub fn restart_sliced(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<(), PlanError> {
        self.defer_route = true;
        let r = self.restart(q, h, grid, start, goal);
        self.defer_route = false;
        r
    }

    /// Advances `q` by a bounded amount of work and hands out at most one
    /// leg: the frame-budget form of [`CellPlanner::next_leg`], for a
    /// query started with [`CellPlanner::start_sliced`] (any lazy query
    /// works; one from [`CellPlanner::start`] has its route already).
    ///
    /// **Bound.** A call expands at most `budget / 4` regions in the route
    /// search (at least one; a region expansion is charged as
    /// [`REGION_WEIGHT`] nodes, about what it costs against a cell's; the
    /// search pauses there and resumes on the next call, its state kept in
    /// the query, so steps of many queries interleave freely on one
    /// planner), and then, if budget is left, refines one leg whose box
    /// holds at most `max(left, 4 · sector²)` cells (a side of √left, at
    /// least two sectors' span): a window search expands a cell at most
    /// once, and its fallback (see [`CellPlanner::next_leg`]) once more.
    /// So a call does O(`budget` + sector²) work whatever the map size and
    /// route length; legs are shorter under small budgets.
    ///
    /// Returns [`Step::Pending`] (no leg yet: call again), [`Step::Leg`]
    /// (cells appended to `out` as [`CellPlanner::next_leg`] appends them)
    /// or [`Step::Done`]. Map changes, errors and the query's end behave
    /// as in [`CellPlanner::next_leg`] (a repair's route search is sliced
    /// too). Dropping a query between calls is always fine. Allocates
    /// nothing once the query's and planner's buffers are warm.
    pub fn step(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        budget: u32,
        out: &mut Vec<Point>,
    ) -> Result<Step, PlanError> {
        self.check_query(q, h, grid)?;
        if q.progress.is_done() {
            return Ok(Step::Done);
        }
        if (q.hierarchy != h.stamp() || q.revision != grid.revision()) && !carry_over(q, h, grid) {
            let at = q.progress.pos;
            self.defer_route = true;
            let r = self.repair(q, h, grid, at);
            self.defer_route = false;
            r?;
        }
        let mut left = budget.max(1);
        if q.progress.route == Planned::Pending
            && (!self.route_slice(q, h, &mut left)? || left == 0)
        {
            return Ok(Step::Pending);
        }
        self.leg_cap = left.isqrt().max(2 * h.sector_size());
        let r = self.next_leg(q, h, grid, out);
        self.leg_cap = u32::MAX;
        Ok(if r? { Step::Leg } else { Step::Done })
    }

    /// Runs `q`'s pending route search for at most `*left` nodes
    /// (decremented; a region counts as [`REGION_WEIGHT`] nodes, at least
    /// one region a call); `true` once the route is in the query.
    fn route_slice(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        left: &mut u32,
    ) -> Result<bool, PlanError> {
        let pr = q.progress;
        let search = match q.sliced.search {
            Some(s) => s,
            None => {
                let s = RouteSearch {
                    from: pr.from,
                    to: pr.to,
                    start: pr.pos,
                    goal: pr.goal,
                    corridor: route::Corridor::All,
                    costs: RouteCosts::Representatives,
                };
                q.sliced.nodes.clear();
                q.sliced.heap.clear();
                seed_route(h, &s, &mut q.sliced.nodes, &mut q.sliced.heap);
                q.sliced.search = Some(s);
                q.sliced.unrestricted = false;
                s
            }
        };
        self.marked = None;
        self.avoid.clear();
        self.stats = q.stats;
        let restrict = !q.sliced.unrestricted && self.mark_blocks(h, search.from, search.to);
        let (nodes, heap) = (&mut q.sliced.nodes, &mut q.sliced.heap);
        // A region expansion is charged as `REGION_WEIGHT` nodes.
        let mut regions = (*left / REGION_WEIGHT).max(1);
        let granted = regions;
        let run = self.run_route(h, &search, restrict, nodes, heap, &mut regions);
        *left = left.saturating_sub((granted - regions) * REGION_WEIGHT);
        let result = match run {
            RouteRun::Paused => Ok(false),
            RouteRun::Empty if restrict => {
                // As in `route_in`: search every block from the start.
                q.sliced.unrestricted = true;
                q.sliced.nodes.clear();
                q.sliced.heap.clear();
                seed_route(h, &search, &mut q.sliced.nodes, &mut q.sliced.heap);
                Ok(false)
            }
            RouteRun::Found(r) => {
                self.route.clear();
                self.cross.clear();
                if self.extract_route(h, &search, &mut q.sliced.nodes, r) {
                    q.route.clear();
                    q.route.extend_from_slice(&self.route);
                    q.cross.clear();
                    q.cross.extend_from_slice(&self.cross);
                    q.progress.route = Planned::Whole;
                    self.stats.route_len = q.route.len() as u32;
                    Ok(true)
                } else {
                    Err(PlanError::Stale("a route's link is missing".into()))
                }
            }
            RouteRun::Empty => Err(PlanError::Stale(
                "the connectivity matrix and the region graph disagree".into(),
            )),
        };
        q.stats = self.stats;
        if !matches!(result, Ok(false)) {
            q.sliced.search = None;
        }
        if result.is_err() {
            q.progress.phase = Phase::Done;
        }
        result
    }

    /// The checks every call on a query makes first: the hierarchy's
    /// lineage and a grid the hierarchy serves.
    fn check_query(&self, q: &Query, h: &Hierarchy, grid: &Grid) -> Result<(), PlanError> {
        if q.lineage != h.lineage() {
            return Err(PlanError::QueryMismatch {
                query: q.hierarchy,
                hierarchy: h.stamp(),
            });
        }
        served(h, grid)
    }

    /// Plans `q` again from `at` on the current state (see
    /// [`CellPlanner::next_leg`]): its history becomes `at` alone (later
    /// legs keep off it, as off any cell handed out), its route is planned
    /// afresh and the next leg's first cell, `at`, is not handed out again.
    fn repair(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        at: Point,
    ) -> Result<(), PlanError> {
        let goal = q.progress.goal;
        let walked = !q.handed.is_empty();
        q.progress = Progress::finished(at, goal);
        q.route.clear();
        q.cross.clear();
        q.handed.clear();
        q.handed_legs.clear();
        q.hierarchy = h.stamp();
        q.revision = grid.revision();
        q.repairs += 1;
        q.resumed = false;
        q.sliced.search = None;
        let quick = self.config.quick_start && !self.defer_route;
        let view = h.search_grid(grid);
        let planned = if view.in_bounds(at) && !view.is_passable(at) {
            Err(PlanError::Trapped(at))
        } else {
            self.begin(h, view, at, goal, Kind::Lazy { quick })
        };
        if let Err(e) = planned {
            // Finished, the unit's cell its history: `replan_from` it
            // once the way is open again.
            let cell = Rect {
                x0: at.x,
                y0: at.y,
                x1: at.x + 1,
                y1: at.y + 1,
            };
            q.handed.push(at);
            q.handed_legs.push((cell, 1));
            return Err(e);
        }
        if let Some(pr) = self.progress.take() {
            q.progress = pr;
        }
        q.route.extend_from_slice(&self.route);
        q.cross.extend_from_slice(&self.cross);
        q.stats = self.stats;
        q.resumed = walked;
        Ok(())
    }
}

/// Clears bits `i .. i + len` of a window-local bitset.
fn clear_bits(mask: &mut [u64], i: usize, len: usize) {
    let (mut i, end) = (i, i + len);
    while i < end {
        let (w, b) = (i >> 6, i & 63);
        let n = (64 - b).min(end - i);
        let bits = if n == 64 { !0 } else { ((1u64 << n) - 1) << b };
        mask[w] &= !bits;
        i += n;
    }
}

/// Whether two rectangles share a cell.
fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

// Why a lazy path never visits a cell twice.
//
// Let P be the cells handed out so far (a simple path from the start to
// `pos`, the unit's position) and `route[at]` the region of `pos`. The
// invariant: no cell of P but `pos` lies in a region of `route[at + 1..]`,
// and `pos` is the start (P = {start}, `at` = 0), a cell of the exit run
// from `route[at]` into `route[at + 1]`, or a cell from which a path H
// (the cells the last leg held back) leads to that exit run inside
// `route[at]` without meeting P again. It holds before the first leg.
//
// A lazy leg from `pos` to the exit of `route[j]` (or to the goal when `j`
// is the last) searches its box of the sectors of `route[at..=j]` with P
// (but `pos`) and the cells of `route[j + 1..]` walled off
// ([`CellPlanner::lazy_mask`]). A path exists inside that mask: from `pos`
// walk H (if any; in `route[at]`'s sector, so in the box) to the exit run
// and step across it into `route[at + 1]` (a crossing pair of the
// hierarchy: a legal step), walk each region `route[at + 1..=j]` (each is
// 4-connected inside its sector, and by the invariant none of its cells is
// in P; none is in `route[j + 1..]` because a route repeats no region)
// and step across each crossing to the next, up to the exit run of
// `route[j]` (or the goal). Jump point search may refuse a diagonal past a
// walled-off cell, so windowed A* (whose mask keeps only the path's cells)
// searches the same mask when it fails. The leg is a shortest path inside
// the mask, so it repeats no cell and meets P only at `pos`: P stays a
// simple path. It avoids `route[j + 1..]`, and ends on the exit run of
// `route[j]`: the invariant holds with `at = j`. When the leg holds back
// its last cells ([`CellPlanner::hold_back`]), those all lie in `route[j]`'s
// sector: a path of steps inside one sector's rectangle is 4-connected
// there (a diagonal step's two side cells lie in the rectangle too and are
// usable), so they and the new `pos` lie in `route[j]` with the exit, and
// they are the new H; the cells handed out still avoid `route[j + 1..]`.
//
// A quick start's rest of the route is planned from the region where the
// first leg ended, avoiding the regions of P
// ([`CellPlanner::plan_rest`]), which keeps the invariant. Only when no
// such route exists (the first leg crossed a region every route to the goal
// needs) can a leg search fall back to the unmasked window, the one case
// where a cell may repeat; the tests count none.

impl CellPlanner {
    /// Holds back the end of a lazy leg just found (`self.leg`, ending on
    /// the exit run from `route[j]`, short of the goal): its last cells, up
    /// to the join radius and at most half of them, as far back as they
    /// stay inside `route[j]`'s sector, leave the leg. The next leg starts
    /// from the last cell kept and searches them again with the way on, as
    /// a full query's legs start back along the previous one: the join
    /// straightens. Every 8th row of the Moving AI files, lazy paths over
    /// optimal: mean 1.79 → 0.69 %, p95 7.42 → 3.86 % (P93). Returns
    /// whether any cell was held back. O(cells held back).
    pub(super) fn hold_back(&mut self, h: &Hierarchy, j: usize) -> bool {
        let n = self.leg.len();
        let most = self.join_cells(h).min(n.saturating_sub(1) / 2);
        let rect = h.sector_rect(h.regions[self.route[j] as usize].sector());
        let inside = self.leg[n - 1 - most..]
            .iter()
            .rev()
            .take_while(|&&p| rect.contains(p))
            .count();
        let k = inside.saturating_sub(1);
        self.leg.truncate(n - k);
        k > 0
    }

    /// Records the cells of a leg just handed out (see [`Query`]).
    fn hand_out(&mut self, cells: &[Point]) {
        let Some(&first) = cells.first() else {
            return;
        };
        let mut b = Rect {
            x0: first.x,
            y0: first.y,
            x1: first.x + 1,
            y1: first.y + 1,
        };
        for p in cells {
            b.x0 = b.x0.min(p.x);
            b.y0 = b.y0.min(p.y);
            b.x1 = b.x1.max(p.x + 1);
            b.y1 = b.y1.max(p.y + 1);
        }
        self.handed.extend_from_slice(cells);
        self.handed_legs.push((b, self.handed.len() as u32));
    }

    /// Builds the mask of a lazy leg in `bbox` from route region `at` to
    /// the exit of route region `j` into `self.lazy_mask` (window-local
    /// bits, 1 = may be entered): the box without the cells handed out
    /// but `pos` and without the cells of the route's regions after `j`
    /// (see the comment above). Returns `false` (no mask needed) when
    /// neither lies in the box. Costs the legs handed out near the box,
    /// one look at each later route region, and a run labelling of each
    /// sector in the box holding one; allocates nothing once warm.
    pub(super) fn lazy_mask(&mut self, h: &Hierarchy, grid: &Grid, bbox: Rect, j: usize) -> bool {
        self.later.clear();
        for &r in &self.route[j + 1..] {
            let s = h.regions[r as usize].sector();
            if overlaps(&h.sector_rect(s), &bbox) {
                let label = r - h.first_region[s as usize] + 1;
                self.later.push((s, label));
            }
        }
        let pos = self.handed.last().copied();
        let near = |(b, _): &(Rect, u32)| overlaps(b, &bbox);
        let handed_near = self.handed.len() > 1 && self.handed_legs.iter().any(near);
        if self.later.is_empty() && !handed_near {
            return false;
        }
        let win = window_of(bbox);
        let ww = win.width as usize;
        self.lazy_mask.clear();
        self.lazy_mask.resize(win.area().div_ceil(64), !0);
        // The later route regions, a sector at a time.
        self.later.sort_unstable();
        let mut k = 0;
        while k < self.later.len() {
            let s = self.later[k].0;
            let end = k + self.later[k..].iter().take_while(|e| e.0 == s).count();
            let rect = h.sector_rect(s);
            self.lab.label_runs(grid, rect);
            for run in &self.lab.runs {
                if !self.later[k..end].iter().any(|e| e.1 == run.label as u32) {
                    continue;
                }
                let y = rect.y0 + run.y as u32;
                let x0 = (rect.x0 + run.x0 as u32).max(bbox.x0);
                let x1 = (rect.x0 + run.x1 as u32).min(bbox.x1);
                if y < bbox.y0 || y >= bbox.y1 || x0 >= x1 {
                    continue;
                }
                let i = (y - bbox.y0) as usize * ww + (x0 - bbox.x0) as usize;
                clear_bits(&mut self.lazy_mask, i, (x1 - x0) as usize);
            }
            k = end;
        }
        // The cells handed out, but where the unit stands.
        let mut from = 0usize;
        for &(b, end) in &self.handed_legs {
            if overlaps(&b, &bbox) {
                for &p in &self.handed[from..end as usize] {
                    if Some(p) != pos && win.contains(p) {
                        let i = (p.y - bbox.y0) as usize * ww + (p.x - bbox.x0) as usize;
                        self.lazy_mask[i >> 6] &= !(1u64 << (i & 63));
                    }
                }
            }
            from = end as usize;
        }
        true
    }

    /// Plans the rest of a quick start's route (see
    /// [`PlannerConfig::quick_start`]) after its first leg, which ended on
    /// the exit run from `route[pr.at]` into `route[pr.at + 1]` or inside
    /// `route[pr.at]` short of it ([`CellPlanner::hold_back`]), so that the
    /// invariant above holds: the best route from the unit's region that
    /// keeps off the regions of the cells handed out, if the unit can reach
    /// its exit inside its region without stepping on them; else the two
    /// regions of that exit and a route on from there avoiding those
    /// regions; else (every route to the goal needs such a region) the best
    /// route from the unit's region. One abstract search, at most two more
    /// and a search of the unit's sector.
    pub(super) fn plan_rest(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        pr: &mut Progress,
    ) -> Result<(), PlanError> {
        let (here, next) = (self.route[pr.at], self.route[pr.at + 1]);
        let crossing = self.cross[pr.at + 1];
        self.avoid.clear();
        let n = self.handed.len().saturating_sub(1);
        for k in 0..n {
            let p = self.handed[k];
            if let Some(r) = h.region_of_with(grid, p, &mut self.lab) {
                if !self.avoid.contains(&r) {
                    self.avoid.push(r);
                }
            }
        }
        if !self.avoid.contains(&here) {
            self.avoid.push(here);
        }
        // From the unit's region.
        if self.route_avoiding(h, here, pr.pos, pr.goal, pr.to) && self.exit_reachable(h, grid, pr)
        {
            self.avoid.clear();
        } else if !self.avoid.contains(&next)
            && (crossing.0.contains(pr.pos) || pr.held)
            && self.route_avoiding(h, next, crossing.1.start, pr.goal, pr.to)
        {
            // Across the exit the first leg ended on.
            self.avoid.clear();
            self.route.insert(0, here);
            self.cross[0] = crossing;
            let at = Run {
                start: pr.pos,
                len: 1,
                vertical: false,
            };
            self.cross.insert(0, (at, at));
            self.stats.route_len = self.route.len() as u32;
        } else {
            self.avoid.clear();
            self.route.clear();
            self.cross.clear();
            self.plan_route(h, here, pr.to, pr.pos, pr.goal)?;
        }
        pr.at = 0;
        pr.held = false;
        pr.route = Planned::Whole;
        Ok(())
    }

    /// A route from region `from` (entered at `start`) to `to` none of
    /// whose regions after the first is in `self.avoid`: the best route if
    /// it qualifies, else the best among those that do. Returns whether one
    /// was found (into `self.route` and `self.cross`).
    fn route_avoiding(
        &mut self,
        h: &Hierarchy,
        from: u32,
        start: Point,
        goal: Point,
        to: u32,
    ) -> bool {
        if self.avoid[..].contains(&to) && to != from {
            return false;
        }
        let avoid = std::mem::take(&mut self.avoid);
        self.route.clear();
        self.cross.clear();
        let found = self.abstract_route(
            h,
            (from, to),
            start,
            goal,
            route::Corridor::All,
            RouteCosts::Representatives,
        );
        self.avoid = avoid;
        if found && !self.route[1..].iter().any(|r| self.avoid.contains(r)) {
            return true;
        }
        self.route.clear();
        self.cross.clear();
        self.abstract_route(
            h,
            (from, to),
            start,
            goal,
            route::Corridor::All,
            RouteCosts::Representatives,
        )
    }

    /// Whether the unit, at `pr.pos` in `route[0]`, reaches the exit run
    /// into `route[1]` (the goal when the route has one region) inside its
    /// sector without stepping on a cell handed out: one masked search of
    /// the sector.
    fn exit_reachable(&mut self, h: &Hierarchy, grid: &Grid, pr: &Progress) -> bool {
        let exit = self.cross.get(1).map(|c| c.0);
        if exit.is_some_and(|e| e.contains(pr.pos)) {
            return true;
        }
        let rect = h.sector_rect(h.regions[self.route[0] as usize].sector());
        let win = window_of(rect);
        let ww = win.width as usize;
        let local = |p: Point| (p.y - rect.y0) as usize * ww + (p.x - rect.x0) as usize;
        let words = win.area().div_ceil(64);
        self.lazy_mask.clear();
        self.lazy_mask.resize(words, !0);
        let n = self.handed.len().saturating_sub(1);
        for &p in &self.handed[..n] {
            if win.contains(p) {
                let i = local(p);
                self.lazy_mask[i >> 6] &= !(1u64 << (i & 63));
            }
        }
        let found = match exit {
            None if win.contains(pr.goal) => self.jps.find_path_masked_into(
                grid,
                win,
                pr.pos,
                pr.goal,
                &self.lazy_mask,
                &mut self.leg,
            ),
            None => return false,
            Some(e) => {
                self.goal_bits.clear();
                self.goal_bits.resize(words, 0);
                for k in 0..e.len {
                    let c = if e.vertical {
                        Point::new(e.start.x, e.start.y + k)
                    } else {
                        Point::new(e.start.x + k, e.start.y)
                    };
                    if win.contains(c) {
                        let i = local(c);
                        self.goal_bits[i >> 6] |= 1 << (i & 63);
                    }
                }
                self.jps.find_path_to_any_into(
                    grid,
                    win,
                    pr.pos,
                    &self.goal_bits,
                    |_| 0,
                    Some(&self.lazy_mask),
                    &mut self.leg,
                )
            }
        };
        found.is_ok_and(|s| s.status == Status::Found)
    }
}
