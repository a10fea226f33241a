#![no_main]
//! Xiangqi FEN: `xiangqi::Position::from_fen`; a parsed position writes a FEN that reads
//! back to the same FEN, and its legal moves are generated.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = xiangqi::Position::from_fen(s) {
        let fen = p.to_fen();
        let again = xiangqi::Position::from_fen(&fen).expect("written FEN reads back");
        assert_eq!(again.to_fen(), fen);
        let _ = p.legal_moves();
    }
});
