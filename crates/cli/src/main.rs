//! `regionpath`: the command-line front end.
//!
//! * `regionpath scen FILE.scen...` runs Moving AI scenario files through the
//!   planners, checks every path independently of the planner and reports
//!   correctness, suboptimality and query times (text, `--json`, `--csv`).
//! * `regionpath build MAP.map [-o MAP.rph]` preprocesses a map, prints its
//!   stats and optionally writes a versioned hierarchy file.
//! * `regionpath path MAP.map --from X,Y --to X,Y` plans one path (with a
//!   hierarchy file or one built in memory), optionally smoothed.
//! * `regionpath inspect FILE.rph [--map MAP.map]` describes a hierarchy
//!   file and checks it.
//! * `regionpath render MAP.map -o OUT.png` draws the map, its sectors,
//!   regions, routes and paths.
//! * `regionpath generate` writes the project's own seeded maps (rooms or
//!   caves, up to 32,768², streamed) or mirror-tiles a map, and,
//!   optionally, a scenario file whose optimal lengths come from windowed
//!   jump point search with an optimality bound, and with `--trace N` a
//!   game trace for it.
//! * `regionpath replay MAP.map --trace FILE` replays a game trace (map
//!   edits, queries, lazy walks, groups) through the incremental update and
//!   checks every answer against an exact search on the map of the moment.
//! * `regionpath trace MAP.map --edits N --seed S -o FILE` writes a seeded
//!   game trace for an existing map.
//!
//! Exit codes and the `--json` error form: see [`error`]. Everything
//! written to stdout goes through [`out::Out`], so a closed or full stdout
//! is an error, never a panic.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod algo;
mod args;
mod build;
mod dijkstra;
mod error;
mod font;
mod generate;
mod input;
mod inspect;
mod out;
mod path;
mod profile;
mod progress;
mod render;
mod replay;
mod report;
mod rng;
mod scen;
mod terrain;
mod trace;
mod validate;

use clap::Parser;
use error::{CliError, Outcome, BAD_INPUT, CLOSED_PIPE};
use out::{note, Out};
use std::process::ExitCode;

fn run(command: &args::Command, out: &mut Out) -> Result<Outcome, CliError> {
    match command {
        args::Command::Scen(a) => scen::run(a, out),
        args::Command::Generate(a) => generate::run(a, out),
        args::Command::Build(a) => build::run(a, out),
        args::Command::Path(a) => path::run(a, out),
        args::Command::Inspect(a) => inspect::run(a, out),
        args::Command::Render(a) => render::run(a, out),
        args::Command::Replay(a) => replay::run(a, out),
        args::Command::Trace(a) => generate::run_trace(a, out),
    }
}

/// Reports an argument error: as JSON on stdout when `--json` is among the
/// arguments, else clap's own message (help and version exit 0).
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let mut out = Out::stdout();
        let text = e.render().to_string();
        return match out.line(text.trim_end()).and_then(|()| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => fail(&err, false),
        };
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return ExitCode::from(BAD_INPUT);
    }
    if std::env::args().skip(1).any(|a| a == "--json") {
        let err = CliError::Usage(
            e.render()
                .to_string()
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string(),
        );
        return fail(&err, true);
    }
    let _ = e.print();
    ExitCode::from(BAD_INPUT)
}

/// Reports `err` (JSON on stdout under `--json`, else a line on stderr) and
/// returns its exit code.
fn fail(err: &CliError, json: bool) -> ExitCode {
    let code = err.exit_code();
    if code == CLOSED_PIPE {
        return ExitCode::from(code);
    }
    let printed = json && !matches!(err, CliError::Stdout(_)) && {
        let mut out = Out::stdout();
        out.line(err.to_json()).and_then(|()| out.flush()).is_ok()
    };
    if !printed {
        note(format_args!("error: {err}"));
    }
    ExitCode::from(code)
}

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return usage_error(e),
    };
    let json = cli.command.json();
    let mut out = Out::stdout();
    let result = run(&cli.command, &mut out).and_then(|o| out.flush().map(|()| o));
    match result {
        Ok(o) => ExitCode::from(o.code()),
        Err(e) => {
            // What was buffered for stdout is dropped with `out`; under
            // --json the error is then the one object printed.
            drop(out);
            fail(&e, json)
        }
    }
}
