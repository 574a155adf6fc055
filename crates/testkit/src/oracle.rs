//! An exact Dijkstra over the grid, the tests' oracle for optimal lengths.
//! Straight steps cost 1, diagonal steps √2, a diagonal only when both
//! orthogonally adjacent cells are open (no corner cutting). Binary heap
//! keyed by (distance, cell index), neighbours in the order of `Dir::ALL`
//! (N, E, S, W, NE, SE, SW, NW; only the directions are taken from the
//! library), relaxation only on strict improvement: `O(n log n)` for `n`
//! cells, deterministic paths on ties.

use crate::rng::Rng64;
use crate::{Area, Moves, Rules};
use regionpath_grid::{Dir, Grid, Point};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Distances and parents of one search.
struct Field {
    dist: Vec<f64>,
    parent: Vec<usize>,
}

/// Runs from `start` (which must be open under `rules`) until `goal` is
/// settled or the heap is empty. Entering cell `i` costs the step plus
/// `extra[i]` when given.
fn search(grid: &Grid, start: Point, goal: Option<Point>, rules: Rules, extra: &[f64]) -> Field {
    let w = grid.width() as usize;
    let n = w * grid.height() as usize;
    let idx = |p: Point| p.y as usize * w + p.x as usize;
    let mut f = Field {
        dist: vec![f64::INFINITY; n],
        parent: vec![usize::MAX; n],
    };
    let mut heap = BinaryHeap::new();
    f.dist[idx(start)] = 0.0;
    // Non-negative f64s order like their bit patterns.
    heap.push(Reverse((0u64, idx(start))));
    let goal = goal.map(idx);
    while let Some(Reverse((bits, i))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > f.dist[i] {
            continue;
        }
        if Some(i) == goal {
            break;
        }
        let (x, y) = ((i % w) as i64, (i / w) as i64);
        for dir in Dir::ALL {
            let (dx, dy) = dir.delta();
            let (dx, dy) = (i64::from(dx), i64::from(dy));
            let Ok(cost) = rules.step(grid, x, y, dx, dy) else {
                continue;
            };
            let j = (y + dy) as usize * w + (x + dx) as usize;
            let nd = d + cost + extra.get(j).copied().unwrap_or(0.0);
            if nd < f.dist[j] {
                f.dist[j] = nd;
                f.parent[j] = i;
                heap.push(Reverse((nd.to_bits(), j)));
            }
        }
    }
    f
}

/// The cost of a shortest path from `start` to every cell, indexed
/// `y × width + x` (8-connected, whole grid); infinite where unreachable,
/// everywhere when `start` is blocked or off the map.
pub fn distances(grid: &Grid, start: Point) -> Vec<f64> {
    let cells = grid.width() as usize * grid.height() as usize;
    if !crate::open(grid, i64::from(start.x), i64::from(start.y)) {
        return vec![f64::INFINITY; cells];
    }
    search(grid, start, None, Rules::EIGHT, &[]).dist
}

/// The cost of a shortest path from `start` to `goal` using `moves` and
/// staying inside `area`, or `None` when there is none (or an end is
/// blocked, off the map or outside `area`). Stops when `goal` is settled.
pub fn distance(grid: &Grid, start: Point, goal: Point, moves: Moves, area: Area) -> Option<f64> {
    let rules = Rules {
        moves,
        area: Some(area),
    };
    let open = |p: Point| rules.open(grid, i64::from(p.x), i64::from(p.y));
    if !open(start) || !open(goal) {
        return None;
    }
    let d = search(grid, start, Some(goal), rules, &[]).dist;
    let d = d[goal.y as usize * grid.width() as usize + goal.x as usize];
    d.is_finite().then_some(d)
}

/// A shortest path from `start` to `goal` (8-connected, whole grid), both
/// ends included, or `None` when there is none or an end is blocked.
pub fn path(grid: &Grid, start: Point, goal: Point) -> Option<Vec<Point>> {
    path_with(grid, start, goal, &[])
}

