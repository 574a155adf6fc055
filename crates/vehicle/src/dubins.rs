//! Shortest curves of bounded curvature between two poses (Dubins paths:
//! two arcs joined by a tangent line, or three arcs), with both end
//! headings fixed.

use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// A position (cells) and a heading (radians, `atan2(dy, dx)` in the grid
/// frame: 0 points to +x, π/2 to +y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// x in cells.
    pub x: f64,
    /// y in cells (grows down the map).
    pub y: f64,
    /// Heading in radians.
    pub heading: f64,
}

impl Pose {
    /// A pose from coordinates and a heading in radians.
    pub fn new(x: f64, y: f64, heading: f64) -> Pose {
        Pose { x, y, heading }
    }

    /// Whether every field is finite.
    pub fn is_finite(&self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.heading.is_finite()
    }
}

/// One piece of a [`Maneuver`], relative to the pose it starts from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Piece {
    /// Straight ahead for this many cells.
    Line(f64),
    /// Along a circle of the maneuver's radius through this signed angle
    /// (positive: the heading increases).
    Arc(f64),
}

/// A Dubins curve: up to three pieces for one radius.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Maneuver {
    /// The turning radius of its arcs.
    pub radius: f64,
    /// The pieces in travel order (`Line(0.0)` / `Arc(0.0)` are no-ops).
    pub pieces: [Piece; 3],
    /// Total length in cells.
    pub length: f64,
}

/// Wraps an angle into `[0, 2π)`. The angles of a Dubins word lie within a
/// few turns of that range: one or two additions serve them, and the
/// division (`fmod`) only the rest.
#[inline]
pub(crate) fn wrap_pos(a: f64) -> f64 {
    if (0.0..TAU).contains(&a) {
        return a;
    }
    if (-TAU..0.0).contains(&a) {
        let w = a + TAU;
        // −ε + 2π rounds to 2π.
        return if w >= TAU { 0.0 } else { w };
    }
    if (TAU..2.0 * TAU).contains(&a) {
        return a - TAU;
    }
    let w = a.rem_euclid(TAU);
    if w >= TAU {
        0.0
    } else {
        w
    }
}

/// Wraps an angle into `(-π, π]`.
pub(crate) fn wrap_signed(a: f64) -> f64 {
    let w = wrap_pos(a);
    if w > PI {
        w - TAU
    } else {
        w
    }
}

impl Maneuver {
    /// The pose after travelling the whole maneuver from `start`.
    pub fn end(&self, start: Pose) -> Pose {
        // `advance` piece by piece, each heading's sine and cosine taken
        // once (an arc's end heading is the next piece's start heading).
        let r = self.radius;
        let (mut x, mut y, mut h) = (start.x, start.y, start.heading);
        let (mut sin, mut cos) = h.sin_cos();
        for piece in self.pieces {
            match piece {
                Piece::Line(l) => {
                    x += l * cos;
                    y += l * sin;
                }
                Piece::Arc(a) => {
                    if a == 0.0 {
                        continue;
                    }
                    let s = a.signum();
                    let (cx, cy) = (x - s * r * sin, y + s * r * cos);
                    h += a;
                    (sin, cos) = h.sin_cos();
                    (x, y) = (cx + s * r * sin, cy - s * r * cos);
                }
            }
        }
        Pose::new(x, y, h)
    }
}

/// The pose after one piece from `p`.
pub(crate) fn advance(p: Pose, piece: Piece, radius: f64) -> Pose {
    match piece {
        Piece::Line(l) => Pose::new(
            p.x + l * p.heading.cos(),
            p.y + l * p.heading.sin(),
            p.heading,
        ),
        Piece::Arc(a) => {
            if a == 0.0 {
                return p;
            }
            let s = a.signum();
            // Centre on the side the heading turns towards.
            let (cx, cy) = (
                p.x - s * radius * p.heading.sin(),
                p.y + s * radius * p.heading.cos(),
            );
            let h = p.heading + a;
            Pose::new(cx + s * radius * h.sin(), cy - s * radius * h.cos(), h)
        }
    }
}

/// The smaller angle between headings `a` and `b` (radians, in `[0, π]`).
#[inline]
fn angle_between(a: f64, b: f64) -> f64 {
    let t = wrap_pos(a - b);
    t.min(TAU - t)
}

