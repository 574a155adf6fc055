//! End-to-end tests of the output and error contract of every subcommand:
//! a closed or full stdout never panics, `--json` turns every outcome into
//! one JSON object with a `status` and the exit code (0 ok, 1 no path,
//! 2 bad input, 3 planning failure), and `inspect` on good, stale, foreign,
//! truncated and corrupted hierarchy files.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;

mod common;
use common::bin;

fn scratch(test: &str) -> common::Scratch {
    common::scratch("contract", test)
}

/// Held while a child is spawned, so no other test's child inherits (for
/// the moment between fork and exec) the reading end of a pipe that
/// `a_closed_stdout_ends_quietly_without_a_panic` closes.
static SPAWN: Mutex<()> = Mutex::new(());

fn spawn(cmd: &mut Command) -> Child {
    let _guard = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
    cmd.spawn().unwrap()
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = spawn(cmd.stdout(Stdio::piped()).stderr(Stdio::piped()))
        .wait_with_output()
        .unwrap();
    let err = String::from_utf8_lossy(&stderr).into_owned();
    let code = status.code().unwrap_or(-1);
    assert_ne!(code, 101, "the binary panicked:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    (code, String::from_utf8_lossy(&stdout).into_owned(), err)
}

/// Runs and parses stdout as exactly one JSON object.
fn run_json(cmd: &mut Command) -> (i32, serde_json::Value, String) {
    let (code, out, err) = run(cmd);
    assert_eq!(out.trim().lines().count(), 1, "one line on stdout: {out}");
    let v: serde_json::Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {out}"));
    assert!(v.is_object(), "{v}");
    assert_eq!(v["exit_code"].as_i64(), Some(i64::from(code)), "{v}");
    let want = match code {
        0 => "ok",
        1 => "no_path",
        2 => "bad_input",
        3 => "planning_failed",
        _ => panic!("unexpected exit code {code}: {v}"),
    };
    assert_eq!(v["status"], want, "{v}");
    (code, v, err)
}

fn rooms() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/rooms-512.map")
}

/// A 6x3 map split by a wall, and a 5x4 map with a bar.
fn maps(dir: &Path) -> (PathBuf, PathBuf) {
    let split = dir.join("split.map");
    std::fs::write(
        &split,
        "type octile\nheight 3\nwidth 6\nmap\n..@...\n..@...\n..@...\n",
    )
    .unwrap();
    let small = dir.join("small.map");
    std::fs::write(
        &small,
        "type octile\nheight 4\nwidth 5\nmap\n.....\n.@@@.\n.....\n.....\n",
    )
    .unwrap();
    (split, small)
}

/// Every subcommand, in a form that writes to stdout.
fn commands(dir: &Path) -> Vec<Vec<String>> {
    let (_, small) = maps(dir);
    let s = |p: &Path| p.display().to_string();
    let rph = dir.join("small.rph");
    let (code, _, err) = run(bin().arg("build").arg(&small).arg("-o").arg(&rph));
    assert_eq!(code, 0, "{err}");
    let scen = dir.join("small.map.scen");
    std::fs::write(
        &scen,
        "version 1\n1\tsmall.map\t5\t4\t0\t1\t4\t1\t6.00000000\n",
    )
    .unwrap();
    let trace = dir.join("small.trace");
    std::fs::write(
        &trace,
        "query 0 1 4 1\nedit 2 2 1 1 @\nlazy 0 0 0 4 3\nwalk 0 5\n",
    )
    .unwrap();
    let mut v = Vec::new();
    for json in [false, true] {
        let mut cmds: Vec<Vec<String>> = vec![
            vec![
                "path".into(),
                s(&rooms()),
                "--from".into(),
                "10,10".into(),
                "--to".into(),
                "500,500".into(),
            ],
            vec!["build".into(), s(&small)],
            vec!["scen".into(), s(&scen), "--algo".into(), "all".into()],
            vec!["inspect".into(), s(&rph), "--map".into(), s(&small)],
            vec![
                "generate".into(),
                "--kind".into(),
                "rooms".into(),
                "--width".into(),
                "16".into(),
                "--height".into(),
                "16".into(),
                "--seed".into(),
                "1".into(),
                "-o".into(),
                s(&dir.join("g.map")),
            ],
            vec![
                "render".into(),
                s(&small),
                "--path".into(),
                "0,1,4,1".into(),
                "-o".into(),
                s(&dir.join("r.png")),
            ],
            vec![
                "replay".into(),
                s(&small),
                "--trace".into(),
                s(&trace),
                "-q".into(),
            ],
            vec![
                "trace".into(),
                s(&small),
                "--edits".into(),
                "3".into(),
                "--seed".into(),
                "1".into(),
                "-o".into(),
                s(&dir.join("t.trace")),
            ],
        ];
        if json {
            for c in &mut cmds {
                c.push("--json".into());
            }
        }
        v.extend(cmds);
    }
    v
}

