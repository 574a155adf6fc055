//! The vehicle mode (`TurnPolicy::Strict` with a turning radius) against
//! independent checks: every curve sampled every 0.02 cells keeps its disc
//! clear (test kit distances) and never turns tighter than the radius;
//! headings at the ends; a turn the fast path cannot take is repaired.

use regionpath::vehicle::{
    DirectionalSearch, Goal, Limits, Neighbourhood, Outcome, Start, Steering, Track, VehicleSpec,
};
use regionpath::{Config, Error, Grid, Hierarchy, HierarchyConfig, Planner, Point, TurnPolicy};
use regionpath::{CurveStage, CurvedPath, Path, VehicleCurver};
use regionpath_testkit::clearance::point_clearance;
use regionpath_testkit::maps::{obstacles, open_where, rooms};
use regionpath_testkit::rng::{Rng64, XorShift64Star};
use std::f64::consts::TAU;

fn vehicle(big_r: f32, r: f32) -> Config {
    Config::new()
        .smooth(true)
        .unit_radius(r)
        .turning_radius(big_r)
        .turn_policy(TurnPolicy::Strict)
}

/// A directional search for `spec` (the oracle of the whole-map checks).
fn exhaustive(spec: VehicleSpec) -> DirectionalSearch {
    DirectionalSearch::new(std::sync::Arc::new(Steering::new(spec).unwrap()))
}

