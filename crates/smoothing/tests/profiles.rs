//! Smoothing under movement profiles, checked by rules written here from
//! the Semantics alone (they read the map's terrain and the
//! profile, never the smoother's view or code):
//!
//! * the footprint: a unit of size `k` whose footprint centre is at `c` is
//!   the square `[c - k/2, c + k/2]²`; every cell it overlaps with positive
//!   area must be on the map and priced by the profile (touching a wall is
//!   allowed, as the search's positions allow a corridor `k` wide);
//! * the cost of a segment: the integral along it of the cost of the
//!   position nearest the anchor (`c - k/2`), which on a single step is the
//!   step's length times the mean of its two positions' costs;
//! * the cost of a position path: the sum of its steps (the testkit
//!   oracle's `check_weighted_path`).
//!
//! Both are checked exactly: between the parameters where an anchor
//! coordinate crosses an integer (for the footprint) or a half-integer
//! (for the cost) nothing changes, so samples at those parameters and
//! between them, plus 64 samples per cell of length, see every change.

use regionpath_grid::{read_map, read_scen, Grid, Point, Profile, ProfileGrid, Terrain};
use regionpath_smoothing::{SmoothError, SmoothOptions, Smoother, Vec2};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};
use regionpath_testkit::profiled::{check_weighted_path, position_cost, weighted_distance};
use regionpath_testkit::{maps, Rng64, SplitMix64};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::time::Instant;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// A `w × h` map of the given kinds in blobs: each cell copies its left or
/// upper neighbour with probability 3/5, else draws a kind.
fn random_terrain(rng: &mut SplitMix64, w: u32, h: u32, kinds: &[char]) -> Grid {
    let mut rows: Vec<Vec<char>> = Vec::new();
    for y in 0..h as usize {
        let mut row = Vec::new();
        for x in 0..w as usize {
            let t = match rng.below(5) {
                0 | 1 if x > 0 => row[x - 1],
                2 if y > 0 => rows[y - 1][x],
                _ => kinds[rng.below(kinds.len() as u64) as usize],
            };
            row.push(t);
        }
        rows.push(row);
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    Grid::from_rows(&rows).unwrap()
}

/// A profile of size `k` over `kinds`: the first always priced, the others
/// three times in four, at costs from a small set (ties) or any in 0.5..10.
fn random_profile(rng: &mut SplitMix64, kinds: &[char], k: u32, few: bool) -> Profile {
    let mut b = Profile::builder("random").size(k);
    for (i, &c) in kinds.iter().enumerate() {
        if i > 0 && rng.below(4) == 0 {
            continue;
        }
        let cost = if few {
            [1.0, 1.0, 2.0, 3.5][rng.below(4) as usize]
        } else {
            0.5 + rng.below(9_500_000) as f64 / 1_000_000.0
        };
        b = b.cost(c, cost);
    }
    b.build().unwrap()
}

/// Every usable position, by the oracle's rule.
fn usable(grid: &Grid, profile: &Profile) -> Vec<Point> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
        .filter(|p| position_cost(grid, profile, p.x.into(), p.y.into()).is_some())
        .collect()
}

