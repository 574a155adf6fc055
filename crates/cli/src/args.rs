//! Command-line arguments (clap derive).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// The exit-code contract, shown under every `--help`.
pub const EXIT_CODES: &str = "\
Exit codes (with --json every outcome, errors included, is one JSON object on stdout
with a `status` field):
  0  ok
  1  no path: the goal cannot be reached from the start (status `no_path`)
  2  bad input: a file that cannot be read, parsed or written (stdout included), a bad
     argument, a blocked or out-of-grid endpoint, a stale or damaged .rph (`bad_input`)
  3  planning failure: a planner or the curve failed on valid input, or `scen` found an
     invalid or wrong path (`planning_failed`)
A closed stdout (`| head -1`) ends the program quietly with 141.";

/// Hierarchical grid pathfinding for large game worlds.
#[derive(Debug, Parser)]
#[command(name = "regionpath", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run Moving AI scenario files and check every path.
    #[command(after_help = EXIT_CODES)]
    Scen(ScenArgs),
    /// Generate a seeded map, or mirror-tile an existing one (and optionally
    /// a scenario file for it); up to 32768x32768 cells.
    #[command(after_help = GENERATE_HELP)]
    Generate(GenerateArgs),
    /// Preprocess a map into a hierarchy and print its stats; with `-o`,
    /// also write it as a hierarchy file (`.rph`).
    #[command(after_help = EXIT_CODES)]
    Build(BuildArgs),
    /// Plan one path on a map and print it.
    #[command(after_help = EXIT_CODES)]
    Path(PathArgs),
    /// Describe a hierarchy file: format, map checksum, sectors, regions,
    /// edges, clusters, portal layer, bytes per part; check it against a map.
    #[command(after_help = EXIT_CODES)]
    Inspect(InspectArgs),
    /// Draw a map with its sectors, regions, abstract routes, paths and
    /// smoothed paths into a PNG.
    #[command(after_help = EXIT_CODES)]
    Render(RenderArgs),
    /// Replay a game trace (map edits, queries, lazy walks, groups) through
    /// the incremental update and check every answer against an exact
    /// search on the map as it is at that moment.
    #[command(after_help = EXIT_CODES)]
    Replay(ReplayArgs),
    /// Write a seeded game trace for an existing map (for `replay`).
    #[command(after_help = EXIT_CODES)]
    Trace(TraceArgs),
}

impl Command {
    /// Whether the subcommand was asked for JSON.
    pub fn json(&self) -> bool {
        match self {
            Command::Scen(a) => a.json,
            Command::Generate(a) => a.json,
            Command::Build(a) => a.json,
            Command::Path(a) => a.json,
            Command::Inspect(a) => a.json,
            Command::Render(a) => a.json,
            Command::Replay(a) => a.json,
            Command::Trace(a) => a.json,
        }
    }
}

/// Arguments of `regionpath replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The map (`.map`) the trace starts from.
    #[arg(value_name = "MAP.map")]
    pub map: PathBuf,
    /// The trace: one command per line, `edit X Y W H C`, `query SX SY GX
    /// GY`, `lazy ID SX SY GX GY`, `walk ID N`, `group GX GY SX SY SX SY
    /// ...`; `#` comments and blank lines are skipped. A bad line exits 2
    /// naming its line and column.
    #[arg(long, value_name = "FILE")]
    pub trace: PathBuf,
    /// A movement profile (TOML; see the README): the hierarchy, the exact
    /// search and every check follow its positions and costs, and edits'
    /// terrain characters are priced by it.
    #[arg(long, value_name = "FILE.toml")]
    pub profile: Option<PathBuf>,
    /// After every edit, also build the hierarchy afresh and compare the
    /// two hierarchies' reachability on the units' pairs, the endpoints of
    /// the lines up to the next edit and 64 random pairs.
    #[arg(long)]
    pub check_fresh: bool,
    /// Write every unit's walked cells to FILE, one line per `lazy` line:
    /// `LINE ID x,y x,y ...` (LINE the `lazy` line that started the walk,
    /// the cells from its start to where the unit stopped), in the order
    /// the walks ended (restarted or at the end of the trace).
    #[arg(long, value_name = "FILE")]
    pub walks: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Arguments of `regionpath trace`.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The map (`.map`).
    #[arg(value_name = "MAP.map")]
    pub map: PathBuf,
    /// Map edits in the trace (doors, walls across corridors, 16x16
    /// buildings; queries, lazy walks and groups between them).
    #[arg(long, value_name = "N")]
    pub edits: usize,
    /// Seed of the generator; the same map and seed give the same file.
    #[arg(long)]
    pub seed: u64,
    /// Where to write the trace.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub out: PathBuf,
    /// A movement profile (TOML; see the README): query, lazy and group
    /// endpoints are then usable positions of it (the edits do not change).
    #[arg(long, value_name = "FILE.toml")]
    pub profile: Option<PathBuf>,
    /// Print one JSON object (file written, lines, edits) on stdout.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `regionpath inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The hierarchy file (`.rph`).
    #[arg(value_name = "FILE.rph")]
    pub file: PathBuf,
    /// Also check the file against this map (a stale file, built for
    /// another map, is an error) and report what it holds in memory.
    #[arg(long, value_name = "MAP.map")]
    pub map: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The layers `render` can draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Layer {
    /// Sector borders (grey lines).
    Sectors,
    /// Passable cells (usable positions under `--profile`) coloured by
    /// region (else light grey, or their terrain colour with `terrain`).
    Regions,
    /// Cells coloured by terrain kind (ground light, swamp olive, water
    /// blue, forest green, road tan, other kinds a colour of their own;
    /// walls `@`/`O` dark).
    Terrain,
    /// The abstract route: region representatives joined in route order.
    Route,
    /// The cells of each path.
    Path,
    /// The smoothed (any-angle) polyline of each path.
    Smoothed,
}

