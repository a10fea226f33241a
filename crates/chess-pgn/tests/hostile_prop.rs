//! Issue 12: the writer escapes or reports what classic PGN cannot hold, so reading
//! what it wrote gives back the same game. Tag names and values and comments are
//! drawn from an alphabet of everything that can hurt (`"`, `\`, `}`, `{`, `;`, `%`,
//! `[`, `]`, line breaks, tabs, C0 controls, BOM, non-ASCII, result-like words); the
//! game read back must equal the game written, up to exactly the normalisations the
//! writer reported as warnings.

mod random;

use chess_pgn::{After, Game, Games, Notation, WriteOptions, WriteWarning, to_pgn_with};
use proptest::prelude::*;
use random::{Spec, generate};

const ALPHABET: &[&str] = &[
    "a",
    "Z",
    " ",
    "  ",
    "\"",
    "\\",
    "}",
    "{",
    ";",
    "%",
    "[",
    "]",
    "(",
    ")",
    "\n",
    "\r\n",
    "\t",
    "\u{0}",
    "\u{1}",
    "\u{b}",
    "\u{1b}",
    "\u{7f}",
    "\u{feff}",
    "é",
    "徐",
    "½",
    "1-0",
    "*",
    "$1",
    "[Event \"x\"]",
    "%clk",
    "e4",
    "O-O",
    "\\\"",
];

fn hostile() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..12).prop_map(|v| v.concat())
}

fn name() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(&["A", "b", "_", "9", "é", "\"", " ", "]", "{", "."][..]),
        1..6,
    )
    .prop_map(|v| format!("X{}", v.concat()))
}

/// The reader's view of a comment: whitespace runs as one space, no edge spaces.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn normalise_line(line: &mut chess_pgn::Line) {
    for c in &mut line.comments {
        *c = flat(c);
    }
    for m in &mut line.moves {
        for a in &mut m.after {
            match a {
                After::Comment(c) => *c = flat(c),
                After::Variation(v) => normalise_line(v),
            }
        }
    }
}

/// The game as it must read back: what the writer's warnings announce, applied.
fn expected(g: &Game, warnings: &[WriteWarning]) -> Game {
    let mut e = g.clone();
    for (n, v) in &mut e.tags {
        if let Some(WriteWarning::TagName { written, .. }) = warnings
            .iter()
            .find(|w| matches!(w, WriteWarning::TagName { name, .. } if name == n))
        {
            *n = written.clone();
        }
        *v = v.replace(['\t', '\n', '\r', '\u{b}', '\u{c}'], " ");
    }
    normalise_line(&mut e.moves);
    for c in &mut e.final_comments {
        *c = flat(c);
    }
    e
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: test_support::proptest_cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_tags_and_comments_round_trip(
        seed in any::<u64>(),
        plies in 0usize..30,
        tags in prop::collection::vec((name(), hostile()), 0..4),
        roster in hostile(),
        comments in prop::collection::vec(hostile(), 0..6),
        notation in prop::sample::select(&[Notation::San, Notation::Lan, Notation::Uci][..]),
    ) {
        let mut g = generate(Spec { seed, chess960: false, prefix: 0, plies, decorate: false });
        g.tags.push(("White".into(), roster));
        let mut seen = std::collections::HashSet::new();
        for (n, v) in tags {
            // Distinct names, after the writer's respelling too (a duplicate would be
            // read as XDuplicate…, which is the reader's business, not the writer's).
            let spelled: String = n.chars().map(|c| if "\" ]{.".contains(c) { '_' } else { c }).collect();
            if seen.insert(spelled) {
                g.tags.push((n, v));
            }
        }
        let mut cs = comments.into_iter();
        if let Some(c) = cs.next() {
            g.moves.comments.push(c);
        }
        for m in &mut g.moves.moves {
            if let Some(c) = cs.next() {
                m.after.push(After::Comment(c));
            }
        }
        g.final_comments.extend(cs);
        let opts = WriteOptions { notation, ..WriteOptions::default() };
        let written = to_pgn_with(&g, &opts);
        let text = &written.text;
        let games: Vec<_> = Games::new(text.as_bytes()).collect();
        prop_assert_eq!(games.len(), 1, "{}", text);
        let back = games[0].as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert!(back.errors().next().is_none(), "{:?}\n{}", back.diagnostics, text);
        let want = expected(&g, &written.warnings);
        prop_assert!(
            back.same_content(&want),
            "{}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
            text, written.warnings, want.tags, back.tags, want.moves.comments, back.moves.comments
        );
        // A warning is given exactly when something had to change.
        let changed = !g.same_content(&want);
        let warned = written.warnings.iter().any(|w| !matches!(w, WriteWarning::LongLine { .. }));
        prop_assert_eq!(changed, warned, "{:?}", written.warnings);
        // No line starts with `%` (escape line) and every over-long line is reported.
        let limit = opts.max_line;
        let long = text.lines().filter(|l| l.chars().count() > limit && !l.starts_with('[')).count();
        let reported = written.warnings.iter().filter(|w| matches!(w, WriteWarning::LongLine { .. })).count();
        prop_assert_eq!(long, reported);
        prop_assert!(text.lines().all(|l| !l.starts_with('%')));
    }
}
