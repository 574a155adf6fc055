//! The jump point search loop, shared by the full-grid and the windowed
//! searcher: node scratch and open list over any [`Planes`].

use super::planes::Planes;
use super::scan::{jump_diagonal, jump_straight, Target};
use crate::cost::{Cost, COST_DIAGONAL, COST_ONE};
use crate::queue::{Frontier, Open, OpenEntry, OpenList};
use crate::types::{SearchStats, Status};
use regionpath_grid::Point;

/// What a jump costs and where the search must expand every move: uniform
/// step lengths ([`UniformJumps`]) or a movement profile's terrain
/// ([`super::weighted::TerrainJumps`]). Monomorphised, so the uniform
/// search compiles to what it was before terrain existed.
pub(super) trait JumpCosts {
    /// Whether the node at padded `(px, py)` takes every legal move as a
    /// successor (a terrain boundary, where the pruning rules, which assume
    /// equal costs around the node, do not hold).
    fn full(&self, px: usize, py: usize) -> bool;
    /// The cost of `steps` moves in `(dx, dy)` from padded `(px, py)`,
    /// every cell after the first step being of the first step's cost
    /// (jumps stop at terrain boundaries).
    fn cost(&self, px: usize, py: usize, dx: i32, dy: i32, steps: Cost) -> Cost;
    /// Whether the search keeps its open list in a [`Frontier`] (bucket
    /// queue) rather than the heap: for terrain, whose jumps queue keys
    /// far apart and re-queue many positions (as the weighted A*'s).
    const BUCKETS: bool = false;
}

/// Every straight step costs [`COST_ONE`], every diagonal [`COST_DIAGONAL`].
pub(super) struct UniformJumps;

impl JumpCosts for UniformJumps {
    #[inline(always)]
    fn full(&self, _: usize, _: usize) -> bool {
        false
    }
    #[inline(always)]
    fn cost(&self, _: usize, _: usize, dx: i32, dy: i32, steps: Cost) -> Cost {
        steps
            * if dx != 0 && dy != 0 {
                COST_DIAGONAL
            } else {
                COST_ONE
            }
    }
}

/// One search for [`Engine::run`]: over `planes` (local coordinates;
/// `origin` is added to every point handed to `heuristic` or written to
/// the path) from the local cell `start` towards a cell of `target`, with
/// at most `budget` expansions and only paths cheaper than `bound`. Jumps
/// stop at the cells of `stops` (`target`'s, and for terrain its
/// boundaries) and are priced by `costs`.
pub(super) struct Query<'a, T, S, C, H> {
    pub(super) planes: &'a Planes,
    pub(super) origin: (u32, u32),
    pub(super) start: Point,
    pub(super) target: &'a T,
    pub(super) stops: &'a S,
    pub(super) costs: &'a C,
    pub(super) heuristic: H,
    pub(super) budget: Option<u32>,
    pub(super) bound: Cost,
}

/// Per-cell scratch, 16 bytes. `stamp` is the generation when open and the
/// generation + 1 when closed.
#[derive(Clone, Copy, Default)]
struct JNode {
    g: Cost,
    stamp: u32,
    /// Local index of the parent jump point; `u32::MAX` for the start.
    parent: u32,
}

const NONE: u32 = u32::MAX;

/// The search itself: node scratch and open list, over any [`Planes`].
#[derive(Default)]
pub(super) struct Engine {
    nodes: Vec<JNode>,
    heap: OpenList,
    /// The open list of searches whose [`JumpCosts::BUCKETS`] is set,
    /// built at the first of them.
    frontier: Option<Box<Frontier>>,
    generation: u32,
}

