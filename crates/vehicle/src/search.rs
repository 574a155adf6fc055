//! [`DirectionalSearch`]: A* over (cell, heading) nodes whose children are
//! reached by the [`Steering`] primitives.

use crate::cells::centreline_cells;
use crate::dubins::{length_lower_bound, shortest, turn_lower_bound, Maneuver, Pose};
use crate::nodes::Nodes;
use crate::pieces::{maneuver_clear, maneuver_conditioned, push_maneuver, Track};
use crate::steering::{Steering, MAX_EXTENT, PACK};
use crate::VehicleError;
use regionpath_grid::{Grid, Point, ProfileGrid};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::f64::consts::PI;
use std::sync::Arc;

/// A rectangle of cells: columns `x..x + width`, rows `y..y + height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// First column.
    pub x: u32,
    /// First row.
    pub y: u32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Area {
    /// The whole grid.
    pub fn of_grid(grid: &Grid) -> Area {
        Area {
            x: 0,
            y: 0,
            width: grid.width(),
            height: grid.height(),
        }
    }

    /// The cells within `margin` of the box spanned by the points
    /// `(x, y)` (cell coordinates, floored), clipped to the grid.
    pub fn around(grid: &Grid, points: impl IntoIterator<Item = (f64, f64)>, margin: u32) -> Area {
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for (x, y) in points {
            let (cx, cy) = (x.floor() as i64, y.floor() as i64);
            x0 = x0.min(cx);
            y0 = y0.min(cy);
            x1 = x1.max(cx);
            y1 = y1.max(cy);
        }
        if x0 > x1 {
            return Area {
                x: 0,
                y: 0,
                width: 0,
                height: 0,
            };
        }
        let m = margin as i64;
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let (ax0, ay0) = ((x0 - m).clamp(0, w), (y0 - m).clamp(0, h));
        let (ax1, ay1) = ((x1 + m + 1).clamp(0, w), (y1 + m + 1).clamp(0, h));
        Area {
            x: ax0 as u32,
            y: ay0 as u32,
            width: (ax1 - ax0) as u32,
            height: (ay1 - ay0) as u32,
        }
    }

    fn contains(&self, x: i64, y: i64) -> bool {
        x >= self.x as i64
            && y >= self.y as i64
            && x < self.x as i64 + self.width as i64
            && y < self.y as i64 + self.height as i64
    }
}

/// Where a search starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Start {
    /// The centre of a cell, facing any of the headings (each free of
    /// charge).
    Cell(Point),
    /// An exact pose anywhere (not necessarily a cell centre or one of
    /// the headings): its first curve is computed and checked exactly.
    Pose(Pose),
}

/// Where a search ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Goal {
    /// The centre of a cell, arriving with any of the headings.
    Cell(Point),
    /// An exact pose: the last curve, from a node within the
    /// neighbourhood's reach, is computed and checked exactly, so the curve
    /// ends at this position with exactly this heading.
    Pose(Pose),
}

/// Bounds of one search (default: the whole grid, no budget, weight 1).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Limits {
    /// Nodes are confined to this rectangle (cells outside count as
    /// blocked for the tables); `None`: the whole grid.
    pub area: Option<Area>,
    /// Largest number of node expansions (0: no limit).
    pub max_expansions: u32,
    /// Weight of the heuristic (weighted A*): 0 or 1 (the default) gives
    /// the cheapest chain of primitives; `w > 1` one at most `w` times as
    /// costly, usually after far fewer expansions. Values below 1 or not
    /// finite count as 1.
    pub weight: f32,
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    /// A curve was found and written; its length in cells.
    Found {
        /// Length of the curve.
        length: f64,
        /// What the search minimised: the length driven forwards, plus the
        /// length driven in reverse times the penalty, plus the gear-change
        /// cost per change of direction ([`crate::Reverse`]); the length
        /// when reversing is off. From
        /// [`DirectionalSearch::find_weighted`], each length is the
        /// terrain-priced one instead: ∫ cost(cell under the centreline) ds
        /// along the piece (the gear-change cost is not priced).
        cost: f64,
        /// Nodes expanded.
        expansions: u32,
    },
    /// No curve within the area with the primitives (the search ran out
    /// of nodes).
    NoPath {
        /// Nodes expanded.
        expansions: u32,
    },
    /// The node budget ran out first.
    BudgetExhausted {
        /// Nodes expanded.
        expansions: u32,
    },
}

/// The box of an escape search ([`DirectionalSearch::escape`]), in area
/// coordinates, inclusive, and the column or row just beyond each side
/// (left, top, right, bottom) that leads out of it (`i64::MAX` for a side
/// on the map's edge).
#[derive(Clone, Copy, Debug)]
struct EscapeBox {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
    ways: [i64; 4],
}

impl EscapeBox {
    /// Cells (Chebyshev) from `(cx, cy)` to the nearest column or row
    /// beyond a side that leads out; 0 when no side does.
    fn cells_out(&self, cx: usize, cy: usize) -> f64 {
        let (x, y) = (cx as i64, cy as i64);
        let [l, t, r, b] = self.ways;
        let d = [
            (l != i64::MAX).then(|| x - l),
            (t != i64::MAX).then(|| y - t),
            (r != i64::MAX).then(|| r - x),
            (b != i64::MAX).then(|| b - y),
        ];
        d.into_iter()
            .flatten()
            .min()
            .map_or(0.0, |d| d.max(0) as f64)
    }
}

/// How [`DirectionalSearch::escape`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escape {
    /// A node beyond the distance was expanded, or the goal reached.
    Escaped {
        /// Nodes expanded.
        expansions: u32,
    },
    /// Every chain of primitives from the start stays within the
    /// distance (the search ran out of nodes inside it).
    Enclosed {
        /// Nodes expanded.
        expansions: u32,
    },
    /// The node budget ran out first: neither is known.
    BudgetExhausted {
        /// Nodes expanded.
        expansions: u32,
    },
}

const NONE: u32 = u32::MAX;
const START: u32 = u32::MAX - 1;
const GOAL: u32 = u32::MAX - 2;
/// The goal pose reached by a last curve driven in reverse.
const GOAL_REV: u32 = u32::MAX - 3;
/// Edge flag: an exact curve (from the start pose, or to the goal pose),
/// checked when popped; the low 30 bits index the curve in the search's
/// `exact_curves` (computed once, when priced).
const LAZY: u32 = 1 << 31;
/// Whether an edge is a [`LAZY`] exact curve (not [`NONE`], whose top two
/// bits are both set).
fn is_lazy(edge: u32) -> bool {
    edge >> 30 == 2
}
/// The index in `exact_curves` of a [`LAZY`] edge.
fn lazy_index(edge: u32) -> usize {
    (edge & !LAZY) as usize
}
/// Edge flag: an exact curve not yet priced: its `g` is a lower bound (the
/// parent's cost plus `length_lower_bound`: the straight distance, or R
/// times the angle its arcs must turn through, by the end headings and
/// the chord's bearing); when popped it is priced (Dubins length) and
/// pushed again as [`LAZY`].
const UNPRICED: u32 = 1 << 30;

/// A popped open-list entry.
#[derive(Clone, Copy, Debug)]
struct Entry {
    f: f64,
    g: f64,
    node: u32,
    parent: u32,
    edge: u32,
}

/// An `f64` as a `u64` of the same order (`total_cmp`'s): one integer
/// comparison orders two costs.
#[inline]
fn ordered(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 {
        !b
    } else {
        b | 1 << 63
    }
}

