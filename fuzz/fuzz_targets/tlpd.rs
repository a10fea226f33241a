#![no_main]
//! TLPD/PDTL position strings: `cescacs_tlpd::parse`; a parsed position writes, reads
//! back and writes the same text again (as `cescacs-tlpd/tests/no_panic.rs` asserts),
//! and its legal moves are generated.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = cescacs_tlpd::parse(s) {
        let w = cescacs_tlpd::write(&p);
        let again = cescacs_tlpd::parse(&w).expect("written TLPD reads back");
        assert_eq!(cescacs_tlpd::write(&again), w);
        let _ = p.legal_moves();
    }
});
