//! Helpers shared by the hierarchy's integration tests, from
//! `regionpath-testkit` (written for the tests: only `Grid`'s size and
//! passability are read from the library): the Dijkstra oracle, the
//! passable cells of a grid, a maze generator and the Moving AI folder.

// Each test binary uses its own subset.
#![allow(dead_code, unused_imports)]

use regionpath_grid::Grid;
use regionpath_testkit::maps::{self, WEST_FIRST};

/// √2, the cost of a diagonal step.
pub const SQRT2: f64 = std::f64::consts::SQRT_2;

/// The cost from a start to every cell (infinite where unreachable),
/// indexed `y * width + x`.
pub use regionpath_testkit::oracle::distances as dijkstra;
pub use regionpath_testkit::{legal, open, passable_cells};

/// A maze of one-cell corridors (cells at odd coordinates, carved by a
/// randomized depth-first search), with up to `loops` extra walls knocked
/// out: many small regions per sector whose bounding boxes overlap, as on
/// the Moving AI mazes. `below(n)` is the caller's random number below `n`.
pub fn maze_grid(below: &mut impl FnMut(u64) -> u64, w: u32, h: u32, loops: u32) -> Grid {
    let mut g = maps::maze(w, h, true, WEST_FIRST, below);
    maps::knock_through(&mut g, loops, below);
    g
}

/// The Moving AI folder: `$REGIONPATH_MOVINGAI`, else `shared/movingai`
/// beside the workspace.
pub fn movingai_dir() -> std::path::PathBuf {
    match std::env::var_os("REGIONPATH_MOVINGAI") {
        Some(d) => std::path::PathBuf::from(d),
        None => {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai")
        }
    }
}
