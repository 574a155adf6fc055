//! Hierarchies for movement profiles against the independent oracle of
//! `regionpath_testkit::profiled` (a Dijkstra in `f64` and a path validator
//! written from the rules): random terrain maps with random kinds, costs
//! and unit sizes 1–4; full and lazy queries; updates after terrain edits.

use regionpath_grid::{Grid, Point, Profile, Terrain};
use regionpath_hierarchy::{
    CellPlanner, Hierarchy, HierarchyConfig, PlanError, PlannerConfig, PortalMode,
};
use regionpath_testkit::profiled::{
    check_weighted_path, infantry, position_cost, random_kinds, random_profile, random_terrain,
    rooms_with_terrain, weighted_distances,
};
use regionpath_testkit::{Rng64, SplitMix64};

fn usable(grid: &Grid, profile: &Profile) -> Vec<Point> {
    (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
        .filter(|p| position_cost(grid, profile, p.x.into(), p.y.into()).is_some())
        .collect()
}

/// Query figures over many maps.
#[derive(Default, Debug)]
struct Tally {
    found: usize,
    unreachable: usize,
    ratios: Vec<f64>,
}

impl Tally {
    fn mean(&self) -> f64 {
        self.ratios.iter().sum::<f64>() / self.ratios.len().max(1) as f64
    }
    fn worst(&self) -> f64 {
        self.ratios.iter().copied().fold(1.0, f64::max)
    }
}

/// Runs `pairs` random queries from each of `starts` random starts on
/// `grid` under `profile`, full and lazy, checking each against the oracle.
#[allow(clippy::too_many_arguments)]
fn check_queries(
    h: &Hierarchy,
    grid: &Grid,
    profile: &Profile,
    rng: &mut SplitMix64,
    starts: usize,
    pairs: usize,
    tally: &mut Tally,
    what: &str,
) {
    let open = usable(grid, profile);
    if open.is_empty() {
        return;
    }
    let mut planner = CellPlanner::new();
    let mut cells = Vec::new();
    let mut legs = Vec::new();
    let w = grid.width();
    for _ in 0..starts {
        let s = open[rng.below(open.len() as u64) as usize];
        let dist = weighted_distances(grid, profile, s).expect("usable start");
        for _ in 0..pairs {
            let g = open[rng.below(open.len() as u64) as usize];
            let want = dist[(g.y * w + g.x) as usize];
            let got = planner.find_path_into(h, grid, s, g, &mut cells);
            let lazy = planner.start(h, grid, s, g);
            match want {
                None => {
                    assert!(
                        matches!(got, Err(PlanError::Unreachable { .. })),
                        "{what} {s}->{g}: oracle says unreachable, planner {got:?}"
                    );
                    assert!(matches!(lazy, Err(PlanError::Unreachable { .. })));
                    tally.unreachable += 1;
                }
                Some(d) => {
                    let st = got.unwrap_or_else(|e| panic!("{what} {s}->{g} (optimum {d}): {e}"));
                    let c = check_weighted_path(grid, profile, &cells, s, g)
                        .unwrap_or_else(|e| panic!("{what} {s}->{g}: {e}"));
                    assert!(
                        (c - st.cost).abs() <= 1e-6 * c.max(1.0),
                        "{what} {s}->{g}: reported cost {} but the path costs {c}",
                        st.cost
                    );
                    assert!(c >= d - 1e-6 * d.max(1.0), "{what}: below the optimum");
                    if d > 0.0 {
                        tally.ratios.push(c / d);
                    }
                    tally.found += 1;
                    let mut q = lazy.unwrap_or_else(|e| panic!("{what} lazy {s}->{g}: {e}"));
                    legs.clear();
                    while planner.next_leg(&mut q, h, grid, &mut legs).expect("leg") {}
                    check_weighted_path(grid, profile, &legs, s, g)
                        .unwrap_or_else(|e| panic!("{what} lazy {s}->{g}: {e}"));
                }
            }
        }
    }
}

/// Full and lazy paths under random profiles are legal for the unit, end
/// where asked, cost what they report, and reachability agrees with the
/// oracle exactly; suboptimality stays small.
#[test]
fn profiled_hierarchies_agree_with_the_oracle_on_random_terrain() {
    let mut rng = SplitMix64(2027);
    let mut tally = Tally::default();
    let mut uniform = 0;
    for trial in 0..48u32 {
        let w = 24 + rng.below(90) as u32;
        let h = 24 + rng.below(90) as u32;
        let n = 2 + rng.below(7) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let k = 1 + trial % 4;
        let profile = random_profile(&mut rng, &kinds, k, trial % 3 == 0);
        let sector = [8, 16][rng.below(2) as usize];
        let config = HierarchyConfig::new().sector_size(sector);
        let hier = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
        let view = hier.profile_view().expect("profile kept");
        uniform += usize::from(view.is_uniform());
        assert_eq!(hier.profile(), Some(&profile));
        let what = format!("trial {trial} ({w}x{h}, size {k}, sector {sector})");
        check_queries(&hier, &grid, &profile, &mut rng, 4, 12, &mut tally, &what);
    }
    eprintln!(
        "profiled hierarchies: {} found, {} unreachable, mean ratio {:.4}, worst {:.4}, {uniform} uniform views",
        tally.found,
        tally.unreachable,
        tally.mean(),
        tally.worst()
    );
    assert!(tally.found > 500 && tally.unreachable > 20, "{tally:?}");
    assert!(tally.mean() < 1.05, "mean suboptimality {}", tally.mean());
}

/// After random terrain edits (kinds changed, passable or not for the
/// profile), `update` gives a hierarchy that agrees with the oracle on the
/// edited map; the edited grid is refused before the update.
#[test]
fn updates_under_a_profile_follow_terrain_edits() {
    let mut rng = SplitMix64(77);
    let mut tally = Tally::default();
    for trial in 0..16u32 {
        let (w, h) = (40 + rng.below(40) as u32, 40 + rng.below(40) as u32);
        let n = 3 + rng.below(4) as usize;
        let kinds = random_kinds(&mut rng, n);
        let mut grid = random_terrain(&mut rng, w, h, &kinds);
        let k = 1 + trial % 3;
        let profile = random_profile(&mut rng, &kinds, k, trial % 2 == 0);
        let config = HierarchyConfig::new().sector_size(8);
        let mut hier = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
        for round in 0..3 {
            let mut changed = Vec::new();
            let (cx, cy) = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
            for _ in 0..12 {
                let p = Point::new(
                    (cx + rng.below(6) as u32).min(w - 1),
                    (cy + rng.below(6) as u32).min(h - 1),
                );
                let t: Terrain = kinds[rng.below(kinds.len() as u64) as usize];
                grid.set_terrain(p, t).unwrap();
                changed.push(p);
            }
            let mut planner = CellPlanner::new();
            let mut cells = Vec::new();
            let open = usable(&grid, &profile);
            if let Some(&s) = open.first() {
                let e = planner.find_path_into(&hier, &grid, s, s, &mut cells);
                assert!(matches!(e, Err(PlanError::StaleGrid { .. })), "{e:?}");
            }
            // Only some of the edited cells listed: the rest are found.
            let listed = &changed[..changed.len() / 2 + round];
            hier.update(&grid, listed).unwrap();
            let what = format!("trial {trial} round {round}");
            check_queries(&hier, &grid, &profile, &mut rng, 3, 10, &mut tally, &what);
        }
    }
    assert!(tally.found > 200, "{tally:?}");
}

/// A two-wide unit never uses a one-cell door, a one-wide one does; the
/// profile decides reachability in O(1) from the matrix.
#[test]
fn unit_size_decides_reachability() {
    let rows = [
        "..........",
        "..........",
        "@@@@.@@@@@",
        "..........",
        "..........",
    ];
    let grid = Grid::from_rows(&rows).unwrap();
    let config = HierarchyConfig::new()
        .sector_size(8)
        .portals(PortalMode::Never);
    let walker = Profile::builder("walker").cost('.', 1.0).build().unwrap();
    let tank = Profile::builder("tank")
        .size(2)
        .cost('.', 1.0)
        .build()
        .unwrap();
    let (s, g) = (Point::new(0, 0), Point::new(0, 3));
    let mut planner = CellPlanner::new();
    let mut cells = Vec::new();
    let hw = Hierarchy::build_with_profile(&grid, &walker, &config).unwrap();
    let st = planner
        .find_path_into(&hw, &grid, s, g, &mut cells)
        .unwrap();
    assert!(cells.contains(&Point::new(4, 2)));
    let c = check_weighted_path(&grid, &walker, &cells, s, g).unwrap();
    assert!((c - st.cost).abs() < 1e-9);
    let ht = Hierarchy::build_with_profile(&grid, &tank, &config).unwrap();
    let e = planner.find_path_into(&ht, &grid, s, g, &mut cells);
    assert!(matches!(e, Err(PlanError::Unreachable { .. })), "{e:?}");
    // The bottom-right position of a 2-wide unit would stick out.
    let e = planner.find_path_into(&ht, &grid, s, Point::new(9, 4), &mut cells);
    assert!(matches!(e, Err(PlanError::GoalBlocked(_))), "{e:?}");
}

/// A road through swamp: the planner follows the road when the swamp is
/// dear, as the oracle does.
#[test]
fn roads_are_followed_when_the_swamp_is_dear() {
    let (w, h) = (120u32, 60u32);
    let mut rows = Vec::new();
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| {
                if y == 5 || x == 5 || x == w - 6 {
                    '='
                } else {
                    'S'
                }
            })
            .collect();
        rows.push(row);
    }
    let grid = Grid::from_rows(&rows).unwrap();
    let profile = Profile::builder("infantry")
        .cost('=', 0.5)
        .cost('S', 5.0)
        .build()
        .unwrap();
    let hier = Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::new()).unwrap();
    let (s, g) = (Point::new(5, 55), Point::new(w - 6, 55));
    assert_within(&hier, &grid, &profile, s, g, 1.03);
}

