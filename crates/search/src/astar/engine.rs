//! The generic A* engine behind [`AStar`](super::AStar) (when its options
//! leave the fast path) and [`WindowedAStar`](super::WindowedAStar).

use crate::cost::{Cost, COST_DIAGONAL, COST_ONE};
use crate::moves::{DELTAS, NO_PARENT, WINDOW_MOVES};
use crate::queue::{Frontier, Open, OpenEntry, OpenList};
use crate::types::{SearchError, SearchOptions, SearchStats, Status};
use crate::window::Window;
use regionpath_grid::{Dir, Grid, Point, SQRT2};

/// What a step costs, for the engine: monomorphised, so the uniform case
/// ([`Uniform`]) compiles to the plain table of step lengths.
pub(crate) trait StepCost {
    /// What the expanded cell contributes to its steps' costs (read once
    /// per expansion).
    type Here: Copy;
    /// Reads [`StepCost::Here`] for the cell at padded grid index `gi`.
    fn here(&self, gi: usize) -> Self::Here;
    /// The cost of the step in direction `d` (index of `Dir::ALL`) from
    /// the cell at padded index `gi`.
    fn step(&self, here: Self::Here, gi: usize, d: usize) -> Cost;
    /// `g + c` (saturating where costs could reach the top of `Cost`).
    fn add(g: Cost, c: Cost) -> Cost;
    /// Whether the search keeps its open list in a [`Frontier`] (bucket
    /// queue) rather than the heap: for step costs that re-queue many
    /// positions (terrain costs), where heap pops dominate.
    const BUCKETS: bool = false;
}

/// Every straight step costs [`COST_ONE`], every diagonal [`COST_DIAGONAL`]
/// (the benchmark's rules).
pub(crate) struct Uniform;

impl StepCost for Uniform {
    type Here = ();
    #[inline(always)]
    fn here(&self, _: usize) {}
    #[inline(always)]
    fn step(&self, _: (), _: usize, d: usize) -> Cost {
        if d >= 4 {
            COST_DIAGONAL
        } else {
            COST_ONE
        }
    }
    #[inline(always)]
    fn add(g: Cost, c: Cost) -> Cost {
        g + c
    }
}

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
pub(super) struct Engine {
    nodes: Vec<Node>,
    heap: OpenList,
    /// The open list of searches whose [`StepCost::BUCKETS`] is set, built
    /// at the first of them.
    frontier: Option<Box<Frontier>>,
    generation: u32,
    pub(super) options: SearchOptions,
}

impl Engine {
    pub(super) fn new(options: SearchOptions) -> Engine {
        Engine {
            nodes: Vec::new(),
            heap: OpenList::new(),
            frontier: None,
            generation: 0,
            options,
        }
    }

    pub(super) fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.heap.capacity() * std::mem::size_of::<OpenEntry>()
            + self.frontier.as_ref().map_or(0, |f| f.bytes())
    }

    /// Prepares scratch for `cells` nodes and a new generation.
    pub(super) fn begin(&mut self, cells: usize) {
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

    pub(super) fn check(
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
    /// with `is_goal` is expanded, with step costs `costs`. `heuristic` must
    /// be admissible for optimal results. Writes the path into `out`; the
    /// reported cost counts straight steps 1 and diagonals √2 (a caller
    /// with other step costs recomputes it).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run<G, H, C>(
        &mut self,
        costs: &C,
        grid: &Grid,
        window: Window,
        start: Point,
        is_goal: G,
        heuristic: H,
        mask: Option<&[u64]>,
        out: &mut Vec<Point>,
    ) -> SearchStats
    where
        G: FnMut(Point) -> bool,
        H: Fn(Point) -> Cost,
        C: StepCost,
    {
        out.clear();
        self.begin(window.area());
        if C::BUCKETS {
            let mut frontier = self.frontier.take().unwrap_or_default();
            let s = self.search(
                &mut *frontier,
                costs,
                grid,
                window,
                start,
                is_goal,
                heuristic,
                mask,
                out,
            );
            self.frontier = Some(frontier);
            s
        } else {
            let mut heap = std::mem::take(&mut self.heap);
            let s = self.search(
                &mut heap, costs, grid, window, start, is_goal, heuristic, mask, out,
            );
            self.heap = heap;
            s
        }
    }

    /// [`Engine::run`]'s search with the open list `open`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search<G, H, C, Q>(
        &mut self,
        open: &mut Q,
        costs: &C,
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
        C: StepCost,
        Q: Open,
    {
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
        open.start(OpenEntry::new(weigh(h0), h0, s_idx as u32));
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
            let idx = match next.take() {
                Some(e) => e.node(),
                None => match open.pop() {
                    Some(n) => n,
                    None => break,
                },
            } as usize;
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
            let here = costs.here(gi);
            let heap_min = if Q::SHORTCUT { open.peek_key() } else { None };
            while moves != 0 {
                let d = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let n_idx = (idx as isize + local_step[d]) as usize;
                if let Some(m) = mask {
                    if (m[n_idx >> 6] >> (n_idx & 63)) & 1 == 0 {
                        continue;
                    }
                }
                let ng = C::add(g, costs.step(here, gi, d));
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
                    let e = OpenEntry::new(C::add(ng, weigh(nh)), nh, n_idx as u32);
                    if !Q::SHORTCUT {
                        open.push(e);
                    } else if heap_min.is_none_or(|m| e.key() < m) {
                        match next {
                            Some(cur) if cur.key() <= e.key() => open.push(e),
                            Some(cur) => {
                                open.push(cur);
                                next = Some(e);
                            }
                            None => next = Some(e),
                        }
                    } else {
                        open.push(e);
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
