//! Movement profiles: what a kind of unit may enter, at what cost, and how
//! many cells wide it is.
//!
//! A [`Profile`] gives a cost per terrain character (a character without a
//! cost is impassable for the profile) and a size `k`: a unit stands on a
//! *position* `(x, y)` that covers the `k × k` cells from `(x, y)` right and
//! down; the position is usable when all of them are in the map and
//! passable, and costs the largest cost among them (see
//! [`ProfileGrid`](crate::ProfileGrid)). A step costs its length (1 or √2)
//! times the mean of the costs of the two positions it joins.
//!
//! Profiles are made with a builder or read from TOML:
//!
//! ```toml
//! name = "tank"
//! size = 2          # optional, 1 when absent
//!
//! [cost]
//! "." = 1.0
//! G = 1.0
//! S = 3             # swamp: three times as slow
//! ```
//!
//! ```
//! use regionpath_grid::{Profile, Terrain};
//!
//! let tank = Profile::builder("tank").size(2).cost('.', 1.0).cost('S', 3.0).build()?;
//! assert_eq!(tank.cost(Terrain::SWAMP), Some(3.0));
//! assert_eq!(tank.cost(Terrain::WATER), None); // no cost: impassable
//!
//! let boat = Profile::from_toml_str("name = \"boat\"\n[cost]\nW = 1\n", "boat.toml")?;
//! assert_eq!((boat.name(), boat.size()), ("boat", 1));
//! # Ok::<(), regionpath_grid::ProfileError>(())
//! ```

use crate::grid::Terrain;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use thiserror::Error;
use toml::Spanned;

/// The largest unit size `k` a [`Profile`] accepts (a position covers
/// `k × k` cells).
pub const MAX_UNIT_SIZE: u32 = 8;

/// The smallest cost a [`Profile`] accepts for a terrain kind.
pub const MIN_COST: f64 = 0.01;

/// The largest cost a [`Profile`] accepts for a terrain kind. With costs in
/// `MIN_COST..=MAX_COST` a step costs at most √2 · 1000 cells, so
/// fixed-point path costs of 2³⁰ units per cell stay far from `u64`
/// overflow on any path shorter than 12 million steps, and the cheapest
/// step keeps 10⁷ units (a relative rounding error below 10⁻⁷).
pub const MAX_COST: f64 = 1000.0;

/// How many characters a profile can price: printable ASCII `'!'..='~'`.
const CHARS: usize = 94;

/// What a kind of unit may enter, at what cost, and its size.
///
/// Valid by construction: a name, a size in `1..=`[`MAX_UNIT_SIZE`], at
/// least one priced terrain character, every cost finite and in
/// [`MIN_COST`]`..=`[`MAX_COST`]. About 780 bytes; looking up a cost is
/// O(1). [`Profile::default`] is the benchmark's rules: `.`, `G` and `S`
/// cost 1, size 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    name: String,
    size: u32,
    /// Cost per character `'!' + i`; 0 for impassable.
    costs: [f64; CHARS],
}

impl Default for Profile {
    /// The benchmark's rules: `.`, `G` and `S` cost 1, everything else is
    /// impassable, size 1; named `default`.
    fn default() -> Profile {
        let mut costs = [0.0; CHARS];
        for c in ['.', 'G', 'S'] {
            costs[c as usize - '!' as usize] = 1.0;
        }
        Profile {
            name: "default".to_string(),
            size: 1,
            costs,
        }
    }
}

impl Profile {
    /// A builder for a profile named `name` (size 1, no costs yet).
    pub fn builder(name: impl Into<String>) -> ProfileBuilder {
        ProfileBuilder {
            name: name.into(),
            size: 1,
            costs: Vec::new(),
        }
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The unit size `k`: a position covers `k × k` cells.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The cost of a cell of kind `t`, or `None` when the profile cannot
    /// enter it. O(1).
    #[inline]
    pub fn cost(&self, t: Terrain) -> Option<f64> {
        let c = self.costs[t.to_char() as usize - '!' as usize];
        (c > 0.0).then_some(c)
    }

    /// Every priced kind with its cost, in character order.
    pub fn costs(&self) -> impl Iterator<Item = (Terrain, f64)> + '_ {
        self.costs.iter().enumerate().filter_map(|(i, &c)| {
            let t = Terrain::from_char((b'!' + i as u8) as char)?;
            (c > 0.0).then_some((t, c))
        })
    }

