//! Any-angle smoothing of cell paths.

use crate::geom::{
    blocked_ends, capsule_clear, ceil_small, cells_visible, floor_small, hidden_within,
    segment_clear_grown, EPS, P,
};
use crate::Vec2;
use regionpath_grid::{Grid, Point, SQRT2};
use thiserror::Error;

/// Options for [`Smoother::smooth`] and [`smooth`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothOptions {
    /// Radius of the unit in cells: `0` for a point, `0.5` for a unit as wide
    /// as a tile; larger radii work too. Must be finite and non-negative.
    pub radius: f32,
    /// Run the refinement pass that pulls waypoints onto obstacle corners
    /// (default `true`). Without it the result is greedy string pulling:
    /// waypoints at cell centres of the path, each as far along the path as
    /// the search for a visible cell reaches.
    pub refine: bool,
}

impl Default for SmoothOptions {
    fn default() -> Self {
        SmoothOptions {
            radius: 0.0,
            refine: true,
        }
    }
}

impl SmoothOptions {
    /// Default options for a unit of the given radius.
    pub fn with_radius(radius: f32) -> Self {
        SmoothOptions {
            radius,
            ..SmoothOptions::default()
        }
    }
}

/// What a smoothing run produced, besides the waypoints.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct SmoothReport {
    /// Output segments that are **not** clear for the unit's radius. These
    /// are steps of the input path between two adjacent cell centres, kept
    /// because no clear segment for a unit that wide exists there (the unit
    /// does not fit through the passage). Always `0` for radius `0`.
    pub narrow_segments: usize,
    /// Length of the input path: straight steps count 1, diagonal ones √2.
    pub input_length: f64,
    /// Length of the output polyline (never above `input_length`).
    pub output_length: f64,
}

/// Why a path cannot be smoothed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum SmoothError {
    /// The path has no cells.
    #[error("the path is empty")]
    EmptyPath,
    /// The unit radius is negative, NaN or infinite.
    #[error("unit radius {radius} is not a finite non-negative number")]
    InvalidRadius {
        /// The radius given.
        radius: f32,
    },
    /// [`Smoother::smooth_profiled`]: the unit's disc (radius `radius`) is
    /// wider than its `size × size` footprint (`radius > size / 2`), so no
    /// position of the profile holds it.
    #[error("unit radius {radius} does not fit a footprint of size {size} (at most {})", *size as f32 / 2.0)]
    RadiusExceedsSize {
        /// The radius given.
        radius: f32,
        /// The profile's unit size `k`.
        size: u32,
    },
    /// A path cell lies outside the grid.
    #[error("path cell {index} at {point} is outside the {width}x{height} grid")]
    OutOfBounds {
        /// Index in the path.
        index: usize,
        /// The cell.
        point: Point,
        /// Grid width.
        width: u32,
        /// Grid height.
        height: u32,
    },
    /// A path cell is blocked.
    #[error("path cell {index} at {point} is blocked")]
    BlockedCell {
        /// Index in the path.
        index: usize,
        /// The cell.
        point: Point,
    },
    /// Two consecutive cells are not neighbours (or are the same cell).
    #[error("path cells {} at {from} and {index} at {to} are not neighbours", index - 1)]
    NotAdjacent {
        /// Index of the second cell of the step.
        index: usize,
        /// The first cell of the step.
        from: Point,
        /// The second cell of the step.
        to: Point,
    },
    /// A diagonal step passes between two cells of which at least one is
    /// blocked (corner cutting).
    #[error("the diagonal step from {from} to path cell {index} at {to} cuts a blocked corner")]
    CornerCut {
        /// Index of the second cell of the step.
        index: usize,
        /// The first cell of the step.
        from: Point,
        /// The second cell of the step.
        to: Point,
    },
}

/// A waypoint under construction.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Position; always exactly representable in `f32`.
    p: P,
    /// The segment from this node to the next is a fallback input step that
    /// is not clear for the unit radius.
    narrow: bool,
}

/// One y level of blocked-square corners: the leftmost and rightmost corner
/// x on the line `y`.
#[derive(Clone, Copy, Debug)]
struct Level {
    y: f64,
    xmin: f64,
    xmax: f64,
}

/// Calls `f` with the corner levels of the blocked spans `spans` (as
/// [`Smoother::gather_lines`] records them: by increasing line, at most one
/// per line) by increasing `y`: a span `(k, lx, rx)` of line `k` has its
/// corners on the levels `y = k` and `y = k + 1`, and the level between two
/// spans of adjacent lines holds the corners of both.
#[inline(always)]
fn for_each_level(spans: &[(f64, f64, f64)], mut f: impl FnMut(Level)) {
    // The lower level of the previous span, not passed on yet.
    let mut pending: Option<Level> = None;
    for &(y, xmin, xmax) in spans {
        match pending {
            Some(l) if l.y == y => f(Level {
                y,
                xmin: l.xmin.min(xmin),
                xmax: l.xmax.max(xmax),
            }),
            Some(l) => {
                f(l);
                f(Level { y, xmin, xmax });
            }
            None => f(Level { y, xmin, xmax }),
        }
        pending = Some(Level {
            y: y + 1.0,
            xmin,
            xmax,
        });
    }
    if let Some(l) = pending {
        f(l);
    }
}

