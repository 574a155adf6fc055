//! Group paths: [`Planner::find_group_paths`] plans many units from nearby
//! starts to one goal, sharing planned paths between them.

use crate::{Error, Path, Planner};
use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{GroupPaths, GroupStats, Hierarchy};

/// The results of a group query, one per unit in the order of the starts,
/// plus reusable scratch: keep one and pass it to every
/// [`Planner::find_group_paths`]; once its buffers have grown, a group
/// query allocates nothing but errors' messages.
#[derive(Debug, Default)]
pub struct GroupPlan {
    inner: GroupPaths,
    /// Per unit: its path (valid where `errors` holds `None`).
    paths: Vec<Path>,
    errors: Vec<Option<Error>>,
}

impl GroupPlan {
    /// No results yet.
    pub fn new() -> GroupPlan {
        GroupPlan::default()
    }

    /// Units in the last group query.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Whether the last group query had no units.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// Unit `i`'s path (smoothed when the planner's configuration smooths)
    /// or why it has none; `None` when `i` is not a unit of the last query.
    pub fn path(&self, i: usize) -> Option<Result<&Path, &Error>> {
        self.errors.get(i).map(|e| match e {
            Some(e) => Err(e),
            None => Ok(&self.paths[i]),
        })
    }

    /// Every unit's result, in the order of the starts.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Result<&Path, &Error>> + '_ {
        self.errors.iter().zip(&self.paths).map(|(e, p)| match e {
            Some(e) => Err(e),
            None => Ok(p),
        })
    }

    /// Figures about the last group query.
    pub fn stats(&self) -> GroupStats {
        self.inner.stats()
    }
}

