//! Integration tests of the exact portal layer (`PortalMode`), checked
//! against oracles written here, not against library search code:
//!
//! * a plain Dijkstra over the grid (straight steps cost 1, diagonal steps
//!   √2, a diagonal only when both orthogonal neighbours are passable);
//! * a path checker (ends, 8-neighbour steps, passable cells, no corner
//!   cutting, reported cost);
//! * an independent portal count (a passable cell with a legal move into
//!   another 16 × 16 sector) and the documented `Auto` rule (the sum over
//!   sectors of the squared portal count at most a quarter of the passable
//!   cells).
//!
//! On random "rooms joined by one-cell doors" maps (some rooms sealed, so
//! some pairs are unreachable), random obstacle maps, one-cell mazes and a
//! few hand-made maps, at sizes that are and are not multiples of 16, built
//! with `PortalMode::Always` serially and in parallel, every reachable
//! query must be answered by the layer (or the straight-line shortcut; with
//! the shortcut turned off, by the layer alone) with an optimal, valid
//! path, and every unreachable one refused with `PlanError::Unreachable`. Also: `Auto`/`Never` decisions, incremental
//! updates (against a fresh build and the oracle on the edited grid),
//! `to_bytes`/`from_bytes` round trips, and, when the Moving AI data is
//! present, the optimal lengths of `8room_000`.

mod common;

use common::{dijkstra, legal, maze_grid, movingai_dir, open, passable_cells, SQRT2};
use regionpath_grid::{read_map, read_scen, Grid, Point};
use regionpath_hierarchy::{
    CellPlanner, Hierarchy, HierarchyConfig, PlanError, PlanStats, PlannerConfig, PortalMode,
};

/// Side of the portal layer's sectors (fixed by the layer).
const SIDE: u32 = 16;

// Small deterministic generator (xorshift64*; `below` is `next % n`).
use regionpath_testkit::{Rng64, XorShift64Star as Rng};

fn at(dist: &[f64], g: &Grid, p: Point) -> f64 {
    dist[p.y as usize * g.width() as usize + p.x as usize]
}

/// Checks a returned path on its own and returns its cost: starts at `s`,
/// ends at `t`, steps between 8-neighbours, only passable cells, no corner
/// cutting, and `stats.cost` is its cost.
fn check_path(g: &Grid, path: &[Point], s: Point, t: Point, stats: &PlanStats) -> f64 {
    let ctx = || format!("{s} -> {t}");
    let cost =
        regionpath_testkit::check_path(g, path, s, t).unwrap_or_else(|e| panic!("{}: {e}", ctx()));
    assert!(
        (cost - stats.cost).abs() < 1e-6,
        "{}: reported cost {} but the path costs {cost}",
        ctx(),
        stats.cost
    );
    cost
}

/// Passable cells on a 16 × 16 sector border (first or last row/column of
/// their sector, including the last, partial sectors at the map's edge).
fn border_cells(g: &Grid) -> Vec<Point> {
    let edge = |v: u32, n: u32| v.is_multiple_of(SIDE) || v % SIDE == SIDE - 1 || v == n - 1;
    passable_cells(g)
        .into_iter()
        .filter(|p| edge(p.x, g.width()) || edge(p.y, g.height()))
        .collect()
}

/// The test's own portal count per 16 × 16 sector: passable cells with a
/// legal move into another sector.
fn portal_counts(g: &Grid) -> Vec<usize> {
    let sx = g.width().div_ceil(SIDE);
    let sy = g.height().div_ceil(SIDE);
    let mut counts = vec![0usize; (sx * sy) as usize];
    for p in passable_cells(g) {
        let (x, y) = (p.x as i64, p.y as i64);
        let leaves = (-1i64..=1).any(|dy| {
            (-1i64..=1).any(|dx| {
                (dx, dy) != (0, 0)
                    && legal(g, x, y, dx, dy)
                    && ((x + dx) as u32 / SIDE, (y + dy) as u32 / SIDE) != (p.x / SIDE, p.y / SIDE)
            })
        });
        if leaves {
            counts[((p.y / SIDE) * sx + p.x / SIDE) as usize] += 1;
        }
    }
    counts
}

