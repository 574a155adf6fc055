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
}

/// Which planners `scen` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgoChoice {
    /// Plain A* over the whole grid (optimal).
    Astar,
    /// The hierarchical planner (regions, region graph, windowed legs).
    Hierarchical,
    /// Both, A* first.
    Both,
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