/// A position path from `s` to `g` by Dijkstra over the Semantics' moves,
/// each position's cost scaled by `1 + jitter · u` (u uniform in [0, 1)):
/// `jitter = 0` gives an optimal path, larger values winding ones.
fn position_path(
    grid: &Grid,
    profile: &Profile,
    s: Point,
    g: Point,
    rng: &mut SplitMix64,
    jitter: f64,
) -> Option<Vec<Point>> {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let cost: Vec<Option<f64>> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| position_cost(grid, profile, x, y))
        .map(|c| c.map(|c| c * (1.0 + jitter * rng.unit())))
        .collect();
    let at = |x: i64, y: i64| {
        (x >= 0 && y >= 0 && x < w && y < h)
            .then(|| cost[(y * w + x) as usize])
            .flatten()
    };
    let idx = |p: Point| i64::from(p.y) * w + i64::from(p.x);
    let mut dist = vec![f64::INFINITY; (w * h) as usize];
    let mut parent = vec![usize::MAX; (w * h) as usize];
    let mut heap = BinaryHeap::new();
    dist[idx(s) as usize] = 0.0;
    heap.push(Reverse((0u64, idx(s))));
    while let Some(Reverse((bits, i))) = heap.pop() {
        let d = f64::from_bits(bits);
        if d > dist[i as usize] {
            continue;
        }
        if i == idx(g) {
            let mut path = vec![g];
            let mut j = i as usize;
            while parent[j] != usize::MAX {
                j = parent[j];
                path.push(Point::new((j as i64 % w) as u32, (j as i64 / w) as u32));
            }
            path.reverse();
            return Some(path);
        }
        let (x, y) = (i % w, i / w);
        let Some(here) = at(x, y) else { continue };
        for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
            if (dx, dy) == (0, 0) {
                continue;
            }
            let Some(there) = at(x + dx, y + dy) else {
                continue;
            };
            let diagonal = dx != 0 && dy != 0;
            if diagonal && (at(x + dx, y).is_none() || at(x, y + dy).is_none()) {
                continue;
            }
            let base = if diagonal {
                std::f64::consts::SQRT_2
            } else {
                1.0
            };
            let nd = d + base * (here + there) / 2.0;
            let j = ((y + dy) * w + x + dx) as usize;
            if nd < dist[j] {
                dist[j] = nd;
                parent[j] = i as usize;
                heap.push(Reverse((nd.to_bits(), j as i64)));
            }
        }
    }
    None
}

/// The parameters in `[0, 1]` at which `a + s (b - a)` has a coordinate
/// equal to an integer plus `offset`, with 0, 1, the midpoints between
/// consecutive ones and `64 · |b - a|` evenly spaced ones.
fn samples(a: (f64, f64), b: (f64, f64), offset: f64) -> Vec<f64> {
    let mut s = vec![0.0, 1.0];
    for (p, q) in [(a.0, b.0), (a.1, b.1)] {
        if p != q {
            let (lo, hi) = (p.min(q), p.max(q));
            let mut v = (lo - offset).ceil() + offset;
            while v <= hi {
                s.push((v - p) / (q - p));
                v += 1.0;
            }
        }
    }
    let n = (64.0 * ((b.0 - a.0).hypot(b.1 - a.1))).ceil() as usize;
    s.extend((1..n).map(|i| i as f64 / n as f64));
    s.retain(|t| (0.0..=1.0).contains(t));
    s.sort_by(f64::total_cmp);
    s.dedup();
    let mids: Vec<f64> = s.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
    s.extend(mids);
    s
}

/// The first cell the `k × k` square centred at `c` overlaps that the
/// profile may not enter (or that is off the map), if any.
fn footprint_defect(grid: &Grid, profile: &Profile, c: (f64, f64)) -> Option<(i64, i64)> {
    let k = f64::from(profile.size());
    let (x0, y0) = (c.0 - k / 2.0, c.1 - k / 2.0);
    let (cx0, cx1) = (x0.floor() as i64, (x0 + k).ceil() as i64);
    let (cy0, cy1) = (y0.floor() as i64, (y0 + k).ceil() as i64);
    for y in cy0..cy1 {
        for x in cx0..cx1 {
            let priced = x >= 0
                && y >= 0
                && x < i64::from(grid.width())
                && y < i64::from(grid.height())
                && grid
                    .terrain(Point::new(x as u32, y as u32))
                    .ok()
                    .and_then(|t| profile.cost(t))
                    .is_some();
            if !priced {
                return Some((x, y));
            }
        }
    }
    None
}

