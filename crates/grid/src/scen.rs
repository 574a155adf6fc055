//! Moving AI `.scen` scenario files.
//!
//! The first line is `version 1` or `version 1.0`; every further non-blank
//! line has nine fields separated by tabs or spaces: bucket, map, map width,
//! map height, start x, start y, goal x, goal y, optimal length.
//!
//! Optimal lengths were printed with different precisions over the years
//! (8 decimals, C `%g` with 6 significant digits, 2 decimals). A
//! [`Scenario`] infers its file's [`LengthPrecision`] from the texts of all
//! its lengths, and [`Scenario::matches`] compares a computed length within
//! half a unit in the last place the file could print (1e-6 for the
//! 8-decimal files, whose last digits carry float error).

use crate::Point;
use std::path::Path;
use thiserror::Error;

/// What is wrong with a scenario file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ScenErrorKind {
    /// The file could not be read.
    #[error("cannot read the scenario file: {0}")]
    Io(String),
    /// The first line is not `version 1` / `version 1.0`.
    #[error("expected `version 1` or `version 1.0`, found `{0}`")]
    BadVersion(String),
    /// A row without exactly nine fields.
    #[error("row has {0} fields, expected 9")]
    FieldCount(usize),
    /// A field that does not parse.
    #[error("field {field} (`{text}`) is not a valid {what}")]
    BadField {
        /// 1-based field number.
        field: usize,
        /// The text.
        text: String,
        /// What was expected.
        what: &'static str,
    },
    /// A start or goal outside the map size stated on the row.
    #[error("{which} {point} is outside the stated {width}x{height} map")]
    OutOfBounds {
        /// `start` or `goal`.
        which: &'static str,
        /// The point.
        point: Point,
        /// Stated width.
        width: u32,
        /// Stated height.
        height: u32,
    },
}

/// A scenario-file error with its 1-based line and column (column 0 for a
/// whole line).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}, column {column}: {kind}")]
pub struct ScenError {
    /// What is wrong.
    pub kind: ScenErrorKind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, or 0.
    pub column: usize,
}

/// One start/goal problem.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenRow {
    /// The bucket (roughly optimal length / 4).
    pub bucket: u32,
    /// The map field as written (may carry a folder prefix).
    pub map: String,
    /// Map width stated on the row.
    pub map_width: u32,
    /// Map height stated on the row.
    pub map_height: u32,
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// Optimal 8-connected path cost as printed.
    pub optimal: f64,
    /// 1-based line in the file.
    pub line: usize,
}

impl ScenRow {
    /// The map field's file name, without any folder prefix.
    pub fn map_file_name(&self) -> &str {
        self.map.rsplit(['/', '\\']).next().unwrap_or(&self.map)
    }
}

/// How precisely a file prints its optimal lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthPrecision {
    /// A fixed number of decimals (`244.95`: 2; `3.41421356`: 8).
    Decimals(u32),
    /// C `%g` style: this many significant digits (`5.41421`, `1043`).
    Significant(u32),
}

impl LengthPrecision {
    /// The largest difference between a true length and `printed` that this
    /// precision can explain: a little over half a unit in the last place
    /// (1e-6 at 7+ decimals, whose last digits carry float error).
    pub fn tolerance(self, printed: f64) -> f64 {
        match self {
            // Files with 7+ decimals neither round nor truncate exactly: their
            // last digits carry the generator's floating-point error (the
            // street files print 24.8994949366 as 24.89949493 and
            // 36.0416305603 as 36.04163055). 1e-6 is still far below the
            // smallest gap between two distinct path lengths of these sizes
            // (about 1e-4) and tighter than the 1e-4 the data README allows.
            LengthPrecision::Decimals(d) if d >= 7 => 1e-6,
            LengthPrecision::Decimals(d) => 0.51 * 10f64.powi(-(d as i32)),
            LengthPrecision::Significant(s) => {
                let mag = if printed > 0.0 {
                    printed.abs().log10().floor() as i32
                } else {
                    0
                };
                (0.51 * 10f64.powi(mag - (s as i32 - 1))).max(1e-9)
            }
        }
    }
}

