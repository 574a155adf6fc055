//! Jump point search: exact 8-connected A* that skips symmetric paths.
//!
//! Jump point search (Harabor & Grastien, AAAI 2011; the variant without
//! corner cutting and with block-based jumps from their ICAPS 2014 paper)
//! expands only *jump points*: cells where an optimal path may have to turn.
//! Everything between two jump points is one straight or one diagonal run,
//! so the search graph is a small subset of the grid and the result is as
//! short as plain A*'s (an optimal octile path), though it may be a
//! different path of the same length.
//!
//! Rules under the grid's move rules (a diagonal needs both orthogonal
//! cells passable):
//! * A diagonal move has no forced neighbours: its natural successors are
//!   the diagonal and its two straight components.
//! * A straight move, say east into cell `x`, has a forced neighbour north
//!   when the cell north of `x` is passable and the cell north of the cell
//!   behind `x` is blocked (that cell can only be reached well through `x`);
//!   it then also tries the diagonal north-east. Likewise south.
//! * A straight jump stops at the first cell with a forced neighbour (a jump
//!   point), at the goal, or dies at a blocked cell. A diagonal jump stops at
//!   the goal or at the first cell from which one of its straight components
//!   finds a jump point.
//!
//! Straight jumps test 64 cells per step with bit operations: the searcher
//! keeps the grid's passability twice, row-major and column-major (2 bits
//! per cell), so vertical jumps scan words as horizontal ones do.
//!
//! Under a movement profile's terrain costs (`weighted`) the same rules
//! hold wherever a node's 3×3 block is of one cost; every other usable
//! position is a jump point whose expansion tries every move.

mod engine;
mod full_grid;
mod planes;
mod scan;
mod weighted;
mod windowed;

pub use full_grid::JumpPointSearch;
pub use windowed::WindowedJps;
