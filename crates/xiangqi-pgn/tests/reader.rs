//! The xiangqi PGN reader on the checked-in test files: tags, move formats, encodings, damaged input.
use std::path::{Path, PathBuf};

use xiangqi::Position;
use xiangqi_pgn::{
    MoveStyle, Notation, ReadError, TextEncoding, read_bytes, read_path, read_str, write_game,
    write_xml,
};

fn testdata(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/xiangqi")
        .join(rel)
}

fn iccs_line(g: &xiangqi_pgn::Game) -> Vec<String> {
    g.moves().map(|m| m.to_iccs()).collect()
}

#[test]
fn four_encodings_give_identical_games() {
    let names = [
        ("xqdb5.utf8.pgn", TextEncoding::Utf8),
        ("xqdb5.utf8bom-crlf.pgn", TextEncoding::Utf8Bom),
        ("xqdb5.gb18030.pgn", TextEncoding::Gb18030),
        ("xqdb5.big5.pgn", TextEncoding::Big5),
    ];
    let reads: Vec<_> = names
        .iter()
        .map(|(n, enc)| {
            let r = read_path(&testdata(&format!("encodings/{n}"))).unwrap();
            assert_eq!(r.encoding, *enc, "{n}");
            r
        })
        .collect();
    let first = &reads[0];
    assert_eq!(first.games.len(), 5);
    assert!(first.games.iter().all(|g| g.is_ok()));
    assert!(
        first
            .games
            .iter()
            .map(|g| g.game.line.moves.len())
            .sum::<usize>()
            > 300
    );
    for r in &reads[1..] {
        assert_eq!(r.games.len(), first.games.len());
        for (a, b) in r.games.iter().zip(&first.games) {
            assert_eq!(a.game.tags, b.game.tags);
            assert_eq!(iccs_line(&a.game), iccs_line(&b.game));
            assert_eq!(a.error, b.error);
            let style = MoveStyle::canonical(Notation::Chinese);
            assert_eq!(write_game(&a.game, &style), write_game(&b.game, &style));
        }
    }
}

#[test]
fn gbk_files_with_junk_partial_fens_and_one_move_per_line() {
    let dir = testdata("real/walker8088-cchess");
    for f in [
        "test.pgn",
        "test2.pgn",
        "endgame_test.pgn",
        "zhongpao_dui_liepao_black_first.pgn",
    ] {
        let r = read_path(&dir.join(f)).unwrap();
        assert_eq!(r.encoding, TextEncoding::Gb18030, "{f}");
        assert_eq!(r.games.len(), 1, "{f}");
        let g = &r.games[0];
        assert!(g.is_ok(), "{f}: {:?}", g.error);
        assert!(g.game.line.moves.len() > 10, "{f}");
    }
    let t = read_path(&dir.join("test.pgn")).unwrap();
    let g = &t.games[0];
    assert_eq!(g.game.tag("Red"), Some("象棋巫师(大师)"));
    assert_eq!(g.game.line.moves.len(), 25);
    assert!(g.warnings.iter().any(|w| w.message.contains("junk")));
    // `w` with no counters in the FEN tag.
    let e = read_path(&dir.join("endgame_test.pgn")).unwrap();
    assert!(
        e.games[0]
            .warnings
            .iter()
            .any(|w| w.message.contains("MissingCounters"))
    );
}

#[test]
fn parallel_wukong_files_agree_except_the_known_data_error() {
    let dir = testdata("real/wukong-xiangqi");
    let uci = read_path(&dir.join("bulk_games_uci.pgn")).unwrap();
    let wxf = read_path(&dir.join("xqdb_international_wxf_fullwidth.pgn")).unwrap();
    let zh = read_path(&dir.join("xqdb_traditional_chinese.pgn")).unwrap();
    assert_eq!(uci.games.len(), 15);
    let mut diffs = Vec::new();
    for i in 0..15 {
        for other in [&wxf, &zh] {
            assert!(other.games[i].is_ok(), "{:?}", other.games[i].error);
            let (a, b) = (
                iccs_line(&uci.games[i].game),
                iccs_line(&other.games[i].game),
            );
            if let Some(p) = a.iter().zip(&b).position(|(x, y)| x != y) {
                diffs.push((i + 1, p, a[p].clone(), b[p].clone()));
            }
        }
    }
    // Spec §5.5: game 2, Red's 36th move: ICCS e5e6, both notation files e3e4.
    assert_eq!(
        diffs,
        vec![
            (2, 70, "e5e6".to_string(), "e3e4".to_string()),
            (2, 70, "e5e6".to_string(), "e3e4".to_string())
        ]
    );
}