/// `search` from cell `a` to cell `b` over the whole map without a
/// budget: whether any chain of its primitives joins them (complete
/// against the brute force in the vehicle crate's tests).
fn whole_map(search: &mut DirectionalSearch, grid: &Grid, a: Point, b: Point) -> Outcome {
    search
        .find(
            grid,
            Start::Cell(a),
            Goal::Cell(b),
            &Limits::default(),
            &mut Track::new(),
        )
        .unwrap()
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

/// A 56 × 56 field cut by a wall down column `x` with a one-cell gap at
/// row `narrow` and a gap of eight rows from `wide`, plus a few single
/// blocked cells (one in `sparse`).
fn walled_field(x: u32, narrow: u32, wide: u32, sparse: u64, rng: &mut XorShift64Star) -> Grid {
    let mut grid = open_where(56, 56, |cx, cy| {
        cx != x || cy == narrow || (wide..wide + 8).contains(&cy)
    });
    for y in 0..56 {
        for cx in 0..56 {
            if rng.below(sparse) == 0 {
                grid.set_passable(Point::new(cx, y), false).unwrap();
            }
        }
    }
    grid
}

/// A ship (R = 4, r = 1) on hierarchies for one-cell units, over fields
/// cut by a wall with a one-cell gap and an eight-row gap
/// ([`walled_field`]), from the left of the wall to the right near the
/// one-cell gap's row (so the cell path often takes it): wherever a
/// directional search over the whole map without a budget (complete
/// against the brute force in the vehicle crate's tests) finds a curve,
/// the planner returns one; every curve it returns is legal by the
/// independent check.
#[test]
fn a_ship_gets_a_curve_wherever_the_whole_map_has_one() {
    let mut rng = XorShift64Star::new(2035);
    // The planner's searches for R = 4: 16 headings, Directional-48.
    let mut whole = exhaustive(VehicleSpec {
        neighbourhood: Neighbourhood::D48,
        ..VehicleSpec::new(4.0, 1.0)
    });
    let (mut found, mut narrow_found, mut none) = (0, 0, 0);
    for _ in 0..8 {
        let x = 20 + rng.below(16) as u32;
        let narrow = 4 + rng.below(20) as u32;
        let wide = 34 + rng.below(14) as u32;
        let grid = walled_field(x, narrow, wide, 400, &mut rng);
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::new(vehicle(4.0, 1.0)).unwrap();
        let mut point = Planner::new(Config::new().smooth(true).unit_radius(1.0)).unwrap();
        for _ in 0..6 {
            let a = Point::new(2 + rng.below(x as u64 - 8) as u32, 1 + rng.below(54) as u32);
            let b = Point::new(
                x + 6 + rng.below(u64::from(48 - x)) as u32,
                (narrow + rng.below(7) as u32).saturating_sub(3),
            );
            if !grid.is_passable(a) || !grid.is_passable(b) {
                continue;
            }
            let exists = matches!(whole_map(&mut whole, &grid, a, b), Outcome::Found { .. });
            // Whether the cell path passes where the ship does not fit.
            let narrow_path = point
                .find_path(&h, &grid, a, b)
                .is_ok_and(|q| q.narrow_segments > 0);
            match p.find_path(&h, &grid, a, b) {
                // The rounded curve's headings need not be the search's
                // 16: a curve may exist where the search has none.
                Ok(Path { curve: Some(c), .. }) => {
                    check(&grid, &c, 4.0, 1.0, a, b);
                    found += 1;
                    narrow_found += usize::from(narrow_path);
                }
                Ok(_) => panic!("the vehicle mode always returns a curve"),
                Err(Error::UnitTooWide { .. }) | Err(Error::NoLegalCurve { .. }) => {
                    assert!(
                        !exists,
                        "no curve from {a:?} to {b:?}, which the whole map has"
                    );
                    none += 1;
                }
                Err(e) => panic!("unexpected error {e}"),
            }
        }
    }
    assert!(
        narrow_found >= 5 && none >= 1,
        "{found} found ({narrow_found} round a narrow passage), {none} without a curve"
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

/// A corridor one cell wide from x = 1 to 20 on row 5 (no turn fits in
/// it), closed at x = 0; with `room`, an 10 × 11 room beyond x = 20 where
/// a radius-2 vehicle can loop.
fn dead_end(room: bool) -> Grid {
    open_where(32, 11, |x, y| {
        (y == 5 && (1..21).contains(&x)) || (room && (21..31).contains(&x))
    })
}

/// The direction of travel from positions alone (0.02-cell chords)
/// against the body heading `sample_driven` reports: the same while
/// driving forwards, opposite while reversing. Returns the length driven
/// in reverse.
fn reversed_length(c: &CurvedPath) -> f64 {
    let ds = 0.02f64;
    let mut back = 0.0;
    for i in 0..(c.length() as f64 / ds).floor() as usize {
        let (s0, s1) = (i as f64 * ds, (i + 1) as f64 * ds);
        let (p0, _, r0) = c.sample_driven(s0 as f32);
        let (_, hm, rm) = c.sample_driven(((s0 + s1) / 2.0) as f32);
        let (p1, _, r1) = c.sample_driven(s1 as f32);
        if r0 != rm || rm != r1 {
            continue;
        }
        let motion = ((p1.y - p0.y) as f64).atan2((p1.x - p0.x) as f64);
        let body = hm as f64 + if rm { std::f64::consts::PI } else { 0.0 };
        assert!(
            gap(motion, body) < 0.02,
            "travel {motion} vs body {hm} at {s0}"
        );
        if rm {
            back += ds;
        }
    }
    back
}

/// Facing into a one-cell dead end with the goal behind: without
/// reversing the vehicle mode finds no legal curve; with
/// `Config::reverse` the curve backs out, legal by the independent check,
/// leaving with the start heading, the body facing the dead end all the
/// way (samples flagged `reverse`).
#[test]
fn reversing_backs_out_of_a_dead_end() {
    let grid = dead_end(false);
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(15, 5), Point::new(4, 5));
    let facing = vehicle(2.0, 0.4).start_heading(Some(0.0));
    let mut fwd = Planner::new(facing).unwrap();
    assert!(matches!(
        fwd.find_path(&h, &grid, a, b),
        Err(Error::NoLegalCurve { .. })
    ));
    let mut p = Planner::new(facing.reverse(2.0).sprite_headings(Some(8))).unwrap();
    let path = p.find_path(&h, &grid, a, b).unwrap();
    let c = path.curve.expect("a curve");
    check(&grid, &c, 2.0, 0.4, a, b);
    assert!(reversed_length(&c) > 10.0);
    let mut samples = Vec::new();
    p.sample_curve(&c, 0.25, &mut samples);
    assert!(samples.len() > 40);
    for s in &samples {
        assert!(s.reverse, "sample at {} not reversing", s.s);
        assert!(s.heading_deg == 0.0, "body heading {}", s.heading_deg);
    }
}

/// With a room to loop in beyond the corridor's end (the start close
/// enough to it for the repair's window to hold the loop): no curve costs
/// more than the forward loop the vehicle mode without reversing takes; a
/// penalty whose straight run backwards to the goal costs less than that
/// loop (1 and 2) reverses and costs no more than that run, 5 and 100 take
/// the forward loop; without the room every penalty backs out (the only
/// way).
#[test]
fn the_reverse_penalty_is_respected() {
    let grid = dead_end(true);
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(20, 5), Point::new(9, 5));
    let facing = vehicle(2.0, 0.4).start_heading(Some(0.0));
    let curve_with = |grid: &Grid, h: &Hierarchy, config: Config| {
        let mut p = Planner::new(config).unwrap();
        let c = p.find_path(h, grid, a, b).unwrap().curve.expect("a curve");
        check(grid, &c, 2.0, 0.4, a, b);
        c
    };
    let forward = curve_with(&grid, &h, facing);
    assert_eq!(reversed_length(&forward), 0.0);
    // The cost the repair minimises, counted from the pieces: forward
    // length + P × reverse length + one turning radius per gear change.
    let cost = |c: &CurvedPath, p: f64| {
        let mut total = 0.0;
        for (i, seg) in c.segments().iter().enumerate() {
            let rev = c.is_reverse(i);
            total += seg.length() as f64 * if rev { p } else { 1.0 };
            if i > 0 && c.is_reverse(i - 1) != rev {
                total += 2.0 * regionpath::GEAR_CHANGE_RADII as f64;
            }
        }
        total
    };
    // Backing straight from (20, 5) to (9, 5) costs P × 11: below the
    // forward loop's length (26.4) for P = 1 and 2, above it for 5 and 100.
    let straight_back = (a.x - b.x) as f64;
    for p in [1.0, 2.0, 5.0, 100.0] {
        let c = curve_with(&grid, &h, facing.reverse(p));
        let (paid, back) = (cost(&c, p as f64), p as f64 * straight_back);
        assert!(paid <= forward.length() as f64 + 1e-3, "P = {p}: {paid}");
        let reverses = back < forward.length() as f64;
        assert_eq!(reversed_length(&c) > 0.0, reverses, "P = {p}");
        if reverses {
            assert!(paid <= back + 1e-3, "P = {p}: {paid} > {back}");
        }
    }
    let high = curve_with(&grid, &h, facing.reverse(100.0));
    assert!(!high.has_reverse());
    assert!((high.length() - forward.length()).abs() < 1e-3);
    let narrow = dead_end(false);
    let hn = Hierarchy::build(&narrow, &HierarchyConfig::default()).unwrap();
    for p in [1.0, 2.0, 100.0] {
        let c = curve_with(&narrow, &hn, facing.reverse(p));
        assert!(reversed_length(&c) > 10.0);
    }
}

/// Sprite headings: samples from `Planner::sample_curve` are the exact
/// samples' positions with headings rounded to multiples of 360° / n, each
/// within 180° / n of the exact heading.
#[test]
fn sprite_headings_round_only_the_reported_angle() {
    let grid = Grid::new(40, 40, true).unwrap();
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(5, 20), Point::new(30, 22));
    for n in [8u32, 16] {
        let config = vehicle(2.0, 0.4)
            .start_heading(Some(100.0))
            .sprite_headings(Some(n));
        let mut p = Planner::new(config).unwrap();
        let c = p
            .find_path(&h, &grid, a, b)
            .unwrap()
            .curve
            .expect("a curve");
        let (mut rounded, mut exact) = (Vec::new(), Vec::new());
        p.sample_curve(&c, 0.25, &mut rounded);
        regionpath::sample_curve(&c, 0.25, None, &mut exact);
        assert_eq!(rounded.len(), exact.len());
        let step = 360.0 / n as f64;
        for (r, e) in rounded.iter().zip(&exact) {
            assert_eq!(r.pos, e.pos);
            let q = r.heading_deg as f64 / step;
            assert!(
                (q - q.round()).abs() < 1e-4,
                "{} not a sprite angle",
                r.heading_deg
            );
            let d = gap(
                (r.heading_deg as f64).to_radians(),
                (e.heading_deg as f64).to_radians(),
            );
            assert!(d.to_degrees() <= step / 2.0 + 1e-3);
            let (_, true_h) = c.sample(e.s);
            assert!(gap(true_h as f64, (e.heading_deg as f64).to_radians()) < 1e-4);
        }
    }
}

