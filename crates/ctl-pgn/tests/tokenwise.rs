//! The pest reader's two parse modes: one `game` parse per record (records up to
//! `ctl_pgn::WHOLE_PARSE_LIMIT` bytes) and one parse per token (longer records,
//! so that pest's tree of a whole record is never held). Same records, same
//! diagnostics, same models on every CTL-PGN file of `testdata/`, on mutated files and
//! on arbitrary text; and a long hostile record read in bounded memory.

use ctl_pgn::{read_str_grammar as read_str, read_str_grammar_tokenwise as read_str_tokenwise};
use std::path::PathBuf;

fn files() -> Vec<PathBuf> {
    let v = test_support::files_with_extension(&test_support::testdata(), "ctl-pgn");
    assert!(v.len() > 50, "expected the CTL-PGN files of testdata");
    v
}

fn same(name: &str, src: &str) {
    let whole = read_str("f", src);
    let tokens = read_str_tokenwise("f", src);
    assert_eq!(whole.len(), tokens.len(), "{name}: record count\n{src}");
    for (w, t) in whole.iter().zip(&tokens) {
        assert_eq!(
            w.diagnostics, t.diagnostics,
            "{name}: record {}: diagnostics\n--- input ---\n{src}",
            w.index
        );
        assert_eq!(
            format!("{:?}", w.game),
            format!("{:?}", t.game),
            "{name}: record {}: model\n--- input ---\n{src}",
            w.index
        );
    }
}

#[test]
fn every_testdata_file_reads_the_same_token_by_token() {
    for f in files() {
        if let Ok(src) = std::fs::read_to_string(&f) {
            same(&f.display().to_string(), &src);
        }
    }
}

/// Pieces that matter to the grammar, for mutations.
const PIECES: &[&str] = &[
    " ",
    "\n",
    "\t",
    ".",
    ",",
    "…",
    "...",
    "-",
    "×",
    "*",
    "x",
    "@",
    "@@",
    "=",
    "&",
    "+",
    "^",
    "#",
    "?",
    "!",
    "◇",
    ":",
    "(",
    ")",
    "(=)",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "$[1]",
    "$",
    "~",
    "0",
    "1",
    "2",
    "3",
    "28",
    "A",
    "D",
    "E",
    "K",
    "R",
    "T",
    "Z",
    "O",
    "♔",
    "KRK-HIO",
    "E7-E13",
    "\u{FEFF}",
    "\u{A0}",
    "[Variant \"C'escacs\"]\n",
    "{#W:",
    "{:",
    "1-1",
    "3 - 0",
    "0-3",
    "*",
    "%",
];

fn mutate(rng: &mut test_support::Rng, src: &str) -> String {
    let mut s = src.to_string();
    for _ in 0..1 + rng.below(4) {
        let mut at = rng.below(s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + rng.below(5)).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        let with = if rng.chance(70) { rng.pick(PIECES) } else { "" };
        s.replace_range(at..end, with);
    }
    s
}

#[test]
fn mutated_files_read_the_same_token_by_token() {
    let mut small: Vec<String> = files()
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .filter(|s| s.len() < 20_000)
        .collect();
    small.truncate(300);
    let mut rng = test_support::Rng::new(0x70c3_2a11);
    for _ in 0..3000 {
        let base = rng.pick(&small);
        same("mutated", &mutate(&mut rng, base));
    }
}

#[test]
fn arbitrary_text_reads_the_same_token_by_token() {
    let mut rng = test_support::Rng::new(7);
    for _ in 0..3000 {
        let n = rng.below(40);
        let s: String = (0..n).map(|_| *rng.pick(PIECES)).collect();
        same("arbitrary", &s);
    }
}

/// A record over the whole-parse limit (250 nested variations and a 300 kB comment):
/// the depth error, located at the first variation too deep; a syntax error further
/// on is still what the record reports, as with the whole-record parse.
#[test]
fn long_nested_record_is_read_token_by_token() {
    let n = 250;
    let mut s = String::from("1. E7-E13 ");
    s.push_str(&"(1. E7-E13 ".repeat(n));
    s.push('{');
    s.push_str(&"a".repeat(300_000));
    s.push_str("} ");
    s.push_str(&")".repeat(n));
    s.push_str(" *\n");
    assert!(s.len() > ctl_pgn::WHOLE_PARSE_LIMIT);
    let r = read_str("f", &s);
    assert_eq!(r.len(), 1);
    assert!(r[0].game.is_none());
    let d = &r[0].diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, ctl_pgn::Code::TooDeep);
    let col = 1 + "1. E7-E13 ".len() as u32 + 200 * "(1. E7-E13 ".len() as u32;
    assert_eq!((d[0].line, d[0].col), (1, col));
    // A syntax error at the end is what the record reports.
    s.insert_str(s.len() - 3, " E7-");
    let r = read_str("f", &s);
    let d = &r[0].diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, ctl_pgn::Code::Syntax, "{d:?}");
    assert!(d[0].message.starts_with("expected"), "{d:?}");
    // Without the depth problem the record is read, and equals the whole parse.
    let ok = format!("1. E7-E13 (1. E7-E13 {{{}}}) *\n", "b".repeat(300_000));
    let r = read_str("f", &ok);
    assert!(
        r[0].game.is_some() && r[0].diagnostics.is_empty(),
        "{:?}",
        r[0].diagnostics
    );
    same("long comment", &ok);
}
