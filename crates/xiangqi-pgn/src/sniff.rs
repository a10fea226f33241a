//! Is this xiangqi? Recognised from what xiangqi files say (tags, start positions and
//! move texts), never from the share of high bytes: a classic chess PGN with Cyrillic
//! or Chinese names is still chess.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::encoding::{TextEncoding, decode_as, detect};
use crate::lexer::{TokKind, classify_word, is_tag_line};
use crate::notation::{Notation, TokenKind, classify, fold_fullwidth};

/// Tokens looked at: the first games of a file are enough.
const MAX_TOKENS: usize = 4000;

/// Evidence found in the head of a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Points for xiangqi: tags (`Game "Chinese Chess"`, `Format`, `Red`, a 9×10 FEN)
    /// and moves only xiangqi writes (Chinese `炮二平五`, WXF `C2.5`, ICCS `h2e2` with
    /// file `i` or rank `0`/`9`).
    pub xiangqi: u32,
    /// Points for classic chess: an 8×8 FEN, `ECO`, SAN with a queen, castling or
    /// promotion.
    pub chess: u32,
}

impl Evidence {
    /// A confidence in 0..=100 that the text is xiangqi.
    pub fn confidence(&self) -> u8 {
        if self.xiangqi == 0 {
            return 0;
        }
        let total = (self.xiangqi + self.chess) as f64;
        let share = self.xiangqi as f64 / total;
        let strength = (self.xiangqi.min(10) as f64) / 10.0;
        (100.0 * share * strength).round() as u8
    }
}

/// Decodes a file's first bytes, tolerating a multi-byte character cut at the end
/// (borrowed when they are UTF-8, as nearly all files are).
fn decode_head(head: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(head) {
        Ok(s) => Cow::Borrowed(s),
        Err(e) if e.error_len().is_none() => {
            // Valid UTF-8 cut in the middle of a character.
            String::from_utf8_lossy(&head[..e.valid_up_to()])
        }
        Err(_) => {
            let d = detect(head);
            let enc = match d.encoding {
                TextEncoding::Utf8 | TextEncoding::Utf8Bom => TextEncoding::Utf8,
                e => e,
            };
            Cow::Owned(decode_as(head, enc))
        }
    }
}

/// A Chinese move text in the strict shape `炮二平五` / `马8进7` / `前车进一`.
fn is_chinese_move(t: &str) -> bool {
    let c: Vec<char> = fold_fullwidth(t)
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .collect();
    const PIECES: &str = "车車俥马馬傌炮砲包兵卒帅帥将將仕士相象";
    const NUMS: &str = "一二三四五六七八九123456789";
    const PLACES: &str = "前后後中一二三四五";
    c.len() == 4
        && "进進退平".contains(c[2])
        && NUMS.contains(c[3])
        && (PIECES.contains(c[0]) || PLACES.contains(c[0]))
        && (NUMS.contains(c[1]) || PIECES.contains(c[1]))
}

/// Points `(xiangqi, chess)` of one tag (name full-width folded, value unescaped).
fn tag_points(name: &str, value: &str) -> (u32, u32) {
    let n = name.to_ascii_lowercase();
    let v = || value.trim().to_ascii_lowercase();
    match n.as_str() {
        "game" | "variant" => {
            let v = v();
            if v.contains("chinese chess") || v.contains("xiangqi") {
                (10, 0)
            } else if v == "chess" || v == "standard" || v.contains("960") {
                (0, 10)
            } else {
                (0, 0)
            }
        }
        "format" if Notation::from_name(value).is_some() => (5, 0),
        "red" | "redteam" | "redelo" | "redclock" => (3, 0),
        "ecco" => (3, 0),
        "eco" => (0, 3),
        "fen" => {
            let board = value.split_whitespace().next().unwrap_or("");
            match board.split('/').count() {
                10 => (10, 0),
                8 => (0, 10),
                _ => (0, 0),
            }
        }
        _ => (0, 0),
    }
}

