//! The movement profile a hierarchy serves: the profile, its view of the
//! grid and the step costs (see `build/profiled.rs` for how a hierarchy is
//! built for one, and [`crate::Hierarchy::build_with_profile`]).

use regionpath_grid::{Grid, Point, Profile, ProfileGrid, SQRT2};
use regionpath_search::{Cost, StepTable, COST_ONE};

/// The profile a hierarchy was built for and its view of the grid.
#[derive(Clone, Debug)]
pub(crate) struct ProfileData {
    pub(crate) profile: Profile,
    pub(crate) view: ProfileGrid,
    /// What its queries read beside the view.
    pub(crate) tables: QueryTables,
}

/// Side of the blocks of [`ProfileData`]'s distances to the cheapest
/// class, in positions: 1/16 byte per position.
pub(crate) const NEAR_BLOCK: u32 = 4;

/// Side of the blocks of [`ProfileData::window_floor`], in positions.
pub(crate) const FLOOR_BLOCK: u32 = 16;

impl ProfileData {
    /// The view of `grid` for `profile` and the tables its queries read.
    /// O(cells · size).
    pub(crate) fn new(grid: &Grid, profile: &Profile) -> ProfileData {
        let view = ProfileGrid::new(grid, profile);
        let tables = QueryTables::new(&view);
        ProfileData::from_parts(profile, view, tables)
    }

    /// The data of `profile` from its view and the tables made from it.
    pub(crate) fn from_parts(
        profile: &Profile,
        view: ProfileGrid,
        tables: QueryTables,
    ) -> ProfileData {
        ProfileData {
            profile: profile.clone(),
            view,
            tables,
        }
    }
}

/// What a profile's queries read beside its view (the step costs and the
/// heuristic's block tables): made from the view alone, so a build makes
/// them while it builds the hierarchy from the same view.
#[derive(Clone, Debug)]
pub(crate) struct QueryTables {
    /// The step costs, where the view's costs differ (`None`: uniform).
    pub(crate) table: Option<StepTable>,
    /// Per [`FLOOR_BLOCK`]-square block of positions (row-major), the
    /// cheapest cost class of a usable position in it (`u8::MAX`: none);
    /// empty when uniform. A leg search prices its heuristic at the
    /// cheapest class of its window ([`ProfileData::window_floor`]): a
    /// window without roads then gets a heuristic twice as tight as one
    /// priced at the road's cost.
    block_floor: Vec<u8>,
    /// Blocks per row of `block_floor`.
    blocks_wide: u32,
    /// Per [`NEAR_BLOCK`]-square block of positions (row-major), the
    /// octile distance in whole positions, rounded down and capped at 255,
    /// from the block to the nearest block holding a usable position of
    /// the cheapest class (0 for such a block; walls ignored), measured
    /// from block to block in steps of [`NEAR_BLOCK`]; empty when uniform.
    /// See [`LegHeuristic`].
    near_cheapest: Vec<u8>,
    /// Blocks per row of `near_cheapest`.
    near_wide: u32,
}

impl QueryTables {
    /// The tables of `view`: O(positions).
    pub(crate) fn new(view: &ProfileGrid) -> QueryTables {
        let table = (!view.is_uniform()).then(|| StepTable::new(view));
        let (w, h) = (view.grid().width(), view.grid().height());
        let blocks_wide = w.div_ceil(FLOOR_BLOCK);
        let mut block_floor = Vec::new();
        let near_wide = w.div_ceil(NEAR_BLOCK);
        let mut near_cheapest = Vec::new();
        if table.is_some() {
            near_cheapest = vec![u8::MAX; (near_wide * h.div_ceil(NEAR_BLOCK)) as usize];
            block_floor = vec![u8::MAX; (blocks_wide * h.div_ceil(FLOOR_BLOCK)) as usize];
            let positions = view.grid();
            for y in 0..h {
                let row = &mut block_floor[(y / FLOOR_BLOCK * blocks_wide) as usize..];
                let start = positions.padded_index(Point::new(0, y));
                for (bx, b) in row[..blocks_wide as usize].iter_mut().enumerate() {
                    let x0 = bx * FLOOR_BLOCK as usize;
                    let x1 = (x0 + FLOOR_BLOCK as usize).min(w as usize);
                    for i in start + x0..start + x1 {
                        if positions.passable_padded(i) {
                            let c = view.cost_class_padded(i);
                            *b = (*b).min(c);
                            if c == 0 {
                                let q = (y / NEAR_BLOCK * near_wide) as usize
                                    + (i - start) / NEAR_BLOCK as usize;
                                near_cheapest[q] = 0;
                            }
                        }
                    }
                }
            }
            chamfer(&mut near_cheapest, near_wide as usize);
        }
        QueryTables {
            table,
            block_floor,
            blocks_wide,
            near_cheapest,
            near_wide,
        }
    }
}

