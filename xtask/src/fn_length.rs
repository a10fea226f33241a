//! The function-length rule of `cargo xtask tidy`: a function of library, binary or
//! xtask code (tests apart) fits on one screen, [`LIMIT`] lines from its `fn` line to
//! its closing brace.
//!
//! The functions that were longer when the rule came are listed in
//! `xtask/long-functions.txt` with their length then: each may shrink but not grow, and
//! a listed function that now fits (or is gone) is reported so the list only shrinks.
//! `cargo xtask tidy --bless-long-functions` rewrites the list from the sources (the
//! change is then reviewed like code).
//!
//! Functions are found in rustfmt's layout, which CI enforces: an `fn` line, then the
//! first line at the same indentation that is only `}`. Files named `tests.rs`, and
//! `#[cfg(test)] mod … { … }` blocks, are tests and not measured.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Longest function, in lines, that needs no entry in the list.
pub const LIMIT: usize = 80;

/// The list of grandfathered long functions, relative to the repository root.
const LIST: &str = "xtask/long-functions.txt";

/// A function found in a source file.
#[derive(Debug, PartialEq, Eq)]
struct Function {
    name: String,
    /// 1-based line of its `fn` line.
    line: usize,
    /// Lines from the `fn` line to the closing brace, both included.
    len: usize,
}

/// Checks every function against [`LIMIT`] and the list; with `bless`, rewrites the list
/// instead. Findings are pushed as text lines.
pub fn check(root: &Path, bless: bool, findings: &mut Vec<String>) -> Result<usize, String> {
    let mut long: Vec<(String, Function)> = Vec::new();
    let mut files = 0;
    for file in sources(root)? {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let path = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        files += 1;
        for f in functions(&text) {
            if f.len > LIMIT {
                long.push((path.clone(), f));
            }
        }
    }
    if bless {
        return write_list(root, &long).map(|()| files);
    }
    let list = read_list(root)?;
    let mut seen: BTreeMap<(&str, &str), bool> = BTreeMap::new();
    for (path, f) in &long {
        let key = (path.as_str(), f.name.as_str());
        match list.get(&(path.clone(), f.name.clone())) {
            Some(&max) if f.len <= max => {
                seen.insert(key, true);
            }
            Some(&max) => findings.push(format!(
                "{path}:{}: fn {} is {} lines, longer than the {max} it had ({LIST}); split it",
                f.line, f.name, f.len
            )),
            None => findings.push(format!(
                "{path}:{}: fn {} is {} lines (limit {LIMIT}); split it into named steps",
                f.line, f.name, f.len
            )),
        }
    }
    for (path, name) in list.keys() {
        if !seen.contains_key(&(path.as_str(), name.as_str())) {
            findings.push(format!(
                "{LIST}: {path} fn {name} now fits in {LIMIT} lines or is gone: remove its line"
            ));
        }
    }
    Ok(files)
}

/// The Rust sources measured: `crates/*/src` and `xtask/src`, test files apart.
fn sources(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut dirs = vec![root.join("xtask/src")];
    let crates = std::fs::read_dir(root.join("crates")).map_err(|e| e.to_string())?;
    for c in crates {
        let src = c.map_err(|e| e.to_string())?.path().join("src");
        if src.is_dir() {
            dirs.push(src);
        }
    }
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let p = e.map_err(|e| e.to_string())?.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs")
                && p.file_name().is_some_and(|n| n != "tests.rs")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The functions of a rustfmt-formatted source file, test modules apart.
fn functions(text: &str) -> Vec<Function> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() == "#[cfg(test)]"
            && let Some(next) = lines.get(i + 1)
            && is_inline_mod(next)
        {
            i = closing(&lines, i + 2, indent(next)).map_or(lines.len(), |k| k + 1);
            continue;
        }
        if let Some(name) = fn_name(lines[i])
            && let Some(len) = fn_len(&lines, i)
        {
            out.push(Function {
                name: name.to_string(),
                line: i + 1,
                len,
            });
        }
        i += 1;
    }
    out
}

