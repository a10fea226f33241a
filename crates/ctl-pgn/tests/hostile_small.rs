//! The hostile input families of `cargo xtask scaling` at a small size, read through
//! the pest path: each gives the located verdict it must give (the timing ratios
//! between sizes live in `cargo xtask scaling`, not here).

fn first_error(src: &str) -> Option<(u32, u32, String)> {
    let recs = ctl_pgn::read_str("t", src);
    recs.iter()
        .flat_map(|r| &r.diagnostics)
        .find(|d| d.is_error())
        .map(|d| (d.line, d.col, d.message.clone()))
}

#[test]
fn a_run_of_ellipses_is_refused_at_the_second_one() {
    let src = format!("1. {}E7-E13 *\n", "... ".repeat(1000));
    let (line, col, msg) = first_error(&src).unwrap();
    assert_eq!((line, col), (1, 8), "{msg}");
    assert!(
        msg.contains("an ellipsis stands only after a move number"),
        "{msg}"
    );
}

#[test]
fn a_run_of_dots_is_refused_at_the_second_ellipsis() {
    let src = format!("1. {} E7-E13 *\n", ".".repeat(999));
    let (line, col, msg) = first_error(&src).unwrap();
    assert_eq!((line, col), (1, 7), "{msg}");
}

#[test]
fn a_run_of_dots_before_a_number_is_depth_dots() {
    // Depth dots before a move number are still one token, however long the run.
    let src = format!("1. {}5. E7-E13 *\n", "... ".repeat(1000));
    let (_, col, msg) = first_error(&src).unwrap();
    assert_eq!(col, 4, "{msg}");
    assert!(msg.contains("found the move number"), "{msg}");
}

#[test]
fn comments_on_one_line_are_located_by_character() {
    // Columns count characters, not bytes, after a thousand comments on the line.
    let src = format!("{}1. E7-E13 é *\n", "{é} ".repeat(1000));
    let (line, col, _) = first_error(&src).unwrap();
    assert_eq!((line, col), (1, 4000 + 11));
}

#[test]
fn nested_variations_beyond_the_limit_are_one_located_error() {
    let depth = ctl_pgn::MAX_VARIATION_DEPTH + 10;
    let src = format!("1. E7-E13 {}*\n", "( 1. E7-E13 ".repeat(depth));
    let (line, _, msg) = first_error(&src).unwrap();
    assert_eq!(line, 1, "{msg}");
}

/// The one error of the first of two records, which has no model; the second is read.
fn the_one_error<'r>(name: &str, recs: &'r [ctl_pgn::Record]) -> &'r ctl_pgn::Diagnostic {
    assert_eq!(recs.len(), 2, "{name}");
    assert!(recs[0].game.is_none(), "{name}");
    assert!(recs[1].game.is_some(), "{name}: the next record is read");
    let e = errors(&recs[0]);
    assert_eq!(e.len(), 1, "{name}: {e:?}");
    e[0]
}

/// The errors of a record.
fn errors(r: &ctl_pgn::Record) -> Vec<&ctl_pgn::Diagnostic> {
    r.diagnostics.iter().filter(|d| d.is_error()).collect()
}

/// A record of `MAX_GAME_NODES` comments then one more node `extra` (`at` bytes in), then a second
/// record: the first is one located error at `extra`, from both readers, and the second
/// is read.
fn over_the_node_cap(extra: &str, at: u32) {
    let n = ctl_pgn::MAX_GAME_NODES;
    let mut src = String::from("[Variant \"C'escacs\"]\n\n");
    src.push_str(&"{} ".repeat(n));
    src.push_str(extra);
    src.push_str(" *\n\n[Variant \"C'escacs\"]\n\n1. E7-E13 *\n");
    let col = 1 + 3 * n as u32 + at;
    for (name, recs) in [
        ("fast", ctl_pgn::read_str("t", &src)),
        ("pest", ctl_pgn::read_str_grammar("t", &src)),
    ] {
        let e = the_one_error(name, &recs);
        assert_eq!(e.code, ctl_pgn::Code::TooLarge, "{name}");
        assert_eq!((e.line, e.col), (3, col), "{name}: {}", e.message);
        assert!(e.message.contains("200000"), "{}", e.message);
    }
    if let ctl_pgn::Agreement::Differ(why) = ctl_pgn::compare_readers(&src) {
        panic!("fast and pest readers differ: {why}");
    }
}

