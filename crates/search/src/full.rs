//! The full-grid A* fast path: 8-connected moves, heuristic weight 1, no
//! node budget (the settings of [`crate::AStar::new`]).
//!
//! The generic engine in `core.rs` serves windows, masks, budgets, weights
//! and 4-connectivity; this loop does one thing. What makes it cheaper:
//!
//! * Nodes are indexed by the grid's padded index, so a move is one added
//!   offset and the padding's blocked border needs no bounds test.
//! * The open list is a bucket queue ([`BucketQueue`]) keyed on `f` alone.
//!   With a consistent heuristic (octile distance is one) the popped `f`
//!   never decreases and a successor's `f` is at most two step costs above
//!   its parent's, so the open keys fit a ring of fine buckets: a push is one
//!   shift and a slot linked in front of its bucket, never moved again, and
//!   a pop usually unlinks the newest entry of the current bucket. Entries
//!   of equal `f` pop newest first, which keeps the search deep (near the
//!   goal) on open ground, as the binary heap's "smaller `h` first" rule
//!   does. Instructions per expanded cell (callgrind, every 20th row):
//!   generic engine with a 4-ary heap about 710; this loop with an 8-bit
//!   radix heap den520d 353, brc202d 345; with the bucket queue 323 and 300
//!   (and fewer mispredicted branches: criterion, brc202d's longest rows
//!   20.6 → 17.0 ms).
//! * Queue entries carry the cell's coordinates (the heuristic of a
//!   successor needs them), so no division recovers them from an index.
//! * With a consistent heuristic a closed node already has its optimal `g`,
//!   so a successor needs only "fresh, or cheaper than before", and that is
//!   one comparison: each search offsets its costs by a base below every
//!   cost an earlier search wrote ([`Node::g`]).
//! * No branch per move on that outcome. Whether a move finds its cell
//!   fresh, improves it or neither is close to a coin toss for a branch
//!   predictor on cave and maze maps, and a mispredicted branch costs as
//!   much as dozens of instructions. An expansion compares all eight cells
//!   of its block (the cells are in the padded grid, so the reads are
//!   safe) into a bit set, and then loops over the moves that improve.
//!   Criterion, the astar group's longest rows, with the coarse buckets
//!   widened from 1/1024 to 1/256 of a step at the same time (fewer bucket
//!   changes, each of which may mispredict): brc202d 16.6 → 14.1 ms,
//!   maze512-8-0 117 → 99 ms, den520d 4.25 → 3.98 ms; open maps about
//!   even (Berlin_0_1024 59.1 → 59.9 ms, AR0044SR 256 → 266 µs), where the
//!   branches were well predicted and the eight reads are extra work.

use crate::cost::{Cost, COST_DIAGONAL, COST_ONE};
use crate::moves::{DELTAS, NO_PARENT, STEP};
use crate::types::SearchStats;
use regionpath_grid::{Grid, Point};

/// Per padded cell scratch of the fast path, 16 bytes: the search state
/// and, in what would be padding, the cell's cached 3×3 passability, so an
/// expansion reads one cache line for both.
#[derive(Clone, Copy)]
struct Node {
    /// `base + g` for the `base` of the search that last reached this
    /// node ([`FullAStar::base`]). Each search's base lies below every
    /// value an earlier search wrote, by more than any `g` of a search can
    /// reach, so a node no search of this base has reached compares above
    /// every cost of this one: "fresh or cheaper" is one comparison.
    g: Cost,
    /// The cell's 3×3 passability ([`Grid::neighborhood_padded`]) once an
    /// expansion has needed it, [`UNKNOWN`] before; valid for the grid
    /// revision [`FullAStar::hoods_of`] whatever the search (a node reset
    /// for a new search keeps it).
    hood: u16,
    /// Direction of the move that reached this node (8 = none: the start).
    parent: u8,
    closed: bool,
}

const BLANK: Node = Node {
    g: Cost::MAX,
    hood: UNKNOWN,
    parent: NO_PARENT,
    closed: false,
};

/// Entries per chunk of [`Chunks`] (16 bytes each: 512 bytes).
const CHUNK: usize = 32;

/// End of a chunk list.
const NIL: u32 = u32::MAX;

/// A queue entry: its key and payload.
type Entry = (u64, u32);

/// Buckets of entries, each a stack of `CHUNK`-entry chunks drawn from one
/// shared arena with a free list, so entries are read and written mostly in
/// sequence, and the memory held is that of the most entries ever queued at
/// once (plus one partial chunk per bucket): it stops growing once warm,
/// whichever buckets a later query fills.
#[derive(Clone, Debug)]
struct Chunks {
    /// `CHUNK` entries per chunk.
    entries: Vec<Entry>,
    /// Per chunk: the next (older) chunk of its bucket, or of the free
    /// list.
    next: Vec<u32>,
    /// Newest chunk of each bucket (`NIL`: empty). Only a bucket's newest
    /// chunk may be partly filled, and no chunk in a bucket is empty.
    heads: Box<[u32]>,
    /// Per bucket: one past its newest entry (an index into `entries`);
    /// a multiple of `CHUNK` when the newest chunk is full or the bucket
    /// is empty.
    tails: Box<[usize]>,
    free: u32,
}

/// A bucket's chunks, detached from it ([`Chunks::take`]).
#[derive(Clone, Copy)]
struct List {
    head: u32,
    tail: usize,
}

impl Chunks {
    fn new(buckets: usize) -> Chunks {
        Chunks {
            entries: Vec::new(),
            next: Vec::new(),
            heads: vec![NIL; buckets].into_boxed_slice(),
            tails: vec![0; buckets].into_boxed_slice(),
            free: NIL,
        }
    }

