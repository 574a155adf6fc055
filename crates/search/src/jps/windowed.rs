//! Jump point search inside a window, through a corridor mask, towards a
//! cell or a set of cells.

use super::engine::{Engine, Query, UniformJumps};
use super::planes::{get_bits, Planes};
use super::scan::{PlaneTarget, PointTarget, Target};
use super::weighted::{Stops, Terrain};
use crate::astar::path_cost;
use crate::cost::{octile_cost, Cost};
use crate::types::{SearchError, SearchStats};
use crate::window::Window;
use crate::{StepTable, WindowedAStar};
use regionpath_grid::{Grid, Point, ProfileGrid};

/// Jump point search confined to a [`Window`] of a grid, optionally to a
/// corridor inside it (a bitmask) and towards a set of goal cells: the
/// hierarchy's leg search. Exact within what it may use, like
/// [`WindowedAStar`](crate::WindowedAStar), and usually several times
/// faster.
///
/// Each query copies the window's passability (after the mask) into
/// row-major and column-major bit planes (for a 60×60 window, 62 words
/// each), so it needs no preprocessing and always sees the grid as it is
/// now. Scratch grows to the largest window searched (16 bytes per window
/// cell plus the planes) and is reused; a warm query allocates nothing.
///
/// Masks and goal sets are window-local bitsets: bit `(y - window.y) *
/// window.width + (x - window.x)` stands for cell `(x, y)`. A cell outside
/// the mask counts as a wall, for the corner rule too (a diagonal step
/// needs both orthogonal cells inside the mask), which is stricter than
/// [`WindowedAStar`](crate::WindowedAStar)'s mask (that one only keeps the
/// path's cells inside); the start may lie outside the mask.
///
/// Under a movement profile's costs
/// ([`WindowedJps::find_path_weighted_into`]) jumps stop where the cost of
/// the terrain changes, so the search stays exact; on terrain in patches
/// it expands several times fewer positions than the weighted
/// [`WindowedAStar`](crate::WindowedAStar).
///
/// With a node budget, a search that spends it returns
/// [`Status::BudgetExhausted`](crate::Status::BudgetExhausted) with an
/// empty path (no partial path, unlike
/// [`WindowedAStar`](crate::WindowedAStar)).
pub struct WindowedJps {
    planes: Planes,
    goals: Planes,
    /// Classes and boundaries of the window, for searches under a profile.
    terrain: Terrain,
    /// The weighted search of windows dense with terrain boundaries, built
    /// at the first of them.
    dense: Option<Box<WindowedAStar>>,
    engine: Engine,
    node_budget: Option<u32>,
    cost_bound: Cost,
}

/// The share of a window's usable positions (numerator, denominator)
/// above which its terrain boundaries are dense: a weighted search there
/// runs as windowed A*, since jumps stop at nearly every step and each
/// boundary tries all eight (`benches/PROFILES.md` P80).
const DENSE_BOUNDARY: (u32, u32) = (1, 5);

impl Default for WindowedJps {
    fn default() -> Self {
        WindowedJps::new()
    }
}

impl WindowedJps {
    /// A searcher with no budget and no cost bound.
    pub fn new() -> WindowedJps {
        WindowedJps {
            planes: Planes::default(),
            goals: Planes::default(),
            terrain: Terrain::default(),
            dense: None,
            engine: Engine::default(),
            node_budget: None,
            cost_bound: Cost::MAX,
        }
    }

    /// Only paths cheaper than `bound` (fixed-point cost units, see
    /// [`COST_ONE`](crate::COST_ONE)) are of interest: later searches prune
    /// every node whose `g + h` reaches it and report
    /// [`Status::NoPath`](crate::Status::NoPath) when no cheaper path
    /// exists. `None` lifts the bound. A cheap way to ask "is there a
    /// shorter way than this one?".
    pub fn set_cost_bound(&mut self, bound: Option<Cost>) {
        self.cost_bound = bound.unwrap_or(Cost::MAX);
    }

