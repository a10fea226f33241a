//! Project automation: `cargo xtask api-check`, `corpus-check`, `package-check`, `bench`,
//! `gen-db`, `shard-sim`, `fuzz`, `scaling`, `tidy`, `many-files`, `wasm`.

mod api;
mod bench;
mod bench_engine;
mod bench_py;
mod corpus;
mod fn_length;
mod fuzz;
mod gendb;
mod many_files;
mod package;
mod scaling;
mod shard;
mod tidy;
mod wasm;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  api-check [--bless] [CRATE...]
                           each library crate's public API (rendered from rustdoc JSON)
                           against api/<crate>.txt; fails on a difference, --bless
                           rewrites the listings after an intended change
  corpus-check             read -> replay -> write -> read every corpus, print one table;
                           then the workspace tests that need ../shared (`cargo test
                           --workspace -- --ignored`); fails when ../shared is missing
  package-check            `cargo package` every publishable crate, unpack the archives
                           into a scratch workspace (our crates patched to the unpacked
                           copies) and build it: each crate builds from its package alone
  gen-db --games N --out F [--seed S]
                           write N random legal C'escacs games (oracle openings with
                           random continuations) through our CTL-PGN writer
  bench [--quick] [--db-mb M] [--ratios | --perft | --zst | --openings]
                           criterion benches, whole-CLI throughput jobs=1 vs all cores
                           with peak memory, and the peers; prints ratios.
                           --ratios: only issue 14's same-run ratio table (library
                           and CLI rows against classic PGN and pgn-reader);
                           --perft: only perft(5) on one thread against two, and
                           perft(4)'s instructions per node under callgrind;
                           --zst: only `check -j 2` on a .zst file, CPU per thread;
                           --openings: only issue 32's --eco and split rows against
                           pgn-extract (part of --ratios)
  bench-py [--games N] [--spark] [--cores C]
                           the Python package vs python-chess, one process and Spark
                           local mode, games/s per core (PYTHON names the interpreter)
  shard-sim [--shards N] [--db-mb M]
                           cut a database into shards at game boundaries, convert them
                           in N processes, check the concatenation equals one process
  fuzz [--smoke] [--seconds N] [--target NAME[,NAME]] [--sanitizer S] [--unit-timeout S]
                           seed fuzz/corpus/<target> from testdata, run every cargo-fuzz
                           target N seconds (default 60) with a per-input time limit
                           (default 1 s) and the dictionaries of fuzz/dict, print one
                           table; fails on any crash, slow input, timeout or
                           out-of-memory (see fuzz/README.md)
  scaling [--sizes 1000,10000,100000,1000000] [--family TEXT] [--timeout S] [--bin PATH]
                           hostile input families (runs of ellipses and dots, comment
                           lines, nested variations, PCN walks, TLPD, endless NUL input)
                           through `cescacs check -j1`: time, peak memory and the ratio
                           between sizes; fails on a superlinear step
  tidy [--bless-long-functions]
                           every repository path the docs name exists, each library
                           crate's lib.rs opens with a one-line purpose and its README
                           shows its [dependencies] line, dependencies point downwards
                           (the layers of docs/architecture.md), no function over 80
                           lines but those of xtask/long-functions.txt, none longer
                           than listed; fails on any finding
  many-files [--files N] [--limit L] [--bin PATH]
                           N one-game files (default 100,000) in one directory checked
                           under `ulimit -n L` (default 256): every game read, exit 0,
                           peak RSS under 100 MB (/usr/bin/time -v)
  wasm [--test | --smoke] [--bench]
                           build the npm package of crates/cescacs-wasm into
                           target/wasm-pkg/ (rustup's wasm32 std, else Debian's
                           rustc-web; wasm-opt when on PATH), print its sizes raw and
                           gzip; --test: node tests, the conformance ones against the
                           native engine on ../shared (required); --smoke: testdata
                           only; --bench: perft(4) module vs native CLI vs TS engine";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if std::env::var_os(wasm::WRAPPER_ENV).is_some() {
        wasm::wrap_rustc(&args);
    }
    let Some(command) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = &args[1..];
    let result = match command.as_str() {
        "api-check" => api::run(rest),
        "corpus-check" => corpus::run(),
        "package-check" => package::run_check(),
        "gen-db" => gendb::cli(rest),
        "bench" => bench::run(rest),
        "bench-py" => bench_py::run(rest),
        "shard-sim" => shard::run(rest),
        "fuzz" => fuzz::run(rest),
        "scaling" => scaling::run(rest),
        "tidy" => tidy::run(rest),
        "many-files" => many_files::run(rest),
        "wasm" => wasm::run(rest),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(true)
        }
        other => Err(format!("unknown command {other:?}\n\n{USAGE}")),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask is inside the workspace")
        .to_path_buf()
}

/// `../shared` beside the checkout (or the folder `CESCACS_SHARED` names, as for the
/// tests), when present (CI and developer machines have it).
pub fn shared() -> Option<PathBuf> {
    let p = std::env::var_os("CESCACS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared"));
    p.is_dir().then_some(p)
}

/// The value after `--name` in `args`, parsed.
pub fn flag<T: std::str::FromStr>(args: &[String], name: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => {
            let v = args
                .get(i + 1)
                .ok_or_else(|| format!("{name} needs a value"))?;
            v.parse()
                .map(Some)
                .map_err(|_| format!("{name}: bad value {v:?}"))
        }
    }
}

/// Builds the release CLI once and returns its path.
pub fn build_cli() -> Result<PathBuf, String> {
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "-q", "-p", "cescacs-cli"])
            .current_dir(root())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("building cescacs-cli failed".into());
    }
    Ok(release_dir().join("cescacs"))
}

/// Where `cargo build --release` puts binaries (`CARGO_TARGET_DIR` respected).
pub fn release_dir() -> PathBuf {
    let target = std::env::var("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("target"));
    let target = if target.is_absolute() {
        target
    } else {
        root().join(target)
    };
    target.join("release")
}
