//! Issue 13: bounded memory and linear work on hostile shapes. A game over the node
//! cap keeps its first part and reports a located error; the next game is read
//! whole. Deep nesting, long runs and huge tokens read without trouble. (Timing is
//! measured by `examples/scaling.rs`, not here.)

use chess_pgn::{GameBuilder, Games, MAX_GAME_NODES, MAX_GAME_TAGS, PgnReader};

#[test]
fn game_over_the_node_cap_keeps_its_prefix_and_the_next_game() {
    let n = MAX_GAME_NODES + 10;
    let mut pgn = String::from("1. e4 e5 ");
    pgn.push_str(&"{a} ".repeat(n));
    pgn.push_str("2. Nf3 *\n\n1. d4 *\n");
    let games: Vec<_> = Games::new(pgn.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    let g = &games[0];
    let err = g.first_error().expect("cap reported");
    assert!(err.message.contains("larger than"), "{err}");
    assert_eq!(err.at.line, 1);
    assert_eq!(g.moves.moves.len(), 2, "moves before the cap kept");
    assert_eq!(g.moves.moves[1].after.len(), MAX_GAME_NODES - 2);
    assert!(games[1].errors().next().is_none());
    assert_eq!(games[1].moves.moves.len(), 1);
}

#[test]
fn game_over_the_tag_cap_keeps_its_first_tags_and_the_next_game() {
    // Distinct names (a duplicate would add an `XDuplicate` tag of its own), on lines
    // 1 to n; the error is on the first tag past the cap.
    let n = MAX_GAME_TAGS + 7;
    let mut pgn: String = (0..n).map(|i| format!("[T{i} \"v\"]\n")).collect();
    pgn.push_str("\n1. e4 *\n\n[Event \"next\"]\n1. d4 *\n");
    let games: Vec<_> = Games::new(pgn.as_bytes()).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(g.tags.len(), MAX_GAME_TAGS);
    assert_eq!(g.tags.last().unwrap().0, format!("T{}", MAX_GAME_TAGS - 1));
    let errors: Vec<_> = g.errors().collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("more than"), "{}", errors[0]);
    assert_eq!(errors[0].at.line as usize, MAX_GAME_TAGS + 1);
    assert_eq!(g.moves.moves.len(), 1, "the movetext is read");
    assert!(games[1].errors().next().is_none());
    // When only checking, the same diagnostics.
    let mut reader = PgnReader::new(pgn.as_bytes());
    let checked = reader
        .read_game(&mut GameBuilder::check_only())
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(checked.diagnostics, g.diagnostics);
}

#[test]
fn hostile_shapes_read_as_one_game_each() {
    let n = 100_000;
    let shapes = [
        format!("1. e4 {}{} *", "( e4 ".repeat(n), ")".repeat(n)),
        format!("1. e4 {} *", "(1. d4 d5) ".repeat(n / 10)),
        format!("1. e4 {{{}}} *", "x ".repeat(n)),
        format!("1. e4 {} *", ".".repeat(n)),
        format!("1. e4 {} *", "1... ".repeat(n)),
        format!("1. e4 {} *", "$1 ".repeat(n)),
        format!("1. e4 {} *", "junk ".repeat(n)),
        format!("1. e4 {} *", "(".repeat(n)),
        format!("1. e4 {} *", ")".repeat(n)),
    ];
    for (i, s) in shapes.iter().enumerate() {
        let mut text = s.clone();
        // The next game starts with a tag: without one, an unclosed `(` would hold it.
        text.push_str("\n\n[Event \"next\"]\n1. d4 *\n");
        let games: Vec<_> = Games::new(text.as_bytes()).map(Result::unwrap).collect();
        assert_eq!(games.len(), 2, "shape {i}");
        assert_eq!(games[1].moves.moves.len(), 1, "shape {i}: next game whole");
        // The unparsed rest of a broken game is kept, but bounded.
        for d in &games[0].moves.moves {
            for a in &d.after {
                if let chess_pgn::After::Comment(c) = a {
                    assert!(c.len() <= chess_pgn::MAX_UNPARSED + 1024, "shape {i}");
                }
            }
        }
    }
}

#[test]
fn garbage_costs_no_memory_per_byte() {
    // NUL bytes (as from /dev/zero) and stray words: one diagnostic each, up to the cap.
    let mut pgn = vec![0u8; 50_000];
    pgn.extend_from_slice(b" 1. e4 ");
    pgn.extend(std::iter::repeat_n(&b"junk "[..], 5_000).flatten());
    pgn.extend_from_slice(b"*\n\n[Event \"next\"]\n1. d4 *\n");
    let games: Vec<_> = Games::new(&pgn[..]).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
    let d = &games[0].diagnostics;
    assert_eq!(d.len(), chess_pgn::MAX_DIAGNOSTICS + 1);
    assert!(d.last().unwrap().message.contains("not kept"));
    assert!(games[1].diagnostics.is_empty());
}
