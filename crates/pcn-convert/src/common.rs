//! Pieces shared by the three mappings: errors, warnings, the `...pgn` block helpers,
//! results, dates, and the engine-independent move matcher.

use pcn::{Board, Move, Position, ReplayOptions};
use serde_json::{Map, Value, json};

/// Edition marker written in every `...pgn` block, so a later layout can be told apart.
pub const EDITION: &str = "conv-1";
/// The value of `...pcn_edition` (spec C.5): the PCN edition the documents follow.
pub const PCN_EDITION: &str = "seed-2012";
/// The extension key of the lossless-carriage block (spec C.1).
pub const PGN_KEY: &str = "...pgn";

/// Something that a conversion could not carry, or carried only approximately.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Warning {
    /// A PCN extension key this converter does not understand; the target model has
    /// no place for it.
    #[error("extension key {0:?} has no equivalent in the target format and was dropped")]
    DroppedExtension(String),
    /// The `...cache` section (derived data) is not part of any game record.
    #[error("`...cache` has no equivalent in the target format and was dropped")]
    DroppedCache,
    /// A draw proposal (`over? false` with a result) has no result token.
    #[error("draw proposal by the {0} side has no result token; written as `*` with tag {1}")]
    DrawOffer(&'static str, &'static str),
    /// Part of the `...pgn` block did not fit the moves or was malformed; it was ignored.
    #[error("`...pgn` block: {0}; ignored")]
    IgnoredAnnotation(String),
    /// The players named in the document differ from the tags carried along; the
    /// document wins.
    #[error("tag {0} replaced by the PCN player name")]
    PlayerOverride(&'static str),
    /// Something the target cannot represent at all.
    #[error("cannot be represented: {0}")]
    Unrepresentable(String),
    /// A part of the document the target format has no place for.
    #[error("{0} has no equivalent in the target format and was dropped")]
    Dropped(String),
}

/// Why a conversion failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// Building the PCN document failed (a bug in this crate if it ever happens).
    #[error("building PCN: {0}")]
    Pcn(#[from] pcn::ReadError),
    /// The PCN board does not have the shape or pieces of the target game.
    #[error("starting_position: {0}")]
    Board(String),
    /// The start position could not be turned into one the rules engine accepts.
    #[error("start position: {0}")]
    Start(String),
    /// A PCN move matches no legal move of the rules engine.
    #[error("{path}: {reason}")]
    Move {
        /// JSON path of the move (`previous_moves[12]`).
        path: String,
        /// Why no legal move matches.
        reason: String,
    },
    /// A record move could not be replayed by the rules engine.
    #[error("record move {ply}: {reason}")]
    Record {
        /// Index of the half-move in its line (0 for the first).
        ply: usize,
        /// What the rules engine said.
        reason: String,
    },
    /// The document records a variant or another game that this converter does not
    /// implement (its `...pgn` block's `variant`, or a `Variant` or `Game` tag it
    /// carries): refused rather than read as the game its board shape suggests.
    #[error("{key}: {name:?} names a game this converter does not implement (only {known})")]
    UnsupportedVariant {
        /// Where the name is (`...pgn variant`, `...pgn tags Game`).
        key: String,
        /// The variant or game as named.
        name: String,
        /// What this converter reads.
        known: &'static str,
    },
    /// An extension value this converter relies on is malformed.
    #[error("extension {key}: {reason}")]
    Extension {
        /// The extension key (`...pgn`, `...fen`, …).
        key: String,
        /// What is wrong with its value.
        reason: String,
    },
}

