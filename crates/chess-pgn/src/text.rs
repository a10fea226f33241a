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
}
