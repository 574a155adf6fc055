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
//!   keys beyond its ring, for the weighted window searches (A* and jump
//!   point search), whose keys
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

/// The open list a search drives: the heap, with the shortcut that
/// expands a successor beating every queued key without queueing it, or a
/// [`Frontier`], whose pushes and pops of the current key are O(1) anyway.
pub(crate) trait Open {
    /// Whether the expand-next shortcut applies (it needs `peek_key`).
    const SHORTCUT: bool;
    /// Empties the list and queues the start.
    fn start(&mut self, e: OpenEntry);
    fn push(&mut self, e: OpenEntry);
    /// The node of a lowest-key entry.
    fn pop(&mut self) -> Option<u32>;
    fn peek_key(&self) -> Option<u128>;
}

impl Open for OpenList {
    const SHORTCUT: bool = true;
    #[inline]
    fn start(&mut self, e: OpenEntry) {
        self.clear();
        OpenList::push(self, e);
    }
    #[inline]
    fn push(&mut self, e: OpenEntry) {
        OpenList::push(self, e);
    }
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        OpenList::pop(self).map(|e| e.node())
    }
    #[inline]
    fn peek_key(&self) -> Option<u128> {
        OpenList::peek_key(self)
    }
}

impl Open for Frontier {
    const SHORTCUT: bool = false;
    #[inline]
    fn start(&mut self, e: OpenEntry) {
        self.begin(e.f());
        Frontier::push(self, e.f(), e.node());
    }
    #[inline]
    fn push(&mut self, e: OpenEntry) {
        Frontier::push(self, e.f(), e.node());
    }
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        Frontier::pop(self)
    }
    #[inline]
    fn peek_key(&self) -> Option<u128> {
        None
    }
}
