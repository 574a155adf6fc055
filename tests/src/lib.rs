//! Shared helpers for the regionpath integration tests.
//!
//! * Where the Moving AI benchmark data lives ([`movingai_dir`]) and what a
//!   test does when it is missing ([`movingai_or_skip`]: skip with a clear
//!   message, or fail when the `CI` environment variable is set).
//! * Oracles written for the tests alone, sharing no code with
//!   `regionpath-search`: a plain Dijkstra ([`dijkstra`]) and a path
//!   validator ([`check_walk`], [`check_route`]).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use regionpath::grid::{Grid, Point};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the root `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// The Moving AI data folder: `$REGIONPATH_MOVINGAI` if set, else
/// `<workspace root>/../shared/movingai`.
pub fn movingai_dir() -> PathBuf {
    match std::env::var_os("REGIONPATH_MOVINGAI") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("..").join("shared").join("movingai"),
    }
}

/// Whether the `CI` environment variable is set (to anything non-empty).
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// The Moving AI folder if it has `maps/` and `scen/`. Otherwise prints
/// "`test`: skipped: Moving AI data not found at …" and returns `None`, or,
/// when `CI` is set, panics: in CI missing data is a failure.
pub fn movingai_or_skip(test: &str) -> Option<PathBuf> {
    let dir = movingai_dir();
    if dir.join("maps").is_dir() && dir.join("scen").is_dir() {
        return Some(dir);
    }
    let message = format!(
        "Moving AI data not found at {} (set REGIONPATH_MOVINGAI to its folder)",
        dir.display()
    );
    if in_ci() {
        panic!("{test}: {message}; CI is set, so this is a failure");
    }
    // Straight to stderr, past the test harness's output capture, so the
    // skip shows in a passing run.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{test}: skipped: {message}");
    None
}

/// The files in `dir` whose names end with `suffix`, sorted by name.
pub fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.ends_with(suffix))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Which moves a path or a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// Up, down, left, right; cost 1.
    Four,
    /// Also the diagonals, cost √2, only when both orthogonally adjacent
    /// cells are passable (no corner cutting).
    Eight,
}

/// A rectangle of cells a search or path must stay in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Area {
    /// Leftmost column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

impl Area {
    /// The whole grid.
    pub fn whole(grid: &Grid) -> Area {
        Area {
            x: 0,
            y: 0,
            width: grid.width(),
            height: grid.height(),
        }
    }

    /// Whether `(x, y)` lies inside.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= i64::from(self.x)
            && y >= i64::from(self.y)
            && x < i64::from(self.x) + i64::from(self.width)
            && y < i64::from(self.y) + i64::from(self.height)
    }
}

/// Whether `(x, y)` is inside `area` and the grid, and passable.
fn open(grid: &Grid, area: Area, x: i64, y: i64) -> bool {
    area.contains(x, y)
        && x < i64::from(grid.width())
        && y < i64::from(grid.height())
        && grid.is_passable(Point::new(x as u32, y as u32))
}

const STEPS: [(i64, i64); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The legal step from `(x, y)` by `(dx, dy)` under `moves` inside `area`,
/// with its cost.
fn step_cost(
    grid: &Grid,
    area: Area,
    moves: Moves,
    x: i64,
    y: i64,
    dx: i64,
    dy: i64,
) -> Option<f64> {
    if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
        return None;
    }
    if !open(grid, area, x + dx, y + dy) {
        return None;
    }
    if dx != 0 && dy != 0 {
        if moves == Moves::Four || !open(grid, area, x + dx, y) || !open(grid, area, x, y + dy) {
            return None;
        }
        return Some(std::f64::consts::SQRT_2);
    }
    Some(1.0)
}

#[derive(PartialEq)]
struct Queued(f64, u64);

impl Eq for Queued {}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The cost of a shortest path from `start` to `goal` that stays in `area`
/// (see [`Moves`]), or `None` when there is none (or an end is blocked or
/// outside `area`). Plain Dijkstra with a binary heap.
pub fn dijkstra(grid: &Grid, start: Point, goal: Point, moves: Moves, area: Area) -> Option<f64> {
    let (sx, sy) = (i64::from(start.x), i64::from(start.y));
    let (gx, gy) = (i64::from(goal.x), i64::from(goal.y));
    if !open(grid, area, sx, sy) || !open(grid, area, gx, gy) {
        return None;
    }
    let w = u64::from(grid.width());
    let key = |x: i64, y: i64| y as u64 * w + x as u64;
    let mut dist = vec![f64::INFINITY; grid.width() as usize * grid.height() as usize];
    dist[key(sx, sy) as usize] = 0.0;
    let mut heap = BinaryHeap::new();
    heap.push(Queued(0.0, key(sx, sy)));
    while let Some(Queued(d, k)) = heap.pop() {
        if d > dist[k as usize] {
            continue;
        }
        let (x, y) = ((k % w) as i64, (k / w) as i64);
        if (x, y) == (gx, gy) {
            return Some(d);
        }
        for (dx, dy) in STEPS {
            if let Some(c) = step_cost(grid, area, moves, x, y, dx, dy) {
                let n = key(x + dx, y + dy) as usize;
                if d + c < dist[n] {
                    dist[n] = d + c;
                    heap.push(Queued(d + c, n as u64));
                }
            }
        }
    }
    None
}

/// Step counts of a checked path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Walk {
    /// Steps of cost 1.
    pub straight: u64,
    /// Steps of cost √2.
    pub diagonal: u64,
}

impl Walk {
    /// straight · 1 + diagonal · √2.
    pub fn length(&self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * std::f64::consts::SQRT_2
    }
}

