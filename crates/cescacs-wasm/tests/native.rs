//! The request/answer convention, natively (the node tests run the same calls on the
//! built module: `cargo xtask wasm --test`).

use cescacs_wasm::call;
use serde_json::{Value, json};

fn ok(request: Value) -> Value {
    let answer: Value = serde_json::from_str(&call(&request.to_string())).unwrap();
    assert!(answer.get("error").is_none(), "{request}: {answer}");
    answer["ok"].clone()
}

fn error(request: Value) -> String {
    let answer: Value = serde_json::from_str(&call(&request.to_string())).unwrap();
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{request}: {answer}"))
        .to_string()
}

fn testdata(p: &str) -> String {
    std::fs::read_to_string(format!("{}/../../testdata/{p}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn perft_and_moves() {
    assert_eq!(ok(json!({"fn": "perft", "args": [3]})), json!(340385));
    assert_eq!(
        ok(json!({"fn": "legalMoves", "args": [null, "chess"]}))
            .as_array()
            .unwrap()
            .len(),
        20
    );
    assert!(error(json!({"fn": "perft", "args": [99]})).contains("depth"));
    assert!(error(json!({"fn": "nope"})).starts_with("unknown function \"nope\""));
    assert!(error(json!({"fn": "play", "args": [null, "Z1-Z2"]})).contains("Z1-Z2"));
    assert!(call("not json").starts_with("{\"error\":\"bad request"));
}

#[test]
fn chess_positions_equal_python_chess() {
    let text = testdata("chess/python-chess/kasparov-deep-blue-1997.pgn");
    let games = ok(json!({"fn": "readGames", "args": [text, null, {"name": "k.pgn"}]}));
    let fens = testdata("chess/replay-each/kasparov-deep-blue-1997.fens");
    let mut expected = std::collections::HashMap::new();
    for line in fens.lines() {
        let (key, fen) = line.split_once(": ").unwrap();
        expected.insert(key.to_string(), fen.to_string());
    }
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 6);
    for (i, g) in games.iter().enumerate() {
        for (k, p) in g["positions"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                p.as_str().unwrap(),
                expected[&format!("{}:{}", i + 1, k + 1)],
                "game {} ply {}",
                i + 1,
                k + 1
            );
        }
    }
}

#[test]
fn errors_are_located_and_other_games_read() {
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E9 E21-E19 2. Z99-Z98 *\n\n[Variant \"C'escacs\"]\n\n1. E7-E9 *\n";
    let games = ok(json!({"fn": "readGames", "args": [text, "ctl-pgn", {"name": "two.ctl-pgn"}]}));
    let errors = games[0]["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].as_str().unwrap().starts_with("two.ctl-pgn:3:"),
        "{errors:?}"
    );
    assert_eq!(games[1]["errors"], json!([]));
    assert_eq!(games[1]["positions"].as_array().unwrap().len(), 1);
}

#[test]
fn convert_round_trip() {
    let text = testdata("ctl-pgn/oracle/game_0001.ctl-pgn");
    let pcn = ok(json!({"fn": "convert", "args": [text, "pcn"]}));
    let pcn = pcn.as_str().unwrap();
    // Framed as `cescacs convert` frames PCN: a JSON array.
    assert!(pcn.starts_with('['), "{pcn}");
    let back = ok(json!({"fn": "convert", "args": [pcn, "ctl-pgn", {"from": "pcn"}]}));
    let a = ok(json!({"fn": "readGames", "args": [back, "ctl-pgn"]}));
    let b = ok(json!({"fn": "readGames", "args": [text]}));
    assert_eq!(a[0]["moves"], b[0]["moves"]);
    assert!(
        error(json!({"fn": "convert", "args": [text, "pcn", {"colour": true}]}))
            .contains("unknown option")
    );
}