/// `started_at` from PGN-style date/time tags (spec C.1). Partial dates have no ISO
/// form: they stay only in the carried tags.
pub(crate) fn started_at(tags: &[(&str, &str)]) -> Option<String> {
    let get = |n: &str| tags.iter().find(|(k, _)| *k == n).map(|(_, v)| v.trim());
    let (date, time, zone) = match (get("UTCDate"), get("Date")) {
        (Some(d), _) => (d, get("UTCTime"), "Z"),
        (None, Some(d)) => (d, get("Time"), ""),
        (None, None) => return None,
    };
    // `YYYY.MM.DD`, all digits.
    let b = date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if b.len() != 10
        || b[4] != b'.'
        || b[7] != b'.'
        || !digits(0..4)
        || !digits(5..7)
        || !digits(8..10)
    {
        return None;
    }
    let t = match time {
        Some(t) if t.len() == 8 && t.as_bytes()[2] == b':' && t.as_bytes()[5] == b':' => t,
        Some(_) => return None,
        None => "00:00:00",
    };
    let mut iso = String::with_capacity(20);
    for part in [
        &date[0..4],
        "-",
        &date[5..7],
        "-",
        &date[8..10],
        "T",
        t,
        zone,
    ] {
        iso.push_str(part);
    }
    pcn::is_date_time(&iso).then_some(iso)
}

/// Applies a move to a copy of `board`; `None` when the rules-free replayer refuses it.
pub(crate) fn after(board: &Board, mv: &Move) -> Option<Board> {
    let mut p = Position::new(board.clone());
    p.apply(mv, ReplayOptions::default()).ok()?;
    Some(p.board)
}

/// Finds the candidate whose canonical encoding has the same effect on the board as
/// `target`. Matching by effect rather than by spelling accepts every form the PCN
/// reader accepts (Cartesian or piece-name coordinates, `capture` for `remove`, the
/// "path" profile of spec C.1) without a second parser of action chains. Encodings
/// are computed lazily: an exact match, the usual case, stops the first pass early.
pub(crate) fn match_move<M: Copy>(
    board: &Board,
    target: &Move,
    candidates: &[M],
    origin: impl Fn(M) -> usize,
    encode: impl Fn(M) -> Move,
) -> Result<M, String> {
    // Our own encodings start with the mover's origin as a flat index (or the rook's
    // when the king must wait; the second pass finds those): a cheap filter.
    let first = target.0.first().map(|a| &a.subject);
    if let Some(m) = candidates
        .iter()
        .filter(|&&m| first == Some(&pcn::Coord::Flat(origin(m))))
        .find(|&&m| encode(m) == *target)
    {
        return Ok(*m);
    }
    let want = {
        let mut p = Position::new(board.clone());
        p.apply(target, ReplayOptions::default())
            .map_err(|(i, r)| format!("action {i}: {r}"))?;
        p.board
    };
    candidates
        .iter()
        .find(|&&m| after(board, &encode(m)).as_ref() == Some(&want))
        .copied()
        .ok_or_else(|| "no legal move has this effect on the board".to_string())
}

/// Parses a list of PCN moves carried inside an extension, validating them as the
/// reader would against a board of the given shape (by reading a minimal document).
pub(crate) fn parse_moves(board: &Board, moves: &[Value]) -> Result<Vec<Move>, String> {
    let doc = json!({
        "starting_position": serde_json::to_value(board).map_err(|e| e.to_string())?,
        "over?": false,
        "previous_moves": moves,
    });
    pcn::from_value(&doc)
        .map(|g| g.previous_moves)
        .map_err(|e| e.to_string())
}

/// Moves as JSON values.
pub(crate) fn moves_value(moves: &[Move]) -> Vec<Value> {
    moves
        .iter()
        .map(|m| serde_json::to_value(m).unwrap_or(Value::Null))
        .collect()
}

/// Tag list as `[[name, value], ...]`.
pub(crate) fn tags_value<'a>(tags: impl Iterator<Item = (&'a str, &'a str)>) -> Value {
    Value::Array(tags.map(|(n, v)| json!([n, v])).collect())
}

/// `v` in decimal: the digits are `.0[.1..]`.
fn decimal(mut v: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    (digits, i)
}

