//! Hostile input: every file of `testdata/bad/` (and a few big ones generated here at run
//! time) is given to `cescacs check`; the exit code, the located diagnostic, the absence
//! of a panic and the number of good games still converted must match
//! `testdata/bad/expected.tsv`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn bad_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/bad")
}

fn check(dir: &Path, file: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .current_dir(dir)
        .args(["check", file])
        .output()
        .expect("run cescacs")
}

/// One row of the manifest.
struct Expect {
    file: String,
    exit: i32,
    /// `error: ...` or `warning: ...` text that a located line must contain; `None`: no
    /// diagnostic at all.
    text: Option<String>,
    converted: usize,
}

fn manifest() -> Vec<Expect> {
    let tsv = std::fs::read_to_string(bad_dir().join("expected.tsv")).expect("expected.tsv");
    tsv.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "manifest line {l:?}");
            Expect {
                file: f[0].to_string(),
                exit: f[1].parse().expect("exit code"),
                text: (f[2] != "-").then(|| f[2].to_string()),
                converted: f[3].parse().expect("converted count"),
            }
        })
        .collect()
}

/// The checks common to every input; returns a description of what went wrong.
fn verify(dir: &Path, e: &Expect) -> Result<(), String> {
    let start = Instant::now();
    let out = check(dir, &e.file);
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let all = format!("{stdout}{stderr}");
    let shown = || all.chars().take(1500).collect::<String>();
    if all.contains("panicked") || all.contains("overflowed its stack") {
        return Err(format!("{}: panic:\n{}", e.file, shown()));
    }
    if took > Duration::from_secs(20) {
        return Err(format!("{}: took {took:?}", e.file));
    }
    let code = out.status.code();
    if code != Some(e.exit) {
        return Err(format!(
            "{}: exit {code:?}, expected {}:\n{}",
            e.file,
            e.exit,
            shown()
        ));
    }
    // A located diagnostic: `file:line:col: game N: error: ...`.
    let located = |kind: &str| {
        all.lines()
            .filter(|l| {
                let Some(rest) = l.strip_prefix(e.file.as_str()) else {
                    return false;
                };
                let mut parts = rest.splitn(4, ':');
                let (Some(""), Some(line), Some(col), Some(tail)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return false;
                };
                line.parse::<u64>().is_ok()
                    && col.parse::<u64>().is_ok()
                    && tail.starts_with(" game ")
                    && tail.contains(&format!(": {kind}: "))
            })
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // A message quotes the offending input but never all of a huge token or tag value.
    if let Some(l) = all.lines().find(|l| l.chars().count() > 1000) {
        return Err(format!("{}: {}-character line:\n{}", e.file, l.chars().count(), shown()));
    }
    if e.exit == 1 && located("error").is_empty() {
        return Err(format!("{}: no located error:\n{}", e.file, shown()));
    }
    match &e.text {
        Some(t) => {
            let kind = if t.starts_with("warning:") {
                "warning"
            } else {
                "error"
            };
            if !located(kind).iter().any(|l| l.contains(t.as_str())) {
                return Err(format!(
                    "{}: no located line containing {t:?}:\n{}",
                    e.file,
                    shown()
                ));
            }
        }
        None => {
            if !located("error").is_empty() || !located("warning").is_empty() {
                return Err(format!("{}: unexpected diagnostic:\n{}", e.file, shown()));
            }
        }
    }
    if e.exit != 2 {
        let converted = all
            .lines()
            .find_map(|l| {
                let i = l.find(" valid")?;
                l[..i].rsplit(' ').next()?.parse::<usize>().ok()
            })
            .ok_or_else(|| format!("{}: no summary line:\n{}", e.file, shown()))?;
        if converted != e.converted {
            return Err(format!(
                "{}: {converted} converted, expected {}:\n{}",
                e.file,
                e.converted,
                shown()
            ));
        }
    }
    Ok(())
}

#[test]
fn every_bad_file_is_listed_and_behaves_as_expected() {
    let dir = bad_dir();
    let rows = manifest();
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("testdata/bad")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !matches!(n.as_str(), "expected.tsv" | "gen.py" | "README.md"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = rows.iter().map(|r| r.file.clone()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "testdata/bad and expected.tsv disagree");
    assert!(rows.len() >= 100, "only {} bad inputs", rows.len());
    let failures: Vec<String> = rows.iter().filter_map(|e| verify(&dir, e).err()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} bad inputs misbehave:\n\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n\n")
    );
}

// ---------------------------------------------------------------- generated at run time

const MB: usize = 1 << 20;
const DEEP: usize = 10_000;

const CTL_GOOD: &str = "[Variant \"C'escacs\"]\n[Event \"good\"]\n[Result \"*\"]\n1. NG3-I13, A23-A19\n2. KG1-G3, L23-L21\n*\n\n";
const PGN_GOOD: &str = "[Event \"good\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n";
const XQ_GOOD: &str = "[Game \"Chinese Chess\"]\n[Event \"good\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n";

fn generated(name: &str, good: &str, bad: &str) -> (PathBuf, String) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bad_inputs");
    std::fs::create_dir_all(&dir).expect("tmp dir");
    std::fs::write(dir.join(name), format!("{good}{bad}\n\n{good}")).expect("write");
    (dir, name.to_string())
}

