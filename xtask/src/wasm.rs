//! `cargo xtask wasm [--test] [--smoke] [--bench]`: the npm package of
//! `crates/cescacs-wasm` in `target/wasm-pkg/`, its node tests, its speed.
//!
//! The std of `wasm32-unknown-unknown` comes from rustup where it has the target
//! (`rustup target add wasm32-unknown-unknown`), else from Debian's `rustc-web` and
//! `rust-web-src` with `-Zbuild-std` (see docs/wasm.md). Debian bookworm's compiler is
//! 1.85: this command runs itself as cargo's `RUSTC_WRAPPER` and turns on, for our
//! crates and the registry's (never for std), the library features stabilised in
//! 1.87–1.88 that the workspace uses (`let_chains`, `slice_as_chunks`,
//! `unsigned_is_multiple_of`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Set when this binary runs as cargo's `RUSTC_WRAPPER` (see [`wrap_rustc`]).
pub const WRAPPER_ENV: &str = "CESCACS_WASM_RUSTC_WRAPPER";
const TARGET: &str = "wasm32-unknown-unknown";

pub fn run(args: &[String]) -> Result<bool, String> {
    let pkg = build()?;
    let mut ok = true;
    if args.iter().any(|a| a == "--test" || a == "--smoke") {
        ok &= test(&pkg, args.iter().any(|a| a == "--smoke"))?;
    }
    if args.iter().any(|a| a == "--bench") {
        ok &= bench(&pkg)?;
    }
    Ok(ok)
}

/// As `RUSTC_WRAPPER`: `args` are rustc's path and its arguments. Std's own sources
/// (Debian's rust-web-src) compile as they are; other crates get the 1.88 features.
pub fn wrap_rustc(args: &[String]) -> ! {
    let Some((rustc, rest)) = args.split_first() else {
        eprintln!("{WRAPPER_ENV}: no rustc given");
        std::process::exit(2);
    };
    let std_source = rest.iter().any(|a| a.starts_with("/usr/lib/rustlib/"));
    let compiles_a_crate = rest.iter().any(|a| a.ends_with(".rs"));
    let mut cmd = Command::new(rustc);
    cmd.args(rest);
    if compiles_a_crate && !std_source {
        cmd.args([
            "-Zcrate-attr=feature(let_chains)",
            "-Zcrate-attr=feature(slice_as_chunks)",
            "-Zcrate-attr=feature(unsigned_is_multiple_of)",
        ]);
    }
    match cmd.status() {
        Ok(s) => std::process::exit(s.code().unwrap_or(1)),
        Err(e) => {
            eprintln!("{rustc}: {e}");
            std::process::exit(2);
        }
    }
}

fn has_rustup_target() -> bool {
    Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == TARGET)
        })
        .unwrap_or(false)
}

fn wasm_ld() -> Option<&'static str> {
    ["wasm-ld", "wasm-ld-16", "wasm-ld-15", "wasm-ld-14"]
        .into_iter()
        .find(|n| which(n).is_some())
}

fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Builds the module and lays out the package; returns its folder.
fn build() -> Result<PathBuf, String> {
    let root = crate::root();
    let target_dir = root.join("target/wasm");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd;
    if has_rustup_target() {
        println!("wasm: rustup's {TARGET} std");
        cmd = Command::new(&cargo);
        cmd.args(["build", "--release", "--target", TARGET]);
    } else {
        // Debian's route: its rustc and cargo, std built from rust-web-src.
        let rustc = Path::new("/usr/bin/rustc");
        let src = Path::new("/usr/lib/rustlib/src/rust/library/std");
        let ld = wasm_ld();
        if !rustc.is_file() || !src.is_dir() || ld.is_none() {
            return Err(format!(
                "no {TARGET} std: run `rustup target add {TARGET}`, or on Debian \
                 `apt-get install rustc-web cargo-web rust-web-src lld-16` (docs/wasm.md)"
            ));
        }
        let ld = ld.unwrap_or("wasm-ld");
        println!("wasm: Debian's rustc-web, std built from rust-web-src, linked by {ld}");
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        cmd = Command::new("/usr/bin/cargo");
        cmd.args([
            "build",
            "--release",
            "--ignore-rust-version",
            "-Zbuild-std=std,panic_abort",
            "--target",
            TARGET,
        ])
        .env("RUSTC_BOOTSTRAP", "1")
        .env("RUSTC", rustc)
        .env("RUSTDOC", "/usr/bin/rustdoc")
        .env("RUSTC_WRAPPER", me)
        .env(WRAPPER_ENV, "1")
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", ld)
        // rustup's proxies must not pick the compiler.
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO");
    }
    cmd.args(["-p", "cescacs-wasm", "--target-dir"])
        .arg(&target_dir)
        .current_dir(&root)
        // rustc's opt-level stays 3 (perft's speed); wasm-opt -Oz below shrinks without
        // costing it (docs/wasm.md). Panics abort: a trap the glue turns into an error
        // and a fresh instance.
        .env("CARGO_PROFILE_RELEASE_PANIC", "abort")
        .env("CARGO_PROFILE_RELEASE_LTO", "true")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true");
    let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building cescacs-wasm for wasm32 failed".into());
    }
    let built = target_dir.join(TARGET).join("release/cescacs_wasm.wasm");
    let pkg = root.join("target/wasm-pkg");
    let _ = std::fs::remove_dir_all(&pkg);
    std::fs::create_dir_all(&pkg).map_err(|e| format!("{}: {e}", pkg.display()))?;
    let wasm = pkg.join("cescacs_wasm.wasm");
    let raw_size = std::fs::metadata(&built).map(|m| m.len()).unwrap_or(0);
    match which("wasm-opt") {
        Some(opt) => {
            let status = Command::new(opt)
                // The stripped module has no target_features section to read them
                // from: those rustc's wasm32 target may emit, all in node 20 and
                // every current browser.
                .args([
                    "-Oz",
                    "--enable-sign-ext",
                    "--enable-mutable-globals",
                    "--enable-multivalue",
                    "--enable-reference-types",
                    "--enable-bulk-memory",
                    "--enable-nontrapping-float-to-int",
                ])
                .arg(&built)
                .arg("-o")
                .arg(&wasm)
                .status()
                .map_err(|e| format!("wasm-opt: {e}"))?;
            if !status.success() {
                return Err("wasm-opt failed".into());
            }
            println!("wasm: wasm-opt -Oz: {raw_size} -> {} bytes", size(&wasm));
        }
        None => {
            println!("wasm: no wasm-opt on PATH (Debian: binaryen); module as built");
            copy(&built, &wasm)?;
        }
    }
    let js = root.join("crates/cescacs-wasm/js");
    for f in ["index.js", "index.d.ts"] {
        copy(&js.join(f), &pkg.join(f))?;
    }
    // The glue lives with the viewer, whose play mode inlines it (game-viewer is
    // published and must hold its own files).
    copy(
        &root.join("crates/game-viewer/src/page/wasm.js"),
        &pkg.join("core.js"),
    )?;
    copy(
        &root.join("crates/cescacs-wasm/README.md"),
        &pkg.join("README.md"),
    )?;
    let package = serde_json::json!({
        "name": "cescacs-wasm",
        "version": env!("CARGO_PKG_VERSION"),
        "description": "C'escacs, chess and xiangqi game records in node and the browser: perft, legal moves, play, read, convert.",
        "license": "MIT OR Apache-2.0",
        "type": "module",
        "main": "index.js",
        "types": "index.d.ts",
        "exports": { ".": { "types": "./index.d.ts", "default": "./index.js" }, "./core.js": "./core.js" },
        "files": ["index.js", "core.js", "index.d.ts", "cescacs_wasm.wasm", "README.md"],
        "engines": { "node": ">=20" }
    });
    write(
        &pkg.join("package.json"),
        &serde_json::to_string_pretty(&package).unwrap_or_default(),
    )?;
    report_sizes(&pkg)?;
    Ok(pkg)
}

fn size(p: &Path) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to)
        .map(|_| ())
        .map_err(|e| format!("{} -> {}: {e}", from.display(), to.display()))
}

fn write(p: &Path, text: &str) -> Result<(), String> {
    std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display()))
}

fn gzip_len(bytes: &[u8]) -> Result<usize, String> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(bytes).map_err(|e| e.to_string())?;
    e.finish().map(|v| v.len()).map_err(|e| e.to_string())
}

/// Prints the module's and the whole package's sizes, raw and gzip -9.
fn report_sizes(pkg: &Path) -> Result<(), String> {
    let mut total = (0usize, 0usize);
    let mut rows = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(pkg)
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        let bytes = std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let gz = gzip_len(&bytes)?;
        total.0 += bytes.len();
        total.1 += gz;
        rows.push((
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            bytes.len(),
            gz,
        ));
    }
    println!(
        "{:<22} {:>10} {:>10}",
        "target/wasm-pkg", "bytes", "gzip -9"
    );
    for (name, raw, gz) in rows {
        println!("{name:<22} {raw:>10} {gz:>10}");
    }
    println!("{:<22} {:>10} {:>10}", "package", total.0, total.1);
    Ok(())
}

/// The node tests (`crates/cescacs-wasm/tests/*.test.mjs`): the smoke test on
/// testdata always; with ../shared (required unless `smoke_only`), the conformance
/// tests against data computed here by the native engine.
fn test(pkg: &Path, smoke_only: bool) -> Result<bool, String> {
    let root = crate::root();
    let tests = root.join("crates/cescacs-wasm/tests");
    let mut files = vec![tests.join("smoke.test.mjs")];
    let mut cmd = Command::new("node");
    cmd.env("CESCACS_WASM_PKG", pkg);
    let expected = root.join("target/wasm-expected.json");
    if !smoke_only {
        let shared = crate::shared().ok_or(
            "../shared is missing: the conformance tests need it (or CESCACS_SHARED); \
             `cargo xtask wasm --smoke` runs the smoke test alone",
        )?;
        native_expected(&shared, &expected)?;
        cmd.env("CESCACS_WASM_EXPECTED", &expected);
        cmd.env("CESCACS_WASM_SHARED", &shared);
        files.push(tests.join("shared.test.mjs"));
    }
    let status = cmd
        .arg("--test")
        .args(&files)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    let _ = std::fs::remove_file(&expected);
    Ok(status.success())
}