#[test]
fn a_closed_stdout_ends_quietly_without_a_panic() {
    let dir = scratch("closed");
    for args in commands(&dir) {
        // The command starts after a pause, so the reading end is closed
        // before it writes anything.
        let child = {
            let _guard = SPAWN.lock().unwrap_or_else(|e| e.into_inner());
            let mut child = Command::new("sh")
                .arg("-c")
                .arg("sleep 0.2; exec \"$0\" \"$@\"")
                .arg(env!("CARGO_BIN_EXE_regionpath"))
                .args(&args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            drop(child.stdout.take());
            child
        };
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {err}");
    }
}

#[test]
fn a_full_stdout_is_an_error_with_a_message() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    let dir = scratch("full");
    for args in commands(&dir) {
        let out = spawn(
            bin()
                .args(&args)
                .stdout(full.try_clone().unwrap())
                .stderr(Stdio::piped()),
        )
        .wait_with_output()
        .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn every_path_outcome_is_one_json_object_with_its_exit_code() {
    let dir = scratch("path-json");
    let (split, _) = maps(&dir);
    let path = |from: &str, to: &str, extra: &[&str]| {
        run_json(
            bin()
                .arg("path")
                .arg(&split)
                .args(["--from", from, "--to", to, "--json"])
                .args(extra),
        )
    };
    let (code, v, _) = path("0,0", "1,2", &[]);
    assert_eq!(code, 0);
    assert_eq!(v["found"], true);
    // Unreachable across the wall.
    let (code, v, _) = path("0,0", "4,2", &[]);
    assert_eq!((code, &v["found"]), (1, &serde_json::json!(false)));
    // Blocked and out-of-grid endpoints are bad input, named by the map.
    for (from, word) in [("2,0", "blocked"), ("9,0", "outside")] {
        let (code, v, _) = path(from, "4,2", &[]);
        assert_eq!(code, 2);
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(word) && e.contains("split.map"), "{e}");
        assert!(v["file"].as_str().unwrap().ends_with("split.map"));
    }
    // A malformed argument, still JSON.
    let (code, v, _) = path("a,0", "4,2", &[]);
    assert_eq!(code, 2);
    assert!(v["error"].as_str().unwrap().contains("not a cell column"));
    // A turn that cannot take the turning radius under --strict-turns is a
    // planning failure (3), tightened without it (0).
    let strict = ["--smooth", "--turning-radius", "30", "--strict-turns"];
    let (code, v, _) = run_json(
        bin()
            .arg("path")
            .arg(rooms())
            .args(["--from", "10,10", "--to", "500,500", "--json"])
            .args(strict),
    );
    assert_eq!(code, 3, "{v}");
    assert!(v["error"].as_str().unwrap().contains("turning radius"));
    let (code, v, _) = run_json(
        bin()
            .arg("path")
            .arg(rooms())
            .args(["--from", "10,10", "--to", "500,500", "--json"])
            .args(&strict[..3]),
    );
    assert_eq!(code, 0);
    assert!(!v["tightened_turns"].as_array().unwrap().is_empty());
}

/// A unit wider than a corridor cannot follow a curve: a planning failure
/// (3) naming the unit, not a hierarchy to rebuild.
#[test]
fn a_curve_for_a_unit_wider_than_the_corridor_is_a_planning_failure() {
    let dir = scratch("narrow");
    let map = dir.join("corridor.map");
    std::fs::write(
        &map,
        "type octile\nheight 3\nwidth 8\nmap\n@@@@@@@@\n........\n@@@@@@@@\n",
    )
    .unwrap();
    let (code, v, _) = run_json(bin().arg("path").arg(&map).args([
        "--from",
        "0,1",
        "--to",
        "7,1",
        "--json",
        "--smooth",
        "--radius",
        "0.5",
        "--turning-radius",
        "1",
    ]));
    assert_eq!(code, 3, "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("does not fit"), "{error}");
    assert!(!error.contains("rebuild"), "{error}");
}

#[test]
fn a_missing_or_malformed_map_names_the_file_once_with_line_and_column() {
    let dir = scratch("bad-map");
    let missing = dir.join("nosuch.map");
    let (code, _, err) = run(bin().arg("build").arg(&missing));
    assert_eq!(code, 2);
    assert_eq!(err.matches("nosuch.map").count(), 1, "{err}");
    assert!(err.contains("cannot read map"), "{err}");
    let bad = dir.join("bad.map");
    std::fs::write(&bad, "type octile\nheight 2\nwidth 3\nmap\n...\n.\u{e9}.\n").unwrap();
    for sub in ["build", "render", "path"] {
        let mut c = bin();
        c.arg(sub).arg(&bad).arg("--json");
        match sub {
            "render" => c.arg("-o").arg(dir.join("x.png")),
            "path" => c.args(["--from", "0,0", "--to", "2,0"]),
            _ => &mut c,
        };
        let (code, v, _) = run_json(&mut c);
        assert_eq!(code, 2);
        assert_eq!(
            (v["line"].as_u64(), v["column"].as_u64()),
            (Some(6), Some(2)),
            "{sub}: {v}"
        );
        assert!(v["file"].as_str().unwrap().ends_with("bad.map"));
    }
}

#[test]
fn build_prints_stats_without_writing_and_says_why_about_the_portal_layer() {
    let dir = scratch("build");
    let (_, small) = maps(&dir);
    let (code, out, err) = run(bin().arg("build").arg(&small).current_dir(&dir));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("20 cells"), "{out}");
    assert!(out.contains("portal layer"), "{out}");
    assert!(out.contains("no file written"), "{out}");
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "build without -o wrote a file"
    );
    for (mode, built) in [("always", true), ("never", false)] {
        let (code, v, _) =
            run_json(
                bin()
                    .arg("build")
                    .arg(&small)
                    .args(["--json", "--portals", mode]),
            );
        assert_eq!(code, 0);
        assert_eq!(v["portal_layer"], built);
        assert!(v["portal_layer_reason"].as_str().unwrap().contains(mode));
        assert!(v["out"].is_null());
    }
}

