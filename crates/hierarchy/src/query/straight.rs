//! Straight octile paths: a query whose start sees its goal along one of
//! a few fixed step orders is answered with no region lookup and no search.

use super::*;

/// Step orders of a straight octile path: `max(dx, dy)` steps, `min(dx,
/// dy)` of them diagonal, all in the direction of the goal. Every such path
/// costs exactly the octile distance, so any one whose cells are free (and
/// whose diagonals cut no corner) is optimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StepOrder {
    /// Diagonals spread evenly (the cells closest to the straight line).
    Even,
    /// All diagonals first, then the straight steps.
    DiagonalFirst,
    /// All straight steps first, then the diagonals.
    StraightFirst,
}

/// Walks a straight octile path from `a` to `b` in the given step order,
/// appending each cell after `a` to `out` when given. Returns `false` at the
/// first step that is not a legal move (the cells pushed so far stay).
/// Bit tests on the padded grid only: a few nanoseconds a step, and a
/// blocked path usually fails within its first cells.
pub(super) fn straight_walk(
    grid: &Grid,
    a: Point,
    b: Point,
    order: StepOrder,
    mut out: Option<&mut Vec<Point>>,
) -> bool {
    let (dx, dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
    let (adx, ady) = (dx.unsigned_abs(), dy.unsigned_abs());
    let (n, d) = (adx.max(ady), adx.min(ady));
    let (sx, sy) = (dx.signum() as i32, dy.signum() as i32);
    // The straight step goes along the longer axis.
    let (mx, my) = if adx >= ady { (sx, 0) } else { (0, sy) };
    // `None` only when `a == b` (nothing to walk); when `d == 0` no step
    // is diagonal, whatever `diagonal` holds.
    let (Some(straight), diagonal) = (Dir::from_delta(mx, my), Dir::from_delta(sx, sy)) else {
        return true;
    };
    let mut i = grid.padded_index(a);
    let mut p = a;
    for k in 0..n {
        let diag = match order {
            StepOrder::Even => ((k + 1) * d + n / 2) / n != (k * d + n / 2) / n,
            StepOrder::DiagonalFirst => k < d,
            StepOrder::StraightFirst => k >= n - d,
        };
        let dir = match diagonal {
            Some(dg) if diag => dg,
            _ => straight,
        };
        if !grid.can_step_padded(i, dir) {
            return false;
        }
        i = (i as isize + grid.padded_offset(dir)) as usize;
        let (ddx, ddy) = dir.delta();
        p = Point::new(
            (p.x as i64 + ddx as i64) as u32,
            (p.y as i64 + ddy as i64) as u32,
        );
        if let Some(o) = out.as_deref_mut() {
            o.push(p);
        }
    }
    true
}

/// The first step order whose straight octile path from `a` to `b` is free.
pub(super) fn straight_order(grid: &Grid, a: Point, b: Point) -> Option<StepOrder> {
    [
        StepOrder::Even,
        StepOrder::DiagonalFirst,
        StepOrder::StraightFirst,
    ]
    .into_iter()
    .find(|&o| straight_walk(grid, a, b, o, None))
}