/// Arguments of `regionpath render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The map (`.map`).
    #[arg(value_name = "MAP.map")]
    pub map: PathBuf,
    /// A hierarchy file from `regionpath build` (default: build in memory
    /// with the default settings); with `--profile`, one built for that
    /// profile.
    #[arg(long, value_name = "FILE.rph")]
    pub hierarchy: Option<PathBuf>,
    /// A movement profile (TOML: `name`, `size`, a `[cost]` table per
    /// terrain character; see the README): the hierarchy and the paths
    /// follow its positions and costs, and positions unusable for it are
    /// drawn hatched (darkened when cells are under 4 pixels).
    #[arg(long, value_name = "FILE.toml")]
    pub profile: Option<PathBuf>,
    /// A path to plan and draw, as start and goal cells `SX,SY,GX,GY`
    /// (positions under `--profile`; repeat for several).
    #[arg(long = "path", value_name = "SX,SY,GX,GY", value_parser = parse_query)]
    pub paths: Vec<[u32; 4]>,
    /// Smooth the paths (adds the `smoothed` layer when `--layers` is not given).
    #[arg(long)]
    pub smooth: bool,
    /// Layers to draw, comma-separated (default: sectors,regions,route,path
    /// on maps of ground and walls only, sectors,terrain,route,path on maps
    /// with other terrain kinds; and smoothed with `--smooth`). The map
    /// (passable/blocked) is always drawn.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub layers: Option<Vec<Layer>>,
    /// Pixels per cell: 1 and up magnify (small maps), below 1 shrink
    /// (0.25 = 4x4 cells per pixel; a pixel shows a path or a blocked cell if
    /// any of its cells has one). Default: fit the longer side to about
    /// 2048 pixels (at most 16 pixels per cell).
    #[arg(long, value_name = "N", value_parser = parse_scale)]
    pub scale: Option<f64>,
    /// The PNG to write.
    #[arg(short = 'o', long = "out", value_name = "OUT.png")]
    pub out: PathBuf,
    /// Print one JSON object (image size, scale, paths) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses `SX,SY,GX,GY`.
fn parse_query(s: &str) -> Result<[u32; 4], String> {
    let v: Vec<&str> = s.split(',').collect();
    if v.len() != 4 {
        return Err(format!("`{s}` is not SX,SY,GX,GY"));
    }
    let mut out = [0u32; 4];
    for (o, t) in out.iter_mut().zip(&v) {
        *o = t
            .trim()
            .parse::<u32>()
            .map_err(|_| format!("`{t}` is not a cell coordinate"))?;
    }
    Ok(out)
}

/// Parses a positive, finite scale.
fn parse_scale(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (1.0 / 1024.0..=64.0).contains(&v) => Ok(v),
        _ => Err(format!(
            "`{s}` is not a scale in 1/1024..=64 pixels per cell"
        )),
    }
}

/// Parses a finite radius of at least 0.
pub fn parse_radius(s: &str) -> Result<f32, String> {
    match s.trim().parse::<f32>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("`{s}` is not a finite radius of at least 0")),
    }
}