/// Whether `Auto` should build the layer, by the documented rule.
fn auto_should_build(g: &Grid) -> bool {
    let edges: usize = portal_counts(g).iter().map(|n| n * n).sum();
    let passable = g.passable_count() as f64;
    passable > 0.0 && edges as f64 <= 0.25 * passable
}

fn config(portals: PortalMode, parallel: bool) -> HierarchyConfig {
    HierarchyConfig::new().portals(portals).parallel(parallel)
}

fn build(g: &Grid, portals: PortalMode, parallel: bool) -> Hierarchy {
    Hierarchy::build(g, &config(portals, parallel)).unwrap()
}

/// Rooms joined by one-cell doors: walls every `kx` columns and `ky` rows
/// (random in 5..=12, random offsets), one door in three quarters of the
/// wall segments, and about one room in eight sealed (no doors at all).
fn rooms_grid(rng: &mut Rng, w: u32, h: u32) -> Grid {
    let (kx, ky) = (5 + rng.below(8) as u32, 5 + rng.below(8) as u32);
    let (ox, oy) = (rng.below(kx as u64) as u32, rng.below(ky as u64) as u32);
    rooms_grid_with(rng, w, h, (kx, ky), (ox, oy), 75, 12)
}

/// Rooms of pitch `k` with walls at `x % k.0 == o.0` and `y % k.1 == o.1`;
/// each wall segment gets one door with probability `door_pct`, except
/// around the sealed rooms (`sealed_pct` of them).
fn rooms_grid_with(
    rng: &mut Rng,
    w: u32,
    h: u32,
    k: (u32, u32),
    o: (u32, u32),
    door_pct: u64,
    sealed_pct: u64,
) -> Grid {
    let (kx, ky) = k;
    let (ox, oy) = o;
    let wall_x = |x: u32| x % kx == ox % kx;
    let wall_y = |y: u32| y % ky == oy % ky;
    let room = |x: u32, y: u32| ((x + kx - ox % kx) / kx, (y + ky - oy % ky) / ky);
    let mut g = Grid::new(w, h, true).unwrap();
    for y in 0..h {
        for x in 0..w {
            if wall_x(x) || wall_y(y) {
                g.set_passable(Point::new(x, y), false).unwrap();
            }
        }
    }
    let rooms = ((w / kx + 2) * (h / ky + 2)) as usize;
    let row_len = w / kx + 2;
    let sealed: Vec<bool> = (0..rooms).map(|_| rng.chance(sealed_pct)).collect();
    let is_sealed = |(rx, ry): (u32, u32)| sealed[(ry * row_len + rx) as usize];
    // Vertical wall segments: column `x`, rows between horizontal walls.
    for x in (0..w).filter(|&x| wall_x(x)) {
        let mut y = 0;
        while y < h {
            if wall_y(y) {
                y += 1;
                continue;
            }
            let y0 = y;
            while y < h && !wall_y(y) {
                y += 1;
            }
            let left = x.checked_sub(1).map(|xl| room(xl, y0));
            let right = (x + 1 < w).then(|| room(x + 1, y0));
            let blocked = left.is_some_and(is_sealed) || right.is_some_and(is_sealed);
            if !blocked && rng.chance(door_pct) {
                let d = y0 + rng.below((y - y0) as u64) as u32;
                g.set_passable(Point::new(x, d), true).unwrap();
            }
        }
    }
    // Horizontal wall segments: row `y`, columns between vertical walls.
    for y in (0..h).filter(|&y| wall_y(y)) {
        let mut x = 0;
        while x < w {
            if wall_x(x) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w && !wall_x(x) {
                x += 1;
            }
            let up = y.checked_sub(1).map(|yu| room(x0, yu));
            let down = (y + 1 < h).then(|| room(x0, y + 1));
            let blocked = up.is_some_and(is_sealed) || down.is_some_and(is_sealed);
            if !blocked && rng.chance(door_pct) {
                let d = x0 + rng.below((x - x0) as u64) as u32;
                g.set_passable(Point::new(d, y), true).unwrap();
            }
        }
    }
    g
}

/// Random obstacles: each cell blocked with probability `percent`.
fn obstacle_grid(rng: &mut Rng, w: u32, h: u32, percent: u64) -> Grid {
    regionpath_testkit::maps::obstacles(w, h, percent, &mut |n| rng.below(n))
}

