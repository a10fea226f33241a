//! Export format (spec §3–§7): deterministic bytes, idempotent through import.
//!
//! [`to_pgn_string`] writes the export form with the default [`WriteOptions`];
//! [`to_pgn_with`] takes options (move notation, line limit, FEN castling spelling)
//! and also returns [`WriteWarning`]s for what the text could not carry as it was:
//! a line longer than the limit (a long comment word or a `;` comment), a tag value
//! with a line break, a tag name PGN cannot spell, a comment whose spacing was
//! reflowed. Whatever is written reads back as the same game (for SAN, LAN and UCI
//! alike), except for exactly what a warning names.

use std::io::{self, Write};

use cozy_chess::{Board, Color};

use crate::model::{After, CastlingStyle, Game, Line, Variant, to_fen};
use crate::notation::{Notation, lan_with_suffix, uci};

/// The Seven Tag Roster, in export order.
pub const STR: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The export line limit of spec §4.
pub const MAX_LINE: usize = 80;

/// How [`to_pgn_with`] writes a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// Move notation: SAN (the default, and the only one the PGN standard knows),
    /// long algebraic or UCI.
    pub notation: Notation,
    /// Lines are packed up to this many characters; a single token longer than that
    /// (a long comment word, a `;` comment) makes a longer line, with a warning.
    pub max_line: usize,
    /// Castling spelling of the `FEN` tag; `None` keeps the spelling the game's own
    /// `FEN` tag used ([`Game::fen_castling`]), else writes Shredder-FEN for Chess960
    /// and `KQkq` for standard chess.
    pub fen_castling: Option<CastlingStyle>,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            notation: Notation::San,
            max_line: MAX_LINE,
            fen_castling: None,
        }
    }
}

/// Something the writer had to change or could not lay out as asked. The game's
/// moves are never changed; these concern text around them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteWarning {
    /// An output line is longer than [`WriteOptions::max_line`] because one token
    /// (a comment word, a `;` comment holding `}`) does not fit on a line.
    #[error("line {line} of the game is {len} characters long (limit {limit}): {why}")]
    LongLine {
        /// 1-based line number within the written game.
        line: usize,
        /// Its length in characters.
        len: usize,
        /// The limit that was passed.
        limit: usize,
        /// What made it long.
        why: &'static str,
    },
    /// A tag value held a tab or line break, which a PGN string cannot; written as
    /// a space.
    #[error("tab or line break in tag {tag} written as a space")]
    TagLineBreak {
        /// The tag's name.
        tag: String,
    },
    /// A tag name PGN cannot spell (empty, or with a byte that ends a symbol);
    /// those bytes are written as `_`.
    #[error("tag name {name:?} cannot be written in PGN; written as {written:?}")]
    TagName {
        /// The name as held in the game.
        name: String,
        /// The name as written.
        written: String,
    },
    /// A comment's spacing (line breaks, runs of spaces, edge spaces) was reflowed
    /// into single spaces, as the reader would read it anyway.
    #[error("comment spacing reflowed: {excerpt:?}")]
    CommentReflowed {
        /// The first characters of the comment.
        excerpt: String,
    },
}

/// A written game and what had to give way.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Written {
    /// Tags, blank line, movetext, blank line.
    pub text: String,
    /// In the order met while writing.
    pub warnings: Vec<WriteWarning>,
}

/// The tag pairs exactly as export writes them: the roster (defaults for missing
/// ones, `Result` from the game's outcome), then the others in ASCII order of name,
/// with `FEN`/`SetUp` whenever the start is not the standard position.
pub fn export_tags(game: &Game) -> Vec<(String, String)> {
    export_tags_with(game, &WriteOptions::default())
}

