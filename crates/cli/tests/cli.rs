//! End-to-end tests of the `regionpath` binary: exit codes and messages on
//! bad input (never a panic), the JSON and CSV reports, and `generate`.

use std::path::{Path, PathBuf};

mod common;

use common::{bin, run};

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> common::Scratch {
    common::scratch("cli", test)
}

/// A 5x4 map with a wall, and a scenario with hand-computed lengths.
fn small_case(dir: &Path) -> PathBuf {
    std::fs::write(
        dir.join("small.map"),
        "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n",
    )
    .unwrap();
    let scen = dir.join("small.map.scen");
    std::fs::write(
        &scen,
        // (0,1)->(4,1): round the wall; no corner cutting forbids every
        // diagonal next to it, so 1 + 4 + 1 = 6. (0,3)->(2,2): √2 + 1.
        "version 1\n\
         1\tsmall.map\t5\t4\t0\t1\t4\t1\t6.00000000\n\
         0\tsmall.map\t5\t4\t0\t3\t2\t2\t2.41421356\n\
         0\tsmall.map\t5\t4\t2\t2\t2\t2\t0.00000000\n",
    )
    .unwrap();
    scen
}

#[test]
fn json_report_is_one_object_with_the_fields() {
    let dir = scratch("json");
    let scen = small_case(&dir);
    let csv = dir.join("rows.csv");
    let (code, out, err) = run(bin()
        .args(["scen", "--algo", "astar", "--json", "--csv"])
        .arg(&csv)
        .arg(&scen));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("stdout is one JSON value");
    assert_eq!(out.trim().lines().count(), 1);
    assert_eq!(v["rows"], 3);
    let a = &v["algos"]["astar"];
    for key in [
        "solved",
        "invalid",
        "wrong",
        "mean_subopt",
        "p95_subopt",
        "max_subopt",
        "mean_us",
        "p50_us",
        "p99_us",
        "total_ms",
        "mean_expanded",
    ] {
        assert!(a.get(key).is_some(), "missing {key} in {a}");
    }
    assert_eq!(
        (
            a["solved"].as_u64(),
            a["invalid"].as_u64(),
            a["wrong"].as_u64()
        ),
        (Some(3), Some(0), Some(0))
    );
    assert_eq!(a["max_subopt"].as_f64(), Some(0.0));
    assert!(a.get("mean_smoothed_ratio").is_none());
    assert!(v["algos"].get("hierarchical").is_none());
    let f = &v["files"][0];
    assert_eq!(
        (
            f["map"].as_str(),
            f["width"].as_u64(),
            f["height"].as_u64(),
            f["rows"].as_u64()
        ),
        (Some("small.map"), Some(5), Some(4), Some(3))
    );
    assert!(f["algos"]["astar"]["p99_us"].is_number());
    // The summary went to stderr.
    assert!(err.contains("TOTAL 1 files, 3 rows"), "{err}");

    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "file,row,algo,sx,sy,gx,gy,optimal,length,smoothed_length,us,expanded,valid,curve_length,curve_us,curve_stage"
    );
    assert_eq!(lines.len(), 4);
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        &first[1..10],
        &["0", "astar", "0", "1", "4", "1", "6", "6.00000000", ""]
    );
    assert_eq!(first[12], "1");
}

#[test]
fn text_report_and_every() {
    let dir = scratch("every");
    let scen = small_case(&dir);
    let (code, out, _) = run(bin().args(["scen", "--every", "2"]).arg(&scen));
    assert_eq!(code, 0);
    assert!(out.contains("2 rows"), "{out}");
    assert!(out.contains("2/2 solved, 0 invalid, 0 wrong"), "{out}");
    let (code, _, err) = run(bin().args(["scen", "--every", "0"]).arg(&scen));
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_wrong_length_is_a_planning_failure_exit_3() {
    let dir = scratch("wrong");
    small_case(&dir);
    let scen = dir.join("bad.scen");
    std::fs::write(
        &scen,
        "version 1\n1\tsmall.map\t5\t4\t0\t1\t4\t1\t5.00000000\n",
    )
    .unwrap();
    let (code, out, _) = run(bin().args(["scen", "--algo", "astar", "--json"]).arg(&scen));
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["algos"]["astar"]["wrong"], 1);
    assert_eq!(v["status"], "planning_failed");
    assert_eq!(v["exit_code"], 3);
}