/// Checks the waypoints against the footprint rule and returns their cost
/// (integrated exactly, see the module's documentation).
fn check_polyline(grid: &Grid, profile: &Profile, out: &[Vec2]) -> Result<f64, String> {
    let k = f64::from(profile.size());
    let mut cost = 0.0;
    for (i, w) in out.windows(2).enumerate() {
        let a = (f64::from(w[0].x), f64::from(w[0].y));
        let b = (f64::from(w[1].x), f64::from(w[1].y));
        let at = |s: f64| (a.0 + s * (b.0 - a.0), a.1 + s * (b.1 - a.1));
        for s in samples(a, b, k / 2.0) {
            if let Some(cell) = footprint_defect(grid, profile, at(s)) {
                return Err(format!(
                    "segment {i} {a:?} -> {b:?} at {:?} overlaps cell {cell:?}",
                    at(s)
                ));
            }
        }
        // Cost: the anchor's nearest position changes where an anchor
        // coordinate crosses a half-integer, i.e. the centre crosses an
        // integer plus (k + 1) / 2.
        let mut cuts = samples(a, b, (k + 1.0) / 2.0);
        cuts.sort_by(f64::total_cmp);
        let len = (b.0 - a.0).hypot(b.1 - a.1);
        for c in cuts.windows(2) {
            let (x, y) = at((c[0] + c[1]) / 2.0);
            let (px, py) = ((x - k / 2.0).round(), (y - k / 2.0).round());
            let p = position_cost(grid, profile, px as i64, py as i64)
                .ok_or_else(|| format!("segment {i} crosses unusable ({px}, {py})"))?;
            cost += (c[1] - c[0]) * len * p;
        }
    }
    Ok(cost)
}

/// The footprint centre of position `p` for size `k`.
fn centre(p: Point, k: u32) -> Vec2 {
    let h = k as f32 / 2.0;
    Vec2::new(p.x as f32 + h, p.y as f32 + h)
}

/// Smooths `path` and checks everything the contract promises against the
/// rules above; returns (input cost, output cost, waypoints).
fn smooth_and_check(
    smoother: &mut Smoother,
    grid: &Grid,
    profile: &Profile,
    view: &ProfileGrid,
    path: &[Point],
    refine: bool,
    what: &str,
) -> (f64, f64, Vec<Vec2>) {
    let k = profile.size();
    let opts = SmoothOptions {
        radius: k as f32 / 2.0,
        refine,
    };
    let mut out = Vec::new();
    let report = smoother
        .smooth_profiled(view, path, &opts, &mut out)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let (s, g) = (path[0], path[path.len() - 1]);
    let input = check_weighted_path(grid, profile, path, s, g).unwrap();
    assert_eq!(out.first(), Some(&centre(s, k)), "{what}");
    assert_eq!(out.last(), Some(&centre(g, k)), "{what}");
    let output = check_polyline(grid, profile, &out).unwrap_or_else(|e| panic!("{what}: {e}"));
    let tol = 1e-9 * input.max(1.0);
    assert!(output <= input + tol, "{what}: cost {output} > {input}");
    assert!(
        (report.input_cost - input).abs() <= tol,
        "{what}: {report:?} vs {input}"
    );
    assert!(
        (report.output_cost - output).abs() <= tol,
        "{what}: {report:?} vs {output}"
    );
    assert_eq!(report.narrow_segments, 0);
    let len: f64 = out
        .windows(2)
        .map(|w| f64::from(w[0].x - w[1].x).hypot(f64::from(w[0].y - w[1].y)))
        .sum();
    assert!(
        (report.output_length - len).abs() <= 1e-9 * len.max(1.0),
        "{what}"
    );
    (input, output, out)
}

