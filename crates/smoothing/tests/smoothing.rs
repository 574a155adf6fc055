//! Smoothing and clearance tests, checked with the independent geometry of
//! `common` (never with the crate's own `segment_clear`, except where the
//! two are compared).

mod common;

use common::*;
use proptest::prelude::*;
use regionpath_grid::{Grid, Point};
use regionpath_smoothing::{
    polyline_length, segment_clear, smooth, SmoothError, SmoothOptions, SmoothReport, Smoother,
    Vec2,
};

fn v(p: Vec2) -> V {
    (p.x as f64, p.y as f64)
}

fn centre(p: Point) -> Vec2 {
    Vec2::new(p.x as f32 + 0.5, p.y as f32 + 0.5)
}

/// Every property the smoother promises, for one path.
fn check_smoothing(
    grid: &Grid,
    cells: &[Point],
    radius: f32,
    refine: bool,
) -> (Vec<Vec2>, SmoothReport) {
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    let opts = SmoothOptions { radius, refine };
    let report = smoother
        .smooth(grid, cells, &opts, &mut out)
        .expect("valid path");
    // End points exactly the start and goal centres.
    assert_eq!(out.first(), Some(&centre(cells[0])));
    assert_eq!(out.last(), Some(&centre(*cells.last().unwrap())));
    if cells.len() == 1 {
        assert_eq!(out.len(), 1);
    }
    // Never longer than the input.
    let input = cell_path_length(cells);
    let output = polyline_length(&out);
    assert!((report.input_length - input).abs() < 1e-9);
    assert!((report.output_length - output).abs() < 1e-6);
    assert!(output <= input + 1e-9, "smoothed {output} > input {input}");
    // Every segment clear, or (radius > 0 only) a step of the input path.
    let r = radius as f64;
    let mut not_clear = 0;
    for w in out.windows(2) {
        assert_ne!(w[0], w[1], "repeated waypoint");
        if independently_clear(grid, v(w[0]), v(w[1]), r) {
            continue;
        }
        not_clear += 1;
        assert!(
            radius > 0.0,
            "segment {} -> {} touches an obstacle",
            w[0],
            w[1]
        );
        let is_step = cells
            .windows(2)
            .any(|c| centre(c[0]) == w[0] && centre(c[1]) == w[1]);
        assert!(
            is_step,
            "segment {} -> {} is not clear for r = {r} and not an input step",
            w[0], w[1]
        );
        // An input step is always clear for a point.
        assert!(independently_clear(grid, v(w[0]), v(w[1]), 0.0));
    }
    assert!(
        not_clear <= report.narrow_segments,
        "{not_clear} > {}",
        report.narrow_segments
    );
    if radius == 0.0 {
        assert_eq!(report.narrow_segments, 0);
    }
    // The free function agrees with the reusable smoother.
    let again = smooth(grid, cells, &opts).expect("valid path");
    assert_eq!(again, out);
    (out, report)
}

fn random_case(seed: u64, jitter: f64) -> Option<(Grid, Vec<Point>)> {
    let mut rng = Rng(seed);
    let (w, h) = (4 + rng.below(40) as u32, 4 + rng.below(40) as u32);
    let density = rng.unit() * 0.35;
    let grid = random_grid(&mut rng, w, h, density);
    let s = random_free(&mut rng, &grid)?;
    let t = random_free(&mut rng, &grid)?;
    let cells = dijkstra(&grid, s, t, &mut rng, jitter)?;
    Some((grid, cells))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn point_unit_paths_are_clear_and_shorter(seed in any::<u64>(), refine in any::<bool>()) {
        if let Some((grid, cells)) = random_case(seed, 0.0) {
            check_smoothing(&grid, &cells, 0.0, refine);
        }
    }

    #[test]
    fn winding_paths_are_clear_and_shorter(seed in any::<u64>()) {
        // Jittered cell costs: valid but far from shortest input paths.
        if let Some((grid, cells)) = random_case(seed, 3.0) {
            check_smoothing(&grid, &cells, 0.0, true);
        }
    }

    #[test]
    fn wide_unit_shortcuts_are_clear(seed in any::<u64>(), radius in 0.0f32..1.5, jitter in 0.0f64..2.0) {
        if let Some((grid, cells)) = random_case(seed, jitter) {
            check_smoothing(&grid, &cells, radius, true);
        }
    }

    #[test]
    fn segment_clear_matches_independent_test(
        seed in any::<u64>(),
        radius in prop_oneof![Just(0.0f32), 0.0f32..2.0],
    ) {
        let mut rng = Rng(seed);
        let (w, h) = (3 + rng.below(20) as u32, 3 + rng.below(20) as u32);
        let grid = random_grid(&mut rng, w, h, 0.2);
        let (w, h) = (grid.width() as f64, grid.height() as f64);
        for _ in 0..50 {
            let a = Vec2::new((rng.unit() * (w + 2.0) - 1.0) as f32, (rng.unit() * (h + 2.0) - 1.0) as f32);
            let len = rng.unit() * 8.0;
            let ang = rng.unit() * std::f64::consts::TAU;
            let b = Vec2::new(a.x + (len * ang.cos()) as f32, a.y + (len * ang.sin()) as f32);
            let clearance = seg_clearance(&grid, v(a), v(b), radius as f64 + 2.0);
            let r = radius as f64;
            // Outside a hair's breadth of the boundary case, the verdicts
            // must agree exactly.
            if (clearance - r).abs() > 1e-6 {
                prop_assert_eq!(segment_clear(&grid, a, b, radius), clearance > r,
                    "{} -> {} r {} clearance {}", a, b, r, clearance);
            }
        }
    }
}

