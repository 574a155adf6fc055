//! Peer crates as [`Contender`]s.
//!
//! * [`PathfindingAStar`]: `pathfinding::prelude::astar` with successors
//!   that follow the Moving AI rules exactly.
//! * [`GridPathfindingJps`]: `grid_pathfinding` 0.3 (JPS with improved
//!   pruning, its defaults). Cuts corners; prices a diagonal 99/70.
//! * [`HierarchicalPathfinding`]: `hierarchical_pathfinding` 0.5 (HPA*,
//!   Moore neighbourhood, default config but the chunk size). Cuts corners;
//!   a diagonal costs the same as a straight step.

use hierarchical_pathfinding::prelude::{MooreNeighborhood, PathCache, PathCacheConfig};
use regionpath_benches::contender::{length_of, Rules};
use regionpath_benches::Contender;
use regionpath_grid::{Dir, Grid, Point};

/// Fixed-point scale of the `pathfinding` costs: a straight step costs
/// 10⁹. `pathfinding::astar` needs an `Ord` cost, so costs are `u64` with
/// √2 rounded to 1 414 213 562 / 10⁹ (error < 5·10⁻¹⁰ per diagonal, below
/// 2·10⁻⁶ over the longest Moving AI paths: far inside every scenario
/// file's print precision; a 10⁶ scale could be off by up to ~10⁻³, which
/// could pick a path the 8-decimal files call suboptimal).
pub const SCALE: u64 = 1_000_000_000;
/// Cost of a straight step.
pub const STRAIGHT: u64 = SCALE;
/// Cost of a diagonal step: √2 · 10⁹ rounded.
pub const DIAGONAL: u64 = 1_414_213_562;

/// The fixed-point octile distance: exact for the fixed-point costs on an
/// open grid, hence admissible and consistent.
#[inline]
fn octile_fixed(a: Point, b: Point) -> u64 {
    let dx = a.x.abs_diff(b.x) as u64;
    let dy = a.y.abs_diff(b.y) as u64;
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    (hi - lo) * STRAIGHT + lo * DIAGONAL
}

/// `pathfinding::prelude::astar` on regionpath's grid: 8 successors
/// filtered by [`Grid::can_step`] (no corner cutting), straight 1 and
/// diagonal √2 in fixed point ([`SCALE`]), octile heuristic.
#[derive(Default)]
pub struct PathfindingAStar {
    path: Vec<Point>,
}

impl Contender for PathfindingAStar {
    fn name(&self) -> &str {
        "pathfinding astar"
    }

    fn rules(&self) -> Rules {
        Rules {
            note: "Moving AI rules via its successor function (costs fixed-point u64, √2 rounded at 1e-9), optimal",
            ..Rules::EXACT
        }
    }

    fn prepare(&mut self, _grid: &Grid) {}

    fn query(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let (path, _cost) = pathfinding::prelude::astar(
            &start,
            |&p| {
                Dir::ALL.iter().filter_map(move |&d| {
                    if grid.can_step(p, d) {
                        let (dx, dy) = d.delta();
                        let n =
                            Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
                        Some((n, if d.is_diagonal() { DIAGONAL } else { STRAIGHT }))
                    } else {
                        None
                    }
                })
            },
            |&p| octile_fixed(p, goal),
            |&p| p == goal,
        )?;
        self.path = path;
        Some(length_of(&self.path))
    }

    fn path(&self) -> &[Point] {
        &self.path
    }
}

/// `grid_pathfinding::PathingGrid` (JPS), built as the crate's own Moving AI
/// benchmark runner builds it: a blocked-cell bit grid, `initialize()`
/// (neighbour masks and jump points) and `generate_components()`. Queries
/// call `get_path_single_goal(start, goal, false)`, which returns the full
/// cell path.
#[derive(Default)]
pub struct GridPathfindingJps {
    grid: Option<grid_pathfinding::PathingGrid>,
    path: Vec<Point>,
}

impl Contender for GridPathfindingJps {
    fn name(&self) -> &str {
        "grid_pathfinding JPS"
    }

