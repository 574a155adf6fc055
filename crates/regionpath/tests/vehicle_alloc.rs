//! A warm vehicle-mode query allocates nothing: `VehicleCurver::curve_into`
//! over the same paths a second time (curves that are legal as rounded,
//! one whose blocked turn the directional search repairs, one that backs
//! out of a dead end) makes zero allocations, and gives the same curves;
//! so does `VehicleCurver::curve_profiled_into` for a unit of size 2, and
//! under a profile whose costs differ (terrain-priced repairs).

use regionpath::{
    Config, CurveStage, CurvedPath, Grid, Hierarchy, HierarchyConfig, Path, Planner, Point,
    Profile, ProfileGrid, TurnPolicy, Vec2, VehicleCurver,
};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn vehicle() -> Config {
    Config::new()
        .smooth(true)
        .unit_radius(0.4)
        .turning_radius(2.0)
        .turn_policy(TurnPolicy::Strict)
}

/// Pinter's blocked right turn (a one-cell corridor up, one east, a yard
/// on the left) and a one-cell dead end on row 5 of the same map.
fn map() -> Grid {
    let mut rows = Vec::new();
    for y in 0..20 {
        let mut row = String::new();
        for x in 0..40 {
            let up = x == 12 && (8..20).contains(&y);
            let east = y == 7 && (12..26).contains(&x);
            let yard = (1..12).contains(&x) && (1..11).contains(&y);
            let open = (28..39).contains(&x) && (1..19).contains(&y);
            row.push(if up || east || yard || open { '.' } else { '@' });
        }
        rows.push(row);
    }
    rows[15].replace_range(14..26, &".".repeat(12));
    Grid::from_rows(&rows).unwrap()
}

#[test]
fn warm_vehicle_queries_allocate_nothing() {
    let grid = map();
    let h = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    // (start, goal, start heading): a blocked turn to repair, an open
    // room's curve, backing out of the dead end on row 15.
    let queries = [
        (Point::new(12, 18), Point::new(24, 7), Some(270.0)),
        (Point::new(29, 2), Point::new(37, 17), None),
        (Point::new(22, 15), Point::new(15, 15), Some(0.0)),
    ];
    let config = vehicle().reverse(2.0);
    let mut inputs: Vec<(Vec<Point>, Vec<Vec2>, Config)> = Vec::new();
    for &(a, b, heading) in &queries {
        let mut p = Planner::new(vehicle()).unwrap();
        let path = p.find_path(&h, &grid, a, b).unwrap();
        inputs.push((path.cells, path.waypoints, config.start_heading(heading)));
        // The facade agrees that each has a curve.
        let mut q = Planner::new(config.start_heading(heading)).unwrap();
        assert!(q.find_path(&h, &grid, a, b).unwrap().curve.is_some());
    }
    let mut curvers: Vec<VehicleCurver> = inputs
        .iter()
        .map(|(_, _, c)| VehicleCurver::new(c).unwrap().unwrap())
        .collect();
    let mut outs: Vec<CurvedPath> = vec![CurvedPath::default(); inputs.len()];
    let run = |curvers: &mut [VehicleCurver], outs: &mut [CurvedPath]| {
        let mut expanded = 0;
        for (i, (cells, waypoints, _)) in inputs.iter().enumerate() {
            curvers[i]
                .curve_into(&grid, cells, waypoints, &mut outs[i])
                .unwrap();
            expanded += curvers[i].expansions();
        }
        expanded
    };
    let first = run(&mut curvers, &mut outs);
    assert!(first > 0, "a directional search ran");
    let before = outs.clone();
    assert!(before[2].has_reverse(), "the dead end is left in reverse");
    let (again, usage) = measure_thread(|| run(&mut curvers, &mut outs));
    assert_eq!(again, first);
    assert_eq!(outs, before);
    assert_eq!(usage.allocations, 0, "{usage:?}");
}

