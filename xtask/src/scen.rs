//! Shared by the `probe` and `quick` subcommands: loading a scenario with its map,
//! and the planner settings they take from the command line.

use regionpath_grid::{read_map, read_scen, Grid, Scenario};
use regionpath_hierarchy::PlannerConfig;

/// A Moving AI scenario file and its map, read from the `../maps/` folder
/// beside the scenario's folder (the layout of `../shared/movingai`).
pub fn load(file: &str) -> (Scenario, Grid) {
    let scen = read_scen(file).expect("scenario file");
    let first = scen.rows.first().expect("a scenario row");
    let dir = std::path::Path::new(file)
        .parent()
        .expect("the scenario's folder")
        .join("../maps");
    let grid = read_map(dir.join(first.map_file_name())).expect("map");
    (scen, grid)
}

/// Applies `args[*i]` to `pc` when it is a planner setting (`--join R`,
/// `--reach R`, `--window W`, `--no-second`, `--no-recheck`), moving `*i`
/// past its value; returns whether it was one.
pub fn planner_flag(args: &[String], i: &mut usize, pc: &mut PlannerConfig) -> bool {
    let flag = args[*i].as_str();
    let mut value = || {
        *i += 1;
        args.get(*i)
            .and_then(|v| v.parse::<u32>().ok())
            .expect("a number after the flag")
    };
    match flag {
        "--join" => *pc = pc.join_radius(value()),
        "--reach" => *pc = pc.reach(value()),
        "--window" => *pc = pc.window(value()),
        "--no-second" => *pc = pc.second_route(false),
        "--no-straight" => *pc = pc.straight(false),
        "--no-levels" => *pc = pc.levels_from(u32::MAX),
        "--levels-from" => *pc = pc.levels_from(value()),
        "--no-recheck" => *pc = pc.recheck(0.0),
        "--no-quick" => *pc = pc.quick_start(false),
        _ => return false,
    }
    true
}
