//! The vehicle mode of [`crate::Planner`]: the smoothed path's curve with
//! blocked turns repaired by the directional search (Pinter's hybrid).

use crate::{Config, Error};
use regionpath_grid::{Grid, Point, ProfileGrid};
use regionpath_search::{Status, Window, WindowedJps};
use regionpath_smoothing::{
    curve_into, ease_corners, CurveError, CurveScratch, CurveSegment, CurvedPath, EaseScratch,
    SmoothOptions, Smoother, TurnOptions, TurnPolicy, Vec2,
};
use regionpath_vehicle::{
    check_curve, Area, DirectionalSearch, Escape, Goal, Limits, Neighbourhood, Outcome, Pose,
    Reverse, Start, Steering, Track, VehicleSpec,
};
use std::f64::consts::{PI, TAU};
use std::sync::Arc;

/// Largest turning radius the directional repair serves (its tables reach
/// at most 31 cells); above it the vehicle mode curves the smoothed path
/// only, failing on a blocked turn. Its searches turn in every direction
/// up to a radius of 4 (Directional-48 above 2.5); between 4 and this
/// bound their primitives turn only as loops over the length bound, so
/// repairs there seldom succeed.
pub const MAX_REPAIR_RADIUS: f32 = 8.0;

/// Node budget of one local repair search.
const LOCAL_BUDGET: u32 = 20_000;
/// Heuristic weight of a local repair (its curve at most this many times
/// the shortest chain of primitives over the stretch).
const LOCAL_WEIGHT: f32 = 1.5;
/// Heuristic weight of the search over the whole path's box and of a
/// detour.
const GLOBAL_WEIGHT: f32 = 1.2;
/// Node budget of the search over the whole path's box.
const GLOBAL_BUDGET: u32 = 150_000;
/// Reach of a detour along the curve beyond a stretch the nearer repairs
/// could not mend: this many turning radii plus
/// [`DETOUR_REACH_CELLS`].
const DETOUR_REACH_RADII: f64 = 8.0;
/// See [`DETOUR_REACH_RADII`].
const DETOUR_REACH_CELLS: f64 = 16.0;
/// Margin of a detour's box around its stretch, and of the search over
/// the whole path's box: this many turning radii plus
/// [`DETOUR_MARGIN_CELLS`] (room to go round a gap the radius cannot turn
/// through, e.g. round a block of a city map).
const DETOUR_MARGIN_RADII: f64 = 8.0;
/// See [`DETOUR_MARGIN_RADII`].
const DETOUR_MARGIN_CELLS: f64 = 16.0;
/// Node budget of the search from the goal backwards that finds a goal
/// in a pocket before the search over the whole path's box
/// (`VehicleCurver::goal_in_pocket`).
const POCKET_BUDGET: u32 = 2_000;
/// Node budget of the searches that find a start or goal in a small
/// pocket before easing and repairing (`VehicleCurver::end_in_pocket`).
const END_POCKET_BUDGET: u32 = 2_000;
/// Unit radius of the end-pocket checks' primitives: a point, whose
/// primitives pass wherever the unit's do, and through some gaps a curve
/// of continuous headings threads but the unit's primitives do not.
const POCKET_UNIT_RADIUS: f32 = 0.0;
/// Node budget of a detour search.
const DETOUR_BUDGET: u32 = 20_000;
/// Node budget of the search over the whole path's box when it runs
/// before the repairs ([`DENSE_SPACING_RADII`]), per cell of the path:
/// at least [`DETOUR_BUDGET`], at most [`GLOBAL_BUDGET`]. Where it runs
/// out (a curve the box's search does not reach, e.g. round a city block
/// the wide path finds), the repairs and the wide path are cheaper than
/// the rest of [`GLOBAL_BUDGET`].
const DENSE_BUDGET_PER_CELL: u32 = 256;
/// Mean spacing of illegal turns along a rounded curve, in turning
/// radii, below which the search over the whole path's box runs before
/// the local repairs. Repairs reach 2R + 2 to 8R + 16 cells beyond their
/// turn, so closer turns make them overlap, fail and escalate; one search
/// along the whole way then costs fewer expansions and finds a shorter
/// curve. Below 12 radii (R = 2, every 8th row; `benches/PROFILES.md`
/// P77): every row of random512-25 and 203 of 239 of 8room (one-cell
/// doors), 6 of 186 of random512-10, 5 of 726 of maze512-8 and none of
/// Berlin_0_1024's, where the repairs are cheaper.
const DENSE_SPACING_RADII: f64 = 12.0;

/// The margin of a detour's box for turning radius `big_r` (cells).
fn detour_margin(big_r: f64) -> u32 {
    (DETOUR_MARGIN_RADII * big_r + DETOUR_MARGIN_CELLS).ceil() as u32
}

/// Largest area the wide-path stage searches, in cells (its jump point
/// search keeps about 16 bytes of scratch per cell: at most 64 MB).
const WIDE_MAX_CELLS: u64 = 1 << 22;

/// The margin of the wide-path stage's box around the path on maps larger
/// than [`WIDE_MAX_CELLS`]: four detour margins (room to go round a block).
fn wide_margin(big_r: f64) -> u32 {
    4 * detour_margin(big_r)
}

/// How far (Chebyshev, cells) from the start and the goal the wide-path
/// stage keeps narrow cells open: 2R + 2, the reach of a near repair.
fn wide_open(big_r: f64) -> u32 {
    (2.0 * big_r + 2.0).ceil() as u32
}

/// Fills `mask` with one bit per cell of `area` of `grid`, row-major
/// (`(y − area.y) · area.width + (x − area.x)`, as
/// [`WindowedJps::find_path_masked_into`] reads it): set for the cells
/// whose eight neighbours are all passable (cells off the map count as
/// blocked), and for every passable cell within `open` (Chebyshev) of one
/// of `ends`. `row` is scratch. O(area cells / 64) word operations; no
/// allocation once `mask` and `row` have served an area as large.
fn wide_mask(
    grid: &Grid,
    area: &Area,
    ends: [Point; 2],
    open: u32,
    row: &mut Vec<u64>,
    mask: &mut Vec<u64>,
) {
    let cells = area.width as usize * area.height as usize;
    mask.clear();
    mask.resize(cells.div_ceil(64) + 1, 0);
    let words = (area.width as usize).div_ceil(64);
    row.clear();
    row.resize(words, 0);
    // Passability of the 64 cells of row `y` from column `x` (bit i is
    // x + i), cells off the map blocked.
    let bits = |x: i64, y: i64| -> u64 {
        if y < 0 || y >= grid.height() as i64 || x >= grid.width() as i64 || x <= -64 {
            return 0;
        }
        if x < 0 {
            return grid.row_bits(0, y as u32, 64) << (-x) as u32;
        }
        grid.row_bits(x as u32, y as u32, 64)
    };
    // Cells whose three cells x − 1, x, x + 1 of row `y` are passable.
    let three = |x: i64, y: i64| bits(x - 1, y) & bits(x, y) & bits(x + 1, y);
    for ly in 0..area.height as usize {
        let y = area.y as i64 + ly as i64;
        for (k, word) in row.iter_mut().enumerate() {
            let x = area.x as i64 + 64 * k as i64;
            let mut w = three(x, y - 1) & three(x, y) & three(x, y + 1);
            for e in ends {
                let (ex, ey) = (e.x as i64, e.y as i64);
                if (y - ey).abs() > open as i64 {
                    continue;
                }
                // Columns ex − open ..= ex + open, as bits of this word.
                let (lo, hi) = (ex - open as i64 - x, ex + open as i64 - x);
                if hi < 0 || lo > 63 {
                    continue;
                }
                let (lo, hi) = (lo.max(0) as u32, hi.min(63) as u32);
                let span = if hi - lo == 63 {
                    u64::MAX
                } else {
                    ((1u64 << (hi - lo + 1)) - 1) << lo
                };
                w |= bits(x, y) & span;
            }
            // Cells past the area's right edge are not the area's.
            let left = area.width as usize - 64 * k;
            if left < 64 {
                w &= (1u64 << left) - 1;
            }
            *word = w;
        }
        // The row's bits into the mask from bit ly · width.
        let base = ly * area.width as usize;
        for (k, &w) in row.iter().enumerate() {
            let at = base + 64 * k;
            let (i, sh) = (at / 64, at % 64);
            mask[i] |= w << sh;
            if sh != 0 {
                mask[i + 1] |= w >> (64 - sh);
            }
        }
    }
}

/// How one repair search of a stretch runs: its box's margin around the
/// stretch, its node budget and whether the grid distance guides it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Search {
    margin: u32,
    budget: u32,
    weight: f32,
    guided: bool,
}

impl Search {
    /// A repair near its turn: the stretch's box plus 2R + 3 cells,
    /// [`LOCAL_BUDGET`], [`LOCAL_WEIGHT`], unguided (the box is small).
    fn near(big_r: f64) -> Search {
        Search {
            margin: (2.0 * big_r + 3.0).ceil() as u32,
            budget: LOCAL_BUDGET,
            weight: LOCAL_WEIGHT,
            guided: false,
        }
    }

