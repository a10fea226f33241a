//! A no-allocation streaming tokenizer for classic chess PGN bytes.
//!
//! In the manner of `csv-core`: the [`Tokenizer`] never owns or allocates a buffer.
//! The caller hands it the unconsumed bytes of its own buffer; it returns one
//! [`Token`] borrowing from them plus how many bytes were consumed, or asks for more
//! input when a token might continue past the end of the slice. Bytes need not be
//! UTF-8: tag values and comments are returned raw so the caller can pick a decoding.
//!
//! Every token carries its absolute byte offset and 1-based line and column so that
//! readers built on top can locate errors in files of any size.
//!
//! ```
//! use pgn_core::{Next, TokenKind, Tokenizer};
//!
//! let input = b"[Event \"x\"]\n1.e4 {best} e5 *";
//! let mut tok = Tokenizer::new();
//! let mut rest = &input[..];
//! let mut kinds = Vec::new();
//! loop {
//!     let (next, used) = tok.next(rest, true);
//!     match next {
//!         Next::Token(t) => kinds.push((t.kind, t.text.to_vec(), t.pos.line, t.pos.col)),
//!         Next::End => break,
//!         Next::NeedMore => unreachable!("eof was signalled"),
//!     }
//!     rest = &rest[used..];
//! }
//! // A simple tag pair is one token: name `Event`, value `x`.
//! let pair = TokenKind::TagPair { name_len: 5, value_start: 7 };
//! assert_eq!(kinds[0], (pair, b"Event \"x".to_vec(), 1, 1));
//! assert_eq!(kinds[1], (TokenKind::MoveNumber, b"1".to_vec(), 2, 1));
//! assert_eq!(kinds[2], (TokenKind::Symbol, b"e4".to_vec(), 2, 3));
//! assert_eq!(kinds[3], (TokenKind::Comment { terminated: true }, b"best".to_vec(), 2, 6));
//! assert_eq!(kinds.last().unwrap().0, TokenKind::Star);
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod escape;
pub use escape::escape_controls;

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// Where a token starts: absolute byte offset and 1-based line and byte column.
///
/// Lines are counted at `\n`, so CRLF files count like LF files; a file using bare
/// CR line endings is reported as one long line (columns stay exact offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    /// Absolute byte offset from the start of the stream.
    pub offset: u64,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// The lexical kinds of PGN (spec §2). Classification of symbols (move numbers,
/// SAN, results, glyphs) is left to the layer above, which knows the context.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A whole tag pair on one line, `[Name "value"]`, with no escapes or line breaks
    /// in the value: the common case, read as one token. `text` runs from the
    /// first byte of the name to the last byte of the value; the name is
    /// `text[..name_len]` and the value `text[value_start..]`.
    /// Any other tag is delivered as [`TokenKind::TagOpen`] followed by its parts.
    TagPair {
        /// Length of the name at the start of `text`.
        name_len: u32,
        /// Offset of the value in `text`.
        value_start: u32,
    },
    /// `[`
    TagOpen,
    /// `]`
    TagClose,
    /// `"…"`; `text` is between the quotes with escapes still in place.
    /// `escaped` tells whether a `\` occurs, so the common case needs no unescaping.
    String {
        /// A `\\` occurs in the value.
        escaped: bool,
    },
    /// A run of symbol bytes: SAN, results, glyphs, tag names.
    Symbol,
    /// Digits directly followed by one or more `.` (`12.`, `3...`); `text` holds
    /// the digits. Folded into one token because it is a third of all movetext tokens.
    MoveNumber,
    /// One or more `.` not directly after digits; `text` holds them all.
    Dots,
    /// `$` and the digits after it; `text` holds the digits only (may be empty).
    Nag,
    /// `*`
    Star,
    /// `(`
    VariationOpen,
    /// `)`
    VariationClose,
    /// `{…}`; `text` is between the braces. Unterminated only at end of input.
    Comment {
        /// False when the input ended before the closing `}`.
        terminated: bool,
    },
    /// `;…` to the end of the line; `text` excludes the `;` and the line end.
    LineComment,
    /// A line whose first byte is `%`; `text` is the rest of the line.
    Escape,
    /// `<…>`, reserved by the standard; `text` is between the angle brackets.
    Reserved,
    /// A byte that can start no token (a control character or a stray `>`).
    Invalid,
}

