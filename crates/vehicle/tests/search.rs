//! The directional search against independent checks: sampled clearance
//! and curvature, headings at the ends, Pinter's situations, and
//! completeness against a brute-force directional Dijkstra.

mod common;

use common::{brute_force, check_sampled, random_pair, Brute};
use regionpath_grid::{Grid, Point};
use regionpath_smoothing::CurvedPath;
use regionpath_testkit::maps::{obstacles, open_where, rooms};
use regionpath_testkit::rng::{Rng64, XorShift64Star};
use regionpath_vehicle::*;
use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::sync::Arc;

fn search(big_r: f64, r: f64, headings: u32, hood: Neighbourhood) -> DirectionalSearch {
    let spec = VehicleSpec {
        turning_radius: big_r,
        unit_radius: r,
        headings,
        neighbourhood: hood,
        max_turn_steps: None,
        reverse: None,
    };
    DirectionalSearch::new(Arc::new(Steering::new(spec).unwrap()))
}

/// Runs a search; on `Found` checks the curve (crate check and the
/// independent sampled check) and returns it.
fn run(s: &mut DirectionalSearch, grid: &Grid, start: Start, goal: Goal) -> Option<CurvedPath> {
    let mut pieces = Track::new();
    let out = s
        .find(grid, start, goal, &Limits::default(), &mut pieces)
        .unwrap();
    match out {
        Outcome::Found { length, .. } => {
            if pieces.is_empty() {
                return None;
            }
            let c = pieces.to_curve().unwrap();
            assert!((c.length() as f64 - length).abs() < 1e-3);
            let spec = *s.steering().spec();
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
            Some(c)
        }
        Outcome::NoPath { .. } => None,
        Outcome::BudgetExhausted { .. } => panic!("no budget was set"),
    }
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d)
}

/// Exact start and goal poses: the curve starts and ends there with those
/// headings (well within half a heading step), and sprite samples differ
/// from the true heading by at most half a sprite step.
#[test]
fn start_and_goal_headings_are_kept() {
    let grid = Grid::new(30, 30, true).unwrap();
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    let mut rng = XorShift64Star::new(7);
    for _ in 0..20 {
        let sp = Pose::new(
            3.0 + rng.unit() * 24.0,
            3.0 + rng.unit() * 24.0,
            rng.unit() * TAU,
        );
        let gp = Pose::new(
            3.0 + rng.unit() * 24.0,
            3.0 + rng.unit() * 24.0,
            rng.unit() * TAU,
        );
        let c = run(&mut s, &grid, Start::Pose(sp), Goal::Pose(gp)).expect("open map");
        let (a, ha) = c.sample(0.0);
        let (b, hb) = c.sample(c.length());
        assert!((a.x as f64 - sp.x).abs() < 1e-3 && (a.y as f64 - sp.y).abs() < 1e-3);
        assert!((b.x as f64 - gp.x).abs() < 1e-3 && (b.y as f64 - gp.y).abs() < 1e-3);
        let half = TAU / 32.0;
        assert!(angle_diff(ha as f64, sp.heading) < half * 0.01);
        assert!(angle_diff(hb as f64, gp.heading) < half * 0.01);
        let mut samples = Vec::new();
        sample_curve(&c, 0.25, Some(8), &mut samples);
        for w in samples.windows(2) {
            assert!(w[1].s - w[0].s <= 0.25 + 1e-6);
        }
        for smp in &samples {
            let (_, h) = c.sample(smp.s);
            let q = smp.heading_deg as f64;
            assert!(
                (q / 45.0 - (q / 45.0).round()).abs() < 1e-3,
                "{q} is not a sprite angle"
            );
            assert!(angle_diff(q.to_radians(), h as f64) <= PI / 8.0 + 1e-4);
        }
    }
}

