//! Headers-only reading: each game's tags without replaying (or even parsing) its
//! moves, for tag filters (`select --player …`) that must run near tokenising speed.

use std::io::Read;
use std::ops::Range;

use pgn_core::Pos;

use crate::reader::{Outcome, PgnReader, ReadError, Skip, Visitor};
use crate::text;

/// One game's tag section.
///
/// Names and values are kept in one string per game (two allocations a game, not two
/// a tag), which is what keeps a tag filter near tokenising speed. Two headers are
/// equal when their tags (in order), outcome, place and index are, however each was
/// read.
#[derive(Debug, Clone, Default)]
pub struct GameHeaders {
    /// The names and values, with whatever the read left between them.
    text: String,
    /// Per tag: where its name starts and ends, where its value starts and ends.
    spans: Vec<(usize, usize, usize, usize)>,
    /// The termination marker of the main line, when there is one.
    pub outcome: Option<Outcome>,
    /// Where the game starts.
    pub at: Pos,
    /// 1-based index of the game in its input.
    pub index: u64,
}

impl PartialEq for GameHeaders {
    fn eq(&self, other: &GameHeaders) -> bool {
        (self.outcome, self.at, self.index) == (other.outcome, other.at, other.index)
            && self.tags().eq(other.tags())
    }
}

impl Eq for GameHeaders {}

