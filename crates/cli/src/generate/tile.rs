//! Mirror tiling: a big map from copies of a small one, every other copy
//! mirrored so that the copies meet along matching borders.

use super::maps::put_bits;
use crate::error::CliError;
use indicatif::ProgressBar;
use regionpath::grid::{Grid, Point};
use std::io::Write;

/// `nx × ny` copies of a source map cut by `strip` cells on every side:
/// copy `(i, j)` is the cut source mirrored left–right when `i` is odd and
/// top–bottom when `j` is odd. Nothing of the output is held: its rows are
/// made one at a time from the source.
pub struct Tiling {
    src: Grid,
    strip: u32,
    nx: u32,
    ny: u32,
    /// Size of one copy (the cut source).
    tw: u32,
    th: u32,
}

impl Tiling {
    /// A tiling of `src`; errors when the strip leaves nothing or the
    /// output is outside `1..=max_side` per side or above `max_cells`.
    pub fn new(
        src: Grid,
        strip: u32,
        (nx, ny): (u32, u32),
        max_side: u32,
        max_cells: u64,
    ) -> Result<Tiling, CliError> {
        let (w, h) = (src.width(), src.height());
        if u64::from(strip) * 2 >= u64::from(w.min(h)) {
            return Err(CliError::Usage(format!(
                "--strip-border {strip} leaves nothing of the {w}x{h} source"
            )));
        }
        let (tw, th) = (w - 2 * strip, h - 2 * strip);
        let (ow, oh) = (u64::from(tw) * u64::from(nx), u64::from(th) * u64::from(ny));
        if ow > u64::from(max_side) || oh > u64::from(max_side) || ow * oh > max_cells {
            return Err(CliError::Usage(format!(
                "tiling {tw}x{th} by {nx}x{ny} makes {ow}x{oh}: at most {max_side} per side \
                 and {max_cells} cells"
            )));
        }
        Ok(Tiling {
            src,
            strip,
            nx,
            ny,
            tw,
            th,
        })
    }

    /// Output width.
    pub fn width(&self) -> u32 {
        self.tw * self.nx
    }

    /// Output height.
    pub fn height(&self) -> u32 {
        self.th * self.ny
    }

    /// The source row of output row `y`.
    fn source_row(&self, y: u32) -> u32 {
        let (j, t) = (y / self.th, y % self.th);
        self.strip + if j % 2 == 1 { self.th - 1 - t } else { t }
    }

    /// Writes the output's rows (terrain characters as in the source, LF
    /// ends) to `out`; returns the passable cells and the kinds in order of
    /// first appearance. O(width) memory; `bar` counts rows.
    pub fn write_rows(
        &self,
        out: &mut impl Write,
        bar: &ProgressBar,
    ) -> std::io::Result<(u64, Vec<char>)> {
        let tw = self.tw as usize;
        let mut copy = vec![0u8; tw];
        let mut line = Vec::with_capacity(self.width() as usize + 1);
        let mut seen = [false; 128];
        let mut kinds = Vec::new();
        let mut passable = 0u64;
        for y in 0..self.height() {
            let sy = self.source_row(y);
            let mut open = 0u64;
            for (x, c) in copy.iter_mut().enumerate() {
                let t = self
                    .src
                    .terrain(Point::new(self.strip + x as u32, sy))
                    .map_err(std::io::Error::other)?;
                *c = t.to_char() as u8;
                open += u64::from(t.is_passable());
                if !seen[*c as usize] {
                    seen[*c as usize] = true;
                    kinds.push(t.to_char());
                }
            }
            passable += open * u64::from(self.nx);
            line.clear();
            for i in 0..self.nx {
                if i % 2 == 0 {
                    line.extend_from_slice(&copy);
                } else {
                    line.extend(copy.iter().rev());
                }
            }
            line.push(b'\n');
            out.write_all(&line)?;
            bar.inc(1);
        }
        Ok((passable, kinds))
    }

    /// The output's passability as a grid, row by row from the source:
    /// O(output cells / 64 + height × copy width).
    pub fn to_grid(&self) -> Result<Grid, CliError> {
        let tw = self.tw as usize;
        let words = tw.div_ceil(64);
        let (mut fwd, mut rev) = (vec![0u64; words], vec![0u64; words]);
        let mut made = u32::MAX;
        Grid::from_row_bits(self.width(), self.height(), |y, out| {
            let sy = self.source_row(y);
            if sy != made {
                rev.iter_mut().for_each(|w| *w = 0);
                for (k, f) in fwd.iter_mut().enumerate() {
                    let x = k as u32 * 64;
                    *f = self.src.row_bits(self.strip + x, sy, 64.min(self.tw - x));
                }
                for x in 0..tw {
                    if fwd[x / 64] >> (x % 64) & 1 == 1 {
                        let r = tw - 1 - x;
                        rev[r / 64] |= 1 << (r % 64);
                    }
                }
                made = sy;
            }
            for i in 0..self.nx as usize {
                let src = if i % 2 == 0 { &fwd } else { &rev };
                put_bits(out, i * tw, src, tw);
            }
        })
        .map_err(|e| CliError::Usage(e.to_string()))
    }
}
