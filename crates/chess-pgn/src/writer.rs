//! Export format (spec §3–§7): deterministic bytes, idempotent through import.
//!
//! [`to_pgn_string`] writes the export form with the default [`WriteOptions`];
//! [`to_pgn_with`] takes options (move notation, line limit, FEN castling spelling)
//! and also returns [`WriteWarning`]s for what the text could not carry as it was:
//! a line longer than the limit (a long comment word or a `;` comment), a tag value
//! with a line break, a tag name PGN cannot spell, a comment whose spacing was
//! reflowed. Whatever is written reads back as the same game (for SAN, LAN and UCI
//! alike), except for exactly what a warning names.

use std::borrow::Cow;
use std::io::{self, Write};

use cozy_chess::Board;

use crate::model::{After, CastlingStyle, Game, Line, Turn, Variant, to_fen};
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
    /// Move numbers (`12.`, `12...`) in the movetext; without them the text is
    /// pgn-extract's `--nomovenumbers` output (not export format).
    pub move_numbers: bool,
    /// The result marker at the end of the movetext (the `Result` tag is written
    /// either way); without it, pgn-extract's `--noresults` output.
    pub result_marker: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            notation: Notation::San,
            max_line: MAX_LINE,
            fen_castling: None,
            move_numbers: true,
            result_marker: true,
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
    export_tag_pairs(game, options)
        .into_iter()
        .map(|(n, v)| (n.to_string(), v.into_owned()))
        .collect()
}

/// [`export_tags_with`] borrowing the game's names and values (only `FEN` and the
/// defaults are made here): what the writer and loss checks use per game.
pub fn export_tag_pairs<'a>(
    game: &'a Game,
    options: &WriteOptions,
) -> Vec<(&'a str, Cow<'a, str>)> {
    let mut out: Vec<(&str, Cow<str>)> = Vec::with_capacity(game.tags.len() + 9);
    for name in STR {
        let v = if name == "Result" {
            Cow::Borrowed(game.outcome.as_str())
        } else {
            match game.tags.iter().find(|(n, _)| n == name) {
                Some((_, v)) => Cow::Borrowed(v.as_str()),
                None if name == "Date" => Cow::Borrowed("????.??.??"),
                None => Cow::Borrowed("?"),
            }
        };
        out.push((name, v));
    }
    let roster = out.len();
    out.extend(
        game.tags
            .iter()
            .filter(|(n, _)| !STR.contains(&n.as_str()))
            .map(|(n, v)| (n.as_str(), Cow::Borrowed(v.as_str()))),
    );
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
        out.push(("FEN", Cow::Owned(fen)));
        out.push(("SetUp", Cow::Borrowed("1")));
    }
    // Stable sort: equal names (duplicates) keep their order.
    out[roster..].sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out
}

/// Packs movetext tokens into lines of at most `max` characters (the model writer's
/// and [`crate::export_pgn`]'s, so that the two lay out text alike).
///
/// The text is kept as bytes: every piece pushed is a `&str` or ASCII, so the bytes
/// are UTF-8, and a short ASCII token goes in as a few word stores
/// ([`Packer::ascii_move`]) where a `String` would take it a `char` at a time.
pub(crate) struct Packer {
    pub(crate) out: Vec<u8>,
    line: usize,
    opens: usize,
    max: usize,
    /// After a `;` comment the line must end before anything else is written.
    break_next: bool,
    warnings: Vec<WriteWarning>,
    /// A comment unit being put together, kept from one comment to the next.
    unit: String,
    /// Whether some line passed `max` (then the lines are measured for warnings).
    long: bool,
    /// [`WriteOptions::move_numbers`].
    numbers: bool,
}

/// Width in characters (the text is nearly always ASCII).
fn width(t: &str) -> usize {
    if t.is_ascii() {
        t.len()
    } else {
        t.chars().count()
    }
}

/// Writes `n` in decimal into the end of `buf`, returning where it starts.
pub(crate) fn decimal(mut n: u32, buf: &mut [u8; 10]) -> usize {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return at;
        }
    }
}

impl Packer {
    /// A packer appending to `out`, whose movetext starts a line.
    pub(crate) fn new(out: Vec<u8>, max: usize) -> Packer {
        Packer {
            out,
            line: 0,
            opens: 0,
            max,
            break_next: false,
            warnings: Vec::new(),
            unit: String::new(),
            long: false,
            numbers: true,
        }
    }

    pub(crate) fn token(&mut self, t: &str) {
        self.token3("", t, "");
    }

