//! What the writer cannot lay out or carry as it is comes back as warnings.

use chess_pgn::{After, CastlingStyle, WriteOptions, WriteWarning, parse_all, to_pgn_with};

#[test]
fn a_comment_forcing_a_long_line_is_reported() {
    let mut g = parse_all("1. e4 e5 *").remove(0).unwrap();
    let word = "x".repeat(141);
    g.moves.moves[0].after.push(After::Comment(word.clone()));
    g.moves.moves[1]
        .after
        .push(After::Comment(format!("a {} b", "}y".repeat(50))));
    let w = to_pgn_with(&g, &WriteOptions::default());
    let long: Vec<_> = w
        .warnings
        .iter()
        .filter_map(|x| match x {
            WriteWarning::LongLine { line, len, .. } => Some((*line, *len)),
            _ => None,
        })
        .collect();
    assert_eq!(long.len(), 2, "{:?}\n{}", w.warnings, w.text);
    for (line, len) in long {
        assert_eq!(w.text.lines().nth(line - 1).unwrap().chars().count(), len);
        assert!(len > 80);
    }
    // Within the limit: no warning; a smaller limit: the same text is reported.
    let g = parse_all("1. e4 {a short comment} e5 *").remove(0).unwrap();
    assert!(
        to_pgn_with(&g, &WriteOptions::default())
            .warnings
            .is_empty()
    );
    let narrow = WriteOptions {
        max_line: 6,
        ..WriteOptions::default()
    };
    let w = to_pgn_with(&g, &narrow);
    assert!(
        w.warnings
            .iter()
            .all(|x| matches!(x, WriteWarning::LongLine { .. }))
    );
    assert!(!w.warnings.is_empty(), "{}", w.text);
}

#[test]
fn fen_castling_spelling_is_kept_or_chosen() {
    let x = "[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n1. e4 *";
    let s = "[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1\"]\n1. e4 *";
    for (pgn, kept) in [(x, "KQkq"), (s, "GDgd")] {
        let g = parse_all(pgn).remove(0).unwrap();
        let out = to_pgn_with(&g, &WriteOptions::default()).text;
        assert!(
            out.contains(&format!("NBBRKNRQ b {kept} e3 0 1"))
                || out.contains(&format!("NBBRKNRQ w {kept} - 0 1")),
            "{out}"
        );
        for (style, want) in [
            (CastlingStyle::XFen, "KQkq"),
            (CastlingStyle::Shredder, "GDgd"),
        ] {
            let o = WriteOptions {
                fen_castling: Some(style),
                ..WriteOptions::default()
            };
            let out = to_pgn_with(&g, &o).text;
            assert!(out.contains(&format!("NBBRKNRQ w {want} - 0 1")), "{out}");
        }
    }
    // X-FEN with an inner rook names it by its file.
    let b = chess_pgn::parse_fen("4k3/8/8/8/8/8/8/R2K1R1R w AF - 0 1").unwrap();
    assert_eq!(
        chess_pgn::to_fen(&b, CastlingStyle::XFen),
        "4k3/8/8/8/8/8/8/R2K1R1R w FQ - 0 1"
    );
    assert_eq!(
        chess_pgn::parse_fen("4k3/8/8/8/8/8/8/R2K1R1R w FQ - 0 1").unwrap(),
        b
    );
}
