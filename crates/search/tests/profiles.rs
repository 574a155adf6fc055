//! A* under movement profiles against the independent oracle of
//! `regionpath_testkit::profiled` (a Dijkstra in `f64` written from the
//! rules), on random maps with random kinds, costs and unit sizes; the
//! default profile against today's search on Moving AI maps.

use regionpath_grid::{read_map, read_scen, Grid, Point, Profile, ProfileGrid};
use regionpath_search::{AStar, SearchError, Status};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};
use regionpath_testkit::profiled::{
    check_weighted_path, position_cost, random_kinds, random_profile, random_terrain,
    weighted_distance,
};
use regionpath_testkit::{maps, Rng64, SplitMix64};
use std::path::PathBuf;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// The Moving AI folder: `$REGIONPATH_MOVINGAI`, else `shared/movingai`
/// beside the workspace.
fn movingai_dir() -> PathBuf {
    match std::env::var_os("REGIONPATH_MOVINGAI") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai"),
    }
}

/// Usable positions by the oracle's own rule.
fn usable(grid: &Grid, profile: &Profile) -> Vec<Point> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
        .filter(|p| position_cost(grid, profile, p.x.into(), p.y.into()).is_some())
        .collect()
}

/// The worst relative gap between A*'s cost and the oracle's: fixed-point
/// step costs round by at most half a unit of 2⁻³⁰, under 10⁻⁹ of a step
/// of cost ≥ 0.5, so the optimum in fixed point is within 2·10⁻⁹ of the
/// real one.
const TOLERANCE: f64 = 1e-8;

#[test]
fn weighted_astar_matches_dijkstra_on_random_terrain() {
    let mut rng = SplitMix64(31);
    let mut astar = AStar::new();
    let mut path = Vec::new();
    let (mut maps_run, mut queries, mut found, mut unreachable, mut uniform) = (0, 0, 0, 0, 0);
    let mut worst: f64 = 0.0;
    for trial in 0..160 {
        let w = 6 + rng.below(34) as u32;
        let h = 6 + rng.below(34) as u32;
        let n = 1 + rng.below(16) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let k = 1 + (trial % 4) as u32;
        let profile = random_profile(&mut rng, &kinds, k, trial % 3 == 0);
        let view = ProfileGrid::new(&grid, &profile);
        let open = usable(&grid, &profile);
        if open.is_empty() {
            continue;
        }
        maps_run += 1;
        uniform += usize::from(view.is_uniform());
        for _ in 0..12 {
            let s = open[rng.below(open.len() as u64) as usize];
            let g = open[rng.below(open.len() as u64) as usize];
            let want = weighted_distance(&grid, &profile, s, g);
            let st = astar
                .find_path_weighted_into(&view, s, g, &mut path)
                .unwrap();
            queries += 1;
            match want {
                None => {
                    assert_eq!(st.status, Status::NoPath, "trial {trial} {s}->{g}");
                    assert!(path.is_empty());
                    unreachable += 1;
                }
                Some(d) => {
                    assert_eq!(st.status, Status::Found, "trial {trial} {s}->{g}");
                    let c = check_weighted_path(&grid, &profile, &path, s, g)
                        .unwrap_or_else(|e| panic!("trial {trial} {s}->{g}: {e}"));
                    assert!(
                        (c - st.cost).abs() <= 1e-9 * c.max(1.0),
                        "reported {} recomputed {c}",
                        st.cost
                    );
                    let gap = (c - d).abs() / d.max(1.0);
                    worst = worst.max(gap);
                    assert!(gap <= TOLERANCE, "trial {trial} {s}->{g}: {c} vs {d}");
                    found += 1;
                }
            }
        }
    }
    eprintln!(
        "{maps_run} maps ({uniform} uniform), {queries} queries: {found} found, \
         {unreachable} unreachable, worst relative gap {worst:e}"
    );
    assert!(found > 800 && unreachable > 50, "{found} {unreachable}");
}