/// JSON written by hand into a byte buffer, in `serde_json`'s compact form (the bytes
/// `pcn::to_string` writes), for documents written straight from a game record.
pub(crate) mod json {
    /// A string, escaped as `serde_json` escapes it.
    pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
        utf8(out, s.as_bytes());
    }

    /// [`string`] of text given as its UTF-8 bytes (not validated again: bytes that
    /// are not UTF-8 come out as `serde_json` writes their lossy decoding).
    pub(crate) fn utf8(out: &mut Vec<u8>, b: &[u8]) {
        // serde_json escapes control characters, `"` and `\` only (the other bytes of
        // the UTF-8 text go out as they are): a string without them, nearly every
        // string of a game record, is copied.
        if !needs_escape(b) {
            out.push(b'"');
            out.extend_from_slice(b);
            out.push(b'"');
        } else {
            value(out, &String::from_utf8_lossy(b));
        }
    }

    /// Whether `b` holds a control character, `"` or `\\`, eight bytes at a time: the
    /// strings of a game record are short (tag values, names), too short for vector
    /// code, and nearly none has one.
    #[inline]
    pub(crate) fn needs_escape(b: &[u8]) -> bool {
        special::<false>(b)
    }

    /// Whether `b` holds a control character, `"`, `\\` or a byte above ASCII: text
    /// without any is its own UTF-8 decoding and its own JSON string body (one scan
    /// where a decoding check and an escape check were two).
    #[inline]
    pub(crate) fn not_plain_ascii(b: &[u8]) -> bool {
        special::<true>(b)
    }

    /// [`needs_escape`], or with `HIGH_TOO` [`not_plain_ascii`].
    #[inline(always)]
    fn special<const HIGH_TOO: bool>(b: &[u8]) -> bool {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
        // The high bit of some byte is set exactly when some byte of `v` is zero
        // (which byte may be wrong, whether one is never is).
        let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
        let word = |w: &[u8; 8]| {
            let x = u64::from_ne_bytes(*w);
            // Below 0x20: the same borrow test against 0x20 in every byte.
            let control = x.wrapping_sub(0x20 * ONES) & !x & HIGH;
            let high = if HIGH_TOO { x & HIGH } else { 0 };
            control
                | high
                | zero(x ^ (u64::from(b'"') * ONES))
                | zero(x ^ (u64::from(b'\\') * ONES))
                != 0
        };
        let byte = |c: u8| c < 0x20 || c == b'"' || c == b'\\' || (HIGH_TOO && c >= 0x80);
        let (words, rest) = b.as_chunks::<8>();
        if words.iter().any(word) {
            return true;
        }
        match b.last_chunk::<8>() {
            // The last eight bytes cover the rest.
            Some(last) if !rest.is_empty() => word(last),
            Some(_) => false,
            None => rest.iter().any(|&c| byte(c)),
        }
    }

    /// An unsigned integer (as a block: see [`super::block::uint`]).
    #[inline]
    pub(crate) fn uint(out: &mut Vec<u8>, n: u64) {
        super::block::write::<20>(out, |buf| super::block::uint(buf, 0, n));
    }

    /// Any value, through `serde_json`.
    pub(crate) fn value<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
        // The values written here (strings, integers, boards, moves) always serialise.
        let _ = serde_json::to_writer(&mut *out, v);
    }

    #[cfg(test)]
    #[test]
    fn strings_and_numbers_are_serde_json_s() {
        for s in [
            "",
            "plain",
            "q\"uote",
            "back\\slash",
            "tab\t",
            "nl\n",
            "\u{1}",
            "del\u{7f}",
            "×",
            "炮二平五",
            "\u{2028}",
            "mixed × \"a\" \u{7}",
        ] {
            let mut out = Vec::new();
            string(&mut out, s);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(s).unwrap()
            );
        }
        for n in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            let mut out = Vec::new();
            uint(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        }
    }

    #[cfg(test)]
    #[test]
    fn needs_escape_is_the_byte_test() {
        let slow = |b: &[u8]| b.iter().any(|&c| c < 0x20 || c == b'"' || c == b'\\');
        // Backgrounds of byte values close to the borders of the word tests.
        let slow_plain = |b: &[u8]| {
            b.iter()
                .any(|&c| c < 0x20 || c == b'"' || c == b'\\' || c >= 0x80)
        };
        test_support::single_byte_variants(24, b"a\x20\x21\x23\x5b\x5d\x7f\x80\xa2\xdc\xff", |v| {
            assert_eq!(needs_escape(v), slow(v), "{v:?}");
            assert_eq!(not_plain_ascii(v), slow_plain(v), "{v:?}");
        });
    }

    /// The `"over?"` and `"...result?"` members of a status (`pcn::Status::keys`),
    /// each followed by a comma.
    pub(crate) fn status(out: &mut Vec<u8>, status: pcn::Status) {
        let (over, result) = status.keys();
        out.extend_from_slice(if over {
            b"\"over?\":true,\"...result?\":"
        } else {
            b"\"over?\":false,\"...result?\":"
        });
        out.extend_from_slice(match result {
            None => b"null,",
            Some(true) => b"true,",
            Some(false) => b"false,",
        });
    }

    /// Closes an array whose elements `items` holds (`[` before the first, `,`
    /// between): `[]` when it has none.
    pub(crate) fn close(out: &mut Vec<u8>, items: &[u8]) {
        if items.is_empty() {
            out.push(b'[');
        } else {
            out.extend_from_slice(items);
        }
        out.push(b']');
    }
}

