//! `regionpath generate`: the project's own seeded maps and scenarios.
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
//!
//! Everything random comes from [`SplitMix64`] seeded by `--seed` (the
//! scenario rows from a second stream), so the same command writes the same
//! bytes on every platform and version. Scenario rows take start and goal
//! from the largest connected component, with target lengths spread evenly
//! over each start's range, and optimal lengths from
//! [`crate::dijkstra::distances`]; they are written sorted by bucket
//! (`floor(length / 4)`) in the Moving AI format with 8 decimals.
//!
//! `--terrain` paints water, swamp, forest and roads over the open cells
//! ([`crate::terrain`]). With `--profile`, rows join usable positions of
//! the largest component under the profile, goals are chosen on the
//! profile's costs ([`dijkstra::weighted_distances`]) and each row's
//! optimal length is the exact A*'s cost under the profile
//! (`AStar::find_path_weighted`), checked against that Dijkstra.

use crate::args::{GenerateArgs, MapKind, TraceArgs};
use crate::dijkstra;
use crate::error::{CliError, Outcome};
use crate::out::Out;
use crate::progress;
use crate::rng::SplitMix64;
use indicatif::ProgressBar;
use regionpath::grid::{write_map, Grid, Point, Profile, ProfileGrid};
use regionpath::search::{AStar, Status};
use serde_json::json;
use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;

/// Smallest side the generator accepts.
pub const MIN_SIDE: u32 = 8;
/// Largest side the generator accepts.
pub const MAX_SIDE: u32 = 16_384;
/// Largest number of cells the generator accepts.
pub const MAX_CELLS: u64 = 1 << 24;

/// Open (passable) flags, row-major.
struct Cells {
    width: u32,
    height: u32,
    open: Vec<bool>,
}

impl Cells {
    fn new(width: u32, height: u32, open: bool) -> Cells {
        Cells {
            width,
            height,
            open: vec![open; width as usize * height as usize],
        }
    }

    fn set(&mut self, x: u32, y: u32, open: bool) {
        let i = y as usize * self.width as usize + x as usize;
        self.open[i] = open;
    }

    /// Whether `(x, y)` is open; outside the map counts as rock.
    fn is_open(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < i64::from(self.width)
            && y < i64::from(self.height)
            && self.open[y as usize * self.width as usize + x as usize]
    }

    fn to_grid(&self) -> Result<Grid, CliError> {
        let mut g = Grid::new(self.width, self.height, false)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        for y in 0..self.height {
            for x in 0..self.width {
                if self.open[y as usize * self.width as usize + x as usize] {
                    g.set_passable(Point::new(x, y), true)
                        .map_err(|e| CliError::Usage(e.to_string()))?;
                }
            }
        }
        Ok(g)
    }
}

/// Wall-line positions along one axis of `n` cells: every `pitch` cells and
/// the last cell, with no room narrower than 3 cells.
fn wall_lines(n: u32, pitch: u32) -> Vec<u32> {
    let mut v = Vec::new();
    let mut p = 0;
    while p < n - 1 {
        v.push(p);
        p += pitch;
    }
    if let Some(&last) = v.last() {
        if n - 1 - last < 4 && v.len() > 1 {
            v.pop();
        }
    }
    v.push(n - 1);
    v
}

/// Union–find over room indices (for the spanning tree of doors).
struct Sets(Vec<usize>);

impl Sets {
    fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    /// Joins the sets of `a` and `b`; `false` if they were already one.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.0[ra] = rb;
        true
    }
}

