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
    let pcn = r.write(Format::Pcn, &Options::default()).unwrap().text;
    let mut p = Record::from_bytes(Format::Pcn, pcn.as_bytes());
    assert_eq!(p.set_tag("Event", "y"), Err(EditError::FromPcn));
    let mut c = Record::from_bytes(
        Format::CtlPgn,
        b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n",
    );
    c.set_tag("Event", "y").unwrap();
    let text = c.write(Format::CtlPgn, &Options::default()).unwrap().text;
    assert!(text.contains("[Event \"y\"]"), "{text}");
    assert!(matches!(
        c.add_comment(1, "x"),
        Err(EditError::Unsupported(..))
    ));
}
