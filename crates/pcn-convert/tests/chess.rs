//! Classic chess: PGN → PCN (through JSON text) → PGN on every game of the corpora, and
//! the rules-free PCN replay against cozy-chess's final position.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use chess_pgn::{Games, to_pgn_string};
use pcn_convert::chess::{board_of, from_pcn, to_pcn};

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

/// python-chess's final FEN per (file relative to testdata/chess, 1-based game index).
fn oracle() -> HashMap<(String, usize), String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess/oracle.tsv");
    let text = fs::read_to_string(p).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Some((
                (f.first()?.to_string(), f.get(1)?.parse().ok()?),
                f.get(4)?.to_string(),
            ))
        })
        .collect()
}

/// The FEN placement field of a PCN chess board (abbreviations are FEN letters).
fn placement(b: &pcn::Board) -> String {
    let mut out = String::new();
    for row in 0..8 {
        let mut empty = 0;
        for col in 0..8 {
            match b.get(row * 8 + col) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(p.abbreviation());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if row < 7 {
            out.push('/');
        }
    }
    out
}

/// Returns (round-tripped, skipped, final boards also checked against python-chess).
fn run(dir: &Path) -> (usize, usize, usize) {
    let mut files = Vec::new();
    pgn_files(dir, &mut files);
    let oracle = oracle();
    let (mut ok, mut skipped, mut independent) = (0, 0, 0);
    for path in files {
        let rel = path
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        for (i, g) in Games::new(fs::File::open(&path).unwrap()).enumerate() {
            let Ok(game) = g else {
                skipped += 1;
                continue;
            };
            if game.errors().next().is_some() {
                skipped += 1;
                continue;
            }
            let at = format!("{} #{}", path.display(), i + 1);
            let (doc, w) = to_pcn(&game).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(w.is_empty(), "{at}: {w:?}");
            let text = pcn::to_string(&doc);
            let read = pcn::from_str(&text).unwrap_or_else(|e| panic!("{at}: {e}"));
            let final_pcn = pcn::replay(&read).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(final_pcn.board, board_of(&game.final_board()), "{at}");
            // Known divergence (chess-pgn's test): German `Sf3` in this file, which
            // python-chess plays as a pawn move.
            if let Some(fen) = oracle.get(&(rel.clone(), i + 1))
                && rel != "mliebelt-pgn-parser/doc_sampleGameThrow.pgn"
            {
                let theirs = fen.split(' ').next().unwrap();
                assert_eq!(placement(&final_pcn.board), theirs, "{at}: python-chess");
                independent += 1;
            }
            let (back, w) = from_pcn(&read).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(w.is_empty(), "{at}: {w:?}");
            assert!(
                back.same_content(&game),
                "{at}\n{}\n---\n{}",
                to_pgn_string(&game),
                to_pgn_string(&back)
            );
            ok += 1;
        }
    }
    (ok, skipped, independent)
}

#[test]
fn testdata_round_trips_and_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess");
    let (ok, skipped, independent) = run(&dir);
    eprintln!(
        "testdata/chess: {ok} games round-tripped, {skipped} not replayable (skipped), {independent} final boards equal python-chess's"
    );
    assert!(ok >= 300, "only {ok} games");
    assert!(
        independent >= 300,
        "only {independent} checked against python-chess"
    );
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn shared_corpus_round_trips_and_replays() {
    let dir = &test_support::shared("corpus/classic-pgn-real");
    let (ok, skipped, _) = run(dir);
    eprintln!("classic-pgn-real: {ok} games round-tripped, {skipped} not replayable (skipped)");
    assert!(ok > 0);
}
