//! Path checks that do not trust the planner.
//!
//! A cell path is valid when it starts at the start, ends at the goal, and
//! every step moves to one of the eight neighbours, onto a passable cell,
//! and, for a diagonal step, with both orthogonally adjacent cells passable
//! (no corner cutting). Only [`Grid::is_passable`] is used to read the map;
//! the movement rules and the length are recomputed here.
//!
//! Under a movement profile, [`check_profiled_path`] reads only the map's
//! terrain characters and the profile's costs and size, and applies the
//! rules itself (see [`position_cost`]).

use regionpath::grid::{Grid, Point, Profile};
use std::fmt;

/// Straight and diagonal step counts of a valid path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Steps {
    /// Steps of cost 1.
    pub straight: u64,
    /// Steps of cost √2.
    pub diagonal: u64,
}

impl Steps {
    /// straight · 1 + diagonal · √2.
    pub fn length(self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * std::f64::consts::SQRT_2
    }
}

/// Why a path is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defect {
    /// No cells at all.
    Empty,
    /// The first cell is not the start.
    WrongStart(Point),
    /// The last cell is not the goal.
    WrongEnd(Point),
    /// Cell `index` is outside the grid or blocked.
    Blocked(usize, Point),
    /// Cells `index - 1` and `index` are not neighbours (or are equal).
    Jump(usize, Point, Point),
    /// The diagonal step into cell `index` cuts a blocked corner.
    CornerCut(usize, Point, Point),
}

impl fmt::Display for Defect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Defect::Empty => write!(f, "empty path"),
            Defect::WrongStart(p) => write!(f, "path starts at {p}, not at the start"),
            Defect::WrongEnd(p) => write!(f, "path ends at {p}, not at the goal"),
            Defect::Blocked(i, p) => write!(f, "cell {i} {p} is blocked or off the map"),
            Defect::Jump(i, a, b) => write!(f, "step {i} from {a} to {b} is not a single move"),
            Defect::CornerCut(i, a, b) => {
                write!(f, "diagonal step {i} from {a} to {b} cuts a corner")
            }
        }
    }
}

/// Checks that `path` is a legal 8-connected walk from `start` to `goal`
/// and returns its step counts.
pub fn check_path(grid: &Grid, start: Point, goal: Point, path: &[Point]) -> Result<Steps, Defect> {
    let (&first, &last) = match (path.first(), path.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return Err(Defect::Empty),
    };
    if first != start {
        return Err(Defect::WrongStart(first));
    }
    if last != goal {
        return Err(Defect::WrongEnd(last));
    }
    let free = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x <= u32::MAX as i64
            && y <= u32::MAX as i64
            && grid.is_passable(Point::new(x as u32, y as u32))
    };
    if !free(first.x as i64, first.y as i64) {
        return Err(Defect::Blocked(0, first));
    }
    let mut steps = Steps::default();
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (ax, ay, bx, by) = (a.x as i64, a.y as i64, b.x as i64, b.y as i64);
        let (dx, dy) = (bx - ax, by - ay);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Err(Defect::Jump(i + 1, a, b));
        }
        if !free(bx, by) {
            return Err(Defect::Blocked(i + 1, b));
        }
        if dx != 0 && dy != 0 {
            if !free(ax + dx, ay) || !free(ax, ay + dy) {
                return Err(Defect::CornerCut(i + 1, a, b));
            }
            steps.diagonal += 1;
        } else {
            steps.straight += 1;
        }
    }
    Ok(steps)
}

/// The cost of position `(x, y)` under `profile`, or `None` when it is not
/// usable. A position covers the cells `x..x+k` × `y..y+k` (`k` the
/// profile's size); it is usable when all of them are on the map and have
/// a cost in the profile, and costs the largest of theirs. O(k²).
pub fn position_cost(grid: &Grid, profile: &Profile, x: i64, y: i64) -> Option<f64> {
    let k = i64::from(profile.size());
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    if x < 0 || y < 0 || x + k > w || y + k > h {
        return None;
    }
    let mut worst = 0.0f64;
    for cy in y..y + k {
        for cx in x..x + k {
            let kind = grid.terrain(Point::new(cx as u32, cy as u32)).ok()?;
            worst = worst.max(profile.cost(kind)?);
        }
    }
    Some(worst)
}

