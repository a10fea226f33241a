//! Diagnostic codes: docs/diagnostic-codes.md lists exactly `DIAGNOSTIC_CODES`, and every
//! diagnostic read from the files of `testdata/` carries a code of that table, one the
//! reader's error type gives (a chess illegal move is `chess.illegal-move`, …).

use cescacs_convert::{DIAGNOSTIC_CODES, Format, Record, detect, input_framing};
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn the_docs_table_is_the_code_table() {
    let path = test_support::workspace_root().join("docs/diagnostic-codes.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let rows: Vec<(String, String)> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| {
            let (code, rest) = l.split_once("` | ").unwrap();
            (code.to_string(), rest.trim_end_matches(" |").to_string())
        })
        .collect();
    let table: Vec<(String, String)> = DIAGNOSTIC_CODES
        .iter()
        .map(|(c, m)| (c.to_string(), m.to_string()))
        .collect();
    assert_eq!(rows, table);
    let unique: BTreeSet<&str> = DIAGNOSTIC_CODES.iter().map(|c| c.0).collect();
    assert_eq!(unique.len(), DIAGNOSTIC_CODES.len(), "a code listed twice");
}

/// Every diagnostic of every game of `files`, as (code, message).
fn diagnostics(files: &[std::path::PathBuf]) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).unwrap();
        let name = file.to_string_lossy();
        let Some(format) = detect(&name, &bytes[..bytes.len().min(4096)]) else {
            continue;
        };
        let mut splitter = cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24)
            .framing(input_framing(format, &name));
        while let Ok(Some(raw)) = splitter.next_game() {
            for r in Record::read_all(format, &raw) {
                out.extend(r.diagnostics().iter().map(|d| (d.code, d.message.clone())));
            }
        }
    }
    out
}

#[test]
fn every_diagnostic_of_testdata_has_a_code_of_the_table() {
    let known: BTreeSet<&str> = DIAGNOSTIC_CODES.iter().map(|c| c.0).collect();
    let root = test_support::testdata();
    let mut files = Vec::new();
    for ext in ["pgn", "ctl-pgn", "json", "jsonl"] {
        files.extend(test_support::files_with_extension(&root, ext));
    }
    let all = diagnostics(&files);
    assert!(all.len() > 100, "{} diagnostics", all.len());
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (code, message) in &all {
        assert!(known.contains(code), "{code:?} not in the table: {message}");
        *seen.entry(code).or_default() += 1;
    }
    // The readers' own kinds are told apart (not one code per reader).
    for code in [
        "chess.illegal-move",
        "ctl.illegal-move",
        "xiangqi.illegal-move",
        "pcn.invalid",
    ] {
        assert!(seen.contains_key(code), "no {code} in testdata: {seen:?}");
    }
}

#[test]
fn codes_come_from_the_error_kind() {
    let cases: [(Format, &[u8], &str); 6] = [
        (Format::Pgn, b"1. e4 e5 2. Ke3 *\n", "chess.illegal-move"),
        (
            Format::Pgn,
            b"[FEN \"x\"]\n[SetUp \"1\"]\n\n1. e4 *\n",
            "chess.fen",
        ),
        (
            Format::Pgn,
            b"[Variant \"crazyhouse\"]\n\n1. e4 *\n",
            "chess.variant",
        ),
        (
            Format::CtlPgn,
            b"[Variant \"C'escacs\"]\n\n1. E7-E15, E21-E19\n*\n",
            "ctl.illegal-move",
        ),
        (
            Format::XiangqiPgn,
            b"[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. a0a5 *\n",
            "xiangqi.illegal-move",
        ),
        (Format::Pcn, b"[1, 2", "pcn.json"),
    ];
    for (format, text, code) in cases {
        let r = Record::from_bytes(format, text);
        let codes: Vec<&str> = r.errors().iter().map(|d| d.code).collect();
        assert!(
            codes.contains(&code),
            "{code} for {:?}: {codes:?} {:?}",
            String::from_utf8_lossy(text),
            r.errors()
        );
    }
}

#[test]
fn each_kind_of_xiangqi_warning_has_its_own_code() {
    let known: BTreeSet<&str> = DIAGNOSTIC_CODES.iter().map(|c| c.0).collect();
    let kinds = xiangqi_pgn::WarningKind::ALL;
    let codes: BTreeSet<&str> = kinds.iter().map(|k| k.code()).collect();
    assert_eq!(codes.len(), kinds.len(), "two kinds share a code");
    for code in &codes {
        assert!(known.contains(code), "{code} not in the table");
    }
    assert!(!known.contains("xiangqi.tolerated"));
    let head = "[Game \"Chinese Chess\"]\n";
    let cases = [
        ("[Result \"1-0\"]\n\n1. h2e2 h9g7 0-1\n", "xiangqi.result"),
        ("\n$1 1. h2e2 h9g7 *\n", "xiangqi.nag"),
        ("\n1. h2e2 ) h9g7 *\n", "xiangqi.variation"),
        ("[Format \"WXF\"]\n\n1. h2e2 h9g7 *\n", "xiangqi.format-tag"),
        ("\n1. h3e3 b8e8 *\n", "xiangqi.ranks"),
    ];
    for (text, code) in cases {
        let text = format!("{head}{text}");
        let r = Record::from_bytes(Format::XiangqiPgn, text.as_bytes());
        let got: Vec<&str> = r.warnings().iter().map(|d| d.code).collect();
        assert_eq!(got, [code], "{text:?}: {:?}", r.warnings());
    }
}
