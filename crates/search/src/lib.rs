//! A* over regionpath grids, with reusable scratch.
//!
//! * [`AStar`] searches the whole grid.
//! * [`JumpPointSearch`] is exact A* over the whole grid that expands only
//!   jump points (usually far fewer nodes): the fastest full-grid search.
//! * [`WindowedAStar`] searches inside a [`Window`] (default 60×60) with
//!   scratch sized to the window, not the map.
//! * [`WindowedJps`] is jump point search inside a window, towards a cell
//!   or a set of cells: the leg planner of the hierarchy.
//!
//! All keep their per-cell scratch between queries and reset it in O(1)
//! (a generation stamp; `AStar`'s fast path offsets each search's costs
//! instead, with one fill of its scratch every 47,000 searches on a 512×512
//! map, 11,000 on a 1024×1024 one), so once warm a query allocates nothing
//! (write the path into a reused `Vec` with the `*_into` methods). Ties on
//! `f` go to the deeper node, which keeps expansions close to the path
//! length on open ground: the heap-based searches pop the smaller heuristic
//! first, `AStar`'s full-grid fast path the entry pushed last (and, in the
//! rare bucket holding two keys, ties in any order).
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

pub use astar::{AStar, WindowedAStar};
pub use cost::{cost_to_f64, distance_cost, octile_cost, Cost, COST_DIAGONAL, COST_ONE};
pub use jps::{JumpPointSearch, WindowedJps};
pub use queue::{OpenEntry, OpenList};
pub use types::{Found, SearchError, SearchOptions, SearchStats, Status};
pub use window::Window;
