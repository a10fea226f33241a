//! A result marker or `Result` tag that contradicts a checkmate or a stalemate after
//! the main line is a warning naming both (issue 26, case 13); python-chess agrees on
//! the positions (`Board.is_checkmate()`, `Board.is_stalemate()`).

fn messages(pgn: &str) -> Vec<String> {
    let game = chess_pgn::parse_all(pgn).remove(0).unwrap();
    game.diagnostics.iter().map(|d| d.message.clone()).collect()
}

#[test]
fn a_marker_against_a_mate_is_named_and_a_right_one_is_quiet() {
    let m = messages("[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1\n");
    assert!(
        m.iter().any(|m| m
            == "result marker 0-1 contradicts the final position: checkmate, White wins (1-0)"),
        "{m:?}"
    );
    assert!(!m.iter().any(|m| m.starts_with("Result tag")), "{m:?}");
    // The same mate with the right result, or with `*`, is not warned about: the
    // warning comes from the position, not from every game that ends in a mate.
    for r in ["1-0", "*"] {
        let m = messages(&format!(
            "[Result \"{r}\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {r}\n"
        ));
        assert!(!m.iter().any(|m| m.contains("contradicts")), "{m:?}");
    }
}

#[test]
fn a_tag_against_a_stalemate_is_named() {
    let m = messages(
        "[SetUp \"1\"]\n[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n[Result \"1-0\"]\n\n1-0\n",
    );
    assert!(
        m.iter()
            .any(|m| m
                == "Result tag 1-0 contradicts the final position: stalemate, a draw (1/2-1/2)"),
        "{m:?}"
    );
}

#[test]
fn the_halfmove_clock_counts_past_100_as_python_chess_does() {
    let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 60\"]\n\n60. Ra2 Kd8 61. Ra3 *";
    let game = chess_pgn::parse_all(pgn).remove(0).unwrap();
    assert_eq!(game.final_halfmove_clock(), 102);
    // python-chess: chess.pgn.read_game(...).end().board().fen()
    assert_eq!(game.final_fen(), "3k4/8/8/8/8/R7/8/4K3 b - - 102 61");
}
