//! The errors the command reports (exit code 2).

use regionpath::grid::{MapError, MapErrorKind, Point, ScenError, ScenErrorKind};
use std::path::PathBuf;
use thiserror::Error;

/// Why a command could not run.
#[derive(Debug, Error)]
pub enum CliError {
    /// A map file that cannot be read.
    #[error("cannot read map {}: {message}", path.display())]
    MapIo {
        /// The file.
        path: PathBuf,
        /// The reader's message.
        message: String,
    },
    /// A malformed map file.
    #[error("{}:{}:{}: malformed map: {}", path.display(), source.line, source.column, source.kind)]
    Map {
        /// The file.
        path: PathBuf,
        /// The parser's error (line, column, kind).
        source: MapError,
    },
    /// A scenario file that cannot be read.
    #[error("cannot read scenario file {}: {message}", path.display())]
    ScenIo {
        /// The file.
        path: PathBuf,
        /// The reader's message.
        message: String,
    },
    /// A malformed scenario file.
    #[error("{}:{}:{}: malformed scenario file: {}", path.display(), source.line, source.column, source.kind)]
    Scen {
        /// The file.
        path: PathBuf,
        /// The parser's error (line, column, kind).
        source: ScenError,
    },
    /// A scenario file without rows.
    #[error("{}: the scenario file has no rows", path.display())]
    EmptyScen {
        /// The file.
        path: PathBuf,
    },
    /// The map a scenario row names is in none of the folders searched.
    #[error("{}:{line}: map `{name}` not found (looked for {tried})", scen.display())]
    MapNotFound {
        /// The scenario file.
        scen: PathBuf,
        /// The row's line.
        line: usize,
        /// The map file name.
        name: String,
        /// The paths tried, comma-separated.
        tried: String,
    },
    /// A row's stated map size differs from the map's.
    #[error(
        "{}:{line}: the row says map `{name}` is {row_width}x{row_height}, but {} is {map_width}x{map_height}",
        scen.display(), map.display()
    )]
    SizeMismatch {
        /// The scenario file.
        scen: PathBuf,
        /// The row's line.
        line: usize,
        /// The map name on the row.
        name: String,
        /// The map file.
        map: PathBuf,
        /// Width stated on the row.
        row_width: u32,
        /// Height stated on the row.
        row_height: u32,
        /// The map's width.
        map_width: u32,
        /// The map's height.
        map_height: u32,
    },
    /// A row whose start or goal is a blocked cell.
    #[error("{}:{line}: {which} {point} is a blocked cell of {}", scen.display(), map.display())]
    BlockedEndpoint {
        /// The scenario file.
        scen: PathBuf,
        /// The row's line.
        line: usize,
        /// `start` or `goal`.
        which: &'static str,
        /// The cell.
        point: Point,
        /// The map file.
        map: PathBuf,
    },
    /// A planner that failed on a query or while preparing a map.
    #[error("{algo} failed on {}{}: {message}", file.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Algo {
        /// The planner.
        algo: String,
        /// The scenario or map file.
        file: PathBuf,
        /// The row's line, if a query failed.
        line: Option<usize>,
        /// The planner's message.
        message: String,
    },
    /// A hierarchy that cannot be built, read or written.
    #[error("{}: {source}", path.display())]
    Hierarchy {
        /// The map or hierarchy file.
        path: PathBuf,
        /// What went wrong.
        source: regionpath::hierarchy::HierarchyError,
    },
    /// A path that cannot be planned (bad endpoints, unreachable goal, ...).
    #[error("no path: {0}")]
    Path(#[from] regionpath::Error),
    /// An argument out of range.
    #[error("invalid argument: {0}")]
    Usage(String),
    /// An output file that cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl CliError {
    /// Wraps a map reader error, keeping I/O failures apart from parse
    /// failures (which carry a line and column).
    pub fn from_map(path: PathBuf, e: MapError) -> CliError {
        match e.kind {
            MapErrorKind::Io(message) => CliError::MapIo { path, message },
            _ => CliError::Map { path, source: e },
        }
    }

    /// Wraps a scenario reader error like [`CliError::from_map`].
    pub fn from_scen(path: PathBuf, e: ScenError) -> CliError {
        match e.kind {
            ScenErrorKind::Io(message) => CliError::ScenIo { path, message },
            _ => CliError::Scen { path, source: e },
        }
    }
}
