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

/// Reusable buffers for labelling one sector, or for flooding one
/// component of it ([`Labeler::reach`]).
#[derive(Default)]
pub(crate) struct Labeler {
    pub labels: Vec<u16>,
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
    /// returns the number of regions.
    pub fn label(&mut self, grid: &Grid, rect: Rect) -> u16 {
        let w = rect.width() as usize;
        let h = rect.height() as usize;
        self.labels.clear();
        self.labels.resize(w * h, 0);
        // Mark passable cells with u16::MAX (unlabelled).
        let stride = grid.stride();
        for y in 0..h {
            let base = grid.padded_index(Point::new(rect.x0, rect.y0 + y as u32));
            let row = &mut self.labels[y * w..(y + 1) * w];
            for (x, l) in row.iter_mut().enumerate() {
                if grid.passable_padded(base + x) {
                    *l = u16::MAX;
                }
            }
        }
        let _ = stride;
        let mut next: u16 = 0;
        for i in 0..w * h {
            if self.labels[i] != u16::MAX {
                continue;
            }
            next += 1;
            self.labels[i] = next;
            self.stack.clear();
            self.stack.push(i as u32);
            while let Some(c) = self.stack.pop() {
                let c = c as usize;
                let (x, y) = (c % w, c / w);
                if x > 0 && self.labels[c - 1] == u16::MAX {
                    self.labels[c - 1] = next;
                    self.stack.push((c - 1) as u32);
                }
                if x + 1 < w && self.labels[c + 1] == u16::MAX {
                    self.labels[c + 1] = next;
                    self.stack.push((c + 1) as u32);
                }
                if y > 0 && self.labels[c - w] == u16::MAX {
                    self.labels[c - w] = next;
                    self.stack.push((c - w) as u32);
                }
                if y + 1 < h && self.labels[c + w] == u16::MAX {
                    self.labels[c + w] = next;
                    self.stack.push((c + w) as u32);
                }
            }
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

    /// `reach` against `label`: with one reused `Labeler` over rects of
    /// different widths (stale stamps from other rects) and across the
    /// stamp wrap-around, it returns a target of `p`'s component, and
    /// `None` exactly when that component holds no target.
    #[test]
    fn reach_finds_a_target_of_the_component() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut below = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as u32
        };
        let (gw, gh) = (45, 38);
        let mut g = Grid::new(gw, gh, true).unwrap();
        for y in 0..gh {
            for x in 0..gw {
                if below(100) < 40 {
                    g.set_passable(Point::new(x, y), false).unwrap();
                }
            }
        }
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
