//! A result that contradicts the final position (the side to move with no legal move
//! has lost) is a warning naming both (issue 26, case 13).

const MATE: &str = "3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1";

fn warnings(result_tag: &str, token: &str) -> Vec<String> {
    let src = format!(
        "[Game \"Chinese Chess\"]\n[FEN \"{MATE}\"]\n[Result \"{result_tag}\"]\n\n{token}\n"
    );
    let file = xiangqi_pgn::read_str(&src, "t.pgn");
    assert_eq!(file.games.len(), 1);
    assert!(file.games[0].error.is_none(), "{:?}", file.games[0].error);
    file.games[0]
        .warnings
        .iter()
        .map(|w| w.message.clone())
        .collect()
}

#[test]
fn the_position_is_mate_for_black() {
    let file = xiangqi_pgn::read_str(&format!("[FEN \"{MATE}\"]\n\n*\n"), "t.pgn");
    let end = file.games[0].game.final_position();
    assert_eq!(end.status(), xiangqi::Status::Checkmate);
}

#[test]
fn a_result_against_a_mate_is_named() {
    let w = warnings("0-1", "0-1");
    assert!(
        w.iter()
            .any(|m| m
                == "result token 0-1 contradicts the final position: checkmate, Red wins (1-0)"),
        "{w:?}"
    );
    assert!(
        w.iter().any(
            |m| m == "Result tag 0-1 contradicts the final position: checkmate, Red wins (1-0)"
        ),
        "{w:?}"
    );
}

#[test]
fn the_right_result_and_an_unknown_one_are_quiet() {
    for (tag, token) in [("1-0", "1-0"), ("*", "*")] {
        let w = warnings(tag, token);
        assert!(!w.iter().any(|m| m.contains("contradicts")), "{w:?}");
    }
}
