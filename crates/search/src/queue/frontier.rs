//! The open list of the weighted window searches: a [`BucketQueue`] for
//! the keys near the last popped one and a heap for the rest.

use super::bucket::{BucketQueue, SPAN};
use super::heap::{OpenEntry, OpenList};

/// An open list ordered by `f` alone that pops the lowest `f` first, as a
/// [`BucketQueue`] (O(1) pushes, and pops of the current key) wherever it
/// can: a key less than [`SPAN`] (below two buckets' width less than
/// the bucket ring) above the highest key popped so far goes to the
/// bucket queue, any higher key waits in a 4-ary heap and moves to the
/// bucket queue once the popped keys come within that span of it. Keys
/// below the highest popped one (a heuristic that is not consistent) pop
/// next. Ties pop newest first.
///
/// Why: a weighted leg search re-queues positions as cheaper ways to them
/// turn up, and its heap grows to thousands of entries, so a heap pop
/// cost about 320 instructions (callgrind, `benches/PROFILES.md` P62).
/// Holds about 90 KB of bucket heads once built; allocation-free once
/// warm.
#[derive(Clone, Debug, Default)]
pub(crate) struct Frontier {
    buckets: BucketQueue,
    far: OpenList,
    /// The highest key popped since [`Frontier::begin`].
    floor: u64,
}

impl Frontier {
    /// Empties the frontier for a search whose first key is `f0`.
    #[inline]
    pub(crate) fn begin(&mut self, f0: u64) {
        self.buckets.reset(f0);
        self.far.clear();
        self.floor = f0;
    }

    /// Queues `node` at key `f`.
    #[inline]
    pub(crate) fn push(&mut self, f: u64, node: u32) {
        if f < self.floor.saturating_add(SPAN) {
            self.buckets.push(f.max(self.floor), node);
        } else {
            self.far.push(OpenEntry::new(f, 0, node));
        }
    }

    /// Removes a node of the lowest key (see the type's rules for keys
    /// below the highest popped one).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        while let Some(k) = self.far.peek_key() {
            let f = (k >> 64) as u64;
            if f >= self.floor.saturating_add(SPAN) {
                break;
            }
            if let Some(e) = self.far.pop() {
                self.buckets.push(e.f(), e.node());
            }
        }
        if let Some((f, node)) = self.buckets.pop() {
            self.floor = self.floor.max(f);
            return Some(node);
        }
        let e = self.far.pop()?;
        self.buckets.reset(e.f());
        self.floor = e.f();
        Some(e.node())
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.bytes() + self.far.capacity() * std::mem::size_of::<OpenEntry>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::lcg;

    /// Against a sorted model, with keys at, above, far above (beyond the
    /// bucket ring) and, now and then, below the highest popped key: every
    /// pop is the model's lowest key, counting a key below the highest
    /// popped one as that key (it pops next).
    #[test]
    fn pops_the_lowest_key_near_and_far() {
        let mut q = Frontier::default();
        let mut rnd = lcg(0xf00d);
        let (mut far, mut below) = (0, 0);
        for round in 0..6u64 {
            let base = round << 40;
            q.begin(base);
            let mut model: Vec<(u64, u32)> = vec![(base, 0)];
            q.push(base, 0);
            let mut floor = base;
            let mut id = 0u32;
            for step in 1..15_000u32 {
                // Phases that grow the queue and phases that drain it.
                for _ in 0..rnd(if (step / 500) % 2 == 0 { 4 } else { 2 }) {
                    id += 1;
                    let f = match rnd(10) {
                        0 => {
                            far += 1;
                            floor + SPAN + rnd(2 * SPAN)
                        }
                        1 if floor > base + 1000 => {
                            below += 1;
                            floor - rnd(1000)
                        }
                        2 => floor,
                        _ => floor + rnd(SPAN),
                    };
                    q.push(f, id);
                    model.push((f.max(floor), id));
                }
                if step % 4 != 0 {
                    let want = model.iter().map(|e| e.0).min();
                    let got = q.pop();
                    assert_eq!(got.is_some(), want.is_some(), "round {round} step {step}");
                    if let (Some(node), Some(want)) = (got, want) {
                        let k = model.iter().position(|e| e.1 == node).unwrap();
                        assert_eq!(model[k].0, want, "round {round} step {step}");
                        model.swap_remove(k);
                        floor = floor.max(want);
                    }
                }
            }
            let mut last = floor;
            while let Some(node) = q.pop() {
                let k = model.iter().position(|e| e.1 == node).unwrap();
                assert!(model[k].0 >= last, "round {round}");
                last = model[k].0;
                model.swap_remove(k);
            }
            assert!(model.is_empty());
        }
        assert!(far > 1000 && below > 1000, "far {far} below {below}");
    }
}
