//! Tolerant reader: tokenises a decoded file, splits it into games, and replays every
//! move through the move generator.

use std::path::Path;

use xiangqi::{Position, parse_fen};

use crate::encoding::{TextEncoding, decode};
use crate::model::{Game, Line, MoveNode};
use crate::notation::{MoveError, Notation, TokenKind, classify, fold_fullwidth, resolve_any};

/// Why a game could not be read completely. Every variant names the file, the game
/// (1-based) and the line:column of the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    #[error(
        "{file}: game {game}, {line}:{col}: ply {ply}: expected a legal move, found {found:?} ({reason})"
    )]
    Move {
        file: String,
        game: usize,
        line: usize,
        col: usize,
        /// Plies replayed before this one.
        ply: usize,
        found: String,
        reason: String,
    },
    #[error("{file}: game {game}, {line}:{col}: expected a valid FEN, found {found:?} ({reason})")]
    Fen {
        file: String,
        game: usize,
        line: usize,
        col: usize,
        found: String,
        reason: String,
    },
    #[error("{file}: game {game}, {line}:{col}: expected {expected}, found {found:?}")]
    Syntax {
        file: String,
        game: usize,
        line: usize,
        col: usize,
        expected: String,
        found: String,
    },
}

/// Something tolerated while reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub game: usize,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// One game of a file: the game as far as it could be read, and the error that
/// stopped it, if any.
#[derive(Debug, Clone)]
pub struct GameRead {
    /// 1-based index in the file.
    pub index: usize,
    pub game: Game,
    pub error: Option<ReadError>,
    pub warnings: Vec<Warning>,
}

impl FileRead {
    /// Games whose main line replayed completely.
    pub fn ok_count(&self) -> usize {
        self.games.iter().filter(|g| g.is_ok()).count()
    }

    /// The errors of the games that did not replay, in file order.
    pub fn errors(&self) -> impl Iterator<Item = &ReadError> {
        self.games.iter().filter_map(|g| g.error.as_ref())
    }
}

impl GameRead {
    /// True when the whole main line replayed.
    pub fn is_ok(&self) -> bool {
        self.error.is_none()
    }
}

/// A whole file.
#[derive(Debug, Clone)]
pub struct FileRead {
    pub encoding: TextEncoding,
    pub games: Vec<GameRead>,
    /// Warnings outside any game (junk before the first game).
    pub warnings: Vec<Warning>,
}

/// Reads every game of `bytes`; `name` is used in error messages.
pub fn read_bytes(bytes: &[u8], name: &str) -> FileRead {
    let (text, encoding) = decode(bytes);
    let mut out = read_str(&text, name);
    out.encoding = encoding;
    out
}

/// Reads a file from disk.
pub fn read_path(path: &Path) -> std::io::Result<FileRead> {
    let bytes = std::fs::read(path)?;
    Ok(read_bytes(&bytes, &path.display().to_string()))
}

/// Reads already-decoded text.
pub fn read_str(text: &str, name: &str) -> FileRead {
    let toks = tokenize(text);
    let mut games = Vec::new();
    let mut file_warnings = Vec::new();
    for (i, chunk) in split_games(toks, &mut file_warnings)
        .into_iter()
        .enumerate()
    {
        games.push(build_game(chunk, i + 1, name));
    }
    FileRead {
        encoding: TextEncoding::Utf8,
        games,
        warnings: file_warnings,
    }
}

#[derive(Debug, Clone, PartialEq)]
enum TokKind {
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    Nag(String),
    Number,
    Result(String),
    Move(String),
    /// A `%` escape line (the text after the `%`).
    Escape(String),
    /// Unreadable text, with what was expected.
    Bad(&'static str),
}

#[derive(Debug, Clone)]
struct Tok {
    kind: TokKind,
    text: String,
    line: usize,
    col: usize,
    /// First token on its line (a `[` there starts a tag even inside movetext).
    line_start: bool,
}

struct Cursor<'a> {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
    _text: &'a str,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
}

