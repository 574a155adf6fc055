//! Tile grids for regionpath.
//!
//! * [`Grid`]: passability bit-packed at one bit per cell (with a one-cell
//!   blocked border so neighbour tests need no bounds checks), and terrain
//!   kinds kept at four bits per cell only when a map mixes kinds.
//! * Moving AI `.map` reading and writing ([`map_io`]) and `.scen` reading
//!   ([`scen`]), with typed errors that carry line and column.
//! * Movement profiles ([`Profile`]: a cost per terrain character and a
//!   unit size, from a builder or a TOML file) and the grid as a profile
//!   sees it ([`ProfileGrid`]: usable positions and their cost classes).
//! * Coordinates ([`Point`]), the eight move directions ([`Dir`]),
//!   [`Connectivity`], [`octile`] distance and [`Grid::line_of_sight`].
//!
//! Movement rules (those of the Moving AI benchmarks): a straight step costs
//! 1, a diagonal step costs √2 and is allowed only when both orthogonally
//! adjacent cells are passable (no corner cutting).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod bits;
mod coords;
mod grid;
pub mod map_io;
pub mod profile;
pub mod scen;
mod view;

/// The tests' pseudo-random step (xorshift64): advances `state` and
/// returns it. Its sequences are fixed by the seed, so failures repeat.
#[cfg(test)]
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

pub use bits::transpose64;
pub use coords::{octile, Connectivity, Dir, Point, SQRT2};
pub use grid::{Grid, GridError, Terrain, JOURNAL_CAP, MAX_DIMENSION, MAX_TERRAIN_KINDS};
pub use map_io::{parse_map, parse_map_bytes, read_map, write_map, MapError, MapErrorKind};
pub use profile::{Profile, ProfileBuilder, ProfileError, MAX_COST, MAX_UNIT_SIZE, MIN_COST};
pub use scen::{
    parse_scen, read_scen, LengthPrecision, ScenError, ScenErrorKind, ScenRow, Scenario,
};
pub use view::{PackedClasses, ProfileGrid};
