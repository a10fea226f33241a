//! The hot-path reader: a hand-written scanner for the grammar of
//! `grammar/ctl-pgn.pest`, building the same game model as the pest reader.
//!
//! Why two readers: the pest grammar is the normative, readable definition of
//! CTL-PGN and gives pest's precise `expected …, found …` messages; this scanner reads
//! the same language an order of magnitude faster (bytes in, one pass, no parse tree,
//! line and column tracked incrementally). It follows the grammar rule by rule, with the
//! same ordered choices, so it accepts exactly what the grammar accepts and splits the
//! text into the same tokens. A record the scanner cannot read without an error
//! (syntax, structure, letters, depth) is handed to the pest reader, so every error
//! message comes from one place and is the same whichever reader ran first.
//! `tests/differential.rs` and the `ctl_pgn_diff` fuzz target hold the two readers to
//! the same verdict and the same model on every input.

use crate::diag::{Code, Diagnostic, LineIndex, Severity};
use crate::letters::{LetterRead, LetterTable, PieceKind};
use crate::model::*;
use crate::read::{Expect, Frame, MAX_GAME_NODES, MAX_GAME_TAGS, MAX_VARIATION_DEPTH, Record};

/// Reads every record of a file (the default reader, see the module documentation).
/// Same records and diagnostics as [`crate::read::read_str`], which uses pest; then the
/// writer's escapes are decoded ([`crate::unescape`], [`crate::decode`]).
pub fn read_str(file: &str, src: &str) -> Vec<Record> {
    // Room for lines of 16 bytes and more (generated databases have about 20): no
    // copies of the index as it grows.
    let mut lfs = Vec::with_capacity(src.len() / 16 + 1);
    let ranges = split_and_index(src, Some(&mut lfs));
    let mut loc = Locator::with_line_feeds(src, lfs);
    let mut scratch = Scratch::default();
    let mut out = Vec::with_capacity(ranges.len());
    let mut lines = None;
    for (i, (start, end)) in ranges.into_iter().enumerate() {
        let index = i + 1;
        let mut r = match read_record_fast(file, src, &mut loc, &mut scratch, index, start, end) {
            Some(r) => r,
            None => pest_record(file, src, &mut lines, index, start, end),
        };
        // Every escape starts with a backslash: a record without one has none to decode.
        if let Some(g) = &mut r.game
            && memchr::memchr(b'\\', &src.as_bytes()[start..end]).is_some()
        {
            crate::escape::decode(g);
        }
        out.push(r);
    }
    out
}

/// Reads a text that holds one record (or the first record of several), with the
/// fast reader.
pub fn read_game(src: &str) -> Result<Game, Diagnostic> {
    crate::read::first_game(read_str("<input>", src))
}

/// Reads one record with the scanner only: `None` when the record has an error (the
/// caller then asks the pest reader). Used by the differential tests.
pub fn read_record_scanner(
    file: &str,
    src: &str,
    index: usize,
    start: usize,
    end: usize,
) -> Option<Record> {
    let mut loc = Locator::new(src);
    read_record_fast(
        file,
        src,
        &mut loc,
        &mut Scratch::default(),
        index,
        start,
        end,
    )
}

/// The pest reader on one record, located in the whole file (its line index is built
/// once per file, when the first record needs it).
fn pest_record<'a>(
    file: &str,
    src: &'a str,
    index_cache: &mut Option<LineIndex<'a>>,
    index: usize,
    start: usize,
    end: usize,
) -> Record {
    let lines = index_cache.get_or_insert_with(|| LineIndex::new(src));
    crate::read::read_record(file, src, lines, index, start, end)
}

/// [`crate::read::split_records`] on bytes: the same ranges, in one `memchr3` pass over
/// the line ends and braces (a `memchr` per line cost more than the search itself on
/// lines of 20 bytes).
pub fn split_records(src: &str) -> Vec<(usize, usize)> {
    split_and_index(src, None)
}

/// [`split_records`], and the offset of every line feed pushed to `lfs` (for the
/// [`Locator`]: the same pass finds them).
fn split_and_index(src: &str, mut lfs: Option<&mut Vec<usize>>) -> Vec<(usize, usize)> {
    let b = src.as_bytes();
    let mut st = Splitter::default();
    // Whether the braces of the current line count (a movetext line).
    let mut movetext = !b.is_empty() && st.line(src, 0);
    if memchr::memchr2(b'{', b'}', b).is_none() {
        // No brace: only the line feeds matter, and a one-byte search is the faster.
        for n in memchr::memchr_iter(b'\n', b) {
            if let Some(lfs) = &mut lfs {
                lfs.push(n);
            }
            if n + 1 < b.len() {
                st.line(src, n + 1);
            }
        }
    } else {
        for n in memchr::memchr3_iter(b'\n', b'{', b'}', b) {
            match b[n] {
                b'\n' => {
                    if let Some(lfs) = &mut lfs {
                        lfs.push(n);
                    }
                    movetext = n + 1 < b.len() && st.line(src, n + 1);
                }
                b'{' => st.in_comment |= movetext,
                _ => st.in_comment &= !movetext,
            }
        }
    }
    if st.has_content {
        st.ranges.push((st.start, src.len()));
    }
    st.ranges
}

/// The state of [`split_records`] between lines.
#[derive(Default)]
struct Splitter {
    ranges: Vec<(usize, usize)>,
    start: usize,
    in_movetext: bool,
    in_comment: bool,
    has_variant: bool,
    has_content: bool,
    /// A blank line came after the tag section (a `[Variant` line now starts a record).
    blank_after_tags: bool,
}

impl Splitter {
    /// The line starting at `pos`: true when it is a movetext line (its braces open and
    /// close comments).
    fn line(&mut self, src: &str, pos: usize) -> bool {
        let b = src.as_bytes();
        if b.get(pos).is_some_and(u8::is_ascii_alphanumeric) {
            // The usual movetext line: neither a tag nor blank.
            self.in_movetext = true;
            self.has_content = true;
            return true;
        }
        let mut k = pos;
        loop {
            match b.get(k) {
                Some(b' ' | b'\t') => k += 1,
                Some(0xEF) if b.get(k + 1..k + 3) == Some(&[0xBB, 0xBF]) => k += 3,
                _ => break,
            }
        }
        let t = &b[k..];
        let is_variant = t.starts_with(b"[Variant");
        let is_tag = t.first() == Some(&b'[') && (!self.in_comment || is_variant);
        if is_tag {
            if (self.in_movetext || (is_variant && self.has_variant && self.blank_after_tags))
                && self.has_content
            {
                self.ranges.push((self.start, pos));
                self.start = pos;
                self.has_variant = false;
            }
            self.in_movetext = false;
            self.in_comment = false;
            self.blank_after_tags = false;
            self.has_variant |= is_variant;
            self.has_content = true;
            return false;
        }
        let blank_line = match t.first() {
            None => true,
            // Not white space: the usual first byte of a movetext line.
            Some(&c) if c < 0x80 && !matches!(c, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ') => {
                false
            }
            Some(_) => {
                let end = memchr::memchr(b'\n', t).map_or(b.len(), |n| k + n + 1);
                blank(&src[k..end])
            }
        };
        if blank_line {
            self.blank_after_tags |= !self.in_movetext && self.has_content;
            return false;
        }
        self.in_movetext = true;
        self.has_content = true;
        true
    }
}

