//! What CTL-PGN cannot hold, and how the writer says it anyway.
//!
//! The format has no escape mechanism: the first `}` ends a comment, a tag value ends
//! at the line's end, a tag name is letters, digits and `_`, and a line starting with
//! `[Variant` starts a new record even inside a comment. So that writing then reading
//! gives back the same game whatever the text, the writer spells such characters as
//! `\uXXXX` (four hex digits of the code point, `\UXXXXXXXX` beyond U+FFFF), and the reader ([`decode`],
//! applied by [`crate::read_str`]) turns every such escape of a comment or a tag value
//! back into its character:
//!
//! * in comments: `}`; a `[` first on a line (after spaces); a leading marker-like
//!   `#`, `@` or `:` where it would be read as a comment marker;
//! * in tag values: line breaks (`\n`, `\r`);
//! * everywhere: a `\` followed by `u` or `U` (so that literal text of that form
//!   survives).
//!
//! A tag name that is not letters, digits and `_` cannot be written: its other
//! characters are written as `_` (a loss; [`crate::write_game`] cannot fail).

use crate::model::{Comment, CommentKind, Game, Item, Line};
use std::borrow::Cow;

fn push_escaped(out: &mut String, c: char) {
    use std::fmt::Write as _;
    let n = u32::from(c);
    let _ = if n <= 0xFFFF {
        write!(out, "\\u{n:04X}")
    } else {
        write!(out, "\\U{n:08X}")
    };
}

/// `\` followed by `u` or `U` at byte `i` of `s`.
fn escape_like(s: &str, i: usize) -> bool {
    s.as_bytes().get(i) == Some(&b'\\') && matches!(s.as_bytes().get(i + 1), Some(b'u' | b'U'))
}

/// A comment's text as written after the marker `marker`.
pub(crate) fn comment_text<'a>(text: &'a str, marker: &str) -> Cow<'a, str> {
    let needs = |i: usize, c: char, line_start: bool| -> bool {
        c == '}' || (c == '[' && line_start) || (c == '\\' && escape_like(text, i))
    };
    // Where a marker would be read: the start of a general comment (after spaces).
    let lead = text.len() - text.trim_start_matches([' ', '\t']).len();
    let marker_like = marker.is_empty()
        && (text[lead..].starts_with('#')
            || text[lead..].starts_with(':')
            || ["@W:", "@B:", "@N:"]
                .iter()
                .any(|m| text[lead..].starts_with(m)));
    let mut line_start = true;
    let mut any = marker_like;
    for (i, c) in text.char_indices() {
        if needs(i, c, line_start) {
            any = true;
            break;
        }
        line_start = c == '\n' || (line_start && matches!(c, ' ' | '\t' | '\u{FEFF}'));
    }
    if !any {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut line_start = true;
    for (i, c) in text.char_indices() {
        if needs(i, c, line_start) || (marker_like && i == lead) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
        line_start = c == '\n' || (line_start && matches!(c, ' ' | '\t' | '\u{FEFF}'));
    }
    Cow::Owned(out)
}

/// A tag value as written between the quotes.
pub(crate) fn tag_value(value: &str) -> Cow<'_, str> {
    let needs = |i: usize, c: char| c == '\n' || c == '\r' || (c == '\\' && escape_like(value, i));
    if !value.char_indices().any(|(i, c)| needs(i, c)) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 8);
    for (i, c) in value.char_indices() {
        if needs(i, c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A tag name as written: characters other than letters, digits and `_` become `_`.
pub(crate) fn tag_name(name: &str) -> Cow<'_, str> {
    if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Cow::Borrowed(name);
    }
    if name.is_empty() {
        return Cow::Borrowed("_");
    }
    Cow::Owned(
        name.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect(),
    )
}

/// `text` with every `\uXXXX` (4 hex digits) and `\UXXXXXXXX` (8 hex digits) naming a
/// char replaced by that char; `None` when there is none.
pub fn unescape(text: &str) -> Option<String> {
    let b = text.as_bytes();
    if !b
        .windows(2)
        .any(|w| w[0] == b'\\' && matches!(w[1], b'u' | b'U'))
    {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if b[i] == b'\\' && matches!(b.get(i + 1), Some(b'u' | b'U')) {
            let n = if b[i + 1] == b'u' { 4 } else { 8 };
            let c = text
                .get(i + 2..i + 2 + n)
                .filter(|h| h.bytes().all(|x| x.is_ascii_hexdigit()))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32);
            if let Some(c) = c {
                out.push_str(&text[copied..i]);
                out.push(c);
                i += 2 + n;
                copied = i;
                changed = true;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[copied..]);
    changed.then_some(out)
}

fn decode_comment(c: &mut Comment) {
    if let Some(t) = unescape(&c.text) {
        *c = Comment {
            references: crate::fast::references(&t),
            text: t,
            kind: c.kind,
            span: c.span,
        };
    }
}

fn decode_line(l: &mut Line) {
    for item in &mut l.items {
        match item {
            Item::Comment(c) => decode_comment(c),
            Item::Variation(v) => decode_line(&mut v.line),
            Item::Move(_) => {}
        }
    }
}

/// Turns the writer's `\uXXXX` escapes of tag values and comments back into their
/// characters (see the module documentation).
pub fn decode(g: &mut Game) {
    for t in &mut g.tags {
        if let Some(v) = unescape(&t.value) {
            t.value = v;
        }
    }
    decode_line(&mut g.main);
    for c in &mut g.final_comments {
        decode_comment(c);
    }
}

impl Comment {
    /// A comment of this kind and text, its references found as the reader finds them.
    pub fn new(kind: CommentKind, text: impl Into<String>) -> Comment {
        let text = text.into();
        Comment {
            kind,
            references: crate::fast::references(&text),
            text,
            span: Default::default(),
        }
    }
}
