//! Jump point search: exact 8-connected A* that skips symmetric paths.
//!
//! Jump point search (Harabor & Grastien, AAAI 2011; the variant without
//! corner cutting and with block-based jumps from their ICAPS 2014 paper)
//! expands only *jump points*: cells where an optimal path may have to turn.
//! Everything between two jump points is one straight or one diagonal run,
//! so the search graph is a small subset of the grid and the result is as
//! short as plain A*'s (an optimal octile path), though it may be a
//! different path of the same length.
//!
//! Rules under the grid's move rules (a diagonal needs both orthogonal
//! cells passable):
//! * A diagonal move has no forced neighbours: its natural successors are
//!   the diagonal and its two straight components.
//! * A straight move, say east into cell `x`, has a forced neighbour north
//!   when the cell north of `x` is passable and the cell north of the cell
//!   behind `x` is blocked (that cell can only be reached well through `x`);
//!   it then also tries the diagonal north-east. Likewise south.
//! * A straight jump stops at the first cell with a forced neighbour (a jump
//!   point), at the goal, or dies at a blocked cell. A diagonal jump stops at
//!   the goal or at the first cell from which one of its straight components
//!   finds a jump point.
//!
//! Straight jumps test 64 cells per step with bit operations: the searcher
//! keeps the grid's passability twice, row-major and column-major (2 bits
//! per cell), so vertical jumps scan words as horizontal ones do.

use crate::cost::{octile_cost, Cost, COST_DIAGONAL, COST_ONE};
use crate::queue::{OpenEntry, OpenList};
use crate::types::{Found, SearchError, SearchStats, Status};
use crate::window::Window;
use regionpath_grid::{transpose64, Grid, Point};

/// Passability one bit per cell in both orientations, each line padded by a
/// blocked cell at both ends and starting on a word boundary. Padded
/// coordinates: `px = x + 1`, `py = y + 1`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Planes {
    width: u32,
    height: u32,
    /// Words per padded row.
    row_words: usize,
    /// Words per padded column.
    col_words: usize,
    /// `(height + 2) * row_words` words: bit `px` of row `py`.
    rows: Vec<u64>,
    /// `(width + 2) * col_words` words: bit `py` of column `px`.
    cols: Vec<u64>,
}

impl Planes {
    /// Empty planes for a `width × height` area (every cell blocked).
    /// Copies the passability of `grid`.
    pub(crate) fn from_grid(grid: &Grid) -> Planes {
        let mut p = Planes::default();
        p.fill_area(grid, 0, 0, grid.width(), grid.height());
        p
    }

    /// Rebuilds the planes for a `width × height` area, reusing the
    /// buffers: `row_chunk(y, x, len)` gives the passability of cells
    /// `x..x + len` (at most 64) of row `y` as bits (bit `i` is cell
    /// `x + i`).
    pub(crate) fn fill(
        &mut self,
        width: u32,
        height: u32,
        mut row_chunk: impl FnMut(u32, u32, u32) -> u64,
    ) {
        self.reset(width, height);
        for y in 0..height {
            let base = (y as usize + 1) * self.row_words;
            let mut x = 0;
            while x < width {
                let len = (width - x).min(64);
                let bits = row_chunk(y, x, len);
                if bits != 0 {
                    let px = x as usize + 1;
                    let (w, o) = (base + (px >> 6), px & 63);
                    self.rows[w] |= bits << o;
                    if o != 0 {
                        let hi = bits >> (64 - o);
                        if hi != 0 {
                            self.rows[w + 1] |= hi;
                        }
                    }
                }
                x += 64;
            }
        }
        self.transpose();
    }

    /// [`Planes::fill`] for an area of `grid` with its top-left cell at
    /// `(x0, y0)` (the area must lie inside the grid): each line of either
    /// plane is read straight from the grid's row-major or column-major
    /// copy ([`Grid::area_rows_padded`], [`Grid::area_columns_padded`]), a
    /// word at a time, with no per-chunk bounds logic and no transpose.
    /// Window loads were a quarter of the short maze queries' instructions
    /// (maze512-8, short bucket); one-word lines for windows of up to 62
    /// cells halved that, and reading the grid's column copy instead of
    /// transposing the rows saved another 5 % of those queries. Larger
    /// areas (the planner's recheck, up to 160 cells a side, and whole
    /// grids) went through [`Planes::fill`] and a transpose before: reading
    /// them this way took 2.2 % off maze512-8's short queries and 1.7 % off
    /// 8room_000's (callgrind, every row of the bucket).
    pub(crate) fn fill_area(&mut self, grid: &Grid, x0: u32, y0: u32, width: u32, height: u32) {
        self.reset(width, height);
        let (w, h) = (width as usize, height as usize);
        let (rw, cw) = (self.row_words, self.col_words);
        // `reset` left the padding lines (first and last) blocked.
        grid.area_rows_padded(x0, y0, width, rw, &mut self.rows[rw..(h + 1) * rw]);
        grid.area_columns_padded(x0, y0, height, cw, &mut self.cols[cw..(w + 1) * cw]);
    }

