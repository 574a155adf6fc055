//! The cells a maneuver's centreline runs through and the length inside
//! each, from the exact crossings of its lines and arcs with the grid lines:
//! what a terrain-priced search integrates.

use crate::dubins::{advance, wrap_pos, Maneuver, Piece, Pose};
use std::f64::consts::{PI, TAU};

/// Pieces of a centreline shorter than this (cells) are left out: they are
/// the rounding noise of a crossing counted twice (a tangency, a corner).
const MIN_PART: f64 = 1e-12;

/// Calls `emit(x, y, length)` for each part of the centreline of `m`
/// travelled from `from` that lies inside one cell `(x, y)` (the cell of
/// point `(px, py)` is `(⌊px⌋, ⌊py⌋)`), in travel order; consecutive parts
/// may repeat a cell (one per piece and crossing). The parts' lengths sum
/// to the maneuver's length (up to rounding, 10⁻¹² relative).
///
/// Exact: each piece is cut where it crosses a vertical or horizontal grid
/// line (solved in closed form: a line's parameter, or an arc's angle by
/// `acos`/`asin`), and each part is assigned the cell of its midpoint, which
/// lies strictly inside that cell. `breaks` is scratch (cleared, reused: no
/// allocation once it has grown). Cost: O(crossings · log crossings) per
/// piece.
pub(crate) fn centreline_cells(
    from: Pose,
    m: &Maneuver,
    breaks: &mut Vec<f64>,
    mut emit: impl FnMut(i64, i64, f64),
) {
    let mut p = from;
    for piece in m.pieces {
        match piece {
            Piece::Line(l) if l > 0.0 => {
                let (c, s) = (p.heading.cos(), p.heading.sin());
                breaks.clear();
                breaks.push(0.0);
                breaks.push(l);
                for (x0, d) in [(p.x, c), (p.y, s)] {
                    if d.abs() < 1e-15 {
                        continue;
                    }
                    let x1 = x0 + l * d;
                    let (lo, hi) = (x0.min(x1), x0.max(x1));
                    for k in lo.ceil() as i64..=hi.floor() as i64 {
                        let t = (k as f64 - x0) / d;
                        if t > 0.0 && t < l {
                            breaks.push(t);
                        }
                    }
                }
                breaks.sort_unstable_by(f64::total_cmp);
                for w in breaks.windows(2) {
                    if w[1] - w[0] > MIN_PART {
                        let t = 0.5 * (w[0] + w[1]);
                        let (x, y) = (p.x + t * c, p.y + t * s);
                        emit(x.floor() as i64, y.floor() as i64, w[1] - w[0]);
                    }
                }
            }
            Piece::Arc(a) if a != 0.0 => {
                let r = m.radius;
                let sign = a.signum();
                let (cx, cy) = (
                    p.x - sign * r * p.heading.sin(),
                    p.y + sign * r * p.heading.cos(),
                );
                let phi0 = (p.y - cy).atan2(p.x - cx);
                let sweep = a.abs();
                breaks.clear();
                breaks.push(0.0);
                breaks.push(sweep * r);
                // Angles where the circle meets x = k (cos φ = v: ±acos v)
                // and y = k (sin φ = v: asin v, π − asin v), as distances
                // along the arc (every turn of it, as the sweep may exceed
                // one).
                let mut add = |target: f64| {
                    let mut u = wrap_pos(sign * (target - phi0));
                    while u < sweep {
                        if u > 0.0 {
                            breaks.push(u * r);
                        }
                        u += TAU;
                    }
                };
                for k in (cx - r).ceil() as i64..=(cx + r).floor() as i64 {
                    let t = ((k as f64 - cx) / r).clamp(-1.0, 1.0).acos();
                    add(t);
                    add(-t);
                }
                for k in (cy - r).ceil() as i64..=(cy + r).floor() as i64 {
                    let t = ((k as f64 - cy) / r).clamp(-1.0, 1.0).asin();
                    add(t);
                    add(PI - t);
                }
                breaks.sort_unstable_by(f64::total_cmp);
                for w in breaks.windows(2) {
                    if w[1] - w[0] > MIN_PART {
                        let phi = phi0 + sign * 0.5 * (w[0] + w[1]) / r;
                        let (x, y) = (cx + r * phi.cos(), cy + r * phi.sin());
                        emit(x.floor() as i64, y.floor() as i64, w[1] - w[0]);
                    }
                }
            }
            _ => {}
        }
        p = advance(p, piece, m.radius);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dubins::shortest;
    use std::collections::BTreeMap;

    /// Lengths per cell against a fine midpoint sampling of the same
    /// curves (10⁻⁴ cells: each crossing moves at most one step to the
    /// neighbouring cell), and their sum against the maneuver's length.
    #[test]
    fn parts_match_a_fine_sampling() {
        let mut breaks = Vec::new();
        let step = std::f64::consts::TAU / 16.0;
        for h0 in 0..16 {
            for h1 in 0..16 {
                for (dx, dy) in [(2.0, 1.0), (-1.0, 2.0), (0.0, -2.0), (3.0, 3.0)] {
                    let from = Pose::new(0.5, 0.5, h0 as f64 * step);
                    let to = Pose::new(0.5 + dx, 0.5 + dy, h1 as f64 * step);
                    let Some(m) = shortest(from, to, 1.7) else {
                        continue;
                    };
                    let mut exact: BTreeMap<(i64, i64), f64> = BTreeMap::new();
                    let mut total = 0.0;
                    centreline_cells(from, &m, &mut breaks, |x, y, l| {
                        *exact.entry((x, y)).or_default() += l;
                        total += l;
                    });
                    assert!((total - m.length).abs() < 1e-9, "{total} vs {}", m.length);
                    // Sampled: midpoints of steps of `ds` along each piece.
                    let ds = 1e-4;
                    let mut sampled: BTreeMap<(i64, i64), f64> = BTreeMap::new();
                    let mut p = from;
                    let mut crossings = 0usize;
                    for piece in m.pieces {
                        let len = match piece {
                            Piece::Line(l) => l,
                            Piece::Arc(a) => a.abs() * m.radius,
                        };
                        let n = (len / ds).ceil() as usize;
                        let mut last = None;
                        for i in 0..n {
                            let mid = (i as f64 + 0.5) * len / n as f64;
                            let part = match piece {
                                Piece::Line(_) => Piece::Line(mid),
                                Piece::Arc(a) => Piece::Arc(a.signum() * mid / m.radius),
                            };
                            let q = advance(p, part, m.radius);
                            let cell = (q.x.floor() as i64, q.y.floor() as i64);
                            if last != Some(cell) {
                                crossings += 1;
                                last = Some(cell);
                            }
                            *sampled.entry(cell).or_default() += len / n as f64;
                        }
                        p = advance(p, piece, m.radius);
                    }
                    for c in exact.keys().chain(sampled.keys()) {
                        let a = exact.get(c).copied().unwrap_or(0.0);
                        let b = sampled.get(c).copied().unwrap_or(0.0);
                        assert!(
                            (a - b).abs() <= crossings as f64 * ds,
                            "cell {c:?}: exact {a}, sampled {b}"
                        );
                    }
                }
            }
        }
    }
}
