//! [`Config`]: every per-planner setting, set with builder methods and
//! validated once, when the [`crate::Planner`] is made.

use crate::Error;
use regionpath_hierarchy::PlannerConfig;
use regionpath_smoothing::TurnPolicy;

/// Largest accepted [`Config::unit_radius`], in cells: wider units need
/// the movement profiles of a later version (a unit size), not a radius.
pub const MAX_UNIT_RADIUS: f32 = 8.0;

/// Largest accepted [`Config::turning_radius`], in cells.
pub const MAX_TURNING_RADIUS: f32 = 1024.0;

/// The settings of a [`crate::Planner`]: smoothing, the unit's size and
/// turning radius, and how legs are refined. Set with builder methods,
/// read with `get_*`; the values are checked by [`Config::validate`] when
/// [`crate::Planner::new`] is called, never per query.
///
/// ```
/// use regionpath::{Config, Planner};
///
/// let config = Config::new().smooth(true).unit_radius(0.4);
/// let planner = Planner::new(config)?;
/// assert!(planner.config().get_smooth());
/// assert!(Planner::new(Config::new().window(100_000)).is_err());
/// # Ok::<(), regionpath::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    smooth: bool,
    unit_radius: f32,
    turning_radius: f32,
    turn_policy: TurnPolicy,
    start_heading: Option<f32>,
    goal_heading: Option<f32>,
    headings: u32,
    reverse: Option<f32>,
    sprite_headings: Option<u32>,
    planner: PlannerConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            smooth: false,
            unit_radius: 0.0,
            turning_radius: 0.0,
            turn_policy: TurnPolicy::Tighten,
            start_heading: None,
            goal_heading: None,
            headings: 16,
            reverse: None,
            sprite_headings: None,
            planner: PlannerConfig::default(),
        }
    }
}

impl Config {
    /// The defaults: no smoothing, a point-sized unit, no turning radius,
    /// 60 × 60 leg windows.
    pub fn new() -> Config {
        Config::default()
    }

    /// Smooth the cell path into any-angle waypoints for a unit of
    /// [`Config::unit_radius`] (default off).
    #[must_use]
    pub fn smooth(mut self, yes: bool) -> Self {
        self.smooth = yes;
        self
    }

    /// Radius of the unit in cells for smoothing, 0..=[`MAX_UNIT_RADIUS`]
    /// (0: a point; 0.5: one tile wide). Waypoint segments keep this
    /// clearance from blocked cells; the cell path itself is planned for a
    /// point.
    #[must_use]
    pub fn unit_radius(mut self, cells: f32) -> Self {
        self.unit_radius = cells;
        self
    }

    /// Turning radius in cells, 0..=[`MAX_TURNING_RADIUS`] (0: none). With
    /// smoothing on, the waypoints' corners are rounded into
    /// [`crate::Path::curve`], every arc checked for the unit radius; for
    /// units of any size of a movement profile (see [`crate::Path::curve`]).
    #[must_use]
    pub fn turning_radius(mut self, cells: f32) -> Self {
        self.turning_radius = cells;
        self
    }

    /// What to do with a turn that cannot take the turning radius: fail
    /// with [`Error::TurnTooTight`] (`Strict`), round it tighter and
    /// list it in the curve (`Tighten`, the default), or leave it a sharp
    /// corner (`Sharpen`).
    #[must_use]
    pub fn turn_policy(mut self, policy: TurnPolicy) -> Self {
        self.turn_policy = policy;
        self
    }

    /// The vehicle's heading at the start, in degrees (0 = +x, 90 = +y,
    /// down the map; any finite value, taken modulo 360). Only with
    /// [`TurnPolicy::Strict`] and a turning radius (the vehicle mode, see
    /// [`crate::Path::curve`]); `None` (the default): the curve leaves the
    /// start in whatever direction is shortest.
    #[must_use]
    pub fn start_heading(mut self, degrees: Option<f32>) -> Self {
        self.start_heading = degrees;
        self
    }

    /// The heading the vehicle must arrive with, in degrees (as
    /// [`Config::start_heading`]); `None` (the default): any.
    #[must_use]
    pub fn goal_heading(mut self, degrees: Option<f32>) -> Self {
        self.goal_heading = degrees;
        self
    }

