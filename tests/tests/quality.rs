//! The quality floor on small maps: with default options
//! ([`HierarchyConfig::default`], [`Config::default`]: no smoothing, so a
//! path's length is its cell path's), no hierarchical path on a random
//! small map of any family (rooms, mazes, spirals, random obstacles,
//! caves; 8 to 96 cells a side, square or not) is longer than 1.5 times
//! the optimum of an independent Dijkstra. Every path is also checked by
//! the independent validator, and every goal Dijkstra cannot reach must be
//! refused as unreachable.
//!
//! **Sample.** `REGIONPATH_QUALITY_MAPS` maps per family (default 160 in
//! optimized builds, 24 in debug builds), up to 24 queries each (random
//! passable starts and goals); the worst ratio per family is printed.

use regionpath::grid::{Grid, Point};
use regionpath::{Config, Error, Hierarchy, HierarchyConfig, Planner};
use regionpath_testkit::maps::{caves, knock_through, maze, obstacles, rooms, spiral, EAST_FIRST};
use regionpath_testkit::{check_path, distances, passable_cells, Rng64, SplitMix64};

/// The floor: a hierarchical path is at most this many times the optimum.
const FLOOR: f64 = 1.5;

fn maps_per_family() -> usize {
    std::env::var("REGIONPATH_QUALITY_MAPS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(if cfg!(debug_assertions) { 24 } else { 160 })
}

#[derive(Clone, Copy, Debug)]
enum Family {
    Rooms,
    Mazes,
    Spirals,
    Random,
    Caves,
}

/// A map of `family`, 8 to 96 cells a side.
fn map(family: Family, rng: &mut SplitMix64) -> Grid {
    let (w, h) = (8 + rng.below(89) as u32, 8 + rng.below(89) as u32);
    let mut below = |n| rng.below(n);
    match family {
        Family::Rooms => {
            let room = 2 + below(9) as u32;
            let doors = below(60);
            rooms(w, h, room, doors, &mut below)
        }
        Family::Mazes => {
            let walled = below(2) == 1;
            let mut g = maze(w, h, walled, EAST_FIRST, &mut below);
            // Half of them with loops.
            if walled && below(2) == 1 {
                let loops = 1 + below(u64::from(w * h / 16)) as u32;
                knock_through(&mut g, loops, &mut below);
            }
            g
        }
        Family::Spirals => {
            let corridor = 1 + below(3) as u32;
            let mirror = below(2) == 1;
            spiral(w, h, corridor, mirror)
        }
        Family::Random => {
            let percent = 5 + below(36);
            obstacles(w, h, percent, &mut below)
        }
        Family::Caves => {
            let rock = 38 + below(10);
            let rounds = 2 + below(4) as u32;
            caves(w, h, rock, rounds, &mut below)
        }
    }
}

/// Worst ratio and queries of one family.
fn family_worst(family: Family, seed: u64, maps: usize) -> (f64, usize, String) {
    let mut rng = SplitMix64(seed);
    let mut planner = Planner::new(Config::default()).expect("default settings");
    let (mut worst, mut queries, mut at) = (1.0f64, 0usize, String::new());
    for m in 0..maps {
        let grid = map(family, &mut rng);
        let cells = passable_cells(&grid);
        if cells.len() < 2 {
            continue;
        }
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
        let w = grid.width() as usize;
        for _ in 0..4 {
            let s = rng.pick(&cells);
            let dist = distances(&grid, s);
            for _ in 0..6 {
                let t: Point = rng.pick(&cells);
                let opt = dist[t.y as usize * w + t.x as usize];
                let what = || {
                    format!(
                        "{family:?} map {m} ({}x{}), {s} -> {t}",
                        grid.width(),
                        grid.height()
                    )
                };
                match planner.find_path(&h, &grid, s, t) {
                    Ok(path) => {
                        assert!(opt.is_finite(), "{}: no path exists", what());
                        let len = check_path(&grid, &path.cells, s, t)
                            .unwrap_or_else(|e| panic!("{}: invalid path: {e}", what()));
                        assert!(len >= opt - 1e-6, "{}: {len} < optimum {opt}", what());
                        queries += 1;
                        if opt > 0.0 && len / opt > worst {
                            worst = len / opt;
                            at = format!("{}: {len:.2} vs {opt:.2}", what());
                        }
                    }
                    Err(Error::Unreachable { .. }) => {
                        assert!(opt.is_infinite(), "{}: reachable, refused", what());
                    }
                    Err(e) => panic!("{}: {e}", what()),
                }
            }
        }
    }
    (worst, queries, at)
}

#[test]
fn small_maps_of_every_family_stay_within_the_quality_floor() {
    let maps = maps_per_family();
    let mut failures = Vec::new();
    for (k, family) in [
        Family::Rooms,
        Family::Mazes,
        Family::Spirals,
        Family::Random,
        Family::Caves,
    ]
    .into_iter()
    .enumerate()
    {
        let (worst, queries, at) = family_worst(family, 0x0051_7e00 + k as u64, maps);
        eprintln!(
            "quality floor: {family:?}: {queries} queries on {maps} maps, worst {worst:.3} ({at})"
        );
        assert!(queries > maps, "{family:?}: only {queries} queries");
        if worst > FLOOR {
            failures.push(format!("{family:?}: {worst:.3} at {at}"));
        }
    }
    assert!(failures.is_empty(), "over {FLOOR}x optimal: {failures:?}");
}

/// The optimum of every query between the two arms of a U (a wall down
/// the middle of a 10 × 68 map, open at the top row and the bottom two),
/// against the default planner's path: each arm's upper part is one region
/// of its sector, so the route stays inside it. With the budget at one byte
/// per cell this map was built with 48-cell sectors and no landmarks, so
/// no recheck: 94 where the way round the bottom costs 42.
#[test]
fn the_short_way_round_a_u_bend_is_found() {
    let rows: Vec<String> = (0..68)
        .map(|y| {
            (0..10)
                .map(|x| {
                    if x == 5 && (1..=65).contains(&y) {
                        '@'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let grid = Grid::from_rows(&rows).expect("a valid map");
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
    let mut planner = Planner::new(Config::default()).expect("default settings");
    let mut worst = 1.0f64;
    for y in (30..=62).step_by(4) {
        for (sx, gx) in [(2, 8), (4, 6), (0, 9)] {
            let (s, t) = (Point::new(sx, y), Point::new(gx, y));
            let opt = distances(&grid, s)[(y * 10 + gx) as usize];
            let path = planner.find_path(&h, &grid, s, t).expect("a path");
            let len = check_path(&grid, &path.cells, s, t).expect("a valid path");
            worst = worst.max(len / opt);
        }
    }
    assert!(worst <= FLOOR, "worst {worst}");
}
