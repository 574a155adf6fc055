//! Turning-radius curves: continuity, clearance (checked independently),
//! and the reporting of turns that cannot be made legal.

mod common;

use common::*;
use proptest::prelude::*;
use regionpath_grid::{Grid, Point};
use regionpath_smoothing::{
    curve, line_f32, polyline_length, smooth, CurveError, CurveSegment, CurvedPath, SmoothOptions,
    TurnOptions, TurnPolicy, Vec2,
};
use std::f64::consts::{FRAC_PI_2, PI};

fn v(p: Vec2) -> V {
    (p.x as f64, p.y as f64)
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let mut d = (b - a) % (2.0 * PI);
    if d > PI {
        d -= 2.0 * PI;
    } else if d < -PI {
        d += 2.0 * PI;
    }
    d.abs()
}

/// Heading at the start and at the end of a segment.
fn end_headings(s: &CurveSegment) -> (f64, f64) {
    match *s {
        CurveSegment::Line { from, to } => {
            let h = ((to.y - from.y) as f64).atan2((to.x - from.x) as f64);
            (h, h)
        }
        CurveSegment::Arc {
            start_angle, sweep, ..
        } => {
            let q = (sweep as f64).signum() * FRAC_PI_2;
            (start_angle as f64 + q, (start_angle + sweep) as f64 + q)
        }
    }
}

/// Distances (along the path) and positions of sharp corners: junctions
/// where the heading changes.
fn sharp_corners(path: &CurvedPath) -> Vec<(f64, Vec2)> {
    let mut out = Vec::new();
    let mut d = 0.0;
    let segs = path.segments();
    for i in 0..segs.len().saturating_sub(1) {
        d += segs[i].length() as f64;
        if angle_diff(end_headings(&segs[i]).1, end_headings(&segs[i + 1]).0) > 1e-3 {
            out.push((d, path.sample(d as f32).0));
        }
    }
    out
}

/// Samples the path every `step` cells and checks: end points, continuity
/// of position and heading (except at sharp corners), and clearance of
/// every sample from blocked squares. Lines are also checked exactly.
fn check_curve(grid: &Grid, waypoints: &[Vec2], path: &CurvedPath, r: f64) {
    let len = path.length() as f64;
    let (p0, _) = path.sample(0.0);
    assert_eq!(p0, waypoints[0]);
    let (p1, _) = path.sample(path.length());
    assert_eq!(p1, *waypoints.last().unwrap());
    assert!(
        len <= polyline_length(waypoints) + 1e-3,
        "curve longer than its polyline"
    );
    let seg_sum: f64 = path.segments().iter().map(|s| s.length() as f64).sum();
    assert!((seg_sum - len).abs() < 1e-3);
    let min_radius = path
        .segments()
        .iter()
        .filter_map(|s| match s {
            CurveSegment::Arc { radius, .. } => Some(*radius as f64),
            _ => None,
        })
        .fold(f64::INFINITY, f64::min);
    let corners = sharp_corners(path);
    // Sharp corners only where a turn got no arc: none was asked for, or
    // it was tightened to radius 0.
    for &(_, at) in &corners {
        let zero_turn = path
            .tightened_turns()
            .iter()
            .any(|t| t.max_legal_radius == 0.0 && waypoints[t.waypoint].distance(at) < 1e-3);
        let no_arcs = !path
            .segments()
            .iter()
            .any(|s| matches!(s, CurveSegment::Arc { .. }));
        assert!(zero_turn || no_arcs, "unexpected sharp corner at {at}");
    }
    for s in path.segments() {
        match *s {
            CurveSegment::Line { from, to } => {
                assert!(
                    seg_clearance(grid, v(from), v(to), r + 2.0) > r - 1e-6,
                    "line {from} -> {to} within {r} of an obstacle"
                );
            }
            CurveSegment::Arc { radius, sweep, .. } => {
                assert!(radius > 0.0 && sweep.abs() < std::f32::consts::PI);
            }
        }
    }
    let step = 0.01;
    let n = (len / step).ceil() as usize;
    let (mut prev_p, mut prev_h) = path.sample(0.0);
    let mut prev_d = 0.0;
    for i in 1..=n {
        let d = (i as f64 * step).min(len);
        let (p, h) = path.sample(d as f32);
        let dd = d - prev_d;
        let jump = p.distance(prev_p) as f64;
        assert!(
            jump <= dd + 2e-3,
            "position jumps by {jump} over {dd} at d = {d}"
        );
        let sharp = corners
            .iter()
            .any(|&(c, _)| c > prev_d - 1e-3 && c <= d + 1e-3);
        if !sharp {
            let turn = angle_diff(prev_h as f64, h as f64);
            assert!(
                turn <= dd / min_radius + 2e-3,
                "heading jumps by {turn} over {dd} at d = {d} (min radius {min_radius})"
            );
        }
        let clearance = point_clearance(grid, v(p), r + 2.0);
        assert!(
            clearance > r - 1e-4,
            "sample {p} at d = {d} is {clearance} from an obstacle (r = {r})"
        );
        (prev_p, prev_h, prev_d) = (p, h, d);
    }
}

