//! `convert --to pgn` of classic PGN writes most games without a game model
//! (`chess_pgn::export_pgn`): the differential test of that path against the model
//! path (read with `chess-pgn`'s model, written with `to_pgn_with`) on every game of
//! the test corpora and on games made to hit each case (`common`).

#[macro_use]
mod common;

use cescacs_convert::Format;
use common::Differential;

/// `chess_pgn::export_pgn` as a direct path of bytes.
fn export(pgn: &[u8], out: &mut Vec<u8>) -> bool {
    let mut text = String::new();
    let taken = chess_pgn::export_pgn(pgn, &mut text);
    out.extend_from_slice(text.as_bytes());
    taken
}

fn differential() -> Differential {
    Differential::new(Format::Pgn, export, |_| Ok(()))
}

corpus_tests!();

#[test]
fn each_case_of_the_direct_path_matches_the_model_path() {
    let d = differential();
    let head = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"W, a\"]\n[Black \"B \\\"b\\\" \\\\\"]\n[Result \"1-0\"]\n[ZTag \"z\"]\n[ATag \"a\"]\n";
    let cases: &[(&str, bool)] = &[
        // Taken: comments before and after moves, NAGs after comments, glyphs, clock
        // and eval commands, a termination comment, castling, en passant, promotion,
        // checks and mate, a comment holding `}` (a `;` comment), long comments.
        (
            "{start} {two  spaced\nwords} 1. e4 $1 {c1} {[%clk 1:00:00] [%eval 0.3]} d5! 2. exd5 c6 3. dxc6 Qb6 4. cxb7+ Qxb2 5. bxa8=Q Qxc1 6. Qxc1 e5 7. Nf3 Nf6 8. Be2 Bd6 9. O-O O-O 1-0 {final} {words}",
            true,
        ),
        ("1. e4 a6 2. e5 d5 3. exd6 Qxd6 1-0", true),
        ("1. e4 {c} $2 $3 e5 {[%clk 0:00:01.5]} 2. Nf3 {x} 1-0", true),
        ("1. e4 ; a } comment\n e5 2. Nf3 1-0", true),
        (
            "1. e4 {aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa %b [c} e5 1-0",
            true,
        ),
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", true),
        (
            "1. Nf3 Nf6 2. Nc3 Nc6 3. Nd5 Nd4 4. Ne5 Ne4 5. Nxe7 Nxe2 1-0",
            true,
        ),
        ("1-0", true),
        // Pawn moves and castling in import forms (a `P`, a from-square, no `x`, `:`,
        // a promotion without `=`, zeros), en passant both ways, an under-promotion
        // with check: each spelt in export form from the move alone.
        (
            "1. Pe4 e7e5 2. d2-d4 ed4 3. c4 d4:c3 4. Nf3 cxb2 5. Bd3 bxa1Q 6. 0-0 Qxa2 7. e5 d5 8. exd6 Nc6 9. d7+ Ke7 10. dxc8=N+ Rxc8 11. Ph4 1-0",
            true,
        ),
        // Declined: the result marker disagrees with the mate.
        ("1. f3 e5 2. g4 Qh4# 1-0", false),
    ];
    d.movetexts(head, cases);
    // Without a `Result` tag the value comes from the marker; without the roster its
    // defaults are written.
    for (pgn, taken) in [
        ("[White \"w\"]\n\n1. e4 e5 1/2-1/2\n", true),
        ("1. e4 e5 *\n", true),
        ("[Result \"1-0 \"]\n\n1. e4 e5 1-0\n", false),
    ] {
        d.game(pgn.as_bytes(), taken, pgn);
    }
    // A variant tag naming the standard game (lichess writes one on every game) is
    // kept as a tag; the model reads such games as chess and says nothing.
    for (pgn, taken) in [
        ("[Variant \"Standard\"]\n\n1. e4 e5 1-0\n", true),
        (
            "[Event \"x\"]\n[Variant \"standard\"]\n[ZTag \"z\"]\n\n1. e4 e5 1-0\n",
            true,
        ),
        (
            "[Variant \"Standard\"]\n[Variant \"Standard\"]\n\n1. e4 e5 1-0\n",
            false,
        ),
        ("[variant \"Standard\"]\n\n1. e4 e5 1-0\n", false),
        ("[Variant \"Crazyhouse\"]\n\n1. e4 e5 1-0\n", false),
    ] {
        d.game(pgn.as_bytes(), taken, pgn);
    }
    d.tag_limit();
    // Tags and comments not in UTF-8 (the model reader decodes them as Windows-1252).
    // So is a name ending in half a character whose value holds the other half (the
    // tags' bytes together are UTF-8, each alone is not).
    d.declined_games(&[
        b"[Event \"Caf\xe9\"]\n\n1. e4 1-0\n",
        b"[Ab\xc3 \"\xa9x\"]\n\n1. e4 1-0\n",
        b"[Ab \"x\xc3\"]\n[C\xa9 \"y\"]\n\n1. e4 1-0\n",
    ]);
    d.game(
        "[\u{c9}v\u{e9}nement \"Caf\u{e9} \\\"\u{fc}\\\"\"]\n[White \"\u{c9}\"]\n\n1. e4 1-0\n"
            .as_bytes(),
        true,
        "UTF-8 tags",
    );
    for (i, pgn) in common::SET_UP_GAMES.iter().enumerate() {
        d.game(pgn, true, &format!("set-up game {i}"));
    }
}

/// A set-up start (`FEN`, `SetUp`) and Chess960 are written directly: the start
/// position read as the model reads it, its `FEN` tag written again as the model
/// writer spells it (castling as the tag spelt it, else as the variant does; the
/// tag's halfmove clock), move numbers counted from it, castling with the rook's file.
#[test]
fn set_up_and_chess960_games_match_the_model_path() {
    let d = differential();
    d.set_up_games();
    // The `FEN` and `SetUp` tags count among the 64 tags read directly.
    for (tags, taken) in [(63, true), (64, false)] {
        let section: String = (0..tags).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
        let pgn = format!("{section}[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n");
        d.game(pgn.as_bytes(), taken, &format!("{tags} tags and a FEN"));
    }
}