    /// Stops later searches after this many expansions (`None`: no limit).
    pub fn set_node_budget(&mut self, budget: Option<u32>) {
        self.node_budget = budget;
    }

    /// The budget in force.
    pub fn node_budget(&self) -> Option<u32> {
        self.node_budget
    }

    /// Bytes of scratch held now.
    pub fn scratch_bytes(&self) -> usize {
        self.planes.bytes()
            + self.goals.bytes()
            + self.terrain.bytes()
            + self.engine.bytes()
            + self.dense.as_ref().map_or(0, |a| a.scratch_bytes())
    }

    fn check(
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Option<Point>,
    ) -> Result<(), SearchError> {
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

    /// Copies the window's passability, cut to `mask`, with the start open.
    fn load(&mut self, grid: &Grid, window: Window, start: Point, mask: Option<&[u64]>) {
        let ww = window.width as usize;
        if mask.is_none() {
            self.planes
                .fill_area(grid, window.x, window.y, window.width, window.height);
        } else {
            self.planes.fill(window.width, window.height, |y, x, len| {
                let bits = grid.row_bits(window.x + x, window.y + y, len);
                match mask {
                    Some(m) => bits & get_bits(m, y as usize * ww + x as usize, len),
                    None => bits,
                }
            });
        }
        let (sx, sy) = (start.x - window.x, start.y - window.y);
        if !self.planes.open(sx as usize + 1, sy as usize + 1) {
            // The start may lie outside the corridor; it is left, never
            // entered.
            self.planes.set(sx, sy);
        }
    }

    /// Searches from `start` to `goal` inside `window`, writing the cells
    /// into `path` (cleared first): an optimal path among those inside the
    /// window. Costs O(window area / 64) words to copy the window, then the
    /// search; allocates nothing once warm. Errors as
    /// [`WindowedAStar::find_path_into`](crate::WindowedAStar::find_path_into).
    pub fn find_path_into(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.search(grid, window, start, goal, None, path)
    }

    /// [`WindowedJps::find_path_into`] through the cells of `mask` only.
    pub fn find_path_masked_into(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        mask: &[u64],
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.search(grid, window, start, goal, Some(mask), path)
    }

    fn search(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        Self::check(grid, window, start, Some(goal))?;
        self.load(grid, window, start, mask);
        let (gx, gy) = (
            (goal.x - window.x) as usize + 1,
            (goal.y - window.y) as usize + 1,
        );
        if !self.planes.open(gx, gy) {
            // The goal lies outside the corridor.
            path.clear();
            return Ok(SearchStats::no_path(0));
        }
        let target = PointTarget {
            px: (goal.x - window.x) as usize + 1,
            py: (goal.y - window.y) as usize + 1,
        };
        let local = Point::new(start.x - window.x, start.y - window.y);
        Ok(self.engine.run(
            Query {
                planes: &self.planes,
                origin: (window.x, window.y),
                start: local,
                target: &target,
                stops: &target,
                costs: &UniformJumps,
                heuristic: |p| octile_cost(p, goal),
                budget: self.node_budget,
                bound: self.cost_bound,
            },
            path,
        ))
    }

    /// The best path under a movement profile's costs from `start` to
    /// `goal` that never leaves `window` of `view`'s position grid, as
    /// [`WindowedAStar::find_path_weighted_into`](crate::WindowedAStar::find_path_weighted_into)
    /// finds it (the same cost; possibly other cells of that cost):
    /// `table` must be [`StepTable::new`] of `view` and `heuristic`, in its
    /// fixed-point units, admissible and consistent (e.g.
    /// [`StepTable::octile_from`] at a class no usable position of the
    /// window undercuts). Jumps stop where the terrain's cost changes (at
    /// *boundaries*: usable positions with a usable neighbour of another
    /// cost), so the search is as small as the uniform one where the
    /// window is one terrain. Where more than a fifth of the
    /// window's usable positions are such boundaries, jumps would stop at
    /// nearly every step: the search then runs as
    /// [`WindowedAStar::find_path_to_any_weighted_into`] (the same cost),
    /// built at the first such window. The stats' cost is the path's
    /// cost under the profile. Costs a read of every usable position's
    /// class in the window on top of the uniform search's copy; allocates
    /// nothing once warm. Errors as
    /// [`WindowedJps::find_path_into`]; the cost bound and the node budget
    /// do not apply.
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point, Profile, ProfileGrid};
    /// use regionpath_search::{StepTable, Status, Window, WindowedJps};
    ///
    /// // A swamp across the way costs nine times as much: going round it
    /// // through the gap at the bottom is cheaper.
    /// let grid = Grid::from_rows(&["..S..", "..S..", "..S..", "....."]).unwrap();
    /// let walker = Profile::builder("walker").cost('.', 1.0).cost('S', 9.0).build().unwrap();
    /// let view = ProfileGrid::new(&grid, &walker);
    /// let table = StepTable::new(&view);
    /// let (start, goal) = (Point::new(0, 0), Point::new(4, 0));
    /// let mut jps = WindowedJps::new();
    /// let mut path = Vec::new();
    /// let found = jps
    ///     .find_path_weighted_into(&view, &table, Window::full(&grid), start, goal,
    ///         |p| table.octile(p, goal), &mut path)
    ///     .unwrap();
    /// assert_eq!(found.status, Status::Found);
    /// assert!(path.iter().all(|&p| grid.terrain(p).unwrap().to_char() == '.'));
    /// assert!((found.cost - (2.0 + 4.0 * 2f64.sqrt())).abs() < 1e-9);
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_weighted_into<H: Fn(Point) -> Cost>(
        &mut self,
        view: &ProfileGrid,
        table: &StepTable,
        window: Window,
        start: Point,
        goal: Point,
        heuristic: H,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        let grid = view.grid();
        Self::check(grid, window, start, Some(goal))?;
        self.load(grid, window, start, None);
        let target = PointTarget {
            px: (goal.x - window.x) as usize + 1,
            py: (goal.y - window.y) as usize + 1,
        };
        self.weighted(view, table, window, start, &target, heuristic, path)
    }

