//! Cleaning a game before it is written: comments, variations, NAGs, clock commands
//! and tags, removed from the game model of any format (`cescacs convert --strip`).
//!
//! Stripping works on the model the game was read into, so the same request means
//! the same thing whatever the target format; the main line, the start position and
//! the result are never touched. Every function here is linear in the size of the game.

use std::borrow::Cow;
use std::fmt;
use std::ops::{BitOr, BitOrAssign};

use serde_json::Value;

/// A set of things to remove from a game before writing it.
///
/// ```
/// use cescacs_convert::Strip;
/// let strip: Strip = "comments,nags".parse().unwrap();
/// assert!(strip.contains(Strip::COMMENTS) && !strip.contains(Strip::TAGS));
/// assert_eq!(strip, Strip::COMMENTS | Strip::NAGS);
/// assert_eq!(strip.to_string(), "comments,nags");
/// assert!("comments,moves".parse::<Strip>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Strip(u8);

impl Strip {
    /// Nothing removed (the default).
    pub const NONE: Strip = Strip(0);
    /// Every comment (before the first move, after moves, after the result). The
    /// `[%clk]`/`[%eval]` values read from comments go with them.
    pub const COMMENTS: Strip = Strip(1);
    /// Every variation (recursive annotation), nested ones included.
    pub const VARIATIONS: Strip = Strip(2);
    /// Every NAG (`$1`) and move assessment glyph (`!`, `?!`, …).
    pub const NAGS: Strip = Strip(4);
    /// The clock commands inside comments, `[%clk …]` and `[%emt …]`; a comment left
    /// empty is dropped, the rest of a comment (an `[%eval]`, words) is kept.
    pub const CLOCK: Strip = Strip(8);
    /// Every tag but the format's required ones (the seven-tag roster, xiangqi's
    /// `Game`/`Red`, C'escacs's `Variant`/`Id`) and those needed to read the game
    /// (`FEN`, `SetUp`, `Variant`, `Format`, `Redefine`, `TLPD`).
    pub const TAGS: Strip = Strip(16);

    const NAMES: [(&'static str, Strip); 5] = [
        ("comments", Strip::COMMENTS),
        ("variations", Strip::VARIATIONS),
        ("nags", Strip::NAGS),
        ("clock", Strip::CLOCK),
        ("tags", Strip::TAGS),
    ];

    /// Whether every item of `other` is in this set.
    pub fn contains(self, other: Strip) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether nothing is to be removed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The names of the items in this set, in the order of the command line's help.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Strip::NAMES
            .into_iter()
            .filter(move |(_, s)| self.contains(*s))
            .map(|(n, _)| n)
    }
}

impl BitOr for Strip {
    type Output = Strip;

    fn bitor(self, rhs: Strip) -> Strip {
        Strip(self.0 | rhs.0)
    }
}

impl BitOrAssign for Strip {
    fn bitor_assign(&mut self, rhs: Strip) {
        self.0 |= rhs.0;
    }
}

impl fmt::Display for Strip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.names().collect();
        f.write_str(&names.join(","))
    }
}

/// An item of a `--strip` list that is not one of the known names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown strip item {0:?}: expected a comma list of comments, variations, nags, clock, tags"
)]
pub struct StripError(pub String);

impl std::str::FromStr for Strip {
    type Err = StripError;

    /// A comma-separated list of `comments`, `variations`, `nags`, `clock`, `tags`
    /// (any case, any order, spaces around items allowed).
    fn from_str(s: &str) -> Result<Strip, StripError> {
        let mut out = Strip::NONE;
        for item in s.split(',').map(str::trim) {
            let (_, one) = Strip::NAMES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(item))
                .ok_or_else(|| StripError(item.to_string()))?;
            out |= *one;
        }
        Ok(out)
    }
}

/// Whether a clock command name: `clk` (clock time left) or `emt` (elapsed move time).
fn is_clock_command(name: &str) -> bool {
    name.eq_ignore_ascii_case("clk") || name.eq_ignore_ascii_case("emt")
}

