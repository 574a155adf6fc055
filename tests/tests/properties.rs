//! Property tests on random small grids (1–24 cells a side, 0–60 % blocked),
//! every answer checked against the independent Dijkstra and path validator
//! in `regionpath_tests`:
//!
//! * A* cost equals the Dijkstra cost, or both find no path;
//! * `WindowedAStar` in a random window equals Dijkstra confined to it;
//! * 4-connected A* equals a 4-connected Dijkstra;
//! * every returned path is a legal walk from start to goal (inside the
//!   window) whose length is the reported cost;
//! * a budgeted search returns a legal partial path from the start;
//! * weighted A* (w = 1.5) stays within w × optimal;
//! * the hierarchical planner finds a path exactly when Dijkstra does, a
//!   legal one, never shorter than the optimum;
//! * on larger maps with wall rectangles, the planner with its quality
//!   recheck forced on every routed query returns the optimum.

use proptest::prelude::*;
use proptest::sample::Index;
use regionpath::grid::{Connectivity, Grid, Point};
use regionpath::hierarchy::{self, Hierarchy, HierarchyConfig};
use regionpath::search::{
    AStar, JumpPointSearch, SearchOptions, SearchStats, Status, Window, WindowedAStar,
};
use regionpath_tests::{check_route, check_walk, dijkstra, grid_from_flags, Area, Moves};

const EPS: f64 = 1e-9;

/// A random grid: width, height and passability with a random density.
fn arb_grid() -> impl Strategy<Value = Grid> {
    (1u32..=24, 1u32..=24, 0.0f64..0.6).prop_flat_map(|(w, h, blocked)| {
        prop::collection::vec(prop::bool::weighted(1.0 - blocked), (w * h) as usize)
            .prop_map(move |flags| grid_from_flags(w, h, &flags))
    })
}

fn passable_cells(g: &Grid) -> Vec<Point> {
    (0..g.height())
        .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
        .filter(|p| g.is_passable(*p))
        .collect()
}

/// Pairs of passable cells chosen by the indices (none if nothing is
/// passable).
fn pairs(g: &Grid, picks: &[(Index, Index)]) -> Vec<(Point, Point)> {
    let cells = passable_cells(g);
    if cells.is_empty() {
        return Vec::new();
    }
    picks
        .iter()
        .map(|(a, b)| (*a.get(&cells), *b.get(&cells)))
        .collect()
}

fn arb_picks() -> impl Strategy<Value = Vec<(Index, Index)>> {
    prop::collection::vec((any::<Index>(), any::<Index>()), 1..6)
}