/// Points `(xiangqi, chess)` of one move token.
fn move_points(w: &str) -> (u32, u32) {
    if w.chars().count() > crate::lexer::MAX_MOVE_CHARS {
        return (0, 0);
    }
    // An ASCII word is its own full-width folding, and no Chinese move (whose third
    // character is 进, 退 or 平).
    let f = if w.is_ascii() {
        Cow::Borrowed(w)
    } else if is_chinese_move(w) {
        return (2, 0);
    } else {
        Cow::Owned(fold_fullwidth(w))
    };
    match classify(&f) {
        Some(TokenKind::Wxf) if f.chars().count() == 4 => (2, 0),
        Some(TokenKind::Coordinates | TokenKind::CoordinatesRank10) => {
            let l = f.to_ascii_lowercase();
            // Chess coordinates stay within a-h and 1-8.
            if l.contains(['i', '0', '9']) {
                (2, 0)
            } else {
                (0, 0)
            }
        }
        _ => {
            // R, N, B, K and pawn moves are written alike in both games'
            // SAN; a queen, castling or a promotion is chess, a cannon,
            // elephant, advisor or horse letter (WinBoard) is xiangqi.
            let b = f.as_bytes();
            let chess_san = f.starts_with("O-O")
                || f.contains("=Q")
                || (b.first() == Some(&b'Q') && b.len() >= 3);
            let xq_san = b.len() >= 3
                && b"CHEA".contains(&b[0])
                && b[1..].iter().any(|c| (b'a'..=b'i').contains(c))
                && b[b.len() - 1].is_ascii_digit();
            if chess_san {
                (0, 1)
            } else if xq_san {
                (1, 0)
            } else {
                (0, 0)
            }
        }
    }
}

/// The tokens the lexer makes of one word of movetext (a move number, a move, a
/// result, a glyph: at most three) and the points of each; a pure function of the
/// word, so that a word met again (`e4`, `Nf3`, `12.`) is looked up, not redone.
#[derive(Debug, Clone, Copy, Default)]
struct WordPoints {
    tokens: u8,
    points: [(u32, u32); 3],
}

fn word_points(w: &str) -> WordPoints {
    let mut out = WordPoints::default();
    classify_word(w, |kind, _| {
        let p = match kind {
            TokKind::Move(m) => move_points(m),
            _ => (0, 0),
        };
        if let Some(slot) = out.points.get_mut(usize::from(out.tokens)) {
            *slot = p;
        }
        out.tokens = out.tokens.saturating_add(1);
    });
    out
}

/// FNV-1a: words are short and hashed once each; the standard hasher costs more than
/// the lookup saves. Collisions only cost a comparison.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// The char at byte `pos` of `text` (a char boundary below its length).
fn char_at(text: &str, pos: usize) -> Option<char> {
    match text.as_bytes().get(pos) {
        Some(&b) if b < 0x80 => Some(char::from(b)),
        Some(_) => text[pos..].chars().next(),
        None => None,
    }
}

