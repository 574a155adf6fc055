//! Queries: abstract route over regions, leg refinement in 60×60 windows,
//! stitching.
//!
//! How a query runs. Endpoints are checked, then the grid revision. A free
//! straight path is the answer. Unreachable is answered from the matrix. Start
//! and goal within one window: one window search first. Otherwise the route,
//! then legs; in a full query each leg starts up to `join_radius` cells back
//! along the previous one (`weighted_join_radius` under terrain costs), so its
//! own search straightens the join (P21, P83).
//! *Doorways only*: when the route is unique and each link is the regions' only
//! single-pair crossing, each region is searched in its own bounding box; if
//! every route region is `tree_like` the path is optimal and marked `exact`
//! (P28). *Recheck*: a path over 1.04 × a lower bound gets one cost-bounded
//! search in the box where a cheaper path can lie (capped at 160 × 160,
//! budgeted; P31); so does a one-window answer whose window does not hold that
//! whole box (its optimum may leave the window). No landmarks, no recheck.
//! Under terrain costs the recheck covers only one-window answers: the route
//! is planned and, where it leaves the window for less, refined and the
//! cheaper path kept; a lazy query takes the route's legs (P84).
//! *Second route* (full queries): a path still over 1.04 × octile with ≥ 3
//! route regions gets a region A* priced by straight lines between crossings;
//! if that route is ≥ 3 % cheaper it is refined too and the shorter path wins
//! (P32). Under terrain costs only where the first route's crossings are
//! narrow (at most 3 cells on average: doors, gaps): each straight piece
//! priced at its link's cost per cell, refined when no dearer than the
//! first (P92).
//! *Quick start* (lazy queries): the region search stops three windows of
//! route cost from the start, and the first leg is about half a window
//! (P33, P93); lazy legs hold their last cells back for the next to search
//! again, which straightens the joins (P93). *Levels* (hierarchies
//! of at least [`PlannerConfig::get_levels_from`] regions): route searches
//! stay in a corridor refined down from the top abstraction level (a quick
//! start's search by depth does not need one), and no second route is
//! planned (P48). Lazy legs search with the cells already handed out
//! walled off, so a lazy path never repeats a cell. A sealed start or goal
//! (in no region) is one search bounded to its sector.
//! (P-ids: `benches/PROFILES.md`.)

mod group;
mod lazy;
mod legs;
mod levels;
mod partial;
mod polish;
mod route;
mod straight;

use crate::graph::Run;
use crate::model::Hierarchy;
use crate::portal::PortalSearch;
use crate::sector::{Labeler, Rect};
use crate::ConfigError;
pub use group::{GroupPaths, GroupStats, MAX_FIELD_SIDE, MAX_ROUNDS};
pub use lazy::{Query, Step, REGION_WEIGHT};
use legs::{LegMemo, Memo};
pub use partial::Reached;
use regionpath_grid::{octile, Dir, Grid, Point};
use regionpath_search::{
    octile_cost, Cost, SearchError, SearchStats, Status, Window, WindowedAStar, WindowedJps,
    COST_DIAGONAL, COST_ONE,
};
use route::{next_generation, ANode};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use straight::{straight_order, StepOrder};
use thiserror::Error;

/// Whether `h` serves `grid`: the same size ([`PlanError::GridMismatch`])
/// and a revision it was built, loaded, updated or attached for
/// ([`PlanError::StaleGrid`]). O(1); the first check of every query.
pub(super) fn served(h: &Hierarchy, grid: &Grid) -> Result<(), PlanError> {
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
    Ok(())
}

/// Why a path could not be planned.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PlanError {
    /// The start lies outside the grid.
    #[error("start {0} is outside the grid")]
    StartOutOfBounds(Point),
    /// The goal lies outside the grid.
    #[error("goal {0} is outside the grid")]
    GoalOutOfBounds(Point),
    /// The start cell is blocked.
    #[error("start {0} is on a blocked cell")]
    StartBlocked(Point),
    /// The goal cell is blocked.
    #[error("goal {0} is on a blocked cell")]
    GoalBlocked(Point),
    /// No path exists (answered from the connectivity matrix, no search).
    #[error("goal {goal} cannot be reached from {start}")]
    Unreachable {
        /// Start.
        start: Point,
        /// Goal.
        goal: Point,
    },
    /// The grid is not the size the hierarchy was built for.
    #[error("grid is {grid_width}x{grid_height} but the hierarchy was built for {width}x{height}")]
    GridMismatch {
        /// Grid width.
        grid_width: u32,
        /// Grid height.
        grid_height: u32,
        /// Hierarchy width.
        width: u32,
        /// Hierarchy height.
        height: u32,
    },
    /// The grid is not the one the hierarchy serves: it was edited without
    /// [`Hierarchy::update`], or it is another `Grid` value (see
    /// [`Hierarchy::attach`]). Checked in O(1) on every query.
    #[error("the grid (revision {grid}) is not the one the hierarchy was built or updated for (revision {hierarchy}): call Hierarchy::update after editing, or Hierarchy::attach for an equal grid")]
    StaleGrid {
        /// The grid's [`Grid::revision`].
        grid: u64,
        /// The revision the hierarchy serves.
        hierarchy: u64,
    },
    /// A lazy [`Query`] used with another hierarchy than the one it was
    /// started on (another [`Hierarchy::lineage`]: not that hierarchy, a
    /// clone of it or a later state of either): start it again.
    #[error("the query was started on another hierarchy (query stamp {query}, hierarchy stamp {hierarchy}): start it again")]
    QueryMismatch {
        /// The stamp the query was started on.
        query: u64,
        /// [`Hierarchy::stamp`] of the hierarchy given.
        hierarchy: u64,
    },
    /// A lazy query that had to plan again after a map change found the
    /// unit's position blocked (not usable under the hierarchy's profile):
    /// an edit walled the unit in. The query is finished; start one again
    /// once the unit can move.
    #[error("the unit's position {0} is blocked after a map change: it was walled in")]
    Trapped(Point),
    /// [`CellPlanner::replan_from`] was given a cell the query has not
    /// handed out (nor its start before the first leg): the query is left
    /// as it was.
    #[error("{0} is not a cell the query handed out")]
    NotHandedOut(Point),
    /// The hierarchy and grid disagree (the grid changed without an update).
    #[error("hierarchy is stale for this grid: {0}")]
    Stale(String),
    /// A window search rejected its input (a bug if it happens).
    #[error("window search failed: {0}")]
    Search(#[from] SearchError),
}

