//! Living worlds: lazy queries that survive map edits, and readers that
//! plan on snapshots while a writer edits. Every step a unit takes is
//! checked against the grid as it is when the step is taken (the test's
//! own move rule, `regionpath_testkit::legal`), every outcome against a
//! Dijkstra on the current grid: a unit reaches its goal, or the query
//! says why not (walled in, goal unreachable or blocked) and the oracle
//! agrees.

use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlanError, Query, Step};
use regionpath_testkit::{maps, Rng64, SplitMix64 as Rng};
use std::collections::VecDeque;
use std::sync::{Arc, RwLock};

fn reachable(grid: &Grid, a: Point, b: Point) -> bool {
    let d = regionpath_testkit::distances(grid, a);
    d[b.y as usize * grid.width() as usize + b.x as usize].is_finite()
}

/// Whether a unit at `at` can walk `ahead` on `grid` (the test's own rule).
fn walkable(grid: &Grid, at: Point, ahead: &VecDeque<Point>) -> bool {
    let mut p = at;
    regionpath_testkit::open(grid, at.x.into(), at.y.into())
        && ahead.iter().all(|&n| {
            let (dx, dy) = (n.x as i64 - p.x as i64, n.y as i64 - p.y as i64);
            let ok = dx.abs() <= 1
                && dy.abs() <= 1
                && (dx, dy) != (0, 0)
                && regionpath_testkit::legal(grid, p.x.into(), p.y.into(), dx, dy);
            p = n;
            ok
        })
}

/// A random map with loops: rooms with doors, some walls knocked through.
fn world(rng: &mut Rng, w: u32, h: u32) -> Grid {
    let room = 4 + rng.below(6) as u32;
    let mut g = maps::rooms(w, h, room, 60, &mut |n| rng.below(n));
    maps::knock_through(&mut g, w * h / 40, &mut |n| rng.below(n));
    g
}

/// Fills a random rectangle (1 × 1 to 6 × 6), near `near` half of the
/// time, with walls or floor; returns the cells changed.
fn random_edit(rng: &mut Rng, g: &mut Grid, near: Point) -> Vec<Point> {
    let (w, h) = (g.width(), g.height());
    let (ew, eh) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
    let (cx, cy) = if rng.chance(50) {
        let jx = near.x as i64 + rng.below(13) as i64 - 6;
        let jy = near.y as i64 + rng.below(13) as i64 - 6;
        (
            jx.clamp(0, w as i64 - 1) as u32,
            jy.clamp(0, h as i64 - 1) as u32,
        )
    } else {
        (rng.below(w as u64) as u32, rng.below(h as u64) as u32)
    };
    let wall = rng.chance(60);
    let mut changed = Vec::new();
    for y in cy..(cy + eh).min(h) {
        for x in cx..(cx + ew).min(w) {
            let p = Point::new(x, y);
            if g.is_passable(p) == wall {
                g.set_passable(p, !wall).unwrap();
                changed.push(p);
            }
        }
    }
    changed
}

#[derive(Default, Debug)]
struct Tally {
    arrived: u32,
    trapped: u32,
    unreachable: u32,
    repairs: u32,
    replans: u32,
    edits: u32,
}

/// Checks a planning error after a change against the current grid.
fn settle(err: PlanError, g: &Grid, unit: Point, goal: Point, t: &mut Tally) {
    match err {
        PlanError::Trapped(p) => {
            assert_eq!(p, unit);
            assert!(!g.is_passable(unit), "trapped on an open cell {unit}");
            t.trapped += 1;
        }
        PlanError::GoalBlocked(p) => {
            assert_eq!(p, goal);
            assert!(!g.is_passable(goal));
            t.unreachable += 1;
        }
        PlanError::Unreachable { start, goal: gl } => {
            assert_eq!((start, gl), (unit, goal));
            assert!(
                !reachable(g, unit, goal),
                "{unit} -> {goal} said unreachable"
            );
            t.unreachable += 1;
        }
        other => panic!("unexpected error {other}"),
    }
}

