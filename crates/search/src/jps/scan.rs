//! Jumps: straight scans 64 cells a word along a plane line, diagonal runs
//! step by step, each stopping at a jump point or a goal.

use super::planes::Planes;

/// Where a search may end.
pub(super) trait Target {
    /// The goal bits of word `wi` of line `line` (padded) of the row plane
    /// (`vertical == false`) or the column plane.
    fn word(&self, vertical: bool, line: usize, wi: usize) -> u64;
    /// Whether the padded cell is a goal.
    fn is_goal(&self, px: usize, py: usize) -> bool;
}

/// One goal cell, in padded coordinates.
pub(super) struct PointTarget {
    pub(super) px: usize,
    pub(super) py: usize,
}

impl Target for PointTarget {
    #[inline]
    fn word(&self, vertical: bool, line: usize, wi: usize) -> u64 {
        let (l, pos) = if vertical {
            (self.px, self.py)
        } else {
            (self.py, self.px)
        };
        if l == line && pos >> 6 == wi {
            1 << (pos & 63)
        } else {
            0
        }
    }

    #[inline]
    fn is_goal(&self, px: usize, py: usize) -> bool {
        px == self.px && py == self.py
    }
}

/// A set of goal cells, as planes of the same area as the search.
pub(super) struct PlaneTarget<'a>(pub(super) &'a Planes);

impl Target for PlaneTarget<'_> {
    #[inline]
    fn word(&self, vertical: bool, line: usize, wi: usize) -> u64 {
        if vertical {
            self.0.cols[line * self.0.col_words + wi]
        } else {
            self.0.rows[line * self.0.row_words + wi]
        }
    }

    #[inline]
    fn is_goal(&self, px: usize, py: usize) -> bool {
        self.0.open(px, py)
    }
}

/// Finds, along line `line` of a plane (`words` per line), the first
/// position after `s` that is blocked (returns `None`) or that is a jump
/// point: a goal, or a passable cell with a forced neighbour on the line
/// before (`line - 1`) or after (`line + 1`).
#[inline]
fn scan_forward<T: Target>(
    plane: &[u64],
    words: usize,
    line: usize,
    s: usize,
    target: &T,
    vertical: bool,
) -> Option<usize> {
    if words == 1 {
        // Windows of up to 62 cells (legs, joins): the whole line is one
        // word, so the scan is one step with no carries.
        let (c, b, a) = (plane[line], plane[line - 1], plane[line + 1]);
        let forced = (b & !(b << 1)) | (a & !(a << 1));
        let goal = target.word(vertical, line, 0);
        // `s` is a real cell, so `s + 1` is at most the blocked padding
        // after the last cell, which stops the scan.
        let stop = (!c | forced | goal) & (u64::MAX << (s + 1));
        let bit = stop.trailing_zeros() as usize;
        return ((goal | c) >> bit & 1 != 0).then_some(bit);
    }
    let here = &plane[line * words..(line + 1) * words];
    let before = &plane[(line - 1) * words..line * words];
    let after = &plane[(line + 1) * words..(line + 2) * words];
    let q0 = s + 1;
    let mut wi = q0 >> 6;
    let mut first_mask = u64::MAX << (q0 & 63);
    loop {
        // A cell may be left only where every word has been loaded: the
        // padding at the end of the line is blocked, so the loop stops.
        let carry_b = if wi > 0 { before[wi - 1] >> 63 } else { 0 };
        let carry_a = if wi > 0 { after[wi - 1] >> 63 } else { 0 };
        let (c, b, a) = (here[wi], before[wi], after[wi]);
        let forced = (b & !((b << 1) | carry_b)) | (a & !((a << 1) | carry_a));
        let goal = target.word(vertical, line, wi);
        let stop = (!c | forced | goal) & first_mask;
        if stop != 0 {
            let bit = stop.trailing_zeros() as usize;
            let q = (wi << 6) | bit;
            return if (goal >> bit) & 1 != 0 || (c >> bit) & 1 != 0 {
                Some(q)
            } else {
                None
            };
        }
        first_mask = u64::MAX;
        wi += 1;
    }
}

