//! Map and scenario parser tests: every error kind with its line and
//! column, a header claiming 10^12 cells failing without allocating, and the
//! real Moving AI files (all 26 maps, CRLF ones included, against the sizes
//! and passable-cell counts in the data set's README; all 34 scenario files
//! against its row counts and precisions), with a write/parse round trip.

mod common;

use regionpath::grid::{
    parse_map, parse_scen, read_map, read_scen, write_map, Grid, LengthPrecision, MapError,
    MapErrorKind, Point, ScenError, ScenErrorKind,
};
use regionpath_tests::{files_ending, movingai_or_skip};

#[global_allocator]
static ALLOC: common::Counting = common::Counting;

fn map_err(text: &str) -> MapError {
    match parse_map(text) {
        Ok(g) => panic!(
            "expected an error, parsed a {}x{} map from {text:?}",
            g.width(),
            g.height()
        ),
        Err(e) => e,
    }
}

fn map_err_at(text: &str) -> (MapErrorKind, usize, usize) {
    let e = map_err(text);
    (e.kind, e.line, e.column)
}

fn scen_err(text: &str) -> (ScenErrorKind, usize, usize) {
    match parse_scen(text) {
        Ok(s) => panic!(
            "expected an error, parsed {} rows from {text:?}",
            s.rows.len()
        ),
        Err(ScenError { kind, line, column }) => (kind, line, column),
    }
}

// ---------------------------------------------------------------- .map

#[test]
fn map_missing_headers() {
    // No `type` line: found when the header ends at `map` (line 3).
    assert_eq!(
        map_err_at("height 1\nwidth 1\nmap\n.\n"),
        (MapErrorKind::MissingHeader("type octile"), 3, 0)
    );
    assert_eq!(
        map_err_at("type octile\nwidth 1\nmap\n.\n"),
        (MapErrorKind::MissingHeader("height"), 3, 0)
    );
    assert_eq!(
        map_err_at("type octile\nheight 1\nmap\n.\n"),
        (MapErrorKind::MissingHeader("width"), 3, 0)
    );
    // Grid rows straight after the sizes: the `map` line is missing.
    assert_eq!(
        map_err_at("type octile\nheight 1\nwidth 1\n.\n"),
        (MapErrorKind::MissingHeader("map"), 4, 1)
    );
    // Grid rows before any header.
    assert_eq!(
        map_err_at("..@\n"),
        (MapErrorKind::MissingHeader("type octile"), 1, 1)
    );
    assert!(matches!(
        map_err("").kind,
        MapErrorKind::MissingHeader("type octile")
    ));
}

#[test]
fn map_unknown_header_and_type() {
    assert_eq!(
        map_err_at("type octile\nheight 1\nwidth 1\ncolour red\nmap\n.\n"),
        (MapErrorKind::UnknownHeader("colour".into()), 4, 1)
    );
    assert_eq!(
        map_err_at("type hex\nheight 1\nwidth 1\nmap\n.\n"),
        (MapErrorKind::UnsupportedType("hex".into()), 1, 6)
    );
}

#[test]
fn map_bad_numbers() {
    assert_eq!(
        map_err_at("type octile\nheight x1\nwidth 1\nmap\n.\n"),
        (MapErrorKind::BadNumber("x1".into()), 2, 8)
    );
    assert_eq!(
        map_err_at("type octile\nheight 1\nwidth -4\nmap\n.\n"),
        (MapErrorKind::BadNumber("-4".into()), 3, 7)
    );
    assert_eq!(
        map_err_at("type octile\nheight 1\nwidth 2.5\nmap\n..\n"),
        (MapErrorKind::BadNumber("2.5".into()), 3, 7)
    );
    // A size keyword without a value: the column just past the keyword.
    assert_eq!(
        map_err_at("type octile\nheight\nwidth 1\nmap\n.\n"),
        (MapErrorKind::BadNumber(String::new()), 2, 7)
    );
}