/// The next leg of `q`: [`CellPlanner::next_leg`], or with a budget
/// [`CellPlanner::step`] until a leg or the end (at most `calls` steps).
fn next(
    planner: &mut CellPlanner,
    q: &mut Query,
    h: &Hierarchy,
    g: &Grid,
    budget: Option<u32>,
    leg: &mut Vec<Point>,
) -> Result<(), PlanError> {
    match budget {
        None => planner.next_leg(q, h, g, leg).map(|_| ()),
        Some(b) => {
            for _ in 0..100_000 {
                if planner.step(q, h, g, b, leg)? != Step::Pending {
                    return Ok(());
                }
            }
            panic!("no leg after 100,000 steps of budget {b}");
        }
    }
}

/// Walks one unit from `s` to `t` while the map changes under it; with a
/// budget, the query is sliced and advanced by steps.
fn walk_through_edits(
    rng: &mut Rng,
    g: &mut Grid,
    h: &mut Hierarchy,
    (s, t): (Point, Point),
    budget: Option<u32>,
) -> Tally {
    let mut tally = Tally::default();
    let mut planner = CellPlanner::new();
    let mut q: Query = match budget {
        None => planner.start(h, g, s, t).unwrap(),
        Some(_) => planner.start_sliced(h, g, s, t).unwrap(),
    };
    let mut unit = s;
    let mut ahead: VecDeque<Point> = VecDeque::new();
    let mut leg = Vec::new();
    let mut first = true;
    let limit = 20 * g.width() * g.height();
    for step in 0..limit {
        if unit == t {
            tally.arrived += 1;
            break;
        }
        if step % (3 + rng.below(12) as u32) == 0 {
            let changed = random_edit(rng, g, ahead.back().copied().unwrap_or(unit));
            // Half the time the list misses cells: update finds them.
            let listed = if rng.chance(50) {
                &changed[..]
            } else {
                &changed[..changed.len() / 2]
            };
            h.update(g, listed).unwrap();
            tally.edits += 1;
            let clear = walkable(g, unit, &ahead);
            assert_eq!(q.ahead_is_clear(g, unit), clear, "at {unit}");
            if !clear {
                tally.replans += 1;
                ahead.clear();
                if let Err(e) = planner.replan_from(&mut q, h, g, unit) {
                    settle(e, g, unit, t, &mut tally);
                    break;
                }
            }
        }
        if ahead.is_empty() {
            leg.clear();
            match next(&mut planner, &mut q, h, g, budget, &mut leg) {
                Ok(_) => {}
                Err(e) => {
                    settle(e, g, unit, t, &mut tally);
                    break;
                }
            }
            if first {
                assert_eq!(leg.first(), Some(&s));
                leg.remove(0);
                first = false;
            }
            assert!(!leg.is_empty(), "no leg from {unit} to {t}");
            ahead.extend(leg.iter().copied());
        }
        let n = ahead.pop_front().unwrap();
        let (dx, dy) = (n.x as i64 - unit.x as i64, n.y as i64 - unit.y as i64);
        assert!(
            dx.abs() <= 1
                && dy.abs() <= 1
                && (dx, dy) != (0, 0)
                && regionpath_testkit::legal(g, unit.x.into(), unit.y.into(), dx, dy),
            "illegal step {unit} -> {n}"
        );
        unit = n;
    }
    assert!(
        tally.arrived + tally.trapped + tally.unreachable == 1,
        "the walk neither ended nor failed: {tally:?}"
    );
    tally.repairs = q.repairs();
    tally
}

