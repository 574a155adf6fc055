//! Smoothing of position paths found under a movement profile: shortcuts
//! the unit's footprint fits along and that cost no more than the positions
//! they replace.

use crate::smooth::{validate, SmoothError, SmoothOptions, Smoother};
use crate::Vec2;
use regionpath_grid::{Grid, Point, ProfileGrid, SQRT2};

/// Relative slack of the cost rule: a shortcut whose cost exceeds the
/// piece it replaces by no more than this fraction counts as a tie (the
/// two costs are summed in different orders, so equal costs differ in the
/// last bits).
const COST_TIE: f64 = 1e-12;

/// What [`Smoother::smooth_profiled`] produced, besides the waypoints.
///
/// Costs follow the profile: the input's is the sum of its steps (base
/// length 1 or √2 times the mean cost of the two positions), a segment's is
/// the integral along it of the cost of the position whose cell the anchor
/// is in (the cells of positions `(i, j)` are the unit squares centred on
/// them in anchor space), which gives exactly the step rule on a single
/// step.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ProfiledReport {
    /// Cost of the input path under the profile.
    pub input_cost: f64,
    /// Cost of the output polyline under the same rule (at most
    /// `input_cost`, within 10⁻¹² relative rounding).
    pub output_cost: f64,
    /// Length of the input path: straight steps count 1, diagonal ones √2.
    pub input_length: f64,
    /// Length of the output polyline.
    pub output_length: f64,
    /// Output segments not clear for the footprint: always `0` here, since
    /// every step of a valid position path is clear for the footprint and a
    /// unit radius of at most `k / 2` lies inside it (kept for parity with
    /// [`crate::SmoothReport::narrow_segments`]).
    pub narrow_segments: usize,
}

