//! Coordinates, directions and distances.

/// √2, the cost of a diagonal step.
pub const SQRT2: f64 = std::f64::consts::SQRT_2;

/// A cell position: `x` grows to the right, `y` grows downward, `(0, 0)` is
/// the top-left cell (the Moving AI convention).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

impl Point {
    /// A point at column `x`, row `y`.
    #[inline]
    pub const fn new(x: u32, y: u32) -> Self {
        Point { x, y }
    }

    /// The neighbour one step in `dir`, or `None` if that would leave the
    /// non-negative quadrant (the grid's own bounds are not checked).
    #[inline]
    pub fn step(self, dir: Dir) -> Option<Point> {
        let (dx, dy) = dir.delta();
        let x = self.x.checked_add_signed(dx)?;
        let y = self.y.checked_add_signed(dy)?;
        Some(Point { x, y })
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// Octile distance: the cost of the shortest 8-connected path between two
/// cells on an empty grid, `max + (√2 − 1)·min` of the axis differences.
#[inline]
pub fn octile(a: Point, b: Point) -> f64 {
    let dx = a.x.abs_diff(b.x) as f64;
    let dy = a.y.abs_diff(b.y) as f64;
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    hi + (SQRT2 - 1.0) * lo
}

/// Which moves a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Connectivity {
    /// The four straight moves only (cost 1 each).
    Four,
    /// Straight moves (cost 1) and diagonal moves (cost √2) without corner
    /// cutting.
    #[default]
    Eight,
}

impl Connectivity {
    /// The directions this connectivity allows, straight moves first.
    #[inline]
    pub fn dirs(self) -> &'static [Dir] {
        match self {
            Connectivity::Four => &Dir::ALL[..4],
            Connectivity::Eight => &Dir::ALL,
        }
    }

    /// The admissible and consistent distance estimate for this connectivity
    /// on an empty grid: Manhattan for four, octile for eight.
    #[inline]
    pub fn distance(self, a: Point, b: Point) -> f64 {
        match self {
            Connectivity::Four => (a.x.abs_diff(b.x) + a.y.abs_diff(b.y)) as f64,
            Connectivity::Eight => octile(a, b),
        }
    }
}

/// One of the eight moves. The first four are straight, the last four
/// diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// Up (y − 1).
    North = 0,
    /// Right (x + 1).
    East = 1,
    /// Down (y + 1).
    South = 2,
    /// Left (x − 1).
    West = 3,
    /// Up and right.
    NorthEast = 4,
    /// Down and right.
    SouthEast = 5,
    /// Down and left.
    SouthWest = 6,
    /// Up and left.
    NorthWest = 7,
}

impl Dir {
    /// All eight directions, straight ones first.
    pub const ALL: [Dir; 8] = [
        Dir::North,
        Dir::East,
        Dir::South,
        Dir::West,
        Dir::NorthEast,
        Dir::SouthEast,
        Dir::SouthWest,
        Dir::NorthWest,
    ];

    /// `(dx, dy)` of this move.
    #[inline]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, -1),
            Dir::East => (1, 0),
            Dir::South => (0, 1),
            Dir::West => (-1, 0),
            Dir::NorthEast => (1, -1),
            Dir::SouthEast => (1, 1),
            Dir::SouthWest => (-1, 1),
            Dir::NorthWest => (-1, -1),
        }
    }

    /// The direction with the given `(dx, dy)`, each in −1..=1, not both 0.
    #[inline]
    pub fn from_delta(dx: i32, dy: i32) -> Option<Dir> {
        Some(match (dx, dy) {
            (0, -1) => Dir::North,
            (1, 0) => Dir::East,
            (0, 1) => Dir::South,
            (-1, 0) => Dir::West,
            (1, -1) => Dir::NorthEast,
            (1, 1) => Dir::SouthEast,
            (-1, 1) => Dir::SouthWest,
            (-1, -1) => Dir::NorthWest,
            _ => return None,
        })
    }

    /// Whether this is a diagonal move.
    #[inline]
    pub const fn is_diagonal(self) -> bool {
        (self as u8) >= 4
    }

    /// The cost of this move: 1 or √2.
    #[inline]
    pub const fn cost(self) -> f64 {
        if self.is_diagonal() {
            SQRT2
        } else {
            1.0
        }
    }

    /// The opposite direction.
    #[inline]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
            Dir::NorthEast => Dir::SouthWest,
            Dir::SouthEast => Dir::NorthWest,
            Dir::SouthWest => Dir::NorthEast,
            Dir::NorthWest => Dir::SouthEast,
        }
    }

    /// The direction with index `i` (0..8) in [`Dir::ALL`].
    #[inline]
    pub fn from_index(i: u8) -> Option<Dir> {
        Dir::ALL.get(i as usize).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octile_matches_hand_values() {
        assert_eq!(octile(Point::new(0, 0), Point::new(3, 0)), 3.0);
        let d = octile(Point::new(0, 0), Point::new(3, 1));
        assert!((d - (2.0 + SQRT2)).abs() < 1e-12);
        let d = octile(Point::new(5, 5), Point::new(1, 1));
        assert!((d - 4.0 * SQRT2).abs() < 1e-12);
    }

    #[test]
    fn dirs_round_trip() {
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            assert_eq!(Dir::from_delta(dx, dy), Some(d));
            assert_eq!(d.reverse().reverse(), d);
            let (rx, ry) = d.reverse().delta();
            assert_eq!((rx, ry), (-dx, -dy));
            assert_eq!(Dir::from_index(d as u8), Some(d));
        }
        assert_eq!(Dir::from_delta(0, 0), None);
        assert_eq!(Point::new(0, 0).step(Dir::West), None);
        assert_eq!(
            Point::new(0, 0).step(Dir::SouthEast),
            Some(Point::new(1, 1))
        );
    }
}