/// [`export_tags`] with the `FEN` castling spelling of `options`.
pub fn export_tags_with(game: &Game, options: &WriteOptions) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(game.tags.len() + 7);
    for name in STR {
        let v = if name == "Result" {
            game.outcome.as_str().to_string()
        } else {
            match game.tags.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None if name == "Date" => "????.??.??".to_string(),
                None => "?".to_string(),
            }
        };
        out.push((name.to_string(), v));
    }
    let mut rest: Vec<(String, String)> = game
        .tags
        .iter()
        .filter(|(n, _)| !STR.contains(&n.as_str()))
        .cloned()
        .collect();
    if game.set_up || game.start != *crate::replay::start_board() {
        // Shredder-FEN names the castling rooks exactly, which Chess960 needs when the
        // game did not say otherwise.
        let style = options
            .fen_castling
            .or(game.fen_castling)
            .unwrap_or(match game.variant {
                Variant::Chess960 => CastlingStyle::Shredder,
                Variant::Standard => CastlingStyle::XFen,
            });
        let fen = to_fen(&game.start, style);
        let fen = if game.start_halfmove_clock > 100 {
            crate::model::with_halfmove_clock(&fen, game.start_halfmove_clock)
        } else {
            fen
        };
        rest.push(("FEN".into(), fen));
        rest.push(("SetUp".into(), "1".into()));
    }
    // Stable sort: equal names (duplicates) keep their order.
    rest.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out.extend(rest);
    out
}

struct Packer {
    out: String,
    line: usize,
    opens: usize,
    max: usize,
    /// After a `;` comment the line must end before anything else is written.
    break_next: bool,
    warnings: Vec<WriteWarning>,
}

impl Packer {
    fn token(&mut self, t: &str) {
        if self.break_next {
            self.out.push('\n');
            self.line = 0;
            self.break_next = false;
        }
        let mut piece = String::new();
        for _ in 0..self.opens {
            piece.push('(');
        }
        self.opens = 0;
        piece.push_str(t);
        let w = piece.chars().count();
        if self.line > 0 && self.line + 1 + w > self.max {
            self.out.push('\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(' ');
            self.line += 1;
        }
        self.out.push_str(&piece);
        self.line += w;
    }

    fn close(&mut self) {
        if self.break_next || self.line + 1 > self.max {
            self.break_next = false;
            self.out.push('\n');
            self.line = 0;
        }
        self.out.push(')');
        self.line += 1;
    }

    fn comment(&mut self, text: &str) {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.join(" ") != text {
            self.warnings.push(WriteWarning::CommentReflowed {
                excerpt: text.chars().take(40).collect(),
            });
        }
        if text.contains('}') {
            // A brace comment cannot hold `}`; a `;` comment to the end of the line can,
            // at the price of a line that may pass the limit.
            self.token(&format!(";{}", words.join(" ")));
            self.break_next = true;
            return;
        }
        // A word starting with `%` must not start a line (it would become an escape
        // line, spec §2), nor one starting with `[` (a game splitter looking for tag
        // lines could take it for the next game): it stays on the line of the word
        // before it.
        let mut units: Vec<String> = Vec::with_capacity(words.len());
        for w in words {
            match units.last_mut() {
                Some(prev) if w.starts_with(['%', '[']) => {
                    prev.push(' ');
                    prev.push_str(w);
                }
                _ => units.push(w.to_string()),
            }
        }
        match units.len() {
            0 => self.token("{}"),
            1 => self.token(&format!("{{{}}}", units[0])),
            n => {
                self.token(&format!("{{{}", units[0]));
                for w in &units[1..n - 1] {
                    self.token(w);
                }
                self.token(&format!("{}}}", units[n - 1]));
            }
        }
    }
}

fn write_line(p: &mut Packer, line: &Line, start: &Board, notation: Notation, chess960: bool) {
    for c in &line.comments {
        p.comment(c);
    }
    let mut board = start.clone();
    let mut need_number = true;
    for node in &line.moves {
        let n = board.fullmove_number();
        if board.side_to_move() == Color::White {
            p.token(&format!("{n}."));
        } else if need_number {
            p.token(&format!("{n}..."));
        }
        match notation {
            Notation::San => p.token(&node.san.to_string()),
            Notation::Lan => p.token(&lan_with_suffix(&board, node.mv, node.san.suffix)),
            Notation::Uci => p.token(&uci(&board, node.mv, chess960)),
        }
        for &nag in &node.nags {
            if nag != 0 {
                p.token(&format!("${nag}"));
            }
        }
        need_number = false;
        for a in &node.after {
            match a {
                After::Comment(c) => p.comment(c),
                After::Variation(v) => {
                    p.opens += 1;
                    write_line(p, v, &board, notation, chess960);
                    if p.opens > 0 {
                        // An empty line still gets its parentheses.
                        p.token("");
                    }
                    p.close();
                }
            }
            need_number = true;
        }
        crate::model::play(&mut board, node.mv);
    }
}

/// Writes one game in export format, followed by one blank line.
pub fn write_game<W: Write>(w: &mut W, game: &Game) -> io::Result<()> {
    w.write_all(to_pgn_string(game).as_bytes())
}

/// The export form of one game as a string (tags, blank line, movetext, blank line),
/// with the default options; see [`to_pgn_with`] for the warnings.
pub fn to_pgn_string(game: &Game) -> String {
    to_pgn_with(game, &WriteOptions::default()).text
}

/// Whether a tag name is one symbol token that reads back as itself.
fn tag_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b > b' ' && b != 0x7f && !b"[](){}\";.$*<>".contains(&b))
}

