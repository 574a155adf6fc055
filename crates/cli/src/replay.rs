//! `regionpath replay MAP --trace FILE`: replays a game trace ([`crate::trace`])
//! on a map and checks every answer against an exact search on the map as
//! it is at that moment.
//!
//! * `edit`: the rectangle's cells take the terrain character, then
//!   [`Hierarchy::update`] gets the list of cells; only the update is
//!   timed. With `--check-fresh` a fresh build of the edited map follows
//!   and the two hierarchies answer reachability for the same pairs.
//! * `query`: one full hierarchical path, checked against the exact A* of
//!   `regionpath-search` on the current grid (weighted under a profile):
//!   legal path from the start to the goal (re-checked by
//!   [`crate::validate`]), found exactly when the exact search finds one,
//!   never cheaper; suboptimality = cost / exact cost − 1.
//! * `lazy` / `walk`: a unit on a lazy query. It walks the cells the legs
//!   hand out, asking for the next leg when it runs out; every step is
//!   checked on the grid of that moment (legal move onto a usable cell),
//!   every leg when handed out. After an edit the unit's remaining cells
//!   are checked; where they no longer hold, or the query refuses the next
//!   leg because the map changed, [`repair`] replans from where the unit
//!   stands. A unit whose own cell was built over is *trapped* (counted
//!   apart); a goal no longer reachable ends the walk (checked against the
//!   exact search).
//! * `group`: every start to one goal through [`plan_group`]; each path
//!   checked like a query, the exact costs from one Dijkstra out of the
//!   goal ([`crate::dijkstra`], moves and costs are symmetric).
//!
//! Every point and rectangle of the trace is checked against the map
//! before anything runs (an error names the line and column, exit code 2).
//! The run ends with exit code 3 (as `scen` does for a wrong path) when any
//! answer was invalid, any reachability disagreed, or a lazy walk took an
//! invalid step.

use crate::args::ReplayArgs;
use crate::dijkstra;
use crate::error::{CliError, Outcome};
use crate::input::load_map;
use crate::out::Out;
use crate::progress;
use crate::rng::SplitMix64;
use crate::trace::{self, Command, Line, TraceError, TraceErrorKind};
use crate::validate::{self, Defect};
use regionpath::grid::{Grid, Point, Profile, ProfileGrid};
use regionpath::hierarchy::{
    CellPlanner, GroupPaths, Hierarchy, HierarchyConfig, PlanError, Query,
};
use regionpath::search::{AStar, Status};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Whether [`plan_group`] runs the group planner
/// ([`CellPlanner::find_group_paths`]): the independent queries are then
/// timed as well and `group_speedup` is their ratio (with `false`, every
/// unit is planned on its own and the speedup is 1.0).
const GROUP_PLANNER: bool = true;

/// Random pairs compared by `--check-fresh` after each edit (besides the
/// units' own pairs and the endpoints of the lines up to the next edit).
const FRESH_PAIRS: usize = 64;

/// Problems listed in the report (the counts keep counting).
const MAX_PROBLEMS: usize = 20;

/// Relative slack when comparing a cost with the exact one (the weighted
/// A*'s fixed-point costs are within 5·10⁻⁸).
const COST_SLACK: f64 = 1e-6;

/// The movement rules paths are checked by: the map's passability, or a
/// profile's positions ([`validate::check_profiled_path`]).
struct Rules<'a> {
    profile: Option<&'a Profile>,
}

impl Rules<'_> {
    /// Whether a unit may stand on `p`.
    fn usable(&self, grid: &Grid, p: Point) -> bool {
        match self.profile {
            Some(pr) => validate::position_cost(grid, pr, p.x.into(), p.y.into()).is_some(),
            None => grid.is_passable(p),
        }
    }

    /// The cost of a legal `path` from `start` to `goal`.
    fn check(&self, grid: &Grid, start: Point, goal: Point, path: &[Point]) -> Result<f64, Defect> {
        match self.profile {
            Some(pr) => validate::check_profiled_path(grid, pr, start, goal, path),
            None => validate::check_path(grid, start, goal, path).map(|s| s.length()),
        }
    }

    /// Whether one step from `a` to `b` is legal on `grid`.
    fn step(&self, grid: &Grid, a: Point, b: Point) -> bool {
        self.check(grid, a, b, &[a, b]).is_ok()
    }
}

/// The exact searches: A* per pair, Dijkstra from a group's goal. Under a
/// profile the position view is rebuilt after an edit, when first needed.
struct Exact {
    astar: AStar,
    profile: Option<Profile>,
    view: Option<ProfileGrid>,
    path: Vec<Point>,
}

impl Exact {
    /// The map changed.
    fn invalidate(&mut self) {
        self.view = None;
    }

    fn view(&mut self, grid: &Grid) -> Option<&ProfileGrid> {
        let profile = self.profile.as_ref()?;
        Some(
            self.view
                .get_or_insert_with(|| ProfileGrid::new(grid, profile)),
        )
    }

