//! A* confined to a window, with scratch sized to the window.

use super::engine::{Engine, Uniform};
use super::weighted::{path_cost, with_class_costs, ClassCosts, StepTable};
use crate::cost::{distance_cost, Cost};
use crate::types::{Found, SearchError, SearchOptions, SearchStats};
use crate::window::Window;
use regionpath_grid::{Grid, Point, ProfileGrid};

/// A* confined to a [`Window`], with scratch sized to the window.
///
/// Promises the best path that never leaves the window (optimal within it
/// at weight 1 and no budget; a budget returns a partial path towards the
/// goal). Costs O(n log n) time in the n cells expanded and 16 bytes of
/// scratch per window cell (57.6 KB for the default 60×60) plus the open
/// list, reset in O(1) per query. Why: legs of a hierarchical route are
/// short, so scratch the size of the map would be paid for in cache misses
/// and memory per searcher.
pub struct WindowedAStar {
    engine: Engine,
    size: (u32, u32),
}

impl Default for WindowedAStar {
    fn default() -> Self {
        WindowedAStar::new()
    }
}

impl WindowedAStar {
    /// A windowed searcher with the default 60×60 window and default options.
    pub fn new() -> WindowedAStar {
        WindowedAStar::with_size(Window::DEFAULT_SIZE, Window::DEFAULT_SIZE)
    }

    /// A windowed searcher whose [`WindowedAStar::window_around`] uses
    /// `width × height` windows (any size is allowed in queries).
    pub fn with_size(width: u32, height: u32) -> WindowedAStar {
        let mut engine = Engine::new(SearchOptions::default());
        engine.begin(width as usize * height as usize);
        WindowedAStar {
            engine,
            size: (width.max(1), height.max(1)),
        }
    }

    /// The default window size of this searcher.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The options in force.
    pub fn options(&self) -> &SearchOptions {
        &self.engine.options
    }

    /// Changes the options for later queries.
    pub fn options_mut(&mut self) -> &mut SearchOptions {
        &mut self.engine.options
    }

    /// Bytes of scratch held now.
    pub fn scratch_bytes(&self) -> usize {
        self.engine.bytes()
    }

    /// A window of this searcher's size around `a` and `b` (see
    /// [`Window::around`]).
    pub fn window_around(&self, grid: &Grid, a: Point, b: Point) -> Window {
        Window::around(grid, a, b, self.size.0, self.size.1)
    }

