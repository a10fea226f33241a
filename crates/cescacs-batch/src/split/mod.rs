//! Splitting a game-record byte stream into games without parsing them.
//!
//! CTL-PGN, xiangqi PGN and classic PGN share one outer shape: a block of `[Tag "…"]`
//! lines followed by movetext. The splitter knows just enough lexical structure to cut
//! at game boundaries and to survive damage:
//!
//! * a tag line that follows movetext starts a new game;
//! * a result token (`1-0`, `0-1`, `1/2-1/2`, `*`) outside comments and variations ends
//!   a game, so the next line with movetext starts another even with no blank line and
//!   no tags (`e4 e5 *\nd4 d5 *` is two games);
//! * a `[` inside a `{…}` comment, after `;`, or on a `%` line is not a tag — but when a
//!   comment is still open at a line that is plainly a tag line (`[Name "value"]`), or
//!   at a line starting with the move number `1.` right after a result token, the open
//!   comment is taken to be damage: the game is cut there and flagged
//!   ([`Problem::Unclosed`]) so the next games are not swallowed. An open variation is
//!   cut the same way (a tag line, or `1.` after a result) but not flagged: the
//!   format's reader sees the game end inside it and reports it.
//!
//! Memory is bounded by the per-game cap, long lines included: bytes beyond the cap are
//! scanned (so the comment state stays right) but not kept, and a stream with no game
//! boundary within four times the cap ends the input with [`Problem::NoBoundary`].
//!
//! The splitter works on bytes. Single-byte encodings and UTF-8 never use `{ } ( ) [ ;`
//! inside a multi-byte character; Big5 and GBK do (徐 is `AE 7D`, 州 is `A6 7B`), so
//! [`TextEncoding::DoubleByte`] makes the scanner step over lead+trail pairs.

use crate::Framing;
use std::io::{self, BufRead};

mod json;
mod lexer;
mod lines;
mod pgn;
#[cfg(test)]
mod tests;

// The steps' shared helpers, reached by every step through `use super::*`.
use lexer::{columns, is_result, is_strict_tag_line, tags_end};
use lines::{is_blank, plain_lines};

/// How the splitter reads the bytes of a PGN-like input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextEncoding {
    /// UTF-8 or any single-byte encoding (ASCII, Latin-1, CP1251 …).
    #[default]
    Bytes,
    /// A double-byte encoding (Big5, GBK, GB18030): a byte 0x81–0xFE starts a
    /// two-byte character whose second byte may be ASCII punctuation.
    DoubleByte,
    /// Text in this encoding (`--encoding big5`, UTF-16, CP1251 …), decoded to UTF-8
    /// as it is read ([`crate::Input::with_encoding`]) before it reaches the splitter
    /// and the format readers; the splitter then reads UTF-8, as
    /// [`TextEncoding::Bytes`].
    Decode(&'static encoding_rs::Encoding),
    /// Text in a DOS code page (`--encoding cp437`, `cp850`), decoded to UTF-8 as it
    /// is read, like [`TextEncoding::Decode`].
    CodePage(&'static crate::CodePage),
}

impl TextEncoding {
    /// Guesses from the head of an input: invalid UTF-8 whose high bytes pair up as
    /// lead+trail bytes everywhere is double-byte text; anything else (UTF-8, Latin-1,
    /// CP1251, where high bytes stand alone or in odd runs) is [`TextEncoding::Bytes`].
    pub fn detect(head: &[u8]) -> TextEncoding {
        // A character cut by the end of the head must not make valid UTF-8 look invalid.
        match std::str::from_utf8(head) {
            Ok(_) => return TextEncoding::Bytes,
            Err(e) if e.error_len().is_none() => return TextEncoding::Bytes,
            Err(_) => {}
        }
        let (mut pairs, mut bad, mut i) = (0usize, 0usize, 0usize);
        while i < head.len() {
            let b = head[i];
            if (0x81..=0xFE).contains(&b) {
                match head.get(i + 1) {
                    Some(&t) if (0x40..=0xFE).contains(&t) && t != 0x7F => pairs += 1,
                    Some(_) => bad += 1,
                    None => {}
                }
                i += 2;
            } else {
                if b >= 0x80 {
                    bad += 1;
                }
                i += 1;
            }
        }
        if pairs >= 4 && bad * 100 <= pairs {
            TextEncoding::DoubleByte
        } else {
            TextEncoding::Bytes
        }
    }
}

/// What is wrong with a game the splitter had to cut or could not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The game is longer than the per-game cap; only its first bytes are kept.
    Oversized {
        /// The cap, in bytes.
        limit: usize,
    },
    /// No game boundary was found within four times the cap: the rest of the input is
    /// not read (an endless stream, or not a game file at all).
    NoBoundary {
        /// The cap, in bytes.
        limit: usize,
    },
    /// The input could not be read further (a read or decompression error).
    Read {
        /// What failed.
        message: String,
    },
    /// A comment or variation (or, in JSON, a string) was still open where the next
    /// game plainly starts; the game was cut there.
    Unclosed {
        /// What was left open: `{` comment, `(` variation, or `"` JSON string.
        what: char,
        /// 1-based line of the opening character, relative to the game's first line.
        line: u64,
        /// 1-based column (in characters) of the opening character.
        column: u64,
    },
    /// Text after the last game of an input that holds no tag, no move number and no
    /// result (a site's banner, a signature): not a game. Reported as a warning, and
    /// not counted as a game.
    TrailingText,
}

