//! The planners and smoothers the scenario runner can drive.
//!
//! The runner only sees the [`Algo`] and [`Smoother`] traits. To plug in
//! another planner, implement [`Algo`] for it and add a variant to
//! [`crate::args::AlgoChoice`] and [`build`]; to change the smoothing,
//! implement [`Smoother`] and return it from [`smoother`].

use crate::args::AlgoChoice;
use crate::error::CliError;
use regionpath::grid::{Grid, Point, Profile, ProfileGrid};
use regionpath::hierarchy::{self, Hierarchy, HierarchyConfig};
use regionpath::search::{AStar, JumpPointSearch, Status};
use regionpath::smoothing::{self, SmoothOptions, Vec2};

/// What a planner reports about one query besides the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryInfo {
    /// Whether the planner claims a complete path from start to goal.
    pub found: bool,
    /// Search nodes expanded (whatever the planner counts as work).
    pub expanded: u64,
}

/// A path planner driven by the scenario runner.
pub trait Algo {
    /// Short name used in reports (`astar`, `hierarchical`).
    fn name(&self) -> &str;

    /// Whether every path must have the optimal length. For an optimal
    /// planner a length that disagrees with the scenario is *wrong*; for
    /// others a longer length is measured as suboptimality.
    fn is_optimal(&self) -> bool;

    /// Called once per map before its queries (not timed per query; the
    /// runner reports its duration separately). Builds whatever the planner
    /// precomputes for `grid`.
    fn prepare(&mut self, grid: &Grid) -> Result<(), String>;

