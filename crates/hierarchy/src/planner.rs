//! Queries: abstract route over regions, leg refinement in 60×60 windows,
//! stitching.

use crate::build::{Hierarchy, Run};
use crate::portals::PortalSearch;
use crate::sector::{Labeler, Rect};
use rayon::prelude::*;
use regionpath_grid::{octile, Dir, Grid, Point, SQRT2};
use regionpath_search::{
    octile_cost, Cost, SearchError, SearchStats, Status, Window, WindowedAStar, WindowedJps,
    COST_DIAGONAL, COST_ONE,
};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use thiserror::Error;

/// Why a path could not be planned.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PathError {
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
    /// `next_leg` without a query in progress.
    #[error("no query in progress: call start_query first")]
    NoQuery,
    /// The hierarchy and grid disagree (the grid changed without an update).
    #[error("hierarchy is stale for this grid: {0}")]
    Stale(String),
    /// A window search rejected its input (a bug if it happens).
    #[error("window search failed: {0}")]
    Search(#[from] SearchError),
}

/// Clusters of the cluster route that a quick start's partial region route
/// spans (the start's and the next two).
const QUICK_CLUSTERS: usize = 3;

/// Heuristic weight of the abstract search. Above 1 it expands far fewer
/// regions on long routes; the refinement does not follow the route
/// region by region anyway, so the small loss in route quality is
/// recovered below.
const ABSTRACT_WEIGHT: f32 = 1.0;

/// How the abstract search prices a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RouteCosts {
    /// The links' stored costs (through each region's representative),
    /// with the landmark heuristic: cheap and tight.
    Representatives,
    /// The straight-line distance between the cells where the route enters
    /// successive regions (the middle of each crossing run; the start and
    /// goal at the ends). Where every monotone chain of regions costs the
    /// same through representatives (rooms joined by doors: the costs are
    /// Manhattan-like), this prefers the chain along the straight line, the
    /// one the legs can turn into a near-optimal path. The search stays
    /// over regions (each region keeps the entry of its first best
    /// relaxation), so it costs about as much as the other.
    Crossings,
}

/// Landmark bounds are distances through representatives, longer than the
/// straight lines between crossings; scaled by this in the
/// [`RouteCosts::Crossings`] heuristic (1.0 let the heuristic overestimate
/// and spoilt routes: all rows, every 4th, mean suboptimality 0.54% at 0.8,
/// 0.63% at 1.0; 0.7 and 0.6 gained little for more expansions).
const CROSSING_LANDMARK_FACTOR: f32 = 0.8;

/// Length of the polyline from `start` through the middle of each entry run
/// of `cross` (a route's crossings, `cross[0]` the start's) to `goal`: the
/// [`RouteCosts::Crossings`] cost of a route.
fn crossing_cost(cross: &[(Run, Run)], start: Point, goal: Point) -> f32 {
    let mut at = start;
    let mut sum = 0.0;
    for c in cross.iter().skip(1) {
        let q = best_point(c.1, at, goal);
        sum += euclid(at, q);
        at = q;
    }
    sum + euclid(at, goal)
}

/// The cell of `run` on the shortest straight-line way from `a` to `b`
/// through the run's line (mirroring `b` across it when both lie on the
/// same side), clamped to the run.
fn best_point(run: Run, a: Point, b: Point) -> Point {
    if run.len <= 1 {
        return run.start;
    }
    // Work in (across, along) coordinates of the run's line.
    let (line, lo, hi, a_across, a_along, b_across, b_along) = if run.vertical {
        (
            run.start.x as f32,
            run.start.y,
            run.start.y + run.len - 1,
            a.x as f32,
            a.y as f32,
            b.x as f32,
            b.y as f32,
        )
    } else {
        (
            run.start.y as f32,
            run.start.x,
            run.start.x + run.len - 1,
            a.y as f32,
            a.x as f32,
            b.y as f32,
            b.x as f32,
        )
    };
    let da = a_across - line;
    let mut db = b_across - line;
    if da * db > 0.0 {
        db = -db;
    }
    let along = if (da - db).abs() < 1e-6 {
        a_along
    } else {
        let t = da / (da - db);
        a_along + t * (b_along - a_along)
    };
    let k = (along.round().max(lo as f32).min(hi as f32)) as u32;
    if run.vertical {
        Point::new(run.start.x, k)
    } else {
        Point::new(k, run.start.y)
    }
}

/// Heuristic weight of the [`RouteCosts::Crossings`] search
/// ([`PlannerConfig::second_route`]). 1.3 expanded fewer regions but left
/// two of the six Moving AI files whose worst smoothed path was above 1.05
/// times the optimum there (1.0 fixed all six).
const CROSSING_WEIGHT: f32 = 1.0;

/// A second route is refined only when its [`RouteCosts::Crossings`] cost
/// is at least this fraction below the first route's (every 8th row:
/// 0.03 cost 8room_000 +67% instructions for mean suboptimality 4.73% ->
/// 3.17%, 0 cost +93% for 2.91%; Berlin_0_1024 +80% / +135%).
const SECOND_ROUTE_GAIN: f32 = 0.03;

/// The [`RouteCosts::Crossings`] search of a second route may expand this
/// many times the first search's regions (at least 64 each) before giving
/// up: on open maps with large obstacles its straight-line heuristic is far
/// weaker than the first search's landmarks (TheFrozenSea, every 8th row:
/// instructions -9% at 2x for the same quality to 0.01%; 8room_000 and
/// random512-40 unchanged).
const SECOND_ROUTE_BUDGET: u32 = 2;

/// Straight-line distance between two cells.
#[inline]
fn euclid(a: Point, b: Point) -> f32 {
    let dx = a.x as f32 - b.x as f32;
    let dy = a.y as f32 - b.y as f32;
    (dx * dx + dy * dy).sqrt()
}

/// The recheck's node budget counts a stitched path as at least this many
/// cells, so a short detour still gets a search that can find the way
/// round (`RECHECK_MIN_CELLS` × [`PlannerConfig::recheck_budget`] nodes).
const RECHECK_MIN_CELLS: u32 = 1000;

