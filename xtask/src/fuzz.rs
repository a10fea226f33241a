//! `cargo xtask fuzz [--smoke] [--seconds N] [--target NAME] [--sanitizer S]`: seed every
//! fuzz target's corpus from `testdata/`, run each target for N seconds under libFuzzer
//! (through `cargo fuzz`), and print one table: executions, speed, coverage, corpus
//! size and the result. Any crash, timeout or out-of-memory makes the run fail.
//!
//! The fuzz crate lives in `fuzz/` with its own workspace and target dir. `cargo fuzz`
//! builds with `-Zsanitizer=address`, a nightly option; on a stable toolchain the child
//! runs with `RUSTC_BOOTSTRAP=1` (see fuzz/README.md).

use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Every target, with the largest input libFuzzer may generate for it.
const TARGETS: &[(&str, usize)] = &[
    ("tlpd", 1024),
    ("ctl_an", 64),
    ("ctl_pgn", 16384),
    // The hand-written CTL-PGN reader against the pest grammar: same verdict, same model.
    ("ctl_pgn_diff", 16384),
    // The pest reader parsing one token at a time against its whole-record parse.
    ("ctl_pgn_tokens", 16384),
    ("pcn", 16384),
    ("pcn_convert", 16384),
    ("xiangqi_pgn", 16384),
    ("xiangqi_fen", 256),
    ("chess_pgn", 16384),
];

/// Per-input time limit in seconds (`--unit-timeout`): low enough that the slow inputs
/// of issue 13 (an 11 s ellipsis input of 16 KB) are failures, not just slow runs.
const UNIT_TIMEOUT: u64 = 1;

/// `fuzz/dict/<name>.dict` for a target, when there is one (pcn_convert shares pcn's).
fn dictionary(target: &str) -> Option<PathBuf> {
    let name = match target {
        "pcn_convert" => "pcn",
        "ctl_pgn_diff" | "ctl_pgn_tokens" => "ctl_pgn",
        t => t,
    };
    let p = crate::root().join("fuzz/dict").join(format!("{name}.dict"));
    p.is_file().then_some(p)
}

/// Small instances of the hostile families of `cargo xtask scaling`, so that the
/// fuzzer starts from the shapes that were slow (runs of ellipses and dots, comment
/// lines, deep variations, long PCN walks) and mutates around them.
fn hostile_seeds(target: &str) -> Vec<Vec<u8>> {
    let rep = |head: &str, unit: &str, n: usize, tail: &str| -> Vec<u8> {
        format!("{head}{}{tail}", unit.repeat(n)).into_bytes()
    };
    let nest = |head: &str, open: &str, n: usize, tail: &str| -> Vec<u8> {
        format!("{head}{}{}{tail}", open.repeat(n), ")".repeat(n)).into_bytes()
    };
    match target {
        "ctl_pgn" => vec![
            rep("1. ", "... ", 1000, "E7-E13 *\n"),
            rep("1. ", ".", 4000, " *\n"),
            rep("1. ", "...", 1000, "5. E7-E13 *\n"),
            rep("1. E7-E13 ", "{a} ", 1000, "*\n"),
            rep("1. E7-E13 ", "{}\n", 1000, "*\n"),
            nest("1. E7-E13 ", "(1. E7-E13 ", 300, " *\n"),
            rep("1. E7-E13 ", "(", 4000, " *\n"),
            rep("[TLPD \"", "/0:V", 1000, " w - - 0 1\"]\n\n1. E7-E13 *\n"),
        ],
        "chess_pgn" => vec![
            nest("1. e4 ", "(1. d4 ", 1000, " *\n"),
            rep("1. e4 ", "{a} ", 1000, "*\n"),
            rep("1. e4 ", "(", 4000, " *\n"),
            rep("", "1. e4 e5 ", 1000, "*\n"),
        ],
        "xiangqi_pgn" => vec![
            nest(
                "[Game \"Chinese Chess\"]\n\n1. h2e2 ",
                "(1. h2e2 ",
                1000,
                " *\n",
            ),
            rep("[Game \"Chinese Chess\"]\n\n1. h2e2 ", "{a} ", 1000, "*\n"),
        ],
        "pcn" | "pcn_convert" => {
            let n = 600;
            let mut s = String::from("{\"over?\":false,\"starting_position\":[\"W:K\"");
            s.push_str(&",null".repeat(n - 1));
            s.push_str("],\"previous_moves\":[");
            let moves: Vec<String> = (0..n - 1)
                .map(|i| format!("[[{i},\"shift\",{}]]", i + 1))
                .collect();
            s.push_str(&moves.join(","));
            s.push_str("]}");
            vec![s.into_bytes()]
        }
        _ => Vec::new(),
    }
}