/// `str::trim` leaves nothing (Unicode white space, as the pest-side splitter says).
fn blank(s: &str) -> bool {
    if s.is_ascii() {
        s.bytes()
            .all(|c| c.is_ascii_whitespace() || c == 0x0B || c == 0x0C)
    } else {
        s.trim().is_empty()
    }
}

/// Byte offset -> 1-based line and column (chars), advancing through the file as the
/// scanner does: linear in the file, whatever the line lengths. The lines come from an
/// index of the line feeds (made by the record splitter's pass); the column counts the
/// chars since the last query, one `is_ascii` (a word at a time) for most steps.
pub(crate) struct Locator<'a> {
    src: &'a [u8],
    /// Offsets of the line feeds of `src`, in order.
    lfs: Vec<usize>,
    /// Line feeds before `off` (so its line is `k + 1`).
    k: usize,
    off: usize,
    col: u32,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Self::with_line_feeds(src, memchr::memchr_iter(b'\n', src.as_bytes()).collect())
    }

    /// `lfs`: the offsets of all the line feeds of `src`, in order.
    fn with_line_feeds(src: &'a str, lfs: Vec<usize>) -> Self {
        Locator {
            src: src.as_bytes(),
            lfs,
            k: 0,
            off: 0,
            col: 1,
        }
    }

    #[inline(always)]
    pub(crate) fn at(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.src.len());
        if offset < self.off {
            // Backwards (not done by the scanner): start over.
            self.k = 0;
            self.off = 0;
            self.col = 1;
        }
        let mut k = self.k;
        while self.lfs.get(k).is_some_and(|&n| n < offset) {
            k += 1;
        }
        if k != self.k {
            self.k = k;
            self.off = self.lfs[k - 1] + 1;
            self.col = 1;
        }
        let seg = &self.src[self.off..offset];
        // A few bytes, usually ASCII: inline, not `is_ascii`'s call.
        self.col += if seg.iter().fold(0, |a, &b| a | b) < 0x80 {
            seg.len() as u32
        } else {
            seg.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32
        };
        self.off = offset;
        (k as u32 + 1, self.col)
    }
}

// ------------------------------------------------------------------ scanning helpers

