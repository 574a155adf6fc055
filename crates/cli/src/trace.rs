//! Game traces: the line format `regionpath replay` reads, its parser
//! (errors located by line and column) and the seeded generator behind
//! `regionpath trace` and `generate --trace`.
//!
//! One command per line, words separated by blanks; `#` starts a comment
//! (to the end of the line) and blank lines are skipped:
//!
//! | command | meaning |
//! |---|---|
//! | `edit X Y W H C` | fill the `W × H` rectangle at `(X, Y)` with terrain character `C` |
//! | `query SX SY GX GY` | plan one full path on the current map |
//! | `lazy ID SX SY GX GY` | start (or restart) unit `ID`'s lazy query |
//! | `walk ID N` | unit `ID` walks `N` cells along its legs |
//! | `group GX GY SX SY SX SY ...` | plan a path from every start to one goal |
//!
//! Coordinates are cells (`x` column, `y` row, from the top-left corner);
//! `W`, `H` and `N` are at least 1. Whether a point lies on the map is
//! checked when the trace is replayed ([`crate::replay`]), also with the
//! line and column of the word.

use crate::rng::SplitMix64;
use regionpath::grid::{Grid, Point, Profile, Terrain};
use std::fmt::{self, Write as _};
use thiserror::Error;

/// One trace command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Fill the rectangle `x..x + w` × `y..y + h` with terrain `kind`.
    Edit {
        /// Left column.
        x: u32,
        /// Top row.
        y: u32,
        /// Width (≥ 1).
        w: u32,
        /// Height (≥ 1).
        h: u32,
        /// The terrain character.
        kind: Terrain,
    },
    /// Plan one full path.
    Query {
        /// Start cell.
        start: Point,
        /// Goal cell.
        goal: Point,
    },
    /// Start unit `id`'s lazy query.
    Lazy {
        /// The unit.
        id: u32,
        /// Start cell (where the unit stands).
        start: Point,
        /// Goal cell.
        goal: Point,
    },
    /// Unit `id` walks `cells` cells.
    Walk {
        /// The unit.
        id: u32,
        /// Cells to walk (≥ 1).
        cells: u32,
    },
    /// Paths from every start to one goal.
    Group {
        /// The shared goal.
        goal: Point,
        /// The starts (at least one).
        starts: Vec<Point>,
    },
}

/// A command with where it stands in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column of each word of the line (the command word first),
    /// so replay errors can point at a coordinate.
    pub columns: Vec<usize>,
    /// The command.
    pub command: Command,
}

/// What is wrong with a trace line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TraceErrorKind {
    /// The first word is no command.
    #[error("unknown command `{0}` (expected edit, query, lazy, walk or group)")]
    UnknownCommand(String),
    /// Too few words.
    #[error("`{command}` needs {expected}, found {found} value(s)")]
    Missing {
        /// The command.
        command: &'static str,
        /// What it takes.
        expected: &'static str,
        /// Values found.
        found: usize,
    },
    /// A word after the last value.
    #[error("unexpected `{0}` after the last value")]
    Extra(String),
    /// A word that should be a number.
    #[error("`{word}` is not a {what}")]
    BadNumber {
        /// The word.
        word: String,
        /// What was expected.
        what: &'static str,
    },
    /// A zero width, height or walk length.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// A terrain word that is not one printable character.
    #[error("`{0}` is not one terrain character (printable ASCII)")]
    BadTerrain(String),
    /// A `group` whose coordinates after the goal do not come in pairs.
    #[error("`group` starts come in pairs SX SY; the last one has no SY")]
    OddGroup,
    /// A point off the map (found while replaying).
    #[error("{what} {point} is off the {width}x{height} map")]
    OffMap {
        /// Which point.
        what: &'static str,
        /// The point.
        point: Point,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// An edit rectangle reaching off the map (found while replaying).
    #[error("rectangle {w}x{h} at ({x}, {y}) reaches off the {width}x{height} map")]
    EditOffMap {
        /// Left column.
        x: u32,
        /// Top row.
        y: u32,
        /// Width.
        w: u32,
        /// Height.
        h: u32,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// An edit the grid refused (too many terrain kinds).
    #[error("the map cannot take the edit: {0}")]
    Grid(String),
    /// A `walk` for a unit no `lazy` line started (found while replaying).
    #[error("unit {0} was never started with `lazy`")]
    UnknownUnit(u32),
}

/// A malformed trace line: where, and what.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct TraceError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (of the offending word; one past the end of the line
    /// when a value is missing).
    pub column: usize,
    /// What is wrong.
    pub kind: TraceErrorKind,
}