/// Pinter's U-turn: a corridor narrower than the turning circle; the only
/// way back is through the wide room at its end.
#[test]
fn u_turn_uses_the_wide_room() {
    // Corridor rows 1..=2 (2 wide) from x = 0 to 12, a 9 × 9 room beyond.
    let mut rows = Vec::new();
    for y in 0..11 {
        let mut row = String::new();
        for x in 0..24 {
            let room = (13..22).contains(&x) && (1..10).contains(&y);
            let corridor = x < 13 && (4..6).contains(&y);
            row.push(if room || corridor { '.' } else { '@' });
        }
        rows.push(row);
    }
    let grid = Grid::from_rows(&rows).unwrap();
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    // Start at the corridor's west end facing east, end there facing west.
    let start = Start::Pose(Pose::new(1.5, 4.5, 0.0));
    let goal = Goal::Pose(Pose::new(3.5, 4.5, PI));
    let c = run(&mut s, &grid, start, goal).expect("the room allows the U-turn");
    // The curve must reach into the room (x ≥ 13).
    let deepest = (0..=200)
        .map(|i| c.sample(c.length() * i as f32 / 200.0).0.x)
        .fold(0.0f32, f32::max);
    assert!(deepest >= 13.0, "turned at x = {deepest}");
    // Without the room, no U-turn is possible.
    let mut closed = rows.clone();
    for row in closed.iter_mut() {
        *row = row
            .chars()
            .enumerate()
            .map(|(x, ch)| if x >= 13 { '@' } else { ch })
            .collect();
    }
    let grid = Grid::from_rows(&closed).unwrap();
    assert!(run(&mut s, &grid, start, goal).is_none());
}

/// Pinter's Figure 8: a right turn between one-cell corridors, too tight
/// for the radius, is made with a loop the other way through the yard on
/// the left.
#[test]
fn right_turn_needs_the_left_loop() {
    // North (−y) up a 1-wide corridor (x = 12) that opens on its west side
    // into a yard (rows 1..=10), then east along a 1-wide corridor (y = 7).
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
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    let start = Start::Pose(Pose::new(12.5, 18.5, -FRAC_PI_2));
    let goal = Goal::Pose(Pose::new(24.5, 7.5, 0.0));
    let c = run(&mut s, &grid, start, goal).expect("the loop through the yard");
    let westmost = (0..=400)
        .map(|i| c.sample(c.length() * i as f32 / 400.0).0.x)
        .fold(f32::INFINITY, f32::min);
    assert!(
        westmost < 10.0,
        "the loop uses the yard: westmost x = {westmost}"
    );
    // Without the yard, no legal curve exists.
    let mut closed = rows.clone();
    for row in closed.iter_mut() {
        *row = row
            .chars()
            .enumerate()
            .map(|(x, ch)| if x < 12 { '@' } else { ch })
            .collect();
    }
    let grid = Grid::from_rows(&closed).unwrap();
    assert!(run(&mut s, &grid, start, goal).is_none());
}

/// A road grid: 3-wide streets between blocks; every pair of crossings is
/// connected with legal curves of radius 2.
#[test]
fn road_grid() {
    let mut rows = Vec::new();
    for y in 0..33 {
        let mut row = String::new();
        for x in 0..33 {
            let street = x % 8 < 3 || y % 8 < 3;
            row.push(if street { '.' } else { '@' });
        }
        rows.push(row);
    }
    let grid = Grid::from_rows(&rows).unwrap();
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    let crossings: Vec<Point> = (0..5)
        .flat_map(|i| (0..5).map(move |j| Point::new(i * 8 + 1, j * 8 + 1)))
        .filter(|p| p.x < 33 && p.y < 33)
        .collect();
    let mut found = 0;
    for (i, &a) in crossings.iter().enumerate() {
        for &b in crossings.iter().skip(i + 1).step_by(3) {
            if run(&mut s, &grid, Start::Cell(a), Goal::Cell(b)).is_some() {
                found += 1;
            }
        }
    }
    assert!(found > 0);
    let pairs = crossings
        .iter()
        .enumerate()
        .map(|(i, _)| crossings.len().saturating_sub(i + 1).div_ceil(3))
        .sum::<usize>();
    assert_eq!(found, pairs, "every crossing pair is connected");
}