/// Start and goal 40 columns apart, one window search apart: inside the
/// window every path wades through a swamp band (cost 3), while a road
/// (0.5) leaves the window and goes round the band's end. The quality
/// check of one-window answers under terrain costs plans the route, sees
/// it leave the window for less than the window's path, refines it and
/// keeps the road, within 3 % of the oracle's optimum; a lazy query hands
/// out the route's legs instead of the window's path. With the check off
/// (`recheck(0.0)`) the window's path is returned, over 10 % dearer.
#[test]
fn one_window_answers_take_a_cheaper_way_outside_the_window() {
    let (w, h) = (80u32, 200u32);
    let rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let road = ((x == 20 || x == 60) && (35..=100).contains(&y))
                        || (y == 35 && (20..=60).contains(&x));
                    if road {
                        '='
                    } else if (25..=55).contains(&x) && (40..=160).contains(&y) {
                        'S'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let (grid, profile, hier) = infantry_on(&rows, 3.0);
    let (s, g) = (Point::new(20, 100), Point::new(60, 100));
    let d = weighted_distances(&grid, &profile, s).unwrap()[(g.y * grid.width() + g.x) as usize]
        .unwrap();
    let mut cells = Vec::new();
    for (recheck, low, high) in [(1.04f32, 0.0, 1.03), (0.0, 1.1, f64::INFINITY)] {
        let config = PlannerConfig::new().recheck(recheck);
        let st = CellPlanner::with_config(config)
            .unwrap()
            .find_path_into(&hier, &grid, s, g, &mut cells)
            .unwrap();
        let c = check_weighted_path(&grid, &profile, &cells, s, g).unwrap();
        assert!((c - st.cost).abs() < 1e-6 * c);
        assert!(
            c >= low * d && c <= high * d,
            "recheck {recheck}: path cost {c}, optimum {d}"
        );
        assert_eq!(st.rechecked, recheck > 0.0, "recheck {recheck}");
        assert_eq!(st.recheck_improved, recheck > 0.0, "recheck {recheck}");
        // A lazy query hands out the route's legs instead of the window's.
        let mut planner = CellPlanner::with_config(config).unwrap();
        let mut q = planner.start(&hier, &grid, s, g).unwrap();
        let mut legs = Vec::new();
        while planner.next_leg(&mut q, &hier, &grid, &mut legs).unwrap() {}
        let c = check_weighted_path(&grid, &profile, &legs, s, g).unwrap();
        assert!(
            c >= low * d && c <= high * d,
            "lazy, recheck {recheck}: path cost {c}, optimum {d}"
        );
    }
}

/// The map of `rows` and an infantry profile on it (ground `.` 1, road `=`
/// 0.5, swamp `S` at `swamp`), with its hierarchy.
fn infantry_on(rows: &[String], swamp: f64) -> (Grid, Profile, Hierarchy) {
    let grid = Grid::from_rows(rows).unwrap();
    let profile = Profile::builder("infantry")
        .cost('.', 1.0)
        .cost('=', 0.5)
        .cost('S', swamp)
        .build()
        .unwrap();
    let hier = Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::new()).unwrap();
    (grid, profile, hier)
}

