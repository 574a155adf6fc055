//! The abstract route: A* over the region graph (landmark heuristic,
//! restricted to the block-cut tree path), the partial route of a quick
//! start, and the crossings between route regions.

use super::*;

/// How far a quick start's partial route reaches, in leg windows of route
/// cost: far enough that the first leg heads where the whole route goes,
/// near enough that its search stays small. Every 8th row of the Moving
/// AI files, lazy walks' mean over optimal and first leg median / p95:
/// 2 windows 0.47 %, 4.0 / 11.3 µs; 3 windows 0.45 %, 4.5 / 11.6 µs; 4
/// windows 0.44 %, 5.5 / 13.8 µs (P93).
pub(super) const QUICK_WINDOWS: u32 = 3;

/// Heuristic weight of the abstract search. Above 1 it expands far fewer
/// regions on long routes; the refinement does not follow the route
/// region by region anyway, so the small loss in route quality is
/// recovered below.
pub(super) const ABSTRACT_WEIGHT: f32 = 1.0;

/// How the abstract search prices a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RouteCosts {
    /// The links' stored costs (through each region's representative),
    /// with the landmark heuristic: cheap and tight.
    Representatives,
    /// The straight-line distance between the cells where the route enters
    /// successive regions (the middle of each crossing run; the start and
    /// goal at the ends). Where every monotone chain of regions costs the
    /// same through representatives (rooms joined by doors: the costs are
    /// Manhattan-like), this prefers the chain along the straight line, the
    /// one the legs can turn into a near-optimal path. The search stays
    /// over regions (each region keeps the entry of its first best
    /// relaxation), so it costs about as much as the other.
    Crossings,
}

/// Landmark bounds are distances through representatives, longer than the
/// straight lines between crossings; scaled by this in the
/// [`RouteCosts::Crossings`] heuristic (1.0 let the heuristic overestimate
/// and spoilt routes: all rows, every 4th, mean suboptimality 0.54% at 0.8,
/// 0.63% at 1.0; 0.7 and 0.6 gained little for more expansions).
pub(super) const CROSSING_LANDMARK_FACTOR: f32 = 0.8;

/// Length of the polyline from `start` through the middle of each entry run
/// of `cross` (a route's crossings, `cross[0]` the start's) to `goal`: the
/// [`RouteCosts::Crossings`] cost of a route.
pub(super) fn crossing_cost(cross: &[(Run, Run)], start: Point, goal: Point) -> f32 {
    let mut at = start;
    let mut sum = 0.0;
    for c in cross.iter().skip(1) {
        let q = best_point(c.1, at, goal);
        sum += euclid(at, q);
        at = q;
    }
    sum + euclid(at, goal)
}

/// Cost per unit of straight-line length of the [`RouteCosts::Crossings`]
/// pieces priced by the link from region `a` to region `b` under a profile
/// whose costs differ: the link's terrain-priced cost over the octile
/// length of its way (the representative of `a`, the crossing, the
/// representative of `b`), at least `floor` (the cheapest class). O(1).
#[inline]
pub(super) fn link_rate(
    h: &Hierarchy,
    a: u32,
    b: u32,
    link: &crate::graph::Link,
    floor: f32,
) -> f32 {
    let ra = h.regions[a as usize].representative();
    let rb = h.regions[b as usize].representative();
    let (f, t) = (link.from(), link.to());
    let way = octile(ra, f) + octile(f, t) + octile(t, rb);
    (link.cost() / way.max(1.0) as f32).max(floor)
}