/// The reverse penalty and sprite headings are validated: a penalty below
/// 1 or not finite, reversing outside the vehicle mode, a sprite count
/// other than 8 or 16 are configuration errors.
#[test]
fn reverse_and_sprite_options_are_validated() {
    for bad in [
        vehicle(2.0, 0.4).reverse(0.5),
        vehicle(2.0, 0.4).reverse(f32::NAN),
        vehicle(2.0, 0.4).reverse(f32::INFINITY),
        Config::new().smooth(true).turning_radius(2.0).reverse(2.0),
        vehicle(2.0, 0.4).sprite_headings(Some(12)),
        vehicle(2.0, 0.4).sprite_headings(Some(0)),
    ] {
        assert!(
            matches!(Planner::new(bad), Err(Error::Config { .. })),
            "{bad:?} accepted"
        );
    }
    assert!(Planner::new(vehicle(2.0, 0.4).reverse(1.0).sprite_headings(Some(16))).is_ok());
    assert_eq!(Config::new().get_reverse(), None);
    assert_eq!(Config::new().get_sprite_headings(), None);
}

/// Rooms of 7 × 7 cells behind one-cell walls (x or y a multiple of 8),
/// `n` × `n` cells, each wall between two rooms with a one-cell door at a
/// random place (the east and south doors of every room).
fn door_rooms(n: u32, rng: &mut XorShift64Star) -> Grid {
    let mut grid = Grid::new(n, n, true).unwrap();
    for y in 0..n {
        for x in 0..n {
            if x % 8 == 0 || y % 8 == 0 {
                grid.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    for ry in 0..n / 8 {
        for rx in 0..n / 8 {
            let (x0, y0) = (rx * 8, ry * 8);
            let east = Point::new(x0 + 8, y0 + 1 + rng.below(7) as u32);
            let south = Point::new(x0 + 1 + rng.below(7) as u32, y0 + 8);
            for door in [east, south] {
                if door.x < n && door.y < n {
                    grid.set_passable(door, true).unwrap();
                }
            }
        }
    }
    grid
}

/// Rooms of 7 × 7 cells with one-cell doors, where nearly every turn of
/// the rounded curve needs a repair and the repairs meet the rounded
/// curve's arcs at all angles: the splices (slices of the rounded curve
/// beside a repair, exact curves into and out of it) must not join at a
/// kink. Every query whose cell path exists gets a curve the independent
/// check accepts, or a typed refusal; never a curve the vehicle mode's own
/// final check refuses (`Error::Inconsistent`). Paths whose illegal turns
/// lie closer than 12 R apart go to the search over the whole box first;
/// at least 50 of the curves (66 of 400) still come from local repairs.
#[test]
fn repaired_curves_in_rooms_splice_cleanly() {
    let mut rng = XorShift64Star::new(34);
    let grid = door_rooms(420, &mut rng);
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    let mut curver = VehicleCurver::new(&vehicle(2.0, 0.4)).unwrap().unwrap();
    let (mut curves, mut tried, mut repaired) = (0, 0, 0);
    while tried < 400 {
        let a = Point::new(30 + rng.below(360) as u32, 30 + rng.below(360) as u32);
        let b = Point::new(
            a.x - 30 + rng.below(60) as u32,
            a.y - 30 + rng.below(60) as u32,
        );
        if !grid.is_passable(a) || !grid.is_passable(b) || a == b {
            continue;
        }
        tried += 1;
        match p.find_path(&h, &grid, a, b) {
            Ok(Path {
                curve: Some(c),
                cells,
                waypoints,
                ..
            }) => {
                check(&grid, &c, 2.0, 0.4, a, b);
                curves += 1;
                // The same curve from the curver alone, for its stage.
                curver.curve(&grid, &cells, &waypoints).unwrap();
                repaired += usize::from(curver.stage() == CurveStage::Repaired);
            }
            Ok(_) => panic!("the vehicle mode always returns a curve"),
            Err(Error::Unreachable { .. })
            | Err(Error::UnitTooWide { .. })
            | Err(Error::NoLegalCurve { .. }) => {}
            Err(e) => panic!("{a:?} -> {b:?}: {e}"),
        }
    }
    assert!(curves * 10 >= tried * 8, "{curves} curves of {tried}");
    assert!(repaired >= 50, "{repaired} of {curves} curves repaired");
}

/// Through a row of one-cell doors every rounded corner is illegal: the
/// curve the planner returns is legal by the independent check and, on
/// average, at most 8 % longer than the shortest chain of primitives a
/// whole-map directional search finds (the oracle, weight 1): 3 % with
/// one search along the whole way first; repairing each door's turn alone
/// gave 17 %.
#[test]
fn a_way_through_many_tight_doors_stays_near_the_best_chain() {
    let mut rng = XorShift64Star::new(77);
    let n = 120u32;
    let grid = door_rooms(n, &mut rng);
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    let mut whole = exhaustive(VehicleSpec::new(2.0, 0.4));
    let (mut sum, mut count, mut tried) = (0.0, 0, 0);
    while tried < 24 {
        let a = Point::new(1 + rng.below(40) as u32, 1 + rng.below(40) as u32);
        let b = Point::new(70 + rng.below(49) as u32, 70 + rng.below(49) as u32);
        if !grid.is_passable(a) || !grid.is_passable(b) {
            continue;
        }
        tried += 1;
        let Outcome::Found { length, .. } = whole_map(&mut whole, &grid, a, b) else {
            continue;
        };
        match p.find_path(&h, &grid, a, b) {
            Ok(Path { curve: Some(c), .. }) => {
                check(&grid, &c, 2.0, 0.4, a, b);
                sum += c.length() as f64 / length;
                count += 1;
            }
            Ok(_) => panic!("the vehicle mode always returns a curve"),
            Err(e) => panic!("{a:?} -> {b:?}: {e}, though the whole map has a curve"),
        }
    }
    assert!(count >= 12, "{count} of {tried} pairs have a curve");
    let mean = sum / count as f64;
    assert!(
        mean <= 1.08,
        "curves {mean:.4} × the best chain ({count} pairs)"
    );
}

/// A wall across the map with two ways through: near the straight line a
/// one-cell passage with two right-angle bends (the cell path's way, but no
/// radius-2 turn fits in it) and, far from the path, a gap of 8 cells. The
/// curve goes through the gap, more than 8 cells away from every cell of
/// the planned path (beyond the reach of the repairs near the path and of
/// a search over the path's box with a margin of 2R + 4), legal by the
/// independent check.
#[test]
fn a_gap_the_radius_cannot_take_is_detoured() {
    let grid = regionpath_testkit::maps::dogleg_wall();
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(8, 8), Point::new(56, 5));
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    let path = p.find_path(&hier, &grid, a, b).unwrap();
    assert!(
        path.cells.iter().all(|c| c.y < 20),
        "the cell path takes the passage"
    );
    let c = path.curve.expect("a curve");
    check(&grid, &c, 2.0, 0.4, a, b);
    let lowest = (0..=1000)
        .map(|i| c.sample(c.length() * i as f32 / 1000.0).0.y)
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(lowest > 34.0, "the curve goes through the gap: {lowest}");
}

/// On `testkit::maps::far_gap_rows(gap)` from (8, 8) to (540, 540): the
/// cell path takes the one-cell dogleg; the planner's curve and the one a
/// fresh `VehicleCurver` makes from the same path are legal by the
/// independent check and cross the wall through the rows of `gap`; the
/// curver's stage is `stage`.
fn far_gap_curves(gap: std::ops::Range<u32>, stage: CurveStage) {
    let grid = regionpath_testkit::maps::far_gap_rows(gap.clone());
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(8, 8), Point::new(540, 540));
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    let path = p.find_path(&hier, &grid, a, b).unwrap();
    assert!(
        path.cells.iter().all(|c| c.x < 30 || c.x > 34 || c.y < 20),
        "the cell path takes the passage"
    );
    let c = path.curve.expect("a curve");
    check(&grid, &c, 2.0, 0.4, a, b);
    let mut curver = VehicleCurver::new(&vehicle(2.0, 0.4)).unwrap().unwrap();
    let again = curver.curve(&grid, &path.cells, &path.waypoints).unwrap();
    assert_eq!(curver.stage(), stage);
    check(&grid, &again, 2.0, 0.4, a, b);
    let rows = gap.start as f32..gap.end as f32;
    for curve in [&c, &again] {
        let crossing = (0..=20_000)
            .map(|i| curve.sample(curve.length() * i as f32 / 20_000.0).0)
            .filter(|q| (30.0..35.0).contains(&q.x))
            .all(|q| rows.contains(&q.y));
        assert!(crossing, "the curve crosses the wall through the gap");
    }
}

/// On `testkit::maps::far_gap_rows(90..98)` (a one-cell dogleg on the cell path, a gap
/// of eight rows some 85 cells away, beyond the repairs' and the detours'
/// reach), the wide-path stage plans the cell path again along corridors
/// at least three cells wide: it goes through the gap, and its curve is
/// legal by the independent check. The search over the whole box (and its
/// 5 · 10⁶ nodes) is not needed.
#[test]
fn a_path_with_room_to_turn_goes_round_a_squeeze() {
    far_gap_curves(90..98, CurveStage::WidePath);
}

/// On `testkit::maps::far_gap_rows(90..92)` (the far gap only two rows
/// wide: a vehicle of unit radius 0.4 drives through it straight, but the
/// wide-path stage closes it, as no cell in it has all eight neighbours
/// open), the curve goes round through the gap, legal by the independent
/// check: the search over the whole path's box (the whole 560 × 560 map,
/// 5 · 10⁶ nodes at 16 headings) runs with its nodes in the paged store (a
/// box above the curver's dense limit, 2²⁰ nodes).
#[test]
fn a_far_gap_is_found_over_a_box_above_the_dense_store() {
    far_gap_curves(90..92, CurveStage::WholeBox);
}

/// One-cell corridors with a single place to turn far below them: the
/// start's corridor B (column 20, rows 10–99) meets corridor A (row 10,
/// columns 20–50) at a junction no curve turns at; A bends down at an open
/// 9 × 9 square round (50, 10) into column 50, and both B and column 50
/// end in a room (rows 100–129). The cell path from (20, 30) to (35, 10)
/// goes up B and along A; the only curve drives down B, turns in the room,
/// comes up column 50 and turns west at the square: it turns 70 rows
/// below the path, beyond the margin (8R + 16 = 32 cells) of the path's
/// box.
fn far_turning_room() -> Grid {
    open_where(61, 130, |x, y| {
        (x == 20 && (10..100).contains(&y))
            || (y == 10 && (20..=50).contains(&x))
            || ((46..=54).contains(&x) && (6..=14).contains(&y))
            || (x == 50 && (10..100).contains(&y))
            || y >= 100
    })
}

/// On [`far_turning_room`] (R = 2, r = 0.4), the search over the path's
/// box runs out of nodes (no chain turns within it); the box four times
/// wider round the path holds the room, and the curve found there is
/// legal by the independent check and turns in the room. A directional
/// search over the whole map agrees that a curve exists.
#[test]
fn a_curve_that_turns_far_beyond_the_path_box_is_found() {
    let grid = far_turning_room();
    let (a, b) = (Point::new(20, 30), Point::new(35, 10));
    let mut whole = exhaustive(VehicleSpec::new(2.0, 0.4));
    assert!(matches!(
        whole_map(&mut whole, &grid, a, b),
        Outcome::Found { .. }
    ));
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    let path = p.find_path(&hier, &grid, a, b).unwrap();
    assert!(
        path.cells.iter().all(|c| c.y <= 30),
        "the cell path goes up B and along A"
    );
    let mut curver = VehicleCurver::new(&vehicle(2.0, 0.4)).unwrap().unwrap();
    let again = curver.curve(&grid, &path.cells, &path.waypoints).unwrap();
    assert_eq!(curver.stage(), CurveStage::WholeBox);
    for c in [&path.curve.expect("a curve"), &again] {
        check(&grid, c, 2.0, 0.4, a, b);
        let lowest = (0..=2000)
            .map(|i| c.sample(c.length() * i as f32 / 2000.0).0.y)
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(lowest > 100.0, "the curve turns in the room: {lowest}");
    }
}

/// A ship (R = 4, unit radius 1) planned on a hierarchy for one-cell
/// units, on `testkit::maps::narrow_and_wide_gap`: the cell path takes the
/// one-cell gap, which the unit cannot pass. The curve goes round through
/// the wide gap (legal by the independent check, crossing the wall
/// there); with no wide gap the error still names the passage
/// (`UnitTooWide`).
#[test]
fn a_unit_wider_than_the_path_goes_round_by_a_wider_way() {
    let (a, b) = (Point::new(12, 20), Point::new(78, 20));
    for wide in [true, false] {
        let grid = regionpath_testkit::maps::narrow_and_wide_gap(wide);
        let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::new(vehicle(4.0, 1.0)).unwrap();
        if !wide {
            assert!(matches!(
                p.find_path(&hier, &grid, a, b),
                Err(Error::UnitTooWide { .. })
            ));
            continue;
        }
        let path = p.find_path(&hier, &grid, a, b).unwrap();
        assert!(
            path.cells.contains(&Point::new(40, 20)),
            "the cell path takes the gap"
        );
        let c = path.curve.expect("a curve");
        check(&grid, &c, 4.0, 1.0, a, b);
        let crossing = (0..=20_000)
            .map(|i| c.sample(c.length() * i as f32 / 20_000.0).0)
            .filter(|q| (40.0..42.0).contains(&q.x))
            .all(|q| (55.0..70.0).contains(&q.y));
        assert!(crossing, "the curve crosses the wall through the wide gap");
    }
}

/// A 130 × 160 field with a one-cell corridor leaving it east at row 80
/// and bending south after 15 cells: the goal lies past the bend, where
/// a radius-2 vehicle cannot turn.
fn bent_pocket() -> Grid {
    open_where(160, 160, |x, y| {
        x < 130 || (y == 80 && (130..=145).contains(&x)) || (x == 145 && (80..=90).contains(&y))
    })
}

/// The goal past a one-cell bend: the point path exists, no legal curve
/// does (an exhaustive directional search over the whole map from the
/// start finds none), and the vehicle mode says so after a search from
/// the goal backwards runs out of room, well short of the 150 000
/// expansions the search over the whole box would spend on the field.
#[test]
fn a_goal_in_a_pocket_fails_early() {
    let grid = bent_pocket();
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(10, 80), Point::new(145, 88));
    let outcome = whole_map(&mut exhaustive(VehicleSpec::new(2.0, 0.4)), &grid, a, b);
    let Outcome::NoPath { expansions: all } = outcome else {
        panic!("a curve into the pocket: {outcome:?}");
    };
    assert!(all > 150_000, "the field holds {all} nodes");
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    match p.find_path(&hier, &grid, a, b) {
        Err(Error::NoLegalCurve { expansions }) => {
            assert!(expansions < 100_000, "{expansions} expansions")
        }
        other => panic!("{other:?}"),
    }
}

