//! Streaming import: games one at a time from any `io::Read`, as visitor events.

use std::io::{self, Read};
use std::ops::Range;

use pgn_core::{Next, Pos, TokenKind, Tokenizer};

use cozy_chess::{Piece, Rank};

use crate::san::{San, SanPlus, Suffix, glyph_nag};

/// How a game ended, as written in the movetext or the `Result` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2` (also `½-½`, `1/2`, `=-=`).
    Draw,
    /// `*`: unfinished or unknown.
    #[default]
    Unknown,
}

impl Outcome {
    /// Reads a result marker or tag value, accepting the common variants (spec §8).
    #[inline]
    pub fn parse(s: &[u8]) -> Option<Outcome> {
        Some(match s {
            b"1-0" => Outcome::WhiteWins,
            b"0-1" => Outcome::BlackWins,
            b"1/2-1/2" | b"1/2" | b"\xc2\xbd-\xc2\xbd" | b"\xbd-\xbd" | b"=-=" => Outcome::Draw,
            b"*" => Outcome::Unknown,
            _ => return None,
        })
    }

    /// The marker as export writes it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        }
    }
}

/// What the visitor wants after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Go on with the next token.
    Continue,
    /// Skip the rest of this game's movetext (e.g. after an illegal move).
    SkipMovetext,
}

/// Non-fatal anomalies met while reading; the reader always goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Problem {
    #[error("token is not a move, number, result or annotation")]
    /// A symbol that is no move, number, result or annotation (an error).
    NotAMove,
    #[error("comment not closed before end of input")]
    /// A `{` comment open at the end of input.
    UnterminatedComment,
    #[error("malformed tag pair")]
    /// A tag pair that is not `[Name "value"]`.
    MalformedTag,
    #[error("`)` without matching `(`")]
    /// A `)` with no variation open.
    UnmatchedClose,
    #[error("variation not closed at end of game")]
    /// A `(` still open when the game ended.
    UnclosedVariation,
    #[error("result marker inside a variation")]
    /// A result marker inside a variation.
    ResultInVariation,
    #[error("reserved `<...>` group skipped")]
    /// A `<…>` group (reserved by the standard).
    Reserved,
    #[error("unexpected byte")]
    /// A control byte or a stray `>`.
    InvalidByte,
    #[error("NAG out of range 0-255")]
    /// A `$` NAG over 255 or without digits.
    BadNag,
}

/// Whether to skip a variation (its tokens are still read, but not reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skip(pub bool);

/// Receives one game's events. Every method but `end_game` has a no-op default.
///
/// Slices borrow the reader's buffer and are valid only during the call, which is
/// what lets the parse-only path run without allocating per move.
pub trait Visitor {
    /// What [`Visitor::end_game`] returns for a game.
    type Output;
    /// `at` is the position of the game's first token.
    fn begin_game(&mut self, _at: Pos) {}
    /// `value` is raw (escapes in place when `escaped`); see [`crate::tag_value`].
    fn tag(&mut self, _name: &[u8], _value: &[u8], _escaped: bool, _at: Pos) {}
    /// Called once when the tag section ends, before [`Visitor::begin_movetext`].
    /// Returning `Skip(true)` skips the movetext: it is still tokenised (to find where
    /// the game ends) but no move is parsed and no movetext event but the outcome
    /// marker is reported, so a tag filter runs near tokenising speed (the
    /// `end_headers` → skip of pgn-reader).
    fn end_headers(&mut self) -> Skip {
        Skip(false)
    }
    /// Called once, before the first movetext event (also for games without tags).
    fn begin_movetext(&mut self) {}
    /// A move token. A `!`/`?` glyph written on it is in `san.glyph` (as NAG 1–6).
    fn san(&mut self, _san: SanPlus, _raw: &[u8], _at: Pos) -> Control {
        Control::Continue
    }
    /// A NAG (`$n`, or a glyph such as `+=` read as its NAG).
    fn nag(&mut self, _nag: u8, _at: Pos) {}
    /// `{}` and `;` comments; text raw (any encoding).
    fn comment(&mut self, _text: &[u8], _at: Pos) {}
    /// A `(`: return `Skip(true)` to have the variation skipped.
    fn begin_variation(&mut self, _at: Pos) -> Skip {
        Skip(false)
    }
    /// The `)` closing a variation that was not skipped.
    fn end_variation(&mut self, _at: Pos) {}
    /// The game-termination marker at the end of the main line.
    fn outcome(&mut self, _outcome: Outcome, _at: Pos) {}
    /// A problem met while reading; the reader goes on.
    fn problem(&mut self, _problem: Problem, _text: &[u8], _at: Pos) {}
    /// A `%` escape line (text after the `%`), which the model cannot keep.
    fn escape(&mut self, _text: &[u8], _at: Pos) {}
    /// A token read and discarded because it says nothing the moves do not (the
    /// `e.p.` marker: `e`, `ep`).
    fn ignored(&mut self, _text: &[u8], _at: Pos) {}
    /// The game ended (result, next game's tags, or end of input): its output.
    fn end_game(&mut self) -> Self::Output;