/// Query starts, each with its goals: random pairs, goals in the start's
/// 16 × 16 sector, the start itself, passable 8-neighbours, and starts and
/// goals on sector borders.
fn queries(rng: &mut Rng, g: &Grid, starts: usize) -> Vec<(Point, Vec<Point>)> {
    let cells = passable_cells(g);
    let border = border_cells(g);
    let mut out = Vec::new();
    for i in 0..starts {
        let s = if i % 2 == 1 && !border.is_empty() {
            rng.pick(&border)
        } else {
            rng.pick(&cells)
        };
        let mut goals = Vec::new();
        for _ in 0..4 {
            goals.push(rng.pick(&cells));
        }
        if !border.is_empty() {
            goals.push(rng.pick(&border));
            goals.push(rng.pick(&border));
        }
        // Same sector as the start.
        let same: Vec<Point> = cells
            .iter()
            .copied()
            .filter(|p| (p.x / SIDE, p.y / SIDE) == (s.x / SIDE, s.y / SIDE))
            .collect();
        for _ in 0..3 {
            goals.push(rng.pick(&same));
        }
        // Adjacent cells (blocked corners included: then the optimal path
        // is a detour) and the start itself.
        let near: Vec<Point> = same_or_adjacent(g, s);
        if !near.is_empty() {
            goals.push(rng.pick(&near));
        }
        if i % 4 == 0 {
            goals.push(s);
        }
        out.push((s, goals));
    }
    out
}

/// The passable 8-neighbours of `s` (reachable by one move or not).
fn same_or_adjacent(g: &Grid, s: Point) -> Vec<Point> {
    let mut v = Vec::new();
    for dy in -1i64..=1 {
        for dx in -1i64..=1 {
            let (x, y) = (s.x as i64 + dx, s.y as i64 + dy);
            if (dx, dy) != (0, 0) && open(g, x, y) {
                v.push(Point::new(x as u32, y as u32));
            }
        }
    }
    v
}

/// What a batch of queries exercised.
#[derive(Debug, Default)]
struct Tally {
    exact: usize,
    straight: usize,
    unreachable: usize,
    same_sector: usize,
    adjacent_detour: usize,
}

impl Tally {
    fn add(&mut self, t: Tally) {
        self.exact += t.exact;
        self.straight += t.straight;
        self.unreachable += t.unreachable;
        self.same_sector += t.same_sector;
        self.adjacent_detour += t.adjacent_detour;
    }
}

/// Runs the queries on `h` and checks every answer against the oracle:
/// unreachable pairs are refused with `Unreachable`; reachable pairs get a
/// valid path of optimal cost, answered exactly or by the straight line
/// when start and goal differ.
/// One planner serves many maps in a test, so its scratch carries over
/// from larger and smaller layers.
fn check_queries(
    planner: &mut CellPlanner,
    h: &Hierarchy,
    g: &Grid,
    qs: &[(Point, Vec<Point>)],
    what: &str,
) -> Tally {
    let mut path = Vec::new();
    let mut tally = Tally::default();
    for (s, goals) in qs {
        let s = *s;
        let dist = dijkstra(g, s);
        for &t in goals {
            let opt = at(&dist, g, t);
            let res = planner.find_path_into(h, g, s, t, &mut path);
            if opt.is_infinite() {
                assert!(
                    matches!(res, Err(PlanError::Unreachable { .. })),
                    "{what}: {s} -> {t} is unreachable (oracle) but the planner gave {res:?}"
                );
                tally.unreachable += 1;
                continue;
            }
            let stats = match res {
                Ok(stats) => stats,
                Err(e) => {
                    panic!("{what}: {s} -> {t} costs {opt} (oracle) but the planner says {e}")
                }
            };
            let cost = check_path(g, &path, s, t, &stats);
            assert!(
                (cost - opt).abs() < 1e-6,
                "{what}: {s} -> {t}: path costs {cost}, optimum {opt} (exact {}, straight {}, {} cells: {:?})",
                stats.exact,
                stats.straight,
                path.len(),
                &path[..path.len().min(40)]
            );
            if !planner.config().get_straight() {
                // Without the straight-line shortcut the layer answers
                // every reachable query, the trivial ones included.
                assert!(
                    stats.exact,
                    "{what} (no straight shortcut): {s} -> {t} not answered by the portal layer: {stats:?}"
                );
            } else if s != t {
                assert!(
                    stats.exact || stats.straight,
                    "{what}: {s} -> {t} answered neither by the portal layer nor by the straight line: {stats:?}"
                );
            }
            tally.exact += stats.exact as usize;
            tally.straight += stats.straight as usize;
            if s != t && (s.x / SIDE, s.y / SIDE) == (t.x / SIDE, t.y / SIDE) {
                tally.same_sector += 1;
            }
            if s.x.abs_diff(t.x) <= 1 && s.y.abs_diff(t.y) <= 1 && opt > SQRT2 + 1e-9 {
                tally.adjacent_detour += 1;
            }
        }
    }
    tally
}

