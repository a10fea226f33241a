//! What the reader cannot keep is reported, one warning per item (`%` escape lines, an
//! annotation before any move); comments holding `}` survive the writer.

use xiangqi_pgn::{MoveStyle, Notation, read_str, write_game};

const GAME: &str = "% escape line
[Format \"ICCS\"]
[MyTag \"v\"]

$3 {lead} 1. h2e2 $1 {c} (1. b2e2 {v}) h9g7 ; has } a brace
2. h0g2 *
";

#[test]
fn escape_lines_and_early_annotations_are_reported() {
    let r = read_str(GAME, "");
    let g = &r.games[0];
    assert!(g.error.is_none(), "{:?}", g.error);
    let warnings: Vec<String> = g
        .warnings
        .iter()
        .map(|w| format!("{}:{} {}", w.line, w.col, w.message))
        .collect();
    assert_eq!(
        warnings,
        [
            "1:1 escape line `% escape line` dropped (the game model has no place for it)",
            "5:1 annotation $3 before any move dropped",
        ]
    );
    for n in [Notation::Chinese, Notation::Wxf, Notation::Iccs] {
        let out = write_game(&g.game, &MoveStyle::canonical(n));
        let back = read_str(&out, "");
        let b = &back.games[0];
        assert!(b.error.is_none() && b.warnings.is_empty(), "{out}");
        assert_eq!(b.game.line.leading_comments, ["lead"]);
        assert_eq!(b.game.line.moves[0].comments, ["c"]);
        assert_eq!(b.game.line.moves[0].nags, ["$1"]);
        assert_eq!(b.game.line.moves[0].variations[0].moves[0].comments, ["v"]);
        assert_eq!(b.game.line.moves[1].comments, ["has } a brace"]);
        assert_eq!(b.game.tag("MyTag"), Some("v"));
    }
}