impl Engine {
    pub(super) fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<JNode>()
            + self.heap.capacity() * std::mem::size_of::<OpenEntry>()
            + self.frontier.as_ref().map_or(0, |f| f.bytes())
    }

    fn begin(&mut self, cells: usize) {
        if self.nodes.len() < cells {
            self.nodes.resize(cells, JNode::default());
        }
        // Two stamps per generation: open and closed.
        self.generation = self.generation.wrapping_add(2);
        if self.generation < 2 {
            for n in &mut self.nodes {
                n.stamp = 0;
            }
            self.generation = 2;
        }
    }

    /// Runs `query` (see [`Query`]) until a cell of its target is expanded
    /// or its budget is spent, writing the path into `out`.
    pub(super) fn run<T: Target, S: Target, C: JumpCosts, H: Fn(Point) -> Cost>(
        &mut self,
        query: Query<'_, T, S, C, H>,
        out: &mut Vec<Point>,
    ) -> SearchStats {
        if C::BUCKETS {
            let mut frontier = self.frontier.take().unwrap_or_default();
            let s = self.search(&mut *frontier, query, out);
            self.frontier = Some(frontier);
            s
        } else {
            let mut heap = std::mem::take(&mut self.heap);
            let s = self.search(&mut heap, query, out);
            self.heap = heap;
            s
        }
    }

    /// [`Engine::run`]'s search with the open list `queue`.
    #[inline(always)]
    fn search<T: Target, S: Target, C: JumpCosts, H: Fn(Point) -> Cost, Q: Open>(
        &mut self,
        queue: &mut Q,
        query: Query<'_, T, S, C, H>,
        out: &mut Vec<Point>,
    ) -> SearchStats {
        let Query {
            planes,
            origin,
            start,
            target,
            stops,
            costs,
            heuristic,
            budget,
            bound,
        } = query;
        out.clear();
        let w = planes.width as usize;
        self.begin(w * planes.height as usize);
        let (ox, oy) = origin;
        let heuristic = |x: usize, y: usize| heuristic(Point::new(ox + x as u32, oy + y as u32));
        let budget = budget.unwrap_or(u32::MAX);
        let (open, closed) = (self.generation, self.generation + 1);
        let s_idx = start.y as usize * w + start.x as usize;
        self.nodes[s_idx] = JNode {
            g: 0,
            stamp: open,
            parent: NONE,
        };
        let h0 = heuristic(start.x as usize, start.y as usize);
        if h0 >= bound {
            // Nothing can beat the bound.
            return SearchStats::no_path(0);
        }
        // Every entry queued has `f` below the bound (checked at the push).
        queue.start(OpenEntry::new(h0, h0, s_idx as u32));
        let mut expanded = 0u32;
        let mut reached = None;
        while let Some(node) = queue.pop() {
            let idx = node as usize;
            let node = self.nodes[idx];
            if node.stamp == closed {
                continue;
            }
            self.nodes[idx].stamp = closed;
            let (x, y) = (idx % w, idx / w);
            let (px, py) = (x + 1, y + 1);
            if target.is_goal(px, py) {
                reached = Some(idx);
                break;
            }
            if expanded >= budget {
                return SearchStats {
                    status: Status::BudgetExhausted,
                    cost: 0.0,
                    expanded,
                };
            }
            expanded += 1;
            // Directions to try, as (dx, dy).
            let mut dirs = [(0i32, 0i32); 8];
            let mut n: usize;
            if node.parent == NONE || costs.full(px, py) {
                dirs = [
                    (0, -1),
                    (1, 0),
                    (0, 1),
                    (-1, 0),
                    (1, -1),
                    (1, 1),
                    (-1, 1),
                    (-1, -1),
                ];
                n = 8;
            } else {
                let (qx, qy) = (node.parent as usize % w, node.parent as usize / w);
                let dx = (x as i64 - qx as i64).signum() as i32;
                let dy = (y as i64 - qy as i64).signum() as i32;
                if dx != 0 && dy != 0 {
                    dirs[0] = (dx, 0);
                    dirs[1] = (0, dy);
                    dirs[2] = (dx, dy);
                    n = 3;
                } else {
                    dirs[0] = (dx, dy);
                    n = 1;
                    // The cell behind, and the two sides perpendicular to
                    // the move.
                    let (bx, by) = (
                        (px as isize - dx as isize) as usize,
                        (py as isize - dy as isize) as usize,
                    );
                    for side in [-1i32, 1] {
                        let (sx, sy) = if dx != 0 { (0, side) } else { (side, 0) };
                        let here_side = planes.open(
                            (px as isize + sx as isize) as usize,
                            (py as isize + sy as isize) as usize,
                        );
                        let behind_side = planes.open(
                            (bx as isize + sx as isize) as usize,
                            (by as isize + sy as isize) as usize,
                        );
                        if here_side && !behind_side {
                            dirs[n] = (sx, sy);
                            dirs[n + 1] = (dx + sx, dy + sy);
                            n += 2;
                        }
                    }
                }
            }
            let g = node.g;
            for &(dx, dy) in &dirs[..n] {
                let jumped = if dx != 0 && dy != 0 {
                    jump_diagonal(planes, px, py, dx, dy, stops)
                } else {
                    jump_straight(planes, px, py, dx, dy, stops)
                };
                let Some((jx, jy)) = jumped else { continue };
                let (nx, ny) = (jx - 1, jy - 1);
                let steps = nx.abs_diff(x).max(ny.abs_diff(y)) as Cost;
                let ng = g + costs.cost(px, py, dx, dy, steps);
                let n_idx = ny * w + nx;
                let nn = &mut self.nodes[n_idx];
                if nn.stamp != open && nn.stamp != closed {
                    *nn = JNode {
                        g: Cost::MAX,
                        stamp: open,
                        parent: NONE,
                    };
                }
                if nn.stamp == open && ng < nn.g {
                    let h = heuristic(nx, ny);
                    if ng + h >= bound {
                        continue;
                    }
                    nn.g = ng;
                    nn.parent = idx as u32;
                    queue.push(OpenEntry::new(ng + h, h, n_idx as u32));
                }
            }
        }

        let Some(end) = reached else {
            return SearchStats::no_path(expanded);
        };
        let (mut straight, mut diagonal) = (0u64, 0u64);
        let mut i = end;
        let at = |x: usize, y: usize| Point::new(ox + x as u32, oy + y as u32);
        loop {
            let (x, y) = (i % w, i / w);
            let parent = self.nodes[i].parent;
            if parent == NONE {
                out.push(at(x, y));
                break;
            }
            let (qx, qy) = (parent as usize % w, parent as usize / w);
            let dx = (qx as isize - x as isize).signum();
            let dy = (qy as isize - y as isize).signum();
            let steps = qx.abs_diff(x).max(qy.abs_diff(y));
            debug_assert!(dx == 0 || dy == 0 || qx.abs_diff(x) == qy.abs_diff(y));
            if dx != 0 && dy != 0 {
                diagonal += steps as u64;
            } else {
                straight += steps as u64;
            }
            for k in 0..steps as isize {
                out.push(at(
                    (x as isize + k * dx) as usize,
                    (y as isize + k * dy) as usize,
                ));
            }
            i = parent as usize;
        }
        out.reverse();
        SearchStats::found(straight, diagonal, expanded)
    }
}
