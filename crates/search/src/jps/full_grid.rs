//! Jump point search over a whole grid.

use super::engine::{Engine, Query, UniformJumps};
use super::planes::Planes;
use super::scan::PointTarget;
use crate::cost::{octile_cost, Cost};
use crate::types::{Found, SearchError, SearchStats};
use regionpath_grid::{Grid, Point};

/// Jump point search over a snapshot of a grid's passability: exact
/// (optimal octile) paths, 8-connected without corner cutting, usually far
/// fewer expansions than [`AStar`](crate::AStar).
///
/// The searcher copies the passability when built (2 bits per cell: one
/// row-major and one column-major copy) and searches that copy: after
/// editing the grid, call [`JumpPointSearch::refresh`]. Scratch is 16 bytes
/// per cell plus the open list, kept between queries and reset in O(1) by a
/// generation stamp; a warm query allocates nothing (with
/// [`JumpPointSearch::find_path_into`] and a reused path buffer).
///
/// ```
/// use regionpath_grid::{Grid, Point};
/// use regionpath_search::{JumpPointSearch, Status};
///
/// let grid = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
/// let mut jps = JumpPointSearch::new(&grid);
/// let found = jps.find_path(Point::new(0, 1), Point::new(3, 1)).unwrap();
/// assert_eq!(found.status, Status::Found);
/// assert_eq!(found.cost, 5.0); // round the wall: no corner cutting
/// assert_eq!(found.path.len(), 6); // every cell, not only jump points
/// ```
pub struct JumpPointSearch {
    planes: Planes,
    engine: Engine,
}

impl JumpPointSearch {
    /// A searcher for `grid`: copies its passability, O(cells / 64) words
    /// and 2 bits per cell held.
    pub fn new(grid: &Grid) -> JumpPointSearch {
        JumpPointSearch {
            planes: Planes::from_grid(grid),
            engine: Engine::default(),
        }
    }

    /// Re-reads the passability of `grid` (after edits, or for another grid
    /// of any size), O(cells / 64) words. Keeps the scratch. Until it is
    /// called, searches see the grid as it was at the last copy.
    pub fn refresh(&mut self, grid: &Grid) {
        self.planes
            .fill_area(grid, 0, 0, grid.width(), grid.height());
    }

    /// Width of the grid snapshot.
    pub fn width(&self) -> u32 {
        self.planes.width
    }

    /// Height of the grid snapshot.
    pub fn height(&self) -> u32 {
        self.planes.height
    }

    /// Bytes held now: the two passability copies, the node array and the
    /// open list.
    pub fn scratch_bytes(&self) -> usize {
        self.planes.bytes() + self.engine.bytes()
    }

    /// Searches from `start` to `goal`, writing every cell of the path (not
    /// only the jump points) into `path`, which is cleared first. The path
    /// is optimal (the same cost as [`AStar`](crate::AStar)'s, perhaps
    /// another path of that cost). Errors when an end lies outside the
    /// snapshot or on a blocked cell. Allocates nothing once warm.
    pub fn find_path_into(
        &mut self,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        let inside = |p: Point| p.x < self.planes.width && p.y < self.planes.height;
        if !inside(start) {
            return Err(SearchError::StartOutOfBounds(start));
        }
        if !inside(goal) {
            return Err(SearchError::GoalOutOfBounds(goal));
        }
        if !self.planes.open(start.x as usize + 1, start.y as usize + 1) {
            return Err(SearchError::StartBlocked(start));
        }
        if !self.planes.open(goal.x as usize + 1, goal.y as usize + 1) {
            return Err(SearchError::GoalBlocked(goal));
        }
        let target = PointTarget {
            px: goal.x as usize + 1,
            py: goal.y as usize + 1,
        };
        Ok(self.engine.run(
            Query {
                planes: &self.planes,
                origin: (0, 0),
                start,
                target: &target,
                stops: &target,
                costs: &UniformJumps,
                heuristic: |p| octile_cost(p, goal),
                budget: None,
                bound: Cost::MAX,
            },
            path,
        ))
    }

