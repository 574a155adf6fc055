//! `regionpath generate`: the project's own seeded maps and scenarios, up
//! to 32,768 × 32,768 cells in bounded memory.
//!
//! * **rooms**: a lattice of rectangular rooms separated by one-cell walls.
//!   A random spanning tree of the room graph gets a door in each of its
//!   walls (so every room is reachable), other walls get a door with
//!   probability 0.3, and rooms get up to three obstacles each (pillars and
//!   short wall pieces, kept one cell away from the walls).
//! * **caves**: a cellular automaton on a lattice `s` times coarser than the
//!   map (`s = min(width, height) / 64`, clamped to 1..=4): 45 % random
//!   rock, four rounds of "rock if ≥ 5 of the 3×3 block is rock or ≤ 2 of
//!   the 5×5 block is", then three rounds of the first rule only; scaled up
//!   `s` times and smoothed by three more rounds of the first rule at full
//!   size. The border is rock.
//! * **tiling** (`--tile SRC.map --repeat NxM`): `N × M` copies of a map,
//!   its border of `--strip-border` cells cut first, every other copy
//!   mirrored so borders match ([`tile::Tiling`]).
//!
//! Cells are bits ([`maps::Bits`], 1 bit per cell; the automaton counts 64
//! cells per word operation) and the `.map` text is streamed row by row, so
//! a 32,768² map takes 128 MiB besides the output file. Everything random
//! comes from [`SplitMix64`] seeded by `--seed` (the scenario rows from a
//! second stream), so the same command writes the same bytes every time.
//!
//! Scenario rows take start and goal from the largest connected component
//! (one bit per cell, [`rows::largest_component`]); the goal is a random
//! cell of the component in a box whose radius grows with the row index,
//! and the optimal length comes from windowed jump point search in a window
//! grown until no path leaving it can be shorter ([`rows::uniform_rows`]).
//! Rows are written sorted by bucket (`floor(length / 4)`) in the Moving
//! AI format with 8 decimals.
//!
//! `--terrain` paints water, swamp, forest and roads over the open cells
//! ([`crate::terrain`]). With `--profile`, rows join usable positions of
//! the largest component under the profile, goals are chosen on the
//! profile's costs ([`crate::dijkstra::weighted_distances`]) and each row's
//! optimal length is the exact A*'s cost under the profile
//! (`AStar::find_path_weighted`), checked against that Dijkstra. These
//! three (and `--trace`) hold O(cells) words: up to [`MAX_DETAIL_CELLS`].
//!
//! Every run first estimates its peak memory ([`Estimate`]) and refuses,
//! before any large allocation, when it exceeds `--memory-budget`.

mod maps;
mod rows;
mod tile;

use crate::args::{GenerateArgs, MapKind, TraceArgs};
use crate::error::{CliError, Outcome};
use crate::out::Out;
use crate::progress;
use indicatif::ProgressBar;
use maps::Bits;
use regionpath::grid::{write_map, Grid};
use rows::{GenRow, WINDOW_BYTES_PER_CELL};
use serde_json::json;
use std::io::{BufWriter, Write};
use std::path::Path;
use tile::Tiling;

/// Smallest side the generator accepts.
pub const MIN_SIDE: u32 = 8;
/// Largest side the generator (and a tiling) accepts.
pub const MAX_SIDE: u32 = 32_768;
/// Largest number of cells the generator (and a tiling) accepts: 2^30.
pub const MAX_CELLS: u64 = 1 << 30;
/// Largest map for `--terrain`, `--profile` and `--trace`, whose steps hold
/// several words per cell: 2^24 cells.
pub const MAX_DETAIL_CELLS: u64 = 1 << 24;
/// Bytes per cell assumed for `--terrain`, `--profile` and `--trace`
/// (Dijkstra distances, A* scratch, the terrain layer).
const DETAIL_BYTES_PER_CELL: u64 = 64;
/// Memory of the process besides what the steps hold.
const BASE_BYTES: u64 = 16 << 20;
/// The smallest search window scenario rows may be limited to.
const MIN_WINDOW_CELLS: u64 = 64 * 64;

