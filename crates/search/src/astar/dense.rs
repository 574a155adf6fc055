//! The full-grid A* fast path: 8-connected moves, heuristic weight 1, no
//! node budget (the settings of [`crate::AStar::new`]).
//!
//! The generic engine in `engine.rs` serves windows, masks, budgets, weights
//! and 4-connectivity; this loop does one thing. What makes it cheaper:
//!
//! * Nodes are indexed by the grid's padded index, so a move is one added
//!   offset and the padding's blocked border needs no bounds test.
//! * The open list is a bucket queue ([`BucketQueue`]) keyed on `f` alone.
//!   With a consistent heuristic (octile distance is one) the popped `f`
//!   never decreases and a successor's `f` is at most two step costs above
//!   its parent's, so the open keys fit a ring of fine buckets: a push is one
//!   shift and a slot linked in front of its bucket, never moved again, and
//!   a pop usually unlinks the newest entry of the current bucket. Entries
//!   of equal `f` pop newest first, which keeps the search deep (near the
//!   goal) on open ground, as the binary heap's "smaller `h` first" rule
//!   does. It costs fewer instructions per expansion than the 4-ary heap or
//!   a radix heap, and mispredicts fewer branches.
//! * Queue entries carry the cell's coordinates (the heuristic of a
//!   successor needs them), so no division recovers them from an index.
//! * With a consistent heuristic a closed node already has its optimal `g`,
//!   so a successor needs only "fresh, or cheaper than before", and that is
//!   one comparison: each search offsets its costs by a base below every
//!   cost an earlier search wrote ([`Node::g`]).
//! * No branch per move on that outcome. Whether a move finds its cell
//!   fresh, improves it or neither is close to a coin toss for a branch
//!   predictor on cave and maze maps, and a mispredicted branch costs as
//!   much as dozens of instructions. An expansion compares all eight cells
//!   of its block (the cells are in the padded grid, so the reads are
//!   safe) into a bit set, and then loops over the moves that improve. On
//!   open maps, where those branches predict well, the eight reads are
//!   extra work.

use super::successors::SUCCESSORS;
use crate::cost::{Cost, COST_DIAGONAL, COST_ONE};
use crate::moves::{DELTAS, NO_PARENT, STEP};
use crate::queue::BucketQueue;
use crate::types::SearchStats;
use regionpath_grid::{Grid, Point};

/// Per padded cell scratch of the fast path, 16 bytes: the search state
/// and, in what would be padding, the cell's cached 3×3 passability, so an
/// expansion reads one cache line for both.
#[derive(Clone, Copy)]
struct Node {
    /// `base + g` for the `base` of the search that last reached this
    /// node ([`DenseAStar::base`]). Each search's base lies below every
    /// value an earlier search wrote, by more than any `g` of a search can
    /// reach, so a node no search of this base has reached compares above
    /// every cost of this one: "fresh or cheaper" is one comparison.
    g: Cost,
    /// The cell's 3×3 passability ([`Grid::neighborhood_padded`]) once an
    /// expansion has needed it, [`UNKNOWN`] before; valid for the grid
    /// revision [`DenseAStar::hoods_of`] whatever the search (a node reset
    /// for a new search keeps it).
    hood: u16,
    /// Direction of the move that reached this node (8 = none: the start).
    parent: u8,
    closed: bool,
}

const BLANK: Node = Node {
    g: Cost::MAX,
    hood: UNKNOWN,
    parent: NO_PARENT,
    closed: false,
};

/// A [`Node::hood`] not yet read from the grid (a 9-bit block
/// never has its top bits set).
const UNKNOWN: u16 = u16::MAX;

/// Scratch of the fast path: a node per padded cell and the open list.
#[derive(Default)]
pub(crate) struct DenseAStar {
    /// The grid revision the nodes' [`Node::hood`]s were read from (0:
    /// none, all unknown).
    hoods_of: u64,
    nodes: Vec<Node>,
    queue: BucketQueue,
    /// The base of the last search (see [`Node::g`]).
    base: Cost,
}

/// Octile distance in cost units from `(x, y)` to `(gx, gy)`.
#[inline]
fn octile(x: u32, y: u32, gx: u32, gy: u32) -> Cost {
    let dx = x.abs_diff(gx) as u64;
    let dy = y.abs_diff(gy) as u64;
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    hi * COST_ONE + lo * (COST_DIAGONAL - COST_ONE)
}

