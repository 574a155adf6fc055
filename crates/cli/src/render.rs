//! `regionpath render`.
use crate::args::RenderArgs;
use crate::error::{CliError, Outcome};
use crate::out::Out;

/// Runs `regionpath render`.
pub fn run(_args: &RenderArgs, _out: &mut Out) -> Result<Outcome, CliError> {
    Err(CliError::Usage("render: not yet".into()))
}