    /// Whether the reader keeps its rare paths (tokens off the main line's moves, and
    /// moves that may take a `(Q)`) out of line for this visitor. For a visitor whose
    /// move code is large (a legal replay), the move loop then takes less of the
    /// instruction cache; for a light one the calls cost more than they save
    /// (`docs/chess-pgn-benchmarks.md`, stop 41). What is read is the same either way.
    const RARE_OUT_OF_LINE: bool = false;
}

/// Errors that stop reading altogether.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    #[error("I/O error: {0}")]
    /// The inner reader failed.
    Io(#[from] io::Error),
    #[error("{at}: token longer than {limit} bytes")]
    /// A single token (comment, string, symbol) longer than [`MAX_TOKEN`].
    TokenTooLong {
        /// Where the token starts.
        at: Pos,
        /// The limit in bytes.
        limit: usize,
    },
}

const INITIAL_BUFFER: usize = 128 * 1024;
/// Memory bound: a single token (comment, string) larger than this is an error.
pub const MAX_TOKEN: usize = 64 * 1024 * 1024;

#[derive(Debug, Clone, Copy)]
struct Tok {
    kind: TokenKind,
    text: (usize, usize),
    pos: Pos,
}

impl Tok {
    fn range(&self) -> Range<usize> {
        self.text.0..self.text.1
    }
}

/// Reads PGN games one at a time with bounded memory.
///
/// ```
/// use chess_pgn::{PgnReader, Visitor, SanPlus, Control};
/// struct CountMoves(usize);
/// impl Visitor for CountMoves {
///     type Output = usize;
///     fn san(&mut self, _: SanPlus, _: &[u8], _: pgn_core::Pos) -> Control {
///         self.0 += 1;
///         Control::Continue
///     }
///     fn end_game(&mut self) -> usize { std::mem::take(&mut self.0) }
/// }
/// let mut r = PgnReader::new(&b"1. e4 e5 2. Nf3 *\n\n1. d4 1-0"[..]);
/// let mut v = CountMoves(0);
/// assert_eq!(r.read_game(&mut v).unwrap(), Some(3));
/// assert_eq!(r.read_game(&mut v).unwrap(), Some(1));
/// assert_eq!(r.read_game(&mut v).unwrap(), None);
/// ```
pub struct PgnReader<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    base: u64,
    eof: bool,
    tok: Tokenizer,
    name: Vec<u8>,
    games: u64,
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Phase {
    Start,
    Tags,
    Movetext,
}

impl<R: Read> PgnReader<R> {
    /// Reads from `inner`, buffered internally (pass any `Read`, no `BufReader` needed).
    pub fn new(inner: R) -> PgnReader<R> {
        PgnReader::with_capacity(inner, INITIAL_BUFFER)
    }

    /// Reads from `inner` with a first buffer of `capacity` bytes (at least 64; the
    /// buffer grows when a token needs it). For a game already in memory, its length
    /// plus one reads it in one go without zeroing a full-size buffer per game.
    pub fn with_capacity(inner: R, capacity: usize) -> PgnReader<R> {
        PgnReader::with_buffer(inner, Vec::new(), capacity)
    }

