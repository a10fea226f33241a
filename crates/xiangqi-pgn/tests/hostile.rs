//! Hostile inputs (issues 12 and 13): game splitting that recovers, the per-game cap,
//! nesting limits, and the small sizes of the scaling families (the large sizes run in
//! `cargo run --release -p xiangqi-pgn --example xiangqi_scaling`).

use xiangqi_pgn::{
    ReadError, ReadOptions, TextEncoding, detect, encode, games, read_bytes, read_bytes_with,
    read_headers, read_str, read_str_with,
};

fn game(n: usize) -> String {
    format!("[Event \"g{n}\"]\n[Result \"*\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n")
}

#[test]
fn two_games_without_a_blank_line_are_two_games() {
    let text = "[Event \"a\"]\n1. h2e2 h9g7 *\n[Event \"b\"]\n1. b2e2 *\n";
    let r = read_str(text, "t");
    assert_eq!(r.games.len(), 2);
    assert!(r.games.iter().all(|g| g.is_ok()));
    assert_eq!(r.games[1].game.tag("Event"), Some("b"));
}

#[test]
fn a_result_followed_by_the_next_games_moves_or_tags_ends_the_game() {
    for text in [
        "1. h2e2 h9g7 *\n1. b2e2 b9c7 *\n",
        "1. h2e2 h9g7 * 1. b2e2 b9c7 *",
        "h2e2 h9g7 1-0\nb2e2 b9c7 0-1\n",
        "1. h2e2 h9g7 1-0 [Event \"b\"]\n1. b2e2 b9c7 0-1\n",
    ] {
        let r = read_str(text, "t");
        assert_eq!(r.games.len(), 2, "{text:?}");
        assert!(r.games.iter().all(|g| g.is_ok()), "{text:?}");
        assert_eq!(r.games[1].game.line.moves.len(), 2, "{text:?}");
    }
}

#[test]
fn a_later_move_number_after_a_result_is_junk_of_that_game() {
    let r = read_str("1. h2e2 h9g7 1-0 2. h0g2\n\n1. b2e2 *\n", "t");
    assert_eq!(r.games.len(), 2);
    assert!(
        r.games[0]
            .warnings
            .iter()
            .any(|w| w.message.contains("junk after the result skipped: \"2.\""))
    );
}

#[test]
fn junk_after_a_result_is_still_skipped_with_a_warning() {
    let r = read_str(
        "1. h2e2 * ===== www.example.com\n\n[Event \"b\"]\n1. b2e2 *\n",
        "t",
    );
    assert_eq!(r.games.len(), 2);
    assert!(
        r.games[0]
            .warnings
            .iter()
            .any(|w| w.message.contains("junk"))
    );
}

#[test]
fn an_unclosed_comment_does_not_swallow_the_following_games() {
    // 232 games; game 5 holds a `{` that is never closed.
    let mut text = String::new();
    for i in 1..=232 {
        if i == 5 {
            text.push_str("[Event \"g5\"]\n\n1. h2e2 {oops h9g7 2. h0g2 *\n\n");
        } else {
            text.push_str(&game(i));
        }
    }
    let r = read_str(&text, "big.pgn");
    assert_eq!(r.games.len(), 232);
    assert_eq!(r.ok_count(), 231);
    let bad = &r.games[4];
    match bad.error.as_ref().expect("game 5 is reported") {
        ReadError::Syntax {
            game,
            line,
            col,
            expected,
            ..
        } => {
            assert_eq!(*game, 5);
            assert_eq!((*line, *col), (4 * 5 + 3, 9));
            assert!(expected.contains('}'), "{expected}");
        }
        e => panic!("{e}"),
    }
    assert_eq!(r.games[5].game.tag("Event"), Some("g6"));
}

