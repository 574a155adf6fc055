//! [`Planner`]: per-thread query scratch over a shared [`Hierarchy`];
//! full paths, lazy legs and batches.

use crate::vehicle_mode::VehicleCurver;
use crate::{Config, Error};
use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, PlanStats, Query, RegionId, Step};
use regionpath_smoothing::{CurvedPath, SmoothOptions, Smoother, TurnOptions, Vec2};

/// A planned path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    /// The cells from start to goal: contiguous 8-connected steps on
    /// passable cells, no corner cutting. With a hierarchy built for a
    /// movement profile ([`Hierarchy::build_with_profile`]) these are the
    /// unit's positions (the top-left cell of its k × k footprint), each
    /// usable for the profile, diagonals only where both orthogonal
    /// positions are usable.
    pub cells: Vec<Point>,
    /// Cost of `cells`: 1 per straight step and √2 per diagonal, or under a
    /// profile each step's length times the mean cost of its two positions.
    pub cost: f64,
    /// Any-angle waypoints (cell centres at the ends) when smoothing is on,
    /// else empty; every segment keeps the unit radius clear of blocked
    /// cells, except [`Path::narrow_segments`].
    pub waypoints: Vec<Vec2>,
    /// Waypoint segments that do **not** keep the unit radius clear: single
    /// steps of the cell path between adjacent cell centres, kept where the
    /// unit does not fit (a passage, or a start or goal cell, closer to a
    /// wall than the radius; touching counts). Always 0 without smoothing
    /// or with radius 0. With a turning radius such a path is refused
    /// ([`crate::Error::UnitTooWide`]), unless the vehicle mode
    /// ([`crate::TurnPolicy::Strict`]) finds a curve by a wider way.
    pub narrow_segments: usize,
    /// Euclidean length of `waypoints` (0 when not smoothed).
    pub smoothed_length: f64,
    /// Lines and arcs a vehicle can follow, sampled by distance travelled,
    /// when smoothing and a turning radius are on. With
    /// [`crate::TurnPolicy::Strict`] and a turning radius up to
    /// [`crate::MAX_REPAIR_RADIUS`] (the vehicle mode) the curve is always
    /// legal: every piece swept by the unit radius clear of blocked cells,
    /// every arc of exactly the turning radius, no corner, starting and
    /// ending with [`crate::Config::start_heading`] /
    /// [`crate::Config::goal_heading`] when set; turns of the smoothed path
    /// that the radius cannot take are replaced by a directional search
    /// around them (Pinter's hybrid); if that fails, the cell path is
    /// planned again along corridors at least three cells wide and
    /// curved the same way, then one search covers the whole path's box;
    /// failing that the query is
    /// [`crate::Error::NoLegalCurve`].
    ///
    /// Under a movement profile of size `k > 1` the curve runs through
    /// footprint centres and the unit radius is kept clear of every cell
    /// the profile cannot enter and of the map's outline: the curve is
    /// planned in position space on the profile's position grid, with the
    /// waypoints moved by `−(k − 1)/2` on both axes and the unit radius
    /// shrunk by `(k − 1)/2` (not below 0), then moved back; sound and
    /// conservative by at most `(√2 − 1)(k − 1)/2` at blocked corners
    /// (the rule and why: [`crate::VehicleCurver::curve_profiled_into`]).
    pub curve: Option<CurvedPath>,
    /// Figures about the query.
    pub stats: PlanStats,
    /// Whether the goal could not be reached and the path ends at the
    /// reachable cell nearest to it instead
    /// ([`Planner::find_path_or_nearest`]); always `false` from the other
    /// queries.
    pub partial: bool,
}

/// Per-thread query state: the hierarchical planner and the smoother with
/// their reusable scratch (about 100 KB for the default 60 × 60 window,
/// plus 32 bytes per region and, on maps of up to 4096² cells, one bit per
/// cell, once used or [`Planner::prepare`]d). Make one
/// per thread and reuse it: a warm full query allocates nothing but the
/// growth of the output [`Path`]. Lazy queries ([`Query`]) are values the
/// caller owns, one per unit; any planner refines any of them.
#[derive(Debug)]
pub struct Planner {
    pub(crate) inner: CellPlanner,
    smoother: Smoother,
    config: Config,
    vehicle: Option<Box<VehicleCurver>>,
    /// Waypoints moved into a movement profile's position space, for the
    /// curve of a unit of size above 1.
    shifted: Vec<Vec2>,
}