/// At most this many seed strings per string-seeded target (TLPD, FEN, move tokens).
const MAX_STRING_SEEDS: usize = 400;

const INSTALL_HINT: &str = "cargo-fuzz is not installed; install it with `cargo install cargo-fuzz` \
     (it needs a nightly toolchain or RUSTC_BOOTSTRAP=1, see fuzz/README.md)";

struct Row {
    target: String,
    seconds: f64,
    executions: Option<u64>,
    exec_per_s: Option<u64>,
    cov: Option<u64>,
    ft: Option<u64>,
    corpus: usize,
    result: String,
    failed: bool,
}

pub fn run(args: &[String]) -> Result<bool, String> {
    let mut seconds: u64 = 60;
    let mut targets: Vec<String> = Vec::new();
    let mut sanitizer: Option<String> = None;
    let mut unit_timeout: u64 = UNIT_TIMEOUT;
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{} needs a value", args[i]))
        };
        match args[i].as_str() {
            // Smoke = the default length; kept as a flag so scripts say what they mean.
            "--smoke" => {}
            "--seconds" => {
                let v = value(i)?;
                seconds = v
                    .parse()
                    .ok()
                    .filter(|&s| s > 0)
                    .ok_or_else(|| format!("--seconds: bad value {v:?}"))?;
                i += 1;
            }
            "--target" => {
                targets.extend(value(i)?.split(',').map(str::to_string));
                i += 1;
            }
            "--sanitizer" => {
                sanitizer = Some(value(i)?);
                i += 1;
            }
            "--unit-timeout" => {
                let v = value(i)?;
                unit_timeout = v
                    .parse()
                    .ok()
                    .filter(|&s| s > 0)
                    .ok_or_else(|| format!("--unit-timeout: bad value {v:?}"))?;
                i += 1;
            }
            other => return Err(format!("fuzz: unknown argument {other:?}")),
        }
        i += 1;
    }
    let selected: Vec<(&str, usize)> = if targets.is_empty() {
        TARGETS.to_vec()
    } else {
        let mut v = Vec::new();
        for t in &targets {
            let found = TARGETS.iter().find(|(name, _)| name == t).ok_or_else(|| {
                let names: Vec<&str> = TARGETS.iter().map(|(n, _)| *n).collect();
                format!("unknown fuzz target {t:?} (targets: {})", names.join(", "))
            })?;
            v.push(*found);
        }
        v
    };

    check_cargo_fuzz()?;
    let fuzz_dir = crate::root().join("fuzz");

    // One build for all targets, so the timed runs below only fuzz.
    eprintln!("building fuzz targets (cargo fuzz build) ...");
    let mut build = cargo_fuzz(&fuzz_dir);
    build.arg("build");
    if let Some(s) = &sanitizer {
        build.args(["--sanitizer", s]);
    }
    let status = build
        .status()
        .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
    if !status.success() {
        return Err("`cargo fuzz build` failed (see the output above)".into());
    }

    let bin_dir = fuzz_dir.join("target").join(host_triple()?).join("release");
    let log_dir = fuzz_dir.join("target/xtask-logs");
    std::fs::create_dir_all(&log_dir).map_err(|e| format!("{}: {e}", log_dir.display()))?;
    let mut rows = Vec::new();
    for &(target, max_len) in &selected {
        let corpus = fuzz_dir.join("corpus").join(target);
        let seeded = seed(target, &corpus)?;
        let log = log_dir.join(format!("{target}.log"));
        eprintln!(
            "fuzzing {target} for {seconds} s ({seeded} seeds, max_len {max_len}, log {})",
            log.display()
        );
        rows.push(run_target(
            &fuzz_dir,
            target,
            max_len,
            seconds,
            unit_timeout,
            &corpus,
            &log,
            &bin_dir,
        )?);
    }
    print_table(&rows);
    let failed = rows.iter().filter(|r| r.failed).count();
    if failed > 0 {
        eprintln!(
            "{failed} target(s) failed; reproduce with `RUSTC_BOOTSTRAP=1 cargo fuzz run <target> <artifact>` in fuzz/"
        );
    }
    Ok(failed == 0)
}

/// `cargo fuzz` in `fuzz/`, with its own target dir (not the caller's) and the nightly
/// options allowed on a stable toolchain.
fn cargo_fuzz(fuzz_dir: &Path) -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.arg("fuzz")
        .current_dir(fuzz_dir)
        .env("RUSTC_BOOTSTRAP", "1")
        .env_remove("CARGO_TARGET_DIR");
    c
}

