//! Exact distances between points, segments and the closed unit squares of
//! cells, in `f64`, to check any-angle polylines independently of the
//! library's line-of-sight code: a segment is clear for a unit of radius
//! `r` when every blocked or off-map square is farther than `r` from it
//! ([`independently_clear`]). Cell `(x, y)` covers `[x, x+1] × [y, y+1]`.

use regionpath_grid::{Grid, Point};

/// A point `(x, y)` in cell units.
pub type V = (f64, f64);

/// Distance from `p` to the segment `a`–`b` (a point when `a == b`).
pub fn point_seg_dist(p: V, a: V, b: V) -> f64 {
    let (abx, aby) = (b.0 - a.0, b.1 - a.1);
    let l2 = abx * abx + aby * aby;
    let t = if l2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * abx + (p.1 - a.1) * aby) / l2).clamp(0.0, 1.0)
    };
    let (qx, qy) = (a.0 + t * abx, a.1 + t * aby);
    ((p.0 - qx).powi(2) + (p.1 - qy).powi(2)).sqrt()
}

/// Distance from `p` to the closed square of cell `(x, y)` (0 inside).
pub fn point_square_dist(p: V, x: i64, y: i64) -> f64 {
    // How far `v` lies outside `[lo, lo + 1]`.
    let gap = |v: f64, lo: f64| (lo - v).max(v - (lo + 1.0)).max(0.0);
    let (dx, dy) = (gap(p.0, x as f64), gap(p.1, y as f64));
    (dx * dx + dy * dy).sqrt()
}

/// Whether segment `a`–`b` meets the closed square of cell `(x, y)`
/// (Liang–Barsky clipping; touching counts).
pub fn seg_meets_square(a: V, b: V, x: i64, y: i64) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = (b.0 - a.0, b.1 - a.1);
    for (p, dp, lo, hi) in [
        (a.0, d.0, x as f64, x as f64 + 1.0),
        (a.1, d.1, y as f64, y as f64 + 1.0),
    ] {
        if dp == 0.0 {
            if p < lo || p > hi {
                return false;
            }
        } else {
            let (mut ta, mut tb) = ((lo - p) / dp, (hi - p) / dp);
            if ta > tb {
                std::mem::swap(&mut ta, &mut tb);
            }
            t0 = t0.max(ta);
            t1 = t1.min(tb);
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Exact distance between segment `a`–`b` and the closed square of cell
/// `(x, y)`: 0 if they meet, else the smallest vertex-to-other-shape
/// distance (two disjoint convex polygons are closest at a vertex of one of
/// them).
pub fn seg_square_dist(a: V, b: V, x: i64, y: i64) -> f64 {
    if seg_meets_square(a, b, x, y) {
        return 0.0;
    }
    let mut d = point_square_dist(a, x, y).min(point_square_dist(b, x, y));
    for (cx, cy) in [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)] {
        d = d.min(point_seg_dist((cx as f64, cy as f64), a, b));
    }
    d
}

/// Whether cell `(x, y)` is blocked; everything off the map is.
pub fn blocked(grid: &Grid, x: i64, y: i64) -> bool {
    !crate::open(grid, x, y)
}

/// The smallest distance from segment `a`–`b` to a blocked or off-map
/// square; squares farther than `reach` beyond the segment's bounding box
/// are not looked at (infinite when none is nearer). Cost: the box's cells.
pub fn seg_clearance(grid: &Grid, a: V, b: V, reach: f64) -> f64 {
    let x0 = (a.0.min(b.0) - reach).floor() as i64 - 1;
    let x1 = (a.0.max(b.0) + reach).floor() as i64 + 1;
    let y0 = (a.1.min(b.1) - reach).floor() as i64 - 1;
    let y1 = (a.1.max(b.1) + reach).floor() as i64 + 1;
    let mut best = f64::INFINITY;
    for y in y0..=y1 {
        for x in x0..=x1 {
            if blocked(grid, x, y) {
                best = best.min(seg_square_dist(a, b, x, y));
            }
        }
    }
    best
}

/// Whether every blocked or off-map square is farther than `r` from the
/// segment `a`–`b` (touching counts as blocked, also for `r = 0`).
pub fn independently_clear(grid: &Grid, a: V, b: V, r: f64) -> bool {
    seg_clearance(grid, a, b, r + 2.0) > r
}

/// The smallest distance from `p` to a blocked or off-map square within
/// `reach` of it (infinite when none).
pub fn point_clearance(grid: &Grid, p: V, reach: f64) -> f64 {
    let mut best = f64::INFINITY;
    for y in (p.1 - reach).floor() as i64 - 1..=(p.1 + reach).floor() as i64 + 1 {
        for x in (p.0 - reach).floor() as i64 - 1..=(p.0 + reach).floor() as i64 + 1 {
            if blocked(grid, x, y) {
                best = best.min(point_square_dist(p, x, y));
            }
        }
    }
    best
}

/// The centre of cell `p`.
pub fn centre(p: Point) -> V {
    (f64::from(p.x) + 0.5, f64::from(p.y) + 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_to_squares() {
        assert_eq!(point_square_dist((0.5, 0.5), 0, 0), 0.0);
        assert_eq!(point_square_dist((3.0, 0.5), 1, 0), 1.0);
        assert!((point_square_dist((3.0, 3.0), 1, 1) - std::f64::consts::SQRT_2).abs() < 1e-12);
        assert!(seg_meets_square((0.0, 0.0), (2.0, 2.0), 1, 1));
        assert!(!seg_meets_square((0.0, 0.0), (2.0, 0.0), 3, 1));
        assert_eq!(seg_square_dist((0.0, 3.0), (4.0, 3.0), 1, 1), 1.0);
        assert_eq!(point_seg_dist((1.0, 1.0), (0.0, 0.0), (2.0, 0.0)), 1.0);
    }

    #[test]
    fn polylines_against_walls() {
        let g = Grid::from_rows(&["....", ".@..", "...."]).unwrap();
        // Along the top row's centre line: 0.5 from the map's edge and from
        // the wall below.
        let (a, b) = (centre(Point::new(0, 0)), centre(Point::new(3, 0)));
        assert!((seg_clearance(&g, a, b, 2.0) - 0.5).abs() < 1e-12);
        assert!(independently_clear(&g, a, b, 0.4));
        assert!(!independently_clear(&g, a, b, 0.5));
        // Diagonally through the wall cell.
        assert!(!independently_clear(&g, (0.0, 0.0), (3.0, 3.0), 0.0));
        assert!((point_clearance(&g, centre(Point::new(3, 1)), 2.0) - 0.5).abs() < 1e-12);
    }
}
