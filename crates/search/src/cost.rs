//! Fixed-point path costs.
//!
//! The engine keeps `g` and `h` as integers: one cell is [`COST_ONE`]
//! units, a diagonal step [`COST_DIAGONAL`] (√2 rounded). Integer addition
//! is exact and associative, so every path with the same numbers of straight
//! and diagonal steps gets exactly the same cost whatever the order of its
//! steps, and `g + h` stays exactly constant along an unobstructed optimal
//! path. With `f64` costs those ties come out a few ulps apart, which
//! defeats tie-breaking (on open maps A* then expands many times more
//! nodes). The rounding of √2 (under 5·10⁻¹⁰ per diagonal step) cannot
//! reorder two paths of different real length unless they have tens of
//! thousands of diagonal steps; reported costs are recomputed exactly from
//! the step counts.

use regionpath_grid::{Connectivity, Point};

/// A path cost in fixed point: [`COST_ONE`] per cell.
pub type Cost = u64;

/// The cost of a straight step.
pub const COST_ONE: Cost = 1 << 30;

/// The cost of a diagonal step: √2 · 2³⁰, rounded.
pub const COST_DIAGONAL: Cost = 1_518_500_250;

/// Octile distance in cost units, computed in integers so that it agrees
/// exactly with sums of step costs.
#[inline]
pub fn octile_cost(a: Point, b: Point) -> Cost {
    let dx = a.x.abs_diff(b.x) as u64;
    let dy = a.y.abs_diff(b.y) as u64;
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    (hi - lo) * COST_ONE + lo * COST_DIAGONAL
}

/// The admissible distance for a connectivity, in cost units: Manhattan for
/// four, octile for eight.
#[inline]
pub fn distance_cost(conn: Connectivity, a: Point, b: Point) -> Cost {
    match conn {
        Connectivity::Four => (a.x.abs_diff(b.x) as u64 + a.y.abs_diff(b.y) as u64) * COST_ONE,
        Connectivity::Eight => octile_cost(a, b),
    }
}

/// Cost units to cells.
#[inline]
pub fn cost_to_f64(c: Cost) -> f64 {
    c as f64 / COST_ONE as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_is_root_two() {
        let d = COST_DIAGONAL as f64 / COST_ONE as f64;
        assert!((d - std::f64::consts::SQRT_2).abs() < 1e-9);
        let o = octile_cost(Point::new(0, 0), Point::new(5, 2));
        assert_eq!(o, 3 * COST_ONE + 2 * COST_DIAGONAL);
        assert!(
            (cost_to_f64(o) - regionpath_grid::octile(Point::new(0, 0), Point::new(5, 2))).abs()
                < 1e-8
        );
    }
}
