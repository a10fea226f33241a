//! Tolerant reader: splits a decoded file into games while lexing it once, then reads
//! each game's tags and replays every move through the move generator.
//!
//! Limits (issue 13): reading is linear in the input; no token list is kept (the
//! splitter and the replay both pull tokens from a lexer over the game's text), and a
//! game longer than [`ReadOptions::max_game_bytes`] (default [`MAX_GAME_BYTES`]) is
//! reported with a located error instead of being read, the next game going on. So the
//! memory used for one game is bounded by a constant times that cap, whatever the input.
//! Variations deeper than [`MAX_VARIATION_DEPTH`] are skipped with a warning, and a game
//! keeps at most [`MAX_WARNINGS_PER_GAME`] warnings (then one that counts the rest).

use std::collections::VecDeque;
use std::path::Path;

use xiangqi::{Position, parse_fen};

use crate::encoding::{TextEncoding, detect};
use crate::lexer::{Lexer, Mark, Tok, TokKind, is_move_word, is_result};
use crate::model::{Game, Line, MoveNode};
use crate::notation::{MoveError, Notation, TokenKind, classify, fold_fullwidth, resolve_any};

/// The default per-game cap in bytes of decoded text (2 MiB: the longest real xiangqi
/// games with full commentary are a few tens of kilobytes).
pub const MAX_GAME_BYTES: usize = 2 << 20;

/// Variations nested deeper than this are skipped with a warning.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// Warnings kept per game; the rest are counted in one last warning.
pub const MAX_WARNINGS_PER_GAME: usize = 100;

/// Warnings kept for a file outside any game (junk between games).
pub const MAX_FILE_WARNINGS: usize = 1000;

/// How to read a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Decode with this encoding instead of detecting one (the API side of a
    /// `--encoding` switch). `None`: detect.
    pub encoding: Option<TextEncoding>,
    /// A game whose text is longer than this many bytes is not read: it gets a located
    /// error and the next game goes on.
    pub max_game_bytes: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            encoding: None,
            max_game_bytes: MAX_GAME_BYTES,
        }
    }
}

/// Why a game could not be read completely. Every variant names the file, the game
/// (1-based) and the line:column of the offending text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    #[error(
        "{file}: game {game}, {line}:{col}: [{tag} {value:?}] names a game this reader does not implement (only standard xiangqi is read)"
    )]
    /// A `Game` or `Variant` tag naming another game or a xiangqi variant (Manchu,
    /// banqi, …): the game is refused rather than read as standard xiangqi.
    Variant {
        /// The file name given to the reader.
        file: String,
        /// 1-based index of the game in the file.
        game: usize,
        /// 1-based line of the tag.
        line: usize,
        /// 1-based column of the tag.
        col: usize,
        /// `Game` or `Variant`, as written.
        tag: String,
        /// The tag's value.
        value: String,
    },
    #[error(
        "{file}: game {game}, {line}:{col}: ply {ply}: expected a legal move, found {found:?} ({reason})"
    )]
    /// A move that is no move, or not legal, or ambiguous in its position.
    Move {
        /// The file name given to the reader.
        file: String,
        /// 1-based index of the game in the file.
        game: usize,
        /// 1-based line of the move text.
        line: usize,
        /// 1-based column (in characters) of the move text.
        col: usize,
        /// Plies replayed before this one.
        ply: usize,
        /// The move text as written.
        found: String,
        /// Why it did not resolve.
        reason: String,
    },
    #[error("{file}: game {game}, {line}:{col}: expected a valid FEN, found {found:?} ({reason})")]
    /// A `FEN` tag that does not describe a xiangqi position.
    Fen {
        /// The file name given to the reader.
        file: String,
        /// 1-based index of the game in the file.
        game: usize,
        /// 1-based line of the `FEN` tag.
        line: usize,
        /// 1-based column of the `FEN` tag.
        col: usize,
        /// The tag value.
        found: String,
        /// What is wrong with it.
        reason: String,
    },
    #[error("{file}: game {game}, {line}:{col}: expected {expected}, found {found:?}")]
    /// Unreadable text: an unclosed comment or tag, a stray bracket, or a game over the
    /// per-game cap.
    Syntax {
        /// The file name given to the reader.
        file: String,
        /// 1-based index of the game in the file.
        game: usize,
        /// 1-based line of the text.
        line: usize,
        /// 1-based column (in characters) of the text.
        col: usize,
        /// What the reader expected there.
        expected: String,
        /// What it found (at most 200 characters of it).
        found: String,
    },
}

impl ReadError {
    /// The diagnostic code of the error: a stable name for filtering (the table is the
    /// toolkit's docs/diagnostic-codes.md).
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::Variant { .. } => "xiangqi.other-game",
            ReadError::Move { .. } => "xiangqi.illegal-move",
            ReadError::Fen { .. } => "xiangqi.fen",
            ReadError::Syntax { .. } => "xiangqi.syntax",
        }
    }
}