#[test]
fn winboard_san_files_replay_to_the_end() {
    for n in 1..=3 {
        let r = read_path(&testdata(&format!(
            "real/wukong-xiangqi/winboard_san_{n}.pgn"
        )))
        .unwrap();
        let g = &r.games[0];
        assert!(g.is_ok(), "{:?}", g.error);
        assert_eq!(g.game.tag("Red"), Some("WukongJS 1.0 (UCI2WB)"));
        assert!(g.game.line.moves.len() > 40);
        assert!(
            g.game.line.moves[0]
                .comments
                .first()
                .is_some_and(|c| c.starts_with("+0,")),
            "{:?}",
            g.game.line.moves[0]
        );
    }
    let g = read_path(&testdata("real/wukong-xiangqi/winboard_san_1.pgn")).unwrap();
    // The game ends in a stalemate-like position adjudicated 1-0: Black has no move.
    let end = g.games[0].game.final_position();
    assert_eq!(end.winner(), Some(xiangqi::Side::Red));
}

#[test]
fn comments_variations_nags_and_black_first() {
    let text = "[Game \"Chinese Chess\"]\r\n[Result \"红胜\"]\r\n\r\n{start} 1. 炮二平五 {centre} 马８进７ $1 \
                (1... 炮8平5 2. 马二进三 (2. 兵七进一 !?) 马8进7) 2. 马二进三 车９平８ 1-0\r\n";
    let r = read_str(text, "inline");
    let g = &r.games[0];
    assert!(g.is_ok(), "{:?}", g.error);
    assert_eq!(g.game.result, "1-0");
    assert_eq!(g.game.tag("Result"), Some("1-0"));
    assert_eq!(g.game.tag("XResultText"), Some("红胜"));
    assert_eq!(g.game.line.leading_comments, vec!["start"]);
    let m = &g.game.line.moves;
    assert_eq!(m.len(), 4);
    assert_eq!(m[0].comments, vec!["centre"]);
    assert_eq!(m[1].nags, vec!["$1"]);
    assert_eq!(m[1].variations.len(), 1);
    let v = &m[1].variations[0];
    assert_eq!(v.moves.len(), 3);
    assert_eq!(v.moves[1].variations[0].moves[0].nags, vec!["!?"]);
    let out = write_game(&g.game, &MoveStyle::canonical(Notation::Chinese));
    assert!(out.starts_with(
        "[Game \"Chinese Chess\"]\n[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]"
    ));
    assert!(out.contains(
        "{start} 1. 炮二平五 {centre} 1... 马8进7 $1 (1... 炮8平5 2. 马二进三 (2. 兵七进一 !?) 2... 马8进7)\n2. 马二进三 车9平8 1-0\n"
    ), "{out}");
    // Reading what we wrote and writing again gives the same bytes.
    let again = read_str(&out, "again");
    assert_eq!(
        write_game(
            &again.games[0].game,
            &MoveStyle::canonical(Notation::Chinese)
        ),
        out
    );
    let xml = write_xml([&g.game], &MoveStyle::canonical(Notation::Wxf));
    assert!(xml.contains("<pgn>\n  <game>Chinese Chess</game>"));
    assert!(xml.contains("<move>C2.5</move>\n  <comment>centre</comment>"));
    assert!(xml.contains("<variation>\n    <move>C8.5</move>"));
    assert!(xml.contains("<end>1-0</end>\n</pgn>"));
}

#[test]
fn black_first_numbered_as_one_and_side_from_position() {
    // Big5 endgame habit: Black's first move numbered "1." with no ellipsis.
    let text = "[FEN \"5k3/9/9/9/9/9/9/9/4r4/3K5 b\"]\n1. 車５平６\n2. 帥六平五 車６進１ *\n";
    let g = &read_str(text, "b").games[0];
    assert!(g.is_ok(), "{:?}", g.error);
    assert_eq!(iccs_line(&g.game), vec!["e1f1", "d0e0", "f1f0"]);
    let out = write_game(&g.game, &MoveStyle::canonical(Notation::Iccs));
    assert!(
        out.contains("[FEN \"5k3/9/9/9/9/9/9/9/4r4/3K5 b\"]"),
        "{out}"
    );
    assert!(out.contains("\n1... e1f1 2. d0e0 f1f0 *\n"), "{out}");
}

