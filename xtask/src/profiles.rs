//! Hierarchical planning under movement profiles beside the exact weighted
//! A*: `profiles MAP.map PROFILE.toml... [--queries N] [--seed S] [--window W] [--sector S] [--join J] [--reach R] [--worst N] [--lazy]`.
//! For each profile: build time and bytes per cell of the profiled
//! hierarchy, then N random pairs of usable positions that the exact
//! search connects; per query the exact cost and time and the planner's
//! cost and time (full queries, warm planner). Prints mean and p95
//! suboptimality, the pooled time ratio, any invalid path or wrong
//! reachability (the path is checked by position, move and cost rules),
//! and per query the abstract and leg expansions and the legs.
//! `--sector S` builds with sectors of S cells; `--join J` and `--reach R`
//! set the planner's join radius (both, uniform and weighted) and leg
//! reach; `--worst N` prints the N most suboptimal queries (start, goal,
//! costs) to stderr; `--lazy` times and prices lazy walks (`start`, then
//! `next_leg` to the goal, the legs joined) instead of full queries.

use regionpath_grid::{read_map, Point, Profile, ProfileGrid};
use regionpath_hierarchy::{
    CellPlanner, Hierarchy, HierarchyConfig, PlanError, PlanStats, RegionId,
};
use regionpath_search::{weighted_path_cost, AStar, Status};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Whether `path` runs from `s` to `g` by legal moves over usable
/// positions of `view`.
fn legal(view: &ProfileGrid, path: &[Point], s: Point, g: Point) -> bool {
    let grid = view.grid();
    path.first() == Some(&s)
        && path.last() == Some(&g)
        && path.iter().all(|&p| view.is_usable(p))
        && path.windows(2).all(|w| {
            let (dx, dy) = (w[1].x as i32 - w[0].x as i32, w[1].y as i32 - w[0].y as i32);
            regionpath_grid::Dir::from_delta(dx, dy).is_some_and(|d| grid.can_step(w[0], d))
        })
}

/// A lazy walk from `s` to `g`: its legs joined into `cells`, its
/// figures with the walk's cost under `view`.
fn lazy_walk(
    planner: &mut CellPlanner,
    (h, grid, view): (&Hierarchy, &regionpath_grid::Grid, &ProfileGrid),
    (s, g): (Point, Point),
    cells: &mut Vec<Point>,
) -> Result<PlanStats, PlanError> {
    let mut q = planner.start(h, grid, s, g)?;
    cells.clear();
    while planner.next_leg(&mut q, h, grid, cells)? {}
    let mut st = q.stats();
    st.cost = weighted_path_cost(view, cells);
    Ok(st)
}