/// Which neighbourhood turns for which radius (the vehicle mode picks the
/// smallest that does): on an open 64 × 64 map, from the centre, the
/// search with 16 headings reaches goals in eight directions twenty cells
/// out, each curve legal by the sampled check; Directional-24 does up to
/// R = 2.5, Directional-48 up to R = 4. Past those radii the shortest
/// curve between nearby cells at different headings is a loop over the
/// length bound: Directional-24 at R = 3 misses some of these goals.
#[test]
fn each_neighbourhood_turns_up_to_its_radius() {
    let grid = open_where(64, 64, |_, _| true);
    let centre = Point::new(32, 32);
    let goals: Vec<Point> = (0..8)
        .map(|k| {
            let a = k as f64 * TAU / 8.0 + 0.3;
            Point::new(
                (32.0 + 20.0 * a.cos()).round() as u32,
                (32.0 + 20.0 * a.sin()).round() as u32,
            )
        })
        .collect();
    let reached = |big_r: f64, hood: Neighbourhood| {
        let mut s = search(big_r, 1.0, 16, hood);
        goals
            .iter()
            .filter(|&&g| run(&mut s, &grid, Start::Cell(centre), Goal::Cell(g)).is_some())
            .count()
    };
    for (big_r, hood) in [
        (2.0, Neighbourhood::D24),
        (2.5, Neighbourhood::D24),
        (3.0, Neighbourhood::D48),
        (4.0, Neighbourhood::D48),
    ] {
        assert_eq!(reached(big_r, hood), goals.len(), "R = {big_r}, {hood:?}");
    }
    assert!(reached(3.0, Neighbourhood::D24) < goals.len());
}

/// Completeness: on small random maps, wherever the brute-force search
/// over the same primitives finds a path, the directional search finds
/// one, no longer (the brute force's sampled legality is stricter than the
/// tables). Car (R = 2, r = 0.4, 16 headings, D8 and D24) and ship
/// (R = 4, r = 1, 8 headings, D24).
#[test]
fn complete_against_brute_force() {
    complete_with_dense_limit(DENSE_LIMIT);
}

/// The same with every search's nodes in the paged store (dense limit 0):
/// a store that loses, misplaces or mixes up a node's cost, mark or parent
/// finds no curve, a longer one, or a broken one.
#[test]
fn complete_against_brute_force_with_paged_nodes() {
    complete_with_dense_limit(0);
}

fn complete_with_dense_limit(dense_limit: usize) {
    let cases: [(f64, f64, u32, Neighbourhood, u32, u64); 3] = [
        (2.0, 0.4, 16, Neighbourhood::D8, 14, 18),
        (2.0, 0.4, 16, Neighbourhood::D24, 14, 18),
        (4.0, 1.0, 8, Neighbourhood::D24, 20, 8),
    ];
    let mut rng = XorShift64Star::new(34);
    let (mut both, mut neither) = (0, 0);
    for &(big_r, r, hn, hood, size, percent) in &cases {
        let mut s = search(big_r, r, hn, hood);
        s.set_dense_limit(dense_limit);
        for _ in 0..12 {
            let grid = obstacles(size, size, percent, &mut |n| rng.below(n));
            let Some((a, b)) = random_pair(&grid, &mut rng) else {
                continue;
            };
            if a == b {
                continue;
            }
            let brute = brute_force(&grid, a, b, big_r, r, hn, hood.reach());
            let ours = run(&mut s, &grid, Start::Cell(a), Goal::Cell(b));
            match (brute, &ours) {
                (Some(len), Some(c)) => {
                    both += 1;
                    assert!(
                        c.length() as f64 <= len + 1e-3,
                        "{} > brute {len}",
                        c.length()
                    );
                }
                (Some(len), None) => {
                    panic!("brute force found {len} from {a:?} to {b:?}, search none")
                }
                (None, _) => neither += 1,
            }
        }
    }
    assert!(
        both >= 5,
        "too few solvable cases: {both} (unsolved {neither})"
    );
}

