//! Xiangqi: PGN → PCN (through JSON text) → PGN on the fixtures and the generated
//! corpus, and the rules-free PCN replay against the final FEN placement.

use std::fs;
use std::path::{Path, PathBuf};

use pcn_convert::xiangqi::{board_of, from_pcn, same_game, to_pcn};

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut v: Vec<PathBuf> = rd.map(|e| e.unwrap().path()).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            pgn_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "pgn") {
            out.push(p);
        }
    }
}

/// The FEN placement field of a PCN xiangqi board.
fn placement(b: &pcn::Board) -> String {
    let mut out = String::new();
    for row in 0..10 {
        let mut empty = 0;
        for col in 0..9 {
            match b.get(row * 9 + col) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let a = p.abbreviation();
                    let fen = match a.to_ascii_lowercase().as_str() {
                        "g" => "k",
                        "e" => "b",
                        "h" => "n",
                        "s" => "p",
                        other => other,
                    }
                    .to_string();
                    out.push_str(&if a == a.to_ascii_uppercase() {
                        fen.to_ascii_uppercase()
                    } else {
                        fen
                    });
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if row < 9 {
            out.push('/');
        }
    }
    out
}

fn run(files: &[PathBuf]) -> (usize, usize) {
    run_with(files, &[])
}

/// `oracle`: final FENs of the games in order (the generator's manifest, from an
/// independent engine), or empty.
fn run_with(files: &[PathBuf], oracle: &[String]) -> (usize, usize) {
    let (mut ok, mut skipped) = (0, 0);
    for path in files {
        let file = xiangqi_pgn::read_path(path).unwrap();
        for g in &file.games {
            if !g.is_ok() {
                skipped += 1;
                continue;
            }
            let game = &g.game;
            let at = format!("{} #{}", path.display(), g.index);
            let (doc, w) = to_pcn(game).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(w.is_empty(), "{at}: {w:?}");
            let read = pcn::from_str(&pcn::to_string(&doc)).unwrap_or_else(|e| panic!("{at}: {e}"));
            let end = pcn::replay(&read).unwrap_or_else(|e| panic!("{at}: {e}"));
            let fen = game.final_position().to_fen();
            let expect = board_of(&xiangqi::Position::from_fen(&fen).unwrap());
            assert_eq!(end.board, expect, "{at}");
            if let Some(fen) = oracle.get(g.index - 1) {
                assert_eq!(
                    placement(&end.board),
                    fen.split(' ').next().unwrap(),
                    "{at}: manifest"
                );
            }
            let (back, w) = from_pcn(&read).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(w.is_empty(), "{at}: {w:?}");
            assert!(same_game(&back, game), "{at}");
            ok += 1;
        }
    }
    (ok, skipped)
}

#[test]
fn fixtures_round_trip_and_replay() {
    let mut files = Vec::new();
    pgn_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/xiangqi"),
        &mut files,
    );
    let (ok, skipped) = run(&files);
    eprintln!("testdata/xiangqi: {ok} games round-tripped, {skipped} not replayable (skipped)");
    assert!(ok >= 50, "only {ok}");
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn generated_corpus_round_trips_and_replays() {
    let p = test_support::shared("corpus/xiangqi-generated/gen_iccs.pgn");
    let manifest = fs::read_to_string(p.with_file_name("manifest.jsonl")).unwrap_or_default();
    let finals: Vec<String> = manifest
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["final_fen"].as_str().map(str::to_owned))
        .collect();
    let (ok, skipped) = run_with(&[p], &finals);
    eprintln!(
        "gen_iccs.pgn: {ok} games round-tripped, {skipped} not replayable (skipped); manifest final FENs: {}",
        finals.len()
    );
    assert!(ok > 0);
    assert_eq!(finals.len(), ok, "every game checked against the manifest");
}

#[test]
#[ignore = "the whole shared corpus (about 5000 games, ~50 s): run with --ignored"]
fn whole_shared_xiangqi_corpus_round_trips_and_replays() {
    let mut files = Vec::new();
    for d in ["corpus/xiangqi-generated", "corpus/xiangqi-real"] {
        pgn_files(&test_support::shared(d), &mut files);
    }
    if files.is_empty() {
        eprintln!("shared xiangqi corpus absent; skipped");
        return;
    }
    let (ok, skipped) = run(&files);
    eprintln!(
        "shared xiangqi corpus: {ok} games round-tripped, {skipped} not replayable (skipped)"
    );
    assert!(ok > 0);
}
