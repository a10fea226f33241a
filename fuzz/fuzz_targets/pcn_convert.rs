#![no_main]
//! PCN documents into game records: `pcn::from_slice`, then `pcn_convert::{cescacs,
//! chess, xiangqi}::from_pcn`, and every game so made back through `to_pcn`.
use libfuzzer_sys::fuzz_target;
use pcn_convert::{cescacs, chess, xiangqi};

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = pcn::from_slice(data) else {
        return;
    };
    if let Ok((g, _)) = cescacs::from_pcn(&doc) {
        let _ = cescacs::to_pcn(&g);
    }
    if let Ok((g, _)) = chess::from_pcn(&doc) {
        let _ = chess::to_pcn(&g);
    }
    if let Ok((g, _)) = xiangqi::from_pcn(&doc) {
        let _ = xiangqi::to_pcn(&g);
    }
});