/// The [`RouteCosts::Crossings`] cost of `route` (regions, first to last)
/// with its crossings `cross` (as [`crossing_cost`]), each piece priced at
/// [`link_rate`] of the link it leaves its region by (the goal's piece at
/// the last link's): what the crossing search sums under a profile whose
/// costs differ (`rates`: the cheapest class, the rates' floor),
/// [`crossing_cost`] otherwise (`None`). O(route · degree).
pub(super) fn priced_crossing_cost(
    h: &Hierarchy,
    route: &[u32],
    cross: &[(Run, Run)],
    (start, goal): (Point, Point),
    rates: Option<f32>,
) -> f32 {
    let Some(floor) = rates else {
        return crossing_cost(cross, start, goal);
    };
    let mut at = start;
    let mut sum = 0.0;
    let mut rate = 1.0;
    for (i, c) in cross.iter().enumerate().skip(1) {
        let (Some(&a), Some(&b)) = (route.get(i - 1), route.get(i)) else {
            break;
        };
        let k = h.graph.neighbors_slice(a).iter().position(|&x| x == b);
        rate = k
            .and_then(|k| h.graph.edges_slice(a).get(k))
            .map_or(floor, |l| link_rate(h, a, b, l, floor));
        let q = best_point(c.1, at, goal);
        sum += rate * euclid(at, q);
        at = q;
    }
    sum + rate * euclid(at, goal)
}

/// The cell of `run` on the shortest straight-line way from `a` to `b`
/// through the run's line (mirroring `b` across it when both lie on the
/// same side), clamped to the run.
pub(super) fn best_point(run: Run, a: Point, b: Point) -> Point {
    if run.len <= 1 {
        return run.start;
    }
    // Work in (across, along) coordinates of the run's line.
    let (line, lo, hi, a_across, a_along, b_across, b_along) = if run.vertical {
        (
            run.start.x as f32,
            run.start.y,
            run.start.y + run.len - 1,
            a.x as f32,
            a.y as f32,
            b.x as f32,
            b.y as f32,
        )
    } else {
        (
            run.start.y as f32,
            run.start.x,
            run.start.x + run.len - 1,
            a.y as f32,
            a.x as f32,
            b.y as f32,
            b.x as f32,
        )
    };
    let da = a_across - line;
    let mut db = b_across - line;
    if da * db > 0.0 {
        db = -db;
    }
    let along = if (da - db).abs() < 1e-6 {
        a_along
    } else {
        let t = da / (da - db);
        a_along + t * (b_along - a_along)
    };
    let k = crate::graph::round_non_negative(along.max(lo as f32).min(hi as f32));
    if run.vertical {
        Point::new(run.start.x, k)
    } else {
        Point::new(k, run.start.y)
    }
}

/// Heuristic weight of the region search inside a corridor of the
/// abstraction levels ([`Corridor::Marked`]: whole routes, a full query's
/// or the rest of a lazy one's, on maps of at least
/// [`PlannerConfig::get_levels_from`] regions). Such a route runs through
/// hundreds of regions, and the landmark bound on rooms maps is about a
/// tenth below the links' costs, so an unweighted search expands about
/// eleven regions per route region, each a few cache misses. 100 rows of
/// 16,376² rooms (P89): 1.0 8,640 region expansions a query, paths 2.76 %
/// over optimal on average; 1.05 6,940, 2.78 %; 1.07 6,200, 2.81 %; 1.1
/// 5,370, 2.93 % (the level searches at [`super::levels::LEVEL_WEIGHT`]).
pub(super) const CORRIDOR_WEIGHT: f32 = 1.07;

/// Heuristic weight of the [`RouteCosts::Crossings`] search
/// ([`PlannerConfig::get_second_route`]). 1.3 expanded fewer regions but left
/// two of the six Moving AI files whose worst smoothed path was above 1.05
/// times the optimum there (1.0 fixed all six).
pub(super) const CROSSING_WEIGHT: f32 = 1.0;

#[derive(Clone, Copy, Debug)]
pub(super) struct ANode {
    pub(super) g: f32,
    pub(super) stamp: u32,
    pub(super) parent: u32,
    /// Position of the link to this node in `parent`'s graph row.
    pub(super) via: u32,
    /// Where the route enters this region ([`RouteCosts::Crossings`]).
    pub(super) at: Point,
    /// The landmark bound to the goal's region, negative until computed.
    pub(super) lm: f32,
    pub(super) closed: bool,
}