    /// Bytes held.
    fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.next.capacity() * std::mem::size_of::<u32>()
            + self.heads.len() * (std::mem::size_of::<u32>() + std::mem::size_of::<usize>())
    }

    #[inline]
    fn is_empty(&self, b: usize) -> bool {
        self.heads[b] == NIL
    }

    /// Returns chunk `c` to the free list.
    #[inline]
    fn release(&mut self, c: u32) {
        self.next[c as usize] = self.free;
        self.free = c;
    }

    /// Puts an entry into a fresh chunk at the head of bucket `b` (from the
    /// free list, or a new one).
    #[inline(never)]
    fn put_new_chunk(&mut self, b: usize, e: Entry) {
        let c = if self.free != NIL {
            let c = self.free;
            self.free = self.next[c as usize];
            c
        } else {
            let c = self.next.len() as u32;
            self.next.push(NIL);
            self.entries.resize(self.entries.len() + CHUNK, (0, 0));
            c
        };
        self.next[c as usize] = self.heads[b];
        self.heads[b] = c;
        let at = c as usize * CHUNK;
        self.entries[at] = e;
        self.tails[b] = at + 1;
    }

    /// Adds `e` on top of bucket `b`.
    #[inline(always)]
    fn put(&mut self, b: usize, e: Entry) {
        let t = self.tails[b];
        if t % CHUNK == 0 {
            self.put_new_chunk(b, e);
        } else {
            self.entries[t] = e;
            self.tails[b] = t + 1;
        }
    }

    /// Removes the newest entry of bucket `b`, which must not be empty.
    #[inline(always)]
    fn pop(&mut self, b: usize) -> Entry {
        let t = self.tails[b] - 1;
        let e = self.entries[t];
        if t % CHUNK == 0 {
            // The newest chunk is empty now.
            let c = self.heads[b];
            let older = self.next[c as usize];
            self.release(c);
            self.heads[b] = older;
            self.tails[b] = if older == NIL {
                0
            } else {
                older as usize * CHUNK + CHUNK
            };
        } else {
            self.tails[b] = t;
        }
        e
    }

    /// Detaches bucket `b`'s chunks (the bucket is then empty).
    #[inline]
    fn take(&mut self, b: usize) -> List {
        let l = List {
            head: self.heads[b],
            tail: self.tails[b],
        };
        self.heads[b] = NIL;
        self.tails[b] = 0;
        l
    }

    /// Makes `l` the chunks of bucket `b`, which must be empty.
    #[inline]
    fn give(&mut self, b: usize, l: List) {
        debug_assert!(self.is_empty(b));
        self.heads[b] = l.head;
        self.tails[b] = l.tail;
    }

    /// The entries of `l`'s chunk `c`.
    #[inline]
    fn chunk(&self, l: List, c: u32) -> &[Entry] {
        let at = c as usize * CHUNK;
        &self.entries[at..if c == l.head { l.tail } else { at + CHUNK }]
    }

    /// The smallest and largest key in `l`.
    fn min_max(&self, l: List) -> (u64, u64) {
        let (mut min, mut max) = (u64::MAX, 0);
        let mut c = l.head;
        while c != NIL {
            for e in self.chunk(l, c) {
                min = min.min(e.0);
                max = max.max(e.0);
            }
            c = self.next[c as usize];
        }
        (min, max)
    }

    /// Returns every chunk of bucket `b` to the free list.
    fn clear_bucket(&mut self, b: usize) {
        let mut c = self.take(b).head;
        while c != NIL {
            let older = self.next[c as usize];
            self.release(c);
            c = older;
        }
    }
}

/// Bits per digit of [`RadixQueue`]'s keys.
const DIGIT_BITS: u32 = 8;
/// Values of a digit.
const RADIX: usize = 1 << DIGIT_BITS;
/// Bucket 0, then one bucket per (digit position, digit value).
const BUCKETS: usize = 1 + (64usize.div_ceil(DIGIT_BITS as usize)) * RADIX;
/// Words of the occupancy bit set.
const WORDS: usize = BUCKETS.div_ceil(64);

/// A radix heap over `u64` keys with a `u32` payload, for keys that never
/// fall below the last popped one, with 8-bit digits. Entry `f` lives in
/// bucket 0 when it equals the last popped key, else in the bucket of the
/// highest digit where the two differ and of `f`'s value there (so bucket
/// order is key order). A pop that finds bucket 0 empty takes the lowest
/// non-empty bucket, makes its minimum the new last key and moves its
/// entries down (or, when they all equal it, hands their chunks to bucket
/// 0 as they are). An entry moves at most once per digit. The 2,049
/// buckets' heads and tails take 24 KiB.
///
/// [`BucketQueue`] keeps one for the keys of its current bucket.
#[derive(Clone, Debug)]
pub(crate) struct RadixQueue {
    chunks: Chunks,
    /// Bit `b % 64` of word `b / 64` set when bucket `b` is non-empty.
    occupied: [u64; WORDS],
    last: u64,
}

impl Default for RadixQueue {
    fn default() -> Self {
        RadixQueue {
            chunks: Chunks::new(BUCKETS),
            occupied: [0; WORDS],
            last: 0,
        }
    }
}

impl RadixQueue {
    /// Empties the queue (keeping memory); keys pushed next may be any
    /// value.
    pub(crate) fn clear(&mut self) {
        for (w, mut occ) in self.occupied.into_iter().enumerate() {
            while occ != 0 {
                let b = w * 64 + occ.trailing_zeros() as usize;
                occ &= occ - 1;
                self.chunks.clear_bucket(b);
            }
        }
        self.occupied = [0; WORDS];
        self.last = 0;
    }

    /// Whether no entry is queued.
    #[inline]
    fn is_empty(&self) -> bool {
        self.occupied.iter().all(|&o| o == 0)
    }

    /// Lets an empty queue take keys from `base` up (O(1), unlike
    /// [`RadixQueue::clear`]).
    #[inline]
    fn restart_at(&mut self, base: u64) {
        debug_assert!(self.is_empty());
        self.last = base;
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.chunks.bytes()
    }

    #[inline]
    fn bucket_of(last: u64, f: u64) -> usize {
        let x = f ^ last;
        if x == 0 {
            return 0;
        }
        // The highest digit where `f` and `last` differ, and `f`'s value
        // there (above `last`'s, as `f > last`).
        let level = (63 - x.leading_zeros()) / DIGIT_BITS;
        let digit = (f >> (level * DIGIT_BITS)) as usize & (RADIX - 1);
        1 + level as usize * RADIX + digit
    }