    /// The optimal cost from `s` to `g` (both usable) on `grid`, `None`
    /// when `g` cannot be reached.
    fn cost(
        &mut self,
        grid: &Grid,
        rules: &Rules,
        s: Point,
        g: Point,
    ) -> Result<Option<f64>, String> {
        let mut path = std::mem::take(&mut self.path);
        let stats = match self.profile.is_some() {
            true => {
                self.view(grid);
                let view = self.view.as_ref().ok_or("no profile view")?;
                self.astar.find_path_weighted_into(view, s, g, &mut path)
            }
            false => self.astar.find_path_into(grid, s, g, &mut path),
        }
        .map_err(|e| format!("exact A* from {s} to {g}: {e}"))?;
        let cost = match stats.status {
            Status::Found => Some(
                rules
                    .check(grid, s, g, &path)
                    .map_err(|d| format!("exact A* path from {s} to {g} is invalid: {d}"))?,
            ),
            _ => None,
        };
        self.path = path;
        Ok(cost)
    }

    /// Optimal costs from every cell to `goal`, row-major (infinite where
    /// unreachable).
    fn costs_to(&mut self, grid: &Grid, goal: Point) -> Vec<f64> {
        match self.view(grid) {
            Some(view) => dijkstra::weighted_distances(view, goal),
            None => dijkstra::distances(grid, goal),
        }
    }
}

/// Where a unit's lazy walk stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnitState {
    Walking,
    Arrived,
    Trapped,
    Unreachable,
    /// Stopped by an invalid answer or a planner error (counted).
    Stopped,
}

/// A unit walking a lazy query.
struct Unit {
    query: Option<Query>,
    goal: Point,
    /// Where the unit stands.
    pos: Point,
    /// Cells handed out and not walked yet: `ahead[next..]`.
    ahead: Vec<Point>,
    next: usize,
    /// Whether the next leg is the query's first (it then repeats the
    /// unit's cell).
    fresh: bool,
    /// [`Query::repairs`] when last counted.
    repairs: u32,
    /// [`Query::carried_over`] when last counted.
    carried: u32,
    /// The hierarchy stamp the unit last looked at the map on.
    stamp: u64,
    state: UnitState,
    /// The `lazy` line that started the walk.
    line: usize,
    /// The cells walked, from the start (kept only for `--walks`).
    walked: Vec<Point>,
}

/// The counts and times of one replay.
#[derive(Default)]
struct Report {
    lines: usize,
    edits: usize,
    cells_edited: u64,
    update_us: Vec<f64>,
    queries: usize,
    found: usize,
    unreachable: usize,
    rejected: usize,
    invalid_paths: usize,
    wrong_reachability: usize,
    cheaper_than_exact: usize,
    planner_errors: usize,
    subopt_sum: f64,
    subopt_max: f64,
    subopt_n: usize,
    lazy_queries: usize,
    lazy_walks: usize,
    lazy_cells: u64,
    lazy_legs: u64,
    lazy_repairs: usize,
    lazy_carried: usize,
    lazy_invalid: usize,
    lazy_trapped: usize,
    lazy_unreachable: usize,
    lazy_arrived: usize,
    lazy_rejected: usize,
    lazy_errors: usize,
    groups: usize,
    group_paths: usize,
    group_invalid: usize,
    group_subopt_sum: f64,
    group_subopt_n: usize,
    group_us: f64,
    independent_us: f64,
    fresh_checks: usize,
    fresh_pairs: usize,
    reachability_mismatch: usize,
    build_ms: f64,
    problems: Vec<String>,
}