/// Checks one complete search against the oracle.
fn check_complete(
    g: &Grid,
    (s, t): (Point, Point),
    stats: SearchStats,
    path: &[Point],
    oracle: Option<f64>,
    moves: Moves,
    area: Area,
) -> Result<(), TestCaseError> {
    match oracle {
        Some(best) => {
            prop_assert_eq!(stats.status, Status::Found, "{} -> {}", s, t);
            prop_assert!(
                (stats.cost - best).abs() < EPS,
                "{} -> {}: cost {} vs Dijkstra {}",
                s,
                t,
                stats.cost,
                best
            );
            let walk = check_route(g, s, t, path, moves, area)
                .map_err(|e| TestCaseError::fail(format!("{s} -> {t}: {e}")))?;
            prop_assert!((walk.length() - stats.cost).abs() < EPS);
        }
        None => {
            prop_assert_eq!(stats.status, Status::NoPath, "{} -> {}", s, t);
            prop_assert!(path.is_empty());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn astar_equals_dijkstra(g in arb_grid(), picks in arb_picks()) {
        let mut astar = AStar::new();
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks) {
            let stats = astar.find_path_into(&g, s, t, &mut path).unwrap();
            let oracle = dijkstra(&g, s, t, Moves::Eight, Area::whole(&g));
            check_complete(&g, (s, t), stats, &path, oracle, Moves::Eight, Area::whole(&g))?;
        }
    }

    #[test]
    fn jump_point_search_equals_dijkstra(g in arb_grid(), picks in arb_picks()) {
        let mut jps = JumpPointSearch::new(&g);
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks) {
            let stats = jps.find_path_into(s, t, &mut path).unwrap();
            let oracle = dijkstra(&g, s, t, Moves::Eight, Area::whole(&g));
            check_complete(&g, (s, t), stats, &path, oracle, Moves::Eight, Area::whole(&g))?;
        }
    }

    #[test]
    fn four_connected_astar_equals_four_connected_dijkstra(g in arb_grid(), picks in arb_picks()) {
        let mut astar = AStar::with_options(SearchOptions {
            connectivity: Connectivity::Four,
            ..SearchOptions::default()
        });
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks) {
            let stats = astar.find_path_into(&g, s, t, &mut path).unwrap();
            let oracle = dijkstra(&g, s, t, Moves::Four, Area::whole(&g));
            check_complete(&g, (s, t), stats, &path, oracle, Moves::Four, Area::whole(&g))?;
        }
    }

    #[test]
    fn windowed_astar_equals_dijkstra_in_the_window(
        g in arb_grid(),
        picks in arb_picks(),
        edges in prop::collection::vec((any::<Index>(), any::<Index>(), any::<Index>(), any::<Index>()), 6),
    ) {
        let mut windowed = WindowedAStar::new();
        let mut path = Vec::new();
        for ((s, t), (l, r, u, d)) in pairs(&g, &picks).into_iter().zip(edges) {
            // A random window inside the grid holding both ends.
            let (x0, x1) = (s.x.min(t.x), s.x.max(t.x));
            let (y0, y1) = (s.y.min(t.y), s.y.max(t.y));
            let left = l.index(x0 as usize + 1) as u32;
            let right = x1 + r.index((g.width() - x1) as usize) as u32;
            let top = u.index(y0 as usize + 1) as u32;
            let bottom = y1 + d.index((g.height() - y1) as usize) as u32;
            let window = Window { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
            let area = Area { x: window.x, y: window.y, width: window.width, height: window.height };
            let stats = windowed.find_path_into(&g, window, s, t, &mut path).unwrap();
            let oracle = dijkstra(&g, s, t, Moves::Eight, area);
            check_complete(&g, (s, t), stats, &path, oracle, Moves::Eight, area)?;
        }
    }

    #[test]
    fn budgeted_search_returns_a_legal_prefix(
        g in arb_grid(),
        picks in arb_picks(),
        budget in 1u32..60,
    ) {
        let mut astar = AStar::with_options(SearchOptions {
            node_budget: Some(budget),
            ..SearchOptions::default()
        });
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks) {
            let stats = astar.find_path_into(&g, s, t, &mut path).unwrap();
            let oracle = dijkstra(&g, s, t, Moves::Eight, Area::whole(&g));
            prop_assert!(stats.expanded <= budget);
            match stats.status {
                Status::Found => {
                    check_complete(&g, (s, t), stats, &path, oracle, Moves::Eight, Area::whole(&g))?;
                }
                Status::NoPath => {
                    prop_assert_eq!(oracle, None);
                    prop_assert!(path.is_empty());
                }
                Status::BudgetExhausted => {
                    prop_assert_eq!(stats.expanded, budget);
                    prop_assert_eq!(path.first(), Some(&s));
                    let walk = check_walk(&g, &path, Moves::Eight, Area::whole(&g))
                        .map_err(|e| TestCaseError::fail(format!("{s} -> {t}: partial path {e}")))?;
                    prop_assert!((walk.length() - stats.cost).abs() < EPS);
                }
            }
        }
    }

    #[test]
    fn weighted_astar_is_bounded(g in arb_grid(), picks in arb_picks()) {
        let w = 1.5;
        let mut astar = AStar::with_options(SearchOptions {
            heuristic_weight: w,
            ..SearchOptions::default()
        });
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks) {
            let stats = astar.find_path_into(&g, s, t, &mut path).unwrap();
            match dijkstra(&g, s, t, Moves::Eight, Area::whole(&g)) {
                Some(best) => {
                    prop_assert_eq!(stats.status, Status::Found);
                    prop_assert!(stats.cost <= w * best + EPS, "{} > {} x {}", stats.cost, w, best);
                    prop_assert!(stats.cost >= best - EPS);
                    let walk = check_route(&g, s, t, &path, Moves::Eight, Area::whole(&g))
                        .map_err(|e| TestCaseError::fail(format!("{s} -> {t}: {e}")))?;
                    prop_assert!((walk.length() - stats.cost).abs() < EPS);
                }
                None => prop_assert_eq!(stats.status, Status::NoPath),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn hierarchical_planner_agrees_on_reachability(
        g in arb_grid(),
        picks in arb_picks(),
        sector in 4u32..=16,
    ) {
        let config = HierarchyConfig::new().sector_size(sector).parallel(false).fit_memory(false);
        let h = Hierarchy::build(&g, &config).unwrap();
        // With the straight-path shortcut (default) and without it, so the
        // hierarchy answers every pair at least once.
        let mut planners = [true, false].map(|straight| {
            hierarchy::CellPlanner::with_config(hierarchy::PlannerConfig::new().straight(straight))
            .expect("valid settings")
        });
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks).into_iter().flat_map(|p| [p, p]) {
            // Alternate: even turns with the shortcut, odd turns without.
            planners.swap(0, 1);
            let planner = &mut planners[0];
            let result = planner.find_path_into(&h, &g, s, t, &mut path);
            match dijkstra(&g, s, t, Moves::Eight, Area::whole(&g)) {
                Some(best) => {
                    let stats = result.map_err(|e| TestCaseError::fail(format!("{s} -> {t}: {e}")))?;
                    let walk = check_route(&g, s, t, &path, Moves::Eight, Area::whole(&g))
                        .map_err(|e| TestCaseError::fail(format!("{s} -> {t}: {e}")))?;
                    prop_assert!((walk.length() - stats.cost).abs() < EPS);
                    prop_assert!(stats.cost >= best - EPS, "{} < optimal {}", stats.cost, best);
                    if stats.straight {
                        prop_assert!((stats.cost - best).abs() < EPS, "straight {} vs optimal {}", stats.cost, best);
                    }
                }
                None => prop_assert!(
                    matches!(result, Err(hierarchy::PlanError::Unreachable { .. })),
                    "{} -> {}: expected Unreachable, got {:?}", s, t, result
                ),
            }
        }
    }
}

