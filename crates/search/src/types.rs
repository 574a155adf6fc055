//! What searches take and return: options, status, statistics, the owned
//! result and input errors.

use crate::window::Window;
use regionpath_grid::{Connectivity, Point, SQRT2};
use thiserror::Error;

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchOptions {
    /// 4- or 8-connected moves (default 8, no corner cutting).
    pub connectivity: Connectivity,
    /// Stop after expanding this many nodes and return
    /// [`Status::BudgetExhausted`] with the best partial path.
    pub node_budget: Option<u32>,
    /// Heuristic weight `w` in `f = g + w·h`; 1.0 (the default) is optimal,
    /// larger trades path length for speed. Must be finite and ≥ 0.
    pub heuristic_weight: f64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            connectivity: Connectivity::Eight,
            node_budget: None,
            heuristic_weight: 1.0,
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The path reaches the goal.
    Found,
    /// The node budget ran out; the path ends at the expanded node nearest
    /// the goal by heuristic (a partial path toward it).
    BudgetExhausted,
    /// The goal cannot be reached (inside the window, for windowed search).
    /// The path is empty.
    NoPath,
}

/// What a search reports besides the path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchStats {
    /// How the search ended.
    pub status: Status,
    /// Cost of the returned path (straight steps 1, diagonal √2), 0 when
    /// empty.
    pub cost: f64,
    /// Nodes expanded.
    pub expanded: u32,
}

impl SearchStats {
    /// A search that found no path after `expanded` expansions.
    pub(crate) fn no_path(expanded: u32) -> SearchStats {
        SearchStats {
            status: Status::NoPath,
            cost: 0.0,
            expanded,
        }
    }

    /// A search that found a path of `straight` straight and `diagonal`
    /// diagonal steps after `expanded` expansions.
    pub(crate) fn found(straight: u64, diagonal: u64, expanded: u32) -> SearchStats {
        SearchStats {
            status: Status::Found,
            cost: straight as f64 + diagonal as f64 * SQRT2,
            expanded,
        }
    }
}

/// A search result with an owned path.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// How the search ended.
    pub status: Status,
    /// The cells from start to goal (or to the best partial end), inclusive.
    pub path: Vec<Point>,
    /// Cost of `path`.
    pub cost: f64,
    /// Nodes expanded.
    pub expanded: u32,
}

/// Bad search input.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SearchError {
    /// The start lies outside the grid.
    #[error("start {0} is outside the grid")]
    StartOutOfBounds(Point),
    /// The goal lies outside the grid.
    #[error("goal {0} is outside the grid")]
    GoalOutOfBounds(Point),
    /// The start cell is blocked.
    #[error("start {0} is on a blocked cell")]
    StartBlocked(Point),
    /// The goal cell is blocked.
    #[error("goal {0} is on a blocked cell")]
    GoalBlocked(Point),
    /// The start lies outside the search window.
    #[error("start {0} is outside the search window {1:?}")]
    StartOutsideWindow(Point, Window),
    /// The goal lies outside the search window.
    #[error("goal {0} is outside the search window {1:?}")]
    GoalOutsideWindow(Point, Window),
    /// The window is empty or reaches past the grid.
    #[error("window {0:?} is empty or not inside the grid")]
    BadWindow(Window),
    /// The heuristic weight is negative or not finite.
    #[error("heuristic weight {0} must be finite and non-negative")]
    BadWeight(f64),
}