/// Tag list as `[[name, value], ...]`, serialised straight from a game model's tags
/// (`pair` gives a tag's name and value): the bytes of [`tags_value`]'s value.
pub(crate) struct TagsOut<'a, T>(pub(crate) &'a [T], pub(crate) fn(&T) -> (&str, &str));

impl<T> serde::Serialize for TagsOut<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|t| {
            let (n, v) = (self.1)(t);
            [n, v]
        }))
    }
}

/// A `...pgn` block that could not be serialised (cannot happen: every map key of a
/// block is a string).
pub(crate) fn block_error(e: serde_json::Error) -> ConvertError {
    ConvertError::Extension {
        key: PGN_KEY.to_owned(),
        reason: e.to_string(),
    }
}

/// Reads `[[name, value], ...]`.
pub(crate) fn tags_of(v: &Value) -> Option<Vec<(String, String)>> {
    v.as_array()?
        .iter()
        .map(|p| {
            let p = p.as_array()?;
            match p.as_slice() {
                [Value::String(n), Value::String(v)] => Some((n.clone(), v.clone())),
                _ => None,
            }
        })
        .collect()
}

/// Small JSON texts (a move's actions, a half-move's entry) written with fixed-size
/// stores into a block of bytes, which is appended to the output and cut back to its
/// length: one capacity test a move, no copy of a variable length, where a push per
/// part cost as much as resolving the move. Each writer stores at `buf[n..]` and
/// returns the length after what it wrote; stores may run past it (pads that the next
/// store overwrites, or that the cut removes). The block is either the end of the
/// output itself ([`block::write`]) or a buffer that is then copied ([`block::put`],
/// reused from move to move by the C'escacs writer).
pub(crate) mod block {
    /// The numbers below 1000 as text, each padded to three bytes.
    const DIGITS: [[u8; 3]; 1000] = {
        let mut t = [[b' '; 3]; 1000];
        let mut i = 0;
        while i < 1000 {
            t[i] = if i >= 100 {
                [
                    b'0' + (i / 100) as u8,
                    b'0' + (i / 10 % 10) as u8,
                    b'0' + (i % 10) as u8,
                ]
            } else if i >= 10 {
                [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8, b' ']
            } else {
                [b'0' + i as u8, b' ', b' ']
            };
            i += 1;
        }
        t
    };

    /// Appends `buf[..n]` to `out`.
    #[inline(always)]
    pub(crate) fn put<const N: usize>(out: &mut Vec<u8>, buf: &[u8; N], n: usize) {
        out.extend_from_slice(buf);
        out.truncate(out.len() - (N - n));
    }