impl Default for Planner {
    /// A planner with [`Config::default`].
    fn default() -> Self {
        Planner {
            inner: CellPlanner::new(),
            smoother: Smoother::new(),
            config: Config::default(),
            vehicle: None,
            shifted: Vec::new(),
        }
    }
}

impl Planner {
    /// A planner with the given settings, checked here once
    /// ([`Config::validate`]): a bad value is [`Error::Config`]. In the
    /// vehicle mode (see [`Path::curve`]) this also builds the directional
    /// search's tables, for the unit and for a point-sized one (the pocket
    /// checks'): a few milliseconds, about 1 MB each for 16 headings;
    /// the first query for a unit of a movement profile of size above 1
    /// builds the tables for its shrunk radius (see [`Path::curve`]) and
    /// keeps them for later queries.
    pub fn new(config: Config) -> Result<Planner, Error> {
        config.validate()?;
        Ok(Planner {
            inner: CellPlanner::with_config(config.get_planner())?,
            smoother: Smoother::new(),
            config,
            vehicle: VehicleCurver::new(&config)?.map(Box::new),
            shifted: Vec::new(),
        })
    }

    /// Directional-search nodes the last query's vehicle curve expanded (0
    /// when its smoothed path's turns were all legal, or outside the
    /// vehicle mode).
    pub fn vehicle_expansions(&self) -> u64 {
        self.vehicle.as_ref().map_or(0, |v| v.expansions())
    }

    /// Sizes the scratch that grows with the map for `hierarchy` (a node
    /// per region and cluster, the loop bitset; see
    /// [`CellPlanner::prepare`]) so the first query on it costs no more
    /// than later ones. Call it where the world loads, not in a frame: on
    /// a 16,376² map it writes about 80 MB (about 20 ms). Optional.
    pub fn prepare(&mut self, hierarchy: &Hierarchy) {
        self.inner.prepare(hierarchy);
    }

    /// The settings in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Samples `curve` every `step` cells of travel into `out` (cleared
    /// first) as [`crate::sample_curve`] does, with the headings rounded to
    /// [`Config::sprite_headings`] when set: positions are the curve's own
    /// (every clearance and curvature bound of the curve holds for them),
    /// headings the body's (opposite the motion while reversing), each
    /// within 180°/count of the true heading when rounded. No allocation
    /// once `out` has grown to the sample count.
    pub fn sample_curve(&self, curve: &CurvedPath, step: f32, out: &mut Vec<crate::Sample>) {
        crate::sample_curve(curve, step, self.config.get_sprite_headings(), out);
    }