    /// One token spelt in three pieces, so that no piece needs joining first.
    fn token3(&mut self, pre: &str, t: &str, post: &str) {
        if self.break_next {
            self.out.push(b'\n');
            self.line = 0;
            self.break_next = false;
        }
        let w = self.opens + width(pre) + width(t) + width(post);
        if self.line > 0 && self.line + 1 + w > self.max {
            self.out.push(b'\n');
            self.line = 0;
        }
        if self.line > 0 {
            self.out.push(b' ');
            self.line += 1;
        }
        for _ in 0..self.opens {
            self.out.push(b'(');
        }
        self.opens = 0;
        if !pre.is_empty() {
            self.out.extend_from_slice(pre.as_bytes());
        }
        self.out.extend_from_slice(t.as_bytes());
        if !post.is_empty() {
            self.out.extend_from_slice(post.as_bytes());
        }
        self.line += w;
        self.long |= self.line > self.max;
    }

    /// [`Packer::token`] for a token known to be ASCII, outside any variation (no `(`
    /// to glue): the direct export's moves, numbers and NAGs, laid out as `token`
    /// lays them out without measuring characters.
    #[inline]
    pub(crate) fn ascii(&mut self, t: &str) {
        debug_assert!(t.is_ascii() && self.opens == 0);
        self.space_for(t.len());
        self.out.extend_from_slice(t.as_bytes());
        self.line += t.len();
        self.long |= self.line > self.max;
    }

    /// [`Packer::ascii`] of a move number (the first `na` bytes of `a`; none when
    /// `na` is 0) and then of a move (the first `nb` bytes of `b`), laid out exactly
    /// as the two calls lay them out. The direct export writes every move so: both
    /// tokens and their separators are put together in one block on the stack (the
    /// padded buffers copied whole, a few word stores, the rest cut off again) and
    /// appended with one capacity test; a call per token cost two tests, two copies
    /// and the separators' pushes.
    #[inline]
    pub(crate) fn ascii_move(&mut self, a: &[u8; 8], na: usize, b: &[u8; 16], nb: usize) {
        debug_assert!(na <= 8 && nb <= 16 && self.opens == 0);
        debug_assert!(a[..na].is_ascii() && b[..nb].is_ascii());
        let mut block = [0u8; 32];
        let mut n = 0;
        if na > 0 {
            n = self.separator(&mut block, 0, na);
            // At most one separator before it: `n & 3` is `n`.
            block[n & 3..(n & 3) + 8].copy_from_slice(a);
            n += na;
            self.line += na;
            self.long |= self.line > self.max;
        }
        // At most 1 + 8 bytes before the separator and 1 + 16 after it: `& 15` and
        // the separator's place keep the indexes inside the block.
        let at = self.separator(&mut block, n & 15, nb);
        block[at & 15..(at & 15) + 16].copy_from_slice(b);
        n = at + nb;
        self.line += nb;
        self.long |= self.line > self.max;
        let start = self.out.len();
        self.out.extend_from_slice(&block);
        self.out.truncate(start + n);
    }

    /// [`Packer::space_for`] into `block` at `at`: where the token then starts.
    #[inline(always)]
    fn separator(&mut self, block: &mut [u8; 32], at: usize, w: usize) -> usize {
        match self.break_before(w) {
            Some(b) => {
                block[at & 15] = b;
                at + 1
            }
            None => at,
        }
    }

    /// The line break or space before an ASCII token of `w` bytes.
    #[inline]
    fn space_for(&mut self, w: usize) {
        if let Some(b) = self.break_before(w) {
            self.out.push(b);
        }
    }

    /// The byte [`Packer::space_for`] writes before an ASCII token of `w` bytes (a
    /// line break pending, else a space, or a line break where the token would pass
    /// the line's end; none at a line's start), the line counted on.
    #[inline(always)]
    fn break_before(&mut self, w: usize) -> Option<u8> {
        if self.break_next {
            self.line = 0;
            self.break_next = false;
            return Some(b'\n');
        }
        if self.line == 0 {
            return None;
        }
        if self.line + 1 + w > self.max {
            self.line = 0;
            Some(b'\n')
        } else {
            self.line += 1;
            Some(b' ')
        }
    }