/// Builds with `Always` serially and in parallel; both give the test's own
/// portal count and pass the oracle checks.
fn check_map(
    planner: &mut CellPlanner,
    rng: &mut Rng,
    g: &Grid,
    starts: usize,
    what: &str,
) -> Tally {
    let expected: usize = portal_counts(g).iter().sum();
    let qs = queries(rng, g, starts);
    let mut total = Tally::default();
    for parallel in [false, true] {
        let h = build(g, PortalMode::Always, parallel);
        let stats = h.stats();
        assert_eq!(
            stats.portals, expected,
            "{what} (parallel {parallel}): portal count"
        );
        assert!(
            stats.portal_bytes > 0 || expected == 0,
            "{what}: portal bytes"
        );
        total.add(check_queries(
            planner,
            &h,
            g,
            &qs,
            &format!("{what} parallel={parallel}"),
        ));
        let mut no_straight =
            CellPlanner::with_config(PlannerConfig::new().straight(false)).unwrap();
        check_queries(
            &mut no_straight,
            &h,
            g,
            &qs,
            &format!("{what} parallel={parallel}"),
        );
    }
    total
}

#[test]
fn rooms_with_one_cell_doors_are_exact() {
    let mut rng = Rng::new(0x5EED_0001);
    let mut planner = CellPlanner::new();
    let mut total = Tally::default();
    // Not multiples of 16 (partial sectors at the right and bottom edges),
    // narrower than one sector, and multiples of 16.
    let sizes = [
        (37, 53),
        (100, 71),
        (130, 130),
        (53, 37),
        (11, 70),
        (64, 96),
        (128, 48),
    ];
    for round in 0..5 {
        for &(w, h) in &sizes {
            let g = rooms_grid(&mut rng, w, h);
            let what = format!("rooms {w}x{h} round {round}");
            total.add(check_map(&mut planner, &mut rng, &g, 12, &what));
        }
    }
    println!("rooms: {total:?}");
    assert!(total.exact > 1000, "{total:?}");
    assert!(
        total.unreachable > 50,
        "sealed rooms give unreachable pairs: {total:?}"
    );
    assert!(total.same_sector > 200, "{total:?}");
    assert!(total.straight > 0, "{total:?}");
}

#[test]
fn random_obstacles_are_exact() {
    let mut rng = Rng::new(0x5EED_0002);
    let mut planner = CellPlanner::new();
    let mut total = Tally::default();
    for round in 0..3 {
        for &(w, h, pct) in &[
            (37, 53, 10),
            (100, 71, 25),
            (64, 64, 35),
            (45, 90, 18),
            (71, 33, 30),
            (13, 29, 22),
        ] {
            let g = obstacle_grid(&mut rng, w, h, pct);
            let what = format!("obstacles {w}x{h} {pct}% round {round}");
            total.add(check_map(&mut planner, &mut rng, &g, 10, &what));
        }
    }
    println!("obstacles: {total:?}");
    assert!(total.exact > 500, "{total:?}");
    assert!(
        total.unreachable > 0,
        "dense maps give unreachable pairs: {total:?}"
    );
    assert!(total.adjacent_detour > 0, "{total:?}");
}