#[test]
fn quarter_turn_in_open_field() {
    let grid = Grid::new(20, 20, true).unwrap();
    let w = [
        Vec2::new(2.5, 2.5),
        Vec2::new(12.5, 2.5),
        Vec2::new(12.5, 12.5),
    ];
    let opts = TurnOptions {
        turning_radius: 3.0,
        unit_radius: 0.5,
        ..Default::default()
    };
    let path = curve(&grid, &w, &opts).unwrap();
    assert_eq!(path.segments().len(), 3);
    let expected = 7.0 + 7.0 + 3.0 * FRAC_PI_2;
    assert!((path.length() as f64 - expected).abs() < 1e-4);
    // Middle of the arc: centre (9.5, 5.5), 45° into the turn.
    let (p, h) = path.sample((7.0 + 3.0 * FRAC_PI_2 / 2.0) as f32);
    let s = 3.0 / 2f64.sqrt();
    assert!(
        (p.x as f64 - (9.5 + s)).abs() < 1e-4 && (p.y as f64 - (5.5 - s)).abs() < 1e-4,
        "{p}"
    );
    assert!((h as f64 - PI / 4.0).abs() < 1e-5, "{h}");
    // Headings: east at the start, south (+y) at the end.
    assert!(path.sample(0.0).1.abs() < 1e-6);
    assert!((path.sample(1e9).1 as f64 - FRAC_PI_2).abs() < 1e-5);
    // Out-of-range samples clamp.
    assert_eq!(path.sample(-5.0).0, w[0]);
    assert_eq!(path.sample(f32::NAN).0, w[0]);
    check_curve(&grid, &w, &path, 0.5);
    assert!(path.tightened_turns().is_empty());
    // The mirrored turn sweeps the other way.
    let w2 = [
        Vec2::new(2.5, 12.5),
        Vec2::new(12.5, 12.5),
        Vec2::new(12.5, 2.5),
    ];
    let path2 = curve(&grid, &w2, &opts).unwrap();
    check_curve(&grid, &w2, &path2, 0.5);
    match (path.segments()[1], path2.segments()[1]) {
        (CurveSegment::Arc { sweep: a, .. }, CurveSegment::Arc { sweep: b, .. }) => {
            assert!(a > 0.0 && b < 0.0 && (a + b).abs() < 1e-6)
        }
        other => panic!("{other:?}"),
    }
}

/// The cell path along [`l_corridor`] (east along row 1, then south down
/// column 9) smoothed with a unit radius of 1: three waypoints, one turn.
fn l_corridor_waypoints(grid: &Grid) -> Vec<Vec2> {
    let cells: Vec<Point> = (2..9)
        .map(|x| Point::new(x, 1))
        .chain((2..15).map(|y| Point::new(9, y)))
        .collect();
    let w = smooth(grid, &cells, &SmoothOptions::with_radius(1.0)).unwrap();
    assert_eq!(w.len(), 3, "{w:?}");
    w
}

/// An L-shaped corridor: 4 cells wide, turning south around the block
/// `x < 8, y >= 4`.
fn l_corridor() -> Grid {
    let mut rows = Vec::new();
    for y in 0..16 {
        let row: String = (0..12)
            .map(|x| if x < 8 && y >= 4 { '@' } else { '.' })
            .collect();
        rows.push(row);
    }
    Grid::from_rows(&rows).unwrap()
}

