//! The PGN scanner's per-line lexical state and the tag-line tests.

use super::*;

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

pub(super) fn is_result(t: &[u8]) -> bool {
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
    pub(super) fn scan(&mut self, bytes: &[u8], encoding: TextEncoding) {
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
            if self.in_brace || self.in_line_comment {
                i += self.skip_comment(&bytes[i..]);
                continue;
            }
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

    /// Inside a comment up to its end (`}`, or the end of `bytes`): returns the bytes
    /// taken, the `}` included. A comment's tokens change nothing but
    /// `last_token_result`, which only the last token ended says, so only that one and
    /// the token left open at the end are looked at (comments are a good part of real
    /// movetext, and were scanned token by token).
    fn skip_comment(&mut self, bytes: &[u8]) -> usize {
        let is_blank = |b: &u8| CLASS[*b as usize] & BLANK != 0;
        let close = if self.in_brace {
            memchr::memchr(b'}', bytes)
        } else {
            None
        };
        let text = &bytes[..close.unwrap_or(bytes.len())];
        if let Some(blank) = text.iter().rposition(is_blank) {
            let ended = &text[..blank];
            match ended.iter().rposition(|b| !is_blank(b)) {
                Some(end) => {
                    let start = ended[..end].iter().rposition(is_blank).map_or(0, |k| k + 1);
                    if start > 0 {
                        // The token carried in (if any) ended before this one.
                        self.token_len = 0;
                        self.token_long = false;
                    }
                    self.push_run(&ended[start..=end]);
                    self.end_token();
                }
                // Only blanks before this one: the token carried in (if any) ends here.
                None => self.end_token(),
            }
            self.push_run(&text[blank + 1..]);
        } else {
            self.push_run(text);
        }
        match close {
            Some(k) => {
                self.end_token();
                self.in_brace = false;
                k + 1
            }
            None => bytes.len(),
        }
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
    pub(super) fn scan_bytewise(&mut self, bytes: &[u8], encoding: TextEncoding) {
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

    pub(super) fn end_line(&mut self) {
        self.end_token();
        self.in_line_comment = false;
        self.pending_trail = false;
        self.line += 1;
        self.column = 1;
    }

    /// Forgets the game's state at a game boundary (the position is kept).
    pub(super) fn reset_game(&mut self) {
        *self = Lexer {
            line: self.line,
            column: self.column,
            ..Lexer::default()
        };
    }
}

/// `[Name "` at the start of a trimmed line: plainly a tag, even inside a comment.
pub(super) fn is_strict_tag_line(t: &[u8]) -> bool {
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
pub(super) fn tags_end(line: &[u8], encoding: TextEncoding) -> Option<usize> {
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
pub(super) fn columns(bytes: &[u8], encoding: TextEncoding) -> u64 {
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