    /// [`JumpPointSearch::find_path_into`] returning an owned path.
    pub fn find_path(&mut self, start: Point, goal: Point) -> Result<Found, SearchError> {
        let mut path = Vec::new();
        let s = self.find_path_into(start, goal, &mut path)?;
        Ok(Found {
            status: s.status,
            path,
            cost: s.cost,
            expanded: s.expanded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::astar::AStar;
    use crate::types::Status;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows).unwrap()
    }

    /// Every pair of passable cells: the same cost as plain A*, and a valid
    /// path.
    fn agree_all_pairs(g: &Grid) {
        let mut jps = JumpPointSearch::new(g);
        let mut astar = AStar::new();
        let cells: Vec<Point> = (0..g.height())
            .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
            .filter(|&p| g.is_passable(p))
            .collect();
        for &a in &cells {
            for &b in &cells {
                let j = jps.find_path(a, b).unwrap();
                let r = astar.find_path(g, a, b).unwrap();
                assert_eq!(j.status, r.status, "{a} -> {b}");
                assert!(
                    (j.cost - r.cost).abs() < 1e-9,
                    "{a} -> {b}: {} vs {}",
                    j.cost,
                    r.cost
                );
                if j.status == Status::Found {
                    assert_eq!(j.path.first(), Some(&a));
                    assert_eq!(j.path.last(), Some(&b));
                    for s in j.path.windows(2) {
                        let d = regionpath_grid::Dir::from_delta(
                            s[1].x as i32 - s[0].x as i32,
                            s[1].y as i32 - s[0].y as i32,
                        )
                        .expect("adjacent");
                        assert!(g.can_step(s[0], d), "{} -> {}", s[0], s[1]);
                    }
                }
            }
        }
    }

    #[test]
    fn small_maps_agree_with_astar() {
        agree_all_pairs(&grid(&["....", ".@@.", "...."]));
        agree_all_pairs(&grid(&[
            "..@.....", "..@.@@..", "....@...", "@@..@.@.", "......@.", ".@@@..@.",
        ]));
        agree_all_pairs(&grid(&["@.@", ".@.", "@.@"]));
        agree_all_pairs(&grid(&["."]));
    }

    #[test]
    fn wide_rows_cross_word_boundaries() {
        // 150 wide: jumps cross several 64-bit words in both directions.
        let mut rows = vec![".".repeat(150); 5];
        rows[1].replace_range(70..71, "@");
        rows[3].replace_range(127..130, "@@@");
        let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
        let g = grid(&refs);
        let mut jps = JumpPointSearch::new(&g);
        let mut astar = AStar::new();
        for (a, b) in [
            ((0, 0), (149, 4)),
            ((149, 2), (0, 2)),
            ((65, 0), (128, 4)),
            ((0, 4), (0, 0)),
            ((128, 2), (69, 1)),
        ] {
            let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
            let j = jps.find_path(a, b).unwrap();
            let r = astar.find_path(&g, a, b).unwrap();
            assert!((j.cost - r.cost).abs() < 1e-9, "{a} -> {b}");
        }
    }

    #[test]
    fn errors_and_refresh() {
        let mut g = grid(&["..", ".@"]);
        let mut jps = JumpPointSearch::new(&g);
        assert_eq!(
            jps.find_path(Point::new(2, 0), Point::new(0, 0))
                .unwrap_err(),
            SearchError::StartOutOfBounds(Point::new(2, 0))
        );
        assert_eq!(
            jps.find_path(Point::new(0, 0), Point::new(1, 1))
                .unwrap_err(),
            SearchError::GoalBlocked(Point::new(1, 1))
        );
        g.set_passable(Point::new(1, 0), false).unwrap();
        g.set_passable(Point::new(0, 1), false).unwrap();
        g.set_passable(Point::new(1, 1), true).unwrap();
        jps.refresh(&g);
        let f = jps.find_path(Point::new(0, 0), Point::new(1, 1)).unwrap();
        assert_eq!(f.status, Status::NoPath);
        assert!(f.path.is_empty());
    }
}
