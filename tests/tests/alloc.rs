//! Zero allocations per query once warm: a counting global allocator
//! (wrapping `System`, per-thread counts) shows that `AStar::find_path_into`,
//! `JumpPointSearch::find_path_into` and `WindowedAStar::find_path_into` allocate nothing after warm-up
//! queries, on the project's own generated maps (`maps/`), as does the
//! facade planner with smoothing under every bundled movement profile and
//! with second routes under a profile (rooms joined by doors), and that the
//! answers of the counted queries are still right.

mod common;

use regionpath::grid::{read_map, read_scen, Grid, Point};
use regionpath::search::{AStar, JumpPointSearch, Status, WindowedAStar};
use regionpath_tests::workspace_root;

#[global_allocator]
static ALLOC: common::Counting = common::Counting;

fn shipped(map: &str) -> (Grid, Vec<(Point, Point, f64)>) {
    let dir = workspace_root().join("maps");
    let grid = read_map(dir.join(map)).unwrap_or_else(|e| panic!("{map}: {e}"));
    let scen =
        read_scen(dir.join(format!("{map}.scen"))).unwrap_or_else(|e| panic!("{map}.scen: {e}"));
    let rows = scen
        .rows
        .iter()
        .map(|r| (r.start, r.goal, r.optimal))
        .collect();
    (grid, rows)
}

#[test]
fn astar_allocates_nothing_once_warm() {
    let (grid, rows) = shipped("caves-256.map");
    let mut astar = AStar::new();
    let mut path = Vec::new();
    // Warm-up: the scratch grows to the grid, the open list and the path
    // to the largest query.
    for &(s, g, _) in &rows {
        astar.find_path_into(&grid, s, g, &mut path).unwrap();
    }
    // Counted: every query again, in reverse order and reversed direction.
    let (checked, usage) = common::measure(|| {
        let mut checked = 0usize;
        for &(s, g, optimal) in rows.iter().rev() {
            let stats = astar.find_path_into(&grid, g, s, &mut path).unwrap();
            if stats.status == Status::Found
                && (stats.cost - optimal).abs() < 1e-6
                && path.first() == Some(&g)
                && path.last() == Some(&s)
            {
                checked += 1;
            }
        }
        checked
    });
    assert_eq!(checked, rows.len(), "answers of the counted queries");
    assert_eq!(
        usage.allocations,
        0,
        "{} allocations over {} warm queries",
        usage.allocations,
        rows.len()
    );
}

#[test]
fn jump_point_search_allocates_nothing_once_warm() {
    let (grid, rows) = shipped("rooms-512.map");
    let mut jps = JumpPointSearch::new(&grid);
    let mut path = Vec::new();
    for &(s, g, _) in &rows {
        jps.find_path_into(s, g, &mut path).unwrap();
    }
    let (checked, usage) = common::measure(|| {
        let mut checked = 0usize;
        for &(s, g, optimal) in rows.iter().rev() {
            let stats = jps.find_path_into(g, s, &mut path).unwrap();
            if stats.status == Status::Found
                && (stats.cost - optimal).abs() < 1e-6
                && path.first() == Some(&g)
                && path.last() == Some(&s)
            {
                checked += 1;
            }
        }
        checked
    });
    assert_eq!(checked, rows.len(), "answers of the counted queries");
    assert_eq!(
        usage.allocations,
        0,
        "{} allocations over {} warm queries",
        usage.allocations,
        rows.len()
    );
}

