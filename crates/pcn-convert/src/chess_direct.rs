//! PGN text straight to a PCN document, for the games whose conversion needs nothing
//! but the main line: one pass of the PGN reader, each move resolved, played and
//! written as JSON as it is read, with no game model, no export SAN and no check
//! marker computed (PCN carries neither).
//!
//! The document is byte for byte the one [`crate::chess::to_pcn`] makes of the game
//! `chess-pgn`'s model reader builds (a differential test holds the two paths to that
//! on every game of the test corpora). Whatever would make that reader say something
//! (a warning or an error), and whatever this path does not write itself (variations,
//! null moves, a variant other than chess and Chess960, tags the reader renames),
//! makes it decline: the caller then takes the model path, which reports and carries
//! all of it. A set-up start (`FEN`, `SetUp`) is written here, as the model path
//! writes it (`starting_position`, `...fen`, `...first_to_move`).

use std::borrow::Cow;

use chess_pgn::cozy_chess::{Board, File, Move, Piece, Square};
use chess_pgn::{CastlingStyle, Eval, MAX_GAME_NODES, Variant, parse_commands};
use chess_pgn::{Control, Outcome, Pos, Problem, SanPlus, Skip, Visitor, read_single_game};
use serde::Serialize;

use crate::chess::{EvalOut, board_of, encode, flat, outcome_status};
use crate::common::{self, EDITION, PCN_EDITION, block};

/// Appends the compact PCN document of the one PGN game in `pgn` to `out` and returns
/// true, or returns false with `out` as it was when the game needs the model path
/// (see the module documentation): then `chess_pgn::Games` and
/// [`crate::chess::to_pcn`] convert it, with every diagnostic.
pub fn write_pcn_from_pgn(pgn: &[u8], out: &mut Vec<u8>) -> bool {
    // The tag buffers are kept by the thread from one game to the next, as the
    // reader's buffer is (by `read_single_game`).
    thread_local! {
        static TAGS: std::cell::Cell<Tags> = const { std::cell::Cell::new(Tags::new()) };
    }
    let start = out.len();
    // A game in UTF-8 (nearly all) has its tag names and values taken as they are,
    // without validating each one again.
    let utf8 = std::str::from_utf8(pgn).is_ok();
    let mut w = Direct::new(out, TAGS.take(), utf8);
    let ok = read_single_game(pgn, &mut w) == Some(true);
    let tags = std::mem::take(&mut w.tags);
    // A huge tag section's strings are not kept for the games after it.
    if tags.bytes() <= 1 << 20 {
        TAGS.set(tags);
    }
    if !ok {
        out.truncate(start);
    }
    ok
}

/// What a move of the main line carries beside itself (`...pgn` annotations).
#[derive(Default)]
struct Pending {
    ply: usize,
    nags: Vec<u8>,
    after: Vec<String>,
    clock: Option<f64>,
    eval: Option<Eval>,
}

/// The most tags of a game the direct path writes (more go to the model path).
const MAX_DIRECT_TAGS: usize = 64;

/// A game's tag pairs in input order, decoded (UTF-8 bytes), in buffers a thread keeps
/// from game to game: after the first games a tag costs no allocation.
#[derive(Default)]
struct Tags {
    slots: Vec<(Vec<u8>, Vec<u8>)>,
    len: usize,
    /// One bit per name held, chosen by [`Tags::bit`]: most names are told new
    /// without a scan.
    filter: u64,
}

impl Tags {
    const fn new() -> Tags {
        Tags {
            slots: Vec::new(),
            len: 0,
            filter: 0,
        }
    }

    fn clear(&mut self) {
        self.len = 0;
        self.filter = 0;
    }

    /// The filter bit of a name: from its length and its first, middle and last bytes.
    fn bit(name: &[u8]) -> u64 {
        let (n, at) = (name.len(), |i: usize| {
            u64::from(name.get(i).copied().unwrap_or(0))
        });
        let mix = (n as u64 ^ at(0) << 8 ^ at(n / 2) << 16 ^ at(n.wrapping_sub(1)) << 24)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        1 << (mix >> 58)
    }

    /// Whether a tag named `name` is held.
    fn contains(&self, name: &[u8]) -> bool {
        self.filter & Tags::bit(name) != 0 && self.get(name).is_some()
    }

