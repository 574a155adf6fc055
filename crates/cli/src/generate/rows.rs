//! Scenario rows: the largest connected component as one bit per cell,
//! uniform picks from it, and each row's optimal length from windowed jump
//! point search in a window grown until no path leaving it can be shorter.

use super::maps::Bits;
use crate::dijkstra;
use crate::error::CliError;
use crate::rng::SplitMix64;
use indicatif::ProgressBar;
use regionpath::grid::{Grid, Point, Profile, ProfileGrid};
use regionpath::search::{AStar, Status, Window, WindowedJps};

/// Bytes of windowed jump point search scratch per window cell (16 for the
/// node array, a quarter for the two bit planes, the rest for the open list).
pub const WINDOW_BYTES_PER_CELL: u64 = 17;

/// One generated scenario row.
#[derive(Clone, Debug, PartialEq)]
pub struct GenRow {
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// Optimal length (octile steps, or costs under a profile).
    pub length: f64,
}

impl GenRow {
    /// `floor(length / 4)`.
    pub fn bucket(&self) -> u64 {
        (self.length / 4.0).floor() as u64
    }
}

/// The cells of one connected component, one bit per cell, with the number
/// of its cells before each row (for uniform picks in O(log height + width / 64)).
pub struct Component {
    cells: Bits,
    count: u64,
    /// `before[y]`: cells of the component in rows `0..y` (`height + 1` entries).
    before: Vec<u64>,
}

impl Component {
    /// Number of cells.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Whether `p` belongs to the component.
    pub fn contains(&self, p: Point) -> bool {
        self.cells.is_open(i64::from(p.x), i64::from(p.y))
    }

    /// The `k`-th cell in row-major order (`k < count`).
    pub fn nth(&self, k: u64) -> Point {
        let y = self.before.partition_point(|&b| b <= k) - 1;
        let mut rem = k - self.before[y];
        for (i, &w) in self.cells.row(y as u32).iter().enumerate() {
            let c = u64::from(w.count_ones());
            if rem < c {
                let mut w = w;
                for _ in 0..rem {
                    w &= w - 1;
                }
                return Point::new(i as u32 * 64 + w.trailing_zeros(), y as u32);
            }
            rem -= c;
        }
        unreachable!("the row counts and the row bits agree")
    }

    /// A uniform cell of the component.
    pub fn pick(&self, rng: &mut SplitMix64) -> Point {
        self.nth(rng.below(self.count))
    }

    /// Calls `f` on every cell in row-major order.
    pub fn for_each(&self, mut f: impl FnMut(Point)) {
        for y in 0..self.cells.height() {
            for (i, &w) in self.cells.row(y).iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    f(Point::new(i as u32 * 64 + w.trailing_zeros(), y));
                    w &= w - 1;
                }
            }
        }
    }
}

/// Flood fills over a grid's passable cells, 64 cells per word step.
struct Flood<'a> {
    grid: &'a Grid,
    seen: Bits,
    stack: Vec<(u32, u32)>,
}