/// Reusable any-angle smoother. Keeps its scratch buffers between calls, so
/// once warm a call allocates nothing (beyond growing `out`).
///
/// The algorithm below is [`Smoother::smooth`]'s, for a unit that is a disc
/// on a plain grid; [`Smoother::smooth_profiled`] smooths paths found under
/// a movement profile, with the unit's square footprint and the profile's
/// costs (see there).
///
/// # Algorithm
///
/// 1. **String pulling.** From each anchor, a galloping then binary search
///    along the path finds a far path cell whose centre is visible (exact
///    swept-disc test for the unit radius); it becomes the next waypoint.
///    (Visibility along a path is not monotone, so this is the farthest the
///    search finds, not always the farthest there is.) For a point, a
///    straight run of path cells is visible without a walk; for wide units
///    a blocked neighbour of an end cell fails the test without a sweep.
/// 2. **Refinement** (when [`SmoothOptions::refine`] is set). One pass over
///    the waypoints: each waypoint `b`, between its already refined
///    predecessor `a` and its successor `c`, is replaced by the shortest path
///    from `a` to `c` that keeps every obstacle of the triangle `a b c` on the
///    same side as before: the convex chain wrapped around the obstacle
///    corners in the triangle (found by scanning the triangle's cells, taking
///    the convex hull of the blocked squares' corners and gift-wrapping it
///    from `a` to `c` with discs of the unit radius plus a tiny margin, a
///    thousandth of a cell on ordinary maps). Zero, one or several waypoints
///    may replace `b`, off cell centres and off the input's cells; the
///    replacement is kept only when the path gets shorter and every new
///    segment is clear: proven from the triangle's scan where it can be
///    (every blocked span of the scan lies beyond the radius along an axis
///    or the segment's normal), else by the exact clearance test (a
///    segment through a span's end square, known blocked, fails at once).
///    The result bends only at obstacle corners, as the shortest any-angle
///    path does. For a point unit the common case skips the scan: when the
///    chain is the one corner of `b`'s cell on the inside of the turn (a
///    blocked cell touches it, and the two new segments are clear: proven
///    by the old ones where they share their row or column of cells, as at
///    every bend of a one-cell corridor, else tested; this proves the
///    triangles between the old and new path empty), that corner is taken
///    directly. This also finds corners the scan misses (it merges the
///    blocked cells of a line into one span, gaps included). (Further
///    passes were measured to gain under 10⁻⁴ of length on benchmark maps,
///    so there are none.)
///
/// # Radius larger than the passages
///
/// A grid path is only guaranteed walkable by a point. Where not even the
/// step between two adjacent cell centres is clear for the radius, that step
/// is kept as it is (a *fallback* segment, counted in
/// [`SmoothReport::narrow_segments`]); every segment the smoother creates is
/// clear for the radius. Waypoints between two fallback segments are not
/// refined. Since touching counts as blocked, a unit of radius 0.5 does not
/// fit beside a wall, and shortest grid paths hug walls: for wide units,
/// plan on a grid with clearance (blocked cells grown by the radius) and
/// expect few fallback segments, or check `narrow_segments`.
#[derive(Clone, Debug, Default)]
pub struct Smoother {
    nodes: Vec<Node>,
    next: Vec<Node>,
    hull: Vec<P>,
    /// The blocked spans [`Smoother::gather_lines`] found, by increasing
    /// line, as `(line, first, last + 1)`: the span's squares cover
    /// `first..last + 1` along the line in its scan frame (for
    /// [`Smoother::hull_of_levels`] and [`proven_clear`]).
    spans: Vec<(f64, f64, f64)>,
    discs: Vec<(usize, P)>,
    chain: Vec<P>,
    /// Stacks of [`Smoother::hull_of_levels`] (left and right chain), in
    /// the scan frame.
    stack: Vec<(f64, f64)>,
    rstack: Vec<(f64, f64)>,
    transposed: bool,
    /// [`Smoother::pull`]'s per-path-cell cache of [`crowded_cell`].
    crowded: Vec<u8>,
    /// [`Smoother::smooth_profiled`]: the path's cost up to each position.
    pub(crate) prefix: Vec<f64>,
    /// [`Smoother::smooth_profiled`]: indices of the waypoints in the path,
    /// after pulling and after dropping.
    pub(crate) picks: Vec<usize>,
    pub(crate) kept: Vec<usize>,
    /// [`Smoother::smooth_profiled`]: the waypoints' positions.
    pub(crate) points: Vec<Point>,
}

impl Smoother {
    /// An empty smoother.
    pub fn new() -> Self {
        Self::default()
    }

    /// Smooths the cell path `cells` (consecutive cells must be neighbours
    /// under the 8-connected, no-corner-cutting rule) into waypoints written
    /// to `out` (cleared first). The first and last waypoints are exactly the
    /// centres of the first and last cells.
    pub fn smooth(
        &mut self,
        grid: &Grid,
        cells: &[Point],
        opts: &SmoothOptions,
        out: &mut Vec<Vec2>,
    ) -> Result<SmoothReport, SmoothError> {
        out.clear();
        if !(opts.radius.is_finite() && opts.radius >= 0.0) {
            return Err(SmoothError::InvalidRadius {
                radius: opts.radius,
            });
        }
        let input_length = validate(grid, cells)?;
        let r = opts.radius as f64;
        self.pull(grid, cells, r);
        if opts.refine && self.nodes.len() >= 3 {
            self.refine(grid, r);
        }
        let mut output_length = 0.0;
        let mut narrow_segments = 0;
        for (i, n) in self.nodes.iter().enumerate() {
            if i + 1 < self.nodes.len() {
                output_length += n.p.dist(self.nodes[i + 1].p);
                narrow_segments += n.narrow as usize;
            }
        }
        if output_length > input_length * (1.0 + 1e-12) + 1e-9 {
            // Unreachable (every change shortens the path by more than
            // rounding); guards the promise regardless.
            self.nodes.clear();
            narrow_segments = 0;
            for (i, c) in cells.iter().enumerate() {
                let p = P::from_vec2(Vec2::cell_center(*c));
                let narrow = i + 1 < cells.len()
                    && !capsule_clear(grid, p, P::from_vec2(Vec2::cell_center(cells[i + 1])), r);
                narrow_segments += narrow as usize;
                self.nodes.push(Node { p, narrow });
            }
        }
        // Rounding aside (a diagonal run sums √2 steps), never longer.
        let output_length = output_length.min(input_length);
        out.extend(self.nodes.iter().map(|n| n.p.to_vec2()));
        Ok(SmoothReport {
            narrow_segments,
            input_length,
            output_length,
        })
    }

    /// Greedy string pulling into `self.nodes`.
    #[inline(never)]
    fn pull(&mut self, grid: &Grid, cells: &[Point], r: f64) {
        self.nodes.clear();
        let mut crowded = std::mem::take(&mut self.crowded);
        crowded.clear();
        let mask = crowd_mask(r);
        if mask != 0 {
            crowded.resize(cells.len(), UNKNOWN);
        }
        let center = |i: usize| P::from_vec2(Vec2::cell_center(cells[i]));
        let mut visible =
            |i: usize, j: usize| visible_cells(grid, cells, r, mask, &mut crowded, i, j);
        let last = cells.len() - 1;
        let mut i = 0;
        self.nodes.push(Node {
            p: center(0),
            narrow: false,
        });
        while i < last {
            // Steps of a valid path are clear for a point.
            if r > 0.0 && !visible(i, i + 1) {
                if let Some(n) = self.nodes.last_mut() {
                    n.narrow = true;
                }
                i += 1;
                self.nodes.push(Node {
                    p: center(i),
                    narrow: false,
                });
                continue;
            }
            // A straight run of equal steps from i is visible for a point
            // (a row, column or diagonal of path cells, whose side cells
            // the no-corner-cutting rule keeps free): no walk needed.
            let run = if r == 0.0 {
                let d = |k: usize| {
                    (
                        cells[k + 1].x.wrapping_sub(cells[k].x),
                        cells[k + 1].y.wrapping_sub(cells[k].y),
                    )
                };
                let first = d(i);
                let mut e = i + 1;
                while e < last && d(e) == first {
                    e += 1;
                }
                e
            } else {
                i + 1
            };
            // The cell after the run first: where a few steps of the walk
            // from it show it hidden (a turn round a corner, as at every
            // bend of a corridor) the run's end is the waypoint, without a
            // search.
            if r == 0.0 && run < last && hidden_within::<4>(grid, cells[run + 1], cells[i]) {
                i = run;
                self.nodes.push(Node {
                    p: center(i),
                    narrow: false,
                });
                continue;
            }
            let mut visible = |i: usize, j: usize| j <= run || visible(i, j);
            // Gallop: lo is visible, hi (if any) is not.
            let mut lo = i + 1;
            let mut hi = None;
            let mut step = 1;
            while lo < last {
                let j = (i + 2 * step).min(last);
                if visible(i, j) {
                    lo = j;
                    step *= 2;
                } else {
                    hi = Some(j);
                    break;
                }
            }
            if let Some(mut hi) = hi {
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2;
                    if visible(i, mid) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
            }
            i = lo;
            self.nodes.push(Node {
                p: center(i),
                narrow: false,
            });
        }
        self.crowded = crowded;
    }

