//! Nothing is lost silently: for each conversion the CLI offers, a game carrying every
//! droppable kind of information (comments, variations, NAGs/assessments, unusual
//! tags, escape lines, …) either comes out with it (checked by reading the output
//! back) or the run warns once per dropped item (`docs/conversion-losses.md`).

use std::path::PathBuf;
use std::process::Command;

struct Run {
    code: i32,
    out: String,
    err: String,
}

impl Run {
    fn warnings(&self) -> Vec<&str> {
        self.err
            .lines()
            .filter(|l| l.contains(": warning: "))
            .collect()
    }

    fn warned(&self, text: &str) -> bool {
        self.warnings().iter().any(|l| l.contains(text))
    }
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cescacs-dropped-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn file(name: &str, contents: &str) -> PathBuf {
    let p = dir().join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn convert(input: &PathBuf, args: &[&str]) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .arg("convert")
        .arg(input)
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8(o.stdout).unwrap(),
        err: String::from_utf8(o.stderr).unwrap(),
    }
}

/// Converts `text` (a file named `name`) and the output back, returning both runs.
fn there_and_back(
    name: &str,
    text: &str,
    to: &[&str],
    back_ext: &str,
    back: &[&str],
) -> (Run, Run) {
    let first = convert(&file(name, text), to);
    assert_eq!(first.code, 0, "{}", first.err);
    let again = convert(&file(&format!("back-{name}{back_ext}"), &first.out), back);
    assert_eq!(again.code, 0, "{}", again.err);
    (first, again)
}

// ---------------------------------------------------------------- C'escacs

