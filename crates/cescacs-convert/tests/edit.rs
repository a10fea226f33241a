//! Record edits: tags, comments, variations and truncation written in every target,
//! with every annotation kept, and the refusals.

use cescacs_convert::{EditError, Format, Options, Record};

const CLOCKED: &str = "[Event \"x\"]\n[White \"a\"]\n\n{pre} 1. e4 {[%clk 0:01:00] [%eval 0.3] hi} e5 $1 (1... c5 {sic}) 2. Nf3 {[%clk 0:00:58]} Nc6 *\n";

#[test]
fn chess_edits_are_written_with_every_annotation() {
    let mut r = Record::from_bytes(Format::Pgn, CLOCKED.as_bytes());
    r.set_tag("Annotator", "me").unwrap();
    r.set_tag("White", "b").unwrap();
    r.add_comment(2, "edited").unwrap();
    r.add_variation(3, &["Nc3", "Nf6"]).unwrap();
    let pgn = r.write(Format::Pgn, &Options::default()).unwrap().text;
    for part in [
        "[White \"b\"]",
        "[Annotator \"me\"]",
        "{[%clk 0:01:00] [%eval 0.3] hi}",
        "$1 (1... c5 {sic}) {edited}",
        "(2. Nc3 Nf6)",
        "{[%clk 0:00:58]}",
    ] {
        assert!(pgn.contains(part), "{part} in {pgn}");
    }
    let back = Record::from_bytes(Format::Pgn, pgn.as_bytes());
    assert_eq!(back.main_line(), ["e4", "e5", "Nf3", "Nc6"]);
    assert!(!back.has_errors());
    let pcn = r.write(Format::Pcn, &Options::default()).unwrap().text;
    assert!(pcn.contains("[%clk 0:01:00] [%eval 0.3] hi") && pcn.contains("edited"));
    r.truncate(1).unwrap();
    let cut = r.write(Format::Pgn, &Options::default()).unwrap().text;
    assert!(
        cut.contains("1. e4 {[%clk 0:01:00] [%eval 0.3] hi} *"),
        "{cut}"
    );
    assert_eq!(r.result().as_deref(), Some("*"));
}

#[test]
fn edits_that_would_change_the_game_are_refused() {
    let mut r = Record::from_bytes(Format::Pgn, CLOCKED.as_bytes());
    assert!(matches!(
        r.set_tag("FEN", "x"),
        Err(EditError::DefiningTag(_))
    ));
    assert!(matches!(
        r.set_tag("a b", "x"),
        Err(EditError::BadTagName(_))
    ));
    assert!(matches!(
        r.add_comment(9, "x"),
        Err(EditError::NoSuchPly { .. })
    ));
    assert!(matches!(
        r.add_comment(1, "}"),
        Err(EditError::BadComment(_))
    ));
    assert!(matches!(
        r.add_variation(1, &["e5"]),
        Err(EditError::BadMove { .. })
    ));
    assert!(matches!(r.truncate(9), Err(EditError::NoSuchPly { .. })));
    let mut c = Record::from_bytes(
        Format::CtlPgn,
        b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n",
    );
    c.set_tag("Event", "y").unwrap();
    let text = c.write(Format::CtlPgn, &Options::default()).unwrap().text;
    assert!(text.contains("[Event \"y\"]"), "{text}");
    assert!(matches!(
        c.add_variation(2, &["F7-F9"]),
        Err(EditError::BadMove { .. })
    ));
    assert!(matches!(c.truncate(3), Err(EditError::NoSuchPly { .. })));
}

/// Tags, main line, result and final position.
type Facts = (
    Vec<(String, String)>,
    Vec<String>,
    Option<String>,
    Option<String>,
);

/// What an edit must leave as it was (apart from the edit): tags, main line, result and
/// final position.
fn facts(r: &Record) -> Facts {
    (r.tags(), r.main_line(), r.result(), r.final_position())
}

fn read_back(r: &Record, to: Format) -> Record {
    let w = r.write(to, &Options::default()).unwrap();
    let back = Record::from_bytes(to, w.text.as_bytes());
    assert!(!back.has_errors(), "{:?}\n{}", back.errors(), w.text);
    back
}

const HEX: &str = "[Variant \"C'escacs\"]\n[Result \"1-1\"]\n\n1. E7-E9 {good}, E21-E19 (1... F20-F18)\n2. F8-F10, D22-D20\n1-1\n{after}\n";

