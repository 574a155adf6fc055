//! Easing the corners of a waypoint polyline for a turning radius: each
//! corner whose rounding arc does not fit or is not clear is moved a
//! little (out of the corner, or back along one of its segments) while
//! its segments stay clear and no other corner gets worse, so that more
//! corners take the radius and fewer need a search.

use crate::curve::{Turn, TurnOptions};
use crate::geom::{capsule_clear, disk_blocked, P};
use crate::Vec2;
use regionpath_grid::Grid;

/// Passes over the corners: a corner moved in one pass changes its
/// neighbours' angles, which the next pass may use.
const PASSES: usize = 3;
/// Moves tried per direction: `STEPS` distances up to 1.5 turning radii.
const STEPS: usize = 12;
/// Slack (cells) a moved corner keeps: its arc clear by the unit radius
/// plus this, and a line of at least this between its arc and each
/// neighbour's. The first position that passes is often at the limit,
/// where the `f32` pieces of the curve could touch a wall or kink at a
/// joint; no arc from a moved corner ends there.
const MARGIN: f64 = 1e-2;

/// Reusable working memory of [`ease_corners`]: the waypoints in `f64`
/// and two flags per corner. Grows to the longest polyline eased.
#[derive(Clone, Debug, Default)]
pub struct EaseScratch {
    pts: Vec<P>,
    good: Vec<bool>,
    /// Per corner: bit 0 set when a corner within two moved in this pass,
    /// bit 1 in the pass before.
    near_move: Vec<u8>,
}

/// Moves the corners of `waypoints` that cannot be rounded with
/// `opts.turning_radius` (their arcs do not fit between their neighbours'
/// or are not clear by `opts.unit_radius`, the rule of [`crate::curve`]) so
/// that they can. A corner is tried at up to 36 positions, nearest first:
/// out of the corner along its bisector, back along its outgoing segment
/// (the arc then ends before the old corner: a straight run through a
/// door), forward along its incoming segment (a straight run out of one);
/// it takes the first where it can be rounded, both its segments are
/// clear for the unit radius, and the two corners on each side that could
/// be rounded still can. Three passes at most, a later one using the
/// moves of the earlier. The ends never move, a polyline with repeated
/// points is left as it is, and no move makes a segment blocked (the
/// segments should be clear, as [`crate::curve`] requires; one that is
/// not stays as it was).
///
/// Returns the number of moves. Costs a clearance test per corner, and
/// per corner that cannot be rounded (in a later pass: per corner near a
/// move) up to 36 tries of a few geometric tests and clearance tests each; no allocation once `scratch`
/// has grown to the polyline. Why: a path smoothed for a unit's radius
/// wraps corners as tightly as the unit allows, where a vehicle's arc
/// would cut the wall; moved a cell or so, most such corners take the
/// radius, and each saves the vehicle mode a directional search (every
/// 8th row of Moving AI maze512-8, R = 2, r = 0.4: 83 % fewer corners
/// to repair; `benches/PROFILES.md` P72).
///
/// ```
/// use regionpath_grid::Grid;
/// use regionpath_smoothing::{curve, ease_corners, EaseScratch, TurnOptions, TurnPolicy, Vec2};
///
/// // A block of cells 5..10 × 5..10; the path runs along its lower side
/// // and turns up its right side, wrapping the corner (10, 10) tightly.
/// let mut grid = Grid::new(20, 20, true).unwrap();
/// for y in 5..10 {
///     for x in 5..10 {
///         grid.set_passable(regionpath_grid::Point::new(x, y), false).unwrap();
///     }
/// }
/// let mut w = vec![Vec2::new(2.0, 10.6), Vec2::new(10.5, 10.5), Vec2::new(10.6, 2.0)];
/// let opts = TurnOptions { turning_radius: 2.0, unit_radius: 0.4, policy: TurnPolicy::Strict };
/// assert!(curve(&grid, &w, &opts).is_err()); // the arc cuts the block
/// let moved = ease_corners(&grid, &mut w, &opts, &mut EaseScratch::default());
/// assert_eq!(moved, 1);
/// assert!(curve(&grid, &w, &opts).is_ok());
/// assert_eq!((w[0], w[2]), (Vec2::new(2.0, 10.6), Vec2::new(10.6, 2.0)));
/// ```
pub fn ease_corners(
    grid: &Grid,
    waypoints: &mut [Vec2],
    opts: &TurnOptions,
    scratch: &mut EaseScratch,
) -> usize {
    let big_r = opts.turning_radius as f64;
    let r = opts.unit_radius as f64;
    let n = waypoints.len();
    if n < 3 || !(big_r > 0.0 && big_r.is_finite() && r >= 0.0 && r.is_finite()) {
        return 0;
    }
    let pts = &mut scratch.pts;
    pts.clear();
    pts.extend(waypoints.iter().map(|w| P::from_vec2(*w)));
    if pts.windows(2).any(|w| w[0] == w[1]) {
        return 0;
    }
    let good = &mut scratch.good;
    let near_move = &mut scratch.near_move;
    let step = (1.5 * big_r / STEPS as f64).max(0.05);
    let mut moves = 0;
    for pass in 0..PASSES {
        // After the first pass, only the corners within two of one moved
        // in the pass before (bit 1; this pass's moves set bit 0) are
        // tested again and tried: the others' surroundings are as they
        // were.
        if pass == 0 {
            near_move.clear();
            near_move.resize(n, 0);
            good.clear();
            good.extend((0..n).map(|k| corner_good(grid, pts, k, big_r, r, 0.0)));
        } else {
            for (k, f) in near_move.iter_mut().enumerate() {
                *f = (*f << 1) & 2;
                if *f != 0 {
                    good[k] = corner_good(grid, pts, k, big_r, r, 0.0);
                }
            }
        }
        let mut moved = false;
        for i in 1..n - 1 {
            if good[i] || (pass > 0 && near_move[i] & 2 == 0) {
                continue;
            }
            let (b, v, a) = (pts[i - 1], pts[i], pts[i + 1]);
            let (Some(u_in), Some(u_out)) = (v.sub(b).unit(), a.sub(v).unit()) else {
                continue;
            };
            let out = u_in.sub(u_out).unit();
            let mut dirs = [out, Some(u_out.scale(-1.0)), Some(u_in)];
            'tries: for k in 1..=STEPS {
                let d = step * k as f64;
                for slot in dirs.iter_mut() {
                    let Some(dir) = *slot else {
                        continue;
                    };
                    // The waypoint as `f32`, as the curve will read it.
                    let c = P::from_vec2(v.add(dir.scale(d)).to_vec2());
                    // Cheapest tests first: the point's own clearance, the
                    // arcs' fit (no grid), the segments, the arc.
                    let rm = r + MARGIN;
                    if c == b || c == a {
                        continue;
                    }
                    if disk_blocked(grid, c, r) {
                        // Past a wall, a corner's segments would cross it:
                        // this direction is done.
                        *slot = None;
                        continue;
                    }
                    pts[i] = c;
                    if corner_good(grid, pts, i, big_r, rm, MARGIN)
                        && capsule_clear(grid, b, c, r)
                        && capsule_clear(grid, c, a, r)
                        && [i.wrapping_sub(2), i.wrapping_sub(1), i + 1, i + 2]
                            .into_iter()
                            .filter(|&j| j < n && good[j])
                            .all(|j| corner_good(grid, pts, j, big_r, r, 0.0))
                    {
                        good[i] = true;
                        for f in &mut near_move[i.saturating_sub(2)..(i + 3).min(n)] {
                            *f |= 1;
                        }
                        moves += 1;
                        moved = true;
                        break 'tries;
                    }
                    pts[i] = v;
                }
            }
        }
        if !moved {
            break;
        }
    }
    for (w, p) in waypoints.iter_mut().zip(pts.iter()) {
        *w = p.to_vec2();
    }
    moves
}

