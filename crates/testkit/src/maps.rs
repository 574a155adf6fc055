//! Random maps shared by the tests (obstacles, mazes, rooms, spirals,
//! caves). Every builder takes the caller's draw
//! `below(n)` (a number in `0..n`, e.g. `&mut |n| rng.below(n)`), so the
//! same seed gives the same map whatever generator the caller uses.

use regionpath_grid::{Grid, Point};

/// A `w × h` grid (both ≥ 1) whose cells are blocked when `below(100) <
/// percent`: one draw per cell, row by row, left to right.
pub fn obstacles(w: u32, h: u32, percent: u64, below: &mut impl FnMut(u64) -> u64) -> Grid {
    let mut g = Grid::new(w, h, true).expect("a valid size");
    for y in 0..h {
        for x in 0..w {
            if below(100) < percent {
                g.set_passable(Point::new(x, y), false).expect("in bounds");
            }
        }
    }
    g
}

/// The order in which [`maze`] lists a room's neighbours: east, west,
/// south, north.
pub const EAST_FIRST: [(i64, i64); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The order in which [`maze`] lists a room's neighbours: west, east,
/// north, south.
pub const WEST_FIRST: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A perfect maze of one-cell corridors on a `w × h` grid (each ≥ 3 when
/// `walled`, ≥ 1 otherwise): rooms at odd coordinates inside a one-cell
/// outer wall (`walled`, `(w − 1) / 2` rooms across), or at even
/// coordinates from the corner (`(w + 1) / 2` across). A randomised
/// depth-first walk from room (0, 0) opens the wall cell between a room and
/// a neighbour not yet seen, chosen by one draw `below(k)` among the `k`
/// unseen neighbours listed in `order` ([`EAST_FIRST`] or [`WEST_FIRST`]).
/// Every room is reachable and the corridors form a tree.
pub fn maze(
    w: u32,
    h: u32,
    walled: bool,
    order: [(i64, i64); 4],
    below: &mut impl FnMut(u64) -> u64,
) -> Grid {
    let mut g = Grid::new(w, h, false).expect("a valid size");
    let o = u32::from(walled);
    let (rw, rh) = ((w + 1 - 2 * o) / 2, (h + 1 - 2 * o) / 2);
    let room = |x: u32, y: u32| Point::new(2 * x + o, 2 * y + o);
    let mut seen = vec![false; (rw * rh) as usize];
    let mut stack = vec![(0u32, 0u32)];
    seen[0] = true;
    g.set_passable(room(0, 0), true).expect("in bounds");
    while let Some(&(x, y)) = stack.last() {
        let next: Vec<(u32, u32)> = order
            .iter()
            .map(|&(dx, dy)| (i64::from(x) + dx, i64::from(y) + dy))
            .filter(|&(nx, ny)| nx >= 0 && ny >= 0 && nx < i64::from(rw) && ny < i64::from(rh))
            .map(|(nx, ny)| (nx as u32, ny as u32))
            .filter(|&(nx, ny)| !seen[(ny * rw + nx) as usize])
            .collect();
        if next.is_empty() {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[below(next.len() as u64) as usize];
        seen[(ny * rw + nx) as usize] = true;
        let (a, b) = (room(x, y), room(nx, ny));
        g.set_passable(Point::new((a.x + b.x) / 2, (a.y + b.y) / 2), true)
            .expect("in bounds");
        g.set_passable(b, true).expect("in bounds");
        stack.push((nx, ny));
    }
    g
}

/// Opens up to `count` wall cells of `g` (width and height ≥ 3) to add
/// loops to a walled [`maze`]: per try, a cell off the outer wall by two
/// draws (`1 + below(w − 2)`, `1 + below(h − 2)`), opened when `x + y` is odd
/// (a wall between two rooms, not a corner post).
pub fn knock_through(g: &mut Grid, count: u32, below: &mut impl FnMut(u64) -> u64) {
    let (w, h) = (g.width(), g.height());
    for _ in 0..count {
        let p = Point::new(
            1 + below(u64::from(w) - 2) as u32,
            1 + below(u64::from(h) - 2) as u32,
        );
        if (p.x + p.y) % 2 == 1 {
            g.set_passable(p, true).expect("in bounds");
        }
    }
}

/// A `width × height` grid whose cell `(x, y)` is passable exactly when
/// `open(x, y)`: small hand-drawn test maps as a formula.
pub fn open_where(width: u32, height: u32, open: impl Fn(u32, u32) -> bool) -> Grid {
    let mut grid = Grid::new(width, height, false).expect("a non-empty size");
    for y in 0..height {
        for x in 0..width {
            if open(x, y) {
                grid.set_passable(Point::new(x, y), true)
                    .expect("in bounds");
            }
        }
    }
    grid
}

/// A random open cell: up to 1000 tries of two draws each (`below(w)`,
/// `below(h)`), the first passable one, or `None`.
pub fn random_open(grid: &Grid, below: &mut impl FnMut(u64) -> u64) -> Option<Point> {
    for _ in 0..1000 {
        let p = Point::new(
            below(u64::from(grid.width())) as u32,
            below(u64::from(grid.height())) as u32,
        );
        if grid.is_passable(p) {
            return Some(p);
        }
    }
    None
}

/// A lattice of rectangular rooms on a `w × h` grid (both ≥ 1): rooms of
/// `room × room` cells (`room` ≥ 1) separated by one-cell walls, the last
/// row and column of rooms cut short by the map's edge. Each wall between
/// two rooms gets a door of one or two cells at a random place with
/// probability `door_percent` %; then every wall that still joins two
/// unconnected parts gets one too (so every room is reachable). Draws:
/// per wall (rooms row by row, the east wall before the south one) one
/// `below(100)`, and for a door one `below(len)` for its place and one
/// `below(2)` for its width; then the same two per joining door.
pub fn rooms(
    w: u32,
    h: u32,
    room: u32,
    door_percent: u64,
    below: &mut impl FnMut(u64) -> u64,
) -> Grid {
    let room = room.max(1);
    let mut g = Grid::new(w, h, true).expect("a valid size");
    let pitch = room + 1;
    for y in 0..h {
        for x in 0..w {
            if x % pitch == room || y % pitch == room {
                g.set_passable(Point::new(x, y), false).expect("in bounds");
            }
        }
    }
    let (rw, rh) = (w.div_ceil(pitch), h.div_ceil(pitch));
    // Union-find over rooms: a wall that joins two parts always gets a door.
    let mut parent: Vec<u32> = (0..rw * rh).collect();
    fn root(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            parent[a as usize] = parent[parent[a as usize] as usize];
            a = parent[a as usize];
        }
        a
    }
    let mut walls = Vec::new();
    for ry in 0..rh {
        for rx in 0..rw {
            for (east, (nx, ny)) in [(true, (rx + 1, ry)), (false, (rx, ry + 1))] {
                if nx < rw && ny < rh {
                    walls.push((rx, ry, east));
                }
            }
        }
    }
    let place = |g: &mut Grid, rx: u32, ry: u32, east: bool, below: &mut dyn FnMut(u64) -> u64| {
        let (x0, y0) = (rx * pitch, ry * pitch);
        // The wall's cells run along the room's side, clipped to the map.
        let len = if east {
            room.min(h - y0)
        } else {
            room.min(w - x0)
        };
        let at = below(u64::from(len)) as u32;
        let width = 1 + below(2) as u32;
        for i in at..(at + width).min(len) {
            let p = if east {
                Point::new(x0 + room, y0 + i)
            } else {
                Point::new(x0 + i, y0 + room)
            };
            g.set_passable(p, true).expect("in bounds");
        }
    };
    // The two rooms a wall between (rx, ry) and its east or south
    // neighbour separates.
    let rooms_joined = |rx: u32, ry: u32, east: bool| {
        let a = ry * rw + rx;
        (a, if east { a + 1 } else { a + rw })
    };
    let mut open = vec![false; walls.len()];
    for (k, &(rx, ry, east)) in walls.iter().enumerate() {
        if below(100) < door_percent {
            place(&mut g, rx, ry, east, below);
            open[k] = true;
            let (a, b) = rooms_joined(rx, ry, east);
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra as usize] = rb;
        }
    }
    for (k, &(rx, ry, east)) in walls.iter().enumerate() {
        let (a, b) = rooms_joined(rx, ry, east);
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if !open[k] && ra != rb {
            place(&mut g, rx, ry, east, below);
            parent[ra as usize] = rb;
        }
    }
    g
}

/// A rectangular spiral on a `w × h` grid (both ≥ 1): one corridor
/// `corridor` cells wide (≥ 1) winding inwards from the top-left corner,
/// clockwise, with one-cell walls between its turns; the whole map is one
/// long corridor, the worst case for a planner that trusts straight-line
/// distance. Mirrored left-right when `mirror` (counter-clockwise from the
/// top-right corner). No draws.
pub fn spiral(w: u32, h: u32, corridor: u32, mirror: bool) -> Grid {
    let c = i64::from(corridor.max(1));
    let (wi, hi) = (i64::from(w), i64::from(h));
    let mut g = Grid::new(w, h, false).expect("a valid size");
    // The corridor is swept by a c × c brush whose top-left corner moves
    // east, south, west and north in turn; each turn pulls that side's
    // bound in by c + 1 so a one-cell wall stays between passes.
    let mut carve = |x: i64, y: i64| {
        for dy in 0..c {
            for dx in 0..c {
                let (px, py) = (x + dx, y + dy);
                if px >= 0 && py >= 0 && px < wi && py < hi {
                    let px = if mirror { wi - 1 - px } else { px };
                    g.set_passable(Point::new(px as u32, py as u32), true)
                        .expect("in bounds");
                }
            }
        }
    };
    let (mut left, mut top, mut right, mut bottom) = (0i64, 0i64, (wi - c).max(0), (hi - c).max(0));
    let (mut x, mut y) = (0i64, 0i64);
    carve(x, y);
    loop {
        while x < right {
            x += 1;
            carve(x, y);
        }
        top += c + 1;
        if top > bottom {
            break;
        }
        while y < bottom {
            y += 1;
            carve(x, y);
        }
        right -= c + 1;
        if right < left {
            break;
        }
        while x > left {
            x -= 1;
            carve(x, y);
        }
        bottom -= c + 1;
        if bottom < top {
            break;
        }
        while y > top {
            y -= 1;
            carve(x, y);
        }
        left += c + 1;
        if left > right {
            break;
        }
    }
    g
}

/// Caves on a `w × h` grid (both ≥ 1) by a cellular automaton: each cell
/// rock when `below(100) < rock_percent` (one draw per cell, row by row),
/// then `rounds` rounds of "rock when at least 5 of its 3 × 3 block are
/// rock" (cells off the map count as rock). Caverns of every size, often
/// several unconnected ones, joined by winding passages.
pub fn caves(
    w: u32,
    h: u32,
    rock_percent: u64,
    rounds: u32,
    below: &mut impl FnMut(u64) -> u64,
) -> Grid {
    let (wu, hu) = (w as usize, h as usize);
    let mut rock: Vec<bool> = (0..wu * hu).map(|_| below(100) < rock_percent).collect();
    for _ in 0..rounds {
        let at = |rock: &[bool], x: i64, y: i64| {
            x < 0 || y < 0 || x >= w as i64 || y >= h as i64 || rock[y as usize * wu + x as usize]
        };
        let next: Vec<bool> = (0..wu * hu)
            .map(|i| {
                let (x, y) = ((i % wu) as i64, (i / wu) as i64);
                let mut n = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        n += usize::from(at(&rock, x + dx, y + dy));
                    }
                }
                n >= 5
            })
            .collect();
        rock = next;
    }
    let mut g = Grid::new(w, h, true).expect("a valid size");
    for (i, &r) in rock.iter().enumerate() {
        if r {
            let p = Point::new((i % wu) as u32, (i / wu) as u32);
            g.set_passable(p, false).expect("in bounds");
        }
    }
    g
}

