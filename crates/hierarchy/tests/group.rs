//! Partial paths ([`CellPlanner::find_path_or_nearest_into`]) and group
//! paths ([`CellPlanner::find_group_paths`]) against the independent oracles
//! of `regionpath_testkit`: a Dijkstra over the grid (or over a movement
//! profile's positions) and path validators written from the rules.

use regionpath_grid::{Grid, Point, Profile};
use regionpath_hierarchy::{
    CellPlanner, GroupPaths, Hierarchy, HierarchyConfig, PlanError, PortalMode,
};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};
use regionpath_testkit::check::{check_path, repeated_cell};
use regionpath_testkit::maps;
use regionpath_testkit::oracle::distances;
use regionpath_testkit::profiled::{
    check_weighted_path, position_cost, random_kinds, random_profile, random_terrain,
    weighted_distances,
};
use regionpath_testkit::{Area, Moves, Rng64, SplitMix64};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// The octile distance as the pair (straight steps, diagonal steps), which
/// orders exactly like `straight + diagonal · √2` for the same total.
fn octile(a: Point, b: Point) -> f64 {
    let dx = a.x.abs_diff(b.x) as f64;
    let dy = a.y.abs_diff(b.y) as f64;
    dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy)
}

/// A random map of one of several kinds, many with cut-off pieces.
fn random_map(rng: &mut SplitMix64, w: u32, h: u32) -> Grid {
    let mut below = |n: u64| rng.below(n);
    match below(5) {
        0 => maps::islands(w, h, 20, &mut below),
        1 => maps::caves(w, h, 45, 3, &mut below),
        2 => maps::obstacles(w, h, 38, &mut below),
        3 => maps::rooms(w, h, 7, 60, &mut below),
        _ => {
            let mut g = maps::obstacles(w, h, 15, &mut below);
            // A wall across the map, so that half of it is cut off.
            let x = w / 3 + below(u64::from(w / 3)) as u32;
            for y in 0..h {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
            g
        }
    }
}

/// Which of the oracle's reachable cells is the expected end: the least
/// (octile distance to the goal, octile distance from the start, row,
/// column), compared with a tolerance on the distances.
fn expected_end(reachable: impl Iterator<Item = Point>, start: Point, goal: Point) -> Point {
    let mut best: Option<Point> = None;
    for c in reachable {
        let better = match best {
            None => true,
            Some(b) => {
                let (dc, db) = (octile(goal, c), octile(goal, b));
                if (dc - db).abs() > 1e-9 {
                    dc < db
                } else {
                    let (sc, sb) = (octile(start, c), octile(start, b));
                    if (sc - sb).abs() > 1e-9 {
                        sc < sb
                    } else {
                        (c.y, c.x) < (b.y, b.x)
                    }
                }
            }
        };
        if better {
            best = Some(c);
        }
    }
    best.expect("the start is reachable")
}

/// After local updates (walls that split sectors into more regions, walls
/// that cut pieces off, openings that join them again), partial paths
/// still end at the oracle's nearest reachable cell: the regions an update
/// adds have no cluster, and an opening may join a closed cluster's piece
/// to the rest of the map.
#[test]
fn partial_paths_after_local_updates() {
    let mut rng = SplitMix64(3301);
    let mut checked = 0;
    for trial in 0..30u32 {
        let w = 30 + rng.below(90) as u32;
        let h = 30 + rng.below(90) as u32;
        let mut grid = random_map(&mut rng, w, h);
        let config = HierarchyConfig::new()
            .sector_size([8, 16][rng.below(2) as usize])
            .portals(PortalMode::Never);
        let mut hier = Hierarchy::build(&grid, &config).unwrap();
        let mut planner = CellPlanner::new();
        let mut path = Vec::new();
        for round in 0..4 {
            // A wall or an opening: a row or column segment of 3-30 cells.
            let (x0, y0) = (rng.below(w.into()) as u32, rng.below(h.into()) as u32);
            let len = 3 + rng.below(28) as u32;
            let across = rng.below(2) == 0;
            let open = rng.below(3) == 0;
            let mut edits = Vec::new();
            for k in 0..len {
                let p = if across {
                    Point::new(x0 + k, y0)
                } else {
                    Point::new(x0, y0 + k)
                };
                if p.x < w && p.y < h && grid.is_passable(p) != open {
                    grid.set_passable(p, open).unwrap();
                    edits.push(p);
                }
            }
            hier.update(&grid, &edits).unwrap();
            let cells = regionpath_testkit::passable_cells(&grid);
            if cells.is_empty() {
                continue;
            }
            for _ in 0..4 {
                let s = cells[rng.below(cells.len() as u64) as usize];
                let dist = distances(&grid, s);
                let reach = |p: Point| dist[(p.y * w + p.x) as usize].is_finite();
                let g = Point::new(rng.below(w.into()) as u32, rng.below(h.into()) as u32);
                let what = format!("trial {trial} round {round} ({w}x{h}) {s}->{g}");
                let all = (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y)));
                // The goal itself when reachable (distance 0).
                let want = expected_end(all.filter(|&p| reach(p)), s, g);
                assert_eq!(
                    planner.nearest_reachable(&hier, &grid, s, g),
                    Ok(want),
                    "{what}"
                );
                let got = planner
                    .find_path_or_nearest_into(&hier, &grid, s, g, &mut path)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(got.end, want, "{what}");
                check_path(&grid, &path, s, want).unwrap_or_else(|e| panic!("{what}: {e}"));
                checked += 1;
            }
        }
    }
    assert!(checked >= 400, "{checked}");
}

