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
    // Chess960 position of cutechess's games: X-FEN `KQkq` read as the outermost
    // rooks, short and long castling with the king beside or apart from the rook.
    let c960 = "[Event \"?\"]\n[Result \"*\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Variant \"fischerandom\"]\n\n";
    for (movetext, taken) in [
        (
            "1. d4 {+0.13/12 0.29s} d5 {-0.17/15 0.30s} 2. Bf4 Bf5 3. O-O-O {castles} O-O-O 4. Ne3 Ne6 *",
            true,
        ),
        ("1. Ne3 Ne6 2. O-O O-O 3. d4 d5 4. Bd2 Bd7 *", true),
        // Long castling before the squares are empty: illegal.
        ("1. O-O-O *", false),
    ] {
        let pgn = format!("{c960}{movetext}\n");
        d.game(pgn.as_bytes(), taken, &pgn);
    }
    for (pgn, taken) in [
        // Shredder-FEN castling kept; a Chess960 game with no `FEN` and the
        // standard array.
        (
            "[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2\n",
            true,
        ),
        (
            "[Variant \"Chess960\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2\n",
            true,
        ),
        // An inner rook named by its file in X-FEN; castling from a Chess960 FEN
        // whose castling field is `-`, and without a `Variant` tag (standard chess
        // from a set-up position, castling spelt X-FEN).
        (
            "[Variant \"Chess960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O O-O-O *\n",
            true,
        ),
        (
            "[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O 2. Rfe1 *\n",
            true,
        ),
        (
            "[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1\"]\n\n1. Kf1 Kd8 *\n",
            true,
        ),
        // Black to move, move 41; a comment before the first move; a halfmove clock
        // over the move generator's 100; EPD-like four fields; a four-digit move
        // number; the last `FEN` and `SetUp` of several.
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 41\"]\n[SetUp \"1\"]\n\n41... Kd7 42. O-O Kc6 *\n",
            true,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 41\"]\n\n{before} 41... Kd7 {after} 42. Kd2 Kc6 *\n",
            true,
        ),
        (
            "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 120 60\"]\n\n60. Ra2 Kd8 61. Ra3 *\n",
            true,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q -\"]\n\n1. O-O-O Ke7 *\n",
            true,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 0 999\"]\n\n999... Kd8 1000. Ra8+ Kc7 1001. Ra7+ *\n",
            true,
        ),
        (
            "[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n[SetUp \"0\"]\n[SetUp \"1\"]\n\n1. Ra8+ Kd7 *\n",
            true,
        ),
        // A standard start given as a `FEN` is still written with one.
        (
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Variant \"Standard\"]\n\n1. e4 e5 1-0\n",
            true,
        ),
        // Mate from a set-up start; a marker that contradicts it; an escaped `FEN`
        // value (a backslash, which no FEN reads).
        (
            "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n\n1. Ra8# 1-0\n",
            true,
        ),
        (
            "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n\n1. Ra8# 0-1\n",
            false,
        ),
        (
            "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\\\\\"]\n\n1. Ra8# 1-0\n",
            false,
        ),
        // Declined: `SetUp "1"` without a `FEN`, a `FEN` that does not read, a `FEN`
        // with a tab, a `FEN` name in another case, a move of the wrong side, 63 tags
        // and the `FEN` (past the 64 read directly), a variant not read.
        ("[SetUp \"1\"]\n\n1. e4 e5 1-0\n", false),
        ("[SetUp \" 1\u{a0}\"]\n\n1. e4 e5 1-0\n", false),
        ("[SetUp \"0\"]\n\n1. e4 e5 1-0\n", true),
        ("[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0\"]\n\n1. Kd2 *\n", false),
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K3\tw - - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
        (
            "[fen \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
        (
            "[Fen \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
        (
            "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[Variant \"Chess960\"]\n\n1. Kd2 *\n",
            false,
        ),
        (
            "[Variant \"Atomic\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
    ] {
        d.game(pgn.as_bytes(), taken, pgn);
    }
    for (tags, taken) in [(63, true), (64, false)] {
        let section: String = (0..tags).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
        let pgn = format!("{section}[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n");
        d.game(pgn.as_bytes(), taken, &format!("{tags} tags and a FEN"));
    }
}
