//! Movement profiles through the facade: paths under random profiles and
//! unit sizes against the test kit's weighted Dijkstra and path validator;
//! smoothed waypoints keep the footprint on usable positions and cost no
//! more than the path; a radius wider than the profile allows is a typed
//! error and leaves the output path empty; a turning radius for a unit
//! wider than one cell gives a curve between footprint centres.

use regionpath::grid::Point;
use regionpath::{Config, Error, Grid, Hierarchy, HierarchyConfig, Path, Planner, Profile};
use regionpath_testkit::profiled::{
    check_weighted_path, position_cost, random_kinds, random_profile, random_terrain,
    weighted_distances,
};
use regionpath_testkit::{Rng64, SplitMix64};

/// Whether the `k × k` footprint centred on every point sampled along the
/// polyline (every 1/8 cell) touches only cells the profile prices.
fn footprint_clear(grid: &Grid, profile: &Profile, points: &[regionpath::Vec2]) -> bool {
    let k = profile.size() as f32;
    points.windows(2).all(|w| {
        let (a, b) = (w[0], w[1]);
        let n = ((b.x - a.x).abs().max((b.y - a.y).abs()) * 8.0)
            .ceil()
            .max(1.0) as u32;
        (0..=n).all(|i| {
            let t = i as f32 / n as f32;
            let (cx, cy) = (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            // The footprint's cells: those the square [c - k/2, c + k/2]
            // overlaps (with a hair of tolerance at exact edges).
            let (x0, y0) = ((cx - k / 2.0 + 1e-3).floor(), (cy - k / 2.0 + 1e-3).floor());
            let (x1, y1) = ((cx + k / 2.0 - 1e-3).floor(), (cy + k / 2.0 - 1e-3).floor());
            (y0 as i64..=y1 as i64).all(|y| {
                (x0 as i64..=x1 as i64).all(|x| position_cost_1(grid, profile, x, y).is_some())
            })
        })
    })
}

/// The profile's price of one cell (a size-1 position).
fn position_cost_1(grid: &Grid, profile: &Profile, x: i64, y: i64) -> Option<f64> {
    if x < 0 || y < 0 || x >= grid.width() as i64 || y >= grid.height() as i64 {
        return None;
    }
    let t = grid.terrain(Point::new(x as u32, y as u32)).ok()?;
    profile.cost(t)
}

#[test]
fn facade_paths_under_profiles_match_the_oracle() {
    let mut rng = SplitMix64(0x5eed31);
    let (mut found, mut unreachable) = (0, 0);
    let mut planner = Planner::new(Config::new().smooth(true)).unwrap();
    let mut path = Path::default();
    for trial in 0..24u32 {
        let (w, h) = (30 + rng.below(70) as u32, 30 + rng.below(70) as u32);
        let n = 2 + rng.below(6) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let k = 1 + trial % 3;
        let profile = random_profile(&mut rng, &kinds, k, trial % 2 == 0);
        let config = HierarchyConfig::new().sector_size(16);
        let hierarchy = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
        let open: Vec<Point> = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|p| position_cost(&grid, &profile, p.x.into(), p.y.into()).is_some())
            .collect();
        if open.is_empty() {
            continue;
        }
        for _ in 0..4 {
            let s = open[rng.below(open.len() as u64) as usize];
            let dist = weighted_distances(&grid, &profile, s).unwrap();
            for _ in 0..8 {
                let g = open[rng.below(open.len() as u64) as usize];
                let got = planner.find_path_into(&hierarchy, &grid, s, g, &mut path);
                match dist[(g.y * w + g.x) as usize] {
                    None => {
                        assert!(matches!(got, Err(Error::Unreachable { .. })), "{got:?}");
                        assert!(path.cells.is_empty());
                        unreachable += 1;
                    }
                    Some(d) => {
                        got.unwrap_or_else(|e| panic!("trial {trial} {s}->{g}: {e}"));
                        let c = check_weighted_path(&grid, &profile, &path.cells, s, g)
                            .unwrap_or_else(|e| panic!("trial {trial} {s}->{g}: {e}"));
                        assert!((c - path.cost).abs() <= 1e-6 * c.max(1.0));
                        assert!(c >= d - 1e-6 * d.max(1.0));
                        assert!(
                            footprint_clear(&grid, &profile, &path.waypoints),
                            "trial {trial} {s}->{g}: waypoints {:?}",
                            path.waypoints
                        );
                        // Waypoints start and end at the footprint's centre.
                        let centre =
                            |p: Point| (p.x as f32 + k as f32 / 2.0, p.y as f32 + k as f32 / 2.0);
                        let (first, last) = (path.waypoints[0], *path.waypoints.last().unwrap());
                        assert_eq!((first.x, first.y), centre(s));
                        assert_eq!((last.x, last.y), centre(g));
                        found += 1;
                    }
                }
            }
        }
    }
    assert!(
        found > 300 && unreachable > 10,
        "{found} found, {unreachable} unreachable"
    );
}

#[test]
fn radius_over_the_profile_size_is_a_typed_error_and_the_path_is_left_empty() {
    let grid = Grid::from_rows(&["........", "........", "........"]).unwrap();
    let walker = Profile::builder("walker").cost('.', 1.0).build().unwrap();
    let hierarchy = Hierarchy::build_with_profile(&grid, &walker, &HierarchyConfig::new()).unwrap();
    let (s, g) = (Point::new(0, 0), Point::new(7, 2));
    let mut path = Path::default();
    let mut ok = Planner::new(Config::new().smooth(true).unit_radius(0.5)).unwrap();
    ok.find_path_into(&hierarchy, &grid, s, g, &mut path)
        .unwrap();
    assert!(!path.cells.is_empty());
    let mut wide = Planner::new(Config::new().smooth(true).unit_radius(0.6)).unwrap();
    let e = wide.find_path_into(&hierarchy, &grid, s, g, &mut path);
    assert!(
        matches!(e, Err(Error::RadiusOverSize { size: 1, .. })),
        "{e:?}"
    );
    assert!(path.cells.is_empty() && path.waypoints.is_empty());
    let tank = Profile::builder("tank")
        .size(2)
        .cost('.', 1.0)
        .build()
        .unwrap();
    let ht = Hierarchy::build_with_profile(&grid, &tank, &HierarchyConfig::new()).unwrap();
    // A turning radius for a unit of size 2: the curve runs between the
    // footprint centres of its ends.
    let mut turning = Planner::new(Config::new().smooth(true).turning_radius(2.0)).unwrap();
    turning
        .find_path_into(&ht, &grid, s, Point::new(6, 1), &mut path)
        .unwrap();
    let curve = path.curve.as_ref().expect("a curve");
    let (a, _) = curve.sample(0.0);
    let (b, _) = curve.sample(curve.length());
    assert_eq!((a.x, a.y, b.x, b.y), (1.0, 1.0, 7.0, 2.0));
    let mut tank_wide = Planner::new(Config::new().smooth(true).unit_radius(1.1)).unwrap();
    let e = tank_wide.find_path_into(&ht, &grid, s, Point::new(6, 1), &mut path);
    assert!(
        matches!(e, Err(Error::RadiusOverSize { size: 2, .. })),
        "{e:?}"
    );
    assert!(path.cells.is_empty() && path.curve.is_none());
    // The same planner serves the plain hierarchy of the same grid.
    let plain = Hierarchy::build(&grid, &HierarchyConfig::new()).unwrap();
    turning
        .find_path_into(&plain, &grid, s, g, &mut path)
        .unwrap();
}
