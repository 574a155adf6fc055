//! Routes over the abstraction levels of large maps (see
//! [`crate::derived::levels`]): the top level first, then each level
//! inside the route of the level above and the nodes around it (two rings
//! of nodes above level 1, one at level 1), so the region search of a
//! route only visits regions along the way (a corridor).

use super::route::{best_point, euclid, heap_key, next_generation, ANode};
use super::*;
use crate::derived::levels::Level;

/// Heuristic weight of the level searches. Their routes are priced by
/// straight lines through crossings, so an unweighted search expands every
/// node whose line to the goal is nearly as short: on open caves a band of
/// nodes around the route. At 1.05 (30 rows of each 16,376² map, P89)
/// level expansions fell 7,100 → 5,620 a query on rooms and 1,770 → 440
/// on caves, while the corridors still hold about the same routes (rooms
/// 2.51 → 2.52 % over optimal on average with the region search
/// unweighted; 100 rows 2.76 % either way). 1.1 took rooms to 3.0–3.2 %.
pub(super) const LEVEL_WEIGHT: f32 = 1.05;

/// Per-level scratch of a planner (allocation-free once warm).
#[derive(Clone, Debug, Default)]
pub(super) struct LevelScratch {
    nodes: Vec<ANode>,
    gen: u32,
    /// Per level: a mark per node, equal to `mark_gen` when the node is in
    /// the current corridor.
    marks: Vec<Vec<u32>>,
    mark_gen: u32,
    path: Vec<u32>,
    /// The nodes marked by the last `mark_route` (for a second ring).
    ring: Vec<u32>,
    /// The nodes of the start and the goal at each level.
    start_nodes: Vec<u32>,
    goal_nodes: Vec<u32>,
}

impl LevelScratch {
    /// Whether region `r` lies in the current corridor: its level-1 node
    /// is marked.
    #[inline]
    pub fn marked_region(&self, levels: &[Level], r: u32) -> bool {
        levels
            .first()
            .and_then(|l| l.parent.get(r as usize))
            .is_some_and(|&n| self.is_marked(0, n))
    }

    /// Sizes the node and mark arrays for `levels` (see
    /// `CellPlanner::prepare`).
    pub fn prepare(&mut self, levels: &[Level]) {
        let largest = levels.iter().map(Level::len).max().unwrap_or(0);
        next_generation(&mut self.nodes, &mut self.gen, largest);
        self.bump(levels);
    }

    /// A fresh mark generation (clears every mark in O(1)).
    fn bump(&mut self, levels: &[Level]) {
        self.marks.resize_with(levels.len(), Vec::new);
        for (m, l) in self.marks.iter_mut().zip(levels) {
            if m.len() != l.len() {
                m.clear();
                m.resize(l.len(), 0);
            }
        }
        self.mark_gen = self.mark_gen.wrapping_add(1);
        if self.mark_gen == 0 {
            self.marks.iter_mut().for_each(|m| m.fill(0));
            self.mark_gen = 1;
        }
    }

    /// Marks the current route of level `k` and the nodes next to it.
    fn mark_route(&mut self, level: &Level, k: usize) {
        let gen = self.mark_gen;
        let Some(marks) = self.marks.get_mut(k) else {
            return;
        };
        self.ring.clear();
        for &n in &self.path {
            for &m in std::iter::once(&n).chain(level.neighbours(n)) {
                if let Some(x) = marks.get_mut(m as usize) {
                    if *x != gen {
                        *x = gen;
                        self.ring.push(m);
                    }
                }
            }
        }
    }

    /// Marks the nodes next to those the last `mark_route` marked at level
    /// `k`: a corridor two nodes wide on each side of the route.
    fn widen(&mut self, level: &Level, k: usize) {
        let gen = self.mark_gen;
        let Some(marks) = self.marks.get_mut(k) else {
            return;
        };
        for &n in &self.ring {
            for &m in level.neighbours(n) {
                if let Some(x) = marks.get_mut(m as usize) {
                    *x = gen;
                }
            }
        }
    }

    fn is_marked(&self, k: usize, n: u32) -> bool {
        self.marks
            .get(k)
            .and_then(|m| m.get(n as usize))
            .is_some_and(|&g| g == self.mark_gen)
    }

    /// Fills `start_nodes` and `goal_nodes`; `false` when a region is
    /// unknown to the levels.
    fn chains(&mut self, levels: &[Level], rs: u32, rg: u32) -> bool {
        self.start_nodes.clear();
        self.goal_nodes.clear();
        let (mut s, mut g) = (rs, rg);
        for level in levels {
            match (level.parent.get(s as usize), level.parent.get(g as usize)) {
                (Some(&a), Some(&b)) => {
                    s = a;
                    g = b;
                }
                _ => return false,
            }
            self.start_nodes.push(s);
            self.goal_nodes.push(g);
        }
        true
    }