/// The rooms map (see the module documentation).
fn rooms(width: u32, height: u32, seed: u64) -> Cells {
    let mut rng = SplitMix64::new(seed);
    let pitch = (width.min(height) / 16).clamp(6, 64);
    let xs = wall_lines(width, pitch);
    let ys = wall_lines(height, pitch);
    let mut c = Cells::new(width, height, true);
    for y in 0..height {
        for &x in &xs {
            c.set(x, y, false);
        }
    }
    for &y in &ys {
        for x in 0..width {
            c.set(x, y, false);
        }
    }
    let (nx, ny) = (xs.len() - 1, ys.len() - 1);
    let room = |i: usize, j: usize| j * nx + i;
    // Walls between neighbouring rooms: (room a, room b, vertical?, i, j).
    let mut walls = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            if i + 1 < nx {
                walls.push((room(i, j), room(i + 1, j), true, i, j));
            }
            if j + 1 < ny {
                walls.push((room(i, j), room(i, j + 1), false, i, j));
            }
        }
    }
    rng.shuffle(&mut walls);
    let mut sets = Sets((0..nx * ny).collect());
    let door_max = (pitch / 4).max(1);
    for &(a, b, vertical, i, j) in &walls {
        let tree = sets.union(a, b);
        if !tree && !rng.chance(0.3) {
            continue;
        }
        // The wall segment between the two rooms, corners excluded.
        let (lo, hi) = if vertical {
            (ys[j] + 1, ys[j + 1] - 1)
        } else {
            (xs[i] + 1, xs[i + 1] - 1)
        };
        let len = hi - lo + 1;
        let door = rng.range(1, door_max.min(len));
        let at = rng.range(lo, hi + 1 - door);
        for k in at..at + door {
            if vertical {
                c.set(xs[i + 1], k, true);
            } else {
                c.set(k, ys[j + 1], true);
            }
        }
    }
    // Obstacles, one cell clear of the room's walls.
    for j in 0..ny {
        for i in 0..nx {
            let (x0, x1) = (xs[i] + 2, xs[i + 1] - 2);
            let (y0, y1) = (ys[j] + 2, ys[j + 1] - 2);
            if x1 < x0 + 3 || y1 < y0 + 3 {
                continue;
            }
            let (iw, ih) = (x1 - x0 + 1, y1 - y0 + 1);
            for _ in 0..rng.range(0, 3) {
                let (w, h) = if rng.chance(0.5) {
                    // Pillar.
                    (rng.range(1, (iw / 5).max(1)), rng.range(1, (ih / 5).max(1)))
                } else if rng.chance(0.5) {
                    // Horizontal wall piece.
                    (rng.range(2, (iw / 2).max(2)), 1)
                } else {
                    (1, rng.range(2, (ih / 2).max(2)))
                };
                let x = rng.range(x0, x1 + 1 - w);
                let y = rng.range(y0, y1 + 1 - h);
                for yy in y..y + h {
                    for xx in x..x + w {
                        c.set(xx, yy, false);
                    }
                }
            }
        }
    }
    c
}

/// Number of rock cells in the `(2r+1)²` block around `(x, y)` (outside
/// the map counts as rock).
fn rock_within(c: &Cells, x: i64, y: i64, r: i64) -> u32 {
    let mut n = 0;
    for dy in -r..=r {
        for dx in -r..=r {
            n += u32::from(!c.is_open(x + dx, y + dy));
        }
    }
    n
}

/// One cellular-automaton round on the inner cells (the border stays
/// rock): rock where at least 5 of the 3×3 block is rock, or, with
/// `fill_gaps`, where at most 2 of the 5×5 block is.
fn automaton_round(c: &Cells, fill_gaps: bool) -> Cells {
    let mut next = Cells::new(c.width, c.height, false);
    for y in 1..c.height.saturating_sub(1) {
        for x in 1..c.width.saturating_sub(1) {
            let (xi, yi) = (i64::from(x), i64::from(y));
            let rock =
                rock_within(c, xi, yi, 1) >= 5 || (fill_gaps && rock_within(c, xi, yi, 2) <= 2);
            next.set(x, y, !rock);
        }
    }
    next
}

/// The caves map (see the module documentation).
fn caves(width: u32, height: u32, seed: u64) -> Cells {
    let mut rng = SplitMix64::new(seed);
    // Run the automaton on a coarse lattice so caverns and passages are a
    // few cells wide on big maps, then scale up and round the corners.
    let scale = (width.min(height) / 64).clamp(1, 4);
    let (cw, ch) = (width.div_ceil(scale), height.div_ceil(scale));
    let mut coarse = Cells::new(cw, ch, false);
    for y in 1..ch.saturating_sub(1) {
        for x in 1..cw.saturating_sub(1) {
            coarse.set(x, y, !rng.chance(0.45));
        }
    }
    for round in 0..7 {
        coarse = automaton_round(&coarse, round < 4);
    }
    let mut c = Cells::new(width, height, false);
    for y in 1..height - 1 {
        for x in 1..width - 1 {
            c.set(
                x,
                y,
                coarse.is_open(i64::from(x / scale), i64::from(y / scale)),
            );
        }
    }
    if scale > 1 {
        for _ in 0..3 {
            c = automaton_round(&c, false);
        }
    }
    c
}