impl GameHeaders {
    /// Tag pairs in input order, values decoded (UTF-8, else Windows-1252) and
    /// unescaped; names as written.
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str)> + Clone + '_ {
        self.spans
            .iter()
            .map(|&(n, m, v, e)| (&self.text[n..m], &self.text[v..e]))
    }

    /// Number of tag pairs.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the game has no tag pair.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Reads the tag section of the first game of `pgn` in place of what these
    /// headers held, keeping their allocations, with a reader buffer the thread keeps
    /// from one call to the next: the headers-only read of one game cut by a splitter
    /// (`select` with a tag filter), which allocates nothing once the thread has read
    /// a game as large. The movetext is skipped, not parsed. `Ok(false)` when `pgn`
    /// holds no game; `at` and `index` are those of a game read alone (index 1).
    ///
    /// ```
    /// let mut h = chess_pgn::GameHeaders::default();
    /// assert!(h.read_first(b"[White \"Anand\"]\n[Black \"Carlsen\"]\n\n1. e4 e5 1-0").unwrap());
    /// assert_eq!(h.tag("Black"), Some("Carlsen"));
    /// assert!(h.read_first(b"[White \"Ding\"]\n\n1. d4 *").unwrap());
    /// assert_eq!(h.len(), 1);
    /// assert!(!h.read_first(b"").unwrap());
    /// ```
    pub fn read_first(&mut self, pgn: &[u8]) -> Result<bool, ReadError> {
        thread_local! {
            static BUFFER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
        }
        self.text.clear();
        self.spans.clear();
        self.outcome = None;
        self.at = Pos::default();
        self.index = 0;
        let mut reader = PgnReader::with_buffer(pgn, BUFFER.take(), pgn.len() + 1);
        let read = reader.read_game(&mut Fill(self));
        let buffer = reader.into_buffer();
        // A huge game's buffer is not kept for the games after it.
        if buffer.len() <= 1 << 20 {
            BUFFER.set(buffer);
        }
        read.map(|game| game.is_some())
    }

    /// Reads the tag section at the start of `game` (one game as a splitter cut it)
    /// in place of what these headers held, when that section is in the plain form,
    /// giving exactly the tags the full reader keeps for the game
    /// (`Game::tags` of [`crate::Game`]), `FEN` and `SetUp` added as written; it
    /// allocates nothing once the headers have held a section as large. `false`, with
    /// the headers left in no particular state, when the section is not plain: read
    /// the game with the full reader then (this is the headers-only read of Python's
    /// `read_headers`, where such games are rare and exactness matters more than
    /// speed).
    ///
    /// Plain means: tag pairs `[Name "value"]` (spaces or tabs inside the brackets,
    /// any whitespace between pairs), each name an ASCII letter then letters, digits
    /// or `_`, no name twice, no roster or set-up name spelled in another case, no
    /// tab or line break in a value and no `\` other than `\"` and `\\`; then the
    /// end of the game or its movetext (any other printable ASCII byte: the full
    /// reader never gives a game a tag after its movetext has begun, even after a
    /// comment). Anything else (a `%` line among the tags, a damaged tag, a byte-order
    /// mark) is not plain, nor is what the full reader gives a meaning of its own (a
    /// repeated name kept as `XDuplicate…`, a line break read as a space). Values that
    /// are not UTF-8 are decoded as Windows-1252, as the full reader decodes them.
    /// `outcome` is not looked for (`None`).
    ///
    /// ```
    /// let mut h = chess_pgn::GameHeaders::default();
    /// assert!(h.read_plain(b"[White \"Anand\"]\r\n[Event \"a \\\"b\\\"\"]\r\n\r\n1. e4 e5 1-0"));
    /// assert_eq!(h.tags().collect::<Vec<_>>(), [("White", "Anand"), ("Event", "a \"b\"")]);
    /// // A repeated name is kept apart by the full reader: not plain.
    /// assert!(!h.read_plain(b"[White \"A\"]\n[White \"B\"]\n\n*"));
    /// assert!(!h.read_plain(b"[White \"A\"]\n%escape\n[Black \"B\"]\n\n*"));
    /// ```
    pub fn read_plain(&mut self, game: &[u8]) -> bool {
        match self.read_usual(game) {
            Some(taken) => taken,
            None => self.read_plain_general(game),
        }
    }

    /// Empties the headers for a plain read of a new section.
    fn start_plain(&mut self) {
        self.text.clear();
        self.spans.clear();
        self.outcome = None;
        self.at = Pos::default();
        self.index = 1;
    }

    /// [`Self::read_plain`] for the usual section: UTF-8 as a whole, no `\\`, no byte
    /// below a space inside a value. Such a section is copied once, as it is, and the
    /// tags are spans of the copy: no copy per name and value, no check per value.
    /// `None` when the section is not of that kind (the general scan decides then),
    /// else what the general scan would answer, with the same tags.
    fn read_usual(&mut self, game: &[u8]) -> Option<bool> {
        self.start_plain();
        let mut seen: u64 = 0;
        let mut at = 0;
        let taken = loop {
            if let Some(end) = next_tag(game, &mut at) {
                break end;
            }
            let (name, value, end) = usual_tag(game, at)?;
            if self.spans.len() >= crate::MAX_GAME_TAGS {
                return Some(false);
            }
            let spans = &self.spans;
            let met = |n: &[u8]| spans.iter().any(|&(a, b, _, _)| &game[a..b] == n);
            if !plain_name(&game[name.clone()], &mut seen, met) {
                return Some(false);
            }
            self.spans
                .push((name.start, name.end, value.start, value.end));
            at = end;
        };
        // The spans are offsets into the section, which the copy starts with.
        self.text.push_str(std::str::from_utf8(&game[..at]).ok()?);
        Some(taken)
    }

    /// [`Self::read_plain`] for any section: each name and value checked and copied
    /// on its own (escapes, Windows-1252 values).
    fn read_plain_general(&mut self, game: &[u8]) -> bool {
        self.start_plain();
        // One bit per name (by length and two bytes): a repeated name is looked for
        // only when its bit is already set.
        let mut seen: u64 = 0;
        // The head of the game, checked UTF-8 once (up to its first byte that is
        // not): names and values inside it are taken from it as they are, not checked
        // one by one (two checks a tag were a tenth of a headers read).
        let head = &game[..game.len().min(UTF8_HEAD)];
        let head = match std::str::from_utf8(head) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
        };
        let mut at = 0;
        loop {
            if let Some(end) = next_tag(game, &mut at) {
                return end;
            }
            let Some(tag) = plain_tag(game, at) else {
                return false;
            };
            let (name, value) = (&game[tag.name.clone()], &game[tag.value.clone()]);
            if self.spans.len() >= crate::MAX_GAME_TAGS {
                return false;
            }
            let met = |n: &[u8]| self.tags().any(|(t, _)| t.as_bytes() == n);
            if !plain_name(name, &mut seen, met) {
                return false;
            }
            let n = self.text.len();
            // Names are ASCII (checked by `plain_tag`).
            match head.get(tag.name.clone()) {
                Some(name) => self.text.push_str(name),
                None => self
                    .text
                    .push_str(std::str::from_utf8(name).unwrap_or_default()),
            }
            let v = self.text.len();
            let checked = head.get(tag.value.clone());
            match checked {
                Some(plain) if !tag.escaped && printable_ascii(value) => self.text.push_str(plain),
                _ if crate::text::has_break(value) => return false,
                Some(plain) if !tag.escaped => self.text.push_str(plain),
                _ => self.text.push_str(&text::tag_value(value, tag.escaped)),
            }
            self.spans.push((n, v, v, self.text.len()));
            at = tag.end;
        }
    }

    /// Appends one tag pair as read: the name decoded, the value decoded and
    /// unescaped.
    fn push_tag(&mut self, name: &[u8], value: &[u8], escaped: bool) {
        let n = self.text.len();
        self.text.push_str(&text::decode(name));
        let v = self.text.len();
        match std::str::from_utf8(value) {
            Ok(plain) if !escaped => self.text.push_str(plain),
            _ => self.text.push_str(&text::tag_value(value, escaped)),
        }
        self.spans.push((n, v, v, self.text.len()));
    }

    /// A tag's value, by exact name or, failing that, case-insensitively.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags()
            .find(|(n, _)| *n == name)
            .or_else(|| self.tags().find(|(n, _)| n.eq_ignore_ascii_case(name)))
            .map(|(_, v)| v)
    }
}