/// The host target triple (`cargo fuzz` builds for it, into `target/<triple>/release`).
fn host_triple() -> Result<String, String> {
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|h| h.trim().to_string())
        .ok_or_else(|| "rustc -vV printed no host triple".into())
}

fn check_cargo_fuzz() -> Result<(), String> {
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["fuzz", "--version"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(INSTALL_HINT.into())
    }
}

#[allow(clippy::too_many_arguments)]
fn run_target(
    fuzz_dir: &Path,
    target: &str,
    max_len: usize,
    seconds: u64,
    unit_timeout: u64,
    corpus: &Path,
    log: &Path,
    bin_dir: &Path,
) -> Result<Row, String> {
    let out = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    // The binary `cargo fuzz build` made, run directly: `cargo fuzz run` would rebuild
    // first whenever a crate changed meanwhile, and that time is not fuzzing time.
    let artifacts = fuzz_dir.join("artifacts").join(target);
    std::fs::create_dir_all(&artifacts).map_err(|e| format!("{}: {e}", artifacts.display()))?;
    let mut cmd = Command::new(bin_dir.join(target));
    cmd.current_dir(fuzz_dir)
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg(format!("-max_total_time={seconds}"))
        .arg("-rss_limit_mb=2048")
        // A slow input is a finding (issue 13): a 16 KB input must be read in well
        // under a second, so anything slower fails the run and is kept as an artifact.
        .arg(format!("-timeout={unit_timeout}"))
        .arg(format!("-report_slow_units={unit_timeout}"))
        .arg(format!("-max_len={max_len}"))
        .arg("-print_final_stats=1");
    if let Some(dict) = dictionary(target) {
        cmd.arg(format!("-dict={}", dict.display()));
    }
    cmd.arg(corpus).stdout(out).stderr(err);
    let started = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {}: {e}", bin_dir.join(target).display()))?;
    let elapsed = started.elapsed().as_secs_f64();
    let text =
        String::from_utf8_lossy(&std::fs::read(log).map_err(|e| e.to_string())?).into_owned();
    let stats = parse_log(&text);
    let corpus_size = std::fs::read_dir(corpus).map(|d| d.count()).unwrap_or(0);
    let (result, failed) = if status.success() {
        ("clean".to_string(), false)
    } else {
        let artifact = stats
            .artifact
            .as_ref()
            .map(|a| {
                let p = fuzz_dir.join(a);
                let p = p.canonicalize().unwrap_or(p);
                let shown = p
                    .strip_prefix(crate::root())
                    .map(Path::to_path_buf)
                    .unwrap_or(p);
                format!(" {}", shown.display())
            })
            .unwrap_or_else(|| format!(" (no artifact; see {})", log.display()));
        (format!("{}{artifact}", stats.kind), true)
    };
    let executions = stats.executions;
    Ok(Row {
        target: target.to_string(),
        seconds: elapsed,
        executions,
        exec_per_s: stats
            .exec_per_s
            .filter(|&e| e > 0)
            .or_else(|| executions.map(|n| (n as f64 / elapsed.max(0.001)) as u64)),
        cov: stats.cov,
        ft: stats.ft,
        corpus: corpus_size,
        result,
        failed,
    })
}

#[derive(Default, Debug, PartialEq)]
struct Stats {
    executions: Option<u64>,
    exec_per_s: Option<u64>,
    cov: Option<u64>,
    ft: Option<u64>,
    /// Where libFuzzer wrote the failing input, relative to the fuzz dir.
    artifact: Option<String>,
    /// CRASH, TIMEOUT, OOM or LEAK (meaningful only when the run failed).
    kind: &'static str,
}

/// The value after `key` (e.g. `cov:`) in a libFuzzer status line.
fn field(line: &str, key: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key)?;
    words.next()?.parse().ok()
}

/// Final statistics from libFuzzer's output: `stat::number_of_executed_units`, else the
/// `#N` of the last status line (`#N DONE cov: ... ft: ...`); `cov:`/`ft:` of the last
/// status line; the artifact of `Test unit written to PATH`.
fn parse_log(text: &str) -> Stats {
    let mut s = Stats {
        kind: "CRASH",
        ..Stats::default()
    };
    let mut last_hash: Option<u64> = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("stat::number_of_executed_units:") {
            s.executions = rest.trim().parse().ok();
        } else if let Some(rest) = line.strip_prefix("stat::average_exec_per_sec:") {
            s.exec_per_s = rest.trim().parse().ok();
        } else if let Some(rest) = line.strip_prefix('#') {
            let n = rest.split_whitespace().next().and_then(|n| n.parse().ok());
            if n.is_some() && line.contains(" cov: ") {
                last_hash = n;
                s.cov = field(line, "cov:").or(s.cov);
                s.ft = field(line, "ft:").or(s.ft);
            }
        }
        if let Some(i) = line.find("Test unit written to ") {
            s.artifact = Some(line[i + "Test unit written to ".len()..].trim().to_string());
        }
        if line.contains("ERROR: libFuzzer: timeout") {
            s.kind = "TIMEOUT";
        } else if line.contains("ERROR: libFuzzer: out-of-memory") {
            s.kind = "OOM";
        } else if line.contains("ERROR: LeakSanitizer") {
            s.kind = "LEAK";
        }
    }
    if s.executions.is_none() {
        s.executions = last_hash;
    }
    s
}

