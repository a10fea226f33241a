//! Property tests: positions reached by random legal play (`cescacs-rules`' own move
//! generator) survive TLPD write → parse, with the standard letters and with a random
//! `Redefine` letter set, and writing the parsed position gives the same string.

use cescacs_rules::{Letters, PieceKind, Position};
use proptest::prelude::*;

/// A position after up to `plies` random legal moves from the initial one.
fn random_position(seed: u64, plies: usize) -> Position {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = Position::initial();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pos.play_unchecked(moves[(x % moves.len() as u64) as usize]);
    }
    pos
}

/// A `Redefine` value: for each kind with alternatives, none or one of them.
fn redefine() -> impl Strategy<Value = String> {
    let per_kind: Vec<_> = PieceKind::ALL
        .into_iter()
        .filter(|k| !k.redefine_alternatives().is_empty())
        .map(|k| {
            let alts = k.redefine_alternatives().to_vec();
            prop::option::of(prop::sample::select(alts))
                .prop_map(move |a| a.map(|a| format!("{a}@{}", k.standard_letter())))
        })
        .collect();
    per_kind.prop_map(|v| v.into_iter().flatten().collect::<Vec<_>>().join(", "))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: test_support::proptest_cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_positions_round_trip(seed in any::<u64>(), plies in 0usize..160) {
        let p = random_position(seed, plies);
        let s = cescacs_tlpd::write(&p);
        let back = cescacs_tlpd::parse(&s).map_err(|e| TestCaseError::fail(format!("{e}: {s}")))?;
        prop_assert_eq!(&back, &p, "{}", s);
        prop_assert_eq!(cescacs_tlpd::write(&back), s.clone());
        prop_assert_eq!(back.legal_moves().len(), p.legal_moves().len());
    }

    #[test]
    fn random_positions_round_trip_with_redefined_letters(
        seed in any::<u64>(),
        plies in 0usize..160,
        spec in redefine(),
    ) {
        let letters = Letters::redefine(&spec).unwrap();
        let p = random_position(seed, plies);
        let s = cescacs_tlpd::write_with(&p, &letters);
        let back = cescacs_tlpd::parse_with(&s, &letters)
            .map_err(|e| TestCaseError::fail(format!("{e}: {s} ({spec})")))?;
        prop_assert_eq!(&back, &p, "{} ({})", s, spec);
        prop_assert_eq!(cescacs_tlpd::write_with(&back, &letters), s.clone());
        // Only the piece letters differ from the standard form.
        let standard = cescacs_tlpd::write(&p);
        prop_assert_eq!(s.chars().count(), standard.chars().count());
        if spec.is_empty() {
            prop_assert_eq!(s, standard);
        }
    }
}