/// The same searcher answers a long mixed sequence of queries on different
/// grids correctly: scratch reuse (generation stamps) leaks nothing between
/// queries or grids.
#[test]
fn reused_searchers_stay_correct_across_grids() {
    let mut astar = AStar::new();
    let mut windowed = WindowedAStar::with_size(7, 5);
    let mut jps = JumpPointSearch::new(&grid_from_flags(1, 1, &[true]));
    let mut path = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..300 {
        let (w, h) = (1 + (next() % 30) as u32, 1 + (next() % 30) as u32);
        let flags: Vec<bool> = (0..w * h).map(|_| next() % 100 >= 30).collect();
        let g = grid_from_flags(w, h, &flags);
        jps.refresh(&g);
        let cells = passable_cells(&g);
        if cells.is_empty() {
            continue;
        }
        for _ in 0..4 {
            let s = cells[(next() % cells.len() as u64) as usize];
            let t = cells[(next() % cells.len() as u64) as usize];
            let stats = astar.find_path_into(&g, s, t, &mut path).unwrap();
            let best = dijkstra(&g, s, t, Moves::Eight, Area::whole(&g));
            match best {
                Some(c) => assert!((stats.cost - c).abs() < EPS, "round {round}: {s} -> {t}"),
                None => assert_eq!(stats.status, Status::NoPath, "round {round}"),
            }
            let stats = jps.find_path_into(s, t, &mut path).unwrap();
            match best {
                Some(c) => assert!(
                    (stats.cost - c).abs() < EPS,
                    "jps round {round}: {s} -> {t}"
                ),
                None => assert_eq!(stats.status, Status::NoPath, "jps round {round}"),
            }
            let win = windowed.window_around(&g, s, t);
            if win.contains(s) && win.contains(t) {
                let stats = windowed.find_path_into(&g, win, s, t, &mut path).unwrap();
                let area = Area {
                    x: win.x,
                    y: win.y,
                    width: win.width,
                    height: win.height,
                };
                match dijkstra(&g, s, t, Moves::Eight, area) {
                    Some(c) => assert!(
                        (stats.cost - c).abs() < EPS,
                        "round {round}: window {win:?}"
                    ),
                    None => assert_eq!(
                        stats.status,
                        Status::NoPath,
                        "round {round}: window {win:?}"
                    ),
                }
            }
        }
    }
}