/// One game written with `options`, with what the text could not carry as it was.
///
/// ```
/// use chess_pgn::{parse_all, to_pgn_with, WriteOptions, Notation};
/// let game = parse_all("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O *").remove(0).unwrap();
/// let lan = WriteOptions { notation: Notation::Lan, ..WriteOptions::default() };
/// let uci = WriteOptions { notation: Notation::Uci, ..WriteOptions::default() };
/// assert!(to_pgn_with(&game, &lan).text.ends_with("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. O-O *\n\n"));
/// assert!(to_pgn_with(&game, &uci).text.ends_with("1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. e1g1 *\n\n"));
/// ```
pub fn to_pgn_with(game: &Game, options: &WriteOptions) -> Written {
    let max = options.max_line.max(1);
    let mut s = String::new();
    let mut warnings = Vec::new();
    for (n, v) in export_tags_with(game, options) {
        s.push('[');
        if tag_name_ok(&n) {
            s.push_str(&n);
        } else {
            let written: String = if n.is_empty() {
                "_".into()
            } else {
                n.chars()
                    .map(|c| {
                        if tag_name_ok(c.encode_utf8(&mut [0; 4])) {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect()
            };
            s.push_str(&written);
            warnings.push(WriteWarning::TagName {
                name: n.clone(),
                written,
            });
        }
        s.push_str(" \"");
        let mut broke = false;
        for c in v.chars() {
            match c {
                '"' => s.push_str("\\\""),
                '\\' => s.push_str("\\\\"),
                // Export forbids tabs and line breaks inside strings.
                '\t' | '\n' | '\r' | '\x0b' | '\x0c' => {
                    s.push(' ');
                    broke = true;
                }
                c => s.push(c),
            }
        }
        if broke {
            warnings.push(WriteWarning::TagLineBreak { tag: n.clone() });
        }
        s.push_str("\"]\n");
    }
    s.push('\n');
    let mut p = Packer {
        out: String::new(),
        line: 0,
        opens: 0,
        max,
        break_next: false,
        warnings: Vec::new(),
    };
    write_line(
        &mut p,
        &game.moves,
        &game.start,
        options.notation,
        game.variant == Variant::Chess960,
    );
    p.token(game.outcome.as_str());
    for c in &game.final_comments {
        p.comment(c);
    }
    warnings.append(&mut p.warnings);
    let tag_lines = s.matches('\n').count();
    for (i, line) in p.out.lines().enumerate() {
        let len = line.chars().count();
        if len > max {
            let why = if line.contains(';') {
                "a comment holding `}` is written as a `;` comment, which cannot be broken"
            } else {
                "one word does not fit on a line"
            };
            warnings.push(WriteWarning::LongLine {
                line: tag_lines + i + 1,
                len,
                limit: max,
                why,
            });
        }
    }
    s.push_str(&p.out);
    s.push_str("\n\n");
    Written { text: s, warnings }
}