/// What the native side says, for the node tests to compare: the legal moves of every
/// oracle position (the rules engine's, sorted as `cescacs moves` prints them), and
/// from the release CLI the final TLPD of every oracle game (`cescacs replay -H`) and
/// the position after every ply of every chess and xiangqi game of the corpora
/// (`cescacs replay --each`).
fn native_expected(shared: &Path, out: &Path) -> Result<(), String> {
    use serde_json::{Value, json};
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()));
    let cli = crate::build_cli()?;
    let run = |args: &[&std::ffi::OsStr]| -> Result<String, String> {
        let o = Command::new(&cli)
            .args(args)
            .output()
            .map_err(|e| format!("{}: {e}", cli.display()))?;
        String::from_utf8(o.stdout).map_err(|e| e.to_string())
    };
    let oracle = shared.join("oracle");
    let mut positions = Vec::new();
    for line in read(&oracle.join("positions.jsonl"))?
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("positions.jsonl: {e}"))?;
        let tlpd = v["tlpd"].as_str().ok_or("positions.jsonl: no tlpd")?;
        let p = cescacs_tlpd::parse(tlpd).map_err(|e| format!("{tlpd}: {e}"))?;
        let letters = cescacs_rules::Letters::default();
        let mut moves: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|&m| p.move_to_an(m, &letters))
            .collect();
        moves.sort();
        positions.push(json!({"tlpd": tlpd, "moves": moves}));
    }
    let games_dir = oracle.join("games");
    let files = crate::fuzz::files(&games_dir, &[".ctl-pgn"], None);
    let mut args: Vec<&std::ffi::OsStr> = vec!["replay".as_ref(), "-H".as_ref()];
    args.extend(files.iter().map(|p| p.as_os_str()));
    // `FILE:GAME: TLPD`, one line per game.
    let mut finals: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
    for line in run(&args)?.lines() {
        let Some((head, tlpd)) = line.split_once(": ") else {
            continue;
        };
        let Some((file, _game)) = head.rsplit_once(':') else {
            continue;
        };
        finals
            .entry(file.to_string())
            .or_default()
            .push(json!(tlpd));
    }
    let games: Vec<Value> = files
        .iter()
        .map(|p| {
            let key = p.to_string_lossy().into_owned();
            let name = p.file_name().unwrap_or_default().to_string_lossy().into_owned();
            json!({"file": p, "name": name, "finals": finals.get(&key).cloned().unwrap_or_default()})
        })
        .collect();
    let mut corpora = Vec::new();
    for (dir, format) in [
        ("corpus/classic-pgn-real", "pgn"),
        ("corpus/xiangqi-real", "xiangqi-pgn"),
        ("corpus/xiangqi-generated", "xiangqi-pgn"),
    ] {
        for p in crate::fuzz::files(&shared.join(dir), &[".pgn"], None) {
            // The module takes text: files that are not UTF-8 are the byte-level
            // readers' business (derived-encodings), not this comparison's.
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            if std::str::from_utf8(&bytes).is_err() {
                continue;
            }
            // `GAME:PLY: POSITION`, ply 0 the start.
            let mut games: Vec<Vec<Value>> = Vec::new();
            for line in run(&["replay".as_ref(), "--each".as_ref(), p.as_os_str()])?.lines() {
                let Some((head, position)) = line.split_once(": ") else {
                    continue;
                };
                let Some((g, ply)) = head.split_once(':') else {
                    continue;
                };
                let (Ok(g), Ok(ply)) = (g.parse::<usize>(), ply.parse::<usize>()) else {
                    continue;
                };
                if games.len() < g {
                    games.resize(g, Vec::new());
                }
                if ply > 0 {
                    games[g - 1].push(json!(position));
                }
            }
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            corpora.push(json!({"file": p, "name": name, "format": format, "positions": games}));
        }
    }
    let doc = json!({"positions": positions, "games": games, "corpora": corpora});
    write(out, &doc.to_string())?;
    println!(
        "wasm: native expectations: {} positions, {} oracle game files, {} corpus files",
        doc["positions"].as_array().map_or(0, Vec::len),
        doc["games"].as_array().map_or(0, Vec::len),
        doc["corpora"].as_array().map_or(0, Vec::len)
    );
    Ok(())
}

/// perft(4) from the start through the module under node, against the native CLI
/// (`cescacs perft 4 --jobs 1`) and, when built, the author's TypeScript engine
/// (peers/cescacs-ts, see its README).
fn bench(pkg: &Path) -> Result<bool, String> {
    let root = crate::root();
    let script = root.join("crates/cescacs-wasm/bench/perft.mjs");
    let status = Command::new("node")
        .arg(&script)
        .env("CESCACS_WASM_PKG", pkg)
        .env("CESCACS_CLI", crate::build_cli()?)
        .current_dir(&root)
        .status()
        .map_err(|e| format!("cannot run node: {e}"))?;
    Ok(status.success())
}