/// Plans `s` to `g` on `hier`: the path passes the oracle's checker, its
/// reported cost is the checker's, and it is within `bound` times the
/// oracle's optimum.
fn assert_within(hier: &Hierarchy, grid: &Grid, profile: &Profile, s: Point, g: Point, bound: f64) {
    let mut cells = Vec::new();
    let st = CellPlanner::new()
        .find_path_into(hier, grid, s, g, &mut cells)
        .unwrap();
    let d =
        weighted_distances(grid, profile, s).unwrap()[(g.y * grid.width() + g.x) as usize].unwrap();
    let c = check_weighted_path(grid, profile, &cells, s, g).unwrap();
    assert!((c - st.cost).abs() < 1e-6 * c);
    assert!(c <= bound * d, "{s} to {g}: path cost {c}, optimum {d}");
}

/// A road far from the middle of the sector borders it crosses and from
/// the sectors' centres (one row off the top of a 16-cell sector row):
/// its links are priced through the crossing cells it uses and its
/// regions' representatives sit on it, so the route climbs to it and
/// follows it, within 3 % of the optimum. Priced through the middle of
/// each crossing and the regions' centres, the road looked as dear as the
/// swamp below it (the path stayed in the swamp, about 2.9 times the
/// optimum).
#[test]
fn roads_off_the_sector_middles_are_followed() {
    let (w, h) = (320u32, 48u32);
    let rows: Vec<String> = (0..h)
        .map(|y| (0..w).map(|_| if y == 1 { '=' } else { 'S' }).collect())
        .collect();
    let grid = Grid::from_rows(&rows).unwrap();
    let profile = Profile::builder("infantry")
        .cost('=', 0.5)
        .cost('S', 5.0)
        .build()
        .unwrap();
    let hier = Hierarchy::build_with_profile(&grid, &profile, &HierarchyConfig::new()).unwrap();
    for (s, g) in [
        (Point::new(0, 40), Point::new(w - 1, 40)),
        (Point::new(3, 30), Point::new(w - 20, 45)),
    ] {
        assert_within(&hier, &grid, &profile, s, g, 1.03);
    }
}

