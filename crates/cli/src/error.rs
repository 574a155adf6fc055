//! The errors the command reports, their exit codes and their JSON form.
//!
//! Exit codes (the contract every subcommand keeps):
//!
//! | code | meaning | JSON `status` |
//! |---|---|---|
//! | 0 | success | `ok` |
//! | 1 | no path: the goal cannot be reached from the start | `no_path` |
//! | 2 | bad input: a file that cannot be read, parsed or written (standard output included), a bad argument, a blocked or out-of-grid endpoint, a stale or damaged hierarchy file | `bad_input` |
//! | 3 | planning failure: a planner or the curve failed on valid input (a turn that cannot take the turning radius with `--strict-turns`, no legal vehicle curve, a unit too wide for a passage on a curve), or `scen` found an invalid or wrong path | `planning_failed` |
//!
//! A closed standard output (`| head -1`) ends the program quietly with
//! code 141, as if killed by SIGPIPE.

use regionpath::grid::{MapError, MapErrorKind, Point, ProfileError, ScenError, ScenErrorKind};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// How a command ended when no error stopped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Success (exit code 0).
    Ok,
    /// The goal cannot be reached (exit code 1).
    NoPath,
    /// A planner failed or gave an invalid or wrong answer (exit code 3).
    Failed,
}

impl Outcome {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Ok => 0,
            Outcome::NoPath => 1,
            Outcome::Failed => 3,
        }
    }

    /// The JSON `status` field.
    pub fn status(self) -> &'static str {
        status_of(self.code())
    }
}

/// Exit code for bad input.
pub const BAD_INPUT: u8 = 2;
/// Exit code for a closed standard output (128 + SIGPIPE).
pub const CLOSED_PIPE: u8 = 141;

/// The JSON `status` of an exit code.
pub fn status_of(code: u8) -> &'static str {
    match code {
        0 => "ok",
        1 => "no_path",
        3 => "planning_failed",
        CLOSED_PIPE => "output_closed",
        _ => "bad_input",
    }
}

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
    /// A row whose start or goal is not a usable position for the
    /// movement profile (a cell of its footprint is off the map or has no
    /// cost in the profile).
    #[error(
        "{}:{line}: {which} {point} is not a usable position of {} for profile `{profile}`",
        scen.display(), map.display()
    )]
    UnusableEndpoint {
        /// The scenario file.
        scen: PathBuf,
        /// The row's line.
        line: usize,
        /// `start` or `goal`.
        which: &'static str,
        /// The position.
        point: Point,
        /// The map file.
        map: PathBuf,
        /// The profile's name.
        profile: String,
    },
    /// A movement profile file that cannot be read or is not a valid
    /// profile; the message names the file, line, column and field.
    #[error("{source}")]
    Profile {
        /// The profile file.
        path: PathBuf,
        /// What is wrong, and where.
        source: ProfileError,
    },
    /// A malformed trace line, or one the map cannot take (a point or
    /// rectangle off the map, a walk for a unit never started).
    #[error("{}:{}:{}: bad trace line: {}", path.display(), source.line, source.column, source.kind)]
    Trace {
        /// The trace file.
        path: PathBuf,
        /// The line, column and what is wrong.
        source: crate::trace::TraceError,
    },
    /// A combination of options the chosen planner does not support.
    #[error("not supported: {0}")]
    Unsupported(String),
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
    /// A path that cannot be planned (bad endpoints, a curve that cannot
    /// take the turning radius, ...).
    #[error("{}: {source}", map.display())]
    Path {
        /// The map.
        map: PathBuf,
        /// The planner's error.
        source: regionpath::Error,
    },
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
    /// A file that cannot be read (not a map or scenario file).
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Standard output cannot be written (closed pipe, full disk).
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),
    /// A step whose estimated peak memory exceeds the memory budget.
    #[error(
        "{step} needs about {need_mb} MiB, over the memory budget of {budget_mb} MiB \
         (see --memory-budget)"
    )]
    OverBudget {
        /// The step.
        step: String,
        /// Its estimated peak, MiB.
        need_mb: u64,
        /// The budget, MiB.
        budget_mb: u64,
    },
}

impl CliError {
    /// The process exit code (see the module documentation).
    pub fn exit_code(&self) -> u8 {
        use regionpath::Error as E;
        match self {
            CliError::Stdout(e) if e.kind() == std::io::ErrorKind::BrokenPipe => CLOSED_PIPE,
            CliError::Algo { .. } => 3,
            CliError::Path {
                source: E::Unreachable { .. },
                ..
            } => 1,
            CliError::Path {
                source:
                    E::TurnTooTight { .. }
                    | E::UnitTooWide { .. }
                    | E::NoLegalCurve { .. }
                    | E::Inconsistent { .. },
                ..
            } => 3,
            _ => BAD_INPUT,
        }
    }

    /// The file, line and column the error is about, where it has them.
    pub fn location(&self) -> (Option<&Path>, Option<usize>, Option<usize>) {
        match self {
            CliError::Map { path, source } => (Some(path), Some(source.line), Some(source.column)),
            CliError::Scen { path, source } => (Some(path), Some(source.line), Some(source.column)),
            CliError::Trace { path, source } => {
                (Some(path), Some(source.line), Some(source.column))
            }
            CliError::MapNotFound { scen, line, .. }
            | CliError::SizeMismatch { scen, line, .. }
            | CliError::BlockedEndpoint { scen, line, .. }
            | CliError::UnusableEndpoint { scen, line, .. } => (Some(scen), Some(*line), None),
            CliError::Profile { path, source } => match source {
                ProfileError::At { line, column, .. } => (Some(path), Some(*line), Some(*column)),
                _ => (Some(path), None, None),
            },
            CliError::Algo { file, line, .. } => (Some(file), *line, None),
            CliError::MapIo { path, .. }
            | CliError::ScenIo { path, .. }
            | CliError::EmptyScen { path }
            | CliError::Hierarchy { path, .. }
            | CliError::Write { path, .. }
            | CliError::Read { path, .. } => (Some(path), None, None),
            CliError::Path { map, .. } => (Some(map), None, None),
            CliError::Usage(_)
            | CliError::Unsupported(_)
            | CliError::Stdout(_)
            | CliError::OverBudget { .. } => (None, None, None),
        }
    }

    /// The error as the one JSON object `--json` prints.
    pub fn to_json(&self) -> Value {
        let code = self.exit_code();
        let (file, line, column) = self.location();
        let mut v = json!({
            "status": status_of(code),
            "exit_code": code,
            "error": self.to_string(),
        });
        if let Some(f) = file {
            v["file"] = json!(f.display().to_string());
        }
        if let Some(l) = line {
            v["line"] = json!(l);
        }
        if let Some(c) = column {
            v["column"] = json!(c);
        }
        if let CliError::Profile {
            source: ProfileError::At { field, .. },
            ..
        } = self
        {
            v["field"] = json!(field);
        }
        if let CliError::Path { source, .. } = self {
            v["found"] = json!(false);
            v["reason"] = json!(source.to_string());
        }
        v
    }

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
