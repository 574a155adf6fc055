//! Terrain painting for `regionpath generate --terrain`.
//!
//! Over the open cells of a generated map (walls stay walls), in this
//! order:
//!
//! 1. **Lakes** `W`: the open cells whose value of a smooth noise field `A`
//!    is among the lowest [`WATER_SHARE`] of all open cells.
//! 2. **Rivers** `W`: the largest lakes (up to [`RIVER_LAKES`], each of at
//!    least [`MIN_LAKE`] cells) are joined in a chain, each to the next by a
//!    shortest path through the open cells, painted two cells wide (the
//!    cell, its right and its lower neighbour), so a boat can sail from
//!    lake to lake.
//! 3. **Roads** `=`: [`roads`] shortest paths over the land (walls and
//!    water blocked) from a random land cell to the farthest of 16 random
//!    land cells it reaches; every other road is two cells wide.
//! 4. **Swamp** `S`: land cells (not road) whose `A` is among the lowest
//!    [`SWAMP_SHARE`] of the open cells: the lakes' shores.
//! 5. **Forest** `T`: land cells (not road, not swamp) whose value of a
//!    second field `B` is among the highest [`FOREST_SHARE`].
//!
//! The fields are value noise: a random value per lattice point (hashed
//! from the seed and the point by [`SplitMix64`]), blended with a
//! smoothstep, three octaves of halving size summed at halving weight.
//! Only IEEE additions, multiplications, divisions and `floor` are used,
//! so the same seed paints the same cells everywhere. Painting draws from
//! its own random stream, so the walls do not depend on `--terrain`.

use crate::dijkstra;
use crate::error::CliError;
use crate::rng::SplitMix64;
use regionpath::grid::{Grid, Point, Terrain};
use std::collections::VecDeque;

/// Share of the open cells that are lakes.
pub const WATER_SHARE: f64 = 0.10;
/// Share of the open cells whose field `A` is at most the swamp threshold
/// (lakes included: swamp takes the next 8 %, less roads).
pub const SWAMP_SHARE: f64 = 0.18;
/// Share of the open cells in the top of field `B` that become forest.
pub const FOREST_SHARE: f64 = 0.22;
/// Lakes joined by rivers, at most.
pub const RIVER_LAKES: usize = 4;
/// Smallest lake a river joins.
pub const MIN_LAKE: usize = 12;
/// The road character (cheap ground in the bundled profiles).
pub const ROAD: u8 = b'=';

/// Number of roads on a `width × height` map: 2 plus one per 256 cells of
/// the two sides' mean.
pub fn roads(width: u32, height: u32) -> usize {
    2 + ((width + height) / 512) as usize
}

/// Value noise: fractal sum of three octaves over a lattice of `scale`
/// cells, in `[0, 1]`.
fn fbm(seed: u64, x: f64, y: f64, scale: f64) -> f64 {
    let (mut sum, mut total, mut amp, mut s) = (0.0, 0.0, 1.0, scale);
    for octave in 0..3u64 {
        sum += amp * value_noise(seed.wrapping_add(octave), x / s, y / s);
        total += amp;
        amp *= 0.5;
        s *= 0.5;
    }
    sum / total
}

/// The random value of lattice point `(ix, iy)` in `[0, 1)`.
fn lattice(seed: u64, ix: i64, iy: i64) -> f64 {
    let h = seed
        ^ (ix as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (iy as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    SplitMix64::new(h).unit()
}

/// Bilinear blend of the four lattice values around `(x, y)` with
/// smoothstep weights.
fn value_noise(seed: u64, x: f64, y: f64) -> f64 {
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let fade = |t: f64| t * t * (3.0 - 2.0 * t);
    let (u, v) = (fade(x - fx), fade(y - fy));
    let a = lattice(seed, ix, iy);
    let b = lattice(seed, ix + 1, iy);
    let c = lattice(seed, ix, iy + 1);
    let d = lattice(seed, ix + 1, iy + 1);
    let top = a + (b - a) * u;
    let bottom = c + (d - c) * u;
    top + (bottom - top) * v
}

/// The value below which a `share` of `values` lies.
fn quantile(values: &[f64], share: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 * share) as usize).min(v.len().saturating_sub(1));
    v.get(i).copied().unwrap_or(0.0)
}

