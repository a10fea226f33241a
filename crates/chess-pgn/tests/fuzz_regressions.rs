//! Inputs the fuzzer (`fuzz/`, target `chess_pgn`) found crashing, kept in
//! `testdata/fuzz-regressions/`: they must be read to an error, never panic.

use std::path::Path;

use chess_pgn::{Games, parse_fen};

fn regression(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/fuzz-regressions")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// X-FEN castling letters name the outermost rook; on a rank far longer than 8
/// squares that rook has no file letter (was `b'a' + file as u8`: an overflow panic).
#[test]
fn fen_castling_rook_beyond_file_h_is_an_error() {
    let games: Vec<_> =
        Games::new(&regression("chess_pgn-fen-castling-rook-beyond-h.pgn")[..]).collect();
    // Game 1 is tag-less garbage read with diagnostics; game 2 carries the bad FEN.
    let bad_fen = games
        .iter()
        .filter_map(|g| g.as_ref().err())
        .find(|e| e.to_string().contains("beyond file h"));
    assert!(bad_fen.is_some(), "{games:?}");

    let long = format!("k{}r/8/8/8/8/8/8/K6R b k - 0 1", "9".repeat(20));
    let err = parse_fen(&long).unwrap_err();
    assert!(err.contains("beyond file h"), "{err}");
    for fen in [
        format!("k{}r/8/8/8/8/8/8/K6R b kq - 0 1", "1".repeat(300)),
        format!("8/8/8/8/8/8/8/K{}R w K - 0 1", "9".repeat(40)),
    ] {
        assert!(parse_fen(&fen).is_err(), "{fen}");
    }
    // In range, X-FEN letters still become Shredder files.
    assert!(parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").is_ok());
}