/// Query settings: start from [`PlannerConfig::new`] (the defaults), set
/// with the builder methods, read with the `get_*` methods;
/// [`CellPlanner::with_config`] validates them first.
///
/// ```
/// use regionpath_hierarchy::{CellPlanner, PlannerConfig};
///
/// let config = PlannerConfig::new().window(80).reach(60);
/// assert_eq!(config.get_window(), 80);
/// assert!(CellPlanner::with_config(config).is_ok());
/// assert!(CellPlanner::with_config(PlannerConfig::new().window(100_000)).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannerConfig {
    /// Side of the square leg-search window (default 60).
    pub(crate) window: u32,
    /// How far (Chebyshev distance, cells) a leg aims ahead: the farthest
    /// route region whose representative is within `reach` of the current
    /// position (default 40: window minus a 10-cell buffer on each side).
    pub(crate) reach: u32,
    /// How far back along the path (in cells, default 20; 0: not at all)
    /// a full query's legs after the first start: each such leg searches
    /// from up to this many cells before the previous leg's end, as far as
    /// its window (at most `window` a side) can take in, so its own search
    /// straightens the join of the two legs. A lazy query, whose cells are
    /// handed out leg by leg, holds back up to this many of a leg's last
    /// cells instead (at most half the leg, those inside its last route
    /// region, none on the leg that reaches the goal): the next leg starts
    /// where the handed-out part ends and searches them again
    /// ([`CellPlanner::next_leg`]).
    pub(crate) join_radius: u32,
    /// The join radius under a profile whose costs differ: the lesser of
    /// this and `join_radius` (default 15).
    pub(crate) weighted_join_radius: u32,
    /// Quality check after stitching: when the path costs more than this
    /// factor times a lower-bound estimate of the optimum (the octile
    /// distance, raised by the landmark bound between the start's and the
    /// goal's regions), one more jump point search looks for a strictly
    /// cheaper path in the box where one can lie (see
    /// [`PlannerConfig::get_recheck_window`]). Catches routes that went round an
    /// obstacle on the wrong side, and short queries answered by one window
    /// search whose optimum leaves the window (checked only when the window
    /// does not hold that whole box). Needs landmarks (none: off). Under a
    /// profile whose costs differ (that search prices steps uniformly) it
    /// covers one-window answers instead: unless the window holds every
    /// cheaper path, the region route is planned and, where it leaves the
    /// window for links costing less than the path, refined, and the
    /// cheaper path returned. Default 1.04; 0 disables.
    pub(crate) recheck: f32,
    /// Largest side of the recheck's search box (default 160 cells: about
    /// 0.4 MB of extra scratch, allocated on the first recheck that needs
    /// it). Boxes are cut to the region where a cheaper path can lie, so
    /// most are far smaller.
    pub(crate) recheck_window: u32,
    /// Node budget of the recheck search per cell of the stitched path
    /// (default 2; 0: no budget, the recheck is then exact within its
    /// box). Most wrong-side detours are found within the budget; on
    /// random-obstacle maps, where the estimate is loose and jump point
    /// search expands many nodes, an unbudgeted recheck cost 13–17% of the
    /// query time for little gain (random512-40: 385 → 449 µs unbudgeted,
    /// 400 µs with 2 per cell; Paris_1_256-random-1 mean suboptimality
    /// 1.18% → 0.55% unbudgeted, 0.58% with 2 per cell). A path counts as
    /// at least 1,000 cells here, so short detours get 2,000 nodes: on all
    /// Moving AI rows that took the largest suboptimality from 31.6% to
    /// 23.4% and the mean from 0.60% to 0.57% for 1.3% more expansions.
    pub(crate) recheck_budget: u32,
    /// Before anything else, try a few straight octile paths from start to
    /// goal (diagonal and straight steps in fixed orders, a bit test per
    /// cell) and return the first whose cells are all free: optimal, with
    /// no region lookup and no search (see [`PlanStats::straight`]). Default
    /// on; off makes every query go through the hierarchy.
    pub(crate) straight: bool,
    /// Immediate start for lazy queries ([`CellPlanner::start`] and
    /// [`CellPlanner::next_leg`]; [`CellPlanner::find_path_into`] always plans the
    /// whole route first). The region search to the goal stops at the
    /// first region it closes three windows of route cost from the start
    /// (on maps with abstraction levels too); the first leg, about half a
    /// window, follows that partial route and the second `next_leg` plans
    /// the rest of the region route from where the first leg ended. The
    /// first leg then costs the same on any map size instead of growing
    /// with the route (see [`PlanStats::quick_start`]). Default on.
    pub(crate) quick_start: bool,
    /// Route through the abstraction levels of hierarchies with at least
    /// this many regions (see [`PlannerConfig::get_levels_from`]).
    pub(crate) levels_from: u32,
    /// A second route for full paths ([`CellPlanner::find_path_into`]) that
    /// still cost more than [`PlannerConfig::get_recheck`] times the estimate
    /// after the recheck: the abstract search runs again, pricing routes by
    /// the straight lines between the cells where they cross from region to
    /// region instead of through each region's representative, the legs
    /// refine that route too, and the shorter path is returned. Through
    /// representatives, a chain of rooms joined by doors costs the same
    /// along an L as along the diagonal, and the legs cannot undo an L
    /// (8room_000 rows up to 22% longer than optimal). Under a profile
    /// whose costs differ, each straight piece is priced at its link's
    /// terrain cost per cell of the link's way, and only where the first
    /// route's crossings are narrow (doors and gaps of at most 3 cells on
    /// average; on routes through wide crossings, streets and open ground,
    /// it cost a quarter of the speed for little). Lazy queries
    /// ([`CellPlanner::start`]) keep their first route. Default on.
    pub(crate) second_route: bool,
}

/// Largest [`PlannerConfig::get_window`]: the leg searches' scratch grows with
/// its square (about 25 bytes a cell: 26 MB at 1,024).
pub const MAX_WINDOW: u32 = 1024;

/// Largest [`PlannerConfig::get_recheck_window`] (about 25 bytes a cell of its
/// square, allocated on the first recheck that needs it).
pub const MAX_RECHECK_WINDOW: u32 = 4096;

impl PlannerConfig {
    /// Checks every value against its bounds ([`CellPlanner::with_config`]
    /// does this first): `window` 3..=[`MAX_WINDOW`], `reach`
    /// 1..=`window`, `join_radius` at most `window`, `recheck` a finite
    /// factor of at least 0 (0: off; below 1: every path), `recheck_window`
    /// 3..=[`MAX_RECHECK_WINDOW`] (the recheck box is at least `window`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(3..=MAX_WINDOW).contains(&self.window) {
            return Err(ConfigError::new("window", self.window, "3..=1024 cells"));
        }
        if !(1..=self.window).contains(&self.reach) {
            return Err(ConfigError::new("reach", self.reach, "1..=window cells"));
        }
        if self.join_radius > self.window {
            return Err(ConfigError::new(
                "join_radius",
                self.join_radius,
                "0..=window cells",
            ));
        }
        if !(self.recheck.is_finite() && self.recheck >= 0.0) {
            return Err(ConfigError::new(
                "recheck",
                self.recheck,
                "a finite factor >= 0 (0: off)",
            ));
        }
        if !(3..=MAX_RECHECK_WINDOW).contains(&self.recheck_window) {
            return Err(ConfigError::new(
                "recheck_window",
                self.recheck_window,
                "3..=4096 cells",
            ));
        }
        Ok(())
    }
}