    /// Writes a block straight into the end of `out`: `fill` stores into `N` zeroed
    /// bytes appended to `out` and returns the length it wrote, the rest is cut off.
    /// Unlike a stack buffer and [`put`], nothing is read back right after the small
    /// stores that wrote it (a wide load of bytes just stored a few at a time stalls
    /// until they reach the cache: a third of the direct chess writer's move time).
    #[inline(always)]
    pub(crate) fn write<const N: usize>(
        out: &mut Vec<u8>,
        fill: impl FnOnce(&mut [u8; N]) -> usize,
    ) {
        let start = out.len();
        out.resize(start + N, 0);
        let buf: &mut [u8; N] = (&mut out[start..]).try_into().expect("N bytes appended");
        let n = fill(buf);
        out.truncate(start + n);
    }

    /// `v` in decimal (at most 20 bytes).
    #[inline(always)]
    pub(crate) fn uint<const N: usize>(buf: &mut [u8; N], n: usize, v: u64) -> usize {
        if v < 1000 {
            buf[n..n + 3].copy_from_slice(&DIGITS[v as usize]);
            n + 1 + usize::from(v >= 10) + usize::from(v >= 100)
        } else {
            long_uint(buf, n, v)
        }
    }

    #[inline(never)]
    fn long_uint<const N: usize>(buf: &mut [u8; N], n: usize, v: u64) -> usize {
        let (digits, start) = super::decimal(v);
        let len = digits.len() - start;
        buf[n..n + len].copy_from_slice(&digits[start..]);
        n + len
    }

    /// The action `[from,"remove",to]` (a capture) or `[from,"shift",to]`, cells below
    /// 1000 (at most 19 bytes).
    #[inline(always)]
    pub(crate) fn action<const N: usize>(
        buf: &mut [u8; N],
        n: usize,
        from: usize,
        remove: bool,
        to: usize,
    ) -> usize {
        buf[n] = b'[';
        let n = uint(buf, n + 1, from as u64);
        // The shorter name is padded to the same ten bytes; the pad is overwritten.
        let (name, len) = if remove {
            (b",\"remove\",", 10)
        } else {
            (b",\"shift\", ", 9)
        };
        buf[n..n + 10].copy_from_slice(name);
        let n = uint(buf, n + len, to as u64);
        buf[n] = b']';
        n + 1
    }

    /// A move of one plain action, `[[from,"shift",to]]` or `[[from,"remove",to]]`
    /// preceded by `sep` (`[` before a line's first move, else `,`).
    #[inline(always)]
    pub(crate) fn one_action_move(
        out: &mut Vec<u8>,
        sep: u8,
        from: usize,
        remove: bool,
        to: usize,
    ) {
        write::<24>(out, |buf| {
            buf[..2].copy_from_slice(&[sep, b'[']);
            let n = action(buf, 2, from, remove, to);
            buf[n] = b']';
            n + 1
        });
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn numbers_and_actions_are_serde_json_s() {
            for v in [0u64, 7, 9, 10, 99, 100, 999, 1000, 54_321, u64::MAX] {
                let mut buf = [b'x'; 32];
                let n = super::uint(&mut buf, 1, v);
                let mut out = Vec::new();
                super::put(&mut out, &buf, n);
                assert_eq!(out[1..], *serde_json::to_string(&v).unwrap().as_bytes());
            }
            for (from, remove, to) in [(0, false, 63), (12, true, 8), (168, false, 100)] {
                let mut buf = [0u8; 32];
                let n = super::action(&mut buf, 0, from, remove, to);
                let verb = if remove { "remove" } else { "shift" };
                assert_eq!(&buf[..n], format!("[{from},\"{verb}\",{to}]").as_bytes());
            }
        }
    }
}

pub(crate) fn strings_value(v: &[String]) -> Value {
    Value::Array(v.iter().map(|s| Value::String(s.clone())).collect())
}

pub(crate) fn strings_of(v: Option<&Value>) -> Option<Vec<String>> {
    match v {
        None => Some(Vec::new()),
        Some(v) => v
            .as_array()?
            .iter()
            .map(|s| s.as_str().map(str::to_owned))
            .collect(),
    }
}

