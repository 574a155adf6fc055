//! Lazy queries: a [`Query`] value the caller owns, refined leg by leg by
//! any [`CellPlanner`] (the planner is only scratch).

use super::*;

/// A lazily refined query: where it stands, its region route and the
/// hierarchy state and grid revision it was planned on. The caller owns it
/// (one per unit); any [`CellPlanner`] refines it with [`CellPlanner::next_leg`],
/// so queries in flight cannot disturb each other or a planner's full
/// queries.
///
/// Holds 12 bytes per route region plus about 100 bytes; reuse one with
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
    stats: PlanStats,
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

    /// Figures about the legs refined so far.
    pub fn stats(&self) -> PlanStats {
        self.stats
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
            stats: PlanStats::default(),
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
        q.hierarchy = h.stamp();
        q.revision = grid.revision();
        q.stats = PlanStats::default();
        let quick = self.config.quick_start;
        self.begin(h, grid, start, goal, Kind::Lazy { quick })?;
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
    /// leaves region `j` (or to the goal on the last leg). The box holds the
    /// route's chain of regions, so the search succeeds on the grid the
    /// query was planned on; it may also cut through sectors off the route
    /// where that is shorter. Costs one window search (plus the rest of the
    /// route's planning on the second leg of a quick start); allocates
    /// nothing once warm.
    ///
    /// Fails with [`PlanError::QueryMismatch`] when `h` is not the state
    /// the query was started on (another hierarchy, or this one after an
    /// update) and [`PlanError::StaleGrid`] when the grid changed since:
    /// start the query again from where the unit stands.
    pub fn next_leg(
        &mut self,
        q: &mut Query,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) -> Result<bool, PlanError> {
        if q.hierarchy != h.stamp() {
            return Err(PlanError::QueryMismatch {
                query: q.hierarchy,
                hierarchy: h.stamp(),
            });
        }
        if q.revision != grid.revision() || !h.is_current_for(grid) {
            return Err(PlanError::StaleGrid {
                grid: grid.revision(),
                hierarchy: q.revision,
            });
        }
        if q.progress.is_done() {
            return Ok(false);
        }
        // The query's state becomes the planner's for one leg: swapped, not
        // copied, and swapped back whatever the outcome.
        std::mem::swap(&mut self.route, &mut q.route);
        std::mem::swap(&mut self.cross, &mut q.cross);
        self.progress = Some(q.progress);
        self.stats = q.stats;
        self.marked = None;
        let result = self.leg_into(h, grid, out);
        std::mem::swap(&mut self.route, &mut q.route);
        std::mem::swap(&mut self.cross, &mut q.cross);
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