impl Flood<'_> {
    /// Passable cells of word `k` of row `y` not yet seen.
    fn avail(&self, y: u32, k: usize) -> u64 {
        self.grid.row_bits(k as u32 * 64, y, 64) & !self.seen.row(y)[k]
    }

    /// The end (exclusive) of the run of available cells from `x`.
    fn run_end(&self, y: u32, x: u32) -> u32 {
        let (mut k, o) = (x as usize / 64, x % 64);
        let ones = (!(self.avail(y, k) >> o)).trailing_zeros();
        if ones < 64 - o {
            return x + ones;
        }
        k += 1;
        while k < self.seen.words() {
            let a = self.avail(y, k);
            if a != u64::MAX {
                return k as u32 * 64 + (!a).trailing_zeros();
            }
            k += 1;
        }
        self.seen.width()
    }

    /// The start of the run of available cells that ends at `x` (inclusive).
    fn run_start(&self, y: u32, x: u32) -> u32 {
        let (mut k, o) = (x as usize / 64, x % 64);
        let ones = (!(self.avail(y, k) << (63 - o))).leading_zeros();
        if ones < o + 1 {
            return x + 1 - ones;
        }
        while k > 0 {
            k -= 1;
            let a = self.avail(y, k);
            if a != u64::MAX {
                return k as u32 * 64 + 64 - (!a).leading_zeros();
            }
        }
        0
    }

    /// Marks the 4-connected piece of `(x, y)` (available) as seen and
    /// returns its size. Inside a grid without corner cutting, 4- and
    /// 8-connected pieces are the same cells.
    fn fill(&mut self, x: u32, y: u32) -> u64 {
        let mut n = 0;
        self.stack.clear();
        self.stack.push((x, y));
        while let Some((x, y)) = self.stack.pop() {
            if self.avail(y, x as usize / 64) >> (x % 64) & 1 == 0 {
                continue;
            }
            let (l, r) = (self.run_start(y, x), self.run_end(y, x));
            self.seen.set_span(y, l, r, true);
            n += u64::from(r - l);
            for ny in [y.wrapping_sub(1), y + 1] {
                if ny >= self.seen.height() {
                    continue;
                }
                for k in l as usize / 64..=(r as usize - 1) / 64 {
                    let lo = (l as usize).max(k * 64) - k * 64;
                    let hi = (r as usize).min(k * 64 + 64) - k * 64;
                    let span = if hi - lo == 64 {
                        u64::MAX
                    } else {
                        ((1u64 << (hi - lo)) - 1) << lo
                    };
                    let mut m = self.avail(ny, k) & span;
                    while m != 0 {
                        self.stack.push((k as u32 * 64 + m.trailing_zeros(), ny));
                        // Clear the lowest run of ones.
                        m &= m.wrapping_add(m & m.wrapping_neg());
                    }
                }
            }
        }
        n
    }
}

/// The largest connected component of `grid`'s passable cells (8-connected
/// without corner cutting; the first in row-major order among equals).
/// Two scanline passes (find the largest, then mark it); holds one bit per
/// cell plus a stack of pending runs. `bar` counts rows of the first pass.
pub fn largest_component(grid: &Grid, bar: &ProgressBar) -> Component {
    let (w, h) = (grid.width(), grid.height());
    let mut flood = Flood {
        grid,
        seen: Bits::new(w, h, false),
        stack: Vec::new(),
    };
    let mut best = (0u64, 0u32, 0u32);
    for y in 0..h {
        for k in 0..flood.seen.words() {
            loop {
                let a = flood.avail(y, k);
                if a == 0 {
                    break;
                }
                let x = k as u32 * 64 + a.trailing_zeros();
                let n = flood.fill(x, y);
                if n > best.0 {
                    best = (n, x, y);
                }
            }
        }
        bar.inc(1);
    }
    flood.seen.clear();
    if best.0 > 0 {
        flood.fill(best.1, best.2);
    }
    let cells = flood.seen;
    let mut before = Vec::with_capacity(h as usize + 1);
    let mut sum = 0;
    before.push(0);
    for y in 0..h {
        sum += cells
            .row(y)
            .iter()
            .map(|w| u64::from(w.count_ones()))
            .sum::<u64>();
        before.push(sum);
    }
    Component {
        cells,
        count: sum,
        before,
    }
}

fn algo_error(message: String) -> CliError {
    CliError::Algo {
        algo: "jps".into(),
        file: "generated map".into(),
        line: None,
        message,
    }
}

