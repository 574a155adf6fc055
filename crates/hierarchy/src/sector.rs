//! Sector geometry and region labelling.
//!
//! Inside a sector, 8-connectivity without corner cutting joins exactly the
//! cells that 4-connectivity joins (a legal diagonal step needs both
//! orthogonal cells passable, and those lie in the same sector), so regions
//! are the 4-connected components of a sector's passable cells.

use regionpath_grid::{Grid, Point};

/// A rectangle of cells, inclusive of `x0, y0`, exclusive of `x1, y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Rect {
    #[inline]
    pub fn width(&self) -> u32 {
        self.x1 - self.x0
    }
    #[inline]
    pub fn height(&self) -> u32 {
        self.y1 - self.y0
    }
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x0 && p.x < self.x1 && p.y >= self.y0 && p.y < self.y1
    }
    #[inline]
    pub fn local(&self, p: Point) -> usize {
        (p.y - self.y0) as usize * self.width() as usize + (p.x - self.x0) as usize
    }
    pub fn union(&self, o: &Rect) -> Rect {
        Rect {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
}

/// How the grid is cut into sectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub width: u32,
    pub height: u32,
    pub size: u32,
    pub sectors_x: u32,
    pub sectors_y: u32,
}

impl Layout {
    pub fn new(width: u32, height: u32, size: u32) -> Layout {
        Layout {
            width,
            height,
            size,
            sectors_x: width.div_ceil(size),
            sectors_y: height.div_ceil(size),
        }
    }

    #[inline]
    pub fn count(&self) -> usize {
        self.sectors_x as usize * self.sectors_y as usize
    }

    #[inline]
    pub fn sector_of(&self, p: Point) -> u32 {
        (p.y / self.size) * self.sectors_x + p.x / self.size
    }

    #[inline]
    pub fn coords(&self, s: u32) -> (u32, u32) {
        (s % self.sectors_x, s / self.sectors_x)
    }

    #[inline]
    pub fn rect(&self, s: u32) -> Rect {
        let (sx, sy) = self.coords(s);
        let x0 = sx * self.size;
        let y0 = sy * self.size;
        Rect {
            x0,
            y0,
            x1: (x0 + self.size).min(self.width),
            y1: (y0 + self.size).min(self.height),
        }
    }
}

/// A 64-bit digest of each sector's cells (by sector id), so that an
/// edit [`crate::Hierarchy::update`] was not told of is found: every row
/// of a sector, up to 64 cells at a time, steps the state `h → (h ⟲ 29 ⊕
/// bits) × K` (K odd) from a start of its own per sector. Each step is a
/// bijection of the state and of the word, so a sector whose cells differ
/// in one word (64 cells of one row) always gets another digest; more
/// differences collide with odds of about 2⁻⁶⁴. One pass over the grid's
/// bit rows: O(cells / 64 + rows × sectors across).
pub(crate) fn digests(grid: &Grid, layout: &Layout) -> Vec<u64> {
    let mut d: Vec<u64> = (0..layout.count() as u32).map(digest_seed).collect();
    for y in 0..layout.height {
        let first = ((y / layout.size) * layout.sectors_x) as usize;
        for (sx, h) in d[first..first + layout.sectors_x as usize]
            .iter_mut()
            .enumerate()
        {
            let x0 = sx as u32 * layout.size;
            let x1 = (x0 + layout.size).min(layout.width);
            let mut x = x0;
            while x < x1 {
                let len = (x1 - x).min(64);
                *h = digest_step(*h, grid.row_bits(x, y, len));
                x += len;
            }
        }
    }
    d
}

/// The digest of sector `s` alone (its entry of [`digests`]). O(sector
/// cells / 64).
pub(crate) fn sector_digest(grid: &Grid, layout: &Layout, s: u32) -> u64 {
    let r = layout.rect(s);
    let mut h = digest_seed(s);
    for y in r.y0..r.y1 {
        let mut x = r.x0;
        while x < r.x1 {
            let len = (r.x1 - x).min(64);
            h = digest_step(h, grid.row_bits(x, y, len));
            x += len;
        }
    }
    h
}

/// The digest of sector `s` before any of its cells ([`digests`]).
#[inline]
pub(crate) fn digest_seed(s: u32) -> u64 {
    (u64::from(s) ^ 0x5EC7_0D16_E575_0000).wrapping_mul(DIGEST_K)
}

