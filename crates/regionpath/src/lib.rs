//! regionpath: hierarchical grid pathfinding for large game worlds.
//!
//! This is the crate a game depends on. It ties together:
//!
//! * [`grid`] — bit-packed tile grids, Moving AI map and scenario I/O;
//! * [`search`] — allocation-free A* and window-bounded A*;
//! * [`hierarchy`] — sectors → regions, the region graph, the connectivity
//!   matrix and the leg-by-leg planner;
//! * [`smoothing`] — any-angle smoothing for units with a radius, and
//!   turning-radius curves.
//!
//! The five lines a game writes:
//!
//! ```
//! use regionpath::{Grid, Hierarchy, Planner, Point};
//!
//! let grid = Grid::from_rows(&["........", ".@@@@@@.", "........"]).unwrap();
//! let hierarchy = Hierarchy::build(&grid, &Default::default()).unwrap(); // offline, once
//! let mut planner = Planner::new(); // one per thread
//! let path = planner.find_path(&hierarchy, &grid, Point::new(0, 1), Point::new(7, 1)).unwrap();
//! assert_eq!(path.cells.last(), Some(&Point::new(7, 1)));
//! ```
//!
//! With [`PlannerOptions::smooth`] the [`Path`] also carries any-angle
//! waypoints for a unit of [`PlannerOptions::unit_radius`].
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub use regionpath_grid as grid;
pub use regionpath_hierarchy as hierarchy;
pub use regionpath_search as search;
pub use regionpath_smoothing as smoothing;

pub use regionpath_grid::{read_map, read_scen, Grid, Point};
pub use regionpath_hierarchy::{BuildStats, Hierarchy, HierarchyConfig, PlanStats, PortalMode};
pub use regionpath_smoothing::Vec2;

use thiserror::Error;

/// Why a path could not be produced.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PathError {
    /// Planning failed: bad or blocked endpoints, an unreachable goal
    /// (answered without search), or a hierarchy built for another grid.
    #[error(transparent)]
    Plan(#[from] regionpath_hierarchy::PathError),
    /// Smoothing rejected the options (for example a negative radius).
    #[error("smoothing failed: {0}")]
    Smooth(#[from] regionpath_smoothing::SmoothError),
    /// A turn cannot take the turning radius (with
    /// [`regionpath_smoothing::TurnPolicy::Strict`]); the error names each
    /// such turn and the largest radius that would be legal there.
    #[error("turning-radius curve failed: {0}")]
    Curve(#[from] regionpath_smoothing::CurveError),
}

impl PathError {
    /// Whether the goal cannot be reached from the start.
    pub fn is_unreachable(&self) -> bool {
        matches!(
            self,
            PathError::Plan(regionpath_hierarchy::PathError::Unreachable { .. })
        )
    }
}

/// Per-query options of the facade [`Planner`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannerOptions {
    /// Smooth the cell path into any-angle waypoints.
    pub smooth: bool,
    /// Radius of the unit in cells for smoothing (0 = a point, 0.5 = one
    /// tile wide).
    pub unit_radius: f32,
    /// Turning radius in cells (0 = none). With smoothing on, the
    /// waypoints' corners are rounded into [`Path::curve`], every arc checked
    /// against the obstacles for `unit_radius`.
    pub turning_radius: f32,
    /// What to do with a turn that cannot take `turning_radius`: fail with
    /// [`PathError::Curve`] (`Strict`) or round it tighter and list it in
    /// [`regionpath_smoothing::CurvedPath::tightened_turns`] (`Tighten`, the
    /// default).
    pub turn_policy: regionpath_smoothing::TurnPolicy,
    /// Leg refinement settings (window size, reach, how far back each leg
    /// starts).
    pub planner: regionpath_hierarchy::PlannerConfig,
}

impl Default for PlannerOptions {
    fn default() -> Self {
        PlannerOptions {
            smooth: false,
            unit_radius: 0.0,
            turning_radius: 0.0,
            turn_policy: regionpath_smoothing::TurnPolicy::Tighten,
            planner: Default::default(),
        }
    }
}

/// A planned path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    /// The cells from start to goal: contiguous 8-connected steps, no corner
    /// cutting.
    pub cells: Vec<Point>,
    /// Cost of `cells` (1 per straight step, √2 per diagonal).
    pub cost: f64,
    /// Any-angle waypoints (cell centres at the ends) when smoothing is on,
    /// else empty.
    pub waypoints: Vec<Vec2>,
    /// Euclidean length of `waypoints` (0 when not smoothed).
    pub smoothed_length: f64,
    /// Lines and arcs a vehicle can follow, sampled by distance travelled,
    /// when smoothing and a turning radius are on.
    pub curve: Option<regionpath_smoothing::CurvedPath>,
    /// Figures about the query.
    pub stats: PlanStats,
}

/// Per-thread query state: the hierarchical planner and the smoother with
/// their reusable scratch.
pub struct Planner {
    inner: regionpath_hierarchy::Planner,
    smoother: regionpath_smoothing::Smoother,
    options: PlannerOptions,
}

