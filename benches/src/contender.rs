//! The [`Contender`] trait and regionpath's contenders.
//!
//! A bench times every contender on the same grid and the same queries, in
//! the same criterion group. Adding a system is one `impl Contender` and one
//! line in the bench's contender list:
//!
//! * regionpath A*: [`RegionpathAStar`] (here).
//! * regionpath jump point search: [`RegionpathJps`] (here).
//! * peers (`pathfinding`, `grid_pathfinding`, `hierarchical_pathfinding`):
//!   `benches/benches/common/peers.rs` (they are dev-dependencies).
//! * regionpath hierarchical: [`RegionpathHierarchical`] (here).
//! * regionpath hierarchical + smoothed: [`RegionpathSmoothed`] (here): the
//!   facade [`regionpath::Planner`] with smoothing on, radius 0.

use crate::paths::octile_length;
use regionpath::{Config, Vec2};
use regionpath_grid::{Grid, Point};
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, Query};
use regionpath_search::{AStar, JumpPointSearch, Status};

/// How far a contender's moves follow the Moving AI rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Whether its paths may cut corners (a diagonal step past a blocked
    /// orthogonal neighbour).
    pub cuts_corners: bool,
    /// Whether it prices a diagonal step at (about) √2 — otherwise its
    /// "shortest" path is shortest under another metric.
    pub diagonal_sqrt2: bool,
    /// Whether it returns shortest paths under its own metric.
    pub optimal: bool,
    /// Whether it also returns an any-angle polyline (smoothed waypoints)
    /// beside its cells; its length is reported apart from the grid paths'.
    pub any_angle: bool,
    /// A note for the results table.
    pub note: &'static str,
}

impl Rules {
    /// Exactly the Moving AI rules, optimal.
    pub const EXACT: Rules = Rules {
        cuts_corners: false,
        diagonal_sqrt2: true,
        optimal: true,
        any_angle: false,
        note: "Moving AI rules (8-connected, no corner cutting, diagonal √2), optimal",
    };
}

/// A path planner under benchmark.
///
/// The bench calls [`prepare`](Contender::prepare) once per grid (timed
/// separately, with its allocations counted as the contender's preprocessed
/// memory), then [`query`](Contender::query) for every start/goal pair,
/// which is what the per-query figures time.
pub trait Contender {
    /// Column name in the results (`regionpath A*`, `pathfinding astar`, …).
    fn name(&self) -> &str;

    /// How its moves relate to the Moving AI rules.
    fn rules(&self) -> Rules;

    /// Builds whatever the contender keeps per grid (nothing for plain A*).
    /// Called once per grid, before any query on it.
    fn prepare(&mut self, grid: &Grid);

    /// Whether [`prepare`](Contender::prepare) builds anything worth
    /// reporting (time, memory).
    fn preprocesses(&self) -> bool {
        false
    }

    /// Plans a full path from `start` to `goal` on `grid` (the one given to
    /// `prepare`), keeps its cells for [`path`](Contender::path) and returns
    /// its octile length (straight 1, diagonal √2, from the cells), or
    /// `None` if it found no path.
    fn query(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<f64>;

    /// The cells of the last path, start to goal inclusive.
    fn path(&self) -> &[Point];

    /// Per-query scratch held now, in bytes, when the contender can tell.
    fn scratch_bytes(&self) -> Option<usize> {
        None
    }

    /// Time to first leg: plans only enough to start moving and returns
    /// the number of cells of that first leg, or `None` when the contender
    /// has no such mode (all but the hierarchical planner). The bench's
    /// `first-leg` group times only contenders that return `Some`.
    fn first_leg(&mut self, _grid: &Grid, _start: Point, _goal: Point) -> Option<usize> {
        None
    }

    /// The any-angle waypoints of the last path (start cell centre to goal
    /// cell centre), for contenders that smooth; `None` for the others.
    fn waypoints(&self) -> Option<&[Vec2]> {
        None
    }

    /// The Euclidean length of [`waypoints`](Contender::waypoints) as the
    /// contender reports it, for contenders that smooth.
    fn smoothed_length(&self) -> Option<f64> {
        None
    }
}

/// regionpath's [`AStar`] over the whole grid, path written into a reused
/// buffer (no allocation once warm).
pub struct RegionpathAStar {
    astar: AStar,
    path: Vec<Point>,
}

impl Default for RegionpathAStar {
    fn default() -> Self {
        RegionpathAStar::new()
    }
}

impl RegionpathAStar {
    /// A contender with default search options (8-connected, weight 1).
    pub fn new() -> RegionpathAStar {
        RegionpathAStar {
            astar: AStar::new(),
            path: Vec::new(),
        }
    }