impl ANode {
    /// A node not reached in the current search.
    pub(super) const BLANK: ANode = ANode {
        g: f32::INFINITY,
        stamp: 0,
        parent: u32::MAX,
        via: u32::MAX,
        at: Point { x: 0, y: 0 },
        lm: -1.0,
        closed: false,
    };
}

/// Starts a search over `nodes` (at least `n` of them): a fresh stamp, so
/// nodes stamped earlier count as unreached without clearing them (all
/// stamps are cleared only when the counter wraps).
pub(super) fn next_generation(nodes: &mut Vec<ANode>, gen: &mut u32, n: usize) -> u32 {
    if nodes.len() < n {
        nodes.resize(n, ANode::BLANK);
    }
    *gen = gen.wrapping_add(1);
    if *gen == 0 {
        nodes.iter_mut().for_each(|a| a.stamp = 0);
        *gen = 1;
    }
    *gen
}

/// Open-list key of the abstract searches: `f` as `f32` bits (ordered like
/// the values for non-negative floats) above the node id.
#[inline]
pub(super) fn heap_key(f: f32, id: u32) -> Reverse<u64> {
    Reverse((f.to_bits() as u64) << 32 | id as u64)
}

/// Which regions an abstract search may visit, and where it may stop short
/// of the goal's region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Corridor {
    /// Every region; the search ends at the goal's.
    All,
    /// Regions whose level-1 node is marked in the planner's corridor
    /// ([`CellPlanner::mark_corridor`]).
    Marked,
    /// Every region; the search also ends at the first region it closes
    /// at least this far (cells of route cost) from the start: a quick
    /// start's partial route.
    Depth(u32),
}

/// One abstract search's question (see [`CellPlanner::abstract_route`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct RouteSearch {
    pub from: u32,
    pub to: u32,
    pub start: Point,
    pub goal: Point,
    pub corridor: Corridor,
    pub costs: RouteCosts,
}

/// How a run of [`CellPlanner::run_route`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum RouteRun {
    /// The search reached this region (the goal's, or the corridor's end).
    Found(u32),
    /// The open list ran empty (or the planner's abstract budget out).
    Empty,
    /// The expansion limit was reached; the open list is intact.
    Paused,
}

/// Where an abstract search keeps its nodes: the planner's arrays (one
/// per region, stamped per search) or a sliced query's own map (the
/// regions it touched), so a query paused between frames keeps its search
/// whatever else the planner does meanwhile.
pub(super) trait Nodes {
    /// The node of region `id` (stamped 0 or older when untouched).
    fn node(&mut self, id: u32) -> &mut ANode;
    /// The stamp of the current search.
    fn gen(&self) -> u32;
}

/// The planner's dense node arrays for one search.
pub(super) struct Dense<'a> {
    pub nodes: &'a mut [ANode],
    pub gen: u32,
}

impl Nodes for Dense<'_> {
    #[inline]
    fn node(&mut self, id: u32) -> &mut ANode {
        &mut self.nodes[id as usize]
    }
    #[inline]
    fn gen(&self) -> u32 {
        self.gen
    }
}

/// A sliced query's nodes: only the regions its search touched.
impl Nodes for hashbrown::HashMap<u32, ANode> {
    #[inline]
    fn node(&mut self, id: u32) -> &mut ANode {
        self.entry(id).or_insert(ANode::BLANK)
    }
    #[inline]
    fn gen(&self) -> u32 {
        1
    }
}