/// Random obstacles (`percent` %) with about one walled pocket per 40
/// cells: rectangles of 1–5 × 1–5 open cells inside a one-cell wall, so
/// many pieces are closed off from the rest (islands, sealed pockets).
/// Needs `w, h >= 7`.
pub fn islands(w: u32, h: u32, percent: u64, below: &mut impl FnMut(u64) -> u64) -> Grid {
    let mut g = obstacles(w, h, percent, below);
    for _ in 0..(w * h) / 40 {
        let (cx, cy) = (
            1 + below(u64::from(w) - 6) as u32,
            1 + below(u64::from(h) - 6) as u32,
        );
        let (rw, rh) = (1 + below(5) as u32, 1 + below(5) as u32);
        for y in cy - 1..=(cy + rh).min(h - 1) {
            for x in cx - 1..=(cx + rw).min(w - 1) {
                let wall = x == cx - 1 || y == cy - 1 || x == cx + rw || y == cy + rh;
                g.set_passable(Point::new(x, y), !wall).expect("in bounds");
            }
        }
    }
    g
}

/// A 64 × 48 map with a wall across it (columns 29–33) and two ways
/// through: a one-cell dogleg near the top (in on row 8, up column 31, out
/// on row 5: two right-angle bends no vehicle of turning radius 2 fits)
/// and a gap of rows 34–41 far below it. The vehicle tests route from
/// (8, 8) to (56, 5): the cell path takes the dogleg, a legal curve the
/// gap.
pub fn dogleg_wall() -> Grid {
    grid_where(64, 48, |x, y| wall_open(x, y, 29, 34..42))
}

