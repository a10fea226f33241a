//! Text of tag values and comments: encoding detection and escapes.

use std::borrow::Cow;

/// Decodes tag or comment bytes: UTF-8 when valid, else Windows-1252 (a superset of
/// Latin-1 for printable bytes), as spec §1 prescribes for real-world files.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => {
            let (s, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            s
        }
    }
}

/// Whether raw tag value bytes hold a tab or line break (`\t \n \r \x0b \x0c`),
/// which readers of the value turn into spaces: eight bytes at a time, as a word with
/// no byte below 14 has none of them.
#[inline(always)]
pub fn has_break(value: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let is_break = |b: &u8| matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    // Nonzero exactly when some byte of the word is below 14.
    let low = |w: &[u8; 8]| {
        let x = u64::from_ne_bytes(*w);
        x.wrapping_sub(14 * ONES) & !x & HIGH != 0
    };
    let (words, rest) = value.as_chunks::<8>();
    if words.iter().any(|w| low(w) && w.iter().any(is_break)) {
        return true;
    }
    match value.last_chunk::<8>() {
        // The last eight bytes cover the rest.
        Some(last) if !rest.is_empty() => low(last) && last.iter().any(is_break),
        _ => rest.iter().any(is_break),
    }
}

/// Decodes a raw tag value, resolving `\"` and `\\`.
pub fn tag_value(raw: &[u8], escaped: bool) -> String {
    let s = decode(raw);
    if !escaped {
        return s.into_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) => out.push(n),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Comment text as kept in the model: decoded, whitespace runs collapsed to one
/// space and trimmed, because export re-flows comments into 80-column lines and
/// line breaks inside them cannot survive that anyway.
pub fn comment(raw: &[u8]) -> String {
    // Printable ASCII with single spaces between words (most comments) is its own
    // result: one pass over the bytes instead of a decoding and a split.
    let mut space = true;
    let usual = raw.iter().all(|&b| {
        let ok = (0x21..0x7f).contains(&b) || (b == b' ' && !space);
        space = b == b' ';
        ok
    }) && !space;
    if usual {
        // ASCII: the lossy decoding is the text itself.
        return String::from_utf8_lossy(raw).into_owned();
    }
    let s = decode(raw);
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_and_cp1252_are_decoded() {
        assert_eq!(decode(b"Ren\xe9 \x93x\x94"), "René \u{201c}x\u{201d}");
        assert_eq!(decode("Réti".as_bytes()), "Réti");
        assert_eq!(tag_value(br#"a \"b\" \\ c"#, true), r#"a "b" \ c"#);
        assert_eq!(comment(b"  one\r\n two\t"), "one two");
    }

    #[test]
    fn comment_fast_path_is_the_split() {
        let slow = |b: &[u8]| {
            let s = decode(b);
            s.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        test_support::single_byte_variants(6, b"a \x7f", |v| {
            assert_eq!(comment(v), slow(v), "{v:?}");
        });
        for c in [
            "",
            " ",
            "a",
            "a b",
            " a",
            "a ",
            "a  b",
            "[%clk 0:01:02]",
            "x\u{a0}y",
        ] {
            assert_eq!(comment(c.as_bytes()), slow(c.as_bytes()), "{c:?}");
        }
    }

    #[test]
    fn has_break_is_the_byte_test() {
        let slow = |b: &[u8]| {
            b.iter()
                .any(|b| matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        };
        // Backgrounds near the word test's border (bytes below 14).
        test_support::single_byte_variants(20, b"a\x00\x0d\x0e\x0f\x20\x80\xff", |v| {
            assert_eq!(has_break(v), slow(v), "{v:?}");
        });
    }
}
