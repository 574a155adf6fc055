//! Per-input checks shared by the coverage-guided fuzz targets (`fuzz/`,
//! cargo-fuzz) and the stable replay and random tests
//! (`tests/tests/fuzz_corpus.rs`). Each check takes arbitrary bytes, returns
//! normally on anything the library handles as promised (an answer that is
//! right, or a documented typed error) and panics, naming the broken
//! promise, otherwise; libFuzzer reports that panic as a crash.
//!
//! * [`map_parser`]: `.map` text; an accepted map writes and reads back to
//!   the same cells, an error names a line of the input; small maps are
//!   planned on.
//! * [`scen_parser`]: `.scen` text; accepted rows lie inside their stated
//!   map and match their own printed length.
//! * [`hierarchy_file`]: a small grid, then a `.rph` file for it (raw; with
//!   the header made valid; or a fresh build's file with patches, CRC fixed
//!   so mutations get past the checksum). An accepted file must answer
//!   every query with a valid path or a typed error, never a wrong
//!   reachability.
//! * [`planner`]: a small grid (up to [`MAX_SIDE`]²), build and planner
//!   settings (valid and not), and queries; every answer is checked against
//!   the Dijkstra oracle of `regionpath-testkit`.
//! * [`profiles`]: a small terrain grid, a movement profile (TOML or
//!   builder, valid and not), its build, saved and patched files, and
//!   queries checked against the test kit's weighted Dijkstra.
//!
//! The input layouts are documented on [`decode_grid`], [`hierarchy_file`],
//! [`planner`] and [`profiles`]; [`seeds`] writes inputs in them.

use regionpath::grid::{parse_map, parse_scen, write_map, Grid, Point, Terrain};
use regionpath::grid::{Profile, ProfileError, ProfileGrid, MAX_COST, MAX_UNIT_SIZE, MIN_COST};
use regionpath::hierarchy::{read_file_summary, FORMAT_VERSION};
use regionpath::search::AStar;
use regionpath::{
    Config, Error, Hierarchy, HierarchyConfig, Path, Planner, PortalMode, TurnPolicy, Vec2,
};
use regionpath_testkit::check::repeated_cell;
use regionpath_testkit::clearance::{centre, independently_clear, point_clearance};
use regionpath_testkit::maps::{knock_through, maze, obstacles, EAST_FIRST, WEST_FIRST};
use regionpath_testkit::profiled::{
    check_weighted_path, position_cost, random_terrain, weighted_distance,
};
use regionpath_testkit::{check_path, distances, Rng64, SplitMix64};

/// Largest side of a decoded grid: small enough that a Dijkstra per query
/// costs microseconds, large enough for several 4- to 8-cell sectors.
pub const MAX_SIDE: u32 = 24;

/// Magic of a `.rph` file (see `regionpath_hierarchy::persist`).
const RPH_MAGIC: &[u8; 8] = b"RPHIER\0\n";
/// Bytes before a `.rph` payload: magic, version, length, CRC.
const RPH_HEADER: usize = 24;

/// Input bytes read front to back; reads past the end give zeros, so every
/// byte string decodes to something.
#[derive(Clone, Debug)]
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, at: 0 }
    }

    /// The next byte, 0 past the end.
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at = self.at.saturating_add(1);
        b
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The bytes not read yet (consumes them).
    pub fn rest(&mut self) -> &'a [u8] {
        let s = self.data.get(self.at..).unwrap_or(&[]);
        self.at = self.data.len();
        s
    }
}

/// Decodes a grid of at most [`MAX_SIDE`] a side.
///
/// Layout: width byte (`1 + b % 24`), height byte, kind byte, then by kind
/// (`kind % 4`): 0, one bit per cell row by row (set = blocked; missing
/// bits are open); 1, a density byte (`% 60` percent of obstacles) and a
/// seed (u64) for random obstacles; 2, a seed and a loop count byte for a
/// walled one-cell maze (obstacles below 3 × 3); 3, a room side byte
/// (`3 + b % 6`) and a door-bits byte for rooms in a wall lattice. Then a
/// count byte (`% 8`) of cells to toggle, each an x and a y byte.
pub fn decode_grid(b: &mut Bytes) -> Grid {
    let w = 1 + u32::from(b.u8()) % MAX_SIDE;
    let h = 1 + u32::from(b.u8()) % MAX_SIDE;
    let mut grid = match b.u8() % 4 {
        0 => {
            let mut g = Grid::new(w, h, true).expect("a size within MAX_SIDE");
            let mut byte = 0u8;
            for i in 0..w * h {
                if i % 8 == 0 {
                    byte = b.u8();
                }
                if byte >> (i % 8) & 1 == 1 {
                    let p = Point::new(i % w, i / w);
                    g.set_passable(p, false).expect("in bounds");
                }
            }
            g
        }
        1 => {
            let percent = u64::from(b.u8() % 60);
            let mut rng = SplitMix64(b.u64());
            obstacles(w, h, percent, &mut |n| rng.below(n))
        }
        2 => {
            let mut rng = SplitMix64(b.u64());
            let loops = b.u8();
            if w >= 3 && h >= 3 {
                let order = if loops & 0x80 == 0 {
                    EAST_FIRST
                } else {
                    WEST_FIRST
                };
                let mut g = maze(w, h, true, order, &mut |n| rng.below(n));
                knock_through(&mut g, u32::from(loops % 16), &mut |n| rng.below(n));
                g
            } else {
                obstacles(w, h, 30, &mut |n| rng.below(n))
            }
        }
        _ => {
            let side = 3 + u32::from(b.u8() % 6);
            let doors = b.u8();
            let mut g = Grid::new(w, h, true).expect("a size within MAX_SIDE");
            for y in 0..h {
                for x in 0..w {
                    let wall = (x % side == side - 1) || (y % side == side - 1);
                    if wall {
                        // A door in the middle of each wall piece, where
                        // the door bit of that piece is set.
                        let mid_x = x % side == side / 2 && y % side == side - 1;
                        let mid_y = y % side == side / 2 && x % side == side - 1;
                        let piece = (x / side + 3 * (y / side) + u32::from(mid_y)) % 8;
                        let open = (mid_x || mid_y) && doors >> piece & 1 == 1;
                        if !open {
                            g.set_passable(Point::new(x, y), false).expect("in bounds");
                        }
                    }
                }
            }
            g
        }
    };
    for _ in 0..b.u8() % 8 {
        let p = Point::new(u32::from(b.u8()) % w, u32::from(b.u8()) % h);
        let open = grid.is_passable(p);
        grid.set_passable(p, !open).expect("in bounds");
    }
    grid
}

/// A query endpoint: high bit set, the `k`-th passable cell (`k` a u16),
/// else a raw cell `x % (w + 2)`, `y % (h + 2)`, where `x = w + 1` stands
/// for `u32::MAX` (so both just-outside and far-outside cells occur).
fn decode_point(b: &mut Bytes, grid: &Grid, open: &[Point]) -> Point {
    let mode = b.u8();
    if mode & 0x80 != 0 && !open.is_empty() {
        return open[usize::from(b.u16()) % open.len()];
    }
    let (w, h) = (grid.width(), grid.height());
    let mut coord = |side: u32| {
        let v = u32::from(b.u8()) % (side + 2);
        if v == side + 1 {
            u32::MAX
        } else {
            v
        }
    };
    let x = coord(w);
    Point::new(x, coord(h))
}

/// Decodes build settings: a sector-size byte, a portal-mode byte and a
/// fit-memory bit. With the "invalid allowed" flag, the sector size may be
/// outside 4..=256. Returns the settings and whether they are valid.
fn decode_hierarchy_config(b: &mut Bytes, invalid: bool) -> (HierarchyConfig, bool) {
    const SIZES: [u32; 10] = [4, 5, 6, 7, 8, 12, 16, 24, 64, 256];
    const BAD: [u32; 4] = [0, 3, 257, u32::MAX];
    let s = b.u8();
    let (sector_size, ok) = if invalid && s & 0x80 != 0 {
        (BAD[usize::from(s) % BAD.len()], false)
    } else {
        (SIZES[usize::from(s) % SIZES.len()], true)
    };
    let portals =
        [PortalMode::Auto, PortalMode::Always, PortalMode::Never][usize::from(b.u8() % 3)];
    let config = HierarchyConfig::new()
        .sector_size(sector_size)
        .portals(portals)
        .fit_memory(b.u8() & 1 == 1)
        .parallel(false);
    (config, ok)
}

