//! The vehicle mode (`TurnPolicy::Strict` with a turning radius) against
//! independent checks: every curve sampled every 0.02 cells keeps its disc
//! clear (test kit distances) and never turns tighter than the radius;
//! headings at the ends; a turn the fast path cannot take is repaired.

use regionpath::{Config, Error, Grid, Hierarchy, HierarchyConfig, Planner, Point, TurnPolicy};
use regionpath::{CurvedPath, Path};
use regionpath_testkit::clearance::point_clearance;
use regionpath_testkit::maps::{obstacles, rooms};
use regionpath_testkit::rng::{Rng64, XorShift64Star};
use std::f64::consts::TAU;

fn vehicle(big_r: f32, r: f32) -> Config {
    Config::new()
        .smooth(true)
        .unit_radius(r)
        .turning_radius(big_r)
        .turn_policy(TurnPolicy::Strict)
}

fn gap(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d)
}

/// Samples every 0.02 cells: discs clear, turns no tighter than R, ends at
/// the cells' centres.
fn check(grid: &Grid, c: &CurvedPath, big_r: f64, r: f64, start: Point, goal: Point) {
    let ds = 0.02;
    let n = (c.length() as f64 / ds).ceil() as usize;
    let mut prev: Option<(f64, f64)> = None;
    for i in 0..=n {
        let s = (i as f64 * ds).min(c.length() as f64);
        let (p, h) = c.sample(s as f32);
        let clear = point_clearance(grid, (p.x as f64, p.y as f64), r + 1.0);
        assert!(
            clear > r - 1e-5,
            "sample at {s}: ({}, {}) clearance {clear}",
            p.x,
            p.y
        );
        if let Some((ps, ph)) = prev {
            assert!(
                gap(h as f64, ph) <= (s - ps) / big_r * 1.001 + 2e-4,
                "tight turn at {s}"
            );
        }
        prev = Some((s, h as f64));
    }
    let (a, _) = c.sample(0.0);
    let (b, _) = c.sample(c.length());
    assert!((a.x - start.x as f32 - 0.5).abs() < 1e-3 && (a.y - start.y as f32 - 0.5).abs() < 1e-3);
    assert!((b.x - goal.x as f32 - 0.5).abs() < 1e-3 && (b.y - goal.y as f32 - 0.5).abs() < 1e-3);
}

/// On random obstacle and room maps, every curve the vehicle mode returns
/// is legal by the independent check, and most queries whose unit fits
/// get one.
#[test]
fn every_curve_is_legal_on_random_maps() {
    let mut rng = XorShift64Star::new(2034);
    let (mut curves, mut refused, mut tried) = (0, 0, 0);
    for m in 0..8 {
        let grid = if m % 2 == 0 {
            obstacles(48, 48, 12, &mut |n| rng.below(n))
        } else {
            rooms(48, 48, 9, 60, &mut |n| rng.below(n))
        };
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
        for _ in 0..15 {
            let a = Point::new(rng.below(48) as u32, rng.below(48) as u32);
            let b = Point::new(rng.below(48) as u32, rng.below(48) as u32);
            if !grid.is_passable(a) || !grid.is_passable(b) || a == b {
                continue;
            }
            match p.find_path(&h, &grid, a, b) {
                Ok(Path { curve: Some(c), .. }) => {
                    check(&grid, &c, 2.0, 0.4, a, b);
                    curves += 1;
                }
                Ok(_) => panic!("the vehicle mode always returns a curve"),
                Err(Error::Unreachable { .. }) => {}
                Err(Error::UnitTooWide { .. }) | Err(Error::NoLegalCurve { .. }) => refused += 1,
                Err(e) => panic!("unexpected error {e}"),
            }
            tried += 1;
        }
    }
    assert!(
        curves * 10 >= tried * 6,
        "{curves} curves, {refused} refused of {tried}"
    );
}

/// Start and goal headings are kept exactly (well within half a step).
#[test]
fn start_and_goal_headings() {
    let grid = Grid::new(40, 40, true).unwrap();
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    for (sd, gd) in [(180.0f32, 0.0f32), (90.0, 270.0), (45.0, 135.0)] {
        let config = vehicle(2.0, 0.4)
            .start_heading(Some(sd))
            .goal_heading(Some(gd));
        let mut p = Planner::new(config).unwrap();
        let (a, b) = (Point::new(5, 20), Point::new(30, 22));
        let path = p.find_path(&h, &grid, a, b).unwrap();
        let c = path.curve.expect("a curve");
        check(&grid, &c, 2.0, 0.4, a, b);
        let (_, h0) = c.sample(0.0);
        let (_, h1) = c.sample(c.length());
        assert!(
            gap(h0 as f64, (sd as f64).to_radians()) < 1e-3,
            "start {h0} vs {sd}"
        );
        assert!(
            gap(h1 as f64, (gd as f64).to_radians()) < 1e-3,
            "goal {h1} vs {gd}"
        );
    }
}

/// Pinter's Figures 18 and 19: the cell path turns right between one-cell
/// corridors where no radius-2 turn fits; the vehicle mode finds the loop
/// through the yard on the left.
#[test]
fn a_blocked_turn_is_repaired() {
    let mut rows = Vec::new();
    for y in 0..20 {
        let mut row = String::new();
        for x in 0..26 {
            let up = x == 12 && (8..20).contains(&y);
            let east = y == 7 && (12..26).contains(&x);
            let yard = (1..12).contains(&x) && (1..11).contains(&y);
            row.push(if up || east || yard { '.' } else { '@' });
        }
        rows.push(row);
    }
    let grid = Grid::from_rows(&rows).unwrap();
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(12, 18), Point::new(24, 7));
    let config = vehicle(2.0, 0.4).start_heading(Some(270.0));
    let mut p = Planner::new(config).unwrap();
    let path = p.find_path(&h, &grid, a, b).unwrap();
    let c = path.curve.expect("a curve");
    check(&grid, &c, 2.0, 0.4, a, b);
    assert!(p.vehicle_expansions() > 0, "the directional search ran");
    let westmost = (0..=400)
        .map(|i| c.sample(c.length() * i as f32 / 400.0).0.x)
        .fold(f32::INFINITY, f32::min);
    assert!(westmost < 10.0, "the loop uses the yard: {westmost}");
    // Rounding the corners alone tightens that turn.
    let mut loose = Planner::new(
        Config::new()
            .smooth(true)
            .unit_radius(0.4)
            .turning_radius(2.0),
    )
    .unwrap();
    let old = loose.find_path(&h, &grid, a, b).unwrap();
    assert!(!old.curve.unwrap().tightened_turns().is_empty());
}

/// Headings need the vehicle mode; bad values are configuration errors.
#[test]
fn heading_options_are_validated() {
    let tighten = Config::new()
        .smooth(true)
        .turning_radius(2.0)
        .start_heading(Some(0.0));
    assert!(Planner::new(tighten).is_err());
    assert!(Planner::new(vehicle(2.0, 0.4).goal_heading(Some(f32::NAN))).is_err());
    assert!(Planner::new(vehicle(2.0, 0.4).headings(12)).is_err());
    assert!(Planner::new(vehicle(2.0, 0.4).headings(8).goal_heading(Some(-90.0))).is_ok());
}