    /// A detour: the stretch's box plus [`detour_margin`], [`DETOUR_BUDGET`],
    /// weight [`GLOBAL_WEIGHT`], guided by the grid distance (which leads
    /// round the walls of the wide box instead of flooding it).
    fn detour(big_r: f64) -> Search {
        Search {
            margin: detour_margin(big_r),
            budget: DETOUR_BUDGET,
            weight: GLOBAL_WEIGHT,
            guided: true,
        }
    }
}

/// How many times wider than [`detour_margin`] the margin of the last box
/// searched is (a search over the path's box that ran out of nodes proves
/// only that the curve leaves the box), and how many times the first
/// box's expansions it may spend (at least [`DETOUR_BUDGET`]). Every 8th
/// row, R = 2: one more row of random512-25-0's 230 curved (a loop of 162
/// cells for a point path of 67; its other 43 failures have no curve at
/// all); R = 4, r = 1, every 16th row: 4 more rows (AR0602SR, Paris_1_256).
/// Not searched where the first box's search proved that no curve exists
/// ([`DirectionalSearch::may_leave_area`]): without that, queries with no
/// curve paid up to three times as much (ost003d's one: 2.9 → 10 ms;
/// `benches/PROFILES.md` P90).
const WIDER_BOX_FACTOR: u32 = 4;

/// Largest box of the search over the whole path, in cells; a larger box
/// is not searched. The search's per-cell scratch (the guide's grid
/// distances, 4 bytes a cell) stays within 64 MB; its per-node scratch
/// follows the nodes the 150 000 expansions touch (boxes of more than
/// [`CURVER_DENSE_LIMIT`] nodes use the paged node store), not the box.
const GLOBAL_MAX_CELLS: u64 = 1 << 24;

/// Cost of a change of direction when reversing, in turning radii: a cusp
/// costs as much as driving this many radii, so that of two routes of
/// about the same cost the one with fewer gear changes is taken.
pub const GEAR_CHANGE_RADII: f32 = 1.0;

/// Which stage of the vehicle mode gave the last curve of a
/// [`VehicleCurver`] ([`VehicleCurver::stage`]): how much of the hybrid a
/// query needed, for reports and tuning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CurveStage {
    /// No query yet, or the query failed before any stage ran (bad input).
    #[default]
    None,
    /// The smoothed path's rounded corners were legal as they were.
    Rounded,
    /// Every illegal stretch was replaced by a local directional repair.
    Repaired,
    /// The local repairs failed; the cell path planned again with room to
    /// turn (corridors at least three cells wide away from the ends),
    /// rounded and repaired, gave the curve.
    WidePath,
    /// The search over the whole path's box gave the curve (first where
    /// the illegal turns are dense, else after the stages above), or the
    /// one over a box four times wider after it ran out of nodes.
    WholeBox,
    /// No legal curve was found ([`Error::NoLegalCurve`]).
    Failed,
}

/// What [`VehicleCurver::whole_box`] gave.
enum BoxSearch {
    /// A curve, and the final check's verdict on it.
    Curve(Result<(), Error>),
    /// No chain of primitives joins the ends within the box (or the box
    /// is too large to search).
    NoChain,
    /// The search ran out of nodes in `area` after `expansions`: no chain
    /// of primitives joins the ends within that box, but one may leave it.
    Exhausted { area: Area, expansions: u32 },
    /// The budget ran out first.
    OutOfBudget,
}

/// The vehicle mode on its own: turns a cell path and its smoothed
/// waypoints into a legal curve for a vehicle (what [`crate::Planner`] does
/// in the vehicle mode, for paths from any planner). Holds the directional
/// search and a point-sized unit's for the pocket checks (their tables
/// built once, in [`VehicleCurver::new`]: a few milliseconds, about 1 MB
/// each for 16 headings; they allocate nothing once warm), the curves
/// being rounded and the splice buffers, all reused:
/// [`VehicleCurver::curve_into`] allocates nothing once warm (only
/// a curve the final check refuses formats its error message);
/// [`VehicleCurver::curve`] allocates just the returned curve.
#[derive(Debug)]
pub struct VehicleCurver {
    /// The directional search in use, its tables built for unit radius
    /// `search_radius`.
    search: DirectionalSearch,
    search_radius: f32,
    /// Searches built for other unit radii (units of other sizes, see
    /// [`VehicleCurver::curve_profiled_into`]), kept for later queries.
    spare: Vec<(f32, DirectionalSearch)>,
    /// The search of the end-pocket checks
    /// (`VehicleCurver::end_in_pocket`): a point-sized unit's primitives.
    pocket_search: DirectionalSearch,
    /// The waypoints moved into a profile's position space.
    shifted: Vec<Vec2>,
    bad: Vec<(f64, f64)>,
    bad_eased: Vec<(f64, f64)>,
    smoother: Smoother,
    /// The rounded curve's waypoints with their corners eased
    /// ([`ease_corners`]).
    eased: Vec<Vec2>,
    ease: EaseScratch,
    /// The rounded curve before easing, and its bad stretches.
    plain: CurvedPath,
    bad_plain: Vec<(f64, f64)>,
    scratch: CurveScratch,
    loose: CurvedPath,
    other: CurvedPath,
    pieces: Track,
    repair: Track,
    /// The wide-path stage's scratch (see [`WidePath`]).
    wide_path: WidePath,
    expansions: u64,
    stage: CurveStage,
    config: Config,
}

/// Scratch of the wide-path stage of [`VehicleCurver`]: the cell path
/// planned again on the grid with the cells beside walls closed, its
/// smoothed waypoints and the two rounded curves of its own pass (the
/// first pass's stay untouched for the search over the whole box).
#[derive(Default)]
struct WidePath {
    jps: WindowedJps,
    /// The area's cells a wide path may enter ([`wide_mask`]).
    mask: Vec<u64>,
    row: Vec<u64>,
    cells: Vec<Point>,
    waypoints: Vec<Vec2>,
    loose: CurvedPath,
    other: CurvedPath,
    /// Whether the wide path's own pass is running (it has no wide-path
    /// stage and no search over the whole box of its own).
    nested: bool,
}

impl std::fmt::Debug for WidePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WidePath")
            .field("jps_scratch_bytes", &self.jps.scratch_bytes())
            .field("cells", &self.cells.len())
            .field("nested", &self.nested)
            .finish_non_exhaustive()
    }
}

impl VehicleCurver {
    /// The curver for a configuration (validated first) in the vehicle
    /// mode: [`TurnPolicy::Strict`] and a turning radius in
    /// `(0, MAX_REPAIR_RADIUS]`; `Ok(None)` for any other configuration.
    pub fn new(config: &Config) -> Result<Option<VehicleCurver>, Error> {
        config.validate()?;
        let big_r = config.get_turning_radius();
        if !(big_r > 0.0 && big_r <= MAX_REPAIR_RADIUS)
            || config.get_turn_policy() != TurnPolicy::Strict
        {
            return Ok(None);
        }
        let steering = Arc::new(steering_for(config, config.get_unit_radius())?);
        let point = if config.get_unit_radius() == POCKET_UNIT_RADIUS {
            Arc::clone(&steering)
        } else {
            Arc::new(steering_for(config, POCKET_UNIT_RADIUS)?)
        };
        Ok(Some(VehicleCurver {
            search: curver_search(steering),
            search_radius: config.get_unit_radius(),
            spare: Vec::new(),
            pocket_search: DirectionalSearch::new(point),
            shifted: Vec::new(),
            bad: Vec::new(),
            bad_eased: Vec::new(),
            smoother: Smoother::new(),
            eased: Vec::new(),
            ease: EaseScratch::default(),
            plain: CurvedPath::default(),
            bad_plain: Vec::new(),
            scratch: CurveScratch::default(),
            loose: CurvedPath::default(),
            other: CurvedPath::default(),
            pieces: Track::new(),
            repair: Track::new(),
            wide_path: WidePath::default(),
            expansions: 0,
            stage: CurveStage::None,
            config: *config,
        }))
    }

