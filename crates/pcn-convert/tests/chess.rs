//! Classic chess: PGN → PCN (through JSON text) → PGN on every game of the corpora, and
//! the rules-free PCN replay against cozy-chess's final position.

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

fn run(dir: &Path) -> (usize, usize) {
    let mut files = Vec::new();
    pgn_files(dir, &mut files);
    let (mut ok, mut skipped) = (0, 0);
    for path in files {
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
    (ok, skipped)
}

#[test]
fn testdata_round_trips_and_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess");
    let (ok, skipped) = run(&dir);
    eprintln!("testdata/chess: {ok} games round-tripped, {skipped} not replayable (skipped)");
    assert!(ok >= 300, "only {ok} games");
}

#[test]
fn shared_corpus_round_trips_and_replays() {
    let dir = Path::new("/work/shared/corpus/classic-pgn-real");
    if !dir.exists() {
        eprintln!("{} absent; skipped", dir.display());
        return;
    }
    let (ok, skipped) = run(dir);
    eprintln!("classic-pgn-real: {ok} games round-tripped, {skipped} not replayable (skipped)");
    assert!(ok > 0);
}