    /// A* over level `k` from the start's node to the goal's, priced by
    /// crossings (the straight lines from `start` through the crossing
    /// of each edge taken to `goal`, times `floor`, the profile's
    /// cheapest step; each node keeps the crossing of its best
    /// relaxation), visiting only nodes `allow` admits; the route into
    /// `self.path`. Returns whether it found one. The straight line to the
    /// goal is weighted by [`LEVEL_WEIGHT`].
    fn search(
        &mut self,
        level: &Level,
        k: usize,
        (start, goal, floor): (Point, Point, f32),
        allow: impl Fn(&Self, u32) -> bool,
        heap: &mut BinaryHeap<Reverse<u64>>,
        expanded: &mut u32,
    ) -> bool {
        let (from, to) = (self.start_nodes[k], self.goal_nodes[k]);
        let n = level.len();
        self.path.clear();
        if from as usize >= n || to as usize >= n {
            return false;
        }
        let gen = next_generation(&mut self.nodes, &mut self.gen, n);
        heap.clear();
        self.nodes[from as usize] = ANode {
            g: 0.0,
            stamp: gen,
            at: start,
            ..ANode::BLANK
        };
        heap.push(heap_key(euclid(start, goal) * floor, from));
        let mut found = None;
        while let Some(Reverse(entry)) = heap.pop() {
            let id = entry as u32;
            let node = &mut self.nodes[id as usize];
            if node.closed {
                continue;
            }
            node.closed = true;
            let (g, here) = (node.g, node.at);
            *expanded += 1;
            if id == to {
                found = Some(id);
                break;
            }
            for (&other, run) in level.neighbours(id).iter().zip(level.runs(id)) {
                if self.nodes[other as usize].stamp != gen {
                    if !allow(self, other) {
                        continue;
                    }
                    self.nodes[other as usize] = ANode {
                        stamp: gen,
                        ..ANode::BLANK
                    };
                } else if self.nodes[other as usize].closed {
                    continue;
                }
                let q = best_point(*run, here, goal);
                let mut ng = g + euclid(here, q) * floor;
                let rest = euclid(q, goal) * floor;
                if other == to {
                    ng += rest;
                }
                let o = &mut self.nodes[other as usize];
                if ng < o.g && !o.closed {
                    o.g = ng;
                    o.parent = id;
                    o.at = q;
                    let f = if other == to {
                        ng
                    } else {
                        ng + LEVEL_WEIGHT * rest
                    };
                    heap.push(heap_key(f, other));
                }
            }
        }
        let Some(mut c) = found else {
            return false;
        };
        while c != u32::MAX {
            self.path.push(c);
            c = self.nodes[c as usize].parent;
        }
        self.path.reverse();
        self.path.first() == Some(&from)
    }
}

impl CellPlanner {
    /// Whether region searches between `rs` and `rg` go through the levels:
    /// [`PlannerConfig::get_levels`], the map has them, the hierarchy is not
    /// loose (an update's new regions have no level), and the two regions
    /// lie in different level-1 nodes.
    pub(super) fn use_levels(&self, h: &Hierarchy, rs: u32, rg: u32) -> bool {
        let levels = &h.connectivity.levels.levels;
        h.regions.len() as u64 >= self.config.levels_from as u64
            && !h.loose
            && levels
                .first()
                .is_some_and(|l| l.parent.get(rs as usize) != l.parent.get(rg as usize))
    }

    /// Marks the level-1 nodes of a corridor from region `rs` (entered at
    /// `start`) to `rg` (holding `goal`): the top level's route, then at
    /// each level below the route inside the nodes of the route above and
    /// two rings of nodes around them; the corridor is the level-1 route
    /// and the nodes next to it. Returns `false` when a search fails (the
    /// caller then searches every region). Costs a few hundred node
    /// expansions. Why two rings above level 1: level routes are priced by
    /// straight lines through crossings, blind to the walls inside a node,
    /// and a wider choice above lets the level-1 route go round them. On
    /// 16,376² rooms (30 rows) one ring everywhere left paths 3.57 % over
    /// optimal on average; two rings above level 1 2.51 % for the same
    /// region expansions (9.0 k); two everywhere 2.09 % for 13.8 k.
    pub(super) fn mark_corridor(
        &mut self,
        h: &Hierarchy,
        (rs, rg): (u32, u32),
        start: Point,
        goal: Point,
    ) -> bool {
        let levels = &h.connectivity.levels.levels;
        let ends = (start, goal, h.cost_floor());
        let ls = &mut self.levels;
        if levels.is_empty() || !ls.chains(levels, rs, rg) {
            return false;
        }
        ls.bump(levels);
        let top = levels.len() - 1;
        let mut heap = std::mem::take(&mut self.aheap);
        let mut expanded = 0;
        let mut ok = ls.search(
            &levels[top],
            top,
            ends,
            |_, _| true,
            &mut heap,
            &mut expanded,
        );
        let mut k = top;
        while ok && k > 0 {
            ls.mark_route(&levels[k], k);
            ls.widen(&levels[k], k);
            k -= 1;
            let parent = &levels[k + 1].parent;
            ok = ls.search(
                &levels[k],
                k,
                ends,
                |s, n| {
                    parent
                        .get(n as usize)
                        .is_some_and(|&p| s.is_marked(k + 1, p))
                },
                &mut heap,
                &mut expanded,
            );
        }
        if ok {
            ls.mark_route(&levels[0], 0);
        }
        self.aheap = heap;
        self.stats.cluster_expanded += expanded;
        ok
    }
}
