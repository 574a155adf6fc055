//! The connectivity matrix and cluster graph of built hierarchies.

use crate::{Hierarchy, HierarchyConfig};
use regionpath_testkit::maps::obstacles;
use regionpath_testkit::{Rng64, XorShift64};

/// The cluster graph is the region graph with each region replaced by
/// its cluster: every link between clusters shows up, nothing else does,
/// and each centre lies in the bounding box of its cluster's regions.
#[test]
fn cluster_graph_is_the_quotient_of_the_region_graph() {
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
        let k = c.centre.len();
        let mut want = std::collections::BTreeSet::new();
        let mut boxes = vec![(u32::MAX, u32::MAX, 0u32, 0u32); k];
        for (r, region) in hi.regions.iter().enumerate() {
            let cr = c.cluster_of_region[r];
            let b = &mut boxes[cr as usize];
            let (lo, hi_) = (region.min(), region.max());
            *b = (b.0.min(lo.x), b.1.min(lo.y), b.2.max(hi_.x), b.3.max(hi_.y));
            for &o in hi.graph.neighbors_slice(r as u32) {
                let co = c.cluster_of_region[o as usize];
                if co != cr {
                    want.insert((cr, co));
                }
            }
        }
        let mut got = std::collections::BTreeSet::new();
        for a in 0..k as u32 {
            let row = c.cluster_neighbours(a);
            assert!(row.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
            got.extend(row.iter().map(|&b| (a, b)));
        }
        assert_eq!(got, want);
        for (p, b) in c.centre.iter().zip(&boxes) {
            assert!(p.x >= b.0 && p.x <= b.2 && p.y >= b.1 && p.y <= b.3);
        }
    }
}
