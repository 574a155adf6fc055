//! Reversing with a penalty against independent checks: a dead end that
//! only backing out leaves, a brute-force (cell, heading, direction)
//! Dijkstra on random maps, and the penalty's effect on the route chosen.

mod common;

use common::{check_driven, check_sampled, random_pair, Brute};
use regionpath_grid::{Grid, Point};
use regionpath_smoothing::CurvedPath;
use regionpath_testkit::maps::obstacles;
use regionpath_testkit::rng::{Rng64, XorShift64Star};
use regionpath_vehicle::*;
use std::f64::consts::TAU;
use std::sync::Arc;

fn search(
    big_r: f64,
    r: f64,
    headings: u32,
    hood: Neighbourhood,
    reverse: Option<Reverse>,
) -> DirectionalSearch {
    let spec = VehicleSpec {
        turning_radius: big_r,
        unit_radius: r,
        headings,
        neighbourhood: hood,
        max_turn_steps: None,
        reverse,
    };
    DirectionalSearch::new(Arc::new(Steering::new(spec).unwrap()))
}

/// The cost of a track counted here: forward length + penalty × reverse
/// length + gear × changes of direction.
fn track_cost(t: &Track, penalty: f64, gear: f64) -> f64 {
    let mut cost = 0.0;
    for (i, s) in t.segments().iter().enumerate() {
        let rev = t.reverse()[i];
        cost += s.length() as f64 * if rev { penalty } else { 1.0 };
        if i > 0 && t.reverse()[i - 1] != rev {
            cost += gear;
        }
    }
    cost
}

/// Runs a search; on `Found` checks the curve (crate check, independent
/// sampled clearance and curvature on the body heading, direction of
/// travel from positions) and the reported cost against the track, and
/// returns the curve, its cost and the length driven in reverse.
fn run(
    s: &mut DirectionalSearch,
    grid: &Grid,
    start: Start,
    goal: Goal,
) -> Option<(CurvedPath, f64, f64)> {
    let mut track = Track::new();
    let out = s
        .find(grid, start, goal, &Limits::default(), &mut track)
        .unwrap();
    match out {
        Outcome::Found { length, cost, .. } => {
            if track.is_empty() {
                return None;
            }
            let spec = *s.steering().spec();
            let (penalty, gear) = spec
                .reverse
                .map_or((1.0, 0.0), |r| (r.penalty, r.gear_change));
            let c = track.to_curve().unwrap();
            assert!((c.length() as f64 - length).abs() < 1e-3);
            let counted = track_cost(&track, penalty, gear);
            assert!(
                (counted - cost).abs() < 1e-3 * (1.0 + cost),
                "cost {cost}, counted {counted}"
            );
            assert_eq!(
                check_curve(
                    grid,
                    &c,
                    spec.turning_radius as f32,
                    spec.unit_radius as f32
                ),
                Ok(())
            );
            check_sampled(grid, &c, spec.turning_radius, spec.unit_radius);
            let back = check_driven(&c);
            assert_eq!(back > 0.0, track.has_reverse());
            Some((c, cost, back))
        }
        Outcome::NoPath { .. } => None,
        Outcome::BudgetExhausted { .. } => panic!("no budget was set"),
    }
}

/// A corridor one cell wide (no room to turn at all: a turn takes a
/// width of 4.8 with R = 2 and r = 0.4, a three-point turn well over one
/// cell) from x = 1 to 20, closed at both ends; with `room`, a 10 × 11
/// room beyond x = 20 where the vehicle can loop.
fn dead_end(room: bool) -> Grid {
    let (w, h) = (32u32, 11u32);
    let rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let corridor = y == 5 && (1..21).contains(&x);
                    let in_room = room && (21..31).contains(&x);
                    if corridor || in_room {
                        '.'
                    } else {
                        '@'
                    }
                })
                .collect()
        })
        .collect();
    Grid::from_rows(&rows).unwrap()
}

