//! Turning-radius curves: waypoint polylines with rounded corners.

use crate::geom::{arc_clear, capsule_clear, disk_blocked, Arc, P};
use crate::Vec2;
use regionpath_grid::Grid;
use thiserror::Error;

/// Turns below this angle (radians) are treated as straight.
const STRAIGHT: f64 = 1e-9;

/// Lines shorter than this (cells) between arcs are left out: their
/// direction would be rounding noise.
const MIN_LINE: f64 = 1e-4;

/// How far (cells, per coordinate) [`line_f32`] may move a line's end:
/// half the 10⁻³ cells a joint may gap.
const LINE_END_SLACK: f64 = 5e-4;

/// The `f32` end points of the line from `from` to `to` (`f64`) whose
/// direction is closest to the exact one: `from` rounded, and of the
/// `f32` points within 5 · 10⁻⁴ cells of `to` (per coordinate, at most
/// 64 ulps), the one seen from it closest to the exact heading. Rounding
/// both ends alone can turn a short line far from the origin by up to an
/// ulp over its length (a line of 0.03 cells near x = 300 by 10⁻³ rad): a
/// kink where it meets the arcs beside it, whose headings come from their
/// angles. Moving the end a few ulps keeps the heading to a small
/// fraction of that. O(1) when the plain rounding turns the line by at
/// most 10⁻⁵ rad, else O(ulps): per column of candidates, the nearest
/// row to the exact line.
pub fn line_f32(from: (f64, f64), to: (f64, f64)) -> (Vec2, Vec2) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (ex, ey) = (dx / len, dy / len);
    let a = Vec2::new(from.0 as f32, from.1 as f32);
    let b = Vec2::new(to.0 as f32, to.1 as f32);
    // How far the direction from `a` to `t` turns from the exact one: the
    // sine of the angle up to a right angle, 2 − the sine beyond (the
    // same order as the angle, within 10⁻¹⁰ of it below 10⁻⁵ rad, without
    // `atan2`: up to 387 candidates per line).
    let off = |t: Vec2| {
        let (ux, uy) = ((t.x - a.x) as f64, (t.y - a.y) as f64);
        let n = (ux * ux + uy * uy).sqrt();
        if n == 0.0 {
            return f64::INFINITY;
        }
        let sin = ((ux * ey - uy * ex) / n).abs();
        if ux * ex + uy * ey >= 0.0 {
            sin
        } else {
            2.0 - sin
        }
    };
    let plain = off(b);
    if plain <= 1e-5 || plain.is_nan() {
        return (a, b);
    }
    let ulp = |v: f32| (v.next_up() - v) as f64;
    let reach = |v: f32| (LINE_END_SLACK / ulp(v)).floor().clamp(0.0, 64.0) as i32;
    let (kx, ky) = (reach(b.x), reach(b.y));
    // Step along the coordinate the line runs along more; the other one
    // is solved for (the candidate nearest the exact line).
    let along_x = dx.abs() >= dy.abs();
    let n = if along_x { kx } else { ky };
    let mut best = (plain, b);
    for i in -n..=n {
        let (x, y) = if along_x {
            let x = b.x as f64 + i as f64 * ulp(b.x);
            (x, a.y as f64 + (x - a.x as f64) * dy / dx)
        } else {
            let y = b.y as f64 + i as f64 * ulp(b.y);
            (a.x as f64 + (y - a.y as f64) * dx / dy, y)
        };
        let t = Vec2::new(x as f32, y as f32);
        // The rounded point and its neighbours across the line.
        for t in [
            t,
            Vec2::new(t.x.next_up(), t.y.next_up()),
            Vec2::new(t.x.next_down(), t.y.next_down()),
        ] {
            let near = (t.x as f64 - to.0).abs() <= LINE_END_SLACK
                && (t.y as f64 - to.1).abs() <= LINE_END_SLACK;
            let e = off(t);
            if near && e < best.0 {
                best = (e, t);
            }
        }
    }
    (a, best.1)
}

/// What [`curve`] does with a turn that cannot take the requested radius.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TurnPolicy {
    /// Fail with [`CurveError::TurnBlocked`] (the default).
    #[default]
    Strict,
    /// Round such a turn with the largest legal radius instead (possibly
    /// `0`: a sharp corner) and list it in [`CurvedPath::tightened_turns`].
    Tighten,
    /// Leave such a turn a sharp corner (the polyline's own, clear as its
    /// segments are), unlisted, without searching for the largest legal
    /// radius: one legality test per corner instead of a bisection. A
    /// corner whose arcs only fit with a smaller radius keeps that radius
    /// when it is legal. For callers that replace every turn short of the
    /// requested radius anyway (the facade's vehicle mode repairs them).
    Sharpen,
}