/// One curver serving a plain query and a size-2 unit's query in turn (two
/// directional searches, one per unit radius, swapped in as needed): once
/// both have run, neither allocates, and the curves are the same.
#[test]
fn warm_profiled_vehicle_queries_allocate_nothing() {
    let grid = map();
    let tank = Profile::builder("tank")
        .size(2)
        .cost('.', 1.0)
        .build()
        .unwrap();
    let view = ProfileGrid::new(&grid, &tank);
    let plain = Hierarchy::build(&grid, &HierarchyConfig::default()).unwrap();
    let profiled =
        Hierarchy::build_with_profile(&grid, &tank, &HierarchyConfig::default()).unwrap();
    let config = Config::new()
        .smooth(true)
        .unit_radius(0.7)
        .turning_radius(2.0)
        .turn_policy(TurnPolicy::Strict);
    // The open room: a size-2 unit fits there.
    let (a, b) = (Point::new(29, 2), Point::new(36, 16));
    let mut p = Planner::new(config).unwrap();
    let cells_plain = p.find_path(&plain, &grid, a, b).unwrap();
    let cells_tank = p.find_path(&profiled, &grid, a, b).unwrap();
    assert!(cells_tank.curve.is_some());
    let mut curver = VehicleCurver::new(&config).unwrap().unwrap();
    let (mut out_plain, mut out_tank) = (CurvedPath::default(), CurvedPath::default());
    let mut run = |out_plain: &mut CurvedPath, out_tank: &mut CurvedPath| {
        curver
            .curve_into(&grid, &cells_plain.cells, &cells_plain.waypoints, out_plain)
            .unwrap();
        curver
            .curve_profiled_into(&view, &cells_tank.cells, &cells_tank.waypoints, out_tank)
            .unwrap();
    };
    run(&mut out_plain, &mut out_tank);
    let before = (out_plain.clone(), out_tank.clone());
    assert_eq!(Some(&out_tank), cells_tank.curve.as_ref());
    let ((), usage) = measure_thread(|| run(&mut out_plain, &mut out_tank));
    assert_eq!((out_plain, out_tank), before);
    assert_eq!(usage.allocations, 0, "{usage:?}");
}

