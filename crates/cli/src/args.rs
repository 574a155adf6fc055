//! Command-line arguments (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// Hierarchical grid pathfinding for large game worlds.
#[derive(Debug, Parser)]
#[command(name = "regionpath", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run Moving AI scenario files and check every path.
    Scen(ScenArgs),
    /// Generate a seeded map (and optionally a scenario file for it).
    Generate(GenerateArgs),
    /// Preprocess a map into a hierarchy file (`.rph`) and print its stats.
    Build(BuildArgs),
    /// Plan one path on a map and print it.
    Path(PathArgs),
}

/// Arguments of `regionpath build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The map (`.map`).
    #[arg(value_name = "MAP.map")]
    pub map: PathBuf,
    /// Where to write the hierarchy.
    #[arg(short = 'o', long = "out", value_name = "MAP.rph")]
    pub out: PathBuf,
    /// Sector side in cells (4..=256). Unless `--exact-sector` is given,
    /// sectors grow (1.5×, then 2×) on maps where the hierarchy would take
    /// more than 1 byte per cell.
    #[arg(long, default_value_t = 16)]
    pub sector: u32,
    /// Use `--sector` as given, even above 1 byte per cell.
    #[arg(long)]
    pub exact_sector: bool,
    /// Build on one thread instead of all.
    #[arg(long)]
    pub serial: bool,
    /// Exact portal layer (rooms joined by narrow doors, one-cell mazes):
    /// `auto` builds it where it pays, `always`, `never`.
    #[arg(long, value_enum, default_value_t = PortalChoice::Auto)]
    pub portals: PortalChoice,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `regionpath path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The map (`.map`).
    #[arg(value_name = "MAP.map")]
    pub map: PathBuf,
    /// Start cell as `X,Y`.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub from: (u32, u32),
    /// Goal cell as `X,Y`.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub to: (u32, u32),
    /// A hierarchy file from `regionpath build` (default: build in memory).
    #[arg(long, value_name = "FILE.rph")]
    pub hierarchy: Option<PathBuf>,
    /// Also smooth the path into any-angle waypoints.
    #[arg(long)]
    pub smooth: bool,
    /// Unit radius in cells for smoothing (0 = a point, 0.5 = a tile wide).
    #[arg(long, default_value_t = 0.0)]
    pub radius: f32,
    /// Round the smoothed path's corners with arcs of this radius (cells);
    /// turns that cannot take it are tightened and listed.
    #[arg(long, value_name = "R", requires = "smooth")]
    pub turning_radius: Option<f32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses `X,Y`.
fn parse_point(s: &str) -> Result<(u32, u32), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("`{s}` is not X,Y"))?;
    let x = x
        .trim()
        .parse::<u32>()
        .map_err(|_| format!("`{x}` is not a cell column"))?;
    let y = y
        .trim()
        .parse::<u32>()
        .map_err(|_| format!("`{y}` is not a cell row"))?;
    Ok((x, y))
}

/// Which planners `scen` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgoChoice {
    /// Plain A* over the whole grid (optimal).
    Astar,
    /// The hierarchical planner (regions, region graph, windowed legs).
    Hierarchical,
    /// Jump point search over the whole grid (optimal, exact like A*, far
    /// fewer expansions).
    Jps,
    /// A* and the hierarchical planner, A* first.
    Both,
    /// A*, jump point search and the hierarchical planner.
    All,
}

/// Arguments of `regionpath scen`.
#[derive(Debug, Args)]
pub struct ScenArgs {
    /// Scenario files (`.scen`), run in the order given.
    #[arg(required = true, value_name = "FILE.scen")]
    pub files: Vec<PathBuf>,
    /// Folder holding the maps. Default: the scenario file's folder, then
    /// `<scenario folder>/../maps/`.
    #[arg(long, value_name = "DIR")]
    pub maps: Option<PathBuf>,
    /// Planner(s) to run.
    #[arg(long, value_enum, default_value_t = AlgoChoice::Astar)]
    pub algo: AlgoChoice,
    /// Smooth every path and report smoothed length / optimal.
    #[arg(long)]
    pub smooth: bool,
    /// Also time each row's first leg (hierarchical planner only:
    /// `start_query` plus one `next_leg`, the moment a unit can start
    /// walking), in a second pass over the file's rows after the full
    /// queries, and report its median and 90th percentile.
    #[arg(long)]
    pub first_leg: bool,
    /// Hierarchical planner: skip the second route (`PlannerConfig::second_route
    /// = false`): cheaper queries, longer paths on room-like maps.
    #[arg(long)]
    pub no_second_route: bool,
    /// Exact portal layer (rooms joined by narrow doors, one-cell mazes):
    /// `auto` builds it where it pays, `always`, `never`.
    #[arg(long, value_enum, default_value_t = PortalChoice::Auto)]
    pub portals: PortalChoice,
    /// Run only every Nth row of each file (rows 0, N, 2N, ...).
    #[arg(long, value_name = "N", default_value = "1")]
    pub every: NonZeroUsize,
    /// Print one JSON object on stdout (everything else goes to stderr).
    #[arg(long)]
    pub json: bool,
    /// Write one CSV line per row and planner to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// When the hierarchy gets its exact portal layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PortalChoice {
    /// Where it pays (few portals per sector).
    Auto,
    /// On every map.
    Always,
    /// Never.
    Never,
}

impl PortalChoice {
    /// The library's setting.
    pub fn mode(self) -> regionpath::hierarchy::PortalMode {
        use regionpath::hierarchy::PortalMode;
        match self {
            PortalChoice::Auto => PortalMode::Auto,
            PortalChoice::Always => PortalMode::Always,
            PortalChoice::Never => PortalMode::Never,
        }
    }
}

/// Map families the generator knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MapKind {
    /// Rectangular rooms joined by doors, with pillars and wall pieces.
    Rooms,
    /// Cellular-automaton caves.
    Caves,
}

/// Arguments of `regionpath generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Map family.
    #[arg(long, value_enum)]
    pub kind: MapKind,
    /// Width in cells.
    #[arg(long)]
    pub width: u32,
    /// Height in cells.
    #[arg(long)]
    pub height: u32,
    /// Seed of the generator; the same seed gives the same files.
    #[arg(long)]
    pub seed: u64,
    /// Where to write the `.map` file.
    #[arg(short = 'o', long = "out", value_name = "OUT.map")]
    pub out: PathBuf,
    /// Also write a scenario file here.
    #[arg(long, value_name = "OUT.scen")]
    pub scen: Option<PathBuf>,
    /// Number of scenario rows (with `--scen`).
    #[arg(long, value_name = "N", default_value_t = 500, requires = "scen")]
    pub rows: usize,
}
