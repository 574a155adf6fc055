//! Benchmark helpers for regionpath.
//!
//! The bench binaries under `benches/benches/` time regionpath's planners
//! beside peer crates on Moving AI maps. This library holds what they share:
//!
//! * [`data`]: where the Moving AI files are ([`data::movingai_dir`]),
//!   loading a map with its scenario rows, and deterministic generated maps.
//! * [`queries`]: splitting scenario rows into short / medium / long
//!   buckets (terciles of the optimal length) and picking a fixed subset.
//! * [`contender`]: the [`Contender`] trait every timed system implements,
//!   and regionpath's own contenders (A*, hierarchical, hierarchical +
//!   smoothed).
//! * [`paths`]: checking a returned path against the Moving AI rules
//!   (octile length, corner cuts, illegal steps).
//! * [`alloc`]: the counting global allocator of `regionpath-testkit`, for
//!   allocation and memory figures.
//! * [`side`]: where benches write the figures criterion does not keep
//!   (path-length ratios, corner cuts, memory, machine), read by
//!   `benches/report`.

pub use regionpath_testkit::alloc;
pub mod contender;
pub mod data;
pub mod paths;
pub mod queries;
pub mod side;

pub use contender::{
    Contender, RegionpathAStar, RegionpathHierarchical, RegionpathJps, RegionpathSmoothed,
};
pub use data::{movingai_dir, MapCase};
pub use paths::{check_path, PathCheck};
pub use queries::{Bucket, Query};
