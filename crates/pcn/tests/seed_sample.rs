//! The seed's own sample document, exactly as shipped (tests/data/PROVENANCE.md): read
//! with its abridged cache, replayed, compared with that cache, and converted PCN → PCN.

use pcn::{Coord, Piece, Side, Status, Verb, WarningKind};

const SAMPLE: &str = include_str!("data/seed-sample.pcn.json");

fn p(s: &str) -> Piece {
    s.parse().unwrap()
}

#[test]
fn the_sample_is_read_with_a_warning_for_its_abridged_cache() {
    // The strict part of the document is fine; only the derived cache is abridged.
    let (g, warnings) = pcn::from_slice_with_warnings(SAMPLE.as_bytes()).unwrap();
    let shown: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "...cache.current_position[4][0]: cached value is abridged (\"...\" in place of data); ignored, the moves are replayed instead"
        ]
    );
    assert_eq!(warnings[0].kind, WarningKind::Abridged);
    assert_eq!(g.started_at.as_deref(), Some("2012-09-29T18:48:40+02:00"));
    assert_eq!(g.topside_player.as_deref(), Some("Alice"));
    assert_eq!(g.bottomside_player.as_deref(), Some("Bob"));
    assert_eq!(g.status, Status::BottomWon);
    assert_eq!(g.starting_position.shape(), &[9, 9]);
    assert_eq!(g.previous_moves.len(), 49);
    // The cache parts that are readable are kept.
    let cache = g.cache.as_ref().unwrap();
    assert_eq!(cache.current_position, None);
    assert_eq!(cache.possible_moves.as_deref(), Some(&[][..]));
    // The plain reader accepts it too (and drops the warning).
    assert_eq!(pcn::from_str(SAMPLE).unwrap(), g);
}

#[test]
fn the_sample_replays_to_a_final_position_that_its_cache_does_not_show() {
    let g = pcn::from_str(SAMPLE).unwrap();
    let end = pcn::replay(&g).unwrap();
    // The final board, traced independently with plain list assignments (docs/pcn.md).
    let rows: [[&str; 9]; 9] = [
        ["x:r", "x:h", "x:e", "", "", "x:C", "", "x:h", "x:r"],
        ["", "", "x:a", "", "x:S", "", "", "", ""],
        ["x:c", "", "", "", "", "x:a", "", "", "x:e"],
        ["", "", "", "x:s", "", "", "", "x:s", ""],
        ["S:P", "", "", "", "", "S:P", "", "", ""],
        ["", "x:s", "", "", "", "", "", "S:P", "S:P"],
        ["S:N", "", "S:P", "S:P", "S:P", "", "S:P", "", "S:L"],
        ["S:L", "S:B", "", "", "S:G", "S:S", "S:G", "S:R", ""],
        ["", "", "", "x:S", "", "", "S:K", "S:N", ""],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, want) in row.iter().enumerate() {
            let got = end
                .board
                .get(r * 9 + c)
                .map(Piece::to_string)
                .unwrap_or_default();
            assert_eq!(&got, want, "square [{r},{c}]");
        }
    }
    // Hands: the bottom side holds the top general it took last; the top side holds
    // the silver its cannon took with `capture` (Shōgi-style) at move 26.
    assert_eq!(end.hand(Side::Bottom), [p("x:G")]);
    assert_eq!(end.hand(Side::Top), [p("S:s")]);
    let taken = |s: Side| -> Vec<(String, usize)> {
        end.captures(s)
            .iter()
            .map(|t| (t.piece.to_string(), t.square))
            .collect()
    };
    assert_eq!(
        taken(Side::Bottom),
        [
            ("x:s".to_owned(), 41),
            ("x:c".to_owned(), 74),
            ("x:s".to_owned(), 36),
            ("x:g".to_owned(), 13)
        ]
    );
    assert_eq!(
        taken(Side::Top),
        [("S:S".to_owned(), 74), ("S:P".to_owned(), 46)]
    );
    // Against the cache: the board was dropped as abridged, the hands and the capture
    // lists differ.
    let shown: Vec<String> = pcn::check_cache(&g, &end)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        shown,
        [
            r#"...cache.topside.dropable_pieces: cached value differs from the replay of previous_moves: cache has [], replay gives ["S:s"]"#,
            r#"...cache.topside.captures: cached value differs from the replay of previous_moves: cache has [{"piece":"x:g","from":"S:L"}], replay gives [{"piece":"S:S","from":74},{"piece":"S:P","from":46}]"#,
            r#"...cache.bottomside.dropable_pieces: cached value differs from the replay of previous_moves: cache has [], replay gives ["x:G"]"#,
            r#"...cache.bottomside.captures: cached value differs from the replay of previous_moves: cache has [], replay gives [{"piece":"x:s","from":41},{"piece":"x:c","from":74},{"piece":"x:s","from":36},{"piece":"x:g","from":13}]"#,
        ]
    );
}

#[test]
fn the_sample_alternates_bottom_then_top_and_drops_only_what_it_captured() {
    let g = pcn::from_str(SAMPLE).unwrap();
    let mut pos = pcn::Position::new(g.starting_position.clone());
    for (i, mv) in g.previous_moves.iter().enumerate() {
        let mover = match &mv.0[0].subject {
            Coord::Piece(piece) => piece.side(),
            c => pos.board.get(pos.board.resolve(c).unwrap()).unwrap().side(),
        };
        let expected = if i % 2 == 0 { Side::Bottom } else { Side::Top };
        assert_eq!(mover, expected, "move {}", i + 1);
        // Drops spend a piece that is in hand (no unlimited reserve needed).
        pos.apply(mv, pcn::ReplayOptions::default()).unwrap();
    }
    let drops: Vec<(usize, String)> = g
        .previous_moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.0[0].verb == Verb::Drop)
        .map(|(i, m)| (i + 1, m.0[0].subject.to_string()))
        .collect();
    assert_eq!(
        drops,
        [
            (23, "x:S".to_owned()),
            (33, "x:C".to_owned()),
            (47, "x:S".to_owned())
        ]
    );
}

#[test]
fn pcn_to_pcn_keeps_the_moves_exactly_and_recomputes_the_cache() {
    let original: serde_json::Value = serde_json::from_str(SAMPLE).unwrap();
    let mut g = pcn::from_str(SAMPLE).unwrap();
    let end = pcn::replay(&g).unwrap();
    pcn::recompute_cache(&mut g, &end);
    pcn::validate(&g).unwrap();
    let written = pcn::to_string(&g);
    let back: serde_json::Value = serde_json::from_str(&written).unwrap();
    for key in [
        "starting_position",
        "previous_moves",
        "started_at",
        "topside_player",
        "bottomside_player",
        "over?",
        "...result?",
    ] {
        assert_eq!(back[key], original[key], "{key}");
    }
    // The written cache is the replay's, so reading it back gives no warning at all.
    let (again, warnings) = pcn::from_slice_with_warnings(written.as_bytes()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(pcn::check_cache(&again, &pcn::replay(&again).unwrap()).is_empty());
    assert_eq!(
        again.cache.as_ref().unwrap().current_position.as_ref(),
        Some(&end.board)
    );
}