#[test]
fn weighted_errors_are_typed() {
    let grid = Grid::from_rows(&["..S", ".W.", "..."]).unwrap();
    let tank = Profile::builder("t")
        .size(2)
        .cost('.', 1.0)
        .cost('S', 2.0)
        .build()
        .unwrap();
    let view = ProfileGrid::new(&grid, &tank);
    let mut a = AStar::new();
    let p = Point::new;
    // (1, 0) covers the water; (2, 0) leaves the map.
    assert_eq!(
        a.find_path_weighted(&view, p(1, 0), p(0, 0)),
        Err(SearchError::StartBlocked(p(1, 0)))
    );
    assert_eq!(
        a.find_path_weighted(&view, p(0, 1), p(2, 0)),
        Err(SearchError::StartBlocked(p(0, 1)))
    );
    let boat = Profile::builder("b")
        .cost('W', 1.0)
        .cost('.', 3.0)
        .build()
        .unwrap();
    let view = ProfileGrid::new(&grid, &boat);
    assert_eq!(
        a.find_path_weighted(&view, p(1, 1), p(2, 0)),
        Err(SearchError::GoalBlocked(p(2, 0)))
    );
    assert_eq!(
        a.find_path_weighted(&view, p(3, 1), p(1, 1)),
        Err(SearchError::StartOutOfBounds(p(3, 1)))
    );
    assert_eq!(
        a.find_path_weighted(&view, p(1, 1), p(1, 3)),
        Err(SearchError::GoalOutOfBounds(p(1, 3)))
    );
    // The boat may leave the water: 1 · (1 + 3) / 2.
    let f = a.find_path_weighted(&view, p(1, 1), p(1, 0)).unwrap();
    assert_eq!((f.status, f.cost), (Status::Found, 2.0));
}

/// Once warm, a weighted query allocates nothing.
#[test]
fn warm_weighted_queries_do_not_allocate() {
    let mut rng = SplitMix64(7);
    let kinds = random_kinds(&mut rng, 6);
    let grid = random_terrain(&mut rng, 48, 40, &kinds);
    let profile = random_profile(&mut rng, &kinds, 2, false);
    let view = ProfileGrid::new(&grid, &profile);
    assert!(!view.is_uniform());
    let open = usable(&grid, &profile);
    let pairs: Vec<_> = (0..40)
        .map(|_| {
            (
                open[rng.below(open.len() as u64) as usize],
                open[rng.below(open.len() as u64) as usize],
            )
        })
        .collect();
    let mut a = AStar::new();
    let mut path = Vec::with_capacity(48 * 40);
    for &(s, g) in &pairs {
        a.find_path_weighted_into(&view, s, g, &mut path).unwrap();
    }
    // Counted on this thread only: the other tests of this binary run
    // beside it.
    let ((), usage) = measure_thread(|| {
        for &(s, g) in &pairs {
            a.find_path_weighted_into(&view, s, g, &mut path).unwrap();
        }
    });
    assert_eq!(usage.allocations, 0);
    // The weighted jump point search, to a cell and to a set of cells.
    let table = regionpath_search::StepTable::new(&view);
    let win = regionpath_search::Window::full(&grid);
    let mut jps = regionpath_search::WindowedJps::new();
    let mut goals = vec![0u64; win.area().div_ceil(64)];
    let mut run = |jps: &mut regionpath_search::WindowedJps, path: &mut Vec<Point>| {
        let mut found = 0;
        for &(s, g) in &pairs {
            let h = |p: Point| table.octile(p, g);
            let st = jps
                .find_path_weighted_into(&view, &table, win, s, g, h, path)
                .unwrap();
            found += usize::from(st.status == Status::Found);
            let i = (g.y * grid.width() + g.x) as usize;
            goals[i >> 6] |= 1 << (i & 63);
            jps.find_path_to_any_weighted_into(&view, &table, win, s, &goals, h, path)
                .unwrap();
            goals[i >> 6] = 0;
        }
        found
    };
    assert!(run(&mut jps, &mut path) > 10);
    let (_, usage) = measure_thread(|| run(&mut jps, &mut path));
    assert_eq!(usage.allocations, 0);
}

