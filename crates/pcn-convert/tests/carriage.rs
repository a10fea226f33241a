//! Per format pair: each kind of record information survives PGN → PCN → PGN (every
//! field is carried, so to_pcn never warns), and what a PCN document holds that no
//! record can (the cache, foreign extensions, draw proposals) is reported by from_pcn.
//! Also: documents without any extension (the spec's own examples), other action forms
//! on import, and no panic on scrambled moves.

use pcn_convert::{Warning, cescacs, chess, xiangqi};
use serde_json::{Value, json};

fn through_text(doc: &pcn::Game) -> pcn::Game {
    pcn::from_str(&pcn::to_string(doc)).unwrap()
}

/// The PCN-only parts no record can hold: a cache, a foreign extension, a draw offer.
fn decorate(doc: &mut pcn::Game) {
    doc.cache = Some(pcn::Cache::default());
    doc.extensions.insert("...engine_depth".into(), json!(20));
    doc.status = pcn::Status::TopProposesDraw;
}

fn assert_lossy_warnings(w: &[Warning]) {
    assert!(w.contains(&Warning::DroppedCache), "{w:?}");
    assert!(
        w.contains(&Warning::DroppedExtension("...engine_depth".into())),
        "{w:?}"
    );
    assert!(
        w.contains(&Warning::DrawOffer("top", "XDrawOffer")),
        "{w:?}"
    );
}

const CHESS: &str = r#"[Event "Carriage"]
[Site "?"]
[Date "2024.03.05"]
[Round "1"]
[White "W, A"]
[Black "B, B"]
[Result "0-1"]
[Annotator "someone"]
[FEN "r3k2r/pppq1ppp/8/3Pp3/8/8/PPP2PPP/R3K2R w KQkq e6 0 12"]
[SetUp "1"]

{before the first move} 12. dxe6 $1 {[%clk 0:03:00] [%eval 0.35]} (12. O-O-O O-O {inner} 13. Kb1)
12... Qxe6+ $2 $18 13. Kf1 O-O-O 14. -- Qe2+ 15. Kg1 Qxf2# 0-1 {after the result}"#;