/// One token, borrowing its text from the slice given to [`Tokenizer::next`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What kind of token.
    pub kind: TokenKind,
    /// The payload (see [`TokenKind`] for what is included).
    pub text: &'a [u8],
    /// Where the token's first byte is.
    pub pos: Pos,
    /// Total length of the token in bytes, delimiters included.
    pub len: usize,
}

/// What [`Tokenizer::next`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next<'a> {
    /// A token.
    Token(Token<'a>),
    /// The slice ends inside a token (or is empty); call again with the same
    /// unconsumed bytes followed by more input, or with `eof = true`.
    NeedMore,
    /// No more tokens: the input is exhausted and `eof` was signalled.
    End,
}

// Byte classes, looked up in one table so the hot loops are a load and a compare.
// Symbol bytes have the two lowest classes, so "ends a symbol" is one compare.
const SYM: u8 = 0; // may appear in a symbol
const PCT: u8 = 1; // `%`: a symbol byte, but an escape at the start of a line
const WS: u8 = 2; // whitespace (and DOS end-of-file 0x1A, seen at the end of old files)
const DELIM: u8 = 3; // starts a self-delimiting token
const CTRL: u8 = 4; // other control characters

/// Whether `b` may continue a symbol.
#[inline(always)]
fn in_symbol(b: u8) -> bool {
    CLASS[b as usize] <= PCT
}

const CLASS: [u8; 256] = {
    let mut t = [SYM; 256];
    let mut i = 0;
    while i < 32 {
        t[i] = CTRL;
        i += 1;
    }
    t[b' ' as usize] = WS;
    t[b'\t' as usize] = WS;
    t[b'\n' as usize] = WS;
    t[b'\r' as usize] = WS;
    t[0x0b] = WS;
    t[0x0c] = WS;
    t[0x1a] = WS;
    t[0x7f] = CTRL;
    t[b'%' as usize] = PCT;
    let d = b"[](){}\";.$*<>";
    let mut j = 0;
    while j < d.len() {
        t[d[j] as usize] = DELIM;
        j += 1;
    }
    t
};

/// The bytes a token starts with: neither whitespace nor the first byte of a byte
/// order mark (which counts as whitespace); one load where two tests were.
const STARTS: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = CLASS[i] != WS && i != 0xEF;
        i += 1;
    }
    t
};

