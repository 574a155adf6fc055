//! Landmark lower bounds (ALT) for the abstract search.
//!
//! Offline, a few landmark regions are chosen far apart (farthest-point
//! selection) and the region-graph distance from each landmark to every
//! region is stored. By the triangle inequality, for any landmark `L`,
//! `|d(L, goal) − d(L, r)|` never exceeds `d(r, goal)`, so the largest such
//! difference is an admissible and consistent heuristic on the region graph.
//! Unlike the straight-line distance it knows about walls: on mazes and maps
//! with long obstacles it cuts the abstract search by a large factor.
//!
//! Distances are integers: a link's stored cost (1/64 cell) shifted right
//! by `shift` bits, summed by a Dijkstra over those rounded-down weights,
//! so each fits a `u16` (`shift` is the least that keeps twice the
//! eccentricity of a region of the largest component, a bound on every
//! finite distance, within 65,534) and is at most the true distance. Every
//! edge then satisfies `|d(L, a) − d(L, b)| ≤ w(a, b)` exactly in these
//! units, which is what makes the bound admissible and consistent (no
//! rounding slack), and what a loaded file is checked against
//! ([`Landmarks::check`]: linear in edges × landmarks, instead of one
//! Dijkstra per landmark). `u16::MAX` marks a region the landmark cannot
//! reach (that landmark then gives no bound for the pair).

