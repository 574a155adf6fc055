//! Direction tables, indexed like [`Dir::ALL`](regionpath_grid::Dir::ALL): 0–3 straight
//! (north, east, south, west), 4–7 diagonal.

use crate::cost::{Cost, COST_DIAGONAL, COST_ONE};

/// The parent direction of a node reached by no move (the start).
pub(crate) const NO_PARENT: u8 = 8;

/// `(dx, dy)` of each direction, indexed like
/// [`Dir::ALL`](regionpath_grid::Dir::ALL).
pub(crate) const DELTAS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Directions allowed by the window for each combination of open sides
/// (bit 0 north, 1 east, 2 south, 3 west).
pub(crate) const WINDOW_MOVES: [u8; 16] = window_moves();

const fn window_moves() -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut s = 0;
    while s < 16 {
        let (n, e, so, w) = (s & 1 != 0, s & 2 != 0, s & 4 != 0, s & 8 != 0);
        let ok = [n, e, so, w, n && e, so && e, so && w, n && w];
        let mut m = 0u8;
        let mut d = 0;
        while d < 8 {
            if ok[d] {
                m |= 1 << d;
            }
            d += 1;
        }
        t[s] = m;
        s += 1;
    }
    t
}

/// Step cost of each direction (fixed point).
pub(crate) const STEP: [Cost; 8] = {
    let mut t = [COST_ONE; 8];
    let mut i = 4;
    while i < 8 {
        t[i] = COST_DIAGONAL;
        i += 1;
    }
    t
};