    /// [`WindowedJps::find_path_weighted_into`] towards the nearest cell
    /// (by cost) of the goal set `goals` (a window-local bitset, as in
    /// [`WindowedJps::find_path_to_any_into`]).
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_to_any_weighted_into<H: Fn(Point) -> Cost>(
        &mut self,
        view: &ProfileGrid,
        table: &StepTable,
        window: Window,
        start: Point,
        goals: &[u64],
        heuristic: H,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        let grid = view.grid();
        Self::check(grid, window, start, None)?;
        self.load(grid, window, start, None);
        self.load_goals(window, goals);
        let goals = std::mem::take(&mut self.goals);
        let s = self.weighted(
            view,
            table,
            window,
            start,
            &PlaneTarget(&goals),
            heuristic,
            path,
        );
        self.goals = goals;
        s
    }

    /// The weighted search over the loaded window towards `target`.
    #[allow(clippy::too_many_arguments)]
    fn weighted<T: Target, H: Fn(Point) -> Cost>(
        &mut self,
        view: &ProfileGrid,
        table: &StepTable,
        window: Window,
        start: Point,
        target: &T,
        heuristic: H,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.terrain.fill(view, &self.planes, window);
        let usable: u32 = self.planes.rows.iter().map(|w| w.count_ones()).sum();
        let boundary: u32 = self
            .terrain
            .boundary
            .rows
            .iter()
            .map(|w| w.count_ones())
            .sum();
        if boundary * DENSE_BOUNDARY.1 > usable * DENSE_BOUNDARY.0 {
            let astar = self.dense.get_or_insert_with(Default::default);
            let (ox, oy) = (window.x as usize, window.y as usize);
            return astar.find_path_to_any_weighted_into(
                view,
                table,
                window,
                start,
                |p| target.is_goal(p.x as usize - ox + 1, p.y as usize - oy + 1),
                heuristic,
                None,
                path,
            );
        }
        self.terrain.columns();
        let stops = Stops {
            goal: target,
            boundary: &self.terrain.boundary,
        };
        let local = Point::new(start.x - window.x, start.y - window.y);
        let (engine, terrain, t) = (&mut self.engine, &self.terrain, table.table());
        // One search per class width, the classes read at that width.
        macro_rules! run {
            ($bits_log:literal) => {
                engine.run(
                    Query {
                        planes: &self.planes,
                        origin: (window.x, window.y),
                        start: local,
                        target,
                        stops: &stops,
                        costs: &terrain.jumps::<$bits_log>(view, window, t),
                        heuristic,
                        budget: None,
                        bound: Cost::MAX,
                    },
                    path,
                )
            };
        }
        let mut s = match view.packed_classes().bits_log() {
            0 => run!(0),
            1 => run!(1),
            _ => run!(2),
        };
        s.cost = path_cost(view, path);
        Ok(s)
    }