/// Facing into a dead end narrower than the turning circle, with the goal
/// behind: forwards there is no curve; reversing, the curve backs out
/// (driven in reverse, the body still facing the dead end, legal by the
/// independent checks), starting with the given heading.
#[test]
fn backs_out_of_a_dead_end() {
    let grid = dead_end(false);
    let start = Start::Pose(Pose::new(15.5, 5.5, 0.0));
    let goal = Goal::Cell(Point::new(4, 5));
    let mut fwd = search(2.0, 0.4, 16, Neighbourhood::D24, None);
    assert!(run(&mut fwd, &grid, start, goal).is_none());
    for rev in [
        Reverse::new(2.0),
        Reverse {
            penalty: 3.0,
            gear_change: 2.0,
        },
    ] {
        let mut s = search(2.0, 0.4, 16, Neighbourhood::D24, Some(rev));
        let (c, cost, back) = run(&mut s, &grid, start, goal).expect("a curve backing out");
        assert!(back > 10.0, "only {back} cells in reverse");
        // Straight back 11 cells is the cheapest chain: cost 11 × penalty.
        assert!((cost - 11.0 * rev.penalty).abs() < 1e-3, "cost {cost}");
        let (p, h) = c.sample(0.0);
        assert!((p.x - 15.5).abs() < 1e-3 && (p.y - 5.5).abs() < 1e-3);
        assert!(h.abs() < 1e-3, "start heading {h}");
        let mut samples = Vec::new();
        sample_curve(&c, 0.25, None, &mut samples);
        assert!(samples.iter().all(|s| s.reverse));
        assert!(samples
            .iter()
            .all(|s| s.heading_deg < 1e-3 || s.heading_deg > 360.0 - 1e-3));
    }
}

/// Where both exist, the route backing out (cost 11 × P) and the loop
/// through the room at the corridor's end: the found cost never exceeds
/// the forward-only search's, grows with P, and a large P makes the search
/// drive the forward loop (no reverse piece, the forward-only cost).
#[test]
fn the_penalty_decides_between_reversing_and_the_loop() {
    let grid = dead_end(true);
    let start = Start::Pose(Pose::new(15.5, 5.5, 0.0));
    let goal = Goal::Cell(Point::new(4, 5));
    let mut fwd = search(2.0, 0.4, 16, Neighbourhood::D24, None);
    let (_, forward, back) = run(&mut fwd, &grid, start, goal).expect("the loop");
    assert_eq!(back, 0.0);
    assert!(forward > 30.0, "loop of {forward}");
    let mut last = 0.0;
    let mut reversed_at_low = false;
    for p in [1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 100.0] {
        let mut s = search(2.0, 0.4, 16, Neighbourhood::D24, Some(Reverse::new(p)));
        let (_, cost, back) = run(&mut s, &grid, start, goal).expect("a curve");
        assert!(
            cost <= forward + 1e-3,
            "P = {p}: {cost} > forward {forward}"
        );
        assert!(
            cost + 1e-3 >= last,
            "P = {p}: cost fell from {last} to {cost}"
        );
        last = cost;
        if p <= 2.0 {
            reversed_at_low |= back > 0.0;
            assert!(cost <= 11.0 * p + 1e-3);
        }
        if p >= 10.0 {
            assert_eq!(back, 0.0, "P = {p} still reverses");
            assert!((cost - forward).abs() < 1e-3);
        }
    }
    assert!(reversed_at_low);
}

