//! The chunk arena behind [`RadixQueue`](super::radix::RadixQueue)'s buckets.

/// Entries per chunk of [`Chunks`] (16 bytes each: 512 bytes).
pub(super) const CHUNK: usize = 32;

/// End of a chunk list.
pub(super) const NIL: u32 = u32::MAX;

/// A queue entry: its key and payload.
pub(super) type Entry = (u64, u32);

/// Buckets of entries, each a stack of `CHUNK`-entry chunks drawn from one
/// shared arena with a free list, so entries are read and written mostly in
/// sequence, and the memory held is that of the most entries ever queued at
/// once (plus one partial chunk per bucket): it stops growing once warm,
/// whichever buckets a later query fills.
#[derive(Clone, Debug)]
pub(super) struct Chunks {
    /// `CHUNK` entries per chunk.
    pub(super) entries: Vec<Entry>,
    /// Per chunk: the next (older) chunk of its bucket, or of the free
    /// list.
    pub(super) next: Vec<u32>,
    /// Newest chunk of each bucket (`NIL`: empty). Only a bucket's newest
    /// chunk may be partly filled, and no chunk in a bucket is empty.
    pub(super) heads: Box<[u32]>,
    /// Per bucket: one past its newest entry (an index into `entries`);
    /// a multiple of `CHUNK` when the newest chunk is full or the bucket
    /// is empty.
    pub(super) tails: Box<[usize]>,
    pub(super) free: u32,
}

/// A bucket's chunks, detached from it ([`Chunks::take`]).
#[derive(Clone, Copy)]
pub(super) struct List {
    pub(super) head: u32,
    pub(super) tail: usize,
}

impl Chunks {
    pub(super) fn new(buckets: usize) -> Chunks {
        Chunks {
            entries: Vec::new(),
            next: Vec::new(),
            heads: vec![NIL; buckets].into_boxed_slice(),
            tails: vec![0; buckets].into_boxed_slice(),
            free: NIL,
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.next.capacity() * std::mem::size_of::<u32>()
            + self.heads.len() * (std::mem::size_of::<u32>() + std::mem::size_of::<usize>())
    }

    #[inline]
    pub(super) fn is_empty(&self, b: usize) -> bool {
        self.heads[b] == NIL
    }

    /// Returns chunk `c` to the free list.
    #[inline]
    pub(super) fn release(&mut self, c: u32) {
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
    pub(super) fn put(&mut self, b: usize, e: Entry) {
        let t = self.tails[b];
        if t.is_multiple_of(CHUNK) {
            self.put_new_chunk(b, e);
        } else {
            self.entries[t] = e;
            self.tails[b] = t + 1;
        }
    }

    /// Removes the newest entry of bucket `b`, which must not be empty.
    #[inline(always)]
    pub(super) fn pop(&mut self, b: usize) -> Entry {
        let t = self.tails[b] - 1;
        let e = self.entries[t];
        if t.is_multiple_of(CHUNK) {
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
    pub(super) fn take(&mut self, b: usize) -> List {
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
    pub(super) fn give(&mut self, b: usize, l: List) {
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
    pub(super) fn min_max(&self, l: List) -> (u64, u64) {
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
    pub(super) fn clear_bucket(&mut self, b: usize) {
        let mut c = self.take(b).head;
        while c != NIL {
            let older = self.next[c as usize];
            self.release(c);
            c = older;
        }
    }
}
