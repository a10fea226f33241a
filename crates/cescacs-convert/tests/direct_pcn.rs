//! `convert --to pcn` of classic PGN writes most games without a game model
//! (`pcn_convert::chess::write_pcn_from_pgn`): the differential test of that path
//! against the model path (read with `chess-pgn`'s model, `to_pcn`, `pcn::to_string`)
//! on every game of the test corpora and on games made to hit each case (`common`).

#[macro_use]
mod common;

use cescacs_convert::Format;
use common::Differential;

/// The document reads back.
fn read_back(document: &[u8]) -> Result<(), String> {
    pcn::from_slice(document)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn differential() -> Differential {
    Differential::new(
        Format::Pcn,
        pcn_convert::chess::write_pcn_from_pgn,
        read_back,
    )
}

corpus_tests!();

#[test]
fn each_case_of_the_direct_path_matches_the_model_path() {
    let d = differential();
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
    ];
    d.movetexts(head, cases);
    d.tag_limit();
    d.declined_games(&[]);
    for (i, pgn) in common::SET_UP_GAMES.iter().enumerate() {
        d.game(pgn, true, &format!("set-up game {i}"));
    }
    // A set-up start: the board, `...fen` (castling as the tag spelt it, else by
    // variant; none for the standard start), `...first_to_move`, the variant.
    for (pgn, taken) in [
        ("[Result \"*\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Variant \"fischerandom\"]\n\n1. d4 {+0.13/12 0.29s} d5 2. Bf4 Bf5 3. O-O-O {castles} O-O-O 4. Ne3 Ne6 *\n", true),
        ("[Variant \"Chess960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O O-O-O *\n", true),
        ("[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2\n", true),
        ("[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 41\"]\n[SetUp \"1\"]\n\n{before} 41... Kd7 {after} 42. O-O Kc6 *\n", true),
        ("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 120 60\"]\n\n60. Ra2 Kd8 61. Ra3 *\n", true),
        ("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n", true),
        ("[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n[SetUp \"0\"]\n\n1. Ra8+ Kd7 *\n", true),
        ("[SetUp \"1\"]\n\n1. e4 e5 1-0\n", false),
        ("[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0\"]\n\n1. Kd2 *\n", false),
        ("[FEN \"4k3/8/8/8/8/8/8/4K3\tw - - 0 1\"]\n\n1. Kd2 *\n", false),
        ("[fen \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n", false),
        ("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n1. Kd2 *\n", false),
    ] {
        d.game(pgn.as_bytes(), taken, pgn);
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
        d.game(pgn.as_bytes(), taken, pgn);
    }
}