/// Existence and cost against the brute-force (cell, heading, direction)
/// Dijkstra on 240 small random maps (car R = 2, r = 0.4 with 16 headings
/// D24 and 8 headings D48; a vehicle with R = 3, r = 0.8, 16 headings D24;
/// penalties 1.5 to 4, gear-change costs 0 to 2), every other query
/// starting with a fixed heading: the search finds a curve whenever the
/// brute force does, never costlier (the brute force's sampled legality is
/// stricter than the tables, so a curve only the search finds is possible
/// but must stay rare), reversing never costs more than not, and enough
/// queries need it to mean something.
#[test]
fn agrees_with_brute_force_on_random_maps() {
    type Case = (f64, f64, u32, Neighbourhood, u32, u64, f64, f64);
    let cases: [Case; 4] = [
        (2.0, 0.4, 16, Neighbourhood::D24, 14, 8, 2.0, 0.0),
        (2.0, 0.4, 16, Neighbourhood::D24, 14, 14, 1.5, 2.0),
        (3.0, 0.8, 16, Neighbourhood::D24, 16, 5, 2.0, 1.0),
        (2.0, 0.4, 8, Neighbourhood::D48, 14, 10, 4.0, 0.5),
    ];
    let mut rng = XorShift64Star::new(3434);
    let (mut maps, mut both, mut neither, mut only_ours, mut backed) = (0, 0, 0, 0, 0);
    let mut forward_only = 0;
    for &(big_r, r, hn, hood, size, percent, penalty, gear) in &cases {
        let rev = Reverse {
            penalty,
            gear_change: gear,
        };
        let brute = Brute::new(big_r, r, hn, hood.reach(), Some((penalty, gear)));
        let brute_fwd = Brute::new(big_r, r, hn, hood.reach(), None);
        let mut s = search(big_r, r, hn, hood, Some(rev));
        let mut trials = 0;
        while trials < 60 {
            let grid = obstacles(size, size, percent, &mut |n| rng.below(n));
            let Some((a, b)) = random_pair(&grid, &mut rng) else {
                continue;
            };
            if a == b {
                continue;
            }
            trials += 1;
            maps += 1;
            // Every third query keeps its nodes in the paged store.
            s.set_dense_limit(if trials % 3 == 0 { 0 } else { DENSE_LIMIT });
            // Every other query starts facing a given heading (an exact
            // pose at the cell's centre), the others facing anywhere.
            let heading = (trials % 2 == 0).then(|| rng.below(hn as u64) as u32);
            let start = match heading {
                Some(h) => Start::Pose(Pose::new(
                    a.x as f64 + 0.5,
                    a.y as f64 + 0.5,
                    h as f64 * TAU / hn as f64,
                )),
                None => Start::Cell(a),
            };
            let want = brute.solve(&grid, a, heading, b);
            let fwd = brute_fwd.solve(&grid, a, heading, b);
            if let (Some(w), Some(f)) = (want, fwd) {
                assert!(w <= f + 1e-9, "reversing costs {w} > forwards {f}");
            }
            if want.is_some() && fwd.is_none() {
                forward_only += 1;
            }
            assert!(want.is_some() || fwd.is_none());
            let ours = run(&mut s, &grid, start, Goal::Cell(b));
            match (want, &ours) {
                (Some(w), Some((_, cost, back))) => {
                    both += 1;
                    if *back > 0.0 {
                        backed += 1;
                    }
                    assert!(*cost <= w + 1e-3, "{a:?} -> {b:?}: {cost} > brute {w}");
                }
                (Some(w), None) => {
                    panic!("brute force found {w} from {a:?} to {b:?}, search none")
                }
                (None, Some(_)) => only_ours += 1,
                (None, None) => neither += 1,
            }
        }
    }
    eprintln!(
        "{maps} maps: {both} both, {neither} neither, {only_ours} only the search, \
         {backed} reversing, {forward_only} solvable only by reversing"
    );
    assert_eq!(maps, 240);
    assert!(
        both >= 120,
        "too few solvable cases: {both} (unsolved {neither})"
    );
    assert!(backed >= 20, "too few curves reverse: {backed}");
    assert!(forward_only >= 10, "too few need reversing: {forward_only}");
    assert!(
        only_ours * 20 <= both,
        "{only_ours} curves the brute force misses (of {both})"
    );
}

/// A reverse penalty below 1 (or not finite), or a negative gear-change
/// cost, is a typed error.
#[test]
fn bad_reverse_settings_are_errors() {
    for (penalty, gear) in [
        (0.5, 0.0),
        (f64::NAN, 0.0),
        (f64::INFINITY, 0.0),
        (2.0, -1.0),
        (2.0, f64::NAN),
    ] {
        let spec = VehicleSpec {
            reverse: Some(Reverse {
                penalty,
                gear_change: gear,
            }),
            ..VehicleSpec::new(2.0, 0.4)
        };
        assert!(matches!(
            Steering::new(spec),
            Err(VehicleError::Spec { .. })
        ));
    }
    let ok = VehicleSpec {
        reverse: Some(Reverse::new(1.0)),
        ..VehicleSpec::new(2.0, 0.4)
    };
    assert!(Steering::new(ok).is_ok());
}
