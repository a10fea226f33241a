//! `convert --to pcn` of classic PGN writes most games without a game model
//! (`pcn_convert::chess::write_pcn_from_pgn`): the differential test of that path
//! against the model path (read with `chess-pgn`'s model, `to_pcn`, `pcn::to_string`)
//! on every game of the test corpora and on games made to hit each case.

use cescacs_batch::{GameOutcome, RawGame};
use cescacs_convert::{Converter, Format, Options, Record};

/// What the model path gives for one game: the document and the diagnostics.
fn model(raw: &RawGame) -> GameOutcome {
    let record = Record::read(Format::Pgn, raw);
    let mut outcome = GameOutcome {
        output: Vec::new(),
        diagnostics: record.diagnostics().to_vec(),
    };
    if !record.has_errors() {
        match record.write(Format::Pcn, &Options::default()) {
            Ok(w) => {
                outcome.diagnostics.extend(w.warnings);
                outcome.output = w.text.into_bytes();
            }
            Err(e) => outcome.diagnostics.push(e.diagnostic()),
        }
    }
    outcome
}

/// Checks one game; true when the direct path took it.
fn same(converter: &Converter, raw: &RawGame, what: &str) -> bool {
    let mut direct = Vec::new();
    let taken = pcn_convert::chess::write_pcn_from_pgn(&raw.bytes, &mut direct);
    let expected = model(raw);
    let got = converter.convert(raw);
    assert_eq!(
        String::from_utf8_lossy(&got.output),
        String::from_utf8_lossy(&expected.output),
        "{what}: the convert output differs from the model path's"
    );
    assert_eq!(got.diagnostics, expected.diagnostics, "{what}");
    if taken {
        assert!(
            expected.diagnostics.is_empty(),
            "{what}: the direct path took a game the model reader reports: {:?}",
            expected.diagnostics
        );
        assert_eq!(
            String::from_utf8_lossy(&direct),
            String::from_utf8_lossy(&expected.output),
            "{what}"
        );
        // The document reads back.
        pcn::from_slice(&direct).unwrap_or_else(|e| panic!("{what}: {e}"));
    } else {
        assert!(direct.is_empty(), "{what}: a declined game left output");
    }
    taken
}

fn converter() -> Converter {
    Converter::new(Format::Pgn, Some(Format::Pcn), Options::default()).unwrap()
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn every_corpus_game_converts_as_the_model_path_does() {
    let converter = converter();
    let root = test_support::workspace_root();
    let mut dirs = vec![root.join("testdata/chess")];
    dirs.push(test_support::shared("corpus/classic-pgn-real"));
    let (mut games, mut direct) = (0, 0);
    for dir in dirs {
        for file in test_support::files_with_extension(&dir, "pgn") {
            let bytes = std::fs::read(&file).unwrap();
            let mut splitter = cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24);
            while let Some(raw) = splitter.next_game().unwrap() {
                let what = format!("{} game {}", file.display(), raw.index);
                direct += usize::from(same(&converter, &raw, &what));
                games += 1;
            }
        }
    }
    // Not a vacuous comparison: most real games take the direct path, and some do not.
    assert!(
        games > 1000 && direct * 2 > games && direct < games,
        "{direct} of {games}"
    );
}

#[test]
fn each_case_of_the_direct_path_matches_the_model_path() {
    let converter = converter();
    let head = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"W, a\"]\n[Black \"B \\\"b\\\"\"]\n[Result \"1-0\"]\n";
    let cases: &[(&str, bool)] = &[
        // Taken: comments before and after moves, NAGs, glyphs, clock and eval
        // commands, a termination comment, castling, en passant, promotion.
        (
            "{start} 1. e4 $1 {c1} {[%clk 1:00:00] [%eval 0.3]} d5! 2. exd5 c6 3. dxc6 Qb6 4. cxb7+ Qxb2 5. bxa8=Q Qxc1 6. Qxc1 e5 7. Nf3 Nf6 8. Be2 Bd6 9. O-O O-O 1-0 {final} {words}",
            true,
        ),
        ("1. e4 a6 2. e5 d5 3. exd6 Qxd6 1-0", true),
        ("1. e4 {[%eval #-3]} e5 {[%clk 0:00:01.5]} 1-0", true),
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", true),
        ("1-0", true),
        // Declined: each goes through the model, which reports or carries it.
        ("1. e4 (1. d4 d5) e5 1-0", false),
        ("1. e4 -- 2. d4 1-0", false),
        ("1. e4 e5 2. Ke3 1-0", false),
        ("1. e4 $0 e5 1-0", false),
        ("$1 1. e4 e5 1-0", false),
        ("1. e4 e5 0-1", false),
        ("1. e4 e5", false),
        ("1. e4 e5 e.p. 1-0", false),
        ("1. e4 e5 1-0 2. d4", false),
    ];
    for (i, (movetext, taken)) in cases.iter().enumerate() {
        let pgn = format!("{head}\n{movetext}\n");
        let raw = cescacs_convert::raw_game(pgn.as_bytes());
        assert_eq!(
            same(&converter, &raw, &format!("case {i}")),
            *taken,
            "case {i}: {pgn}"
        );
    }
    // A tag section of 64 tags is written directly; past it the model path, whose
    // duplicate test is linear, takes the game (the same document either way).
    for (tags, taken) in [(64, true), (65, false)] {
        let section: String = (0..tags).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
        let pgn = format!("{section}\n1. e4 e5 1-0\n");
        let raw = cescacs_convert::raw_game(pgn.as_bytes());
        assert_eq!(
            same(&converter, &raw, &format!("{tags} tags")),
            taken,
            "{tags} tags"
        );
    }
    // A variant tag naming the standard game (lichess writes one on every game) is
    // kept as a tag; the model writes such games as standard chess and says nothing.
    for (pgn, taken) in [
        (
            "[Variant \"Standard\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n",
            true,
        ),
        ("[Variant \"standard\"]\n\n1. e4 e5 1-0\n", true),
        (
            "[Variant \"Standard\"]\n[Variant \"Standard\"]\n\n1. e4 e5 1-0\n",
            false,
        ),
        ("[variant \"Standard\"]\n\n1. e4 e5 1-0\n", false),
        ("[Variant \"Crazyhouse\"]\n\n1. e4 e5 1-0\n", false),
    ] {
        let raw = cescacs_convert::raw_game(pgn.as_bytes());
        assert_eq!(same(&converter, &raw, pgn), taken, "{pgn}");
    }
    let others: &[&str] = &[
        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 1-0\n",
        "[Variant \"chess960\"]\n\n1. e4 1-0\n",
        "[event \"x\"]\n\n1. e4 1-0\n",
        "[Event \"x\"]\n[Event \"y\"]\n\n1. e4 1-0\n",
        "[Event \"a\tb\"]\n\n1. e4 1-0\n",
        "[Event \"x\"]\n\n1. e4 1-0\n\n[Event \"y\"]\n\n1. d4 0-1\n",
        "%escape\n[Event \"x\"]\n\n1. e4 1-0\n",
    ];
    for (i, pgn) in others.iter().enumerate() {
        let raw = cescacs_convert::raw_game(pgn.as_bytes());
        assert!(
            !same(&converter, &raw, &format!("other {i}")),
            "other {i}: {pgn}"
        );
    }
}
