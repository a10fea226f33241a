//! `cargo xtask corpus-check`: every corpus through read -> replay -> write -> read.
//!
//! Games that are bad in the source are listed with the reason in
//! `testdata/corpus-expected.txt`; anything else that fails, and any listed game that
//! no longer fails, is unexpected and makes the run fail.
//!
//! Then the workspace tests that need `../shared` (marked `#[ignore = "needs ../shared
//! …"]` so that `cargo test --workspace` passes on a clone without it) run with
//! `cargo test --workspace -- --ignored`. A missing `../shared` is an error, never a
//! smaller run.

use rayon::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One game's fate.
#[derive(Default)]
struct GameResult {
    replayed: bool,
    round_tripped: bool,
    /// The first error, if the game did not replay or round-trip.
    error: Option<String>,
}

#[derive(Default)]
struct Row {
    corpus: String,
    games: usize,
    replayed: usize,
    round_tripped: usize,
    expected: usize,
    unexpected: Vec<String>,
}

#[derive(Clone, Copy)]
enum Kind {
    CtlPgn,
    Xiangqi,
    Chess,
    PcnGood,
    PcnBad,
}

struct Corpus {
    name: String,
    kind: Kind,
    /// Files are named relative to this folder in reports and in the expectations.
    base: PathBuf,
    files: Vec<PathBuf>,
}

fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let keep = |p: &Path| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        exts.iter().any(|e| name.ends_with(e))
    };
    if !dir.is_dir() {
        return Vec::new();
    }
    cescacs_batch::expand_paths(&[dir.to_path_buf()], &keep).unwrap_or_default()
}

fn corpora() -> Result<Vec<Corpus>, String> {
    let root = crate::root();
    let shared = crate::shared().ok_or_else(|| {
        format!(
            "{} is missing: corpus-check needs the shared spec, oracle and corpora \
             beside the checkout",
            root.join("../shared").display()
        )
    })?;
    let mut list = Vec::new();
    let mut add = |name: String, kind: Kind, base: &Path, files: Vec<PathBuf>| {
        if !files.is_empty() {
            list.push(Corpus {
                name,
                kind,
                base: base.to_path_buf(),
                files,
            });
        }
    };
    let td = root.join("testdata");
    for (name, kind, ext) in [
        ("ctl-pgn", Kind::CtlPgn, ".ctl-pgn"),
        ("xiangqi", Kind::Xiangqi, ".pgn"),
        ("chess", Kind::Chess, ".pgn"),
    ] {
        let dir = td.join(name);
        add(
            format!("testdata/{name}"),
            kind,
            &dir,
            files_under(&dir, &[ext]),
        );
    }
    let pcn = td.join("pcn");
    let good = files_under(&pcn, &[".pcn.json"])
        .into_iter()
        .filter(|p| !p.starts_with(pcn.join("bad")))
        .collect();
    add("testdata/pcn (good)".into(), Kind::PcnGood, &pcn, good);
    add(
        "testdata/pcn/bad".into(),
        Kind::PcnBad,
        &pcn.join("bad"),
        files_under(&pcn.join("bad"), &[".json"]),
    );
    {
        for (name, kind, ext) in [
            ("oracle/games", Kind::CtlPgn, ".ctl-pgn"),
            ("corpus/cescacs-real", Kind::CtlPgn, ".ctl-pgn"),
            ("corpus/xiangqi-generated", Kind::Xiangqi, ".pgn"),
        ] {
            let dir = shared.join(name);
            add(name.to_string(), kind, &dir, files_under(&dir, &[ext]));
        }
        for (parent, kind) in [
            ("corpus/xiangqi-real", Kind::Xiangqi),
            ("corpus/classic-pgn-real", Kind::Chess),
        ] {
            for sub in sorted_dirs(&shared.join(parent)) {
                let name = format!("{parent}/{}", sub.file_name().unwrap().to_string_lossy());
                add(name, kind, &sub, files_under(&sub, &[".pgn"]));
            }
        }
    }
    Ok(list)
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// Games of one file, each with its result.
fn check_file(kind: Kind, path: &Path) -> Vec<GameResult> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            return vec![GameResult {
                error: Some(format!("cannot read: {e}")),
                ..Default::default()
            }];
        }
    };
    match kind {
        Kind::CtlPgn => ctl_pgn_file(&bytes),
        Kind::Xiangqi => xiangqi_file(&bytes),
        Kind::Chess => chess_file(&bytes),
        Kind::PcnGood => vec![pcn_file(&bytes)],
        Kind::PcnBad => vec![pcn_bad_file(path, &bytes)],
    }
}