    /// Whether this profile moves like the benchmark's rules: size 1, and
    /// exactly `.`, `G` and `S` priced, all at cost 1 (the name does not
    /// count).
    pub fn is_default_rules(&self) -> bool {
        self.size == 1 && self.costs == Profile::default().costs
    }

    /// Parses a profile from TOML text: `name` (a string), `size` (an
    /// integer, 1 when absent) and a `[cost]` table from terrain characters
    /// to numbers; nothing else. `origin` names the text in errors (a file
    /// name). Every error is [`ProfileError::At`], naming `origin`, the
    /// line and column and the field.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Profile, ProfileError> {
        let at = |span: Range<usize>, field: String, error: ProfileError| {
            let (line, column) = line_column(text, span.start);
            ProfileError::At {
                origin: origin.to_string(),
                line,
                column,
                field,
                error: Box::new(error),
            }
        };
        let file: ProfileFile = toml::from_str(text).map_err(|e| {
            let span = e.span().unwrap_or(0..0);
            let message = e.message().trim().to_string();
            let field = field_at(text, span.clone(), &message);
            at(span, field, ProfileError::Syntax { message })
        })?;
        let mut b = Profile::builder(file.name.get_ref().clone());
        if let Err(e) = b.check_name() {
            return Err(at(file.name.span(), "name".into(), e));
        }
        if let Some(size) = &file.size {
            let s = *size.get_ref();
            match u32::try_from(s) {
                Ok(s) if (1..=MAX_UNIT_SIZE).contains(&s) => b.size = s,
                _ => {
                    return Err(at(
                        size.span(),
                        "size".into(),
                        ProfileError::BadSize { size: s },
                    ))
                }
            }
        }
        for (key, cost) in file.cost.get_ref() {
            let k = key.get_ref();
            let field = format!("cost.{k}");
            let mut chars = k.chars();
            let c = match (chars.next(), chars.next()) {
                (Some(c), None) if Terrain::from_char(c).is_some() => c,
                _ => {
                    let e = ProfileError::BadTerrainKey { key: k.clone() };
                    return Err(at(key.span(), field, e));
                }
            };
            if let Err(e) = check_cost(c, *cost.get_ref()) {
                return Err(at(cost.span(), field, e));
            }
            b = b.cost(c, *cost.get_ref());
        }
        b.build()
            .map_err(|e| at(file.cost.span(), "cost".into(), e))
    }

    /// Reads a profile from a TOML file (see [`Profile::from_toml_str`]);
    /// errors name the file.
    pub fn read(path: impl AsRef<Path>) -> Result<Profile, ProfileError> {
        let path = path.as_ref();
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ProfileError::Io {
            origin: origin.clone(),
            message: e.to_string(),
        })?;
        Profile::from_toml_str(&text, &origin)
    }
}

/// Builds a [`Profile`]; [`ProfileBuilder::build`] validates it.
#[derive(Clone, Debug)]
pub struct ProfileBuilder {
    name: String,
    size: u32,
    costs: Vec<(char, f64)>,
}

impl ProfileBuilder {
    /// The unit size `k` (1 when not set).
    pub fn size(mut self, k: u32) -> ProfileBuilder {
        self.size = k;
        self
    }

    /// The cost of the terrain character `c` (a later cost for the same
    /// character replaces an earlier one).
    pub fn cost(mut self, c: char, cost: f64) -> ProfileBuilder {
        self.costs.push((c, cost));
        self
    }

    fn check_name(&self) -> Result<(), ProfileError> {
        if self.name.trim().is_empty() {
            return Err(ProfileError::EmptyName);
        }
        Ok(())
    }

