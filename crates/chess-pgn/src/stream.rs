//! PGN text straight to its export form, for the games whose export needs nothing
//! but what the reader hands over in order: one pass of the reader, each move resolved,
//! spelt and packed into the output as it is read, with no game model.
//!
//! The text is byte for byte what [`crate::to_pgn_string`] writes of the game the
//! model reader ([`crate::GameBuilder`]) builds. Whatever would make that reader say
//! something (a warning or an error), and whatever this path does not write itself
//! (variations, null moves, a variant other than chess and Chess960, tags the reader
//! renames or refuses, tags and comments not in UTF-8, which the model reader decodes
//! as Windows-1252), makes it decline: the caller then takes the model path, which
//! reports and writes all of it. A set-up start (`FEN`, `SetUp`) is written here: the
//! start position is read and its `FEN` tag written again as the model writer spells
//! it.

use std::ops::Range;

use cozy_chess::{Board, Move, Piece, Square};

use crate::model::{
    CastlingStyle, MAX_GAME_NODES, Variant, fen_halfmove_clock, game_end, parse_fen, to_fen,
    with_halfmove_clock,
};
use crate::reader::{Control, Outcome, Problem, Skip, Visitor};
use crate::san::{CastleSide, San, SanPlus, SanText, Suffix};
use crate::single::read_single_game;
use crate::writer::{MAX_LINE, Packer, STR, decimal, tag_name_ok};
use pgn_core::Pos;

/// The most tags of a game this path reads, `FEN` and `SetUp` included (more go to
/// the model path, whose duplicate test does not scan).
const MAX_DIRECT_TAGS: usize = 64;

/// Appends the export form of the one PGN game in `pgn` (tags, blank line, movetext,
/// blank line, as [`crate::to_pgn_string`] writes it) to `out` and returns true; or
/// returns false with `out` as it was, when the game needs the model path: anything
/// the model reader would report, variations, null moves, a variant other than chess
/// and Chess960, a tag or comment not in UTF-8, more than one game in `pgn`.
///
/// ```
/// let mut out = String::new();
/// assert!(chess_pgn::export_pgn(b"[White \"A\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0", &mut out));
/// assert!(out.ends_with("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"));
/// let mut out = String::new();
/// // A variation: the model path writes it.
/// assert!(!chess_pgn::export_pgn(b"1. e4 (1. d4) e5 *", &mut out));
/// assert!(out.is_empty());
/// ```
pub fn export_pgn(pgn: &[u8], out: &mut String) -> bool {
    let mut text = Vec::new();
    if !export_pgn_bytes(pgn, &mut text) {
        return false;
    }
    // Only `&str`s and ASCII are written: always UTF-8.
    match std::str::from_utf8(&text) {
        Ok(t) => {
            out.push_str(t);
            true
        }
        Err(_) => false,
    }
}

/// [`export_pgn`] appending to bytes: what a caller writing the text out as bytes
/// uses (no UTF-8 check of the text written; it is UTF-8).
///
/// ```
/// let mut out = Vec::new();
/// assert!(chess_pgn::export_pgn_bytes(b"1. e4 {\xc3\xa9} e5 *", &mut out));
/// assert!(out.ends_with("1. e4 {\u{e9}} 1... e5 *\n\n".as_bytes()));
/// ```
pub fn export_pgn_bytes(pgn: &[u8], out: &mut Vec<u8>) -> bool {
    // The tag store is kept by the thread from one game to the next, as the reader's
    // buffer is (by `read_single_game`).
    thread_local! {
        static STORE: std::cell::Cell<Store> = const { std::cell::Cell::new(Store::new()) };
    }
    let start = out.len();
    let mut store = STORE.take();
    store.clear();
    let mut w = Exporter {
        p: Packer::new(std::mem::take(out), MAX_LINE),
        store,
        ok: true,
        board: crate::replay::start_board().clone(),
        plies: 0,
        number: MoveNumber::new(1),
        white: true,
        fen: None,
        setup_one: false,
        variant: Variant::Standard,
        tags_read: 0,
        nodes: 0,
        after_item: false,
        result_at: None,
        outcome: None,
        roster: [None; 7],
        filter: 0,
    };
    let ok = read_single_game(pgn, &mut w) == Some(true);
    *out = std::mem::take(&mut w.p.out);
    if w.store.bytes.capacity() <= 1 << 20 {
        STORE.set(std::mem::take(&mut w.store));
    }
    if !ok {
        out.truncate(start);
    }
    ok
}