const CTL: &str = "[Variant \"C'escacs\"]
[Event \"Drop test\"]
[Round \"?\"]
[Redefine \"A@J\"]
[Unusual \"tag value\"]
{ a comment before the first move }
1. E7-E13 !, E21-E15 ?!
{@W: a comment on White}
.($[1] 1. F8-F12 !?, F20-F16
..(1. …, E21-E15 {inner})
.)
2. F8-F12 (=), F20-F16
*
{ after the result }
";

#[test]
fn ctl_pgn_canonical_carries_everything() {
    let (first, again) = there_and_back(
        "c.ctl-pgn",
        CTL,
        &["--to", "ctl-pgn"],
        ".ctl-pgn",
        &["--to", "ctl-pgn"],
    );
    assert!(first.warnings().is_empty(), "{}", first.err);
    for kept in [
        "Redefine \"A@J\"",
        "Unusual",
        "a comment before",
        "$[1]",
        "{inner}",
        "(=)",
        "?!",
        "after the result",
    ] {
        assert!(first.out.contains(kept), "{kept} lost:\n{}", first.out);
    }
    assert_eq!(first.out, again.out);
}

#[test]
fn ctl_pgn_minimal_warns_for_each_dropped_item() {
    let r = convert(&file("m.ctl-pgn", CTL), &["--to", "ctl-pgn", "--minimal"]);
    assert_eq!(r.code, 0, "{}", r.err);
    // 2 comments in the main line, 1 variation (with its nested one and comment),
    // 1 after the result, the Redefine tag: 5 items, each named and located.
    assert_eq!(r.warnings().len(), 5, "{}", r.err);
    assert!(r.warned("m.ctl-pgn:6:1: game 1: warning: --minimal drops comment {a comment before the first move}"), "{}", r.err);
    assert!(
        r.warned("drops comment {@W:a comment on White}"),
        "{}",
        r.err
    );
    assert!(
        r.warned(
            "drops variation $[1] from move 1 (3 move(s), 1 comment(s), 1 nested variation(s))"
        ),
        "{}",
        r.err
    );
    assert!(
        r.warned("drops comment after the result {after the result}"),
        "{}",
        r.err
    );
    assert!(r.warned("drops tag [Redefine \"A@J\"]"), "{}", r.err);
    assert!(r.err.contains("5 warning(s)"), "{}", r.err);
    // What minimal keeps: assessments, draw offers, ordinary tags.
    for kept in ["?!", "(=)", "Unusual"] {
        assert!(r.out.contains(kept), "{kept} lost:\n{}", r.out);
    }
    // The report lists the same warnings.
    let report = dir().join("minimal-report.json");
    let r = convert(
        &file("m.ctl-pgn", CTL),
        &[
            "--to",
            "ctl-pgn",
            "--minimal",
            "--report",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["warnings"], 5);
    assert!(json["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["message"]
            .as_str()
            .unwrap()
            .starts_with("--minimal drops variation")
    }));
}

#[test]
fn ctl_pgn_fan_reports_the_replaced_redefine() {
    let (first, again) = there_and_back(
        "f.ctl-pgn",
        CTL,
        &["--to", "ctl-pgn", "--fan"],
        ".ctl-pgn",
        &["--to", "ctl-pgn", "--fan"],
    );
    assert_eq!(first.warnings().len(), 1, "{}", first.err);
    assert!(first.warned("--fan replaces tag [Redefine \"A@J\"] by [Redefine \"FAN\"]"));
    for kept in ["Unusual", "{inner}", "(=)", "after the result"] {
        assert!(first.out.contains(kept), "{kept} lost:\n{}", first.out);
    }
    assert!(again.warnings().is_empty(), "{}", again.err);
    assert_eq!(first.out, again.out);
}

#[test]
fn ctl_pgn_pcn_round_trip_carries_everything() {
    let canonical = convert(&file("p.ctl-pgn", CTL), &["--to", "ctl-pgn"]);
    let (first, again) = there_and_back(
        "p.ctl-pgn",
        CTL,
        &["--to", "pcn"],
        ".json",
        &["--to", "ctl-pgn"],
    );
    assert!(first.warnings().is_empty(), "{}", first.err);
    assert!(again.warnings().is_empty(), "{}", again.err);
    assert_eq!(again.out, canonical.out);
    // And --minimal from PCN reports the same drops as from CTL-PGN.
    let pcn = file("p2.json", &first.out);
    let m = convert(&pcn, &["--to", "ctl-pgn", "--minimal"]);
    assert_eq!(m.warnings().len(), 5, "{}", m.err);
}

// ---------------------------------------------------------------- classic chess

const PGN: &str = "% an escape line
[Event \"Drop test\"]
[Site \"?\"]
[Date \"2024.01.02\"]
[Round \"1\"]
[White \"A\"]
[Black \"B\"]
[Result \"*\"]
[Unusual \"tag value\"]

{lead} 1. e4 $200 {c1 [%clk 0:01:00]} (1. d4 {v} d5 $14) 1... a6 $0 2. e5 d5 3. exd6 e.p. ; line comment
3... exd6 *
";

#[test]
fn pgn_to_pgn_carries_or_warns() {
    let (first, again) = there_and_back("g.pgn", PGN, &["--to", "pgn"], ".pgn", &["--to", "pgn"]);
    let w = first.warnings();
    assert_eq!(w.len(), 3, "{}", first.err);
    assert!(
        first.warned("g.pgn:1:1: game 1: warning: escape line `% an escape line` dropped"),
        "{}",
        first.err
    );
    assert!(first.warned("null annotation $0 dropped"), "{}", first.err);
    assert!(
        first.warned("en passant marker `e` dropped"),
        "{}",
        first.err
    );
    for kept in [
        "Unusual",
        "{lead}",
        "$200",
        "[%clk 0:01:00]",
        "(1. d4 {v} 1... d5 $14)",
        "{line comment}",
    ] {
        assert!(first.out.contains(kept), "{kept} lost:\n{}", first.out);
    }
    assert!(again.warnings().is_empty(), "{}", again.err);
    assert_eq!(first.out, again.out);
}

#[test]
fn pgn_pcn_round_trip_carries_everything() {
    let canonical = convert(&file("q.pgn", PGN), &["--to", "pgn"]);
    let (first, again) = there_and_back("q.pgn", PGN, &["--to", "pcn"], ".json", &["--to", "pgn"]);
    // Only the reader's own drops are reported; the PCN export itself loses nothing.
    assert_eq!(first.warnings().len(), 3, "{}", first.err);
    assert!(again.warnings().is_empty(), "{}", again.err);
    assert_eq!(again.out, canonical.out);
}

/// A chess PCN document: `doc` (an object) with the initial position added.
fn with_chess_start(doc: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(doc).unwrap();
    let rank = |s: &str| {
        s.split(' ')
            .map(|p| (p != ".").then(|| p.to_string()))
            .collect::<Vec<_>>()
    };
    let empty = rank(". . . . . . . .");
    v["starting_position"] = serde_json::json!([
        rank("w:r w:n w:b w:q w:k w:b w:n w:r"),
        rank("w:p w:p w:p w:p w:p w:p w:p w:p"),
        empty,
        empty,
        empty,
        empty,
        rank("W:P W:P W:P W:P W:P W:P W:P W:P"),
        rank("W:R W:N W:B W:Q W:K W:B W:N W:R"),
    ]);
    v.to_string()
}

#[test]
fn pcn_parts_pgn_cannot_hold_are_reported() {
    // A hand-made document: started_at with an offset, an action option, a foreign
    // extension, a NAG PGN cannot hold, a clock no comment carries, a glyph.
    let doc = r#"{"started_at": "2024-01-02T10:00:00+02:00", "over?": false, "...result?": null,
 "previous_moves": [[[52, "shift", 36, {"...why": "centre"}]]],
 "...engine": {"depth": 20},
 "...pgn": {"tags": [["Event", "E"], ["Event", "E2"]],
   "annotations": [{"ply": 0, "nags": [0, 300], "clock": 60, "glyph": 1, "colour": "red"}],
   "extra": true}}"#;
    let r = convert(&file("h.json", &with_chess_start(doc)), &["--to", "pgn"]);
    assert_eq!(r.code, 0, "{}", r.err);
    for w in [
        "started_at \"2024-01-02T10:00:00+02:00\" (has no PGN date/time tag form)",
        "previous_moves[0][0] option \"...why\"",
        "extension key \"...engine\"",
        "...pgn key \"extra\"",
        "key \"colour\"",
        "NAG 300",
        "NAG $0 after 1. e4 dropped",
        "clock 60 s after 1. e4 dropped",
        "glyph $1 on 1. e4 dropped",
        "tag [Event \"E2\"] dropped",
    ] {
        assert!(r.warned(w), "no warning {w:?}:\n{}", r.err);
    }
    assert_eq!(r.warnings().len(), 10, "{}", r.err);
}

#[test]
fn pcn_started_at_becomes_date_tags() {
    let doc = r#"{"started_at": "2024-01-02T10:00:00Z", "over?": true, "...result?": true,
 "previous_moves": []}"#;
    let r = convert(&file("d.json", &with_chess_start(doc)), &["--to", "pgn"]);
    assert!(r.warnings().is_empty(), "{}", r.err);
    assert!(r.out.contains("[UTCDate \"2024.01.02\"]"), "{}", r.out);
    assert!(r.out.contains("[UTCTime \"10:00:00\"]"), "{}", r.out);
    let back = convert(&file("d2.pgn", &r.out), &["--to", "pcn"]);
    assert!(
        back.out.contains("\"started_at\":\"2024-01-02T10:00:00Z\""),
        "{}",
        back.out
    );
}

// ---------------------------------------------------------------- xiangqi

const XQ: &str = "% an escape line
[Game \"Chinese Chess\"]
[Event \"Drop test\"]
[Event \"Second event\"]
[Red \"R\"]
[Black \"B\"]
[MyTag \"v\"]
[Result \"*\"]
[Format \"ICCS\"]

$3 {lead} 1. h2e2 $1 {c} (1. b2e2 {v} h9g7) h9g7 !? ; has } a brace
2. h0g2 *
";

fn xiangqi_drops(r: &Run) {
    assert!(
        r.warned("escape line `% an escape line` dropped"),
        "{}",
        r.err
    );
    assert!(
        r.warned("annotation $3 before any move dropped"),
        "{}",
        r.err
    );
    assert!(
        r.warned("tag [Event \"Second event\"] dropped"),
        "{}",
        r.err
    );
}

#[test]
fn xiangqi_pgn_in_each_notation_carries_or_warns() {
    for notation in ["chinese", "wxf", "iccs"] {
        let (first, again) = there_and_back(
            &format!("x-{notation}.pgn"),
            XQ,
            &["--to", "xiangqi-pgn", "--notation", notation],
            ".pgn",
            &["--to", "xiangqi-pgn", "--notation", notation],
        );
        xiangqi_drops(&first);
        assert_eq!(first.warnings().len(), 3, "{notation}: {}", first.err);
        for kept in [
            "MyTag",
            "{lead}",
            "$1",
            "{c}",
            "{v}",
            "!?",
            ";has } a brace",
        ] {
            assert!(
                first.out.contains(kept),
                "{notation}: {kept} lost:\n{}",
                first.out
            );
        }
        assert!(again.warnings().is_empty(), "{notation}: {}", again.err);
        assert_eq!(first.out, again.out, "{notation}");
    }
}

#[test]
fn xiangqi_xml_carries_or_warns() {
    let r = convert(
        &file("x.pgn", XQ),
        &["--to", "xiangqi-xml", "--notation", "iccs"],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    xiangqi_drops(&r);
    assert!(
        r.warned("tag name MyTag written as XML element <mytag>"),
        "{}",
        r.err
    );
    assert_eq!(r.warnings().len(), 4, "{}", r.err);
    for kept in [
        "<mytag>v</mytag>",
        "<comment>lead</comment>",
        "<nag>$1</nag>",
        "<comment>c</comment>",
        "<variation>",
        "<nag>!?</nag>",
        "has } a brace",
    ] {
        assert!(r.out.contains(kept), "{kept} lost:\n{}", r.out);
    }
}

#[test]
fn xiangqi_pcn_round_trip_carries_everything() {
    let canonical = convert(&file("y.pgn", XQ), &["--to", "xiangqi-pgn"]);
    let (first, again) = there_and_back(
        "y.pgn",
        XQ,
        &["--to", "pcn"],
        ".json",
        &["--to", "xiangqi-pgn"],
    );
    // The reader's drops, nothing from the PCN export.
    assert_eq!(first.warnings().len(), 2, "{}", first.err);
    assert!(first.warned("escape line"));
    assert!(first.warned("annotation $3 before any move dropped"));
    // PCN kept the duplicate Event tag; xiangqi PGN cannot, and says so.
    assert_eq!(again.warnings().len(), 1, "{}", again.err);
    assert!(
        again.warned("tag [Event \"Second event\"] dropped"),
        "{}",
        again.err
    );
    assert_eq!(again.out, canonical.out);
}

// ---------------------------------------------------------------- across games

#[test]
fn cross_game_requests_are_clear_errors() {
    let ctl = file("cross.ctl-pgn", CTL);
    for to in ["pgn", "xiangqi-pgn", "xiangqi-xml"] {
        let r = convert(&ctl, &["--to", to]);
        assert_eq!(r.code, 2, "{to}: {}", r.err);
        assert!(r.out.is_empty(), "{to}: {}", r.out);
        assert!(
            r.err.contains("cannot convert a C'escacs record to"),
            "{to}: {}",
            r.err
        );
    }
    let chess = file("cross.pgn", PGN);
    let r = convert(&chess, &["--to", "ctl-pgn"]);
    assert_eq!(r.code, 2, "{}", r.err);
    assert!(
        r.err.contains("cannot convert a chess record to ctl-pgn"),
        "{}",
        r.err
    );
    // A PCN document of one game asked for as another: an error per document.
    let pcn = convert(&ctl, &["--to", "pcn"]).out;
    let r = convert(&file("cross.json", &pcn), &["--to", "pgn"]);
    assert_eq!(r.code, 1, "{}", r.err);
    assert!(
        r.err.contains("a C'escacs game cannot be written as pgn"),
        "{}",
        r.err
    );
    assert!(r.err.contains("1 bad"), "{}", r.err);
}
