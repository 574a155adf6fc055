//! The counting global allocator of `regionpath-testkit`, under the names
//! these tests use. Each test binary that wants it declares
//! `#[global_allocator] static ALLOC: common::Counting = common::Counting;`
//! and measures with [`measure`], which counts on the calling thread only,
//! so tests running in parallel in the same binary do not disturb each
//! other.

pub use regionpath_testkit::alloc::{measure_thread as measure, CountingAlloc as Counting};
