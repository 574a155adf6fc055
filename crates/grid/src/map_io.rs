//! Moving AI `.map` reading and writing.
//!
//! ```text
//! type octile
//! height H
//! width W
//! map
//! <H rows of exactly W terrain characters>
//! ```
//!
//! A terrain character is printable ASCII (`'!'..='~'`): the Moving AI kinds
//! `. G S @ O T W` and any other a map uses, at most
//! [`MAX_TERRAIN_KINDS`](crate::MAX_TERRAIN_KINDS) kinds per map.
//!
//! `height` and `width` may come in either order. CRLF line ends, trailing
//! blanks and a missing newline after the last row are accepted; blank lines
//! after the last row are ignored.

use crate::grid::{check_dimensions_pub, Grid, Terrain};
use crate::Point;
use std::path::Path;
use thiserror::Error;

/// What is wrong with a map file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MapErrorKind {
    /// The file could not be read.
    #[error("cannot read the map file: {0}")]
    Io(String),
    /// A header line that must be there is not.
    #[error("missing header line `{0}`")]
    MissingHeader(&'static str),
    /// A header line this format does not know.
    #[error("unknown header line `{0}`")]
    UnknownHeader(String),
    /// `type` is not `octile`.
    #[error("unsupported map type `{0}` (expected `octile`)")]
    UnsupportedType(String),
    /// A size that is not a whole number.
    #[error("`{0}` is not a valid size")]
    BadNumber(String),
    /// A size that is zero or too large, or more cells than the file can hold.
    #[error("bad map size: {0}")]
    BadSize(String),
    /// A row shorter than the width.
    #[error("row has {found} cells, expected {expected}")]
    ShortRow {
        /// The width.
        expected: u32,
        /// Cells found.
        found: u32,
    },
    /// A row longer than the width.
    #[error("row is longer than the width {expected}")]
    LongRow {
        /// The width.
        expected: u32,
    },
    /// Fewer rows than the height.
    #[error("map has {found} rows, expected {expected}")]
    TooFewRows {
        /// The height.
        expected: u32,
        /// Rows found.
        found: u32,
    },
    /// More non-blank rows than the height.
    #[error("map has more rows than its height {expected}")]
    TooManyRows {
        /// The height.
        expected: u32,
    },
    /// More words on a header line than its key and value.
    #[error("unexpected `{0}` after the header value")]
    ExtraWords(String),
    /// A character that is not printable ASCII (`'!'..='~'`).
    #[error("unknown terrain character {0:?}")]
    UnknownChar(char),
    /// A 17th terrain kind: at most
    /// [`MAX_TERRAIN_KINDS`](crate::MAX_TERRAIN_KINDS) per map.
    #[error("terrain character {kind:?} is the map's {}th kind; at most {max} fit", max + 1)]
    TooManyKinds {
        /// The first character past the limit.
        kind: char,
        /// The limit.
        max: usize,
    },
}

/// A map-file error with the 1-based line and column where it was found
/// (column 0 when it concerns a whole line or the whole file).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}, column {column}: {kind}")]
pub struct MapError {
    /// What is wrong.
    pub kind: MapErrorKind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, or 0.
    pub column: usize,
}

fn err(kind: MapErrorKind, line: usize, column: usize) -> MapError {
    MapError { kind, line, column }
}

/// Reads a `.map` file.
pub fn read_map(path: impl AsRef<Path>) -> Result<Grid, MapError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path)
        .map_err(|e| err(MapErrorKind::Io(format!("{}: {e}", path.display())), 0, 0))?;
    parse_map_bytes(&bytes)
}

/// Parses the bytes of a `.map` file: the common layout (a header, then
/// rows of exactly `width` terrain characters ended by `\n`) in one pass
/// without a byte per cell in between, anything else through [`parse_map`]
/// (bytes that are not UTF-8 read as U+FFFD), whose errors name the line
/// and column. The same grid as [`parse_map`] for every input. O(cells);
/// why it exists: on a 16k² map the plain pass takes about a third of
/// [`parse_map`]'s time.
///
/// ```
/// let g = regionpath_grid::parse_map_bytes(b"type octile\nheight 1\nwidth 3\nmap\n.@.\n").unwrap();
/// assert_eq!((g.width(), g.height()), (3, 1));
/// assert!(regionpath_grid::parse_map_bytes(b"type octile\nheight 1\nwidth 3\nmap\n.@\n").is_err());
/// ```
pub fn parse_map_bytes(bytes: &[u8]) -> Result<Grid, MapError> {
    if let Some(grid) = parse_plain(bytes) {
        return Ok(grid);
    }
    parse_map(&String::from_utf8_lossy(bytes))
}