/// The inverse of [`ordered`].
#[inline]
fn unordered(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// An open-list entry: smaller `f` first, then larger `g`, then smaller
/// node. `key` holds `f` and `g` (inverted) as [`ordered`] bits, so the
/// heap's comparisons are one `u128` comparison (the node's only on a
/// tie of both).
#[derive(Clone, Copy, Debug)]
struct Queued {
    key: u128,
    node: u32,
    parent: u32,
    edge: u32,
}

impl Queued {
    fn new(f: f64, g: f64, node: u32, parent: u32, edge: u32) -> Queued {
        Queued {
            key: (ordered(f) as u128) << 64 | !ordered(g) as u128,
            node,
            parent,
            edge,
        }
    }

    fn entry(self) -> Entry {
        Entry {
            f: unordered((self.key >> 64) as u64),
            g: unordered(!(self.key as u64)),
            node: self.node,
            parent: self.parent,
            edge: self.edge,
        }
    }
}

impl PartialEq for Queued {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Queued {
    fn cmp(&self, o: &Self) -> Ordering {
        // A max-heap: the smaller key first, then the smaller node.
        o.key.cmp(&self.key).then(o.node.cmp(&self.node))
    }
}

/// Reusable directional A*: scratch for nodes (20 bytes per cell of
/// the area and heading, twice that when the vehicle may reverse: a node
/// then also records the direction it was reached in; above
/// [`DirectionalSearch::set_dense_limit`]'s number of nodes, 20 bytes per
/// node of the blocks the search touches), an open list and
/// the area's obstacle bitmap,
/// grown to the largest area searched and then reused (no allocation per
/// query once warm, except the output's growth).
///
/// Contract of [`DirectionalSearch::find`]: the curve it writes starts at
/// the start (cell centre or pose), ends at the goal, is made of the
/// primitives' lines and arcs of exactly the turning radius (pieces from
/// or to an exact pose likewise), and keeps the swept disc of the unit
/// radius clear of blocked cells and of the map's outline (lattice curves
/// through their hit-check tables, with a margin of
/// [`crate::TABLE_MARGIN`]; exact curves by the exact test). Its length is
/// the shortest over chains of these primitives within the area (A* with
/// the admissible, consistent Euclidean heuristic). Like Pinter's search
/// it is not complete over all curves: only over the primitive chains.
/// An exact curve is used only when each of its lines, written with `f32`
/// end points, keeps its heading within 10⁻⁴ rad (a line of a few
/// thousandths of a cell far from the origin does not, and would join its
/// neighbours at a kink): another chain is taken instead.
///
/// With [`crate::VehicleSpec::reverse`] each node also has the primitives
/// driven backwards (see [`crate::Reverse`]: the forward primitive from the
/// opposite heading, the same curve and table) and exact curves to or from
/// a pose driven backwards likewise; the chain minimises the cost in
/// [`Outcome::Found`] (the heuristic stays admissible: every cost factor is
/// at least 1). Reverse pieces are marked in the [`Track`].
///
/// [`DirectionalSearch::find_weighted`] keeps that contract with every
/// length priced by the terrain under the centreline: the chain is the
/// cheapest for that cost (the heuristic scaled by the cheapest cost stays
/// admissible and consistent).
#[derive(Debug)]
pub struct DirectionalSearch {
    steering: Arc<Steering>,
    nodes: Nodes,
    /// Areas of more nodes than this use the paged node store.
    dense_limit: usize,
    heap: BinaryHeap<Queued>,
    blocked: Vec<u64>,
    row_words: usize,
    chain: Vec<(u32, u32)>,
    /// Terrain costs of the area's cells, padded by [`MAX_EXTENT`] on every
    /// side (the padding at the largest cost), row stride `cost_stride`;
    /// loaded only by [`DirectionalSearch::find_weighted`].
    cell_cost: Vec<f64>,
    cost_stride: usize,
    /// Scratch of the exact curves' cell crossings.
    breaks: Vec<f64>,
    /// The exact curves priced in this query ([`LAZY`] edges index them).
    exact_curves: Vec<Maneuver>,
    /// Grid distances to the goal found on demand, reset only by the
    /// guided searches.
    guide: Guide,
    /// Set by [`DirectionalSearch::escape`] for its search: the box the
    /// expanded nodes must stay in.
    escape_box: Option<EscapeBox>,
    /// Whether the last escape search expanded a node outside its box.
    escaped: bool,
    /// See [`DirectionalSearch::may_leave_area`].
    may_leave_area: bool,
}

/// Default of [`DirectionalSearch::set_dense_limit`]: areas of up to this
/// many nodes (about 80 MB of dense scratch) use the dense node store.
pub const DENSE_LIMIT: usize = 4_000_000;

/// A cell of the guide no grid path reaches from the goal.
const UNREACHED: u32 = u32::MAX;
/// Grid steps of the guide in fifths of a cell: a straight step 5, a
/// diagonal step 7 (1.4, a little under √2).
const GUIDE_STRAIGHT: u32 = 5;
const GUIDE_DIAGONAL: u32 = 7;
/// Units of the guide per cell.
const GUIDE_UNIT: f64 = 5.0;

impl DirectionalSearch {
    /// A search over shared primitives.
    pub fn new(steering: Arc<Steering>) -> DirectionalSearch {
        DirectionalSearch {
            steering,
            nodes: Nodes::default(),
            dense_limit: DENSE_LIMIT,
            heap: BinaryHeap::new(),
            blocked: Vec::new(),
            row_words: 0,
            chain: Vec::new(),
            cell_cost: Vec::new(),
            cost_stride: 0,
            breaks: Vec::new(),
            exact_curves: Vec::new(),
            guide: Guide::default(),
            escape_box: None,
            escaped: false,
            may_leave_area: true,
        }
    }

    /// After a search that ran out of nodes ([`Outcome::NoPath`]), whether
    /// a chain of primitives from the start might still reach the goal by
    /// leaving the search's area: `false` when neither the start's cell nor
    /// any node it expanded lies within the tables' reach (the largest
    /// extent of a child or a swept cell, plus a cell) of a side of the
    /// area that is not the map's edge, and (guided) the guide reported no
    /// cell unreached, so that
    /// nothing was cut off by the area rather than by blocked cells and
    /// the map's outline: then no chain joins them on the whole map.
    /// `true` after any other outcome. O(1).
    /// Why: a caller that would search a wider area after an exhausted
    /// one skips it where the first search already proved there is no
    /// curve.
    pub fn may_leave_area(&self) -> bool {
        self.may_leave_area
    }

    /// The primitives in use.
    pub fn steering(&self) -> &Arc<Steering> {
        &self.steering
    }

    /// Searches over areas of more than `nodes` (cell, heading) nodes
    /// ((cell, heading, direction) with reversing) keep their per-node
    /// scratch in a paged store: slots are handed out per block of 512
    /// nodes the search touches, so its memory follows the nodes touched
    /// (about 20 bytes a node of a touched block, plus 4 bytes per block
    /// of the area) instead of the area's size; smaller areas index a
    /// dense store (20 bytes per node of the area). Results do not depend
    /// on the store; the paged one costs a table look-up per node access.
    /// Why: a search over a large area under a node budget touches a
    /// small part of it. Default [`DENSE_LIMIT`]; 0 pages every search.
    pub fn set_dense_limit(&mut self, nodes: usize) {
        self.dense_limit = nodes;
    }

    /// Finds the cheapest chain of primitives from `start` to `goal` and
    /// appends its pieces to `out` (only on [`Outcome::Found`]; `out` is
    /// not cleared). Bad input is an error: an end off the map or outside
    /// the area, a start or goal cell that is blocked, a non-finite pose.
    /// A start at the goal cell's centre with [`Goal::Cell`] is found with
    /// no pieces. Cost: O(expansions × children × table rows) plus the
    /// area's cells once to load its obstacles.
    pub fn find(
        &mut self,
        grid: &Grid,
        start: Start,
        goal: Goal,
        limits: &Limits,
        out: &mut Track,
    ) -> Result<Outcome, VehicleError> {
        self.find_loaded(grid, None, false, start, goal, limits, out)
    }

    /// [`DirectionalSearch::find`] guided by the grid: the heuristic of a
    /// node is the larger of its Euclidean distance to the goal and its
    /// grid distance to the goal cell inside the area (8 moves, no corner
    /// cut, a diagonal step counted 1.4), times the weight; a node whose
    /// cell no grid path joins to the goal is never opened (for a positive
    /// unit radius the cells a legal curve crosses always form such a
    /// path, so no curve is lost).
    /// Why: around walls the Euclidean heuristic floods every pocket
    /// facing the goal; the grid distance leads along the corridors, so a
    /// search over a large area expands a band along the way instead.
    ///
    /// Contract: the curve written is legal as [`DirectionalSearch::find`]'s
    /// (same primitives, same checks), but the grid distance is not a lower
    /// bound of the curve's length (a diagonal run of the grid path
    /// overestimates a straight line by up to 8 %), so the curve is not
    /// promised to be the cheapest chain, nor within the weight of it.
    /// How: the grid distances come from an A* from the goal towards the
    /// start, resumed whenever the search asks for a cell it has not
    /// closed (a reverse resumable A*), so they cover the cells around the
    /// search's way, not the whole area.
    /// Cost: per search, the area's cells once to reset 4 bytes each
    /// (kept), then O(1) per cell the guide closes; usually far fewer
    /// expansions than [`DirectionalSearch::find`] where walls stand
    /// between start and goal. No allocation once warm.
    pub fn find_guided(
        &mut self,
        grid: &Grid,
        start: Start,
        goal: Goal,
        limits: &Limits,
        out: &mut Track,
    ) -> Result<Outcome, VehicleError> {
        self.find_loaded(grid, None, true, start, goal, limits, out)
    }

    /// [`DirectionalSearch::find_weighted`] guided by the grid as
    /// [`DirectionalSearch::find_guided`] (the grid distance times the
    /// cheapest class cost): same contract as `find_weighted` but for the
    /// cheapest-chain promise, which the guide drops.
    pub fn find_weighted_guided(
        &mut self,
        view: &ProfileGrid,
        start: Start,
        goal: Goal,
        limits: &Limits,
        out: &mut Track,
    ) -> Result<Outcome, VehicleError> {
        self.find_loaded(view.grid(), Some(view), true, start, goal, limits, out)
    }

    /// Whether any chain of primitives leaves the start's neighbourhood:
    /// a search from `start` that stops as soon as it expands a node
    /// farther than `distance` cells (Chebyshev) from the start cell, or
    /// reaches `goal` ([`Escape::Escaped`]); its heuristic is 1.5 × the
    /// cells left to the nearest side of that box that is not the map's
    /// edge (no cheapest chain is sought: any way out will do). When it
    /// runs out of nodes first ([`Escape::Enclosed`]), every chain of
    /// primitives from the start stays within the box on the whole map,
    /// and the goal is not among them: the search's area is the box plus
    /// the tables' reach (clipped to the map), so no node it expanded had
    /// a child or a swept cell cut off by the area, only by blocked cells
    /// and the map's outline (a start in a pocket too narrow to turn in).
    /// `distance` counts as at least the neighbourhood's reach. Errors as
    /// [`DirectionalSearch::find`] for the start; the goal must be finite
    /// and on the map (anywhere on it). Unguided, no terrain costs.
    /// Cost: at most `max_expansions` expansions (0: no limit) over an
    /// area of at most (2 · (`distance` + extent + 1) + 1)² cells, its
    /// nodes always in the paged store (an escape touches few of them, so
    /// its memory follows those; see
    /// [`DirectionalSearch::set_dense_limit`]); no allocation once warm.
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point};
    /// use regionpath_vehicle::*;
    /// use std::sync::Arc;
    ///
    /// // A one-cell corridor along row 2 whose ends turn at right angles:
    /// // too tight for a turning radius of 2.
    /// let grid = Grid::from_rows(&[
    ///     "@@@@@@@@@@@@.",
    ///     "@.@@@@@@@@@@.",
    ///     "@..........@.",
    ///     "@@@@@@@@@@.@.",
    ///     "@@@@@@@@@@...",
    /// ])?;
    /// let steering = Arc::new(Steering::new(VehicleSpec::new(2.0, 0.4))?);
    /// let mut search = DirectionalSearch::new(steering);
    /// let (start, goal) = (Point::new(5, 2), Point::new(12, 0));
    /// let escape = search.escape(&grid, Start::Cell(start), Goal::Cell(goal), 6, 0)?;
    /// assert!(matches!(escape, Escape::Enclosed { .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn escape(
        &mut self,
        grid: &Grid,
        start: Start,
        goal: Goal,
        distance: u32,
        max_expansions: u32,
    ) -> Result<Escape, VehicleError> {
        // The cell of a pose, which must be finite.
        let pose_cell = |p: Pose| {
            if p.is_finite() {
                Ok((p.x.floor() as i64, p.y.floor() as i64))
            } else {
                Err(VehicleError::NonFinite)
            }
        };
        let (sx, sy) = match start {
            Start::Cell(p) => (p.x as i64, p.y as i64),
            Start::Pose(p) => pose_cell(p)?,
        };
        let (gx, gy) = match goal {
            Goal::Cell(p) => (p.x as i64, p.y as i64),
            Goal::Pose(p) => pose_cell(p)?,
        };
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        for (what, x, y) in [("start", sx, sy), ("goal", gx, gy)] {
            if x < 0 || y < 0 || x >= w || y >= h {
                return Err(VehicleError::OutsideArea { what });
            }
        }
        let d = distance.max(self.steering.spec().neighbourhood.reach() as u32) as i64;
        let guard = self
            .steering
            .extent()
            .max(self.steering.spec().neighbourhood.reach()) as i64
            + 1;
        // The box the nodes must stay in, and the area: the box plus the
        // guard, both clipped to the map (whose outline blocks for real).
        let (bx0, by0) = ((sx - d).max(0), (sy - d).max(0));
        let (bx1, by1) = ((sx + d).min(w - 1), (sy + d).min(h - 1));
        let (ax0, ay0) = ((sx - d - guard).max(0), (sy - d - guard).max(0));
        let (ax1, ay1) = ((sx + d + guard).min(w - 1), (sy + d + guard).min(h - 1));
        let area = Area {
            x: ax0 as u32,
            y: ay0 as u32,
            width: (ax1 - ax0 + 1) as u32,
            height: (ay1 - ay0 + 1) as u32,
        };
        let limits = Limits {
            area: Some(area),
            max_expansions,
            weight: 1.5,
        };
        // A side on the map's edge is no way out.
        let side = |open: bool, cells: i64| if open { cells } else { i64::MAX };
        self.escape_box = Some(EscapeBox {
            x0: (bx0 - ax0) as usize,
            y0: (by0 - ay0) as usize,
            x1: (bx1 - ax0) as usize,
            y1: (by1 - ay0) as usize,
            ways: [
                side(sx - d > 0, bx0 - ax0 - 1),
                side(sy - d > 0, by0 - ay0 - 1),
                side(sx + d < w - 1, bx1 - ax0 + 1),
                side(sy + d < h - 1, by1 - ay0 + 1),
            ],
        });
        self.escaped = false;
        // The nodes in pages: an escape touches few of the box's.
        let dense_limit = std::mem::replace(&mut self.dense_limit, 0);
        let mut none = Track::new();
        let outcome = self.find_loaded(grid, None, false, start, goal, &limits, &mut none);
        self.escape_box = None;
        self.dense_limit = dense_limit;
        Ok(match outcome? {
            Outcome::Found { expansions, .. } => Escape::Escaped { expansions },
            Outcome::BudgetExhausted { expansions } if self.escaped => {
                Escape::Escaped { expansions }
            }
            Outcome::BudgetExhausted { expansions } => Escape::BudgetExhausted { expansions },
            Outcome::NoPath { expansions } => Escape::Enclosed { expansions },
        })
    }

    /// [`DirectionalSearch::find`] on `view.grid()` (the usable positions
    /// of a movement profile) with every piece priced by the terrain it
    /// runs over: a piece costs ∫ cost(cell under its centreline) ds, the
    /// cell of point `(x, y)` being `(⌊x⌋, ⌊y⌋)` and its cost
    /// [`ProfileGrid::position_cost`] (times the penalty when driven in
    /// reverse, plus the gear-change cost, unpriced, per change of
    /// direction). The curve is the cheapest chain of primitives in the
    /// area for that cost (weight 1), so it avoids dear terrain where a
    /// longer way round costs less; [`Outcome::Found`]'s `cost` is its
    /// priced cost, `length` its length. Same contract otherwise as
    /// [`DirectionalSearch::find`].
    ///
    /// How: each primitive's centreline cells and the length inside each
    /// are computed once in the [`Steering`] from the exact crossings of
    /// its lines and arcs with the grid lines (lengths stored as `f32`:
    /// a relative error under 10⁻⁶ per primitive), so pricing a child is a
    /// loop over a few cells; exact curves from a start pose or to a goal
    /// pose are cut at their crossings when priced (exact in `f64`). The
    /// heuristic is the Euclidean distance times the cheapest class cost
    /// ([`ProfileGrid::class_costs`]`[0]`): admissible and consistent,
    /// as no piece costs less per cell of length.
    ///
    /// Cost: as [`DirectionalSearch::find`] plus, per child, its
    /// centreline's cells (about the length in cells), and the area's cells
    /// (padded by 31 on each side) once to load their costs; 8 bytes of
    /// scratch per padded area cell, kept. For a uniform view,
    /// [`DirectionalSearch::find`] on `view.grid()` is cheaper and, with
    /// weight 1, its cost times the one class cost is the same up to
    /// rounding.
    pub fn find_weighted(
        &mut self,
        view: &ProfileGrid,
        start: Start,
        goal: Goal,
        limits: &Limits,
        out: &mut Track,
    ) -> Result<Outcome, VehicleError> {
        self.find_loaded(view.grid(), Some(view), false, start, goal, limits, out)
    }

    /// One search, priced by `costs` (the view of `grid`) or not, guided
    /// by the grid distance or not, its scratch taken out of `self` for
    /// the search loop.
    #[allow(clippy::too_many_arguments)]
    fn find_loaded(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        guided: bool,
        start: Start,
        goal: Goal,
        limits: &Limits,
        out: &mut Track,
    ) -> Result<Outcome, VehicleError> {
        let mut breaks = std::mem::take(&mut self.breaks);
        let mut guide = std::mem::take(&mut self.guide);
        let rev = self.steering.spec().reverse.is_some();
        let (b, g) = (&mut breaks, &mut guide);
        // Forwards only, the direction bit and its costs compile away; so
        // do the costs without a view.
        let outcome = match (rev, costs) {
            (true, Some(_)) => {
                self.find_in::<true, true>(grid, costs, b, guided, g, start, goal, limits, out)
            }
            (false, Some(_)) => {
                self.find_in::<false, true>(grid, costs, b, guided, g, start, goal, limits, out)
            }
            (true, None) => {
                self.find_in::<true, false>(grid, None, b, guided, g, start, goal, limits, out)
            }
            (false, None) => {
                self.find_in::<false, false>(grid, None, b, guided, g, start, goal, limits, out)
            }
        };
        self.breaks = breaks;
        self.guide = guide;
        outcome
    }

    /// [`DirectionalSearch::find`] with (`REV`) or without reversing, and
    /// with (`COST`: `costs` is the view of `grid`) or without terrain
    /// costs; `guided`: the heuristic and the pruning of
    /// [`DirectionalSearch::find_guided`], the grid distances loaded into
    /// `guide`.
    #[allow(clippy::too_many_arguments)]
    fn find_in<const REV: bool, const COST: bool>(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        breaks: &mut Vec<f64>,
        guided: bool,
        guide: &mut Guide,
        start: Start,
        goal: Goal,
        limits: &Limits,
        out: &mut Track,
    ) -> Result<Outcome, VehicleError> {
        self.may_leave_area = true;
        let area = limits.area.unwrap_or(Area::of_grid(grid));
        if area.x as u64 + area.width as u64 > grid.width() as u64
            || area.y as u64 + area.height as u64 > grid.height() as u64
        {
            return Err(VehicleError::AreaOutsideMap);
        }
        let start_xy = match start {
            Start::Cell(p) => (p.x as f64 + 0.5, p.y as f64 + 0.5),
            Start::Pose(p) => {
                if !p.is_finite() {
                    return Err(VehicleError::NonFinite);
                }
                (p.x, p.y)
            }
        };
        let goal_pose = match goal {
            Goal::Cell(p) => Pose::new(p.x as f64 + 0.5, p.y as f64 + 0.5, 0.0),
            Goal::Pose(p) => {
                if !p.is_finite() {
                    return Err(VehicleError::NonFinite);
                }
                p
            }
        };
        let escape_box = self.escape_box;
        for (what, (x, y)) in [("start", start_xy), ("goal", (goal_pose.x, goal_pose.y))] {
            if what == "goal" && escape_box.is_some() {
                // A heuristic target only.
                continue;
            }
            let (cx, cy) = (x.floor() as i64, y.floor() as i64);
            if !area.contains(cx, cy) {
                return Err(VehicleError::OutsideArea { what });
            }
            if !grid.is_passable_i(cx, cy) {
                return Err(VehicleError::Blocked { what });
            }
        }
        let spec = *self.steering.spec();
        let hn = spec.headings;
        let step = spec.step();
        let rev = spec.reverse;
        let dirs = if REV { 2usize } else { 1 };
        let penalty = rev.map_or(1.0, |r| r.penalty);
        let gear = rev.map_or(0.0, |r| r.gear_change);
        // Cost factor of a piece driven in direction `d` (0 forwards).
        let factor = |d: usize| if d == 1 { penalty } else { 1.0 };
        let half = hn / 2;
        let (w, h) = (area.width as usize, area.height as usize);
        let nodes = w * h * hn as usize * dirs;
        if nodes >= (u32::MAX / 4) as usize {
            return Err(VehicleError::AreaTooLarge);
        }
        self.prepare(grid, &area, nodes);
        // The cheapest and dearest costs per cell of length (1 without
        // costs: the uniform search's arithmetic is unchanged, as x · 1 = x).
        let (cmin, cmax) = match costs {
            Some(v) if COST => (
                v.class_costs().first().copied().unwrap_or(1.0),
                v.class_costs().last().copied().unwrap_or(1.0),
            ),
            _ => (1.0, 1.0),
        };
        if COST {
            if let Some(v) = costs {
                self.load_costs(v, &area, cmax);
            }
        }
        // The priced length of an exact curve (its length without costs).
        let mut priced = |from: Pose, m: &Maneuver| -> f64 {
            match costs {
                Some(v) if COST => {
                    let (gw, gh) = (grid.width() as i64, grid.height() as i64);
                    let mut c = 0.0;
                    centreline_cells(from, m, breaks, |x, y, len| {
                        let cost = if x >= 0 && y >= 0 && x < gw && y < gh {
                            v.position_cost(Point::new(x as u32, y as u32))
                        } else {
                            None
                        };
                        // A cell the profile cannot enter: the curve's exact
                        // check refuses it later; any price will do.
                        c += len * cost.unwrap_or(cmax);
                    });
                    c
                }
                _ => m.length,
            }
        };
        let steering = Arc::clone(&self.steering);
        let reach = spec.neighbourhood.reach() as i64;
        let radius = spec.turning_radius;
        let unit = spec.unit_radius as f32;
        let bound = |dist: f64| crate::steering::max_length(dist, radius);
        let gx = goal_pose.x;
        let gy = goal_pose.y;
        let weight = if limits.weight.is_finite() && limits.weight > 1.0 {
            limits.weight as f64
        } else {
            1.0
        };
        let hscale = weight * cmin;
        if guided {
            let cell = |x: f64, y: f64| {
                (
                    x.floor() as i64 - area.x as i64,
                    y.floor() as i64 - area.y as i64,
                )
            };
            let (gcx, gcy) = cell(goal_pose.x, goal_pose.y);
            // The start is inside the area (checked above).
            let (scx, scy) = cell(start_xy.0, start_xy.1);
            guide.reset(
                &self.blocked,
                self.row_words,
                (w, h),
                (gcx, gcy),
                (scx as usize, scy as usize),
            );
        }
        // Whether a cell (area coordinates) may lie on a curve to the goal.
        let joined =
            |guide: &mut Guide, cx: usize, cy: usize| !guided || guide.at(cx, cy) != UNREACHED;
        let heur = |guide: &mut Guide, cx: usize, cy: usize| {
            if let Some(b) = escape_box {
                // Escaping: the cells to the nearest way out of the box.
                return weight * b.cells_out(cx, cy);
            }
            let (x, y) = (
                (area.x as usize + cx) as f64 + 0.5,
                (area.y as usize + cy) as f64 + 0.5,
            );
            let e = ((x - gx).powi(2) + (y - gy).powi(2)).sqrt();
            if guided {
                hscale * e.max(guide.at(cx, cy) as f64 / GUIDE_UNIT)
            } else {
                hscale * e
            }
        };
        let node_of = |cx: usize, cy: usize, hd: u32, d: usize| {
            (((cy * w + cx) * hn as usize + hd as usize) * dirs + d) as u32
        };
        let is_goal = |n: u32| n == GOAL || (REV && n == GOAL_REV);
        // Direction (0 forwards, 1 reverse) a node or goal was reached in.
        let dir_of = |n: u32| {
            if !REV {
                return 0;
            }
            match n {
                GOAL => 0,
                GOAL_REV => 1,
                n => n as usize % dirs,
            }
        };
        // Cost of a change of direction from `parent` to direction `d`.
        let gear_cost = |parent: u32, d: usize| {
            if parent != START && dir_of(parent) != d {
                gear
            } else {
                0.0
            }
        };
        // The exact curve between two body poses driven in direction `d`,
        // and the motion pose it starts from.
        let motion = |p: Pose, d: usize| {
            if d == 1 {
                Pose::new(p.x, p.y, p.heading + PI)
            } else {
                p
            }
        };
        let exact =
            |from: Pose, to: Pose, d: usize| shortest(motion(from, d), motion(to, d), radius);
        let goal_cell = (goal_pose.x.floor() as i64, goal_pose.y.floor() as i64);
        let node_pose = |node: u32| {
            let hd = (node as usize / dirs) as u32 % hn;
            let c = node as usize / dirs / hn as usize;
            let (cx, cy) = (c % w, c / w);
            Pose::new(
                (area.x as usize + cx) as f64 + 0.5,
                (area.y as usize + cy) as f64 + 0.5,
                hd as f64 * step,
            )
        };
        // Seeds.
        match start {
            Start::Cell(p) => {
                let (cx, cy) = ((p.x - area.x) as usize, (p.y - area.y) as usize);
                if let Goal::Cell(g) = goal {
                    if g == p {
                        return Ok(Outcome::Found {
                            length: 0.0,
                            cost: 0.0,
                            expansions: 0,
                        });
                    }
                }
                if !joined(guide, cx, cy) {
                    // `may_leave_area` stays true: the guide's area may cut
                    // the start off the goal.
                    return Ok(Outcome::NoPath { expansions: 0 });
                }
                for hd in 0..hn {
                    for d in 0..dirs {
                        let n = node_of(cx, cy, hd, d);
                        self.open(n, 0.0, heur(guide, cx, cy), START, NONE);
                    }
                }
            }
            Start::Pose(sp) => {
                let (scx, scy) = (sp.x.floor() as i64, sp.y.floor() as i64);
                if let Goal::Cell(g) = goal {
                    if sp.x == gx && sp.y == gy && g.x as i64 == scx && g.y as i64 == scy {
                        return Ok(Outcome::Found {
                            length: 0.0,
                            cost: 0.0,
                            expansions: 0,
                        });
                    }
                }
                for dy in -reach..=reach {
                    for dx in -reach..=reach {
                        let (x, y) = (scx + dx, scy + dy);
                        if !area.contains(x, y) || !grid.is_passable_i(x, y) {
                            continue;
                        }
                        let (cx, cy) = ((x - area.x as i64) as usize, (y - area.y as i64) as usize);
                        if !joined(guide, cx, cy) {
                            continue;
                        }
                        // `length_lower_bound` with the chord's bearing
                        // taken once per cell.
                        let (ux, uy) = (x as f64 + 0.5 - sp.x, y as f64 + 0.5 - sp.y);
                        let dist = (ux * ux + uy * uy).sqrt();
                        let chord = (dist > 0.0).then(|| uy.atan2(ux));
                        for hd in 0..hn {
                            let turn = turn_lower_bound(sp.heading, hd as f64 * step, chord);
                            let lower = dist.max(radius * turn);
                            for d in 0..dirs {
                                let n = node_of(cx, cy, hd, d);
                                self.push(
                                    n,
                                    lower * cmin * factor(d),
                                    heur(guide, cx, cy),
                                    START,
                                    UNPRICED,
                                );
                            }
                        }
                    }
                }
                if let Goal::Pose(gp) = goal {
                    if (goal_cell.0 - scx).abs() <= reach && (goal_cell.1 - scy).abs() <= reach {
                        let dist = length_lower_bound(sp, gp, radius) * cmin;
                        self.push(GOAL, dist, 0.0, START, UNPRICED);
                        if dirs == 2 {
                            self.push(GOAL_REV, dist * penalty, 0.0, START, UNPRICED);
                        }
                    }
                }
            }
        }
        let mut expansions = 0u32;
        let mut spans = [0u64; 2 * MAX_EXTENT as usize + 1];
        let extent = steering.extent() as usize;
        // The box of the start's cell and the expanded nodes' cells (area
        // coordinates; the start is inside the area, checked above): a
        // pose's first curves go to cells within reach of its cell.
        let (sx, sy) = (
            (start_xy.0.floor() as i64 - area.x as i64) as usize,
            (start_xy.1.floor() as i64 - area.y as i64) as usize,
        );
        let mut expanded_box = (sx, sy, sx, sy);
        let found_at: u32;
        let goal_parent: u32;
        let mut found_edge = NONE;
        let found_cost: f64;
        loop {
            let Some(e) = self.heap.pop().map(Queued::entry) else {
                let near = extent.max(reach as usize) + 1;
                let (x0, y0, x1, y1) = expanded_box;
                let cut = (area.x > 0 && x0 < near)
                    || (area.y > 0 && y0 < near)
                    || (area.x + area.width < grid.width() && x1 + near >= w)
                    || (area.y + area.height < grid.height() && y1 + near >= h);
                self.may_leave_area = cut || (guided && guide.unreached_asked);
                return Ok(Outcome::NoPath { expansions });
            };
            if e.edge == UNPRICED {
                // Price the exact curve and queue it again (or drop it).
                if !is_goal(e.node) && self.nodes.is_closed(e.node) {
                    continue;
                }
                let d = dir_of(e.node);
                let (from, base) = if e.parent == START {
                    match start {
                        Start::Pose(sp) => (sp, 0.0),
                        Start::Cell(_) => continue,
                    }
                } else {
                    (node_pose(e.parent), self.nodes.best(e.parent))
                };
                let to = if is_goal(e.node) {
                    goal_pose
                } else {
                    node_pose(e.node)
                };
                let Some(m) = exact(from, to, d) else {
                    continue;
                };
                let dist = ((to.x - from.x).powi(2) + (to.y - from.y).powi(2)).sqrt();
                if m.length > bound(dist) {
                    continue;
                }
                let hv = e.f - e.g;
                let len = if COST {
                    priced(motion(from, d), &m)
                } else {
                    m.length
                };
                let g = base + len * factor(d) + gear_cost(e.parent, d);
                // At most one per node within reach of the start or the
                // goal and direction: far below 2³⁰.
                let lazy = LAZY | self.exact_curves.len() as u32;
                self.exact_curves.push(m);
                self.push(e.node, g, hv, e.parent, lazy);
                continue;
            }
            if is_goal(e.node) {
                let from = if e.parent == START {
                    match start {
                        Start::Pose(sp) => sp,
                        Start::Cell(_) => continue,
                    }
                } else {
                    node_pose(e.parent)
                };
                let Goal::Pose(_) = goal else { continue };
                let d = dir_of(e.node);
                let m = &self.exact_curves[lazy_index(e.edge)];
                if !(maneuver_conditioned(motion(from, d), m)
                    && maneuver_clear(grid, motion(from, d), m, unit))
                {
                    continue;
                }
                found_at = e.node;
                found_edge = e.edge;
                goal_parent = e.parent;
                found_cost = e.g;
                break;
            }
            if self.nodes.is_closed(e.node) {
                continue;
            }
            if is_lazy(e.edge) {
                let Start::Pose(sp) = start else { continue };
                let d = dir_of(e.node);
                let m = &self.exact_curves[lazy_index(e.edge)];
                if !(maneuver_conditioned(motion(sp, d), m)
                    && maneuver_clear(grid, motion(sp, d), m, unit))
                {
                    continue;
                }
            } else if self.nodes.best_seen(e.node).is_some_and(|b| e.g > b) {
                continue;
            }
            self.nodes.close(e.node, e.g, e.parent, e.edge);
            expansions += 1;
            if limits.max_expansions != 0 && expansions > limits.max_expansions {
                return Ok(Outcome::BudgetExhausted { expansions });
            }
            let dir = e.node as usize % dirs;
            let hd = (e.node as usize / dirs) as u32 % hn;
            let c = e.node as usize / dirs / hn as usize;
            let (cx, cy) = (c % w, c / w);
            expanded_box = (
                expanded_box.0.min(cx),
                expanded_box.1.min(cy),
                expanded_box.2.max(cx),
                expanded_box.3.max(cy),
            );
            if let Some(b) = escape_box {
                if cx < b.x0 || cy < b.y0 || cx > b.x1 || cy > b.y1 {
                    self.escaped = true;
                    return Ok(Outcome::BudgetExhausted { expansions });
                }
            }
            let (ax, ay) = ((area.x as usize + cx) as i64, (area.y as usize + cy) as i64);
            if let Goal::Cell(_) = goal {
                if (ax, ay) == goal_cell {
                    found_at = e.node;
                    goal_parent = NONE;
                    found_cost = e.g;
                    break;
                }
            }
            // This cell's neighbourhood rows from the bitmap.
            let base_row = cy + MAX_EXTENT as usize;
            for dy in 0..=2 * extent {
                let row = base_row + dy - extent;
                let r = &self.blocked[row * self.row_words..(row + 1) * self.row_words];
                let (wi, sh) = (cx / 64, cx % 64);
                spans[dy + MAX_EXTENT as usize - extent] = if sh == 0 {
                    r[wi]
                } else {
                    (r[wi] >> sh) | (r[wi + 1] << (64 - sh))
                };
            }
            // The same rows as a 16 × 16 square for the packed tables.
            let mut square = [0u64; 4];
            for (i, dy) in (-PACK..=PACK + 1).enumerate() {
                let row = if dy.unsigned_abs() as usize <= extent {
                    spans[(dy + MAX_EXTENT) as usize]
                } else {
                    0
                };
                let bits = (row >> (MAX_EXTENT - PACK)) & 0xFFFF;
                square[i / 4] |= bits << ((i % 4) * 16);
            }
            // Forwards: the primitives from this heading; in reverse: those
            // from the opposite heading, driven backwards.
            for d in 0..dirs {
                let from_hd = if d == 1 { (hd + half) % hn } else { hd };
                let step_cost = factor(d);
                let change = if d != dir { gear } else { 0.0 };
                let (first_child, _) = steering.children_range(from_hd);
                for (i, ch) in steering.children(from_hd).iter().enumerate() {
                    let this = first_child + i as u32;
                    let (nx, ny) = (cx as i64 + ch.dx as i64, cy as i64 + ch.dy as i64);
                    if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        continue;
                    }
                    let hit = match ch.is_packed.then_some(&ch.packed) {
                        Some(p) => {
                            (p[0] & square[0])
                                | (p[1] & square[1])
                                | (p[2] & square[2])
                                | (p[3] & square[3])
                                != 0
                        }
                        None => steering
                            .rows(ch)
                            .iter()
                            .any(|row| spans[(row.dy + MAX_EXTENT) as usize] & row.bits != 0),
                    };
                    if hit {
                        continue;
                    }
                    let (nx, ny) = (nx as usize, ny as usize);
                    if !joined(guide, nx, ny) {
                        continue;
                    }
                    let to_hd = if d == 1 {
                        (ch.heading as u32 + half) % hn
                    } else {
                        ch.heading as u32
                    };
                    let m = node_of(nx, ny, to_hd, d);
                    let seen = self.nodes.mark(m);
                    if seen == self.nodes.stamp + 1 {
                        continue;
                    }
                    let g = if COST {
                        // The centreline's cells, all inside the padded
                        // cost grid (offsets within MAX_EXTENT).
                        let stride = self.cost_stride as isize;
                        let here = (cy + MAX_EXTENT as usize) as isize * stride
                            + (cx + MAX_EXTENT as usize) as isize;
                        let mut c = 0.0;
                        for st in steering.cost_steps(this) {
                            let i = here + st.dy as isize * stride + st.dx as isize;
                            c += st.length as f64 * self.cell_cost[i as usize];
                        }
                        if REV {
                            e.g + c * step_cost + change
                        } else {
                            e.g + c
                        }
                    } else if REV {
                        e.g + ch.length as f64 * step_cost + change
                    } else {
                        e.g + ch.length as f64
                    };
                    if seen == self.nodes.stamp && g >= self.nodes.best(m) {
                        continue;
                    }
                    self.open(m, g, heur(guide, nx, ny), e.node, this);
                }
            }
            if let Goal::Pose(gp) = goal {
                if (goal_cell.0 - ax).abs() <= reach && (goal_cell.1 - ay).abs() <= reach {
                    let from = node_pose(e.node);
                    let dist = length_lower_bound(from, gp, radius) * cmin;
                    self.push(
                        GOAL,
                        e.g + dist + gear_cost(e.node, 0),
                        0.0,
                        e.node,
                        UNPRICED,
                    );
                    if dirs == 2 {
                        let g = e.g + dist * penalty + gear_cost(e.node, 1);
                        self.push(GOAL_REV, g, 0.0, e.node, UNPRICED);
                    }
                }
            }
        }
        if escape_box.is_some() {
            // The goal reached: the caller needs no curve.
            return Ok(Outcome::Found {
                length: 0.0,
                cost: found_cost,
                expansions,
            });
        }
        // Reconstruct: the chain of (node, edge) from the start.
        self.chain.clear();
        if is_goal(found_at) {
            self.chain.push((found_at, found_edge));
        }
        let mut n = if is_goal(found_at) {
            goal_parent
        } else {
            found_at
        };
        while n != START {
            self.chain.push((n, self.nodes.edge(n)));
            n = self.nodes.parent(n);
        }
        let before = out.len();
        let mut pose = match start {
            Start::Pose(sp) => sp,
            Start::Cell(_) => {
                // The first chained node is a seed: its pose is the start.
                let (first, _) = *self.chain.last().expect("a seed");
                node_pose(first)
            }
        };
        for i in (0..self.chain.len()).rev() {
            let (node, edge) = self.chain[i];
            let d = dir_of(node);
            let m: Option<Maneuver> = if is_lazy(edge) {
                // An exact curve from the start pose or to the goal pose,
                // as priced and checked.
                Some(self.exact_curves[lazy_index(edge)])
            } else if is_goal(node) || edge == NONE {
                None
            } else {
                Some(*steering.maneuver_at(edge))
            };
            if let Some(m) = m {
                push_maneuver(motion(pose, d), &m, d == 1, out);
                pose = if is_goal(node) {
                    match goal {
                        Goal::Pose(gp) => gp,
                        Goal::Cell(_) => pose,
                    }
                } else {
                    node_pose(node)
                };
            }
        }
        let length: f64 = out.segments()[before..]
            .iter()
            .map(|s| s.length() as f64)
            .sum();
        Ok(Outcome::Found {
            length,
            cost: found_cost,
            expansions,
        })
    }

    /// Resets the scratch for `nodes` nodes and loads the area's obstacles.
    fn prepare(&mut self, grid: &Grid, area: &Area, nodes: usize) {
        self.nodes.reset(nodes, self.dense_limit);
        self.heap.clear();
        self.exact_curves.clear();
        let pad = MAX_EXTENT as usize;
        let (w, h) = (area.width as usize, area.height as usize);
        let words = (w + 2 * pad).div_ceil(64) + 1;
        let rows = h + 2 * pad;
        self.row_words = words;
        self.blocked.clear();
        self.blocked.resize(words * rows, !0u64);
        for ly in 0..h {
            let row = &mut self.blocked[(ly + pad) * words..(ly + pad + 1) * words];
            let mut lx = 0;
            while lx < w {
                let len = (w - lx).min(64);
                let free = grid.row_bits(area.x + lx as u32, area.y + ly as u32, len as u32);
                let col = lx + pad;
                let (wi, sh) = (col / 64, col % 64);
                row[wi] &= !(free << sh);
                if sh != 0 {
                    row[wi + 1] &= !(free >> (64 - sh));
                }
                lx += len;
            }
        }
    }

    /// Loads the terrain cost of each cell of `area` into `cell_cost`,
    /// padded by [`MAX_EXTENT`] cells at `pad_cost` on every side.
    fn load_costs(&mut self, view: &ProfileGrid, area: &Area, pad_cost: f64) {
        let pad = MAX_EXTENT as usize;
        let (w, h) = (area.width as usize, area.height as usize);
        let stride = w + 2 * pad;
        self.cost_stride = stride;
        self.cell_cost.clear();
        self.cell_cost.resize(stride * (h + 2 * pad), pad_cost);
        let classes = view.class_costs();
        for ly in 0..h {
            if w == 0 {
                break;
            }
            let first = view
                .grid()
                .padded_index(Point::new(area.x, area.y + ly as u32));
            let row = &mut self.cell_cost[(ly + pad) * stride + pad..][..w];
            for (lx, c) in row.iter_mut().enumerate() {
                let class = view.cost_class_padded(first + lx);
                *c = classes.get(class as usize).copied().unwrap_or(pad_cost);
            }
        }
    }

    /// Opens node `n` with cost `g` (eager edges: the node's best is set).
    fn open(&mut self, n: u32, g: f64, hv: f64, parent: u32, edge: u32) {
        self.nodes.open(n, g);
        self.push(n, g, hv, parent, edge);
    }

    fn push(&mut self, node: u32, g: f64, hv: f64, parent: u32, edge: u32) {
        self.heap.push(Queued::new(g + hv, g, node, parent, edge));
    }
}