impl DenseAStar {
    /// Bytes of scratch held.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.queue.bytes()
    }

    /// Searches from `start` to `goal` (both in bounds and passable, checked
    /// by the caller) and writes the path into `out` (cleared first).
    pub(crate) fn run(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> SearchStats {
        out.clear();
        let stride = grid.stride();
        let cells = stride * (grid.height() as usize + 2);
        if self.hoods_of != grid.revision() || self.nodes.len() != cells {
            // Another grid, or this one edited: forget every node and
            // block (a fill, far cheaper than the searches it serves).
            self.nodes.clear();
            self.nodes.resize(cells, BLANK);
            self.hoods_of = grid.revision();
        }
        // No g of a search reaches `span`: g(p) + c(p, n) of an expanded
        // `p` is at most one diagonal per cell (an optimal path repeats no
        // cell).
        let span = cells as Cost * COST_DIAGONAL + 1;
        if self.base == 0 || self.base < span || self.base > Cost::MAX - span {
            // A fresh scratch, or the bases ran out (after 2^64 / span
            // searches: 47,000 on a 512×512 map): every node fresh again.
            for n in &mut self.nodes {
                n.g = Cost::MAX;
            }
            self.base = Cost::MAX - span;
        } else {
            self.base -= span;
        }
        search(
            (&mut self.nodes[..], &mut self.queue),
            self.base,
            grid,
            start,
            goal,
            out,
        )
    }
}