    /// The profile, or the first thing wrong with it: an empty name, a size
    /// outside `1..=`[`MAX_UNIT_SIZE`], a character that is not printable
    /// ASCII, a cost that is not finite or not in
    /// [`MIN_COST`]`..=`[`MAX_COST`], or no priced character at all.
    pub fn build(self) -> Result<Profile, ProfileError> {
        self.check_name()?;
        if !(1..=MAX_UNIT_SIZE).contains(&self.size) {
            return Err(ProfileError::BadSize {
                size: self.size.into(),
            });
        }
        let mut costs = [0.0; CHARS];
        for &(c, cost) in &self.costs {
            if Terrain::from_char(c).is_none() {
                return Err(ProfileError::BadTerrainKey { key: c.to_string() });
            }
            check_cost(c, cost)?;
            costs[c as usize - '!' as usize] = cost;
        }
        if costs.iter().all(|&c| c == 0.0) {
            return Err(ProfileError::NoPassableTerrain);
        }
        Ok(Profile {
            name: self.name,
            size: self.size,
            costs,
        })
    }
}

fn check_cost(c: char, cost: f64) -> Result<(), ProfileError> {
    if cost.is_finite() && (MIN_COST..=MAX_COST).contains(&cost) {
        Ok(())
    } else {
        Err(ProfileError::BadCost { terrain: c, cost })
    }
}

/// What is wrong with a profile.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ProfileError {
    /// The name is empty or blank.
    #[error("the name is empty")]
    EmptyName,
    /// A size outside `1..=`[`MAX_UNIT_SIZE`].
    #[error("size {size} is out of range: a unit is 1 to {MAX_UNIT_SIZE} cells wide")]
    BadSize {
        /// The size given.
        size: i64,
    },
    /// A cost that is zero, negative, not finite or out of range.
    #[error(
        "cost {cost} for terrain {terrain:?} is invalid: costs are finite numbers \
         from {MIN_COST} to {MAX_COST} (leave a terrain out to make it impassable)"
    )]
    BadCost {
        /// The terrain character.
        terrain: char,
        /// The cost given.
        cost: f64,
    },
    /// A `[cost]` key that is not one printable ASCII character.
    #[error("terrain key {key:?} is not one printable ASCII character ('!' to '~')")]
    BadTerrainKey {
        /// The key given.
        key: String,
    },
    /// No terrain has a cost: the unit could stand nowhere.
    #[error("no terrain is passable: give at least one terrain character a cost")]
    NoPassableTerrain,
    /// Text that is not a profile: TOML syntax, an unknown key, a missing
    /// `name` or `[cost]`, a value of the wrong type.
    #[error("{message}")]
    Syntax {
        /// The parser's message.
        message: String,
    },
    /// A profile file could not be read.
    #[error("{origin}: cannot read the profile: {message}")]
    Io {
        /// The file.
        origin: String,
        /// The system's message.
        message: String,
    },
    /// An error in a profile file, with where it is.
    #[error("{origin}, line {line}, column {column}, field `{field}`: {error}")]
    At {
        /// The file (or the name given to the text).
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The field: `name`, `size`, `cost`, `cost.<character>`, or the
        /// key on the line of a syntax error.
        field: String,
        /// What is wrong.
        error: Box<ProfileError>,
    },
}

