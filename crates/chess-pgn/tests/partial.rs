//! Spec §6: a game that fails in the middle is kept up to the error; the rest is kept
//! as an `XUnparsed` comment and the error is reported with its location. The next
//! games are not affected.

use chess_pgn::{Games, Severity, to_pgn_string};

#[test]
fn stray_word_and_illegal_move_keep_the_valid_prefix() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 hello Nc6 3. Bb5 *\n\n\
               [Event \"b\"]\n\n1. d4 d5 2. c4\n e6 3. Ke3 Nf6 (3... c6) 4. Nc3 1-0\n\n\
               [Event \"c\"]\n\n1. e4 *\n";
    let games: Vec<_> = Games::new(pgn.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);

    let a = &games[0];
    let err = a.first_error().expect("error reported");
    assert_eq!(err.severity, Severity::Error);
    assert_eq!((err.at.line, err.at.col), (3, 17), "{err}");
    assert!(err.message.contains("hello"), "{err}");
    assert_eq!(a.moves.moves.len(), 3, "e4 e5 Nf3 kept");
    let out = to_pgn_string(a);
    assert!(
        out.ends_with("1. e4 e5 2. Nf3 {XUnparsed: hello Nc6 Bb5} *\n\n"),
        "{out}"
    );

    let b = &games[1];
    let err = b.first_error().unwrap();
    assert_eq!((err.at.line, err.at.col), (8, 8), "{err}");
    assert_eq!(err.message, "illegal move Ke3 in main line");
    assert_eq!(b.moves.moves.len(), 4);
    assert_eq!(b.outcome, chess_pgn::Outcome::WhiteWins);
    let out = to_pgn_string(b);
    assert!(
        out.contains("2. c4 e6 {XUnparsed: Ke3 Nf6 ( c6 ) Nc3} 1-0"),
        "{out}"
    );

    // The valid prefix written out reads back as that prefix, with no error (the
    // unparsed rest is a comment now), and the third game is whole.
    let back = Games::new(to_pgn_string(b).as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert!(back.errors().next().is_none());
    assert_eq!(back.moves.moves.len(), 4);
    assert!(games[2].errors().next().is_none());
    assert_eq!(games[2].moves.moves.len(), 1);
}

#[test]
fn error_inside_a_variation_keeps_main_line_and_variation_prefix() {
    let g = Games::new(&b"1. e4 e5 (1... c5 2. Nf3 Qxz9 3. d4) 2. Nf3 *"[..])
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(g.moves.moves.len(), 3, "main line whole");
    let err = g.first_error().unwrap();
    assert_eq!(err.at.col, 26, "{err}");
    let out = to_pgn_string(&g);
    assert!(
        out.contains("(1... c5 2. Nf3 {XUnparsed: Qxz9 d4})"),
        "{out}"
    );
}
