//! C'escacs: CTL-PGN → PCN (through JSON text) → CTL-PGN on the oracle and real games,
//! and the rules-free PCN replay against the final position of `ctl-pgn`'s legal replay
//! (itself on `cescacs-rules`).

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use pcn_convert::cescacs::{board_of, final_position, from_pcn, to_pcn};

fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ctl-pgn"))
        .collect();
    v.sort();
    v
}

/// Special moves met, by their PCN shape: [castling (several shifts), en passant
/// (remove then shift), promotion option, promotion in place (jump + land)].
fn shapes(doc: &pcn::Game, seen: &mut [usize; 4]) {
    use pcn::Verb::*;
    for m in &doc.previous_moves {
        let verbs: Vec<pcn::Verb> = m.0.iter().map(|a| a.verb).collect();
        match verbs.as_slice() {
            [Remove, Shift] => seen[1] += 1,
            [Jump, Land] => seen[3] += 1,
            v if v.len() > 1 && v.iter().all(|&x| x == Shift) => seen[0] += 1,
            _ => {}
        }
        if m.0.iter().any(|a| a.promotion().is_some()) {
            seen[2] += 1;
        }
    }
}

/// (round-tripped, not replayable by ctl-pgn)
fn run(paths: &[PathBuf]) -> (usize, usize) {
    run_counting(paths, &mut [0; 4])
}

fn run_counting(paths: &[PathBuf], seen: &mut [usize; 4]) -> (usize, usize) {
    run_checked(paths, seen, &HashMap::new())
}

/// `oracle`: final TLPD by file name, from the author's engine (`games.jsonl`).
fn run_checked(
    paths: &[PathBuf],
    seen: &mut [usize; 4],
    oracle: &HashMap<String, String>,
) -> (usize, usize) {
    let (mut ok, mut skipped, mut seen_after) = (0, 0, 0);
    for path in paths {
        let src = fs::read_to_string(path).unwrap();
        let name = path.display().to_string();
        for r in ctl_pgn::replay(&name, &src, ctl_pgn::Options::default()) {
            let at = format!("{name} #{}", r.index);
            let Some(game) = r.game.as_ref() else {
                skipped += 1;
                continue;
            };
            if r.has_errors() || !r.complete {
                skipped += 1;
                continue;
            }
            let (doc, w) = to_pcn(game).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(w.is_empty(), "{at}: {w:?}");
            shapes(&doc, seen);
            let read = pcn::from_str(&pcn::to_string(&doc)).unwrap_or_else(|e| panic!("{at}: {e}"));
            let end = pcn::replay(&read).unwrap_or_else(|e| panic!("{at}: {e}"));
            let engine = r.position.as_ref().expect("complete replay has a position");
            assert_eq!(end.board, board_of(engine), "{at}");
            assert_eq!(final_position(game).unwrap(), *engine, "{at}");
            // The spec's worked examples state their final position as `{after: TLPD}`.
            if let Some(t) = game
                .final_comments
                .iter()
                .find_map(|c| c.text.trim().strip_prefix("after:"))
            {
                let stated =
                    cescacs_tlpd::parse(t.trim()).unwrap_or_else(|e| panic!("{at}: {t}: {e}"));
                assert_eq!(
                    end.board,
                    board_of(&stated),
                    "{at}: the spec's stated position"
                );
                seen_after += 1;
            }
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            if let Some(t) = oracle.get(&file) {
                let theirs = cescacs_tlpd::parse(t).unwrap_or_else(|e| panic!("{at}: {t}: {e}"));
                assert_eq!(end.board, board_of(&theirs), "{at}: oracle final TLPD");
            }
            let (back, w) = from_pcn(&read).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert!(w.is_empty(), "{at}: {w:?}");
            assert_eq!(&back, game, "{at}");
            ok += 1;
        }
    }
    if seen_after > 0 {
        eprintln!("{seen_after} final boards equal a stated `after:` position");
    }
    (ok, skipped)
}

fn testdata(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/ctl-pgn")
        .join(sub)
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn oracle_games_round_trip_and_replay() {
    // The shared oracle is required: a missing file fails loudly (test_support::shared).
    let paths = files(&test_support::shared("oracle/games"));
    assert!(
        !paths.is_empty(),
        "no oracle games in ../shared/oracle/games"
    );
    let jsonl_path = test_support::shared("oracle/games.jsonl");
    let jsonl =
        fs::read_to_string(&jsonl_path).unwrap_or_else(|e| panic!("{}: {e}", jsonl_path.display()));
    let finals: HashMap<String, String> = jsonl
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            Some((
                v["file"].as_str()?.to_owned(),
                v["final_tlpd"].as_str()?.to_owned(),
            ))
        })
        .collect();
    let mut seen = [0; 4];
    let (ok, skipped) = run_checked(&paths, &mut seen, &finals);
    eprintln!(
        "oracle: {ok} games round-tripped, {skipped} not replayable; {} final TLPDs from the author's engine",
        finals.len()
    );
    assert_eq!(
        finals.len(),
        ok,
        "every game checked against the oracle's final position"
    );
    eprintln!(
        "oracle moves: {} castlings, {} en passant, {} promotions, {} in place",
        seen[0], seen[1], seen[2], seen[3]
    );
    assert!(seen[0] > 0 && seen[1] > 0 && seen[2] > 0, "{seen:?}");
    assert!(ok >= 20, "only {ok}");
    assert_eq!(skipped, 0);
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn real_games_round_trip_and_replay() {
    let paths = files(&test_support::shared("corpus/cescacs-real"));
    assert!(
        !paths.is_empty(),
        "no games in ../shared/corpus/cescacs-real"
    );
    let (ok, skipped) = run(&paths);
    eprintln!("cescacs-real: {ok} games round-tripped, {skipped} not replayable");
    assert!(ok > 0);
}

#[test]
fn spec_fixtures_round_trip_when_they_replay() {
    let mut seen = [0; 4];
    let (ok, skipped) = run_counting(&files(&testdata("spec")), &mut seen);
    eprintln!("testdata/ctl-pgn/spec: {ok} games round-tripped, {skipped} not replayable");
    eprintln!(
        "spec moves: {} castlings, {} en passant, {} promotions, {} in place",
        seen[0], seen[1], seen[2], seen[3]
    );
    // The worked examples (TLPD starts) include 10.15's forced promotion `F28=R`.
    assert!(ok >= 15 && seen[3] > 0, "{ok} {seen:?}");
}