#[test]
fn inspect_describes_good_files_and_refuses_bad_ones() {
    let dir = scratch("inspect");
    let (split, small) = maps(&dir);
    let rph = dir.join("small.rph");
    let (code, b, _) = run_json(
        bin()
            .arg("build")
            .arg(&small)
            .arg("-o")
            .arg(&rph)
            .arg("--json"),
    );
    assert_eq!(code, 0);
    let bytes = std::fs::read(&rph).unwrap();

    let (code, v, _) = run_json(bin().arg("inspect").arg(&rph).arg("--json"));
    assert_eq!(code, 0);
    for key in [
        "regions",
        "edges",
        "sector_size",
        "sectors",
        "landmarks",
        "portal_layer",
    ] {
        assert_eq!(v[key], b[key], "{key}: {v} vs {b}");
    }
    assert_eq!(v["levels"], 1);
    assert_eq!(v["format_version"], 10);
    assert_eq!(v["file_bytes"].as_u64(), Some(bytes.len() as u64));
    let parts: u64 = v["parts"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_u64().unwrap())
        .sum();
    assert_eq!(parts, bytes.len() as u64, "parts add up to the file");
    assert!(v.get("clusters").is_none());
    // With the map: clusters and memory from the loaded hierarchy.
    let (code, v, _) = run_json(
        bin()
            .arg("inspect")
            .arg(&rph)
            .arg("--map")
            .arg(&small)
            .arg("--json"),
    );
    assert_eq!(code, 0);
    assert_eq!(v["clusters"], b["clusters"]);
    // (Bytes held after a load may differ from after the build: the file
    // does not keep the build's allocations.)
    assert!(v["memory_bytes"].as_u64().unwrap() > 0);
    let (code, out, _) = run(bin().arg("inspect").arg(&rph));
    assert_eq!(code, 0);
    assert!(
        out.contains("format version 10")
            && out.contains("portal layer:")
            && out.contains("derived tables"),
        "{out}"
    );

    // Stale: another map of another size.
    let (code, v, _) = run_json(
        bin()
            .arg("inspect")
            .arg(&rph)
            .arg("--map")
            .arg(&split)
            .arg("--json"),
    );
    assert_eq!(code, 2);
    assert!(v["error"].as_str().unwrap().contains("another map"), "{v}");
    // Foreign, truncated, corrupted (one payload byte flipped).
    let foreign = dir.join("foreign.rph");
    std::fs::write(&foreign, b"\x89PNG\r\n\x1a\n not a hierarchy").unwrap();
    let cut = dir.join("cut.rph");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let flipped = dir.join("flipped.rph");
    let mut f = bytes.clone();
    let last = f.len() - 3;
    f[last] ^= 0x40;
    std::fs::write(&flipped, &f).unwrap();
    for (file, word) in [
        (&foreign, "not a regionpath hierarchy"),
        (&cut, "truncated"),
        (&flipped, "checksum mismatch"),
        (&dir.join("none.rph"), "cannot read"),
    ] {
        let (code, v, _) = run_json(bin().arg("inspect").arg(file).arg("--json"));
        assert_eq!(code, 2);
        let e = v["error"].as_str().unwrap();
        assert!(
            e.contains(word) && e.contains(file.file_name().unwrap().to_str().unwrap()),
            "{e}"
        );
        let (code, _, err) = run(bin().arg("inspect").arg(file));
        assert_eq!(code, 2);
        assert!(err.contains(word), "{err}");
    }
}