#[test]
fn random_terrain_sizes_and_costs() {
    let mut rng = SplitMix64(3117);
    let mut smoother = Smoother::new();
    let (mut paths, mut maps_run, mut saved, mut total) = (0, 0, 0.0, 0.0);
    let (mut fewer, mut waypoints, mut positions) = (0usize, 0usize, 0usize);
    for trial in 0..320u64 {
        let w = 6 + rng.below(34) as u32;
        let h = 6 + rng.below(34) as u32;
        let pool: Vec<char> = "..GSWT@O~%#x".chars().collect();
        let kinds: Vec<char> = (0..1 + rng.below(6)).map(|_| rng.pick(&pool)).collect();
        let mut grid = random_terrain(&mut rng, w, h, &kinds);
        let k = 1 + (trial % 4) as u32;
        // Walls from a testkit layout (rooms with doors, a spiral corridor
        // about as wide as the unit, caves), or none.
        let below = &mut |n| rng.below(n);
        let layout = match (trial / 4) % 4 {
            0 => None,
            1 => Some(maps::rooms(w, h, 3 + k + below(4) as u32, 50, below)),
            2 => Some(maps::spiral(w, h, k + below(2) as u32, trial % 8 < 4)),
            _ => Some(maps::caves(w, h, 40, 3, below)),
        };
        if let Some(walls) = layout {
            for p in (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y))) {
                if !walls.is_passable(p) {
                    grid.set_terrain(p, Terrain::from_char('|').unwrap())
                        .unwrap();
                }
            }
        }
        let profile = random_profile(&mut rng, &kinds, k, trial % 3 == 0);
        let view = ProfileGrid::new(&grid, &profile);
        let open = usable(&grid, &profile);
        if open.is_empty() {
            continue;
        }
        maps_run += 1;
        for q in 0..8 {
            let s = rng.pick(&open);
            let g = rng.pick(&open);
            let jitter = [0.0, 0.0, 0.3, 2.0][q % 4];
            let Some(path) = position_path(&grid, &profile, s, g, &mut rng, jitter) else {
                assert_eq!(weighted_distance(&grid, &profile, s, g), None);
                continue;
            };
            if jitter == 0.0 {
                // The path is optimal: the testkit oracle agrees.
                let c = check_weighted_path(&grid, &profile, &path, s, g).unwrap();
                let d = weighted_distance(&grid, &profile, s, g).unwrap();
                assert!((c - d).abs() <= 1e-9 * d.max(1.0), "trial {trial}");
            }
            let what = format!("trial {trial} k {k} {s}->{g} jitter {jitter}");
            let refine = q % 3 != 2;
            let (input, output, out) =
                smooth_and_check(&mut smoother, &grid, &profile, &view, &path, refine, &what);
            paths += 1;
            saved += input - output;
            total += input;
            waypoints += out.len();
            positions += path.len();
            fewer += usize::from(out.len() < path.len());
        }
    }
    println!(
        "{maps_run} maps, {paths} paths: cost saved {:.2}% of {total:.0}, \
         {waypoints} waypoints for {positions} positions, {fewer} paths shortened",
        100.0 * saved / total
    );
    assert!(paths >= 1000, "{paths}");
    assert!(fewer * 3 >= paths, "smoothing took too few shortcuts");
}

/// A swamp rectangle between start and goal: the straight line through it
/// is shorter but costs more for a walker, and must not be taken; over the
/// same path with swamp as cheap as ground it is.
#[test]
fn swamp_is_no_shortcut_for_a_walker() {
    let rows = [
        "....................",
        "....................",
        "....................",
        ".....SSSSSSSSSS.....",
        ".....SSSSSSSSSS.....",
        ".....SSSSSSSSSS.....",
        ".....SSSSSSSSSS.....",
        ".....SSSSSSSSSS.....",
        "....................",
        "....................",
    ];
    let grid = Grid::from_rows(&rows).unwrap();
    let walker = Profile::builder("walker")
        .cost('.', 1.0)
        .cost('S', 4.0)
        .build()
        .unwrap();
    let wader = Profile::builder("wader")
        .cost('.', 1.0)
        .cost('S', 1.0)
        .build()
        .unwrap();
    let (s, g) = (Point::new(2, 5), Point::new(17, 5));
    // A detour round the swamp: up to row 1, across, down.
    let path: Vec<Point> = (1..=5)
        .rev()
        .map(|y| Point::new(2, y))
        .chain((3..=16).map(|x| Point::new(x, 1)))
        .chain((1..=5).map(|y| Point::new(17, y)))
        .collect();
    assert!(path
        .iter()
        .all(|p| rows[p.y as usize].as_bytes()[p.x as usize] == b'.'));
    let mut smoother = Smoother::new();
    for refine in [false, true] {
        let view = ProfileGrid::new(&grid, &walker);
        let (input, output, out) = smooth_and_check(
            &mut smoother,
            &grid,
            &walker,
            &view,
            &path,
            refine,
            "walker",
        );
        assert!(output < input, "no shortcut round the swamp: {out:?}");
        assert!(out.len() >= 3, "{out:?}");
        // The straight line costs (2.5 + 4 · 10 + 2.5): far above the detour.
        let straight = check_polyline(&grid, &walker, &[out[0], out[out.len() - 1]]).unwrap();
        assert!(straight < 46.0 && straight > output, "{straight} {output}");
        let view = ProfileGrid::new(&grid, &wader);
        let (_, output, out) =
            smooth_and_check(&mut smoother, &grid, &wader, &view, &path, refine, "wader");
        assert_eq!(out, vec![centre(s, 1), centre(g, 1)]);
        assert!((output - 15.0).abs() < 1e-9);
    }
}