pub fn run(args: Vec<String>) {
    let mut files = Vec::new();
    let (mut queries, mut seed, mut window, mut sector) = (200usize, 7u64, 60u32, 16u32);
    let (mut join, mut reach, mut show_worst) = (None, None, 0usize);
    let mut lazy = false;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--queries" => queries = it.next().and_then(|v| v.parse().ok()).unwrap_or(queries),
            "--seed" => seed = it.next().and_then(|v| v.parse().ok()).unwrap_or(seed),
            "--window" => window = it.next().and_then(|v| v.parse().ok()).unwrap_or(window),
            "--sector" => sector = it.next().and_then(|v| v.parse().ok()).unwrap_or(sector),
            "--join" => join = it.next().and_then(|v| v.parse().ok()),
            "--reach" => reach = it.next().and_then(|v| v.parse().ok()),
            "--worst" => show_worst = it.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--lazy" => lazy = true,
            _ => files.push(a),
        }
    }
    let Some(map) = files.first() else {
        eprintln!("usage: profiles MAP.map PROFILE.toml... [--queries N] [--seed S] [--window W] [--sector S] [--join J] [--reach R] [--worst N] [--lazy]");
        std::process::exit(2);
    };
    let grid = read_map(map).unwrap_or_else(|e| panic!("{map}: {e}"));
    println!(
        "map,profile,size,build_ms,bytes_per_cell,queries,invalid,wrong_reach,mean_subopt,p95_subopt,worst_subopt,exact_us,hier_us,speedup,abstract_expanded,leg_expanded,legs,exact_expanded"
    );
    for file in &files[1..] {
        let profile = Profile::read(file).unwrap_or_else(|e| panic!("{e}"));
        let view = ProfileGrid::new(&grid, &profile);
        let t = Instant::now();
        let h = Hierarchy::build_with_profile(
            &grid,
            &profile,
            &HierarchyConfig::new().sector_size(sector),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let build_ms = t.elapsed().as_secs_f64() * 1e3;
        let bytes = h.stats().bytes;
        let open: Vec<Point> = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
            .filter(|&p| view.is_usable(p))
            .collect();
        let mut rng = Rng(seed | 1);
        let mut astar = AStar::new();
        let mut config = regionpath_hierarchy::PlannerConfig::new().window(window);
        if let Some(j) = join {
            config = config.join_radius(j).weighted_join_radius(j);
        }
        if let Some(r) = reach {
            config = config.reach(r);
        }
        let mut planner = CellPlanner::with_config(config).unwrap_or_else(|e| panic!("{e}"));
        let (mut exact_path, mut cells) = (Vec::new(), Vec::new());
        let (mut ratios, mut exact_t, mut hier_t) = (Vec::new(), 0.0f64, 0.0f64);
        let (mut invalid, mut wrong) = (0, 0);
        let (mut abs_x, mut leg_x, mut legs, mut exact_x) = (0u64, 0u64, 0u64, 0u64);
        let mut tries = 0;
        let mut rows = Vec::new();
        while ratios.len() < queries && tries < queries * 20 && !open.is_empty() {
            tries += 1;
            let s = open[rng.below(open.len() as u64) as usize];
            let g = open[rng.below(open.len() as u64) as usize];
            let t = Instant::now();
            let e = astar.find_path_weighted_into(&view, s, g, &mut exact_path);
            let te = t.elapsed().as_secs_f64();
            let t = Instant::now();
            let got = if lazy {
                lazy_walk(&mut planner, (&h, &grid, &view), (s, g), &mut cells)
            } else {
                planner.find_path_into(&h, &grid, s, g, &mut cells)
            };
            let th = t.elapsed().as_secs_f64();
            match (e.as_ref().map(|x| x.status), got) {
                (Ok(Status::Found), Ok(st)) => {
                    let opt = weighted_path_cost(&view, &exact_path);
                    if !legal(&view, &cells, s, g)
                        || (weighted_path_cost(&view, &cells) - st.cost).abs() > 1e-6 * st.cost
                    {
                        invalid += 1;
                    }
                    abs_x += st.abstract_expanded as u64;
                    exact_x += e.as_ref().map_or(0, |x| x.expanded as u64);
                    leg_x += st.expanded as u64;
                    legs += st.legs as u64;
                    if opt > 0.0 {
                        ratios.push(st.cost / opt - 1.0);
                        let planned: Vec<RegionId> = planner.route().collect();
                        rows.push((
                            st.cost / opt - 1.0,
                            s,
                            g,
                            opt,
                            st.cost,
                            planned,
                            exact_path.clone(),
                        ));
                        exact_t += te;
                        hier_t += th;
                    }
                }
                (Ok(Status::NoPath), Err(_)) => {}
                _ => wrong += 1,
            }
        }
        ratios.sort_by(f64::total_cmp);
        rows.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut links = std::collections::HashMap::new();
        if show_worst > 0 {
            h.for_each_edge(|a, b, l| {
                links.insert((a, b), l.cost());
                links.insert((b, a), l.cost());
            });
        }
        // The abstract cost (links through representatives) of a region
        // sequence, `NaN` when two successive regions are not linked.
        let route_cost = |route: &[RegionId]| -> f32 {
            route
                .windows(2)
                .map(|w| links.get(&(w[0], w[1])).copied().unwrap_or(f32::NAN))
                .sum()
        };
        for (r, s, g, opt, got, planned, exact) in rows.iter().take(show_worst) {
            let mut along: Vec<RegionId> = Vec::new();
            for &p in exact {
                if let Some(id) = h.region_of(&grid, p) {
                    if along.last() != Some(&id) {
                        along.push(id);
                    }
                }
            }
            eprintln!(
                "worst {:.2} % {} {} {} {}  optimal {opt:.2}  planned {got:.2}  \
                 route {} regions {:.2}, optimal's regions {} {:.2}",
                r * 100.0,
                s.x,
                s.y,
                g.x,
                g.y,
                planned.len(),
                route_cost(planned),
                along.len(),
                route_cost(&along)
            );
            if std::env::var_os("PROFILES_DEBUG").is_some() {
                for w in along.windows(2) {
                    let (a, b) = (w[0], w[1]);
                    let ra = h.regions()[a.index()].representative();
                    let rb = h.regions()[b.index()].representative();
                    // The optimal path's cost from its first cell in a to its first cell in b.
                    let i = exact
                        .iter()
                        .position(|&p| h.region_of(&grid, p) == Some(a))
                        .unwrap();
                    let j = exact
                        .iter()
                        .position(|&p| h.region_of(&grid, p) == Some(b))
                        .unwrap();
                    let seg = if j > i {
                        weighted_path_cost(&view, &exact[i..=j])
                    } else {
                        f64::NAN
                    };
                    eprintln!(
                        "  {:?} rep {},{} -> {:?} rep {},{}: link {:.2}, optimal path from entry to entry {seg:.2} ({},{} -> {},{})",
                        a, ra.x, ra.y, b, rb.x, rb.y,
                        links.get(&(a, b)).copied().unwrap_or(f32::NAN),
                        exact[i].x, exact[i].y, exact[j].x, exact[j].y
                    );
                }
            }
        }
        let n = ratios.len().max(1);
        let mean = ratios.iter().sum::<f64>() / n as f64;
        let p95 = ratios.get(n * 95 / 100).copied().unwrap_or(0.0);
        let worst = ratios.last().copied().unwrap_or(0.0);
        println!(
            "{map},{},{},{build_ms:.1},{:.3},{},{invalid},{wrong},{:.4},{:.4},{:.4},{:.1},{:.1},{:.1},{},{},{:.1},{}",
            profile.name(),
            profile.size(),
            bytes as f64 / grid.cell_count() as f64,
            ratios.len(),
            mean * 100.0,
            p95 * 100.0,
            worst * 100.0,
            exact_t / n as f64 * 1e6,
            hier_t / n as f64 * 1e6,
            exact_t / hier_t.max(1e-12),
            abs_x / n as u64,
            leg_x / n as u64,
            legs as f64 / n as f64,
            exact_x / n as u64
        );
    }
}
