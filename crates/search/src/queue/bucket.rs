//! The bucket queue of the full-grid A* fast path.

use super::chunks::{Entry, NIL};
use super::radix::RadixQueue;

/// A coarse bucket of [`BucketQueue`] spans 2^`COARSE_SHIFT` key units
/// (1/256 of a straight step's [`COST_ONE`]).
const COARSE_SHIFT: u32 = 22;
/// Coarse buckets, used round robin (a power of two).
const COARSE: usize = 4096;
/// How far above the last popped key a pushed key may be: the ring less
/// two buckets (the last key may sit anywhere in its bucket).
pub(super) const SPAN: u64 = ((COARSE - 2) as u64) << COARSE_SHIFT;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::COST_DIAGONAL;
    use crate::testing::lcg;

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
}
