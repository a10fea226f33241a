#![no_main]
//! CTL-PGN files: `ctl_pgn::replay` (read, split, parse, replay every record).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = ctl_pgn::replay("fuzz.ctl-pgn", s, ctl_pgn::Options::default());
});