/// The default profile's view of a Moving AI map (or of a random one) is
/// the map's passability, bit for bit; a search under it gives today's
/// cost, bit for bit.
#[test]
fn default_profile_is_todays_behaviour() {
    let mut rng = SplitMix64(3);
    let profile = Profile::default();
    for _ in 0..20 {
        let (w, h) = (1 + rng.below(140) as u32, 1 + rng.below(70) as u32);
        let g = maps::obstacles(w, h, rng.below(40), &mut |n| rng.below(n));
        let v = ProfileGrid::new(&g, &profile);
        assert_eq!(v.grid().checksum(), g.checksum());
        assert_eq!(v.grid().passable_count(), g.passable_count());
    }
    let dir = movingai_dir();
    let Ok(entries) = std::fs::read_dir(dir.join("maps")) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "Moving AI data missing at {}",
            dir.display()
        );
        eprintln!("skipped the Moving AI maps: {} not found", dir.display());
        return;
    };
    let mut names: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".map"))
        .collect();
    names.sort();
    let (mut a, mut b) = (AStar::new(), AStar::new());
    let (mut rows, mut maps_checked) = (0, 0);
    for name in &names {
        let grid = read_map(dir.join("maps").join(name)).unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        assert_eq!(view.grid().checksum(), grid.checksum(), "{name}");
        assert!(view.is_uniform());
        maps_checked += 1;
        let Ok(scen) = read_scen(dir.join("scen").join(format!("{name}.scen"))) else {
            continue;
        };
        for r in scen.rows.iter().step_by(97) {
            let today = a.find_path(&grid, r.start, r.goal).unwrap();
            let under = b.find_path_weighted(&view, r.start, r.goal).unwrap();
            assert_eq!(today.status, under.status, "{name} {r:?}");
            assert_eq!(today.cost.to_bits(), under.cost.to_bits(), "{name} {r:?}");
            rows += 1;
        }
    }
    eprintln!("{maps_checked} Moving AI maps, {rows} rows: same passability and costs");
    assert!(rows > 0);
}

/// Windowed A* under a profile with its heuristic priced at the cheapest
/// class of the window's positions ([`StepTable::octile_from`]) against the
/// oracle run on the window cut out as a map of its own (size 1: a move
/// between two cells of the window never needs a cell outside it): the
/// same reachability and the optimal cost, on random terrain and windows.
/// The window's cells of the map's cheapest kind are repainted with its
/// dearest, so the floor is above the map's cheapest class.
#[test]
fn windowed_heuristic_floor_stays_exact() {
    use regionpath_search::{StepTable, Window, WindowedAStar};
    let mut rng = SplitMix64(57);
    let mut search = WindowedAStar::new();
    let mut path = Vec::new();
    let (mut raised, mut found) = (0, 0);
    for trial in 0..200 {
        let (w, h) = (12 + rng.below(40) as u32, 12 + rng.below(40) as u32);
        let n = 2 + rng.below(6) as usize;
        let kinds = random_kinds(&mut rng, n);
        let painted = random_terrain(&mut rng, w, h, &kinds);
        let profile = random_profile(&mut rng, &kinds, 1, trial % 2 == 0);
        let (ww, wh) = (
            4 + rng.below(w as u64 - 3) as u32,
            4 + rng.below(h as u64 - 3) as u32,
        );
        let win = Window {
            x: rng.below((w - ww + 1) as u64) as u32,
            y: rng.below((h - wh + 1) as u64) as u32,
            width: ww,
            height: wh,
        };
        // Repaint the window's cells of the map's cheapest kind with the
        // dearest passable kind, so that its floor is above the map's.
        let cell = |p: Point| {
            let t = painted.terrain(p).unwrap();
            (t.to_char(), profile.cost(t))
        };
        let all = (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y)));
        let priced: Vec<(char, f64)> = all
            .filter_map(|p| {
                let (c, cost) = cell(p);
                cost.map(|v| (c, v))
            })
            .collect();
        let (Some(cheap), Some(dear)) = (
            priced.iter().min_by(|a, b| a.1.total_cmp(&b.1)),
            priced.iter().max_by(|a, b| a.1.total_cmp(&b.1)),
        ) else {
            continue;
        };
        let rows: Vec<String> = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| {
                        let p = Point::new(x, y);
                        let (c, cost) = cell(p);
                        let inside = x >= win.x && x < win.x + ww && y >= win.y && y < win.y + wh;
                        if inside && cost == Some(cheap.1) {
                            dear.0
                        } else {
                            c
                        }
                    })
                    .collect()
            })
            .collect();
        let grid = Grid::from_rows(&rows).unwrap();
        let view = ProfileGrid::new(&grid, &profile);
        if view.is_uniform() {
            continue;
        }
        let table = StepTable::new(&view);
        let inside: Vec<Point> = (win.y..win.y + wh)
            .flat_map(|y| (win.x..win.x + ww).map(move |x| Point::new(x, y)))
            .filter(|&p| view.is_usable(p))
            .collect();
        let Some(floor) = inside.iter().filter_map(|&p| view.cost_class(p)).min() else {
            continue;
        };
        raised += usize::from(floor > 0);
        let cut = cut_for(&grid, win, 1);
        for _ in 0..6 {
            let s = inside[rng.below(inside.len() as u64) as usize];
            let g = inside[rng.below(inside.len() as u64) as usize];
            let st = search
                .find_path_weighted_into(&view, &table, floor, win, s, g, None, &mut path)
                .unwrap();
            let local = |p: Point| Point::new(p.x - win.x, p.y - win.y);
            let oracle = weighted_distance(&cut, &profile, local(s), local(g));
            match (st.status, oracle) {
                (Status::Found, Some(d)) => {
                    found += 1;
                    assert!(
                        (st.cost - d).abs() <= TOLERANCE * d.max(1.0),
                        "trial {trial}: {s} to {g} in {win:?}, floor {floor}: {} vs {d}",
                        st.cost
                    );
                }
                (Status::NoPath, None) => {}
                (got, want) => panic!("trial {trial}: {s} to {g}: {got:?} vs {want:?}"),
            }
        }
    }
    assert!(
        raised >= 40 && found >= 300,
        "raised floors {raised}, paths {found}"
    );
}

