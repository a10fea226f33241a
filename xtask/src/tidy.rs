//! `cargo xtask tidy`: the repository's own rules that no compiler checks.
//!
//! * Every repository path a document names exists: the markdown links and the
//!   backticked spans that look like repository paths in README.md, CHANGELOG.md,
//!   CONTRIBUTING.md, docs/**/*.md, crates/*/README.md, fuzz/README.md and
//!   testdata/**/*.md.
//! * Each library crate's `lib.rs` starts with a one-line `//!` purpose, and each
//!   published library crate's README shows its `[dependencies]` line.
//! * Dependencies point downwards: each crate's `[dependencies]` names only workspace
//!   crates of a lower layer ([`LAYERS`]); the front ends reach game records only
//!   through cescacs-convert; below cescacs-batch, only perft depends on rayon and
//!   only `xiangqi_pgn::read_path` touches the file system outside tests.
//!
//! * The tests docs/architecture.md and docs/scanners.md name as holding an invariant
//!   exist (a backticked `snake_case_name` with three underscores or more must be a
//!   `fn` somewhere in the Rust sources).
//!
//! * No function grows past one screen ([`crate::fn_length`]).
//!
//! Prints one line per finding and returns `Ok(false)` (exit 1) when there is any.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers of docs/architecture.md, lowest first. A crate may depend only on crates
/// of a lower layer.
pub const LAYERS: &[(&str, &[&str])] = &[
    ("geometry", &["cescacs-hex", "perft"]),
    ("rules", &["cescacs-rules", "xiangqi"]),
    (
        "position strings, tokens, PCN, pictures",
        &["cescacs-tlpd", "pgn-core", "pcn", "board-svg"],
    ),
    ("game records", &["ctl-pgn", "chess-pgn", "xiangqi-pgn"]),
    ("converters", &["pcn-convert", "cescacs-batch"]),
    ("conversion", &["cescacs-convert"]),
    ("views", &["game-viewer"]),
    (
        "front ends",
        &["cescacs-cli", "cescacs-py", "cescacs-wasm", "xtask"],
    ),
];

/// Front ends that must reach game records (and their converters) through
/// cescacs-convert only. xtask, the project's automation, measures the readers
/// themselves and is exempt.
const THIN_FRONT_ENDS: &[&str] = &["cescacs-cli", "cescacs-py", "cescacs-wasm"];
const THROUGH_CONVERT_ONLY: &[&str] = &["ctl-pgn", "chess-pgn", "xiangqi-pgn", "pcn-convert"];

/// Crates that are not part of the layered library (dev-only helpers).
const OUTSIDE_LAYERS: &[&str] = &["test-support"];

/// Library source files (outside tests) allowed to open files or use threads, below
/// cescacs-batch, and why.
const IO_ALLOWED: &[(&str, &str)] = &[
    (
        "crates/perft/src/lib.rs",
        "the one perft split over rayon threads",
    ),
    (
        "crates/xiangqi-pgn/src/reader.rs",
        "read_path, a convenience reader of one file",
    ),
];

/// First path components that make a backticked span a repository path.
const TOP: &[&str] = &[
    "crates/",
    "docs/",
    "xtask/",
    "fuzz/",
    "testdata/",
    "grammar/",
    "peers/",
    "scripts/",
    ".ci/",
];
const TOP_FILES: &[&str] = &[
    "README.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "Cargo.toml",
    "deny.toml",
    "LICENSE-MIT",
    "LICENSE-APACHE",
];

/// Runs every check; `Ok(true)` when nothing was found. `--bless-long-functions`
/// rewrites `xtask/long-functions.txt` from the sources (see [`crate::fn_length`]).
pub fn run(args: &[String]) -> Result<bool, String> {
    let bless = match args {
        [] => false,
        [a] if a == "--bless-long-functions" => true,
        _ => return Err(format!("tidy: unknown arguments {args:?}")),
    };
    let root = crate::root();
    let mut findings = Vec::new();
    let crates = crate_names(&root)?;
    for f in ["CHANGELOG.md", "CONTRIBUTING.md", "docs/README.md"] {
        if !root.join(f).is_file() {
            findings.push(format!("{f}: missing"));
        }
    }
    let docs = documents(&root)?;
    let mut named = 0usize;
    for doc in &docs {
        named += check_paths(&root, doc, &crates, &mut findings)?;
    }
    check_named_tests(&root, &mut findings)?;
    check_crate_heads(&root, &crates, &mut findings)?;
    check_layers(&root, &crates, &mut findings)?;
    check_io(&root, &mut findings)?;
    let sources = crate::fn_length::check(&root, bless, &mut findings)?;
    for f in &findings {
        println!("{f}");
    }
    println!(
        "tidy: {} documents, {named} repository paths named, {} crates, {sources} Rust \
         sources measured (functions <= {} lines), {} finding(s)",
        docs.len(),
        crates.len(),
        crate::fn_length::LIMIT,
        findings.len()
    );
    Ok(findings.is_empty())
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).unwrap_or(p).display().to_string()
}