/// Something tolerated while reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based index of the game it concerns (for a warning outside any game, the game
    /// that follows; 0 for the whole file, such as an uncertain encoding).
    pub game: usize,
    /// 1-based line (0 for a summary without a place).
    pub line: usize,
    /// 1-based column in characters.
    pub col: usize,
    /// What kind of thing was tolerated.
    pub kind: WarningKind,
    /// What was tolerated.
    pub message: String,
}

/// The kinds of [`Warning`], each with its stable diagnostic code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// The file's encoding was guessed with little evidence.
    Encoding,
    /// Text outside a game, or after its result, skipped.
    Junk,
    /// The result token, the Result tag and the final position disagree, or the tag
    /// holds no result.
    Result,
    /// A FEN read with a tolerated irregularity (missing fields, an odd placement).
    Fen,
    /// A Format tag that contradicts the notation of the movetext.
    FormatTag,
    /// Coordinates read with ranks 1..10 (the Fairy-Stockfish dialect).
    Ranks,
    /// A FEN whose side to move contradicts the first move: read with the side flipped.
    SideFlipped,
    /// A two-file soldier ordinal whose reading depends on the disputed scan order.
    TandemOrder,
    /// A WXF token read in the pyffish dialect (ordinal and file).
    WxfDialect,
    /// A NAG before any move, dropped.
    Nag,
    /// A `%` escape line, dropped.
    Escape,
    /// A variation dropped, unclosed or misplaced, an unmatched `)`, or a result inside
    /// a variation.
    Variation,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`], skipped.
    TooDeep,
    /// More warnings than a game or a file reports: the rest counted, not shown.
    Suppressed,
}

impl WarningKind {
    /// Every kind, in the order of docs/diagnostic-codes.md.
    pub const ALL: &[WarningKind] = &[
        WarningKind::Encoding,
        WarningKind::Junk,
        WarningKind::Result,
        WarningKind::Fen,
        WarningKind::FormatTag,
        WarningKind::Ranks,
        WarningKind::SideFlipped,
        WarningKind::TandemOrder,
        WarningKind::WxfDialect,
        WarningKind::Nag,
        WarningKind::Escape,
        WarningKind::Variation,
        WarningKind::TooDeep,
        WarningKind::Suppressed,
    ];

    /// The diagnostic code of the kind: a stable name for filtering (the table is the
    /// toolkit's docs/diagnostic-codes.md).
    pub fn code(self) -> &'static str {
        match self {
            WarningKind::Encoding => "xiangqi.encoding",
            WarningKind::Junk => "xiangqi.junk",
            WarningKind::Result => "xiangqi.result",
            WarningKind::Fen => "xiangqi.fen-form",
            WarningKind::FormatTag => "xiangqi.format-tag",
            WarningKind::Ranks => "xiangqi.ranks",
            WarningKind::SideFlipped => "xiangqi.side-flipped",
            WarningKind::TandemOrder => "xiangqi.tandem-order",
            WarningKind::WxfDialect => "xiangqi.wxf-dialect",
            WarningKind::Nag => "xiangqi.nag",
            WarningKind::Escape => "xiangqi.escape",
            WarningKind::Variation => "xiangqi.variation",
            WarningKind::TooDeep => "xiangqi.too-deep",
            WarningKind::Suppressed => "xiangqi.suppressed",
        }
    }
}

/// One game of a file: the game as far as it could be read, and the error that
/// stopped it, if any.
#[derive(Debug, Clone)]
pub struct GameRead {
    /// 1-based index in the file.
    pub index: usize,
    /// The game as far as it was read (tags, start, the moves before an error).
    pub game: Game,
    /// What stopped the main line, if anything did.
    pub error: Option<ReadError>,
    /// What was tolerated in this game.
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
    /// The encoding the bytes were decoded with (UTF-8 for [`read_str`]).
    pub encoding: TextEncoding,
    /// Every game, in file order, read or not.
    pub games: Vec<GameRead>,
    /// Warnings outside any game (junk before the first game).
    pub warnings: Vec<Warning>,
}

/// Reads every game of `bytes`; `name` is used in error messages. The encoding is
/// detected (see [`crate::detect`]); an uncertain guess adds a file warning.
pub fn read_bytes(bytes: &[u8], name: &str) -> FileRead {
    read_bytes_with(bytes, name, &ReadOptions::default())
}

/// [`read_bytes`] with options: a forced encoding, another per-game cap.
pub fn read_bytes_with(bytes: &[u8], name: &str, options: &ReadOptions) -> FileRead {
    let (text, encoding, note) = match options.encoding {
        Some(enc) => (crate::encoding::decode_as(bytes, enc), enc, None),
        None => {
            let d = detect(bytes);
            let note = d.uncertain.then(|| d.note());
            (
                crate::encoding::decode_as(bytes, d.encoding),
                d.encoding,
                note,
            )
        }
    };
    let mut out = read_str_with(&text, name, options);
    out.encoding = encoding;
    if let Some(message) = note {
        out.warnings.insert(
            0,
            Warning {
                game: 0,
                line: 1,
                col: 1,
                kind: WarningKind::Encoding,
                message,
            },
        );
    }
    out
}

/// Reads a file from disk.
pub fn read_path(path: &Path) -> std::io::Result<FileRead> {
    let bytes = std::fs::read(path)?;
    Ok(read_bytes(&bytes, &path.display().to_string()))
}

/// Reads already-decoded text.
pub fn read_str(text: &str, name: &str) -> FileRead {
    read_str_with(text, name, &ReadOptions::default())
}

/// [`read_str`] with options (the encoding option is ignored: the text is decoded).
pub fn read_str_with(text: &str, name: &str, options: &ReadOptions) -> FileRead {
    let mut it = games_with(text, name, options);
    let games: Vec<GameRead> = it.by_ref().collect();
    FileRead {
        encoding: TextEncoding::Utf8,
        games,
        warnings: std::mem::take(&mut it.warnings),
    }
}

/// The games of decoded text one at a time: memory for one game at a time (plus the
/// text), whatever the number of games.
///
/// ```
/// let text = "1. h2e2 h9g7 *\n1. b2e2 *\n";
/// let n = xiangqi_pgn::games(text, "two.pgn").filter(|g| g.is_ok()).count();
/// assert_eq!(n, 2);
/// ```
pub fn games<'a>(text: &'a str, name: &'a str) -> Games<'a> {
    games_with(text, name, &ReadOptions::default())
}

