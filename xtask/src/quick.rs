//! Quick quality/speed check on Moving AI scenario files (development aid).
//! `cargo run --release -p xtask -- quick FILE.scen... [--every N] [--sector S]`
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig};
use regionpath_search::AStar;
use regionpath_testkit::check::cell_path_length;
use std::time::Instant;

use crate::scen as common;

/// Runs the subcommand with its arguments (after the subcommand's name).
pub fn run(args: Vec<String>) {
    let mut every = 1usize;
    let mut sector = 16u32;
    let mut pc = regionpath_hierarchy::PlannerConfig::default();
    let mut files = Vec::new();
    let mut no_astar = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--every" => {
                every = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--no-astar" => no_astar = true,
            "--sector" => {
                sector = args[i + 1].parse().expect("number");
                i += 1;
            }
            _ if common::planner_flag(&args, &mut i, &mut pc) => {}
            f => files.push(f.to_string()),
        }
        i += 1;
    }
    let (mut ta, mut th, mut n) = (0f64, 0f64, 0usize);
    let mut subs_exp = 0u64;
    let (mut t_abs, mut t_legs) = (0f64, 0f64);
    let mut firsts: Vec<f64> = Vec::new();
    let mut subs = Vec::new();
    let mut lazy_subs = Vec::new();
    for f in &files {
        let (scen, grid) = common::load(f);
        let t0 = Instant::now();
        let h = Hierarchy::build(
            &grid,
            &HierarchyConfig::new()
                .sector_size(sector)
                .parallel(false)
                .fit_memory(std::env::var_os("RP_FIT").is_some()),
        )
        .expect("build");
        let bt = t0.elapsed().as_secs_f64() * 1e3;
        let st = h.stats();
        let mut astar = AStar::new();
        let mut planner = CellPlanner::with_config(pc).expect("valid settings");
        let mut out = Vec::new();
        let (mut fa, mut fh, mut fn_) = (0f64, 0f64, 0usize);
        let (mut ea, mut eh, mut eab, mut legs, mut fb) = (0u64, 0u64, 0u64, 0u64, 0u64);
        let mut fsub = Vec::new();
        for row in scen.rows.iter().step_by(every) {
            let mut a = regionpath_search::SearchStats {
                status: regionpath_search::Status::Found,
                cost: 0.0,
                expanded: 0,
            };
            if !no_astar {
                let t = Instant::now();
                a = astar
                    .find_path_into(&grid, row.start, row.goal, &mut out)
                    .expect("astar");
                fa += t.elapsed().as_secs_f64();
                assert!(
                    scen.matches(row, a.cost),
                    "astar wrong {:?} {}",
                    row,
                    a.cost
                );
            }
            let t = Instant::now();
            let r = planner.find_path_into(&h, &grid, row.start, row.goal, &mut out);
            fh += t.elapsed().as_secs_f64();
            let r = r.unwrap_or_else(|e| panic!("{f} line {}: {e}", row.line));
            ea += a.expanded as u64;
            eh += r.expanded as u64;
            fb += r.fallbacks as u64;
            eab += r.abstract_expanded as u64;
            legs += r.legs as u64;
            let t = Instant::now();
            let t_first_start = t;
            let mut q = planner
                .start(&h, &grid, row.start, row.goal)
                .expect("start");
            t_abs += t.elapsed().as_secs_f64();
            let t = Instant::now();
            out.clear();
            let mut first = true;
            while planner.next_leg(&mut q, &h, &grid, &mut out).expect("leg") {
                if first {
                    firsts.push(t_first_start.elapsed().as_secs_f64());
                    first = false;
                }
            }
            if first {
                firsts.push(t_first_start.elapsed().as_secs_f64());
            }
            t_legs += t.elapsed().as_secs_f64();
            let sub = if row.optimal > 0.0 {
                r.cost / row.optimal - 1.0
            } else {
                0.0
            };
            fsub.push(sub);
            // The lazy walk's cells, leg after leg, are the whole path.
            lazy_subs.push(if row.optimal > 0.0 {
                cell_path_length(&out) / row.optimal - 1.0
            } else {
                0.0
            });
            fn_ += 1;
        }
        let lazy = &lazy_subs[lazy_subs.len() - fn_..];
        let worst = lazy
            .iter()
            .copied()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1));
        println!(
            "  lazy walks subopt mean {:.2}% max {:.1}% (scenario line {})",
            lazy.iter().sum::<f64>() / fn_ as f64 * 100.0,
            worst.map_or(0.0, |w| w.1 * 100.0),
            worst.map_or(0, |w| scen
                .rows
                .iter()
                .step_by(every)
                .nth(w.0)
                .map_or(0, |r| r.line))
        );
        let mut ff: Vec<f64> = firsts[firsts.len() - fn_..].to_vec();
        ff.sort_by(f64::total_cmp);
        println!("  first leg median {:.1}us", ff[ff.len() / 2] * 1e6);
        let mean = fsub.iter().sum::<f64>() / fn_ as f64;
        let mut s2 = fsub.clone();
        s2.sort_by(f64::total_cmp);
        println!(
            "{:28} {:5} rows  astar {:8.1}us  hier {:7.1}us  x{:5.1}  subopt mean {:5.2}% p95 {:5.2}% max {:5.1}%  build {:6.1}ms regions {} edges {} clusters {} B/cell {:.3} | exp A* {} hier {} abs {} legs {:.1} fallbacks {}",
            std::path::Path::new(f).file_name().unwrap().to_string_lossy(), fn_, fa / fn_ as f64 * 1e6, fh / fn_ as f64 * 1e6, fa / fh,
            mean * 100.0, s2[(s2.len() * 95 / 100).min(s2.len() - 1)] * 100.0, s2.last().unwrap() * 100.0, bt, st.regions, st.edges, st.clusters,
            st.bytes as f64 / st.cells as f64, ea / fn_ as u64, eh / fn_ as u64, eab / fn_ as u64, legs as f64 / fn_ as f64, fb
        );
        subs_exp += eh;
        ta += fa;
        th += fh;
        n += fn_;
        subs.extend(fsub);
    }
    let mean = subs.iter().sum::<f64>() / n as f64;
    subs.sort_by(f64::total_cmp);
    println!(
        "TOTAL abstract {:.1}us legs {:.1}us per query",
        t_abs / n as f64 * 1e6,
        t_legs / n as f64 * 1e6
    );
    firsts.sort_by(f64::total_cmp);
    if !firsts.is_empty() {
        println!(
            "TOTAL first leg median {:.1}us p95 {:.1}us",
            firsts[firsts.len() / 2] * 1e6,
            firsts[firsts.len() * 95 / 100] * 1e6
        );
    }
    println!("TOTAL expanded/query {:.0}", subs_exp as f64 / n as f64);
    let lazy_mean = lazy_subs.iter().sum::<f64>() / n as f64;
    lazy_subs.sort_by(f64::total_cmp);
    println!(
        "TOTAL lazy walks: subopt mean {:.2}% p95 {:.2}% max {:.1}%, {} rows over 10 %, {} over 25 %",
        lazy_mean * 100.0,
        lazy_subs[lazy_subs.len() * 95 / 100] * 100.0,
        lazy_subs.last().unwrap() * 100.0,
        lazy_subs.iter().filter(|&&x| x > 0.10).count(),
        lazy_subs.iter().filter(|&&x| x > 0.25).count()
    );
    println!("TOTAL {n} rows astar {:.1}us hier {:.1}us ratio {:.1}  subopt mean {:.2}% p95 {:.2}% max {:.1}%", ta / n as f64 * 1e6, th / n as f64 * 1e6, ta / th, mean * 100.0, subs[subs.len() * 95 / 100] * 100.0, subs.last().unwrap() * 100.0);
}
