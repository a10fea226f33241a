//! A repeated `Variant` tag is one record's repeated tag, never a second record: no
//! tag and no move of the game is lost (issue 26, case 5), in both readers.

const DUPLICATE: &str = "[Variant \"C'escacs\"]\n[Event \"bad\"]\n[Result \"*\"]\n[Variant \"C'escacs\"]\n1. NG3-I13\n*\n";

fn check_one_record(recs: &[ctl_pgn::Record], reader: &str) {
    assert_eq!(
        recs.len(),
        1,
        "{reader}: one record, not split at the second Variant"
    );
    let game = recs[0].game.as_ref().expect("the game is read");
    assert_eq!(game.tag("Event"), Some("bad"), "{reader}: tags kept");
    assert_eq!(game.main_moves().count(), 1, "{reader}: the move kept");
    assert!(
        recs[0]
            .diagnostics
            .iter()
            .any(|d| d.line == 4 && d.message.contains("Variant tag repeated")),
        "{reader}: the repeat is reported: {:?}",
        recs[0].diagnostics
    );
}

#[test]
fn a_repeated_variant_tag_keeps_tags_and_moves() {
    check_one_record(&ctl_pgn::read_str("t", DUPLICATE), "fast");
    check_one_record(&ctl_pgn::read_str_grammar("t", DUPLICATE), "pest");
}

#[test]
fn a_repeated_variant_naming_another_game_is_an_error() {
    let src = DUPLICATE.replacen("[Variant \"C'escacs\"]\n1.", "[Variant \"Chess\"]\n1.", 1);
    for recs in [
        ctl_pgn::read_str("t", &src),
        ctl_pgn::read_str_grammar("t", &src),
    ] {
        assert_eq!(recs.len(), 1);
        assert!(
            recs[0]
                .diagnostics
                .iter()
                .any(|d| d.is_error() && d.message.contains("\"Chess\"")),
            "{:?}",
            recs[0].diagnostics
        );
    }
}

#[test]
fn a_tags_only_record_before_the_next_game_is_still_its_own_record() {
    let src = "[Variant \"C'escacs\"]\n[Event \"a\"]\n\n[Variant \"C'escacs\"]\n[Event \"b\"]\n1. NG3-I13 *\n";
    for recs in [
        ctl_pgn::read_str("t", src),
        ctl_pgn::read_str_grammar("t", src),
    ] {
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].game.as_ref().unwrap().tag("Event"), Some("b"));
    }
}

#[test]
fn the_bad_file_of_the_testdata_keeps_every_game_and_move() {
    let src = include_str!("../../../testdata/bad/ctl-duplicate-variant.ctl-pgn");
    let recs = ctl_pgn::read_str("t", src);
    assert_eq!(recs.len(), 3);
    let moves: usize = recs
        .iter()
        .map(|r| r.game.as_ref().unwrap().main_moves().count())
        .sum();
    assert_eq!(moves, 4 + 1 + 4);
}

/// A `Game` tag naming another game (issue 26, case 6, CTL-PGN door): an error at the
/// tag in both readers, by name; a `Game` tag naming C'escacs is no error.
#[test]
fn a_game_tag_naming_another_game_is_an_error() {
    let src = "[Variant \"C'escacs\"]\n[Game \"Chess\"]\n1. E7-E13, E21-E15\n*\n";
    for (reader, recs) in [
        ("fast", ctl_pgn::read_str("t", src)),
        ("pest", ctl_pgn::read_str_grammar("t", src)),
    ] {
        assert_eq!(recs.len(), 1);
        assert!(
            recs[0]
                .diagnostics
                .iter()
                .any(|d| d.is_error() && d.line == 2 && d.message.contains("\"Chess\"")),
            "{reader}: {:?}",
            recs[0].diagnostics
        );
    }
    let ours = src.replace("[Game \"Chess\"]", "[Game \"C'escacs\"]");
    for recs in [
        ctl_pgn::read_str("t", &ours),
        ctl_pgn::read_str_grammar("t", &ours),
    ] {
        assert!(
            !recs[0].diagnostics.iter().any(|d| d.is_error()),
            "{:?}",
            recs[0].diagnostics
        );
    }
}