    /// Reads from `inner` into `buffer`, a buffer a former reader gave back
    /// ([`PgnReader::into_buffer`]), grown to `capacity` bytes when shorter: reading
    /// many small inputs one after another (games cut by a splitter) then allocates
    /// and zeroes no buffer per input.
    pub fn with_buffer(inner: R, mut buffer: Vec<u8>, capacity: usize) -> PgnReader<R> {
        let capacity = capacity.clamp(64, MAX_TOKEN);
        if buffer.len() < capacity {
            buffer.resize(capacity, 0);
        }
        PgnReader {
            inner,
            buf: buffer,
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            tok: Tokenizer::new(),
            name: Vec::new(),
            games: 0,
        }
    }

    /// The reader's buffer, for [`PgnReader::with_buffer`].
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf
    }

    /// Number of games started so far (the index of the next game).
    pub fn games_read(&self) -> u64 {
        self.games
    }

    /// Makes more input available after the tokenizer asked for it.
    ///
    /// The tokenizer rescans an unfinished token from its start after each refill,
    /// so a refill at least doubles the unconsumed bytes (or reaches the end of
    /// input): however small the reads of the inner reader, a token of n bytes costs
    /// O(n) in all, not O(n²).
    #[inline(never)]
    fn refill(&mut self) -> Result<(), ReadError> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.base += self.start as u64;
            self.end -= self.start;
            self.start = 0;
        }
        let want = (self.end * 2).max(self.end + 1);
        let mut got = false;
        while self.end < want && !self.eof {
            if self.end == self.buf.len() {
                if self.buf.len() >= MAX_TOKEN {
                    if got {
                        break;
                    }
                    return Err(ReadError::TokenTooLong {
                        at: self.tok.pos(),
                        limit: MAX_TOKEN,
                    });
                }
                let n = (self.buf.len() * 2).min(MAX_TOKEN);
                self.buf.resize(n, 0);
            }
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    got = true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    fn unread(&mut self, t: &Tok) {
        self.tok.rewind(t.pos);
        self.start = (t.pos.offset - self.base) as usize;
    }

    /// Parses a move symbol and hands it to the visitor (or reports it as not a move).
    ///
    /// A pawn move to the last rank without a promotion piece may be followed directly
    /// by `(Q)` (spec §6, `e8(Q)`): the tokenizer sees a variation there, so the three
    /// bytes are looked at before the token is handed on, and consumed when they are
    /// a promotion.
    #[inline(always)]
    fn move_token<V: Visitor>(&mut self, v: &mut V, t: &Tok) -> Result<Control, ReadError> {
        let text = &self.buf[t.range()];
        let Ok(mut sp) = SanPlus::parse(text) else {
            v.problem(Problem::NotAMove, text, t.pos);
            return Ok(Control::Continue);
        };
        if text.len() > 2 && text.last() == Some(&b'e') {
            // `exd6e.p.`: the parser dropped the `e`; say so as for a separate `e.p.`.
            v.ignored(b"e.p.", t.pos);
        }
        if let San::Normal {
            piece: None | Some(Piece::Pawn),
            promotion: promotion @ None,
            to,
            ..
        } = &mut sp.san
            && matches!(to.rank(), Rank::First | Rank::Eighth)
            && text.len() <= 16
        {
            let mut raw = [0u8; 16];
            let n = text.len();
            raw[..n].copy_from_slice(text);
            if let Some((piece, used, suffix)) = self.paren_promotion()? {
                *promotion = Some(piece);
                if suffix.is_some() {
                    sp.suffix = suffix;
                }
                let len = (t.text.1 - t.text.0) as u64;
                let at = Pos {
                    offset: t.pos.offset + len + used as u64,
                    line: t.pos.line,
                    col: t.pos.col.saturating_add((len + used as u64) as u32),
                };
                self.tok.rewind(at);
                self.start = (at.offset - self.base) as usize;
                return Ok(v.san(sp, &raw[..n], t.pos));
            }
            return Ok(v.san(sp, &raw[..n], t.pos));
        }
        Ok(v.san(sp, text, t.pos))
    }

    /// [`PgnReader::move_token`], out of line when the visitor asks
    /// ([`Visitor::RARE_OUT_OF_LINE`]).
    #[inline(always)]
    fn rare_move<V: Visitor>(&mut self, v: &mut V, t: &Tok) -> Result<Control, ReadError> {
        if V::RARE_OUT_OF_LINE {
            self.move_token_out_of_line(v, t)
        } else {
            self.move_token(v, t)
        }
    }

    #[inline(never)]
    fn move_token_out_of_line<V: Visitor>(
        &mut self,
        v: &mut V,
        t: &Tok,
    ) -> Result<Control, ReadError> {
        self.move_token(v, t)
    }

    /// [`PgnReader::other_token`], out of line when the visitor asks
    /// ([`Visitor::RARE_OUT_OF_LINE`]).
    #[inline(always)]
    fn rare_token<V: Visitor>(
        &mut self,
        v: &mut V,
        g: &mut GameState,
        t: &Tok,
    ) -> Result<Flow, ReadError> {
        if V::RARE_OUT_OF_LINE {
            self.other_token_out_of_line(v, g, t)
        } else {
            self.other_token(v, g, t)
        }
    }

    #[inline(never)]
    fn other_token_out_of_line<V: Visitor>(
        &mut self,
        v: &mut V,
        g: &mut GameState,
        t: &Tok,
    ) -> Result<Flow, ReadError> {
        self.other_token(v, g, t)
    }

    /// `(Q)` (optionally followed by `+` or `#`) at the next unconsumed byte: the
    /// promotion piece, the bytes it takes and the check marker.
    #[inline(never)]
    fn paren_promotion(&mut self) -> Result<Option<(Piece, usize, Option<Suffix>)>, ReadError> {
        while self.end - self.start < 5 && !self.eof {
            let before = self.end - self.start;
            self.refill()?;
            if self.end - self.start == before && !self.eof {
                break;
            }
        }
        let b = &self.buf[self.start..self.end];
        if b.len() < 3 || b[0] != b'(' || b[2] != b')' {
            return Ok(None);
        }
        let piece = match b[1] {
            b'Q' | b'q' => Piece::Queen,
            b'R' | b'r' => Piece::Rook,
            b'B' | b'b' => Piece::Bishop,
            b'N' | b'n' => Piece::Knight,
            _ => return Ok(None),
        };
        let ends = |i: usize| b.get(i).is_none_or(|&c| !c.is_ascii_alphanumeric());
        Ok(Some(match b.get(3) {
            Some(b'+') if ends(4) => (piece, 4, Some(Suffix::Check)),
            Some(b'#') if ends(4) => (piece, 4, Some(Suffix::Mate)),
            _ => (piece, 3, None),
        }))
    }

    /// Reads the next game into `visitor`; `Ok(None)` at end of input.
    pub fn read_game<V: Visitor>(&mut self, v: &mut V) -> Result<Option<V::Output>, ReadError> {
        let mut g = GameState::new();
        loop {
            // The one call of the tokenizer: the main line's move numbers and moves are
            // taken while the token still borrows the buffer (no offsets, no second
            // slicing); everything else goes on as a [`Tok`].
            let input = &self.buf[self.start..self.end];
            let (next, used) = self.tok.next(input, self.eof);
            let t = match next {
                Next::Token(t) => {
                    if g.main_line && main_line_borrowed(v, &mut g, &t) {
                        self.start += used;
                        continue;
                    }
                    // A whole tag pair inside the tag section (not the first tag,
                    // which starts the game): handed on as it is.
                    if let TokenKind::TagPair {
                        name_len,
                        value_start,
                    } = t.kind
                        && g.phase == Phase::Tags
                        && !g.in_tag
                    {
                        v.tag(
                            &t.text[..name_len as usize],
                            &t.text[value_start as usize..],
                            false,
                            t.pos,
                        );
                        self.start += used;
                        continue;
                    }
                    let off = t.text.as_ptr() as usize - self.buf.as_ptr() as usize;
                    self.start += used;
                    Tok {
                        kind: t.kind,
                        text: (off, off + t.text.len()),
                        pos: t.pos,
                    }
                }
                Next::End => {
                    self.start += used;
                    if g.phase == Phase::Start {
                        return Ok(None);
                    }
                    break;
                }
                Next::NeedMore => {
                    self.start += used;
                    self.refill()?;
                    continue;
                }
            };
            if g.main_line && self.main_line_token(v, &mut g, &t)? {
                continue;
            }
            let flow = self.rare_token(v, &mut g, &t)?;
            // Only the steps off the hot path change what decides it: decided once
            // here, the hot path tests one flag per token, not four.
            g.main_line = g.on_main_line();
            if flow == Flow::Stop {
                break;
            }
        }
        Ok(Some(self.end_game(v, &g)))
    }

    /// Every token the hot path did not take: [`Flow::Stop`] when it belongs to the
    /// next game.
    #[inline(always)]
    fn other_token<V: Visitor>(
        &mut self,
        v: &mut V,
        g: &mut GameState,
        t: &Tok,
    ) -> Result<Flow, ReadError> {
        if g.skip_movetext
            && g.phase == Phase::Movetext
            && !g.after_result
            && self.skipped_token(g, t)
        {
            return Ok(Flow::Next);
        }
        if g.phase == Phase::Start {
            self.games += 1;
            v.begin_game(t.pos);
            g.phase = Phase::Tags;
        }
        let flow = if g.after_result {
            self.after_result_token(v, t)
        } else if g.in_tag {
            self.tag_token(v, g, t);
            Flow::Next
        } else {
            self.header_token(v, g, t)
        };
        if flow != Flow::Go {
            return Ok(flow);
        }
        if g.phase != Phase::Movetext {
            g.phase = Phase::Movetext;
            if v.end_headers() == Skip(true) {
                g.skip_movetext = true;
            }
            v.begin_movetext();
        }
        self.movetext_token(v, g, t)?;
        Ok(Flow::Next)
    }

    /// The hot path: move numbers and SAN in the main line, a third each of all tokens.
    /// `true` when the token was handled.
    #[inline(always)]
    fn main_line_token<V: Visitor>(
        &mut self,
        v: &mut V,
        g: &mut GameState,
        t: &Tok,
    ) -> Result<bool, ReadError> {
        match t.kind {
            TokenKind::MoveNumber => Ok(true),
            TokenKind::Symbol => {
                let text = &self.buf[t.range()];
                // One-letter tokens (`N` novelty, `e` of `e.p.`) and `ep` take the general path.
                if text.len() >= 2 && MOVE_START[usize::from(text[0])] && text != b"ep" {
                    // `exd6e.p.`: the `p` that follows completes the marker.
                    g.after_e = text.last() == Some(&b'e');
                    if self.rare_move(v, t)? == Control::SkipMovetext {
                        g.skip_movetext = true;
                        g.main_line = false;
                    }
                    return Ok(true);
                }
                Ok(false)
            }
            _ => Ok(false),
        }
    }

    /// Skipped movetext (headers-only reading, or after an illegal move): only
    /// variation depth, results and the next game's start matter. `true` when the
    /// token was consumed.
    #[inline(always)]
    fn skipped_token(&self, g: &mut GameState, t: &Tok) -> bool {
        match t.kind {
            TokenKind::MoveNumber
            | TokenKind::Dots
            | TokenKind::Nag
            | TokenKind::LineComment
            | TokenKind::Comment { terminated: true } => true,
            TokenKind::Symbol if self.buf[t.text.0].is_ascii_alphabetic() => true,
            TokenKind::VariationOpen => {
                g.depth += 1;
                true
            }
            TokenKind::VariationClose => {
                if g.depth > 0 {
                    if g.skip_from == Some(g.depth) {
                        g.skip_from = None;
                    }
                    g.depth -= 1;
                }
                true
            }
            _ => false,
        }
    }

    /// After the result: comments right after it belong to this game; anything else
    /// starts the next.
    #[inline(always)]
    fn after_result_token<V: Visitor>(&mut self, v: &mut V, t: &Tok) -> Flow {
        match t.kind {
            TokenKind::Comment { .. } | TokenKind::LineComment => {
                v.comment(&self.buf[t.range()], t.pos);
                Flow::Next
            }
            TokenKind::Escape => {
                v.escape(&self.buf[t.range()], t.pos);
                Flow::Next
            }
            _ => {
                self.unread(t);
                Flow::Stop
            }
        }
    }

    /// A token inside a tag pair that the tokenizer could not read whole.
    #[inline(always)]
    fn tag_token<V: Visitor>(&mut self, v: &mut V, g: &mut GameState, t: &Tok) {
        match t.kind {
            TokenKind::Symbol if !g.have_name => {
                self.name.clear();
                self.name.extend_from_slice(&self.buf[t.range()]);
                g.have_name = true;
            }
            TokenKind::String { escaped } if g.have_name && !g.have_value => {
                v.tag(&self.name, &self.buf[t.range()], escaped, g.tag_pos);
                g.have_value = true;
            }
            TokenKind::TagClose if g.have_value => g.in_tag = false,
            TokenKind::TagClose => {
                v.problem(Problem::MalformedTag, &self.name, g.tag_pos);
                g.in_tag = false;
            }
            // Anything else: a broken tag; give up on it and re-read the token.
            _ => {
                v.problem(Problem::MalformedTag, &self.buf[t.range()], g.tag_pos);
                g.in_tag = false;
                self.unread(t);
            }
        }
    }

    /// Tag pairs, the start of a broken tag, and escapes; a tag after movetext ends
    /// the game (the previous game had no result marker). [`Flow::Go`] for a movetext
    /// token.
    #[inline(always)]
    fn header_token<V: Visitor>(&mut self, v: &mut V, g: &mut GameState, t: &Tok) -> Flow {
        if let TokenKind::TagPair {
            name_len,
            value_start,
        } = t.kind
        {
            if g.phase == Phase::Movetext {
                self.unread(t);
                return Flow::Stop;
            }
            let text = &self.buf[t.range()];
            v.tag(
                &text[..name_len as usize],
                &text[value_start as usize..],
                false,
                t.pos,
            );
            return Flow::Next;
        }
        if t.kind == TokenKind::TagOpen {
            if g.phase == Phase::Movetext {
                // A tag after movetext: the previous game had no result marker.
                self.unread(t);
                return Flow::Stop;
            }
            g.in_tag = true;
            g.have_name = false;
            g.have_value = false;
            g.tag_pos = t.pos;
            return Flow::Next;
        }
        if t.kind == TokenKind::Escape {
            v.escape(&self.buf[t.range()], t.pos);
            return Flow::Next;
        }
        Flow::Go
    }

    /// A movetext token off the hot path: results, NAGs, comments, variations, moves
    /// in variations or skipped ones, and what is not PGN.
    #[inline(always)]
    fn movetext_token<V: Visitor>(
        &mut self,
        v: &mut V,
        g: &mut GameState,
        t: &Tok,
    ) -> Result<(), ReadError> {
        let skipping = g.skip_movetext || g.skip_from.is_some();
        match t.kind {
            TokenKind::Symbol => return self.symbol_token(v, g, t, skipping),
            TokenKind::Star => {
                if g.depth == 0 {
                    v.outcome(Outcome::Unknown, t.pos);
                    g.after_result = true;
                } else if !skipping {
                    v.problem(Problem::ResultInVariation, b"*", t.pos);
                }
            }
            TokenKind::Dots | TokenKind::MoveNumber => {}
            TokenKind::Nag => {
                if !skipping {
                    let digits = &self.buf[t.range()];
                    match parse_u8(digits) {
                        Some(n) => v.nag(n, t.pos),
                        None => v.problem(Problem::BadNag, digits, t.pos),
                    }
                }
            }
            TokenKind::Comment { terminated } => {
                if !skipping {
                    v.comment(&self.buf[t.range()], t.pos);
                }
                if !terminated {
                    v.problem(Problem::UnterminatedComment, b"", t.pos);
                }
            }
            TokenKind::LineComment => {
                if !skipping {
                    v.comment(&self.buf[t.range()], t.pos);
                }
            }
            TokenKind::VariationOpen => {
                g.depth += 1;
                if !skipping && v.begin_variation(t.pos) == Skip(true) {
                    g.skip_from = Some(g.depth);
                }
            }
            TokenKind::VariationClose => g.close_variation(v, t, skipping),
            TokenKind::Reserved => {
                v.problem(Problem::Reserved, &self.buf[t.range()], t.pos);
            }
            TokenKind::String { .. } | TokenKind::TagClose => {
                v.problem(Problem::NotAMove, &self.buf[t.range()], t.pos)
            }
            TokenKind::Invalid => v.problem(Problem::InvalidByte, &self.buf[t.range()], t.pos),
            TokenKind::TagOpen | TokenKind::TagPair { .. } | TokenKind::Escape => {}
        }
        Ok(())
    }

    /// A movetext symbol off the hot path: a move number, a result, a NAG, a move or
    /// something ignored (`e.p.`).
    #[inline(always)]
    fn symbol_token<V: Visitor>(
        &mut self,
        v: &mut V,
        g: &mut GameState,
        t: &Tok,
        skipping: bool,
    ) -> Result<(), ReadError> {
        let text = &self.buf[t.range()];
        let completes_ep = g.after_e && text == b"p";
        g.after_e = text.last() == Some(&b'e');
        match classify(text) {
            Sym::MoveNumber => {}
            Sym::Ignore => {
                if !skipping && !completes_ep {
                    v.ignored(text, t.pos);
                }
            }
            Sym::Result(o) => {
                if g.depth == 0 {
                    v.outcome(o, t.pos);
                    g.after_result = true;
                } else if !skipping {
                    v.problem(Problem::ResultInVariation, text, t.pos);
                }
            }
            Sym::Nag(n) => {
                if !skipping {
                    v.nag(n, t.pos);
                }
            }
            Sym::Move => {
                if !skipping && self.rare_move(v, t)? == Control::SkipMovetext {
                    g.skip_movetext = true;
                }
            }
        }
        Ok(())
    }

    /// The end of input or of the game: what is still open is closed and reported.
    fn end_game<V: Visitor>(&mut self, v: &mut V, g: &GameState) -> V::Output {
        if g.depth > 0 {
            let at = self.tok.pos();
            if g.skip_from.is_none() && !g.skip_movetext {
                for _ in 0..g.depth {
                    v.end_variation(at);
                }
            }
            v.problem(Problem::UnclosedVariation, b"", at);
        }
        if g.in_tag {
            v.problem(Problem::MalformedTag, &self.name, g.tag_pos);
        }
        if g.phase == Phase::Tags {
            v.end_headers();
            v.begin_movetext();
        }
        v.end_game()
    }
}

