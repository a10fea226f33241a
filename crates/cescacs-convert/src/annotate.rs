//! Tags added to every game written (`--eco`, `--plycount`), whether the game is
//! converted (the tags are set on the game model before it is written) or copied as
//! it was by `select` (the tag lines are edited in the game's own bytes, nothing else
//! of it touched).
//!
//! A tag already present with the same name is replaced (its line removed, the new
//! value written after the last tag), so running twice gives the same output. Setting
//! `ECO` replaces the whole classification: `Opening`, `Variation` and `SubVariation`
//! lines go too, even when the new opening has no variation. A game the table does not
//! name keeps the classification it had.
//!
//! ```
//! use cescacs_convert::{Annotate, Format, Record};
//!
//! let pgn = b"[White \"a\"]\n[PlyCount \"1\"]\n\n1. e4 e5 2. Nf3 *\n";
//! let record = Record::from_bytes(Format::Pgn, pgn);
//! let annotate = Annotate { eco: true, plycount: true };
//! let tags = annotate.tags(&record);
//! let text = cescacs_convert::set_tag_lines(pgn, &tags);
//! assert_eq!(
//!     String::from_utf8(text).unwrap(),
//!     "[White \"a\"]\n[PlyCount \"3\"]\n[ECO \"C40\"]\n[Opening \"King's Knight Opening\"]\n\n1. e4 e5 2. Nf3 *\n"
//! );
//! ```

use crate::record::{Game, Record};

/// Which tags are added to each game written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Annotate {
    /// `ECO`, `Opening` and `Variation` of a chess game from the openings table
    /// ([`crate::game_opening`]); a game the table does not name gets none (and keeps
    /// its own, if any).
    pub eco: bool,
    /// `PlyCount`: the half-moves of the main line, in every game.
    pub plycount: bool,
}

impl Annotate {
    /// Whether no tag is asked for.
    pub fn is_empty(&self) -> bool {
        *self == Annotate::default()
    }

    /// The tags to set on this game, in the order they are written.
    pub fn tags(&self, record: &Record) -> Vec<(String, String)> {
        let mut tags = Vec::new();
        if record.game().is_none() {
            return tags;
        }
        if self.plycount {
            tags.push(("PlyCount".to_string(), record.plies().to_string()));
        }
        if self.eco
            && let Some(opening) = crate::record_opening(record)
        {
            tags.extend(opening.tags());
        }
        tags
    }

    /// Sets this game's tags on its model (a no-op for a game that could not be read).
    pub(crate) fn apply(&self, record: &mut Record) {
        if self.is_empty() {
            return;
        }
        let tags = self.tags(record);
        if tags.is_empty() {
            return;
        }
        let gone = replaced(&tags);
        let set = |list: &mut Vec<(String, String)>| {
            list.retain(|(n, _)| !gone.contains(&n.as_str()));
            list.extend(tags.iter().cloned());
        };
        match &mut record.game {
            Some(Game::Chess(g)) => set(&mut g.tags),
            Some(Game::Xiangqi(g)) => set(&mut g.tags),
            Some(Game::Cescacs { record: r, .. }) => {
                r.tags.retain(|t| !gone.contains(&t.name.as_str()));
                r.tags.extend(tags.iter().map(|(name, value)| ctl_pgn::Tag {
                    name: name.clone(),
                    value: value.clone(),
                    span: Default::default(),
                }));
            }
            // A board no rules engine plays has no tags to set (and no opening).
            Some(Game::Pcn(_)) | None => return,
        }
        // A PCN input written back as PCN is written from the model now, tags and all.
        record.source_pcn = None;
    }
}

/// The tag names whose lines setting `tags` removes: their own, and with `ECO` the
/// rest of the classification it replaces.
fn replaced(tags: &[(String, String)]) -> Vec<&str> {
    let mut names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
    if names.contains(&"ECO") {
        names.extend(["Opening", "Variation", "SubVariation"]);
    }
    names
}