    /// The region route of the last full query (empty when it was answered
    /// without one: a straight line, one window search, or the exact
    /// portal layer).
    pub fn route(&self) -> impl ExactSizeIterator<Item = RegionId> + '_ {
        self.inner.route()
    }

    /// Plans a path from `start` to `goal`. Unreachable goals are answered
    /// from the connectivity matrix without any search
    /// ([`Error::Unreachable`]); a grid the hierarchy does not serve is
    /// refused in O(1) ([`Error::StaleGrid`]).
    pub fn find_path(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Path, Error> {
        let mut path = Path::default();
        self.find_path_into(hierarchy, grid, start, goal, &mut path)?;
        Ok(path)
    }

    /// [`Planner::find_path`] into a reused [`Path`]: once its vectors have
    /// grown, a query allocates nothing. On error the path is left empty.
    pub fn find_path_into(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        path: &mut Path,
    ) -> Result<(), Error> {
        path.partial = false;
        path.waypoints.clear();
        path.smoothed_length = 0.0;
        path.curve = None;
        path.cost = 0.0;
        path.narrow_segments = 0;
        if let Err(e) = self.check_radius(hierarchy) {
            path.cells.clear();
            return Err(e);
        }
        let stats = self
            .inner
            .find_path_into(hierarchy, grid, start, goal, &mut path.cells)
            .inspect_err(|_| path.cells.clear())?;
        path.cost = stats.cost;
        path.stats = stats;
        self.finish_into(hierarchy, grid, path)
    }

    /// [`Planner::find_path`], except that a goal that is blocked or cannot
    /// be reached from `start` gives a path to the reachable cell nearest
    /// to it by octile distance, with [`Path::partial`] set (see
    /// [`CellPlanner::find_path_or_nearest_into`] for the tie rule and the
    /// cost: the nearest cell is found from the hierarchy, sector by sector
    /// around the goal, not by searching the start's whole area). A
    /// reachable goal gets [`Planner::find_path`]'s path. Other bad input
    /// (an end off the map, a blocked start, a stale grid) is still an
    /// error. Smoothed as the configuration asks.
    ///
    /// ```
    /// use regionpath::{Grid, Hierarchy, Planner, Point};
    ///
    /// // The goal is behind a wall with no gap.
    /// let grid = Grid::from_rows(&["...@..", "...@..", "...@.."])?;
    /// let hierarchy = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = Planner::default();
    /// let path = planner.find_path_or_nearest(&hierarchy, &grid, Point::new(0, 0), Point::new(5, 2))?;
    /// assert!(path.partial);
    /// assert_eq!(path.cells.last(), Some(&Point::new(2, 2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_path_or_nearest(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Path, Error> {
        let mut path = Path::default();
        self.find_path_or_nearest_into(hierarchy, grid, start, goal, &mut path)?;
        Ok(path)
    }

    /// [`Planner::find_path_or_nearest`] into a reused [`Path`] (no
    /// allocation once its vectors have grown). On error the path is left
    /// empty.
    pub fn find_path_or_nearest_into(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        path: &mut Path,
    ) -> Result<(), Error> {
        path.partial = false;
        path.waypoints.clear();
        path.smoothed_length = 0.0;
        path.curve = None;
        path.cost = 0.0;
        path.narrow_segments = 0;
        if let Err(e) = self.check_radius(hierarchy) {
            path.cells.clear();
            return Err(e);
        }
        let reached = self
            .inner
            .find_path_or_nearest_into(hierarchy, grid, start, goal, &mut path.cells)
            .inspect_err(|_| path.cells.clear())?;
        path.cost = reached.stats.cost;
        path.stats = reached.stats;
        path.partial = reached.partial;
        self.finish_into(hierarchy, grid, path)
    }

    /// Smooths a planned `path` as the configuration asks; on failure
    /// empties it and returns the error.
    pub(crate) fn finish_into(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        path: &mut Path,
    ) -> Result<(), Error> {
        let smoothed = self.smooth_into(hierarchy, grid, path);
        if smoothed.is_err() {
            path.cells.clear();
            path.waypoints.clear();
            path.curve = None;
            path.cost = 0.0;
            path.smoothed_length = 0.0;
            path.narrow_segments = 0;
            path.partial = false;
        }
        smoothed
    }

    /// Smooths `path.cells` (and curves it) as the configuration asks.
    fn smooth_into(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        path: &mut Path,
    ) -> Result<(), Error> {
        if self.config.get_smooth() {
            let opts = SmoothOptions::with_radius(self.config.get_unit_radius());
            // Under a profile: waypoints at footprint centres, shortcuts
            // only where the footprint fits and the terrain costs no more.
            let view = hierarchy.profile_view();
            match view {
                Some(view) => {
                    let report = self.smoother.smooth_profiled(
                        view,
                        &path.cells,
                        &opts,
                        &mut path.waypoints,
                    )?;
                    path.smoothed_length = report.output_length;
                    path.narrow_segments = report.narrow_segments;
                }
                None => {
                    let report =
                        self.smoother
                            .smooth(grid, &path.cells, &opts, &mut path.waypoints)?;
                    path.smoothed_length = report.output_length;
                    path.narrow_segments = report.narrow_segments;
                }
            }
            if let Some(vehicle) = self.vehicle.as_mut() {
                path.curve = Some(match view {
                    Some(view) => vehicle.curve_profiled(view, &path.cells, &path.waypoints)?,
                    None => vehicle.curve(grid, &path.cells, &path.waypoints)?,
                });
            } else if self.config.get_turning_radius() > 0.0 {
                let r = self.config.get_unit_radius();
                let mut turn = TurnOptions {
                    turning_radius: self.config.get_turning_radius(),
                    unit_radius: r,
                    policy: self.config.get_turn_policy(),
                };
                path.curve = Some(match view {
                    Some(view) if view.size() > 1 => {
                        // In position space (see `VehicleCurver::
                        // curve_profiled_into` for the rule): waypoints on
                        // position cell centres, radius shrunk by h.
                        let h = (view.size() - 1) as f32 / 2.0;
                        turn.unit_radius = (r - h).max(0.0);
                        self.shifted.clear();
                        self.shifted
                            .extend(path.waypoints.iter().map(|&w| w - Vec2::new(h, h)));
                        let mut c = regionpath_smoothing::curve(view.grid(), &self.shifted, &turn)?;
                        c.translate(Vec2::new(h, h));
                        c
                    }
                    Some(view) => regionpath_smoothing::curve(view.grid(), &path.waypoints, &turn)?,
                    None => regionpath_smoothing::curve(grid, &path.waypoints, &turn)?,
                });
            }
        }
        Ok(())
    }

    /// Refuses a unit radius over half the hierarchy's profile size (see
    /// [`Error::RadiusOverSize`]): the unit's disc must lie inside its
    /// footprint for smoothing and curves to keep it clear. O(1).
    pub(crate) fn check_radius(&self, hierarchy: &Hierarchy) -> Result<(), Error> {
        let Some(profile) = hierarchy.profile() else {
            return Ok(());
        };
        let radius = self.config.get_unit_radius();
        let max = profile.size() as f32 / 2.0;
        if self.config.get_smooth() && radius > max {
            return Err(Error::RadiusOverSize {
                radius,
                profile: profile.name().to_string(),
                size: profile.size(),
                max,
            });
        }
        Ok(())
    }

    /// Starts a lazy query: checks the input, answers reachability in O(1)
    /// and plans the region route (only as far as the first leg needs, with
    /// [`Config::quick_start`]). The returned [`Query`] is the caller's;
    /// [`Planner::next_leg`] refines it leg by leg. Allocates the query's
    /// route; [`Planner::restart`] reuses a query's buffers instead.
    ///
    /// ```
    /// use regionpath::{Grid, Hierarchy, Planner, Point};
    ///
    /// let grid = Grid::from_rows(&["........", ".@@@@@@.", "........"])?;
    /// let hierarchy = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = Planner::default();
    /// let mut query = planner.start(&hierarchy, &grid, Point::new(0, 1), Point::new(7, 1))?;
    /// let mut cells = Vec::new();
    /// while planner.next_leg(&mut query, &hierarchy, &grid, &mut cells)? {}
    /// assert_eq!(cells.first(), Some(&Point::new(0, 1)));
    /// assert_eq!(cells.last(), Some(&Point::new(7, 1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Query, Error> {
        Ok(self.inner.start(hierarchy, grid, start, goal)?)
    }

    /// [`Planner::start`] into an existing query, reusing its buffers.
    pub fn restart(
        &mut self,
        query: &mut Query,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<(), Error> {
        Ok(self.inner.restart(query, hierarchy, grid, start, goal)?)
    }

    /// Refines the next leg of `query`, appending its cells to `leg` (the
    /// first leg includes the start cell; later legs continue from the last
    /// cell). Returns `Ok(true)` while legs remain, `Ok(false)` after the
    /// last. One window search per leg; no allocation once warm.
    ///
    /// Map changes: after [`Hierarchy::update`] (on this hierarchy or an
    /// updated clone of it), the next leg first plans again from where the
    /// last leg ended and continues from there ([`Query::repairs`] counts
    /// it); a unit stuck mid-leg behind a new wall is replanned with
    /// [`Planner::replan_from`]. Never a leg that does not join the previous
    /// one: another hierarchy is [`Error::QueryMismatch`], a grid edited
    /// without an update [`Error::StaleGrid`], a unit walled in
    /// [`Error::Trapped`]. See `examples/living_world.rs`.
    pub fn next_leg(
        &mut self,
        query: &mut Query,
        hierarchy: &Hierarchy,
        grid: &Grid,
        leg: &mut Vec<Point>,
    ) -> Result<bool, Error> {
        Ok(self.inner.next_leg(query, hierarchy, grid, leg)?)
    }

    /// [`Planner::start`] for a query advanced under a frame budget with
    /// [`Planner::step`]: only O(1) checks here (bounds, blocked cells,
    /// reachability), the route search is left to the steps.
    pub fn start_sliced(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Query, Error> {
        Ok(self.inner.start_sliced(hierarchy, grid, start, goal)?)
    }

    /// [`Planner::start_sliced`] into an existing query, reusing its
    /// buffers: allocates nothing once warm.
    pub fn restart_sliced(
        &mut self,
        query: &mut Query,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<(), Error> {
        Ok(self
            .inner
            .restart_sliced(query, hierarchy, grid, start, goal)?)
    }

    /// Advances `query` by at most `budget` nodes of route search (a region
    /// expansion counts as `regionpath_hierarchy::REGION_WEIGHT` = 4 nodes,
    /// about its cost against a cell's) and then at most one leg whose
    /// search box holds about the `budget` left in cells
    /// (at least two sectors' span), appending the leg to `leg`:
    /// [`Step::Pending`] (call again next frame), [`Step::Leg`] or
    /// [`Step::Done`]. The paused search lives in the query, so one
    /// planner can step many queries in turn; a query can be dropped
    /// between calls. Map changes repair the query as in
    /// [`Planner::next_leg`]. No allocation once warm.
    ///
    /// ```
    /// use regionpath::{Grid, Hierarchy, Planner, Point, Step};
    ///
    /// let grid = Grid::from_rows(&["..........", ".@@@@@@@@.", ".........."])?;
    /// let hierarchy = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = Planner::default();
    /// let (s, g) = (Point::new(0, 1), Point::new(9, 1));
    /// let mut query = planner.start_sliced(&hierarchy, &grid, s, g)?;
    /// let mut cells = Vec::new();
    /// while planner.step(&mut query, &hierarchy, &grid, 1_000, &mut cells)? != Step::Done {}
    /// assert_eq!((cells[0], *cells.last().unwrap()), (s, g));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(
        &mut self,
        query: &mut Query,
        hierarchy: &Hierarchy,
        grid: &Grid,
        budget: u32,
        leg: &mut Vec<Point>,
    ) -> Result<Step, Error> {
        Ok(self.inner.step(query, hierarchy, grid, budget, leg)?)
    }

    /// Plans `query` again from `at`, where the unit stands (a cell the
    /// query handed out), on the current hierarchy and grid; the cells
    /// handed out after `at` are dropped and the next leg continues from
    /// `at`. Use it when [`Query::ahead_is_clear`] says a map edit blocked
    /// the unit's way. One route search; [`Error::NotHandedOut`] leaves the
    /// query unchanged.
    pub fn replan_from(
        &mut self,
        query: &mut Query,
        hierarchy: &Hierarchy,
        grid: &Grid,
        at: Point,
    ) -> Result<(), Error> {
        Ok(self.inner.replan_from(query, hierarchy, grid, at)?)
    }

    /// Answers many queries on all cores (rayon), one planner with this
    /// planner's [`Config`] per worker thread; results in the order of
    /// `queries`.
    #[cfg(feature = "rayon")]
    pub fn find_paths(
        &self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        queries: &[(Point, Point)],
    ) -> Vec<Result<Path, Error>> {
        use rayon::prelude::*;
        let config = self.config;
        queries
            .par_iter()
            .map_init(
                // The configuration was validated when `self` was made.
                || Planner::new(config).unwrap_or_default(),
                |planner, &(s, g)| planner.find_path(hierarchy, grid, s, g),
            )
            .collect()
    }
}