fn is_sp(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// `WHITESPACE` of the grammar at `i`: its length.
fn ws_len(t: &[u8], i: usize) -> usize {
    match t.get(i) {
        Some(b' ' | b'\t' | b'\r' | b'\n') => 1,
        Some(0xEF) if t.get(i + 1..i + 3) == Some(&[0xBB, 0xBF]) => 3,
        Some(0xC2) if t.get(i + 1) == Some(&0xA0) => 2,
        _ => 0,
    }
}

fn skip_ws(t: &[u8], mut i: usize) -> usize {
    loop {
        let n = ws_len(t, i);
        if n == 0 {
            return i;
        }
        i += n;
    }
}

#[inline(always)]
fn skip_sp(t: &[u8], mut i: usize) -> usize {
    while t.get(i).is_some_and(|&b| is_sp(b)) {
        i += 1;
    }
    i
}

fn is_column(b: u8) -> bool {
    matches!(b, b'A'..=b'I' | b'K' | b'L' | b'P' | b'T' | b'X' | b'Z')
}

fn is_ascii_piece(b: u8) -> bool {
    matches!(b, b'A'..=b'H' | b'J'..=b'L' | b'N' | b'Q'..=b'T' | b'V'..=b'W')
}

fn digit(t: &[u8], i: usize) -> bool {
    t.get(i).is_some_and(u8::is_ascii_digit)
}

/// `line`: 0..28 without a leading zero, no digit after.
#[inline(always)]
fn line_end(t: &[u8], i: usize) -> Option<usize> {
    let a = *t.get(i)?;
    let e = match (a, t.get(i + 1)) {
        (b'2', Some(b'0'..=b'8')) => i + 2,
        (b'1', Some(b'0'..=b'9')) => i + 2,
        (b'0'..=b'9', _) => i + 1,
        _ => return None,
    };
    (!digit(t, e)).then_some(e)
}

#[inline(always)]
fn coord_end(t: &[u8], i: usize) -> Option<usize> {
    if is_column(*t.get(i)?) {
        line_end(t, i + 1)
    } else {
        None
    }
}

const FAN_PIECES: [char; 18] = [
    '♔',
    '♚',
    '♕',
    '♛',
    '\u{1FA4F}',
    '\u{1FA52}',
    '♖',
    '♜',
    '\u{1FA50}',
    '\u{1FA53}',
    '♘',
    '♞',
    '♗',
    '♝',
    '☖',
    '☗',
    '♙',
    '♟',
];

/// `piece_letter` (ascii or FAN) at `i`: its end.
#[inline]
fn piece_end(s: &str, i: usize) -> Option<usize> {
    let b = *s.as_bytes().get(i)?;
    if b < 0x80 {
        return is_ascii_piece(b).then_some(i + 1);
    }
    fan_piece_end(s, i)
}

/// [`piece_end`] of a non-ASCII char: a FAN glyph.
#[cold]
#[inline(never)]
fn fan_piece_end(s: &str, i: usize) -> Option<usize> {
    let c = s.get(i..)?.chars().next()?;
    FAN_PIECES.contains(&c).then(|| i + c.len_utf8())
}

fn starts(t: &[u8], i: usize, lit: &str) -> bool {
    t.get(i..).is_some_and(|r| r.starts_with(lit.as_bytes()))
}

/// `depth_dots?`: `.` then dots and spaces.
fn depth_dots(t: &[u8], i: usize) -> usize {
    if t.get(i) != Some(&b'.') {
        return i;
    }
    let mut j = i + 1;
    while t.get(j).is_some_and(|&b| b == b'.' || is_sp(b)) {
        j += 1;
    }
    j
}

/// `number`: 1 to 9 digits: (end, value).
fn number(t: &[u8], i: usize) -> Option<(usize, u32)> {
    let mut j = i;
    let mut v: u32 = 0;
    while j < i + 9 && digit(t, j) {
        v = v * 10 + u32::from(t[j] - b'0');
        j += 1;
    }
    (j > i).then_some((j, v))
}

fn hyphen_len(t: &[u8], i: usize) -> usize {
    if t.get(i) == Some(&b'-') {
        1
    } else if starts(t, i, "‐") || starts(t, i, "–") {
        3
    } else {
        0
    }
}

// ------------------------------------------------------------------ tokens

#[derive(Clone, Copy)]
enum NumberMark {
    White,
    Unknown,
    Black,
}

/// What an ordinary move matched, as byte ranges of the record text.
struct OrdinaryParts {
    mover: Option<(usize, usize)>,
    from: (usize, usize),
    /// The separator's position and kind, and whether its spelling is reported (`*`,
    /// `x`, `–`: not the writer's and not `‐`).
    sep: (usize, Separator, bool),
    captured: Option<(usize, usize)>,
    to: (usize, usize),
    /// `=&` (`None` range) or `=X` (the letter's range).
    promotion: Option<Option<(usize, usize)>>,
}

#[inline(always)]
fn ordinary(s: &str, i: usize) -> Option<(usize, OrdinaryParts)> {
    let t = s.as_bytes();
    // A piece letter then a cell, else a cell (a column letter may be a piece letter):
    // (the letter's range, the cell's).
    #[inline(always)]
    fn piece_cell(s: &str, j: usize) -> Option<(Option<Range>, Range)> {
        let t = s.as_bytes();
        if let Some(e) = piece_end(s, j)
            && let Some(ce) = coord_end(t, e)
        {
            return Some((Some((j, e)), (e, ce)));
        }
        Some((None, (j, coord_end(t, j)?)))
    }
    let (mover, from) = piece_cell(s, i)?;
    let mut j = from.1;
    let (sl, kind, noted) = match t.get(j) {
        Some(b'-') => (1, Separator::Move, false),
        Some(b'@') if t.get(j + 1) == Some(&b'@') => (2, Separator::FarEp, false),
        Some(b'@') => (1, Separator::NearEp, false),
        Some(b'*' | b'x') => (1, Separator::Capture, true),
        _ if starts(t, j, "×") => (2, Separator::Capture, false),
        _ if starts(t, j, "‐") => (3, Separator::Move, false),
        _ if starts(t, j, "–") => (3, Separator::Move, true),
        _ => return None,
    };
    let sep = (j, kind, noted);
    let (captured, to) = piece_cell(s, j + sl)?;
    j = to.1;
    let mut promotion = None;
    if t.get(j) == Some(&b'=') {
        if t.get(j + 1) == Some(&b'&') {
            promotion = Some(None);
            j += 2;
        } else if let Some(e) = piece_end(s, j + 1) {
            promotion = Some(Some((j + 1, e)));
            j = e;
        }
    }
    Some((
        j,
        OrdinaryParts {
            mover,
            from,
            sep,
            captured,
            to,
            promotion,
        },
    ))
}

/// The usual ordinary move, in one pass: ASCII letters of the standard set, a `-`, `×`,
/// `@` or `@@` separator, an `=&` or ASCII promotion. `None` for anything else, a
/// letter outside the set included: [`ordinary`] then reads the text (and decides).
#[inline(always)]
fn ordinary_standard(t: &[u8], i: usize) -> Option<(usize, StandardMove)> {
    /// A standard letter then a cell, else a cell: (the letter's kind, the cell).
    #[inline(always)]
    fn piece_cell(t: &[u8], j: usize) -> Option<(Option<PieceKind>, Range)> {
        let b = *t.get(j)?;
        if is_ascii_piece(b)
            && let Some(e) = coord_end(t, j + 1)
        {
            let kind = STANDARD_KINDS[usize::from(b)]?;
            return Some((Some(kind), (j + 1, e)));
        }
        Some((None, (j, coord_end(t, j)?)))
    }
    let (mover, from) = piece_cell(t, i)?;
    let mut j = from.1;
    let (sl, sep) = match *t.get(j)? {
        b'-' => (1, Separator::Move),
        b'@' if t.get(j + 1) == Some(&b'@') => (2, Separator::FarEp),
        b'@' => (1, Separator::NearEp),
        0xC3 if t.get(j + 1) == Some(&0x97) => (2, Separator::Capture),
        _ => return None,
    };
    let (captured, to) = piece_cell(t, j + sl)?;
    j = to.1;
    let mut promotion = None;
    if t.get(j) == Some(&b'=') {
        match t.get(j + 1) {
            Some(b'&') => {
                promotion = Some(Promotion::Awaiting);
                j += 2;
            }
            Some(&b) if is_ascii_piece(b) => {
                promotion = Some(Promotion::To(STANDARD_KINDS[usize::from(b)]?));
                j += 2;
            }
            // A FAN glyph: the general reader's.
            Some(&b) if b >= 0x80 => return None,
            _ => {}
        }
    }
    Some((
        j,
        StandardMove {
            mover,
            from: CellName::from_coord(&t[from.0..from.1]),
            sep,
            captured,
            to: CellName::from_coord(&t[to.0..to.1]),
            promotion,
        },
    ))
}

/// The fields of [`MoveToken::Ordinary`], from [`ordinary_standard`].
#[derive(Clone, Copy)]
struct StandardMove {
    mover: Option<PieceKind>,
    from: CellName,
    sep: Separator,
    captured: Option<PieceKind>,
    to: CellName,
    promotion: Option<Promotion>,
}

/// What a castling matched: the rook letters' positions, the side letter and columns.
struct CastlingParts {
    rooks: [Option<usize>; 2],
    side: Option<usize>,
    columns: (usize, usize),
    suffix: (usize, usize),
    double: bool,
}

fn castling(t: &[u8], i: usize) -> Option<(usize, CastlingParts)> {
    if t.get(i) != Some(&b'K') || !matches!(t.get(i + 1), Some(b'R' | b'T')) {
        return None;
    }
    let j = i + 2;
    // castle_double first.
    if matches!(t.get(j), Some(b'R' | b'T')) {
        let h = hyphen_len(t, j + 1);
        if h > 0 {
            let c = j + 1 + h;
            if (0..3).all(|k| t.get(c + k).is_some_and(|&b| is_column(b))) {
                return Some((
                    c + 3,
                    CastlingParts {
                        rooks: [Some(i + 1), Some(j)],
                        side: None,
                        columns: (c, c + 3),
                        suffix: (c + 3, c + 3),
                        double: true,
                    },
                ));
            }
        }
    }
    if !matches!(t.get(j), Some(b'K' | b'D' | b'Q')) {
        return None;
    }
    let h = hyphen_len(t, j + 1);
    if h == 0 {
        return None;
    }
    let c = j + 1 + h;
    if !(0..2).all(|k| t.get(c + k).is_some_and(|&b| is_column(b))) {
        return None;
    }
    let mut e = c + 2;
    let sfx = e;
    if starts(t, e, "OO") {
        e += 2;
    } else if t.get(e) == Some(&b'O') {
        e += 1;
    }
    Some((
        e,
        CastlingParts {
            rooks: [Some(i + 1), None],
            side: Some(j),
            columns: (c, c + 2),
            suffix: (sfx, e),
            double: false,
        },
    ))
}

/// A byte range of the record text.
type Range = (usize, usize);

fn forced_promotion(s: &str, i: usize) -> Option<(usize, Range, Range)> {
    let t = s.as_bytes();
    let ce = coord_end(t, i)?;
    if t.get(ce) != Some(&b'=') {
        return None;
    }
    let pe = piece_end(s, ce + 1)?;
    Some((pe, (i, ce), (ce + 1, pe)))
}

enum TokenParts {
    Ordinary(OrdinaryParts),
    Castling(CastlingParts),
    Forced((usize, usize), (usize, usize)),
}

/// `check`: (end, mark, old spelling).
#[inline(always)]
fn check_mark(t: &[u8], i: usize) -> Option<(usize, CheckMark, bool)> {
    if !matches!(t.get(i), Some(b'+' | b'^' | b'#')) {
        return None;
    }
    if starts(t, i, "++") {
        Some((i + 2, CheckMark::Double, false))
    } else if starts(t, i, "+^") {
        Some((i + 2, CheckMark::Unblockable, false))
    } else if starts(t, i, "^+") {
        Some((i + 2, CheckMark::Unblockable, true))
    } else if starts(t, i, "+∞") {
        Some((i + 4, CheckMark::Afar, false))
    } else if t.get(i) == Some(&b'+') {
        Some((i + 1, CheckMark::Check, false))
    } else if t.get(i) == Some(&b'#') {
        Some((i + 1, CheckMark::Mate, false))
    } else {
        None
    }
}

#[inline(always)]
fn assessment(t: &[u8], i: usize) -> Option<(usize, Assessment)> {
    // `?`, `!` or the first byte of `◇`.
    if !matches!(t.get(i), Some(b'?' | b'!' | 0xE2)) {
        return None;
    }
    const ALL: [(&str, Assessment); 7] = [
        ("??", Assessment::Blunder),
        ("?!", Assessment::Dubious),
        ("?", Assessment::Mistake),
        ("!!", Assessment::Brilliant),
        ("!?", Assessment::Interesting),
        ("!", Assessment::Good),
        ("◇", Assessment::Forced),
    ];
    ALL.iter()
        .find(|(s, _)| starts(t, i, s))
        .map(|(s, a)| (i + s.len(), *a))
}

// ------------------------------------------------------------------ the builder

/// Any error ends the fast attempt; the pest reader then reports it.
struct Fail;

struct Ctx<'a, 'l> {
    file: &'a str,
    s: &'a str,
    base: usize,
    game: usize,
    loc: &'l mut Locator<'a>,
    /// The tags of the record, as read before they are copied into the game (one
    /// buffer for the whole file, so that the game's tag list is allocated once, at its
    /// size).
    tags: &'l mut Vec<TagParts>,
    /// The frame stack of [`movetext`], kept for the next record.
    frames: &'l mut Vec<Frame>,
    letters: LetterTable,
    /// `letters` is the standard set: a one-byte glyph is read with [`STANDARD_KINDS`].
    standard: bool,
    diags: Vec<Diagnostic>,
    /// Moves, comments and variations read so far (see [`MAX_GAME_NODES`]).
    nodes: usize,
}

/// The kind of each standard ASCII letter ([`LetterTable::read`] of a one-byte glyph in
/// a record without `Redefine`, without its checks of the table).
const STANDARD_KINDS: [Option<PieceKind>; 128] = {
    let mut t = [None; 128];
    let mut k = 0;
    while k < PieceKind::ALL.len() {
        let kind = PieceKind::ALL[k];
        t[kind.standard_letter() as usize] = Some(kind);
        k += 1;
    }
    t
};

impl<'a> Ctx<'a, '_> {
    /// Counts one node: past [`MAX_GAME_NODES`] the record goes to the pest reader,
    /// which counts the same nodes and reports the one that crossed the cap.
    fn count(&mut self) -> Result<(), Fail> {
        self.nodes += 1;
        if self.nodes > MAX_GAME_NODES {
            return Err(Fail);
        }
        Ok(())
    }

    #[inline(always)]
    fn span(&mut self, start: usize, end: usize) -> Span {
        let (line, col) = self.loc.at(self.base + start);
        Span {
            start: self.base + start,
            end: self.base + end,
            line,
            col,
        }
    }

    fn diag(&mut self, severity: Severity, code: Code, at: usize, message: String) {
        let (line, col) = self.loc.at(self.base + at);
        self.push(severity, code, line, col, message);
    }

    fn push(&mut self, severity: Severity, code: Code, line: u32, col: u32, message: String) {
        self.diags.push(Diagnostic {
            severity,
            code,
            file: self.file.to_string(),
            game: self.game,
            line,
            col,
            message,
        });
    }

    /// The cell of a `coord` the scanner matched (a column letter, then one or two
    /// digits).
    #[inline(always)]
    fn cell(&self, r: (usize, usize)) -> CellName {
        CellName::from_coord(&self.s.as_bytes()[r.0..r.1])
    }

    fn text(&self, r: (usize, usize)) -> &'a str {
        &self.s[r.0..r.1]
    }

    #[inline(always)]
    fn letter(&mut self, r: (usize, usize), side: Side) -> Result<PieceKind, Fail> {
        if self.standard && r.1 == r.0 + 1 {
            // One byte: an ASCII letter (FAN glyphs are longer), valid only if standard.
            let b = self.s.as_bytes()[r.0];
            return STANDARD_KINDS
                .get(usize::from(b))
                .copied()
                .flatten()
                .ok_or(Fail);
        }
        self.other_letter(r, side)
    }

    /// [`Ctx::letter`] in a record with `Redefine`, or of a FAN glyph.
    #[inline(never)]
    fn other_letter(&mut self, r: (usize, usize), side: Side) -> Result<PieceKind, Fail> {
        let s = self.text(r);
        match self.letters.read(s) {
            Some(LetterRead::Ok(k)) => Ok(k),
            Some(LetterRead::Fan(k, glyph_side)) => {
                if glyph_side != side {
                    self.diag(
                        Severity::Warning,
                        Code::Letter,
                        r.0,
                        format!("FAN glyph `{s}` has the wrong colour here"),
                    );
                }
                Ok(k)
            }
            _ => Err(Fail),
        }
    }
}

