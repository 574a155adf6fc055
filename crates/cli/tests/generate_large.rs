//! `generate` for large worlds, end to end at small sizes: byte-identical
//! files per seed, rows whose lengths are the testkit Dijkstra's, mirror
//! tiling, sides above 16,384, the memory budget; and the map reader on
//! headers that claim more than a file holds.

mod common;

use common::{bin, run, scratch};
use regionpath::grid::{parse_map, parse_scen, read_map, Grid, MapErrorKind, Point};
use regionpath_testkit::alloc::{measure_thread, CountingAlloc};
use std::path::Path;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn generate(dir: &Path, name: &str, extra: &[&str]) -> (i32, String, String) {
    let out = dir.join(name);
    run(bin().args(["generate", "-q", "-o"]).arg(&out).args(extra))
}

/// Every row's length equals the testkit Dijkstra's distance on `grid`.
fn rows_are_optimal(grid: &Grid, scen: &Path, want_rows: usize) {
    let s = parse_scen(&std::fs::read_to_string(scen).unwrap()).unwrap();
    assert_eq!(s.rows.len(), want_rows);
    for r in &s.rows {
        assert_eq!((r.map_width, r.map_height), (grid.width(), grid.height()));
        let d = regionpath_testkit::distances(grid, r.start)
            [(r.goal.y * grid.width() + r.goal.x) as usize];
        assert!(
            (r.optimal - d).abs() < 1e-6,
            "{} -> {}: {} vs Dijkstra {d}",
            r.start,
            r.goal,
            r.optimal
        );
    }
}

#[test]
fn the_same_seed_writes_byte_identical_files() {
    let dir = scratch("generate-large", "same-seed");
    for kind in ["rooms", "caves"] {
        let mut files = Vec::new();
        // The scenario names its map: same file names in two folders.
        for run_no in 0..2 {
            let sub = dir.join(format!("{kind}{run_no}"));
            std::fs::create_dir_all(&sub).unwrap();
            let (code, _, err) = run(bin()
                .args([
                    "generate", "-q", "--kind", kind, "--width", "150", "--height", "97",
                ])
                .args(["--seed", "42", "--rows", "30", "-o"])
                .arg(sub.join("m.map"))
                .arg("--scen")
                .arg(sub.join("m.scen")));
            assert_eq!(code, 0, "{err}");
            files.push((
                std::fs::read_to_string(sub.join("m.map")).unwrap(),
                std::fs::read_to_string(sub.join("m.scen")).unwrap(),
            ));
        }
        assert!(files[0].0 == files[1].0, "{kind}: maps differ");
        assert_eq!(files[0].1, files[1].1, "{kind}: scenarios differ");
        let grid = read_map(dir.join(format!("{kind}0/m.map"))).unwrap();
        rows_are_optimal(&grid, &dir.join(format!("{kind}0/m.scen")), 30);
    }
}

/// Sides above the old limit of 16,384 are accepted; above 32,768 refused.
#[test]
fn sides_up_to_32768_are_accepted() {
    let dir = scratch("generate-large", "sides");
    let (code, out, err) = generate(
        &dir,
        "wide.map",
        &[
            "--kind", "rooms", "--width", "20000", "--height", "8", "--seed", "1", "--json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(20000), Some(8))
    );
    let g = read_map(dir.join("wide.map")).unwrap();
    assert_eq!(Some(g.passable_count()), v["passable"].as_u64());
    let (code, _, err) = generate(
        &dir,
        "too.map",
        &[
            "--kind", "rooms", "--width", "32769", "--height", "8", "--seed", "1",
        ],
    );
    assert_eq!(code, 2, "{err}");
}

/// A budget below the estimated peak is refused with exit code 2 and a
/// typed JSON error before any file is written.
#[test]
fn a_run_over_the_memory_budget_is_refused() {
    let dir = scratch("generate-large", "budget");
    let (code, out, _) = generate(
        &dir,
        "big.map",
        &[
            "--kind",
            "caves",
            "--width",
            "32768",
            "--height",
            "32768",
            "--seed",
            "1",
            "--memory-budget",
            "20",
            "--json",
        ],
    );
    assert_eq!(code, 2, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "bad_input");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("memory budget of 20 MiB"), "{e}");
    assert!(!dir.join("big.map").exists());
    // Rows need more than the map alone.
    let (code, _, err) = run(bin()
        .args([
            "generate", "-q", "--kind", "rooms", "--width", "8000", "--height", "8000",
        ])
        .args(["--seed", "1", "--memory-budget", "30", "-o"])
        .arg(dir.join("rows.map"))
        .arg("--scen")
        .arg(dir.join("rows.scen")));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("scenario rows"), "{err}");
    // A budget that fits runs.
    let (code, _, err) = generate(
        &dir,
        "ok.map",
        &[
            "--kind",
            "caves",
            "--width",
            "300",
            "--height",
            "200",
            "--seed",
            "1",
            "--memory-budget",
            "64",
        ],
    );
    assert_eq!(code, 0, "{err}");
}

