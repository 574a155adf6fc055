//! Random maps shared by the tests. Every builder takes the caller's draw
//! `below(n)` (a number in `0..n`, e.g. `&mut |n| rng.below(n)`), so the
//! same seed gives the same map whatever generator the caller uses.

use regionpath_grid::{Grid, Point};

/// A `w × h` grid (both ≥ 1) whose cells are blocked when `below(100) <
/// percent`: one draw per cell, row by row, left to right.
pub fn obstacles(w: u32, h: u32, percent: u64, below: &mut impl FnMut(u64) -> u64) -> Grid {
    let mut g = Grid::new(w, h, true).expect("a valid size");
    for y in 0..h {
        for x in 0..w {
            if below(100) < percent {
                g.set_passable(Point::new(x, y), false).expect("in bounds");
            }
        }
    }
    g
}

/// The order in which [`maze`] lists a room's neighbours: east, west,
/// south, north.
pub const EAST_FIRST: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The order in which [`maze`] lists a room's neighbours: west, east,
/// north, south.
pub const WEST_FIRST: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A perfect maze of one-cell corridors on a `w × h` grid (each ≥ 3 when
/// `walled`, ≥ 1 otherwise): rooms at odd coordinates inside a one-cell
/// outer wall (`walled`, `(w − 1) / 2` rooms across), or at even
/// coordinates from the corner (`(w + 1) / 2` across). A randomised
/// depth-first walk from room (0, 0) opens the wall cell between a room and
/// a neighbour not yet seen, chosen by one draw `below(k)` among the `k`
/// unseen neighbours listed in `order` ([`EAST_FIRST`] or [`WEST_FIRST`]).
/// Every room is reachable and the corridors form a tree.
pub fn maze(
    w: u32,
    h: u32,
    walled: bool,
    order: [(i64, i64); 4],
    below: &mut impl FnMut(u64) -> u64,
) -> Grid {
    let mut g = Grid::new(w, h, false).expect("a valid size");
    let o = u32::from(walled);
    let (rw, rh) = ((w + 1 - 2 * o) / 2, (h + 1 - 2 * o) / 2);
    let room = |x: u32, y: u32| Point::new(2 * x + o, 2 * y + o);
    let mut seen = vec![false; (rw * rh) as usize];
    let mut stack = vec![(0u32, 0u32)];
    seen[0] = true;
    g.set_passable(room(0, 0), true).expect("in bounds");
    while let Some(&(x, y)) = stack.last() {
        let next: Vec<(u32, u32)> = order
            .iter()
            .map(|&(dx, dy)| (i64::from(x) + dx, i64::from(y) + dy))
            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && nx < i64::from(rw) && ny < i64::from(rh))
            .map(|(nx, ny)| (nx as u32, ny as u32))
            .filter(|&(nx, ny)| !seen[(ny * rw + nx) as usize])
            .collect();
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[below(next.len() as u64) as usize];
        seen[(ny * rw + nx) as usize] = true;
        let (a, b) = (room(x, y), room(nx, ny));
        g.set_passable(Point::new((a.x + b.x) / 2, (a.y + b.y) / 2), true)
            .expect("in bounds");
        g.set_passable(b, true).expect("in bounds");
        stack.push((nx, ny));
    }
    g
}

/// Opens up to `count` wall cells of `g` (width and height ≥ 3) to add
/// loops to a walled [`maze`]: per try, a cell off the outer wall by two
/// draws (`1 + below(w − 2)`, `1 + below(h − 2)`), opened when `x + y` is odd
/// (a wall between two rooms, not a corner post).
pub fn knock_through(g: &mut Grid, count: u32, below: &mut impl FnMut(u64) -> u64) {
    let (w, h) = (g.width(), g.height());
    for _ in 0..count {
        let p = Point::new(
            1 + below(u64::from(w) - 2) as u32,
            1 + below(u64::from(h) - 2) as u32,
        );
        if (p.x + p.y) % 2 == 1 {
            g.set_passable(p, true).expect("in bounds");
        }
    }
}

/// A random open cell: up to 1000 tries of two draws each (`below(w)`,
/// `below(h)`), the first passable one, or `None`.
pub fn random_open(grid: &Grid, below: &mut impl FnMut(u64) -> u64) -> Option<Point> {
    for _ in 0..1000 {
        let p = Point::new(
            below(u64::from(grid.width())) as u32,
            below(u64::from(grid.height())) as u32,
        );
        if grid.is_passable(p) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng64, SplitMix64};

    #[test]
    fn mazes_are_connected_trees() {
        for walled in [false, true] {
            let mut rng = SplitMix64(3);
            let g = maze(21, 15, walled, EAST_FIRST, &mut |n| rng.below(n));
            let cells = crate::passable_cells(&g);
            let from = cells[0];
            let d = crate::distances(&g, from);
            assert!(cells
                .iter()
                .all(|p| d[(p.y * g.width() + p.x) as usize].is_finite()));
            // A tree of one-cell corridors: cells = 2 × rooms − 1.
            let rooms = if walled { 10 * 7 } else { 11 * 8 };
            assert_eq!(cells.len(), 2 * rooms - 1);
        }
    }

    #[test]
    fn obstacles_follow_the_draws() {
        let g = obstacles(3, 2, 50, &mut |_| 0);
        assert_eq!(g.passable_count(), 0);
        let g = obstacles(3, 2, 50, &mut |_| 99);
        assert_eq!(g.passable_count(), 6);
    }
}