fn read_record_fast<'a>(
    file: &'a str,
    src: &'a str,
    loc: &mut Locator<'a>,
    scratch: &mut Scratch,
    index: usize,
    start: usize,
    end: usize,
) -> Option<Record> {
    let s = &src[start..end];
    let (line, _) = loc.at(start);
    let mut ctx = Ctx {
        file,
        s,
        base: start,
        game: index,
        loc,
        tags: &mut scratch.0,
        frames: &mut scratch.1,
        letters: LetterTable::standard(),
        standard: true,
        diags: Vec::new(),
        nodes: 0,
    };
    let span = Span {
        start,
        end,
        line,
        col: 1,
    };
    let game = build(&mut ctx, span).ok()?;
    Some(Record {
        index,
        game: Some(game),
        diagnostics: ctx.diags,
    })
}

fn build(ctx: &mut Ctx<'_, '_>, span: Span) -> Result<Game, Fail> {
    let s = ctx.s;
    let t = s.as_bytes();
    let mut i = skip_ws(t, 0);
    ctx.tags.clear();
    while t.get(i) == Some(&b'[') {
        // Past the cap the pest reader reports the tag that crossed it.
        if ctx.tags.len() == MAX_GAME_TAGS {
            return Err(Fail);
        }
        let (e, parts) = tag(ctx, i).ok_or(Fail)?;
        ctx.tags.push(parts);
        i = skip_ws(t, e);
    }
    let tags: Vec<Tag> = ctx
        .tags
        .iter()
        .map(|&(name, value, span)| Tag {
            name: s[name.0..name.1].to_string(),
            value: s[value.0..value.1].to_string(),
            span,
        })
        .collect();
    check_tags(ctx, &tags)?;
    let (main, result, final_comments) = movetext(ctx, i)?;
    Ok(Game {
        tags,
        main,
        result,
        final_comments,
        span,
    })
}