/// The first line break at or after `pos` (the end when none): where a rest-of-line
/// token (`%` escape, `;` comment, unreadable tag) stops.
fn eol(bytes: &[u8], pos: usize) -> usize {
    bytes[pos..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(bytes.len(), |n| pos + n)
}

/// Steps over the head's tokens exactly as the xiangqi lexer makes them, up to
/// [`MAX_TOKENS`]: `tag` is given each `[` token's position and returns where the token
/// ends; `word` is given each word of movetext and the tokens still allowed, and
/// returns how many tokens it counts for. Everything else (comments, escapes,
/// brackets) is only stepped over.
fn walk<'a>(
    text: &'a str,
    mut tag: impl FnMut(usize) -> usize,
    mut word: impl FnMut(&'a str, usize) -> usize,
) {
    let bytes = text.as_bytes();
    let mut tokens = 0;
    let mut pos = 0;
    while tokens < MAX_TOKENS {
        let Some(ch) = char_at(text, pos) else {
            break;
        };
        if ch.is_whitespace() || ch == '\u{feff}' {
            // A CRLF is two bytes of whitespace here; the lexer steps it as one.
            pos += ch.len_utf8();
            continue;
        }
        // Column 1: the start of the text or just after a line break.
        let line_start = pos == 0 || matches!(bytes[pos - 1], b'\n' | b'\r');
        tokens += 1;
        match ch {
            '%' if line_start => pos = eol(bytes, pos + 1),
            '[' => pos = tag(pos),
            '{' => pos = brace_comment_end(text, pos),
            ';' => pos = eol(bytes, pos + 1),
            '(' | ')' | ']' | '}' => pos += 1,
            _ => {
                tokens -= 1;
                let start = pos;
                // ASCII a byte at a time; no other character is a bracket.
                while let Some(&b) = bytes.get(pos) {
                    if b < 0x80 {
                        if ends_word(b) {
                            break;
                        }
                        pos += 1;
                    } else {
                        match char_at(text, pos) {
                            Some(x) if !x.is_whitespace() => pos += x.len_utf8(),
                            _ => break,
                        }
                    }
                }
                tokens += word(&text[start..pos], MAX_TOKENS - tokens);
            }
        }
    }
}

/// Whether an ASCII byte ends a word of movetext: white space (as
/// [`char::is_whitespace`] has it) or one of `{ } ( ) [ ] ;`.
fn ends_word(b: u8) -> bool {
    matches!(
        b,
        b'\t'..=b'\r' | b' ' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';'
    )
}

/// Collects the evidence of a file's head (its first few kilobytes are enough).
///
/// The head is read token by token exactly as the xiangqi lexer reads it (the same
/// tokens, the same first 4,000 of them), but the tokens that carry no
/// evidence are only stepped over, and each distinct word is classified once.
pub fn evidence(head: &[u8]) -> Evidence {
    let text = decode_head(head);
    let text: &str = &text;
    let mut words: HashMap<&str, WordPoints, BuildHasherDefault<Fnv>> = HashMap::default();
    let mut ev = Evidence::default();
    let mut add = |(x, c): (u32, u32)| {
        ev.xiangqi += x;
        ev.chess += c;
    };
    // Both closures add to `ev`: the tags' points go through a cell of their own.
    let tags = std::cell::Cell::new((0u32, 0u32));
    walk(
        text,
        |pos| {
            let (next, tag) = read_tag(text, pos);
            if let Some((name, value)) = tag {
                let (x, c) = tag_points(&name, &value);
                let (tx, tc) = tags.get();
                tags.set((tx + x, tc + c));
            }
            next
        },
        |w, left| {
            let p = *words.entry(w).or_insert_with(|| word_points(w));
            let n = usize::from(p.tokens).min(left);
            for &p in &p.points[..n.min(p.points.len())] {
                add(p);
            }
            n
        },
    );
    let (tx, tc) = tags.get();
    ev.xiangqi += tx;
    ev.chess += tc;
    ev
}

/// Tag names that can carry xiangqi points (see [`tag_points`]), lowercase.
const XIANGQI_TAG_NAMES: [&[u8]; 9] = [
    b"game",
    b"variant",
    b"format",
    b"red",
    b"redteam",
    b"redelo",
    b"redclock",
    b"ecco",
    b"fen",
];

/// Whether an ASCII word is plain chess movetext that [`word_points`] gives no xiangqi
/// point: an optional move number (`12.`, `12...`), a SAN move (`Nf3`, `exd5`,
/// `Qh4xe1+`, `e8=Q#`, `O-O-O`) and optional `!`/`?` glyphs; or a result, a numeric
/// NAG or a bare move number. Nearly every word of a classic file is one of these; its
/// points are then known without classifying it (the test
/// `plain_words_carry_no_xiangqi_point` holds this to [`word_points`]).
fn plain_chess_word(w: &[u8]) -> bool {
    if matches!(w, b"1-0" | b"0-1" | b"1/2-1/2" | b"*") {
        return true;
    }
    if let [b'$', rest @ ..] = w {
        return !rest.is_empty() && rest.iter().all(u8::is_ascii_digit);
    }
    let digits = w.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = w[digits..].iter().take_while(|&&b| b == b'.').count();
    if digits > 0 && dots == 0 {
        return false;
    }
    let mut body = &w[digits + dots..];
    if body.is_empty() {
        return digits > 0;
    }
    while let [rest @ .., b'!' | b'?'] = body {
        body = rest;
    }
    if let [rest @ .., b'+' | b'#'] = body {
        body = rest;
    }
    plain_san(body)
}

/// A SAN move without check mark or glyph: castling, or `[KQRBN]` with an optional
/// file, rank or square of departure, optional `x`, a square and (pawns only) an
/// optional `=Q`/`=R`/`=B`/`=N`.
fn plain_san(b: &[u8]) -> bool {
    let file = |c: &u8| (b'a'..=b'h').contains(c);
    let rank = |c: &u8| (b'1'..=b'8').contains(c);
    if matches!(b, b"O-O" | b"O-O-O") {
        return true;
    }
    let (piece, b) = match b {
        [b'K' | b'Q' | b'R' | b'B' | b'N', rest @ ..] => (true, rest),
        _ => (false, b),
    };
    let (b, promotion) = match b {
        [rest @ .., b'=', b'Q' | b'R' | b'B' | b'N'] if !piece => (rest, true),
        _ => (b, false),
    };
    let [from @ .., f, r] = b else {
        return false;
    };
    if !file(f) || !rank(r) {
        return false;
    }
    if promotion && !matches!(r, b'1' | b'8') {
        return false;
    }
    let (from, capture) = match from {
        [rest @ .., b'x'] => (rest, true),
        _ => (from, false),
    };
    match from {
        [] => piece || !capture,
        [c] => (file(c) && (piece || capture)) || (piece && rank(c)),
        [c, d] => piece && file(c) && rank(d),
        _ => false,
    }
}

/// An upper bound of [`evidence`]'s xiangqi points, found on the same tokens at a
/// fraction of the cost: plain chess words ([`plain_chess_word`]) and tags whose ASCII
/// name carries no xiangqi point count nothing without being classified or decoded;
/// every other word and tag counts all its xiangqi points. Words are counted as one
/// token each (a word makes one to three), so the bound looks at least as far as the
/// evidence does.
fn xiangqi_bound(text: &str) -> u32 {
    let mut words: HashMap<&str, u32, BuildHasherDefault<Fnv>> = HashMap::default();
    let mut bound = 0;
    let tags = std::cell::Cell::new(0u32);
    walk(
        text,
        |pos| {
            let (next, name) = tag_extent(text, pos);
            let Some((name, _)) = name else {
                return next;
            };
            let quiet = name.is_ascii()
                && !XIANGQI_TAG_NAMES
                    .iter()
                    .any(|n| n.eq_ignore_ascii_case(name.as_bytes()));
            if !quiet && let (_, Some((name, value))) = read_tag(text, pos) {
                tags.set(tags.get() + tag_points(&name, &value).0);
            }
            next
        },
        |w, _| {
            if w.is_ascii() && plain_chess_word(w.as_bytes()) {
                return 1;
            }
            bound += *words.entry(w).or_insert_with(|| {
                let p = word_points(w);
                p.points.iter().map(|&(x, _)| x).sum()
            });
            1
        },
    );
    bound + tags.get()
}

/// A tag's name as written and the byte range of its raw value.
type TagAt<'a> = (&'a str, (usize, usize));

