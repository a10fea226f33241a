#![no_main]
//! One CTL-AN move token: `MoveText::parse`, then `Position::resolve` on the initial
//! position.
use cescacs_rules::{Letters, Position, an::MoveText};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(t) = MoveText::parse(s, &Letters::default()) {
        let _ = Position::initial().resolve(&t);
    }
});
