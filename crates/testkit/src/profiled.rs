//! An oracle for movement profiles, written from the rules alone (it reads
//! only the grid's size and terrain kinds and the profile's costs and size):
//!
//! * a position `(x, y)` covers the cells `x..x+k` × `y..y+k`; it is usable
//!   when all of them are on the map and priced by the profile, and costs
//!   the largest of their prices;
//! * 8 moves; a diagonal only when both orthogonal intermediate positions
//!   are usable; a step costs its length (1 or √2) times the mean of the
//!   costs of the two positions it joins.
//!
//! [`weighted_distance`] is a plain Dijkstra in `f64` over those rules,
//! [`check_weighted_path`] a path validator that recomputes the cost.

use crate::{Rng64, SplitMix64};
use regionpath_grid::{Grid, Point, Profile, Terrain};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The cost of position `(x, y)` (any coordinates) under `profile`, or
/// `None` when it is not usable: reads every cell of the footprint.
pub fn position_cost(grid: &Grid, profile: &Profile, x: i64, y: i64) -> Option<f64> {
    let k = i64::from(profile.size());
    let mut worst = 0.0f64;
    for cy in y..y + k {
        for cx in x..x + k {
            if cx < 0 || cy < 0 || cx >= i64::from(grid.width()) || cy >= i64::from(grid.height()) {
                return None;
            }
            let kind = grid.terrain(Point::new(cx as u32, cy as u32)).ok()?;
            worst = worst.max(profile.cost(kind)?);
        }
    }
    Some(worst)
}

/// The cost of the move from `(x, y)` by `(dx, dy)` given the position
/// costs `at`, or `None` when it is not a legal move.
fn step(at: &impl Fn(i64, i64) -> Option<f64>, x: i64, y: i64, dx: i64, dy: i64) -> Option<f64> {
    if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
        return None;
    }
    let from = at(x, y)?;
    let to = at(x + dx, y + dy)?;
    let length = if dx != 0 && dy != 0 {
        at(x + dx, y)?;
        at(x, y + dy)?;
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    Some(length * ((from + to) / 2.0))
}

/// The cost of a cheapest path from position `start` to position `goal`
/// under `profile`, or `None` when there is none (or an end is not usable).
/// Dijkstra over every position, O(n log n + n · k²) for n cells.
pub fn weighted_distance(grid: &Grid, profile: &Profile, start: Point, goal: Point) -> Option<f64> {
    dijkstra(grid, profile, start, Some(goal))
        .and_then(|d| d[(goal.y * grid.width() + goal.x) as usize])
}

/// The cost of a cheapest path from position `start` to every position
/// (row-major; `None`: unreachable or not usable), or `None` when `start`
/// is not usable. One Dijkstra over every position.
pub fn weighted_distances(
    grid: &Grid,
    profile: &Profile,
    start: Point,
) -> Option<Vec<Option<f64>>> {
    dijkstra(grid, profile, start, None)
}

/// Dijkstra from `start`, stopping when `goal` is settled.
fn dijkstra(
    grid: &Grid,
    profile: &Profile,
    start: Point,
    goal: Option<Point>,
) -> Option<Vec<Option<f64>>> {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let costs: Vec<Option<f64>> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| position_cost(grid, profile, x, y))
        .collect();
    let at = |x: i64, y: i64| {
        if x < 0 || y < 0 || x >= w || y >= h {
            None
        } else {
            costs[(y * w + x) as usize]
        }
    };
    let s = (i64::from(start.x), i64::from(start.y));
    at(s.0, s.1)?;
    if let Some(g) = goal {
        at(i64::from(g.x), i64::from(g.y))?;
    }
    let g = goal.map(|g| (i64::from(g.x), i64::from(g.y)));
    let mut dist = vec![f64::INFINITY; (w * h) as usize];
    let mut heap = BinaryHeap::new();
    dist[(s.1 * w + s.0) as usize] = 0.0;
    // Non-negative f64s order like their bit patterns.
    heap.push(Reverse((0u64, s.1 * w + s.0)));
    while let Some(Reverse((bits, i))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[i as usize] {
            continue;
        }
        let (x, y) = (i % w, i / w);
        if Some((x, y)) == g {
            break;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let Some(c) = step(&at, x, y, dx, dy) else {
                    continue;
                };
                let j = ((y + dy) * w + x + dx) as usize;
                if d + c < dist[j] {
                    dist[j] = d + c;
                    heap.push(Reverse(((d + c).to_bits(), j as i64)));
                }
            }
        }
    }
    Some(
        dist.into_iter()
            .map(|d| d.is_finite().then_some(d))
            .collect(),
    )
}

