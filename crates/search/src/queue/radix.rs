//! A radix heap with 8-bit digits, for keys that never fall below the last
//! popped one: the fine level of [`BucketQueue`](super::bucket::BucketQueue).

use super::chunks::{Chunks, Entry, CHUNK, NIL};

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
    pub(super) fn is_empty(&self) -> bool {
        self.occupied.iter().all(|&o| o == 0)
    }

    /// Lets an empty queue take keys from `base` up (O(1), unlike
    /// [`RadixQueue::clear`]).
    #[inline]
    pub(super) fn restart_at(&mut self, base: u64) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::lcg;

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
}