    /// A legal curve for the vehicle along the smoothed `waypoints` of the
    /// cell path `cells`: the waypoints' corners rounded with the turning
    /// radius where that is legal, the corners where it is not first moved
    /// off the walls ([`ease_corners`]; the eased curve kept when fewer of
    /// its stretches are illegal), unless a turn that is not legal lies
    /// within 2R + 2 of an end that no chain of the search's primitives
    /// (for a point-sized unit) leaves by more than 4R + 6 cells: then the
    /// query fails at once (`VehicleCurver::end_in_pocket`); when the
    /// illegal stretches are denser than one per 12 turning radii of the
    /// curve, the search over the whole path's box described last runs
    /// first, with 256 expansions per cell of the path (20 000 to
    /// 150 000), unless the goal lies in a pocket
    /// (`VehicleCurver::goal_in_pocket`), and what follows runs only when
    /// it finds no curve; each stretch around a turn that is not (or
    /// around a start or goal heading the curve does not have) replaced
    /// by a directional search from a pose on the curve before it to a pose
    /// after it (2R + 2 along the curve beyond the turn), within their box
    /// plus 2R + 3 cells; a stretch whose search fails is searched once
    /// more reaching 4R + 6 beyond it, then, where the wide-path stage
    /// below will not run (under terrain costs, or when its area is too
    /// large), as a detour reaching 8R + 16
    /// beyond it within its box plus 8R + 16 cells, guided by the grid
    /// distance ([`DirectionalSearch::find_guided`], 20 000 expansions;
    /// the stretches repaired before it
    /// kept) and, when that fails too, every stretch searched again
    /// reaching 4R + 6; when a stretch still cannot be repaired, the query fails if
    /// no chain of primitives leaves the goal backwards by more than
    /// 8R + 16 cells ([`DirectionalSearch::escape`], 2 000 expansions: a
    /// goal in a pocket too narrow to turn in); else the cell path is
    /// planned again with room to turn (a jump point search from the
    /// first cell to the last entering only cells whose eight neighbours
    /// are all passable, but within 2R + 2 cells of either end; over the whole map up to 2²²
    /// cells, else the path's box plus 4 · (8R + 16) cells), smoothed for
    /// the unit radius, and its curve rounded and repaired the same way
    /// ([`CurveStage::WidePath`]); and when that fails too, one guided
    /// directional search over the whole path's box plus 8R + 16 cells (at
    /// most 2²⁴ cells, 150 000 expansions; its node scratch follows the
    /// nodes touched above 2²⁰ nodes), and where a search over that box
    /// (this one or the one for dense turns) runs out of nodes, one over
    /// the path's box plus 4 · (8R + 16) cells with four times the
    /// expansions it took (20 000 to 150 000): a curve that loops to turn
    /// far from the path. Turns short
    /// of the radius are found without searching for the largest radius
    /// each could take ([`TurnPolicy::Sharpen`]), and the cuts beside a
    /// repair keep at least a cell of any line they cut, so that no
    /// splice joins at a kink. The result is checked with [`check_curve`]
    /// before it is returned, and its pieces must join within 2·10⁻⁴ rad
    /// (a short `f32` line of a primitive can turn by more; such a curve
    /// is refused as [`Error::NoLegalCurve`]): never an illegal curve (a
    /// repaired curve the checks refuse falls back to the next stage).
    ///
    /// `cells` must be a path on `grid` (its ends are the curve's) and
    /// `waypoints` a polyline from the first cell's centre to the last's
    /// (as the smoother makes them). A segment the unit does not fit (a
    /// unit wider than the cells the path was planned for) skips the
    /// rounding and the repairs: the stages away from the path decide, and
    /// when they find nothing the error is [`Error::UnitTooWide`]. No legal
    /// curve otherwise is [`Error::NoLegalCurve`].
    ///
    /// With [`Config::reverse`] the directional searches may drive
    /// primitives backwards at the configured penalty (plus
    /// [`GEAR_CHANGE_RADII`] turning radii per change of direction); the
    /// returned curve marks those pieces ([`CurvedPath::is_reverse`]).
    pub fn curve(
        &mut self,
        grid: &Grid,
        cells: &[Point],
        waypoints: &[Vec2],
    ) -> Result<CurvedPath, Error> {
        let mut out = CurvedPath::default();
        self.curve_into(grid, cells, waypoints, &mut out)?;
        Ok(out)
    }

    /// [`VehicleCurver::curve`] into `out`, reusing its memory: once the
    /// curver and `out` have served a query of the same size, a query
    /// allocates nothing. On error `out` holds an unspecified path.
    pub fn curve_into(
        &mut self,
        grid: &Grid,
        cells: &[Point],
        waypoints: &[Vec2],
        out: &mut CurvedPath,
    ) -> Result<(), Error> {
        self.use_unit_radius(self.config.get_unit_radius())?;
        self.run(
            grid,
            None,
            cells,
            waypoints,
            self.config.get_unit_radius(),
            out,
        )
    }

    /// [`VehicleCurver::curve`] for a unit of a movement profile: `cells`
    /// a position path under the profile `view` was built for (as a
    /// hierarchy built with that profile returns it) and `waypoints` its
    /// smoothed polyline through footprint centres `(x + k/2, y + k/2)`
    /// (as [`Smoother::smooth_profiled`] makes it). The returned curve
    /// starts and ends at the footprint centres of the first and last
    /// positions, and every point of it keeps the configured unit radius
    /// `r` (at most `k / 2`, else [`Error::Config`]) clear of every
    /// cell the profile cannot enter and of the map's outline; every arc
    /// has the turning radius.
    ///
    /// How, for a unit of size `k` and `h = (k − 1) / 2`: the whole
    /// pipeline of [`VehicleCurver::curve`] (rounding, easing the corners,
    /// directional repair, final check) runs in *position space*, on
    /// `view.grid()` (whose passable cells are the usable positions), with
    /// the waypoints moved by `(−h, −h)` (onto position cell centres) and
    /// unit radius `ρ = max(r − h, 0)`; the curve found is moved back by
    /// `(+h, +h)`. Sound because a cell the profile cannot enter makes
    /// unusable every position whose footprint covers it, a `k × k` block
    /// of position cells, which in real coordinates is that cell inflated
    /// by `h` on every side: a point farther than `ρ` from the block is
    /// farther than `ρ + h ≥ r` from the cell (the Euclidean distance
    /// across a band of Chebyshev width `h` is at least `h`). The map's
    /// outline inflates the same way (positions whose footprint leaves the
    /// map are unusable). The rule is conservative by up to `(√2 − 1)·h`
    /// at a blocked cell's corners, where the inflated block's corner is
    /// farther out than a disc would reach. For `k = 1`, `h = 0`: exactly
    /// [`VehicleCurver::curve_into`] on `view.grid()`, but for the costs.
    ///
    /// Under a profile whose costs differ (`!view.is_uniform()`) every
    /// directional search of the repair, local or over the whole path's
    /// box, prices the terrain
    /// ([`DirectionalSearch::find_weighted`]: the cost of the position
    /// under the curve's centreline, integrated along it), so a repaired
    /// turn goes round dear terrain where the planned path does, instead
    /// of cutting through it for a shorter curve. A uniform profile's
    /// searches minimise length, as [`VehicleCurver::curve_into`]'s.
    ///
    /// The directional search's tables depend on the unit radius: the
    /// first query for a new `ρ` builds them (a few milliseconds, about
    /// 1 MB for 16 headings) and keeps them; after that a query allocates
    /// nothing once warm, as [`VehicleCurver::curve_into`]. On error `out`
    /// holds an unspecified path.
    pub fn curve_profiled_into(
        &mut self,
        view: &ProfileGrid,
        cells: &[Point],
        waypoints: &[Vec2],
        out: &mut CurvedPath,
    ) -> Result<(), Error> {
        let r = self.config.get_unit_radius();
        let k = view.size();
        if r > k as f32 / 2.0 {
            return Err(Error::Config {
                field: "unit_radius",
                value: r.to_string(),
                expected: "at most half the movement profile's unit size",
            });
        }
        let costs = (!view.is_uniform()).then_some(view);
        if k <= 1 {
            self.use_unit_radius(r)?;
            return self.run(view.grid(), costs, cells, waypoints, r, out);
        }
        let h = (k - 1) as f32 / 2.0;
        let rho = (r - h).max(0.0);
        self.use_unit_radius(rho)?;
        let mut shifted = std::mem::take(&mut self.shifted);
        shifted.clear();
        shifted.extend(waypoints.iter().map(|&w| w - Vec2::new(h, h)));
        let result = self.run(view.grid(), costs, cells, &shifted, rho, out);
        self.shifted = shifted;
        result?;
        out.translate(Vec2::new(h, h));
        Ok(())
    }

    /// [`VehicleCurver::curve_profiled_into`], the curve returned (its
    /// memory the only allocation once warm).
    pub fn curve_profiled(
        &mut self,
        view: &ProfileGrid,
        cells: &[Point],
        waypoints: &[Vec2],
    ) -> Result<CurvedPath, Error> {
        let mut out = CurvedPath::default();
        self.curve_profiled_into(view, cells, waypoints, &mut out)?;
        Ok(out)
    }

    /// Makes the directional search in use the one for unit radius `r`:
    /// kept from an earlier query, or built now (and kept).
    fn use_unit_radius(&mut self, r: f32) -> Result<(), Error> {
        if self.search_radius.to_bits() == r.to_bits() {
            return Ok(());
        }
        let search = match self
            .spare
            .iter()
            .position(|(radius, _)| radius.to_bits() == r.to_bits())
        {
            Some(i) => self.spare.swap_remove(i).1,
            None => curver_search(Arc::new(steering_for(&self.config, r)?)),
        };
        let old = std::mem::replace(&mut self.search, search);
        self.spare.push((self.search_radius, old));
        self.search_radius = r;
        Ok(())
    }

