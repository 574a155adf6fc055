//! After stitching: loop removal, the quality recheck and the second
//! route of a full query.

use super::route::{priced_crossing_cost, RouteCosts};
use super::*;
use crate::profile::plain_path_cost;

/// A second route is refined only when its [`RouteCosts::Crossings`] cost
/// is at least this fraction below the first route's (every 8th row:
/// 0.03 cost 8room_000 +67% instructions for mean suboptimality 4.73% ->
/// 3.17%, 0 cost +93% for 2.91%; Berlin_0_1024 +80% / +135%).
pub(super) const SECOND_ROUTE_GAIN: f32 = 0.03;

/// Under a profile whose costs differ, the second route runs only where the
/// first route's crossings hold at most this many cell pairs on average
/// ([`CellPlanner::route_is_narrow`]): doors and gaps, where the crossing
/// is a fixed point that the straight-line pricing gets right and the
/// pricing through representatives zig-zags. Painted maps, 150 pairs
/// (P92): random512-25-0 infantry p95 over optimal 8.28 % without, 7.98 %
/// at 2, 6.08 % at 3, 5.71 % at 4; random512-10-0 tank abstract expansions
/// a query 84 without, 94 at 3, 122 at 4 (a p95 of 7.39 % at 3 and 6.70 %
/// at 4); Berlin_0_1024 and TheFrozenSea (streets, open ground) plan
/// almost none even at 6.
pub(super) const NARROW_CROSSING: f32 = 3.0;

/// [`SECOND_ROUTE_GAIN`] under a profile whose costs differ (where the
/// second route runs only on routes through narrow crossings): a second
/// route no dearer than the first is refined. 8room_000 with terrain, infantry,
/// 500 pairs for each of two seeds: at 0.03 p95 8.05 % and 8.88 % over
/// optimal, at 0 7.74 % and 7.62 % for about 6 % more query time (P92).
pub(super) const SECOND_ROUTE_GAIN_WEIGHTED: f32 = 0.0;

/// The [`RouteCosts::Crossings`] search of a second route may expand this
/// many times the first search's regions (at least 64 each) before giving
/// up: on open maps with large obstacles its straight-line heuristic is far
/// weaker than the first search's landmarks (TheFrozenSea, every 8th row:
/// instructions -9% at 2x for the same quality to 0.01%; 8room_000 and
/// random512-40 unchanged).
pub(super) const SECOND_ROUTE_BUDGET: u32 = 2;

/// The recheck's node budget counts a stitched path as at least this many
/// cells, so a short detour still gets a search that can find the way
/// round (`RECHECK_MIN_CELLS` × [`PlannerConfig::get_recheck_budget`] nodes).
pub(super) const RECHECK_MIN_CELLS: u32 = 1000;

/// Maps of up to this many cells (4096²) check stitched paths for loops
/// with a per-cell bitset (2 MB at most); larger maps with a set of the
/// path's cells (see `remove_loops`).
pub(super) const LOOP_BITSET_CELLS: u64 = 1 << 24;

/// Whether the window of a short query's one search (see
/// `CellPlanner::leg_into`) holds every cell of any path from `start` to
/// `goal` cheaper than `cost`: such a path strays at most `(cost − d) / 2`
/// columns (rows) beyond the span `d` of its ends, since each step moves at
/// most one column (row) for a cost of at least 1.
fn holds_every_cheaper_path(
    config: &PlannerConfig,
    grid: &Grid,
    start: Point,
    goal: Point,
    cost: f64,
) -> bool {
    let win = Window::around(grid, start, goal, config.window, config.window);
    let holds = |a: u32, b: u32, lo: u32, size: u32, limit: u32| {
        let (l, r) = (a.min(b), a.max(b));
        let margin = ((cost - (r - l) as f64) / 2.0).max(0.0) as u32 + 1;
        l.saturating_sub(margin) >= lo && (r.saturating_add(margin)).min(limit - 1) < lo + size
    };
    holds(start.x, goal.x, win.x, win.width, grid.width())
        && holds(start.y, goal.y, win.y, win.height, grid.height())
}

