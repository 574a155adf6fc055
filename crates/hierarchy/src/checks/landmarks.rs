//! The landmark bounds of built hierarchies.

use crate::derived::landmarks::{dijkstra, dijkstra_buckets, dijkstra_units};
use crate::derived::Landmarks;
use crate::{Hierarchy, HierarchyConfig};
use regionpath_testkit::maps::obstacles;
use regionpath_testkit::{Rng64, XorShift64};

/// The bound never exceeds the true region-graph distance (admissible)
/// and is consistent across every edge (the distances are integers over
/// rounded-down weights: no quantisation slack).
#[test]
fn bounds_are_admissible_and_consistent() {
    let mut rng = XorShift64(0x9E37_79B9_7F4A_7C15u64);
    let mut next = |n: u64| rng.below(n);
    for round in 0..20 {
        let (w, h) = (20 + next(60) as u32, 20 + next(60) as u32);
        let density = 10 + next(40);
        let g = obstacles(w, h, density, &mut next);
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
        let goals: Vec<u32> = (0..5).map(|_| next(n as u64) as u32).collect();
        assert_bounds_hold(&hi, lm, &goals, round);
    }
}

/// `lm`'s bound from every region to each of `goals` is at most the
/// region-graph distance (a Dijkstra over the exact link costs) and
/// consistent across every link.
fn assert_bounds_hold(hi: &Hierarchy, lm: &Landmarks, goals: &[u32], round: usize) {
    let n = hi.graph.node_count();
    let mut d = vec![0f32; n];
    for &goal in goals {
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

/// The bucket queue's distances equal the binary heap's
/// (`dijkstra_units`) from several sources at several shifts, on the
/// region graphs of 30 random maps.
#[test]
fn the_bucket_queue_gives_the_heaps_distances() {
    let mut rng = XorShift64(0x51ed_270b_2741_5b1fu64);
    let mut next = |n: u64| rng.below(n);
    let mut compared = 0;
    for round in 0..30 {
        let (w, h) = (16 + next(100) as u32, 16 + next(100) as u32);
        let density = 5 + next(45);
        let g = obstacles(w, h, density, &mut next);
        let config = HierarchyConfig::new().sector_size(4 + next(12) as u32);
        let hi = Hierarchy::build(&g, &config).unwrap();
        let n = hi.graph.node_count();
        if n == 0 {
            continue;
        }
        let (mut ring, mut heap) = (Vec::new(), std::collections::BinaryHeap::new());
        let (mut a, mut b) = (vec![0u32; n], vec![0u64; n]);
        for shift in [0, 1, 3, 6, 16] {
            let source = next(n as u64) as u32;
            dijkstra_buckets(&hi.graph, source, shift, &mut a, &mut ring);
            dijkstra_units(&hi.graph, source, shift, &mut b, &mut heap);
            for (r, (&x, &y)) in a.iter().zip(&b).enumerate() {
                let y = if y == u64::MAX { u32::MAX } else { y as u32 };
                assert_eq!(x, y, "round {round} shift {shift} region {r}");
            }
            compared += n;
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// Landmarks chosen two at a time (the rule of graphs of
/// `PAIRED_FROM` regions and more, forced here on small ones): as many as
/// asked where the component allows, distinct, the same with and without
/// threads, and their bounds admissible and consistent against a Dijkstra
/// of the test's own over the exact link costs.
#[test]
fn paired_landmarks_are_distinct_deterministic_and_admissible() {
    let mut rng = XorShift64(0x2545_f491_4f6c_dd1du64);
    let mut next = |n: u64| rng.below(n);
    let mut paired_rounds = 0;
    for round in 0..20 {
        let (w, h) = (30 + next(60) as u32, 30 + next(60) as u32);
        let density = 5 + next(30);
        let g = obstacles(w, h, density, &mut next);
        let config = HierarchyConfig::new()
            .sector_size(4 + next(6) as u32)
            .fit_memory(false);
        let hi = Hierarchy::build(&g, &config).unwrap();
        let n = hi.graph.node_count();
        if n < 20 {
            continue;
        }
        let rep = |r: u32| hi.regions[r as usize].representative();
        let lm = Landmarks::choose(&hi.graph, 8, rep, true, true);
        let serial = Landmarks::choose(&hi.graph, 8, rep, false, true);
        assert_eq!(lm.parts(), serial.parts(), "round {round}");
        let mut seen = lm.parts().0.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), lm.count(), "round {round}: a landmark twice");
        assert!(lm.count() >= 2, "round {round}: {} landmarks", lm.count());
        paired_rounds += 1;
        let goals: Vec<u32> = (0..4).map(|_| next(n as u64) as u32).collect();
        assert_bounds_hold(&hi, &lm, &goals, round);
    }
    assert!(paired_rounds >= 10, "{paired_rounds}");
}
