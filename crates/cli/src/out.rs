//! The one way the command writes: [`Out`] for standard output (every
//! write fallible, so a closed pipe or a full disk becomes
//! [`CliError::Stdout`] instead of a panic) and [`note`] for messages on
//! standard error (best effort: a failing stderr is ignored).

use crate::error::CliError;
use std::fmt::Display;
use std::io::{self, Write};

/// Buffered, fallible standard output, or best-effort standard error.
pub struct Out {
    w: Box<dyn Write>,
    /// Whether write errors are reported (stdout) or ignored (stderr).
    fallible: bool,
}

impl Out {
    /// Standard output: every write error is reported.
    pub fn stdout() -> Out {
        Out {
            w: Box::new(io::BufWriter::new(io::stdout())),
            fallible: true,
        }
    }

    /// Standard error, best effort (for human-readable text that `--json`
    /// moves off stdout).
    pub fn stderr() -> Out {
        Out {
            w: Box::new(io::stderr()),
            fallible: false,
        }
    }

    fn check(&self, r: io::Result<()>) -> Result<(), CliError> {
        match r {
            Err(e) if self.fallible => Err(CliError::Stdout(e)),
            _ => Ok(()),
        }
    }

    /// Writes `s` and a newline.
    pub fn line(&mut self, s: impl Display) -> Result<(), CliError> {
        let r = writeln!(self.w, "{s}");
        self.check(r)
    }

    /// Flushes what is buffered; a write error deferred by the buffer
    /// shows here.
    pub fn flush(&mut self) -> Result<(), CliError> {
        let r = self.w.flush();
        self.check(r)
    }
}

/// A message on standard error; never fails (there is nowhere left to
/// report a failing stderr).
pub fn note(s: impl Display) {
    let mut e = io::stderr().lock();
    let _ = writeln!(e, "{s}");
}