    /// The refinement pass (see the type's documentation): each waypoint in
    /// turn, with its already refined predecessor and its original successor.
    #[inline]
    fn refine(&mut self, grid: &Grid, r: f64) {
        let rp = r + clearance_margin(grid);
        let mut nodes = std::mem::take(&mut self.nodes);
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        next.push(nodes[0]);
        let n = nodes.len();
        // Length saved so far: merging near-duplicate waypoints may spend a
        // little of it, never more.
        let mut saved = 0.0;
        for i in 1..n - 1 {
            let b = nodes[i];
            let c = nodes[i + 1].p;
            let Some(&a) = next.last() else { break };
            // Inside a run of fallback steps the unit does not fit anywhere
            // near: not worth a triangle scan (which grows with the radius).
            if a.narrow && b.narrow {
                next.push(b);
                continue;
            }
            // For a point, the inner corner of b's cell first: when it
            // settles the triangle, no scan is needed (and none is left to
            // prove segments clear with).
            let quick = if r == 0.0 {
                self.corner_shortcut(grid, a.p, b.p, c, rp)
            } else {
                None
            };
            let scanned = quick.is_none();
            let Some(gain) = quick.or_else(|| self.tighten(grid, a.p, b.p, c, r, rp)) else {
                next.push(b);
                continue;
            };
            saved += gain;
            if let Some(last) = next.last_mut() {
                last.narrow = false;
            }
            // Segments inside this triangle can be proven clear by its scan.
            let delta = 0.5 * (rp - r);
            let (spans, t) = (&self.spans, self.transposed);
            let prove = |u: P, w: P| {
                let tri = Triangle::new(a.p, b.p, c);
                scanned
                    && tri.near(u, delta)
                    && tri.near(w, delta)
                    && proven_clear(spans, t, u, w, r)
            };
            for k in 0..self.chain.len() {
                let v2 = self.chain[k];
                let after = self.chain.get(k + 1).copied().unwrap_or(c);
                let m = next.len();
                // Never move the start (index 0).
                if m >= 2 && next[m - 1].p.dist(v2) < MERGE {
                    let (prev, v1) = (next[m - 2].p, next[m - 1].p);
                    if let Some((v, cost)) = merge(grid, prev, v1, v2, after, r, saved, &prove) {
                        saved -= cost;
                        next[m - 2].narrow = false;
                        next[m - 1].p = v;
                        continue;
                    }
                }
                next.push(Node {
                    p: v2,
                    narrow: false,
                });
            }
        }
        next.push(nodes[n - 1]);
        // The result copied back rather than the buffers swapped: each
        // keeps its role, so each grows only to the sizes it has held and
        // a warm repeat of a query allocates nothing (swapped, the
        // buffer that held the shorter input could receive the longer
        // output the next time).
        nodes.clear();
        nodes.extend_from_slice(&next);
        self.nodes = nodes;
        self.next = next;
    }

