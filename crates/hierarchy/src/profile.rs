//! The movement profile a hierarchy serves: the profile, its view of the
//! grid and the step costs (see `build/profiled.rs` for how a hierarchy is
//! built for one, and [`crate::Hierarchy::build_with_profile`]).

use regionpath_grid::{Grid, Point, Profile, ProfileGrid, SQRT2};
use regionpath_search::StepTable;

/// The profile a hierarchy was built for and its view of the grid.
#[derive(Clone, Debug)]
pub(crate) struct ProfileData {
    pub(crate) profile: Profile,
    pub(crate) view: ProfileGrid,
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
}

/// Side of the blocks of [`ProfileData::window_floor`], in positions.
pub(crate) const FLOOR_BLOCK: u32 = 16;

impl ProfileData {
    pub(crate) fn new(grid: &Grid, profile: &Profile) -> ProfileData {
        let view = ProfileGrid::new(grid, profile);
        let table = (!view.is_uniform()).then(|| StepTable::new(&view));
        let (w, h) = (view.grid().width(), view.grid().height());
        let blocks_wide = w.div_ceil(FLOOR_BLOCK);
        let mut block_floor = Vec::new();
        if table.is_some() {
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
                            *b = (*b).min(view.cost_class_padded(i));
                        }
                    }
                }
            }
        }
        ProfileData {
            profile: profile.clone(),
            view,
            table,
            block_floor,
            blocks_wide,
        }
    }

    /// The cheapest cost class of a usable position in the `width` ×
    /// `height` rectangle at `(x, y)` or in the blocks around it (0 when
    /// uniform, or when the rectangle holds none): every step of a search
    /// confined to the rectangle costs at least that class's step, so
    /// [`StepTable::octile_from`] at it is an admissible, consistent
    /// heuristic there. O(blocks the rectangle touches).
    pub(crate) fn window_floor(&self, x: u32, y: u32, width: u32, height: u32) -> u8 {
        if self.block_floor.is_empty() || width == 0 || height == 0 {
            return 0;
        }
        let mut floor = u8::MAX;
        for by in y / FLOOR_BLOCK..=(y + height - 1) / FLOOR_BLOCK {
            let row = (by * self.blocks_wide) as usize;
            for bx in x / FLOOR_BLOCK..=(x + width - 1) / FLOOR_BLOCK {
                if let Some(&c) = self.block_floor.get(row + bx as usize) {
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

    /// Cost of the cheapest position (the lower bound of every step's
    /// cost per unit length).
    pub(crate) fn floor(&self) -> f64 {
        self.view.class_costs().first().copied().unwrap_or(1.0)
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