/// Warnings for document parts no game record can hold; `known` lists the extension
/// keys the caller consumes.
pub(crate) fn foreign_parts(g: &pcn::Game, known: &[&str], warnings: &mut Vec<Warning>) {
    if g.cache.is_some() {
        warnings.push(Warning::DroppedCache);
    }
    for k in g.extensions.keys() {
        if !known.contains(&k.as_str()) {
            warnings.push(Warning::DroppedExtension(k.clone()));
        }
    }
}

/// The `...pgn` block of a document, if present and an object.
pub(crate) fn pgn_block(g: &pcn::Game) -> Result<Option<&Map<String, Value>>, ConvertError> {
    match g.extensions.get(PGN_KEY) {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(_) => Err(ConvertError::Extension {
            key: PGN_KEY.into(),
            reason: "not an object".into(),
        }),
    }
}

/// `...first_to_move` as a boolean "the top side moves first".
pub(crate) fn top_first(g: &pcn::Game) -> Result<bool, ConvertError> {
    match g.extensions.get("...first_to_move") {
        None => Ok(false),
        Some(Value::String(s)) if s == "bottom" => Ok(false),
        Some(Value::String(s)) if s == "top" => Ok(true),
        Some(v) => Err(ConvertError::Extension {
            key: "...first_to_move".into(),
            reason: format!("expected \"top\" or \"bottom\", found {v}"),
        }),
    }
}

/// Index of each ply's annotation entry (`{"ply": n, ...}`) in a list.
pub(crate) fn by_ply(
    list: Option<&Value>,
    warnings: &mut Vec<Warning>,
) -> std::collections::BTreeMap<usize, Map<String, Value>> {
    let mut out = std::collections::BTreeMap::new();
    let Some(list) = list else { return out };
    let Some(items) = list.as_array() else {
        warnings.push(Warning::IgnoredAnnotation(
            "annotations is not an array".into(),
        ));
        return out;
    };
    for it in items {
        match (it.as_object(), it.get("ply").and_then(Value::as_u64)) {
            (Some(o), Some(p)) => {
                out.insert(p as usize, o.clone());
            }
            _ => warnings.push(Warning::IgnoredAnnotation(format!(
                "annotation without a ply: {it}"
            ))),
        }
    }
    out
}

/// Warnings for keys of a carried object that the converter does not read.
pub(crate) fn unknown_keys(
    map: &Map<String, Value>,
    known: &[&str],
    at: &str,
    warnings: &mut Vec<Warning>,
) {
    for (k, v) in map {
        if !known.contains(&k.as_str()) {
            warnings.push(Warning::Dropped(format!("{at} key {k:?} ({v})")));
        }
    }
}

/// Warnings for the `...` options of actions: moves are matched by their effect on the
/// board, so nothing of an action but its effect reaches the record.
pub(crate) fn option_extensions(moves: &[Move], path: &str, warnings: &mut Vec<Warning>) {
    for (i, m) in moves.iter().enumerate() {
        for (j, a) in m.0.iter().enumerate() {
            for (k, v) in a.options.iter().flat_map(|o| &o.extensions) {
                warnings.push(Warning::Dropped(format!(
                    "{path}[{i}][{j}] option {k:?} ({v})"
                )));
            }
        }
    }
}

