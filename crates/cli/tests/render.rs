//! `regionpath render` on terrain maps: the terrain layer's colours read
//! back pixel by pixel against the map file's characters (read here from
//! the text, not through the library), shrunk pixels against the mean of
//! their cells, and `--profile`: paths checked by
//! `regionpath_testkit::profiled` (a validator and a Dijkstra written from
//! the profile rules alone), unusable positions drawn darker than their
//! terrain, bad profile and hierarchy files refused naming the file.

use regionpath::grid::{parse_map, Grid, Point, Profile};
use regionpath_testkit::profiled::{check_weighted_path, position_cost, weighted_distance};
use std::path::{Path, PathBuf};

mod common;

use common::{bin, run};

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> common::Scratch {
    common::scratch("cli-render", test)
}

fn maps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps")
}

fn caves() -> PathBuf {
    maps().join("terrain/terrain-caves-256.map")
}

/// The documented colours (crates/cli/README.md, `render`).
const GROUND: [u8; 3] = [232, 229, 214];
const SWAMP: [u8; 3] = [140, 140, 62];
const WATER: [u8; 3] = [66, 128, 214];
const FOREST: [u8; 3] = [52, 132, 64];
const ROAD: [u8; 3] = [184, 146, 98];
const BLOCKED: [u8; 3] = [35, 35, 40];
const PATH: [u8; 3] = [220, 20, 20];

/// The terrain layer's colour of a map character (the named kinds only).
fn colour_of(c: u8) -> [u8; 3] {
    match c {
        b'.' | b'G' => GROUND,
        b'S' => SWAMP,
        b'W' => WATER,
        b'T' => FOREST,
        b'=' => ROAD,
        b'@' | b'O' => BLOCKED,
        other => panic!("no documented colour for {}", other as char),
    }
}

/// The map's rows of characters, read from the text after the `map` line.
fn map_chars(path: &Path) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    for line in lines.by_ref() {
        if line.trim() == "map" {
            break;
        }
    }
    lines.map(|l| l.trim_end().as_bytes().to_vec()).collect()
}

/// Runs `render` with `--json`: exit code, the JSON object, the image.
fn render(args: &[&str], png: &Path) -> (i32, serde_json::Value, Option<image::RgbImage>) {
    let (code, out, err) = run(bin()
        .arg("render")
        .args(args)
        .arg("--json")
        .arg("-o")
        .arg(png));
    let v: serde_json::Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {out}\n{err}"));
    assert_eq!(v["exit_code"].as_i64(), Some(i64::from(code)), "{v}");
    let img = (code <= 1).then(|| image::open(png).unwrap().to_rgb8());
    (code, v, img)
}

