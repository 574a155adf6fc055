//! A counting global allocator for the tests that check allocation
//! behaviour. Each test binary that wants it declares
//! `#[global_allocator] static ALLOC: common::Counting = common::Counting;`.
//!
//! Counts are kept per thread, so tests running in parallel in the same
//! binary do not disturb each other.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static COUNT: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

fn note(count: u64, grow: i64) {
    // `try_with`: never panic inside the allocator, even while a thread's
    // locals are being torn down (these have no destructors, so they stay
    // readable, but be safe).
    let _ = COUNT.try_with(|c| c.set(c.get() + count));
    let _ = LIVE.try_with(|l| {
        let now = l.get() + grow;
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

/// [`System`] with per-thread counts of allocations and of live and peak
/// bytes.
pub struct Counting;

// SAFETY: every method forwards to `System` with the caller's pointer,
// layout and size unchanged, so `System`'s guarantees carry over; the only
// extra work is updating const-initialised thread-local `Cell`s, which
// neither allocates nor unwinds.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(1, layout.size() as i64);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(1, layout.size() as i64);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(0, -(layout.size() as i64));
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(1, new_size as i64 - layout.size() as i64);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What a closure allocated on this thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// Calls to `alloc`, `alloc_zeroed` and `realloc`.
    pub allocations: u64,
    /// Most bytes live at once beyond those live at the start.
    pub peak_bytes: i64,
}

/// Runs `f` and reports what it allocated on this thread.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Usage) {
    let start_count = COUNT.with(Cell::get);
    let start_live = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start_live));
    let r = f();
    let usage = Usage {
        allocations: COUNT.with(Cell::get) - start_count,
        peak_bytes: PEAK.with(Cell::get) - start_live,
    };
    (r, usage)
}