/// Checks that `path` runs from `start` to `goal` through usable positions
/// by legal single moves under `profile`; returns its cost, or a message
/// naming the first defect.
pub fn check_weighted_path(
    grid: &Grid,
    profile: &Profile,
    path: &[Point],
    start: Point,
    goal: Point,
) -> Result<f64, String> {
    let at = |x: i64, y: i64| position_cost(grid, profile, x, y);
    let (first, last) = match (path.first(), path.last()) {
        (Some(f), Some(l)) => (*f, *l),
        _ => return Err("empty path".into()),
    };
    if first != start || last != goal {
        return Err(format!(
            "path runs {first} to {last}, not {start} to {goal}"
        ));
    }
    if at(i64::from(first.x), i64::from(first.y)).is_none() {
        return Err(format!("position 0 {first} is not usable"));
    }
    let mut cost = 0.0;
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (x, y) = (i64::from(a.x), i64::from(a.y));
        let (dx, dy) = (i64::from(b.x) - x, i64::from(b.y) - y);
        match step(&at, x, y, dx, dy) {
            Some(c) => cost += c,
            None => return Err(format!("step {i} from {a} to {b} is not a legal move")),
        }
    }
    Ok(cost)
}

/// A `w × h` map of `kinds.len()` kinds laid in blobs: each cell copies
/// its left or upper neighbour with probability 3/5, else draws a kind.
pub fn random_terrain(rng: &mut SplitMix64, w: u32, h: u32, kinds: &[Terrain]) -> Grid {
    let mut rows: Vec<Vec<char>> = Vec::new();
    for y in 0..h as usize {
        let mut row = Vec::new();
        for x in 0..w as usize {
            let t = match rng.below(5) {
                0 | 1 if x > 0 => row[x - 1],
                2 if y > 0 => rows[y - 1][x],
                _ => kinds[rng.below(kinds.len() as u64) as usize].to_char(),
            };
            row.push(t);
        }
        rows.push(row);
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    Grid::from_rows(&rows).expect("printable kinds, at most 16")
}

/// `n` (at most 16) distinct printable characters, as kinds.
pub fn random_kinds(rng: &mut SplitMix64, n: usize) -> Vec<Terrain> {
    let mut kinds = Vec::new();
    while kinds.len() < n.min(16) {
        let c = (b'!' + rng.below(94) as u8) as char;
        let t = Terrain::from_char(c).expect("printable");
        if !kinds.contains(&t) {
            kinds.push(t);
        }
    }
    kinds
}

/// A profile of size `k` pricing a random non-empty subset of `kinds` (the
/// first always) at random costs: from a small set when `few_costs`, so
/// classes repeat and ties happen; else any of 0.5..10 with non-round
/// values.
pub fn random_profile(rng: &mut SplitMix64, kinds: &[Terrain], k: u32, few_costs: bool) -> Profile {
    let mut b = Profile::builder("random").size(k);
    for (i, t) in kinds.iter().enumerate() {
        if i > 0 && rng.below(4) == 0 {
            continue;
        }
        let cost = if few_costs {
            [1.0, 1.0, 2.0, 3.5][rng.below(4) as usize]
        } else {
            0.5 + rng.below(9_500_000) as f64 / 1_000_000.0
        };
        b = b.cost(t.to_char(), cost);
    }
    b.build().expect("valid random profile")
}

/// Rooms of 7 × 7 cells behind one-cell walls (`@`), `rooms` a side,
/// each room of one random kind: ground `.`, road `=`, forest `T` or swamp
/// `S` (ground twice as likely). The wall between two neighbouring rooms
/// has a one-cell door of ground at a random place (never a wall's corner)
/// always when `every_door`, else with probability 4/5.
pub fn rooms_with_terrain(rng: &mut impl Rng64, rooms: u32, every_door: bool) -> Grid {
    let side = (rooms * 8 + 1) as usize;
    let kinds = ['.', '.', '=', 'T', 'S'];
    let kind: Vec<char> = (0..rooms * rooms)
        .map(|_| kinds[rng.below(kinds.len() as u64) as usize])
        .collect();
    let mut cells = vec![vec!['@'; side]; side];
    for (y, row) in cells.iter_mut().enumerate().take(side - 1).skip(1) {
        for (x, c) in row.iter_mut().enumerate().take(side - 1).skip(1) {
            if x % 8 != 0 && y % 8 != 0 {
                *c = kind[(y / 8) * rooms as usize + x / 8];
            }
        }
    }
    let rooms = rooms as usize;
    for ry in 0..rooms {
        for rx in 0..rooms {
            // The door east of room (rx, ry), then the one south of it.
            if rx + 1 < rooms && (every_door || rng.below(5) != 0) {
                let y = ry * 8 + 1 + rng.below(7) as usize;
                cells[y][rx * 8 + 8] = '.';
            }
            if ry + 1 < rooms && (every_door || rng.below(5) != 0) {
                let x = rx * 8 + 1 + rng.below(7) as usize;
                cells[ry * 8 + 8][x] = '.';
            }
        }
    }
    let rows: Vec<String> = cells.iter().map(|r| r.iter().collect()).collect();
    Grid::from_rows(&rows).expect("walls and four kinds")
}

/// An infantry profile for [`rooms_with_terrain`]: ground 1, road 0.5,
/// forest 2, swamp 3, size 1.
pub fn infantry() -> Profile {
    Profile::builder("infantry")
        .cost('.', 1.0)
        .cost('=', 0.5)
        .cost('T', 2.0)
        .cost('S', 3.0)
        .build()
        .expect("valid costs")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_costs() {
        // Swamp costs 3; a 2-wide unit fits through the 2-cell gap only.
        let g = Grid::from_rows(&["..S..", "..S..", "@@.@@", ".....", "....."]).unwrap();
        let p = Profile::builder("u")
            .cost('.', 1.0)
            .cost('S', 3.0)
            .build()
            .unwrap();
        // (0,0) -> (4,0) along row 0: . . S . . = 1 + 2 + 2 + 1.
        let d = weighted_distance(&g, &p, Point::new(0, 0), Point::new(4, 0)).unwrap();
        assert!((d - 6.0).abs() < 1e-12, "{d}");
        let path = [0, 1, 2, 3, 4].map(|x| Point::new(x, 0));
        let c = check_weighted_path(&g, &p, &path, path[0], path[4]).unwrap();
        assert!((c - 6.0).abs() < 1e-12);
        // Through the one-cell gap: (2,1) S -> (2,2) . -> (2,3).
        let d = weighted_distance(&g, &p, Point::new(2, 1), Point::new(2, 3)).unwrap();
        assert!((d - 3.0).abs() < 1e-12, "{d}");
        let big = Profile::builder("t")
            .size(2)
            .cost('.', 1.0)
            .build()
            .unwrap();
        assert_eq!(position_cost(&g, &big, 0, 0), Some(1.0));
        assert_eq!(position_cost(&g, &big, 1, 0), None);
        assert_eq!(position_cost(&g, &big, 4, 3), None, "off the map");
        assert_eq!(
            weighted_distance(&g, &big, Point::new(0, 0), Point::new(0, 3)),
            None
        );
        assert!(check_weighted_path(
            &g,
            &p,
            &[Point::new(1, 1), Point::new(2, 2)],
            Point::new(1, 1),
            Point::new(2, 2)
        )
        .is_err());
    }
}