/// The hierarchical planner: abstract route, window legs (jump point
/// search), joins and loop removal reuse the planner's buffers, so a warm
/// query allocates nothing when the output `Vec` has room.
#[test]
fn hierarchical_planner_allocates_nothing_once_warm() {
    use regionpath::hierarchy::{CellPlanner, Hierarchy, Step};
    for map in ["rooms-512.map", "caves-256.map"] {
        let (grid, rows) = shipped(map);
        let h = Hierarchy::build(&grid, &Default::default()).unwrap();
        let mut planner = CellPlanner::new();
        let mut path = Vec::new();
        for &(s, g, _) in &rows {
            planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        }
        let (checked, usage) = common::measure(|| {
            let mut checked = 0usize;
            for &(s, g, optimal) in rows.iter().rev() {
                let st = planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
                // Valid endpoints and never shorter than the optimum (the
                // path itself is checked by the other tests).
                if path.first() == Some(&s) && path.last() == Some(&g) && st.cost >= optimal - 1e-6
                {
                    checked += 1;
                }
            }
            checked
        });
        assert_eq!(checked, rows.len(), "{map}: answers of the counted queries");
        assert_eq!(
            usage.allocations,
            0,
            "{map}: {} allocations over {} warm queries",
            usage.allocations,
            rows.len()
        );
        // Lazy queries (quick start: a partial region route, the rest on
        // the second leg) restarted into one reused query value
        // allocate nothing either.
        let (s0, g0, _) = rows[0];
        let mut query = planner.start(&h, &grid, s0, g0).unwrap();
        let mut lazy = |planner: &mut CellPlanner, path: &mut Vec<_>, s, g| {
            path.clear();
            planner.restart(&mut query, &h, &grid, s, g).unwrap();
            while planner.next_leg(&mut query, &h, &grid, path).unwrap() {}
            (
                path.first() == Some(&s) && path.last() == Some(&g),
                query.stats().quick_start,
            )
        };
        let mut quick = 0;
        for &(s, g, _) in &rows {
            quick += lazy(&mut planner, &mut path, s, g).1 as usize;
        }
        let (checked, usage) = common::measure(|| {
            rows.iter()
                .rev()
                .filter(|&&(s, g, _)| lazy(&mut planner, &mut path, s, g).0)
                .count()
        });
        assert_eq!(checked, rows.len(), "{map}: lazy answers");
        assert!(quick > 0, "{map}: no quick start among the rows");
        assert_eq!(
            usage.allocations,
            0,
            "{map}: {} allocations over {} warm lazy queries",
            usage.allocations,
            rows.len()
        );
        // Sliced queries stepped under a budget of 200 (paused route
        // searches kept in the query) allocate nothing either.
        let mut sliced = |planner: &mut CellPlanner, path: &mut Vec<_>, s, g| {
            path.clear();
            planner.restart_sliced(&mut query, &h, &grid, s, g).unwrap();
            let mut calls = 0;
            while planner.step(&mut query, &h, &grid, 200, path).unwrap() != Step::Done {
                calls += 1;
            }
            (path.first() == Some(&s) && path.last() == Some(&g), calls)
        };
        let mut calls = 0;
        for &(s, g, _) in &rows {
            calls += sliced(&mut planner, &mut path, s, g).1;
        }
        let (checked, usage) = common::measure(|| {
            rows.iter()
                .rev()
                .filter(|&&(s, g, _)| sliced(&mut planner, &mut path, s, g).0)
                .count()
        });
        assert_eq!(checked, rows.len(), "{map}: sliced answers");
        assert!(
            calls > 2 * rows.len(),
            "{map}: {calls} steps for {} queries",
            rows.len()
        );
        assert_eq!(
            usage.allocations,
            0,
            "{map}: {} allocations over {} warm sliced queries",
            usage.allocations,
            rows.len()
        );
    }
}

#[test]
fn windowed_astar_allocates_nothing_once_warm() {
    let (grid, _) = shipped("rooms-512.map");
    // Deterministic pairs of passable cells at most 40 apart on each axis.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(n)) as u32
    };
    let mut pairs = Vec::new();
    while pairs.len() < 400 {
        let a = Point::new(next(grid.width()), next(grid.height()));
        let b = Point::new(
            (a.x + next(81)).saturating_sub(40).min(grid.width() - 1),
            (a.y + next(81)).saturating_sub(40).min(grid.height() - 1),
        );
        if grid.is_passable(a) && grid.is_passable(b) {
            pairs.push((a, b));
        }
    }
    let mut windowed = WindowedAStar::new();
    let mut path = Vec::new();
    let mut first = Vec::with_capacity(pairs.len());
    for &(a, b) in &pairs {
        let window = windowed.window_around(&grid, a, b);
        let stats = windowed
            .find_path_into(&grid, window, a, b, &mut path)
            .unwrap();
        first.push((stats.status, stats.cost));
    }
    let found = first.iter().filter(|(s, _)| *s == Status::Found).count();
    assert!(found > pairs.len() / 2, "only {found} legs found");
    let (same, usage) = common::measure(|| {
        let mut same = 0usize;
        for (&(a, b), &(status, cost)) in pairs.iter().zip(&first) {
            let window = windowed.window_around(&grid, a, b);
            let stats = windowed
                .find_path_into(&grid, window, a, b, &mut path)
                .unwrap();
            if stats.status == status && stats.cost == cost {
                same += 1;
            }
        }
        same
    });
    assert_eq!(same, pairs.len(), "answers of the counted queries");
    assert_eq!(
        usage.allocations,
        0,
        "{} allocations over {} warm windowed queries",
        usage.allocations,
        pairs.len()
    );
}

#[test]
fn the_counter_sees_allocations() {
    // Guard against a counter that never counts.
    let (v, usage) = common::measure(|| vec![1u8; 1000]);
    assert_eq!(v.len(), 1000);
    assert!(
        usage.allocations >= 1 && usage.peak_bytes >= 1000,
        "{usage:?}"
    );
}

