//! The jump point searches' view of passability: one bit per cell, in
//! row-major and column-major planes.

use regionpath_grid::{transpose64, Grid};

/// Passability one bit per cell in both orientations, each line padded by a
/// blocked cell at both ends and starting on a word boundary. Padded
/// coordinates: `px = x + 1`, `py = y + 1`.
#[derive(Clone, Debug, Default)]
pub(super) struct Planes {
    pub(super) width: u32,
    pub(super) height: u32,
    /// Words per padded row.
    pub(super) row_words: usize,
    /// Words per padded column.
    pub(super) col_words: usize,
    /// `(height + 2) * row_words` words: bit `px` of row `py`.
    pub(super) rows: Vec<u64>,
    /// `(width + 2) * col_words` words: bit `py` of column `px`.
    pub(super) cols: Vec<u64>,
}

impl Planes {
    /// Empty planes for a `width × height` area (every cell blocked).
    /// Copies the passability of `grid`.
    pub(super) fn from_grid(grid: &Grid) -> Planes {
        let mut p = Planes::default();
        p.fill_area(grid, 0, 0, grid.width(), grid.height());
        p
    }

    /// Rebuilds the planes for a `width × height` area, reusing the
    /// buffers: `row_chunk(y, x, len)` gives the passability of cells
    /// `x..x + len` (at most 64) of row `y` as bits (bit `i` is cell
    /// `x + i`).
    pub(super) fn fill(
        &mut self,
        width: u32,
        height: u32,
        mut row_chunk: impl FnMut(u32, u32, u32) -> u64,
    ) {
        self.reset(width, height);
        for y in 0..height {
            let base = (y as usize + 1) * self.row_words;
            let mut x = 0;
            while x < width {
                let len = (width - x).min(64);
                let bits = row_chunk(y, x, len);
                if bits != 0 {
                    let px = x as usize + 1;
                    let (w, o) = (base + (px >> 6), px & 63);
                    self.rows[w] |= bits << o;
                    if o != 0 {
                        let hi = bits >> (64 - o);
                        if hi != 0 {
                            self.rows[w + 1] |= hi;
                        }
                    }
                }
                x += 64;
            }
        }
        self.transpose();
    }

    /// [`Planes::fill`] for an area of `grid` with its top-left cell at
    /// `(x0, y0)` (the area must lie inside the grid): each line of either
    /// plane is read straight from the grid's row-major or column-major
    /// copy ([`Grid::area_rows_padded`], [`Grid::area_columns_padded`]), a
    /// word at a time, with no per-chunk bounds logic and no transpose.
    /// O(height × width / 64) words; no allocation once the buffers have
    /// grown to the area. Window loads are a large share of a short leg
    /// search, which is why this path avoids the transpose.
    pub(super) fn fill_area(&mut self, grid: &Grid, x0: u32, y0: u32, width: u32, height: u32) {
        self.reset(width, height);
        let (w, h) = (width as usize, height as usize);
        let (rw, cw) = (self.row_words, self.col_words);
        // `reset` left the padding lines (first and last) blocked.
        grid.area_rows_padded(x0, y0, width, rw, &mut self.rows[rw..(h + 1) * rw]);
        grid.area_columns_padded(x0, y0, height, cw, &mut self.cols[cw..(w + 1) * cw]);
    }

    /// Resizes to a `width × height` area with every cell blocked, reusing
    /// the buffers.
    pub(super) fn reset(&mut self, width: u32, height: u32) {
        self.width = width;
        self.height = height;
        self.row_words = (width as usize + 2).div_ceil(64);
        self.col_words = (height as usize + 2).div_ceil(64);
        self.rows.clear();
        self.rows.resize((height as usize + 2) * self.row_words, 0);
        self.cols.clear();
        self.cols.resize((width as usize + 2) * self.col_words, 0);
    }

    /// Derives the column plane from the row plane, 64×64 bits at a time.
    pub(super) fn transpose(&mut self) {
        let (pw, ph) = (self.width as usize + 2, self.height as usize + 2);
        let mut block = [0u64; 64];
        for by in 0..self.col_words {
            for bx in 0..self.row_words {
                let mut any = 0;
                for (r, b) in block.iter_mut().enumerate() {
                    let py = by * 64 + r;
                    *b = if py < ph {
                        self.rows[py * self.row_words + bx]
                    } else {
                        0
                    };
                    any |= *b;
                }
                if any == 0 {
                    continue;
                }
                transpose64(&mut block);
                for (c, &b) in block.iter().enumerate() {
                    let px = bx * 64 + c;
                    if px < pw {
                        self.cols[px * self.col_words + by] = b;
                    }
                }
            }
        }
    }

    /// Marks `(x, y)` passable.
    #[inline]
    pub(super) fn set(&mut self, x: u32, y: u32) {
        let (px, py) = (x as usize + 1, y as usize + 1);
        self.rows[py * self.row_words + (px >> 6)] |= 1 << (px & 63);
        self.cols[px * self.col_words + (py >> 6)] |= 1 << (py & 63);
    }

    /// Passability at padded coordinates (the border reads as blocked).
    #[inline]
    pub(super) fn open(&self, px: usize, py: usize) -> bool {
        (self.rows[py * self.row_words + (px >> 6)] >> (px & 63)) & 1 != 0
    }

    pub(super) fn bytes(&self) -> usize {
        (self.rows.capacity() + self.cols.capacity()) * 8
    }
}

/// Bits `start..start + len` (`len` ≤ 64) of a bitset, as the low bits.
#[inline]
pub(super) fn get_bits(bits: &[u64], start: usize, len: u32) -> u64 {
    let (w, o) = (start >> 6, start & 63);
    let mut v = bits.get(w).copied().unwrap_or(0) >> o;
    if o != 0 {
        v |= bits.get(w + 1).copied().unwrap_or(0) << (64 - o);
    }
    if len >= 64 {
        v
    } else {
        v & ((1u64 << len) - 1)
    }
}
