//! Reading, writing and round trips of the fixtures (and of shared/ when present).

mod common;

use ctl_pgn::*;
use std::path::Path;

/// read -> write -> read gives the canonical model, and writing is idempotent.
fn round_trip(path: &Path, src: &str, form: Form) -> usize {
    let name = path.display().to_string();
    let recs = read_str(&name, src);
    let mut n = 0;
    for rec in &recs {
        let Some(g) = &rec.game else { continue };
        let text = write_game(g, form);
        let back =
            read_game(&text).unwrap_or_else(|e| panic!("{name}: re-read failed: {e}\n{text}"));
        if form == Form::Canonical {
            assert_eq!(
                back,
                g.canonical(),
                "{name}: model changed by write/read\n{text}"
            );
        }
        let again = write_game(&back, form);
        assert_eq!(again, text, "{name}: write not idempotent");
        n += 1;
    }
    n
}

fn errors(recs: &[Record]) -> Vec<String> {
    recs.iter()
        .flat_map(|r| r.diagnostics.iter())
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect()
}

#[test]
fn fixtures_read_without_errors_and_round_trip() {
    let root = common::fixtures();
    let mut games = 0;
    for sub in ["real", "oracle", "spec"] {
        let files = common::files(&root.join(sub), ".ctl-pgn");
        assert!(!files.is_empty(), "no fixtures in {sub}");
        for f in files {
            let src = common::read(&f);
            let recs = read_str(&f.display().to_string(), &src);
            assert_eq!(errors(&recs), Vec::<String>::new(), "{}", f.display());
            for form in [Form::Canonical, Form::Minimal, Form::Fan] {
                games += round_trip(&f, &src, form);
            }
        }
    }
    assert!(games >= 3 * 50, "only {games} round trips");
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn shared_corpus_reads_and_round_trips() {
    let shared = common::shared();
    let mut n = 0;
    for dir in ["corpus/cescacs-real", "oracle/games"] {
        for f in common::files(&shared.join(dir), ".ctl-pgn") {
            let src = common::read(&f);
            let recs = read_str(&f.display().to_string(), &src);
            assert_eq!(errors(&recs), Vec::<String>::new());
            n += round_trip(&f, &src, Form::Canonical);
        }
    }
    assert_eq!(n, 4 + 330);
}

#[test]
fn features_fixture_keeps_everything() {
    let src = common::read(&common::fixtures().join("spec/features.ctl-pgn"));
    let g = read_game(&src).unwrap();
    assert_eq!(
        g.tags.iter().filter(|t| t.name == "Annotator").count(),
        2,
        "repeated Annotator kept"
    );
    let letters = g.letters().unwrap();
    assert_eq!(letters.letter(PieceKind::Bishop), 'A');
    assert_eq!(letters.letter(PieceKind::Rook), 'T');
    let moves: Vec<&MoveNode> = g.main_moves().collect();
    assert_eq!(moves.len(), 11);
    assert_eq!(moves[0].assessment, Some(Assessment::Dubious));
    assert_eq!(
        moves[0].token.to_standard(),
        "E7-E13",
        "U+2010 hyphen normalised"
    );
    assert!(moves[7].draw_offer);
    let last = moves[10];
    assert_eq!(last.token.to_standard(), "JF6×G9", "A@J mapped back to J");
    assert_eq!(last.token.render(&letters, Side::White), "AF6×G9");
    assert_eq!(
        (last.assessment, last.draw_offer, last.end_mark),
        (Some(Assessment::Blunder), true, true)
    );
    assert_eq!(g.result, Some(GameResult::Draw));
    assert_eq!(g.final_comments.len(), 1);
    // Variations: two alternatives to White's first move, the first with a nested one.
    let vars: Vec<&Variation> = g
        .main
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Variation(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(
        vars.iter().map(|v| v.label).collect::<Vec<_>>(),
        vec![Some(1), Some(2)]
    );
    let nested = vars[0]
        .line
        .items
        .iter()
        .find_map(|i| match i {
            Item::Variation(v) => Some(v),
            _ => None,
        })
        .unwrap();
    let first = nested.line.moves().next().unwrap();
    assert_eq!((first.number, first.side), (1, Side::Black));
    assert_eq!(first.assessment, Some(Assessment::Forced));
    // Comment kinds and references.
    let comments: Vec<&Comment> = g
        .main
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Comment(c) => Some(c),
            _ => None,
        })
        .collect();
    let kinds: Vec<CommentKind> = comments.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        vec![
            CommentKind::General,
            CommentKind::White,
            CommentKind::AutoWhite,
            CommentKind::Auto
        ]
    );
    let refs: Vec<&str> = comments[1]
        .references
        .iter()
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(refs, vec!["#1@W", "#.2$[1]@B", "~PE13", "$5"]);
}