    /// The searcher (for its scratch size, options).
    pub fn astar(&self) -> &AStar {
        &self.astar
    }
}

impl Contender for RegionpathAStar {
    fn name(&self) -> &str {
        "regionpath A*"
    }

    fn rules(&self) -> Rules {
        Rules::EXACT
    }

    fn prepare(&mut self, _grid: &Grid) {}

    #[inline]
    fn query(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        match self.astar.find_path_into(grid, start, goal, &mut self.path) {
            Ok(s) if s.status == Status::Found => Some(s.cost),
            _ => None,
        }
    }

    fn path(&self) -> &[Point] {
        &self.path
    }

    fn scratch_bytes(&self) -> Option<usize> {
        Some(self.astar.scratch_bytes())
    }
}

/// regionpath's [`JumpPointSearch`]: exact A* over jump points, on a copy of
/// the grid's passability taken in [`Contender::prepare`] (2 bits per cell,
/// about a millisecond per million cells).
#[derive(Default)]
pub struct RegionpathJps {
    jps: Option<JumpPointSearch>,
    path: Vec<Point>,
}

impl RegionpathJps {
    /// A contender; [`Contender::prepare`] binds it to a grid.
    pub fn new() -> RegionpathJps {
        RegionpathJps::default()
    }
}

impl Contender for RegionpathJps {
    fn name(&self) -> &str {
        "regionpath JPS"
    }

    fn rules(&self) -> Rules {
        Rules::EXACT
    }

    fn prepare(&mut self, grid: &Grid) {
        match &mut self.jps {
            Some(j) => j.refresh(grid),
            None => self.jps = Some(JumpPointSearch::new(grid)),
        }
    }

    #[inline]
    fn query(&mut self, _grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let jps = self.jps.as_mut()?;
        match jps.find_path_into(start, goal, &mut self.path) {
            Ok(s) if s.status == Status::Found => Some(s.cost),
            _ => None,
        }
    }

    fn path(&self) -> &[Point] {
        &self.path
    }

    fn scratch_bytes(&self) -> Option<usize> {
        self.jps.as_ref().map(|j| j.scratch_bytes())
    }
}

/// The octile length of the cells a contender wrote, for peers that do not
/// report it in √2 units themselves.
pub fn length_of(path: &[Point]) -> f64 {
    octile_length(path)
}

/// regionpath's hierarchical planner: [`Hierarchy::build`] in
/// [`prepare`](Contender::prepare), [`CellPlanner::find_path_into`] per query
/// (region route, window-bounded legs, stitched), and
/// [`CellPlanner::start`] + one [`CellPlanner::next_leg`] for the time to
/// first leg.
pub struct RegionpathHierarchical {
    config: HierarchyConfig,
    hierarchy: Option<Hierarchy>,
    planner: CellPlanner,
    /// Reused by the first-leg measurement ([`CellPlanner::restart`]).
    query: Option<Query>,
    path: Vec<Point>,
}

impl Default for RegionpathHierarchical {
    fn default() -> Self {
        RegionpathHierarchical::new(HierarchyConfig::default())
    }
}

impl RegionpathHierarchical {
    /// A contender building with `config` and querying with the default
    /// planner settings.
    pub fn new(config: HierarchyConfig) -> RegionpathHierarchical {
        RegionpathHierarchical {
            config,
            hierarchy: None,
            planner: CellPlanner::new(),
            query: None,
            path: Vec::new(),
        }
    }

    /// The built hierarchy, after [`prepare`](Contender::prepare).
    pub fn hierarchy(&self) -> Option<&Hierarchy> {
        self.hierarchy.as_ref()
    }
}

impl Contender for RegionpathHierarchical {
    fn name(&self) -> &str {
        "regionpath hierarchical"
    }

    fn rules(&self) -> Rules {
        Rules {
            optimal: false,
            note: "Moving AI rules (no corner cutting, diagonal √2); near-optimal (region route + 60×60 window legs)",
            ..Rules::EXACT
        }
    }

    fn prepare(&mut self, grid: &Grid) {
        self.hierarchy =
            Some(Hierarchy::build(grid, &self.config).expect("hierarchy builds on a valid grid"));
    }

