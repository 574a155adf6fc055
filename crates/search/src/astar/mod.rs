//! A* over the whole grid ([`AStar`]) and inside a window ([`WindowedAStar`]).

mod dense;
mod engine;
mod successors;
mod weighted;
mod windowed;

use crate::cost::{distance_cost, Cost};
use crate::types::{Found, SearchError, SearchOptions, SearchStats};
use crate::window::Window;
use dense::DenseAStar;
use engine::{Engine, Uniform};
use regionpath_grid::{Connectivity, Grid, Point, ProfileGrid};
use weighted::{with_class_costs, ClassCosts};

pub(crate) use weighted::{path_cost, Table};
pub use weighted::{weighted_path_cost, StepTable};
pub use windowed::WindowedAStar;

/// A* over the whole grid with reusable scratch.
///
/// Promises an optimal path (octile with 8-connectivity, Manhattan with 4;
/// never cutting a blocked corner) at heuristic weight 1 and no budget,
/// else the documented trade-off of [`SearchOptions`]. Costs O(n log n) time
/// in the n cells it expands and 16 bytes of scratch per grid cell plus the
/// open list, kept between queries; a warm query allocates nothing.
/// Why: with the default options it takes a dedicated fast path (a bucket
/// queue and a per-grid node array with O(1) reset) that other options
/// cannot use, and the generic engine serves the rest.
pub struct AStar {
    engine: Engine,
    /// The fast path for the default options (see `dense.rs`).
    full: DenseAStar,
}

impl Default for AStar {
    fn default() -> Self {
        AStar::new()
    }
}

impl AStar {
    /// A searcher with default options (8-connected, no budget, weight 1).
    pub fn new() -> AStar {
        AStar::with_options(SearchOptions::default())
    }