/// [`games`] with options.
pub fn games_with<'a>(text: &'a str, name: &'a str, options: &ReadOptions) -> Games<'a> {
    Games {
        text,
        name,
        split: Splitter::new(text, options.max_game_bytes),
        max_game_bytes: options.max_game_bytes,
        warnings: Vec::new(),
        suppressed: 0,
        index: 0,
    }
}

/// Iterator over the games of a text, from [`games`].
pub struct Games<'a> {
    text: &'a str,
    name: &'a str,
    split: Splitter<'a>,
    max_game_bytes: usize,
    warnings: Vec<Warning>,
    suppressed: usize,
    index: usize,
}

impl Games<'_> {
    /// Warnings outside any game met so far (junk between games).
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    fn file_warning(&mut self, w: Warning) {
        if self.warnings.len() < MAX_FILE_WARNINGS {
            self.warnings.push(w);
        } else {
            self.suppressed += 1;
        }
    }
}

impl Iterator for Games<'_> {
    type Item = GameRead;

    fn next(&mut self) -> Option<GameRead> {
        loop {
            match self.split.next() {
                Some(Piece::Junk(w)) => {
                    let w = Warning {
                        game: self.index + 1,
                        ..w
                    };
                    self.file_warning(w);
                }
                Some(Piece::Game(span)) => {
                    self.index += 1;
                    return Some(build_game(
                        self.text,
                        span,
                        self.index,
                        self.name,
                        self.max_game_bytes,
                    ));
                }
                None => {
                    if self.suppressed > 0 {
                        let n = std::mem::take(&mut self.suppressed);
                        self.warnings.push(Warning {
                            game: self.index,
                            line: 0,
                            col: 0,
                            kind: WarningKind::Suppressed,
                            message: format!("{n} more warnings outside games not shown"),
                        });
                    }
                    return None;
                }
            }
        }
    }
}

/// The tags of one game, read without replaying its moves (issue 17: fast tag filters).
#[derive(Debug, Clone)]
pub struct Headers {
    /// 1-based index of the game in the file (the same as [`GameRead::index`]).
    pub index: usize,
    /// Where the game starts.
    pub line: usize,
    /// Column of the game's first token.
    pub col: usize,
    /// Tags in source order, normalised as [`GameRead`] does (a WinBoard `White` tag
    /// becomes `Red`; Chinese result words become `Result` with `XResultText`).
    pub tags: Vec<(String, String)>,
    /// Set when the game is over the per-game cap (its tags are then not read).
    pub error: Option<ReadError>,
}