/// Grid distances to the goal inside a search's area, found on demand:
/// fifths of a cell (5 a straight step, 7 a diagonal one), 8 moves over
/// passable cells inside the area, a diagonal step only when both cells
/// beside it are passable (a disc of positive radius crossing the corner
/// would touch them); [`UNREACHED`] where no path leads.
///
/// How: an A* from the goal towards the start cell, by the octile
/// distance to the start in the same units (consistent), resumed each
/// time a cell it has not closed is asked for (a reverse resumable A*):
/// a closed cell's distance is exact. A directional search asks for the
/// cells around its way, so the guide covers the band the A* closes on
/// its way to the start plus the cells asked for, not the whole area.
/// Open list: a ring of 16 buckets by f (a step raises f by at most 14).
/// Passability is read from a copy of the area's obstacle bitmap (the
/// search loop holds its own borrow of the original while it asks; the
/// copy is one word per 64 cells) as
/// [`DirectionalSearch::prepare`] loads it (rows of `row_words` words,
/// padded by [`MAX_EXTENT`] blocked cells on every side, so the cells
/// beside the area read as blocked). Cost: O(area cells) to reset (4
/// bytes a cell), then O(1) per cell closed, one load and a test per cell
/// asked for once closed; allocation-free once it has served an area as
/// large.
#[derive(Debug, Default)]
struct Guide {
    bits: Vec<u64>,
    row_words: usize,
    w: usize,
    /// Per cell: the exact distance once closed; with [`GUIDE_OPEN`] set
    /// while open (the best distance so far) or unreached ([`UNREACHED`]).
    dist: Vec<u32>,
    buckets: Vec<Vec<u32>>,
    /// The start cell (area coordinates): the A*'s target.
    to: (usize, usize),
    /// The smallest f of the open cells.
    f: u32,
    pending: usize,
    /// Whether a cell asked for was found unreached since the reset.
    unreached_asked: bool,
}

