//! Property tests: random legal games (cozy-chess's generator, standard and Chess960
//! starts, FEN starts reached by random play, null moves; see `random/`) survive
//! export → import with every annotation, and FENs of random positions survive
//! write → `parse_fen` in both castling spellings.

mod random;

use chess_pgn::{Games, to_pgn_string};
use proptest::prelude::*;
use random::{Rng, Spec, generate, random_board};

fn spec() -> impl Strategy<Value = Spec> {
    (
        any::<u64>(),
        any::<bool>(),
        prop_oneof![2 => Just(0usize), 1 => 1usize..40],
        0usize..80,
        any::<bool>(),
    )
        .prop_map(|(seed, chess960, prefix, plies, decorate)| Spec {
            seed,
            chess960,
            prefix,
            plies,
            decorate,
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: test_support::proptest_cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// import(export(g)) has g's content, without any diagnostic, and exports to the
    /// same text.
    #[test]
    fn export_then_import_is_identity(spec in spec()) {
        let g = generate(spec);
        let text = to_pgn_string(&g);
        let games: Vec<_> = Games::new(text.as_bytes()).collect();
        prop_assert_eq!(games.len(), 1, "{}", text);
        let back = games[0].as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert!(back.diagnostics.is_empty(), "{:?}\n{}", back.diagnostics, text);
        prop_assert!(
            back.same_content(&g),
            "{}\n---\n{}\n{:?}\n---\n{:?}",
            text,
            to_pgn_string(back),
            g.moves,
            back.moves
        );
        prop_assert_eq!(back.final_board(), g.final_board());
        prop_assert_eq!(to_pgn_string(back), text);
    }

    /// FEN (`{}`) and Shredder-FEN (`{:#}`) of positions reached by random play, from
    /// standard and Chess960 starts, read back by `parse_fen` to the same board.
    #[test]
    fn fen_round_trips(seed in any::<u64>(), chess960 in any::<bool>(), plies in 0usize..120) {
        let b = random_board(&mut Rng::new(seed), chess960, plies);
        for fen in [format!("{b}"), format!("{b:#}")] {
            let back = chess_pgn::parse_fen(&fen).map_err(|e| TestCaseError::fail(format!("{e}: {fen}")))?;
            prop_assert_eq!(&back, &b, "{}", fen);
        }
    }
}