/// Bad input is a typed error.
#[test]
fn bad_input_is_an_error() {
    let grid = Grid::from_rows(&["....", ".@..", "...."]).unwrap();
    let mut s = search(1.0, 0.0, 8, Neighbourhood::D8);
    let mut out = Track::new();
    let lim = Limits::default();
    assert!(s
        .find(
            &grid,
            Start::Cell(Point::new(1, 1)),
            Goal::Cell(Point::new(0, 0)),
            &lim,
            &mut out
        )
        .is_err());
    assert!(s
        .find(
            &grid,
            Start::Cell(Point::new(9, 1)),
            Goal::Cell(Point::new(0, 0)),
            &lim,
            &mut out
        )
        .is_err());
    let nan = Start::Pose(Pose::new(f64::NAN, 0.5, 0.0));
    assert!(s
        .find(&grid, nan, Goal::Cell(Point::new(0, 0)), &lim, &mut out)
        .is_err());
    assert!(Steering::new(VehicleSpec {
        headings: 12,
        ..VehicleSpec::new(1.0, 0.0)
    })
    .is_err());
    assert!(Steering::new(VehicleSpec::new(-1.0, 0.0)).is_err());
}

/// Heading (radians) at the start and at the end of a piece, from its own
/// `f32` geometry: a line's from its end points, an arc's from its angles.
fn piece_headings(s: &regionpath_smoothing::CurveSegment) -> (f64, f64) {
    use regionpath_smoothing::CurveSegment;
    match *s {
        CurveSegment::Line { from, to } => {
            let h = ((to.y - from.y) as f64).atan2((to.x - from.x) as f64);
            (h, h)
        }
        CurveSegment::Arc {
            start_angle, sweep, ..
        } => {
            let turn = if sweep >= 0.0 { FRAC_PI_2 } else { -FRAC_PI_2 };
            let a0 = start_angle as f64;
            (a0 + turn, a0 + sweep as f64 + turn)
        }
    }
}

/// Far from the origin, an exact curve to a goal pose whose shortest
/// Dubins word has a line of a few thousandths of a cell would be written
/// as a line whose `f32` end points turn it by far more than the curve's
/// heading (a kink at both its ends). Every curve found to such goals
/// joins its pieces within 2·10⁻⁴ rad (headings from the pieces' own
/// geometry) and passes the sampled check.
#[test]
fn exact_goal_curves_far_from_the_origin_have_no_kinks() {
    let grid = Grid::new(420, 420, true).unwrap();
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    let mut found = 0;
    for (i, theta) in [0.3, 0.55, 0.8, 1.1].into_iter().enumerate() {
        for line in [2e-4, 5e-4, 9e-4, 2e-3, 6e-3] {
            let from = Pose::new(300.5 + i as f64 * 7.0, 380.5, 0.0);
            let m = Maneuver {
                radius: 2.0,
                pieces: [Piece::Arc(theta), Piece::Line(line), Piece::Arc(0.0)],
                length: 2.0 * theta + line,
            };
            let to = m.end(from);
            let Some(c) = run(&mut s, &grid, Start::Pose(from), Goal::Pose(to)) else {
                panic!("open ground: a curve from {from:?} to {to:?}");
            };
            found += 1;
            let segs = c.segments();
            for k in 1..segs.len() {
                let (_, end) = piece_headings(&segs[k - 1]);
                let (start, _) = piece_headings(&segs[k]);
                assert!(
                    angle_diff(end, start) <= 2e-4,
                    "theta {theta}, line {line}: pieces {} and {k} meet at a kink of {} rad: {:?}",
                    k - 1,
                    angle_diff(end, start),
                    &segs[k - 1..=k]
                );
            }
            let (p, h) = c.sample(c.length());
            assert!((p.x as f64 - to.x).abs() < 1e-3 && (p.y as f64 - to.y).abs() < 1e-3);
            assert!(angle_diff(h as f64, to.heading) < 1e-3);
        }
    }
    assert_eq!(found, 20);
}