impl Report {
    fn problem(&mut self, line: usize, what: impl std::fmt::Display) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(format!("line {line}: {what}"));
        }
    }

    /// Query and group answers that are wrong: invalid paths, wrong
    /// reachability, paths cheaper than the optimum, planner errors.
    fn invalid(&self) -> usize {
        self.invalid_paths
            + self.wrong_reachability
            + self.cheaper_than_exact
            + self.planner_errors
            + self.group_invalid
    }

    fn failed(&self) -> bool {
        self.invalid() + self.reachability_mismatch + self.lazy_invalid + self.lazy_errors > 0
    }

    fn update_percentile(&self, q: f64) -> f64 {
        percentile(&self.update_us, q)
    }

    fn mean_subopt(&self) -> f64 {
        mean(self.subopt_sum, self.subopt_n)
    }

    fn group_speedup(&self) -> f64 {
        if GROUP_PLANNER && self.group_us > 0.0 {
            self.independent_us / self.group_us
        } else {
            1.0
        }
    }

    fn json(&self) -> Value {
        json!({
            "lines": self.lines,
            "build_ms": self.build_ms,
            "edits": self.edits,
            "cells_edited": self.cells_edited,
            "update_p50_us": self.update_percentile(0.5),
            "update_p99_us": self.update_percentile(0.99),
            "update_max_us": self.update_us.iter().copied().fold(0.0, f64::max),
            "update_mean_us": mean(self.update_us.iter().sum(), self.update_us.len()),
            "queries": self.queries,
            "found": self.found,
            "unreachable": self.unreachable,
            "rejected": self.rejected,
            "invalid": self.invalid(),
            "invalid_paths": self.invalid_paths,
            "wrong_reachability": self.wrong_reachability,
            "cheaper_than_exact": self.cheaper_than_exact,
            "planner_errors": self.planner_errors,
            "mean_subopt": self.mean_subopt(),
            "max_subopt": self.subopt_max,
            "reachability_mismatch": self.reachability_mismatch,
            "fresh_checks": self.fresh_checks,
            "fresh_pairs": self.fresh_pairs,
            "lazy_queries": self.lazy_queries,
            "lazy_walks": self.lazy_walks,
            "lazy_cells": self.lazy_cells,
            "lazy_legs": self.lazy_legs,
            "lazy_repairs": self.lazy_repairs,
            "lazy_carried": self.lazy_carried,
            "lazy_invalid": self.lazy_invalid,
            "lazy_trapped": self.lazy_trapped,
            "lazy_unreachable": self.lazy_unreachable,
            "lazy_arrived": self.lazy_arrived,
            "lazy_rejected": self.lazy_rejected,
            "lazy_errors": self.lazy_errors,
            "groups": self.groups,
            "group_paths": self.group_paths,
            "group_invalid": self.group_invalid,
            "group_mean_subopt": mean(self.group_subopt_sum, self.group_subopt_n),
            "group_ms": self.group_us / 1e3,
            "group_speedup": self.group_speedup(),
            "problems": self.problems,
        })
    }

    fn text(&self, out: &mut Out) -> Result<(), CliError> {
        out.line(format_args!(
            "edits {} ({} cells): update p50 {:.1} us, p99 {:.1} us, max {:.1} us",
            self.edits,
            self.cells_edited,
            self.update_percentile(0.5),
            self.update_percentile(0.99),
            self.update_us.iter().copied().fold(0.0, f64::max)
        ))?;
        out.line(format_args!(
            "queries {}: found {}, unreachable {}, rejected {}, invalid {}, mean subopt {:.3} %, max subopt {:.3} %",
            self.queries,
            self.found,
            self.unreachable,
            self.rejected,
            self.invalid(),
            self.mean_subopt() * 100.0,
            self.subopt_max * 100.0
        ))?;
        out.line(format_args!(
            "lazy {} queries, {} walks, {} cells, {} legs: repairs {}, carried over {}, invalid {}, trapped {}, unreachable {}, arrived {}, errors {}",
            self.lazy_queries,
            self.lazy_walks,
            self.lazy_cells,
            self.lazy_legs,
            self.lazy_repairs,
            self.lazy_carried,
            self.lazy_invalid,
            self.lazy_trapped,
            self.lazy_unreachable,
            self.lazy_arrived,
            self.lazy_errors
        ))?;
        out.line(format_args!(
            "groups {} ({} paths): invalid {}, mean subopt {:.3} %, {:.1} ms, speedup {:.2}{}",
            self.groups,
            self.group_paths,
            self.group_invalid,
            mean(self.group_subopt_sum, self.group_subopt_n) * 100.0,
            self.group_us / 1e3,
            self.group_speedup(),
            if GROUP_PLANNER {
                ""
            } else {
                " (independent queries)"
            }
        ))?;
        out.line(format_args!(
            "check-fresh {} edits, {} pairs: reachability mismatches {}",
            self.fresh_checks, self.fresh_pairs, self.reachability_mismatch
        ))?;
        for p in &self.problems {
            out.line(format_args!("  {p}"))?;
        }
        Ok(())
    }
}

fn mean(sum: f64, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// The `q` quantile (nearest rank) of `v`; 0 when empty.
fn percentile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    s[rank - 1]
}

/// Plans a path from every start to `goal` on the current map, one result
/// per start in order: the group planner (a shared path, each unit
/// joining it), an error of the whole group (the goal blocked, say) given
/// to every unit.
fn plan_group(
    planner: &mut CellPlanner,
    h: &Hierarchy,
    grid: &Grid,
    starts: &[Point],
    goal: Point,
) -> Vec<Result<Vec<Point>, PlanError>> {
    if !GROUP_PLANNER {
        return independent_paths(planner, h, grid, starts, goal);
    }
    let mut paths = GroupPaths::new();
    match planner.find_group_paths(h, grid, starts, goal, &mut paths) {
        Ok(_) => paths
            .iter()
            .map(|r| r.map(<[Point]>::to_vec).map_err(Clone::clone))
            .collect(),
        Err(e) => starts.iter().map(|_| Err(e.clone())).collect(),
    }
}

/// One independent hierarchical query per start (the baseline a group
/// planner is measured against).
fn independent_paths(
    planner: &mut CellPlanner,
    h: &Hierarchy,
    grid: &Grid,
    starts: &[Point],
    goal: Point,
) -> Vec<Result<Vec<Point>, PlanError>> {
    starts
        .iter()
        .map(|&s| {
            let mut path = Vec::new();
            planner
                .find_path_into(h, grid, s, goal, &mut path)
                .map(|_| path)
        })
        .collect()
}

/// How [`repair`] left a unit.
enum Repaired {
    /// Planning again from the unit's cell.
    Replanned,
    /// The goal cannot be reached from the unit's cell any more (or is
    /// blocked).
    Unreachable,
    /// The unit's own cell is blocked.
    Trapped,
    /// Another planner error.
    Failed(PlanError),
}