fn positions(v: &serde_json::Value) -> Vec<Point> {
    v["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Point::new(c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect()
}

#[test]
fn terrain_layer_colours_every_cell_by_its_kind() {
    let dir = scratch("terrain");
    let map = caves();
    let chars = map_chars(&map);
    let (w, h) = (chars[0].len() as u32, chars.len() as u32);
    assert_eq!((w, h), (256, 256));
    // Default layers on a terrain map: terrain, not regions.
    let png = dir.join("default.png");
    let (code, v, _) = render(&[map.to_str().unwrap(), "--scale", "1"], &png);
    assert_eq!(code, 0, "{v}");
    let layers: Vec<&str> = v["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        layers.contains(&"terrain") && !layers.contains(&"regions"),
        "{v}"
    );

    let png = dir.join("terrain.png");
    let (code, v, img) = render(
        &[map.to_str().unwrap(), "--layers", "terrain", "--scale", "1"],
        &png,
    );
    assert_eq!(code, 0, "{v}");
    let img = img.unwrap();
    assert_eq!(img.width(), w);
    assert_eq!(v["map_height_px"].as_u64(), Some(u64::from(h)));
    // A few cells of each kind first, by name, then every cell.
    for (kind, want) in [(b'W', WATER), (b'@', BLOCKED), (b'=', ROAD), (b'S', SWAMP)] {
        let cells: Vec<(u32, u32)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| chars[y as usize][x as usize] == kind)
            .collect();
        assert!(cells.len() > 100, "{}", kind as char);
        for &(x, y) in cells.iter().step_by(cells.len() / 7) {
            assert_eq!(
                img.get_pixel(x, y).0,
                want,
                "{} cell ({x}, {y})",
                kind as char
            );
        }
    }
    for y in 0..h {
        for x in 0..w {
            let c = chars[y as usize][x as usize];
            assert_eq!(
                img.get_pixel(x, y).0,
                colour_of(c),
                "({x}, {y}) {}",
                c as char
            );
        }
    }
    // The legend names each kind present, and only those.
    let mut present: Vec<&str> = Vec::new();
    for (set, name) in [
        (&b".G"[..], "ground"),
        (b"S", "swamp"),
        (b"W", "water"),
        (b"T", "forest"),
        (b"=", "road"),
        (b"@O", "blocked"),
    ] {
        if chars.iter().flatten().any(|c| set.contains(c)) {
            present.push(name);
        }
    }
    let legend: Vec<(&str, Vec<u64>)> = v["legend"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let rgb = e["rgb"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap());
            (e["name"].as_str().unwrap(), rgb.collect())
        })
        .collect();
    let names: Vec<&str> = legend.iter().map(|e| e.0).collect();
    assert_eq!(names, present, "{v}");
    for (name, rgb) in &legend {
        let want = match *name {
            "ground" => GROUND,
            "swamp" => SWAMP,
            "water" => WATER,
            "forest" => FOREST,
            "road" => ROAD,
            _ => BLOCKED,
        };
        assert_eq!(rgb, &want.map(u64::from).to_vec(), "{name}");
    }

    // Shrunk: each pixel the mean (rounded down) of its 4x4 cells' colours.
    let png = dir.join("quarter.png");
    let (code, v, img) = render(
        &[
            map.to_str().unwrap(),
            "--layers",
            "terrain",
            "--scale",
            "0.25",
        ],
        &png,
    );
    assert_eq!(code, 0, "{v}");
    let img = img.unwrap();
    assert_eq!(img.width(), w / 4);
    for j in 0..h / 4 {
        for i in 0..w / 4 {
            let mut sum = [0u32; 3];
            for y in j * 4..j * 4 + 4 {
                for x in i * 4..i * 4 + 4 {
                    let c = colour_of(chars[y as usize][x as usize]);
                    for k in 0..3 {
                        sum[k] += u32::from(c[k]);
                    }
                }
            }
            let want = sum.map(|s| (s / 16) as u8);
            assert_eq!(img.get_pixel(i, j).0, want, "pixel ({i}, {j})");
        }
    }
}

/// Under `--profile`, paths are valid for the profile (checked by the
/// testkit's rules and no cheaper than its Dijkstra), drawn on their
/// positions, and each cell is its terrain colour where the profile's
/// position there is usable, darker where it is not (hatched in stripes at
/// 8 pixels per cell: some pixels darker, some not).
#[test]
fn profile_paths_are_usable_and_unusable_positions_are_darkened() {
    let dir = scratch("profile");
    let map = caves();
    let chars = map_chars(&map);
    let grid: Grid = parse_map(&std::fs::read_to_string(&map).unwrap()).unwrap();
    for (name, query, scale) in [
        ("infantry", [36u32, 70, 46, 186], 2u32),
        ("tank", [133, 72, 75, 79], 8),
    ] {
        let file = maps().join(format!("profiles/{name}.toml"));
        let profile = Profile::read(&file).unwrap();
        let q = format!("{},{},{},{}", query[0], query[1], query[2], query[3]);
        let png = dir.join(format!("{name}.png"));
        let (code, v, img) = render(
            &[
                map.to_str().unwrap(),
                "--profile",
                file.to_str().unwrap(),
                "--path",
                &q,
                "--layers",
                "terrain,path",
                "--scale",
                &scale.to_string(),
            ],
            &png,
        );
        assert_eq!(code, 0, "{name}: {v}");
        assert_eq!(v["profile"], name);
        let img = img.unwrap();
        let p = &v["paths"][0];
        let path = positions(p);
        let (start, goal) = (
            Point::new(query[0], query[1]),
            Point::new(query[2], query[3]),
        );
        let cost = check_weighted_path(&grid, &profile, &path, start, goal)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let best = weighted_distance(&grid, &profile, start, goal).unwrap();
        assert!(cost >= best - 1e-6 * best, "{name}: {cost} below {best}");
        let reported = p["cost"].as_f64().unwrap();
        assert!(
            (reported - cost).abs() <= 1e-6 * cost,
            "{name}: {reported} vs {cost}"
        );
        let on_path: std::collections::HashSet<Point> = path.iter().copied().collect();
        // Path positions: every pixel of the cell's block (no inset below
        // 6 px per cell; at 8 the inset is one pixel).
        let inset = if scale >= 6 { scale / 6 } else { 0 };
        for c in &path {
            for py in c.y * scale + inset..(c.y + 1) * scale - inset {
                for px in c.x * scale + inset..(c.x + 1) * scale - inset {
                    assert_eq!(img.get_pixel(px, py).0, PATH, "{name}: {c}");
                }
            }
        }
        let (mut darkened, mut striped) = (0, 0);
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let pt = Point::new(x, y);
                if on_path.contains(&pt) {
                    continue;
                }
                let ch = chars[y as usize][x as usize];
                let base = colour_of(ch);
                let usable = position_cost(&grid, &profile, x.into(), y.into()).is_some();
                let block: Vec<[u8; 3]> = (y * scale..(y + 1) * scale)
                    .flat_map(|py| (x * scale..(x + 1) * scale).map(move |px| (px, py)))
                    .map(|(px, py)| img.get_pixel(px, py).0)
                    .collect();
                if usable || base == BLOCKED {
                    assert!(block.iter().all(|&c| c == base), "{name}: ({x}, {y})");
                    continue;
                }
                let darker = |c: &[u8; 3]| (0..3).all(|k| c[k] <= base[k]) && c != &base;
                darkened += 1;
                if scale >= 4 {
                    // Stripes: both darker and plain pixels in the cell.
                    assert!(block.iter().any(darker), "{name}: ({x}, {y}) not hatched");
                    assert!(block.contains(&base), "{name}: ({x}, {y})");
                    striped += 1;
                } else {
                    assert!(block.iter().all(darker), "{name}: ({x}, {y}) not darkened");
                }
            }
        }
        assert!(darkened > 1000, "{name}: {darkened}");
        assert_eq!(striped > 0, scale >= 4);
        assert!(
            v["legend"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["name"] == format!("unusable for {name}")),
            "{v}"
        );
    }
}

