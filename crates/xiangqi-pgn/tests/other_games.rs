//! A game whose `Game` or `Variant` tag names another game is refused by name, never
//! replayed as xiangqi (issue 26, case 6); xiangqi's own names still read.

fn error_of(src: &str) -> Option<xiangqi_pgn::ReadError> {
    let file = xiangqi_pgn::read_str(src, "t.pgn");
    assert_eq!(file.games.len(), 1);
    file.games[0].error.clone()
}

#[test]
fn a_chess_game_is_refused_by_name() {
    let e = error_of("[Game \"Chess\"]\n[Result \"*\"]\n\n1. e4 e5 *\n").expect("refused");
    assert!(
        matches!(&e, xiangqi_pgn::ReadError::Variant { line: 1, col: 1, value, .. } if value == "Chess"),
        "{e}"
    );
    assert!(e.to_string().contains("\"Chess\""), "{e}");
}

#[test]
fn a_manchu_game_is_not_read_as_standard_xiangqi() {
    let src = "[Game \"Chinese Chess\"]\n[Variant \"Manchu\"]\n[Result \"*\"]\n\n1. C2=5 *\n";
    let e = error_of(src).expect("refused");
    assert!(
        matches!(&e, xiangqi_pgn::ReadError::Variant { line: 2, tag, value, .. } if tag == "Variant" && value == "Manchu"),
        "{e}"
    );
}

#[test]
fn xiangqi_names_are_read() {
    for tags in [
        "[Game \"Chinese Chess\"]",
        "[Game \"Xiangqi\"]",
        "[Game \"中国象棋\"]",
        "[Variant \"xiangqi\"]",
        "[Game \"?\"]",
    ] {
        let src = format!("{tags}\n[Result \"*\"]\n\n1. C2=5 *\n");
        assert_eq!(error_of(&src), None, "{tags}");
    }
}
