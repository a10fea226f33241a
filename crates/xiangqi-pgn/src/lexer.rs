//! Tokens of decoded PGN text, borrowed from the text and produced one at a time.
//!
//! Every token is scanned in time proportional to its length plus at most the two
//! lines that follow it (a tag value may continue on the next line; an unclosed comment
//! looks one line ahead for a tag line), so a whole text is lexed in linear time, and
//! the lexer holds no more than the few tokens of one word.

use std::borrow::Cow;
use std::collections::VecDeque;

use crate::notation::{TokenKind, classify, fold_fullwidth};

/// Words longer than this are never moves (the longest real move text is a handful of
/// characters); classifying them is skipped so a hostile megabyte-long word costs one
/// scan.
pub(crate) const MAX_MOVE_CHARS: usize = 24;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokKind<'a> {
    /// Name (full-width folded) and value (unescaped).
    Tag(String, Cow<'a, str>),
    Comment(Cow<'a, str>),
    Open,
    Close,
    Nag(String),
    /// A move number; `digits` is its numeric part (`""` for a bare `...`).
    Number(&'a str),
    Result(&'static str),
    Move(&'a str),
    /// A `%` escape line (the text after the `%`).
    Escape(&'a str),
    /// Unreadable text, with what was expected.
    Bad(&'static str),
}

#[derive(Debug, Clone)]
pub(crate) struct Tok<'a> {
    pub kind: TokKind<'a>,
    /// The source text of the token.
    pub text: Cow<'a, str>,
    /// Byte offset of the token in the lexed text.
    pub start: usize,
    pub line: usize,
    pub col: usize,
    /// First token on its line (a `[` there starts a tag even inside movetext).
    pub line_start: bool,
}

/// Where lexing starts: byte offset, line, column and whether that is a line start.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pub pos: usize,
    pub line: usize,
    pub col: usize,
    pub line_start: bool,
}

impl Mark {
    pub fn origin() -> Mark {
        Mark {
            pos: 0,
            line: 1,
            col: 1,
            line_start: true,
        }
    }
}

pub(crate) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
    line: usize,
    col: usize,
    line_start: bool,
    pending: VecDeque<Tok<'a>>,
}

pub(crate) fn is_result(w: &str) -> Option<&'static str> {
    Some(match w {
        "1-0" => "1-0",
        "0-1" => "0-1",
        "1/2-1/2" | "½-½" | "1/2" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

fn is_glyph(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c == '!' || c == '?')
}

/// Line breaks are `\n`, `\r\n` or a lone `\r` (mixed in some files).
fn normalize_newlines(s: &str) -> Cow<'_, str> {
    if s.contains('\r') {
        Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(s)
    }
}

/// True when `line` (without its line break) is one complete tag pair,
/// `[Name "value"]`, and nothing else: such a line inside a brace comment means the
/// comment was never closed and a new game begins.
pub(crate) fn is_tag_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix('[') else {
        return false;
    };
    let rest = rest.trim_end();
    let name_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if name_len == 0 {
        return false;
    }
    let gap = &rest[name_len..];
    let after = gap.trim_start_matches([' ', '\t']);
    gap.starts_with([' ', '\t'])
        && after.len() >= 3
        && after.starts_with('"')
        && after.ends_with("\"]")
}

impl<'a> Lexer<'a> {
    /// Lexes `text[at.pos..end]`.
    pub fn new(text: &'a str, at: Mark, end: usize) -> Lexer<'a> {
        Lexer {
            text,
            pos: at.pos,
            end,
            line: at.line,
            col: at.col,
            line_start: at.line_start,
            pending: VecDeque::new(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..self.end].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        match c {
            '\n' => {
                self.line += 1;
                self.col = 1;
            }
            '\r' => {
                if self.peek() == Some('\n') {
                    self.pos += 1;
                }
                self.line += 1;
                self.col = 1;
                return Some('\n');
            }
            _ => self.col += 1,
        }
        Some(c)
    }

    fn at_newline(&self) -> bool {
        matches!(self.peek(), Some('\n' | '\r'))
    }

    fn skip_to_eol(&mut self) {
        while self.peek().is_some() && !self.at_newline() {
            self.bump();
        }
    }

    /// The text of the line starting at byte `from` (without its line break).
    fn line_at(&self, from: usize) -> &'a str {
        let rest = &self.text[from..self.end];
        let n = rest.find(['\n', '\r']).unwrap_or(rest.len());
        &rest[..n]
    }

    fn tok(&self, kind: TokKind<'a>, text: Cow<'a, str>, at: Mark) -> Tok<'a> {
        Tok {
            kind,
            text,
            start: at.pos,
            line: at.line,
            col: at.col,
            line_start: at.line_start,
        }
    }

    fn read_tag(&mut self, at: Mark) -> Tok<'a> {
        self.bump(); // '['
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        let name_start = self.pos;
        while let Some(x) = self.peek() {
            if x.is_whitespace() || x == '"' || x == ']' {
                break;
            }
            self.bump();
        }
        let name = &self.text[name_start..self.pos];
        while matches!(self.peek(), Some(' ' | '\t' | '\u{3000}')) {
            self.bump();
        }
        if self.peek() != Some('"') {
            // `[Name]` or garbage: skip the rest of the line.
            self.skip_to_eol();
            let raw = &self.text[at.pos..self.pos];
            return self.tok(TokKind::Bad("a tag value in quotes"), raw.into(), at);
        }
        self.bump();
        let start = self.pos;
        let found = tag_value_close(self.text.as_bytes(), start, self.end);
        let Some((vend, close)) = found else {
            self.skip_to_eol();
            let raw = &self.text[at.pos..self.pos];
            return self.tok(TokKind::Bad("a closing '\"]'"), raw.into(), at);
        };
        let raw_value = &self.text[start..vend];
        let value = unescape_tag_value(raw_value);
        let value = match normalize_newlines(&value) {
            Cow::Borrowed(_) => value,
            Cow::Owned(s) => Cow::Owned(s),
        };
        while self.pos <= close {
            self.bump();
        }
        self.tok(TokKind::Tag(fold_fullwidth(name), value), name.into(), at)
    }

    fn read_brace_comment(&mut self, at: Mark) -> Tok<'a> {
        self.bump(); // '{'
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut j = start;
        while j < self.end {
            match bytes[j] {
                b'}' => {
                    let body = &self.text[start..j];
                    while self.pos <= j {
                        self.bump();
                    }
                    return self.tok(TokKind::Comment(normalize_newlines(body)), body.into(), at);
                }
                b'\n' | b'\r' => {
                    // A line that is a complete tag pair ends an unclosed comment: the
                    // next game starts there (issue 12: one unclosed `{` must not
                    // swallow the games after it). Each line is looked at once here.
                    let next = if bytes[j] == b'\r' && bytes.get(j + 1) == Some(&b'\n') {
                        j + 2
                    } else {
                        j + 1
                    };
                    if is_tag_line(self.line_at(next.min(self.end))) {
                        while self.pos < j {
                            self.bump();
                        }
                        let raw = &self.text[at.pos..j];
                        return self.tok(TokKind::Bad("a closing '}'"), raw.into(), at);
                    }
                    j = next;
                    continue;
                }
                _ => {}
            }
            j += 1;
        }
        while self.pos < self.end {
            self.bump();
        }
        let raw = &self.text[at.pos..self.end];
        self.tok(TokKind::Bad("a closing '}'"), raw.into(), at)
    }

    fn read_word(&mut self, at: Mark) {
        let start = self.pos;
        while let Some(x) = self.peek() {
            if x.is_whitespace() || matches!(x, '{' | '}' | '(' | ')' | '[' | ']' | ';') {
                break;
            }
            self.bump();
        }
        let w = &self.text[start..self.pos];
        classify_word(w, |kind, text| {
            let t = self.tok(kind, text.into(), at);
            self.pending.push_back(t);
        });
    }
}

