//! The JSON record splitter: JSON Lines records and top-level array elements.

use super::*;

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
    pub(super) fn next_json(&mut self) -> io::Result<Option<RawGame>> {
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