impl Default for Planner {
    fn default() -> Self {
        Planner::new()
    }
}

impl Planner {
    /// A planner with default options (no smoothing).
    pub fn new() -> Planner {
        Planner::with_options(PlannerOptions::default())
    }

    /// A planner with the given options.
    pub fn with_options(options: PlannerOptions) -> Planner {
        Planner {
            inner: regionpath_hierarchy::Planner::with_config(options.planner),
            smoother: regionpath_smoothing::Smoother::new(),
            options,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &PlannerOptions {
        &self.options
    }

    /// The hierarchical planner, for lazy leg-by-leg refinement
    /// ([`regionpath_hierarchy::Planner::start_query`] and
    /// [`regionpath_hierarchy::Planner::next_leg`]).
    pub fn legs(&mut self) -> &mut regionpath_hierarchy::Planner {
        &mut self.inner
    }

    /// Plans a path from `start` to `goal`.
    pub fn find_path(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Path, PathError> {
        let mut path = Path::default();
        self.find_path_into(hierarchy, grid, start, goal, &mut path)?;
        Ok(path)
    }

    /// [`Planner::find_path`] into a reused [`Path`]: once its vectors have
    /// grown, a query allocates nothing.
    pub fn find_path_into(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        start: Point,
        goal: Point,
        path: &mut Path,
    ) -> Result<(), PathError> {
        path.waypoints.clear();
        path.smoothed_length = 0.0;
        path.curve = None;
        let stats = self
            .inner
            .find_path_into(hierarchy, grid, start, goal, &mut path.cells)?;
        path.cost = stats.cost;
        path.stats = stats;
        if self.options.smooth {
            let opts = regionpath_smoothing::SmoothOptions::with_radius(self.options.unit_radius);
            let report = self
                .smoother
                .smooth(grid, &path.cells, &opts, &mut path.waypoints)?;
            path.smoothed_length = report.output_length;
            if self.options.turning_radius > 0.0 {
                let turn = regionpath_smoothing::TurnOptions {
                    turning_radius: self.options.turning_radius,
                    unit_radius: self.options.unit_radius,
                    policy: self.options.turn_policy,
                };
                path.curve = Some(regionpath_smoothing::curve(grid, &path.waypoints, &turn)?);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_option_fills_waypoints() {
        let grid = Grid::new(64, 64, true).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::with_options(PlannerOptions {
            smooth: true,
            ..Default::default()
        });
        let path = p
            .find_path(&h, &grid, Point::new(0, 0), Point::new(63, 20))
            .unwrap();
        assert_eq!(
            path.waypoints.len(),
            2,
            "open ground smooths to one segment"
        );
        let direct = ((63.0f64).powi(2) + 20.0f64.powi(2)).sqrt();
        assert!((path.smoothed_length - direct).abs() < 1e-3);
        assert!(path.smoothed_length <= path.cost);
    }

    #[test]
    fn turning_radius_gives_a_curve_that_ends_at_the_goal() {
        let grid = Grid::from_rows(&[
            "..........",
            "..........",
            "..@@@@@@..",
            "..@@@@@@..",
            "..........",
            "..........",
        ])
        .unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::with_options(PlannerOptions {
            smooth: true,
            turning_radius: 1.0,
            ..Default::default()
        });
        let path = p
            .find_path(&h, &grid, Point::new(0, 3), Point::new(9, 2))
            .unwrap();
        let curve = path.curve.expect("a curve");
        // Arcs cut the polyline's corners: never longer, never shorter than
        // the straight line between the ends.
        assert!(curve.length() as f64 <= path.smoothed_length + 1e-3);
        assert!(curve.length() as f64 >= (81.0f64 + 1.0).sqrt() - 1e-3);
        let (end, _) = curve.sample(curve.length());
        assert!((end.x - 9.5).abs() < 1e-3 && (end.y - 2.5).abs() < 1e-3);
        let (start, _) = curve.sample(0.0);
        assert!((start.x - 0.5).abs() < 1e-3 && (start.y - 3.5).abs() < 1e-3);
        // Strict: a radius far too large for these corners is an error
        // naming the turn.
        let mut strict = Planner::with_options(PlannerOptions {
            smooth: true,
            turning_radius: 50.0,
            turn_policy: regionpath_smoothing::TurnPolicy::Strict,
            ..Default::default()
        });
        assert!(matches!(
            strict.find_path(&h, &grid, Point::new(0, 3), Point::new(9, 2)),
            Err(PathError::Curve(_))
        ));
    }

    #[test]
    fn unreachable_is_reported() {
        let grid = Grid::from_rows(&["..@..", "..@.."]).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let e = Planner::new()
            .find_path(&h, &grid, Point::new(0, 0), Point::new(4, 1))
            .unwrap_err();
        assert!(e.is_unreachable());
        let mut bad = Planner::with_options(PlannerOptions {
            smooth: true,
            unit_radius: -1.0,
            ..Default::default()
        });
        assert!(matches!(
            bad.find_path(&h, &grid, Point::new(0, 0), Point::new(1, 1)),
            Err(PathError::Smooth(_))
        ));
    }
}
