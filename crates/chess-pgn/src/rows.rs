//! One game's row (tags, main line, result, final position and the opt-in per-ply
//! columns) read in one pass of the reader, with no game model: what a table reader
//! (Arrow, Spark) needs of the common classic game, as [`crate::export_pgn`] is what
//! `--to pgn` needs of it.
//!
//! Every column is what the model reader ([`crate::GameBuilder`]) gives for the same
//! game: the tags as [`crate::Game::tags`] keeps them, the main line as its export SAN,
//! the outcome, [`crate::Game::final_fen`], and the UCI, `[%clk]` and `[%eval]` of each
//! main-line move. Whatever would make that reader say something (a warning or an
//! error), and what this pass does not follow (variations, null moves, tags the reader
//! renames or reads as another game, tag names not in ASCII), makes it decline: the
//! caller then takes the model path, which reports all of it.

use std::ops::Range;

use cozy_chess::{Board, Color, Piece};

use crate::model::{
    Clock, Eval, MAX_GAME_NODES, Variant, fen_halfmove_clock, game_end, parse_commands, parse_fen,
};
use crate::reader::{Control, Outcome, Problem, Skip, Visitor};
use crate::san::{SanPlus, Suffix};
use crate::single::read_single_game;
use crate::stream::{export_san, special_name};
use crate::writer::STR;
use pgn_core::Pos;

/// The most tags of a game this pass reads (more go to the model path, whose
/// duplicate test does not scan).
const MAX_ROW_TAGS: usize = 64;

/// Which per-ply columns [`GameRow::read`] fills besides the SAN of each move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlyColumns {
    /// The UCI of each move ([`crate::uci`]).
    pub uci: bool,
    /// The `[%clk]` after each move ([`crate::MoveNode::clock`]).
    pub clocks: bool,
    /// The `[%eval]` after each move ([`crate::MoveNode::eval`]).
    pub evals: bool,
}

/// The columns of one game, kept from one game to the next so that reading a game
/// allocates nothing once the buffers have grown to a typical game's size.
///
/// ```
/// use chess_pgn::{GameRow, PlyColumns};
/// let mut row = GameRow::default();
/// let pgn = b"[White \"A\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 {[%clk 0:01:00]} Kd7 1-0";
/// assert!(row.read(pgn, PlyColumns { uci: true, clocks: true, evals: false }));
/// assert_eq!(row.tags().collect::<Vec<_>>(), [("White", "A")]);
/// assert_eq!(row.moves().collect::<Vec<_>>(), ["e4", "Kd7"]);
/// assert_eq!(row.uci().collect::<Vec<_>>(), ["e2e4", "e8d7"]);
/// assert_eq!(row.clocks(), [Some(60.0), None]);
/// assert_eq!(row.final_fen(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
/// // A variation: the model path's.
/// assert!(!row.read(b"1. e4 (1. d4) e5 *", PlyColumns::default()));
/// ```
#[derive(Debug, Default)]
pub struct GameRow {
    /// Tag names and values, UCIs and the final FEN, end to end.
    text: String,
    tags: Vec<(Range<usize>, Range<usize>)>,
    /// The main line's SANs end to end (a table writer copies them at once).
    sans: String,
    /// Where each SAN ends in `sans`.
    san_ends: Vec<u32>,
    uci: Vec<Range<usize>>,
    clocks: Vec<Option<Clock>>,
    evals: Vec<Option<Eval>>,
    outcome: Outcome,
    fen: Range<usize>,
}

impl GameRow {
    /// Reads the one PGN game of `pgn` into the row and returns true; or returns false
    /// (the row's content is then unspecified) when the game needs the model path:
    /// anything the model reader would report, variations, null moves, a tag the
    /// reader renames or reads as another game, a tag name not in ASCII, more than one
    /// game in `pgn`.
    pub fn read(&mut self, pgn: &[u8], columns: PlyColumns) -> bool {
        let mut text = std::mem::take(&mut self.text).into_bytes();
        text.clear();
        let mut sans = std::mem::take(&mut self.sans).into_bytes();
        sans.clear();
        self.clear();
        let mut r = RowReader {
            row: self,
            text,
            sans,
            columns,
            ok: true,
            board: crate::replay::start_board().clone(),
            clock: 0,
            fen: None,
            setup_one: false,
            variant: Variant::Standard,
            result_tag: None,
            tags_read: 0,
            nodes: 0,
            outcome: None,
            roster: [false; 7],
            filter: 0,
        };
        let read = read_single_game(pgn, &mut r) == Some(true);
        let text = std::mem::take(&mut r.text);
        // Only ASCII letters, digits and signs are spelt into SANs.
        self.sans = String::from_utf8(std::mem::take(&mut r.sans)).unwrap_or_default();
        // Every piece but a tag value as read is ASCII or decoded text; a value not in
        // UTF-8 (which the model decodes as Windows-1252) sends the game to the model
        // path. Names are ASCII, so a value in text that is UTF-8 as a whole is UTF-8
        // by itself: one check for the game, not one per piece.
        match String::from_utf8(text) {
            Ok(t) => {
                self.text = t;
                read
            }
            Err(e) => {
                let mut bytes = e.into_bytes();
                bytes.clear();
                self.text = String::from_utf8(bytes).unwrap_or_default();
                false
            }
        }
    }