impl Smoother {
    /// Smooths the position path `cells`, found under the profile `view`
    /// was built for (consecutive positions neighbours under its move rule:
    /// usable, no diagonal past an unusable position), into waypoints
    /// written to `out` (cleared first): the centres `(x + k/2, y + k/2)`
    /// of the `k × k` footprints of usable positions, the first and last
    /// exactly those of the path's ends.
    ///
    /// A segment between two waypoints is used only when
    /// * the footprint fits along it: the `k × k` square whose centre runs
    ///   along the segment overlaps (with positive area) only cells the
    ///   profile may enter, i.e. every position the anchor's bounding
    ///   lattice box holds on the way is usable in `view.grid()` (touching
    ///   a wall is allowed: a unit of size `k` runs along a corridor `k`
    ///   cells wide, as the search's positions do); and
    /// * it costs no more than the positions it replaces (see
    ///   [`ProfiledReport`] for the rule): a straight line through swamp is
    ///   no shortcut for a walker. On a uniform view (one cost) this always
    ///   holds, as with [`Smoother::smooth`].
    ///
    /// Steps: greedy string pulling over the path (from each waypoint the
    /// farthest position found by galloping and bisection, each shortcut
    /// costing at most the piece of path it replaces); then, with
    /// `opts.refine`, one pass that moves each waypoint position by
    /// position to the neighbour that most shortens its two segments while
    /// both fit and cost no more than before, and drops it when its
    /// neighbours see each other at no more cost. The footprint rule puts
    /// every bend of a taut path at a lattice point, so waypoints stay on
    /// positions. Every change keeps the total cost from growing, so the
    /// output never costs more than the input (within 10⁻¹² relative
    /// rounding) and, on a uniform view, is never longer.
    ///
    /// `opts.radius` is the unit's disc: it must be finite, non-negative
    /// and at most `k / 2`, so that it lies inside the footprint and is
    /// clear wherever the footprint is
    /// ([`SmoothError::RadiusExceedsSize`] otherwise). Bad paths give the
    /// errors of [`Smoother::smooth`] (a position not usable is
    /// [`SmoothError::BlockedCell`]).
    ///
    /// Costs O(n log n) segment tests of O(segment length) each for n
    /// positions; allocation-free once warm (beyond growing `out`). For
    /// size 1 the footprint is the unit's cell, so this is stricter than
    /// [`Smoother::smooth`]'s point rule at radius 0 (which grazes
    /// corners) and looser than its rule at radius 0.5 (which may not
    /// touch walls, so wall-hugging steps become narrow fallbacks).
    ///
    /// ```
    /// use regionpath_grid::{Grid, Point, Profile, ProfileGrid};
    /// use regionpath_smoothing::{SmoothOptions, Smoother, Vec2};
    ///
    /// // Swamp costs a walker 4: the path round it is not cut through it.
    /// let grid = Grid::from_rows(&["......", ".SSSS.", "......"]).unwrap();
    /// let walker = Profile::builder("walker").cost('.', 1.0).cost('S', 4.0).build().unwrap();
    /// let view = ProfileGrid::new(&grid, &walker);
    /// let cells: Vec<Point> = [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (5, 1), (5, 0)]
    ///     .map(|(x, y)| Point::new(x, y))
    ///     .to_vec();
    /// let mut out = Vec::new();
    /// let report = Smoother::new()
    ///     .smooth_profiled(&view, &cells, &SmoothOptions::with_radius(0.5), &mut out)
    ///     .unwrap();
    /// // Along the bottom row to the corner, then up: every cut across the
    /// // corner crosses swamp that costs more than the length it saves.
    /// assert_eq!(out, vec![Vec2::new(0.5, 2.5), Vec2::new(5.5, 2.5), Vec2::new(5.5, 0.5)]);
    /// assert!(report.output_cost <= report.input_cost);
    /// ```
    pub fn smooth_profiled(
        &mut self,
        view: &ProfileGrid,
        cells: &[Point],
        opts: &SmoothOptions,
        out: &mut Vec<Vec2>,
    ) -> Result<ProfiledReport, SmoothError> {
        out.clear();
        if !(opts.radius.is_finite() && opts.radius >= 0.0) {
            return Err(SmoothError::InvalidRadius {
                radius: opts.radius,
            });
        }
        let k = view.size();
        if f64::from(opts.radius) > f64::from(k) / 2.0 {
            return Err(SmoothError::RadiusExceedsSize {
                radius: opts.radius,
                size: k,
            });
        }
        let grid = view.grid();
        let input_length = validate(grid, cells)?;
        let costs = Costs { view, grid };
        let uniform = view.is_uniform();
        // Uniform: every position costs `unit`, so costs are lengths times
        // `unit` and the cost rule holds by the triangle inequality.
        let unit = view.class_costs().first().copied().unwrap_or(1.0);
        let mut prefix = std::mem::take(&mut self.prefix);
        prefix.clear();
        if !uniform {
            prefix.push(0.0);
            let mut total = 0.0;
            for w in cells.windows(2) {
                let base = if w[0].x != w[1].x && w[0].y != w[1].y {
                    SQRT2
                } else {
                    1.0
                };
                total += base * ((costs.at(w[0]) + costs.at(w[1])) / 2.0);
                prefix.push(total);
            }
        }
        let fits = |i: usize, j: usize| {
            footprint_clear(grid, cells[i], cells[j])
                && (uniform || {
                    let piece = prefix[j] - prefix[i];
                    costs.segment(cells[i], cells[j]) <= piece + piece * COST_TIE
                })
        };
        // Greedy pulling: from each waypoint, the farthest position found
        // by galloping then bisecting (neither rule is monotone along a
        // path, so this is the farthest found, not always the farthest).
        let mut picks = std::mem::take(&mut self.picks);
        picks.clear();
        picks.push(0);
        let last = cells.len() - 1;
        let mut i = 0;
        while i < last {
            // A straight run of equal steps fits (its positions and the
            // side positions of its diagonals are usable) and costs what
            // its steps cost.
            let step = |s: usize| {
                (
                    cells[s + 1].x.wrapping_sub(cells[s].x),
                    cells[s + 1].y.wrapping_sub(cells[s].y),
                )
            };
            let first = step(i);
            let mut run = i + 1;
            while run < last && step(run) == first {
                run += 1;
            }
            let ok = |j: usize| j <= run || fits(i, j);
            let mut lo = run;
            let mut hi = None;
            let mut stride = 1;
            while lo < last {
                let j = (run + stride).min(last);
                if ok(j) {
                    lo = j;
                    stride *= 2;
                } else {
                    hi = Some(j);
                    break;
                }
            }
            if let Some(mut hi) = hi {
                while hi - lo > 1 {
                    let mid = lo + (hi - lo) / 2;
                    if ok(mid) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
            }
            i = lo;
            picks.push(i);
        }
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        if opts.refine && picks.len() >= 3 {
            kept.push(0);
            for m in 1..picks.len() - 1 {
                let a = kept[kept.len() - 1];
                if !fits(a, picks[m + 1]) {
                    kept.push(picks[m]);
                }
            }
            kept.push(last);
        } else {
            kept.extend_from_slice(&picks);
        }
        let mut points = std::mem::take(&mut self.points);
        points.clear();
        points.extend(kept.iter().map(|&i| cells[i]));
        if opts.refine && points.len() >= 3 {
            slide(grid, &costs, uniform, &mut points);
        }
        let half = k as f32 / 2.0;
        let mut output_length = 0.0;
        let mut output_cost = 0.0;
        for w in points.windows(2) {
            output_length += length(w[0], w[1]);
            if !uniform {
                output_cost += costs.segment(w[0], w[1]);
            }
        }
        let input_cost = if uniform {
            output_cost = output_length * unit;
            input_length * unit
        } else {
            prefix[last]
        };
        out.extend(
            points
                .iter()
                .map(|p| Vec2::new(p.x as f32 + half, p.y as f32 + half)),
        );
        self.points = points;
        self.prefix = prefix;
        self.picks = picks;
        self.kept = kept;
        Ok(ProfiledReport {
            input_cost,
            output_cost,
            input_length,
            output_length,
            narrow_segments: 0,
        })
    }
}

/// Moves each interior waypoint, in order, step by step (at most
/// [`SLIDE_STEPS`]) to the neighbouring position that most shortens its two
/// segments while both still fit and cost no more than the two before;
/// then drops it if its neighbours see each other at no more cost. A second
/// pass was measured to gain under 10⁻³ of length, so there is one.
fn slide(grid: &Grid, costs: &Costs<'_>, uniform: bool, points: &mut Vec<Point>) {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let pair_cost = |a: Point, b: Point, c: Point| {
        if uniform {
            0.0
        } else {
            costs.segment(a, b) + costs.segment(b, c)
        }
    };
    // In place: points[..kept] are final, points[m] is the next to move.
    let mut kept = 1;
    for m in 1..points.len() - 1 {
        let (a, mut b, c) = (points[kept - 1], points[m], points[m + 1]);
        let mut len = length(a, b) + length(b, c);
        let mut cost = pair_cost(a, b, c);
        for _ in 0..SLIDE_STEPS {
            let mut best: Option<(Point, f64, f64)> = None;
            for (dx, dy) in NEIGHBOURS {
                let (x, y) = (i64::from(b.x) + dx, i64::from(b.y) + dy);
                if x < 0 || y < 0 || x >= w || y >= h {
                    continue;
                }
                let q = Point::new(x as u32, y as u32);
                let l = length(a, q) + length(q, c);
                if l >= best.map_or(len, |t| t.1) - 1e-9 || !grid.is_passable(q) {
                    continue;
                }
                if !(footprint_clear(grid, a, q) && footprint_clear(grid, q, c)) {
                    continue;
                }
                let qc = pair_cost(a, q, c);
                if uniform || qc <= cost {
                    best = Some((q, l, qc));
                }
            }
            let Some((q, l, qc)) = best else { break };
            (b, len, cost) = (q, l, qc);
        }
        let drop = footprint_clear(grid, a, c)
            && (uniform || costs.segment(a, c) <= cost + cost * COST_TIE);
        if !drop {
            points[kept] = b;
            kept += 1;
        }
    }
    let last = points[points.len() - 1];
    points.truncate(kept);
    points.push(last);
}

