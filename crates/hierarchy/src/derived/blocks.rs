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

use crate::graph::RegionGraph;
use fixedbitset::FixedBitSet;

/// No block or tree node.
const NONE: u32 = u32::MAX;

/// Blocks of one region graph: the block-cut tree only (no per-edge
/// data), about 4 bytes per region plus 8 per tree node.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Blocks {
    /// Number of blocks: tree nodes `0..blocks` are blocks, later ones cut
    /// regions.
    blocks: u32,
    /// Blocks that are a single edge (bridges).
    bridge: FixedBitSet,
    /// Block-cut tree node of each region: its cut node when it is a cut
    /// region, else the one block its edges lie in (`NONE` without edges).
    home: Vec<u32>,
    /// Parent of each tree node (`NONE` at the root of each tree); the
    /// parent of a block is a cut node and the other way round.
    parent: Vec<u32>,
    /// Depth of each tree node below its root.
    depth: Vec<u32>,
    /// Regions none of whose edges lies on a cycle: every edge is a bridge
    /// and the only place where its two regions touch (see
    /// [`Blocks::tree_like`]).
    tree_like: FixedBitSet,
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

impl Frame {
    /// Discovers region `v` (entered from `parent` by edge `enter`): its
    /// discovery time and low point are the next tick.
    fn open(
        v: u32,
        parent: u32,
        enter: u32,
        time: &mut u32,
        disc: &mut [u32],
        low: &mut [u32],
    ) -> Frame {
        *time += 1;
        disc[v as usize] = *time;
        low[v as usize] = *time;
        Frame {
            v,
            parent,
            enter,
            next: 0,
        }
    }
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
            stack.push(Frame::open(
                root, NONE, NONE, &mut time, &mut disc, &mut low,
            ));
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
                        stack.push(Frame::open(w, v, e, &mut time, &mut disc, &mut low));
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
        // Links grouped by source with a counting sort. Within each row
        // the targets come in push order, which is already ascending (a
        // cut node's blocks were sorted; a block meets its cut nodes in
        // the order they were numbered), so the rows match a full sort of
        // the pairs without one (on maze512-1 that sort was half this
        // function's instructions).
        let mut start = vec![0u32; nodes + 1];
        for &(a, _) in &links {
            start[a as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut sorted = vec![(0u32, 0u32); links.len()];
        for &(a, b) in &links {
            sorted[fill[a as usize] as usize] = (a, b);
            fill[a as usize] += 1;
        }
        let links = sorted;
        debug_assert!(links.windows(2).all(|w| w[0] < w[1]));
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
        let mut bridge = FixedBitSet::with_capacity(blocks as usize);
        for (b, &e) in block_edges.iter().enumerate() {
            bridge.set(b, e == 1);
        }
        let mut tree_like = FixedBitSet::with_capacity(n);
        for v in 0..n {
            let ends = row[v] as usize..row[v + 1] as usize;
            let ok = edge_block[ends]
                .iter()
                .zip(graph.edges_slice(v as u32))
                .all(|(&b, link)| b != NONE && bridge[b as usize] && link.is_only_crossing());
            tree_like.set(v, ok);
        }
        Blocks {
            blocks,
            bridge,
            home,
            parent,
            depth,
            tree_like,
        }
    }

    /// The stored form (format 8): the block count, then per region its
    /// tree node, per tree node its parent, the bridge bits of the blocks
    /// and the tree-like bits of the regions (depths follow from parents).
    pub(crate) fn parts(&self) -> (u32, &[u32], &[u32], &FixedBitSet, &FixedBitSet) {
        (
            self.blocks,
            &self.home,
            &self.parent,
            &self.bridge,
            &self.tree_like,
        )
    }

    /// Blocks read from a file (format 8) for `graph`, checked in one pass:
    /// tables of the right lengths, every tree node's parent in range and
    /// of the other kind (blocks under cut nodes and the other way round),
    /// no cycle of parents (the depths are computed on the way, so every
    /// walk up ends at a root); a region has a tree node exactly when it has
    /// links, and the two ends of every link lie in one block or in tree
    /// nodes next to it. What this cannot see (a block split or merged) can
    /// only make the restricted region search find nothing, and then it
    /// searches every block (`CellPlanner::route_in`); the bridge and
    /// tree-like bits only mark routes unique or exact (the answer's
    /// `exact` flag), never what is valid.
    pub(crate) fn from_parts(
        graph: &RegionGraph,
        blocks: u32,
        home: Vec<u32>,
        parent: Vec<u32>,
        bridge: FixedBitSet,
        tree_like: FixedBitSet,
    ) -> Result<Blocks, &'static str> {
        let (n, nodes) = (graph.node_count(), parent.len());
        if home.len() != n
            || blocks as usize > nodes
            || bridge.len() != blocks as usize
            || tree_like.len() != n
        {
            return Err("a block table's length");
        }
        for (x, &p) in parent.iter().enumerate() {
            if p != NONE && (p as usize >= nodes || ((x as u32) < blocks) == (p < blocks)) {
                return Err("a block-cut tree parent");
            }
        }
        // Depths: walk up from each node to one of known depth, then
        // number the walk back down. `ON_WALK` marks the current walk, so
        // a cycle of parents is found where it closes.
        const ON_WALK: u32 = NONE - 1;
        let mut depth = vec![NONE; nodes];
        let mut walk: Vec<u32> = Vec::new();
        for x in 0..nodes as u32 {
            let mut y = x;
            while depth[y as usize] == NONE {
                depth[y as usize] = ON_WALK;
                walk.push(y);
                match parent[y as usize] {
                    NONE => break,
                    p => y = p,
                }
            }
            let mut d = match depth[y as usize] {
                // Back on the walk: a cycle.
                ON_WALK if parent[y as usize] != NONE => {
                    return Err("a cycle of block-cut tree parents")
                }
                // A root, the walk's last node.
                ON_WALK => 0,
                known => known + 1,
            };
            while let Some(z) = walk.pop() {
                depth[z as usize] = d;
                d += 1;
            }
        }
        // Whether tree nodes `x` and `y` lie on one block: the same block,
        // a block and a cut node next to it, or two cut nodes of one block.
        let up = |x: u32| parent[x as usize];
        let near = |x: u32, y: u32| {
            x == y
                || up(x) == y
                || up(y) == x
                || (x >= blocks && y >= blocks && {
                    let (px, py) = (up(x), up(y));
                    (px != NONE && (px == py || up(px) == y)) || (py != NONE && up(py) == x)
                })
        };
        for r in 0..n as u32 {
            let x = home[r as usize];
            let links = graph.neighbors_slice(r);
            if links.is_empty() != (x == NONE) || (x != NONE && x as usize >= nodes) {
                return Err("a region's block-cut tree node");
            }
            for &b in links {
                let y = home[b as usize];
                if y == NONE || y as usize >= nodes || !near(x, y) {
                    return Err("a link's ends in no one block");
                }
            }
        }
        Ok(Blocks {
            blocks,
            bridge,
            home,
            parent,
            depth,
            tree_like,
        })
    }