    fn clear(&mut self) {
        self.tags.clear();
        self.san_ends.clear();
        self.uci.clear();
        self.clocks.clear();
        self.evals.clear();
        self.outcome = Outcome::Unknown;
        self.fen = 0..0;
    }

    fn piece(&self, r: &Range<usize>) -> &str {
        &self.text[r.clone()]
    }

    /// The tags in record order, names and values as the model keeps them (no `FEN`
    /// or `SetUp`: the model keeps the start position apart).
    pub fn tags(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.tags
            .iter()
            .map(|(n, v)| (self.piece(n), self.piece(v)))
    }

    /// The main line's moves in export SAN (with `+`/`#`), as the model's
    /// [`crate::MoveNode::san`] spells them.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        let mut start = 0;
        self.san_ends.iter().map(move |&end| {
            let san = &self.sans[start..end as usize];
            start = end as usize;
            san
        })
    }

    /// The main line's SANs ([`GameRow::moves`]) end to end, and where each ends in
    /// that text: what a table writer copies at once into a column's value buffer.
    ///
    /// ```
    /// let mut row = chess_pgn::GameRow::default();
    /// assert!(row.read(b"1. e4 e5 2. Nf3 *", chess_pgn::PlyColumns::default()));
    /// assert_eq!(row.moves_end_to_end(), ("e4e5Nf3", &[2, 4, 7][..]));
    /// ```
    pub fn moves_end_to_end(&self) -> (&str, &[u32]) {
        (&self.sans, &self.san_ends)
    }

    /// The main line in UCI (empty unless [`PlyColumns::uci`] was asked for).
    pub fn uci(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.uci.iter().map(|r| self.piece(r))
    }

    /// Seconds on the mover's clock after each move (empty unless
    /// [`PlyColumns::clocks`] was asked for).
    pub fn clocks(&self) -> &[Option<Clock>] {
        &self.clocks
    }

    /// The `[%eval]` after each move (empty unless [`PlyColumns::evals`] was asked
    /// for).
    pub fn evals(&self) -> &[Option<Eval>] {
        &self.evals
    }

    /// Main-line half-moves.
    pub fn plies(&self) -> usize {
        self.san_ends.len()
    }

    /// The result marker.
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The position after the main line, as [`crate::Game::final_fen`] writes it.
    pub fn final_fen(&self) -> &str {
        self.piece(&self.fen)
    }
}

struct RowReader<'a> {
    row: &'a mut GameRow,
    /// The row's text being written (checked to be UTF-8 once the game is read).
    text: Vec<u8>,
    /// The SANs being written.
    sans: Vec<u8>,
    columns: PlyColumns,
    /// False once the game needs the model path.
    ok: bool,
    board: Board,
    /// The exact halfmove clock (the move generator's stops at 100), counted as
    /// [`crate::Game::final_halfmove_clock`] counts it.
    clock: u32,
    /// The last `FEN` tag's value (in the row's text, which the tags later follow).
    fen: Option<String>,
    /// The last `SetUp` tag says `1`: a start without a `FEN` is an error.
    setup_one: bool,
    variant: Variant,
    /// Where the `Result` tag's value is in the row's tags.
    result_tag: Option<usize>,
    /// Tags read, `FEN` and `SetUp` included.
    tags_read: usize,
    /// Moves and comments, against the model's cap.
    nodes: usize,
    outcome: Option<Outcome>,
    /// Which roster names were read.
    roster: [bool; 7],
    /// One bit per other tag name held (see [`crate::stream`]'s filter): most names
    /// are told new without a scan.
    filter: u64,
}