impl Headers {
    /// A tag value by case-insensitive name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The tags of every game of decoded text, without replaying any move: one lexing pass,
/// the cost of splitting the file into games. Game indices match [`read_str`]'s.
///
/// ```
/// let text = "[Red \"Hu\"]\n1. h2e2 *\n\n[Red \"Xu\"]\n1. b2e2 *\n";
/// let reds: Vec<String> = xiangqi_pgn::read_headers(text, "f.pgn")
///     .filter_map(|h| h.tag("Red").map(str::to_string))
///     .collect();
/// assert_eq!(reds, ["Hu", "Xu"]);
/// ```
pub fn read_headers<'a>(text: &'a str, name: &'a str) -> impl Iterator<Item = Headers> + 'a {
    let max = MAX_GAME_BYTES;
    let mut index = 0;
    Splitter::new(text, max).filter_map(move |p| match p {
        Piece::Junk(_) => None,
        Piece::Game(span) => {
            index += 1;
            let error = span.oversize.map(|o| oversize_error(name, index, max, o));
            let mut tags: Vec<(String, String)> =
                span.tags.into_iter().map(|t| (t.name, t.value)).collect();
            normalize_tags(&mut tags);
            Some(Headers {
                index,
                line: span.at.line,
                col: span.at.col,
                tags,
                error,
            })
        }
    })
}

struct TagAt {
    name: String,
    value: String,
    line: usize,
    col: usize,
}

/// One game's place in the text, found by the splitter.
struct Span {
    at: Mark,
    end: usize,
    tags: Vec<TagAt>,
    /// Where the cap was crossed, and the game's length in bytes.
    oversize: Option<(usize, usize, usize)>,
}

enum Piece {
    Game(Span),
    Junk(Warning),
}

struct Chunk {
    at: Mark,
    first_text: String,
    tags: Vec<TagAt>,
    has_tag: bool,
    has_move: bool,
    in_moves: bool,
    /// A result at variation depth 0 was read: only comments may follow.
    ended: bool,
    depth: usize,
    /// A result inside a variation: a following `1.` starts a new game (the variation
    /// was never closed).
    result_in_variation: bool,
    oversize_at: Option<(usize, usize)>,
}

/// Finds game boundaries while lexing the whole text once, keeping only the current
/// game's tags.
struct Splitter<'a> {
    lex: Lexer<'a>,
    end: usize,
    max: usize,
    cur: Option<Chunk>,
    out: VecDeque<Piece>,
}

impl<'a> Splitter<'a> {
    fn new(text: &'a str, max: usize) -> Splitter<'a> {
        Splitter {
            lex: Lexer::new(text, Mark::origin(), text.len()),
            end: text.len(),
            max,
            cur: None,
            out: VecDeque::new(),
        }
    }

    fn finish(&mut self, c: Chunk, end: usize) {
        if !c.has_tag && !c.has_move {
            // Text before a game that holds neither a tag nor anything move-like (a
            // title line, an advert) is junk, not a game.
            self.out.push_back(Piece::Junk(Warning {
                game: 0,
                line: c.at.line,
                col: c.at.col,
                kind: WarningKind::Junk,
                message: format!("junk before a game skipped: {:?}", c.first_text),
            }));
            return;
        }
        let len = end - c.at.pos;
        self.out.push_back(Piece::Game(Span {
            at: c.at,
            end,
            tags: c.tags,
            oversize: c.oversize_at.map(|(l, col)| (l, col, len)),
        }));
    }

    fn feed(&mut self, t: Tok<'a>) {
        // A comment's text is kept without its `{`/`;`: one that starts with `[` at the
        // start of a line (`{[%clk 0:10]}`) is still a comment, not a tag.
        let is_tag = matches!(t.kind, TokKind::Tag(..))
            || (t.line_start
                && t.text.starts_with('[')
                && !matches!(t.kind, TokKind::Comment(_) | TokKind::Escape(_)));
        if let Some(c) = &self.cur {
            // After a result, the next game's first move: a move number 1, or a move
            // that starts a line (a tagless game without numbers). Anything else there
            // (`2. h0g2` after `1-0`) is junk of this game, reported as such.
            let move_start = match &t.kind {
                TokKind::Number(n) => *n == "1",
                TokKind::Move(w) => t.line_start && is_move_word(w),
                _ => false,
            };
            let new_game = (is_tag && (c.in_moves || c.ended))
                || (c.ended && move_start)
                || (c.result_in_variation && matches!(t.kind, TokKind::Number("1")));
            if new_game {
                let c = self.cur.take().expect("checked above");
                self.finish(c, t.start);
            }
        }
        let c = self.cur.get_or_insert_with(|| Chunk {
            at: Mark {
                pos: t.start,
                line: t.line,
                col: t.col,
                line_start: t.line_start,
            },
            first_text: t.text.chars().take(80).collect(),
            tags: Vec::new(),
            has_tag: false,
            has_move: false,
            in_moves: false,
            ended: false,
            depth: 0,
            result_in_variation: false,
            oversize_at: None,
        });
        if c.oversize_at.is_none() && t.start + t.text.len() - c.at.pos > self.max {
            c.oversize_at = Some((t.line, t.col));
            c.tags = Vec::new();
        }
        if c.ended {
            return;
        }
        if !matches!(t.kind, TokKind::Comment(_) | TokKind::Escape(_)) {
            c.result_in_variation = false;
        }
        match t.kind {
            TokKind::Tag(name, value) => {
                c.has_tag = true;
                if c.oversize_at.is_none() {
                    c.tags.push(TagAt {
                        name,
                        value: value.into_owned(),
                        line: t.line,
                        col: t.col,
                    });
                }
            }
            TokKind::Result(_) => {
                c.in_moves = true;
                if c.depth == 0 {
                    c.ended = true;
                } else {
                    c.result_in_variation = true;
                }
            }
            TokKind::Comment(_) | TokKind::Escape(_) => {}
            TokKind::Open => {
                c.in_moves = true;
                c.depth += 1;
            }
            TokKind::Close => {
                c.in_moves = true;
                c.depth = c.depth.saturating_sub(1);
            }
            TokKind::Move(w) => {
                c.in_moves = true;
                c.has_move = c.has_move || is_move_word(w);
            }
            _ => c.in_moves = true,
        }
    }
}

impl Iterator for Splitter<'_> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        loop {
            if let Some(p) = self.out.pop_front() {
                return Some(p);
            }
            match self.lex.next() {
                Some(t) => self.feed(t),
                None => {
                    let c = self.cur.take()?;
                    let end = self.end;
                    self.finish(c, end);
                }
            }
        }
    }
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

