//! Readers never panic: random byte edits of the sample and random JSON-ish text are
//! either read or rejected with an error; whatever is read also replays or errors.

mod common;
use proptest::prelude::*;

fn sample() -> Vec<u8> {
    std::fs::read(common::testdata("sample-cross-style.pcn.json")).unwrap()
}

fn exercise(bytes: &[u8]) {
    if let Ok(g) = pcn::from_slice(bytes) {
        let _ = pcn::replay(&g);
        let _ = pcn::replay_with(
            &g,
            pcn::ReplayOptions {
                unlimited_reserve: true,
            },
        );
        // Whatever was accepted must be written back in a form that is accepted again.
        let again = pcn::from_str(&pcn::to_string(&g)).expect("written form re-reads");
        assert_eq!(again, g);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn byte_edits_of_the_sample(edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..6)) {
        let mut bytes = sample();
        for (pos, byte, op) in edits {
            let i = pos % (bytes.len() + 1);
            match op {
                0 => bytes.insert(i, byte),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = byte,
                _ => {}
            }
        }
        exercise(&bytes);
    }

    #[test]
    fn token_soup(tokens in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "[", "]", ",", ":", "null", "true", "0", "5", "-1", "1e999", "\"x:s\"", "\"W:K\"",
        "\"shift\"", "\"jump\"", "\"land\"", "\"drop\"", "\"over?\"", "\"starting_position\"",
        "\"previous_moves\"", "\"...cache\"", "\"promotion\"",
    ]), 0..60)) {
        exercise(tokens.concat().as_bytes());
    }
}