#[test]
fn maps_are_found_in_the_moving_ai_layout_and_with_maps() {
    let dir = scratch("layout");
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    std::fs::create_dir_all(dir.join("scen")).unwrap();
    let scen = small_case(&dir);
    std::fs::rename(dir.join("small.map"), dir.join("maps/small.map")).unwrap();
    std::fs::rename(&scen, dir.join("scen/small.map.scen")).unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(dir.join("scen/small.map.scen")));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(bin()
        .arg("scen")
        .arg("--maps")
        .arg(dir.join("scen"))
        .arg(dir.join("scen/small.map.scen")));
    assert_eq!(code, 2);
    assert!(err.contains("map `small.map` not found"), "{err}");
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let dir = scratch("bad");
    let scen = small_case(&dir);

    let (code, _, err) = run(bin().arg("scen").arg(dir.join("nope.scen")));
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot read scenario file") && err.contains("nope.scen"),
        "{err}"
    );

    let bad_scen = dir.join("bad.scen");
    std::fs::write(
        &bad_scen,
        "version 1\n1\tsmall.map\t5\t4\t0\tone\t4\t1\t5\n",
    )
    .unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&bad_scen));
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.scen:2:") && err.contains("field 6"),
        "{err}"
    );

    std::fs::write(&bad_scen, "version 1\n1\tother.map\t5\t4\t0\t1\t4\t1\t5\n").unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&bad_scen));
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.scen:2: map `other.map` not found"),
        "{err}"
    );

    std::fs::write(&bad_scen, "version 1\n1\tsmall.map\t6\t4\t0\t1\t4\t1\t5\n").unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&bad_scen));
    assert_eq!(code, 2);
    assert!(err.contains("6x4") && err.contains("5x4"), "{err}");

    std::fs::write(&bad_scen, "version 1\n1\tsmall.map\t5\t4\t1\t1\t4\t1\t5\n").unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&bad_scen));
    assert_eq!(code, 2);
    assert!(err.contains("start (1, 1) is a blocked cell"), "{err}");

    std::fs::write(&bad_scen, "version 1\n").unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&bad_scen));
    assert_eq!(code, 2);
    assert!(err.contains("no rows"), "{err}");

    std::fs::write(
        dir.join("small.map"),
        "type octile\nheight 4\nwidth 5\nmap\n.....\n.@\u{e9}@.\n",
    )
    .unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&scen));
    assert_eq!(code, 2);
    assert!(
        err.contains("small.map:6:3: malformed map") && err.contains("'\u{e9}'"),
        "{err}"
    );

    std::fs::write(
        dir.join("small.map"),
        "type octile\nheight 99999999\nwidth 99999999\nmap\n",
    )
    .unwrap();
    let (code, _, err) = run(bin().arg("scen").arg(&scen));
    assert_eq!(code, 2);
    assert!(err.contains("malformed map"), "{err}");
}