/// Units walking lazy paths while walls and floors appear around them:
/// every step legal on the grid of its time, every walk ends at the goal or
/// with the reason the oracle confirms, and queries repair themselves
/// (counted) rather than fail.
#[test]
fn lazy_walks_survive_edit_streams() {
    let mut total = Tally::default();
    for seed in 0..60u64 {
        let mut rng = Rng(seed);
        let (w, hh) = (40 + rng.below(60) as u32, 40 + rng.below(60) as u32);
        let mut g = world(&mut rng, w, hh);
        let config = HierarchyConfig::new().sector_size(8 + 8 * rng.below(2) as u32);
        let mut h = Hierarchy::build(&g, &config).unwrap();
        let cells = regionpath_testkit::passable_cells(&g);
        let s = rng.pick(&cells);
        let d = regionpath_testkit::distances(&g, s);
        let far: Vec<Point> = cells
            .iter()
            .copied()
            .filter(|p| d[p.y as usize * w as usize + p.x as usize] > (w.min(hh) / 2) as f64)
            .filter(|p| d[p.y as usize * w as usize + p.x as usize].is_finite())
            .collect();
        if far.is_empty() {
            continue;
        }
        let t = rng.pick(&far);
        // Every third walk sliced, with a small budget.
        let budget = (seed % 3 == 2).then(|| 1 + rng.below(400) as u32);
        let r = walk_through_edits(&mut rng, &mut g, &mut h, (s, t), budget);
        total.arrived += r.arrived;
        total.trapped += r.trapped;
        total.unreachable += r.unreachable;
        total.repairs += r.repairs;
        total.replans += r.replans;
        total.edits += r.edits;
    }
    eprintln!("{total:?}");
    // The streams exercised every outcome and both ways of repairing.
    assert!(total.arrived >= 20, "{total:?}");
    assert!(total.trapped + total.unreachable >= 1, "{total:?}");
    assert!(total.repairs > total.replans, "{total:?}");
    assert!(total.replans >= 10, "{total:?}");
}

/// `replan_from` refuses a cell the query never handed out and leaves the
/// query as it was; a grid edited without an update is refused; a unit
/// walled in is `Trapped`.
#[test]
fn replan_misuse_is_typed() {
    // A long corridor with a wall across (a gap at the bottom): no straight
    // path, several legs.
    let mut g = Grid::new(200, 20, true).unwrap();
    for y in 0..16 {
        g.set_passable(Point::new(100, y), false).unwrap();
    }
    let mut h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
    let mut planner = CellPlanner::new();
    let (s, t) = (Point::new(1, 5), Point::new(198, 5));
    let mut q = planner.start(&h, &g, s, t).unwrap();
    assert_eq!(
        planner.replan_from(&mut q, &h, &g, Point::new(20, 1)),
        Err(PlanError::NotHandedOut(Point::new(20, 1)))
    );
    // Before the first leg the start is where the unit stands.
    planner.replan_from(&mut q, &h, &g, s).unwrap();
    let mut leg = Vec::new();
    planner.next_leg(&mut q, &h, &g, &mut leg).unwrap();
    assert_eq!(leg.first(), Some(&s), "the start is handed out once");
    let at = *leg.last().unwrap();
    // Edited, not updated: refused, the query untouched.
    g.set_passable(at, false).unwrap();
    assert!(matches!(
        planner.replan_from(&mut q, &h, &g, at),
        Err(PlanError::StaleGrid { .. })
    ));
    h.update(&g, &[at]).unwrap();
    assert_eq!(
        planner.next_leg(&mut q, &h, &g, &mut leg),
        Err(PlanError::Trapped(at))
    );
    assert!(q.is_done());
    // Freed again: replanning from the same cell works.
    g.set_passable(at, true).unwrap();
    h.update(&g, &[at]).unwrap();
    planner.replan_from(&mut q, &h, &g, at).unwrap();
    let before = leg.len();
    while planner.next_leg(&mut q, &h, &g, &mut leg).unwrap() {}
    assert_ne!(leg[before], at, "the unit's cell is not handed out twice");
    regionpath_testkit::check_path(&g, &leg[before - 1..], at, t).unwrap();
}