impl Problem {
    /// Where to report the problem, relative to the game, and what to say.
    pub fn describe(&self) -> (u64, u64, String) {
        match self {
            Problem::Oversized { limit } => (
                1,
                1,
                format!("game is larger than the {limit}-byte limit; skipped"),
            ),
            Problem::NoBoundary { limit } => (
                1,
                1,
                format!(
                    "no game boundary within {} bytes: the rest of this input is not read",
                    (*limit as u64).saturating_mul(NO_BOUNDARY_FACTOR)
                ),
            ),
            Problem::Read { message } => (
                1,
                1,
                format!(
                    "read error: {message}; this input is damaged: the rest of it is not read, and the games read before may be damaged too"
                ),
            ),
            Problem::Unclosed { what, line, column } => {
                let kind = match what {
                    '{' => "`{` comment",
                    '(' => "`(` variation",
                    _ => "JSON string",
                };
                (
                    *line,
                    *column,
                    format!(
                        "unclosed {kind}: expected its closing before the next game, found a new game; this game is skipped"
                    ),
                )
            }
            Problem::TrailingText => (
                1,
                1,
                "text after the last game (no tag, move number or result): not a game; skipped"
                    .to_string(),
            ),
        }
    }
}

/// One game's bytes, cut from its file at game boundaries, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based position of the game in its input.
    pub index: usize,
    /// 1-based line number of the game's first byte in its input.
    pub line: u64,
    /// 1-based column of the game's first byte in its line (a JSON array element can
    /// start mid-line; PGN games start at column 1).
    pub column: u64,
    /// Byte offset of the game's first byte in its input.
    pub offset: u64,
    /// The game's bytes, verbatim (line endings and encoding untouched).
    pub bytes: Vec<u8>,
    /// Set when the game was longer than the splitter's limit: `bytes` then holds only
    /// the first `max_game_bytes`, and the game must be reported, not processed.
    pub truncated: bool,
    /// Set when the game must be reported, not processed (damage, size).
    pub problem: Option<Problem>,
}

/// Per-line lexical state of the PGN scanner.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Lexer {
    in_brace: bool,
    in_line_comment: bool,
    depth: u32,
    pending_trail: bool,
    /// Opening of the comment / outermost variation still open: absolute line, column.
    brace_at: (u64, u64),
    paren_at: (u64, u64),
    /// The current token (only short ones matter: results).
    token: [u8; 8],
    token_len: usize,
    token_long: bool,
    /// A result token ended the movetext at depth 0, outside comments.
    after_result: bool,
    /// The last token seen anywhere (comments included) was a result token.
    last_token_result: bool,
    /// A movetext token (not a result, not in a comment) was seen.
    movetext: bool,
    /// Absolute position of the next byte.
    line: u64,
    column: u64,
}

