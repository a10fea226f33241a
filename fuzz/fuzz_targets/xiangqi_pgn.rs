#![no_main]
//! Xiangqi PGN in any encoding: `xiangqi_pgn::read_bytes`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = xiangqi_pgn::read_bytes(data, "fuzz.pgn");
});