    #[inline]
    fn put(&mut self, b: usize, e: Entry) {
        self.occupied[b / 64] |= 1 << (b % 64);
        self.chunks.put(b, e);
    }

    /// Adds `f` with its payload. `f` must be at least the last popped key
    /// and below 2^63.
    #[inline]
    pub(crate) fn push(&mut self, f: u64, payload: u32) {
        debug_assert!(f >= self.last && f < 1 << 63);
        // A smaller key would break the order; clamping keeps the queue
        // sound (it pops next) if a caller ever breaks the promise.
        let f = f.max(self.last);
        self.put(Self::bucket_of(self.last, f), (f, payload));
    }

    /// Removes an entry of the lowest key (the newest of those).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        if self.occupied[0] & 1 == 0 && !self.refill() {
            return None;
        }
        let e = self.chunks.pop(0);
        if self.chunks.is_empty(0) {
            self.occupied[0] &= !1;
        }
        Some(e)
    }

    /// Bucket 0 is empty: the lowest non-empty bucket's minimum becomes the
    /// last key and its entries move down around it (into bucket 0 and
    /// lower digits). False when the queue is empty.
    #[inline(never)]
    fn refill(&mut self) -> bool {
        let Some(w) = self.occupied.iter().position(|&o| o != 0) else {
            return false;
        };
        let b = w * 64 + self.occupied[w].trailing_zeros() as usize;
        self.occupied[w] &= !(1 << (b % 64));
        let list = self.chunks.take(b);
        let (min, max) = self.chunks.min_max(list);
        self.last = min;
        if min == max {
            // All equal: the chunks become bucket 0 as they are.
            self.chunks.give(0, list);
            self.occupied[0] |= 1;
            return true;
        }
        let mut c = list.head;
        while c != NIL {
            let at = c as usize * CHUNK;
            let end = if c == list.head {
                list.tail
            } else {
                at + CHUNK
            };
            for k in at..end {
                let e = self.chunks.entries[k];
                self.put(Self::bucket_of(min, e.0), e);
            }
            let older = self.chunks.next[c as usize];
            self.chunks.release(c);
            c = older;
        }
        true
    }
}

/// A coarse bucket of [`BucketQueue`] spans 2^`COARSE_SHIFT` key units
/// (1/256 of a straight step's [`COST_ONE`]).
const COARSE_SHIFT: u32 = 22;
/// Coarse buckets, used round robin (a power of two).
const COARSE: usize = 4096;
/// Words of [`BucketQueue`]'s coarse occupancy bit set.
const COARSE_WORDS: usize = COARSE / 64;
/// [`Head::key`] of a bucket holding more than one key.
const MIXED: u64 = u64::MAX;

/// A queued entry of [`BucketQueue`], linked into its bucket.
#[derive(Clone, Copy, Debug)]
struct Slot {
    key: u64,
    payload: u32,
    /// The next (older) slot of the bucket, or of the free list.
    next: u32,
}

/// A bucket of [`BucketQueue`]: its newest slot and its key.
#[derive(Clone, Copy, Debug)]
struct Head {
    /// The key of every entry in the bucket, or [`MIXED`] (unset while
    /// the bucket is empty).
    key: u64,
    first: u32,
}

const EMPTY_HEAD: Head = Head {
    key: MIXED,
    first: NIL,
};

/// The open list of the fast path: a bucket queue over `u64` keys with a
/// `u32` payload, for keys that never fall below the last popped key `l`
/// nor reach `l + (COARSE - 1) * 2^COARSE_SHIFT`. A consistent heuristic
/// gives both: a successor's `f` is at least its parent's and at most two
/// step costs above it (`2 * COST_DIAGONAL` spans 725 buckets).
///
/// Key `f` goes to bucket `(f >> COARSE_SHIFT) % COARSE`, found by one
/// shift, as a slot linked in front of the bucket's list: written once,
/// never moved (a radix heap moves each entry digit by digit). A bucket is
/// 1/256 of a straight step wide; two sums of straight and diagonal steps
/// closer than that differ by at least 169 diagonals, so nearly
/// every bucket holds one key, which its head records (or [`MIXED`]).
/// The bucket of `l` is the current one: entries equal to `l` pop newest
/// first from it (ties pop deepest first, which keeps the search near the
/// goal on open ground; in the rare mixed bucket, in any order), keys
/// above `l` in it wait in a [`RadixQueue`].
/// When both are empty, the next non-empty bucket (round robin) becomes
/// current; were it mixed, its entries go to the radix heap.
///
/// Freed slots are reused newest first; the slots held are the most
/// entries ever queued at once.
#[derive(Clone, Debug)]
pub(crate) struct BucketQueue {
    slots: Vec<Slot>,
    free: u32,
    heads: Box<[Head]>,
    /// Bit `c % 64` of word `c / 64` set when bucket `c` (not the current
    /// one) is non-empty.
    occupied: [u64; COARSE_WORDS],
    /// The current bucket: `last`'s. Its list lives in `top`, not in
    /// `heads`.
    cur: usize,
    /// Newest slot of the current bucket's list (entries of key `last`).
    top: u32,
    /// Keys in the current bucket but above `last`.
    fine: RadixQueue,
    /// Entries in `fine` (an empty radix heap is slow to find empty).
    in_fine: usize,
    last: u64,
}

impl Default for BucketQueue {
    fn default() -> Self {
        BucketQueue {
            slots: Vec::new(),
            free: NIL,
            heads: vec![EMPTY_HEAD; COARSE].into_boxed_slice(),
            occupied: [0; COARSE_WORDS],
            cur: 0,
            top: NIL,
            fine: RadixQueue::default(),
            in_fine: 0,
            last: 0,
        }
    }
}