#[test]
fn scen_reports_radius_and_defaults_to_the_hierarchical_planner() {
    let scen = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/rooms-512.map.scen");
    let (code, v, _) = run_json(bin().arg("scen").arg(&scen).args([
        "--every", "20", "--smooth", "--radius", "0.4", "--json", "--quiet",
    ]));
    assert_eq!(code, 0, "{v}");
    let algos = v["algos"].as_object().unwrap();
    assert_eq!(algos.keys().collect::<Vec<_>>(), ["hierarchical"]);
    let h = &v["algos"]["hierarchical"];
    assert_eq!(h["smooth_invalid"], 0);
    assert!(h["narrow_segments"].is_number(), "{h}");
    let (code, _, err) = run(bin().arg("scen").arg(&scen).args(["--radius", "1"]));
    assert_eq!(code, 2, "--radius needs --smooth: {err}");
}

#[test]
fn generate_json_names_its_files() {
    let dir = scratch("generate");
    let map = dir.join("g.map");
    let scen = dir.join("g.map.scen");
    let (code, v, _) = run_json(
        bin()
            .args([
                "generate", "--kind", "caves", "--width", "40", "--height", "30", "--seed", "3",
                "--json", "-o",
            ])
            .arg(&map)
            .arg("--scen")
            .arg(&scen)
            .args(["--rows", "5"]),
    );
    assert_eq!(code, 0);
    assert_eq!(
        (
            v["width"].as_u64(),
            v["height"].as_u64(),
            v["rows"].as_u64()
        ),
        (Some(40), Some(30), Some(5))
    );
    let text = std::fs::read_to_string(&map).unwrap();
    let passable = text
        .lines()
        .skip(4)
        .flat_map(|l| l.chars())
        .filter(|&c| c == '.')
        .count();
    assert_eq!(v["passable"].as_u64(), Some(passable as u64));
    assert_eq!(std::fs::read_to_string(&scen).unwrap().lines().count(), 6);
}