/// Buckets of the guide's ring (a power of two above the largest rise of
/// f in one step, 14).
const GUIDE_RING: usize = 16;
/// The bit of a guide distance that is not final yet (its cell open or
/// unreached), so that a closed cell's distance is one load and one test.
const GUIDE_OPEN: u32 = 1 << 31;

impl Guide {
    /// Starts the guide of an area of `w` × `h` cells whose obstacle
    /// bitmap is `blocked` (see [`Guide`]): distances to `goal`, the A*
    /// aimed at `start` (both area coordinates; a goal outside the area or
    /// blocked leaves every cell unreached).
    fn reset(
        &mut self,
        blocked: &[u64],
        row_words: usize,
        (w, h): (usize, usize),
        goal: (i64, i64),
        start: (usize, usize),
    ) {
        self.bits.clear();
        self.bits.extend_from_slice(blocked);
        self.row_words = row_words;
        self.w = w;
        self.dist.clear();
        self.dist.resize(w * h, UNREACHED);
        self.buckets.resize_with(GUIDE_RING, Vec::new);
        self.buckets.iter_mut().for_each(Vec::clear);
        self.to = start;
        self.f = 0;
        self.pending = 0;
        self.unreached_asked = false;
        let (gx, gy) = goal;
        if gx < 0 || gy < 0 || gx >= w as i64 || gy >= h as i64 {
            return;
        }
        let first = gy as usize * w + gx as usize;
        if !self.free(first % w, first / w) {
            return;
        }
        self.dist[first] = GUIDE_OPEN;
        self.f = self.octile(first);
        self.buckets[self.f as usize % GUIDE_RING].push(first as u32);
        self.pending = 1;
    }