impl BucketQueue {
    /// Empties the queue (keeping memory); the next keys may be anything
    /// from `base` up to just under `base + (COARSE - 1) * 2^COARSE_SHIFT`.
    pub(crate) fn reset(&mut self, base: u64) {
        for (w, mut occ) in self.occupied.into_iter().enumerate() {
            while occ != 0 {
                self.heads[w * 64 + occ.trailing_zeros() as usize] = EMPTY_HEAD;
                occ &= occ - 1;
            }
        }
        self.top = NIL;
        self.occupied = [0; COARSE_WORDS];
        // Every slot is free again: forget them all (the capacity stays).
        self.slots.clear();
        self.free = NIL;
        self.fine.clear();
        self.fine.restart_at(base);
        self.in_fine = 0;
        self.last = base;
        self.cur = Self::bucket(base);
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<Slot>()
            + self.heads.len() * std::mem::size_of::<Head>()
            + self.fine.bytes()
    }

    #[inline(always)]
    fn bucket(f: u64) -> usize {
        (f >> COARSE_SHIFT) as usize % COARSE
    }

    /// A slot for `(key, payload)` linked in front of list `next`.
    #[inline(always)]
    fn link(&mut self, next: u32, key: u64, payload: u32) -> u32 {
        if self.free != NIL {
            let s = self.free;
            self.free = self.slots[s as usize].next;
            self.slots[s as usize] = Slot { key, payload, next };
            s
        } else {
            self.slots.push(Slot { key, payload, next });
            (self.slots.len() - 1) as u32
        }
    }

    /// Frees slot `s` (the head of a list); returns its entry and the
    /// rest of the list.
    #[inline(always)]
    fn unlink(&mut self, s: u32) -> (Entry, u32) {
        let slot = self.slots[s as usize];
        self.slots[s as usize].next = self.free;
        self.free = s;
        ((slot.key, slot.payload), slot.next)
    }

    /// Adds `f` with its payload (see the type's bounds on `f`).
    #[inline(always)]
    pub(crate) fn push(&mut self, f: u64, payload: u32) {
        debug_assert!(f >= self.last);
        debug_assert!((f >> COARSE_SHIFT) - (self.last >> COARSE_SHIFT) < COARSE as u64);
        if f == self.last {
            self.top = self.link(self.top, f, payload);
            return;
        }
        let b = Self::bucket(f);
        if b == self.cur || f < self.last {
            // Above the last key in its bucket (or, were the promise
            // broken, below it: the radix heap clamps it, so it pops next).
            self.fine.push(f, payload);
            self.in_fine += 1;
            return;
        }
        let h = self.heads[b];
        let first = self.link(h.first, f, payload);
        self.heads[b] = Head {
            key: if h.first == NIL || h.key == f {
                f
            } else {
                MIXED
            },
            first,
        };
        self.occupied[b / 64] |= 1 << (b % 64);
    }

    /// Removes an entry of the lowest key (the newest of those).
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        if self.top != NIL {
            let (e, rest) = self.unlink(self.top);
            self.top = rest;
            return Some(e);
        }
        self.pop_slow()
    }

    /// The current bucket has no entry of the last key: the radix heap's
    /// next entry, else the next non-empty bucket's.
    #[inline(never)]
    fn pop_slow(&mut self) -> Option<Entry> {
        if self.in_fine == 0 {
            let b = next_set(&self.occupied, (self.cur + 1) % COARSE)?;
            self.occupied[b / 64] &= !(1 << (b % 64));
            self.cur = b;
            let h = std::mem::replace(&mut self.heads[b], EMPTY_HEAD);
            if h.key != MIXED {
                self.last = h.key;
                let (e, rest) = self.unlink(h.first);
                self.top = rest;
                return Some(e);
            }
            // Several keys: all of them to the radix heap (empty, and its
            // last key is below them all).
            let mut s = h.first;
            while s != NIL {
                let ((f, p), rest) = self.unlink(s);
                self.fine.push(f, p);
                self.in_fine += 1;
                s = rest;
            }
        }
        self.in_fine -= 1;
        let e = self.fine.pop();
        debug_assert!(e.is_some());
        let e = e?;
        self.last = e.0;
        Some(e)
    }
}

/// The first set bit of `bits` at or after `from`, round robin.
#[inline]
fn next_set(bits: &[u64; COARSE_WORDS], from: usize) -> Option<usize> {
    let (w0, b0) = (from / 64, from % 64);
    let first = bits[w0] & (u64::MAX << b0);
    if first != 0 {
        return Some(w0 * 64 + first.trailing_zeros() as usize);
    }
    for k in 1..=COARSE_WORDS {
        let w = (w0 + k) % COARSE_WORDS;
        let mut word = bits[w];
        if w == w0 {
            word &= !(u64::MAX << b0);
        }
        if word != 0 {
            return Some(w * 64 + word.trailing_zeros() as usize);
        }
    }
    None
}

/// A [`Node::hood`] not yet read from the grid (a 9-bit block
/// never has its top bits set).
const UNKNOWN: u16 = u16::MAX;

/// Scratch of the fast path: a node per padded cell and the open list.
#[derive(Default)]
pub(crate) struct FullAStar {
    /// The grid revision the nodes' [`Node::hood`]s were read from (0:
    /// none, all unknown).
    hoods_of: u64,
    nodes: Vec<Node>,
    queue: BucketQueue,
    /// The base of the last search (see [`Node::g`]).
    base: Cost,
}

/// Whether the cell at offset `(dx, dy)` of `p`'s 3×3 block is passable in
/// the 9-bit `hood` of [`Grid::neighborhood_padded`].
const fn open_at(hood: usize, dx: i32, dy: i32) -> bool {
    (hood >> ((dy + 1) * 3 + (dx + 1))) & 1 == 1
}

/// Whether the move between two cells of the 3×3 block, at offsets `a`
/// and `b` (one step apart), is legal: `b` passable and, for a diagonal,
/// both cells beside it (no corner cutting). All of them lie in the block.
const fn legal_in_block(hood: usize, a: (i32, i32), b: (i32, i32)) -> bool {
    if !open_at(hood, b.0, b.1) {
        return false;
    }
    if a.0 != b.0 && a.1 != b.1 {
        open_at(hood, b.0, a.1) && open_at(hood, a.0, b.1)
    } else {
        true
    }
}