/// Cells of the largest connected component (8-connected, no corner
/// cutting), row-major order.
fn largest_component(grid: &Grid) -> Vec<Point> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let mut seen = vec![false; w * h];
    let mut best: Vec<Point> = Vec::new();
    let mut queue = VecDeque::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let i = y as usize * w + x as usize;
            if seen[i] || !grid.is_passable(Point::new(x, y)) {
                continue;
            }
            seen[i] = true;
            let mut comp = vec![Point::new(x, y)];
            queue.push_back(Point::new(x, y));
            while let Some(p) = queue.pop_front() {
                dijkstra::for_each_move(grid, p.x, p.y, |n, _| {
                    let j = n.y as usize * w + n.x as usize;
                    if !seen[j] {
                        seen[j] = true;
                        comp.push(n);
                        queue.push_back(n);
                    }
                });
            }
            if comp.len() > best.len() {
                best = comp;
            }
        }
    }
    best.sort_by_key(|p| (p.y, p.x));
    best
}

/// One generated scenario row.
#[derive(Clone, Debug, PartialEq)]
pub struct GenRow {
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// Optimal length by Dijkstra.
    pub length: f64,
}

impl GenRow {
    /// `floor(length / 4)`.
    pub fn bucket(&self) -> u64 {
        (self.length / 4.0).floor() as u64
    }
}

/// `rows` start/goal pairs in one component with Dijkstra lengths, sorted
/// by bucket; under `profile`, pairs of usable positions with exact A*
/// costs under it.
/// One Dijkstra per row (and one A* under a profile); `bar` counts the rows.
fn scenario_rows(
    grid: &Grid,
    rows: usize,
    seed: u64,
    profile: Option<&Profile>,
    bar: &ProgressBar,
) -> Result<Vec<GenRow>, CliError> {
    let view = profile.map(|p| ProfileGrid::new(grid, p));
    let positions = view.as_ref().map_or(grid, |v| v.grid());
    let comp = largest_component(positions);
    if comp.len() < 2 {
        return Err(CliError::Usage(format!(
            "the generated map has no two connected {} to make scenario rows from",
            match profile {
                Some(p) => format!("usable positions for profile `{}`", p.name()),
                None => "cells".to_string(),
            }
        )));
    }
    let mut astar = AStar::new();
    let w = grid.width() as usize;
    // A separate stream, so `--rows` does not change the map.
    let mut rng = SplitMix64::new(seed ^ 0x5CE4_A210_0000_0001);
    let mut out = Vec::with_capacity(rows);
    for i in 0..rows {
        let start = comp[rng.below(comp.len() as u64) as usize];
        let dist = match &view {
            Some(v) => dijkstra::weighted_distances(v, start),
            None => dijkstra::distances(grid, start),
        };
        let far = comp
            .iter()
            .map(|p| dist[p.y as usize * w + p.x as usize])
            .fold(0.0f64, f64::max);
        let target = far * (i as f64 + rng.unit()) / rows as f64;
        // A uniform pick among the cells within 2 of the target length
        // (reservoir sampling), else the nearest.
        let mut chosen: Option<Point> = None;
        let mut near = 0u64;
        let mut nearest = (f64::INFINITY, start);
        for &p in &comp {
            let d = dist[p.y as usize * w + p.x as usize];
            if p == start {
                continue;
            }
            let off = (d - target).abs();
            if off <= 2.0 {
                near += 1;
                if rng.below(near) == 0 {
                    chosen = Some(p);
                }
            }
            if off < nearest.0 {
                nearest = (off, p);
            }
        }
        let goal = chosen.unwrap_or(nearest.1);
        let mut length = dist[goal.y as usize * w + goal.x as usize];
        if let Some(v) = &view {
            length = exact_cost(&mut astar, v, start, goal, length)?;
        }
        out.push(GenRow {
            start,
            goal,
            length,
        });
        bar.inc(1);
    }
    out.sort_by_key(GenRow::bucket);
    Ok(out)
}