/// Parses a whole trace. Every line is checked; the first bad one is the
/// error. O(length of the text).
pub fn parse(text: &str) -> Result<Vec<Line>, TraceError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("");
        let words = words(body);
        if words.is_empty() {
            continue;
        }
        lines.push(parse_line(i + 1, body.trim_end().chars().count(), &words)?);
    }
    Ok(lines)
}

/// The words of a line with their 1-based columns (in characters).
fn words(body: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    // (byte offset, column) where the current word starts.
    let mut start: Option<(usize, usize)> = None;
    for (column, (i, c)) in body.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (true, Some((s, col))) => {
                out.push((col + 1, &body[s..i]));
                start = None;
            }
            (false, None) => start = Some((i, column)),
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col + 1, &body[s..]));
    }
    out
}

fn parse_line(line: usize, len: usize, words: &[(usize, &str)]) -> Result<Line, TraceError> {
    let at = |column: usize, kind| TraceError { line, column, kind };
    let (name, args) = (words[0].1, &words[1..]);
    let end = len + 1;
    let (command, expected, count): (&'static str, &'static str, Option<usize>) = match name {
        "edit" => ("edit", "X Y W H C", Some(5)),
        "query" => ("query", "SX SY GX GY", Some(4)),
        "lazy" => ("lazy", "ID SX SY GX GY", Some(5)),
        "walk" => ("walk", "ID N", Some(2)),
        "group" => ("group", "GX GY SX SY [SX SY ...]", None),
        other => return Err(at(words[0].0, TraceErrorKind::UnknownCommand(other.into()))),
    };
    let need = count.unwrap_or(4);
    if args.len() < need {
        return Err(at(
            end,
            TraceErrorKind::Missing {
                command,
                expected,
                found: args.len(),
            },
        ));
    }
    if let Some(n) = count {
        if let Some(&(c, w)) = args.get(n) {
            return Err(at(c, TraceErrorKind::Extra(w.into())));
        }
    }
    let num = |k: usize, what: &'static str| -> Result<u32, TraceError> {
        let (c, w) = args[k];
        w.parse::<u32>().map_err(|_| {
            at(
                c,
                TraceErrorKind::BadNumber {
                    word: w.into(),
                    what,
                },
            )
        })
    };
    let positive = |k: usize, what: &'static str| -> Result<u32, TraceError> {
        match num(k, "count")? {
            0 => Err(at(args[k].0, TraceErrorKind::Zero(what))),
            v => Ok(v),
        }
    };
    let point = |k: usize| -> Result<Point, TraceError> {
        Ok(Point::new(num(k, "cell column")?, num(k + 1, "cell row")?))
    };
    let command = match command {
        "edit" => {
            let (c, w) = args[4];
            let mut chars = w.chars();
            let kind = match (chars.next().and_then(Terrain::from_char), chars.next()) {
                (Some(t), None) => t,
                _ => return Err(at(c, TraceErrorKind::BadTerrain(w.into()))),
            };
            Command::Edit {
                x: num(0, "cell column")?,
                y: num(1, "cell row")?,
                w: positive(2, "the width")?,
                h: positive(3, "the height")?,
                kind,
            }
        }
        "query" => Command::Query {
            start: point(0)?,
            goal: point(2)?,
        },
        "lazy" => Command::Lazy {
            id: num(0, "unit id")?,
            start: point(1)?,
            goal: point(3)?,
        },
        "walk" => Command::Walk {
            id: num(0, "unit id")?,
            cells: positive(1, "the walk length")?,
        },
        _ => {
            if args.len() % 2 == 1 {
                return Err(at(args[args.len() - 1].0, TraceErrorKind::OddGroup));
            }
            let goal = point(0)?;
            let mut starts = Vec::with_capacity(args.len() / 2 - 1);
            for k in (2..args.len()).step_by(2) {
                starts.push(point(k)?);
            }
            Command::Group { goal, starts }
        }
    };
    Ok(Line {
        line,
        columns: words.iter().map(|w| w.0).collect(),
        command,
    })
}

