//! A table reader's row of a classic game without a game model (`DirectRow`): the
//! differential test of that path against the model path (`Record`), column for
//! column, on every game of the test corpora and on games made to hit each case. A
//! game the direct path takes must be one the model reader reports nothing about.

// Only the corpus paths and the case lists are shared here, not the writers' harness.
#[allow(dead_code, unused_macros)]
mod common;

use cescacs_batch::RawGame;
use cescacs_convert::{DirectRow, Format, Record};
use std::path::Path;

/// Checks one game; true when the direct path took it.
fn same(row: &mut DirectRow, format: Format, raw: &RawGame, what: &str) -> bool {
    if !row.read(format, raw) {
        return false;
    }
    let record = Record::read(format, raw);
    assert!(
        record.diagnostics().is_empty(),
        "{what}: the direct path took a game the model reader reports: {:?}",
        record.diagnostics()
    );
    let tags: Vec<(String, String)> = row
        .tags()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    assert_eq!(tags, record.tags(), "{what}: tags");
    assert_eq!(
        row.moves().collect::<Vec<_>>(),
        record.main_line(),
        "{what}: moves"
    );
    assert_eq!(row.plies(), record.plies(), "{what}: plies");
    assert_eq!(
        Some(row.result().to_string()),
        record.result(),
        "{what}: result"
    );
    assert_eq!(
        Some(row.final_position().to_string()),
        record.final_position(),
        "{what}: final position"
    );
    assert_eq!(
        Some(row.uci().map(str::to_string).collect::<Vec<_>>()),
        record.uci_line(),
        "{what}: uci"
    );
    assert_eq!(
        Some(row.clocks().to_vec()),
        record.clocks(),
        "{what}: clocks"
    );
    assert_eq!(
        Some(row.evals().collect::<Vec<_>>()),
        record.evals(),
        "{what}: evals"
    );
    true
}

/// Every game of the files under `dir`; (games, classic PGN games, taken by the
/// direct path).
fn corpus(dir: &Path) -> (usize, usize, usize) {
    let mut row = DirectRow::new(true, true, true);
    let (mut games, mut classic, mut taken) = (0, 0, 0);
    for ext in ["pgn", "ctl-pgn", "json", "jsonl"] {
        for file in test_support::files_with_extension(dir, ext) {
            let bytes = std::fs::read(&file).unwrap();
            let name = file.display().to_string();
            let Some(format) = cescacs_convert::detect(&name, &bytes) else {
                continue;
            };
            let framing = cescacs_convert::input_framing(format, &name);
            let mut splitter =
                cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24).framing(framing);
            while let Ok(Some(raw)) = splitter.next_game() {
                let what = format!("{name} game {}", raw.index);
                taken += usize::from(same(&mut row, format, &raw, &what));
                games += 1;
                classic += usize::from(format == Format::Pgn);
            }
        }
    }
    (games, classic, taken)
}

