//! The one error type of the facade: every failure of the library, flat,
//! with structured fields.

use regionpath_grid::{GridError, MapError, Point, ProfileError, ScenError};
use regionpath_hierarchy::{ConfigError, HierarchyError, PlanError};
use regionpath_smoothing::{CurveError, SmoothError};
use std::fmt;
use thiserror::Error;

/// Which end of a query a [`Error::OutOfBounds`] or [`Error::Blocked`]
/// names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Endpoint {
    /// The start.
    Start,
    /// The goal.
    Goal,
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// Everything that can go wrong in regionpath, as one flat enum. Every
/// library error converts into it (`?` works in a function returning
/// `Result<_, regionpath::Error>`). New variants may be added: match with a
/// wildcard arm.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A query endpoint lies outside the grid.
    #[error("{endpoint} {point} is outside the grid")]
    OutOfBounds {
        /// Which endpoint.
        endpoint: Endpoint,
        /// The cell given.
        point: Point,
    },
    /// A query endpoint is on a blocked cell.
    #[error("{endpoint} {point} is on a blocked cell")]
    Blocked {
        /// Which endpoint.
        endpoint: Endpoint,
        /// The cell given.
        point: Point,
    },
    /// No path exists: answered from the connectivity matrix in O(1),
    /// without a search.
    #[error("goal {goal} cannot be reached from {start}")]
    Unreachable {
        /// The start.
        start: Point,
        /// The goal.
        goal: Point,
    },
    /// The grid is not the size the hierarchy was built for.
    #[error("grid is {grid_width}x{grid_height} but the hierarchy was built for {width}x{height}")]
    GridSize {
        /// Grid width.
        grid_width: u32,
        /// Grid height.
        grid_height: u32,
        /// Hierarchy width.
        width: u32,
        /// Hierarchy height.
        height: u32,
    },
    /// The grid changed since the hierarchy was built or updated (or is
    /// another `Grid` value): call [`crate::Hierarchy::update`] after an
    /// edit, or [`crate::Hierarchy::attach`] for an equal grid. Checked in
    /// O(1) on every query.
    #[error("the grid (revision {grid}) is not the one the hierarchy serves (revision {hierarchy}): update or attach the hierarchy")]
    StaleGrid {
        /// The grid's revision.
        grid: u64,
        /// The revision the hierarchy (or the lazy query) was planned on.
        hierarchy: u64,
    },
    /// A lazy [`crate::Query`] was given another hierarchy than the one it
    /// was started on (another [`crate::Hierarchy::lineage`]; a later
    /// state of the same hierarchy is fine: the query repairs itself):
    /// start it again from where the unit stands.
    #[error("the query belongs to another hierarchy (query {query}, hierarchy {hierarchy}): start it again")]
    QueryMismatch {
        /// The hierarchy stamp the query was started on.
        query: u64,
        /// The stamp of the hierarchy given.
        hierarchy: u64,
    },
    /// A lazy query planning again after a map change found the unit's
    /// position blocked: an edit walled the unit in. The query is finished.
    #[error("the unit's position {point} is blocked after a map change: it was walled in")]
    Trapped {
        /// Where the unit stands.
        point: Point,
    },
    /// [`crate::Planner::replan_from`] was given a cell the query has not
    /// handed out; the query is unchanged.
    #[error("{point} is not a cell the query handed out")]
    NotHandedOut {
        /// The cell given.
        point: Point,
    },
    /// A configuration value outside its bounds (refused when the planner
    /// or hierarchy is built).
    #[error("bad configuration: {field} = {value} ({expected})")]
    Config {
        /// The setting, as its builder method is named.
        field: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// A turn of the smoothed path cannot take the turning radius (with
    /// [`crate::TurnPolicy::Strict`]).
    #[error("the turn at waypoint {waypoint} needs a turning radius of at most {max_legal_radius} ({turns} such turns)")]
    TurnTooTight {
        /// Index of the first such waypoint.
        waypoint: usize,
        /// The largest radius that corner can take.
        max_legal_radius: f32,
        /// How many corners cannot take the radius.
        turns: usize,
    },
    /// No legal curve for the vehicle was found (with
    /// [`crate::TurnPolicy::Strict`]): the smoothed path's blocked turns
    /// could not be repaired by the directional search near them, nor along
    /// a path planned again with room to turn, nor by one search over the
    /// whole path's box within its node budget.
    #[error("no legal curve for the turning radius ({expansions} directional nodes expanded)")]
    NoLegalCurve {
        /// Nodes the directional searches expanded in all.
        expansions: u64,
    },
    /// The smoothed path has a segment the unit cannot pass with
    /// [`crate::Config::unit_radius`] (a passage narrower than the unit,
    /// see [`crate::Path::narrow_segments`]), so no curve for a
    /// [`crate::Config::turning_radius`] can follow it; with
    /// [`crate::TurnPolicy::Strict`], the stages that plan away from the
    /// path (the cell path again along wide corridors, the search over the
    /// path's box) found no legal curve either. Plan with a profile of the
    /// unit's size (its cell path then fits the unit), a smaller unit
    /// radius, or without a turning radius to get the waypoints.
    #[error("the unit does not fit through the passage at waypoint segment {segment} (unit radius too large), so no curve can follow the path")]
    UnitTooWide {
        /// Index of the first waypoint of the first such segment.
        segment: usize,
    },
    /// A `.map` file (or text) could not be read or parsed.
    #[error("map, line {line}, column {column}: {message}")]
    Map {
        /// 1-based line (0: the file as a whole).
        line: usize,
        /// 1-based column (0: the line as a whole).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A `.scen` file could not be read or parsed.
    #[error("scenario, line {line}, column {column}: {message}")]
    Scenario {
        /// 1-based line (0: the file as a whole).
        line: usize,
        /// 1-based column (0: the line as a whole).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A hierarchy file could not be read or written, or is not one this
    /// build accepts for this grid (another map, another format version,
    /// damaged): rebuild it.
    #[error("hierarchy file: {message}")]
    HierarchyFile {
        /// What is wrong.
        message: String,
    },
    /// A grid could not be made or edited (a size out of range, a cell
    /// outside it).
    #[error("grid: {message}")]
    Grid {
        /// What is wrong.
        message: String,
    },
    /// A cell given to [`crate::Hierarchy::update`] lies outside the grid.
    #[error("changed cell {point} is outside the grid")]
    EditOutOfBounds {
        /// The cell given.
        point: Point,
    },
    /// With `fit_memory` on, no sector size up to 256 keeps the hierarchy
    /// within its memory budget (one byte per cell, at least 16 KiB; portal
    /// layer excluded), even with no landmarks: build with `fit_memory`
    /// off to accept the size.
    #[error("the hierarchy needs {bytes} bytes at sector size {sector_size} with no landmarks, over its memory budget of {budget} bytes (1 byte per cell, at least 16 KiB): build with fit_memory off to accept it")]
    OverBudget {
        /// Bytes the smallest candidate holds.
        bytes: u64,
        /// The budget: one byte per cell, at least 16 KiB.
        budget: u64,
        /// Sector size of that candidate.
        sector_size: u32,
    },
    /// The hierarchy contradicts the grid it was checked against (its
    /// revision matches, yet a route or cell has no counterpart): a
    /// hand-edited or damaged hierarchy. Rebuild it.
    #[error("the hierarchy contradicts its grid ({reason}): rebuild it")]
    Inconsistent {
        /// What disagreed.
        reason: String,
    },
    /// A movement profile could not be read or is invalid: the message
    /// names the file, line, column and field ([`ProfileError`]).
    #[error("{error}")]
    Profile {
        /// What is wrong, and where.
        #[source]
        error: ProfileError,
    },
    /// The unit radius is wider than the hierarchy's movement profile
    /// lets the unit be: a unit of size k covers k × k cells, so its radius
    /// may be at most k / 2 ([`crate::Config::unit_radius`]). Waypoints for
    /// a wider unit could cross cells its footprint never checked.
    #[error("unit radius {radius} is wider than profile `{profile}` (size {size}) allows: at most {max}")]
    RadiusOverSize {
        /// The configured radius.
        radius: f32,
        /// The profile's name.
        profile: String,
        /// The profile's unit size k.
        size: u32,
        /// The largest radius accepted, k / 2.
        max: f32,
    },
}

impl From<ProfileError> for Error {
    fn from(error: ProfileError) -> Error {
        Error::Profile { error }
    }
}

impl Error {
    /// Whether the goal cannot be reached from the start.
    pub fn is_unreachable(&self) -> bool {
        matches!(self, Error::Unreachable { .. })
    }
}

impl From<ConfigError> for Error {
    fn from(e: ConfigError) -> Error {
        Error::Config {
            field: e.field,
            value: e.value,
            expected: e.expected,
        }
    }
}

impl From<PlanError> for Error {
    fn from(e: PlanError) -> Error {
        match e {
            PlanError::StartOutOfBounds(point) => Error::OutOfBounds {
                endpoint: Endpoint::Start,
                point,
            },
            PlanError::GoalOutOfBounds(point) => Error::OutOfBounds {
                endpoint: Endpoint::Goal,
                point,
            },
            PlanError::StartBlocked(point) => Error::Blocked {
                endpoint: Endpoint::Start,
                point,
            },
            PlanError::GoalBlocked(point) => Error::Blocked {
                endpoint: Endpoint::Goal,
                point,
            },
            PlanError::Unreachable { start, goal } => Error::Unreachable { start, goal },
            PlanError::GridMismatch {
                grid_width,
                grid_height,
                width,
                height,
            } => Error::GridSize {
                grid_width,
                grid_height,
                width,
                height,
            },
            PlanError::StaleGrid { grid, hierarchy } => Error::StaleGrid { grid, hierarchy },
            PlanError::QueryMismatch { query, hierarchy } => {
                Error::QueryMismatch { query, hierarchy }
            }
            PlanError::Trapped(point) => Error::Trapped { point },
            PlanError::NotHandedOut(point) => Error::NotHandedOut { point },
            PlanError::Stale(reason) => Error::Inconsistent { reason },
            PlanError::Search(e) => Error::Inconsistent {
                reason: e.to_string(),
            },
        }
    }
}

impl From<HierarchyError> for Error {
    fn from(e: HierarchyError) -> Error {
        match e {
            HierarchyError::BadConfig(c) => c.into(),
            HierarchyError::OutOfBounds(point) => Error::EditOutOfBounds { point },
            HierarchyError::GridMismatch(reason) => Error::Inconsistent { reason },
            HierarchyError::OverBudget {
                bytes,
                budget,
                sector_size,
            } => Error::OverBudget {
                bytes,
                budget,
                sector_size,
            },
            other => Error::HierarchyFile {
                message: other.to_string(),
            },
        }
    }
}

impl From<GridError> for Error {
    fn from(e: GridError) -> Error {
        Error::Grid {
            message: e.to_string(),
        }
    }
}

impl From<MapError> for Error {
    fn from(e: MapError) -> Error {
        Error::Map {
            line: e.line,
            column: e.column,
            message: e.kind.to_string(),
        }
    }
}

impl From<ScenError> for Error {
    fn from(e: ScenError) -> Error {
        Error::Scenario {
            line: e.line,
            column: e.column,
            message: e.kind.to_string(),
        }
    }
}

impl From<CurveError> for Error {
    fn from(e: CurveError) -> Error {
        match e {
            CurveError::TurnBlocked {
                waypoint,
                max_legal_radius,
                turns,
            } => Error::TurnTooTight {
                waypoint,
                max_legal_radius,
                turns: turns.len(),
            },
            CurveError::SegmentBlocked { segment } => Error::UnitTooWide { segment },
            // The radii are validated with the configuration and the
            // waypoints come from the smoother: only a contradiction
            // between hierarchy and grid can get here.
            other => Error::Inconsistent {
                reason: other.to_string(),
            },
        }
    }
}

impl From<SmoothError> for Error {
    fn from(e: SmoothError) -> Error {
        // The radius is validated with the configuration (and against a
        // profile's size per query) and the cells come from the planner.
        match e {
            SmoothError::RadiusExceedsSize { radius, .. } => Error::Config {
                field: "unit_radius",
                value: radius.to_string(),
                expected: "at most half the movement profile's unit size",
            },
            e => Error::Inconsistent {
                reason: e.to_string(),
            },
        }
    }
}