/// The comment text without its `[%clk …]`/`[%emt …]` commands, or `None` when
/// nothing but white space is left (the comment is then dropped). The white space
/// around a removed command becomes one space between what is kept on both sides;
/// the comment's own leading and trailing white space is kept.
pub(crate) fn without_clock(text: &str) -> Option<Cow<'_, str>> {
    if !text.contains("[%") {
        return Some(Cow::Borrowed(text));
    }
    let core = text.trim();
    let lead = &text[..text.len() - text.trim_start().len()];
    let trail = &text[text.trim_end().len()..];
    let mut kept: Vec<&str> = Vec::new();
    let mut removed = false;
    let (mut rest, mut piece_start) = (core, 0usize);
    // `piece_start` indexes `core`; `rest` is the part of `core` not yet scanned.
    let mut scanned = 0usize;
    while let Some(i) = rest.find("[%") {
        let after = &rest[i + 2..];
        let name_len = after.bytes().take_while(u8::is_ascii_alphanumeric).count();
        if !is_clock_command(&after[..name_len]) {
            scanned += i + 2;
            rest = after;
            continue;
        }
        // No `]` after this one means none after any later one: stop (linear time).
        let Some(close) = after.find(']') else { break };
        let start = scanned + i;
        kept.push(core[piece_start..start].trim());
        removed = true;
        scanned = start + 2 + close + 1;
        piece_start = scanned;
        rest = &core[scanned..];
    }
    if !removed {
        return Some(Cow::Borrowed(text));
    }
    kept.push(core[piece_start..].trim());
    let joined: Vec<&str> = kept.into_iter().filter(|p| !p.is_empty()).collect();
    if joined.is_empty() {
        return None;
    }
    Some(Cow::Owned(format!("{lead}{}{trail}", joined.join(" "))))
}

/// Applies [`without_clock`] to a list of comments, dropping the emptied ones.
fn clock_in_all(comments: &mut Vec<String>) {
    comments.retain_mut(|c| match without_clock(c) {
        None => false,
        Some(Cow::Borrowed(_)) => true,
        Some(Cow::Owned(t)) => {
            *c = t;
            true
        }
    });
}

/// The comments of a list after `strip`.
fn comments(list: &mut Vec<String>, strip: Strip) {
    if strip.contains(Strip::COMMENTS) {
        list.clear();
    } else if strip.contains(Strip::CLOCK) {
        clock_in_all(list);
    }
}

/// Tags every format needs to read a game or requires, whatever the game: the
/// seven-tag roster (with xiangqi's `Red`), the start position and how to read moves.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

fn keep_tag(name: &str, extra: &[&str]) -> bool {
    ROSTER
        .iter()
        .chain(extra)
        .any(|k| k.eq_ignore_ascii_case(name))
}

/// Classic chess: the roster, plus what reading needs (`FEN`, `SetUp`, `Variant`).
const CHESS_TAGS: [&str; 3] = ["FEN", "SetUp", "Variant"];
/// Xiangqi: `Game` and `Red` are required; `FEN`, `Format` and `Variant` (WinBoard
/// exports) say how to read the game.
const XIANGQI_TAGS: [&str; 5] = ["Game", "Red", "FEN", "Format", "Variant"];
/// C'escacs: `Variant` (first, required), `Id` (an illustrative record's key, with
/// its `Annotator`), `Redefine` (the letters of the moves) and the start position.
const CESCACS_TAGS: [&str; 5] = ["Variant", "Id", "Redefine", "TLPD", "PDTL"];

pub(crate) fn chess(game: &mut chess_pgn::Game, strip: Strip) {
    if strip.contains(Strip::TAGS) {
        game.tags.retain(|(n, _)| keep_tag(n, &CHESS_TAGS));
    }
    comments(&mut game.final_comments, strip);
    chess_line(&mut game.moves, strip);
}

fn chess_line(line: &mut chess_pgn::Line, strip: Strip) {
    comments(&mut line.comments, strip);
    for node in &mut line.moves {
        if strip.contains(Strip::NAGS) {
            node.nags.clear();
            node.san.glyph = None;
        }
        if strip.contains(Strip::COMMENTS) {
            // They were read from comments, and go with them.
            node.clock = None;
            node.eval = None;
        } else if strip.contains(Strip::CLOCK) {
            node.clock = None;
        }
        node.after.retain_mut(|a| match a {
            chess_pgn::After::Comment(c) => {
                if strip.contains(Strip::COMMENTS) {
                    return false;
                }
                if strip.contains(Strip::CLOCK) {
                    match without_clock(c) {
                        None => return false,
                        Some(Cow::Owned(t)) => *c = t,
                        Some(Cow::Borrowed(_)) => {}
                    }
                }
                true
            }
            chess_pgn::After::Variation(v) => {
                if strip.contains(Strip::VARIATIONS) {
                    return false;
                }
                chess_line(v, strip);
                true
            }
        });
    }
}

pub(crate) fn xiangqi(game: &mut xiangqi_pgn::Game, strip: Strip) {
    if strip.contains(Strip::TAGS) {
        game.tags.retain(|(n, _)| keep_tag(n, &XIANGQI_TAGS));
    }
    xiangqi_line(&mut game.line, strip);
}