/// Bytes of a grid (two bit copies of the padded map).
fn grid_bytes(width: u32, height: u32) -> u64 {
    (u64::from(width) + 2) * (u64::from(height) + 2) / 4 + 64
}

/// The machine's available memory (`MemAvailable` in `/proc/meminfo`), if
/// readable.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The estimated peak of a run, step by step, and the search window its
/// scenario rows may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// `(step, bytes)` for each step, in order.
    pub steps: Vec<(&'static str, u64)>,
    /// Largest search window (cells) for scenario rows under the budget.
    pub window_cells: u64,
}

impl Estimate {
    /// The largest step.
    pub fn peak(&self) -> (&'static str, u64) {
        self.steps
            .iter()
            .copied()
            .max_by_key(|s| s.1)
            .unwrap_or(("nothing", 0))
    }
}

/// What a run makes: the map's source and the later steps.
struct Plan {
    width: u32,
    height: u32,
    /// Bytes the map's source holds (the generator's cells or the tiled
    /// source map) while the map is made and written.
    source_bytes: u64,
    terrain: bool,
    rows: usize,
    profile: bool,
    trace: bool,
}

/// The peak memory of `plan` (see `--memory-budget` in the help): the map
/// step holds the source; a grid for later steps 2 bits per cell (during
/// its making the source too); `--terrain`, `--profile` and `--trace`
/// [`DETAIL_BYTES_PER_CELL`]; scenario rows the grid, 1 bit per cell for
/// the component and [`WINDOW_BYTES_PER_CELL`] per cell of the largest
/// search window (at least 64 × 64, at most the map; what is left of
/// `budget` decides). Refuses with [`CliError::OverBudget`].
fn estimate(plan: &Plan, budget: Option<u64>) -> Result<Estimate, CliError> {
    let (w, h) = (plan.width, plan.height);
    let cells = u64::from(w) * u64::from(h);
    let grid = grid_bytes(w, h);
    let mut steps = vec![("making the map", BASE_BYTES + plan.source_bytes)];
    let needs_grid = plan.rows > 0 || plan.terrain || plan.trace;
    if needs_grid {
        steps.push(("making the grid", BASE_BYTES + plan.source_bytes + grid));
    }
    if plan.terrain || plan.profile || plan.trace {
        steps.push((
            "terrain, profile rows or trace",
            BASE_BYTES + grid + cells * DETAIL_BYTES_PER_CELL,
        ));
    }
    let mut window_cells = cells;
    if plan.rows > 0 && !plan.profile {
        let fixed = BASE_BYTES + grid + Bits::bytes_for(w, h);
        let min_window = MIN_WINDOW_CELLS.min(cells);
        if let Some(b) = budget {
            window_cells = (b.saturating_sub(fixed) / WINDOW_BYTES_PER_CELL).min(cells);
        }
        let used = window_cells.max(min_window);
        steps.push(("scenario rows", fixed + used * WINDOW_BYTES_PER_CELL));
        if let Some(b) = budget {
            if window_cells < min_window {
                return Err(CliError::OverBudget {
                    step: "scenario rows".into(),
                    need_mb: (fixed + min_window * WINDOW_BYTES_PER_CELL).div_ceil(1 << 20),
                    budget_mb: b >> 20,
                });
            }
        }
    }
    let est = Estimate {
        steps,
        window_cells,
    };
    if let Some(b) = budget {
        let (step, need) = est.peak();
        if need > b {
            return Err(CliError::OverBudget {
                step: step.into(),
                need_mb: need.div_ceil(1 << 20),
                budget_mb: b >> 20,
            });
        }
    }
    Ok(est)
}