    /// [`Packer::number`] outside any variation: `pre` (`""` or `$`), the digits of
    /// `n`, `dots` dots, pushed byte by byte (a `memcpy` call per piece cost more
    /// than the token).
    #[inline]
    pub(crate) fn ascii_number(&mut self, pre: &str, n: u32, dots: usize) {
        debug_assert!(pre.len() <= 1 && self.opens == 0);
        // Move numbers and NAGs have one to three digits nearly always.
        let digits = match n {
            0..10 => 1,
            10..100 => 2,
            100..1000 => 3,
            _ => 10 - decimal(n, &mut [0; 10]),
        };
        self.space_for(pre.len() + digits + dots);
        if let Some(&p) = pre.as_bytes().first() {
            self.out.push(p);
        }
        let digit = |k: u32| b'0' + (n / k % 10) as u8;
        match digits {
            1 => self.out.push(digit(1)),
            2 => {
                self.out.push(digit(10));
                self.out.push(digit(1));
            }
            3 => {
                self.out.push(digit(100));
                self.out.push(digit(10));
                self.out.push(digit(1));
            }
            _ => {
                let mut buf = [0; 10];
                let at = decimal(n, &mut buf);
                self.out.extend_from_slice(&buf[at..]);
            }
        }
        for _ in 0..dots {
            self.out.push(b'.');
        }
        self.line += pre.len() + digits + dots;
        self.long |= self.line > self.max;
    }

    /// `12.` or `12...`, or `$12`.
    pub(crate) fn number(&mut self, pre: &str, n: u32, post: &str) {
        let mut buf = [0; 10];
        let at = decimal(n, &mut buf);
        // Only ASCII digits were written.
        self.token3(pre, std::str::from_utf8(&buf[at..]).unwrap_or(""), post);
    }

    fn close(&mut self) {
        if self.break_next || self.line + 1 > self.max {
            self.break_next = false;
            self.out.push(b'\n');
            self.line = 0;
        }
        self.out.push(b')');
        self.line += 1;
        self.long |= self.line > self.max;
    }

    pub(crate) fn comment(&mut self, text: &str) {
        if !self.plain_comment(text) {
            self.comment_general(text);
        }
    }

    /// [`Packer::comment`] of any text.
    fn comment_general(&mut self, text: &str) {
        if !single_spaced(text) {
            self.warnings.push(WriteWarning::CommentReflowed {
                excerpt: text.chars().take(40).collect(),
            });
        }
        if text.contains('}') {
            // A brace comment cannot hold `}`; a `;` comment to the end of the line can,
            // at the price of a line that may pass the limit.
            let words: Vec<&str> = text.split_whitespace().collect();
            self.token3(";", &words.join(" "), "");
            self.break_next = true;
            return;
        }
        // A word starting with `%` must not start a line (it would become an escape
        // line, spec §2), nor one starting with `[` (a game splitter looking for tag
        // lines could take it for the next game): it stays on the line of the word
        // before it.
        let mut unit = std::mem::take(&mut self.unit);
        let mut words = text.split_whitespace().peekable();
        let mut first = true;
        while let Some(w) = words.next() {
            unit.clear();
            unit.push_str(w);
            while let Some(next) = words.next_if(|n| n.starts_with(['%', '['])) {
                unit.push(' ');
                unit.push_str(next);
            }
            let last = words.peek().is_none();
            self.token3(
                if first { "{" } else { "" },
                &unit,
                if last { "}" } else { "" },
            );
            first = false;
        }
        if first {
            self.token("{}");
        }
        self.unit = unit;
    }
}

impl Packer {
    /// [`Packer::comment`] of the usual comment, laid out as it lays it out, when
    /// `text` is printable ASCII words joined by single spaces with no `}`, `%` or `[`
    /// (each word its own unit, nothing to warn about), outside any variation: the
    /// words are cut at the spaces and copied, without the units and the width
    /// counts of the general path. False (nothing written) for any other text.
    #[inline]
    fn plain_comment(&mut self, text: &str) -> bool {
        /// Printable ASCII but `}`, `%` and `[`, and the space.
        const PLAIN: [bool; 256] = {
            let mut t = [false; 256];
            let mut b = b' ';
            while b <= b'~' {
                t[b as usize] = !matches!(b, b'}' | b'%' | b'[');
                b += 1;
            }
            t
        };
        let bytes = text.as_bytes();
        // One pass, no branch per byte; a space before the first byte makes a
        // leading space a double one.
        let mut plain = self.opens == 0;
        let mut prev = b' ';
        for &b in bytes {
            plain &= PLAIN[usize::from(b)] & !(b == b' ' && prev == b' ');
            prev = b;
        }
        // Not empty, no trailing space.
        if !plain || prev == b' ' {
            return false;
        }
        let mut rest = bytes;
        let mut open = 1;
        loop {
            let (word, close) = match memchr::memchr(b' ', rest) {
                Some(k) => (&rest[..k], 0),
                None => (rest, 1),
            };
            let w = open + word.len() + close;
            self.space_for(w);
            if open == 1 {
                self.out.push(b'{');
            }
            self.out.extend_from_slice(word);
            if close == 1 {
                self.out.push(b'}');
            }
            self.line += w;
            self.long |= self.line > self.max;
            if close == 1 {
                return true;
            }
            rest = &rest[word.len() + 1..];
            open = 0;
        }
    }
}