impl CellPlanner {
    /// [`PlannerConfig::get_second_route`]: when `out` still costs more than
    /// the recheck factor times the estimate, plans the route again with
    /// [`RouteCosts::Crossings`], refines and stitches it like the first,
    /// and keeps the shorter path. Under a profile whose costs differ only
    /// on a route through narrow crossings ([`CellPlanner::route_is_narrow`]),
    /// its pieces priced by the terrain (`route::link_rate`), the paths
    /// under the profile.
    pub(super) fn second_route(&mut self, h: &Hierarchy, grid: &Grid, out: &mut Vec<Point>) {
        let Some(pr) = self.progress else {
            return;
        };
        let (Some(&start), Some(&goal)) = (out.first(), out.last()) else {
            return;
        };
        if !self.config.second_route || pr.route == Planned::Nothing || self.route.len() < 3 {
            return;
        }
        // Under a profile whose costs differ: paths priced by the terrain,
        // crossings by `route::link_rate`.
        let weighted = h.weights().is_some();
        // Through doors and narrow gaps routes priced through
        // representatives zig-zag, routes through the crossings do not
        // (P92).
        if weighted && !self.route_is_narrow() {
            return;
        }
        let (rates, gain) = if weighted {
            (Some(h.cost_floor()), SECOND_ROUTE_GAIN_WEIGHTED)
        } else {
            (None, SECOND_ROUTE_GAIN)
        };
        let cost = |p: &[Point]| {
            if weighted {
                h.path_cost(p)
            } else {
                plain_path_cost(p)
            }
        };
        // A path within the recheck factor of the straight-line (octile)
        // distance (at the cheapest class) cannot gain enough to pay for
        // another route.
        let old = cost(out);
        let bound = octile(start, goal) * h.cost_floor() as f64;
        if old <= self.config.recheck.max(1.0) as f64 * bound {
            return;
        }
        let (from, to) = (pr.from, pr.to);
        // Inside a level corridor the crossing search found nothing shorter
        // (16,376² rooms: the same 30 paths at twice the time).
        if self.use_levels(h, from, to) {
            return;
        }
        // Only one route: the crossing search would find it again.
        if self.mark_blocks(h, from, to) && self.unique_route {
            return;
        }
        let ends = (start, goal);
        let first_cost = priced_crossing_cost(h, &self.route, &self.cross, ends, rates);
        self.first_route.clear();
        self.first_route.extend_from_slice(&self.route);
        self.route.clear();
        self.cross.clear();
        self.abstract_budget = self
            .stats
            .abstract_expanded
            .max(64)
            .saturating_mul(SECOND_ROUTE_BUDGET);
        let found = self.abstract_route(
            h,
            (from, to),
            start,
            goal,
            route::Corridor::All,
            RouteCosts::Crossings,
        );
        self.abstract_budget = u32::MAX;
        if !found
            || self.route == self.first_route
            || priced_crossing_cost(h, &self.route, &self.cross, ends, rates)
                > (1.0 - gain) * first_cost
        {
            std::mem::swap(&mut self.route, &mut self.first_route);
            return;
        }
        self.stats.second_route = true;
        // Legs the first route already searched are copied.
        self.memo = Memo::Reuse;
        let improved = self.refine_alternative(h, grid, &pr, start, old, cost, out);
        self.memo = Memo::Off;
        if improved {
            self.stats.second_improved = true;
        } else {
            std::mem::swap(&mut self.route, &mut self.first_route);
        }
    }

    /// Whether the route planned (its crossings in `self.cross`, the
    /// first the start's) crosses from region to region through runs of at
    /// most [`NARROW_CROSSING`] cell pairs on average. O(route).
    pub(super) fn route_is_narrow(&self) -> bool {
        let crossings = self.cross.len().saturating_sub(1);
        let pairs: u32 = self.cross.iter().skip(1).map(|c| c.1.len).sum();
        crossings > 0 && pairs as f32 <= NARROW_CROSSING * crossings as f32
    }

    /// Refines the route planned in `self.route` for `pr`'s query from
    /// `start` into the planner's spare path and, where that path costs
    /// less than `old` (priced by `cost`), copies it into `out`; returns
    /// whether it did. A refinement error (a stale hierarchy, which the
    /// first path's searches would have reported) keeps `out`. Copied, not
    /// swapped: the caller's buffer keeps its capacity (a swap hands it the
    /// planner's, which may be smaller, and a later query allocates).
    #[allow(clippy::too_many_arguments)]
    fn refine_alternative(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        pr: &Progress,
        start: Point,
        old: f64,
        cost: impl Fn(&[Point]) -> f64,
        out: &mut Vec<Point>,
    ) -> bool {
        self.progress = Some(Progress::new(
            start,
            pr.goal,
            (pr.from, pr.to),
            Planned::Whole,
            None,
            pr.kind,
        ));
        let mut alt = std::mem::take(&mut self.alt);
        alt.clear();
        let mut improved = false;
        if self.refine_all(h, grid, &mut alt).is_ok() {
            self.remove_loops(grid, &mut alt);
            if cost(&alt) < old - 1e-9 {
                out.clear();
                out.extend_from_slice(&alt);
                improved = true;
            }
        }
        self.alt = alt;
        improved
    }