impl ProfileData {
    /// The heuristic of a leg search confined to the `width` × `height`
    /// rectangle at `(x, y)` (see [`LegHeuristic`]); `None` when costs are
    /// uniform. O(blocks the rectangle touches).
    pub(crate) fn leg_heuristic(
        &self,
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    ) -> Option<LegHeuristic<'_>> {
        let table = self.tables.table.as_ref()?;
        let floor = self.window_floor(x, y, width, height);
        let costs = self.view.class_costs();
        // Two classes apart only where the window holds the cheapest one.
        let gap = if floor == 0 && costs.len() >= 2 {
            (costs[1] - costs[0]) * COST_ONE as f64 * (1.0 - 1e-9)
        } else {
            0.0
        };
        Some(LegHeuristic {
            table,
            floor,
            gap,
            near: &self.tables.near_cheapest,
            near_wide: self.tables.near_wide,
            to_target: 0.0,
        })
    }

    /// The cheapest cost class of a usable position in the `width` ×
    /// `height` rectangle at `(x, y)` or in the blocks around it (0 when
    /// uniform, or when the rectangle holds none): every step of a search
    /// confined to the rectangle costs at least that class's step, so
    /// [`StepTable::octile_from`] at it is an admissible, consistent
    /// heuristic there. O(blocks the rectangle touches).
    pub(crate) fn window_floor(&self, x: u32, y: u32, width: u32, height: u32) -> u8 {
        if self.tables.block_floor.is_empty() || width == 0 || height == 0 {
            return 0;
        }
        let mut floor = u8::MAX;
        for by in y / FLOOR_BLOCK..=(y + height - 1) / FLOOR_BLOCK {
            let row = (by * self.tables.blocks_wide) as usize;
            for bx in x / FLOOR_BLOCK..=(x + width - 1) / FLOOR_BLOCK {
                if let Some(&c) = self.tables.block_floor.get(row + bx as usize) {
                    floor = floor.min(c);
                }
            }
        }
        if floor == u8::MAX {
            0
        } else {
            floor
        }
    }

    /// Bytes held: the view, the step table and the block tables.
    pub(crate) fn bytes(&self) -> usize {
        self.view.bytes()
            + self.tables.table.as_ref().map_or(0, StepTable::bytes)
            + self.tables.block_floor.capacity()
            + self.tables.near_cheapest.capacity()
    }

    /// Cost of the cheapest position (the lower bound of every step's
    /// cost per unit length).
    pub(crate) fn floor(&self) -> f64 {
        self.view.class_costs().first().copied().unwrap_or(1.0)
    }
}

/// The heuristic of a leg search under a profile whose costs differ, in
/// the search's fixed-point cost units: the octile distance priced at
/// the window's cheapest class (as [`StepTable::octile_from`]), and, where
/// that class is the map's cheapest (roads), the larger bound of a path
/// that must first walk to the cheapest terrain: the lesser of
/// * `octile · c1` (a path that never enters the cheapest class pays at
///   least the next class `c1` per unit of length), and
/// * `octile · c0 + (c1 − c0) · (d(p) + d(t) − √2)`, with `d` a lower bound
///   on the distance to the nearest position of the cheapest class `c0`
///   (a path that enters it pays `c1` rather than `c0` on the way there
///   and on the way back to a target off it, less half a step at each
///   end, where the step joining the two classes is priced at their mean).
///
/// `d(p)` comes from [`ProfileData`]'s distances between
/// [`NEAR_BLOCK`]-square blocks, less `3√2` (the most two positions of
/// two blocks can be nearer than the blocks' steps say), so it never
/// exceeds the true distance: the heuristic stays admissible. It is not
/// consistent across block edges (it may drop by up to `(c1 − c0)·4√2`
/// in one step), so a leg may miss its window's optimum where roads are
/// near; the leg searches are near-optimal, not exact, anyway. Why: on
/// painted maps a window holding a road priced every cell's heuristic at
/// the road's cost, half the ground's; this bound is the ground's cost
/// away from roads (leg expansions −25 to −40 %, see
/// `benches/PROFILES.md`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LegHeuristic<'a> {
    table: &'a StepTable,
    floor: u8,
    /// `(c1 − c0)` in cost units, 0 when the two-class bound is off.
    gap: f64,
    near: &'a [u8],
    near_wide: u32,
    /// `d(t) − √2`: the target's distance to the cheapest class, less the
    /// two half steps ([`LegHeuristic::towards`]).
    to_target: f64,
}