/// Wide units on grids wider than a 64-cell word, with long segments of
/// every slope: the swept-disc test (strips read a word at a time along
/// rows) against the independent clearance.
#[test]
fn wide_segment_clear_matches_independent_test_on_wide_grids() {
    let mut rng = Rng(0x5eed_cafe);
    let mut checked = 0;
    for _ in 0..12 {
        let (w, h) = (60 + rng.below(90) as u32, 60 + rng.below(90) as u32);
        let grid = random_grid(&mut rng, w, h, 0.03);
        let (wf, hf) = (w as f64, h as f64);
        for _ in 0..300 {
            let radius = [0.3f32, 0.5, 0.75, 1.3][rng.below(4) as usize];
            let a = Vec2::new((rng.unit() * wf) as f32, (rng.unit() * hf) as f32);
            let len = rng.unit() * 40.0;
            let ang = rng.unit() * std::f64::consts::TAU;
            let b = Vec2::new(
                a.x + (len * ang.cos()) as f32,
                a.y + (len * ang.sin()) as f32,
            );
            let r = radius as f64;
            let clearance = seg_clearance(&grid, v(a), v(b), r + 2.0);
            if (clearance - r).abs() > 1e-6 {
                assert_eq!(
                    segment_clear(&grid, a, b, radius),
                    clearance > r,
                    "{a} -> {b} r {r} clearance {clearance}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 3000);
}

/// Checks the radius-0 `segment_clear` of `a -> b` against the independent
/// clearance and counts the verdict (`checked[1]`: clear). A clearance a
/// hair above 0 may go either way and is skipped; 0 means the segment meets
/// a blocked square.
fn check_point_segment(grid: &Grid, a: Vec2, b: Vec2, checked: &mut [usize; 2]) {
    let clearance = seg_clearance(grid, v(a), v(b), 2.0);
    if clearance == 0.0 || clearance > 1e-6 {
        assert_eq!(
            segment_clear(grid, a, b, 0.0),
            clearance > 0.0,
            "{a} -> {b} clearance {clearance}"
        );
        checked[(clearance > 0.0) as usize] += 1;
    }
}

/// Point segments inside one row or one column of cells (the radius-0
/// test reads those as one word, resp. one cell per row), long ones too,
/// against the independent clearance.
#[test]
fn point_segment_clear_in_one_row_or_column_matches_independent_test() {
    let mut rng = Rng(0x0e11_57a1);
    let mut checked = [0usize; 2];
    // Across the strip: anywhere in it, or within a hair of its edges.
    let across = |rng: &mut common::Rng, k: f64| {
        let d = [rng.unit(), 1e-3 * rng.unit(), 1.0 - 1e-3 * rng.unit()];
        k + d[rng.below(3) as usize]
    };
    for _ in 0..30 {
        let (w, h) = (3 + rng.below(150) as u32, 3 + rng.below(150) as u32);
        let density = rng.unit() * 0.1;
        let grid = random_grid(&mut rng, w, h, density);
        let (wf, hf) = (w as f64, h as f64);
        for _ in 0..400 {
            // Across the strip: anywhere in it, or within a hair of its edges.
            let column = rng.below(2) == 1;
            let (along, width) = if column { (hf, wf) } else { (wf, hf) };
            let k = rng.below(width as u64) as f64;
            let (u0, u1) = (across(&mut rng, k), across(&mut rng, k));
            let (s0, s1) = (rng.unit() * along, rng.unit() * along);
            let (a, b) = if column {
                (
                    Vec2::new(u0 as f32, s0 as f32),
                    Vec2::new(u1 as f32, s1 as f32),
                )
            } else {
                (
                    Vec2::new(s0 as f32, u0 as f32),
                    Vec2::new(s1 as f32, u1 as f32),
                )
            };
            check_point_segment(&grid, a, b, &mut checked);
        }
    }
    assert!(checked[0] > 1000 && checked[1] > 1000, "{checked:?}");
}

/// Point segments of every slope (steep ones are read column by column),
/// long ones too, against the independent test, blocked verdicts included.
#[test]
fn point_segment_clear_of_every_slope_matches_independent_test() {
    let mut rng = Rng(0x51_0be5);
    let mut checked = [0usize; 2];
    for _ in 0..30 {
        let (w, h) = (3 + rng.below(120) as u32, 3 + rng.below(120) as u32);
        let density = rng.unit() * 0.08;
        let grid = random_grid(&mut rng, w, h, density);
        let (wf, hf) = (w as f64, h as f64);
        for _ in 0..400 {
            let a = Vec2::new((rng.unit() * wf) as f32, (rng.unit() * hf) as f32);
            // Mostly steep, sometimes exactly vertical or diagonal.
            let b = match rng.below(4) {
                0 => Vec2::new(a.x, (rng.unit() * hf) as f32),
                1 => {
                    let d = (rng.unit() * 30.0 - 15.0) as f32;
                    Vec2::new(a.x + d, a.y + d)
                }
                _ => Vec2::new(
                    a.x + ((rng.unit() - 0.5) * 8.0) as f32,
                    (rng.unit() * hf) as f32,
                ),
            };
            check_point_segment(&grid, a, b, &mut checked);
        }
    }
    assert!(checked[0] > 1000 && checked[1] > 1000, "{checked:?}");
}

#[test]
fn segment_clear_agrees_with_line_of_sight() {
    let mut rng = Rng(7);
    for _ in 0..60 {
        let (w, h) = (2 + rng.below(30) as u32, 2 + rng.below(30) as u32);
        let density = rng.unit() * 0.4;
        let grid = random_grid(&mut rng, w, h, density);
        for _ in 0..400 {
            let a = Point::new(rng.below(w as u64) as u32, rng.below(h as u64) as u32);
            let b = Point::new(rng.below(w as u64) as u32, rng.below(h as u64) as u32);
            assert_eq!(
                segment_clear(&grid, centre(a), centre(b), 0.0),
                grid.line_of_sight(a, b),
                "{a} -> {b}"
            );
        }
    }
    // Lines through lattice vertices, where touching decides.
    let grid = Grid::from_rows(&["......", "......", "..@...", "......", "......"]).unwrap();
    for y in 0..5u32 {
        for x in 0..6u32 {
            for (bx, by) in [(0u32, 0u32), (5, 4), (0, 4), (5, 0)] {
                let (a, b) = (Point::new(x, y), Point::new(bx, by));
                assert_eq!(
                    segment_clear(&grid, centre(a), centre(b), 0.0),
                    grid.line_of_sight(a, b),
                    "{a} -> {b}"
                );
            }
        }
    }
}

#[test]
fn open_ground_becomes_one_segment() {
    let grid = Grid::new(30, 20, true).unwrap();
    let mut cells = Vec::new();
    for i in 0..8 {
        cells.push(Point::new(i, i));
    }
    for x in 8..25 {
        cells.push(Point::new(x, 7));
    }
    let (out, report) = check_smoothing(&grid, &cells, 0.0, true);
    assert_eq!(out, vec![Vec2::new(0.5, 0.5), Vec2::new(24.5, 7.5)]);
    assert!(report.output_length < report.input_length);
    // Wide units too, away from the map's outline.
    let cells: Vec<Point> = (2..18).map(|i| Point::new(i, 5 + i / 4)).collect();
    let (out, _) = check_smoothing(&grid, &cells, 1.5, true);
    assert_eq!(out.len(), 2);
}

#[test]
fn straight_runs_become_one_segment() {
    let grid = Grid::new(260, 260, true).unwrap();
    for k in 1..250u32 {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1)] {
            let cells: Vec<Point> = (0..=k)
                .map(|i| Point::new(2 + i * dx, 2 + i * dy))
                .collect();
            let (out, report) = check_smoothing(&grid, &cells, 0.0, true);
            assert_eq!(out.len(), 2, "k {k} ({dx}, {dy})");
            assert!(report.output_length <= report.input_length);
        }
    }
}

#[test]
fn corner_is_wrapped_tightly() {
    // An L-shaped path around a block: the smoothed path bends at the
    // block's corner, within a few thousandths of a cell.
    let grid = Grid::from_rows(&[
        "..........",
        "..........",
        "......@@@@",
        "......@@@@",
        "......@@@@",
        "......@@@@",
    ])
    .unwrap();
    let mut cells: Vec<Point> = (0..8).map(|x| Point::new(x, 0)).collect();
    cells.push(Point::new(8, 1));
    cells.push(Point::new(9, 1));
    // From the bottom-left to the top-right, round the block's corner (6, 2).
    let cells2 = [
        (0, 5),
        (1, 4),
        (2, 3),
        (3, 2),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 1),
        (8, 1),
        (9, 1),
    ]
    .map(|(x, y)| Point::new(x, y));
    check_smoothing(&grid, &cells, 0.0, true);
    let (out, _) = check_smoothing(&grid, &cells2, 0.0, true);
    assert_eq!(out.len(), 3, "{out:?}");
    let k = out[1];
    assert!(
        (k.x - 6.0).abs() < 0.005 && (k.y - 2.0).abs() < 0.005,
        "{k}"
    );
    // The optimum is the two straight legs through the corner.
    let best = ((6.0f64 - 0.5).hypot(2.0 - 5.5)) + (9.5f64 - 6.0).hypot(1.5 - 2.0);
    assert!(polyline_length(&out) < best + 0.01);
    // Greedy string pulling alone only keeps cell centres.
    let (greedy, _) = check_smoothing(&grid, &cells2, 0.0, false);
    assert!(greedy
        .iter()
        .all(|p| p.x.fract() == 0.5 && p.y.fract() == 0.5));
    assert!(polyline_length(&greedy) >= polyline_length(&out));
}

#[test]
fn wide_unit_keeps_narrow_steps_as_fallback() {
    // A 1-wide corridor: a unit of radius 0.5 touches its walls everywhere.
    let grid = Grid::from_rows(&["@@@@@@@@", "........", "@@@@@@@@"]).unwrap();
    let cells: Vec<Point> = (0..8).map(|x| Point::new(x, 1)).collect();
    let (out, report) = check_smoothing(&grid, &cells, 0.5, true);
    assert_eq!(out.len(), 8);
    assert_eq!(report.narrow_segments, 7);
    // A point fits: one segment.
    let (out, report) = check_smoothing(&grid, &cells, 0.0, true);
    assert_eq!(out.len(), 2);
    assert_eq!(report.narrow_segments, 0);
    // Just below half a cell, the unit fits without touching.
    let (out, report) = check_smoothing(&grid, &cells, 0.499, true);
    assert_eq!(out.len(), 2);
    assert_eq!(report.narrow_segments, 0);
}

#[test]
fn trivial_paths() {
    let grid = Grid::new(3, 3, true).unwrap();
    let (out, report) = check_smoothing(&grid, &[Point::new(1, 1)], 0.0, true);
    assert_eq!(out, vec![Vec2::new(1.5, 1.5)]);
    assert_eq!(report.output_length, 0.0);
    let (out, _) = check_smoothing(&grid, &[Point::new(1, 1), Point::new(2, 2)], 0.0, true);
    assert_eq!(out, vec![Vec2::new(1.5, 1.5), Vec2::new(2.5, 2.5)]);
    // Radius wider than the whole map: everything falls back.
    let cells = [Point::new(0, 0), Point::new(1, 1), Point::new(2, 1)];
    let (out, report) = check_smoothing(&grid, &cells, 5.0, true);
    assert_eq!(out.len(), 3);
    assert_eq!(report.narrow_segments, 2);
}

#[test]
fn errors_are_typed() {
    let grid = Grid::from_rows(&["...", ".@.", "..."]).unwrap();
    let opts = SmoothOptions::default();
    let p = Point::new;
    assert_eq!(smooth(&grid, &[], &opts), Err(SmoothError::EmptyPath));
    for radius in [-1.0, f32::NAN, f32::INFINITY] {
        let e = smooth(&grid, &[p(0, 0)], &SmoothOptions::with_radius(radius)).unwrap_err();
        assert!(matches!(e, SmoothError::InvalidRadius { .. }), "{e}");
    }
    assert!(matches!(
        smooth(&grid, &[p(0, 0), p(3, 0)], &opts),
        Err(SmoothError::OutOfBounds { index: 1, .. })
    ));
    assert!(matches!(
        smooth(&grid, &[p(0, 1), p(1, 1)], &opts),
        Err(SmoothError::BlockedCell { index: 1, .. })
    ));
    assert!(matches!(
        smooth(&grid, &[p(0, 0), p(2, 0)], &opts),
        Err(SmoothError::NotAdjacent { index: 1, .. })
    ));
    assert!(matches!(
        smooth(&grid, &[p(0, 0), p(0, 0)], &opts),
        Err(SmoothError::NotAdjacent { index: 1, .. })
    ));
    assert!(matches!(
        smooth(&grid, &[p(0, 0), p(1, 0), p(2, 1)], &opts),
        Err(SmoothError::CornerCut { index: 2, .. })
    ));
    // Messages are readable.
    let e = smooth(&grid, &[p(0, 0), p(1, 0), p(2, 1)], &opts).unwrap_err();
    assert!(e.to_string().contains("cuts a blocked corner"), "{e}");
}

#[test]
fn smoother_is_reusable_across_maps() {
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    let mut rng = Rng(42);
    for k in 0..50 {
        let Some((grid, cells)) = random_case(1000 + k, 0.5) else {
            continue;
        };
        let r = (rng.unit() * 1.2) as f32;
        smoother
            .smooth(&grid, &cells, &SmoothOptions::with_radius(r), &mut out)
            .unwrap();
        assert_eq!(
            out,
            smooth(&grid, &cells, &SmoothOptions::with_radius(r)).unwrap()
        );
    }
}

#[test]
fn segment_clear_rejects_bad_input() {
    let grid = Grid::new(5, 5, true).unwrap();
    let a = Vec2::new(1.5, 1.5);
    let b = Vec2::new(3.5, 2.5);
    assert!(segment_clear(&grid, a, b, 0.0));
    assert!(segment_clear(&grid, a, b, 0.9));
    assert!(!segment_clear(&grid, a, b, -0.1));
    assert!(!segment_clear(&grid, a, b, f32::NAN));
    assert!(!segment_clear(&grid, a, Vec2::new(f32::INFINITY, 0.0), 0.0));
    // Leaving the map, or touching its outline, is blocked.
    assert!(!segment_clear(&grid, a, Vec2::new(5.5, 2.5), 0.0));
    assert!(!segment_clear(&grid, a, Vec2::new(5.0, 2.5), 0.0));
    assert!(segment_clear(&grid, a, Vec2::new(4.99, 2.5), 0.0));
    assert!(!segment_clear(
        &grid,
        Vec2::new(2.5, 2.5),
        Vec2::new(2.5, 2.5),
        2.5
    ));
    assert!(segment_clear(
        &grid,
        Vec2::new(2.5, 2.5),
        Vec2::new(2.5, 2.5),
        2.49
    ));
}

/// A perfect maze (a tree of one-cell corridors, walls one cell thick, no two
/// blocked cells meeting at a corner only) of
/// `cw` × `ch` rooms, carved by a randomised depth-first search: rooms at
/// odd coordinates, the grid `2 cw + 1` × `2 ch + 1`.
fn perfect_maze(rng: &mut common::Rng, cw: u32, ch: u32) -> Grid {
    use regionpath_testkit::maps::{maze, EAST_FIRST};
    maze(2 * cw + 1, 2 * ch + 1, true, EAST_FIRST, &mut |n| {
        rng.below(n)
    })
}

/// Whether the segment `a`–`b` leaves the free space (the union of the
/// closed free squares; touching blocked squares is allowed, running
/// between two of them is not): cut at every grid line it crosses, each
/// piece's midpoint must lie in a free square (on a grid line, in one of
/// the two beside it).
fn crosses_blocked(grid: &Grid, a: V, b: V) -> bool {
    let d = (b.0 - a.0, b.1 - a.1);
    let mut ts = vec![0.0, 1.0];
    for (p, dp) in [(a.0, d.0), (a.1, d.1)] {
        if dp != 0.0 {
            let (lo, hi) = (p.min(p + dp).ceil() as i64, p.max(p + dp).floor() as i64);
            ts.extend((lo..=hi).map(|k| (k as f64 - p) / dp));
        }
    }
    ts.sort_by(f64::total_cmp);
    let near_int = |x: f64| (x - x.round()).abs() < 1e-9;
    let options = |x: f64| {
        if near_int(x) {
            vec![x.round() as i64 - 1, x.round() as i64]
        } else {
            vec![x.floor() as i64]
        }
    };
    ts.windows(2).filter(|w| w[1] - w[0] > 1e-12).any(|w| {
        let t = 0.5 * (w[0] + w[1]);
        let m = (a.0 + t * d.0, a.1 + t * d.1);
        let (xs, ys) = (options(m.0), options(m.1));
        !xs.iter().any(|&x| ys.iter().any(|&y| !blocked(grid, x, y)))
    })
}

/// The length of the shortest any-angle path from `s` to `t` that may touch
/// blocked squares but not enter them (a lower bound for every clear path):
/// Dijkstra over the visibility graph of the two points and the grid
/// points with exactly one blocked square (or out-of-map cell) around them.
fn any_angle_optimum(grid: &Grid, s: V, t: V) -> f64 {
    let mut nodes = vec![s, t];
    for y in 0..=grid.height() as i64 {
        for x in 0..=grid.width() as i64 {
            let around = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)];
            if around.iter().filter(|&&(u, v)| blocked(grid, u, v)).count() == 1 {
                nodes.push((x as f64, y as f64));
            }
        }
    }
    let n = nodes.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[0] = 0.0;
    loop {
        let Some(i) = (0..n)
            .filter(|&i| !done[i] && dist[i].is_finite())
            .min_by(|&i, &j| dist[i].total_cmp(&dist[j]))
        else {
            return f64::INFINITY;
        };
        if i == 1 {
            return dist[1];
        }
        done[i] = true;
        for j in 0..n {
            if done[j] {
                continue;
            }
            let l = (nodes[j].0 - nodes[i].0).hypot(nodes[j].1 - nodes[i].1);
            if dist[i] + l < dist[j] && !crosses_blocked(grid, nodes[i], nodes[j]) {
                dist[j] = dist[i] + l;
            }
        }
    }
}