/// A 2-wide unit beside a 1-wide door: its path and every shortcut go
/// through the 2-wide gap, never clipping the door's jambs; a 1-wide unit
/// takes the door, touching both jambs, with no narrow segment.
#[test]
fn two_wide_unit_next_to_a_one_wide_door() {
    let rows = [
        "....................",
        "....................",
        "....................",
        "....................",
        "@@@@@.@@@@@@@@..@@@@",
        "....................",
        "....................",
        "....................",
        "....................",
    ];
    let grid = Grid::from_rows(&rows).unwrap();
    let mut smoother = Smoother::new();
    let mut rng = SplitMix64(2);
    for k in [1u32, 2] {
        let profile = Profile::builder("u")
            .size(k)
            .cost('.', 1.0)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        let (s, g) = (Point::new(2, 0), Point::new(3, 7));
        let path = position_path(&grid, &profile, s, g, &mut rng, 0.0).unwrap();
        let (_, _, out) =
            smooth_and_check(&mut smoother, &grid, &profile, &view, &path, true, "door");
        let through = |x: f32| {
            out.windows(2).any(|w| {
                let (a, b) = (w[0], w[1]);
                // The crossing of the wall's centre line y = 4.5.
                (a.y - 4.5) * (b.y - 4.5) <= 0.0 && {
                    let t = (4.5 - a.y) / (b.y - a.y);
                    let xc = a.x + t * (b.x - a.x);
                    (x - xc).abs() < 1e-3
                }
            })
        };
        if k == 1 {
            assert!(through(5.5), "{out:?}");
        } else {
            assert!(through(15.0), "{out:?}");
        }
    }
    // The straight line from the tank's start to its goal passes the
    // narrow door: the checker rejects it.
    let tank = Profile::builder("t")
        .size(2)
        .cost('.', 1.0)
        .build()
        .unwrap();
    let line = [centre(Point::new(4, 0), 2), centre(Point::new(5, 7), 2)];
    assert!(check_polyline(&grid, &tank, &line).is_err());
}

#[test]
fn radius_must_fit_the_footprint() {
    let grid = Grid::from_rows(&["....", "....", "...."]).unwrap();
    let mut smoother = Smoother::new();
    let mut out = Vec::new();
    let path = [Point::new(0, 0), Point::new(1, 1)];
    for k in [1u32, 2] {
        let p = Profile::builder("u")
            .size(k)
            .cost('.', 1.0)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&grid, &p);
        let half = k as f32 / 2.0;
        let ok =
            smoother.smooth_profiled(&view, &path, &SmoothOptions::with_radius(half), &mut out);
        assert!(ok.is_ok(), "{ok:?}");
        let wide = half + 0.01;
        assert_eq!(
            smoother.smooth_profiled(&view, &path, &SmoothOptions::with_radius(wide), &mut out),
            Err(SmoothError::RadiusExceedsSize {
                radius: wide,
                size: k
            })
        );
        assert!(out.is_empty());
        assert!(matches!(
            smoother.smooth_profiled(
                &view,
                &path,
                &SmoothOptions::with_radius(f32::NAN),
                &mut out
            ),
            Err(SmoothError::InvalidRadius { .. })
        ));
    }
    // A position the 2-wide unit cannot stand on.
    let p = Profile::builder("u")
        .size(2)
        .cost('.', 1.0)
        .build()
        .unwrap();
    let view = ProfileGrid::new(&grid, &p);
    let bad = [Point::new(2, 1), Point::new(3, 1)];
    assert!(matches!(
        smoother.smooth_profiled(&view, &bad, &SmoothOptions::default(), &mut out),
        Err(SmoothError::BlockedCell { index: 1, .. })
    ));
    assert_eq!(
        smoother.smooth_profiled(&view, &[], &SmoothOptions::default(), &mut out),
        Err(SmoothError::EmptyPath)
    );
}

