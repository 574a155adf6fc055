//! Plain Dijkstra over a grid, the source of the optimal lengths written by
//! `regionpath generate` (independent of the A* in `regionpath-search`).

use regionpath::grid::{Grid, Point};
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
    let w = grid.width() as usize;
    let mut dist = vec![f64::INFINITY; w * grid.height() as usize];
    if !grid.is_passable(start) {
        return dist;
    }
    let s = start.y as usize * w + start.x as usize;
    dist[s] = 0.0;
    let mut heap = BinaryHeap::new();
    heap.push(Item { cost: 0.0, cell: s });
    while let Some(Item { cost, cell }) = heap.pop() {
        if cost > dist[cell] {
            continue;
        }
        for_each_move(grid, (cell % w) as u32, (cell / w) as u32, |n, step| {
            let next = cost + step;
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
}