/// The snapshot contract: readers plan on an immutable `(Grid, Hierarchy)`
/// snapshot behind an `Arc` while a writer clones, edits, updates and
/// publishes the next one. Every path a reader gets is valid on the
/// snapshot it planned on; a lazy query carried from one snapshot to the
/// next (same lineage) repairs itself and its legs stay valid on the
/// snapshot each leg was asked on.
#[test]
fn readers_plan_on_snapshots_while_a_writer_edits() {
    type Snapshot = Arc<(Grid, Hierarchy)>;
    let mut rng = Rng(99);
    let g = world(&mut rng, 96, 96);
    let h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
    let shared: Arc<RwLock<Snapshot>> = Arc::new(RwLock::new(Arc::new((g, h))));
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..2u64)
        .map(|k| {
            let (shared, done) = (Arc::clone(&shared), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut rng = Rng(1000 + k);
                let mut planner = CellPlanner::new();
                let (mut paths, mut legs) = (0u32, 0u32);
                let mut out = Vec::new();
                let mut lazy: Option<(Query, Point)> = None;
                while !done.load(std::sync::atomic::Ordering::Relaxed) || paths < 50 {
                    let snap: Snapshot = Arc::clone(&shared.read().unwrap());
                    let (g, h) = (&snap.0, &snap.1);
                    let cells = regionpath_testkit::passable_cells(g);
                    let (s, t) = (rng.pick(&cells), rng.pick(&cells));
                    match planner.find_path_into(h, g, s, t, &mut out) {
                        Ok(_) => {
                            regionpath_testkit::check_path(g, &out, s, t).unwrap();
                            paths += 1;
                        }
                        Err(PlanError::Unreachable { .. }) => assert!(!reachable(g, s, t)),
                        Err(e) => panic!("{e}"),
                    }
                    // One leg of the carried lazy query on this snapshot.
                    match lazy.take() {
                        None => {
                            if let Ok(q) = planner.start(h, g, s, t) {
                                lazy = Some((q, s));
                            }
                        }
                        Some((mut q, at)) => {
                            out.clear();
                            match planner.next_leg(&mut q, h, g, &mut out) {
                                Ok(more) => {
                                    if !out.is_empty() {
                                        let from = usize::from(out[0] == at);
                                        let mut walk = vec![at];
                                        walk.extend_from_slice(&out[from..]);
                                        let end = *walk.last().unwrap();
                                        regionpath_testkit::check_path(g, &walk, at, end).unwrap();
                                        legs += 1;
                                        if more {
                                            lazy = Some((q, end));
                                        }
                                    }
                                }
                                Err(PlanError::Trapped(p)) => assert!(!g.is_passable(p)),
                                Err(PlanError::Unreachable { start, goal }) => {
                                    assert!(!reachable(g, start, goal))
                                }
                                Err(PlanError::GoalBlocked(p)) => assert!(!g.is_passable(p)),
                                Err(e) => panic!("{e}"),
                            }
                        }
                    }
                }
                (paths, legs)
            })
        })
        .collect();
    for _ in 0..60 {
        let snap = Arc::clone(&shared.read().unwrap());
        let (mut g, mut h) = (snap.0.clone(), snap.1.clone());
        let near = Point::new(rng.below(96) as u32, rng.below(96) as u32);
        let changed = random_edit(&mut rng, &mut g, near);
        h.update(&g, &changed).unwrap();
        assert_eq!(h.lineage(), snap.1.lineage());
        *shared.write().unwrap() = Arc::new((g, h));
        std::thread::yield_now();
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    for r in readers {
        let (paths, legs) = r.join().unwrap();
        assert!(paths >= 50 && legs >= 1, "{paths} paths, {legs} legs");
    }
}