#[test]
fn hierarchical_planner_and_smoothing() {
    let dir = scratch("hierarchical");
    let scen = small_case(&dir);
    let csv = dir.join("rows.csv");
    let (code, out, err) = run(bin()
        .args([
            "scen",
            "--algo",
            "both",
            "--smooth",
            "--first-leg",
            "--json",
            "--csv",
        ])
        .arg(&csv)
        .arg(&scen));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // Smoothing is timed for both; only the hierarchical planner has legs.
    for algo in ["astar", "hierarchical"] {
        let share = v["algos"][algo]["smooth_share"].as_f64().unwrap();
        assert!(share > 0.0 && share < 1.0, "{algo}: {share}");
        assert!(v["algos"][algo]["mean_smooth_us"].as_f64().unwrap() > 0.0);
    }
    let h = &v["algos"]["hierarchical"];
    assert_eq!(h["first_leg_invalid"], 0, "{h}");
    assert!(h["p50_first_leg_us"].as_f64().unwrap() > 0.0, "{h}");
    assert!(v["algos"]["astar"].get("p50_first_leg_us").is_none());
    for algo in ["astar", "hierarchical"] {
        let a = &v["algos"][algo];
        assert_eq!(a["solved"], 3, "{algo}: {a}");
        assert_eq!(
            (a["invalid"].as_u64(), a["wrong"].as_u64()),
            (Some(0), Some(0)),
            "{algo}"
        );
        assert_eq!(a["smooth_invalid"], 0, "{algo}");
        let mean = a["mean_smoothed_ratio"].as_f64().unwrap();
        let max = a["max_smoothed_ratio"].as_f64().unwrap();
        assert!(mean > 0.0 && mean <= max, "{algo}: {a}");
        assert!(a["max_subopt"].as_f64().unwrap() >= 0.0);
    }
    // Smoothing never lengthens an optimal path.
    assert!(v["algos"]["astar"]["max_smoothed_ratio"].as_f64().unwrap() <= 1.0 + 1e-9);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 1 + 2 * 3);
    assert!(text
        .lines()
        .skip(1)
        .all(|l| !l.split(',').nth(9).unwrap().is_empty()));
    let (code, _, err) = run(bin().args(["scen", "--algo", "hierarchical"]).arg(&scen));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn generate_is_deterministic_and_its_scenarios_check_out() {
    let dir = scratch("generate");
    for kind in ["rooms", "caves"] {
        let mut outputs = Vec::new();
        for copy in ["a", "b"] {
            let map = dir.join(format!("{kind}-{copy}.map"));
            let scen = dir.join(format!("{kind}-{copy}.map.scen"));
            let (code, _, err) = run(bin()
                .args([
                    "generate", "--kind", kind, "--width", "72", "--height", "56", "--seed", "11",
                    "-o",
                ])
                .arg(&map)
                .arg("--scen")
                .arg(&scen)
                .args(["--rows", "25"]));
            assert_eq!(code, 0, "{err}");
            outputs.push((
                std::fs::read(&map).unwrap(),
                std::fs::read_to_string(&scen).unwrap(),
            ));
            // The runner agrees with every generated length.
            let (code, out, err) =
                run(bin().args(["scen", "--algo", "astar", "--json"]).arg(&scen));
            assert_eq!(code, 0, "{err}");
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["algos"]["astar"]["solved"], 25, "{kind}");
            assert_eq!(v["status"], "ok");
        }
        assert_eq!(outputs[0].0, outputs[1].0, "{kind}: same seed, same map");
        let (a, b) = (&outputs[0].1, &outputs[1].1);
        assert_eq!(
            a.replace("-a.map", ""),
            b.replace("-b.map", ""),
            "{kind}: same rows"
        );
        assert!(a.starts_with("version 1\n"));
        let row: Vec<&str> = a.lines().nth(1).unwrap().split('\t').collect();
        assert_eq!(row.len(), 9);
        assert_eq!(row[1], format!("{kind}-a.map"));
        assert_eq!(
            row[8].split('.').nth(1).map(str::len),
            Some(8),
            "8 decimals"
        );
    }
    let (code, _, err) = run(bin()
        .args([
            "generate", "--kind", "caves", "--width", "3", "--height", "56", "--seed", "1", "-o",
        ])
        .arg(dir.join("tiny.map")));
    assert_eq!(code, 2);
    assert!(err.contains("--width 3"), "{err}");
}

