//! The cross-style sample (see testdata/pcn/PROVENANCE.md): parse, byte round trip,
//! and replay against the independently traced `...cache`.

mod common;
use common::{minify, testdata};
use pcn::{Piece, Side, Status, Verb};

fn sample_text() -> String {
    std::fs::read_to_string(testdata("sample-cross-style.pcn.json")).unwrap()
}

#[test]
fn sample_parses_with_the_described_features() {
    let g = pcn::from_str(&sample_text()).unwrap();
    assert_eq!(g.started_at.as_deref(), Some("2012-09-29T18:48:40+02:00"));
    assert_eq!(g.status, Status::InProgress);
    assert_eq!(g.starting_position.shape(), &[9, 9]);
    assert_eq!(g.previous_moves.len(), 12);
    let cannon: Vec<Verb> = g.previous_moves[9].0.iter().map(|a| a.verb).collect();
    assert_eq!(
        cannon,
        [
            Verb::Shift,
            Verb::Shift,
            Verb::Shift,
            Verb::Jump,
            Verb::Land,
            Verb::Capture
        ]
    );
    let drop = &g.previous_moves[8].0[0];
    assert_eq!(drop.verb, Verb::Drop);
    assert_eq!(drop.subject, pcn::Coord::Piece("x:S".parse().unwrap()));
}

#[test]
fn sample_round_trips_byte_for_byte_modulo_whitespace() {
    let text = sample_text();
    let g = pcn::from_str(&text).unwrap();
    assert_eq!(pcn::to_string(&g), minify(&text));
    // The pretty writer is a fixed point after one pass, and reads back equal.
    let pretty = pcn::to_string_pretty(&g);
    assert_eq!(minify(&pretty), minify(&text));
    let again = pcn::from_str(&pretty).unwrap();
    assert_eq!(again, g);
    assert_eq!(pcn::to_string_pretty(&again), pretty);
    // Through serde's own entry points too.
    let via_serde: pcn::Game = serde_json::from_str(&text).unwrap();
    assert_eq!(via_serde, g);
    assert_eq!(serde_json::to_string(&via_serde).unwrap(), minify(&text));
}

#[test]
fn sample_replay_matches_the_cached_current_position_and_hands() {
    let g = pcn::from_str(&sample_text()).unwrap();
    let end = pcn::replay(&g).unwrap();
    let cache = g.cache.as_ref().unwrap();
    let expected = cache.current_position.as_ref().unwrap();
    for (i, (got, want)) in end
        .board
        .squares()
        .iter()
        .zip(expected.squares())
        .enumerate()
    {
        assert_eq!(got, want, "square {i} {:?}", end.board.cartesian_of(i));
    }
    assert_eq!(&end.board, expected);
    let top = cache
        .topside
        .as_ref()
        .unwrap()
        .dropable_pieces
        .as_ref()
        .unwrap();
    let bottom = cache
        .bottomside
        .as_ref()
        .unwrap()
        .dropable_pieces
        .as_ref()
        .unwrap();
    assert_eq!(end.hand(Side::Top), top.as_slice());
    assert_eq!(end.hand(Side::Bottom), bottom.as_slice());
    // Row 4 as the cache shows it: the dropped soldier and the dropped knight.
    let row4: Vec<Option<String>> = (36..45)
        .map(|i| end.board.get(i).map(Piece::to_string))
        .collect();
    let mut want = vec![None; 9];
    want[2] = Some("x:S".to_owned());
    want[8] = Some("S:n".to_owned());
    assert_eq!(row4, want);
}

#[test]
fn each_prefix_of_the_sample_replays() {
    let g = pcn::from_str(&sample_text()).unwrap();
    let mut pos = pcn::Position::new(g.starting_position.clone());
    for mv in &g.previous_moves {
        pos.apply(mv, pcn::ReplayOptions::default()).unwrap();
    }
    // Replaying once more from the end must fail on the first move (58 is now empty).
    let err = pos
        .apply(&g.previous_moves[0], pcn::ReplayOptions::default())
        .unwrap_err();
    assert_eq!(err.0, 0);
    assert_eq!(err.1.to_string(), "no piece on square 58 [6,4]");
}
