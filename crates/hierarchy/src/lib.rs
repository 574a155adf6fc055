//! The region hierarchy of regionpath.
//!
//! Offline, [`Hierarchy::build`] cuts the grid into square sectors, splits
//! each sector's passable cells into regions (its connected pieces under the
//! grid's move rules), links regions of neighbouring sectors in a region
//! graph (petgraph) and builds a connectivity bit-matrix (fixedbitset) over
//! a coarser top level, so "can B be reached from A?" costs O(1).
//!
//! Per query, a [`Planner`] plans the region route with A* on the graph,
//! then refines it leg by leg with window-bounded jump point search (60×60 by default),
//! aiming each leg at the farthest route region about 40 cells ahead
//! (in a full query each leg after the first starts a little way back
//! along the previous one, so its search straightens the join), and
//! stitches the legs.
//!
//! ```
//! use regionpath_grid::{Grid, Point};
//! use regionpath_hierarchy::{Hierarchy, HierarchyConfig, Planner};
//!
//! let grid = Grid::new(200, 100, true).unwrap();
//! let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
//! let mut planner = Planner::new();
//! let mut path = Vec::new();
//! let stats = planner
//!     .find_path_into(&hierarchy, &grid, Point::new(0, 0), Point::new(199, 99), &mut path)
//!     .unwrap();
//! assert_eq!(path.first(), Some(&Point::new(0, 0)));
//! assert_eq!(path.last(), Some(&Point::new(199, 99)));
//! assert!(stats.cost >= 100.0 + 99.0 * (std::f64::consts::SQRT_2 - 1.0) - 1e-9);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod blocks;
mod build;
mod connectivity;
mod landmarks;
mod persist;
mod planner;
mod portals;
mod sector;
#[cfg(test)]
mod testing;
mod update;

pub use build::{
    BuildStats, Hierarchy, HierarchyConfig, Link, PortalMode, Region, RegionGraph, Run,
};
pub use persist::{read_file_summary, FileSummary, FORMAT_VERSION};
pub use planner::{PathError, PlanStats, Planner, PlannerConfig};

use thiserror::Error;

/// Errors from building, updating, saving or loading a hierarchy.
#[derive(Debug, Error)]
pub enum HierarchyError {
    /// A configuration value out of range.
    #[error("bad configuration: {0}")]
    BadConfig(String),
    /// The grid is not the one the hierarchy belongs to.
    #[error("grid mismatch: {0}")]
    GridMismatch(String),
    /// A changed cell outside the grid.
    #[error("changed cell {0} is outside the grid")]
    OutOfBounds(regionpath_grid::Point),
    /// Reading or writing failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// The file is not a regionpath hierarchy.
    #[error("not a regionpath hierarchy file (bad magic)")]
    BadMagic,
    /// The file was written by another format version.
    #[error(
        "hierarchy file format version {found}, this build reads version {expected}: rebuild it"
    )]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        expected: u32,
    },
    /// The file was built for another grid.
    #[error("hierarchy file was built for another map (grid checksum {found:#018x}, this map {expected:#018x}): rebuild it")]
    WrongGrid {
        /// Checksum in the file.
        found: u64,
        /// Checksum of the grid given.
        expected: u64,
    },
    /// The file is damaged.
    #[error("corrupted hierarchy file: {0}")]
    Corrupt(String),
}