/// The exact A*'s cost from `start` to `goal` over `view`, which must agree
/// with the Dijkstra cost `dijkstra` to a relative 1e-9.
fn exact_cost(
    astar: &mut AStar,
    view: &ProfileGrid,
    start: Point,
    goal: Point,
    dijkstra: f64,
) -> Result<f64, CliError> {
    let fail = |message: String| CliError::Algo {
        algo: "astar".into(),
        file: "generated map".into(),
        line: None,
        message,
    };
    let found = astar
        .find_path_weighted(view, start, goal)
        .map_err(|e| fail(e.to_string()))?;
    if found.status != Status::Found || (found.cost - dijkstra).abs() > 1e-9 * dijkstra.max(1.0) {
        return Err(fail(format!(
            "{start} -> {goal}: A* says {:?} at cost {}, Dijkstra {dijkstra}",
            found.status, found.cost
        )));
    }
    Ok(found.cost)
}

/// The text of a Moving AI scenario file for `rows` on map `map_name`.
fn scen_text(grid: &Grid, map_name: &str, rows: &[GenRow]) -> String {
    let mut s = String::from("version 1\n");
    for r in rows {
        s.push_str(&format!(
            "{}\t{map_name}\t{}\t{}\t{}\t{}\t{}\t{}\t{:.8}\n",
            r.bucket(),
            grid.width(),
            grid.height(),
            r.start.x,
            r.start.y,
            r.goal.x,
            r.goal.y,
            r.length
        ));
    }
    s
}

/// The map (and scenario rows if `rows > 0`) for these settings, with
/// terrain painted when `terrain`, rows under `profile` when given;
/// progress is shown unless `quiet`.
#[allow(clippy::too_many_arguments)]
fn generate(
    kind: MapKind,
    width: u32,
    height: u32,
    seed: u64,
    rows: usize,
    quiet: bool,
    terrain: bool,
    profile: Option<&Profile>,
) -> Result<(Grid, Vec<GenRow>), CliError> {
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
    let big = u64::from(width) * u64::from(height) >= progress::BIG_MAP_CELLS;
    let spinner = progress::spinner(quiet || !big, format!("generating a {width}x{height} map"));
    let cells = match kind {
        MapKind::Rooms => rooms(width, height, seed),
        MapKind::Caves => caves(width, height, seed),
    };
    let grid = cells.to_grid().and_then(|g| {
        if terrain {
            crate::terrain::paint(&g, seed)
        } else {
            Ok(g)
        }
    });
    spinner.finish_and_clear();
    let grid = grid?;
    let rows = if rows > 0 {
        let bar = progress::bar(quiet, rows as u64, "scenario rows (one Dijkstra each)");
        let r = scenario_rows(&grid, rows, seed, profile, &bar);
        bar.finish_and_clear();
        r?
    } else {
        Vec::new()
    };
    Ok((grid, rows))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(path)?;
        f.write_all(bytes)?;
        f.flush()
    };
    write().map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Runs `regionpath generate`.