/// A map of one kind with random rectangles of others painted over it
/// (large areas of one cost, where jump point search skips the most).
fn blob_terrain(rng: &mut SplitMix64, w: u32, h: u32, kinds: &[regionpath_grid::Terrain]) -> Grid {
    let mut rows = vec![vec![kinds[0].to_char(); w as usize]; h as usize];
    for _ in 0..rng.below(12) {
        let c = kinds[rng.below(kinds.len() as u64) as usize].to_char();
        let (x0, y0) = (rng.below(w as u64) as usize, rng.below(h as u64) as usize);
        let (rw, rh) = (1 + rng.below(10) as usize, 1 + rng.below(10) as usize);
        for row in rows.iter_mut().skip(y0).take(rh) {
            for cell in row.iter_mut().skip(x0).take(rw) {
                *cell = c;
            }
        }
    }
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    Grid::from_rows(&rows).unwrap()
}

/// The cells that carry the positions of `win` for a unit of size `k`:
/// the window grown by `k - 1` cells right and down (cut at the map), so
/// that the cut's usable positions are exactly the window's.
fn cut_for(grid: &Grid, win: regionpath_search::Window, k: u32) -> Grid {
    let x1 = (win.x + win.width + k - 1).min(grid.width());
    let y1 = (win.y + win.height + k - 1).min(grid.height());
    let rows: Vec<String> = (win.y..y1)
        .map(|y| {
            (win.x..x1)
                .map(|x| grid.terrain(Point::new(x, y)).unwrap().to_char())
                .collect()
        })
        .collect();
    Grid::from_rows(&rows).unwrap()
}