    /// Whether area cell (`x`, `y`) is passable (one cell beyond the area
    /// on each side reads the padding: blocked).
    #[inline]
    fn free(&self, x: usize, y: usize) -> bool {
        let (px, py) = (x + MAX_EXTENT as usize, y + MAX_EXTENT as usize);
        (self.bits[py * self.row_words + px / 64] >> (px % 64)) & 1 == 0
    }

    /// The octile distance from cell index `i` to the start, in guide units.
    #[inline]
    fn octile(&self, i: usize) -> u32 {
        let (x, y) = (i % self.w, i / self.w);
        let dx = x.abs_diff(self.to.0) as u32;
        let dy = y.abs_diff(self.to.1) as u32;
        GUIDE_STRAIGHT * dx.max(dy) + (GUIDE_DIAGONAL - GUIDE_STRAIGHT) * dx.min(dy)
    }

    /// The grid distance from area cell (`x`, `y`) to the goal (exact),
    /// resuming the A* until it closes the cell; [`UNREACHED`] when it
    /// runs out of cells first.
    #[inline]
    fn at(&mut self, x: usize, y: usize) -> u32 {
        let i = y * self.w + x;
        let d = self.dist[i];
        if d & GUIDE_OPEN == 0 {
            return d;
        }
        let d = self.resume(i);
        self.unreached_asked |= d == UNREACHED;
        d
    }