/// A tiling is the cut source mirrored per copy, cell by cell, and its
/// rows are optimal on the tiled map.
#[test]
fn tiling_mirrors_copies_and_its_rows_are_optimal() {
    let dir = scratch("generate-large", "tile");
    let (code, _, err) = generate(
        &dir,
        "src.map",
        &[
            "--kind",
            "caves",
            "--width",
            "70",
            "--height",
            "45",
            "--seed",
            "9",
            "--terrain",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run(bin()
        .args(["generate", "-q", "--tile"])
        .arg(dir.join("src.map"))
        .args([
            "--repeat",
            "3x2",
            "--strip-border",
            "1",
            "--rows",
            "25",
            "--json",
            "-o",
        ])
        .arg(dir.join("tiled.map"))
        .arg("--scen")
        .arg(dir.join("tiled.scen")));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(3 * 68), Some(2 * 43))
    );
    let src = read_map(dir.join("src.map")).unwrap();
    let tiled = read_map(dir.join("tiled.map")).unwrap();
    assert_eq!(Some(tiled.passable_count()), v["passable"].as_u64());
    for y in 0..tiled.height() {
        for x in 0..tiled.width() {
            let (i, j) = (x / 68, y / 43);
            let sx = if i % 2 == 1 { 67 - x % 68 } else { x % 68 };
            let sy = if j % 2 == 1 { 42 - y % 43 } else { y % 43 };
            assert_eq!(
                tiled.terrain(Point::new(x, y)).unwrap(),
                src.terrain(Point::new(sx + 1, sy + 1)).unwrap(),
                "({x}, {y})"
            );
        }
    }
    rows_are_optimal(&tiled, &dir.join("tiled.scen"), 25);
    // A strip that leaves nothing is bad input.
    let (code, _, _) = run(bin()
        .args(["generate", "-q", "--tile"])
        .arg(dir.join("src.map"))
        .args(["--repeat", "2x2", "--strip-border", "30", "-o"])
        .arg(dir.join("none.map")));
    assert_eq!(code, 2);
}

/// `--terrain` over a `--tile`d map paints the source's open cells and
/// keeps its walls exactly; the seed decides the painting.
#[test]
fn terrain_paints_over_a_tiled_map_and_keeps_its_walls() {
    let dir = scratch("generate-large", "tile-terrain");
    let (code, _, err) = generate(
        &dir,
        "src.map",
        &[
            "--kind", "caves", "--width", "160", "--height", "120", "--seed", "4",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let paint = |name: &str, seed: &str| {
        let (code, _, err) = run(bin()
            .args(["generate", "-q", "--tile"])
            .arg(dir.join("src.map"))
            .args(["--repeat", "1x1", "--terrain", "--seed", seed, "-o"])
            .arg(dir.join(name)));
        assert_eq!(code, 0, "{err}");
        std::fs::read(dir.join(name)).unwrap()
    };
    let (a, again, other) = (
        paint("a.map", "1"),
        paint("b.map", "1"),
        paint("c.map", "2"),
    );
    assert_eq!(a, again, "the same seed paints the same map");
    assert_ne!(a, other, "another seed paints another map");
    let src = read_map(dir.join("src.map")).unwrap();
    let painted = read_map(dir.join("a.map")).unwrap();
    assert_eq!(
        (painted.width(), painted.height()),
        (src.width(), src.height())
    );
    let mut kinds = std::collections::BTreeSet::new();
    for y in 0..src.height() {
        for x in 0..src.width() {
            let p = Point::new(x, y);
            let (s, t) = (src.terrain(p).unwrap(), painted.terrain(p).unwrap());
            if s.to_char() == '@' {
                assert_eq!(t.to_char(), '@', "wall at ({x}, {y}) repainted");
            } else {
                assert_ne!(t.to_char(), '@', "open cell ({x}, {y}) walled");
                kinds.insert(t.to_char());
            }
        }
    }
    assert!(kinds.len() >= 3, "open cells painted with only {kinds:?}");
}

#[test]
fn help_documents_tiling_and_the_memory_estimate() {
    let (code, out, _) = run(bin().args(["generate", "--help"]));
    assert_eq!(code, 0);
    for needle in [
        "--tile",
        "--repeat",
        "--strip-border",
        "--memory-budget",
        "Memory estimate",
        "32768",
    ] {
        assert!(out.contains(needle), "help lacks {needle}:\n{out}");
    }
}

/// A header above the maximum side is refused at its line and column; a
/// header claiming 60,000² cells with two rows fails on the missing rows
/// holding about what the text holds, not 3.6 G cells.
#[test]
fn oversized_headers_fail_before_any_large_allocation() {
    let text = "type octile\nheight 100000\nwidth 100000\nmap\n....\n....\n";
    let (result, usage) = measure_thread(|| parse_map(text));
    let e = result.unwrap_err();
    assert!(matches!(e.kind, MapErrorKind::BadSize(_)), "{e}");
    assert_eq!((e.line, e.column), (2, 8));
    assert!(usage.peak_bytes < 1 << 20, "{usage:?}");
    let row = ".".repeat(60_000);
    let text = format!("type octile\nheight 60000\nwidth 60000\nmap\n{row}\n{row}\n");
    let (result, usage) = measure_thread(|| parse_map(&text));
    let e = result.unwrap_err();
    assert_eq!(
        e.kind,
        MapErrorKind::TooFewRows {
            expected: 60_000,
            found: 2
        }
    );
    assert_eq!(e.line, 6);
    assert!(usage.peak_bytes < 4 << 20, "{usage:?}");
}
