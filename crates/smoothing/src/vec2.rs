//! The output position type.

use regionpath_grid::Point;

/// A position (or a displacement) in grid space, measured in cells.
///
/// The frame is the grid's: `x` grows to the right, `y` grows downward, and
/// cell `(x, y)` covers the closed square `[x, x + 1] × [y, y + 1]`, so its
/// centre is `(x + 0.5, y + 0.5)` (see [`Vec2::cell_center`]). Every cell
/// centre of a grid up to 65 535 cells wide is exactly representable.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Vec2 {
    /// Horizontal coordinate (cells, to the right).
    pub x: f32,
    /// Vertical coordinate (cells, downward).
    pub y: f32,
}

impl Vec2 {
    /// The vector `(x, y)`.
    #[inline]
    pub const fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }

    /// The centre of cell `p`: `(p.x + 0.5, p.y + 0.5)`.
    #[inline]
    pub fn cell_center(p: Point) -> Vec2 {
        Vec2::new(p.x as f32 + 0.5, p.y as f32 + 0.5)
    }

    /// Euclidean length.
    #[inline]
    pub fn length(self) -> f32 {
        let (x, y) = (self.x as f64, self.y as f64);
        (x * x + y * y).sqrt() as f32
    }

    /// Euclidean distance to `other`.
    #[inline]
    pub fn distance(self, other: Vec2) -> f32 {
        (other - self).length()
    }

    /// Whether both coordinates are finite.
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

impl std::ops::Add for Vec2 {
    type Output = Vec2;
    #[inline]
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl std::ops::Sub for Vec2 {
    type Output = Vec2;
    #[inline]
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl std::ops::Mul<f32> for Vec2 {
    type Output = Vec2;
    #[inline]
    fn mul(self, k: f32) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl std::fmt::Display for Vec2 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}
