//! Movement profiles on the command line: profile files with errors, the
//! bundled terrain maps and their scenario files under `scen --profile`,
//! `scen --paths`, and `generate --terrain --profile`. Paths and costs are
//! checked by `regionpath_testkit::profiled` (a validator and a Dijkstra
//! written from the rules alone), never by the command's own checks.

use regionpath::grid::{parse_map, parse_scen, Grid, Point, Profile, Scenario};
use regionpath_testkit::profiled::{check_weighted_path, weighted_distance};
use std::path::{Path, PathBuf};

mod common;

use common::{bin, run};

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> common::Scratch {
    common::scratch("cli-profiles", test)
}

fn maps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

fn load_map(path: &Path) -> Grid {
    parse_map(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn load_scen(path: &Path) -> Scenario {
    parse_scen(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The lines of a `--paths` file: (row, algorithm, positions).
fn parse_paths(text: &str) -> Vec<(usize, String, Vec<Point>)> {
    text.lines()
        .map(|line| {
            let mut words = line.split(' ');
            let row = words.next().unwrap().parse().unwrap();
            let algo = words.next().unwrap().to_string();
            let cells = words
                .map(|w| {
                    let (x, y) = w.split_once(',').unwrap();
                    Point::new(x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            (row, algo, cells)
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn bad_profiles_name_the_file_line_and_field_and_exit_2() {
    let dir = scratch("bad");
    let map = maps().join("terrain/terrain-caves-256.map");
    let scen = maps().join("terrain/terrain-caves-256.infantry.scen");
    // (file text, line, field)
    let cases = [
        ("name = \"a\"\nspeed = 3\n[cost]\n\".\" = 1\n", 2, "speed"),
        ("name = \"a\"\n[cost]\n\".\" = 1\nS = 0\n", 4, "cost.S"),
        ("name = \"a\"\n[cost]\n\".\" = -2\n", 3, "cost.."),
        ("name = \"a\"\nsize = 0\n[cost]\n\".\" = 1\n", 2, "size"),
        ("name = \"a\"\nsize = 100\n[cost]\n\".\" = 1\n", 2, "size"),
        ("name = \"a\"\n\n[cost]\n", 3, "cost"),
    ];
    for (i, (text, line, field)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{i}.toml"));
        std::fs::write(&file, text).unwrap();
        let f = file.to_str().unwrap();
        let m = map.to_str().unwrap();
        let s = scen.to_str().unwrap();
        let commands: [Vec<&str>; 4] = [
            vec!["scen", s, "--algo", "astar", "-q", "--profile", f],
            vec![
                "path",
                m,
                "--from",
                "1,1",
                "--to",
                "2,2",
                "--algo",
                "astar",
                "--profile",
                f,
            ],
            vec!["build", m, "--profile", f],
            vec![
                "generate",
                "--kind",
                "caves",
                "--width",
                "32",
                "--height",
                "32",
                "--seed",
                "1",
                "-o",
                "/nonexistent/x.map",
                "--scen",
                "/nonexistent/x.scen",
                "--profile",
                f,
            ],
        ];
        for args in commands {
            let (code, out, err) = run(bin().args(&args));
            assert_eq!(code, 2, "{args:?}\n{out}{err}");
            assert!(
                err.contains(f)
                    && err.contains(&format!("line {line},"))
                    && err.contains(&format!("field `{field}`")),
                "{args:?}: {err}"
            );
            let (code, out, _) = run(bin().args(&args).arg("--json"));
            assert_eq!(code, 2);
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["status"], "bad_input");
            assert_eq!(v["file"], f);
            assert_eq!(v["line"], *line);
            assert_eq!(v["field"], *field);
            assert!(v["column"].as_u64().unwrap() >= 1);
        }
    }
    // A missing file is bad input too, and named.
    let missing = dir.join("missing.toml");
    let (code, _, err) = run(bin()
        .args([
            "scen",
            scen.to_str().unwrap(),
            "--algo",
            "astar",
            "--profile",
        ])
        .arg(&missing));
    assert_eq!(code, 2);
    assert!(err.contains("missing.toml"), "{err}");
}

/// The hierarchical planner takes a profile in place or from a hierarchy
/// file, which records it: the file is refused without it or for another.
#[test]
fn hierarchical_uses_of_a_profile_build_in_place_and_refuse_files() {
    let map = maps().join("terrain/terrain-caves-256.map");
    let scen_path = maps().join("terrain/terrain-caves-256.tank.scen");
    let tank = maps().join("profiles/tank.toml");
    let profile = Profile::read(&tank).unwrap();
    let grid = load_map(&map);
    let row = &load_scen(&scen_path).rows[0];
    let (m, t) = (map.to_str().unwrap(), tank.to_str().unwrap());
    let (from, to) = (
        format!("{},{}", row.start.x, row.start.y),
        format!("{},{}", row.goal.x, row.goal.y),
    );
    let (code, out, err) = run(bin().args(["build", m, "--json", "-q", "--profile", t]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["regions"].as_u64().unwrap() > 0, "{v}");
    let (code, out, err) = run(bin().args([
        "path",
        m,
        "--json",
        "--from",
        &from,
        "--to",
        &to,
        "--profile",
        t,
    ]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let cells: Vec<Point> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Point::new(c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect();
    let cost = check_weighted_path(&grid, &profile, &cells, row.start, row.goal).unwrap();
    assert!(
        cost >= row.optimal * (1.0 - 1e-6),
        "{cost} below {}",
        row.optimal
    );
    // A hierarchy file records its profile: written by `build -o`, read
    // by `path --hierarchy` for that profile only.
    let dir = scratch("profile-files");
    let rph = dir.join("caves.rph");
    let r = rph.to_str().unwrap();
    let (code, _, err) = run(bin().args(["build", m, "--profile", t, "-o", r, "-q"]));
    assert_eq!(code, 0, "{err}");
    let path_args = |profile: Option<&str>| {
        let mut a = vec![
            "path",
            m,
            "--json",
            "--from",
            &from,
            "--to",
            &to,
            "--hierarchy",
            r,
        ];
        if let Some(p) = profile {
            a.extend(["--profile", p]);
        }
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let (code, out, err) = run(bin().args(path_args(Some(t))));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let loaded: Vec<Point> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Point::new(c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect();
    check_weighted_path(&grid, &profile, &loaded, row.start, row.goal).unwrap();
    let infantry = maps().join("profiles/infantry.toml");
    for args in [path_args(None), path_args(Some(infantry.to_str().unwrap()))] {
        // With --json the error is the JSON object on stdout.
        let (code, out, err) = run(bin().args(&args));
        assert_eq!(code, 2, "{args:?}");
        assert!(
            out.contains("hierarchy file was built for"),
            "{args:?}: {out}{err}"
        );
    }
}

/// `scen --profile --algo astar --paths` on every bundled terrain scenario:
/// no invalid or wrong row, and every written path, checked by the
/// testkit's validator, costs the row's optimum; on every 25th row the
/// optimum is also the testkit Dijkstra's.
#[test]
fn bundled_terrain_scenarios_pass_under_their_profiles() {
    let dir = scratch("bundled");
    for map_name in ["terrain-caves-256", "terrain-rooms-512"] {
        let grid = load_map(&maps().join(format!("terrain/{map_name}.map")));
        for kind in ['W', 'S', 'T', '='] {
            assert!(
                grid.terrain_kinds().iter().any(|t| t.to_char() == kind),
                "{map_name} has no {kind}"
            );
        }
        for profile_name in ["infantry", "tank", "boat"] {
            let scen_path = maps().join(format!("terrain/{map_name}.{profile_name}.scen"));
            let profile_path = maps().join(format!("profiles/{profile_name}.toml"));
            let profile = Profile::read(&profile_path).unwrap();
            let scen = load_scen(&scen_path);
            let paths = dir.join(format!("{map_name}.{profile_name}.paths"));
            let (code, out, err) = run(bin()
                .args(["scen", "--algo", "both", "--json", "-q", "--profile"])
                .arg(&profile_path)
                .arg("--paths")
                .arg(&paths)
                .arg(&scen_path));
            assert_eq!(code, 0, "{map_name} {profile_name}: {err}");
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            for algo in ["astar", "hierarchical"] {
                let a = &v["algos"][algo];
                assert_eq!(a["invalid"], 0, "{algo}");
                assert_eq!(a["wrong"], 0, "{algo}");
                assert_eq!(a["solved"], scen.rows.len(), "{algo}");
            }
            let lines = parse_paths(&std::fs::read_to_string(&paths).unwrap());
            assert_eq!(lines.len(), 2 * scen.rows.len());
            for (row, algo, cells) in &lines {
                let r = &scen.rows[*row];
                let cost = check_weighted_path(&grid, &profile, cells, r.start, r.goal)
                    .unwrap_or_else(|e| panic!("{map_name} {profile_name} {algo} row {row}: {e}"));
                assert!(
                    cost >= r.optimal * (1.0 - 1e-6),
                    "{algo} row {row} below the optimum"
                );
            }
            let astar = lines.iter().filter(|l| l.1 == "astar");
            for (i, (row, algo, cells)) in astar.enumerate() {
                assert_eq!((*row, algo.as_str()), (i, "astar"));
                let r = &scen.rows[*row];
                let cost = check_weighted_path(&grid, &profile, cells, r.start, r.goal)
                    .unwrap_or_else(|e| panic!("{map_name} {profile_name} row {row}: {e}"));
                assert!(
                    close(cost, r.optimal),
                    "{map_name} {profile_name} row {row}: path costs {cost}, row says {}",
                    r.optimal
                );
                if row % 25 == 0 {
                    let d = weighted_distance(&grid, &profile, r.start, r.goal).unwrap();
                    assert!(
                        close(d, r.optimal),
                        "row {row}: Dijkstra {d}, row {}",
                        r.optimal
                    );
                }
            }
        }
    }
}

/// Tampering with a row's optimum or a map cell is caught by the runner.
#[test]
fn scen_profile_reports_a_wrong_optimum_and_an_unusable_endpoint() {
    let dir = scratch("tamper");
    let map = maps().join("terrain/terrain-caves-256.map");
    std::fs::copy(&map, dir.join("terrain-caves-256.map")).unwrap();
    let scen = load_scen(&maps().join("terrain/terrain-caves-256.infantry.scen"));
    let r = &scen.rows[scen.rows.len() / 2];
    let row = |optimal: f64| {
        format!(
            "version 1\n{}\tterrain-caves-256.map\t256\t256\t{}\t{}\t{}\t{}\t{optimal:.8}\n",
            r.bucket, r.start.x, r.start.y, r.goal.x, r.goal.y
        )
    };
    let infantry = maps().join("profiles/infantry.toml");
    let file = dir.join("t.scen");
    std::fs::write(&file, row(r.optimal)).unwrap();
    let args = |f: &Path| {
        let mut c = bin();
        c.args(["scen", "--algo", "astar", "-q", "--profile"])
            .arg(&infantry)
            .arg(f);
        c
    };
    assert_eq!(run(&mut args(&file)).0, 0);
    // Off by a relative 1e-5: wrong (exit 3).
    std::fs::write(&file, row(r.optimal * (1.0 + 1e-5))).unwrap();
    let (code, out, _) = run(&mut args(&file));
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("1 wrong"), "{out}");
    // The boat cannot stand on the infantry's start.
    std::fs::write(&file, row(r.optimal)).unwrap();
    let (code, _, err) = run(bin()
        .args(["scen", "--algo", "astar", "-q", "--profile"])
        .arg(maps().join("profiles/boat.toml"))
        .arg(&file));
    assert_eq!(code, 2);
    assert!(
        err.contains("not a usable position") && err.contains("`boat`"),
        "{err}"
    );
}

/// `--paths` without a profile writes one line per row and planner for
/// every planner run; each path is legal under the default rules and as
/// long as the CSV says.
#[test]
fn paths_file_has_a_line_per_row_and_planner() {
    let dir = scratch("paths");
    let scen_path = maps().join("caves-256.map.scen");
    let scen = load_scen(&scen_path);
    let grid = load_map(&maps().join("caves-256.map"));
    let paths = dir.join("all.paths");
    let csv = dir.join("all.csv");
    let (code, _, err) = run(bin()
        .args(["scen", "--algo", "all", "--every", "10", "-q", "--paths"])
        .arg(&paths)
        .arg("--csv")
        .arg(&csv)
        .arg(&scen_path));
    assert_eq!(code, 0, "{err}");
    let lines = parse_paths(&std::fs::read_to_string(&paths).unwrap());
    let rows: Vec<usize> = (0..scen.rows.len()).step_by(10).collect();
    assert_eq!(lines.len(), rows.len() * 3);
    // CSV: file,row,algo,sx,sy,gx,gy,optimal,length,...
    let csv = std::fs::read_to_string(&csv).unwrap();
    let csv_rows: Vec<Vec<String>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    assert_eq!(csv_rows.len(), lines.len());
    let default = Profile::default();
    for ((row, algo, cells), c) in lines.iter().zip(&csv_rows) {
        assert_eq!(c[1], row.to_string());
        assert_eq!(&c[2], algo);
        assert!(rows.contains(row));
        let r = &scen.rows[*row];
        let cost = check_weighted_path(&grid, &default, cells, r.start, r.goal).unwrap();
        let csv_length: f64 = c[8].parse().unwrap();
        assert!(
            close(cost, csv_length),
            "{row} {algo}: {cost} vs {csv_length}"
        );
    }
    for algo in ["astar", "jps", "hierarchical"] {
        assert_eq!(
            lines.iter().filter(|l| l.1 == algo).count(),
            rows.len(),
            "{algo}"
        );
    }
}

/// A row without a path gets a line with no positions, for each planner;
/// under a profile too (the boat's lake is split by a wall).
#[test]
fn unreachable_rows_have_lines_without_positions() {
    let dir = scratch("unreachable");
    std::fs::write(
        dir.join("two.map"),
        "type octile\nheight 3\nwidth 7\nmap\n...@WWW\n...@WWW\n...@WWW\n",
    )
    .unwrap();
    let boat = dir.join("boat.toml");
    std::fs::write(&boat, "name = \"boat\"\n[cost]\nW = 1\n\".\" = 2\n").unwrap();
    // Under the default rules the three ground columns are the only
    // passable cells: every row has a path, for both planners.
    std::fs::write(
        dir.join("default.scen"),
        "version 1\n0\ttwo.map\t7\t3\t0\t0\t2\t2\t2.82842712\n\
         0\ttwo.map\t7\t3\t0\t0\t1\t0\t1.00000000\n\
         0\ttwo.map\t7\t3\t0\t0\t0\t2\t2.00000000\n",
    )
    .unwrap();
    let paths = dir.join("p.paths");
    let (code, _, err) = run(bin()
        .args(["scen", "--algo", "both", "-q", "--paths"])
        .arg(&paths)
        .arg(dir.join("default.scen")));
    assert_eq!(code, 0, "{err}");
    let lines = parse_paths(&std::fs::read_to_string(&paths).unwrap());
    assert_eq!(lines.len(), 6);
    // This boat also crosses ground, at 2 a cell: (0,0) -> (2,0) costs 4.
    std::fs::write(
        dir.join("walled.scen"),
        "version 1\n1\ttwo.map\t7\t3\t0\t0\t2\t0\t4.00000000\n",
    )
    .unwrap();
    let (code, _, err) = run(bin()
        .args(["scen", "--algo", "astar", "-q", "--paths"])
        .arg(&paths)
        .arg("--profile")
        .arg(&boat)
        .arg(dir.join("walled.scen")));
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&paths).unwrap();
    assert_eq!(text, "0 astar 0,0 1,0 2,0\n");
    // The water behind the wall column: no path (Moving AI's length 0).
    std::fs::write(
        dir.join("cut.scen"),
        "version 1\n0\ttwo.map\t7\t3\t0\t0\t5\t1\t0\n",
    )
    .unwrap();
    let (code, out, err) = run(bin()
        .args(["scen", "--algo", "astar", "-q", "--paths"])
        .arg(&paths)
        .arg("--profile")
        .arg(&boat)
        .arg(dir.join("cut.scen")));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(std::fs::read_to_string(&paths).unwrap(), "0 astar\n");
}

/// `generate --terrain --profile` rows: usable ends, and optimal lengths
/// equal to the testkit Dijkstra's under the profile (a bundled profile
/// and a 3-wide one).
#[test]
fn generated_rows_match_the_testkit_dijkstra_under_the_profile() {
    let dir = scratch("generate");
    let wide = dir.join("wide.toml");
    std::fs::write(
        &wide,
        "name = \"wide\"\nsize = 3\n[cost]\n\".\" = 1\n\"=\" = 0.25\nT = 7.5\nS = 2\n",
    )
    .unwrap();
    let cases = [
        (maps().join("profiles/infantry.toml"), "rooms"),
        (maps().join("profiles/tank.toml"), "caves"),
        (wide, "caves"),
    ];
    for (profile_path, kind) in cases {
        let profile = Profile::read(&profile_path).unwrap();
        let map = dir.join(format!("{}.map", profile.name()));
        let scen_path = dir.join(format!("{}.scen", profile.name()));
        let (code, _, err) = run(bin()
            .args([
                "generate", "--kind", kind, "--width", "72", "--height", "64",
            ])
            .args(["--seed", "5", "--terrain", "--rows", "30", "-q", "-o"])
            .arg(&map)
            .arg("--scen")
            .arg(&scen_path)
            .arg("--profile")
            .arg(&profile_path));
        assert_eq!(code, 0, "{err}");
        let grid = load_map(&map);
        let scen = load_scen(&scen_path);
        assert_eq!(scen.rows.len(), 30);
        for r in &scen.rows {
            let d = weighted_distance(&grid, &profile, r.start, r.goal)
                .unwrap_or_else(|| panic!("{}: {r:?} unreachable", profile.name()));
            assert!(
                close(d, r.optimal),
                "{}: {:?} -> {:?}: Dijkstra {d}, row {}",
                profile.name(),
                r.start,
                r.goal,
                r.optimal
            );
            assert_eq!(u64::from(r.bucket), (r.optimal / 4.0).floor() as u64);
        }
    }
}

/// `path --profile tank.toml --turning-radius 2 --radius 0.9 --json` on the
/// bundled rooms terrain map: the vehicle mode gives a curve for the size-2
/// tank, checked here from the JSON pieces against the map's terrain and
/// the profile's prices: sampled every 0.1 cells at most, each disc of
/// radius 0.9 clear of every cell the tank may not enter and of the map's
/// outline; arcs of radius 2 at least; pieces joined, heading continuous;
/// the ends at the footprint centres of the row's start and goal.
#[test]
fn a_tank_gets_a_vehicle_curve_on_the_rooms_terrain_map() {
    let map = maps().join("terrain/terrain-rooms-512.map");
    let tank_file = maps().join("profiles/tank.toml");
    let grid = load_map(&map);
    let tank = Profile::read(&tank_file).unwrap();
    // A row of the tank's scenario: about 315 cells of curve with dozens
    // of turns.
    let scen = load_scen(&maps().join("terrain/terrain-rooms-512.tank.scen"));
    let row = scen
        .rows
        .iter()
        .find(|r| r.start == Point::new(430, 33))
        .unwrap();
    let (s, g) = (row.start, row.goal);
    assert_eq!(g, Point::new(329, 43));
    let (big_r, r) = (2.0f64, 0.9f64);
    let (code, out, err) = run(bin()
        .arg("path")
        .arg(&map)
        .arg("--profile")
        .arg(&tank_file)
        .args(["--from", &format!("{},{}", s.x, s.y)])
        .args(["--to", &format!("{},{}", g.x, g.y)])
        .args(["--turning-radius", "2", "--radius", "0.9", "--json"]));
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["found"], true);
    assert_eq!(v["vehicle"], true);
    // Coordinates are the curve's f32 values: read back exactly.
    let f = |x: &serde_json::Value| x.as_f64().unwrap() as f32 as f64;
    let pt = |x: &serde_json::Value| (f(&x[0]), f(&x[1]));
    // Each piece as a function of the distance travelled along it:
    // position and heading (radians).
    let pieces = v["pieces"].as_array().unwrap();
    assert!(pieces.len() > 10, "{} pieces", pieces.len());
    type At = Box<dyn Fn(f64) -> ((f64, f64), f64)>;
    let mut walk: Vec<(f64, At)> = Vec::new();
    for p in pieces {
        assert!(p.get("reverse").is_none(), "{p}");
        if p["type"] == "line" {
            let (a, b) = (pt(&p["from"]), pt(&p["to"]));
            let len = (b.0 - a.0).hypot(b.1 - a.1);
            let heading = (b.1 - a.1).atan2(b.0 - a.0);
            let at = move |d: f64| {
                let t = if len > 0.0 {
                    (d / len).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                ((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)), heading)
            };
            walk.push((len, Box::new(at)));
        } else {
            let c = pt(&p["center"]);
            let rho = f(&p["radius"]);
            assert!(rho >= big_r - 1e-4, "arc of radius {rho}: {p}");
            let a0 = f(&p["start_angle"]).to_radians();
            let sweep = f(&p["sweep"]).to_radians();
            let len = rho * sweep.abs();
            let at = move |d: f64| {
                let t = if len > 0.0 {
                    (d / len).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let ang = a0 + sweep * t;
                let heading = ang + sweep.signum() * std::f64::consts::FRAC_PI_2;
                ((c.0 + rho * ang.cos(), c.1 + rho * ang.sin()), heading)
            };
            walk.push((len, Box::new(at)));
        }
    }
    let turn = |a: f64, b: f64| {
        let d = (a - b).rem_euclid(std::f64::consts::TAU);
        d.min(std::f64::consts::TAU - d)
    };
    for (i, w) in walk.windows(2).enumerate() {
        let ((e, he), (b, hb)) = ((w[0].1)(w[0].0), (w[1].1)(0.0));
        assert!(
            (e.0 - b.0).hypot(e.1 - b.1) <= 1e-3,
            "piece {} does not join",
            i + 1
        );
        assert!(turn(he, hb) <= 1e-3, "heading jumps at piece {}", i + 1);
    }
    // Clearance from the rules: a cell is an obstacle when its terrain has
    // no price for the tank.
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let obstacle = |x: i64, y: i64| {
        x < 0
            || y < 0
            || x >= w
            || y >= h
            || tank
                .cost(grid.terrain(Point::new(x as u32, y as u32)).unwrap())
                .is_none()
    };
    let clearance = |p: (f64, f64)| {
        let mut best = p.0.min(p.1).min(w as f64 - p.0).min(h as f64 - p.1);
        for y in (p.1 - r).floor() as i64 - 1..=(p.1 + r).ceil() as i64 + 1 {
            for x in (p.0 - r).floor() as i64 - 1..=(p.0 + r).ceil() as i64 + 1 {
                if obstacle(x, y) {
                    let dx = (x as f64 - p.0).max(p.0 - (x as f64 + 1.0)).max(0.0);
                    let dy = (y as f64 - p.1).max(p.1 - (y as f64 + 1.0)).max(0.0);
                    best = best.min(dx.hypot(dy));
                }
            }
        }
        best
    };
    let mut samples = 0;
    for (i, (len, at)) in walk.iter().enumerate() {
        let n = (len / 0.1).ceil().max(1.0) as usize;
        for j in 0..=n {
            let (p, _) = at(len * j as f64 / n as f64);
            let c = clearance(p);
            // f32 coordinates near 400: half an ulp is 1.5e-5.
            assert!(
                c > r - 1e-4,
                "piece {i}, sample {j} at {p:?}: clearance {c}"
            );
            samples += 1;
        }
    }
    let total: f64 = walk.iter().map(|(l, _)| l).sum();
    assert!((total - v["length"].as_f64().unwrap()).abs() < 1e-2);
    assert!(samples as f64 >= total / 0.1, "{samples} samples");
    // Ends: the footprint centres (x + 1, y + 1) of the size-2 tank.
    let (first, last) = (&walk[0], &walk[walk.len() - 1]);
    let (a, b) = ((first.1)(0.0).0, (last.1)(last.0).0);
    let (sa, sb) = (
        (s.x as f64 + 1.0, s.y as f64 + 1.0),
        (g.x as f64 + 1.0, g.y as f64 + 1.0),
    );
    assert!(
        (a.0 - sa.0).hypot(a.1 - sa.1) < 1e-3,
        "starts at {a:?}, not {sa:?}"
    );
    assert!(
        (b.0 - sb.0).hypot(b.1 - sb.1) < 1e-3,
        "ends at {b:?}, not {sb:?}"
    );
}

/// `scen --smooth` and `--turning-radius` under a profile: every smoothed
/// polyline and curve passes the command's profile checks (footprint,
/// priced terrain, no dearer than the path), and a unit radius wider than
/// half the profile's size is refused before anything runs.
#[test]
fn scen_smooths_and_curves_under_a_profile() {
    for (name, radius) in [("tank", "0.9"), ("infantry", "0.4")] {
        let profile = maps().join(format!("profiles/{name}.toml"));
        let scen_path = maps().join(format!("terrain/terrain-rooms-512.{name}.scen"));
        let rows = load_scen(&scen_path).rows.len().div_ceil(10);
        let (code, out, err) = run(bin()
            .args(["scen", "--json", "-q", "--every", "10", "--smooth"])
            .args(["--radius", radius, "--turning-radius", "2", "--profile"])
            .arg(&profile)
            .arg(&scen_path));
        assert_eq!(code, 0, "{name}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let a = &v["algos"]["hierarchical"];
        assert_eq!(a["solved"], rows, "{name}");
        assert_eq!(a["invalid"], 0, "{name}");
        assert_eq!(a["smooth_invalid"], 0, "{name}");
        assert_eq!(a["curve_invalid"], 0, "{name}");
        let solved = a["curve_solved"].as_u64().unwrap();
        assert!(
            solved as usize * 10 >= rows * 8,
            "{name}: {solved} of {rows} curves"
        );
        // Each polyline costs no more than its path (the command refuses
        // it otherwise), so the mean ratios to the optimum keep that order.
        let smoothed = a["mean_smoothed_ratio"].as_f64().unwrap();
        let path = 1.0 + a["mean_subopt"].as_f64().unwrap();
        assert!(smoothed <= path + 1e-6, "{name}: {smoothed} > {path}");
    }
    let (code, _, err) = run(bin()
        .args(["scen", "-q", "--smooth", "--radius", "0.6", "--profile"])
        .arg(maps().join("profiles/infantry.toml"))
        .arg(maps().join("terrain/terrain-rooms-512.infantry.scen")));
    assert_eq!(code, 2);
    assert!(err.contains("at most half the profile's size 1"), "{err}");
}