/// Checks a generator size.
fn check_size(width: u32, height: u32) -> Result<(), CliError> {
    for (what, v) in [("width", width), ("height", height)] {
        if !(MIN_SIDE..=MAX_SIDE).contains(&v) {
            return Err(CliError::Usage(format!(
                "--{what} {v} is outside {MIN_SIDE}..={MAX_SIDE}"
            )));
        }
    }
    if u64::from(width) * u64::from(height) > MAX_CELLS {
        return Err(CliError::Usage(format!(
            "{width}x{height} is more than {MAX_CELLS} cells"
        )));
    }
    Ok(())
}

/// The generator's cells for `kind` (size already checked); progress is
/// shown on big maps unless `quiet`.
fn make_cells(kind: MapKind, width: u32, height: u32, seed: u64, quiet: bool) -> Bits {
    let big = u64::from(width) * u64::from(height) >= progress::BIG_MAP_CELLS;
    match kind {
        MapKind::Rooms => {
            let spinner = progress::spinner(
                quiet || !big,
                format!("generating a {width}x{height} rooms map"),
            );
            let c = maps::rooms(width, height, seed);
            spinner.finish_and_clear();
            c
        }
        MapKind::Caves => {
            let scaled = (width.min(height) / 64).clamp(1, 4) > 1;
            let bar = progress::bar(
                quiet || !big,
                7 + if scaled { 3 } else { 0 },
                format!("{width}x{height} caves: automaton rounds"),
            );
            let c = maps::caves(width, height, seed, &bar);
            bar.finish_and_clear();
            c
        }
    }
}

/// The `.map` header.
fn write_header(out: &mut impl Write, width: u32, height: u32) -> std::io::Result<()> {
    write!(out, "type octile\nheight {height}\nwidth {width}\nmap\n")
}

/// Writes `cells` as `.map` rows (`.` open, `@` rock), 8 cells per table
/// look-up; `bar` counts rows.
fn write_cells(cells: &Bits, out: &mut impl Write, bar: &ProgressBar) -> std::io::Result<()> {
    let mut table = [[b'@'; 8]; 256];
    for (byte, t) in table.iter_mut().enumerate() {
        for (j, c) in t.iter_mut().enumerate() {
            if byte >> j & 1 == 1 {
                *c = b'.';
            }
        }
    }
    let width = cells.width() as usize;
    let mut line = vec![0u8; cells.words() * 64 + 1];
    for y in 0..cells.height() {
        for (k, &w) in cells.row(y).iter().enumerate() {
            for b in 0..8 {
                let at = k * 64 + b * 8;
                line[at..at + 8].copy_from_slice(&table[((w >> (8 * b)) & 0xFF) as usize]);
            }
        }
        line[width] = b'\n';
        out.write_all(&line[..=width])?;
        bar.inc(1);
    }
    Ok(())
}

/// Creates `path` and runs `write` on a buffered writer over it.
fn write_to(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), CliError> {
    let run = || -> std::io::Result<()> {
        let mut f = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
        write(&mut f)?;
        f.flush()
    };
    run().map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_to(path, |f| f.write_all(bytes))
}

/// The text of a Moving AI scenario file for `rows` on map `map_name`.
fn scen_text(width: u32, height: u32, map_name: &str, rows: &[GenRow]) -> String {
    let mut s = String::from("version 1\n");
    for r in rows {
        s.push_str(&format!(
            "{}\t{map_name}\t{width}\t{height}\t{}\t{}\t{}\t{}\t{:.8}\n",
            r.bucket(),
            r.start.x,
            r.start.y,
            r.goal.x,
            r.goal.y,
            r.length
        ));
    }
    s
}

/// Where the map comes from.
enum Source {
    Cells(Bits),
    Tiled(Tiling),
}