    fn rules(&self) -> Rules {
        Rules {
            cuts_corners: true,
            diagonal_sqrt2: true,
            optimal: true,
            any_angle: false,
            note:
                "8-connected with corner cutting; diagonal 99/70 (≈ √2); optimal for its own rules",
        }
    }

    fn prepare(&mut self, grid: &Grid) {
        use grid_util::grid::ValueGrid;
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let mut blocked = grid_util::grid::BoolGrid::new(w, h, false);
        for y in 0..h {
            for x in 0..w {
                if !grid.is_passable(Point::new(x as u32, y as u32)) {
                    blocked.set(x as i32, y as i32, true);
                }
            }
        }
        let mut pg = grid_pathfinding::PathingGrid::new(w, h, true);
        pg.grid = blocked;
        pg.initialize();
        pg.generate_components();
        self.grid = Some(pg);
    }

    fn preprocesses(&self) -> bool {
        true
    }

    fn query(&mut self, _grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let pg = self.grid.as_ref().expect("prepare() first");
        let s = grid_util::point::Point::new(start.x as i32, start.y as i32);
        let g = grid_util::point::Point::new(goal.x as i32, goal.y as i32);
        let cells = pg.get_path_single_goal(s, g, false)?;
        self.path.clear();
        self.path
            .extend(cells.iter().map(|p| Point::new(p.x as u32, p.y as u32)));
        Some(length_of(&self.path))
    }

    fn path(&self) -> &[Point] {
        &self.path
    }
}

/// `hierarchical_pathfinding::PathCache` (HPA*) with `MooreNeighborhood`
/// and the default config (`cache_paths`, `a_star_fallback` on,
/// `perfect_paths` off) except the chunk size. Queries call `find_path`
/// and collect the whole path (the crate's iterator leaves out the start,
/// which is put back).
pub struct HierarchicalPathfinding {
    chunk_size: usize,
    cache: Option<PathCache<MooreNeighborhood>>,
    path: Vec<Point>,
}

impl HierarchicalPathfinding {
    /// A contender with the given chunk size.
    pub fn new(chunk_size: usize) -> HierarchicalPathfinding {
        HierarchicalPathfinding {
            chunk_size,
            cache: None,
            path: Vec::new(),
        }
    }

    /// The chunk size.
    pub fn chunk_size(&self) -> usize {
        self.chunk_size
    }
}

/// The tile cost `hierarchical_pathfinding` asks for: 1 on passable cells,
/// −1 (solid) on blocked ones.
fn hpa_cost(grid: &Grid) -> impl Fn((usize, usize)) -> isize + Sync + '_ {
    move |(x, y)| {
        if grid.is_passable(Point::new(x as u32, y as u32)) {
            1
        } else {
            -1
        }
    }
}

impl Contender for HierarchicalPathfinding {
    fn name(&self) -> &str {
        "hierarchical_pathfinding HPA*"
    }

    fn rules(&self) -> Rules {
        Rules {
            cuts_corners: true,
            diagonal_sqrt2: false,
            optimal: false,
            any_angle: false,
            note: "Moore neighbourhood: corner cutting, diagonal costs 1 like a straight step; approximate (HPA*)",
        }
    }

    fn prepare(&mut self, grid: &Grid) {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        self.cache = Some(PathCache::new(
            (w, h),
            hpa_cost(grid),
            MooreNeighborhood::new(w, h),
            PathCacheConfig::with_chunk_size(self.chunk_size),
        ));
    }

    fn preprocesses(&self) -> bool {
        true
    }

    fn query(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let cache = self.cache.as_ref().expect("prepare() first");
        let found = cache.find_path(
            (start.x as usize, start.y as usize),
            (goal.x as usize, goal.y as usize),
            hpa_cost(grid),
        )?;
        self.path.clear();
        self.path.push(start);
        self.path
            .extend(found.map(|(x, y)| Point::new(x as u32, y as u32)));
        Some(length_of(&self.path))
    }

    fn path(&self) -> &[Point] {
        &self.path
    }
}