/// The cells of `path --json` for a query.
fn path_cells(map: &Path, from: &str, to: &str) -> Vec<(u32, u32)> {
    let (code, v, _) = run_json(
        bin()
            .arg("path")
            .arg(map)
            .args(["--from", from, "--to", to, "--json"]),
    );
    assert_eq!(code, 0);
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect()
}

const PATH_RGB: [u8; 3] = [220, 20, 20];

#[test]
fn render_draws_the_path_on_its_cells_at_every_scale() {
    let dir = scratch("render");
    let map = dir.join("g.map");
    let (code, _, err) = run(bin()
        .args([
            "generate", "--kind", "rooms", "--width", "90", "--height", "60", "--seed", "5", "-o",
        ])
        .arg(&map));
    assert_eq!(code, 0, "{err}");
    let (a, b) = ((2u32, 2u32), (86u32, 56u32));
    let (from, to) = (format!("{},{}", a.0, a.1), format!("{},{}", b.0, b.1));
    let cells: std::collections::HashSet<(u32, u32)> =
        path_cells(&map, &from, &to).into_iter().collect();
    assert!(cells.contains(&a) && cells.contains(&b));
    let query = format!("{from},{to}");
    for (scale, up, down) in [
        ("4", 4u32, 1u32),
        ("1", 1, 1),
        ("0.5", 1, 2),
        ("0.25", 1, 4),
    ] {
        let png = dir.join(format!("g-{scale}.png"));
        let (code, v, _) = run_json(
            bin()
                .arg("render")
                .arg(&map)
                .args([
                    "--path",
                    &query,
                    "--layers",
                    "regions,sectors,path",
                    "--scale",
                    scale,
                    "--json",
                    "-o",
                ])
                .arg(&png),
        );
        assert_eq!(code, 0, "{v}");
        let img = image::open(&png).unwrap().to_rgb8();
        let (pw, ph) = ((90 * up).div_ceil(down), (60 * up).div_ceil(down));
        assert_eq!(img.width(), pw, "scale {scale}");
        assert!(
            img.height() > ph && img.height() <= ph + 40,
            "scale {scale}"
        );
        assert_eq!(
            (v["width"].as_u64(), v["height"].as_u64()),
            (Some(pw.into()), Some(img.height().into()))
        );
        // The pixels holding path cells, computed from the cells alone.
        let want: std::collections::HashSet<(u32, u32)> = cells
            .iter()
            .flat_map(|&(x, y)| {
                let block: Vec<(u32, u32)> = if up > 1 {
                    // The cell's centre pixel at least.
                    vec![(x * up + up / 2, y * up + up / 2)]
                } else {
                    vec![(x / down, y / down)]
                };
                block
            })
            .collect();
        let mut red = 0;
        for (px, py, c) in img.enumerate_pixels() {
            if py >= ph || c.0 != PATH_RGB {
                continue;
            }
            red += 1;
            let cell = (px * down / up, py * down / up);
            let on_path = if down > 1 {
                (0..down).any(|dy| (0..down).any(|dx| cells.contains(&(cell.0 + dx, cell.1 + dy))))
            } else {
                cells.contains(&cell)
            };
            assert!(
                on_path,
                "scale {scale}: path pixel ({px}, {py}) is off the path"
            );
        }
        for &(px, py) in &want {
            assert_eq!(
                img.get_pixel(px, py).0,
                PATH_RGB,
                "scale {scale}: ({px}, {py}) not drawn"
            );
        }
        assert!(red >= want.len());
    }
    // Unreachable: exit 1, the image still written; blocked endpoint: 2.
    let split = dir.join("split.map");
    std::fs::write(
        &split,
        "type octile\nheight 3\nwidth 6\nmap\n..@...\n..@...\n..@...\n",
    )
    .unwrap();
    let (code, v, _) = run_json(
        bin()
            .arg("render")
            .arg(&split)
            .args(["--path", "0,0,5,2", "--json", "-o"])
            .arg(dir.join("s.png")),
    );
    assert_eq!(code, 1);
    assert_eq!(v["paths"][0]["found"], false);
    assert!(dir.join("s.png").exists());
    let (code, v, _) = run_json(
        bin()
            .arg("render")
            .arg(&split)
            .args(["--path", "2,0,5,2", "--json", "-o"])
            .arg(dir.join("s.png")),
    );
    assert_eq!(code, 2);
    assert!(v["error"].as_str().unwrap().contains("blocked"), "{v}");
    // An output that cannot be written.
    let (code, v, _) = run_json(
        bin()
            .arg("render")
            .arg(&split)
            .arg("--json")
            .arg("-o")
            .arg(dir.join("no/such/dir.png")),
    );
    assert_eq!(code, 2);
    assert!(v["error"].as_str().unwrap().contains("cannot write"), "{v}");
}