/// Runs `regionpath generate`.
pub fn run(args: &GenerateArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let rows = if args.scen.is_some() { args.rows } else { 0 };
    if args.scen.is_some() && rows == 0 {
        return Err(CliError::Usage("--rows must be at least 1".into()));
    }
    let seed = args.seed.unwrap_or(0);
    let budget = match args.memory_budget {
        Some(mb) => Some(mb.saturating_mul(1 << 20)),
        None => available_memory(),
    };
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    // The source, sized and checked, before anything large is allocated.
    let (width, height, source_bytes, tiled) = match (&args.tile, args.kind) {
        (Some(path), _) => {
            let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            // The reader holds the text, a byte per cell and the grid.
            let need = BASE_BYTES + 3 * len;
            if let Some(b) = budget {
                if need > b {
                    return Err(CliError::OverBudget {
                        step: "reading the tiled map".into(),
                        need_mb: need.div_ceil(1 << 20),
                        budget_mb: b >> 20,
                    });
                }
            }
            let src = crate::input::load_map(path)?;
            let repeat = args.repeat.unwrap_or((1, 1));
            let t = Tiling::new(src, args.strip_border, repeat, MAX_SIDE, MAX_CELLS)?;
            (t.width(), t.height(), 2 * len, Some(t))
        }
        (None, Some(kind)) => {
            let (w, h) = (args.width.unwrap_or(0), args.height.unwrap_or(0));
            check_size(w, h)?;
            let coarse = (w.min(h) / 64).clamp(1, 4);
            let bytes = Bits::bytes_for(w, h)
                + match kind {
                    MapKind::Rooms => 0,
                    MapKind::Caves => Bits::bytes_for(w.div_ceil(coarse), h.div_ceil(coarse)),
                };
            (w, h, bytes, None)
        }
        (None, None) => {
            return Err(CliError::Usage(
                "give --kind (with --width and --height) or --tile".into(),
            ))
        }
    };
    let cells = u64::from(width) * u64::from(height);
    let detail = args.terrain || profile.is_some() || args.trace.is_some();
    if detail && cells > MAX_DETAIL_CELLS {
        return Err(CliError::Usage(format!(
            "--terrain, --profile and --trace take maps up to {MAX_DETAIL_CELLS} cells; \
             {width}x{height} is {cells}"
        )));
    }
    let plan = Plan {
        width,
        height,
        source_bytes,
        terrain: args.terrain,
        rows,
        profile: profile.is_some(),
        trace: args.trace.is_some(),
    };
    let est = estimate(&plan, budget)?;
    let big = cells >= progress::BIG_MAP_CELLS;
    let hide = args.quiet || !big;

    // The map.
    let source = match tiled {
        Some(t) => Source::Tiled(t),
        None => Source::Cells(make_cells(
            args.kind.unwrap_or(MapKind::Rooms),
            width,
            height,
            seed,
            args.quiet,
        )),
    };
    // With terrain the painted grid is the map; otherwise the rows are
    // written from the source.
    let mut grid: Option<Grid> = None;
    if args.terrain {
        let spinner = progress::spinner(hide, "painting terrain");
        let unpainted = match &source {
            Source::Cells(c) => c.to_grid(),
            Source::Tiled(t) => t.to_grid(),
        };
        let painted = unpainted.and_then(|g| crate::terrain::paint(&g, seed));
        spinner.finish_and_clear();
        grid = Some(painted?);
    }
    let bar = progress::bar(
        hide,
        u64::from(height),
        format!("writing {}", args.out.display()),
    );
    let mut written = (0u64, Vec::new());
    write_to(&args.out, |f| match (&grid, &source) {
        (Some(g), _) => {
            let r = write_map(g, f);
            written = (
                g.passable_count(),
                g.terrain_kinds().iter().map(|t| t.to_char()).collect(),
            );
            r
        }
        (None, Source::Cells(c)) => {
            write_header(f, width, height)?;
            write_cells(c, f, &bar)?;
            let open = c.count();
            written = (open, if open > 0 { vec!['@', '.'] } else { vec!['@'] });
            Ok(())
        }
        (None, Source::Tiled(t)) => {
            write_header(f, width, height)?;
            written = t.write_rows(f, &bar)?;
            Ok(())
        }
    })?;
    bar.finish_and_clear();
    let (passable, kinds) = written;

    // The grid for rows and the trace: the painted one, the map as read
    // back (a tiling's terrain, small maps), or the passability alone.
    let need_grid = rows > 0 || args.trace.is_some();
    if need_grid && grid.is_none() {
        grid = Some(match source {
            Source::Tiled(_) if detail => crate::input::load_map(&args.out)?,
            Source::Tiled(t) => t.to_grid()?,
            Source::Cells(c) => c.to_grid()?,
        });
    } else {
        drop(source);
    }
    let scen_rows = match (&grid, &args.scen) {
        (Some(g), Some(_)) => rows::scenario_rows(
            g,
            rows,
            seed,
            profile.as_ref(),
            est.window_cells,
            (hide, args.quiet),
        )?,
        _ => Vec::new(),
    };
    let trace = match (args.trace, &grid) {
        (Some(edits), Some(g)) => {
            let path = args
                .trace_out
                .clone()
                .unwrap_or_else(|| args.out.with_extension("trace"));
            let text = crate::trace::generate(g, edits, seed, profile.as_ref());
            write_file(&path, text.as_bytes())?;
            Some((path, edits, text.lines().count()))
        }
        _ => None,
    };
    let longest = scen_rows.iter().map(|r| r.length).fold(0.0, f64::max);
    if let Some(scen) = &args.scen {
        let name = args
            .out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        write_file(scen, scen_text(width, height, &name, &scen_rows).as_bytes())?;
    }
    if args.json {
        out.line(json!({
            "status": Outcome::Ok.status(),
            "exit_code": Outcome::Ok.code(),
            "map": args.out.display().to_string(),
            "width": width,
            "height": height,
            "passable": passable,
            "terrain": args.terrain,
            "kinds": kinds.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "profile": profile.as_ref().map(|p| p.name()),
            "scen": args.scen.as_ref().map(|p| p.display().to_string()),
            "rows": scen_rows.len(),
            "longest": args.scen.as_ref().map(|_| longest),
            "trace": trace.as_ref().map(|t| t.0.display().to_string()),
            "trace_edits": trace.as_ref().map(|t| t.1),
            "trace_lines": trace.as_ref().map(|t| t.2),
            "tile": args.tile.as_ref().map(|p| p.display().to_string()),
            "estimated_peak_mb": est.peak().1.div_ceil(1 << 20),
        }))?;
        return Ok(Outcome::Ok);
    }
    out.line(format_args!(
        "wrote {} ({width}x{height}, {passable} passable cells)",
        args.out.display(),
    ))?;
    if let Some(scen) = &args.scen {
        out.line(format_args!(
            "wrote {} ({} rows, longest {longest:.2})",
            scen.display(),
            scen_rows.len()
        ))?;
    }
    if let Some((path, edits, lines)) = &trace {
        out.line(format_args!(
            "wrote {} ({edits} edits, {lines} lines)",
            path.display()
        ))?;
    }
    Ok(Outcome::Ok)
}