    /// Resizes to a `width × height` area with every cell blocked, reusing
    /// the buffers.
    pub(crate) fn reset(&mut self, width: u32, height: u32) {
        self.width = width;
        self.height = height;
        self.row_words = (width as usize + 2).div_ceil(64);
        self.col_words = (height as usize + 2).div_ceil(64);
        self.rows.clear();
        self.rows.resize((height as usize + 2) * self.row_words, 0);
        self.cols.clear();
        self.cols.resize((width as usize + 2) * self.col_words, 0);
    }

    /// Derives the column plane from the row plane, 64×64 bits at a time.
    fn transpose(&mut self) {
        let (pw, ph) = (self.width as usize + 2, self.height as usize + 2);
        let mut block = [0u64; 64];
        for by in 0..self.col_words {
            for bx in 0..self.row_words {
                let mut any = 0;
                for (r, b) in block.iter_mut().enumerate() {
                    let py = by * 64 + r;
                    *b = if py < ph {
                        self.rows[py * self.row_words + bx]
                    } else {
                        0
                    };
                    any |= *b;
                }
                if any == 0 {
                    continue;
                }
                transpose64(&mut block);
                for (c, &b) in block.iter().enumerate() {
                    let px = bx * 64 + c;
                    if px < pw {
                        self.cols[px * self.col_words + by] = b;
                    }
                }
            }
        }
    }

    /// Marks `(x, y)` passable.
    #[inline]
    pub(crate) fn set(&mut self, x: u32, y: u32) {
        let (px, py) = (x as usize + 1, y as usize + 1);
        self.rows[py * self.row_words + (px >> 6)] |= 1 << (px & 63);
        self.cols[px * self.col_words + (py >> 6)] |= 1 << (py & 63);
    }

    /// Passability at padded coordinates (the border reads as blocked).
    #[inline]
    fn open(&self, px: usize, py: usize) -> bool {
        (self.rows[py * self.row_words + (px >> 6)] >> (px & 63)) & 1 != 0
    }

    fn bytes(&self) -> usize {
        (self.rows.capacity() + self.cols.capacity()) * 8
    }
}

/// Bits `start..start + len` (`len` ≤ 64) of a bitset, as the low bits.
#[inline]
fn get_bits(bits: &[u64], start: usize, len: u32) -> u64 {
    let (w, o) = (start >> 6, start & 63);
    let mut v = bits.get(w).copied().unwrap_or(0) >> o;
    if o != 0 {
        v |= bits.get(w + 1).copied().unwrap_or(0) << (64 - o);
    }
    if len >= 64 {
        v
    } else {
        v & ((1u64 << len) - 1)
    }
}

/// Where a search may end.
trait Target {
    /// The goal bits of word `wi` of line `line` (padded) of the row plane
    /// (`vertical == false`) or the column plane.
    fn word(&self, vertical: bool, line: usize, wi: usize) -> u64;
    /// Whether the padded cell is a goal.
    fn is_goal(&self, px: usize, py: usize) -> bool;
}