fn xiangqi_line(line: &mut xiangqi_pgn::Line, strip: Strip) {
    comments(&mut line.leading_comments, strip);
    for node in &mut line.moves {
        if strip.contains(Strip::NAGS) {
            node.nags.clear();
        }
        comments(&mut node.comments, strip);
        if strip.contains(Strip::VARIATIONS) {
            node.variations.clear();
        }
        for v in &mut node.variations {
            xiangqi_line(v, strip);
        }
    }
}

pub(crate) fn cescacs(game: &mut ctl_pgn::Game, strip: Strip) {
    if strip.contains(Strip::TAGS) {
        let illustrative = game.tag("Id").is_some();
        game.tags.retain(|t| {
            keep_tag(&t.name, &CESCACS_TAGS)
                || (illustrative && t.name.eq_ignore_ascii_case("Annotator"))
        });
    }
    ctl_comments(&mut game.final_comments, strip);
    cescacs_line(&mut game.main, strip);
}

/// The CTL-PGN comment after `strip`'s clock rule; `false` when it is to be dropped.
fn ctl_comment(c: &mut ctl_pgn::Comment, strip: Strip) -> bool {
    if strip.contains(Strip::COMMENTS) {
        return false;
    }
    if strip.contains(Strip::CLOCK) {
        match without_clock(&c.text) {
            None => return false,
            Some(Cow::Owned(t)) => {
                // The references point into the text: found again in the new one.
                let span = c.span;
                *c = ctl_pgn::Comment::new(c.kind, t);
                c.span = span;
            }
            Some(Cow::Borrowed(_)) => {}
        }
    }
    true
}

fn ctl_comments(list: &mut Vec<ctl_pgn::Comment>, strip: Strip) {
    list.retain_mut(|c| ctl_comment(c, strip));
}

fn cescacs_line(line: &mut ctl_pgn::Line, strip: Strip) {
    line.items.retain_mut(|item| match item {
        ctl_pgn::Item::Move(m) => {
            if strip.contains(Strip::NAGS) {
                m.assessment = None;
            }
            true
        }
        ctl_pgn::Item::Comment(c) => ctl_comment(c, strip),
        ctl_pgn::Item::Variation(v) => {
            if strip.contains(Strip::VARIATIONS) {
                return false;
            }
            cescacs_line(&mut v.line, strip);
            true
        }
    });
}

/// Keys of a PCN `...pgn` block holding comments, variations and NAGs, whatever the
/// game that wrote it (see `pcn-convert`).
const COMMENT_KEYS: [&str; 4] = ["comments", "comment", "game_comment", "termination_comment"];
const VARIATION_KEYS: [&str; 2] = ["variations", "variation"];
const NAG_KEYS: [&str; 2] = ["nags", "glyph"];

/// A PCN document of a board no rules engine plays: its `...pgn` block stripped as
/// JSON (tags filtered, comment/variation/NAG keys removed at any depth, clock
/// commands removed from comment strings).
pub(crate) fn pcn(doc: &mut pcn::Game, strip: Strip) {
    if let Some(Value::Object(block)) = doc.extensions.get_mut("...pgn") {
        pgn_block(block, strip);
    }
}

fn pgn_block(block: &mut serde_json::Map<String, Value>, strip: Strip) {
    if strip.contains(Strip::TAGS)
        && let Some(Value::Array(tags)) = block.get_mut("tags")
    {
        let all: Vec<&str> = CHESS_TAGS
            .iter()
            .chain(&XIANGQI_TAGS)
            .chain(&CESCACS_TAGS)
            .copied()
            .collect();
        tags.retain(|t| {
            t.get(0)
                .and_then(Value::as_str)
                .is_some_and(|n| keep_tag(n, &all))
        });
    }
    for (key, value) in block.iter_mut() {
        if key != "tags" {
            json_strip(value, strip, false);
        }
    }
    block.retain(|k, _| !removed_key(k, strip));
}

fn removed_key(key: &str, strip: Strip) -> bool {
    (strip.contains(Strip::COMMENTS) && COMMENT_KEYS.contains(&key))
        || (strip.contains(Strip::VARIATIONS) && VARIATION_KEYS.contains(&key))
        || (strip.contains(Strip::NAGS) && NAG_KEYS.contains(&key))
}

