//! A counting global allocator. A test or bench binary installs it with
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: regionpath_testkit::alloc::CountingAlloc =
//!     regionpath_testkit::alloc::CountingAlloc;
//! ```
//!
//! and reads either the process-wide counters ([`snapshot`], [`measure`]:
//! relaxed atomics, correct across threads, for benches whose work uses
//! several threads) or this thread's counters ([`measure_thread`]: tests
//! running in parallel in one binary do not disturb each other). Counted as
//! allocations: `alloc`, `alloc_zeroed` and `realloc` calls that succeed.
//! Cost: a few nanoseconds per call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static DEALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static THREAD_COUNT: Cell<u64> = const { Cell::new(0) };
    static THREAD_LIVE: Cell<i64> = const { Cell::new(0) };
    static THREAD_PEAK: Cell<i64> = const { Cell::new(0) };
}

/// The system allocator with counters: allocations, deallocations, live
/// bytes and the peak of live bytes, process-wide and per thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

/// Records one successful call: `count` allocations and a change of `grow`
/// live bytes. Neither allocates nor panics (`try_with`: a thread's locals
/// may be torn down already; these are const-initialised `Cell`s).
fn note(count: u64, grow: isize) {
    ALLOCATIONS.fetch_add(count, Relaxed);
    if grow >= 0 {
        let live = LIVE_BYTES.fetch_add(grow as usize, Relaxed) + grow as usize;
        PEAK_BYTES.fetch_max(live, Relaxed);
    } else {
        LIVE_BYTES.fetch_sub(grow.unsigned_abs(), Relaxed);
    }
    let _ = THREAD_COUNT.try_with(|c| c.set(c.get() + count));
    let _ = THREAD_LIVE.try_with(|l| {
        let now = l.get() + grow as i64;
        l.set(now);
        let _ = THREAD_PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: every method forwards to `System` with the caller's pointer,
// layout and size unchanged, so `System`'s guarantees (alignment, size,
// validity of the block) hold as they are. The bookkeeping beside each call
// only touches atomics and const-initialised thread-local `Cell`s, which
// neither allocate nor unwind, and never the memory handed out.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            note(1, layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds the contract.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            note(1, layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator (hence from `System`) with
        // `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) };
        DEALLOCATIONS.fetch_add(1, Relaxed);
        note(0, -(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged; `ptr`/`layout` describe a block from
        // `System` and `new_size` is valid, as the caller guarantees.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            note(1, new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// The process-wide counters at one moment.
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

/// Reads the process-wide counters. All zero unless [`CountingAlloc`] is
/// the global allocator of the running binary.
pub fn snapshot() -> AllocSnapshot {
    AllocSnapshot {
        allocations: ALLOCATIONS.load(Relaxed),
        deallocations: DEALLOCATIONS.load(Relaxed),
        live_bytes: LIVE_BYTES.load(Relaxed),
        peak_bytes: PEAK_BYTES.load(Relaxed),
    }
}

/// Sets the process-wide peak to the bytes live now, so a later
/// [`snapshot`] shows the peak of what runs in between.
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

/// What running `f` cost process-wide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocDelta {
    /// Allocations during `f`.
    pub allocations: u64,
    /// Live bytes after minus live bytes before (what `f` kept, e.g. a
    /// structure it returns; negative when it freed more).
    pub retained_bytes: i64,
    /// Peak live bytes during `f` minus live bytes before.
    pub peak_extra_bytes: usize,
}

/// Runs `f` and reports its process-wide allocation cost beside its result.
/// Only meaningful when no other thread allocates meanwhile (threads that
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

/// What a closure allocated on the calling thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadUsage {
    /// Calls to `alloc`, `alloc_zeroed` and `realloc`.
    pub allocations: u64,
    /// Most bytes live at once beyond those live at the start.
    pub peak_bytes: i64,
}

/// Runs `f` and reports what it allocated on this thread only (other
/// threads, including ones `f` starts, are not counted).
pub fn measure_thread<R>(f: impl FnOnce() -> R) -> (R, ThreadUsage) {
    let start_count = THREAD_COUNT.with(Cell::get);
    let start_live = THREAD_LIVE.with(Cell::get);
    THREAD_PEAK.with(|p| p.set(start_live));
    let r = f();
    let usage = ThreadUsage {
        allocations: THREAD_COUNT.with(Cell::get) - start_count,
        peak_bytes: THREAD_PEAK.with(Cell::get) - start_live,
    };
    (r, usage)
}
