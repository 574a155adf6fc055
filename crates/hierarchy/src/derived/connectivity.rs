//! Reachability and clusters over the top level of the hierarchy.
//!
//! Reachability: a component label per region (the connected components of
//! the region graph); two regions are connected when their labels are
//! equal. O(1), no search. A build numbers the components densely in the
//! order of their first regions; a local update ([`crate::Hierarchy::update`])
//! keeps the labels exact by relabelling locally (see `update.rs`): labels
//! then need not be dense, and [`crate::Hierarchy::refresh`] renumbers them.
//!
//! Clusters: the connected pieces of the region graph inside one
//! super-sector (a square of `m × m` sectors). A cluster whose whole
//! connected component lies inside it is *closed*: a partial path from a
//! region of a closed cluster looks only at its super-sector's sectors.
//! `m` starts at 8 and doubles until the open clusters number at most the
//! square root of the map's cells (the rule of the bit-matrix over open
//! cluster pairs this replaced, so the clusters are the same). A local
//! update leaves the clusters as they were (regions it adds have none,
//! and a partial path from those looks at every sector).

use crate::graph::{Region, RegionGraph};
use crate::sector::Layout;

/// The label of no component (a retired region id).
pub(crate) const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Connectivity {
    /// Super-sector side, in sectors.
    pub super_size: u32,
    pub cluster_of_region: Vec<u32>,
    /// Index among open clusters, `u32::MAX` for closed ones.
    pub open_index: Vec<u32>,
    /// Per region: its connected component's label (`NONE` for a retired
    /// region id).
    pub component: Vec<u32>,
    /// Per label: the regions holding it (0 for labels no longer used).
    pub sizes: Vec<u32>,
    /// The abstraction levels of large maps (see [`super::levels`]).
    pub levels: super::levels::Levels,
}

/// The number of labels of `labels` when they are dense in the order of
/// first appearance (each new label one above the largest so far), else
/// `None`.
pub(crate) fn dense_count(labels: &[u32]) -> Option<usize> {
    let mut next = 0u32;
    for &l in labels {
        if l == next {
            next += 1;
        } else if l > next {
            return None;
        }
    }
    Some(next as usize)
}

/// Checks a graph in compressed rows over `nodes` nodes: `start` has
/// `nodes + 1` entries from 0 up to `adj.len()`, and each row's targets are
/// below `targets`, ascending without repeats (and, when `targets ==
/// nodes`, not the row's own node).
pub(crate) fn check_rows(
    start: &[u32],
    adj: &[u32],
    nodes: usize,
    targets: usize,
) -> Result<(), &'static str> {
    if start.len() != nodes + 1 || start[0] != 0 || start[nodes] as usize != adj.len() {
        return Err("a graph's rows do not cover its entries");
    }
    for (c, w) in start.windows(2).enumerate() {
        let row = adj
            .get(w[0] as usize..w[1] as usize)
            .ok_or("a graph's rows are not in order")?;
        if row
            .iter()
            .any(|&t| t as usize >= targets || (targets == nodes && t as usize == c))
            || row.windows(2).any(|p| p[0] >= p[1])
        {
            return Err("a graph's row is out of range or out of order");
        }
    }
    Ok(())
}

/// Union-find over `0..n` (path halving, the lower root wins); also used
/// by [`super::levels`].
pub(crate) struct UnionFind(Vec<u32>);

impl UnionFind {
    pub(crate) fn new(n: usize) -> Self {
        UnionFind((0..n as u32).collect())
    }
    fn find(&mut self, mut a: u32) -> u32 {
        while self.0[a as usize] != a {
            let p = self.0[self.0[a as usize] as usize];
            self.0[a as usize] = p;
            a = p;
        }
        a
    }
    pub(crate) fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.0[hi as usize] = lo;
        }
    }
    /// Dense labels 0..k in order of first appearance.
    pub(crate) fn dense(&mut self) -> (Vec<u32>, usize) {
        let n = self.0.len();
        let mut map = vec![u32::MAX; n];
        let mut out = Vec::with_capacity(n);
        let mut k = 0u32;
        for i in 0..n as u32 {
            let r = self.find(i) as usize;
            if map[r] == u32::MAX {
                map[r] = k;
                k += 1;
            }
            out.push(map[r]);
        }
        (out, k as usize)
    }
}

/// Per cluster its index among the open clusters (`u32::MAX` for a closed
/// one: its regions are its whole component), and how many are open.
fn open_clusters(
    cluster_of_region: &[u32],
    nclusters: usize,
    component: &[u32],
    comp_size: &[u32],
) -> (Vec<u32>, usize) {
    let mut cluster_size = vec![0u32; nclusters];
    let mut cluster_comp = vec![0u32; nclusters];
    for (r, &c) in cluster_of_region.iter().enumerate() {
        cluster_size[c as usize] += 1;
        cluster_comp[c as usize] = component[r];
    }
    let mut open_index = vec![u32::MAX; nclusters];
    let mut k = 0u32;
    for c in 0..nclusters {
        if cluster_size[c] != comp_size[cluster_comp[c] as usize] {
            open_index[c] = k;
            k += 1;
        }
    }
    (open_index, k as usize)
}