/// Strips one JSON value; `in_comment`: the value sits under a comment key, so its
/// strings are comment texts.
fn json_strip(value: &mut Value, strip: Strip, in_comment: bool) {
    match value {
        Value::Object(map) => {
            map.retain(|k, _| !removed_key(k, strip));
            for (k, v) in map.iter_mut() {
                json_strip(v, strip, in_comment || COMMENT_KEYS.contains(&k.as_str()));
            }
            if strip.contains(Strip::CLOCK) {
                // A comment emptied of its clock commands goes, key and all.
                map.retain(|k, v| !(COMMENT_KEYS.contains(&k.as_str()) && v.as_str() == Some("")));
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                json_strip(v, strip, in_comment);
            }
            // An entry emptied by the removals (`{"comment": …}` gone) goes too; a
            // comment emptied of its clock commands is dropped.
            items.retain(|v| match v {
                Value::Object(m) => !m.is_empty(),
                Value::String(s) => !(in_comment && s.is_empty()),
                _ => true,
            });
        }
        Value::String(s) if in_comment && strip.contains(Strip::CLOCK) => match without_clock(s) {
            None => s.clear(),
            Some(Cow::Owned(t)) => *s = t,
            Some(Cow::Borrowed(_)) => {}
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_commands_leave_the_rest_of_the_comment() {
        let cases = [
            ("[%clk 0:03:00]", None),
            (" [%clk 0:03:00] ", None),
            ("[%emt 0:00:05][%clk 1:00:00]", None),
            ("[%eval 0.25] [%clk 0:03:00]", Some("[%eval 0.25]")),
            ("good [%clk 0:03:00] move", Some("good move")),
            (" good [%CLK 0:03:00]", Some(" good")),
            ("[%clk 0:03:00]\n[%eval #3]", Some("[%eval #3]")),
            ("no command", Some("no command")),
            ("[%clk unterminated", Some("[%clk unterminated")),
            ("[%clock 1] kept", Some("[%clock 1] kept")),
            ("[%cal Ra1a8] [%clk 0:01:00] x", Some("[%cal Ra1a8] x")),
        ];
        for (text, want) in cases {
            assert_eq!(without_clock(text).as_deref(), want, "{text:?}");
        }
    }

    #[test]
    fn many_unterminated_commands_are_linear() {
        let text = "[%clk ".repeat(200_000);
        assert_eq!(without_clock(&text).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn pcn_blocks_of_unknown_boards() {
        let block = serde_json::json!({
            "tags": [["Event", "e"], ["Opening", "x"], ["Red", "r"], ["Lang", "en"]],
            "game_comment": ["before"],
            "annotations": [
                {"ply": 0, "nags": [1], "comments": ["[%clk 0:01:00] kept words"]},
                {"ply": 1, "comments": ["[%emt 0:00:03]"],
                 "variations": [{"moves": [], "annotations": [{"ply": 0, "comments": ["v"]}]}]},
                {"ply": 2, "after": [{"comment": "[%clk 0:00:59]"}]}
            ],
            "termination_comment": ["after"],
            "result_token": "*"
        });
        let run = |strip: &str| {
            let mut b = block.as_object().unwrap().clone();
            pgn_block(&mut b, strip.parse().unwrap());
            Value::Object(b)
        };
        let tags = run("tags");
        assert_eq!(
            tags["tags"],
            serde_json::json!([["Event", "e"], ["Red", "r"]])
        );
        assert_eq!(tags["annotations"], block["annotations"]);
        let clock = run("clock");
        assert_eq!(
            clock["annotations"][0]["comments"],
            serde_json::json!(["kept words"])
        );
        assert_eq!(clock["annotations"][1]["comments"], serde_json::json!([]));
        assert_eq!(clock["annotations"][2]["after"], serde_json::json!([]));
        assert_eq!(clock["game_comment"], block["game_comment"]);
        let all = run("comments,variations,nags");
        assert_eq!(
            all,
            serde_json::json!({
                "tags": block["tags"],
                "annotations": [{"ply": 0}, {"ply": 1}, {"ply": 2, "after": []}],
                "result_token": "*"
            })
        );
    }

    #[test]
    fn strip_lists() {
        assert_eq!(
            "Comments, variations,NAGS,clock,tags"
                .parse::<Strip>()
                .unwrap(),
            Strip::COMMENTS | Strip::VARIATIONS | Strip::NAGS | Strip::CLOCK | Strip::TAGS
        );
        let err = "comments,".parse::<Strip>().unwrap_err();
        assert_eq!(err, StripError(String::new()));
        assert!(
            err.to_string()
                .contains("comments, variations, nags, clock, tags")
        );
        assert!(Strip::default().is_empty());
    }
}