fn oversize_error(file: &str, game: usize, max: usize, o: (usize, usize, usize)) -> ReadError {
    ReadError::Syntax {
        file: file.to_string(),
        game,
        line: o.0,
        col: o.1,
        expected: format!("a game of at most {max} bytes (the per-game cap)"),
        found: format!("a game of {} bytes, not read", o.2),
    }
}

/// WinBoard exports name Red "White"; Chinese result words become the PGN result with
/// the original kept in `XResultText`. Returns the unknown Result value, if any.
fn normalize_tags(tags: &mut Vec<(String, String)>) -> Option<String> {
    let has =
        |tags: &[(String, String)], n: &str| tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
    if !has(tags, "Red")
        && let Some(t) = tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case("White"))
    {
        t.0 = "Red".to_string();
    }
    // (Not through `Game::set_tag`: building a `Game` costs a start position per game.)
    let find = |tags: &[(String, String)], n: &str| {
        tags.iter().position(|(k, _)| k.eq_ignore_ascii_case(n))
    };
    let mut unknown = None;
    if let Some(i) = find(tags, "Result") {
        let raw = tags[i].1.clone();
        match map_result_text(&raw) {
            Some(r) if r != raw.trim() || raw.trim().is_empty() => {
                if !raw.trim().is_empty() {
                    match find(tags, "XResultText") {
                        Some(j) => tags[j].1 = raw.clone(),
                        None => tags.push(("XResultText".to_string(), raw.clone())),
                    }
                    tags[i].1 = r.to_string();
                }
            }
            Some(_) => {}
            None => unknown = Some(raw),
        }
    }
    unknown
}

struct Builder<'a, 't> {
    file: &'a str,
    game: usize,
    lex: Lexer<'t>,
    rank10: bool,
    warnings: Vec<Warning>,
    suppressed: usize,
    notation: Option<Notation>,
    /// The main line's result was read: only comments may follow.
    ended: bool,
    in_junk: bool,
    /// Whether the last variation read ended at its `)` (not at the end of the game).
    closed: bool,
}

impl Builder<'_, '_> {
    fn warn(&mut self, t: &Tok, kind: WarningKind, message: impl Into<String>) {
        let message = message.into();
        if self.warnings.len() >= MAX_WARNINGS_PER_GAME {
            self.suppressed += 1;
            return;
        }
        self.warnings.push(Warning {
            game: self.game,
            line: t.line,
            col: t.col,
            kind,
            message,
        });
    }

    /// After the result: comments still belong to the game, anything else is junk.
    fn after_result(&mut self, t: Tok, line: &mut Line) {
        match &t.kind {
            TokKind::Comment(c) => {
                self.in_junk = false;
                match line.moves.last_mut() {
                    Some(n) => n.comments.push(c.trim().to_string()),
                    None => line.leading_comments.push(c.trim().to_string()),
                }
            }
            TokKind::Escape(text) => {
                let m =
                    format!("escape line `%{text}` dropped (the game model has no place for it)");
                self.warn(&t, WarningKind::Escape, m)
            }
            _ => {
                if !self.in_junk {
                    self.in_junk = true;
                    let m = format!("junk after the result skipped: {:?}", t.text);
                    self.warn(&t, WarningKind::Junk, m);
                }
            }
        }
    }