#[test]
fn map_zero_and_absurd_sizes() {
    // Sizes are checked once the header is complete; the error points at
    // the offending value.
    let (kind, line, column) = map_err_at("type octile\nheight 0\nwidth 3\nmap\n");
    assert!(matches!(kind, MapErrorKind::BadSize(_)), "{kind:?}");
    assert_eq!((line, column), (2, 8));
    let (kind, line, column) = map_err_at("type octile\nheight 3\nwidth 0\nmap\n...\n");
    assert!(matches!(kind, MapErrorKind::BadSize(_)), "{kind:?}");
    assert_eq!((line, column), (3, 7));

    // 10^12 cells: refused from the header alone, without allocating
    // anything near the claimed size.
    let text = "type octile\nheight 1000000\nwidth 1000000\nmap\n....\n";
    let (result, usage) = common::measure(|| parse_map(text));
    let kind = result.map(|_| ()).unwrap_err().kind;
    assert!(matches!(kind, MapErrorKind::BadSize(_)), "{kind:?}");
    assert!(
        usage.peak_bytes < 64 * 1024,
        "parsing a 10^12-cell header allocated {} bytes",
        usage.peak_bytes
    );

    // 65535 x 65535 (4.3e9 cells) is within the per-side limit: the parser
    // must discover the missing rows without reserving the claimed grid.
    let row = ".".repeat(65_535);
    let text = format!("type octile\nheight 65535\nwidth 65535\nmap\n{row}\n{row}\n");
    let (result, usage) = common::measure(|| parse_map(&text));
    let e = result.map(|_| ()).unwrap_err();
    assert_eq!(
        e.kind,
        MapErrorKind::TooFewRows {
            expected: 65_535,
            found: 2
        }
    );
    assert_eq!(e.line, 6);
    assert!(
        usage.peak_bytes < 4 * 1024 * 1024,
        "a 4.3e9-cell header with two rows allocated {} bytes",
        usage.peak_bytes
    );
}

#[test]
fn map_row_errors() {
    let head = "type octile\nheight 2\nwidth 3\nmap\n";
    assert_eq!(
        map_err_at(&format!("{head}...\n..\n")),
        (
            MapErrorKind::ShortRow {
                expected: 3,
                found: 2
            },
            6,
            3
        )
    );
    assert_eq!(
        map_err_at(&format!("{head}...\n....\n")),
        (MapErrorKind::LongRow { expected: 3 }, 6, 4)
    );
    assert_eq!(
        map_err_at(&format!("{head}...\n...\n...\n")),
        (MapErrorKind::TooManyRows { expected: 2 }, 7, 1)
    );
    assert_eq!(
        map_err_at(&format!("{head}...\n")),
        (
            MapErrorKind::TooFewRows {
                expected: 2,
                found: 1
            },
            5,
            0
        )
    );
    assert_eq!(
        map_err_at("type octile\nheight 2\nwidth 3 4\nmap\n...\n...\n"),
        (MapErrorKind::ExtraWords("4".into()), 3, 9)
    );
    assert_eq!(
        map_err_at(&format!("{head}.\u{e9}.\n...\n")),
        (MapErrorKind::UnknownChar('\u{e9}'), 5, 2)
    );
    assert_eq!(
        map_err_at(&format!("{head}...\n.\t.\n")),
        (MapErrorKind::UnknownChar('\t'), 6, 2)
    );
    // A blank line inside the grid is a short row, not skipped.
    assert_eq!(
        map_err_at(&format!("{head}\n...\n")),
        (
            MapErrorKind::ShortRow {
                expected: 3,
                found: 0
            },
            5,
            1
        )
    );
}

#[test]
fn map_alphabet_and_line_ends() {
    let lf = "type octile\nheight 2\nwidth 7\nmap\n.GS@OTW\n.......\n";
    let g = parse_map(lf).unwrap();
    let passable: Vec<bool> = (0..7).map(|x| g.is_passable(Point::new(x, 0))).collect();
    assert_eq!(passable, [true, true, true, false, false, false, false]);
    let crlf = lf.replace('\n', "\r\n");
    assert_eq!(parse_map(&crlf).unwrap(), g);
    // No newline after the last row, and blank lines after it.
    assert_eq!(parse_map(lf.trim_end()).unwrap(), g);
    assert_eq!(parse_map(&format!("{lf}\n\n")).unwrap(), g);
    // Width before height.
    let swapped = "type octile\nwidth 7\nheight 2\nmap\n.GS@OTW\n.......\n";
    assert_eq!(parse_map(swapped).unwrap(), g);
}

// ---------------------------------------------------------------- .scen

