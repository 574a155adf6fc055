//! The generator's cell store and the two map families, bit-packed: one
//! bit per cell (a 32,768² map is 128 MiB), every step a pass over rows of
//! 64-cell words.

use crate::error::CliError;
use crate::rng::SplitMix64;
use indicatif::ProgressBar;
use regionpath::grid::Grid;

/// Open (passable) flags, one bit per cell, row-major: bit `x % 64` of word
/// `y * words + x / 64`. Bits past the width are always clear.
pub struct Bits {
    width: u32,
    height: u32,
    words: usize,
    data: Vec<u64>,
}

/// The low `n` bits set (`n` up to 64).
fn low(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl Bits {
    /// A `width × height` store, all open when `open`, else all rock.
    pub fn new(width: u32, height: u32, open: bool) -> Bits {
        let words = (width as usize).div_ceil(64);
        let mut b = Bits {
            width,
            height,
            words,
            data: vec![0; words * height as usize],
        };
        if open {
            for y in 0..height {
                b.set_span(y, 0, width, true);
            }
        }
        b
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Words per row.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Bytes held by the cells: what a store of this size costs.
    pub fn bytes_for(width: u32, height: u32) -> u64 {
        (u64::from(width).div_ceil(64)) * 8 * u64::from(height)
    }

    /// The words of row `y`.
    pub fn row(&self, y: u32) -> &[u64] {
        let s = y as usize * self.words;
        &self.data[s..s + self.words]
    }

    /// The words of row `y`, to write (bits past the width must stay clear).
    pub fn row_mut(&mut self, y: u32) -> &mut [u64] {
        let s = y as usize * self.words;
        &mut self.data[s..s + self.words]
    }

    /// Whether `(x, y)` is open; outside the map counts as rock.
    pub fn is_open(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < i64::from(self.width)
            && y < i64::from(self.height)
            && self.data[y as usize * self.words + x as usize / 64] >> (x % 64) & 1 == 1
    }

    /// Sets one cell.
    pub fn set(&mut self, x: u32, y: u32, open: bool) {
        self.set_span(y, x, x + 1, open);
    }

    /// Sets cells `x0..x1` of row `y` (clamped to the width).
    pub fn set_span(&mut self, y: u32, x0: u32, x1: u32, open: bool) {
        let x1 = x1.min(self.width) as usize;
        let mut x = x0 as usize;
        let row = y as usize * self.words;
        while x < x1 {
            let (k, o) = (x / 64, x % 64);
            let n = (64 - o).min(x1 - x);
            let m = low(n) << o;
            if open {
                self.data[row + k] |= m;
            } else {
                self.data[row + k] &= !m;
            }
            x += n;
        }
    }

    /// Clears every cell.
    pub fn clear(&mut self) {
        self.data.iter_mut().for_each(|w| *w = 0);
    }

    /// Open cells.
    pub fn count(&self) -> u64 {
        self.data.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// The map as a [`Grid`] (`.` open, `@` rock), O(cells / 64).
    pub fn to_grid(&self) -> Result<Grid, CliError> {
        Grid::from_row_bits(self.width, self.height, |y, out| {
            out.copy_from_slice(self.row(y))
        })
        .map_err(|e| CliError::Usage(e.to_string()))
    }
}

/// ORs the first `len` bits of `src` into `out` from bit `pos` on (`out`
/// must hold them).
pub fn put_bits(out: &mut [u64], pos: usize, src: &[u64], len: usize) {
    for (j, &word) in src.iter().enumerate() {
        if j * 64 >= len {
            break;
        }
        let n = (len - j * 64).min(64);
        let v = word & low(n);
        let at = pos + j * 64;
        let (i, o) = (at / 64, at % 64);
        out[i] |= v << o;
        if o != 0 && n > 64 - o {
            out[i + 1] |= v >> (64 - o);
        }
    }
}

/// Wall-line positions along one axis of `n` cells: every `pitch` cells and
/// the last cell, with no room narrower than 3 cells.
pub fn wall_lines(n: u32, pitch: u32) -> Vec<u32> {
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

/// The rooms map (see the module documentation of `generate`): the wall
/// lattice is one row template copied to every row, doors and obstacles
/// are spans, so the cost is O(cells / 64) plus O(rooms).
pub fn rooms(width: u32, height: u32, seed: u64) -> Bits {
    let mut rng = SplitMix64::new(seed);
    let pitch = (width.min(height) / 16).clamp(6, 64);
    let xs = wall_lines(width, pitch);
    let ys = wall_lines(height, pitch);
    let mut c = Bits::new(width, 1, true);
    for &x in &xs {
        c.set(x, 0, false);
    }
    let template = c.row(0).to_vec();
    let mut c = Bits::new(width, height, false);
    for y in 0..height {
        c.row_mut(y).copy_from_slice(&template);
    }
    for &y in &ys {
        c.set_span(y, 0, width, false);
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
        if vertical {
            for k in at..at + door {
                c.set(xs[i + 1], k, true);
            }
        } else {
            c.set_span(ys[j + 1], at, at + door, true);
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
                    c.set_span(yy, x, x + w, false);
                }
            }
        }
    }
    c
}

/// Adds the bit vector `x` (one bit per lane) into the bit-sliced counters
/// `planes` (plane `i` holds bit `i` of each lane's count).
#[inline]
fn add(planes: &mut [u64], x: u64) {
    let mut carry = x;
    for p in planes {
        let t = *p & carry;
        *p ^= carry;
        carry = t;
    }
}

/// The cells `dx` columns away, at each cell's bit: bit `j` of the result
/// is cell `64k + j + dx` of `row` (outside the row: rock).
#[inline]
fn shifted(row: &[u64], k: usize, dx: i32) -> u64 {
    let w = row[k];
    match dx {
        0 => w,
        d if d > 0 => {
            let d = d as u32;
            let next = row.get(k + 1).copied().unwrap_or(0);
            (w >> d) | (next << (64 - d))
        }
        d => {
            let d = (-d) as u32;
            let prev = if k > 0 { row[k - 1] } else { 0 };
            (w << d) | (prev >> (64 - d))
        }
    }
}

/// One cellular-automaton round, in place, on the inner cells (the border
/// becomes rock): a cell stays open where at least 5 of its 3×3 block is
/// open (rock where at least 5 is rock), and, with `fill_gaps`, turns rock
/// where at least 23 of its 5×5 block is open (at most 2 rock). Counts are
/// bit-sliced, 64 cells per word operation; the old rows the next ones
/// still need are kept in a ring of `r + 1` row copies (`r` the block
/// radius), so the round costs O(cells / 64) and O(width) extra memory.
pub fn automaton_round(c: &mut Bits, fill_gaps: bool) {
    let (width, height, words) = (c.width, c.height, c.words);
    if width < 3 || height < 3 {
        for y in 0..height {
            c.row_mut(y).iter_mut().for_each(|w| *w = 0);
        }
        return;
    }
    let r: usize = if fill_gaps { 2 } else { 1 };
    // Inner columns 1..width - 1.
    let mut inner = vec![0u64; words];
    for (k, m) in inner.iter_mut().enumerate() {
        for j in 0..64 {
            let x = k * 64 + j;
            if x >= 1 && x + 1 < width as usize {
                *m |= 1 << j;
            }
        }
    }
    // ring[y % (r + 1)]: old row y, for the rows y - r ..= y.
    let mut ring = vec![vec![0u64; words]; r + 1];
    let zero = vec![0u64; words];
    let mut out = vec![0u64; words];
    for y in 0..height as usize {
        ring[y % (r + 1)].copy_from_slice(c.row(y as u32));
        if y == 0 || y + 1 == height as usize {
            c.row_mut(y as u32).iter_mut().for_each(|w| *w = 0);
            continue;
        }
        for (k, o) in out.iter_mut().enumerate() {
            let mut near = [0u64; 4];
            let mut far = [0u64; 5];
            for dy in -(r as i64)..=r as i64 {
                let yy = y as i64 + dy;
                let row: &[u64] = if yy < 0 || yy >= i64::from(height) {
                    &zero
                } else if dy <= 0 {
                    &ring[yy as usize % (r + 1)]
                } else {
                    c.row(yy as u32)
                };
                for dx in -(r as i32)..=r as i32 {
                    let v = shifted(row, k, dx);
                    if dy.abs() <= 1 && dx.abs() <= 1 {
                        add(&mut near, v);
                    }
                    if fill_gaps {
                        add(&mut far, v);
                    }
                }
            }
            // Open count of the 3×3 block at least 5.
            let keep = near[3] | (near[2] & (near[1] | near[0]));
            // Open count of the 5×5 block at least 23 (= 16 + 7).
            let gaps = far[4] & (far[3] | (far[2] & far[1] & far[0]));
            *o = keep & !gaps & inner[k];
        }
        c.row_mut(y as u32).copy_from_slice(&out);
    }
}

/// Copies `coarse` (one bit per `scale × scale` block) into row `out`,
/// each bit repeated `scale` times, through `table` (a byte's 8 bits each
/// repeated `scale` times). `out` must be zeroed.
fn expand_row(coarse: &[u64], scale: usize, table: &[u64; 256], out: &mut [u64]) {
    let per = 8 * scale;
    let total = out.len() * 64;
    let mut pos = 0;
    for &w in coarse {
        for b in 0..8 {
            if pos >= total {
                return;
            }
            let v = table[((w >> (8 * b)) & 0xFF) as usize];
            let (i, o) = (pos / 64, pos % 64);
            out[i] |= v << o;
            if o + per > 64 && i + 1 < out.len() {
                out[i + 1] |= v >> (64 - o);
            }
            pos += per;
        }
    }
}

/// The caves map (see the module documentation of `generate`). `bar`
/// counts the automaton rounds (7 coarse, 3 at full size when scaled).
pub fn caves(width: u32, height: u32, seed: u64, bar: &ProgressBar) -> Bits {
    let mut rng = SplitMix64::new(seed);
    // Run the automaton on a coarse lattice so caverns and passages are a
    // few cells wide on big maps, then scale up and round the corners.
    let scale = (width.min(height) / 64).clamp(1, 4);
    let (cw, ch) = (width.div_ceil(scale), height.div_ceil(scale));
    let mut coarse = Bits::new(cw, ch, false);
    for y in 1..ch.saturating_sub(1) {
        for x in 1..cw.saturating_sub(1) {
            coarse.set(x, y, !rng.chance(0.45));
        }
    }
    for round in 0..7 {
        automaton_round(&mut coarse, round < 4);
        bar.inc(1);
    }
    let s = scale as usize;
    let mut table = [0u64; 256];
    for (byte, t) in table.iter_mut().enumerate() {
        for j in 0..8 {
            if byte >> j & 1 == 1 {
                *t |= low(s) << (j * s);
            }
        }
    }
    let mut c = Bits::new(width, height, false);
    let words = c.words;
    let mut row = vec![0u64; words];
    let mut inner = vec![0u64; words];
    {
        let mut m = Bits::new(width, 1, false);
        m.set_span(0, 1, width - 1, true);
        inner.copy_from_slice(m.row(0));
    }
    let mut made = u32::MAX;
    for y in 1..height - 1 {
        let cy = y / scale;
        if cy != made {
            row.iter_mut().for_each(|w| *w = 0);
            expand_row(coarse.row(cy), s, &table, &mut row);
            for (w, m) in row.iter_mut().zip(&inner) {
                *w &= m;
            }
            made = cy;
        }
        c.row_mut(y).copy_from_slice(&row);
    }
    drop(coarse);
    if scale > 1 {
        for _ in 0..3 {
            automaton_round(&mut c, false);
            bar.inc(1);
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The automaton cell by cell, as the rule reads (the oracle).
    fn naive_round(c: &Bits, fill_gaps: bool) -> Bits {
        let rock_within = |x: i64, y: i64, r: i64| {
            let mut n = 0;
            for dy in -r..=r {
                for dx in -r..=r {
                    n += u32::from(!c.is_open(x + dx, y + dy));
                }
            }
            n
        };
        let mut next = Bits::new(c.width, c.height, false);
        for y in 1..c.height.saturating_sub(1) {
            for x in 1..c.width.saturating_sub(1) {
                let (xi, yi) = (i64::from(x), i64::from(y));
                let rock =
                    rock_within(xi, yi, 1) >= 5 || (fill_gaps && rock_within(xi, yi, 2) <= 2);
                next.set(x, y, !rock);
            }
        }
        next
    }

    fn random(width: u32, height: u32, seed: u64, p: f64) -> Bits {
        let mut rng = SplitMix64::new(seed);
        let mut c = Bits::new(width, height, false);
        for y in 0..height {
            for x in 0..width {
                c.set(x, y, rng.chance(p));
            }
        }
        c
    }

    #[test]
    fn bit_parallel_rounds_match_the_cell_by_cell_rule() {
        for (w, h) in [
            (3, 3),
            (8, 5),
            (63, 9),
            (64, 7),
            (65, 12),
            (130, 40),
            (200, 3),
        ] {
            for (seed, p) in [(1, 0.55), (2, 0.8), (3, 0.95)] {
                for fill in [false, true] {
                    let mut fast = random(w, h, seed, p);
                    let want = naive_round(&fast, fill);
                    automaton_round(&mut fast, fill);
                    assert_eq!(fast.data, want.data, "{w}x{h} seed {seed} fill {fill}");
                }
            }
        }
    }

    #[test]
    fn expanded_rows_repeat_each_coarse_cell() {
        for scale in 1..=4usize {
            let coarse = random(150, 1, scale as u64, 0.5);
            let mut table = [0u64; 256];
            for (byte, t) in table.iter_mut().enumerate() {
                for j in 0..8 {
                    if byte >> j & 1 == 1 {
                        *t |= low(scale) << (j * scale);
                    }
                }
            }
            let width = 150 * scale as u32 - 1;
            let mut fine = Bits::new(width, 1, false);
            let mut row = vec![0u64; fine.words];
            expand_row(coarse.row(0), scale, &table, &mut row);
            if let Some(w) = row.last_mut() {
                *w &= low(width as usize % 64);
            }
            fine.row_mut(0).copy_from_slice(&row);
            for x in 0..width {
                assert_eq!(
                    fine.is_open(i64::from(x), 0),
                    coarse.is_open(i64::from(x) / scale as i64, 0),
                    "scale {scale} x {x}"
                );
            }
        }
    }

    #[test]
    fn spans_set_and_clear_across_words() {
        let mut b = Bits::new(200, 2, false);
        b.set_span(1, 3, 190, true);
        b.set_span(1, 60, 70, false);
        for x in 0..200 {
            let want = (3..190).contains(&x) && !(60..70).contains(&x);
            assert_eq!(b.is_open(x, 1), want, "{x}");
            assert!(!b.is_open(x, 0));
        }
        assert_eq!(b.count(), 187 - 10);
        let full = Bits::new(130, 3, true);
        assert_eq!(full.count(), 390);
        assert!(full.row(0)[2] >> 2 == 0, "bits past the width stay clear");
    }
}