/// On random maps with many unreachable goals, a partial path ends at the
/// reachable cell nearest to the goal among all cells the oracle reaches
/// from the start (ties as documented), is a valid path there, and is
/// flagged; a reachable goal gets the ordinary path, not flagged.
#[test]
fn partial_paths_end_at_the_nearest_reachable_cell() {
    let mut rng = SplitMix64(3201);
    let (mut partial, mut whole, mut blocked_goal) = (0, 0, 0);
    for trial in 0..60u32 {
        let w = 20 + rng.below(110) as u32;
        let h = 20 + rng.below(110) as u32;
        let grid = random_map(&mut rng, w, h);
        let sector = [8, 16, 16][rng.below(3) as usize];
        let portals = if trial % 4 == 0 {
            PortalMode::Auto
        } else {
            PortalMode::Never
        };
        let config = HierarchyConfig::new().sector_size(sector).portals(portals);
        let hier = Hierarchy::build(&grid, &config).unwrap();
        let open = regionpath_testkit::passable_cells(&grid);
        if open.is_empty() {
            continue;
        }
        let mut planner = CellPlanner::new();
        let (mut path, mut plain) = (Vec::new(), Vec::new());
        for _ in 0..4 {
            let s = open[rng.below(open.len() as u64) as usize];
            let dist = distances(&grid, s);
            let reach = |p: Point| dist[(p.y * w + p.x) as usize].is_finite();
            for _ in 0..6 {
                let g = Point::new(rng.below(w.into()) as u32, rng.below(h.into()) as u32);
                let what = format!("trial {trial} ({w}x{h}, sector {sector}) {s}->{g}");
                let got = planner
                    .find_path_or_nearest_into(&hier, &grid, s, g, &mut path)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                if grid.is_passable(g) && reach(g) {
                    assert!(!got.partial, "{what}: reachable goal flagged partial");
                    assert_eq!(got.end, g);
                    planner
                        .find_path_into(&hier, &grid, s, g, &mut plain)
                        .unwrap();
                    assert_eq!(path, plain, "{what}: not the ordinary path");
                    assert_eq!(planner.nearest_reachable(&hier, &grid, s, g), Ok(g));
                    whole += 1;
                    continue;
                }
                blocked_goal += usize::from(!grid.is_passable(g));
                assert!(got.partial, "{what}: unreachable goal not flagged");
                let cells = (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y)));
                let want = expected_end(cells.filter(|&p| reach(p)), s, g);
                assert_eq!(got.end, want, "{what}: not the nearest reachable cell");
                assert_eq!(planner.nearest_reachable(&hier, &grid, s, g), Ok(want));
                let len =
                    check_path(&grid, &path, s, want).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!((len - got.stats.cost).abs() < 1e-6, "{what}: cost");
                assert_eq!(repeated_cell(&path), None, "{what}");
                partial += 1;
            }
        }
    }
    eprintln!("partial paths: {partial} partial ({blocked_goal} blocked goals), {whole} whole");
    assert!(partial > 300 && whole > 100 && blocked_goal > 50);
}