/// Runs `regionpath trace`: a seeded game trace for an existing map
/// ([`crate::trace::generate`]).
pub fn run_trace(args: &TraceArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let grid = crate::input::load_map(&args.map)?;
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    let text = crate::trace::generate(&grid, args.edits, args.seed, profile.as_ref());
    write_file(&args.out, text.as_bytes())?;
    let lines = text.lines().count();
    if args.json {
        out.line(json!({
            "status": Outcome::Ok.status(),
            "exit_code": Outcome::Ok.code(),
            "map": args.map.display().to_string(),
            "trace": args.out.display().to_string(),
            "edits": args.edits,
            "lines": lines,
            "bytes": text.len(),
        }))?;
    } else {
        out.line(format_args!(
            "wrote {} ({} edits, {lines} lines) for {}",
            args.out.display(),
            args.edits,
            args.map.display()
        ))?;
    }
    Ok(Outcome::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use maps::wall_lines;
    use regionpath::grid::{parse_map, parse_scen, Point, Profile};

    /// A small run in memory: the map as a grid and its rows.
    fn small(
        kind: MapKind,
        (w, h): (u32, u32),
        seed: u64,
        rows: usize,
        terrain: bool,
        profile: Option<&Profile>,
    ) -> Result<(Grid, Vec<GenRow>), CliError> {
        check_size(w, h)?;
        let mut g = make_cells(kind, w, h, seed, true).to_grid()?;
        if terrain {
            g = crate::terrain::paint(&g, seed)?;
        }
        let r = if rows > 0 {
            rows::scenario_rows(&g, rows, seed, profile, u64::MAX, (true, true))?
        } else {
            Vec::new()
        };
        Ok((g, r))
    }

    #[test]
    fn wall_lines_keep_rooms_wide_enough() {
        assert_eq!(wall_lines(8, 6), vec![0, 7]);
        assert_eq!(wall_lines(13, 6), vec![0, 6, 12]);
        assert_eq!(wall_lines(15, 6), vec![0, 6, 14]);
        assert_eq!(wall_lines(17, 6), vec![0, 6, 12, 16]);
        for n in MIN_SIDE..200 {
            let v = wall_lines(n, 6);
            assert_eq!((v[0], *v.last().unwrap()), (0, n - 1));
            assert!(v.windows(2).all(|p| p[1] - p[0] >= 4), "{n}: {v:?}");
        }
    }

    #[test]
    fn same_seed_same_map_other_seed_other_map() {
        for kind in [MapKind::Rooms, MapKind::Caves] {
            let (a, ra) = small(kind, (64, 48), 9, 20, false, None).unwrap();
            let (b, rb) = small(kind, (64, 48), 9, 20, false, None).unwrap();
            let (c, _) = small(kind, (64, 48), 10, 0, false, None).unwrap();
            assert_eq!(a, b);
            assert_eq!(ra, rb);
            assert_ne!(a, c);
            // The scenario stream does not disturb the map.
            assert_eq!(small(kind, (64, 48), 9, 3, false, None).unwrap().0, a);
            assert!(a.passable_count() > 64 * 48 / 3, "{kind:?} too closed");
        }
    }

    #[test]
    fn rooms_are_all_connected() {
        let (g, _) = small(MapKind::Rooms, (100, 70), 3, 0, false, None).unwrap();
        let comp = rows::largest_component(&g, &ProgressBar::hidden());
        assert_eq!(comp.count(), g.passable_count());
        // Border is wall.
        for x in 0..100 {
            assert!(!g.is_passable(Point::new(x, 0)) && !g.is_passable(Point::new(x, 69)));
        }
    }

    /// Every row's length is the testkit Dijkstra's distance (an oracle
    /// independent of jump point search and of the window proof), with
    /// unlimited windows and with windows of 64 × 64 cells at most.
    #[test]
    fn row_lengths_equal_the_testkit_dijkstra() {
        for (kind, size, seed) in [
            (MapKind::Caves, (120, 90), 5),
            (MapKind::Rooms, (130, 100), 8),
            (MapKind::Caves, (260, 200), 2),
        ] {
            let g = make_cells(kind, size.0, size.1, seed, true)
                .to_grid()
                .unwrap();
            let hidden = ProgressBar::hidden();
            let comp = rows::largest_component(&g, &hidden);
            for cap in [u64::MAX, MIN_WINDOW_CELLS] {
                let rows = rows::uniform_rows(&g, &comp, 60, seed, cap, &hidden).unwrap();
                assert_eq!(rows.len(), 60);
                for r in &rows {
                    let d = regionpath_testkit::distances(&g, r.start)
                        [(r.goal.y * size.0 + r.goal.x) as usize];
                    assert!(
                        (r.length - d).abs() < 1e-6,
                        "{kind:?} cap {cap}: {} -> {}: {} vs Dijkstra {d}",
                        r.start,
                        r.goal,
                        r.length
                    );
                    assert!(comp.contains(r.start) && comp.contains(r.goal));
                    assert_ne!(r.start, r.goal);
                }
                assert!(rows.windows(2).all(|p| p[0].bucket() <= p[1].bucket()));
            }
        }
    }

    #[test]
    fn scenario_rows_parse_and_spread() {
        let (g, rows) = small(MapKind::Caves, (80, 60), 5, 40, false, None).unwrap();
        let text = scen_text(80, 60, "c.map", &rows);
        let s = parse_scen(&text).unwrap();
        assert_eq!(s.rows.len(), 40);
        let mut last_bucket = 0;
        for (r, gen) in s.rows.iter().zip(&rows) {
            assert!(g.is_passable(r.start) && g.is_passable(r.goal));
            assert_eq!(u64::from(r.bucket), (r.optimal / 4.0).floor() as u64);
            assert!(r.bucket >= last_bucket);
            last_bucket = r.bucket;
            assert!((r.optimal - gen.length).abs() < 1e-8);
            assert_eq!((r.map_width, r.map_height), (80, 60));
        }
        // Mixed lengths: short and long rows both present.
        assert!(s.rows.first().unwrap().optimal < 10.0);
        assert!(s.rows.last().unwrap().optimal > 40.0);
    }

    #[test]
    fn terrain_keeps_the_walls_and_profiled_rows_use_positions() {
        let (plain, _) = small(MapKind::Caves, (96, 96), 11, 0, false, None).unwrap();
        let tank = Profile::builder("tank")
            .size(2)
            .cost('.', 1.0)
            .cost('=', 0.7)
            .cost('T', 4.0)
            .build()
            .unwrap();
        let (g, rows) = small(MapKind::Caves, (96, 96), 11, 30, true, Some(&tank)).unwrap();
        for y in 0..96 {
            for x in 0..96 {
                let p = Point::new(x, y);
                let walled = g.terrain(p).unwrap().to_char() == '@';
                assert_eq!(walled, !plain.is_passable(p), "{p}");
            }
        }
        assert_eq!(rows.len(), 30);
        for r in &rows {
            for p in [r.start, r.goal] {
                let c = crate::validate::position_cost(&g, &tank, i64::from(p.x), i64::from(p.y));
                assert!(c.is_some(), "{p} is no tank position");
            }
            assert!(r.length > 0.0);
        }
    }

    /// The streamed rows are the grid crate's `write_map` text of the same
    /// cells, on widths around word edges.
    #[test]
    fn streamed_text_is_the_grid_writers() {
        for (w, h) in [(8, 8), (63, 20), (64, 9), (65, 33), (200, 70)] {
            let c = make_cells(MapKind::Caves, w, h, 4, true);
            let mut want = Vec::new();
            write_map(&c.to_grid().unwrap(), &mut want).unwrap();
            let mut got = Vec::new();
            write_header(&mut got, w, h).unwrap();
            write_cells(&c, &mut got, &ProgressBar::hidden()).unwrap();
            assert_eq!(
                String::from_utf8(got).unwrap(),
                String::from_utf8(want).unwrap()
            );
        }
    }

    /// Output cell `(x, y)` of a tiling is the cut source's cell mirrored
    /// per copy, in the text and in the grid; the copies meet along
    /// matching borders.
    #[test]
    fn tiling_mirrors_every_other_copy() {
        // A 70 x 5 source with a wall border and mixed kinds inside.
        let mut rows = vec!["@".repeat(70)];
        for y in 0..3u32 {
            let inner: String = (0..68u32)
                .map(|x| match (x * 7 + y * 13) % 11 {
                    0 | 1 => '@',
                    2 => 'T',
                    3 => 'W',
                    4 => 'S',
                    _ => '.',
                })
                .collect();
            rows.push(format!("@{inner}@"));
        }
        rows.push("@".repeat(70));
        let src = Grid::from_rows(&rows).unwrap();
        let t = Tiling::new(src.clone(), 1, (3, 4), MAX_SIDE, MAX_CELLS).unwrap();
        assert_eq!((t.width(), t.height()), (3 * 68, 4 * 3));
        let mut text = Vec::new();
        write_header(&mut text, t.width(), t.height()).unwrap();
        let (passable, _) = t.write_rows(&mut text, &ProgressBar::hidden()).unwrap();
        let out = parse_map(&String::from_utf8(text).unwrap()).unwrap();
        let grid = t.to_grid().unwrap();
        assert_eq!(passable, out.passable_count());
        for y in 0..t.height() {
            for x in 0..t.width() {
                let (i, j) = (x / 68, y / 3);
                let sx = if i % 2 == 1 { 67 - x % 68 } else { x % 68 };
                let sy = if j % 2 == 1 { 2 - y % 3 } else { y % 3 };
                let s = Point::new(sx + 1, sy + 1);
                let p = Point::new(x, y);
                assert_eq!(out.terrain(p).unwrap(), src.terrain(s).unwrap(), "{p}");
                assert_eq!(grid.is_passable(p), src.is_passable(s), "{p}");
            }
        }
        // Copies meet along mirrored borders: columns 67 and 68 agree.
        for y in 0..t.height() {
            assert_eq!(
                out.terrain(Point::new(67, y)).unwrap(),
                out.terrain(Point::new(68, y)).unwrap()
            );
        }
        assert!(Tiling::new(src.clone(), 3, (2, 2), MAX_SIDE, MAX_CELLS).is_err());
        assert!(Tiling::new(src, 0, (500, 2), MAX_SIDE, MAX_CELLS).is_err());
    }

    #[test]
    fn sizes_up_to_32k_are_accepted_and_bad_ones_refused() {
        assert!(check_size(4, 100).is_err());
        assert!(check_size(100, MAX_SIDE + 1).is_err());
        assert!(check_size(MAX_SIDE, MAX_SIDE).is_ok());
        assert!(check_size(16_384, 16_384).is_ok());
    }

    /// The budget refuses a run whose estimated peak exceeds it, and
    /// limits the rows' search windows to what is left of it.
    #[test]
    fn the_memory_budget_refuses_and_limits_windows() {
        let plan = |w, h, rows| Plan {
            width: w,
            height: h,
            source_bytes: Bits::bytes_for(w, h),
            terrain: false,
            rows,
            profile: false,
            trace: false,
        };
        let big = plan(MAX_SIDE, MAX_SIDE, 0);
        let e = estimate(&big, Some(64 << 20)).unwrap_err();
        assert!(matches!(e, CliError::OverBudget { .. }), "{e}");
        assert_eq!(e.exit_code(), 2);
        let ok = estimate(&big, Some(1 << 30)).unwrap();
        assert!(ok.peak().1 <= 160 << 20, "{ok:?}");
        let rows = plan(MAX_SIDE, MAX_SIDE, 10);
        let fixed =
            BASE_BYTES + grid_bytes(MAX_SIDE, MAX_SIDE) + Bits::bytes_for(MAX_SIDE, MAX_SIDE);
        let e = estimate(&rows, Some(fixed + 1000)).unwrap_err();
        assert!(matches!(e, CliError::OverBudget { .. }), "{e}");
        let limited = estimate(&rows, Some(fixed + (100 << 20))).unwrap();
        assert_eq!(limited.window_cells, (100 << 20) / WINDOW_BYTES_PER_CELL);
        assert_eq!(estimate(&rows, None).unwrap().window_cells, 1 << 30);
    }
}
