//! Any-angle smoothing of grid paths, for units with a radius, and
//! turning-radius curves.
//!
//! A grid search returns a chain of cells (8-connected, no corner cutting).
//! This crate turns it into what a game unit should follow:
//!
//! * [`Smoother`] / [`smooth`]: a polyline of [`Vec2`] waypoints from the
//!   start cell's centre to the goal cell's centre, taut around obstacle
//!   corners (close to the shortest any-angle path), never longer than the
//!   cell path, and clear for a unit of the given radius.
//! * [`Smoother::smooth_profiled`]: the same for a position path found under
//!   a movement profile (`ProfileGrid`): waypoints at footprint centres,
//!   shortcuts only where the unit's `k × k` footprint fits and that cost no
//!   more than the positions they replace ([`ProfiledReport`]).
//! * [`segment_clear`]: the exact swept-disc (capsule) test used throughout.
//! * [`curve`]: rounds the polyline's corners with arcs of a turning radius
//!   into a [`CurvedPath`] sampled by distance travelled, checking every arc
//!   against the obstacles and reporting turns that cannot be made legal.
//!
//! # Geometry and the clearance rule
//!
//! Cell `(x, y)` is the closed square `[x, x + 1] × [y, y + 1]`; positions are
//! in cells, `y` grows downward. A segment (or arc) is *clear* for radius `r`
//! when every blocked square and everything outside the map is at a distance
//! **greater than** `r` from it: touching counts as blocked, for every radius.
//! With `r = 0` that is exactly [`Grid::line_of_sight`]'s rule (no grazing of
//! corners, so no corner cutting); with `r = 0.5` a unit as wide as a tile
//! needs corridors wider than one cell.
//!
//! # Example
//!
//! ```
//! use regionpath_grid::{Grid, Point};
//! use regionpath_smoothing::{polyline_length, segment_clear, SmoothOptions, Smoother, Vec2};
//!
//! let grid = Grid::from_rows(&[
//!     "........",
//!     "..@@@@..",
//!     "..@@@@..",
//!     "........",
//! ])
//! .unwrap();
//! // A grid path around the block: along the top row, then down.
//! let cells = [(0, 2), (1, 1), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 1), (7, 2)]
//!     .map(|(x, y)| Point::new(x, y));
//! let mut smoother = Smoother::new();
//! let mut waypoints = Vec::new();
//! let report = smoother
//!     .smooth(&grid, &cells, &SmoothOptions::default(), &mut waypoints)
//!     .unwrap();
//! assert_eq!(waypoints.first(), Some(&Vec2::new(0.5, 2.5)));
//! assert_eq!(waypoints.last(), Some(&Vec2::new(7.5, 2.5)));
//! // Two waypoints hug the block's top corners (2, 1) and (6, 1).
//! assert_eq!(waypoints.len(), 4);
//! assert!((waypoints[1].x - 2.0).abs() < 0.01 && (waypoints[1].y - 1.0).abs() < 0.01);
//! assert!(waypoints.windows(2).all(|w| segment_clear(&grid, w[0], w[1], 0.0)));
//! assert!(report.output_length < report.input_length);
//! assert!((polyline_length(&waypoints) - report.output_length).abs() < 1e-9);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod curve;
mod ease;
mod geom;
mod profiled;
mod smooth;
mod vec2;

pub use curve::{
    curve, curve_into, line_f32, BlockedTurn, CurveError, CurveScratch, CurveSegment, CurvedPath,
    TurnOptions, TurnPolicy,
};
pub use ease::{ease_corners, EaseScratch};
pub use geom::{
    arc_cell_distance, arc_clear_swept, polyline_length, segment_cell_distance, segment_clear,
};
pub use profiled::ProfiledReport;
pub use smooth::{smooth, SmoothError, SmoothOptions, SmoothReport, Smoother};
pub use vec2::Vec2;

#[cfg(doc)]
use regionpath_grid::Grid;
