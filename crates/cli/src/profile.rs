//! Movement profiles on the command line: `--profile FILE.toml` on
//! `build`, `path`, `scen` and `generate`.
//!
//! A profile (`regionpath::grid::Profile`) prices terrain characters and
//! gives the unit's size `k`; positions, usability and step costs follow
//! the rules in [`crate::validate::position_cost`]. The exact A* and the
//! hierarchical planner run under any profile; `build --profile -o` writes
//! a hierarchy file that records the profile, and `path --profile
//! --hierarchy` loads it only for that profile.

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
