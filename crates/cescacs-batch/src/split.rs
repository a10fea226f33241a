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

/// Byte classes of the run scanner: which bytes end a run of token bytes in which state.
const BLANK: u8 = 1;
const IN_BRACE: u8 = BLANK | 2;
const IN_MOVETEXT: u8 = BLANK | 4;
const CLASS: [u8; 256] = {
    let mut c = [0u8; 256];
    c[b' ' as usize] = BLANK;
    c[b'\t' as usize] = BLANK;
    c[b'\r' as usize] = BLANK;
    c[b'\n' as usize] = BLANK;
    c[b'}' as usize] = 2;
    c[b'{' as usize] = 4;
    c[b'(' as usize] = 4;
    c[b')' as usize] = 4;
    c[b';' as usize] = 4;
    c
};

/// Characters in UTF-8 (or single-byte) text: bytes that are not continuation bytes.
fn chars(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .filter(|&&b| !(0x80..0xC0).contains(&b))
        .count() as u64
}

fn is_result(t: &[u8]) -> bool {
    matches!(
        t,
        b"1-0" | b"0-1" | b"1/2-1/2" | b"*" | b"\xC2\xBD-\xC2\xBD"
    )
}

impl Lexer {
    fn end_token(&mut self) {
        if self.token_len == 0 && !self.token_long {
            return;
        }
        let result = !self.token_long && is_result(&self.token[..self.token_len]);
        if self.in_brace || self.in_line_comment {
            self.last_token_result = result;
        } else {
            self.last_token_result = result;
            if result {
                if self.depth == 0 {
                    self.after_result = true;
                    // A game of tags and a result alone still has its movetext.
                    self.movetext = true;
                }
            } else if self.depth == 0
                && (self.token[0].is_ascii_alphanumeric() || self.token[0] >= 0x80)
            {
                // Punctuation such as `=====` or `--` is not movetext.
                self.movetext = true;
                self.after_result = false;
            }
        }
        self.token_len = 0;
        self.token_long = false;
    }

    fn push_token(&mut self, b: u8) {
        if self.token_len < self.token.len() {
            self.token[self.token_len] = b;
            self.token_len += 1;
        } else {
            self.token_long = true;
        }
    }

    /// Scans movetext bytes (never a tag or `%` line).
    fn scan(&mut self, bytes: &[u8], encoding: TextEncoding) {
        if encoding == TextEncoding::DoubleByte || self.pending_trail {
            self.scan_bytewise(bytes, encoding);
        } else if !self.scan_plain_line(bytes) {
            self.scan_runs(bytes);
        }
    }

    /// The common movetext line: outside comments, no `{ ( ) ;`, no token carried over
    /// from the previous chunk, ending in a blank. Its tokens change the state only
    /// through the last token (is it a result) and the last movetext or result token,
    /// so the line is read backwards from its end. Returns false (nothing done) for any
    /// other line.
    fn scan_plain_line(&mut self, bytes: &[u8]) -> bool {
        let is_blank = |b: &u8| CLASS[*b as usize] & BLANK != 0;
        if self.in_brace
            || self.in_line_comment
            || self.token_len != 0
            || self.token_long
            || !bytes.last().is_some_and(is_blank)
            || memchr::memchr3(b'{', b'(', b';', bytes).is_some()
            || memchr::memchr(b')', bytes).is_some()
        {
            return false;
        }
        let mut rest = bytes;
        let mut last = true;
        while let Some(i) = rest.iter().rposition(|b| !is_blank(b)) {
            let end = i + 1;
            let start = rest[..end].iter().rposition(is_blank).map_or(0, |i| i + 1);
            let token = &rest[start..end];
            let result = token.len() <= self.token.len() && is_result(token);
            if last {
                self.last_token_result = result;
                last = false;
            }
            if result {
                if self.depth == 0 {
                    self.after_result = true;
                    self.movetext = true;
                }
                break;
            }
            if self.depth == 0 && (token[0].is_ascii_alphanumeric() || token[0] >= 0x80) {
                self.movetext = true;
                self.after_result = false;
                break;
            }
            rest = &rest[..start];
        }
        self.column += chars(bytes);
        true
    }

    /// [`Lexer::scan`] for single-byte encodings and UTF-8, a run of token bytes at a
    /// time: the same states and tokens as [`Lexer::scan_bytewise`], but only the bytes
    /// that matter in the current state (blanks, and `{ } ( ) ;` where they delimit)
    /// are looked at one by one, and columns are counted only where a position is kept.
    fn scan_runs(&mut self, bytes: &[u8]) {
        let (line, start_column) = (self.line, self.column);
        // Columns of `bytes[..counted]` are in `column`: positions are asked for in
        // increasing order, so counting stays linear in the line.
        let (mut column, mut counted) = (start_column, 0usize);
        let mut at = |j: usize| {
            column += chars(&bytes[counted..j]);
            counted = j;
            (line, column)
        };
        let mut i = 0;
        while i < bytes.len() {
            let special = if self.in_brace {
                IN_BRACE
            } else if self.in_line_comment {
                BLANK
            } else {
                IN_MOVETEXT
            };
            let run = bytes[i..]
                .iter()
                .position(|&b| CLASS[b as usize] & special != 0)
                .map_or(bytes.len(), |k| i + k);
            if run > i {
                self.push_run(&bytes[i..run]);
            }
            let Some(&b) = bytes.get(run) else {
                break;
            };
            i = run + 1;
            match b {
                b' ' | b'\t' | b'\r' | b'\n' => self.end_token(),
                b'}' => {
                    self.end_token();
                    self.in_brace = false;
                }
                b'{' => {
                    self.end_token();
                    self.in_brace = true;
                    self.brace_at = at(run);
                }
                b'(' => {
                    self.end_token();
                    if self.depth == 0 {
                        self.paren_at = at(run);
                    }
                    self.depth = self.depth.saturating_add(1);
                    self.after_result = false;
                }
                b')' => {
                    self.end_token();
                    self.depth = self.depth.saturating_sub(1);
                }
                _ => {
                    // `;`
                    self.end_token();
                    self.in_line_comment = true;
                }
            }
        }
        self.column = start_column + chars(bytes);
    }

    /// Appends a run of token bytes (what [`Lexer::push_token`] does byte by byte).
    fn push_run(&mut self, run: &[u8]) {
        let room = self.token.len() - self.token_len;
        let n = run.len().min(room);
        self.token[self.token_len..self.token_len + n].copy_from_slice(&run[..n]);
        self.token_len += n;
        if run.len() > room {
            self.token_long = true;
        }
    }

    /// Scans byte by byte; double-byte encodings step over lead+trail pairs.
    fn scan_bytewise(&mut self, bytes: &[u8], encoding: TextEncoding) {
        for &b in bytes {
            let at = (self.line, self.column);
            // Columns count characters: UTF-8 continuation bytes and trail bytes do not.
            let counts = if self.pending_trail {
                false
            } else {
                encoding == TextEncoding::DoubleByte || !(0x80..0xC0).contains(&b)
            };
            if counts {
                self.column += 1;
            }
            if self.pending_trail {
                self.pending_trail = false;
                self.push_token(b);
                continue;
            }
            if encoding == TextEncoding::DoubleByte && (0x81..=0xFE).contains(&b) {
                self.pending_trail = true;
                self.push_token(b);
                continue;
            }
            if self.in_brace {
                match b {
                    b'}' => {
                        self.end_token();
                        self.in_brace = false;
                    }
                    b' ' | b'\t' | b'\r' | b'\n' => self.end_token(),
                    _ => self.push_token(b),
                }
                continue;
            }
            if self.in_line_comment {
                match b {
                    b' ' | b'\t' | b'\r' | b'\n' => self.end_token(),
                    _ => self.push_token(b),
                }
                continue;
            }
            match b {
                b'{' => {
                    self.end_token();
                    self.in_brace = true;
                    self.brace_at = at;
                }
                b'(' => {
                    self.end_token();
                    if self.depth == 0 {
                        self.paren_at = at;
                    }
                    self.depth = self.depth.saturating_add(1);
                    self.after_result = false;
                }
                b')' => {
                    self.end_token();
                    self.depth = self.depth.saturating_sub(1);
                }
                b';' => {
                    self.end_token();
                    self.in_line_comment = true;
                }
                b' ' | b'\t' | b'\r' | b'\n' => self.end_token(),
                _ => self.push_token(b),
            }
        }
    }

    fn end_line(&mut self) {
        self.end_token();
        self.in_line_comment = false;
        self.pending_trail = false;
        self.line += 1;
        self.column = 1;
    }

    /// Forgets the game's state at a game boundary (the position is kept).
    fn reset_game(&mut self) {
        *self = Lexer {
            line: self.line,
            column: self.column,
            ..Lexer::default()
        };
    }
}

