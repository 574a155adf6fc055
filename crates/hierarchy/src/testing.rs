//! Helpers shared by the crate's unit tests.

use regionpath_grid::{Grid, Point};

/// A reproducible xorshift generator: each call `below(n)` draws from
/// `0..n`.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u32) -> u32 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as u32
    }
}

/// A `w × h` grid whose cells are blocked with probability `density` %
/// (one draw of `below(100)` per cell, row by row).
pub(crate) fn random_grid(
    w: u32,
    h: u32,
    density: u32,
    below: &mut impl FnMut(u32) -> u32,
) -> Grid {
    let mut g = Grid::new(w, h, true).unwrap();
    for y in 0..h {
        for x in 0..w {
            if below(100) < density {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    g
}
