//! Priority queues of the searches.
//!
//! * [`OpenList`] (`heap.rs`): a 4-ary min-heap ordered by `(f, h, node)`,
//!   for the searches whose keys may arrive in any order.
//! * [`BucketQueue`] (`bucket.rs`): buckets keyed on `f` alone, for the
//!   full-grid A* fast path, whose keys never fall below the last popped
//!   one; its current bucket's finer keys wait in a
//!   [`RadixQueue`](radix::RadixQueue) (`radix.rs`), whose buckets draw
//!   chunks from one arena (`chunks.rs`).
//! * [`Frontier`] (`frontier.rs`): a [`BucketQueue`] with a heap for the
//!   keys beyond its ring, for the weighted window searches, whose keys
//!   may fall a little (a heuristic that is not consistent) or jump far
//!   (dear terrain).

mod bucket;
mod chunks;
mod frontier;
mod heap;
mod radix;

pub(crate) use bucket::BucketQueue;
pub(crate) use frontier::Frontier;
pub use heap::{OpenEntry, OpenList};