/// Sliced queries on random maps with random budgets: the legs join into a
/// valid path from start to goal whenever the oracle finds one (and the
/// start refuses the others); every call's route expansions stay within
/// its budget (a region charged as `REGION_WEIGHT` nodes) and its grid expansions within four searches of the leg box
/// `step` promises (a side of max(√budget, two sectors)).
#[test]
fn steps_under_budgets_complete_and_stay_bounded() {
    let (mut queries, mut calls, mut paused) = (0u32, 0u32, 0u32);
    let mut worst = 0.0f64;
    for seed in 0..120u64 {
        let mut rng = Rng(seed);
        let (w, hh) = (30 + rng.below(120) as u32, 30 + rng.below(120) as u32);
        let g = if rng.chance(50) {
            world(&mut rng, w, hh)
        } else {
            maps::obstacles(w, hh, 20 + rng.below(20), &mut |n| rng.below(n))
        };
        let config = HierarchyConfig::new()
            .sector_size(8 << rng.below(2))
            .fit_memory(false);
        let h = Hierarchy::build(&g, &config).unwrap();
        let sector = h.sector_size();
        let cells = regionpath_testkit::passable_cells(&g);
        if cells.len() < 2 {
            continue;
        }
        let mut planner = CellPlanner::new();
        for _ in 0..4 {
            let (s, t) = (rng.pick(&cells), rng.pick(&cells));
            let budget = [1, 7, 60, 300, 1000, 5000][rng.below(6) as usize];
            let mut q = match planner.start_sliced(&h, &g, s, t) {
                Ok(q) => q,
                Err(PlanError::Unreachable { .. }) => {
                    assert!(!reachable(&g, s, t), "{s} -> {t}");
                    continue;
                }
                Err(e) => panic!("{e}"),
            };
            assert!(reachable(&g, s, t), "{s} -> {t}");
            let cap = (budget as f64).sqrt().floor().max(2.0 * sector as f64);
            let mut path = Vec::new();
            loop {
                let before = q.stats();
                let step = planner.step(&mut q, &h, &g, budget, &mut path).unwrap();
                let after = q.stats();
                calls += 1;
                let routed = after.abstract_expanded - before.abstract_expanded;
                // A region is charged as `REGION_WEIGHT` nodes, at least
                // one region a call.
                let regions = (budget / regionpath_hierarchy::REGION_WEIGHT).max(1);
                assert!(
                    routed <= regions,
                    "{routed} route expansions, budget {budget}"
                );
                let grid = (after.expanded - before.expanded) as f64;
                worst = worst.max(grid / (cap * cap));
                assert!(grid <= 4.0 * cap * cap, "{grid} expansions, box side {cap}");
                match step {
                    Step::Pending => paused += 1,
                    Step::Leg => {}
                    Step::Done => break,
                }
                assert!(calls < 10_000_000);
            }
            regionpath_testkit::check_path(&g, &path, s, t)
                .unwrap_or_else(|e| panic!("{s} -> {t}: {e}"));
            queries += 1;
        }
    }
    eprintln!("{queries} sliced queries, {calls} calls, {paused} paused; worst grid expansions / box {worst:.2}");
    assert!(
        queries >= 300 && paused >= 50,
        "{queries} queries, {paused} paused"
    );
}

