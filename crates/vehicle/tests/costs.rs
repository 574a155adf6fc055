//! The terrain-priced directional search (`DirectionalSearch::find_weighted`)
//! against checks written here from the rules alone: a position's cost is
//! the largest profile cost over its k × k footprint (from `Grid::terrain`
//! and `Profile::cost`, not from `ProfileGrid`), a curve's cost the integral
//! of the cost of the cell under its centreline, sampled here every 0.001
//! cells; optimality against a brute-force Dijkstra over (cell, heading)
//! whose primitives, clearance and prices are all computed in this file.

mod common;

use common::{check_sampled, E};
use regionpath_grid::{Grid, Point, Profile, ProfileGrid};
use regionpath_testkit::clearance::point_square_dist;
use regionpath_testkit::rng::{Rng64, XorShift64Star};
use regionpath_vehicle::*;
use std::collections::BinaryHeap;
use std::f64::consts::TAU;
use std::sync::Arc;

/// Step of the sampled integral (cells).
const DS: f64 = 0.001;

fn search(big_r: f64, r: f64, headings: u32, reverse: Option<Reverse>) -> DirectionalSearch {
    let spec = VehicleSpec {
        turning_radius: big_r,
        unit_radius: r,
        headings,
        neighbourhood: Neighbourhood::D24,
        max_turn_steps: None,
        reverse,
    };
    DirectionalSearch::new(Arc::new(Steering::new(spec).unwrap()))
}

/// The cost of position `(x, y)` for a unit of size `k` by the rules: the
/// largest cost over its footprint, `None` when a footprint cell is off the
/// map or not priced.
fn rule_cost(grid: &Grid, profile: &Profile, x: i64, y: i64) -> Option<f64> {
    let k = profile.size() as i64;
    let mut worst = 0.0f64;
    for dy in 0..k {
        for dx in 0..k {
            let (cx, cy) = (x + dx, y + dy);
            if cx < 0 || cy < 0 || cx >= grid.width() as i64 || cy >= grid.height() as i64 {
                return None;
            }
            let t = grid.terrain(Point::new(cx as u32, cy as u32)).ok()?;
            worst = worst.max(profile.cost(t)?);
        }
    }
    Some(worst)
}

/// The sampled integral of a track: each piece cut into steps of at most
/// [`DS`], each step priced at the cost of the cell under its midpoint,
/// times `penalty` on reverse pieces, plus `gear` per change of direction
/// between pieces. Panics when a midpoint lies on a position the profile
/// cannot use. Returns the cost and the number of cell changes between
/// consecutive steps (the crossings).
fn integrate(
    track: &Track,
    cost: &dyn Fn(i64, i64) -> Option<f64>,
    penalty: f64,
    gear: f64,
) -> (f64, usize) {
    let mut total = 0.0;
    let mut crossings = 0;
    let mut last: Option<(i64, i64)> = None;
    for (i, (seg, &rev)) in track.segments().iter().zip(track.reverse()).enumerate() {
        if i > 0 && track.reverse()[i - 1] != rev {
            total += gear;
        }
        let len = seg.length() as f64;
        let n = (len / DS).ceil().max(1.0) as usize;
        let mut piece = 0.0;
        for j in 0..n {
            let s = (j as f64 + 0.5) * len / n as f64;
            let (p, _) = seg.point_at(s);
            let cell = ((p.x as f64).floor() as i64, (p.y as f64).floor() as i64);
            if last.is_some_and(|l| l != cell) {
                crossings += 1;
            }
            last = Some(cell);
            let c = cost(cell.0, cell.1)
                .unwrap_or_else(|| panic!("the curve runs over unusable cell {cell:?}"));
            piece += c * len / n as f64;
        }
        total += piece * if rev { penalty } else { 1.0 };
    }
    (total, crossings)
}