/// Buffers of the fast reader kept from one record to the next of a file: the tags as
/// read, the frame stack.
type Scratch = (Vec<TagParts>, Vec<Frame>);

/// A tag as read: the name's and the value's ranges, and where it was read.
type TagParts = (Range, Range, Span);

fn tag(ctx: &mut Ctx<'_, '_>, i: usize) -> Option<(usize, TagParts)> {
    let t = ctx.s.as_bytes();
    let mut j = skip_sp(t, i + 1);
    let ns = j;
    while t
        .get(j)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    {
        j += 1;
    }
    if j == ns || !t.get(j).is_some_and(|&b| is_sp(b)) {
        return None;
    }
    let name = (ns, j);
    j = skip_sp(t, j);
    if t.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    let vs = j;
    // The value runs to the first `"` that ends the tag (`" ]` then the line's end).
    let tag_end = |k: usize| -> Option<usize> {
        if t.get(k) != Some(&b'"') {
            return None;
        }
        let m = skip_sp(t, k + 1);
        if t.get(m) != Some(&b']') {
            return None;
        }
        let n = skip_sp(t, m + 1);
        matches!(t.get(n), None | Some(b'\n' | b'\r')).then_some(m + 1)
    };
    loop {
        if let Some(e) = tag_end(j) {
            let value = (vs, j);
            return Some((e, (name, value, ctx.span(i, e))));
        }
        match t.get(j) {
            None | Some(b'\n' | b'\r') => return None,
            Some(_) => j += 1,
        }
    }
}

fn check_tags(ctx: &mut Ctx<'_, '_>, tags: &[Tag]) -> Result<(), Fail> {
    if let Some(first) = tags.first() {
        match tags.iter().find(|t| t.name == "Variant") {
            None => ctx.push(
                Severity::Warning,
                Code::Tag,
                first.span.line,
                first.span.col,
                "no [Variant \"C'escacs\"] tag".into(),
            ),
            Some(v) if v.value != "C'escacs" => return Err(Fail),
            Some(v) if first.name != "Variant" => ctx.push(
                Severity::Note,
                Code::Tag,
                v.span.line,
                v.span.col,
                "Variant is not the first tag".into(),
            ),
            Some(_) => {}
        }
        for v in tags.iter().filter(|t| t.name == "Variant").skip(1) {
            if v.value != "C'escacs" {
                return Err(Fail);
            }
            ctx.push(
                Severity::Warning,
                Code::Tag,
                v.span.line,
                v.span.col,
                "Variant tag repeated (the game is still read as one record)".into(),
            );
        }
        // The grammar reader reports a `Game` tag naming another game.
        if tags
            .iter()
            .any(|t| t.name == "Game" && crate::games::names_another_game(&t.name, &t.value))
        {
            return Err(Fail);
        }
    }
    if let Some(t) = tags.iter().find(|t| t.name == "Redefine") {
        ctx.letters = LetterTable::from_redefine(&t.value).map_err(|_| Fail)?;
        ctx.standard = ctx.letters.is_standard();
        if t.value.contains('"') {
            ctx.push(
                Severity::Note,
                Code::Spelling,
                t.span.line,
                t.span.col,
                "stray quote inside the Redefine value ignored".into(),
            );
        }
    }
    for t in tags {
        if t.name == "PDTL" || t.name == "DPTL" {
            ctx.push(
                Severity::Note,
                Code::Spelling,
                t.span.line,
                t.span.col,
                format!("[{}] read as [TLPD]", t.name),
            );
        }
    }
    Ok(())
}

type Built = (Line, Option<GameResult>, Vec<Comment>);

fn top(stack: &mut [Frame]) -> &mut Frame {
    let n = stack.len() - 1;
    &mut stack[n]
}