    fn resume(&mut self, target: usize) -> u32 {
        let w = self.w;
        let wi = w as isize;
        while self.pending > 0 {
            let Some(i) = self.buckets[self.f as usize % GUIDE_RING].pop() else {
                self.f += 1;
                continue;
            };
            self.pending -= 1;
            let i = i as usize;
            if self.dist[i] & GUIDE_OPEN == 0 {
                continue;
            }
            self.dist[i] &= !GUIDE_OPEN;
            let d = self.dist[i];
            let (x, y) = (i % w, i / w);
            // The four sides first: a diagonal step needs both beside it.
            // The padding reads as blocked, so x − 1 and y − 1 wrap only
            // where the cell beside is read as blocked first.
            let east = self.free(x + 1, y);
            let west = x > 0 && self.free(x - 1, y);
            let south = self.free(x, y + 1);
            let north = y > 0 && self.free(x, y - 1);
            let straight = d + GUIDE_STRAIGHT;
            let diagonal = d + GUIDE_DIAGONAL;
            for (step, open, nd) in [
                (1, east, straight),
                (-1, west, straight),
                (wi, south, straight),
                (-wi, north, straight),
                (wi + 1, east && south && self.free(x + 1, y + 1), diagonal),
                (1 - wi, east && north && self.free(x + 1, y - 1), diagonal),
                (wi - 1, west && south && self.free(x - 1, y + 1), diagonal),
                (-wi - 1, west && north && self.free(x - 1, y - 1), diagonal),
            ] {
                if !open {
                    continue;
                }
                let j = (i as isize + step) as usize;
                // A closed cell's distance is final (the octile distance
                // is consistent); an open or unreached one compares
                // without its bit.
                let old = self.dist[j];
                if old & GUIDE_OPEN != 0 && nd < old & !GUIDE_OPEN {
                    self.dist[j] = nd | GUIDE_OPEN;
                    let f = nd + self.octile(j);
                    self.buckets[f as usize % GUIDE_RING].push(j as u32);
                    self.pending += 1;
                }
            }
            if i == target {
                return d;
            }
        }
        UNREACHED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ordered` keeps `total_cmp`'s order and `unordered` undoes it, on
    /// signed zeros, infinities, subnormals and ordinary costs.
    #[test]
    fn ordered_bits_keep_the_order_of_costs() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -f64::MIN_POSITIVE / 4.0,
            -0.0,
            0.0,
            f64::MIN_POSITIVE / 4.0,
            1e-9,
            1.0,
            1.0 + f64::EPSILON,
            std::f64::consts::PI,
            1e300,
            f64::INFINITY,
        ];
        for a in xs {
            assert_eq!(unordered(ordered(a)).to_bits(), a.to_bits());
            for b in xs {
                assert_eq!(ordered(a).cmp(&ordered(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }

    /// The guide's distances, asked for in a scrambled order, are a
    /// plain Dijkstra's over the area (8 moves, steps 5 and 7, no corner
    /// cut, cells outside the area blocked), on random grids and areas
    /// that touch the map's edge or not.
    #[test]
    fn the_guide_matches_a_dijkstra_over_the_area() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let steering = Arc::new(Steering::new(crate::VehicleSpec::new(2.0, 0.4)).unwrap());
        let mut search = DirectionalSearch::new(steering);
        let mut guide = Guide::default();
        let mut unreached = 0;
        for round in 0..40 {
            let (gw, gh) = (20 + next(60) as u32, 20 + next(60) as u32);
            let density = [10, 25, 40][round % 3];
            let rows: Vec<String> = (0..gh)
                .map(|_| {
                    (0..gw)
                        .map(|_| if next(100) < density { '@' } else { '.' })
                        .collect()
                })
                .collect();
            let grid = Grid::from_rows(&rows).unwrap();
            let (ax, ay) = (next(gw as u64 / 3) as u32, next(gh as u64 / 3) as u32);
            let area = Area {
                x: ax,
                y: ay,
                width: gw - ax - next(gw as u64 / 3) as u32,
                height: gh - ay - next(gh as u64 / 3) as u32,
            };
            let (w, h) = (area.width as usize, area.height as usize);
            search.prepare(&grid, &area, w * h * 16);
            let goal = (next(w as u64) as i64, next(h as u64) as i64);
            let start = (next(w as u64) as usize, next(h as u64) as usize);
            guide.reset(&search.blocked, search.row_words, (w, h), goal, start);
            // The oracle.
            let open = |x: i64, y: i64| {
                x >= 0
                    && y >= 0
                    && x < w as i64
                    && y < h as i64
                    && grid.is_passable_i(x + ax as i64, y + ay as i64)
            };
            let mut dist = vec![UNREACHED; w * h];
            let mut heap = BinaryHeap::new();
            if open(goal.0, goal.1) {
                dist[goal.1 as usize * w + goal.0 as usize] = 0;
                heap.push(std::cmp::Reverse((0u32, goal.0, goal.1)));
            }
            while let Some(std::cmp::Reverse((d, x, y))) = heap.pop() {
                if d > dist[y as usize * w + x as usize] {
                    continue;
                }
                for (dx, dy) in [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (1, -1),
                    (-1, 1),
                    (-1, -1),
                ] {
                    let diagonal = dx != 0 && dy != 0;
                    if !open(x + dx, y + dy) || diagonal && !(open(x + dx, y) && open(x, y + dy)) {
                        continue;
                    }
                    let nd = d + if diagonal { 7 } else { 5 };
                    let j = (y + dy) as usize * w + (x + dx) as usize;
                    if nd < dist[j] {
                        dist[j] = nd;
                        heap.push(std::cmp::Reverse((nd, x + dx, y + dy)));
                    }
                }
            }
            let mut order: Vec<usize> = (0..w * h).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next(i as u64 + 1) as usize);
            }
            for i in order {
                assert_eq!(guide.at(i % w, i / w), dist[i], "round {round}, cell {i}");
            }
            unreached += dist.iter().filter(|&&d| d == UNREACHED).count();
        }
        assert!(unreached > 0, "some cell of some area is cut off");
    }

    /// The heap pops the smaller `f`, then the larger `g`, then the
    /// smaller node, and gives back `f` and `g` exactly.
    #[test]
    fn queued_entries_pop_in_the_search_order() {
        let mut heap = BinaryHeap::new();
        let items = [
            (3.0, 1.0, 7),
            (2.0, 0.5, 9),
            (2.0, 1.5, 8),
            (2.0, 1.5, 4),
            (0.1 + 0.2, 0.3, 1),
        ];
        for (f, g, n) in items {
            heap.push(Queued::new(f, g, n, 0, 0));
        }
        let popped: Vec<(f64, f64, u32)> = std::iter::from_fn(|| {
            heap.pop().map(|q| {
                let e = q.entry();
                (e.f, e.g, e.node)
            })
        })
        .collect();
        assert_eq!(
            popped,
            [
                (0.1 + 0.2, 0.3, 1),
                (2.0, 1.5, 4),
                (2.0, 1.5, 8),
                (2.0, 0.5, 9),
                (3.0, 1.0, 7)
            ]
        );
    }
}
