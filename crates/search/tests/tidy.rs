//! Architecture test: the top-level modules of `src/` depend on each other
//! one way only, in the layer order below (checked by
//! `regionpath_testkit::tidy`).
//!
//! Reads every `.rs` file under `src/`, drops comments (doc links may point
//! anywhere), and collects each `crate::X`, `crate::{X, ..}` and `super::`
//! path. A path is charged to the top-level module that holds the file, and
//! points at the top-level module it names: `super::` is resolved from the
//! file's place in the tree and the inline modules (`mod tests { .. }`)
//! around it, and a name re-exported at the crate root (`crate::Found`)
//! counts as the module it is re-exported from.

use std::path::Path;

const LAYERS: &[&[&str]] = &[
    // Leaves: fixed-point costs, rectangles, test-only helpers.
    &["cost", "window", "testing"],
    // Result and error types; direction tables.
    &["types", "moves"],
    // Priority queues.
    &["queue"],
    // A* (the generic engine, the full-grid fast path, the windowed one).
    &["astar"],
    // Jump point search (its tests use A* as the oracle).
    &["jps"],
];

#[test]
fn modules_depend_one_way_in_layer_order() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = regionpath_testkit::tidy::layer_violations(&src, LAYERS);
    assert!(
        problems.is_empty(),
        "module dependencies break the layering:\n  {}",
        problems.join("\n  ")
    );
}
