//! The first build pass: each sector's regions and border labels, and
//! the edges across sector borders.

use crate::graph::{Link, Region};
use crate::sector::{Labeler, Layout};
use regionpath_grid::{octile, Dir, Grid, Point, SQRT2};

/// Per-sector result of the first build pass.
pub(crate) struct SectorData {
    pub regions: Vec<Region>,
    /// Labels along the four borders, one after another: top row, bottom
    /// row (`width` each), left column, right column (`height` each).
    pub(crate) border: Vec<u16>,
    pub(crate) width: usize,
}

impl SectorData {
    /// Labels of the top row.
    pub fn top(&self) -> &[u16] {
        &self.border[..self.width]
    }
    /// Labels of the bottom row.
    pub fn bottom(&self) -> &[u16] {
        &self.border[self.width..2 * self.width]
    }
    /// Labels of the left column.
    pub fn left(&self) -> &[u16] {
        let h = (self.border.len() - 2 * self.width) / 2;
        &self.border[2 * self.width..2 * self.width + h]
    }
    /// Labels of the right column.
    pub fn right(&self) -> &[u16] {
        let h = (self.border.len() - 2 * self.width) / 2;
        &self.border[2 * self.width + h..]
    }
}

/// Per-region sums of one sector: x and y sums, cells, bounding box.
type Sums = (u64, u64, u32, u32, u32, u32, u32);

/// Reusable buffers for [`sector_data`]: no allocation per sector beyond
/// its result once they have grown.
#[derive(Default)]
pub(crate) struct SectorScratch {
    lab: Labeler,
    sums: Vec<Sums>,
    /// Per region: squared distance (scaled) of the best cell so far, and
    /// that cell.
    best: Vec<(u64, u32, u32)>,
    /// Per label: the region's new label, 0 when it is dropped as sealed.
    keep: Vec<u16>,
}