impl fmt::Display for Command {
    /// The command as one trace line (without the newline); [`parse`]
    /// reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Edit { x, y, w, h, kind } => write!(f, "edit {x} {y} {w} {h} {kind}"),
            Command::Query { start, goal } => {
                write!(f, "query {} {} {} {}", start.x, start.y, goal.x, goal.y)
            }
            Command::Lazy { id, start, goal } => {
                write!(f, "lazy {id} {} {} {} {}", start.x, start.y, goal.x, goal.y)
            }
            Command::Walk { id, cells } => write!(f, "walk {id} {cells}"),
            Command::Group { goal, starts } => {
                write!(f, "group {} {}", goal.x, goal.y)?;
                for s in starts {
                    write!(f, " {} {}", s.x, s.y)?;
                }
                Ok(())
            }
        }
    }
}

/// A rectangle of cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

impl Rect {
    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// A structure the generator put on the map, and the terrain it covered
/// (uniform, so one edit restores it).
#[derive(Clone, Copy, Debug)]
struct Placed {
    rect: Rect,
    was: Terrain,
}

/// Units the generated trace keeps walking at once.
const UNITS: u32 = 4;
/// Structures of each kind standing at once.
const MAX_STANDING: usize = 12;
/// Side of a building.
const BUILDING: u32 = 16;
/// Longest wall across a corridor.
const MAX_WALL: u32 = 24;
/// Units in a group, and the side of the area they start in.
const GROUP_UNITS: usize = 100;
const GROUP_AREA: u32 = 20;
/// Edits between two groups.
const GROUP_EVERY: usize = 100;

/// The trace generator's state: a copy of the map kept in step with the
/// edits written, so every endpoint is passable when its line runs.
struct Gen {
    grid: Grid,
    rng: SplitMix64,
    /// Door-like cells of the original map: passable, with blocked cells on
    /// two opposite sides.
    doors: Vec<Point>,
    closed: Vec<Placed>,
    walls: Vec<Placed>,
    buildings: Vec<Placed>,
    blocked: Terrain,
    /// Endpoints are usable positions of this profile (else passable
    /// cells).
    profile: Option<Profile>,
    out: String,
}

impl Gen {
    fn emit(&mut self, c: &Command) {
        let _ = writeln!(self.out, "{c}");
    }

    fn edit(&mut self, r: Rect, kind: Terrain) {
        for y in r.y..r.y + r.h {
            for x in r.x..r.x + r.w {
                // In bounds by construction; a full palette cannot occur
                // (the trace uses the map's own kinds).
                let _ = self.grid.set_terrain(Point::new(x, y), kind);
            }
        }
        self.emit(&Command::Edit {
            x: r.x,
            y: r.y,
            w: r.w,
            h: r.h,
            kind,
        });
    }

    fn standing(&self) -> impl Iterator<Item = &Placed> {
        self.closed
            .iter()
            .chain(self.walls.iter())
            .chain(self.buildings.iter())
    }

    fn free(&self, r: &Rect) -> bool {
        !self.standing().any(|p| p.rect.overlaps(r))
    }