/// Decodes planner settings (each from a table of values; with `invalid`,
/// every table also offers values outside the documented bounds) and
/// whether they are within those bounds, judged here from the documented
/// ranges, not by the library.
fn decode_config(b: &mut Bytes, invalid: bool) -> (Config, bool) {
    let mut ok = true;
    let mut pick = |b: &mut Bytes, good: &[f32], bad: &[f32]| -> f32 {
        let i = usize::from(b.u8());
        if invalid && !bad.is_empty() && i % 5 == 4 {
            ok = false;
            bad[i / 5 % bad.len()]
        } else {
            good[i % good.len()]
        }
    };
    let flags = b.u8();
    let unit = pick(
        b,
        &[0.0, 0.0, 0.25, 0.5, 0.7, 1.0, 2.5, 8.0],
        &[8.01, -0.1, f32::NAN, f32::INFINITY, 1e30],
    );
    let turning = pick(
        b,
        &[0.0, 0.0, 0.5, 1.0, 3.0, 1024.0],
        &[1025.0, -1.0, f32::NAN, f32::NEG_INFINITY],
    );
    let window = pick(
        b,
        &[60.0, 60.0, 3.0, 4.0, 8.0, 16.0, 24.0],
        &[0.0, 2.0, 1025.0, 100_000.0, u32::MAX as f32],
    ) as u32;
    let reach_byte = b.u8();
    let join_byte = b.u8();
    let recheck = pick(
        b,
        &[1.04, 1.04, 0.0, 0.5, 1.0, 2.0],
        &[-1.0, f32::NAN, f32::INFINITY],
    );
    let recheck_window = pick(b, &[160.0, 3.0, 8.0, 24.0, 4096.0], &[2.0, 4097.0]) as u32;
    let budget = pick(b, &[2.0, 0.0, 1.0, 100.0], &[]) as u32;
    // Reach 1..=window and join radius 0..=window, or just outside.
    let (reach, join) = if window == 60 && reach_byte < 128 {
        (40, 20)
    } else {
        let w = window.clamp(1, 1 << 20);
        let reach = 1 + u32::from(reach_byte) % w;
        let join = u32::from(join_byte) % (w + 1);
        (reach, join)
    };
    let (reach, join) = if invalid && reach_byte % 11 == 10 {
        ok = false;
        (0, join)
    } else if invalid && join_byte % 11 == 10 {
        ok = false;
        (reach, window.saturating_add(1))
    } else {
        (reach, join)
    };
    let config = Config::new()
        .smooth(flags & 1 == 1)
        .unit_radius(unit)
        .turning_radius(turning)
        .turn_policy(if flags & 2 == 0 {
            TurnPolicy::Tighten
        } else {
            TurnPolicy::Strict
        })
        .window(window)
        .reach(reach)
        .join_radius(join)
        .weighted_join_radius(u32::from(join_byte) % 32)
        .recheck(recheck)
        .recheck_window(recheck_window)
        .recheck_budget(budget)
        .straight(flags & 4 == 0)
        .quick_start(flags & 8 == 0)
        .second_route(flags & 16 == 0);
    (config, ok)
}

/// What a query must give, from the oracle.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Expect {
    /// An endpoint outside the grid or blocked: that error.
    BadEndpoint,
    /// No path.
    Unreachable,
    /// A path; its optimal cost.
    Path(f64),
}

fn expect(grid: &Grid, start: Point, goal: Point) -> Expect {
    let usable = |p: Point| grid.in_bounds(p) && grid.is_passable(p);
    if !usable(start) || !usable(goal) {
        return Expect::BadEndpoint;
    }
    let d = distances(grid, start)[goal.y as usize * grid.width() as usize + goal.x as usize];
    if d.is_finite() {
        Expect::Path(d)
    } else {
        Expect::Unreachable
    }
}

/// Whether `e` is the documented error for bad endpoints `start`/`goal`:
/// outside the grid or on a cell (position) that is not `usable`, naming
/// an endpoint that is.
fn endpoint_error(
    grid: &Grid,
    start: Point,
    goal: Point,
    e: &Error,
    usable: impl Fn(Point) -> bool,
) -> bool {
    let at = |endpoint| match endpoint {
        regionpath::Endpoint::Start => start,
        regionpath::Endpoint::Goal => goal,
    };
    match e {
        Error::OutOfBounds { endpoint, point } => {
            *point == at(*endpoint) && !grid.in_bounds(*point)
        }
        Error::Blocked { endpoint, point } => {
            *point == at(*endpoint) && grid.in_bounds(*point) && !usable(*point)
        }
        _ => false,
    }
}

/// Where a hierarchy came from: a fresh build (or a fresh build's file),
/// which must never contradict its grid, or a loaded file of unknown
/// origin, which may refuse a query as [`Error::Inconsistent`] but never
/// give a wrong answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Fresh,
    Loaded,
}

/// Checks an `Err` against the oracle's expectation. `config` is the
/// planner's for a full query (whose smoothing may refuse a curve), `None`
/// for a lazy one.
fn check_error(
    grid: &Grid,
    (start, goal): (Point, Point),
    want: Expect,
    origin: Origin,
    config: Option<&Config>,
    e: &Error,
) {
    let ctx = || format!("query {start} -> {goal} ({want:?})");
    let curved = config.filter(|c| c.get_smooth() && c.get_turning_radius() > 0.0);
    match (want, e) {
        (Expect::BadEndpoint, e) => assert!(
            endpoint_error(grid, start, goal, e, |p| grid.is_passable(p)),
            "{}: expected an endpoint error, got {e:?}",
            ctx()
        ),
        (Expect::Unreachable, Error::Unreachable { start: s, goal: g }) => {
            assert_eq!(
                (*s, *g),
                (start, goal),
                "{}: the error names other ends",
                ctx()
            )
        }
        (_, Error::Inconsistent { .. }) if origin == Origin::Loaded => {}
        (Expect::Path(_), Error::TurnTooTight { .. } | Error::NoLegalCurve { .. })
            if curved.is_some_and(|c| c.get_turn_policy() == TurnPolicy::Strict) => {}
        (Expect::Path(_), Error::UnitTooWide { .. })
            if curved.is_some_and(|c| c.get_unit_radius() > 0.0) => {}
        _ => panic!("{}: wrong error {e:?}", ctx()),
    }
}