/// The common file read without a byte per cell in between: a header
/// within the first 4 KiB, then exactly `height` rows of exactly `width`
/// terrain characters (no spaces, no `\r`), each ended by `\n` but the
/// last, blank lines only at the end, at most [`crate::MAX_TERRAIN_KINDS`]
/// kinds. `None` for anything else: [`parse_map`] then reads the text and
/// names the line and column of any error. One pass over the bytes
/// (64 cells per word written, the kinds noted per row; a second only
/// for a terrain layer).
fn parse_plain(bytes: &[u8]) -> Option<Grid> {
    let head = &bytes[..bytes.len().min(4096)];
    let mut end = None;
    let mut pos = 0;
    for line in head.split(|&b| b == b'\n') {
        let next = pos + line.len() + 1;
        if line.trim_ascii() == b"map" {
            // A whole line: its `\n` within the head.
            end = (next <= head.len()).then_some(next);
            break;
        }
        pos = next;
    }
    let end = end?;
    let h = header(std::str::from_utf8(&bytes[..end]).ok()?).ok()?;
    if h.body_start != end {
        return None;
    }
    let (w, rows_wanted) = (h.width as usize, h.height as usize);
    let body = bytes[end..].trim_ascii_end();
    // Rows of exactly `w` bytes, each but the last followed by `\n`: the
    // ends are where they must be, not searched for.
    if body.len() + 1 != rows_wanted.checked_mul(w + 1)? {
        return None;
    }
    let mut rows: Vec<&[u8]> = Vec::with_capacity(rows_wanted);
    for y in 0..rows_wanted {
        let at = y * (w + 1);
        if at + w < body.len() && body[at + w] != b'\n' {
            return None;
        }
        rows.push(&body[at..at + w]);
    }
    Grid::from_ascii_rows(h.width, h.height, &rows)
}

/// Parses the text of a `.map` file.
pub fn parse_map(text: &str) -> Result<Grid, MapError> {
    let Header {
        width: w,
        height: h,
        header_end,
        body_start,
    } = header(text)?;
    body(text, w, h, header_end, body_start)
}

/// What the header of a `.map` file says and where it ends.
struct Header {
    width: u32,
    height: u32,
    /// The line number of the `map` line (1-based).
    header_end: usize,
    /// The byte offset just past the `map` line.
    body_start: usize,
}

/// Reads the header of the text of a `.map` file, through its `map` line.
fn header(text: &str) -> Result<Header, MapError> {
    let lines = text.split('\n').enumerate().map(|(i, l)| {
        let l = l.strip_suffix('\r').unwrap_or(l);
        (i + 1, l.trim_end())
    });
    let mut height: Option<u64> = None;
    let mut width: Option<u64> = None;
    let mut typed = false;
    let mut header_end = 0;
    // Where each size was written, to point a size error at it.
    let (mut height_at, mut width_at) = ((0usize, 0usize), (0usize, 0usize));
    for (no, line) in lines {
        header_end = no;
        let mut words = line.split_whitespace();
        let Some(key) = words.next() else {
            continue;
        };
        let value = words.next();
        // `map` stands alone; `type`, `height` and `width` take one value.
        let extra = if key == "map" { value } else { words.next() };
        if let Some(extra) = extra {
            if matches!(key, "type" | "height" | "width" | "map") {
                // The word is a slice of `line`: its offset is its column.
                let col = extra.as_ptr() as usize - line.as_ptr() as usize + 1;
                return Err(err(MapErrorKind::ExtraWords(extra.to_string()), no, col));
            }
        }
        let number = |v: Option<&str>| -> Result<u64, MapError> {
            let v =
                v.ok_or_else(|| err(MapErrorKind::BadNumber(String::new()), no, line.len() + 1))?;
            let col = line.find(v).map(|c| c + 1).unwrap_or(0);
            v.parse::<u64>()
                .map_err(|_| err(MapErrorKind::BadNumber(v.to_string()), no, col))
        };
        match key {
            "type" => {
                let v = value.unwrap_or("");
                if v != "octile" {
                    let col = line.find(v).map(|c| c + 1).unwrap_or(1);
                    return Err(err(MapErrorKind::UnsupportedType(v.to_string()), no, col));
                }
                typed = true;
            }
            "height" => {
                height = Some(number(value)?);
                height_at = (no, line.find(value.unwrap_or("")).map_or(0, |c| c + 1));
            }
            "width" => {
                width = Some(number(value)?);
                width_at = (no, line.find(value.unwrap_or("")).map_or(0, |c| c + 1));
            }
            "map" => break,
            other => {
                if other
                    .chars()
                    .all(|c| Terrain::from_char(c).is_some_and(Terrain::is_moving_ai))
                {
                    // Grid rows before the header is complete.
                    let missing = if !typed {
                        "type octile"
                    } else if height.is_none() {
                        "height"
                    } else if width.is_none() {
                        "width"
                    } else {
                        "map"
                    };
                    return Err(err(MapErrorKind::MissingHeader(missing), no, 1));
                }
                return Err(err(MapErrorKind::UnknownHeader(other.to_string()), no, 1));
            }
        }
    }
    if !typed {
        return Err(err(
            MapErrorKind::MissingHeader("type octile"),
            header_end,
            0,
        ));
    }
    let height = height.ok_or_else(|| err(MapErrorKind::MissingHeader("height"), header_end, 0))?;
    let width = width.ok_or_else(|| err(MapErrorKind::MissingHeader("width"), header_end, 0))?;
    // Reaching the end of the header loop without `map`.
    let body_start = text
        .split('\n')
        .take(header_end)
        .map(|l| l.len() + 1)
        .sum::<usize>();
    let at_map = text
        .split('\n')
        .nth(header_end - 1)
        .map(|l| l.trim() == "map")
        .unwrap_or(false);
    if !at_map {
        return Err(err(MapErrorKind::MissingHeader("map"), header_end, 0));
    }
    check_dimensions_pub(width, height).map_err(|e| {
        // Blame the width when it alone is out of range, else the height.
        let width_bad = (width == 0 || width > crate::MAX_DIMENSION as u64)
            && !(height == 0 || height > crate::MAX_DIMENSION as u64);
        let (line, column) = if width_bad { width_at } else { height_at };
        err(MapErrorKind::BadSize(e.to_string()), line, column)
    })?;
    Ok(Header {
        width: width as u32,
        height: height as u32,
        header_end,
        body_start,
    })
}

