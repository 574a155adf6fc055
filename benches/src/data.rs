//! Where the Moving AI files are, loading one map with its scenario, and
//! deterministic generated maps.

use regionpath_grid::{
    octile, parse_map, read_scen, Grid, LengthPrecision, Point, ScenRow, Scenario,
};
use regionpath_search::{AStar, Status};
use regionpath_testkit::{Rng64, XorShift64Star};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// Environment variable naming the Moving AI folder (the one holding `maps/`
/// and `scen/`).
pub const MOVINGAI_ENV: &str = "REGIONPATH_MOVINGAI";

/// The workspace root (the folder holding the root `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The Moving AI folder: `$REGIONPATH_MOVINGAI` if set, else
/// `<workspace root>/../shared/movingai`; `None` when it has no `maps/`
/// folder. The data is never copied into the repository.
pub fn movingai_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os(MOVINGAI_ENV) {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => workspace_root().join("..").join("shared").join("movingai"),
    };
    dir.join("maps").is_dir().then_some(dir)
}

/// The message a bench prints when [`movingai_dir`] finds nothing.
pub fn missing_data_message() -> String {
    format!(
        "regionpath-benches: Moving AI data not found (set {MOVINGAI_ENV} to the folder holding \
         maps/ and scen/, or put it at {}); skipping.",
        workspace_root()
            .join("..")
            .join("shared")
            .join("movingai")
            .display()
    )
}

/// The benchmark family of a Moving AI map, from its name.
pub fn family(map: &str) -> &'static str {
    match map {
        "arena" | "lak303d" | "ost003d" | "den520d" | "hrt201n" | "brc202d" | "orz900d" => "dao",
        "ht_chantry" | "w_woundedcoast" => "da2",
        "CatwalkAlley" | "Aurora" | "TheFrozenSea" => "sc1",
        m if m.starts_with("AR") => "bg512",
        m if m.starts_with("Berlin") || m.starts_with("Paris") => "street",
        m if m.starts_with("maze") => "maze512",
        m if m.starts_with("random") => "random512",
        m if m.contains("room") => "room",
        m if m.starts_with("gen-") => "generated",
        _ => "other",
    }
}

/// One map with its scenario rows.
pub struct MapCase {
    /// Map name without `.map` (`den520d`, or `gen-rooms-2048` for a
    /// generated map).
    pub name: String,
    /// Family ([`family`]).
    pub family: &'static str,
    /// The `.map` text as read (empty for generated maps).
    pub text: String,
    /// The parsed grid.
    pub grid: Grid,
    /// Scenario rows for this map, start ≠ goal.
    pub scenario: Scenario,
}

impl MapCase {
    /// Loads `maps/<name>.map` and `scen/<name>.map.scen` from `dir`.
    pub fn load(dir: &Path, name: &str) -> Result<MapCase, String> {
        let map_path = dir.join("maps").join(format!("{name}.map"));
        let bytes = std::fs::read(&map_path).map_err(|e| format!("{}: {e}", map_path.display()))?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let grid = parse_map(&text).map_err(|e| format!("{}: {e:?}", map_path.display()))?;
        let scen_path = dir.join("scen").join(format!("{name}.map.scen"));
        let mut scenario =
            read_scen(&scen_path).map_err(|e| format!("{}: {e:?}", scen_path.display()))?;
        scenario.rows.retain(|r| r.start != r.goal);
        Ok(MapCase {
            name: name.to_string(),
            family: family(name),
            text,
            grid,
            scenario,
        })
    }

    /// Cells (width × height).
    pub fn cells(&self) -> u64 {
        self.grid.cell_count()
    }
}

/// A small deterministic generator (`regionpath-testkit`'s xorshift64*), so
/// generated maps are the same on every run and machine; `below` draws by
/// multiply-shift.
#[derive(Clone, Debug)]
pub struct Rng(XorShift64Star);

impl Rng {
    /// A generator from a seed (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(XorShift64Star::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u32) -> u32 {
        self.0.below_scaled(n)
    }
}