impl PlannerConfig {
    /// The default settings (see each setter for its default and bounds).
    pub fn new() -> PlannerConfig {
        PlannerConfig::default()
    }

    /// Sets `window` (see [`PlannerConfig::get_window`]).
    #[must_use]
    pub fn window(mut self, value: u32) -> Self {
        self.window = value;
        self
    }

    /// Sets `reach` (see [`PlannerConfig::get_reach`]).
    #[must_use]
    pub fn reach(mut self, value: u32) -> Self {
        self.reach = value;
        self
    }

    /// Sets `join_radius` (see [`PlannerConfig::get_join_radius`]).
    #[must_use]
    pub fn join_radius(mut self, value: u32) -> Self {
        self.join_radius = value;
        self
    }

    /// Sets `weighted_join_radius` (see
    /// [`PlannerConfig::get_weighted_join_radius`]).
    #[must_use]
    pub fn weighted_join_radius(mut self, value: u32) -> Self {
        self.weighted_join_radius = value;
        self
    }

    /// Sets `recheck` (see [`PlannerConfig::get_recheck`]).
    #[must_use]
    pub fn recheck(mut self, value: f32) -> Self {
        self.recheck = value;
        self
    }

    /// Sets `recheck_window` (see [`PlannerConfig::get_recheck_window`]).
    #[must_use]
    pub fn recheck_window(mut self, value: u32) -> Self {
        self.recheck_window = value;
        self
    }

    /// Sets `recheck_budget` (see [`PlannerConfig::get_recheck_budget`]).
    #[must_use]
    pub fn recheck_budget(mut self, value: u32) -> Self {
        self.recheck_budget = value;
        self
    }

    /// Sets `straight` (see [`PlannerConfig::get_straight`]).
    #[must_use]
    pub fn straight(mut self, value: bool) -> Self {
        self.straight = value;
        self
    }

    /// Sets `quick_start` (see [`PlannerConfig::get_quick_start`]).
    #[must_use]
    pub fn quick_start(mut self, value: bool) -> Self {
        self.quick_start = value;
        self
    }

    /// Sets `levels_from` (see [`PlannerConfig::get_levels_from`]);
    /// `u32::MAX` never uses the levels.
    #[must_use]
    pub fn levels_from(mut self, regions: u32) -> Self {
        self.levels_from = regions;
        self
    }

    /// Sets `second_route` (see [`PlannerConfig::get_second_route`]).
    #[must_use]
    pub fn second_route(mut self, value: bool) -> Self {
        self.second_route = value;
        self
    }
}
impl PlannerConfig {
    /// Side of the square leg-search window (default 60).
    pub fn get_window(&self) -> u32 {
        self.window
    }

    /// How far (Chebyshev distance, cells) a leg aims ahead: the farthest
    /// route region whose representative is within `reach` of the current
    /// position (default 40: window minus a 10-cell buffer on each side).
    pub fn get_reach(&self) -> u32 {
        self.reach
    }

    /// How far back along the path (in cells, default 20; 0: not at all)
    /// a full query's legs after the first start: each such leg searches
    /// from up to this many cells before the previous leg's end, as far as
    /// its window (at most `window` a side) can take in, so its own search
    /// straightens the join of the two legs. A lazy query, whose cells are
    /// handed out leg by leg, holds back up to this many of a leg's last
    /// cells instead (at most half the leg, those inside its last route
    /// region, none on the leg that reaches the goal): the next leg starts
    /// where the handed-out part ends and searches them again
    /// ([`CellPlanner::next_leg`]).
    pub fn get_join_radius(&self) -> u32 {
        self.join_radius
    }

    /// How far back along the path a full query's legs start under a
    /// profile whose costs differ (cells, default 15; any value, the lesser
    /// of it and [`PlannerConfig::get_join_radius`] applies). Under uniform
    /// costs it has no effect. Shorter there because a weighted leg search
    /// costs more per cell of its window, and the join's last five cells
    /// buy little (P83: about 9 % of the query time for +0.03 to +0.31
    /// points of mean suboptimality).
    pub fn get_weighted_join_radius(&self) -> u32 {
        self.weighted_join_radius
    }

    /// Quality check after stitching: when the path costs more than this
    /// factor times a lower-bound estimate of the optimum (the octile
    /// distance, raised by the landmark bound between the start's and the
    /// goal's regions), one more jump point search looks for a strictly
    /// cheaper path in the box where one can lie (see
    /// [`PlannerConfig::get_recheck_window`]). Catches routes that went round an
    /// obstacle on the wrong side, and short queries answered by one window
    /// search whose optimum leaves the window (checked only when the window
    /// does not hold that whole box). Needs landmarks (none: off). Under a
    /// profile whose costs differ (that search prices steps uniformly) it
    /// covers one-window answers instead: unless the window holds every
    /// cheaper path, the region route is planned and, where it leaves the
    /// window for links costing less than the path, refined, and the
    /// cheaper path returned. Default 1.04; 0 disables.
    pub fn get_recheck(&self) -> f32 {
        self.recheck
    }

    /// Largest side of the recheck's search box (default 160 cells: about
    /// 0.4 MB of extra scratch, allocated on the first recheck that needs
    /// it). Boxes are cut to the region where a cheaper path can lie, so
    /// most are far smaller.
    pub fn get_recheck_window(&self) -> u32 {
        self.recheck_window
    }

    /// Node budget of the recheck search per cell of the stitched path
    /// (default 2; 0: no budget, the recheck is then exact within its
    /// box). Most wrong-side detours are found within the budget; on
    /// random-obstacle maps, where the estimate is loose and jump point
    /// search expands many nodes, an unbudgeted recheck cost 13–17% of the
    /// query time for little gain (random512-40: 385 → 449 µs unbudgeted,
    /// 400 µs with 2 per cell; Paris_1_256-random-1 mean suboptimality
    /// 1.18% → 0.55% unbudgeted, 0.58% with 2 per cell). A path counts as
    /// at least 1,000 cells here, so short detours get 2,000 nodes: on all
    /// Moving AI rows that took the largest suboptimality from 31.6% to
    /// 23.4% and the mean from 0.60% to 0.57% for 1.3% more expansions.
    pub fn get_recheck_budget(&self) -> u32 {
        self.recheck_budget
    }

    /// Before anything else, try a few straight octile paths from start to
    /// goal (diagonal and straight steps in fixed orders, a bit test per
    /// cell) and return the first whose cells are all free: optimal, with
    /// no region lookup and no search (see [`PlanStats::straight`]). Default
    /// on; off makes every query go through the hierarchy.
    pub fn get_straight(&self) -> bool {
        self.straight
    }

