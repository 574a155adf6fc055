//! Movement profiles on the command line: `--profile FILE.toml` on
//! `build`, `path`, `scen` and `generate`.
//!
//! A profile (`regionpath::grid::Profile`) prices terrain characters and
//! gives the unit's size `k`; positions, usability and step costs follow
//! the rules in [`crate::validate::position_cost`]. The exact A* runs under
//! any profile; the hierarchical planner does not take one yet, and every
//! place that would need it calls [`hierarchical_profile_unsupported`].

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

/// The one error every hierarchical use of a profile returns (`build
/// --profile`, `path --profile` without `--algo astar`, `scen --profile`
/// with a hierarchical planner): the hierarchy is built for the default
/// rules only. `command` names the subcommand, `path` the profile file.
/// Replace this function's callers when the hierarchy takes profiles.
pub fn hierarchical_profile_unsupported(command: &str, profile: &Profile, path: &Path) -> CliError {
    CliError::Unsupported(format!(
        "`{command} --profile {}` (profile `{}`): the hierarchy does not take movement \
         profiles yet; the exact A* does (`path` and `scen` with `--algo astar`)",
        path.display(),
        profile.name()
    ))
}
