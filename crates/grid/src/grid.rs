//! The bit-packed grid.

use crate::bits::low_bits;
use crate::coords::{Connectivity, Dir, Point};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use thiserror::Error;

/// A stamp that names one state of a grid's passability: taken fresh from a
/// process-wide counter when a grid is made, cloned or edited, so two equal
/// stamps mean the same passability. Ignored by `==` (grids compare by
/// content).
#[derive(Debug, Eq)]
struct Revision(u64);

/// The next unused revision (0 is never handed out).
static NEXT_REVISION: AtomicU64 = AtomicU64::new(1);

impl Revision {
    fn fresh() -> Revision {
        Revision(NEXT_REVISION.fetch_add(1, Ordering::Relaxed))
    }
}

impl Clone for Revision {
    fn clone(&self) -> Revision {
        // A clone may be edited on its own: it gets its own stamp.
        Revision::fresh()
    }
}

impl PartialEq for Revision {
    fn eq(&self, _: &Revision) -> bool {
        true
    }
}

/// The edit journal: the cell of every edit since revision `from`, with
/// the revision each edit made, oldest first, bounded by [`JOURNAL_CAP`]
/// (the older half is dropped when full). A clone starts an empty journal
/// (its revision is new).
#[derive(Debug, Default)]
struct Journal {
    /// The revision before the first edit held (0: none held yet).
    from: u64,
    /// The revision after each edit.
    revs: Vec<u64>,
    cells: Vec<Point>,
}

/// The most edits a grid's journal holds (16 bytes each).
pub const JOURNAL_CAP: usize = 1 << 16;

impl Clone for Journal {
    fn clone(&self) -> Journal {
        Journal::default()
    }
}

impl Journal {
    fn record(&mut self, before: u64, after: u64, p: Point) {
        if self.revs.is_empty() {
            self.from = before;
        }
        if self.revs.len() == JOURNAL_CAP {
            let half = JOURNAL_CAP / 2;
            self.from = self.revs[half - 1];
            self.revs.drain(..half);
            self.cells.drain(..half);
        }
        self.revs.push(after);
        self.cells.push(p);
    }

    /// The cells edited after revision `r` (see [`Grid::edits_since`]).
    fn since(&self, r: u64, now: u64) -> Option<&[Point]> {
        if r == now {
            return Some(&[]);
        }
        if self.revs.is_empty() {
            return None;
        }
        if r == self.from {
            return Some(&self.cells);
        }
        let i = self.revs.binary_search(&r).ok()?;
        Some(&self.cells[i + 1..])
    }
}

/// The largest width or height a [`Grid`] accepts.
pub const MAX_DIMENSION: u32 = 65_535;

/// The most terrain kinds one [`Grid`] holds: a cell's kind is a 4-bit
/// code into the grid's palette.
pub const MAX_TERRAIN_KINDS: usize = 16;

/// The kind of a cell: its map character, one of the printable ASCII
/// characters `'!'..='~'`.
///
/// The Moving AI kinds have names (`.` [`Terrain::GROUND`], `G`, `S`, `@`,
/// `O`, `T`, `W`); a map may use any other printable character too (at most
/// [`MAX_TERRAIN_KINDS`] per map). Whether a kind is passable depends on
/// the movement profile; [`Terrain::is_passable`] is the benchmark's rule
/// (the default profile), which the grid's passability bits follow. One
/// byte, `Copy`; comparing two kinds compares their characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Terrain(u8);

impl Terrain {
    /// `.`: ground, passable.
    pub const GROUND: Terrain = Terrain(b'.');
    /// `G`: ground (the other spelling), passable.
    pub const GROUND_G: Terrain = Terrain(b'G');
    /// `S`: swamp, passable under the benchmark's rules.
    pub const SWAMP: Terrain = Terrain(b'S');
    /// `@`: out of bounds, blocked.
    pub const OUT_OF_BOUNDS: Terrain = Terrain(b'@');
    /// `O`: out of bounds (the other spelling), blocked.
    pub const OUT_OF_BOUNDS_O: Terrain = Terrain(b'O');
    /// `T`: trees, blocked under the benchmark's rules.
    pub const TREES: Terrain = Terrain(b'T');
    /// `W`: water, blocked under the benchmark's rules.
    pub const WATER: Terrain = Terrain(b'W');

    /// The map character for this kind.
    #[inline]
    pub const fn to_char(self) -> char {
        self.0 as char
    }

    /// The kind for a map character, if it is printable ASCII
    /// (`'!'..='~'`; not the blank, which separates words in map headers).
    #[inline]
    pub const fn from_char(c: char) -> Option<Terrain> {
        if c >= '!' && c <= '~' {
            Some(Terrain(c as u8))
        } else {
            None
        }
    }

    /// Whether the benchmark's rules (and the default movement profile)
    /// let a unit stand on this kind: `.`, `G` and `S`.
    #[inline]
    pub const fn is_passable(self) -> bool {
        matches!(self.0, b'.' | b'G' | b'S')
    }

    /// Whether this is one of the seven Moving AI kinds `. G S @ O T W`.
    #[inline]
    pub const fn is_moving_ai(self) -> bool {
        matches!(self.0, b'.' | b'G' | b'S' | b'@' | b'O' | b'T' | b'W')
    }
}

impl std::fmt::Display for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// The kinds a grid's cells may have, each named by its 4-bit code (its
/// index). Holds every kind some cell has, and possibly kinds no cell has
/// any more (edits do not shrink it; [`Grid::set_terrain`] compacts it
/// only when a new kind finds no free code).
#[derive(Clone, Copy, Debug)]
struct Palette {
    kinds: [Terrain; MAX_TERRAIN_KINDS],
    len: u8,
}

impl Palette {
    fn of(kinds: &[Terrain]) -> Palette {
        let mut p = Palette {
            kinds: [Terrain::GROUND; MAX_TERRAIN_KINDS],
            len: 0,
        };
        for &t in kinds {
            if p.code(t).is_none() {
                p.kinds[p.len as usize] = t;
                p.len += 1;
            }
        }
        p
    }

    fn as_slice(&self) -> &[Terrain] {
        &self.kinds[..self.len as usize]
    }

    fn code(&self, t: Terrain) -> Option<u8> {
        self.as_slice()
            .iter()
            .position(|&k| k == t)
            .map(|i| i as u8)
    }
}