    /// Number of block-cut tree nodes (blocks and cut regions).
    pub(crate) fn nodes(&self) -> usize {
        self.parent.len()
    }

    /// Whether no edge of region `r` lies on a cycle of cells through
    /// other regions: each is a bridge of the region graph and the only run
    /// where its two regions touch. A path that leaves such a region must
    /// come back over the cells it left by, so a shortest path between two
    /// of its cells stays inside it.
    pub(crate) fn tree_like(&self, r: u32) -> bool {
        self.tree_like.contains(r as usize)
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        (self.home.capacity() + self.parent.capacity() + self.depth.capacity()) * 4
            + self.bridge.len().div_ceil(8)
            + self.tree_like.len().div_ceil(8)
    }

    /// Whether region `r` lies in a block marked by [`Blocks::mark_path`]
    /// (`marks[t] == stamp`).
    #[inline]
    pub(crate) fn allowed(&self, r: u32, marks: &[u32], stamp: u32) -> bool {
        let x = self.home[r as usize];
        if x == NONE {
            return false;
        }
        if marks[x as usize] == stamp {
            return true;
        }
        // A cut region below a marked block (its parent) is in it.
        x >= self.blocks && {
            let p = self.parent[x as usize];
            p != NONE && marks[p as usize] == stamp
        }
    }

    /// Marks (`marks[t] = stamp`, `marks` one entry per tree node) every
    /// block on the tree path between regions `a` and `b` and the cut node
    /// above each, so that [`Blocks::allowed`] holds exactly for the
    /// regions of those blocks. Returns `None` when the regions are not
    /// connected (or have no edges), else whether every block on the path
    /// is a bridge (then the route between them is unique).
    pub(crate) fn mark_path(&self, a: u32, b: u32, marks: &mut [u32], stamp: u32) -> Option<bool> {
        self.path(a, b, |t| {
            marks[t as usize] = stamp;
            let p = self.parent[t as usize];
            if p != NONE {
                marks[p as usize] = stamp;
            }
        })
    }

