#![no_main]
//! The pest reader's two parse modes (one `game` parse per record, and one parse per
//! token, used for records over `ctl_pgn::WHOLE_PARSE_LIMIT`): the same records,
//! diagnostics and models on every input.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let whole = ctl_pgn::read_str_grammar("f", s);
    let tokens = ctl_pgn::read_str_grammar_tokenwise("f", s);
    assert_eq!(whole.len(), tokens.len(), "record count");
    for (w, t) in whole.iter().zip(&tokens) {
        assert_eq!(w.diagnostics, t.diagnostics, "record {}", w.index);
        assert_eq!(format!("{:?}", w.game), format!("{:?}", t.game), "record {}", w.index);
    }
});