#[test]
fn an_unclosed_variation_ends_at_the_next_game() {
    let text = "1. h2e2 (1. b2e2 h9g7 *\n1. c3c4 *\n";
    let r = read_str(text, "t");
    assert_eq!(r.games.len(), 2);
    assert!(
        r.games[0]
            .warnings
            .iter()
            .any(|w| w.message.contains("not closed"))
    );
    let text = "[Event \"a\"]\n1. h2e2 (b2e2 h9g7\n[Event \"b\"]\n1. c3c4 *\n";
    assert_eq!(read_str(text, "t").games.len(), 2);
}

#[test]
fn a_game_over_the_cap_is_a_located_error_and_the_next_game_goes_on() {
    let opts = ReadOptions {
        max_game_bytes: 200,
        ..ReadOptions::default()
    };
    let long = format!("[Event \"long\"]\n\n1. h2e2 {{{}}} *\n\n", "x".repeat(500));
    let text = format!("{}{long}{}", game(1), game(3));
    let r = read_str_with(&text, "cap.pgn", &opts);
    assert_eq!(r.games.len(), 3);
    assert!(r.games[0].is_ok() && r.games[2].is_ok());
    let e = r.games[1].error.as_ref().expect("over the cap").to_string();
    assert!(e.contains("cap.pgn: game 2, 8:9:"), "{e}");
    assert!(e.contains("at most 200 bytes"), "{e}");
}

#[test]
fn endless_input_without_a_game_boundary_is_an_error_not_a_memory_explosion() {
    let opts = ReadOptions {
        max_game_bytes: 10_000,
        ..ReadOptions::default()
    };
    for text in [
        "\0".repeat(50_000),
        "h2e2 ".repeat(10_000),
        "(".repeat(50_000),
    ] {
        let r = read_str_with(&text, "z", &opts);
        assert!(
            r.games
                .iter()
                .all(|g| g.error.is_some() || g.game.line.moves.len() < 5000)
        );
    }
}

#[test]
fn deep_nesting_is_skipped_past_the_limit() {
    let text = format!(
        "1. h2e2 {}h9g7{} h9g7 *",
        "(".repeat(20_000),
        ")".repeat(20_000)
    );
    let r = read_str(&text, "deep");
    assert!(r.games[0].is_ok());
    assert_eq!(r.games[0].game.line.moves.len(), 2);
}

#[test]
fn small_sizes_of_the_scaling_families_read() {
    // Each shape at ~20 KB: reading finishes, keeps the later game, and bounds what it
    // keeps (warnings are capped per game).
    let shapes = [
        format!("1. h2e2 {} h9g7 *\n", "{a}".repeat(7000)),
        format!("1. h2e2 {} *\n", "{}".repeat(10_000)),
        format!("1. h2e2 {{{}}} *\n", "x ".repeat(10_000)),
        format!("[Event \"{}\"]\n\n1. h2e2 *\n", "x".repeat(20_000)),
        "[Event \"xxxxxxxx\n".repeat(1200),
        format!("[FEN \"{}\"]\n\n1. h2e2 *\n", "r/".repeat(10_000)),
        format!("1. {} *\n", "h".repeat(20_000)),
        format!("{} 1. h2e2 *\n", "$1 ".repeat(7000)),
        "1. h2e2 h9g7 *\n".repeat(1300),
    ];
    for s in &shapes {
        let text = format!("{s}\n{}", game(99));
        let r = read_str(&text, "shape");
        let last = r.games.last().expect("the trailing game");
        assert_eq!(
            last.game.tag("Event"),
            Some("g99"),
            "{}",
            &s[..40.min(s.len())]
        );
        assert!(last.is_ok());
        for g in &r.games {
            assert!(g.warnings.len() <= xiangqi_pgn::MAX_WARNINGS_PER_GAME + 1);
        }
    }
}