#[test]
fn cescacs_comments_and_truncation_read_back() {
    let orig = Record::from_bytes(Format::CtlPgn, HEX.as_bytes());
    assert!(!orig.has_errors(), "{:?}", orig.errors());
    let plain = read_back(&orig, Format::CtlPgn);
    let mut r = orig.clone();
    r.add_comment(0, "before").unwrap();
    r.add_comment(1, "second on the first").unwrap();
    r.add_comment(4, "last").unwrap();
    let back = read_back(&r, Format::CtlPgn);
    assert_eq!(facts(&back), facts(&plain));
    let text = r.write(Format::CtlPgn, &Options::default()).unwrap().text;
    // After the comments already there, before the next move.
    assert!(text.contains("{good}\n{second on the first}"), "{text}");
    assert!(
        text.contains("{before}") && text.contains("{last}"),
        "{text}"
    );
    // The tree sees them where python-chess users look: the move's comments.
    let tree = cescacs_convert::move_tree(&back, false).unwrap();
    let first = tree.main_moves().next().unwrap();
    assert_eq!(first.comments, ["good", "second on the first"]);
    assert_eq!(tree.nodes[0].comments, ["before"]);
    // Truncation: the first two half-moves with what follows them; the result `*`.
    let mut t = orig.clone();
    t.truncate(2).unwrap();
    assert_eq!(t.plies(), 2);
    let back = read_back(&t, Format::CtlPgn);
    assert_eq!(back.main_line(), ["E7-E9", "E21-E19"]);
    assert_eq!(back.result().as_deref(), Some("*"));
    assert_eq!(
        back.tags()
            .iter()
            .find(|t| t.0 == "Result")
            .map(|t| t.1.as_str()),
        Some("*")
    );
    let mut p = cescacs_rules::Position::initial();
    for m in ["E7-E9", "E21-E19"] {
        let t = cescacs_rules::an::MoveText::parse(m, &cescacs_rules::Letters::default()).unwrap();
        p.play_unchecked(p.resolve(&t).unwrap().mv);
    }
    assert_eq!(back.final_position(), Some(cescacs_tlpd::write(&p)));
    assert_eq!(t.final_position(), back.final_position());
    let text = t.write(Format::CtlPgn, &Options::default()).unwrap().text;
    assert!(
        text.contains("F20-F18") && !text.contains("after"),
        "{text}"
    );
    // Written to PCN and read back: the same cut game.
    let pcn = read_back(&t, Format::Pcn);
    assert_eq!(pcn.main_line(), back.main_line());
    assert_eq!(pcn.final_position(), back.final_position());
}

const XQ: &str = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 2. h0g2 {x} i9h9 *\n";

#[test]
fn xiangqi_variations_are_played_and_written() {
    let orig = Record::from_bytes(Format::XiangqiPgn, XQ.as_bytes());
    assert!(!orig.has_errors(), "{:?}", orig.errors());
    let plain = read_back(&orig, Format::XiangqiPgn);
    let mut r = orig.clone();
    r.add_variation(2, &["b9c7", "B0C2"]).unwrap();
    r.add_variation(3, &["b0c2"]).unwrap();
    let back = read_back(&r, Format::XiangqiPgn);
    assert_eq!(facts(&back), facts(&plain));
    let tree = cescacs_convert::move_tree(&back, true).unwrap();
    let after_first = tree.next(0).unwrap();
    let alternatives: Vec<String> = tree
        .children(after_first)
        .map(|i| tree.nodes[i].mv.as_ref().unwrap().uci().to_string())
        .collect();
    assert_eq!(alternatives, ["h9g7", "b9c7"]);
    let b9c7 = tree.children(after_first).nth(1).unwrap();
    let next = tree.next(b9c7).unwrap();
    assert_eq!(tree.nodes[next].mv.as_ref().unwrap().uci(), "b0c2");
    // Refused: an illegal move, a move of the wrong side, no move.
    let mut bad = orig.clone();
    for moves in [&["h9h0"][..], &["h2e2"][..], &[][..]] {
        assert!(matches!(
            bad.add_variation(2, moves),
            Err(EditError::BadMove { .. })
        ));
    }
    // Comments and truncation as before; the variation survives a cut after it.
    r.truncate(2).unwrap();
    let back = read_back(&r, Format::XiangqiPgn);
    assert_eq!(back.main_line().len(), 2);
    assert_eq!(move_tree_len(&back), 2 + 2);
}

fn move_tree_len(r: &Record) -> usize {
    cescacs_convert::move_tree(r, true).unwrap().nodes.len() - 1
}

#[test]
fn records_read_from_pcn_are_edited_in_their_model() {
    for (format, text) in [
        (Format::Pgn, CLOCKED),
        (Format::CtlPgn, HEX),
        (Format::XiangqiPgn, XQ),
    ] {
        let orig = Record::from_bytes(format, text.as_bytes());
        let pcn = orig.write(Format::Pcn, &Options::default()).unwrap().text;
        let mut p = Record::from_bytes(Format::Pcn, pcn.as_bytes());
        assert!(!p.has_errors(), "{:?}", p.errors());
        let plain = read_back(&p, Format::Pcn);
        p.set_tag("Annotator", "edited").unwrap();
        p.add_comment(1, "from pcn").unwrap();
        let back = read_back(&p, Format::Pcn);
        let mut want = facts(&plain);
        want.0.push(("Annotator".into(), "edited".into()));
        let mut got = facts(&back);
        got.0.sort();
        want.0.sort();
        assert_eq!(got, want, "{format:?}");
        let doc = back.to_pcn().unwrap();
        assert!(pcn::to_string(&doc).contains("from pcn"), "{format:?}");
        // In the record's own game too.
        let own = read_back(&p, format);
        // (As UCI/ICCS: the spelling of a xiangqi move as written is not kept in PCN.)
        let uci = |r: &Record| -> Vec<String> {
            let tree = cescacs_convert::move_tree(r, false).unwrap();
            tree.main_moves().map(|m| m.uci().to_string()).collect()
        };
        assert_eq!(uci(&own), uci(&orig), "{format:?}");
    }
}