    /// A random passable cell (`None` after 4096 misses).
    fn passable(&mut self) -> Option<Point> {
        let (w, h) = (self.grid.width(), self.grid.height());
        (0..4096).find_map(|_| {
            let p = Point::new(
                self.rng.below(w.into()) as u32,
                self.rng.below(h.into()) as u32,
            );
            self.grid.is_passable(p).then_some(p)
        })
    }

    /// Whether a unit may stand on `p` (under the profile, if any).
    fn usable(&self, p: Point) -> bool {
        match &self.profile {
            Some(pr) => {
                crate::validate::position_cost(&self.grid, pr, p.x.into(), p.y.into()).is_some()
            }
            None => self.grid.is_passable(p),
        }
    }

    /// A random endpoint: a usable cell (`None` after 4096 misses).
    fn endpoint(&mut self) -> Option<Point> {
        let (w, h) = (self.grid.width(), self.grid.height());
        (0..4096).find_map(|_| {
            let p = Point::new(
                self.rng.below(w.into()) as u32,
                self.rng.below(h.into()) as u32,
            );
            self.usable(p).then_some(p)
        })
    }

    /// Terrain of `r` if every cell has the same passable kind.
    fn uniform(&self, r: &Rect) -> Option<Terrain> {
        let first = self.grid.terrain(Point::new(r.x, r.y)).ok()?;
        if !first.is_passable() {
            return None;
        }
        for y in r.y..r.y + r.h {
            for x in r.x..r.x + r.w {
                if self.grid.terrain(Point::new(x, y)).ok()? != first {
                    return None;
                }
            }
        }
        Some(first)
    }

    /// Removes a random structure of `list` (0 doors, 1 walls, 2
    /// buildings) by restoring its terrain.
    fn remove(&mut self, which: usize) {
        let list = match which {
            0 => &mut self.closed,
            1 => &mut self.walls,
            _ => &mut self.buildings,
        };
        if list.is_empty() {
            return;
        }
        let i = self.rng.below(list.len() as u64) as usize;
        let p = list.swap_remove(i);
        self.edit(p.rect, p.was);
    }

    /// Closes a door-like cell (when one is free).
    fn close_door(&mut self) -> bool {
        for _ in 0..16 {
            if self.doors.is_empty() {
                return false;
            }
            let d = self.doors[self.rng.below(self.doors.len() as u64) as usize];
            let r = Rect {
                x: d.x,
                y: d.y,
                w: 1,
                h: 1,
            };
            if let (true, Some(was)) = (self.free(&r), self.uniform(&r)) {
                self.closed.push(Placed { rect: r, was });
                self.edit(r, self.blocked);
                return true;
            }
        }
        false
    }

    /// A thin wall across a corridor: from a random passable cell, the run
    /// of same-kind passable cells across one axis, if at most
    /// [`MAX_WALL`] long.
    fn wall(&mut self) -> bool {
        for _ in 0..32 {
            let Some(p) = self.passable() else {
                return false;
            };
            let Ok(kind) = self.grid.terrain(p) else {
                continue;
            };
            let horizontal = self.rng.chance(0.5);
            let same = |g: &Grid, x: i64, y: i64| {
                x >= 0
                    && y >= 0
                    && g.terrain(Point::new(x as u32, y as u32))
                        .is_ok_and(|t| t == kind)
            };
            let (dx, dy) = if horizontal { (1, 0) } else { (0, 1) };
            let (mut lo, mut hi) = (0i64, 0i64);
            let (px, py) = (i64::from(p.x), i64::from(p.y));
            while hi - lo < i64::from(MAX_WALL)
                && same(&self.grid, px + (hi + 1) * dx, py + (hi + 1) * dy)
            {
                hi += 1;
            }
            while hi - lo < i64::from(MAX_WALL)
                && same(&self.grid, px + (lo - 1) * dx, py + (lo - 1) * dy)
            {
                lo -= 1;
            }
            let len = (hi - lo + 1) as u32;
            // Blocked at both ends: a wall across the whole corridor.
            let closed_end = |k: i64| !self.grid.is_passable_i(px + k * dx, py + k * dy);
            if len > MAX_WALL || !closed_end(hi + 1) || !closed_end(lo - 1) {
                continue;
            }
            let r = if horizontal {
                Rect {
                    x: (px + lo) as u32,
                    y: p.y,
                    w: len,
                    h: 1,
                }
            } else {
                Rect {
                    x: p.x,
                    y: (py + lo) as u32,
                    w: 1,
                    h: len,
                }
            };
            if self.free(&r) {
                self.walls.push(Placed { rect: r, was: kind });
                self.edit(r, self.blocked);
                return true;
            }
        }
        false
    }

