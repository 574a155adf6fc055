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