/// At most this many steps per waypoint in [`slide`].
const SLIDE_STEPS: usize = 8;

/// The eight neighbours' offsets.
const NEIGHBOURS: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Euclidean distance between two positions.
#[inline]
fn length(a: Point, b: Point) -> f64 {
    let dx = f64::from(b.x) - f64::from(a.x);
    let dy = f64::from(b.y) - f64::from(a.y);
    (dx * dx + dy * dy).sqrt()
}

/// Whether the `k × k` footprint fits along the segment between the
/// usable positions `a` and `b` of `grid` (a view's position grid): every
/// lattice point of the smallest lattice box around each point of the
/// segment is a usable position (a footprint anchored at a non-integer
/// point overlaps exactly the cells of those positions' footprints). For
/// a segment along a row or column those are its own lattice points; else
/// the corners of every unit square of anchor space whose interior it
/// crosses (it meets lattice lines only inside or at corners of such
/// squares). Exact, in integers; O(|dx| + |dy|) reads, all inside the box
/// spanned by `a` and `b`.
fn footprint_clear(grid: &Grid, a: Point, b: Point) -> bool {
    let (a, b) = if b.x < a.x { (b, a) } else { (a, b) };
    let stride = grid.stride();
    let free = |x: u32, y: u32| grid.passable_padded(grid.padded_index(Point::new(x, y)));
    let dx = i64::from(b.x - a.x);
    let dy = i64::from(b.y) - i64::from(a.y);
    if dy == 0 {
        return (a.x..=b.x).all(|x| free(x, a.y));
    }
    if dx == 0 {
        let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
        return (y0..=y1).all(|y| free(a.x, y));
    }
    for t in 0..dx {
        // y at the column's sides, times dx (all non-negative: y stays
        // between a.y and b.y).
        let y0 = i64::from(a.y) * dx + t * dy;
        let y1 = y0 + dy;
        let (lo, hi) = (y0.min(y1), y0.max(y1));
        // Unit squares j with (j, j + 1) meeting (lo, hi) / dx; their
        // corners are the lattice points j0..=j1 + 1 on both sides.
        let j0 = lo / dx;
        let j1 = (hi + dx - 1) / dx - 1;
        let x = a.x + t as u32;
        let mut idx = grid.padded_index(Point::new(x, j0 as u32));
        for _ in j0..=j1 + 1 {
            if !(grid.passable_padded(idx) && grid.passable_padded(idx + 1)) {
                return false;
            }
            idx += stride;
        }
    }
    true
}

