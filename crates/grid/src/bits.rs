//! Bit-matrix helpers shared by the grid and the searches.

/// Transposes a 64×64 bit matrix in place: bit `c` of word `r` moves to
/// bit `r` of word `c` (swapping ever smaller off-diagonal blocks). Used to
/// turn rows of passability bits into columns.
pub fn transpose64(a: &mut [u64; 64]) {
    /// One stage: swaps the `J × J` off-diagonal blocks of every `2J × 2J`
    /// block (constant `J`, so the loops unroll and vectorise).
    #[inline(always)]
    fn stage<const J: usize>(a: &mut [u64; 64], m: u64) {
        for base in (0..64).step_by(2 * J) {
            for k in base..base + J {
                let t = ((a[k] >> J) ^ a[k + J]) & m;
                a[k] ^= t << J;
                a[k + J] ^= t;
            }
        }
    }
    stage::<32>(a, 0x0000_0000_FFFF_FFFF);
    stage::<16>(a, 0x0000_FFFF_0000_FFFF);
    stage::<8>(a, 0x00FF_00FF_00FF_00FF);
    stage::<4>(a, 0x0F0F_0F0F_0F0F_0F0F);
    stage::<2>(a, 0x3333_3333_3333_3333);
    stage::<1>(a, 0x5555_5555_5555_5555);
}

/// The lowest `n` bits set (`n` ≤ 64).
#[inline]
pub(crate) fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose64_matches_naive() {
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut a = [0u64; 64];
        for w in &mut a {
            *w = crate::xorshift(&mut state);
        }
        let orig = a;
        transpose64(&mut a);
        for (r, row) in orig.iter().enumerate() {
            for (c, col) in a.iter().enumerate() {
                assert_eq!((row >> c) & 1, (col >> r) & 1, "({r}, {c})");
            }
        }
    }

    #[test]
    fn low_bits_edges() {
        assert_eq!(low_bits(0), 0);
        assert_eq!(low_bits(3), 0b111);
        assert_eq!(low_bits(64), u64::MAX);
    }
}
