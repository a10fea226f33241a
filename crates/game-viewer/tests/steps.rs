//! The viewer's positions and moves against references: python-chess 1.11.2 for chess
//! (FENs after each half-move, where variations hang), and for clocks the `[%clk]`
//! command the record itself holds. The viewer reads every game through
//! `cescacs_convert::move_tree`, so the three games are walked as every other consumer
//! walks them.

use cescacs_convert::{Format, Record};
use game_viewer::{GameSteps, steps};

fn steps_of(format: Format, text: &str) -> GameSteps {
    let record = Record::from_bytes(format, text.as_bytes());
    assert!(record.errors().is_empty(), "{:?}", record.errors());
    steps(&record).unwrap()
}

#[test]
fn chess_positions_keep_the_exact_halfmove_clock() {
    // python-chess: chess.Board(FEN), push_san each move, board.fen(). cozy-chess caps
    // its own clock at 100; the position shown must not.
    let s = steps_of(
        Format::Pgn,
        "[FEN \"8/8/8/4k3/8/8/8/4K2R w K - 120 80\"]\n[SetUp \"1\"]\n\n1. Kd1 Kd5 *\n",
    );
    let fens: Vec<&str> = std::iter::once(&s.start)
        .chain(s.main.iter().map(|m| &m.shown))
        .map(|p| p.position.as_str())
        .collect();
    assert_eq!(
        fens,
        [
            "8/8/8/4k3/8/8/8/4K2R w K - 120 80",
            "8/8/8/4k3/8/8/8/3K3R b - - 121 80",
            "8/8/8/3k4/8/8/8/3K3R w - - 122 81",
        ]
    );
    assert_eq!((s.main[1].number, s.main[1].black), (80, true));
}

#[test]
fn variations_stand_where_python_chess_puts_them() {
    // python-chess reads `1. e4 (1. d4 (1. c4 c5) d5) e5` as three alternatives of the
    // first move: game.variations are e4, d4 and c4, their main lines [e5], [d5], [c5].
    let s = steps_of(Format::Pgn, "1. e4 (1. d4 (1. c4 c5) d5) e5 *\n");
    let texts = |line: &[game_viewer::Step]| -> Vec<String> {
        line.iter().map(|m| m.text.clone()).collect()
    };
    assert_eq!(texts(&s.main), ["e4", "e5"]);
    let alternatives: Vec<Vec<String>> = s.main[0].variations.iter().map(|v| texts(v)).collect();
    assert_eq!(alternatives, [["d4", "d5"], ["c4", "c5"]]);
    assert!(
        s.main[0]
            .variations
            .iter()
            .flatten()
            .all(|m| m.variations.is_empty())
    );
    // Each alternative starts from the position before the move it replaces.
    assert_eq!(
        s.main[0].variations[1][0].shown.position,
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn every_game_shows_the_clock_its_record_gives() {
    let xiangqi = steps_of(
        Format::XiangqiPgn,
        "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 {[%clk 0:01:00]} h9g7 {[%clk 1:02:03]} *\n",
    );
    let clocks: Vec<Option<&str>> = xiangqi.main.iter().map(|m| m.clock.as_deref()).collect();
    assert_eq!(clocks, [Some("0:01:00"), Some("1:02:03")]);
    let cescacs = steps_of(
        Format::CtlPgn,
        "[Variant \"C'escacs\"]\n\n1. E7-E9 {[%clk 0:00:10]}, E21-E19\n*\n",
    );
    assert_eq!(cescacs.main[0].clock.as_deref(), Some("0:00:10"));
    assert_eq!(cescacs.main[1].clock, None);
    let chess = steps_of(Format::Pgn, "1. e4 {[%clk 0:03:00] [%eval -0.29]} e5 *\n");
    assert_eq!(chess.main[0].clock.as_deref(), Some("0:03:00"));
    assert_eq!(chess.main[0].eval.as_deref(), Some("-0.29"));
}