/// Two corridors join the ends of the map: a swamp corridor along the
/// top with a road one row off its top, and a plain corridor along the
/// bottom. Walls split every sector border of the top corridor into a
/// one-cell gap where the road crosses and a wider gap in the middle.
/// Each link is priced through the gap the road uses, so the route takes
/// the road (within 3 % of the optimum); priced through the middle gap
/// the plain build keeps (the one nearer the sectors' centres), the road
/// looked dearer than the bottom corridor, and the path took that, about
/// 1.5 times the optimum.
#[test]
fn roads_through_side_gaps_of_split_borders_are_followed() {
    let (w, h) = (320u32, 96u32);
    let rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    let end = x < 16 || x >= w - 16;
                    let border = x % 16 == 15;
                    if end {
                        '.'
                    } else if y < 16 {
                        if border && !(y == 1 || (7..=10).contains(&y)) {
                            '@'
                        } else if y == 1 {
                            '='
                        } else {
                            'S'
                        }
                    } else if y >= 80 {
                        '.'
                    } else {
                        '@'
                    }
                })
                .collect()
        })
        .collect();
    let (grid, profile, hier) = infantry_on(&rows, 5.0);
    for (s, g) in [
        (Point::new(4, 48), Point::new(w - 4, 48)),
        (Point::new(2, 40), Point::new(w - 10, 60)),
    ] {
        assert_within(&hier, &grid, &profile, s, g, 1.03);
    }
}

