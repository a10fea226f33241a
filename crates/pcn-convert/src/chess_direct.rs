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
    let mut w = Direct::new(out, TAGS.take());
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

/// What the last move of the main line carries beside itself (`...pgn` annotations).
#[derive(Default)]
struct Pending {
    nags: Vec<u8>,
    after: Vec<String>,
    clock: Option<f64>,
    eval: Option<Eval>,
}

/// The most tags of a game the direct path writes (more go to the model path).
const MAX_DIRECT_TAGS: usize = 64;

/// Where a tag's name or value is held (see [`Tags`]).
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    len: usize,
    /// In [`Tags::raw`], not in [`Tags::json`].
    raw: bool,
}

/// The names of the tags the document's header reads, each found without a scan.
const HEADER_TAGS: [&[u8]; 7] = [
    b"White", b"Black", b"Result", b"Date", b"Time", b"UTCDate", b"UTCTime",
];

/// A game's tag pairs in input order, decoded (UTF-8 bytes), in buffers a thread keeps
/// from game to game: after the first games a tag costs no allocation. Each pair is
/// written as the document's JSON when it is read (`[["name","value"]`, …): the
/// document's end copies the text once, and a name or value JSON writes as it is is
/// looked up in that text; only the strings JSON escapes are kept again, in `raw`.
#[derive(Default)]
struct Tags {
    json: Vec<u8>,
    raw: Vec<u8>,
    /// Each pair's name and value, and its name's [`Tags::mix`].
    pairs: Vec<(Span, Span, u64)>,
    /// One bit per name held, chosen by [`Tags::bit`]: most names are told new
    /// without a scan.
    filter: u64,
    /// The index (plus one, 0 for none) in `pairs` of each of [`HEADER_TAGS`].
    header: [u8; 7],
}

impl Tags {
    const fn new() -> Tags {
        Tags {
            json: Vec::new(),
            raw: Vec::new(),
            pairs: Vec::new(),
            filter: 0,
            header: [0; 7],
        }
    }

    fn clear(&mut self) {
        self.json.clear();
        self.raw.clear();
        self.pairs.clear();
        self.filter = 0;
        self.header = [0; 7];
    }

    fn len(&self) -> usize {
        self.pairs.len()
    }