fn movetext(ctx: &mut Ctx<'_, '_>, mut i: usize) -> Result<Built, Fail> {
    let s = ctx.s;
    let t = s.as_bytes();
    // The file's frame stack (empty between records): no allocation per record.
    let mut stack = std::mem::take(ctx.frames);
    stack.clear();
    stack.push(Frame::new(Span::default(), None, 1, Side::White));
    // About one item per 10 bytes of movetext: one allocation instead of a doubling series.
    stack[0].line.items.reserve((t.len() - i) / 10);
    loop {
        i = skip_ws(t, i);
        let Some(&b) = t.get(i) else { break };
        // element = half | move_number | comma | comment | rav_open | rav_close | ellipsis
        // (`half` never starts with the bytes that start the others).
        match b {
            b'0'..=b'9' | b'.' => {
                if let Some(e) = move_number(ctx, top(&mut stack), i)? {
                    i = e;
                    continue;
                }
            }
            b',' => {
                let f = top(&mut stack);
                match f.expect {
                    Expect::Comma => f.expect = Expect::Black,
                    Expect::BlackAfterEllipsis => {}
                    _ => return Err(Fail),
                }
                i += 1;
                continue;
            }
            b'{' | b'(' | b')' | b'*' | b'[' => {}
            _ => {
                if let Some(e) = half(ctx, &mut stack, i)? {
                    i = e;
                    continue;
                }
            }
        }
        let d = depth_dots(t, i);
        match t.get(d) {
            Some(b'{') => {
                ctx.count()?;
                let (e, c) = comment(ctx, i, d)?;
                top(&mut stack).line.items.push(Item::Comment(c));
                i = e;
                continue;
            }
            Some(b'(') => {
                let mut e = skip_sp(t, d + 1);
                let mut label = None;
                if starts(t, e, "$[")
                    && let Some((ne, n)) = number(t, e + 2)
                    && t.get(ne) == Some(&b']')
                {
                    label = Some(n);
                    e = ne + 1;
                }
                ctx.count()?;
                if stack.len() > MAX_VARIATION_DEPTH {
                    return Err(Fail);
                }
                let parent = top(&mut stack);
                let (number, side) = parent.last_move.unwrap_or((parent.number, parent.side));
                let open = ctx.span(i, e);
                stack.push(Frame::new(open, label, number, side));
                i = e;
                continue;
            }
            Some(b')') => {
                if stack.len() == 1 {
                    return Err(Fail);
                }
                let Some(f) = stack.pop() else {
                    return Err(Fail);
                };
                if f.last_move.is_none() {
                    return Err(Fail);
                }
                let mut vspan = f.open;
                vspan.end = ctx.base + d + 1;
                top(&mut stack).line.items.push(Item::Variation(Variation {
                    label: f.label,
                    line: f.line,
                    span: vspan,
                }));
                i = d + 1;
                continue;
            }
            _ => {}
        }
        if starts(t, i, "…") || starts(t, i, "...") {
            let f = top(&mut stack);
            if f.expect != Expect::White {
                return Err(Fail);
            }
            f.side = Side::Black;
            f.expect = Expect::BlackAfterEllipsis;
            i += 3;
            continue;
        }
        break;
    }
    // (result ~ comment*)? ~ EOI
    let mut result = None;
    let mut final_comments = Vec::new();
    if let Some((e, ())) = result_token(t, i) {
        if stack.len() > 1 {
            return Err(Fail);
        }
        let text = &s[i..e];
        // The writer's spellings without `GameResult::parse`'s copy of the text.
        let parsed = [
            GameResult::Unfinished,
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::WhiteStalemates,
            GameResult::BlackStalemates,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
        .or_else(|| GameResult::parse(text))
        .unwrap_or(GameResult::Unfinished);
        if parsed.as_str() != text {
            ctx.diag(
                Severity::Note,
                Code::Spelling,
                i,
                format!("result `{text}` read as `{parsed}`"),
            );
        }
        result = Some(parsed);
        i = skip_ws(t, e);
        while t.get(depth_dots(t, i)) == Some(&b'{') {
            ctx.count()?;
            let (e, c) = comment(ctx, i, depth_dots(t, i))?;
            final_comments.push(c);
            i = skip_ws(t, e);
        }
    }
    if i != t.len() || stack.len() > 1 {
        return Err(Fail);
    }
    let f = stack.pop().ok_or(Fail)?;
    *ctx.frames = stack;
    Ok((f.line, result, final_comments))
}

fn result_token(t: &[u8], i: usize) -> Option<(usize, ())> {
    if t.get(i) == Some(&b'*') {
        return Some((i + 1, ()));
    }
    let first = *t.get(i)?;
    let dash = |j: usize| -> Option<usize> {
        let a = skip_sp(t, j);
        let h = hyphen_len(t, a);
        (h > 0).then(|| skip_sp(t, a + h))
    };
    let seconds: &[u8] = match first {
        b'3' => b"0",
        b'2' => b"1",
        b'1' => b"12",
        b'0' => b"3",
        _ => return None,
    };
    let j = dash(i + 1)?;
    let b = *t.get(j)?;
    seconds.contains(&b).then_some((j + 1, ()))
}

fn move_number(ctx: &mut Ctx<'_, '_>, f: &mut Frame, i: usize) -> Result<Option<usize>, Fail> {
    let t = ctx.s.as_bytes();
    let j = depth_dots(t, i);
    let Some((ne, number)) = number(t, j) else {
        return Ok(None);
    };
    // `...` and `…` are both three bytes.
    let (e, mark) = if starts(t, ne, "...") || starts(t, ne, "…") {
        (ne + 3, NumberMark::Black)
    } else if t.get(ne) == Some(&b'.') {
        (ne + 1, NumberMark::White)
    } else if t.get(ne) == Some(&b'?') {
        (ne + 1, NumberMark::Unknown)
    } else {
        return Ok(None);
    };
    if matches!(
        f.expect,
        Expect::White | Expect::BlackAfterEllipsis | Expect::Black
    ) {
        return Err(Fail);
    }
    let black = matches!(mark, NumberMark::Black);
    let n = f.number;
    if f.started && matches!(f.expect, Expect::Comma | Expect::Number) && n != number {
        ctx.diag(
            Severity::Warning,
            Code::Numbering,
            i,
            format!("move number {number} does not follow the previous move ({n})"),
        );
    }
    f.number = number;
    f.unknown = matches!(mark, NumberMark::Unknown);
    f.started = true;
    f.side = if black { Side::Black } else { Side::White };
    f.expect = if black {
        Expect::BlackAfterEllipsis
    } else {
        Expect::White
    };
    Ok(Some(e))
}

/// `half` at `i`: `Ok(None)` when no move starts here.
#[inline(never)]
fn half(ctx: &mut Ctx<'_, '_>, stack: &mut [Frame], i: usize) -> Result<Option<usize>, Fail> {
    let s = ctx.s;
    let t = s.as_bytes();
    let b = t[i];
    if b.is_ascii_digit() || matches!(b, b'.' | b',' | b'{' | b'(' | b')' | b'*' | b'[') {
        return Ok(None);
    }
    if ctx.standard
        && let Some((e, m)) = ordinary_standard(t, i)
    {
        // Written by a closure, so that the token's fields go from registers to the
        // node (assembled on the stack, its copy stalled as the node's did).
        return finish(ctx, stack, i, e, |_, _, out| {
            put(
                out,
                MoveToken::Ordinary {
                    mover: m.mover,
                    from: m.from,
                    sep: m.sep,
                    captured: m.captured,
                    to: m.to,
                    promotion: m.promotion,
                },
            );
            Ok(())
        });
    }
    let (e, parts) = if let Some((e, p)) = ordinary(s, i) {
        (e, TokenParts::Ordinary(p))
    } else if let Some((e, p)) = castling(t, i) {
        (e, TokenParts::Castling(p))
    } else if let Some((e, cell, piece)) = forced_promotion(s, i) {
        (e, TokenParts::Forced(cell, piece))
    } else {
        return Ok(None);
    };
    finish(ctx, stack, i, e, |ctx, side, out| {
        build_token(ctx, parts, side, out)
    })
}

/// [`half`] after its token, which ends at `e`; `token` writes it.
#[inline(always)]
fn finish(
    ctx: &mut Ctx<'_, '_>,
    stack: &mut [Frame],
    i: usize,
    mut e: usize,
    token: impl FnOnce(&mut Ctx<'_, '_>, Side, &mut MoveToken) -> Result<(), Fail>,
) -> Result<Option<usize>, Fail> {
    let t = ctx.s.as_bytes();
    e = skip_sp(t, e);
    let mut check = None;
    if let Some((ce, mark, old)) = check_mark(t, e) {
        check = Some((e, mark, old));
        e = ce;
    }
    e = skip_sp(t, e);
    let mut assess = None;
    if let Some((ae, a)) = assessment(t, e) {
        assess = Some(a);
        e = ae;
    }
    e = skip_sp(t, e);
    let mut draw_offer = false;
    let mut end_mark = false;
    loop {
        match t.get(e) {
            Some(b':') => {
                end_mark = true;
                e = skip_sp(t, e + 1);
            }
            Some(b'(') => {
                let a = skip_sp(t, e + 1);
                if t.get(a) != Some(&b'=') {
                    break;
                }
                let c = skip_sp(t, a + 1);
                if t.get(c) != Some(&b')') {
                    break;
                }
                draw_offer = true;
                e = skip_sp(t, c + 1);
            }
            _ => break,
        }
    }
    // The model, as the pest builder makes it.
    let f = top(stack);
    match f.expect {
        Expect::Start | Expect::Number if f.started => ctx.diag(
            Severity::Note,
            Code::Numbering,
            i,
            "move without a move number".into(),
        ),
        Expect::Comma => ctx.diag(
            Severity::Note,
            Code::Spelling,
            i,
            "Black's move without the `,` after White's".into(),
        ),
        _ => {}
    }
    let f = top(stack);
    let side = match f.expect {
        Expect::White => Side::White,
        Expect::Start | Expect::Number => f.side,
        Expect::BlackAfterEllipsis | Expect::Comma | Expect::Black => Side::Black,
    };
    ctx.count()?;
    let f = top(stack);
    let (number, number_unknown) = (f.number, f.unknown);
    // The node is written in place, field by field: assembled on the stack then
    // copied, its narrow stores stalled the copy's wide loads (a tenth of the reader's
    // time). A failure below drops the whole record, placeholder included.
    f.line.items.push(PLACEHOLDER);
    let Some(Item::Move(m)) = f.line.items.last_mut() else {
        return Err(Fail);
    };
    // Before the token's own notes, which lie after `i`: the locator only goes forwards.
    m.span = ctx.span(i, e);
    token(ctx, side, &mut m.token)?;
    if let Some((at, _, true)) = check {
        ctx.diag(
            Severity::Warning,
            Code::Spelling,
            at,
            "old check marker `^+` read as `+^`".into(),
        );
    }
    m.number = number;
    m.side = side;
    m.number_unknown = number_unknown;
    m.check = check.map(|(_, mark, _)| mark);
    m.assessment = assess;
    m.draw_offer = draw_offer;
    m.end_mark = end_mark;
    let f = top(stack);
    f.last_move = Some((number, side));
    f.unknown = false;
    f.started = true;
    match side {
        Side::White => {
            f.side = Side::Black;
            f.expect = Expect::Comma;
        }
        Side::Black => {
            f.side = Side::White;
            f.number = f.number.saturating_add(1);
            f.expect = Expect::Number;
        }
    }
    Ok(Some(e))
}

/// What a move node holds before [`half`] writes its fields.
const PLACEHOLDER: Item = Item::Move(MoveNode {
    number: 0,
    side: Side::White,
    number_unknown: false,
    token: MoveToken::ForcedPromotion {
        cell: CellName::BLANK,
        piece: PieceKind::Pawn,
    },
    check: None,
    assessment: None,
    draw_offer: false,
    end_mark: false,
    span: Span {
        start: 0,
        end: 0,
        line: 0,
        col: 0,
    },
});

/// The token of `parts`, written to `out`.
#[inline(always)]
fn build_token(
    ctx: &mut Ctx<'_, '_>,
    parts: TokenParts,
    side: Side,
    out: &mut MoveToken,
) -> Result<(), Fail> {
    match parts {
        TokenParts::Ordinary(p) => {
            let mover = match p.mover {
                Some(r) => Some(ctx.letter(r, side)?),
                None => None,
            };
            let (ss, sep, noted) = p.sep;
            if noted {
                let se = p.captured.map_or(p.to.0, |c| c.0);
                let st = ctx.text((ss, se));
                ctx.diag(
                    Severity::Note,
                    Code::Spelling,
                    ss,
                    format!("separator `{st}` read as `{}`", sep.as_str()),
                );
            }
            let captured = match p.captured {
                Some(r) => Some(ctx.letter(r, side.opponent())?),
                None => None,
            };
            let promotion = match p.promotion {
                None => None,
                Some(None) => Some(Promotion::Awaiting),
                Some(Some(r)) => Some(Promotion::To(ctx.letter(r, side)?)),
            };
            put(
                out,
                MoveToken::Ordinary {
                    mover,
                    from: ctx.cell(p.from),
                    sep,
                    captured,
                    to: ctx.cell(p.to),
                    promotion,
                },
            );
        }
        TokenParts::Forced(cell, piece) => {
            let piece = ctx.letter(piece, side)?;
            put(
                out,
                MoveToken::ForcedPromotion {
                    cell: ctx.cell(cell),
                    piece,
                },
            );
        }
        TokenParts::Castling(p) => {
            let t = ctx.s.as_bytes();
            let rook_letter = if ctx.letters.is_fan() {
                'R'
            } else {
                ctx.letters.letter(PieceKind::Rook)
            };
            let ok_rooks = p
                .rooks
                .iter()
                .flatten()
                .all(|&r| char::from(t[r]) == rook_letter);
            let mut king_side = true;
            if let Some(sd) = p.side {
                let c = char::from(t[sd]);
                king_side = c == 'K';
                let queen = ctx.letters.letter(PieceKind::Queen);
                if !(king_side || c == 'D' || c == queen) {
                    return Err(Fail);
                }
            }
            if !ok_rooks {
                return Err(Fail);
            }
            let columns = ctx.text(p.columns).to_string();
            put(
                out,
                MoveToken::Castling(Box::new(if p.double {
                    Castling::Double { columns }
                } else {
                    Castling::Single {
                        king_side,
                        columns,
                        suffix: ctx.text(p.suffix).to_string(),
                    }
                })),
            );
        }
    }
    Ok(())
}

/// Writes `token` over the [`PLACEHOLDER`]'s, which owns nothing: no drop (a call per
/// move otherwise).
#[inline(always)]
fn put(out: &mut MoveToken, token: MoveToken) {
    std::mem::forget(std::mem::replace(out, token));
}

/// A comment starting at `i` (depth dots, if any, end at `d` on the `{`).
fn comment(ctx: &mut Ctx<'_, '_>, i: usize, d: usize) -> Result<(usize, Comment), Fail> {
    let s = ctx.s;
    let t = s.as_bytes();
    let close = d + 1 + t[d + 1..].iter().position(|&b| b == b'}').ok_or(Fail)?;
    let span = ctx.span(i, close + 1);
    let mut j = d + 1;
    let mut kind = CommentKind::General;
    let m = skip_sp(t, j);
    let marker = if starts(t, m, "#W:") {
        Some((3, CommentKind::AutoWhite))
    } else if starts(t, m, "#B:") || starts(t, m, "#N:") {
        Some((3, CommentKind::AutoBlack))
    } else if starts(t, m, "@W:") {
        Some((3, CommentKind::White))
    } else if starts(t, m, "@B:") || starts(t, m, "@N:") {
        Some((3, CommentKind::Black))
    } else if (t.get(m) == Some(&b'#') && !matches!(t.get(m + 1), Some(b'0'..=b'9' | b'.')))
        || t.get(m) == Some(&b':')
    {
        Some((1, CommentKind::Auto))
    } else {
        None
    };
    if let Some((n, k)) = marker {
        kind = k;
        let ms = &s[m..m + n];
        if ms != k.marker() {
            ctx.diag(
                Severity::Note,
                Code::Spelling,
                m,
                format!("comment marker `{ms}` read as `{}`", k.marker()),
            );
        }
        j = m + n;
    }
    let text = &s[j..close];
    Ok((
        close + 1,
        Comment {
            kind,
            text: text.to_string(),
            references: references(text),
            span,
        },
    ))
}

/// The references of a comment's text, as the grammar's `comment_text` finds them.
pub(crate) fn references(text: &str) -> Vec<Reference> {
    let t = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let b = t[i];
        let found = match b {
            b'#' => move_ref(t, i).map(|e| (e, ReferenceKind::Move)),
            b'~' => piece_ref(t, i).map(|e| (e, ReferenceKind::Piece)),
            b'@' => player_ref(t, i).map(|e| (e, ReferenceKind::Player)),
            b'$' => number(t, i + 1).map(|(e, _)| (e, ReferenceKind::Nag)),
            _ => None,
        };
        match found {
            Some((e, kind)) => {
                out.push(Reference {
                    kind,
                    text: text[i..e].to_string(),
                    offset: i,
                });
                i = e;
            }
            None => i += 1,
        }
    }
    out
}