/// The filter bit of a tag name: from its length and its first, middle and last bytes.
fn name_bit(name: &[u8]) -> u64 {
    let (n, at) = (name.len(), |i: usize| {
        u64::from(name.get(i).copied().unwrap_or(0))
    });
    let mix = (n as u64 ^ at(0) << 8 ^ at(n / 2) << 16 ^ at(n.wrapping_sub(1)) << 24)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    1 << (mix >> 58)
}

impl RowReader<'_> {
    fn push(&mut self, s: &[u8]) -> Range<usize> {
        let at = self.text.len();
        self.text.extend_from_slice(s);
        at..self.text.len()
    }

    /// The start position from the `FEN` tag, read as the model reads it; a `FEN`
    /// that does not read, or `SetUp "1"` without one, is the model path's error.
    fn start_position(&mut self) {
        let Some(fen) = self.fen.take() else {
            self.ok = !self.setup_one;
            return;
        };
        match parse_fen(&fen) {
            Ok(board) => {
                self.clock = fen_halfmove_clock(&fen).unwrap_or(u32::from(board.halfmove_clock()));
                self.board = board;
            }
            Err(_) => self.ok = false,
        }
    }

    /// Counts a move or comment against the model's cap.
    fn node(&mut self) {
        self.nodes += 1;
        if self.nodes > MAX_GAME_NODES {
            self.ok = false;
        }
    }

    /// The `Result` tag as the model compares it with the marker and the final
    /// position (`None` when absent or not a result).
    fn tag_outcome(&self) -> Option<Outcome> {
        let i = self.result_tag?;
        let value = std::str::from_utf8(&self.text[self.row.tags[i].1.clone()]).ok()?;
        Outcome::parse(value.trim().as_bytes())
    }

    /// The comment after the last move: its `[%clk]` and `[%eval]`, as the model
    /// parses them (the last command of each kind after a move wins).
    #[inline(never)]
    fn commands(&mut self, raw: &[u8]) {
        if memchr::memmem::find(raw, b"[%").is_none() {
            return;
        }
        let (clk, eval) = parse_commands(&crate::text::comment(raw));
        if self.columns.clocks
            && clk.is_some()
            && let Some(c) = self.row.clocks.last_mut()
        {
            *c = clk;
        }
        if self.columns.evals
            && eval.is_some()
            && let Some(e) = self.row.evals.last_mut()
        {
            *e = eval;
        }
    }
}