/// A `w` × `h` grid whose cell (x, y) is passable where `open(x, y)`.
fn grid_where(w: u32, h: u32, open: impl Fn(u32, u32) -> bool) -> Grid {
    let rows: Vec<String> = (0..h)
        .map(|y| (0..w).map(|x| if open(x, y) { '.' } else { '@' }).collect())
        .collect();
    Grid::from_rows(&rows).expect("a rectangular map")
}

/// Whether cell (x, y) is open in a map crossed by a five-column wall
/// from column `w` with the two ways through of [`dogleg_wall`]: the rows
/// of `gap`, and a one-cell dogleg (in on row 8 from the left, up column
/// `w + 2`, out on row 5). Cells off the wall are open.
fn wall_open(x: u32, y: u32, w: u32, gap: std::ops::Range<u32>) -> bool {
    let wall = (w..=w + 4).contains(&x);
    let dogleg = (y == 8 && (w..=w + 2).contains(&x))
        || (x == w + 2 && (5..=8).contains(&y))
        || (y == 5 && (w + 2..=w + 4).contains(&x));
    !wall || gap.contains(&y) || dogleg
}

/// A 90 × 90 field cut by a wall at columns 40–41 with a one-cell gap at
/// row 20 and, when `wide`, a second gap of rows 55–69. The vehicle tests
/// route a unit of radius 1 from (12, 20) to (78, 20): the cell path (for
/// one-cell units) takes the one-cell gap, which the unit cannot pass; a
/// legal curve goes round through the wide gap.
pub fn narrow_and_wide_gap(wide: bool) -> Grid {
    open_where(90, 90, |x, y| {
        !(40..42).contains(&x) || y == 20 || (wide && (55..70).contains(&y))
    })
}

