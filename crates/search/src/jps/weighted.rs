//! Jump point search under a movement profile's terrain costs.
//!
//! Jump point search prunes a node's moves by comparing paths inside the
//! node's 3×3 block, which holds only where every usable position of the
//! block costs the same. So a position with a usable neighbour of another
//! cost class is a *terrain boundary*: jumps stop there (it becomes a jump
//! point) and its expansion tries every legal move, as at the start. Away
//! from boundaries the search is the uniform one, each jump priced at the
//! class it runs through: a jump leaves its first cell only if that cell's
//! block is uniform, so every later step joins two positions of the first
//! cell's class. The costs are the fixed-point step table of the A*
//! ([`StepTable`](crate::StepTable)) summed step by step, so a path's cost
//! is exactly the weighted A*'s for the same cells. (Jump point search on
//! weighted grids is the subject of Carlson et al., AAAI 2023; this is its
//! plainest form, a jump point wherever the cost changes.)

use super::engine::JumpCosts;
use super::planes::Planes;
use super::scan::Target;
use crate::astar::Table;
use crate::cost::Cost;
use crate::window::Window;
use regionpath_grid::{PackedClasses, ProfileGrid, MAX_TERRAIN_KINDS};

/// Per-search terrain scratch: the usable positions of the window by
/// class and the boundary cells, as bit planes. Reused across searches;
/// O(window area) to fill.
#[derive(Default)]
pub(super) struct Terrain {
    /// Per class, the usable positions of that class, as row planes.
    eq: Vec<u64>,
    /// Scratch: one row plane.
    near: Vec<u64>,
    pub(super) boundary: Planes,
}

impl Terrain {
    pub(super) fn bytes(&self) -> usize {
        (self.eq.capacity() + self.near.capacity()) * 8 + self.boundary.bytes()
    }

    /// Reads the classes of `view` at the usable cells of `planes` (the
    /// window `window`, loaded) and marks the boundaries in the row plane
    /// (the column plane follows in [`Terrain::columns`]): a usable position
    /// with a usable 8-neighbour of another class. Per row and class, bit
    /// operations: a position of class `c` is a boundary when the 3×3
    /// dilation of the row's usable positions of other classes covers it.
    /// O(rows × words × classes), plus O(usable positions) for a view on
    /// the map's kind codes with more than 4 classes.
    pub(super) fn fill(&mut self, view: &ProfileGrid, planes: &Planes, window: Window) {
        // Classes stored as such split from whole words. The map's own kind
        // codes (up to 16, mapped to classes) go through a byte table into
        // 2-bit classes where there are at most 4 classes, else a position
        // at a time: testing every code on every word measured dearer
        // (P82).
        let packed = view.packed_classes();
        match (packed.bits_log(), packed.is_mapped()) {
            (0, _) => self.fill_with::<0, WORDS>(view, planes, window),
            (1, _) => self.fill_with::<1, WORDS>(view, planes, window),
            (_, false) => self.fill_with::<2, WORDS>(view, planes, window),
            (_, true) if view.class_costs().len() <= 4 => {
                self.fill_with::<2, KIND_PAIRS>(view, planes, window)
            }
            (_, true) => self.fill_with::<2, POSITIONS>(view, planes, window),
        }
    }

