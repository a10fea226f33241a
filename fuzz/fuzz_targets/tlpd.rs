#![no_main]
//! TLPD/PDTL position strings: `cescacs_tlpd::parse`, and a parsed position writes and
//! reads back.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = cescacs_tlpd::parse(s) {
        let w = cescacs_tlpd::write(&p);
        let _ = cescacs_tlpd::parse(&w);
        let _ = p.legal_moves();
    }
});
