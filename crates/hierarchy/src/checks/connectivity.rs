//! The connectivity labels and clusters of built hierarchies.

use crate::{Hierarchy, HierarchyConfig};
use regionpath_testkit::maps::obstacles;
use regionpath_testkit::{Rng64, XorShift64};

/// Clusters are the connected pieces of the region graph inside one
/// super-sector (what a partial path's scan of a closed cluster relies
/// on): a cluster's regions share a super-sector, are connected by links
/// inside the cluster, and take in every region linked to them in that
/// super-sector; a cluster is closed exactly when its whole component
/// lies in it.
#[test]
fn clusters_are_the_connected_pieces_of_each_super_sector() {
    let mut rng = XorShift64(0x2545_F491_4F6C_DD1Du64);
    let mut next = |n: u64| rng.below(n);
    for _ in 0..10 {
        let (w, h) = (100 + next(200) as u32, 100 + next(200) as u32);
        let density = 10 + next(30);
        let g = obstacles(w, h, density, &mut next);
        let config = HierarchyConfig::new()
            .sector_size(4 + next(10) as u32)
            .parallel(false)
            .fit_memory(false);
        let hi = Hierarchy::build(&g, &config).unwrap();
        let c = &hi.connectivity;
        let m = c.super_size;
        let sup = |r: usize| {
            let (sx, sy) = hi.layout.coords(hi.regions[r].sector());
            (sx / m, sy / m)
        };
        let n = hi.regions.len();
        let k = c.open_index.len();
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); k];
        for r in 0..n {
            members[c.cluster_of_region[r] as usize].push(r);
        }
        for (cl, regions) in members.iter().enumerate() {
            assert!(!regions.is_empty(), "cluster {cl} has no region");
            assert!(regions.iter().all(|&r| sup(r) == sup(regions[0])));
            // Connected through links inside the cluster.
            let mut seen = vec![false; n];
            let mut stack = vec![regions[0]];
            seen[regions[0]] = true;
            while let Some(r) = stack.pop() {
                for &o in hi.graph.neighbors_slice(r as u32) {
                    let o = o as usize;
                    if sup(o) == sup(r) {
                        assert_eq!(
                            c.cluster_of_region[o] as usize, cl,
                            "linked in one super-sector"
                        );
                    }
                    if c.cluster_of_region[o] as usize == cl && !seen[o] {
                        seen[o] = true;
                        stack.push(o);
                    }
                }
            }
            assert!(
                regions.iter().all(|&r| seen[r]),
                "cluster {cl} is not connected"
            );
            let comp = c.component[regions[0]];
            let closed = (0..n)
                .filter(|&r| c.component[r] == comp)
                .all(|r| c.cluster_of_region[r] as usize == cl);
            assert_eq!(c.open_index[cl] == u32::MAX, closed, "cluster {cl}");
        }
    }
}
