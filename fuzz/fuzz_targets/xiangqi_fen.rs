#![no_main]
//! Xiangqi FEN: `xiangqi::Position::from_fen`; a parsed position writes and reads back.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = xiangqi::Position::from_fen(s) {
        let _ = xiangqi::Position::from_fen(&p.to_fen());
        let _ = p.legal_moves();
    }
});