/// `SUCCESSORS[parent][hood]`: the moves from a cell with passability block
/// `hood` that can improve a neighbour, when the cell was reached by move
/// `parent` (8: the start). A neighbour `n` that the parent cell `q` could
/// step to directly is left out: `q` was expanded before this cell, so it
/// already offered `n` the cost `g(q) + c(q, n)`, which is at most
/// `g(q) + c(q, p) + c(p, n)` (one or two steps of cost ≥ 1 against one of
/// cost ≤ √2), the most this cell can offer; a node is only updated on a
/// strictly lower cost, so leaving those out changes nothing but the work
/// (the parent itself is one of them).
static SUCCESSORS: [[u8; 512]; 9] = successor_table();

const fn successor_table() -> [[u8; 512]; 9] {
    let mut t = [[0u8; 512]; 9];
    let mut parent = 0;
    while parent < 9 {
        let mut hood = 0;
        while hood < 512 {
            let mut m = 0u8;
            let mut e = 0;
            while e < 8 {
                let n = DELTAS[e];
                let legal = legal_in_block(hood, (0, 0), n);
                let covered = if parent < 8 {
                    let q = (-DELTAS[parent].0, -DELTAS[parent].1);
                    let (ddx, ddy) = (n.0 - q.0, n.1 - q.1);
                    let adjacent = ddx >= -1 && ddx <= 1 && ddy >= -1 && ddy <= 1;
                    (ddx == 0 && ddy == 0) || (adjacent && legal_in_block(hood, q, n))
                } else {
                    false
                };
                if legal && !covered {
                    m |= 1 << e;
                }
                e += 1;
            }
            t[parent][hood] = m;
            hood += 1;
        }
        parent += 1;
    }
    t
}

/// Octile distance in cost units from `(x, y)` to `(gx, gy)`.
#[inline]
fn octile(x: u32, y: u32, gx: u32, gy: u32) -> Cost {
    let dx = x.abs_diff(gx) as u64;
    let dy = y.abs_diff(gy) as u64;
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    hi * COST_ONE + lo * (COST_DIAGONAL - COST_ONE)
}

impl FullAStar {
    /// Bytes of scratch held.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.queue.bytes()
    }

    /// Searches from `start` to `goal` (both in bounds and passable, checked
    /// by the caller) and writes the path into `out` (cleared first).
    pub(crate) fn run(
        &mut self,
        grid: &Grid,
        start: Point,
        goal: Point,
        out: &mut Vec<Point>,
    ) -> SearchStats {
        out.clear();
        let stride = grid.stride();
        let cells = stride * (grid.height() as usize + 2);
        if self.hoods_of != grid.revision() || self.nodes.len() != cells {
            // Another grid, or this one edited: forget every node and
            // block (a fill, far cheaper than the searches it serves).
            self.nodes.clear();
            self.nodes.resize(cells, BLANK);
            self.hoods_of = grid.revision();
        }
        // No g of a search reaches `span`: g(p) + c(p, n) of an expanded
        // `p` is at most one diagonal per cell (an optimal path repeats no
        // cell).
        let span = cells as Cost * COST_DIAGONAL + 1;
        if self.base == 0 || self.base < span || self.base > Cost::MAX - span {
            // A fresh scratch, or the bases ran out (after 2^64 / span
            // searches: 47,000 on a 512×512 map): every node fresh again.
            for n in &mut self.nodes {
                n.g = Cost::MAX;
            }
            self.base = Cost::MAX - span;
        } else {
            self.base -= span;
        }
        search(
            (&mut self.nodes[..], &mut self.queue),
            self.base,
            grid,
            start,
            goal,
            out,
        )
    }
}