/// Puts a unit's lazy query back on the current map from the cell the unit
/// stands on, dropping the cells handed out ahead of it
/// ([`CellPlanner::replan_from`]; the next leg continues from that cell).
/// A query whose way ahead is still clear is not touched here: its next
/// leg repairs itself ([`CellPlanner::next_leg`]). Both are counted by
/// [`Query::repairs`] ([`count_repairs`]).
fn repair(planner: &mut CellPlanner, unit: &mut Unit, h: &Hierarchy, grid: &Grid) -> Repaired {
    unit.ahead.clear();
    unit.next = 0;
    unit.stamp = h.stamp();
    let Some(q) = unit.query.as_mut() else {
        return Repaired::Unreachable;
    };
    match planner.replan_from(q, h, grid, unit.pos) {
        Ok(()) => Repaired::Replanned,
        Err(PlanError::Trapped(_)) => Repaired::Trapped,
        Err(PlanError::Unreachable { .. } | PlanError::GoalBlocked(_)) => Repaired::Unreachable,
        Err(e) => Repaired::Failed(e),
    }
}

/// Adds the repairs `unit`'s query made since last counted to `report`,
/// and the map changes it went on through without one.
fn count_repairs(report: &mut Report, unit: &mut Unit) {
    if let Some(q) = &unit.query {
        report.lazy_repairs += q.repairs().saturating_sub(unit.repairs) as usize;
        unit.repairs = q.repairs();
        report.lazy_carried += q.carried_over().saturating_sub(unit.carried) as usize;
        unit.carried = q.carried_over();
    }
}

/// The replay's state.
struct Replay<'a> {
    grid: Grid,
    h: Hierarchy,
    planner: CellPlanner,
    exact: Exact,
    rules: Rules<'a>,
    config: HierarchyConfig,
    units: BTreeMap<u32, Unit>,
    report: Report,
    leg: Vec<Point>,
    path: Vec<Point>,
    rng: SplitMix64,
    check_fresh: bool,
    /// The trace file (named by errors).
    trace: PathBuf,
    /// Ended walks for `--walks`: (lazy line, unit, cells).
    walks: Option<Vec<(usize, u32, Vec<Point>)>>,
}