    /// Calls `f` with each block on the block-cut tree path between regions
    /// `a` and `b`. Returns `None` when they are not connected (or have no
    /// edges), else whether every one of those blocks is a bridge (then the
    /// route between them is unique).
    fn path(&self, a: u32, b: u32, mut f: impl FnMut(u32)) -> Option<bool> {
        let (mut x, mut y) = (*self.home.get(a as usize)?, *self.home.get(b as usize)?);
        if x == NONE || y == NONE {
            return None;
        }
        let blocks = self.blocks;
        let mut bridges = true;
        let mut visit = |t: u32| {
            if t < blocks {
                bridges &= self.bridge.contains(t as usize);
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
    use crate::graph::{region_graph, Link};
    use regionpath_grid::Point;

    fn graph(n: usize, pairs: &[(u32, u32)]) -> RegionGraph {
        let p = Point::new(0, 0);
        let edges: Vec<_> = pairs
            .iter()
            .map(|&(a, b)| (a, b, Link::new(1.0, p, p, 1)))
            .collect();
        region_graph(n, &edges)
    }

    impl Blocks {
        /// Whether region `r` is in block `b` (tests only).
        fn contains(&self, b: u32, r: u32) -> bool {
            let x = self.home[r as usize];
            x == b
                || (x >= self.blocks
                    && (self.parent[x as usize] == b || self.parent[b as usize] == x))
        }

        /// The block holding both ends of an edge.
        fn of_edge(&self, u: u32, v: u32) -> u32 {
            let found: Vec<u32> = (0..self.blocks)
                .filter(|&b| self.contains(b, u) && self.contains(b, v))
                .collect();
            assert_eq!(found.len(), 1, "edge {u}-{v} in blocks {found:?}");
            found[0]
        }
    }

    /// Blocks on the tree path, sorted, and whether all are bridges.
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
        assert_eq!(b.blocks, 4);
        // Cut regions 2, 3, 5: seven tree nodes.
        assert_eq!(b.nodes(), 7);
        assert_eq!(b.of_edge(0, 1), b.of_edge(1, 2));
        assert_eq!(b.of_edge(0, 1), b.of_edge(2, 0));
        assert_eq!(b.of_edge(3, 4), b.of_edge(5, 3));
        let mut d = vec![
            b.of_edge(0, 1),
            b.of_edge(2, 3),
            b.of_edge(3, 4),
            b.of_edge(5, 6),
        ];
        d.sort_unstable();
        d.dedup();
        assert_eq!(d.len(), 4);
        // 0 -> 1: inside the first triangle, which is not a bridge.
        assert_eq!(blocks_on(&b, 0, 1), (vec![b.of_edge(0, 1)], Some(false)));
        // 0 -> 6 crosses all four blocks.
        assert_eq!(blocks_on(&b, 0, 6), (d.clone(), Some(false)));
        // 2 -> 3 and 5 -> 6: bridges only, so the route is unique.
        assert_eq!(blocks_on(&b, 2, 3), (vec![b.of_edge(2, 3)], Some(true)));
        assert_eq!(blocks_on(&b, 6, 5), (vec![b.of_edge(5, 6)], Some(true)));
        // 4 -> 2: the second triangle and the bridge.
        let mut want = vec![b.of_edge(3, 4), b.of_edge(2, 3)];
        want.sort_unstable();
        assert_eq!(blocks_on(&b, 4, 2), (want, Some(false)));
        // 4 -> 3: regions allowed are exactly the second triangle's.
        let mut marks = vec![0u32; b.nodes()];
        assert_eq!(b.mark_path(4, 3, &mut marks, 1), Some(false));
        let allowed: Vec<u32> = (0..8).filter(|&r| b.allowed(r, &marks, 1)).collect();
        assert_eq!(allowed, vec![3, 4, 5]);
        // The isolated region has no block.
        assert_eq!(b.path(7, 0, |_| {}), None);
        assert!(!b.allowed(7, &marks, 1));
    }

    /// Against brute force on a lattice with holes and a tail: an edge is
    /// a bridge block exactly when removing it disconnects its ends; for
    /// every connected pair, the regions `allowed` after marking their path
    /// still connect them (the exact allowed set is checked by hand in
    /// `triangles_bridge_and_pendant`).
    #[test]
    fn blocks_match_brute_force() {
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
        // Reachability from `from` avoiding edge `skip_edge` and region
        // `skip`, through regions where `ok` holds.
        let reach = |from: u32, skip_edge: (u32, u32), skip: u32, ok: &dyn Fn(u32) -> bool| {
            let mut seen = vec![false; n];
            let mut todo = vec![from];
            seen[from as usize] = true;
            while let Some(v) = todo.pop() {
                for &u in g.neighbors_slice(v) {
                    if (v, u) == skip_edge || (u, v) == skip_edge || u == skip {
                        continue;
                    }
                    if !seen[u as usize] && ok(u) {
                        seen[u as usize] = true;
                        todo.push(u);
                    }
                }
            }
            seen
        };
        let all = |_: u32| true;
        let mut bridges = 0;
        for &(u, v) in &pairs {
            let is_bridge = !reach(u, (u, v), NONE, &all)[v as usize];
            bridges += is_bridge as u32;
            let blk = b.of_edge(u, v);
            assert_eq!(b.bridge.contains(blk as usize), is_bridge, "edge {u}-{v}");
            assert_eq!(b.path(u, v, |_| {}), Some(is_bridge));
        }
        assert!(bridges >= 2);
        let mut marks = vec![0u32; b.nodes()];
        let mut stamp = 0;
        for a in 0..n as u32 {
            let from_a = reach(a, (NONE, NONE), NONE, &all);
            for c in 0..n as u32 {
                if a == c || !from_a[c as usize] {
                    continue;
                }
                stamp += 1;
                assert!(b.mark_path(a, c, &mut marks, stamp).is_some());
                let ok = |r: u32| b.allowed(r, &marks, stamp);
                assert!(ok(a) && ok(c));
                assert!(reach(a, (NONE, NONE), NONE, &ok)[c as usize], "{a} -> {c}");
            }
        }
    }
}