#[test]
fn headers_only_reading_matches_full_reading() {
    let mut text = String::new();
    for i in 1..=20 {
        text.push_str(&game(i));
    }
    text.push_str("[White \"w\"]\n[Result \"红胜\"]\n\n1. h2e2 *\n");
    let full = read_str(&text, "h");
    let heads: Vec<_> = read_headers(&text, "h").collect();
    assert_eq!(heads.len(), full.games.len());
    for (h, g) in heads.iter().zip(&full.games) {
        assert_eq!(h.index, g.index);
        assert_eq!(h.tags, g.game.tags);
    }
    assert_eq!(heads[20].tag("Red"), Some("w"));
    assert_eq!(heads[20].tag("Result"), Some("1-0"));
}

#[test]
fn games_iterator_streams_the_same_games() {
    let text: String = (1..=5).map(game).collect();
    let n = games(&text, "s").filter(|g| g.is_ok()).count();
    assert_eq!(n, 5);
}

// A Big5 file whose Chinese text holds no piece characters (moves in ICCS, names and
// events in traditional Chinese).
const BIG5_TAGS: &str = "[Game \"Chinese Chess\"]\n[Event \"全國象棋個人賽\"]\n\
[Site \"臺北\"]\n[Red \"許銀川\"]\n[Black \"呂欽\"]\n[Result \"1-0\"]\n[Format \"ICCS\"]\n\n\
1. h2e2 h9g7 2. h0g2 i9h9 1-0\n";

#[test]
fn big5_without_piece_characters_is_detected_as_big5() {
    let bytes = encode(BIG5_TAGS, TextEncoding::Big5);
    let d = detect(&bytes);
    assert_eq!(d.encoding, TextEncoding::Big5, "{d:?}");
    let r = read_bytes(&bytes, "b5");
    assert_eq!(r.encoding, TextEncoding::Big5);
    assert_eq!(r.games[0].game.tag("Red"), Some("許銀川"));
    // GBK the other way round.
    let simplified = BIG5_TAGS
        .replace("全國象棋個人賽", "全国象棋个人赛")
        .replace("臺北", "北京")
        .replace("許銀川", "许银川")
        .replace("呂欽", "吕钦");
    let gbk = encode(&simplified, TextEncoding::Gb18030);
    assert_eq!(detect(&gbk).encoding, TextEncoding::Gb18030);
    assert_eq!(
        read_bytes(&gbk, "gb").games[0].game.tag("Red"),
        Some("许银川")
    );
}

#[test]
fn an_uncertain_guess_warns_and_an_explicit_encoding_wins() {
    // Two high bytes that decode in both encodings to nothing expected.
    let bytes = b"[Event \"\xa4\xa4\"]\n\n1. h2e2 *\n";
    let r = read_bytes(bytes, "u");
    assert!(detect(bytes).uncertain);
    assert!(r.warnings.iter().any(|w| w.message.contains("uncertain")));
    let forced = read_bytes_with(
        bytes,
        "u",
        &ReadOptions {
            encoding: Some(TextEncoding::Big5),
            ..ReadOptions::default()
        },
    );
    assert_eq!(forced.encoding, TextEncoding::Big5);
    assert_eq!(forced.games[0].game.tag("Event"), Some("中"));
    assert!(forced.warnings.is_empty());
    assert_eq!(TextEncoding::from_label("GBK"), Some(TextEncoding::Gb18030));
}

#[test]
fn big5_trail_bytes_that_look_like_braces_do_not_split_games() {
    // 徐 = AE 7D (`}`), 州 = A6 7B (`{`): the splitter works on decoded characters.
    let text = "[Event \"徐州\"]\n\n1. h2e2 {徐州} h9g7 *\n\n[Event \"州徐\"]\n\n1. b2e2 *\n";
    let bytes = encode(text, TextEncoding::Big5);
    let r = read_bytes(&bytes, "b5");
    assert_eq!(r.encoding, TextEncoding::Big5);
    assert_eq!(r.games.len(), 2);
    assert!(r.games.iter().all(|g| g.is_ok()));
    assert_eq!(r.games[0].game.line.moves[0].comments, ["徐州"]);
}