/// Skips the whitespace at `at`; `None` when a tag pair starts there, else whether the
/// section read so far is plain: the game ends there or its movetext begins. Any token
/// other than `[` begins the movetext for the full reader (a comment too), and a tag
/// after it is never this game's. A `%` escape line (tags may follow it), whitespace
/// this scan does not skip, and what is not printable ASCII (a byte-order mark) take
/// the full read.
#[inline]
fn next_tag(game: &[u8], at: &mut usize) -> Option<bool> {
    while *at < game.len() && matches!(game[*at], b' ' | b'\t' | b'\r' | b'\n') {
        *at += 1;
    }
    match game.get(*at) {
        None => Some(true),
        Some(b'[') => None,
        Some(&first) => Some((b' '..=b'~').contains(&first) && first != b'%'),
    }
}

/// Whether `name` is spelled as the full reader keeps it and not met before in its
/// section (`seen` holds a bit per name read so far; `met` tells whether a name was).
#[inline(always)]
fn plain_name(name: &[u8], seen: &mut u64, met: impl FnOnce(&[u8]) -> bool) -> bool {
    // The names the full reader knows in any case (the Seven Tag Roster, and the
    // tags that decide how a game is read): another spelling is renamed or set
    // apart there.
    if known_tag_name(name).is_some_and(|k| k != name && k.eq_ignore_ascii_case(name)) {
        return false;
    }
    let mix = (name.len() as u64)
        .wrapping_mul(31)
        .wrapping_add(u64::from(name[0]) << 8 | u64::from(name[name.len() - 1]))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let bit = 1 << (mix >> 58);
    if *seen & bit != 0 && met(name) {
        return false;
    }
    *seen |= bit;
    true
}

/// The usual tag pair `[Name "value"]` starting at `game[at]`: its name, its raw
/// value and where it ends, as [`plain_tag`] reads it; `None` when the pair is not
/// plain or its value holds a `\\` or a byte below a space (the general scan reads
/// those, or refuses them).
#[inline(always)]
fn usual_tag(game: &[u8], at: usize) -> Option<(Range<usize>, Range<usize>, usize)> {
    let blank = |mut j: usize| {
        while game.get(j).is_some_and(|&b| b == b' ' || b == b'\t') {
            j += 1;
        }
        j
    };
    // Blanks are looked for only where the usual spelling has none or one.
    let n0 = match game.get(at + 1)? {
        b' ' | b'\t' => blank(at + 1),
        _ => at + 1,
    };
    if NAME_BYTE[usize::from(*game.get(n0)?)] != 1 {
        return None;
    }
    let name_len = game[n0 + 1..]
        .iter()
        .position(|&b| NAME_BYTE[usize::from(b)] == 0)?;
    let n1 = n0 + 1 + name_len;
    let q = match game[n1] {
        b' ' if game.get(n1 + 1) == Some(&b'"') => n1 + 1,
        _ => blank(n1),
    };
    if *game.get(q)? != b'"' {
        return None;
    }
    let v0 = q + 1;
    let v1 = v0 + value_stop(&game[v0..])?;
    if game[v1] != b'"' {
        return None;
    }
    let c = match game.get(v1 + 1)? {
        b']' => v1 + 1,
        _ => blank(v1 + 1),
    };
    (*game.get(c)? == b']').then_some((n0..n1, v0..v1, c + 1))
}