/// A generated "rooms" world of `size` × `size` cells: square rooms of
/// `room` cells separated by one-cell walls, one to four doors of width 1–3
/// in every wall between two rooms, and small blocks (1×1 to 3×3) scattered
/// over about `clutter_percent` % of the floor. Queries: `rows` start/goal
/// pairs on the largest connected area, their octile distance spread evenly
/// up to the map size; the "optimal" length of each is computed with
/// regionpath's A* (which the real-map benches check against the Moving AI
/// optima), printed to 8 decimals.
pub fn generated_rooms(
    size: u32,
    room: u32,
    clutter_percent: u32,
    rows: usize,
    seed: u64,
) -> MapCase {
    let mut rng = Rng::new(seed);
    let mut grid = Grid::new(size, size, true).expect("generated size is valid");
    let block = |grid: &mut Grid, x: u32, y: u32| {
        if x < size && y < size {
            grid.set_passable(Point::new(x, y), false)
                .expect("in bounds");
        }
    };
    // Walls.
    let mut k = room;
    while k < size {
        for t in 0..size {
            block(&mut grid, k, t);
            block(&mut grid, t, k);
        }
        k += room + 1;
    }
    // Doors: for each wall segment between two rooms.
    let open = |grid: &mut Grid, x: u32, y: u32| {
        if x < size && y < size {
            grid.set_passable(Point::new(x, y), true)
                .expect("in bounds");
        }
    };
    let step = room + 1;
    let mut wall = room;
    while wall < size {
        let mut seg = 0;
        while seg < size {
            for vertical in [true, false] {
                let doors = 1 + rng.below(4);
                for _ in 0..doors {
                    let width = 1 + rng.below(3);
                    let at = seg + rng.below(room.saturating_sub(width).max(1));
                    for w in 0..width {
                        if vertical {
                            open(&mut grid, wall, at + w);
                        } else {
                            open(&mut grid, at + w, wall);
                        }
                    }
                }
            }
            seg += step;
        }
        wall += step;
    }
    // Clutter inside rooms (never on wall lines, so doors stay open).
    let floor = size as u64 * size as u64;
    let mut placed = 0u64;
    let target = floor * clutter_percent as u64 / 100;
    while placed < target {
        let (x, y) = (rng.below(size), rng.below(size));
        let (bw, bh) = (1 + rng.below(3), 1 + rng.below(3));
        for dy in 0..bh {
            for dx in 0..bw {
                let (px, py) = (x + dx, y + dy);
                if px < size && py < size && px % step != room && py % step != room {
                    block(&mut grid, px, py);
                }
            }
        }
        placed += (bw * bh) as u64;
    }

    // Largest connected area (8-connected, no corner cutting).
    let comp = largest_component(&grid);
    let cells: Vec<Point> = comp;
    let mut member = vec![false; (size * size) as usize];
    for p in &cells {
        member[(p.y * size + p.x) as usize] = true;
    }
    let mut astar = AStar::new();
    let mut path = Vec::new();
    let mut out = Vec::with_capacity(rows);
    let max_d = size as f64 * 1.2;
    let mut line = 2;
    while out.len() < rows {
        let s = cells[rng.below(cells.len() as u32) as usize];
        // Target distance spread evenly over (4, max_d).
        let want = 4.0 + (max_d - 4.0) * (out.len() as f64 + 0.5) / rows as f64;
        let mut found = None;
        for _ in 0..64 {
            let g = cells[rng.below(cells.len() as u32) as usize];
            let d = octile(s, g);
            if (d - want).abs() <= want * 0.15 + 2.0 && g != s {
                found = Some(g);
                break;
            }
            // Pull a random cell toward the wanted distance.
            let ang = (rng.below(3600) as f64 / 3600.0) * std::f64::consts::TAU;
            let gx = s.x as f64 + want * ang.cos();
            let gy = s.y as f64 + want * ang.sin();
            if gx >= 0.0 && gy >= 0.0 && gx < size as f64 && gy < size as f64 {
                let g = Point::new(gx as u32, gy as u32);
                if member[(g.y * size + g.x) as usize] && g != s {
                    found = Some(g);
                    break;
                }
            }
        }
        let Some(g) = found else { continue };
        let stats = astar
            .find_path_into(&grid, s, g, &mut path)
            .expect("generated queries are on passable cells");
        assert_eq!(stats.status, Status::Found, "same component");
        let optimal = (stats.cost * 1e8).round() / 1e8;
        out.push(ScenRow {
            bucket: (optimal / 4.0) as u32,
            map: format!("gen-rooms-{size}.map"),
            map_width: size,
            map_height: size,
            start: s,
            goal: g,
            optimal,
            line,
        });
        line += 1;
    }
    out.sort_by(|a, b| a.optimal.total_cmp(&b.optimal));
    MapCase {
        name: format!("gen-rooms-{size}"),
        family: "generated",
        text: String::new(),
        grid,
        scenario: Scenario {
            rows: out,
            precision: LengthPrecision::Decimals(8),
        },
    }
}

/// The cells of the largest 8-connected (no corner cutting) area.
pub fn largest_component(grid: &Grid) -> Vec<Point> {
    let (w, h) = (grid.width(), grid.height());
    let mut seen = vec![false; w as usize * h as usize];
    let mut best: Vec<Point> = Vec::new();
    let mut queue = VecDeque::new();
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x, y);
            let i = (y * w + x) as usize;
            if seen[i] || !grid.is_passable(p) {
                continue;
            }
            seen[i] = true;
            queue.push_back(p);
            let mut comp = Vec::new();
            while let Some(q) = queue.pop_front() {
                comp.push(q);
                for (n, _) in grid.neighbors(q, regionpath_grid::Connectivity::Eight) {
                    let j = (n.y * w + n.x) as usize;
                    if !seen[j] {
                        seen[j] = true;
                        queue.push_back(n);
                    }
                }
            }
            if comp.len() > best.len() {
                best = comp;
            }
        }
    }
    best
}
