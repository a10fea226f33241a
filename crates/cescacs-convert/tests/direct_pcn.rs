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
        // Comments holding what JSON escapes, NAGs of one to three digits, many of them.
        (
            "1. e4 {a \"q\" \\ b\tc\u{1}} $1 $14 $140 {\u{e9}} e5 $255 1-0",
            true,
        ),
        ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", true),
        ("1-0", true),
        // Declined: a marker that contradicts the mate or the stalemate on the board
        // (the model reader warns); kept: one that agrees, or `*`.
        ("1. f3 e5 2. g4 Qh4# 1-0", false),
        (
            "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1-0",
            false,
        ),
    ];
    d.movetexts(head, cases);
    d.tag_limit();
    d.declined_games(&[]);
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

/// A set-up start (`FEN`, `SetUp`) and Chess960 are written directly: the start
/// position as the model reads it, `...fen` (castling as the tag spelt it, else as the
/// variant spells it; none for the standard start), `...first_to_move`, the variant in
/// `...pgn`, castling as the king's and the rook's shifts.
#[test]
fn set_up_and_chess960_games_match_the_model_path() {
    let d = differential();
    d.set_up_games();
    let cases: &[(&str, bool)] = &[
        // En passant and promotions (a capture, an underpromotion) from a set-up start.
        (
            "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n\n2. exd6 Kd7 *\n",
            true,
        ),
        (
            "[FEN \"1n2k3/P6P/8/8/8/8/8/4K3 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. axb8=N Kf7 2. h8=Q Kg6 1-0\n",
            true,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/p7/4K3 b - - 0 1\"]\n\n1... a1=R+ 2. Kd2 *\n",
            true,
        ),
        // Black first: comments, NAGs, a glyph, `%clk` and `%eval` on the first plies,
        // long castling with check, a termination comment.
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 b Q - 0 30\"]\n[Result \"1/2-1/2\"]\n\n{start} 30... Kd7 $6 {[%clk 0:01:00] [%eval -0.5]} 31. O-O-O+ $1 {castles} Kc7?! 1/2-1/2 {draw}\n",
            true,
        ),
        // Chess960 castling where the king stays on its square (long, king on c1) or
        // goes to its rook's (short, rook on g1), with both spellings of castling and
        // with the FEN's castling as Shredder or X-FEN letters.
        (
            "[Variant \"Chess960\"]\n[FEN \"r1k3r1/pppppppp/8/8/8/8/PPPPPPPP/R1K3R1 w AGag - 0 1\"]\n\n1. O-O-O 0-0-0 *\n",
            true,
        ),
        (
            "[Variant \"Chess960\"]\n[FEN \"r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w KQkq - 0 1\"]\n[Result \"*\"]\n\n1. 0-0 {[%eval 0.1]} O-O *\n",
            true,
        ),
        (
            "[Variant \"Chess960\"]\n[FEN \"rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1\"]\n\n1. O-O-O O-O-O 2. Kb1 Kb8 *\n",
            true,
        ),
        // Surrounding blanks in the value; the tags around the start kept.
        (
            "[Event \"e\"]\n[FEN \" 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 \"]\n[ZTag \"z\"]\n\n1. Kd1 *\n",
            true,
        ),
        // Declined: a variation, a null move, an illegal move, a castling right with no
        // rook, no FEN at all in the value, a side not to move in check, a FEN escaped
        // line.
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Kd2 (1. Kf2) Kd7 *\n",
            false,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Kd2 -- *\n",
            false,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Kd3 Kd7 *\n",
            false,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/4K3 w K - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
        ("[FEN \"\"]\n\n1. e4 *\n", false),
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 0 1\"]\n\n1... Kd7 *\n",
            true,
        ),
        (
            "[FEN \"4k3/4R3/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n",
            false,
        ),
        (
            "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n%escape\n\n1. Kd2 *\n",
            false,
        ),
    ];
    for (pgn, taken) in cases {
        d.game(pgn.as_bytes(), *taken, pgn);
    }
    // The `FEN` and `SetUp` tags are not kept as tags: 64 others are read directly.
    for (tags, taken) in [(64, true), (65, false)] {
        let section: String = (0..tags).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
        let pgn = format!(
            "{section}[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd2 *\n"
        );
        d.game(pgn.as_bytes(), taken, &format!("{tags} tags and a FEN"));
    }
}

/// Tag names and values, dates and comments off the direct path's plain-ASCII fast
/// paths (`not_plain_ascii`, the stack `started_at`, `chess_pgn::comment`'s): what JSON
/// escapes, non-ASCII (UTF-8 and Windows-1252 bytes), control characters, dates and
/// times of every other form. Whichever path takes each, the document is the model's.
#[test]
fn hostile_tags_dates_and_comments_match_the_model_path() {
    let d = differential();
    let values: &[&[u8]] = &[
        b"plain",
        b"q \\\"uote\\\"",
        b"back \\\\ slash",
        b"ctl \x01 \x1f del \x7f",
        "utf-8 é 炮 \u{2028}".as_bytes(),
        b"cp1252 \xe9 \x93x\x94",
        b"",
        b" padded ",
        b"a\tb",
    ];
    let mut taken = 0;
    let mut n = 0;
    for v in values {
        for name in [&b"White"[..], b"Black", b"Event", b"X\xe9", b"Annotator"] {
            let mut pgn = b"[".to_vec();
            pgn.extend_from_slice(name);
            pgn.extend_from_slice(b" \"");
            pgn.extend_from_slice(v);
            pgn.extend_from_slice(b"\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
            let what = String::from_utf8_lossy(&pgn).into_owned();
            taken += usize::from(d.same(&cescacs_convert::raw_game(&pgn), &what));
            n += 1;
        }
    }
    let dates = [
        ("Date", "2024.01.02"),
        ("Date", " 2024.01.02 "),
        ("Date", "\u{a0}2024.01.02"),
        ("Date", "2024.13.02"),
        ("Date", "2024.02.31"),
        ("Date", "2024.01.??"),
        ("UTCDate", "2024.01.02"),
    ];
    let times = [
        None,
        Some("10:20:30"),
        Some("24:00:00"),
        Some("10:60:00"),
        Some("1:2:3"),
    ];
    for (date_tag, date) in dates {
        for time in times {
            for time_tag in ["Time", "UTCTime"] {
                let mut pgn = format!("[{date_tag} \"{date}\"]\n");
                if let Some(t) = time {
                    pgn.push_str(&format!("[{time_tag} \"{t}\"]\n"));
                }
                pgn.push_str("[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
                taken += usize::from(d.same(&cescacs_convert::raw_game(pgn.as_bytes()), &pgn));
                n += 1;
            }
        }
    }
    for comment in [
        "one two",
        " lead",
        "trail ",
        "two  spaces",
        "tab\there",
        "line\nbreak",
        "\u{e9}t\u{e9}",
        "[%clk 0:01:02]",
        "50%",
        "",
    ] {
        let pgn = format!("[Result \"1-0\"]\n\n1. e4 {{{comment}}} e5 {{{comment}}} 1-0\n");
        taken += usize::from(d.same(&cescacs_convert::raw_game(pgn.as_bytes()), &pgn));
        n += 1;
    }
    // Most of them go the direct way (the rest: what the model reader reports).
    assert!(taken * 2 > n, "{taken} of {n} taken");
}