/// A parsed scenario file.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The rows in file order.
    pub rows: Vec<ScenRow>,
    /// The precision the file prints lengths with.
    pub precision: LengthPrecision,
}

impl Scenario {
    /// Whether a computed length agrees with row `row`'s printed optimum
    /// within the file's print precision.
    pub fn matches(&self, row: &ScenRow, computed: f64) -> bool {
        (computed - row.optimal).abs() <= self.precision.tolerance(row.optimal)
    }
}

/// Reads a `.scen` file.
pub fn read_scen(path: impl AsRef<Path>) -> Result<Scenario, ScenError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| ScenError {
        kind: ScenErrorKind::Io(format!("{}: {e}", path.display())),
        line: 0,
        column: 0,
    })?;
    parse_scen(&text)
}

/// Parses the text of a `.scen` file.
pub fn parse_scen(text: &str) -> Result<Scenario, ScenError> {
    let mut lines = text.lines().enumerate();
    let first = lines.by_ref().find(|(_, l)| !l.trim().is_empty());
    match first {
        Some((_, l))
            if matches!(
                l.split_whitespace().collect::<Vec<_>>()[..],
                ["version", "1" | "1.0"]
            ) => {}
        Some((i, l)) => {
            return Err(ScenError {
                kind: ScenErrorKind::BadVersion(l.trim().to_string()),
                line: i + 1,
                column: 1,
            })
        }
        None => {
            return Err(ScenError {
                kind: ScenErrorKind::BadVersion(String::new()),
                line: 1,
                column: 0,
            })
        }
    }
    let mut rows = Vec::new();
    let mut max_decimals = 0u32;
    let mut max_significant = 0u32;
    for (i, line) in lines {
        let no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        // Fields with their 1-based columns.
        let mut fields: Vec<(usize, &str)> = Vec::with_capacity(9);
        let mut start = None;
        for (c, ch) in line.char_indices() {
            if ch.is_whitespace() {
                if let Some(s) = start.take() {
                    fields.push((s + 1, &line[s..c]));
                }
            } else if start.is_none() {
                start = Some(c);
            }
        }
        if let Some(s) = start {
            fields.push((s + 1, &line[s..]));
        }
        if fields.len() != 9 {
            return Err(ScenError {
                kind: ScenErrorKind::FieldCount(fields.len()),
                line: no,
                column: 0,
            });
        }
        let int = |k: usize, what: &'static str| -> Result<u32, ScenError> {
            let (col, text) = fields[k];
            text.parse::<u32>().map_err(|_| ScenError {
                kind: ScenErrorKind::BadField {
                    field: k + 1,
                    text: text.to_string(),
                    what,
                },
                line: no,
                column: col,
            })
        };
        let bucket = int(0, "bucket")?;
        let map_width = int(2, "width")?;
        let map_height = int(3, "height")?;
        let start = Point::new(int(4, "x")?, int(5, "y")?);
        let goal = Point::new(int(6, "x")?, int(7, "y")?);
        let (lcol, ltext) = fields[8];
        let optimal = ltext
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| ScenError {
                kind: ScenErrorKind::BadField {
                    field: 9,
                    text: ltext.to_string(),
                    what: "length",
                },
                line: no,
                column: lcol,
            })?;
        for (which, p, col) in [("start", start, fields[4].0), ("goal", goal, fields[6].0)] {
            if p.x >= map_width || p.y >= map_height {
                return Err(ScenError {
                    kind: ScenErrorKind::OutOfBounds {
                        which,
                        point: p,
                        width: map_width,
                        height: map_height,
                    },
                    line: no,
                    column: col,
                });
            }
        }
        let (decimals, significant) = digits(ltext);
        max_decimals = max_decimals.max(decimals);
        max_significant = max_significant.max(significant);
        rows.push(ScenRow {
            bucket,
            map: fields[1].1.to_string(),
            map_width,
            map_height,
            start,
            goal,
            optimal,
            line: no,
        });
    }
    // Files with 7 or more decimals print at fixed precision; files where
    // some length reaches 6 significant digits (or all lengths are whole,
    // which `%g` prints exactly) use `%g`; others (2 decimals) are fixed.
    let precision = if max_decimals >= 7 {
        LengthPrecision::Decimals(max_decimals)
    } else if max_significant >= 6 || max_decimals == 0 {
        LengthPrecision::Significant(6)
    } else {
        LengthPrecision::Decimals(max_decimals)
    };
    Ok(Scenario { rows, precision })
}