/// The workspace's crates: directory name under crates/ (plus xtask) -> directory.
fn crate_names(root: &Path) -> Result<BTreeMap<String, PathBuf>, String> {
    let mut out = BTreeMap::new();
    let dir = root.join("crates");
    for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.join("Cargo.toml").is_file() {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.insert(name, p);
        }
    }
    out.insert("xtask".into(), root.join("xtask"));
    Ok(out)
}

fn documents(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for f in [
        "README.md",
        "CHANGELOG.md",
        "CONTRIBUTING.md",
        "fuzz/README.md",
    ] {
        let p = root.join(f);
        if p.is_file() {
            out.push(p);
        }
    }
    markdown_under(&root.join("docs"), &mut out)?;
    markdown_under(&root.join("testdata"), &mut out)?;
    for (_, dir) in crate_names(root)? {
        let p = dir.join("README.md");
        if p.is_file() {
            out.push(p);
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.is_dir() {
            markdown_under(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "md") {
            out.push(p);
        }
    }
    Ok(())
}

/// Checks one document; returns how many repository paths it names.
fn check_paths(
    root: &Path,
    doc: &Path,
    crates: &BTreeMap<String, PathBuf>,
    findings: &mut Vec<String>,
) -> Result<usize, String> {
    let text = read(doc)?;
    let here = doc.parent().unwrap_or(root);
    let mut named = 0;
    let mut in_fence = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        for target in links(line) {
            if let Some(path) = local_link(&target) {
                named += 1;
                if !here.join(&path).exists() {
                    findings.push(format!(
                        "{}:{}: link to a path that does not exist: {target}",
                        rel(root, doc),
                        n + 1
                    ));
                }
            }
        }
        for span in backticked(line) {
            let Some(candidates) = repo_path(span, root, here, crates) else {
                continue;
            };
            named += 1;
            if !candidates.iter().any(|p| p.exists()) {
                findings.push(format!(
                    "{}:{}: names a path that does not exist: `{span}`",
                    rel(root, doc),
                    n + 1
                ));
            }
        }
    }
    Ok(named)
}

/// The targets of the markdown links `[text](target)` on a line.
fn links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.to_string());
        rest = &after[end..];
    }
    out
}

/// A link target that names a file of this repository (no scheme, no pure anchor),
/// without its anchor.
fn local_link(target: &str) -> Option<String> {
    if target.is_empty()
        || target.starts_with('#')
        || target.contains("://")
        || target.starts_with("mailto:")
    {
        return None;
    }
    let path = target.split('#').next().unwrap_or(target);
    (!path.is_empty()).then(|| path.to_string())
}