    /// Immediate start for lazy queries ([`CellPlanner::start`] and
    /// [`CellPlanner::next_leg`]; [`CellPlanner::find_path_into`] always plans the
    /// whole route first). The region search to the goal stops at the
    /// first region it closes three windows of route cost from the start
    /// (on maps with abstraction levels too); the first leg, about half a
    /// window, follows that partial route and the second `next_leg` plans
    /// the rest of the region route from where the first leg ended. The
    /// first leg then costs the same on any map size instead of growing
    /// with the route (see [`PlanStats::quick_start`]). Default on.
    pub fn get_quick_start(&self) -> bool {
        self.quick_start
    }

    /// On hierarchies with at least this many regions and abstraction
    /// levels ([`crate::BuildStats::levels`]: built from 32,768 regions),
    /// route searches plan the top level first and search regions only in
    /// a corridor along its refinement (full queries: 16,376² rooms, 30
    /// long rows, 9 k region expansions instead of 95 k, mean 12 ms instead
    /// of 52 ms, mean suboptimality 2.9 % instead of 0.4 %), and no second
    /// route is planned (it found nothing shorter inside the corridor). A
    /// loose hierarchy (after [`crate::Hierarchy::update`], until
    /// [`crate::Hierarchy::refresh`]) searches every region. Default 262,144 (maps of about 8k² and up):
    /// on 4096² maps (about 70 k regions) the corridor saved 25 % of the
    /// query time for 4× the suboptimality. `u32::MAX`: never.
    pub fn get_levels_from(&self) -> u32 {
        self.levels_from
    }

    /// A second route for full paths ([`CellPlanner::find_path_into`]) that
    /// still cost more than [`PlannerConfig::get_recheck`] times the estimate
    /// after the recheck: the abstract search runs again, pricing routes by
    /// the straight lines between the cells where they cross from region to
    /// region instead of through each region's representative, the legs
    /// refine that route too, and the shorter path is returned. Through
    /// representatives, a chain of rooms joined by doors costs the same
    /// along an L as along the diagonal, and the legs cannot undo an L
    /// (8room_000 rows up to 22% longer than optimal). Under a profile
    /// whose costs differ, each straight piece is priced at its link's
    /// terrain cost per cell of the link's way, and only where the first
    /// route's crossings are narrow (doors and gaps of at most 3 cells on
    /// average; on routes through wide crossings, streets and open ground,
    /// it cost a quarter of the speed for little). Lazy queries
    /// ([`CellPlanner::start`]) keep their first route. Default on.
    pub fn get_second_route(&self) -> bool {
        self.second_route
    }
}

impl Default for PlannerConfig {
    fn default() -> Self {
        PlannerConfig {
            window: 60,
            reach: 40,
            join_radius: 20,
            weighted_join_radius: 15,
            recheck: 1.04,
            recheck_window: 160,
            recheck_budget: 2,
            straight: true,
            quick_start: true,
            levels_from: 1 << 18,
            second_route: true,
        }
    }
}

/// Figures about one query.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanStats {
    /// Cost of the returned path (1 per straight step, √2 per diagonal).
    pub cost: f64,
    /// Region-graph nodes expanded by the abstract search.
    pub abstract_expanded: u32,
    /// Nodes expanded by all window searches (jump points, or cells for
    /// the A* fallback).
    pub expanded: u32,
    /// Legs refined.
    pub legs: u32,
    /// Legs that jump point search could not refine and windowed A* did
    /// (never expected: both search the same window; a safety net. A lazy
    /// leg's jump point search may miss a diagonal step past a cell handed
    /// out, which windowed A* takes).
    pub fallbacks: u32,
    /// Regions on the abstract route.
    pub route_len: u32,
    /// Whether the quality check ran a recheck search
    /// ([`PlannerConfig::get_recheck`]).
    pub rechecked: bool,
    /// Whether that search found a cheaper path (which was returned).
    pub recheck_improved: bool,
    /// Whether a second route was refined ([`PlannerConfig::get_second_route`]).
    pub second_route: bool,
    /// Whether its path was shorter (and returned).
    pub second_improved: bool,
    /// Legs of the second route copied from the first route's (the same
    /// start, box and target: no search).
    pub legs_reused: u32,
    /// Whether the query was answered by a straight octile path (start and
    /// goal joined by diagonal and straight steps in one of a few fixed
    /// orders, all cells free): optimal, with no region lookup and no
    /// search at all.
    pub straight: bool,
    /// Whether the first leg followed a partial route
    /// ([`PlannerConfig::get_quick_start`]); `abstract_expanded` then counts
    /// both region searches, `route_len` the last route.
    pub quick_start: bool,
    /// Nodes expanded above the regions: level nodes by the searches over
    /// the abstraction levels ([`PlannerConfig::get_levels_from`]).
    pub cluster_expanded: u32,
    /// Whether the path is known to be optimal: the exact portal layer
    /// answered (see [`crate::PortalMode`]; `expanded` then counts portals
    /// and no window search ran), or the route was refined region by
    /// region ([`PlanStats::by_region`]) through regions none of which
    /// lies on a cycle (no recheck runs then).
    pub exact: bool,
    /// Whether the route was refined one region at a time (the route is
    /// the only one and crosses every border through one pair of cells;
    /// see [`PlanStats::legs`], one per region searched).
    pub by_region: bool,
}

/// Where a lazily refined query stands.
#[derive(Clone, Copy, Debug)]
struct Progress {
    goal: Point,
    pos: Point,
    /// Index into the route of the region containing `pos`.
    at: usize,
    /// The last leg held its last cells back ([`CellPlanner::hold_back`]):
    /// `pos` lies short of the exit run from `route[at]`, which those
    /// cells reach inside `route[at]`.
    held: bool,
    phase: Phase,
    /// Start and goal regions, for a route planned only when needed.
    from: u32,
    to: u32,
    route: Planned,
    /// The step order of a free straight octile path from start to goal,
    /// when there is one (the whole answer, written by the first leg).
    straight: Option<StepOrder>,
    kind: Kind,
    /// Whether start and goal lie in one sealed piece of a sector (see
    /// [`Hierarchy::region_of`]): one search bounded to that sector is the
    /// whole answer.
    local: bool,
}

/// Which kind of query a plan serves: it chooses how [`CellPlanner`]'s
/// `begin` plans and how its legs start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A whole path at once ([`CellPlanner::find_path_into`]): the portal
    /// layer answers where it is built; legs after the first start back
    /// along the path ([`PlannerConfig::get_join_radius`]); a route of
    /// doorways is refined region by region.
    Full,
    /// [`Kind::Full`] without the portal layer (its fallback).
    FullRegions,
    /// Legs handed out one by one ([`CellPlanner::start`]): each starts
    /// where the last ended. With `quick` ([`PlannerConfig::get_quick_start`])
    /// the route may be partial and the first leg is kept short.
    Lazy {
        /// Partial route and a short first leg.
        quick: bool,
    },
}