/// A sector's digest after one more word of its cells: the bits of up to
/// 64 cells of one row, row by row from the top, each row from its left
/// end ([`digests`]).
#[inline]
pub(crate) fn digest_step(h: u64, bits: u64) -> u64 {
    (h.rotate_left(29) ^ bits).wrapping_mul(DIGEST_K)
}

const DIGEST_K: u64 = 0x9E37_79B9_7F4A_7C15;

/// The number of horizontal runs of passable cells in `grid` (maximal
/// rows of adjacent passable cells), counted 64 cells at a time: a measure
/// of how much work labelling its sectors is.
pub(crate) fn count_runs(grid: &Grid) -> u64 {
    let w = grid.width();
    let mut runs = 0u64;
    for y in 0..grid.height() {
        let base = grid.padded_index(Point::new(0, y));
        // Whether the cell before the current 64 is passable.
        let mut carry = 0u64;
        for x in (0..w).step_by(64) {
            let mut b = grid.padded_bits(base + x as usize);
            if w - x < 64 {
                b &= (1u64 << (w - x)) - 1;
            }
            runs += (b & !((b << 1) | carry)).count_ones() as u64;
            carry = b >> 63;
        }
    }
    runs
}

/// A horizontal run of passable cells of a sector, in local coordinates:
/// row `y`, columns `x0..x1`, all in region `label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellRun {
    pub y: u16,
    pub x0: u16,
    pub x1: u16,
    pub label: u16,
}