    /// Headings of the vehicle search that repairs blocked turns, 8 or 16
    /// (default 16: finer turns, twice the nodes).
    #[must_use]
    pub fn headings(mut self, count: u32) -> Self {
        self.headings = count;
        self
    }

    /// Let the vehicle drive backwards, each reverse piece costing its
    /// length times `penalty` (finite, 1..=1000; Pinter's reverse
    /// directions with a penalty) plus
    /// [`crate::GEAR_CHANGE_RADII`] turning radii per change
    /// of direction. Off by default. Only in the vehicle mode
    /// ([`TurnPolicy::Strict`] and a turning radius): the directional
    /// searches that repair blocked turns (and the search over the whole
    /// path's box) then also drive their primitives in reverse, with twice
    /// the nodes; the curve marks reverse pieces
    /// ([`regionpath_smoothing::CurvedPath::is_reverse`]) and samples give
    /// the body's heading.
    #[must_use]
    pub fn reverse(mut self, penalty: f32) -> Self {
        self.reverse = Some(penalty);
        self
    }

    /// Report sampled headings rounded to `count` sprite angles, 8 or 16
    /// (`None`, the default: exact headings). Applies to
    /// [`crate::Planner::sample_curve`]: each sample's heading is the
    /// nearest multiple of 360°/count to the curve's true (body) heading, so
    /// within 180°/count of it; the positions are the curve's own, so every
    /// clearance and curvature bound of the curve holds for them
    /// unchanged. Only the reported angle is rounded, never the geometry.
    #[must_use]
    pub fn sprite_headings(mut self, count: Option<u32>) -> Self {
        self.sprite_headings = count;
        self
    }

    /// Side of the square leg-search window, 3..=1024 cells (default 60).
    /// Scratch grows with its square (about 25 bytes a cell).
    #[must_use]
    pub fn window(mut self, cells: u32) -> Self {
        self.planner = self.planner.window(cells);
        self
    }

    /// How far ahead (Chebyshev distance) a leg aims, 1..=window (default
    /// 40).
    #[must_use]
    pub fn reach(mut self, cells: u32) -> Self {
        self.planner = self.planner.reach(cells);
        self
    }

    /// How far back along the path each leg of a full query starts, so
    /// that its search straightens the join, 0..=window (default 20); a
    /// lazy query's leg holds back as many of its last cells (inside its
    /// last region, at most half the leg) for the next leg to search again.
    #[must_use]
    pub fn join_radius(mut self, cells: u32) -> Self {
        self.planner = self.planner.join_radius(cells);
        self
    }

    /// The join radius under a profile whose costs differ: the lesser of
    /// this and [`Config::join_radius`] applies (default 15; weighted leg
    /// searches cost more per cell, so they back up less).
    #[must_use]
    pub fn weighted_join_radius(mut self, cells: u32) -> Self {
        self.planner = self.planner.weighted_join_radius(cells);
        self
    }

    /// The quality recheck's factor: a path costing more than this times a
    /// lower bound gets one more search for a cheaper one; under terrain
    /// costs, a one-window answer whose route leaves the window for less
    /// is refined by that route too (default 1.04; 0 disables; finite and
    /// not negative).
    #[must_use]
    pub fn recheck(mut self, factor: f32) -> Self {
        self.planner = self.planner.recheck(factor);
        self
    }

    /// Largest side of the recheck's search box, 3..=4096 cells (default
    /// 160; the box is at least the window).
    #[must_use]
    pub fn recheck_window(mut self, cells: u32) -> Self {
        self.planner = self.planner.recheck_window(cells);
        self
    }

    /// Node budget of the recheck per cell of the path (default 2; 0: no
    /// budget).
    #[must_use]
    pub fn recheck_budget(mut self, nodes_per_cell: u32) -> Self {
        self.planner = self.planner.recheck_budget(nodes_per_cell);
        self
    }

    /// Answer a query whose start sees its goal along a straight octile
    /// path without any region lookup or search (default on).
    #[must_use]
    pub fn straight(mut self, yes: bool) -> Self {
        self.planner = self.planner.straight(yes);
        self
    }

