//! Helpers shared by the crate's unit tests: thin adapters over
//! `regionpath-testkit` with the draw-closure signatures the tests use.

use regionpath_grid::Grid;
use regionpath_testkit::maps::{self, EAST_FIRST};
use regionpath_testkit::{Rng64, XorShift64};

/// A reproducible xorshift64 generator (raw seed, `next % n`): each call
/// `below(n)` draws from `0..n`.
pub(crate) fn xorshift(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut rng = XorShift64(seed);
    move |n| rng.below(u64::from(n)) as u32
}

/// A `w × h` grid whose cells are blocked with probability `density` %
/// (one draw of `below(100)` per cell, row by row).
pub(crate) fn random_grid(
    w: u32,
    h: u32,
    density: u32,
    below: &mut impl FnMut(u32) -> u32,
) -> Grid {
    maps::obstacles(w, h, u64::from(density), &mut |n| {
        u64::from(below(n as u32))
    })
}

/// A perfect maze of one-cell corridors (a `(2k − 1) × (2m − 1)` grid for
/// `w = 2k − 1`, `h = 2m − 1`): rooms at even coordinates, joined by a
/// depth-first walk that opens the wall cell between two rooms.
pub(crate) fn maze(w: u32, h: u32, below: &mut impl FnMut(u32) -> u32) -> Grid {
    maps::maze(w, h, false, EAST_FIRST, &mut |n| u64::from(below(n as u32)))
}