/// `.rph` files record their profile: a profiled hierarchy saved and
/// loaded for its profile gives the same bytes back and answers like the
/// oracle; the file is refused for another profile (cost, size or name),
/// without one, and for a map whose terrain changed; a plain file is
/// refused under a profile.
#[test]
fn files_record_their_profile() {
    let mut rng = SplitMix64(31);
    let mut tally = Tally::default();
    let mut weighted = 0;
    for trial in 0..24u32 {
        let (w, h) = (24 + rng.below(60) as u32, 24 + rng.below(60) as u32);
        let n = 2 + rng.below(5) as usize;
        let kinds = random_kinds(&mut rng, n);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let k = 1 + trial % 3;
        let profile = random_profile(&mut rng, &kinds, k, trial % 2 == 0);
        let config = HierarchyConfig::new().sector_size([8, 16][trial as usize % 2]);
        let built = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
        weighted += usize::from(!built.profile_view().unwrap().is_uniform());
        let bytes = built.to_bytes();
        let loaded = Hierarchy::from_bytes_with_profile(&bytes, &grid, &profile)
            .unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        assert_eq!(loaded.profile(), Some(&profile));
        assert_eq!(
            loaded.to_bytes(),
            bytes,
            "trial {trial}: a load gives the file back"
        );
        let what = format!("trial {trial}, loaded");
        check_queries(&loaded, &grid, &profile, &mut rng, 2, 8, &mut tally, &what);
        let wrong = |r: Result<Hierarchy, regionpath_hierarchy::HierarchyError>| {
            matches!(
                r,
                Err(regionpath_hierarchy::HierarchyError::WrongProfile { .. })
            )
        };
        // Another profile: one cost changed, another size, another name.
        let (t, c) = profile.costs().next().unwrap();
        let mut dearer = Profile::builder(profile.name()).size(k);
        for (u, d) in profile.costs() {
            dearer = dearer.cost(u.to_char(), if u == t { c * 2.0 } else { d });
        }
        let dearer = dearer.build().unwrap();
        assert!(wrong(Hierarchy::from_bytes_with_profile(
            &bytes, &grid, &dearer
        )));
        let mut bigger = Profile::builder(profile.name()).size(k + 1);
        let mut renamed = Profile::builder("another");
        for (u, d) in profile.costs() {
            bigger = bigger.cost(u.to_char(), d);
            renamed = renamed.size(k).cost(u.to_char(), d);
        }
        let (bigger, renamed) = (bigger.build().unwrap(), renamed.build().unwrap());
        assert!(wrong(Hierarchy::from_bytes_with_profile(
            &bytes, &grid, &bigger
        )));
        assert!(wrong(Hierarchy::from_bytes_with_profile(
            &bytes, &grid, &renamed
        )));
        assert!(wrong(Hierarchy::from_bytes(&bytes, &grid)));
        // The terrain repainted (another kind on one cell): another map.
        let mut painted = grid.clone();
        let p = Point::new(rng.below(w as u64) as u32, rng.below(h as u64) as u32);
        let now = painted.terrain(p).unwrap();
        let other = kinds.iter().copied().find(|&q| q != now).unwrap();
        painted.set_terrain(p, other).unwrap();
        assert!(matches!(
            Hierarchy::from_bytes_with_profile(&bytes, &painted, &profile),
            Err(regionpath_hierarchy::HierarchyError::WrongGrid { .. })
        ));
        // A plain file under a profile.
        let plain = Hierarchy::build(&grid, &config).unwrap().to_bytes();
        assert!(wrong(Hierarchy::from_bytes_with_profile(
            &plain, &grid, &profile
        )));
    }
    assert!(
        weighted >= 6 && tally.found > 100,
        "{weighted} weighted, {tally:?}"
    );
}

/// Paths of `config`'s planner for `pairs`, each checked against the
/// oracle: legal for the unit, where asked, no cheaper than the optimum.
fn oracle_checked_paths(
    hier: &Hierarchy,
    grid: &Grid,
    profile: &Profile,
    config: PlannerConfig,
    pairs: &[(Point, Point)],
) -> Vec<Vec<Point>> {
    let mut planner = CellPlanner::with_config(config).unwrap();
    let mut paths = Vec::new();
    for &(s, g) in pairs {
        let mut cells = Vec::new();
        let optimum = weighted_distances(grid, profile, s).expect("usable start")
            [(g.y * grid.width() + g.x) as usize];
        match planner.find_path_into(hier, grid, s, g, &mut cells) {
            Ok(_) => {
                let c = check_weighted_path(grid, profile, &cells, s, g)
                    .unwrap_or_else(|e| panic!("{s}->{g}: {e}"));
                let d = optimum.expect("the oracle reaches what the planner does");
                assert!(c >= d - 1e-6 * d.max(1.0), "{s}->{g}: below the optimum");
            }
            Err(PlanError::Unreachable { .. }) => assert!(optimum.is_none(), "{s}->{g}"),
            Err(e) => panic!("{s}->{g}: {e}"),
        }
        paths.push(cells);
    }
    paths
}