    /// Runs [`VehicleCurver::curve_with`] for unit radius `r` (the search
    /// in use must be the one for `r`), with the two rounded curves'
    /// buffers taken out of `self`; `costs` (the view of `grid`) prices the
    /// directional searches.
    fn run(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        cells: &[Point],
        waypoints: &[Vec2],
        r: f32,
        out: &mut CurvedPath,
    ) -> Result<(), Error> {
        let mut loose = std::mem::take(&mut self.loose);
        let mut other = std::mem::take(&mut self.other);
        let result = self.curve_with(
            grid, costs, cells, waypoints, r, &mut loose, &mut other, out,
        );
        self.loose = loose;
        self.other = other;
        result
    }

    /// The body of [`VehicleCurver::curve_into`] for unit radius `r`, with
    /// the two rounded curves' buffers taken out of `self`; `costs` (the
    /// view of `grid`) prices the directional searches.
    #[allow(clippy::too_many_arguments)]
    fn curve_with(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        cells: &[Point],
        waypoints: &[Vec2],
        r: f32,
        loose: &mut CurvedPath,
        other: &mut CurvedPath,
        out: &mut CurvedPath,
    ) -> Result<(), Error> {
        let config = self.config;
        self.expansions = 0;
        self.stage = CurveStage::None;
        let big_r = config.get_turning_radius();
        let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
            return Err(CurveError::Empty.into());
        };
        let start_heading = config.get_start_heading().map(|d| (d as f64).to_radians());
        let goal_heading = config.get_goal_heading().map(|d| (d as f64).to_radians());
        let opts = TurnOptions {
            turning_radius: big_r,
            unit_radius: r,
            // Every turn short of the radius is repaired: no need to
            // search for the largest radius it could take.
            policy: TurnPolicy::Sharpen,
        };
        let start_goal = (
            match start_heading {
                Some(h) => Start::Pose(Pose::new(first.x as f64 + 0.5, first.y as f64 + 0.5, h)),
                None => Start::Cell(first),
            },
            match goal_heading {
                Some(h) => Goal::Pose(Pose::new(last.x as f64 + 0.5, last.y as f64 + 0.5, h)),
                None => Goal::Cell(last),
            },
        );
        match curve_into(grid, waypoints, &opts, &mut self.scratch, loose) {
            Ok(()) => {}
            // The path squeezes through a passage narrower than the unit
            // (a unit wider than the cells the hierarchy planned for): no
            // curve follows it, but one may go round by a wider way. The
            // stages that plan away from the path decide; when they find
            // nothing the passage is still the reason given.
            Err(CurveError::SegmentBlocked { segment }) => {
                if self.wide_path.nested {
                    self.stage = CurveStage::Failed;
                    return Err(Error::UnitTooWide { segment });
                }
                return match self.away_from_path(
                    grid,
                    costs,
                    cells,
                    start_goal,
                    r,
                    (None, None, None),
                    out,
                ) {
                    Err(Error::NoLegalCurve { .. }) => Err(Error::UnitTooWide { segment }),
                    other => other,
                };
            }
            Err(e) => return Err(e.into()),
        }
        collect_bad(loose, big_r, start_heading, goal_heading, &mut self.bad);
        if !self.wide_path.nested && self.end_in_pocket(grid, start_goal, loose)? {
            self.stage = CurveStage::Failed;
            return Err(Error::NoLegalCurve {
                expansions: self.expansions,
            });
        }
        // Whether `loose` is the eased curve (the one before easing then in
        // `self.plain`, its bad stretches in `self.bad_plain`).
        let mut eased = false;
        if has_inner(&self.bad, loose) {
            // Corners moved off the walls take the radius more often:
            // each saves a directional search.
            self.eased.clear();
            self.eased.extend_from_slice(waypoints);
            if ease_corners(grid, &mut self.eased, &opts, &mut self.ease) > 0
                && curve_into(grid, &self.eased, &opts, &mut self.scratch, other).is_ok()
            {
                collect_bad(
                    other,
                    big_r,
                    start_heading,
                    goal_heading,
                    &mut self.bad_eased,
                );
                if self.bad_eased.len() < self.bad.len() {
                    self.plain.clone_from(loose);
                    self.bad_plain.clone_from(&self.bad);
                    loose.clone_from(other);
                    self.bad.clone_from(&self.bad_eased);
                    eased = true;
                }
            }
        }
        let single = loose.segments().is_empty();
        if self.bad.is_empty() {
            self.stage = CurveStage::Rounded;
            out.clone_from(loose);
            let checked = self.checked(grid, out, big_r, r);
            if checked.is_ok() || !eased {
                return checked;
            }
            // The eased curve refused by the checks (a clearance or a
            // joint at their tolerance): the curve before easing, repaired.
            loose.clone_from(&self.plain);
            self.bad.clone_from(&self.bad_plain);
        }
        // Illegal turns packed closer than DENSE_SPACING_RADII radii apart
        // along the curve: their repairs would overlap and escalate, so
        // one search over the whole path's box runs first, on a budget
        // that follows the path's length (unless the goal lies in a pocket
        // no chain of primitives leaves: then no search finds a curve).
        // The repairs and the later stages still run when it finds
        // nothing; the box's search again only when the budget stopped it.
        // The box's search once it found no chain in the box
        // (`BoxSearch::NoChain` or `BoxSearch::Exhausted`).
        let mut box_searched = None;
        // The goal-pocket check's answer, once asked.
        let mut pocket = None;
        if !single
            && !self.wide_path.nested
            && (self.bad.len() as f64) * DENSE_SPACING_RADII * big_r as f64 > loose.length() as f64
            && !*pocket.insert(self.goal_in_pocket(grid, start_goal)?)
        {
            let budget = (cells.len() as u32)
                .saturating_mul(DENSE_BUDGET_PER_CELL)
                .clamp(DETOUR_BUDGET, GLOBAL_BUDGET);
            let margin = detour_margin(big_r as f64);
            match self.whole_box(
                grid,
                costs,
                cells,
                start_goal,
                r,
                Some(loose),
                (margin, budget, None),
                out,
            )? {
                BoxSearch::Curve(Ok(())) => return Ok(()),
                found @ (BoxSearch::NoChain | BoxSearch::Exhausted { .. }) => {
                    box_searched = Some(found)
                }
                BoxSearch::Curve(Err(_)) | BoxSearch::OutOfBudget => {}
            }
        }
        if !single {
            let (near, far) = (2.0 * big_r as f64 + 2.0, 4.0 * big_r as f64 + 6.0);
            // The detour (a wide box, guided, 20 000 expansions) only where
            // the wide-path stage will not follow: where it does, it curves
            // every row a failing repair would have sent to the detour, at
            // a fraction of a failed detour's cost (R = 2, every 8th row of
            // the 26 maps: the same 6,791 rows, 6 % less curve time,
            // Berlin_0_1024 −61 %; `benches/PROFILES.md` P81).
            let detour =
                costs.is_some() || self.wide_path.nested || self.wide_area(grid, cells).is_none();
            // First each stretch near its turn, widened alone where that
            // fails; then every stretch far from its turn (other cuts
            // between the repairs), but only where the wide-path stage
            // will not follow: where it does, it curved the rows of the 26
            // maps the second pass failed at a sixth of that pass's cost
            // (R = 2, every 8th row: the same rows and lengths, Paris_1_256
            // −25 % curve time; `benches/PROFILES.md` P90).
            let passes = if detour { 2 } else { 1 };
            for (reaches, detour) in [([near, far], detour), ([far, far], false)]
                .into_iter()
                .take(passes)
            {
                // A repaired curve the final check refuses (a splice the
                // `f32` pieces cannot join within the check's tolerance)
                // is not returned: the next stage is tried instead.
                if self.repair_locally(
                    grid,
                    costs,
                    loose,
                    reaches,
                    detour,
                    (start_heading, goal_heading),
                )? && self.pieces.write_curve(out).is_ok()
                    && self.checked(grid, out, big_r, r).is_ok()
                {
                    self.stage = CurveStage::Repaired;
                    return Ok(());
                }
            }
        }
        if self.wide_path.nested {
            self.stage = CurveStage::Failed;
            return Err(Error::NoLegalCurve {
                expansions: self.expansions,
            });
        }
        self.away_from_path(
            grid,
            costs,
            cells,
            start_goal,
            r,
            (Some(loose), box_searched, pocket),
            out,
        )
    }

    /// The stages of [`VehicleCurver::curve_into`] that leave the cell
    /// path: the goal-pocket check, the cell path planned again with room
    /// to turn (without terrain costs; [`CurveStage::WidePath`]), then
    /// one search over the whole path's box ([`VehicleCurver::whole_box`]
    /// with [`GLOBAL_BUDGET`]; skipped when `box_searched`, that search's
    /// answer from earlier, found no chain in that box), and where that
    /// search ran out of nodes ([`BoxSearch::Exhausted`]), one over a box
    /// [`WIDER_BOX_FACTOR`] times wider round the path. `loose`: the rounded curve,
    /// when there is one (a search that needs no piece returns it);
    /// `pocket`: the goal-pocket check's answer when it was asked before.
    #[allow(clippy::too_many_arguments)]
    fn away_from_path(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        cells: &[Point],
        start_goal: (Start, Goal),
        r: f32,
        (loose, box_searched, pocket): (Option<&CurvedPath>, Option<BoxSearch>, Option<bool>),
        out: &mut CurvedPath,
    ) -> Result<(), Error> {
        let failed = |me: &mut Self| {
            me.stage = CurveStage::Failed;
            Err(Error::NoLegalCurve {
                expansions: me.expansions,
            })
        };
        let in_pocket = match pocket {
            Some(known) => known,
            None => self.goal_in_pocket(grid, start_goal)?,
        };
        if in_pocket {
            return failed(self);
        }
        if costs.is_none() {
            let spent = self.expansions;
            let found = self.curve_wide_path(grid, cells, r, out);
            self.expansions += spent;
            if found {
                self.stage = CurveStage::WidePath;
                return Ok(());
            }
        }
        let margin = detour_margin(self.config.get_turning_radius() as f64);
        let first = match box_searched {
            Some(known) => known,
            None => self.whole_box(
                grid,
                costs,
                cells,
                start_goal,
                r,
                loose,
                (margin, GLOBAL_BUDGET, None),
                out,
            )?,
        };
        // Every chain within the box was tried: a curve, if any, leaves it
        // (a loop to turn beyond the margin). One wider box, on a budget of
        // a few times what that box took, so that a query without a curve
        // pays a bounded multiple of what it paid already.
        let (area, spent) = match first {
            BoxSearch::Curve(checked) => return checked,
            BoxSearch::Exhausted { area, expansions } => (area, expansions),
            BoxSearch::NoChain | BoxSearch::OutOfBudget => return failed(self),
        };
        let budget = spent
            .saturating_mul(WIDER_BOX_FACTOR)
            .clamp(DETOUR_BUDGET, GLOBAL_BUDGET);
        match self.whole_box(
            grid,
            costs,
            cells,
            start_goal,
            r,
            loose,
            (margin * WIDER_BOX_FACTOR, budget, Some(area)),
            out,
        )? {
            BoxSearch::Curve(checked) => checked,
            _ => failed(self),
        }
    }

    /// One directional search over the whole path's box with a wide margin
    /// (the curve may have to leave the path's neighbourhood to find room
    /// to turn: [`detour_margin`]), guided by the grid distance to the
    /// goal, at most `budget` expansions over at most [`GLOBAL_MAX_CELLS`]
    /// cells (a larger box is not searched: [`BoxSearch::NoChain`]), the
    /// box the path's plus `margin` cells each way (not searched when it
    /// is `searched`, a box whose search ran out of nodes: no chain). On
    /// a curve the stage is [`CurveStage::WholeBox`], else
    /// [`CurveStage::Failed`]. `loose`: the rounded curve, returned when
    /// the search needs no piece.
    #[allow(clippy::too_many_arguments)]
    fn whole_box(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        cells: &[Point],
        start_goal: (Start, Goal),
        r: f32,
        loose: Option<&CurvedPath>,
        (margin, budget, searched): (u32, u32, Option<Area>),
        out: &mut CurvedPath,
    ) -> Result<BoxSearch, Error> {
        let big_r = self.config.get_turning_radius();
        self.pieces.clear();
        self.stage = CurveStage::Failed;
        let area = Area::around(
            grid,
            cells.iter().map(|p| (p.x as f64 + 0.5, p.y as f64 + 0.5)),
            margin,
        );
        if area.width as u64 * area.height as u64 > GLOBAL_MAX_CELLS || Some(area) == searched {
            return Ok(BoxSearch::NoChain);
        }
        let limits = Limits {
            area: Some(area),
            max_expansions: budget,
            weight: GLOBAL_WEIGHT,
        };
        let outcome = directional(
            &mut self.search,
            grid,
            costs,
            true,
            start_goal,
            &limits,
            &mut self.pieces,
        )?;
        let (Outcome::Found { expansions, .. }
        | Outcome::NoPath { expansions }
        | Outcome::BudgetExhausted { expansions }) = outcome;
        self.expansions += expansions as u64;
        match outcome {
            Outcome::Found { .. } => {
                if self.pieces.is_empty() {
                    let Some(loose) = loose else {
                        return Ok(BoxSearch::NoChain);
                    };
                    out.clone_from(loose);
                } else {
                    self.pieces.write_curve(out)?;
                }
                self.stage = CurveStage::WholeBox;
                Ok(BoxSearch::Curve(self.checked(grid, out, big_r, r)))
            }
            // Nothing near the box's sides: no chain on the whole map.
            Outcome::NoPath { .. } if !self.search.may_leave_area() => Ok(BoxSearch::NoChain),
            Outcome::NoPath { expansions } => Ok(BoxSearch::Exhausted { area, expansions }),
            Outcome::BudgetExhausted { .. } => Ok(BoxSearch::OutOfBudget),
        }
    }

    /// Whether the start or the goal of `start_goal` lies in a small
    /// pocket: when the rounded curve `loose` has a stretch that is not
    /// legal within 2R + 2 of an end, [`DirectionalSearch::escape`] runs
    /// from that end (from the goal backwards: its heading turned round,
    /// as primitives driven backwards are primitives turned round) towards
    /// the other, within 4R + 6 cells and [`END_POCKET_BUDGET`]
    /// expansions, with a point-sized unit's primitives
    /// ([`POCKET_UNIT_RADIUS`]): once from the end cell facing anywhere,
    /// once from `loose`'s own pose there (a heading between the
    /// search's). `true` when both find the end enclosed: then no chain of
    /// the unit's primitives leaves that end's pocket either, so every
    /// repair from it fails, and so does the search over the whole box;
    /// the easing, the repairs and the later stages are skipped. A
    /// heuristic for the rounded curves (not the primitives', as for the
    /// wide-path stage skipped by `VehicleCurver::goal_in_pocket`): with
    /// the unit's own primitives the check took the curve of one row of
    /// the 17,430 on the 26 Moving AI maps (a curve weaving up a narrow
    /// passage at headings between the search's); with a point's it takes
    /// none (`benches/PROFILES.md` P73). Why: a start in a corridor too
    /// narrow to turn in (maze512-1, R = 2, r = 0.4) otherwise pays for
    /// easing and repairing the whole path before failing. Costs a few
    /// expansions where the end is open (the search stops at its first
    /// node 4R + 6 cells out), the pocket's nodes where it is not.
    fn end_in_pocket(
        &mut self,
        grid: &Grid,
        (start, goal): (Start, Goal),
        loose: &CurvedPath,
    ) -> Result<bool, Error> {
        let total = loose.length() as f64;
        let big_r = self.config.get_turning_radius() as f64;
        let near = 2.0 * big_r + 2.0;
        let distance = (4.0 * big_r + 6.0).ceil() as u32;
        let first_bad = self.bad.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
        let last_bad = self
            .bad
            .iter()
            .map(|b| b.1)
            .fold(f64::NEG_INFINITY, f64::max);
        let back = backwards((start, goal));
        // The rounded curve's own poses at its ends (its goal pose turned
        // round): where its heading is not one of the search's.
        let pose_at = |s: f32, turn: f64| {
            let (p, h) = loose.sample(s);
            Pose::new(p.x as f64, p.y as f64, h as f64 + turn)
        };
        let along = (
            match start {
                Start::Cell(_) => Some(Start::Pose(pose_at(0.0, 0.0))),
                Start::Pose(_) => None,
            },
            match goal {
                Goal::Cell(_) => Some(Start::Pose(pose_at(loose.length(), PI))),
                Goal::Pose(_) => None,
            },
        );
        for (check, (from, to), curve) in [
            (first_bad <= near, (start, goal), along.0),
            (last_bad >= total - near, back, along.1),
        ] {
            if !check {
                continue;
            }
            let mut enclosed = true;
            for from in [Some(from), curve].into_iter().flatten() {
                if !enclosed {
                    break;
                }
                let escape = self
                    .pocket_search
                    .escape(grid, from, to, distance, END_POCKET_BUDGET)
                    .map_err(|e| Error::Inconsistent {
                        reason: e.to_string(),
                    })?;
                match escape {
                    Escape::Enclosed { expansions } => {
                        self.expansions += expansions as u64;
                    }
                    Escape::Escaped { expansions } | Escape::BudgetExhausted { expansions } => {
                        self.expansions += expansions as u64;
                        enclosed = false;
                    }
                }
            }
            if enclosed {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether no chain of the unit's primitives leaves the goal of
    /// `start_goal` backwards: a [`DirectionalSearch::escape`] from the goal
    /// turned round (its heading, if any, plus π) towards the start, within
    /// 8R + 16 cells ([`detour_margin`]) and [`POCKET_BUDGET`] expansions,
    /// finds it enclosed. The primitives driven backwards are primitives
    /// turned round (their swept cells the same), so no search from the
    /// start reaches the goal then, anywhere: the search over the whole
    /// box would explore the start's side, up to [`GLOBAL_BUDGET`]
    /// expansions, where the goal's side is a small pocket (a goal in a
    /// dead end too narrow to turn in: random512-25, R = 2, r = 0.4). The
    /// wide-path stage, whose curves are not confined to the search's
    /// primitives, is skipped too: a heuristic (no row of the 26 Moving AI
    /// maps lost its curve to it, `benches/PROFILES.md` P72, P73). Costs a
    /// few dozen expansions where the goal is open (the search stops at its
    /// first node 8R + 16 cells out), at most [`POCKET_BUDGET`]. Also asked
    /// before the search over the whole box that runs ahead of the repairs
    /// where illegal turns are dense (the repairs, not confined to the
    /// primitives either, still run).
    fn goal_in_pocket(&mut self, grid: &Grid, (start, goal): (Start, Goal)) -> Result<bool, Error> {
        let back = backwards((start, goal));
        let big_r = self.config.get_turning_radius() as f64;
        let escape = self
            .search
            .escape(grid, back.0, back.1, detour_margin(big_r), POCKET_BUDGET)
            .map_err(|e| Error::Inconsistent {
                reason: e.to_string(),
            })?;
        Ok(match escape {
            Escape::Enclosed { expansions } => {
                self.expansions += expansions as u64;
                true
            }
            Escape::Escaped { expansions } | Escape::BudgetExhausted { expansions } => {
                self.expansions += expansions as u64;
                false
            }
        })
    }

    /// The area the wide-path stage searches for the cell path `cells`
    /// (see [`VehicleCurver::curve_wide_path`]): the whole map up to
    /// [`WIDE_MAX_CELLS`] cells, else the path's box plus [`wide_margin`];
    /// `None` when that is larger too (the stage is skipped). O(path).
    fn wide_area(&self, grid: &Grid, cells: &[Point]) -> Option<Area> {
        let big_r = self.config.get_turning_radius() as f64;
        let area = if grid.cell_count() <= WIDE_MAX_CELLS {
            Area::of_grid(grid)
        } else {
            Area::around(
                grid,
                cells.iter().map(|p| (p.x as f64 + 0.5, p.y as f64 + 0.5)),
                wide_margin(big_r),
            )
        };
        let cells_in = area.width as u64 * area.height as u64;
        (cells_in != 0 && cells_in <= WIDE_MAX_CELLS).then_some(area)
    }

    /// The wide-path stage: plans the cell path from the first of `cells`
    /// to the last again on `grid` with every cell that has a blocked cell
    /// (or the map's edge) among its eight neighbours closed, except within
    /// [`wide_open`] cells (Chebyshev) of either end, where the unit may
    /// have to start or stop in a narrow place; smooths it for unit radius
    /// `r`, and runs the rounding and the local repairs on it (not this
    /// stage, nor the search over the whole box). `true` with the curve
    /// in `out`; `false` when no such path exists or its pass gives no
    /// curve (`out` then holds an unspecified path). Why: a shortest cell
    /// path squeezes through gaps and round corners where the turning
    /// circle does not fit, and the
    /// legal curve then leaves the path's neighbourhood (round a city
    /// block); a path along corridors at least three cells wide usually
    /// has room for every turn (Berlin_0_1024, R = 2, r = 0.4, every 4th
    /// row: this stage curves all 44 rows that the search over the whole
    /// box left without a curve; `benches/PROFILES.md` P70). Costs a
    /// masked jump point search ([`WindowedJps`], a few times faster
    /// than the A* on open city maps; its stricter corner rule inside the
    /// mask is no loss here) over the searched area (the whole map up to
    /// [`WIDE_MAX_CELLS`] cells, else the path's box plus
    /// [`wide_margin`], skipped when that is larger too), about 16 bytes
    /// of scratch per area cell and a bit per cell for the mask, kept,
    /// plus the rounding and repairs of the new path; no allocation once
    /// warm.
    fn curve_wide_path(
        &mut self,
        grid: &Grid,
        cells: &[Point],
        r: f32,
        out: &mut CurvedPath,
    ) -> bool {
        let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
            return false;
        };
        let big_r = self.config.get_turning_radius() as f64;
        let Some(area) = self.wide_area(grid, cells) else {
            return false;
        };
        let wide = &mut self.wide_path;
        wide_mask(
            grid,
            &area,
            [first, last],
            wide_open(big_r),
            &mut wide.row,
            &mut wide.mask,
        );
        let window = Window {
            x: area.x,
            y: area.y,
            width: area.width,
            height: area.height,
        };
        let found = wide
            .jps
            .find_path_masked_into(grid, window, first, last, &wide.mask, &mut wide.cells)
            .is_ok_and(|s| s.status == Status::Found);
        let opts = SmoothOptions::with_radius(r);
        if !found
            || self
                .smoother
                .smooth(grid, &wide.cells, &opts, &mut wide.waypoints)
                .is_err()
        {
            return false;
        }
        // The new path's own pass, with the buffers taken out (none of
        // them allocates when taken).
        let (cells, waypoints) = (
            std::mem::take(&mut wide.cells),
            std::mem::take(&mut wide.waypoints),
        );
        let (mut loose, mut other) = (
            std::mem::take(&mut wide.loose),
            std::mem::take(&mut wide.other),
        );
        wide.nested = true;
        let result = self.curve_with(
            grid, None, &cells, &waypoints, r, &mut loose, &mut other, out,
        );
        let wide = &mut self.wide_path;
        wide.nested = false;
        (wide.cells, wide.waypoints, wide.loose, wide.other) = (cells, waypoints, loose, other);
        // Whatever stopped the new path's pass (no legal curve, or a
        // curve its checks refused), the search over the whole box is
        // still to try.
        result.is_ok()
    }

    /// Replaces each bad stretch of `loose` (widened by `reaches[0]` each
    /// way, overlapping ones merged) by a directional search; the spliced
    /// pieces in `self.pieces`. A stretch whose search fails is widened
    /// once more, to `reaches[1]` each way when that is farther (absorbing the stretches it then
    /// overlaps; when it reaches back into the last repaired stretch, that
    /// repair is undone and both are searched as one) and searched again;
    /// with `detour`, a stretch that still fails is widened to the
    /// detour's reach and searched as a detour ([`Search::detour`]); the
    /// other stretches already repaired are kept, not searched again.
    /// `ends`: the start and goal headings asked for.
    /// `Ok(false)` when a stretch cannot be repaired.
    fn repair_locally(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        loose: &CurvedPath,
        reaches: [f64; 2],
        detour: bool,
        ends: (Option<f64>, Option<f64>),
    ) -> Result<bool, Error> {
        let total = loose.length() as f64;
        let start_heading = ends.0;
        let spec_r = self.search.steering().spec().turning_radius;
        let detour_reach = DETOUR_REACH_RADII * spec_r + DETOUR_REACH_CELLS;
        self.bad.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        // Widen and merge (the bad stretches themselves are kept).
        let widen = |lo: f64, hi: f64, reach: f64| {
            let (lo, hi) = snap_to_line_ends(loose, (lo - reach).max(0.0), (hi + reach).min(total));
            // Within 10⁻³ of an end is the end.
            let lo = if lo < 1e-3 { 0.0 } else { lo };
            let hi = if hi > total - 1e-3 { total } else { hi };
            (lo, hi)
        };
        self.bad_eased.clear();
        for &(lo, hi) in &self.bad {
            let (lo, hi) = widen(lo, hi, reaches[0]);
            match self.bad_eased.last_mut() {
                Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                _ => self.bad_eased.push((lo, hi)),
            }
        }
        self.pieces.clear();
        let mut done = 0.0f64;
        // The last repaired stretch: its start, where the curve stood
        // before it (`done` then) and the pieces written before its slice.
        let mut last: Option<(f64, f64, usize)> = None;
        let mut k = 0;
        while k < self.bad_eased.len() {
            let (mut lo, mut hi) = self.bad_eased[k];
            let near = Search::near(spec_r);
            let mut found = self.repair_stretch(grid, costs, loose, (lo, hi), near, ends)?;
            // Wider attempts: farther along the curve (`reaches[1]`), then
            // the detour (farther still, a wide box, guided).
            let wide = Search::detour(spec_r);
            let mut reach = reaches[0];
            for (to, search) in [(reaches[1], near), (reaches[1].max(detour_reach), wide)] {
                if found || (search == wide && !detour) {
                    break;
                }
                if to <= reach && search == near {
                    continue;
                }
                let extra = (to - reach).max(0.0);
                reach = reach.max(to);
                let (lo2, hi2) = widen(lo, hi, extra);
                (lo, hi) = (lo2.max(done), hi2);
                if let Some((last_lo, last_done, mark)) = last {
                    if lo2 < done {
                        // The wider stretch reaches back into the last
                        // repair: both are searched again as one.
                        self.pieces.truncate(mark);
                        done = last_done;
                        lo = lo2.min(last_lo).max(done);
                        last = None;
                    }
                }
                while k + 1 < self.bad_eased.len() && self.bad_eased[k + 1].0 <= hi {
                    hi = hi.max(self.bad_eased[k + 1].1);
                    k += 1;
                }
                found = self.repair_stretch(grid, costs, loose, (lo, hi), search, ends)?;
            }
            if !found {
                return Ok(false);
            }
            last = Some((lo, done, self.pieces.len()));
            slice_into(loose, done, lo, &mut self.pieces);
            if lo <= 0.0 && start_heading.is_none() {
                // The search may start at the start cell's centre facing
                // anywhere: the curve starts there too.
                self.pieces.clear();
            }
            self.pieces.extend_from(&self.repair);
            done = hi;
            k += 1;
        }
        slice_into(loose, done, total, &mut self.pieces);
        Ok(!self.pieces.is_empty())
    }

    /// One directional search from the pose of `loose` at `lo` to its pose
    /// at `hi` (the start and goal cells, or the asked headings, at the
    /// ends), within the stretch's box plus `search`'s margin, with its
    /// budget, weight and guide; the pieces in `self.repair`.
    #[allow(clippy::too_many_arguments)]
    fn repair_stretch(
        &mut self,
        grid: &Grid,
        costs: Option<&ProfileGrid>,
        loose: &CurvedPath,
        (lo, hi): (f64, f64),
        search: Search,
        (start_heading, goal_heading): (Option<f64>, Option<f64>),
    ) -> Result<bool, Error> {
        let total = loose.length() as f64;
        let margin = search.margin;
        let pose_at = |s: f64| {
            let (p, h) = loose.sample(s as f32);
            Pose::new(p.x as f64, p.y as f64, h as f64)
        };
        let mut a = pose_at(lo);
        if lo <= 0.0 {
            if let Some(h) = start_heading {
                a.heading = h;
            }
        }
        let mut b = pose_at(hi);
        let at_end = hi >= total;
        if at_end {
            if let Some(h) = goal_heading {
                b.heading = h;
            }
        }
        let goal = if at_end && goal_heading.is_none() {
            Goal::Cell(Point::new(b.x.floor() as u32, b.y.floor() as u32))
        } else {
            Goal::Pose(b)
        };
        let start = if lo <= 0.0 && start_heading.is_none() {
            Start::Cell(Point::new(a.x.floor() as u32, a.y.floor() as u32))
        } else {
            Start::Pose(a)
        };
        let steps = ((hi - lo).ceil() as usize).max(1);
        let area = Area::around(
            grid,
            (0..=steps).map(|i| {
                let (p, _) = loose.sample((lo + (hi - lo) * i as f64 / steps as f64) as f32);
                (p.x as f64, p.y as f64)
            }),
            margin,
        );
        let limits = Limits {
            area: Some(area),
            max_expansions: search.budget,
            weight: search.weight,
        };
        self.repair.clear();
        let outcome = directional(
            &mut self.search,
            grid,
            costs,
            search.guided,
            (start, goal),
            &limits,
            &mut self.repair,
        )?;
        match outcome {
            Outcome::Found { expansions, .. } => {
                self.expansions += expansions as u64;
                Ok(true)
            }
            Outcome::NoPath { expansions } | Outcome::BudgetExhausted { expansions } => {
                self.expansions += expansions as u64;
                Ok(false)
            }
        }
    }

    /// Directional-search nodes the last [`VehicleCurver::curve`] expanded.
    pub fn expansions(&self) -> u64 {
        self.expansions
    }

    /// The stage that gave the last query's curve, or
    /// [`CurveStage::Failed`] when it found none (O(1)).
    pub fn stage(&self) -> CurveStage {
        self.stage
    }

    /// `Ok` if `c` passes [`check_curve`] and its pieces join within
    /// [`JOINT_TOLERANCE`], else an error (a curve the checks refuse is
    /// never returned): [`Error::NoLegalCurve`] for a joint only, as its
    /// pieces are legal but for the `f32` rounding of a short line's ends.
    fn checked(&mut self, grid: &Grid, c: &CurvedPath, big_r: f32, r: f32) -> Result<(), Error> {
        match check_curve(grid, c, big_r, r) {
            Ok(()) if joints_within(c, JOINT_TOLERANCE) => Ok(()),
            Ok(()) => {
                self.stage = CurveStage::Failed;
                Err(Error::NoLegalCurve {
                    expansions: self.expansions,
                })
            }
            Err(v) => Err(Error::Inconsistent {
                reason: format!("the vehicle curve failed its check: {v:?}"),
            }),
        }
    }
}

/// The query from `start` to `goal` driven backwards: from the goal to the
/// start, each pose turned round (a heading plus π). Primitives driven
/// backwards are primitives turned round, so a chain of primitives
/// answers one exactly when one answers the other.
fn backwards((start, goal): (Start, Goal)) -> (Start, Goal) {
    let turned = |p: Pose| Pose::new(p.x, p.y, p.heading + PI);
    (
        match goal {
            Goal::Cell(c) => Start::Cell(c),
            Goal::Pose(p) => Start::Pose(turned(p)),
        },
        match start {
            Start::Cell(c) => Goal::Cell(c),
            Start::Pose(p) => Goal::Pose(turned(p)),
        },
    )
}

/// One directional search on `grid`: priced by the terrain of `costs`
/// (the view whose position grid `grid` is) when given, else by length;
/// guided by the grid distance to the goal when `guided`.
fn directional(
    search: &mut DirectionalSearch,
    grid: &Grid,
    costs: Option<&ProfileGrid>,
    guided: bool,
    (start, goal): (Start, Goal),
    limits: &Limits,
    out: &mut Track,
) -> Result<Outcome, Error> {
    match (costs, guided) {
        (Some(view), false) => search.find_weighted(view, start, goal, limits, out),
        (Some(view), true) => search.find_weighted_guided(view, start, goal, limits, out),
        (None, false) => search.find(grid, start, goal, limits, out),
        (None, true) => search.find_guided(grid, start, goal, limits, out),
    }
    .map_err(|e| Error::Inconsistent {
        reason: e.to_string(),
    })
}

/// Nodes above which the curver's searches keep their per-node scratch
/// in pages (see [`DirectionalSearch::set_dense_limit`]): 2²⁰ (about
/// 20 MB dense) instead of the search's 4 · 10⁶ (80 MB). A search over a
/// large box touches few of its nodes; dense, the first such search
/// writes the whole store (page faults and all). Measured the same speed
/// either way per query, and that first search 40 M instructions cheaper
/// (P77).
const CURVER_DENSE_LIMIT: usize = 1 << 20;

/// A directional search for the curver over `steering`
/// ([`CURVER_DENSE_LIMIT`]).
fn curver_search(steering: Arc<Steering>) -> DirectionalSearch {
    let mut search = DirectionalSearch::new(steering);
    search.set_dense_limit(CURVER_DENSE_LIMIT);
    search
}

/// Largest turning radius the Directional-24 neighbourhood serves. Its
/// children lie at most two cells away; past this radius the shortest
/// curve to one at another heading is a loop over the length bound, so
/// the search drives straight lines only (16 headings, an open map: from
/// 2.75 on, goals beside the start's heading go unreached). Above it the
/// vehicle mode uses Directional-48 (three cells), which turns up to a
/// radius of 4 (P76).
const D24_MAX_RADIUS: f32 = 2.5;

/// The neighbourhood of the directional searches for turning radius
/// `big_r`: the smallest that still turns ([`D24_MAX_RADIUS`]).
fn neighbourhood_for(big_r: f32) -> Neighbourhood {
    if big_r <= D24_MAX_RADIUS {
        Neighbourhood::D24
    } else {
        Neighbourhood::D48
    }
}

/// The directional search's primitives and hit-check tables for the
/// vehicle of `config` (a turning radius in `(0, MAX_REPAIR_RADIUS]`) with
/// unit radius `unit_radius`: a few milliseconds, about 1 MB for 16
/// headings with Directional-24 (Directional-48 has twice the candidate
/// children per heading).
fn steering_for(config: &Config, unit_radius: f32) -> Result<Steering, Error> {
    let big_r = config.get_turning_radius();
    let spec = VehicleSpec {
        turning_radius: big_r as f64,
        unit_radius: unit_radius as f64,
        headings: config.get_headings(),
        neighbourhood: neighbourhood_for(big_r),
        max_turn_steps: None,
        reverse: config.get_reverse().map(|penalty| Reverse {
            penalty: penalty as f64,
            gear_change: (GEAR_CHANGE_RADII * big_r) as f64,
        }),
    };
    Steering::new(spec).map_err(|e| Error::Config {
        field: "turning_radius",
        value: big_r.to_string(),
        expected: if matches!(
            e,
            regionpath_vehicle::VehicleError::Spec {
                field: "headings",
                ..
            }
        ) {
            "headings 8 or 16"
        } else {
            "a vehicle the directional search accepts"
        },
    })
}

/// The stretches of `loose` that are not legal for radius `big_r` into
/// `bad` (cleared first): arcs tighter than the radius, sharp corners, and
/// the ends when a start or goal heading is asked that the curve does not
/// have.
fn collect_bad(
    loose: &CurvedPath,
    big_r: f32,
    start_heading: Option<f64>,
    goal_heading: Option<f64>,
    bad: &mut Vec<(f64, f64)>,
) {
    bad.clear();
    let total = loose.length() as f64;
    let mut s = 0.0f64;
    let segs = loose.segments();
    for (i, seg) in segs.iter().enumerate() {
        let len = seg.length() as f64;
        if let CurveSegment::Arc { radius, .. } = *seg {
            if radius < big_r * (1.0 - 1e-4) {
                bad.push((s, s + len));
            }
        }
        if i > 0 {
            let (_, he) = segs[i - 1].point_at(f64::MAX);
            let (_, hs) = seg.point_at(0.0);
            if angle_gap(he as f64, hs as f64) > 1e-3 {
                bad.push((s, s));
            }
        }
        s += len;
    }
    let (_, h0) = loose.sample(0.0);
    let (_, h1) = loose.sample(loose.length());
    let single = segs.is_empty();
    if let Some(h) = start_heading {
        if single || angle_gap(h, h0 as f64) > 1e-3 {
            bad.push((0.0, 0.0));
        }
    }
    if let Some(h) = goal_heading {
        if single || angle_gap(h, h1 as f64) > 1e-3 {
            bad.push((total, total));
        }
    }
}

/// Whether a stretch of `bad` lies inside `loose` (not just at an end,
/// where only a start or goal heading can be missing).
fn has_inner(bad: &[(f64, f64)], loose: &CurvedPath) -> bool {
    bad.iter().any(|b| b.1 > 0.0 && b.0 < loose.length() as f64)
}

/// The smaller angle between two headings (radians).
fn angle_gap(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d)
}