#[test]
fn warm_calls_do_not_allocate() {
    let mut rng = SplitMix64(9);
    let kinds = ['.', '.', 'S', 'G', '@'];
    let grid = random_terrain(&mut rng, 48, 48, &kinds);
    let mut cases = Vec::new();
    for k in 1..=3u32 {
        let profile = Profile::builder("u")
            .size(k)
            .cost('.', 1.0)
            .cost('S', 3.0)
            .cost('G', 1.5)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        let open = usable(&grid, &profile);
        let mut paths = Vec::new();
        while paths.len() < 10 {
            let (s, g) = (rng.pick(&open), rng.pick(&open));
            if let Some(p) = position_path(&grid, &profile, s, g, &mut rng, 0.5) {
                paths.push(p);
            }
        }
        cases.push((view, paths));
    }
    let mut smoother = Smoother::new();
    let mut out = Vec::with_capacity(4096);
    let opts = SmoothOptions::default();
    let run = |smoother: &mut Smoother, out: &mut Vec<Vec2>| {
        for (view, paths) in &cases {
            for p in paths {
                smoother.smooth_profiled(view, p, &opts, out).unwrap();
            }
        }
    };
    run(&mut smoother, &mut out);
    let ((), usage) = measure_thread(|| run(&mut smoother, &mut out));
    assert_eq!(usage.allocations, 0);
}

/// The Moving AI folder: `$REGIONPATH_MOVINGAI`, else `shared/movingai`
/// beside the workspace.
fn movingai_dir() -> PathBuf {
    match std::env::var_os("REGIONPATH_MOVINGAI") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai"),
    }
}

/// The default profile on sampled Moving AI rows: every output is clear
/// for the unit's cell by the checker above and never longer than the
/// input; its lengths are compared with `smooth`'s for a point (radius 0,
/// which grazes corners: a lower bound in practice) and for radius 0.5
/// (which may not touch walls: narrow fallback steps where the unit's
/// cell fits).
#[test]
fn default_profile_on_movingai_rows() {
    let dir = movingai_dir();
    if !dir.join("maps").is_dir() {
        if std::env::var_os("CI").is_some() {
            panic!("no Moving AI data under {}", dir.display());
        }
        eprintln!("no Moving AI data under {}: skipped", dir.display());
        return;
    }
    let profile = Profile::default();
    let mut smoother = Smoother::new();
    let mut rng = SplitMix64(4);
    let (mut rows, mut point, mut wide, mut ours, mut narrow) = (0, 0.0, 0.0, 0.0, 0);
    let (mut time_ours, mut time_point) = (0.0, 0.0);
    for name in [
        "den520d",
        "AR0011SR",
        "Berlin_0_256",
        "maze512-8-0",
        "random512-25-0",
    ] {
        let grid = read_map(dir.join(format!("maps/{name}.map"))).unwrap();
        let scen = read_scen(dir.join(format!("scen/{name}.map.scen"))).unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        let stride = (scen.rows.len() / 60).max(1);
        for row in scen.rows.iter().step_by(stride).take(60) {
            if row.start == row.goal {
                continue;
            }
            let path = regionpath_testkit::oracle::jittered_path(
                &grid, row.start, row.goal, &mut rng, 0.0,
            )
            .unwrap();
            let what = format!("{name} line {}", row.line);
            let (input, output, _) =
                smooth_and_check(&mut smoother, &grid, &profile, &view, &path, true, &what);
            // Times are printed, never asserted.
            let mut w = Vec::new();
            let t = Instant::now();
            smoother
                .smooth_profiled(&view, &path, &SmoothOptions::default(), &mut w)
                .unwrap();
            time_ours += t.elapsed().as_secs_f64();
            let t = Instant::now();
            smoother
                .smooth(&grid, &path, &SmoothOptions::default(), &mut w)
                .unwrap();
            time_point += t.elapsed().as_secs_f64();
            assert!((input - row.optimal).abs() < 0.01, "{what}");
            let mut w = Vec::new();
            let r0 = smoother
                .smooth(&grid, &path, &SmoothOptions::with_radius(0.0), &mut w)
                .unwrap();
            let r5 = smoother
                .smooth(&grid, &path, &SmoothOptions::with_radius(0.5), &mut w)
                .unwrap();
            rows += 1;
            ours += output / input;
            point += r0.output_length / input;
            wide += r5.output_length / input;
            narrow += r5.narrow_segments;
        }
    }
    let n = rows as f64;
    println!(
        "{rows} Moving AI rows, output / optimal length: footprint {:.4}, \
         point (smooth r 0) {:.4}, disc (smooth r 0.5) {:.4} with {narrow} narrow segments",
        ours / n,
        point / n,
        wide / n
    );
    println!(
        "mean time per path: smooth_profiled {:.1} µs, smooth (point) {:.1} µs",
        1e6 * time_ours / n,
        1e6 * time_point / n
    );
    assert!(rows >= 250, "{rows}");
}

