//! `Options::strip` (`cescacs convert --strip`): each item on each game and each target
//! format. What is written is read back (in the target format, and again in the
//! game's own format to look at it) and must have lost exactly the stripped items and
//! kept the whole main line; nothing stripped gives a warning.

use cescacs_convert::{Format, Options, Record, Strip};

/// Every comment holds the word `note`, or a clock command, or both; extra tags are
/// `Lang`, `Mode`, `Opening`, `WhiteElo`, `RedElo`.
const CTL: &str = "[Variant \"C'escacs\"]\n[Event \"t\"]\n[Site \"?\"]\n[Date \"2024-01-01\"]\n\
[Round \"-\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Lang \"en\"]\n[Mode \"OTB\"]\n\
{ note intro }\n1. E7-E13 ?!, E21-E15 {[%clk 0:10:00] note fine [%emt 0:00:05]}\n\
($[1] 1. F8-F12 !?, F20-F16)\n2. F8-F12 {[%clk 0:09:00]}, F20-F16:\n*\n{ note final }\n";

const PGN: &str = "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n\
[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n[WhiteElo \"2000\"]\n[Opening \"Ruy\"]\n\n\
{note start} 1. e4 {[%clk 0:03:00]} e5 $1 {note good [%emt 0:00:02] reply} \
(1... c5 {note Sicilian} 2. Nf3) 2. Nf3!? Nc6 {[%eval 0.3] [%clk 0:02:58]} * {note end}\n";

const XQ: &str = "[Game \"Chinese Chess\"]\n[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n\
[Round \"1\"]\n[Red \"R\"]\n[Black \"B\"]\n[Result \"*\"]\n[Opening \"x\"]\n[RedElo \"2000\"]\n\
[Format \"ICCS\"]\n\n{note start} 1. h2e2 {[%clk 0:10:00] note central} h9g7 $1 \
(1... b9c7 {note other}) 2. h0g2 {[%emt 0:00:01]} *\n";

const EXTRA_TAGS: [&str; 5] = ["Lang", "Mode", "Opening", "WhiteElo", "RedElo"];