/// One-cell mazes, the layer's other target, with and without loops.
#[test]
fn mazes_are_exact() {
    let mut rng = Rng::new(0x5EED_0007);
    let mut planner = CellPlanner::new();
    let mut total = Tally::default();
    // The last maze has more cells than the library builds the portal
    // layer serially (32,768), so `check_map` also covers its parallel
    // build (the sectors' parallel labelling, which needs 32,768 runs as
    // well, is covered in `hierarchy.rs`).
    for &(w, h, loops) in &[
        (41, 57, 0),
        (101, 67, 40),
        (64, 64, 10),
        (33, 129, 60),
        (201, 181, 150),
    ] {
        let g = maze_grid(&mut |n| rng.below(n), w, h, loops);
        let what = format!("maze {w}x{h} loops {loops}");
        total.add(check_map(&mut planner, &mut rng, &g, 10, &what));
        assert_eq!(
            build(&g, PortalMode::Auto, true).stats().portals > 0,
            auto_should_build(&g),
            "{what}: Auto's decision"
        );
    }
    println!("mazes: {total:?}");
    assert!(total.exact > 300, "{total:?}");
}

/// Hand-made corner cases: a door on a sector corner, paths that must
/// leave the shared sector and come back, a one-column map and a 1×1 map.
#[test]
fn hand_made_maps_are_exact() {
    let mut rows: Vec<String> = Vec::new();
    // 20 × 34: a wall along x = 8 inside sector 0 with its only opening in
    // the next sector down, so a same-sector pair must leave the sector.
    for y in 0..34 {
        let row: String = (0..20)
            .map(|x| if x == 8 && y != 20 { '@' } else { '.' })
            .collect();
        rows.push(row);
    }
    let detour = Grid::from_rows(&rows).unwrap();
    // 32 × 32 whose top-left and bottom-right sectors meet only at the
    // sector corner: the other two sectors are blocked except the two cells
    // beside the corner, so the best crossing is the diagonal
    // (15, 15) -> (16, 16).
    let mut corner = Grid::new(32, 32, true).unwrap();
    for y in 0..32 {
        for x in 0..32 {
            let p = Point::new(x, y);
            if (x >= 16) != (y >= 16) && p != Point::new(16, 15) && p != Point::new(15, 16) {
                corner.set_passable(p, false).unwrap();
            }
        }
    }
    let column = Grid::from_rows(&["."; 40]).unwrap();
    let single = Grid::from_rows(&["."]).unwrap();
    let ring = Grid::from_rows(&[
        "..................",
        ".@@@@@@@@@@@@@@@@.",
        ".@..............@.",
        ".@.@@@@@@@@@@@@.@.",
        ".@.@..........@.@.",
        ".@.@.@@@@@@@@.@.@.",
        ".@.@.@......@.@.@.",
        ".@.@.@.@@@@.@.@.@.",
        ".@.@.@.@..@.@.@.@.",
        ".@...@.@..@...@...",
        ".@@@@@.@@@@@@@@@@.",
        "..................",
    ])
    .unwrap();
    let mut rng = Rng::new(0x5EED_0003);
    let mut planner = CellPlanner::new();
    for (name, g) in [
        ("detour", &detour),
        ("corner", &corner),
        ("column", &column),
        ("single", &single),
        ("ring", &ring),
    ] {
        let h = build(g, PortalMode::Always, false);
        assert_eq!(
            h.stats().portals,
            portal_counts(g).iter().sum::<usize>(),
            "{name}"
        );
        // Every pair of passable cells on these small maps.
        let cells = passable_cells(g);
        let qs: Vec<(Point, Vec<Point>)> = if cells.len() <= 150 {
            cells.iter().map(|&s| (s, cells.clone())).collect()
        } else {
            queries(&mut rng, g, 20)
        };
        check_queries(&mut planner, &h, g, &qs, name);
    }
    // The detour pair explicitly: (7, 5) -> (9, 5) share sector 0 but the
    // wall at x = 8 opens only at y = 20.
    let h = build(&detour, PortalMode::Always, true);
    let mut path = Vec::new();
    let (s, t) = (Point::new(7, 5), Point::new(9, 5));
    let stats = planner
        .find_path_into(&h, &detour, s, t, &mut path)
        .unwrap();
    let opt = at(&dijkstra(&detour, s), &detour, t);
    assert!(stats.exact);
    assert!((check_path(&detour, &path, s, t, &stats) - opt).abs() < 1e-6);
    assert!(path.iter().any(|p| p.y >= 16), "must leave the sector");
    // The corner pair: the path crosses diagonally at the sector corner.
    let h = build(&corner, PortalMode::Always, true);
    let (s, t) = (Point::new(10, 3), Point::new(20, 28));
    let stats = planner
        .find_path_into(&h, &corner, s, t, &mut path)
        .unwrap();
    let opt = at(&dijkstra(&corner, s), &corner, t);
    assert!(stats.exact);
    assert!((check_path(&corner, &path, s, t, &stats) - opt).abs() < 1e-6);
    assert!(
        path.windows(2)
            .any(|w| w == [Point::new(15, 15), Point::new(16, 16)]),
        "{path:?}"
    );
}