impl LegHeuristic<'_> {
    /// Sets the target (or, for a set of target positions, the least `d`
    /// among them) the bound is taken towards.
    pub(crate) fn towards(mut self, targets: impl IntoIterator<Item = Point>) -> Self {
        if self.gap > 0.0 {
            let d = targets
                .into_iter()
                .map(|t| self.near_cheapest(t))
                .fold(f64::INFINITY, f64::min);
            self.to_target = if d.is_finite() { d - SQRT2 } else { -SQRT2 };
        }
        self
    }

    /// The lower bound on the distance from `p` to a position of the
    /// cheapest class.
    #[inline]
    fn near_cheapest(&self, p: Point) -> f64 {
        let i = (p.y / NEAR_BLOCK * self.near_wide + p.x / NEAR_BLOCK) as usize;
        let d = self.near.get(i).copied().unwrap_or(0);
        (d as f64 - 3.0 * SQRT2).max(0.0)
    }

    /// The heuristic from `p` to `t` (the nearest target to `p`).
    #[inline]
    pub(crate) fn at(&self, p: Point, t: Point) -> Cost {
        let low = self.table.octile_from(self.floor, p, t);
        if self.gap == 0.0 {
            return low;
        }
        let walk = (self.near_cheapest(p) + self.to_target).max(0.0);
        if walk == 0.0 {
            return low;
        }
        let high = self.table.octile_from(1, p, t);
        high.min(low + (walk * self.gap) as Cost)
    }
}

/// Two-pass chamfer over a grid of blocks (`wide` per row) holding 0 at
/// blocks of the cheapest class and 255 elsewhere: each becomes the
/// octile distance in positions (steps of [`NEAR_BLOCK`] and
/// `NEAR_BLOCK·√2`), rounded down, capped at 255.
fn chamfer(d: &mut [u8], wide: usize) {
    if wide == 0 {
        return;
    }
    let high = d.len() / wide;
    let (s, g) = (
        NEAR_BLOCK as f32,
        NEAR_BLOCK as f32 * std::f32::consts::SQRT_2,
    );
    let mut f: Vec<f32> = d
        .iter()
        .map(|&v| if v == 0 { 0.0 } else { f32::INFINITY })
        .collect();
    for y in 0..high {
        for x in 0..wide {
            let i = y * wide + x;
            let mut v = f[i];
            if x > 0 {
                v = v.min(f[i - 1] + s);
            }
            if y > 0 {
                v = v.min(f[i - wide] + s);
                if x > 0 {
                    v = v.min(f[i - wide - 1] + g);
                }
                if x + 1 < wide {
                    v = v.min(f[i - wide + 1] + g);
                }
            }
            f[i] = v;
        }
    }
    for y in (0..high).rev() {
        for x in (0..wide).rev() {
            let i = y * wide + x;
            let mut v = f[i];
            if x + 1 < wide {
                v = v.min(f[i + 1] + s);
            }
            if y + 1 < high {
                v = v.min(f[i + wide] + s);
                if x + 1 < wide {
                    v = v.min(f[i + wide + 1] + g);
                }
                if x > 0 {
                    v = v.min(f[i + wide - 1] + g);
                }
            }
            f[i] = v;
        }
    }
    for (o, v) in d.iter_mut().zip(f) {
        *o = v.min(255.0) as u8;
    }
}

/// Steps cost of a cell path: 1 per straight step, √2 per diagonal.
pub(crate) fn plain_path_cost(cells: &[Point]) -> f64 {
    let mut straight = 0u64;
    let mut diagonal = 0u64;
    for w in cells.windows(2) {
        if w[0].x != w[1].x && w[0].y != w[1].y {
            diagonal += 1;
        } else {
            straight += 1;
        }
    }
    straight as f64 + diagonal as f64 * SQRT2
}

