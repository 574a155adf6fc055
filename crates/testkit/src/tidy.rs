//! Architecture checks in the spirit of rust-analyzer's tidy tests: the
//! top-level modules of a crate depend on each other one way only, in a
//! declared layer order.
//!
//! Reads every `.rs` file under `src/`, drops comments (doc links may point
//! anywhere), and collects each `crate::X`, `crate::{X, ..}` and `super::`
//! path. A path is charged to the top-level module that holds the file, and
//! points at the top-level module it names: `super::` is resolved from the
//! file's place in the tree and the inline modules (`mod tests { .. }`)
//! around it, and a name re-exported at the crate root counts as the module
//! it is re-exported from.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `src/lib.rs` → `[]`, `src/a.rs` and
/// `src/a/mod.rs` → `["a"]`, `src/a/b.rs` → `["a", "b"]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The text with comments and the contents of string and char literals
/// blanked out (kept as spaces, so braces inside them do not count).
fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == '"' {
            // A raw string's `r#` prefix was copied already; its body has
            // no escapes, which the search for the closing quote tolerates
            // for the strings of this crate.
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && next.is_some() && b.get(i + 2) == Some(&'\'') {
            // A one-character literal such as '{' (lifetimes are left).
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && next == Some('\\') {
            let mut j = i + 2;
            while j < b.len() && b[j] != '\'' {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier starting at `i` (after spaces), and the index after it.
fn ident_at(s: &[char], mut i: usize) -> (String, usize) {
    while i < s.len() && s[i].is_whitespace() {
        i += 1;
    }
    let start = i;
    while i < s.len() && is_ident(s[i]) {
        i += 1;
    }
    (s[start..i].iter().collect(), i)
}

/// Whether `word` starts at `i` as a whole identifier.
fn word_at(s: &[char], i: usize, word: &str) -> bool {
    let w: Vec<char> = word.chars().collect();
    s.len() >= i + w.len()
        && s[i..i + w.len()] == w[..]
        && (i == 0 || !is_ident(s[i - 1]))
        && s.get(i + w.len()).is_none_or(|&c| !is_ident(c))
}

/// The first segment of every path that follows `crate::`, `super::` or a
/// `crate::{..}` group, resolved to an absolute module path (its first
/// element is a top-level module, or a name at the root).
fn references(text: &str, file_module: &[String]) -> Vec<Vec<String>> {
    let s: Vec<char> = strip(text).chars().collect();
    let mut refs = Vec::new();
    let mut depth = 0usize;
    // Inline modules open at brace depth `.1`.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            '{' => {
                depth += 1;
                i += 1;
                continue;
            }
            '}' => {
                depth -= 1;
                if inline.last().is_some_and(|m| m.1 == depth) {
                    inline.pop();
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        if word_at(&s, i, "mod") {
            let (name, after) = ident_at(&s, i + 3);
            let mut j = after;
            while j < s.len() && s[j].is_whitespace() {
                j += 1;
            }
            if !name.is_empty() && s.get(j) == Some(&'{') {
                inline.push((name, depth));
            }
            i = after;
            continue;
        }
        let here: Vec<String> = file_module
            .iter()
            .cloned()
            .chain(inline.iter().map(|m| m.0.clone()))
            .collect();
        if word_at(&s, i, "crate") && s[i + 5..].starts_with(&[':', ':']) {
            let j = i + 7;
            if s.get(j) == Some(&'{') {
                // `crate::{a::X, b, ..}`: the first segment of each item.
                let mut k = j + 1;
                let mut level = 1;
                let mut expect = true;
                while k < s.len() && level > 0 {
                    match s[k] {
                        '{' => level += 1,
                        '}' => level -= 1,
                        ',' if level == 1 => expect = true,
                        c if expect && is_ident(c) => {
                            let (name, after) = ident_at(&s, k);
                            refs.push(vec![name]);
                            expect = false;
                            k = after;
                            continue;
                        }
                        _ => {}
                    }
                    k += 1;
                }
                i = j;
            } else {
                let (name, after) = ident_at(&s, j);
                refs.push(vec![name]);
                i = after;
            }
            continue;
        }
        if word_at(&s, i, "super") && s[i + 5..].starts_with(&[':', ':']) {
            let mut at = here.clone();
            let mut j = i;
            while word_at(&s, j, "super") && s[j + 5..].starts_with(&[':', ':']) {
                at.pop();
                j += 7;
            }
            if s.get(j) == Some(&'*') || s.get(j) == Some(&'{') {
                refs.push(at);
            } else {
                let (name, after) = ident_at(&s, j);
                at.push(name);
                refs.push(at);
                j = after;
            }
            i = j;
            continue;
        }
        i += 1;
    }
    refs
}

/// Root-level names re-exported from a top-level module, from `lib.rs`'s
/// `pub use module::{..}` lines.
fn root_exports(lib: &str) -> BTreeMap<String, String> {
    let text = strip(lib);
    let mut map = BTreeMap::new();
    for stmt in text.split(';') {
        let stmt = stmt.trim();
        let Some(rest) = stmt.strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_start_matches("crate::");
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names
            .split(|c: char| !is_ident(c))
            .filter(|n| !n.is_empty())
        {
            map.insert(name.to_string(), module.to_string());
        }
    }
    map
}

/// Every way the top-level modules of the crate at `src` (its `src/`
/// folder) break the layering: an import cycle between two modules, an
/// import of a module that is not in a lower layer of `layers` (listed from
/// the bottom up), or a module missing from `layers`. Empty when the
/// layering holds.
pub fn layer_violations(src: &Path, layers: &[&[&str]]) -> Vec<String> {
    let src = src.to_path_buf();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let lib = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let exports = root_exports(&lib);
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(k, names)| names.iter().map(move |&n| (n, k)))
        .collect();

    let modules: BTreeSet<String> = files
        .iter()
        .filter_map(|f| module_path(&src, f).first().cloned())
        .collect();
    let mut problems = Vec::new();
    for m in &modules {
        if !layer_of.contains_key(m.as_str()) {
            problems.push(format!(
                "module `{m}` has no layer: add it to the layers of the crate's tests/tidy.rs"
            ));
        }
    }

    // (from, to) → the files that make the edge.
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_path(&src, file);
        let Some(from) = module.first() else {
            continue; // lib.rs: the root may name every module.
        };
        let text = fs::read_to_string(file).expect("read source");
        for r in references(&text, &module) {
            let Some(first) = r.first() else { continue };
            let to = if modules.contains(first) {
                first.clone()
            } else if let Some(m) = exports.get(first) {
                m.clone()
            } else {
                continue;
            };
            if &to != from {
                let rel = file.strip_prefix(&src).unwrap().display().to_string();
                edges
                    .entry((from.clone(), to))
                    .or_default()
                    .insert(format!("src/{rel}"));
            }
        }
    }

    for ((from, to), files) in &edges {
        let files: Vec<&str> = files.iter().map(|s| s.as_str()).collect();
        if from < to && edges.contains_key(&(to.clone(), from.clone())) {
            let back: Vec<&str> = edges[&(to.clone(), from.clone())]
                .iter()
                .map(|s| s.as_str())
                .collect();
            problems.push(format!(
                "import cycle: `{from}` ↔ `{to}` ({} uses `{to}`; {} uses `{from}`)",
                files.join(", "),
                back.join(", ")
            ));
        }
        if let (Some(&lf), Some(&lt)) = (layer_of.get(from.as_str()), layer_of.get(to.as_str())) {
            if lt >= lf {
                problems.push(format!(
                    "`{from}` (layer {lf}) imports `{to}` (layer {lt}), which is not below it ({})",
                    files.join(", ")
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scanner_sees_every_form_of_reference() {
        let text = r#"
            //! [`crate::jps::Doc`] in a comment is not a reference.
            use crate::cost::Cost;
            use crate::{types::Found, window};
            use super::sibling::Thing;
            fn f() -> crate::moves::Dir { let s = "crate::queue::X {"; todo!() }
            #[cfg(test)]
            mod tests {
                use super::*;
                use super::super::engine;
            }
            use super::after;
        "#;
        let module = vec!["astar".to_string(), "dense".to_string()];
        let got = references(text, &module);
        let want: Vec<Vec<&str>> = vec![
            vec!["cost"],
            vec!["types"],
            vec!["window"],
            vec!["astar", "sibling"],
            vec!["moves"],
            vec!["astar", "dense"],
            vec!["astar", "engine"],
            vec!["astar", "after"],
        ];
        assert_eq!(got, want);
    }
}
