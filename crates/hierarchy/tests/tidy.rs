//! Architecture test: the hierarchy's top-level modules depend on each
//! other one way only, in the layer order below (checked by
//! `regionpath_testkit::tidy`). In particular the query code reads the
//! model and never the code that builds, updates or stores it.

use std::path::Path;

/// Top-level modules from the bottom up; a module may use lower layers
/// only.
const LAYERS: &[&[&str]] = &[
    // Test-only generators; work split across threads (rayon or serial).
    &["testing", "par"],
    // Sector geometry and labelling.
    &["sector"],
    // The region graph's data: Region, Link, Run, RegionId.
    &["graph"],
    // Built from the graph alone; the exact portal layer.
    &["derived", "portal"],
    // Build settings; the movement profile a hierarchy serves.
    &["config", "profile"],
    // Hierarchy and its read-only accessors.
    &["model"],
    // Writers of the model, and its one reader.
    &["build", "query"],
    &["update", "persist"],
    // Unit tests of whole built hierarchies (test-only).
    &["checks"],
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

/// The rule the layers exist for, stated on its own: no file of `query/`
/// names `build`, `update` or `persist`.
#[test]
fn query_never_imports_the_build() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let layers: &[&[&str]] = &[
        &[
            "sector", "testing", "graph", "derived", "portal", "config", "model",
        ],
        &["query"],
        &["build", "update", "persist"],
    ];
    let problems: Vec<String> = regionpath_testkit::tidy::layer_violations(&src, layers)
        .into_iter()
        .filter(|p| p.starts_with("`query`"))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