/// Query settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannerConfig {
    /// Side of the square leg-search window (default 60).
    pub window: u32,
    /// How far (Chebyshev distance, cells) a leg aims ahead: the farthest
    /// route region whose representative is within `reach` of the current
    /// position (default 40: window minus a 10-cell buffer on each side).
    pub reach: u32,
    /// How far back along the path (in cells, default 20; 0: not at all)
    /// a full query's legs after the first start: each such leg searches
    /// from up to this many cells before the previous leg's end, as far as
    /// its window (at most `window` a side) can take in, so its own search
    /// straightens the join of the two legs. (Lazy queries, whose cells
    /// are handed out leg by leg, start each leg where the last one ended.)
    pub join_radius: u32,
    /// Quality check after stitching: when the path costs more than this
    /// factor times a lower-bound estimate of the optimum (the octile
    /// distance, raised by the landmark bound between the start's and the
    /// goal's regions), one more jump point search looks for a strictly
    /// cheaper path in the box where one can lie (see
    /// [`PlannerConfig::recheck_window`]). Catches routes that went round an
    /// obstacle on the wrong side. Default 1.04; 0 disables.
    pub recheck: f32,
    /// Largest side of the recheck's search box (default 160 cells: about
    /// 0.4 MB of extra scratch, allocated on the first recheck that needs
    /// it). Boxes are cut to the region where a cheaper path can lie, so
    /// most are far smaller.
    pub recheck_window: u32,
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
    pub recheck_budget: u32,
    /// Before anything else, try a few straight octile paths from start to
    /// goal (diagonal and straight steps in fixed orders, a bit test per
    /// cell) and return the first whose cells are all free: optimal, with
    /// no region lookup and no search (see [`PlanStats::straight`]). Default
    /// on; off makes every query go through the hierarchy.
    pub straight: bool,
    /// Immediate start for lazy queries ([`Planner::start_query`] and
    /// [`Planner::next_leg`]; [`Planner::find_path_into`] always plans the
    /// whole route first). When start and goal lie in different clusters
    /// (the connected pieces of the region graph in one super-sector of the
    /// connectivity matrix, 128 cells a side on most maps), `start_query`
    /// routes over the small cluster graph first, then plans regions only
    /// inside the first three clusters of that route, up to the first
    /// region of the third; the first leg follows that partial route and
    /// the second `next_leg` plans the rest of the region route from where
    /// the first leg ended. The first leg then costs the same on any map
    /// size instead of growing with the route (see [`PlanStats::quick_start`]).
    /// Default on.
    pub quick_start: bool,
    /// A second route for full paths ([`Planner::find_path_into`]) that
    /// still cost more than [`PlannerConfig::recheck`] times the estimate
    /// after the recheck: the abstract search runs again, pricing routes by
    /// the straight lines between the cells where they cross from region to
    /// region instead of through each region's representative, the legs
    /// refine that route too, and the shorter path is returned. Through
    /// representatives, a chain of rooms joined by doors costs the same
    /// along an L as along the diagonal, and the legs cannot undo an L
    /// (8room_000 rows up to 22% longer than optimal). Lazy queries
    /// ([`Planner::start_query`]) keep their first route. Default on.
    pub second_route: bool,
}

