//! Biconnected blocks of the region graph and its block-cut tree.
//!
//! A block is a maximal piece of the region graph that stays connected when
//! any one region is taken out; blocks meet at cut regions (articulation
//! points), and blocks and cut regions form a forest, the block-cut tree.
//! Every route (a simple path) between two regions uses edges of exactly
//! the blocks on the tree path between them, so the abstract search may
//! ignore every other block without changing what it finds: on mazes and
//! tree-like maps those are the dead ends a straight-line heuristic
//! explores. When every block on that tree path is a single edge (a
//! bridge), the route is the only one there is.
//!
//! Built offline with the graph, and again after every update or load
//! (O(regions + edges), no file format change).

use crate::build::RegionGraph;

/// No block or tree node.
const NONE: u32 = u32::MAX;

/// Blocks of one region graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Blocks {
    /// `row[r]`: index of region `r`'s first edge in the graph's edge order
    /// (`row[r + 1]` one past its last).
    row: Vec<u32>,
    /// Block of each directed edge, in the graph's edge order.
    edge_block: Vec<u32>,
    /// Undirected edges per block (1: a bridge).
    block_edges: Vec<u32>,
    /// Block-cut tree node of each region: its cut node when it is a cut
    /// region, else the one block its edges lie in (`NONE` without edges).
    /// Tree nodes `0..blocks` are blocks, later ones cut regions.
    home: Vec<u32>,
    /// Parent of each tree node (`NONE` at the root of each tree).
    parent: Vec<u32>,
    /// Depth of each tree node below its root.
    depth: Vec<u32>,
}

/// One frame of the iterative depth-first search.
struct Frame {
    /// The region.
    v: u32,
    /// Its parent in the search (`NONE` at a root).
    parent: u32,
    /// The edge from the parent into `v`.
    enter: u32,
    /// Next neighbour to look at.
    next: u32,
}