/// Lines of the function whose `fn` line is `lines[start]`; `None` for a declaration
/// without a body (a trait method).
fn fn_len(lines: &[&str], start: usize) -> Option<usize> {
    let ind = indent(lines[start]);
    for (j, l) in lines.iter().enumerate().skip(start) {
        let l = l.trim_end();
        if l.ends_with('{') {
            return Some(closing(lines, j + 1, ind).map_or(lines.len(), |k| k + 1) - start);
        }
        if l.ends_with('}') && l.contains('{') {
            // A body on the signature's last line: `fn x() -> u8 { 1 }`.
            return Some(j + 1 - start);
        }
        if l.ends_with(';') {
            return None;
        }
    }
    None
}

/// The first line from `from` that is `}` at indentation `ind`.
fn closing(lines: &[&str], from: usize, ind: &str) -> Option<usize> {
    (from..lines.len()).find(|&k| {
        let l = lines[k].trim_end();
        l.len() == ind.len() + 1 && l.starts_with(ind) && l.ends_with('}')
    })
}

fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// `mod name {` (any visibility): an inline module.
fn is_inline_mod(line: &str) -> bool {
    let t = strip_visibility(line.trim());
    t.strip_prefix("mod ")
        .is_some_and(|r| r.trim_end().ends_with('{'))
}

/// The name of the function an `fn` line declares (after visibility and qualifiers).
fn fn_name(line: &str) -> Option<&str> {
    let mut t = line.trim_start();
    loop {
        let before = t;
        t = strip_visibility(t);
        for q in [
            "const ",
            "async ",
            "unsafe ",
            "default ",
            "extern \"C\" ",
            "extern \"Rust\" ",
        ] {
            if let Some(r) = t.strip_prefix(q) {
                t = r;
            }
        }
        if t == before {
            break;
        }
    }
    let rest = t.strip_prefix("fn ")?;
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn strip_visibility(t: &str) -> &str {
    if let Some(r) = t.strip_prefix("pub(")
        && let Some(k) = r.find(')')
    {
        return r[k + 1..].trim_start();
    }
    t.strip_prefix("pub ").unwrap_or(t)
}

/// The list: (path, function) -> the most lines it may have.
fn read_list(root: &Path) -> Result<BTreeMap<(String, String), usize>, String> {
    let path = root.join(LIST);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let [len, file, name] = f[..] else {
            return Err(format!("{LIST}:{}: expected `<lines> <path> <fn>`", n + 1));
        };
        let len: usize = len
            .parse()
            .map_err(|_| format!("{LIST}:{}: {len:?} is not a number", n + 1))?;
        let e = out
            .entry((file.to_string(), name.to_string()))
            .or_insert(len);
        *e = (*e).max(len);
    }
    Ok(out)
}

fn write_list(root: &Path, long: &[(String, Function)]) -> Result<(), String> {
    let mut rows: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (path, f) in long {
        let e = rows.entry((path.clone(), f.name.clone())).or_insert(f.len);
        *e = (*e).max(f.len);
    }
    let mut text = format!(
        "# Functions longer than {LIMIT} lines, each at most as long as given here\n\
         # (`cargo xtask tidy`, xtask/src/fn_length.rs). Split them; never add a line.\n\
         # <lines> <path> <fn>\n"
    );
    for ((path, name), len) in rows {
        text.push_str(&format!("{len} {path} {name}\n"));
    }
    std::fs::write(root.join(LIST), text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_functions_in_rustfmt_layout() {
        let src = "\
pub(crate) fn a(x: u8) -> u8 {
    x
}

impl T {
    pub const fn b(
        &self,
    ) -> u8
    where
        Self: Sized,
    {
        1
    }
    fn c() -> u8 { 2 }
    fn d(&self);
}

#[cfg(test)]
mod tests {
    fn e() {
        let _ = 1;
    }
}
";
        let got: Vec<(String, usize, usize)> = functions(src)
            .into_iter()
            .map(|f| (f.name, f.line, f.len))
            .collect();
        assert_eq!(
            got,
            vec![("a".into(), 1, 3), ("b".into(), 6, 8), ("c".into(), 14, 1)]
        );
    }

    #[test]
    fn names_after_qualifiers() {
        assert_eq!(
            fn_name("    pub(super) async unsafe fn go<T>()"),
            Some("go")
        );
        assert_eq!(fn_name("    let f = fn_ptr;"), None);
        assert_eq!(fn_name("fn"), None);
    }
}
