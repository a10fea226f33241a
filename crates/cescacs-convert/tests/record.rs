//! Records of every format: what the accessors give, checked against values known
//! independently (hand-played positions, the rules of each game), and the converter's
//! loss warnings and refusals. Inputs are inline so that the packaged crate tests itself.

use cescacs_convert::{Converter, Format, GameKind, Options, Record, Severity, raw_game};

const CTL: &str = "[Variant \"C'escacs\"]\n[Event \"t\"]\n\n1. E7-E9, E21-E19 {a comment}\n*\n";
const PGN: &str = "[Event \"Scholar\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
const XQ: &str =
    "[Game \"Chinese Chess\"]\n[Red \"R\"]\n[Black \"B\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n";

#[test]
fn ctl_pgn_record() {
    let r = Record::from_bytes(Format::CtlPgn, CTL.as_bytes());
    assert!(r.errors().is_empty(), "{:?}", r.diagnostics());
    assert_eq!(r.kind(), Some(GameKind::Cescacs));
    assert_eq!(r.plies(), 2);
    assert_eq!(r.result().as_deref(), Some("*"));
    assert!(r.tags().contains(&("Event".to_string(), "t".to_string())));
    assert_eq!(
        (r.is_checkmate(), r.is_stalemate()),
        (Some(false), Some(false))
    );
    let svg = r.svg().unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("<title>").count() == 169);
    // The minimal form drops the comment and says so, at its line.
    let minimal = Options {
        minimal: true,
        ..Options::default()
    };
    let w = r.write(Format::CtlPgn, &minimal).unwrap();
    assert!(!w.text.contains('{'));
    assert_eq!(w.warnings.len(), 1);
    assert_eq!(w.warnings[0].line, 4);
    assert!(w.warnings[0].message.contains("drops comment"));
    // Through PCN and back: the same record.
    let pcn = r.write(Format::Pcn, &Options::default()).unwrap().text;
    let back = Record::from_bytes(Format::Pcn, pcn.as_bytes());
    assert_eq!(back.kind(), Some(GameKind::Cescacs));
    assert_eq!(back.final_position(), r.final_position());
    assert_eq!(
        back.write(Format::CtlPgn, &Options::default())
            .unwrap()
            .text,
        r.write(Format::CtlPgn, &Options::default()).unwrap().text
    );
}

#[test]
fn chess_record() {
    let r = Record::from_bytes(Format::Pgn, PGN.as_bytes());
    assert!(r.errors().is_empty(), "{:?}", r.diagnostics());
    assert_eq!(r.main_line().len(), 7);
    assert_eq!(r.result().as_deref(), Some("1-0"));
    assert_eq!(r.is_checkmate(), Some(true));
    assert_eq!(
        r.final_position().as_deref(),
        Some("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4")
    );
    // The final position, the last move (Qh5xf7) highlighted: 2 stroked squares.
    let svg = r.svg().unwrap();
    assert_eq!(svg.matches("<title>").count(), 64);
    assert_eq!(svg.matches("stroke-width=\"3\"><title>").count(), 2);
    assert!(svg.contains("stroke-width=\"3\"><title>h5</title>"));
    assert!(svg.contains("stroke-width=\"3\"><title>f7</title>"));
    assert!(r.write(Format::CtlPgn, &Options::default()).is_err());
}

#[test]
fn chess_stalemate() {
    // Sam Loyd's 10-move stalemate.
    let pgn = "[Event \"s\"]\n\n1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 1/2-1/2\n";
    let r = Record::from_bytes(Format::Pgn, pgn.as_bytes());
    assert!(r.errors().is_empty(), "{:?}", r.diagnostics());
    assert_eq!(
        (r.is_checkmate(), r.is_stalemate()),
        (Some(false), Some(true))
    );
}

#[test]
fn xiangqi_record() {
    let r = Record::from_bytes(Format::XiangqiPgn, XQ.as_bytes());
    assert!(r.errors().is_empty(), "{:?}", r.diagnostics());
    assert_eq!(r.main_line(), ["h2e2", "h9g7"]);
    assert_eq!(
        r.final_position().as_deref(),
        Some("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2")
    );
    assert!(r.svg().unwrap().contains("<svg"));
    let xml = r.write(Format::XiangqiXml, &Options::default()).unwrap();
    assert!(xml.text.contains('<'));
}

