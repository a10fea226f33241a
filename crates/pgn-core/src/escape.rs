//! Diagnostics quote their input, and input can hold terminal escapes (ESC sequences
//! retitle or clear a terminal) or bidirectional overrides (they reorder what a reader
//! sees). Every reader passes its messages through [`escape_controls`] so that none of
//! these reaches a terminal or a report as it was.

use std::borrow::Cow;

/// Whether `c` must not be shown as it is: C0 and C1 control characters, DEL, and the
/// Unicode bidirectional embedding, override and isolate marks.
fn unsafe_to_show(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every control character (tab and newline included) and every bidirectional
/// mark written as `\u{hex}`, the form the xiangqi reader's quoted excerpts already use;
/// borrowed when there is nothing to escape. Other text, non-ASCII letters included, is
/// kept as it is.
///
/// ```
/// assert_eq!(pgn_core::escape_controls("a\u{1b}]0;x\u{7}b"), "a\\u{1b}]0;x\\u{7}b");
/// assert_eq!(pgn_core::escape_controls("Füße"), "Füße");
/// ```
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(unsafe_to_show) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_to_show(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn escapes_c0_c1_del_and_bidi_marks() {
        assert_eq!(
            escape_controls("\u{1b}[2J\u{9b}\u{7f}\u{202e}\n"),
            "\\u{1b}[2J\\u{9b}\\u{7f}\\u{202e}\\u{a}"
        );
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(
            escape_controls("1. e4 é"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