impl Planner {
    /// Plans paths from each of `starts` to `goal` into `out`: unit `i`'s
    /// result is [`GroupPlan::path`]`(i)`, its own `Result`. Made for units
    /// close together heading for one place: full queries are shared (one
    /// per round, usually one for a whole group in a 20 × 20 area) and each
    /// unit finds its way onto a shared path with one search over the
    /// group's box, instead of a full query per unit (see
    /// [`regionpath_hierarchy::CellPlanner::find_group_paths`] for the
    /// rounds, the quality check and the costs). Each path is smoothed as
    /// the configuration asks. A unit that cannot reach the goal gets
    /// [`Error::Unreachable`], one off the map or blocked its own error.
    ///
    /// Errors for the whole group (then `out` holds no results): a grid the
    /// hierarchy does not serve, a goal off the map or blocked, a unit
    /// radius the hierarchy's profile refuses. An empty group is `Ok`.
    ///
    /// ```
    /// use regionpath::{GroupPlan, Grid, Hierarchy, Planner, Point};
    ///
    /// let grid = Grid::new(300, 60, true)?;
    /// let hierarchy = Hierarchy::build(&grid, &Default::default())?;
    /// let mut planner = Planner::default();
    /// let mut plan = GroupPlan::new();
    /// let starts = [Point::new(3, 20), Point::new(5, 24), Point::new(4, 28)];
    /// let goal = Point::new(290, 40);
    /// let stats = planner.find_group_paths(&hierarchy, &grid, &starts, goal, &mut plan)?;
    /// assert_eq!(stats.leaders, 1);
    /// for (path, start) in plan.iter().zip(starts) {
    ///     let path = path.map_err(Clone::clone)?;
    ///     assert_eq!((path.cells.first(), path.cells.last()), (Some(&start), Some(&goal)));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_group_paths(
        &mut self,
        hierarchy: &Hierarchy,
        grid: &Grid,
        starts: &[Point],
        goal: Point,
        out: &mut GroupPlan,
    ) -> Result<GroupStats, Error> {
        out.errors.clear();
        self.check_radius(hierarchy)?;
        let stats = self
            .inner
            .find_group_paths(hierarchy, grid, starts, goal, &mut out.inner)?;
        let n = out.inner.len();
        out.paths.resize_with(n, Path::default);
        for i in 0..n {
            let path = &mut out.paths[i];
            path.partial = false;
            path.waypoints.clear();
            path.smoothed_length = 0.0;
            path.curve = None;
            path.narrow_segments = 0;
            path.stats = Default::default();
            path.cells.clear();
            path.cost = 0.0;
            let error = match out.inner.path(i) {
                Some(Ok(cells)) => {
                    path.cells.extend_from_slice(cells);
                    path.cost = out.inner.cost(i).unwrap_or_default();
                    path.stats.cost = path.cost;
                    self.finish_into(hierarchy, grid, path).err()
                }
                Some(Err(e)) => Some(Error::from(e.clone())),
                None => None,
            };
            out.errors.push(error);
        }
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, HierarchyConfig};

    /// A wall with one gap; the squad on the left, the goal far right.
    fn walled() -> Grid {
        let mut grid = Grid::new(240, 80, true).unwrap();
        for y in 0..80 {
            if y != 70 {
                grid.set_passable(Point::new(120, y), false).unwrap();
            }
        }
        grid
    }

    /// Each unit's path is smoothed as the configuration asks, starts at its
    /// unit and ends at the goal; bad units get their flattened error, and
    /// a blocked goal is the group's error.
    #[test]
    fn group_paths_are_smoothed_and_errors_are_per_unit() {
        let grid = walled();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut planner = Planner::new(Config::new().smooth(true)).unwrap();
        let mut plan = GroupPlan::new();
        let goal = Point::new(230, 10);
        let starts = [
            Point::new(10, 10),
            Point::new(12, 14),
            Point::new(120, 5),
            Point::new(900, 1),
            Point::new(14, 11),
        ];
        let stats = planner
            .find_group_paths(&h, &grid, &starts, goal, &mut plan)
            .unwrap();
        assert_eq!((plan.len(), stats.failed), (5, 2));
        assert!(matches!(plan.path(2), Some(Err(Error::Blocked { .. }))));
        assert!(matches!(plan.path(3), Some(Err(Error::OutOfBounds { .. }))));
        for i in [0, 1, 4] {
            let p = plan.path(i).unwrap().unwrap();
            assert_eq!(p.cells.first(), Some(&starts[i]));
            assert_eq!(p.cells.last(), Some(&goal));
            assert!(!p.partial);
            // Through the gap at row 70 and back up: smoothing shortens it
            // to a few waypoints, never longer than the cells.
            assert!(p.cells.contains(&Point::new(120, 70)));
            assert!(p.waypoints.len() >= 3 && p.smoothed_length <= p.cost + 1e-9);
            let steps: f64 = p
                .cells
                .windows(2)
                .map(|w| regionpath_grid::octile(w[0], w[1]))
                .sum();
            assert!((steps - p.cost).abs() < 1e-6);
        }
        assert!(plan.path(5).is_none());
        let err = planner.find_group_paths(&h, &grid, &starts, Point::new(120, 0), &mut plan);
        assert!(matches!(err, Err(Error::Blocked { .. })));
        assert!(plan.is_empty());
    }

    /// Partial paths through the facade: flagged, smoothed, and the flag is
    /// cleared by the next ordinary query into the same `Path`.
    #[test]
    fn partial_paths_are_flagged_and_cleared() {
        let mut grid = walled();
        grid.set_passable(Point::new(120, 70), false).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut planner = Planner::new(Config::new().smooth(true)).unwrap();
        let mut path = Path::default();
        let (s, g) = (Point::new(10, 40), Point::new(200, 40));
        planner
            .find_path_or_nearest_into(&h, &grid, s, g, &mut path)
            .unwrap();
        assert!(path.partial);
        assert_eq!(path.cells.last(), Some(&Point::new(119, 40)));
        assert!(!path.waypoints.is_empty());
        planner
            .find_path_into(&h, &grid, s, Point::new(100, 40), &mut path)
            .unwrap();
        assert!(!path.partial);
        let reachable = planner
            .find_path_or_nearest(&h, &grid, s, Point::new(100, 41))
            .unwrap();
        assert!(!reachable.partial);
        assert_eq!(reachable.cells.last(), Some(&Point::new(100, 41)));
    }
}
