//! Writers against hostile strings (issue 12; a unit test since the `pgn_*` helpers it
//! holds to the reader are the writer's internals, not API): tag names and values, comments and NAGs
//! holding quotes, brackets, braces, line breaks, tag-looking lines, control characters.
//! PGN: reading what was written gives one game with exactly what `pgn_*` says is
//! written (the identity for every string PGN can hold). XML: the document is
//! well-formed (checked by roxmltree, an independent parser) and its elements give back
//! every tag, comment and move.

use crate::writer::{
    pgn_changes, pgn_comment, pgn_nag_writable, pgn_tag_name, pgn_tag_value, xml_unescape,
};
use crate::{Game, MoveStyle, Notation, canonical_tags, read_str, write_game, write_xml};
use proptest::prelude::*;
use xiangqi::Position;

/// Pieces of text that break naive writers.
const NASTY: [&str; 24] = [
    "\"",
    "\\",
    "]",
    "[",
    "}",
    "{",
    "(",
    ")",
    ";",
    "%",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    "\n[Event \"x\"]\n",
    "\"]\n\n1. h2e2 *",
    "\u{1}",
    "\u{0}",
    "\t",
    "<",
    "&",
    "炮二平五",
    " ",
    "1-0",
];

fn hostile() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            3 => prop::sample::select(NASTY.to_vec()).prop_map(str::to_string),
            2 => "[a-zA-Z0-9 ]{0,6}",
            1 => any::<String>().prop_map(|s| s.chars().take(4).collect::<String>()),
        ],
        0..8,
    )
    .prop_map(|v| v.concat())
}

fn game_with(tags: &[(String, String)], comments: &[String], nags: &[String]) -> Game {
    let mut g = Game::new(Position::initial());
    for (n, v) in tags {
        g.tags.push((n.clone(), v.clone()));
    }
    for m in ["h2e2", "h9g7", "h0g2"] {
        g.push_iccs(m).expect("legal");
    }
    g.line.leading_comments.push(comments[0].clone());
    g.line.moves[0].comments = comments[1..].to_vec();
    g.line.moves[1].nags = nags.to_vec();
    let mut var = Game::new(Position::initial());
    var.push_iccs("b2e2").expect("legal");
    var.line.moves[0]
        .comments
        .push(comments[comments.len() - 1].clone());
    g.line.moves[0].variations.push(var.line);
    g.result = "1-0".into();
    g
}

fn strategy() -> impl Strategy<Value = Game> {
    (
        prop::collection::vec((hostile(), hostile()), 0..4),
        prop::collection::vec(hostile(), 2..5),
        prop::collection::vec(
            prop_oneof![Just("$1".to_string()), Just("!?".to_string()), hostile()],
            0..3,
        ),
    )
        .prop_map(|(tags, comments, nags)| {
            // Tag names must be unique for the comparison (a reader keeps duplicates,
            // the canonical tag list does not).
            let mut seen = std::collections::HashSet::new();
            let tags: Vec<_> = tags
                .into_iter()
                .map(|(n, v)| (format!("X{n}"), v))
                .filter(|(n, _)| seen.insert(pgn_tag_name(n).to_lowercase()))
                .collect();
            game_with(&tags, &comments, &nags)
        })
}