#[test]
fn render_profile_errors_name_their_file() {
    let dir = scratch("errors");
    let map = caves();
    let m = map.to_str().unwrap();
    let png = dir.join("x.png");
    // A bad profile: exit 2, the file, line and field named.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"a\"\n[cost]\n\".\" = 1\nS = 0\n").unwrap();
    let f = bad.to_str().unwrap();
    let (code, out, err) = run(bin().args(["render", m, "--profile", f, "-o"]).arg(&png));
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains(f) && err.contains("cost.S"), "{err}");
    let (code, v, _) = render(&[m, "--profile", f], &png);
    assert_eq!(code, 2);
    assert_eq!(v["file"], f);
    assert_eq!(v["field"], "cost.S");
    assert!(!png.exists());
    // An endpoint the profile cannot stand on (water for infantry).
    let infantry = maps().join("profiles/infantry.toml");
    let chars = map_chars(&map);
    let (wx, wy) = (0..256usize)
        .flat_map(|y| (0..256usize).map(move |x| (x, y)))
        .find(|&(x, y)| chars[y][x] == b'W')
        .unwrap();
    let q = format!("36,70,{wx},{wy}");
    let (code, v, _) = render(
        &[m, "--profile", infantry.to_str().unwrap(), "--path", &q],
        &png,
    );
    assert_eq!(code, 2, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("not a usable position"),
        "{v}"
    );
    // A hierarchy file is read for its own profile only.
    let rph = dir.join("infantry.rph");
    let (code, out, err) = run(bin()
        .args(["build", m, "--profile", infantry.to_str().unwrap(), "-o"])
        .arg(&rph));
    assert_eq!(code, 0, "{out}{err}");
    let r = rph.to_str().unwrap();
    let (code, v, _) = render(
        &[
            m,
            "--hierarchy",
            r,
            "--profile",
            infantry.to_str().unwrap(),
            "--path",
            "36,70,46,186",
        ],
        &png,
    );
    assert_eq!(code, 0, "{v}");
    let grid: Grid = parse_map(&std::fs::read_to_string(&map).unwrap()).unwrap();
    let profile = Profile::read(&infantry).unwrap();
    let path = positions(&v["paths"][0]);
    check_weighted_path(
        &grid,
        &profile,
        &path,
        Point::new(36, 70),
        Point::new(46, 186),
    )
    .unwrap();
    let tank = maps().join("profiles/tank.toml");
    for other in [Some(tank.to_str().unwrap()), None] {
        let mut args = vec![m, "--hierarchy", r];
        if let Some(t) = other {
            args.extend(["--profile", t]);
        }
        let (code, v, _) = render(&args, &png);
        assert_eq!(code, 2, "{v}");
        assert_eq!(v["file"], r, "{v}");
        assert!(v["error"].as_str().unwrap().contains("profile"), "{v}");
    }
}