    /// Lazy queries plan a long route only as far as their first leg needs
    /// (default on): the route search stops three windows of route cost
    /// from the start, so the first leg costs the same on any map size and
    /// heads where the whole route goes.
    #[must_use]
    pub fn quick_start(mut self, yes: bool) -> Self {
        self.planner = self.planner.quick_start(yes);
        self
    }

    /// Full queries whose path still looks long after the recheck plan a
    /// second route priced by its crossings and keep the shorter path
    /// (default on; under a profile whose costs differ, only on routes
    /// through narrow crossings such as doors, see
    /// [`regionpath_hierarchy::PlannerConfig::get_second_route`]).
    #[must_use]
    pub fn second_route(mut self, yes: bool) -> Self {
        self.planner = self.planner.second_route(yes);
        self
    }

    /// Whether the path is smoothed.
    pub fn get_smooth(&self) -> bool {
        self.smooth
    }

    /// The unit radius in cells.
    pub fn get_unit_radius(&self) -> f32 {
        self.unit_radius
    }

    /// The turning radius in cells.
    pub fn get_turning_radius(&self) -> f32 {
        self.turning_radius
    }

    /// The turn policy.
    pub fn get_turn_policy(&self) -> TurnPolicy {
        self.turn_policy
    }

    /// The start heading in degrees, if any.
    pub fn get_start_heading(&self) -> Option<f32> {
        self.start_heading
    }

    /// The goal heading in degrees, if any.
    pub fn get_goal_heading(&self) -> Option<f32> {
        self.goal_heading
    }

    /// The vehicle search's heading count.
    pub fn get_headings(&self) -> u32 {
        self.headings
    }

    /// The reverse penalty, when the vehicle may drive backwards.
    pub fn get_reverse(&self) -> Option<f32> {
        self.reverse
    }

    /// The sprite heading count samples are rounded to, if any.
    pub fn get_sprite_headings(&self) -> Option<u32> {
        self.sprite_headings
    }

    /// The leg refinement settings as the hierarchy crate takes them.
    pub fn get_planner(&self) -> PlannerConfig {
        self.planner
    }

    /// Checks every value against its documented bounds.
    pub fn validate(&self) -> Result<(), Error> {
        let bad = |field, value: f32, expected| {
            Err(Error::Config {
                field,
                value: value.to_string(),
                expected,
            })
        };
        if !(self.unit_radius.is_finite() && (0.0..=MAX_UNIT_RADIUS).contains(&self.unit_radius)) {
            return bad("unit_radius", self.unit_radius, "0..=8 cells");
        }
        if !(self.turning_radius.is_finite()
            && (0.0..=MAX_TURNING_RADIUS).contains(&self.turning_radius))
        {
            return bad("turning_radius", self.turning_radius, "0..=1024 cells");
        }
        for (field, h) in [
            ("start_heading", self.start_heading),
            ("goal_heading", self.goal_heading),
        ] {
            if let Some(h) = h {
                if !h.is_finite() {
                    return bad(field, h, "a finite number of degrees");
                }
                if self.turn_policy != TurnPolicy::Strict || self.turning_radius <= 0.0 {
                    return bad(
                        field,
                        h,
                        "only with a turning radius and TurnPolicy::Strict",
                    );
                }
            }
        }
        if self.headings != 8 && self.headings != 16 {
            return bad("headings", self.headings as f32, "8 or 16");
        }
        if let Some(p) = self.reverse {
            if !(p.is_finite() && (1.0..=1000.0).contains(&p)) {
                return bad("reverse", p, "a penalty in 1..=1000");
            }
            if self.turn_policy != TurnPolicy::Strict || self.turning_radius <= 0.0 {
                return bad(
                    "reverse",
                    p,
                    "only with a turning radius and TurnPolicy::Strict",
                );
            }
        }
        if let Some(n) = self.sprite_headings {
            if n != 8 && n != 16 {
                return bad("sprite_headings", n as f32, "8 or 16");
            }
        }
        self.planner.validate()?;
        Ok(())
    }
}