pub fn run(args: &GenerateArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let rows = if args.scen.is_some() { args.rows } else { 0 };
    if args.scen.is_some() && rows == 0 {
        return Err(CliError::Usage("--rows must be at least 1".into()));
    }
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    let (grid, scen_rows) = generate(
        args.kind,
        args.width,
        args.height,
        args.seed,
        rows,
        args.quiet,
        args.terrain,
        profile.as_ref(),
    )?;
    let mut map = Vec::new();
    write_map(&grid, &mut map).map_err(|source| CliError::Write {
        path: args.out.clone(),
        source,
    })?;
    write_file(&args.out, &map)?;
    let trace = match args.trace {
        Some(edits) => {
            let path = args
                .trace_out
                .clone()
                .unwrap_or_else(|| args.out.with_extension("trace"));
            let text = crate::trace::generate(&grid, edits, args.seed, profile.as_ref());
            write_file(&path, text.as_bytes())?;
            Some((path, edits, text.lines().count()))
        }
        None => None,
    };
    let longest = scen_rows.iter().map(|r| r.length).fold(0.0, f64::max);
    if let Some(scen) = &args.scen {
        let name = args
            .out
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        write_file(scen, scen_text(&grid, &name, &scen_rows).as_bytes())?;
    }
    if args.json {
        out.line(json!({
            "status": Outcome::Ok.status(),
            "exit_code": Outcome::Ok.code(),
            "map": args.out.display().to_string(),
            "width": grid.width(),
            "height": grid.height(),
            "passable": grid.passable_count(),
            "terrain": args.terrain,
            "kinds": grid.terrain_kinds().iter().map(|t| t.to_char().to_string()).collect::<Vec<_>>(),
            "profile": profile.as_ref().map(|p| p.name()),
            "scen": args.scen.as_ref().map(|p| p.display().to_string()),
            "rows": scen_rows.len(),
            "longest": args.scen.as_ref().map(|_| longest),
            "trace": trace.as_ref().map(|t| t.0.display().to_string()),
            "trace_edits": trace.as_ref().map(|t| t.1),
            "trace_lines": trace.as_ref().map(|t| t.2),
        }))?;
        return Ok(Outcome::Ok);
    }
    out.line(format_args!(
        "wrote {} ({}x{}, {} passable cells)",
        args.out.display(),
        grid.width(),
        grid.height(),
        grid.passable_count()
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
    use regionpath::grid::parse_scen;

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
            let (a, ra) = generate(kind, 64, 48, 9, 20, true, false, None).unwrap();
            let (b, rb) = generate(kind, 64, 48, 9, 20, true, false, None).unwrap();
            let (c, _) = generate(kind, 64, 48, 10, 0, true, false, None).unwrap();
            assert_eq!(a, b);
            assert_eq!(ra, rb);
            assert_ne!(a, c);
            // The scenario stream does not disturb the map.
            assert_eq!(
                generate(kind, 64, 48, 9, 3, true, false, None).unwrap().0,
                a
            );
            assert!(a.passable_count() > 64 * 48 / 3, "{kind:?} too closed");
        }
    }

    #[test]
    fn rooms_are_all_connected() {
        let (g, _) = generate(MapKind::Rooms, 100, 70, 3, 0, true, false, None).unwrap();
        assert_eq!(largest_component(&g).len() as u64, g.passable_count());
        // Border is wall.
        for x in 0..100 {
            assert!(!g.is_passable(Point::new(x, 0)) && !g.is_passable(Point::new(x, 69)));
        }
    }

    #[test]
    fn scenario_rows_parse_and_are_consistent() {
        let (g, rows) = generate(MapKind::Caves, 80, 60, 5, 40, true, false, None).unwrap();
        let text = scen_text(&g, "c.map", &rows);
        let s = parse_scen(&text).unwrap();
        assert_eq!(s.rows.len(), 40);
        let comp = largest_component(&g);
        let mut last_bucket = 0;
        for (r, gen) in s.rows.iter().zip(&rows) {
            assert!(comp.contains(&r.start) && comp.contains(&r.goal));
            assert!(r.start != r.goal);
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
        let (plain, _) = generate(MapKind::Caves, 96, 96, 11, 0, true, false, None).unwrap();
        let tank = Profile::builder("tank")
            .size(2)
            .cost('.', 1.0)
            .cost('=', 0.7)
            .cost('T', 4.0)
            .build()
            .unwrap();
        let (g, rows) = generate(MapKind::Caves, 96, 96, 11, 30, true, true, Some(&tank)).unwrap();
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

    #[test]
    fn bad_sizes_are_errors() {
        assert!(generate(MapKind::Rooms, 4, 100, 1, 0, true, false, None).is_err());
        assert!(generate(MapKind::Caves, 100, MAX_SIDE + 1, 1, 0, true, false, None).is_err());
        assert!(generate(MapKind::Caves, MAX_SIDE, MAX_SIDE, 1, 0, true, false, None).is_err());
    }
}