    fn push(&mut self, name: &[u8], value: &[u8]) {
        self.filter |= Tags::bit(name);
        if self.len == self.slots.len() {
            self.slots.push(Default::default());
        }
        let (n, v) = &mut self.slots[self.len];
        n.clear();
        n.extend_from_slice(name);
        v.clear();
        v.extend_from_slice(value);
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.slots[..self.len]
            .iter()
            .map(|(n, v)| (n.as_slice(), v.as_slice()))
    }

    /// The value of the first tag named `name`.
    fn get(&self, name: &[u8]) -> Option<&[u8]> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the buffers hold on to.
    fn bytes(&self) -> usize {
        self.slots
            .iter()
            .map(|(n, v)| n.capacity() + v.capacity())
            .sum()
    }
}

/// Decoded text as bytes, borrowed when it was.
fn bytes_of(text: Cow<'_, str>) -> Cow<'_, [u8]> {
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    }
}

/// A JSON string of a tag name or value (UTF-8 bytes by construction).
fn text_bytes(out: &mut Vec<u8>, b: &[u8]) {
    common::json::utf8(out, b);
}

struct Direct<'o> {
    out: &'o mut Vec<u8>,
    /// False once the game needs the model path.
    ok: bool,
    tags: Tags,
    /// The game's bytes are UTF-8.
    utf8: bool,
    board: Board,
    /// Moves, when the header could not be written before them (no `Result` tag to
    /// take the status from).
    moves: Vec<u8>,
    /// The header is written: moves go straight into `out`.
    direct: bool,
    plies: usize,
    nodes: usize,
    game_comments: Vec<String>,
    final_comments: Vec<String>,
    annotations: Vec<u8>,
    /// The annotation of the last move read (once a move was read: `plies > 0`).
    pending: Pending,
    outcome: Option<Outcome>,
    /// The last `FEN` tag's value, and the last `SetUp` says `1` (neither is kept as
    /// a tag: the model reader takes the last of each, saying nothing).
    fen: Option<String>,
    setup_one: bool,
    /// The start the `FEN` gave, with its castling spelling.
    start: Option<(Board, Option<CastlingStyle>)>,
    /// As the `Variant` tag names it.
    variant: Variant,
}

/// The document's text between the moves (and the start's `...fen` and
/// `...first_to_move`) and the tags, the same for every game: written once.
fn editions() -> &'static [u8] {
    static TEXT: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        let mut out = b",\"...pcn_edition\":".to_vec();
        text(&mut out, PCN_EDITION);
        out.extend_from_slice(b",\"...pgn\":{\"edition\":");
        text(&mut out, EDITION);
        out.extend_from_slice(b",\"tags\":");
        out
    })
}

/// The standard start as PCN (written by the model path's own function, once).
fn start_json() -> &'static str {
    static START: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    START.get_or_init(|| {
        serde_json::to_string(&board_of(chess_pgn::start_board())).unwrap_or_default()
    })
}

fn json<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    // Strings, integers, floats and maps with string keys always serialise.
    let _ = serde_json::to_writer(&mut *out, v);
}

fn text(out: &mut Vec<u8>, s: &str) {
    common::json::string(out, s);
}

fn strings(out: &mut Vec<u8>, v: &[String]) {
    for (i, s) in v.iter().enumerate() {
        out.push(if i == 0 { b'[' } else { b',' });
        text(out, s);
    }
    out.push(b']');
}

