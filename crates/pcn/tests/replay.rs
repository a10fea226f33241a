//! Replay of the spec's own examples (Parts A.3, A.4, C.2, C.3, C.4) and of impossible
//! actions.

use pcn::{Action, Coord, Game, GameBuilder, Piece, ReplayOptions, Side, Verb};

fn p(s: &str) -> Piece {
    s.parse().unwrap()
}

fn doc(shape_json: &str, moves_json: &str) -> Game {
    let text = format!(
        r#"{{"over?":false,"...result?":null,"starting_position":{shape_json},"previous_moves":{moves_json}}}"#
    );
    pcn::from_str(&text).unwrap()
}

/// Standard chess start in the C.2 orientation (row 0 = rank 8).
fn chess_start() -> GameBuilder {
    let mut b = GameBuilder::new(&[8, 8], "w").unwrap();
    let back = ["r", "n", "b", "q", "k", "b", "n", "r"];
    for (c, a) in back.iter().enumerate() {
        b.place(c, Some(b.piece(a, Side::Top).unwrap())).unwrap();
        b.place(8 + c, Some(b.piece("p", Side::Top).unwrap()))
            .unwrap();
        b.place(48 + c, Some(b.piece("p", Side::Bottom).unwrap()))
            .unwrap();
        b.place(56 + c, Some(b.piece(a, Side::Bottom).unwrap()))
            .unwrap();
    }
    b
}

#[test]
fn chess_examples_of_part_c2() {
    let mut b = chess_start();
    b.push_move([Action::shift(52, 36)]).unwrap(); // 1. e4 (spec: [[52,"shift",36]])
    let g = b.clone().build();
    assert_eq!(
        pcn::to_string(&g)
            .split("\"previous_moves\":")
            .nth(1)
            .unwrap(),
        r#"[[[52,"shift",36]]]}"#
    );
    let end = pcn::replay(&g).unwrap();
    assert_eq!(end.board.get(36), Some(&p("W:P")));
    assert_eq!(end.board.get(52), None);

    // White O-O from a board with f1/g1 cleared: king first, then rook.
    let mut b = chess_start();
    b.place(61, None).unwrap().place(62, None).unwrap();
    b.push_move([Action::shift(60, 62), Action::shift(63, 61)])
        .unwrap();
    let end = pcn::replay(&b.build()).unwrap();
    assert_eq!(end.board.get(62), Some(&p("W:K")));
    assert_eq!(end.board.get(61), Some(&p("W:R")));
    assert_eq!(end.board.get(60), None);
    assert_eq!(end.board.get(63), None);
}

#[test]
fn en_passant_and_promotions_of_part_c2() {
    // White pawn e5 (28), black pawn d5 (27): [[28,"remove",27],[27,"shift",19]].
    let mut squares = vec!["null".to_string(); 64];
    squares[28] = "\"W:P\"".into();
    squares[27] = "\"w:p\"".into();
    squares[12] = "\"W:P\"".into(); // e7, about to promote
    squares[3] = "\"w:q\"".into(); // d8
    squares[51] = "\"w:p\"".into(); // black pawn d2 (A.4's 51 -> 59)
    let rows: Vec<String> = squares
        .chunks(8)
        .map(|r| format!("[{}]", r.join(",")))
        .collect();
    let board = format!("[{}]", rows.join(","));
    let g = doc(
        &board,
        r#"[[[28,"remove",27],[27,"shift",19]],
            [[51,"shift",59,{"promotion":"w:n"}]],
            [[12,"remove",3,{"promotion":"W:N"}]]]"#,
    );
    let end = pcn::replay(&g).unwrap();
    assert_eq!(end.board.get(19), Some(&p("W:P")));
    assert_eq!(end.board.get(27), None);
    assert_eq!(end.board.get(28), None);
    assert_eq!(end.board.get(59), Some(&p("w:n")));
    assert_eq!(end.board.get(3), Some(&p("W:N")));
    assert!(
        end.bottom_hand.is_empty() && end.top_hand.is_empty(),
        "remove takes out of play"
    );
}