/// `Auto` builds the layer where sectors meet through narrow doors, not on
/// open ground; `Never` never does. Its decision follows the documented
/// rule computed from the test's own portal count.
#[test]
fn auto_builds_where_it_pays() {
    let mut rng = Rng::new(0x5EED_0004);
    // Rooms of pitch 16 walled on the sector borders, one door per wall.
    let rooms16 = rooms_grid_with(&mut rng, 128, 128, (16, 16), (0, 0), 100, 0);
    // Rooms of pitch 8: walls at x % 8 == 0 and y % 8 == 0.
    let rooms8 = rooms_grid_with(&mut rng, 128, 128, (8, 8), (0, 0), 100, 0);
    let open_map = Grid::new(128, 128, true).unwrap();
    for (name, g) in [("rooms16", &rooms16), ("rooms8", &rooms8)] {
        let expected: usize = portal_counts(g).iter().sum();
        let edges: usize = portal_counts(g).iter().map(|n| n * n).sum();
        assert!(
            auto_should_build(g),
            "{name}: the test map should qualify ({edges} in-sector pairs, {} passable)",
            g.passable_count()
        );
        for parallel in [false, true] {
            let h = build(g, PortalMode::Auto, parallel);
            assert!(
                h.stats().portals > 0,
                "{name}: Auto did not build the layer"
            );
            assert_eq!(h.stats().portals, expected, "{name}");
            assert!(h.stats().portal_bytes > 0, "{name}");
            assert_eq!(build(g, PortalMode::Never, parallel).stats().portals, 0);
            assert_eq!(
                build(g, PortalMode::Never, parallel).stats().portal_bytes,
                0
            );
        }
    }
    assert!(!auto_should_build(&open_map));
    let h = build(&open_map, PortalMode::Auto, true);
    assert_eq!(h.stats().portals, 0, "Auto built the layer on open ground");
    assert_eq!(h.stats().portal_bytes, 0);
    assert_eq!(build(&open_map, PortalMode::Never, true).stats().portals, 0);
    // Always builds it even there: every border cell with a way out.
    assert_eq!(
        build(&open_map, PortalMode::Always, true).stats().portals,
        portal_counts(&open_map).iter().sum::<usize>()
    );
    // Auto agrees with the rule on random maps of both kinds.
    for i in 0..6 {
        let (w, h) = (40 + rng.below(100) as u32, 40 + rng.below(100) as u32);
        let g = if i % 2 == 0 {
            rooms_grid(&mut rng, w, h)
        } else {
            let pct = 10 + rng.below(30);
            obstacle_grid(&mut rng, w, h, pct)
        };
        let built = build(&g, PortalMode::Auto, true).stats().portals > 0;
        assert_eq!(built, auto_should_build(&g), "map {i} ({w}x{h})");
    }
    // Queries on the Auto-built rooms map are exact.
    let h = build(&rooms8, PortalMode::Auto, true);
    let qs = queries(&mut rng, &rooms8, 8);
    let t = check_queries(&mut CellPlanner::new(), &h, &rooms8, &qs, "rooms8 auto");
    assert!(t.exact > 30, "{t:?}");
}

