#![no_main]
//! Classic PGN: `chess_pgn::Games::new(bytes)`, fully consumed.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for g in chess_pgn::Games::new(data) {
        let _ = g;
    }
});