#[test]
fn a_comment_over_the_node_cap_is_one_located_error() {
    over_the_node_cap("{a}", 0);
}

#[test]
fn a_move_over_the_node_cap_is_one_located_error() {
    over_the_node_cap("1. E7-E13", 3);
}

#[test]
fn a_variation_over_the_node_cap_is_one_located_error() {
    over_the_node_cap("(1. E7-E12)", 0);
}

#[test]
fn a_game_at_the_node_cap_is_read() {
    let n = ctl_pgn::MAX_GAME_NODES;
    let src = format!("[Variant \"C'escacs\"]\n\n{}*\n", "{} ".repeat(n));
    let recs = ctl_pgn::read_str("t", &src);
    assert!(recs[0].game.is_some(), "{:?}", recs[0].diagnostics.first());
}

#[test]
fn over_the_node_cap_the_rest_of_the_record_is_not_read() {
    // A syntax error after the node that crossed the cap does not change the verdict:
    // the rest of a refused record is not read.
    let n = ctl_pgn::MAX_GAME_NODES;
    let src = format!("[Variant \"C'escacs\"]\n\n{}{{a}} E7- *\n", "{} ".repeat(n));
    let recs = ctl_pgn::read_str("t", &src);
    let e = errors(&recs[0]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].code, ctl_pgn::Code::TooLarge);
}

/// A record of `MAX_GAME_TAGS + 2` tags (one a line, the first the `Variant` tag) and
/// then `movetext`, then a second record, read by the fast reader, the pest reader
/// (whole-record parse) and the pest reader one token at a time.
fn over_the_tag_cap(movetext: &str) -> [(&'static str, Vec<ctl_pgn::Record>); 3] {
    let n = ctl_pgn::MAX_GAME_TAGS + 2;
    let mut src = String::from("[Variant \"C'escacs\"]\n");
    src.extend((1..n).map(|i| format!("[T{i} \"v\"]\n")));
    src.push_str(&format!(
        "\n{movetext}\n\n[Variant \"C'escacs\"]\n\n1. E7-E13 *\n"
    ));
    if let ctl_pgn::Agreement::Differ(why) = ctl_pgn::compare_readers(&src) {
        panic!("fast and pest readers differ: {why}");
    }
    [
        ("fast", ctl_pgn::read_str("t", &src)),
        ("pest", ctl_pgn::read_str_grammar("t", &src)),
        ("tokenwise", ctl_pgn::read_str_grammar_tokenwise("t", &src)),
    ]
}

#[test]
fn a_tag_over_the_tag_cap_is_one_located_error() {
    for (name, recs) in over_the_tag_cap("1. E7-E13 *") {
        let e = the_one_error(name, &recs);
        assert_eq!(e.code, ctl_pgn::Code::TooLarge, "{name}");
        let line = ctl_pgn::MAX_GAME_TAGS as u32 + 1;
        assert_eq!((e.line, e.col), (line, 1), "{name}: {}", e.message);
        assert!(e.message.contains("10000 tags"), "{}", e.message);
    }
}

#[test]
fn over_the_tag_cap_a_syntax_error_is_still_the_verdict() {
    // As for any record, in all three: the whole parse fails before any tag is counted.
    for (name, recs) in over_the_tag_cap("1. E7- *") {
        let e = the_one_error(name, &recs);
        assert_eq!(e.code, ctl_pgn::Code::Syntax, "{name}: {}", e.message);
    }
}

#[test]
fn a_game_at_the_tag_cap_is_read() {
    let n = ctl_pgn::MAX_GAME_TAGS;
    let mut src = String::from("[Variant \"C'escacs\"]\n");
    src.extend((1..n).map(|i| format!("[T{i} \"v\"]\n")));
    src.push_str("\n1. E7-E13 *\n");
    for recs in [
        ctl_pgn::read_str("t", &src),
        ctl_pgn::read_str_grammar_tokenwise("t", &src),
    ] {
        let game = recs[0].game.as_ref().expect("read");
        assert_eq!(game.tags.len(), n);
    }
}