/// A game still going after this many times the cap is no game: the input stops.
const NO_BOUNDARY_FACTOR: u64 = 4;

/// How many bytes of a line are read before it is classified.
const PREFIX: usize = 512;

/// Spare game buffers a splitter keeps at most (a batch's worth of games), and their
/// total capacity at most (two batches' worth of bytes).
const MAX_SPARE: usize = 4096;
const MAX_SPARE_BYTES: usize = 8 << 20;

/// Reads games one at a time from a buffered byte stream; memory use is bounded by the
/// per-game cap, never by the file or by the length of a line.
pub struct GameSplitter<R> {
    reader: R,
    max_game_bytes: usize,
    framing: Framing,
    encoding: TextEncoding,
    /// The first bytes of the current line (up to [`PREFIX`], or the whole line).
    line_buf: Vec<u8>,
    /// Whether `line_buf` holds the line up to its end (terminator included).
    line_complete: bool,
    /// `line_buf` is the first line of the next game, already classified.
    pending: bool,
    pending_is_tag: bool,
    /// Offset of the next unread byte; line of the line in `line_buf`/next line.
    offset: u64,
    next_index: usize,
    lex: Lexer,
    at_start: bool,
    finished: bool,
    json: JsonState,
    /// First capacity of a game's bytes: a little more than the last game's size, so
    /// that a game's buffer is not regrown line by line.
    size_hint: usize,
    /// Whether [`GameSplitter::take_plain_lines`] may take movetext lines in bulk (off
    /// only in the tests that compare it with the line-by-line path).
    bulk: bool,
    /// Buffers of games already handled, given back by [`GameSplitter::recycle`],
    /// and their total capacity.
    spare: Vec<Vec<u8>>,
    spare_bytes: usize,
}

/// State of the JSON record scanner between records.
#[derive(Debug, Default)]
struct JsonState {
    /// Inside the top-level array (its elements are the records).
    in_array: bool,
    started: bool,
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = io::Result<RawGame>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

/// `fill_buf`, retried when interrupted by a signal.
fn fill<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(_) => break,
        }
    }
    reader.fill_buf()
}

/// Whether text could be (part of) a game: a tag line, a move number (`1.`, `12...`)
/// or a result token (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`, C'escacs scores like `3-0`).
fn game_like(bytes: &[u8]) -> bool {
    let tag = bytes
        .split(|&b| b == b'\n')
        .any(|line| trim_start(line).starts_with(b"["));
    let move_number = bytes
        .windows(2)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.');
    let result = bytes.split(|b| b.is_ascii_whitespace()).any(|t| {
        t == b"*"
            || t == "½-½".as_bytes()
            || (t.len() >= 3
                && t.iter().all(|b| b.is_ascii_digit() || b"-/".contains(b))
                && t.contains(&b'-'))
    });
    // A chess move (`e4`, `Nxf3+`, `O-O`): movetext cut short, a damaged game.
    let san = bytes.split(|b| b.is_ascii_whitespace()).any(|t| {
        let t = t
            .strip_suffix(b"+")
            .or_else(|| t.strip_suffix(b"#"))
            .unwrap_or(t);
        t.starts_with(b"O-O")
            || (2..=7).contains(&t.len())
                && matches!(t[t.len() - 2..], [b'a'..=b'h', b'1'..=b'8'])
                && t.iter().all(|b| b"KQRBNxabcdefgh12345678=".contains(b))
    });
    tag || move_number || result || san
}

fn trim_start(s: &[u8]) -> &[u8] {
    let k = s.iter().position(|b| !is_blank(b)).unwrap_or(s.len());
    &s[k..]
}