/// Checks that `path` is a legal walk of positions from `start` to `goal`
/// under `profile` and returns its cost: every position usable, every step
/// one of the 8 moves, a diagonal only when both orthogonal intermediate
/// positions are usable, a step costing its length (1 or √2) times the
/// mean of the costs of the two positions it joins. O(path · k²).
pub fn check_profiled_path(
    grid: &Grid,
    profile: &Profile,
    start: Point,
    goal: Point,
    path: &[Point],
) -> Result<f64, Defect> {
    let (&first, &last) = match (path.first(), path.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return Err(Defect::Empty),
    };
    if first != start {
        return Err(Defect::WrongStart(first));
    }
    if last != goal {
        return Err(Defect::WrongEnd(last));
    }
    let at = |x: i64, y: i64| position_cost(grid, profile, x, y);
    let mut here = at(i64::from(first.x), i64::from(first.y)).ok_or(Defect::Blocked(0, first))?;
    let mut cost = 0.0;
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (ax, ay) = (i64::from(a.x), i64::from(a.y));
        let (dx, dy) = (i64::from(b.x) - ax, i64::from(b.y) - ay);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return Err(Defect::Jump(i + 1, a, b));
        }
        let next = at(ax + dx, ay + dy).ok_or(Defect::Blocked(i + 1, b))?;
        let length = if dx != 0 && dy != 0 {
            if at(ax + dx, ay).is_none() || at(ax, ay + dy).is_none() {
                return Err(Defect::CornerCut(i + 1, a, b));
            }
            std::f64::consts::SQRT_2
        } else {
            1.0
        };
        cost += length * ((here + next) / 2.0);
        here = next;
    }
    Ok(cost)
}

/// Whether the segment `a`–`b` meets the closed square
/// `[x, x + 1] × [y, y + 1]` (touching counts).
fn segment_meets_cell(a: (f64, f64), b: (f64, f64), x: i64, y: i64) -> bool {
    segment_meets_rect(a, b, (x as f64, y as f64), ((x + 1) as f64, (y + 1) as f64))
}

/// Whether the segment `a`–`b` meets the closed rectangle from `lo` to
/// `hi` (Liang–Barsky clipping; touching counts).
fn segment_meets_rect(a: (f64, f64), b: (f64, f64), lo: (f64, f64), hi: (f64, f64)) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - lo.0),
        (dx, hi.0 - a.0),
        (-dy, a.1 - lo.1),
        (dy, hi.1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    t0 <= t1
}

/// Whether no blocked or off-map cell touches the segment `a`–`b`.
fn segment_clear(grid: &Grid, a: (f64, f64), b: (f64, f64)) -> bool {
    let blocked = |x: i64, y: i64| {
        x < 0
            || y < 0
            || x >= i64::from(grid.width())
            || y >= i64::from(grid.height())
            || !grid.is_passable(Point::new(x as u32, y as u32))
    };
    // Samples at most half a cell apart: every square the segment touches
    // lies in the 3×3 block around some sample's cell.
    let length = (b.0 - a.0).hypot(b.1 - a.1);
    let samples = (length * 2.0).ceil().max(1.0) as u64;
    let mut last: Option<(i64, i64)> = None;
    for i in 0..=samples {
        let t = i as f64 / samples as f64;
        let (sx, sy) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        let cell = (sx.floor() as i64, sy.floor() as i64);
        if last == Some(cell) {
            continue;
        }
        last = Some(cell);
        for y in cell.1 - 1..=cell.1 + 1 {
            for x in cell.0 - 1..=cell.0 + 1 {
                if blocked(x, y) && segment_meets_cell(a, b, x, y) {
                    return false;
                }
            }
        }
    }
    true
}

/// Checks a smoothed polyline (in grid space, cell centres at `x + 0.5`):
/// it runs from the start cell's centre to the goal cell's centre and no
/// segment touches a blocked or off-map cell. Returns its Euclidean length.
pub fn check_smoothed(
    grid: &Grid,
    start: Point,
    goal: Point,
    waypoints: &[(f64, f64)],
) -> Result<f64, Defect> {
    let cell = |w: (f64, f64)| Point::new(w.0.max(0.0) as u32, w.1.max(0.0) as u32);
    check_ends(waypoints, 0.5, start, goal, cell)?;
    let mut length = 0.0;
    for (i, pair) in waypoints.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let finite = a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite();
        if !finite || !segment_clear(grid, a, b) {
            return Err(Defect::Jump(i + 1, cell(a), cell(b)));
        }
        length += (b.0 - a.0).hypot(b.1 - a.1);
    }
    Ok(length)
}

