//! Writer escaping (issue 12): tag values and comments holding what CTL-PGN cannot
//! hold (`}`, line breaks, `"]`, tag-like lines, marker-like starts, escape-like text)
//! are written so that reading gives back the same game, one record per game.

use ctl_pgn::*;
use proptest::prelude::*;

const BASE: &str = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. F8-F12\n*\n";

fn hostile() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("}".to_string()),
            Just("{".to_string()),
            Just("\"]\n\n1. E7-E13 *\n".to_string()),
            Just("\n[Variant \"C'escacs\"]\n".to_string()),
            Just("\"]".to_string()),
            Just("\n".to_string()),
            Just("\r".to_string()),
            Just("\\u007D".to_string()),
            Just("\\".to_string()),
            Just("@W:".to_string()),
            Just("#".to_string()),
            Just(":".to_string()),
            Just(" ".to_string()),
            Just("#14".to_string()),
            Just("~PE13".to_string()),
            Just("(".to_string()),
            Just(")".to_string()),
            "[ -~]{0,6}",
            "\\PC{0,3}",
        ],
        0..8,
    )
    .prop_map(|v| v.concat())
}

fn kind() -> impl Strategy<Value = CommentKind> {
    prop_oneof![
        Just(CommentKind::General),
        Just(CommentKind::White),
        Just(CommentKind::Black),
        Just(CommentKind::Auto),
        Just(CommentKind::AutoWhite),
        Just(CommentKind::AutoBlack),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(test_support::proptest_cases()))]

    #[test]
    fn hostile_text_round_trips(
        event in hostile(),
        extra in hostile(),
        comments in prop::collection::vec((kind(), hostile(), 0usize..4), 0..5),
        final_text in hostile(),
    ) {
        let mut g = read_game(BASE).unwrap();
        g.tags.push(Tag { name: "Event".into(), value: event, span: Span::default() });
        g.tags.push(Tag { name: "Annotator".into(), value: extra, span: Span::default() });
        for (k, text, at) in comments {
            let at = at.min(g.main.items.len());
            g.main.items.insert(at, Item::Comment(Comment::new(k, text)));
        }
        g.final_comments.push(Comment::new(CommentKind::General, final_text));
        for form in [Form::Canonical, Form::Fan] {
            let text = write_game(&g, form);
            let recs = read_str("w", &text);
            prop_assert_eq!(recs.len(), 1, "{}", text);
            let errors: Vec<_> = recs[0].diagnostics.iter().filter(|d| d.is_error()).collect();
            prop_assert!(errors.is_empty(), "{:?}\n{}", errors, text);
            if form == Form::Canonical {
                prop_assert_eq!(recs[0].game.as_ref().unwrap(), &g.canonical(), "{}", text);
            }
        }
    }
}

#[test]
fn a_tag_value_cannot_make_two_games() {
    let mut g = read_game(BASE).unwrap();
    g.tags.push(Tag {
        name: "Event".into(),
        value: "x\"]\n\n1. E7-E13 *\n\n[Variant \"C'escacs\"]".into(),
        span: Span::default(),
    });
    g.main
        .items
        .push(Item::Comment(Comment::new(CommentKind::General, "a } b")));
    let text = write_game(&g, Form::Canonical);
    let recs = read_str("w", &text);
    assert_eq!(recs.len(), 1, "{text}");
    assert_eq!(recs[0].game.as_ref().unwrap(), &g.canonical());
    assert!(text.contains("a \\u007D b"), "{text}");
}

#[test]
fn a_bad_tag_name_is_written_with_underscores() {
    let mut g = read_game(BASE).unwrap();
    g.tags.push(Tag {
        name: "My Tag\"]".into(),
        value: "v".into(),
        span: Span::default(),
    });
    let text = write_game(&g, Form::Canonical);
    assert!(text.contains("[My_Tag__ \"v\"]"), "{text}");
    assert_eq!(read_str("w", &text).len(), 1);
}
