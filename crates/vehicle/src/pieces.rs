//! Maneuvers as lines and arcs, their exact clearance, the legality check
//! of a finished curve and sampling with sprite headings.

use crate::dubins::{advance, Maneuver, Piece, Pose};
use regionpath_grid::Grid;
use regionpath_smoothing::{arc_clear_swept, segment_clear, CurveSegment, CurvedPath, Vec2};
use std::f64::consts::TAU;

/// The curve pieces of `m` travelled from `from`, zero-length pieces left
/// out, in `f32` coordinates.
fn pieces_of(from: Pose, m: &Maneuver) -> impl Iterator<Item = CurveSegment> + '_ {
    let mut p = from;
    m.pieces.into_iter().filter_map(move |piece| {
        let q = advance(p, piece, m.radius);
        let start = p;
        p = q;
        match piece {
            Piece::Line(l) if l > 0.0 => Some(CurveSegment::Line {
                from: Vec2::new(start.x as f32, start.y as f32),
                to: Vec2::new(q.x as f32, q.y as f32),
            }),
            Piece::Arc(a) if a != 0.0 => {
                let s = a.signum();
                let (cx, cy) = (
                    start.x - s * m.radius * start.heading.sin(),
                    start.y + s * m.radius * start.heading.cos(),
                );
                Some(CurveSegment::Arc {
                    center: Vec2::new(cx as f32, cy as f32),
                    radius: m.radius as f32,
                    start_angle: (start.y - cy).atan2(start.x - cx) as f32,
                    sweep: a as f32,
                })
            }
            _ => None,
        }
    })
}

/// Appends the pieces of `m` travelled from `from` to `out`.
pub(crate) fn push_maneuver(from: Pose, m: &Maneuver, out: &mut Vec<CurveSegment>) {
    out.extend(pieces_of(from, m));
}

/// Whether one piece, swept by the unit radius, is clear (exact test).
pub(crate) fn piece_clear(grid: &Grid, s: &CurveSegment, unit_radius: f32) -> bool {
    match *s {
        CurveSegment::Line { from, to } => segment_clear(grid, from, to, unit_radius),
        CurveSegment::Arc {
            center,
            radius,
            start_angle,
            sweep,
        } => arc_clear_swept(grid, center, radius, start_angle, sweep, unit_radius),
    }
}

/// Whether the maneuver from `from`, swept by the unit radius, is clear.
pub(crate) fn maneuver_clear(grid: &Grid, from: Pose, m: &Maneuver, unit_radius: f32) -> bool {
    pieces_of(from, m).all(|s| piece_clear(grid, &s, unit_radius))
}

/// Why a curve is not legal for a vehicle ([`check_curve`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Violation {
    /// Piece `index`, swept by the unit radius, touches a blocked cell or
    /// leaves the map.
    Blocked {
        /// Index of the piece.
        index: usize,
    },
    /// Piece `index` is an arc tighter than the turning radius.
    TooTight {
        /// Index of the piece.
        index: usize,
    },
    /// Piece `index` does not continue the previous one in position (10⁻³
    /// cells) or heading (10⁻³ radians).
    Kink {
        /// Index of the piece.
        index: usize,
    },
}

/// Checks a curve for a vehicle: every piece swept by the disc of
/// `unit_radius` is clear (exact swept tests of the smoothing crate: touching
/// counts as blocked), every arc has a radius of at least
/// `turning_radius` (within 10⁻⁴ relative), and each piece continues the
/// previous one in position and heading (no corner). Cost: the exact tests
/// over the pieces' bounding boxes.
pub fn check_curve(
    grid: &Grid,
    path: &CurvedPath,
    turning_radius: f32,
    unit_radius: f32,
) -> Result<(), Violation> {
    let segs = path.segments();
    for (index, s) in segs.iter().enumerate() {
        if let CurveSegment::Arc { radius, .. } = *s {
            if radius < turning_radius * (1.0 - 1e-4) {
                return Err(Violation::TooTight { index });
            }
        }
        if index > 0 {
            let prev = &segs[index - 1];
            let (end, he) = prev.point_at(prev.length() as f64 + 1.0);
            let (start, hs) = s.point_at(0.0);
            let gap = ((end.x - start.x).powi(2) + (end.y - start.y).powi(2)).sqrt();
            let turn = (hs as f64 - he as f64).rem_euclid(TAU);
            let turn = turn.min(TAU - turn);
            if gap > 1e-3 || turn > 1e-3 {
                return Err(Violation::Kink { index });
            }
        }
        if !piece_clear(grid, s, unit_radius) {
            return Err(Violation::Blocked { index });
        }
    }
    Ok(())
}

/// One sample of a curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Distance travelled from the start (cells).
    pub s: f32,
    /// Position.
    pub pos: Vec2,
    /// Heading in degrees, 0 = +x, 90 = +y, in `[0, 360)`; rounded to the
    /// nearest sprite angle when sprite headings are asked for.
    pub heading_deg: f32,
}

/// Samples `path` every `step` cells of travel (at most `step` apart; the
/// last sample is the end) into `out` (cleared first). With
/// `sprite_headings` = `Some(n)` (n ≥ 1) the heading of each sample is
/// rounded to the nearest multiple of 360°/n (so it differs from the
/// curve's true heading by at most 180°/n); the positions are the curve's
/// own, so they keep every clearance the curve has: only the drawn angle
/// changes, never the geometry. A non-positive or NaN `step` is treated as
/// 0.25.
pub fn sample_curve(
    path: &CurvedPath,
    step: f32,
    sprite_headings: Option<u32>,
    out: &mut Vec<Sample>,
) {
    out.clear();
    let step = if step > 0.0 { step } else { 0.25 };
    let total = path.length();
    let n = (total / step).ceil().max(0.0) as usize;
    for i in 0..=n {
        let s = (i as f32 * step).min(total);
        let (pos, h) = path.sample(s);
        out.push(Sample {
            s,
            pos,
            heading_deg: to_degrees(h as f64, sprite_headings),
        });
    }
}

/// A heading in radians as degrees in `[0, 360)`, rounded to `n` sprite
/// angles when given.
pub fn to_degrees(h: f64, sprite_headings: Option<u32>) -> f32 {
    let mut d = h.to_degrees().rem_euclid(360.0);
    if let Some(n) = sprite_headings.filter(|&n| n > 0) {
        let q = 360.0 / n as f64;
        d = ((d / q).round() * q).rem_euclid(360.0);
    }
    (d as f32).rem_euclid(360.0)
}