/// The tokenizer's whole state: where the next unconsumed byte is in the stream.
///
/// It is `Copy`, so a caller can save it and rewind to a token's start
/// ([`Tokenizer::rewind`]) to look ahead without a second buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tokenizer {
    offset: u64,
    line: u32,
    line_start: u64,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Tokenizer {
    /// A tokenizer at the start of a stream (offset 0, line 1).
    pub fn new() -> Tokenizer {
        Tokenizer {
            offset: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The position of the next unconsumed byte.
    pub fn pos(&self) -> Pos {
        Pos {
            offset: self.offset,
            line: self.line,
            col: col_of(self.offset, self.line_start),
        }
    }

    /// Makes `pos` (a token start previously returned) the next unconsumed byte.
    /// The caller must hand the bytes from that position on to the next call.
    pub fn rewind(&mut self, pos: Pos) {
        self.offset = pos.offset;
        self.line = pos.line;
        self.line_start = pos
            .offset
            .saturating_sub(u64::from(pos.col.saturating_sub(1)));
    }

    #[inline]
    fn newlines(&mut self, bytes: &[u8], base: u64) {
        // Tag values are short: a plain scan beats memchr's setup cost there.
        if bytes.len() < 64 {
            for (k, &c) in bytes.iter().enumerate() {
                if c == b'\n' {
                    self.line = self.line.saturating_add(1);
                    self.line_start = base + k as u64 + 1;
                }
            }
            return;
        }
        if let Some(last) = memchr::memrchr(b'\n', bytes) {
            let n = memchr::memchr_iter(b'\n', bytes).count() as u32;
            self.line = self.line.saturating_add(n);
            self.line_start = base + last as u64 + 1;
        }
    }

    /// Reads the next token from `input`, the unconsumed bytes. Returns it with the
    /// number of bytes consumed (leading whitespace included); on
    /// [`Next::NeedMore`] the count covers only skipped whitespace.
    /// `eof` says no bytes follow `input`.
    #[inline(always)]
    pub fn next<'a>(&mut self, input: &'a [u8], eof: bool) -> (Next<'a>, usize) {
        let i = self.skip_blanks(input);
        let n = input.len();
        let base = self.offset;
        self.offset += i as u64;
        if i == n {
            return (if eof { Next::End } else { Next::NeedMore }, i);
        }
        let start = i;
        let pos = Pos {
            offset: base + i as u64,
            line: self.line,
            col: col_of(base + i as u64, self.line_start),
        };
        let rest = &input[start..];
        let b = rest[0];
        // `%` is an escape only as the first byte of a line; elsewhere it is text.
        let at_line_start = pos.col == 1;
        // Symbols (SAN, move numbers) are most tokens: test for them before the
        // dispatch below, whose jump table the branch predictor handles poorly. `%`
        // has a class of its own, so this is one compare; it is tested apart: in
        // one condition with `at_line_start` the compiler made the test
        // branch-free, six instructions per symbol instead of two.
        if CLASS[b as usize] == SYM {
            return self.symbol(rest, pos, start, eof);
        }
        if b == b'%' && !at_line_start {
            return self.symbol(rest, pos, start, eof);
        }
        let Some(Lexed {
            kind,
            text,
            len,
            multiline,
        }) = other_token(rest, at_line_start, eof)
        else {
            return (Next::NeedMore, start);
        };
        if multiline || matches!(kind, TokenKind::Comment { .. } | TokenKind::Reserved) {
            self.newlines(&rest[..len], pos.offset);
        }
        self.offset = pos.offset + len as u64;
        (
            Next::Token(Token {
                kind,
                text,
                pos,
                len,
            }),
            start + len,
        )
    }

    /// Skips the whitespace (line breaks counted) and byte order marks at the start of
    /// `input`; returns how many bytes that is.
    #[inline(always)]
    fn skip_blanks(&mut self, input: &[u8]) -> usize {
        // Most tokens follow one space, or none (`1.e4`): settle those with two
        // tests and leave line breaks and byte order marks to the loop.
        if let Some(&[a, b]) = input.first_chunk::<2>() {
            if a == b' ' && STARTS[b as usize] {
                return 1;
            }
            if STARTS[a as usize] {
                return 0;
            }
        }
        // One line end (LF or CR LF) before a token: every line of movetext and tags.
        if let Some(&[a, b, c]) = input.first_chunk::<3>() {
            let cr = usize::from(a == b'\r');
            let (lf, next) = if cr == 1 { (b, c) } else { (a, b) };
            if lf == b'\n' && STARTS[next as usize] {
                self.line = self.line.saturating_add(1);
                self.line_start = self.offset + cr as u64 + 1;
                return cr + 1;
            }
        }
        let mut i = 0;
        let n = input.len();
        loop {
            while i < n {
                let b = input[i];
                if CLASS[b as usize] != WS {
                    break;
                }
                if b == b'\n' {
                    self.line = self.line.saturating_add(1);
                    self.line_start = self.offset + i as u64 + 1;
                }
                i += 1;
            }
            // A UTF-8 byte order mark counts as whitespace: concatenated files carry
            // one at each file start, not only at the start of the stream.
            if i < n && input[i] == 0xEF && input[i..].starts_with(b"\xEF\xBB\xBF") {
                i += 3;
                // Columns count from after a BOM that starts a line.
                if self.line_start == self.offset + i as u64 - 3 {
                    self.line_start += 3;
                }
                continue;
            }
            return i;
        }
    }

    /// A symbol or a move number at the start of `rest` (`start` bytes into the input).
    #[inline(always)]
    fn symbol<'a>(
        &mut self,
        rest: &'a [u8],
        pos: Pos,
        start: usize,
        eof: bool,
    ) -> (Next<'a>, usize) {
        let e = sym_run(rest);
        let (kind, len) = match rest.get(e..) {
            Some([b'.', after @ ..]) if rest[..e].iter().all(u8::is_ascii_digit) => {
                // Nearly always one dot (`12.`); `12...` takes the count.
                let dots = match after {
                    [b'.', ..] => after.iter().take_while(|&&c| c == b'.').count(),
                    _ => 0,
                };
                (TokenKind::MoveNumber, e + 1 + dots)
            }
            _ => (TokenKind::Symbol, e),
        };
        if len == rest.len() && !eof {
            return (Next::NeedMore, start);
        }
        self.offset = pos.offset + len as u64;
        let text = &rest[..e];
        (
            Next::Token(Token {
                kind,
                text,
                pos,
                len,
            }),
            start + len,
        )
    }
}