    /// A 16 × 16 building on open ground of one kind.
    fn building(&mut self) -> bool {
        let (w, h) = (self.grid.width(), self.grid.height());
        if w < BUILDING || h < BUILDING {
            return false;
        }
        for _ in 0..64 {
            let r = Rect {
                x: self.rng.below(u64::from(w - BUILDING + 1)) as u32,
                y: self.rng.below(u64::from(h - BUILDING + 1)) as u32,
                w: BUILDING,
                h: BUILDING,
            };
            if !self.free(&r) {
                continue;
            }
            if let Some(was) = self.uniform(&r) {
                self.buildings.push(Placed { rect: r, was });
                self.edit(r, self.blocked);
                return true;
            }
        }
        false
    }

    /// One map edit of a random kind.
    fn one_edit(&mut self) {
        loop {
            let kind = self.rng.below(3) as usize;
            let standing = [self.closed.len(), self.walls.len(), self.buildings.len()][kind];
            if standing > 0 && (standing >= MAX_STANDING || self.rng.chance(0.45)) {
                self.remove(kind);
                return;
            }
            let placed = match kind {
                0 => self.close_door(),
                1 => self.wall(),
                _ => self.building(),
            };
            if placed {
                return;
            }
            if standing > 0 {
                self.remove(kind);
                return;
            }
            // Nothing of this kind fits: fall back to a one-cell edit.
            if self.rng.chance(0.3) {
                if let Some(p) = self.passable() {
                    let r = Rect {
                        x: p.x,
                        y: p.y,
                        w: 1,
                        h: 1,
                    };
                    if let (true, Some(was)) = (self.free(&r), self.uniform(&r)) {
                        self.closed.push(Placed { rect: r, was });
                        self.edit(r, self.blocked);
                    }
                }
                return;
            }
        }
    }

    /// A group: up to 100 passable starts in a 20 × 20 area and a goal far
    /// from it (the farthest of 64 passable cells).
    fn group(&mut self) {
        let (w, h) = (self.grid.width(), self.grid.height());
        for _ in 0..32 {
            let Some(c) = self.endpoint() else { return };
            let x0 =
                c.x.saturating_sub(GROUP_AREA / 2)
                    .min(w.saturating_sub(GROUP_AREA));
            let y0 =
                c.y.saturating_sub(GROUP_AREA / 2)
                    .min(h.saturating_sub(GROUP_AREA));
            let mut cells: Vec<Point> = (y0..(y0 + GROUP_AREA).min(h))
                .flat_map(|y| (x0..(x0 + GROUP_AREA).min(w)).map(move |x| Point::new(x, y)))
                .filter(|&p| self.usable(p))
                .collect();
            if cells.len() < GROUP_UNITS / 4 {
                continue;
            }
            self.rng.shuffle(&mut cells);
            cells.truncate(GROUP_UNITS);
            let mut goal = None;
            let mut far = -1.0;
            for _ in 0..64 {
                if let Some(g) = self.endpoint() {
                    let d = regionpath::grid::octile(c, g);
                    if d > far {
                        far = d;
                        goal = Some(g);
                    }
                }
            }
            if let Some(goal) = goal {
                self.emit(&Command::Group {
                    goal,
                    starts: cells,
                });
            }
            return;
        }
    }
}

/// Door-like cells: passable, with blocked cells left and right or above
/// and below (off the map counts as blocked).
fn door_cells(grid: &Grid) -> Vec<Point> {
    let blocked = |x: i64, y: i64| !grid.is_passable_i(x, y);
    let mut doors = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let p = Point::new(x, y);
            let (xi, yi) = (i64::from(x), i64::from(y));
            if grid.is_passable(p)
                && ((blocked(xi - 1, yi) && blocked(xi + 1, yi))
                    || (blocked(xi, yi - 1) && blocked(xi, yi + 1)))
            {
                doors.push(p);
            }
        }
    }
    doors
}