/// The optimal length from `start` to `goal` (in one component), by
/// windowed jump point search over a box around both with margin `m`
/// (first half their Chebyshev distance plus 16, doubled each round). The
/// window's optimum is the map's once it is at most the cheapest cost of
/// any path through a cell outside the box: for a cell right of column
/// `x1`, `(x1 + 1 − sx) + (x1 + 1 − gx)`, the other sides alike (octile
/// distance is at least the column or row difference). `None` when the
/// window would pass `cap` cells first.
fn exact_length(
    grid: &Grid,
    jps: &mut WindowedJps,
    path: &mut Vec<Point>,
    start: Point,
    goal: Point,
    cap: u64,
) -> Result<Option<f64>, CliError> {
    let (w, h) = (grid.width(), grid.height());
    let d = start.x.abs_diff(goal.x).max(start.y.abs_diff(goal.y));
    let mut m = d / 2 + 16;
    loop {
        let x0 = start.x.min(goal.x).saturating_sub(m);
        let y0 = start.y.min(goal.y).saturating_sub(m);
        let x1 = start.x.max(goal.x).saturating_add(m).min(w - 1);
        let y1 = start.y.max(goal.y).saturating_add(m).min(h - 1);
        let window = Window {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        };
        if u64::from(window.width) * u64::from(window.height) > cap {
            return Ok(None);
        }
        let stats = jps
            .find_path_into(grid, window, start, goal, path)
            .map_err(|e| algo_error(e.to_string()))?;
        let whole = x0 == 0 && y0 == 0 && x1 == w - 1 && y1 == h - 1;
        let (sx, sy, gx, gy) = (
            f64::from(start.x),
            f64::from(start.y),
            f64::from(goal.x),
            f64::from(goal.y),
        );
        let mut bound = f64::INFINITY;
        if x1 + 1 < w {
            bound = bound.min(2.0 * f64::from(x1 + 1) - sx - gx);
        }
        if x0 > 0 {
            bound = bound.min(sx + gx - 2.0 * f64::from(x0 - 1));
        }
        if y1 + 1 < h {
            bound = bound.min(2.0 * f64::from(y1 + 1) - sy - gy);
        }
        if y0 > 0 {
            bound = bound.min(sy + gy - 2.0 * f64::from(y0 - 1));
        }
        match stats.status {
            Status::Found if whole || stats.cost <= bound => return Ok(Some(stats.cost)),
            Status::Found | Status::NoPath if !whole => {}
            _ => {
                return Err(algo_error(format!(
                    "{start} -> {goal} in one component but the search says {:?}",
                    stats.status
                )))
            }
        }
        m = m.saturating_mul(2);
    }
}

/// A goal for `start`: a uniform cell of the box of Chebyshev radius
/// `radius` around it, in the component, not the start, at least half the
/// radius away (after 64 misses any such cell; after 128 a uniform cell of
/// the component).
fn pick_goal(
    comp: &Component,
    rng: &mut SplitMix64,
    start: Point,
    radius: u32,
    (w, h): (u32, u32),
) -> Point {
    let (x0, x1) = (
        start.x.saturating_sub(radius),
        start.x.saturating_add(radius).min(w - 1),
    );
    let (y0, y1) = (
        start.y.saturating_sub(radius),
        start.y.saturating_add(radius).min(h - 1),
    );
    for attempt in 0..128 {
        let p = Point::new(rng.range(x0, x1), rng.range(y0, y1));
        let far = p.x.abs_diff(start.x).max(p.y.abs_diff(start.y)) >= radius / 2;
        if p != start && comp.contains(p) && (far || attempt >= 64) {
            return p;
        }
    }
    loop {
        let p = comp.pick(rng);
        if p != start {
            return p;
        }
    }
}