/// `[Name "` at the start of a trimmed line: plainly a tag, even inside a comment.
fn is_strict_tag_line(t: &[u8]) -> bool {
    let Some(rest) = t.strip_prefix(b"[") else {
        return false;
    };
    let name_len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name_len == 0 || !rest[0].is_ascii_alphabetic() {
        return false;
    }
    let after = trim_start(&rest[name_len..]);
    after.first() == Some(&b'"')
}

/// Where the tag pairs at the start of a tag line end (blanks after them included):
/// movetext may follow on the same line. `None` when no movetext follows them in the
/// bytes given, or a tag is not closed there (a stray quote, a line cut at the prefix):
/// then the line is a tag line only, as before.
fn tags_end(line: &[u8], encoding: TextEncoding) -> Option<usize> {
    // The usual tag line (`[Name "value"]`, one per line) starts with `[` and has one
    // `]`, its last non-blank byte: whether the tag closes there or never does,
    // nothing follows it.
    if let Some(last) = line.iter().rposition(|b| !is_blank(b))
        && line[last] == b']'
        && line.iter().find(|b| !is_blank(b)) == Some(&b'[')
        && !line[..last].contains(&b']')
    {
        return None;
    }
    tags_end_scan(line, encoding)
}

/// [`tags_end`] without its shortcut: tag by tag.
fn tags_end_scan(line: &[u8], encoding: TextEncoding) -> Option<usize> {
    let mut i = 0;
    loop {
        while line.get(i).is_some_and(is_blank) {
            i += 1;
        }
        if line[i..].starts_with(b"\xEF\xBB\xBF") {
            i += 3;
            continue;
        }
        match line.get(i) {
            None => return None,
            Some(b'[') => {}
            Some(_) => return Some(i),
        }
        i += 1;
        let mut in_string = false;
        loop {
            if encoding != TextEncoding::DoubleByte {
                // Jump to the next byte that matters (no lead bytes to step over).
                let rest = line.get(i..)?;
                let skip = if in_string {
                    memchr::memchr3(b'\\', b'"', b'\n', rest)
                } else {
                    memchr::memchr3(b'"', b']', b'\n', rest)
                };
                i += skip?;
            }
            match *line.get(i)? {
                b'\\' if in_string => i += 2,
                b'"' => {
                    in_string = !in_string;
                    i += 1;
                }
                b']' if !in_string => {
                    i += 1;
                    break;
                }
                b'\n' => return None,
                b if encoding == TextEncoding::DoubleByte && (0x81..=0xFE).contains(&b) => i += 2,
                _ => i += 1,
            }
        }
    }
}

/// Characters in `bytes`, counted as [`Lexer::scan`] counts columns.
fn columns(bytes: &[u8], encoding: TextEncoding) -> u64 {
    match encoding {
        TextEncoding::Bytes | TextEncoding::Decode(_) | TextEncoding::CodePage(_) => {
            bytes.iter().filter(|b| !(0x80..0xC0).contains(*b)).count() as u64
        }
        TextEncoding::DoubleByte => {
            let (mut n, mut i) = (0u64, 0usize);
            while i < bytes.len() {
                i += if (0x81..=0xFE).contains(&bytes[i]) {
                    2
                } else {
                    1
                };
                n += 1;
            }
            n
        }
    }
}

/// The whole lines at the start of `bytes` (which starts a line) that the line-by-line
/// path would take into the current game without a cut and without changing the
/// scanner's state, `movetext` apart: usual tag lines while no movetext was seen,
/// blank lines, and movetext lines without `{ ( ) ; [ %` and without a result
/// token; and then a line like those whose last token is a result (the game's last
/// movetext line) with the blank lines after it. Lines end in LF or CR LF; a CR
/// anywhere else ends a line for the line-by-line path, so such a line is left to it.
/// Returns their length, how many lines there are, whether movetext was seen and
/// whether that line with its result was taken.
fn plain_lines(bytes: &[u8], mut movetext: bool) -> Plain {
    let find = LineFinders::get();
    let (mut end, mut lines) = (0usize, 0u64);
    loop {
        let rest = &bytes[end..];
        // The usual tag line, `[` first and `]\n` last, with one search.
        if !movetext
            && rest.first() == Some(&b'[')
            && let Some(k) = find.tag_end(rest)
            && rest[k] == b']'
            && let Some(eol) = line_break(&rest[k + 1..])
            && k + 1 + eol <= PREFIX
        {
            end += k + 1 + eol;
            lines += 1;
            continue;
        }
        let Some(nl) = find.line_end(rest) else {
            break;
        };
        let line = &bytes[end..=end + nl];
        // A longer line is classified from its first bytes only.
        if line.len() > PREFIX {
            break;
        }
        // The line without its CR LF or LF: a CR left in it ends a line.
        let body = line
            .strip_suffix(b"\r\n")
            .unwrap_or(&line[..line.len() - 1]);
        let t = trim_start(line);
        if t.first() == Some(&b'[') {
            // After movetext a tag starts a game; a tag line that is not the usual
            // one (one `]`, its last non-blank byte) may carry movetext after its tags.
            let last = body.iter().rposition(|b| !is_blank(b)).unwrap_or(0);
            if movetext
                || body[last] != b']'
                || memchr::memchr2(b']', b'\r', body) != Some(last)
                || body[last..].contains(&b'\r')
            {
                break;
            }
            end += line.len();
            lines += 1;
            continue;
        }
        let bits = LineBits::of(body);
        // Tokens end at blanks only when no `{ ( ) ; [ %` is there, and a CR inside
        // the line ends a line (a blank line holds no other of these bytes).
        if bits.stop {
            break;
        }
        if !t.is_empty() {
            if bits.dash_or_star && has_result(line) {
                // The line that ends the movetext with its result as last token leaves
                // the scanner after a result whatever came before it in the line;
                // a result followed by more tokens is the line-by-line path's.
                let last = t.split(is_blank).rfind(|token| !token.is_empty());
                if last.is_some_and(|token| token.len() <= 8 && is_result(token)) {
                    // And the blank lines after it (spaces and tabs), which change
                    // nothing but the line count.
                    let (mut len, mut lines) = (end + line.len(), lines + 1);
                    while let Some(next) = bytes[len..]
                        .iter()
                        .position(|&b| !matches!(b, b' ' | b'\t'))
                        .and_then(|k| Some(k + line_break(&bytes[len + k..])?))
                    {
                        len += next;
                        lines += 1;
                    }
                    return Plain {
                        len,
                        lines,
                        movetext: true,
                        result: true,
                    };
                }
                break;
            }
            movetext = movetext
                || line.split(is_blank).any(|token| {
                    token
                        .first()
                        .is_some_and(|&b| b.is_ascii_alphanumeric() || b >= 0x80)
                });
        }
        end += line.len();
        lines += 1;
    }
    Plain {
        len: end,
        lines,
        movetext,
        result: false,
    }
}

/// The length of the line break `bytes` starts with: 1 for LF, 2 for CR LF, `None`
/// for anything else (a lone CR, or a CR whose LF is not in `bytes` yet).
#[inline(always)]
fn line_break(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [b'\n', ..] => Some(1),
        [b'\r', b'\n', ..] => Some(2),
        _ => None,
    }
}

/// What [`plain_lines`] found.
#[derive(Debug, PartialEq, Eq)]
struct Plain {
    /// The length of the lines taken.
    len: usize,
    lines: u64,
    /// Whether movetext was seen (before or in them).
    movetext: bool,
    /// Whether the last line taken ends with a result token.
    result: bool,
}

/// The searches of [`plain_lines`], built once: `memchr::memchr3` looks up its
/// vector code and builds its needle vectors on every call, which cost as much as the
/// search itself on a tag line.
struct LineFinders {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<(
        memchr::arch::x86_64::avx2::memchr::Three,
        memchr::arch::x86_64::avx2::memchr::One,
        memchr::arch::x86_64::avx2::memchr::Two,
    )>,
}

impl LineFinders {
    fn get() -> &'static LineFinders {
        static FINDERS: std::sync::OnceLock<LineFinders> = std::sync::OnceLock::new();
        FINDERS.get_or_init(|| LineFinders {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Three::new(b']', b'\r', b'\n')
                .zip(memchr::arch::x86_64::avx2::memchr::One::new(b'\n'))
                .zip(memchr::arch::x86_64::avx2::memchr::Two::new(b'-', b'*'))
                .map(|((three, one), two)| (three, one, two)),
        })
    }

    /// The first `]`, CR or LF.
    #[inline(always)]
    fn tag_end(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some((three, _, _)) = &self.avx2 {
            return three.find(bytes);
        }
        memchr::memchr3(b']', b'\r', b'\n', bytes)
    }

    /// The first LF.
    #[inline(always)]
    fn line_end(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, one, _)) = &self.avx2 {
            return one.find(bytes);
        }
        memchr::memchr(b'\n', bytes)
    }

    /// Whether `f` holds for the index of some `-` or `*`, tried in order.
    #[inline(always)]
    fn any_dash_or_star(&self, bytes: &[u8], f: impl FnMut(usize) -> bool) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, _, two)) = &self.avx2 {
            return two.iter(bytes).any(f);
        }
        memchr::memchr2_iter(b'-', b'*', bytes).any(f)
    }
}