    /// A variation opened by `t` (after the last move of `line`, played from
    /// `before_last`): read and kept on that move, or skipped with a warning.
    fn variation(&mut self, t: &Tok, line: &mut Line, before_last: &Position, depth: usize) {
        if depth >= MAX_VARIATION_DEPTH {
            // Bounded recursion: deeper nesting is skipped, never a stack overflow.
            self.warn(
                t,
                WarningKind::TooDeep,
                "variation nested too deeply, skipped",
            );
            let mut level = 1usize;
            while level > 0 {
                match self.lex.next().map(|t| t.kind) {
                    Some(TokKind::Open) => level += 1,
                    Some(TokKind::Close) => level -= 1,
                    Some(_) => {}
                    None => break,
                }
            }
            return;
        }
        let (var, err, _) = self.line(before_last, depth + 1);
        if let Some(e) = err {
            let m = format!("variation dropped after an error: {e}");
            self.warn(t, WarningKind::Variation, m);
        } else if !self.closed {
            let m = "variation not closed before the end of the game";
            self.warn(t, WarningKind::Variation, m);
        }
        match line.moves.last_mut() {
            Some(n) => n.variations.push(var),
            None => self.warn(
                t,
                WarningKind::Variation,
                "variation before any move ignored",
            ),
        }
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
        while let Some(t) = self.lex.next() {
            if self.ended {
                self.after_result(t, &mut line);
                continue;
            }
            match &t.kind {
                TokKind::Tag(..) | TokKind::Number(_) => {}
                TokKind::Comment(c) => match line.moves.last_mut() {
                    Some(n) => n.comments.push(c.trim().to_string()),
                    None => line.leading_comments.push(c.trim().to_string()),
                },
                TokKind::Nag(n) => match line.moves.last_mut() {
                    Some(last) => last.nags.push(n.clone()),
                    None => {
                        let m = format!("annotation {n} before any move dropped");
                        self.warn(&t, WarningKind::Nag, m)
                    }
                },
                TokKind::Escape(text) => {
                    let m = format!(
                        "escape line `%{text}` dropped (the game model has no place for it)"
                    );
                    self.warn(&t, WarningKind::Escape, m)
                }
                TokKind::Open => self.variation(&t, &mut line, &before_last, depth),
                TokKind::Close => {
                    if depth > 0 {
                        self.closed = true;
                        return (line, None, result);
                    }
                    self.warn(&t, WarningKind::Variation, "unmatched ')' ignored");
                }
                TokKind::Result(r) => {
                    if depth > 0 {
                        let m = "result inside a variation ignored";
                        self.warn(&t, WarningKind::Variation, m);
                    } else {
                        result = Some(r.to_string());
                        self.ended = true;
                    }
                }
                TokKind::Bad(expected) => {
                    let err = ReadError::Syntax {
                        file: self.file.to_string(),
                        game: self.game,
                        line: t.line,
                        col: t.col,
                        expected: expected.to_string(),
                        found: t.text.chars().take(200).collect(),
                    };
                    return self.fail(line, err, depth, result);
                }
                TokKind::Move(text) => {
                    if self.notation.is_none() {
                        self.notation = match classify(&fold_fullwidth(text)) {
                            Some(TokenKind::Chinese) => Some(Notation::Chinese),
                            Some(TokenKind::Wxf) => Some(Notation::Wxf),
                            Some(TokenKind::Coordinates | TokenKind::CoordinatesRank10) => {
                                Some(Notation::Iccs)
                            }
                            _ => None,
                        };
                    }
                    let resolved = if text.chars().count() > crate::lexer::MAX_MOVE_CHARS {
                        Err(MoveError::Syntax)
                    } else {
                        resolve_any(&pos, text, self.rank10)
                    };
                    match resolved {
                        Ok(r) => {
                            if let Some(w) = r.warning {
                                self.warn(&t, w.0, w.1);
                            }
                            before_last = pos.clone();
                            pos.play(r.mv);
                            line.moves.push(MoveNode {
                                mv: r.mv,
                                source: text.to_string(),
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
                                ply: line.moves.len(),
                                found: text.chars().take(200).collect(),
                                reason,
                            };
                            return self.fail(line, err, depth, result);
                        }
                    }
                }
            }
        }
        self.closed = false;
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
        for t in self.lex.by_ref() {
            match t.kind {
                TokKind::Open => level += 1,
                TokKind::Close if level == 0 && depth > 0 => break,
                TokKind::Close => level = level.saturating_sub(1),
                TokKind::Result(r) if depth == 0 && level == 0 => {
                    result = Some(r.to_string());
                }
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

/// Warnings for a result token or `Result` tag (other than `*`) that contradicts the
/// end of the main line: in xiangqi the side to move with no legal move has lost,
/// checkmated or stalemated.
fn result_against_end(
    game: &Game,
    token: Option<&str>,
    index: usize,
    at: (usize, usize),
) -> Vec<Warning> {
    let end = game.final_position();
    let what = match end.status() {
        xiangqi::Status::Ongoing => return Vec::new(),
        xiangqi::Status::Checkmate => "checkmate",
        xiangqi::Status::Stalemate => "stalemate",
    };
    let (expected, winner) = match end.side_to_move() {
        xiangqi::Side::Red => ("0-1", "Black wins"),
        xiangqi::Side::Black => ("1-0", "Red wins"),
    };
    let tag = game.tag("Result").and_then(map_result_text);
    [("result token", token), ("Result tag", tag)]
        .into_iter()
        .filter_map(|(name, given)| {
            let given = given.filter(|g| *g != "*" && *g != expected)?;
            Some(Warning {
                game: index,
                line: at.0,
                col: at.1,
                kind: WarningKind::Result,
                message: format!(
                    "{name} {given} contradicts the final position: {what}, {winner} ({expected})"
                ),
            })
        })
        .collect()
}

/// Whether the tag `name` (`Game` or `Variant`, any case) with this `value` names
/// something other than standard xiangqi. An empty or `?` value, and the names xiangqi
/// files use for the game itself, are xiangqi; any other name (`Chess`, `Manchu`,
/// `Banqi`, …) is another game, which a xiangqi reader must refuse rather than replay as
/// xiangqi. Other tags never name a game. The one rule for every xiangqi door (this
/// reader, PCN input).
pub fn names_another_game(name: &str, value: &str) -> bool {
    let variant = name.eq_ignore_ascii_case("Variant");
    if !variant && !name.eq_ignore_ascii_case("Game") {
        return false;
    }
    let v = value.trim().to_lowercase();
    let xiangqi = v.is_empty()
        || v == "?"
        || v.contains("xiangqi")
        || v.contains("chinese chess")
        || v.contains("chinesechess")
        || v.contains("象棋")
        || v.contains("象碁")
        || (variant && matches!(v.as_str(), "standard" | "normal"));
    !xiangqi
}

fn build_game(text: &str, span: Span, index: usize, file: &str, max: usize) -> GameRead {
    let first = (span.at.line, span.at.col);
    if let Some(o) = span.oversize {
        return GameRead {
            index,
            game: Game::new(Position::initial()),
            error: Some(oversize_error(file, index, max, o)),
            warnings: Vec::new(),
        };
    }
    if let Some(foreign) = foreign_game(&span.tags, file, index) {
        // Its moves are another game's: not replayed as xiangqi moves.
        return GameRead {
            index,
            game: Game::new(Position::initial()),
            error: Some(foreign),
            warnings: Vec::new(),
        };
    }
    let mut warnings = Vec::new();
    let fen_at = span
        .tags
        .iter()
        .find(|t| t.name.eq_ignore_ascii_case("FEN"))
        .map(|t| (t.line, t.col));
    let mut tags: Vec<(String, String)> =
        span.tags.into_iter().map(|t| (t.name, t.value)).collect();
    if let Some(raw) = normalize_tags(&mut tags) {
        warnings.push(Warning {
            game: index,
            line: first.0,
            col: first.1,
            kind: WarningKind::Result,
            message: format!("unknown Result value {raw:?} kept"),
        });
    }
    let fen_tag = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
        .map(|(_, v)| v.clone());
    let (start, mut error) = match fen_tag.as_deref() {
        Some(fen) => start_position(fen, fen_at.unwrap_or(first), file, index, &mut warnings),
        None => (Position::initial(), None),
    };
    let mut game = Game::new(start.clone());
    game.tags = tags;
    if error.is_none() {
        let g = GameText {
            text,
            at: span.at,
            end: span.end,
            file,
            index,
            first,
        };
        error = g.replay(&mut game, start, fen_tag.is_some(), &mut warnings);
    }
    GameRead {
        index,
        game,
        error,
        warnings,
    }
}

/// The error for a game whose tags name another game than xiangqi.
fn foreign_game(tags: &[TagAt], file: &str, index: usize) -> Option<ReadError> {
    tags.iter()
        .find(|t| names_another_game(&t.name, &t.value))
        .map(|t| ReadError::Variant {
            file: file.to_string(),
            game: index,
            line: t.line,
            col: t.col,
            tag: t.name.clone(),
            value: t.value.chars().take(200).collect(),
        })
}

/// The start position a `FEN` tag (at `at`) gives, with its warnings; the initial
/// position and the error when it cannot be read.
fn start_position(
    fen: &str,
    at: (usize, usize),
    file: &str,
    index: usize,
    warnings: &mut Vec<Warning>,
) -> (Position, Option<ReadError>) {
    match parse_fen(fen) {
        Ok(p) => {
            for w in p.warnings {
                warnings.push(Warning {
                    game: index,
                    line: at.0,
                    col: at.1,
                    kind: WarningKind::Fen,
                    message: format!("FEN: {w:?}"),
                });
            }
            (p.position, None)
        }
        Err(e) => (
            Position::initial(),
            Some(ReadError::Fen {
                file: file.to_string(),
                game: index,
                line: at.0,
                col: at.1,
                found: fen.chars().take(200).collect(),
                reason: e.to_string(),
            }),
        ),
    }
}

/// One reading of a game's movetext: the main line, the error that stopped it, the
/// result token, the warnings and the notation the moves are written in.
type Reading = (
    Line,
    Option<ReadError>,
    Option<String>,
    Vec<Warning>,
    Option<Notation>,
);

/// A game's movetext and its place: what [`build_game`] replays, possibly more than
/// once (coordinate dialects, a wrong side to move).
struct GameText<'a> {
    text: &'a str,
    at: Mark,
    end: usize,
    file: &'a str,
    index: usize,
    /// Line and column of the game's first byte, where game-wide warnings point.
    first: (usize, usize),
}

impl GameText<'_> {
    /// Replays the movetext into `game` (line, notation, result) from `start`; returns
    /// the error that stopped it.
    fn replay(
        &self,
        game: &mut Game,
        start: Position,
        has_fen: bool,
        warnings: &mut Vec<Warning>,
    ) -> Option<ReadError> {
        let (index, first) = (self.index, self.first);
        let (line, error, result, w, notation) = self.best_reading(game, start, has_fen);
        // Spec §5.6: the tokens decide; a contradicting Format tag only warns.
        if let (Some(found), Some(tag)) = (notation, game.tag("Format"))
            && Notation::from_name(tag).is_some_and(|n| n != found)
        {
            warnings.push(Warning {
                game: index,
                line: first.0,
                col: first.1,
                kind: WarningKind::FormatTag,
                message: format!(
                    "Format tag {tag:?} contradicts the movetext, read as {}",
                    found.tag_value()
                ),
            });
        }
        game.line = line;
        game.source_notation = notation;
        warnings.extend(w);
        let tag_res = game
            .tag("Result")
            .and_then(map_result_text)
            .map(|s| s.to_string());
        let result_token = result.clone();
        game.result = self.settle_result(result, tag_res, warnings);
        if error.is_none() {
            warnings.extend(result_against_end(
                game,
                result_token.as_deref(),
                index,
                first,
            ));
        }
        error
    }

    /// Coordinates: ranks 0..9 (ICCS) or 1..10 (Fairy-Stockfish); decided by any token
    /// with rank 0 or 10, else by which reading replays. One lexing pass also finds the
    /// side the first Chinese move is written for. Returns (a rank 0 seen, a rank 10
    /// seen, that side).
    fn scan_coordinates(&self) -> (bool, bool, Option<Option<xiangqi::Side>>) {
        let mut saw0 = false;
        let mut saw10 = false;
        let mut first_text_side = None;
        for t in Lexer::new(self.text, self.at, self.end) {
            if let TokKind::Move(m) = &t.kind {
                if m.chars().count() > crate::lexer::MAX_MOVE_CHARS {
                    continue;
                }
                if first_text_side.is_none() {
                    first_text_side = Some(chinese_text_side(m));
                }
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
        (saw0, saw10, first_text_side)
    }

    /// Reads the movetext once from `start`, coordinates with ranks 1..10 if `rank10`.
    fn read(&self, start: &Position, rank10: bool) -> Reading {
        let (index, first) = (self.index, self.first);
        let mut b = Builder {
            file: self.file,
            game: index,
            lex: Lexer::new(self.text, self.at, self.end),
            rank10,
            warnings: Vec::new(),
            suppressed: 0,
            notation: None,
            ended: false,
            in_junk: false,
            closed: false,
        };
        let (line, err, result) = b.line(start, 0);
        if b.suppressed > 0 {
            b.warnings.push(Warning {
                game: index,
                line: first.0,
                col: first.1,
                kind: WarningKind::Suppressed,
                message: format!("{} more warnings in this game not shown", b.suppressed),
            });
        }
        (line, err, result, b.warnings, b.notation)
    }

    /// The reading that replays: as written, else in the other coordinate dialect,
    /// else with the side to move flipped (which then becomes `game.start`).
    fn best_reading(&self, game: &mut Game, start: Position, has_fen: bool) -> Reading {
        let (index, first) = (self.index, self.first);
        let (saw0, saw10, first_text_side) = self.scan_coordinates();
        let mut outcome = self.read(&start, saw10);
        if outcome.1.is_some() && !saw0 && !saw10 {
            let alt = self.read(&start, true);
            if alt.1.is_none() {
                outcome = alt;
                outcome.3.push(Warning {
                    game: index,
                    line: first.0,
                    col: first.1,
                    kind: WarningKind::Ranks,
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
        let first_move_failed = matches!(&outcome.1, Some(ReadError::Move { ply: 0, .. }));
        let text_disagrees = first_text_side
            .flatten()
            .is_some_and(|s| s != start.side_to_move());
        if (first_move_failed || text_disagrees)
            && has_fen
            && let Ok(flipped) = Position::from_fen(&flip_side(&start.to_fen()))
        {
            let alt = self.read(&flipped, saw10);
            if alt.1.is_none() {
                outcome = alt;
                outcome.3.push(Warning {
                    game: index,
                    line: first.0,
                    col: first.1,
                    kind: WarningKind::SideFlipped,
                    message: "FEN side to move contradicts the first move; side flipped".into(),
                });
                game.start = flipped;
            }
        }
        outcome
    }

    /// The game's result from the result token and the `Result` tag.
    fn settle_result(
        &self,
        result: Option<String>,
        tag_res: Option<String>,
        warnings: &mut Vec<Warning>,
    ) -> String {
        match (result, tag_res) {
            // Spec §3: on disagreement the tag wins (unless it only says "unknown").
            (Some(r), Some(t)) if r != t && t != "*" => {
                warnings.push(Warning {
                    game: self.index,
                    line: self.first.0,
                    col: self.first.1,
                    kind: WarningKind::Result,
                    message: format!("result token {r} disagrees with Result tag {t}; tag kept"),
                });
                t
            }
            (Some(r), Some(_)) => r,
            (Some(r), None) => r,
            (None, Some(t)) => t,
            (None, None) => "*".to_string(),
        }
    }
}