/// Whether `text` is its words joined by single spaces (what the reader makes of it).
fn single_spaced(text: &str) -> bool {
    let mut after_space = true;
    for c in text.chars() {
        if c.is_whitespace() {
            if c != ' ' || after_space {
                return false;
            }
            after_space = true;
        } else {
            after_space = false;
        }
    }
    !after_space || text.is_empty()
}

fn write_line(p: &mut Packer, line: &Line, start: &Board, notation: Notation, chess960: bool) {
    write_line_from(p, line, Turn::new(start, line), start, notation, chess960);
}

/// `board` is played along only for long algebraic and UCI, which need the position;
/// SAN needs the move numbers only, which `turn` counts.
fn write_line_from(
    p: &mut Packer,
    line: &Line,
    mut turn: Turn,
    start: &Board,
    notation: Notation,
    chess960: bool,
) {
    for c in &line.comments {
        p.comment(c);
    }
    let mut board = (notation != Notation::San).then(|| start.clone());
    let mut need_number = true;
    for node in &line.moves {
        let n = u32::from(turn.number());
        if p.numbers && turn.white() {
            p.number("", n, ".");
        } else if p.numbers && need_number {
            p.number("", n, "...");
        }
        match (&board, notation) {
            (Some(b), Notation::Lan) => p.token(&lan_with_suffix(b, node.mv, node.san.suffix)),
            (Some(b), Notation::Uci) => p.token(&uci(b, node.mv, chess960)),
            _ => p.token(node.san.text().as_str()),
        }
        for &nag in &node.nags {
            if nag != 0 {
                p.number("$", u32::from(nag), "");
            }
        }
        need_number = false;
        for a in &node.after {
            match a {
                After::Comment(c) => p.comment(c),
                After::Variation(v) => {
                    p.opens += 1;
                    let here = board.as_ref().unwrap_or(start);
                    write_line_from(p, v, turn.clone(), here, notation, chess960);
                    if p.opens > 0 {
                        // An empty line still gets its parentheses.
                        p.token("");
                    }
                    p.close();
                }
            }
            need_number = true;
        }
        turn.play(node.mv);
        if let Some(b) = &mut board {
            crate::model::play(b, node.mv);
        }
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

/// Bytes a tag name cannot hold: they end a symbol token.
const NOT_IN_NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b <= b' ' as usize {
        t[b] = true;
        b += 1;
    }
    t[0x7f] = true;
    let stops = b"[](){}\";.$*<>";
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
};

/// Whether a tag name is one symbol token that reads back as itself.
pub(crate) fn tag_name_ok(name: &[u8]) -> bool {
    !name.is_empty() && name.iter().all(|&b| !NOT_IN_NAME[usize::from(b)])
}

/// A packer's bytes as text: only `&str`s and ASCII are pushed, so they are UTF-8.
fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
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
    let tags = export_tag_pairs(game, options);
    let pairs = tags.len();
    s.reserve(
        tags.iter()
            .map(|(n, v)| n.len() + v.len() + 6)
            .sum::<usize>()
            + 1,
    );
    for (n, v) in tags {
        s.push('[');
        if tag_name_ok(n.as_bytes()) {
            s.push_str(n);
        } else {
            let written: String = if n.is_empty() {
                "_".into()
            } else {
                n.chars()
                    .map(|c| {
                        if tag_name_ok(c.encode_utf8(&mut [0; 4]).as_bytes()) {
                            c
                        } else {
                            '_'
                        }
                    })
                    .collect()
            };
            s.push_str(&written);
            warnings.push(WriteWarning::TagName {
                name: n.to_string(),
                written,
            });
        }
        s.push_str(" \"");
        let mut broke = false;
        let plain = !v
            .bytes()
            .any(|b| matches!(b, b'"' | b'\\' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c));
        if plain {
            s.push_str(&v);
        } else {
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
        }
        if broke {
            warnings.push(WriteWarning::TagLineBreak { tag: n.to_string() });
        }
        s.push_str("\"]\n");
    }
    s.push('\n');
    // One line per pair (a value's line breaks are written as spaces, a name's as
    // `_`) and the blank line.
    let tag_lines = pairs + 1;
    // About seven bytes a move: the movetext is written without growing the string
    // again and again.
    s.reserve(8 * game.moves.moves.len() + 16);
    let movetext = s.len();
    let mut p = Packer::new(s.into_bytes(), max);
    p.numbers = options.move_numbers;
    write_line(
        &mut p,
        &game.moves,
        &game.start,
        options.notation,
        game.variant == Variant::Chess960,
    );
    if options.result_marker {
        p.token(game.outcome.as_str());
    }
    for c in &game.final_comments {
        p.comment(c);
    }
    warnings.append(&mut p.warnings);
    let mut s = text_of(p.out);
    let lines = s[movetext..].lines().filter(|_| p.long);
    for (i, line) in lines.enumerate() {
        // A line of at most `max` bytes has at most `max` characters.
        if line.len() <= max {
            continue;
        }
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
    s.push_str("\n\n");
    Written { text: s, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MoveNode;
    use crate::san::{San, SanPlus};

    /// The plain comments' layout is the general path's, at every place in a line,
    /// and every other comment is left to the general path.
    #[test]
    fn plain_comments_are_laid_out_as_the_general_path_lays_them_out() {
        let texts = [
            "a",
            "two words",
            "a much longer comment with words of many lengths: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx end",
            "[%clk 0:01:00]",
            "a %b [c",
            "x } y",
            "two  spaces",
            " lead",
            "trail ",
            "tab\there",
            "caf\u{e9} au lait",
            "",
            "-- !? 1-0 {",
        ];
        let mut plain = 0;
        for text in texts {
            for before in 0..=MAX_LINE {
                for break_next in [false, true] {
                    let start = |p: &mut Packer| {
                        p.ascii(&"x".repeat(before.max(1)));
                        if before == 0 {
                            p.out.clear();
                            p.line = 0;
                        }
                        p.break_next = break_next;
                    };
                    let mut a = Packer::new(Vec::new(), MAX_LINE);
                    start(&mut a);
                    let taken = a.plain_comment(text);
                    if !taken {
                        a.comment_general(text);
                    }
                    plain += usize::from(taken);
                    let mut b = Packer::new(Vec::new(), MAX_LINE);
                    start(&mut b);
                    b.comment_general(text);
                    assert_eq!(a.out, b.out, "{text:?} after {before}");
                    assert_eq!(
                        (a.line, a.long, a.break_next),
                        (b.line, b.long, b.break_next)
                    );
                    assert_eq!(a.warnings.len(), b.warnings.len(), "{text:?}");
                    b.ascii("e4");
                    a.ascii("e4");
                    assert_eq!(a.out, b.out, "{text:?} then a move");
                }
            }
        }
        // The first three texts (and the glyph soup) take the plain path.
        assert_eq!(plain, 4 * 2 * (MAX_LINE + 1), "{plain}");
    }

    /// Move numbers are counted, not replayed; but a null move in check (which a
    /// model built from another format may hold) leaves the turn where it was, as
    /// `Board::null_move` does, and the numbers must follow the board.
    #[test]
    fn move_numbers_follow_a_null_move_played_in_check() {
        let mut game = crate::parse_all("1. e4 f5 2. Qh5+ g6 *").remove(0).unwrap();
        let null = MoveNode {
            mv: None,
            san: SanPlus {
                san: San::Null,
                suffix: None,
                glyph: None,
            },
            nags: Vec::new(),
            after: Vec::new(),
            clock: None,
            eval: None,
        };
        // Black is in check after 2. Qh5+: the null move does not pass the turn.
        game.moves.moves.insert(3, null);
        let text = to_pgn_string(&game);
        assert!(text.ends_with("1. e4 f5 2. Qh5+ -- g6 *\n\n"), "{text}");
        // Without a null move the numbers are counted from the start position.
        let game =
            crate::parse_all("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 41\"]\n\n1... Kd7 2. Kd2 Kc6 *")
                .remove(0)
                .unwrap();
        assert!(to_pgn_string(&game).ends_with("41... Kd7 42. Kd2 Kc6 *\n\n"));
    }
}
