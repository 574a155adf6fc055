//! Helpers shared by the hierarchy's integration tests: the Dijkstra
//! oracle (written for the tests: only `Grid::is_passable` is used from the
//! library), the passable cells of a grid, and a maze generator.

// Each test binary uses its own subset.
#![allow(dead_code)]

use regionpath_grid::{Grid, Point};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// √2, the cost of a diagonal step.
pub const SQRT2: f64 = std::f64::consts::SQRT_2;

/// Whether `(x, y)` is inside `g` and passable (the oracle's own bounds
/// check).
pub fn open(g: &Grid, x: i64, y: i64) -> bool {
    x >= 0
        && y >= 0
        && x < g.width() as i64
        && y < g.height() as i64
        && g.is_passable(Point::new(x as u32, y as u32))
}

/// Whether the move from `(x, y)` by `(dx, dy)` is legal: the target is
/// passable and, for a diagonal, both orthogonal neighbours are too.
pub fn legal(g: &Grid, x: i64, y: i64, dx: i64, dy: i64) -> bool {
    open(g, x + dx, y + dy) && (dx == 0 || dy == 0 || (open(g, x + dx, y) && open(g, x, y + dy)))
}

/// Plain Dijkstra: the cost from `s` to every cell (infinite where
/// unreachable), indexed `y * width + x`.
pub fn dijkstra(g: &Grid, s: Point) -> Vec<f64> {
    let w = g.width() as usize;
    let mut dist = vec![f64::INFINITY; w * g.height() as usize];
    let mut heap = BinaryHeap::new();
    dist[s.y as usize * w + s.x as usize] = 0.0;
    // Non-negative f64s order like their bit patterns.
    heap.push(Reverse((0.0f64.to_bits(), s.x, s.y)));
    while let Some(Reverse((bits, x, y))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[y as usize * w + x as usize] {
            continue;
        }
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                if (dx, dy) == (0, 0) || !legal(g, x as i64, y as i64, dx, dy) {
                    continue;
                }
                let nd = d + if dx != 0 && dy != 0 { SQRT2 } else { 1.0 };
                let (nx, ny) = ((x as i64 + dx) as u32, (y as i64 + dy) as u32);
                let i = ny as usize * w + nx as usize;
                if nd < dist[i] {
                    dist[i] = nd;
                    heap.push(Reverse((nd.to_bits(), nx, ny)));
                }
            }
        }
    }
    dist
}

/// Every passable cell of `g`, row by row.
pub fn passable_cells(g: &Grid) -> Vec<Point> {
    (0..g.height())
        .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
        .filter(|&p| g.is_passable(p))
        .collect()
}

/// A maze of one-cell corridors (cells at odd coordinates, carved by a
/// randomized depth-first search), with `loops` extra walls knocked out:
/// many small regions per sector whose bounding boxes overlap, as on the
/// Moving AI mazes. `below(n)` is the caller's random number below `n`.
pub fn maze_grid(below: &mut impl FnMut(u64) -> u64, w: u32, h: u32, loops: u32) -> Grid {
    let mut g = Grid::new(w, h, false).unwrap();
    let (cw, ch) = ((w - 1) / 2, (h - 1) / 2);
    let cell = |cx: u32, cy: u32| Point::new(2 * cx + 1, 2 * cy + 1);
    let mut seen = vec![false; (cw * ch) as usize];
    let mut stack = vec![(0u32, 0u32)];
    seen[0] = true;
    g.set_passable(cell(0, 0), true).unwrap();
    while let Some(&(cx, cy)) = stack.last() {
        let next: Vec<(u32, u32)> = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
            .iter()
            .map(|&(dx, dy)| (cx as i64 + dx, cy as i64 + dy))
            .filter(|&(x, y)| x >= 0 && y >= 0 && x < cw as i64 && y < ch as i64)
            .map(|(x, y)| (x as u32, y as u32))
            .filter(|&(x, y)| !seen[(y * cw + x) as usize])
            .collect();
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[below(next.len() as u64) as usize];
        seen[(ny * cw + nx) as usize] = true;
        let (a, b) = (cell(cx, cy), cell(nx, ny));
        g.set_passable(Point::new((a.x + b.x) / 2, (a.y + b.y) / 2), true)
            .unwrap();
        g.set_passable(b, true).unwrap();
        stack.push((nx, ny));
    }
    for _ in 0..loops {
        let p = Point::new(
            1 + below(w as u64 - 2) as u32,
            1 + below(h as u64 - 2) as u32,
        );
        if (p.x + p.y) % 2 == 1 {
            g.set_passable(p, true).unwrap();
        }
    }
    g
}

/// The Moving AI folder: `$REGIONPATH_MOVINGAI`, else `shared/movingai`
/// beside the workspace.
#[allow(dead_code)]
pub fn movingai_dir() -> std::path::PathBuf {
    match std::env::var_os("REGIONPATH_MOVINGAI") {
        Some(d) => std::path::PathBuf::from(d),
        None => {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai")
        }
    }
}