/// Options for [`curve`].
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TurnOptions {
    /// Radius (cells) of the arcs that round the corners. `0` keeps the
    /// polyline's sharp corners. Must be finite and non-negative.
    pub turning_radius: f32,
    /// Radius (cells) of the unit: every line and arc must stay farther than
    /// this from blocked cells and the map's outline. Must be finite and
    /// non-negative.
    pub unit_radius: f32,
    /// What to do with turns that cannot take `turning_radius`.
    pub policy: TurnPolicy,
}

/// A turn that cannot be rounded with the requested radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockedTurn {
    /// Index of the corner in the waypoint slice given to [`curve`].
    pub waypoint: usize,
    /// The largest radius (found by bisection, never above the requested
    /// one) with which this corner is legal: the arc fits between its
    /// neighbours' arcs and stays clear of obstacles by the unit radius.
    /// `0` means only the sharp corner is legal.
    pub max_legal_radius: f32,
}

/// Why a curve cannot be built.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum CurveError {
    /// No waypoints.
    #[error("no waypoints")]
    Empty,
    /// A radius is negative, NaN or infinite.
    #[error("radius {radius} is not a finite non-negative number")]
    InvalidRadius {
        /// The radius given.
        radius: f32,
    },
    /// A waypoint has a NaN or infinite coordinate.
    #[error("waypoint {index} is not finite")]
    NonFinite {
        /// Index of the waypoint.
        index: usize,
    },
    /// The straight segment from waypoint `segment` to the next one is not
    /// clear for the unit radius (a turning radius cannot fix that).
    #[error("the segment from waypoint {segment} is not clear for the unit radius")]
    SegmentBlocked {
        /// Index of the segment's first waypoint.
        segment: usize,
    },
    /// Under [`TurnPolicy::Strict`], at least one corner cannot be rounded
    /// with the requested radius. `waypoint` and `max_legal_radius` describe
    /// the first such corner; `turns` lists all of them.
    #[error(
        "the turn at waypoint {waypoint} needs a radius of at most {max_legal_radius} \
         ({} blocked turn(s) in all)", turns.len()
    )]
    TurnBlocked {
        /// Index of the first blocked corner.
        waypoint: usize,
        /// Its largest legal radius.
        max_legal_radius: f32,
        /// Every blocked corner, in path order.
        turns: Vec<BlockedTurn>,
    },
    /// [`CurvedPath::from_segments`]: piece `segment` does not start where
    /// the previous one ends (within 10⁻³ cells), or is not finite.
    #[error("piece {segment} does not continue the previous one")]
    Discontinuous {
        /// Index of the piece.
        segment: usize,
    },
}

/// One piece of a [`CurvedPath`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CurveSegment {
    /// A straight line.
    Line {
        /// Start point.
        from: Vec2,
        /// End point.
        to: Vec2,
    },
    /// A circular arc, traversed from `start_angle` through `sweep`.
    Arc {
        /// Centre of the circle.
        center: Vec2,
        /// Radius of the circle (the turning radius used).
        radius: f32,
        /// Angle (radians, same convention as headings) of the start point
        /// seen from the centre.
        start_angle: f32,
        /// Signed angle swept (radians, |sweep| < π): positive turns towards
        /// increasing angles.
        sweep: f32,
    },
}

impl CurveSegment {
    /// Length of this piece.
    pub fn length(&self) -> f32 {
        self.length64() as f32
    }

    fn length64(&self) -> f64 {
        match *self {
            CurveSegment::Line { from, to } => P::from_vec2(from).dist(P::from_vec2(to)),
            CurveSegment::Arc { radius, sweep, .. } => radius as f64 * (sweep as f64).abs(),
        }
    }

    /// Position and heading (radians, as [`CurvedPath`]'s) at arc length
    /// `s` from this piece's start, `s` clamped to the piece. O(1).
    pub fn point_at(&self, s: f64) -> (Vec2, f32) {
        self.at(s)
    }