/// Puts the start region of `search` on a fresh open list.
pub(super) fn seed_route<N: Nodes>(
    h: &Hierarchy,
    search: &RouteSearch,
    nodes: &mut N,
    heap: &mut BinaryHeap<Reverse<u64>>,
) {
    // Straight-line distance from the representative, raised by the
    // landmark bound where walls make the way longer.
    // (all rows, every 8th: abstract expansions 2-5x fewer, abstract
    // time per query 25 -> 12 us, median first leg 12.6 -> 8.6 us).
    let goal_row = &h.landmarks.goal_row(search.to);
    // Link costs are at least the octile length times the cheapest
    // cost (1 without a profile: `x * 1.0 == x`).
    let floor = h.cost_floor();
    let from = search.from;
    let o = octile(h.regions[from as usize].representative(), search.goal) as f32 * floor;
    let hf = o.max(h.landmarks.bound_to(from, goal_row));
    *nodes.node(from) = ANode {
        g: 0.0,
        stamp: nodes.gen(),
        ..ANode::BLANK
    };
    heap.push(heap_key(ABSTRACT_WEIGHT * hf, from));
}

/// Straight-line distance between two cells.
#[inline]
pub(super) fn euclid(a: Point, b: Point) -> f32 {
    let dx = a.x as f32 - b.x as f32;
    let dy = a.y as f32 - b.y as f32;
    (dx * dx + dy * dy).sqrt()
}

impl CellPlanner {
    /// The quick start's partial route (see [`PlannerConfig::get_quick_start`]):
    /// the region search to the goal, stopped at the first region it closes
    /// [`QUICK_WINDOWS`] windows of route cost from the start (or at the
    /// goal's region), on maps with abstraction levels too. The search
    /// follows the landmark heuristic as the whole route's does, so the
    /// route's first regions are those the whole route would likely take.
    /// Returns whether `self.route` now holds a route that ends short of
    /// the goal's region (`Some(false)`: the whole route); `None` leaves
    /// the route empty for a full plan (a search failed).
    pub(super) fn plan_partial(
        &mut self,
        h: &Hierarchy,
        rs: u32,
        rg: u32,
        start: Point,
        goal: Point,
    ) -> Option<bool> {
        let depth = Corridor::Depth(QUICK_WINDOWS.saturating_mul(self.config.window));
        self.route.clear();
        self.cross.clear();
        if !self.abstract_route(h, (rs, rg), start, goal, depth, RouteCosts::Representatives) {
            self.route.clear();
            self.cross.clear();
            return None;
        }
        self.stats.route_len = self.route.len() as u32;
        // Reached the goal's region: the route is complete after all.
        Some(self.route.last() != Some(&rg))
    }

    pub(super) fn plan_route(
        &mut self,
        h: &Hierarchy,
        rs: u32,
        rg: u32,
        start: Point,
        goal: Point,
    ) -> Result<(), PlanError> {
        if !self.abstract_route(
            h,
            (rs, rg),
            start,
            goal,
            Corridor::All,
            RouteCosts::Representatives,
        ) {
            return Err(PlanError::Stale(
                "the connectivity matrix and the region graph disagree".into(),
            ));
        }
        self.stats.route_len = self.route.len() as u32;
        Ok(())
    }

    /// Marks the blocks on the block-cut tree path from region `from` to
    /// `to` (once per query and pair); returns whether the marks hold.
    pub(super) fn mark_blocks(&mut self, h: &Hierarchy, from: u32, to: u32) -> bool {
        if self.marked == Some((from, to)) {
            return self.restrict;
        }
        super::fit_zeroed(&mut self.bmark, h.blocks.nodes());
        self.bgen = self.bgen.wrapping_add(1);
        if self.bgen == 0 {
            self.bmark.fill(0);
            self.bgen = 1;
        }
        let path = h.blocks.mark_path(from, to, &mut self.bmark, self.bgen);
        self.marked = Some((from, to));
        self.restrict = path.is_some();
        self.unique_route = path == Some(true);
        self.restrict
    }