/// Incremental updates keep the layer equal to a fresh build and exact on
/// the edited grid.
#[test]
fn updates_stay_exact() {
    let mut rng = Rng::new(0x5EED_0005);
    let mut planner = CellPlanner::new();
    let mut no_straight = CellPlanner::with_config(PlannerConfig::new().straight(false)).unwrap();
    for &(w, hgt) in &[(100, 71), (64, 64), (45, 83)] {
        let mut g = rooms_grid(&mut rng, w, hgt);
        let mut h = build(&g, PortalMode::Always, true);
        for round in 0..5 {
            let before = g.clone();
            let mut changed = Vec::new();
            // Close some doors (passable wall-line cells between two
            // blocked ones), open some wall cells, toggle random cells.
            let doors: Vec<Point> = passable_cells(&g)
                .into_iter()
                .filter(|p| {
                    let (x, y) = (p.x as i64, p.y as i64);
                    (!open(&g, x - 1, y) && !open(&g, x + 1, y))
                        || (!open(&g, x, y - 1) && !open(&g, x, y + 1))
                })
                .collect();
            let blocked: Vec<Point> = (0..g.height())
                .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
                .filter(|&p| !g.is_passable(p))
                .collect();
            for _ in 0..4 {
                if !doors.is_empty() {
                    let p = rng.pick(&doors);
                    g.set_passable(p, false).unwrap();
                    changed.push(p);
                }
            }
            for _ in 0..6 {
                let p = rng.pick(&blocked);
                g.set_passable(p, true).unwrap();
                changed.push(p);
            }
            // Toggle random cells, cells on sector borders and cells at
            // sector corners (where diagonal moves cross two borders).
            let corner = |v: u32| v.is_multiple_of(SIDE) || v % SIDE == SIDE - 1;
            let corners: Vec<Point> = (0..g.height())
                .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
                .filter(|p| corner(p.x) && corner(p.y))
                .collect();
            let edges: Vec<Point> = (0..g.height())
                .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
                .filter(|p| corner(p.x) || corner(p.y))
                .collect();
            for i in 0..12 {
                let p = match i % 3 {
                    0 => Point::new(rng.below(w as u64) as u32, rng.below(hgt as u64) as u32),
                    1 => rng.pick(&edges),
                    _ => rng.pick(&corners),
                };
                let now = g.is_passable(p);
                g.set_passable(p, !now).unwrap();
                changed.push(p);
            }
            // Every edited cell once (one toggled twice is back as it was;
            // listing it is harmless).
            changed.sort_by_key(|p| (p.y, p.x));
            changed.dedup();
            let stats = h.update(&g, &changed).unwrap();
            let fresh = build(&g, PortalMode::Always, false);
            let what = format!("{w}x{hgt} update round {round}");
            assert_eq!(stats.portals, fresh.stats().portals, "{what}");
            assert_eq!(h.stats().portals, fresh.stats().portals, "{what}");
            assert_eq!(
                h.stats().portals,
                portal_counts(&g).iter().sum::<usize>(),
                "{what}"
            );
            assert!(h.matches(&g));
            assert_ne!(before.checksum(), g.checksum());
            // Queries from and to the edited cells, and random ones.
            let mut qs = queries(&mut rng, &g, 8);
            let cells = passable_cells(&g);
            for &p in changed.iter().filter(|p| g.is_passable(**p)).take(4) {
                let goals = (0..5).map(|_| rng.pick(&cells)).collect();
                qs.push((p, goals));
            }
            let t = check_queries(&mut planner, &h, &g, &qs, &what);
            assert!(t.exact > 0, "{what}: {t:?}");
            check_queries(&mut no_straight, &h, &g, &qs, &what);
        }
    }
}