    /// The refinement of a point unit's waypoint `b` (a cell centre) between
    /// `a` and `c` in its most common case, without a triangle scan: the
    /// path bends round the corner `v` of `b`'s cell on the inside of the
    /// turn, which a blocked cell touches. Gives the chain of one vertex `w`
    /// (the one [`Smoother::wrap`] would put at a disc of radius `rp` on
    /// `v`) and the length saved when `w` lies strictly inside both the
    /// triangle `a b c` and `b`'s cell and the segments `a`–`w` and `w`–`c`
    /// are clear; `None` (for the full [`Smoother::tighten`]) otherwise.
    /// `b`–`c` must be a segment of the pulled path and `a`–`b` one of the
    /// path so far (both clear for a point).
    ///
    /// The new segments are proven clear without reading the grid where
    /// they can be: `w`–`c` stays in the open row (column) strip of `b`–`c`
    /// when that runs along it, and `a`–`w` in that of `a`–`b` when `a` lies
    /// in `b`'s row (column), off its cell's edges; each then meets exactly
    /// the cells the old segment meets (every bend of a one-cell corridor).
    /// Otherwise they are tested, and must keep half the margin `rp` from
    /// every blocked square ([`segment_clear_grown`]; they pass at `rp` from
    /// `v`'s): one passing closer to another corner would pin the next
    /// waypoint there, where the scan would have wrapped that corner too.
    ///
    /// The chain is then the one the scan would find: no blocked square
    /// meets the triangles `a b w` and `b c w` (one meeting a triangle but
    /// none of its edges would lie inside it, and neither triangle is a cell
    /// wide: the height over `a b`, resp. `b c`, is below `|b w| < 0.71`),
    /// so every obstacle of the triangle `a b c` lies in the triangle
    /// `a w c`, and the one at `v` pins the taut chain there.
    #[inline]
    fn corner_shortcut(&mut self, grid: &Grid, a: P, b: P, c: P, rp: f64) -> Option<f64> {
        let (bx, by) = (floor_small(b.x), floor_small(b.y));
        // a strictly inside the strip of row (column) `cell` across, and
        // off the cell edges along it.
        let in_strip = |along: f64, across: f64, cell: i64| {
            let k = floor_small(across);
            let g = across - k as f64;
            let f = along - floor_small(along) as f64;
            k == cell && g > EPS && g < 1.0 - EPS && f > EPS && f < 1.0 - EPS
        };
        if b.x != bx as f64 + 0.5 || b.y != by as f64 + 0.5 {
            return None;
        }
        let w_c = b.x == c.x || b.y == c.y;
        let a_w = in_strip(a.x, a.y, by) || in_strip(a.y, a.x, bx);
        let ac = c.sub(a);
        let ab = b.sub(a);
        let side = ac.cross(ab);
        if side.abs() <= 1e-9 * ac.len() * ab.len() {
            return None;
        }
        let s = side.signum();
        // The inside of the turn at b: along the bisector of b->a and b->c.
        let u = a.sub(b).unit()?.add(c.sub(b).unit()?);
        if u.x.abs() < 1e-6 || u.y.abs() < 1e-6 {
            return None;
        }
        let (sx, sy) = (u.x.signum() as i64, u.y.signum() as i64);
        // b's three neighbours at that corner (b, a path cell, lies in the
        // map, so they lie in the padded array).
        if !(0..grid.width() as i64).contains(&bx) || !(0..grid.height() as i64).contains(&by) {
            return None;
        }
        let idx = grid.padded_index(Point::new(bx as u32, by as u32)) as i64;
        let dy = sy * grid.stride() as i64;
        let free = |d: i64| grid.passable_padded((idx + d) as usize);
        if free(sx) && free(dy) && free(sx + dy) {
            return None;
        }
        let v = P::new((bx + (sx > 0) as i64) as f64, (by + (sy > 0) as i64) as f64);
        // The tangents from a to the disc and from the disc to c, as
        // `Smoother::wrap` takes them.
        let near = rp * (1.0 + 1e-9);
        let to_v = v.sub(a);
        let dv = to_v.len();
        let to_c = c.sub(v);
        let dc = to_c.len();
        if dv <= near || dc <= near {
            return None;
        }
        let d_in = rotate(to_v.scale(1.0 / dv), s, rp / dv);
        let d_out = rotate(to_c.scale(1.0 / dc), -s, rp / dc);
        let n_in = d_in.perp().scale(s);
        let n_out = d_out.perp().scale(s);
        let den = 1.0 + n_in.dot(n_out);
        if den < 0.05 {
            return None;
        }
        let w = v.add(n_in.add(n_out).scale(rp / den)).rounded();
        // Strictly inside b's cell and the triangle.
        if !((w.x - b.x).abs() < 0.5 - EPS && (w.y - b.y).abs() < 0.5 - EPS) {
            return None;
        }
        let bc = c.sub(b);
        let eps = 1e-9 * (ac.len() + ab.len());
        if s * ab.cross(w.sub(a)) > -eps
            || s * bc.cross(w.sub(b)) > -eps
            || s * ac.cross(w.sub(a)) < eps
        {
            return None;
        }
        let gain = a.dist(b) + b.dist(c) - (a.dist(w) + w.dist(c));
        let g = 0.5 * rp;
        if gain <= 1e-9
            || !(w_c || segment_clear_grown(grid, w, c, g))
            || !(a_w || segment_clear_grown(grid, a, w, g))
        {
            return None;
        }
        self.chain.clear();
        self.chain.push(w);
        Some(gain)
    }

    /// Tries to replace waypoint `b` between `a` and `c` by the taut chain
    /// around the obstacles of triangle `a b c`. On success the new interior
    /// waypoints are in `self.chain` (possibly none) and the length saved is
    /// returned.
    #[inline]
    fn tighten(&mut self, grid: &Grid, a: P, b: P, c: P, r: f64, rp: f64) -> Option<f64> {
        self.chain.clear();
        let old = a.dist(b) + b.dist(c);
        let ac = c.sub(a);
        let side = ac.cross(b.sub(a));
        let scale = ac.len() * a.dist(b);
        if side.abs() <= 1e-12 * scale.max(1e-300) {
            // Collinear: b lies on a–c (drop it) or the path doubles back.
            let ok = ac.dot(b.sub(a)) > 0.0
                && ac.dot(c.sub(b)) > 0.0
                && a.dist(c) < old - 1e-9
                && capsule_clear(grid, a, c, r);
            return ok.then(|| old - a.dist(c));
        }
        let s = side.signum();
        // Only discs reaching b's side of a–c can bend the chain.
        let reach = -(rp + 1e-9) * ac.len();
        self.gather(grid, a, b, c, rp, |k| s * ac.cross(k.sub(a)) > reach);
        if !self.wrap(a, b, c, rp, s) {
            return None;
        }
        // Measure, then validate, with the f32-rounded positions.
        let mut prev = a;
        let mut len = 0.0;
        for &q in self.chain.iter().chain(std::iter::once(&c)) {
            len += prev.dist(q);
            prev = q;
        }
        if len >= old - 1e-9 {
            return None;
        }
        // Chain vertices within the triangle grown by half the margin: their
        // segments' capsules lie in the scanned region.
        let inside = self.chain.is_empty() || {
            let tri = Triangle::new(a, b, c);
            let delta = 0.5 * (rp - r);
            self.chain.iter().all(|&v| tri.near(v, delta))
        };
        let mut prev = a;
        for &q in self.chain.iter().chain(std::iter::once(&c)) {
            let proven = inside && proven_clear(&self.spans, self.transposed, prev, q, r);
            if !proven
                && (hits_span_end(&self.spans, self.transposed, prev, q, r)
                    || !capsule_clear(grid, prev, q, r))
            {
                return None;
            }
            prev = q;
        }
        Some(old - len)
    }

    /// Collects into `self.hull` the vertices of the convex hull of the
    /// corners of all blocked (and out-of-map) squares within `rp` of the
    /// triangle `a b c` (a few more near its corners: the test is per line of
    /// cells, on a box around the triangle's extent along that line), those
    /// that `keep` accepts only.
    #[inline]
    fn gather(&mut self, grid: &Grid, a: P, b: P, c: P, rp: f64, keep: impl Fn(P) -> bool) {
        let xext = a.x.max(b.x).max(c.x) - a.x.min(b.x).min(c.x);
        let yext = a.y.max(b.y).max(c.y) - a.y.min(b.y).min(c.y);
        // Scan along the longer axis: fewer, longer lines.
        if yext <= xext {
            self.gather_lines::<false>(grid, [a, b, c], rp);
        } else {
            let t = |p: P| P::new(p.y, p.x);
            self.gather_lines::<true>(grid, [t(a), t(b), t(c)], rp);
        }
        self.hull_of_levels(keep);
    }

