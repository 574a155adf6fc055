//! End-to-end tests of `regionpath replay`, `regionpath trace` and
//! `generate --trace`: hand-written traces whose outcome follows from the
//! map (checked with the test kit's Dijkstra and path checker), malformed
//! traces (line and column, exit 2), the JSON report against the text
//! one, and seeded traces that replay without a wrong answer.

use regionpath::grid::{Grid, Point};
use regionpath_testkit::{check, oracle};
use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;

use common::{bin, run};

fn scratch(test: &str) -> common::Scratch {
    common::scratch("replay", test)
}

/// Two rooms, left (x < 10) and right (x > 10), split by a wall at column
/// 10 with one door in the top row and one in the bottom row.
const DOORS: [&str; 9] = [
    ".....................",
    "..........@..........",
    "..........@..........",
    "..........@..........",
    "..........@..........",
    "..........@..........",
    "..........@..........",
    "..........@..........",
    ".....................",
];

fn write_map(dir: &Path, rows: &[&str]) -> PathBuf {
    let path = dir.join("doors.map");
    let text = format!(
        "type octile\nheight {}\nwidth {}\nmap\n{}\n",
        rows.len(),
        rows[0].len(),
        rows.join("\n")
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn write_trace(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `replay MAP --trace TRACE --json` with `extra` arguments: exit
/// code and the JSON object.
fn replay_json(map: &Path, trace: &Path, extra: &[&str]) -> (i32, Value) {
    let (code, out, err) = run(bin()
        .arg("replay")
        .arg(map)
        .arg("--trace")
        .arg(trace)
        .arg("--json")
        .arg("-q")
        .args(extra));
    let v: Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}):\n{out}\n{err}"));
    (code, v)
}

fn n(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not a count in {v}"))
}

fn grid(rows: &[&str]) -> Grid {
    Grid::from_rows(rows).unwrap()
}

fn reachable(g: &Grid, a: Point, b: Point) -> bool {
    oracle::distances(g, a)[b.y as usize * g.width() as usize + b.x as usize].is_finite()
}

#[test]
fn a_closed_door_makes_a_query_unreachable_and_reopened_reachable() {
    let dir = scratch("doors");
    let map = write_map(&dir, &DOORS);
    let trace = write_trace(
        &dir,
        "doors.trace",
        "query 2 4 18 4\n\
         edit 10 0 1 1 @\n\
         query 2 4 18 4\n\
         edit 10 8 1 1 @   # both doors shut\n\
         query 2 4 18 4\n\
         edit 10 8 1 1 .\n\
         query 2 4 18 4\n",
    );
    // What the map says, by the test kit's Dijkstra on each state.
    let (a, b) = (Point::new(2, 4), Point::new(18, 4));
    let mut g = grid(&DOORS);
    let mut expected = vec![reachable(&g, a, b)];
    g.set_passable(Point::new(10, 0), false).unwrap();
    expected.push(reachable(&g, a, b));
    g.set_passable(Point::new(10, 8), false).unwrap();
    expected.push(reachable(&g, a, b));
    g.set_passable(Point::new(10, 8), true).unwrap();
    expected.push(reachable(&g, a, b));
    assert_eq!(expected, [true, true, false, true]);

    let (code, v) = replay_json(&map, &trace, &["--check-fresh"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"], "ok");
    assert_eq!(n(&v, "edits"), 3);
    assert_eq!(n(&v, "queries"), 4);
    assert_eq!(n(&v, "found"), 3);
    assert_eq!(n(&v, "unreachable"), 1);
    assert_eq!(n(&v, "invalid"), 0);
    assert_eq!(n(&v, "reachability_mismatch"), 0);
    assert_eq!(n(&v, "fresh_checks"), 3);
    assert!(n(&v, "fresh_pairs") >= 3);
}

#[test]
fn a_walk_through_a_door_closed_mid_walk_is_repaired_and_stays_valid() {
    let dir = scratch("walk");
    let map = write_map(&dir, &DOORS);
    let walks = dir.join("walks.txt");
    let trace = write_trace(
        &dir,
        "walk.trace",
        "lazy 0 2 1 18 1\n\
         walk 0 4\n\
         edit 10 0 1 1 @\n\
         walk 0 200\n",
    );
    let (code, v) = replay_json(&map, &trace, &["--walks", walks.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(n(&v, "lazy_queries"), 1);
    assert_eq!(n(&v, "lazy_walks"), 2);
    assert!(n(&v, "lazy_repairs") >= 1, "{v}");
    assert_eq!(n(&v, "lazy_invalid"), 0);
    assert_eq!(n(&v, "lazy_arrived"), 1);
    assert_eq!(n(&v, "lazy_trapped"), 0);

    let text = std::fs::read_to_string(&walks).unwrap();
    let line = text.lines().next().unwrap();
    let mut words = line.split(' ');
    assert_eq!(words.next(), Some("1"));
    assert_eq!(words.next(), Some("0"));
    let cells: Vec<Point> = words
        .map(|w| {
            let (x, y) = w.split_once(',').unwrap();
            Point::new(x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert_eq!(cells.len() as u64, n(&v, "lazy_cells") + 1);
    // The first four steps were taken before the edit: legal on the map
    // as it was.
    let before = grid(&DOORS);
    check::check_path(&before, &cells[..5], cells[0], cells[4]).unwrap();
    // After it the top door is shut: every later step is legal on the
    // edited map, through the bottom door, to the goal.
    let mut after = grid(&DOORS);
    after.set_passable(Point::new(10, 0), false).unwrap();
    let walked = check::check_path(&after, &cells[4..], cells[4], Point::new(18, 1)).unwrap();
    assert!(cells[4..].contains(&Point::new(10, 8)));
    assert!(!cells.contains(&Point::new(10, 0)));
    // Walking on from where the unit stood, never shorter than the exact
    // shortest path from there.
    let d = oracle::distances(&after, cells[4]);
    assert!(walked >= d[after.width() as usize + 18] - 1e-9);
}

#[test]
fn a_unit_built_over_is_trapped_not_invalid() {
    let dir = scratch("trapped");
    let map = write_map(&dir, &DOORS);
    let walks = dir.join("walks.txt");
    // Unit 1 stands two cells from (1, 4) when a block covering x 0..6,
    // y 2..7 goes up; unit 2 walks on elsewhere.
    let trace = write_trace(
        &dir,
        "trapped.trace",
        "lazy 1 1 4 19 4\n\
         lazy 2 14 2 18 6\n\
         walk 1 2\n\
         walk 2 1\n\
         edit 0 2 6 5 @\n\
         walk 1 5\n\
         walk 2 50\n",
    );
    let (code, v) = replay_json(&map, &trace, &["--walks", walks.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    let text = std::fs::read_to_string(&walks).unwrap();
    let unit1 = text.lines().find(|l| l.starts_with("1 1 ")).unwrap();
    let last = unit1.rsplit(' ').next().unwrap();
    let (x, y) = last.split_once(',').unwrap();
    let (x, y): (u32, u32) = (x.parse().unwrap(), y.parse().unwrap());
    // Where unit 1 stopped is inside the block (so it was built over).
    assert!(x < 6 && (2..7).contains(&y), "{unit1}");
    assert_eq!(n(&v, "lazy_trapped"), 1);
    assert_eq!(n(&v, "lazy_invalid"), 0);
    assert_eq!(n(&v, "lazy_arrived"), 1);
}

#[test]
fn malformed_traces_name_line_and_column_and_exit_2() {
    let dir = scratch("malformed");
    let map = write_map(&dir, &DOORS);
    let cases: [(&str, usize, usize, &str); 9] = [
        ("query 1 1 2 2\nfly 1 2\n", 2, 1, "unknown command"),
        ("# c\n\nquery 1 x 2 2\n", 3, 9, "not a cell row"),
        ("walk 1\n", 1, 7, "needs"),
        ("lazy 0 1 1 2 2\nwalk 0 3 4\n", 2, 10, "unexpected"),
        ("edit 1 1 1 1 @@\n", 1, 14, "terrain"),
        ("edit 18 0 4 1 @\n", 1, 6, "off the"),
        ("query 1 1 2 9\n", 1, 11, "off the"),
        ("walk 3 4\n", 1, 6, "never started"),
        ("group 5 5 1 1 2\n", 1, 15, "pairs"),
    ];
    for (i, (text, line, column, words)) in cases.iter().enumerate() {
        let trace = write_trace(&dir, &format!("bad{i}.trace"), text);
        let (code, v) = replay_json(&map, &trace, &[]);
        assert_eq!(code, 2, "{text:?}: {v}");
        assert_eq!(v["status"], "bad_input");
        assert_eq!(v["line"], *line as u64, "{text:?}: {v}");
        assert_eq!(v["column"], *column as u64, "{text:?}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(words), "{text:?}: {msg}");
        // The text form names the file, line and column too.
        let (code, _, err) = run(bin().arg("replay").arg(&map).arg("--trace").arg(&trace));
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!("bad{i}.trace:{line}:{column}:")),
            "{err}"
        );
    }
    // A missing trace file is bad input too.
    let (code, _, err) = run(bin()
        .arg("replay")
        .arg(&map)
        .arg("--trace")
        .arg(dir.join("none.trace")));
    assert_eq!(code, 2);
    assert!(err.contains("none.trace"), "{err}");
}

/// The number after `label` in `text` (`label 12` or `label 12,`).
fn count_after(text: &str, label: &str) -> u64 {
    let at = text
        .find(&format!("{label} "))
        .unwrap_or_else(|| panic!("no `{label}` in\n{text}"));
    text[at + label.len() + 1..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn generated_traces_are_seeded_and_replay_without_a_wrong_answer() {
    let dir = scratch("generated");
    let gen = |sub: &str, seed: &str| {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).unwrap();
        let (code, _, err) = run(bin()
            .args([
                "generate", "--kind", "rooms", "--width", "96", "--height", "80", "--seed", seed,
                "--trace", "150", "-q", "-o",
            ])
            .arg(d.join("m.map")));
        assert_eq!(code, 0, "{err}");
        (d.join("m.map"), std::fs::read(d.join("m.trace")).unwrap())
    };
    let (map, a) = gen("a", "3");
    let (_, b) = gen("b", "3");
    let (_, c) = gen("c", "4");
    assert_eq!(a, b, "the same seed gives the same trace");
    assert_ne!(a, c);
    // `trace` on the written map gives the same bytes for the same seed.
    let out = dir.join("again.trace");
    let (code, _, err) = run(bin()
        .arg("trace")
        .arg(&map)
        .args(["--edits", "150", "--seed", "3", "-o"])
        .arg(&out));
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), a);

    let trace = dir.join("a").join("m.trace");
    let (code, v) = replay_json(&map, &trace, &["--check-fresh"]);
    assert_eq!(code, 0, "{v}");
    for key in [
        "edits",
        "update_p50_us",
        "update_p99_us",
        "update_max_us",
        "queries",
        "invalid",
        "reachability_mismatch",
        "mean_subopt",
        "lazy_walks",
        "lazy_repairs",
        "lazy_carried",
        "lazy_invalid",
        "lazy_trapped",
        "groups",
        "group_speedup",
    ] {
        assert!(
            v.get(key).is_some_and(|x| x.is_number()),
            "no `{key}` in {v}"
        );
    }
    assert_eq!(n(&v, "edits"), 150);
    assert_eq!(n(&v, "invalid"), 0);
    assert_eq!(n(&v, "lazy_invalid"), 0);
    assert_eq!(n(&v, "lazy_errors"), 0);
    assert_eq!(n(&v, "reachability_mismatch"), 0);
    assert_eq!(n(&v, "fresh_checks"), 150);
    assert!(n(&v, "queries") > 0 && n(&v, "lazy_walks") > 0 && n(&v, "groups") > 0);
    let p50 = v["update_p50_us"].as_f64().unwrap();
    let p99 = v["update_p99_us"].as_f64().unwrap();
    let max = v["update_max_us"].as_f64().unwrap();
    assert!(0.0 < p50 && p50 <= p99 && p99 <= max, "{v}");

    // The text report says the same counts.
    let (code, text, _) = run(bin()
        .arg("replay")
        .arg(&map)
        .arg("--trace")
        .arg(&trace)
        .args(["-q", "--check-fresh"]));
    assert_eq!(code, 0);
    assert_eq!(count_after(&text, "edits"), n(&v, "edits"));
    assert_eq!(count_after(&text, "queries"), n(&v, "queries"));
    assert_eq!(count_after(&text, "found"), n(&v, "found"));
    assert_eq!(count_after(&text, "invalid"), n(&v, "invalid"));
    assert_eq!(count_after(&text, "lazy"), n(&v, "lazy_queries"));
    assert_eq!(count_after(&text, "queries,"), n(&v, "lazy_walks"));
    assert_eq!(count_after(&text, "repairs"), n(&v, "lazy_repairs"));
    assert_eq!(count_after(&text, "carried over"), n(&v, "lazy_carried"));
    assert_eq!(count_after(&text, "trapped"), n(&v, "lazy_trapped"));
    assert_eq!(count_after(&text, "groups"), n(&v, "groups"));
    assert_eq!(
        count_after(&text, "mismatches"),
        n(&v, "reachability_mismatch")
    );
    assert!(text.contains("status ok"));
}

#[test]
fn under_a_profile_the_edits_terrain_is_priced_by_it() {
    let dir = scratch("profile");
    let map = write_map(&dir, &DOORS);
    let profile = dir.join("wader.toml");
    std::fs::write(
        &profile,
        "name = \"wader\"\nsize = 1\n\n[cost]\n\".\" = 1\nW = 3\n",
    )
    .unwrap();
    // The top door becomes water, the bottom one a wall: blocked for the
    // map's own rules, a costly ford for the wader.
    let trace = write_trace(
        &dir,
        "ford.trace",
        "edit 10 0 1 1 W\n\
         edit 10 8 1 1 @\n\
         query 2 4 18 4\n\
         lazy 0 2 4 18 4\n\
         walk 0 100\n",
    );
    let (code, plain) = replay_json(&map, &trace, &[]);
    assert_eq!(code, 0, "{plain}");
    assert_eq!(n(&plain, "unreachable"), 1);
    assert_eq!(n(&plain, "lazy_unreachable"), 1);
    let (code, wader) = replay_json(
        &map,
        &trace,
        &["--profile", profile.to_str().unwrap(), "--check-fresh"],
    );
    assert_eq!(code, 0, "{wader}");
    assert_eq!(wader["profile"], "wader");
    assert_eq!(n(&wader, "found"), 1);
    assert_eq!(n(&wader, "invalid"), 0);
    assert_eq!(n(&wader, "lazy_arrived"), 1);
    assert_eq!(n(&wader, "lazy_invalid"), 0);
    assert_eq!(n(&wader, "reachability_mismatch"), 0);
}