/// `path --turning-radius R --radius r --json` in the vehicle mode prints
/// the curve's pieces and samples; checked here against the map: samples
/// at most 0.25 cells apart, each disc of radius r clear of blocked cells,
/// the ends at the cell centres with the asked headings.
#[test]
fn path_prints_a_vehicle_curve_with_pieces_and_samples() {
    let dir = scratch("vehicle");
    let map = dir.join("wall.map");
    let mut text = String::from("type octile\nheight 20\nwidth 30\nmap\n");
    let mut blocked = Vec::new();
    for y in 0..20 {
        for x in 0..30 {
            let wall = (14..16).contains(&x) && y >= 5;
            text.push(if wall { '@' } else { '.' });
            if wall {
                blocked.push((x as f64, y as f64));
            }
        }
        text.push('\n');
    }
    std::fs::write(&map, text).unwrap();
    let (code, v, _) = run_json(bin().arg("path").arg(&map).args([
        "--from",
        "5,15",
        "--to",
        "25,15",
        "--turning-radius",
        "2",
        "--radius",
        "0.4",
        "--heading",
        "180",
        "--goal-heading",
        "90",
        "--headings",
        "8",
        "--json",
    ]));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["found"], true);
    assert_eq!(v["vehicle"], true);
    let length = v["length"].as_f64().unwrap();
    let pieces = v["pieces"].as_array().unwrap();
    let sum: f64 = pieces.iter().map(|p| p["length"].as_f64().unwrap()).sum();
    assert!((sum - length).abs() < 1e-3, "{sum} vs {length}");
    for p in pieces {
        if p["type"] == "arc" {
            assert!(p["radius"].as_f64().unwrap() >= 2.0 - 1e-4, "{p}");
        }
    }
    let samples = v["samples"].as_array().unwrap();
    let at = |i: usize, k: &str| samples[i][k].as_f64().unwrap();
    for (i, sample) in samples.iter().enumerate() {
        if i > 0 {
            assert!(at(i, "s") - at(i - 1, "s") <= 0.25 + 1e-6);
        }
        let (x, y) = (at(i, "x"), at(i, "y"));
        for &(bx, by) in &blocked {
            let dx = (bx - x).max(x - (bx + 1.0)).max(0.0);
            let dy = (by - y).max(y - (by + 1.0)).max(0.0);
            assert!(
                dx.hypot(dy) > 0.4 - 1e-5,
                "sample {i} ({x}, {y}) touches ({bx}, {by})"
            );
        }
        // 8 sprite angles.
        assert!((at(i, "heading") / 45.0).fract().abs() < 1e-4, "{}", sample);
    }
    let last = samples.len() - 1;
    assert!((at(0, "x") - 5.5).abs() < 1e-3 && (at(0, "y") - 15.5).abs() < 1e-3);
    assert!((at(last, "x") - 25.5).abs() < 1e-3 && (at(last, "y") - 15.5).abs() < 1e-3);
    assert!((at(last, "s") - length).abs() < 1e-3);
    assert_eq!(at(0, "heading"), 180.0);
    assert_eq!(at(last, "heading"), 90.0);
}