/// A valid, usually winding path: [`path`] where entering each cell also
/// costs a random extra in `[0, jitter)`. Draws `width × height` times
/// `rng.unit()` first (also when `jitter` is 0, which gives a shortest
/// path), in cell order.
pub fn jittered_path(
    grid: &Grid,
    start: Point,
    goal: Point,
    rng: &mut impl Rng64,
    jitter: f64,
) -> Option<Vec<Point>> {
    let cells = grid.width() as usize * grid.height() as usize;
    let extra: Vec<f64> = (0..cells).map(|_| rng.unit() * jitter).collect();
    path_with(grid, start, goal, &extra)
}

fn path_with(grid: &Grid, start: Point, goal: Point, extra: &[f64]) -> Option<Vec<Point>> {
    let ok = |p: Point| crate::open(grid, i64::from(p.x), i64::from(p.y));
    if !ok(start) || !ok(goal) {
        return None;
    }
    let w = grid.width() as usize;
    let idx = |p: Point| p.y as usize * w + p.x as usize;
    let f = search(grid, start, Some(goal), Rules::EIGHT, extra);
    if f.dist[idx(goal)].is_infinite() {
        return None;
    }
    let mut out = vec![goal];
    let mut i = idx(goal);
    while i != idx(start) {
        i = f.parent[i];
        out.push(Point::new((i % w) as u32, (i / w) as u32));
    }
    out.reverse();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_path;
    use std::f64::consts::SQRT_2;

    use crate::p;

    #[test]
    fn hand_computed_distances() {
        let g = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
        let all = Area::whole(&g);
        // Around the wall: no corner cutting past (1, 1) and (2, 1).
        assert_eq!(distance(&g, p(0, 1), p(3, 1), Moves::Eight, all), Some(5.0));
        assert_eq!(distance(&g, p(0, 0), p(0, 0), Moves::Eight, all), Some(0.0));
        assert_eq!(distance(&g, p(0, 0), p(1, 1), Moves::Eight, all), None);
        let open = Grid::from_rows(&["...", "...", "..."]).unwrap();
        let whole = Area::whole(&open);
        let d = distance(&open, p(0, 0), p(2, 1), Moves::Eight, whole).unwrap();
        assert!((d - (1.0 + SQRT_2)).abs() < 1e-12);
        assert_eq!(
            distance(&open, p(0, 0), p(2, 1), Moves::Four, whole),
            Some(3.0)
        );
        let row = Area {
            x: 0,
            y: 2,
            width: 3,
            height: 1,
        };
        assert_eq!(
            distance(&open, p(0, 2), p(2, 2), Moves::Eight, row),
            Some(2.0)
        );
        assert_eq!(distance(&open, p(0, 1), p(2, 2), Moves::Eight, row), None);
        let g = Grid::from_rows(&[".@", "@."]).unwrap();
        assert_eq!(
            distance(&g, p(0, 0), p(1, 1), Moves::Eight, Area::whole(&g)),
            None
        );
    }

    #[test]
    fn distance_field_and_paths_agree() {
        let g = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
        let d = distances(&g, p(0, 1));
        // (1, 0) and (1, 2) are two straight steps away: the diagonal past
        // the wall cell (1, 1) would cut its corner.
        let inf = f64::INFINITY;
        let expect = [1.0, 2.0, 3.0, 4.0, 0.0, inf, inf, 5.0, 1.0, 2.0, 3.0, 4.0];
        for (a, b) in d.iter().zip(expect) {
            assert_eq!(*a, b, "{d:?}");
        }
        let route = path(&g, p(0, 1), p(3, 1)).unwrap();
        assert_eq!(check_path(&g, &route, p(0, 1), p(3, 1)), Ok(5.0));
        assert_eq!(path(&g, p(0, 1), p(1, 1)), None);
        assert!(distances(&g, p(1, 1)).iter().all(|d| d.is_infinite()));
        let mut rng = crate::SplitMix64(1);
        let wind = jittered_path(&g, p(0, 0), p(3, 2), &mut rng, 0.5).unwrap();
        assert!(check_path(&g, &wind, p(0, 0), p(3, 2)).is_ok());
    }
}
