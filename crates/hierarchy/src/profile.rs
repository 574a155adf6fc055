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
}

impl ProfileData {
    pub(crate) fn new(grid: &Grid, profile: &Profile) -> ProfileData {
        let view = ProfileGrid::new(grid, profile);
        let table = (!view.is_uniform()).then(|| StepTable::new(&view));
        ProfileData {
            profile: profile.clone(),
            view,
            table,
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