#[cfg(test)]
mod tests {
    use super::*;
    use regionpath_grid::Terrain;
    use regionpath_testkit::profiled::{random_terrain, weighted_distances};
    use regionpath_testkit::{Rng64, SplitMix64};

    /// A map of ground, swamp and walls in blobs with a few straight roads
    /// (the cheapest kind, sparse, as on painted maps).
    fn roads_map(rng: &mut SplitMix64, w: u32, h: u32) -> Grid {
        let kinds: Vec<Terrain> = ['.', '.', 'S', '@']
            .iter()
            .map(|&c| Terrain::from_char(c).unwrap())
            .collect();
        let base = random_terrain(rng, w, h, &kinds);
        let mut rows: Vec<Vec<char>> = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| base.terrain(Point::new(x, y)).unwrap().to_char())
                    .collect()
            })
            .collect();
        for _ in 0..1 + rng.below(3) {
            if rng.below(2) == 0 {
                let y = rng.below(h as u64) as usize;
                rows[y].iter_mut().for_each(|c| *c = '=');
            } else {
                let x = rng.below(w as u64) as usize;
                rows.iter_mut().for_each(|r| r[x] = '=');
            }
        }
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        Grid::from_rows(&rows).unwrap()
    }

    /// The leg heuristic never exceeds the cost of the cheapest path
    /// inside its window (the testkit's Dijkstra over the window cut out
    /// as a map of its own; whole maps for sizes 2 and 3, whose positions
    /// reach past a cut), and where roads are sparse it is above the
    /// window floor's octile bound somewhere (the two-class bound bites).
    #[test]
    fn leg_heuristic_is_admissible_and_beats_the_floor() {
        let mut rng = SplitMix64(97);
        let (mut checked, mut tighter) = (0u64, 0u64);
        for trial in 0..60u32 {
            let (w, h) = (20 + rng.below(40) as u32, 20 + rng.below(40) as u32);
            let grid = roads_map(&mut rng, w, h);
            let k = 1 + trial % 3;
            let profile = Profile::builder("walker")
                .size(k)
                .cost('.', [1.0, 1.5][trial as usize % 2])
                .cost('=', 0.5)
                .cost('S', 3.0)
                .build()
                .unwrap();
            let data = ProfileData::new(&grid, &profile);
            let Some(table) = data.tables.table.as_ref() else {
                continue;
            };
            // A window: a random sub-rectangle for k = 1, else the map.
            let (x0, y0, ww, wh) = if k == 1 {
                let (ww, wh) = (
                    8 + rng.below((w - 8) as u64) as u32,
                    8 + rng.below((h - 8) as u64) as u32,
                );
                (
                    rng.below((w - ww + 1) as u64) as u32,
                    rng.below((h - wh + 1) as u64) as u32,
                    ww,
                    wh,
                )
            } else {
                (0, 0, w, h)
            };
            let cut: Vec<String> = (y0..y0 + wh)
                .map(|y| {
                    (x0..x0 + ww)
                        .map(|x| grid.terrain(Point::new(x, y)).unwrap().to_char())
                        .collect()
                })
                .collect();
            let window = Grid::from_rows(&cut).unwrap();
            for _ in 0..6 {
                let t = Point::new(
                    x0 + rng.below(ww as u64) as u32,
                    y0 + rng.below(wh as u64) as u32,
                );
                if !data.view.is_usable(t) {
                    continue;
                }
                let local = Point::new(t.x - x0, t.y - y0);
                let Some(dist) = weighted_distances(&window, &profile, local) else {
                    continue;
                };
                let lh = data.leg_heuristic(x0, y0, ww, wh).unwrap().towards([t]);
                let floor = data.window_floor(x0, y0, ww, wh);
                for (i, d) in dist.iter().enumerate() {
                    let Some(d) = d else { continue };
                    let p = Point::new(x0 + i as u32 % ww, y0 + i as u32 / ww);
                    let hv = lh.at(p, t);
                    let exact = d * COST_ONE as f64;
                    assert!(
                        hv as f64 <= exact * (1.0 + 1e-9) + 4.0,
                        "trial {trial} (k = {k}): h({p} -> {t}) = {hv} above the optimum {exact}"
                    );
                    checked += 1;
                    tighter += u64::from(hv > table.octile_from(floor, p, t));
                }
            }
        }
        assert!(checked > 20_000, "only {checked} positions checked");
        assert!(
            tighter * 10 > checked,
            "the two-class bound is tighter at only {tighter} of {checked} positions"
        );
    }
}