/// The blanks that end a PGN token (the lexer's and every line test's).
fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Whether a line whose tokens end at blanks only holds a result token (every result
/// token has a `-` or is `*`).
fn has_result(line: &[u8]) -> bool {
    LineFinders::get().any_dash_or_star(line, |i| {
        let start = line[..i].iter().rposition(is_blank).map_or(0, |k| k + 1);
        let end = line[i..]
            .iter()
            .position(is_blank)
            .map_or(line.len(), |k| i + k);
        end - start <= 8 && is_result(&line[start..end])
    })
}

/// What [`plain_lines`] needs to know of a line, in one pass.
#[derive(Debug, Default, PartialEq, Eq)]
struct LineBits {
    /// One of `{ ( ) ; [ %` or a CR (inside a line, the line break left out by the
    /// caller): the line-by-line path's.
    stop: bool,
    /// A `-` or `*`: there may be a result token.
    dash_or_star: bool,
}

impl LineBits {
    fn of(line: &[u8]) -> LineBits {
        // Sixteen bytes at a time into sixteen lanes of flags, without branches, so that
        // the compiler vectorises it; the lanes are folded once at the end. The last
        // sixteen bytes may overlap the ones before (the flags only grow).
        // (Comparisons or'ed together, not `matches!`, which compiles to branches.)
        let is_stop = |b: u8| {
            (b == b'{') as u8
                | (b == b'(') as u8
                | (b == b')') as u8
                | (b == b';') as u8
                | (b == b'[') as u8
                | (b == b'%') as u8
                | (b == b'\r') as u8
        };
        let is_dash = |b: u8| (b == b'-') as u8 | (b == b'*') as u8;
        let (mut stop, mut dash) = ([0u8; 16], [0u8; 16]);
        let mut add = |chunk: &[u8; 16]| {
            for i in 0..16 {
                stop[i] |= is_stop(chunk[i]);
                dash[i] |= is_dash(chunk[i]);
            }
        };
        if line.len() >= 16 {
            let (chunks, rest) = line.as_chunks::<16>();
            for chunk in chunks {
                add(chunk);
            }
            if !rest.is_empty() {
                add(line.last_chunk::<16>().expect("16 bytes or more"));
            }
        } else {
            for &b in line {
                stop[0] |= is_stop(b);
                dash[0] |= is_dash(b);
            }
        }
        LineBits {
            stop: u128::from_ne_bytes(stop) != 0,
            dash_or_star: u128::from_ne_bytes(dash) != 0,
        }
    }
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

impl<R: BufRead> GameSplitter<R> {
    /// Games longer than `max_game_bytes` are cut and flagged `truncated`.
    pub fn new(reader: R, max_game_bytes: usize) -> Self {
        GameSplitter {
            reader,
            max_game_bytes: max_game_bytes.max(1),
            framing: Framing::Pgn,
            encoding: TextEncoding::Bytes,
            line_buf: Vec::new(),
            line_complete: false,
            pending: false,
            pending_is_tag: false,
            offset: 0,
            next_index: 1,
            lex: Lexer {
                line: 1,
                column: 1,
                ..Lexer::default()
            },
            at_start: true,
            finished: false,
            json: JsonState::default(),
            size_hint: 0,
            bulk: true,
            spare: Vec::new(),
            spare_bytes: 0,
        }
    }

    /// Gives back a game's buffer for a later game to reuse: memory the allocator
    /// need not map and zero again (issue 30; with workers on other threads, fresh
    /// pages cost the splitter more than cutting the games). At most 4096 buffers
    /// of 8 MiB in all are kept; the others are dropped.
    pub fn recycle(&mut self, bytes: Vec<u8>) {
        let mut bytes = bytes;
        let room = self.spare_bytes + bytes.capacity() <= MAX_SPARE_BYTES;
        if self.spare.len() < MAX_SPARE && room {
            bytes.clear();
            self.spare_bytes += bytes.capacity();
            self.spare.push(bytes);
        }
    }

    /// Cuts records as `framing` says instead of at PGN game boundaries.
    pub fn framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    /// The 1-based line of the next unread byte.
    pub fn line(&self) -> u64 {
        self.lex.line
    }

    /// The byte offset of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Scans the text as `encoding` (double-byte encodings need to be told).
    pub fn encoding(mut self, encoding: TextEncoding) -> Self {
        self.encoding = encoding;
        self
    }

    fn fill(&mut self) -> io::Result<&[u8]> {
        fill(&mut self.reader)
    }

    /// Reads the start of the next line into `line_buf`: up to its end or [`PREFIX`]
    /// bytes. Returns false at end of input.
    fn read_prefix(&mut self) -> io::Result<bool> {
        self.line_buf.clear();
        self.line_complete = false;
        self.read_more(PREFIX)?;
        Ok(!self.line_buf.is_empty())
    }

    /// Appends to `line_buf` until the line ends or `line_buf` holds `limit` bytes.
    fn read_more(&mut self, limit: usize) -> io::Result<()> {
        while !self.line_complete && self.line_buf.len() < limit {
            let last_cr = self.line_buf.last() == Some(&b'\r');
            let available = fill(&mut self.reader)?;
            if available.is_empty() {
                self.line_complete = true;
                return Ok(());
            }
            // A lone CR ends a line too (old Mac files in the xiangqi corpus); a CR that
            // ended the previous fill may be followed by LF in this one.
            if last_cr {
                if available[0] == b'\n' {
                    self.line_buf.push(b'\n');
                    self.reader.consume(1);
                }
                self.line_complete = true;
                return Ok(());
            }
            let room = limit - self.line_buf.len();
            let window = &available[..available.len().min(room)];
            match memchr::memchr2(b'\n', b'\r', window) {
                Some(i) if window[i] == b'\n' => {
                    self.line_buf.extend_from_slice(&window[..=i]);
                    self.reader.consume(i + 1);
                    self.line_complete = true;
                }
                Some(i) => {
                    let crlf = window.get(i + 1) == Some(&b'\n');
                    let end = if crlf { i + 2 } else { i + 1 };
                    let complete = crlf || i + 1 < available.len();
                    self.line_buf.extend_from_slice(&window[..end]);
                    self.reader.consume(end);
                    if complete {
                        self.line_complete = true;
                    }
                    // Else: loop once more to see whether LF follows the CR.
                }
                None => {
                    let n = window.len();
                    self.line_buf.extend_from_slice(window);
                    self.reader.consume(n);
                }
            }
        }
        Ok(())
    }

    /// Whether the line in `line_buf` starts a new game, given the state before it,
    /// and whether that cut is recovery from damage. Also tells tag and `%` lines.
    fn classify(&mut self, seen_movetext: bool) -> (LineKind, bool) {
        let mut t = self.line_buf.as_slice();
        if self.at_start {
            t = t.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(t);
        }
        let t = trim_start(t);
        let Some(&first) = t.first() else {
            // A very long run of blanks is scanned as movetext (it holds nothing).
            let kind = if self.line_complete {
                LineKind::Blank
            } else {
                LineKind::Movetext
            };
            return (kind, false);
        };
        let round_one = t.starts_with(b"1.") && !t.starts_with(b"1.1");
        let lex = &self.lex;
        if lex.in_brace {
            // Damage: a comment still open where a new game plainly starts.
            if is_strict_tag_line(t) {
                return (LineKind::Tag, true);
            }
            return (LineKind::Movetext, lex.last_token_result && round_one);
        }
        match first {
            // A tag after movetext starts a game (inside an open variation too: then
            // the variation is the damage).
            b'[' => (LineKind::Tag, seen_movetext),
            b'%' => (LineKind::Escape, false),
            b'{' | b';' => (LineKind::Movetext, false),
            _ if lex.depth > 0 => (LineKind::Movetext, lex.last_token_result && round_one),
            // After a result, a line that starts like movetext (a move number, a move)
            // is the next game; decoration such as `=====` stays with the last one.
            // A number other than 1 continues the game (moves after its result, which
            // the reader reports) rather than starting one.
            b'0'..=b'9' => (LineKind::Movetext, lex.after_result && round_one),
            b'A'..=b'Z' | b'a'..=b'z' | 0x80.. => (LineKind::Movetext, lex.after_result),
            _ => (LineKind::Movetext, false),
        }
    }

    /// The next game, or `None` at end of input.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        if self.finished {
            return Ok(None);
        }
        match self.framing {
            Framing::Pgn => self.next_pgn(),
            Framing::Lines => self.next_line_record(),
            Framing::Whole => self.next_whole(),
            Framing::Json => self.next_json(),
        }
    }

    fn new_game(&mut self) -> RawGame {
        let bytes = match self.spare.pop() {
            Some(mut b) => {
                self.spare_bytes -= b.capacity();
                b.reserve(self.size_hint);
                b
            }
            None => Vec::with_capacity(self.size_hint),
        };
        RawGame {
            index: self.next_index,
            line: self.lex.line,
            column: 1,
            offset: self.offset,
            bytes,
            truncated: false,
            problem: None,
        }
    }

    /// Keeps what fits of `bytes` in `game`.
    fn keep(&self, game: &mut RawGame, bytes: &[u8]) {
        let room = self.max_game_bytes.saturating_sub(game.bytes.len());
        if bytes.len() > room {
            game.bytes.extend_from_slice(&bytes[..room]);
            if !game.truncated {
                game.truncated = true;
                game.problem = Some(Problem::Oversized {
                    limit: self.max_game_bytes,
                });
            }
        } else {
            game.bytes.extend_from_slice(bytes);
        }
    }

    /// Adds the line whose start is in `line_buf` to `game`, reading the rest of it;
    /// `scan` runs the lexer over movetext. Returns false when the input must stop
    /// (no boundary within four times the cap).
    fn take_line(&mut self, game: &mut RawGame, scan: bool, span: &mut u64) -> io::Result<bool> {
        self.take_line_from(game, scan.then_some(0), span)
    }

    /// A tag line: movetext on the same line after its tags (`[Result "1-0"] e4 *`,
    /// as in pgn-extract's test files) is scanned, so that it counts as movetext and
    /// its result ends the game.
    fn take_tag_line(&mut self, game: &mut RawGame, span: &mut u64) -> io::Result<bool> {
        let skip = tags_end(&self.line_buf, self.encoding);
        self.take_line_from(game, skip, span)
    }

    /// [`Self::take_line`], scanning from byte `scan_from` of the line on (`None`: no
    /// scan).
    fn take_line_from(
        &mut self,
        game: &mut RawGame,
        mut scan_from: Option<usize>,
        span: &mut u64,
    ) -> io::Result<bool> {
        loop {
            let chunk = std::mem::take(&mut self.line_buf);
            if let Some(from) = scan_from {
                if from > 0 {
                    // The tags are not movetext; their columns (characters) still count.
                    self.lex.column += columns(&chunk[..from], self.encoding);
                }
                self.lex
                    .scan(chunk.get(from..).unwrap_or_default(), self.encoding);
                scan_from = Some(0);
            }
            self.keep(game, &chunk);
            self.offset += chunk.len() as u64;
            *span += chunk.len() as u64;
            self.line_buf = chunk;
            if *span > NO_BOUNDARY_FACTOR * self.max_game_bytes as u64 {
                game.problem = Some(Problem::NoBoundary {
                    limit: self.max_game_bytes,
                });
                game.truncated = true;
                self.finished = true;
                return Ok(false);
            }
            if self.line_complete {
                break;
            }
            self.line_buf.clear();
            self.read_more(1 << 16)?;
            if self.line_buf.is_empty() {
                break;
            }
        }
        self.lex.end_line();
        self.at_start = false;
        Ok(true)
    }

    fn next_pgn(&mut self) -> io::Result<Option<RawGame>> {
        let mut game = self.new_game();
        let mut has_content = false;
        let mut span = 0u64;
        if self.pending {
            self.pending = false;
            has_content = true;
            let go_on = if self.pending_is_tag {
                self.take_tag_line(&mut game, &mut span)?
            } else {
                self.take_line(&mut game, true, &mut span)?
            };
            if !go_on {
                return self.emit(game);
            }
        }
        loop {
            if has_content {
                self.take_plain_lines(&mut game, &mut span)?;
            }
            if !self.read_prefix()? {
                break;
            }
            let (kind, cut) = self.classify(self.lex.movetext);
            if cut && has_content {
                // An open comment would have swallowed this game: the cut game is
                // damaged. An open variation is left to the format's reader, which
                // sees the game end inside it and says so (some tolerate it).
                if self.lex.in_brace {
                    game.problem.get_or_insert(Problem::Unclosed {
                        what: '{',
                        line: self.lex.brace_at.0 - game.line + 1,
                        column: self.lex.brace_at.1,
                    });
                }
                self.lex.reset_game();
                self.pending = true;
                self.pending_is_tag = kind == LineKind::Tag;
                break;
            }
            if cut {
                self.lex.reset_game();
            }
            if !has_content && kind == LineKind::Blank {
                // Blank lines between games belong to no game.
                let n = self.line_buf.len() as u64;
                self.offset += n;
                self.lex.end_line();
                self.at_start = false;
                game.line = self.lex.line;
                game.offset = self.offset;
                continue;
            }
            has_content = true;
            let go_on = if kind == LineKind::Tag {
                self.take_tag_line(&mut game, &mut span)?
            } else {
                let scan = kind == LineKind::Movetext || kind == LineKind::Blank;
                self.take_line(&mut game, scan, &mut span)?
            };
            if !go_on {
                break;
            }
        }
        if !has_content {
            return Ok(None);
        }
        // The end of the input, after a game: a piece with nothing of a game in it is
        // trailing text (docs/io.md).
        if !self.pending && self.next_index > 1 && game.problem.is_none() && !game_like(&game.bytes)
        {
            game.problem = Some(Problem::TrailingText);
        }
        self.emit(game)
    }

    /// Takes, straight from the reader's buffer, the whole lines ahead that the
    /// line-by-line path ([`Self::classify`], [`Self::take_line`]) would add to `game`
    /// without a cut and without changing the scanner's state other than the line count
    /// and `movetext` (see [`plain_lines`]): outside comments and variations, last token
    /// not a result, no token pending, such lines hold no result token and no byte that
    /// opens or closes anything, so their tokens only say whether movetext was seen, and
    /// positions inside them are never kept. Nothing is taken that would reach the
    /// per-game cap or the no-boundary limit: those stay the line-by-line path's.
    fn take_plain_lines(&mut self, game: &mut RawGame, span: &mut u64) -> io::Result<()> {
        let lex = &self.lex;
        if !self.bulk
            || self.encoding == TextEncoding::DoubleByte
            || self.at_start
            || lex.after_result
            || lex.last_token_result
            || lex.in_brace
            || lex.in_line_comment
            || lex.depth != 0
            || lex.token_len != 0
            || lex.token_long
            || lex.pending_trail
            || lex.column != 1
        {
            return Ok(());
        }
        let span_room = (NO_BOUNDARY_FACTOR * self.max_game_bytes as u64).saturating_sub(*span);
        let room = self
            .max_game_bytes
            .saturating_sub(game.bytes.len())
            .min(usize::try_from(span_room).unwrap_or(usize::MAX));
        let available = fill(&mut self.reader)?;
        let window = &available[..available.len().min(room)];
        let plain = plain_lines(window, self.lex.movetext);
        let end = plain.len;
        if end == 0 {
            return Ok(());
        }
        game.bytes.extend_from_slice(&window[..end]);
        self.reader.consume(end);
        self.offset += end as u64;
        *span += end as u64;
        self.lex.movetext = plain.movetext;
        self.lex.line += plain.lines;
        if plain.result {
            // As the scanner leaves a line whose last token is a result, outside
            // comments and variations.
            self.lex.after_result = true;
            self.lex.last_token_result = true;
        }
        Ok(())
    }

    fn emit(&mut self, mut game: RawGame) -> io::Result<Option<RawGame>> {
        self.next_index += 1;
        let n = game.bytes.len();
        self.size_hint = (n + n / 4).min(1 << 16);
        if game.problem.is_some() && !matches!(game.problem, Some(Problem::Unclosed { .. })) {
            // Keep only what is needed to report it.
            game.bytes.truncate(256);
        }
        Ok(Some(game))
    }

    /// One record per non-blank line (JSON Lines).
    fn next_line_record(&mut self) -> io::Result<Option<RawGame>> {
        loop {
            let mut game = self.new_game();
            if !self.read_prefix()? {
                return Ok(None);
            }
            let blank = trim_start(&self.line_buf).is_empty() && self.line_complete;
            let mut span = 0;
            let go_on = self.take_line(&mut game, false, &mut span)?;
            if blank {
                continue;
            }
            let _ = go_on;
            return self.emit(game);
        }
    }

    /// The whole input is one record.
    fn next_whole(&mut self) -> io::Result<Option<RawGame>> {
        let mut game = self.new_game();
        let mut any = false;
        let mut span = 0;
        while self.read_prefix()? {
            any = true;
            if !self.take_line(&mut game, false, &mut span)? {
                break;
            }
        }
        self.finished = true;
        if !any {
            return Ok(None);
        }
        self.emit(game)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Tag,
    Escape,
    Movetext,
}

/// State of the JSON record scanner between records.
#[derive(Debug, Default)]
struct JsonState {
    /// Inside the top-level array (its elements are the records).
    in_array: bool,
    started: bool,
}

impl<R: BufRead> GameSplitter<R> {
    /// Reads one byte, tracking line and column. `None` at end of input.
    fn json_byte(&mut self) -> io::Result<Option<u8>> {
        let available = self.fill()?;
        let Some(&b) = available.first() else {
            return Ok(None);
        };
        self.reader.consume(1);
        self.offset += 1;
        if b == b'\n' {
            self.lex.line += 1;
            self.lex.column = 1;
        } else if !(0x80..0xC0).contains(&b) {
            self.lex.column += 1;
        }
        Ok(Some(b))
    }

    fn json_peek(&mut self) -> io::Result<Option<u8>> {
        Ok(self.fill()?.first().copied())
    }

    /// JSON documents one by one: the elements of a top-level array, or top-level
    /// values one after another (one document, concatenated documents, JSON Lines).
    /// A lexical scan (strings, escapes, depth): linear, any file size, each document
    /// capped.
    fn next_json(&mut self) -> io::Result<Option<RawGame>> {
        // Skip to the start of the next record.
        loop {
            let Some(b) = self.json_peek()? else {
                self.finished = true;
                return Ok(None);
            };
            let skip = match b {
                b' ' | b'\t' | b'\r' | b'\n' => true,
                // A byte-order mark.
                0xEF | 0xBB | 0xBF if !self.json.started => true,
                b',' if self.json.in_array => true,
                b'[' if !self.json.started => {
                    self.json.in_array = true;
                    true
                }
                b']' if self.json.in_array => {
                    self.json.in_array = false;
                    true
                }
                _ => false,
            };
            if !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0xEF | 0xBB | 0xBF) {
                self.json.started = true;
            }
            if !skip {
                break;
            }
            self.json_byte()?;
        }
        let mut game = self.new_game();
        game.column = self.lex.column;
        let (mut depth, mut in_string, mut escape) = (0u32, false, false);
        let mut string_at = (1u64, 1u64);
        let mut span = 0u64;
        let mut buf = Vec::with_capacity(256);
        loop {
            let at = (self.lex.line, self.lex.column);
            let Some(b) = self.json_peek()? else {
                break;
            };
            // A record ends before a `,` or `]` of the array, or a new top-level value.
            if !in_string && depth == 0 && !buf.is_empty() {
                let ends = match b {
                    b',' | b']' => self.json.in_array,
                    b'{' | b'[' => true,
                    b'\n' => !self.json.in_array,
                    _ => false,
                };
                if ends {
                    break;
                }
            }
            self.json_byte()?;
            buf.push(b);
            if buf.len() >= 1 << 16 {
                self.keep(&mut game, &buf);
                buf.clear();
            }
            span += 1;
            if span > NO_BOUNDARY_FACTOR * self.max_game_bytes as u64 {
                game.problem = Some(Problem::NoBoundary {
                    limit: self.max_game_bytes,
                });
                game.truncated = true;
                self.finished = true;
                break;
            }
            if in_string {
                if escape {
                    escape = false;
                } else if b == b'\\' {
                    escape = true;
                } else if b == b'"' {
                    in_string = false;
                } else if b == b'\n' {
                    // A raw newline cannot be in a JSON string: the string was never
                    // closed. End it here so the following documents are still found.
                    in_string = false;
                    game.problem.get_or_insert(Problem::Unclosed {
                        what: '"',
                        line: string_at.0 - game.line + 1,
                        column: string_at.1,
                    });
                }
                continue;
            }
            match b {
                b'"' => {
                    in_string = true;
                    string_at = at;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && !self.json.in_array {
                        break;
                    }
                }
                _ => {}
            }
        }
        // Whitespace before the `,` that ends an array element is not the document's.
        let end = buf.len()
            - buf
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        self.keep(&mut game, &buf[..end]);
        if game.bytes.is_empty() && game.problem.is_none() {
            self.finished = true;
            return Ok(None);
        }
        self.emit(game)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The run scanner and the byte-by-byte scanner end in the same state (tokens,
    /// comment and variation state, kept positions, column) on every input, however
    /// the line is cut into chunks. Inputs are drawn from the bytes that matter, with
    /// multi-byte UTF-8 and long tokens.
    #[test]
    fn run_scanner_matches_bytewise_scanner() {
        const PIECES: [&[u8]; 16] = [
            b" ",
            b"\t",
            b"\r",
            b"\n",
            b"{",
            b"}",
            b"(",
            b")",
            b";",
            b"1-0",
            b"*",
            b"e4",
            b"1/2-1/2",
            "é½".as_bytes(),
            b"Nbd7xyzlongtoken",
            b"\xC2\xBD-\xC2\xBD",
        ];
        const PLAIN: [&[u8]; 12] = [
            b" ",
            b"\t",
            b"\r\n",
            b"\n",
            b"}",
            b"1-0",
            b"*",
            b"e4",
            b"...",
            b"$1",
            "é½".as_bytes(),
            b"\xC2\xBD-\xC2\xBD",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for round in 0..40_000 {
            // Every other input has none of `{ ( ) ;`: the plain-line path.
            let pieces = if round % 2 == 0 {
                &PIECES[..]
            } else {
                &PLAIN[..]
            };
            let mut text = Vec::new();
            for _ in 0..next(24) {
                text.extend_from_slice(pieces[next(pieces.len())]);
            }
            if next(2) == 0 {
                text.push(b'\n');
            }
            let start = Lexer {
                line: 3,
                column: 1 + next(5) as u64,
                in_brace: next(4) == 0,
                depth: next(2) as u32,
                ..Lexer::default()
            };
            let (mut a, mut b) = (start.clone(), start);
            a.scan_bytewise(&text, TextEncoding::Bytes);
            let mut rest = &text[..];
            while !rest.is_empty() {
                let k = 1 + next(rest.len());
                b.scan(&rest[..k], TextEncoding::Bytes);
                rest = &rest[k..];
            }
            // Bytes of the token buffer past its length are left over, not state.
            for l in [&mut a, &mut b] {
                let n = l.token_len;
                l.token[n..].fill(0);
            }
            assert_eq!(a, b, "{:?}", String::from_utf8_lossy(&text));
        }
    }

    fn split(text: &str) -> Vec<RawGame> {
        split_bytes(text.as_bytes(), 1 << 20, TextEncoding::Bytes)
    }

    fn split_bytes(text: &[u8], cap: usize, encoding: TextEncoding) -> Vec<RawGame> {
        GameSplitter::new(text, cap)
            .encoding(encoding)
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    fn texts(games: &[RawGame]) -> Vec<String> {
        games
            .iter()
            .map(|g| String::from_utf8_lossy(&g.bytes).into_owned())
            .collect()
    }

    #[test]
    fn splits_at_tags_after_movetext() {
        let games = split("[A \"1\"]\n[B \"2\"]\n\n1. e4 e5 *\n\n[A \"3\"]\n\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].bytes, b"[A \"1\"]\n[B \"2\"]\n\n1. e4 e5 *\n\n");
        assert_eq!((games[1].index, games[1].line, games[1].offset), (2, 6, 29));
        assert_eq!(games[1].bytes, b"[A \"3\"]\n\n1. d4 *\n");
    }

    #[test]
    fn movetext_on_the_tag_line() {
        // The shape of pgn-extract's test-nobadresults.pgn (pgn-extract reads 9 games).
        let text =
            "[Result \"1-0\"] e4 *\n[Result \"0-1\"] e4 0-1\n[A \"x]\"] [B \"\\\"\"] d4 1-0\n";
        let games = split(text);
        assert_eq!(
            texts(&games),
            [
                "[Result \"1-0\"] e4 *\n",
                "[Result \"0-1\"] e4 0-1\n",
                "[A \"x]\"] [B \"\\\"\"] d4 1-0\n"
            ]
        );
        assert_eq!(games[2].line, 3);
        // Tags alone on their lines, and a tag line holding a stray quote, as before.
        assert_eq!(
            split("[A \"1\"] [B \"2\"]\n1. e4 *\n[A \"3\"]\n1. d4 *\n").len(),
            2
        );
        assert_eq!(split("[Redefine \"A@J\", C@N\"] e4\n1. e4 *\n").len(), 1);
        // A comment opened on the tag line is still open on the next line.
        let games = split("[A \"1\"] e4 {a\n[b] c} *\n[A \"2\"] d4 *\n");
        assert_eq!(games.len(), 2, "{:?}", texts(&games));
        assert!(games[0].problem.is_none());
        // Big5 trail bytes inside a tag value (許 is B3 5C, a backslash) do not escape
        // the closing quote.
        let big5 = b"[White \"\xB3\x5C\"] e4 *\n[White \"\xB3\x5C\"] d4 *\n";
        assert_eq!(
            split_bytes(big5, 1 << 20, TextEncoding::DoubleByte).len(),
            2
        );
    }

    #[test]
    fn no_blank_line_between_games() {
        let games = split("[A \"1\"]\n1. e4 *\n[A \"2\"]\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].line, 3);
    }

    #[test]
    fn result_ends_a_game_without_tags_or_blank_line() {
        let games = split("e4 e5 *\nd4 d5 *\n");
        assert_eq!(texts(&games), ["e4 e5 *\n", "d4 d5 *\n"]);
        assert_eq!(games[1].line, 2);
        let games =
            split("1. e4 e5 1-0\n1. d4 d5 0-1\n1. c4 1/2-1/2 {a comment after}\n; note\n1. Nf3 *");
        assert_eq!(games.len(), 4, "{:?}", texts(&games));
        // Moves after the result, numbered on: the same game (its reader reports them).
        assert_eq!(split("1. e4 e5 *\n2. Nf3 *\n").len(), 1);
        // Tags and a result only, then the next game's tags.
        assert_eq!(split("[A \"1\"]\n*\n[A \"2\"]\n1. e4 *\n").len(), 2);
        assert!(games[2].bytes.ends_with(b"; note\n"));
        // Decoration after a result stays with its game.
        assert_eq!(split("1. e4 *\n  =========\n\n1. d4 *\n").len(), 2);
        // A result inside a comment or a variation ends nothing.
        let games = split("1. e4 {1-0}\nd5 (2. d4 *)\n3. c4 *\n");
        assert_eq!(games.len(), 1);
        assert!(games.iter().all(|g| g.problem.is_none()));
    }

    #[test]
    fn unclosed_comment_is_cut_at_the_next_tag_section_and_flagged() {
        let text = "[G \"1\"]\n\n1. e4 *\n\n[G \"2\"]\n\n1. e4 {never closed\n2. Nf3 *\n\n[G \"3\"]\n\n1. d4 *\n";
        let games = split(text);
        assert_eq!(games.len(), 3, "{:?}", texts(&games));
        assert_eq!(games[0].problem, None);
        assert_eq!(
            games[1].problem,
            Some(Problem::Unclosed {
                what: '{',
                line: 3,
                column: 7
            })
        );
        assert_eq!(games[2].problem, None);
        assert_eq!(games[2].line, 10);
        // Without tags: a `1.` after a result token recovers too.
        let games = split("1. e4 (1. d4 e5 *\n1. c4 e5 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].problem, None);
        assert_eq!(games[0].bytes, b"1. e4 (1. d4 e5 *\n");
        assert_eq!(games[1].problem, None);
    }

    #[test]
    fn brackets_inside_comments_do_not_split() {
        let text = "[A \"1\"]\n1. e4 {a comment\n[not a tag] still comment}\n; [x]\ne5 *\n";
        assert_eq!(split(text).len(), 1);
        let text = "[A \"1\"]\n1. e4 ; {not a comment start\n[B \"2\"]\n1. d4\n";
        assert_eq!(split(text).len(), 2);
    }

    #[test]
    fn big5_trail_bytes_are_not_punctuation() {
        // 徐 = AE 7D (`}` as trail byte), 州 = A6 7B (`{` as trail byte).
        let mut text = b"[Event \"\xAE\x7D\"]\n\n1. \xA6\x7B h9g7 *\n\n".to_vec();
        text.extend_from_slice(b"[Event \"x\"]\n\n1. h2e2 {\xAE\x7D \xA6\x7B} *\n");
        assert_eq!(TextEncoding::detect(&text), TextEncoding::DoubleByte);
        let games = split_bytes(&text, 1 << 20, TextEncoding::DoubleByte);
        assert_eq!(games.len(), 2);
        assert!(games.iter().all(|g| g.problem.is_none()));
        // Byte-wise, 州's `{` opens a comment that would swallow the next game (the
        // splitter recovers, but reports the game as damaged).
        let games = split_bytes(&text, 1 << 20, TextEncoding::Bytes);
        assert!(games[0].problem.is_some());
    }

    #[test]
    fn encoding_detection() {
        assert_eq!(
            TextEncoding::detect("Иван Петров".as_bytes()),
            TextEncoding::Bytes
        );
        // CP1251 "Пётр Ильич Чайковский" {Иван Петров}: odd runs of high bytes.
        let cp1251 = b"[White \"\xCF\xB8\xF2\xF0 \xC8\xEB\xFC\xE8\xF7 \xD7\xE0\xE9\xEA\xEE\xE2\xF1\xEA\xE8\xE9\"] {\xC8\xE2\xE0\xED \xCF\xE5\xF2\xF0\xEE\xE2}";
        assert_eq!(TextEncoding::detect(cp1251), TextEncoding::Bytes);
        assert_eq!(
            TextEncoding::detect(b"caf\xE9 na\xEFve"),
            TextEncoding::Bytes
        );
        let gbk = b"[Red \"\xD0\xEC\xCC\xEC\xBA\xEC\"]\n1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5";
        assert_eq!(TextEncoding::detect(gbk), TextEncoding::DoubleByte);
    }

    #[test]
    fn leading_blank_lines_and_crlf_and_cr() {
        let games = split("\r\n\r\n[A \"1\"]\r\n1. e4 *\r\n[A \"2\"]\r1. d4 *\r");
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].line, games[0].offset), (3, 4));
        assert_eq!((games[1].line, games[1].offset), (5, 22));
        assert_eq!(games[1].bytes, b"[A \"2\"]\r1. d4 *\r");
    }

    #[test]
    fn tagless_file_is_one_game_and_empty_file_none() {
        assert_eq!(split("1. e4 e5 2. Nf3\n3. Bc4 *\n").len(), 1);
        assert!(split("").is_empty());
        assert!(split("\n \n").is_empty());
    }

    #[test]
    fn oversized_game_is_truncated_and_flagged() {
        let text = "[A \"1\"]\n1. e4 e5 2. Nf3 Nc6 *\n[A \"2\"]\n1. d4 *\n";
        let games = split_bytes(text.as_bytes(), 20, TextEncoding::Bytes);
        assert_eq!(games.len(), 2);
        assert!(games[0].truncated && games[0].bytes.len() == 20);
        assert_eq!(games[0].problem, Some(Problem::Oversized { limit: 20 }));
        assert_eq!(games[1].problem, None);
    }

    #[test]
    fn endless_line_stops_with_an_error_in_bounded_memory() {
        // 100 MB of zeros with no newline, read through a reader that makes them up.
        let zeros = io::Read::take(io::repeat(0), 100 << 20);
        let mut splitter = GameSplitter::new(io::BufReader::new(zeros), 1 << 20);
        let game = splitter.next_game().unwrap().unwrap();
        assert_eq!(game.problem, Some(Problem::NoBoundary { limit: 1 << 20 }));
        assert!(game.bytes.len() <= 256);
        assert!(splitter.next_game().unwrap().is_none());
    }

    #[test]
    fn json_lines_and_whole_framing() {
        let text = "{\"a\": 1}\n\n{\"a\": [\n2]}\n";
        let lines: Vec<_> = GameSplitter::new(text.as_bytes(), 1 << 20)
            .framing(Framing::Lines)
            .collect::<io::Result<_>>()
            .unwrap();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            (lines[1].line, lines[1].bytes.as_slice()),
            (3, b"{\"a\": [\n".as_slice())
        );
        let whole: Vec<_> = GameSplitter::new(text.as_bytes(), 1 << 20)
            .framing(Framing::Whole)
            .collect::<io::Result<_>>()
            .unwrap();
        assert_eq!(whole.len(), 1);
        assert_eq!(whole[0].bytes, text.as_bytes());
    }

    fn json(text: &str, cap: usize) -> Vec<RawGame> {
        GameSplitter::new(text.as_bytes(), cap)
            .framing(Framing::Json)
            .collect::<io::Result<_>>()
            .unwrap()
    }

    #[test]
    fn json_array_elements_are_records() {
        let text = "[\n{\"a\": \"x,]}\\\"\"},\n  {\"b\": [1, {\"c\": 2}]},\n{\"bad\": \n]\n";
        let docs = json(text, 1 << 20);
        assert_eq!(
            texts(&docs),
            [
                "{\"a\": \"x,]}\\\"\"}",
                "{\"b\": [1, {\"c\": 2}]}",
                "{\"bad\": \n]"
            ]
        );
        assert_eq!((docs[1].line, docs[1].column), (3, 3));
        // One document, and documents one after another.
        assert_eq!(json("\u{feff} {\"a\": 1}\n", 99).len(), 1);
        assert_eq!(json("{\"a\": 1}\n{\"a\": 2}{\"a\": 3}\n", 99).len(), 3);
        assert!(json("  \n", 99).is_empty());
        assert!(json("[]", 99).is_empty());
    }

    #[test]
    fn json_unclosed_string_and_oversized_document_spare_the_others() {
        let docs = json("[{\"a\": \"no end\n}, {\"b\": 1}]", 1 << 20);
        assert_eq!(docs.len(), 2);
        assert!(matches!(
            docs[0].problem,
            Some(Problem::Unclosed {
                what: '"',
                line: 1,
                column: 8
            })
        ));
        assert_eq!(docs[1].problem, None);
        let big = format!("[{{\"a\": \"{}\"}}, {{\"b\": 1}}]", "x".repeat(300));
        let docs = json(&big, 100);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].problem, Some(Problem::Oversized { limit: 100 }));
        assert_eq!(docs[1].bytes, b"{\"b\": 1}");
    }

    #[test]
    fn bom_is_kept_in_bytes_but_does_not_hide_a_tag() {
        let games = split("\u{feff}[A \"1\"]\n1. e4 *\n[A \"2\"]\n*\n");
        assert_eq!(games.len(), 2);
        assert!(games[0].bytes.starts_with(b"\xEF\xBB\xBF["));
    }
}

#[cfg(test)]
mod tags_end_tests {
    use super::*;

    #[test]
    fn shortcut_agrees_with_the_scan() {
        let lines: &[&[u8]] = &[
            b"[Event \"x\"]\n",
            b"[Event \"x\"]\r\n",
            b"  [Event \"a ] b\"]  \n",
            b"[Result \"1-0\"] e4 *\n",
            b"[A \"x\"] [B \"y\"]\n",
            b"[A \"x\"] {c]\n",
            b"[A \"x]\n",
            b"[A \"x\\\"]\"]\n",
            b"[A \"\xEF\xBB\xBF\"] ]\n",
            b"\xEF\xBB\xBF[A \"x\"]\n",
            b"[A \"x\x81]\"]\n",
            b"[A \"x\x81]\n",
            b"[A x]\n",
            b"[]]\n",
            b"[\n",
            b"]\n",
            b"",
        ];
        let mut rng = test_support::Rng::new(0x7a65);
        const BYTES: &[u8] = b"[]\"\\ \t\r\nab\x81\xEF";
        for encoding in [TextEncoding::Bytes, TextEncoding::DoubleByte] {
            for line in lines {
                assert_eq!(
                    tags_end(line, encoding),
                    tags_end_scan(line, encoding),
                    "{:?}",
                    String::from_utf8_lossy(line)
                );
            }
            for _ in 0..20_000 {
                let mut line = vec![b'['];
                for _ in 0..rng.below(12) {
                    line.push(*rng.pick(BYTES));
                }
                assert_eq!(
                    tags_end(&line, encoding),
                    tags_end_scan(&line, encoding),
                    "{:?}",
                    String::from_utf8_lossy(&line)
                );
            }
        }
    }
}

/// The bulk path ([`GameSplitter::take_plain_lines`]) against the line-by-line path:
/// every field of every game must agree, on the real files and on damaged copies.
#[cfg(test)]
mod bulk_tests {
    use super::*;
    use test_support::Rng;

    fn split(
        text: &[u8],
        cap: usize,
        buffer: usize,
        encoding: TextEncoding,
        bulk: bool,
    ) -> Vec<(RawGame, Lexer)> {
        let reader = io::BufReader::with_capacity(buffer, text);
        let mut splitter = GameSplitter::new(reader, cap).encoding(encoding);
        splitter.bulk = bulk;
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            games.push((game, lexer(&splitter)));
        }
        // The lines and offset after the last game must agree too.
        games.push((
            RawGame {
                index: 0,
                line: splitter.line(),
                column: 0,
                offset: splitter.offset(),
                bytes: Vec::new(),
                truncated: false,
                problem: None,
            },
            lexer(&splitter),
        ));
        games
    }

    /// The scanner's state between games, which the bulk path claims not to change
    /// (stricter than the games alone: an unclosed variation barely shows in them).
    fn lexer<R>(splitter: &GameSplitter<R>) -> Lexer {
        let mut l = splitter.lex.clone();
        let n = l.token_len;
        l.token[n..].fill(0);
        l
    }

    fn assert_same(text: &[u8], cap: usize, buffer: usize, what: &str) {
        for encoding in [TextEncoding::Bytes, TextEncoding::detect(text)] {
            let slow = split(text, cap, buffer, encoding, false);
            let fast = split(text, cap, buffer, encoding, true);
            if slow != fast {
                let i = slow.iter().zip(&fast).position(|(a, b)| a != b);
                panic!(
                    "{what} (cap {cap}, buffer {buffer}, {encoding:?}): {} games line by line, {} in bulk; first difference at {i:?}: {:?} vs {:?}",
                    slow.len(),
                    fast.len(),
                    i.map(|i| &slow[i]),
                    i.map(|i| &fast[i])
                );
            }
        }
    }

    fn pgn_files() -> Vec<(String, Vec<u8>)> {
        let mut files = Vec::new();
        for dir in [
            test_support::testdata(),
            test_support::shared_dir().join("corpus"),
        ] {
            for ext in ["pgn", "ctl-pgn"] {
                for path in test_support::files_with_extension(&dir, ext) {
                    let bytes = std::fs::read(&path).unwrap();
                    files.push((path.display().to_string(), bytes));
                }
            }
        }
        assert!(
            files.len() > 40,
            "the PGN files of testdata/ and the shared corpus"
        );
        files
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn bulk_path_splits_the_real_files_as_line_by_line() {
        for (name, bytes) in pgn_files() {
            assert_same(&bytes, 1 << 20, 1 << 16, &name);
            // Small caps exercise truncation and the no-boundary stop; odd buffers
            // cut lines (and CR LF pairs) between two fills.
            let head = &bytes[..bytes.len().min(30_000)];
            assert_same(head, 1 << 20, 7, &name);
            assert_same(head, 300, 1 << 16, &name);
            assert_same(head, 100, 64, &name);
        }
    }

    const INSERTS: &[&[u8]] = &[
        b"{",
        b"}",
        b";",
        b"[",
        b"]",
        b"(",
        b")",
        b"%",
        b"\r",
        b"\r\n",
        b"\n",
        b"\n\n",
        b"1-0",
        b" 1-0 ",
        b"0-1",
        b"*",
        b" * ",
        b"1/2-1/2",
        b"\xC2\xBD-\xC2\xBD",
        b" 0-0 ",
        b"O-O",
        b"-",
        b"--",
        b"\n[Event \"x\"]\n",
        b"\n1. ",
        b"1. e4 ",
        b"\xFF",
        b"\xC2",
        b"\xAE\x7D",
        b" ",
        b"\t",
        b"\"",
        b"1-0\n1. e4",
        b"\xEF\xBB\xBF",
        b"O-O{",
        b"O-O(",
        b"e4;",
        b"1-0;",
        b"O-O%",
        b"-)",
        b"*{",
        b"e4{ x }",
        b"(e4 e5)",
        b"\n% x\n",
        b"1-0)",
        b"e4)*",
        b";1-0 ",
        b"(1-0 ",
        b"{1-0 ",
        b"}1-0",
        b"*;",
        b"e4(*",
    ];

    fn mutate(rng: &mut Rng, text: &[u8]) -> Vec<u8> {
        let mut t = text.to_vec();
        match rng.below(4) {
            0 => {
                // Line ends as CR LF, or lone CR.
                let mut out = Vec::with_capacity(t.len() * 2);
                let cr_only = rng.chance(30);
                for &b in &t {
                    if b == b'\n' {
                        out.push(b'\r');
                        if !cr_only {
                            out.push(b'\n');
                        }
                    } else {
                        out.push(b);
                    }
                }
                t = out;
            }
            1 => {
                // Blank lines removed.
                let mut out = Vec::with_capacity(t.len());
                for (i, &b) in t.iter().enumerate() {
                    if !(b == b'\n' && i > 0 && t[i - 1] == b'\n') {
                        out.push(b);
                    }
                }
                t = out;
            }
            _ => {}
        }
        for _ in 0..1 + rng.below(12) {
            let at = rng.below(t.len() + 1);
            match rng.below(3) {
                0 => {
                    let s = rng.pick_cloned(INSERTS);
                    t.splice(at..at, s.iter().copied());
                }
                1 if at < t.len() => t[at] = rng.next_u64() as u8,
                _ => {
                    let end = (at + rng.below(40)).min(t.len());
                    t.drain(at..end);
                }
            }
        }
        t
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn bulk_path_splits_damaged_files_as_line_by_line() {
        let files = pgn_files();
        let mut rng = Rng::new(0x5b1f);
        for round in 0..16 * test_support::proptest_cases() {
            let (name, bytes) = rng.pick(&files);
            // A window of a few games, cut anywhere.
            let start = rng.below(bytes.len());
            let end = (start + 200 + rng.below(6000)).min(bytes.len());
            let text = mutate(&mut rng, &bytes[start..end]);
            let cap = *rng.pick(&[1 << 20, 2000, 300, 64, 1]);
            let buffer = *rng.pick(&[1 << 16, 4096, 64, 7, 2, 1]);
            assert_same(&text, cap, buffer, &format!("{name} round {round}"));
        }
    }

    #[test]
    fn bulk_path_splits_token_soup_as_line_by_line() {
        // Short texts of PGN pieces glued by random separators: every delimiter next to
        // every result token, at line ends and starts.
        const PIECES: &[&[u8]] = &[
            b"1.",
            b"2.",
            b"e4",
            b"Nf3",
            b"O-O",
            b"0-0",
            b"--",
            b"1-0",
            b"0-1",
            b"*",
            b"1/2-1/2",
            b"\xC2\xBD-\xC2\xBD",
            b"{",
            b"}",
            b"(",
            b")",
            b";",
            b"%",
            b"[",
            b"]",
            b"\"",
            b"[Event \"x\"]",
            b"\xFF",
            b"\r",
            b"=====",
            b"1-0-",
            b"a-1-0",
        ];
        const GLUE: &[&[u8]] = &[b" ", b" ", b"\n", b"\n\n", b"\r\n", b"", b"\t"];
        let mut rng = Rng::new(0x50c9);
        for round in 0..32 * test_support::proptest_cases() {
            let mut text = Vec::new();
            if rng.chance(70) {
                text.extend_from_slice(b"[Event \"x\"]\n\n1. e4 e5\n2. d4 d5\n");
            }
            for _ in 0..rng.below(60) {
                let (piece, glue) = (*rng.pick(PIECES), *rng.pick(GLUE));
                text.extend_from_slice(piece);
                text.extend_from_slice(glue);
            }
            let cap = *rng.pick(&[1 << 20, 100, 20]);
            let buffer = *rng.pick(&[1 << 16, 16, 3, 1]);
            assert_same(
                &text,
                cap,
                buffer,
                &format!("round {round}: {:?}", String::from_utf8_lossy(&text)),
            );
        }
    }

    #[test]
    fn bulk_path_sees_results_next_to_every_delimiter() {
        let results: &[&str] = &["1-0", "0-1", "1/2-1/2", "*", "\u{BD}-\u{BD}", "0-0", "O-O"];
        let delimiters = [
            "", " ", ")", "(", "{", "}", ";", "%", "[", "]", "\r", "\t", "\"", "x",
        ];
        for r in results {
            for d in delimiters {
                for line in [
                    format!("{r}{d}"),
                    format!("{d}{r}"),
                    format!("e4 {r}{d} e5"),
                    // Past sixteen bytes, in the vectorised part of the line scan.
                    format!("Nf3 Nc6 4. Bb5 a6 5. Ba4 {r}{d}"),
                    format!("Nf3 Nc6 4. Bb5 a6 5. Ba4 {d}{r}"),
                ] {
                    for next in [
                        "1. d4 d5\n",
                        "d4\n",
                        "\n[Event \"y\"]\n\n1. c4 *\n",
                        "2. e4\n",
                    ] {
                        let text = format!(
                            "[Event \"x\"]\n\n1. e4 e5\n2. d4 d5\n3. c4 {line}\n{next}4. Nf3\n"
                        );
                        assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
                    }
                }
            }
        }
    }

    #[test]
    fn line_finders_find_what_memchr_finds() {
        let mut rng = Rng::new(0xf1d5);
        let find = LineFinders::get();
        for _ in 0..16 * test_support::proptest_cases() {
            let bytes: Vec<u8> = (0..rng.below(200))
                .map(|_| *rng.pick(b"ab ]\r\n[\"x-*"))
                .collect();
            assert_eq!(
                find.tag_end(&bytes),
                memchr::memchr3(b']', b'\r', b'\n', &bytes)
            );
            assert_eq!(find.line_end(&bytes), memchr::memchr(b'\n', &bytes));
            let mut found = Vec::new();
            find.any_dash_or_star(&bytes, |i| {
                found.push(i);
                false
            });
            assert_eq!(
                found,
                memchr::memchr2_iter(b'-', b'*', &bytes).collect::<Vec<_>>()
            );
        }
    }

    /// `text` with every line ending CR LF (`crlf`) or LF; lone CRs are kept.
    fn line_ends(text: &[u8], crlf: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + text.len() / 16);
        for (i, &b) in text.iter().enumerate() {
            if b == b'\r' && text.get(i + 1) == Some(&b'\n') {
                continue;
            }
            if b == b'\n' && crlf {
                out.push(b'\r');
            }
            out.push(b);
        }
        out
    }

    /// Splitting a file and its CR LF copy gives the same games, CRs apart: the bulk
    /// path must not cut or count CR LF lines differently from LF ones.
    fn assert_crlf_splits_as_lf(name: &str, bytes: &[u8]) {
        let lf = line_ends(bytes, false);
        let crlf = line_ends(bytes, true);
        // A cap that no game of these files reaches: CRs would shift a smaller one.
        for (cap, buffer) in [(1 << 20, 1 << 16), (1 << 20, 64), (1 << 20, 7)] {
            let a = split(&lf, cap, buffer, TextEncoding::Bytes, true);
            let b = split(&crlf, cap, buffer, TextEncoding::Bytes, true);
            assert_eq!(a.len(), b.len(), "{name} (cap {cap}, buffer {buffer})");
            for ((a, _), (b, _)) in a.iter().zip(&b) {
                let what = format!("{name} game {} (cap {cap}, buffer {buffer})", a.index);
                assert_eq!(
                    (a.index, a.line, a.column),
                    (b.index, b.line, b.column),
                    "{what}"
                );
                assert_eq!(line_ends(&b.bytes, false), a.bytes, "{what}");
                assert_eq!(
                    (a.truncated, &a.problem),
                    (b.truncated, &b.problem),
                    "{what}"
                );
            }
        }
    }

    #[test]
    fn crlf_files_split_as_their_lf_copies() {
        let mut n = 0;
        for ext in ["pgn", "ctl-pgn"] {
            for path in test_support::files_with_extension(&test_support::testdata(), ext) {
                let bytes = std::fs::read(&path).unwrap();
                assert_crlf_splits_as_lf(&path.display().to_string(), &bytes);
                n += 1;
            }
        }
        assert!(n > 10, "the PGN files of testdata/");
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn crlf_corpus_files_split_as_their_lf_copies() {
        for (name, bytes) in pgn_files() {
            assert_crlf_splits_as_lf(&name, &bytes);
        }
    }

    #[test]
    fn bulk_path_takes_crlf_lines() {
        // The lines a CR LF game is made of go in bulk as their LF copies do; a lone
        // CR (a line end of its own) is left to the line-by-line path.
        let game = "[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 1-0\n\n";
        for crlf in [false, true] {
            let text = line_ends(game.as_bytes(), crlf);
            let tags = plain_lines(&text, false);
            assert_eq!((tags.len, tags.lines), (text.len(), 6), "crlf {crlf}");
            assert!(tags.movetext && tags.result, "crlf {crlf}");
        }
        let lone = plain_lines(b"1. e4 e5\r2. Nf3 Nc6\n", true);
        assert_eq!((lone.len, lone.lines), (0, 0));
        let lone_tag = plain_lines(b"[Event \"x\"]\r[Site \"y\"]\n", false);
        assert_eq!((lone_tag.len, lone_tag.lines), (0, 0));
    }

    #[test]
    fn line_bits_match_a_byte_by_byte_count() {
        let mut rng = Rng::new(0xb175);
        let alphabet = b"{}()[];%-*\r\n \tNe4x1.";
        for _ in 0..64 * test_support::proptest_cases() {
            let len = rng.below(70);
            let line: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.chance(50) {
                        *rng.pick(alphabet)
                    } else {
                        rng.next_u64() as u8
                    }
                })
                .collect();
            let expected = LineBits {
                stop: line.iter().any(|b| b"{();[%\r".contains(b)),
                dash_or_star: line.iter().any(|b| b"-*".contains(b)),
            };
            assert_eq!(LineBits::of(&line), expected, "{line:?}");
        }
    }

    #[test]
    fn bulk_path_leaves_unusual_tag_lines_to_the_tag_scan() {
        let lines = [
            "[A \"x\"] e4 ]",
            "[A \"x\"] 1-0 ]",
            "[A \"x\"]]",
            "[A \"]\"]",
            "[A \"x\"] [B \"y\"] e4 *",
            "[A \"x\"] e4",
            "  [A \"x\"]  ",
            "[A \"x\" e4 *",
            "[Result \"1-0\"] 1. e4 e5 1-0",
        ];
        for line in lines {
            for before in ["", "[Event \"x\"]\n", "1. e4 e5\n"] {
                let text = format!("{before}[Site \"y\"]\n{line}\n[Date \"z\"]\n\n1. d4 d5 *\n");
                assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
                let text =
                    format!("[Event \"x\"]\n\n1. e4 *\n\n{before}[Site \"y\"]\n{line}\n1. d4\n");
                assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
            }
        }
    }
}