/// Whether `waypoints` run from `(start.x + offset, start.y + offset)` to
/// the same point of `goal` (within 10⁻⁶); a wrong end is reported at the
/// cell or position `at` names.
fn check_ends(
    waypoints: &[(f64, f64)],
    offset: f64,
    start: Point,
    goal: Point,
    at: impl Fn((f64, f64)) -> Point,
) -> Result<(), Defect> {
    let centre = |p: Point| (f64::from(p.x) + offset, f64::from(p.y) + offset);
    let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6;
    let (&first, &last) = match (waypoints.first(), waypoints.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return Err(Defect::Empty),
    };
    if !near(first, centre(start)) {
        return Err(Defect::WrongStart(at(first)));
    }
    if !near(last, centre(goal)) {
        return Err(Defect::WrongEnd(at(last)));
    }
    Ok(())
}

/// Length and cost of a smoothed polyline under a profile
/// ([`check_profiled_smoothed`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothedCost {
    /// Euclidean length of the polyline.
    pub length: f64,
    /// Its cost: the integral along it of the cost of the position whose
    /// unit square (centred on the position, in anchor space) holds the
    /// anchor, which on a single step is the step rule of
    /// [`check_profiled_path`].
    pub cost: f64,
}

/// Checks a polyline smoothed under `profile` (size `k`): it runs from the
/// centre `(x + k/2, y + k/2)` of the start's footprint to the goal's, and
/// along every segment the `k × k` square centred on the line overlaps
/// (with positive area: touching is allowed) only on-map cells whose
/// terrain the profile prices. Returns its length and cost (see
/// [`SmoothedCost`]); a segment whose anchor passes a position that is not
/// usable is refused. The cost is computed exactly, from the parameters
/// where the anchor crosses the half-integer lines between positions.
/// O(length · k²) per segment.
pub fn check_profiled_smoothed(
    grid: &Grid,
    profile: &Profile,
    start: Point,
    goal: Point,
    waypoints: &[(f64, f64)],
) -> Result<SmoothedCost, Defect> {
    let half = f64::from(profile.size()) / 2.0;
    let anchor = |w: (f64, f64)| {
        Point::new(
            (w.0 - half + 0.5).max(0.0) as u32,
            (w.1 - half + 0.5).max(0.0) as u32,
        )
    };
    check_ends(waypoints, half, start, goal, anchor)?;
    let mut total = SmoothedCost {
        length: 0.0,
        cost: 0.0,
    };
    let mut cuts = Vec::new();
    for (i, pair) in waypoints.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let jump = Defect::Jump(i + 1, anchor(a), anchor(b));
        let finite = a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite();
        if !finite || !footprint_clear(grid, profile, half, a, b) {
            return Err(jump);
        }
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        // Parameters where the anchor (the point less k/2) crosses a line
        // x = n + 1/2 or y = n + 1/2: between two of them it stays in one
        // position's square.
        cuts.clear();
        cuts.extend([0.0, 1.0]);
        for (from, to) in [(a.0 - half, b.0 - half), (a.1 - half, b.1 - half)] {
            let (lo, hi) = (from.min(to), from.max(to));
            let mut n = (lo + 0.5).ceil();
            while n - 0.5 <= hi {
                if to != from {
                    cuts.push(((n - 0.5 - from) / (to - from)).clamp(0.0, 1.0));
                }
                n += 1.0;
            }
        }
        cuts.sort_by(f64::total_cmp);
        for w in cuts.windows(2) {
            if w[1] <= w[0] {
                continue;
            }
            let t = (w[0] + w[1]) / 2.0;
            let (x, y) = (a.0 + (b.0 - a.0) * t - half, a.1 + (b.1 - a.1) * t - half);
            let (px, py) = ((x + 0.5).floor() as i64, (y + 0.5).floor() as i64);
            let c = position_cost(grid, profile, px, py).ok_or(Defect::Jump(
                i + 1,
                anchor(a),
                anchor(b),
            ))?;
            total.cost += (w[1] - w[0]) * length * c;
        }
        total.length += length;
    }
    Ok(total)
}