fn ctl_pgn_file(bytes: &[u8]) -> Vec<GameResult> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return vec![GameResult {
            error: Some("not UTF-8".into()),
            ..Default::default()
        }];
    };
    ctl_pgn::replay("", text, ctl_pgn::Options::default())
        .into_iter()
        .map(|r| {
            let mut g = GameResult::default();
            if let Some(e) = r.diagnostics.iter().find(|d| d.is_error()) {
                g.error = Some(format!("{}:{}: {}", e.line, e.col, e.message));
                return g;
            }
            g.replayed = r.complete;
            let Some(game) = r.game else { return g };
            let written = ctl_pgn::write_game(&game, ctl_pgn::Form::Canonical);
            match ctl_pgn::read_game(&written) {
                Ok(again) => {
                    let same_model = again == game.canonical();
                    let idempotent = ctl_pgn::write_game(&again, ctl_pgn::Form::Canonical) == written;
                    g.round_tripped = same_model && idempotent;
                    if !g.round_tripped {
                        g.error = Some(format!("round trip differs (same model: {same_model}, idempotent: {idempotent})"));
                    }
                }
                Err(e) => g.error = Some(format!("written form does not read back: {e}")),
            }
            g
        })
        .collect()
}

fn xiangqi_file(bytes: &[u8]) -> Vec<GameResult> {
    let file = xiangqi_pgn::read_bytes(bytes, "");
    file.games
        .into_iter()
        .map(|read| {
            let mut g = GameResult::default();
            if let Some(e) = &read.error {
                g.error = Some(e.to_string());
                return g;
            }
            g.replayed = true;
            let notation = read.game.source_notation.unwrap_or(xiangqi_pgn::Notation::Iccs);
            let style = xiangqi_pgn::MoveStyle::canonical(notation);
            let written = xiangqi_pgn::write_game(&read.game, &style);
            let again = xiangqi_pgn::read_str(&written, "");
            match again.games.first() {
                Some(r) if r.is_ok() => {
                    let same_end = r.game.final_position().to_fen() == read.game.final_position().to_fen();
                    let idempotent = xiangqi_pgn::write_game(&r.game, &style) == written;
                    g.round_tripped = same_end && idempotent && again.games.len() == 1;
                    if !g.round_tripped {
                        g.error = Some(format!("round trip differs (final position: {same_end}, idempotent: {idempotent})"));
                    }
                }
                Some(r) => g.error = Some(format!("written form does not read back: {:?}", r.error)),
                None => g.error = Some("written form holds no game".into()),
            }
            g
        })
        .collect()
}

fn chess_file(bytes: &[u8]) -> Vec<GameResult> {
    chess_pgn::Games::new(bytes)
        .map(|game| {
            let mut g = GameResult::default();
            let game = match game {
                Ok(game) => game,
                Err(e) => {
                    g.error = Some(e.to_string());
                    return g;
                }
            };
            if let Some(e) = game.errors().next() {
                g.error = Some(e.to_string());
                return g;
            }
            g.replayed = true;
            let written = chess_pgn::to_pgn_string(&game);
            match chess_pgn::Games::new(written.as_bytes()).next() {
                Some(Ok(again)) => {
                    let idempotent = chess_pgn::to_pgn_string(&again) == written;
                    g.round_tripped = again.same_content(&game) && idempotent;
                    if !g.round_tripped {
                        g.error = Some(format!("round trip differs (idempotent: {idempotent})"));
                    }
                }
                Some(Err(e)) => g.error = Some(format!("written form does not read back: {e}")),
                None => g.error = Some("written form holds no game".into()),
            }
            g
        })
        .collect()
}

fn pcn_file(bytes: &[u8]) -> GameResult {
    let mut g = GameResult::default();
    let game = match pcn::from_slice(bytes) {
        Ok(game) => game,
        Err(e) => {
            g.error = Some(e.to_string());
            return g;
        }
    };
    match pcn::replay(&game) {
        Ok(_) => g.replayed = true,
        Err(e) => {
            g.error = Some(e.to_string());
            return g;
        }
    }
    let written = pcn::to_string(&game);
    match pcn::from_str(&written) {
        Ok(again) => {
            g.round_tripped = again == game && pcn::to_string(&again) == written;
            if !g.round_tripped {
                g.error = Some("round trip differs".into());
            }
        }
        Err(e) => g.error = Some(format!("written form does not read back: {e}")),
    }
    g
}