/// The backticked spans of a line (single backticks).
fn backticked(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// Where a backticked span would be if it is a repository path: `None` when it does not
/// look like one. A span like `cescacs-cli/src/main.rs` names a crate's directory; a
/// span like `src/lib.rs` or `tests/x.rs` in a crate's README is relative to the crate.
fn repo_path(
    span: &str,
    root: &Path,
    here: &Path,
    crates: &BTreeMap<String, PathBuf>,
) -> Option<Vec<PathBuf>> {
    let span = span.trim();
    if span.is_empty()
        || span.len() > 200
        || span
            .chars()
            .any(|c| c.is_whitespace() || "*<>{}$|\"'?[]()=,;&".contains(c))
        || span.starts_with('/')
        || span.starts_with("..")
    {
        return None;
    }
    // `path:line` and `path:line:col` name a place in a file.
    let path = match span.split_once(':') {
        Some((p, rest))
            if rest
                .split(':')
                .all(|d| d.chars().all(|c| c.is_ascii_digit())) =>
        {
            p
        }
        Some(_) => return None,
        None => span,
    };
    let path = path.trim_end_matches('/');
    // Build outputs (`target/`, `fuzz/target/...`) exist only after a run.
    if path.starts_with("target/") || path.contains("/target/") || path.ends_with("/target") {
        return None;
    }
    if TOP_FILES.contains(&path) {
        return Some(vec![root.join(path)]);
    }
    let with_slash = format!("{path}/");
    if TOP.iter().any(|t| with_slash.starts_with(t)) {
        return Some(vec![root.join(path)]);
    }
    let first = path.split('/').next()?;
    if path.contains('/') && crates.contains_key(first) && first != "xtask" {
        return Some(vec![root.join("crates").join(path)]);
    }
    if (path.starts_with("src/")
        || path.starts_with("tests/")
        || path.starts_with("benches/")
        || path.starts_with("examples/"))
        && here.join("Cargo.toml").is_file()
    {
        return Some(vec![here.join(path)]);
    }
    None
}

/// Documents whose backticked test names must exist.
const NAMING_TESTS: &[&str] = &["docs/architecture.md", "docs/scanners.md"];

fn check_named_tests(root: &Path, findings: &mut Vec<String>) -> Result<(), String> {
    let mut sources = Vec::new();
    for dir in ["crates", "xtask", "fuzz"] {
        rust_files(&root.join(dir), &mut sources)?;
    }
    let mut defined = std::collections::BTreeSet::new();
    for f in sources {
        if f.components().any(|c| c.as_os_str() == "target") {
            continue;
        }
        let text = read(&f)?;
        for (i, _) in text.match_indices("fn ") {
            let name: String = text[i + 3..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            defined.insert(name);
        }
    }
    for doc in NAMING_TESTS {
        let path = root.join(doc);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for span in backticked(line) {
                if looks_like_test_name(span) && !defined.contains(span) {
                    findings.push(format!(
                        "{doc}:{}: names a test that does not exist: `{span}`",
                        n + 1
                    ));
                }
            }
        }
    }
    Ok(())
}

fn looks_like_test_name(s: &str) -> bool {
    s.matches('_').count() >= 3
        && s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn check_crate_heads(
    root: &Path,
    crates: &BTreeMap<String, PathBuf>,
    findings: &mut Vec<String>,
) -> Result<(), String> {
    for (name, dir) in crates {
        let lib = dir.join("src/lib.rs");
        if !lib.is_file() {
            continue;
        }
        let text = read(&lib)?;
        let first = text.lines().next().unwrap_or("");
        if !first.starts_with("//! ") || first.trim_end().len() < 12 {
            findings.push(format!(
                "{}:1: does not start with a one-line `//!` purpose",
                rel(root, &lib)
            ));
        }
        let manifest = read(&dir.join("Cargo.toml"))?;
        if manifest.contains("publish = false") {
            continue;
        }
        let readme = dir.join("README.md");
        let has_line = read(&readme).is_ok_and(|r| {
            r.lines().any(|l| l.trim() == "[dependencies]")
                && r.lines()
                    .any(|l| l.trim_start().starts_with(&format!("{name} = ")))
        });
        if !has_line {
            findings.push(format!(
                "{}: no `[dependencies]` block with a `{name} = ...` line",
                rel(root, &readme)
            ));
        }
    }
    Ok(())
}

/// The workspace crates named in a manifest's `[dependencies]` table (not dev- or
/// build-dependencies).
fn dependencies(manifest: &str, crates: &BTreeMap<String, PathBuf>) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == "[dependencies]";
            continue;
        }
        if !inside || t.starts_with('#') {
            continue;
        }
        let name: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if crates.contains_key(&name) {
            out.push(name);
        }
    }
    out
}

fn layer_of(name: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, members)| members.contains(&name))
}

fn check_layers(
    root: &Path,
    crates: &BTreeMap<String, PathBuf>,
    findings: &mut Vec<String>,
) -> Result<(), String> {
    for (name, dir) in crates {
        let manifest_path = dir.join("Cargo.toml");
        let manifest = read(&manifest_path)?;
        let deps = dependencies(&manifest, crates);
        if OUTSIDE_LAYERS.contains(&name.as_str()) {
            continue;
        }
        let Some(mine) = layer_of(name) else {
            findings.push(format!(
                "{}: crate {name} is in no layer of xtask/src/tidy.rs LAYERS (docs/architecture.md)",
                rel(root, &manifest_path)
            ));
            continue;
        };
        for d in deps {
            if OUTSIDE_LAYERS.contains(&d.as_str()) {
                findings.push(format!(
                    "{}: {name} depends on {d}, a dev-only helper, outside [dev-dependencies]",
                    rel(root, &manifest_path)
                ));
                continue;
            }
            match layer_of(&d) {
                Some(theirs) if theirs < mine => {}
                _ => findings.push(format!(
                    "{}: {name} ({}) depends on {d} ({}), not a lower layer",
                    rel(root, &manifest_path),
                    LAYERS[mine].0,
                    layer_of(&d).map_or("no layer", |l| LAYERS[l].0)
                )),
            }
            if THIN_FRONT_ENDS.contains(&name.as_str())
                && THROUGH_CONVERT_ONLY.contains(&d.as_str())
            {
                findings.push(format!(
                    "{}: front end {name} depends on {d}; game records go through cescacs-convert",
                    rel(root, &manifest_path)
                ));
            }
        }
        // Threads: below cescacs-batch only perft depends on rayon.
        if mine < layer_of("cescacs-batch").unwrap_or(0) && name != "perft" {
            let third_party = manifest
                .split("[dev-dependencies]")
                .next()
                .unwrap_or("")
                .lines()
                .any(|l| l.trim_start().starts_with("rayon"));
            if third_party {
                findings.push(format!(
                    "{}: {name} depends on rayon; below cescacs-batch only perft runs threads",
                    rel(root, &manifest_path)
                ));
            }
        }
    }
    Ok(())
}