/// A lower bound of the angle (radians) every curve from heading `a` to
/// heading `b` turns through when its chord has bearing `chord` (`None`
/// for a curve that ends where it starts). Somewhere the curve runs
/// parallel to its chord (Rolle's theorem on its distance from the
/// chord's line), so its heading passes `chord` or `chord + π` on the way
/// from `a` to `b`; and somewhere it advances along the chord (the mean
/// value theorem on its progress along it), so its heading passes within
/// π/2 of `chord`. O(1), no trigonometry.
#[inline]
pub(crate) fn turn_lower_bound(a: f64, b: f64, chord: Option<f64>) -> f64 {
    match chord {
        None => angle_between(a, b),
        Some(phi) => {
            let (to, from) = (angle_between(a, phi), angle_between(phi, b));
            // Through `phi`, or through `phi + π` (each angle to it is π
            // minus the angle to `phi`).
            let parallel = (to + from).min(TAU - to - from);
            let ahead = (to - FRAC_PI_2).max(0.0) + (from - FRAC_PI_2).max(0.0);
            parallel.max(ahead)
        }
    }
}

/// A lower bound of the length of every curve of curvature at most
/// 1/`radius` from `from` to `to` (driven forwards, or backwards with both
/// headings turned round: the bound is the same), so of [`shortest`]'s: the
/// straight distance, and `radius` times [`turn_lower_bound`]. One
/// `atan2`; a search that queues exact curves by it prices (integrates)
/// fewer of them than by the angle between the end headings alone.
pub(crate) fn length_lower_bound(from: Pose, to: Pose, radius: f64) -> f64 {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let dist = (dx * dx + dy * dy).sqrt();
    let chord = (dist > 0.0).then(|| dy.atan2(dx));
    dist.max(radius * turn_lower_bound(from.heading, to.heading, chord))
}

/// A Dubins problem in the frame of its chord: the distance `d` in
/// turning radii and the start and end headings `a`, `b` relative to the
/// chord's bearing, with their sines and cosines.
struct Frame {
    d: f64,
    a: f64,
    b: f64,
    sa: f64,
    ca: f64,
    sb: f64,
    cb: f64,
    cab: f64,
}

impl Frame {
    fn new(from: Pose, to: Pose, radius: f64) -> Frame {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        let d = (dx * dx + dy * dy).sqrt() / radius;
        let phi = if d > 0.0 { dy.atan2(dx) } else { 0.0 };
        let a = wrap_pos(from.heading - phi);
        let b = wrap_pos(to.heading - phi);
        let (sa, ca) = a.sin_cos();
        let (sb, cb) = b.sin_cos();
        Frame {
            d,
            a,
            b,
            sa,
            ca,
            sb,
            cb,
            cab: (a - b).cos(),
        }
    }

    /// The squared line of the plus-straight-plus (`plus`) or
    /// minus-straight-minus word: near 0 the two circles coincide.
    fn same_side_p2(&self, plus: bool) -> f64 {
        let s = if plus {
            self.sa - self.sb
        } else {
            self.sb - self.sa
        };
        2.0 + self.d * self.d - 2.0 * self.cab + 2.0 * self.d * s
    }