    /// The quality check of a one-window answer under a profile whose costs
    /// differ (see [`PlannerConfig::get_recheck`]; the recheck's search
    /// prices steps uniformly): where [`CellPlanner::route_may_beat_window`]
    /// says so, the route is refined like a routed query's and the cheaper
    /// path kept. Costs one abstract search on such queries, and a routed
    /// refinement on the few whose route points outside (random512-25-0
    /// infantry: an optimum of 90 round a wall outside the window, against
    /// 222 inside it; P84).
    pub(super) fn recheck_window_answer(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) {
        let Some(pr) = self.progress else { return };
        let Some(&start) = out.first() else { return };
        if pr.route != Planned::Nothing || pr.local || out.len() < 3 {
            return;
        }
        let old = h.path_cost(out);
        if !self.route_may_beat_window(h, grid, &pr, start, old) {
            return;
        }
        self.stats.rechecked = true;
        self.stats.recheck_improved =
            self.refine_alternative(h, grid, &pr, start, old, |p| h.path_cost(p), out);
    }

    /// Under a profile whose costs differ, whether a query's window path
    /// from `start` of cost `cost` (the one search of a start and goal
    /// within one window, `pr.route` [`Planned::Nothing`]) may be beaten by
    /// its region route:
    /// the window, optimal inside, does not hold every cheaper path (each
    /// step costs at least the cheapest class per unit of length), and the
    /// route planned here leaves the window for links (through the
    /// representatives) costing less than `cost`. The route is then left
    /// planned in `self.route`; otherwise none is. Off with
    /// [`PlannerConfig::get_recheck`] 0.
    pub(super) fn route_may_beat_window(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        pr: &Progress,
        start: Point,
        cost: f64,
    ) -> bool {
        let goal = pr.goal;
        let floor = f64::from(h.cost_floor());
        if h.weights().is_none()
            || self.config.recheck <= 0.0
            || floor <= 0.0
            || holds_every_cheaper_path(&self.config, grid, start, goal, cost / floor)
        {
            return false;
        }
        // An error means a stale hierarchy, which the window search did
        // not need to notice: no route then.
        if self.plan_route(h, pr.from, pr.to, start, goal).is_err() {
            self.route.clear();
            self.cross.clear();
            return false;
        }
        let size = self.config.window;
        let win = Window::around(grid, start, goal, size, size);
        let inside = |r: &u32| {
            let r = &h.regions[*r as usize];
            win.contains(r.min()) && win.contains(r.max())
        };
        // The links' costs along the route: the route's estimate.
        let mut links = 0.0f64;
        for w in self.route.windows(2) {
            let cheapest = h
                .graph
                .neighbors_slice(w[0])
                .iter()
                .zip(h.graph.edges_slice(w[0]))
                .filter(|(&o, _)| o == w[1])
                .map(|(_, l)| l.cost())
                .fold(f32::INFINITY, f32::min);
            links += f64::from(cheapest);
        }
        if self.route.iter().all(inside) || links >= cost {
            self.route.clear();
            self.cross.clear();
            self.stats.route_len = 0;
            return false;
        }
        true
    }

