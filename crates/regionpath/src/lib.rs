//! regionpath: hierarchical grid pathfinding for large game worlds.
//!
//! This is the crate a game depends on. Everything a game names is
//! re-exported here:
//!
//! * [`Grid`], [`Point`], [`read_map`]: tile grids (passable or blocked
//!   cells, 8-way moves, no corner cutting) and Moving AI `.map` files;
//! * [`Hierarchy`]: the preprocessed map (sectors → regions → region graph
//!   and connectivity matrix), built once with [`Hierarchy::build`], shared
//!   by all threads, stored with `save_file` / `load_file`, kept current
//!   with [`Hierarchy::update`];
//! * [`Planner`] + [`Config`]: per-thread query scratch and its settings;
//!   [`Planner::find_path`] for a whole [`Path`], [`Planner::start`] and
//!   [`Planner::next_leg`] for a lazy [`Query`] the caller owns;
//!   [`Planner::find_path_or_nearest`] for a [`Path::partial`] path to the
//!   reachable cell nearest an unreachable goal;
//!   [`Planner::find_group_paths`] for many units to one goal
//!   ([`GroupPlan`]);
//! * [`World`]: a double-buffered grid and hierarchy for a world that
//!   changes while reader threads plan ([`World::edit`],
//!   [`Reader::snapshot`]);
//! * [`Error`]: every failure, flat, with structured fields.
//!
//! The crates underneath ([`grid`], [`search`], [`hierarchy`],
//! [`smoothing`]) are re-exported for tools that need the lower levels.
//!
//! ```
//! use regionpath::{Config, Grid, Hierarchy, Planner, Point};
//!
//! let grid = Grid::from_rows(&["........", ".@@@@@@.", "........"])?;
//! let hierarchy = Hierarchy::build(&grid, &Default::default())?; // offline, once
//! let mut planner = Planner::new(Config::new().smooth(true))?; // one per thread
//! let path = planner.find_path(&hierarchy, &grid, Point::new(0, 1), Point::new(7, 1))?;
//! assert_eq!(path.cells.last(), Some(&Point::new(7, 1)));
//! assert!(path.smoothed_length <= path.cost);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod config;
mod error;
mod group;
mod planner;
mod vehicle_mode;
mod world;

pub use regionpath_grid as grid;
pub use regionpath_hierarchy as hierarchy;
pub use regionpath_search as search;
pub use regionpath_smoothing as smoothing;
pub use regionpath_vehicle as vehicle;

pub use config::{Config, MAX_TURNING_RADIUS, MAX_UNIT_RADIUS};
pub use error::{Endpoint, Error};
pub use group::GroupPlan;
pub use planner::{Path, Planner};
pub use regionpath_grid::{
    read_map, read_scen, write_map, Grid, MapError, Point, Profile, ProfileError, ProfileGrid,
    Terrain,
};
pub use regionpath_hierarchy::{
    BuildStats, GroupStats, Hierarchy, HierarchyConfig, HierarchyError, Link, PlanStats,
    PortalMode, Query, Region, RegionId, Run, Step,
};
pub use regionpath_smoothing::{CurveSegment, CurvedPath, TurnPolicy, Vec2};
pub use regionpath_vehicle::{sample_curve, Sample};
pub use vehicle_mode::{CurveStage, VehicleCurver, GEAR_CHANGE_RADII, MAX_REPAIR_RADIUS};
pub use world::{Publish, Reader, Snapshot, World};