/// A game's tag pairs (as byte ranges of one buffer) and the pending move's NAGs and
/// comments, kept by a thread from game to game.
#[derive(Default)]
struct Store {
    /// The comments' text.
    bytes: String,
    /// The `FEN` tag's value (unescaped).
    raw: Vec<u8>,
    /// Each tag as the line export writes (`[Name "value"]` and a line break, the
    /// value escaped again), in input order: the tag section is these lines copied
    /// whole. Whether names and values are UTF-8 is checked for all of them at once,
    /// when they are written (each lies between ASCII bytes, so the whole is UTF-8
    /// exactly when every name and value is).
    lines: Vec<u8>,
    /// Where each tag's line starts and its name's length (its value is the rest
    /// of the line but the 5 bytes of `[`, ` "` and `"]` and the line break).
    tags: Vec<(usize, usize)>,
    /// Each tag's [`name_mix`], in the order of `tags`: the duplicate test reads
    /// only the names whose hash is the one sought (two usual names, `EventDate`
    /// and `BlackFideId`, share a filter bit).
    mixes: Vec<u64>,
    /// NAGs of the last move read, written before its comments (as the model keeps
    /// them).
    nags: Vec<u8>,
    /// Comments after the last move read.
    comments: Vec<Range<usize>>,
    /// Comments after the result marker.
    finals: Vec<Range<usize>>,
    /// The export order of the last game's tags outside the roster (positions in
    /// their input order), and their names in input order, each ended by a 0 byte.
    order: Vec<usize>,
    order_key: Vec<u8>,
}

