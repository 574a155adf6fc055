//! A* and jump point search over regionpath grids, with reusable scratch.
//!
//! * [`AStar`] searches the whole grid; [`JumpPointSearch`] does too, exact
//!   and usually with far fewer expansions (it expands only jump points).
//! * [`WindowedAStar`] and [`WindowedJps`] search inside a [`Window`]
//!   (default 60×60) with scratch sized to the window, not the map;
//!   [`WindowedJps`] also searches towards a set of cells through a corridor
//!   mask (the hierarchy's leg search).
//!
//! Every searcher keeps its scratch between queries and resets it in O(1),
//! so a warm query allocates nothing when it writes into a reused `Vec`
//! (the `*_into` methods). Costs are fixed point ([`Cost`]), so equal-length
//! paths tie exactly; ties on `f` go to the deeper node (the heap searches
//! pop the smaller heuristic first, the full-grid A* fast path the newest
//! entry), which keeps expansions near the path length on open ground.
//!
//! Code map (a module imports only modules listed before it; the test
//! `tests/tidy.rs` keeps it so):
//!
//! * `cost`: fixed-point costs ([`Cost`], [`octile_cost`], ...).
//! * `window`: the [`Window`] rectangle.
//! * `types`: what searches take and return ([`SearchOptions`], [`Status`],
//!   [`SearchStats`], [`Found`], [`SearchError`]).
//! * `moves`: direction tables (deltas, step costs, moves a window allows).
//! * `queue/`: priority queues: `heap` ([`OpenList`]), `bucket` and `radix`
//!   (the fast path's bucket queue and its fine level), `chunks` (their
//!   arena).
//! * `astar/`: `mod` ([`AStar`]), `windowed` ([`WindowedAStar`]), `engine`
//!   (the generic heap-based A* both use), `dense` (the full-grid fast path
//!   for the default options), `successors` (its pruning table).
//! * `jps/`: `full_grid` ([`JumpPointSearch`]), `windowed` ([`WindowedJps`]),
//!   `engine` (the search loop both use), `scan` (jumps), `planes` (the
//!   bit planes they scan).
//!
//! ```
//! use regionpath_grid::{Grid, Point};
//! use regionpath_search::{AStar, Status};
//!
//! let grid = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
//! let mut astar = AStar::new();
//! let found = astar.find_path(&grid, Point::new(0, 1), Point::new(3, 1)).unwrap();
//! assert_eq!(found.status, Status::Found);
//! assert_eq!(found.cost, 5.0); // round the wall: no corner cutting
//! assert_eq!(found.path.len(), 6);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod astar;
mod cost;
mod jps;
mod moves;
mod queue;
#[cfg(test)]
mod testing;
mod types;
mod window;

pub use astar::{weighted_path_cost, AStar, StepTable, WindowedAStar};
pub use cost::{cost_to_f64, distance_cost, octile_cost, Cost, COST_DIAGONAL, COST_ONE};
pub use jps::{JumpPointSearch, WindowedJps};
pub use queue::{OpenEntry, OpenList};
pub use types::{Found, SearchError, SearchOptions, SearchStats, Status};
pub use window::Window;