/// (decimals, significant digits) of a printed number.
fn digits(text: &str) -> (u32, u32) {
    let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
    let decimals = mantissa
        .split_once('.')
        .map(|(_, d)| d.len() as u32)
        .unwrap_or(0);
    let all: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let significant = all.trim_start_matches('0').len() as u32;
    (decimals, significant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tabs_spaces_and_precisions() {
        let s = parse_scen("version 1\n12\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n3\tmaps/dao/arena.map\t49\t49\t1\t1\t3\t3\t5.41421\n").unwrap();
        assert_eq!(s.rows.len(), 2);
        assert_eq!(s.rows[0].map_file_name(), "arena.map");
        assert_eq!(s.rows[0].start, Point::new(1, 11));
        assert_eq!(s.precision, LengthPrecision::Significant(6));
        assert!(s.matches(&s.rows[1], 4.0 + crate::SQRT2));
        assert!(s.matches(&s.rows[1], 5.414213562));
        assert!(!s.matches(&s.rows[1], 5.4143));

        let s = parse_scen("version 1.0\n0 AR0011SR.map 512 512 1 2 3 4 244.95\n0 AR0011SR.map 512 512 1 2 3 4 2\n").unwrap();
        assert_eq!(s.precision, LengthPrecision::Decimals(2));
        assert!(s.matches(&s.rows[0], 244.954));
        assert!(!s.matches(&s.rows[0], 244.96));

        let s = parse_scen("version 1\n0\tx.map\t9\t9\t1\t2\t3\t4\t3.41421356\n").unwrap();
        assert_eq!(s.precision, LengthPrecision::Decimals(8));
        assert!(s.matches(&s.rows[0], 2.0 + crate::SQRT2));
        assert!(!s.matches(&s.rows[0], 3.4142));
        // Off in the last digits in the street files.
        let s = parse_scen("version 1\n6\tB.map\t9\t9\t1\t2\t3\t4\t24.89949493\n").unwrap();
        assert!(s.matches(&s.rows[0], 24.899494936611667));
        assert!(!s.matches(&s.rows[0], 24.899497));
    }

    #[test]
    fn significant_tolerance_scales() {
        let p = LengthPrecision::Significant(6);
        assert!((p.tolerance(1043.0) - 0.0051).abs() < 1e-9);
        assert!((p.tolerance(5.41421) - 0.0000051).abs() < 1e-12);
    }

    #[test]
    fn errors() {
        let e = parse_scen("version 2\n").unwrap_err();
        assert!(matches!(e.kind, ScenErrorKind::BadVersion(_)));
        let e = parse_scen("version 1\n1 a.map 9 9 1 2 3 4\n").unwrap_err();
        assert_eq!((e.kind, e.line), (ScenErrorKind::FieldCount(8), 2));
        let e = parse_scen("version 1\n1 a.map 9 9 1 z 3 4 5\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 15));
        assert!(matches!(e.kind, ScenErrorKind::BadField { field: 6, .. }));
        let e = parse_scen("version 1\n1 a.map 9 9 1 2 3 4 -5\n").unwrap_err();
        assert!(matches!(e.kind, ScenErrorKind::BadField { field: 9, .. }));
        let e = parse_scen("version 1\n1 a.map 9 9 1 2 3 9 5\n").unwrap_err();
        assert!(matches!(
            e.kind,
            ScenErrorKind::OutOfBounds { which: "goal", .. }
        ));
        assert!(parse_scen("").is_err());
    }
}