/// Splits one whitespace-delimited word into move number, move, result and glyph tokens.
pub(crate) fn classify_word<'a>(w: &'a str, mut push: impl FnMut(TokKind<'a>, &'a str)) {
    if w.chars().count() > MAX_MOVE_CHARS * 4 {
        // Far too long for any token but junk: no folding or classification.
        push(TokKind::Move(w), w);
        return;
    }
    let folded = fold_fullwidth(w);
    if let Some(r) = is_result(&folded) {
        push(TokKind::Result(r), w);
        return;
    }
    if folded.starts_with('$') || is_glyph(&folded) {
        push(TokKind::Nag(folded), w);
        return;
    }
    // WXF two-file soldier moves (`66.7`) look like a move number glued to a digit.
    if folded.chars().count() == 4 && classify(&folded) == Some(TokenKind::Wxf) {
        push(TokKind::Move(w), w);
        return;
    }
    let digits = folded.chars().take_while(|c| c.is_ascii_digit()).count();
    let dots = folded
        .chars()
        .skip(digits)
        .take_while(|&c| c == '.' || c == '…')
        .count();
    // `12.`, `12...`, `12…` and a bare `...` are move numbers; text glued after them
    // (`1.h2e2`) is the move. Folding maps characters one to one, so char offsets into
    // `folded` are offsets into `w`: moves keep their source spelling.
    let skip = if dots > 0 { digits + dots } else { 0 };
    let byte_at = |s: &str, n: usize| s.char_indices().nth(n).map_or(s.len(), |(i, _)| i);
    let (wskip, fskip) = (byte_at(w, skip), byte_at(&folded, skip));
    if dots > 0 {
        push(TokKind::Number(&w[..byte_at(w, digits)]), &w[..wskip]);
    }
    let body = &folded[fskip..];
    let original = &w[wskip..];
    if body.is_empty() {
        return;
    }
    if let Some(r) = is_result(body) {
        push(TokKind::Result(r), original);
        return;
    }
    let glyph_start = body
        .char_indices()
        .rev()
        .take_while(|(_, c)| *c == '!' || *c == '?')
        .last()
        .map(|(i, _)| i);
    match glyph_start {
        Some(i) if i > 0 => {
            let n = body[..i].chars().count();
            let split = byte_at(original, n);
            push(TokKind::Move(&original[..split]), &original[..split]);
            push(TokKind::Nag(body[i..].to_string()), &original[split..]);
        }
        _ => push(TokKind::Move(original), original),
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Tok<'a>;

    fn next(&mut self) -> Option<Tok<'a>> {
        loop {
            if let Some(t) = self.pending.pop_front() {
                return Some(t);
            }
            let ch = self.peek()?;
            if ch == '\n' || ch == '\r' {
                self.line_start = true;
                self.bump();
                continue;
            }
            if ch.is_whitespace() || ch == '\u{feff}' {
                self.bump();
                continue;
            }
            let at = Mark {
                pos: self.pos,
                line: self.line,
                col: self.col,
                line_start: self.line_start,
            };
            self.line_start = false;
            let t = match ch {
                '%' if at.col == 1 => {
                    self.bump();
                    let s = self.pos;
                    self.skip_to_eol();
                    let body = &self.text[s..self.pos];
                    self.tok(
                        TokKind::Escape(body),
                        self.text[at.pos..self.pos].into(),
                        at,
                    )
                }
                '[' => self.read_tag(at),
                '{' => self.read_brace_comment(at),
                ';' => {
                    self.bump();
                    let s = self.pos;
                    self.skip_to_eol();
                    let body = &self.text[s..self.pos];
                    self.tok(TokKind::Comment(body.into()), body.into(), at)
                }
                '(' => {
                    self.bump();
                    self.tok(TokKind::Open, "(".into(), at)
                }
                ')' => {
                    self.bump();
                    self.tok(TokKind::Close, ")".into(), at)
                }
                ']' | '}' => {
                    self.bump();
                    self.tok(
                        TokKind::Bad("a move"),
                        self.text[at.pos..self.pos].into(),
                        at,
                    )
                }
                _ => {
                    self.read_word(at);
                    continue;
                }
            };
            return Some(t);
        }
    }
}