    /// A searcher with the given options.
    pub fn with_options(options: SearchOptions) -> AStar {
        AStar {
            engine: Engine::new(options),
            full: DenseAStar::default(),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.engine.options
    }

    /// Changes the options for later queries.
    pub fn options_mut(&mut self) -> &mut SearchOptions {
        &mut self.engine.options
    }

    /// Bytes of scratch held now (node arrays and open lists); O(1).
    pub fn scratch_bytes(&self) -> usize {
        self.engine.bytes() + self.full.bytes()
    }

    /// Searches from `start` to `goal`, writing the cells into `path` (which
    /// is cleared first), start and goal included; the returned
    /// [`SearchStats`] give the status, the exact cost and the expansions.
    /// Errors when an end is out of bounds or blocked, or the weight is
    /// invalid. Allocates nothing once the scratch has grown to the grid and
    /// `path` and the open list have room; the first query on a grid (or
    /// after an edit) clears scratch for every cell, O(cells), and so does
    /// one query in every 2^64 / (cells · √2 · 2^30) with the default
    /// options (one in about 47,000 on a 512×512 map).
    pub fn find_path_into(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        let window = Window::full(grid);
        self.engine.check(grid, window, start, Some(goal))?;
        let o = self.engine.options;
        if o.connectivity == Connectivity::Eight
            && o.heuristic_weight == 1.0
            && o.node_budget.is_none()
        {
            return Ok(self.full.run(grid, start, goal, path));
        }
        let conn = self.engine.options.connectivity;
        Ok(self.engine.run(
            &Uniform,
            grid,
            window,
            start,
            |p| p == goal,
            |p| distance_cost(conn, p, goal),
            None,
            path,
        ))
    }

    /// Searches a grid under a movement profile: from position `start` to
    /// position `goal` of `view`, each step costing its length times the
    /// mean of the two positions' costs. The path (positions, start and goal
    /// included) goes into `path`, cleared first; the cost reported is
    /// recomputed in `f64` from the path's steps (under the default profile
    /// exactly the cost [`AStar::find_path_into`] reports on the source
    /// grid).
    ///
    /// Optimal at heuristic weight 1 and no budget: costs are fixed point
    /// (one step of length `l` between costs `a` and `b` is
    /// `round(l · (a + b) / 2 · 2³⁰)` units; a cost-1 step is exactly
    /// [`crate::COST_ONE`] or [`crate::COST_DIAGONAL`]), so the path's cost
    /// is within a relative 5·10⁻⁸ of the real optimum (10⁻⁹ for costs of 1
    /// and more), and equal paths tie exactly. Where the view is uniform
    /// ([`ProfileGrid::is_uniform`]) this is [`AStar::find_path_into`] on
    /// [`ProfileGrid::grid`]; otherwise the generic engine with the view's
    /// cost table, the octile distance priced at the cheapest class and a
    /// bucket queue for its open list (ties pop newest first; the first
    /// weighted search builds it, about 90 KB).
    /// Errors: an end out of the map ([`SearchError::StartOutOfBounds`],
    /// [`SearchError::GoalOutOfBounds`]) or not a usable position
    /// ([`SearchError::StartBlocked`], [`SearchError::GoalBlocked`]), or a bad
    /// weight. Allocates nothing when warm (as [`AStar::find_path_into`]).
    pub fn find_path_weighted_into(
        &mut self,
        view: &ProfileGrid,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        let grid = view.grid();
        if view.is_uniform() {
            let mut s = self.find_path_into(grid, start, goal, path)?;
            s.cost = weighted::path_cost(view, path);
            return Ok(s);
        }
        let window = Window::full(grid);
        self.engine.check(grid, window, start, Some(goal))?;
        let mut table: Table = Default::default();
        weighted::fill_table(view.class_costs(), &mut table);
        let (t1, t2) = (table[0][0][0], table[1][0][0]);
        let conn = self.engine.options.connectivity;
        let heuristic = |p: Point| {
            let dx = p.x.abs_diff(goal.x) as Cost;
            let dy = p.y.abs_diff(goal.y) as Cost;
            match conn {
                Connectivity::Four => (dx + dy) * t1,
                Connectivity::Eight => {
                    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                    (hi - lo) * t1 + lo * t2
                }
            }
        };
        let engine = &mut self.engine;
        let mut s = with_class_costs!(view, &table, None, |costs| engine.run(
            &costs,
            grid,
            window,
            start,
            |p| p == goal,
            heuristic,
            None,
            path,
        ));
        s.cost = weighted::path_cost(view, path);
        Ok(s)
    }

    /// [`AStar::find_path_weighted_into`] returning an owned path.
    pub fn find_path_weighted(
        &mut self,
        view: &ProfileGrid,
        start: Point,
        goal: Point,
    ) -> Result<Found, SearchError> {
        let mut path = Vec::new();
        let s = self.find_path_weighted_into(view, start, goal, &mut path)?;
        Ok(Found {
            status: s.status,
            path,
            cost: s.cost,
            expanded: s.expanded,
        })
    }

    /// [`AStar::find_path_into`] returning an owned path.
    pub fn find_path(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
    ) -> Result<Found, SearchError> {
        let mut path = Vec::new();
        let s = self.find_path_into(grid, start, goal, &mut path)?;
        Ok(Found {
            status: s.status,
            path,
            cost: s.cost,
            expanded: s.expanded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Status;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows).unwrap()
    }

    #[test]
    fn finds_around_wall() {
        let g = grid(&["......", ".@@@@.", "......"]);
        let mut a = AStar::new();
        let f = a.find_path(&g, Point::new(0, 1), Point::new(5, 1)).unwrap();
        assert_eq!(f.status, Status::Found);
        assert_eq!(f.path.first(), Some(&Point::new(0, 1)));
        assert_eq!(f.path.last(), Some(&Point::new(5, 1)));
        assert!((f.cost - 7.0).abs() < 1e-9);
    }

    #[test]
    fn no_corner_cutting_and_no_path() {
        let g = grid(&[".@", "@."]);
        let mut a = AStar::new();
        let f = a.find_path(&g, Point::new(0, 0), Point::new(1, 1)).unwrap();
        assert_eq!(f.status, Status::NoPath);
        assert!(f.path.is_empty());
    }

    #[test]
    fn errors() {
        let g = grid(&["..", "@."]);
        let mut a = AStar::new();
        assert_eq!(
            a.find_path(&g, Point::new(0, 1), Point::new(1, 1)),
            Err(SearchError::StartBlocked(Point::new(0, 1)))
        );
        assert_eq!(
            a.find_path(&g, Point::new(0, 0), Point::new(2, 1)),
            Err(SearchError::GoalOutOfBounds(Point::new(2, 1)))
        );
        a.options_mut().heuristic_weight = f64::NAN;
        assert!(matches!(
            a.find_path(&g, Point::new(0, 0), Point::new(1, 1)),
            Err(SearchError::BadWeight(_))
        ));
        let mut w = WindowedAStar::new();
        let win = Window {
            x: 0,
            y: 0,
            width: 1,
            height: 2,
        };
        assert!(matches!(
            w.find_path(&g, win, Point::new(0, 0), Point::new(1, 1)),
            Err(SearchError::GoalOutsideWindow(..))
        ));
        let win = Window {
            x: 1,
            y: 0,
            width: 2,
            height: 2,
        };
        assert!(matches!(
            w.find_path(&g, win, Point::new(1, 0), Point::new(1, 1)),
            Err(SearchError::BadWindow(..))
        ));
    }

    #[test]
    fn budget_returns_partial_toward_goal() {
        let g = Grid::new(100, 3, true).unwrap();
        let mut a = AStar::with_options(SearchOptions {
            node_budget: Some(10),
            ..SearchOptions::default()
        });
        let f = a
            .find_path(&g, Point::new(0, 1), Point::new(99, 1))
            .unwrap();
        assert_eq!(f.status, Status::BudgetExhausted);
        assert_eq!(f.expanded, 10);
        assert_eq!(f.path[0], Point::new(0, 1));
        assert!(f.path.last().unwrap().x >= 9);
    }

    #[test]
    fn four_connected() {
        let g = Grid::new(5, 5, true).unwrap();
        let mut a = AStar::with_options(SearchOptions {
            connectivity: Connectivity::Four,
            ..SearchOptions::default()
        });
        let f = a.find_path(&g, Point::new(0, 0), Point::new(4, 4)).unwrap();
        assert_eq!(f.cost, 8.0);
        assert_eq!(f.path.len(), 9);
    }
}
