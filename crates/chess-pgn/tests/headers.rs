//! The headers-only path agrees with the full reader: same games, same tags, same
//! outcome markers, on the whole corpus and on games with hostile movetext.

use std::fs;

use chess_pgn::{Games, Headers, Outcome};

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn headers_equal_full_read_on_the_corpus() {
    let files =
        test_support::files_with_extension(&test_support::shared("corpus/classic-pgn-real"), "pgn");
    let mut n = 0;
    for path in files {
        let bytes = fs::read(&path).unwrap();
        let full: Vec<_> = Games::new(&bytes[..]).collect();
        let heads: Vec<_> = Headers::new(&bytes[..]).map(Result::unwrap).collect();
        assert_eq!(full.len(), heads.len(), "{}", path.display());
        for (g, h) in full.iter().zip(&heads) {
            let Ok(g) = g else { continue };
            assert_eq!(g.at, h.at);
            // The model spells roster names canonically and keeps FEN apart: compare
            // through the case-insensitive lookup.
            for (name, value) in &g.tags {
                if name.starts_with("XDuplicate") {
                    continue;
                }
                assert_eq!(
                    h.tag(name),
                    Some(value.as_str()),
                    "{} {name}",
                    path.display()
                );
            }
            n += 1;
        }
    }
    assert!(n > 500, "{n}");
}

