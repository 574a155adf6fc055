//! Small seeded generators, so generated maps and queries are the same on
//! every run and machine. Each generator gives exactly the draws of the
//! copy it replaces; the sampling helpers live on [`Rng64`].

/// A source of 64 random bits, with the ways the tests draw from it.
pub trait Rng64 {
    /// The next 64 random bits.
    fn next_u64(&mut self) -> u64;

    /// `next_u64() % n`: in `0..n` (slightly biased; `n = 0` is taken as 1).
    /// One draw.
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// The high 32 bits scaled into `0..n` by a multiply and shift
    /// (`((next >> 32) * n) >> 32`); `n = 0` gives 0. One draw.
    fn below_scaled(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// Uniform in `[0, 1)` with 53 random bits. One draw.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `percent` % (`below(100) < percent`). One draw.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// An element of the non-empty `items`, by [`below`](Rng64::below). One
    /// draw.
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// SplitMix64 (Steele, Lea, Flood): the state advances by the golden-ratio
/// increment and is mixed. `SplitMix64(seed)` starts from the raw seed.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl Rng64 for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Marsaglia's xorshift64* (shifts 12, 25, 27, output multiplied by
/// `0x2545F4914F6CDD1D`). Build it with [`XorShift64Star::new`].
#[derive(Clone, Debug)]
pub struct XorShift64Star(u64);

impl XorShift64Star {
    /// A generator from any seed: the state is `seed × 0x9E3779B97F4A7C15 | 1`
    /// (never zero).
    pub fn new(seed: u64) -> XorShift64Star {
        XorShift64Star(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
}

impl Rng64 for XorShift64Star {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Marsaglia's plain xorshift64 (shifts 13, 7, 17), returning the state.
/// `XorShift64(seed)` starts from the raw seed, which must not be zero (zero
/// stays zero).
#[derive(Clone, Debug)]
pub struct XorShift64(pub u64);

impl Rng64 for XorShift64 {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_first_draws() {
        // SplitMix64 from 0: the reference sequence's first value.
        assert_eq!(SplitMix64(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        // 1 -> 0x2001 -> 0x2041 -> 0x4082_2041 (shifts 13, 7, 17).
        assert_eq!(XorShift64(1).next_u64(), 0x4082_2041);
        assert_ne!(XorShift64Star::new(0).next_u64(), 0);
    }

    #[test]
    fn draws_stay_in_range() {
        let mut r = XorShift64Star::new(9);
        for n in 1..200u32 {
            assert!(r.below(u64::from(n)) < u64::from(n));
            assert!(r.below_scaled(n) < n);
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert_eq!(r.below_scaled(0), 0);
        assert_eq!(r.pick(&[7]), 7);
        assert!(!r.chance(0) && r.chance(100));
    }
}
