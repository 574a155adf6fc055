//! The landmark bounds of built hierarchies.

use crate::derived::landmarks::dijkstra;
use crate::{Hierarchy, HierarchyConfig};
use regionpath_grid::{Grid, Point};

/// The bound never exceeds the true region-graph distance (admissible)
/// and is consistent across every edge (the distances are integers over
/// rounded-down weights: no quantisation slack).
#[test]
fn bounds_are_admissible_and_consistent() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for round in 0..20 {
        let (w, h) = (20 + next(60) as u32, 20 + next(60) as u32);
        let mut g = Grid::new(w, h, true).unwrap();
        let density = 10 + next(40);
        for y in 0..h {
            for x in 0..w {
                if next(100) < density {
                    g.set_passable(Point::new(x, y), false).unwrap();
                }
            }
        }
        let config = HierarchyConfig::new()
            .sector_size(4 + next(12) as u32)
            .parallel(false)
            .fit_memory(false);
        let hi = Hierarchy::build(&g, &config).unwrap();
        let lm = &hi.landmarks;
        let n = hi.graph.node_count();
        if n == 0 {
            continue;
        }
        assert!(lm.count() > 0, "round {round}");
        let mut d = vec![0f32; n];
        for _ in 0..5 {
            let goal = next(n as u64) as u32;
            dijkstra(&hi.graph, goal, &mut d);
            let row = lm.row(goal);
            for r in 0..n as u32 {
                let b = lm.bound_to(r, row);
                if d[r as usize].is_finite() {
                    assert!(
                        b <= d[r as usize] + 1e-3,
                        "round {round}: {b} > {}",
                        d[r as usize]
                    );
                }
                for (&o, link) in hi
                    .graph
                    .neighbors_slice(r)
                    .iter()
                    .zip(hi.graph.edges_slice(r))
                {
                    assert!(
                        b <= link.cost() + lm.bound_to(o, row) + 1e-3,
                        "round {round}: inconsistent"
                    );
                }
            }
        }
    }
}
