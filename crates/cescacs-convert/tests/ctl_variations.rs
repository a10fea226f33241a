//! C'escacs variations in the move tree hang off the half-move they replace (CTL-PGN,
//! spec §7.7: the first move's number and side name it, which need not be the most
//! recent move), at every depth. The expected trees below are the spec's reading of
//! the two fixtures, written out by hand; every node's position is checked against a
//! replay of its moves from the start by the rules engine.

use cescacs_convert::{Format, MoveTree, Record, move_tree};
use cescacs_rules::an::MoveText;
use cescacs_rules::{Letters, Position};

fn tree_of(name: &str) -> MoveTree {
    let path = format!(
        "{}/../../testdata/ctl-pgn/spec/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap();
    let record = Record::from_bytes(Format::CtlPgn, &bytes);
    assert!(!record.has_errors(), "{name}: {:?}", record.errors());
    move_tree(&record, true).unwrap()
}

/// Each node of the tree (after the root) as the moves from the start to it, in
/// origin-destination cells, children in the tree's order (main continuation first).
fn paths(tree: &MoveTree) -> Vec<String> {
    fn walk(tree: &MoveTree, node: usize, prefix: &str, out: &mut Vec<String>) {
        for child in tree.children(node) {
            let uci = tree.nodes[child].mv.as_ref().unwrap().uci().to_string();
            let path = if prefix.is_empty() {
                uci
            } else {
                format!("{prefix} {uci}")
            };
            assert_eq!(tree.nodes[child].parent, Some(node));
            out.push(path.clone());
            walk(tree, child, &path, out);
        }
    }
    let mut out = Vec::new();
    walk(tree, 0, "", &mut out);
    out
}

/// Replays `line` (CTL-AN, standard letters) from the start: the cells of each move
/// and the TLPD after each.
fn replay(line: &str) -> Vec<(String, String)> {
    let letters = Letters::default();
    let mut p = Position::initial();
    line.split_whitespace()
        .map(|text| {
            let t = MoveText::parse(text, &letters).unwrap();
            let mv = p.resolve(&t).unwrap_or_else(|e| panic!("{text}: {e}")).mv;
            p.play_unchecked(mv);
            (format!("{}{}", mv.from(), mv.to()), cescacs_tlpd::write(&p))
        })
        .collect()
}

/// Checks the tree against the lines the spec reads in the record: every line from
/// the start (main line first, then each variation with the moves it follows), the
/// node paths in the tree's order, and the position at every node.
fn check(tree: &MoveTree, lines: &[&str], expected_paths: &[&str]) {
    assert_eq!(paths(tree), expected_paths);
    for line in lines {
        let mut node = 0;
        for (cells, tlpd) in replay(line) {
            node = tree
                .children(node)
                .find(|&c| tree.nodes[c].mv.as_ref().unwrap().uci() == cells.as_str())
                .unwrap_or_else(|| panic!("{line}: no child {cells}"));
            assert_eq!(tree.nodes[node].position.fen(), tlpd, "{line} at {cells}");
        }
    }
}

#[test]
fn nested_variations_hang_off_the_half_move_they_name() {
    let tree = tree_of("nested-variations.ctl-pgn");
    // ($[1] 2. G7-G13 ...) replaces White's move 2 although Black's move 2 is the most
    // recent; inside it (2. …, F20-F16) and, nested once more, (2. …, D22-D16) each
    // replace Black's move 2 of the line they open in; ($[2] 2. …, G21-G15) replaces
    // the main line's Black move 2.
    let lines = [
        "E7-E13 E21-E15 F8-F12 F20-F16 E13×F16 E15×F12",
        "E7-E13 E21-E15 G7-G13 G21-G15 EG5-G7",
        "E7-E13 E21-E15 G7-G13 F20-F16 EG5-G7",
        "E7-E13 E21-E15 G7-G13 D22-D16",
        "E7-E13 E21-E15 F8-F12 G21-G15",
    ];
    let expected = [
        "E7E13",
        "E7E13 E21E15",
        "E7E13 E21E15 F8F12",
        "E7E13 E21E15 F8F12 F20F16",
        "E7E13 E21E15 F8F12 F20F16 E13F16",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12",
        "E7E13 E21E15 F8F12 G21G15",
        "E7E13 E21E15 G7G13",
        "E7E13 E21E15 G7G13 G21G15",
        "E7E13 E21E15 G7G13 G21G15 G5G7",
        "E7E13 E21E15 G7G13 F20F16",
        "E7E13 E21E15 G7G13 F20F16 G5G7",
        "E7E13 E21E15 G7G13 D22D16",
    ];
    check(&tree, &lines, &expected);
    // Plies count from the start whatever line a move is in.
    let g7 = tree.children(2).nth(1).unwrap();
    let d22 = tree.children(g7).nth(2).unwrap();
    assert_eq!(tree.nodes[d22].mv.as_ref().unwrap().ply, 4);
}

#[test]
fn variations_of_the_first_move_hang_off_the_start() {
    let tree = tree_of("features.ctl-pgn");
    // ($[1] 1. F8-F12 ...) and ($[2] 1. D6-D10) replace White's move 1 (the start
    // position's alternatives); inside the first, (1. …, E21-E15) replaces its Black
    // move 1. `Redefine "A@J, …"` makes the record's A the standard J.
    let lines = [
        "E7-E13 E21-E15 F8-F12 F20-F16 E13×F16 E15×F12 EG5-F8 EG23-F20 G7-G13 F12@@G9 JF6×G9",
        "F8-F12 F20-F16 EG5-F8",
        "F8-F12 E21-E15 G7-G13",
        "D6-D10",
    ];
    let expected = [
        "E7E13",
        "E7E13 E21E15",
        "E7E13 E21E15 F8F12",
        "E7E13 E21E15 F8F12 F20F16",
        "E7E13 E21E15 F8F12 F20F16 E13F16",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12 G5F8",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12 G5F8 G23F20",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12 G5F8 G23F20 G7G13",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12 G5F8 G23F20 G7G13 F12G9",
        "E7E13 E21E15 F8F12 F20F16 E13F16 E15F12 G5F8 G23F20 G7G13 F12G9 F6G9",
        "F8F12",
        "F8F12 F20F16",
        "F8F12 F20F16 G5F8",
        "F8F12 E21E15",
        "F8F12 E21E15 G7G13",
        "D6D10",
    ];
    check(&tree, &lines, &expected);
}

#[test]
fn a_variation_naming_no_move_of_its_line_is_left_out() {
    // (3. …) names a half-move the line has not reached: the reader reports it, the
    // tree keeps the rest.
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n(3. …, F20-F16)\n2. F8-F12:\n*\n";
    let record = Record::from_bytes(Format::CtlPgn, text.as_bytes());
    assert!(record.has_errors());
    let tree = move_tree(&record, true).unwrap();
    assert_eq!(
        paths(&tree),
        ["E7E13", "E7E13 E21E15", "E7E13 E21E15 F8F12"]
    );
}

/// The record written as CTL-PGN, checked by the grammar-driven (pest) reader, the
/// fast reader and the replay, then read back.
fn written_and_read_back(record: &Record) -> (String, Record) {
    let text = record
        .write(Format::CtlPgn, &cescacs_convert::Options::default())
        .unwrap()
        .text;
    for r in ctl_pgn::read_str_grammar("edited", &text) {
        let errors: Vec<_> = r.diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(r.game.is_some() && errors.is_empty(), "{errors:?}\n{text}");
    }
    assert_eq!(ctl_pgn::compare_readers(&text), ctl_pgn::Agreement::Same);
    let errors: Vec<_> = ctl_pgn::check("edited", &text, Default::default())
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    let back = Record::from_bytes(Format::CtlPgn, text.as_bytes());
    assert!(!back.has_errors(), "{:?}\n{text}", back.errors());
    (text, back)
}

#[test]
fn variations_added_at_any_node_are_written_and_read_back_as_the_same_tree() {
    let path = format!(
        "{}/../../testdata/ctl-pgn/spec/nested-variations.ctl-pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut record = Record::from_bytes(Format::CtlPgn, &std::fs::read(path).unwrap());
    // White's first move of the main line (a variation from the start).
    record.add_variation(1, &["F8-F12", "F20-F16"]).unwrap();
    // A Black move of the main line, after the variations already there.
    record.add_variation(4, &["D22-D16"]).unwrap();
    // A move two variations deep: D22-D16 of (2. …, D22-D16), inside ($[1] 2. …, F20-F16),
    // inside ($[1] 2. G7-G13 …); replaced by H22-H16 from the position before it.
    let tree = move_tree(&record, true).unwrap();
    let deep = (0..tree.nodes.len())
        .find(|&i| paths_to(&tree, i) == "E7E13 E21E15 G7G13 D22D16")
        .unwrap();
    record
        .add_variation_at(deep, &["H22-H16", "EG5-G7"])
        .unwrap();
    // A move of a variation added by an edit (F20-F16 of the first one).
    let tree = move_tree(&record, true).unwrap();
    let added = (0..tree.nodes.len())
        .find(|&i| paths_to(&tree, i) == "F8F12 F20F16")
        .unwrap();
    record.add_variation_at(added, &["E21-E17"]).unwrap();
    let edited = move_tree(&record, true).unwrap();
    let (text, back) = written_and_read_back(&record);
    let tree_back = move_tree(&back, true).unwrap();
    assert_eq!(paths(&tree_back), paths(&edited), "{text}");
    for (a, b) in edited.nodes.iter().zip(&tree_back.nodes) {
        assert_eq!(a.position.fen(), b.position.fen());
        assert_eq!(a.comments, b.comments);
    }
    // What the spec reads in the written text: the lines below, from the start.
    check(
        &tree_back,
        &[
            "E7-E13 E21-E15 F8-F12 F20-F16 E13×F16 E15×F12",
            "F8-F12 F20-F16",
            "F8-F12 E21-E17",
            "E7-E13 E21-E15 F8-F12 D22-D16",
            "E7-E13 E21-E15 G7-G13 H22-H16 EG5-G7",
            "E7-E13 E21-E15 G7-G13 D22-D16",
        ],
        &paths(&edited)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(
        paths(&edited).len(),
        13 + 2 + 1 + 2 + 1,
        "every move added once: {text}"
    );
    // Where the root has two children now: the main line's first and the added one.
    let first: Vec<String> = tree_back
        .children(0)
        .map(|c| tree_back.nodes[c].mv.as_ref().unwrap().uci().to_string())
        .collect();
    assert_eq!(first, ["E7E13", "F8F12"]);
    // An added alternative comes after those already there (the record's ($[2] 2. …,
    // G21-G15) to the main line's Black move 2).
    let after_white_2 = tree_back.main_line().nth(2).unwrap();
    let replies: Vec<String> = tree_back
        .children(after_white_2)
        .map(|c| tree_back.nodes[c].mv.as_ref().unwrap().uci().to_string())
        .collect();
    assert_eq!(replies, ["F20F16", "G21G15", "D22D16"]);
    // The main line is unchanged.
    assert_eq!(back.main_line(), record.main_line());
}

#[test]
fn bad_variations_are_refused_and_leave_the_record_as_it_was() {
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n";
    let mut record = Record::from_bytes(Format::CtlPgn, text.as_bytes());
    let written = |r: &Record| {
        r.write(Format::CtlPgn, &cescacs_convert::Options::default())
            .unwrap()
            .text
    };
    let before = written(&record);
    assert!(matches!(
        record.add_variation(2, &["E7-E11"]),
        Err(cescacs_convert::EditError::BadMove { index: 1, .. })
    ));
    assert!(matches!(
        record.add_variation(1, &["E7-E11", "E7-E9"]),
        Err(cescacs_convert::EditError::BadMove { index: 2, .. })
    ));
    assert!(matches!(
        record.add_variation_at(0, &["E7-E11"]),
        Err(cescacs_convert::EditError::NoSuchNode { node: 0, last: 3 })
    ));
    assert!(matches!(
        record.add_variation_at(4, &["E7-E11"]),
        Err(cescacs_convert::EditError::NoSuchNode { .. })
    ));
    assert_eq!(written(&record), before);
}

/// The moves from the start to node `node`, as in [`paths`].
fn paths_to(tree: &MoveTree, node: usize) -> String {
    let mut cells = Vec::new();
    let mut at = node;
    while let Some(parent) = tree.nodes[at].parent {
        cells.push(tree.nodes[at].mv.as_ref().unwrap().uci().to_string());
        at = parent;
    }
    cells.reverse();
    cells.join(" ")
}
