//! Helpers shared by the integration tests.
// Each test binary compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use std::path::PathBuf;

pub fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/pcn")
        .join(rel)
}

/// Removes JSON whitespace outside strings, so "byte for byte modulo whitespace" can be
/// checked with `==`.
pub fn minify(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
        }
    }
    out
}