    /// Position and heading at arc length `s` from this piece's start.
    fn at(&self, s: f64) -> (Vec2, f32) {
        match *self {
            CurveSegment::Line { from, to } => {
                let (a, b) = (P::from_vec2(from), P::from_vec2(to));
                let d = b.sub(a);
                let l = d.len();
                let t = if l > 0.0 {
                    (s / l).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                (a.add(d.scale(t)).to_vec2(), d.y.atan2(d.x) as f32)
            }
            CurveSegment::Arc {
                center,
                radius,
                start_angle,
                sweep,
            } => {
                let (rho, sw) = (radius as f64, sweep as f64);
                let total = rho * sw.abs();
                let t = if total > 0.0 {
                    (s / total).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let ang = start_angle as f64 + sw * t;
                let p = P::new(
                    center.x as f64 + rho * ang.cos(),
                    center.y as f64 + rho * ang.sin(),
                );
                let heading = ang + sw.signum() * std::f64::consts::FRAC_PI_2;
                (p.to_vec2(), wrap_angle(heading) as f32)
            }
        }
    }
}

/// Maps an angle to (−π, π].
fn wrap_angle(a: f64) -> f64 {
    let t = std::f64::consts::TAU;
    let mut a = a % t;
    if a <= -std::f64::consts::PI {
        a += t;
    } else if a > std::f64::consts::PI {
        a -= t;
    }
    a
}

/// A path of lines and arcs that a game samples by distance travelled.
///
/// Headings are radians measured with `atan2(dy, dx)` in the grid frame:
/// `0` points to +x (right), `π/2` to +y (down the map). A piece may be
/// driven in reverse ([`CurvedPath::is_reverse`], only from
/// [`CurvedPath::from_driven`]): its geometry is the piece as stored, in
/// travel order, while the body faces opposite the motion, and
/// [`CurvedPath::sample`] reports the body's heading.
///
/// The default value is an empty path (a single point at the origin): a
/// buffer for [`curve_into`] and [`CurvedPath::assign_driven`], which
/// reuse its memory.
#[derive(Debug, PartialEq, Default)]
pub struct CurvedPath {
    start: Vec2,
    end: Vec2,
    segments: Vec<CurveSegment>,
    /// Distance at the start of each segment.
    starts: Vec<f64>,
    /// Per segment: driven in reverse. Empty when every piece is driven
    /// forwards.
    reverse: Vec<bool>,
    total: f64,
    tightened: Vec<BlockedTurn>,
}

impl Clone for CurvedPath {
    fn clone(&self) -> Self {
        CurvedPath {
            start: self.start,
            end: self.end,
            segments: self.segments.clone(),
            starts: self.starts.clone(),
            reverse: self.reverse.clone(),
            total: self.total,
            tightened: self.tightened.clone(),
        }
    }

    /// Copies `source` into this path's memory (no allocation once its
    /// buffers are large enough).
    fn clone_from(&mut self, source: &Self) {
        self.start = source.start;
        self.end = source.end;
        self.segments.clone_from(&source.segments);
        self.starts.clone_from(&source.starts);
        self.reverse.clone_from(&source.reverse);
        self.total = source.total;
        self.tightened.clone_from(&source.tightened);
    }
}

impl CurvedPath {
    /// Total length in cells.
    pub fn length(&self) -> f32 {
        self.total as f32
    }

    /// The pieces, in travel order.
    pub fn segments(&self) -> &[CurveSegment] {
        &self.segments
    }

    /// Where each piece of [`CurvedPath::segments`] starts: its distance
    /// from the path's start (sums of the pieces' lengths in `f64`, one
    /// per piece, ascending), so a piece at a distance is a binary search
    /// away instead of a walk over the pieces.
    pub fn piece_starts(&self) -> &[f64] {
        &self.starts
    }

    /// A path made of the given pieces, in travel order: each must start
    /// within 10⁻³ cells of where the previous one ends
    /// ([`CurveError::Discontinuous`] otherwise, or when a coordinate is not
    /// finite); an arc of |sweep| ≥ π is stored as two halves (so every
    /// stored arc sweeps less than π, as [`CurveSegment::Arc`] says). No
    /// clearance is checked: the caller vouches for the geometry (for
    /// example a vehicle search whose pieces were checked against the grid).
    /// Empty input is [`CurveError::Empty`]. O(pieces).
    pub fn from_segments(pieces: &[CurveSegment]) -> Result<CurvedPath, CurveError> {
        CurvedPath::from_driven(pieces, &[])
    }

    /// As [`CurvedPath::from_segments`], with piece `i` driven in reverse
    /// when `reverse[i]` (`reverse` empty: every piece forwards; otherwise
    /// it must have one flag per piece, [`CurveError::Discontinuous`] at
    /// the first piece without one). A reverse piece is stored as given (its
    /// geometry in travel order); the body faces opposite the direction of
    /// travel along it. O(pieces).
    pub fn from_driven(
        pieces: &[CurveSegment],
        reverse: &[bool],
    ) -> Result<CurvedPath, CurveError> {
        let mut c = CurvedPath::default();
        c.assign_driven(pieces, reverse)?;
        Ok(c)
    }

    /// Makes this path the one [`CurvedPath::from_driven`] would return,
    /// reusing its memory (no allocation once its buffers have grown to the
    /// pieces' count). On error the path is left empty. O(pieces).
    pub fn assign_driven(
        &mut self,
        pieces: &[CurveSegment],
        reverse: &[bool],
    ) -> Result<(), CurveError> {
        self.segments.clear();
        self.starts.clear();
        self.reverse.clear();
        self.tightened.clear();
        self.total = 0.0;
        self.start = Vec2::new(0.0, 0.0);
        self.end = self.start;
        let Some(first) = pieces.first() else {
            return Err(CurveError::Empty);
        };
        if !reverse.is_empty() && reverse.len() != pieces.len() {
            return Err(CurveError::Discontinuous {
                segment: reverse.len().min(pieces.len()),
            });
        }
        let any_reverse = reverse.iter().any(|&r| r);
        let mut prev_end: Option<Vec2> = None;
        for (i, piece) in pieces.iter().enumerate() {
            let finite = match *piece {
                CurveSegment::Line { from, to } => from.is_finite() && to.is_finite(),
                CurveSegment::Arc {
                    center,
                    radius,
                    start_angle,
                    sweep,
                } => {
                    center.is_finite()
                        && radius.is_finite()
                        && radius >= 0.0
                        && start_angle.is_finite()
                        && sweep.is_finite()
                        && sweep.abs() <= std::f32::consts::TAU + 1e-4
                }
            };
            let (start, _) = piece.at(0.0);
            let close = prev_end.is_none_or(|e| P::from_vec2(e).dist(P::from_vec2(start)) <= 1e-3);
            if !finite || !close {
                self.segments.clear();
                self.reverse.clear();
                return Err(CurveError::Discontinuous { segment: i });
            }
            prev_end = Some(piece.at(piece.length64()).0);
            let rev = any_reverse && reverse[i];
            match *piece {
                CurveSegment::Arc {
                    center,
                    radius,
                    start_angle,
                    sweep,
                } if sweep.abs() >= std::f32::consts::PI => {
                    let half = sweep / 2.0;
                    self.segments.push(CurveSegment::Arc {
                        center,
                        radius,
                        start_angle,
                        sweep: half,
                    });
                    self.segments.push(CurveSegment::Arc {
                        center,
                        radius,
                        start_angle: start_angle + half,
                        sweep: sweep - half,
                    });
                    if any_reverse {
                        self.reverse.extend([rev, rev]);
                    }
                }
                p => {
                    self.segments.push(p);
                    if any_reverse {
                        self.reverse.push(rev);
                    }
                }
            }
        }
        let mut total = 0.0;
        for s in &self.segments {
            self.starts.push(total);
            total += s.length64();
        }
        self.start = first.at(0.0).0;
        self.end = prev_end.unwrap_or(self.start);
        self.total = total;
        Ok(())
    }

    /// Moves the whole path by `by`: both ends, every line's ends and every
    /// arc's centre. Lengths, distances along the path, headings, arc radii
    /// and angles, reverse flags and [`CurvedPath::tightened_turns`] are
    /// unchanged (a translation keeps them). Coordinates are `f32`: each
    /// moves by exactly `by` when the sum is representable (for a shift by
    /// a multiple of 0.5 cells, unless the sum crosses a power of two
    /// upwards), else by `by` rounded to the nearest `f32`, within half an
    /// ulp (2⁻¹⁵ cells near 512). Used to carry a curve planned in one
    /// frame, such as a movement profile's position space, to another.
    /// O(pieces), no allocation.
    ///
    /// ```
    /// use regionpath_grid::Grid;
    /// use regionpath_smoothing::{curve, TurnOptions, Vec2};
    ///
    /// let grid = Grid::new(20, 20, true).unwrap();
    /// let w = [Vec2::new(2.5, 2.5), Vec2::new(12.5, 2.5), Vec2::new(12.5, 12.5)];
    /// let opts = TurnOptions { turning_radius: 3.0, ..Default::default() };
    /// let mut path = curve(&grid, &w, &opts).unwrap();
    /// let (mid, heading) = path.sample(8.0);
    /// path.translate(Vec2::new(0.5, 0.5));
    /// assert_eq!(path.sample(0.0).0, Vec2::new(3.0, 3.0));
    /// assert_eq!(path.sample(path.length()).0, Vec2::new(13.0, 13.0));
    /// let (moved, moved_heading) = path.sample(8.0);
    /// assert!((moved.x - mid.x - 0.5).abs() < 1e-5 && (moved.y - mid.y - 0.5).abs() < 1e-5);
    /// assert_eq!(moved_heading, heading);
    /// ```
    pub fn translate(&mut self, by: Vec2) {
        self.start = self.start + by;
        self.end = self.end + by;
        for s in &mut self.segments {
            match s {
                CurveSegment::Line { from, to } => {
                    *from = *from + by;
                    *to = *to + by;
                }
                CurveSegment::Arc { center, .. } => *center = *center + by,
            }
        }
    }

    /// Whether piece `index` of [`CurvedPath::segments`] is driven in
    /// reverse (false past the end). O(1).
    pub fn is_reverse(&self, index: usize) -> bool {
        self.reverse.get(index).copied().unwrap_or(false)
    }

    /// Whether any piece is driven in reverse. O(1).
    pub fn has_reverse(&self) -> bool {
        !self.reverse.is_empty()
    }

    /// Corners rounded with less than the requested radius under
    /// [`TurnPolicy::Tighten`] (with the radius used); empty otherwise.
    pub fn tightened_turns(&self) -> &[BlockedTurn] {
        &self.tightened
    }

    /// Position and heading (radians, see the type's documentation) after
    /// travelling `d` cells from the start; `d` is clamped to
    /// `[0, length()]` (NaN reads as 0). The two ends are exactly the first
    /// and last waypoints. A path of a single point reports heading `0`.
    /// The heading is the body's: on a reverse piece it is the direction of
    /// travel turned by π (at the point where reversing starts or stops,
    /// the heading of the piece that begins there).
    pub fn sample(&self, d: f32) -> (Vec2, f32) {
        let (p, h, _) = self.sample_driven(d);
        (p, h)
    }

    /// As [`CurvedPath::sample`], and whether the vehicle is reversing
    /// there (the piece holding `d` is driven in reverse). O(log pieces).
    pub fn sample_driven(&self, d: f32) -> (Vec2, f32, bool) {
        let (Some(first), Some(last)) = (self.segments.first(), self.segments.last()) else {
            return (self.start, 0.0, false);
        };
        let d = if d.is_nan() { 0.0 } else { d as f64 };
        let (i, p, h) = if d <= 0.0 {
            (0, self.start, first.at(0.0).1)
        } else if d >= self.total.min(self.total as f32 as f64) {
            // `length()` is the total rounded to f32, possibly just below it.
            let n = self.segments.len() - 1;
            (n, self.end, last.at(last.length64()).1)
        } else {
            let i = self.starts.partition_point(|&s| s <= d).saturating_sub(1);
            let (p, h) = self.segments[i].at(d - self.starts[i]);
            (i, p, h)
        };
        if self.is_reverse(i) {
            let body = wrap_angle(h as f64 + std::f64::consts::PI) as f32;
            (p, body, true)
        } else {
            (p, h, false)
        }
    }
}

/// One corner of the polyline.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// Original waypoint index.
    index: usize,
    vertex: P,
    u_in: P,
    u_out: P,
    /// tan(θ/2) (infinite for a reversal); 0 when straight.
    pub(crate) tan_half: f64,
    /// +1 when turning towards increasing angles, −1 otherwise.
    sign: f64,
    theta: f64,
}

impl Turn {
    /// The corner at `vertex` (waypoint `index`) between the segments from
    /// `before` and to `after` (each distinct from `vertex`).
    pub(crate) fn new(before: P, vertex: P, after: P, index: usize) -> Turn {
        let u_in = vertex.sub(before).scale(1.0 / before.dist(vertex));
        let u_out = after.sub(vertex).scale(1.0 / vertex.dist(after));
        let cr = u_in.cross(u_out);
        let theta = cr.abs().atan2(u_in.dot(u_out));
        let tan_half = if theta < STRAIGHT {
            0.0
        } else if theta > std::f64::consts::PI - 1e-9 {
            f64::INFINITY
        } else {
            (theta / 2.0).tan()
        };
        Turn {
            index,
            vertex,
            u_in,
            u_out,
            tan_half,
            sign: if cr >= 0.0 { 1.0 } else { -1.0 },
            theta,
        }
    }

