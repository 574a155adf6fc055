//! A fixed sample of smoothing calls, for instruction counts (callgrind) and
//! for comparing waypoints between versions.
//!
//! First computes optimal 8-connected paths (plain A*) on every `--every`th
//! scenario row of the given maps and writes them to `--paths FILE`; later
//! runs read that file, so a profiler sees only the smoothing calls. Each
//! path is smoothed once per radius with the full smoother; `--dump FILE`
//! writes every waypoint (bit-exact) to compare versions.
//!
//! ```text
//! cargo run --release -p regionpath-smoothing --example sample -- \
//!     --paths /tmp/paths.txt [--make] [--every 64] [--radius 0] [--dump FILE] \
//!     [--data /work/shared/movingai] [all | MAP...]
//! valgrind --tool=callgrind --toggle-collect='*Smoother*smooth*' \
//!     target/release/examples/sample --paths /tmp/paths.txt --radius 0
//! ```

use regionpath_grid::{octile, read_map, read_scen, Dir, Grid, Point};
use regionpath_smoothing::{polyline_length, SmoothOptions, Smoother};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;

const ALL_MAPS: &[&str] = &[
    "arena",
    "den520d",
    "brc202d",
    "ost003d",
    "lak303d",
    "hrt201n",
    "orz900d",
    "ht_chantry",
    "w_woundedcoast",
    "AR0011SR",
    "AR0044SR",
    "AR0602SR",
    "CatwalkAlley",
    "Aurora",
    "TheFrozenSea",
    "Berlin_0_256",
    "Paris_1_256",
    "Berlin_0_1024",
    "maze512-1-0",
    "maze512-8-0",
    "maze512-32-0",
    "random512-10-0",
    "random512-25-0",
    "random512-40-0",
    "64room_000",
    "8room_000",
];

/// Plain A* with reusable per-cell arrays.
struct AStar {
    g: Vec<f64>,
    parent: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    heap: BinaryHeap<(Reverse<u64>, u64, u32)>,
}

impl AStar {
    fn new(n: usize) -> Self {
        AStar {
            g: vec![0.0; n],
            parent: vec![0; n],
            seen: vec![0; n],
            stamp: 0,
            heap: BinaryHeap::new(),
        }
    }

    fn path(&mut self, grid: &Grid, s: Point, t: Point) -> Option<(Vec<Point>, f64)> {
        let w = grid.width() as usize;
        let idx = |p: Point| p.y as usize * w + p.x as usize;
        self.stamp += 1;
        self.heap.clear();
        let (si, ti) = (idx(s), idx(t));
        self.g[si] = 0.0;
        self.seen[si] = self.stamp;
        self.parent[si] = si as u32;
        self.heap
            .push((Reverse(octile(s, t).to_bits()), 0, si as u32));
        while let Some((Reverse(fb), gb, i)) = self.heap.pop() {
            let i = i as usize;
            let g = f64::from_bits(u64::MAX - gb);
            if gb != 0 && g > self.g[i] {
                continue;
            }
            let _ = fb;
            if i == ti {
                break;
            }
            let p = Point::new((i % w) as u32, (i / w) as u32);
            for d in Dir::ALL {
                if !grid.can_step(p, d) {
                    continue;
                }
                let (dx, dy) = d.delta();
                let q = Point::new((p.x as i32 + dx) as u32, (p.y as i32 + dy) as u32);
                let qi = idx(q);
                let ng = self.g[i] + d.cost();
                if self.seen[qi] != self.stamp || ng < self.g[qi] - 1e-12 {
                    self.seen[qi] = self.stamp;
                    self.g[qi] = ng;
                    self.parent[qi] = i as u32;
                    let f = ng + octile(q, t);
                    // Ties on f: larger g first.
                    self.heap
                        .push((Reverse(f.to_bits()), u64::MAX - ng.to_bits(), qi as u32));
                }
            }
        }
        if self.seen[ti] != self.stamp {
            return None;
        }
        let mut path = vec![t];
        let mut i = ti;
        while i != si {
            i = self.parent[i] as usize;
            path.push(Point::new((i % w) as u32, (i / w) as u32));
        }
        path.reverse();
        Some((path, self.g[ti]))
    }
}

fn main() {
    let mut data = String::from("/work/shared/movingai");
    let mut every = 64usize;
    let mut radii: Vec<f32> = Vec::new();
    let mut paths_file = String::from("/tmp/regionpath-smoothing-sample.txt");
    let mut make = false;
    let mut dump: Option<String> = None;
    let mut maps: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
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
            "all" => maps.extend(ALL_MAPS.iter().map(|s| s.to_string())),
            _ => maps.push(a),
        }
    }
    if maps.is_empty() {
        maps.extend(ALL_MAPS.iter().map(|s| s.to_string()));
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
        for (gi, cells) in &problems {
            let report = smoother
                .smooth(&grids[*gi].1, cells, &opts, &mut out)
                .expect("valid path");
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
            "radius {radius}: {} paths, mean smoothed/input {:.6}, {wps} waypoints, {narrow} narrow",
            problems.len(),
            sum_ratio / problems.len().max(1) as f64
        );
    }
    if let Some(f) = dump {
        std::fs::write(f, dumped).expect("write dump");
    }
}
