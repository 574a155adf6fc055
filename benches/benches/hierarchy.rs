//! Hierarchy build, incremental update and batch queries, each with one and
//! two threads (rayon pools of that size), on large Moving AI maps.
//!
//! Groups:
//! * `build/<map>`: `Hierarchy::build`, serial config vs parallel on a
//!   1-thread and a 2-thread pool; throughput in cells.
//! * `update/<map>`: `Hierarchy::update` after toggling 16 scattered cells
//!   (toggled back between iterations, so every iteration does the same work).
//! * `batch/<map>`: `Planner::find_paths` on 256 scenario queries, 1 vs
//!   2 threads; throughput in queries.
//!
//! Without the Moving AI data the bench prints a message and exits.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use regionpath::grid::Point;
use regionpath::{Hierarchy, HierarchyConfig, Planner};
use regionpath_benches::data::{missing_data_message, movingai_dir, MapCase, Rng};

const MAPS: &[&str] = &["TheFrozenSea", "Berlin_0_1024", "maze512-8-0"];

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool")
}

fn benches(c: &mut Criterion) {
    let Some(dir) = movingai_dir() else {
        eprintln!("{}", missing_data_message());
        return;
    };
    // Test mode (`cargo test --benches`) runs each closure once: keep it to one map.
    let maps: &[&str] = if std::env::args().any(|a| a == "--bench") {
        MAPS
    } else {
        &MAPS[..1]
    };
    for name in maps {
        let case = match MapCase::load(&dir, name) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("skipping {name}: {e}");
                continue;
            }
        };
        let grid = &case.grid;
        let mut g = c.benchmark_group(format!("build/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(grid.cell_count()));
        let serial = HierarchyConfig::new().parallel(false);
        g.bench_function("serial", |b| {
            b.iter(|| Hierarchy::build(black_box(grid), &serial).expect("build"))
        });
        for threads in [1usize, 2] {
            let p = pool(threads);
            g.bench_function(format!("parallel, {threads} thread(s)"), |b| {
                b.iter(|| {
                    p.install(|| Hierarchy::build(black_box(grid), &HierarchyConfig::default()))
                        .expect("build")
                })
            });
        }
        g.finish();

        let mut g = c.benchmark_group(format!("update/{name}"));
        g.sample_size(10);
        let mut hierarchy = Hierarchy::build(grid, &serial).expect("build");
        let mut edited = grid.clone();
        let mut rng = Rng::new(5);
        let cells: Vec<Point> = (0..16)
            .map(|_| Point::new(rng.below(grid.width()), rng.below(grid.height())))
            .collect();
        g.bench_function("16 cells", |b| {
            b.iter(|| {
                for p in &cells {
                    let now = edited.is_passable(*p);
                    edited.set_passable(*p, !now).expect("in bounds");
                }
                hierarchy.update(&edited, &cells).expect("update")
            })
        });
        g.finish();

        let hierarchy = Hierarchy::build(grid, &HierarchyConfig::default()).expect("build");
        let rows = &case.scenario.rows;
        let step = (rows.len() / 256).max(1);
        let queries: Vec<(Point, Point)> = rows
            .iter()
            .step_by(step)
            .take(256)
            .map(|r| (r.start, r.goal))
            .collect();
        let mut g = c.benchmark_group(format!("batch/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(queries.len() as u64));
        let planner = Planner::default();
        for threads in [1usize, 2] {
            let p = pool(threads);
            g.bench_function(format!("{threads} thread(s)"), |b| {
                b.iter(|| p.install(|| planner.find_paths(&hierarchy, grid, black_box(&queries))))
            });
        }
        g.finish();
    }
}

criterion_group!(hierarchy_benches, benches);
criterion_main!(hierarchy_benches);