impl Blocks {
    /// Finds the blocks of `graph` (Tarjan's edge-stack algorithm, without
    /// recursion) and roots the block-cut tree of each connected piece.
    pub(crate) fn build(graph: &RegionGraph) -> Blocks {
        let n = graph.node_count();
        let mut row = Vec::with_capacity(n + 1);
        let mut total = 0u32;
        for r in 0..n as u32 {
            row.push(total);
            total += graph.neighbors_slice(r).len() as u32;
        }
        row.push(total);
        let m = total as usize;
        let nbr = |v: u32| graph.neighbors_slice(v);
        let mut edge_block = vec![NONE; m];
        let mut block_edges: Vec<u32> = Vec::new();
        let mut disc = vec![0u32; n];
        let mut low = vec![0u32; n];
        let mut time = 0u32;
        let mut edges: Vec<u32> = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        for root in 0..n as u32 {
            if disc[root as usize] != 0 {
                continue;
            }
            time += 1;
            disc[root as usize] = time;
            low[root as usize] = time;
            stack.push(Frame {
                v: root,
                parent: NONE,
                enter: NONE,
                next: 0,
            });
            while let Some(f) = stack.last_mut() {
                let v = f.v;
                let ns = nbr(v);
                if (f.next as usize) < ns.len() {
                    let k = f.next;
                    f.next += 1;
                    let w = ns[k as usize];
                    let e = row[v as usize] + k;
                    if w == f.parent {
                        // The tree edge back (the graph has no parallel
                        // edges).
                        continue;
                    }
                    if disc[w as usize] == 0 {
                        edges.push(e);
                        time += 1;
                        disc[w as usize] = time;
                        low[w as usize] = time;
                        stack.push(Frame {
                            v: w,
                            parent: v,
                            enter: e,
                            next: 0,
                        });
                    } else if disc[w as usize] < disc[v as usize] {
                        // A back edge to an ancestor (seen once, from below).
                        edges.push(e);
                        low[v as usize] = low[v as usize].min(disc[w as usize]);
                    }
                    continue;
                }
                let Frame { parent, enter, .. } = *f;
                stack.pop();
                if parent == NONE {
                    continue;
                }
                let (p, vi) = (parent as usize, v as usize);
                low[p] = low[p].min(low[vi]);
                if low[vi] >= disc[p] {
                    // `parent` separates v's subtree: its edges since the
                    // tree edge into v form one block.
                    let b = block_edges.len() as u32;
                    let mut count = 0;
                    while let Some(x) = edges.pop() {
                        edge_block[x as usize] = b;
                        count += 1;
                        if x == enter {
                            break;
                        }
                    }
                    block_edges.push(count);
                }
            }
        }
        // Each undirected edge was stacked from one side: give the other
        // side the same block.
        for v in 0..n as u32 {
            for (k, &w) in nbr(v).iter().enumerate() {
                let e = (row[v as usize] as usize) + k;
                if edge_block[e] != NONE {
                    continue;
                }
                if let Ok(j) = nbr(w).binary_search(&v) {
                    edge_block[e] = edge_block[row[w as usize] as usize + j];
                }
            }
        }
        let blocks = block_edges.len() as u32;
        // Tree links: each region in two or more blocks is a cut node
        // joined to each of them.
        let mut home = vec![NONE; n];
        let mut links: Vec<(u32, u32)> = Vec::new();
        let mut mine: Vec<u32> = Vec::new();
        let mut cuts = 0u32;
        for v in 0..n {
            mine.clear();
            mine.extend_from_slice(&edge_block[row[v] as usize..row[v + 1] as usize]);
            mine.sort_unstable();
            mine.dedup();
            match mine.len() {
                0 => {}
                1 => home[v] = mine[0],
                _ => {
                    let c = blocks + cuts;
                    cuts += 1;
                    home[v] = c;
                    for &b in &mine {
                        links.push((c, b));
                        links.push((b, c));
                    }
                }
            }
        }
        let nodes = (blocks + cuts) as usize;
        links.sort_unstable();
        let mut start = vec![0u32; nodes + 1];
        for &(a, _) in &links {
            start[a as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut parent = vec![NONE; nodes];
        let mut depth = vec![NONE; nodes];
        let mut queue: Vec<u32> = Vec::new();
        for root in 0..nodes {
            if depth[root] != NONE {
                continue;
            }
            depth[root] = 0;
            queue.clear();
            queue.push(root as u32);
            let mut at = 0;
            while at < queue.len() {
                let x = queue[at] as usize;
                at += 1;
                for &(_, y) in &links[start[x] as usize..start[x + 1] as usize] {
                    if depth[y as usize] == NONE {
                        depth[y as usize] = depth[x] + 1;
                        parent[y as usize] = x as u32;
                        queue.push(y);
                    }
                }
            }
        }
        Blocks {
            row,
            edge_block,
            block_edges,
            home,
            parent,
            depth,
        }
    }

    /// Number of blocks.
    pub(crate) fn count(&self) -> usize {
        self.block_edges.len()
    }

    /// Block of region `r`'s `k`-th edge (in the graph's neighbour order).
    #[inline]
    pub(crate) fn of_edge(&self, r: u32, k: usize) -> u32 {
        self.edge_block[self.row[r as usize] as usize + k]
    }

    /// Calls `f` with each block on the block-cut tree path between regions
    /// `a` and `b`. Returns `None` when they are not connected (or have no
    /// edges), else whether every one of those blocks is a bridge (then the
    /// route between them is unique).
    pub(crate) fn path(&self, a: u32, b: u32, mut f: impl FnMut(u32)) -> Option<bool> {
        let (mut x, mut y) = (*self.home.get(a as usize)?, *self.home.get(b as usize)?);
        if x == NONE || y == NONE {
            return None;
        }
        let blocks = self.count() as u32;
        let mut bridges = true;
        let mut visit = |t: u32| {
            if t < blocks {
                bridges &= self.block_edges[t as usize] == 1;
                f(t);
            }
        };
        while x != y {
            let (dx, dy) = (self.depth[x as usize], self.depth[y as usize]);
            if dx >= dy {
                visit(x);
                x = self.parent[x as usize];
                if x == NONE {
                    return None;
                }
            } else {
                visit(y);
                y = self.parent[y as usize];
                if y == NONE {
                    return None;
                }
            }
        }
        visit(x);
        Some(bridges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{region_graph, Link};
    use regionpath_grid::Point;

    fn graph(n: usize, pairs: &[(u32, u32)]) -> RegionGraph {
        let p = Point::new(0, 0);
        let edges: Vec<_> = pairs
            .iter()
            .map(|&(a, b)| (a, b, Link::new(1.0, p, p, 1)))
            .collect();
        region_graph(n, &edges)
    }

    fn blocks_on(b: &Blocks, x: u32, y: u32) -> (Vec<u32>, Option<bool>) {
        let mut v = Vec::new();
        let u = b.path(x, y, |t| v.push(t));
        v.sort_unstable();
        (v, u)
    }

    /// Two triangles joined by a bridge, plus a pendant edge and an
    /// isolated region: four blocks, found by hand.
    #[test]
    fn triangles_bridge_and_pendant() {
        // 0-1-2 triangle, 2-3 bridge, 3-4-5 triangle, 5-6 pendant, 7 alone.
        let g = graph(
            8,
            &[
                (0, 1),
                (1, 2),
                (2, 0),
                (2, 3),
                (3, 4),
                (4, 5),
                (5, 3),
                (5, 6),
            ],
        );
        let b = Blocks::build(&g);
        assert_eq!(b.count(), 4);
        let block = |u: u32, v: u32| {
            let k = g.neighbors_slice(u).binary_search(&v).unwrap();
            b.of_edge(u, k)
        };
        // Both directions of an edge share a block.
        for &(u, v) in &[(0, 1), (2, 3), (4, 5), (5, 6)] {
            assert_eq!(block(u, v), block(v, u));
        }
        assert_eq!(block(0, 1), block(1, 2));
        assert_eq!(block(0, 1), block(2, 0));
        assert_eq!(block(3, 4), block(5, 3));
        let distinct = [block(0, 1), block(2, 3), block(3, 4), block(5, 6)];
        let mut d = distinct.to_vec();
        d.sort_unstable();
        d.dedup();
        assert_eq!(d.len(), 4);
        // 0 -> 1: inside the first triangle, which is not a bridge.
        assert_eq!(blocks_on(&b, 0, 1), (vec![block(0, 1)], Some(false)));
        // 0 -> 6 crosses all four blocks.
        let (on, unique) = blocks_on(&b, 0, 6);
        assert_eq!(on, d);
        assert_eq!(unique, Some(false));
        // 2 -> 3 and 5 -> 6: bridges only, so the route is unique.
        assert_eq!(blocks_on(&b, 2, 3), (vec![block(2, 3)], Some(true)));
        assert_eq!(blocks_on(&b, 6, 5), (vec![block(5, 6)], Some(true)));
        // 4 -> 2: the second triangle and the bridge.
        let mut want = vec![block(3, 4), block(2, 3)];
        want.sort_unstable();
        assert_eq!(blocks_on(&b, 4, 2), (want, Some(false)));
        // The isolated region has no block.
        assert_eq!(b.path(7, 0, |_| {}), None);
    }

    /// Against brute force on a lattice with holes and a tail: an edge is
    /// in a bridge block exactly when removing it disconnects its ends; for
    /// every connected pair, the edges of the blocks on their tree path
    /// still connect them, and a region whose removal does not separate
    /// them is never needed (each such block is on a cycle or the path).
    #[test]
    fn bridges_match_brute_force() {
        // A 5x4 lattice with some edges left out, and a tail.
        let (w, h) = (5u32, 4u32);
        let id = |x: u32, y: u32| y * w + x;
        let mut pairs = Vec::new();
        for y in 0..h {
            for x in 0..w {
                if x + 1 < w && (x + y) % 3 != 0 {
                    pairs.push((id(x, y), id(x + 1, y)));
                }
                if y + 1 < h && (x * 2 + y) % 4 != 1 {
                    pairs.push((id(x, y), id(x, y + 1)));
                }
            }
        }
        pairs.push((id(4, 3), 20));
        pairs.push((20, 21));
        let n = 22;
        let g = graph(n, &pairs);
        let b = Blocks::build(&g);
        let connected = |skip_edge: (u32, u32), from: u32, to: u32| {
            let mut seen = vec![false; n];
            let mut todo = vec![from];
            seen[from as usize] = true;
            while let Some(v) = todo.pop() {
                for &u in g.neighbors_slice(v) {
                    if (v, u) == skip_edge || (u, v) == skip_edge || seen[u as usize] {
                        continue;
                    }
                    seen[u as usize] = true;
                    todo.push(u);
                }
            }
            seen[to as usize]
        };
        let mut bridges = 0;
        for &(u, v) in &pairs {
            let k = g.neighbors_slice(u).binary_search(&v).unwrap();
            let blk = b.of_edge(u, k);
            let is_bridge = !connected((u, v), u, v);
            bridges += is_bridge as u32;
            assert_eq!(b.block_edges[blk as usize] == 1, is_bridge, "edge {u}-{v}");
            assert_eq!(b.path(u, v, |_| {}), Some(is_bridge));
        }
        assert!(bridges >= 2);
        // Every connected pair stays connected through its path's blocks.
        for a in 0..n as u32 {
            for c in 0..n as u32 {
                if a == c || !connected((NONE, NONE), a, c) {
                    continue;
                }
                let mut on = vec![false; b.count()];
                assert!(b.path(a, c, |t| on[t as usize] = true).is_some());
                let mut seen = vec![false; n];
                let mut todo = vec![a];
                seen[a as usize] = true;
                while let Some(v) = todo.pop() {
                    for (k, &u) in g.neighbors_slice(v).iter().enumerate() {
                        if on[b.of_edge(v, k) as usize] && !seen[u as usize] {
                            seen[u as usize] = true;
                            todo.push(u);
                        }
                    }
                }
                assert!(seen[c as usize], "{a} -> {c}");
            }
        }
    }
}