#[test]
fn movetext_is_skipped_but_boundaries_hold() {
    let pgn = "[White \"A\"]\n1. e4 (1. d4 {x) ( ] } d5) Kxz9 junk $300 e5 1-0\n\
               [White \"B\"]\n1. e4 *\n1. d4 0-1\n";
    let h: Vec<_> = Headers::new(pgn.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(h.len(), 3);
    assert_eq!(h[0].tag("white"), Some("A"));
    assert_eq!(h[0].tags().collect::<Vec<_>>(), [("White", "A")]);
    assert_eq!(h[0].outcome, Some(Outcome::WhiteWins));
    assert_eq!((h[1].tag("White"), h[1].index), (Some("B"), 2));
    assert_eq!((h[2].len(), h[2].outcome), (0, Some(Outcome::BlackWins)));
    assert_eq!(Games::new(pgn.as_bytes()).count(), 3);
}

#[test]
fn a_reused_buffer_reads_each_game_as_a_fresh_one() {
    // Games one at a time, as `select` reads the tag sections a splitter cut, through
    // one buffer passed from reader to reader: what a longer game left in it must not
    // show in the next one, and a tag longer than the buffer must still be read whole.
    let long = "x".repeat(300);
    let games = [
        format!("[Event \"{long}\"]\n[White \"A\"]\n[Black \"B\"]\n\n"),
        "[White \"C\"]\n\n".to_string(),
        "[Event \"E\"]\r\n[White \"D\"]\r\n\r\n".to_string(),
        format!("[Site \"s\"]\n[Annotator \"{long}{long}\"]\n\n"),
        "[White \"F\"]\n".to_string(),
    ];
    let mut buffer = vec![b'['; 64];
    for game in &games {
        let fresh: Vec<_> = Headers::new(game.as_bytes()).map(Result::unwrap).collect();
        let mut reader = Headers::with_buffer(game.as_bytes(), buffer, game.len() + 1);
        let reused: Vec<_> = reader.by_ref().map(Result::unwrap).collect();
        buffer = reader.into_buffer();
        assert_eq!(reused, fresh, "{game:?}");
        assert_eq!(fresh.len(), 1, "{game:?}");
    }
    // The buffer grew to the largest game, never to the default 128 KiB.
    assert!(buffer.len() < 4096, "{}", buffer.len());
}

/// The tags the full reader keeps for the first game of `pgn` (`None` when it cannot
/// model it), with `FEN` and `SetUp` as the tag section writes them.
fn full_tags(pgn: &[u8]) -> Option<Vec<(String, String)>> {
    let g = Games::new(pgn).next()?.ok()?;
    let mut tags = g.tags.clone();
    let mut h = chess_pgn::GameHeaders::default();
    if h.read_first(pgn).ok()? {
        let set_up = |n: &str| n == "FEN" || n == "SetUp";
        tags.extend(
            h.tags()
                .filter(|(n, _)| set_up(n))
                .map(|(n, v)| (n.to_string(), v.to_string())),
        );
    }
    tags.sort();
    Some(tags)
}

fn plain_tags(pgn: &[u8]) -> Option<Vec<(String, String)>> {
    let mut h = chess_pgn::GameHeaders::default();
    if !h.read_plain(pgn) {
        return None;
    }
    let mut tags: Vec<_> = h
        .tags()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    tags.sort();
    Some(tags)
}

#[test]
fn the_plain_scan_takes_what_it_reads_as_the_full_reader_does() {
    let take = [
        "[Event \"a\"]\n[White \"b\"]\n\n1. e4 *\n",
        "[Event \"a\"]\r\n[White \"b\"]\r\n\r\n1. e4 *\r\n",
        "[Event \"a \\\"q\\\" b\\\\c\"] [White\"w\"]\t[ Black  \"x\" ]\n1. e4 *",
        "[Event \"Ren\u{e9}\"]\n\n*",
        "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kb1 *\n",
        "[Event \"a\"]\n\n1. e4 {c} [White \"w\"] e5 *\n",
        "[Event \"a\"]",
        "1. e4 e5 *\n",
        "[Event \"a\"]\n{c}\n[White \"w\"]\n\n1. e4 *\n",
        "{c} 1. e4 *",
        "[Event \"a\"]\n; c\n1. e4 *",
        "[Event \"a\"]\n(1. d4) 1. e4 *",
        "[Event \"a\"]\n$1 1. e4 *",
        "[Event \"a\"] ] 1. e4 *",
    ];
    for pgn in take {
        let plain = plain_tags(pgn.as_bytes());
        assert!(plain.is_some(), "{pgn:?}");
        assert_eq!(plain, full_tags(pgn.as_bytes()), "{pgn:?}");
    }
    // Not UTF-8: decoded as Windows-1252, as the full reader decodes it.
    let latin1 = b"[Event \"Ren\xe9 \x93x\x94\"]\n\n*";
    assert_eq!(
        plain_tags(latin1).unwrap(),
        [("Event".to_string(), "René \u{201c}x\u{201d}".to_string())]
    );
    assert_eq!(plain_tags(latin1), full_tags(latin1));
    // What the full reader gives a meaning of its own: left to it.
    let leave = [
        "[Event \"a\"]\n[Event \"b\"]\n\n1. e4 *\n",
        "[white \"a\"]\n\n1. e4 *\n",
        "[fen \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. Kb1 *\n",
        "[Event \"a\tb\"]\n\n1. e4 *\n",
        "[Event \"a\nb\"]\n\n1. e4 *\n",
        "[Event \"a\"]\n%x\n[White \"b\"]\n\n1. e4 *\n",
        "[Event \"a\\n\"]\n\n*",
        "[Event a]\n\n*",
        "[Event \"a\"\n\n*",
        "\u{feff}[Event \"a\"]\n\n*",
        "[Event \"a\"]\n\u{b}[White \"w\"]\n\n*",
    ];
    for pgn in leave {
        assert_eq!(plain_tags(pgn.as_bytes()), None, "{pgn:?}");
    }
}

#[test]
fn every_one_byte_change_is_read_as_the_full_reader_reads_it_or_left_to_it() {
    let base =
        b"[Event \"a \\\"b\\\"\"]\n[Site \"s\"]\r\n[White \"W\"] [Black \"B\"]\n\n1. e4 e5 *\n";
    let bytes = b"\"\\[] \t\r\n{};%(.$*-_aAwW1\x0b\x00\xe9\xff";
    let mut taken = 0;
    for at in 0..base.len() {
        for &b in bytes {
            let mut v = base.to_vec();
            v[at] = b;
            if let Some(plain) = plain_tags(&v) {
                taken += 1;
                if let Some(full) = full_tags(&v) {
                    assert_eq!(plain, full, "{:?}", String::from_utf8_lossy(&v));
                }
            }
        }
    }
    assert!(taken > base.len() * 4, "{taken}");
}

#[test]
fn a_tag_section_longer_than_the_checked_head_is_read_whole() {
    // Names and values past the head checked UTF-8 at once (2 KB), and past a byte
    // that is not UTF-8, are checked and decoded one by one.
    for odd in ["Réti", "R\u{e9}ti \\\"x\\\"", "plain"] {
        let mut pgn = String::new();
        for i in 0..120 {
            pgn.push_str(&format!("[Tag{i} \"value {i} {odd}\"]\n"));
        }
        pgn.push_str("\n1. e4 *\n");
        let mut bytes = pgn.into_bytes();
        let tags = plain_tags(&bytes).unwrap();
        assert_eq!(tags.len(), 120);
        assert_eq!(Some(tags), full_tags(&bytes));
        // A Windows-1252 byte early on.
        let e = bytes.iter().position(|&b| b == b'v').unwrap();
        bytes[e] = 0xe9;
        assert_eq!(plain_tags(&bytes), full_tags(&bytes));
        assert!(plain_tags(&bytes).unwrap()[0].1.starts_with("éalue"));
    }
}