    fn preprocesses(&self) -> bool {
        true
    }

    #[inline]
    fn query(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let h = self.hierarchy.as_ref().expect("prepare() first");
        self.planner
            .find_path_into(h, grid, start, goal, &mut self.path)
            .ok()
            .filter(|_| !self.path.is_empty())
            .map(|s| s.cost)
    }

    fn path(&self) -> &[Point] {
        &self.path
    }

    fn first_leg(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<usize> {
        let h = self.hierarchy.as_ref().expect("prepare() first");
        self.path.clear();
        let q = match &mut self.query {
            Some(q) => {
                self.planner.restart(q, h, grid, start, goal).ok()?;
                q
            }
            None => self
                .query
                .insert(self.planner.start(h, grid, start, goal).ok()?),
        };
        self.planner.next_leg(q, h, grid, &mut self.path).ok()?;
        Some(self.path.len())
    }
}

/// regionpath's facade [`regionpath::Planner`] with
/// [`Config::smooth`] on and a unit radius of 0: the hierarchical
/// planner's cell path, then any-angle smoothing of it, both inside the
/// timed query. [`path`](Contender::path) is the cell path (checked for
/// corner cuts and illegal steps like every other contender's);
/// [`waypoints`](Contender::waypoints) and
/// [`smoothed_length`](Contender::smoothed_length) are the smoothed
/// polyline and its Euclidean length, which the bench reports against the
/// scenario optimum apart from the grid-path ratios (an any-angle path can
/// be shorter than the octile optimum without breaking any rule: at radius
/// 0 every segment is clear of blocked cells, corners included).
///
/// It has no first-leg mode of its own: smoothing runs on the whole path,
/// and its first leg is [`RegionpathHierarchical`]'s (the same planner
/// underneath).
pub struct RegionpathSmoothed {
    config: HierarchyConfig,
    hierarchy: Option<Hierarchy>,
    planner: regionpath::Planner,
    path: regionpath::Path,
}

impl Default for RegionpathSmoothed {
    fn default() -> Self {
        RegionpathSmoothed::new(HierarchyConfig::default(), 0.0)
    }
}

impl RegionpathSmoothed {
    /// A contender building with `config`, querying with the default
    /// planner settings and smoothing for a unit of `unit_radius` cells.
    pub fn new(config: HierarchyConfig, unit_radius: f32) -> RegionpathSmoothed {
        RegionpathSmoothed {
            config,
            hierarchy: None,
            planner: regionpath::Planner::new(Config::new().smooth(true).unit_radius(unit_radius))
                .expect("a unit radius within bounds"),
            path: regionpath::Path::default(),
        }
    }

    /// The last path (cells, cost, waypoints, smoothed length, stats).
    pub fn last_path(&self) -> &regionpath::Path {
        &self.path
    }
}

impl Contender for RegionpathSmoothed {
    fn name(&self) -> &str {
        "regionpath hierarchical + smoothed"
    }

    fn rules(&self) -> Rules {
        Rules {
            optimal: false,
            any_angle: true,
            note: "cells as regionpath hierarchical (Moving AI rules); plus any-angle waypoints \
                   (radius 0: segments clear of every blocked cell, corners included), \
                   length = Euclidean length of the waypoints",
            ..Rules::EXACT
        }
    }

    fn prepare(&mut self, grid: &Grid) {
        self.hierarchy =
            Some(Hierarchy::build(grid, &self.config).expect("hierarchy builds on a valid grid"));
    }

    fn preprocesses(&self) -> bool {
        true
    }

    #[inline]
    fn query(&mut self, grid: &Grid, start: Point, goal: Point) -> Option<f64> {
        let h = self.hierarchy.as_ref().expect("prepare() first");
        match self
            .planner
            .find_path_into(h, grid, start, goal, &mut self.path)
        {
            Ok(()) if !self.path.cells.is_empty() => Some(self.path.cost),
            _ => {
                self.path.cells.clear();
                self.path.waypoints.clear();
                None
            }
        }
    }

    fn path(&self) -> &[Point] {
        &self.path.cells
    }

    fn waypoints(&self) -> Option<&[Vec2]> {
        Some(&self.path.waypoints)
    }

    fn smoothed_length(&self) -> Option<f64> {
        Some(self.path.smoothed_length)
    }
}