    /// A* over the region graph from `from` to `to`, priced by `costs`;
    /// fills `self.route` and `self.cross`. Only regions of `corridor` are
    /// searched (see [`Corridor`]). On a map with abstraction levels,
    /// [`Corridor::All`] first searches the corridor of
    /// [`CellPlanner::mark_corridor`], and every region only if that finds
    /// nothing. Only edges of the blocks on the block-cut tree path between
    /// the two are followed: every route uses those and no others (see
    /// [`crate::derived::blocks`]).
    pub(super) fn abstract_route(
        &mut self,
        h: &Hierarchy,
        (from, to): (u32, u32),
        start: Point,
        goal: Point,
        corridor: Corridor,
        costs: RouteCosts,
    ) -> bool {
        if corridor == Corridor::All
            && self.use_levels(h, from, to)
            && self.mark_corridor(h, (from, to), start, goal)
            && self.route_in(h, (from, to), start, goal, Corridor::Marked, costs)
        {
            return true;
        }
        self.route.clear();
        self.cross.clear();
        self.route_in(h, (from, to), start, goal, corridor, costs)
    }

    /// [`CellPlanner::abstract_route`] inside `corridor`.
    fn route_in(
        &mut self,
        h: &Hierarchy,
        (from, to): (u32, u32),
        start: Point,
        goal: Point,
        corridor: Corridor,
        costs: RouteCosts,
    ) -> bool {
        let search = RouteSearch {
            from,
            to,
            start,
            goal,
            corridor,
            costs,
        };
        // A quick start's search by depth is restricted too: it keeps the
        // partial route out of dead-end blocks.
        let restrict = self.mark_blocks(h, from, to);
        let mut nodes = std::mem::take(&mut self.anodes);
        let mut heap = std::mem::take(&mut self.aheap);
        let mut found = false;
        // Only blocks that disagree with the graph (a damaged file's
        // block-cut tree, see `Blocks::from_parts`) leave the marked blocks
        // without a route between connected regions: then every block is
        // searched (a corridor's search falls back to `All` already).
        let retry = restrict && corridor == Corridor::All;
        for restrict in [restrict, false].into_iter().take(1 + retry as usize) {
            let gen = next_generation(&mut nodes, &mut self.agen, h.regions.len());
            let mut store = Dense {
                nodes: &mut nodes,
                gen,
            };
            heap.clear();
            seed_route(h, &search, &mut store, &mut heap);
            let mut limit = u32::MAX;
            match self.run_route(h, &search, restrict, &mut store, &mut heap, &mut limit) {
                RouteRun::Found(r) => {
                    found = self.extract_route(h, &search, &mut store, r);
                    break;
                }
                RouteRun::Empty | RouteRun::Paused => {}
            }
        }
        self.anodes = nodes;
        self.aheap = heap;
        found
    }