/// Labels sector `s` and returns its regions and border labels. Only
/// regions with a legal move out of the sector are kept ("linked": they
/// have an edge in the region graph); the others ("sealed": a piece of the
/// sector closed off from everything else) are dropped, and their cells
/// read as 0 in the border labels. Kept regions are numbered in the order
/// of their first cell (row-major), as [`Labeler::label`] numbers all.
pub(crate) fn sector_data(
    grid: &Grid,
    layout: &Layout,
    s: u32,
    scratch: &mut SectorScratch,
) -> SectorData {
    let rect = layout.rect(s);
    let SectorScratch {
        lab,
        sums,
        best,
        keep,
    } = scratch;
    let n = lab.label_runs(grid, rect) as usize;
    let w = rect.width() as usize;
    let h = rect.height() as usize;
    // Sums for centroids and bounding boxes, a run at a time.
    sums.clear();
    sums.resize(n, (0, 0, 0, u32::MAX, u32::MAX, 0, 0));
    let acc = sums;
    for r in &lab.runs {
        let (y, x0, x1) = (r.y as u64, r.x0 as u64, r.x1 as u64);
        let len = x1 - x0;
        let a = &mut acc[r.label as usize - 1];
        a.0 += (x0 + x1 - 1) * len / 2;
        a.1 += y * len;
        a.2 += len as u32;
        a.3 = a.3.min(x0 as u32);
        a.4 = a.4.min(y as u32);
        a.5 = a.5.max(x1 as u32 - 1);
        a.6 = a.6.max(y as u32);
    }
    // Representative: the region's cell nearest its centroid, the first in
    // row-major order among equals. Along a run the squared distance is a
    // parabola in x, least at the centroid's column clamped into the run:
    // one of the two columns around it.
    best.clear();
    best.resize(n, (u64::MAX, 0, 0));
    for r in &lab.runs {
        let a = &acc[r.label as usize - 1];
        let c = a.2 as i64;
        let dy = r.y as i64 * c - a.1 as i64;
        // c² · squared distance, in integers.
        let d = |x: i64| {
            let dx = x * c - a.0 as i64;
            (dx * dx + dy * dy) as u64
        };
        let (lo, hi) = (r.x0 as i64, r.x1 as i64 - 1);
        let left = (a.0 as i64 / c).clamp(lo, hi);
        let right = (left + 1).min(hi);
        let x = if d(right) < d(left) { right } else { left };
        let b = &mut best[r.label as usize - 1];
        if d(x) < b.0 {
            *b = (d(x), x as u32, r.y as u32);
        }
    }
    // Sealed regions: no legal move leaves the sector from any of their
    // cells, so they have no edge in the region graph and are dropped (a
    // checkerboard without corner cutting is all such cells). A move out
    // of the sector from a region's cell is a step across the sector
    // border to a passable cell; a diagonal one needs both orthogonal
    // cells passable, one of which is outside the sector too, so an
    // orthogonal step out exists whenever a diagonal one does.
    // `keep[l - 1]` becomes the new label of old label `l` (0: dropped).
    keep.clear();
    keep.resize(n, 0);
    let open_across = |x: u32, y: u32, len: u32| {
        (0..len)
            .step_by(64)
            .any(|k| grid.row_bits(x + k, y, (len - k).min(64)) != 0)
    };
    for r in &lab.runs {
        let k = &mut keep[r.label as usize - 1];
        if *k != 0 {
            continue;
        }
        let (y, x0, x1) = (r.y as u32, r.x0 as u32, r.x1 as u32);
        let (gy, len) = (rect.y0 + y, x1 - x0);
        let linked = (y == 0 && rect.y0 > 0 && open_across(rect.x0 + x0, rect.y0 - 1, len))
            || (y as usize == h - 1
                && rect.y1 < grid.height()
                && open_across(rect.x0 + x0, rect.y1, len))
            || (x0 == 0 && rect.x0 > 0 && grid.is_passable(Point::new(rect.x0 - 1, gy)))
            || (x1 as usize == w && grid.is_passable(Point::new(rect.x1, gy)));
        *k = linked as u16;
    }
    let mut next = 0u16;
    for k in keep.iter_mut() {
        if *k != 0 {
            next += 1;
            *k = next;
        }
    }
    let regions = acc
        .iter()
        .zip(best.iter())
        .zip(keep.iter())
        .filter(|(_, &k)| k != 0)
        .map(|((a, b), _)| {
            Region::new(
                s,
                Point::new(rect.x0 + b.1, rect.y0 + b.2),
                a.2,
                Point::new(rect.x0 + a.3, rect.y0 + a.4),
                Point::new(rect.x0 + a.5, rect.y0 + a.6),
            )
        })
        .collect();
    // Border labels, from the runs that touch each border, renumbered to
    // the kept regions (a dropped region's cells read as 0, like walls:
    // nothing across them is passable).
    let mut border = vec![0u16; 2 * (w + h)];
    let (top, rest) = border.split_at_mut(w);
    let (bottom, rest) = rest.split_at_mut(w);
    let (left, right) = rest.split_at_mut(h);
    for r in &lab.runs {
        let (y, x0, x1) = (r.y as usize, r.x0 as usize, r.x1 as usize);
        let label = keep[r.label as usize - 1];
        if y == 0 {
            top[x0..x1].fill(label);
        }
        if y == h - 1 {
            bottom[x0..x1].fill(label);
        }
        if x0 == 0 {
            left[y] = label;
        }
        if x1 == w {
            right[y] = label;
        }
    }
    SectorData {
        regions,
        border,
        width: w,
    }
}

/// An edge candidate between region `a` (global id) and `b`.
pub(crate) type EdgeList = Vec<(u32, u32, Link)>;

/// Adds (or improves) edge `a`–`b` crossing from cell `ca` to cell `cb`.
#[allow(clippy::too_many_arguments)]
fn offer(
    edges: &mut EdgeList,
    base: usize,
    regions: &[Region],
    a: u32,
    b: u32,
    ca: Point,
    cb: Point,
    len: u32,
    step: f64,
) {
    let (ra, rb) = Link::new(0.0, ca, cb, len).crossing();
    let w = octile(regions[a as usize].representative(), ra.mid())
        + step
        + octile(rb.mid(), regions[b as usize].representative());
    let link = Link::new(w as f32, ca, cb, len);
    // Edges of one sector pair are few: a linear scan of them suffices.
    for e in edges[base..].iter_mut() {
        if e.0 == a && e.1 == b {
            if link.cost() < e.2.cost() {
                e.2 = link;
            }
            e.2 = e.2.with_more_crossings(true);
            return;
        }
    }
    edges.push((a, b, link));
}

