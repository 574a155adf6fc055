//! The successor table of the full-grid fast path: which moves from a cell
//! can still improve a neighbour, given the move that reached the cell.

use crate::moves::DELTAS;

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
pub(super) static SUCCESSORS: [[u8; 512]; 9] = successor_table();

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

#[cfg(test)]
mod tests {
    use super::*;
    use regionpath_grid::{Dir, Grid, Point};

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
}
