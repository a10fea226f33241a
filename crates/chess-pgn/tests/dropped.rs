//! What the reader cannot keep is reported, one warning per item: `%` escape lines,
//! the null annotation `$0`, the `e.p.` marker. Everything else of the input survives
//! export (read back and compared).

use chess_pgn::{Severity, parse_all, to_pgn_string};

const GAME: &str = "% escape before the tags
[Event \"E\"]
[Unusual \"x\"]

{lead} 1. e4 $200 {c [%clk 0:01:00]} (1. d4 {v} d5) 1... a6 $0 2. e5 d5
% escape in the movetext
3. exd6 e.p. ; line comment } with a brace
3... exd6 *
";

#[test]
fn escape_lines_null_nags_and_ep_markers_are_reported() {
    let g = parse_all(GAME).remove(0).unwrap();
    let warnings: Vec<String> = g
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| format!("{}:{} {}", d.at.line, d.at.col, d.message))
        .collect();
    assert_eq!(
        warnings,
        [
            "1:1 escape line `% escape before the tags` dropped (the game model has no place for it)",
            "5:61 null annotation $0 dropped",
            "6:1 escape line `% escape in the movetext` dropped (the game model has no place for it)",
            "7:9 en passant marker `e` dropped (the move itself says it)",
        ],
        "{:?}",
        g.diagnostics
    );
    let out = to_pgn_string(&g);
    for kept in [
        "Unusual",
        "{lead}",
        "$200",
        "[%clk 0:01:00]",
        "{v}",
        ";line comment } with a brace",
    ] {
        assert!(out.contains(kept), "{kept} lost:\n{out}");
    }
    let back = parse_all(&out).remove(0).unwrap();
    assert!(back.same_content(&g));
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
}

#[test]
fn a_semicolon_comment_with_line_breaks_stays_one_comment() {
    let mut g = parse_all("1. e4 *\n").remove(0).unwrap();
    g.moves.moves[0]
        .after
        .push(chess_pgn::After::Comment("a } b\nc".into()));
    let out = to_pgn_string(&g);
    let back = parse_all(&out).remove(0).unwrap();
    assert!(back.errors().next().is_none(), "{out}");
    assert_eq!(
        back.moves.moves[0].after,
        [chess_pgn::After::Comment("a } b c".into())]
    );
}

#[test]
fn a_stray_p_is_reported_and_e_p_only_once() {
    let g = parse_all("1. e4 p d5 2. e5 f5 3. exf6 e.p. e Nc6 p *\n")
        .remove(0)
        .unwrap();
    let warnings: Vec<String> = g
        .diagnostics
        .iter()
        .map(|d| format!("{}:{} {}", d.at.line, d.at.col, d.message))
        .collect();
    assert_eq!(
        warnings,
        [
            "1:7 en passant marker `p` dropped (the move itself says it)",
            "1:29 en passant marker `e` dropped (the move itself says it)",
            "1:34 en passant marker `e` dropped (the move itself says it)",
            "1:40 en passant marker `p` dropped (the move itself says it)",
        ]
    );
}
