//! Lazy queries hand out simple paths: the concatenation of the legs of a
//! [`CellPlanner::start`] / [`CellPlanner::next_leg`] query visits no cell
//! twice, is contiguous and legal, and ends at the goal, checked against
//! the test kit's path validator and Dijkstra on looped mazes, room maps
//! and random maps (and the Moving AI mazes when present).

mod common;

use common::{dijkstra, maze_grid, movingai_dir, passable_cells};
use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlanError, PlannerConfig};
use regionpath_testkit::check::{check_path, repeated_cell};
use regionpath_testkit::maps;
use regionpath_testkit::{Rng64, SplitMix64 as Rng};

/// Rooms of random sizes joined by one- or two-cell doors, with some walls
/// knocked out: many small loops through doorways.
fn rooms_grid(rng: &mut Rng, w: u32, h: u32) -> Grid {
    let mut g = Grid::new(w, h, true).unwrap();
    let step = 5 + rng.below(6) as u32;
    for k in (0..w).step_by(step as usize) {
        for y in 0..h {
            g.set_passable(Point::new(k, y), false).unwrap();
        }
    }
    for k in (0..h).step_by(step as usize) {
        for x in 0..w {
            g.set_passable(Point::new(x, k), false).unwrap();
        }
    }
    for _ in 0..(w * h) / 12 {
        let p = Point::new(rng.below(w as u64) as u32, rng.below(h as u64) as u32);
        g.set_passable(p, true).unwrap();
    }
    g
}

/// Counts of one run of lazy queries against Dijkstra and the full path.
#[derive(Default, Debug)]
struct Tally {
    queries: u32,
    unreachable: u32,
    /// Queries whose lazy cells repeat a cell.
    repeats: u32,
    /// Summed lazy, full and optimal lengths.
    lazy: f64,
    full: f64,
    optimal: f64,
    /// Largest ratio of the lazy length to the optimum.
    worst: f64,
}

/// Runs `queries` random lazy queries on `g` and checks each against
/// Dijkstra: refused exactly when unreachable, otherwise a valid path.
fn run(g: &Grid, hi: &Hierarchy, rng: &mut Rng, queries: u32, t: &mut Tally) {
    run_with(g, hi, rng, queries, PlannerConfig::new(), t);
}

/// [`run`] with a planner of `config`.
fn run_with(
    g: &Grid,
    hi: &Hierarchy,
    rng: &mut Rng,
    queries: u32,
    config: PlannerConfig,
    t: &mut Tally,
) {
    let cells = passable_cells(g);
    let mut planner = CellPlanner::with_config(config).unwrap();
    let mut full_planner = CellPlanner::new();
    let (mut legs, mut full) = (Vec::new(), Vec::new());
    let per_start = 8;
    for _ in 0..queries.div_ceil(per_start) {
        let s = cells[rng.below(cells.len() as u64) as usize];
        let dist = dijkstra(g, s);
        for _ in 0..per_start {
            let goal = cells[rng.below(cells.len() as u64) as usize];
            let opt = dist[goal.y as usize * g.width() as usize + goal.x as usize];
            let mut q = match planner.start(hi, g, s, goal) {
                Ok(q) => q,
                Err(PlanError::Unreachable { .. }) => {
                    assert!(opt.is_infinite(), "{s} -> {goal}: reachable, refused");
                    t.unreachable += 1;
                    continue;
                }
                Err(e) => panic!("{s} -> {goal}: {e}"),
            };
            assert!(opt.is_finite(), "{s} -> {goal}: no path exists");
            legs.clear();
            let mut n = 0;
            while planner.next_leg(&mut q, hi, g, &mut legs).unwrap() {
                n += 1;
                assert!(n < 100_000, "{s} -> {goal}: legs never end");
            }
            t.queries += 1;
            if let Some(p) = repeated_cell(&legs) {
                t.repeats += 1;
                if t.repeats <= 3 {
                    eprintln!("{s} -> {goal}: lazy path repeats {p}");
                }
            }
            let len = check_path(g, &legs, s, goal)
                .unwrap_or_else(|e| panic!("{s} -> {goal}: invalid lazy path: {e}"));
            assert!(len >= opt - 1e-6, "{s} -> {goal}: {len} < optimum {opt}");
            full_planner
                .find_path_into(hi, g, s, goal, &mut full)
                .unwrap();
            t.lazy += len;
            t.full += check_path(g, &full, s, goal).unwrap();
            t.optimal += opt;
            if opt > 0.0 {
                t.worst = t.worst.max(len / opt);
            }
        }
    }
}

