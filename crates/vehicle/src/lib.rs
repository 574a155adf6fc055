//! Vehicles on grids: directional A* with a turning radius, a unit radius,
//! start and goal headings (Pinter, "Toward More Realistic Pathfinding",
//! 2001).
//!
//! A node is a cell and one of 8 or 16 headings; its children are the cells
//! of its Directional-8/24/48 neighbourhood with every heading, each reached
//! by the shortest curve of arcs of the turning radius and lines (a Dubins
//! curve with both end headings fixed). The curves and the cells their
//! swept disc touches (hit-check tables) are computed once per vehicle in a
//! [`Steering`]; a [`DirectionalSearch`] then checks a child with a few
//! word operations per table row.
//!
//! * [`Steering`] / [`VehicleSpec`]: the primitives and tables.
//! * [`DirectionalSearch`]: A* over (cell, heading) within an [`Area`] and a
//!   node budget, from a [`Start`] (a cell facing anywhere, or an exact
//!   pose) to a [`Goal`] (a cell, or an exact pose), writing the curve's
//!   pieces as [`CurveSegment`]s into a [`Track`] (each marked forwards or
//!   reverse: with [`VehicleSpec::reverse`] the vehicle may back up, at a
//!   [`Reverse`] penalty); [`Outcome`] says how it ended.
//!   [`DirectionalSearch::find_weighted`] searches a movement profile's
//!   positions ([`regionpath_grid::ProfileGrid`]) and prices each piece by
//!   the terrain under its centreline (∫ cost ds; each primitive's cells
//!   and lengths precomputed in the [`Steering`] from exact grid-line
//!   crossings), so the curve is the cheapest, not the shortest.
//! * [`check_curve`]: the legality check every returned curve passes.
//! * [`sample_curve`]: samples by distance, with optional sprite headings.
//!
//! Coordinates are the smoothing crate's: cell `(x, y)` is the square
//! `[x, x + 1] × [y, y + 1]`, headings are `atan2(dy, dx)` (0 = +x,
//! π/2 = +y, down the map).
//!
//! ```
//! use regionpath_grid::{Grid, Point};
//! use regionpath_vehicle::*;
//! use std::sync::Arc;
//!
//! let grid = Grid::new(20, 20, true)?;
//! let steering = Arc::new(Steering::new(VehicleSpec::new(2.0, 0.4))?);
//! let mut search = DirectionalSearch::new(steering);
//! let mut pieces = Track::new();
//! // From (2, 10) facing +x to (10, 3) arriving facing −y (up the map).
//! let start = Start::Pose(Pose::new(2.5, 10.5, 0.0));
//! let goal = Goal::Pose(Pose::new(10.5, 3.5, -std::f64::consts::FRAC_PI_2));
//! let outcome = search.find(&grid, start, goal, &Limits::default(), &mut pieces)?;
//! assert!(matches!(outcome, Outcome::Found { .. }));
//! let curve = pieces.to_curve()?;
//! assert!(check_curve(&grid, &curve, 2.0, 0.4).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod cells;
mod dubins;
mod nodes;
mod pieces;
mod search;
mod steering;

pub use dubins::{shortest, Maneuver, Piece, Pose};
pub use pieces::{check_curve, sample_curve, to_degrees, Sample, Track, Violation};
pub use regionpath_smoothing::CurveSegment;
pub use search::{Area, DirectionalSearch, Escape, Goal, Limits, Outcome, Start, DENSE_LIMIT};
pub use steering::{
    max_length, Neighbourhood, Reverse, Steering, VehicleSpec, MAX_EXTENT, TABLE_MARGIN,
};

use thiserror::Error;

/// Bad input to the vehicle search.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum VehicleError {
    /// A [`VehicleSpec`] field is out of its documented bounds.
    #[error("vehicle {field} must be {expected}")]
    Spec {
        /// The field.
        field: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// The search area reaches past the map.
    #[error("the search area reaches past the map")]
    AreaOutsideMap,
    /// The area has too many (cell, heading) nodes for 32-bit indices.
    #[error("the search area is too large")]
    AreaTooLarge,
    /// The start or goal lies outside the search area (or the map).
    #[error("the {what} lies outside the search area")]
    OutsideArea {
        /// "start" or "goal".
        what: &'static str,
    },
    /// The start or goal cell is blocked.
    #[error("the {what} cell is blocked")]
    Blocked {
        /// "start" or "goal".
        what: &'static str,
    },
    /// A pose has a NaN or infinite field.
    #[error("a pose is not finite")]
    NonFinite,
}
