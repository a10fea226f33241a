//! PCN → record, per game: the parts of a document no record can hold are reported one
//! warning each (a `started_at` without a tag form, `...` action options, keys of the
//! `...pgn` block and of its entries that the converter does not read, malformed
//! carried values); a plain UTC `started_at` is carried as tags instead.

use pcn_convert::{Warning, cescacs, chess, xiangqi};
use serde_json::{Value, json};

/// Adds every droppable kind to a document made by `to_pcn` (at least one move, and an
/// annotation entry `entry` in the block's list `list`).
fn decorate(doc: &pcn::Game, list: &str) -> pcn::Game {
    let mut v: Value = serde_json::from_str(&pcn::to_string(doc)).unwrap();
    v["started_at"] = json!("2024-01-02T10:00:00.5+02:00");
    v["previous_moves"][0][0]
        .as_array_mut()
        .unwrap()
        .push(json!({"...why": "centre"}));
    v["...pgn"]["extra"] = json!(true);
    let entry = v["...pgn"][list]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e.get("ply") == Some(&json!(0)))
        .unwrap();
    entry["colour"] = json!("red");
    pcn::from_value(&v).unwrap()
}

fn dropped(w: &[Warning]) -> Vec<String> {
    w.iter()
        .filter_map(|w| match w {
            Warning::Dropped(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

fn assert_reported(w: &[Warning]) {
    let d = dropped(w);
    assert_eq!(d.len(), 4, "{w:?}");
    assert!(d.iter().any(|s| s.starts_with("started_at")), "{d:?}");
    assert!(
        d.iter()
            .any(|s| s.starts_with("previous_moves[0][0] option \"...why\"")),
        "{d:?}"
    );
    assert!(
        d.iter().any(|s| s.starts_with("...pgn key \"extra\"")),
        "{d:?}"
    );
    assert!(d.iter().any(|s| s.contains("key \"colour\"")), "{d:?}");
}

#[test]
fn chess_document_parts_are_reported() {
    let g = chess_pgn::parse_all("1. e4 {c} e5 *\n").remove(0).unwrap();
    let (doc, w) = chess::to_pcn(&g).unwrap();
    assert!(w.is_empty());
    let (_, w) = chess::from_pcn(&decorate(&doc, "annotations")).unwrap();
    assert_reported(&w);
}

#[test]
fn xiangqi_document_parts_are_reported() {
    let r = xiangqi_pgn::read_str("[Format \"ICCS\"]\n1. h2e2 {c} h9g7 *\n", "");
    let g = &r.games[0].game;
    let (doc, w) = xiangqi::to_pcn(g).unwrap();
    assert!(w.is_empty());
    let (_, w) = xiangqi::from_pcn(&decorate(&doc, "annotations")).unwrap();
    assert_reported(&w);
}

#[test]
fn cescacs_document_parts_are_reported() {
    let g = ctl_pgn::read_game("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n*\n").unwrap();
    let (doc, w) = cescacs::to_pcn(&g).unwrap();
    assert!(w.is_empty());
    let (_, w) = cescacs::from_pcn(&decorate(&doc, "items")).unwrap();
    assert_reported(&w);
}

#[test]
fn utc_started_at_becomes_tags_in_every_game() {
    let at = |doc: &pcn::Game| {
        let mut d = doc.clone();
        d.started_at = Some("2024-01-02T10:00:00Z".into());
        if let Some(Value::Object(b)) = d.extensions.get_mut("...pgn") {
            b.insert("tags".into(), json!([]));
        }
        d
    };
    let want = [
        ("UTCDate".to_string(), "2024.01.02".to_string()),
        ("UTCTime".to_string(), "10:00:00".to_string()),
    ];
    let g = chess_pgn::parse_all("1. e4 *\n").remove(0).unwrap();
    let (doc, _) = chess::to_pcn(&g).unwrap();
    let (g, w) = chess::from_pcn(&at(&doc)).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(g.tags, want);
    let r = xiangqi_pgn::read_str("1. h2e2 *\n", "");
    let (doc, _) = xiangqi::to_pcn(&r.games[0].game).unwrap();
    let (g, w) = xiangqi::from_pcn(&at(&doc)).unwrap();
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(g.tags, want);
    let g = ctl_pgn::read_game("[Variant \"C'escacs\"]\n1. E7-E13\n*\n").unwrap();
    let (doc, _) = cescacs::to_pcn(&g).unwrap();
    let (g, w) = cescacs::from_pcn(&at(&doc)).unwrap();
    assert!(w.is_empty(), "{w:?}");
    let tags: Vec<(String, String)> = g.tags.into_iter().map(|t| (t.name, t.value)).collect();
    assert_eq!(tags, want);
}