/// Adds the edge across a sector corner when both corner cells carry a
/// region label and the diagonal step between them is legal (both
/// orthogonal cells passable: the grid's own corner rule).
#[allow(clippy::too_many_arguments)]
fn offer_corner(
    grid: &Grid,
    edges: &mut EdgeList,
    regions: &[Region],
    id: impl Fn(u32, u16) -> u32,
    (s, a): (u32, u16),
    (t, b): (u32, u16),
    ca: Point,
    cb: Point,
) {
    let step = Dir::from_delta(cb.x as i32 - ca.x as i32, cb.y as i32 - ca.y as i32);
    if a != 0 && b != 0 && step.is_some_and(|d| grid.can_step(ca, d)) {
        offer(
            edges,
            edges.len(),
            regions,
            id(s, a),
            id(t, b),
            ca,
            cb,
            1,
            SQRT2,
        );
    }
}

/// Calls `f(a, b, start, len)` for each maximal run of positions where the
/// two facing border strips hold the same pair of non-zero labels.
fn border_runs(mine: &[u16], theirs: &[u16], mut f: impl FnMut(u16, u16, u32, u32)) {
    let n = mine.len().min(theirs.len());
    let mut i = 0usize;
    while i < n {
        let (a, b) = (mine[i], theirs[i]);
        if a == 0 || b == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && mine[i] == a && theirs[i] == b {
            i += 1;
        }
        f(a, b, start as u32, (i - start) as u32);
    }
}

/// Edges between sector `s` and its east, south, south-east and south-west
/// neighbours. `data(t)` gives a sector's border labels, `first` the global
/// id of each sector's first region.
pub(crate) fn sector_edges<'a>(
    grid: &Grid,
    layout: &Layout,
    s: u32,
    data: &impl Fn(u32) -> &'a SectorData,
    first: &[u32],
    regions: &[Region],
    edges: &mut EdgeList,
) {
    let (sx, sy) = layout.coords(s);
    let r = layout.rect(s);
    let me = data(s);
    let id = |t: u32, l: u16| first[t as usize] + l as u32 - 1;
    // East: runs of equal label pairs along the shared column boundary.
    if sx + 1 < layout.sectors_x {
        let t = s + 1;
        let base = edges.len();
        border_runs(me.right(), data(t).left(), |a, b, start, len| {
            let y0 = r.y0 + start;
            offer(
                edges,
                base,
                regions,
                id(s, a),
                id(t, b),
                Point::new(r.x1 - 1, y0),
                Point::new(r.x1, y0),
                len,
                1.0,
            );
        });
    }
    if sy + 1 < layout.sectors_y {
        // South.
        let t = s + layout.sectors_x;
        let base = edges.len();
        border_runs(me.bottom(), data(t).top(), |a, b, start, len| {
            let x0 = r.x0 + start;
            offer(
                edges,
                base,
                regions,
                id(s, a),
                id(t, b),
                Point::new(x0, r.y1 - 1),
                Point::new(x0, r.y1),
                len,
                1.0,
            );
        });
        // South-east corner: (x1-1, y1-1) -> (x1, y1).
        if sx + 1 < layout.sectors_x {
            let t = s + layout.sectors_x + 1;
            let a = *me.bottom().last().unwrap_or(&0);
            let b = data(t).top()[0];
            let (ca, cb) = (Point::new(r.x1 - 1, r.y1 - 1), Point::new(r.x1, r.y1));
            offer_corner(grid, edges, regions, id, (s, a), (t, b), ca, cb);
        }
        // South-west corner: (x0, y1-1) -> (x0-1, y1).
        if sx > 0 {
            let t = s + layout.sectors_x - 1;
            let a = me.bottom()[0];
            let b = *data(t).top().last().unwrap_or(&0);
            let (ca, cb) = (Point::new(r.x0, r.y1 - 1), Point::new(r.x0 - 1, r.y1));
            offer_corner(grid, edges, regions, id, (s, a), (t, b), ca, cb);
        }
    }
}
