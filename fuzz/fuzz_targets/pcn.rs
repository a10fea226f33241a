#![no_main]
//! PCN JSON documents: `pcn::from_slice`, then `pcn::replay` of what was read.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = pcn::from_slice(data) {
        let _ = pcn::replay(&g);
    }
});