/// Errors from building or editing a [`Grid`].
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GridError {
    /// A width or height of zero.
    #[error("grid dimensions must be positive, got {width}x{height}")]
    ZeroDimension {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A width or height above [`MAX_DIMENSION`].
    #[error("grid dimensions {width}x{height} exceed the maximum of {max} per side")]
    TooLarge {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
        /// The limit.
        max: u32,
    },
    /// A point outside the grid.
    #[error("point {point} is outside the {width}x{height} grid")]
    OutOfBounds {
        /// The point.
        point: Point,
        /// Grid width.
        width: u32,
        /// Grid height.
        height: u32,
    },
    /// A kind that would be the grid's 17th: at most
    /// [`MAX_TERRAIN_KINDS`] kinds fit in its 4-bit codes.
    #[error("terrain kind {kind:?} would be the grid's {}th kind; at most {max} fit", max + 1)]
    TooManyKinds {
        /// The kind that found no code.
        kind: char,
        /// [`MAX_TERRAIN_KINDS`].
        max: usize,
    },
}

/// A rectangular tile grid.
///
/// Passability is one bit per cell, stored row-major with a one-cell blocked
/// border (a `(width + 2) × (height + 2)` bit array), so a search can test any
/// neighbour of an in-bounds cell without a bounds check. A column-major
/// copy (one more bit per cell) lets a search read a column 64 cells at a
/// time as well ([`Grid::padded_column_bits`]); a profile's view whose
/// costs differ is made without one (its searches are not jump point
/// searches), and its column reads are gathered from the rows, with the
/// same results ([`Grid::has_column_copy`]). Terrain kinds (at most
/// [`MAX_TERRAIN_KINDS`], see [`Grid::terrain_kinds`]) are kept per cell
/// only when the map uses more than one passable or more than one blocked
/// kind (four bits per cell, a code into the grid's palette, laid out like
/// the passability bits; shared by clones and by the views of units of
/// size 1 until an edit); otherwise every passable cell has one kind and
/// every blocked cell another. "Passable" is the benchmark's rule
/// ([`Terrain::is_passable`]); other movement profiles read the kinds (see
/// [`crate::ProfileGrid`]).
///
/// Two grids compare equal when they have the same size and every cell the
/// same kind (the stamp and the storage layout do not count).
#[derive(Clone, Debug)]
pub struct Grid {
    width: u32,
    height: u32,
    stride: usize,
    bits: Vec<u64>,
    /// `bits` column-major: bit `(x + 1) * (height + 2) + y + 1` is `(x, y)`;
    /// empty when the grid keeps no column copy.
    cols: Vec<u64>,
    passable_cells: u64,
    base_passable: Terrain,
    base_blocked: Terrain,
    /// The kinds cells may have; the layer's codes index it.
    palette: Palette,
    /// Four bits per padded cell (row-major, at [`Grid::padded_index`], low
    /// nibble first; the border's codes mean nothing), codes into
    /// `palette`, present only for mixed maps. Shared, not copied, with
    /// clones and with the profile views that read it (an edit copies it
    /// first while shared).
    terrain: Option<Arc<Vec<u8>>>,
    revision: Revision,
    journal: Journal,
    /// The sum of [`word_digest`] over the bit words, once
    /// [`Grid::checksum`] has been asked for; kept by every edit after.
    digest_sum: std::sync::OnceLock<u64>,
}

impl PartialEq for Grid {
    fn eq(&self, o: &Grid) -> bool {
        if self.width != o.width || self.height != o.height || self.bits != o.bits {
            return false;
        }
        if self.terrain.is_none() && o.terrain.is_none() {
            // Same passability: the kinds agree when the bases of the
            // classes present agree.
            let blocked = self.cell_count() - self.passable_cells;
            return (self.passable_cells == 0 || self.base_passable == o.base_passable)
                && (blocked == 0 || self.base_blocked == o.base_blocked);
        }
        (0..self.height).all(|y| {
            (0..self.width).all(|x| {
                let p = Point::new(x, y);
                self.terrain_unchecked(p) == o.terrain_unchecked(p)
            })
        })
    }
}

impl Eq for Grid {}

impl Grid {
    /// A grid of `width × height` cells, all passable (`.`) when `passable`,
    /// else all blocked (`@`).
    pub fn new(width: u32, height: u32, passable: bool) -> Result<Grid, GridError> {
        check_dimensions(width as u64, height as u64)?;
        Ok(Grid::new_checked(width, height, passable))
    }

    /// [`Grid::new`] for dimensions already checked.
    fn new_checked(width: u32, height: u32, passable: bool) -> Grid {
        let stride = width as usize + 2;
        let total = stride * (height as usize + 2);
        let mut g = Grid {
            width,
            height,
            stride,
            bits: vec![0u64; total.div_ceil(64) + 1],
            cols: vec![0u64; total.div_ceil(64) + 1],
            passable_cells: 0,
            base_passable: Terrain::GROUND,
            base_blocked: Terrain::OUT_OF_BOUNDS,
            palette: Palette::of(&[if passable {
                Terrain::GROUND
            } else {
                Terrain::OUT_OF_BOUNDS
            }]),
            terrain: None,
            revision: Revision::fresh(),
            journal: Journal::default(),
            digest_sum: std::sync::OnceLock::new(),
        };
        if passable {
            for y in 0..height {
                g.fill_row_passable(y);
            }
            g.passable_cells = width as u64 * height as u64;
            g.rebuild_columns();
        }
        g
    }

    /// Derives the column-major copy from the rows, 64 × 64 cells at a
    /// time (while the grid is being made).
    fn rebuild_columns(&mut self) {
        if self.cols.is_empty() {
            return;
        }
        let (pw, ph) = (self.stride, self.height as usize + 2);
        self.cols.iter_mut().for_each(|w| *w = 0);
        let mut block = [0u64; 64];
        for by in (0..ph).step_by(64) {
            let rows = (ph - by).min(64);
            for bx in (0..pw).step_by(64) {
                let cols = (pw - bx).min(64);
                let keep = low_bits(cols);
                block.iter_mut().for_each(|w| *w = 0);
                for (r, b) in block.iter_mut().take(rows).enumerate() {
                    *b = self.padded_bits((by + r) * pw + bx) & keep;
                }
                crate::bits::transpose64(&mut block);
                let keep = low_bits(rows);
                for (c, &b) in block.iter().take(cols).enumerate() {
                    let v = b & keep;
                    if v == 0 {
                        continue;
                    }
                    let i = (bx + c) * ph + by;
                    let (w, o) = (i >> 6, i & 63);
                    self.cols[w] |= v << o;
                    if o != 0 && (v >> (64 - o)) != 0 {
                        self.cols[w + 1] |= v >> (64 - o);
                    }
                }
            }
        }
    }

    /// Only while the grid is being made (its revision is fresh).
    fn fill_row_passable(&mut self, y: u32) {
        let start = (y as usize + 1) * self.stride + 1;
        let end = start + self.width as usize;
        let mut i = start;
        while i < end {
            if i.is_multiple_of(64) && i + 64 <= end {
                self.bits[i / 64] = u64::MAX;
                i += 64;
            } else {
                self.bits[i / 64] |= 1u64 << (i % 64);
                i += 1;
            }
        }
    }

    /// A grid from rows of terrain characters (printable ASCII, see
    /// [`Terrain`]), all of one length. Handy for tests and small hand-made
    /// maps.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, crate::MapError> {
        let height = rows.len();
        let width = rows
            .first()
            .map(|r| r.as_ref().chars().count())
            .unwrap_or(0);
        let mut text = format!("type octile\nheight {height}\nwidth {width}\nmap\n");
        for r in rows {
            text.push_str(r.as_ref());
            text.push('\n');
        }
        crate::parse_map(&text)
    }

    /// Width in cells.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// `width × height`.
    #[inline]
    pub fn cell_count(&self) -> u64 {
        self.width as u64 * self.height as u64
    }

    /// How many cells are passable.
    #[inline]
    pub fn passable_count(&self) -> u64 {
        self.passable_cells
    }

    /// Whether `p` lies inside the grid.
    #[inline]
    pub fn in_bounds(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// `Ok(())` if `p` lies inside the grid, else [`GridError::OutOfBounds`].
    pub fn check_bounds(&self, p: Point) -> Result<(), GridError> {
        if self.in_bounds(p) {
            Ok(())
        } else {
            Err(GridError::OutOfBounds {
                point: p,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// A stamp of this grid's passability: it changes with every edit
    /// (and a clone gets its own), so a cache built from a grid stays valid
    /// while the stamp it was built for is unchanged. Two grids never share
    /// a stamp unless one was read at the same state.
    #[inline]
    pub fn revision(&self) -> u64 {
        self.revision.0
    }

    /// The cells edited (by [`Grid::set_passable`] or [`Grid::set_terrain`],
    /// oldest first, repeats kept) since this grid had revision `r`:
    /// empty when `r` is the current revision; `None` when `r` is not a
    /// revision this grid value passed through since it was made or
    /// cloned, or one older than its journal reaches (it holds the last
    /// [`JOURNAL_CAP`] to half of that many edits). O(log edits). Lets a
    /// cache built for revision `r` (a hierarchy) find every edit since,
    /// without a list from the caller and without a pass over the cells.
    pub fn edits_since(&self, r: u64) -> Option<&[Point]> {
        self.journal.since(r, self.revision.0)
    }

    /// Row length of the padded bit array (`width + 2`). Padded index of
    /// `(x, y)` is `(y + 1) * stride + x + 1`.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// The padded index of an in-bounds point (see [`Grid::stride`]).
    #[inline]
    pub fn padded_index(&self, p: Point) -> usize {
        (p.y as usize + 1) * self.stride + p.x as usize + 1
    }

    /// The point at a padded index that lies inside the grid.
    #[inline]
    pub fn point_of_padded(&self, i: usize) -> Point {
        Point::new((i % self.stride) as u32 - 1, (i / self.stride) as u32 - 1)
    }

    /// Passability at a padded index; border cells read as blocked. The
    /// index must be below `(width + 2) * (height + 2)`.
    #[inline]
    pub fn passable_padded(&self, i: usize) -> bool {
        (self.bits[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// Passability of the 64 padded cells starting at padded index `i`, as
    /// bits: bit `j` is [`Grid::passable_padded`]`(i + j)`, so a row of cells
    /// can be tested 64 at a time (the padding makes runs crossing a row's
    /// end read the blocked border). Bits past the end of the padded array
    /// read as `0` (blocked). `i` must be below `(width + 2) * (height + 2)`.
    #[inline]
    pub fn padded_bits(&self, i: usize) -> u64 {
        Grid::bits_at(&self.bits, i)
    }

    /// Rows in one padded column (`height + 2`): the padded column index of
    /// `(x, y)` is `(x + 1) * column_stride + y + 1`.
    #[inline]
    pub fn column_stride(&self) -> usize {
        self.height as usize + 2
    }

    /// The padded column index of an in-bounds point (see
    /// [`Grid::column_stride`]).
    #[inline]
    pub fn padded_column_index(&self, p: Point) -> usize {
        (p.x as usize + 1) * self.column_stride() + p.y as usize + 1
    }

    /// [`Grid::padded_bits`] down a column: bit `j` is the passability of
    /// the cell at padded column index `i + j`, so a column can be read 64
    /// cells at a time (past its end come the blocked border and then the
    /// next column). Bits past the end of the array read as `0`.
    #[inline]
    pub fn padded_column_bits(&self, i: usize) -> u64 {
        if self.cols.is_empty() {
            return self.gathered_column_bits(i);
        }
        Grid::bits_at(&self.cols, i)
    }

    /// Whether the grid keeps its column-major copy. Without it (see
    /// [`ProfileGrid`](crate::ProfileGrid)) [`Grid::padded_column_bits`]
    /// gathers its 64 bits one by one from the rows and
    /// [`Grid::area_columns_padded`] transposes the rows 64 × 64 at a time:
    /// the same bits, at a few times the cost.
    pub fn has_column_copy(&self) -> bool {
        !self.cols.is_empty()
    }

    /// [`Grid::padded_column_bits`] read from the row-major bits.
    fn gathered_column_bits(&self, i: usize) -> u64 {
        let cs = self.column_stride();
        let total = cs * self.stride;
        let mut v = 0u64;
        for j in 0..64 {
            let k = i + j;
            if k >= total {
                break;
            }
            let (col, row) = (k / cs, k % cs);
            if self.passable_padded(row * self.stride + col) {
                v |= 1 << j;
            }
        }
        v
    }

    /// Drops the column-major copy ([`Grid::has_column_copy`]): one bit per
    /// cell less, for a grid jump point search seldom reads.
    pub(crate) fn drop_column_copy(&mut self) {
        self.cols = Vec::new();
    }

    /// The 64 bits of a padded bit array (`words`: the row-major or the
    /// column-major copy) from bit `i` on; `words[i / 64 + 1]` must exist
    /// (both arrays end with a spare word).
    #[inline]
    fn bits_at(words: &[u64], i: usize) -> u64 {
        let (w, o) = (i >> 6, (i & 63) as u32);
        // `(hi << 1) << (63 - o)`: no branch for `o == 0`.
        (words[w] >> o) | ((words[w + 1] << 1) << (63 - o))
    }

    /// The `width × height` area whose top-left cell is `(x0, y0)` (the
    /// area must lie inside the grid), row by row as lines padded by one
    /// blocked cell at each end: `out` holds `height` lines of `words` words
    /// (`64 * words ≥ width + 2`), and bit `1 + i` of line `r` (counting
    /// across its words) is cell `(x0 + i, y0 + r)`; bit 0 and every bit
    /// past `width` are clear. Window loads: two word reads per output word,
    /// no transpose.
    pub fn area_rows_padded(&self, x0: u32, y0: u32, width: u32, words: usize, out: &mut [u64]) {
        let first = self.padded_index(Point::new(x0, y0)) - 1;
        Grid::area_lines(&self.bits, first, self.stride, width, words, out);
    }

    /// [`Grid::area_rows_padded`] for columns, from the column-major copy:
    /// `out` holds `width` lines of `words` words (`64 * words ≥ height +
    /// 2`), and bit `1 + j` of line `c` is cell `(x0 + c, y0 + j)`.
    pub fn area_columns_padded(
        &self,
        x0: u32,
        y0: u32,
        height: u32,
        words: usize,
        out: &mut [u64],
    ) {
        if self.cols.is_empty() {
            self.area_columns_from_rows(x0, y0, height, words, out);
            return;
        }
        let first = self.padded_column_index(Point::new(x0, y0)) - 1;
        Grid::area_lines(&self.cols, first, self.column_stride(), height, words, out);
    }

    /// [`Grid::area_columns_padded`] from the row-major bits, for a grid
    /// without its column copy: 64 × 64 blocks of the area's rows, each
    /// transposed. O(area / 64) word reads plus a transpose per block.
    fn area_columns_from_rows(&self, x0: u32, y0: u32, height: u32, words: usize, out: &mut [u64]) {
        let width = out.len() / words.max(1);
        let mut block = [0u64; 64];
        for cx in (0..width).step_by(64) {
            let keep = crate::bits::low_bits(width - cx);
            for wi in 0..words {
                // Bit `b` of this word of a line is row `y0 + wi·64 + b − 1`.
                for (b, slot) in block.iter_mut().enumerate() {
                    let t = wi * 64 + b;
                    *slot = if t >= 1 && t <= height as usize {
                        let p = Point::new(x0 + cx as u32, y0 + t as u32 - 1);
                        Grid::bits_at(&self.bits, self.padded_index(p)) & keep
                    } else {
                        0
                    };
                }
                crate::bits::transpose64(&mut block);
                for (c, &v) in block.iter().take((width - cx).min(64)).enumerate() {
                    out[(cx + c) * words + wi] = v;
                }
            }
        }
    }

    /// Lines of `len` cells (padded to `words` words, see
    /// [`Grid::area_rows_padded`]) of a padded bit array, the first line's
    /// padding bit at index `first`, one line every `stride` bits.
    fn area_lines(
        src: &[u64],
        first: usize,
        stride: usize,
        len: u32,
        words: usize,
        out: &mut [u64],
    ) {
        // Keep bits 1..=len of each line: clear the padding bits, which the
        // reads take from the grid's neighbouring cells.
        let end = len as usize + 1;
        let last = words.saturating_sub(1);
        let last_keep = low_bits(end.saturating_sub(last * 64));
        let mut i = first;
        if words == 1 {
            // The legs' and joins' windows (≤ 62 cells): the general loop
            // below handles them too, but its per-line slice setup cost
            // maze512-8's short queries 7 % more instructions.
            let keep = last_keep & !1;
            for w in out {
                *w = Grid::bits_at(src, i) & keep;
                i += stride;
            }
            return;
        }
        for line in out.chunks_exact_mut(words) {
            // One shift for the whole line: each source word is read once.
            let (w0, o) = (i >> 6, (i & 63) as u32);
            // (`src[w0 + words]` exists: the array ends with a spare word.)
            for (w, pair) in line.iter_mut().zip(src[w0..=w0 + words].windows(2)) {
                *w = (pair[0] >> o) | ((pair[1] << 1) << (63 - o));
            }
            line[0] &= !1;
            line[last] &= last_keep;
            i += stride;
        }
    }

    /// Passability of the 3×3 block centred on the padded index `i` of an
    /// in-bounds cell, as 9 bits: bit `(dy + 1) * 3 + (dx + 1)` for the cell
    /// at offset `(dx, dy)`. Feed it to [`Grid::legal_moves`].
    #[inline]
    pub fn neighborhood_padded(&self, i: usize) -> u32 {
        let row = |c: usize| -> u32 {
            let s = c - 1;
            let (w, o) = (s >> 6, s & 63);
            let v = if o <= 61 {
                self.bits[w] >> o
            } else {
                (self.bits[w] >> o) | (self.bits[w + 1] << (64 - o))
            };
            (v & 7) as u32
        };
        row(i - self.stride) | (row(i) << 3) | (row(i + self.stride) << 6)
    }

    /// Passability of up to 64 cells of row `y` starting at column `x`, as
    /// bits (bit `i` is cell `x + i`); cells past the right edge read as
    /// blocked. `len` is clamped to 64.
    #[inline]
    pub fn row_bits(&self, x: u32, y: u32, len: u32) -> u64 {
        if y >= self.height || x >= self.width {
            return 0;
        }
        let len = len.min(64).min(self.width - x);
        if len == 0 {
            return 0;
        }
        let v = Grid::bits_at(&self.bits, self.padded_index(Point::new(x, y)));
        v & low_bits(len as usize)
    }

    /// The legal moves out of a cell whose 3×3 neighbourhood is `hood`
    /// (from [`Grid::neighborhood_padded`]): bit `d as u8` is set for each
    /// [`Dir`] `d` whose target is passable and, for diagonals, whose two
    /// orthogonal cells are passable.
    #[inline]
    pub fn legal_moves(hood: u32) -> u8 {
        LEGAL_MOVES[(hood & 0x1FF) as usize]
    }

    /// Signed padded-index offset of a move.
    #[inline]
    pub fn padded_offset(&self, dir: Dir) -> isize {
        let (dx, dy) = dir.delta();
        dy as isize * self.stride as isize + dx as isize
    }

    /// Whether `p` is inside the grid and passable.
    #[inline]
    pub fn is_passable(&self, p: Point) -> bool {
        self.in_bounds(p) && self.passable_padded(self.padded_index(p))
    }

    /// Whether `(x, y)` (possibly negative) is inside the grid and passable.
    #[inline]
    pub fn is_passable_i(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && (x as u64) < self.width as u64
            && (y as u64) < self.height as u64
            && self.is_passable(Point::new(x as u32, y as u32))
    }

    /// The terrain kind of an in-bounds cell.
    pub fn terrain(&self, p: Point) -> Result<Terrain, GridError> {
        self.check_bounds(p)?;
        Ok(self.terrain_unchecked(p))
    }

    fn terrain_unchecked(&self, p: Point) -> Terrain {
        match &self.terrain {
            Some(t) => self.palette.kinds[code_at(t, self.padded_index(p)) as usize],
            None => {
                if self.passable_padded(self.padded_index(p)) {
                    self.base_passable
                } else {
                    self.base_blocked
                }
            }
        }
    }

    /// Whether terrain kinds are stored per cell (the map mixes kinds).
    pub fn has_terrain_layer(&self) -> bool {
        self.terrain.is_some()
    }

    /// The kinds this grid's cells may have (at most
    /// [`MAX_TERRAIN_KINDS`]): every kind some cell has, and possibly kinds
    /// that edits have since removed from every cell. O(1).
    pub fn terrain_kinds(&self) -> &[Terrain] {
        self.palette.as_slice()
    }

    /// Sets the terrain kind of a cell, and so its passability
    /// ([`Terrain::is_passable`]). A kind the grid does not hold yet takes a
    /// free code; when all [`MAX_TERRAIN_KINDS`] codes are taken, the
    /// palette drops the kinds no other cell has (one pass over the cells)
    /// and, if it is still full, the edit fails with
    /// [`GridError::TooManyKinds`] and changes nothing. O(1) otherwise,
    /// except the first edit that mixes kinds, which stores the kinds of
    /// every cell (half a byte per cell), and the first edit after the
    /// kinds were shared (with a clone, or a [`crate::ProfileGrid`] of a
    /// unit of size 1), which copies them: the view keeps what it was made
    /// from.
    pub fn set_terrain(&mut self, p: Point, t: Terrain) -> Result<(), GridError> {
        self.check_bounds(p)?;
        let code = match self.palette.code(t) {
            Some(c) => c,
            None => self.add_kind(p, t)?,
        };
        let base = if t.is_passable() {
            self.base_passable
        } else {
            self.base_blocked
        };
        if self.terrain.is_none() && t != base {
            self.materialize_terrain();
        }
        let i = self.padded_index(p);
        if let Some(layer) = &mut self.terrain {
            put_code(Arc::make_mut(layer).as_mut_slice(), i, code);
        }
        self.set_bit(p, t.is_passable());
        Ok(())
    }

    /// Gives `t` a code, for a cell `p` about to take it: a free one, or
    /// after dropping the kinds no cell but `p` has (recoding the layer).
    fn add_kind(&mut self, p: Point, t: Terrain) -> Result<u8, GridError> {
        if (self.palette.len as usize) < MAX_TERRAIN_KINDS {
            self.palette.kinds[self.palette.len as usize] = t;
            self.palette.len += 1;
            return Ok(self.palette.len - 1);
        }
        let mut used = [false; MAX_TERRAIN_KINDS];
        let at = self.padded_index(p);
        match &self.terrain {
            Some(layer) => {
                for y in 0..self.height {
                    let row = self.padded_index(Point::new(0, y));
                    for i in (row..row + self.width as usize).filter(|&i| i != at) {
                        used[code_at(layer, i) as usize] = true;
                    }
                }
            }
            None => {
                let here = self.passable_padded(self.padded_index(p));
                let passable_elsewhere = self.passable_cells > u64::from(here);
                let blocked_elsewhere = self.cell_count() - self.passable_cells > u64::from(!here);
                for (k, u) in self.palette.as_slice().iter().zip(used.iter_mut()) {
                    *u = (passable_elsewhere && *k == self.base_passable)
                        || (blocked_elsewhere && *k == self.base_blocked);
                }
            }
        }
        if used.iter().all(|&u| u) {
            return Err(GridError::TooManyKinds {
                kind: t.to_char(),
                max: MAX_TERRAIN_KINDS,
            });
        }
        let mut recode = [0u8; MAX_TERRAIN_KINDS];
        let mut kept = Vec::with_capacity(MAX_TERRAIN_KINDS);
        for (i, &k) in self.palette.as_slice().iter().enumerate() {
            if used[i] {
                recode[i] = kept.len() as u8;
                kept.push(k);
            }
        }
        kept.push(t);
        if let Some(layer) = &mut self.terrain {
            for b in Arc::make_mut(layer).iter_mut() {
                *b = recode[(*b & 0xF) as usize] | (recode[(*b >> 4) as usize] << 4);
            }
        }
        self.palette = Palette::of(&kept);
        Ok(self.palette.len - 1)
    }

    /// Makes a cell passable (`.`-kind of this map) or blocked (`@`-kind):
    /// [`Grid::set_terrain`] with the map's first passable or blocked kind.
    pub fn set_passable(&mut self, p: Point, passable: bool) -> Result<(), GridError> {
        let t = if passable {
            self.base_passable
        } else {
            self.base_blocked
        };
        self.set_terrain(p, t)
    }

    fn set_bit(&mut self, p: Point, passable: bool) {
        let before = self.revision.0;
        self.revision = Revision::fresh();
        self.journal.record(before, self.revision.0, p);
        let i = self.padded_index(p);
        let was = self.passable_padded(i);
        let j = self.padded_column_index(p);
        let old = self.bits[i >> 6];
        let cols = !self.cols.is_empty();
        if passable {
            self.bits[i >> 6] |= 1u64 << (i & 63);
            if cols {
                self.cols[j >> 6] |= 1u64 << (j & 63);
            }
        } else {
            self.bits[i >> 6] &= !(1u64 << (i & 63));
            if cols {
                self.cols[j >> 6] &= !(1u64 << (j & 63));
            }
        }
        if let Some(sum) = self.digest_sum.get_mut() {
            let new = self.bits[i >> 6];
            *sum = sum
                .wrapping_sub(word_digest(i >> 6, old))
                .wrapping_add(word_digest(i >> 6, new));
        }
        match (was, passable) {
            (false, true) => self.passable_cells += 1,
            (true, false) => self.passable_cells -= 1,
            _ => {}
        }
    }

    fn materialize_terrain(&mut self) {
        let mut layer = vec![0u8; self.layer_bytes()];
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Point::new(x, y);
                let t = self.terrain_unchecked(p);
                // Every cell's kind is in the palette (its invariant).
                let code = self.palette.code(t).unwrap_or(0);
                put_code(&mut layer, self.padded_index(p), code);
            }
        }
        self.terrain = Some(Arc::new(layer));
    }

    /// Bytes of a terrain layer: half a byte per padded cell.
    fn layer_bytes(&self) -> usize {
        (self.stride * (self.height as usize + 2)).div_ceil(2)
    }

    /// Builds a grid from per-row terrain, used by the map reader. `rows`
    /// holds `height` rows of `width` kinds; more than
    /// [`MAX_TERRAIN_KINDS`] kinds fail with [`GridError::TooManyKinds`].
    pub(crate) fn from_terrain_rows(
        width: u32,
        height: u32,
        rows: &[Vec<Terrain>],
    ) -> Result<Grid, GridError> {
        // Kinds in order of first appearance.
        let mut seen = [false; 128];
        let mut kinds = Vec::new();
        for t in rows.iter().flatten() {
            if !seen[t.0 as usize] {
                if kinds.len() == MAX_TERRAIN_KINDS {
                    return Err(GridError::TooManyKinds {
                        kind: t.to_char(),
                        max: MAX_TERRAIN_KINDS,
                    });
                }
                seen[t.0 as usize] = true;
                kinds.push(*t);
            }
        }
        let mut g = Grid::new(width, height, false)?;
        let code_of = g.set_kinds(&kinds);
        // The fresh layer is the grid's alone: written in place, shared after.
        let mut layer = g.terrain.take().map(Arc::unwrap_or_clone);
        for (y, row) in rows.iter().enumerate() {
            for (x, t) in row.iter().enumerate() {
                let i = g.padded_index(Point::new(x as u32, y as u32));
                if t.is_passable() {
                    g.bits[i >> 6] |= 1u64 << (i & 63);
                    g.passable_cells += 1;
                }
                if let Some(layer) = &mut layer {
                    put_code(layer, i, code_of[t.0 as usize]);
                }
            }
        }
        g.terrain = layer.map(Arc::new);
        g.rebuild_columns();
        Ok(g)
    }

    /// Makes the (blocked) cells whose bits are set in `v` passable, bit
    /// `b` at padded index `i + b`: a grid being built, 64 cells a call
    /// (no journal, no column copy: `rebuild_columns` follows).
    fn or_passable(&mut self, i: usize, v: u64) {
        if v == 0 {
            return;
        }
        self.passable_cells += u64::from(v.count_ones());
        let (w, o) = (i >> 6, i & 63);
        self.bits[w] |= v << o;
        if o != 0 {
            self.bits[w + 1] |= v >> (64 - o);
        }
    }

    /// Sets up a grid being built for the map kinds `kinds` (in order of
    /// first appearance): the palette, the bases `set_passable` writes
    /// (the first Moving AI kind of each class in the order `. G S` and
    /// `@ O T W`, else the first seen), a zeroed terrain layer where a
    /// class has more than one kind. Returns each kind's code.
    fn set_kinds(&mut self, kinds: &[Terrain]) -> [u8; 128] {
        let rank = |t: &Terrain| ".GS@OTW".find(t.to_char()).unwrap_or(7);
        let passable = kinds.iter().filter(|t| t.is_passable());
        let blocked = kinds.iter().filter(|t| !t.is_passable());
        let (np, nb) = (passable.clone().count(), blocked.clone().count());
        if let Some(t) = passable.min_by_key(|t| rank(t)) {
            self.base_passable = *t;
        }
        if let Some(t) = blocked.min_by_key(|t| rank(t)) {
            self.base_blocked = *t;
        }
        self.palette = Palette::of(kinds);
        let mut code_of = [0u8; 128];
        for (c, t) in kinds.iter().enumerate() {
            code_of[t.0 as usize] = c as u8;
        }
        if np > 1 || nb > 1 {
            self.terrain = Some(Arc::new(vec![0u8; self.layer_bytes()]));
        }
        code_of
    }

    /// [`Grid::from_terrain_rows`] from rows of terrain characters as
    /// bytes, for the map reader's fast path: `rows` holds `height` rows of
    /// `width` bytes. `None` when a byte is not a character
    /// [`Terrain::from_char`] knows (or is whitespace), or the rows hold
    /// more than [`MAX_TERRAIN_KINDS`] kinds: the general reader then names
    /// the error. One pass writes 64 cells per word and notes the bytes
    /// met; the kinds' order of first appearance comes from the rows that
    /// met a new one; a second pass fills the terrain layer where one is
    /// needed. No byte per cell in between.
    pub(crate) fn from_ascii_rows(width: u32, height: u32, rows: &[&[u8]]) -> Option<Grid> {
        let w = width as usize;
        if rows.len() != height as usize || rows.iter().any(|r| r.len() != w) {
            return None;
        }
        let mut g = Grid::new(width, height, false).ok()?;
        let mut open = [0u64; 256];
        let mut known = [0u64; 2];
        for c in 0u8..128 {
            if let Some(t) = Terrain::from_char(c as char).filter(|_| !c.is_ascii_whitespace()) {
                open[c as usize] = u64::from(t.is_passable());
                known[(c >> 6) as usize] |= 1 << (c & 63);
            }
        }
        // `present[c]`: byte `c` met so far (a store per byte, no chain
        // of reads); rows that met a new byte are read again for the order.
        let mut present = [0u8; 256];
        let mut noted = [0u8; 256];
        let mut new_rows: Vec<usize> = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let start = (y + 1) * g.stride + 1;
            for (k, chunk) in row.chunks(64).enumerate() {
                let mut v = 0u64;
                for (b, &c) in chunk.iter().enumerate() {
                    v |= open[c as usize] << b;
                    present[c as usize] = 1;
                }
                g.or_passable(start + k * 64, v);
            }
            if present != noted {
                noted = present;
                new_rows.push(y);
            }
        }
        // Bytes that are no kind (past 127, whitespace, unknown).
        let mut count = 0;
        for (c, &p) in present.iter().enumerate() {
            if p != 0 {
                if c >= 128 || known[c >> 6] & (1 << (c & 63)) == 0 {
                    return None;
                }
                count += 1;
            }
        }
        if count > MAX_TERRAIN_KINDS {
            return None;
        }
        // Kinds in order of first appearance.
        let mut seen = [false; 128];
        let mut kinds = Vec::new();
        for &y in &new_rows {
            for &c in rows[y].iter() {
                if !seen[c as usize & 127] {
                    seen[c as usize & 127] = true;
                    kinds.push(Terrain::from_char(c as char)?);
                }
            }
        }
        let code_of = g.set_kinds(&kinds);
        if let Some(layer) = &mut g.terrain {
            let layer = Arc::make_mut(layer);
            for (y, row) in rows.iter().enumerate() {
                // The layer starts zeroed: OR each code in, over the slice
                // of the layer this row covers (one bounds check a row).
                let start = (y + 1) * g.stride + 1;
                let bytes = &mut layer[start / 2..(start + row.len()).div_ceil(2)];
                let odd = start % 2;
                for (x, &c) in row.iter().enumerate() {
                    let j = x + odd;
                    bytes[j / 2] |= code_of[c as usize & 127] << ((j % 2) * 4);
                }
            }
        }
        g.rebuild_columns();
        Some(g)
    }

    /// A grid of `width × height` cells whose passability comes row by row
    /// from `fill(y, row)`: bit `x % 64` of `row[x / 64]` set means `(x, y)`
    /// is passable (`.`), else blocked (`@`); bits past `width` are ignored.
    /// `row` holds `width.div_ceil(64)` words, zeroed before each call.
    /// Costs O(cells / 64) word operations and no per-cell call, so a bit-packed
    /// map of 2^30 cells converts in about a second; errors as [`Grid::new`].
    pub fn from_row_bits(
        width: u32,
        height: u32,
        mut fill: impl FnMut(u32, &mut [u64]),
    ) -> Result<Grid, GridError> {
        check_dimensions(width as u64, height as u64)?;
        let mut g = Grid::new_checked(width, height, false);
        let words = (width as usize).div_ceil(64);
        let mut row = vec![0u64; words];
        for y in 0..height {
            row.iter_mut().for_each(|w| *w = 0);
            fill(y, &mut row);
            let start = (y as usize + 1) * g.stride + 1;
            for (k, &word) in row.iter().enumerate() {
                let left = width as usize - k * 64;
                g.or_passable(start + k * 64, word & low_bits(left));
            }
        }
        if g.passable_cells > 0 {
            g.palette = Palette::of(&[Terrain::OUT_OF_BOUNDS, Terrain::GROUND]);
        }
        g.rebuild_columns();
        Ok(g)
    }

    /// A grid of the size of `self` whose cell `y * width + x` is passable
    /// (`.`) when `open(y * width + x)`, else blocked (`@`), with a column
    /// copy when `columns` ([`Grid::has_column_copy`]); O(cells).
    pub(crate) fn with_open_cells(&self, open: impl Fn(usize) -> bool, columns: bool) -> Grid {
        let (width, height) = (self.width, self.height);
        let mut g = Grid::new_checked(width, height, false);
        if !columns {
            g.drop_column_copy();
        }
        for y in 0..height as usize {
            for x in 0..width as usize {
                if open(y * width as usize + x) {
                    let i = (y + 1) * g.stride + x + 1;
                    g.bits[i >> 6] |= 1u64 << (i & 63);
                    g.passable_cells += 1;
                }
            }
        }
        if g.passable_cells > 0 {
            g.palette = Palette::of(&[Terrain::OUT_OF_BOUNDS, Terrain::GROUND]);
        }
        g.rebuild_columns();
        g
    }

    /// The per-cell kind codes (two padded cells a byte, at
    /// [`Grid::padded_index`], low nibble first; the border's mean nothing)
    /// and the kind of each code, when the grid stores kinds per cell
    /// (crate use: whole-grid passes read codes, not cells; a view shares
    /// the layer).
    pub(crate) fn kind_codes(&self) -> Option<(&Arc<Vec<u8>>, &[Terrain; MAX_TERRAIN_KINDS])> {
        self.terrain.as_ref().map(|t| (t, &self.palette.kinds))
    }

    /// The kind of an in-bounds cell, no bounds check (crate use).
    #[inline]
    pub(crate) fn kind_at(&self, p: Point) -> Terrain {
        self.terrain_unchecked(p)
    }

    /// Whether a unit on `p` (passable, in bounds) may take one step in
    /// `dir`: the target is passable and, for a diagonal, both orthogonally
    /// adjacent cells are passable (no corner cutting).
    #[inline]
    pub fn can_step(&self, p: Point, dir: Dir) -> bool {
        if !self.in_bounds(p) {
            return false;
        }
        let i = self.padded_index(p);
        self.can_step_padded(i, dir)
    }

    /// [`Grid::can_step`] on a padded index of an in-bounds cell.
    #[inline]
    pub fn can_step_padded(&self, i: usize, dir: Dir) -> bool {
        let s = self.stride as isize;
        let (dx, dy) = dir.delta();
        let t = (i as isize + dy as isize * s + dx as isize) as usize;
        if !self.passable_padded(t) {
            return false;
        }
        if dir.is_diagonal() {
            let a = (i as isize + dx as isize) as usize;
            let b = (i as isize + dy as isize * s) as usize;
            self.passable_padded(a) && self.passable_padded(b)
        } else {
            true
        }
    }

    /// The legal moves out of `p` under `conn`, as `(neighbour, cost)`.
    pub fn neighbors(
        &self,
        p: Point,
        conn: Connectivity,
    ) -> impl Iterator<Item = (Point, f64)> + '_ {
        let ok = self.in_bounds(p);
        conn.dirs().iter().filter_map(move |&d| {
            if ok && self.can_step(p, d) {
                let (dx, dy) = d.delta();
                Some((
                    Point::new(
                        (p.x as i64 + dx as i64) as u32,
                        (p.y as i64 + dy as i64) as u32,
                    ),
                    d.cost(),
                ))
            } else {
                None
            }
        })
    }

    /// Whether the straight segment between the centres of `a` and `b` stays
    /// clear: every cell whose closed square the segment touches is passable.
    ///
    /// Touching counts, so a segment through the corner shared by four cells
    /// needs all four free: for one diagonal step this is exactly the
    /// no-corner-cutting rule, so `line_of_sight` agrees with [`Grid::can_step`]
    /// on neighbours, and any segment it accepts can be walked as a chain of
    /// legal moves through the touched cells.
    pub fn line_of_sight(&self, a: Point, b: Point) -> bool {
        if !self.is_passable(a) || !self.is_passable(b) {
            return false;
        }
        let mut clear = true;
        supercover(a, b, |x, y| {
            if !self.passable_padded(self.padded_index(Point::new(x, y))) {
                clear = false;
            }
            clear
        });
        clear
    }

    /// A 64-bit digest of the size and the passability of every cell
    /// (terrain kinds that do not change passability do not count): a mix
    /// of the size and the wrapping sum, over the grid's 64-cell bit words,
    /// of a 64-bit mix of each word's index and bits (zero words add
    /// nothing). Two grids of different cells share it with a chance of
    /// about 2^-64. Files derived from a grid's passability (the `.rph`
    /// hierarchies of the default profile, format 7 on) store it to detect
    /// that they belong to another map. O(cells / 64) the first time, then
    /// O(1): every edit after keeps the sum (two mixes), so a hierarchy
    /// updated after an edit reads it for free. For data that depends on
    /// the kinds, see [`Grid::terrain_checksum`].
    pub fn checksum(&self) -> u64 {
        let sum = *self.digest_sum.get_or_init(|| {
            self.bits
                .iter()
                .enumerate()
                .fold(0u64, |s, (k, &w)| s.wrapping_add(word_digest(k, w)))
        });
        mix64(sum ^ mix64((self.width as u64) << 32 | self.height as u64))
    }

    /// A 64-bit FNV-1a digest of [`Grid::checksum`] and every cell's kind
    /// (its character, row by row): what data built for a movement profile
    /// stores, since under a profile kinds of equal benchmark passability
    /// may differ (swamp may cost more than ground, water may float a
    /// boat). Equal grids have equal digests whatever their palette order.
    /// O(cells).
    pub fn terrain_checksum(&self) -> u64 {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(PRIME);
        };
        for b in self.checksum().to_le_bytes() {
            mix(b);
        }
        for y in 0..self.height {
            for x in 0..self.width {
                mix(self.terrain_unchecked(Point::new(x, y)).0);
            }
        }
        h
    }
}

/// The splitmix64 finaliser: a bijection of 64-bit words that spreads
/// every input bit over the output.
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One bit word's share of [`Grid::checksum`]: 0 for an empty word, else a
/// mix of its index and its bits.
#[inline]
fn word_digest(k: usize, w: u64) -> u64 {
    if w == 0 {
        0
    } else {
        mix64(mix64(k as u64 ^ 0x6772_6964_5f63_6b73) ^ w)
    }
}

/// Legal-move masks for every 3×3 neighbourhood pattern.
static LEGAL_MOVES: [u8; 512] = legal_table();

const fn hood_bit(p: usize, dx: i32, dy: i32) -> bool {
    (p >> ((dy + 1) * 3 + (dx + 1))) & 1 == 1
}

const fn legal_table() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut p = 0;
    while p < 512 {
        let mut m = 0u8;
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = Dir::ALL[d].delta();
            let ok = if dx != 0 && dy != 0 {
                hood_bit(p, dx, dy) && hood_bit(p, dx, 0) && hood_bit(p, 0, dy)
            } else {
                hood_bit(p, dx, dy)
            };
            if ok {
                m |= 1 << d;
            }
            d += 1;
        }
        t[p] = m;
        p += 1;
    }
    t
}

/// Visits, in order from `a` to `b`, every cell whose closed square the
/// segment between the two cell centres touches. `visit` returns `false` to
/// stop early.
pub(crate) fn supercover(a: Point, b: Point, mut visit: impl FnMut(u32, u32) -> bool) {
    let (mut x, mut y) = (a.x as i64, a.y as i64);
    let (x1, y1) = (b.x as i64, b.y as i64);
    let dx = (x1 - x).abs();
    let dy = (y1 - y).abs();
    let sx = if x1 > x { 1 } else { -1 };
    let sy = if y1 > y { 1 } else { -1 };
    // err is proportional to the signed distance of the line from the
    // corner the walk is heading to: > 0 cross a vertical edge next, < 0 a
    // horizontal one, 0 exactly through the corner.
    let mut err = dx - dy;
    if !visit(x as u32, y as u32) {
        return;
    }
    while x != x1 || y != y1 {
        if err > 0 {
            x += sx;
            err -= 2 * dy;
        } else if err < 0 {
            y += sy;
            err += 2 * dx;
        } else {
            if !visit((x + sx) as u32, y as u32) || !visit(x as u32, (y + sy) as u32) {
                return;
            }
            x += sx;
            y += sy;
            err += 2 * dx - 2 * dy;
        }
        if !visit(x as u32, y as u32) {
            return;
        }
    }
}

fn check_dimensions(width: u64, height: u64) -> Result<(), GridError> {
    if width == 0 || height == 0 {
        return Err(GridError::ZeroDimension { width, height });
    }
    if width > MAX_DIMENSION as u64 || height > MAX_DIMENSION as u64 {
        return Err(GridError::TooLarge {
            width,
            height,
            max: MAX_DIMENSION,
        });
    }
    Ok(())
}

pub(crate) fn check_dimensions_pub(width: u64, height: u64) -> Result<(), GridError> {
    check_dimensions(width, height)
}

/// The code at index `i` of a terrain layer (two a byte, low nibble
/// first).
#[inline]
pub(crate) fn code_at(layer: &[u8], i: usize) -> u8 {
    (layer[i / 2] >> ((i % 2) * 4)) & 0xF
}

/// Writes `code` at index `i` of a terrain layer.
#[inline]
fn put_code(layer: &mut [u8], i: usize, code: u8) {
    let shift = (i % 2) * 4;
    layer[i / 2] = (layer[i / 2] & !(0xF << shift)) | (code << shift);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_row_bits` agrees with cell-by-cell `set_passable` (rows, the
    /// column-major copy, counts and checksum) on widths around word edges.
    #[test]
    fn from_row_bits_matches_cell_edits() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for (w, h) in [(1, 1), (63, 5), (64, 3), (65, 7), (130, 66), (200, 9)] {
            let mut want = Grid::new(w, h, false).unwrap();
            let mut rows = Vec::new();
            for y in 0..h {
                let mut row = vec![0u64; (w as usize).div_ceil(64)];
                for x in 0..w {
                    crate::xorshift(&mut state);
                    if !state.is_multiple_of(3) {
                        row[x as usize / 64] |= 1 << (x % 64);
                        want.set_passable(Point::new(x, y), true).unwrap();
                    }
                }
                // Junk past the width must be ignored.
                if w % 64 != 0 {
                    *row.last_mut().unwrap() |= !low_bits(w as usize % 64);
                }
                rows.push(row);
            }
            let got =
                Grid::from_row_bits(w, h, |y, out| out.copy_from_slice(&rows[y as usize])).unwrap();
            assert_eq!(got, want);
            assert_eq!(got.passable_count(), want.passable_count());
            assert_eq!(got.checksum(), want.checksum());
            for x in 0..w {
                let i = got.padded_column_index(Point::new(x, 0));
                assert_eq!(
                    got.padded_column_bits(i),
                    want.padded_column_bits(i),
                    "{w}x{h} column {x}"
                );
            }
        }
        assert!(Grid::from_row_bits(0, 4, |_, _| {}).is_err());
        assert!(Grid::from_row_bits(70_000, 4, |_, _| {}).is_err());
    }

    #[test]
    fn new_and_edit() {
        let mut g = Grid::new(70, 3, true).unwrap();
        assert_eq!(g.passable_count(), 210);
        assert!(g.is_passable(Point::new(69, 2)));
        assert!(!g.is_passable(Point::new(70, 2)));
        g.set_passable(Point::new(5, 1), false).unwrap();
        assert!(!g.is_passable(Point::new(5, 1)));
        assert_eq!(g.passable_count(), 209);
        assert!(!g.has_terrain_layer());
        g.set_terrain(Point::new(6, 1), Terrain::TREES).unwrap();
        assert!(g.has_terrain_layer());
        assert_eq!(g.terrain(Point::new(6, 1)).unwrap(), Terrain::TREES);
        assert_eq!(g.terrain(Point::new(5, 1)).unwrap(), Terrain::OUT_OF_BOUNDS);
        assert_eq!(g.terrain(Point::new(7, 1)).unwrap(), Terrain::GROUND);
        assert!(g.set_passable(Point::new(70, 0), true).is_err());
        assert!(Grid::new(0, 5, true).is_err());
        assert!(Grid::new(65_536, 5, true).is_err());
    }

    #[test]
    fn corner_rule() {
        let g = Grid::from_rows(&["..", "@."]).unwrap();
        assert!(g.can_step(Point::new(0, 0), Dir::East));
        assert!(!g.can_step(Point::new(0, 0), Dir::SouthEast));
        assert!(!g.can_step(Point::new(1, 1), Dir::NorthWest));
        assert!(!g.can_step(Point::new(0, 0), Dir::West));
        assert!(!g.line_of_sight(Point::new(0, 0), Point::new(1, 1)));
        let n: Vec<_> = g.neighbors(Point::new(0, 0), Connectivity::Eight).collect();
        assert_eq!(n, vec![(Point::new(1, 0), 1.0)]);
    }

    #[test]
    fn line_of_sight_touching() {
        // The segment (0,0)->(2,1) touches (1,0) and (1,1).
        let g = Grid::from_rows(&["...", ".@."]).unwrap();
        assert!(!g.line_of_sight(Point::new(0, 0), Point::new(2, 1)));
        let g = Grid::from_rows(&["...", "..."]).unwrap();
        assert!(g.line_of_sight(Point::new(0, 0), Point::new(2, 1)));
        // (0,0)->(3,1): the line passes y=1.0 at x=2.0 (a vertex), touching
        // (1,0),(2,0),(1,1),(2,1) and not (0,1).
        let g = Grid::from_rows(&["....", "@..."]).unwrap();
        assert!(g.line_of_sight(Point::new(0, 0), Point::new(3, 1)));
        let mut cells = Vec::new();
        supercover(Point::new(0, 0), Point::new(3, 1), |x, y| {
            cells.push((x, y));
            true
        });
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (3, 1)]);
    }

    #[test]
    fn legal_moves_agree_with_can_step() {
        // Random-ish 70-wide grid so rows straddle bit-word boundaries.
        let mut g = Grid::new(70, 9, true).unwrap();
        let mut x = 99u64;
        for yy in 0..9 {
            for xx in 0..70 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (x >> 60) < 5 {
                    g.set_passable(Point::new(xx, yy), false).unwrap();
                }
            }
        }
        for yy in 0..9 {
            for xx in 0..70 {
                let p = Point::new(xx, yy);
                let m = Grid::legal_moves(g.neighborhood_padded(g.padded_index(p)));
                for d in Dir::ALL {
                    assert_eq!(m >> (d as u8) & 1 == 1, g.can_step(p, d), "{p} {d:?}");
                }
            }
        }
    }

    #[test]
    fn row_bits_match_cells() {
        let mut g = Grid::new(150, 3, true).unwrap();
        for x in (0..150).step_by(7) {
            g.set_passable(Point::new(x, 1), false).unwrap();
        }
        for x0 in [0u32, 1, 5, 63, 64, 70, 100, 140] {
            for len in [1u32, 10, 63, 64] {
                let bits = g.row_bits(x0, 1, len);
                for i in 0..64u32 {
                    let want = i < len && g.is_passable(Point::new(x0 + i, 1));
                    assert_eq!(bits >> i & 1 == 1, want, "x0 {x0} len {len} i {i}");
                }
            }
        }
    }

    #[test]
    fn padded_bits_match_passable_padded() {
        let mut x = 7u64;
        for (w, h) in [(1u32, 1u32), (3, 2), (62, 3), (63, 5), (64, 4), (130, 7)] {
            let mut g = Grid::new(w, h, true).unwrap();
            for yy in 0..h {
                for xx in 0..w {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (x >> 62) == 0 {
                        g.set_passable(Point::new(xx, yy), false).unwrap();
                    }
                }
            }
            let total = g.stride() * (h as usize + 2);
            for i in 0..total {
                let bits = g.padded_bits(i);
                for j in 0..64 {
                    let want = i + j < total && g.passable_padded(i + j);
                    assert_eq!(bits >> j & 1 == 1, want, "{w}x{h} i {i} j {j}");
                }
            }
        }
    }

    /// The column copy and the window-load reads against `is_passable`,
    /// on a parsed map with scattered walls and after edits (a grid wider
    /// and taller than 64, so blocks of the transpose meet).
    #[test]
    fn column_copy_and_area_reads_follow_passability() {
        let (w, h) = (131u32, 70u32);
        let rows: Vec<String> = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| {
                        if (x * 7 + y * 13) % 5 == 0 || x == y {
                            '@'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect();
        let mut g = Grid::from_rows(&rows).unwrap();
        let check = |g: &Grid| {
            for x in 0..w {
                for y in 0..h {
                    let p = Point::new(x, y);
                    let bit = g.padded_column_bits(g.padded_column_index(p)) & 1 != 0;
                    assert_eq!(bit, g.is_passable(p), "{p}");
                }
            }
            for &(x0, y0, aw, ah) in &[
                (0, 0, 62, 62),
                (60, 5, 62, 40),
                (69, 8, 62, 62),
                (3, 60, 10, 10),
                (0, 0, 131, 70),
                (1, 2, 129, 66),
                (5, 0, 126, 63),
            ] {
                let (rw, cw) = (
                    (aw as usize + 2).div_ceil(64),
                    (ah as usize + 2).div_ceil(64),
                );
                let mut r = vec![0u64; ah as usize * rw];
                let mut c = vec![0u64; aw as usize * cw];
                g.area_rows_padded(x0, y0, aw, rw, &mut r);
                g.area_columns_padded(x0, y0, ah, cw, &mut c);
                let bit = |v: &[u64], line: usize, words: usize, k: u32| {
                    v[line * words + (k as usize >> 6)] >> (k & 63) & 1 != 0
                };
                for dy in 0..ah {
                    for dx in 0..aw {
                        let open = g.is_passable(Point::new(x0 + dx, y0 + dy));
                        assert_eq!(
                            bit(&r, dy as usize, rw, dx + 1),
                            open,
                            "{x0},{y0} {dx},{dy}"
                        );
                        assert_eq!(
                            bit(&c, dx as usize, cw, dy + 1),
                            open,
                            "{x0},{y0} {dx},{dy}"
                        );
                    }
                }
                // Nothing outside the area (the padding bits stay clear).
                for dy in 0..ah as usize {
                    assert!(!bit(&r, dy, rw, 0));
                    assert!((aw + 1..64 * rw as u32).all(|k| !bit(&r, dy, rw, k)));
                }
                for dx in 0..aw as usize {
                    assert!(!bit(&c, dx, cw, 0));
                    assert!((ah + 1..64 * cw as u32).all(|k| !bit(&c, dx, cw, k)));
                }
            }
        };
        // Without the column copy the same reads are gathered from the
        // rows: every bit of every column read as the copy gives it.
        let same_without_copy = |g: &Grid| {
            let mut bare = g.clone();
            bare.drop_column_copy();
            assert!(!bare.has_column_copy() && g.has_column_copy());
            check(&bare);
            let padded = g.column_stride() * g.stride();
            for i in 0..padded {
                assert_eq!(bare.padded_column_bits(i), g.padded_column_bits(i), "{i}");
            }
            bare
        };
        check(&g);
        let mut bare = same_without_copy(&g);
        for i in 0..200u32 {
            let p = Point::new((i * 37) % w, (i * 11) % h);
            g.set_passable(p, i % 3 != 0).unwrap();
            bare.set_passable(p, i % 3 != 0).unwrap();
        }
        check(&g);
        check(&bare);
        same_without_copy(&g);
        check(&Grid::new(w, h, true).unwrap());
        same_without_copy(&Grid::new(w, h, true).unwrap());
    }

    #[test]
    fn checksum_tracks_passability() {
        let mut g = Grid::new(10, 10, true).unwrap();
        let c = g.checksum();
        g.set_passable(Point::new(3, 3), false).unwrap();
        assert_ne!(c, g.checksum());
        g.set_passable(Point::new(3, 3), true).unwrap();
        assert_eq!(c, g.checksum());
        assert_ne!(c, Grid::new(10, 11, true).unwrap().checksum());
        // Kept through edits, it equals the sum taken afresh over the same
        // cells (a grid edited without asking for it first).
        let mut fresh = Grid::new(10, 10, true).unwrap();
        let mut state = 99u64;
        for _ in 0..500 {
            crate::xorshift(&mut state);
            let p = Point::new((state % 10) as u32, (state >> 8) as u32 % 10);
            let open = state >> 20 & 1 == 0;
            g.set_passable(p, open).unwrap();
            fresh.set_passable(p, open).unwrap();
        }
        assert_eq!(g.checksum(), fresh.checksum());
        assert_eq!(g.checksum(), g.clone().checksum());
    }

    /// The palette holds 16 kinds; a 17th fails typed and changes nothing,
    /// unless a kind no other cell has can give up its code.
    #[test]
    fn terrain_kind_limit_and_compaction() {
        let mut g = Grid::new(20, 2, true).unwrap();
        let kind = |c: char| Terrain::from_char(c).unwrap();
        for (x, c) in ('a'..='o').enumerate() {
            g.set_terrain(Point::new(x as u32, 0), kind(c)).unwrap();
        }
        assert_eq!(g.terrain_kinds().len(), 16, "'.' and a..o");
        let before = g.clone();
        assert_eq!(
            g.set_terrain(Point::new(0, 1), kind('z')),
            Err(GridError::TooManyKinds {
                kind: 'z',
                max: MAX_TERRAIN_KINDS
            })
        );
        assert_eq!(g, before);
        // Overwriting the only `a` frees its code for `z`.
        g.set_terrain(Point::new(0, 0), kind('z')).unwrap();
        assert_eq!(g.terrain(Point::new(0, 0)).unwrap(), kind('z'));
        for (x, c) in ('b'..='o').enumerate() {
            assert_eq!(g.terrain(Point::new(x as u32 + 1, 0)).unwrap(), kind(c));
        }
        assert_eq!(g.terrain(Point::new(19, 1)).unwrap(), Terrain::GROUND);
        assert!(!g.terrain_kinds().contains(&kind('a')));
        assert_eq!(g.passable_count(), 40 - 15);
        assert!(!Terrain::from_char('q').unwrap().is_passable());
        assert_eq!(Terrain::from_char(' '), None);
        assert_eq!(Terrain::from_char('\u{7f}'), None);
    }

    /// Equality and the terrain digest follow the kinds, not the layout;
    /// `checksum` ignores kinds of equal passability.
    #[test]
    fn equality_and_terrain_checksum_follow_kinds() {
        let a = Grid::from_rows(&["..S", "@.T"]).unwrap();
        let mut b = Grid::from_rows(&["..S", "@.@"]).unwrap();
        assert_ne!(a, b);
        assert_ne!(a.terrain_checksum(), b.terrain_checksum());
        assert_eq!(a.checksum(), b.checksum());
        b.set_terrain(Point::new(2, 1), Terrain::TREES).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.terrain_checksum(), b.terrain_checksum());
        // A layer-free grid equals a layered one with the same kinds.
        let mut c = Grid::from_rows(&["...", "@.@"]).unwrap();
        let d = c.clone();
        c.set_terrain(Point::new(0, 0), Terrain::SWAMP).unwrap();
        assert!(c.has_terrain_layer());
        c.set_terrain(Point::new(0, 0), Terrain::GROUND).unwrap();
        assert_eq!(c, d);
        assert_eq!(c.terrain_checksum(), d.terrain_checksum());
    }

    #[test]
    fn revision_names_one_state_of_passability() {
        let mut g = Grid::new(10, 10, true).unwrap();
        let r0 = g.revision();
        assert_eq!(g.revision(), r0, "reading does not change it");
        g.set_passable(Point::new(3, 3), false).unwrap();
        let r1 = g.revision();
        assert_ne!(r1, r0);
        g.set_terrain(Point::new(4, 4), Terrain::WATER).unwrap();
        assert_ne!(g.revision(), r1);
        // A clone has its own stamp but compares equal by content.
        let c = g.clone();
        assert_ne!(c.revision(), g.revision());
        assert_eq!(c, g);
        // Grids made apart never share a stamp, even when alike.
        let (a, b) = (
            Grid::new(5, 5, true).unwrap(),
            Grid::new(5, 5, true).unwrap(),
        );
        assert_ne!(a.revision(), b.revision());
        assert_eq!(a, b);
        let m = Grid::from_rows(&["..", "@."]).unwrap();
        assert!(![r0, r1, c.revision(), a.revision(), b.revision()].contains(&m.revision()));
    }
    /// The journal names every edited cell since any revision the grid
    /// passed through (checked against a list kept here), nothing for the
    /// current one, and `None` for revisions of other grids, of the grid
    /// before a clone, or older than it reaches.
    #[test]
    fn edits_since_lists_every_edit_after_a_revision() {
        let mut g = Grid::new(20, 10, true).unwrap();
        let mut seen = vec![(g.revision(), Vec::new())];
        let mut state = 12345u64;
        for i in 0..300u32 {
            crate::xorshift(&mut state);
            let p = Point::new((state % 20) as u32, (state >> 8) as u32 % 10);
            if i % 3 == 0 {
                g.set_terrain(p, Terrain::SWAMP).unwrap();
            } else {
                g.set_passable(p, i % 2 == 0).unwrap();
            }
            for (_, cells) in &mut seen {
                cells.push(p);
            }
            seen.push((g.revision(), Vec::new()));
        }
        for (r, cells) in &seen {
            assert_eq!(g.edits_since(*r), Some(&cells[..]));
        }
        let other = Grid::new(20, 10, true).unwrap();
        assert_eq!(g.edits_since(other.revision()), None);
        let mut c = g.clone();
        assert_eq!(c.edits_since(g.revision()), None);
        let r = c.revision();
        assert_eq!(c.edits_since(r), Some(&[][..]));
        c.set_passable(Point::new(1, 1), false).unwrap();
        assert_eq!(c.edits_since(r), Some(&[Point::new(1, 1)][..]));
        // Past the cap the oldest edits are forgotten: `None`, never a
        // short list.
        let mut big = Grid::new(8, 8, true).unwrap();
        let r0 = big.revision();
        for i in 0..JOURNAL_CAP + 1 {
            big.set_passable(Point::new(i as u32 % 8, 0), i % 2 == 0)
                .unwrap();
        }
        assert_eq!(big.edits_since(r0), None);
        let r1 = big.revision();
        big.set_passable(Point::new(7, 7), false).unwrap();
        assert_eq!(big.edits_since(r1), Some(&[Point::new(7, 7)][..]));
    }
}