/// Checks that `path` is non-empty, stays on passable cells of `area`, and
/// moves by single legal steps (see [`Moves`]); returns its step counts.
pub fn check_walk(grid: &Grid, path: &[Point], moves: Moves, area: Area) -> Result<Walk, String> {
    let first = path.first().ok_or("empty path")?;
    if !open(grid, area, i64::from(first.x), i64::from(first.y)) {
        return Err(format!("cell 0 {first} is blocked or outside the area"));
    }
    let mut walk = Walk::default();
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (x, y) = (i64::from(a.x), i64::from(a.y));
        let (dx, dy) = (i64::from(b.x) - x, i64::from(b.y) - y);
        match step_cost(grid, area, moves, x, y, dx, dy) {
            Some(c) if c > 1.0 => walk.diagonal += 1,
            Some(_) => walk.straight += 1,
            None => {
                return Err(format!(
                    "step {} from {a} to {b} is not a legal move",
                    i + 1
                ))
            }
        }
    }
    Ok(walk)
}

/// [`check_walk`], and the path runs from `start` to `goal`.
pub fn check_route(
    grid: &Grid,
    start: Point,
    goal: Point,
    path: &[Point],
    moves: Moves,
    area: Area,
) -> Result<Walk, String> {
    let walk = check_walk(grid, path, moves, area)?;
    if path.first() != Some(&start) {
        return Err(format!("path starts at {:?}, not at {start}", path.first()));
    }
    if path.last() != Some(&goal) {
        return Err(format!("path ends at {:?}, not at {goal}", path.last()));
    }
    Ok(walk)
}

/// A grid from row-major passability flags (`true` = passable).
pub fn grid_from_flags(width: u32, height: u32, passable: &[bool]) -> Grid {
    let rows: Vec<String> = passable
        .chunks(width as usize)
        .take(height as usize)
        .map(|r| r.iter().map(|&p| if p { '.' } else { '@' }).collect())
        .collect();
    Grid::from_rows(&rows).expect("flags make a valid map")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u32, y: u32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn dijkstra_hand_cases() {
        let g = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
        let all = Area::whole(&g);
        assert_eq!(dijkstra(&g, p(0, 1), p(3, 1), Moves::Eight, all), Some(5.0));
        assert_eq!(dijkstra(&g, p(0, 0), p(0, 0), Moves::Eight, all), Some(0.0));
        assert_eq!(dijkstra(&g, p(0, 0), p(1, 1), Moves::Eight, all), None);
        let open = Grid::from_rows(&["...", "...", "..."]).unwrap();
        let d = dijkstra(&open, p(0, 0), p(2, 1), Moves::Eight, Area::whole(&open)).unwrap();
        assert!((d - (1.0 + std::f64::consts::SQRT_2)).abs() < 1e-12);
        assert_eq!(
            dijkstra(&open, p(0, 0), p(2, 1), Moves::Four, Area::whole(&open)),
            Some(3.0)
        );
        // Confined to the bottom row: straight along it.
        let row = Area {
            x: 0,
            y: 2,
            width: 3,
            height: 1,
        };
        assert_eq!(
            dijkstra(&open, p(0, 2), p(2, 2), Moves::Eight, row),
            Some(2.0)
        );
        assert_eq!(dijkstra(&open, p(0, 1), p(2, 2), Moves::Eight, row), None);
        let g = Grid::from_rows(&[".@", "@."]).unwrap();
        assert_eq!(
            dijkstra(&g, p(0, 0), p(1, 1), Moves::Eight, Area::whole(&g)),
            None
        );
    }

    #[test]
    fn validator_hand_cases() {
        let g = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        let all = Area::whole(&g);
        let w = check_route(
            &g,
            p(0, 0),
            p(2, 0),
            &[p(0, 0), p(1, 0), p(2, 0)],
            Moves::Eight,
            all,
        )
        .unwrap();
        assert_eq!(w.length(), 2.0);
        assert!(check_route(&g, p(0, 0), p(2, 0), &[p(0, 0), p(2, 0)], Moves::Eight, all).is_err());
        assert!(
            check_walk(&g, &[p(1, 0), p(2, 1)], Moves::Eight, all).is_err(),
            "corner cut"
        );
        assert!(
            check_walk(&g, &[p(0, 1), p(1, 1)], Moves::Eight, all).is_err(),
            "blocked"
        );
        assert!(
            check_walk(&g, &[p(0, 0), p(0, 0)], Moves::Eight, all).is_err(),
            "no move"
        );
        assert!(check_walk(&g, &[], Moves::Eight, all).is_err());
        let o = Grid::from_rows(&["..", ".."]).unwrap();
        assert!(check_walk(&o, &[p(0, 0), p(1, 1)], Moves::Four, Area::whole(&o)).is_err());
        let d = check_walk(&o, &[p(0, 0), p(1, 1)], Moves::Eight, Area::whole(&o)).unwrap();
        assert_eq!(
            d,
            Walk {
                straight: 0,
                diagonal: 1
            }
        );
        let top = Area {
            x: 0,
            y: 0,
            width: 2,
            height: 1,
        };
        assert!(
            check_walk(&o, &[p(0, 0), p(0, 1)], Moves::Eight, top).is_err(),
            "leaves area"
        );
    }

    #[test]
    fn flags_to_grid() {
        let g = grid_from_flags(3, 2, &[true, false, true, false, true, true]);
        assert_eq!((g.width(), g.height(), g.passable_count()), (3, 2, 4));
        assert!(!g.is_passable(p(1, 0)) && g.is_passable(p(2, 1)));
    }
}