    /// A hash of a name: from its length and its first, middle and last bytes.
    fn mix(name: &[u8]) -> u64 {
        let (n, at) = (name.len(), |i: usize| {
            u64::from(name.get(i).copied().unwrap_or(0))
        });
        (n as u64 ^ at(0) << 8 ^ at(n / 2) << 16 ^ at(n.wrapping_sub(1)) << 24)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The filter bit of a name's [`Tags::mix`].
    fn bit(mix: u64) -> u64 {
        1 << (mix >> 58)
    }

    /// Whether a tag named `name`, of [`Tags::mix`] `mix`, is held: the names of a
    /// different hash are passed over without reading them.
    fn contains(&self, name: &[u8], mix: u64) -> bool {
        self.filter & Tags::bit(mix) != 0
            && self
                .pairs
                .iter()
                .any(|&(n, _, m)| m == mix && self.at(n) == name)
    }

    fn at(&self, s: Span) -> &[u8] {
        let buf = if s.raw { &self.raw } else { &self.json };
        &buf[s.start..s.start + s.len]
    }

    /// Appends a pair whose name has [`Tags::mix`] `mix`; `plain` when both strings
    /// are known to need no JSON escape.
    #[inline(always)]
    fn push(&mut self, name: &[u8], value: &[u8], mix: u64, plain: bool) {
        self.filter |= Tags::bit(mix);
        let header = match name {
            b"White" => 0,
            b"Black" => 1,
            b"Result" => 2,
            b"Date" => 3,
            b"Time" => 4,
            b"UTCDate" => 5,
            b"UTCTime" => 6,
            _ => 7,
        };
        if let Some(h) = self.header.get_mut(header)
            && *h == 0
        {
            // At most `MAX_DIRECT_TAGS` (64) pairs: the index fits.
            *h = self.pairs.len() as u8 + 1;
        }
        let open: &[u8; 3] = if self.pairs.is_empty() {
            b"[[\""
        } else {
            b",[\""
        };
        let (n, v) = if plain {
            // The usual pair: its seven punctuation bytes and two strings in one
            // reservation.
            let j = &mut self.json;
            j.reserve(name.len() + value.len() + 7);
            j.extend_from_slice(open);
            let n = j.len();
            j.extend_from_slice(name);
            j.extend_from_slice(b"\",\"");
            let v = j.len();
            j.extend_from_slice(value);
            j.extend_from_slice(b"\"]");
            let span = |start, s: &[u8]| Span {
                start,
                len: s.len(),
                raw: false,
            };
            (span(n, name), span(v, value))
        } else {
            self.json.extend_from_slice(&open[..2]);
            let n = self.string(name);
            self.json.push(b',');
            let v = self.string(value);
            self.json.push(b']');
            (n, v)
        };
        self.pairs.push((n, v, mix));
    }

    /// Writes one string of a pair into `json`, keeping it in `raw` when JSON escapes it.
    #[cold]
    fn string(&mut self, s: &[u8]) -> Span {
        if common::json::needs_escape(s) {
            let start = self.raw.len();
            self.raw.extend_from_slice(s);
            common::json::utf8(&mut self.json, s);
            return Span {
                start,
                len: s.len(),
                raw: true,
            };
        }
        self.json.push(b'"');
        let start = self.json.len();
        self.json.extend_from_slice(s);
        self.json.push(b'"');
        Span {
            start,
            len: s.len(),
            raw: false,
        }
    }

    /// The value of the tag [`HEADER_TAGS`]`[i]`.
    fn header(&self, i: usize) -> Option<&[u8]> {
        let at = usize::from(*self.header.get(i)?).checked_sub(1)?;
        Some(self.at(self.pairs.get(at)?.1))
    }

    /// Writes the value of the tag [`HEADER_TAGS`]`[i]` as a JSON string; false when
    /// there is none.
    fn write_header_value(&self, i: usize, out: &mut Vec<u8>) -> bool {
        let Some(v) = self.header(i) else {
            return false;
        };
        let (_, span, _) = self.pairs[usize::from(self.header[i]) - 1];
        match self
            .json
            .get(span.start.wrapping_sub(1)..span.start + span.len + 1)
        {
            // Written as it is, between its quotes.
            Some(quoted) if !span.raw => out.extend_from_slice(quoted),
            _ => text_bytes(out, v),
        }
        true
    }

    fn result(&self) -> Option<&[u8]> {
        self.header(2)
    }

    /// The tag list as the document writes it.
    fn write(&self, out: &mut Vec<u8>) {
        if self.pairs.is_empty() {
            out.extend_from_slice(b"[]");
        } else {
            out.extend_from_slice(&self.json);
            out.push(b']');
        }
    }

    /// The bytes the buffers hold on to.
    fn bytes(&self) -> usize {
        self.json.capacity()
            + self.raw.capacity()
            + self.pairs.capacity() * std::mem::size_of::<(Span, Span, u64)>()
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
    /// `pending` holds something to write.
    annotated: bool,
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

/// Each square's PCN text (its flat index, rank 8 first) in the two places a plain
/// move writes it, padded to 8 bytes, with its length: `[n,"` (the action's start)
/// and `n]]` (its end and the move's).
const SQUARE_TEXT: [([u8; 8], [u8; 8], usize); 64] = {
    let mut t = [([0; 8], [0; 8], 0); 64];
    let mut sq = 0;
    while sq < 64 {
        // cozy-chess numbers a1 0, b1 1 … h8 63.
        let flat = (7 - sq / 8) * 8 + sq % 8;
        let (tens, ones) = (b'0' + (flat / 10) as u8, b'0' + (flat % 10) as u8);
        t[sq] = if flat < 10 {
            (
                [b'[', ones, b',', b'"', 0, 0, 0, 0],
                [ones, b']', b']', 0, 0, 0, 0, 0],
                1,
            )
        } else {
            (
                [b'[', tens, ones, b',', b'"', 0, 0, 0],
                [tens, ones, b']', b']', 0, 0, 0, 0],
                2,
            )
        };
        sq += 1;
    }
    t
};

/// The move `[[from,"shift",to]]` or `[[from,"remove",to]]` preceded by `sep` (`[`
/// before a line's first move, else `,`): fixed 8-byte stores from [`SQUARE_TEXT`]
/// into a block at the end of `out`, then cut to length (one capacity test a move).
#[inline(always)]
fn plain_move(out: &mut Vec<u8>, sep: u8, from: Square, remove: bool, to: Square) {
    const VERBS: [[u8; 8]; 2] = [*b"shift\",\0", *b"remove\","];
    let start = out.len();
    out.extend_from_slice(&[0; 32]);
    let Some(buf) = out.get_mut(start..start + 32) else {
        return;
    };
    let (f, t) = (&SQUARE_TEXT[from as usize], &SQUARE_TEXT[to as usize]);
    buf[0] = sep;
    buf[1] = b'[';
    buf[2..10].copy_from_slice(&f.0);
    // `[` and `[n,"`: 2 + 3 + 1 or 2 digits (the mask tells the compiler the bound).
    let n = (5 + f.2) & 7;
    buf[n..n + 8].copy_from_slice(&VERBS[usize::from(remove)]);
    let n = n + 7 + usize::from(remove);
    buf[n..n + 8].copy_from_slice(&t.1);
    let len = n + 2 + t.2;
    out.truncate(start + len);
}

/// [`pcn::is_date_time`] of `YYYY-MM-DDThh:mm:ss` with `Z` or nothing after it, the
/// year's digits and the separators checked already: the digits and ranges of its
/// two-digit fields.
fn usual_date_time(b: &[u8]) -> bool {
    let two = |i: usize, lo: u8, hi: u8| {
        let (t, o) = (b[i].wrapping_sub(b'0'), b[i + 1].wrapping_sub(b'0'));
        t < 10 && o < 10 && (lo..=hi).contains(&(t * 10 + o))
    };
    b.len() >= 19
        && two(5, 1, 12)
        && two(8, 1, 31)
        && two(11, 0, 23)
        && two(14, 0, 59)
        && two(17, 0, 60)
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

#[cfg(test)]
#[test]
fn usual_date_time_is_pcn_s() {
    let mut n = 0;
    for month in ["00", "01", "09", "10", "12", "13", "1a", "99"] {
        for day in ["00", "01", "29", "31", "32", "3 "] {
            for time in [
                "00:00:00", "23:59:60", "24:00:00", "12:60:00", "12:00:61", "1x:00:00", "12:00:0/",
                "09:05:07",
            ] {
                for zone in ["", "Z"] {
                    let iso = format!("2001-{month}-{day}T{time}{zone}");
                    assert_eq!(
                        usual_date_time(iso.as_bytes()),
                        pcn::is_date_time(&iso),
                        "{iso}"
                    );
                    n += 1;
                }
            }
        }
    }
    assert_eq!(n, 8 * 6 * 8 * 2);
}

impl<'o> Direct<'o> {
    fn new(out: &'o mut Vec<u8>, mut tags: Tags) -> Direct<'o> {
        tags.clear();
        Direct {
            out,
            ok: true,
            tags,
            board: chess_pgn::start_board().clone(),
            moves: Vec::new(),
            direct: false,
            plies: 0,
            nodes: 0,
            game_comments: Vec::new(),
            final_comments: Vec::new(),
            annotations: Vec::new(),
            pending: Pending::default(),
            annotated: false,
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

    /// Writes the last move's annotation (`annotated` is set: a move was read).
    #[cold]
    #[inline(never)]
    fn write_annotation(&mut self) {
        self.annotated = false;
        let ply = self.plies - 1;
        let p = &mut self.pending;
        let a = &mut self.annotations;
        a.push(if a.is_empty() { b'[' } else { b',' });
        a.extend_from_slice(b"{\"ply\":");
        block::write::<20>(a, |buf| block::uint(buf, 0, ply as u64));
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
    // Inlined into the move loop (in the reader's, with `san`): the call and its
    // register saves were a fifth of a plain move's cost.
    #[inline(always)]
    fn write_move(&mut self, mv: Move) {
        let b = &self.board;
        // Bit tests, not `piece_on` (a search of the piece sets): cozy-chess moves the
        // king onto its own rook to castle.
        let occupied = b.occupied().has(mv.to);
        let castles = b.colors(b.side_to_move()).has(mv.to);
        let en_passant =
            !occupied && mv.from.file() != mv.to.file() && b.pieces(Piece::Pawn).has(mv.from);
        if castles || en_passant || mv.promotion.is_some() {
            self.write_special_move(mv, castles);
            return;
        }
        let separator = if self.plies == 0 { b'[' } else { b',' };
        let m = if self.direct {
            &mut *self.out
        } else {
            &mut self.moves
        };
        plain_move(m, separator, mv.from, occupied, mv.to);
    }

    /// [`Direct::write_move`] of a castling, an en passant capture or a promotion.
    #[cold]
    #[inline(never)]
    fn write_special_move(&mut self, mv: Move, castles: bool) {
        let b = &self.board;
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
        m.push(separator);
        json(m, &encode(b, mv));
    }

    /// The document up to `"previous_moves":`, in the order `pcn::write_to_with`
    /// writes the model path's.
    fn header(&mut self, outcome: Outcome) {
        self.out.push(b'{');
        self.started_at();
        let out = &mut *self.out;
        for (key, i) in [
            (&b"\"topside_player\":"[..], 1),
            (b"\"bottomside_player\":", 0),
        ] {
            let at = out.len();
            out.extend_from_slice(key);
            if self.tags.write_header_value(i, out) {
                out.push(b',');
            } else {
                out.truncate(at);
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

    /// `"started_at":…,` as [`common::started_at`] makes it of the date and time
    /// tags, if they give one. The usual tags (`YYYY.MM.DD`, `HH:MM:SS`, ASCII) are
    /// put together on the stack; anything else goes through that function.
    fn started_at(&mut self) {
        let tags = &self.tags;
        // UTCDate (UTCTime) before Date (Time), as `common::started_at` reads them.
        let (date, time, zone) = match (tags.header(5), tags.header(3)) {
            (Some(d), _) => (d, tags.header(6), &b"Z"[..]),
            (None, Some(d)) => (d, tags.header(4), &b""[..]),
            (None, None) => return,
        };
        let (date, time) = (date.trim_ascii(), time.map(<[u8]>::trim_ascii));
        let mut iso = [0u8; 20];
        let usual = date.len() == 10
            && date[4] == b'.'
            && date[7] == b'.'
            && date
                .iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
            && time.is_none_or(|t| t.len() == 8 && t[2] == b':' && t[5] == b':');
        if !usual {
            self.started_at_general();
            return;
        }
        iso[..4].copy_from_slice(&date[..4]);
        iso[4] = b'-';
        iso[5..7].copy_from_slice(&date[5..7]);
        iso[7] = b'-';
        iso[8..10].copy_from_slice(&date[8..10]);
        iso[10] = b'T';
        iso[11..19].copy_from_slice(time.unwrap_or(b"00:00:00"));
        iso[19..19 + zone.len()].copy_from_slice(zone);
        // Ends of ASCII digits: the Unicode trim there would have trimmed the same.
        // Digits, `-`, `T`, `:` and `Z` only: nothing for JSON to escape.
        let iso = &iso[..19 + zone.len()];
        if usual_date_time(iso) {
            let out = &mut *self.out;
            out.extend_from_slice(b"\"started_at\":\"");
            out.extend_from_slice(iso);
            out.extend_from_slice(b"\",");
        }
    }

    /// [`Direct::started_at`] of date or time tags of another form.
    #[cold]
    fn started_at_general(&mut self) {
        // (No vector: a direct game has each name once, so there are four at most.)
        let mut refs = [("", ""); 4];
        let mut n = 0;
        for (i, &name) in HEADER_TAGS.iter().enumerate().skip(3) {
            if let Some(v) = self.tags.header(i)
                && let (Ok(name), Ok(v)) = (std::str::from_utf8(name), std::str::from_utf8(v))
            {
                refs[n] = (name, v);
                n += 1;
            }
        }
        if let Some(s) = common::started_at(&refs[..n]) {
            let out = &mut *self.out;
            out.extend_from_slice(b"\"started_at\":");
            text(out, &s);
            out.push(b',');
        }
    }

    /// The rest of the document, once the game is read.
    fn finish(&mut self) {
        if self.annotated {
            self.write_annotation();
        }
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
        self.tags.write(out);
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
        // The four markers, none with a byte JSON escapes.
        out.push(b'"');
        out.extend_from_slice(outcome.as_str().as_bytes());
        out.push(b'"');
        out.extend_from_slice(b",\"source_notation\":\"SAN\"}}");
    }
}

impl Direct<'_> {
    /// A tag pair, decoded and unescaped; `plain` when both are printable ASCII with
    /// nothing JSON escapes.
    #[inline(always)]
    fn take_tag(&mut self, name: &[u8], value: &[u8], plain: bool) {
        // The start position, as the model reader reads it (the value decoded and
        // unescaped as here); not kept as tags.
        if matches!(name, b"FEN" | b"SetUp") {
            match std::str::from_utf8(value) {
                Ok(v) if name == b"FEN" => self.fen = Some(v.to_owned()),
                Ok(v) => self.setup_one = v.trim() == "1",
                Err(_) => self.ok = false,
            }
            return;
        }
        // `[Variant "Standard"]` (lichess writes it on every game) or Chess960: the
        // model keeps it as a tag and reads the game so, saying nothing.
        let variant = if name == b"Variant" {
            std::str::from_utf8(value)
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
        let (known, renamed) = match chess_pgn::known_tag_name(name) {
            Some(k) if k == name => (Some(k), false),
            Some(k) if k.eq_ignore_ascii_case(name) => (Some(k), true),
            _ => (None, false),
        };
        let special = known.is_some_and(|k| {
            matches!(k, b"FEN" | b"SetUp" | b"Game") || (k == b"Variant" && variant.is_none())
        });
        // The duplicate test is a scan of the tags so far: past a usual tag section the
        // model path, whose test is linear, takes the game.
        let many = self.tags.len() >= MAX_DIRECT_TAGS;
        let mix = Tags::mix(name);
        if special || renamed || many || self.tags.contains(name, mix) {
            // The game is declined: nothing more of it is kept.
            self.ok = false;
            return;
        }
        self.tags.push(name, value, mix, plain);
    }

    /// [`Visitor::tag`] of a name or value that is not plain ASCII, or is escaped.
    #[cold]
    #[inline(never)]
    fn tag_general(&mut self, name: &[u8], value: &[u8], escaped: bool) {
        // Decoding and unescaping keep or drop none of the break bytes: the raw bytes
        // tell whether the value has any (the model reader reads them as spaces).
        if chess_pgn::has_break(value) {
            self.ok = false;
            return;
        }
        // Each string decoded by itself, as the model reader decodes it.
        let name = bytes_of(chess_pgn::decode(name));
        let value: Cow<'_, [u8]> = if escaped {
            Cow::Owned(chess_pgn::tag_value(value, true).into_bytes())
        } else {
            bytes_of(chess_pgn::decode(value))
        };
        self.take_tag(&name, &value, false);
    }

    /// [`Visitor::san`] of a move the fast path does not take: the game declines.
    #[cold]
    #[inline(never)]
    fn decline_move(&mut self) -> Control {
        self.ok = false;
        Control::SkipMovetext
    }

    /// A suffix glyph (`!`, `?!`…) of the move just played.
    #[cold]
    #[inline(never)]
    fn glyph(&mut self, g: u8) {
        self.pending.nags.push(g);
        self.annotated = true;
    }
}

impl Visitor for Direct<'_> {
    /// Whether the document was written.
    type Output = bool;

    #[inline(always)]
    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, _at: Pos) {
        if !self.ok {
            // Declined already: the model path reads the game again, tags and all; none
            // is kept here (a game of a million tags kept them all, twice).
            return;
        }
        // Printable ASCII without `"` or `\` (nearly every tag): its own decoding,
        // no break (breaks are control characters) and nothing for JSON to escape.
        if !escaped && !common::json::not_plain_ascii(name) && !common::json::not_plain_ascii(value)
        {
            self.take_tag(name, value, true);
        } else {
            self.tag_general(name, value, escaped);
        }
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
            .tags
            .result()
            .and_then(|r| Outcome::parse(r.trim_ascii()))
            && self.ok
        {
            self.header(o);
            self.direct = true;
        }
    }

    // Inlined into the reader's move loop, as `check`'s visitor is: the call and its
    // register saves were a tenth of this path's own cost.
    #[inline(always)]
    fn san(&mut self, san: SanPlus, _raw: &[u8], _at: Pos) -> Control {
        // A legal move (null moves, illegal and ambiguous moves go to the model path)
        // of a live game under the model's node cap.
        if self.ok
            && self.outcome.is_none()
            && self.nodes < MAX_GAME_NODES
            && let Ok(mv) = san.san.to_move(&self.board)
        {
            self.nodes += 1;
            if self.annotated {
                self.write_annotation();
            }
            self.write_move(mv);
            self.board.play_unchecked(mv);
            self.plies += 1;
            if let Some(g) = san.glyph {
                self.glyph(g);
            }
            return Control::Continue;
        }
        self.decline_move()
    }

    fn nag(&mut self, nag: u8, _at: Pos) {
        if self.plies > 0 && nag != 0 && self.outcome.is_none() {
            self.pending.nags.push(nag);
            self.annotated = true;
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
        // Commands are `[%…]`: a comment without `%` (most) has none.
        let (clock, eval) = if text.as_bytes().contains(&b'%') {
            parse_commands(&text)
        } else {
            (None, None)
        };
        if clock.is_some() {
            p.clock = clock;
        }
        if eval.is_some() {
            p.eval = eval;
        }
        p.after.push(text);
        self.annotated = true;
    }

    fn begin_variation(&mut self, _at: Pos) -> Skip {
        self.ok = false;
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        let tag = self
            .tags
            .result()
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