impl Replay<'_> {
    fn build(&self, grid: &Grid) -> Result<Hierarchy, regionpath::hierarchy::HierarchyError> {
        match self.rules.profile {
            Some(p) => Hierarchy::build_with_profile(grid, p, &self.config),
            None => Hierarchy::build(grid, &self.config),
        }
    }

    fn edit(
        &mut self,
        l: &Line,
        rect: [u32; 4],
        kind: regionpath::grid::Terrain,
        (trace, map): (&Path, &Path),
    ) -> Result<(), CliError> {
        let [x, y, w, h] = rect;
        let mut changed = Vec::with_capacity(w as usize * h as usize);
        for cy in y..y + h {
            for cx in x..x + w {
                let p = Point::new(cx, cy);
                self.grid
                    .set_terrain(p, kind)
                    .map_err(|e| CliError::Trace {
                        path: trace.to_path_buf(),
                        source: TraceError {
                            line: l.line,
                            column: l.columns.get(5).copied().unwrap_or(1),
                            kind: TraceErrorKind::Grid(e.to_string()),
                        },
                    })?;
                changed.push(p);
            }
        }
        self.exact.invalidate();
        let t = Instant::now();
        self.h
            .update(&self.grid, &changed)
            .map_err(|source| CliError::Hierarchy {
                path: map.to_path_buf(),
                source,
            })?;
        self.report.update_us.push(t.elapsed().as_secs_f64() * 1e6);
        self.report.edits += 1;
        self.report.cells_edited += changed.len() as u64;
        Ok(())
    }

    /// `--check-fresh`: reachability of the updated hierarchy against a
    /// fresh build, on `pairs` plus [`FRESH_PAIRS`] random usable pairs.
    fn check_fresh(
        &mut self,
        line: usize,
        mut pairs: Vec<(Point, Point)>,
        map: &Path,
    ) -> Result<(), CliError> {
        let fresh = self
            .build(&self.grid)
            .map_err(|source| CliError::Hierarchy {
                path: map.to_path_buf(),
                source,
            })?;
        pairs.extend(
            self.units
                .values()
                .filter(|u| u.state == UnitState::Walking)
                .map(|u| (u.pos, u.goal)),
        );
        for _ in 0..FRESH_PAIRS {
            if let (Some(a), Some(b)) = (self.random_usable(), self.random_usable()) {
                pairs.push((a, b));
            }
        }
        self.report.fresh_checks += 1;
        for (a, b) in pairs {
            if !(self.rules.usable(&self.grid, a) && self.rules.usable(&self.grid, b)) {
                continue;
            }
            self.report.fresh_pairs += 1;
            let updated = reach(&mut self.planner, &self.h, &self.grid, a, b);
            let built = reach(&mut self.planner, &fresh, &self.grid, a, b);
            if updated != built {
                self.report.reachability_mismatch += 1;
                self.report.problem(
                    line,
                    format_args!(
                        "reachability {a} -> {b}: updated {updated:?}, fresh build {built:?}"
                    ),
                );
            }
        }
        Ok(())
    }

    fn random_usable(&mut self) -> Option<Point> {
        let (w, h) = (self.grid.width(), self.grid.height());
        (0..1024).find_map(|_| {
            let p = Point::new(
                self.rng.below(w.into()) as u32,
                self.rng.below(h.into()) as u32,
            );
            self.rules.usable(&self.grid, p).then_some(p)
        })
    }

    fn query(&mut self, line: usize, s: Point, g: Point) -> Result<(), CliError> {
        self.report.queries += 1;
        let r = self
            .planner
            .find_path_into(&self.h, &self.grid, s, g, &mut self.path);
        if !(self.rules.usable(&self.grid, s) && self.rules.usable(&self.grid, g)) {
            self.report.rejected += 1;
            if !matches!(
                r,
                Err(PlanError::StartBlocked(_) | PlanError::GoalBlocked(_))
            ) {
                self.report.planner_errors += 1;
                self.report.problem(
                    line,
                    format_args!("query {s} -> {g} on a blocked end answered {r:?}"),
                );
            }
            return Ok(());
        }
        let exact = self.exact_cost(line, s, g)?;
        match (r, exact) {
            (Ok(_), Some(opt)) => match self.rules.check(&self.grid, s, g, &self.path) {
                Ok(cost) => {
                    self.report.found += 1;
                    if cost < opt * (1.0 - COST_SLACK) - COST_SLACK {
                        self.report.cheaper_than_exact += 1;
                        self.report.problem(
                            line,
                            format_args!("query {s} -> {g}: cost {cost} below the optimum {opt}"),
                        );
                    }
                    let sub = if opt > 0.0 {
                        (cost / opt - 1.0).max(0.0)
                    } else {
                        0.0
                    };
                    self.report.subopt_sum += sub;
                    self.report.subopt_n += 1;
                    self.report.subopt_max = self.report.subopt_max.max(sub);
                }
                Err(d) => {
                    self.report.invalid_paths += 1;
                    self.report
                        .problem(line, format_args!("query {s} -> {g}: invalid path: {d}"));
                }
            },
            (Ok(_), None) => {
                self.report.wrong_reachability += 1;
                self.report.problem(
                    line,
                    format_args!("query {s} -> {g}: a path where the exact search finds none"),
                );
            }
            (Err(PlanError::Unreachable { .. }), None) => self.report.unreachable += 1,
            (Err(PlanError::Unreachable { .. }), Some(opt)) => {
                self.report.wrong_reachability += 1;
                self.report.problem(
                    line,
                    format_args!("query {s} -> {g}: unreachable, exact cost {opt}"),
                );
            }
            (Err(e), _) => {
                self.report.planner_errors += 1;
                self.report
                    .problem(line, format_args!("query {s} -> {g}: {e}"));
            }
        }
        Ok(())
    }

    /// The exact cost from `s` to `g` (both usable); a failure of the
    /// exact search itself is a planning failure of trace line `line`.
    fn exact_cost(&mut self, line: usize, s: Point, g: Point) -> Result<Option<f64>, CliError> {
        self.exact
            .cost(&self.grid, &self.rules, s, g)
            .map_err(|message| CliError::Algo {
                algo: "astar".into(),
                file: self.trace.clone(),
                line: Some(line),
                message,
            })
    }

    fn group(&mut self, line: usize, goal: Point, starts: &[Point]) {
        self.report.groups += 1;
        let t = Instant::now();
        let paths = plan_group(&mut self.planner, &self.h, &self.grid, starts, goal);
        self.report.group_us += t.elapsed().as_secs_f64() * 1e6;
        if GROUP_PLANNER {
            let t = Instant::now();
            let _ = independent_paths(&mut self.planner, &self.h, &self.grid, starts, goal);
            self.report.independent_us += t.elapsed().as_secs_f64() * 1e6;
        }
        let goal_ok = self.rules.usable(&self.grid, goal);
        let costs = if goal_ok {
            self.exact.costs_to(&self.grid, goal)
        } else {
            Vec::new()
        };
        let w = self.grid.width() as usize;
        for (&s, r) in starts.iter().zip(&paths) {
            self.report.group_paths += 1;
            if !goal_ok || !self.rules.usable(&self.grid, s) {
                if !matches!(
                    r,
                    Err(PlanError::StartBlocked(_) | PlanError::GoalBlocked(_))
                ) {
                    self.report.group_invalid += 1;
                    self.report.problem(
                        line,
                        format_args!("group {s} -> {goal} on a blocked end answered {r:?}"),
                    );
                }
                continue;
            }
            let opt = costs[s.y as usize * w + s.x as usize];
            match r {
                Ok(path) => match self.rules.check(&self.grid, s, goal, path) {
                    Ok(_) if !opt.is_finite() => {
                        self.report.group_invalid += 1;
                        self.report.problem(
                            line,
                            format_args!("group {s} -> {goal}: a path where none exists"),
                        );
                    }
                    Ok(cost) => {
                        if cost < opt * (1.0 - COST_SLACK) - COST_SLACK {
                            self.report.group_invalid += 1;
                            self.report.problem(
                                line,
                                format_args!(
                                    "group {s} -> {goal}: cost {cost} below the optimum {opt}"
                                ),
                            );
                        }
                        let sub = if opt > 0.0 {
                            (cost / opt - 1.0).max(0.0)
                        } else {
                            0.0
                        };
                        self.report.group_subopt_sum += sub;
                        self.report.group_subopt_n += 1;
                    }
                    Err(d) => {
                        self.report.group_invalid += 1;
                        self.report
                            .problem(line, format_args!("group {s} -> {goal}: invalid path: {d}"));
                    }
                },
                Err(PlanError::Unreachable { .. }) if !opt.is_finite() => {}
                Err(e) => {
                    self.report.group_invalid += 1;
                    self.report.problem(
                        line,
                        format_args!("group {s} -> {goal}: {e} (exact cost {opt})"),
                    );
                }
            }
        }
    }

    fn lazy(&mut self, line: usize, id: u32, start: Point, goal: Point) -> Result<(), CliError> {
        self.report.lazy_queries += 1;
        let mut query = self.units.remove(&id).and_then(|u| {
            if let Some(w) = &mut self.walks {
                w.push((u.line, id, u.walked));
            }
            u.query
        });
        let r = match &mut query {
            Some(q) => self.planner.restart(q, &self.h, &self.grid, start, goal),
            None => self
                .planner
                .start(&self.h, &self.grid, start, goal)
                .map(|q| {
                    query = Some(q);
                }),
        };
        let mut unit = Unit {
            query,
            goal,
            pos: start,
            ahead: Vec::new(),
            next: 0,
            fresh: true,
            repairs: 0,
            carried: 0,
            stamp: self.h.stamp(),
            state: UnitState::Walking,
            line,
            walked: if self.walks.is_some() {
                vec![start]
            } else {
                Vec::new()
            },
        };
        let usable = self.rules.usable(&self.grid, start) && self.rules.usable(&self.grid, goal);
        match r {
            _ if !usable => {
                self.report.lazy_rejected += 1;
                unit.state = UnitState::Stopped;
                if !matches!(
                    r,
                    Err(PlanError::StartBlocked(_) | PlanError::GoalBlocked(_))
                ) {
                    self.report.lazy_invalid += 1;
                    self.report.problem(
                        line,
                        format_args!("lazy {id} on a blocked end answered {r:?}"),
                    );
                }
            }
            Ok(()) => {
                if self.exact_cost(line, start, goal)?.is_none() {
                    self.report.lazy_invalid += 1;
                    unit.state = UnitState::Stopped;
                    self.report.problem(line, format_args!("lazy {id} {start} -> {goal} started where the exact search finds no path"));
                }
            }
            Err(PlanError::Unreachable { .. }) => {
                self.unreachable_unit(line, id, &mut unit)?;
            }
            Err(e) => {
                self.report.lazy_errors += 1;
                unit.state = UnitState::Stopped;
                self.report
                    .problem(line, format_args!("lazy {id} {start} -> {goal}: {e}"));
            }
        }
        self.units.insert(id, unit);
        Ok(())
    }

    /// A unit's goal was found unreachable: the walk ends; checked against
    /// the exact search.
    fn unreachable_unit(&mut self, line: usize, id: u32, unit: &mut Unit) -> Result<(), CliError> {
        unit.state = UnitState::Unreachable;
        self.report.lazy_unreachable += 1;
        if self.rules.usable(&self.grid, unit.goal) {
            if let Some(cost) = self.exact_cost(line, unit.pos, unit.goal)? {
                self.report.lazy_invalid += 1;
                self.report.problem(
                    line,
                    format_args!(
                        "unit {id} at {}: goal {} unreachable, exact cost {cost}",
                        unit.pos, unit.goal
                    ),
                );
            }
        }
        Ok(())
    }

    /// Handles [`repair`]'s outcome for unit `id`.
    fn repaired(&mut self, line: usize, id: u32, unit: &mut Unit) -> Result<(), CliError> {
        let repaired = repair(&mut self.planner, unit, &self.h, &self.grid);
        count_repairs(&mut self.report, unit);
        match repaired {
            Repaired::Replanned => {}
            Repaired::Trapped => {
                self.report.lazy_trapped += 1;
                unit.state = UnitState::Trapped;
            }
            Repaired::Unreachable => self.unreachable_unit(line, id, unit)?,
            Repaired::Failed(e) => {
                self.report.lazy_errors += 1;
                unit.state = UnitState::Stopped;
                self.report.problem(
                    line,
                    format_args!("unit {id} at {}: repair failed: {e}", unit.pos),
                );
            }
        }
        Ok(())
    }

    fn walk(&mut self, line: usize, id: u32, cells: u32) -> Result<(), CliError> {
        self.report.lazy_walks += 1;
        // Known to exist: the trace was checked before the run.
        let Some(mut unit) = self.units.remove(&id) else {
            return Ok(());
        };
        let r = self.walk_unit(line, id, &mut unit, cells);
        self.units.insert(id, unit);
        r
    }

    fn walk_unit(
        &mut self,
        line: usize,
        id: u32,
        unit: &mut Unit,
        cells: u32,
    ) -> Result<(), CliError> {
        if unit.state != UnitState::Walking {
            return Ok(());
        }
        if unit.stamp != self.h.stamp() {
            // The map changed since the unit last looked.
            unit.stamp = self.h.stamp();
            if !self.rules.usable(&self.grid, unit.pos) {
                self.report.lazy_trapped += 1;
                unit.state = UnitState::Trapped;
                return Ok(());
            }
            let mut rest = Vec::with_capacity(unit.ahead.len() + 1 - unit.next);
            rest.push(unit.pos);
            rest.extend_from_slice(&unit.ahead[unit.next..]);
            let end = *rest.last().unwrap_or(&unit.pos);
            if self.rules.check(&self.grid, unit.pos, end, &rest).is_err() {
                self.repaired(line, id, unit)?;
            }
        }
        let mut left = cells;
        let mut stalls = 0;
        while left > 0 && unit.state == UnitState::Walking {
            if let Some(&to) = unit.ahead.get(unit.next) {
                if !self.rules.step(&self.grid, unit.pos, to) {
                    self.report.lazy_invalid += 1;
                    unit.state = UnitState::Stopped;
                    self.report.problem(
                        line,
                        format_args!("unit {id}: illegal step {} -> {to}", unit.pos),
                    );
                    break;
                }
                unit.pos = to;
                if self.walks.is_some() {
                    unit.walked.push(to);
                }
                unit.next += 1;
                left -= 1;
                self.report.lazy_cells += 1;
                stalls = 0;
                continue;
            }
            let Some(q) = unit.query.as_mut() else { break };
            if q.is_done() {
                if unit.pos == unit.goal {
                    self.report.lazy_arrived += 1;
                    unit.state = UnitState::Arrived;
                } else {
                    self.report.lazy_invalid += 1;
                    unit.state = UnitState::Stopped;
                    self.report.problem(
                        line,
                        format_args!("unit {id}: legs ended at {}, goal {}", unit.pos, unit.goal),
                    );
                }
                break;
            }
            stalls += 1;
            if stalls > 3 {
                self.report.lazy_errors += 1;
                unit.state = UnitState::Stopped;
                self.report.problem(
                    line,
                    format_args!("unit {id} at {}: no progress after {stalls} legs", unit.pos),
                );
                break;
            }
            self.leg.clear();
            let answer = self.planner.next_leg(q, &self.h, &self.grid, &mut self.leg);
            count_repairs(&mut self.report, unit);
            match answer {
                Ok(_) => {
                    if self.leg.is_empty() {
                        continue;
                    }
                    self.report.lazy_legs += 1;
                    let mut cells = Vec::with_capacity(self.leg.len() + 1);
                    if !unit.fresh {
                        cells.push(unit.pos);
                    }
                    cells.extend_from_slice(&self.leg);
                    let end = *cells.last().unwrap_or(&unit.pos);
                    if let Err(d) = self.rules.check(&self.grid, unit.pos, end, &cells) {
                        self.report.lazy_invalid += 1;
                        unit.state = UnitState::Stopped;
                        self.report.problem(
                            line,
                            format_args!("unit {id}: invalid leg from {}: {d}", unit.pos),
                        );
                        break;
                    }
                    unit.ahead.clear();
                    unit.ahead.extend_from_slice(&cells[1..]);
                    unit.next = 0;
                    unit.fresh = false;
                }
                // The leg's self-repair after a map change found the unit
                // walled in or the goal gone.
                Err(PlanError::Trapped(_)) => {
                    self.report.lazy_trapped += 1;
                    unit.state = UnitState::Trapped;
                }
                Err(PlanError::Unreachable { .. } | PlanError::GoalBlocked(_)) => {
                    self.unreachable_unit(line, id, unit)?;
                }
                Err(e) => {
                    self.report.lazy_errors += 1;
                    unit.state = UnitState::Stopped;
                    self.report
                        .problem(line, format_args!("unit {id} at {}: {e}", unit.pos));
                }
            }
        }
        Ok(())
    }
}