/// A 90 × 60 map: a field east of x = 30, and a one-cell corridor along
/// row 5 from x = 2 to x = 12 that bends south there and reaches the
/// field along row 20.
fn corridor_pocket() -> Grid {
    open_where(90, 60, |x, y| {
        x >= 30
            || (y == 5 && (2..=12).contains(&x))
            || (x == 12 && (5..=20).contains(&y))
            || (y == 20 && x >= 12)
    })
}

/// A start (or, the other way round, a goal) three cells from a one-cell
/// bend too tight for the radius: the point path exists, no legal curve
/// does (an exhaustive directional search over the whole map finds
/// none), and the vehicle mode says so after the pocket check at that
/// end, within a few hundred expansions. Without that check the query
/// goes on to ease and repair the path and to the later stages (over
/// 4,000 expansions here).
#[test]
fn an_end_in_a_corridor_too_narrow_to_turn_fails_at_once() {
    let grid = corridor_pocket();
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(9, 5), Point::new(60, 40));
    let mut search = exhaustive(VehicleSpec::new(2.0, 0.4));
    for (from, to) in [(a, b), (b, a)] {
        let outcome = whole_map(&mut search, &grid, from, to);
        assert!(
            matches!(outcome, Outcome::NoPath { .. }),
            "a curve from {from:?} to {to:?}: {outcome:?}"
        );
        let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
        match p.find_path(&hier, &grid, from, to) {
            Err(Error::NoLegalCurve { expansions }) => {
                assert!(
                    expansions < 500,
                    "{from:?} to {to:?}: {expansions} expansions"
                )
            }
            other => panic!("{from:?} to {to:?}: {other:?}"),
        }
    }
}