#[test]
fn scen_version_line() {
    assert_eq!(
        scen_err("version 2\n"),
        (ScenErrorKind::BadVersion("version 2".into()), 1, 1)
    );
    let (kind, line, _) = scen_err("0\ta.map\t9\t9\t1\t1\t2\t2\t1\n");
    assert!(matches!(kind, ScenErrorKind::BadVersion(_)), "{kind:?}");
    assert_eq!(line, 1);
    assert!(matches!(scen_err("").0, ScenErrorKind::BadVersion(_)));
    assert!(parse_scen("version 1.0\n").unwrap().rows.is_empty());
}

#[test]
fn scen_bad_rows() {
    let v = "version 1\n";
    assert_eq!(
        scen_err(&format!("{v}0\ta.map\t9\t9\t1\t1\t2\t2\n")),
        (ScenErrorKind::FieldCount(8), 2, 0)
    );
    assert_eq!(
        scen_err(&format!("{v}0\ta.map\t9\t9\t1\t1\t2\t2\t1\t7\n")),
        (ScenErrorKind::FieldCount(10), 2, 0)
    );
    // Blank lines are skipped; the line number still counts them.
    let (kind, line, column) = scen_err(&format!("{v}\n0 a.map 9 9 1 z 2 2 1\n"));
    assert!(
        matches!(kind, ScenErrorKind::BadField { field: 6, ref text, .. } if text == "z"),
        "{kind:?}"
    );
    assert_eq!((line, column), (3, 15));
    let (kind, line, column) = scen_err(&format!("{v}0\ta.map\tnine\t9\t1\t1\t2\t2\t1\n"));
    assert!(
        matches!(kind, ScenErrorKind::BadField { field: 3, .. }),
        "{kind:?}"
    );
    assert_eq!((line, column), (2, 9));
    for bad in ["-1", "nan", "inf", "1.2.3", "x"] {
        let (kind, line, column) = scen_err(&format!("{v}0 a.map 9 9 1 1 2 2 {bad}\n"));
        assert!(
            matches!(kind, ScenErrorKind::BadField { field: 9, .. }),
            "{bad}: {kind:?}"
        );
        assert_eq!((line, column), (2, 21), "{bad}");
    }
    assert_eq!(
        scen_err(&format!("{v}0 a.map 9 9 1 1 2 9 1\n")),
        (
            ScenErrorKind::OutOfBounds {
                which: "goal",
                point: Point::new(2, 9),
                width: 9,
                height: 9
            },
            2,
            17
        )
    );
    let (kind, _, column) = scen_err(&format!("{v}0 a.map 9 9 9 1 2 2 1\n"));
    assert!(
        matches!(kind, ScenErrorKind::OutOfBounds { which: "start", .. }),
        "{kind:?}"
    );
    assert_eq!(column, 13);
}

#[test]
fn scen_fields_and_precisions() {
    let s = parse_scen(
        "version 1\n3\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n\
         2\tmaps/dao/arena.map\t49\t49\t1\t1\t3\t4\t3.82843\n",
    )
    .unwrap();
    assert_eq!(s.rows.len(), 2);
    let r = &s.rows[1];
    assert_eq!(
        (r.bucket, r.map_file_name(), r.map_width, r.map_height),
        (2, "arena.map", 49, 49)
    );
    assert_eq!(
        (r.start, r.goal, r.line),
        (Point::new(1, 1), Point::new(3, 4), 3)
    );
    assert_eq!(s.precision, LengthPrecision::Significant(6));
    let exact = 1.0 + 2.0 * std::f64::consts::SQRT_2;
    assert!(s.matches(r, exact));
    assert!(!s.matches(r, exact + 1e-4));
    let s = parse_scen("version 1.0\n0 AR0011SR.map 512 512 1 1 2 2 1.41\n").unwrap();
    assert_eq!(s.precision, LengthPrecision::Decimals(2));
    assert!(s.matches(&s.rows[0], std::f64::consts::SQRT_2));
    assert!(!s.matches(&s.rows[0], 1.42));
}

// ---------------------------------------------------------------- real data