    /// Searches from `start` to `goal` without leaving `window`, writing the
    /// cells into `path` (cleared first). Errors when an end is out of the
    /// grid, blocked or outside the window, or the window does not fit the
    /// grid. Allocates nothing once warm.
    pub fn find_path_into(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.engine.check(grid, window, start, Some(goal))?;
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

    /// Searches from `start` inside `window` until a cell for which
    /// `is_goal` holds is expanded, guided by `heuristic` (in fixed-point
    /// [`Cost`] units: use [`crate::octile_cost`]), optionally
    /// restricted to the corridor `mask` (as in
    /// [`WindowedAStar::find_path_masked_into`]). With a heuristic that
    /// underestimates `cost(cell) + extra(cell)` for some per-goal `extra`,
    /// the goal cell returned minimises that sum: the hierarchy uses this to
    /// cross a border where the path heads on best.
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_to_any_into<G, H>(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        is_goal: G,
        heuristic: H,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError>
    where
        G: FnMut(Point) -> bool,
        H: Fn(Point) -> Cost,
    {
        self.engine.check(grid, window, start, None)?;
        if mask.is_some_and(|m| m.len() * 64 < window.area()) {
            return Err(SearchError::BadWindow(window));
        }
        Ok(self.engine.run(
            &Uniform, grid, window, start, is_goal, heuristic, mask, path,
        ))
    }

    /// [`WindowedAStar::find_path_into`] restricted to a corridor: only
    /// cells whose bit is set in `mask` may be entered. `mask` holds one bit
    /// per window cell, row-major (`(y - window.y) * window.width + (x -
    /// window.x)`), at least `window.area()` bits. The start need not be in
    /// the mask; the goal must be to be reached. Corner cutting is still
    /// judged on the real grid.
    pub fn find_path_masked_into(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        mask: &[u64],
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.engine.check(grid, window, start, Some(goal))?;
        if mask.len() * 64 < window.area() {
            return Err(SearchError::BadWindow(window));
        }
        let conn = self.engine.options.connectivity;
        Ok(self.engine.run(
            &Uniform,
            grid,
            window,
            start,
            |p| p == goal,
            |p| distance_cost(conn, p, goal),
            Some(mask),
            path,
        ))
    }

    /// The best path under a movement profile's costs from `start` to
    /// `goal` that never leaves `window` of `view`'s position grid,
    /// optionally restricted to the corridor `mask` (as in
    /// [`WindowedAStar::find_path_masked_into`]). `table` must be
    /// [`StepTable::new`] of `view`. Steps cost their length times the mean
    /// cost of the two positions (fixed point); the heuristic is
    /// [`StepTable::octile_from`] at class `floor`, so the path is optimal
    /// within the window when no usable position of the window is of a
    /// cheaper class (pass 0, the cheapest, when unsure; a higher floor
    /// where it holds makes the heuristic tighter and the search smaller).
    /// The stats' cost is the path's cost under the profile. Same errors
    /// and allocation rules as [`WindowedAStar::find_path_into`]; the open
    /// list is a bucket queue, built at the first weighted search (about
    /// 90 KB): a re-queued position's stale entries then cost O(1) each,
    /// where a heap paid a pop of its whole depth.
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_weighted_into(
        &mut self,
        view: &ProfileGrid,
        table: &StepTable,
        floor: u8,
        window: Window,
        start: Point,
        goal: Point,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.engine.check(view.grid(), window, start, Some(goal))?;
        self.find_path_to_any_weighted_into(
            view,
            table,
            window,
            start,
            |p| p == goal,
            |p| table.octile_from(floor, p, goal),
            mask,
            path,
        )
    }

    /// [`WindowedAStar::find_path_to_any_into`] under a movement profile's
    /// costs (see [`WindowedAStar::find_path_weighted_into`]): `heuristic`
    /// must be in the same fixed-point units, e.g. built from
    /// [`StepTable::octile`].
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_to_any_weighted_into<G, H>(
        &mut self,
        view: &ProfileGrid,
        table: &StepTable,
        window: Window,
        start: Point,
        is_goal: G,
        heuristic: H,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError>
    where
        G: FnMut(Point) -> bool,
        H: Fn(Point) -> Cost,
    {
        let grid = view.grid();
        self.engine.check(grid, window, start, None)?;
        if mask.is_some_and(|m| m.len() * 64 < window.area()) {
            return Err(SearchError::BadWindow(window));
        }
        let engine = &mut self.engine;
        let mut s = with_class_costs!(view, table.table(), table.codes(), |costs| engine
            .run(&costs, grid, window, start, is_goal, heuristic, mask, path));
        s.cost = path_cost(view, path);
        Ok(s)
    }

    /// [`WindowedAStar::find_path_into`] returning an owned path.
    pub fn find_path(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
    ) -> Result<Found, SearchError> {
        let mut path = Vec::new();
        let s = self.find_path_into(grid, window, start, goal, &mut path)?;
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
    fn window_confines_search() {
        // The only way round is through column 0, outside the window.
        let g = grid(&["....", ".@@.", ".@..", ".@@@", "...."]);
        let mut w = WindowedAStar::new();
        let win = Window {
            x: 1,
            y: 0,
            width: 3,
            height: 5,
        };
        let f = w
            .find_path(&g, win, Point::new(2, 2), Point::new(2, 4))
            .unwrap();
        assert_eq!(f.status, Status::NoPath);
        let f = w
            .find_path(&g, Window::full(&g), Point::new(2, 2), Point::new(2, 4))
            .unwrap();
        assert_eq!(f.status, Status::Found);
    }
}