/// Largest turn (radians) of the body's heading where two pieces of a
/// returned curve join next to an arc: well inside what the turn of a sampled curve
/// allows on top of the radius (a 2·10⁻⁴ slack per sample), so sampling
/// never sees a corner. [`check_curve`] allows 10⁻³.
const JOINT_TOLERANCE: f64 = 2e-4;

/// Whether each piece of `c` next to an arc starts with the body heading
/// the previous one ends with, within `tolerance` radians (a reverse
/// piece's body faces against its travel). Between two lines a small
/// corner adds nothing to the turn of the samples around it beyond what
/// their distance allows (`check_curve`'s 10⁻³ holds there); next to an
/// arc it adds to the arc's turn. O(pieces).
fn joints_within(c: &CurvedPath, tolerance: f64) -> bool {
    let segs = c.segments();
    let body = |i: usize, h: f32| h as f64 + if c.is_reverse(i) { PI } else { 0.0 };
    let arc = |s: &CurveSegment| matches!(s, CurveSegment::Arc { .. });
    (1..segs.len()).all(|i| {
        let prev = &segs[i - 1];
        if !arc(prev) && !arc(&segs[i]) {
            return true;
        }
        let (_, he) = prev.point_at(prev.length() as f64 + 1.0);
        let (_, hs) = segs[i].point_at(0.0);
        angle_gap(body(i - 1, he), body(i, hs)) <= tolerance
    })
}

