//! A fixed sample of smoothing calls, for instruction counts (callgrind) and
//! for comparing waypoints between versions.
//!
//! First computes optimal 8-connected paths (plain A*) on every `--every`th
//! scenario row of the given maps and writes them to `--paths FILE`; later
//! runs read that file, so a profiler sees only the smoothing calls. Each
//! path is smoothed once per radius with the full smoother; `--dump FILE`
//! writes every waypoint (bit-exact) to compare versions. Prints the mean
//! smoothed / input length and the wall-clock time spent smoothing.
//!
//! ```text
//! cargo run --release -p xtask -- sample \
//!     --paths /tmp/paths.txt [--make] [--every 64] [--radius 0] [--dump FILE] \
//!     [--data ../shared/movingai (or $REGIONPATH_MOVINGAI)] [all | MAP...]
//! valgrind --tool=callgrind --toggle-collect='*smooth_one*' \
//!     target/release/xtask sample --paths /tmp/paths.txt --radius 0
//! ```

use regionpath_grid::{read_map, read_scen, Grid, Point};
use regionpath_smoothing::{polyline_length, SmoothOptions, SmoothReport, Smoother, Vec2};
use std::fmt::Write as _;

use crate::astar::{AStar, GAME_MAPS, OTHER_MAPS};

/// One smoothing call, kept out of line so that a profiler can count it
/// alone (`--toggle-collect='*smooth_one*'`).
#[inline(never)]
fn smooth_one(
    smoother: &mut Smoother,
    grid: &Grid,
    cells: &[Point],
    opts: &SmoothOptions,
    out: &mut Vec<Vec2>,
) -> SmoothReport {
    smoother.smooth(grid, cells, opts, out).expect("valid path")
}

/// Runs the subcommand with its arguments (after the subcommand's name).
pub fn run(args: Vec<String>) {
    let mut data =
        std::env::var("REGIONPATH_MOVINGAI").unwrap_or_else(|_| "../shared/movingai".to_string());
    let mut every = 64usize;
    let mut radii: Vec<f32> = Vec::new();
    let mut paths_file = String::from("/tmp/regionpath-smoothing-sample.txt");
    let mut make = false;
    let mut dump: Option<String> = None;
    let mut maps: Vec<String> = Vec::new();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--data" => data = args.next().expect("--data DIR"),
            "--every" => every = args.next().and_then(|v| v.parse().ok()).expect("--every N"),
            "--radius" => radii.push(
                args.next()
                    .and_then(|v| v.parse().ok())
                    .expect("--radius R"),
            ),
            "--paths" => paths_file = args.next().expect("--paths FILE"),
            "--make" => make = true,
            "--dump" => dump = Some(args.next().expect("--dump FILE")),
            "all" => maps.extend(GAME_MAPS.iter().chain(OTHER_MAPS).map(|s| s.to_string())),
            _ => maps.push(a),
        }
    }
    if maps.is_empty() {
        maps.extend(GAME_MAPS.iter().chain(OTHER_MAPS).map(|s| s.to_string()));
    }
    if radii.is_empty() {
        radii.push(0.0);
    }
    if make {
        // One line per path: map name, then x,y pairs.
        let mut text = String::new();
        for name in &maps {
            let grid = read_map(format!("{data}/maps/{name}.map")).expect("map");
            let scen = read_scen(format!("{data}/scen/{name}.map.scen")).expect("scen");
            let mut astar = AStar::new(grid.cell_count() as usize);
            for row in scen.rows.iter().step_by(every.max(1)) {
                if row.start == row.goal {
                    continue;
                }
                let Some((path, _)) = astar.path(&grid, row.start, row.goal) else {
                    continue;
                };
                text.push_str(name);
                for p in &path {
                    let _ = write!(text, " {},{}", p.x, p.y);
                }
                text.push('\n');
            }
        }
        std::fs::write(&paths_file, text).expect("write paths");
        return;
    }
    let text = std::fs::read_to_string(&paths_file).expect("read paths (run with --make first)");
    let mut grids: Vec<(String, Grid)> = Vec::new();
    let mut problems: Vec<(usize, Vec<Point>)> = Vec::new();
    for line in text.lines() {
        let mut it = line.split(' ');
        let name = it.next().expect("name");
        let gi = match grids.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None => {
                let g = read_map(format!("{data}/maps/{name}.map")).expect("map");
                grids.push((name.to_string(), g));
                grids.len() - 1
            }
        };
        let cells = it
            .map(|s| {
                let (x, y) = s.split_once(',').expect("x,y");
                Point::new(x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect();
        problems.push((gi, cells));
    }
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    let mut dumped = String::new();
    for &radius in &radii {
        let opts = SmoothOptions::with_radius(radius);
        let (mut sum_ratio, mut wps, mut narrow) = (0.0, 0usize, 0usize);
        let mut time = std::time::Duration::ZERO;
        for (gi, cells) in &problems {
            let start = std::time::Instant::now();
            let report = smooth_one(&mut smoother, &grids[*gi].1, cells, &opts, &mut out);
            time += start.elapsed();
            sum_ratio += polyline_length(&out) / report.input_length;
            wps += out.len();
            narrow += report.narrow_segments;
            if dump.is_some() {
                let _ = write!(dumped, "{radius}");
                for w in &out {
                    let _ = write!(dumped, " {:08x},{:08x}", w.x.to_bits(), w.y.to_bits());
                }
                dumped.push('\n');
            }
        }
        println!(
            "radius {radius}: {} paths, mean smoothed/input {:.6}, {wps} waypoints, {narrow} narrow, smoothing time {:.1} ms",
            problems.len(),
            sum_ratio / problems.len().max(1) as f64,
            time.as_secs_f64() * 1e3
        );
    }
    if let Some(f) = dump {
        std::fs::write(f, dumped).expect("write dump");
    }
}