#[test]
fn shogi_capture_with_promotion_of_part_a4() {
    // ["s:r", "capture", [7,1], {"promotion": "+s:r"}] on a 9x9 board.
    let mut b = GameBuilder::new(&[9, 9], "s").unwrap();
    b.place([1, 1], Some(p("s:r"))).unwrap();
    b.place([7, 1], Some(p("S:B"))).unwrap();
    b.push_move([Action::capture(p("s:r"), [7, 1]).promote(p("+s:r"))])
        .unwrap();
    let g = b.build();
    let end = pcn::replay(&g).unwrap();
    assert_eq!(end.board.get(64), Some(&p("+s:r")));
    assert_eq!(end.board.get(10), None);
    assert_eq!(
        end.top_hand,
        vec![p("S:b")],
        "captured piece flips case into the taker's hand"
    );
    assert!(pcn::to_string(&g).contains(r#"[["s:r","capture",[7,1],{"promotion":"+s:r"}]]"#));
}

#[test]
fn xiangqi_example_of_part_c3() {
    // 1. 炮二平五 马8进7 (h2e2 h9g7): [[70,"shift",67]], [[7,"shift",24]].
    let mut b = GameBuilder::new(&[10, 9], "x").unwrap();
    b.place(70, Some(p("X:C")))
        .unwrap()
        .place(7, Some(p("x:h")))
        .unwrap();
    b.place(4, Some(p("x:g")))
        .unwrap()
        .place(85, Some(p("X:G")))
        .unwrap();
    b.push_move([Action::shift(70, 67)]).unwrap();
    b.push_move([Action::shift(7, 24)]).unwrap();
    let end = pcn::replay(&b.build()).unwrap();
    assert_eq!(end.board.get(67), Some(&p("X:C")));
    assert_eq!(end.board.get(24), Some(&p("x:h")));
}

#[test]
fn cescacs_example_of_part_c4() {
    // 1-D board of 169 cells; E7 = 136, E13 = 91, E21 = 31, E15 = 76.
    let mut b = GameBuilder::new(&[169], "cescacs").unwrap();
    b.place(136, Some(p("CESCACS:P")))
        .unwrap()
        .place(31, Some(p("cescacs:p")))
        .unwrap();
    b.push_move([Action::shift(136, 91)]).unwrap();
    b.push_move([Action::shift(31, 76)]).unwrap();
    let g = b.build();
    let text = pcn::to_string(&g);
    assert!(
        text.contains(r#""previous_moves":[[[136,"shift",91]],[[31,"shift",76]]]"#),
        "{text}"
    );
    let end = pcn::replay(&g).unwrap();
    assert_eq!(end.board.get(91), Some(&p("CESCACS:P")));
    assert_eq!(end.board.get(76), Some(&p("cescacs:p")));
}

#[test]
fn three_coordinate_forms_are_equivalent_part_a3() {
    // 6x2x4 board: [0,1,2] is 6 and [5,0,3] is 43.
    let mut b = GameBuilder::new(&[6, 2, 4], "w").unwrap();
    b.place([0, 1, 2], Some(p("W:R"))).unwrap();
    assert_eq!(b.board().get(6), Some(&p("W:R")));
    let mut by_flat = b.clone();
    by_flat.push_move([Action::shift(6, 43)]).unwrap();
    let mut by_cart = b.clone();
    by_cart
        .push_move([Action::shift([0, 1, 2], [5, 0, 3])])
        .unwrap();
    let mut by_name = b;
    by_name.push_move([Action::shift(p("W:R"), 43)]).unwrap();
    let a = pcn::replay(&by_flat.build()).unwrap();
    assert_eq!(a, pcn::replay(&by_cart.build()).unwrap());
    assert_eq!(a, pcn::replay(&by_name.build()).unwrap());
    assert_eq!(a.board.get(43), Some(&p("W:R")));
}

fn replay_err(board: &str, moves: &str) -> String {
    pcn::replay(&doc(board, moves)).unwrap_err().to_string()
}

const ROW: &str = r#"["W:K",null,"w:k","w:p","w:p",null]"#;

#[test]
fn impossible_actions_are_reported_with_move_and_action_index() {
    let cases = [
        (
            r#"[[[1,"shift",5]]]"#,
            "previous_moves[0][0]: no piece on square 1 [1]",
        ),
        (
            r#"[[[0,"shift",1]],[[2,"shift",1]]]"#,
            "previous_moves[1][0]: square 1 [1] is occupied by W:K",
        ),
        (
            r#"[[[0,"remove",5]]]"#,
            "previous_moves[0][0]: no piece on square 5 [5]",
        ),
        (
            r#"[[[0,"capture",1]]]"#,
            "previous_moves[0][0]: no piece on square 1 [1]",
        ),
        (
            r#"[[[2,"remove",3]]]"#,
            "previous_moves[0][0]: w:k cannot take w:p: same side",
        ),
        (
            r#"[[["w:p","shift",5]]]"#,
            "previous_moves[0][0]: piece w:p is ambiguous: it stands on 2 squares",
        ),
        (
            r#"[[["W:Q","shift",5]]]"#,
            "previous_moves[0][0]: piece W:Q is not on the board",
        ),
        (
            r#"[[["W:P","drop",5]]]"#,
            "previous_moves[0][0]: piece W:P is not in the bottom hand",
        ),
        (
            r#"[[[0,"shift",1],[1,"land",5]]]"#,
            "previous_moves[0][1]: no piece is in the air above square 1 [1]",
        ),
        (
            r#"[[[0,"jump",1]]]"#,
            "previous_moves[0][0]: the move ends with W:K still in the air above square 1 [1]",
        ),
        (
            r#"[[[0,"jump",2],[2,"land",3]]]"#,
            "previous_moves[0][1]: square 3 [3] is occupied by w:p",
        ),
        (
            r#"[[[0,"shift",1,{"promotion":"w:q"}]]]"#,
            "previous_moves[0][0]: promotion of W:K to w:q changes its side",
        ),
        (
            r#"[[[0,"jump",2],[3,"stun",4]]]"#,
            "previous_moves[0][1]: no piece is in the air above square 3 [3]",
        ),
    ];
    for (moves, want) in cases {
        assert_eq!(replay_err(ROW, moves), want, "{moves}");
    }
}

#[test]
fn hop_capture_and_hand_rules() {
    let board = ROW;
    // W:K jumps over w:k (2), stuns w:p on 3: taken out of play.
    let end = pcn::replay(&doc(board, r#"[[[0,"jump",2],[2,"stun",3]]]"#)).unwrap();
    assert_eq!(end.board.get(3), Some(&p("W:K")));
    assert!(end.bottom_hand.is_empty());
    // Capture to hand then drop it back, in the case of its new owner.
    let end = pcn::replay(&doc(
        board,
        r#"[[[0,"shift",1]],[[1,"capture",2]],[["w:K","drop",0]]]"#,
    ))
    .unwrap();
    assert_eq!(end.board.get(0), Some(&p("w:K")));
    assert!(end.bottom_hand.is_empty());
    // A Go-style drop from an unlimited reserve.
    let g = doc(board, r#"[[["W:P","drop",5]]]"#);
    let end = pcn::replay_with(
        &g,
        ReplayOptions {
            unlimited_reserve: true,
        },
    )
    .unwrap();
    assert_eq!(end.board.get(5), Some(&p("W:P")));
}

#[test]
fn a_failed_move_leaves_the_position_unchanged() {
    let g = doc(ROW, r#"[[[0,"shift",1],[3,"shift",4]]]"#);
    let mut pos = pcn::Position::new(g.starting_position.clone());
    let before = pos.clone();
    let (action, reason) = pos
        .apply(&g.previous_moves[0], ReplayOptions::default())
        .unwrap_err();
    assert_eq!(action, 1);
    assert_eq!(reason.to_string(), "square 4 [4] is occupied by w:p");
    assert_eq!(pos, before);
}

#[test]
fn builder_rejects_what_the_reader_would() {
    let mut b = GameBuilder::new(&[2, 3], "w").unwrap();
    let e = b.push_move([Action::shift(6, 1)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "previous_moves[0][0][0]: square 6 is off the board (it has 6 squares)"
    );
    let e = b.push_move([Action::new(3, Verb::Drop, 4)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"previous_moves[0][0][0]: the subject of "drop" must be a piece name (the piece in hand)"#
    );
    let e = b.push_move([Action::shift([1, 3], 0)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "previous_moves[0][0][0]: index 3 is off the board (dimension 1 has 3 squares)"
    );
    assert!(b.push_move(Vec::new()).is_err());
    assert!(b.extension("pgn", serde_json::json!(1)).is_err());
    assert!(b.extension("...cache", serde_json::json!(1)).is_err());
    assert!(b.started_at("1992-11-04").is_err());
    b.started_at("1992-11-04T00:00:00").unwrap();
    assert!(GameBuilder::new(&[0, 3], "w").is_err());
    assert!(GameBuilder::new(&[3], "w:x").is_err());
    b.extension("...pcn_edition", serde_json::json!("seed-2012"))
        .unwrap();
    let g = b.build();
    assert!(pcn::validate(&g).is_ok());
    assert!(pcn::to_string(&g).ends_with(r#""previous_moves":[],"...pcn_edition":"seed-2012"}"#));
    let _ = Coord::Flat(0);
}

#[test]
fn hand_built_games_with_forms_the_reader_refuses_fail_cleanly() {
    let mut g = doc(ROW, "[]");
    g.previous_moves
        .push(pcn::Move(vec![Action::new(5, Verb::Drop, 1)]));
    assert_eq!(
        pcn::replay(&g).unwrap_err().to_string(),
        "previous_moves[0][0]: the subject of drop must be a piece name, found 5"
    );
    assert!(pcn::validate(&g).is_err());
    g.previous_moves[0] = pcn::Move(vec![Action::shift(9, 1)]);
    assert_eq!(
        pcn::replay(&g).unwrap_err().to_string(),
        "previous_moves[0][0]: coordinate does not name a square of this board"
    );
    assert_eq!(
        pcn::validate(&g).unwrap_err().to_string(),
        "previous_moves[0][0][0]: square 9 is off the board (it has 6 squares)"
    );
}

/// The `pcn` family of `cargo xtask scaling` at a small size: a piece walking across a
/// 1-D board of n cells, every other move naming the piece. The replay (in place, with
/// a piece index) gives the walk's end; the timing ratios live in the xtask.
#[test]
fn a_long_walk_on_a_long_board_replays_to_its_end() {
    let n = 2000;
    let mut text = String::from("{\"over?\":false,\"starting_position\":[\"W:K\"");
    text.push_str(&",null".repeat(n - 1));
    text.push_str("],\"previous_moves\":[");
    let moves: Vec<String> = (0..n - 1)
        .map(|i| {
            if i % 2 == 0 {
                format!("[[{i},\"shift\",{}]]", i + 1)
            } else {
                format!("[[\"W:K\",\"shift\",{}]]", i + 1)
            }
        })
        .collect();
    text.push_str(&moves.join(","));
    text.push_str("]}");
    let g = pcn::from_str(&text).unwrap();
    let end = pcn::replay(&g).unwrap();
    assert_eq!(
        end.board.get(n - 1).map(ToString::to_string).as_deref(),
        Some("W:K")
    );
    assert_eq!(end.board.pieces().count(), 1);
}

/// A failing move leaves the position exactly as it was (the undo log), also when it
/// failed after changing squares and hands.
#[test]
fn a_move_failing_halfway_is_taken_back() {
    let text =
        r#"{"over?":false,"starting_position":["W:K","w:p",null,"w:q"],"previous_moves":[]}"#;
    let g = pcn::from_str(text).unwrap();
    let mut pos = pcn::Position::new(g.starting_position.clone());
    let before = pos.clone();
    // capture the pawn (to hand), then shift onto the occupied square 3: fails.
    let mv = pcn::Move(vec![pcn::Action::capture(0, 1), pcn::Action::shift(1, 3)]);
    let err = pos.apply(&mv, pcn::ReplayOptions::default()).unwrap_err();
    assert_eq!(err.0, 1);
    assert_eq!(pos, before);
    assert!(pos.hand(pcn::Side::Bottom).is_empty());
    assert!(pos.captures(pcn::Side::Bottom).is_empty());
}