/// Where the `[` token at `pos` ends as the lexer reads it, and, when it is a tag, its
/// name as written and the byte range of its raw value.
fn tag_extent(text: &str, pos: usize) -> (usize, Option<TagAt<'_>>) {
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut pos = pos + 1;
    while matches!(bytes.get(pos), Some(b' ' | b'\t')) {
        pos += 1;
    }
    let name_start = pos;
    while let Some(x) = char_at(text, pos) {
        if x.is_whitespace() || x == '"' || x == ']' {
            break;
        }
        pos += x.len_utf8();
    }
    let name = &text[name_start..pos];
    while let Some(x @ (' ' | '\t' | '\u{3000}')) = char_at(text, pos) {
        pos += x.len_utf8();
    }
    if bytes.get(pos) != Some(&b'"') {
        return (eol(bytes, pos), None);
    }
    pos += 1;
    // The value ends at the quote followed by `]`, within two lines (see the lexer).
    let start = pos;
    let found = crate::lexer::tag_value_close(bytes, start, end);
    let Some((vend, close)) = found else {
        return (eol(bytes, pos), None);
    };
    (close + 1, Some((name, (start, vend))))
}

/// Reads the tag starting with the `[` at `pos` as the lexer does: where the token
/// ends, and the name (full-width folded) and value (unescaped) when it is a tag.
fn read_tag(text: &str, pos: usize) -> (usize, Option<(String, Cow<'_, str>)>) {
    let (next, tag) = tag_extent(text, pos);
    let Some((name, (start, vend))) = tag else {
        return (next, None);
    };
    let raw_value = &text[start..vend];
    let mut value = crate::lexer::unescape_tag_value(raw_value);
    if value.contains('\r') {
        value = Cow::Owned(value.replace("\r\n", "\n").replace('\r', "\n"));
    }
    (next, Some((fold_fullwidth(name), value)))
}

/// Where the brace comment starting with the `{` at `pos` ends as the lexer reads it:
/// after its `}`, or at the line break before a line that is a whole tag pair (an
/// unclosed comment), or at the end of the text.
fn brace_comment_end(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut j = pos + 1;
    while j < end {
        match bytes[j] {
            b'}' => return j + 1,
            b'\n' | b'\r' => {
                let next = if bytes[j] == b'\r' && bytes.get(j + 1) == Some(&b'\n') {
                    j + 2
                } else {
                    j + 1
                };
                let rest = &text[next.min(end)..];
                let line = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
                if is_tag_line(line) {
                    return j;
                }
                j = next;
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    end
}

/// How sure the text is xiangqi, 0..=100 (see [`evidence`]).
pub fn xiangqi_confidence(head: &[u8]) -> u8 {
    evidence(head).confidence()
}

/// True when the head of a file reads as xiangqi PGN: enough xiangqi tags or moves, and
/// clearly more of them than classic chess evidence. Chinese, WXF and ICCS moves are
/// recognised in UTF-8, GBK/GB18030 and Big5; a classic PGN with Cyrillic or Chinese
/// names (in UTF-8 or a legacy encoding) is not xiangqi.
///
/// ```
/// use xiangqi_pgn::looks_like_xiangqi;
/// assert!(looks_like_xiangqi("1. 炮二平五 马8进7 2. 马二进三 *".as_bytes()));
/// assert!(looks_like_xiangqi(b"1. C2.5 H8+7 2. H2+3 *"));
/// assert!(!looks_like_xiangqi("[White \"Каспаров\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *".as_bytes()));
/// ```
pub fn looks_like_xiangqi(head: &[u8]) -> bool {
    // A classic file is told by the bound alone: under 4 xiangqi points, the answer is
    // no whatever the chess points are.
    if xiangqi_bound(&decode_head(head)) < 4 {
        return false;
    }
    let ev = evidence(head);
    ev.xiangqi >= 4 && ev.xiangqi > 2 * ev.chess
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::{Lexer, Mark};

    /// The evidence as first written: every token built by the lexer, every move
    /// classified. [`evidence`] must give exactly this on every input.
    pub(crate) fn evidence_reference(head: &[u8]) -> Evidence {
        let text = decode_head(head).into_owned();
        let mut ev = Evidence::default();
        for t in Lexer::new(&text, Mark::origin(), text.len()).take(MAX_TOKENS) {
            match &t.kind {
                TokKind::Tag(name, value) => {
                    let n = name.to_ascii_lowercase();
                    let v = value.trim().to_ascii_lowercase();
                    match n.as_str() {
                        "game" | "variant"
                            if v.contains("chinese chess") || v.contains("xiangqi") =>
                        {
                            ev.xiangqi += 10
                        }
                        "game" | "variant"
                            if v == "chess" || v == "standard" || v.contains("960") =>
                        {
                            ev.chess += 10
                        }
                        "format" if Notation::from_name(value).is_some() => ev.xiangqi += 5,
                        "red" | "redteam" | "redelo" | "redclock" => ev.xiangqi += 3,
                        "ecco" => ev.xiangqi += 3,
                        "eco" => ev.chess += 3,
                        "fen" => {
                            let board = value.split_whitespace().next().unwrap_or("");
                            match board.split('/').count() {
                                10 => ev.xiangqi += 10,
                                8 => ev.chess += 10,
                                _ => {}
                            }
                        }
                        _ => {}
                    }
                }
                TokKind::Move(w) if w.chars().count() <= crate::lexer::MAX_MOVE_CHARS => {
                    if is_chinese_move(w) {
                        ev.xiangqi += 2;
                        continue;
                    }
                    let f = fold_fullwidth(w);
                    match classify(&f) {
                        Some(TokenKind::Wxf) if f.chars().count() == 4 => ev.xiangqi += 2,
                        Some(TokenKind::Coordinates | TokenKind::CoordinatesRank10) => {
                            let l = f.to_ascii_lowercase();
                            if l.contains(['i', '0', '9']) {
                                ev.xiangqi += 2;
                            }
                        }
                        _ => {
                            let b = f.as_bytes();
                            let chess_san = f.starts_with("O-O")
                                || f.contains("=Q")
                                || (b.first() == Some(&b'Q') && b.len() >= 3);
                            let xq_san = b.len() >= 3
                                && b"CHEA".contains(&b[0])
                                && b[1..].iter().any(|c| (b'a'..=b'i').contains(c))
                                && b[b.len() - 1].is_ascii_digit();
                            if chess_san {
                                ev.chess += 1;
                            } else if xq_san {
                                ev.xiangqi += 1;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        ev
    }

    /// Every file under `dir`, recursively.
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    fn agree(what: &dyn std::fmt::Display, head: &[u8]) {
        let ev = evidence_reference(head);
        assert_eq!(evidence(head), ev, "{what}");
        // The shortcut of `looks_like_xiangqi` never changes its answer.
        let bound = xiangqi_bound(&decode_head(head));
        assert!(bound >= ev.xiangqi, "{what}: bound {bound} < {ev:?}");
        assert_eq!(
            looks_like_xiangqi(head),
            ev.xiangqi >= 4 && ev.xiangqi > 2 * ev.chess,
            "{what}"
        );
    }

    /// Every SAN body `plain_san` takes: castling, pawn pushes, captures and
    /// promotions, and piece moves with every kind of departure.
    fn plain_bodies() -> Vec<String> {
        let squares: Vec<String> = (b'a'..=b'h')
            .flat_map(|f| (b'1'..=b'8').map(move |r| format!("{}{}", f as char, r as char)))
            .collect();
        let mut out = vec!["O-O".to_string(), "O-O-O".to_string()];
        for sq in &squares {
            let promotes = sq.ends_with('1') || sq.ends_with('8');
            let promotions: &[&str] = if promotes {
                &["", "=Q", "=R", "=B", "=N"]
            } else {
                &[""]
            };
            for p in promotions {
                out.push(format!("{sq}{p}"));
                for f in 'a'..='h' {
                    out.push(format!("{f}x{sq}{p}"));
                }
            }
            let froms = std::iter::once(String::new())
                .chain(('a'..='h').map(String::from))
                .chain(('1'..='8').map(String::from))
                .chain(squares.iter().cloned());
            for from in froms {
                for piece in ["K", "Q", "R", "B", "N"] {
                    for x in ["", "x"] {
                        out.push(format!("{piece}{from}{x}{sq}"));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn plain_words_carry_no_xiangqi_point() {
        const PREFIXES: [&str; 7] = ["", "1.", "9.", "12.", "123...", "7...", "1.."];
        const GLYPHS: [&str; 7] = ["", "!", "?", "!!", "??", "!?", "?!"];
        let bodies = plain_bodies();
        assert!(bodies.len() > 50_000, "{}", bodies.len());
        let xiangqi = |w: &str| -> u32 { word_points(w).points.iter().map(|p| p.0).sum() };
        for (i, body) in bodies.iter().enumerate() {
            for check in ["", "+", "#"] {
                // Every body with some number and glyph; the short ones (where a
                // four-character WXF word could hide) with all of them.
                let all = body.len() <= 3;
                for (j, prefix) in PREFIXES.iter().enumerate() {
                    for (k, glyph) in GLYPHS.iter().enumerate() {
                        if !all && (i + j + k) % 13 != 0 {
                            continue;
                        }
                        let w = format!("{prefix}{body}{check}{glyph}");
                        assert!(plain_chess_word(w.as_bytes()), "{w}");
                        assert_eq!(xiangqi(&w), 0, "{w}");
                    }
                }
            }
        }
        for w in [
            "1-0", "0-1", "1/2-1/2", "*", "$1", "$123", "1.", "12...", "7",
        ] {
            assert_eq!(plain_chess_word(w.as_bytes()), w != "7", "{w}");
            assert_eq!(xiangqi(w), 0, "{w}");
        }
        // What xiangqi files write is never plain, nor are chess spellings the SAN
        // grammar does not take (those go through the full classification).
        for w in [
            "C2.5", "H8+7", "+P.1", "66.7", "h2e2", "a10a9", "i0i1", "1.h2e2", "Ca3", "Ha3",
            "E3+5", "A4+5", "R1+1", "P7.6", "C25", "0-0", "0-0-0", "e9", "i2", "e4+7", "e4e5",
            "Qa9", "Kx", "xe4", "ee4", "e4x", "Bxxe4", "e7=Q", "Qe8=Q", "$", "$1a", "12", "1.e4e5",
            "e4!x", "Pe4", "Ne4++",
        ] {
            assert!(!plain_chess_word(w.as_bytes()), "{w}");
        }
    }

    #[test]
    fn the_bound_decides_plain_heads_and_leaves_the_rest_to_the_evidence() {
        let chess = "[Event \"Open\"]\n[White \"Каспаров\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\
                     1. e4 {炮二平五 in a comment} e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n";
        assert_eq!(xiangqi_bound(chess), 0);
        agree(&"chess", chess.as_bytes());
        // Each source of xiangqi points lifts the bound to the full count.
        for t in [
            "[Game \"Chinese Chess\"]\n1. e4 *",
            "[Ｒｅｄ \"x\"] [Red \"y\"] 1. e4 *",
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\"] *",
            "1. 炮二平五 马8进7 2. h2e2 C2.5 *",
            "1. Ca3 Ha3 Ea3 Aa3 *",
            "[ECCO \"A00\"] [Format \"WXF\"] *",
        ] {
            let ev = evidence(t.as_bytes());
            assert!(ev.xiangqi >= 4, "{t}: {ev:?}");
            assert_eq!(xiangqi_bound(t), ev.xiangqi, "{t}");
            agree(&t, t.as_bytes());
        }
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn every_test_file_and_its_cuts_agree_with_the_reference() {
        let mut all = Vec::new();
        files(&test_support::testdata(), &mut all);
        files(&test_support::shared_dir(), &mut all);
        all.sort();
        assert!(all.len() > 100, "{} files", all.len());
        let mut rng = test_support::Rng::new(0xe71d_e9ce);
        let mut seen = (0, 0);
        for p in &all {
            let bytes = std::fs::read(p).unwrap();
            let head = &bytes[..bytes.len().min(64 << 10)];
            let ev = evidence(head);
            agree(&p.display(), head);
            seen.0 += usize::from(ev.xiangqi > 0);
            seen.1 += usize::from(ev.chess > 0);
            // Cuts anywhere: in a tag, a comment, a word, a multi-byte character, a CRLF.
            let cuts = if head.len() < 4096 { 6 } else { 3 };
            for _ in 0..cuts {
                let from = rng.below(head.len().min(2048) + 1);
                let to = from + rng.below(head.len() - from + 1);
                agree(
                    &format_args!("{} [{from}..{to}]", p.display()),
                    &head[from..to],
                );
            }
        }
        // Both kinds of evidence were met (the comparison is not between zeros).
        assert!(seen.0 > 20 && seen.1 > 20, "{seen:?}");
    }

    #[test]
    fn random_soups_agree_with_the_reference() {
        // Pieces of every token kind, in any order, in several encodings' bytes.
        const PIECES: &[&str] = &[
            "[",
            "]",
            "{",
            "}",
            "(",
            ")",
            ";",
            "%",
            "\"",
            "\\",
            " ",
            "\t",
            "\n",
            "\r",
            "\r\n",
            "\u{feff}",
            "\u{3000}",
            "\u{a0}",
            "Game",
            "Variant",
            "Format",
            "FEN",
            "Red",
            "ECCO",
            "ECO",
            "Event",
            " \"Chinese Chess\"]",
            " \"chess\"]",
            " \"WXF\"]",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "8/8/8/8/8/8/8/8",
            "1.",
            "12...",
            "…",
            "1-0",
            "0-1",
            "1/2-1/2",
            "½-½",
            "*",
            "$1",
            "!?",
            "??",
            "炮二平五",
            "马8进7",
            "前车进一",
            "C2.5",
            "H8+7",
            "66.7",
            "+P.1",
            "h2e2",
            "a10a9",
            "i0i1",
            "e4",
            "Nf3",
            "O-O",
            "e8=Q",
            "Qh5",
            "Ca3",
            "Ｃ２．５",
            "ｈ２ｅ２",
            "ab",
            "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "é",
            "\u{1f600}",
        ];
        let mut rng = test_support::Rng::new(0x50c1_55ed);
        for case in 0..test_support::proptest_cases() * 64 {
            let mut s = String::new();
            for _ in 0..rng.below(80) {
                s.push_str(rng.pick_cloned(PIECES));
            }
            let mut bytes = s.into_bytes();
            // Now and then raw bytes: invalid UTF-8 (legacy encodings), a cut character.
            if rng.chance(30) {
                for _ in 0..1 + rng.below(6) {
                    let at = rng.below(bytes.len() + 1);
                    bytes.insert(at, 0x80 + rng.below(0x80) as u8);
                }
            }
            if rng.chance(20) && !bytes.is_empty() {
                bytes.truncate(rng.below(bytes.len()));
            }
            agree(
                &format_args!("case {case}: {:?}", String::from_utf8_lossy(&bytes)),
                &bytes,
            );
        }
        // More tokens than are looked at: the count must stop at the same token, even
        // inside a word that makes several (`1.e4!?`).
        for word in [
            "1.Qh5!? ",
            "1.Qh5 ",
            "Qh5!? ",
            "Qh5 ",
            "[ECO \"b\"] ",
            "1... ",
            "{c} ",
        ] {
            for pad in 0..4 {
                let text =
                    "* ".repeat(pad) + &word.repeat(MAX_TOKENS / 2 + 3) + "[Game \"xiangqi\"]";
                let ev = evidence(text.as_bytes());
                assert!(ev.chess > 0 || word.starts_with("1...") || word.starts_with('{'));
                agree(
                    &format_args!("{word:?} x many after {pad}"),
                    text.as_bytes(),
                );
            }
        }
        // Bytes of any value.
        for case in 0..test_support::proptest_cases() * 16 {
            let bytes: Vec<u8> = (0..rng.below(300)).map(|_| rng.below(256) as u8).collect();
            agree(&format_args!("random bytes {case}: {bytes:?}"), &bytes);
        }
    }

    #[test]
    fn small_texts_agree_with_the_reference() {
        for t in [
            "",
            "[",
            "[Game \"Chinese Chess\"]\n1. 炮二平五 马8进7 *",
            "%escape\n%x [FEN \"a/b\"]",
            "{unclosed\n[Event \"x\"]\n1. e4",
            "[Format \"WXF\"]\r\n1. C2.5 H8+7\r2. H2+3 *",
            "12.e4!? 13...Nf6?? 1-0 ½-½ $1 !! 1.h2e2 66.7 a10a9",
            "[Name\"v\\\"\"]  [ Red  \"x\r\ny\"] ]}()",
        ] {
            assert_eq!(
                evidence(t.as_bytes()),
                evidence_reference(t.as_bytes()),
                "{t:?}"
            );
        }
    }
}