    /// The rounding arc of radius `rho`, or `None` when there is no arc.
    fn arc(&self, rho: f64) -> Option<Arc> {
        if rho <= 0.0 || self.tan_half == 0.0 || !self.tan_half.is_finite() {
            return None;
        }
        let t = rho * self.tan_half;
        let from = self.vertex.sub(self.u_in.scale(t));
        let to = self.vertex.add(self.u_out.scale(t));
        let center = from.add(self.u_in.perp().scale(self.sign * rho));
        Some(Arc {
            center,
            radius: rho,
            from,
            to,
            sign: self.sign,
        })
    }

    /// [`Turn::legal`] with a quick refusal first: an arc whose midpoint
    /// lies within `r` of a blocked square ([`disk_blocked`]) is not
    /// clear, whatever the rest of it.
    pub(crate) fn legal_quick(&self, grid: &Grid, rho: f64, r: f64) -> bool {
        if let Some(arc) = self.arc(rho) {
            if let Some(u) = self.vertex.sub(arc.center).unit() {
                if disk_blocked(grid, arc.center.add(u.scale(rho)), r) {
                    return false;
                }
            }
        }
        self.legal(grid, rho, r)
    }

    /// Whether the corner rounded with radius `rho` is clear by `r` (a
    /// reversal takes no arc; `rho` 0 leaves the corner sharp).
    pub(crate) fn legal(&self, grid: &Grid, rho: f64, r: f64) -> bool {
        if rho > 0.0 && !self.tan_half.is_finite() {
            return false;
        }
        match self.arc(rho) {
            None => true,
            Some(arc) => arc_clear(grid, &arc, r),
        }
    }
}

/// Rounds each corner of a waypoint polyline with a circular arc tangent to
/// both of its segments, producing lines and arcs a game can follow with a
/// turning radius.
///
/// Every straight segment of `waypoints` must be clear for
/// `opts.unit_radius` (exact swept-disc test, see [`crate::segment_clear`]),
/// otherwise [`CurveError::SegmentBlocked`]. A corner takes the requested
/// radius when its arc fits (the arcs at both ends of a segment share its
/// length in proportion to their needs) and the arc, swept by the unit, stays
/// clear: the exact distance from the arc to every nearby blocked square and
/// to the map's outline must exceed the unit radius. A corner that fails is
/// never rounded through a wall: it is reported with the largest radius that
/// works for it (bisection), or rounded with that radius under
/// [`TurnPolicy::Tighten`], or left sharp under [`TurnPolicy::Sharpen`].
///
/// Note: [`crate::smooth`] puts waypoints as close to corners as the unit
/// radius allows, so a turning radius above the unit radius rarely fits
/// there. For a vehicle, smooth with a larger clearance radius than the
/// vehicle's own and pass the vehicle's radius as `unit_radius` here: a
/// corner wrapped with clearance `c` takes turning radii up to
/// `(c − r·cos(θ/2)) / (1 − cos(θ/2))` for a unit radius `r` and a turn of θ.
///
/// Consecutive duplicate waypoints are ignored. A single waypoint gives a
/// path of length 0.
///
/// ```
/// use regionpath_grid::Grid;
/// use regionpath_smoothing::{curve, TurnOptions, Vec2};
///
/// let grid = Grid::new(20, 20, true).unwrap();
/// let w = [Vec2::new(2.5, 2.5), Vec2::new(12.5, 2.5), Vec2::new(12.5, 12.5)];
/// let opts = TurnOptions { turning_radius: 3.0, unit_radius: 0.5, ..Default::default() };
/// let path = curve(&grid, &w, &opts).unwrap();
/// assert_eq!(path.segments().len(), 3); // line, quarter circle, line
/// let (end, heading) = path.sample(path.length());
/// assert_eq!(end, Vec2::new(12.5, 12.5));
/// assert!((heading - std::f32::consts::FRAC_PI_2).abs() < 1e-5);
/// ```
pub fn curve(
    grid: &Grid,
    waypoints: &[Vec2],
    opts: &TurnOptions,
) -> Result<CurvedPath, CurveError> {
    let mut out = CurvedPath::default();
    curve_into(
        grid,
        waypoints,
        opts,
        &mut CurveScratch::default(),
        &mut out,
    )?;
    Ok(out)
}

/// Reusable working memory of [`curve_into`]: the distinct waypoints, their
/// corners and radii. Grows to the longest polyline curved, then reused.
#[derive(Clone, Debug, Default)]
pub struct CurveScratch {
    pts: Vec<(P, usize)>,
    seg_len: Vec<f64>,
    turns: Vec<Turn>,
    radius: Vec<f64>,
}

/// [`curve`] writing into `out` (its memory reused) with working memory
/// from `scratch`: the same result, and no allocation once both have grown
/// to the polyline's size (an error under [`TurnPolicy::Strict`] still
/// allocates its list of turns). On error `out` holds an unspecified path.
pub fn curve_into(
    grid: &Grid,
    waypoints: &[Vec2],
    opts: &TurnOptions,
    scratch: &mut CurveScratch,
    out: &mut CurvedPath,
) -> Result<(), CurveError> {
    out.segments.clear();
    out.starts.clear();
    out.reverse.clear();
    out.tightened.clear();
    out.total = 0.0;
    for radius in [opts.turning_radius, opts.unit_radius] {
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(CurveError::InvalidRadius { radius });
        }
    }
    let Some(&first) = waypoints.first() else {
        return Err(CurveError::Empty);
    };
    if let Some(index) = waypoints.iter().position(|w| !w.is_finite()) {
        return Err(CurveError::NonFinite { index });
    }
    let big_r = opts.turning_radius as f64;
    let r = opts.unit_radius as f64;
    // Distinct consecutive points, with their original indices.
    let pts = &mut scratch.pts;
    pts.clear();
    for (i, w) in waypoints.iter().enumerate() {
        let p = P::from_vec2(*w);
        if pts.last().map(|l| l.0) != Some(p) {
            pts.push((p, i));
        }
    }
    if pts.len() == 1 {
        if !capsule_clear(grid, pts[0].0, pts[0].0, r) {
            return Err(CurveError::SegmentBlocked { segment: 0 });
        }
        out.start = first;
        out.end = first;
        return Ok(());
    }
    for w in pts.windows(2) {
        if !capsule_clear(grid, w[0].0, w[1].0, r) {
            return Err(CurveError::SegmentBlocked { segment: w[0].1 });
        }
    }
    let seg_len = &mut scratch.seg_len;
    seg_len.clear();
    seg_len.extend(pts.windows(2).map(|w| w[0].0.dist(w[1].0)));
    // turns[k] is the corner at pts[k + 1].
    let turns = &mut scratch.turns;
    turns.clear();
    turns.extend(
        pts.windows(3)
            .map(|w| Turn::new(w[0].0, w[1].0, w[2].0, w[1].1)),
    );
    // Largest radius each corner can take for the arcs to fit: a segment
    // whose two arcs overflow it is shared in proportion to their needs,
    // which gives both the same limit L / (tan₁ + tan₂).
    let nt = turns.len();
    let radius = &mut scratch.radius;
    radius.clear();
    radius.resize(nt, big_r);
    for (k, turn) in turns.iter().enumerate() {
        if turn.tan_half == 0.0 {
            radius[k] = 0.0;
            continue;
        }
        // Incoming segment k, outgoing k + 1.
        let before = if k > 0 { turns[k - 1].tan_half } else { 0.0 };
        let after = if k + 1 < nt {
            turns[k + 1].tan_half
        } else {
            0.0
        };
        for (len, other) in [(seg_len[k], before), (seg_len[k + 1], after)] {
            // A reversal never gets an arc, so it takes none of the segment.
            let other = if other.is_finite() { other } else { 0.0 };
            let sum = turn.tan_half + other;
            if big_r * sum > len {
                radius[k] = radius[k].min(len / sum);
            }
        }
    }
    let blocked = &mut out.tightened;
    for (k, turn) in turns.iter().enumerate() {
        if turn.tan_half == 0.0 {
            continue;
        }
        let mut rho = radius[k];
        let legal = turn.legal(grid, rho, r);
        if !legal && opts.policy == TurnPolicy::Sharpen {
            rho = 0.0;
        } else if !legal {
            let (mut lo, mut hi) = (0.0, rho);
            for _ in 0..40 {
                if hi - lo <= 1e-5 * big_r.max(1e-3) {
                    break;
                }
                let mid = 0.5 * (lo + hi);
                if turn.legal(grid, mid, r) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            rho = lo;
        }
        // Within rounding of the request (e.g. a fit limit equal to it): not
        // blocked; the arc uses the legal value.
        if rho < big_r * (1.0 - 1e-6) {
            // Report a radius representable as f32 and verified legal.
            let mut f = rho as f32;
            if f as f64 > rho {
                f = f32::from_bits(f.to_bits().saturating_sub(1));
            }
            if !turn.legal(grid, f as f64, r) {
                f = 0.0;
            }
            rho = f as f64;
            blocked.push(BlockedTurn {
                waypoint: turn.index,
                max_legal_radius: f,
            });
        }
        radius[k] = rho;
    }
    if opts.policy == TurnPolicy::Strict {
        if let Some(&b) = blocked.first() {
            return Err(CurveError::TurnBlocked {
                waypoint: b.waypoint,
                max_legal_radius: b.max_legal_radius,
                turns: std::mem::take(blocked),
            });
        }
    }
    // Assemble: line, arc, line, arc, ..., line.
    let segments = &mut out.segments;
    let tangent = |k: usize| -> f64 {
        let t = &turns[k];
        if radius[k] > 0.0 && t.tan_half.is_finite() {
            radius[k] * t.tan_half
        } else {
            0.0
        }
    };
    let mut cursor = pts[0].0;
    for j in 0..pts.len() - 1 {
        let end = if j < nt {
            pts[j + 1].0.sub(turns[j].u_in.scale(tangent(j)))
        } else {
            pts[j + 1].0
        };
        if cursor.dist(end) > MIN_LINE {
            // A line ending where an arc starts: its heading must meet the
            // arc's (a line ending at a waypoint keeps the waypoint).
            let (from, to) = if j < nt && tangent(j) > 0.0 {
                line_f32((cursor.x, cursor.y), (end.x, end.y))
            } else {
                (cursor.to_vec2(), end.to_vec2())
            };
            segments.push(CurveSegment::Line { from, to });
        }
        cursor = end;
        if j < nt {
            let turn = &turns[j];
            if let Some(arc) = turn.arc(radius[j]) {
                let v = arc.from.sub(arc.center);
                segments.push(CurveSegment::Arc {
                    center: arc.center.to_vec2(),
                    radius: radius[j] as f32,
                    start_angle: v.y.atan2(v.x) as f32,
                    sweep: (turn.sign * turn.theta) as f32,
                });
                cursor = arc.to;
            }
        }
    }
    let mut total = 0.0;
    for s in out.segments.iter() {
        out.starts.push(total);
        total += s.length64();
    }
    if opts.policy != TurnPolicy::Tighten {
        out.tightened.clear();
    }
    out.start = first;
    out.end = pts[pts.len() - 1].0.to_vec2();
    out.total = total;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A curve with lines, arcs and a reverse piece, moved by a shift and
    /// back: every piece moved by exactly the shift (values chosen so that
    /// the sums are exact), lengths, headings and flags kept.
    #[test]
    fn translate_moves_every_piece_and_keeps_the_rest() {
        let pieces = [
            CurveSegment::Line {
                from: Vec2::new(1.5, 1.5),
                to: Vec2::new(4.5, 1.5),
            },
            CurveSegment::Arc {
                center: Vec2::new(4.5, 3.5),
                radius: 2.0,
                start_angle: -std::f32::consts::FRAC_PI_2,
                sweep: std::f32::consts::FRAC_PI_2,
            },
            CurveSegment::Line {
                from: Vec2::new(6.5, 3.5),
                to: Vec2::new(6.5, 8.25),
            },
        ];
        let original = CurvedPath::from_driven(&pieces, &[false, false, true]).unwrap();
        let mut moved = original.clone();
        let by = Vec2::new(1.5, -0.5);
        moved.translate(by);
        assert_eq!(moved.segments().len(), original.segments().len());
        for (a, b) in original.segments().iter().zip(moved.segments()) {
            match (*a, *b) {
                (CurveSegment::Line { from, to }, CurveSegment::Line { from: f, to: t }) => {
                    assert_eq!((f, t), (from + by, to + by));
                }
                (
                    CurveSegment::Arc {
                        center,
                        radius,
                        start_angle,
                        sweep,
                    },
                    CurveSegment::Arc {
                        center: c,
                        radius: r,
                        start_angle: a,
                        sweep: s,
                    },
                ) => {
                    assert_eq!(c, center + by);
                    assert_eq!((r, a, s), (radius, start_angle, sweep));
                }
                other => panic!("piece kinds differ: {other:?}"),
            }
        }
        assert_eq!(moved.length(), original.length());
        for i in 0..=40 {
            let d = original.length() * i as f32 / 40.0;
            let (p, h, rev) = original.sample_driven(d);
            let (q, g, rev2) = moved.sample_driven(d);
            assert!((q.x - p.x - by.x).abs() < 1e-5 && (q.y - p.y - by.y).abs() < 1e-5);
            assert_eq!((g, rev2), (h, rev));
        }
        assert_eq!(moved.sample(0.0).0, Vec2::new(3.0, 1.0));
        assert_eq!(moved.sample(moved.length()).0, Vec2::new(8.0, 7.75));
        assert!(moved.is_reverse(2) && !moved.is_reverse(1));
        moved.translate(Vec2::new(-1.5, 0.5));
        assert_eq!(moved, original);
    }
}
