//! A game tagged for another game (`[Game "Xiangqi"]`, `[Variant "…"]` naming a
//! non-chess variant) is refused by name and place on every path of this crate — the
//! model ([`Games`]), checking ([`GameBuilder::check_only`]) and the main-line replayer
//! ([`Replayer`]) — and never read as chess, even when its moves are legal chess moves
//! (issue 26, case 6). The next game is read as usual.

use chess_pgn::{GameBuilder, GameError, Games, PgnReader, ReplayError, Replayer, Variant};

/// Legal chess moves under a tag that says the record is xiangqi, then a chess game.
const TAGGED_XIANGQI: &str =
    "[Event \"e\"]\n[Game \"Xiangqi\"]\n\n1. e4 e5 *\n\n[Event \"f\"]\n\n1. d4 d5 *\n";

#[test]
fn model_refuses_a_game_tagged_for_another_game_at_its_tag() {
    let games: Vec<_> = Games::new(TAGGED_XIANGQI.as_bytes()).collect();
    assert_eq!(games.len(), 2);
    match &games[0] {
        Err(GameError::OtherGame { index, at, name }) => {
            assert_eq!(*index, 1);
            assert_eq!((at.line, at.col), (2, 1));
            assert_eq!(name, "Xiangqi");
        }
        other => panic!("read as chess: {other:?}"),
    }
    let msg = games[0].as_ref().unwrap_err().to_string();
    assert!(msg.contains("[Game \"Xiangqi\"]"), "{msg}");
    let next = games[1].as_ref().expect("the next game is read");
    assert_eq!(next.moves.moves.len(), 2);
}

#[test]
fn checking_refuses_it_too() {
    let mut r = PgnReader::new(TAGGED_XIANGQI.as_bytes());
    let mut b = GameBuilder::check_only();
    let first = r.read_game(&mut b).unwrap().unwrap();
    assert!(
        matches!(first, Err(GameError::OtherGame { .. })),
        "{first:?}"
    );
    let second = r.read_game(&mut b).unwrap().unwrap();
    assert!(second.is_ok(), "{second:?}");
}

#[test]
fn replayer_refuses_it_without_playing_a_move() {
    let mut r = PgnReader::new(TAGGED_XIANGQI.as_bytes());
    let mut v = Replayer::default();
    let g = r.read_game(&mut v).unwrap().unwrap();
    assert_eq!(g.plies, 0);
    match g.error {
        Some(ReplayError::OtherGame { at, ref name }) => {
            assert_eq!((at.line, at.col), (2, 1));
            assert_eq!(name, "Xiangqi");
        }
        ref other => panic!("read as chess: {other:?}"),
    }
    let g2 = r.read_game(&mut v).unwrap().unwrap();
    assert!(g2.error.is_none());
    assert_eq!(g2.plies, 2);
}

#[test]
fn a_non_chess_variant_is_refused_on_every_path() {
    let pgn = "[Variant \"Xiangqi\"]\n\n1. e4 e5 *\n";
    assert!(matches!(
        Games::new(pgn.as_bytes()).next().unwrap(),
        Err(GameError::UnsupportedVariant { .. })
    ));
    let mut b = GameBuilder::check_only();
    let checked = PgnReader::new(pgn.as_bytes()).read_game(&mut b).unwrap();
    assert!(matches!(
        checked,
        Some(Err(GameError::UnsupportedVariant { .. }))
    ));
    let mut v = Replayer::default();
    let replayed = PgnReader::new(pgn.as_bytes())
        .read_game(&mut v)
        .unwrap()
        .unwrap();
    assert!(matches!(
        replayed.error,
        Some(ReplayError::UnsupportedVariant { .. })
    ));
}

#[test]
fn chess_names_in_the_game_tag_are_chess() {
    for name in [
        "Chess",
        "chess",
        "",
        "?",
        "Chess960",
        "Western chess",
        " Standard ",
    ] {
        assert!(Variant::from_game_tag(name).is_ok(), "{name:?}");
        let pgn = format!("[Game \"{name}\"]\n\n1. e4 e5 *\n");
        let g = Games::new(pgn.as_bytes()).next().unwrap();
        assert!(g.is_ok(), "{name:?}: {g:?}");
    }
    for name in [
        "Xiangqi",
        "Shogi",
        "Go",
        "Chinese Chess",
        "Crazyhouse",
        "C'escacs",
    ] {
        assert!(Variant::from_game_tag(name).is_err(), "{name:?}");
    }
}
