//! The open list: a 4-ary min-heap of 16-byte entries.
//!
//! Keys are `(f, h, node)` packed in one `u128`: `f` and the tie-breaker
//! `h` are fixed-point costs (see `cost.rs`). Four children per
//! node halve the depth of a binary heap and keep siblings in one cache
//! line, and one integer comparison orders two entries.

/// One open-list entry: priority `f`, tie-breaker `h` (lower first) and a
/// node index (lowest last, which makes the order total and deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenEntry {
    /// `(f bits << 64) | (h bits << 32) | node`: one integer comparison
    /// orders entries, which the compiler turns into branch-free selects.
    key: u128,
}

impl OpenEntry {
    /// An entry with priority `f` and tie-breaker `h`, both in fixed-point
    /// cost units (only the top 32 of `h`'s significant bits break ties).
    #[inline]
    pub fn new(f: u64, h: u64, node: u32) -> Self {
        let tie = (h >> 16).min(u32::MAX as u64);
        OpenEntry {
            key: ((f as u128) << 64) | ((tie as u128) << 32) | node as u128,
        }
    }

    /// The node.
    #[inline]
    pub fn node(&self) -> u32 {
        self.key as u32
    }

    /// The priority.
    #[inline]
    pub fn f(&self) -> u64 {
        (self.key >> 64) as u64
    }

    /// The ordering key (smaller pops first).
    #[inline]
    pub fn key(&self) -> u128 {
        self.key
    }

    #[inline]
    fn less(&self, o: &OpenEntry) -> bool {
        self.key < o.key
    }
}

/// A 4-ary min-heap of [`OpenEntry`]: pops the smallest key first.
///
/// `push` and `pop` cost O(log n) (base 4) and allocate only to grow past
/// the capacity, which `clear` keeps; 16 bytes per entry. Why 4-ary: half a
/// binary heap's depth, and the four children share a cache line.
#[derive(Clone, Debug, Default)]
pub struct OpenList {
    items: Vec<OpenEntry>,
}

impl OpenList {
    /// An empty list.
    pub fn new() -> Self {
        OpenList::default()
    }

    /// Removes all entries, keeping the memory.
    #[inline]
    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Entries the list can hold without allocating.
    pub fn capacity(&self) -> usize {
        self.items.capacity()
    }

    /// The key of the entry `pop` would return.
    #[inline]
    pub fn peek_key(&self) -> Option<u128> {
        self.items.first().map(|e| e.key)
    }

    /// Adds an entry.
    #[inline]
    pub fn push(&mut self, e: OpenEntry) {
        let mut i = self.items.len();
        self.items.push(e);
        while i > 0 {
            let parent = (i - 1) / 4;
            let p = self.items[parent];
            if !e.less(&p) {
                break;
            }
            self.items[i] = p;
            i = parent;
        }
        self.items[i] = e;
    }

    /// Removes and returns the entry with the lowest `(f, h)`.
    #[inline]
    pub fn pop(&mut self) -> Option<OpenEntry> {
        let last = self.items.pop()?;
        let n = self.items.len();
        if n == 0 {
            return Some(last);
        }
        let top = self.items[0];
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            if first >= n {
                break;
            }
            let end = (first + 4).min(n);
            let mut best = first;
            let mut best_key = self.items[first].key;
            for c in first + 1..end {
                let k = self.items[c].key;
                let lt = k < best_key;
                best = if lt { c } else { best };
                best_key = if lt { k } else { best_key };
            }
            if !self.items[best].less(&last) {
                break;
            }
            self.items[i] = self.items[best];
            i = best;
        }
        self.items[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_order_with_tie_break() {
        let mut h = OpenList::new();
        let mut x = 12345u64;
        let mut all = Vec::new();
        for i in 0..1000u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let f = ((x >> 33) % 50) << 30;
            let hh = ((x >> 20) % 7) << 30;
            h.push(OpenEntry::new(f, hh, i));
            all.push((f, hh));
        }
        let mut prev = (0u64, 0u64);
        let mut n = 0;
        while let Some(e) = h.pop() {
            let cur = all[e.node() as usize];
            assert!(cur.0 > prev.0 || (cur.0 == prev.0 && cur.1 >= prev.1));
            prev = cur;
            n += 1;
        }
        assert_eq!(n, 1000);
    }
}
