//! Per-file planner counters on Moving AI scenario files (development aid):
//! `cargo run --release -p xtask -- probe FILE.scen... [--every N] [--join R] [--no-second] [--no-recheck]`
use regionpath_hierarchy::{CellPlanner, Hierarchy, HierarchyConfig, PlannerConfig};

use crate::scen as common;

/// Runs the subcommand with its arguments (after the subcommand's name).
pub fn run(args: Vec<String>) {
    let mut every = 1usize;
    let mut pc = PlannerConfig::default();
    let mut files = Vec::new();
    let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--every" => {
                every = args[i + 1].parse().expect("number");
                i += 1;
            }
            "--len" => {
                lo = args[i + 1].parse().expect("number");
                hi = args[i + 2].parse().expect("number");
                i += 2;
            }
            _ if common::planner_flag(&args, &mut i, &mut pc) => {}
            f => files.push(f.to_string()),
        }
        i += 1;
    }
    for f in &files {
        let (scen, grid) = common::load(f);
        let h = Hierarchy::build(&grid, &HierarchyConfig::default()).expect("build");
        let mut planner = CellPlanner::with_config(pc).expect("valid settings");
        let mut out = Vec::new();
        let mut c = [0u64; 16];
        let mut subs = Vec::new();
        for row in scen
            .rows
            .iter()
            .filter(|r| r.optimal >= lo && r.optimal <= hi)
            .step_by(every)
        {
            let Ok(r) = query(&mut planner, &h, &grid, row.start, row.goal, &mut out) else {
                continue;
            };
            c[0] += 1;
            c[1] += r.straight as u64;
            c[2] += (r.route_len > 0) as u64;
            c[3] += r.legs as u64;
            c[6] += r.expanded as u64;
            c[8] += r.rechecked as u64;
            c[9] += r.recheck_improved as u64;
            c[10] += r.second_route as u64;
            c[11] += r.second_improved as u64;
            c[12] += r.abstract_expanded as u64;
            subs.push(if row.optimal > 0.0 {
                r.cost / row.optimal - 1.0
            } else {
                0.0
            });
        }
        let n = subs.len() as f64;
        let mean = subs.iter().sum::<f64>() / n;
        let max = subs.iter().cloned().fold(0.0, f64::max);
        println!(
            "{:30} rows {} straight {} routed {} legs {} exp {} recheck {}/{} second {}/{} absexp {} | subopt mean {:.3}% max {:.2}%",
            std::path::Path::new(f).file_name().unwrap().to_string_lossy(),
            c[0], c[1], c[2], c[3], c[6], c[9], c[8], c[11], c[10], c[12],
            mean * 100.0, max * 100.0
        );
    }
}

/// One query (not inlined, so callgrind can count it alone:
/// `--toggle-collect='*probe::query*'`).
#[inline(never)]
fn query(
    planner: &mut CellPlanner,
    h: &Hierarchy,
    grid: &regionpath_grid::Grid,
    start: regionpath_grid::Point,
    goal: regionpath_grid::Point,
    out: &mut Vec<regionpath_grid::Point>,
) -> Result<regionpath_hierarchy::PlanStats, regionpath_hierarchy::PlanError> {
    planner.find_path_into(h, grid, start, goal, out)
}