fn player_ref(t: &[u8], i: usize) -> Option<usize> {
    (t.get(i) == Some(&b'@')
        && matches!(t.get(i + 1), Some(b'W' | b'B' | b'N'))
        && !t.get(i + 2).is_some_and(u8::is_ascii_alphabetic))
    .then_some(i + 2)
}

fn move_ref(t: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while t.get(j) == Some(&b'.') {
        j += 1;
    }
    let (mut j, _) = number(t, j)?;
    while t.get(j) == Some(&b'.')
        && let Some((e, _)) = number(t, j + 1)
    {
        j = e;
    }
    if t.get(j) == Some(&b'[') {
        let mut k = j + 1;
        while matches!(t.get(k), Some(b'0'..=b'9' | b'#' | b'.')) {
            k += 1;
        }
        if k > j + 1 && t.get(k) == Some(&b']') {
            j = k + 1;
        }
    }
    if starts(t, j, "$[")
        && let Some((e, _)) = number(t, j + 2)
        && t.get(e) == Some(&b']')
    {
        j = e + 1;
    }
    if let Some(e) = player_ref(t, j) {
        j = e;
    }
    Some(j)
}

fn piece_ref(t: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while t.get(j).is_some_and(u8::is_ascii_alphanumeric) {
        j += 1;
    }
    if j == i + 1 {
        return None;
    }
    if t.get(j) == Some(&b'[') {
        let mut k = j + 1;
        while t
            .get(k)
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'|')
        {
            k += 1;
        }
        if k > j + 1 && t.get(k) == Some(&b']') {
            j = k + 1;
        }
    }
    Some(j)
}