#[test]
fn wrong_fen_side_is_flipped_when_the_text_says_so() {
    // The FEN says Red to move but the text is a Black-first game (digits = Black).
    // Read Red-first, every move would still parse (Red rook e2 is on Red's file 5 and
    // Arabic digits are tolerated for Red), giving a different game.
    let text =
        "[FEN \"5k3/9/9/9/9/9/9/4R4/4r4/3K5 w - - 0 1\"]\n1. 車５平６\n2. 帥六平五 車６進１ *\n";
    let g = &read_str(text, "flip").games[0];
    assert!(g.is_ok(), "{:?}", g.error);
    assert_eq!(iccs_line(&g.game), vec!["e1f1", "d0e0", "f1f0"]);
    assert!(
        g.warnings
            .iter()
            .any(|w| w.message.contains("side flipped"))
    );
    // A first move that fits no move of the stated side also flips it.
    let text = "[FEN \"5k3/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1\"]\n1. 車５平６\n2. 帥六平五 *\n";
    let g = &read_str(text, "flip2").games[0];
    assert!(g.is_ok(), "{:?}", g.error);
}

#[test]
fn coordinate_dialects_and_wxf_variants() {
    // Ranks 1..10 (Fairy-Stockfish): `h3e3` is ICCS h2e2; `e10` decides the dialect.
    let ff = read_str("1. h3e3 h10g8 2. h1g3 *", "ff");
    assert_eq!(iccs_line(&ff.games[0].game), vec!["h2e2", "h9g7", "h0g2"]);
    let iccs = read_str("[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. h0g2 *", "iccs");
    assert_eq!(iccs_line(&iccs.games[0].game), vec!["h2e2", "h9g7", "h0g2"]);
    // Full-width WXF with `＝`, marker before the letter, glued move numbers.
    let wxf = read_str(
        "1.Ｃ２＋２ Ｈ８＋７ 2.Ｃ８＝２ Ｒ９＝８ 3.＋Ｃ＋１ *",
        "wxf",
    );
    let g = &wxf.games[0];
    assert!(g.is_ok(), "{:?}", g.error);
    assert_eq!(
        iccs_line(&g.game),
        vec!["h2h4", "h9g7", "b2h2", "i9h9", "h4h5"]
    );
    assert_eq!(g.game.line.moves[4].source, "＋Ｃ＋１");
    let plain = read_str("1. C25 H8+7 *", "nodot");
    assert_eq!(iccs_line(&plain.games[0].game), vec!["h2e2", "h9g7"]);
}

#[test]
fn errors_are_located_and_later_games_continue() {
    let text = "[Event \"a\"]\n\n1. h2e2 h9g7\n2. h2h3 *\n\n[Event \"b\"]\n\n1. b2e2 *\n\n[Event \"c\"]\n[FEN \"bad\"]\n\n1. h2e2 *\n";
    let r = read_bytes(text.as_bytes(), "x.pgn");
    assert_eq!(r.games.len(), 3);
    match r.games[0].error.as_ref().unwrap() {
        ReadError::Move {
            file,
            game,
            line,
            col,
            ply,
            found,
            ..
        } => {
            assert_eq!(
                (file.as_str(), *game, *line, *col, *ply),
                ("x.pgn", 1, 4, 4, 2)
            );
            assert_eq!(found, "h2h3");
        }
        e => panic!("unexpected {e:?}"),
    }
    assert_eq!(r.games[0].game.line.moves.len(), 2);
    assert!(r.games[1].is_ok());
    assert!(matches!(
        r.games[2].error,
        Some(ReadError::Fen {
            game: 3,
            line: 11,
            ..
        })
    ));
    let msg = r.games[0].error.as_ref().unwrap().to_string();
    assert!(
        msg.starts_with("x.pgn: game 1, 4:4: ply 2: expected a legal move, found \"h2h3\""),
        "{msg}"
    );
}

#[test]
fn garbage_never_panics() {
    // A cheap deterministic fuzz: slices and byte mutations of real files.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let sources = [
        std::fs::read(testdata("real/walker8088-cchess/test2.pgn")).unwrap(),
        std::fs::read(testdata("encodings/xqdb5.big5.pgn")).unwrap(),
        std::fs::read(testdata("real/wukong-xiangqi/winboard_san_1.pgn")).unwrap(),
    ];
    for src in &sources {
        for _ in 0..150 {
            let mut b = src.clone();
            for _ in 0..(next() % 20) {
                let i = (next() as usize) % b.len();
                b[i] = next() as u8;
            }
            let cut = (next() as usize) % b.len();
            let r = read_bytes(&b[..cut], "fuzz");
            for g in &r.games {
                let _ = write_game(&g.game, &MoveStyle::canonical(Notation::Chinese));
            }
        }
    }
    for s in [
        "[",
        "{",
        "(",
        ")",
        "[A \"",
        "1.",
        "1...",
        "\u{3000}",
        "]]]",
        "炮二平",
        "1-0 1-0",
        "$",
    ] {
        let _ = read_str(s, "tiny");
    }
}