fn all_comments(line: &crate::Line, out: &mut Vec<String>) {
    out.extend(line.leading_comments.iter().cloned());
    for m in &line.moves {
        out.extend(m.comments.iter().cloned());
        for v in &m.variations {
            all_comments(v, out);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(test_support::proptest_cases()))]

    #[test]
    fn pgn_writer_output_reads_back_as_written(g in strategy()) {
        let style = MoveStyle::canonical(Notation::Iccs);
        let text = write_game(&g, &style);
        // Twice in a row: still two games (nothing in a game can start another).
        let doubled = format!("{text}{text}");
        let back = read_str(&doubled, "w");
        prop_assert_eq!(back.games.len(), 2, "{}", text);
        let h = &back.games[0];
        prop_assert!(h.is_ok(), "{:?}\n{}", h.error, text);
        prop_assert_eq!(h.game.moves().collect::<Vec<_>>(), g.moves().collect::<Vec<_>>());
        let want: Vec<(String, String)> = canonical_tags(&g, &style)
            .into_iter()
            .map(|(n, v)| (pgn_tag_name(&n).into_owned(), pgn_tag_value(&v).into_owned()))
            .collect();
        prop_assert_eq!(&h.game.tags, &want, "{}", text);
        let (mut got, mut orig) = (Vec::new(), Vec::new());
        all_comments(&h.game.line, &mut got);
        all_comments(&g.line, &mut orig);
        let orig: Vec<String> = orig.iter().map(|c| pgn_comment(c).into_owned()).collect();
        prop_assert_eq!(got, orig, "{}", text);
        let nags: Vec<String> = g.line.moves[1].nags.iter().filter(|n| pgn_nag_writable(n)).cloned().collect();
        prop_assert_eq!(&h.game.line.moves[1].nags, &nags);
        prop_assert_eq!(h.game.line.moves[0].variations.len(), 1);
        // What was read is written identically, and nothing more changes.
        prop_assert_eq!(write_game(&h.game, &style), text);
        prop_assert!(pgn_changes(&h.game).is_empty(), "{:?}", pgn_changes(&h.game));
    }

    #[test]
    fn xml_writer_output_is_well_formed_and_complete(g in strategy()) {
        let style = MoveStyle::canonical(Notation::Iccs);
        let xml = write_xml([&g], &style);
        let doc = roxmltree::Document::parse(&xml);
        prop_assert!(doc.is_ok(), "{:?}\n{}", doc.err(), xml);
        let doc = doc.unwrap();
        let pgn = doc.root_element();
        prop_assert_eq!(pgn.tag_name().name(), "pgn");
        let text = |n: roxmltree::Node| {
            let t = n.text().unwrap_or("").to_string();
            if n.attribute("escaped") == Some("1") { xml_unescape(&t) } else { t }
        };
        let mut tags = Vec::new();
        let mut moves = 0;
        let mut ends = 0;
        let mut comments = Vec::new();
        for e in pgn.children().filter(|n| n.is_element()) {
            match e.tag_name().name() {
                "move" => moves += 1,
                "end" => ends += 1,
                "nag" | "variation" => {}
                "comment" => comments.push(text(e)),
                "tag" => {
                    let raw = e.attribute("name").unwrap_or("").to_string();
                    let name = if e.attribute("escaped") == Some("1") { xml_unescape(&raw) } else { raw };
                    tags.push((name.to_lowercase(), text(e)));
                }
                other => tags.push((other.to_string(), text(e))),
            }
        }
        prop_assert_eq!(moves, 3);
        prop_assert_eq!(ends, 1);
        let want: Vec<(String, String)> = canonical_tags(&g, &style)
            .into_iter()
            .map(|(n, v)| (n.to_lowercase(), v))
            .collect();
        prop_assert_eq!(tags, want);
        let mut orig = g.line.leading_comments.clone();
        orig.extend(g.line.moves[0].comments.iter().cloned());
        prop_assert_eq!(comments, orig);
    }
}

#[test]
fn tags_named_like_the_xml_elements_are_not_taken_for_them() {
    let mut g = Game::new(Position::initial());
    g.tags.push(("Move".into(), "h2e2".into()));
    g.tags.push(("End".into(), "1-0".into()));
    g.tags.push(("Note".into(), "bell\u{7}".into()));
    let xml = write_xml([&g], &MoveStyle::canonical(Notation::Iccs));
    assert!(xml.contains("<tag name=\"Move\">h2e2</tag>"), "{xml}");
    assert!(xml.contains("<tag name=\"End\">1-0</tag>"), "{xml}");
    assert!(
        xml.contains("<note escaped=\"1\">bell\\u{7}</note>"),
        "{xml}"
    );
    assert!(roxmltree::Document::parse(&xml).is_ok());
}

#[test]
fn a_tag_value_cannot_inject_a_game() {
    let mut g = Game::new(Position::initial());
    g.tags
        .push(("Event".into(), "\"]\n\n1. h2e2 *\n\n[Event \"evil".into()));
    g.push_iccs("h2e2");
    let text = write_game(&g, &MoveStyle::canonical(Notation::Iccs));
    let r = read_str(&text, "x");
    assert_eq!(r.games.len(), 1, "{text}");
    assert_eq!(
        r.games[0].game.tag("Event"),
        Some("\"]  1. h2e2 *  [Event \"evil")
    );
    assert_eq!(pgn_changes(&g).len(), 1);
}
