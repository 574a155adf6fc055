//! Plain Dijkstra over a grid, the source of the optimal lengths written by
//! `regionpath generate` (independent of the A* in `regionpath-search`).

use regionpath::grid::{Grid, Point, ProfileGrid};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The eight moves as `(dx, dy)`, straight ones first.
const MOVES: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

#[derive(Clone, Copy, PartialEq)]
struct Item {
    cost: f64,
    cell: usize,
}

impl Eq for Item {}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> Ordering {
        // Min-heap on cost.
        other
            .cost
            .total_cmp(&self.cost)
            .then(other.cell.cmp(&self.cell))
    }
}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Calls `visit(neighbour, cost)` for every legal move out of the passable
/// in-bounds cell `(x, y)`: onto a passable cell, and for a diagonal only
/// when both orthogonally adjacent cells are passable (no corner cutting).
pub fn for_each_move(grid: &Grid, x: u32, y: u32, mut visit: impl FnMut(Point, f64)) {
    let free = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < i64::from(grid.width())
            && y < i64::from(grid.height())
            && grid.is_passable(Point::new(x as u32, y as u32))
    };
    let (x, y) = (i64::from(x), i64::from(y));
    for (dx, dy) in MOVES {
        let (nx, ny) = (x + dx, y + dy);
        if !free(nx, ny) {
            continue;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal && !(free(x + dx, y) && free(x, y + dy)) {
            continue;
        }
        let cost = if diagonal {
            std::f64::consts::SQRT_2
        } else {
            1.0
        };
        visit(Point::new(nx as u32, ny as u32), cost);
    }
}

/// Shortest 8-connected path costs (straight 1, diagonal √2, no corner
/// cutting) from `start` to every cell, row-major (`y * width + x`);
/// `f64::INFINITY` where unreachable or blocked. An out-of-bounds or
/// blocked start reaches nothing.
pub fn distances(grid: &Grid, start: Point) -> Vec<f64> {
    if !grid.is_passable(start) {
        return vec![f64::INFINITY; grid.width() as usize * grid.height() as usize];
    }
    dijkstra(grid, start, |_, _, length| length)
}

/// Dijkstra over `grid`'s moves ([`for_each_move`]) from the passable
/// `start`; a move from `p` to `n` of base length `length` costs
/// `step(p, n, length)` (non-negative).
fn dijkstra(grid: &Grid, start: Point, step: impl Fn(Point, Point, f64) -> f64) -> Vec<f64> {
    let w = grid.width() as usize;
    let mut dist = vec![f64::INFINITY; w * grid.height() as usize];
    let s = start.y as usize * w + start.x as usize;
    dist[s] = 0.0;
    let mut heap = BinaryHeap::new();
    heap.push(Item { cost: 0.0, cell: s });
    while let Some(Item { cost, cell }) = heap.pop() {
        if cost > dist[cell] {
            continue;
        }
        let p = Point::new((cell % w) as u32, (cell / w) as u32);
        for_each_move(grid, p.x, p.y, |n, length| {
            let next = cost + step(p, n, length);
            let i = n.y as usize * w + n.x as usize;
            if next < dist[i] {
                dist[i] = next;
                heap.push(Item {
                    cost: next,
                    cell: i,
                });
            }
        });
    }
    dist
}

/// Cheapest costs under a movement profile from position `start` to every
/// position, row-major; `f64::INFINITY` where unreachable or not usable.
/// The moves are those of [`for_each_move`] over the view's usable
/// positions (so a diagonal needs both orthogonal positions usable), and a
/// step costs its length times the mean of the two positions' costs.
pub fn weighted_distances(view: &ProfileGrid, start: Point) -> Vec<f64> {
    let grid = view.grid();
    if view.position_cost(start).is_none() {
        return vec![f64::INFINITY; grid.width() as usize * grid.height() as usize];
    }
    let cost = |p: Point| view.position_cost(p).unwrap_or(f64::INFINITY);
    dijkstra(grid, start, |p, n, length| {
        length * ((cost(p) + cost(n)) / 2.0)
    })
}

