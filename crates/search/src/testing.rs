//! Helpers for the unit tests.

/// A small linear congruential generator: `rnd(n)` is below `n`.
pub(crate) fn lcg(mut s: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 33) % n
    }
}
