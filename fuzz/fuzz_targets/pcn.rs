#![no_main]
//! PCN JSON documents: `pcn::from_slice`, then `pcn::replay` of what was read; whatever
//! is accepted is written and re-read to an equal game (as `pcn/tests/no_panic.rs`
//! asserts).
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = pcn::from_slice(data) {
        let _ = pcn::replay(&g);
        let again = pcn::from_str(&pcn::to_string(&g)).expect("written PCN re-reads");
        assert_eq!(again, g);
    }
});