use crate::graph::{Link, RegionGraph};
use regionpath_grid::{octile, Point};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How many landmarks by default (2 bytes each per region; fewer when the
/// hierarchy must fit its memory budget).
pub(crate) const LANDMARKS: usize = 8;

const UNREACHED: u16 = u16::MAX;

/// Largest finite stored distance.
const MAX_UNITS: u64 = UNREACHED as u64 - 1;

/// Regions a [`Landmarks::repair`] settles per landmark and call beyond
/// four per touched region; the rest waits for the next call: a bound on
/// an update's cost where an opening brings much of the map closer.
const REPAIR_POPS: usize = 256;

/// Most bits a weight is shifted by (a link cost is a `u16`: beyond this
/// every weight would be 0).
pub(crate) const MAX_SHIFT: u32 = 16;

/// Links' stored costs per cell (`Link::cost` is this many units exactly).
const LINK_UNITS: f32 = 64.0;

#[derive(Clone, Debug, Default)]
pub(crate) struct Landmarks {
    /// The landmark regions (fewer than [`LANDMARKS`] on tiny graphs).
    regions: Box<[u32]>,
    /// Weights are link costs (1/64 cell) shifted right by this.
    shift: u32,
    /// Cells per stored unit: `2^shift / 64`.
    pub(crate) scale: f32,
    /// `dist[r * k + i]`: distance from landmark `i` to region `r`, in
    /// stored units (after a [`Landmarks::repair`], a bound on it).
    dist: Vec<u16>,
    /// Bit `i`: landmark `i` has repair work left in `pending[i]` and
    /// gives no bound until it is done.
    off: u32,
    /// Per landmark, the regions a [`Landmarks::repair`] has yet to settle
    /// (a heap keyed by distance, region below); empty after a build.
    pending: Vec<BinaryHeap<Reverse<u64>>>,
}

impl PartialEq for Landmarks {
    /// The tables and the work left (not its order).
    fn eq(&self, other: &Landmarks) -> bool {
        self.regions == other.regions
            && self.shift == other.shift
            && self.dist == other.dist
            && self.off == other.off
            && self
                .pending
                .iter()
                .map(|h| h.len())
                .eq(other.pending.iter().map(|h| h.len()))
    }
}

/// A link's weight in units of `2^shift / 64` cell, rounded down.
#[inline]
fn weight(link: &Link, shift: u32) -> u32 {
    u32::from(link.cost_units()) >> shift
}

/// Dijkstra over the region graph from `source`, into `out` (f32::INFINITY
/// where unreached): the exact region-graph distances, for tests.
#[cfg(test)]
pub(crate) fn dijkstra(graph: &RegionGraph, source: u32, out: &mut [f32]) {
    out.iter_mut().for_each(|d| *d = f32::INFINITY);
    let mut heap = BinaryHeap::new();
    out[source as usize] = 0.0;
    heap.push(Reverse(((0f32).to_bits() as u64) << 32 | source as u64));
    while let Some(Reverse(key)) = heap.pop() {
        let (d, r) = (f32::from_bits((key >> 32) as u32), key as u32);
        if d > out[r as usize] {
            continue;
        }
        for (&o, link) in graph.neighbors_slice(r).iter().zip(graph.edges_slice(r)) {
            let nd = d + link.cost();
            if nd < out[o as usize] {
                out[o as usize] = nd;
                heap.push(Reverse((nd.to_bits() as u64) << 32 | o as u64));
            }
        }
    }
}

/// Dijkstra over the region graph from `source` with integer weights
/// ([`weight`] at `shift`), into `out` (`u32::MAX` where unreached), for
/// a `shift` that keeps every distance within [`MAX_UNITS`]: the heap's
/// key packs the distance above the region.
fn dijkstra_small(
    graph: &RegionGraph,
    source: u32,
    shift: u32,
    out: &mut [u32],
    heap: &mut BinaryHeap<Reverse<u64>>,
) {
    out.iter_mut().for_each(|d| *d = u32::MAX);
    heap.clear();
    out[source as usize] = 0;
    heap.push(Reverse(u64::from(source)));
    while let Some(Reverse(key)) = heap.pop() {
        let (d, r) = ((key >> 32) as u32, key as u32);
        if d > out[r as usize] {
            continue;
        }
        for (&o, link) in graph.neighbors_slice(r).iter().zip(graph.edges_slice(r)) {
            // Capped below "unreached" (the seed's run tells it apart).
            let nd = d.saturating_add(weight(link, shift)).min(u32::MAX - 1);
            if nd < out[o as usize] {
                out[o as usize] = nd;
                heap.push(Reverse(u64::from(nd) << 32 | u64::from(o)));
            }
        }
    }
}

/// [`dijkstra_small`] with a bucket queue (Dial's): the weights are
/// integers below `2^16 >> shift`, so a ring of that many buckets holds
/// every open distance, and a region is queued and taken in O(1) instead
/// of O(log regions). The same distances (a shortest-path distance does
/// not depend on the queue); used for the landmarks' runs, whose
/// distances are small (at most [`MAX_UNITS`] in the largest component).
pub(crate) fn dijkstra_buckets(
    graph: &RegionGraph,
    source: u32,
    shift: u32,
    out: &mut [u32],
    ring: &mut Vec<Vec<u32>>,
) {
    out.iter_mut().for_each(|d| *d = u32::MAX);
    let span = ((1usize << 16) >> shift).next_power_of_two();
    ring.resize_with(span, Vec::new);
    ring.iter_mut().for_each(Vec::clear);
    let mask = span - 1;
    out[source as usize] = 0;
    ring[0].push(source);
    let (mut queued, mut at) = (1usize, 0u32);
    while queued > 0 {
        let b = at as usize & mask;
        while let Some(r) = ring[b].pop() {
            queued -= 1;
            if out[r as usize] != at {
                continue;
            }
            for (&o, link) in graph.neighbors_slice(r).iter().zip(graph.edges_slice(r)) {
                // Capped below "unreached", as in `dijkstra_small`.
                let nd = at.saturating_add(weight(link, shift)).min(u32::MAX - 1);
                if nd < out[o as usize] {
                    out[o as usize] = nd;
                    ring[nd as usize & mask].push(o);
                    queued += 1;
                }
            }
        }
        at += 1;
    }
}

/// [`dijkstra_small`] without a bound on the distances (`u64::MAX` where
/// unreached): the seed's run that sets the shift.
pub(crate) fn dijkstra_units(
    graph: &RegionGraph,
    source: u32,
    shift: u32,
    out: &mut [u64],
    heap: &mut BinaryHeap<Reverse<(u64, u32)>>,
) {
    out.iter_mut().for_each(|d| *d = u64::MAX);
    heap.clear();
    out[source as usize] = 0;
    heap.push(Reverse((0, source)));
    while let Some(Reverse((d, r))) = heap.pop() {
        if d > out[r as usize] {
            continue;
        }
        for (&o, link) in graph.neighbors_slice(r).iter().zip(graph.edges_slice(r)) {
            let nd = d + u64::from(weight(link, shift));
            if nd < out[o as usize] {
                out[o as usize] = nd;
                heap.push(Reverse((nd, o)));
            }
        }
    }
}

impl Landmarks {
    /// Chooses up to `count` landmarks and stores their distances. `rep`
    /// gives a region's representative cell; on graphs of at least
    /// [`PAIRED_FROM`] regions the landmarks are chosen two at a time and
    /// their Dijkstras run side by side when `parallel` (see below). The
    /// landmarks do not depend on `parallel`.
    pub(crate) fn build(
        graph: &RegionGraph,
        count: usize,
        rep: impl Fn(u32) -> Point + Sync,
        parallel: bool,
    ) -> Landmarks {
        let paired = graph.node_count() >= PAIRED_FROM;
        Landmarks::choose(graph, count, rep, parallel, paired)
    }

    /// [`Landmarks::build`], two at a time when `paired` whatever the
    /// graph's size (tests reach the pairs on small graphs).
    pub(crate) fn choose(
        graph: &RegionGraph,
        count: usize,
        rep: impl Fn(u32) -> Point + Sync,
        parallel: bool,
        paired: bool,
    ) -> Landmarks {
        let n = graph.node_count();
        if n == 0 || count == 0 {
            return Landmarks::default();
        }
        // Farthest-point selection inside the largest connected component
        // (landmarks in small pockets would bound almost nothing): each new
        // landmark is the region of that component whose distance to the
        // nearest chosen landmark is largest; the first is the region
        // farthest from an arbitrary region of the component.
        let seed = largest_component_member(graph);
        let mut heap = BinaryHeap::new();
        let mut scratch = vec![0u32; n];
        dijkstra_small(graph, seed, 0, &mut scratch, &mut heap);
        let mut from_seed: Vec<u64> = scratch.iter().map(|&d| u64::from(d)).collect();
        if scratch.contains(&(u32::MAX - 1)) {
            // Saturated (over 67 million cells away): again without a bound.
            dijkstra_units(graph, seed, 0, &mut from_seed, &mut BinaryHeap::new());
        } else {
            from_seed.iter_mut().for_each(|d| {
                if *d == u64::from(u32::MAX) {
                    *d = u64::MAX;
                }
            });
        }
        // Every finite distance from a landmark (in the seed's component)
        // is at most twice the seed's eccentricity.
        let ecc = from_seed.iter().copied().filter(|&d| d != u64::MAX).max();
        let bound = 2 * ecc.unwrap_or(0);
        let shift = (0..MAX_SHIFT)
            .find(|&s| bound >> s <= MAX_UNITS)
            .unwrap_or(MAX_SHIFT);
        let far = from_seed
            .iter()
            .enumerate()
            .filter(|(_, &d)| d != u64::MAX)
            .max_by_key(|(_, &d)| d);
        let mut next = far.map_or(seed, |(r, _)| r as u32);
        // The seed's component, for a pair's second landmark of the first
        // round (no landmark distances yet).
        let in_component: Vec<bool> = from_seed.iter().map(|&d| d != u64::MAX).collect();
        drop(from_seed);
        let mut nearest = vec![u32::MAX; n];
        let mut regions = Vec::new();
        let mut rows: Vec<Vec<u32>> = Vec::new();
        let mut ring = Vec::new();
        let want = count.min(n);
        while regions.len() < want {
            // Two at a time on large graphs: `next`, and the region that is
            // farthest from the landmarks so far and, by the straight line
            // between representatives (in the same units), from `next`; the
            // two Dijkstras then run side by side. Why: one Dijkstra over
            // 4 M regions takes most of a second on one core, and farthest
            // point selection needs each row before the next landmark.
            let second = (paired && regions.len() + 2 <= want)
                .then(|| pair_with(next, &nearest, &in_component, &rep, shift))
                .flatten();
            match second {
                Some(b) => {
                    let run = |source: u32| {
                        let (mut out, mut ring) = (vec![0u32; n], Vec::new());
                        dijkstra_buckets(graph, source, shift, &mut out, &mut ring);
                        out
                    };
                    let (ra, rb) = crate::par::join(parallel, || run(next), || run(b));
                    for row in [&ra, &rb] {
                        for (m, &d) in nearest.iter_mut().zip(row) {
                            *m = (*m).min(d);
                        }
                    }
                    regions.extend([next, b]);
                    rows.extend([ra, rb]);
                }
                None => {
                    dijkstra_buckets(graph, next, shift, &mut scratch, &mut ring);
                    for (m, &d) in nearest.iter_mut().zip(&scratch) {
                        *m = (*m).min(d);
                    }
                    regions.push(next);
                    rows.push(scratch.clone());
                }
            }
            match argmax_finite(&nearest) {
                Some(r) if nearest[r as usize] > 0 => next = r,
                _ => break,
            }
        }
        let k = rows.len();
        let mut dist = vec![UNREACHED; n * k];
        for (i, row) in rows.iter().enumerate() {
            for (r, &d) in row.iter().enumerate() {
                if d != u32::MAX {
                    // At most `bound >> shift` (see above): never clamped.
                    dist[r * k + i] = u64::from(d).min(MAX_UNITS) as u16;
                }
            }
        }
        Landmarks::from_parts(regions, shift, dist)
    }

    /// Landmarks of regions `regions` with weights shifted by `shift` and
    /// distances `dist` (`dist[r * k + i]`), as stored; unchecked (see
    /// [`Landmarks::check`]).
    pub(crate) fn from_parts(regions: Vec<u32>, shift: u32, dist: Vec<u16>) -> Landmarks {
        Landmarks {
            regions: regions.into_boxed_slice(),
            shift,
            scale: (1u64 << shift) as f32 / LINK_UNITS,
            dist,
            off: 0,
            pending: Vec::new(),
        }
    }

    /// Keeps the bounds admissible and consistent after a local update
    /// changed the graph (now `graph`, with `n` regions, new ones at the
    /// end): the rows of `reset` (regions whose cells changed, new or
    /// retired) are forgotten, then for each landmark a Dijkstra seeded
    /// with the current rows of `seeds` (both ends of every link made
    /// again) lowers every row above a neighbour's row plus the link's
    /// weight, and so on outward. Once a landmark's work is done, every
    /// link satisfies `|d(a) − d(b)| ≤ w(a, b)` with both ends reached or
    /// neither (what
    /// [`Landmarks::check`] demands but for the landmarks' own zeros, which
    /// an edit may move): the bound stays admissible and consistent.
    ///
    /// Removed links need nothing (fewer constraints); a wall that makes a
    /// detour leaves the old, smaller distances in place (a weaker bound
    /// until [`crate::Hierarchy::refresh`]), an opening lowers them as far
    /// as it reaches. Cost: the touched regions and whatever an
    /// opening brings closer to a landmark, times the landmarks, but at
    /// most [`REPAIR_POPS`] plus four per touched region settled per
    /// landmark and call. A landmark with work left over (an opening that
    /// shortens the way to much of the map, a join with a large piece it
    /// did not reach) gives no bound ([`Landmarks::goal_row`] masks it)
    /// and goes on at the next repair: the work is spread over updates.
    pub(crate) fn repair(&mut self, graph: &RegionGraph, n: usize, reset: &[u32], seeds: &[u32]) {
        let k = self.count();
        if k == 0 {
            return;
        }
        self.dist.resize(n * k, UNREACHED);
        for &r in reset {
            self.dist[r as usize * k..(r as usize + 1) * k].fill(UNREACHED);
        }
        self.pending.resize_with(k, BinaryHeap::new);
        // Tests spread nearly every repair over several calls.
        let budget = if cfg!(test) {
            3
        } else {
            REPAIR_POPS + 4 * (seeds.len() + reset.len())
        };
        for i in 0..k {
            let heap = &mut self.pending[i];
            for &s in seeds {
                let d = self.dist[s as usize * k + i];
                if d != UNREACHED {
                    heap.push(Reverse(u64::from(d) << 32 | u64::from(s)));
                }
            }
            let mut pops = 0;
            while pops < budget {
                let Some(Reverse(key)) = heap.pop() else {
                    break;
                };
                let (d, r) = ((key >> 32) as u32, key as u32);
                if d != u32::from(self.dist[r as usize * k + i]) {
                    continue;
                }
                pops += 1;
                for (&o, link) in graph.neighbors_slice(r).iter().zip(graph.edges_slice(r)) {
                    // Capped: min(d, MAX_UNITS) keeps every difference
                    // within the weight.
                    let nd = (d + weight(link, self.shift)).min(MAX_UNITS as u32);
                    let at = &mut self.dist[o as usize * k + i];
                    if nd < u32::from(*at) {
                        *at = nd as u16;
                        heap.push(Reverse(u64::from(nd) << 32 | u64::from(o)));
                    }
                }
            }
            if heap.is_empty() {
                self.off &= !(1 << i);
                // Big heaps are not kept between updates.
                if heap.capacity() > 4 * budget {
                    *heap = BinaryHeap::new();
                }
            } else {
                self.off |= 1 << i;
            }
        }
    }

    /// The landmark regions, the weight shift and the distance table (as
    /// [`Landmarks::from_parts`] takes them).
    pub(crate) fn parts(&self) -> (&[u32], u32, &[u16]) {
        (&self.regions, self.shift, &self.dist)
    }

    /// Whether these distances bound the graph with edges `edges` (`(a, b,
    /// link)`, every edge once) over `n` regions: the table has `n × k`
    /// entries, each landmark is a region at distance 0 from itself, and
    /// along every edge a landmark's distances are both unreached or differ
    /// by at most the edge's weight. Summed along any path, that makes
    /// every bound at most the true distance (admissible) and consistent,
    /// and unreached exactly on whole connected pieces. O(edges × k).
    pub(crate) fn check(
        &self,
        n: usize,
        edges: impl IntoIterator<Item = (u32, u32, Link)>,
    ) -> Result<(), &'static str> {
        let k = self.count();
        if k > LANDMARKS || self.shift > MAX_SHIFT || self.dist.len() != n * k {
            return Err("landmark table has the wrong shape");
        }
        for (i, &l) in self.regions.iter().enumerate() {
            if l as usize >= n || self.dist[l as usize * k + i] != 0 {
                return Err("a landmark is not at distance 0 from itself");
            }
        }
        if k == 0 {
            return Ok(());
        }
        // One verdict per edge, without a branch per landmark (the test
        // fails only on a damaged file). A reached end beside an
        // unreached one fails apart from the difference, which a weight
        // clamped to `u16::MAX` would let pass.
        let differ = |ra: &[u16], rb: &[u16], w: u16| {
            let mut bad = false;
            for (&x, &y) in ra.iter().zip(rb) {
                let one_unreached = (x == UNREACHED) != (y == UNREACHED);
                bad |= one_unreached | (x.abs_diff(y) > w);
            }
            bad
        };
        for (a, b, link) in edges {
            let w = weight(&link, self.shift).min(u32::from(u16::MAX)) as u16;
            let (ra, rb) = (self.row(a), self.row(b));
            // A full table's rows as arrays: a fixed length the compiler
            // turns into a few vector instructions.
            let bad = match (
                <&[u16; LANDMARKS]>::try_from(ra),
                <&[u16; LANDMARKS]>::try_from(rb),
            ) {
                (Ok(ra), Ok(rb)) => differ(ra, rb, w),
                _ => differ(ra, rb, w),
            };
            if bad {
                return Err("landmark distances differ by more than an edge's cost");
            }
        }
        Ok(())
    }

    /// Landmarks held.
    pub(crate) fn count(&self) -> usize {
        self.regions.len()
    }

    /// Landmarks held and giving bounds (not waiting for repair work).
    pub(crate) fn live(&self) -> usize {
        self.count() - self.off.count_ones() as usize
    }

    /// The stored distances of goal region `r` for [`Landmarks::bound_to`],
    /// landmarks with repair work left masked as unreached (they give no
    /// bound). O(landmarks).
    #[inline]
    pub(crate) fn goal_row(&self, r: u32) -> [u16; LANDMARKS] {
        let mut out = [UNREACHED; LANDMARKS];
        for (i, (o, &d)) in out.iter_mut().zip(self.row(r)).enumerate() {
            if self.off >> i & 1 == 0 {
                *o = d;
            }
        }
        out
    }

    /// The stored distances of region `r` (for the planner to keep the
    /// goal's row at hand).
    #[inline]
    pub(crate) fn row(&self, r: u32) -> &[u16] {
        let k = self.count();
        &self.dist[r as usize * k..(r as usize + 1) * k]
    }

    /// A lower bound on the region-graph distance from region `a` to a
    /// goal region whose [`Landmarks::goal_row`] is `goal`.
    #[inline]
    pub(crate) fn bound_to(&self, a: u32, goal: &[u16]) -> f32 {
        let row = self.row(a);
        let mut best = 0u16;
        for (&x, &y) in row.iter().zip(goal) {
            if x != UNREACHED && y != UNREACHED {
                best = best.max(x.abs_diff(y));
            }
        }
        best as f32 * self.scale
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.dist.len() * 2 + self.regions.len() * 4
    }
}