#[test]
fn errors_are_located_and_block_output() {
    let bad = "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n2. F2-F3, *\n";
    let r = Record::from_bytes(Format::CtlPgn, bad.as_bytes());
    let errors = r.errors();
    assert_eq!((errors[0].line, errors[0].column), (4, 4), "{errors:?}");
    assert!(r.write(Format::Pcn, &Options::default()).is_err());
    let c = Converter::new(Format::CtlPgn, Some(Format::Pcn), Options::default()).unwrap();
    let outcome = c.convert(&raw_game(bad.as_bytes()));
    assert!(outcome.is_bad() && outcome.output.is_empty());
}

#[test]
fn strict_makes_warnings_errors() {
    let old_marker = "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n";
    let lax = Record::from_bytes(Format::CtlPgn, old_marker.as_bytes());
    assert!(lax.errors().is_empty() && !lax.warnings().is_empty());
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let r = Record::read_with(Format::CtlPgn, &raw_game(old_marker.as_bytes()), &strict);
    assert!(r.warnings().is_empty() && !r.errors().is_empty());
}

#[test]
fn several_pcn_documents_in_one_input() {
    let one = Record::from_bytes(Format::Pgn, PGN.as_bytes())
        .write(Format::Pcn, &Options::default())
        .unwrap()
        .text;
    let array = format!("[{one},{one}]");
    let all = Record::read_all(Format::Pcn, &raw_game(array.as_bytes()));
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].location(), "[1].");
    assert!(all.iter().all(|r| r.kind() == Some(GameKind::Chess)));
    // The converter joins them as the array's elements; a wrong target is per game.
    let c = Converter::new(Format::Pcn, Some(Format::XiangqiPgn), Options::default()).unwrap();
    let outcome = c.convert(&raw_game(array.as_bytes()));
    let messages: Vec<_> = outcome
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "[0].a chess game cannot be written as xiangqi-pgn",
            "[1].a chess game cannot be written as xiangqi-pgn"
        ]
    );
    assert!(
        outcome
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Error)
    );
}

#[test]
fn nothing_panics_on_garbage() {
    for format in Format::ALL {
        for bytes in [
            &b""[..],
            b"\xff\xfe[",
            b"[[[[",
            b"{\"board\"",
            b"1. e4 ((((",
        ] {
            let r = Record::from_bytes(format, bytes);
            let _ = (r.tags(), r.main_line(), r.final_position(), r.svg());
        }
    }
}

#[test]
fn a_pcn_document_over_the_cap_is_one_error_and_the_next_is_read() {
    use cescacs_convert::MAX_PCN_DOCUMENT_BYTES;
    let one = Record::from_bytes(Format::Pgn, PGN.as_bytes())
        .write(Format::Pcn, &Options::default())
        .unwrap()
        .text;
    // The same document padded inside with spaces past the cap (cheap: refused unread).
    let big = format!("{{{}{}", " ".repeat(MAX_PCN_DOCUMENT_BYTES), &one[1..]);
    let r = Record::read_all(Format::Pcn, &raw_game(big.as_bytes()));
    assert_eq!(r.len(), 1);
    let d = r[0].diagnostics();
    assert!(
        d.iter().any(|d| d.severity == Severity::Error
            && d.message.contains("over the PCN cap of 4194304 bytes")),
        "{d:?}"
    );
    // Documents one after another: only the large one is refused.
    let two = format!("{big}\n{one}\n");
    let r = Record::read_all(Format::Pcn, &raw_game(two.as_bytes()));
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].kind(), Some(GameKind::Chess));
    // An array of many small documents (what `--to pcn` writes) is read back whole.
    let n = MAX_PCN_DOCUMENT_BYTES / one.len() + 2;
    let array = format!("[{}]", vec![one.as_str(); n].join(","));
    assert!(array.len() > MAX_PCN_DOCUMENT_BYTES);
    let all = Record::read_all(Format::Pcn, &raw_game(array.as_bytes()));
    assert_eq!(all.len(), n);
    assert!(all.iter().all(|r| r.kind() == Some(GameKind::Chess)));
}

#[test]
fn a_pcn_document_too_large_to_read_back_is_written_with_a_warning() {
    use cescacs_convert::MAX_PCN_DOCUMENT_BYTES;
    let comment = "a".repeat(MAX_PCN_DOCUMENT_BYTES + 1);
    let pgn = format!("[Result \"*\"]\n\n1. e4 {{{comment}}} e5 *\n");
    let written = Record::from_bytes(Format::Pgn, pgn.as_bytes())
        .write(Format::Pcn, &Options::default())
        .unwrap();
    assert!(written.text.len() > MAX_PCN_DOCUMENT_BYTES);
    assert!(
        written
            .warnings
            .iter()
            .any(|w| w.message.contains("cannot be read back")),
        "{:?}",
        written.warnings
    );
}