fn print_table(rows: &[Row]) {
    let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    println!(
        "{:<12} {:>7} {:>12} {:>8} {:>6} {:>7} {:>7}  result",
        "target", "seconds", "executions", "exec/s", "cov", "ft", "corpus"
    );
    for r in rows {
        println!(
            "{:<12} {:>7.0} {:>12} {:>8} {:>6} {:>7} {:>7}  {}",
            r.target,
            r.seconds,
            opt(r.executions),
            opt(r.exec_per_s),
            opt(r.cov),
            opt(r.ft),
            r.corpus,
            r.result
        );
    }
}

// ---------------------------------------------------------------------------------
// Seeds: deterministic, from testdata/ only.

/// Writes `target`'s seeds into `corpus` (named by a hash of their content, so seeding
/// again is idempotent) and returns how many there are.
fn seed(target: &str, corpus: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    let seeds = seeds(target);
    for s in &seeds {
        let path = corpus.join(format!("seed-{:016x}", fnv1a(s)));
        if !path.exists() {
            std::fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(seeds.len())
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Files under `dir` (recursively, sorted) whose name ends with one of `exts` and, if
/// `prefix` is given, starts with it (the fuzz seeds; `cargo xtask wasm`'s game files).
pub(crate) fn files(dir: &Path, exts: &[&str], prefix: Option<&str>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if exts.iter().any(|x| name.ends_with(x))
                    && prefix.is_none_or(|pre| name.starts_with(pre))
                {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

fn read_all(paths: &[PathBuf]) -> Vec<Vec<u8>> {
    paths.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

fn texts(paths: &[PathBuf]) -> Vec<String> {
    read_all(paths)
        .into_iter()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

/// The values of `[Name "value"]` tag pairs in PGN-like text.
fn tag_values(text: &str, name: &str) -> Vec<String> {
    let open = format!("[{name} \"");
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix(&open)?;
            let end = rest.rfind("\"]")?;
            Some(rest[..end].to_string())
        })
        .collect()
}

/// String values under object keys containing `key` (any depth) in JSON lines or JSON.
fn json_strings(text: &str, key: &str, out: &mut BTreeSet<String>) {
    fn walk(v: &serde_json::Value, key: &str, under: bool, out: &mut BTreeSet<String>) {
        match v {
            serde_json::Value::String(s) if under => {
                out.insert(s.clone());
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, key, under, out)),
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                walk(x, key, k.to_ascii_lowercase().contains(key), out);
            }),
            _ => {}
        }
    }
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        walk(&v, key, false, out);
        return;
    }
    for line in text.lines() {
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
            walk(&v, key, false, out);
        }
    }
}

/// At most `cap` items of `set`, evenly spread over its (sorted) order.
fn spread(set: BTreeSet<String>, cap: usize) -> Vec<Vec<u8>> {
    let v: Vec<String> = set.into_iter().filter(|s| !s.is_empty()).collect();
    if v.len() <= cap {
        return v.into_iter().map(String::into_bytes).collect();
    }
    (0..cap)
        .map(|i| v[i * v.len() / cap].clone().into_bytes())
        .collect()
}

/// Move tokens of CTL-PGN movetext: tags, comments and move numbers dropped.
fn move_tokens(text: &str, out: &mut BTreeSet<String>) {
    let mut body = String::new();
    let mut depth = 0usize;
    for line in text.lines() {
        if depth == 0 && line.trim_start().starts_with('[') {
            continue;
        }
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ',' | '(' | ')' if depth == 0 => body.push(' '),
                _ if depth == 0 => body.push(c),
                _ => {}
            }
        }
        body.push(' ');
    }
    for tok in body.split_whitespace() {
        let tok = tok.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if tok.is_empty() || matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "-0" | "-1")
        {
            continue;
        }
        out.insert(tok.to_string());
    }
}