impl Connectivity {
    pub fn build(layout: &Layout, regions: &[Region], graph: &RegionGraph, cells: u64) -> Self {
        let n = regions.len();
        let mut all = UnionFind::new(n);
        for a in 0..n as u32 {
            for &b in graph.neighbors_slice(a) {
                all.union(a, b);
            }
        }
        let (component, ncomp) = all.dense();
        let mut comp_size = vec![0u32; ncomp];
        for &c in &component {
            comp_size[c as usize] += 1;
        }
        let mut m = 8u32;
        loop {
            let sup = |r: &Region| {
                let (sx, sy) = layout.coords(r.sector());
                (sy / m) * layout.sectors_x.div_ceil(m) + sx / m
            };
            let mut uf = UnionFind::new(n);
            for a in 0..n as u32 {
                for &b in graph.neighbors_slice(a) {
                    if a < b && sup(&regions[a as usize]) == sup(&regions[b as usize]) {
                        uf.union(a, b);
                    }
                }
            }
            let (cluster_of_region, nclusters) = uf.dense();
            let (open_index, k) =
                open_clusters(&cluster_of_region, nclusters, &component, &comp_size);
            let covers_map = m >= layout.sectors_x && m >= layout.sectors_y;
            if (k as u64) * (k as u64) <= cells.max(1) || covers_map {
                return Connectivity {
                    super_size: m,
                    cluster_of_region,
                    open_index,
                    component,
                    sizes: comp_size,
                    levels: super::levels::Levels::build(layout, regions, graph),
                };
            }
            m *= 2;
        }
    }

    /// The connectivity stored in a `.rph` file (format 10) over checked
    /// regions and their graph: the component and cluster labels, the
    /// super-sector side and the levels; sizes and open clusters are
    /// derived (O(regions)). Checked in one pass over the graph: both
    /// labellings dense in the order of first regions, every link inside
    /// one component, every link inside one super-sector inside one
    /// cluster, every cluster inside one component, a region without links
    /// alone in its component (the levels by [`Levels::check`]). What the
    /// pass cannot see (two linked components under one label: every label
    /// of one changed; two clusters merged) does not make an answer
    /// invalid: the region search still follows links only, and a route it
    /// cannot find is an error ([`crate::PlanError::Stale`]), never a path.
    ///
    /// [`Levels::check`]: super::levels::Levels::check
    #[allow(clippy::too_many_arguments)]
    pub fn from_parts(
        layout: &Layout,
        regions: &[Region],
        graph: &RegionGraph,
        super_size: u32,
        component: Vec<u32>,
        cluster_of_region: Vec<u32>,
        levels: super::levels::Levels,
    ) -> Result<Connectivity, &'static str> {
        let n = regions.len();
        if component.len() != n || cluster_of_region.len() != n {
            return Err("a label table's length is not the region count");
        }
        if super_size < 8 || !super_size.is_power_of_two() {
            return Err("super-sector side");
        }
        let ncomp = dense_count(&component).ok_or("component labels are not dense")?;
        let nclusters = dense_count(&cluster_of_region).ok_or("cluster labels are not dense")?;
        let across = layout.sectors_x.div_ceil(super_size);
        let sup = |r: &Region| {
            let (sx, sy) = layout.coords(r.sector());
            (sy / super_size) * across + sx / super_size
        };
        // Each region's super-sector once (a division), not once per link
        // end.
        let sup_of: Vec<u32> = regions.iter().map(sup).collect();
        let mut cluster_comp = vec![NONE; nclusters];
        for (r, &here) in sup_of.iter().enumerate() {
            let (c, k) = (component[r], cluster_of_region[r]);
            let cc = &mut cluster_comp[k as usize];
            if *cc != NONE && *cc != c {
                return Err("a cluster spans two components");
            }
            *cc = c;
            for &b in graph.neighbors_slice(r as u32) {
                if component[b as usize] != c {
                    return Err("a link joins two components");
                }
                if sup_of[b as usize] == here && cluster_of_region[b as usize] != k {
                    return Err("a link inside a super-sector joins two clusters");
                }
            }
        }
        levels.check(n, layout)?;
        let mut sizes = vec![0u32; ncomp];
        for &c in &component {
            sizes[c as usize] += 1;
        }
        let alone = |r: usize| graph.neighbors_slice(r as u32).is_empty();
        if (0..n).any(|r| alone(r) && sizes[component[r] as usize] != 1) {
            return Err("a region without links shares its component label");
        }
        let (open_index, _) = open_clusters(&cluster_of_region, nclusters, &component, &sizes);
        Ok(Connectivity {
            super_size,
            cluster_of_region,
            open_index,
            component,
            sizes,
            levels,
        })
    }

    /// Whether regions `a` and `b` lie in one connected component. O(1).
    #[inline]
    pub fn connected(&self, a: u32, b: u32) -> bool {
        match (
            self.component.get(a as usize),
            self.component.get(b as usize),
        ) {
            (Some(&ca), Some(&cb)) => ca == cb && ca != NONE,
            _ => false,
        }
    }

    pub fn cluster_count(&self) -> usize {
        self.open_index.len()
    }

    pub fn bytes(&self) -> usize {
        self.cluster_of_region.len() * 4
            + self.open_index.len() * 4
            + self.component.len() * 4
            + self.sizes.len() * 4
            + self.levels.bytes()
    }
}