fn items() -> [(&'static str, Strip); 5] {
    [
        ("comments", Strip::COMMENTS),
        ("variations", Strip::VARIATIONS),
        ("nags", Strip::NAGS),
        ("clock", Strip::CLOCK),
        ("tags", Strip::TAGS),
    ]
}

fn has_comment(t: &str) -> bool {
    t.contains("note")
}
fn has_clock(t: &str) -> bool {
    t.contains("%clk") || t.contains("%emt")
}
fn has_variation(t: &str) -> bool {
    // `(=)`, a CTL-PGN draw offer, is not in these games.
    t.contains('(')
}
fn has_nag(t: &str) -> bool {
    // `$[1]` is a CTL-PGN variation label, not a NAG.
    let numbered = t
        .match_indices('$')
        .any(|(i, _)| t[i + 1..].starts_with(|c: char| c.is_ascii_digit()));
    numbered || t.contains("!?") || t.contains("?!")
}
fn has_extra_tag(t: &str) -> bool {
    EXTRA_TAGS.iter().any(|n| t.contains(&format!("[{n} ")))
}

/// Which of the five items the text still shows.
fn shows(t: &str) -> [bool; 5] {
    [
        has_comment(t),
        has_variation(t),
        has_nag(t),
        has_clock(t),
        has_extra_tag(t),
    ]
}

fn opts(strip: Strip) -> Options {
    Options {
        strip,
        ..Options::default()
    }
}

/// Writes `record` in `to` with `strip`, reads it back, and returns the game as its
/// own format writes it (`native`), checking the main line and the absence of warnings.
fn through(record: &Record, native: Format, to: Format, strip: Strip) -> String {
    let w = record
        .write(to, &opts(strip))
        .unwrap_or_else(|e| panic!("{to} {strip}: {e}"));
    assert!(w.warnings.is_empty(), "{to} {strip}: {:?}", w.warnings);
    let back = Record::from_bytes(to, w.text.as_bytes());
    assert!(
        back.errors().is_empty(),
        "{to} {strip}: {:?}\n{}",
        back.diagnostics(),
        w.text
    );
    if native == Format::XiangqiPgn {
        // Xiangqi moves are listed as written, and the notation changes on the way:
        // the plies and the final position say the same line was kept.
        assert_eq!(back.plies(), record.plies(), "{to} {strip}");
    } else {
        assert_eq!(back.main_line(), record.main_line(), "{to} {strip}");
    }
    assert_eq!(
        back.final_position(),
        record.final_position(),
        "{to} {strip}"
    );
    assert_eq!(back.result(), record.result(), "{to} {strip}");
    back.write(native, &Options::default()).unwrap().text
}

fn check_game(native: Format, source: &str) {
    let record = Record::from_bytes(native, source.as_bytes());
    assert!(record.errors().is_empty(), "{:?}", record.diagnostics());
    for to in [native, Format::Pcn] {
        // The control: unstripped, every item is there (so the checks below can fail).
        let plain = through(&record, native, to, Strip::NONE);
        assert_eq!(shows(&plain), [true; 5], "{native} via {to}:\n{plain}");
        for (i, (name, item)) in items().into_iter().enumerate() {
            let text = through(&record, native, to, item);
            let mut want = [true; 5];
            want[i] = false;
            if item == Strip::COMMENTS {
                // Clock commands live in comments.
                want[3] = false;
            }
            assert_eq!(
                shows(&text),
                want,
                "{native} via {to}, strip {name}:\n{text}"
            );
            if item == Strip::CLOCK {
                // The rest of a comment that held a clock command stays.
                assert!(text.contains("note"), "{text}");
            }
            if item == Strip::TAGS {
                for tag in [
                    "[Event ", "[Site ", "[Date ", "[Round ", "[Black ", "[Result ",
                ] {
                    assert!(text.contains(tag), "{native} via {to}: {tag} kept\n{text}");
                }
            }
        }
        // Everything at once: the main line alone, with the required tags.
        let all: Strip = "comments,variations,nags,clock,tags".parse().unwrap();
        let text = through(&record, native, to, all);
        assert_eq!(shows(&text), [false; 5], "{native} via {to}:\n{text}");
    }
}

#[test]
fn each_item_on_classic_pgn_and_pcn() {
    check_game(Format::Pgn, PGN);
    // What stays of a comment after its clock command: the evaluation.
    let r = Record::from_bytes(Format::Pgn, PGN.as_bytes());
    let text = r.write(Format::Pgn, &opts(Strip::CLOCK)).unwrap().text;
    assert!(
        text.contains("{note good reply}") && text.contains("{[%eval 0.3]}"),
        "{text}"
    );
    assert!(
        text.contains("1. e4 e5 $1"),
        "the clock-only comment is gone: {text}"
    );
}

#[test]
fn each_item_on_ctl_pgn_and_pcn() {
    check_game(Format::CtlPgn, CTL);
    let r = Record::from_bytes(Format::CtlPgn, CTL.as_bytes());
    let text = r.write(Format::CtlPgn, &opts(Strip::CLOCK)).unwrap().text;
    assert!(
        text.contains("{note fine}") && text.contains("2. F8-F12, F20-F16"),
        "{text}"
    );
    // An illustrative record keeps its Id and Annotator, and Redefine (the letters of
    // its moves) with the tags stripped.
    let id = "[Variant \"C'escacs\"]\n[Id \"X-1\"]\n[Annotator \"a\"]\n[Lang \"en\"]\n\
              [Redefine \"T@R\"]\n1. E7-E9, E21-E19\n*\n";
    let r = Record::from_bytes(Format::CtlPgn, id.as_bytes());
    assert!(r.errors().is_empty(), "{:?}", r.diagnostics());
    let text = r.write(Format::CtlPgn, &opts(Strip::TAGS)).unwrap().text;
    assert!(
        text.starts_with(
            "[Variant \"C'escacs\"]\n[Id \"X-1\"]\n[Annotator \"a\"]\n[Redefine \"T@R\"]\n"
        ),
        "{text}"
    );
}

#[test]
fn each_item_on_xiangqi_pgn_and_pcn() {
    check_game(Format::XiangqiPgn, XQ);
}

#[test]
fn xiangqi_xml_output_is_stripped_too() {
    let r = Record::from_bytes(Format::XiangqiPgn, XQ.as_bytes());
    let plain = r
        .write(Format::XiangqiXml, &Options::default())
        .unwrap()
        .text;
    let lower = plain.to_lowercase();
    assert!(
        has_comment(&plain) && has_clock(&plain) && lower.contains("redelo"),
        "{plain}"
    );
    let all: Strip = "comments,variations,nags,tags".parse().unwrap();
    let w = r.write(Format::XiangqiXml, &opts(all)).unwrap();
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    assert!(!has_comment(&w.text) && !has_clock(&w.text), "{}", w.text);
    let lower = w.text.to_lowercase();
    assert!(
        !lower.contains("redelo") && !lower.contains("opening"),
        "{}",
        w.text
    );
    assert!(
        !w.text.contains("<variation>") && !w.text.contains("<nag>"),
        "{}",
        w.text
    );
    // The same moves as the stripped PGN.
    let pgn = Record::from_bytes(
        Format::XiangqiPgn,
        r.write(Format::XiangqiPgn, &opts(all))
            .unwrap()
            .text
            .as_bytes(),
    );
    assert_eq!(pgn.main_line().len(), 3);
}

#[test]
fn pcn_input_to_pcn_is_stripped_from_its_model() {
    for (native, source) in [
        (Format::Pgn, PGN),
        (Format::CtlPgn, CTL),
        (Format::XiangqiPgn, XQ),
    ] {
        let pcn = Record::from_bytes(native, source.as_bytes())
            .write(Format::Pcn, &Options::default())
            .unwrap()
            .text;
        let doc = Record::from_bytes(Format::Pcn, pcn.as_bytes());
        assert!(doc.errors().is_empty(), "{:?}", doc.diagnostics());
        // Unstripped, a PCN document is written back as it was.
        assert_eq!(
            doc.write(Format::Pcn, &Options::default()).unwrap().text,
            pcn
        );
        let all: Strip = "comments,variations,nags,clock,tags".parse().unwrap();
        let w = doc.write(Format::Pcn, &opts(all)).unwrap();
        assert!(w.warnings.is_empty(), "{native}: {:?}", w.warnings);
        assert!(
            !has_comment(&w.text) && !has_extra_tag(&w.text),
            "{}",
            w.text
        );
        let back = Record::from_bytes(Format::Pcn, w.text.as_bytes());
        assert_eq!(back.plies(), doc.plies());
        assert_eq!(back.final_position(), doc.final_position());
        let text = back.write(native, &Options::default()).unwrap().text;
        assert_eq!(shows(&text), [false; 5], "{native}:\n{text}");
    }
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn the_shared_classic_corpus_stripped_keeps_every_main_line() {
    // Real files: every game converted with everything stripped reads back with the same
    // main line, final position and result, and without a comment, variation or NAG.
    let root = test_support::shared("corpus/classic-pgn-real");
    let all: Strip = "comments,variations,nags,clock,tags".parse().unwrap();
    let mut games = 0;
    for file in test_support::files_with_extension(&root, "pgn") {
        let bytes = std::fs::read(&file).unwrap();
        let mut splitter = cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24);
        while let Some(raw) = splitter.next_game().unwrap() {
            let r = Record::read(Format::Pgn, &raw);
            if r.has_errors() {
                continue;
            }
            let text = through(&r, Format::Pgn, Format::Pgn, all);
            let movetext = text.split("\n\n").nth(1).unwrap();
            assert!(
                !movetext.contains(['{', '(', '$', ';']),
                "{} game {}:\n{text}",
                file.display(),
                raw.index
            );
            games += 1;
        }
    }
    assert!(games > 500, "{games} games");
}