/// A random terrain map: walls `@` with probability `walls` percent, the
/// rest painted in blobs of ground `.`, forest `T`, swamp `~` and road `=`
/// (a cell copies its left or upper neighbour's paint with probability
/// 1/2).
fn terrain_map(rng: &mut XorShift64Star, w: usize, h: usize, walls: u64) -> Grid {
    let paints = ['.', '.', 'T', '~', '='];
    let mut rows: Vec<Vec<char>> = Vec::new();
    for y in 0..h {
        let mut row: Vec<char> = Vec::new();
        for x in 0..w {
            let c = if rng.below(100) < walls {
                '@'
            } else {
                match rng.below(4) {
                    0 if x > 0 && row[x - 1] != '@' => row[x - 1],
                    1 if y > 0 && rows[y - 1][x] != '@' => rows[y - 1][x],
                    _ => paints[rng.below(paints.len() as u64) as usize],
                }
            };
            row.push(c);
        }
        rows.push(row);
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    Grid::from_rows(&rows).unwrap()
}

/// A profile of size `k` with random costs (ground 1; every kind priced,
/// so walls alone block).
fn random_profile(rng: &mut XorShift64Star, k: u32) -> Profile {
    Profile::builder("unit")
        .size(k)
        .cost('.', 1.0)
        .cost('T', [0.5, 2.0, 3.0][rng.below(3) as usize])
        .cost('~', [1.5, 5.0][rng.below(2) as usize])
        .cost('=', [0.7, 1.0][rng.below(2) as usize])
        .build()
        .unwrap()
}

fn usable_cells(grid: &Grid, profile: &Profile) -> Vec<Point> {
    let (w, h) = (grid.width(), grid.height());
    (0..w * h)
        .map(|i| Point::new(i % w, i / w))
        .filter(|p| rule_cost(grid, profile, p.x as i64, p.y as i64).is_some())
        .collect()
}

/// Cost is the integral: on random terrain maps (units of size 1 and 2,
/// forwards and with reversing, weight 1 and 1.5, ends at cell centres or
/// exact poses), every found curve's reported cost equals the integral
/// sampled here, within the sampling's bound: a step of `DS` holding a
/// crossing is priced at one side's cost, so each crossing moves at most
/// `DS / 2` of length between two costs, `crossings · DS/2 · (max − min
/// cost) · penalty` in all; the search's own prices are exact up to `f32`
/// lengths (10⁻⁶ relative), covered by `10⁻⁵ · cost`. Every curve also
/// passes the sampled clearance check on the position grid.
#[test]
fn reported_cost_is_the_integral_of_the_terrain() {
    let mut rng = XorShift64Star::new(3401);
    let (mut found, mut reversing, mut priced_apart) = (0, 0, 0);
    for case in 0..40 {
        let k = 1 + (case % 2) as u32;
        let grid = terrain_map(&mut rng, 18, 18, 8);
        let profile = random_profile(&mut rng, k);
        let view = ProfileGrid::new(&grid, &profile);
        let (big_r, r) = (2.0, if k == 1 { 0.3 } else { 0.1 });
        let reverse = (case % 4 >= 2).then_some(Reverse {
            penalty: 2.0,
            gear_change: 1.5,
        });
        let (penalty, gear) = reverse.map_or((1.0, 0.0), |v| (v.penalty, v.gear_change));
        let mut s = search(big_r, r, 16, reverse);
        let cells = usable_cells(&grid, &profile);
        if cells.len() < 2 {
            continue;
        }
        let costs = view.class_costs();
        let spread = costs.last().unwrap() - costs.first().unwrap();
        let cost_at = |x: i64, y: i64| rule_cost(&grid, &profile, x, y);
        for q in 0..6 {
            let a = cells[rng.below(cells.len() as u64) as usize];
            let b = cells[rng.below(cells.len() as u64) as usize];
            if a == b {
                continue;
            }
            let start = if q % 2 == 0 {
                Start::Cell(a)
            } else {
                Start::Pose(Pose::new(
                    a.x as f64 + 0.2 + 0.6 * rng.unit(),
                    a.y as f64 + 0.2 + 0.6 * rng.unit(),
                    rng.unit() * TAU,
                ))
            };
            let goal = if q % 3 == 0 {
                Goal::Pose(Pose::new(
                    b.x as f64 + 0.5,
                    b.y as f64 + 0.5,
                    rng.unit() * TAU,
                ))
            } else {
                Goal::Cell(b)
            };
            let limits = Limits {
                weight: if q % 2 == 0 { 1.0 } else { 1.5 },
                ..Limits::default()
            };
            let mut track = Track::new();
            let outcome = s
                .find_weighted(&view, start, goal, &limits, &mut track)
                .unwrap();
            let Outcome::Found { cost, length, .. } = outcome else {
                continue;
            };
            if track.is_empty() {
                continue;
            }
            found += 1;
            if track.has_reverse() {
                reversing += 1;
            }
            let curve = track.to_curve().unwrap();
            check_sampled(view.grid(), &curve, big_r, r);
            assert!((track.length() - length).abs() < 1e-3);
            let (want, crossings) = integrate(&track, &cost_at, penalty, gear);
            let tol = crossings as f64 * DS / 2.0 * spread * penalty + 1e-5 * want + 1e-6;
            assert!(
                (cost - want).abs() <= tol,
                "case {case} query {q}: reported {cost}, integral {want} (tolerance {tol})"
            );
            // The plain length would not do: the prices matter here.
            if (cost - length).abs() > 0.05 * length {
                priced_apart += 1;
            }
        }
    }
    eprintln!("{found} curves, {reversing} reversing, {priced_apart} priced apart from length");
    assert!(found >= 100, "too few curves: {found}");
    assert!(reversing >= 5, "too few reversing curves: {reversing}");
    assert!(
        priced_apart * 2 >= found,
        "costs barely matter: {priced_apart}"
    );
}

/// A primitive of the brute force, relative to its start cell: end heading,
/// offset, the cells its centreline crosses with the length inside each
/// (sampled every `COST_DS`), and the cells its swept disc comes near
/// under the strict and the loose rule.
struct Prim {
    h1: u32,
    dx: i64,
    dy: i64,
    parts: Vec<((i64, i64), f64)>,
    strict: Vec<(i64, i64)>,
    loose: Vec<(i64, i64)>,
}

/// Step of the brute force's price sampling.
const COST_DS: f64 = 2e-4;

/// Midpoints of steps along a curve, each with the step's length.
type Steps = Vec<((f64, f64), f64)>;

/// Points along `m` from `from`: the midpoints of steps of at most `ds`,
/// with the steps' lengths, and the steps' end points.
fn along(from: Pose, m: &Maneuver, ds: f64) -> (Steps, Vec<(f64, f64)>) {
    let (mut mids, mut ends) = (Vec::new(), vec![(from.x, from.y)]);
    let mut p = from;
    for piece in m.pieces {
        let len = match piece {
            Piece::Line(l) => l,
            Piece::Arc(a) => a.abs() * m.radius,
        };
        if len <= 0.0 {
            continue;
        }
        let n = (len / ds).ceil() as usize;
        // Position and heading after `t` cells of this piece.
        let at = |t: f64| match piece {
            Piece::Line(_) => (
                p.x + t * p.heading.cos(),
                p.y + t * p.heading.sin(),
                p.heading,
            ),
            Piece::Arc(a) => {
                let s = a.signum();
                let (cx, cy) = (
                    p.x - s * m.radius * p.heading.sin(),
                    p.y + s * m.radius * p.heading.cos(),
                );
                let h = p.heading + s * t / m.radius;
                (cx + s * m.radius * h.sin(), cy - s * m.radius * h.cos(), h)
            }
        };
        for i in 0..n {
            let (x, y, _) = at((i as f64 + 0.5) * len / n as f64);
            mids.push(((x, y), len / n as f64));
            let (x, y, _) = at((i + 1) as f64 * len / n as f64);
            ends.push((x, y));
        }
        let (x, y, h) = at(len);
        p = Pose::new(x, y, h);
    }
    (mids, ends)
}

/// The brute force's primitives for 16 headings and Chebyshev reach 2
/// (Directional-24): every Dubins curve between cell centres (the public
/// `shortest`) kept under the length bound `1.5 × distance + πR`. Strict
/// cells: every cell within `r + 0.011` of a sample taken every 0.02 cells
/// (so every cell within `r + 0.001` of the curve: a superset of the
/// search's tables); loose: within `r + 0.001` of a sample (every such cell
/// is within `r + 0.001` of the curve: a subset of the tables).
fn brute_prims(big_r: f64, r: f64, headings: u32) -> Vec<Vec<Prim>> {
    let step = TAU / headings as f64;
    let mut prims: Vec<Vec<Prim>> = (0..headings).map(|_| Vec::new()).collect();
    for h0 in 0..headings {
        for h1 in 0..headings {
            for dy in -2i64..=2 {
                for dx in -2i64..=2 {
                    if dx == 0 && dy == 0 {
                        continue;
                    }
                    let from = Pose::new(0.5, 0.5, h0 as f64 * step);
                    let to = Pose::new(0.5 + dx as f64, 0.5 + dy as f64, h1 as f64 * step);
                    let Some(m) = shortest(from, to, big_r) else {
                        continue;
                    };
                    let dist = ((dx * dx + dy * dy) as f64).sqrt();
                    if m.length > 1.5 * dist + 0.5 * TAU * big_r + 1e-9 {
                        continue;
                    }
                    let (_, samples) = along(from, &m, 0.02);
                    let near = |lim: f64| {
                        let mut cells: Vec<(i64, i64)> = Vec::new();
                        for &(x, y) in &samples {
                            for cy in (y - lim).floor() as i64..=(y + lim).floor() as i64 {
                                for cx in (x - lim).floor() as i64..=(x + lim).floor() as i64 {
                                    if point_square_dist((x, y), cx, cy) <= lim
                                        && !cells.contains(&(cx, cy))
                                    {
                                        cells.push((cx, cy));
                                    }
                                }
                            }
                        }
                        cells
                    };
                    let (mids, _) = along(from, &m, COST_DS);
                    let mut parts: Vec<((i64, i64), f64)> = Vec::new();
                    for ((x, y), l) in mids {
                        let c = (x.floor() as i64, y.floor() as i64);
                        match parts.last_mut() {
                            Some(last) if last.0 == c => last.1 += l,
                            _ => parts.push((c, l)),
                        }
                    }
                    prims[h0 as usize].push(Prim {
                        h1,
                        dx,
                        dy,
                        parts,
                        strict: near(r + 0.011),
                        loose: near(r + 0.001 - 1e-9),
                    });
                }
            }
        }
    }
    prims
}

/// Dijkstra over (position, heading) from `start` facing anywhere to `goal`
/// with any heading, each edge priced by its sampled parts at the rule
/// costs, legal when its end and every cell of its strict (or loose) set
/// are usable positions. The least cost, or `None`.
fn brute_solve(
    prims: &[Vec<Prim>],
    cost: &dyn Fn(i64, i64) -> Option<f64>,
    w: i64,
    h: i64,
    start: Point,
    goal: Point,
    strict: bool,
) -> Option<f64> {
    let hn = prims.len();
    let idx = |x: i64, y: i64, hd: u32| ((y * w + x) as usize) * hn + hd as usize;
    let mut dist = vec![f64::INFINITY; (w * h) as usize * hn];
    let mut heap = BinaryHeap::new();
    for hd in 0..hn as u32 {
        dist[idx(start.x as i64, start.y as i64, hd)] = 0.0;
        heap.push(E(0.0, start.x as i64, start.y as i64, hd, 0));
    }
    while let Some(E(d, x, y, hd, _)) = heap.pop() {
        if d > dist[idx(x, y, hd)] {
            continue;
        }
        if (x, y) == (goal.x as i64, goal.y as i64) {
            return Some(d);
        }
        for p in &prims[hd as usize] {
            let (nx, ny) = (x + p.dx, y + p.dy);
            let cells = if strict { &p.strict } else { &p.loose };
            if cost(nx, ny).is_none()
                || cells.iter().any(|&(cx, cy)| cost(x + cx, y + cy).is_none())
            {
                continue;
            }
            let mut c = 0.0;
            for &((cx, cy), l) in &p.parts {
                // A part on an unusable cell: not legal either way.
                match cost(x + cx, y + cy) {
                    Some(v) => c += v * l,
                    None => c = f64::INFINITY,
                }
            }
            let nd = d + c;
            let j = idx(nx, ny, p.h1);
            if nd < dist[j] {
                dist[j] = nd;
                heap.push(E(nd, nx, ny, p.h1, 0));
            }
        }
    }
    None
}

/// Optimal under costs: on small random terrain maps (12 × 12, units of
/// size 1 and 2, car R = 2 with 16 headings and Directional-24), the
/// search's cost (weight 1) lies between the brute force's with the loose
/// rule (more legal edges than the search's tables) and with the strict
/// rule (fewer), within 10⁻³ relative: the brute force's sampled prices
/// err by at most `COST_DS / 2` per crossing times the cost spread (at
/// most √2 + 1 crossings per cell of length: 3·10⁻⁴ of a cost at least the
/// length), the search's by its `f32` lengths. Most cases have both rules
/// agree, which pins the optimum.
#[test]
fn optimal_against_a_brute_force_under_costs() {
    let (big_r, r) = (2.0, 0.3);
    let prims = brute_prims(big_r, r, 16);
    let mut rng = XorShift64Star::new(3402);
    let (mut pinned, mut solved, mut unsolved) = (0, 0, 0);
    for case in 0..30 {
        let k = 1 + (case % 2) as u32;
        let grid = terrain_map(&mut rng, 12, 12, 10);
        let profile = random_profile(&mut rng, k);
        let view = ProfileGrid::new(&grid, &profile);
        let rho = if k == 1 { r } else { 0.1 };
        let brute = if k == 1 {
            None
        } else {
            Some(brute_prims(big_r, rho, 16))
        };
        let prims = brute.as_ref().unwrap_or(&prims);
        let mut s = search(big_r, rho, 16, None);
        let cells = usable_cells(&grid, &profile);
        if cells.len() < 2 {
            continue;
        }
        let cost_at = |x: i64, y: i64| rule_cost(&grid, &profile, x, y);
        for _ in 0..4 {
            let a = cells[rng.below(cells.len() as u64) as usize];
            let b = cells[rng.below(cells.len() as u64) as usize];
            if a == b {
                continue;
            }
            let (w, h) = (grid.width() as i64, grid.height() as i64);
            let strict = brute_solve(prims, &cost_at, w, h, a, b, true);
            let loose = brute_solve(prims, &cost_at, w, h, a, b, false);
            let mut track = Track::new();
            let ours = match s
                .find_weighted(
                    &view,
                    Start::Cell(a),
                    Goal::Cell(b),
                    &Limits::default(),
                    &mut track,
                )
                .unwrap()
            {
                Outcome::Found { cost, .. } => Some(cost),
                _ => None,
            };
            match (loose, ours, strict) {
                (None, None, None) => unsolved += 1,
                (Some(lo), Some(c), hi) => {
                    solved += 1;
                    let tol = 1e-3 * lo;
                    assert!(
                        c >= lo - tol,
                        "case {case}: {a} -> {b}: {c} below the loose brute force {lo}"
                    );
                    if let Some(hi) = hi {
                        assert!(
                            c <= hi + 1e-3 * hi,
                            "case {case}: {a} -> {b}: {c} above the strict brute force {hi}"
                        );
                        if (hi - lo).abs() <= 1e-9 * hi {
                            pinned += 1;
                        }
                    }
                }
                other => panic!("case {case}: {a} -> {b}: loose, search, strict = {other:?}"),
            }
        }
    }
    eprintln!("{solved} solved ({pinned} pinned by both rules), {unsolved} unsolved");
    assert!(pinned >= 40, "too few pinned cases: {pinned} of {solved}");
}

/// The swamp map: open ground 34 × 22 with a swamp patch (cost 5) across
/// the straight way from (3, 11) to (30, 11), columns 13..21 and rows
/// 5..17.
fn swamp_map() -> Grid {
    let rows: Vec<String> = (0..22)
        .map(|y| {
            (0..34)
                .map(|x| {
                    if (13..21).contains(&x) && (5..17).contains(&y) {
                        '~'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    Grid::from_rows(&rows).unwrap()
}

/// Length of a track's centreline over swamp, sampled every `DS`.
fn swamp_length(grid: &Grid, track: &Track, k: i64) -> f64 {
    let mut len = 0.0;
    for seg in track.segments() {
        let l = seg.length() as f64;
        let n = (l / DS).ceil().max(1.0) as usize;
        for j in 0..n {
            let (p, _) = seg.point_at((j as f64 + 0.5) * l / n as f64);
            let (x, y) = ((p.x as f64).floor() as i64, (p.y as f64).floor() as i64);
            let wet = (0..k).any(|dy| {
                (0..k).any(|dx| {
                    grid.terrain(Point::new((x + dx) as u32, (y + dy) as u32))
                        .map(|t| t.to_char() == '~')
                        .unwrap_or(false)
                })
            });
            if wet {
                len += l / n as f64;
            }
        }
    }
    len
}

/// Behaviour: a car (size 1) and a tank (size 2, in position space) from
/// (3, 11) facing east to (30, 11) facing east, a swamp patch (cost 5)
/// across the straight way. Without costs the search drives straight
/// through the swamp; with them it goes round on ground, and its curve's
/// own sampled integral is below the straight curve's.
#[test]
fn goes_round_the_swamp_when_priced() {
    let grid = swamp_map();
    for (k, r) in [(1u32, 0.4), (2, 0.2)] {
        let profile = Profile::builder("unit")
            .size(k)
            .cost('.', 1.0)
            .cost('~', 5.0)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        let mut s = search(2.0, r, 16, None);
        let start = Start::Pose(Pose::new(3.5, 11.5, 0.0));
        let goal = Goal::Pose(Pose::new(30.5, 11.5, 0.0));
        let cost_at = |x: i64, y: i64| rule_cost(&grid, &profile, x, y);
        let mut plain = Track::new();
        let o = s
            .find(view.grid(), start, goal, &Limits::default(), &mut plain)
            .unwrap();
        assert!(matches!(o, Outcome::Found { .. }), "{o:?}");
        let mut priced = Track::new();
        let o = s
            .find_weighted(&view, start, goal, &Limits::default(), &mut priced)
            .unwrap();
        let Outcome::Found { cost, .. } = o else {
            panic!("k {k}: {o:?}")
        };
        check_sampled(view.grid(), &priced.to_curve().unwrap(), 2.0, r);
        let (through, _) = integrate(&plain, &cost_at, 1.0, 0.0);
        let (round, _) = integrate(&priced, &cost_at, 1.0, 0.0);
        let wet_plain = swamp_length(&grid, &plain, k as i64);
        let wet_priced = swamp_length(&grid, &priced, k as i64);
        eprintln!(
            "k {k}: straight {:.2} long, {wet_plain:.2} in swamp, cost {through:.2}; \
             priced {:.2} long, {wet_priced:.2} in swamp, cost {round:.2} (reported {cost:.2})",
            plain.length(),
            priced.length()
        );
        assert!(wet_plain >= 7.0, "k {k}: the plain curve goes through");
        assert_eq!(wet_priced, 0.0, "k {k}: the priced curve stays on ground");
        assert!(priced.length() > plain.length() + 1.0);
        assert!(round < through - 10.0, "k {k}: {round} not below {through}");
    }
}

/// Bad input stays a typed error under costs: a goal on an unusable
/// position.
#[test]
fn blocked_goal_is_an_error_under_costs() {
    let grid = Grid::from_rows(&["....", ".~..", "...."]).unwrap();
    let profile = Profile::builder("u").cost('.', 1.0).build().unwrap();
    let view = ProfileGrid::new(&grid, &profile);
    let mut s = search(1.0, 0.0, 8, None);
    let e = s.find_weighted(
        &view,
        Start::Cell(Point::new(0, 0)),
        Goal::Cell(Point::new(1, 1)),
        &Limits::default(),
        &mut Track::new(),
    );
    assert_eq!(e, Err(VehicleError::Blocked { what: "goal" }));
}