/// A game's text (PGN, xiangqi PGN or CTL-PGN) with these tags set: a tag line of the
/// same name is removed (with `ECO`, the `Opening`, `Variation` and `SubVariation`
/// lines too), and the new lines go after the last tag line of the tag
/// section (before the movetext when there is none), with the game's own line ending.
/// Values are written with `\` and `"` escaped.
pub fn set_tag_lines(bytes: &[u8], tags: &[(String, String)]) -> Vec<u8> {
    if tags.is_empty() {
        return bytes.to_vec();
    }
    let section = crate::select::tag_section(bytes);
    let crlf = section.windows(2).any(|w| w == b"\r\n")
        || (section.is_empty() && bytes.windows(2).any(|w| w == b"\r\n"));
    let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    let gone = replaced(tags);
    let mut out = Vec::with_capacity(bytes.len() + 64 * tags.len());
    // Up to the end of the last tag line, the lines of replaced tags left out.
    let mut last_tag_end = 0;
    let mut at = 0;
    for line in section.split_inclusive(|&b| b == b'\n') {
        let body = line.trim_ascii_start();
        let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
        if body.starts_with(b"[") {
            last_tag_end = at + line.len();
        }
        at += line.len();
    }
    let mut at = 0;
    for line in section[..last_tag_end].split_inclusive(|&b| b == b'\n') {
        at += line.len();
        if tag_name(line).is_some_and(|n| gone.iter().any(|t| t.as_bytes() == n)) {
            // A BOM at the start of the game stays.
            if at == line.len() && line.starts_with(b"\xEF\xBB\xBF") {
                out.extend_from_slice(b"\xEF\xBB\xBF");
            }
            continue;
        }
        out.extend_from_slice(line);
    }
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.extend_from_slice(eol);
    }
    for (name, value) in tags {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        for c in value.bytes() {
            if c == b'\\' || c == b'"' {
                out.push(b'\\');
            }
            out.push(c);
        }
        out.extend_from_slice(b"\"]");
        out.extend_from_slice(eol);
    }
    if last_tag_end == 0 {
        // No tag section: the movetext follows after a blank line.
        out.extend_from_slice(eol);
    }
    out.extend_from_slice(&bytes[last_tag_end..]);
    out
}

/// The name of a line holding one tag (`[Name "value"]`), else `None`.
fn tag_name(line: &[u8]) -> Option<&[u8]> {
    let body = line.trim_ascii_start();
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let rest = body.strip_prefix(b"[")?.trim_ascii_start();
    let end = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))?;
    // A line with two tags (`[A "1"] [B "2"]`) is kept as it is.
    let one_tag =
        body.trim_ascii_end().ends_with(b"]") && memchr::memchr_iter(b'[', body).count() == 1;
    (end > 0 && one_tag).then_some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str, tags: &[(&str, &str)]) -> String {
        let tags: Vec<(String, String)> = tags
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        String::from_utf8(set_tag_lines(text.as_bytes(), &tags)).unwrap()
    }

    #[test]
    fn a_new_eco_replaces_the_whole_classification() {
        assert_eq!(
            set(
                "[Opening \"x\"]\n[Variation \"y\"]\n[ECO \"A00\"]\n\n*\n",
                &[
                    ("ECO", "A07"),
                    ("Opening", "King's Indian Attack, with Bf5")
                ]
            ),
            "[ECO \"A07\"]\n[Opening \"King's Indian Attack, with Bf5\"]\n\n*\n"
        );
    }

    #[test]
    fn tag_lines_are_replaced_and_added_after_the_last_tag() {
        assert_eq!(
            set(
                "[A \"1\"]\r\n[ECO \"X\"]\r\n[B \"2\"]\r\n\r\n1. e4 *\r\n",
                &[("ECO", "C20")]
            ),
            "[A \"1\"]\r\n[B \"2\"]\r\n[ECO \"C20\"]\r\n\r\n1. e4 *\r\n"
        );
        assert_eq!(
            set("1. e4 *\n", &[("PlyCount", "1")]),
            "[PlyCount \"1\"]\n\n1. e4 *\n"
        );
        assert_eq!(
            set("[A \"x\"]\n1. e4 *\n", &[("V", "a \"b\" \\")]),
            "[A \"x\"]\n[V \"a \\\"b\\\" \\\\\"]\n1. e4 *\n"
        );
        // Only whole tag lines of that name go: a longer name, or two tags on a line, stay.
        assert_eq!(
            set(
                "[ECOx \"1\"]\n[ECO \"1\"] [Y \"2\"]\n\n*\n",
                &[("ECO", "A00")]
            ),
            "[ECOx \"1\"]\n[ECO \"1\"] [Y \"2\"]\n[ECO \"A00\"]\n\n*\n"
        );
    }
}