/// The root of run `i` in a union-find forest (path halving).
#[inline]
fn find(parent: &mut [u32], i: usize) -> u32 {
    let mut i = i as u32;
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Reusable buffers for labelling one sector, or for flooding one
/// component of it ([`Labeler::reach`]).
#[derive(Default)]
pub(crate) struct Labeler {
    pub labels: Vec<u16>,
    /// The runs of the sector last labelled, row by row, left to right.
    pub runs: Vec<CellRun>,
    /// Union-find parents of `runs`.
    parent: Vec<u32>,
    stack: Vec<u32>,
    /// Per cell of the rect last flooded by [`Labeler::reach`] (row-major,
    /// that rect's width): `epoch - 1` marks a target cell, `epoch` a
    /// visited cell; anything else is neither. Only touched cells are
    /// written, so a flood costs its component, not the rect.
    stamps: Vec<u32>,
    epoch: u32,
    /// The current flood's targets: (local index, id).
    targets: Vec<(u32, u32)>,
}

impl Labeler {
    /// Labels the passable cells of `rect` with their region number (1-based,
    /// in row-major order of each region's first cell; 0 = blocked) and
    /// returns the number of regions. Labels the runs first
    /// ([`Labeler::label_runs`]), then writes them out cell by cell.
    pub fn label(&mut self, grid: &Grid, rect: Rect) -> u16 {
        let n = self.label_runs(grid, rect);
        let w = rect.width() as usize;
        self.labels.clear();
        self.labels.resize(w * rect.height() as usize, 0);
        for r in &self.runs {
            let row = r.y as usize * w;
            self.labels[row + r.x0 as usize..row + r.x1 as usize].fill(r.label);
        }
        n
    }

    /// Splits the passable cells of `rect` into [`CellRun`]s (row by row,
    /// left to right, into [`Labeler::runs`]) and gives each run its
    /// region's label, numbered as [`Labeler::label`] numbers them; returns
    /// the number of regions. Rows are read 64 cells at a time from the
    /// grid's bits and runs of adjacent rows are joined by union-find, so
    /// the cost is per run, not per cell.
    pub fn label_runs(&mut self, grid: &Grid, rect: Rect) -> u16 {
        let w = rect.width();
        self.runs.clear();
        self.parent.clear();
        let mut prev = 0..0;
        for y in 0..rect.height() {
            let base = grid.padded_index(Point::new(rect.x0, rect.y0 + y));
            // The row's cells from local `x` on, 64 at a time; cells past
            // the rect read as blocked.
            let bits_from = |x: u32| {
                let b = grid.padded_bits(base + x as usize);
                match w - x {
                    n if n >= 64 => b,
                    n => b & ((1u64 << n) - 1),
                }
            };
            let start = self.runs.len();
            let mut x = 0;
            while x < w {
                let b = bits_from(x);
                if b == 0 {
                    x += 64;
                    continue;
                }
                let x0 = x + b.trailing_zeros();
                let mut x1 = x0;
                loop {
                    let t = (!bits_from(x1)).trailing_zeros();
                    x1 += t;
                    if t < 64 {
                        break;
                    }
                }
                self.parent.push(self.runs.len() as u32);
                self.runs.push(CellRun {
                    y: y as u16,
                    x0: x0 as u16,
                    x1: x1 as u16,
                    label: 0,
                });
                x = x1;
            }
            // Join the runs that share a column with a run of the row above
            // (4-connectivity: overlapping column ranges).
            let end = self.runs.len();
            let (mut i, mut j) = (prev.start, start);
            while i < prev.end && j < end {
                let (a, b) = (self.runs[i], self.runs[j]);
                if a.x0 < b.x1 && b.x0 < a.x1 {
                    let ra = find(&mut self.parent, i);
                    if self.parent[j] == j as u32 {
                        // `j`'s first join: it is a root of its own, and
                        // later than every run above.
                        self.parent[j] = ra;
                    } else {
                        // The earlier root becomes the root, so a run's
                        // parent always precedes it.
                        let rb = find(&mut self.parent, j);
                        let (lo, hi) = (ra.min(rb), ra.max(rb));
                        self.parent[hi as usize] = lo;
                    }
                }
                if a.x1 <= b.x1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
            prev = start..end;
        }
        // A component's root is its first run in row-major order, so
        // numbering roots in run order numbers regions by first cell. Every
        // parent precedes its run, so in run order a parent already points
        // at its root: one step finds each root.
        let mut next = 0u16;
        for i in 0..self.runs.len() {
            let p = self.parent[i] as usize;
            self.runs[i].label = if p == i {
                next += 1;
                next
            } else {
                let r = self.parent[p];
                self.parent[i] = r;
                self.runs[r as usize].label
            };
        }
        next
    }

    /// Floods the component of `p` inside `rect` (the same connectivity as
    /// [`Labeler::label`]: 4-connected, confined to `rect`) until it reaches
    /// one of the `targets` (cells with ids) and returns that target's id:
    /// `p` and that cell then lie in the same region. `None` if `p` is
    /// blocked or outside `rect`, or its component holds no target. Targets
    /// outside `rect` are ignored. No allocation once the buffers have grown
    /// to the largest rect.
    pub fn reach(
        &mut self,
        grid: &Grid,
        rect: Rect,
        p: Point,
        targets: impl IntoIterator<Item = (Point, u32)>,
    ) -> Option<u32> {
        if !rect.contains(p) || !grid.is_passable(p) {
            return None;
        }
        let w = rect.width() as usize;
        let h = rect.height() as usize;
        if self.stamps.len() < w * h {
            self.stamps.resize(w * h, 0);
        }
        // New stamps for this flood; restart from zeroed stamps before they
        // would wrap, so no stale stamp can equal a current one.
        if self.epoch >= u32::MAX - 2 {
            self.stamps.fill(0);
            self.epoch = 0;
        }
        self.epoch += 2;
        let (target, visited) = (self.epoch - 1, self.epoch);
        self.targets.clear();
        for (q, id) in targets {
            if rect.contains(q) {
                let i = rect.local(q);
                self.stamps[i] = target;
                self.targets.push((i as u32, id));
            }
        }
        let id_at = |targets: &[(u32, u32)], i: usize| {
            targets
                .iter()
                .find(|&&(at, _)| at as usize == i)
                .map(|&(_, id)| id)
        };
        let i = rect.local(p);
        if self.stamps[i] == target {
            return id_at(&self.targets, i);
        }
        self.stamps[i] = visited;
        // Stack entries are local coordinates, `x | y << 16` (sectors are
        // at most 256 cells a side).
        let (lx, ly) = (p.x - rect.x0, p.y - rect.y0);
        self.stack.clear();
        self.stack.push(lx | ly << 16);
        let base = grid.padded_index(Point::new(rect.x0, rect.y0));
        let stride = grid.stride();
        while let Some(c) = self.stack.pop() {
            let (x, y) = ((c & 0xffff) as usize, (c >> 16) as usize);
            let (i, pi) = (y * w + x, base + y * stride + x);
            let around = [
                (
                    x > 0,
                    i.wrapping_sub(1),
                    pi.wrapping_sub(1),
                    c.wrapping_sub(1),
                ),
                (x + 1 < w, i + 1, pi + 1, c + 1),
                (
                    y > 0,
                    i.wrapping_sub(w),
                    pi.wrapping_sub(stride),
                    c.wrapping_sub(1 << 16),
                ),
                (y + 1 < h, i + w, pi + stride, c + (1 << 16)),
            ];
            for (ok, j, pj, cj) in around {
                if !ok || !grid.passable_padded(pj) {
                    continue;
                }
                let s = self.stamps[j];
                if s == visited {
                    continue;
                }
                if s == target {
                    return id_at(&self.targets, j);
                }
                self.stamps[j] = visited;
                self.stack.push(cj);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{random_grid, xorshift};

    #[test]
    fn labels_components_in_scan_order() {
        let g = Grid::from_rows(&["..@.", "@@@.", ".@..", ".@@."]).unwrap();
        let mut l = Labeler::default();
        let n = l.label(
            &g,
            Rect {
                x0: 0,
                y0: 0,
                x1: 4,
                y1: 4,
            },
        );
        assert_eq!(n, 3);
        assert_eq!(
            l.labels,
            vec![1, 1, 0, 2, 0, 0, 0, 2, 3, 0, 2, 2, 3, 0, 0, 2]
        );
    }

    /// Flood-fill labelling, cell by cell (the test oracle for the run
    /// labeller): 4-connected components numbered by first cell.
    fn flood_labels(g: &Grid, rect: Rect) -> (Vec<u16>, u16) {
        let (w, h) = (rect.width() as usize, rect.height() as usize);
        let open = |i: usize| {
            g.is_passable(Point::new(
                rect.x0 + (i % w) as u32,
                rect.y0 + (i / w) as u32,
            ))
        };
        let mut labels = vec![0u16; w * h];
        let mut next = 0;
        for i in 0..w * h {
            if labels[i] != 0 || !open(i) {
                continue;
            }
            next += 1;
            labels[i] = next;
            let mut stack = vec![i];
            while let Some(c) = stack.pop() {
                let (x, y) = (c % w, c / w);
                let mut near = vec![];
                if x > 0 {
                    near.push(c - 1);
                }
                if x + 1 < w {
                    near.push(c + 1);
                }
                if y > 0 {
                    near.push(c - w);
                }
                if y + 1 < h {
                    near.push(c + w);
                }
                for d in near {
                    if labels[d] == 0 && open(d) {
                        labels[d] = next;
                        stack.push(d);
                    }
                }
            }
        }
        (labels, next)
    }

    /// The run labeller against the flood fill, on random maps of several
    /// densities (long runs, single cells, runs crossing 64-cell words)
    /// and random rects up to 256 wide, with one reused `Labeler`.
    #[test]
    fn run_labels_match_a_flood_fill() {
        let mut below = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut lab = Labeler::default();
        let mut regions = 0usize;
        for density in [0, 10, 35, 50, 70, 100] {
            let (gw, gh) = (300, 70);
            let g = random_grid(gw, gh, density, &mut below);
            for _ in 0..25 {
                let (x0, y0) = (below(gw - 1), below(gh - 1));
                let rect = Rect {
                    x0,
                    y0,
                    x1: (x0 + 1 + below(256)).min(gw),
                    y1: (y0 + 1 + below(gh - y0)),
                };
                let (want, n) = flood_labels(&g, rect);
                assert_eq!(lab.label(&g, rect), n, "{rect:?} at {density}%");
                assert_eq!(lab.labels, want, "{rect:?} at {density}%");
                // Runs are maximal, ordered, and cover exactly the open cells.
                let w = rect.width() as usize;
                let mut covered = 0;
                for (k, r) in lab.runs.iter().enumerate() {
                    assert!(r.x0 < r.x1);
                    covered += (r.x1 - r.x0) as usize;
                    if let Some(next) = lab.runs.get(k + 1) {
                        assert!((r.y, r.x1) < (next.y, next.x0), "{r:?} {next:?}");
                    }
                    let row = r.y as usize * w;
                    assert!(r.x0 == 0 || want[row + r.x0 as usize - 1] == 0);
                    assert!(r.x1 as usize == w || want[row + r.x1 as usize] == 0);
                }
                assert_eq!(covered, want.iter().filter(|&&l| l != 0).count());
                regions += n as usize;
            }
        }
        assert!(regions > 1000, "{regions}");
    }

    /// `count_runs` against the runs the labeller finds over whole maps
    /// (up to 256 wide: one rect), open to dense.
    #[test]
    fn count_runs_matches_the_labeller() {
        let mut below = xorshift(0x0bad_cafe_f00d_1234u64);
        let mut lab = Labeler::default();
        for (gw, density) in [(256, 0), (200, 30), (129, 60), (64, 45), (63, 100)] {
            let gh = 40;
            let g = random_grid(gw, gh, density, &mut below);
            let all = Rect {
                x0: 0,
                y0: 0,
                x1: gw,
                y1: gh,
            };
            lab.label_runs(&g, all);
            assert_eq!(
                count_runs(&g),
                lab.runs.len() as u64,
                "{gw} wide, {density}%"
            );
        }
    }

    /// `reach` against `label`: with one reused `Labeler` over rects of
    /// different widths (stale stamps from other rects) and across the
    /// stamp wrap-around, it returns a target of `p`'s component, and
    /// `None` exactly when that component holds no target.
    #[test]
    fn reach_finds_a_target_of_the_component() {
        let mut below = xorshift(0x2545_f491_4f6c_dd1du64);
        let (gw, gh) = (45, 38);
        let g = random_grid(gw, gh, 40, &mut below);
        let (mut flood, mut full) = (Labeler::default(), Labeler::default());
        let mut checked = [0usize; 2];
        for round in 0..60 {
            if round == 30 {
                flood.epoch = u32::MAX - 7;
            }
            let (x0, y0) = (below(gw - 1), below(gh - 1));
            let rect = Rect {
                x0,
                y0,
                x1: x0 + 1 + below(gw - x0),
                y1: y0 + 1 + below(gh - y0),
            };
            full.label(&g, rect);
            for y in rect.y0.saturating_sub(1)..(rect.y1 + 1).min(gh) {
                for x in rect.x0.saturating_sub(1)..(rect.x1 + 1).min(gw) {
                    let p = Point::new(x, y);
                    // Up to 4 random targets, some outside the rect.
                    let targets: Vec<(Point, u32)> = (0..below(5))
                        .map(|k| (Point::new(below(gw), below(gh)), 100 + k))
                        .filter(|(q, _)| g.is_passable(*q))
                        .collect();
                    let got = flood.reach(&g, rect, p, targets.iter().copied());
                    if !rect.contains(p) || !g.is_passable(p) {
                        assert_eq!(got, None, "{p}");
                        continue;
                    }
                    let l = full.labels[rect.local(p)];
                    let same: Vec<u32> = targets
                        .iter()
                        .filter(|(q, _)| rect.contains(*q) && full.labels[rect.local(*q)] == l)
                        .map(|&(_, id)| id)
                        .collect();
                    match got {
                        Some(id) => assert!(same.contains(&id), "{p}: {id} not in {same:?}"),
                        None => assert!(same.is_empty(), "{p}: missed {same:?}"),
                    }
                    checked[got.is_some() as usize] += 1;
                }
            }
        }
        assert!(checked[0] > 100 && checked[1] > 100, "{checked:?}");
        // Right after the wrap-around the stamps of the very first flood
        // (the same epoch) must be gone: the same query, first and after
        // the wrap, reaches the same target.
        let rect = Rect {
            x0: 0,
            y0: 0,
            x1: gw,
            y1: gh,
        };
        full.label(&g, rect);
        let mut reached = 0;
        for i in 0..(gw * gh) as usize {
            let l = full.labels[i];
            let Some(first) = full.labels.iter().position(|&m| m == l && l != 0) else {
                continue;
            };
            if first == i {
                continue;
            }
            let (p, q) = (
                Point::new(i as u32 % gw, i as u32 / gw),
                Point::new(first as u32 % gw, first as u32 / gw),
            );
            let mut wrap = Labeler::default();
            assert_eq!(wrap.reach(&g, rect, p, [(q, 7)]), Some(7), "{p}");
            wrap.epoch = u32::MAX - 1;
            assert_eq!(
                wrap.reach(&g, rect, p, [(q, 7)]),
                Some(7),
                "{p} after the wrap"
            );
            reached += 1;
        }
        assert!(reached > 100, "{reached}");
    }

    #[test]
    fn layout_edges() {
        let l = Layout::new(35, 20, 16);
        assert_eq!((l.sectors_x, l.sectors_y), (3, 2));
        let r = l.rect(5);
        assert_eq!((r.x0, r.y0, r.x1, r.y1), (32, 16, 35, 20));
        assert_eq!(l.sector_of(Point::new(34, 19)), 5);
    }
}