/// Arguments of `regionpath build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The map (`.map`).
    #[arg(value_name = "MAP.map")]
    pub map: PathBuf,
    /// Where to write the hierarchy (default: write nothing, print the
    /// stats only).
    #[arg(short = 'o', long = "out", value_name = "MAP.rph")]
    pub out: Option<PathBuf>,
    /// Sector side in cells (4..=256). Unless `--exact-sector` is given,
    /// the build keeps within 1 byte per cell (at least 16 KiB): where this size takes more,
    /// it tries sectors 1.5x, 2x, 3x, 4x, 8x or 16x as large, then 256,
    /// starting at the first size predicted to fit, keeps the first that
    /// fits (else the smallest), then halves the landmarks (8) until it
    /// fits; still over that with none, the build
    /// fails naming the budget. The stats show the size used.
    #[arg(long, default_value_t = 16)]
    pub sector: u32,
    /// A movement profile (TOML: `name`, `size`, a `[cost]` table per
    /// terrain character; see the README): the hierarchy of the unit's
    /// usable positions, links priced by its terrain costs. A file written
    /// with `-o` records the profile and loads only for it.
    #[arg(long, value_name = "FILE.toml")]
    pub profile: Option<PathBuf>,
    /// Use `--sector` as given, even above the memory budget.
    #[arg(long)]
    pub exact_sector: bool,
    /// Build on one thread instead of all.
    #[arg(long)]
    pub serial: bool,
    /// Exact portal layer (rooms joined by narrow doors, one-cell mazes):
    /// `auto` builds it where it pays (in-sector portal pairs at most a
    /// quarter of the passable cells), `always`, `never`.
    #[arg(long, value_enum, default_value_t = PortalChoice::Auto)]
    pub portals: PortalChoice,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
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
    /// Portal layer of the hierarchy built in memory (without
    /// `--hierarchy`): `auto` builds it where it pays, `always`, `never`.
    #[arg(long, value_enum, default_value_t = PortalChoice::Auto, conflicts_with = "hierarchy")]
    pub portals: PortalChoice,
    /// The planner: the hierarchical one (default) or the exact A* over the
    /// whole grid (no hierarchy, no smoothing).
    #[arg(long, value_enum, default_value_t = PathAlgo::Hierarchical)]
    pub algo: PathAlgo,
    /// A movement profile (TOML: `name`, `size`, a `[cost]` table per
    /// terrain character; see the README). Positions, costs and the printed cost
    /// follow it; the hierarchy is built in place for it (not with
    /// `--hierarchy`).
    #[arg(long, value_name = "FILE.toml")]
    pub profile: Option<PathBuf>,
    /// Also smooth the path into any-angle waypoints.
    #[arg(long)]
    pub smooth: bool,
    /// Unit radius in cells for smoothing (0 = a point, 0.5 = a tile wide).
    #[arg(long, default_value_t = 0.0, value_parser = parse_radius)]
    pub radius: f32,
    /// A vehicle with this turning radius (cells; implies `--smooth`). Up
    /// to 8: the vehicle mode, a legal curve (blocked turns repaired by
    /// the directional search) or exit code 3. Above 8, or with
    /// `--tighten-turns`: the smoothed path's corners rounded with arcs of
    /// this radius, turns that cannot take it tightened and listed (or,
    /// with `--strict-turns`, exit code 3).
    #[arg(long, value_name = "R", value_parser = parse_radius)]
    pub turning_radius: Option<f32>,
    /// A turn that cannot take `--turning-radius` is a planning failure
    /// (exit code 3) instead of being tightened.
    #[arg(long, requires = "turning_radius", conflicts_with = "tighten_turns")]
    pub strict_turns: bool,
    /// Round corners only (tighten the turns that cannot take the radius)
    /// instead of the vehicle mode.
    #[arg(long, requires = "turning_radius")]
    pub tighten_turns: bool,
    /// The vehicle's heading at the start, degrees (0 = +x, 90 = +y).
    #[arg(
        long,
        value_name = "DEG",
        requires = "turning_radius",
        conflicts_with = "tighten_turns"
    )]
    pub heading: Option<f32>,
    /// The heading the vehicle must arrive with, degrees.
    #[arg(
        long,
        value_name = "DEG",
        requires = "turning_radius",
        conflicts_with = "tighten_turns"
    )]
    pub goal_heading: Option<f32>,
    /// Headings of the vehicle search (8 or 16), and the sprite angles the
    /// printed samples' headings are rounded to (default: 16 for the
    /// search, samples unrounded).
    #[arg(long, value_name = "8|16", requires = "turning_radius")]
    pub headings: Option<u32>,
    /// The vehicle may drive backwards (vehicle mode): reverse pieces cost
    /// their length times `--reverse-penalty` plus one turning radius per
    /// change of direction; samples give the body's heading and carry
    /// `"reverse": true` while reversing (pieces likewise).
    #[arg(long, requires = "turning_radius", conflicts_with = "tighten_turns")]
    pub reverse: bool,
    /// Cost factor of driving backwards, in [1, 1000] (default 2.0).
    #[arg(long, value_name = "P", default_value_t = 2.0, requires = "reverse")]
    pub reverse_penalty: f32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// The planners `path` can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PathAlgo {
    /// The hierarchical planner (regions, region graph, windowed legs).
    Hierarchical,
    /// Plain A* over the whole grid (optimal; under `--profile` too).
    Astar,
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
    #[arg(long, value_enum, default_value_t = AlgoChoice::Hierarchical)]
    pub algo: AlgoChoice,
    /// A movement profile (TOML: `name`, `size`, a `[cost]` table per
    /// terrain character; see the README). Rows' optimal lengths are then costs
    /// under it, starts and goals must be usable positions, and each path
    /// is checked against the profile's rules and its cost compared with
    /// the row's (relative 1e-6; the hierarchical planner's at least the
    /// row's). Jump point search does not take profiles (`all` runs A* and
    /// the hierarchical planner).
    #[arg(long, value_name = "FILE.toml")]
    pub profile: Option<PathBuf>,
    /// Write every path to FILE, one line per row and planner:
    /// `ROW ALGO x,y x,y ...` (ROW as in `--csv`: the row's 0-based index
    /// in its file; the positions from start to goal, none when no path was
    /// found). Lines follow the run: file by file, planner by planner, row
    /// by row.
    #[arg(long, value_name = "FILE")]
    pub paths: Option<PathBuf>,
    /// Smooth every path and report smoothed length / optimal.
    #[arg(long)]
    pub smooth: bool,
    /// Unit radius in cells for `--smooth` (0 = a point, 0.5 = a tile
    /// wide); every smoothed path is checked clear for it.
    #[arg(long, default_value_t = 0.0, value_parser = parse_radius, requires = "smooth")]
    pub radius: f32,
    /// Vehicle mode: curve every smoothed path for a vehicle of this
    /// turning radius (cells, at most 8) and the unit radius `--radius`
    /// (the facade's `VehicleCurver`: blocked turns repaired by the
    /// directional search), check every curve independently (samples every
    /// 0.05 cells clear for the radius, no turn tighter than R) and report
    /// `curve_solved`, `curve_failed`, `curve_invalid`, `mean_curve_ratio`
    /// (curve / smoothed length), `mean_curve_us` and `p99_curve_us` (the
    /// whole query: planner, smoothing and curve).
    #[arg(long, value_name = "R", requires = "smooth", value_parser = parse_radius)]
    pub turning_radius: Option<f32>,
    /// Headings of the vehicle search (8 or 16) with `--turning-radius`.
    #[arg(long, default_value_t = 16, requires = "turning_radius")]
    pub headings: u32,
    /// The vehicle may drive backwards (with `--turning-radius`): reverse
    /// pieces cost their length times `--reverse-penalty` plus one turning
    /// radius per change of direction; `curve_reversing` counts the curves
    /// that reverse.
    #[arg(long, requires = "turning_radius")]
    pub reverse: bool,
    /// Cost factor of driving backwards, in [1, 1000] (default 2.0).
    #[arg(long, value_name = "P", default_value_t = 2.0, requires = "reverse")]
    pub reverse_penalty: f32,
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
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
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

