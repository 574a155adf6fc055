//! Validators for cell paths, independent of the library: a path must be
//! non-empty, on open cells (inside the area), move by single legal steps
//! (no corner cutting) and, for a route, start and end where asked. Each
//! returns the step counts or length it recomputed, or a message naming the
//! first defect.

use crate::{Area, Moves, Rules, StepError};
use regionpath_grid::{Grid, Point};

/// Step counts of a checked path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Walk {
    /// Steps of cost 1.
    pub straight: u64,
    /// Steps of cost √2.
    pub diagonal: u64,
}

impl Walk {
    /// straight · 1 + diagonal · √2.
    pub fn length(&self) -> f64 {
        self.straight as f64 + self.diagonal as f64 * std::f64::consts::SQRT_2
    }
}

/// Checks that `path` is non-empty, stays on open cells of `area`, and
/// moves by single legal steps under `moves` (no corner cutting); returns
/// its step counts.
pub fn check_walk(grid: &Grid, path: &[Point], moves: Moves, area: Area) -> Result<Walk, String> {
    walk(
        grid,
        path,
        Rules {
            moves,
            area: Some(area),
        },
    )
}

fn walk(grid: &Grid, path: &[Point], rules: Rules) -> Result<Walk, String> {
    let first = path.first().ok_or("empty path")?;
    if !rules.open(grid, i64::from(first.x), i64::from(first.y)) {
        return Err(format!("cell 0 {first} is blocked or outside the area"));
    }
    let mut walk = Walk::default();
    for (i, pair) in path.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        let (x, y) = (i64::from(a.x), i64::from(a.y));
        match rules.step(grid, x, y, i64::from(b.x) - x, i64::from(b.y) - y) {
            Ok(c) if c > 1.0 => walk.diagonal += 1,
            Ok(_) => walk.straight += 1,
            Err(why) => {
                let why = match why {
                    StepError::NotAdjacent => "a gap (not one step)",
                    StepError::Blocked => "into a blocked cell or out of the area",
                    StepError::Diagonal => "a diagonal (four moves only)",
                    StepError::CornerCut => "a corner cut",
                };
                return Err(format!(
                    "step {} from {a} to {b} is not a legal move: {why}",
                    i + 1
                ));
            }
        }
    }
    Ok(walk)
}

fn ends(path: &[Point], start: Point, goal: Point) -> Result<(), String> {
    if path.first() != Some(&start) {
        return Err(format!("path starts at {:?}, not at {start}", path.first()));
    }
    if path.last() != Some(&goal) {
        return Err(format!("path ends at {:?}, not at {goal}", path.last()));
    }
    Ok(())
}

/// [`check_walk`], and the path runs from `start` to `goal`.
pub fn check_route(
    grid: &Grid,
    start: Point,
    goal: Point,
    path: &[Point],
    moves: Moves,
    area: Area,
) -> Result<Walk, String> {
    let walk = check_walk(grid, path, moves, area)?;
    ends(path, start, goal)?;
    Ok(walk)
}

/// The Moving AI rules over the whole grid (8-connected, no corner
/// cutting): `path` runs from `start` to `goal` by legal steps on open
/// cells. Returns its length (straight 1, diagonal √2).
pub fn check_path(grid: &Grid, path: &[Point], start: Point, goal: Point) -> Result<f64, String> {
    ends(path, start, goal)?;
    Ok(walk(grid, path, Rules::EIGHT)?.length())
}

/// The length of a cell path without checks: √2 for a step that changes
/// both coordinates, 1 otherwise.
pub fn cell_path_length(cells: &[Point]) -> f64 {
    cells
        .windows(2)
        .map(|w| {
            if w[0].x != w[1].x && w[0].y != w[1].y {
                std::f64::consts::SQRT_2
            } else {
                1.0
            }
        })
        .sum()
}

/// The first cell that `path` visits twice, if any (an optimal path never
/// does).
pub fn repeated_cell(path: &[Point]) -> Option<Point> {
    let mut seen = std::collections::HashSet::new();
    path.iter().copied().find(|&p| !seen.insert(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::p;

    #[test]
    fn routes_and_their_defects() {
        let g = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
        let all = Area::whole(&g);
        let ok = [p(0, 0), p(1, 0), p(2, 0)];
        let w = check_route(&g, p(0, 0), p(2, 0), &ok, Moves::Eight, all).unwrap();
        assert_eq!(w.length(), 2.0);
        assert_eq!(check_path(&g, &ok, p(0, 0), p(2, 0)), Ok(2.0));
        // Gap, wrong start, wrong end.
        assert!(check_path(&g, &[p(0, 0), p(2, 0)], p(0, 0), p(2, 0)).is_err());
        assert!(check_path(&g, &ok, p(1, 0), p(2, 0)).is_err());
        assert!(check_path(&g, &ok, p(0, 0), p(2, 1)).is_err());
        let cut = check_walk(&g, &[p(1, 0), p(2, 1)], Moves::Eight, all).unwrap_err();
        assert!(cut.contains("corner cut"), "{cut}");
        assert!(
            check_walk(&g, &[p(0, 1), p(1, 1)], Moves::Eight, all).is_err(),
            "blocked"
        );
        assert!(
            check_walk(&g, &[p(1, 1)], Moves::Eight, all).is_err(),
            "blocked start"
        );
        assert!(
            check_walk(&g, &[p(0, 0), p(0, 0)], Moves::Eight, all).is_err(),
            "no move"
        );
        assert!(check_walk(&g, &[], Moves::Eight, all).is_err());
        let o = Grid::from_rows(&["..", ".."]).unwrap();
        let whole = Area::whole(&o);
        assert!(check_walk(&o, &[p(0, 0), p(1, 1)], Moves::Four, whole).is_err());
        let d = check_walk(&o, &[p(0, 0), p(1, 1)], Moves::Eight, whole).unwrap();
        assert_eq!(
            d,
            Walk {
                straight: 0,
                diagonal: 1
            }
        );
        let top = Area {
            x: 0,
            y: 0,
            width: 2,
            height: 1,
        };
        assert!(
            check_walk(&o, &[p(0, 0), p(0, 1)], Moves::Eight, top).is_err(),
            "leaves area"
        );
        assert_eq!(repeated_cell(&[p(0, 0), p(1, 0), p(0, 0)]), Some(p(0, 0)));
        assert_eq!(repeated_cell(&ok), None);
        assert_eq!(
            crate::step_cost(&g, p(1, 0), p(2, 1)),
            Err(StepError::CornerCut)
        );
        assert_eq!(
            crate::step_cost(&o, p(0, 0), p(1, 1)),
            Ok(std::f64::consts::SQRT_2)
        );
    }
}