#[test]
fn any_angle_optimum_of_a_known_corner() {
    // The oracle itself: round one block corner, and straight on open ground.
    let grid = Grid::from_rows(&["....", "..@.", "...."]).unwrap();
    let best = (2.0f64 - 0.5).hypot(1.0 - 0.5) + (3.5f64 - 2.0).hypot(2.5 - 1.0);
    assert!((any_angle_optimum(&grid, (0.5, 0.5), (3.5, 2.5)) - best).abs() < 1e-12);
    let open = Grid::new(5, 5, true).unwrap();
    assert!((any_angle_optimum(&open, (0.5, 0.5), (4.5, 3.5)) - 4f64.hypot(3.0)).abs() < 1e-12);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// One-cell corridors (where the refinement mostly takes the corner of
    /// a waypoint's cell without a scan): the smoothed path is clear and,
    /// the maze being a tree, within the clearance margin of the shortest
    /// any-angle path.
    #[test]
    fn maze_paths_are_taut(seed in any::<u64>()) {
        let mut rng = Rng(seed);
        let (cw, ch) = (2 + rng.below(14) as u32, 2 + rng.below(14) as u32);
        let grid = perfect_maze(&mut rng, cw, ch);
        let s = Point::new(2 * rng.below(cw as u64) as u32 + 1, 2 * rng.below(ch as u64) as u32 + 1);
        let t = Point::new(2 * rng.below(cw as u64) as u32 + 1, 2 * rng.below(ch as u64) as u32 + 1);
        let cells = dijkstra(&grid, s, t, &mut rng, 0.0).expect("a maze is connected");
        let (out, _) = check_smoothing(&grid, &cells, 0.0, true);
        let best = any_angle_optimum(&grid, v(centre(s)), v(centre(t)));
        let len = polyline_length(&out);
        prop_assert!(len >= best - 1e-6, "{len} < optimum {best}");
        // Each bend keeps about a thousandth of a cell from its corner.
        let slack = 0.005 * out.len() as f64;
        prop_assert!(len <= best + slack, "{len} > optimum {best} + {slack}: {out:?}");
    }
}