    /// The scan behind [`Smoother::gather`], in a frame where lines of cells
    /// run along `x`: the grid's rows, or its columns when `T` (the triangle
    /// then comes with its coordinates swapped, and
    /// [`Smoother::hull_of_levels`] swaps them back). For each line of cells
    /// meeting the expanded triangle, finds the first and last blocked cell
    /// from either end (the hull of a line's blocked squares is the
    /// rectangle between those two) and records them in `self.spans`, whose
    /// corners [`for_each_level`] gives. Rows are read
    /// 64 cells a word, columns cell by cell (their blocked cells are
    /// usually near the ends).
    #[inline(never)]
    fn gather_lines<const T: bool>(&mut self, grid: &Grid, tri: [P; 3], rp: f64) {
        self.spans.clear();
        self.transposed = T;
        let (w, h) = if T {
            (grid.height() as i64, grid.width() as i64)
        } else {
            (grid.width() as i64, grid.height() as i64)
        };
        let stride = grid.stride() as i64;
        // The vertices by y (top t, middle m, bottom b): the triangle's x
        // extent over a band of y is found at the band's clipped ends on the
        // long edge t–b and on the chain t–m–b, and at m when inside.
        let mut v = tri;
        if v[1].y < v[0].y {
            v.swap(0, 1);
        }
        if v[2].y < v[1].y {
            v.swap(1, 2);
        }
        if v[1].y < v[0].y {
            v.swap(0, 1);
        }
        let [t, m, bot] = v;
        let slope = |p: P, q: P| {
            if q.y != p.y {
                (q.x - p.x) / (q.y - p.y)
            } else {
                0.0
            }
        };
        let (s_tb, s_tm, s_mb) = (slope(t, bot), slope(t, m), slope(m, bot));
        let chain_x = |y: f64| {
            if y <= m.y {
                t.x + (y - t.y) * s_tm
            } else {
                m.x + (y - m.y) * s_mb
            }
        };
        let k0 = (ceil_small(t.y - rp - EPS) - 1).max(-1);
        let k1 = floor_small(bot.y + rp + EPS).min(h);
        for k in k0..=k1 {
            let ya = fmax(k as f64 - rp, t.y);
            let yb = fmin((k + 1) as f64 + rp, bot.y);
            if ya > yb {
                continue;
            }
            let (l0, l1) = (t.x + (ya - t.y) * s_tb, t.x + (yb - t.y) * s_tb);
            // Bands wholly above or below m meet one edge of the chain t–m–b.
            let (c0, c1, with_m) = if yb <= m.y {
                (t.x + (ya - t.y) * s_tm, t.x + (yb - t.y) * s_tm, yb == m.y)
            } else if ya > m.y {
                (m.x + (ya - m.y) * s_mb, m.x + (yb - m.y) * s_mb, false)
            } else {
                (chain_x(ya), chain_x(yb), true)
            };
            let mut xl = fmin(fmin(l0, l1), fmin(c0, c1));
            let mut xr = fmax(fmax(l0, l1), fmax(c0, c1));
            if with_m {
                xl = fmin(xl, m.x);
                xr = fmax(xr, m.x);
            }
            let x0 = (ceil_small(xl - rp - EPS) - 1).max(-1);
            let x1 = floor_small(xr + rp + EPS).min(w);
            if x0 > x1 {
                continue;
            }
            if T {
                // Column k: padded index of cell (k, x) is (x + 1) * stride + k + 1.
                let base = k + 1 + stride;
                let (first, last) = (base + x0 * stride, base + x1 * stride);
                let mut lo = first;
                while lo <= last && grid.passable_padded(lo as usize) {
                    lo += stride;
                }
                if lo > last {
                    continue;
                }
                let mut hi = last;
                while hi > lo && grid.passable_padded(hi as usize) {
                    hi -= stride;
                }
                self.push_span(k, (lo - base) / stride, (hi - base) / stride);
                continue;
            }
            // Padded index of cell (0, k) is base.
            let base = (k + 1) * stride + 1;
            let lo = (base + x0) as usize;
            let hi = (base + x1) as usize;
            let Some((left, right)) = blocked_ends(grid, lo, hi) else {
                continue;
            };
            self.push_span(k, left as i64 - base, right as i64 - base);
        }
    }

    /// Records the blocked squares `xl..=xr` of line `k` (scan frame) in
    /// `self.spans`.
    #[inline]
    fn push_span(&mut self, k: i64, xl: i64, xr: i64) {
        self.spans.push((k as f64, xl as f64, (xr + 1) as f64));
    }

    /// The convex hull of the level corners ([`for_each_level`] of
    /// `self.spans`) into `self.hull`, in grid coordinates. The levels come
    /// sorted by `y` in the scan frame, so the hull is the convex chain of
    /// the left ends (top to bottom) followed by that of the right ends
    /// (bottom to top), each a monotone-chain stack keeping strict turns
    /// only (both built in one pass over the levels). Vertices that `keep` rejects are left
    /// out. The vertex order does not matter to [`Smoother::wrap`].
    #[inline]
    fn hull_of_levels(&mut self, keep: impl Fn(P) -> bool) {
        self.hull.clear();
        let spans = &self.spans[..];
        let t = self.transposed;
        let pt = |x: f64, y: f64| if t { P::new(y, x) } else { P::new(x, y) };
        if spans.is_empty() {
            return;
        }
        if let [(y, x0, x1)] = *spans {
            // One line of blocked squares (half the calls): its rectangle
            // (levels y and y + 1), in the order the general pass gives.
            for v in [pt(x0, y), pt(x0, y + 1.0), pt(x1, y + 1.0), pt(x1, y)] {
                if keep(v) {
                    self.hull.push(v);
                }
            }
            return;
        }
        // Sign of the turn o -> p -> q in the scan frame.
        let turn = |o: (f64, f64), p: (f64, f64), q: (f64, f64)| {
            (p.0 - o.0) * (q.1 - o.1) - (p.1 - o.1) * (q.0 - o.0)
        };
        // Left chain (bulging towards -x: turns negative) and right chain
        // (turns positive), as (x, y) pairs of the scan frame, built in
        // one pass over the levels.
        let mut st = std::mem::take(&mut self.stack);
        let mut rst = std::mem::take(&mut self.rstack);
        st.clear();
        rst.clear();
        for_each_level(spans, |l| {
            let q = (l.xmin, l.y);
            while st.len() >= 2 && turn(st[st.len() - 2], st[st.len() - 1], q) >= 0.0 {
                st.pop();
            }
            st.push(q);
            let q = (l.xmax, l.y);
            while rst.len() >= 2 && turn(rst[rst.len() - 2], rst[rst.len() - 1], q) <= 0.0 {
                rst.pop();
            }
            rst.push(q);
        });
        let left = st.len();
        let (lchain, rchain) = (&st[..], &rst[..]);
        self.hull
            .extend(lchain.iter().map(|&(x, y)| pt(x, y)).filter(|&v| keep(v)));
        // The right chain bottom to top, without the end points the two
        // chains share (a level whose two ends coincide).
        let n = rchain.len();
        for (i, &(x, y)) in rchain.iter().enumerate().rev() {
            let shared =
                (i == n - 1 && (x, y) == lchain[left - 1]) || (i == 0 && (x, y) == lchain[0]);
            if !shared && keep(pt(x, y)) {
                self.hull.push(pt(x, y));
            }
        }
        self.stack = st;
        self.rstack = rst;
    }

