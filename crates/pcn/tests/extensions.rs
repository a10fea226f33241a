//! Extension keys (`...name`) survive a read/write cycle, wherever they appear.

use serde_json::json;

#[test]
fn extensions_are_kept_in_order_and_written_after_the_seed_keys() {
    let text = r#"{"...pcn_edition":"seed-2012","over?":true,"...result?":null,
        "starting_position":[["w:k",null],[null,"W:K"]],
        "...first_to_move":"top",
        "previous_moves":[[[0,"shift",1,{"...clock":"0:05","promotion":"w:q"}]]],
        "...cache":{"...engine":{"depth":3},"current_position":[[null,"w:q"],[null,"W:K"]]},
        "...pgn":{"tags":[["Event","Test"],["Event","Dup tag kept"]],"annotations":[]}}"#;
    let g = pcn::from_str(text).unwrap();
    let keys: Vec<&str> = g.extensions.keys().map(String::as_str).collect();
    assert_eq!(keys, ["...pcn_edition", "...first_to_move", "...pgn"]);
    assert_eq!(g.extensions["...pgn"]["tags"][1][1], json!("Dup tag kept"));
    let opts = g.previous_moves[0].0[0].options.as_ref().unwrap();
    assert_eq!(opts.extensions["...clock"], json!("0:05"));
    let cache = g.cache.as_ref().unwrap();
    assert_eq!(cache.other["...engine"], json!({"depth": 3}));

    let out = pcn::to_string(&g);
    assert_eq!(
        out,
        concat!(
            r#"{"over?":true,"...result?":null,"starting_position":[["w:k",null],[null,"W:K"]],"#,
            r#""previous_moves":[[[0,"shift",1,{"promotion":"w:q","...clock":"0:05"}]]],"#,
            r#""...cache":{"current_position":[[null,"w:q"],[null,"W:K"]],"...engine":{"depth":3}},"#,
            r#""...pcn_edition":"seed-2012","...first_to_move":"top","#,
            r#""...pgn":{"tags":[["Event","Test"],["Event","Dup tag kept"]],"annotations":[]}}"#
        )
    );
    // Normalised once, the output is a fixed point.
    let again = pcn::from_str(&out).unwrap();
    assert_eq!(again, g);
    assert_eq!(pcn::to_string(&again), out);
    // The replay agrees with the cache (promotion to w:q on square 1).
    let end = pcn::replay(&g).unwrap();
    assert_eq!(Some(&end.board), cache.current_position.as_ref());
    assert_eq!(end.board.pieces().count(), 2);
}

#[test]
fn absent_result_is_written_as_null() {
    let g =
        pcn::from_str(r#"{"over?":false,"starting_position":[null],"previous_moves":[]}"#).unwrap();
    assert_eq!(g.status, pcn::Status::InProgress);
    assert_eq!(
        pcn::to_string(&g),
        r#"{"over?":false,"...result?":null,"starting_position":[null],"previous_moves":[]}"#
    );
}

#[test]
fn status_table_of_a5() {
    use pcn::Status::*;
    let table = [
        (false, Some(false), TopProposesDraw),
        (false, Some(true), BottomProposesDraw),
        (false, None, InProgress),
        (true, Some(false), TopWon),
        (true, Some(true), BottomWon),
        (true, None, Draw),
    ];
    for (over, result, status) in table {
        let r = match result {
            None => "null".to_owned(),
            Some(b) => b.to_string(),
        };
        let text = format!(
            r#"{{"over?":{over},"...result?":{r},"starting_position":[null],"previous_moves":[]}}"#
        );
        let g = pcn::from_str(&text).unwrap();
        assert_eq!(g.status, status, "{text}");
        assert_eq!(pcn::to_string(&g), text);
    }
}

#[test]
fn a_typed_extension_block_is_written_as_its_value_would_be() {
    // `write_to_with` streams one more extension from any `Serialize` value: the bytes
    // are those of the document holding that value as a `serde_json::Value`.
    #[derive(serde::Serialize)]
    struct Block<'a> {
        edition: &'a str,
        plies: Vec<u32>,
        note: Option<&'a str>,
    }
    let block = Block {
        edition: "conv-1",
        plies: vec![0, 3],
        note: Some("tab\there \"quoted\""),
    };
    let text = r#"{"over?":false,"...result?":null,"starting_position":[["w:k",null],[null,"W:K"]],
        "previous_moves":[[[0,"shift",1]]],"...first_to_move":"top"}"#;
    let g = pcn::from_str(text).unwrap();
    let mut out = b"prefix".to_vec();
    pcn::write_to_with(&g, "...pgn", &block, &mut out).unwrap();
    let mut with_value = g.clone();
    with_value
        .extensions
        .insert("...pgn".into(), serde_json::to_value(&block).unwrap());
    assert_eq!(
        String::from_utf8(out).unwrap(),
        format!("prefix{}", pcn::to_string(&with_value))
    );

    // A key that is not an extension, or one the document holds, is refused and
    // nothing is written.
    let mut out = b"kept".to_vec();
    let e = pcn::write_to_with(&g, "previous_moves", &block, &mut out).unwrap_err();
    assert!(e.to_string().contains("extension keys start with"), "{e}");
    let e = pcn::write_to_with(&g, "...first_to_move", &block, &mut out).unwrap_err();
    assert!(e.to_string().contains("duplicate key"), "{e}");
    assert_eq!(out, b"kept");
}
