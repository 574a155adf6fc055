//! The public distance functions against the test kit's independent
//! distances (segments) and dense sampling (arcs), and
//! `CurvedPath::from_segments`.

use regionpath_smoothing::{
    arc_cell_distance, segment_cell_distance, CurveError, CurveSegment, CurvedPath, Vec2,
};
use regionpath_testkit::clearance::{point_square_dist, seg_square_dist};
use regionpath_testkit::rng::{Rng64, XorShift64Star};
use std::f64::consts::TAU;

#[test]
fn segment_distance_matches_the_test_kit() {
    let mut rng = XorShift64Star::new(3);
    for _ in 0..5000 {
        let a = [rng.unit() * 6.0, rng.unit() * 6.0];
        let b = [rng.unit() * 6.0, rng.unit() * 6.0];
        let (x, y) = (rng.below(6) as i64, rng.below(6) as i64);
        let ours = segment_cell_distance(a, b, x, y);
        let theirs = seg_square_dist((a[0], a[1]), (b[0], b[1]), x, y);
        assert!((ours - theirs).abs() < 1e-9, "{ours} vs {theirs}");
    }
}

#[test]
fn arc_distance_matches_sampling() {
    let mut rng = XorShift64Star::new(4);
    for _ in 0..2000 {
        let c = [2.0 + rng.unit() * 4.0, 2.0 + rng.unit() * 4.0];
        let rho = 0.2 + rng.unit() * 3.0;
        let a0 = rng.unit() * TAU;
        let sweep = (rng.unit() * 2.0 - 1.0) * TAU;
        let (x, y) = (rng.below(9) as i64, rng.below(9) as i64);
        let ours = arc_cell_distance(c, rho, a0, sweep, x, y);
        let n = 4000;
        let sampled = (0..=n)
            .map(|i| {
                let t = a0 + sweep * i as f64 / n as f64;
                point_square_dist((c[0] + rho * t.cos(), c[1] + rho * t.sin()), x, y)
            })
            .fold(f64::INFINITY, f64::min);
        // Samples lie on the arc: never nearer than the exact distance,
        // and at most half a sample spacing farther.
        let spacing = rho * sweep.abs() / n as f64;
        assert!(ours <= sampled + 1e-9, "{ours} > sampled {sampled}");
        assert!(
            sampled - ours <= spacing + 1e-9,
            "{ours} vs sampled {sampled}"
        );
    }
}

#[test]
fn from_segments_joins_pieces_and_splits_long_arcs() {
    let pieces = [
        CurveSegment::Line {
            from: Vec2::new(1.0, 1.0),
            to: Vec2::new(3.0, 1.0),
        },
        // A three-quarter turn around (3, 2).
        CurveSegment::Arc {
            center: Vec2::new(3.0, 2.0),
            radius: 1.0,
            start_angle: -std::f32::consts::FRAC_PI_2,
            sweep: 1.5 * std::f32::consts::PI,
        },
    ];
    let c = CurvedPath::from_segments(&pieces).unwrap();
    assert_eq!(c.segments().len(), 3);
    assert!((c.length() - (2.0 + 1.5 * std::f32::consts::PI)).abs() < 1e-5);
    let (end, _) = c.sample(c.length());
    assert!((end.x - 2.0).abs() < 1e-5 && (end.y - 2.0).abs() < 1e-5);
    let gap = [
        pieces[0],
        CurveSegment::Line {
            from: Vec2::new(3.5, 1.0),
            to: Vec2::new(5.0, 1.0),
        },
    ];
    assert_eq!(
        CurvedPath::from_segments(&gap),
        Err(CurveError::Discontinuous { segment: 1 })
    );
    assert_eq!(CurvedPath::from_segments(&[]), Err(CurveError::Empty));
}

/// Pieces driven in reverse: the flags follow a split arc, `sample` reports
/// the body heading (the direction of travel, computed here from two
/// nearby positions, turned by π), the position is the piece's own, and a
/// flag list of the wrong length is an error. `assign_driven` over a used
/// path gives the same path as a fresh one.
#[test]
fn reverse_pieces_report_the_body_heading() {
    let pieces = [
        CurveSegment::Line {
            from: Vec2::new(5.0, 1.0),
            to: Vec2::new(3.0, 1.0),
        },
        CurveSegment::Arc {
            center: Vec2::new(3.0, 2.0),
            radius: 1.0,
            start_angle: -std::f32::consts::FRAC_PI_2,
            sweep: -1.5 * std::f32::consts::PI,
        },
    ];
    let c = CurvedPath::from_driven(&pieces, &[true, true]).unwrap();
    assert_eq!(c.segments().len(), 3);
    assert!((0..3).all(|i| c.is_reverse(i)) && !c.is_reverse(3) && c.has_reverse());
    let n = 200;
    for i in 0..n {
        let s = c.length() * i as f32 / n as f32;
        let (p, h, rev) = c.sample_driven(s);
        assert!(rev);
        let (q, h2) = c.sample(s + 1e-3);
        let motion = ((q.y - p.y) as f64).atan2((q.x - p.x) as f64);
        let d = (motion + std::f64::consts::PI - h as f64).rem_euclid(TAU);
        assert!(d.min(TAU - d) < 1e-2, "at {s}: motion {motion}, body {h}");
        let d2 = (h2 as f64 - h as f64).rem_euclid(TAU);
        assert!(d2.min(TAU - d2) < 1e-2);
    }
    let (start, h0) = c.sample(0.0);
    assert_eq!(start, Vec2::new(5.0, 1.0));
    assert!(
        h0.abs() < 1e-6,
        "body faces +x while backing towards −x: {h0}"
    );
    assert_eq!(
        CurvedPath::from_driven(&pieces, &[true]),
        Err(CurveError::Discontinuous { segment: 1 })
    );
    let fwd = CurvedPath::from_segments(&pieces).unwrap();
    assert!(!fwd.has_reverse());
    let mut reused = CurvedPath::from_driven(&pieces, &[false, true]).unwrap();
    assert!(!reused.is_reverse(0) && reused.is_reverse(1) && reused.is_reverse(2));
    reused.assign_driven(&pieces, &[true, true]).unwrap();
    assert_eq!(reused, c);
    reused.assign_driven(&pieces, &[]).unwrap();
    assert_eq!(reused, fwd);
}