/// True for a word that reads as a move in some notation (cheap enough for the splitter).
pub(crate) fn is_move_word(w: &str) -> bool {
    w.chars().count() <= MAX_MOVE_CHARS && classify(&fold_fullwidth(w)).is_some()
}

/// Where the tag value starting at `start` ends: the offsets of its closing quote and
/// of the `]` after it, or `None`. The value ends at the quote followed by `]` (values
/// in the wild hold unescaped quotes and brackets, and sometimes run onto a second
/// line, never a third: that bound keeps a file of unclosed tags linear).
pub(crate) fn tag_value_close(bytes: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let mut j = start;
    let mut newlines = 0;
    while j < end {
        match bytes[j] {
            b'\\' if j + 1 < end && matches!(bytes[j + 1], b'"' | b'\\') => {
                j += 2;
                continue;
            }
            b'"' => {
                let mut k = j + 1;
                while k < end && matches!(bytes[k], b' ' | b'\t') {
                    k += 1;
                }
                if k < end && bytes[k] == b']' {
                    return Some((j, k));
                }
            }
            b'\n' => {
                newlines += 1;
                if newlines > 1 || (j > start && bytes[j - 1] == b'\n') {
                    return None;
                }
            }
            // A lone CR ends a line; CRLF counts at its LF.
            b'\r' if !(j + 1 < end && bytes[j + 1] == b'\n') => {
                newlines += 1;
                if newlines > 1 {
                    return None;
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// A tag value with `\"` and `\\` read as `"` and `\` (borrowed when it has no
/// backslash).
pub(crate) fn unescape_tag_value(raw: &str) -> Cow<'_, str> {
    if !raw.contains('\\') {
        return Cow::Borrowed(raw);
    }
    let mut v = String::with_capacity(raw.len());
    let mut it = raw.chars().peekable();
    while let Some(x) = it.next() {
        if x == '\\' && matches!(it.peek(), Some('"' | '\\')) {
            v.extend(it.next());
        } else {
            v.push(x);
        }
    }
    Cow::Owned(v)
}