/// The map's characters while they are painted, row-major.
struct Canvas {
    width: u32,
    height: u32,
    kinds: Vec<u8>,
}

impl Canvas {
    fn at(&self, p: Point) -> u8 {
        self.kinds[p.y as usize * self.width as usize + p.x as usize]
    }

    /// Paints `(x, y)` with `kind` where it is on the map and currently one
    /// of `over`.
    fn paint(&mut self, x: u32, y: u32, kind: u8, over: &[u8]) {
        if x < self.width && y < self.height {
            let i = y as usize * self.width as usize + x as usize;
            if over.contains(&self.kinds[i]) {
                self.kinds[i] = kind;
            }
        }
    }

    /// A grid whose passable cells are the cells of kind `passable`.
    fn passable(&self, passable: &[u8]) -> Result<Grid, CliError> {
        let mut g = Grid::new(self.width, self.height, false)
            .map_err(|e| CliError::Usage(e.to_string()))?;
        for y in 0..self.height {
            for x in 0..self.width {
                let p = Point::new(x, y);
                if passable.contains(&self.at(p)) {
                    g.set_passable(p, true)
                        .map_err(|e| CliError::Usage(e.to_string()))?;
                }
            }
        }
        Ok(g)
    }
}

/// The 4-connected pieces of `kind` cells, largest first (ties by first
/// cell), each as its cells.
fn pieces(c: &Canvas, kind: u8) -> Vec<Vec<Point>> {
    let (w, h) = (c.width as usize, c.height as usize);
    let mut seen = vec![false; w * h];
    let mut out: Vec<Vec<Point>> = Vec::new();
    let mut queue = VecDeque::new();
    for start in 0..w * h {
        if seen[start] || c.kinds[start] != kind {
            continue;
        }
        seen[start] = true;
        let mut piece = Vec::new();
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            let (x, y) = (i % w, i / w);
            piece.push(Point::new(x as u32, y as u32));
            let mut visit = |j: usize| {
                if !seen[j] && c.kinds[j] == kind {
                    seen[j] = true;
                    queue.push_back(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        out.push(piece);
    }
    // Stable: equal sizes keep their scan order.
    out.sort_by_key(|p| std::cmp::Reverse(p.len()));
    out
}

/// Paints terrain over the open cells of `grid` (see the module
/// documentation) from `seed`; blocked cells keep their kind. Returns the
/// painted grid.
pub fn paint(grid: &Grid, seed: u64) -> Result<Grid, CliError> {
    let (w, h) = (grid.width(), grid.height());
    let mut rng = SplitMix64::new(seed ^ 0x7E22_A1B5_0000_0002);
    let field_seed_a = rng.next_u64();
    let field_seed_b = rng.next_u64();
    let scale = f64::from(w.min(h)) / 5.0;
    let mut canvas = Canvas {
        width: w,
        height: h,
        kinds: Vec::with_capacity(w as usize * h as usize),
    };
    let mut open = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x, y);
            let passable = grid.is_passable(p);
            canvas.kinds.push(if passable { b'.' } else { b'@' });
            if passable {
                open.push(p);
            }
        }
    }
    if open.is_empty() {
        return Ok(grid.clone());
    }
    let field = |s: u64, p: Point, scale: f64| fbm(s, f64::from(p.x), f64::from(p.y), scale);
    let a: Vec<f64> = open
        .iter()
        .map(|&p| field(field_seed_a, p, scale))
        .collect();
    let b: Vec<f64> = open
        .iter()
        .map(|&p| field(field_seed_b, p, scale / 2.0))
        .collect();
    let (water, swamp) = (quantile(&a, WATER_SHARE), quantile(&a, SWAMP_SHARE));
    let forest = quantile(&b, 1.0 - FOREST_SHARE);

    // 1. Lakes.
    for (&p, &v) in open.iter().zip(&a) {
        if v < water {
            canvas.paint(p.x, p.y, b'W', b".");
        }
    }
    // 2. Rivers from lake to lake, through open cells.
    let lakes: Vec<Vec<Point>> = pieces(&canvas, b'W')
        .into_iter()
        .filter(|l| l.len() >= MIN_LAKE)
        .take(RIVER_LAKES)
        .collect();
    for pair in lakes.windows(2) {
        let from = pair[0][rng.below(pair[0].len() as u64) as usize];
        let to = pair[1][rng.below(pair[1].len() as u64) as usize];
        if let Some(river) = dijkstra::shortest_path(grid, from, to) {
            for p in river {
                for (dx, dy) in [(0, 0), (1, 0), (0, 1)] {
                    canvas.paint(p.x + dx, p.y + dy, b'W', b".");
                }
            }
        }
    }
    // 3. Roads over the land.
    let land = canvas.passable(b".")?;
    let land_cells: Vec<Point> = open
        .iter()
        .copied()
        .filter(|&p| canvas.at(p) == b'.')
        .collect();
    if !land_cells.is_empty() {
        for road in 0..roads(w, h) {
            let pick =
                |rng: &mut SplitMix64| land_cells[rng.below(land_cells.len() as u64) as usize];
            let start = pick(&mut rng);
            let dist = dijkstra::distances(&land, start);
            let far = (0..16)
                .map(|_| pick(&mut rng))
                .filter(|p| dist[p.y as usize * w as usize + p.x as usize].is_finite())
                .max_by(|p, q| {
                    let d = |p: &Point| dist[p.y as usize * w as usize + p.x as usize];
                    d(p).total_cmp(&d(q))
                });
            let Some(goal) = far else { continue };
            let Some(path) = dijkstra::shortest_path(&land, start, goal) else {
                continue;
            };
            for p in path {
                canvas.paint(p.x, p.y, ROAD, b".");
                if road % 2 == 1 {
                    canvas.paint(p.x + 1, p.y, ROAD, b".");
                }
            }
        }
    }
    // 4. Swamp on the shores, 5. forest.
    for ((&p, &va), &vb) in open.iter().zip(&a).zip(&b) {
        if va < swamp {
            canvas.paint(p.x, p.y, b'S', b".");
        } else if vb > forest {
            canvas.paint(p.x, p.y, b'T', b".");
        }
    }
    let mut out = grid.clone();
    for &p in &open {
        let k = canvas.at(p);
        if k != b'.' {
            let t = Terrain::from_char(char::from(k)).ok_or_else(|| {
                CliError::Usage(format!("terrain painter: {:?} is no kind", char::from(k)))
            })?;
            out.set_terrain(p, t)
                .map_err(|e| CliError::Usage(e.to_string()))?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_grid(w: u32, h: u32) -> Grid {
        Grid::new(w, h, true).unwrap()
    }

    #[test]
    fn noise_is_smooth_and_in_range() {
        for i in 0..2000 {
            let (x, y) = (f64::from(i % 97) * 1.37, f64::from(i / 97) * 2.11);
            let v = fbm(5, x, y, 20.0);
            assert!((0.0..=1.0).contains(&v), "{v}");
            // Neighbouring cells differ little on a 20-cell lattice.
            let u = fbm(5, x + 1.0, y, 20.0);
            assert!((u - v).abs() < 0.35, "{u} {v}");
        }
    }

    #[test]
    fn painting_keeps_walls_and_is_seeded() {
        let mut g = open_grid(96, 80);
        for y in 0..80 {
            g.set_passable(Point::new(40, y), y % 10 == 0).unwrap();
        }
        let a = paint(&g, 3).unwrap();
        assert_eq!(a, paint(&g, 3).unwrap());
        assert_ne!(a, paint(&g, 4).unwrap());
        let mut count = std::collections::BTreeMap::new();
        for y in 0..80 {
            for x in 0..96 {
                let p = Point::new(x, y);
                let t = a.terrain(p).unwrap().to_char();
                if !g.is_passable(p) {
                    assert_eq!(t, '@', "{p}: walls stay walls");
                } else {
                    assert!(".WST=".contains(t), "{p}: {t}");
                }
                *count.entry(t).or_insert(0usize) += 1;
            }
        }
        for k in ['.', 'W', 'S', 'T', '='] {
            assert!(count.get(&k).copied().unwrap_or(0) > 20, "{k}: {count:?}");
        }
    }
}