/// Under every bundled movement profile (infantry and tank with terrain
/// costs, the boat's uniform water): a warm facade planner with smoothing
/// allocates nothing per query, and its paths start and end where asked and
/// never cost less than the row's optimum; warm lazy queries allocate
/// nothing either.
#[test]
fn profiled_planner_with_smoothing_allocates_nothing_once_warm() {
    use regionpath::{Config, Hierarchy, HierarchyConfig, Path, Planner, Profile};
    let dir = workspace_root().join("maps");
    let grid = read_map(dir.join("terrain/terrain-caves-256.map")).unwrap();
    for unit in ["infantry", "tank", "boat"] {
        let profile = Profile::read(dir.join(format!("profiles/{unit}.toml"))).unwrap();
        let scen = read_scen(dir.join(format!("terrain/terrain-caves-256.{unit}.scen"))).unwrap();
        let h = Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::new()).unwrap();
        let mut planner = Planner::new(Config::new().smooth(true)).unwrap();
        let mut path = Path::default();
        for r in &scen.rows {
            planner
                .find_path_into(&h, &grid, r.start, r.goal, &mut path)
                .unwrap();
            planner
                .find_path_into(&h, &grid, r.goal, r.start, &mut path)
                .unwrap();
        }
        let (checked, usage) = common::measure(|| {
            let mut checked = 0usize;
            for r in scen.rows.iter().rev() {
                planner
                    .find_path_into(&h, &grid, r.goal, r.start, &mut path)
                    .unwrap();
                if path.cells.first() == Some(&r.goal)
                    && path.cells.last() == Some(&r.start)
                    && path.cost >= r.optimal * (1.0 - 1e-6)
                    && !path.waypoints.is_empty()
                {
                    checked += 1;
                }
            }
            checked
        });
        assert_eq!(
            checked,
            scen.rows.len(),
            "{unit}: answers of the counted queries"
        );
        assert_eq!(
            usage.allocations,
            0,
            "{unit}: {} allocations over {} warm queries",
            usage.allocations,
            scen.rows.len()
        );
        // Lazy queries under the profile, restarted into one query value,
        // allocate nothing either (a one-window answer may hand out the
        // route's legs instead, P84).
        let mut cells = Vec::new();
        let mut cell_planner = regionpath::hierarchy::CellPlanner::new();
        let first = &scen.rows[0];
        let mut query = cell_planner
            .start(&h, &grid, first.start, first.goal)
            .unwrap();
        let mut lazy =
            |planner: &mut regionpath::hierarchy::CellPlanner, cells: &mut Vec<_>, s, g| {
                cells.clear();
                planner.restart(&mut query, &h, &grid, s, g).unwrap();
                while planner.next_leg(&mut query, &h, &grid, cells).unwrap() {}
                cells.first() == Some(&s) && cells.last() == Some(&g)
            };
        for r in &scen.rows {
            lazy(&mut cell_planner, &mut cells, r.start, r.goal);
            lazy(&mut cell_planner, &mut cells, r.goal, r.start);
        }
        let (checked, usage) = common::measure(|| {
            scen.rows
                .iter()
                .rev()
                .filter(|r| lazy(&mut cell_planner, &mut cells, r.goal, r.start))
                .count()
        });
        assert_eq!(checked, scen.rows.len(), "{unit}: lazy answers");
        assert_eq!(
            usage.allocations,
            0,
            "{unit}: {} allocations over {} warm lazy queries",
            usage.allocations,
            scen.rows.len()
        );
    }
}

/// Second routes under a profile whose costs differ (routes through narrow
/// crossings, P92) allocate nothing once warm either: rooms of 7 × 7 cells
/// of one terrain each (ground, road, forest, swamp), every two
/// neighbouring rooms joined by a one-cell door, infantry costs, full
/// queries with smoothing; the counted queries plan second routes and end
/// where asked.
#[test]
fn profiled_second_routes_allocate_nothing_once_warm() {
    use regionpath::{Config, Hierarchy, HierarchyConfig, Path, Planner};
    use regionpath_testkit::profiled::{infantry, rooms_with_terrain};
    use regionpath_testkit::{Rng64, SplitMix64};
    let mut rng = SplitMix64(0x9E37_79B9_7F4A_7C15);
    let grid = rooms_with_terrain(&mut rng, 20, true);
    let infantry = infantry();
    let h = Hierarchy::build_with_profile(&grid, &infantry, &HierarchyConfig::new()).unwrap();
    let room_cell = |i: u64| Point::new((i % 20) as u32 * 8 + 4, (i / 20) as u32 * 8 + 4);
    let pairs: Vec<(Point, Point)> = (0..40)
        .map(|_| (room_cell(rng.below(400)), room_cell(rng.below(400))))
        .collect();
    let mut planner = Planner::new(Config::new().smooth(true)).unwrap();
    let mut path = Path::default();
    for &(s, g) in &pairs {
        planner.find_path_into(&h, &grid, s, g, &mut path).unwrap();
        planner.find_path_into(&h, &grid, g, s, &mut path).unwrap();
    }
    let ((ended, second), usage) = common::measure(|| {
        let (mut ended, mut second) = (0usize, 0usize);
        for &(s, g) in pairs.iter().rev() {
            planner.find_path_into(&h, &grid, g, s, &mut path).unwrap();
            ended += usize::from(path.cells.first() == Some(&g) && path.cells.last() == Some(&s));
            second += usize::from(path.stats.second_route);
        }
        (ended, second)
    });
    assert_eq!(ended, pairs.len());
    assert!(second > 0, "no second route among the counted queries");
    assert_eq!(
        usage.allocations,
        0,
        "{} allocations over {} warm queries",
        usage.allocations,
        pairs.len()
    );
}