/// Under terrain costs a full query's legs back up the lesser of
/// `join_radius` and `weighted_join_radius`; under uniform costs
/// `weighted_join_radius` has no effect. Small windows, so that paths
/// have many joins.
#[test]
fn weighted_join_radius_applies_under_terrain_costs_only() {
    let mut rng = SplitMix64(4099);
    // No recheck or second route: they would hide what the joins do.
    let base = PlannerConfig::new()
        .window(16)
        .reach(10)
        .recheck(0.0)
        .second_route(false);
    let (mut joined, mut changed, mut uniform_joins) = (0, 0, 0);
    for trial in 0..12u32 {
        let (w, h) = (48 + rng.below(64) as u32, 48 + rng.below(64) as u32);
        let kinds = random_kinds(&mut rng, 6);
        let grid = random_terrain(&mut rng, w, h, &kinds);
        let config = HierarchyConfig::new().sector_size(8);
        let weighted = random_profile(&mut rng, &kinds, 1 + trial % 2, false);
        // Half the kinds at one cost, the others walls: on open ground
        // octile paths are optimal wherever they join, so joins matter
        // only round obstacles.
        let uniform = kinds[..3]
            .iter()
            .fold(Profile::builder("flat"), |b, t| b.cost(t.to_char(), 1.0))
            .build()
            .unwrap();
        for (profile, is_weighted) in [(weighted, true), (uniform, false)] {
            let hier = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
            assert_eq!(hier.profile_view().unwrap().is_uniform(), !is_weighted);
            let open = usable(&grid, &profile);
            if open.is_empty() {
                continue;
            }
            let pairs: Vec<(Point, Point)> = (0..12)
                .map(|_| {
                    let mut pick = || open[rng.below(open.len() as u64) as usize];
                    (pick(), pick())
                })
                .collect();
            let paths = |c: PlannerConfig| oracle_checked_paths(&hier, &grid, &profile, c, &pairs);
            let full = paths(base.join_radius(16).weighted_join_radius(16));
            let no_weighted_join = paths(base.join_radius(16).weighted_join_radius(0));
            if is_weighted {
                // The lesser applies: either zero means no join.
                assert_eq!(
                    no_weighted_join,
                    paths(base.join_radius(0).weighted_join_radius(16)),
                    "trial {trial}"
                );
                joined += 1;
                changed += usize::from(no_weighted_join != full);
            } else {
                assert_eq!(no_weighted_join, full, "trial {trial}: uniform costs");
                // ... where `join_radius` itself does change paths.
                uniform_joins += usize::from(full != paths(base.join_radius(0)));
            }
        }
    }
    assert_eq!(joined, 12);
    assert!(changed > 0, "the weighted join radius never changed a path");
    assert!(
        uniform_joins > 0,
        "the join radius never changed a uniform path"
    );
}