fn report(name: &str, t: &Tally) {
    eprintln!(
        "{name}: {} lazy queries ({} unreachable refused), {} with a repeated cell; \
         lazy / optimal {:.4}, full / optimal {:.4}, worst lazy / optimal {:.3}",
        t.queries,
        t.unreachable,
        t.repeats,
        t.lazy / t.optimal.max(1e-9),
        t.full / t.optimal.max(1e-9),
        t.worst
    );
}

/// Looped mazes (one-cell corridors with walls knocked out), room maps
/// and random maps, sector sizes 8 and 16: thousands of lazy queries, none
/// with a repeated cell, within a few percent of Dijkstra's lengths.
#[test]
fn lazy_paths_never_revisit_a_cell() {
    let mut rng = Rng(306);
    let mut all = Tally::default();
    for round in 0..14u32 {
        let (w, h) = (
            (120 + rng.below(140) as u32) | 1,
            (100 + rng.below(120) as u32) | 1,
        );
        let g = match round % 3 {
            0 | 1 => {
                let loops = (w * h) / [12, 40][round as usize % 2];
                maze_grid(&mut |n| rng.below(n), w, h, loops)
            }
            _ => rooms_grid(&mut rng, w, h),
        };
        let config = HierarchyConfig::new()
            .sector_size([8, 16][(round / 3) as usize % 2])
            .fit_memory(false);
        let hi = Hierarchy::build(&g, &config).unwrap();
        run(&g, &hi, &mut rng, 250, &mut all);
    }
    report("generated maps", &all);
    assert!(all.queries >= 2500, "{all:?}");
    assert_eq!(all.repeats, 0, "{all:?}");
    // A quick start's partial route heads where the whole route goes: no
    // walk goes round the map for a first leg that set off the wrong way
    // (a cluster route's partial routes: 1.064 in sum, the worst 3.39).
    assert!(all.lazy / all.optimal <= 1.04, "{all:?}");
    assert!(all.worst <= 2.0, "{all:?}");
}

/// The Moving AI mazes with loops (maze512-8, maze512-32), as loaded by
/// the benchmarks: lazy paths without repeated cells. Skipped without the
/// data unless `CI` is set.
#[test]
fn lazy_paths_on_movingai_mazes_never_revisit_a_cell() {
    let dir = movingai_dir().join("maps");
    let mut all = Tally::default();
    for name in ["maze512-8-0.map", "maze512-32-0.map"] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            assert!(std::env::var_os("CI").is_none(), "{name} is missing");
            eprintln!("{name} not found: skipped");
            return;
        };
        let g = regionpath_grid::parse_map(&text).unwrap();
        let hi = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
        let mut rng = Rng(512);
        let mut t = Tally::default();
        run(&g, &hi, &mut rng, 200, &mut t);
        report(name, &t);
        all.queries += t.queries;
        all.repeats += t.repeats;
    }
    assert_eq!(all.repeats, 0, "{all:?}");
}

/// A lazy leg short of the goal holds its last cells back for the next leg
/// to search again (up to `PlannerConfig::join_radius`), which straightens
/// the join as a full query's legs starting back do. On maps of scattered
/// obstacles and of rooms, the lazy walks' summed length against
/// Dijkstra's, with the default radius and with none (every leg handed out
/// whole): still simple, valid paths, and shorter.
#[test]
fn lazy_legs_straighten_their_joins() {
    let mut rng = Rng(4242);
    let (mut held, mut whole) = (Tally::default(), Tally::default());
    for round in 0..6u32 {
        let (w, h) = (150 + rng.below(100) as u32, 150 + rng.below(100) as u32);
        let g = if round % 2 == 0 {
            maps::obstacles(w, h, [10, 20, 30][round as usize / 2], &mut |n| {
                rng.below(n)
            })
        } else {
            rooms_grid(&mut rng, w, h)
        };
        let hi = Hierarchy::build(&g, &HierarchyConfig::new().fit_memory(false)).unwrap();
        let seed = rng.below(u64::MAX);
        let config = PlannerConfig::new();
        run_with(&g, &hi, &mut Rng(seed), 250, config, &mut held);
        let config = PlannerConfig::new().join_radius(0);
        run_with(&g, &hi, &mut Rng(seed), 250, config, &mut whole);
    }
    report("legs holding back", &held);
    report("whole legs", &whole);
    assert_eq!(held.queries, whole.queries);
    assert!(held.queries >= 600, "{held:?}");
    assert_eq!(held.repeats + whole.repeats, 0, "{held:?} {whole:?}");
    let (h, w) = (held.lazy / held.optimal, whole.lazy / whole.optimal);
    assert!(h <= 1.04, "{held:?}");
    assert!(h < w - 0.01, "held back {h}, whole {w}");
}
