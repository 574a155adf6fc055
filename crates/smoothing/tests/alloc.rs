//! Once warm, a `Smoother` and `ease_corners` allocate nothing per call. Counted with the
//! process-wide counters of `regionpath-testkit`'s global allocator (the
//! library forbids unsafe code).

mod common;

use common::*;
use regionpath_smoothing::{
    ease_corners, EaseScratch, SmoothOptions, Smoother, TurnOptions, TurnPolicy, Vec2,
};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};

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
        // This thread's counters: the other test runs beside this one.
        let ((), delta) = measure_thread(|| {
            for cells in &cases {
                smoother.smooth(&grid, cells, &opts, &mut out).unwrap();
            }
        });
        assert_eq!(
            delta.allocations, 0,
            "radius {radius}: {} allocations",
            delta.allocations
        );
    }
}

#[test]
fn warm_easing_allocates_nothing() {
    let opts = TurnOptions {
        turning_radius: 2.0,
        unit_radius: 0.4,
        policy: TurnPolicy::Strict,
    };
    // Smoothed paths on random maps.
    let mut rng = Rng(7);
    let mut smoother = Smoother::new();
    let mut cases = Vec::new();
    while cases.len() < 40 {
        let grid = random_grid(&mut rng, 48, 48, 0.12);
        let (Some(s), Some(t)) = (random_free(&mut rng, &grid), random_free(&mut rng, &grid))
        else {
            continue;
        };
        let Some(cells) = dijkstra(&grid, s, t, &mut rng, 0.5) else {
            continue;
        };
        let mut w = Vec::new();
        if smoother
            .smooth(&grid, &cells, &SmoothOptions::with_radius(0.4), &mut w)
            .is_ok()
            && w.len() >= 3
        {
            cases.push((grid, w));
        }
    }
    let mut scratch = EaseScratch::default();
    let mut copies: Vec<Vec<Vec2>> = cases.iter().map(|(_, w)| w.clone()).collect();
    for ((grid, w), c) in cases.iter().zip(copies.iter_mut()) {
        c.copy_from_slice(w);
        ease_corners(grid, c, &opts, &mut scratch);
    }
    // This thread's counters: the other test runs beside this one.
    let (moved, delta) = measure_thread(|| {
        let mut moved = 0;
        for ((grid, w), c) in cases.iter().zip(copies.iter_mut()) {
            c.copy_from_slice(w);
            moved += ease_corners(grid, c, &opts, &mut scratch);
        }
        moved
    });
    assert_eq!(delta.allocations, 0);
    assert!(moved > 0);
}