/// Runs a guided search over the whole grid (no budget, weight 1); on
/// `Found` checks the curve (crate check, the independent sampled check,
/// its ends at the cells' centres) and returns its expansions.
fn run_guided(s: &mut DirectionalSearch, grid: &Grid, a: Point, b: Point) -> Option<u32> {
    let mut pieces = Track::new();
    let out = s
        .find_guided(
            grid,
            Start::Cell(a),
            Goal::Cell(b),
            &Limits::default(),
            &mut pieces,
        )
        .unwrap();
    match out {
        Outcome::Found {
            length, expansions, ..
        } => {
            let c = pieces.to_curve().unwrap();
            assert!((c.length() as f64 - length).abs() < 1e-3);
            let spec = *s.steering().spec();
            let (big_r, r) = (spec.turning_radius, spec.unit_radius);
            assert_eq!(check_curve(grid, &c, big_r as f32, r as f32), Ok(()));
            check_sampled(grid, &c, big_r, r);
            let (p0, _) = c.sample(0.0);
            let (p1, _) = c.sample(c.length());
            for (p, q) in [(p0, a), (p1, b)] {
                assert!(
                    (p.x - q.x as f32 - 0.5).abs() < 1e-3 && (p.y - q.y as f32 - 0.5).abs() < 1e-3
                );
            }
            Some(expansions)
        }
        Outcome::NoPath { .. } => None,
        Outcome::BudgetExhausted { .. } => panic!("no budget was set"),
    }
}

/// Map `m` of a series of `size` × `size`: rooms of 9 × 9 cells with
/// doors of one or two cells for even `m`, `percent` % of the cells
/// blocked at random for odd; with two distinct random passable cells
/// (`None` when it has no two).
fn rooms_or_obstacles(
    m: u32,
    size: u32,
    percent: u64,
    rng: &mut XorShift64Star,
) -> Option<(Grid, Point, Point)> {
    let grid = if m.is_multiple_of(2) {
        rooms(size, size, 9, 60, &mut |n| rng.below(n))
    } else {
        obstacles(size, size, percent, &mut |n| rng.below(n))
    };
    let (a, b) = random_pair(&grid, rng)?;
    (a != b).then_some((grid, a, b))
}

/// The grid guide prunes no curve: on random obstacle maps, wherever the
/// brute-force search over the same primitives
/// finds a path the guided search finds a legal one (its length is not
/// promised). Car (R = 2, r = 0.4, 16 headings, D24) on rooms of 9 × 9
/// cells with doors of one or two cells, and on scattered obstacles.
#[test]
fn guided_search_is_complete_against_brute_force() {
    let mut rng = XorShift64Star::new(3434);
    let (mut both, mut neither) = (0, 0);
    let (big_r, r, hn, size) = (2.0, 0.4, 16, 40);
    let mut s = search(big_r, r, hn, Neighbourhood::D24);
    for m in 0..16 {
        {
            let Some((grid, a, b)) = rooms_or_obstacles(m, size, 16, &mut rng) else {
                continue;
            };
            let brute = brute_force(&grid, a, b, big_r, r, hn, 2);
            match (brute, run_guided(&mut s, &grid, a, b)) {
                (Some(_), Some(_)) => both += 1,
                (Some(len), None) => {
                    panic!("brute force found {len} from {a:?} to {b:?}, guided search none")
                }
                (None, _) => neither += 1,
            }
        }
    }
    assert!(
        both >= 8,
        "too few solvable cases: {both} (unsolved {neither})"
    );
}