#[test]
fn build_then_path_with_the_hierarchy_file() {
    let dir = scratch("build-path");
    small_case(&dir);
    let map = dir.join("small.map");
    let rph = dir.join("small.rph");
    let (code, out, err) = run(bin()
        .arg("build")
        .arg(&map)
        .arg("-o")
        .arg(&rph)
        .arg("--json"));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["cells"], 20);
    for key in ["sectors", "regions", "edges", "bytes", "build_ms"] {
        assert!(v[key].is_number(), "missing {key} in {out}");
    }
    assert!(rph.exists());

    // Round the wall: 1 + 4 + 1 = 6 (no corner cutting), checked by hand.
    let (code, out, err) = run(bin()
        .arg("path")
        .arg(&map)
        .arg("--hierarchy")
        .arg(&rph)
        .args(["--from", "0,1", "--to", "4,1", "--json", "--smooth"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["found"], true);
    assert!((v["cost"].as_f64().unwrap() - 6.0).abs() < 1e-9);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.first().unwrap(), &serde_json::json!([0, 1]));
    assert_eq!(cells.last().unwrap(), &serde_json::json!([4, 1]));
    let w = v["waypoints"].as_array().unwrap();
    assert_eq!(w.first().unwrap(), &serde_json::json!([0.5, 1.5]));
    assert!(v["smoothed_length"].as_f64().unwrap() <= 6.0 + 1e-9);

    // A hierarchy file of another map is refused with a clear message.
    let other = dir.join("other.map");
    std::fs::write(
        &other,
        "type octile\nheight 4\nwidth 5\nmap\n.....\n.....\n.....\n.....\n",
    )
    .unwrap();
    let (code, _, err) = run(bin()
        .arg("path")
        .arg(&other)
        .arg("--hierarchy")
        .arg(&rph)
        .args(["--from", "0,0", "--to", "4,3"]));
    assert_eq!(code, 2);
    assert!(err.contains("another map"), "{err}");
    // A truncated file too.
    let bytes = std::fs::read(&rph).unwrap();
    let cut = dir.join("cut.rph");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (code, _, err) = run(bin()
        .arg("path")
        .arg(&map)
        .arg("--hierarchy")
        .arg(&cut)
        .args(["--from", "0,0", "--to", "4,3"]));
    assert_eq!(code, 2);
    assert!(err.contains("corrupted"), "{err}");
}

#[test]
fn path_reports_unreachable_and_bad_endpoints() {
    let dir = scratch("path-errors");
    let map = dir.join("split.map");
    std::fs::write(
        &map,
        "type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n",
    )
    .unwrap();
    let (code, out, _) = run(bin()
        .arg("path")
        .arg(&map)
        .args(["--from", "0,0", "--to", "4,2"]));
    assert_eq!(code, 1);
    assert!(out.contains("unreachable"), "{out}");
    let (code, _, err) = run(bin()
        .arg("path")
        .arg(&map)
        .args(["--from", "2,0", "--to", "4,2"]));
    assert_eq!(code, 2);
    assert!(err.contains("blocked"), "{err}");
    let (code, _, err) = run(bin()
        .arg("path")
        .arg(&map)
        .args(["--from", "9,0", "--to", "4,2"]));
    assert_eq!(code, 2);
    assert!(err.contains("outside"), "{err}");
    let (code, _, err) = run(bin()
        .arg("path")
        .arg(&map)
        .args(["--from", "a,0", "--to", "4,2"]));
    assert_eq!(code, 2);
    assert!(err.contains("not a cell column"), "{err}");
}

#[test]
fn no_second_route_keeps_paths_valid_and_never_shorter() {
    // The project's own generated room map: the second route fires there.
    let scen = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/rooms-512.map.scen");
    let subopt = |extra: &[&str]| {
        let (code, out, err) = run(bin()
            .args(["scen", "--algo", "hierarchical", "--every", "4", "--json"])
            .args(extra)
            .arg(&scen));
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let h = &v["algos"]["hierarchical"];
        assert_eq!(h["invalid"], 0);
        assert_eq!(h["wrong"], 0);
        assert_eq!(h["solved"], h["rows"]);
        h["mean_subopt"].as_f64().unwrap()
    };
    let with = subopt(&[]);
    let without = subopt(&["--no-second-route"]);
    // The second route only ever replaces a path by a shorter one.
    assert!(with <= without + 1e-12, "{with} > {without}");
}