/// What [`PgnReader::read_game`] does after a token.
#[derive(PartialEq, Eq, Clone, Copy)]
enum Flow {
    /// Read the next token.
    Next,
    /// The token belongs to the next game: this one ends.
    Stop,
    /// Go on with the token as movetext.
    Go,
}

/// The state of [`PgnReader::read_game`] within one game.
struct GameState {
    /// [`GameState::on_main_line`], kept up to date by [`PgnReader::read_game`].
    main_line: bool,
    phase: Phase,
    depth: usize,
    /// Depth at which a skipped variation started, if skipping.
    skip_from: Option<usize>,
    skip_movetext: bool,
    /// Tag pair being read: the name is copied because a refill may move the buffer.
    in_tag: bool,
    have_name: bool,
    have_value: bool,
    tag_pos: Pos,
    after_result: bool,
    /// The last movetext symbol was `e`: a `p` now completes `e.p.` (reported once, on
    /// the `e`); a `p` anywhere else is reported on its own.
    after_e: bool,
}

impl GameState {
    fn new() -> GameState {
        GameState {
            main_line: false,
            phase: Phase::Start,
            depth: 0,
            skip_from: None,
            skip_movetext: false,
            in_tag: false,
            have_name: false,
            have_value: false,
            tag_pos: Pos::default(),
            after_result: false,
            after_e: false,
        }
    }