/// A thin wall hanging from the top of a room, start and goal on either
/// side of it: the smoothed path turns round the wall's end through two
/// right-angled corners too close together for the radius (and, smoothed
/// with more clearance, still too close). With the corners eased apart,
/// the curve needs no directional search (stage `Rounded`, no node
/// expanded), legal by the independent check.
#[test]
fn corners_eased_apart_need_no_search() {
    let grid = open_where(40, 40, |x, y| x != 20 || y >= 25);
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let (a, b) = (Point::new(12, 6), Point::new(28, 6));
    let mut p = Planner::new(vehicle(2.0, 0.4)).unwrap();
    let path = p.find_path(&hier, &grid, a, b).unwrap();
    let turns = |w: &[regionpath::Vec2]| {
        regionpath::smoothing::curve(
            &grid,
            w,
            &regionpath::smoothing::TurnOptions {
                turning_radius: 2.0,
                unit_radius: 0.4,
                policy: TurnPolicy::Strict,
            },
        )
    };
    assert!(
        turns(&path.waypoints).is_err(),
        "the corners take the radius as smoothed"
    );
    let wide = regionpath::smoothing::smooth(
        &grid,
        &path.cells,
        &regionpath::smoothing::SmoothOptions::with_radius(1.4),
    );
    assert!(wide.is_err() || turns(&wide.unwrap()).is_err());
    let mut curver = VehicleCurver::new(&vehicle(2.0, 0.4)).unwrap().unwrap();
    let c = curver.curve(&grid, &path.cells, &path.waypoints).unwrap();
    assert_eq!(
        (curver.stage(), curver.expansions()),
        (CurveStage::Rounded, 0)
    );
    check(&grid, &c, 2.0, 0.4, a, b);
    check(&grid, &path.curve.expect("a curve"), 2.0, 0.4, a, b);
}