/// Per byte: 1 for an ASCII letter (a name's first byte), 2 for a digit or `_` (its
/// other bytes, with the letters), 0 for any other byte.
static NAME_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphabetic() {
            1
        } else if c.is_ascii_digit() || c == b'_' {
            2
        } else {
            0
        };
        b += 1;
    }
    t
};

/// The first `"`, `\\` or byte below a space in `bytes`: eight bytes at a time, as
/// values are runs of plain bytes a few words long.
#[inline(always)]
fn value_stop(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // The high bit of the first byte that is zero is set (and of no byte before it;
    // a later byte's may be set wrongly, so only the first one is looked at).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let (words, _) = bytes.as_chunks::<8>();
    for (i, w) in words.iter().enumerate() {
        let x = u64::from_le_bytes(*w);
        // Below a space: as a zero byte, the first one exact in the same way.
        let low = x.wrapping_sub(0x20 * ONES) & !x & HIGH;
        let hit = low | zero(x ^ (0x22 * ONES)) | zero(x ^ (0x5C * ONES));
        if hit != 0 {
            return Some(i * 8 + hit.trailing_zeros() as usize / 8);
        }
    }
    let tail = words.len() * 8;
    bytes[tail..]
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < b' ')
        .map(|k| tail + k)
}

/// Whether every byte of `value` is printable ASCII (a space to `~`, or DEL): then it
/// is its own UTF-8 decoding and holds no break. Eight bytes at a time, as most values
/// are short runs of such bytes.
#[inline(always)]
fn printable_ascii(value: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // Nonzero exactly when some byte is 0x80 or above, or below 0x20.
    let odd = |x: u64| (x | x.wrapping_sub(0x20 * ONES) & !x) & HIGH;
    let (words, rest) = value.as_chunks::<8>();
    let mut seen = 0;
    for w in words {
        seen |= odd(u64::from_ne_bytes(*w));
    }
    let mut last = [b' '; 8];
    last[..rest.len()].copy_from_slice(rest);
    seen |= odd(u64::from_ne_bytes(last));
    seen == 0
}

/// Bytes at the start of a game that [`GameHeaders::read_plain`] checks to be UTF-8
/// at once: more than almost any tag section, little movetext.
const UTF8_HEAD: usize = 2048;

/// Where the parts of a plain tag pair are in its game.
struct PlainTag {
    name: std::ops::Range<usize>,
    /// The raw value, between the quotes.
    value: std::ops::Range<usize>,
    /// Whether the value holds `\\"` or `\\\\` (its only escapes).
    escaped: bool,
    /// Just after the closing bracket.
    end: usize,
}

/// The plain tag pair `[Name "value"]` starting at `game[at]` (see
/// [`GameHeaders::read_plain`]); `None` when it is not in that form.
fn plain_tag(game: &[u8], at: usize) -> Option<PlainTag> {
    let blank = |mut j: usize| {
        while game.get(j).is_some_and(|&b| b == b' ' || b == b'\t') {
            j += 1;
        }
        j
    };
    let n0 = blank(at + 1);
    if !game.get(n0)?.is_ascii_alphabetic() {
        return None;
    }
    let n1 = n0
        + game[n0..]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))?;
    let q = blank(n1);
    if *game.get(q)? != b'"' {
        return None;
    }
    let v0 = q + 1;
    let mut j = v0;
    let mut escaped = false;
    let v1 = loop {
        let k = j + memchr::memchr3(b'"', b'\\', b'\n', &game[j..])?;
        match game[k] {
            b'"' => break k,
            b'\\' if matches!(game.get(k + 1), Some(b'"' | b'\\')) => {
                escaped = true;
                j = k + 2;
            }
            _ => return None,
        }
    };
    let c = blank(v1 + 1);
    (*game.get(c)? == b']').then_some(PlainTag {
        name: n0..n1,
        value: v0..v1,
        escaped,
        end: c + 1,
    })
}