#[test]
fn black_first_and_unknown_number() {
    let src = common::read(&common::fixtures().join("spec/black-first-unknown-number.ctl-pgn"));
    let g = read_game(&src).unwrap();
    let m: Vec<&MoveNode> = g.main_moves().collect();
    assert_eq!(
        (m[0].number, m[0].side, m[0].number_unknown),
        (1, Side::Black, true)
    );
    assert_eq!(
        (m[1].number, m[1].side, m[1].number_unknown),
        (2, Side::White, false)
    );
    assert!(write_game(&g, Form::Canonical).contains("1? …, E21-E15\n2. E7-E11, F20-F16 :\n*\n"));
}

#[test]
fn one_syntax_error_does_not_stop_the_other_games() {
    let src = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n*\n\n\
               [Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. F8-F12 F20-F16Q\n*\n\n\
               [Variant \"C'escacs\"]\n{ a comment\n[not a tag] inside }\n1. F8-F12, F20-F16\n*\n";
    let recs = read_str("three.ctl-pgn", src);
    assert_eq!(recs.len(), 3);
    assert!(recs[0].game.is_some() && recs[2].game.is_some());
    assert!(recs[1].game.is_none());
    let e = recs[1].diagnostics.iter().find(|d| d.is_error()).unwrap();
    // pest reports the furthest point it reached: after the piece letter `Q`, a cell.
    assert_eq!((e.game, e.line, e.col, e.code), (2, 7, 19, Code::Syntax));
    let text = e.to_string();
    assert!(
        text.starts_with("three.ctl-pgn:7:19: game 2: error: expected "),
        "{text}"
    );
    assert!(text.contains("a cell"), "{text}");
    assert!(text.ends_with("found end of line"), "{text}");
}

#[test]
fn structural_errors_are_located() {
    for (src, line, col, want) in [
        ("1. E7-E13, E21-E15)\n", 1, 19, "closing no variation"),
        ("1. E7-E13, E21-E15\n(1. F8-F12\n", 2, 1, "not closed"),
        ("1. E7-E13 …, E21-E15\n", 1, 11, "ellipsis"),
        ("1. AF4-D10\n", 1, 4, "needs a Redefine"),
        (
            "1. E7-E13 {open\n2. F8-F12\n",
            1,
            11,
            "closing this comment",
        ),
        ("1. E7-E31\n", 1, 8, "expected a cell"),
        (
            "[Variant \"C'escacs\"]\n[Redefine \"A@J\"]\n1. JF4-D10\n",
            3,
            4,
            "redefined",
        ),
    ] {
        let recs = read_str("t", src);
        let e = recs[0]
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .unwrap_or_else(|| panic!("no error for {src:?}"));
        assert_eq!((e.line, e.col), (line, col), "{e}");
        assert!(e.message.contains(want), "{e}");
    }
}

fn nested(depth: usize) -> String {
    let mut s = String::from("1. E7-E13, E21-E15\n");
    for _ in 0..depth {
        s.push_str("(1. F8-F12, F20-F16\n");
    }
    for _ in 0..depth {
        s.push(')');
    }
    s.push_str("\n*\n");
    s
}

#[test]
fn ten_thousand_nested_variations_are_rejected_without_overflow() {
    let recs = read_str("deep", &nested(10_000));
    let e = recs[0].diagnostics.iter().find(|d| d.is_error()).unwrap();
    assert_eq!(e.code, Code::TooDeep);
    assert!(e.message.contains(&MAX_VARIATION_DEPTH.to_string()));
}

#[test]
fn nesting_up_to_the_limit_is_read_and_round_trips() {
    let src = nested(MAX_VARIATION_DEPTH);
    let g = read_game(&src).unwrap();
    let text = write_game(&g, Form::Canonical);
    assert_eq!(read_game(&text).unwrap(), g.canonical());
    assert!(
        read_str("deep", &nested(MAX_VARIATION_DEPTH + 1))[0]
            .game
            .is_none()
    );
}

#[test]
fn tolerant_forms_are_normalised_with_notes() {
    let src = common::read(&common::fixtures().join("spec/site-one-line.ctl-pgn"));
    let recs = read_str("s", &src);
    let g = recs[0].game.as_ref().unwrap();
    assert_eq!(g.main_moves().count(), 8);
    assert_eq!(g.result, Some(GameResult::WhiteWins));
    let notes = recs[0]
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::Spelling)
        .count();
    assert_eq!(notes, 3, "`*`, `x` and `3 - 0`");
}

/// Cuts and splices of records: reader, replay and writer must never panic. (A
/// 20,000-input run with random character edits on top was also clean.)
#[test]
fn mangled_input_never_panics() {
    let mut corpus = String::new();
    for f in common::files(&common::fixtures().join("spec"), ".ctl-pgn") {
        corpus.push_str(&common::read(&f));
    }
    let chars: Vec<char> = corpus.chars().collect();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..400 {
        let a = next(chars.len());
        let b = (a + next(200)).min(chars.len());
        let c = next(chars.len());
        let d = (c + next(200)).min(chars.len());
        let s: String = chars[a..b].iter().chain(chars[c..d].iter()).collect();
        for rec in replay("m", &s, Options::default()) {
            if let Some(g) = rec.game {
                let _ = write_game(&g, Form::Fan);
            }
        }
        let _ = write("m", &s, Form::Canonical, Markers::Seed);
    }
}

/// The move examples of spec §7.2 and the annotation examples of §7.3, token by token.
#[test]
fn spec_section_7_tokens_parse() {
    let tokens = [
        "E7-E13",
        "EE5-E9",
        "JF6×G9",
        "EF12×NF14",
        "DE27×JE13",
        "F12@@G9",
        "G15@F14",
        "E25-E27=D",
        "F26-F28=&",
        "F28=R",
        "KRD-DE",
        "KRK-HIOO",
        "KRR-FEE",
        "GL5-H6#",
        "VF24-D26++",
    ];
    for t in tokens {
        let g = read_game(&format!("1. {t}\n")).unwrap_or_else(|e| panic!("{t}: {e}"));
        let m = g.main_moves().next().unwrap();
        let mut back = m.token.to_standard();
        if let Some(c) = m.check {
            back.push_str(c.as_str());
        }
        assert_eq!(back, t);
    }
    for (t, assessment, draw, end) in [
        ("E7-E13 ?!", Some(Assessment::Dubious), false, false),
        ("H6-H12 ?!(=):", Some(Assessment::Dubious), true, true),
        ("E7-E13 ◇(=):", Some(Assessment::Forced), true, true),
        ("G7-E13:", None, false, true),
    ] {
        let g = read_game(&format!("1. {t}\n")).unwrap_or_else(|e| panic!("{t}: {e}"));
        let m = g.main_moves().next().unwrap();
        assert_eq!(
            (m.assessment, m.draw_offer, m.end_mark),
            (assessment, draw, end),
            "{t}"
        );
    }
    // §7.4 numbering and §7.7 variations, with the seed's `x` capture (§9.10).
    let src = "1? …, RC25-D26\n2. VF10-H14, RD26-H22\n\
               ($[1] 2. …, GL5-H6+^ 3. KG1-H4, GH6xRI3 4. KH4×GI3)\n\
               (5. K4-K10, GL5-H6+^ 6. KG1-H4, GH6×RI3 7. KH4×GI3)\n";
    let g = read_game(src).unwrap();
    let vars: Vec<&Variation> = g
        .main
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Variation(v) => Some(v),
            _ => None,
        })
        .collect();
    assert_eq!(vars.len(), 2);
    let v1: Vec<String> = vars[0]
        .line
        .moves()
        .map(|m| m.token.to_standard())
        .collect();
    assert_eq!(v1, ["GL5-H6", "KG1-H4", "GH6×RI3", "KH4×GI3"]);
    assert_eq!(
        vars[1].line.moves().next().map(|m| (m.number, m.side)),
        Some((5, Side::White))
    );
}