/// A token other than a symbol, as [`other_token`] reads it.
struct Lexed<'a> {
    kind: TokenKind,
    text: &'a [u8],
    len: usize,
    /// The token holds a line break that [`Tokenizer::newlines`] must count (comments
    /// and reserved tokens are always counted).
    multiline: bool,
}

/// The token at the start of `rest` that is not a symbol: punctuation, tags, comments,
/// strings, escapes. `None` when more input is needed to finish it.
#[inline(always)]
fn other_token(rest: &[u8], at_line_start: bool, eof: bool) -> Option<Lexed<'_>> {
    let (kind, text, len, need_more) = match rest[0] {
        b'%' if at_line_start => match memchr::memchr(b'\n', rest) {
            Some(e) => (TokenKind::Escape, trim_cr(&rest[1..e]), e, false),
            None => (TokenKind::Escape, trim_cr(&rest[1..]), rest.len(), !eof),
        },
        b'[' => match tag_pair(rest) {
            TagShape::Pair { name, value, len } => {
                let kind = TokenKind::TagPair {
                    name_len: (name.1 - name.0) as u32,
                    value_start: (value.0 - name.0) as u32,
                };
                (kind, &rest[name.0..value.1], len, false)
            }
            TagShape::Truncated if !eof => return None,
            _ => (TokenKind::TagOpen, &rest[..1], 1, false),
        },
        b']' => (TokenKind::TagClose, &rest[..1], 1, false),
        b'(' => (TokenKind::VariationOpen, &rest[..1], 1, false),
        b')' => (TokenKind::VariationClose, &rest[..1], 1, false),
        b'*' => (TokenKind::Star, &rest[..1], 1, false),
        b'.' => {
            let e = rest.iter().position(|&c| c != b'.').unwrap_or(rest.len());
            (TokenKind::Dots, &rest[..e], e, e == rest.len() && !eof)
        }
        b'$' => {
            let e = 1 + rest[1..]
                .iter()
                .position(|c| !c.is_ascii_digit())
                .unwrap_or(rest.len() - 1);
            (TokenKind::Nag, &rest[1..e], e, e == rest.len() && !eof)
        }
        b'{' => match memchr::memchr(b'}', &rest[1..]) {
            Some(e) => (
                TokenKind::Comment { terminated: true },
                &rest[1..1 + e],
                e + 2,
                false,
            ),
            None => (
                TokenKind::Comment { terminated: false },
                &rest[1..],
                rest.len(),
                !eof,
            ),
        },
        b';' => match memchr::memchr(b'\n', rest) {
            Some(e) => (TokenKind::LineComment, trim_cr(&rest[1..e]), e, false),
            None => (
                TokenKind::LineComment,
                trim_cr(&rest[1..]),
                rest.len(),
                !eof,
            ),
        },
        b'<' => match memchr::memchr(b'>', &rest[1..]) {
            Some(e) => (TokenKind::Reserved, &rest[1..1 + e], e + 2, false),
            None => (TokenKind::Reserved, &rest[1..], rest.len(), !eof),
        },
        b'"' => return string_token(rest, eof),
        // A stray `>` or a control byte: one byte, reported so nothing is lost.
        _ => (TokenKind::Invalid, &rest[..1], 1, false),
    };
    (!need_more).then_some(Lexed {
        kind,
        text,
        len,
        multiline: false,
    })
}