impl Store {
    const fn new() -> Store {
        Store {
            bytes: String::new(),
            raw: Vec::new(),
            lines: Vec::new(),
            tags: Vec::new(),
            mixes: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            finals: Vec::new(),
            order: Vec::new(),
            order_key: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.raw.clear();
        self.lines.clear();
        self.tags.clear();
        self.mixes.clear();
        self.nags.clear();
        self.comments.clear();
        self.finals.clear();
    }

    fn push(&mut self, s: &[u8]) -> Range<usize> {
        let at = self.raw.len();
        self.raw.extend_from_slice(s);
        at..self.raw.len()
    }

    /// A tag value as the model reader keeps it: unescaped.
    fn push_value(&mut self, value: &[u8], escaped: bool) -> Range<usize> {
        if escaped {
            self.push(crate::text::tag_value(value, true).as_bytes())
        } else {
            self.push(value)
        }
    }

    /// Appends a tag's line as export writes it. A value not `escaped` in the input
    /// holds no `"` or `\\` (a `"` would have closed it, a `\\` made it escaped), so it
    /// is copied as it is; another is unescaped as the model reader keeps it and
    /// escaped again as its writer writes it.
    fn push_tag(&mut self, name: &[u8], value: &[u8], escaped: bool, mix: u64) {
        self.mixes.push(mix);
        let at = self.lines.len();
        let out = &mut self.lines;
        out.reserve(name.len() + value.len() + 6);
        out.push(b'[');
        out.extend_from_slice(name);
        out.extend_from_slice(b" \"");
        if escaped {
            push_value(out, crate::text::tag_value(value, true).as_bytes());
        } else {
            out.extend_from_slice(value);
        }
        out.extend_from_slice(b"\"]\n");
        self.tags.push((at, name.len()));
    }

    /// The line of tag `i`.
    fn line(&self, i: usize) -> &[u8] {
        let at = self.tags[i].0;
        let end = self.tags.get(i + 1).map_or(self.lines.len(), |t| t.0);
        &self.lines[at..end]
    }

    /// A comment's text as the model keeps it: its words joined by single spaces.
    fn push_comment(&mut self, raw: &str) -> Range<usize> {
        let at = self.bytes.len();
        for w in raw.split_whitespace() {
            if self.bytes.len() > at {
                self.bytes.push(' ');
            }
            self.bytes.push_str(w);
        }
        at..self.bytes.len()
    }

    /// Sets `order` to the export order of the tags `others` (indexes of `tags`, in
    /// input order): by name. The games of a file mostly have the same names in the
    /// same order, so the last game's order is taken again when its names are these.
    fn sort_names(&mut self, others: &[usize]) {
        let mut at = 0;
        let mut same = self.order.len() == others.len();
        for &i in others {
            if !same {
                break;
            }
            let name = self.name(i);
            let end = at + name.len();
            same = self.order_key.get(at..end) == Some(name) && self.order_key.get(end) == Some(&0);
            at = end + 1;
        }
        if same && at == self.order_key.len() {
            return;
        }
        self.order.clear();
        self.order.extend(0..others.len());
        let mut order = std::mem::take(&mut self.order);
        // Names are unique (a duplicate declined): the order is total. Compared by
        // their first eight bytes as one number first (most names differ there),
        // the rest only on a tie; the bytes after a short name count as 0, below
        // any byte of a longer one, as its end is in byte order.
        let mut keys = [0u64; MAX_DIRECT_TAGS + 2];
        for (key, &i) in keys.iter_mut().zip(others) {
            let mut prefix = [0u8; 8];
            let name = self.name(i);
            let n = name.len().min(8);
            prefix[..n].copy_from_slice(&name[..n]);
            *key = u64::from_be_bytes(prefix);
        }
        order.sort_unstable_by(|&a, &b| {
            keys[a]
                .cmp(&keys[b])
                .then_with(|| self.name(others[a]).cmp(self.name(others[b])))
        });
        self.order = order;
        self.order_key.clear();
        for &i in others {
            let (at, n) = self.tags[i];
            let name = &self.lines[at + 1..at + 1 + n];
            self.order_key.extend_from_slice(name);
            self.order_key.push(0);
        }
    }

    fn name(&self, i: usize) -> &[u8] {
        let (at, n) = self.tags[i];
        &self.lines[at + 1..at + 1 + n]
    }

    /// The value of tag `i` as written (escaped: equal to a result marker exactly
    /// when the value read is, since escaping changes only `"` and `\\`).
    fn value(&self, i: usize) -> &[u8] {
        let line = self.line(i);
        &line[self.tags[i].1 + 3..line.len() - 3]
    }

    /// The value of the tag `name`, whose [`name_mix`] is `mix`.
    fn get(&self, name: &[u8], mix: u64) -> Option<&[u8]> {
        (0..self.tags.len())
            .find(|&i| self.mixes.get(i) == Some(&mix) && self.name(i) == name)
            .map(|i| self.value(i))
    }
}

struct Exporter {
    p: Packer,
    store: Store,
    /// False once the game needs the model path.
    ok: bool,
    board: Board,
    plies: usize,
    /// The full move number of the next move, and whether White plays it (counted
    /// from the start position as `crate::Turn` counts).
    number: MoveNumber,
    white: bool,
    /// The last `FEN` tag's value (unescaped, in the store's bytes): the start.
    fen: Option<Range<usize>>,
    /// The last `SetUp` tag says `1`: a start without a `FEN` is an error.
    setup_one: bool,
    /// As the `Variant` tag names it: the default castling spelling of the `FEN`
    /// written.
    variant: Variant,
    /// Tags read, `FEN` and `SetUp` included.
    tags_read: usize,
    nodes: usize,
    /// The last move has comments after it: the next black move gets its number.
    after_item: bool,
    /// Where the `Result` tag's value goes, when the game has no `Result` tag (the
    /// value is the result marker, read after the tags are written).
    result_at: Option<usize>,
    outcome: Option<Outcome>,
    /// Where each roster tag is in the store's tags (in [`STR`] order).
    roster: [Option<usize>; 7],
    /// One bit per other tag name held, chosen by [`name_bit`]: most names are told
    /// new without a scan.
    filter: u64,
}

/// A hash of a tag name: from its length and its first, middle and last bytes.
fn name_mix(name: &[u8]) -> u64 {
    let (n, at) = (name.len(), |i: usize| {
        u64::from(name.get(i).copied().unwrap_or(0))
    });
    (n as u64 ^ at(0) << 8 ^ at(n / 2) << 16 ^ at(n.wrapping_sub(1)) << 24)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The filter bit of a tag name's [`name_mix`].
fn name_bit(mix: u64) -> u64 {
    1 << (mix >> 58)
}

/// The next move's number as it is written (`12.`, `12...`): its digits, counted up
/// in place from move to move (a division per digit per move cost more than the
/// rest of the token), then dots.
struct MoveNumber {
    n: u16,
    text: [u8; 8],
    digits: usize,
}

impl MoveNumber {
    fn new(n: u16) -> MoveNumber {
        let mut buf = [0; 10];
        let at = decimal(u32::from(n), &mut buf);
        let mut text = [b'.'; 8];
        let digits = buf.len() - at;
        text[..digits].copy_from_slice(&buf[at..]);
        MoveNumber { n, text, digits }
    }

    /// Counts one up, saturating as `Board::play_unchecked` counts.
    #[inline]
    fn next(&mut self) {
        if self.n == u16::MAX {
            return;
        }
        self.n += 1;
        for i in (0..self.digits).rev() {
            if self.text[i] != b'9' {
                self.text[i] += 1;
                return;
            }
            self.text[i] = b'0';
        }
        // All nines: one digit more (at most five, for `u16`).
        self.text[0] = b'1';
        self.text[self.digits] = b'0';
        self.digits += 1;
    }

    /// `12.`
    #[cfg(test)]
    fn white(&self) -> &[u8] {
        &self.text[..self.digits + 1]
    }

    /// `12...`
    #[cfg(test)]
    fn black(&self) -> &[u8] {
        &self.text[..self.digits + 3]
    }
}

/// A tag value as the model reader keeps it (unescaped), borrowed when it has no
/// escape (`raw` is `value` as text).
fn plain_value<'a>(raw: &'a str, value: &[u8], escaped: bool) -> std::borrow::Cow<'a, str> {
    if escaped {
        std::borrow::Cow::Owned(crate::text::tag_value(value, true))
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Whether the model reader treats a tag of this name otherwise than as a plain tag
/// (other than `FEN`, `SetUp` and `Variant` so spelt, and the roster names): a
/// start position, a variant or another game in any case, a roster name in another
/// case.
pub(crate) fn special_name(name: &[u8]) -> bool {
    crate::headers::known_tag_name(name).is_some_and(|k| k.eq_ignore_ascii_case(name))
}

/// How the export SAN of `mv`, read as `read` in `board`, is spelt. A piece move read
/// without a from-square was the only legal move of its kind to its square
/// (`San::to_move` counted them), so its export needs no from-square either and the
/// legal moves of the other pieces are not tried again. A move read as a pawn's is a
/// pawn's (`San::to_move` moves a pawn for it), so its spelling follows from the move
/// alone (a capture is exactly a change of file), and castling read as castling is
/// spelt as read (its rook is on that side of the king); other moves are spelt by
/// `San::from_move`.
enum ExportForm {
    Pawn {
        capture: bool,
    },
    Castle(CastleSide),
    Piece {
        piece: Piece,
        capture: bool,
        to: Square,
    },
    FromMove,
}

#[inline(always)]
fn export_form(board: &Board, read: &San, mv: Move) -> ExportForm {
    let us = board.side_to_move();
    match *read {
        San::Normal {
            piece: Some(Piece::Pawn),
            ..
        }
        | San::Normal {
            piece: None,
            file: None,
            ..
        }
        | San::Normal {
            piece: None,
            rank: None,
            ..
        } => ExportForm::Pawn {
            capture: mv.from.file() != mv.to.file(),
        },
        San::Castle(side) => ExportForm::Castle(side),
        San::Normal {
            piece: Some(piece),
            file: None,
            rank: None,
            to,
            ..
        } if piece != Piece::Pawn && mv.to == to && !board.colors(us).has(to) => {
            ExportForm::Piece {
                piece,
                capture: board.colors(!us).has(to),
                to,
            }
        }
        _ => ExportForm::FromMove,
    }
}

/// The export SAN of `mv`, read as `read` in `board` (see [`ExportForm`]).
#[inline]
pub(crate) fn export_san(board: &Board, read: &San, mv: Move) -> San {
    match export_form(board, read, mv) {
        ExportForm::Pawn { capture } => San::pawn_move(mv, capture),
        ExportForm::Castle(side) => San::Castle(side),
        ExportForm::Piece { piece, capture, to } => San::Normal {
            piece: Some(piece),
            file: None,
            rank: None,
            capture,
            to,
            promotion: None,
        },
        ExportForm::FromMove => San::from_move(board, mv),
    }
}

/// The spelling of [`export_san`]`(board, read, mv)`, put together from the move for
/// the forms spelt from it (a pawn's move, a piece move without a from-square): no
/// `San` is built and matched again to spell it.
#[inline(always)]
fn export_text(board: &Board, read: &San, mv: Move) -> SanText {
    match export_form(board, read, mv) {
        ExportForm::Pawn { capture } => SanText::pawn_move(mv, capture),
        ExportForm::Piece { piece, capture, to } => SanText::piece_move(piece, capture, to),
        ExportForm::Castle(side) => San::Castle(side).text(),
        ExportForm::FromMove => San::from_move(board, mv).text(),
    }
}

/// Appends a tag value as export writes it (`"` and `\\` escaped; the value holds no
/// tab or line break, or the game declined).
fn push_value(out: &mut Vec<u8>, v: &[u8]) {
    for &b in v {
        if matches!(b, b'"' | b'\\') {
            out.push(b'\\');
        }
        out.push(b);
    }
}

impl Exporter {
    /// The start position from the `FEN` tag, and the `FEN` and `SetUp` tags as the
    /// model writer writes them (among the other tags, in name order): the position
    /// as read, its castling spelt as the tag spelt it (else as the variant spells
    /// it), the tag's halfmove clock when over the move generator's 100. A `FEN` that
    /// does not read, or `SetUp "1"` without one, is the model path's error.
    fn start_position(&mut self) {
        let Some(at) = self.fen.clone() else {
            self.ok = !self.setup_one;
            return;
        };
        let Ok(fen) = std::str::from_utf8(&self.store.raw[at]) else {
            self.ok = false;
            return;
        };
        let Ok(board) = parse_fen(fen) else {
            self.ok = false;
            return;
        };
        let style = CastlingStyle::of_fen(fen).unwrap_or(match self.variant {
            Variant::Chess960 => CastlingStyle::Shredder,
            Variant::Standard => CastlingStyle::XFen,
        });
        let clock = fen_halfmove_clock(fen).unwrap_or(u32::from(board.halfmove_clock()));
        let mut written = to_fen(&board, style);
        if clock > 100 {
            written = with_halfmove_clock(&written, clock);
        }
        self.number = MoveNumber::new(board.fullmove_number());
        self.white = board.side_to_move() == cozy_chess::Color::White;
        self.board = board;
        // The written `FEN` holds no `"` or `\\`.
        self.store
            .push_tag(b"FEN", written.as_bytes(), false, name_mix(b"FEN"));
        self.store
            .push_tag(b"SetUp", b"1", false, name_mix(b"SetUp"));
    }

    /// Counts a move, comment or variation against the model's cap.
    fn node(&mut self) {
        self.nodes += 1;
        if self.nodes > MAX_GAME_NODES {
            self.ok = false;
        }
    }

    /// The tag section, in the order `export_tag_pairs` gives: the roster (its
    /// defaults for missing ones), then the others in byte order of name.
    fn write_tags(&mut self) {
        // The tags read, and the `FEN` and `SetUp` written.
        let mut others: [usize; MAX_DIRECT_TAGS + 2] = [0; MAX_DIRECT_TAGS + 2];
        let mut n = 0;
        let mut in_roster = 0u128;
        for i in self.roster.into_iter().flatten() {
            in_roster |= 1 << i;
        }
        for i in 0..self.store.tags.len() {
            if in_roster & (1 << i) == 0 {
                others[n] = i;
                n += 1;
            }
        }
        let others = &others[..n];
        self.store.sort_names(others);
        let s = &self.store;
        // The names and values are UTF-8 (else the model reader decodes them as
        // Windows-1252) exactly when the lines are (see `Store::lines`).
        if std::str::from_utf8(&s.lines).is_err() {
            self.ok = false;
            return;
        }
        let out = &mut self.p.out;
        out.reserve(s.lines.len() + 64);
        // Each roster pair's opening as one piece, for the missing ones.
        const OPEN: [&str; 7] = [
            "[Event \"",
            "[Site \"",
            "[Date \"",
            "[Round \"",
            "[White \"",
            "[Black \"",
            "[Result \"",
        ];
        for ((name, open), at) in STR.into_iter().zip(OPEN).zip(self.roster) {
            if let Some(i) = at {
                out.extend_from_slice(s.line(i));
                continue;
            }
            out.extend_from_slice(open.as_bytes());
            match name {
                // Its value is the outcome, known once the movetext is read.
                "Result" => self.result_at = Some(out.len()),
                "Date" => out.extend_from_slice(b"????.??.??"),
                _ => out.push(b'?'),
            }
            out.extend_from_slice(b"\"]\n");
        }
        for &k in &s.order {
            out.extend_from_slice(s.line(others[k]));
        }
        out.push(b'\n');
    }

    /// The last move's NAGs and comments, into the text.
    #[inline]
    fn flush(&mut self) {
        // Called for every move, and nearly every move has neither.
        if self.store.nags.is_empty() && self.store.comments.is_empty() {
            self.after_item = false;
            return;
        }
        self.flush_items();
    }

    #[inline(never)]
    fn flush_items(&mut self) {
        for &nag in &self.store.nags {
            self.p.ascii_number("$", u32::from(nag), 0);
        }
        for c in &self.store.comments {
            self.p.comment(&self.store.bytes[c.clone()]);
        }
        self.after_item = !self.store.comments.is_empty();
        self.store.nags.clear();
        self.store.comments.clear();
    }
}

impl Visitor for Exporter {
    /// Whether the game was written.
    type Output = bool;

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, _at: Pos) {
        if !self.ok {
            return;
        }
        self.tags_read += 1;
        // Breaks the model reader reads as spaces, with a warning. (Whether names
        // and values are UTF-8, which the model reader decodes as Windows-1252
        // otherwise, is checked for them all at once when they are written; an
        // escaped value, which is unescaped here, now.)
        if self.tags_read > MAX_DIRECT_TAGS
            || crate::text::has_break(value)
            || (escaped && std::str::from_utf8(value).is_err())
        {
            self.ok = false;
            return;
        }
        // The start position: not kept as tags (the model reader takes the last of
        // each, saying nothing of a repeated one); the `FEN` is read once the tags are.
        if name == b"FEN" {
            self.fen = Some(self.store.push_value(value, escaped));
            return;
        }
        if name == b"SetUp" {
            // Read as the model reader reads it (a value not in UTF-8, which it
            // decodes as Windows-1252, declined).
            match std::str::from_utf8(value) {
                Ok(v) => self.setup_one = plain_value(v, value, escaped).trim() == "1",
                Err(_) => self.ok = false,
            }
            return;
        }
        let roster = STR.iter().position(|s| s.as_bytes() == name);
        if name == b"Variant" {
            // Chess (lichess writes `[Variant "Standard"]` on every game) or Chess960:
            // kept as a tag by the model reader, which reads the game so and says
            // nothing; another game is an error.
            let variant = std::str::from_utf8(value)
                .ok()
                .and_then(|v| Variant::from_tag(&plain_value(v, value, escaped)).ok());
            match variant {
                Some(v) => self.variant = v,
                None => {
                    self.ok = false;
                    return;
                }
            }
        } else if roster.is_none() && special_name(name) {
            // The model reader reads a start position or another game from these,
            // or renames a roster name spelt in another case (with a warning).
            self.ok = false;
            return;
        }
        let mix = name_mix(name);
        let bit = name_bit(mix);
        let duplicate = match roster {
            Some(r) => self.roster[r].is_some(),
            // The model reader keeps a duplicate under another name, with a warning.
            None => self.filter & bit != 0 && self.store.get(name, mix).is_some(),
        };
        if duplicate || !tag_name_ok(name) {
            self.ok = false;
            return;
        }
        self.filter |= bit;
        if let Some(r) = roster {
            self.roster[r] = Some(self.store.tags.len());
        }
        self.store.push_tag(name, value, escaped, mix);
    }

    fn end_headers(&mut self) -> Skip {
        Skip(!self.ok)
    }

    fn begin_movetext(&mut self) {
        if self.ok {
            self.start_position();
        }
        if self.ok {
            self.write_tags();
        }
    }

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
        self.flush();
        // The move number (none for most of Black's moves), then the move: both
        // written once the move is played and its check marker known.
        let number = if self.white {
            self.number.digits + 1
        } else if self.plies == 0 || self.after_item {
            self.number.digits + 3
        } else {
            0
        };
        let mut text = export_text(&self.board, &san.san, mv);
        self.board.play_unchecked(mv);
        text.push_suffix(Suffix::of(&self.board));
        let (buf, n) = text.padded();
        self.p.ascii_move(&self.number.text, number, buf, n);
        // As `Board::play_unchecked` counts: saturating, after Black's move.
        if !self.white {
            self.number.next();
        }
        self.white = !self.white;
        if let Some(g) = san.glyph {
            self.store.nags.push(g);
        }
        self.plies += 1;
        Control::Continue
    }

