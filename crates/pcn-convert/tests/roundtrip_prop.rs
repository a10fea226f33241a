//! Property tests: random legal games of the three rules crates (the generators of the
//! format crates' own property tests, included by path) go to PCN, through JSON text
//! (compact and pretty), and back to an equal game model, without warnings; the
//! rules-free PCN replay reaches the rules engine's final position.

#[path = "../../ctl-pgn/tests/random/mod.rs"]
mod cescacs_random;
#[path = "../../chess-pgn/tests/random/mod.rs"]
mod chess_random;
#[path = "../../xiangqi-pgn/tests/random/mod.rs"]
mod xiangqi_random;

use pcn_convert::{cescacs, chess, xiangqi};
use proptest::prelude::*;

/// Compact and pretty JSON text of a document, each read back.
fn through_text(doc: &pcn::Game) -> Result<Vec<pcn::Game>, TestCaseError> {
    [pcn::to_string(doc), pcn::to_string_pretty(doc)]
        .iter()
        .map(|t| pcn::from_str(t).map_err(|e| TestCaseError::fail(format!("{e}\n{t}"))))
        .collect()
}

fn fail(e: impl std::fmt::Display) -> TestCaseError {
    TestCaseError::fail(e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: test_support::proptest_cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// C'escacs: a random record (TLPD starts, comments, assessments, draw offers,
    /// variations) → PCN → record, equal; the PCN replay ends on the engine's position.
    #[test]
    fn cescacs_games_round_trip(
        seed in any::<u64>(),
        prefix in prop_oneof![2 => Just(0usize), 1 => 1usize..60],
        plies in 0usize..80,
        decorate in any::<bool>(),
    ) {
        let generated = cescacs_random::generate(cescacs_random::Spec { seed, prefix, plies, decorate });
        let game = ctl_pgn::read_game(&generated.text).map_err(fail)?;
        let (doc, w) = cescacs::to_pcn(&game).map_err(fail)?;
        prop_assert!(w.is_empty(), "{:?}", w);
        for read in through_text(&doc)? {
            let end = pcn::replay(&read).map_err(fail)?;
            prop_assert_eq!(end.board, cescacs::board_of(&generated.end));
            let (back, w) = cescacs::from_pcn(&read).map_err(fail)?;
            prop_assert!(w.is_empty(), "{:?}", w);
            prop_assert_eq!(&back, &game, "{}", generated.text);
        }
    }

    /// Xiangqi: a random game built in code, and the same game as read from its PGN in
    /// a random notation (with source tokens), → PCN → game, equal.
    #[test]
    fn xiangqi_games_round_trip(
        seed in any::<u64>(),
        prefix in prop_oneof![2 => Just(0usize), 1 => 1usize..60],
        plies in 0usize..80,
        decorate in any::<bool>(),
        notation in prop::sample::select(vec![
            xiangqi_pgn::Notation::Chinese,
            xiangqi_pgn::Notation::Wxf,
            xiangqi_pgn::Notation::Iccs,
        ]),
    ) {
        let built = xiangqi_random::generate(xiangqi_random::Spec {
            seed,
            prefix,
            plies,
            decorate,
            narrow_text: false,
        });
        let text = xiangqi_pgn::write_game(&built, &xiangqi_pgn::MoveStyle::canonical(notation));
        let file = xiangqi_pgn::read_str(&text, "gen");
        prop_assert!(file.games.len() == 1 && file.games[0].is_ok(), "{}", text);
        let read_game = file.games[0].game.clone();
        for game in [built, read_game] {
            let (doc, w) = xiangqi::to_pcn(&game).map_err(fail)?;
            prop_assert!(w.is_empty(), "{:?}", w);
            for read in through_text(&doc)? {
                let end = pcn::replay(&read).map_err(fail)?;
                prop_assert_eq!(end.board, xiangqi::board_of(&game.final_position()));
                let (back, w) = xiangqi::from_pcn(&read).map_err(fail)?;
                prop_assert!(w.is_empty(), "{:?}", w);
                prop_assert!(xiangqi::same_game(&back, &game), "{:?}\n---\n{:?}", back, game);
            }
        }
    }

    /// Classic chess: a random game (standard or Chess960, FEN starts, null moves,
    /// clock and eval comments, NAGs, variations) → PCN → game, same content.
    #[test]
    fn chess_games_round_trip(
        seed in any::<u64>(),
        chess960 in any::<bool>(),
        prefix in prop_oneof![2 => Just(0usize), 1 => 1usize..40],
        plies in 0usize..80,
        decorate in any::<bool>(),
    ) {
        let game = chess_random::generate(chess_random::Spec { seed, chess960, prefix, plies, decorate });
        let (doc, w) = chess::to_pcn(&game).map_err(fail)?;
        prop_assert!(w.is_empty(), "{:?}", w);
        for read in through_text(&doc)? {
            let end = pcn::replay(&read).map_err(fail)?;
            prop_assert_eq!(end.board, chess::board_of(&game.final_board()));
            let (back, w) = chess::from_pcn(&read).map_err(fail)?;
            prop_assert!(w.is_empty(), "{:?}", w);
            prop_assert!(
                back.same_content(&game),
                "{}\n---\n{}",
                chess_pgn::to_pgn_string(&game),
                chess_pgn::to_pgn_string(&back)
            );
        }
    }
}
