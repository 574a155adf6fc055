//! A counting global allocator.
//!
//! A bench binary installs it with
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: regionpath_benches::alloc::CountingAlloc =
//!     regionpath_benches::alloc::CountingAlloc;
//! ```
//!
//! and then reads [`snapshot`] before and after the code it measures. The
//! counters are process-wide relaxed atomics: cheap enough to leave on while
//! timing (a few nanoseconds per allocation), and correct across threads
//! (peers that build in parallel with rayon are counted too).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static DEALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

/// The system allocator with counters: allocations (including `realloc`
/// and `alloc_zeroed`), deallocations, live bytes and the peak of live
/// bytes.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

fn grew(size: usize) {
    let live = LIVE_BYTES.fetch_add(size, Relaxed) + size;
    PEAK_BYTES.fetch_max(live, Relaxed);
}

fn shrank(size: usize) {
    LIVE_BYTES.fetch_sub(size, Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees (alignment, size, validity of the
// returned block) hold as they are; the counters are only atomics updated
// beside the call and never touch the memory handed out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            ALLOCATIONS.fetch_add(1, Relaxed);
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds the contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            ALLOCATIONS.fetch_add(1, Relaxed);
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator (hence from `System`) with
        // `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) };
        DEALLOCATIONS.fetch_add(1, Relaxed);
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged; `ptr`/`layout` describe a block from
        // `System` and `new_size` is valid, as the caller guarantees.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            ALLOCATIONS.fetch_add(1, Relaxed);
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// The counters at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocSnapshot {
    /// Allocations so far (`alloc`, `alloc_zeroed` and `realloc` calls).
    pub allocations: u64,
    /// Deallocations so far.
    pub deallocations: u64,
    /// Bytes allocated and not yet freed.
    pub live_bytes: usize,
    /// The highest `live_bytes` since start or the last [`reset_peak`].
    pub peak_bytes: usize,
}

/// Reads the counters. All zero unless [`CountingAlloc`] is the global
/// allocator of the running binary.
pub fn snapshot() -> AllocSnapshot {
    AllocSnapshot {
        allocations: ALLOCATIONS.load(Relaxed),
        deallocations: DEALLOCATIONS.load(Relaxed),
        live_bytes: LIVE_BYTES.load(Relaxed),
        peak_bytes: PEAK_BYTES.load(Relaxed),
    }
}

/// Sets the peak to the bytes live now, so a later [`snapshot`] shows the
/// peak of what runs in between.
pub fn reset_peak() {
    PEAK_BYTES.store(LIVE_BYTES.load(Relaxed), Relaxed);
}

/// Whether the counters move, i.e. [`CountingAlloc`] is installed.
pub fn is_counting() -> bool {
    let before = ALLOCATIONS.load(Relaxed);
    let v = std::hint::black_box(vec![0u8; 1]);
    drop(v);
    ALLOCATIONS.load(Relaxed) > before
}

/// What running `f` cost: allocations made, bytes still live afterwards
/// (what `f` kept, e.g. a built data structure it returns) and the peak of
/// extra live bytes while it ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocDelta {
    /// Allocations during `f`.
    pub allocations: u64,
    /// Live bytes after minus live bytes before (negative: `f` freed more
    /// than it kept).
    pub retained_bytes: i64,
    /// Peak live bytes during `f` minus live bytes before.
    pub peak_extra_bytes: usize,
}

/// Runs `f` and reports its allocation cost beside its result. Only
/// meaningful when no other thread allocates meanwhile (rayon workers that
/// `f` itself uses are fine).
pub fn measure<T>(f: impl FnOnce() -> T) -> (T, AllocDelta) {
    reset_peak();
    let before = snapshot();
    let out = f();
    let after = snapshot();
    let delta = AllocDelta {
        allocations: after.allocations - before.allocations,
        retained_bytes: after.live_bytes as i64 - before.live_bytes as i64,
        peak_extra_bytes: after.peak_bytes.saturating_sub(before.live_bytes),
    };
    (out, delta)
}