/// Reachability from `a` to `b` as hierarchy `h` answers it (`None`: an
/// error other than unreachable).
fn reach(
    planner: &mut CellPlanner,
    h: &Hierarchy,
    grid: &Grid,
    a: Point,
    b: Point,
) -> Option<bool> {
    match planner.start(h, grid, a, b) {
        Ok(_) => Some(true),
        Err(PlanError::Unreachable { .. }) => Some(false),
        Err(_) => None,
    }
}

/// Checks every line against the map before the run: points and
/// rectangles on the map, walks only for units started before.
fn check_lines(lines: &[Line], grid: &Grid, trace: &Path) -> Result<(), CliError> {
    let (w, h) = (grid.width(), grid.height());
    let fail = |l: &Line, k: usize, kind| CliError::Trace {
        path: trace.to_path_buf(),
        source: TraceError {
            line: l.line,
            column: l.columns.get(k).copied().unwrap_or(1),
            kind,
        },
    };
    let point = |l: &Line, k: usize, what: &'static str, p: Point| {
        if p.x < w && p.y < h {
            Ok(())
        } else {
            Err(fail(
                l,
                k,
                TraceErrorKind::OffMap {
                    what,
                    point: p,
                    width: w,
                    height: h,
                },
            ))
        }
    };
    let mut started: Vec<u32> = Vec::new();
    for l in lines {
        match &l.command {
            Command::Edit {
                x, y, w: ew, h: eh, ..
            } => {
                if u64::from(*x) + u64::from(*ew) > u64::from(w)
                    || u64::from(*y) + u64::from(*eh) > u64::from(h)
                {
                    return Err(fail(
                        l,
                        1,
                        TraceErrorKind::EditOffMap {
                            x: *x,
                            y: *y,
                            w: *ew,
                            h: *eh,
                            width: w,
                            height: h,
                        },
                    ));
                }
            }
            Command::Query { start, goal } => {
                point(l, 1, "start", *start)?;
                point(l, 3, "goal", *goal)?;
            }
            Command::Lazy { id, start, goal } => {
                point(l, 2, "start", *start)?;
                point(l, 4, "goal", *goal)?;
                started.push(*id);
            }
            Command::Walk { id, .. } => {
                if !started.contains(id) {
                    return Err(fail(l, 1, TraceErrorKind::UnknownUnit(*id)));
                }
            }
            Command::Group { goal, starts } => {
                point(l, 1, "goal", *goal)?;
                for (i, s) in starts.iter().enumerate() {
                    point(l, 3 + 2 * i, "start", *s)?;
                }
            }
        }
    }
    Ok(())
}

