//! Abstraction levels (large maps): queries planned through the level
//! corridor are checked against a Dijkstra over the whole grid. Maps of
//! 800² cells with 4-cell sectors hold over 32,768 regions, so they get
//! levels, and `levels_from(0)` makes the planner use them (by default it
//! does from 262,144 regions, maps too large for a test).

use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlanError, PlannerConfig};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};
use regionpath_testkit::{check_path, maps, Rng64, SplitMix64 as Rng};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn config() -> HierarchyConfig {
    HierarchyConfig::new().sector_size(4).fit_memory(false)
}

fn worlds() -> Vec<(&'static str, Grid)> {
    let mut rng = Rng(33);
    let mut rooms = maps::rooms(800, 800, 6, 60, &mut |n| rng.below(n));
    maps::knock_through(&mut rooms, 800 * 800 / 200, &mut |n| rng.below(n));
    let caves = maps::caves(800, 800, 42, 4, &mut |n| rng.below(n));
    vec![("rooms", rooms), ("caves", caves)]
}

fn open_cell(grid: &Grid, rng: &mut Rng) -> Point {
    loop {
        let p = Point::new(
            rng.below(grid.width() as u64) as u32,
            rng.below(grid.height() as u64) as u32,
        );
        if grid.is_passable(p) {
            return p;
        }
    }
}

/// Pairs at least 300 cells apart with their optimal lengths (`None`:
/// unreachable), from the oracle.
fn pairs(grid: &Grid, rng: &mut Rng, n: usize) -> Vec<(Point, Point, Option<f64>)> {
    let mut out = Vec::new();
    while out.len() < n {
        let (s, g) = (open_cell(grid, rng), open_cell(grid, rng));
        if regionpath_grid::octile(s, g) < 300.0 {
            continue;
        }
        let d = regionpath_testkit::distances(grid, s);
        let v = d[g.y as usize * grid.width() as usize + g.x as usize];
        out.push((s, g, v.is_finite().then_some(v)));
    }
    out
}

#[test]
fn full_and_lazy_paths_through_the_levels_are_valid_and_near_optimal() {
    let mut rng = Rng(5);
    for (name, grid) in worlds() {
        let h = Hierarchy::build(&grid, &config()).unwrap();
        let stats = h.stats();
        assert!(stats.levels >= 2, "{name}: {} levels", stats.levels);
        let mut with = CellPlanner::with_config(PlannerConfig::new().levels_from(0)).unwrap();
        let mut without =
            CellPlanner::with_config(PlannerConfig::new().levels_from(u32::MAX)).unwrap();
        let (mut out, mut lazy) = (Vec::new(), Vec::new());
        let (mut exp_with, mut exp_without, mut level_exp) = (0u64, 0u64, 0u64);
        let (mut sub, mut n) = (0.0, 0);
        for (s, g, best) in pairs(&grid, &mut rng, 24) {
            let Some(best) = best else {
                assert!(matches!(
                    with.find_path_into(&h, &grid, s, g, &mut out),
                    Err(PlanError::Unreachable { .. })
                ));
                continue;
            };
            let r = with.find_path_into(&h, &grid, s, g, &mut out).unwrap();
            let len =
                check_path(&grid, &out, s, g).unwrap_or_else(|e| panic!("{name} {s}->{g}: {e}"));
            assert!(
                len >= best - 1e-6,
                "{name} {s}->{g}: {len} below the optimum {best}"
            );
            assert!((r.cost - len).abs() < 1e-6 * len.max(1.0));
            sub += len / best - 1.0;
            n += 1;
            exp_with += r.abstract_expanded as u64;
            level_exp += r.cluster_expanded as u64;
            let r0 = without.find_path_into(&h, &grid, s, g, &mut out).unwrap();
            exp_without += r0.abstract_expanded as u64;
            // The lazy walk: legs joined end to end, no cell twice.
            let mut q = with.start(&h, &grid, s, g).unwrap();
            lazy.clear();
            let mut legs = 0;
            while with.next_leg(&mut q, &h, &grid, &mut lazy).unwrap() {
                legs += 1;
                assert!(legs < 10_000, "{name}: the walk does not end");
            }
            let walk = check_path(&grid, &lazy, s, g)
                .unwrap_or_else(|e| panic!("{name} lazy {s}->{g}: {e}"));
            assert!(walk >= best - 1e-6);
            assert_eq!(
                regionpath_testkit::check::repeated_cell(&lazy),
                None,
                "{name} lazy {s}->{g}"
            );
        }
        assert!(n >= 10, "{name}: only {n} reachable pairs");
        let mean = sub / n as f64;
        // Measured: rooms 2.8 %, caves 0.5 % (16k² figures: benches/
        // PROFILES.md); the bound leaves room for other seeds.
        assert!(
            mean < 0.08,
            "{name}: mean suboptimality {:.2} %",
            mean * 100.0
        );
        // The levels were searched and the corridor narrowed the region
        // search.
        assert!(level_exp > 0, "{name}: no level node expanded");
        assert!(
            exp_with * 10 < exp_without * 7,
            "{name}: {exp_with} region expansions in the corridor against {exp_without}"
        );
    }
}