/// Position costs of a view, read by padded index.
struct Costs<'a> {
    view: &'a ProfileGrid,
    grid: &'a Grid,
}

impl Costs<'_> {
    /// The cost of position `p` (infinite when not usable).
    #[inline]
    fn at(&self, p: Point) -> f64 {
        if !self.view.is_usable(p) {
            return f64::INFINITY;
        }
        self.at_padded(self.grid.padded_index(p))
    }

    /// The cost at padded index `i` of a usable position.
    #[inline]
    fn at_padded(&self, i: usize) -> f64 {
        let class = self.view.cost_class_padded(i) as usize;
        self.view
            .class_costs()
            .get(class)
            .copied()
            .unwrap_or(f64::INFINITY)
    }

    /// The cost of the segment from position `a` to position `b`: its
    /// length times the mean, along it, of the cost of the position whose
    /// cell (the unit square centred on it) holds the anchor. Walks the
    /// cells crossed, ordering the crossings exactly in integers (a
    /// crossing through a cell corner skips the two side cells, which it
    /// only touches). Expects a segment [`footprint_clear`] accepted (every
    /// cell crossed is then a usable position).
    fn segment(&self, a: Point, b: Point) -> f64 {
        let dx = i64::from(b.x) - i64::from(a.x);
        let dy = i64::from(b.y) - i64::from(a.y);
        let (ax, ay) = (dx.abs(), dy.abs());
        let stride = self.grid.stride() as i64;
        let (sx, sy) = (dx.signum(), dy.signum() * stride);
        let mut idx = self.grid.padded_index(a) as i64;
        // Crossings taken along x and y; the next ones lie at the
        // parameters (2m + 1) / 2ax and (2n + 1) / 2ay.
        let (mut m, mut n) = (0i64, 0i64);
        let mut s_prev = 0.0;
        let mut sum = 0.0;
        while m < ax || n < ay {
            let (take_x, take_y) = if n >= ay {
                (true, false)
            } else if m >= ax {
                (false, true)
            } else {
                let (u, v) = ((2 * m + 1) * ay, (2 * n + 1) * ax);
                (u <= v, v <= u)
            };
            let s = if take_x {
                (2 * m + 1) as f64 / (2 * ax) as f64
            } else {
                (2 * n + 1) as f64 / (2 * ay) as f64
            };
            sum += (s - s_prev) * self.at_padded(idx as usize);
            s_prev = s;
            if take_x {
                idx += sx;
                m += 1;
            }
            if take_y {
                idx += sy;
                n += 1;
            }
        }
        sum += (1.0 - s_prev) * self.at_padded(idx as usize);
        sum * length(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lattice-box rule on a hand-drawn position grid.
    #[test]
    fn footprint_rule_by_hand() {
        let g = Grid::from_rows(&["....", "..@.", "...."]).unwrap();
        let p = |x, y| Point::new(x, y);
        // Along row 0 past the unusable (2, 1): fine (touching).
        assert!(footprint_clear(&g, p(0, 0), p(3, 0)));
        // (0, 0) to (3, 1) crosses the square between (2, 0) and (3, 1)
        // whose corner (2, 1) is unusable.
        assert!(!footprint_clear(&g, p(0, 0), p(3, 1)));
        assert!(!footprint_clear(&g, p(3, 1), p(0, 0)));
        // (0, 2) to (3, 0): its box at x = 1.5 holds (1, 1), (2, 1).
        assert!(!footprint_clear(&g, p(0, 2), p(3, 0)));
        // (0, 1) to (1, 2) and (0, 0) to (1, 2): clear of column 2.
        assert!(footprint_clear(&g, p(0, 1), p(1, 2)));
        assert!(footprint_clear(&g, p(0, 0), p(1, 2)));
        assert!(!footprint_clear(&g, p(1, 0), p(2, 2)));
        assert!(!footprint_clear(&g, p(0, 1), p(3, 1)));
    }
}