    /// Gift wrapping from `a` to `c` around the discs of radius `rp` centred
    /// on `self.hull`, keeping them on the side opposite to `b` (`s` is the
    /// sign of that side: `cross(c - a, b - a)`). Writes the waypoints
    /// (intersections of consecutive tangent lines, rounded to `f32`) to
    /// `self.chain`. Returns `false` when no chain is found.
    #[inline]
    fn wrap(&mut self, a: P, b: P, c: P, rp: f64, s: f64) -> bool {
        const TOL: f64 = 1e-12;
        let Some(mut dir) = b.sub(a).unit() else {
            return false;
        };
        self.discs.clear();
        // Current element: None = the point a, Some(i) = disc i.
        let mut cur: Option<usize> = None;
        let mut cur_p = a;
        let near = rp * (1.0 + 1e-9);
        for _ in 0..=self.hull.len() {
            // Best (direction, target, distance); target None = c.
            let mut best: Option<(P, Option<usize>, f64)> = None;
            let mut consider = |d: P, target: Option<usize>, dist: f64| {
                let ahead = -s * dir.cross(d);
                if ahead < -TOL || (ahead <= TOL && dir.dot(d) <= 0.0) {
                    return;
                }
                match best {
                    None => best = Some((d, target, dist)),
                    Some((bd, btarget, bdist)) => {
                        // Earlier in the sweep wins; on a tie (collinear
                        // support lines) the end point, else the farther
                        // disc, which skips the nearer one's vertex.
                        let t = -s * d.cross(bd);
                        let tie_wins = target.is_none() || (btarget.is_some() && dist > bdist);
                        if t > TOL || (t >= -TOL && tie_wins) {
                            best = Some((d, target, dist));
                        }
                    }
                }
            };
            // The end point.
            let to_c = c.sub(cur_p);
            let dc = to_c.len();
            match cur {
                None => {
                    if let Some(u) = to_c.unit() {
                        consider(u, None, dc);
                    }
                }
                Some(_) => {
                    if dc > near {
                        consider(rotate(to_c.scale(1.0 / dc), -s, rp / dc), None, dc);
                    }
                }
            }
            for (j, &k) in self.hull.iter().enumerate() {
                if Some(j) == cur {
                    continue;
                }
                let v = k.sub(cur_p);
                let dist = v.len();
                match cur {
                    None => {
                        if dist > near {
                            consider(rotate(v.scale(1.0 / dist), s, rp / dist), Some(j), dist);
                        }
                    }
                    Some(_) => {
                        if dist > 1e-9 {
                            consider(v.scale(1.0 / dist), Some(j), dist);
                        }
                    }
                }
            }
            let Some((d, target, _)) = best else {
                return false;
            };
            match target {
                None => {
                    self.discs.push((usize::MAX, d));
                    break;
                }
                Some(j) => {
                    self.discs.push((j, d));
                    cur = Some(j);
                    cur_p = self.hull[j];
                    dir = d;
                }
            }
        }
        // discs[i] = (disc index, direction of the support line leaving the
        // previous element); the last entry is the line into c.
        if self.discs.last().map(|d| d.0) != Some(usize::MAX) {
            return false;
        }
        self.chain.clear();
        for w in self.discs.windows(2) {
            let (j, d_in) = w[0];
            let (_, d_out) = w[1];
            let n_in = d_in.perp().scale(s);
            let n_out = d_out.perp().scale(s);
            let den = 1.0 + n_in.dot(n_out);
            if den < 0.05 {
                return false;
            }
            let v = self.hull[j].add(n_in.add(n_out).scale(rp / den)).rounded();
            if self.chain.last() != Some(&v) {
                self.chain.push(v);
            }
        }
        true
    }
}

/// A triangle with what [`Triangle::near`] needs.
#[derive(Clone, Copy, Debug)]
struct Triangle {
    /// Vertices and, per edge from vertex `i` to `i + 1`, the edge vector
    /// scaled so that the cross product with `p - v[i]` is positive inside,
    /// and its length.
    v: [P; 3],
    e: [P; 3],
    len: [f64; 3],
}

impl Triangle {
    #[inline]
    fn new(a: P, b: P, c: P) -> Triangle {
        let o = c.sub(a).cross(b.sub(a)).signum();
        let e = [b.sub(a).scale(-o), c.sub(b).scale(-o), a.sub(c).scale(-o)];
        Triangle {
            v: [a, b, c],
            e,
            len: [e[0].len(), e[1].len(), e[2].len()],
        }
    }

    /// Whether `p` lies in the triangle grown by `delta` (within rounding:
    /// only used with a margin to spare).
    #[inline]
    fn near(&self, p: P, delta: f64) -> bool {
        (0..3).all(|i| self.e[i].cross(p.sub(self.v[i])) >= -delta * self.len[i])
    }
}

/// Slack (cells) by which [`proven_clear`] keeps every blocked square
/// beyond the radius: far above the clearance tests' own margin and
/// rounding.
const PROOF_SLACK: f64 = 1e-5;

/// `p` and `q` in a scan's frame: coordinates swapped when the scan ran
/// along columns (`t`).
#[inline]
fn scan_frame(t: bool, p: P, q: P) -> (P, P) {
    if t {
        (P::new(p.y, p.x), P::new(q.y, q.x))
    } else {
        (p, q)
    }
}