fn seeds(target: &str) -> Vec<Vec<u8>> {
    // The differential target reads what the CTL-PGN target reads.
    let target = if target == "ctl_pgn_diff" || target == "ctl_pgn_tokens" {
        "ctl_pgn"
    } else {
        target
    };
    let mut v = testdata_seeds(target);
    v.extend(hostile_seeds(target));
    v
}

fn testdata_seeds(target: &str) -> Vec<Vec<u8>> {
    let td = crate::root().join("testdata");
    let ctl_files = files(&td, &[".ctl-pgn"], None);
    match target {
        "ctl_pgn" => read_all(&ctl_files),
        "chess_pgn" => {
            let mut f = files(&td.join("chess"), &[".pgn"], None);
            f.extend(files(&td.join("bad"), &[".pgn"], Some("pgn-")));
            read_all(&f)
        }
        "xiangqi_pgn" => {
            let mut f = files(&td.join("xiangqi"), &[".pgn"], None);
            f.extend(files(&td.join("bad"), &[".pgn"], Some("xq-")));
            read_all(&f)
        }
        "pcn" | "pcn_convert" => {
            let mut f = files(&td.join("pcn"), &[".json"], None);
            f.extend(files(&td.join("bad"), &[".jsonl"], Some("pcn-")));
            read_all(&f)
        }
        "tlpd" => {
            let mut set = BTreeSet::new();
            for t in texts(&ctl_files) {
                set.extend(tag_values(&t, "TLPD"));
            }
            for t in texts(&files(&td.join("cescacs"), &[".json", ".jsonl"], None)) {
                json_strings(&t, "tlpd", &mut set);
            }
            spread(set, MAX_STRING_SEEDS)
        }
        "xiangqi_fen" => {
            let xq = td.join("xiangqi");
            let mut set = BTreeSet::new();
            for t in texts(&files(&xq, &[".txt"], None)) {
                set.extend(t.lines().map(str::trim).map(str::to_string));
            }
            let mut pgn = files(&xq, &[".pgn"], None);
            pgn.extend(files(&td.join("bad"), &[".pgn"], Some("xq-")));
            for t in texts(&pgn) {
                set.extend(tag_values(&t, "FEN"));
            }
            for t in texts(&files(&xq, &[".json", ".jsonl"], None)) {
                json_strings(&t, "fen", &mut set);
            }
            spread(set, MAX_STRING_SEEDS)
        }
        "ctl_an" => {
            let mut set = BTreeSet::new();
            for t in texts(&ctl_files) {
                move_tokens(&t, &mut set);
            }
            spread(set, MAX_STRING_SEEDS * 2)
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_clean_run() {
        let log = "INFO: Seed: 1\n\
            #2\tINITED cov: 10 ft: 11 corp: 3/9b exec/s: 0 rss: 30Mb\n\
            #1000\tNEW    cov: 99 ft: 115 corp: 10/22b lim: 4 exec/s: 0 rss: 37Mb L: 2/4\n\
            #5000\tDONE   cov: 107 ft: 123 corp: 17/39b lim: 4 exec/s: 2500 rss: 39Mb\n\
            Done 5000 runs in 2 second(s)\n\
            stat::number_of_executed_units: 5000\n\
            stat::average_exec_per_sec:     2500\n";
        let s = parse_log(log);
        assert_eq!(s.executions, Some(5000));
        assert_eq!(s.exec_per_s, Some(2500));
        assert_eq!(s.cov, Some(107));
        assert_eq!(s.ft, Some(123));
        assert_eq!(s.artifact, None);
    }

    #[test]
    fn parses_a_timeout() {
        let log = "#77\tNEW    cov: 5 ft: 6 corp: 1/1b\n\
            ==1== ERROR: libFuzzer: timeout after 10 seconds\n\
            artifact_prefix='/f/artifacts/tlpd/'; Test unit written to /f/artifacts/tlpd/timeout-ab\n";
        let s = parse_log(log);
        assert_eq!(s.kind, "TIMEOUT");
        assert_eq!(s.executions, Some(77));
        assert_eq!(s.artifact.as_deref(), Some("/f/artifacts/tlpd/timeout-ab"));
    }

    #[test]
    fn move_tokens_skip_tags_comments_numbers() {
        let mut set = BTreeSet::new();
        move_tokens(
            "[Event \"x\"]\n1. E7-E13, E21-E15 {a, comment}\n2. F8-F12 (2... L5) 1-0\n",
            &mut set,
        );
        let v: Vec<&str> = set.iter().map(String::as_str).collect();
        assert_eq!(v, ["E21-E15", "E7-E13", "F8-F12", "L5"]);
    }
}