    /// Word `k` (0 plus-straight-plus, 1 minus-straight-minus,
    /// 2 plus-straight-minus, 3 minus-straight-plus, 4 minus-plus-minus,
    /// 5 plus-minus-plus) as its three parameters (angles, or the line in
    /// radii) and kinds (+1 an arc with increasing heading, −1 decreasing,
    /// 0 a line); `None` when it does not exist, or when the part of its
    /// length known before its last `atan2` reaches `below` (radii).
    fn word(&self, k: usize, below: f64) -> Option<([f64; 3], [i8; 3])> {
        let Frame {
            d,
            a,
            b,
            sa,
            ca,
            sb,
            cb,
            cab,
        } = *self;
        match k {
            0 | 1 => {
                let p2 = self.same_side_p2(k == 0);
                if p2 < 0.0 || p2.sqrt() >= below {
                    return None;
                }
                Some(if k == 0 {
                    let tmp = (cb - ca).atan2(d + sa - sb);
                    ([wrap_pos(tmp - a), p2.sqrt(), wrap_pos(b - tmp)], [1, 0, 1])
                } else {
                    let tmp = (ca - cb).atan2(d - sa + sb);
                    (
                        [wrap_pos(a - tmp), p2.sqrt(), wrap_pos(tmp - b)],
                        [-1, 0, -1],
                    )
                })
            }
            2 | 3 => {
                let p2 = if k == 2 {
                    -2.0 + d * d + 2.0 * cab + 2.0 * d * (sa + sb)
                } else {
                    d * d - 2.0 + 2.0 * cab - 2.0 * d * (sa + sb)
                };
                if p2 < 0.0 || p2.sqrt() >= below {
                    return None;
                }
                let p = p2.sqrt();
                // `tmp` = atan2(y, x) − atan2(∓2, p): one `atan2` of the
                // rotated vector.
                Some(if k == 2 {
                    let (y, x) = (-ca - cb, d + sa + sb);
                    let tmp = (y * p + 2.0 * x).atan2(x * p - 2.0 * y);
                    ([wrap_pos(tmp - a), p, wrap_pos(tmp - b)], [1, 0, -1])
                } else {
                    let (y, x) = (ca + cb, d - sa - sb);
                    let tmp = (y * p - 2.0 * x).atan2(x * p + 2.0 * y);
                    ([wrap_pos(a - tmp), p, wrap_pos(b - tmp)], [-1, 0, 1])
                })
            }
            _ => {
                // The middle arc alone turns by more than π.
                if below <= PI {
                    return None;
                }
                let s = if k == 4 { sa - sb } else { sb - sa };
                let c = (6.0 - d * d + 2.0 * cab + 2.0 * d * s) / 8.0;
                if c.abs() > 1.0 {
                    return None;
                }
                let p = wrap_pos(TAU - c.acos());
                if p >= below {
                    return None;
                }
                Some(if k == 4 {
                    let t = wrap_pos(a - (ca - cb).atan2(d - sa + sb) + p / 2.0);
                    ([t, p, wrap_pos(a - b - t + p)], [-1, 1, -1])
                } else {
                    let t = wrap_pos(-a - (ca - cb).atan2(d + sa - sb) + p / 2.0);
                    ([t, p, wrap_pos(b - a - t + p)], [1, -1, 1])
                })
            }
        }
    }
}

/// The maneuver of a word's parameters and kinds for `radius`.
fn maneuver(v: [f64; 3], kinds: [i8; 3], radius: f64) -> Maneuver {
    let piece = |k: i8, v: f64| match k {
        0 => Piece::Line(v * radius),
        k => Piece::Arc(k as f64 * v),
    };
    Maneuver {
        radius,
        pieces: [
            piece(kinds[0], v[0]),
            piece(kinds[1], v[1]),
            piece(kinds[2], v[2]),
        ],
        length: (v[0] + v[1] + v[2]) * radius,
    }
}

/// Whether `m` from `from` ends at `to` within the tolerance of
/// [`shortest`] (`d` the distance in radii).
fn reaches(m: &Maneuver, from: Pose, to: Pose, d: f64) -> bool {
    let tol = 1e-6 * (1.0 + d) * m.radius;
    let e = m.end(from);
    (e.x - to.x).abs() <= tol
        && (e.y - to.y).abs() <= tol
        && wrap_signed(e.heading - to.heading).abs() <= 1e-6
}

/// The shortest curve from `from` to `to` made of arcs of radius `radius`
/// (> 0) and lines, or `None` when no candidate reaches `to` (numerically:
/// every candidate is checked by integrating it, within 10⁻⁶ cells and
/// radians). Candidates: the four arc-line-arc words and the two
/// arc-arc-arc words. O(1): the words' lengths first, a word skipped when
/// a part of its length known before its last `atan2` already reaches the
/// best, the winner alone built and integrated; only when it does not
/// reach `to` (near a formula's singularity), or when the two circles of
/// a same-side word coincide, is every candidate built and tried in order.
pub fn shortest(from: Pose, to: Pose, radius: f64) -> Option<Maneuver> {
    if !(radius > 0.0 && radius.is_finite() && from.is_finite() && to.is_finite()) {
        return None;
    }
    let f = Frame::new(from, to, radius);
    if f.same_side_p2(true).abs() < 1e-12 || f.same_side_p2(false).abs() < 1e-12 {
        return all_candidates(from, to, radius);
    }
    let mut best: Option<([f64; 3], [i8; 3])> = None;
    let mut best_len = f64::INFINITY;
    for k in 0..6 {
        if let Some((v, kinds)) = f.word(k, best_len) {
            let len = v[0] + v[1] + v[2];
            if len < best_len {
                (best, best_len) = (Some((v, kinds)), len);
            }
        }
    }
    let (v, kinds) = best?;
    let m = maneuver(v, kinds, radius);
    if m.length.is_finite() && reaches(&m, from, to, f.d) {
        return Some(m);
    }
    all_candidates(from, to, radius)
}