/// Parses `NxM` (copies across and down, each 1..=65535).
fn parse_repeat(s: &str) -> Result<(u32, u32), String> {
    let (n, m) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("`{s}` is not NxM"))?;
    let one = |t: &str| match t.trim().parse::<u32>() {
        Ok(v) if (1..=65_535).contains(&v) => Ok(v),
        _ => Err(format!("`{t}` is not a number of copies in 1..=65535")),
    };
    Ok((one(n)?, one(m)?))
}

/// Arguments of `regionpath generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Map family (not with `--tile`).
    #[arg(
        long,
        value_enum,
        required_unless_present = "tile",
        conflicts_with = "tile"
    )]
    pub kind: Option<MapKind>,
    /// Width in cells, 8..=32768 (width x height at most 2^30 cells).
    #[arg(long, required_unless_present = "tile", conflicts_with = "tile")]
    pub width: Option<u32>,
    /// Height in cells, 8..=32768.
    #[arg(long, required_unless_present = "tile", conflicts_with = "tile")]
    pub height: Option<u32>,
    /// Seed of the generator (and of the scenario rows); the same seed
    /// gives byte-identical files. With `--tile`, seeds the rows only
    /// (default 0).
    #[arg(long, required_unless_present = "tile")]
    pub seed: Option<u64>,
    /// Make the map by mirror-tiling this `.map` instead of generating one:
    /// `--repeat NxM` copies, every other copy mirrored (left-right in odd
    /// columns of copies, top-bottom in odd rows) so the copies meet along
    /// matching borders; terrain characters are kept. Streamed: memory is
    /// the source map's, not the output's.
    #[arg(long, value_name = "SRC.map", requires = "repeat")]
    pub tile: Option<PathBuf>,
    /// Copies across and down for `--tile`, as `NxM` (e.g. `4x4`).
    #[arg(long, value_name = "NxM", value_parser = parse_repeat, requires = "tile")]
    pub repeat: Option<(u32, u32)>,
    /// Cut this many cells off every side of the `--tile` source first
    /// (e.g. 2 for a map whose border is a wall two cells thick, so copies
    /// join without a double wall).
    #[arg(long, value_name = "B", default_value_t = 0, requires = "tile")]
    pub strip_border: u32,
    /// Where to write the `.map` file.
    #[arg(short = 'o', long = "out", value_name = "OUT.map")]
    pub out: PathBuf,
    /// Also write a scenario file here.
    #[arg(long, value_name = "OUT.scen")]
    pub scen: Option<PathBuf>,
    /// Paint terrain over the open cells: lakes and rivers of water `W`,
    /// swamp `S` on their shores, forest `T` and roads `=` (walls stay
    /// walls), from seeded value noise and shortest paths between far
    /// points; the walls do not depend on it. With `--tile` (e.g.
    /// `--repeat 1x1`), paints over that map, seeded by `--seed`. Maps up
    /// to 2^24 cells.
    #[arg(long)]
    pub terrain: bool,
    /// A movement profile (TOML: `name`, `size`, a `[cost]` table per
    /// terrain character; see the README). With `--scen`, rows join usable positions
    /// that reach each other under the profile, and their optimal lengths
    /// are the exact A* costs under it. Maps up to 2^24 cells.
    #[arg(long, value_name = "FILE.toml", requires = "scen")]
    pub profile: Option<PathBuf>,
    /// Number of scenario rows (with `--scen`).
    #[arg(long, value_name = "N", default_value_t = 500, requires = "scen")]
    pub rows: usize,
    /// Also write a game trace for the map with this many edits (see
    /// `regionpath trace`), seeded by `--seed`. Maps up to 2^24 cells.
    #[arg(long, value_name = "N")]
    pub trace: Option<usize>,
    /// Where to write the trace (default: the map's path with extension
    /// `.trace`).
    #[arg(long, value_name = "FILE", requires = "trace")]
    pub trace_out: Option<PathBuf>,
    /// Memory budget in MiB (default: `MemAvailable` from /proc/meminfo,
    /// else none). A run whose estimated peak exceeds it is refused before
    /// any large allocation (exit code 2); see the estimate below.
    #[arg(long, value_name = "MB")]
    pub memory_budget: Option<u64>,
    /// Print one JSON object (files written, sizes) on stdout.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// `generate --help`'s notes on memory, then the exit codes.
