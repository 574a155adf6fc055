//! Reading the command's input files, naming the file once in every error.

use crate::error::CliError;
use regionpath::grid::{parse_map_bytes, parse_scen, Grid, Scenario};
use std::path::Path;

/// Reads and parses a `.map` file (the common layout in one pass, see
/// [`parse_map_bytes`]).
pub fn load_map(path: &Path) -> Result<Grid, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::MapIo {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    parse_map_bytes(&bytes).map_err(|e| CliError::from_map(path.into(), e))
}

/// Reads and parses a `.scen` file.
pub fn load_scen(path: &Path) -> Result<Scenario, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::ScenIo {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    parse_scen(&String::from_utf8_lossy(&bytes)).map_err(|e| CliError::from_scen(path.into(), e))
}

/// Reads a whole file (hierarchy files).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|source| CliError::Read {
        path: path.to_path_buf(),
        source,
    })
}
