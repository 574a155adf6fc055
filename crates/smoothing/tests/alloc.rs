//! Once warm, a `Smoother` allocates nothing per call. Counted with the
//! process-wide counters of `regionpath-testkit`'s global allocator (the
//! library forbids unsafe code).

mod common;

use common::*;
use regionpath_smoothing::{SmoothOptions, Smoother};
use regionpath_testkit::alloc::{snapshot, CountingAlloc};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn warm_smoother_does_not_allocate() {
    let mut rng = Rng(5);
    let grid = random_grid(&mut rng, 60, 60, 0.15);
    let mut cases = Vec::new();
    while cases.len() < 30 {
        let (Some(s), Some(t)) = (random_free(&mut rng, &grid), random_free(&mut rng, &grid))
        else {
            continue;
        };
        if let Some(cells) = dijkstra(&grid, s, t, &mut rng, 0.5) {
            cases.push(cells);
        }
    }
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    for radius in [0.0f32, 0.4, 1.0] {
        let opts = SmoothOptions::with_radius(radius);
        // Warm up: buffers grow to their working sizes.
        for cells in &cases {
            smoother.smooth(&grid, cells, &opts, &mut out).unwrap();
        }
        let before = snapshot().allocations;
        for cells in &cases {
            smoother.smooth(&grid, cells, &opts, &mut out).unwrap();
        }
        let after = snapshot().allocations;
        assert_eq!(
            after - before,
            0,
            "radius {radius}: {} allocations",
            after - before
        );
    }
}