impl Default for PlannerConfig {
    fn default() -> Self {
        PlannerConfig {
            window: 60,
            reach: 40,
            join_radius: 20,
            recheck: 1.04,
            recheck_window: 160,
            recheck_budget: 2,
            straight: true,
            quick_start: true,
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
    /// (never expected: both search the same window; a safety net).
    pub fallbacks: u32,
    /// Regions on the abstract route.
    pub route_len: u32,
    /// Whether the quality check ran a recheck search
    /// ([`PlannerConfig::recheck`]).
    pub rechecked: bool,
    /// Whether that search found a cheaper path (which was returned).
    pub recheck_improved: bool,
    /// Whether a second route was refined ([`PlannerConfig::second_route`]).
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
    /// Whether the first leg followed a partial route planned through the
    /// cluster graph ([`PlannerConfig::quick_start`]); `abstract_expanded`
    /// then counts both region searches, `route_len` the last route.
    pub quick_start: bool,
    /// Clusters expanded by the cluster-graph search of a quick start.
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

#[derive(Clone, Copy)]
struct ANode {
    g: f32,
    stamp: u32,
    parent: u32,
    /// Position of the link to this node in `parent`'s graph row.
    via: u32,
    /// Where the route enters this region ([`RouteCosts::Crossings`]).
    at: Point,
    /// The landmark bound to the goal's region, negative until computed.
    lm: f32,
    closed: bool,
}

impl ANode {
    /// A node not reached in the current search.
    const BLANK: ANode = ANode {
        g: f32::INFINITY,
        stamp: 0,
        parent: u32::MAX,
        via: u32::MAX,
        at: Point { x: 0, y: 0 },
        lm: -1.0,
        closed: false,
    };
}

/// Starts a search over `nodes` (at least `n` of them): a fresh stamp, so
/// nodes stamped earlier count as unreached without clearing them (all
/// stamps are cleared only when the counter wraps).
fn next_generation(nodes: &mut Vec<ANode>, gen: &mut u32, n: usize) -> u32 {
    if nodes.len() < n {
        nodes.resize(n, ANode::BLANK);
    }
    *gen = gen.wrapping_add(1);
    if *gen == 0 {
        nodes.iter_mut().for_each(|a| a.stamp = 0);
        *gen = 1;
    }
    *gen
}

/// Open-list key of the abstract searches: `f` as `f32` bits (ordered like
/// the values for non-negative floats) above the node id.
#[inline]
fn heap_key(f: f32, id: u32) -> Reverse<u64> {
    Reverse((f.to_bits() as u64) << 32 | id as u64)
}

/// Where a lazily refined query stands.
#[derive(Clone, Copy)]
struct Progress {
    goal: Point,
    pos: Point,
    /// Index into the route of the region containing `pos`.
    at: usize,
    done: bool,
    started: bool,
    /// Start and goal regions, for a route planned only when needed.
    from: u32,
    to: u32,
    /// Whether the abstract route is planned (a query whose start and goal
    /// fit in one window first tries one window search without it).
    routed: bool,
    /// The step order of a free straight octile path from start to goal,
    /// when there is one (the whole answer, written by the first leg).
    straight: Option<StepOrder>,
    /// Whether the route is partial (see [`PlannerConfig::quick_start`]):
    /// it ends short of the goal's region, and the next leg after the first
    /// plans the rest.
    partial: bool,
    /// Whether the query is lazy ([`Planner::start_query`] with
    /// [`PlannerConfig::quick_start`]): its first leg is kept short.
    quick: bool,
}

impl Progress {
    /// A query from `start` to `goal` (regions `from`, `to`) before its
    /// first leg.
    fn new(
        start: Point,
        goal: Point,
        (from, to): (u32, u32),
        routed: bool,
        straight: Option<StepOrder>,
    ) -> Progress {
        Progress {
            goal,
            pos: start,
            at: 0,
            done: false,
            started: false,
            from,
            to,
            routed,
            straight,
            partial: false,
            quick: false,
        }
    }
}

/// Step orders of a straight octile path: `max(dx, dy)` steps, `min(dx,
/// dy)` of them diagonal, all in the direction of the goal. Every such path
/// costs exactly the octile distance, so any one whose cells are free (and
/// whose diagonals cut no corner) is optimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepOrder {
    /// Diagonals spread evenly (the cells closest to the straight line).
    Even,
    /// All diagonals first, then the straight steps.
    DiagonalFirst,
    /// All straight steps first, then the diagonals.
    StraightFirst,
}

/// Walks a straight octile path from `a` to `b` in the given step order,
/// appending each cell after `a` to `out` when given. Returns `false` at the
/// first step that is not a legal move (the cells pushed so far stay).
/// Bit tests on the padded grid only: a few nanoseconds a step, and a
/// blocked path usually fails within its first cells.
fn straight_walk(
    grid: &Grid,
    a: Point,
    b: Point,
    order: StepOrder,
    mut out: Option<&mut Vec<Point>>,
) -> bool {
    let (dx, dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
    let (adx, ady) = (dx.unsigned_abs(), dy.unsigned_abs());
    let (n, d) = (adx.max(ady), adx.min(ady));
    let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
    // The straight step goes along the longer axis.
    let (mx, my) = if adx >= ady { (sx, 0) } else { (0, sy) };
    // `None` only when `a == b` (nothing to walk); when `d == 0` no step
    // is diagonal, whatever `diagonal` holds.
    let (Some(straight), diagonal) = (Dir::from_delta(mx, my), Dir::from_delta(sx, sy)) else {
        return true;
    };
    let mut i = grid.padded_index(a);
    let mut p = a;
    for k in 0..n {
        let diag = match order {
            StepOrder::Even => ((k + 1) * d + n / 2) / n != (k * d + n / 2) / n,
            StepOrder::DiagonalFirst => k < d,
            StepOrder::StraightFirst => k >= n - d,
        };
        let dir = match diagonal {
            Some(dg) if diag => dg,
            _ => straight,
        };
        if !grid.can_step_padded(i, dir) {
            return false;
        }
        i = (i as isize + grid.padded_offset(dir)) as usize;
        let (ddx, ddy) = dir.delta();
        p = Point::new(
            (p.x as i64 + ddx as i64) as u32,
            (p.y as i64 + ddy as i64) as u32,
        );
        if let Some(o) = out.as_deref_mut() {
            o.push(p);
        }
    }
    true
}

/// The first step order whose straight octile path from `a` to `b` is free.
fn straight_order(grid: &Grid, a: Point, b: Point) -> Option<StepOrder> {
    [
        StepOrder::Even,
        StepOrder::DiagonalFirst,
        StepOrder::StraightFirst,
    ]
    .into_iter()
    .find(|&o| straight_walk(grid, a, b, o, None))
}

/// A refined leg, remembered while a full path is planned so that a second
/// route sharing the leg copies its cells instead of searching again: a
/// leg is a pure function of where it starts, its box and its target (the
/// exit run, or the goal on the last leg).
#[derive(Clone, Copy, Debug)]
struct LegMemo {
    from: Point,
    bbox: Rect,
    /// The exit run, `None` for a leg to the goal.
    exit: Option<Run>,
    /// The leg's cells: `leg_cells[cells.0..cells.1]`.
    cells: (u32, u32),
}

/// What the leg searches do with [`LegMemo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Memo {
    /// Neither record nor look up (lazy queries).
    Off,
    /// Record each search (a full path's first route).
    Record,
    /// Look each search up first (the second route).
    Reuse,
}

/// Per-thread query scratch. Reuse one per thread: once warm, a query
/// allocates nothing but the growth of the caller's output `Vec`. Holds
/// 20 bytes per region (abstract search) and per cluster (the quick
/// start's cluster route), one bit per map cell (loop
/// check) and window-sized scratch for the leg searches (about 90 KB for
/// 60×60, growing to about 0.45 MB the first time a quality recheck searches
/// a 160×160 box: see [`PlannerConfig::recheck`]), whatever the map size.
pub struct Planner {
    config: PlannerConfig,
    anodes: Vec<ANode>,
    /// Open list of the abstract search: `f` as `f32` bits (which order
    /// like the values for non-negative floats) above the region id, in one
    /// `u64` (8-byte entries: the abstract heap grows large, and halving
    /// the entry made the abstract search about a third cheaper).
    aheap: BinaryHeap<Reverse<u64>>,
    agen: u32,
    /// Cluster-graph search scratch (quick start), stamped like `anodes`.
    cnodes: Vec<ANode>,
    cgen: u32,
    /// The cluster route of a quick start, start's cluster first.
    corridor: Vec<u32>,
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
    /// The second route's path ([`PlannerConfig::second_route`]).
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
    /// `bmark[t] == bgen`: block-cut tree node `t` is marked for the path
    /// of `marked` (see [`crate::blocks`]); the abstract searches skip
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
    /// One bit per map cell, all clear between queries (loop detection).
    seen: Vec<u64>,
    progress: Option<Progress>,
    stats: PlanStats,
    /// Scratch of the exact portal layer's queries.
    portal: PortalSearch,
}

impl Default for Planner {
    fn default() -> Self {
        Planner::new()
    }
}

/// Steps cost of a cell path.
fn path_cost(cells: &[Point]) -> f64 {
    let mut straight = 0u64;
    let mut diagonal = 0u64;
    for w in cells.windows(2) {
        if w[0].x != w[1].x && w[0].y != w[1].y {
            diagonal += 1;
        } else {
            straight += 1;
        }
    }
    straight as f64 + diagonal as f64 * SQRT2
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

impl Planner {
    /// A planner with the default configuration.
    pub fn new() -> Planner {
        Planner::with_config(PlannerConfig::default())
    }

    /// A planner with the given configuration.
    pub fn with_config(config: PlannerConfig) -> Planner {
        let window = config.window.max(3);
        Planner {
            config: PlannerConfig {
                window,
                reach: config.reach.clamp(1, window),
                join_radius: config.join_radius,
                recheck: config.recheck,
                recheck_window: config.recheck_window.max(window),
                recheck_budget: config.recheck_budget,
                straight: config.straight,
                quick_start: config.quick_start,
                second_route: config.second_route,
            },
            anodes: Vec::new(),
            aheap: BinaryHeap::new(),
            agen: 0,
            cnodes: Vec::new(),
            cgen: 0,
            corridor: Vec::new(),
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
            bmark: Vec::new(),
            bgen: 0,
            marked: None,
            restrict: false,
            unique_route: false,
            only_crossings: false,
            lab: Labeler::default(),
            seen: Vec::new(),
            progress: None,
            stats: PlanStats::default(),
            portal: PortalSearch::default(),
        }
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
    pub fn route(&self) -> &[u32] {
        &self.route
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
    ) -> Result<PlanStats, PathError> {
        out.clear();
        if self.begin(h, grid, start, goal, false, true)? {
            if let Some(layer) = &h.portals {
                if let Some(found) = self.portal.find(layer, grid, start, goal, out) {
                    self.stats.exact = true;
                    self.stats.expanded = found.expanded;
                    self.stats.cost = path_cost(out);
                    return Ok(self.stats);
                }
            }
            // Never expected (the matrix said the goal is reachable): the
            // region planner answers instead.
            out.clear();
            self.begin(h, grid, start, goal, false, false)?;
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
            if !self.stats.exact {
                self.recheck(h, grid, out);
            }
            self.second_route(h, grid, out);
        }
        self.stats.cost = path_cost(out);
        Ok(self.stats)
    }

    /// Refines every remaining leg into `out`, each after the first
    /// starting back along the path ([`PlannerConfig::join_radius`]).
    fn refine_all(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) -> Result<(), PathError> {
        while self.leg_into(h, grid, out, true)? {}
        Ok(())
    }

    /// Starts a query for lazy refinement: checks the input, answers
    /// reachability from the matrix and plans the abstract route. Then call
    /// [`Planner::next_leg`] to refine leg by leg (the first leg is ready
    /// after one window search: an immediate start for the unit).
    ///
    /// With [`PlannerConfig::quick_start`] (the default), a long route is
    /// planned only as far as the first leg needs; the rest is planned when
    /// the second leg is asked for.
    pub fn start_query(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<(), PathError> {
        let quick = self.config.quick_start;
        self.begin(h, grid, start, goal, quick, false)?;
        Ok(())
    }

    /// [`Planner::start_query`], with a partial route when `quick`. With
    /// `exact`, stops before planning any route and returns `true` when the
    /// hierarchy's portal layer should answer (a full query that is not a
    /// straight line, on a map with the layer).
    fn begin(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        quick: bool,
        exact: bool,
    ) -> Result<bool, PathError> {
        self.progress = None;
        self.stats = PlanStats::default();
        self.marked = None;
        self.route.clear();
        self.cross.clear();
        if grid.width() != h.width() || grid.height() != h.height() {
            return Err(PathError::GridMismatch {
                grid_width: grid.width(),
                grid_height: grid.height(),
                width: h.width(),
                height: h.height(),
            });
        }
        if !grid.in_bounds(start) {
            return Err(PathError::StartOutOfBounds(start));
        }
        if !grid.in_bounds(goal) {
            return Err(PathError::GoalOutOfBounds(goal));
        }
        if !grid.is_passable(start) {
            return Err(PathError::StartBlocked(start));
        }
        if !grid.is_passable(goal) {
            return Err(PathError::GoalBlocked(goal));
        }
        // A free straight octile path is optimal: no region lookup, no
        // matrix check, no search (open ground, short hops, units in sight
        // of their goal).
        let straight = if self.config.straight {
            straight_order(grid, start, goal)
        } else {
            None
        };
        if let Some(order) = straight {
            self.stats.straight = true;
            let regions = (u32::MAX, u32::MAX);
            self.progress = Some(Progress::new(start, goal, regions, false, Some(order)));
            return Ok(false);
        }
        let stale = || PathError::Stale("a cell's sector has no matching region".into());
        let rs = h
            .region_of_with(grid, start, &mut self.lab)
            .ok_or_else(stale)?;
        let rg = h
            .region_of_with(grid, goal, &mut self.lab)
            .ok_or_else(stale)?;
        if (rs as usize) >= h.regions.len() || (rg as usize) >= h.regions.len() {
            return Err(stale());
        }
        if !h.regions_connected(rs, rg) {
            return Err(PathError::Unreachable { start, goal });
        }
        if exact && h.portals.is_some() {
            return Ok(true);
        }
        // Start and goal in different regions but within one window (with
        // a cell to spare each side): the first leg tries one unrestricted
        // window search, usually the optimal path outright (a region route
        // might go round an obstacle on the wrong side), so the abstract
        // route waits until that search fails.
        let direct = rs != rg && cheb(start, goal) <= self.config.window.saturating_sub(2);
        let mut partial = false;
        if !direct {
            match quick
                .then(|| self.plan_partial(h, rs, rg, start, goal))
                .flatten()
            {
                Some(p) => partial = p,
                None => self.plan_route(h, rs, rg, start, goal)?,
            }
        }
        let mut pr = Progress::new(start, goal, (rs, rg), !direct, None);
        pr.partial = partial;
        pr.quick = quick;
        self.stats.quick_start = partial;
        self.progress = Some(pr);
        Ok(false)
    }

    /// The quick start's partial route (see [`PlannerConfig::quick_start`]):
    /// a cluster route from the start's cluster to the goal's, then regions
    /// within its first three clusters up to the first region of the third
    /// (or the goal's region). Returns whether `self.route` now holds a
    /// route that ends short of the goal's region (`Some(false)`: the whole
    /// route); `None` leaves the route empty for a full plan (same cluster,
    /// or a search failed).
    fn plan_partial(
        &mut self,
        h: &Hierarchy,
        rs: u32,
        rg: u32,
        start: Point,
        goal: Point,
    ) -> Option<bool> {
        let conn = &h.connectivity;
        let (Some(&cs), Some(&cg)) = (
            conn.cluster_of_region.get(rs as usize),
            conn.cluster_of_region.get(rg as usize),
        ) else {
            return None;
        };
        if cs == cg || !self.cluster_route(h, cs, cg) {
            return None;
        }
        let t = self.corridor.len().min(QUICK_CLUSTERS) - 1;
        let allowed = [self.corridor[0], self.corridor[1.min(t)], self.corridor[t]];
        self.route.clear();
        self.cross.clear();
        if !self.abstract_route(
            h,
            (rs, rg),
            start,
            goal,
            Some(allowed),
            RouteCosts::Representatives,
        ) {
            self.route.clear();
            self.cross.clear();
            return None;
        }
        self.stats.route_len = self.route.len() as u32;
        // Reached the goal's region: the route is complete after all.
        Some(self.route.last() != Some(&rg))
    }

    /// A* over the cluster graph from cluster `from` to `to`, edges and
    /// heuristic the octile distance between cluster centres; fills
    /// `self.corridor`.
    fn cluster_route(&mut self, h: &Hierarchy, from: u32, to: u32) -> bool {
        let conn = &h.connectivity;
        let n = conn.centre.len();
        if (from as usize) >= n || (to as usize) >= n {
            return false;
        }
        let gen = next_generation(&mut self.cnodes, &mut self.cgen, n);
        let target = conn.centre[to as usize];
        let hf = |c: u32| octile(conn.centre[c as usize], target) as f32;
        self.aheap.clear();
        self.cnodes[from as usize] = ANode {
            g: 0.0,
            stamp: gen,
            ..ANode::BLANK
        };
        self.aheap.push(heap_key(hf(from), from));
        let mut found = false;
        while let Some(Reverse(entry)) = self.aheap.pop() {
            let id = entry as u32;
            let node = &mut self.cnodes[id as usize];
            if node.closed {
                continue;
            }
            node.closed = true;
            let g = node.g;
            self.stats.cluster_expanded += 1;
            if id == to {
                found = true;
                break;
            }
            let here = conn.centre[id as usize];
            for &other in conn.cluster_neighbours(id) {
                let o = &mut self.cnodes[other as usize];
                if o.stamp != gen {
                    *o = ANode {
                        stamp: gen,
                        ..ANode::BLANK
                    };
                }
                let ng = g + octile(here, conn.centre[other as usize]) as f32;
                if ng < o.g && !o.closed {
                    o.g = ng;
                    o.parent = id;
                    self.aheap.push(heap_key(ng + hf(other), other));
                }
            }
        }
        self.corridor.clear();
        if !found {
            return false;
        }
        let mut c = to;
        while c != u32::MAX {
            self.corridor.push(c);
            c = self.cnodes[c as usize].parent;
        }
        self.corridor.reverse();
        self.corridor.first() == Some(&from)
    }

    fn plan_route(
        &mut self,
        h: &Hierarchy,
        rs: u32,
        rg: u32,
        start: Point,
        goal: Point,
    ) -> Result<(), PathError> {
        if !self.abstract_route(h, (rs, rg), start, goal, None, RouteCosts::Representatives) {
            return Err(PathError::Stale(
                "the connectivity matrix and the region graph disagree".into(),
            ));
        }
        self.stats.route_len = self.route.len() as u32;
        Ok(())
    }

    /// Marks the blocks on the block-cut tree path from region `from` to
    /// `to` (once per query and pair); returns whether the marks hold.
    fn mark_blocks(&mut self, h: &Hierarchy, from: u32, to: u32) -> bool {
        if self.marked == Some((from, to)) {
            return self.restrict;
        }
        let count = h.blocks.nodes();
        if self.bmark.len() != count {
            self.bmark.clear();
            self.bmark.resize(count, 0);
        }
        self.bgen = self.bgen.wrapping_add(1);
        if self.bgen == 0 {
            self.bmark.fill(0);
            self.bgen = 1;
        }
        let path = h.blocks.mark_path(from, to, &mut self.bmark, self.bgen);
        self.marked = Some((from, to));
        self.restrict = path.is_some();
        self.unique_route = path == Some(true);
        self.restrict
    }

    /// A* over the region graph from `from` to `to`, priced by `costs`;
    /// fills `self.route` and `self.cross`. With `corridor`, only regions of
    /// those clusters are searched and the search also ends at the first
    /// region of the last of them. Only edges of the blocks on the
    /// block-cut tree path between the two are followed: every route uses
    /// those and no others (see [`crate::blocks`]).
    fn abstract_route(
        &mut self,
        h: &Hierarchy,
        (from, to): (u32, u32),
        start: Point,
        goal: Point,
        corridor: Option<[u32; 3]>,
        costs: RouteCosts,
    ) -> bool {
        let crossings = costs == RouteCosts::Crossings;
        let restrict = self.mark_blocks(h, from, to);
        let cluster_of = &h.connectivity.cluster_of_region;
        let in_corridor = |r: u32| match corridor {
            None => true,
            Some(c) => cluster_of
                .get(r as usize)
                .is_some_and(|x| *x == c[0] || *x == c[1] || *x == c[2]),
        };
        let at_end = |r: u32| match corridor {
            None => false,
            Some(c) => cluster_of.get(r as usize) == Some(&c[2]),
        };
        let gen = next_generation(&mut self.anodes, &mut self.agen, h.regions.len());
        self.aheap.clear();
        // Straight-line distance from the representative, raised by the
        // landmark bound where walls make the way longer.
        // (all rows, every 8th: abstract expansions 2-5x fewer, abstract
        // time per query 25 -> 12 us, median first leg 12.6 -> 8.6 us).
        let goal_row = h.landmarks.row(to);
        let hf = |r: u32| {
            let o = octile(h.regions[r as usize].representative(), goal) as f32;
            o.max(h.landmarks.bound_to(r, goal_row))
        };
        self.anodes[from as usize] = ANode {
            g: 0.0,
            stamp: gen,
            ..ANode::BLANK
        };
        self.aheap.push(heap_key(ABSTRACT_WEIGHT * hf(from), from));
        let aw = if crossings {
            CROSSING_WEIGHT
        } else {
            ABSTRACT_WEIGHT
        };
        let mut found = None;
        while let Some(Reverse(entry)) = self.aheap.pop() {
            let id = entry as u32;
            let node = &mut self.anodes[id as usize];
            if node.closed {
                continue;
            }
            node.closed = true;
            let g = node.g;
            self.stats.abstract_expanded += 1;
            if self.abstract_budget == 0 {
                break;
            }
            self.abstract_budget -= 1;
            if id == to || at_end(id) {
                found = Some(id);
                break;
            }
            // Where the route enters this region (crossing costs only).
            let here = if id == from || !crossings {
                start
            } else {
                self.anodes[id as usize].at
            };
            let targets = h.graph.neighbors_slice(id);
            let links = h.graph.edges_slice(id);
            for (k, (&other, link)) in targets.iter().zip(links).enumerate() {
                if !in_corridor(other) {
                    continue;
                }
                let (ng, q) = if crossings {
                    let q = best_point(link.crossing().1, here, goal);
                    let mut ng = g + euclid(here, q);
                    if other == to {
                        // The goal's region is priced to the goal itself.
                        ng += euclid(q, goal);
                    }
                    (ng, q)
                } else {
                    (g + link.cost(), start)
                };
                let o = &mut self.anodes[other as usize];
                if o.stamp != gen {
                    // Checked on first touch only: an edge between two
                    // regions of marked blocks is itself in a marked block.
                    if restrict && !h.blocks.allowed(other, &self.bmark, self.bgen) {
                        continue;
                    }
                    *o = ANode {
                        stamp: gen,
                        ..ANode::BLANK
                    };
                }
                if ng < o.g && !o.closed {
                    o.g = ng;
                    o.parent = id;
                    o.via = k as u32;
                    o.at = q;
                    // The landmark bound once per region and search.
                    if o.lm < 0.0 {
                        o.lm = h.landmarks.bound_to(other, goal_row);
                    }
                    let hh = if !crossings {
                        let rep = h.regions[other as usize].representative();
                        (octile(rep, goal) as f32).max(o.lm)
                    } else if other == to {
                        0.0
                    } else {
                        euclid(q, goal).max(CROSSING_LANDMARK_FACTOR * o.lm)
                    };
                    let f = ng + aw * hh;
                    self.aheap.push(heap_key(f, other));
                }
            }
        }
        let Some(mut r) = found else {
            return false;
        };
        self.only_crossings = true;
        loop {
            self.route.push(r);
            if r == from {
                let here = Run {
                    start,
                    len: 1,
                    vertical: false,
                };
                self.cross.push((here, here));
                break;
            }
            let node = self.anodes[r as usize];
            // The link from the parent into r, oriented from the parent.
            let Some(link) = h.graph.edges_slice(node.parent).get(node.via as usize) else {
                return false;
            };
            self.cross.push(link.crossing());
            self.only_crossings &= link.is_only_crossing();
            r = node.parent;
        }
        self.route.reverse();
        self.cross.reverse();
        true
    }

    /// Refines the next leg of the query begun with
    /// [`Planner::start_query`], appending its cells to `out` (the first leg
    /// includes the start cell; later legs continue from the last cell).
    /// Returns `Ok(true)` while legs remain, `Ok(false)` after the last.
    ///
    /// A leg covers the longest stretch of the route, from the region of
    /// the current position to some region `j`, whose sectors fit together
    /// in one `window × window` box (two sectors a side when sectors are
    /// larger than half the window). It runs jump point search
    /// ([`WindowedJps`]) inside that box to the nearest cell where the route
    /// leaves region `j` (or to the goal on the last leg). The box holds the
    /// route's chain of regions, so the search always succeeds; it may also
    /// cut through sectors off the route where that is shorter.
    pub fn next_leg(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
    ) -> Result<bool, PathError> {
        self.leg_into(h, grid, out, false)
    }

    /// [`Planner::next_leg`]; with `backup` (a full query, whose cells are
    /// not handed out leg by leg) a leg after the first starts back along
    /// the previous one ([`PlannerConfig::join_radius`]).
    fn leg_into(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
        backup: bool,
    ) -> Result<bool, PathError> {
        let Some(mut pr) = self.progress else {
            return Err(PathError::NoQuery);
        };
        if pr.done {
            return Ok(false);
        }
        let first = !pr.started;
        if first {
            out.push(pr.pos);
            pr.started = true;
        }
        if pr.pos == pr.goal {
            pr.done = true;
            self.progress = Some(pr);
            return Ok(false);
        }
        if let Some(order) = pr.straight {
            let ok = straight_walk(grid, pr.pos, pr.goal, order, Some(out));
            if !ok {
                return Err(PathError::Stale("the grid changed during the query".into()));
            }
            self.stats.legs += 1;
            pr.pos = pr.goal;
            pr.done = true;
            self.progress = Some(pr);
            return Ok(false);
        }
        if !pr.routed {
            // A short query (see `start_query`): one window search, and the
            // abstract route only if the window holds no path.
            let size = self.config.window;
            let win = Window::around(grid, pr.pos, pr.goal, size, size);
            let s = self
                .jps
                .find_path_into(grid, win, pr.pos, pr.goal, &mut self.leg)?;
            self.stats.expanded += s.expanded;
            if s.status == Status::Found {
                self.append_leg(out);
                pr.pos = pr.goal;
                pr.done = true;
                self.progress = Some(pr);
                return Ok(false);
            }
            let start = pr.pos;
            self.plan_route(h, pr.from, pr.to, start, pr.goal)?;
            pr.routed = true;
            self.progress = Some(pr);
        }
        if pr.partial && !first {
            // The quick first leg is done: plan the rest of the route from
            // the region it ended in.
            let from = self.route[pr.at];
            self.route.clear();
            self.cross.clear();
            self.plan_route(h, from, pr.to, pr.pos, pr.goal)?;
            pr.at = 0;
            pr.partial = false;
            self.progress = Some(pr);
        }
        let last = self.route.len() - 1;
        if backup && first && !pr.partial && self.doorways_only() {
            self.refine_regions(h, grid, out, &mut pr)?;
            self.progress = Some(pr);
            return Ok(false);
        }
        // A lazy query's first leg covers half a window a side: the unit
        // starts at a quarter of the search cost, and the next leg (asked
        // for while it walks) continues from there.
        let mut j = self.leg_end(h, pr.at, first && pr.quick);
        if j == pr.at && j < last && self.cross[j + 1].0.contains(pr.pos) {
            // Already at the region's exit: a real step instead of none.
            j = self.leg_end(h, pr.at, false);
        }
        if pr.partial && j == last {
            // A partial route ends short of the goal: stop where it leaves
            // its second-to-last region (`last >= 1`, `at == 0`).
            j = last - 1;
        }
        let mut bbox = self.leg_box(h, pr.at, j);
        if backup && !first && out.len() >= 2 {
            // A full query: start the leg up to `join_radius` cells back
            // along the previous one, as far as the box stays within the
            // window size (the leg budget), and drop those cells from
            // `out`. The leg's own search then straightens the join: its
            // path from there to the exit is optimal within the window,
            // where a separate re-search around each join cost a window
            // load and search of its own (every 8th row of the 34 Moving
            // AI files: instructions -9 % (geometric mean), maze512-8
            // -26 %, random512-10 +15 %; mean suboptimality lower on every
            // file, e.g. TheFrozenSea 0.71 -> 0.10 %).
            let size = self.config.window;
            let r = self.config.join_radius as usize;
            let n = out.len();
            let mut k = 0;
            let mut bb = bbox;
            while k < r && k + 2 <= n {
                let c = out[n - 2 - k];
                let u = bb.union(&Rect {
                    x0: c.x,
                    y0: c.y,
                    x1: c.x + 1,
                    y1: c.y + 1,
                });
                if u.width() > size || u.height() > size {
                    break;
                }
                bb = u;
                k += 1;
            }
            if k > 0 {
                out.truncate(n - k);
                pr.pos = out[n - k - 1];
                bbox = bb;
            }
        }
        let win = window_of(bbox);
        // No corridor: the leg may use the whole window. With windowed A*
        // the legs were confined to the route's sectors to keep the search
        // out of dead ends; jump point search crosses dead ends cheaply, and
        // the freedom lets a leg pick better doorways than the region route
        // (all rows, every 8th: mean suboptimality 0.99% -> 0.64%, p95
        // 4.96% -> 3.61%, 8room_000 7.7% -> 5.1%, at the same speed).
        let words = win.area().div_ceil(64);
        let mut s = SearchStats {
            status: Status::NoPath,
            cost: 0.0,
            expanded: 0,
        };
        let exit = (j < last).then(|| self.cross[j + 1].0);
        let memo = LegMemo {
            from: pr.pos,
            bbox,
            exit,
            cells: (0, 0),
        };
        let known = match self.memo {
            Memo::Reuse => self
                .legs_done
                .iter()
                .find(|m| m.from == memo.from && m.bbox == memo.bbox && m.exit == memo.exit),
            _ => None,
        };
        if let Some(m) = known {
            // The same leg as one of the first route's: the same cells.
            self.stats.legs_reused += 1;
            self.leg.clear();
            self.leg
                .extend_from_slice(&self.leg_cells[m.cells.0 as usize..m.cells.1 as usize]);
            s.status = Status::Found;
        } else if j == last {
            for fallback in [false, true] {
                s = if fallback {
                    self.window
                        .find_path_into(grid, win, pr.pos, pr.goal, &mut self.leg)?
                } else {
                    self.jps
                        .find_path_into(grid, win, pr.pos, pr.goal, &mut self.leg)?
                };
                self.stats.expanded += s.expanded;
                if s.status == Status::Found {
                    break;
                }
                self.stats.fallbacks += !fallback as u32;
            }
        } else {
            let exit = self.cross[j + 1].0;
            // Cross into region j + 1 wherever along the shared border the
            // search reaches first: the heuristic is the octile distance to
            // the nearest cell of the border run, so the crossing follows
            // the path's own direction instead of a fixed point.
            let (lo, hi) = if exit.vertical {
                (exit.start.y, exit.start.y + exit.len - 1)
            } else {
                (exit.start.x, exit.start.x + exit.len - 1)
            };
            let heuristic = |p: Point| {
                let q = if exit.vertical {
                    Point::new(exit.start.x, p.y.clamp(lo, hi))
                } else {
                    Point::new(p.x.clamp(lo, hi), exit.start.y)
                };
                octile_cost(p, q)
            };
            self.goal_bits.clear();
            self.goal_bits.resize(words, 0);
            for k in 0..exit.len {
                let c = if exit.vertical {
                    Point::new(exit.start.x, exit.start.y + k)
                } else {
                    Point::new(exit.start.x + k, exit.start.y)
                };
                if win.contains(c) {
                    let i = ((c.y - win.y) * win.width + (c.x - win.x)) as usize;
                    self.goal_bits[i >> 6] |= 1 << (i & 63);
                }
            }
            for fallback in [false, true] {
                s = if fallback {
                    self.window.find_path_to_any_into(
                        grid,
                        win,
                        pr.pos,
                        |p| exit.contains(p),
                        heuristic,
                        None,
                        &mut self.leg,
                    )?
                } else {
                    self.jps.find_path_to_any_into(
                        grid,
                        win,
                        pr.pos,
                        &self.goal_bits,
                        heuristic,
                        None,
                        &mut self.leg,
                    )?
                };
                self.stats.expanded += s.expanded;
                if s.status == Status::Found {
                    break;
                }
                self.stats.fallbacks += !fallback as u32;
            }
        }
        if s.status != Status::Found {
            return Err(PathError::Stale(format!(
                "route regions {}..={} are not connected",
                self.route[pr.at], self.route[j]
            )));
        }
        if self.memo == Memo::Record {
            // A copy: a later leg may start back inside this one and cut
            // its end off `out`.
            let at = self.leg_cells.len() as u32;
            self.leg_cells.extend_from_slice(&self.leg);
            self.legs_done.push(LegMemo {
                cells: (at, self.leg_cells.len() as u32),
                ..memo
            });
        }
        let target = *self.leg.last().unwrap_or(&pr.pos);
        self.append_leg(out);
        pr.pos = target;
        pr.at = j;
        pr.done = target == pr.goal;
        self.progress = Some(pr);
        Ok(!pr.done)
    }

    /// Whether the route is the only one (every block on the block-cut
    /// tree path is a bridge) and crosses each border through a single
    /// pair of cells, the only place where those two regions touch. Every
    /// path from start to goal then steps through exactly those pairs in
    /// order, so it can be refined one region at a time
    /// ([`Planner::refine_regions`]).
    fn doorways_only(&self) -> bool {
        self.restrict
            && self.unique_route
            && self.only_crossings
            && self.route.len() >= 2
            && self.cross[1..].iter().all(|c| c.0.len == 1)
    }

    /// Refines a [`Planner::doorways_only`] route region by region: in each
    /// route region, a search confined to the region's bounding box (which
    /// it cannot leave but through the region's own cells: a region is a
    /// connected piece of its sector) from the cell where the route enters
    /// it to the cell where it leaves, then the step across the border.
    /// Searches see only their region's cells instead of a window of up to
    /// four sectors with its dead ends. The path has no repeated cell (so
    /// no loop removal), and when no route region lies on a cycle
    /// ([`crate::blocks::Blocks::tree_like`]) it is optimal (so no
    /// recheck). maze512-1 (every 4th row, all optimal before and after):
    /// 269 µs per query with the window legs, 120 region by region, 113
    /// without the loop removal, 91 without the recheck.
    fn refine_regions(
        &mut self,
        h: &Hierarchy,
        grid: &Grid,
        out: &mut Vec<Point>,
        pr: &mut Progress,
    ) -> Result<(), PathError> {
        let last = self.route.len() - 1;
        self.stats.by_region = true;
        // Exact when no route region lies on a cycle: then a shortest path
        // between its entry and exit stays inside it.
        self.stats.exact = self.route.iter().all(|&r| h.blocks.tree_like(r));
        let mut from = pr.pos;
        for m in pr.at..=last {
            if m > pr.at {
                from = self.cross[m].1.start;
                out.push(from);
            }
            let to = if m == last {
                pr.goal
            } else {
                self.cross[m + 1].0.start
            };
            if from == to {
                continue;
            }
            let r = &h.regions[self.route[m] as usize];
            let (lo, hi) = (r.min(), r.max());
            let win = Window {
                x: lo.x,
                y: lo.y,
                width: hi.x - lo.x + 1,
                height: hi.y - lo.y + 1,
            };
            let s = self
                .jps
                .find_path_into(grid, win, from, to, &mut self.leg)?;
            self.stats.expanded += s.expanded;
            if s.status != Status::Found {
                return Err(PathError::Stale(format!(
                    "region {} does not connect {from} to {to}",
                    self.route[m]
                )));
            }
            self.append_leg(out);
        }
        pr.pos = pr.goal;
        pr.at = last;
        pr.done = true;
        Ok(())
    }

    /// The last route index a leg from route index `at` covers: the longest
    /// stretch whose sectors fit in one window (at least one step).
    ///
    /// The box may grow to two sectors a side when sectors are larger than
    /// half the window (sector 32, chosen only to fit a region-dense map in
    /// its memory budget): with a 60-cell box each leg would cover just two
    /// sectors in a line, and on maze512-1 a 64×64 box cut the query's
    /// instructions by 39% (78 legs and 77 joins per query before).
    ///
    /// `short` (a lazy query's first leg): a box of about half a window a
    /// side (32 cells for the default 60), which may hold the first region's
    /// sector alone: the leg then ends where the route leaves that region.
    fn leg_end(&self, h: &Hierarchy, at: usize, short: bool) -> usize {
        let last = self.route.len() - 1;
        let size = if short {
            self.config.window / 2 + 2
        } else {
            self.config.window.max(2 * h.sector_size())
        };
        let sector = |m: usize| h.sector_rect(h.regions[self.route[m] as usize].sector());
        let mut bbox = sector(at);
        let mut j = at;
        for k in at + 1..=last {
            let b = bbox.union(&sector(k));
            if b.width() > size || b.height() > size {
                break;
            }
            bbox = b;
            j = k;
        }
        if j == at && j < last && !short {
            // Sectors wider than half a window: take one step regardless.
            j += 1;
        }
        j
    }

    /// Bounding box of the sectors of route regions `at..=j`.
    fn leg_box(&self, h: &Hierarchy, at: usize, j: usize) -> Rect {
        let sector = |m: usize| h.sector_rect(h.regions[self.route[m] as usize].sector());
        let mut bbox = sector(at);
        for m in at + 1..=j {
            bbox = bbox.union(&sector(m));
        }
        bbox
    }

    fn append_leg(&mut self, out: &mut Vec<Point>) {
        out.extend_from_slice(&self.leg[1..]);
        self.stats.legs += 1;
    }

    /// [`PlannerConfig::second_route`]: when `out` still costs more than
    /// the recheck factor times the estimate, plans the route again with
    /// [`RouteCosts::Crossings`], refines and stitches it like the first,
    /// and keeps the shorter path.
    fn second_route(&mut self, h: &Hierarchy, grid: &Grid, out: &mut Vec<Point>) {
        let Some(pr) = self.progress else {
            return;
        };
        let (Some(&start), Some(&goal)) = (out.first(), out.last()) else {
            return;
        };
        if !self.config.second_route || !pr.routed || self.route.len() < 3 {
            return;
        }
        // A path within the recheck factor of the straight-line (octile)
        // distance cannot gain enough to pay for another route.
        let old = path_cost(out);
        if old <= self.config.recheck.max(1.0) as f64 * octile(start, goal) {
            return;
        }
        let (from, to) = (pr.from, pr.to);
        // Only one route: the crossing search would find it again.
        if self.mark_blocks(h, from, to) && self.unique_route {
            return;
        }
        let first_cost = crossing_cost(&self.cross, start, goal);
        self.first_route.clear();
        self.first_route.extend_from_slice(&self.route);
        self.route.clear();
        self.cross.clear();
        self.abstract_budget = self
            .stats
            .abstract_expanded
            .max(64)
            .saturating_mul(SECOND_ROUTE_BUDGET);
        let found = self.abstract_route(h, (from, to), start, goal, None, RouteCosts::Crossings);
        self.abstract_budget = u32::MAX;
        if !found
            || self.route == self.first_route
            || crossing_cost(&self.cross, start, goal) > (1.0 - SECOND_ROUTE_GAIN) * first_cost
        {
            std::mem::swap(&mut self.route, &mut self.first_route);
            return;
        }
        self.stats.second_route = true;
        self.progress = Some(Progress::new(start, goal, (from, to), true, None));
        let mut alt = std::mem::take(&mut self.alt);
        alt.clear();
        // An error here would mean the hierarchy is stale, which the first
        // route's legs would have reported: keep the first path then.
        // Legs the first route already searched are copied.
        self.memo = Memo::Reuse;
        let ok = self.refine_all(h, grid, &mut alt).is_ok();
        self.memo = Memo::Off;
        let mut improved = false;
        if ok {
            self.remove_loops(grid, &mut alt);
            improved = path_cost(&alt) < old - 1e-9;
        }
        if improved {
            self.stats.second_improved = true;
            std::mem::swap(out, &mut alt);
        } else {
            std::mem::swap(&mut self.route, &mut self.first_route);
        }
        self.alt = alt;
    }

    /// The quality check (see [`PlannerConfig::recheck`]).
    fn recheck(&mut self, h: &Hierarchy, grid: &Grid, out: &mut Vec<Point>) {
        let Some(pr) = self.progress else { return };
        let (Some(&start), Some(&goal)) = (out.first(), out.last()) else {
            return;
        };
        if self.config.recheck <= 0.0 || !pr.routed || out.len() < 3 {
            return;
        }
        // Without landmarks the only estimate is the octile distance, which
        // on the maze-like maps that drop them is far below every path:
        // the check would fire on every query and gain nothing.
        if h.landmarks.count() == 0 {
            return;
        }
        let old = path_cost(out);
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
    fn lower_estimate(&self, h: &Hierarchy, start: Point, goal: Point, from: u32, to: u32) -> f64 {
        let direct = octile(start, goal);
        let lm = h.landmarks.bound_to(from, h.landmarks.row(to)) as f64;
        let slack = octile(start, h.regions[from as usize].representative())
            + octile(goal, h.regions[to as usize].representative());
        direct.max(lm - slack)
    }

    /// Cuts any loop (a cell visited twice) out of the stitched path: in one
    /// pass, each cell met again cuts the path back to its earlier visit
    /// (loop erasure in path order). O(path), no sort, no allocation; the
    /// per-cell bitset is left clear for the next query.
    fn remove_loops(&mut self, grid: &Grid, out: &mut Vec<Point>) {
        let words = (grid.cell_count() as usize).div_ceil(64);
        if self.seen.len() != words {
            self.seen.clear();
            self.seen.resize(words, 0);
        }
        let w = grid.width() as usize;
        let index = |p: Point| {
            let i = p.y as usize * w + p.x as usize;
            (i >> 6, 1u64 << (i & 63))
        };
        // `out[..kept]` is the loop-free path so far; its cells are marked.
        let mut kept = 0;
        for r in 0..out.len() {
            let p = out[r];
            let (word, bit) = index(p);
            if self.seen[word] & bit != 0 {
                // Back to the earlier visit of p (still kept: every kept
                // cell is marked and every marked cell is kept).
                while kept > 0 && out[kept - 1] != p {
                    let (wd, b) = index(out[kept - 1]);
                    self.seen[wd] &= !b;
                    kept -= 1;
                }
            } else {
                self.seen[word] |= bit;
                out[kept] = p;
                kept += 1;
            }
        }
        for p in &out[..kept] {
            let (word, bit) = index(*p);
            self.seen[word] &= !bit;
        }
        out.truncate(kept);
    }
}

fn window_of(r: Rect) -> Window {
    Window {
        x: r.x0,
        y: r.y0,
        width: r.width(),
        height: r.height(),
    }
}

impl Hierarchy {
    /// Answers many queries in parallel with rayon, one [`Planner`] per
    /// worker thread. Each result is the cell path and its cost.
    pub fn find_paths_par(
        &self,
        grid: &Grid,
        queries: &[(Point, Point)],
    ) -> Vec<Result<(Vec<Point>, f64), PathError>> {
        queries
            .par_iter()
            .map_init(Planner::new, |planner, &(s, g)| {
                let mut out = Vec::new();
                planner
                    .find_path_into(self, grid, s, g, &mut out)
                    .map(|st| (out, st.cost))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut planner = Planner::new();
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
        planner.start_query(&h, &grid, s, g).unwrap();
        path.clear();
        assert!(!planner.next_leg(&h, &grid, &mut path).unwrap());
        assert_eq!(path, vec![s, Point::new(1, 2), g]);
        assert!(planner.stats().straight);
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
        let mut planner = Planner::new();
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
        assert!(planner.route().is_empty());
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
        let mut planner = Planner::new();
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
