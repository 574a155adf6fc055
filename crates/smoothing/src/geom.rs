//! Exact clearance tests between swept discs and the grid's blocked squares.
//!
//! Rule used everywhere in this crate: a shape is *clear* for a unit of
//! radius `r` when every blocked cell square (closed, so touching counts) and
//! everything outside the map lies at a Euclidean distance **greater than**
//! `r` from it. For `r = 0` this is exactly the rule of
//! [`Grid::line_of_sight`]. The tests are exact geometry evaluated in `f64`
//! and err on the blocked side by a margin of [`EPS`] cells, which absorbs
//! rounding and is far below anything a grid can resolve.

use crate::Vec2;
use regionpath_grid::{Grid, Point};

/// Safety margin (cells) by which every clearance test errs towards
/// "blocked". Centre-to-centre segments on grids up to 65 535 cells either
/// touch a square or miss it by at least `1 / 131 070` cells, so the margin
/// never changes their verdict.
pub(crate) const EPS: f64 = 1e-7;

/// A point in `f64`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub(crate) struct P {
    pub x: f64,
    pub y: f64,
}

impl P {
    #[inline]
    pub const fn new(x: f64, y: f64) -> P {
        P { x, y }
    }
    #[inline]
    pub fn from_vec2(v: Vec2) -> P {
        P::new(v.x as f64, v.y as f64)
    }
    /// Rounds to the nearest `f32` position.
    #[inline]
    pub fn to_vec2(self) -> Vec2 {
        Vec2::new(self.x as f32, self.y as f32)
    }
    /// This point rounded to `f32` precision (and widened back).
    #[inline]
    pub fn rounded(self) -> P {
        P::from_vec2(self.to_vec2())
    }
    #[inline]
    pub fn sub(self, o: P) -> P {
        P::new(self.x - o.x, self.y - o.y)
    }
    #[inline]
    pub fn add(self, o: P) -> P {
        P::new(self.x + o.x, self.y + o.y)
    }
    #[inline]
    pub fn scale(self, k: f64) -> P {
        P::new(self.x * k, self.y * k)
    }
    #[inline]
    pub fn dot(self, o: P) -> f64 {
        self.x * o.x + self.y * o.y
    }
    #[inline]
    pub fn cross(self, o: P) -> f64 {
        self.x * o.y - self.y * o.x
    }
    #[inline]
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
    #[inline]
    pub fn dist(self, o: P) -> f64 {
        self.sub(o).len()
    }
    /// Rotated by +90° (towards the positive-cross side).
    #[inline]
    pub fn perp(self) -> P {
        P::new(-self.y, self.x)
    }
    /// Unit vector, or `None` for a (near) zero vector.
    #[inline]
    pub fn unit(self) -> Option<P> {
        let l = self.len();
        (l > 1e-12).then(|| self.scale(1.0 / l))
    }
    #[inline]
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }
}

/// `floor(x)` as an integer, without a libm call (|x| < 2⁶², NaN gives 0).
#[inline]
pub(crate) fn ifloor(x: f64) -> i64 {
    let t = x as i64;
    t - ((x < t as f64) as i64)
}

/// `ceil(x)` as an integer, without a libm call (|x| < 2⁶², NaN gives 0).
#[inline]
pub(crate) fn iceil(x: f64) -> i64 {
    let t = x as i64;
    t + ((x > t as f64) as i64)
}

/// 1.5 · 2⁵²: adding it to an `f64` of magnitude below 2⁵¹ rounds it to an
/// integer held in the low mantissa bits.
const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

/// `floor(x)` for finite `|x| < 2⁵¹` (map coordinates), without the
/// saturating float-to-integer conversion of [`ifloor`].
#[inline]
pub(crate) fn floor_small(x: f64) -> i64 {
    let r = x + ROUND_MAGIC;
    let n = (r.to_bits() as i64).wrapping_sub(ROUND_MAGIC.to_bits() as i64);
    n - ((r - ROUND_MAGIC > x) as i64)
}

/// `ceil(x)` for finite `|x| < 2⁵¹` (map coordinates), without the
/// saturating float-to-integer conversion of [`iceil`].
#[inline]
pub(crate) fn ceil_small(x: f64) -> i64 {
    let r = x + ROUND_MAGIC;
    let n = (r.to_bits() as i64).wrapping_sub(ROUND_MAGIC.to_bits() as i64);
    n + ((r - ROUND_MAGIC < x) as i64)
}

