//! `regionpath`: the command-line front end.
//!
//! * `regionpath scen FILE.scen...` runs Moving AI scenario files through the
//!   planners, checks every path independently of the planner and reports
//!   correctness, suboptimality and query times (text, `--json`, `--csv`).
//! * `regionpath build MAP.map -o MAP.rph` preprocesses a map into a
//!   versioned hierarchy file and prints its stats.
//! * `regionpath path MAP.map --from X,Y --to X,Y` plans one path (with a
//!   hierarchy file or one built in memory), optionally smoothed.
//! * `regionpath generate` writes the project's own seeded maps (rooms or
//!   caves) and, optionally, a scenario file whose optimal lengths come from
//!   a plain Dijkstra.
//!
//! Exit codes: 0 success; 1 the scenario run found an invalid or wrong path;
//! 2 bad input (missing or malformed files, bad arguments, an unavailable
//! planner).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod algo;
mod args;
mod build;
mod dijkstra;
mod error;
mod generate;
mod report;
mod rng;
mod scen;
mod validate;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let result = match cli.command {
        args::Command::Scen(a) => scen::run(&a),
        args::Command::Generate(a) => generate::run(&a).map(|()| scen::Outcome::Clean),
        args::Command::Build(a) => build::build(&a).map(|()| scen::Outcome::Clean),
        args::Command::Path(a) => build::path(&a),
    };
    match result {
        Ok(scen::Outcome::Clean) => ExitCode::SUCCESS,
        Ok(scen::Outcome::Failures) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