/// [`scan_forward`] towards lower positions.
#[inline]
fn scan_backward<T: Target>(
    plane: &[u64],
    words: usize,
    line: usize,
    s: usize,
    target: &T,
    vertical: bool,
) -> Option<usize> {
    if words == 1 {
        // As in `scan_forward`: one word, one step; position 0 is the
        // blocked padding, which stops the scan.
        let (c, b, a) = (plane[line], plane[line - 1], plane[line + 1]);
        let forced = (b & !(b >> 1)) | (a & !(a >> 1));
        let goal = target.word(vertical, line, 0);
        let stop = (!c | forced | goal) & (u64::MAX >> (64 - s));
        let bit = 63 - stop.leading_zeros() as usize;
        return ((goal | c) >> bit & 1 != 0).then_some(bit);
    }
    let here = &plane[line * words..(line + 1) * words];
    let before = &plane[(line - 1) * words..line * words];
    let after = &plane[(line + 1) * words..(line + 2) * words];
    // s ≥ 1 (a real cell), so q0 ≥ 0; position 0 is blocked padding.
    let q0 = s - 1;
    let mut wi = q0 >> 6;
    let mut first_mask = u64::MAX >> (63 - (q0 & 63));
    loop {
        let carry_b = if wi + 1 < words {
            before[wi + 1] << 63
        } else {
            0
        };
        let carry_a = if wi + 1 < words {
            after[wi + 1] << 63
        } else {
            0
        };
        let (c, b, a) = (here[wi], before[wi], after[wi]);
        let forced = (b & !((b >> 1) | carry_b)) | (a & !((a >> 1) | carry_a));
        let goal = target.word(vertical, line, wi);
        let stop = (!c | forced | goal) & first_mask;
        if stop != 0 {
            let bit = 63 - stop.leading_zeros() as usize;
            let q = (wi << 6) | bit;
            return if (goal >> bit) & 1 != 0 || (c >> bit) & 1 != 0 {
                Some(q)
            } else {
                None
            };
        }
        first_mask = u64::MAX;
        wi -= 1;
    }
}

/// Straight jump from padded `(px, py)` one step at a time in `(dx, dy)`
/// (exactly one of them non-zero). Returns the jump point.
#[inline]
pub(super) fn jump_straight<T: Target>(
    planes: &Planes,
    px: usize,
    py: usize,
    dx: i32,
    dy: i32,
    target: &T,
) -> Option<(usize, usize)> {
    if dy == 0 {
        let q = if dx > 0 {
            scan_forward(&planes.rows, planes.row_words, py, px, target, false)
        } else {
            scan_backward(&planes.rows, planes.row_words, py, px, target, false)
        }?;
        Some((q, py))
    } else {
        let q = if dy > 0 {
            scan_forward(&planes.cols, planes.col_words, px, py, target, true)
        } else {
            scan_backward(&planes.cols, planes.col_words, px, py, target, true)
        }?;
        Some((px, q))
    }
}

/// Diagonal jump from padded `(px, py)` in `(dx, dy)` (both ±1).
#[inline]
pub(super) fn jump_diagonal<T: Target>(
    planes: &Planes,
    mut px: usize,
    mut py: usize,
    dx: i32,
    dy: i32,
    target: &T,
) -> Option<(usize, usize)> {
    loop {
        let nx = (px as isize + dx as isize) as usize;
        let ny = (py as isize + dy as isize) as usize;
        if !(planes.open(nx, ny) && planes.open(nx, py) && planes.open(px, ny)) {
            return None;
        }
        px = nx;
        py = ny;
        if target.is_goal(px, py)
            || jump_straight(planes, px, py, dx, 0, target).is_some()
            || jump_straight(planes, px, py, 0, dy, target).is_some()
        {
            return Some((px, py));
        }
    }
}