#[test]
fn weighted_jump_point_search_matches_dijkstra_in_windows() {
    use regionpath_search::{StepTable, Window, WindowedJps};
    let mut rng = SplitMix64(83);
    let mut jps = WindowedJps::new();
    let mut path = Vec::new();
    let (mut found, mut none, mut to_sets) = (0, 0, 0);
    // Expansions of both searches on the point queries of patchy maps.
    let (mut by_jps, mut by_astar) = (0u64, 0u64);
    let mut astar = regionpath_search::WindowedAStar::new();
    for trial in 0..300 {
        let (w, h) = (8 + rng.below(60) as u32, 8 + rng.below(60) as u32);
        let n = 2 + rng.below(5) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = if trial % 3 == 0 {
            random_terrain(&mut rng, w, h, &kinds)
        } else {
            blob_terrain(&mut rng, w, h, &kinds)
        };
        let k = 1 + (trial % 3) as u32;
        let profile = random_profile(&mut rng, &kinds, k, trial % 2 == 0);
        let view = ProfileGrid::new(&grid, &profile);
        let table = StepTable::new(&view);
        let win = if trial % 4 == 0 {
            Window::full(&grid)
        } else {
            let (ww, wh) = (
                4 + rng.below(w as u64 - 3) as u32,
                4 + rng.below(h as u64 - 3) as u32,
            );
            Window {
                x: rng.below((w - ww + 1) as u64) as u32,
                y: rng.below((h - wh + 1) as u64) as u32,
                width: ww,
                height: wh,
            }
        };
        let inside: Vec<Point> = (win.y..win.y + win.height)
            .flat_map(|y| (win.x..win.x + win.width).map(move |x| Point::new(x, y)))
            .filter(|&p| view.is_usable(p))
            .collect();
        if inside.len() < 2 {
            continue;
        }
        let cut = cut_for(&grid, win, k);
        let local = |p: Point| Point::new(p.x - win.x, p.y - win.y);
        for q in 0..8 {
            let s = inside[rng.below(inside.len() as u64) as usize];
            // Every other query aims at a set: a short run of cells (some
            // may be unusable) or a single one.
            let goals: Vec<Point> = if q % 2 == 1 {
                let g = inside[rng.below(inside.len() as u64) as usize];
                let len = 1 + rng.below(6) as u32;
                (0..len)
                    .map(|i| Point::new((g.x + i).min(win.x + win.width - 1), g.y))
                    .collect()
            } else {
                vec![inside[rng.below(inside.len() as u64) as usize]]
            };
            let oracle = goals
                .iter()
                .filter(|&&g| view.is_usable(g))
                .filter_map(|&g| weighted_distance(&cut, &profile, local(s), local(g)))
                .min_by(|a, b| a.total_cmp(b));
            let st = if q % 2 == 1 {
                to_sets += 1;
                let mut bits = vec![0u64; win.area().div_ceil(64)];
                for g in &goals {
                    let i = ((g.y - win.y) * win.width + (g.x - win.x)) as usize;
                    bits[i >> 6] |= 1 << (i & 63);
                }
                let nearest =
                    |p: Point| goals.iter().map(|&g| table.octile(p, g)).min().unwrap_or(0);
                jps.find_path_to_any_weighted_into(&view, &table, win, s, &bits, nearest, &mut path)
                    .unwrap()
            } else {
                let g = goals[0];
                jps.find_path_weighted_into(
                    &view,
                    &table,
                    win,
                    s,
                    g,
                    |p| table.octile(p, g),
                    &mut path,
                )
                .unwrap()
            };
            match (st.status, oracle) {
                (Status::Found, Some(d)) => {
                    found += 1;
                    let end = *path.last().unwrap();
                    assert!(goals.contains(&end), "trial {trial}: ends at {end}");
                    assert!(path.iter().all(|&p| win.contains(p)));
                    let c = check_weighted_path(&grid, &profile, &path, s, end)
                        .unwrap_or_else(|e| panic!("trial {trial} {s}->{end}: {e}"));
                    assert!((c - st.cost).abs() <= 1e-9 * c.max(1.0));
                    assert!(
                        (c - d).abs() <= TOLERANCE * d.max(1.0),
                        "trial {trial}: {s} to {goals:?} in {win:?}, k {k}: {c} vs {d}"
                    );
                    if q % 2 == 0 && trial % 3 != 0 {
                        let a = astar
                            .find_path_weighted_into(
                                &view,
                                &table,
                                0,
                                win,
                                s,
                                goals[0],
                                None,
                                &mut Vec::new(),
                            )
                            .unwrap();
                        by_astar += u64::from(a.expanded);
                        by_jps += u64::from(st.expanded);
                    }
                }
                (Status::NoPath, None) => {
                    none += 1;
                    assert!(path.is_empty());
                }
                (got, want) => {
                    panic!("trial {trial}: {s} to {goals:?} in {win:?}: {got:?} vs {want:?}")
                }
            }
        }
    }
    eprintln!(
        "{found} found, {none} without a path, {to_sets} to sets; \
         expansions on patchy maps: {by_jps} against A*'s {by_astar}"
    );
    assert!(
        found >= 1200 && none >= 30 && to_sets >= 800,
        "{found} {none} {to_sets}"
    );
    // Where the terrain is in large patches the jumps skip most positions.
    assert!(by_jps * 4 < by_astar, "{by_jps} {by_astar}");
}