/// Region graphs of at least this many regions choose their landmarks two
/// at a time ([`Landmarks::build`]); smaller ones one at a time, as
/// before (every Moving AI map).
pub(crate) const PAIRED_FROM: usize = 1 << 18;

/// The second landmark of a pair whose first is `a`: among regions of the
/// largest component (`in_component`) other than `a`, the one whose
/// smaller of the distance to the nearest landmark so far (`nearest`,
/// `u32::MAX` before any) and the straight-line estimate of the distance
/// to `a` (octile between representatives, in link units at `shift`) is
/// largest; the lowest such region on ties. `None` when that is 0.
fn pair_with(
    a: u32,
    nearest: &[u32],
    in_component: &[bool],
    rep: &impl Fn(u32) -> Point,
    shift: u32,
) -> Option<u32> {
    let pa = rep(a);
    let per_cell = 64.0 / (1u64 << shift) as f64;
    let mut best: Option<(u32, u32)> = None;
    for (r, (&d, &inside)) in nearest.iter().zip(in_component).enumerate() {
        let r = r as u32;
        if !inside || r == a {
            continue;
        }
        let est = (octile(pa, rep(r)) * per_cell).min(f64::from(u32::MAX - 1)) as u32;
        let score = d.min(est);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((r, score));
        }
    }
    best.filter(|&(_, s)| s > 0).map(|(r, _)| r)
}

/// A region of the largest connected component of the graph.
fn largest_component_member(graph: &RegionGraph) -> u32 {
    let n = graph.node_count();
    let mut comp = vec![u32::MAX; n];
    let mut stack = Vec::new();
    let (mut best, mut best_size) = (0u32, 0usize);
    for s in 0..n as u32 {
        if comp[s as usize] != u32::MAX {
            continue;
        }
        comp[s as usize] = s;
        stack.push(s);
        let mut size = 0;
        while let Some(r) = stack.pop() {
            size += 1;
            for &o in graph.neighbors_slice(r) {
                if comp[o as usize] == u32::MAX {
                    comp[o as usize] = s;
                    stack.push(o);
                }
            }
        }
        if size > best_size {
            (best, best_size) = (s, size);
        }
    }
    best
}

fn argmax_finite(d: &[u32]) -> Option<u32> {
    d.iter()
        .enumerate()
        .filter(|(_, &x)| x != u32::MAX)
        .max_by_key(|(_, &x)| x)
        .map(|(i, _)| i as u32)
}
