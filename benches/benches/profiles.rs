//! Queries under movement profiles on the bundled painted maps
//! (`maps/terrain/`) with their profiles (`maps/profiles/`): needs no
//! Moving AI data.
//!
//! Groups:
//! * `profiles/<map>/<unit>`: 64 scenario rows, the exact weighted A*
//!   (`AStar::find_path_weighted_into`) against the hierarchical planner
//!   (`Planner::find_path_into` over `Hierarchy::build_with_profile`);
//!   throughput in queries.
//! * `legs/<map>/<unit>`: 256 searches inside 60 × 60 windows between
//!   usable positions up to 40 cells apart (the size of a leg), windowed
//!   A* (`WindowedAStar::find_path_weighted_into`) against jump point
//!   search under the same costs (`WindowedJps::find_path_weighted_into`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use regionpath::grid::{read_map, read_scen, Point, Profile, ProfileGrid};
use regionpath::{Config, Hierarchy, HierarchyConfig, Path as PlannedPath, Planner};
use regionpath_benches::data::Rng;
use regionpath_search::{AStar, StepTable, Window, WindowedAStar, WindowedJps};
use std::path::Path;

const MAPS: &[&str] = &["terrain-rooms-512", "terrain-caves-256"];
const UNITS: &[&str] = &["infantry", "tank"];

/// Pairs of usable positions of `view` up to `reach` cells apart (each
/// axis), `n` of them, seeded.
fn near_pairs(view: &ProfileGrid, n: usize, reach: u32, seed: u64) -> Vec<(Point, Point)> {
    let (w, h) = (view.grid().width(), view.grid().height());
    let mut rng = Rng::new(seed);
    let mut pairs = Vec::with_capacity(n);
    while pairs.len() < n {
        let s = Point::new(rng.below(w), rng.below(h));
        if !view.is_usable(s) {
            continue;
        }
        let g = Point::new(
            (s.x + rng.below(2 * reach + 1))
                .saturating_sub(reach)
                .min(w - 1),
            (s.y + rng.below(2 * reach + 1))
                .saturating_sub(reach)
                .min(h - 1),
        );
        if g != s && view.is_usable(g) {
            pairs.push((s, g));
        }
    }
    pairs
}

fn benches(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps");
    // Test mode (`cargo test --benches`) runs each closure once: one map
    // and unit.
    let full = std::env::args().any(|a| a == "--bench");
    let (maps, units) = if full {
        (MAPS, UNITS)
    } else {
        (&MAPS[..1], &UNITS[..1])
    };
    for map in maps {
        let grid = read_map(root.join(format!("terrain/{map}.map"))).expect("a bundled map");
        for unit in units {
            let profile =
                Profile::read(root.join(format!("profiles/{unit}.toml"))).expect("a profile");
            let scen = read_scen(root.join(format!("terrain/{map}.{unit}.scen"))).expect("rows");
            let rows: Vec<(Point, Point)> = scen
                .rows
                .iter()
                .take(64)
                .map(|r| (r.start, r.goal))
                .collect();
            let view = ProfileGrid::new(&grid, &profile);
            let table = StepTable::new(&view);

            let mut g = c.benchmark_group(format!("profiles/{map}/{unit}"));
            g.sample_size(10);
            g.throughput(Throughput::Elements(rows.len() as u64));
            let mut exact = AStar::new();
            let mut cells = Vec::new();
            g.bench_function("exact weighted A*", |b| {
                b.iter(|| {
                    for &(s, t) in &rows {
                        exact
                            .find_path_weighted_into(&view, s, t, &mut cells)
                            .expect("a row");
                    }
                    black_box(cells.len())
                })
            });
            let hierarchy = Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::new())
                .expect("a build");
            let mut planner = Planner::new(Config::new()).expect("a planner");
            let mut path = PlannedPath::default();
            g.bench_function("hierarchical", |b| {
                b.iter(|| {
                    for &(s, t) in &rows {
                        planner
                            .find_path_into(&hierarchy, &grid, s, t, &mut path)
                            .expect("a row");
                    }
                    black_box(path.cells.len())
                })
            });
            g.finish();

            let pairs = near_pairs(&view, 256, 40, 11);
            let windows: Vec<Window> = pairs
                .iter()
                .map(|&(s, t)| Window::around(view.grid(), s, t, 60, 60))
                .collect();
            let mut g = c.benchmark_group(format!("legs/{map}/{unit}"));
            g.sample_size(10);
            g.throughput(Throughput::Elements(pairs.len() as u64));
            let mut astar = WindowedAStar::new();
            g.bench_function("windowed A*", |b| {
                b.iter(|| {
                    for (&(s, t), &win) in pairs.iter().zip(&windows) {
                        astar
                            .find_path_weighted_into(&view, &table, 0, win, s, t, None, &mut cells)
                            .expect("a leg");
                    }
                    black_box(cells.len())
                })
            });
            let mut jps = WindowedJps::new();
            g.bench_function("jump point search", |b| {
                b.iter(|| {
                    for (&(s, t), &win) in pairs.iter().zip(&windows) {
                        jps.find_path_weighted_into(
                            &view,
                            &table,
                            win,
                            s,
                            t,
                            |p| table.octile(p, t),
                            &mut cells,
                        )
                        .expect("a leg");
                    }
                    black_box(cells.len())
                })
            });
            g.finish();
        }
    }
}

criterion_group!(profile_benches, benches);
criterion_main!(profile_benches);