/// A random grid of `w × h` cells strewn with `n` random wall rectangles
/// (obstacles a region route can pass on the wrong side).
fn arb_walled_grid() -> impl Strategy<Value = Grid> {
    (
        70u32..=150,
        70u32..=150,
        prop::collection::vec((0u32..150, 0u32..150, 1u32..40, 1u32..40), 4..30),
    )
        .prop_map(|(w, h, walls)| {
            let mut flags = vec![true; (w * h) as usize];
            for (x0, y0, ww, wh) in walls {
                for y in y0.min(h)..(y0 + wh).min(h) {
                    for x in x0.min(w)..(x0 + ww).min(w) {
                        flags[(y * w + x) as usize] = false;
                    }
                }
            }
            grid_from_flags(w, h, &flags)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// With the quality check forced on every routed query and a recheck box
    /// as large as the map, the planner returns optimal paths: the recheck
    /// searches every cell a cheaper path could use.
    #[test]
    fn forced_recheck_makes_routed_paths_optimal(
        g in arb_walled_grid(),
        picks in prop::collection::vec((any::<Index>(), any::<Index>()), 1..12),
    ) {
        let config = HierarchyConfig::new().sector_size(16).parallel(false).fit_memory(false);
        let h = Hierarchy::build(&g, &config).unwrap();
        let mut planner = hierarchy::CellPlanner::with_config(
            hierarchy::PlannerConfig::new()
                .recheck(1e-6)
                .recheck_window(160)
                .recheck_budget(0)
                .straight(false),
        )
        .expect("valid settings");
        let mut path = Vec::new();
        for (s, t) in pairs(&g, &picks) {
            let result = planner.find_path_into(&h, &g, s, t, &mut path);
            let Some(best) = dijkstra(&g, s, t, Moves::Eight, Area::whole(&g)) else {
                prop_assert!(result.is_err());
                continue;
            };
            let stats = result.map_err(|e| TestCaseError::fail(format!("{s} -> {t}: {e}")))?;
            let walk = check_route(&g, s, t, &path, Moves::Eight, Area::whole(&g))
                .map_err(|e| TestCaseError::fail(format!("{s} -> {t}: {e}")))?;
            prop_assert!((walk.length() - stats.cost).abs() < EPS);
            if planner.route().len() > 1 {
                prop_assert!(stats.rechecked, "{} -> {}: routed but not rechecked", s, t);
                prop_assert!((stats.cost - best).abs() < 1e-6, "{} -> {}: {} vs optimal {}", s, t, stats.cost, best);
            } else {
                prop_assert!(stats.cost >= best - EPS);
            }
        }
    }
}