/// A string at the start of `rest` (which starts with `"`); `None` when more input is
/// needed to close it.
#[inline(always)]
fn string_token(rest: &[u8], eof: bool) -> Option<Lexed<'_>> {
    let mut j = 1;
    let mut escaped = false;
    let mut closed = false;
    let mut multiline = false;
    // Line breaks are noted in the same pass, so the common one-line tag
    // value is scanned once.
    while let Some(k) = memchr::memchr3(b'"', b'\\', b'\n', &rest[j..]) {
        match rest[j + k] {
            b'"' => {
                j += k;
                closed = true;
                break;
            }
            b'\n' => {
                multiline = true;
                j += k + 1;
            }
            _ => {
                escaped = true;
                multiline |= rest.get(j + k + 1) == Some(&b'\n');
                j += k + 2;
            }
        }
        if j >= rest.len() {
            break;
        }
    }
    let kind = TokenKind::String { escaped };
    if closed {
        Some(Lexed {
            kind,
            text: &rest[1..j],
            len: j + 1,
            multiline,
        })
    } else if eof {
        let e = rest.len();
        Some(Lexed {
            kind,
            text: &rest[1..e],
            len: e,
            multiline,
        })
    } else {
        None
    }
}

enum TagShape {
    /// Byte ranges of name and value in the input, and the token's length.
    Pair {
        name: (usize, usize),
        value: (usize, usize),
        len: usize,
    },
    /// The input ends before the tag pair could be recognised.
    Truncated,
    /// Not the simple one-line form; read it token by token.
    Other,
}

/// Recognises `[Name "value"]` at the start of `s` (which begins with `[`), with
/// only spaces or tabs between the parts and no `\\` or line break in the value.
#[inline(always)]
fn tag_pair(s: &[u8]) -> TagShape {
    // The form nearly every tag is written in, `[Name "value"]` with one space, read
    // without the blank loops below; anything else takes them from the start.
    if let Some(&b) = s.get(1)
        && in_symbol(b)
    {
        let n1 = 1 + sym_run(&s[1..]);
        if let Some([b' ', b'"', ..]) = s.get(n1..) {
            let v0 = n1 + 2;
            if let Some(k) = value_end(&s[v0..])
                && s[v0 + k] == b'"'
                && s.get(v0 + k + 1) == Some(&b']')
            {
                return TagShape::Pair {
                    name: (1, n1),
                    value: (v0, v0 + k),
                    len: v0 + k + 2,
                };
            }
        }
    }
    let blank = |s: &[u8], mut j: usize| {
        while j < s.len() && (s[j] == b' ' || s[j] == b'\t') {
            j += 1;
        }
        j
    };
    let n0 = blank(s, 1);
    if n0 >= s.len() {
        return TagShape::Truncated;
    }
    if !in_symbol(s[n0]) {
        return TagShape::Other;
    }
    let n1 = n0 + sym_run(&s[n0..]);
    let q = blank(s, n1);
    if q >= s.len() {
        return TagShape::Truncated;
    }
    if s[q] != b'"' {
        return TagShape::Other;
    }
    let v0 = q + 1;
    let Some(k) = value_end(&s[v0..]) else {
        return TagShape::Truncated;
    };
    if s[v0 + k] != b'"' {
        return TagShape::Other;
    }
    let v1 = v0 + k;
    let c = blank(s, v1 + 1);
    if c >= s.len() {
        return TagShape::Truncated;
    }
    if s[c] != b']' {
        return TagShape::Other;
    }
    TagShape::Pair {
        name: (n0, n1),
        value: (v0, v1),
        len: c + 1,
    }
}

/// The first `"`, `\\` or line feed in `s`, eight bytes at a time.
///
/// Tag values are some ten bytes long: `memchr3`'s setup cost some eighty
/// instructions per value (callgrind, real games), this word test about thirty.
#[inline(always)]
fn value_end(s: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // The lowest set bit marks the first zero byte exactly (a borrow can only mark
    // bytes above a zero byte), so the lowest bit of the union is the first stop.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut j = 0;
    while let Some(w) = s.get(j..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*w);
        let m = zero(x ^ (u64::from(b'"') * ONES))
            | zero(x ^ (u64::from(b'\\') * ONES))
            | zero(x ^ (u64::from(b'\n') * ONES));
        if m != 0 {
            return Some(j + (m.trailing_zeros() / 8) as usize);
        }
        j += 8;
    }
    s.get(j..)?
        .iter()
        .position(|&c| matches!(c, b'"' | b'\\' | b'\n'))
        .map(|k| j + k)
}