/// Checks a full path against the oracle and the documented promises:
/// valid, right ends, cost as reported, never below the optimum, optimal
/// when marked exact or straight, no repeated cell; smoothed waypoints
/// start and end at the cell centres, keep the unit radius clear (or are
/// one step of the cell path, where the unit does not fit) and are never
/// longer than the cells; a curve ends where the waypoints do.
fn check_full(grid: &Grid, start: Point, goal: Point, optimum: f64, config: &Config, path: &Path) {
    let ctx = format!("query {start} -> {goal} (optimum {optimum})");
    let length = check_path(grid, &path.cells, start, goal)
        .unwrap_or_else(|why| panic!("{ctx}: invalid path: {why}"));
    let tol = 1e-6 * length.max(1.0);
    assert!(
        (path.cost - length).abs() <= tol,
        "{ctx}: reported cost {} but the cells cost {length}",
        path.cost
    );
    assert!(length >= optimum - tol, "{ctx}: shorter than optimal");
    if path.stats.exact || path.stats.straight {
        assert!(
            length <= optimum + tol,
            "{ctx}: marked exact/straight but costs {length} ({:?})",
            path.stats
        );
    }
    if let Some(p) = repeated_cell(&path.cells) {
        panic!("{ctx}: the path visits {p} twice");
    }
    if !config.get_smooth() {
        assert!(path.waypoints.is_empty() && path.curve.is_none(), "{ctx}");
        return;
    }
    let r = f64::from(config.get_unit_radius());
    let w = &path.waypoints;
    let at = |v: Vec2| (f64::from(v.x), f64::from(v.y));
    let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 1e-3 && (a.1 - b.1).abs() < 1e-3;
    assert!(!w.is_empty(), "{ctx}: smoothing on, no waypoints");
    assert!(
        near(at(w[0]), centre(start)),
        "{ctx}: waypoints start at {:?}",
        w[0]
    );
    assert!(
        near(at(w[w.len() - 1]), centre(goal)),
        "{ctx}: waypoints end at {:?}",
        w[w.len() - 1]
    );
    let mut total = 0.0;
    let mut narrow = 0;
    for (i, s) in w.windows(2).enumerate() {
        let (a, b) = (at(s[0]), at(s[1]));
        total += ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        // A narrow step: between adjacent cell centres, along the path.
        let step = (a.0 - b.0).abs() <= 1.0 + 1e-6 && (a.1 - b.1).abs() <= 1.0 + 1e-6;
        let clear = independently_clear(grid, a, b, (r - 1e-3).max(0.0));
        assert!(
            clear || (r > 0.0 && step),
            "{ctx}: waypoint segment {i} {a:?} -> {b:?} is not clear for radius {r}"
        );
        if r == 0.0 {
            assert!(independently_clear(grid, a, b, 0.0), "{ctx}: segment {i}");
        }
        narrow += usize::from(!independently_clear(grid, a, b, r));
    }
    // Segments within 1e-3 of the radius may count either way.
    assert!(
        narrow <= path.narrow_segments || r > 0.0 && path.narrow_segments > 0,
        "{ctx}: {narrow} segments are not clear for radius {r}, {} reported",
        path.narrow_segments
    );
    // The vehicle mode (Strict, radius up to MAX_REPAIR_RADIUS) may take
    // another way than the waypoints: round a passage narrower than the
    // unit, or a longer one. Rounding follows them.
    let vehicle = config.get_turn_policy() == TurnPolicy::Strict
        && config.get_turning_radius() <= regionpath::MAX_REPAIR_RADIUS;
    if path.narrow_segments > 0 {
        assert!(
            vehicle || path.curve.is_none(),
            "{ctx}: a rounded curve through a narrow passage"
        );
    }
    assert!(
        (total - path.smoothed_length).abs() <= 1e-3 * total.max(1.0),
        "{ctx}: smoothed length {} but the waypoints measure {total}",
        path.smoothed_length
    );
    assert!(
        total <= length + 1e-3,
        "{ctx}: smoothing lengthened the path"
    );
    if let Some(curve) = &path.curve {
        let end = curve.sample(curve.length()).0;
        let begin = curve.sample(0.0).0;
        assert!(
            near(at(begin), centre(start)),
            "{ctx}: curve starts at {begin:?}"
        );
        let far = (at(end).0 - centre(goal).0)
            .abs()
            .max((at(end).1 - centre(goal).1).abs());
        assert!(far < 1e-2, "{ctx}: curve ends at {end:?}");
        // Rounding corners never lengthens the path.
        assert!(
            vehicle || f64::from(curve.length()) <= total + 1e-2 * total.max(1.0),
            "{ctx}: curve longer than its waypoints"
        );
        // Sampled points keep off blocked cells (the unit radius where the
        // waypoints did).
        let n = (curve.length() * 8.0).ceil().min(10_000.0) as u32;
        for k in 0..=n {
            let d = curve.length() * k as f32 / n.max(1) as f32;
            let p = at(curve.sample(d).0);
            let clearance = point_clearance(grid, p, r + 1.0);
            assert!(
                clearance > (r - 1e-4).max(0.0),
                "{ctx}: curve point {p:?} at {d} is {clearance} from a blocked cell (radius {r})"
            );
        }
    } else {
        assert!(
            config.get_turning_radius() == 0.0,
            "{ctx}: turning radius set, no curve"
        );
    }
}

/// Runs `(start, goal)` as a full query and as a lazy one (start, next_leg
/// until done) and checks both against the oracle.
#[allow(clippy::too_many_arguments)]
fn check_query(
    planner: &mut Planner,
    config: &Config,
    h: &Hierarchy,
    grid: &Grid,
    start: Point,
    goal: Point,
    origin: Origin,
    query: &mut Option<regionpath::Query>,
) {
    let want = expect(grid, start, goal);
    match (planner.find_path(h, grid, start, goal), want) {
        (Ok(path), Expect::Path(d)) => check_full(grid, start, goal, d, config, &path),
        (Ok(path), _) => panic!(
            "query {start} -> {goal}: expected {want:?}, got a path of {} cells",
            path.cells.len()
        ),
        (Err(e), _) => check_error(grid, (start, goal), want, origin, Some(config), &e),
    }
    // Lazy: the first query starts a new `Query`, later ones restart it.
    let started = match query {
        Some(q) => planner.restart(q, h, grid, start, goal),
        None => planner.start(h, grid, start, goal).map(|q| {
            *query = Some(q);
        }),
    };
    let ctx = format!("lazy query {start} -> {goal} ({want:?})");
    if let Err(e) = started {
        // A quick start plans only the first regions; it still answers
        // reachability from the matrix, like a full query.
        check_error(grid, (start, goal), want, origin, None, &e);
        return;
    }
    // A loaded file may claim a connection the grid lacks: the query then
    // starts, and a leg must fail with a typed error.
    let reachable = matches!(want, Expect::Path(_));
    assert!(reachable || origin == Origin::Loaded, "{ctx}: started");
    let q = query.as_mut().expect("started");
    // A lazy path may take detours, but it must end: a leg per region of
    // the route at most, with slack.
    let limit = 4 * grid.passable_count() as usize + 16;
    let Some(cells) = walk_lazy(planner, q, h, grid, limit, origin, &ctx) else {
        return;
    };
    assert!(reachable, "{ctx}: every leg planned");
    // Contiguous, legal, right ends, no cell twice (lazy paths are not
    // promised to be optimal).
    check_path(grid, &cells, start, goal).unwrap_or_else(|why| panic!("{ctx}: {why}"));
    let mut seen = std::collections::HashSet::new();
    for c in &cells {
        assert!(seen.insert(*c), "{ctx}: the lazy path visits {c} twice");
    }
}

/// Runs a started lazy query leg by leg to its end (at most `limit`
/// legs) and returns its cells; `None` where a loaded file's leg fails as
/// `Inconsistent` (its right); any other failure panics, naming `ctx`.
fn walk_lazy(
    planner: &mut Planner,
    q: &mut regionpath::Query,
    h: &Hierarchy,
    grid: &Grid,
    limit: usize,
    origin: Origin,
    ctx: &str,
) -> Option<Vec<Point>> {
    let mut cells = Vec::new();
    for legs in 0.. {
        match planner.next_leg(q, h, grid, &mut cells) {
            Ok(true) => assert!(legs < limit, "{ctx}: over {limit} legs"),
            Ok(false) => break,
            Err(Error::Inconsistent { .. }) if origin == Origin::Loaded => return None,
            Err(e) => panic!("{ctx}: next_leg failed: {e:?}"),
        }
    }
    Some(cells)
}

/// The oracle's connected pieces: a label per cell, row by row (8-connected
/// moves without corner cutting, by breadth-first search; `u32::MAX` for
/// blocked cells).
fn components(grid: &Grid) -> Vec<u32> {
    let (w, h) = (i64::from(grid.width()), i64::from(grid.height()));
    let mut label = vec![u32::MAX; (w * h) as usize];
    let mut next = 0;
    let mut queue = std::collections::VecDeque::new();
    for i in 0..w * h {
        if label[i as usize] != u32::MAX || !regionpath_testkit::open(grid, i % w, i / w) {
            continue;
        }
        label[i as usize] = next;
        queue.push_back((i % w, i / w));
        while let Some((x, y)) = queue.pop_front() {
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                let j = ((y + dy) * w + x + dx) as usize;
                if regionpath_testkit::legal(grid, x, y, dx, dy) && label[j] == u32::MAX {
                    label[j] = next;
                    queue.push_back((x + dx, y + dy));
                }
            }
        }
        next += 1;
    }
    label
}