impl Visitor for RowReader<'_> {
    /// Whether the row was read.
    type Output = bool;

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, _at: Pos) {
        if !self.ok {
            return;
        }
        self.tags_read += 1;
        // Breaks the model reader reads as spaces, with a warning; a name it would
        // decode (compared, after decoding, with the names it knows).
        if self.tags_read > MAX_ROW_TAGS || !name.is_ascii() || crate::text::has_break(value) {
            self.ok = false;
            return;
        }
        // The start position: not kept as tags (the model reader takes the last of
        // each, saying nothing of a repeated one). These values are read as the model
        // reads them: decoded (Windows-1252 when not UTF-8) and unescaped.
        if name == b"FEN" {
            self.fen = Some(crate::text::tag_value(value, escaped));
            return;
        }
        if name == b"SetUp" {
            self.setup_one = crate::text::tag_value(value, escaped).trim() == "1";
            return;
        }
        let roster = STR.iter().position(|s| s.as_bytes() == name);
        if name == b"Variant" {
            // Chess or Chess960, kept as a tag; another game is an error.
            match Variant::from_tag(&crate::text::tag_value(value, escaped)) {
                Ok(v) => self.variant = v,
                Err(_) => {
                    self.ok = false;
                    return;
                }
            }
        } else if roster.is_none() && special_name(name) {
            // A start position or another game in any case, or a roster name in
            // another case (renamed with a warning).
            self.ok = false;
            return;
        }
        let bit = name_bit(name);
        let duplicate = match roster {
            Some(r) => self.roster[r],
            // The model reader keeps a duplicate under another name, with a warning.
            None => {
                self.filter & bit != 0
                    && self
                        .row
                        .tags
                        .iter()
                        .any(|(n, _)| &self.text[n.clone()] == name)
            }
        };
        if duplicate {
            self.ok = false;
            return;
        }
        match roster {
            Some(r) => self.roster[r] = true,
            None => self.filter |= bit,
        }
        if roster == Some(6) {
            self.result_tag = Some(self.row.tags.len());
        }
        let n = self.push(name);
        // The value as the model keeps it: unescaped (and as read: whether it is
        // UTF-8 is checked with the rest of the text).
        let v = if escaped {
            self.push(crate::text::tag_value(value, true).as_bytes())
        } else {
            self.push(value)
        };
        self.row.tags.push((n, v));
    }

    fn end_headers(&mut self) -> Skip {
        Skip(!self.ok)
    }

    fn begin_movetext(&mut self) {
        if self.ok {
            self.start_position();
        }
    }

    #[inline(always)]
    fn san(&mut self, san: SanPlus, _raw: &[u8], _at: Pos) -> Control {
        self.node();
        if !self.ok || self.outcome.is_some() {
            self.ok = false;
            return Control::SkipMovetext;
        }
        // Null moves, illegal and ambiguous moves: the model path.
        let Ok(mv) = san.san.to_move(&self.board) else {
            self.ok = false;
            return Control::SkipMovetext;
        };
        let export = export_san(&self.board, &san.san, mv);
        if self.columns.uci {
            let u = crate::uci(&self.board, Some(mv), self.variant == Variant::Chess960);
            let r = self.push(u.as_bytes());
            self.row.uci.push(r);
        }
        self.board.play_unchecked(mv);
        // The generator resets its clock exactly when the rules do.
        self.clock = if self.board.halfmove_clock() == 0 {
            0
        } else {
            self.clock + 1
        };
        let export = SanPlus {
            san: export,
            suffix: Suffix::of(&self.board),
            glyph: None,
        };
        let text = export.text();
        let (buf, n) = text.padded();
        // The whole padded buffer, then cut to the spelling: a copy of known length is
        // a few stores, where one of the spelling's length was a `memcpy` call a move.
        let at = self.sans.len();
        self.sans.extend_from_slice(buf);
        self.sans.truncate(at + n);
        // At most 9 bytes a move and `MAX_GAME_NODES` moves: far below 4 GiB.
        self.row.san_ends.push(self.sans.len() as u32);
        if self.columns.clocks {
            self.row.clocks.push(None);
        }
        if self.columns.evals {
            self.row.evals.push(None);
        }
        Control::Continue
    }

    fn nag(&mut self, nag: u8, _at: Pos) {
        // `$0`, or a NAG before any move or after the result: the model warns (or
        // this pass does not follow it).
        if self.row.san_ends.is_empty() || nag == 0 || self.outcome.is_some() {
            self.ok = false;
        }
    }

    fn comment(&mut self, raw: &[u8], _at: Pos) {
        self.node();
        // Comments before the first move or after the result hold no move's data.
        if !self.ok
            || self.outcome.is_some()
            || self.row.san_ends.is_empty()
            || !(self.columns.clocks || self.columns.evals)
        {
            return;
        }
        self.commands(raw);
    }

    fn begin_variation(&mut self, _at: Pos) -> Skip {
        self.ok = false;
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        // The model warns when the marker and the tag (read as a result) differ.
        if self.tag_outcome().is_some_and(|t| t != outcome) {
            self.ok = false;
        }
        self.outcome = Some(outcome);
    }

    fn problem(&mut self, _problem: Problem, _text: &[u8], _at: Pos) {
        self.ok = false;
    }

    fn escape(&mut self, _text: &[u8], _at: Pos) {
        self.ok = false;
    }

    fn ignored(&mut self, _text: &[u8], _at: Pos) {
        self.ok = false;
    }

    fn end_game(&mut self) -> bool {
        // No result marker: the model warns.
        let Some(outcome) = self.outcome else {
            return false;
        };
        if !self.ok {
            return false;
        }
        // A marker or tag that contradicts a checkmate or stalemate: the model warns.
        if let Some((expected, _)) = game_end(&self.board) {
            let contradicts = |given: Option<Outcome>| {
                given.is_some_and(|g| g != Outcome::Unknown && g != expected)
            };
            if contradicts(Some(outcome)) || contradicts(self.tag_outcome()) {
                return false;
            }
        }
        self.row.outcome = outcome;
        let at = self.text.len();
        write_fen(&self.board, self.clock, &mut self.text);
        self.row.fen = at..self.text.len();
        true
    }
}

