//! Which sectors hold sealed cells: passable cells in no region (the
//! build drops regions with no move out of their sector; see
//! `build::sectors::sector_data`). One bit per sector, from the grid and
//! the region table, built on build, refreshed for the relabelled sectors
//! on update, and set on load from the popcount the loader's checks make
//! anyway (never stored).

use crate::graph::Region;
use crate::sector::Layout;
use regionpath_grid::Grid;

/// One bit per sector: set when the sector has passable cells that belong
/// to none of its regions. Where it is clear, a cell inside exactly one
/// region's bounding box belongs to that region (no flood needed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SealedSectors {
    bits: Vec<u64>,
}

impl SealedSectors {
    /// Compares each sector's passable cells (counted 64 at a time from
    /// the grid's bits) with the cells of its regions (`first_region[s] ..
    /// first_region[s + 1]` are sector `s`'s). O(cells / 64 + regions).
    pub fn build(grid: &Grid, layout: &Layout, first_region: &[u32], regions: &[Region]) -> Self {
        let n = layout.count();
        let mut sealed = SealedSectors::none(n);
        for s in 0..n as u32 {
            let (lo, hi) = (
                first_region.get(s as usize).copied().unwrap_or(0),
                first_region.get(s as usize + 1).copied().unwrap_or(0),
            );
            sealed.refresh(
                grid,
                layout,
                regions.get(lo as usize..hi as usize).unwrap_or(&[]),
                s,
            );
        }
        sealed
    }

    /// Recomputes sector `s`'s bit (after its cells or regions changed)
    /// from `mine`, its regions. O(sector cells / 64 + its regions).
    pub fn refresh(&mut self, grid: &Grid, layout: &Layout, mine: &[Region], s: u32) {
        let rect = layout.rect(s);
        let mut open = 0u64;
        for y in rect.y0..rect.y1 {
            let mut x = rect.x0;
            while x < rect.x1 {
                let len = (rect.x1 - x).min(64);
                open += grid.row_bits(x, y, len).count_ones() as u64;
                x += len;
            }
        }
        let held: u64 = mine.iter().map(|r| r.cells() as u64).sum();
        self.set(s, open != held);
    }

    /// No sector marked, for `n` sectors.
    pub fn none(n: usize) -> Self {
        SealedSectors {
            bits: vec![0u64; n.div_ceil(64)],
        }
    }

    /// Marks sector `s` as holding sealed cells or not. O(1).
    pub fn set(&mut self, s: u32, sealed: bool) {
        if let Some(w) = self.bits.get_mut(s as usize / 64) {
            let bit = 1u64 << (s % 64);
            if sealed {
                *w |= bit;
            } else {
                *w &= !bit;
            }
        }
    }

    /// Whether sector `s` has passable cells in no region.
    #[inline]
    pub fn contains(&self, s: u32) -> bool {
        self.bits
            .get(s as usize / 64)
            .is_some_and(|w| w >> (s % 64) & 1 != 0)
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.bits.len() * 8
    }
}