/// Shortest piece of a line of the rounded curve left beside a splice
/// (cells): a shorter one's `f32` end points could turn its heading by
/// more than the final check's tolerance for a kink.
const SPLICE_SNAP: f64 = 1.0;

/// The stretch `lo..hi` of `path` widened so that it neither starts less
/// than [`SPLICE_SNAP`] past the start of a line piece nor ends less than
/// that before the end of one (it then starts or ends at the line's end
/// instead): the slices of `path` spliced around a repair keep lines long
/// enough for their `f32` headings. O(pieces).
fn snap_to_line_ends(path: &CurvedPath, lo: f64, hi: f64) -> (f64, f64) {
    let (segs, starts) = (path.segments(), path.piece_starts());
    // The line piece strictly holding `s`, as (start, end).
    let line_at = |s: f64| {
        let i = starts.partition_point(|&t| t <= s).checked_sub(1)?;
        let (start, seg) = (starts[i], &segs[i]);
        let end = start + seg.length() as f64;
        (matches!(seg, CurveSegment::Line { .. }) && s > start && s < end).then_some((start, end))
    };
    let lo = match line_at(lo) {
        Some((start, _)) if lo - start < SPLICE_SNAP => start,
        _ => lo,
    };
    let hi = match line_at(hi) {
        Some((_, end)) if end - hi < SPLICE_SNAP => end,
        _ => hi,
    };
    (lo, hi)
}