#[test]
fn setup_game_writes_fen_and_the_start_position_does_not() {
    let g = read_str("1. h2e2 *", "s").games.remove(0).game;
    assert_eq!(g.start, Position::initial());
    let out = write_game(&g, &MoveStyle::canonical(Notation::Wxf));
    assert!(!out.contains("[FEN"));
    assert!(out.contains("[Format \"WXF\"]\n\n1. C2.5 *\n"));
}

#[test]
fn result_tag_wins_over_a_disagreeing_token() {
    let r = read_str("[Result \"0-1\"]\n1. h2e2 1-0\n", "r");
    let g = &r.games[0];
    assert_eq!(g.game.result, "0-1");
    assert!(g.warnings.iter().any(|w| w.message.contains("disagrees")));
    let unknown = read_str("[Result \"*\"]\n1. h2e2 1-0\n", "u");
    assert_eq!(unknown.games[0].game.result, "1-0");
    let missing = read_str("[Result \"红先和\"]\n1. h2e2\n", "m");
    assert_eq!(missing.games[0].game.result, "1/2-1/2");
}

#[test]
fn junk_before_a_game_and_wrong_format_tag() {
    let text = "象棋谱大全 www.example\n\n[Format \"WXF\"]\n1. h2e2 h9g7 *\n";
    let r = read_str(text, "j");
    assert_eq!(r.games.len(), 1);
    assert!(r.warnings[0].message.contains("junk before a game"));
    let g = &r.games[0];
    assert!(g.is_ok());
    assert!(g.warnings.iter().any(|w| w.message.contains("contradicts")));
}

#[test]
fn annotate_ambiguous_two_file_ordinals() {
    // Red soldiers on files 7 (c5, c6) and 3 (g5, g6): "一兵" depends on the scan order.
    let fen = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1";
    let text = format!("[FEN \"{fen}\"]\n1. g6g7 *\n");
    let g = read_str(&text, "t").games.remove(0);
    let mut style = MoveStyle::canonical(Notation::Chinese);
    assert!(write_game(&g.game, &style).contains("1. 一兵进一 *"));
    style.annotate_ambiguous = true;
    assert!(write_game(&g.game, &style).contains("1. 一兵进一 {g6g7} *"));
}

#[test]
fn deep_nesting_is_bounded() {
    let text = format!(
        "1. h2e2 {}h9g7{} *",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let r = read_str(&text, "deep");
    assert!(r.games[0].is_ok());
    assert!(
        r.games[0]
            .warnings
            .iter()
            .any(|w| w.message.contains("too deeply"))
    );
}

#[test]
fn real_games_round_trip_through_every_notation() {
    let mut upper = MoveStyle::canonical(Notation::Iccs);
    upper.iccs_upper_dash = true;
    let mut trad = MoveStyle::canonical(Notation::Chinese);
    trad.traditional = true;
    trad.fullwidth_black_digits = true;
    let mut wxf_alt = MoveStyle::canonical(Notation::Wxf);
    wxf_alt.wxf_equals = true;
    wxf_alt.wxf_marker_first = true;
    let styles = [
        MoveStyle::canonical(Notation::Chinese),
        MoveStyle::canonical(Notation::Wxf),
        MoveStyle::canonical(Notation::Iccs),
        upper,
        trad,
        wxf_alt,
    ];
    let mut games = 0;
    for dir in ["real/walker8088-cchess", "real/wukong-xiangqi"] {
        let mut files: Vec<_> = std::fs::read_dir(testdata(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for f in files {
            let r = read_path(&f).unwrap();
            for g in &r.games {
                games += 1;
                for style in &styles {
                    let once = write_game(&g.game, style);
                    let back = read_str(&once, "written");
                    let h = &back.games[0];
                    assert!(
                        h.is_ok(),
                        "{} game {} {:?}: {:?}",
                        f.display(),
                        g.index,
                        style,
                        h.error
                    );
                    assert_eq!(iccs_line(&h.game), iccs_line(&g.game));
                    assert_eq!(
                        write_game(&h.game, style),
                        once,
                        "{} game {}",
                        f.display(),
                        g.index
                    );
                }
            }
        }
    }
    assert_eq!(games, 52);
}