/// The same under movement profiles (unit sizes 1–3, random costs): the
/// cells are the profile's usable positions, the oracle a Dijkstra over
/// them.
#[test]
fn partial_paths_under_profiles() {
    let mut rng = SplitMix64(3202);
    let (mut partial, mut whole) = (0, 0);
    for trial in 0..30u32 {
        let w = 24 + rng.below(70) as u32;
        let h = 24 + rng.below(70) as u32;
        let n = 2 + rng.below(6) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let profile = random_profile(&mut rng, &kinds, 1 + trial % 3, trial % 2 == 0);
        let config = HierarchyConfig::new().sector_size([8, 16][rng.below(2) as usize]);
        let hier = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
        let usable = |p: Point| position_cost(&grid, &profile, p.x.into(), p.y.into()).is_some();
        let open: Vec<Point> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|&p| usable(p))
            .collect();
        if open.is_empty() {
            continue;
        }
        let mut planner = CellPlanner::new();
        let mut path = Vec::new();
        for _ in 0..3 {
            let s = open[rng.below(open.len() as u64) as usize];
            let dist = weighted_distances(&grid, &profile, s).unwrap();
            let reach = |p: Point| dist[(p.y * w + p.x) as usize].is_some();
            for _ in 0..6 {
                let g = Point::new(rng.below(w.into()) as u32, rng.below(h.into()) as u32);
                let what = format!("trial {trial} ({w}x{h}) {s}->{g}");
                let got = planner
                    .find_path_or_nearest_into(&hier, &grid, s, g, &mut path)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                let want = if reach(g) {
                    whole += 1;
                    g
                } else {
                    partial += 1;
                    let cells = (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y)));
                    expected_end(cells.filter(|&p| reach(p)), s, g)
                };
                assert_eq!(got.partial, !reach(g), "{what}");
                assert_eq!(got.end, want, "{what}");
                check_weighted_path(&grid, &profile, &path, s, want)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
            }
        }
    }
    eprintln!("profiled partial paths: {partial} partial, {whole} whole");
    assert!(partial > 100 && whole > 100);
}

/// Bad input stays an error: a goal off the map, a blocked start, a stale
/// grid.
#[test]
fn partial_paths_keep_the_other_errors() {
    let mut grid = Grid::from_rows(&["....@...", "....@...", "....@..."]).unwrap();
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let mut planner = CellPlanner::new();
    let mut path = Vec::new();
    let s = Point::new(0, 0);
    assert!(matches!(
        planner.find_path_or_nearest_into(&hier, &grid, s, Point::new(8, 0), &mut path),
        Err(PlanError::GoalOutOfBounds(_))
    ));
    assert!(matches!(
        planner.find_path_or_nearest_into(&hier, &grid, Point::new(4, 0), s, &mut path),
        Err(PlanError::StartBlocked(_))
    ));
    grid.set_passable(Point::new(2, 2), false).unwrap();
    assert!(matches!(
        planner.find_path_or_nearest_into(&hier, &grid, s, Point::new(7, 0), &mut path),
        Err(PlanError::StaleGrid { .. })
    ));
}