/// `started_at` back into tags. A document whose carried tags give the same timestamp
/// (what `to_pcn` writes) needs nothing. Without date tags, a UTC (`…Z`) timestamp
/// becomes `UTCDate`/`UTCTime` and one without a zone `Date`/`Time`; any other form
/// (an offset, fractions) or a contradiction with the carried tags is reported.
pub(crate) fn started_at_tags(
    doc: &pcn::Game,
    tags: &[(&str, &str)],
    warnings: &mut Vec<Warning>,
) -> Vec<(String, String)> {
    let Some(at) = doc.started_at.as_deref() else {
        return Vec::new();
    };
    if started_at(tags).as_deref() == Some(at) {
        return Vec::new();
    }
    let dated = tags
        .iter()
        .any(|(n, _)| matches!(*n, "Date" | "UTCDate" | "Time" | "UTCTime"));
    let (body, utc) = match at.strip_suffix('Z') {
        Some(b) => (b, true),
        None => (at, false),
    };
    let b = body.as_bytes();
    let plain = b.len() == 19
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b.iter()
            .enumerate()
            .all(|(i, c)| matches!(i, 4 | 7 | 10 | 13 | 16) || c.is_ascii_digit());
    if dated || !plain {
        let why = if dated {
            "differs from the carried date tags, which are kept"
        } else {
            "has no PGN date/time tag form"
        };
        warnings.push(Warning::Dropped(format!("started_at {at:?} ({why})")));
        return Vec::new();
    }
    let date = body[..10].replace('-', ".");
    let time = body[11..].to_string();
    let (d, t) = if utc {
        ("UTCDate", "UTCTime")
    } else {
        ("Date", "Time")
    };
    vec![(d.to_string(), date), (t.to_string(), time)]
}

/// Checks a document's board for a game: its shape, and that every piece is of the
/// game's style, not promoted, and one of its kinds (`unit` names a square: "square",
/// "cell").
pub(crate) fn check_board(
    b: &pcn::Board,
    shape: &[usize],
    style: &str,
    is_kind: impl Fn(&str) -> bool,
    unit: &str,
    game: &str,
) -> Result<(), ConvertError> {
    if b.shape() != shape {
        return Err(ConvertError::Board(format!(
            "shape {:?} is not {shape:?}",
            b.shape()
        )));
    }
    for (i, p) in b.pieces() {
        if !p.style().eq_ignore_ascii_case(style) || p.is_promoted() || !is_kind(p.abbreviation()) {
            return Err(ConvertError::Board(format!(
                "{unit} {i}: {p} is not {game}"
            )));
        }
    }
    Ok(())
}

/// What every import does first, once the board is known to fit: warnings for the parts
/// no record holds (cache, foreign extensions, action options, unread `...pgn` keys),
/// and the `...pgn` block (empty when absent).
pub(crate) fn import_block(
    doc: &pcn::Game,
    known_extensions: &[&str],
    block_keys: &[&str],
    warnings: &mut Vec<Warning>,
) -> Result<Map<String, Value>, ConvertError> {
    foreign_parts(doc, known_extensions, warnings);
    option_extensions(&doc.previous_moves, "previous_moves", warnings);
    let block = pgn_block(doc)?.cloned().unwrap_or_default();
    unknown_keys(&block, block_keys, PGN_KEY, warnings);
    Ok(block)
}

/// Refuses a `...pgn` block that names a game other than the converter's own: its
/// `variant` key (`variant` read as a `Variant` tag's value) or a carried `Variant` or
/// `Game` tag for which `names_another_game` holds. Read as the game its board shape
/// suggests, another game's moves would be invented or lost (issue 26, case 6).
pub(crate) fn refuse_other_game(
    block: &Map<String, Value>,
    tags: &[(String, String)],
    names_another_game: impl Fn(&str, &str) -> bool,
    known: &'static str,
) -> Result<(), ConvertError> {
    if let Some(v) = block.get("variant") {
        let name = v.as_str().map_or_else(|| v.to_string(), str::to_string);
        if names_another_game("Variant", &name) {
            return Err(ConvertError::UnsupportedVariant {
                key: format!("{PGN_KEY} variant"),
                name,
                known,
            });
        }
    }
    match tags.iter().find(|(n, v)| names_another_game(n, v)) {
        Some((n, v)) => Err(ConvertError::UnsupportedVariant {
            key: format!("{PGN_KEY} tags {n}"),
            name: v.clone(),
            known,
        }),
        None => Ok(()),
    }
}

/// The carried tags of a `...pgn` block (none when absent).
pub(crate) fn block_tags(
    block: &Map<String, Value>,
) -> Result<Vec<(String, String)>, ConvertError> {
    match block.get("tags") {
        Some(t) => tags_of(t).ok_or_else(|| ConvertError::Extension {
            key: PGN_KEY.into(),
            reason: "tags is not a list of [name, value] pairs".into(),
        }),
        None => Ok(Vec::new()),
    }
}

