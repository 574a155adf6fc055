//! Sector geometry and region labelling.
//!
//! Inside a sector, 8-connectivity without corner cutting joins exactly the
//! cells that 4-connectivity joins (a legal diagonal step needs both
//! orthogonal cells passable, and those lie in the same sector), so regions
//! are the 4-connected components of a sector's passable cells.

use regionpath_grid::{Grid, Point};

/// A rectangle of cells, inclusive of `x0, y0`, exclusive of `x1, y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Rect {
    #[inline]
    pub fn width(&self) -> u32 {
        self.x1 - self.x0
    }
    #[inline]
    pub fn height(&self) -> u32 {
        self.y1 - self.y0
    }
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x0 && p.x < self.x1 && p.y >= self.y0 && p.y < self.y1
    }
    #[inline]
    pub fn local(&self, p: Point) -> usize {
        (p.y - self.y0) as usize * self.width() as usize + (p.x - self.x0) as usize
    }
    pub fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
}

/// How the grid is cut into sectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub width: u32,
    pub height: u32,
    pub size: u32,
    pub sectors_x: u32,
    pub sectors_y: u32,
}

impl Layout {
    pub fn new(width: u32, height: u32, size: u32) -> Layout {
        Layout {
            width,
            height,
            size,
            sectors_x: width.div_ceil(size),
            sectors_y: height.div_ceil(size),
        }
    }

    #[inline]
    pub fn count(&self) -> usize {
        self.sectors_x as usize * self.sectors_y as usize
    }

    #[inline]
    pub fn sector_of(&self, p: Point) -> u32 {
        (p.y / self.size) * self.sectors_x + p.x / self.size
    }

    #[inline]
    pub fn coords(&self, s: u32) -> (u32, u32) {
        (s % self.sectors_x, s / self.sectors_x)
    }

    #[inline]
    pub fn rect(&self, s: u32) -> Rect {
        let (sx, sy) = self.coords(s);
        let x0 = sx * self.size;
        let y0 = sy * self.size;
        Rect {
            x0,
            y0,
            x1: (x0 + self.size).min(self.width),
            y1: (y0 + self.size).min(self.height),
        }
    }
}

/// Reusable buffers for labelling one sector.
#[derive(Default)]
pub(crate) struct Labeler {
    pub labels: Vec<u16>,
    stack: Vec<u32>,
}

impl Labeler {
    /// Labels the passable cells of `rect` with their region number (1-based,
    /// in row-major order of each region's first cell; 0 = blocked) and
    /// returns the number of regions.
    pub fn label(&mut self, grid: &Grid, rect: Rect) -> u16 {
        let w = rect.width() as usize;
        let h = rect.height() as usize;
        self.labels.clear();
        self.labels.resize(w * h, 0);
        // Mark passable cells with u16::MAX (unlabelled).
        let stride = grid.stride();
        for y in 0..h {
            let base = grid.padded_index(Point::new(rect.x0, rect.y0 + y as u32));
            let row = &mut self.labels[y * w..(y + 1) * w];
            for (x, l) in row.iter_mut().enumerate() {
                if grid.passable_padded(base + x) {
                    *l = u16::MAX;
                }
            }
        }
        let _ = stride;
        let mut next: u16 = 0;
        for i in 0..w * h {
            if self.labels[i] != u16::MAX {
                continue;
            }
            next += 1;
            self.labels[i] = next;
            self.stack.clear();
            self.stack.push(i as u32);
            while let Some(c) = self.stack.pop() {
                let c = c as usize;
                let (x, y) = (c % w, c / w);
                if x > 0 && self.labels[c - 1] == u16::MAX {
                    self.labels[c - 1] = next;
                    self.stack.push((c - 1) as u32);
                }
                if x + 1 < w && self.labels[c + 1] == u16::MAX {
                    self.labels[c + 1] = next;
                    self.stack.push((c + 1) as u32);
                }
                if y > 0 && self.labels[c - w] == u16::MAX {
                    self.labels[c - w] = next;
                    self.stack.push((c - w) as u32);
                }
                if y + 1 < h && self.labels[c + w] == u16::MAX {
                    self.labels[c + w] = next;
                    self.stack.push((c + w) as u32);
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_components_in_scan_order() {
        let g = Grid::from_rows(&["..@.", "@@@.", ".@..", ".@@."]).unwrap();
        let mut l = Labeler::default();
        let n = l.label(
            &g,
            Rect {
                x0: 0,
                y0: 0,
                x1: 4,
                y1: 4,
            },
        );
        assert_eq!(n, 3);
        assert_eq!(
            l.labels,
            vec![1, 1, 0, 2, 0, 0, 0, 2, 3, 0, 2, 2, 3, 0, 0, 2]
        );
    }

    #[test]
    fn layout_edges() {
        let l = Layout::new(35, 20, 16);
        assert_eq!((l.sectors_x, l.sectors_y), (3, 2));
        let r = l.rect(5);
        assert_eq!((r.x0, r.y0, r.x1, r.y1), (32, 16, 35, 20));
        assert_eq!(l.sector_of(Point::new(34, 19)), 5);
    }
}