/// (map, width, height, passable cells) from the data set's README.
const MAPS: [(&str, u32, u32, u64); 26] = [
    ("arena.map", 49, 49, 2054),
    ("lak303d.map", 194, 194, 14784),
    ("ost003d.map", 194, 194, 13214),
    ("den520d.map", 256, 257, 28178),
    ("hrt201n.map", 294, 305, 23652),
    ("brc202d.map", 530, 481, 43151),
    ("orz900d.map", 1491, 656, 96603),
    ("ht_chantry.map", 162, 141, 7461),
    ("w_woundedcoast.map", 642, 578, 34020),
    ("AR0011SR.map", 512, 512, 120458),
    ("AR0044SR.map", 512, 512, 231469),
    ("AR0602SR.map", 512, 512, 66372),
    ("CatwalkAlley.map", 512, 512, 225934),
    ("Aurora.map", 1024, 768, 493772),
    ("TheFrozenSea.map", 1024, 1024, 754304),
    ("Berlin_0_256.map", 256, 256, 48147),
    ("Paris_1_256.map", 256, 256, 47240),
    ("Berlin_0_1024.map", 1024, 1024, 794748),
    ("maze512-1-0.map", 512, 512, 131071),
    ("maze512-32-0.map", 512, 512, 253840),
    ("maze512-8-0.map", 512, 512, 232931),
    ("random512-10-0.map", 512, 512, 235900),
    ("random512-25-0.map", 512, 512, 195313),
    ("random512-40-0.map", 512, 512, 104950),
    ("64room_000.map", 512, 512, 246178),
    ("8room_000.map", 512, 512, 206642),
];

#[test]
fn all_moving_ai_maps_parse_and_round_trip() {
    let Some(dir) = movingai_or_skip("all_moving_ai_maps_parse_and_round_trip") else {
        return;
    };
    let found = files_ending(&dir.join("maps"), ".map");
    assert_eq!(found.len(), MAPS.len(), "maps in {}", dir.display());
    let mut crlf = 0;
    for (name, w, h, passable) in MAPS {
        let path = dir.join("maps").join(name);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        if bytes.windows(2).any(|p| p == b"\r\n") {
            crlf += 1;
        }
        let g: Grid = read_map(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((g.width(), g.height()), (w, h), "{name}");
        assert_eq!(g.passable_count(), passable, "{name}");
        // Independent recount straight from the text.
        let text = String::from_utf8_lossy(&bytes);
        let body = text.split_once("\nmap").map(|(_, b)| b).unwrap_or("");
        let counted = body
            .chars()
            .filter(|c| matches!(c, '.' | 'G' | 'S'))
            .count() as u64;
        assert_eq!(counted, passable, "{name}: text count");

        let mut out = Vec::new();
        write_map(&g, &mut out).unwrap();
        let again = parse_map(std::str::from_utf8(&out).unwrap())
            .unwrap_or_else(|e| panic!("{name} after write_map: {e}"));
        assert_eq!(again, g, "{name}: round trip");
        assert_eq!(again.checksum(), g.checksum(), "{name}");
    }
    // The street maps use CRLF line ends.
    assert!(crlf >= 3, "expected the CRLF street maps, found {crlf}");
}

#[test]
fn all_moving_ai_scenarios_parse() {
    let Some(dir) = movingai_or_skip("all_moving_ai_scenarios_parse") else {
        return;
    };
    let files = files_ending(&dir.join("scen"), ".scen");
    assert_eq!(files.len(), 34);
    let mut total = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let s = read_scen(f).unwrap_or_else(|e| panic!("{name}: {e}"));
        total += s.rows.len();
        let map = s.rows[0].map_file_name().to_string();
        let &(_, w, h, _) = MAPS
            .iter()
            .find(|m| m.0 == map)
            .unwrap_or_else(|| panic!("{name}: unknown map {map}"));
        for r in &s.rows {
            assert_eq!(r.map_file_name(), map, "{name} line {}", r.line);
            assert_eq!(
                (r.map_width, r.map_height),
                (w, h),
                "{name} line {}",
                r.line
            );
        }
        let expected =
            if name.contains("-random-") || name.starts_with("Berlin") || name.starts_with("Paris")
            {
                LengthPrecision::Decimals(8)
            } else if name.starts_with("AR0") {
                LengthPrecision::Decimals(2)
            } else {
                LengthPrecision::Significant(6)
            };
        assert_eq!(s.precision, expected, "{name}");
    }
    assert_eq!(total, 77_698);
}