/// A 560 × 560 map, mostly blocked: a room in the top left corner (rows
/// 0–109, columns 0–119) split by a wall at columns 30–34 with two ways
/// through, a one-cell dogleg near row 5 (as in [`dogleg_wall`]: no
/// vehicle of turning radius 2 fits) and a gap on the rows of `gap`
/// (inside 10..110); from the room a corridor 40 cells wide runs down
/// columns 80–119 and then right along rows 520–559. The vehicle tests
/// route from (8, 8) to (540, 540): the cell path takes the dogleg, a
/// legal curve the gap some 85 cells away, and the path's box is the whole
/// map (313,600 cells). A gap of eight rows (90..98) leaves room to turn
/// beside it; one of two rows (90..92) a vehicle of unit radius 0.4 drives
/// through straight, but no cell in it has all eight neighbours open.
pub fn far_gap_rows(gap: std::ops::Range<u32>) -> Grid {
    grid_where(560, 560, |x, y| {
        let room = y < 110 && x < 120;
        let corridor = (80..120).contains(&x) || (y >= 520 && x >= 80);
        (room && wall_open(x, y, 30, gap.clone())) || corridor
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng64, SplitMix64};

    #[test]
    fn mazes_are_connected_trees() {
        for walled in [false, true] {
            let mut rng = SplitMix64(3);
            let g = maze(21, 15, walled, EAST_FIRST, &mut |n| rng.below(n));
            let cells = crate::passable_cells(&g);
            let from = cells[0];
            let d = crate::distances(&g, from);
            assert!(cells
                .iter()
                .all(|p| d[(p.y * g.width() + p.x) as usize].is_finite()));
            // A tree of one-cell corridors: cells = 2 × rooms − 1.
            let rooms = if walled { 10 * 7 } else { 11 * 8 };
            assert_eq!(cells.len(), 2 * rooms - 1);
        }
    }

    /// Every passable cell of `g` reachable from the first one.
    fn connected(g: &Grid) -> bool {
        let cells = crate::passable_cells(g);
        let d = crate::distances(g, cells[0]);
        cells
            .iter()
            .all(|p| d[(p.y * g.width() + p.x) as usize].is_finite())
    }

    #[test]
    fn rooms_are_all_reachable() {
        let mut rng = SplitMix64(5);
        for (w, h, room, doors) in [(40, 30, 5, 0), (41, 17, 3, 30), (9, 60, 7, 100)] {
            let g = rooms(w, h, room, doors, &mut |n| rng.below(n));
            assert!(connected(&g), "{w}x{h}");
            // One-cell walls on the lattice, doors only in walls.
            assert!(!g.is_passable(Point::new(room, room)));
            assert!(g.is_passable(Point::new(0, 0)));
        }
    }

    #[test]
    fn spirals_are_one_winding_corridor() {
        for (w, h, c) in [(10, 68, 1), (31, 23, 2), (40, 40, 3), (8, 8, 1)] {
            for mirror in [false, true] {
                let g = spiral(w, h, c, mirror);
                assert!(connected(&g), "{w}x{h} {c}");
                // Far longer than the map is wide or high: the corridor
                // winds (from the first cell to the farthest).
                let cells = crate::passable_cells(&g);
                let d = crate::distances(&g, cells[0]);
                let far = cells
                    .iter()
                    .map(|p| d[(p.y * w + p.x) as usize])
                    .fold(0.0, f64::max);
                assert!(far > 2.0 * f64::from(w.max(h)), "{w}x{h} {c}: {far}");
            }
        }
        // Counter-clockwise from the top-right corner.
        let g = spiral(12, 12, 1, true);
        assert!(g.is_passable(Point::new(11, 0)) && g.is_passable(Point::new(11, 11)));
        assert!(!g.is_passable(Point::new(1, 5)) && g.is_passable(Point::new(0, 5)));
    }

    #[test]
    fn caves_follow_the_rule() {
        let mut rng = SplitMix64(9);
        let g = caves(50, 40, 45, 4, &mut |n| rng.below(n));
        let open = g.passable_count();
        assert!(open > 500 && open < 1500, "{open}");
        // No rounds: the draws as they fell.
        let g = caves(3, 2, 50, 0, &mut |_| 0);
        assert_eq!(g.passable_count(), 0);
    }

    #[test]
    fn obstacles_follow_the_draws() {
        let g = obstacles(3, 2, 50, &mut |_| 0);
        assert_eq!(g.passable_count(), 0);
        let g = obstacles(3, 2, 50, &mut |_| 99);
        assert_eq!(g.passable_count(), 6);
    }
}