/// Checks one group query against the oracle's distances to the goal
/// (`dist`, from the goal: moves and costs are symmetric). Returns the
/// paths' length ratios to the optimum.
fn check_group(
    grid: &Grid,
    profile: Option<&Profile>,
    starts: &[Point],
    goal: Point,
    paths: &GroupPaths,
    dist: &dyn Fn(Point) -> Option<f64>,
    what: &str,
) -> Vec<f64> {
    assert_eq!(paths.len(), starts.len(), "{what}");
    let mut ratios = Vec::new();
    for (i, &u) in starts.iter().enumerate() {
        let r = paths.path(i).expect("a result per unit");
        let in_map = u.x < grid.width() && u.y < grid.height();
        match (r, in_map.then(|| dist(u)).flatten()) {
            (Ok(cells), Some(d)) => {
                let len = match profile {
                    Some(p) => check_weighted_path(grid, p, cells, u, goal),
                    None => check_path(grid, cells, u, goal),
                }
                .unwrap_or_else(|e| panic!("{what} unit {i} {u}: {e}"));
                assert_eq!(repeated_cell(cells), None, "{what} unit {i}");
                assert!(
                    len >= d - 1e-6 * d.max(1.0),
                    "{what} unit {i}: below optimum"
                );
                if d > 0.0 {
                    ratios.push(len / d);
                }
            }
            (Err(e), None) => assert!(
                matches!(
                    e,
                    PlanError::Unreachable { .. }
                        | PlanError::StartBlocked(_)
                        | PlanError::StartOutOfBounds(_)
                ),
                "{what} unit {i} {u}: {e}"
            ),
            (r, d) => panic!("{what} unit {i} {u}: oracle {d:?}, group {r:?}"),
        }
    }
    assert!(paths.path(starts.len()).is_none());
    ratios
}

/// A group of units in a square of side `area` around a random open cell
/// `c` (some blocked, some off the map at the edge), and a goal: of 20
/// random open cells, the farthest (octile) from `c` that `reach` (from
/// `c`) allows, else the last tried; so most groups travel far compared
/// with their spread and many can arrive.
fn group_and_goal(
    rng: &mut SplitMix64,
    open: &[Point],
    reach: &dyn Fn(Point, Point) -> bool,
    units: usize,
    area: u32,
) -> (Vec<Point>, Point) {
    let c = open[rng.below(open.len() as u64) as usize];
    let starts = (0..units)
        .map(|_| {
            Point::new(
                (c.x + rng.below(u64::from(area)) as u32).saturating_sub(area / 2),
                (c.y + rng.below(u64::from(area)) as u32).saturating_sub(area / 2),
            )
        })
        .collect();
    let mut tries: Vec<Point> = (0..20)
        .map(|_| open[rng.below(open.len() as u64) as usize])
        .collect();
    tries.sort_by(|a, b| octile(c, *b).total_cmp(&octile(c, *a)));
    let goal = tries
        .iter()
        .copied()
        .find(|&g| reach(c, g))
        .unwrap_or(tries[19]);
    (starts, goal)
}