impl Kind {
    /// Whether the portal layer should answer.
    fn uses_portals(self) -> bool {
        self == Kind::Full
    }

    /// Whether the whole path is built before anyone sees it (legs may
    /// then start back along the path and be cut).
    fn is_whole(self) -> bool {
        !matches!(self, Kind::Lazy { .. })
    }

    /// Whether the route may be partial and the first leg short.
    fn is_quick(self) -> bool {
        self == Kind::Lazy { quick: true }
    }
}

/// Where a query stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// No leg yet (the next leg writes the start cell first).
    Fresh,
    /// Some legs written, more to come.
    Walking,
    /// The goal is reached (or the query failed or was never started).
    Done,
}

/// How much of the abstract route is planned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Planned {
    /// Not yet: start and goal fit in one window, and the first leg tries
    /// one window search before any route (or the answer is a straight
    /// line).
    Nothing,
    /// Up to the first regions only ([`PlannerConfig::get_quick_start`]):
    /// it ends short of the goal's region, and the next leg after the
    /// first plans the rest.
    Partial,
    /// From the start's region to the goal's.
    Whole,
    /// Not yet, for a sliced query ([`CellPlanner::step`]): the route
    /// search runs a slice at a time in the query's own nodes. A leg asked
    /// with [`CellPlanner::next_leg`] plans it at once.
    Pending,
}

impl Progress {
    /// A query from `start` to `goal` (regions `from`, `to`) before its
    /// first leg.
    fn new(
        start: Point,
        goal: Point,
        (from, to): (u32, u32),
        route: Planned,
        straight: Option<StepOrder>,
        kind: Kind,
    ) -> Progress {
        Progress {
            goal,
            pos: start,
            at: 0,
            held: false,
            phase: Phase::Fresh,
            from,
            to,
            route,
            straight,
            kind,
            local: false,
        }
    }

    /// A query with no legs to give (not started, or failed).
    fn finished(start: Point, goal: Point) -> Progress {
        Progress {
            phase: Phase::Done,
            ..Progress::new(
                start,
                goal,
                (u32::MAX, u32::MAX),
                Planned::Nothing,
                None,
                Kind::Lazy { quick: false },
            )
        }
    }

    /// Whether the goal is reached (or the query ended otherwise).
    fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }
}

/// Makes `v` `n` entries long, all zero when it had another length; left
/// as it is (its entries kept) when it already has `n`. The planner's
/// map-sized scratch is sized this way on first use and by `prepare`.
fn fit_zeroed<T: Default + Clone>(v: &mut Vec<T>, n: usize) {
    if v.len() != n {
        v.clear();
        v.resize(n, T::default());
    }
}

/// Per-thread query scratch. Reuse one per thread: once warm, a query
/// allocates nothing but the growth of the caller's output `Vec`. Holds
/// 32 bytes per region (abstract search), one bit per map cell on maps of
/// up to 4096² cells (loop check; larger maps keep a set of the path's
/// cells instead, 33 MB less on 16k²) and window-sized scratch for the leg
/// searches (about 90 KB for 60×60, growing to about 0.45 MB the first
/// time a quality recheck searches a 160×160 box: see
/// [`PlannerConfig::get_recheck`]), whatever the map size.
pub struct CellPlanner {
    config: PlannerConfig,
    anodes: Vec<ANode>,
    /// Open list of the abstract search: `f` as `f32` bits (which order
    /// like the values for non-negative floats) above the region id, in one
    /// `u64` (8-byte entries: the abstract heap grows large, and halving
    /// the entry made the abstract search about a third cheaper).
    aheap: BinaryHeap<Reverse<u64>>,
    agen: u32,
    /// Scratch of the level searches (large maps).
    levels: levels::LevelScratch,
    route: Vec<u32>,
    /// `cross[m]`, `m >= 1`: the cells where the route leaves `route[m - 1]`
    /// and enters `route[m]`; `cross[0]` is the start twice.
    cross: Vec<(Run, Run)>,
    /// Window-local goal bits (the exit run) for the current leg.
    goal_bits: Vec<u64>,
    /// The leg search (jump point search in the window).
    jps: WindowedJps,
    /// Fallback leg search (windowed A*), a safety net.
    window: WindowedAStar,
    leg: Vec<Point>,
    /// The second route's path ([`PlannerConfig::get_second_route`]).
    alt: Vec<Point>,
    /// The first route, to skip a second route that is the same.
    first_route: Vec<u32>,
    /// The first route's legs while a full path is planned, for a second
    /// route to reuse (see [`LegMemo`]); their cells are in `leg_cells`.
    legs_done: Vec<LegMemo>,
    leg_cells: Vec<Point>,
    memo: Memo,
    /// Expansions the next abstract search may make (`u32::MAX`: no limit).
    abstract_budget: u32,
    /// `begin` leaves the route for a sliced query's steps
    /// ([`Planned::Pending`]) instead of planning it.
    defer_route: bool,
    /// Largest side (cells) of a leg's box, lowered by a step's budget
    /// ([`CellPlanner::step`]); `u32::MAX` otherwise.
    leg_cap: u32,
    /// `bmark[t] == bgen`: block-cut tree node `t` is marked for the path
    /// of `marked` (see [`crate::derived::blocks`]); the abstract searches skip
    /// regions outside the marked blocks.
    bmark: Vec<u32>,
    bgen: u32,
    /// The regions whose blocks are marked (`None`: none yet this query).
    marked: Option<(u32, u32)>,
    /// The marks are valid (both regions have edges and are connected).
    restrict: bool,
    /// Every block on the path is a bridge: the route is the only one.
    unique_route: bool,
    /// Each link of the route is the only run where its regions touch
    /// ([`crate::Link::is_only_crossing`]).
    only_crossings: bool,
    lab: Labeler,
    /// The cells a lazy query handed out and its legs' boxes, swapped in
    /// from the [`Query`] for one leg.
    handed: Vec<Point>,
    handed_legs: Vec<(Rect, u32)>,
    /// A lazy leg's window-local mask (see [`CellPlanner::lazy_mask`]).
    lazy_mask: Vec<u64>,
    /// Later route regions near a lazy leg's box: (sector, label).
    later: Vec<(u32, u32)>,
    /// Regions the abstract search skips (a lazy query's rest of the
    /// route; empty otherwise).
    avoid: Vec<u32>,
    /// One bit per map cell, all clear between queries (loop detection on
    /// maps of up to `LOOP_BITSET_CELLS` cells).
    seen: Vec<u64>,
    /// The path's cells (loop detection on larger maps).
    seen_set: hashbrown::HashSet<u64>,
    progress: Option<Progress>,
    stats: PlanStats,
    /// Scratch of the exact portal layer's queries.
    portal: PortalSearch,
}

