//! Development aids for regionpath (not part of the library): measurement
//! runs over Moving AI scenario files. `cargo run --release -p xtask --
//! SUBCOMMAND [ARGS...]`; the subcommands are listed in `xtask/README.md`.

mod astar;
mod group;
mod large;
mod probe;
mod profiles;
mod quality;
mod quick;
mod sample;
mod scen;
mod steps;
mod updates;

const USAGE: &str = "usage: cargo run --release -p xtask -- SUBCOMMAND [ARGS...]
subcommands:
  group    group paths beside independent queries (time and length ratios)
  large    random long queries on a big map: hierarchy beside exact JPS, first legs
  partial  partial paths to unreachable goals: time of the nearest-cell lookup
  probe    per-file hierarchical planner counters on scenario files
  profiles hierarchical planning under movement profiles beside exact weighted A*
  quick    hierarchical planner quality and speed beside A* on scenario files
  quality  smoothing quality and speed on Moving AI maps
  sample   a fixed sample of smoothing calls, for profilers and version comparisons
  steps    frame-budgeted (sliced) queries: worst step time per budget
  updates  incremental update times for one-cell and 16 x 16 edits";

fn main() {
    let mut args = std::env::args().skip(1);
    let command = args.next().unwrap_or_default();
    let rest: Vec<String> = args.collect();
    match command.as_str() {
        "group" => group::run(rest),
        "large" => large::run(rest),
        "partial" => group::run_partial(rest),
        "probe" => probe::run(rest),
        "profiles" => profiles::run(rest),
        "quick" => quick::run(rest),
        "quality" => quality::run(rest),
        "sample" => sample::run(rest),
        "steps" => steps::run(rest),
        "updates" => updates::run(rest),
        "" | "help" | "-h" | "--help" => println!("{USAGE}"),
        other => {
            eprintln!("xtask: unknown subcommand `{other}`\n{USAGE}");
            std::process::exit(2);
        }
    }
}
