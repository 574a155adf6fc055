//! The A* engine shared by [`AStar`] and [`WindowedAStar`].

use crate::cost::{distance_cost, Cost, COST_DIAGONAL, COST_ONE};
use crate::full::FullAStar;
use crate::moves::{DELTAS, NO_PARENT, WINDOW_MOVES};
use crate::queue::{OpenEntry, OpenList};
use crate::types::{Found, SearchError, SearchOptions, SearchStats, Status};
use crate::window::Window;
use regionpath_grid::{Connectivity, Dir, Grid, Point, SQRT2};

/// Per-cell scratch of the engine, 16 bytes.
#[derive(Clone, Copy)]
struct Node {
    g: Cost,
    /// Generation that last touched this node; other values mean "fresh".
    stamp: u32,
    /// Direction of the move that reached this node (8 = none: the start).
    parent: u8,
    closed: bool,
}

/// Scratch and engine. Indexes nodes by position inside the window.
struct Engine {
    nodes: Vec<Node>,
    heap: OpenList,
    generation: u32,
    options: SearchOptions,
}

impl Engine {
    fn new(options: SearchOptions) -> Engine {
        Engine {
            nodes: Vec::new(),
            heap: OpenList::new(),
            generation: 0,
            options,
        }
    }

    fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.heap.capacity() * std::mem::size_of::<OpenEntry>()
    }

    /// Prepares scratch for `cells` nodes and a new generation.
    fn begin(&mut self, cells: usize) {
        if self.nodes.len() < cells {
            self.nodes.resize(
                cells,
                Node {
                    g: 0,
                    stamp: 0,
                    parent: NO_PARENT,
                    closed: false,
                },
            );
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            for n in &mut self.nodes {
                n.stamp = 0;
            }
            self.generation = 1;
        }
        self.heap.clear();
    }

    fn check(
        &self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Option<Point>,
    ) -> Result<(), SearchError> {
        let w = self.options.heuristic_weight;
        if !w.is_finite() || w < 0.0 {
            return Err(SearchError::BadWeight(w));
        }
        if !grid.in_bounds(start) {
            return Err(SearchError::StartOutOfBounds(start));
        }
        if let Some(goal) = goal {
            if !grid.in_bounds(goal) {
                return Err(SearchError::GoalOutOfBounds(goal));
            }
        }
        if !window.fits(grid) {
            return Err(SearchError::BadWindow(window));
        }
        if !grid.is_passable(start) {
            return Err(SearchError::StartBlocked(start));
        }
        if let Some(goal) = goal {
            if !grid.is_passable(goal) {
                return Err(SearchError::GoalBlocked(goal));
            }
        }
        if !window.contains(start) {
            return Err(SearchError::StartOutsideWindow(start, window));
        }
        if let Some(goal) = goal {
            if !window.contains(goal) {
                return Err(SearchError::GoalOutsideWindow(goal, window));
            }
        }
        Ok(())
    }

    /// Runs A* inside `window` (already validated) from `start` until a node
    /// with `is_goal` is expanded. `heuristic` must be admissible for optimal
    /// results. Writes the path into `out`.
    #[allow(clippy::too_many_arguments)]
    fn run<G, H>(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        mut is_goal: G,
        heuristic: H,
        mask: Option<&[u64]>,
        out: &mut Vec<Point>,
    ) -> SearchStats
    where
        G: FnMut(Point) -> bool,
        H: Fn(Point) -> Cost,
    {
        out.clear();
        self.begin(window.area());
        let ww = window.width as usize;
        let (x0, y0) = (window.x, window.y);
        let (x1, y1) = (window.x + window.width - 1, window.y + window.height - 1);
        let weight = self.options.heuristic_weight;
        // f = g + w·h, exactly when w = 1.
        let weigh = |h: Cost| -> Cost {
            if weight == 1.0 {
                h
            } else {
                (h as f64 * weight) as Cost
            }
        };
        let dirs = self.options.connectivity.dirs();
        let budget = self.options.node_budget.unwrap_or(u32::MAX);
        let has_budget = self.options.node_budget.is_some();
        let gen = self.generation;

        let local = |p: Point| (p.y - y0) as usize * ww + (p.x - x0) as usize;
        let s_idx = local(start);
        let h0 = heuristic(start);
        self.nodes[s_idx] = Node {
            g: 0,
            stamp: gen,
            parent: NO_PARENT,
            closed: false,
        };
        self.heap.push(OpenEntry::new(weigh(h0), h0, s_idx as u32));
        let mut expanded = 0u32;
        // Best node so far for a partial path: lowest h, then lowest g.
        let mut best = (h0, 0 as Cost, s_idx);
        let mut reached: Option<usize> = None;

        // Per-direction steps in window-local index space, and which window
        // sides each direction needs (bits: 1 north, 2 east, 4 south, 8 west).
        let mut local_step = [0isize; 8];
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            local_step[d as usize] = dy as isize * ww as isize + dx as isize;
        }
        let conn_mask: u8 = if dirs.len() == 4 { 0x0F } else { 0xFF };
        // A successor whose key beats everything in the heap is expanded
        // next without a heap round trip (on open ground most are).
        let mut next: Option<OpenEntry> = None;
        loop {
            let entry = match next.take() {
                Some(e) => e,
                None => match self.heap.pop() {
                    Some(e) => e,
                    None => break,
                },
            };
            let idx = entry.node() as usize;
            let node = &mut self.nodes[idx];
            if node.closed {
                continue;
            }
            node.closed = true;
            let g = node.g;
            // 32-bit division: a window has fewer than 2^32 cells, and a u32
            // divide costs a fraction of a u64 one.
            let (iy, ix) = (idx as u32 / ww as u32, idx as u32 % ww as u32);
            let p = Point::new(x0 + ix, y0 + iy);
            if is_goal(p) {
                reached = Some(idx);
                break;
            }
            expanded += 1;
            if has_budget {
                let h = heuristic(p);
                if h < best.0 || (h == best.0 && g < best.1) {
                    best = (h, g, idx);
                }
            }
            if expanded >= budget {
                break;
            }
            let gi = grid.padded_index(p);
            let mut moves = Grid::legal_moves(grid.neighborhood_padded(gi)) & conn_mask;
            // Window sides.
            let sides = (p.y > y0) as usize
                | ((p.x < x1) as usize) << 1
                | ((p.y < y1) as usize) << 2
                | ((p.x > x0) as usize) << 3;
            moves &= WINDOW_MOVES[sides];
            let heap_min = self.heap.peek_key();
            while moves != 0 {
                let d = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let n_idx = (idx as isize + local_step[d]) as usize;
                if let Some(m) = mask {
                    if (m[n_idx >> 6] >> (n_idx & 63)) & 1 == 0 {
                        continue;
                    }
                }
                let ng = g + if d >= 4 { COST_DIAGONAL } else { COST_ONE };
                let n = &mut self.nodes[n_idx];
                if n.stamp != gen {
                    *n = Node {
                        g: Cost::MAX,
                        stamp: gen,
                        parent: NO_PARENT,
                        closed: false,
                    };
                }
                if ng < n.g && !n.closed {
                    n.g = ng;
                    n.parent = d as u8;
                    let (dx, dy) = DELTAS[d];
                    let np = Point::new(
                        (p.x as i64 + dx as i64) as u32,
                        (p.y as i64 + dy as i64) as u32,
                    );
                    let nh = heuristic(np);
                    let e = OpenEntry::new(ng + weigh(nh), nh, n_idx as u32);
                    if heap_min.is_none_or(|m| e.key() < m) {
                        match next {
                            Some(cur) if cur.key() <= e.key() => self.heap.push(e),
                            Some(cur) => {
                                self.heap.push(cur);
                                next = Some(e);
                            }
                            None => next = Some(e),
                        }
                    } else {
                        self.heap.push(e);
                    }
                }
            }
        }

        let (status, end) = match reached {
            Some(i) => (Status::Found, Some(i)),
            None if expanded >= budget => (Status::BudgetExhausted, Some(best.2)),
            None => (Status::NoPath, None),
        };
        let mut cost = 0.0;
        if let Some(end) = end {
            let (mut straight, mut diagonal) = (0u64, 0u64);
            let mut i = end;
            loop {
                let p = Point::new(x0 + i as u32 % ww as u32, y0 + i as u32 / ww as u32);
                out.push(p);
                let parent = self.nodes[i].parent;
                let Some(d) = Dir::from_index(parent) else {
                    break;
                };
                if d.is_diagonal() {
                    diagonal += 1;
                } else {
                    straight += 1;
                }
                let (dx, dy) = d.delta();
                i = (i as isize - dy as isize * ww as isize - dx as isize) as usize;
            }
            out.reverse();
            cost = straight as f64 + diagonal as f64 * SQRT2;
        }
        SearchStats {
            status,
            cost,
            expanded,
        }
    }
}

/// A* over the whole grid with reusable scratch (16 bytes per cell plus the
/// open list).
pub struct AStar {
    engine: Engine,
    /// The fast path for the default options (see `full.rs`).
    full: FullAStar,
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
            full: FullAStar::default(),
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

    /// Bytes of scratch held now (node array and open list).
    pub fn scratch_bytes(&self) -> usize {
        self.engine.bytes() + self.full.bytes()
    }

    /// Searches from `start` to `goal`, writing the cells into `path` (which
    /// is cleared first). Allocates nothing once the scratch has grown to
    /// the grid and `path` and the open list have room.
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
            grid,
            window,
            start,
            |p| p == goal,
            |p| distance_cost(conn, p, goal),
            None,
            path,
        ))
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

/// A* confined to a [`Window`], with scratch sized to the window (16 bytes
/// per window cell: 57.6 KB for the default 60×60).
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

    /// Searches from `start` to `goal` without leaving `window`.
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
        Ok(self
            .engine
            .run(grid, window, start, is_goal, heuristic, mask, path))
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
            grid,
            window,
            start,
            |p| p == goal,
            |p| distance_cost(conn, p, goal),
            Some(mask),
            path,
        ))
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