impl<'o> Direct<'o> {
    fn new(out: &'o mut Vec<u8>, mut tags: Tags, utf8: bool) -> Direct<'o> {
        tags.clear();
        Direct {
            out,
            ok: true,
            tags,
            utf8,
            board: chess_pgn::start_board().clone(),
            moves: Vec::new(),
            direct: false,
            plies: 0,
            nodes: 0,
            game_comments: Vec::new(),
            final_comments: Vec::new(),
            annotations: Vec::new(),
            pending: Pending::default(),
            outcome: None,
            fen: None,
            setup_one: false,
            start: None,
            variant: Variant::Standard,
        }
    }

    /// The start from the `FEN` tag (one that does not read, or `SetUp "1"` without
    /// one, is the model path's error).
    fn start_position(&mut self) {
        let Some(fen) = self.fen.take() else {
            self.ok = !self.setup_one;
            return;
        };
        match chess_pgn::parse_fen(&fen) {
            Ok(b) => {
                self.board = b.clone();
                self.start = Some((b, CastlingStyle::of_fen(&fen)));
            }
            Err(_) => self.ok = false,
        }
    }

    /// Counts a move, comment or variation against the model's cap.
    fn node(&mut self) {
        self.nodes += 1;
        if self.nodes > MAX_GAME_NODES {
            self.ok = false;
        }
    }

    /// Writes the pending move's annotation, if it has any.
    #[inline(always)]
    fn flush(&mut self) {
        let p = &self.pending;
        // Called for every move, and nearly every move has no annotation.
        if !(p.nags.is_empty() && p.after.is_empty() && p.clock.is_none() && p.eval.is_none()) {
            self.write_annotation();
        }
    }

    #[inline(never)]
    fn write_annotation(&mut self) {
        let p = &mut self.pending;
        let a = &mut self.annotations;
        a.push(if a.is_empty() { b'[' } else { b',' });
        a.extend_from_slice(b"{\"ply\":");
        block::write::<20>(a, |buf| block::uint(buf, 0, p.ply as u64));
        for (i, &nag) in p.nags.iter().enumerate() {
            a.extend_from_slice(if i == 0 { b",\"nags\":[" } else { b"," });
            block::write::<20>(a, |buf| block::uint(buf, 0, u64::from(nag)));
        }
        if !p.nags.is_empty() {
            a.push(b']');
        }
        if !p.after.is_empty() {
            a.extend_from_slice(b",\"after\":[");
            for (i, c) in p.after.iter().enumerate() {
                if i > 0 {
                    a.push(b',');
                }
                a.extend_from_slice(b"{\"comment\":");
                text(a, c);
                a.push(b'}');
            }
            a.push(b']');
        }
        if let Some(c) = p.clock {
            a.extend_from_slice(b",\"clock\":");
            json(a, &c);
        }
        if let Some(e) = p.eval {
            a.extend_from_slice(b",\"eval\":");
            json(a, &EvalOut(e));
        }
        a.push(b'}');
        p.nags.clear();
        p.after.clear();
        p.clock = None;
        p.eval = None;
    }

    /// The move's actions, as `encode` makes them; the plain shift, capture and
    /// castling are written without building the action list.
    fn write_move(&mut self, mv: Move) {
        let b = &self.board;
        // Bit tests, not `piece_on` (a search of the piece sets): cozy-chess moves the
        // king onto its own rook to castle.
        let occupied = b.occupied().has(mv.to);
        let castles = b.colors(b.side_to_move()).has(mv.to);
        let en_passant =
            !occupied && mv.from.file() != mv.to.file() && b.pieces(Piece::Pawn).has(mv.from);
        let m = if self.direct {
            &mut *self.out
        } else {
            &mut self.moves
        };
        let separator = if self.plies == 0 { b'[' } else { b',' };
        let (from, to) = (flat(mv.from), flat(mv.to));
        if castles {
            // King and rook both move to cells neither stands on (always so in the
            // standard start): the king's shift, then the rook's. Else `encode`.
            let short = mv.to.file() > mv.from.file();
            let kd = flat(Square::new(
                if short { File::G } else { File::C },
                mv.from.rank(),
            ));
            let rd = flat(Square::new(
                if short { File::F } else { File::D },
                mv.from.rank(),
            ));
            if kd != from && kd != to && rd != to {
                // Two plain actions, in one block (see `common::block`).
                block::write::<48>(m, |buf| {
                    buf[..2].copy_from_slice(&[separator, b'[']);
                    let n = block::action(buf, 2, from, false, kd);
                    buf[n] = b',';
                    let n = block::action(buf, n + 1, to, false, rd);
                    buf[n] = b']';
                    n + 1
                });
                return;
            }
        }
        if castles || en_passant || mv.promotion.is_some() {
            m.push(separator);
            json(m, &encode(b, mv));
            return;
        }
        block::one_action_move(m, separator, from, occupied, to);
    }

    fn tag_value(&self, name: &str) -> Option<&[u8]> {
        self.tags.get(name.as_bytes())
    }

    /// The document up to `"previous_moves":`, in the order `pcn::write_to_with`
    /// writes the model path's.
    fn header(&mut self, outcome: Outcome) {
        // The date and time tags, the only ones `started_at` reads.
        // (No vector: a direct game has each name once, so there are four at most.)
        let mut refs = [("", ""); 4];
        let mut n = 0;
        for (name, v) in self.tags.iter() {
            if n < refs.len()
                && matches!(name, b"UTCDate" | b"Date" | b"UTCTime" | b"Time")
                && let (Ok(name), Ok(v)) = (std::str::from_utf8(name), std::str::from_utf8(v))
            {
                refs[n] = (name, v);
                n += 1;
            }
        }
        let started_at = common::started_at(&refs[..n]);
        let out = &mut *self.out;
        out.push(b'{');
        if let Some(s) = &started_at {
            out.extend_from_slice(b"\"started_at\":");
            text(out, s);
            out.push(b',');
        }
        for (key, name) in [
            (&b"\"topside_player\":"[..], &b"Black"[..]),
            (b"\"bottomside_player\":", b"White"),
        ] {
            if let Some(v) = self.tags.get(name) {
                out.extend_from_slice(key);
                text_bytes(out, v);
                out.push(b',');
            }
        }
        common::json::status(out, outcome_status(outcome));
        out.extend_from_slice(b"\"starting_position\":");
        match &self.start {
            Some((b, _)) => json(out, &board_of(b)),
            None => out.extend_from_slice(start_json().as_bytes()),
        }
        out.extend_from_slice(b",\"previous_moves\":");
    }

    /// The rest of the document, once the game is read.
    fn finish(&mut self) {
        self.flush();
        let Some(outcome) = self.outcome else {
            self.ok = false;
            return;
        };
        // A marker (equal to the `Result` tag, if any) that contradicts a checkmate or
        // stalemate on the board: the model reader warns.
        if outcome != Outcome::Unknown
            && chess_pgn::game_end(&self.board).is_some_and(|(end, _)| end != outcome)
        {
            self.ok = false;
            return;
        }
        if !self.direct {
            self.header(outcome);
            self.out.extend_from_slice(&self.moves);
        }
        let out = &mut *self.out;
        out.extend_from_slice(if self.plies == 0 { b"[]" } else { b"]" });
        if let Some((start, style)) = &self.start {
            // As `crate::chess::to_pcn` writes a set-up start.
            if start != chess_pgn::start_board() {
                let style = style.unwrap_or(match self.variant {
                    Variant::Chess960 => CastlingStyle::Shredder,
                    Variant::Standard => CastlingStyle::XFen,
                });
                out.extend_from_slice(b",\"...fen\":");
                text(out, &chess_pgn::to_fen(start, style));
            }
            if start.side_to_move() == chess_pgn::cozy_chess::Color::Black {
                out.extend_from_slice(b",\"...first_to_move\":\"top\"");
            }
        }
        out.extend_from_slice(editions());
        for (i, (n, v)) in self.tags.iter().enumerate() {
            let open: &[u8; 2] = if i == 0 { b"[[" } else { b",[" };
            if common::json::needs_escape(n) || common::json::needs_escape(v) {
                out.extend_from_slice(open);
                text_bytes(out, n);
                out.push(b',');
                text_bytes(out, v);
                out.push(b']');
                continue;
            }
            // The usual pair, nothing to escape: its seven punctuation bytes and two
            // strings in one reservation.
            out.reserve(n.len() + v.len() + 7);
            out.extend_from_slice(open);
            out.push(b'"');
            out.extend_from_slice(n);
            out.extend_from_slice(b"\",\"");
            out.extend_from_slice(v);
            out.extend_from_slice(b"\"]");
        }
        out.extend_from_slice(if self.tags.is_empty() { b"[]" } else { b"]" });
        if self.variant == Variant::Chess960 {
            out.extend_from_slice(b",\"variant\":\"chess960\"");
        }
        if !self.game_comments.is_empty() {
            out.extend_from_slice(b",\"game_comment\":");
            strings(out, &self.game_comments);
        }
        if !self.annotations.is_empty() {
            out.extend_from_slice(b",\"annotations\":");
            out.extend_from_slice(&self.annotations);
            out.push(b']');
        }
        if !self.final_comments.is_empty() {
            out.extend_from_slice(b",\"termination_comment\":");
            strings(out, &self.final_comments);
        }
        out.extend_from_slice(b",\"result_token\":");
        text(out, outcome.as_str());
        out.extend_from_slice(b",\"source_notation\":\"SAN\"}}");
    }
}

impl Visitor for Direct<'_> {
    /// Whether the document was written.
    type Output = bool;

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, _at: Pos) {
        if !self.ok {
            // Declined already: the model path reads the game again, tags and all; none
            // is kept here (a game of a million tags kept them all, twice).
            return;
        }
        // Decoding and unescaping keep or drop none of the break bytes: the raw bytes
        // tell whether the value has any (the model reader reads them as spaces).
        let breaks = chess_pgn::has_break(value);
        let name: Cow<'_, [u8]> = if self.utf8 {
            Cow::Borrowed(name)
        } else {
            bytes_of(chess_pgn::decode(name))
        };
        let value: Cow<'_, [u8]> = if escaped {
            Cow::Owned(chess_pgn::tag_value(value, true).into_bytes())
        } else if self.utf8 {
            Cow::Borrowed(value)
        } else {
            bytes_of(chess_pgn::decode(value))
        };
        // The start position, as the model reader reads it (the value decoded and
        // unescaped as here); not kept as tags.
        if !breaks && matches!(&*name, b"FEN" | b"SetUp") {
            match std::str::from_utf8(&value) {
                Ok(v) if &*name == b"FEN" => self.fen = Some(v.to_owned()),
                Ok(v) => self.setup_one = v.trim() == "1",
                Err(_) => self.ok = false,
            }
            return;
        }
        // `[Variant "Standard"]` (lichess writes it on every game) or Chess960: the
        // model keeps it as a tag and reads the game so, saying nothing.
        let variant = if &*name == b"Variant" {
            std::str::from_utf8(&value)
                .ok()
                .and_then(|v| Variant::from_tag(v).ok())
        } else {
            None
        };
        if let Some(v) = variant {
            self.variant = v;
        }
        // The model reader rewrites these (with a warning) or reads a start position
        // or a variant from them, or refuse the game (`Game` naming another game): a
        // set-up or variant name not taken above, a roster name in another case.
        let known = chess_pgn::known_tag_name(&name).filter(|k| k.eq_ignore_ascii_case(&name));
        let special = known.is_some_and(|k| {
            matches!(k, b"FEN" | b"SetUp" | b"Game") || (k == b"Variant" && variant.is_none())
        });
        let renamed = known.is_some_and(|k| k != &*name);
        // The duplicate test is a scan of the tags so far: past a usual tag section the
        // model path, whose test is linear, takes the game.
        let many = self.tags.len >= MAX_DIRECT_TAGS;
        if special || renamed || breaks || many || self.tags.contains(&name) {
            self.ok = false;
        }
        self.tags.push(&name, &value);
    }

    fn end_headers(&mut self) -> Skip {
        Skip(!self.ok)
    }

    fn begin_movetext(&mut self) {
        if self.ok {
            self.start_position();
        }
        // The status comes from the result marker, which must equal the `Result` tag
        // (else the game declines): with the tag, the header goes out before the moves.
        if let Some(o) = self
            .tag_value("Result")
            .and_then(|r| Outcome::parse(r.trim_ascii()))
            && self.ok
        {
            self.header(o);
            self.direct = true;
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
        self.write_move(mv);
        self.board.play_unchecked(mv);
        self.pending.ply = self.plies;
        if let Some(g) = san.glyph {
            self.pending.nags.push(g);
        }
        self.plies += 1;
        Control::Continue
    }

    fn nag(&mut self, nag: u8, _at: Pos) {
        if self.plies > 0 && nag != 0 && self.outcome.is_none() {
            self.pending.nags.push(nag);
        } else {
            // `$0`, or a NAG before any move: the model path drops it with a warning.
            self.ok = false;
        }
    }

    fn comment(&mut self, raw: &[u8], _at: Pos) {
        self.node();
        let text = chess_pgn::comment(raw);
        if self.outcome.is_some() {
            self.final_comments.push(text);
            return;
        }
        if self.plies == 0 {
            self.game_comments.push(text);
            return;
        }
        let p = &mut self.pending;
        let (clock, eval) = parse_commands(&text);
        if clock.is_some() {
            p.clock = clock;
        }
        if eval.is_some() {
            p.eval = eval;
        }
        p.after.push(text);
    }

    fn begin_variation(&mut self, _at: Pos) -> Skip {
        self.ok = false;
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        let tag = self
            .tag_value("Result")
            .and_then(|r| Outcome::parse(r.trim_ascii()));
        if tag.is_some_and(|t| t != outcome) {
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
        if self.ok {
            self.finish();
        }
        self.ok
    }
}