    fn fill_with<const BITS_LOG: u32, const HOW: u8>(
        &mut self,
        view: &ProfileGrid,
        planes: &Planes,
        window: Window,
    ) {
        let h = window.height as usize;
        let n = view.class_costs().len().clamp(1, MAX_TERRAIN_KINDS);
        let rw = planes.row_words;
        let lines = (h + 2) * rw;
        // `eq[c * lines + py * rw + wi]`: the usable positions of class c.
        self.eq.clear();
        self.eq.resize(n * lines, 0);
        let stride = view.grid().stride();
        let packed = view.packed_classes();
        // For `WORDS`: the stored values of a class other than 0, with
        // their classes; class 0 is what the others leave of the usable
        // positions.
        let mut values = [(0u8, 0u8); MAX_TERRAIN_KINDS];
        let mut count = 0;
        if HOW == WORDS {
            for v in 0..(1u8 << (1 << BITS_LOG)).min(MAX_TERRAIN_KINDS as u8) {
                let c = packed.class_of_value(v);
                if c != 0 && (c as usize) < n {
                    values[count] = (v, c);
                    count += 1;
                }
            }
        }
        let values = &values[..count];
        // For `KIND_PAIRS`: per byte of two kind codes, their classes (at
        // most 4) at 2 bits each.
        let mut pairs = [0u8; 256];
        if HOW == KIND_PAIRS {
            for (b, t) in pairs.iter_mut().enumerate() {
                let lo = packed.class_of_value(b as u8 & 15) & 3;
                let hi = packed.class_of_value((b >> 4) as u8) & 3;
                *t = lo | hi << 2;
            }
        }
        let per = 64 >> BITS_LOG;
        for py in 1..=h {
            let gi0 = (window.y as usize + py) * stride + window.x as usize;
            for wi in 0..rw {
                let usable = planes.rows[py * rw + wi];
                if usable == 0 {
                    continue;
                }
                let i0 = gi0 + (wi << 6);
                if HOW == KIND_PAIRS {
                    // Two kind codes per byte through the table, into 2-bit
                    // classes, then split like stored classes.
                    let xs = [
                        packed.pairs_through(i0, &pairs),
                        packed.pairs_through(i0 + 32, &pairs),
                    ];
                    let mut rest = usable;
                    for c in 1..n.min(4) {
                        let a = (equal_values::<1>(xs[0], c as u8)
                            | equal_values::<1>(xs[1], c as u8) << 32)
                            & usable;
                        self.eq[c * lines + py * rw + wi] = a;
                        rest &= !a;
                    }
                    self.eq[py * rw + wi] = rest;
                    continue;
                }
                if HOW == POSITIONS {
                    let (mut bits, mut acc) = (usable, [0u64; MAX_TERRAIN_KINDS]);
                    while bits != 0 {
                        let b = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let v = packed.get::<BITS_LOG>(i0 + b);
                        acc[packed.class_of_value(v) as usize & (MAX_TERRAIN_KINDS - 1)] |= 1 << b;
                    }
                    for (c, &a) in acc.iter().enumerate().take(n) {
                        self.eq[c * lines + py * rw + wi] = a;
                    }
                    continue;
                }
                let mut xs = [0u64; 4];
                for (j, x) in xs.iter_mut().enumerate().take(1 << BITS_LOG) {
                    *x = packed.chunk::<BITS_LOG>(i0 + j * per);
                }
                let mut acc = [0u64; MAX_TERRAIN_KINDS];
                for &(v, c) in values {
                    let mut m = 0;
                    for (j, &x) in xs.iter().enumerate().take(1 << BITS_LOG) {
                        m |= equal_values::<BITS_LOG>(x, v) << (j * per);
                    }
                    acc[c as usize & (MAX_TERRAIN_KINDS - 1)] |= m;
                }
                let mut rest = usable;
                for (c, &a) in acc.iter().enumerate().take(n).skip(1) {
                    let a = a & usable;
                    self.eq[c * lines + py * rw + wi] = a;
                    rest &= !a;
                }
                self.eq[py * rw + wi] = rest;
            }
        }
        self.boundary.reset(window.width, window.height);
        // For each class, the usable positions of other classes, dilated by
        // one cell in every direction, cut to the class's own positions.
        self.near.clear();
        self.near.resize(lines, 0);
        for c in 0..n {
            let eq = &self.eq[c * lines..(c + 1) * lines];
            if eq.iter().all(|&b| b == 0) {
                continue;
            }
            // Horizontal dilation of the others, row by row.
            for py in 0..h + 2 {
                let mut carry_in = 0u64;
                for wi in 0..rw {
                    let i = py * rw + wi;
                    let other = planes.rows[i] & !eq[i];
                    let next = if wi + 1 < rw {
                        planes.rows[i + 1] & !eq[i + 1]
                    } else {
                        0
                    };
                    self.near[i] = other | (other << 1) | carry_in | (other >> 1) | (next << 63);
                    carry_in = other >> 63;
                }
            }
            // Vertical dilation, cut to the class.
            for py in 1..=h {
                for wi in 0..rw {
                    let i = py * rw + wi;
                    let near = self.near[i - rw] | self.near[i] | self.near[i + rw];
                    self.boundary.rows[i] |= eq[i] & near;
                }
            }
        }
    }

    /// Completes the boundary planes with their column plane, for the
    /// vertical jumps; after [`Terrain::fill`], only when jumps will run.
    pub(super) fn columns(&mut self) {
        self.boundary.transpose();
    }

    /// The jump costs of the window `window` of `view` (after
    /// [`Terrain::fill`]), with the class-indexed step table `table`.
    /// `BITS_LOG` must be the view's [`PackedClasses::bits_log`].
    pub(super) fn jumps<'a, const BITS_LOG: u32>(
        &'a self,
        view: &'a ProfileGrid,
        window: Window,
        table: &'a Table,
    ) -> TerrainJumps<'a, BITS_LOG> {
        let stride = view.grid().stride();
        TerrainJumps {
            classes: view.packed_classes(),
            origin: window.y as usize * stride + window.x as usize,
            stride,
            boundary: &self.boundary,
            table,
        }
    }
}

/// How [`Terrain::fill`] splits a window row into classes: whole words of
/// stored classes.
const WORDS: u8 = 0;
/// Kind codes (4 bits, at most 4 classes) two at a time through a byte
/// table into 2-bit classes, then as words.
const KIND_PAIRS: u8 = 1;
/// A usable position at a time.
const POSITIONS: u8 = 2;