/// Checks the hierarchy's reachability answers (a cell's region and the
/// connectivity matrix, which answer `Unreachable` in O(1)) for every pair
/// of cells against the oracle's pieces. Fresh: every passable cell whose
/// piece leaves its sector has a region (the others may be sealed: no
/// region), inside one piece, and two regions are connected exactly when
/// their pieces are the same. Loaded: a file may claim more than the grid
/// has (a query then fails with a typed error), never less: two cells the
/// grid connects must not be told apart. With `strict`, claiming less
/// panics; without, it is returned as `false` (see
/// [`KNOWN_LOADER_UNDERCLAIM`]).
fn check_reachability(h: &Hierarchy, grid: &Grid, origin: Origin, strict: bool) -> bool {
    let piece = components(grid);
    let mut region_piece = vec![u32::MAX; h.regions().len()];
    // Each (region, piece) met once, with a cell of it.
    let mut seen = std::collections::BTreeSet::new();
    let mut pairs = Vec::new();
    // The sector each oracle piece lies in, or `u32::MAX` when it spans
    // several: a cell in no region (a sealed piece) must lie in a piece
    // that never leaves its sector.
    let side = h.sector_size();
    let sector = |i: usize| {
        let (x, y) = (i as u32 % grid.width(), i as u32 / grid.width());
        (y / side) * grid.width().div_ceil(side) + x / side
    };
    let mut piece_sector: std::collections::HashMap<u32, u32> = Default::default();
    for (i, &c) in piece.iter().enumerate() {
        if c != u32::MAX {
            let s = piece_sector.entry(c).or_insert(sector(i));
            if *s != sector(i) {
                *s = u32::MAX;
            }
        }
    }
    for (i, &c) in piece.iter().enumerate() {
        if c == u32::MAX {
            continue;
        }
        let p = Point::new(i as u32 % grid.width(), i as u32 / grid.width());
        let Some(r) = h.region_of(grid, p) else {
            assert!(
                origin == Origin::Loaded || piece_sector[&c] != u32::MAX,
                "cell {p} has no region but its piece leaves its sector"
            );
            continue;
        };
        if r.index() >= h.regions().len() {
            // A file whose region table misses regions of a sector: the
            // planner refuses such a cell as `Inconsistent`.
            assert!(
                origin == Origin::Loaded,
                "cell {p} in region {r:?}, past the last"
            );
            continue;
        }
        if origin == Origin::Fresh {
            let slot = &mut region_piece[r.index()];
            if *slot == u32::MAX {
                *slot = c;
            }
            assert_eq!(
                *slot, c,
                "region {r:?} spans two pieces of the grid (at {p})"
            );
        }
        if seen.insert((r.index(), c)) {
            pairs.push((r, c, p));
        }
    }
    for (i, &(a, pa, cell_a)) in pairs.iter().enumerate() {
        for &(b, pb, cell_b) in &pairs[i + 1..] {
            let claimed = a == b || h.regions_connected(a, b);
            let truth = pa == pb;
            match origin {
                Origin::Fresh => assert_eq!(claimed, truth, "regions {a:?} and {b:?}"),
                Origin::Loaded if claimed || !truth => {}
                Origin::Loaded => {
                    if strict {
                        let answer = Planner::default().find_path(h, grid, cell_a, cell_b);
                        panic!(
                            "the file says {cell_a} (region {a:?}) and {cell_b} (region {b:?}) \
                             are not connected; the grid connects them; the planner answers \
                             {:?}",
                            answer.map(|p| p.cost)
                        );
                    }
                    return false;
                }
            }
        }
    }
    true
}

/// Up to `n` passable cells spread over the grid (every k-th in row order).
fn spread(grid: &Grid, n: usize) -> Vec<Point> {
    let open = regionpath_testkit::passable_cells(grid);
    let step = open.len().div_ceil(n.max(1)).max(1);
    open.into_iter().step_by(step).take(n).collect()
}

/// Checks a `.map` parser input: the bytes as text (invalid UTF-8 replaced,
/// as `read_map` does). An accepted map writes and parses back to the same
/// cells; an error's line lies within the text; a map of at most
/// [`MAX_SIDE`]² cells is built and planned on with default settings.
pub fn map_parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines = text.split('\n').count();
    match parse_map(&text) {
        Ok(grid) => {
            let mut out = Vec::new();
            write_map(&grid, &mut out).expect("writing to memory");
            let again = parse_map(std::str::from_utf8(&out).expect("written maps are ASCII"))
                .unwrap_or_else(|e| panic!("a written map does not parse: {e}"));
            assert_eq!(
                (again.width(), again.height()),
                (grid.width(), grid.height())
            );
            assert_eq!(
                again.checksum(),
                grid.checksum(),
                "round trip changed cells"
            );
            let mut open = 0u64;
            for y in 0..grid.height() {
                for x in 0..grid.width() {
                    let p = Point::new(x, y);
                    let t: Terrain = grid.terrain(p).expect("in bounds");
                    assert_eq!(again.terrain(p).expect("in bounds"), t, "terrain at {p}");
                    open += u64::from(grid.is_passable(p));
                }
            }
            assert_eq!(open, grid.passable_count());
            if grid.width() <= MAX_SIDE && grid.height() <= MAX_SIDE {
                plan_sample(&grid, &HierarchyConfig::default(), &Config::default());
            }
        }
        Err(e) => check_error_line(e.line, lines, &e),
    }
}

/// Builds a hierarchy for `grid` and checks full and lazy queries between
/// a spread of its passable cells.
fn plan_sample(grid: &Grid, hc: &HierarchyConfig, config: &Config) {
    let h = Hierarchy::build(grid, hc).unwrap_or_else(|e| panic!("build failed: {e}"));
    let mut planner = Planner::new(*config).expect("valid settings");
    let cells = spread(grid, 5);
    let mut query = None;
    for &s in &cells {
        for &g in &cells {
            check_query(
                &mut planner,
                config,
                &h,
                grid,
                s,
                g,
                Origin::Fresh,
                &mut query,
            );
        }
    }
}

/// Checks a `.scen` parser input (bytes as text, invalid UTF-8 replaced).
/// Accepted rows have their endpoints inside the stated map size, a finite
/// non-negative length that matches itself at the inferred precision, and
/// survive printing and parsing again; an error's line lies within the
/// text.
pub fn scen_parser(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count().max(1);
    match parse_scen(&text) {
        Ok(scen) => {
            let mut again = String::from("version 1\n");
            for row in &scen.rows {
                assert!(row.start.x < row.map_width && row.start.y < row.map_height);
                assert!(row.goal.x < row.map_width && row.goal.y < row.map_height);
                assert!(row.optimal.is_finite() && row.optimal >= 0.0);
                assert!(row.line >= 2 && row.line <= lines, "row line {}", row.line);
                let tol = scen.precision.tolerance(row.optimal);
                assert!(tol.is_finite() && tol > 0.0, "tolerance {tol} for {row:?}");
                assert!(
                    scen.matches(row, row.optimal),
                    "{row:?} does not match itself"
                );
                again.push_str(&format!(
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{:?}\n",
                    row.bucket,
                    row.map,
                    row.map_width,
                    row.map_height,
                    row.start.x,
                    row.start.y,
                    row.goal.x,
                    row.goal.y,
                    row.optimal
                ));
            }
            let reparsed = parse_scen(&again)
                .unwrap_or_else(|e| panic!("printed rows do not parse: {e}\n{again}"));
            assert_eq!(reparsed.rows.len(), scen.rows.len());
            for (a, b) in reparsed.rows.iter().zip(&scen.rows) {
                assert_eq!(
                    (a.bucket, &a.map, a.map_width, a.map_height, a.start, a.goal),
                    (b.bucket, &b.map, b.map_width, b.map_height, b.start, b.goal)
                );
                assert_eq!(a.optimal.to_bits(), b.optimal.to_bits());
            }
        }
        Err(e) => check_error_line(e.line, lines, &e),
    }
}

/// How [`hierarchy_file`] turns its input into a `.rph` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RphMode {
    /// The rest of the input is the file, unchanged.
    Raw = 0,
    /// The rest is the payload; the header (magic, version, length, CRC)
    /// is made valid and the payload's grid checksum and size fields are
    /// set to the decoded grid's, so mutations reach the tables.
    Payload = 1,
    /// The rest is a list of patches applied to the payload of a fresh
    /// build's file; the header is then made valid again.
    Patch = 2,
}