/// `rows` start/goal pairs in the largest component of `grid` with their
/// optimal lengths, sorted by bucket. Row `i` takes a uniform start and a
/// goal in a box of radius `(i + u) / rows` of the longer side around it
/// (`u` uniform in `[0, 1)`), so lengths spread from short to across the
/// map; each length is exact ([`exact_length`]). A row whose window would
/// pass `window_cap` cells draws a nearer goal (radius halved), 48 times at
/// most. One windowed search or a few per row; `bar` counts the rows.
pub fn uniform_rows(
    grid: &Grid,
    comp: &Component,
    rows: usize,
    seed: u64,
    window_cap: u64,
    bar: &ProgressBar,
) -> Result<Vec<GenRow>, CliError> {
    let (w, h) = (grid.width(), grid.height());
    let side = f64::from(w.max(h));
    // A separate stream, so `--rows` does not change the map.
    let mut rng = SplitMix64::new(seed ^ 0x5CE4_A210_0000_0001);
    let mut jps = WindowedJps::new();
    let mut path = Vec::new();
    let mut out = Vec::with_capacity(rows.min(1 << 16));
    for i in 0..rows {
        let start = comp.pick(&mut rng);
        let mut radius = (side * (i as f64 + rng.unit()) / rows as f64)
            .ceil()
            .max(2.0) as u32;
        let mut tries = 0;
        loop {
            let goal = pick_goal(comp, &mut rng, start, radius, (w, h));
            if let Some(length) = exact_length(grid, &mut jps, &mut path, start, goal, window_cap)?
            {
                out.push(GenRow {
                    start,
                    goal,
                    length,
                });
                break;
            }
            tries += 1;
            if tries == 48 {
                return Err(CliError::Usage(format!(
                    "no goal for the row from {start} has a provably optimal length within \
                     search windows of {window_cap} cells (the memory budget's); raise \
                     --memory-budget"
                )));
            }
            radius = (radius / 2).max(1);
        }
        bar.inc(1);
    }
    out.sort_by_key(GenRow::bucket);
    Ok(out)
}

/// Rows under a movement profile: start and goal usable positions of the
/// largest component of the profile's position grid; one Dijkstra per row
/// on the profile's costs picks a goal near a target spread over the
/// start's range, and the exact A*'s cost under the profile, checked
/// against that Dijkstra, is the length. O(cells) memory per row (8 bytes
/// per cell): maps up to [`super::MAX_DETAIL_CELLS`] only.
pub fn profiled_rows(
    view: &ProfileGrid,
    comp: &Component,
    rows: usize,
    seed: u64,
    bar: &ProgressBar,
) -> Result<Vec<GenRow>, CliError> {
    let mut astar = AStar::new();
    let w = view.grid().width() as usize;
    let mut rng = SplitMix64::new(seed ^ 0x5CE4_A210_0000_0001);
    let mut out = Vec::with_capacity(rows.min(1 << 16));
    for i in 0..rows {
        let start = comp.pick(&mut rng);
        let dist = dijkstra::weighted_distances(view, start);
        let at = |p: Point| dist[p.y as usize * w + p.x as usize];
        let mut far = 0.0f64;
        comp.for_each(|p| far = far.max(at(p)));
        let target = far * (i as f64 + rng.unit()) / rows as f64;
        // A uniform pick among the cells within 2 of the target length
        // (reservoir sampling), else the nearest.
        let mut chosen: Option<Point> = None;
        let mut near = 0u64;
        let mut nearest = (f64::INFINITY, start);
        comp.for_each(|p| {
            if p == start {
                return;
            }
            let off = (at(p) - target).abs();
            if off <= 2.0 {
                near += 1;
                if rng.below(near) == 0 {
                    chosen = Some(p);
                }
            }
            if off < nearest.0 {
                nearest = (off, p);
            }
        });
        let goal = chosen.unwrap_or(nearest.1);
        let length = exact_cost(&mut astar, view, start, goal, at(goal))?;
        out.push(GenRow {
            start,
            goal,
            length,
        });
        bar.inc(1);
    }
    out.sort_by_key(GenRow::bucket);
    Ok(out)
}

/// The exact A*'s cost from `start` to `goal` over `view`, which must agree
/// with the Dijkstra cost `dijkstra` to a relative 1e-9.
fn exact_cost(
    astar: &mut AStar,
    view: &ProfileGrid,
    start: Point,
    goal: Point,
    dijkstra: f64,
) -> Result<f64, CliError> {
    let fail = |message: String| CliError::Algo {
        algo: "astar".into(),
        file: "generated map".into(),
        line: None,
        message,
    };
    let found = astar
        .find_path_weighted(view, start, goal)
        .map_err(|e| fail(e.to_string()))?;
    if found.status != Status::Found || (found.cost - dijkstra).abs() > 1e-9 * dijkstra.max(1.0) {
        return Err(fail(format!(
            "{start} -> {goal}: A* says {:?} at cost {}, Dijkstra {dijkstra}",
            found.status, found.cost
        )));
    }
    Ok(found.cost)
}