/// A [`Visitor`] that keeps the tags and skips the movetext.
#[derive(Debug, Default)]
pub struct HeadersVisitor {
    current: GameHeaders,
    index: u64,
}

impl Visitor for HeadersVisitor {
    type Output = GameHeaders;

    fn begin_game(&mut self, at: Pos) {
        self.index += 1;
        self.current.at = at;
        self.current.index = self.index;
    }

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, _at: Pos) {
        self.current.push_tag(name, value, escaped);
    }

    fn end_headers(&mut self) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        self.current.outcome = Some(outcome);
    }

    fn end_game(&mut self) -> GameHeaders {
        // The next game is sized like this one: one allocation each, no regrowth.
        let next = GameHeaders {
            text: String::with_capacity(self.current.text.len()),
            spans: Vec::with_capacity(self.current.spans.len()),
            ..GameHeaders::default()
        };
        std::mem::replace(&mut self.current, next)
    }
}

/// The visitor of [`GameHeaders::read_first`]: the tags into headers the caller
/// keeps, the movetext skipped.
struct Fill<'a>(&'a mut GameHeaders);

impl Visitor for Fill<'_> {
    type Output = ();

    fn begin_game(&mut self, at: Pos) {
        self.0.at = at;
        self.0.index = 1;
    }

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, _at: Pos) {
        self.0.push_tag(name, value, escaped);
    }

    fn end_headers(&mut self) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        self.0.outcome = Some(outcome);
    }

    fn end_game(&mut self) {}
}

/// Iterator of the tag sections of the games of any reader, in order; the game
/// boundaries are exactly those of [`crate::Games`].
///
/// ```
/// use chess_pgn::Headers;
/// let pgn = "[White \"Anand\"]\n[Black \"Carlsen\"]\n1. e4 e5 1-0\n\n[White \"Ding\"]\n1. d4 *";
/// let whites: Vec<String> = Headers::new(pgn.as_bytes())
///     .map(|h| h.unwrap().tag("White").unwrap().to_string())
///     .collect();
/// assert_eq!(whites, ["Anand", "Ding"]);
/// ```
pub struct Headers<R> {
    reader: PgnReader<R>,
    visitor: HeadersVisitor,
    done: bool,
}

impl<R: Read> Headers<R> {
    /// Reads from `inner` (buffered internally).
    pub fn new(inner: R) -> Headers<R> {
        Headers::from_reader(PgnReader::new(inner))
    }

    /// Reads from `inner` into `buffer`, a buffer a former reader gave back
    /// ([`Headers::into_buffer`], [`PgnReader::into_buffer`]), grown to `capacity`
    /// bytes when shorter (see [`PgnReader::with_buffer`]): the tags of many games cut
    /// by a splitter are then read without allocating and zeroing a buffer per game.
    pub fn with_buffer(inner: R, buffer: Vec<u8>, capacity: usize) -> Headers<R> {
        Headers::from_reader(PgnReader::with_buffer(inner, buffer, capacity))
    }

    fn from_reader(reader: PgnReader<R>) -> Headers<R> {
        Headers {
            reader,
            visitor: HeadersVisitor::default(),
            done: false,
        }
    }

    /// The reader's buffer, for [`Headers::with_buffer`].
    pub fn into_buffer(self) -> Vec<u8> {
        self.reader.into_buffer()
    }
}

