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