/// Where rooms meet through one-cell doors, routes priced through the
/// regions' representatives zig-zag from room to room; under terrain costs
/// a full query whose route crosses through such narrow runs plans a
/// second route priced through the doors (`PlanStats::second_route`) and
/// keeps the cheaper path. Against the
/// oracle on rooms with random terrain: every path legal and no cheaper
/// than the optimum, and the mean and the worst suboptimality lower than
/// with the second route off; after doors are walled up and new ones
/// opened, the updated hierarchy still plans second routes and agrees with
/// the oracle (full and lazy queries). On open terrain (regions meeting
/// along whole sector sides) no second route is planned.
#[test]
fn rooms_joined_by_doors_get_a_second_route_under_terrain_costs() {
    let mut rng = SplitMix64(8128);
    let infantry = infantry();
    let config = HierarchyConfig::new();
    let (mut on, mut off) = (Tally::default(), Tally::default());
    let (mut second, mut second_after_edit) = (0, 0);
    let mut edited = Tally::default();
    for _ in 0..4 {
        let mut grid = rooms_with_terrain(&mut rng, 24, false);
        let mut hier = Hierarchy::build_with_profile(&grid, &infantry, &config).unwrap();
        let open = usable(&grid, &infantry);
        let pairs: Vec<(Point, Point)> = (0..40)
            .map(|_| {
                let mut pick = || open[rng.below(open.len() as u64) as usize];
                (pick(), pick())
            })
            .collect();
        let with = PlannerConfig::new();
        let paths_on = oracle_checked_paths(&hier, &grid, &infantry, with, &pairs);
        let paths_off =
            oracle_checked_paths(&hier, &grid, &infantry, with.second_route(false), &pairs);
        let mut planner = CellPlanner::new();
        let mut cells = Vec::new();
        for (k, &(s, g)) in pairs.iter().enumerate() {
            let Some(d) = weighted_distances(&grid, &infantry, s).expect("usable start")
                [(g.y * grid.width() + g.x) as usize]
            else {
                continue;
            };
            if d <= 0.0 {
                continue;
            }
            let cost = |p: &[Point]| check_weighted_path(&grid, &infantry, p, s, g).unwrap();
            on.ratios.push(cost(&paths_on[k]) / d);
            off.ratios.push(cost(&paths_off[k]) / d);
            let st = planner
                .find_path_into(&hier, &grid, s, g, &mut cells)
                .unwrap();
            second += usize::from(st.second_route);
        }
        // Wall cells between rooms flipped: doors walled up, new ones cut.
        let side = grid.width();
        let mut changed = Vec::new();
        while changed.len() < 24 {
            let (x, y) = (
                1 + rng.below(side as u64 - 2),
                1 + rng.below(side as u64 - 2),
            );
            let p = Point::new(x as u32, y as u32);
            if p.x.is_multiple_of(8) == p.y.is_multiple_of(8) || changed.contains(&p) {
                continue;
            }
            let wall = grid.terrain(p).is_ok_and(|t| t.to_char() == '@');
            let t = Terrain::from_char(if wall { '.' } else { '@' }).unwrap();
            grid.set_terrain(p, t).unwrap();
            changed.push(p);
        }
        hier.update(&grid, &changed).unwrap();
        check_queries(
            &hier,
            &grid,
            &infantry,
            &mut rng,
            3,
            10,
            &mut edited,
            "edited rooms",
        );
        let open = usable(&grid, &infantry);
        for _ in 0..20 {
            let s = open[rng.below(open.len() as u64) as usize];
            let g = open[rng.below(open.len() as u64) as usize];
            if let Ok(st) = planner.find_path_into(&hier, &grid, s, g, &mut cells) {
                second_after_edit += usize::from(st.second_route);
            }
        }
    }
    assert!(edited.found > 60, "{edited:?}");
    assert!(second_after_edit > 0, "no second route after the edits");
    eprintln!(
        "rooms: {} paths, {second} second routes, mean {:.4} -> {:.4}, worst {:.4} -> {:.4}",
        on.ratios.len(),
        off.mean(),
        on.mean(),
        off.worst(),
        on.worst()
    );
    assert!(on.ratios.len() > 100, "{} reachable pairs", on.ratios.len());
    assert!(second > 0, "no second route planned");
    assert!(
        on.mean() < off.mean(),
        "mean {} !< {}",
        on.mean(),
        off.mean()
    );
    assert!(
        on.worst() <= off.worst(),
        "worst {} > {}",
        on.worst(),
        off.worst()
    );

    // Open terrain (patches of every kind, no walls): regions meet along
    // whole sector sides, no second route.
    let kinds = ['.', '=', 'T', 'S'];
    let patch: Vec<char> = (0..16 * 16)
        .map(|_| kinds[rng.below(kinds.len() as u64) as usize])
        .collect();
    let rows: Vec<String> = (0..96)
        .map(|y| (0..96).map(|x| patch[(y / 6) * 16 + x / 6]).collect())
        .collect();
    let grid = Grid::from_rows(&rows).unwrap();
    let profile = infantry;
    let hier = Hierarchy::build_with_profile(&grid, &profile, &config).unwrap();
    assert!(!hier.profile_view().unwrap().is_uniform());
    let open = usable(&grid, &profile);
    let mut planner = CellPlanner::new();
    let mut cells = Vec::new();
    let mut routed = 0;
    for _ in 0..40 {
        let s = open[rng.below(open.len() as u64) as usize];
        let g = open[rng.below(open.len() as u64) as usize];
        let st = planner
            .find_path_into(&hier, &grid, s, g, &mut cells)
            .unwrap();
        assert!(!st.second_route, "{s}->{g}: a second route on open terrain");
        routed += usize::from(st.route_len >= 3);
    }
    assert!(
        routed > 5,
        "{routed} queries with a route of 3 regions or more"
    );
}
