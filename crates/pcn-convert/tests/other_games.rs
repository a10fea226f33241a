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

/// `doc` with `edit` applied to its `...pgn` block (created when absent).
fn edited(mut doc: pcn::Game, edit: impl Fn(&mut serde_json::Map<String, Value>)) -> pcn::Game {
    let block = doc
        .extensions
        .entry(pcn_convert::PGN_KEY.to_string())
        .or_insert_with(|| Value::Object(serde_json::Map::new()))
        .as_object_mut()
        .unwrap();
    edit(block);
    doc
}

fn add_tag(tag: &'static str, value: &'static str) -> impl Fn(&mut serde_json::Map<String, Value>) {
    move |b| {
        let tags = b
            .entry("tags")
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .unwrap();
        tags.push(Value::from(vec![tag, value]));
    }
}

/// The refusal names the key and the game; anything else (a conversion, another error)
/// means the document was read as the converter's own game.
fn assert_refused<T: std::fmt::Debug>(
    got: Result<T, ConvertError>,
    key: &str,
    value: &str,
    what: &str,
) {
    match got {
        Err(e @ ConvertError::UnsupportedVariant { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains(value) && msg.contains(key), "{msg}");
        }
        other => panic!("{what}: [{key} {value:?}] not refused: {other:?}"),
    }
}

/// A xiangqi document carrying a chess or xiangqi-variant tag (issue 26, case 6: "a
/// chess game read as xiangqi", on the PCN door) is refused, as the PGN reader refuses
/// it (`xiangqi_pgn::names_another_game`, one rule for both).
#[test]
fn xiangqi_pcn_input_naming_another_game_is_refused() {
    use pcn_convert::xiangqi;
    let game = xiangqi_pgn::read_str("1. h2e2 h9g7 2. h0g2 i9h9 *\n", "x")
        .games
        .remove(0)
        .game;
    let doc = xiangqi::to_pcn(&game).unwrap().0;
    assert!(xiangqi::from_pcn(&doc).is_ok());
    for (tag, value) in [
        ("Game", "Chess"),
        ("Variant", "Manchu"),
        ("variant", "Banqi"),
    ] {
        let got = xiangqi::from_pcn(&edited(doc.clone(), add_tag(tag, value)));
        assert_refused(got, tag, value, "xiangqi");
    }
    let got = xiangqi::from_pcn(&edited(doc.clone(), |b| {
        b.insert("variant".into(), Value::from("manchu"));
    }));
    assert_refused(got, "variant", "manchu", "xiangqi");
    // The names xiangqi files give the game itself are no reason to refuse.
    for (tag, value) in [
        ("Game", "Chinese Chess"),
        ("Game", "Xiangqi"),
        ("Variant", "standard"),
    ] {
        let doc = edited(doc.clone(), add_tag(tag, value));
        assert!(xiangqi::from_pcn(&doc).is_ok(), "[{tag} {value:?}]");
    }
}

/// The same for C'escacs documents (`ctl_pgn::names_another_game`, the CTL-PGN readers'
/// rule): a `Variant` other than `C'escacs` or a `Game` naming another game.
#[test]
fn cescacs_pcn_input_naming_another_game_is_refused() {
    use pcn_convert::cescacs;
    let game = ctl_pgn::read_game("[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15 *\n").unwrap();
    let doc = cescacs::to_pcn(&game).unwrap().0;
    assert!(cescacs::from_pcn(&doc).is_ok());
    for (tag, value) in [
        ("Game", "Chess"),
        ("Variant", "Grand C'escacs"),
        ("Variant", "Xiangqi"),
    ] {
        let got = cescacs::from_pcn(&edited(doc.clone(), add_tag(tag, value)));
        assert_refused(got, tag, value, "C'escacs");
    }
    let got = cescacs::from_pcn(&edited(doc.clone(), |b| {
        b.insert("variant".into(), Value::from("grand"));
    }));
    assert_refused(got, "variant", "grand", "C'escacs");
    for (tag, value) in [("Game", "C'escacs"), ("Game", "?"), ("Variant", "C'escacs")] {
        let doc = edited(doc.clone(), add_tag(tag, value));
        assert!(cescacs::from_pcn(&doc).is_ok(), "[{tag} {value:?}]");
    }
}