/// The reproducer: a rooms map, a hierarchy with the portal layer,
/// one edge endpoint changed to another region of the same sector (what the
/// loader's range checks let through) and the CRC fixed up. Every such file
/// is refused as inconsistent (exit 2) or still answers the optimum, 16.9
/// (Dijkstra, via `generate`'s own check below); none says unreachable.
#[test]
fn an_edge_endpoint_changed_with_its_crc_fixed_is_refused() {
    let dir = scratch("rph-endpoint");
    let map = dir.join("rooms.map");
    let rph = dir.join("rooms.rph");
    let (code, _, err) = run(bin()
        .args([
            "generate", "--kind", "rooms", "--width", "64", "--height", "64", "--seed", "7", "-o",
        ])
        .arg(&map));
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(bin()
        .arg("build")
        .arg(&map)
        .args(["--portals", "always", "-o"])
        .arg(&rph));
    assert_eq!(code, 0, "{err}");
    let path = |file: &Path| {
        run(bin()
            .arg("path")
            .arg(&map)
            .arg("--hierarchy")
            .arg(file)
            .args(["--from", "13,43", "--to", "1,52", "--json"]))
    };
    let (code, out, err) = path(&rph);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let optimum = v["cost"].as_f64().unwrap();
    assert!((optimum - 16.9).abs() < 0.05, "{optimum}");

    let bytes = std::fs::read(&rph).unwrap();
    let u32_at = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    // Header 24 bytes; payload: 36 bytes of fixed fields, 16 of build
    // settings and 4 of the profile flag (none), the region table (count,
    // 20 bytes each: sector first), the edge table (count, 16 bytes each:
    // a, b first).
    let regions_at = 24 + 36 + 16 + 4;
    let n = u32_at(&bytes, regions_at) as usize;
    let sector = |r: u32| u32_at(&bytes, regions_at + 4 + 20 * r as usize);
    let edges_at = regions_at + 4 + 20 * n;
    let m = u32_at(&bytes, edges_at) as usize;
    let (mut tried, mut refused) = (0, 0);
    for e in 0..m {
        let at = edges_at + 4 + 16 * e;
        let (a, b) = (u32_at(&bytes, at), u32_at(&bytes, at + 4));
        // Either end, to another region of its sector, keeping a < b.
        for (field, old, other) in [(at, a, b), (at + 4, b, a)] {
            for new in (0..n as u32).filter(|&r| r != old && sector(r) == sector(old)) {
                if (field == at && new >= other) || (field != at && new <= other) {
                    continue;
                }
                let mut damaged = bytes.clone();
                damaged[field..field + 4].copy_from_slice(&new.to_le_bytes());
                let crc = regionpath_testkit::crc32(&damaged[24..]);
                damaged[20..24].copy_from_slice(&crc.to_le_bytes());
                let file = dir.join("damaged.rph");
                std::fs::write(&file, &damaged).unwrap();
                let (code, out, err) = path(&file);
                tried += 1;
                if code == 2 {
                    assert!(out.contains("inconsistent"), "edge {e}: {out}{err}");
                    refused += 1;
                } else {
                    assert_eq!(code, 0, "edge {e}, {old} -> {new}: exit {code}: {out}{err}");
                    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
                    let cost = v["cost"].as_f64().unwrap();
                    assert!((cost - optimum).abs() < 1e-6, "edge {e}: {cost}");
                }
            }
        }
    }
    eprintln!("{refused} of {tried} damaged files refused");
    assert!(
        tried > 0 && refused == tried,
        "{refused} of {tried} refused"
    );
}