#[test]
fn chess_every_kind_survives() {
    let game = chess_pgn::Games::new(CHESS.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert!(game.errors().next().is_none(), "{:?}", game.diagnostics);
    let (doc, w) = chess::to_pcn(&game).unwrap();
    assert!(w.is_empty());
    let x = &doc.extensions;
    assert!(
        x["...fen"]
            .as_str()
            .unwrap()
            .starts_with("r3k2r/pppq1ppp/8/3Pp3")
    );
    assert!(x.get("...first_to_move").is_none());
    assert_eq!(doc.started_at.as_deref(), Some("2024-03-05T00:00:00"));
    assert_eq!(doc.status, pcn::Status::TopWon);
    // en passant: remove on the victim, then shift; castling: king then rook.
    assert_eq!(
        serde_json::to_value(&doc.previous_moves[0]).unwrap(),
        json!([[27, "remove", 28], [28, "shift", 20]])
    );
    assert_eq!(
        serde_json::to_value(&doc.previous_moves[3]).unwrap(),
        json!([[4, "shift", 2], [0, "shift", 3]])
    );
    let back = chess::from_pcn(&through_text(&doc)).unwrap().0;
    assert!(back.same_content(&game));
    let m = &back.moves.moves;
    assert_eq!(m[0].nags, vec![1]);
    assert_eq!(m[0].clock, Some(180.0));
    assert_eq!(m[0].eval, Some(chess_pgn::Eval::Pawns(0.35)));
    assert_eq!(m[1].nags, vec![2, 18]);
    assert!(m[4].mv.is_none(), "null move kept");
    assert_eq!(
        back.moves.comments,
        vec!["before the first move".to_string()]
    );
    assert_eq!(back.final_comments, vec!["after the result".to_string()]);
    assert!(matches!(&m[0].after[1], chess_pgn::After::Variation(l) if l.moves.len() == 3));
    assert_eq!(back.tag("Annotator"), Some("someone"));
}

#[test]
fn chess_pcn_only_parts_are_reported() {
    let game = chess_pgn::Games::new(CHESS.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let mut doc = chess::to_pcn(&game).unwrap().0;
    decorate(&mut doc);
    let (back, w) = chess::from_pcn(&doc).unwrap();
    assert_lossy_warnings(&w);
    assert_eq!(back.outcome, chess_pgn::Outcome::Unknown);
    assert_eq!(back.tag("XDrawOffer"), Some("top"));
}

#[test]
fn chess_spec_example_without_extensions() {
    let rows = json!([
        ["w:r", "w:n", "w:b", "w:q", "w:k", "w:b", "w:n", "w:r"],
        ["w:p", "w:p", "w:p", "w:p", "w:p", "w:p", "w:p", "w:p"],
        [null, null, null, null, null, null, null, null],
        [null, null, null, null, null, null, null, null],
        [null, null, null, null, null, null, null, null],
        [null, null, null, null, null, null, null, null],
        ["W:P", "W:P", "W:P", "W:P", "W:P", "W:P", "W:P", "W:P"],
        ["W:R", "W:N", "W:B", "W:Q", "W:K", "W:B", "W:N", "W:R"]
    ]);
    // e4, Cartesian e5, a knight named by its square and a bishop by a path of shifts.
    let doc = json!({"topside_player": "Spassky", "bottomside_player": "Fischer",
        "over?": true, "...result?": null, "starting_position": rows,
        "previous_moves": [[[52,"shift",36]], [[[1,4],"shift",[3,4]]], [[62,"shift",45]], [[1,"shift",18]],
                           [[61,"shift",52],[52,"shift",43],[43,"shift",34]]]});
    let doc = pcn::from_value(&doc).unwrap();
    let (g, w) = chess::from_pcn(&doc).unwrap();
    assert!(w.is_empty(), "{w:?}");
    let pgn = chess_pgn::to_pgn_string(&g);
    assert!(pgn.contains("[White \"Fischer\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bc4 1/2-1/2"), "{pgn}");
    // A move no piece can make is refused with its path.
    let bad =
        json!({"over?": false, "starting_position": rows, "previous_moves": [[[52,"shift",28]]]});
    let e = chess::from_pcn(&pcn::from_value(&bad).unwrap()).unwrap_err();
    assert!(e.to_string().starts_with("previous_moves[0]"), "{e}");
}

#[test]
fn xiangqi_every_kind_survives_and_pcn_only_parts_are_reported() {
    let text = "[Game \"Chinese Chess\"]\n[Red \"R\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\
                [FEN \"3k5/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1\"]\n[Format \"ICCS\"]\n\n\
                {start} 1. ... d9e9 $2 {c1} (1. ... d9d8 {c2}) 2. e0d0 ! e9f9 1-0 \n";
    let file = xiangqi_pgn::read_str(text, "t.pgn");
    let g = &file.games[0];
    assert!(g.is_ok(), "{:?}", g.error);
    let (doc, w) = xiangqi::to_pcn(&g.game).unwrap();
    assert!(w.is_empty());
    assert_eq!(doc.extensions["...first_to_move"], json!("top"));
    assert!(doc.extensions.contains_key("...fen"));
    assert_eq!(
        serde_json::to_value(&doc.previous_moves[0]).unwrap(),
        json!([[3, "shift", 4]])
    );
    let (back, w) = xiangqi::from_pcn(&through_text(&doc)).unwrap();
    assert!(w.is_empty());
    assert!(xiangqi::same_game(&back, &g.game));
    let n = &back.line.moves[0];
    assert_eq!(
        (n.nags.clone(), n.comments.clone()),
        (vec!["$2".to_string()], vec!["c1".to_string()])
    );
    assert_eq!(n.variations[0].moves[0].comments, vec!["c2".to_string()]);
    assert_eq!(back.line.leading_comments, vec!["start".to_string()]);
    let mut doc = doc;
    decorate(&mut doc);
    let (back, w) = xiangqi::from_pcn(&doc).unwrap();
    assert_lossy_warnings(&w);
    assert_eq!(back.result, "*");
}

#[test]
fn xiangqi_spec_example_without_extensions() {
    let start = xiangqi_pgn::Game::new(::xiangqi::Position::initial());
    let mut doc = xiangqi::to_pcn(&start).unwrap().0;
    doc.extensions.clear();
    doc.previous_moves = pcn::from_value(&json!({"over?": false,
        "starting_position": serde_json::to_value(&doc.starting_position).unwrap(),
        "previous_moves": [[[70,"shift",67]], [[7,"shift",24]]]}))
    .unwrap()
    .previous_moves;
    let (g, w) = xiangqi::from_pcn(&doc).unwrap();
    assert!(w.is_empty());
    let iccs: Vec<String> = g.moves().map(|m| m.to_iccs()).collect();
    assert_eq!(iccs, ["h2e2", "h9g7"]);
}

const CTL: &str = "[Variant \"C'escacs\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\
{opening} 1. E7-E13 ?!, E21-E15\n{@W: note #1@W}\n.($[1] 1. F8-F12 !?, F20-F16)\n\
2. F8-F12, F20-F16 (=)\n3. E13×F16 !, E15×F12 :\n*\n{after}\n";

#[test]
fn cescacs_every_kind_survives_and_pcn_only_parts_are_reported() {
    let game = ctl_pgn::read_game(CTL).unwrap();
    let (doc, w) = cescacs::to_pcn(&game).unwrap();
    assert!(w.is_empty());
    assert_eq!(doc.extensions["...board_geometry"], json!("cescacs-169"));
    // spec C.4's worked example.
    assert_eq!(
        serde_json::to_value(&doc.previous_moves[..2]).unwrap(),
        json!([[[136, "shift", 91]], [[31, "shift", 76]]])
    );
    let (back, w) = cescacs::from_pcn(&through_text(&doc)).unwrap();
    assert!(w.is_empty());
    assert_eq!(back, game);
    let items = &back.main.items;
    assert!(matches!(&items[0], ctl_pgn::Item::Comment(c) if c.text.contains("opening")));
    assert!(
        items
            .iter()
            .any(|i| matches!(i, ctl_pgn::Item::Variation(v) if v.label == Some(1)))
    );
    assert!(back.main_moves().any(|m| m.draw_offer));
    assert!(back.main_moves().any(|m| m.assessment.is_some()));
    assert!(back.main_moves().last().unwrap().end_mark);
    let mut doc = doc;
    decorate(&mut doc);
    let (back, w) = cescacs::from_pcn(&doc).unwrap();
    assert_lossy_warnings(&w);
    assert!(
        back.tags
            .iter()
            .any(|t| t.name == "XDrawOffer" && t.value == "top")
    );
}

#[test]
fn cescacs_without_extensions_regenerates_the_record() {
    let game = ctl_pgn::read_game(CTL).unwrap();
    let mut doc = cescacs::to_pcn(&game).unwrap().0;
    doc.extensions.clear();
    let (back, w) = cescacs::from_pcn(&doc).unwrap();
    assert!(w.is_empty(), "{w:?}");
    let text = ctl_pgn::write_game(&back, ctl_pgn::Form::Canonical);
    assert!(text.contains("1. E7-E13, E21-E15"), "{text}");
    assert!(text.contains("3. E13×F16, E15×F12"), "{text}");
    // The regenerated record replays to the same position as the original.
    assert_eq!(
        cescacs::final_position(&back).unwrap(),
        cescacs::final_position(&game).unwrap()
    );
}

/// A tiny deterministic generator: enough to scramble coordinates without a dependency.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn scramble(doc: &pcn::Game, rng: &mut Lcg) -> pcn::Game {
    let mut d = doc.clone();
    let squares = d.starting_position.len();
    let verbs = [
        pcn::Verb::Shift,
        pcn::Verb::Remove,
        pcn::Verb::Jump,
        pcn::Verb::Land,
        pcn::Verb::Capture,
    ];
    for m in &mut d.previous_moves {
        if rng.next(3) == 0 {
            for a in &mut m.0 {
                a.subject = pcn::Coord::Flat(rng.next(squares));
                a.object = pcn::Coord::Flat(rng.next(squares));
                a.verb = verbs[rng.next(verbs.len())];
            }
        }
    }
    if let Some(Value::Object(b)) = d.extensions.get_mut("...pgn")
        && rng.next(2) == 0
    {
        b.insert("items".into(), json!([{"ply": 7}, {"variation": {"items": [{"ply": 0, "number": 1, "side": "w", "token": "zz"}], "moves": [[[0, "shift", 1]]]}}]));
        b.insert("annotations".into(), json!([{"ply": 0, "after": [{"variation": {"moves": [[[0, "jump", 1]]]}}], "variations": [1]}]));
    }
    d
}

#[test]
fn scrambled_documents_never_panic() {
    let mut rng = Lcg(7);
    let chess_game = chess_pgn::Games::new(CHESS.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    let chess_doc = chess::to_pcn(&chess_game).unwrap().0;
    let ctl_doc = cescacs::to_pcn(&ctl_pgn::read_game(CTL).unwrap())
        .unwrap()
        .0;
    let xq = xiangqi_pgn::read_str("1. h2e2 h9g7 2. h0g2 i9h9 *\n", "x")
        .games
        .remove(0)
        .game;
    let xq_doc = xiangqi::to_pcn(&xq).unwrap().0;
    let mut outcomes = [0usize; 2];
    for _ in 0..300 {
        outcomes[usize::from(chess::from_pcn(&scramble(&chess_doc, &mut rng)).is_ok())] += 1;
        outcomes[usize::from(cescacs::from_pcn(&scramble(&ctl_doc, &mut rng)).is_ok())] += 1;
        outcomes[usize::from(xiangqi::from_pcn(&scramble(&xq_doc, &mut rng)).is_ok())] += 1;
    }
    // Both outcomes occur: scrambled moves are refused, untouched ones still convert.
    assert!(outcomes[0] > 0 && outcomes[1] > 0, "{outcomes:?}");
}

#[test]
fn chess960_castling_that_swaps_king_and_rook() {
    // King f1, rook g1: O-O puts the king on g1 and the rook on f1.
    let pgn = "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/5KR1 w G - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O Kd7 *\n";
    let game = chess_pgn::Games::new(pgn.as_bytes())
        .next()
        .unwrap()
        .unwrap();
    assert!(game.errors().next().is_none(), "{:?}", game.diagnostics);
    let (doc, _) = chess::to_pcn(&game).unwrap();
    assert_eq!(
        serde_json::to_value(&doc.previous_moves[0]).unwrap(),
        json!([[61, "jump", 62], [62, "shift", 61], [62, "land", 62]])
    );
    let end = pcn::replay(&doc).unwrap();
    assert_eq!(end.board, chess::board_of(&game.final_board()));
    let back = chess::from_pcn(&through_text(&doc)).unwrap().0;
    assert!(back.same_content(&game));
}