/// The exact shortest any-angle path for the footprint on small uniform
/// maps: the forbidden anchors are the open squares of side 2 around
/// unusable positions, whose corners are lattice points, so a shortest
/// path bends only at positions; Dijkstra over all usable positions with
/// an edge wherever the checker above accepts the segment. No smoothed
/// path may be shorter (that would mean the checker and the smoother
/// disagree); the mean ratio is printed.
#[test]
fn never_shorter_than_the_exact_footprint_optimum() {
    let mut rng = SplitMix64(77);
    let mut smoother = Smoother::new();
    let (mut n, mut ratio_sum, mut worst) = (0, 0.0, 1.0f64);
    for trial in 0..40u32 {
        let (w, h) = (12 + rng.below(9) as u32, 12 + rng.below(9) as u32);
        let k = 1 + trial % 3;
        let mut grid = random_terrain(&mut rng, w, h, &['.', '.', '.', '@']);
        if trial % 2 == 1 {
            let walls = maps::rooms(w, h, 3 + k, 60, &mut |n| rng.below(n));
            for p in (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y))) {
                if !walls.is_passable(p) {
                    grid.set_terrain(p, Terrain::from_char('@').unwrap())
                        .unwrap();
                }
            }
        }
        let profile = Profile::builder("u")
            .size(k)
            .cost('.', 1.0)
            .build()
            .unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        let open = usable(&grid, &profile);
        if open.len() < 2 {
            continue;
        }
        for q in 0..4 {
            let (s, g) = (rng.pick(&open), rng.pick(&open));
            let jitter = [0.0, 0.5][q % 2];
            let Some(path) = position_path(&grid, &profile, s, g, &mut rng, jitter) else {
                continue;
            };
            let (_, output, _) = smooth_and_check(
                &mut smoother,
                &grid,
                &profile,
                &view,
                &path,
                true,
                &format!("trial {trial} {s}->{g}"),
            );
            // Dijkstra over the visibility graph of usable positions.
            let m = open.len();
            let (si, gi) = (
                open.iter().position(|&p| p == s).unwrap(),
                open.iter().position(|&p| p == g).unwrap(),
            );
            let mut dist = vec![f64::INFINITY; m];
            let mut done = vec![false; m];
            dist[si] = 0.0;
            while let Some(u) = (0..m)
                .filter(|&i| !done[i] && dist[i].is_finite())
                .min_by(|&a, &b| dist[a].total_cmp(&dist[b]))
            {
                if u == gi {
                    break;
                }
                done[u] = true;
                for v in 0..m {
                    if done[v] {
                        continue;
                    }
                    let (a, b) = (centre(open[u], k), centre(open[v], k));
                    let d = f64::from(a.x - b.x).hypot(f64::from(a.y - b.y));
                    if dist[u] + d < dist[v] && check_polyline(&grid, &profile, &[a, b]).is_ok() {
                        dist[v] = dist[u] + d;
                    }
                }
            }
            let best = dist[gi];
            assert!(
                output >= best - 1e-9,
                "trial {trial}: {output} < optimum {best}"
            );
            if best > 0.0 {
                n += 1;
                ratio_sum += output / best;
                worst = worst.max(output / best);
            }
        }
    }
    println!(
        "{n} paths: smoothed / exact footprint optimum: mean {:.4}, worst {worst:.4}",
        ratio_sum / f64::from(n)
    );
    assert!(n >= 50, "{n}");
}