/// The smaller of two numbers (no NaN handling: NaN-free inputs only).
#[inline(always)]
fn fmin(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// The larger of two numbers (no NaN handling: NaN-free inputs only).
#[inline(always)]
fn fmax(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Whether cell `(x, y)` is passable; anything outside the map is blocked.
#[inline]
pub(crate) fn is_free(grid: &Grid, x: i64, y: i64) -> bool {
    if x < -1 || y < -1 || x > grid.width() as i64 || y > grid.height() as i64 {
        return false;
    }
    // The padded array has a blocked border, so x, y in -1..=width/height
    // are valid indices.
    grid.passable_padded((y + 1) as usize * grid.stride() + (x + 1) as usize)
}

/// The first blocked padded index in `lo..=hi`, scanning 64 cells a word.
#[inline]
pub(crate) fn first_blocked(grid: &Grid, lo: usize, hi: usize) -> Option<usize> {
    let mut i = lo;
    while i <= hi {
        let n = hi - i + 1;
        let mut b = !grid.padded_bits(i);
        if n < 64 {
            b &= (1u64 << n) - 1;
        }
        if b != 0 {
            return Some(i + b.trailing_zeros() as usize);
        }
        i += 64;
    }
    None
}

/// The last blocked padded index in `lo..=hi`, scanning 64 cells a word.
#[inline]
pub(crate) fn last_blocked(grid: &Grid, lo: usize, hi: usize) -> Option<usize> {
    let mut end = hi + 1;
    while end > lo {
        let n = (end - lo).min(64);
        let start = end - n;
        let mut b = !grid.padded_bits(start);
        if n < 64 {
            b &= (1u64 << n) - 1;
        }
        if b != 0 {
            return Some(start + 63 - b.leading_zeros() as usize);
        }
        end = start;
    }
    None
}

/// The first and last blocked padded indices in `lo..=hi` (one word read
/// when the range is at most 64 cells long).
#[inline]
pub(crate) fn blocked_ends(grid: &Grid, lo: usize, hi: usize) -> Option<(usize, usize)> {
    if hi < lo {
        return None;
    }
    let n = hi - lo + 1;
    if n > 64 {
        let first = first_blocked(grid, lo, hi)?;
        return Some((first, last_blocked(grid, first, hi).unwrap_or(first)));
    }
    let mut b = !grid.padded_bits(lo);
    if n < 64 {
        b &= (1u64 << n) - 1;
    }
    if b == 0 {
        return None;
    }
    Some((
        lo + b.trailing_zeros() as usize,
        lo + 63 - b.leading_zeros() as usize,
    ))
}

/// Whether a blocked or out-of-map square lies closer than `r` to `c`, or
/// the disk of radius `r` around `c` crosses the map's outline: a quick
/// test of a point, by the squares around it (at most 4 for `r` below
/// half a cell); [`capsule_clear`] refuses every capsule through such a
/// point. Non-finite input counts as blocked.
pub(crate) fn disk_blocked(grid: &Grid, c: P, r: f64) -> bool {
    if !(c.x.is_finite() && c.y.is_finite() && r.is_finite()) {
        return true;
    }
    if c.x - r <= 0.0
        || c.y - r <= 0.0
        || c.x + r >= grid.width() as f64
        || c.y + r >= grid.height() as f64
    {
        return true;
    }
    for y in floor_small(c.y - r)..=floor_small(c.y + r) {
        for x in floor_small(c.x - r)..=floor_small(c.x + r) {
            if !is_free(grid, x, y) && point_cell_dist(c, x, y) < r {
                return true;
            }
        }
    }
    false
}

/// Whether the capsule of radius `r` around the segment `a`–`b` is clear
/// (see the module rule). Non-finite input is never clear.
pub(crate) fn capsule_clear(grid: &Grid, a: P, b: P, r: f64) -> bool {
    // The sum is not finite when any of the numbers is not (and when huge
    // finite ones overflow, which the map bounds below reject anyway).
    let sum = a.x + a.y + b.x + b.y + r;
    if !(sum.is_finite() && r >= 0.0) {
        return false;
    }
    // Touching the map's outline touches an out-of-map square. (Every
    // number is finite here, so plain comparisons give `min` and `max`.)
    let m = r + EPS;
    let (xlo, xhi) = if a.x <= b.x { (a.x, b.x) } else { (b.x, a.x) };
    let (ylo, yhi) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
    if !(xlo - m > 0.0
        && ylo - m > 0.0
        && xhi + m < grid.width() as f64
        && yhi + m < grid.height() as f64)
    {
        return false;
    }
    if r == 0.0 {
        segment_rows(grid, a, b, EPS)
    } else if (b.x - a.x).abs() >= (b.y - a.y).abs() {
        sweep::<false>(grid, a.x, a.y, b.x, b.y, r)
    } else {
        sweep::<true>(grid, a.y, a.x, b.y, b.x, r)
    }
}

/// Whether the segment `a`–`b` keeps more than `g` (plus [`EPS`]) from every
/// blocked or out-of-map square along both axes: [`capsule_clear`]'s
/// radius-0 test with the squares grown by `g` as squares (so it also
/// rejects some segments a little farther than `g`, diagonally).
pub(crate) fn segment_clear_grown(grid: &Grid, a: P, b: P, g: f64) -> bool {
    let m = g + EPS;
    let (xlo, xhi) = if a.x <= b.x { (a.x, b.x) } else { (b.x, a.x) };
    let (ylo, yhi) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
    xlo - m > 0.0
        && ylo - m > 0.0
        && xhi + m < grid.width() as f64
        && yhi + m < grid.height() as f64
        && segment_rows(grid, a, b, m)
}

/// The radius-0 case of [`capsule_clear`], row by row: in each row of cells
/// `k` that the segment's `y` range meets (within [`EPS`]), the segment's
/// part with `k - EPS <= y <= k + 1 + EPS` spans one interval of `x`, and the
/// cells of that row meeting the interval (within [`EPS`]) are tested 64 a
/// word. A cell is thus tested when its square grown by [`EPS`] on every
/// side meets the segment: exact up to the margin, on the blocked side. A
/// segment within one row (one word) or one column (one cell per row) is
/// read without the per-row interval, and a steep one column by column
/// (the same test with the axes swapped). The caller guarantees the
/// segment lies inside the map.
fn segment_rows(grid: &Grid, a: P, b: P, e: f64) -> bool {
    let stride = grid.stride() as i64;
    let (ylo, yhi) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
    let dy = b.y - a.y;
    let k0 = ceil_small(ylo - e) - 1;
    let k1 = floor_small(yhi + e);
    let (xlo, xhi) = if a.x <= b.x { (a.x, b.x) } else { (b.x, a.x) };
    let c0 = ceil_small(xlo - e) - 1;
    let c1 = floor_small(xhi + e);
    if k0 == k1 {
        // Within one row (short segments, or most of them): its cells
        // c0..=c1, one word read.
        let base = (k0 + 1) * stride + 1;
        return !any_blocked(grid, (base + c0) as usize, (base + c1) as usize);
    }
    if c0 == c1 {
        // Within one column: the segment meets cell c0 of every row.
        let mut idx = (k0 + 1) * stride + 1 + c0;
        for _ in k0..=k1 {
            if !grid.passable_padded(idx as usize) {
                return false;
            }
            idx += stride;
        }
        return true;
    }
    if dy == 0.0 {
        // Padded index of cell (0, k) is base.
        let mut base = (k0 + 1) * stride + 1;
        for _ in k0..=k1 {
            if any_blocked(grid, (base + c0) as usize, (base + c1) as usize) {
                return false;
            }
            base += stride;
        }
        return true;
    }
    let dx = b.x - a.x;
    if dx != 0.0 && dx.abs() < dy.abs() {
        // Steep: column by column (fewer strips, and a strip's cells are
        // read one by one either way), the same test with x and y swapped.
        let inv = dy / dx;
        let y_at = |x: f64| {
            let x = if x < xlo {
                xlo
            } else if x > xhi {
                xhi
            } else {
                x
            };
            a.y + (x - a.x) * inv
        };
        let grows = inv >= 0.0;
        for c in c0..=c1 {
            let (y0, y1) = (y_at(c as f64 - e), y_at((c + 1) as f64 + e));
            let (ya, yb) = if grows { (y0, y1) } else { (y1, y0) };
            let (lo, hi) = (ceil_small(ya - e) - 1, floor_small(yb + e));
            let mut idx = (lo + 1) * stride + 1 + c;
            for _ in lo..=hi {
                if !grid.passable_padded(idx as usize) {
                    return false;
                }
                idx += stride;
            }
        }
        return true;
    }
    let inv = dx / dy;
    // x on the segment at height y clamped to the segment's y range;
    // monotone in y, so the row's lower edge gives the left end when
    // x grows with y and the right end otherwise.
    let x_at = |y: f64| {
        let y = if y < ylo {
            ylo
        } else if y > yhi {
            yhi
        } else {
            y
        };
        a.x + (y - a.y) * inv
    };
    let grows = inv >= 0.0;
    // Padded index of cell (0, k) is base.
    let mut base = (k0 + 1) * stride + 1;
    for k in k0..=k1 {
        let (x0, x1) = (x_at(k as f64 - e), x_at((k + 1) as f64 + e));
        let (xa, xb) = if grows { (x0, x1) } else { (x1, x0) };
        let lo = base + ceil_small(xa - e) - 1;
        let hi = base + floor_small(xb + e);
        if any_blocked(grid, lo as usize, hi as usize) {
            return false;
        }
        base += stride;
    }
    true
}

/// Whether any padded index in `lo..=hi` is blocked: one word read for
/// ranges of at most 64 cells, else [`first_blocked`].
#[inline(always)]
fn any_blocked(grid: &Grid, lo: usize, hi: usize) -> bool {
    if hi < lo {
        return false;
    }
    let n = hi - lo + 1;
    if n <= 64 {
        let mask = if n < 64 { (1u64 << n) - 1 } else { u64::MAX };
        return !grid.padded_bits(lo) & mask != 0;
    }
    first_blocked(grid, lo, hi).is_some()
}

/// Walks the unit strips `c <= u <= c + 1` of the major axis `u` (x, or y
/// when `T`), and in each tests every square whose closed extent meets the
/// capsule's extent along `v` within the strip. The capsule is convex, so
/// its intersection with a strip projects onto one interval of `v`, and a
/// square of the strip meets the capsule exactly when its `v` interval meets
/// that one: the test is exact. The caller guarantees the capsule lies inside
/// the map, so every index is valid.
fn sweep<const T: bool>(grid: &Grid, au: f64, av: f64, bu: f64, bv: f64, r: f64) -> bool {
    let stride = grid.stride() as i64;
    // Padded-index steps along u and v.
    let (step_u, step_v) = if T { (stride, 1) } else { (1, stride) };
    let cap = Capsule::new(au, av, bu, bv, r);
    let c0 = iceil(cap.ulo - EPS) - 1;
    let c1 = ifloor(cap.uhi + EPS);
    // The capsule's v extent at the strip's lower edge, carried over from
    // the previous strip.
    let clamp = |x: f64| fmax(fmin(x, cap.uhi), cap.ulo);
    let mut s0 = clamp(c0 as f64);
    let mut at0 = cap.extent_at(s0);
    for c in c0..=c1 {
        let s1 = clamp((c + 1) as f64);
        let at1 = cap.extent_at(s1);
        let (mut vmin, mut vmax) = (fmin(at0.0, at1.0), fmax(at0.1, at1.1));
        if r > 0.0 {
            // The end discs' lowest and highest points.
            for (pu, pv) in [(au, av), (bu, bv)] {
                if pu >= s0 && pu <= s1 {
                    vmin = fmin(vmin, pv - r);
                    vmax = fmax(vmax, pv + r);
                }
            }
        }
        let k0 = iceil(vmin - EPS) - 1;
        let k1 = ifloor(vmax + EPS);
        let idx = (c + 1) * step_u + (k0 + 1) * step_v;
        if T {
            // Along a row of the grid: one word read.
            if any_blocked(grid, idx as usize, (idx + k1 - k0) as usize) {
                return false;
            }
        } else {
            let mut idx = idx;
            for _ in k0..=k1 {
                if !grid.passable_padded(idx as usize) {
                    return false;
                }
                idx += step_v;
            }
        }
        s0 = s1;
        at0 = at1;
    }
    true
}

/// A capsule in a frame `(u, v)`, with what its extent queries need.
///
/// Its upper boundary is concave and its lower one convex, so over a strip
/// `s0 <= u <= s1` the extremes of `v` lie at the strip's two edges or at the
/// end discs' top and bottom points when those fall inside the strip.
///
/// Everything [`Capsule::extent_at`] needs that does not depend on the query
/// is computed once here (by the same operations as a per-query computation
/// would use, so the extents are the same numbers).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Capsule {
    au: f64,
    av: f64,
    bu: f64,
    bv: f64,
    r: f64,
    /// `r²`.
    r2: f64,
    /// `dv / du` (0 when `du = 0`).
    slope: f64,
    /// Whether the segment has a `u` extent (`du != 0`), so that its two
    /// sides cross lines `u = s`.
    sides: bool,
    /// The two sides (the segment shifted by `+r·n` and `-r·n`, n the unit
    /// normal): start point, `u` range and `v` range.
    side: [Side; 2],
    /// u extent.
    pub ulo: f64,
    pub uhi: f64,
}

/// One side of a [`Capsule`]: the segment from `(pu, pv)` by `(du, dv)`.
#[derive(Clone, Copy, Debug)]
struct Side {
    pu: f64,
    pv: f64,
    ulo: f64,
    uhi: f64,
    vlo: f64,
    vhi: f64,
}

impl Capsule {
    pub(crate) fn new(au: f64, av: f64, bu: f64, bv: f64, r: f64) -> Capsule {
        let (du, dv) = (bu - au, bv - av);
        let len = (du * du + dv * dv).sqrt();
        let (nu, nv) = if len > 0.0 {
            (-dv / len * r, du / len * r)
        } else {
            (0.0, 0.0)
        };
        let side = |sign: f64| {
            let pu = au + sign * nu;
            let pv = av + sign * nv;
            let qu = pu + du;
            Side {
                pu,
                pv,
                ulo: pu.min(qu),
                uhi: pu.max(qu),
                vlo: pv.min(pv + dv),
                vhi: pv.max(pv + dv),
            }
        };
        Capsule {
            au,
            av,
            bu,
            bv,
            r,
            r2: r * r,
            slope: if du != 0.0 { dv / du } else { 0.0 },
            sides: du != 0.0,
            side: [side(1.0), side(-1.0)],
            ulo: au.min(bu) - r,
            uhi: au.max(bu) + r,
        }
    }

    /// The capsule's exact `v` extent on the line `u = s` (inside its `u`
    /// extent): the union of the two end discs and the two sides (the
    /// segment shifted by `±r·n`), which together cover its boundary.
    #[inline]
    pub(crate) fn extent_at(&self, s: f64) -> (f64, f64) {
        if self.r == 0.0 {
            if !self.sides {
                return (self.av.min(self.bv), self.av.max(self.bv));
            }
            let v = self.av + (s - self.au) * self.slope;
            return (v, v);
        }
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for (pu, pv) in [(self.au, self.av), (self.bu, self.bv)] {
            let d = s - pu;
            if d.abs() <= self.r {
                let h = (self.r2 - d * d).max(0.0).sqrt();
                lo = lo.min(pv - h);
                hi = hi.max(pv + h);
            }
        }
        if self.sides {
            for e in &self.side {
                if s >= e.ulo && s <= e.uhi {
                    let v = e.pv + (s - e.pu) * self.slope;
                    // Clamped to the side's v range (rounding only).
                    let v = if v < e.vlo {
                        e.vlo
                    } else if v > e.vhi {
                        e.vhi
                    } else {
                        v
                    };
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
            }
        }
        (lo, hi)
    }
}

/// [`Grid::line_of_sight`] between the centres of two passable in-bounds
/// cells: the same supercover walk, stepping a padded index instead of
/// recomputing it.
#[inline(always)]
pub(crate) fn cells_visible(grid: &Grid, a: Point, b: Point) -> bool {
    walk_clear::<{ usize::MAX }>(grid, a, b)
}

/// Whether [`cells_visible`]'s walk from `a` towards `b` meets a blocked
/// cell within its first `STEPS` steps: `true` proves `b` hidden from `a`,
/// `false` proves nothing.
#[inline(always)]
pub(crate) fn hidden_within<const STEPS: usize>(grid: &Grid, a: Point, b: Point) -> bool {
    !walk_clear::<STEPS>(grid, a, b)
}

/// The supercover walk of [`cells_visible`], stopped, clear so far, after
/// `STEPS` steps; `usize::MAX` walks to `b` (the step count then compiles
/// away, so the unbounded walk pays nothing for it).
#[inline(always)]
fn walk_clear<const STEPS: usize>(grid: &Grid, a: Point, b: Point) -> bool {
    let stride = grid.stride() as i64;
    let dx = (b.x as i64 - a.x as i64).abs();
    let dy = (b.y as i64 - a.y as i64).abs();
    let sx: i64 = if b.x > a.x { 1 } else { -1 };
    let sy: i64 = if b.y > a.y { stride } else { -stride };
    let mut idx = grid.padded_index(a) as i64;
    // err is proportional to the signed distance between the line and the
    // corner the walk heads for: > 0 cross a vertical edge next, < 0 a
    // horizontal one, 0 go through the corner (touching both neighbours).
    let mut err = dx - dy;
    let (mut mx, mut my) = (0, 0);
    let mut steps = 0;
    while mx < dx || my < dy {
        if STEPS != usize::MAX {
            if steps == STEPS {
                break;
            }
            steps += 1;
        }
        if err > 0 {
            idx += sx;
            mx += 1;
            err -= 2 * dy;
        } else if err < 0 {
            idx += sy;
            my += 1;
            err += 2 * dx;
        } else {
            if !grid.passable_padded((idx + sx) as usize)
                || !grid.passable_padded((idx + sy) as usize)
            {
                return false;
            }
            idx += sx + sy;
            mx += 1;
            my += 1;
            err += 2 * dx - 2 * dy;
        }
        if !grid.passable_padded(idx as usize) {
            return false;
        }
    }
    true
}

/// Distance from point `p` to segment `a`–`b`.
#[inline]
pub(crate) fn point_segment_dist(p: P, a: P, b: P) -> f64 {
    let ab = b.sub(a);
    let l2 = ab.dot(ab);
    let t = if l2 > 0.0 {
        (p.sub(a).dot(ab) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.dist(a.add(ab.scale(t)))
}

/// Distance from point `p` to the closed axis-aligned square of cell
/// `(x, y)`.
#[inline]
pub(crate) fn point_cell_dist(p: P, x: i64, y: i64) -> f64 {
    let (x0, y0) = (x as f64, y as f64);
    let dx = (x0 - p.x).max(0.0).max(p.x - (x0 + 1.0));
    let dy = (y0 - p.y).max(0.0).max(p.y - (y0 + 1.0));
    (dx * dx + dy * dy).sqrt()
}

/// A circular arc: centre, radius, the two end points and the sign of its
/// sweep (`+1`: angle increasing from `from` to `to`). Sweeps are below π.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arc {
    pub center: P,
    pub radius: f64,
    pub from: P,
    pub to: P,
    pub sign: f64,
}

/// Exact distance between an arc (sweep below π) and the closed square of
/// cell `(x, y)`.
///
/// Points whose direction from the centre falls inside the arc's wedge are
/// at distance `| |p - c| - ρ |` from the arc; all others are nearest to an
/// end point. So the distance is the smaller of the end points' distances
/// and the range of `|p - c|` over the square clipped to the wedge.
pub(crate) fn arc_cell_dist(arc: &Arc, x: i64, y: i64) -> f64 {
    let mut best = point_cell_dist(arc.from, x, y).min(point_cell_dist(arc.to, x, y));
    let (x0, y0) = (x as f64, y as f64);
    let mut poly = [P::default(); 8];
    let mut n = 4;
    poly[..4].copy_from_slice(&[
        P::new(x0, y0),
        P::new(x0 + 1.0, y0),
        P::new(x0 + 1.0, y0 + 1.0),
        P::new(x0, y0 + 1.0),
    ]);
    let c = arc.center;
    // The wedge: sign·cross(from - c, p - c) >= 0 and
    // sign·cross(p - c, to - c) >= 0; clip the square to it
    // (Sutherland–Hodgman).
    let e0 = arc.from.sub(c);
    let e1 = arc.to.sub(c);
    let s = arc.sign;
    // As half-planes through c: dot(normal, p - c) >= 0.
    let planes = [e0.perp().scale(s), e1.perp().scale(-s)];
    for normal in planes {
        let f = |p: P| normal.dot(p.sub(c));
        let mut out = [P::default(); 8];
        let mut m = 0;
        let mut push = |p: P| {
            // A convex quadrilateral clipped twice has at most 6 vertices.
            if m < out.len() {
                out[m] = p;
                m += 1;
            }
        };
        for i in 0..n {
            let p = poly[i];
            let q = poly[(i + 1) % n];
            let (fp, fq) = (f(p), f(q));
            if fp >= 0.0 {
                push(p);
            }
            if (fp >= 0.0) != (fq >= 0.0) {
                push(p.add(q.sub(p).scale(fp / (fp - fq))));
            }
        }
        poly = out;
        n = m;
        if n == 0 {
            return best;
        }
    }
    // Range of |p - c| over the clipped polygon.
    let mut dmax: f64 = 0.0;
    let mut dmin = f64::INFINITY;
    let mut inside = n >= 3;
    let mut orient = 0.0;
    for i in 0..n {
        let p = poly[i];
        let q = poly[(i + 1) % n];
        dmax = dmax.max(p.dist(c));
        dmin = dmin.min(point_segment_dist(c, p, q));
        let cr = q.sub(p).cross(c.sub(p));
        if cr != 0.0 {
            if orient == 0.0 {
                orient = cr.signum();
            } else if cr.signum() != orient {
                inside = false;
            }
        }
    }
    // A degenerate (zero-area) polygon never contains the centre strictly;
    // its edges give the distance.
    if inside && orient != 0.0 {
        dmin = 0.0;
    }
    let radial = if arc.radius < dmin {
        dmin - arc.radius
    } else if arc.radius > dmax {
        arc.radius - dmax
    } else {
        0.0
    };
    best = best.min(radial);
    best
}

/// Whether the arc, swept by a disc of radius `r`, is clear: every blocked
/// or out-of-map square lies farther than `r` (plus [`EPS`]) from it.
pub(crate) fn arc_clear(grid: &Grid, arc: &Arc, r: f64) -> bool {
    if !(arc.center.is_finite() && arc.from.is_finite() && arc.to.is_finite()) {
        return false;
    }
    // The arc lies in the triangle of its end points and the intersection
    // of its end tangents; a bounding box of the end points widened by the
    // arc's bulge (at most the radius) is enough.
    let m = r + EPS;
    let bulge = arc.radius.min(arc.from.dist(arc.to));
    let mid = arc.from.add(arc.to).scale(0.5);
    let xlo = arc.from.x.min(arc.to.x).min(mid.x - bulge) - m;
    let xhi = arc.from.x.max(arc.to.x).max(mid.x + bulge) + m;
    let ylo = arc.from.y.min(arc.to.y).min(mid.y - bulge) - m;
    let yhi = arc.from.y.max(arc.to.y).max(mid.y + bulge) + m;
    let w = grid.width() as i64;
    let h = grid.height() as i64;
    if xlo <= 0.0 || ylo <= 0.0 || xhi >= w as f64 || yhi >= h as f64 {
        // Might touch the outline: check out-of-map squares too, but keep
        // the loop bounded.
        if xhi < -1.0 || yhi < -1.0 || xlo > (w + 1) as f64 || ylo > (h + 1) as f64 {
            return false;
        }
    }
    let x0 = ifloor(xlo).max(-1).min(w);
    let x1 = ifloor(xhi).max(-1).min(w);
    let y0 = ifloor(ylo).max(-1).min(h);
    let y1 = ifloor(yhi).max(-1).min(h);
    for y in y0..=y1 {
        for x in x0..=x1 {
            if !is_free(grid, x, y) && arc_cell_dist(arc, x, y) <= m {
                return false;
            }
        }
    }
    true
}

/// Whether the segment from `a` to `b`, swept by a disc of radius `radius`
/// (the segment's capsule), stays clear of the grid's obstacles.
///
/// Exact test: the segment is clear when every blocked cell's closed square,
/// and everything outside the map, is at a distance greater than `radius`
/// from the segment. Touching counts as blocked, so for `radius = 0` a
/// segment may not even graze a blocked corner, and for cell centres it
/// agrees exactly with [`Grid::line_of_sight`]. The verdict errs on the
/// blocked side by at most 1.5 · 10⁻⁷ cells (rounding allowance). A negative, NaN
/// or infinite radius, or non-finite end points, give `false`.
///
/// ```
/// use regionpath_grid::Grid;
/// use regionpath_smoothing::{segment_clear, Vec2};
///
/// let grid = Grid::from_rows(&["....", ".@..", "...."]).unwrap();
/// // Grazing the corner (2, 2) of the blocked cell (1, 1) counts as blocked.
/// assert!(!segment_clear(&grid, Vec2::new(0.5, 2.5), Vec2::new(3.5, 1.5), 0.0));
/// assert!(segment_clear(&grid, Vec2::new(0.5, 0.5), Vec2::new(3.5, 0.5), 0.0));
/// // A unit of radius 0.5 in a 1-wide row touches the row's neighbours.
/// assert!(!segment_clear(&grid, Vec2::new(0.5, 0.5), Vec2::new(3.5, 0.5), 0.5));
/// ```
pub fn segment_clear(grid: &Grid, a: Vec2, b: Vec2, radius: f32) -> bool {
    capsule_clear(grid, P::from_vec2(a), P::from_vec2(b), radius as f64)
}

/// Total Euclidean length of a polyline, summed in `f64`.
pub fn polyline_length(points: &[Vec2]) -> f64 {
    points
        .windows(2)
        .map(|w| P::from_vec2(w[0]).dist(P::from_vec2(w[1])))
        .sum()
}

/// Whether the segment `a`–`b` meets the closed square of cell `(x, y)`
/// (Liang–Barsky clipping; touching counts).
fn segment_meets_cell(a: P, b: P, x: i64, y: i64) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = b.sub(a);
    for (p, dp, lo, hi) in [
        (a.x, d.x, x as f64, x as f64 + 1.0),
        (a.y, d.y, y as f64, y as f64 + 1.0),
    ] {
        if dp == 0.0 {
            if p < lo || p > hi {
                return false;
            }
            continue;
        }
        let (mut ta, mut tb) = ((lo - p) / dp, (hi - p) / dp);
        if ta > tb {
            std::mem::swap(&mut ta, &mut tb);
        }
        t0 = t0.max(ta);
        t1 = t1.min(tb);
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// Exact distance (cells, `f64`) from the segment `a`–`b` to the closed
/// square `[x, x + 1] × [y, y + 1]` of cell `(x, y)`: 0 when they meet.
/// The distance [`segment_clear`] compares with the radius, offered so that
/// other crates can build clearance tables with the same rule. O(1).
pub fn segment_cell_distance(a: [f64; 2], b: [f64; 2], x: i64, y: i64) -> f64 {
    let (a, b) = (P::new(a[0], a[1]), P::new(b[0], b[1]));
    if segment_meets_cell(a, b, x, y) {
        return 0.0;
    }
    let (x0, y0) = (x as f64, y as f64);
    let mut best = point_cell_dist(a, x, y).min(point_cell_dist(b, x, y));
    for c in [
        P::new(x0, y0),
        P::new(x0 + 1.0, y0),
        P::new(x0, y0 + 1.0),
        P::new(x0 + 1.0, y0 + 1.0),
    ] {
        best = best.min(point_segment_dist(c, a, b));
    }
    best
}

/// An arc given by centre, radius, start angle and signed sweep (any
/// magnitude up to a full turn), cut into pieces of at most a quarter turn
/// in the form [`Arc`] takes (sweeps below π). Calls `f` per piece.
fn arc_pieces(center: P, radius: f64, start_angle: f64, sweep: f64, mut f: impl FnMut(&Arc)) {
    let n = ((sweep.abs() / std::f64::consts::FRAC_PI_2).ceil() as usize).max(1);
    let step = sweep / n as f64;
    let at = |ang: f64| P::new(center.x + radius * ang.cos(), center.y + radius * ang.sin());
    for i in 0..n {
        let a0 = start_angle + step * i as f64;
        let a1 = a0 + step;
        f(&Arc {
            center,
            radius,
            from: at(a0),
            to: at(a1),
            sign: if sweep >= 0.0 { 1.0 } else { -1.0 },
        });
    }
}

/// Exact distance (cells, `f64`) from a circular arc to the closed square of
/// cell `(x, y)`. The arc is the circle of `center` and `radius` from
/// `start_angle` (radians, `atan2(dy, dx)` of the start point seen from the
/// centre) through the signed `sweep` (|sweep| ≤ 2π; positive: angles
/// increasing). The rule [`segment_clear`] uses, for arcs: a unit of radius
/// `r` following the arc touches the cell iff this is at most `r`. Cost:
/// one wedge clipping per quarter turn.
pub fn arc_cell_distance(
    center: [f64; 2],
    radius: f64,
    start_angle: f64,
    sweep: f64,
    x: i64,
    y: i64,
) -> f64 {
    let mut best = f64::INFINITY;
    arc_pieces(
        P::new(center[0], center[1]),
        radius,
        start_angle,
        sweep,
        |arc| best = best.min(arc_cell_dist(arc, x, y)),
    );
    best
}

/// Whether the arc (as in [`arc_cell_distance`]; |sweep| ≤ 2π), swept by a
/// disc of radius `unit_radius`, stays clear of the grid's obstacles: every
/// blocked square and everything outside the map farther than the radius,
/// touching counts as blocked (the rule of [`segment_clear`], erring on the
/// blocked side by at most 1.5 · 10⁻⁷ cells). Non-finite or negative input
/// gives `false`. Cost: the cells of the arc's bounding box, widened by the
/// radius.
pub fn arc_clear_swept(
    grid: &Grid,
    center: Vec2,
    radius: f32,
    start_angle: f32,
    sweep: f32,
    unit_radius: f32,
) -> bool {
    if !(radius.is_finite()
        && radius >= 0.0
        && start_angle.is_finite()
        && sweep.is_finite()
        && sweep.abs() <= std::f32::consts::TAU + 1e-4
        && unit_radius.is_finite()
        && unit_radius >= 0.0)
    {
        return false;
    }
    let mut clear = true;
    arc_pieces(
        P::from_vec2(center),
        radius as f64,
        start_angle as f64,
        sweep as f64,
        |arc| clear = clear && arc_clear(grid, arc, unit_radius as f64),
    );
    clear
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent test: whether segment `a`-`b` meets the closed box
    /// `[x0, x1] × [y0, y1]` (Liang-Barsky clipping).
    fn meets_box(a: P, b: P, x0: f64, x1: f64, y0: f64, y1: f64) -> bool {
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, d, lo, hi) in [(a.x, b.x - a.x, x0, x1), (a.y, b.y - a.y, y0, y1)] {
            if d == 0.0 {
                if p < lo || p > hi {
                    return false;
                }
                continue;
            }
            let (ta, tb) = ((lo - p) / d, (hi - p) / d);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
        t0 <= t1
    }

    #[test]
    fn segment_clear_grown_matches_grown_squares() {
        let mut seed = 7u64;
        let mut unit = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut clear, mut blocked) = (0, 0);
        for _ in 0..20 {
            let (w, h) = (4 + (unit() * 40.0) as u32, 4 + (unit() * 40.0) as u32);
            let mut g = Grid::new(w, h, true).unwrap();
            for _ in 0..(w * h / 12) {
                let p = Point::new((unit() * w as f64) as u32, (unit() * h as f64) as u32);
                g.set_passable(p, false).unwrap();
            }
            for _ in 0..500 {
                let a = P::new(unit() * w as f64, unit() * h as f64);
                let len = unit() * 12.0;
                let ang = unit() * std::f64::consts::TAU;
                let b = P::new(a.x + len * ang.cos(), a.y + len * ang.sin());
                let grow = [0.0, 5e-4, 0.01, 0.3][(unit() * 4.0) as usize];
                // Every blocked or out-of-map square, grown by `grow`, and
                // a hair more or less: verdicts within the hair may differ.
                let hits = |e: f64| {
                    let e = grow + e;
                    (-1..=h as i64).any(|y| {
                        (-1..=w as i64).any(|x| {
                            let free = x >= 0
                                && y >= 0
                                && x < w as i64
                                && y < h as i64
                                && g.is_passable(Point::new(x as u32, y as u32));
                            !free
                                && meets_box(
                                    a,
                                    b,
                                    x as f64 - e,
                                    x as f64 + 1.0 + e,
                                    y as f64 - e,
                                    y as f64 + 1.0 + e,
                                )
                        })
                    }) || a.x.min(b.x) <= e
                        || a.y.min(b.y) <= e
                        || a.x.max(b.x) >= w as f64 - e
                        || a.y.max(b.y) >= h as f64 - e
                };
                let (surely, maybe) = (hits(-1e-6), hits(1e-6));
                if surely == maybe {
                    assert_eq!(
                        segment_clear_grown(&g, a, b, grow),
                        !surely,
                        "{a:?} {b:?} {grow}"
                    );
                    if surely {
                        blocked += 1;
                    } else {
                        clear += 1;
                    }
                }
            }
        }
        assert!(clear > 1000 && blocked > 1000, "{clear} {blocked}");
    }

    #[test]
    fn cells_visible_matches_line_of_sight() {
        let mut seed = 99u64;
        let mut rnd = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..20 {
            let (w, h) = (5 + rnd(30) as u32, 5 + rnd(30) as u32);
            let mut g = Grid::new(w, h, true).unwrap();
            for _ in 0..(w * h / 4) {
                let p = Point::new(rnd(w as u64) as u32, rnd(h as u64) as u32);
                g.set_passable(p, false).unwrap();
            }
            for _ in 0..500 {
                let a = Point::new(rnd(w as u64) as u32, rnd(h as u64) as u32);
                let b = Point::new(rnd(w as u64) as u32, rnd(h as u64) as u32);
                if g.is_passable(a) && g.is_passable(b) {
                    let los = g.line_of_sight(a, b);
                    assert_eq!(cells_visible(&g, a, b), los, "{a} {b}");
                    // String pulling relies on the walk being symmetric.
                    assert_eq!(cells_visible(&g, b, a), los, "{b} {a}");
                    let c = |p: Point| P::new(p.x as f64 + 0.5, p.y as f64 + 0.5);
                    assert_eq!(segment_rows(&g, c(a), c(b), EPS), los, "{a} {b}");
                    // A bounded walk that meets a blocked cell proves the
                    // pair hidden; an unbounded one is the full verdict.
                    if hidden_within::<4>(&g, a, b) {
                        assert!(!los, "{a} {b}");
                    }
                    assert_eq!(hidden_within::<{ usize::MAX }>(&g, a, b), !los, "{a} {b}");
                }
            }
        }
    }

    #[test]
    fn word_scans_match_cell_loops() {
        let mut seed = 17u64;
        let mut rnd = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..30 {
            let (w, h) = (1 + rnd(150) as u32, 1 + rnd(6) as u32);
            let mut g = Grid::new(w, h, true).unwrap();
            let density = 1 + rnd(40);
            for y in 0..h {
                for x in 0..w {
                    if rnd(100) < density {
                        g.set_passable(Point::new(x, y), false).unwrap();
                    }
                }
            }
            let total = g.stride() * (h as usize + 2);
            for _ in 0..400 {
                let lo = rnd(total as u64) as usize;
                let hi = (lo + rnd(200) as usize).min(total - 1);
                let blocked: Vec<usize> = (lo..=hi).filter(|&i| !g.passable_padded(i)).collect();
                let (first, last) = (blocked.first().copied(), blocked.last().copied());
                assert_eq!(first_blocked(&g, lo, hi), first, "{lo}..={hi}");
                assert_eq!(last_blocked(&g, lo, hi), last, "{lo}..={hi}");
                assert_eq!(blocked_ends(&g, lo, hi), first.zip(last), "{lo}..={hi}");
            }
        }
    }

    #[test]
    fn small_floor_and_ceil_match_std() {
        let mut seed = 3u64;
        let mut xs = vec![
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, 1e-7, -1e-7, 65535.999, 1e15,
        ];
        for _ in 0..100_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (seed >> 11) as f64 / (1u64 << 53) as f64;
            let x = (u - 0.5) * 2.0 * [1.0, 100.0, 70_000.0, 1e12][(seed & 3) as usize];
            xs.push(x);
            xs.push(x.round());
            xs.push(x.round() + 1e-7);
            xs.push(x.round() - 1e-7);
        }
        for x in xs {
            assert_eq!(floor_small(x), x.floor() as i64, "{x}");
            assert_eq!(ceil_small(x), x.ceil() as i64, "{x}");
            assert_eq!(floor_small(x), ifloor(x), "{x}");
            assert_eq!(ceil_small(x), iceil(x), "{x}");
        }
    }

    #[test]
    fn agrees_with_line_of_sight_on_hand_cases() {
        let g = Grid::from_rows(&["....", "@...", "...."]).unwrap();
        for (a, b) in [
            ((0, 0), (3, 1)),
            ((0, 0), (2, 1)),
            ((1, 2), (3, 0)),
            ((0, 2), (3, 0)),
        ] {
            let (pa, pb) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
            assert_eq!(
                segment_clear(&g, Vec2::cell_center(pa), Vec2::cell_center(pb), 0.0),
                g.line_of_sight(pa, pb),
                "{a:?} {b:?}"
            );
        }
    }

    #[test]
    fn capsule_touching_is_blocked() {
        let g = Grid::from_rows(&["....", "....", "....", "@@@@"]).unwrap();
        // Distance from y = 1.5 to the blocked row's top (y = 3) is 1.5.
        let a = P::new(0.5 + 1.0, 1.5);
        let b = P::new(2.5, 1.5);
        assert!(!capsule_clear(&g, a, b, 1.5));
        // Everything (the outline included) is exactly 1.5 away.
        assert!(capsule_clear(&g, a, b, 1.49));
        let g = Grid::from_rows(&["....", "....", "....", "....", "@@@@"]).unwrap();
        assert!(capsule_clear(&g, P::new(1.6, 1.6), P::new(2.4, 2.4), 1.2));
        assert!(!capsule_clear(&g, P::new(1.6, 1.6), P::new(2.4, 2.4), 1.6));
    }

    #[test]
    fn arc_distance_degenerate_clip() {
        // The square's edge lies on the wedge's boundary ray.
        let arc = Arc {
            center: P::new(10.0, 1.0),
            radius: 0.5,
            from: P::new(10.0, 0.5),
            to: P::new(10.5, 1.0),
            sign: 1.0,
        };
        assert!((arc_cell_dist(&arc, 9, -1) - 0.5).abs() < 1e-12);
        assert!((arc_cell_dist(&arc, 9, 1) - 0.5).abs() < 1e-12);
        assert!((arc_cell_dist(&arc, 10, -1) - 0.5).abs() < 1e-12);
        assert!(arc_cell_dist(&arc, 10, 0) < 1e-12);
    }

    #[test]
    fn arc_distance_matches_sampling() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..2000 {
            let center = P::new(rnd() * 10.0, rnd() * 10.0);
            let radius = 0.2 + rnd() * 4.0;
            let a0 = rnd() * std::f64::consts::TAU;
            let sweep = (rnd() - 0.5) * 2.0 * 3.0;
            let sign = sweep.signum();
            let at = |t: f64| {
                let ang = a0 + sweep * t;
                P::new(center.x + radius * ang.cos(), center.y + radius * ang.sin())
            };
            let arc = Arc {
                center,
                radius,
                from: at(0.0),
                to: at(1.0),
                sign,
            };
            let (cx, cy) = ((rnd() * 12.0) as i64 - 1, (rnd() * 12.0) as i64 - 1);
            let exact = arc_cell_dist(&arc, cx, cy);
            let mut sampled = f64::INFINITY;
            let n = 4000;
            for i in 0..=n {
                sampled = sampled.min(point_cell_dist(at(i as f64 / n as f64), cx, cy));
            }
            let step = radius * sweep.abs() / n as f64;
            assert!(exact <= sampled + 1e-9, "exact {exact} sampled {sampled}");
            assert!(exact >= sampled - step, "exact {exact} sampled {sampled}");
        }
    }
}