    fn nag(&mut self, nag: u8, _at: Pos) {
        if self.plies > 0 && nag != 0 && self.outcome.is_none() {
            self.store.nags.push(nag);
        } else {
            // `$0`, or a NAG before any move or after the result: the model path.
            self.ok = false;
        }
    }

    fn comment(&mut self, raw: &[u8], _at: Pos) {
        self.node();
        if !self.ok {
            return;
        }
        let Ok(raw) = std::str::from_utf8(raw) else {
            self.ok = false;
            return;
        };
        let c = self.store.push_comment(raw);
        if self.outcome.is_some() {
            self.store.finals.push(c);
        } else if self.plies == 0 {
            // Comments before the first move: written where they stand.
            self.p.comment(&self.store.bytes[c]);
        } else {
            self.store.comments.push(c);
        }
    }

    fn begin_variation(&mut self, _at: Pos) -> Skip {
        self.ok = false;
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        // The model warns when the marker and the tag differ; a tag spelt otherwise
        // than the marker would be replaced (a loss the model path reports).
        if self.roster[6].is_some_and(|i| self.store.value(i) != outcome.as_str().as_bytes()) {
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
        // A marker that contradicts a checkmate or stalemate: the model warns.
        if let Some((expected, _)) = game_end(&self.board)
            && outcome != Outcome::Unknown
            && outcome != expected
        {
            return false;
        }
        self.flush();
        self.p.ascii(outcome.as_str());
        for i in 0..self.store.finals.len() {
            let c = self.store.finals[i].clone();
            self.p.comment(&self.store.bytes[c]);
        }
        self.p.out.extend_from_slice(b"\n\n");
        if let Some(at) = self.result_at {
            self.p.out.splice(at..at, outcome.as_str().bytes());
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::MoveNumber;

    /// Counted up in place: carries, a digit more, saturation at `u16::MAX` (as
    /// the model writer's `Turn` counts).
    #[test]
    fn move_numbers_count_up_as_numbers() {
        for start in [1u16, 9, 99, 998, 9999, 65534] {
            let mut m = MoveNumber::new(start);
            for k in 0..3u32 {
                let n = (u32::from(start) + k).min(u32::from(u16::MAX));
                assert_eq!(m.white(), format!("{n}.").as_bytes());
                assert_eq!(m.black(), format!("{n}...").as_bytes());
                m.next();
            }
        }
    }
}