/// A random game trace for `grid` with `edits` map edits, the same text
/// for the same map and seed.
///
/// Edits: door-like cells closed and opened again, thin walls across
/// corridors (at most 24 cells, blocked at both ends) put up and taken
/// down, 16 × 16 buildings on open ground placed and removed (at most 12
/// of each standing; a removal restores the terrain exactly). Between
/// edits: a full query half of the time, four units on lazy queries that
/// walk 4–40 cells after every edit (each restarted with a new goal every
/// 25 edits or so), and every 100 edits a group of up to 100 units from a
/// 20 × 20 area to a far goal. Endpoints are passable when their line runs
/// (the generator keeps a copy of the map in step); under `profile` they
/// are usable positions of it. O(cells) for the door
/// scan plus O(edits · (building area + group area)).
pub fn generate(grid: &Grid, edits: usize, seed: u64, profile: Option<&Profile>) -> String {
    // `@` where the map has it (a wall under every profile), else the
    // map's first blocked kind (no new kind for a full palette).
    let kinds = grid.terrain_kinds();
    let blocked = if kinds.contains(&Terrain::OUT_OF_BOUNDS) {
        Terrain::OUT_OF_BOUNDS
    } else {
        kinds
            .iter()
            .copied()
            .find(|t| !t.is_passable())
            .unwrap_or(Terrain::OUT_OF_BOUNDS)
    };
    let mut g = Gen {
        grid: grid.clone(),
        rng: SplitMix64::new(seed ^ 0x7472_6163_6521),
        doors: door_cells(grid),
        closed: Vec::new(),
        walls: Vec::new(),
        buildings: Vec::new(),
        blocked,
        profile: profile.cloned(),
        out: String::new(),
    };
    let _ = writeln!(
        g.out,
        "# regionpath trace: {}x{} map, {edits} edits, seed {seed}\n# {} door-like cells",
        grid.width(),
        grid.height(),
        g.doors.len()
    );
    if grid.passable_count() == 0 {
        return g.out;
    }
    let mut started = [false; UNITS as usize];
    for e in 0..edits {
        for id in 0..UNITS {
            if !started[id as usize] || g.rng.chance(0.04) {
                if let (Some(start), Some(goal)) = (g.endpoint(), g.endpoint()) {
                    g.emit(&Command::Lazy { id, start, goal });
                    started[id as usize] = true;
                }
            }
        }
        g.one_edit();
        for id in 0..UNITS {
            if started[id as usize] {
                let cells = g.rng.range(4, 40);
                g.emit(&Command::Walk { id, cells });
            }
        }
        if g.rng.chance(0.5) {
            if let (Some(start), Some(goal)) = (g.endpoint(), g.endpoint()) {
                g.emit(&Command::Query { start, goal });
            }
        }
        if e % GROUP_EVERY == GROUP_EVERY / 2 {
            g.group();
        }
    }
    g.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_print_back() {
        let text = "# a comment\n\nedit 1 2 3 4 @  # wall\nquery 0 0 5 5\nlazy 7 1 1 2 2\n\
                    walk 7 10\ngroup 9 9 1 1 2 2\n";
        let lines = parse(text).unwrap();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0].line, 3);
        assert_eq!(
            lines[0].command,
            Command::Edit {
                x: 1,
                y: 2,
                w: 3,
                h: 4,
                kind: Terrain::OUT_OF_BOUNDS
            }
        );
        let printed: String = lines.iter().map(|l| format!("{}\n", l.command)).collect();
        let again = parse(&printed).unwrap();
        let commands = |v: &[Line]| v.iter().map(|l| l.command.clone()).collect::<Vec<_>>();
        assert_eq!(commands(&lines), commands(&again));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = |t: &str| parse(t).unwrap_err();
        let err = e("query 1 2 3 4\n  edit 1 x 3 4 @\n");
        assert_eq!((err.line, err.column), (2, 10));
        assert!(matches!(err.kind, TraceErrorKind::BadNumber { .. }));
        let err = e("jump 1 2");
        assert_eq!((err.line, err.column), (1, 1));
        let err = e("walk 1");
        assert_eq!((err.line, err.column), (1, 7));
        let err = e("walk 1 2 3");
        assert_eq!((err.line, err.column), (1, 10));
        let err = e("walk 1 0");
        assert_eq!(err.kind, TraceErrorKind::Zero("the walk length"));
        let err = e("edit 1 1 1 1 ab");
        assert_eq!(
            (err.column, err.kind.clone()),
            (14, TraceErrorKind::BadTerrain("ab".into()))
        );
        let err = e("group 1 1 2 2 3");
        assert_eq!((err.column, err.kind), (15, TraceErrorKind::OddGroup));
        let err = e("group 1 1");
        assert!(matches!(err.kind, TraceErrorKind::Missing { .. }));
        let err = e("query 1 2 3 -4");
        assert_eq!(err.column, 13);
    }

    #[test]
    fn random_text_never_panics_and_errors_point_inside_the_line() {
        let words = [
            "edit",
            "query",
            "lazy",
            "walk",
            "group",
            "0",
            "1",
            "7",
            "-1",
            "99999999999",
            "@",
            ".",
            "é",
            "#",
            "\t",
            "x",
            "4294967295",
        ];
        let mut rng = SplitMix64::new(11);
        for _ in 0..3000 {
            let n = rng.below(9) as usize;
            let line: Vec<&str> = (0..n)
                .map(|_| words[rng.below(words.len() as u64) as usize])
                .collect();
            let text = line.join(if rng.chance(0.5) { " " } else { "  " });
            if let Err(e) = parse(&text) {
                assert_eq!(e.line, 1, "{text:?}");
                assert!(
                    e.column >= 1 && e.column <= text.chars().count() + 1,
                    "{text:?}: {e}"
                );
            }
        }
        // Columns count characters, not bytes.
        let err = parse("é query 1 2 3 4").unwrap_err();
        assert_eq!(err.column, 1);
        let err = parse("query é 2 3 4").unwrap_err();
        assert_eq!(err.column, 7);
        let err = parse("query 1 2 é 4").unwrap_err();
        assert_eq!(err.column, 11);
    }

    #[test]
    fn generated_traces_are_seeded_and_parse() {
        let rows: Vec<String> = (0..40)
            .map(|y| {
                (0..40)
                    .map(|x| if x == 20 && y != 10 { '@' } else { '.' })
                    .collect()
            })
            .collect();
        let grid = Grid::from_rows(&rows).unwrap();
        let a = generate(&grid, 200, 5, None);
        assert_eq!(a, generate(&grid, 200, 5, None));
        assert_ne!(a, generate(&grid, 200, 6, None));
        let lines = parse(&a).unwrap();
        let edits = lines
            .iter()
            .filter(|l| matches!(l.command, Command::Edit { .. }))
            .count();
        assert_eq!(edits, 200);
        assert!(lines
            .iter()
            .any(|l| matches!(&l.command, Command::Group { starts, .. } if !starts.is_empty())));
        // The door at (20, 10) is the one door-like cell between the halves.
        assert!(door_cells(&grid).contains(&Point::new(20, 10)));
    }
}