/// Below cescacs-batch, no library source outside tests opens files or starts threads,
/// except the files of [`IO_ALLOWED`].
fn check_io(root: &Path, findings: &mut Vec<String>) -> Result<(), String> {
    let top = layer_of("cescacs-batch").unwrap_or(0);
    for (_, members) in &LAYERS[..top] {
        for name in *members {
            let src = root.join("crates").join(name).join("src");
            let mut files = Vec::new();
            rust_files(&src, &mut files)?;
            let test_only = test_only_modules(&files)?;
            for f in files {
                let stem = f
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let r = rel(root, &f);
                if test_only.contains(&stem) || IO_ALLOWED.iter().any(|(p, _)| *p == r) {
                    continue;
                }
                let text = read(&f)?;
                for (n, line) in text.lines().enumerate() {
                    if line.trim() == "#[cfg(test)]" {
                        // What follows is a test module (the repository's style puts
                        // it at the end of a file).
                        break;
                    }
                    let code = line.split("//").next().unwrap_or("");
                    if [
                        "std::fs",
                        "fs::read",
                        "File::open",
                        "File::create",
                        "std::thread",
                        "rayon::",
                    ]
                    .iter()
                    .any(|p| code.contains(p))
                    {
                        findings.push(format!(
                            "{r}:{}: files or threads below cescacs-batch: {}",
                            n + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for e in entries {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.is_dir() {
            rust_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    Ok(())
}

/// Names of modules declared under `#[cfg(test)]` (`#[cfg(test)] mod name;`).
fn test_only_modules(files: &[PathBuf]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for f in files {
        let text = read(f)?;
        let mut after_cfg_test = false;
        for line in text.lines() {
            let t = line.trim();
            if t == "#[cfg(test)]" {
                after_cfg_test = true;
                continue;
            }
            if after_cfg_test && t.starts_with("#[") {
                continue;
            }
            if after_cfg_test {
                let decl = t.strip_prefix("pub ").unwrap_or(t);
                if let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) {
                    out.push(name.trim().to_string());
                }
            }
            after_cfg_test = false;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_spans() {
        assert_eq!(
            links("see [io](io.md#top) and [x](https://a.b/c) [y](../README.md)"),
            vec!["io.md#top", "https://a.b/c", "../README.md"]
        );
        assert_eq!(local_link("io.md#top").as_deref(), Some("io.md"));
        assert_eq!(local_link("https://a.b/c"), None);
        assert_eq!(backticked("a `x` b `y z` c"), vec!["x", "y z"]);
    }

    #[test]
    fn what_looks_like_a_repository_path() {
        let root = crate::root();
        let crates = crate_names(&root).unwrap();
        let here = root.join("docs");
        let p = |s| repo_path(s, &root, &here, &crates);
        assert_eq!(p("docs/io.md:4"), Some(vec![root.join("docs/io.md")]));
        assert_eq!(
            p("cescacs-cli/src/bulk.rs"),
            Some(vec![root.join("crates/cescacs-cli/src/bulk.rs")])
        );
        assert!(!p("cescacs-cli/src/bulk.rs").unwrap()[0].exists());
        assert_eq!(p("../shared/oracle"), None);
        assert_eq!(p("/dev/stdout"), None);
        assert_eq!(p("cargo test --workspace"), None);
        assert_eq!(p("a/b"), None);
        assert_eq!(p("crates/*/README.md"), None);
    }

    #[test]
    fn test_names_are_snake_case_with_three_underscores() {
        assert!(looks_like_test_name(
            "one_job_and_three_give_the_same_bytes"
        ));
        assert!(!looks_like_test_name("max_game_bytes"));
        assert!(!looks_like_test_name("Cell::new"));
        assert!(!looks_like_test_name("crates/a_b_c_d.rs"));
    }

    #[test]
    fn only_the_dependencies_table_counts() {
        let crates = crate_names(&crate::root()).unwrap();
        let m = "[dependencies]\nctl-pgn.workspace = true\nserde = \"1\"\n\n[dev-dependencies]\npcn.workspace = true\n";
        assert_eq!(dependencies(m, &crates), vec!["ctl-pgn"]);
    }
}