    /// Plans from `start` to `goal` on the grid last given to
    /// [`Algo::prepare`], writing the cells (start and goal included) into
    /// `out`, which the planner clears first.
    fn query(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<QueryInfo, String>;

    /// Plans only the first leg of the path from `start` to `goal` into
    /// `out` (cleared first): `Ok(Some(true))` with a leg, `Ok(Some(false))`
    /// when the goal is unreachable, `Ok(None)` when the planner has no
    /// first leg apart from the whole path (the default).
    fn first_leg(
        &mut self,
        _grid: &Grid,
        _start: Point,
        _goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<Option<bool>, String> {
        out.clear();
        Ok(None)
    }
}

/// Plain A* over the whole grid; one searcher reused for every query, so
/// its scratch stays warm.
pub struct AStarAlgo {
    astar: AStar,
}

impl AStarAlgo {
    /// A* with default options (8-connected, optimal).
    pub fn new() -> AStarAlgo {
        AStarAlgo {
            astar: AStar::new(),
        }
    }
}

impl Algo for AStarAlgo {
    fn name(&self) -> &str {
        "astar"
    }

    fn is_optimal(&self) -> bool {
        true
    }

    fn prepare(&mut self, _grid: &Grid) -> Result<(), String> {
        Ok(())
    }

    fn query(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<QueryInfo, String> {
        let stats = self
            .astar
            .find_path_into(grid, start, goal, out)
            .map_err(|e| e.to_string())?;
        Ok(QueryInfo {
            found: stats.status == Status::Found,
            expanded: u64::from(stats.expanded),
        })
    }
}

/// The exact A* under a movement profile: [`Algo::prepare`] computes the
/// map's usable positions and cost classes for the profile (O(cells · k),
/// not timed per query); queries run `AStar::find_path_weighted_into` over
/// them, so the path is a list of positions and its cost is optimal under
/// the profile.
pub struct ProfiledAStar {
    astar: AStar,
    profile: Profile,
    view: Option<ProfileGrid>,
}

impl ProfiledAStar {
    /// A* under `profile`; call [`Algo::prepare`] before querying.
    pub fn new(profile: Profile) -> ProfiledAStar {
        ProfiledAStar {
            astar: AStar::new(),
            profile,
            view: None,
        }
    }
}

impl Algo for ProfiledAStar {
    fn name(&self) -> &str {
        "astar"
    }

    fn is_optimal(&self) -> bool {
        true
    }

    fn prepare(&mut self, grid: &Grid) -> Result<(), String> {
        self.view = Some(ProfileGrid::new(grid, &self.profile));
        Ok(())
    }

    fn query(
        &mut self,
        _grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<QueryInfo, String> {
        let view = self.view.as_ref().ok_or("astar: no map prepared")?;
        let stats = self
            .astar
            .find_path_weighted_into(view, start, goal, out)
            .map_err(|e| e.to_string())?;
        Ok(QueryInfo {
            found: stats.status == Status::Found,
            expanded: u64::from(stats.expanded),
        })
    }
}

/// Jump point search over the whole grid: [`Algo::prepare`] copies the
/// map's passability into the searcher (not timed per query).
pub struct JpsAlgo {
    jps: Option<JumpPointSearch>,
}

impl JpsAlgo {
    /// A searcher; call [`Algo::prepare`] before querying.
    pub fn new() -> JpsAlgo {
        JpsAlgo { jps: None }
    }
}

impl Algo for JpsAlgo {
    fn name(&self) -> &str {
        "jps"
    }

    fn is_optimal(&self) -> bool {
        true
    }

    fn prepare(&mut self, grid: &Grid) -> Result<(), String> {
        match &mut self.jps {
            Some(j) => j.refresh(grid),
            None => self.jps = Some(JumpPointSearch::new(grid)),
        }
        Ok(())
    }

    fn query(
        &mut self,
        _grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<QueryInfo, String> {
        let jps = self.jps.as_mut().ok_or("jps: no map prepared")?;
        let stats = jps
            .find_path_into(start, goal, out)
            .map_err(|e| e.to_string())?;
        Ok(QueryInfo {
            found: stats.status == Status::Found,
            expanded: u64::from(stats.expanded),
        })
    }
}

/// The hierarchical planner: [`Algo::prepare`] builds the region hierarchy
/// (default configuration), queries plan a region route and refine it leg by
/// leg with windowed A*. One planner is reused for every query.
pub struct HierarchicalAlgo {
    hierarchy: Option<Hierarchy>,
    planner: hierarchy::CellPlanner,
    /// Reused by every first-leg query ([`hierarchy::CellPlanner::restart`]).
    query: Option<hierarchy::Query>,
    build: HierarchyConfig,
    /// The movement profile the hierarchy is built for (`None`: the map's
    /// own passability).
    profile: Option<Profile>,
}

impl HierarchicalAlgo {
    /// A planner with the given query configuration; call
    /// [`Algo::prepare`] before querying.
    pub fn with_config(config: hierarchy::PlannerConfig) -> HierarchicalAlgo {
        HierarchicalAlgo {
            hierarchy: None,
            // The command line only switches features on and off, which
            // keeps every value within its bounds.
            planner: hierarchy::CellPlanner::with_config(config).unwrap_or_default(),
            query: None,
            build: HierarchyConfig::default(),
            profile: None,
        }
    }
}

impl Algo for HierarchicalAlgo {
    fn name(&self) -> &str {
        "hierarchical"
    }

    fn is_optimal(&self) -> bool {
        false
    }

    fn prepare(&mut self, grid: &Grid) -> Result<(), String> {
        self.hierarchy = None;
        let h = match &self.profile {
            Some(p) => Hierarchy::build_with_profile(grid, p, &self.build),
            None => Hierarchy::build(grid, &self.build),
        }
        .map_err(|e| e.to_string())?;
        // Sized here, with the build, as a game would at load time: rows
        // time queries, not the planner's first growth.
        self.planner.prepare(&h);
        self.hierarchy = Some(h);
        Ok(())
    }

    fn query(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<QueryInfo, String> {
        let h = self
            .hierarchy
            .as_ref()
            .ok_or("the hierarchy was not built (prepare not called)")?;
        match self.planner.find_path_into(h, grid, start, goal, out) {
            Ok(stats) => Ok(QueryInfo {
                found: true,
                expanded: u64::from(stats.expanded) + u64::from(stats.abstract_expanded),
            }),
            Err(hierarchy::PlanError::Unreachable { .. }) => {
                out.clear();
                Ok(QueryInfo {
                    found: false,
                    expanded: 0,
                })
            }
            Err(e) => Err(e.to_string()),
        }
    }

    fn first_leg(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> Result<Option<bool>, String> {
        out.clear();
        let h = self
            .hierarchy
            .as_ref()
            .ok_or("the hierarchy was not built (prepare not called)")?;
        let started = match &mut self.query {
            Some(q) => self.planner.restart(q, h, grid, start, goal),
            None => self.planner.start(h, grid, start, goal).map(|q| {
                self.query = Some(q);
            }),
        };
        match started {
            Ok(()) => {}
            Err(hierarchy::PlanError::Unreachable { .. }) => return Ok(Some(false)),
            Err(e) => return Err(e.to_string()),
        }
        let q = self.query.as_mut().ok_or("no query")?;
        self.planner
            .next_leg(q, h, grid, out)
            .map_err(|e| e.to_string())?;
        Ok(Some(true))
    }
}

/// The planners selected by `--algo`, in run order; the hierarchical one
/// with `config`. Under a movement profile (`profile`: the profile and its
/// file) the exact A* and the hierarchical planner run under it (`all` is
/// `both`); jump point search alone (exact only where every cost is equal)
/// is [`CliError::Unsupported`].
pub fn build(
    choice: AlgoChoice,
    config: hierarchy::PlannerConfig,
    build: HierarchyConfig,
    profile: Option<(&Profile, &std::path::Path)>,
) -> Result<Vec<Box<dyn Algo>>, CliError> {
    let hierarchical = |profile: Option<&Profile>| {
        let mut h = HierarchicalAlgo::with_config(config);
        h.build = build;
        h.profile = profile.cloned();
        Box::new(h) as Box<dyn Algo>
    };
    if let Some((profile, path)) = profile {
        let astar = || Box::new(ProfiledAStar::new(profile.clone())) as Box<dyn Algo>;
        return match choice {
            AlgoChoice::Astar => Ok(vec![astar()]),
            AlgoChoice::Jps => Err(CliError::Unsupported(format!(
                "`--algo jps --profile {}`: jump point search is exact only where every \
                 position costs the same; use `--algo astar`",
                path.display()
            ))),
            AlgoChoice::Hierarchical => Ok(vec![hierarchical(Some(profile))]),
            AlgoChoice::Both | AlgoChoice::All => Ok(vec![astar(), hierarchical(Some(profile))]),
        };
    }
    let astar = || Box::new(AStarAlgo::new()) as Box<dyn Algo>;
    let hierarchical = || hierarchical(None);
    let jps = || Box::new(JpsAlgo::new()) as Box<dyn Algo>;
    Ok(match choice {
        AlgoChoice::Astar => vec![astar()],
        AlgoChoice::Hierarchical => vec![hierarchical()],
        AlgoChoice::Jps => vec![jps()],
        AlgoChoice::Both => vec![astar(), hierarchical()],
        AlgoChoice::All => vec![astar(), jps(), hierarchical()],
    })
}

/// Path smoothing: turns a cell path into a shorter any-angle polyline.
pub trait Smoother {
    /// Writes waypoints for `path` into `out` (which the smoother clears
    /// first) in grid space: cell `(x, y)` is the square
    /// `[x, x + 1] × [y, y + 1]`, so the polyline runs from the start cell's
    /// centre `(x + 0.5, y + 0.5)` to the goal cell's centre, and no segment
    /// may touch a blocked cell or leave the map
    /// ([`crate::validate::check_smoothed`]). Returns the number of
    /// segments that are not clear for the unit's radius (kept where the
    /// unit does not fit through a passage; 0 for a point unit).
    ///
    /// With `view` (a movement profile's view of `grid`), `path` is a
    /// path of the profile's positions and the waypoints are the centres
    /// of their `k × k` footprints: a shortcut is taken only where the
    /// footprint fits and it costs no more than the positions it replaces
    /// ([`crate::validate::check_profiled_smoothed`]).
    fn smooth(
        &mut self,
        grid: &Grid,
        view: Option<&ProfileGrid>,
        path: &[Point],
        out: &mut Vec<(f64, f64)>,
    ) -> Result<usize, String>;
}

/// `regionpath-smoothing`'s any-angle smoother for a unit of a radius.
pub struct AnyAngle {
    smoother: smoothing::Smoother,
    waypoints: Vec<Vec2>,
    radius: f32,
}

impl Smoother for AnyAngle {
    fn smooth(
        &mut self,
        grid: &Grid,
        view: Option<&ProfileGrid>,
        path: &[Point],
        out: &mut Vec<(f64, f64)>,
    ) -> Result<usize, String> {
        let opts = SmoothOptions::with_radius(self.radius);
        let narrow = match view {
            Some(view) => self
                .smoother
                .smooth_profiled(view, path, &opts, &mut self.waypoints)
                .map(|r| r.narrow_segments),
            None => self
                .smoother
                .smooth(grid, path, &opts, &mut self.waypoints)
                .map(|r| r.narrow_segments),
        }
        .map_err(|e| e.to_string())?;
        out.clear();
        out.extend(
            self.waypoints
                .iter()
                .map(|v| (f64::from(v.x), f64::from(v.y))),
        );
        Ok(narrow)
    }
}

/// The smoother behind `--smooth`, for a unit of `radius` cells.
pub fn smoother(radius: f32) -> Result<Box<dyn Smoother>, CliError> {
    Ok(Box::new(AnyAngle {
        smoother: smoothing::Smoother::new(),
        waypoints: Vec::new(),
        radius,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn astar_algo_reports_found_and_no_path() {
        let g = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        let mut a = AStarAlgo::new();
        a.prepare(&g).unwrap();
        let mut out = vec![Point::new(9, 9)];
        let info = a
            .query(&g, Point::new(0, 0), Point::new(2, 2), &mut out)
            .unwrap();
        assert!(info.found);
        assert_eq!(out.first(), Some(&Point::new(0, 0)));
        assert_eq!(out.last(), Some(&Point::new(2, 2)));
        let g = Grid::from_rows(&[".@.", "@@.", "..."]).unwrap();
        let info = a
            .query(&g, Point::new(0, 0), Point::new(2, 2), &mut out)
            .unwrap();
        assert!(!info.found);
        assert!(a
            .query(&g, Point::new(1, 1), Point::new(2, 2), &mut out)
            .is_err());
    }

    #[test]
    fn hierarchical_algo_plans_and_reports_unreachable() {
        let g = Grid::from_rows(&["......", ".@@@@.", "......", "@@@@@@", "......"]).unwrap();
        let mut h = HierarchicalAlgo::with_config(hierarchy::PlannerConfig::default());
        let mut out = Vec::new();
        assert!(h
            .query(&g, Point::new(0, 0), Point::new(5, 2), &mut out)
            .is_err());
        h.prepare(&g).unwrap();
        let info = h
            .query(&g, Point::new(0, 1), Point::new(5, 1), &mut out)
            .unwrap();
        assert!(info.found);
        let steps =
            crate::validate::check_path(&g, Point::new(0, 1), Point::new(5, 1), &out).unwrap();
        assert!(steps.length() >= 7.0 - 1e-9);
        let info = h
            .query(&g, Point::new(0, 0), Point::new(0, 4), &mut out)
            .unwrap();
        assert!(!info.found);
        assert!(out.is_empty());
        assert!(h
            .query(&g, Point::new(0, 3), Point::new(0, 4), &mut out)
            .is_err());
    }

    #[test]
    fn smoothing_shortens_and_stays_clear() {
        let g = Grid::from_rows(&["........", "........", "........"]).unwrap();
        let cells: Vec<Point> = (0..8).map(|x| Point::new(x, x.min(2))).collect();
        let mut s = smoother(0.0).unwrap();
        let mut out = Vec::new();
        s.smooth(&g, None, &cells, &mut out).unwrap();
        let len = crate::validate::check_smoothed(&g, cells[0], cells[7], &out).unwrap();
        let cell_len = crate::validate::check_path(&g, cells[0], cells[7], &cells)
            .unwrap()
            .length();
        assert!(len <= cell_len + 1e-9);
        assert!((len - (49.0f64 + 4.0).sqrt()).abs() < 1e-4, "{len}");
    }

    #[test]
    fn build_selects_planners_in_order() {
        let names = |c| {
            build(
                c,
                hierarchy::PlannerConfig::default(),
                HierarchyConfig::default(),
                None,
            )
            .unwrap()
            .iter()
            .map(|a| a.name().to_string())
            .collect::<Vec<_>>()
        };
        assert_eq!(names(AlgoChoice::Astar), ["astar"]);
        assert_eq!(names(AlgoChoice::Hierarchical), ["hierarchical"]);
        assert_eq!(names(AlgoChoice::Jps), ["jps"]);
        assert_eq!(names(AlgoChoice::Both), ["astar", "hierarchical"]);
        assert_eq!(names(AlgoChoice::All), ["astar", "jps", "hierarchical"]);
        let p = Profile::builder("walker").cost('.', 1.0).build().unwrap();
        let file = std::path::Path::new("walker.toml");
        let with = |c| build(c, Default::default(), Default::default(), Some((&p, file)));
        let named = |c| {
            with(c)
                .unwrap()
                .iter()
                .map(|a| a.name().to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(named(AlgoChoice::Astar), ["astar"]);
        assert_eq!(named(AlgoChoice::Hierarchical), ["hierarchical"]);
        assert_eq!(named(AlgoChoice::Both), ["astar", "hierarchical"]);
        assert_eq!(named(AlgoChoice::All), ["astar", "hierarchical"]);
        assert!(matches!(
            with(AlgoChoice::Jps),
            Err(CliError::Unsupported(_))
        ));
    }

    #[test]
    fn profiled_astar_prices_swamp() {
        // Straight through the swamp column costs 1 + 2 + 2 + 1 = 6 at
        // cost 3; four diagonals down to row 2 and back cost 4√2 ≈ 5.66.
        let g = Grid::from_rows(&["..S..", "..S..", "....."]).unwrap();
        let p = Profile::builder("w")
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        let mut a = ProfiledAStar::new(p.clone());
        a.prepare(&g).unwrap();
        let mut out = Vec::new();
        let info = a
            .query(&g, Point::new(0, 0), Point::new(4, 0), &mut out)
            .unwrap();
        assert!(info.found);
        let c =
            crate::validate::check_profiled_path(&g, &p, Point::new(0, 0), Point::new(4, 0), &out)
                .unwrap();
        assert!((c - 4.0 * std::f64::consts::SQRT_2).abs() < 1e-9, "{c}");
    }
}
