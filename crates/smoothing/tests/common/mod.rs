//! Test helpers written independently of the crate, from
//! `regionpath-testkit`: a seeded RNG, random maps, an 8-connected Dijkstra
//! without corner cutting, and exact point/segment-to-square distances in
//! f64.
#![allow(dead_code, unused_imports)]

use regionpath_grid::{Grid, Point};

/// SplitMix64 (`below` is `next % n`, `unit` has 53 bits).
pub use regionpath_testkit::{Rng64, SplitMix64 as Rng};

/// A random map: scattered blocked cells plus a few rectangles.
pub fn random_grid(rng: &mut Rng, w: u32, h: u32, density: f64) -> Grid {
    let mut g = Grid::new(w, h, true).unwrap();
    for y in 0..h {
        for x in 0..w {
            if rng.unit() < density {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    for _ in 0..rng.below(5) {
        let (x0, y0) = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
        let (rw, rh) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
        for y in y0..(y0 + rh).min(h) {
            for x in x0..(x0 + rw).min(w) {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    g
}

/// A cell path from `s` to `t` (8-connected, no corner cutting), each
/// cell costing a random extra in `[0, jitter)`: 0 gives an optimal path,
/// larger values winding but valid paths. Draws `width × height` times
/// `rng.unit()` first.
pub use regionpath_testkit::oracle::jittered_path as dijkstra;

pub use regionpath_testkit::check::cell_path_length;
pub use regionpath_testkit::clearance::{
    blocked, independently_clear, point_clearance, point_seg_dist, point_square_dist,
    seg_clearance, seg_meets_square, seg_square_dist, V,
};

/// A random passable cell (up to 1000 tries).
pub fn random_free(rng: &mut Rng, grid: &Grid) -> Option<Point> {
    regionpath_testkit::maps::random_open(grid, &mut |n| rng.below(n))
}
