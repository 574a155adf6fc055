//! Helpers shared by the crate's unit tests.

use regionpath_grid::{Grid, Point};

/// A reproducible xorshift generator: each call `below(n)` draws from
/// `0..n`.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u32) -> u32 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as u32
    }
}

/// A `w × h` grid whose cells are blocked with probability `density` %
/// (one draw of `below(100)` per cell, row by row).
pub(crate) fn random_grid(
    w: u32,
    h: u32,
    density: u32,
    below: &mut impl FnMut(u32) -> u32,
) -> Grid {
    let mut g = Grid::new(w, h, true).unwrap();
    for y in 0..h {
        for x in 0..w {
            if below(100) < density {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    g
}

/// A perfect maze of one-cell corridors (a `(2k − 1) × (2m − 1)` grid for
/// `w = 2k − 1`, `h = 2m − 1`): rooms at even coordinates, joined by a
/// depth-first walk that opens the wall cell between two rooms.
pub(crate) fn maze(w: u32, h: u32, below: &mut impl FnMut(u32) -> u32) -> Grid {
    let mut g = Grid::new(w, h, false).unwrap();
    let (rw, rh) = (w.div_ceil(2), h.div_ceil(2));
    let mut seen = vec![false; (rw * rh) as usize];
    let mut stack = vec![(0u32, 0u32)];
    seen[0] = true;
    g.set_passable(Point::new(0, 0), true).unwrap();
    while let Some(&(x, y)) = stack.last() {
        let mut next = Vec::new();
        for (dx, dy) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            let inside = nx >= 0 && ny >= 0 && nx < rw as i64 && ny < rh as i64;
            if inside && !seen[(ny as u32 * rw + nx as u32) as usize] {
                next.push((nx as u32, ny as u32));
            }
        }
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[below(next.len() as u32) as usize];
        seen[(ny * rw + nx) as usize] = true;
        g.set_passable(Point::new(x + nx, y + ny), true).unwrap();
        g.set_passable(Point::new(2 * nx, 2 * ny), true).unwrap();
        stack.push((nx, ny));
    }
    g
}