    /// In the main line's movetext, read and not skipped: the hot path applies.
    #[inline(always)]
    fn on_main_line(&self) -> bool {
        self.phase == Phase::Movetext
            && !self.after_result
            && !self.skip_movetext
            && self.skip_from.is_none()
    }

    /// A `)`: closes a variation (reported unless skipped), or is reported as unmatched.
    #[inline(always)]
    fn close_variation<V: Visitor>(&mut self, v: &mut V, t: &Tok, skipping: bool) {
        if self.depth == 0 {
            if !skipping {
                v.problem(Problem::UnmatchedClose, b")", t.pos);
            }
            return;
        }
        if self.skip_from == Some(self.depth) {
            self.skip_from = None;
        } else if !skipping {
            v.end_variation(t.pos);
        }
        self.depth -= 1;
    }
}

/// The main line's hot path on a token that still borrows the buffer: a move number,
/// or a move that cannot be followed by a `(Q)` promotion. `false` leaves the token to
/// [`PgnReader::main_line_token`] (nothing has been reported then).
#[inline(always)]
fn main_line_borrowed<V: Visitor>(v: &mut V, g: &mut GameState, t: &pgn_core::Token<'_>) -> bool {
    match t.kind {
        TokenKind::MoveNumber => true,
        TokenKind::Symbol => {
            let text = t.text;
            // One-letter tokens (`N` novelty, `e` of `e.p.`) and `ep` take the general path.
            if text.len() < 2 || !MOVE_START[usize::from(text[0])] || text == b"ep" {
                return false;
            }
            let Ok(sp) = SanPlus::parse(text) else {
                return false;
            };
            // A pawn move to the last rank without a piece may go on with `(Q)`, which
            // [`PgnReader::move_token`] reads past the token.
            if let San::Normal {
                piece: None | Some(Piece::Pawn),
                promotion: None,
                to,
                ..
            } = sp.san
                && matches!(to.rank(), Rank::First | Rank::Eighth)
            {
                return false;
            }
            // `exd6e.p.`: the `p` that follows completes the marker.
            g.after_e = text.last() == Some(&b'e');
            if text.len() > 2 && g.after_e {
                // The parser dropped the `e`; say so as for a separate `e.p.`.
                v.ignored(b"e.p.", t.pos);
            }
            if v.san(sp, text, t.pos) == Control::SkipMovetext {
                g.skip_movetext = true;
                g.main_line = false;
            }
            true
        }
        _ => false,
    }
}