/// How the two readers compare on one text (see [`compare_readers`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Agreement {
    /// Same records, same diagnostics, same locations, same verdict of the scanner.
    Same,
    /// The first difference found, described.
    Differ(String),
}

/// Feeds the same text to the pest reader ([`crate::read::read_str`]) and to the fast
/// reader ([`read_str`]) and compares: records, models (including every span's offset,
/// line and column), diagnostics, and the scanner's own verdict (it must accept exactly
/// the records that pest reads without an error). For the differential tests and the
/// `ctl_pgn_diff` fuzz target.
pub fn compare_readers(src: &str) -> Agreement {
    let mut pest = crate::read::read_str("f", src);
    for r in &mut pest {
        if let Some(g) = &mut r.game {
            crate::escape::decode(g);
        }
    }
    let fast = read_str("f", src);
    if pest.len() != fast.len() {
        return Agreement::Differ(format!(
            "{} records by pest, {} fast",
            pest.len(),
            fast.len()
        ));
    }
    let ranges = split_records(src);
    if ranges != crate::read::split_records(src) {
        return Agreement::Differ("the record splitters differ".into());
    }
    for (k, (p, f)) in pest.iter().zip(&fast).enumerate() {
        if p.index != f.index || p.diagnostics != f.diagnostics {
            return Agreement::Differ(format!(
                "record {}: diagnostics differ:\npest: {:#?}\nfast: {:#?}",
                k + 1,
                p.diagnostics,
                f.diagnostics
            ));
        }
        if p.game != f.game {
            return Agreement::Differ(format!(
                "record {}: models differ:\npest: {:#?}\nfast: {:#?}",
                k + 1,
                p.game,
                f.game
            ));
        }
        if let (Some(a), Some(b)) = (&p.game, &f.game) {
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            game_spans(a, &mut sa);
            game_spans(b, &mut sb);
            if sa != sb {
                return Agreement::Differ(format!(
                    "record {}: spans differ:\npest: {sa:?}\nfast: {sb:?}",
                    k + 1
                ));
            }
        }
        let pest_ok = p.game.is_some() && !p.diagnostics.iter().any(Diagnostic::is_error);
        let (start, end) = ranges[k];
        let scanner_ok = read_record_scanner("f", src, k + 1, start, end).is_some();
        if pest_ok != scanner_ok {
            return Agreement::Differ(format!(
                "record {}: pest {} it, the scanner {} it",
                k + 1,
                if pest_ok { "accepts" } else { "rejects" },
                if scanner_ok { "accepts" } else { "rejects" }
            ));
        }
    }
    Agreement::Same
}

fn span_key(s: &Span) -> (usize, usize, u32, u32) {
    (s.start, s.end, s.line, s.col)
}

fn line_spans(l: &Line, out: &mut Vec<(usize, usize, u32, u32)>) {
    for item in &l.items {
        match item {
            Item::Move(m) => out.push(span_key(&m.span)),
            Item::Comment(c) => out.push(span_key(&c.span)),
            Item::Variation(v) => {
                out.push(span_key(&v.span));
                line_spans(&v.line, out);
            }
        }
    }
}

fn game_spans(g: &Game, out: &mut Vec<(usize, usize, u32, u32)>) {
    out.push(span_key(&g.span));
    out.extend(g.tags.iter().map(|t| span_key(&t.span)));
    line_spans(&g.main, out);
    out.extend(g.final_comments.iter().map(|c| span_key(&c.span)));
}
