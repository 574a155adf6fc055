//! The region hierarchy of regionpath.
//!
//! Offline, [`Hierarchy::build`] cuts the grid into square sectors, splits
//! each sector's passable cells into regions (its connected pieces under the
//! grid's move rules), links regions of neighbouring sectors in a region
//! graph and labels its connected components, so "can B be reached from
//! A?" costs O(1). After map edits, [`Hierarchy::update`] repairs it
//! locally (reachability exact at once) and [`Hierarchy::refresh`] rebuilds
//! the route accelerators it switched off.
//!
//! Per query, a [`CellPlanner`] plans the region route with A* on the graph,
//! then refines it leg by leg with window-bounded jump point search (60×60 by default),
//! aiming each leg at the farthest route region about 40 cells ahead
//! (in a full query each leg after the first starts a little way back
//! along the previous one, so its search straightens the join), and
//! stitches the legs.
//!
//! ```
//! use regionpath_grid::{Grid, Point};
//! use regionpath_hierarchy::{Hierarchy, HierarchyConfig, CellPlanner};
//!
//! let grid = Grid::new(200, 100, true).unwrap();
//! let hierarchy = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
//! let mut planner = CellPlanner::new();
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

mod build;
#[cfg(test)]
mod checks;
mod config;
mod derived;
mod graph;
mod model;
mod par;
mod persist;
mod portal;
mod profile;
mod query;
mod sector;
#[cfg(test)]
mod testing;
mod update;

pub use config::{memory_budget, HierarchyConfig, PortalMode, MIN_BUDGET_BYTES};
pub use graph::{Link, Region, RegionId, Run};
pub use model::{BuildStats, Hierarchy};
pub use persist::{read_file_summary, FileSummary, FORMAT_VERSION};
pub use query::{
    CellPlanner, GroupPaths, GroupStats, PlanError, PlanStats, PlannerConfig, Query, Reached, Step,
    MAX_FIELD_SIDE, MAX_RECHECK_WINDOW, MAX_ROUNDS, MAX_WINDOW, REGION_WEIGHT,
};

use thiserror::Error;

/// A configuration value outside its documented bounds: refused when the
/// hierarchy or planner is built, never on a query.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("bad configuration: {field} = {value} ({expected})")]
pub struct ConfigError {
    /// The setting, as its builder method is named.
    pub field: &'static str,
    /// The value given.
    pub value: String,
    /// What is accepted.
    pub expected: &'static str,
}

impl ConfigError {
    pub(crate) fn new(field: &'static str, value: impl ToString, expected: &'static str) -> Self {
        ConfigError {
            field,
            value: value.to_string(),
            expected,
        }
    }
}

/// Errors from building, updating, saving or loading a hierarchy.
#[derive(Debug, Error)]
pub enum HierarchyError {
    /// A configuration value out of range.
    #[error(transparent)]
    BadConfig(#[from] ConfigError),
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
    /// The file was built for another movement profile (or for none, or
    /// under one where none was asked): see
    /// [`Hierarchy::from_bytes_with_profile`].
    #[error("hierarchy file was built for {found}, not {expected}: rebuild it for this profile")]
    WrongProfile {
        /// What the file records.
        found: String,
        /// What the caller asked for.
        expected: String,
    },
    /// The file is damaged.
    #[error("corrupted hierarchy file: {0}")]
    Corrupt(String),
    /// With [`HierarchyConfig::fit_memory`], no sector size up to 256 with
    /// no landmarks keeps the hierarchy within its budget ([`memory_budget`]: one
    /// byte per cell, at least [`MIN_BUDGET_BYTES`]; portal layer excluded). Build
    /// with `fit_memory` off to accept the size.
    #[error("the hierarchy needs {bytes} bytes at sector size {sector_size} with no landmarks, over its memory budget of {budget} bytes (1 byte per cell, at least 16 KiB): build with fit_memory off to accept it")]
    OverBudget {
        /// Bytes the smallest candidate holds.
        bytes: u64,
        /// The budget ([`memory_budget`]).
        budget: u64,
        /// Sector size of that candidate.
        sector_size: u32,
    },
    /// The file's checksum holds but a part of it contradicts the rest or
    /// the grid it was built for (a damaged file whose checksum was
    /// recomputed, or a faulty writer): refused rather than answering
    /// wrongly.
    #[error("inconsistent hierarchy file: {part}: {reason}")]
    Inconsistent {
        /// The record that disagrees.
        part: FilePart,
        /// What disagrees.
        reason: &'static str,
    },
}

/// A record of a `.rph` file, named by [`HierarchyError::Inconsistent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilePart {
    /// A sector (its index in row-major order) and its regions as a whole.
    Sector(u32),
    /// A region, by its index in the region table.
    Region(u32),
    /// An edge, by its index in the edge table, with the two regions it
    /// names.
    Edge {
        /// Index in the edge table.
        index: u32,
        /// The lower region id it names.
        a: u32,
        /// The higher region id it names.
        b: u32,
    },
    /// The landmark table (format 6): its distances disagree with the
    /// edges or a landmark with itself.
    Landmarks,
    /// The stored portal layer (format 6): a field or a landmark distance
    /// disagrees with the grid or the portal graph.
    Portals,
    /// The derived tables (format 8 on): component or cluster labels, the
    /// levels or the block-cut tree disagree with the region graph.
    Derived,
}

impl std::fmt::Display for FilePart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FilePart::Sector(s) => write!(f, "sector {s}"),
            FilePart::Region(r) => write!(f, "region {r}"),
            FilePart::Edge { index, a, b } => write!(f, "edge {index} (regions {a}-{b})"),
            FilePart::Landmarks => write!(f, "landmark table"),
            FilePart::Portals => write!(f, "portal layer"),
            FilePart::Derived => write!(f, "derived tables"),
        }
    }
}
