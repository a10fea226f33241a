//! A game of a variant or another game is refused, never converted as chess (issue 26,
//! case 6): on the direct PGN→PCN path (a `Game` tag makes it decline to the model
//! path, which refuses the game), and on PCN input (a `...pgn` block whose `variant`
//! or whose `Variant`/`Game` tag names something this converter does not implement).

use chess_pgn::Games;
use pcn_convert::ConvertError;
use pcn_convert::chess::{from_pcn, to_pcn, write_pcn_from_pgn};
use serde_json::Value;

#[test]
fn direct_path_declines_a_game_tagged_for_another_game() {
    let pgn = b"[Event \"e\"]\n[Game \"Xiangqi\"]\n\n1. e4 e5 *\n";
    let mut out = Vec::new();
    assert!(
        !write_pcn_from_pgn(pgn, &mut out),
        "{}",
        String::from_utf8_lossy(&out)
    );
    assert!(out.is_empty());
    // The model path it declines to refuses the game by name.
    assert!(matches!(
        Games::new(&pgn[..]).next().unwrap(),
        Err(chess_pgn::GameError::OtherGame { .. })
    ));
    // A chess `Game` tag is no reason to refuse (the model path converts it).
    let chess = b"[Event \"e\"]\n[Game \"Chess\"]\n\n1. e4 e5 *\n";
    assert!(Games::new(&chess[..]).next().unwrap().is_ok());
}

/// The PCN document of `1. e4 e5`, with `edit` applied to its `...pgn` block.
fn document(edit: impl Fn(&mut serde_json::Map<String, Value>)) -> pcn::Game {
    let game = Games::new(&b"[Event \"e\"]\n\n1. e4 e5 *\n"[..])
        .next()
        .unwrap()
        .unwrap();
    let (mut doc, _) = to_pcn(&game).unwrap();
    let block = doc
        .extensions
        .get_mut(pcn_convert::PGN_KEY)
        .and_then(Value::as_object_mut)
        .unwrap();
    edit(block);
    doc
}

#[test]
fn pcn_input_of_an_unimplemented_variant_is_refused() {
    assert!(from_pcn(&document(|_| {})).is_ok());
    let doc = document(|b| {
        b.insert("variant".into(), Value::from("crazyhouse"));
    });
    match from_pcn(&doc) {
        Err(e @ ConvertError::UnsupportedVariant { .. }) => {
            let msg = e.to_string();
            assert!(
                msg.contains("crazyhouse") && msg.contains("variant"),
                "{msg}"
            );
        }
        other => panic!("read as standard chess: {other:?}"),
    }
    let doc = document(|b| {
        b.insert("variant".into(), Value::from("chess960"));
    });
    assert!(from_pcn(&doc).is_ok());
}

#[test]
fn pcn_input_carrying_another_games_tag_is_refused() {
    for (tag, value) in [
        ("Game", "Xiangqi"),
        ("Variant", "Atomic"),
        ("variant", "Shogi"),
    ] {
        let doc = document(|b| {
            let tags = b.get_mut("tags").and_then(Value::as_array_mut).unwrap();
            tags.push(Value::from(vec![tag, value]));
        });
        match from_pcn(&doc) {
            Err(e @ ConvertError::UnsupportedVariant { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains(value) && msg.contains(tag), "{msg}");
            }
            other => panic!("[{tag} {value:?}] read as chess: {other:?}"),
        }
    }
}
