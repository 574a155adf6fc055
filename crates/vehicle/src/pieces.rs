//! Maneuvers as lines and arcs, their exact clearance, the legality check
//! of a finished curve and sampling with sprite headings.

use crate::dubins::{advance, Maneuver, Piece, Pose};
use regionpath_grid::Grid;
use regionpath_smoothing::{
    arc_clear_swept, line_f32, segment_clear, CurveError, CurveSegment, CurvedPath, Vec2,
};
use std::f64::consts::{PI, TAU};

/// The pieces of a vehicle's curve in travel order, each marked as driven
/// forwards or in reverse (what [`crate::DirectionalSearch::find`]
/// writes). A reverse piece's geometry is stored in travel order; the body
/// faces opposite the motion along it. Reused across queries: clearing
/// keeps the memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Track {
    segments: Vec<CurveSegment>,
    reverse: Vec<bool>,
}

impl Track {
    /// An empty track.
    pub fn new() -> Track {
        Track::default()
    }

    /// Removes every piece (the memory is kept).
    pub fn clear(&mut self) {
        self.segments.clear();
        self.reverse.clear();
    }

    /// Keeps the first `len` pieces (all of them when there are fewer);
    /// the memory is kept.
    pub fn truncate(&mut self, len: usize) {
        self.segments.truncate(len);
        self.reverse.truncate(len);
    }

    /// Appends one piece.
    pub fn push(&mut self, segment: CurveSegment, reverse: bool) {
        self.segments.push(segment);
        self.reverse.push(reverse);
    }

    /// Appends every piece of `other`.
    pub fn extend_from(&mut self, other: &Track) {
        self.segments.extend_from_slice(&other.segments);
        self.reverse.extend_from_slice(&other.reverse);
    }

    /// The pieces in travel order.
    pub fn segments(&self) -> &[CurveSegment] {
        &self.segments
    }

    /// Per piece: driven in reverse.
    pub fn reverse(&self) -> &[bool] {
        &self.reverse
    }

    /// Number of pieces.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether there are no pieces.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Total length in cells (sum of the pieces' `f32` lengths).
    pub fn length(&self) -> f64 {
        self.segments.iter().map(|s| s.length() as f64).sum()
    }

    /// Whether any piece is driven in reverse.
    pub fn has_reverse(&self) -> bool {
        self.reverse.iter().any(|&r| r)
    }

    /// The pieces as a [`CurvedPath`] ([`CurvedPath::from_driven`]: the
    /// same continuity checks). O(pieces).
    pub fn to_curve(&self) -> Result<CurvedPath, CurveError> {
        CurvedPath::from_driven(&self.segments, &self.reverse)
    }

    /// As [`Track::to_curve`], into `out` (its memory reused: no allocation
    /// once it has grown to the pieces' count).
    pub fn write_curve(&self, out: &mut CurvedPath) -> Result<(), CurveError> {
        out.assign_driven(&self.segments, &self.reverse)
    }
}

/// The curve pieces of `m` travelled from `from`, zero-length pieces left
/// out, in `f32` coordinates.
fn pieces_of(from: Pose, m: &Maneuver) -> impl Iterator<Item = CurveSegment> + '_ {
    let mut p = from;
    m.pieces.into_iter().filter_map(move |piece| {
        let q = advance(p, piece, m.radius);
        let start = p;
        p = q;
        match piece {
            Piece::Line(l) if l > 0.0 => {
                let (from, to) = line_ends(start, q);
                Some(CurveSegment::Line { from, to })
            }
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

/// The `f32` end points of the line from pose `p` to `q` (`q` ahead of
/// `p` along its heading): [`line_f32`], so that a short line far from
/// the origin keeps its heading where it meets the arcs beside it.
fn line_ends(p: Pose, q: Pose) -> (Vec2, Vec2) {
    line_f32((p.x, p.y), (q.x, q.y))
}

/// Appends the pieces of `m` travelled from `from` (the pose of the
/// motion: for a reverse piece, the body heading turned by π) to `out`,
/// marked `reverse`.
pub(crate) fn push_maneuver(from: Pose, m: &Maneuver, reverse: bool, out: &mut Track) {
    for s in pieces_of(from, m) {
        out.push(s, reverse);
    }
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

/// Largest difference (radians) between a line piece's heading as its
/// `f32` end points give it and its exact heading, for an exact maneuver
/// to be used ([`maneuver_conditioned`]).
pub(crate) const LINE_HEADING_TOLERANCE: f64 = 1e-4;

/// Whether every line piece of the maneuver from `from`, once its end
/// points are written in `f32` ([`line_ends`], as [`push_maneuver`]
/// writes them), keeps
/// its exact heading within [`LINE_HEADING_TOLERANCE`]. A short line far
/// from the origin does not (the rounding of its ends turns it by up to
/// an ulp over its length): written, it would join its neighbours at a
/// kink that [`check_curve`] refuses, so the search does not use it.
pub(crate) fn maneuver_conditioned(from: Pose, m: &Maneuver) -> bool {
    let mut p = from;
    for piece in m.pieces {
        let q = advance(p, piece, m.radius);
        if matches!(piece, Piece::Line(l) if l > 0.0) {
            let (a, b) = line_ends(p, q);
            let h = ((b.y - a.y) as f64).atan2((b.x - a.x) as f64);
            let turn = (h - p.heading).rem_euclid(TAU);
            if turn.min(TAU - turn) > LINE_HEADING_TOLERANCE {
                return false;
            }
        }
        p = q;
    }
    true
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
    /// cells) or body heading (10⁻³ radians; the body heading of a reverse
    /// piece is its direction of travel turned by π, so a change of
    /// direction is a cusp, not a kink).
    Kink {
        /// Index of the piece.
        index: usize,
    },
}

/// Checks a curve for a vehicle: every piece swept by the disc of
/// `unit_radius` is clear (exact swept tests of the smoothing crate: touching
/// counts as blocked), every arc has a radius of at least
/// `turning_radius` (within 10⁻⁴ relative), and each piece continues the
/// previous one in position and body heading (no corner; a reverse piece,
/// [`CurvedPath::is_reverse`], is driven the same curve with the body
/// turned by π, so reversing changes the direction of travel at a cusp
/// while the body keeps its heading). Cost: the exact tests over the
/// pieces' bounding boxes.
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
            let body = |h: f32, i: usize| h as f64 + if path.is_reverse(i) { PI } else { 0.0 };
            let (he, hs) = (body(he, index - 1), body(hs, index));
            let gap = ((end.x - start.x).powi(2) + (end.y - start.y).powi(2)).sqrt();
            let turn = (hs - he).rem_euclid(TAU);
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
    /// Heading of the body in degrees, 0 = +x, 90 = +y, in `[0, 360)`
    /// (while reversing, opposite the direction of travel); rounded to the
    /// nearest sprite angle when sprite headings are asked for.
    pub heading_deg: f32,
    /// Whether the vehicle is reversing here (the piece holding this sample
    /// is driven in reverse).
    pub reverse: bool,
}

/// Samples `path` every `step` cells of travel (at most `step` apart; the
/// last sample is the end) into `out` (cleared first), each with the
/// body's heading ([`CurvedPath::sample`]) and whether it reverses. With
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
        let (pos, h, reverse) = path.sample_driven(s);
        out.push(Sample {
            s,
            pos,
            heading_deg: to_degrees(h as f64, sprite_headings),
            reverse,
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