/// `scen --turning-radius` reports the curve keys, with no invalid curve;
/// `--csv` gives each row's curve length, time and stage, which agree with
/// the summary's counts.
#[test]
fn scen_reports_vehicle_curves() {
    let scen = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/rooms-512.map.scen");
    let dir = scratch("curve-csv");
    let csv = dir.join("rows.csv");
    let (code, v, _) = run_json(bin().arg("scen").arg(&scen).arg("--csv").arg(&csv).args([
        "--every",
        "40",
        "--smooth",
        "--radius",
        "0.4",
        "--turning-radius",
        "2",
        "--json",
        "--quiet",
    ]));
    assert_eq!(code, 0, "{v}");
    let h = &v["algos"]["hierarchical"];
    assert_eq!(h["curve_invalid"], 0, "{h}");
    let solved = h["curve_solved"].as_u64().unwrap();
    let failed = h["curve_failed"].as_u64().unwrap();
    assert!(
        solved > 0 && solved + failed <= h["solved"].as_u64().unwrap(),
        "{h}"
    );
    assert!(h["mean_curve_ratio"].as_f64().unwrap() >= 0.999, "{h}");
    assert!(
        h["mean_curve_us"].is_number() && h["p99_curve_us"].is_number(),
        "{h}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[13..], &["curve_length", "curve_us", "curve_stage"]);
    let (mut with_length, mut failed_rows) = (0u64, 0u64);
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 16, "{line}");
        if f[9].is_empty() {
            // No smoothed path, no curve.
            assert!(f[13..].iter().all(|c| c.is_empty()), "{line}");
            continue;
        }
        assert!(f[14].parse::<f64>().is_ok_and(|us| us >= 0.0), "{line}");
        let stages = ["rounded", "repaired", "wide_path", "whole_box", "failed"];
        assert!(stages.contains(&f[15]), "{line}");
        if f[15] == "failed" {
            failed_rows += 1;
            assert!(f[13].is_empty(), "{line}");
        } else {
            assert!(f[13].parse::<f64>().is_ok_and(|l| l > 0.0), "{line}");
            with_length += 1;
        }
    }
    assert_eq!((with_length, failed_rows), (solved, failed), "{h}");
}

/// `path --reverse` out of a one-cell dead end, facing into it: without
/// `--reverse` no legal curve (exit code 3); with it, every sample is
/// flagged `"reverse": true` and carries the body's heading (0°, facing
/// the dead end) while its positions move towards −x, and the pieces are
/// flagged too. A penalty below 1 is a usage error.
#[test]
fn path_reverse_backs_out_with_body_headings() {
    let dir = scratch("reverse");
    let map = dir.join("bay.map");
    let mut text = String::from("type octile\nheight 11\nwidth 32\nmap\n");
    for y in 0..11 {
        for x in 0..32 {
            text.push(if y == 5 && (1..21).contains(&x) {
                '.'
            } else {
                '@'
            });
        }
        text.push('\n');
    }
    std::fs::write(&map, text).unwrap();
    let args = [
        "--from",
        "15,5",
        "--to",
        "4,5",
        "--turning-radius",
        "2",
        "--radius",
        "0.4",
        "--heading",
        "0",
        "--json",
    ];
    let (code, v, _) = run_json(bin().arg("path").arg(&map).args(args));
    assert_eq!(code, 3, "{v}");
    let (code, v, _) = run_json(bin().arg("path").arg(&map).args(args).arg("--reverse"));
    assert_eq!(code, 0, "{v}");
    let samples = v["samples"].as_array().unwrap();
    assert!(samples.len() > 40, "{v}");
    for (i, s) in samples.iter().enumerate() {
        assert_eq!(s["reverse"], true, "{s}");
        let h = s["heading"].as_f64().unwrap();
        assert!(!(1e-3..=360.0 - 1e-3).contains(&h), "{s}");
        if i > 0 {
            assert!(s["x"].as_f64().unwrap() < samples[i - 1]["x"].as_f64().unwrap());
        }
    }
    assert!(v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["reverse"] == true));
    let (code, v, _) = run_json(bin().arg("path").arg(&map).args(args).args([
        "--reverse",
        "--reverse-penalty",
        "0.5",
    ]));
    assert_ne!(code, 0, "{v}");
}