/// The bytes a main-line move starts with on the hot path: a lower-case letter (pawn
/// moves, and what the SAN parser rejects) or an English piece letter; one load
/// instead of two range tests.
const MOVE_START: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = b'a';
    while b <= b'z' {
        t[b as usize] = true;
        b += 1;
    }
    let pieces = b"KQRBN";
    let mut i = 0;
    while i < pieces.len() {
        t[pieces[i] as usize] = true;
        i += 1;
    }
    t
};

enum Sym {
    MoveNumber,
    Result(Outcome),
    Nag(u8),
    Move,
    Ignore,
}

#[inline(always)]
fn classify(s: &[u8]) -> Sym {
    let b = s[0];
    if b.is_ascii_digit() {
        // `12…` with a typographic ellipsis is a move number too (spec §5).
        let digits = s.strip_suffix("\u{2026}".as_bytes()).unwrap_or(s);
        // `0000` is the UCI null move (what the UCI writer writes), not a number.
        if digits.iter().all(u8::is_ascii_digit) && s != b"0000" {
            return Sym::MoveNumber;
        }
        if let Some(o) = Outcome::parse(s) {
            return Sym::Result(o);
        }
        return Sym::Move; // 0-0, 0000
    }
    if b.is_ascii_alphabetic() && b != b'N' {
        if s == b"ep" || s == b"e" || s == b"p" {
            // `e.p.` arrives as `e` `.` `p` `.`; export never writes it.
            return Sym::Ignore;
        }
        return Sym::Move;
    }
    if let Some(o) = Outcome::parse(s) {
        return Sym::Result(o);
    }
    if let Some(n) = glyph_nag(s) {
        return Sym::Nag(n);
    }
    let nag = match s {
        b"=" => 10,
        b"\xe2\x88\x9e" => 13,
        b"\xe2\x96\xa1" => 7,
        b"+=" | b"+/=" | b"\xe2\xa9\xb2" => 14,
        b"=+" | b"=/+" | b"\xe2\xa9\xb1" => 15,
        b"+/-" | b"\xc2\xb1" => 16,
        b"-/+" | b"\xe2\x88\x93" => 17,
        b"+-" => 18,
        b"-+" => 19,
        b"N" => 146,
        _ => return Sym::Move,
    };
    Sym::Nag(nag)
}

fn parse_u8(d: &[u8]) -> Option<u8> {
    if d.is_empty() || d.len() > 3 {
        return None;
    }
    let mut n: u32 = 0;
    for &c in d {
        n = n * 10 + u32::from(c - b'0');
    }
    u8::try_from(n).ok()
}

#[cfg(test)]
mod tests {
    use super::MOVE_START;

    #[test]
    fn move_start_is_the_letter_test() {
        for b in 0..=255u8 {
            let slow = b.is_ascii_lowercase() || matches!(b, b'K' | b'Q' | b'R' | b'B' | b'N');
            assert_eq!(MOVE_START[usize::from(b)], slow, "byte {b:#04x}");
        }
    }
}
