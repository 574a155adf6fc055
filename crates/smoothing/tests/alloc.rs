//! Once warm, a `Smoother` allocates nothing per call. Counted with a
//! wrapping global allocator (the only unsafe code is this test's
//! `GlobalAlloc` forwarding to `System`; the library forbids unsafe code).

mod common;

use common::*;
use regionpath_smoothing::{SmoothOptions, Smoother};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwards the caller's valid layout to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for cells in &cases {
            smoother.smooth(&grid, cells, &opts, &mut out).unwrap();
        }
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert_eq!(
            after - before,
            0,
            "radius {radius}: {} allocations",
            after - before
        );
    }
}