/// A search confined to an area that runs out of nodes and says the area
/// could not be left ([`DirectionalSearch::may_leave_area`] false) has
/// proved that no curve exists on the whole map: on rooms and 25 %
/// obstacle maps, areas round the ends with random margins of 2 to 17
/// cells, plain and guided, every such proof is confirmed by the brute
/// force over the whole map; both answers occur, and some areas that may
/// be left do hide a curve.
#[test]
fn an_exhausted_area_proves_no_curve_unless_it_may_be_left() {
    let mut rng = XorShift64Star::new(5150);
    let (big_r, r, hn, size) = (2.0, 0.4, 16, 40);
    let mut s = search(big_r, r, hn, Neighbourhood::D24);
    let (mut proofs, mut open, mut hidden) = (0, 0, 0);
    for m in 0..96 {
        let Some((grid, a, b)) = rooms_or_obstacles(m, size, 25, &mut rng) else {
            continue;
        };
        let margin = 2 + rng.below(16) as u32;
        let area = Area::around(
            &grid,
            [(a.x as f64, a.y as f64), (b.x as f64, b.y as f64)],
            margin,
        );
        let limits = Limits {
            area: Some(area),
            ..Limits::default()
        };
        let mut pieces = Track::new();
        let guided = m % 4 < 2;
        let out = if guided {
            s.find_guided(&grid, Start::Cell(a), Goal::Cell(b), &limits, &mut pieces)
        } else {
            s.find(&grid, Start::Cell(a), Goal::Cell(b), &limits, &mut pieces)
        }
        .unwrap();
        if !matches!(out, Outcome::NoPath { .. }) {
            continue;
        }
        let whole = brute_force(&grid, a, b, big_r, r, hn, 2);
        if s.may_leave_area() {
            open += 1;
            hidden += usize::from(whole.is_some());
        } else {
            assert!(
                whole.is_none(),
                "{a:?} to {b:?} within {area:?} (guided {guided}): no curve proved, \
                 yet the brute force finds {whole:?}"
            );
            proofs += 1;
        }
    }
    assert!(
        proofs >= 4 && open >= 4 && hidden >= 1,
        "proofs {proofs}, open {open} ({hidden} hiding a curve)"
    );
}

/// A wall across the way with its pocket facing the start (a U open
/// towards it): the Euclidean heuristic floods the pocket and exhausts a
/// budget the grid-guided search meets, its curve legal by the
/// independent check.
#[test]
fn the_guide_leads_round_a_pocket() {
    let grid = common::pocket_grid();
    let (a, b) = (Point::new(30, 32), Point::new(80, 32));
    let budget = Limits {
        area: None,
        max_expansions: 12_000,
        weight: 1.2,
    };
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    let mut pieces = Track::new();
    let plain = s
        .find(&grid, Start::Cell(a), Goal::Cell(b), &budget, &mut pieces)
        .unwrap();
    assert!(
        matches!(plain, Outcome::BudgetExhausted { .. }),
        "the unguided search: {plain:?}"
    );
    let guided = s
        .find_guided(&grid, Start::Cell(a), Goal::Cell(b), &budget, &mut pieces)
        .unwrap();
    let Outcome::Found { expansions, .. } = guided else {
        panic!("the guided search: {guided:?}");
    };
    assert!(expansions <= 12_000);
    let c = pieces.to_curve().unwrap();
    assert_eq!(check_curve(&grid, &c, 2.0, 0.4), Ok(()));
    check_sampled(&grid, &c, 2.0, 0.4);
    let (p1, _) = c.sample(c.length());
    assert!((p1.x - 80.5).abs() < 1e-3 && (p1.y - 32.5).abs() < 1e-3);
}