/// A malformed document must be rejected with exactly the error its `.expected` names.
fn pcn_bad_file(path: &Path, bytes: &[u8]) -> GameResult {
    let expected_path = path.with_extension("expected");
    let expected = std::fs::read_to_string(&expected_path)
        .map(|s| s.trim().to_string())
        .ok();
    let got = pcn::from_slice(bytes).err().map(|e| e.to_string());
    let ok = got.is_some() && (expected.is_none() || got == expected);
    GameResult {
        replayed: ok,
        round_tripped: ok,
        error: (!ok).then(|| format!("expected rejection {expected:?}, got {got:?}")),
    }
}

/// `corpus file game reason…` lines: games known to be bad in the source.
fn expected_failures() -> BTreeSet<(String, String, usize)> {
    let path = crate::root().join("testdata/corpus-expected.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.split('\t');
            Some((
                parts.next()?.to_string(),
                parts.next()?.to_string(),
                parts.next()?.parse().ok()?,
            ))
        })
        .collect()
}

pub fn run() -> Result<bool, String> {
    let expected = expected_failures();
    let mut seen_expected = BTreeSet::new();
    let mut rows = Vec::new();
    let started = std::time::Instant::now();
    for corpus in corpora()? {
        let results: Vec<(PathBuf, Vec<GameResult>)> = corpus
            .files
            .par_iter()
            .map(|f| (f.clone(), check_file(corpus.kind, f)))
            .collect();
        let mut row = Row {
            corpus: corpus.name.clone(),
            ..Row::default()
        };
        for (file, games) in results {
            let file_name = file
                .strip_prefix(&corpus.base)
                .unwrap_or(&file)
                .to_string_lossy()
                .to_string();
            for (i, g) in games.iter().enumerate() {
                row.games += 1;
                row.replayed += g.replayed as usize;
                row.round_tripped += g.round_tripped as usize;
                let key = (corpus.name.clone(), file_name.clone(), i + 1);
                match (&g.error, expected.contains(&key)) {
                    (Some(_), true) => {
                        row.expected += 1;
                        seen_expected.insert(key);
                    }
                    (Some(e), false) => row
                        .unexpected
                        .push(format!("{file_name} game {}: {e}", i + 1)),
                    (None, true) => row.unexpected.push(format!(
                        "{file_name} game {}: listed as bad but now passes",
                        i + 1
                    )),
                    (None, false) => {}
                }
            }
        }
        rows.push(row);
    }
    // A listed game whose corpus is present but that was not seen at all is stale too.
    let present: BTreeSet<&str> = rows.iter().map(|r| r.corpus.as_str()).collect();
    let stale: Vec<_> = expected
        .iter()
        .filter(|k| present.contains(k.0.as_str()) && !seen_expected.contains(*k))
        .collect();

    println!("| corpus | games | replayed | round-tripped | errors expected | errors unexpected |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut all_good = stale.iter().all(|k| {
        rows.iter()
            .any(|r| r.corpus == k.0 && r.unexpected.iter().any(|u| u.contains(&k.1)))
    });
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r.corpus,
            r.games,
            r.replayed,
            r.round_tripped,
            r.expected,
            r.unexpected.len()
        );
        all_good &= r.unexpected.is_empty();
    }
    for r in &rows {
        for u in &r.unexpected {
            eprintln!("unexpected: {}: {u}", r.corpus);
        }
    }
    for k in &stale {
        eprintln!(
            "unexpected: {} {} game {}: listed in testdata/corpus-expected.txt but not found",
            k.0, k.1, k.2
        );
    }
    let total: usize = rows.iter().map(|r| r.games).sum();
    eprintln!(
        "{total} games in {} corpora checked in {:.1} s: {}",
        rows.len(),
        started.elapsed().as_secs_f64(),
        if all_good && stale.is_empty() {
            "all as expected"
        } else {
            "UNEXPECTED RESULTS"
        }
    );
    let corpora_good = all_good && stale.is_empty();
    Ok(shared_tests()? && corpora_good)
}

/// The workspace tests marked `#[ignore = "needs ../shared …"]` (and any other ignored
/// test: they are all the long or shared-data runs), with the shared folder named.
fn shared_tests() -> Result<bool, String> {
    let shared = crate::shared().ok_or("../shared is missing")?;
    eprintln!("== the workspace tests that need ../shared: cargo test --workspace -- --ignored");
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["test", "--workspace", "--locked", "--", "--ignored"])
            .env("CESCACS_SHARED", shared)
            .current_dir(crate::root())
            .status()
            .map_err(|e| format!("cannot run cargo test: {e}"))?;
    Ok(status.success())
}