/// Reads the rows of a `.map` file's text after its header.
fn body(
    text: &str,
    w: u32,
    h: u32,
    header_end: usize,
    body_start: usize,
) -> Result<Grid, MapError> {
    // Rows are allocated as they are read, so a header that claims more
    // cells than the file holds costs no more memory than the file itself.
    let remaining = text.len().saturating_sub(body_start);
    let mut rows: Vec<Vec<Terrain>> =
        Vec::with_capacity((h as usize).min(remaining / (w as usize + 1) + 1));
    let mut last_line = header_end;
    // Blank lines after the last row do not count as rows.
    let body = text.get(body_start..).unwrap_or("").trim_end();
    let body_lines = body.split('\n').enumerate().map(|(i, l)| {
        let l = l.strip_suffix('\r').unwrap_or(l);
        (header_end + i + 1, l.trim_end())
    });
    // The kinds met so far, to stop at the first past the limit.
    let mut seen = [false; 128];
    let mut kinds = 0;
    for (no, line) in body_lines.filter(|_| !body.is_empty()) {
        last_line = no;
        if rows.len() == h as usize {
            return Err(err(MapErrorKind::TooManyRows { expected: h }, no, 1));
        }
        let mut row = Vec::with_capacity(w as usize);
        for (col, c) in line.chars().enumerate() {
            if row.len() == w as usize {
                return Err(err(MapErrorKind::LongRow { expected: w }, no, col + 1));
            }
            let t = Terrain::from_char(c)
                .ok_or_else(|| err(MapErrorKind::UnknownChar(c), no, col + 1))?;
            if !seen[c as usize] {
                if kinds == crate::MAX_TERRAIN_KINDS {
                    let max = crate::MAX_TERRAIN_KINDS;
                    return Err(err(
                        MapErrorKind::TooManyKinds { kind: c, max },
                        no,
                        col + 1,
                    ));
                }
                seen[c as usize] = true;
                kinds += 1;
            }
            row.push(t);
        }
        if row.len() < w as usize {
            return Err(err(
                MapErrorKind::ShortRow {
                    expected: w,
                    found: row.len() as u32,
                },
                no,
                row.len() + 1,
            ));
        }
        rows.push(row);
    }
    if rows.len() < h as usize {
        return Err(err(
            MapErrorKind::TooFewRows {
                expected: h,
                found: rows.len() as u32,
            },
            last_line,
            0,
        ));
    }
    Grid::from_terrain_rows(w, h, &rows)
        .map_err(|e| err(MapErrorKind::BadSize(e.to_string()), 0, 0))
}