#[test]
fn impossible_turn_is_reported_with_a_legal_radius() {
    let grid = l_corridor();
    // Smoothed with some clearance for the vehicle's body, then rounded.
    let w = l_corridor_waypoints(&grid);
    let strict = TurnOptions {
        turning_radius: 6.0,
        unit_radius: 0.3,
        policy: TurnPolicy::Strict,
    };
    let err = curve(&grid, &w, &strict).unwrap_err();
    let CurveError::TurnBlocked {
        waypoint,
        max_legal_radius,
        ref turns,
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!(waypoint, 1);
    assert_eq!(turns.len(), 1);
    assert!(
        max_legal_radius > 0.5 && max_legal_radius < 6.0,
        "{max_legal_radius}"
    );
    assert!(err.to_string().contains("waypoint 1"), "{err}");
    // The reported radius works, with an arc that really is clear.
    let ok = TurnOptions {
        turning_radius: max_legal_radius,
        ..strict
    };
    let path = curve(&grid, &w, &ok).unwrap();
    check_curve(&grid, &w, &path, 0.3);
    // Noticeably more does not: the arc would come within 0.3 of the
    // corner (8, 4).
    let more = TurnOptions {
        turning_radius: max_legal_radius * 1.05,
        ..strict
    };
    assert!(matches!(
        curve(&grid, &w, &more),
        Err(CurveError::TurnBlocked { .. })
    ));
    // Tighten: same radius, listed.
    let tight = TurnOptions {
        policy: TurnPolicy::Tighten,
        ..strict
    };
    let path = curve(&grid, &w, &tight).unwrap();
    assert_eq!(path.tightened_turns().len(), 1);
    assert_eq!(path.tightened_turns()[0].max_legal_radius, max_legal_radius);
    check_curve(&grid, &w, &path, 0.3);
}

/// `Sharpen` leaves the turn that cannot take the radius a sharp corner
/// at its waypoint (the polyline's own, clear for the unit), lists
/// nothing, and rounds the turns that can take it as `Strict` would.
#[test]
fn sharpen_leaves_an_impossible_turn_sharp() {
    let grid = l_corridor();
    let w = l_corridor_waypoints(&grid);
    let sharp = TurnOptions {
        turning_radius: 6.0,
        unit_radius: 0.3,
        policy: TurnPolicy::Sharpen,
    };
    let path = curve(&grid, &w, &sharp).unwrap();
    assert!(path.tightened_turns().is_empty());
    // Two lines meeting at the corner waypoint, no arc.
    assert_eq!(path.segments().len(), 2, "{:?}", path.segments());
    assert!(path
        .segments()
        .iter()
        .all(|s| matches!(s, CurveSegment::Line { .. })));
    let (end, _) = path.segments()[0].point_at(f64::MAX);
    assert!((end.x - w[1].x).abs() < 1e-5 && (end.y - w[1].y).abs() < 1e-5);
    check_curve(&grid, &w, &path, 0.3);
    // A radius the corner takes is used as under `Strict`.
    let fits = TurnOptions {
        turning_radius: 1.0,
        ..sharp
    };
    let strict = TurnOptions {
        policy: TurnPolicy::Strict,
        ..fits
    };
    assert_eq!(
        curve(&grid, &w, &fits).unwrap().segments(),
        curve(&grid, &w, &strict).unwrap().segments()
    );
}

#[test]
fn short_segments_limit_the_radius() {
    // Two turns 2 cells apart: both arcs share the middle segment.
    let grid = Grid::new(30, 30, true).unwrap();
    let w = [
        Vec2::new(2.5, 2.5),
        Vec2::new(12.5, 2.5),
        Vec2::new(12.5, 4.5),
        Vec2::new(22.5, 4.5),
    ];
    let opts = TurnOptions {
        turning_radius: 4.0,
        unit_radius: 0.0,
        policy: TurnPolicy::Strict,
    };
    let Err(CurveError::TurnBlocked { turns, .. }) = curve(&grid, &w, &opts) else {
        panic!("expected blocked turns")
    };
    assert_eq!(turns.len(), 2);
    // 90° turns: tangent length = radius; the 2-cell segment allows 1 each.
    for t in &turns {
        assert!((t.max_legal_radius - 1.0).abs() < 1e-4, "{t:?}");
    }
    let path = curve(
        &grid,
        &w,
        &TurnOptions {
            turning_radius: 1.0,
            ..opts
        },
    )
    .unwrap();
    check_curve(&grid, &w, &path, 0.0);
    // S-bend: line, arc, arc, line (no line between the arcs).
    assert_eq!(path.segments().len(), 4, "{:?}", path.segments());
}

#[test]
fn zero_turning_radius_is_the_polyline() {
    let grid = Grid::new(10, 10, true).unwrap();
    let w = [
        Vec2::new(1.5, 1.5),
        Vec2::new(5.5, 1.5),
        Vec2::new(5.5, 1.5),
        Vec2::new(8.5, 7.5),
    ];
    let path = curve(&grid, &w, &TurnOptions::default()).unwrap();
    assert_eq!(path.segments().len(), 2);
    assert!((path.length() as f64 - polyline_length(&w)).abs() < 1e-4);
    let one = curve(&grid, &w[..1], &TurnOptions::default()).unwrap();
    assert_eq!(one.length(), 0.0);
    assert_eq!(one.sample(3.0), (w[0], 0.0));
}

#[test]
fn reversal_is_a_sharp_turn() {
    let grid = Grid::new(20, 10, true).unwrap();
    let w = [
        Vec2::new(2.5, 4.5),
        Vec2::new(10.5, 4.5),
        Vec2::new(4.5, 4.5),
        Vec2::new(4.5, 8.5),
    ];
    let opts = TurnOptions {
        turning_radius: 1.0,
        unit_radius: 0.2,
        policy: TurnPolicy::Tighten,
    };
    let path = curve(&grid, &w, &opts).unwrap();
    // The reversal at waypoint 1 cannot be rounded; the turn at 2 keeps its
    // full radius.
    assert_eq!(path.tightened_turns().len(), 1);
    assert_eq!(path.tightened_turns()[0].waypoint, 1);
    assert_eq!(path.tightened_turns()[0].max_legal_radius, 0.0);
    assert!(path
        .segments()
        .iter()
        .any(|s| matches!(s, CurveSegment::Arc { radius, .. } if *radius == 1.0)));
    check_curve(&grid, &w, &path, 0.2);
}

#[test]
fn curve_errors_are_typed() {
    let grid = Grid::from_rows(&["....", ".@..", "...."]).unwrap();
    let opts = TurnOptions::default();
    assert_eq!(curve(&grid, &[], &opts), Err(CurveError::Empty));
    let w = [Vec2::new(0.5, 0.5), Vec2::new(f32::NAN, 0.5)];
    assert_eq!(
        curve(&grid, &w, &opts),
        Err(CurveError::NonFinite { index: 1 })
    );
    for bad in [-1.0, f32::NAN, f32::INFINITY] {
        let o = TurnOptions {
            turning_radius: bad,
            ..opts
        };
        assert!(matches!(
            curve(&grid, &w[..1], &o),
            Err(CurveError::InvalidRadius { .. })
        ));
        let o = TurnOptions {
            unit_radius: bad,
            ..opts
        };
        assert!(matches!(
            curve(&grid, &w[..1], &o),
            Err(CurveError::InvalidRadius { .. })
        ));
    }
    // Through the blocked cell.
    let w = [
        Vec2::new(0.5, 0.5),
        Vec2::new(3.5, 0.5),
        Vec2::new(0.5, 2.5),
    ];
    assert_eq!(
        curve(&grid, &w, &opts),
        Err(CurveError::SegmentBlocked { segment: 1 })
    );
    // Too wide for the row.
    let o = TurnOptions {
        unit_radius: 0.5,
        ..opts
    };
    assert_eq!(
        curve(&grid, &w[..2], &o),
        Err(CurveError::SegmentBlocked { segment: 0 })
    );
}

/// Smoothed paths on random maps, rounded with random radii.
fn random_curve_case(seed: u64, strict: bool) {
    let mut rng = Rng(seed);
    let (w, h) = (8 + rng.below(40) as u32, 8 + rng.below(40) as u32);
    let density = rng.unit() * 0.2;
    let grid = random_grid(&mut rng, w, h, density);
    let (Some(s), Some(t)) = (random_free(&mut rng, &grid), random_free(&mut rng, &grid)) else {
        return;
    };
    let Some(cells) = dijkstra(&grid, s, t, &mut rng, 0.0) else {
        return;
    };
    let clearance = (0.2 + rng.unit()) as f32;
    let waypoints = smooth(&grid, &cells, &SmoothOptions::with_radius(clearance)).unwrap();
    let unit = (rng.unit() * 0.7 * clearance as f64) as f32;
    let turning = (rng.unit() * 3.0) as f32;
    let policy = if strict {
        TurnPolicy::Strict
    } else {
        TurnPolicy::Tighten
    };
    let opts = TurnOptions {
        turning_radius: turning,
        unit_radius: unit,
        policy,
    };
    match curve(&grid, &waypoints, &opts) {
        Ok(path) => {
            check_curve(&grid, &waypoints, &path, unit as f64);
            for t in path.tightened_turns() {
                assert!(t.max_legal_radius < turning);
            }
        }
        Err(CurveError::SegmentBlocked { segment }) => {
            // Only a fallback step of the smoother can be blocked (or, for a
            // one-point path, the point itself: start = goal in a spot too
            // narrow for the unit).
            let a = waypoints[segment];
            let b = waypoints.get(segment + 1).copied().unwrap_or(a);
            assert!(!independently_clear(&grid, v(a), v(b), unit as f64));
        }
        Err(CurveError::TurnBlocked { turns, .. }) => {
            assert!(strict);
            // The smallest reported radius works for the whole path.
            let min = turns
                .iter()
                .map(|t| t.max_legal_radius)
                .fold(f32::INFINITY, f32::min);
            assert!(min < turning);
            let path = curve(
                &grid,
                &waypoints,
                &TurnOptions {
                    turning_radius: min,
                    ..opts
                },
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {waypoints:?} {opts:?} {e:?}"));
            check_curve(&grid, &waypoints, &path, unit as f64);
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn random_strict_curves() {
    for seed in 0..150 {
        random_curve_case(seed, true);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn random_tightened_curves(seed in any::<u64>()) {
        random_curve_case(seed, false);
    }
}

/// `curve_into` with reused buffers gives exactly what `curve` gives, on
/// random polylines of varying length over random maps (each time after a
/// different earlier curve in the same buffers).
#[test]
fn curve_into_matches_curve() {
    use regionpath_smoothing::{curve_into, CurveScratch};
    use regionpath_testkit::maps::obstacles;
    use regionpath_testkit::rng::{Rng64, XorShift64Star};
    let mut rng = XorShift64Star::new(77);
    let mut scratch = CurveScratch::default();
    let mut out = CurvedPath::default();
    let mut compared = 0;
    for _ in 0..300 {
        let grid = obstacles(24, 24, 6, &mut |n| rng.below(n));
        let k = 1 + rng.below(6) as usize;
        let w: Vec<Vec2> = (0..k)
            .map(|_| Vec2::new(rng.unit() as f32 * 24.0, rng.unit() as f32 * 24.0))
            .collect();
        for policy in [TurnPolicy::Tighten, TurnPolicy::Strict] {
            let opts = TurnOptions {
                turning_radius: 2.0,
                unit_radius: 0.2,
                policy,
            };
            let fresh = curve(&grid, &w, &opts);
            let reused = curve_into(&grid, &w, &opts, &mut scratch, &mut out);
            match fresh {
                Ok(c) => {
                    assert_eq!(reused, Ok(()));
                    assert_eq!(out, c);
                    compared += 1;
                }
                Err(e) => assert_eq!(reused, Err(e)),
            }
        }
    }
    assert!(compared >= 100, "only {compared} curves");
}

/// `line_f32` keeps a line's start (rounded), moves its end by at most
/// 5·10⁻⁴ cells per coordinate, and never turns the line farther from
/// its exact heading than rounding both ends alone does; on short lines
/// far from the origin it turns them less on the whole.
#[test]
fn line_f32_keeps_short_lines_on_their_heading() {
    let mut seed = 99u64;
    let mut unit = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let heading_of = |a: Vec2, b: Vec2| ((b.y - a.y) as f64).atan2((b.x - a.x) as f64);
    let (mut plain_sum, mut kept_sum) = (0.0, 0.0);
    for _ in 0..2000 {
        let from = (200.0 + unit() * 700.0, 200.0 + unit() * 700.0);
        let (h, len) = (unit() * 2.0 * PI, 0.01 + unit() * 0.1);
        let to = (from.0 + len * h.cos(), from.1 + len * h.sin());
        let (a, b) = line_f32(from, to);
        assert_eq!(a, Vec2::new(from.0 as f32, from.1 as f32));
        assert!(
            (b.x as f64 - to.0).abs() <= 5e-4 + 1e-9 && (b.y as f64 - to.1).abs() <= 5e-4 + 1e-9
        );
        let plain = angle_diff(heading_of(a, Vec2::new(to.0 as f32, to.1 as f32)), h);
        let kept = angle_diff(heading_of(a, b), h);
        assert!(kept <= plain, "{kept} > {plain}");
        plain_sum += plain;
        kept_sum += kept;
    }
    assert!(kept_sum * 4.0 < plain_sum, "{kept_sum} vs {plain_sum}");
}