/// The types a game shares between threads are `Send + Sync`: one
/// [`Hierarchy`] and [`Grid`] for all, one [`Planner`] per thread, queries
/// and paths handed between them.
const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Hierarchy>();
    send_sync::<Grid>();
    send_sync::<Planner>();
    send_sync::<Query>();
    send_sync::<Path>();
    send_sync::<GroupPlan>();
    send_sync::<Config>();
    send_sync::<World>();
    send_sync::<Snapshot>();
    send_sync::<Reader>();
    send_sync::<Error>();
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_option_fills_waypoints() {
        let grid = Grid::new(64, 64, true).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::new(Config::new().smooth(true)).unwrap();
        let path = p
            .find_path(&h, &grid, Point::new(0, 0), Point::new(63, 20))
            .unwrap();
        assert_eq!(
            path.waypoints.len(),
            2,
            "open ground smooths to one segment"
        );
        let direct = ((63.0f64).powi(2) + 20.0f64.powi(2)).sqrt();
        assert!((path.smoothed_length - direct).abs() < 1e-3);
        assert!(path.smoothed_length <= path.cost);
    }

    #[test]
    fn turning_radius_gives_a_curve_that_ends_at_the_goal() {
        let grid = Grid::from_rows(&[
            "..........",
            "..........",
            "..@@@@@@..",
            "..@@@@@@..",
            "..........",
            "..........",
        ])
        .unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let mut p = Planner::new(Config::new().smooth(true).turning_radius(1.0)).unwrap();
        let path = p
            .find_path(&h, &grid, Point::new(0, 3), Point::new(9, 2))
            .unwrap();
        let curve = path.curve.expect("a curve");
        // Arcs cut the polyline's corners: never longer, never shorter than
        // the straight line between the ends.
        assert!(curve.length() as f64 <= path.smoothed_length + 1e-3);
        assert!(curve.length() as f64 >= (81.0f64 + 1.0).sqrt() - 1e-3);
        let (end, _) = curve.sample(curve.length());
        assert!((end.x - 9.5).abs() < 1e-3 && (end.y - 2.5).abs() < 1e-3);
        let (start, _) = curve.sample(0.0);
        assert!((start.x - 0.5).abs() < 1e-3 && (start.y - 3.5).abs() < 1e-3);
        // Strict: a radius far too large for these corners is an error
        // naming the turn.
        let mut strict = Planner::new(
            Config::new()
                .smooth(true)
                .turning_radius(50.0)
                .turn_policy(TurnPolicy::Strict),
        )
        .unwrap();
        assert!(matches!(
            strict.find_path(&h, &grid, Point::new(0, 3), Point::new(9, 2)),
            Err(Error::TurnTooTight { .. })
        ));
    }

    /// A unit wider than a corridor: the waypoints keep the cell path's
    /// steps there and say so (`narrow_segments`), and a curve for it is
    /// refused as `UnitTooWide`, not as a hierarchy that contradicts its
    /// grid (`Inconsistent`, which tells the user to rebuild).
    #[test]
    fn a_unit_wider_than_the_corridor_is_its_own_error() {
        let grid = Grid::from_rows(&["@@@@@@@@", "........", "@@@@@@@@"]).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let (s, g) = (Point::new(0, 1), Point::new(7, 1));
        let mut thin = Planner::new(Config::new().smooth(true).unit_radius(0.25)).unwrap();
        assert_eq!(thin.find_path(&h, &grid, s, g).unwrap().narrow_segments, 0);
        let mut wide = Planner::new(Config::new().smooth(true).unit_radius(0.5)).unwrap();
        let path = wide.find_path(&h, &grid, s, g).unwrap();
        assert_eq!(path.narrow_segments, path.waypoints.len() - 1);
        assert!(path.narrow_segments > 0);
        let mut curved = Planner::new(
            Config::new()
                .smooth(true)
                .unit_radius(0.5)
                .turning_radius(1.0),
        )
        .unwrap();
        assert!(matches!(
            curved.find_path(&h, &grid, s, g),
            Err(Error::UnitTooWide { segment: 0 })
        ));
    }

    /// The batch answers every query as a planner of the same settings
    /// answers it alone, in order, and honours those settings.
    #[cfg(feature = "rayon")]
    #[test]
    fn batch_matches_one_by_one() {
        let rows: Vec<String> = (0..40)
            .map(|y| {
                (0..40)
                    .map(|x| if (x * 7 + y * 13) % 11 == 0 { '@' } else { '.' })
                    .collect()
            })
            .collect();
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let grid = Grid::from_rows(&refs).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let cells: Vec<Point> = (0..40 * 40)
            .map(|i| Point::new(i % 40, i / 40))
            .filter(|&p| grid.is_passable(p))
            .collect();
        let queries: Vec<(Point, Point)> = (0..64)
            .map(|i| (cells[i * 7 % cells.len()], cells[i * 31 % cells.len()]))
            .collect();
        let mut planner = Planner::new(Config::new().smooth(true).second_route(false)).unwrap();
        let batch = planner.find_paths(&h, &grid, &queries);
        assert_eq!(batch.len(), queries.len());
        for (&(s, g), got) in queries.iter().zip(&batch) {
            let alone = planner.find_path(&h, &grid, s, g);
            assert_eq!(got, &alone, "{s} -> {g}");
            if let Ok(p) = got {
                assert!(!p.waypoints.is_empty(), "smoothing honoured");
                assert!(!p.stats.second_route, "second route off");
            }
        }
    }

    #[test]
    fn unreachable_is_reported() {
        let grid = Grid::from_rows(&["..@..", "..@.."]).unwrap();
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
        let e = Planner::default()
            .find_path(&h, &grid, Point::new(0, 0), Point::new(4, 1))
            .unwrap_err();
        assert!(e.is_unreachable());
        // Bad settings are refused when the planner is made, not per query.
        for bad in [
            Config::new().unit_radius(-1.0),
            Config::new().unit_radius(f32::NAN),
            Config::new().unit_radius(1e30),
            Config::new().turning_radius(f32::INFINITY),
            Config::new().turning_radius(-0.5),
            Config::new().window(100_000),
            Config::new().window(u32::MAX),
            Config::new().window(2),
            Config::new().reach(0),
            Config::new().recheck(f32::NAN),
            Config::new().recheck(-0.5),
        ] {
            assert!(
                matches!(Planner::new(bad), Err(Error::Config { .. })),
                "{bad:?}"
            );
        }
    }
}