/// Many sliced queries stepped in turn on one planner (a frame loop over
/// units): each keeps its own paused route search, and all finish with
/// valid paths.
#[test]
fn interleaved_steps_on_one_planner() {
    let mut rng = Rng(5);
    let g = world(&mut rng, 160, 160);
    let config = HierarchyConfig::new().sector_size(8).fit_memory(false);
    let h = Hierarchy::build(&g, &config).unwrap();
    let cells = regionpath_testkit::passable_cells(&g);
    let mut planner = CellPlanner::new();
    let mut units = Vec::new();
    while units.len() < 24 {
        let (s, t) = (rng.pick(&cells), rng.pick(&cells));
        if let Ok(q) = planner.start_sliced(&h, &g, s, t) {
            units.push((q, s, t, Vec::new(), false));
        }
    }
    let mut frames = 0;
    while units.iter().any(|u| !u.4) {
        frames += 1;
        for (q, _, _, path, done) in units.iter_mut().filter(|u| !u.4) {
            *done = planner.step(q, &h, &g, 5, path).unwrap() == Step::Done;
        }
        assert!(frames < 1_000_000);
    }
    for (_, s, t, path, _) in &units {
        regionpath_testkit::check_path(&g, path, *s, *t)
            .unwrap_or_else(|e| panic!("{s} -> {t}: {e}"));
    }
    assert!(frames > 10, "{frames} frames: the budget did not slice");
}

/// A lazy query goes on as planned after edits that keep off its route
/// (counted by `carried_over`, no repair), plans again after one on its
/// route, and its walk stays legal on the grid of each step and reaches
/// the goal: along the top of a 240 × 64 map, edits in the bottom
/// rows (other sectors) carry over; a wall across the top rows ahead of
/// the unit does not.
#[test]
fn edits_off_the_route_leave_the_query_as_planned() {
    for sliced in [false, true] {
        let mut g = Grid::new(240, 64, true).unwrap();
        // Short walls near the top, the gaps alternating: no straight
        // answer from before the last.
        for (x, ys) in [(40, 0..6), (100, 3..12), (160, 0..6)] {
            for y in ys {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
        let config = HierarchyConfig::new().sector_size(8);
        let mut h = Hierarchy::build(&g, &config).unwrap();
        let mut planner = CellPlanner::new();
        let (s, t) = (Point::new(1, 1), Point::new(238, 1));
        let mut q = if sliced {
            planner.start_sliced(&h, &g, s, t).unwrap()
        } else {
            planner.start(&h, &g, s, t).unwrap()
        };
        let mut walked = vec![s];
        let mut leg = Vec::new();
        let mut far_edits = 0;
        let mut walled = false;
        loop {
            leg.clear();
            let more = if sliced {
                loop {
                    match planner.step(&mut q, &h, &g, 1_000, &mut leg).unwrap() {
                        Step::Pending => continue,
                        Step::Leg => break true,
                        Step::Done => break false,
                    }
                }
            } else {
                planner.next_leg(&mut q, &h, &g, &mut leg).unwrap()
            };
            for &p in &leg {
                let u = *walked.last().unwrap();
                if p == u {
                    // The first leg's first cell: where the unit stands.
                    assert_eq!(p, s);
                    continue;
                }
                let (dx, dy) = (p.x as i64 - u.x as i64, p.y as i64 - u.y as i64);
                assert!(
                    regionpath_testkit::legal(&g, u.x.into(), u.y.into(), dx, dy),
                    "illegal step {u} -> {p}"
                );
                walked.push(p);
            }
            if !more {
                break;
            }
            let at = *walked.last().unwrap();
            if at.x < 110 {
                // Far off the route: a block in the bottom rows.
                let x = 10 + 20 * far_edits;
                for y in 50..56 {
                    g.set_passable(Point::new(x, y), false).unwrap();
                }
                h.update(&g, &[]).unwrap();
                far_edits += 1;
            } else if !walled && at.x < 205 {
                // On the route: a wall across the top rows ahead, with a gap
                // below it.
                for y in 0..20 {
                    g.set_passable(Point::new(210, y), false).unwrap();
                }
                h.update(&g, &[]).unwrap();
                walled = true;
            }
        }
        assert_eq!(walked.last(), Some(&t), "sliced {sliced}");
        assert!(far_edits >= 2, "{far_edits} far edits");
        assert!(walled);
        assert_eq!(q.carried_over(), far_edits, "sliced {sliced}");
        assert_eq!(q.repairs(), 1, "sliced {sliced}");
    }
}