    /// The quality check (see [`PlannerConfig::get_recheck`]).
    pub(super) fn recheck(&mut self, h: &Hierarchy, grid: &Grid, out: &mut Vec<Point>) {
        let Some(pr) = self.progress else { return };
        let (Some(&start), Some(&goal)) = (out.first(), out.last()) else {
            return;
        };
        if self.config.recheck <= 0.0 || out.len() < 3 {
            return;
        }
        // Without landmarks the only estimate is the octile distance, which
        // on the maze-like maps that drop them is far below every path:
        // the check would fire on every query and gain nothing.
        if h.landmarks.count() == 0 {
            return;
        }
        let old = plain_path_cost(out);
        // An answer of one window search (no route) is optimal inside that
        // window; a cheaper path must leave it, which only a window that
        // does not hold the whole box where one can lie allows (on maps
        // under a window's size, never). A one-cell maze 54 × 78 answered
        // 308 for an optimum of 152 through rows below its window.
        if pr.route == Planned::Nothing
            && holds_every_cheaper_path(&self.config, grid, start, goal, old)
        {
            return;
        }
        let bound = self.lower_estimate(h, start, goal, pr.from, pr.to);
        if old <= self.config.recheck as f64 * bound {
            return;
        }
        // Every cell of a strictly cheaper path lies within (old - span) / 2
        // columns (rows) of the span of start and goal: every step moves at
        // most one column (row) for a cost of at least 1.
        let cap = self.config.recheck_window;
        let span = |u: u32, v: u32| {
            let d = u.abs_diff(v);
            let margin = ((old - d as f64) / 2.0).max(0.0) as u32 + 1;
            (d + 1 + 2 * margin).min(cap)
        };
        let win = Window::around(
            grid,
            start,
            goal,
            span(start.x, goal.x),
            span(start.y, goal.y),
        );
        if !win.contains(start) || !win.contains(goal) {
            return;
        }
        self.stats.rechecked = true;
        self.jps.set_cost_bound(Some(fixed_cost(out)));
        let per = self.config.recheck_budget;
        if per > 0 {
            let cells = u32::try_from(out.len())
                .unwrap_or(u32::MAX)
                .max(RECHECK_MIN_CELLS);
            self.jps.set_node_budget(Some(per.saturating_mul(cells)));
        }
        let res = self
            .jps
            .find_path_into(grid, win, start, goal, &mut self.leg);
        self.jps.set_cost_bound(None);
        self.jps.set_node_budget(None);
        let Ok(s) = res else { return };
        self.stats.expanded += s.expanded;
        if s.status == Status::Found && s.cost < old - 1e-9 {
            self.stats.recheck_improved = true;
            out.clear();
            out.extend_from_slice(&self.leg);
        }
    }

    /// An estimate of the optimal cost from `start` (in region `from`) to
    /// `goal` (in region `to`) that is rarely above it: the octile
    /// distance, or the landmark bound between the two regions less the
    /// distances from the cells to their regions' representatives.
    pub(super) fn lower_estimate(
        &self,
        h: &Hierarchy,
        start: Point,
        goal: Point,
        from: u32,
        to: u32,
    ) -> f64 {
        let direct = octile(start, goal);
        let lm = h.landmarks.bound_to(from, &h.landmarks.goal_row(to)) as f64;
        let slack = octile(start, h.regions[from as usize].representative())
            + octile(goal, h.regions[to as usize].representative());
        direct.max(lm - slack)
    }

    /// Cuts any loop (a cell visited twice) out of the stitched path: in one
    /// pass, each cell met again cuts the path back to its earlier visit
    /// (loop erasure in path order). O(path), no sort, no allocation once
    /// warm: a per-cell bitset (left clear for the next query) on maps of
    /// up to [`LOOP_BITSET_CELLS`] cells, a set of the path's cells above
    /// (the bitset would be 33 MB on a 16k² map, written whole on the
    /// first query).
    pub(super) fn remove_loops(&mut self, grid: &Grid, out: &mut Vec<Point>) {
        let w = grid.width() as usize;
        let index = |p: Point| p.y as usize * w + p.x as usize;
        // `out[..kept]` is the loop-free path so far; its cells are in the
        // seen set.
        let mut kept = 0;
        if grid.cell_count() > LOOP_BITSET_CELLS {
            let seen = &mut self.seen_set;
            seen.clear();
            for r in 0..out.len() {
                let p = out[r];
                if seen.contains(&(index(p) as u64)) {
                    while kept > 0 && out[kept - 1] != p {
                        seen.remove(&(index(out[kept - 1]) as u64));
                        kept -= 1;
                    }
                } else {
                    seen.insert(index(p) as u64);
                    out[kept] = p;
                    kept += 1;
                }
            }
            out.truncate(kept);
            return;
        }
        fit_zeroed(&mut self.seen, (grid.cell_count() as usize).div_ceil(64));
        let bit = |p: Point| {
            let i = index(p);
            (i >> 6, 1u64 << (i & 63))
        };
        for r in 0..out.len() {
            let p = out[r];
            let (word, b) = bit(p);
            if self.seen[word] & b != 0 {
                // Back to the earlier visit of p (still kept: every kept
                // cell is marked and every marked cell is kept).
                while kept > 0 && out[kept - 1] != p {
                    let (wd, b) = bit(out[kept - 1]);
                    self.seen[wd] &= !b;
                    kept -= 1;
                }
            } else {
                self.seen[word] |= b;
                out[kept] = p;
                kept += 1;
            }
        }
        for p in &out[..kept] {
            let (word, b) = bit(*p);
            self.seen[word] &= !b;
        }
        out.truncate(kept);
    }
}