/// Writes a grid in the Moving AI `.map` format (LF line ends).
pub fn write_map(grid: &Grid, out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(out, "type octile")?;
    writeln!(out, "height {}", grid.height())?;
    writeln!(out, "width {}", grid.width())?;
    writeln!(out, "map")?;
    let mut line = String::with_capacity(grid.width() as usize + 1);
    for y in 0..grid.height() {
        line.clear();
        for x in 0..grid.width() {
            let t = grid
                .terrain(Point::new(x, y))
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            line.push(t.to_char());
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reader against the general one on 3,000 random map
    /// texts (kinds from the Moving AI set and custom characters, and
    /// damage: CRLF line ends, trailing spaces and blank lines, a row too
    /// long or short or missing or extra, a non-ASCII character, more than
    /// 16 kinds): wherever it answers, the general reader gives the same
    /// grid (cells, kinds in order, bases, terrain layer and the text
    /// written back); it answers every undamaged text.
    #[test]
    fn the_plain_reader_agrees_with_the_general_one() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut below = |n: u64| crate::xorshift(&mut state) % n;
        let palette: Vec<char> = ".@TSWGO.@.@abc#=+xyz0123456789ABCDEFGH".chars().collect();
        let (mut answered, mut clean) = (0, 0);
        for round in 0..3000 {
            let (w, h) = (1 + below(70) as usize, 1 + below(40) as usize);
            let many = below(10) == 0;
            let k = 1 + below(if many { palette.len() as u64 } else { 6 }) as usize;
            let start = below((palette.len() - k + 1) as u64) as usize;
            let kinds = &palette[start..start + k];
            let mut rows: Vec<String> = (0..h)
                .map(|_| (0..w).map(|_| kinds[below(k as u64) as usize]).collect())
                .collect();
            let damage = below(12);
            let mut eol = "\n";
            match damage {
                0 => eol = "\r\n",
                1 => rows[below(h as u64) as usize].push(' '),
                2 => rows[below(h as u64) as usize].push('.'),
                3 => {
                    rows[below(h as u64) as usize].pop();
                }
                4 => {
                    rows.pop();
                }
                5 => rows.push(rows[0].clone()),
                6 => rows[below(h as u64) as usize].push('é'),
                7 => rows.insert(below(h as u64) as usize, String::new()),
                _ => {}
            }
            let mut text = format!("type octile{eol}height {h}{eol}width {w}{eol}map{eol}");
            for r in &rows {
                text.push_str(r);
                text.push_str(eol);
            }
            if below(3) == 0 {
                text.push_str("\n\n");
            }
            let general = parse_map(&text);
            let plain = parse_plain(text.as_bytes());
            // What callers use: the same grid, or the same error at the
            // same place, as the general reader.
            match (&general, parse_map_bytes(text.as_bytes())) {
                (Ok(o), Ok(b)) => assert!(*o == b, "round {round}"),
                (Err(e), Err(f)) => {
                    assert_eq!((&e.kind, e.line, e.column), (&f.kind, f.line, f.column))
                }
                (a, b) => panic!("round {round}: {a:?} against {b:?}"),
            }
            if damage > 7 && general.is_ok() {
                assert!(plain.is_some(), "round {round}: an undamaged map refused");
                clean += 1;
            }
            if let Some(g) = plain {
                let o = general.unwrap_or_else(|e| panic!("round {round}: {e}"));
                assert!(g == o, "round {round}");
                assert_eq!(g.terrain_kinds(), o.terrain_kinds(), "round {round}");
                assert_eq!(
                    g.has_terrain_layer(),
                    o.has_terrain_layer(),
                    "round {round}"
                );
                assert_eq!(g.passable_count(), o.passable_count(), "round {round}");
                let (mut a, mut b) = (Vec::new(), Vec::new());
                write_map(&g, &mut a).unwrap();
                write_map(&o, &mut b).unwrap();
                assert_eq!(a, b, "round {round}");
                assert_eq!(g.checksum(), o.checksum(), "round {round}");
                answered += 1;
            }
        }
        assert!(
            answered > 900 && clean > 800,
            "{answered} answered, {clean} clean"
        );
    }

    fn kind(text: &str) -> (MapErrorKind, usize, usize) {
        let e = parse_map(text).unwrap_err();
        (e.kind, e.line, e.column)
    }

    #[test]
    fn parses_and_round_trips() {
        let text = "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.T@\r\nGSW  ";
        let g = parse_map(text).unwrap();
        assert_eq!((g.width(), g.height()), (3, 2));
        assert!(g.is_passable(Point::new(0, 0)));
        assert!(!g.is_passable(Point::new(1, 0)));
        assert!(g.is_passable(Point::new(1, 1)));
        assert!(!g.is_passable(Point::new(2, 1)));
        assert_eq!(g.passable_count(), 3);
        let mut out = Vec::new();
        write_map(&g, &mut out).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert_eq!(s, "type octile\nheight 2\nwidth 3\nmap\n.T@\nGSW\n");
        assert_eq!(parse_map(&s).unwrap(), g);
    }

    #[test]
    fn width_before_height_and_trailing_blank_lines() {
        let g = parse_map("type octile\nwidth 2\nheight 1\nmap\n.@\n\n\n").unwrap();
        assert_eq!((g.width(), g.height()), (2, 1));
        assert!(!g.has_terrain_layer());
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            kind("height 1\nwidth 1\nmap\n.\n").0,
            MapErrorKind::MissingHeader("type octile")
        );
        assert!(matches!(
            kind("type grid\n").0,
            MapErrorKind::UnsupportedType(_)
        ));
        assert_eq!(
            kind("type octile\nheight x1\nwidth 1\nmap\n.\n"),
            (MapErrorKind::BadNumber("x1".into()), 2, 8)
        );
        assert!(matches!(
            kind("type octile\nheight 0\nwidth 1\nmap\n"),
            (MapErrorKind::BadSize(_), 2, 8)
        ));
        assert!(matches!(
            kind("type octile\nheight 1\nwidth 70000\nmap\n"),
            (MapErrorKind::BadSize(_), 3, 7)
        ));
        assert!(matches!(
            kind("type octile\nheight 1000000\nwidth 1000000\nmap\n..\n").0,
            MapErrorKind::BadSize(_)
        ));
        assert!(matches!(
            kind("type octile\nheight 60000\nwidth 60000\nmap\n..\n").0,
            MapErrorKind::ShortRow { .. }
        ));
        assert_eq!(
            kind("type octile\nheight 2 2\nwidth 1\nmap\n.\n.\n"),
            (MapErrorKind::ExtraWords("2".into()), 2, 10)
        );
        assert_eq!(
            kind("type octile\nheight 1\nwidth 1\nmap now\n.\n"),
            (MapErrorKind::ExtraWords("now".into()), 4, 5)
        );
        assert!(matches!(
            kind("type octile\nheight 1\nwidth 1\ncolour red\nmap\n.\n").0,
            MapErrorKind::UnknownHeader(_)
        ));
        assert_eq!(
            kind("type octile\nheight 1\nwidth 1\n.\n").0,
            MapErrorKind::MissingHeader("map")
        );
        assert_eq!(
            kind("type octile\nheight 2\nwidth 3\nmap\n...\n..\n"),
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
            kind("type octile\nheight 2\nwidth 3\nmap\n...\n....\n"),
            (MapErrorKind::LongRow { expected: 3 }, 6, 4)
        );
        assert_eq!(
            kind("type octile\nheight 3\nwidth 3\nmap\n...\n...\n").0,
            MapErrorKind::TooFewRows {
                expected: 3,
                found: 2
            }
        );
        assert_eq!(
            kind("type octile\nheight 1\nwidth 3\nmap\n...\n...\n"),
            (MapErrorKind::TooManyRows { expected: 1 }, 6, 1)
        );
        assert_eq!(
            kind("type octile\nheight 1\nwidth 3\nmap\n.\u{e9}.\n"),
            (MapErrorKind::UnknownChar('\u{e9}'), 5, 2)
        );
        assert_eq!(
            kind("type octile\nheight 1\nwidth 3\nmap\n.\t.\n"),
            (MapErrorKind::UnknownChar('\t'), 5, 2)
        );
    }

    /// Any printable character is a kind; the 17th kind of a map is an
    /// error at its line and column, and writing keeps every character.
    #[test]
    fn custom_kinds_and_the_kind_limit() {
        let row: String = ('a'..='p').collect();
        let text = format!("type octile\nheight 2\nwidth 16\nmap\n{row}\n{row}\n");
        let g = parse_map(&text).unwrap();
        assert_eq!(g.terrain_kinds().len(), 16);
        assert_eq!(g.passable_count(), 0);
        let mut out = Vec::new();
        write_map(&g, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
        let text = format!("type octile\nheight 2\nwidth 16\nmap\n{row}\nabc.efghijklmnop\n");
        assert_eq!(
            kind(&text),
            (MapErrorKind::TooManyKinds { kind: '.', max: 16 }, 6, 4)
        );
        let g = parse_map("type octile\nheight 1\nwidth 5\nmap\n.S~#G\n").unwrap();
        assert_eq!(g.passable_count(), 3);
        assert_eq!(g.terrain(Point::new(2, 0)).unwrap().to_char(), '~');
    }
}
