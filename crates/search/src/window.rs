//! Search windows.

use regionpath_grid::{Grid, Point};

/// An axis-aligned rectangle of cells: columns `x .. x + width`, rows
/// `y .. y + height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// Leftmost column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width in cells.
    pub width: u32,
    /// Height in cells.
    pub height: u32,
}

impl Window {
    /// The default window side: legs of about 40 tiles plus a buffer.
    pub const DEFAULT_SIZE: u32 = 60;

    /// The whole grid.
    pub fn full(grid: &Grid) -> Window {
        Window {
            x: 0,
            y: 0,
            width: grid.width(),
            height: grid.height(),
        }
    }

    /// Whether `p` lies inside.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x && p.y >= self.y && p.x - self.x < self.width && p.y - self.y < self.height
    }

    /// Number of cells.
    #[inline]
    pub fn area(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// A `width × height` window (each clamped to the grid) placed so its
    /// centre is as near as possible to the midpoint of `a` and `b`, shifted
    /// to stay inside the grid. It contains both points whenever their
    /// spread fits in the size.
    pub fn around(grid: &Grid, a: Point, b: Point, width: u32, height: u32) -> Window {
        let w = width.clamp(1, grid.width());
        let h = height.clamp(1, grid.height());
        let place = |lo: u32, hi: u32, size: u32, limit: u32| -> u32 {
            // Centre on the midpoint, clamp so [start, start + size) is inside
            // [0, limit); when the spread is within size this keeps both.
            let mid = (lo as u64 + hi as u64) / 2;
            let start = mid.saturating_sub(size as u64 / 2);
            let start = start.min((limit - size) as u64) as u32;
            // Guarantee `lo` and `hi` inside when possible.
            if hi - lo < size {
                start.clamp(hi + 1 - size.min(hi + 1), lo)
            } else {
                start
            }
        };
        let (xl, xh) = (a.x.min(b.x), a.x.max(b.x));
        let (yl, yh) = (a.y.min(b.y), a.y.max(b.y));
        Window {
            x: place(xl, xh, w, grid.width()),
            y: place(yl, yh, h, grid.height()),
            width: w,
            height: h,
        }
    }

    /// Whether the window lies fully inside the grid and is non-empty.
    pub fn fits(&self, grid: &Grid) -> bool {
        self.width > 0
            && self.height > 0
            && self.x as u64 + self.width as u64 <= grid.width() as u64
            && self.y as u64 + self.height as u64 <= grid.height() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn around_contains_both_and_fits() {
        let g = Grid::new(200, 100, true).unwrap();
        for (a, b) in [
            (Point::new(0, 0), Point::new(30, 40)),
            (Point::new(199, 99), Point::new(150, 60)),
            (Point::new(100, 50), Point::new(100, 50)),
            (Point::new(10, 90), Point::new(69, 31)),
        ] {
            let w = Window::around(&g, a, b, 60, 60);
            assert!(w.fits(&g), "{w:?}");
            assert!(w.contains(a) && w.contains(b), "{w:?} {a} {b}");
            assert_eq!((w.width, w.height), (60, 60));
        }
        let small = Grid::new(20, 10, true).unwrap();
        let w = Window::around(&small, Point::new(0, 0), Point::new(19, 9), 60, 60);
        assert_eq!(w, Window::full(&small));
    }
}