/// Whether corner `k` of `pts` (an end counts as good) takes radius
/// `big_r` by [`crate::curve`]'s rule: its arc fits between its
/// neighbours' (each segment shared in proportion to the two corners'
/// needs, a reversal taking none) with `slack` cells of line to spare, and
/// is clear by `r`.
fn corner_good(grid: &Grid, pts: &[P], k: usize, big_r: f64, r: f64, slack: f64) -> bool {
    let n = pts.len();
    if k == 0 || k + 1 >= n {
        return true;
    }
    // tan(θ/2) of corner `j` (0 at an end; a reversal, which takes none
    // of its segments, as 0 for its neighbours' fit).
    let tan_at = |j: usize| -> f64 {
        if j == 0 || j + 1 >= n {
            return 0.0;
        }
        let t = tan_half(pts[j - 1], pts[j], pts[j + 1]);
        if t.is_finite() {
            t
        } else {
            0.0
        }
    };
    let tan_k = tan_half(pts[k - 1], pts[k], pts[k + 1]);
    if tan_k == 0.0 {
        return true;
    }
    if !tan_k.is_finite() {
        return false;
    }
    for (len, other) in [
        (pts[k - 1].dist(pts[k]), tan_at(k - 1)),
        (pts[k].dist(pts[k + 1]), tan_at(k + 1)),
    ] {
        let sum = tan_k + other;
        let len = len - slack;
        if big_r * sum > len && len / sum < big_r * (1.0 - 1e-6) {
            return false;
        }
    }
    Turn::new(pts[k - 1], pts[k], pts[k + 1], k).legal_quick(grid, big_r, r)
}

/// tan(θ/2) of the corner at `v` between the segments from `a` and to `b`
/// (θ the angle between their directions), as [`Turn::new`] has it (0
/// below 10⁻⁹ rad, infinite within 10⁻⁹ of a reversal) without `atan2`
/// and `tan`: |u × w| / (1 + u · w) for the unit directions u and w.
fn tan_half(a: P, v: P, b: P) -> f64 {
    let u = v.sub(a).scale(1.0 / a.dist(v));
    let w = b.sub(v).scale(1.0 / v.dist(b));
    let (cross, dot) = (u.cross(w).abs(), u.dot(w));
    if cross < 1e-9 && dot > 0.0 {
        0.0
    } else if cross < 1e-9 || 1.0 + dot <= 5e-19 {
        f64::INFINITY
    } else {
        cross / (1.0 + dot)
    }
}