/// Whether the `k × k` square (half side `half`) centred on the segment
/// `a`–`b` overlaps, with positive area, only on-map cells `profile`
/// prices: a cell `(x, y)` is overlapped when the segment enters the open
/// rectangle `(x − k/2, x + 1 + k/2) × (y − k/2, y + 1 + k/2)`.
fn footprint_clear(
    grid: &Grid,
    profile: &Profile,
    half: f64,
    a: (f64, f64),
    b: (f64, f64),
) -> bool {
    const TOUCH: f64 = 1e-9;
    let reach = half + 1.0;
    // Samples at most half a cell apart; the cells within `reach` of some
    // sample hold every cell whose rectangle the segment enters.
    let length = (b.0 - a.0).hypot(b.1 - a.1);
    let samples = (length * 2.0).ceil().max(1.0) as u64;
    for i in 0..=samples {
        let t = i as f64 / samples as f64;
        let (sx, sy) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        for y in (sy - reach).floor() as i64..=(sy + reach).floor() as i64 {
            for x in (sx - reach).floor() as i64..=(sx + reach).floor() as i64 {
                if enterable(grid, profile, x, y) {
                    continue;
                }
                let (x0, y0) = (x as f64 - half + TOUCH, y as f64 - half + TOUCH);
                let (x1, y1) = (x as f64 + 1.0 + half - TOUCH, y as f64 + 1.0 + half - TOUCH);
                if segment_meets_rect(a, b, (x0, y0), (x1, y1)) {
                    return false;
                }
            }
        }
    }
    true
}

/// Checks a vehicle curve independently of the library's geometry: it
/// starts at the start cell's centre and ends at the goal cell's (within
/// 10⁻³), every sample every 0.05 cells of travel has its disc of radius `r`
/// clear of blocked and off-map squares (distance to each nearby square,
/// touching counts), and the heading turns by at most the distance
/// travelled over `big_r` between samples (+ rounding). Returns the length.
pub fn check_curve(
    grid: &Grid,
    start: Point,
    goal: Point,
    curve: &regionpath::CurvedPath,
    big_r: f64,
    r: f64,
) -> Result<f64, String> {
    let centre = |p: Point| (f64::from(p.x) + 0.5, f64::from(p.y) + 0.5);
    let free =
        |cx: i64, cy: i64| cx >= 0 && cy >= 0 && grid.is_passable(Point::new(cx as u32, cy as u32));
    curve_clear(free, centre(start), centre(goal), curve, big_r, r)
}

/// [`check_curve`] for a unit under `profile`: the curve runs between the
/// centres of the start's and the goal's `k × k` footprints
/// (`(x + k/2, y + k/2)`), and the disc of radius `r` around every sample
/// stays clear of off-map squares and of cells whose terrain the profile
/// does not price (read from the map's characters). Returns the length.
pub fn check_profiled_curve(
    grid: &Grid,
    profile: &Profile,
    start: Point,
    goal: Point,
    curve: &regionpath::CurvedPath,
    big_r: f64,
    r: f64,
) -> Result<f64, String> {
    let half = f64::from(profile.size()) / 2.0;
    let centre = |p: Point| (f64::from(p.x) + half, f64::from(p.y) + half);
    let free = |cx: i64, cy: i64| enterable(grid, profile, cx, cy);
    curve_clear(free, centre(start), centre(goal), curve, big_r, r)
}

/// Whether cell `(x, y)` is on the map and of a terrain `profile` prices.
fn enterable(grid: &Grid, profile: &Profile, x: i64, y: i64) -> bool {
    x >= 0
        && y >= 0
        && grid
            .terrain(Point::new(x as u32, y as u32))
            .ok()
            .and_then(|kind| profile.cost(kind))
            .is_some()
}