pub const GENERATE_HELP: &str = "\
Memory estimate (--memory-budget), the largest of its steps:
  making the map  1 bit per cell (caves: + 1 bit per coarse cell); --tile:
                  twice the source file
  making a grid   + 2 bits per cell (for rows or a trace)
  scenario rows   the grid + 1 bit per cell (the connected component) + 17
                  bytes per cell of the largest search window: each row's
                  length is exact (windowed jump point search, the window
                  grown until no path leaving it can be shorter); what the
                  budget leaves bounds the window, at least 64x64, at most
                  the map, and a row that would need more gets a nearer goal
  --terrain, --profile, --trace  64 bytes per cell (maps up to 2^24 cells)
plus 16 MiB. A 32768x32768 map alone: about 144 MiB.

Exit codes (with --json every outcome, errors included, is one JSON object on stdout
with a `status` field):
  0  ok
  1  no path: the goal cannot be reached from the start (status `no_path`)
  2  bad input: a file that cannot be read, parsed or written (stdout included), a bad
     argument, a blocked or out-of-grid endpoint, a stale or damaged .rph (`bad_input`),
     a run over the memory budget
  3  planning failure: a planner or the curve failed on valid input, or `scen` found an
     invalid or wrong path (`planning_failed`)
A closed stdout (`| head -1`) ends the program quietly with 141.";