    /// Copies the goal set `goals` (window-local bits) into the goal
    /// planes, keeping only cells the search may enter.
    fn load_goals(&mut self, window: Window, goals: &[u64]) {
        let ww = window.width as usize;
        // Goal cells count where the search may go (the planes: passable
        // and inside the mask, or the start). Goal sets are small (a border
        // run): set them bit by bit instead of transposing.
        self.goals.reset(window.width, window.height);
        for (wi, &word) in goals.iter().enumerate().take(window.area().div_ceil(64)) {
            let mut bits = word;
            while bits != 0 {
                let i = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if i >= window.area() {
                    break;
                }
                let (x, y) = ((i % ww) as u32, (i / ww) as u32);
                if self.planes.open(x as usize + 1, y as usize + 1) {
                    self.goals.set(x, y);
                }
            }
        }
    }

    /// Searches from `start` to the nearest cell (by path cost) of the goal
    /// set `goals` (a window-local bitset), through `mask` if given.
    /// `heuristic` must never overestimate the cost to the nearest goal
    /// cell and be consistent (the octile distance to the nearest goal cell
    /// is), else the path may not be the shortest.
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_to_any_into<H: Fn(Point) -> Cost>(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goals: &[u64],
        heuristic: H,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        Self::check(grid, window, start, None)?;
        self.load(grid, window, start, mask);
        self.load_goals(window, goals);
        let local = Point::new(start.x - window.x, start.y - window.y);
        Ok(self.engine.run(
            Query {
                planes: &self.planes,
                origin: (window.x, window.y),
                start: local,
                target: &PlaneTarget(&self.goals),
                stops: &PlaneTarget(&self.goals),
                costs: &UniformJumps,
                heuristic,
                budget: self.node_budget,
                bound: self.cost_bound,
            },
            path,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::astar::WindowedAStar;
    use crate::cost::octile_cost;
    use crate::types::Status;

    /// Windowed jump point search against windowed A* on random grids,
    /// windows, corridor masks and goal sets (all costs must agree).
    #[test]
    fn windowed_agrees_with_windowed_astar() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut wjps = WindowedJps::new();
        let mut wastar = WindowedAStar::with_size(80, 80);
        let (mut a_path, mut j_path) = (Vec::new(), Vec::new());
        for round in 0..400 {
            let (w, h) = (1 + (next() % 90) as u32, 1 + (next() % 90) as u32);
            let density = next() % 45;
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if next() % 100 < density { '@' } else { '.' })
                        .collect()
                })
                .collect();
            let g = Grid::from_rows(&rows).unwrap();
            let win = Window {
                x: (next() % w as u64) as u32,
                y: (next() % h as u64) as u32,
                width: 1,
                height: 1,
            };
            let win = Window {
                width: 1 + (next() % (w - win.x) as u64) as u32,
                height: 1 + (next() % (h - win.y) as u64) as u32,
                ..win
            };
            let cells: Vec<Point> = (win.y..win.y + win.height)
                .flat_map(|y| (win.x..win.x + win.width).map(move |x| Point::new(x, y)))
                .filter(|&p| g.is_passable(p))
                .collect();
            if cells.is_empty() {
                continue;
            }
            let words = win.area().div_ceil(64);
            let mut mask = vec![0u64; words];
            let mut goals = vec![0u64; words];
            for i in 0..win.area() {
                if next() % 100 < 85 {
                    mask[i >> 6] |= 1 << (i & 63);
                }
            }
            for _ in 0..1 + next() % 4 {
                let p = cells[(next() % cells.len() as u64) as usize];
                let i = ((p.y - win.y) * win.width + (p.x - win.x)) as usize;
                goals[i >> 6] |= 1 << (i & 63);
            }
            let goal_list: Vec<Point> = cells
                .iter()
                .copied()
                .filter(|p| {
                    let i = ((p.y - win.y) * win.width + (p.x - win.x)) as usize;
                    (goals[i >> 6] >> (i & 63)) & 1 != 0
                })
                .collect();
            let s = cells[(next() % cells.len() as u64) as usize];
            let t = cells[(next() % cells.len() as u64) as usize];
            let check = |what: &str, a: SearchStats, j: SearchStats, jp: &[Point]| {
                assert_eq!(a.status, j.status, "round {round} {what}");
                assert!(
                    (a.cost - j.cost).abs() < 1e-9,
                    "round {round} {what}: {} vs {}",
                    a.cost,
                    j.cost
                );
                if j.status == Status::Found {
                    assert_eq!(jp.first(), Some(&s));
                    for st in jp.windows(2) {
                        let d = regionpath_grid::Dir::from_delta(
                            st[1].x as i32 - st[0].x as i32,
                            st[1].y as i32 - st[0].y as i32,
                        )
                        .expect("adjacent");
                        assert!(g.can_step(st[0], d) && win.contains(st[1]));
                    }
                }
            };
            let a = wastar.find_path_into(&g, win, s, t, &mut a_path).unwrap();
            let j = wjps.find_path_into(&g, win, s, t, &mut j_path).unwrap();
            check("plain", a, j, &j_path);
            if j.status == Status::Found {
                assert_eq!(j_path.last(), Some(&t));
            }
            // Outside the mask is a wall for jump point search (also for
            // the corner rule): compare with A* on the grid walled so.
            let mut walled = g.clone();
            for y in win.y..win.y + win.height {
                for x in win.x..win.x + win.width {
                    let i = ((y - win.y) * win.width + (x - win.x)) as usize;
                    let p = Point::new(x, y);
                    if (mask[i >> 6] >> (i & 63)) & 1 == 0 && p != s {
                        walled.set_passable(p, false).unwrap();
                    }
                }
            }
            let a = if walled.is_passable(t) {
                wastar
                    .find_path_into(&walled, win, s, t, &mut a_path)
                    .unwrap()
            } else {
                SearchStats::no_path(0)
            };
            let j = wjps
                .find_path_masked_into(&g, win, s, t, &mask, &mut j_path)
                .unwrap();
            check("masked", a, j, &j_path);
            let h = |p: Point| goal_list.iter().map(|&q| octile_cost(p, q)).min().unwrap();
            let is_goal = |p: Point| goal_list.contains(&p);
            let a = wastar
                .find_path_to_any_into(&walled, win, s, is_goal, h, None, &mut a_path)
                .unwrap();
            let j = wjps
                .find_path_to_any_into(&g, win, s, &goals, h, Some(&mask), &mut j_path)
                .unwrap();
            check("to any", a, j, &j_path);
            if j.status == Status::Found {
                assert!(goal_list.contains(j_path.last().unwrap()));
            }
        }
    }
}
