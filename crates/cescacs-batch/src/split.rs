//! Splitting a PGN-like byte stream into games without parsing them.
//!
//! CTL-PGN, xiangqi PGN and classic PGN share one outer shape: a block of `[Tag "…"]`
//! lines followed by movetext. A new game starts at the first tag line that follows
//! movetext. The splitter only has to know enough lexical structure not to be fooled by
//! a `[` that is not a tag: inside a `{…}` comment (which may span lines), after a `;`
//! rest-of-line comment, or on a `%` escape line. It works on bytes, so it is
//! indifferent to the text encoding (UTF-8, GBK, Big5, Latin-1 all keep `[`, `{`, `}`,
//! `;`, `%`, CR and LF as single bytes: none of them occurs as a trail byte of GBK or
//! Big5, whose trail bytes start at 0x40).

use crate::Framing;
use std::io::{self, BufRead};

/// One game's bytes, cut from its file at game boundaries, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based position of the game in its input.
    pub index: usize,
    /// 1-based line number of the game's first byte in its input.
    pub line: u64,
    /// Byte offset of the game's first byte in its input.
    pub offset: u64,
    /// The game's bytes, verbatim (line endings and encoding untouched).
    pub bytes: Vec<u8>,
    /// Set when the game was longer than the splitter's limit: `bytes` then holds only
    /// the first `max_game_bytes`, and the game must be reported, not processed.
    pub truncated: bool,
}

/// Reads games one at a time from a buffered byte stream; memory use is bounded by the
/// largest game (and by `max_game_bytes`), never by the file.
pub struct GameSplitter<R> {
    reader: R,
    max_game_bytes: usize,
    line_buf: Vec<u8>,
    /// The first line of the next game, already read while finding the current game's end.
    pending: Option<Vec<u8>>,
    /// Line number and offset of the next unread byte.
    line: u64,
    offset: u64,
    next_index: usize,
    in_brace_comment: bool,
    at_start: bool,
    framing: Framing,
}

impl<R: BufRead> GameSplitter<R> {
    /// Games longer than `max_game_bytes` are cut and flagged `truncated`.
    pub fn new(reader: R, max_game_bytes: usize) -> Self {
        GameSplitter {
            reader,
            max_game_bytes: max_game_bytes.max(1),
            line_buf: Vec::new(),
            pending: None,
            line: 1,
            offset: 0,
            next_index: 1,
            in_brace_comment: false,
            at_start: true,
            framing: Framing::Pgn,
        }
    }