impl std::fmt::Debug for CellPlanner {
    /// The configuration and how much scratch has grown (not its contents).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CellPlanner")
            .field("config", &self.config)
            .field("region_scratch", &self.anodes.len())
            .field("route_len", &self.route.len())
            .field("last", &self.stats)
            .finish_non_exhaustive()
    }
}

impl Default for CellPlanner {
    fn default() -> Self {
        CellPlanner::new()
    }
}

/// Cost of a cell path in the searchers' fixed-point units.
fn fixed_cost(cells: &[Point]) -> Cost {
    cells
        .windows(2)
        .map(|w| {
            if w[0].x != w[1].x && w[0].y != w[1].y {
                COST_DIAGONAL
            } else {
                COST_ONE
            }
        })
        .sum()
}

#[inline]
fn cheb(a: Point, b: Point) -> u32 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

impl CellPlanner {
    /// A planner with the default configuration.
    pub fn new() -> CellPlanner {
        // The defaults are within every bound.
        CellPlanner::with_config(PlannerConfig::default()).unwrap_or_else(|_| unreachable!())
    }

    /// Sizes the scratch that grows with the map (a node per region and
    /// per cluster, the level searches' marks, the loop bitset) for `h`,
    /// so that the first query on it allocates and writes no more than the
    /// ones after it. Optional: a query sizes what it needs itself. Why:
    /// on a 16,376² map these arrays are about 80 MB, written whole by the
    /// first query (about 20 ms, more when the system is short of free
    /// pages): call this where a game loads a world, not in a frame.
    /// O(regions + clusters + cells / 64) once per hierarchy size.
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point};
    /// use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig};
    /// let grid = Grid::new(64, 64, true).unwrap();
    /// let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    /// let mut planner = CellPlanner::new();
    /// planner.prepare(&h);
    /// let mut path = Vec::new();
    /// planner.find_path_into(&h, &grid, Point::new(1, 1), Point::new(60, 60), &mut path).unwrap();
    /// assert_eq!(path.last(), Some(&Point::new(60, 60)));
    /// ```
    pub fn prepare(&mut self, h: &Hierarchy) {
        next_generation(&mut self.anodes, &mut self.agen, h.regions.len());
        self.levels.prepare(&h.connectivity.levels.levels);
        let cells = u64::from(h.width()) * u64::from(h.height());
        if cells <= polish::LOOP_BITSET_CELLS {
            fit_zeroed(&mut self.seen, cells.div_ceil(64) as usize);
        }
        fit_zeroed(&mut self.bmark, h.blocks.nodes());
    }

    /// A planner with the given configuration.
    pub fn with_config(config: PlannerConfig) -> Result<CellPlanner, ConfigError> {
        config.validate()?;
        let window = config.window;
        Ok(CellPlanner {
            config: PlannerConfig {
                recheck_window: config.recheck_window.max(window),
                ..config
            },
            anodes: Vec::new(),
            aheap: BinaryHeap::new(),
            agen: 0,
            levels: levels::LevelScratch::default(),
            route: Vec::new(),
            cross: Vec::new(),
            goal_bits: Vec::new(),
            jps: WindowedJps::new(),
            window: WindowedAStar::with_size(window, window),
            leg: Vec::new(),
            alt: Vec::new(),
            first_route: Vec::new(),
            legs_done: Vec::new(),
            leg_cells: Vec::new(),
            memo: Memo::Off,
            abstract_budget: u32::MAX,
            defer_route: false,
            leg_cap: u32::MAX,
            bmark: Vec::new(),
            bgen: 0,
            marked: None,
            restrict: false,
            unique_route: false,
            only_crossings: false,
            lab: Labeler::default(),
            handed: Vec::new(),
            handed_legs: Vec::new(),
            lazy_mask: Vec::new(),
            later: Vec::new(),
            avoid: Vec::new(),
            seen: Vec::new(),
            seen_set: hashbrown::HashSet::new(),
            progress: None,
            stats: PlanStats::default(),
            portal: PortalSearch::default(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &PlannerConfig {
        &self.config
    }

    /// Figures about the last query (complete once it finished).
    pub fn stats(&self) -> PlanStats {
        self.stats
    }

    /// The abstract route (region ids) of the current or last query; empty
    /// when a query whose start and goal fit in one window was answered by
    /// one window search (the route is then never planned).
    pub fn route(&self) -> impl ExactSizeIterator<Item = crate::RegionId> + '_ {
        self.route.iter().map(|&r| crate::RegionId::new(r))
    }

    /// Plans a full path from `start` to `goal`, written into `out` (cleared
    /// first). Unreachable goals are answered from the connectivity matrix
    /// without any search.
    pub fn find_path_into(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<PlanStats, PlanError> {
        out.clear();
        let grid = h.search_grid(grid);
        if self.begin(h, grid, start, goal, Kind::Full)? {
            if let Some(layer) = &h.portals {
                if let Some(found) = self.portal.find(layer, grid, start, goal, out) {
                    self.stats.exact = true;
                    self.stats.expanded = found.expanded;
                    self.stats.cost = h.path_cost(out);
                    return Ok(self.stats);
                }
            }
            // Never expected (the matrix said the goal is reachable): the
            // region planner answers instead.
            out.clear();
            self.begin(h, grid, start, goal, Kind::FullRegions)?;
        }
        self.legs_done.clear();
        self.leg_cells.clear();
        if self.config.second_route {
            self.memo = Memo::Record;
        }
        let legs = self.refine_all(h, grid, out);
        self.memo = Memo::Off;
        legs?;
        // A straight answer is optimal and has no loops; a path refined
        // region by region has none either (each region's piece stays in
        // that region, and the route has no repeated region).
        if !self.stats.straight {
            if !self.stats.by_region {
                self.remove_loops(grid, out);
            }
            // Both are priced in uniform steps (see `crate::profiled`).
            if h.weights().is_none() {
                if !self.stats.exact {
                    self.recheck(h, grid, out);
                }
            } else {
                self.recheck_window_answer(h, grid, out);
            }
            // Under terrain costs only on routes through narrow crossings.
            self.second_route(h, grid, out);
        }
        self.stats.cost = h.path_cost(out);
        Ok(self.stats)
    }

    /// Refines every remaining leg into `out`, each after the first
    /// starting back along the path ([`PlannerConfig::get_join_radius`]).
    fn refine_all(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) -> Result<(), PlanError> {
        while self.leg_into(h, grid, out)? {}
        Ok(())
    }

    /// Checks a query's input and plans its route as `kind` asks (a partial
    /// one for a quick lazy query; see [`CellPlanner::start`]). Stops
    /// before planning any route and returns `true` when the hierarchy's
    /// portal layer should answer (a [`Kind::Full`] query that is not a
    /// straight line, on a map with the layer).
    fn begin(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        kind: Kind,
    ) -> Result<bool, PlanError> {
        self.progress = None;
        self.stats = PlanStats::default();
        self.marked = None;
        self.route.clear();
        self.cross.clear();
        served(h, grid)?;
        if !grid.in_bounds(start) {
            return Err(PlanError::StartOutOfBounds(start));
        }
        if !grid.in_bounds(goal) {
            return Err(PlanError::GoalOutOfBounds(goal));
        }
        if !grid.is_passable(start) {
            return Err(PlanError::StartBlocked(start));
        }
        if !grid.is_passable(goal) {
            return Err(PlanError::GoalBlocked(goal));
        }
        // A free straight octile path is optimal: no region lookup, no
        // matrix check, no search (open ground, short hops, units in sight
        // of their goal).
        let straight = if self.config.straight && h.weights().is_none() {
            straight_order(grid, start, goal)
        } else {
            None
        };
        if let Some(order) = straight {
            self.stats.straight = true;
            let regions = (u32::MAX, u32::MAX);
            self.progress = Some(Progress::new(
                start,
                goal,
                regions,
                Planned::Nothing,
                Some(order),
                kind,
            ));
            return Ok(false);
        }
        let stale = || PlanError::Stale("a cell's sector has no matching region".into());
        let rs = h.region_of_with(grid, start, &mut self.lab);
        let rg = h.region_of_with(grid, goal, &mut self.lab);
        let (Some(rs), Some(rg)) = (rs, rg) else {
            return self.begin_sealed(h, grid, (start, goal), rs.is_none(), kind);
        };
        if (rs as usize) >= h.regions.len() || (rg as usize) >= h.regions.len() {
            return Err(stale());
        }
        if !h.connectivity.connected(rs, rg) {
            return Err(PlanError::Unreachable { start, goal });
        }
        if kind.uses_portals() && h.portals.is_some() {
            return Ok(true);
        }
        // Start and goal in different regions but within one window (with
        // a cell to spare each side): the first leg tries one unrestricted
        // window search, usually the optimal path outright (a region route
        // might go round an obstacle on the wrong side), so the abstract
        // route waits until that search fails.
        let direct = !self.defer_route
            && rs != rg
            && cheb(start, goal) <= self.config.window.saturating_sub(2);
        let mut partial = false;
        if self.defer_route {
            let pr = Progress::new(start, goal, (rs, rg), Planned::Pending, None, kind);
            self.progress = Some(pr);
            return Ok(false);
        }
        if !direct {
            match kind
                .is_quick()
                .then(|| self.plan_partial(h, rs, rg, start, goal))
                .flatten()
            {
                Some(p) => partial = p,
                None => self.plan_route(h, rs, rg, start, goal)?,
            }
        }
        let route = match (direct, partial) {
            (true, _) => Planned::Nothing,
            (false, true) => Planned::Partial,
            (false, false) => Planned::Whole,
        };
        let pr = Progress::new(start, goal, (rs, rg), route, None, kind);
        self.stats.quick_start = partial;
        self.progress = Some(pr);
        Ok(false)
    }

    /// [`CellPlanner::begin`] for a start or goal that is sealed (passable,
    /// in no region: see [`Hierarchy::region_of`]; `start_sealed` says
    /// which, the start when both are). A sealed cell's piece of its sector
    /// has no move out of the sector, so the other end is reachable only in
    /// the same piece: checked by flooding the sealed end's piece (small
    /// where sealed cells are many) in its sector. Reachable: one search
    /// bounded to the sector's rectangle, which holds every path between
    /// them, so its path is optimal ([`PlanStats::exact`]).
    fn begin_sealed(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        (start, goal): (Point, Point),
        start_sealed: bool,
        kind: Kind,
    ) -> Result<bool, PlanError> {
        let s = h.layout.sector_of(start);
        let (from, to) = if start_sealed {
            (start, goal)
        } else {
            (goal, start)
        };
        let joined = s == h.layout.sector_of(goal)
            && self
                .lab
                .reach(grid, h.sector_rect(s), from, [(to, 0)])
                .is_some();
        if !joined {
            return Err(PlanError::Unreachable { start, goal });
        }
        let regions = (u32::MAX, u32::MAX);
        let mut pr = Progress::new(start, goal, regions, Planned::Nothing, None, kind);
        pr.local = true;
        self.stats.exact = true;
        self.progress = Some(pr);
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::route::{best_point, euclid};
    use super::*;
    use regionpath_grid::SQRT2;

    fn assert_legal(grid: &Grid, path: &[Point]) {
        for w in path.windows(2) {
            let d = Dir::from_delta(w[1].x as i32 - w[0].x as i32, w[1].y as i32 - w[0].y as i32)
                .expect("adjacent");
            assert!(grid.can_step(w[0], d), "{} -> {}", w[0], w[1]);
        }
    }

    /// Straight octile paths: the evenly spread order first, the others
    /// when it is blocked, none through a cut corner; each answer is a legal
    /// path of octile cost with no search.
    #[test]
    fn straight_paths_answer_without_search() {
        let mut grid = Grid::new(40, 30, true).unwrap();
        let h = Hierarchy::build(&grid, &Default::default()).unwrap();
        let mut planner = CellPlanner::new();
        let mut path = Vec::new();
        let (s, g) = (Point::new(1, 1), Point::new(31, 11));
        assert_eq!(straight_order(&grid, s, g), Some(StepOrder::Even));
        let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        assert!(st.straight);
        assert_eq!((st.expanded, st.abstract_expanded), (0, 0));
        assert_eq!(path.len(), 31);
        assert_eq!((path.first(), path.last()), (Some(&s), Some(&g)));
        assert_legal(&grid, &path);
        assert!((st.cost - octile(s, g)).abs() < 1e-9);
        // Even steps: the path stays within a cell of the straight line.
        for p in &path {
            let along = (p.x - s.x) as f64 / 30.0;
            assert!(
                (p.y as f64 - (s.y as f64 + 10.0 * along)).abs() <= 1.0,
                "{p}"
            );
        }
        // Block the middle of that line: the diagonal-first path is free.
        grid.set_passable(path[15], false).unwrap();
        let h = Hierarchy::build(&grid, &Default::default()).unwrap();
        assert_eq!(straight_order(&grid, s, g), Some(StepOrder::DiagonalFirst));
        let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        assert!(st.straight);
        assert_legal(&grid, &path);
        assert!((st.cost - octile(s, g)).abs() < 1e-9);
        // Block the diagonal-first path too: straight-first remains.
        grid.set_passable(Point::new(6, 6), false).unwrap();
        assert_eq!(straight_order(&grid, s, g), Some(StepOrder::StraightFirst));
        // And that one: no straight path; the hierarchy answers.
        grid.set_passable(Point::new(25, 5), false).unwrap();
        assert_eq!(straight_order(&grid, s, g), None);
        let h = Hierarchy::build(&grid, &Default::default()).unwrap();
        let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        assert!(!st.straight);
        assert_legal(&grid, &path);
        assert!(st.cost < octile(s, g) + 1.0);
        // A diagonal past a blocked corner is not a straight path.
        let grid = Grid::from_rows(&[".@.", "...", "..."]).unwrap();
        let (s, g) = (Point::new(0, 0), Point::new(1, 1));
        assert_eq!(straight_order(&grid, s, g), None);
        let h = Hierarchy::build(&grid, &Default::default()).unwrap();
        let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        assert_eq!(path, vec![s, Point::new(0, 1), g]);
        assert!(!st.straight && (st.cost - 2.0).abs() < 1e-9);
        // Lazily: the first leg is the whole straight path.
        let (s, g) = (Point::new(0, 1), Point::new(2, 2));
        let mut q = planner.start(&h, &grid, s, g).unwrap();
        path.clear();
        assert!(!planner.next_leg(&mut q, &h, &grid, &mut path).unwrap());
        assert_eq!(path, vec![s, Point::new(1, 2), g]);
        assert!(q.stats().straight);
    }

    /// A short query whose window holds no path: the window search fails,
    /// the abstract route is planned then, and the path goes round the
    /// wall far outside the window. A short query with a path in its window
    /// never plans a route.
    #[test]
    fn short_query_falls_back_to_the_route_when_its_window_has_no_path() {
        let mut grid = Grid::new(150, 100, true).unwrap();
        for y in 0..99 {
            grid.set_passable(Point::new(75, y), false).unwrap();
        }
        let h = Hierarchy::build(&grid, &Default::default()).unwrap();
        let mut planner = CellPlanner::new();
        let mut path = Vec::new();
        let (s, g) = (Point::new(70, 10), Point::new(80, 10));
        let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        assert!(st.route_len > 1, "the route was planned");
        assert_eq!((path.first(), path.last()), (Some(&s), Some(&g)));
        assert_legal(&grid, &path);
        assert!(path.iter().any(|p| p.y == 99), "goes through the gap");
        // The optimum: down 89 rows to the gap and back up, 10 across.
        let optimal = 2.0 * 89.0 - 10.0 + 10.0 * SQRT2 - 0.0;
        assert!(
            st.cost >= optimal - 1e-9 && st.cost <= optimal * 1.05,
            "{}",
            st.cost
        );
        // Same side of the wall: one window search, no route.
        let (s, g) = (Point::new(10, 10), Point::new(60, 50));
        let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        assert_eq!(st.route_len, 0);
        assert_eq!(planner.route().len(), 0);
        assert!((st.cost - octile(s, g)).abs() < 1e-9);
    }

    /// Loops are cut back to each cell's first visit, leaving a contiguous
    /// path without repeats, and the loop bitset is left clear.
    #[test]
    fn remove_loops_cuts_back_to_the_first_visit() {
        let grid = Grid::new(8, 8, true).unwrap();
        let p = |x, y| Point::new(x, y);
        // (0,0) -> (3,0), a loop back through (1,1) to (1,0), then on; and
        // a second loop later at (5,2).
        let mut path = vec![
            p(0, 0),
            p(1, 0),
            p(2, 0),
            p(3, 0),
            p(2, 1),
            p(1, 1),
            p(1, 0),
            p(2, 1),
            p(3, 2),
            p(4, 2),
            p(5, 2),
            p(6, 3),
            p(5, 3),
            p(5, 2),
            p(6, 2),
        ];
        let mut planner = CellPlanner::new();
        planner.remove_loops(&grid, &mut path);
        assert_eq!(
            path,
            vec![
                p(0, 0),
                p(1, 0),
                p(2, 1),
                p(3, 2),
                p(4, 2),
                p(5, 2),
                p(6, 2)
            ]
        );
        assert!(planner.seen.iter().all(|&w| w == 0));
        // A path without loops is left as it is.
        let mut straight: Vec<Point> = (0..8).map(|x| p(x, 3)).collect();
        let copy = straight.clone();
        planner.remove_loops(&grid, &mut straight);
        assert_eq!(straight, copy);
        assert!(planner.seen.iter().all(|&w| w == 0));
    }

    /// Random walks (with many revisits) lose their loops the same way on a
    /// map small enough for the loop bitset and on one above
    /// `LOOP_BITSET_CELLS` (a set of the path's cells): as a naive loop
    /// erasure computes it, which looks the cell up in the kept path.
    #[test]
    fn remove_loops_agrees_with_a_naive_erasure_on_small_and_large_maps() {
        let small = Grid::new(64, 64, true).unwrap();
        let side = (polish::LOOP_BITSET_CELLS as f64).sqrt() as u32 + 1;
        let large = Grid::new(side, side, true).unwrap();
        assert!(large.cell_count() > polish::LOOP_BITSET_CELLS);
        let mut planner = CellPlanner::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..200 {
            let mut walk = vec![Point::new(30, 30)];
            let steps = 20 + round * 3;
            for _ in 0..steps {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let d = Dir::ALL[(state % 8) as usize];
                let (dx, dy) = d.delta();
                let last = *walk.last().unwrap();
                let next = Point::new(
                    (last.x as i32 + dx).clamp(0, 63) as u32,
                    (last.y as i32 + dy).clamp(0, 63) as u32,
                );
                if next != last {
                    walk.push(next);
                }
            }
            let mut naive: Vec<Point> = Vec::new();
            for &p in &walk {
                if let Some(i) = naive.iter().position(|&q| q == p) {
                    naive.truncate(i + 1);
                } else {
                    naive.push(p);
                }
            }
            for grid in [&small, &large] {
                let mut path = walk.clone();
                planner.remove_loops(grid, &mut path);
                assert_eq!(path, naive, "round {round}, {}²", grid.width());
            }
        }
        assert!(planner.seen.iter().all(|&w| w == 0));
        assert!(planner.seen.len() <= (64 * 64 / 64) as usize);
    }

    /// The crossing cell is (within rounding) the run cell on the shortest
    /// way from `a` to `b`, found here by trying every cell of the run.
    #[test]
    fn best_point_is_the_shortest_way_through_the_run() {
        let mut seed = 7u64;
        let mut next = |n: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as u32
        };
        for _ in 0..2000 {
            let vertical = next(2) == 0;
            let run = Run {
                start: Point::new(20 + next(20), 20 + next(20)),
                len: 1 + next(16),
                vertical,
            };
            let a = Point::new(next(80), next(80));
            let b = Point::new(next(80), next(80));
            let via = |q: Point| euclid(a, q) + euclid(q, b);
            let q = best_point(run, a, b);
            assert!(run.contains(q), "{q:?} is not on {run:?}");
            let best = (0..run.len)
                .map(|k| {
                    let c = if vertical {
                        Point::new(run.start.x, run.start.y + k)
                    } else {
                        Point::new(run.start.x + k, run.start.y)
                    };
                    via(c)
                })
                .fold(f32::INFINITY, f32::min);
            assert!(
                via(q) <= best + 0.05,
                "{a:?} -> {b:?} via {run:?}: {q:?} costs {} > {best}",
                via(q)
            );
        }
    }
}
