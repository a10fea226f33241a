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
    d.declined_games(common::SET_UP_GAMES);
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
