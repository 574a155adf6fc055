//! Movement profiles on the command line: `--profile FILE.toml` on
//! `build`, `path`, `scen` and `generate`.
//!
//! A profile (`regionpath::grid::Profile`) prices terrain characters and
//! gives the unit's size `k`; positions, usability and step costs follow
//! the rules in [`crate::validate::position_cost`]. The exact A* and the
//! hierarchical planner run under any profile; hierarchy files do not
//! record one yet ([`profile_files_unsupported`]).

use crate::error::CliError;
use regionpath::grid::Profile;
use std::path::Path;

/// Reads and validates the profile file at `path`. Its errors name the
/// file, line, column and field (exit code 2).
pub fn load(path: &Path) -> Result<Profile, CliError> {
    Profile::read(path).map_err(|source| CliError::Profile {
        path: path.to_path_buf(),
        source,
    })
}

/// The error of a hierarchy file used with a profile (`build --profile
/// -o`, `path --profile --hierarchy`): `.rph` files do not record a
/// movement profile, so the hierarchy is built in place. `command` names
/// the subcommand, `path` the profile file.
pub fn profile_files_unsupported(command: &str, profile: &Profile, path: &Path) -> CliError {
    CliError::Unsupported(format!(
        "`{command} --profile {}` (profile `{}`): hierarchy files do not record a movement \
         profile yet; build the hierarchy in place (without -o or --hierarchy)",
        path.display(),
        profile.name()
    ))
}
