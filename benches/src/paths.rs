//! Checking a returned path against the Moving AI movement rules.

use regionpath::smoothing::{polyline_length, segment_clear};
use regionpath::Vec2;
use regionpath_grid::{Grid, Point, SQRT2};
use regionpath_testkit::{step_cost, StepError};

/// What a path looks like under the Moving AI rules (8-connected, straight
/// step 1, diagonal √2, no corner cutting).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PathCheck {
    /// Octile length: straight steps + √2 × diagonal steps (steps that are
    /// not single moves count by their octile distance).
    pub length: f64,
    /// Moves (consecutive distinct cells).
    pub steps: usize,
    /// Diagonal moves.
    pub diagonal_steps: usize,
    /// Diagonal moves with a blocked orthogonal neighbour: corner cuts,
    /// which the Moving AI rules forbid.
    pub corner_cuts: usize,
    /// Moves that are not one step to a passable in-bounds cell (jumps or
    /// steps into walls).
    pub illegal_steps: usize,
    /// Whether the path starts at the start and ends at the goal.
    pub endpoints_ok: bool,
}

impl PathCheck {
    /// No corner cuts, no illegal steps, right endpoints.
    pub fn follows_rules(&self) -> bool {
        self.corner_cuts == 0 && self.illegal_steps == 0 && self.endpoints_ok
    }
}

/// Walks `path` (cells from start to goal inclusive; repeated consecutive
/// cells are ignored) and reports its octile length, corner cuts and
/// illegal steps.
pub fn check_path(grid: &Grid, start: Point, goal: Point, path: &[Point]) -> PathCheck {
    let mut c = PathCheck {
        endpoints_ok: path.first() == Some(&start) && path.last() == Some(&goal),
        ..PathCheck::default()
    };
    let (mut straight, mut diagonal) = (0u64, 0u64);
    let mut extra = 0.0;
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a == b {
            continue;
        }
        c.steps += 1;
        match step_cost(grid, a, b) {
            Ok(cost) if cost > 1.0 => diagonal += 1,
            Ok(_) => straight += 1,
            Err(StepError::CornerCut) => {
                diagonal += 1;
                c.corner_cuts += 1;
            }
            Err(_) => {
                c.illegal_steps += 1;
                extra += regionpath_grid::octile(a, b);
            }
        }
    }
    c.diagonal_steps = diagonal as usize;
    c.length = straight as f64 + diagonal as f64 * SQRT2 + extra;
    c
}

/// Octile length of a path (as [`check_path`] counts it), without checks.
pub fn octile_length(path: &[Point]) -> f64 {
    let (mut straight, mut diagonal, mut extra) = (0u64, 0u64, 0.0);
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
        match (dx, dy) {
            (0, 0) => {}
            (1, 1) => diagonal += 1,
            (0, 1) | (1, 0) => straight += 1,
            _ => extra += regionpath_grid::octile(a, b),
        }
    }
    straight as f64 + diagonal as f64 * SQRT2 + extra
}

/// What an any-angle polyline (smoothed waypoints) looks like.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WaypointCheck {
    /// Euclidean length of the polyline.
    pub length: f64,
    /// Segments (consecutive waypoints).
    pub segments: usize,
    /// Segments that are not clear for a point unit: they touch a blocked
    /// cell (a corner included) or leave the map.
    pub blocked_segments: usize,
    /// Whether the polyline runs from the start cell's centre to the goal
    /// cell's centre.
    pub endpoints_ok: bool,
}

impl WaypointCheck {
    /// Right endpoints and every segment clear.
    pub fn is_clear(&self) -> bool {
        self.blocked_segments == 0 && self.endpoints_ok
    }
}

/// Checks smoothed `waypoints` for a unit of radius 0: endpoints at the
/// start and goal cell centres, every segment clear
/// ([`segment_clear`]: touching a blocked cell counts as blocked), and the
/// Euclidean length.
pub fn check_waypoints(
    grid: &Grid,
    start: Point,
    goal: Point,
    waypoints: &[Vec2],
) -> WaypointCheck {
    WaypointCheck {
        length: polyline_length(waypoints),
        segments: waypoints.len().saturating_sub(1),
        blocked_segments: waypoints
            .windows(2)
            .filter(|w| !segment_clear(grid, w[0], w[1], 0.0))
            .count(),
        endpoints_ok: waypoints.first() == Some(&Vec2::cell_center(start))
            && waypoints.last() == Some(&Vec2::cell_center(goal)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waypoint_check_finds_blocked_segments() {
        let g = Grid::from_rows(&["....", ".@..", "...."]).unwrap();
        let (s, t) = (Point::new(0, 2), Point::new(3, 0));
        // Round the blocked cell's lower right corner (2, 2).
        let around = [
            Vec2::cell_center(s),
            Vec2::new(2.05, 2.05),
            Vec2::cell_center(t),
        ];
        let c = check_waypoints(&g, s, t, &around);
        assert!(c.is_clear(), "{c:?}");
        assert_eq!(c.segments, 2);
        // Straight through the blocked cell (1, 1).
        let through = [Vec2::cell_center(s), Vec2::cell_center(t)];
        let c = check_waypoints(&g, s, t, &through);
        assert_eq!(c.blocked_segments, 1);
        assert!((c.length - 13f64.sqrt()).abs() < 1e-6);
        assert!(!check_waypoints(&g, s, t, &through[..1]).endpoints_ok);
    }

    #[test]
    fn counts_corner_cuts_and_illegal_steps() {
        let g = Grid::from_rows(&["..", "@.", ".."]).unwrap();
        // (0,0) -> (1,1) passes the blocked (0,1): a corner cut.
        let p = [Point::new(0, 0), Point::new(1, 1), Point::new(0, 2)];
        let c = check_path(&g, p[0], p[2], &p);
        assert_eq!(c.steps, 2);
        assert_eq!(c.diagonal_steps, 2);
        assert_eq!(c.corner_cuts, 2);
        assert_eq!(c.illegal_steps, 0);
        assert!(c.endpoints_ok);
        assert!((c.length - 2.0 * SQRT2).abs() < 1e-12);
        assert!(!c.follows_rules());

        let ok = [Point::new(0, 0), Point::new(1, 0), Point::new(1, 1)];
        let c = check_path(&g, ok[0], ok[2], &ok);
        assert!(c.follows_rules());
        assert_eq!(c.length, 2.0);
        assert_eq!(octile_length(&ok), 2.0);

        let jump = [Point::new(0, 0), Point::new(0, 1)];
        assert_eq!(check_path(&g, jump[0], jump[1], &jump).illegal_steps, 1);
    }
}