/// Appends the part of `path` (driven forwards) between distances `s0` and
/// `s1` to `out` (pieces shorter than 10⁻⁶ cells left out).
fn slice_into(path: &CurvedPath, s0: f64, s1: f64, out: &mut Track) {
    // From the piece holding `s0` on (a binary search, not a walk).
    let starts = path.piece_starts();
    let first = starts.partition_point(|&t| t <= s0).saturating_sub(1);
    for (seg, &start) in path.segments().iter().zip(starts).skip(first) {
        if start > s1 {
            break;
        }
        let len = seg.length() as f64;
        let (a, b) = ((s0 - start).max(0.0), (s1 - start).min(len));
        if b - a <= 1e-6 {
            continue;
        }
        let piece = match *seg {
            CurveSegment::Line { .. } => CurveSegment::Line {
                from: seg.point_at(a).0,
                to: seg.point_at(b).0,
            },
            CurveSegment::Arc {
                center,
                radius,
                start_angle,
                sweep,
            } => {
                let sign = sweep.signum() as f64;
                CurveSegment::Arc {
                    center,
                    radius,
                    start_angle: (start_angle as f64 + sign * a / radius as f64) as f32,
                    sweep: (sign * (b - a) / radius as f64) as f32,
                }
            }
        };
        out.push(piece, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regionpath_testkit::maps::obstacles;
    use regionpath_testkit::rng::{Rng64, XorShift64Star};

    /// `wide_mask` against its definition read cell by cell: on random
    /// maps and random areas (some reaching past word boundaries and the
    /// map's edges), a cell's bit is set exactly when its eight neighbours
    /// all are passable (off the map: blocked), or when it is passable and
    /// within `open` of an end; no bit past the area's cells is set.
    #[test]
    fn wide_mask_matches_the_cell_by_cell_rule() {
        let mut rng = XorShift64Star::new(11);
        let (mut row, mut mask) = (Vec::new(), Vec::new());
        for round in 0..60 {
            let (w, h) = (1 + rng.below(150) as u32, 1 + rng.below(90) as u32);
            let percent = 5 + 10 * (round % 4);
            let grid = obstacles(w, h, percent, &mut |n| rng.below(n));
            let x = rng.below(w as u64) as u32;
            let y = rng.below(h as u64) as u32;
            let area = Area {
                x,
                y,
                width: 1 + rng.below((w - x) as u64) as u32,
                height: 1 + rng.below((h - y) as u64) as u32,
            };
            let mut end = || Point::new(rng.below(w as u64) as u32, rng.below(h as u64) as u32);
            let ends = [end(), end()];
            let open = rng.below(8) as u32;
            wide_mask(&grid, &area, ends, open, &mut row, &mut mask);
            let n = (area.width * area.height) as usize;
            for i in 0..mask.len() * 64 {
                let set = mask[i / 64] >> (i % 64) & 1 == 1;
                if i >= n {
                    assert!(!set, "round {round}: bit {i} past the area's {n} cells");
                    continue;
                }
                let (lx, ly) = (i as u32 % area.width, i as u32 / area.width);
                let (gx, gy) = ((area.x + lx) as i64, (area.y + ly) as i64);
                let inner =
                    (-1..=1).all(|dy| (-1..=1).all(|dx| grid.is_passable_i(gx + dx, gy + dy)));
                let near = ends.iter().any(|p| {
                    (p.x as i64 - gx).abs() <= open as i64 && (p.y as i64 - gy).abs() <= open as i64
                });
                let want = inner || (near && grid.is_passable_i(gx, gy));
                assert_eq!(
                    set, want,
                    "round {round}: cell ({gx}, {gy}) of area {area:?}, ends {ends:?}, open {open}"
                );
            }
        }
    }
}