/// The values of `x` (packed `1 << BITS_LOG` bits each, as
/// [`PackedClasses::chunk`] gives them) equal to `v`, one bit per value:
/// bit `j` for value `j`. Word operations, no branch per value.
#[inline(always)]
fn equal_values<const BITS_LOG: u32>(x: u64, v: u8) -> u64 {
    const EVERY_2: u64 = 0x5555_5555_5555_5555;
    const EVERY_4: u64 = 0x1111_1111_1111_1111;
    match BITS_LOG {
        0 => {
            if v & 1 != 0 {
                x
            } else {
                !x
            }
        }
        1 => {
            let y = x ^ (u64::from(v & 3) * EVERY_2);
            // Bit 2j set where value j is v; gathered to bit j.
            let mut m = !(y | y >> 1) & EVERY_2;
            m = (m | m >> 1) & 0x3333_3333_3333_3333;
            m = (m | m >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
            m = (m | m >> 4) & 0x00ff_00ff_00ff_00ff;
            m = (m | m >> 8) & 0x0000_ffff_0000_ffff;
            (m | m >> 16) & 0xffff_ffff
        }
        _ => {
            let y = x ^ (u64::from(v & 15) * EVERY_4);
            let t = y | y >> 1;
            // Bit 4j set where value j is v; gathered to bit j.
            let mut m = !(t | t >> 2) & EVERY_4;
            m = (m | m >> 3) & 0x0303_0303_0303_0303;
            m = (m | m >> 6) & 0x000f_000f_000f_000f;
            m = (m | m >> 12) & 0x0000_00ff_0000_00ff;
            (m | m >> 24) & 0xffff
        }
    }
}

/// [`JumpCosts`] over a window's classes and boundaries. Classes are read
/// from the view where a jump starts (two per jump), at their packed width
/// `1 << BITS_LOG` bits (compiled once per width).
pub(super) struct TerrainJumps<'a, const BITS_LOG: u32> {
    classes: PackedClasses<'a>,
    /// The grid's padded index of the window's padded `(0, 0)`.
    origin: usize,
    stride: usize,
    boundary: &'a Planes,
    table: &'a Table,
}

impl<const BITS_LOG: u32> TerrainJumps<'_, BITS_LOG> {
    #[inline(always)]
    fn class(&self, px: usize, py: usize) -> usize {
        let i = self.origin + py * self.stride + px;
        self.classes.class_of_value(self.classes.get::<BITS_LOG>(i)) as usize
    }
}

impl<const BITS_LOG: u32> JumpCosts for TerrainJumps<'_, BITS_LOG> {
    const BUCKETS: bool = true;

    #[inline]
    fn full(&self, px: usize, py: usize) -> bool {
        self.boundary.open(px, py)
    }

    #[inline(always)]
    fn cost(&self, px: usize, py: usize, dx: i32, dy: i32, steps: Cost) -> Cost {
        let diagonal = (dx != 0 && dy != 0) as usize;
        let from = self.class(px, py);
        let to = self.class(
            (px as isize + dx as isize) as usize,
            (py as isize + dy as isize) as usize,
        );
        let t = &self.table[diagonal];
        t[from][to] + (steps - 1) * t[to][to]
    }
}

/// Where jumps stop under terrain: the goal's cells and the boundaries.
pub(super) struct Stops<'a, T> {
    pub(super) goal: &'a T,
    pub(super) boundary: &'a Planes,
}

impl<T: Target> Target for Stops<'_, T> {
    #[inline]
    fn word(&self, vertical: bool, line: usize, wi: usize) -> u64 {
        let b = if vertical {
            self.boundary.cols[line * self.boundary.col_words + wi]
        } else {
            self.boundary.rows[line * self.boundary.row_words + wi]
        };
        self.goal.word(vertical, line, wi) | b
    }

    #[inline]
    fn is_goal(&self, px: usize, py: usize) -> bool {
        self.goal.is_goal(px, py) || self.boundary.open(px, py)
    }
}

#[cfg(test)]
mod tests {
    use super::equal_values;

    /// `equal_values` against a value-by-value comparison, for every width
    /// and value, on random words and on words of one repeated value.
    #[test]
    fn equal_values_marks_exactly_the_equal_values() {
        fn check<const B: u32>(x: u64) {
            let per = 64 >> B;
            let mask = (1u64 << (1 << B)) - 1;
            for v in 0..=mask {
                let mut want = 0u64;
                for j in 0..per {
                    if (x >> (j << B)) & mask == v {
                        want |= 1 << j;
                    }
                }
                assert_eq!(equal_values::<B>(x, v as u8), want, "bits {B}, {x:#x}, {v}");
            }
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = match round % 4 {
                0 => seed,
                1 => seed & seed >> 1,
                2 => (seed & 15) * 0x1111_1111_1111_1111,
                _ => (seed & 3) * 0x5555_5555_5555_5555,
            };
            check::<0>(x);
            check::<1>(x);
            check::<2>(x);
        }
    }
}
