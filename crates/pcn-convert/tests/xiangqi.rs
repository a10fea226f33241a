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

fn run(files: &[PathBuf]) -> (usize, usize) {
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
fn generated_corpus_round_trips_and_replays() {
    let p = PathBuf::from("/work/shared/corpus/xiangqi-generated/gen_iccs.pgn");
    if !p.exists() {
        eprintln!("{} absent; skipped", p.display());
        return;
    }
    let (ok, skipped) = run(&[p]);
    eprintln!("gen_iccs.pgn: {ok} games round-tripped, {skipped} not replayable (skipped)");
    assert!(ok > 0);
}

#[test]
#[ignore = "the whole shared corpus (about 5000 games, ~50 s): run with --ignored"]
fn whole_shared_xiangqi_corpus_round_trips_and_replays() {
    let mut files = Vec::new();
    for d in [
        "/work/shared/corpus/xiangqi-generated",
        "/work/shared/corpus/xiangqi-real",
    ] {
        pgn_files(Path::new(d), &mut files);
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
