//! Large worlds: full queries and first legs through the abstraction levels
//! on 16k² and 32k² maps made by `regionpath generate` (rooms and caves;
//! `--tile` for mirror-tiled ones), beside the same planner with one level.
//!
//! Groups, per map:
//! * `large/<map>`: 30 full queries between random cells a third of the
//!   map apart (one iteration plans all 30), with the levels and with one
//!   level (`levels_from(u32::MAX)`); 30 first legs (`start` + `next_leg`).
//!
//! Maps come from the folder named by `$REGIONPATH_LARGE_MAPS` (every
//! `*.map` in it); without it the bench says so and exits. The build's
//! time and bytes per cell are printed once per map (a 32k² build takes
//! tens of seconds, too long for criterion's ten samples).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use regionpath_benches::data::Rng;
use regionpath_grid::{octile, read_map, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlannerConfig};
use std::time::Instant;

const ENV: &str = "REGIONPATH_LARGE_MAPS";

fn benches(c: &mut Criterion) {
    let Some(dir) = std::env::var_os(ENV) else {
        eprintln!(
            "large: set {ENV} to a folder of large maps (for example `regionpath generate --kind rooms \
             --width 16384 --height 16384 --seed 7 -o DIR/rooms-16384.map`); skipping"
        );
        return;
    };
    let mut maps: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "map"))
            .collect(),
        Err(e) => {
            eprintln!(
                "large: cannot read {}: {e}; skipping",
                dir.to_string_lossy()
            );
            return;
        }
    };
    maps.sort();
    for path in maps {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let grid = match read_map(&path) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("large: skipping {name}: {e}");
                continue;
            }
        };
        let t = Instant::now();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
        let st = h.stats();
        eprintln!(
            "large/{name}: build {:.1} s, {} regions, {} levels, {:.3} bytes per cell",
            t.elapsed().as_secs_f64(),
            st.regions,
            st.levels,
            st.bytes as f64 / st.cells as f64
        );
        // 30 pairs a third of the map apart, in one component.
        let mut rng = Rng::new(11);
        let far = grid.width().max(grid.height()) as f64 / 3.0;
        let mut pick = || loop {
            let p = Point::new(rng.below(grid.width()), rng.below(grid.height()));
            if let Some(r) = h.region_of(&grid, p) {
                return (p, r);
            }
        };
        let mut pairs = Vec::new();
        while pairs.len() < 30 {
            let ((s, rs), (g, rg)) = (pick(), pick());
            if h.regions_connected(rs, rg) && octile(s, g) >= far {
                pairs.push((s, g));
            }
        }
        let mut group = c.benchmark_group(format!("large/{name}"));
        group.sample_size(10);
        let mut out = Vec::new();
        for (label, config) in [
            ("30 full queries, levels", PlannerConfig::new()),
            (
                "30 full queries, one level",
                PlannerConfig::new().levels_from(u32::MAX),
            ),
        ] {
            let mut planner = CellPlanner::with_config(config).expect("valid settings");
            group.bench_function(label, |b| {
                b.iter(|| {
                    for &(s, g) in &pairs {
                        black_box(planner.find_path_into(&h, &grid, s, g, &mut out))
                            .expect("a path");
                    }
                })
            });
        }
        let mut planner = CellPlanner::new();
        group.bench_function("30 first legs", |b| {
            b.iter(|| {
                for &(s, g) in &pairs {
                    let mut q = planner.start(&h, &grid, s, g).expect("start");
                    out.clear();
                    black_box(planner.next_leg(&mut q, &h, &grid, &mut out)).expect("a leg");
                }
            })
        });
        group.finish();
    }
}

criterion_group!(large, benches);
criterion_main!(large);