/// Length of the symbol starting `s` (whose first byte is a symbol byte).
///
/// Symbols are 2–5 bytes long. A byte test with an early exit costs about four
/// instructions per byte read; classifying eight bytes at once without branches
/// cost about forty per symbol whatever its length (callgrind, real games), and
/// the length decides a branch in every caller anyway.
#[inline(always)]
fn sym_run(s: &[u8]) -> usize {
    // With eight bytes in hand the first seven tests need no bounds checks.
    if let Some(w) = s.first_chunk::<8>() {
        for (k, &c) in w.iter().enumerate().skip(1) {
            if !in_symbol(c) {
                return k;
            }
        }
    }
    let mut e = 1;
    while e < s.len() && in_symbol(s[e]) {
        e += 1;
    }
    e
}

/// The 1-based column of `offset` on the line starting at `line_start`, which is
/// never after it (every path that moves `line_start` keeps it at or before the
/// next unconsumed byte); a column past `u32::MAX` reads as `u32::MAX`.
#[inline(always)]
fn col_of(offset: u64, line_start: u64) -> u32 {
    (offset.wrapping_sub(line_start) + 1).min(u64::from(u32::MAX)) as u32
}

fn trim_cr(s: &[u8]) -> &[u8] {
    s.strip_suffix(b"\r").unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<(TokenKind, Vec<u8>, u32, u32)> {
        let mut t = Tokenizer::new();
        let mut rest = input;
        let mut out = Vec::new();
        loop {
            let (n, used) = t.next(rest, true);
            rest = &rest[used..];
            match n {
                Next::Token(tok) => {
                    out.push((tok.kind, tok.text.to_vec(), tok.pos.line, tok.pos.col))
                }
                Next::End => return out,
                Next::NeedMore => panic!("NeedMore at eof"),
            }
        }
    }

    /// Feeding one byte at a time must give the same tokens as feeding everything,
    /// which is what makes the tokenizer safe on any buffer boundary.
    fn chunked(input: &[u8]) -> Vec<(TokenKind, Vec<u8>, u32, u32)> {
        let mut t = Tokenizer::new();
        let mut buf: Vec<u8> = Vec::new();
        let mut fed = 0;
        let mut out = Vec::new();
        loop {
            let eof = fed == input.len();
            let (n, used) = t.next(&buf, eof);
            match n {
                Next::Token(tok) => {
                    out.push((tok.kind, tok.text.to_vec(), tok.pos.line, tok.pos.col));
                    buf.drain(..used);
                }
                Next::NeedMore => {
                    buf.drain(..used);
                    buf.push(input[fed]);
                    fed += 1;
                }
                Next::End => return out,
            }
        }
    }

    #[test]
    fn boundaries_do_not_change_tokens() {
        let input: &[u8] = b"\xEF\xBB\xBF[Event \"a \\\"b\\\" c\"]\r\n\r\n%esc [x]\n1. e4 $12 {multi\nline} ; rest {x}\r\n1... e5 (2.Nf3) <res> 1/2-1/2";
        let whole = all(input);
        assert_eq!(whole, chunked(input));
        let kinds: Vec<_> = whole.iter().map(|t| t.0).collect();
        use TokenKind::*;
        assert_eq!(
            kinds,
            vec![
                TagOpen,
                Symbol,
                String { escaped: true },
                TagClose,
                Escape,
                MoveNumber,
                Symbol,
                Nag,
                Comment { terminated: true },
                LineComment,
                MoveNumber,
                Symbol,
                VariationOpen,
                MoveNumber,
                Symbol,
                VariationClose,
                Reserved,
                Symbol,
            ]
        );
        // A BOM is not counted as a column; the escape line and the CRLF are handled.
        assert_eq!((whole[0].2, whole[0].3), (1, 1));
        assert_eq!(whole[4].1, b"esc [x]");
        assert_eq!(whole[9].1, b" rest {x}");
        // After the two-line comment the line count continues correctly.
        assert_eq!((whole[10].2, whole[10].3), (6, 1));
        assert_eq!(whole[10].1, b"1");
        assert_eq!(whole.last().unwrap().1, b"1/2-1/2");
    }

    #[test]
    fn line_breaks_inside_strings_are_counted() {
        let input: &[u8] = b"[A \"x\ny\\\nz\"] e4";
        let t = all(input);
        assert_eq!(t, chunked(input));
        assert_eq!(t[2].1, b"x\ny\\\nz");
        assert_eq!(
            (t[4].2, t[4].3),
            (3, 5),
            "e4 after a value spanning three lines"
        );
    }

    #[test]
    fn bom_between_files_is_whitespace() {
        let t = all(b"1-0\n\xEF\xBB\xBF[Event \"b\"]");
        assert!(matches!(t[1].0, TokenKind::TagPair { .. }));
        assert_eq!((t[1].2, t[1].3), (2, 1));
        // Whole tag pairs survive any buffer boundary; a broken one falls back to parts.
        let tags: &[u8] = b"[Event \"b\"]\n[Site\t \"c, d\" ]\n[Bad \"x\"\n[Round 3]";
        let t = all(tags);
        assert_eq!(t, chunked(tags));
        assert_eq!(
            t[1].0,
            TokenKind::TagPair {
                name_len: 4,
                value_start: 7
            }
        );
        assert_eq!(&t[1].1[7..], b"c, d");
        assert_eq!(t[2].0, TokenKind::TagOpen);
        assert_eq!(chunked(b"1-0\n\xEF\xBB\xBF[E"), all(b"1-0\n\xEF\xBB\xBF[E"));
    }

    #[test]
    fn percent_mid_line_is_text_and_braces_do_not_nest() {
        let t = all(b"e4 %x {a {b} c}");
        assert_eq!(t[1].0, TokenKind::Symbol);
        assert_eq!(t[1].1, b"%x");
        assert_eq!(t[2].1, b"a {b");
        assert_eq!(t[3].1, b"c");
        assert_eq!(t[4].0, TokenKind::Invalid);
    }

    #[test]
    fn unterminated_tokens_end_at_eof() {
        let t = all(b"{open comment");
        assert_eq!(
            t,
            vec![(
                TokenKind::Comment { terminated: false },
                b"open comment".to_vec(),
                1,
                1
            )]
        );
        let t = all(b"[A \"open");
        assert_eq!(t[2].0, TokenKind::String { escaped: false });
        assert!(all(b"\x00\x01").iter().all(|t| t.0 == TokenKind::Invalid));
    }

    #[test]
    fn value_end_is_the_byte_search() {
        let slow = |s: &[u8]| s.iter().position(|&c| matches!(c, b'"' | b'\\' | b'\n'));
        // Every stop byte at every place of inputs up to 20 bytes, on backgrounds
        // that test the word trick's borders (0x01 above a stop, high bytes,
        // neighbours of each stop byte).
        for bg in [
            b'a', 0x01, 0x21, 0x23, 0x5b, 0x5d, 0x09, 0x0b, 0x80, 0xa2, 0xff,
        ] {
            for len in 0..20 {
                let base = vec![bg; len];
                assert_eq!(value_end(&base), slow(&base));
                for at in 0..len {
                    for stop in [b'"', b'\\', b'\n'] {
                        let mut v = base.clone();
                        v[at] = stop;
                        assert_eq!(value_end(&v), slow(&v), "{v:?}");
                        if at + 1 < len {
                            v[at + 1] = 0x01;
                            assert_eq!(value_end(&v), slow(&v), "{v:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn starts_is_the_two_tests_it_replaced() {
        for b in 0..=255u8 {
            let old = CLASS[b as usize] != WS && b != 0xEF;
            assert_eq!(STARTS[b as usize], old, "byte {b:#04x}");
        }
        // Each blank before a token, alone and before a byte order mark.
        for blank in [
            &b" "[..],
            b"\n",
            b"\r\n",
            b"\r",
            b"\t",
            b"  ",
            b"\n\n",
            b"\x1a",
        ] {
            let mut input = blank.to_vec();
            input.extend_from_slice(b"e4 \xEF\xBB\xBFe5");
            assert_eq!(all(&input), chunked(&input), "{input:?}");
            let t = all(&input);
            assert_eq!(t.len(), 2);
            assert_eq!(t[1].1, b"e5");
        }
    }

    #[test]
    fn rewind_restores_position() {
        let mut t = Tokenizer::new();
        let input = b"a\nbb cc";
        let (_, u1) = t.next(input, true);
        let (n, u2) = t.next(&input[u1..], true);
        let Next::Token(tok) = n else { panic!() };
        assert_eq!((tok.pos.line, tok.pos.col), (2, 1));
        t.rewind(tok.pos);
        let (n2, _) = t.next(&input[tok.pos.offset as usize..], true);
        assert_eq!(n2, Next::Token(tok));
        let _ = u2;
    }
}
