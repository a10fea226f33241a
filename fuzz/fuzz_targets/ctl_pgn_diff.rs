#![no_main]
//! The fast CTL-PGN reader against the pest grammar: the same bytes to both must give
//! the same records, diagnostics, models and spans, and the scanner must accept exactly
//! the records pest reads without an error (`ctl_pgn::compare_readers`).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let ctl_pgn::Agreement::Differ(why) = ctl_pgn::compare_readers(s) {
        panic!("the readers disagree: {why}");
    }
});