/// A shortest 8-connected path (as [`distances`]) from `start` to `goal`,
/// both ends included, or `None` when `goal` cannot be reached. Walks back
/// from the goal to a neighbour whose distance plus the step gives the
/// current one, trying the moves in a fixed order, so the same grid always
/// gives the same path.
pub fn shortest_path(grid: &Grid, start: Point, goal: Point) -> Option<Vec<Point>> {
    let w = grid.width() as usize;
    let dist = distances(grid, start);
    let at = |p: Point| dist[p.y as usize * w + p.x as usize];
    if !grid.is_passable(goal) || !at(goal).is_finite() {
        return None;
    }
    let mut path = vec![goal];
    let mut here = goal;
    while here != start {
        let mut back = None;
        // Moves are symmetric, so the moves out of `here` are the moves
        // into it.
        for_each_move(grid, here.x, here.y, |n, step| {
            if back.is_none() && (at(n) + step - at(here)).abs() < 1e-9 * at(here).max(1.0) {
                back = Some(n);
            }
        });
        here = back?;
        path.push(here);
    }
    path.reverse();
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_costs() {
        let g = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
        let d = distances(&g, Point::new(0, 1));
        // Round the wall: the corners of the wall forbid every diagonal.
        assert_eq!(d[4 + 3], 5.0);
        assert_eq!(d[3], 4.0);
        assert_eq!(d[8 + 1], 2.0);
        let open = Grid::from_rows(&["...", "...", "..."]).unwrap();
        let o = distances(&open, Point::new(0, 0));
        assert!((o[8] - 2.0 * std::f64::consts::SQRT_2).abs() < 1e-12);
        assert!((o[7] - (1.0 + std::f64::consts::SQRT_2)).abs() < 1e-12);
        assert_eq!(d[4 + 1], f64::INFINITY);
        // No corner cutting: the diagonal through two blocked corners is shut.
        let g = Grid::from_rows(&[".@", "@."]).unwrap();
        let d = distances(&g, Point::new(0, 0));
        assert_eq!(d[3], f64::INFINITY);
        assert_eq!(distances(&g, Point::new(1, 0)), vec![f64::INFINITY; 4]);
    }

    #[test]
    fn shortest_paths_are_legal_and_as_long_as_the_distance() {
        let g = Grid::from_rows(&[".....", ".@@@.", ".....", "....@"]).unwrap();
        let (s, t) = (Point::new(0, 1), Point::new(4, 2));
        let path = shortest_path(&g, s, t).unwrap();
        let steps = crate::validate::check_path(&g, s, t, &path).unwrap();
        let d = distances(&g, s)[2 * 5 + 4];
        assert!((steps.length() - d).abs() < 1e-12);
        assert_eq!(shortest_path(&g, s, Point::new(4, 3)), None);
        assert_eq!(shortest_path(&g, s, s), Some(vec![s]));
    }

    #[test]
    fn weighted_distances_price_positions() {
        use regionpath::grid::Profile;
        // A 2-wide unit on ground (1) and swamp (3): from (0,0) the
        // position (1,0) covers an S, so it costs 3.
        let g = Grid::from_rows(&[".S..", "....", "...."]).unwrap();
        let p = Profile::builder("t")
            .size(2)
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&g, &p);
        let d = weighted_distances(&view, Point::new(0, 1));
        // (0,1) -> (1,1) -> (2,1): both ground.
        assert_eq!(d[4 + 2], 2.0);
        // (0,1) -> (1,0): a diagonal into a swamp position, √2 · 2.
        assert!((d[1] - 2.0 * std::f64::consts::SQRT_2).abs() < 1e-12);
        // Columns 3 and row 2 are no positions for a 2-wide unit.
        assert_eq!(d[3], f64::INFINITY);
        assert_eq!(d[8], f64::INFINITY);
    }
}