/// The search loop of [`DenseAStar::run`].
fn search(
    (nodes, queue): (&mut [Node], &mut BucketQueue),
    base: Cost,
    grid: &Grid,
    start: Point,
    goal: Point,
    out: &mut Vec<Point>,
) -> SearchStats {
    {
        let stride = grid.stride();

        let (gx, gy) = (goal.x, goal.y);
        let mut offset = [0isize; 8];
        for (d, o) in offset.iter_mut().enumerate() {
            let (dx, dy) = DELTAS[d];
            *o = dy as isize * stride as isize + dx as isize;
        }
        let pack = |x: u32, y: u32| x | (y << 16);

        let si = grid.padded_index(start);
        let s = &mut nodes[si];
        (s.g, s.parent, s.closed) = (base, NO_PARENT, false);
        let f0 = octile(start.x, start.y, gx, gy);
        queue.reset(f0);
        queue.push(f0, pack(start.x, start.y));
        let mut expanded = 0u32;
        let mut reached = None;
        let goal_packed = pack(gx, gy);
        while let Some((_, v)) = queue.pop() {
            let (x, y) = (v & 0xFFFF, v >> 16);
            let i = (y as usize + 1) * stride + x as usize + 1;
            let node = &mut nodes[i];
            if node.closed {
                continue;
            }
            node.closed = true;
            if v == goal_packed {
                reached = Some(i);
                break;
            }
            let g = node.g;
            let parent = node.parent as usize;
            expanded += 1;
            let mut hood = node.hood;
            if hood == UNKNOWN {
                hood = grid.neighborhood_padded(i) as u16;
                node.hood = hood;
            }
            let hood = hood as usize & 511;
            let moves = SUCCESSORS[parent.min(8)][hood] as u32;
            // Which moves improve their cell, without a branch per move
            // (fresh, better or neither is a coin toss for a predictor):
            // all eight cells of the block are read (they lie in the
            // padded grid) and the outcome kept as a bit.
            let mut better = 0u32;
            {
                let row = |c: usize| -> &[Node; 3] {
                    let r: &[Node] = &nodes[c - 1..c + 2];
                    r.try_into().expect("a row of three")
                };
                let (up, mid, down) = (row(i - stride), row(i), row(i + stride));
                for (d, &(dx, dy)) in DELTAS.iter().enumerate() {
                    let r = match dy {
                        -1 => up,
                        0 => mid,
                        _ => down,
                    };
                    let n = &r[(dx + 1) as usize];
                    let b = g + STEP[d] < n.g;
                    better |= (b as u32) << d;
                }
            }
            let mut todo = better & moves;
            while todo != 0 {
                let d = todo.trailing_zeros() as usize & 7;
                todo &= todo - 1;
                let ng = g + STEP[d];
                let n = &mut nodes[(i as isize + offset[d]) as usize];
                // A fresh node keeps only its cached block; an improved
                // one is never closed (a closed node's g is optimal).
                (n.g, n.parent, n.closed) = (ng, d as u8, false);
                let (dx, dy) = DELTAS[d];
                let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
                queue.push(ng - base + octile(nx, ny, gx, gy), pack(nx, ny));
            }
        }

        let Some(mut i) = reached else {
            return SearchStats::no_path(expanded);
        };
        let (mut straight, mut diagonal) = (0u64, 0u64);
        let mut p = goal;
        loop {
            out.push(p);
            let d = nodes[i].parent as usize;
            if d >= NO_PARENT as usize {
                break;
            }
            if d >= 4 {
                diagonal += 1;
            } else {
                straight += 1;
            }
            let (dx, dy) = DELTAS[d];
            p = Point::new(p.x.wrapping_add_signed(-dx), p.y.wrapping_add_signed(-dy));
            i = (i as isize - offset[d]) as usize;
        }
        out.reverse();
        SearchStats::found(straight, diagonal, expanded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::lcg;
    use crate::types::Status;
    use regionpath_grid::{Dir, SQRT2};

    /// Exact octile Dijkstra by `Grid::can_step`, in `f64`: the oracle.
    fn dijkstra(grid: &Grid, s: Point, g: Point) -> Option<f64> {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let mut dist = vec![f64::INFINITY; w * h];
        let mut done = vec![false; w * h];
        dist[s.y as usize * w + s.x as usize] = 0.0;
        loop {
            // O(cells) selection: the grids here are small.
            let (mut best, mut at) = (f64::INFINITY, usize::MAX);
            for (k, &d) in dist.iter().enumerate() {
                if !done[k] && d < best {
                    (best, at) = (d, k);
                }
            }
            if at == usize::MAX {
                return None;
            }
            let p = Point::new((at % w) as u32, (at / w) as u32);
            if p == g {
                return Some(best);
            }
            done[at] = true;
            for d in Dir::ALL {
                if grid.can_step(p, d) {
                    let (dx, dy) = d.delta();
                    let q = Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
                    let k = q.y as usize * w + q.x as usize;
                    let c = best + if dx != 0 && dy != 0 { SQRT2 } else { 1.0 };
                    if c < dist[k] {
                        dist[k] = c;
                    }
                }
            }
        }
    }

    #[test]
    fn reused_scratch_is_exact_across_searches_and_base_refills() {
        // One searcher, many searches on one grid: every cost written by an
        // earlier search (at a higher base) must read as "fresh". Bases are
        // also forced down to the last one or two before the refill, so the
        // refill runs, and searches right after it are checked too.
        let mut rnd = lcg(77);
        let (w, h) = (23u32, 17u32);
        let mut grid = Grid::new(w, h, true).unwrap();
        for _ in 0..120 {
            let p = Point::new(rnd(w as u64) as u32, rnd(h as u64) as u32);
            grid.set_passable(p, false).unwrap();
        }
        let open: Vec<Point> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|&p| grid.is_passable(p))
            .collect();
        let mut a = DenseAStar::default();
        let mut path = Vec::new();
        let span = (grid.stride() * (h as usize + 2)) as Cost * COST_DIAGONAL + 1;
        let (mut found, mut refills) = (0, 0);
        for q in 0..400 {
            match q % 50 {
                // Two searches left: the next uses base `span`, then 0.
                10 => a.base = 2 * span,
                // Below one span: the next search refills.
                30 => a.base = span - 1,
                _ => {}
            }
            let before = a.base;
            let s = open[rnd(open.len() as u64) as usize];
            let g = open[rnd(open.len() as u64) as usize];
            let st = a.run(&grid, s, g, &mut path);
            if a.base > before {
                refills += 1;
            }
            match dijkstra(&grid, s, g) {
                None => assert_eq!(st.status, Status::NoPath, "query {q}"),
                Some(want) => {
                    assert_eq!(st.status, Status::Found, "query {q}");
                    assert!(
                        (st.cost - want).abs() < 1e-6,
                        "query {q}: {} vs {want}",
                        st.cost
                    );
                    assert_eq!((path[0], path[path.len() - 1]), (s, g));
                    for pair in path.windows(2) {
                        let d = Dir::ALL.into_iter().find(|d| {
                            let (dx, dy) = d.delta();
                            pair[0].x.wrapping_add_signed(dx) == pair[1].x
                                && pair[0].y.wrapping_add_signed(dy) == pair[1].y
                        });
                        assert!(d.is_some_and(|d| grid.can_step(pair[0], d)), "query {q}");
                    }
                    found += 1;
                }
            }
        }
        // The first search and every forced exhaustion refilled; most
        // pairs were connected.
        assert_eq!(refills, 1 + 400 / 50 * 2, "refills");
        assert!(found > 200, "{found}");
    }

    #[test]
    fn edits_and_other_grids_are_seen_through_the_block_cache() {
        // One searcher across an edit and across a second grid of the
        // same size: each answer must be the one for the grid as it is.
        let mut grid = Grid::from_rows(&[".....", ".....", "....."]).unwrap();
        let mut a = DenseAStar::default();
        let mut path = Vec::new();
        let (s, g) = (Point::new(0, 1), Point::new(4, 1));
        let st = a.run(&grid, s, g, &mut path);
        assert_eq!((st.status, st.cost), (Status::Found, 4.0));
        // Wall in column 2 but for its bottom cell: round it, no corner
        // cutting: a diagonal, two straight steps, a diagonal.
        grid.set_passable(Point::new(2, 0), false).unwrap();
        grid.set_passable(Point::new(2, 1), false).unwrap();
        let st = a.run(&grid, s, g, &mut path);
        assert_eq!(st.status, Status::Found);
        assert!((st.cost - (2.0 + 2.0 * SQRT2)).abs() < 1e-9, "{}", st.cost);
        assert!(path.iter().all(|&p| grid.is_passable(p)));
        // A clone is its own grid: opening the wall there is seen there,
        // and the original keeps its wall.
        let mut open = grid.clone();
        open.set_passable(Point::new(2, 1), true).unwrap();
        assert_eq!(a.run(&open, s, g, &mut path).cost, 4.0);
        let st = a.run(&grid, s, g, &mut path);
        assert!((st.cost - (2.0 + 2.0 * SQRT2)).abs() < 1e-9, "{}", st.cost);
        // Fully walled: no path.
        grid.set_passable(Point::new(2, 2), false).unwrap();
        assert_eq!(a.run(&grid, s, g, &mut path).status, Status::NoPath);
    }
}
