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
    /// O(usable positions + rows × words × classes).
    pub(super) fn fill(&mut self, view: &ProfileGrid, planes: &Planes, window: Window) {
        match view.packed_classes().bits_log() {
            0 => self.fill_with::<0>(view, planes, window),
            1 => self.fill_with::<1>(view, planes, window),
            _ => self.fill_with::<2>(view, planes, window),
        }
    }

    fn fill_with<const BITS_LOG: u32>(
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
        for py in 1..=h {
            let gi0 = (window.y as usize + py) * stride + window.x as usize;
            for wi in 0..rw {
                let mut bits = planes.rows[py * rw + wi];
                if bits == 0 {
                    continue;
                }
                let mut acc = [0u64; MAX_TERRAIN_KINDS];
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let v = packed.get::<BITS_LOG>(gi0 + (wi << 6) + b);
                    acc[packed.class_of_value(v) as usize & (MAX_TERRAIN_KINDS - 1)] |= 1 << b;
                }
                for (c, &a) in acc.iter().enumerate().take(n) {
                    self.eq[c * lines + py * rw + wi] = a;
                }
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