#[test]
fn a_loose_hierarchy_plans_without_levels_and_a_refresh_brings_them_back() {
    let mut rng = Rng(9);
    let (_, mut grid) = worlds().remove(0);
    let mut h = Hierarchy::build(&grid, &config()).unwrap();
    let mut planner = CellPlanner::with_config(PlannerConfig::new().levels_from(0)).unwrap();
    let mut out = Vec::new();
    // Wall off a band of cells, then knock holes: regions change ids.
    let mut changed = Vec::new();
    for x in 100..700 {
        let p = Point::new(x, 400);
        if grid.is_passable(p) && x % 50 != 0 {
            grid.set_passable(p, false).unwrap();
            changed.push(p);
        }
    }
    h.update(&grid, &changed).unwrap();
    for round in 0..2 {
        let mut level_exp = 0;
        for (s, g, best) in pairs(&grid, &mut rng, 8) {
            match (best, planner.find_path_into(&h, &grid, s, g, &mut out)) {
                (Some(best), Ok(r)) => {
                    let len = check_path(&grid, &out, s, g).unwrap();
                    assert!(len >= best - 1e-6);
                    level_exp += r.cluster_expanded;
                }
                (None, Err(PlanError::Unreachable { .. })) => {}
                (b, r) => panic!("round {round} {s}->{g}: oracle {b:?}, planner {r:?}"),
            }
        }
        if round == 0 {
            // Loose: no level searched.
            assert!(h.is_loose());
            assert_eq!(level_exp, 0);
            h.refresh();
        } else {
            assert!(
                level_exp > 0,
                "the refreshed hierarchy's levels were not used"
            );
        }
    }
}

/// `CellPlanner::prepare` sizes what grows with the map (a node per region
/// and cluster, the level marks, the loop bitset): a first query after it
/// grows no more than window-sized scratch, where a first query on a fresh
/// planner grows the per-region arrays itself. The paths are the same and
/// valid either way.
#[test]
fn a_prepared_planner_does_not_grow_with_the_map_on_its_first_query() {
    let mut rng = Rng(12);
    let (_, grid) = worlds().remove(0);
    let h = Hierarchy::build(&grid, &config()).unwrap();
    let regions = h.stats().regions;
    assert!(regions > 30_000, "{regions} regions");
    let (s, g, best) = loop {
        if let (s, g, Some(best)) = pairs(&grid, &mut rng, 1)[0] {
            break (s, g, best);
        }
    };
    // A search node is 32 bytes.
    let per_region = regions * 32;
    let mut paths = Vec::new();
    for prepared in [false, true] {
        let mut planner = CellPlanner::with_config(PlannerConfig::new().levels_from(0)).unwrap();
        if prepared {
            planner.prepare(&h);
        }
        let mut out = Vec::with_capacity(4 * grid.width() as usize);
        let (r, used) = measure_thread(|| planner.find_path_into(&h, &grid, s, g, &mut out));
        r.unwrap();
        let len = check_path(&grid, &out, s, g).unwrap();
        assert!(len >= best - 1e-6);
        if prepared {
            assert!(
                used.peak_bytes < (per_region / 4) as i64,
                "prepared: {} bytes grown on the first query ({regions} regions)",
                used.peak_bytes
            );
        } else {
            assert!(
                used.peak_bytes >= per_region as i64,
                "fresh: {} bytes grown on the first query ({regions} regions)",
                used.peak_bytes
            );
        }
        paths.push(out);
    }
    assert_eq!(paths[0], paths[1]);
}