/// [`DirectionalSearch::escape`] against the brute force over the whole
/// map: on random maps dense enough to hold pockets (the map's edges
/// among their walls), whenever the escape search finds the start
/// enclosed within `d` cells, no chain of the brute force's primitives
/// (stricter than the tables, so never reaching farther) from the start
/// reaches a cell farther than `d` (Chebyshev) anywhere on the map, nor
/// the goal. Both answers occur.
#[test]
fn an_enclosed_start_is_enclosed_on_the_whole_map() {
    let (big_r, r, hn) = (2.0, 0.4, 16);
    let brute = Brute::new(big_r, r, hn, 2, None);
    let mut s = search(big_r, r, hn, Neighbourhood::D24);
    let mut rng = XorShift64Star::new(35);
    let (mut enclosed, mut escaped) = (0, 0);
    for _ in 0..60 {
        let size = 24u32;
        let grid = obstacles(size, size, 22, &mut |n| rng.below(n));
        let Some((a, b)) = random_pair(&grid, &mut rng) else {
            continue;
        };
        let d = 2 + rng.below(6) as u32;
        match s
            .escape(&grid, Start::Cell(a), Goal::Cell(b), d, 0)
            .unwrap()
        {
            Escape::Enclosed { .. } => {
                enclosed += 1;
                let reached = brute.reached(&grid, a, None);
                for (i, _) in reached.iter().enumerate().filter(|(_, &r)| r) {
                    let c = Point::new(i as u32 % size, i as u32 / size);
                    let far = c.x.abs_diff(a.x).max(c.y.abs_diff(a.y));
                    assert!(
                        far <= d,
                        "{a:?} enclosed within {d}, yet the brute force reaches {c:?}"
                    );
                    assert!(c != b || a == b, "{a:?} enclosed, yet {b:?} is reached");
                }
            }
            Escape::Escaped { .. } => escaped += 1,
            Escape::BudgetExhausted { .. } => panic!("no budget was set"),
        }
    }
    assert!(
        enclosed >= 5 && escaped >= 5,
        "enclosed {enclosed}, escaped {escaped}"
    );
}

/// An open start escapes at once: on an empty map the escape search
/// towards a goal 40 cells away stops at its first node beyond 10 cells,
/// after a few dozen expansions (the weighted heuristic leads it
/// straight out); with a budget of 3 it reports neither answer. A start
/// in a one-cell corridor whose ends turn at right angles (too tight for
/// R = 2) is enclosed, by a pose facing along it too. Bad input is a typed
/// error.
#[test]
fn escape_answers_open_and_closed_starts() {
    let mut s = search(2.0, 0.4, 16, Neighbourhood::D24);
    let open = Grid::new(60, 60, true).unwrap();
    let (a, b) = (Point::new(10, 30), Point::new(50, 30));
    match s
        .escape(&open, Start::Cell(a), Goal::Cell(b), 10, 0)
        .unwrap()
    {
        Escape::Escaped { expansions } => assert!(expansions < 100, "{expansions}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        s.escape(&open, Start::Cell(a), Goal::Cell(b), 10, 3)
            .unwrap(),
        Escape::BudgetExhausted { expansions: 4 }
    );
    // A corridor along row 5 from x = 3 to x = 12, leaving by one-cell
    // corridors up at x = 3 and down at x = 12.
    let corridor = open_where(30, 20, |x, y| {
        (y == 5 && (3..=12).contains(&x))
            || (x == 3 && y <= 5)
            || (x == 12 && y >= 5)
            || (y == 19 && x >= 12)
    });
    let start = Point::new(7, 5);
    let goal = Point::new(29, 19);
    for from in [
        Start::Cell(start),
        Start::Pose(Pose::new(7.5, 5.5, 0.0)),
        Start::Pose(Pose::new(7.5, 5.5, PI)),
    ] {
        match s.escape(&corridor, from, Goal::Cell(goal), 8, 0).unwrap() {
            Escape::Enclosed { expansions } => assert!(expansions > 0),
            other => panic!("{from:?}: {other:?}"),
        }
    }
    let brute = Brute::new(2.0, 0.4, 16, 2, None);
    assert_eq!(brute.solve(&corridor, start, None, goal), None);
    // Bad input.
    assert!(matches!(
        s.escape(&open, Start::Cell(a), Goal::Cell(Point::new(60, 0)), 10, 0),
        Err(VehicleError::OutsideArea { what: "goal" })
    ));
    assert!(matches!(
        s.escape(
            &open,
            Start::Pose(Pose::new(f64::NAN, 1.0, 0.0)),
            Goal::Cell(b),
            10,
            0
        ),
        Err(VehicleError::NonFinite)
    ));
    assert!(matches!(
        s.escape(
            &corridor,
            Start::Cell(Point::new(0, 0)),
            Goal::Cell(goal),
            10,
            0
        ),
        Err(VehicleError::Blocked { what: "start" })
    ));
}
