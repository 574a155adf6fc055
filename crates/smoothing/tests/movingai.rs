//! Smoothing on real Moving AI benchmark maps (ignored by default: needs the
//! benchmark files, and is meant for release builds).
//!
//! ```text
//! MOVINGAI_DIR=/work/shared/movingai cargo test --release -p regionpath-smoothing \
//!     --test movingai -- --ignored --nocapture
//! ```

mod common;

use common::*;
use regionpath_grid::{read_map, read_scen};
use regionpath_smoothing::{polyline_length, SmoothOptions, Smoother, Vec2};

fn v(p: Vec2) -> V {
    (p.x as f64, p.y as f64)
}

#[test]
#[ignore]
fn benchmark_maps_quality_and_clearance() {
    let dir = std::env::var("MOVINGAI_DIR").unwrap_or_else(|_| "/work/shared/movingai".into());
    if !std::path::Path::new(&dir).join("maps").is_dir() {
        eprintln!("no benchmark data under {dir}; skipping");
        return;
    }
    let mut rng = Rng(1);
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    for name in [
        "den520d",
        "AR0011SR",
        "Berlin_0_256",
        "orz900d",
        "random512-25-0",
    ] {
        let grid = read_map(format!("{dir}/maps/{name}.map")).unwrap();
        let scen = read_scen(format!("{dir}/scen/{name}.map.scen")).unwrap();
        let rows = 60;
        let stride = (scen.rows.len() / rows).max(1);
        let (mut sum, mut max, mut n) = (0.0, 0.0f64, 0);
        for row in scen.rows.iter().step_by(stride).take(rows) {
            if row.start == row.goal {
                continue;
            }
            let cells = dijkstra(&grid, row.start, row.goal, &mut rng, 0.0).unwrap();
            assert!(
                (cell_path_length(&cells) - row.optimal).abs() < 0.01,
                "{name} line {}",
                row.line
            );
            for radius in [0.0f32, 0.5] {
                let report = smoother
                    .smooth(&grid, &cells, &SmoothOptions::with_radius(radius), &mut out)
                    .unwrap();
                assert!(polyline_length(&out) <= cell_path_length(&cells) + 1e-9);
                let mut not_clear = 0;
                for w in out.windows(2) {
                    if !independently_clear(&grid, v(w[0]), v(w[1]), radius as f64) {
                        assert!(
                            radius > 0.0,
                            "{name} line {}: {} -> {}",
                            row.line,
                            w[0],
                            w[1]
                        );
                        not_clear += 1;
                    }
                }
                assert!(not_clear <= report.narrow_segments);
                if radius == 0.0 {
                    // The exact optimum (the file prints it rounded).
                    let ratio = polyline_length(&out) / cell_path_length(&cells);
                    sum += ratio;
                    max = max.max(ratio);
                    n += 1;
                }
            }
        }
        let mean = sum / n as f64;
        println!("{name}: {n} paths, smoothed / optimal: mean {mean:.4}, max {max:.4}");
        assert!(max <= 1.0 + 1e-9);
        assert!(mean <= 0.965, "{name}: mean {mean}");
    }
}
