//! Test support for the regionpath workspace, written independently of the
//! library's searches (only `Grid`'s size, passability and terrain kinds and
//! a `Profile`'s costs and size are read).
//!
//! * [`rng`]: seeded generators (SplitMix64, xorshift64*, xorshift64) with
//!   the draws the tests were written against.
//! * [`maps`]: random obstacle maps, one-cell mazes, rooms, spirals and
//!   caves.
//! * [`oracle`]: an exact Dijkstra (8- or 4-connected, no corner cutting,
//!   straight 1, diagonal √2), distances or a path.
//! * [`check`]: cell-path validators (contiguous, passable, no corner cuts,
//!   right ends) that recompute the length.
//! * [`clearance`]: exact segment/point-to-cell distances, to check
//!   any-angle polylines against blocked cells.
//! * [`profiled`]: an exact Dijkstra and a path validator under a movement
//!   profile (terrain costs, unit size), from the rules alone.
//! * [`alloc`]: a counting global allocator (process-wide and per thread).
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod alloc;
pub mod check;
pub mod clearance;
pub mod maps;
pub mod oracle;
pub mod profiled;
pub mod rng;
pub mod tidy;

pub use check::{check_path, check_route, check_walk, Walk};
pub use oracle::{distance, distances, path};
pub use rng::{Rng64, SplitMix64, XorShift64, XorShift64Star};

use regionpath_grid::{Grid, Point};

/// Every passable cell of `grid`, row by row (top row first, left to right).
pub fn passable_cells(grid: &Grid) -> Vec<Point> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
        .filter(|&p| grid.is_passable(p))
        .collect()
}

/// Whether `(x, y)` is inside `grid` and passable; any coordinate is
/// accepted (outside the map is "not open").
pub fn open(grid: &Grid, x: i64, y: i64) -> bool {
    x >= 0
        && y >= 0
        && x < i64::from(grid.width())
        && y < i64::from(grid.height())
        && grid.is_passable(Point::new(x as u32, y as u32))
}

/// Whether the move from `(x, y)` by `(dx, dy)` (each in −1..=1) is legal
/// under the Moving AI rules: the target is open and, for a diagonal, both
/// orthogonally adjacent cells are open too (no corner cutting). The source
/// cell is not looked at.
pub fn legal(grid: &Grid, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    open(grid, x + dx, y + dy)
        && (dx == 0 || dy == 0 || (open(grid, x + dx, y) && open(grid, x, y + dy)))
}

/// Which moves a path or a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Up, down, left, right; cost 1.
    Four,
    /// Also the diagonals, cost √2, only when both orthogonally adjacent
    /// cells are passable (no corner cutting).
    Eight,
}

/// A rectangle of cells a search or path must stay in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// Leftmost column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Area {
    /// The whole grid.
    pub fn whole(grid: &Grid) -> Area {
        Area {
            x: 0,
            y: 0,
            width: grid.width(),
            height: grid.height(),
        }
    }

    /// Whether `(x, y)` lies inside.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= i64::from(self.x)
            && y >= i64::from(self.y)
            && x < i64::from(self.x) + i64::from(self.width)
            && y < i64::from(self.y) + i64::from(self.height)
    }
}

/// The rules a search or a path check follows: which moves, inside which
/// area (the whole grid when `None`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    pub(crate) moves: Moves,
    pub(crate) area: Option<Area>,
}

impl Rules {
    /// 8-connected over the whole grid.
    pub(crate) const EIGHT: Rules = Rules {
        moves: Moves::Eight,
        area: None,
    };

    /// Whether `(x, y)` is in the area and open.
    pub(crate) fn open(&self, grid: &Grid, x: i64, y: i64) -> bool {
        self.area.is_none_or(|a| a.contains(x, y)) && open(grid, x, y)
    }

    /// The cost of the step from `(x, y)` by `(dx, dy)`, or why it is not a
    /// legal move (the source cell is not looked at).
    pub(crate) fn step(
        &self,
        grid: &Grid,
        x: i64,
        y: i64,
        dx: i64,
        dy: i64,
    ) -> Result<f64, StepError> {
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Err(StepError::NotAdjacent);
        }
        if !self.open(grid, x + dx, y + dy) {
            return Err(StepError::Blocked);
        }
        if dx != 0 && dy != 0 {
            if self.moves == Moves::Four {
                return Err(StepError::Diagonal);
            }
            if !self.open(grid, x + dx, y) || !self.open(grid, x, y + dy) {
                return Err(StepError::CornerCut);
            }
            return Ok(std::f64::consts::SQRT_2);
        }
        Ok(1.0)
    }
}

/// Why a step between two cells is not a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The cells are equal or not 8-neighbours.
    NotAdjacent,
    /// The target is blocked, off the map or outside the area.
    Blocked,
    /// A diagonal where only four moves are allowed.
    Diagonal,
    /// A diagonal past a blocked (or outside) orthogonal neighbour.
    CornerCut,
}

/// The cost of the single move from `a` to `b` under the Moving AI rules
/// (8-connected, no corner cutting, whole grid): `Ok(1.0)` straight,
/// `Ok(√2)` diagonal, else why it is illegal. Only `b` and the two cells
/// beside a diagonal are looked at, not `a`.
pub fn step_cost(grid: &Grid, a: Point, b: Point) -> Result<f64, StepError> {
    let (x, y) = (i64::from(a.x), i64::from(a.y));
    Rules::EIGHT.step(grid, x, y, i64::from(b.x) - x, i64::from(b.y) - y)
}

/// `Point::new(x, y)`, shorter for the unit tests.
#[cfg(test)]
pub(crate) fn p(x: u32, y: u32) -> Point {
    Point::new(x, y)
}

/// CRC-32 (IEEE, reflected), written here independently of the library, so
/// tests can fix up the checksum of a `.rph` file they damaged.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