/// The TOML shape of a profile file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    name: Spanned<String>,
    size: Option<Spanned<i64>>,
    cost: Spanned<BTreeMap<Spanned<String>, Spanned<f64>>>,
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// The field a parser error at `span` concerns: the one a "missing field"
/// message names, else the key before `=` on its line (under its table's
/// name, `cost.G`), else the text of the span (an unknown table's name).
fn field_at(text: &str, span: Range<usize>, message: &str) -> String {
    if let Some(rest) = message.strip_prefix("missing field `") {
        return rest.split('`').next().unwrap_or(rest).to_string();
    }
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = &text[line_start..line_end];
    let unquote = |k: &str| {
        k.trim()
            .trim_matches(|c| c == '"' || c == '\'' || c == '[' || c == ']')
            .to_string()
    };
    let Some(eq) = line.find('=') else {
        return unquote(text.get(span).unwrap_or(""));
    };
    let key = unquote(&line[..eq]);
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['));
    match table {
        Some(t) => format!("{}.{key}", unquote(t.split('#').next().unwrap_or(t))),
        None => key,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error of `text` as (line, column, field, inner error).
    fn fails(text: &str) -> (usize, usize, String, ProfileError) {
        match Profile::from_toml_str(text, "unit.toml").unwrap_err() {
            e @ ProfileError::At { .. } => {
                let shown = e.to_string();
                let ProfileError::At {
                    origin,
                    line,
                    column,
                    field,
                    error,
                } = e
                else {
                    unreachable!()
                };
                assert_eq!(origin, "unit.toml");
                // The message names the file, the line and the field.
                assert!(shown.starts_with("unit.toml, line "), "{shown}");
                assert!(shown.contains(&format!("field `{field}`")), "{shown}");
                (line, column, field, *error)
            }
            other => panic!("not located: {other:?}"),
        }
    }

    #[test]
    fn reads_a_profile() {
        let text = "name = \"tank\"\nsize = 2\n\n[cost]\n\".\" = 1\nG = 1.0\nS = 3.5\n";
        let p = Profile::from_toml_str(text, "tank.toml").unwrap();
        assert_eq!((p.name(), p.size()), ("tank", 2));
        assert_eq!(p.cost(Terrain::GROUND), Some(1.0));
        assert_eq!(p.cost(Terrain::SWAMP), Some(3.5));
        assert_eq!(p.cost(Terrain::TREES), None);
        let listed: Vec<_> = p.costs().map(|(t, c)| (t.to_char(), c)).collect();
        assert_eq!(listed, vec![('.', 1.0), ('G', 1.0), ('S', 3.5)]);
        let built = Profile::builder("tank")
            .size(2)
            .cost('S', 1.0)
            .cost('.', 1.0)
            .cost('G', 1.0)
            .cost('S', 3.5)
            .build()
            .unwrap();
        assert_eq!(built, p);
        assert!(!p.is_default_rules());
        let d =
            Profile::from_toml_str("name = \"d\"\n[cost]\n\".\" = 1\nG = 1\nS = 1\n", "d").unwrap();
        assert!(d.is_default_rules());
        assert!(Profile::default().is_default_rules());
        assert_eq!(d.size(), 1);
    }

    #[test]
    fn file_errors_name_line_column_and_field() {
        let head = "name = \"tank\"\n";
        let (line, col, field, e) = fails(&format!("{head}speed = 3\n[cost]\n\".\" = 1\n"));
        assert_eq!((line, col, field.as_str()), (2, 1, "speed"));
        assert!(matches!(e, ProfileError::Syntax { ref message } if message.contains("speed")));

        let (line, col, field, e) = fails(&format!("{head}[cost]\n\".\" = 1\nS = 0\n"));
        assert_eq!((line, col, field.as_str()), (4, 5, "cost.S"));
        assert_eq!(
            e,
            ProfileError::BadCost {
                terrain: 'S',
                cost: 0.0
            }
        );
        let (line, _, field, e) = fails(&format!("{head}[cost]\nS = -2.5\n"));
        assert_eq!((line, field.as_str()), (3, "cost.S"));
        assert!(matches!(e, ProfileError::BadCost { cost, .. } if cost == -2.5));
        let (line, _, _, e) = fails(&format!("{head}[cost]\nW = nan\n"));
        assert_eq!(line, 3);
        assert!(matches!(e, ProfileError::BadCost { cost, .. } if cost.is_nan()));
        let (_, _, _, e) = fails(&format!("{head}[cost]\nW = inf\n"));
        assert!(matches!(e, ProfileError::BadCost { .. }));
        let (_, _, _, e) = fails(&format!("{head}[cost]\nW = 1001\n"));
        assert!(matches!(e, ProfileError::BadCost { .. }));

        for (size, bad) in [("0", 0), ("100", 100), ("-1", -1)] {
            let (line, col, field, e) = fails(&format!("{head}size = {size}\n[cost]\nG = 1\n"));
            assert_eq!((line, col, field.as_str()), (2, 8, "size"));
            assert_eq!(e, ProfileError::BadSize { size: bad });
        }

        let (line, col, field, e) = fails(&format!("{head}[cost]\nGS = 1\n"));
        assert_eq!((line, col, field.as_str()), (3, 1, "cost.GS"));
        assert_eq!(e, ProfileError::BadTerrainKey { key: "GS".into() });
        let (_, _, _, e) = fails(&format!("{head}[cost]\n\" \" = 1\n"));
        assert_eq!(e, ProfileError::BadTerrainKey { key: " ".into() });

        let (line, _, field, e) = fails(&format!("{head}size = 2\n[cost]\n"));
        assert_eq!((line, field.as_str()), (3, "cost"));
        assert_eq!(e, ProfileError::NoPassableTerrain);

        let (line, _, field, e) = fails("name = \"\"\n[cost]\nG = 1\n");
        assert_eq!((line, field.as_str()), (1, "name"));
        assert_eq!(e, ProfileError::EmptyName);

        // Wrong types and bad TOML are located too.
        let (line, _, field, _) = fails(&format!("{head}size = \"two\"\n[cost]\nG = 1\n"));
        assert_eq!((line, field.as_str()), (2, "size"));
        let (line, _, field, _) = fails(&format!("{head}[cost]\nG = \"slow\"\n"));
        assert_eq!((line, field.as_str()), (3, "cost.G"));
        let (line, _, _, _) = fails(&format!("{head}[cost]\nG = \n"));
        assert_eq!(line, 3);
        let (_, _, field, e) = fails("size = 1\n[cost]\nG = 1\n");
        assert_eq!(field, "name");
        assert!(matches!(e, ProfileError::Syntax { ref message } if message.contains("name")));
        let (line, _, field, _) = fails(&format!("{head}[cost]\nG = 1\n[speed]\nG = 2\n"));
        assert_eq!((line, field.as_str()), (4, "speed"));
    }

    #[test]
    fn builder_validates() {
        let b = || Profile::builder("u").cost('.', 1.0);
        assert_eq!(b().size(0).build(), Err(ProfileError::BadSize { size: 0 }));
        assert_eq!(
            b().size(MAX_UNIT_SIZE + 1).build(),
            Err(ProfileError::BadSize { size: 9 })
        );
        assert!(b().size(MAX_UNIT_SIZE).build().is_ok());
        assert!(matches!(
            b().cost('S', f64::NAN).build(),
            Err(ProfileError::BadCost { terrain: 'S', .. })
        ));
        assert!(matches!(
            b().cost('S', 0.0).build(),
            Err(ProfileError::BadCost { .. })
        ));
        assert!(b().cost('S', MIN_COST).cost('T', MAX_COST).build().is_ok());
        assert_eq!(
            b().cost(' ', 1.0).build(),
            Err(ProfileError::BadTerrainKey { key: " ".into() })
        );
        assert_eq!(
            Profile::builder("u").build(),
            Err(ProfileError::NoPassableTerrain)
        );
        assert_eq!(
            Profile::builder(" ").cost('.', 1.0).build(),
            Err(ProfileError::EmptyName)
        );
    }

    #[test]
    fn read_names_the_file() {
        let e = Profile::read("/nonexistent/dir/tank.toml").unwrap_err();
        assert!(e.to_string().contains("/nonexistent/dir/tank.toml"), "{e}");
        let dir = std::env::temp_dir().join(format!("rp-profile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.toml");
        std::fs::write(&path, "name = \"x\"\n[cost]\nS = 0\n").unwrap();
        let e = Profile::read(&path).unwrap_err();
        let shown = e.to_string();
        assert!(shown.contains("bad.toml, line 3"), "{shown}");
        assert!(shown.contains("field `cost.S`"), "{shown}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