/// `to_bytes` / `from_bytes` keep the layer: the same portal count and the
/// same answers.
#[test]
fn persistence_keeps_the_layer() {
    let mut rng = Rng::new(0x5EED_0006);
    let maps = [
        (rooms_grid(&mut rng, 100, 71), PortalMode::Always),
        (obstacle_grid(&mut rng, 48, 40, 20), PortalMode::Always),
        (
            rooms_grid_with(&mut rng, 96, 80, (16, 16), (0, 0), 100, 10),
            PortalMode::Auto,
        ),
        (rooms_grid(&mut rng, 37, 53), PortalMode::Never),
    ];
    for (i, (g, mode)) in maps.iter().enumerate() {
        let h = build(g, *mode, true);
        if *mode != PortalMode::Never {
            assert!(h.stats().portals > 0, "map {i}");
        }
        let bytes = h.to_bytes();
        let back = Hierarchy::from_bytes(&bytes, g).unwrap();
        assert_eq!(back.stats().portals, h.stats().portals, "map {i}");
        assert_eq!(
            back.stats().portal_bytes > 0,
            h.stats().portal_bytes > 0,
            "map {i}"
        );
        assert_eq!(back.to_bytes(), bytes, "map {i}: second round trip differs");
        let mut p1 = CellPlanner::new();
        let mut p2 = CellPlanner::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (s, goals) in queries(&mut rng, g, 10) {
            for t in goals {
                let ra = p1.find_path_into(&h, g, s, t, &mut a);
                let rb = p2.find_path_into(&back, g, s, t, &mut b);
                match (ra, rb) {
                    (Ok(x), Ok(y)) => {
                        check_path(g, &b, s, t, &y);
                        assert!((x.cost - y.cost).abs() < 1e-9, "map {i}: {s} -> {t}");
                        assert_eq!(x.exact, y.exact, "map {i}: {s} -> {t}");
                    }
                    (Err(x), Err(y)) => assert_eq!(x, y, "map {i}: {s} -> {t}"),
                    (x, y) => panic!("map {i}: {s} -> {t}: {x:?} before, {y:?} after"),
                }
            }
        }
        // The reloaded layer is still exact.
        if *mode != PortalMode::Never {
            let qs = queries(&mut rng, g, 4);
            check_queries(&mut p2, &back, g, &qs, &format!("reloaded map {i}"));
        }
    }
}

/// Every tenth row of `8room_000` with the default configuration (`Auto`):
/// valid paths of the scenario's optimal length.
#[test]
fn movingai_8room_000_is_optimal() {
    let dir = movingai_dir();
    let map = dir.join("maps/8room_000.map");
    let scen = dir.join("scen/8room_000.map.scen");
    if !map.is_file() || !scen.is_file() {
        println!(
            "skipped: Moving AI data not found at {} (set REGIONPATH_MOVINGAI)",
            dir.display()
        );
        return;
    }
    let g = read_map(&map).unwrap();
    let scenario = read_scen(&scen).unwrap();
    let h = Hierarchy::build(&g, &HierarchyConfig::default()).unwrap();
    let layer = h.stats().portals > 0;
    assert_eq!(layer, auto_should_build(&g), "Auto's decision on 8room_000");
    let no_straight = PlannerConfig::new().straight(false);
    let mut path = Vec::new();
    let mut checked = 0;
    for mut planner in [
        CellPlanner::new(),
        CellPlanner::with_config(no_straight).unwrap(),
    ] {
        let straight = planner.config().get_straight();
        for row in scenario.rows.iter().step_by(10) {
            let (s, t) = (row.start, row.goal);
            let stats = planner
                .find_path_into(&h, &g, s, t, &mut path)
                .unwrap_or_else(|e| panic!("line {}: {s} -> {t}: {e}", row.line));
            let cost = check_path(&g, &path, s, t, &stats);
            // 1e-4, or the file's print precision when coarser (`%g` with
            // six significant digits prints 123.456 for 123.4558).
            let tol = scenario.precision.tolerance(row.optimal).max(1e-4);
            assert!(
                (cost - row.optimal).abs() <= tol,
                "line {}: {s} -> {t}: cost {cost}, optimal {} (exact {}, straight {})",
                row.line,
                row.optimal,
                stats.exact,
                stats.straight
            );
            if layer && s != t {
                assert!(
                    stats.exact || (straight && stats.straight),
                    "line {} (straight shortcut {straight}): {stats:?}",
                    row.line
                );
            }
            checked += 1;
        }
    }
    // The test's oracle agrees with the published optima (a check of the
    // oracle the other tests rely on): the longest row and two others.
    for row in [&scenario.rows[0], &scenario.rows[scenario.rows.len() / 2]]
        .into_iter()
        .chain(scenario.rows.last())
    {
        let d = at(&dijkstra(&g, row.start), &g, row.goal);
        let tol = scenario.precision.tolerance(row.optimal).max(1e-4);
        assert!(
            (d - row.optimal).abs() <= tol,
            "oracle: line {}: {d} vs {}",
            row.line,
            row.optimal
        );
    }
    assert!(checked > 300, "{checked} rows");
    println!(
        "8room_000: {checked} rows optimal (portal layer: {} portals)",
        h.stats().portals
    );
}