    /// Runs the abstract search of [`CellPlanner::abstract_route`] on
    /// `nodes` and `heap` (seeded by [`seed_route`]) for at most `*limit`
    /// expansions (decremented as it goes): the goal's region (or the
    /// corridor's end), no route, or paused with the open list intact, so
    /// that a sliced query resumes it on a later call.
    pub(super) fn run_route<N: Nodes>(
        &mut self,
        h: &Hierarchy,
        search: &RouteSearch,
        restrict: bool,
        nodes: &mut N,
        heap: &mut BinaryHeap<Reverse<u64>>,
        limit: &mut u32,
    ) -> RouteRun {
        let RouteSearch {
            from,
            to,
            start,
            goal,
            corridor,
            costs,
        } = *search;
        let crossings = costs == RouteCosts::Crossings;
        let marks = &self.levels;
        let in_corridor = |r: u32| match corridor {
            Corridor::All | Corridor::Depth(_) => true,
            Corridor::Marked => marks.marked_region(&h.connectivity.levels.levels, r),
        };
        let gen = nodes.gen();
        let goal_row = &h.landmarks.goal_row(to);
        let floor = h.cost_floor();
        // Crossing pieces priced by the terrain (see `link_rate`).
        let rates = (crossings && h.weights().is_some()).then_some(floor);
        let aw = if crossings {
            CROSSING_WEIGHT
        } else if corridor == Corridor::Marked {
            CORRIDOR_WEIGHT
        } else {
            ABSTRACT_WEIGHT
        };
        while let Some(Reverse(entry)) = heap.pop() {
            let id = entry as u32;
            let node = nodes.node(id);
            if node.closed {
                continue;
            }
            if *limit == 0 {
                heap.push(Reverse(entry));
                return RouteRun::Paused;
            }
            *limit -= 1;
            node.closed = true;
            let g = node.g;
            self.stats.abstract_expanded += 1;
            if self.abstract_budget == 0 {
                return RouteRun::Empty;
            }
            self.abstract_budget -= 1;
            let deep = matches!(corridor, Corridor::Depth(d) if g >= d as f32);
            if id == to || deep {
                return RouteRun::Found(id);
            }
            // Where the route enters this region (crossing costs only).
            let here = if id == from || !crossings {
                start
            } else {
                nodes.node(id).at
            };
            let targets = h.graph.neighbors_slice(id);
            let links = h.graph.edges_slice(id);
            for (k, (&other, link)) in targets.iter().zip(links).enumerate() {
                if !in_corridor(other) {
                    continue;
                }
                let o = nodes.node(other);
                if o.stamp != gen {
                    // Checked on first touch only: an edge between two
                    // regions of marked blocks is itself in a marked block.
                    if restrict && !h.blocks.allowed(other, &self.bmark, self.bgen) {
                        continue;
                    }
                    // Regions a lazy query's rest must avoid (see
                    // `CellPlanner::plan_rest`; empty otherwise).
                    if self.avoid.contains(&other) {
                        continue;
                    }
                    *o = ANode {
                        stamp: gen,
                        ..ANode::BLANK
                    };
                } else if o.closed {
                    continue;
                }
                let (ng, q) = if crossings {
                    let q = best_point(link.crossing().1, here, goal);
                    let rate = rates.map_or(1.0, |f| link_rate(h, id, other, link, f));
                    let mut ng = g + rate * euclid(here, q);
                    if other == to {
                        // The goal's region is priced to the goal itself.
                        ng += rate * euclid(q, goal);
                    }
                    (ng, q)
                } else {
                    (g + link.cost(), start)
                };
                if ng < o.g {
                    o.g = ng;
                    o.parent = id;
                    o.via = k as u32;
                    o.at = q;
                    // The landmark bound once per region and search.
                    if o.lm < 0.0 {
                        o.lm = h.landmarks.bound_to(other, goal_row);
                    }
                    let hh = if !crossings {
                        let rep = h.regions[other as usize].representative();
                        (octile(rep, goal) as f32 * floor).max(o.lm)
                    } else if other == to {
                        0.0
                    } else {
                        (euclid(q, goal) * floor).max(CROSSING_LANDMARK_FACTOR * o.lm)
                    };
                    let f = ng + aw * hh;
                    heap.push(heap_key(f, other));
                }
            }
        }
        RouteRun::Empty
    }

    /// Writes the route found by [`CellPlanner::run_route`] (ending at
    /// region `r`) into `self.route` and `self.cross`; `false` if a parent
    /// link is missing (a search over another hierarchy state).
    pub(super) fn extract_route<N: Nodes>(
        &mut self,
        h: &Hierarchy,
        search: &RouteSearch,
        nodes: &mut N,
        mut r: u32,
    ) -> bool {
        self.only_crossings = true;
        loop {
            self.route.push(r);
            if r == search.from {
                let here = Run {
                    start: search.start,
                    len: 1,
                    vertical: false,
                };
                self.cross.push((here, here));
                break;
            }
            let node = *nodes.node(r);
            // The link from the parent into r, oriented from the parent.
            let Some(link) = h.graph.edges_slice(node.parent).get(node.via as usize) else {
                return false;
            };
            self.cross.push(link.crossing());
            self.only_crossings &= link.is_only_crossing();
            r = node.parent;
        }
        self.route.reverse();
        self.cross.reverse();
        true
    }
}