/// The checks of [`check_curve`], cells read through `free`.
fn curve_clear(
    free: impl Fn(i64, i64) -> bool,
    start: (f64, f64),
    goal: (f64, f64),
    curve: &regionpath::CurvedPath,
    big_r: f64,
    r: f64,
) -> Result<f64, String> {
    let total = curve.length() as f64;
    let ends = [(0.0, start), (total, goal)];
    for (s, c) in ends {
        let (p, _) = curve.sample(s as f32);
        if (p.x as f64 - c.0).abs() > 1e-3 || (p.y as f64 - c.1).abs() > 1e-3 {
            return Err(format!(
                "the curve passes ({}, {}) at {s}, not its end",
                p.x, p.y
            ));
        }
    }
    let ds = 0.05;
    let n = (total / ds).ceil() as usize;
    let mut prev: Option<(f64, f64)> = None;
    for i in 0..=n {
        let s = (i as f64 * ds).min(total);
        let (p, h) = curve.sample(s as f32);
        let (x, y) = (p.x as f64, p.y as f64);
        for cy in (y - r).floor() as i64 - 1..=(y + r).floor() as i64 + 1 {
            for cx in (x - r).floor() as i64 - 1..=(x + r).floor() as i64 + 1 {
                if free(cx, cy) {
                    continue;
                }
                let dx = (cx as f64 - x).max(x - (cx as f64 + 1.0)).max(0.0);
                let dy = (cy as f64 - y).max(y - (cy as f64 + 1.0)).max(0.0);
                if dx.hypot(dy) <= r - 1e-5 {
                    return Err(format!(
                        "the sample at {s} ({x}, {y}) touches cell ({cx}, {cy})"
                    ));
                }
            }
        }
        if let Some((ps, ph)) = prev {
            let turn = (h as f64 - ph).rem_euclid(std::f64::consts::TAU);
            let turn = turn.min(std::f64::consts::TAU - turn);
            if turn > (s - ps) / big_r * 1.001 + 2e-4 {
                return Err(format!("the curve turns tighter than {big_r} at {s}"));
            }
        }
        prev = Some((s, h as f64));
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: u32, y: u32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn accepts_legal_paths_and_measures_them() {
        let g = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        let s = check_path(
            &g,
            p(0, 0),
            p(2, 2),
            &[p(0, 0), p(1, 0), p(2, 0), p(2, 1), p(2, 2)],
        )
        .unwrap();
        assert_eq!(
            s,
            Steps {
                straight: 4,
                diagonal: 0
            }
        );
        assert_eq!(s.length(), 4.0);
        let g = Grid::from_rows(&["...", "...", "..."]).unwrap();
        let s = check_path(&g, p(0, 0), p(2, 1), &[p(0, 0), p(1, 1), p(2, 1)]).unwrap();
        assert!((s.length() - (1.0 + 2f64.sqrt())).abs() < 1e-12);
        assert_eq!(
            check_path(&g, p(1, 1), p(1, 1), &[p(1, 1)])
                .unwrap()
                .length(),
            0.0
        );
    }

    #[test]
    fn rejects_each_defect() {
        let g = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        assert_eq!(check_path(&g, p(0, 0), p(2, 2), &[]), Err(Defect::Empty));
        assert_eq!(
            check_path(&g, p(0, 0), p(0, 1), &[p(0, 1)]),
            Err(Defect::WrongStart(p(0, 1)))
        );
        assert_eq!(
            check_path(&g, p(0, 0), p(0, 2), &[p(0, 0), p(0, 1)]),
            Err(Defect::WrongEnd(p(0, 1)))
        );
        assert_eq!(
            check_path(&g, p(0, 0), p(2, 0), &[p(0, 0), p(2, 0)]),
            Err(Defect::Jump(1, p(0, 0), p(2, 0)))
        );
        assert_eq!(
            check_path(&g, p(0, 0), p(0, 0), &[p(0, 0), p(0, 0)]),
            Err(Defect::Jump(1, p(0, 0), p(0, 0)))
        );
        assert_eq!(
            check_path(&g, p(0, 1), p(2, 1), &[p(0, 1), p(1, 1), p(2, 1)]),
            Err(Defect::Blocked(1, p(1, 1)))
        );
        assert_eq!(
            check_path(&g, p(0, 0), p(1, 0), &[p(0, 0), p(1, 0), p(2, 1), p(1, 0)]),
            Err(Defect::CornerCut(2, p(1, 0), p(2, 1)))
        );
        assert_eq!(
            check_path(&g, p(3, 0), p(3, 0), &[p(3, 0)]),
            Err(Defect::Blocked(0, p(3, 0)))
        );
    }

    #[test]
    fn profiled_paths_follow_footprints_and_mean_costs() {
        // Swamp costs 3, water is impassable; a 2-wide unit.
        let g = Grid::from_rows(&["..S..", "..S..", "WW.WW", ".....", "....."]).unwrap();
        let walker = Profile::builder("w")
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        let row: Vec<Point> = (0..5).map(|x| p(x, 0)).collect();
        // . . S . . : 1 + (1+3)/2 + (3+1)/2 + 1.
        let c = check_profiled_path(&g, &walker, p(0, 0), p(4, 0), &row).unwrap();
        assert!((c - 6.0).abs() < 1e-12, "{c}");
        // Into water.
        assert_eq!(
            check_profiled_path(&g, &walker, p(0, 1), p(0, 2), &[p(0, 1), p(0, 2)]),
            Err(Defect::Blocked(1, p(0, 2)))
        );
        // Diagonal past water: (1,1) -> (2,2) needs (2,1) and (1,2).
        assert_eq!(
            check_profiled_path(&g, &walker, p(1, 1), p(2, 2), &[p(1, 1), p(2, 2)]),
            Err(Defect::CornerCut(1, p(1, 1), p(2, 2)))
        );
        let tank = Profile::builder("t")
            .size(2)
            .cost('.', 1.0)
            .build()
            .unwrap();
        // (0,3) covers rows 3-4; (0,2) would cover water.
        assert!(position_cost(&g, &tank, 0, 3).is_some());
        assert!(position_cost(&g, &tank, 0, 2).is_none());
        assert!(position_cost(&g, &tank, 4, 3).is_none(), "off the map");
        let c = check_profiled_path(
            &g,
            &tank,
            p(0, 3),
            p(3, 3),
            &[p(0, 3), p(1, 3), p(2, 3), p(3, 3)],
        )
        .unwrap();
        assert_eq!(c, 3.0);
    }

    #[test]
    fn smoothed_paths() {
        let g = Grid::from_rows(&["....", "....", ".@.."]).unwrap();
        let c = |x: u32, y: u32| (f64::from(x) + 0.5, f64::from(y) + 0.5);
        let l = check_smoothed(&g, p(0, 0), p(3, 1), &[c(0, 0), c(3, 1)]).unwrap();
        assert!((l - 10f64.sqrt()).abs() < 1e-12);
        // Through the blocked cell (1, 2).
        assert!(check_smoothed(&g, p(0, 0), p(2, 2), &[c(0, 0), c(2, 2)]).is_err());
        assert!(check_smoothed(&g, p(0, 0), p(2, 2), &[c(0, 0), c(2, 1), c(2, 2)]).is_ok());
        // Touching the blocked cell's corner (2, 2) counts as blocked...
        assert!(check_smoothed(&g, p(0, 0), p(2, 2), &[c(0, 0), (2.0, 2.0), c(2, 2)]).is_err());
        // ... passing just beside it does not.
        assert!(check_smoothed(&g, p(0, 0), p(2, 2), &[c(0, 0), (2.01, 1.99), c(2, 2)]).is_ok());
        // Leaving the map.
        assert!(check_smoothed(&g, p(0, 0), p(3, 0), &[c(0, 0), (2.0, -0.5), c(3, 0)]).is_err());
        assert_eq!(
            check_smoothed(&g, p(0, 0), p(2, 2), &[c(0, 0)]),
            Err(Defect::WrongEnd(p(0, 0)))
        );
        assert_eq!(
            check_smoothed(&g, p(0, 0), p(2, 2), &[]),
            Err(Defect::Empty)
        );
    }

    #[test]
    fn long_segments_are_checked_everywhere() {
        // A 300-cell corridor with one blocked cell in the middle.
        let mut rows = vec![".".repeat(300); 3];
        rows[1].replace_range(150..151, "@");
        let g = Grid::from_rows(&rows).unwrap();
        let (a, b) = ((0.5, 1.5), (299.5, 1.5));
        assert!(!segment_clear(&g, a, b));
        assert!(segment_clear(&g, (0.5, 0.5), (299.5, 0.5)));
        assert!(
            !segment_clear(&g, (0.5, 1.0), (299.5, 1.0)),
            "touches the top of (150, 1)"
        );
    }

    #[test]
    fn profiled_polylines_need_the_footprint_and_are_priced_exactly() {
        // Swamp costs 3; water is impassable for the walker.
        let g = Grid::from_rows(&[".....", "..S..", ".....", "W....", "....."]).unwrap();
        let walker = Profile::builder("w")
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        // Size 1: centres at x + 0.5. Straight through the swamp on row 1:
        // four unit steps' worth, the middle cell's square priced 3 —
        // 1.5 · 1 + 1 · 3 + 1.5 · 1.
        let sc = check_profiled_smoothed(&g, &walker, p(0, 1), p(4, 1), &[(0.5, 1.5), (4.5, 1.5)])
            .unwrap();
        assert!((sc.length - 4.0).abs() < 1e-12);
        assert!((sc.cost - 6.0).abs() < 1e-12, "{}", sc.cost);
        // A diagonal from (0,0) to (2,2) passes beside the swamp at (2,1):
        // the anchor is in (0,0)'s square for a quarter of it, (1,1)'s for a
        // half and (2,2)'s for a quarter, all plain: √8.
        let sc = check_profiled_smoothed(&g, &walker, p(0, 0), p(2, 2), &[(0.5, 0.5), (2.5, 2.5)])
            .unwrap();
        assert!((sc.cost - 8f64.sqrt()).abs() < 1e-12, "{}", sc.cost);
        // Touching the water cell (0, 3) along its top edge is allowed for
        // size 1 (the footprint runs along row 2), entering it is not.
        assert!(
            check_profiled_smoothed(&g, &walker, p(0, 2), p(4, 2), &[(0.5, 2.5), (4.5, 2.5)])
                .is_ok()
        );
        assert_eq!(
            check_profiled_smoothed(&g, &walker, p(0, 2), p(4, 3), &[(0.5, 2.5), (4.5, 3.5)]),
            Err(Defect::Jump(1, p(0, 2), p(4, 3)))
        );
        // Ends must be the footprint centres.
        assert_eq!(
            check_profiled_smoothed(&g, &walker, p(0, 0), p(4, 0), &[(0.0, 0.0), (4.5, 0.5)]),
            Err(Defect::WrongStart(p(0, 0)))
        );
        // Size 2: centres at x + 1. The footprints of (1,0) and (2,0) hold
        // the swamp at (2,1): (0,0) → (3,0) costs 0.5 · 1 + 1 · 3 + 1 · 3 +
        // 0.5 · 1. A line down x = 2 runs along the water at (0, 3); one
        // from (0,2)'s centre covers it.
        let tank = Profile::builder("t")
            .size(2)
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        let sc = check_profiled_smoothed(&g, &tank, p(0, 0), p(3, 0), &[(1.0, 1.0), (4.0, 1.0)])
            .unwrap();
        assert!((sc.cost - 7.0).abs() < 1e-12, "{}", sc.cost);
        assert!(
            check_profiled_smoothed(&g, &tank, p(1, 2), p(1, 3), &[(2.0, 3.0), (2.0, 4.0)]).is_ok()
        );
        assert!(
            check_profiled_smoothed(&g, &tank, p(0, 2), p(3, 3), &[(1.0, 3.0), (4.0, 4.0)])
                .is_err()
        );
    }

    #[test]
    fn profiled_curves_keep_the_disc_on_priced_terrain() {
        use regionpath::smoothing::{CurveSegment, CurvedPath, Vec2};
        let line = |a: (f32, f32), b: (f32, f32)| {
            CurvedPath::from_segments(&[CurveSegment::Line {
                from: Vec2::new(a.0, a.1),
                to: Vec2::new(b.0, b.1),
            }])
            .unwrap()
        };
        let tank = Profile::builder("t")
            .size(2)
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        let water = Grid::from_rows(&[".....", ".....", "W.S..", "....."]).unwrap();
        let dry = Grid::from_rows(&[".....", ".....", "..S..", "....."]).unwrap();
        // From the centre of (0,0)'s footprint to (3,0)'s: y = 1, a disc
        // of 0.9 stays 0.1 clear of the water at (0, 2); swamp is priced.
        let c = line((1.0, 1.0), (4.0, 1.0));
        let len = check_profiled_curve(&water, &tank, p(0, 0), p(3, 0), &c, 2.0, 0.9).unwrap();
        assert!((len - 3.0).abs() < 1e-6);
        // One row lower, the disc covers the water's corner.
        let c = line((1.0, 2.0), (4.0, 2.0));
        assert!(check_profiled_curve(&water, &tank, p(0, 1), p(3, 1), &c, 2.0, 0.5).is_err());
        assert!(check_profiled_curve(&dry, &tank, p(0, 1), p(3, 1), &c, 2.0, 0.5).is_ok());
        // The ends are footprint centres, not cell centres.
        let c = line((0.5, 0.5), (3.5, 0.5));
        assert!(check_profiled_curve(&dry, &tank, p(0, 0), p(3, 0), &c, 2.0, 0.4).is_err());
        assert!(check_curve(&dry, p(0, 0), p(3, 0), &c, 2.0, 0.4).is_ok());
    }
}