/// Wraps `payload` in a valid `.rph` header of the current format version.
pub fn rph_with_header(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(RPH_HEADER + payload.len());
    out.extend_from_slice(RPH_MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Applies patches to `payload`. Each patch is an op byte and a u16
/// offset (modulo the payload length; rounded down to a multiple of 4 for
/// the u32 ops, as every field is 4-aligned), then by `op % 6`: 0, xor a
/// byte; 1, write a u32; 2, write a small u32 (one byte: a region index, a
/// count, a coordinate); 3, copy the u32 at a second u16 offset; 4, cut the
/// payload there; 5, append a byte.
pub fn apply_patches(payload: &mut Vec<u8>, b: &mut Bytes) {
    let mut budget = 64;
    while !b.is_empty() && budget > 0 {
        budget -= 1;
        let op = b.u8() % 6;
        let raw = usize::from(b.u16());
        if payload.is_empty() {
            if op == 5 {
                payload.push(b.u8());
            }
            continue;
        }
        let at = raw % payload.len();
        let at4 = at & !3;
        let put = |p: &mut Vec<u8>, at: usize, v: u32| {
            for (i, byte) in v.to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = p.get_mut(at + i) {
                    *slot = byte;
                }
            }
        };
        match op {
            0 => payload[at] ^= b.u8(),
            1 => {
                let v = b.u32();
                put(payload, at4, v);
            }
            2 => {
                let v = u32::from(b.u8());
                put(payload, at4, v);
            }
            3 => {
                let from = (usize::from(b.u16()) % payload.len()) & !3;
                let mut v = [0u8; 4];
                for (i, slot) in v.iter_mut().enumerate() {
                    *slot = payload.get(from + i).copied().unwrap_or(0);
                }
                put(payload, at4, u32::from_le_bytes(v));
            }
            4 => payload.truncate(at),
            _ => payload.push(b.u8()),
        }
    }
}

/// Checks a `.rph` loader input. Layout: a grid ([`decode_grid`]), a mode
/// byte ([`RphMode`], `% 3`), then for [`RphMode::Patch`] build settings
/// (a sector-size byte, a portal byte, a fit-memory byte) and the patches
/// ([`apply_patches`]); for the other modes the rest of the input.
///
/// `read_file_summary` must not panic and must accept what the loader
/// accepts. An accepted file must re-save to a file that loads, and answer
/// full and lazy queries between a spread of passable cells with valid
/// paths, `Unreachable` only where the oracle finds no path, or a typed
/// error (`Inconsistent` included: a loaded file may contradict its grid).
///
/// A file that claims two connected regions are not connected fails the
/// check unless [`KNOWN_LOADER_UNDERCLAIM`] is set.
pub fn hierarchy_file(data: &[u8]) {
    hierarchy_file_with(data, !KNOWN_LOADER_UNDERCLAIM)
}

/// [`hierarchy_file`], also failing on files that under-claim
/// connectivity (the reproducers in `fuzz/known/hierarchy_file/`).
pub fn hierarchy_file_strict(data: &[u8]) {
    hierarchy_file_with(data, true)
}

/// Whether [`hierarchy_file`] lets a loaded file that under-claims
/// connectivity pass. `false`: the loader checks every link's crossing
/// cells against the regions it names, so a file with an edge rewired to
/// another region of the same sector (CRC recomputed) is refused with
/// `Inconsistent` (the reproducers in `fuzz/known/hierarchy_file/`, once an
/// open bug, are replayed by `fuzz_corpus.rs`). Set it to `true` only to
/// fuzz past such a bug while it is open.
pub const KNOWN_LOADER_UNDERCLAIM: bool = false;

/// Decodes a [`hierarchy_file`] input into its grid and `.rph` bytes.
pub fn rph_input(data: &[u8]) -> (Grid, Vec<u8>) {
    let mut b = Bytes::new(data);
    let grid = decode_grid(&mut b);
    let bytes = match b.u8() % 3 {
        0 => b.rest().to_vec(),
        1 => {
            let mut payload = b.rest().to_vec();
            let mut fixed = grid.checksum().to_le_bytes().to_vec();
            fixed.extend_from_slice(&grid.width().to_le_bytes());
            fixed.extend_from_slice(&grid.height().to_le_bytes());
            for (slot, v) in payload.iter_mut().zip(fixed) {
                *slot = v;
            }
            rph_with_header(&payload)
        }
        _ => {
            let (hc, _) = decode_hierarchy_config(&mut b, false);
            let h = Hierarchy::build(&grid, &hc).unwrap_or_else(|e| panic!("build failed: {e}"));
            let mut payload = h.to_bytes()[RPH_HEADER..].to_vec();
            apply_patches(&mut payload, &mut b);
            rph_with_header(&payload)
        }
    };
    (grid, bytes)
}

fn hierarchy_file_with(data: &[u8], strict: bool) {
    let (grid, bytes) = rph_input(data);
    let summary = read_file_summary(&bytes);
    let Ok(h) = Hierarchy::from_bytes(&bytes, &grid) else {
        return;
    };
    assert!(
        summary.is_ok(),
        "the loader accepts a file the summary refuses: {summary:?}"
    );
    let resaved = h.to_bytes();
    if let Err(e) = Hierarchy::from_bytes(&resaved, &grid) {
        panic!("an accepted file re-saves to one that does not load: {e}");
    }
    if !check_reachability(&h, &grid, Origin::Loaded, strict) {
        return;
    }
    let config = Config::default();
    let mut planner = Planner::new(config).expect("default settings");
    let cells = spread(&grid, 6);
    let mut query = None;
    for &s in &cells {
        for &g in &cells {
            check_query(
                &mut planner,
                &config,
                &h,
                &grid,
                s,
                g,
                Origin::Loaded,
                &mut query,
            );
        }
    }
}

/// Checks the planner on a small grid. Layout: a grid ([`decode_grid`]),
/// a flags byte (bit 0: also offer out-of-range settings), build settings
/// (sector-size, portal and fit-memory bytes), planner settings (a flags
/// byte: smooth, strict turns, straight off, quick start off, second route
/// off; then unit radius, turning radius, window, reach, join radius,
/// recheck, recheck window and budget bytes), a query count byte (`1 + b %
/// 8`) and the queries (two endpoints each, see `decode_point`).
///
/// Out-of-range settings must be refused with [`Error::Config`] when the
/// hierarchy or planner is made, and in-range ones accepted. Every query
/// runs full and lazy; a fresh hierarchy and its saved-and-loaded copy must
/// answer exactly as the oracle says: a valid path (within the documented
/// bounds, see `check_full`) iff one exists, else the documented error.
pub fn planner(data: &[u8]) {
    let mut b = Bytes::new(data);
    let grid = decode_grid(&mut b);
    let invalid = b.u8() & 1 == 1;
    let (hc, hc_ok) = decode_hierarchy_config(&mut b, invalid);
    let (config, config_ok) = decode_config(&mut b, invalid);
    let h = match Hierarchy::build(&grid, &hc) {
        Ok(h) => {
            assert!(hc_ok, "build accepted {hc:?}");
            h
        }
        Err(e) => {
            assert!(!hc_ok, "build refused valid settings {hc:?}: {e}");
            let e = Error::from(e);
            assert!(matches!(e, Error::Config { .. }), "{hc:?} gave {e:?}");
            return;
        }
    };
    let mut planner = match Planner::new(config) {
        Ok(p) => {
            assert!(config_ok, "planner accepted {config:?}");
            p
        }
        Err(e) => {
            assert!(!config_ok, "planner refused valid settings {config:?}: {e}");
            assert!(matches!(e, Error::Config { .. }), "{config:?} gave {e:?}");
            return;
        }
    };
    let loaded = Hierarchy::from_bytes(&h.to_bytes(), &grid)
        .unwrap_or_else(|e| panic!("a fresh build's file does not load: {e}"));
    check_reachability(&h, &grid, Origin::Fresh, true);
    let open = regionpath_testkit::passable_cells(&grid);
    let count = 1 + b.u8() % 8;
    let mut query = None;
    for _ in 0..count {
        let s = decode_point(&mut b, &grid, &open);
        let g = decode_point(&mut b, &grid, &open);
        for hier in [&h, &loaded] {
            check_query(
                &mut planner,
                &config,
                hier,
                &grid,
                s,
                g,
                Origin::Fresh,
                &mut query,
            );
        }
    }
}

/// Terrain characters of [`profiles`] grids, in the order their count
/// byte takes them: ground, road, swamp, water, forest, wall, grass, and
/// one a profile may name only by its raw character.
const PROFILE_KINDS: [char; 8] = ['.', '=', 'S', 'W', 'T', '@', 'G', '~'];

/// Costs a [`profiles`] builder input picks from: valid ones (the range's
/// ends included) and invalid ones (zero, negative, not finite, just out
/// of range).
const PROFILE_COSTS: [f64; 16] = [
    1.0,
    0.5,
    2.0,
    3.5,
    0.7,
    1000.0,
    0.01,
    7.25,
    1.5,
    3.0,
    0.0,
    -1.0,
    f64::NAN,
    f64::INFINITY,
    1000.5,
    0.009,
];

/// Decodes a terrain grid for [`profiles`]: width and height bytes (`1 + b
/// % 24`), a kind-count byte (`1 + b % 8` of [`PROFILE_KINDS`]), a seed
/// (u64) for patches of kinds (each cell copies its left or upper
/// neighbour or takes a random kind), then a count byte (`% 8`) of cells
/// to set, each an x, a y and a kind byte.
fn decode_terrain(b: &mut Bytes) -> Grid {
    let (w, h) = (
        1 + u32::from(b.u8()) % MAX_SIDE,
        1 + u32::from(b.u8()) % MAX_SIDE,
    );
    let kinds: Vec<Terrain> = PROFILE_KINDS[..1 + usize::from(b.u8()) % PROFILE_KINDS.len()]
        .iter()
        .map(|&c| Terrain::from_char(c).expect("printable"))
        .collect();
    let mut grid = random_terrain(&mut SplitMix64(b.u64()), w, h, &kinds);
    for _ in 0..b.u8() % 8 {
        let p = Point::new(u32::from(b.u8()) % w, u32::from(b.u8()) % h);
        let t = kinds[usize::from(b.u8()) % kinds.len()];
        grid.set_terrain(p, t)
            .expect("in bounds, a kind of the map");
    }
    grid
}

/// Decodes a profile for [`profiles`] and checks that it is accepted
/// exactly when valid. Text mode: a length byte and that many bytes of
/// TOML (lossy UTF-8) for `Profile::from_toml_str`, whose errors must name
/// the origin, a line of the text and a field. Builder mode: a name byte
/// (0: blank), a size byte (`% 10`: 0 and 9 are out of range), a count
/// byte (`% 6`) of costs, each a kind byte (high bit: the low 7 bits as a
/// raw character, printable or not; else one of [`PROFILE_KINDS`]) and a
/// cost byte (one of [`PROFILE_COSTS`]). `None` when refused.
fn decode_profile(b: &mut Bytes, text_mode: bool) -> Option<Profile> {
    if text_mode {
        let len = usize::from(b.u8());
        let bytes: Vec<u8> = (0..len).map(|_| b.u8()).collect();
        let text = String::from_utf8_lossy(&bytes);
        return match Profile::from_toml_str(&text, "fuzz.toml") {
            Ok(p) => {
                check_profile(&p);
                Some(p)
            }
            Err(e) => {
                let shown = e.to_string();
                let ProfileError::At {
                    origin,
                    line,
                    column,
                    field,
                    ..
                } = &e
                else {
                    panic!("profile text {text:?}: error without a place: {e:?}");
                };
                assert_eq!(origin, "fuzz.toml", "{shown}");
                let lines = text.lines().count().max(1);
                assert!(
                    (1..=lines + 1).contains(line) && *column >= 1,
                    "profile text {text:?}: line {line} of {lines}: {shown}"
                );
                assert!(shown.contains(&format!("field `{field}`")), "{shown}");
                None
            }
        };
    }
    let name = if b.u8() == 0 { " " } else { "unit" };
    let size = u32::from(b.u8() % 10);
    let mut builder = Profile::builder(name).size(size);
    let mut valid = name != " " && (1..=MAX_UNIT_SIZE).contains(&size);
    let mut priced = false;
    for _ in 0..b.u8() % 6 {
        let k = b.u8();
        let c = if k & 0x80 != 0 {
            char::from(k & 0x7f)
        } else {
            PROFILE_KINDS[usize::from(k) % PROFILE_KINDS.len()]
        };
        let cost = PROFILE_COSTS[usize::from(b.u8()) % PROFILE_COSTS.len()];
        valid &=
            ('!'..='~').contains(&c) && cost.is_finite() && (MIN_COST..=MAX_COST).contains(&cost);
        priced = true;
        builder = builder.cost(c, cost);
    }
    valid &= priced;
    match builder.build() {
        Ok(p) => {
            assert!(valid, "the builder accepted an invalid profile: {p:?}");
            check_profile(&p);
            Some(p)
        }
        Err(e) => {
            assert!(!valid, "the builder refused a valid profile: {e}");
            None
        }
    }
}

/// A profile's documented invariants: size in range, at least one priced
/// character, every cost finite and in range.
fn check_profile(p: &Profile) {
    assert!((1..=MAX_UNIT_SIZE).contains(&p.size()), "{p:?}");
    let costs: Vec<f64> = p.costs().map(|(_, c)| c).collect();
    assert!(!costs.is_empty(), "{p:?}");
    assert!(
        costs
            .iter()
            .all(|c| c.is_finite() && (MIN_COST..=MAX_COST).contains(c)),
        "{p:?}"
    );
}

/// Checks movement profiles end to end on a small terrain grid. Layout: a
/// flags byte (bit 0: the profile as TOML text; bit 1: patch the saved
/// file; bit 2: smooth; bits 3–4: sector size 4, 5, 8 or 16), a grid
/// (`decode_terrain`), a profile (`decode_profile`), a query count byte
/// (`1 + b % 6`) and the queries (two endpoints each: the high bit of the
/// first byte picks a usable position, else raw coordinates, as
/// `decode_point`), then, with bit 1, patches ([`apply_patches`]) of the
/// saved file's payload (CRC fixed).
///
/// An accepted profile must build; the build's file must load for that
/// profile and be refused for the same costs at another size, and
/// without a profile. Every query, full and lazy, on the build and on its loaded
/// copy, must agree with the test kit's weighted Dijkstra: a path iff one
/// exists, contiguous and legal for the unit's footprint, from start to
/// goal, its reported cost its cost, never below the optimum; the exact
/// weighted A* reaches the optimum; endpoints off the map or not usable
/// get the documented endpoint errors. A patched file may be refused with
/// a typed error; if it loads, its answers may be refused as
/// `Inconsistent` but never wrong.
pub fn profiles(data: &[u8]) {
    let mut b = Bytes::new(data);
    let flags = b.u8();
    let grid = decode_terrain(&mut b);
    let Some(profile) = decode_profile(&mut b, flags & 1 == 1) else {
        return;
    };
    let sector = [4, 5, 8, 16][usize::from(flags >> 3 & 3)];
    let hc = HierarchyConfig::new().sector_size(sector).parallel(false);
    let h = Hierarchy::build_with_profile(&grid, &profile, &hc)
        .unwrap_or_else(|e| panic!("a valid profile does not build: {e}"));
    let payload = h.to_bytes();
    let loaded = Hierarchy::from_bytes_with_profile(&payload, &grid, &profile)
        .unwrap_or_else(|e| panic!("a fresh profiled file does not load: {e}"));
    assert!(
        Hierarchy::from_bytes(&payload, &grid).is_err(),
        "a profiled file loads without its profile"
    );
    let other = {
        let mut o = Profile::builder(profile.name()).size(if profile.size() < MAX_UNIT_SIZE {
            profile.size() + 1
        } else {
            1
        });
        for (t, c) in profile.costs() {
            o = o.cost(t.to_char(), c);
        }
        o.build().expect("a valid profile resized")
    };
    assert!(
        Hierarchy::from_bytes_with_profile(&payload, &grid, &other).is_err(),
        "a profiled file loads for a profile of another size"
    );
    let usable = |p: Point| position_cost(&grid, &profile, p.x.into(), p.y.into()).is_some();
    let open: Vec<Point> = (0..grid.height())
        .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
        .filter(|&p| usable(p))
        .collect();
    let config = Config::new().smooth(flags & 4 != 0);
    let mut planner = Planner::new(config).expect("valid settings");
    let view = ProfileGrid::new(&grid, &profile);
    let mut astar = AStar::new();
    let mut queries = Vec::new();
    for _ in 0..1 + b.u8() % 6 {
        let s = decode_point(&mut b, &grid, &open);
        queries.push((s, decode_point(&mut b, &grid, &open)));
    }
    let wants: Vec<Expect> = queries
        .iter()
        .map(|&(s, g)| {
            if !usable(s) || !usable(g) {
                Expect::BadEndpoint
            } else {
                match weighted_distance(&grid, &profile, s, g) {
                    Some(d) => Expect::Path(d),
                    None => Expect::Unreachable,
                }
            }
        })
        .collect();
    let mut path = Path::default();
    let mut query = None;
    for (&(s, g), &want) in queries.iter().zip(&wants) {
        if let Expect::Path(d) = want {
            let found = astar
                .find_path_weighted(&view, s, g)
                .unwrap_or_else(|e| panic!("exact search {s} -> {g}: {e}"));
            let c = check_weighted_path(&grid, &profile, &found.path, s, g)
                .unwrap_or_else(|e| panic!("exact search {s} -> {g}: {e}"));
            assert!(
                (c - d).abs() <= 1e-6 * d.max(1.0),
                "exact search {s} -> {g}: {c} against the optimum {d}"
            );
        }
        for (hier, origin) in [(&h, Origin::Fresh), (&loaded, Origin::Fresh)] {
            check_profiled_query(
                &mut planner,
                hier,
                &grid,
                &profile,
                (s, g),
                want,
                origin,
                &mut path,
                &mut query,
            );
        }
    }
    if flags & 2 == 0 {
        return;
    }
    let mut patched = payload[RPH_HEADER..].to_vec();
    apply_patches(&mut patched, &mut b);
    let Ok(loaded) =
        Hierarchy::from_bytes_with_profile(&rph_with_header(&patched), &grid, &profile)
    else {
        return;
    };
    for (&(s, g), &want) in queries.iter().zip(&wants) {
        check_profiled_query(
            &mut planner,
            &loaded,
            &grid,
            &profile,
            (s, g),
            want,
            Origin::Loaded,
            &mut path,
            &mut query,
        );
    }
}

/// One [`profiles`] query, full then lazy, against the oracle's `want`.
#[allow(clippy::too_many_arguments)]
fn check_profiled_query(
    planner: &mut Planner,
    h: &Hierarchy,
    grid: &Grid,
    profile: &Profile,
    (start, goal): (Point, Point),
    want: Expect,
    origin: Origin,
    path: &mut Path,
    query: &mut Option<regionpath::Query>,
) {
    let ctx = format!(
        "{} query {start} -> {goal} ({want:?}, {origin:?})",
        profile.name()
    );
    let usable = |p: Point| position_cost(grid, profile, p.x.into(), p.y.into()).is_some();
    let check_err = |e: &Error| match (want, e) {
        (Expect::BadEndpoint, e) => {
            assert!(
                endpoint_error(grid, start, goal, e, usable),
                "{ctx}: got {e:?}"
            )
        }
        (Expect::Unreachable, Error::Unreachable { start: s, goal: g }) => {
            assert_eq!((*s, *g), (start, goal), "{ctx}: the error names other ends")
        }
        (_, Error::Inconsistent { .. }) if origin == Origin::Loaded => {}
        _ => panic!("{ctx}: wrong error {e:?}"),
    };
    match planner.find_path_into(h, grid, start, goal, path) {
        Ok(()) => {
            let Expect::Path(d) = want else {
                panic!("{ctx}: a path of {} positions", path.cells.len());
            };
            let c = check_weighted_path(grid, profile, &path.cells, start, goal)
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert!(
                (c - path.cost).abs() <= 1e-6 * c.max(1.0),
                "{ctx}: cost {c} reported as {}",
                path.cost
            );
            assert!(
                c >= d - 1e-6 * d.max(1.0),
                "{ctx}: cost {c} below the optimum {d}"
            );
            if let (Some(first), Some(last)) = (path.waypoints.first(), path.waypoints.last()) {
                let k = profile.size() as f32 / 2.0;
                assert_eq!(
                    (first.x, first.y),
                    (start.x as f32 + k, start.y as f32 + k),
                    "{ctx}"
                );
                assert_eq!(
                    (last.x, last.y),
                    (goal.x as f32 + k, goal.y as f32 + k),
                    "{ctx}"
                );
            }
        }
        Err(e) => check_err(&e),
    }
    let started = match query {
        Some(q) => planner.restart(q, h, grid, start, goal),
        None => planner.start(h, grid, start, goal).map(|q| {
            *query = Some(q);
        }),
    };
    if let Err(e) = started {
        check_err(&e);
        return;
    }
    let reachable = matches!(want, Expect::Path(_));
    assert!(
        reachable || origin == Origin::Loaded,
        "{ctx}: a lazy query started"
    );
    let q = query.as_mut().expect("started");
    let limit = 4 * grid.width() as usize * grid.height() as usize + 16;
    let Some(cells) = walk_lazy(planner, q, h, grid, limit, origin, &ctx) else {
        return;
    };
    assert!(reachable, "{ctx}: every lazy leg planned");
    check_weighted_path(grid, profile, &cells, start, goal)
        .unwrap_or_else(|e| panic!("{ctx}: lazy: {e}"));
}

/// Seed inputs for the five targets, built from the layouts above (the
/// committed corpora in `fuzz/corpus/` were written from these, plus
/// crops of the bundled maps).
pub mod seeds {
    use super::*;

    /// A grid header for [`decode_grid`]: random obstacles.
    pub fn random_grid(w: u8, h: u8, percent: u8, seed: u64) -> Vec<u8> {
        let mut v = vec![w - 1, h - 1, 1, percent];
        v.extend_from_slice(&seed.to_le_bytes());
        v.push(0);
        v
    }

    /// A grid header for [`decode_grid`]: a walled maze with loops.
    pub fn maze_grid(w: u8, h: u8, seed: u64, loops: u8) -> Vec<u8> {
        let mut v = vec![w - 1, h - 1, 2];
        v.extend_from_slice(&seed.to_le_bytes());
        v.extend_from_slice(&[loops, 0]);
        v
    }

    /// A grid header for [`decode_grid`]: rooms with doors.
    pub fn rooms_grid(w: u8, h: u8, side: u8, doors: u8) -> Vec<u8> {
        vec![w - 1, h - 1, 3, side - 3, doors, 0]
    }

    /// A grid header for [`decode_grid`]: the cells of `rows` (`@` blocked).
    pub fn bits_grid(rows: &[&str]) -> Vec<u8> {
        let (w, h) = (rows[0].len(), rows.len());
        let mut v = vec![(w - 1) as u8, (h - 1) as u8, 0];
        let cells: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.bytes().map(|c| c == b'@'))
            .collect();
        for chunk in cells.chunks(8) {
            v.push(
                chunk
                    .iter()
                    .enumerate()
                    .fold(0u8, |a, (i, &c)| a | (u8::from(c) << i)),
            );
        }
        v.push(0);
        v
    }

    /// The grids the seeds use.
    pub fn grids() -> Vec<Vec<u8>> {
        vec![
            random_grid(24, 24, 25, 1),
            random_grid(24, 24, 45, 2),
            random_grid(17, 9, 10, 3),
            random_grid(1, 24, 20, 4),
            maze_grid(23, 23, 5, 6),
            maze_grid(24, 15, 7, 0x80 | 3),
            maze_grid(9, 24, 8, 0),
            rooms_grid(24, 24, 6, 0b1011_0110),
            rooms_grid(24, 20, 4, 0xff),
            rooms_grid(13, 24, 8, 0x5a),
            bits_grid(&[
                "..........",
                ".@@@@@@@@.",
                ".@......@.",
                ".@.@@@@.@.",
                ".@.@..@.@.",
                ".@.@.@@.@.",
                ".@.@....@.",
                ".@.@@@@@@.",
                ".@........",
                ".@@@@@@@@@",
            ]),
            bits_grid(&["@.@.@.@.", ".@.@.@.@", "@.@.@.@.", ".@.@.@.@"]),
            bits_grid(&["."]),
        ]
    }

    /// Planner seeds: each grid with a few settings and queries between
    /// passable cells (high-bit endpoints) and raw cells.
    pub fn planner() -> Vec<Vec<u8>> {
        let settings: [[u8; 13]; 4] = [
            // valid-only; sector 16 (index 6), Auto, fit; defaults.
            [0, 6, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            // sector 4, Always, no fit; smooth, radius 0.5, turning 1.
            [0, 0, 1, 0, 1, 3, 3, 0, 0, 0, 0, 0, 0],
            // sector 8, Never; smooth radius 1, strict turning 3, window 8.
            [0, 4, 2, 1, 3, 5, 4, 4, 200, 3, 3, 1, 1],
            // invalid allowed: unit radius NaN (index 4 + 5 * 2).
            [1, 5, 0, 1, 1, 14, 0, 0, 0, 0, 0, 0, 0],
        ];
        let mut out = Vec::new();
        for (i, grid) in grids().into_iter().enumerate() {
            let s = &settings[i % settings.len()];
            let mut v = grid.clone();
            v.extend_from_slice(s);
            v.push(7);
            for k in 0..8u16 {
                v.push(0x80);
                v.extend_from_slice(&(k * 37).to_le_bytes());
                v.push(0x80);
                v.extend_from_slice(&(k * 101 + 13).to_le_bytes());
            }
            out.push(v);
            // The same grid with raw (possibly blocked or outside) ends.
            let mut v = grid;
            v.extend_from_slice(&settings[0]);
            v.extend_from_slice(&[3, 0, 0, 0, 23, 23, 0, 25, 3, 0, 1, 1, 0, 3, 200]);
            out.push(v);
        }
        out
    }

    /// `.rph` loader seeds: each grid's fresh file raw, as a payload, and
    /// with a few patches (an edge endpoint, a cost, a region cell count).
    pub fn hierarchy_file() -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for (i, g) in grids().into_iter().enumerate() {
            let grid = decode_grid(&mut Bytes::new(&g));
            let portals = [PortalMode::Auto, PortalMode::Always, PortalMode::Never][i % 3];
            let sector = [4u32, 8, 16][i % 3];
            let h = Hierarchy::build(
                &grid,
                &HierarchyConfig::new()
                    .sector_size(sector)
                    .portals(portals)
                    .parallel(false),
            )
            .expect("a valid build");
            // The build time (payload bytes 20..28) set to 0: the same
            // seeds on every run.
            let mut payload = h.to_bytes()[RPH_HEADER..].to_vec();
            payload[20..28].fill(0);
            let file = rph_with_header(&payload);
            let mut raw = g.clone();
            raw.push(RphMode::Raw as u8);
            raw.extend_from_slice(&file);
            out.push(raw);
            let mut payload = g.clone();
            payload.push(RphMode::Payload as u8);
            payload.extend_from_slice(&file[RPH_HEADER..]);
            out.push(payload);
            let size_index = [0u8, 4, 6][i % 3];
            let mut patch = g;
            patch.extend_from_slice(&[RphMode::Patch as u8, size_index, (i % 3) as u8, 0]);
            // The first edge's `b` (format 10: payload offset 56 fixed + 4
            // + 20 per region + 4, then 4 into the record) set to region 0,
            // and region 0's cell count (offset 56 + 4 + 4) changed.
            let regions = h.regions().len();
            let edge = 56 + 4 + 20 * regions + 4;
            patch.push(2);
            patch.extend_from_slice(&((edge + 4) as u16).to_le_bytes());
            patch.push(0);
            patch.push(2);
            patch.extend_from_slice(&(64u16).to_le_bytes());
            patch.push(0x10);
            // The first landmark distances (format 6: after the edge
            // table, the shift and the landmark regions) set to 127.
            let lm = h.stats().landmarks;
            let table = 56 + 4 + 20 * regions + 4 + 16 * h.edge_list().len() + 4 + 4 * lm;
            if let Ok(at) = u16::try_from(table) {
                patch.push(2);
                patch.extend_from_slice(&at.to_le_bytes());
                patch.push(0x7f);
            }
            out.push(patch);
        }
        out
    }

    /// [`profiles`] seeds: painted grids of 8 to 24 cells a side, the
    /// bundled kinds of unit as TOML text (infantry, a two-cell tank, a
    /// boat) and as builder input (sizes 1 to 3, one invalid), the saved
    /// file patched in some, six queries between usable positions each.
    pub fn profiles() -> Vec<Vec<u8>> {
        let texts = [
            "name = \"infantry\"\nsize = 1\n\n[cost]\n\".\" = 1\nG = 1\n\"=\" = 0.5\nT = 2\nS = 3\n",
            "name = \"tank\"\nsize = 2\n\n[cost]\n\".\" = 1\nG = 1\n\"=\" = 0.7\nT = 4\n",
            "name = \"boat\"\n[cost]\nW = 1\n\"~\" = 1.5\n",
            "name = \"bad\"\nsize = 100\n[cost]\n\".\" = 1\n",
            "name = \"bad\"\nspeed = 2\n[cost]\n\".\" = 0\n",
        ];
        let mut out = Vec::new();
        for (i, side) in [8u8, 13, 16, 24, 20, 11, 17, 24].into_iter().enumerate() {
            // Flags: text or builder, patched (odd seeds), smooth (every
            // third), sector size by index.
            let text = i < texts.len();
            let flags = u8::from(text)
                | (u8::from(i % 2 == 1) << 1)
                | (u8::from(i % 3 == 0) << 2)
                | (((i % 4) as u8) << 3);
            let mut v = vec![flags, side - 1, side + 3 - 1, 7];
            v.extend_from_slice(&(0x5eed_0000 + i as u64).to_le_bytes());
            v.push(0);
            if text {
                let t = texts[i].as_bytes();
                v.push(t.len() as u8);
                v.extend_from_slice(t);
            } else {
                // Name, size, three costs: ground 1, road 0.5, swamp 3.
                v.extend_from_slice(&[1, (i % 3) as u8 + 1, 3, 0, 0, 1, 1, 2, 9]);
            }
            v.push(5);
            for q in 0..6u16 {
                let k = q.wrapping_mul(97).wrapping_add(i as u16 * 31);
                v.extend_from_slice(&[0x80, k as u8, (k >> 8) as u8, 0x80, (k * 7) as u8, 0]);
            }
            if flags & 2 != 0 {
                // Xor a byte in the region table, cut the tail.
                v.extend_from_slice(&[0, 60, 0, 0x10, 4, 0xff, 0x7f]);
            }
            out.push(v);
        }
        out
    }

    /// `.scen` seeds: the first rows of the bundled scenario files (taken
    /// by the caller) and hand-written rows in each printed precision.
    pub fn scen() -> Vec<Vec<u8>> {
        let texts = [
            "version 1\n0\tx.map\t9\t9\t1\t2\t3\t4\t3.41421356\n",
            "version 1.0\n0 AR0011SR.map 512 512 1 2 3 4 244.95\n0 AR0011SR.map 512 512 1 2 3 4 2\n",
            "version 1\n12\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n3\tmaps/dao/arena.map\t49\t49\t1\t1\t3\t3\t5.41421\n",
            "version 1\r\n\r\n6\tB.map\t9\t9\t1\t2\t3\t4\t24.89949493\r\n",
            "version 1\n1\ta.map\t4\t4\t0\t0\t3\t3\t4.2426e0\n",
            "version 2\n",
            "",
        ];
        texts.iter().map(|t| t.as_bytes().to_vec()).collect()
    }

    /// `.map` seeds: small maps of every terrain character, written by
    /// `write_map` and with CRLF ends, plus broken headers.
    pub fn map() -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for g in grids().iter().take(6) {
            let grid = decode_grid(&mut Bytes::new(g));
            let mut text = Vec::new();
            write_map(&grid, &mut text).expect("writing to memory");
            out.push(text);
        }
        let texts = [
            "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.T@\r\nGSW  ",
            "type octile\nwidth 4\nheight 3\nmap\n.GSO\nTW@.\n....\n\n\n",
            "type octile\nheight 1\nwidth 1\nmap\n@\n",
            "type octile\nheight 2\nwidth 2\nmap\n..\n",
            "type octile\nheight 99999\nwidth 99999\nmap\n",
            "height 1\nwidth 1\nmap\n.\n",
            "type octile\nheight 1 2\nwidth 1\nmap\n.\n",
        ];
        out.extend(texts.iter().map(|t| t.as_bytes().to_vec()));
        out
    }
}

/// A parse error points at a line of the input and prints.
fn check_error_line(line: usize, lines: usize, e: &dyn std::fmt::Display) {
    assert!(line <= lines, "error line {line} past the {lines} lines");
    let _ = e.to_string();
}