/// Whether the segment `p`–`q` of a chain found by [`Smoother::wrap`] is
/// clear for radius `r` by the scan already made, without reading the grid
/// again: every blocked span of the scan (the rectangle from its first to
/// its last blocked square, in the scan frame, transposed when `t`) lies
/// more than `r` plus [`PROOF_SLACK`] from the segment along the `x` axis,
/// the `y` axis or the segment's normal (any direction along which two
/// convex sets are that far apart proves they are). The caller checks that
/// the segment lies in the scanned triangle grown by less than the
/// clearance margin, so every square its capsule touches was scanned and
/// lies in a span. `false` means "not proven", not "blocked".
#[inline]
fn proven_clear(spans: &[(f64, f64, f64)], t: bool, p: P, q: P, r: f64) -> bool {
    let (p, q) = scan_frame(t, p, q);
    let gap = r + PROOF_SLACK;
    let (xlo, xhi) = (fmin(p.x, q.x), fmax(p.x, q.x));
    let (ylo, yhi) = (fmin(p.y, q.y), fmax(p.y, q.y));
    let n = q.sub(p).perp();
    let np = n.dot(p);
    let ngap = gap * n.len();
    spans.iter().all(|&(k, x0, x1)| {
        if xlo - x1 > gap || x0 - xhi > gap || ylo - (k + 1.0) > gap || k - yhi > gap {
            return true;
        }
        // The rectangle's corners along the normal, all on one side.
        let (a, b) = (n.x * x0, n.x * x1);
        let (c, d) = (n.y * k, n.y * (k + 1.0));
        let lo = fmin(a, b) + fmin(c, d);
        let hi = fmax(a, b) + fmax(c, d);
        lo - np > ngap || np - hi > ngap
    })
}

/// [`Smoother::pull`]'s test: whether the centres of path cells `i` and `j`
/// see each other for radius `r` (inlined: the walks are a few cells long,
/// so a call would cost about as much as the walk). `mask` is
/// [`crowd_mask`]`(r)` and `crowded` caches [`crowded_cell`] per path cell
/// (empty when `mask` is 0).
#[inline(always)]
fn visible_cells(
    grid: &Grid,
    cells: &[Point],
    r: f64,
    mask: u32,
    crowded: &mut [u8],
    i: usize,
    j: usize,
) -> bool {
    if r == 0.0 {
        // Walked from the far end, where a blocker usually is (same
        // verdict: the test is symmetric).
        cells_visible(grid, cells[j], cells[i])
    } else {
        if mask != 0
            && (crowded_cell(grid, cells, mask, crowded, i)
                || crowded_cell(grid, cells, mask, crowded, j))
        {
            return false;
        }
        let center = |p: Point| P::from_vec2(Vec2::cell_center(p));
        capsule_clear(grid, center(cells[i]), center(cells[j]), r)
    }
}

/// [`crowded_cell`]'s cache entry for a cell not looked at yet.
const UNKNOWN: u8 = 0;
/// [`crowded_cell`]'s cache entry for a cell without blocked neighbours
/// under the mask.
const ROOMY: u8 = 1;
/// [`crowded_cell`]'s cache entry for a cell with a blocked neighbour under
/// the mask.
const CROWDED: u8 = 2;

/// The neighbours of a cell centre that a disc of radius `r` there reaches:
/// none below `r = 0.5`, the four edge neighbours (0.5 away) from there, all
/// eight (the diagonal ones 0.707 away) from `r = √½` on. A blocked one of
/// them settles a clearance test from that centre (touching counts) without
/// the sweep. As [`Grid::neighborhood_padded`] bits.
#[inline]
fn crowd_mask(r: f64) -> u32 {
    if r > std::f64::consts::FRAC_1_SQRT_2 + 1e-9 {
        NEIGHBOURS
    } else if r >= 0.5 {
        EDGE_NEIGHBOURS
    } else {
        0
    }
}

/// Whether path cell `k` has a blocked neighbour under `mask` (so no segment
/// from its centre is clear for the radius behind the mask), computed once
/// per cell and kept in `cache` (one entry per path cell).
#[inline]
fn crowded_cell(grid: &Grid, cells: &[Point], mask: u32, cache: &mut [u8], k: usize) -> bool {
    let known = cache[k];
    if known != UNKNOWN {
        return known == CROWDED;
    }
    let crowded = !grid.neighborhood_padded(grid.padded_index(cells[k])) & mask != 0;
    cache[k] = if crowded { CROWDED } else { ROOMY };
    crowded
}

/// [`Grid::neighborhood_padded`] bits of a cell's four edge neighbours.
const EDGE_NEIGHBOURS: u32 = 0b010_101_010;
/// [`Grid::neighborhood_padded`] bits of a cell's eight neighbours.
const NEIGHBOURS: u32 = 0b111_101_111;

/// Whether the segment `p`–`q` certainly passes within `r` of a square the
/// scan found blocked (the first or last of a span; frame as in
/// [`proven_clear`]), so that [`capsule_clear`] would reject it: it meets
/// the square grown by `(r - 1e-9) / √2` along both axes (shrunk, for
/// `r = 0`), whose points all lie within `r - 1e-9` of the square.
#[inline]
fn hits_span_end(spans: &[(f64, f64, f64)], t: bool, p: P, q: P, r: f64) -> bool {
    let (p, q) = scan_frame(t, p, q);
    let g = (r - 1e-9) * std::f64::consts::FRAC_1_SQRT_2;
    let (xlo, xhi) = (fmin(p.x, q.x), fmax(p.x, q.x));
    let (ylo, yhi) = (fmin(p.y, q.y), fmax(p.y, q.y));
    let n = q.sub(p).perp();
    let np = n.dot(p);
    let meets = |x0: f64, k: f64| {
        let (x1, y0, y1) = (x0 + 1.0 + g, k - g, k + 1.0 + g);
        let x0 = x0 - g;
        if xhi < x0 || xlo > x1 || yhi < y0 || ylo > y1 {
            return false;
        }
        let (a, b) = (n.x * x0, n.x * x1);
        let (c, d) = (n.y * y0, n.y * y1);
        fmin(a, b) + fmin(c, d) <= np && np <= fmax(a, b) + fmax(c, d)
    };
    spans
        .iter()
        .any(|&(k, x0, x1)| meets(x0, k) || meets(x1 - 1.0, k))
}