/// Rows for `grid` (under `profile` when given): the component, then
/// [`uniform_rows`] or [`profiled_rows`], each with its progress bar
/// unless hidden. Errors when the component has fewer than two cells.
pub fn scenario_rows(
    grid: &Grid,
    rows: usize,
    seed: u64,
    profile: Option<&Profile>,
    window_cap: u64,
    (hide_component, hide_rows): (bool, bool),
) -> Result<Vec<GenRow>, CliError> {
    let view = profile.map(|p| ProfileGrid::new(grid, p));
    let positions = view.as_ref().map_or(grid, |v| v.grid());
    let bar = crate::progress::bar(
        hide_component,
        u64::from(grid.height()),
        "connected component",
    );
    let comp = largest_component(positions, &bar);
    bar.finish_and_clear();
    if comp.count() < 2 {
        return Err(CliError::Usage(format!(
            "the generated map has no two connected {} to make scenario rows from",
            match profile {
                Some(p) => format!("usable positions for profile `{}`", p.name()),
                None => "cells".to_string(),
            }
        )));
    }
    let what = if view.is_some() {
        "scenario rows (Dijkstra and A* under the profile)"
    } else {
        "scenario rows (exact jump point search)"
    };
    let bar = crate::progress::bar(hide_rows, rows as u64, what);
    let r = match &view {
        Some(v) => profiled_rows(v, &comp, rows, seed, &bar),
        None => uniform_rows(grid, &comp, rows, seed, window_cap, &bar),
    };
    bar.finish_and_clear();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hidden() -> ProgressBar {
        ProgressBar::hidden()
    }

    /// The component against a plain breadth-first search over the
    /// 8 moves without corner cutting (the CLI's move rule).
    #[test]
    fn largest_component_matches_a_breadth_first_search() {
        let mut rng = SplitMix64::new(5);
        for (w, h, p) in [(10, 7, 0.6), (70, 40, 0.55), (130, 65, 0.7), (64, 64, 0.9)] {
            let mut g = Grid::new(w, h, false).unwrap();
            for y in 0..h {
                for x in 0..w {
                    if rng.chance(p) {
                        g.set_passable(Point::new(x, y), true).unwrap();
                    }
                }
            }
            // Oracle: BFS labels, largest first found in row-major order.
            let mut label = vec![usize::MAX; (w * h) as usize];
            let mut sizes = Vec::new();
            for y in 0..h {
                for x in 0..w {
                    let i = (y * w + x) as usize;
                    if label[i] != usize::MAX || !g.is_passable(Point::new(x, y)) {
                        continue;
                    }
                    let id = sizes.len();
                    label[i] = id;
                    let mut queue = std::collections::VecDeque::from([Point::new(x, y)]);
                    let mut n = 0u64;
                    while let Some(q) = queue.pop_front() {
                        n += 1;
                        dijkstra::for_each_move(&g, q.x, q.y, |nb, _| {
                            let j = (nb.y * w + nb.x) as usize;
                            if label[j] == usize::MAX {
                                label[j] = id;
                                queue.push_back(nb);
                            }
                        });
                    }
                    sizes.push(n);
                }
            }
            let best = (0..sizes.len()).fold(None::<usize>, |b, i| match b {
                Some(j) if sizes[j] >= sizes[i] => Some(j),
                _ => Some(i),
            });
            let comp = largest_component(&g, &hidden());
            let mut cells = Vec::new();
            comp.for_each(|p| cells.push(p));
            let want: Vec<Point> = (0..h)
                .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
                .filter(|p| best.is_some_and(|b| label[(p.y * w + p.x) as usize] == b))
                .collect();
            assert_eq!(cells, want, "{w}x{h}");
            assert_eq!(comp.count(), want.len() as u64);
            for (k, &p) in want.iter().enumerate() {
                assert_eq!(comp.nth(k as u64), p);
                assert!(comp.contains(p));
            }
        }
    }
}