fn is_result(w: &str) -> Option<&'static str> {
    Some(match w {
        "1-0" => "1-0",
        "0-1" => "0-1",
        "1/2-1/2" | "½-½" | "1/2" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

fn tokenize(text: &str) -> Vec<Tok> {
    // CRLF and lone CR (mixed in some files) both end a line.
    let norm = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut c = Cursor {
        chars: norm.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        _text: text,
    };
    let mut toks = Vec::new();
    let mut line_start = true;
    while let Some(ch) = c.peek() {
        if ch == '\n' {
            line_start = true;
            c.bump();
            continue;
        }
        if ch.is_whitespace() || ch == '\u{feff}' {
            c.bump();
            continue;
        }
        let (line, col) = (c.line, c.col);
        let push = |kind: TokKind, text: String, toks: &mut Vec<Tok>| {
            toks.push(Tok {
                kind,
                text,
                line,
                col,
                line_start,
            })
        };
        if ch == '%' && col == 1 {
            c.bump();
            let mut s = String::new();
            while c.peek().is_some_and(|x| x != '\n') {
                s.push(c.bump().unwrap_or(' '));
            }
            push(TokKind::Escape(s.clone()), format!("%{s}"), &mut toks);
            continue;
        }
        match ch {
            '[' => {
                c.bump();
                let (kind, raw) = read_tag(&mut c);
                push(kind, raw, &mut toks);
            }
            '{' => {
                c.bump();
                let mut s = String::new();
                let mut closed = false;
                while let Some(x) = c.bump() {
                    if x == '}' {
                        closed = true;
                        break;
                    }
                    s.push(x);
                }
                if closed {
                    push(TokKind::Comment(s.clone()), s, &mut toks);
                } else {
                    push(TokKind::Bad("a closing '}'"), format!("{{{s}"), &mut toks);
                }
            }
            ';' => {
                c.bump();
                let mut s = String::new();
                while c.peek().is_some_and(|x| x != '\n') {
                    s.push(c.bump().unwrap_or(' '));
                }
                push(TokKind::Comment(s.clone()), s, &mut toks);
            }
            '(' => {
                c.bump();
                push(TokKind::Open, "(".into(), &mut toks);
            }
            ')' => {
                c.bump();
                push(TokKind::Close, ")".into(), &mut toks);
            }
            ']' | '}' => {
                c.bump();
                push(TokKind::Bad("a move"), ch.to_string(), &mut toks);
            }
            _ => {
                let mut w = String::new();
                while let Some(x) = c.peek() {
                    if x.is_whitespace() || "{}()[];".contains(x) {
                        break;
                    }
                    w.push(x);
                    c.bump();
                }
                for (kind, t) in classify_word(&w) {
                    push(kind, t, &mut toks);
                }
            }
        }
        line_start = false;
    }
    toks
}

fn read_tag(c: &mut Cursor) -> (TokKind, String) {
    let mut name = String::new();
    while c.peek().is_some_and(|x| x == ' ' || x == '\t') {
        c.bump();
    }
    while let Some(x) = c.peek() {
        if x.is_whitespace() || x == '"' || x == ']' {
            break;
        }
        name.push(x);
        c.bump();
    }
    while c
        .peek()
        .is_some_and(|x| x == ' ' || x == '\t' || x == '\u{3000}')
    {
        c.bump();
    }
    if c.peek() != Some('"') {
        // `[Name]` or garbage: skip the rest of the line.
        let mut rest = String::new();
        while c.peek().is_some_and(|x| x != '\n') {
            rest.push(c.bump().unwrap_or(' '));
        }
        return (
            TokKind::Bad("a tag value in quotes"),
            format!("[{name}{rest}"),
        );
    }
    c.bump();
    // The value ends at the quote that is followed by `]` (values in the wild contain
    // unescaped quotes and brackets, and sometimes span two lines).
    let start = c.i;
    let mut end = None;
    let mut j = start;
    while j < c.chars.len() {
        let x = c.chars[j];
        if x == '\\' && j + 1 < c.chars.len() {
            j += 2;
            continue;
        }
        if x == '"' {
            let mut k = j + 1;
            while k < c.chars.len() && (c.chars[k] == ' ' || c.chars[k] == '\t') {
                k += 1;
            }
            if k < c.chars.len() && c.chars[k] == ']' {
                end = Some((j, k));
                break;
            }
        }
        if x == '\n' && j > start && c.chars[j - 1] == '\n' {
            break;
        }
        j += 1;
    }
    let Some((vend, close)) = end else {
        let mut rest = String::new();
        while c.peek().is_some_and(|x| x != '\n') {
            rest.push(c.bump().unwrap_or(' '));
        }
        return (TokKind::Bad("a closing '\"]'"), format!("[{name} \"{rest}"));
    };
    let mut value = String::new();
    let mut k = start;
    while k < vend {
        let x = c.chars[k];
        if x == '\\' && k + 1 < vend && matches!(c.chars[k + 1], '"' | '\\') {
            value.push(c.chars[k + 1]);
            k += 2;
        } else {
            value.push(x);
            k += 1;
        }
    }
    while c.i <= close {
        c.bump();
    }
    (TokKind::Tag(fold_fullwidth(&name), value), name)
}

fn is_glyph(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c == '!' || c == '?')
}

fn classify_word(w: &str) -> Vec<(TokKind, String)> {
    let folded = fold_fullwidth(w);
    if let Some(r) = is_result(&folded) {
        return vec![(TokKind::Result(r.to_string()), w.to_string())];
    }
    if folded.starts_with('$') || is_glyph(&folded) {
        return vec![(TokKind::Nag(folded.clone()), w.to_string())];
    }
    // WXF two-file soldier moves (`66.7`) look like a move number glued to a digit.
    if classify(&folded) == Some(TokenKind::Wxf) && folded.chars().count() == 4 {
        return vec![(TokKind::Move(w.to_string()), w.to_string())];
    }
    let digits = folded.chars().take_while(|c| c.is_ascii_digit()).count();
    let rest: String = folded.chars().skip(digits).collect();
    let dots = rest.chars().take_while(|&c| c == '.' || c == '…').count();
    let mut out = Vec::new();
    // `12.`, `12...`, `12…` and a bare `...` are move numbers; text glued after them
    // (`1.h2e2`) is the move.
    // Folding maps characters one to one, so char offsets into `folded` are offsets
    // into `w`: moves keep their source spelling (full-width and all).
    let skip = if dots > 0 { digits + dots } else { 0 };
    if dots > 0 {
        out.push((TokKind::Number, w.to_string()));
    }
    let body: String = folded.chars().skip(skip).collect();
    let original: String = w.chars().skip(skip).collect();
    if body.is_empty() {
        return out;
    }
    if let Some(r) = is_result(&body) {
        out.push((TokKind::Result(r.to_string()), body));
        return out;
    }
    let glyph_start = body
        .char_indices()
        .rev()
        .take_while(|(_, c)| *c == '!' || *c == '?')
        .last()
        .map(|(i, _)| i);
    match glyph_start {
        Some(i) if i > 0 => {
            let n = body[..i].chars().count();
            let mv: String = original.chars().take(n).collect();
            out.push((TokKind::Move(mv.clone()), mv));
            out.push((TokKind::Nag(body[i..].to_string()), body[i..].to_string()));
        }
        _ => out.push((TokKind::Move(original.clone()), original)),
    }
    out
}

fn split_games(toks: Vec<Tok>, file_warnings: &mut Vec<Warning>) -> Vec<Vec<Tok>> {
    let mut games: Vec<Vec<Tok>> = Vec::new();
    let mut cur: Vec<Tok> = Vec::new();
    let mut in_moves = false;
    let mut ended = false;
    for t in toks {
        // A comment's text is kept without its `{`/`;`: one that starts with `[` at the
        // start of a line (`{[%clk 0:10]}`) is still a comment, not a tag.
        let is_tag = matches!(t.kind, TokKind::Tag(..))
            || (t.line_start
                && t.text.starts_with('[')
                && !matches!(t.kind, TokKind::Comment(_) | TokKind::Escape(_)));
        if is_tag && (in_moves || ended) {
            let chunk = std::mem::take(&mut cur);
            // Text before a game that holds neither a tag nor anything move-like (a
            // title line, an advert) is junk, not a game.
            let tagless = !chunk.iter().any(|t| matches!(t.kind, TokKind::Tag(..)));
            let moveless = !chunk.iter().any(
                |t| matches!(&t.kind, TokKind::Move(m) if classify(&fold_fullwidth(m)).is_some()),
            );
            if tagless && moveless {
                if let Some(t) = chunk.first() {
                    file_warnings.push(Warning {
                        game: games.len() + 1,
                        line: t.line,
                        col: t.col,
                        message: format!("junk before a game skipped: {:?}", t.text),
                    });
                }
            } else {
                games.push(chunk);
            }
            in_moves = false;
            ended = false;
        }
        if ended {
            match t.kind {
                TokKind::Comment(_) | TokKind::Escape(_) => cur.push(t),
                _ => {
                    // Junk after the result (adverts, `=====`): skipped up to the next tag.
                    let w = Warning {
                        game: games.len() + 1,
                        line: t.line,
                        col: t.col,
                        message: format!("junk after the result skipped: {:?}", t.text),
                    };
                    if let Some(last) = cur.last_mut() {
                        if !matches!(last.kind, TokKind::Bad("junk")) {
                            cur.push(Tok {
                                kind: TokKind::Bad("junk"),
                                text: w.message.clone(),
                                line: t.line,
                                col: t.col,
                                line_start: false,
                            });
                        }
                    } else {
                        file_warnings.push(w);
                    }
                }
            }
            continue;
        }
        match t.kind {
            TokKind::Tag(..) => {}
            TokKind::Result(_) => {
                ended = true;
                in_moves = true;
            }
            TokKind::Comment(_) | TokKind::Escape(_) => {}
            _ => in_moves = true,
        }
        cur.push(t);
    }
    if !cur.is_empty() {
        games.push(cur);
    }
    games
}

fn map_result_text(v: &str) -> Option<&'static str> {
    let v = v.trim();
    if let Some(r) = is_result(v) {
        return Some(r);
    }
    Some(match v {
        "未知" | "" => "*",
        "红胜" | "紅勝" | "红先胜" | "紅先勝" | "黑负" | "黑負" => "1-0",
        "黑胜" | "黑勝" | "红先负" | "紅先負" | "红负" | "紅負" => "0-1",
        "和棋" | "和" | "红先和" | "紅先和" => "1/2-1/2",
        _ => return None,
    })
}