/// Appends `board`'s FEN with `clock` as its halfmove clock: what
/// [`crate::Game::final_fen`] writes (cozy-chess's `Display` with the exact clock),
/// without `core::fmt`, which cost about 6,000 instructions a game here.
fn write_fen(board: &Board, clock: u32, out: &mut Vec<u8>) {
    let mut squares = [0u8; 64];
    for color in Color::ALL {
        for piece in Piece::ALL {
            let letter = char::from(piece) as u8;
            let letter = if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            for sq in board.colored_pieces(color, piece) {
                squares[sq as usize] = letter;
            }
        }
    }
    for rank in (0..8).rev() {
        let mut empty = 0;
        for &letter in &squares[rank * 8..rank * 8 + 8] {
            if letter == 0 {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push(b'0' + empty);
                empty = 0;
            }
            out.push(letter);
        }
        if empty > 0 {
            out.push(b'0' + empty);
        }
        if rank > 0 {
            out.push(b'/');
        }
    }
    out.extend_from_slice(match board.side_to_move() {
        Color::White => b" w ",
        Color::Black => b" b ",
    });
    let before = out.len();
    for (color, short, long) in [(Color::White, b'K', b'Q'), (Color::Black, b'k', b'q')] {
        let rights = board.castle_rights(color);
        if rights.short.is_some() {
            out.push(short);
        }
        if rights.long.is_some() {
            out.push(long);
        }
    }
    if out.len() == before {
        out.push(b'-');
    }
    match board.en_passant() {
        Some(file) => {
            let rank = if board.side_to_move() == Color::White {
                b'6'
            } else {
                b'3'
            };
            out.extend_from_slice(&[b' ', char::from(file) as u8, rank]);
        }
        None => out.extend_from_slice(b" -"),
    }
    out.push(b' ');
    push_number(out, clock);
    out.push(b' ');
    push_number(out, u32::from(board.fullmove_number()));
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let at = crate::writer::decimal(n, &mut digits);
    out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Line, with_halfmove_clock};

    /// What the hand-written FEN is held to: the model's `Display` FEN with the exact
    /// clock.
    fn display_fen(board: &Board, clock: u32) -> String {
        with_halfmove_clock(&board.to_string(), clock)
    }

    /// Every position of `line` (variations too) from `start`.
    fn positions(line: &Line, start: &Board, out: &mut Vec<Board>) {
        let mut last = start.clone();
        for ply in line.plies(start) {
            for v in ply.variations() {
                positions(v, &ply.before, out);
            }
            if let Some(mv) = ply.mv() {
                last = ply.before.clone();
                last.play_unchecked(mv);
            }
            out.push(ply.before);
        }
        out.push(last);
    }

    #[test]
    fn the_fen_writer_is_the_display_fen_on_every_testdata_position() {
        let files = test_support::files_with_extension(&test_support::testdata(), "pgn");
        let (mut boards, mut ep, mut odd_castling) = (0, 0, 0);
        for path in files {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            for game in crate::parse_all(&text).into_iter().flatten() {
                let mut all = Vec::new();
                positions(&game.moves, &game.start, &mut all);
                for board in &all {
                    boards += 1;
                    ep += usize::from(board.en_passant().is_some());
                    // Chess960 rights on a rook that is not on a corner file.
                    odd_castling += usize::from(Color::ALL.iter().any(|&c| {
                        let r = board.castle_rights(c);
                        r.short.is_some_and(|f| f != cozy_chess::File::H)
                            || r.long.is_some_and(|f| f != cozy_chess::File::A)
                    }));
                    let clock = u32::from(board.halfmove_clock());
                    for clock in [clock, 100, 123, 4_000_000_000] {
                        let mut out = Vec::new();
                        write_fen(board, clock, &mut out);
                        assert_eq!(
                            String::from_utf8(out).unwrap(),
                            display_fen(board, clock),
                            "{}",
                            path.display()
                        );
                    }
                }
            }
        }
        // Not vacuous: the cases the writer spells apart are all met.
        assert!(
            boards > 40_000 && ep > 1000 && odd_castling > 50,
            "{boards} positions, {ep} with en passant, {odd_castling} with Chess960 rights"
        );
    }

    /// A clock past the move generator's 100 and a Chess960 start: the row's FEN is
    /// the model's.
    #[test]
    fn the_rows_fen_is_the_models_past_a_clock_of_100_and_in_chess960() {
        for pgn in [
            "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 60\"]\n\n60. Ra2 Kd8 61. Ra3 *",
            "[Variant \"Chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n\n1. Ne3 d5 2. f4 *",
        ] {
            let mut row = GameRow::default();
            assert!(row.read(pgn.as_bytes(), PlyColumns::default()), "{pgn}");
            let game = crate::parse_all(pgn).remove(0).unwrap();
            assert_eq!(row.final_fen(), game.final_fen());
        }
    }
}