/// Under a profile whose costs differ, the repairs are terrain-priced
/// directional searches: a car and a tank that start facing away from
/// their goal in a room half swamp, twice; the second time allocates
/// nothing and gives the same curves.
#[test]
fn warm_priced_vehicle_queries_allocate_nothing() {
    let rows: Vec<String> = (0..26)
        .map(|y| {
            (0..32)
                .map(|x| {
                    if x == 0 || y == 0 || x == 31 || y == 25 {
                        '@'
                    } else if (8..24).contains(&x) && (3..12).contains(&y) {
                        '~'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let grid = Grid::from_rows(&rows).unwrap();
    let mut inputs = Vec::new();
    for (k, r) in [(1u32, 0.4f32), (2, 0.7)] {
        let profile = Profile::builder("u")
            .size(k)
            .cost('.', 1.0)
            .cost('~', 5.0)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        assert!(!view.is_uniform());
        let h =
            Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::default()).unwrap();
        let config = Config::new()
            .smooth(true)
            .unit_radius(r)
            .turning_radius(2.0)
            .turn_policy(TurnPolicy::Strict)
            .start_heading(Some(0.0));
        let mut p = Planner::new(config).unwrap();
        let path = p
            .find_path(&h, &grid, Point::new(15, 13), Point::new(4, 12))
            .unwrap();
        inputs.push((view, path.cells, path.waypoints, config));
    }
    let mut curvers: Vec<VehicleCurver> = inputs
        .iter()
        .map(|(_, _, _, c)| VehicleCurver::new(c).unwrap().unwrap())
        .collect();
    let mut outs: Vec<CurvedPath> = vec![CurvedPath::default(); inputs.len()];
    let run = |curvers: &mut [VehicleCurver], outs: &mut [CurvedPath]| {
        let mut expanded = 0;
        for (i, (view, cells, waypoints, _)) in inputs.iter().enumerate() {
            curvers[i]
                .curve_profiled_into(view, cells, waypoints, &mut outs[i])
                .unwrap();
            expanded += curvers[i].expansions();
        }
        expanded
    };
    let first = run(&mut curvers, &mut outs);
    assert!(first > 0, "a directional search ran");
    let before = outs.clone();
    let (again, usage) = measure_thread(|| run(&mut curvers, &mut outs));
    assert_eq!(again, first);
    assert_eq!(outs, before);
    assert_eq!(usage.allocations, 0, "{usage:?}");
}

/// Plans `start` → `goal` on `grid` and curves the path with a fresh
/// curver (growing its scratch); returns the curver, the path and the
/// curve.
fn curve_once(grid: &Grid, start: Point, goal: Point) -> (VehicleCurver, Path, CurvedPath) {
    curve_once_with(&vehicle(), grid, start, goal)
}

/// [`curve_once`] with the vehicle of `config`.
fn curve_once_with(
    config: &Config,
    grid: &Grid,
    start: Point,
    goal: Point,
) -> (VehicleCurver, Path, CurvedPath) {
    let h = Hierarchy::build(grid, &HierarchyConfig::default()).unwrap();
    let mut p = Planner::new(*config).unwrap();
    let path = p.find_path(&h, grid, start, goal).unwrap();
    let mut curver = VehicleCurver::new(config).unwrap().unwrap();
    let mut out = CurvedPath::default();
    curver
        .curve_into(grid, &path.cells, &path.waypoints, &mut out)
        .unwrap();
    (curver, path, out)
}

/// Curves `path` again with the warm `curver`: the same curve as `out`,
/// and no allocation.
fn assert_warm_repeat_allocates_nothing(
    curver: &mut VehicleCurver,
    grid: &Grid,
    path: &Path,
    mut out: CurvedPath,
) {
    let before = out.clone();
    let (result, usage) =
        measure_thread(|| curver.curve_into(grid, &path.cells, &path.waypoints, &mut out));
    result.unwrap();
    assert_eq!(out, before);
    assert_eq!(usage.allocations, 0, "{usage:?}");
}

/// A query whose cell path takes a one-cell passage with two right-angle
/// bends (no radius-2 turn fits) while the curve must go round through a
/// gap far from the path: the guided detour (or the guided search over
/// the path's wide box) runs, and a warm repeat allocates nothing and gives
/// the same curve.
#[test]
fn warm_detours_allocate_nothing() {
    let grid = regionpath_testkit::maps::dogleg_wall();
    let (mut curver, path, out) = curve_once(&grid, Point::new(8, 8), Point::new(56, 5));
    let lowest = (0..=500)
        .map(|i| out.sample(out.length() * i as f32 / 500.0).0.y)
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(lowest > 34.0, "the curve goes through the gap");
    assert_warm_repeat_allocates_nothing(&mut curver, &grid, &path, out);
}

/// On `testkit::maps::far_gap_rows(gap)` from (8, 8) to (540, 540): the
/// curver's stage is `stage`, the curve crosses the wall through the rows
/// of `gap`, and a warm repeat allocates nothing and gives the same curve.
fn far_gap_warm(gap: std::ops::Range<u32>, stage: CurveStage) {
    let grid = regionpath_testkit::maps::far_gap_rows(gap.clone());
    let (mut curver, path, out) = curve_once(&grid, Point::new(8, 8), Point::new(540, 540));
    assert_eq!(curver.stage(), stage);
    let rows = gap.start as f32..gap.end as f32;
    let through_gap = (0..=5_000)
        .map(|i| out.sample(out.length() * i as f32 / 5_000.0).0)
        .filter(|q| (30.0..35.0).contains(&q.x))
        .all(|q| rows.contains(&q.y));
    assert!(through_gap, "the curve crosses the wall through the gap");
    assert_warm_repeat_allocates_nothing(&mut curver, &grid, &path, out);
}

/// The search over the whole path's box with its nodes in the paged store
/// (`testkit::maps::far_gap_rows(90..92)`: the box is the whole 560 × 560
/// map, above the dense store's 4 · 10⁶ nodes; the gap too narrow for the
/// wide-path stage, which finds no path and so builds no curve): a warm
/// repeat allocates nothing and gives the same curve, which crosses the
/// wall through the far gap.
#[test]
fn warm_paged_whole_box_searches_allocate_nothing() {
    far_gap_warm(90..92, CurveStage::WholeBox);
}

/// The wide-path stage (`testkit::maps::far_gap_rows(90..98)`: the cell path squeezes
/// through a one-cell dogleg; the path planned again along corridors at
/// least three cells wide goes through the far gap): a warm repeat
/// allocates nothing and gives the same curve.
#[test]
fn warm_wide_paths_allocate_nothing() {
    far_gap_warm(90..98, CurveStage::WidePath);
}

/// A unit wider than the cell path's passage (radius 1, R = 4, on
/// `testkit::maps::narrow_and_wide_gap(true)`): the stages away from the
/// path find the curve through the wide gap, and a warm repeat allocates
/// nothing and gives the same curve.
#[test]
fn warm_curves_round_a_passage_narrower_than_the_unit_allocate_nothing() {
    let grid = regionpath_testkit::maps::narrow_and_wide_gap(true);
    let ship = vehicle().unit_radius(1.0).turning_radius(4.0);
    let (mut curver, path, out) =
        curve_once_with(&ship, &grid, Point::new(12, 20), Point::new(78, 20));
    assert_ne!(curver.stage(), CurveStage::Failed);
    assert_warm_repeat_allocates_nothing(&mut curver, &grid, &path, out);
}