/// The smaller of two numbers (no NaN handling: NaN-free inputs only).
#[inline]
fn fmin(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// The larger of two numbers (no NaN handling: NaN-free inputs only).
#[inline]
fn fmax(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Consecutive waypoints closer than this (cells) are merged into one.
const MERGE: f64 = 0.01;

/// One waypoint to replace the nearly coincident `v1`, `v2` between `prev`
/// and `after`: the intersection of the lines `prev`–`v1` and `v2`–`after`,
/// else `v1`, else `v2`; the first whose two segments are clear and whose
/// extra length is at most `budget` (`proven` may vouch for a segment
/// without the grid test). Returns it with its extra length.
#[allow(clippy::too_many_arguments)]
fn merge(
    grid: &Grid,
    prev: P,
    v1: P,
    v2: P,
    after: P,
    r: f64,
    budget: f64,
    proven: &impl Fn(P, P) -> bool,
) -> Option<(P, f64)> {
    let old = prev.dist(v1) + v1.dist(v2) + v2.dist(after);
    let d1 = v1.sub(prev);
    let d2 = after.sub(v2);
    let den = d1.cross(d2);
    let mut meet = None;
    if den.abs() > 1e-9 * d1.len() * d2.len() {
        let v = prev.add(d1.scale(v2.sub(prev).cross(d2) / den)).rounded();
        if v.dist(v1) < 4.0 * MERGE {
            meet = Some(v);
        }
    }
    [meet, Some(v1), Some(v2)]
        .into_iter()
        .flatten()
        .find_map(|v| {
            let cost = prev.dist(v) + v.dist(after) - old;
            let clear = |u: P, w: P| proven(u, w) || capsule_clear(grid, u, w, r);
            (cost <= budget && clear(prev, v) && clear(v, after)).then_some((v, cost.max(0.0)))
        })
}

/// `u` (a unit vector) rotated by the angle whose sine is `sin` (at most 1),
/// towards the positive-cross side when `sign > 0`.
#[inline]
fn rotate(u: P, sign: f64, sin: f64) -> P {
    let sin = sin.min(1.0) * sign;
    let cos = (1.0 - sin * sin).max(0.0).sqrt();
    P::new(u.x * cos - u.y * sin, u.x * sin + u.y * cos)
}

/// Extra clearance (cells) the refinement keeps from obstacle corners on top
/// of the unit radius, so that waypoints rounded to `f32` stay strictly
/// clear: a thousandth of a cell, or 8 `f32` ulps of the largest coordinate
/// on very large maps.
fn clearance_margin(grid: &Grid) -> f64 {
    let m = grid.width().max(grid.height()).max(1) as f32;
    let ulp = f32::from_bits(m.to_bits() + 1) - m;
    (8.0 * ulp as f64).max(1e-3)
}

/// Checks the path and returns its length (summed step by step: 1 for a
/// straight step, √2 for a diagonal one).
#[inline(never)]
pub(crate) fn validate(grid: &Grid, cells: &[Point]) -> Result<f64, SmoothError> {
    let Some(&first) = cells.first() else {
        return Err(SmoothError::EmptyPath);
    };
    // Fast pass: every check folded into one flag; the careful pass below
    // runs only to name the first problem.
    let stride = grid.stride() as i64;
    let (w, h) = (grid.width(), grid.height());
    let mut ok = first.x < w && first.y < h;
    if ok {
        let mut prev_idx = grid.padded_index(first) as i64;
        ok = grid.passable_padded(prev_idx as usize);
        let mut prev = first;
        // Diagonal steps, counted (a running float sum would chain every
        // step on the previous one's addition).
        let mut diagonal = 0usize;
        for &p in &cells[1..] {
            let dx = p.x as i64 - prev.x as i64;
            let dy = p.y as i64 - prev.y as i64;
            // Distinct and adjacent to `prev` (in the map), so `p` and the
            // side cells of a diagonal step are in the padded array, whose
            // blocked border rejects a `p` outside the map.
            if !((dx + 1) as u64 <= 2 && (dy + 1) as u64 <= 2 && (dx | dy) != 0) {
                ok = false;
                break;
            }
            let idx = prev_idx + dx + dy * stride;
            let mut free = grid.passable_padded(idx as usize);
            if dx != 0 && dy != 0 {
                free &= grid.passable_padded((prev_idx + dx) as usize)
                    && grid.passable_padded((prev_idx + dy * stride) as usize);
                diagonal += 1;
            }
            if !free {
                ok = false;
                break;
            }
            prev = p;
            prev_idx = idx;
        }
        if ok {
            return Ok(steps_length(cells.len() - 1, diagonal));
        }
    }
    validate_slow(grid, cells)
}

/// Length of a path of `steps` steps of which `diagonal` are diagonal (√2)
/// and the others straight (1).
#[inline]
fn steps_length(steps: usize, diagonal: usize) -> f64 {
    (steps - diagonal) as f64 + diagonal as f64 * SQRT2
}

/// [`validate`]'s careful pass, naming the first problem of the path.
#[cold]
#[inline(never)]
fn validate_slow(grid: &Grid, cells: &[Point]) -> Result<f64, SmoothError> {
    let Some(&first) = cells.first() else {
        return Err(SmoothError::EmptyPath);
    };
    let stride = grid.stride() as isize;
    let (w, h) = (grid.width(), grid.height());
    let mut diagonal = 0usize;
    let mut prev = first;
    let mut prev_idx = 0usize;
    for (index, &p) in cells.iter().enumerate() {
        if p.x >= w || p.y >= h {
            return Err(SmoothError::OutOfBounds {
                index,
                point: p,
                width: w,
                height: h,
            });
        }
        let idx = grid.padded_index(p);
        if !grid.passable_padded(idx) {
            return Err(SmoothError::BlockedCell { index, point: p });
        }
        if index > 0 {
            let dx = p.x as i64 - prev.x as i64;
            let dy = p.y as i64 - prev.y as i64;
            if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
                return Err(SmoothError::NotAdjacent {
                    index,
                    from: prev,
                    to: p,
                });
            }
            if dx != 0 && dy != 0 {
                // No corner cutting: both orthogonal neighbours passable.
                let side_x = (prev_idx as isize + dx as isize) as usize;
                let side_y = (prev_idx as isize + dy as isize * stride) as usize;
                if !grid.passable_padded(side_x) || !grid.passable_padded(side_y) {
                    return Err(SmoothError::CornerCut {
                        index,
                        from: prev,
                        to: p,
                    });
                }
                diagonal += 1;
            }
        }
        prev = p;
        prev_idx = idx;
    }
    Ok(steps_length(cells.len() - 1, diagonal))
}

/// Smooths a cell path into any-angle waypoints; a one-shot convenience for
/// [`Smoother::smooth`] (which reuses its buffers across calls and also
/// returns a [`SmoothReport`]).
///
/// ```
/// use regionpath_grid::{Grid, Point};
/// use regionpath_smoothing::{smooth, SmoothOptions, Vec2};
///
/// let grid = Grid::new(8, 8, true).unwrap();
/// let cells: Vec<Point> = (0..6).map(|i| Point::new(i, i.min(2))).collect();
/// let w = smooth(&grid, &cells, &SmoothOptions::default()).unwrap();
/// assert_eq!(w, vec![Vec2::new(0.5, 0.5), Vec2::new(5.5, 2.5)]);
/// ```
pub fn smooth(
    grid: &Grid,
    cells: &[Point],
    opts: &SmoothOptions,
) -> Result<Vec<Vec2>, SmoothError> {
    let mut out = Vec::new();
    Smoother::new().smooth(grid, cells, opts, &mut out)?;
    Ok(out)
}