    /// Cuts records as `framing` says instead of at PGN game boundaries.
    pub fn framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    /// Reads one line (ending at LF, CR LF, or a lone CR) into `line_buf`, terminator
    /// included. Returns false at end of input.
    fn read_line(&mut self) -> io::Result<bool> {
        self.line_buf.clear();
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(!self.line_buf.is_empty());
            }
            // A lone CR ends a line too (old Mac files in the xiangqi corpus). A CR that is
            // the last byte of the buffer may be followed by LF in the next fill.
            if self.line_buf.last() == Some(&b'\r') {
                if available[0] == b'\n' {
                    self.line_buf.push(b'\n');
                    self.reader.consume(1);
                }
                return Ok(true);
            }
            match memchr::memchr2(b'\n', b'\r', available) {
                Some(i) if available[i] == b'\n' => {
                    self.line_buf.extend_from_slice(&available[..=i]);
                    self.reader.consume(i + 1);
                    return Ok(true);
                }
                Some(i) => {
                    self.line_buf.extend_from_slice(&available[..=i]);
                    self.reader.consume(i + 1);
                    // Loop once more to see whether LF follows the CR.
                }
                None => {
                    let n = available.len();
                    self.line_buf.extend_from_slice(available);
                    self.reader.consume(n);
                }
            }
        }
    }

    /// Classifies a line and updates the comment state. Returns `(is_tag, is_movetext)`.
    fn classify(&mut self, line: &[u8]) -> (bool, bool) {
        let mut rest = line;
        if self.at_start {
            self.at_start = false;
            rest = rest.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(rest);
        }
        let trimmed = trim_start(rest);
        if self.in_brace_comment {
            self.scan_braces(trimmed);
            return (false, false);
        }
        match trimmed.first() {
            None => (false, false),
            Some(b'[') => (true, false),
            Some(b'%') => (false, false),
            Some(_) => {
                let content = self.scan_braces(trimmed);
                (false, content)
            }
        }
    }

    /// Tracks `{…}` comments across the line; `;` outside a comment hides the rest of
    /// the line. Returns whether the line has anything outside comments.
    fn scan_braces(&mut self, line: &[u8]) -> bool {
        let mut content = false;
        for &b in line {
            if self.in_brace_comment {
                if b == b'}' {
                    self.in_brace_comment = false;
                }
                continue;
            }
            match b {
                b'{' => self.in_brace_comment = true,
                b';' => break,
                b' ' | b'\t' | b'\r' | b'\n' => {}
                _ => content = true,
            }
        }
        // A leading comment before the first move still belongs to its game's movetext.
        content || line.first() == Some(&b'{')
    }

    /// The next game, or `None` at end of input.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        let mut game = RawGame {
            index: self.next_index,
            line: self.line,
            offset: self.offset,
            bytes: Vec::new(),
            truncated: false,
        };
        let mut seen_movetext = false;
        let mut has_content = false;
        if let Some(first) = self.pending.take() {
            game.line = self.line - 1;
            game.offset = self.offset - first.len() as u64;
            self.push(&mut game, &first);
            has_content = true;
            // In PGN framing the carried line is a tag; in line framing it is a whole record.
            seen_movetext = self.framing == Framing::Lines;
        }
        loop {
            if !self.read_line()? {
                break;
            }
            let line = std::mem::take(&mut self.line_buf);
            let (is_tag, is_movetext) = match self.framing {
                Framing::Pgn => self.classify(&line),
                // Every non-blank line starts a record once the current one has content.
                Framing::Lines => {
                    let blank = trim_start(&line).is_empty();
                    (!blank, !blank)
                }
                Framing::Whole => (false, false),
            };
            self.line += 1;
            self.offset += line.len() as u64;
            if is_tag && seen_movetext {
                self.pending = Some(line);
                break;
            }
            if !has_content && trim_start(&line).is_empty() {
                // Blank lines between games belong to no game.
                game.line = self.line;
                game.offset = self.offset;
                self.line_buf = line;
                continue;
            }
            seen_movetext |= is_movetext;
            has_content = true;
            self.push(&mut game, &line);
            self.line_buf = line;
        }
        if !has_content {
            return Ok(None);
        }
        self.next_index += 1;
        Ok(Some(game))
    }

    fn push(&self, game: &mut RawGame, line: &[u8]) {
        let room = self.max_game_bytes.saturating_sub(game.bytes.len());
        if line.len() > room {
            game.bytes.extend_from_slice(&line[..room]);
            game.truncated = true;
        } else {
            game.bytes.extend_from_slice(line);
        }
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = io::Result<RawGame>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game().transpose()
    }
}

fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t' | b'\r' | b'\n', rest @ ..] = s {
        s = rest;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<RawGame> {
        GameSplitter::new(text.as_bytes(), 1 << 20)
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
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
    fn no_blank_line_between_games() {
        let games = split("[A \"1\"]\n1. e4 *\n[A \"2\"]\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].line, 3);
    }

    #[test]
    fn brackets_inside_comments_do_not_split() {
        let text = "[A \"1\"]\n1. e4 {a comment\n[not a tag] still comment}\n; [x]\ne5 *\n";
        assert_eq!(split(text).len(), 1);
        let text = "[A \"1\"]\n1. e4 ; {not a comment start\n[B \"2\"]\n1. d4\n";
        assert_eq!(split(text).len(), 2);
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
        assert_eq!(split("1. e4 e5 2. Nf3 *\n").len(), 1);
        assert!(split("").is_empty());
        assert!(split("\n \n").is_empty());
    }

    #[test]
    fn oversized_game_is_truncated_and_flagged() {
        let text = "[A \"1\"]\n1. e4 e5 2. Nf3 Nc6 *\n[A \"2\"]\n1. d4 *\n";
        let games: Vec<_> = GameSplitter::new(text.as_bytes(), 10)
            .collect::<io::Result<_>>()
            .unwrap();
        assert_eq!(games.len(), 2);
        assert!(games[0].truncated && games[0].bytes.len() == 10);
        assert!(games[1].truncated);
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

    #[test]
    fn bom_is_kept_in_bytes_but_does_not_hide_a_tag() {
        let games = split("\u{feff}[A \"1\"]\n1. e4 *\n[A \"2\"]\n*\n");
        assert_eq!(games.len(), 2);
        assert!(games[0].bytes.starts_with(b"\xEF\xBB\xBF["));
    }
}