fn run_generated(name: &str, good: &str, bad: &str, exit: i32, text: &str, converted: usize) {
    let (dir, file) = generated(name, good, bad);
    let e = Expect {
        file,
        exit,
        text: (text != "-").then(|| text.to_string()),
        converted,
    };
    if let Err(msg) = verify(&dir, &e) {
        panic!("{msg}");
    }
}

#[test]
fn ctl_pgn_one_megabyte_tag_value() {
    let bad = format!(
        "[Variant \"C'escacs\"]\n[Event \"{}\"]\n1. NG3-I13, A23-A19\n*",
        "x".repeat(MB)
    );
    run_generated("big-tag.ctl-pgn", CTL_GOOD, &bad, 0, "-", 3);
}

#[test]
fn ctl_pgn_ten_thousand_nested_variations() {
    let bad = format!(
        "[Variant \"C'escacs\"]\n1. NG3-I13, A23-A19\n{}{}\n*",
        "(1. L5-L7\n".repeat(DEEP),
        ")".repeat(DEEP)
    );
    run_generated(
        "deep.ctl-pgn",
        CTL_GOOD,
        &bad,
        1,
        "error: variations nested deeper than 200 levels are not read",
        2,
    );
}

#[test]
fn pgn_one_megabyte_tag_value() {
    let bad = format!("[Event \"{}\"]\n[Result \"*\"]\n\n1. e4 *", "x".repeat(MB));
    run_generated("big-tag.pgn", PGN_GOOD, &bad, 0, "-", 3);
}

#[test]
fn pgn_ten_thousand_nested_variations() {
    // Before chess-pgn's MAX_VARIATION_DEPTH this overflowed a worker thread's stack
    // (recursive drop of the game tree) and aborted the whole process.
    let bad = format!(
        "[Event \"deep\"]\n[Result \"*\"]\n\n1. e4 {}{} *",
        "(1. d4 ".repeat(DEEP),
        ")".repeat(DEEP)
    );
    run_generated(
        "deep.pgn",
        PGN_GOOD,
        &bad,
        0,
        "warning: variation nested deeper than 200 levels skipped",
        3,
    );
}

#[test]
fn xiangqi_one_megabyte_tag_value() {
    let bad = format!(
        "[Game \"Chinese Chess\"]\n[Event \"{}\"]\n[Format \"ICCS\"]\n\n1. h2e2 *",
        "x".repeat(MB)
    );
    run_generated("big-tag.xq.pgn", XQ_GOOD, &bad, 0, "-", 3);
}

#[test]
fn xiangqi_ten_thousand_nested_variations() {
    let bad = format!(
        "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 {}{} *",
        "(1. b2e2 ".repeat(DEEP),
        ")".repeat(DEEP)
    );
    run_generated(
        "deep.xq.pgn",
        XQ_GOOD,
        &bad,
        0,
        "warning: variation nested too deeply, skipped",
        3,
    );
}

#[test]
fn pcn_ten_thousand_nested_arrays() {
    let bad = format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP));
    run_generated(
        "deep.jsonl",
        "",
        &bad,
        1,
        "invalid JSON: recursion limit exceeded",
        0,
    );
}

#[test]
fn pcn_one_megabyte_string() {
    let bad = format!("{{\"{}\": 1}}", "k".repeat(MB));
    run_generated(
        "big-key.jsonl",
        "",
        &bad,
        1,
        "error: [\"kkkkkkkk",
        0,
    );
    // The message names the key without repeating all of it.
    let (dir, file) = generated("big-key.jsonl", "", &bad);
    let out = check(&dir, &file);
    assert!(out.stderr.len() + out.stdout.len() < 2000, "{} bytes of output", out.stderr.len());
}

#[test]
fn missing_file_cannot_be_read() {
    let out = check(&bad_dir(), "does-not-exist.pgn");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("does-not-exist.pgn"), "{stderr}");
}

#[test]
fn directory_of_bad_inputs_at_once() {
    // All the bad files in one run, in parallel: no panic, exit 1, every file reported.
    let out = check(&bad_dir(), ".");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("panicked"), "{all}");
    assert_eq!(out.status.code(), Some(1), "{all}");
}