const MAX_VARIATION_DEPTH: usize = 64;

struct Builder<'a> {
    file: &'a str,
    game: usize,
    toks: Vec<Tok>,
    i: usize,
    rank10: bool,
    warnings: Vec<Warning>,
    notation: Option<Notation>,
}

impl Builder<'_> {
    fn warn(&mut self, t: &Tok, message: String) {
        self.warnings.push(Warning {
            game: self.game,
            line: t.line,
            col: t.col,
            message,
        });
    }

    /// Reads a line from the current token until `)` or the end; returns the line and
    /// the error that stopped it (main line only: variations turn errors into warnings).
    fn line(
        &mut self,
        start: &Position,
        depth: usize,
    ) -> (Line, Option<ReadError>, Option<String>) {
        let mut line = Line::default();
        let mut pos = start.clone();
        let mut before_last = start.clone();
        let mut result = None;
        while self.i < self.toks.len() {
            let t = self.toks[self.i].clone();
            self.i += 1;
            match &t.kind {
                TokKind::Tag(..) | TokKind::Number => {}
                TokKind::Comment(c) => match line.moves.last_mut() {
                    Some(n) => n.comments.push(c.trim().to_string()),
                    None => line.leading_comments.push(c.trim().to_string()),
                },
                TokKind::Nag(n) => match line.moves.last_mut() {
                    Some(last) => last.nags.push(n.clone()),
                    None => self.warn(&t, format!("annotation {n} before any move dropped")),
                },
                TokKind::Escape(text) => self.warn(
                    &t,
                    format!("escape line `%{text}` dropped (the game model has no place for it)"),
                ),
                TokKind::Open if depth >= MAX_VARIATION_DEPTH => {
                    // Bounded recursion: deeper nesting is skipped, never a stack overflow.
                    self.warn(&t, "variation nested too deeply, skipped".into());
                    let mut level = 1usize;
                    while level > 0 && self.i < self.toks.len() {
                        match self.toks[self.i].kind {
                            TokKind::Open => level += 1,
                            TokKind::Close => level -= 1,
                            _ => {}
                        }
                        self.i += 1;
                    }
                }
                TokKind::Open => {
                    let (var, err, _) = self.line(&before_last, depth + 1);
                    if let Some(e) = err {
                        self.warn(&t, format!("variation dropped after an error: {e}"));
                    }
                    match line.moves.last_mut() {
                        Some(n) => n.variations.push(var),
                        None => self.warn(&t, "variation before any move ignored".into()),
                    }
                }
                TokKind::Close => {
                    if depth > 0 {
                        return (line, None, result);
                    }
                    self.warn(&t, "unmatched ')' ignored".into());
                }
                TokKind::Result(r) => {
                    if depth > 0 {
                        self.warn(&t, "result inside a variation ignored".into());
                    } else {
                        result = Some(r.clone());
                    }
                }
                TokKind::Bad(expected) => {
                    if *expected == "junk" {
                        self.warn(&t, t.text.clone());
                        continue;
                    }
                    let err = ReadError::Syntax {
                        file: self.file.to_string(),
                        game: self.game,
                        line: t.line,
                        col: t.col,
                        expected: expected.to_string(),
                        found: t.text.clone(),
                    };
                    return self.fail(line, err, depth, result);
                }
                TokKind::Move(text) => {
                    let folded = fold_fullwidth(text);
                    if self.notation.is_none() {
                        self.notation = match classify(&folded) {
                            Some(TokenKind::Chinese) => Some(Notation::Chinese),
                            Some(TokenKind::Wxf) => Some(Notation::Wxf),
                            Some(TokenKind::Coordinates | TokenKind::CoordinatesRank10) => {
                                Some(Notation::Iccs)
                            }
                            _ => None,
                        };
                    }
                    match resolve_any(&pos, text, self.rank10) {
                        Ok(r) => {
                            if let Some(w) = r.warning {
                                self.warn(&t, w);
                            }
                            before_last = pos.clone();
                            pos.play(r.mv);
                            line.moves.push(MoveNode {
                                mv: r.mv,
                                source: text.clone(),
                                nags: Vec::new(),
                                comments: Vec::new(),
                                variations: Vec::new(),
                            });
                        }
                        Err(e) => {
                            let reason = match &e {
                                MoveError::Syntax => "unknown move syntax".to_string(),
                                other => format!("{other} for {:?} to move", pos.side_to_move()),
                            };
                            let err = ReadError::Move {
                                file: self.file.to_string(),
                                game: self.game,
                                line: t.line,
                                col: t.col,
                                ply: count_plies(start, &line),
                                found: text.clone(),
                                reason,
                            };
                            return self.fail(line, err, depth, result);
                        }
                    }
                }
            }
        }
        (line, None, result)
    }

    // After an error, skip to the end of the current variation (or of the game).
    fn fail(
        &mut self,
        line: Line,
        err: ReadError,
        depth: usize,
        mut result: Option<String>,
    ) -> (Line, Option<ReadError>, Option<String>) {
        let mut level = 0usize;
        while self.i < self.toks.len() {
            let k = self.toks[self.i].kind.clone();
            self.i += 1;
            match k {
                TokKind::Open => level += 1,
                TokKind::Close if level == 0 && depth > 0 => break,
                TokKind::Close => level = level.saturating_sub(1),
                TokKind::Result(r) if depth == 0 => result = Some(r),
                _ => {}
            }
        }
        (line, Some(err), result)
    }
}