/// The endpoints of the lines after `lines[i]` up to the next edit.
fn pairs_until_next_edit(lines: &[Line], i: usize) -> Vec<(Point, Point)> {
    let mut pairs = Vec::new();
    for l in &lines[i + 1..] {
        match &l.command {
            Command::Edit { .. } => break,
            Command::Query { start, goal } | Command::Lazy { start, goal, .. } => {
                pairs.push((*start, *goal));
            }
            Command::Group { goal, starts } => {
                pairs.extend(starts.iter().take(4).map(|&s| (s, *goal)));
            }
            Command::Walk { .. } => {}
        }
    }
    pairs
}

/// Reads and parses a trace file.
pub fn load_trace(path: &Path) -> Result<Vec<Line>, CliError> {
    let bytes = std::fs::read(path).map_err(|source| CliError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    trace::parse(&String::from_utf8_lossy(&bytes)).map_err(|source| CliError::Trace {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `--walks`: `LINE ID x,y x,y ...` per walk.
fn write_walks(path: &Path, walks: &[(usize, u32, Vec<Point>)]) -> Result<(), CliError> {
    use std::io::Write;
    let write = || -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        for (line, id, cells) in walks {
            write!(f, "{line} {id}")?;
            for p in cells {
                write!(f, " {},{}", p.x, p.y)?;
            }
            writeln!(f)?;
        }
        f.flush()
    };
    write().map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Runs `regionpath replay`.
pub fn run(args: &ReplayArgs, out: &mut Out) -> Result<Outcome, CliError> {
    let profile = match &args.profile {
        Some(path) => Some(crate::profile::load(path)?),
        None => None,
    };
    let grid = load_map(&args.map)?;
    let lines = load_trace(&args.trace)?;
    check_lines(&lines, &grid, &args.trace)?;
    let config = HierarchyConfig::default();
    let map: PathBuf = args.map.clone();
    let t = Instant::now();
    let h = match &profile {
        Some(p) => Hierarchy::build_with_profile(&grid, p, &config),
        None => Hierarchy::build(&grid, &config),
    }
    .map_err(|source| CliError::Hierarchy {
        path: map.clone(),
        source,
    })?;
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let mut r = Replay {
        grid,
        h,
        planner: CellPlanner::new(),
        exact: Exact {
            astar: AStar::new(),
            profile: profile.clone(),
            view: None,
            path: Vec::new(),
        },
        rules: Rules {
            profile: profile.as_ref(),
        },
        config,
        units: BTreeMap::new(),
        report: Report {
            lines: lines.len(),
            build_ms,
            ..Report::default()
        },
        leg: Vec::new(),
        path: Vec::new(),
        rng: SplitMix64::new(0x5eed_f2e5),
        check_fresh: args.check_fresh,
        trace: args.trace.clone(),
        walks: args.walks.as_ref().map(|_| Vec::new()),
    };
    let bar = progress::bar(args.quiet, lines.len() as u64, "replaying");
    for (i, l) in lines.iter().enumerate() {
        match &l.command {
            Command::Edit { x, y, w, h, kind } => {
                r.edit(l, [*x, *y, *w, *h], *kind, (&args.trace, &map))?;
                if r.check_fresh {
                    r.check_fresh(l.line, pairs_until_next_edit(&lines, i), &map)?;
                }
            }
            Command::Query { start, goal } => r.query(l.line, *start, *goal)?,
            Command::Lazy { id, start, goal } => r.lazy(l.line, *id, *start, *goal)?,
            Command::Walk { id, cells } => r.walk(l.line, *id, *cells)?,
            Command::Group { goal, starts } => r.group(l.line, *goal, starts),
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let (Some(path), Some(mut walks)) = (&args.walks, r.walks.take()) {
        for (id, u) in std::mem::take(&mut r.units) {
            walks.push((u.line, id, u.walked));
        }
        write_walks(path, &walks)?;
    }
    let report = r.report;
    let outcome = if report.failed() {
        Outcome::Failed
    } else {
        Outcome::Ok
    };
    if args.json {
        let mut doc = report.json();
        doc["status"] = outcome.status().into();
        doc["exit_code"] = outcome.code().into();
        doc["map"] = args.map.display().to_string().into();
        doc["trace"] = args.trace.display().to_string().into();
        doc["profile"] = profile.as_ref().map(|p| p.name()).into();
        doc["check_fresh"] = args.check_fresh.into();
        out.line(doc)?;
    } else {
        out.line(format_args!(
            "replay {} ({}x{}) with {}: {} lines, build {:.1} ms",
            args.map.display(),
            r.grid.width(),
            r.grid.height(),
            args.trace.display(),
            report.lines,
            report.build_ms
        ))?;
        report.text(out)?;
        out.line(format_args!("status {}", outcome.status()))?;
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 50.0);
        assert_eq!(percentile(&v, 0.99), 99.0);
        assert_eq!(percentile(&v, 1.0), 100.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        assert_eq!(percentile(&[7.0], 0.99), 7.0);
    }
}
