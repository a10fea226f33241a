//! The PGN splitter: lines classified, taken into games, cut at game boundaries.

use super::*;

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

    pub(super) fn fill(&mut self) -> io::Result<&[u8]> {
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
        // A byte-order mark is a blank wherever a line starts, as the readers take it:
        // files concatenated with `cat` carry one at each file's start, and a tag line
        // behind one is a tag line, not a movetext token that would cut a game of its own.
        let mut t = trim_start(&self.line_buf);
        while let Some(rest) = t.strip_prefix(b"\xEF\xBB\xBF") {
            t = trim_start(rest);
        }
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

    pub(super) fn new_game(&mut self) -> RawGame {
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
    pub(super) fn keep(&self, game: &mut RawGame, bytes: &[u8]) {
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
        if let Some((line, at)) = plain.brace_at {
            // Its column: the characters before it on its line, as the scanner counts.
            let start = memchr::memrchr(b'\n', &window[..at]).map_or(0, |k| k + 1);
            let column = 1 + columns(&window[start..at], self.encoding);
            self.lex.brace_at = (self.lex.line + line, column);
        }
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

    pub(super) fn emit(&mut self, mut game: RawGame) -> io::Result<Option<RawGame>> {
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