#[test]
fn every_testdata_game_reads_as_the_model_path_does() {
    let (games, classic, taken) = corpus(&test_support::testdata());
    // Not vacuous: most classic games taken by the direct path, and not all.
    assert!(
        games > 1000 && taken * 2 > classic && taken < classic,
        "{taken} of {games} games ({classic} classic) taken by the direct path"
    );
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn every_corpus_game_reads_as_the_model_path_does() {
    let (games, _, taken) = corpus(&common::shared_corpus());
    assert!(games > 500 && taken * 2 > games, "{taken} of {games}");
}

/// The cases of the PGN direct path's test: what it declines, the model path
/// reports, and each game made of them reads the same both ways.
#[test]
fn each_case_reads_as_the_model_path_does() {
    let mut row = DirectRow::new(true, true, true);
    let head = "[Event \"E\"]\n[Site \"S\"]\n[White \"W, a\"]\n[Black \"B \\\"b\\\" \\\\\"]\n[Result \"1-0\"]\n[ZTag \"z\"]\n[ATag \"a\"]\n";
    let movetexts = [
        (
            "{start} 1. e4 $1 {c1} {[%clk 1:00:00] [%eval 0.3]} d5! 2. exd5 c6 3. dxc6 Qb6 4. cxb7+ Qxb2 5. bxa8=Q Qxc1 6. Qxc1 e5 7. Nf3 Nf6 8. Be2 Bd6 9. O-O O-O 1-0 {final}",
            true,
        ),
        (
            "1. e4 {[%clk 0:00:01.5]} {[%clk 0:00:02] [%eval #-2]} e5 {[%eval -0.456,20]} 2. Nf3 { [%eval abc] } 1-0",
            true,
        ),
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", true),
        (
            "1. Nf3 Nf6 2. Nc3 Nc6 3. Nd5 Nd4 4. Ne5 Ne4 5. Nxe7 Nxe2 1-0",
            true,
        ),
        ("1-0", true),
        ("1. f3 e5 2. g4 Qh4# 1-0", false),
    ];
    let declined = common::DECLINED_MOVETEXTS.iter().map(|m| (*m, false));
    for (i, (movetext, taken)) in movetexts.into_iter().chain(declined).enumerate() {
        let pgn = format!("{head}\n{movetext}\n");
        let raw = cescacs_convert::raw_game(pgn.as_bytes());
        assert_eq!(
            same(&mut row, Format::Pgn, &raw, &pgn),
            taken,
            "case {i}: {pgn}"
        );
    }
    let games: &[(&[u8], bool)] = &[
        (b"[Result \"1-0 \"]\n\n1. e4 e5 1-0\n", true),
        (b"[Result \"?\"]\n\n1. e4 e5 0-1\n", true),
        (b"[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# *\n", false),
        // A tag value not in UTF-8 (decoded as Windows-1252): the model path's; a
        // comment not in UTF-8 is read as the model reads it.
        (b"[Event \"Caf\xe9\"]\n\n1. e4 1-0\n", false),
        (b"[Event \"Caf\\\\\xe9\"]\n\n1. e4 1-0\n", true),
        (b"1. e4 {\xe9 [%clk 0:00:03]} 1-0\n", true),
        (b"[Ev\xe9nt \"x\"]\n\n1. e4 1-0\n", false),
        (b"[Variant \"Standard\"]\n\n1. e4 e5 1-0\n", true),
        (b"[Variant \"Crazyhouse\"]\n\n1. e4 e5 1-0\n", false),
        (b"[Game \"Chess\"]\n\n1. e4 e5 1-0\n", false),
        (b"[SetUp \"1\"]\n\n1. e4 e5 1-0\n", false),
        (b"[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 e5 1-0\n", false),
        (b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 120 70\"]\n\n70. Kd2 Kd7 71. Kc3 *\n", true),
        (b"[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n[Variant \"Chess960\"]\n\n1. O-O O-O-O *\n", true),
        (b"[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O-O O-O *\n", true),
        (b"1. e4 e5 1-0 {after}\n", true),
        (b"1. e4 e5 1-0", true),
        (b"1. e4 e5", false),
    ];
    for (pgn, taken) in games.iter().copied().chain(
        common::DECLINED_GAMES
            .iter()
            .chain(common::SET_UP_GAMES)
            .map(|g| (*g, true)),
    ) {
        let raw = cescacs_convert::raw_game(pgn);
        let got = same(&mut row, Format::Pgn, &raw, &String::from_utf8_lossy(pgn));
        // The declined and set-up lists are shared with the writers' tests: only
        // their agreement with the model path is checked here.
        if !common::DECLINED_GAMES.contains(&pgn) && !common::SET_UP_GAMES.contains(&pgn) {
            assert_eq!(got, taken, "{}", String::from_utf8_lossy(pgn));
        }
    }
    // Not classic PGN: the model path's.
    let ctl = cescacs_convert::raw_game(b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n");
    assert!(!row.read(Format::CtlPgn, &ctl));
}
