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
//! Distances are quantised to `u16` in units of `scale` (the largest finite
//! distance / 65,534), rounded down, and one unit is taken off every bound,
//! which keeps it admissible; consistency then holds up to two units (under
//! a cell on the Moving AI maps), which can only cost the abstract route a
//! negligible amount, never a path. `u16::MAX` marks a region the landmark cannot
//! reach (that landmark then gives no bound for the pair).

use crate::graph::RegionGraph;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How many landmarks by default (2 bytes each per region; fewer when the
/// hierarchy must fit its memory budget).
pub(crate) const LANDMARKS: usize = 8;

const UNREACHED: u16 = u16::MAX;

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Landmarks {
    /// Landmarks actually chosen (fewer than [`LANDMARKS`] on tiny graphs).
    k: usize,
    /// Graph-cost units per stored unit.
    pub(crate) scale: f32,
    /// `dist[r * k + i]`: quantised distance from landmark `i` to region
    /// `r`.
    dist: Vec<u16>,
}

/// Dijkstra over the region graph from `source`, into `out` (f32::INFINITY
/// where unreached).
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

impl Landmarks {
    /// Chooses up to `count` landmarks and stores their distances.
    pub(crate) fn build(graph: &RegionGraph, count: usize) -> Landmarks {
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
        let mut nearest = vec![f32::INFINITY; n];
        let mut scratch = vec![0f32; n];
        dijkstra(graph, seed, &mut scratch);
        let mut next = argmax_finite(&scratch).unwrap_or(seed);
        let mut rows: Vec<Vec<f32>> = Vec::new();
        for _ in 0..count.min(n) {
            dijkstra(graph, next, &mut scratch);
            for (m, &d) in nearest.iter_mut().zip(&scratch) {
                *m = m.min(d);
            }
            rows.push(scratch.clone());
            match argmax_finite(&nearest) {
                Some(r) if nearest[r as usize] > 0.0 => next = r,
                _ => break,
            }
        }
        let k = rows.len();
        let max = rows
            .iter()
            .flatten()
            .copied()
            .filter(|d| d.is_finite())
            .fold(0f32, f32::max);
        let scale = (max / (UNREACHED - 1) as f32).max(f32::MIN_POSITIVE);
        let mut dist = vec![UNREACHED; n * k];
        for (i, row) in rows.iter().enumerate() {
            for (r, &d) in row.iter().enumerate() {
                if d.is_finite() {
                    dist[r * k + i] = ((d / scale) as u32).min(UNREACHED as u32 - 1) as u16;
                }
            }
        }
        Landmarks { k, scale, dist }
    }

    /// Landmarks held.
    pub(crate) fn count(&self) -> usize {
        self.k
    }

    /// The stored distances of region `r` (for the planner to keep the
    /// goal's row at hand).
    #[inline]
    pub(crate) fn row(&self, r: u32) -> &[u16] {
        &self.dist[r as usize * self.k..(r as usize + 1) * self.k]
    }

    /// A lower bound on the region-graph distance from region `a` to a
    /// goal region whose [`Landmarks::row`] is `goal`.
    #[inline]
    pub(crate) fn bound_to(&self, a: u32, goal: &[u16]) -> f32 {
        let row = self.row(a);
        let mut best = 0u16;
        for (&x, &y) in row.iter().zip(goal) {
            if x != UNREACHED && y != UNREACHED {
                best = best.max(x.abs_diff(y));
            }
        }
        best.saturating_sub(1) as f32 * self.scale
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.dist.len() * 2
    }
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

fn argmax_finite(d: &[f32]) -> Option<u32> {
    d.iter()
        .enumerate()
        .filter(|(_, x)| x.is_finite())
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| i as u32)
}