/// The start position written in a string extension (`...fen`, `...tlpd`), checked
/// against `starting_position`; `None` when the document has none.
pub(crate) fn start_extension<P>(
    doc: &pcn::Game,
    key: &str,
    parse: impl Fn(&str) -> Result<P, String>,
    board_of: impl Fn(&P) -> Board,
) -> Result<Option<(P, String)>, ConvertError> {
    match doc.extensions.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => {
            let p = parse(s).map_err(|reason| ConvertError::Extension {
                key: key.into(),
                reason,
            })?;
            if board_of(&p) != doc.starting_position {
                return Err(ConvertError::Extension {
                    key: key.into(),
                    reason: "placement differs from starting_position".into(),
                });
            }
            Ok(Some((p, s.clone())))
        }
        Some(v) => Err(ConvertError::Extension {
            key: key.into(),
            reason: format!("not a string: {v}"),
        }),
    }
}

/// The FEN placement field of a rectangular board (`rows` × `cols`, row 0 first);
/// `letter` gives a piece's FEN letter (cased by side), `None` for an empty square.
pub(crate) fn fen_placement(
    b: &Board,
    rows: usize,
    cols: usize,
    letter: impl Fn(&pcn::Piece) -> Option<String>,
) -> String {
    let mut fen = String::new();
    for row in 0..rows {
        let mut empty = 0;
        for col in 0..cols {
            match b.get(row * cols + col).and_then(&letter) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push_str(&c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if row + 1 < rows {
            fen.push('/');
        }
    }
    fen
}

/// The result a document's status states, through the game's own three results; a draw
/// proposal (no result token) is an unfinished game, a tag `XDrawOffer` and a warning.
pub(crate) fn status_result<R>(
    status: pcn::Status,
    [bottom_won, top_won, draw, unfinished]: [R; 4],
    tags: &mut Vec<(String, String)>,
    warnings: &mut Vec<Warning>,
) -> R {
    match status {
        pcn::Status::BottomWon => bottom_won,
        pcn::Status::TopWon => top_won,
        pcn::Status::Draw => draw,
        pcn::Status::InProgress => unfinished,
        pcn::Status::TopProposesDraw | pcn::Status::BottomProposesDraw => {
            let who = if status == pcn::Status::TopProposesDraw {
                "top"
            } else {
                "bottom"
            };
            warnings.push(Warning::DrawOffer(who, "XDrawOffer"));
            if !tags.iter().any(|(n, _)| n == "XDrawOffer") {
                tags.push(("XDrawOffer".into(), who.into()));
            }
            unfinished
        }
    }
}

/// Puts a document's player name into the tags: the first tag `is_tag` accepts takes
/// it (with a warning when it said otherwise), else a tag `label` is added.
pub(crate) fn set_player(
    tags: &mut Vec<(String, String)>,
    label: &'static str,
    is_tag: impl Fn(&str) -> bool,
    player: Option<&String>,
    warnings: &mut Vec<Warning>,
) {
    let Some(p) = player else { return };
    match tags.iter_mut().find(|(n, _)| is_tag(n)) {
        Some((_, v)) if v != p => {
            *v = p.clone();
            warnings.push(Warning::PlayerOverride(label));
        }
        Some(_) => {}
        None => tags.push((label.into(), p.clone())),
    }
}

/// [`set_player`] for the `White` (bottom) and `Black` (top) tags, matched exactly.
pub(crate) fn set_white_black(
    tags: &mut Vec<(String, String)>,
    doc: &pcn::Game,
    warnings: &mut Vec<Warning>,
) {
    let bottom = doc.bottomside_player.as_ref();
    set_player(tags, "White", |n| n == "White", bottom, warnings);
    let top = doc.topside_player.as_ref();
    set_player(tags, "Black", |n| n == "Black", top, warnings);
}