/// Group paths on random maps: each unit's result agrees with the oracle on
/// reachability, its path is valid from its start to the goal without a
/// repeated cell, and lengths stay close to the optimum; many units join
/// the shared path.
#[test]
fn group_paths_agree_with_the_oracle() {
    let mut rng = SplitMix64(3203);
    let mut ratios = Vec::new();
    let (mut joined, mut units, mut failed, mut rounds) = (0, 0, 0, 0);
    let mut planner = CellPlanner::new();
    let mut paths = GroupPaths::new();
    for trial in 0..24u32 {
        let w = 100 + rng.below(200) as u32;
        let h = 100 + rng.below(200) as u32;
        let grid = random_map(&mut rng, w, h);
        let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let open = regionpath_testkit::passable_cells(&grid);
        for _ in 0..3 {
            let n = 1 + rng.below(40) as usize;
            let reach = |c: Point, g: Point| {
                regionpath_testkit::oracle::distance(&grid, c, g, Moves::Eight, Area::whole(&grid))
                    .is_some()
            };
            let (starts, goal) = group_and_goal(&mut rng, &open, &reach, n, 16);
            let d = distances(&grid, goal);
            let dist = |p: Point| Some(d[(p.y * w + p.x) as usize]).filter(|d| d.is_finite());
            let what = format!("trial {trial} ({w}x{h}) goal {goal}");
            let st = planner
                .find_group_paths(&hier, &grid, &starts, goal, &mut paths)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(st, paths.stats());
            assert_eq!(st.units as usize, n);
            ratios.extend(check_group(
                &grid, None, &starts, goal, &paths, &dist, &what,
            ));
            joined += st.joined;
            units += n as u32;
            failed += st.failed;
            rounds += st.leaders;
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    let worst = ratios.iter().copied().fold(1.0, f64::max);
    eprintln!(
        "group paths: {units} units, {rounds} rounds, {joined} joined, {failed} failed, {} paths, mean ratio {mean:.4}, worst {worst:.4}",
        ratios.len()
    );
    assert!(joined > units / 3 && failed > 20, "{joined} of {units}");
    assert!(mean < 1.06 && worst < 1.6, "mean {mean}, worst {worst}");
}

/// Under movement profiles the rounds' searches use the profile's costs:
/// the same checks with the weighted oracle.
#[test]
fn group_paths_under_profiles() {
    let mut rng = SplitMix64(3204);
    let mut ratios = Vec::new();
    let mut joined = 0;
    let mut planner = CellPlanner::new();
    let mut paths = GroupPaths::new();
    for trial in 0..16u32 {
        let w = 50 + rng.below(90) as u32;
        let h = 50 + rng.below(90) as u32;
        let n = 2 + rng.below(5) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let profile = random_profile(&mut rng, &kinds, 1 + trial % 3, trial % 2 == 0);
        let hier =
            Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::default()).unwrap();
        let open: Vec<Point> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|p| position_cost(&grid, &profile, p.x.into(), p.y.into()).is_some())
            .collect();
        if open.is_empty() {
            continue;
        }
        for _ in 0..2 {
            let n = 1 + rng.below(30) as usize;
            let reach = |c: Point, g: Point| {
                regionpath_testkit::profiled::weighted_distance(&grid, &profile, c, g).is_some()
            };
            let (starts, goal) = group_and_goal(&mut rng, &open, &reach, n, 16);
            let d = weighted_distances(&grid, &profile, goal).unwrap();
            let dist = |p: Point| d[(p.y * w + p.x) as usize];
            let what = format!("trial {trial} ({w}x{h}) goal {goal}");
            let st = planner
                .find_group_paths(&hier, &grid, &starts, goal, &mut paths)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            ratios.extend(check_group(
                &grid,
                Some(&profile),
                &starts,
                goal,
                &paths,
                &dist,
                &what,
            ));
            joined += st.joined;
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    eprintln!(
        "profiled group paths: {} paths, {joined} joined, mean ratio {mean:.4}",
        ratios.len()
    );
    assert!(joined > 50 && mean < 1.08, "joined {joined}, mean {mean}");
}

/// A unit behind a wall (another component) gets its own `Unreachable`,
/// whoever leads; an empty group is `Ok` with no results; a blocked goal
/// is the whole group's error.
#[test]
fn group_units_fail_alone() {
    let mut grid = Grid::new(120, 60, true).unwrap();
    for y in 0..60 {
        grid.set_passable(Point::new(20, y), false).unwrap();
    }
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let mut planner = CellPlanner::new();
    let mut paths = GroupPaths::new();
    let goal = Point::new(110, 30);
    // The unit nearest the centre is cut off: the matrix answers it, the
    // unit off the map gets its own query's error, another unit leads.
    let starts = [
        Point::new(21, 10),
        Point::new(19, 30),
        Point::new(21, 50),
        Point::new(30, 31),
        Point::new(500, 3),
    ];
    let st = planner
        .find_group_paths(&hier, &grid, &starts, goal, &mut paths)
        .unwrap();
    assert_eq!(st.failed, 2, "{st:?}");
    assert!(matches!(
        paths.path(1),
        Some(Err(PlanError::Unreachable { .. }))
    ));
    assert!(matches!(
        paths.path(4),
        Some(Err(PlanError::StartOutOfBounds(_)))
    ));
    for i in [0, 2, 3] {
        let cells = paths.path(i).unwrap().unwrap();
        check_path(&grid, cells, starts[i], goal).unwrap();
    }
    assert_eq!((st.leaders, st.joined, st.independent), (1, 2, 1), "{st:?}");
    let st = planner
        .find_group_paths(&hier, &grid, &[], goal, &mut paths)
        .unwrap();
    assert!(paths.is_empty() && st.units == 0 && st.leaders == 0);
    assert!(matches!(
        planner.find_group_paths(&hier, &grid, &starts, Point::new(20, 5), &mut paths),
        Err(PlanError::GoalBlocked(_))
    ));
    assert!(paths.is_empty());
}

/// Units spread over a large map: each round's box is cut to
/// `MAX_FIELD_SIDE` around its leader, so several rounds run and the units
/// left after the last one get their own queries; every result still
/// agrees with the oracle.
#[test]
fn spread_groups_take_several_rounds() {
    let mut rng = SplitMix64(3205);
    let mut planner = CellPlanner::new();
    let mut paths = GroupPaths::new();
    let (mut rounds, mut own, mut joined) = (0, 0, 0);
    for trial in 0..3 {
        let (w, h) = (700, 600);
        let grid = maps::obstacles(w, h, 25, &mut |n| rng.below(n));
        let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let open = regionpath_testkit::passable_cells(&grid);
        let goal = open[rng.below(open.len() as u64) as usize];
        let d = distances(&grid, goal);
        let dist = |p: Point| Some(d[(p.y * w + p.x) as usize]).filter(|d| d.is_finite());
        let starts: Vec<Point> = (0..60)
            .map(|_| open[rng.below(open.len() as u64) as usize])
            .collect();
        let st = planner
            .find_group_paths(&hier, &grid, &starts, goal, &mut paths)
            .unwrap();
        let what = format!("trial {trial}: {st:?}");
        check_group(&grid, None, &starts, goal, &paths, &dist, &what);
        rounds += st.leaders;
        own += st.independent;
        joined += st.joined;
    }
    eprintln!("spread groups: {rounds} rounds, {joined} joined, {own} own queries");
    assert!(rounds >= 3 * 6 && own > 0 && joined > 0);
}

/// Once warm (the same group again), a group query and a partial query
/// allocate nothing: every buffer lives in the planner or the caller's
/// `GroupPaths` and path.
#[test]
fn warm_group_and_partial_queries_allocate_nothing() {
    let mut rng = SplitMix64(3206);
    let grid = maps::rooms(300, 200, 9, 50, &mut |n| rng.below(n));
    let hier = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let open = regionpath_testkit::passable_cells(&grid);
    let mut planner = CellPlanner::new();
    let mut paths = GroupPaths::new();
    let mut path = Vec::new();
    let starts: Vec<Point> = open
        .iter()
        .copied()
        .filter(|p| p.x < 20 && p.y < 20)
        .collect();
    let goal = *open.last().unwrap();
    let walled = Point::new(9, 9);
    assert!(!grid.is_passable(walled));
    for round in 0..2 {
        let ((group, partial), used) = measure_thread(|| {
            let g = planner.find_group_paths(&hier, &grid, &starts, goal, &mut paths);
            let p = planner.find_path_or_nearest_into(&hier, &grid, starts[0], walled, &mut path);
            (g, p)
        });
        let group = group.unwrap();
        assert!(partial.unwrap().partial);
        assert_eq!(group.failed, 0);
        if round == 1 {
            assert_eq!(used.allocations, 0, "{group:?}");
        }
    }
}
