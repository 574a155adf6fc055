//! Shared helpers for the regionpath integration tests.
//!
//! * Where the Moving AI benchmark data lives ([`movingai_dir`]) and what a
//!   test does when it is missing ([`movingai_or_skip`]: skip with a clear
//!   message, or fail when the `CI` environment variable is set).
//! * The oracles of `regionpath-testkit`, re-exported under the names the
//!   tests use: a plain Dijkstra ([`dijkstra`]) and a path validator
//!   ([`check_walk`], [`check_route`]).
//! * [`fuzz`]: the per-input checks of the fuzz targets, replayed by
//!   `tests/fuzz_corpus.rs`.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod fuzz;

use regionpath::grid::Grid;
use std::path::{Path, PathBuf};

pub use regionpath_testkit::oracle::distance as dijkstra;
pub use regionpath_testkit::{check_route, check_walk, Area, Moves, Walk};

/// The workspace root (the folder holding the root `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// The Moving AI data folder: `$REGIONPATH_MOVINGAI` if set, else
/// `<workspace root>/../shared/movingai`.
pub fn movingai_dir() -> PathBuf {
    match std::env::var_os("REGIONPATH_MOVINGAI") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("..").join("shared").join("movingai"),
    }
}

/// Whether the `CI` environment variable is set (to anything non-empty).
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// The Moving AI folder if it has `maps/` and `scen/`. Otherwise prints
/// "`test`: skipped: Moving AI data not found at …" and returns `None`, or,
/// when `CI` is set, panics: in CI missing data is a failure.
pub fn movingai_or_skip(test: &str) -> Option<PathBuf> {
    let dir = movingai_dir();
    if dir.join("maps").is_dir() && dir.join("scen").is_dir() {
        return Some(dir);
    }
    let message = format!(
        "Moving AI data not found at {} (set REGIONPATH_MOVINGAI to its folder)",
        dir.display()
    );
    if in_ci() {
        panic!("{test}: {message}; CI is set, so this is a failure");
    }
    // Straight to stderr, past the test harness's output capture, so the
    // skip shows in a passing run.
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{test}: skipped: {message}");
    None
}

/// The files in `dir` whose names end with `suffix`, sorted by name.
pub fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.is_file()
                        && p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.ends_with(suffix))
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A grid from row-major passability flags (`true` = passable).
pub fn grid_from_flags(width: u32, height: u32, passable: &[bool]) -> Grid {
    let rows: Vec<String> = passable
        .chunks(width as usize)
        .take(height as usize)
        .map(|r| r.iter().map(|&p| if p { '.' } else { '@' }).collect())
        .collect();
    Grid::from_rows(&rows).expect("flags make a valid map")
}

#[cfg(test)]
mod tests {
    use super::*;
    use regionpath::grid::Point;

    #[test]
    fn flags_to_grid() {
        let g = grid_from_flags(3, 2, &[true, false, true, false, true, true]);
        assert_eq!((g.width(), g.height(), g.passable_count()), (3, 2, 4));
        assert!(!g.is_passable(Point::new(1, 0)) && g.is_passable(Point::new(2, 1)));
    }
}