/// The search loop of [`FullAStar::run`].
fn search(
    (nodes, queue): (&mut [Node], &mut BucketQueue),
    base: Cost,
    grid: &Grid,
    start: Point,
    goal: Point,
    out: &mut Vec<Point>,
) -> SearchStats {
    {
        let stride = grid.stride();

        let (gx, gy) = (goal.x, goal.y);
        let mut offset = [0isize; 8];
        for (d, o) in offset.iter_mut().enumerate() {
            let (dx, dy) = DELTAS[d];
            *o = dy as isize * stride as isize + dx as isize;
        }
        let pack = |x: u32, y: u32| x | (y << 16);

        let si = grid.padded_index(start);
        let s = &mut nodes[si];
        (s.g, s.parent, s.closed) = (base, NO_PARENT, false);
        let f0 = octile(start.x, start.y, gx, gy);
        queue.reset(f0);
        queue.push(f0, pack(start.x, start.y));
        let mut expanded = 0u32;
        let mut reached = None;
        let goal_packed = pack(gx, gy);
        while let Some((_, v)) = queue.pop() {
            let (x, y) = (v & 0xFFFF, v >> 16);
            let i = (y as usize + 1) * stride + x as usize + 1;
            let node = &mut nodes[i];
            if node.closed {
                continue;
            }
            node.closed = true;
            if v == goal_packed {
                reached = Some(i);
                break;
            }
            let g = node.g;
            let parent = node.parent as usize;
            expanded += 1;
            let mut hood = node.hood;
            if hood == UNKNOWN {
                hood = grid.neighborhood_padded(i) as u16;
                node.hood = hood;
            }
            let hood = hood as usize & 511;
            let moves = SUCCESSORS[parent.min(8)][hood] as u32;
            // Which moves improve their cell, without a branch per move
            // (fresh, better or neither is a coin toss for a predictor):
            // all eight cells of the block are read (they lie in the
            // padded grid) and the outcome kept as a bit.
            let mut better = 0u32;
            {
                let row = |c: usize| -> &[Node; 3] {
                    let r: &[Node] = &nodes[c - 1..c + 2];
                    r.try_into().expect("a row of three")
                };
                let (up, mid, down) = (row(i - stride), row(i), row(i + stride));
                for (d, &(dx, dy)) in DELTAS.iter().enumerate() {
                    let r = match dy {
                        -1 => up,
                        0 => mid,
                        _ => down,
                    };
                    let n = &r[(dx + 1) as usize];
                    let b = g + STEP[d] < n.g;
                    better |= (b as u32) << d;
                }
            }
            let mut todo = better & moves;
            while todo != 0 {
                let d = todo.trailing_zeros() as usize & 7;
                todo &= todo - 1;
                let ng = g + STEP[d];
                let n = &mut nodes[(i as isize + offset[d]) as usize];
                // A fresh node keeps only its cached block; an improved
                // one is never closed (a closed node's g is optimal).
                (n.g, n.parent, n.closed) = (ng, d as u8, false);
                let (dx, dy) = DELTAS[d];
                let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
                queue.push(ng - base + octile(nx, ny, gx, gy), pack(nx, ny));
            }
        }

        let Some(mut i) = reached else {
            return SearchStats::no_path(expanded);
        };
        let (mut straight, mut diagonal) = (0u64, 0u64);
        let mut p = goal;
        loop {
            out.push(p);
            let d = nodes[i].parent as usize;
            if d >= NO_PARENT as usize {
                break;
            }
            if d >= 4 {
                diagonal += 1;
            } else {
                straight += 1;
            }
            let (dx, dy) = DELTAS[d];
            p = Point::new(p.x.wrapping_add_signed(-dx), p.y.wrapping_add_signed(-dy));
            i = (i as isize - offset[d]) as usize;
        }
        out.reverse();
        SearchStats::found(straight, diagonal, expanded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Status;
    use regionpath_grid::{Dir, SQRT2};

    /// A small linear congruential generator: `rnd(n)` is below `n`.
    fn lcg(mut s: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 33) % n
        }
    }

    #[test]
    fn bucket_queue_pops_in_key_order_under_a_star_like_use() {
        // Pushes at or above the last popped key, by at most two diagonal
        // steps (the A* promise), compared with a sorted model after each
        // pop. Keys are often equal to the last (ties), sometimes a few
        // units above it (same bucket: the radix heap), sometimes in one
        // bucket with another key (mixed buckets), and across the whole
        // ring (wrapping round it many times).
        let mut q = BucketQueue::default();
        let mut rnd = lcg(0x5eed_u64);
        let span = 2 * COST_DIAGONAL;
        let width = 1u64 << COARSE_SHIFT;
        let (mut mixed, mut fine) = (0, 0);
        for round in 0..4u64 {
            let base = round * (1 << 41) + rnd(1 << 30);
            q.reset(base);
            let mut model: Vec<(u64, u32)> = Vec::new();
            let mut last = base;
            let mut live_peak = 0usize;
            for step in 0..20_000u32 {
                for _ in 0..rnd(4) {
                    let f = match rnd(6) {
                        0 | 1 => last,
                        2 => last + rnd(64).min(width - 1 - last % width),
                        3 => {
                            // Near another queued key: a mixed bucket.
                            match model.get(rnd(model.len().max(1) as u64) as usize) {
                                Some(&(k, _)) if k > last && k + 64 < last + span => {
                                    k + 1 + rnd(63)
                                }
                                _ => last + rnd(span),
                            }
                        }
                        _ => last + rnd(span),
                    };
                    if f > last && f / width == last / width {
                        fine += 1;
                    }
                    if model.iter().any(|&(k, _)| k != f && k / width == f / width) {
                        mixed += 1;
                    }
                    q.push(f, step);
                    model.push((f, step));
                }
                live_peak = live_peak.max(model.len());
                if step % 3 != 2 {
                    let got = q.pop();
                    let want = model.iter().map(|e| e.0).min();
                    assert_eq!(got.map(|e| e.0), want, "round {round} step {step}");
                    if let Some((f, p)) = got {
                        let k = model.iter().position(|&e| e == (f, p)).unwrap();
                        model.swap_remove(k);
                        last = f;
                    }
                }
            }
            while let Some((f, p)) = q.pop() {
                assert!(f >= last, "round {round}");
                last = f;
                let k = model.iter().position(|&e| e == (f, p)).unwrap();
                model.swap_remove(k);
            }
            assert!(model.is_empty(), "round {round}: {} left", model.len());
            // Freed slots are reused: no more than the most queued at once.
            assert!(q.slots.len() <= live_peak, "round {round}");
        }
        // The cases meant to be exercised were.
        assert!(fine > 1000 && mixed > 1000, "fine {fine} mixed {mixed}");
    }

    #[test]
    fn bucket_queue_pops_equal_keys_newest_first() {
        let mut q = BucketQueue::default();
        q.reset(5);
        q.push(5, 1);
        q.push(9 << COARSE_SHIFT, 2);
        q.push(5, 3);
        q.push(7, 4);
        assert_eq!(q.pop(), Some((5, 3)));
        q.push(5, 5);
        assert_eq!(q.pop(), Some((5, 5)));
        assert_eq!(q.pop(), Some((5, 1)));
        assert_eq!(q.pop(), Some((7, 4)));
        q.push(7, 6);
        assert_eq!(q.pop(), Some((7, 6)));
        // A bucket of two keys (its ties may pop in any order), then ties
        // of the later one.
        q.push((9 << COARSE_SHIFT) + 3, 7);
        q.push(9 << COARSE_SHIFT, 8);
        let a = q.pop().unwrap();
        let b = q.pop().unwrap();
        assert_eq!((a.0, b.0), (9 << COARSE_SHIFT, 9 << COARSE_SHIFT));
        assert_eq!(a.1 + b.1, 10);
        q.push((9 << COARSE_SHIFT) + 3, 9);
        assert_eq!(q.pop(), Some(((9 << COARSE_SHIFT) + 3, 9)));
        assert_eq!(q.pop(), Some(((9 << COARSE_SHIFT) + 3, 7)));
        assert_eq!(q.pop(), None);
        // A reset forgets everything, at any base. (The key pushed first
        // keeps to `push`'s bound: under `COARSE` buckets above the last.)
        q.push(20 << COARSE_SHIFT, 10);
        q.reset(3 << 50);
        assert_eq!(q.pop(), None);
        q.push(3 << 50, 11);
        assert_eq!(q.pop(), Some((3 << 50, 11)));
    }

    #[test]
    fn radix_pops_in_key_order_under_monotone_use() {
        // Simulates a search: every push is at least the last popped key;
        // compared with a sorted model after each pop.
        let mut q = RadixQueue::default();
        let mut model: Vec<u64> = Vec::new();
        let mut rnd = lcg(987_654_321u64);
        for round in 0..3 {
            let mut last = 0u64;
            for step in 0..5000 {
                for _ in 0..rnd(4) {
                    // Equal to the last key often (ties), else above it by
                    // amounts of every magnitude.
                    let f = if rnd(3) == 0 {
                        last
                    } else {
                        last + (rnd(1 << 20) << rnd(40))
                    };
                    q.push(f, step);
                    model.push(f);
                }
                if step % 3 != 2 {
                    let got = q.pop().map(|e| e.0);
                    let want = model.iter().copied().min();
                    assert_eq!(got, want, "round {round} step {step}");
                    if let Some(m) = want {
                        let k = model.iter().position(|&v| v == m).unwrap();
                        model.swap_remove(k);
                        last = m;
                    }
                }
            }
            while let Some((f, _)) = q.pop() {
                assert!(f >= last);
                last = f;
                let k = model.iter().position(|&v| v == f).unwrap();
                model.swap_remove(k);
            }
            assert!(model.is_empty());
            q.clear();
        }
    }

    #[test]
    fn radix_equal_keys_pop_newest_first() {
        let mut q = RadixQueue::default();
        q.push(5, 1);
        q.push(9, 2);
        q.push(5, 3);
        assert_eq!(q.pop(), Some((5, 3)));
        q.push(5, 4);
        assert_eq!(q.pop(), Some((5, 4)));
        assert_eq!(q.pop(), Some((5, 1)));
        assert_eq!(q.pop(), Some((9, 2)));
        assert_eq!(q.pop(), None);
        // After a clear any key may come first.
        q.push(100, 7);
        q.clear();
        q.push(3, 8);
        assert_eq!(q.pop(), Some((3, 8)));
    }

    #[test]
    fn radix_memory_is_bounded_by_the_most_entries_queued_at_once() {
        // Chunks go back to the free list when emptied or cleared (none
        // leaks), and however the entries spread over buckets the chunks
        // ever held are at most one per 32 live entries plus one partial
        // chunk per non-empty bucket, twice over for the bucket being moved
        // down (its chunks are freed as they are read).
        let mut q = RadixQueue::default();
        let mut rnd = lcg(42u64);
        let free_chunks = |q: &RadixQueue| {
            let (mut n, mut c) = (0, q.chunks.free);
            while c != NIL {
                n += 1;
                c = q.chunks.next[c as usize];
            }
            n
        };
        let mut peak_buckets = 0;
        for round in 0..20u32 {
            let shift = [0u32, 8, 20, 33, 50][round as usize % 5];
            q.clear();
            assert_eq!(
                free_chunks(&q),
                q.chunks.next.len(),
                "round {round}: a chunk leaked"
            );
            for k in 0..1000u32 {
                q.push((rnd(1 << 12) << shift) + 1, k);
                let busy: u32 = q.occupied.iter().map(|o| o.count_ones()).sum();
                peak_buckets = peak_buckets.max(busy as usize);
            }
            let (mut prev, mut n) = (0, 0);
            while let Some((f, _)) = q.pop() {
                assert!(f >= prev);
                prev = f;
                n += 1;
            }
            assert_eq!(n, 1000);
            assert_eq!(
                free_chunks(&q),
                q.chunks.next.len(),
                "round {round}: a chunk leaked"
            );
            // Half popped, then cleared: clear frees what is left.
            for k in 0..500u32 {
                q.push(prev + rnd(1 << 40), k);
                let busy: u32 = q.occupied.iter().map(|o| o.count_ones()).sum();
                peak_buckets = peak_buckets.max(busy as usize);
            }
            for _ in 0..250 {
                q.pop();
            }
            let bound = 2 * (1000 / CHUNK + 1) + peak_buckets;
            assert!(
                q.chunks.next.len() <= bound,
                "round {round}: {} chunks",
                q.chunks.next.len()
            );
        }
    }

    #[test]
    fn successor_table_omits_only_moves_the_parent_could_make() {
        // Every 3×3 block (the centre passable) as a real 5×5 grid, with
        // `Grid::can_step` as the oracle: a move is kept exactly when it is
        // legal from the centre and the parent cell cannot step to its
        // target directly (or is the target).
        let c = Point::new(2, 2);
        let at = |p: Point, (dx, dy): (i32, i32)| {
            Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy))
        };
        let mut kept_total = 0u32;
        let mut legal_total = 0u32;
        for hood in 0..512usize {
            if hood & (1 << 4) == 0 {
                continue;
            }
            let mut grid = Grid::new(5, 5, false).unwrap();
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (hood >> ((dy + 1) * 3 + (dx + 1))) & 1 == 1 {
                        grid.set_passable(at(c, (dx, dy)), true).unwrap();
                    }
                }
            }
            assert_eq!(
                grid.neighborhood_padded(grid.padded_index(c)) as usize,
                hood
            );
            for (parent, kept_by_hood) in SUCCESSORS.iter().enumerate() {
                if parent < 8 && !grid.is_passable(at(c, (-DELTAS[parent].0, -DELTAS[parent].1))) {
                    continue; // no cell could have been reached that way
                }
                let kept = kept_by_hood[hood];
                for (e, d) in Dir::ALL.into_iter().enumerate() {
                    let legal = grid.can_step(c, d);
                    let n = at(c, DELTAS[e]);
                    let covered = parent < 8 && {
                        let q = at(c, (-DELTAS[parent].0, -DELTAS[parent].1));
                        q == n
                            || Dir::ALL
                                .into_iter()
                                .any(|d2| at(q, d2.delta()) == n && grid.can_step(q, d2))
                    };
                    let want = legal && !covered;
                    assert_eq!(
                        kept >> e & 1 == 1,
                        want,
                        "hood {hood:09b} parent {parent} move {e}"
                    );
                    kept_total += want as u32;
                    legal_total += legal as u32;
                }
            }
        }
        // The pruning removes a real share of the legal moves (1,984 of
        // 3,648 kept over all blocks and parents).
        assert!(
            kept_total * 4 < legal_total * 3,
            "{kept_total} of {legal_total}"
        );
    }

    /// Exact octile Dijkstra by `Grid::can_step`, in `f64`: the oracle.
    fn dijkstra(grid: &Grid, s: Point, g: Point) -> Option<f64> {
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let mut dist = vec![f64::INFINITY; w * h];
        let mut done = vec![false; w * h];
        dist[s.y as usize * w + s.x as usize] = 0.0;
        loop {
            // O(cells) selection: the grids here are small.
            let (mut best, mut at) = (f64::INFINITY, usize::MAX);
            for (k, &d) in dist.iter().enumerate() {
                if !done[k] && d < best {
                    (best, at) = (d, k);
                }
            }
            if at == usize::MAX {
                return None;
            }
            let p = Point::new((at % w) as u32, (at / w) as u32);
            if p == g {
                return Some(best);
            }
            done[at] = true;
            for d in Dir::ALL {
                if grid.can_step(p, d) {
                    let (dx, dy) = d.delta();
                    let q = Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
                    let k = q.y as usize * w + q.x as usize;
                    let c = best + if dx != 0 && dy != 0 { SQRT2 } else { 1.0 };
                    if c < dist[k] {
                        dist[k] = c;
                    }
                }
            }
        }
    }

    #[test]
    fn reused_scratch_is_exact_across_searches_and_base_refills() {
        // One searcher, many searches on one grid: every cost written by an
        // earlier search (at a higher base) must read as "fresh". Bases are
        // also forced down to the last one or two before the refill, so the
        // refill runs, and searches right after it are checked too.
        let mut rnd = lcg(77);
        let (w, h) = (23u32, 17u32);
        let mut grid = Grid::new(w, h, true).unwrap();
        for _ in 0..120 {
            let p = Point::new(rnd(w as u64) as u32, rnd(h as u64) as u32);
            grid.set_passable(p, false).unwrap();
        }
        let open: Vec<Point> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|&p| grid.is_passable(p))
            .collect();
        let mut a = FullAStar::default();
        let mut path = Vec::new();
        let span = (grid.stride() * (h as usize + 2)) as Cost * COST_DIAGONAL + 1;
        let (mut found, mut refills) = (0, 0);
        for q in 0..400 {
            match q % 50 {
                // Two searches left: the next uses base `span`, then 0.
                10 => a.base = 2 * span,
                // Below one span: the next search refills.
                30 => a.base = span - 1,
                _ => {}
            }
            let before = a.base;
            let s = open[rnd(open.len() as u64) as usize];
            let g = open[rnd(open.len() as u64) as usize];
            let st = a.run(&grid, s, g, &mut path);
            if a.base > before {
                refills += 1;
            }
            match dijkstra(&grid, s, g) {
                None => assert_eq!(st.status, Status::NoPath, "query {q}"),
                Some(want) => {
                    assert_eq!(st.status, Status::Found, "query {q}");
                    assert!(
                        (st.cost - want).abs() < 1e-6,
                        "query {q}: {} vs {want}",
                        st.cost
                    );
                    assert_eq!((path[0], path[path.len() - 1]), (s, g));
                    for pair in path.windows(2) {
                        let d = Dir::ALL.into_iter().find(|d| {
                            let (dx, dy) = d.delta();
                            pair[0].x.wrapping_add_signed(dx) == pair[1].x
                                && pair[0].y.wrapping_add_signed(dy) == pair[1].y
                        });
                        assert!(d.is_some_and(|d| grid.can_step(pair[0], d)), "query {q}");
                    }
                    found += 1;
                }
            }
        }
        // The first search and every forced exhaustion refilled; most
        // pairs were connected.
        assert_eq!(refills, 1 + 400 / 50 * 2, "refills");
        assert!(found > 200, "{found}");
    }

    #[test]
    fn edits_and_other_grids_are_seen_through_the_block_cache() {
        // One searcher across an edit and across a second grid of the
        // same size: each answer must be the one for the grid as it is.
        let mut grid = Grid::from_rows(&[".....", ".....", "....."]).unwrap();
        let mut a = FullAStar::default();
        let mut path = Vec::new();
        let (s, g) = (Point::new(0, 1), Point::new(4, 1));
        let st = a.run(&grid, s, g, &mut path);
        assert_eq!((st.status, st.cost), (Status::Found, 4.0));
        // Wall in column 2 but for its bottom cell: round it, no corner
        // cutting: a diagonal, two straight steps, a diagonal.
        grid.set_passable(Point::new(2, 0), false).unwrap();
        grid.set_passable(Point::new(2, 1), false).unwrap();
        let st = a.run(&grid, s, g, &mut path);
        assert_eq!(st.status, Status::Found);
        assert!((st.cost - (2.0 + 2.0 * SQRT2)).abs() < 1e-9, "{}", st.cost);
        assert!(path.iter().all(|&p| grid.is_passable(p)));
        // A clone is its own grid: opening the wall there is seen there,
        // and the original keeps its wall.
        let mut open = grid.clone();
        open.set_passable(Point::new(2, 1), true).unwrap();
        assert_eq!(a.run(&open, s, g, &mut path).cost, 4.0);
        let st = a.run(&grid, s, g, &mut path);
        assert!((st.cost - (2.0 + 2.0 * SQRT2)).abs() < 1e-9, "{}", st.cost);
        // Fully walled: no path.
        grid.set_passable(Point::new(2, 2), false).unwrap();
        assert_eq!(a.run(&grid, s, g, &mut path).status, Status::NoPath);
    }
}