/// One goal cell, in padded coordinates.
struct PointTarget {
    px: usize,
    py: usize,
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
struct PlaneTarget<'a>(&'a Planes);

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
fn jump_straight<T: Target>(
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
fn jump_diagonal<T: Target>(
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

/// Per-cell scratch, 16 bytes. `stamp` is the generation when open and the
/// generation + 1 when closed.
#[derive(Clone, Copy, Default)]
struct JNode {
    g: Cost,
    stamp: u32,
    /// Local index of the parent jump point; `u32::MAX` for the start.
    parent: u32,
}

const NONE: u32 = u32::MAX;

/// The search itself: node scratch and open list, over any [`Planes`].
#[derive(Default)]
struct Engine {
    nodes: Vec<JNode>,
    heap: OpenList,
    generation: u32,
}

impl Engine {
    fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<JNode>()
            + self.heap.capacity() * std::mem::size_of::<OpenEntry>()
    }

    fn begin(&mut self, cells: usize) {
        if self.nodes.len() < cells {
            self.nodes.resize(cells, JNode::default());
        }
        // Two stamps per generation: open and closed.
        self.generation = self.generation.wrapping_add(2);
        if self.generation < 2 {
            for n in &mut self.nodes {
                n.stamp = 0;
            }
            self.generation = 2;
        }
        self.heap.clear();
    }

    /// Searches `planes` (local coordinates; `origin` is added to every
    /// point handed to `heuristic` or written to `out`) from the local cell
    /// `start` until a cell of `target` is expanded or `budget` expansions
    /// are spent.
    #[allow(clippy::too_many_arguments)]
    fn run<T: Target, H: Fn(Point) -> Cost>(
        &mut self,
        planes: &Planes,
        origin: (u32, u32),
        start: Point,
        target: &T,
        heuristic: H,
        budget: Option<u32>,
        bound: Cost,
        out: &mut Vec<Point>,
    ) -> SearchStats {
        out.clear();
        let w = planes.width as usize;
        self.begin(w * planes.height as usize);
        let (ox, oy) = origin;
        let heuristic = |x: usize, y: usize| heuristic(Point::new(ox + x as u32, oy + y as u32));
        let budget = budget.unwrap_or(u32::MAX);
        let (open, closed) = (self.generation, self.generation + 1);
        let s_idx = start.y as usize * w + start.x as usize;
        self.nodes[s_idx] = JNode {
            g: 0,
            stamp: open,
            parent: NONE,
        };
        let h0 = heuristic(start.x as usize, start.y as usize);
        self.heap.push(OpenEntry::new(h0, h0, s_idx as u32));
        let mut expanded = 0u32;
        let mut reached = None;
        while let Some(entry) = self.heap.pop() {
            if entry.f() >= bound {
                // Nothing left can beat the bound.
                break;
            }
            let idx = entry.node() as usize;
            let node = self.nodes[idx];
            if node.stamp == closed {
                continue;
            }
            self.nodes[idx].stamp = closed;
            let (x, y) = (idx % w, idx / w);
            let (px, py) = (x + 1, y + 1);
            if target.is_goal(px, py) {
                reached = Some(idx);
                break;
            }
            if expanded >= budget {
                return SearchStats {
                    status: Status::BudgetExhausted,
                    cost: 0.0,
                    expanded,
                };
            }
            expanded += 1;
            // Directions to try, as (dx, dy).
            let mut dirs = [(0i32, 0i32); 8];
            let mut n: usize;
            if node.parent == NONE {
                dirs = [
                    (0, -1),
                    (1, 0),
                    (0, 1),
                    (-1, 0),
                    (1, -1),
                    (1, 1),
                    (-1, 1),
                    (-1, -1),
                ];
                n = 8;
            } else {
                let (qx, qy) = (node.parent as usize % w, node.parent as usize / w);
                let dx = (x as i64 - qx as i64).signum() as i32;
                let dy = (y as i64 - qy as i64).signum() as i32;
                if dx != 0 && dy != 0 {
                    dirs[0] = (dx, 0);
                    dirs[1] = (0, dy);
                    dirs[2] = (dx, dy);
                    n = 3;
                } else {
                    dirs[0] = (dx, dy);
                    n = 1;
                    // The cell behind, and the two sides perpendicular to
                    // the move.
                    let (bx, by) = (
                        (px as isize - dx as isize) as usize,
                        (py as isize - dy as isize) as usize,
                    );
                    for side in [-1i32, 1] {
                        let (sx, sy) = if dx != 0 { (0, side) } else { (side, 0) };
                        let here_side = planes.open(
                            (px as isize + sx as isize) as usize,
                            (py as isize + sy as isize) as usize,
                        );
                        let behind_side = planes.open(
                            (bx as isize + sx as isize) as usize,
                            (by as isize + sy as isize) as usize,
                        );
                        if here_side && !behind_side {
                            dirs[n] = (sx, sy);
                            dirs[n + 1] = (dx + sx, dy + sy);
                            n += 2;
                        }
                    }
                }
            }
            let g = node.g;
            for &(dx, dy) in &dirs[..n] {
                let jumped = if dx != 0 && dy != 0 {
                    jump_diagonal(planes, px, py, dx, dy, target)
                } else {
                    jump_straight(planes, px, py, dx, dy, target)
                };
                let Some((jx, jy)) = jumped else { continue };
                let (nx, ny) = (jx - 1, jy - 1);
                let steps = nx.abs_diff(x).max(ny.abs_diff(y)) as Cost;
                let ng = g + steps
                    * if dx != 0 && dy != 0 {
                        COST_DIAGONAL
                    } else {
                        COST_ONE
                    };
                let n_idx = ny * w + nx;
                let nn = &mut self.nodes[n_idx];
                if nn.stamp != open && nn.stamp != closed {
                    *nn = JNode {
                        g: Cost::MAX,
                        stamp: open,
                        parent: NONE,
                    };
                }
                if nn.stamp == open && ng < nn.g {
                    let h = heuristic(nx, ny);
                    if ng + h >= bound {
                        continue;
                    }
                    nn.g = ng;
                    nn.parent = idx as u32;
                    self.heap.push(OpenEntry::new(ng + h, h, n_idx as u32));
                }
            }
        }

        let Some(end) = reached else {
            return SearchStats::no_path(expanded);
        };
        let (mut straight, mut diagonal) = (0u64, 0u64);
        let mut i = end;
        let at = |x: usize, y: usize| Point::new(ox + x as u32, oy + y as u32);
        loop {
            let (x, y) = (i % w, i / w);
            let parent = self.nodes[i].parent;
            if parent == NONE {
                out.push(at(x, y));
                break;
            }
            let (qx, qy) = (parent as usize % w, parent as usize / w);
            let dx = (qx as isize - x as isize).signum();
            let dy = (qy as isize - y as isize).signum();
            let steps = qx.abs_diff(x).max(qy.abs_diff(y));
            debug_assert!(dx == 0 || dy == 0 || qx.abs_diff(x) == qy.abs_diff(y));
            if dx != 0 && dy != 0 {
                diagonal += steps as u64;
            } else {
                straight += steps as u64;
            }
            for k in 0..steps as isize {
                out.push(at(
                    (x as isize + k * dx) as usize,
                    (y as isize + k * dy) as usize,
                ));
            }
            i = parent as usize;
        }
        out.reverse();
        SearchStats::found(straight, diagonal, expanded)
    }
}

/// Jump point search over a snapshot of a grid's passability: exact
/// (optimal octile) paths, 8-connected without corner cutting, usually far
/// fewer expansions than [`AStar`](crate::AStar).
///
/// The searcher copies the passability when built (2 bits per cell: one
/// row-major and one column-major copy) and searches that copy: after
/// editing the grid, call [`JumpPointSearch::refresh`]. Scratch is 16 bytes
/// per cell plus the open list, kept between queries and reset in O(1) by a
/// generation stamp; a warm query allocates nothing (with
/// [`JumpPointSearch::find_path_into`] and a reused path buffer).
///
/// ```
/// use regionpath_grid::{Grid, Point};
/// use regionpath_search::{JumpPointSearch, Status};
///
/// let grid = Grid::from_rows(&["....", ".@@.", "...."]).unwrap();
/// let mut jps = JumpPointSearch::new(&grid);
/// let found = jps.find_path(Point::new(0, 1), Point::new(3, 1)).unwrap();
/// assert_eq!(found.status, Status::Found);
/// assert_eq!(found.cost, 5.0); // round the wall: no corner cutting
/// assert_eq!(found.path.len(), 6); // every cell, not only jump points
/// ```
pub struct JumpPointSearch {
    planes: Planes,
    engine: Engine,
}

impl JumpPointSearch {
    /// A searcher for `grid` (copies its passability).
    pub fn new(grid: &Grid) -> JumpPointSearch {
        JumpPointSearch {
            planes: Planes::from_grid(grid),
            engine: Engine::default(),
        }
    }

    /// Re-reads the passability of `grid` (after edits, or for another grid
    /// of any size). Keeps the scratch.
    pub fn refresh(&mut self, grid: &Grid) {
        self.planes
            .fill_area(grid, 0, 0, grid.width(), grid.height());
    }

    /// Width of the grid snapshot.
    pub fn width(&self) -> u32 {
        self.planes.width
    }

    /// Height of the grid snapshot.
    pub fn height(&self) -> u32 {
        self.planes.height
    }

    /// Bytes held now: the two passability copies, the node array and the
    /// open list.
    pub fn scratch_bytes(&self) -> usize {
        self.planes.bytes() + self.engine.bytes()
    }

    /// Searches from `start` to `goal`, writing every cell of the path (not
    /// only the jump points) into `path`, which is cleared first.
    pub fn find_path_into(
        &mut self,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        let inside = |p: Point| p.x < self.planes.width && p.y < self.planes.height;
        if !inside(start) {
            return Err(SearchError::StartOutOfBounds(start));
        }
        if !inside(goal) {
            return Err(SearchError::GoalOutOfBounds(goal));
        }
        if !self.planes.open(start.x as usize + 1, start.y as usize + 1) {
            return Err(SearchError::StartBlocked(start));
        }
        if !self.planes.open(goal.x as usize + 1, goal.y as usize + 1) {
            return Err(SearchError::GoalBlocked(goal));
        }
        let target = PointTarget {
            px: goal.x as usize + 1,
            py: goal.y as usize + 1,
        };
        Ok(self.engine.run(
            &self.planes,
            (0, 0),
            start,
            &target,
            |p| octile_cost(p, goal),
            None,
            Cost::MAX,
            path,
        ))
    }

    /// [`JumpPointSearch::find_path_into`] returning an owned path.
    pub fn find_path(&mut self, start: Point, goal: Point) -> Result<Found, SearchError> {
        let mut path = Vec::new();
        let s = self.find_path_into(start, goal, &mut path)?;
        Ok(Found {
            status: s.status,
            path,
            cost: s.cost,
            expanded: s.expanded,
        })
    }
}

/// Jump point search confined to a [`Window`] of a grid, optionally to a
/// corridor inside it (a bitmask) and towards a set of goal cells: the
/// hierarchy's leg search. Exact within what it may use, like
/// [`WindowedAStar`](crate::WindowedAStar), and usually several times
/// faster.
///
/// Each query copies the window's passability (after the mask) into
/// row-major and column-major bit planes (for a 60×60 window, 62 words
/// each), so it needs no preprocessing and always sees the grid as it is
/// now. Scratch grows to the largest window searched (16 bytes per window
/// cell plus the planes) and is reused; a warm query allocates nothing.
///
/// Masks and goal sets are window-local bitsets: bit `(y - window.y) *
/// window.width + (x - window.x)` stands for cell `(x, y)`. A cell outside
/// the mask counts as a wall, for the corner rule too (a diagonal step
/// needs both orthogonal cells inside the mask), which is stricter than
/// [`WindowedAStar`](crate::WindowedAStar)'s mask (that one only keeps the
/// path's cells inside); the start may lie outside the mask.
///
/// With a node budget, a search that spends it returns
/// [`Status::BudgetExhausted`] with an empty path (no partial path, unlike
/// [`WindowedAStar`](crate::WindowedAStar)).
pub struct WindowedJps {
    planes: Planes,
    goals: Planes,
    engine: Engine,
    node_budget: Option<u32>,
    cost_bound: Cost,
}

impl Default for WindowedJps {
    fn default() -> Self {
        WindowedJps::new()
    }
}

impl WindowedJps {
    /// A searcher with no budget and no cost bound.
    pub fn new() -> WindowedJps {
        WindowedJps {
            planes: Planes::default(),
            goals: Planes::default(),
            engine: Engine::default(),
            node_budget: None,
            cost_bound: Cost::MAX,
        }
    }

    /// Only paths cheaper than `bound` (fixed-point cost units, see
    /// [`COST_ONE`]) are of interest: later searches prune every node whose
    /// `g + h` reaches it and report [`Status::NoPath`] when no cheaper path
    /// exists. `None` lifts the bound. A cheap way to ask "is there a
    /// shorter way than this one?".
    pub fn set_cost_bound(&mut self, bound: Option<Cost>) {
        self.cost_bound = bound.unwrap_or(Cost::MAX);
    }

    /// Stops later searches after this many expansions (`None`: no limit).
    pub fn set_node_budget(&mut self, budget: Option<u32>) {
        self.node_budget = budget;
    }

    /// The budget in force.
    pub fn node_budget(&self) -> Option<u32> {
        self.node_budget
    }

    /// Bytes of scratch held now.
    pub fn scratch_bytes(&self) -> usize {
        self.planes.bytes() + self.goals.bytes() + self.engine.bytes()
    }

    fn check(
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Option<Point>,
    ) -> Result<(), SearchError> {
        if !grid.in_bounds(start) {
            return Err(SearchError::StartOutOfBounds(start));
        }
        if let Some(goal) = goal {
            if !grid.in_bounds(goal) {
                return Err(SearchError::GoalOutOfBounds(goal));
            }
        }
        if !window.fits(grid) {
            return Err(SearchError::BadWindow(window));
        }
        if !grid.is_passable(start) {
            return Err(SearchError::StartBlocked(start));
        }
        if let Some(goal) = goal {
            if !grid.is_passable(goal) {
                return Err(SearchError::GoalBlocked(goal));
            }
        }
        if !window.contains(start) {
            return Err(SearchError::StartOutsideWindow(start, window));
        }
        if let Some(goal) = goal {
            if !window.contains(goal) {
                return Err(SearchError::GoalOutsideWindow(goal, window));
            }
        }
        Ok(())
    }

    /// Copies the window's passability, cut to `mask`, with the start open.
    fn load(&mut self, grid: &Grid, window: Window, start: Point, mask: Option<&[u64]>) {
        let ww = window.width as usize;
        if mask.is_none() {
            self.planes
                .fill_area(grid, window.x, window.y, window.width, window.height);
        } else {
            self.planes.fill(window.width, window.height, |y, x, len| {
                let bits = grid.row_bits(window.x + x, window.y + y, len);
                match mask {
                    Some(m) => bits & get_bits(m, y as usize * ww + x as usize, len),
                    None => bits,
                }
            });
        }
        let (sx, sy) = (start.x - window.x, start.y - window.y);
        if !self.planes.open(sx as usize + 1, sy as usize + 1) {
            // The start may lie outside the corridor; it is left, never
            // entered.
            self.planes.set(sx, sy);
        }
    }

    /// Searches from `start` to `goal` inside `window`, writing the cells
    /// into `path` (cleared first).
    pub fn find_path_into(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.search(grid, window, start, goal, None, path)
    }

    /// [`WindowedJps::find_path_into`] through the cells of `mask` only.
    pub fn find_path_masked_into(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        mask: &[u64],
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        self.search(grid, window, start, goal, Some(mask), path)
    }

    fn search(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goal: Point,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        Self::check(grid, window, start, Some(goal))?;
        self.load(grid, window, start, mask);
        let (gx, gy) = (
            (goal.x - window.x) as usize + 1,
            (goal.y - window.y) as usize + 1,
        );
        if !self.planes.open(gx, gy) {
            // The goal lies outside the corridor.
            path.clear();
            return Ok(SearchStats::no_path(0));
        }
        let target = PointTarget {
            px: (goal.x - window.x) as usize + 1,
            py: (goal.y - window.y) as usize + 1,
        };
        let local = Point::new(start.x - window.x, start.y - window.y);
        Ok(self.engine.run(
            &self.planes,
            (window.x, window.y),
            local,
            &target,
            |p| octile_cost(p, goal),
            self.node_budget,
            self.cost_bound,
            path,
        ))
    }

    /// Searches from `start` to the nearest cell (by path cost) of the goal
    /// set `goals` (a window-local bitset), through `mask` if given.
    /// `heuristic` must never overestimate the cost to the nearest goal
    /// cell and be consistent (the octile distance to the nearest goal cell
    /// is), else the path may not be the shortest.
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_to_any_into<H: Fn(Point) -> Cost>(
        &mut self,
        grid: &Grid,
        window: Window,
        start: Point,
        goals: &[u64],
        heuristic: H,
        mask: Option<&[u64]>,
        path: &mut Vec<Point>,
    ) -> Result<SearchStats, SearchError> {
        Self::check(grid, window, start, None)?;
        self.load(grid, window, start, mask);
        let ww = window.width as usize;
        // Goal cells count where the search may go (the planes: passable
        // and inside the mask, or the start). Goal sets are small (a border
        // run): set them bit by bit instead of transposing.
        self.goals.reset(window.width, window.height);
        for (wi, &word) in goals.iter().enumerate().take(window.area().div_ceil(64)) {
            let mut bits = word;
            while bits != 0 {
                let i = wi * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if i >= window.area() {
                    break;
                }
                let (x, y) = ((i % ww) as u32, (i / ww) as u32);
                if self.planes.open(x as usize + 1, y as usize + 1) {
                    self.goals.set(x, y);
                }
            }
        }
        let local = Point::new(start.x - window.x, start.y - window.y);
        Ok(self.engine.run(
            &self.planes,
            (window.x, window.y),
            local,
            &PlaneTarget(&self.goals),
            heuristic,
            self.node_budget,
            self.cost_bound,
            path,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AStar;

    fn grid(rows: &[&str]) -> Grid {
        Grid::from_rows(rows).unwrap()
    }

    /// Every pair of passable cells: the same cost as plain A*, and a valid
    /// path.
    fn agree_all_pairs(g: &Grid) {
        let mut jps = JumpPointSearch::new(g);
        let mut astar = AStar::new();
        let cells: Vec<Point> = (0..g.height())
            .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
            .filter(|&p| g.is_passable(p))
            .collect();
        for &a in &cells {
            for &b in &cells {
                let j = jps.find_path(a, b).unwrap();
                let r = astar.find_path(g, a, b).unwrap();
                assert_eq!(j.status, r.status, "{a} -> {b}");
                assert!(
                    (j.cost - r.cost).abs() < 1e-9,
                    "{a} -> {b}: {} vs {}",
                    j.cost,
                    r.cost
                );
                if j.status == Status::Found {
                    assert_eq!(j.path.first(), Some(&a));
                    assert_eq!(j.path.last(), Some(&b));
                    for s in j.path.windows(2) {
                        let d = regionpath_grid::Dir::from_delta(
                            s[1].x as i32 - s[0].x as i32,
                            s[1].y as i32 - s[0].y as i32,
                        )
                        .expect("adjacent");
                        assert!(g.can_step(s[0], d), "{} -> {}", s[0], s[1]);
                    }
                }
            }
        }
    }

    #[test]
    fn small_maps_agree_with_astar() {
        agree_all_pairs(&grid(&["....", ".@@.", "...."]));
        agree_all_pairs(&grid(&[
            "..@.....", "..@.@@..", "....@...", "@@..@.@.", "......@.", ".@@@..@.",
        ]));
        agree_all_pairs(&grid(&["@.@", ".@.", "@.@"]));
        agree_all_pairs(&grid(&["."]));
    }

    #[test]
    fn wide_rows_cross_word_boundaries() {
        // 150 wide: jumps cross several 64-bit words in both directions.
        let mut rows = vec![".".repeat(150); 5];
        rows[1].replace_range(70..71, "@");
        rows[3].replace_range(127..130, "@@@");
        let refs: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
        let g = grid(&refs);
        let mut jps = JumpPointSearch::new(&g);
        let mut astar = AStar::new();
        for (a, b) in [
            ((0, 0), (149, 4)),
            ((149, 2), (0, 2)),
            ((65, 0), (128, 4)),
            ((0, 4), (0, 0)),
            ((128, 2), (69, 1)),
        ] {
            let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
            let j = jps.find_path(a, b).unwrap();
            let r = astar.find_path(&g, a, b).unwrap();
            assert!((j.cost - r.cost).abs() < 1e-9, "{a} -> {b}");
        }
    }

    /// Windowed jump point search against windowed A* on random grids,
    /// windows, corridor masks and goal sets (all costs must agree).
    #[test]
    fn windowed_agrees_with_windowed_astar() {
        use crate::{Window, WindowedAStar};
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut wjps = WindowedJps::new();
        let mut wastar = WindowedAStar::with_size(80, 80);
        let (mut a_path, mut j_path) = (Vec::new(), Vec::new());
        for round in 0..400 {
            let (w, h) = (1 + (next() % 90) as u32, 1 + (next() % 90) as u32);
            let density = next() % 45;
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if next() % 100 < density { '@' } else { '.' })
                        .collect()
                })
                .collect();
            let g = Grid::from_rows(&rows).unwrap();
            let win = Window {
                x: (next() % w as u64) as u32,
                y: (next() % h as u64) as u32,
                width: 1,
                height: 1,
            };
            let win = Window {
                width: 1 + (next() % (w - win.x) as u64) as u32,
                height: 1 + (next() % (h - win.y) as u64) as u32,
                ..win
            };
            let cells: Vec<Point> = (win.y..win.y + win.height)
                .flat_map(|y| (win.x..win.x + win.width).map(move |x| Point::new(x, y)))
                .filter(|&p| g.is_passable(p))
                .collect();
            if cells.is_empty() {
                continue;
            }
            let words = win.area().div_ceil(64);
            let mut mask = vec![0u64; words];
            let mut goals = vec![0u64; words];
            for i in 0..win.area() {
                if next() % 100 < 85 {
                    mask[i >> 6] |= 1 << (i & 63);
                }
            }
            for _ in 0..1 + next() % 4 {
                let p = cells[(next() % cells.len() as u64) as usize];
                let i = ((p.y - win.y) * win.width + (p.x - win.x)) as usize;
                goals[i >> 6] |= 1 << (i & 63);
            }
            let goal_list: Vec<Point> = cells
                .iter()
                .copied()
                .filter(|p| {
                    let i = ((p.y - win.y) * win.width + (p.x - win.x)) as usize;
                    (goals[i >> 6] >> (i & 63)) & 1 != 0
                })
                .collect();
            let s = cells[(next() % cells.len() as u64) as usize];
            let t = cells[(next() % cells.len() as u64) as usize];
            let check = |what: &str, a: SearchStats, j: SearchStats, jp: &[Point]| {
                assert_eq!(a.status, j.status, "round {round} {what}");
                assert!(
                    (a.cost - j.cost).abs() < 1e-9,
                    "round {round} {what}: {} vs {}",
                    a.cost,
                    j.cost
                );
                if j.status == Status::Found {
                    assert_eq!(jp.first(), Some(&s));
                    for st in jp.windows(2) {
                        let d = regionpath_grid::Dir::from_delta(
                            st[1].x as i32 - st[0].x as i32,
                            st[1].y as i32 - st[0].y as i32,
                        )
                        .expect("adjacent");
                        assert!(g.can_step(st[0], d) && win.contains(st[1]));
                    }
                }
            };
            let a = wastar.find_path_into(&g, win, s, t, &mut a_path).unwrap();
            let j = wjps.find_path_into(&g, win, s, t, &mut j_path).unwrap();
            check("plain", a, j, &j_path);
            if j.status == Status::Found {
                assert_eq!(j_path.last(), Some(&t));
            }
            // Outside the mask is a wall for jump point search (also for
            // the corner rule): compare with A* on the grid walled so.
            let mut walled = g.clone();
            for y in win.y..win.y + win.height {
                for x in win.x..win.x + win.width {
                    let i = ((y - win.y) * win.width + (x - win.x)) as usize;
                    let p = Point::new(x, y);
                    if (mask[i >> 6] >> (i & 63)) & 1 == 0 && p != s {
                        walled.set_passable(p, false).unwrap();
                    }
                }
            }
            let a = if walled.is_passable(t) {
                wastar
                    .find_path_into(&walled, win, s, t, &mut a_path)
                    .unwrap()
            } else {
                SearchStats::no_path(0)
            };
            let j = wjps
                .find_path_masked_into(&g, win, s, t, &mask, &mut j_path)
                .unwrap();
            check("masked", a, j, &j_path);
            let h = |p: Point| goal_list.iter().map(|&q| octile_cost(p, q)).min().unwrap();
            let is_goal = |p: Point| goal_list.contains(&p);
            let a = wastar
                .find_path_to_any_into(&walled, win, s, is_goal, h, None, &mut a_path)
                .unwrap();
            let j = wjps
                .find_path_to_any_into(&g, win, s, &goals, h, Some(&mask), &mut j_path)
                .unwrap();
            check("to any", a, j, &j_path);
            if j.status == Status::Found {
                assert!(goal_list.contains(j_path.last().unwrap()));
            }
        }
    }

    #[test]
    fn errors_and_refresh() {
        let mut g = grid(&["..", ".@"]);
        let mut jps = JumpPointSearch::new(&g);
        assert_eq!(
            jps.find_path(Point::new(2, 0), Point::new(0, 0))
                .unwrap_err(),
            SearchError::StartOutOfBounds(Point::new(2, 0))
        );
        assert_eq!(
            jps.find_path(Point::new(0, 0), Point::new(1, 1))
                .unwrap_err(),
            SearchError::GoalBlocked(Point::new(1, 1))
        );
        g.set_passable(Point::new(1, 0), false).unwrap();
        g.set_passable(Point::new(0, 1), false).unwrap();
        g.set_passable(Point::new(1, 1), true).unwrap();
        jps.refresh(&g);
        let f = jps.find_path(Point::new(0, 0), Point::new(1, 1)).unwrap();
        assert_eq!(f.status, Status::NoPath);
        assert!(f.path.is_empty());
    }
}