/// [`shortest`] the long way: every candidate built (with the single arc
/// of a same-side word whose circles coincide), sorted by length and
/// integrated in turn until one reaches `to`.
fn all_candidates(from: Pose, to: Pose, radius: f64) -> Option<Maneuver> {
    let f = Frame::new(from, to, radius);
    let mut cands: [Option<Maneuver>; 8] = [None; 8];
    let mut n = 0;
    for (plus, kinds) in [(true, [1, 0, 1]), (false, [-1, 0, -1])] {
        if f.same_side_p2(plus).abs() < 1e-12 {
            let t = if plus { f.b - f.a } else { f.a - f.b };
            cands[n] = Some(maneuver([wrap_pos(t), 0.0, 0.0], kinds, radius));
            n += 1;
        }
    }
    for k in 0..6 {
        if let Some((v, kinds)) = f.word(k, f64::INFINITY) {
            let m = maneuver(v, kinds, radius);
            if m.length.is_finite() {
                cands[n] = Some(m);
                n += 1;
            }
        }
    }
    let cands = &mut cands[..n];
    // Stable: among equal lengths the first word wins.
    cands.sort_by(|a, b| {
        let (a, b) = (
            a.map_or(f64::INFINITY, |m| m.length),
            b.map_or(f64::INFINITY, |m| m.length),
        );
        a.total_cmp(&b)
    });
    cands
        .iter()
        .flatten()
        .copied()
        .find(|m| reaches(m, from, to, f.d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pose pairs of the search's lattice: from a cell centre to every cell
    /// centre within 3 cells, 16 headings at each end.
    fn lattice_pairs() -> impl Iterator<Item = (Pose, Pose)> {
        (0..16).flat_map(|h0| {
            (0..16).flat_map(move |h1| {
                (-3..=3).flat_map(move |dx| {
                    (-3..=3).map(move |dy| {
                        let from = Pose::new(0.5, 0.5, h0 as f64 * TAU / 16.0);
                        let to =
                            Pose::new(0.5 + dx as f64, 0.5 + dy as f64, h1 as f64 * TAU / 16.0);
                        (from, to)
                    })
                })
            })
        })
    }

    /// Numbers in `[0, 1)` from a seeded linear congruential generator.
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Every pair of poses on a small lattice gets a curve, and it ends
    /// where asked (checked inside `shortest` by integration; here also
    /// the length is at least the straight distance and the pieces add up).
    #[test]
    fn every_pose_pair_is_reached() {
        let mut n = 0;
        for (from, to) in lattice_pairs() {
            let m = shortest(from, to, 2.0).expect("a curve");
            let sum: f64 = m
                .pieces
                .iter()
                .map(|p| match *p {
                    Piece::Line(l) => l,
                    Piece::Arc(a) => a.abs() * 2.0,
                })
                .sum();
            assert!((sum - m.length).abs() < 1e-9);
            assert!(m.length + 1e-9 >= ((to.x - from.x).powi(2) + (to.y - from.y).powi(2)).sqrt());
            n += 1;
        }
        assert_eq!(n, 16 * 16 * 49);
    }

    /// Time reversal maps a curve from `a` to `b` onto one from `b` turned
    /// around to `a` turned around of the same length, so the shortest
    /// lengths agree both ways: a word whose formula gave a longer curve
    /// one way shows up here.
    #[test]
    fn reversal_symmetry() {
        let mut unit = uniform(12345);
        for _ in 0..2000 {
            let a = Pose::new(unit() * 8.0, unit() * 8.0, unit() * TAU);
            let b = Pose::new(unit() * 8.0, unit() * 8.0, unit() * TAU);
            let ab = shortest(a, b, 1.5).unwrap().length;
            let back = |p: Pose| Pose::new(p.x, p.y, p.heading + PI);
            let ba = shortest(back(b), back(a), 1.5).unwrap().length;
            assert!(
                (ab - ba).abs() < 1e-6,
                "{ab} vs {ba}: {:?} {:?}",
                shortest(a, b, 1.5),
                shortest(back(b), back(a), 1.5)
            );
        }
    }

    /// The fast path (lengths first, words skipped by partial lengths, the
    /// winner alone built) agrees with building, sorting and integrating
    /// every candidate, on random poses and on the search's lattice.
    #[test]
    fn the_fast_path_picks_the_candidates_shortest() {
        let mut unit = uniform(4242);
        let mut poses = Vec::new();
        for i in 0..20_000 {
            let spread = [0.5, 3.0, 12.0][i % 3];
            let a = Pose::new(unit() * spread, unit() * spread, unit() * TAU - PI);
            let b = Pose::new(unit() * spread, unit() * spread, unit() * TAU - PI);
            poses.push((a, b, 0.5 + unit() * 3.0));
        }
        poses.extend(lattice_pairs().map(|(from, to)| (from, to, 2.0)));
        for (a, b, r) in poses {
            let fast = shortest(a, b, r).expect("a curve");
            let all = all_candidates(a, b, r).expect("a curve");
            assert!(
                (fast.length - all.length).abs() <= 1e-9 * (1.0 + all.length),
                "{fast:?} vs {all:?}"
            );
            let e = fast.end(a);
            assert!((e.x - b.x).abs() < 1e-6 && (e.y - b.y).abs() < 1e-6);
        }
    }

    /// The lower bound never exceeds the shortest curve's length, and
    /// beats the bound of the end headings alone (a pose beside the start
    /// with the same heading needs half a turn each way and back).
    #[test]
    fn the_lower_bound_is_below_the_shortest_length() {
        let mut unit = uniform(777);
        let mut tighter = 0;
        for i in 0..20_000 {
            let spread = if i % 2 == 0 { 3.0 } else { 12.0 };
            let a = Pose::new(unit() * spread, unit() * spread, unit() * TAU - PI);
            let b = Pose::new(unit() * spread, unit() * spread, unit() * TAU - PI);
            let r = 0.5 + unit() * 3.0;
            let exact = shortest(a, b, r).unwrap().length;
            let lower = length_lower_bound(a, b, r);
            assert!(
                lower <= exact + 1e-9,
                "{lower} > {exact}: {a:?} {b:?} r {r}"
            );
            let plain = ((b.x - a.x).hypot(b.y - a.y)).max(r * angle_between(a.heading, b.heading));
            assert!(lower >= plain - 1e-12);
            if lower > plain + 1e-6 {
                tighter += 1;
            }
        }
        assert!(tighter > 5_000, "{tighter}");
        let beside = length_lower_bound(Pose::new(0.0, 0.0, 0.0), Pose::new(0.0, 1.0, 0.0), 2.0);
        assert!((beside - 2.0 * PI).abs() < 1e-12, "{beside}");
    }

    /// `end` is `advance` piece by piece, to the bit.
    #[test]
    fn end_is_advance_piece_by_piece() {
        let mut unit = uniform(99);
        for _ in 0..5_000 {
            let a = Pose::new(unit() * 9.0, unit() * 9.0, unit() * TAU - PI);
            let b = Pose::new(unit() * 9.0, unit() * 9.0, unit() * TAU - PI);
            let m = shortest(a, b, 0.5 + unit() * 3.0).unwrap();
            let mut p = a;
            for piece in m.pieces {
                p = advance(p, piece, m.radius);
            }
            assert_eq!(m.end(a), p);
        }
    }

    /// A straight run ahead is a line of the distance; a quarter turn to
    /// the side at distance R is a quarter arc.
    #[test]
    fn simple_cases() {
        let m = shortest(Pose::new(0.0, 0.0, 0.0), Pose::new(5.0, 0.0, 0.0), 1.0).unwrap();
        assert!((m.length - 5.0).abs() < 1e-9);
        let m = shortest(Pose::new(0.0, 0.0, 0.0), Pose::new(2.0, 2.0, PI / 2.0), 2.0).unwrap();
        assert!((m.length - PI).abs() < 1e-9, "{m:?}");
    }
}