/// The side a Chinese move text is written for, from its target numeral.
fn chinese_text_side(token: &str) -> Option<xiangqi::Side> {
    let folded = fold_fullwidth(token);
    if classify(&folded) != Some(TokenKind::Chinese) {
        return None;
    }
    let last = folded
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .last()?;
    if last.is_ascii_digit() {
        Some(xiangqi::Side::Black)
    } else if "一二三四五六七八九".contains(last) {
        Some(xiangqi::Side::Red)
    } else {
        None
    }
}

fn flip_side(fen: &str) -> String {
    let mut f: Vec<&str> = fen.split(' ').collect();
    if f.len() > 1 {
        f[1] = if f[1] == "b" { "w" } else { "b" };
    }
    f.join(" ")
}

fn count_plies(_start: &Position, line: &Line) -> usize {
    line.moves.len()
}

fn build_game(toks: Vec<Tok>, index: usize, file: &str) -> GameRead {
    let mut tags: Vec<(String, String)> = Vec::new();
    for t in &toks {
        if let TokKind::Tag(n, v) = &t.kind {
            tags.push((n.clone(), v.clone()));
        }
    }
    let mut warnings = Vec::new();
    let has =
        |tags: &[(String, String)], n: &str| tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
    // WinBoard exports name Red "White".
    if !has(&tags, "Red") {
        if let Some(t) = tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case("White"))
        {
            t.0 = "Red".to_string();
        }
    }
    let first = toks.first().map(|t| (t.line, t.col)).unwrap_or((1, 1));
    let mut error = None;
    let mut start = Position::initial();
    let fen_tag = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
        .map(|(_, v)| v.clone());
    if let Some(fen) = fen_tag.as_deref() {
        let at = toks
            .iter()
            .find(|t| matches!(&t.kind, TokKind::Tag(n, _) if n.eq_ignore_ascii_case("FEN")))
            .map(|t| (t.line, t.col))
            .unwrap_or(first);
        match parse_fen(fen) {
            Ok(p) => {
                for w in p.warnings {
                    warnings.push(Warning {
                        game: index,
                        line: at.0,
                        col: at.1,
                        message: format!("FEN: {w:?}"),
                    });
                }
                start = p.position;
            }
            Err(e) => {
                error = Some(ReadError::Fen {
                    file: file.to_string(),
                    game: index,
                    line: at.0,
                    col: at.1,
                    found: fen.to_string(),
                    reason: e.to_string(),
                })
            }
        }
    }
    // Coordinates: ranks 0..9 (ICCS) or 1..10 (Fairy-Stockfish); decided by any token
    // with rank 0 or 10, else by which reading replays.
    let mut saw0 = false;
    let mut saw10 = false;
    for t in &toks {
        if let TokKind::Move(m) = &t.kind {
            match classify(&fold_fullwidth(m)) {
                Some(TokenKind::CoordinatesRank10) => saw10 = true,
                Some(TokenKind::Coordinates) => saw0 |= m.contains('0'),
                Some(TokenKind::San) => {
                    let r = crate::notation::san_ranks(m);
                    saw0 |= r.contains(&0);
                    saw10 |= r.contains(&10);
                }
                _ => {}
            }
        }
    }
    let mut game = Game::new(start.clone());
    game.tags = tags;
    let tag_result = game.tag("Result").map(|s| s.to_string());
    if let Some(raw) = &tag_result {
        match map_result_text(raw) {
            Some(r) if r != raw.trim() || raw.trim().is_empty() => {
                if !raw.trim().is_empty() {
                    game.set_tag("XResultText", raw);
                    game.set_tag("Result", r);
                }
            }
            Some(_) => {}
            None => warnings.push(Warning {
                game: index,
                line: first.0,
                col: first.1,
                message: format!("unknown Result value {raw:?} kept"),
            }),
        }
    }
    if error.is_none() {
        let run = |start: &Position, rank10: bool| {
            let mut b = Builder {
                file,
                game: index,
                toks: toks.clone(),
                i: 0,
                rank10,
                warnings: Vec::new(),
                notation: None,
            };
            let (line, err, result) = b.line(start, 0);
            (line, err, result, b.warnings, b.notation)
        };
        let mut outcome = run(&start, saw10);
        if outcome.1.is_some() && !saw0 && !saw10 {
            let alt = run(&start, true);
            if alt.1.is_none() {
                outcome = alt;
                outcome.3.push(Warning {
                    game: index,
                    line: first.0,
                    col: first.1,
                    message: "coordinates read with ranks 1..10 (Fairy-Stockfish dialect)".into(),
                });
            }
        }
        // Set-up games whose FEN names the wrong side to move (the first move only fits
        // the other side) are read with the side flipped, and say so.
        // Chinese text also says who moves: the target is a Chinese numeral for Red
        // and a digit for Black. A first move written for the other side is tried with
        // the side flipped even when it happens to parse for the stated side (Arabic
        // digits are tolerated for Red), and the flipped reading wins if it replays.
        let first_text_side = toks.iter().find_map(|t| match &t.kind {
            TokKind::Move(m) => Some(chinese_text_side(m)),
            _ => None,
        });
        let first_move_failed = matches!(&outcome.1, Some(ReadError::Move { ply: 0, .. }));
        let text_disagrees = first_text_side
            .flatten()
            .is_some_and(|s| s != start.side_to_move());
        if (first_move_failed || text_disagrees) && fen_tag.is_some() {
            if let Ok(flipped) = Position::from_fen(&flip_side(&start.to_fen())) {
                let alt = run(&flipped, saw10);
                if alt.1.is_none() {
                    outcome = alt;
                    outcome.3.push(Warning {
                        game: index,
                        line: first.0,
                        col: first.1,
                        message: "FEN side to move contradicts the first move; side flipped".into(),
                    });
                    start = flipped;
                    game.start = start.clone();
                }
            }
        }
        let (line, err, result, w, notation) = outcome;
        // Spec §5.6: the tokens decide; a contradicting Format tag only warns.
        if let (Some(found), Some(tag)) = (notation, game.tag("Format")) {
            if Notation::from_name(tag).is_some_and(|n| n != found) {
                warnings.push(Warning {
                    game: index,
                    line: first.0,
                    col: first.1,
                    message: format!(
                        "Format tag {tag:?} contradicts the movetext, read as {}",
                        found.tag_value()
                    ),
                });
            }
        }
        game.line = line;
        game.source_notation = notation;
        warnings.extend(w);
        error = err;
        let tag_res = game
            .tag("Result")
            .and_then(map_result_text)
            .map(|s| s.to_string());
        game.result = match (result, tag_res) {
            // Spec §3: on disagreement the tag wins (unless it only says "unknown").
            (Some(r), Some(t)) if r != t && t != "*" => {
                warnings.push(Warning {
                    game: index,
                    line: first.0,
                    col: first.1,
                    message: format!("result token {r} disagrees with Result tag {t}; tag kept"),
                });
                t
            }
            (Some(r), Some(_)) => r,
            (Some(r), None) => r,
            (None, Some(t)) => t,
            (None, None) => "*".to_string(),
        };
    }
    GameRead {
        index,
        game,
        error,
        warnings,
    }
}