impl<R: Read> Iterator for Headers<R> {
    type Item = Result<GameHeaders, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.reader.read_game(&mut self.visitor) {
            Ok(Some(h)) => Some(Ok(h)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// The one name the full reader treats specially (the Seven Tag Roster, `FEN`,
/// `SetUp`, `Variant`, `Game`) that `name` can equal when case is ignored, in its
/// canonical spelling; the length and first letter pick it, so `name` may still differ
/// from it in other letters (compare them, ignoring case, to know).
///
/// ```
/// assert_eq!(chess_pgn::known_tag_name(b"white"), Some(&b"White"[..]));
/// assert_eq!(chess_pgn::known_tag_name(b"Wxyzq"), Some(&b"White"[..]));
/// assert_eq!(chess_pgn::known_tag_name(b"Annotator"), None);
/// ```
#[inline]
pub fn known_tag_name(name: &[u8]) -> Option<&'static [u8]> {
    Some(match (name.len(), name.first().map_or(0, |b| b | 0x20)) {
        (3, b'f') => b"FEN",
        (4, b'g') => b"Game",
        (4, b's') => b"Site",
        (4, b'd') => b"Date",
        (5, b's') => b"SetUp",
        (5, b'e') => b"Event",
        (5, b'r') => b"Round",
        (5, b'w') => b"White",
        (5, b'b') => b"Black",
        (6, b'r') => b"Result",
        (7, b'v') => b"Variant",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{GameHeaders, printable_ascii};

    /// The usual path's answer for `game` when it takes it: the general scan's, with
    /// the same tags.
    fn assert_usual_is_general(game: &[u8]) -> bool {
        let (mut usual, mut general) = (GameHeaders::default(), GameHeaders::default());
        let Some(taken) = usual.read_usual(game) else {
            return false;
        };
        assert_eq!(
            taken,
            general.read_plain_general(game),
            "{:?}",
            String::from_utf8_lossy(game)
        );
        if taken {
            assert_eq!(usual, general, "{:?}", String::from_utf8_lossy(game));
        }
        true
    }

    #[test]
    fn the_usual_path_reads_every_testdata_game_as_the_general_scan() {
        let root = test_support::testdata();
        let mut usual = 0;
        for ext in ["pgn", "ctl-pgn"] {
            for path in test_support::files_with_extension(&root, ext) {
                let bytes = std::fs::read(&path).unwrap();
                // Every game start (a tag line after a blank line), and every line.
                for (i, _) in bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n') {
                    usual += usize::from(assert_usual_is_general(&bytes[i + 1..]));
                }
                assert_usual_is_general(&bytes);
            }
        }
        assert!(usual > 1000, "{usual}");
    }

    #[test]
    fn the_usual_path_reads_every_one_byte_change_as_the_general_scan() {
        let base = b"[Event \"a b\"]\n[Site \"s\"]\r\n[White \"W\xc3\xa9\"] [ Black\t\"B\" ]\n[Round \"1\"]\n\n1. e4 e5 *\n";
        let bytes = b"\"\\[] \t\r\n{};%(.$*-_aAwWbB1\x0b\x00\x1f\x7f\xc3\xa9\xe9\xff";
        let mut usual = 0;
        for at in 0..base.len() {
            for &b in bytes {
                let mut v = base.to_vec();
                v[at] = b;
                usual += usize::from(assert_usual_is_general(&v));
                v.insert(at, b);
                usual += usize::from(assert_usual_is_general(&v));
                v.truncate(at);
                usual += usize::from(assert_usual_is_general(&v));
            }
        }
        assert!(usual > base.len() * 20, "{usual}");
        // Sections the usual path leaves to the general scan, which takes them.
        for game in [
            &b"[Event \"a \\\"q\\\"\"]\n\n*"[..],
            b"[Event \"Ren\xe9\"]\n\n*",
            b"[Event \"a\x01b\"]\n\n*",
        ] {
            assert_eq!(GameHeaders::default().read_usual(game), None);
            assert!(GameHeaders::default().read_plain(game));
        }
    }

    #[test]
    fn value_stop_is_the_byte_test() {
        let slow = |b: &[u8]| b.iter().position(|&c| c == b'"' || c == b'\\' || c < b' ');
        test_support::single_byte_variants(
            20,
            b"a \x1f\x20\x21\x22\x23\\\x5b\x5d\x00\x80\xa2\xdc\xff",
            |v| {
                assert_eq!(super::value_stop(v), slow(v), "{v:?}");
            },
        );
    }

    #[test]
    fn printable_ascii_is_the_byte_test() {
        let slow = |b: &[u8]| b.iter().all(|&c| (0x20..0x80).contains(&c));
        test_support::single_byte_variants(20, b"a \x1f\x20\x7f\x80\xff", |v| {
            assert_eq!(printable_ascii(v), slow(v), "{v:?}");
        });
    }
}
