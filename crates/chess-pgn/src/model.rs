//! The owned game model: tags, a resolved move tree, comments, diagnostics.

use std::fmt::Write as _;
use std::io::Read;

use cozy_chess::{Board, Move};
use pgn_core::Pos;

use crate::reader::{Control, Outcome, PgnReader, Problem, ReadError, Skip, Visitor};
use crate::san::{ResolveError, SanPlus};
use crate::text;

/// Rules a game is played under. Only these two are replayed; others are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    #[default]
    /// Standard chess (also a set-up position in it).
    Standard,
    /// Chess960 (Fischer random): castling rights name the rooks.
    Chess960,
}

impl Variant {
    /// Interprets a `Variant` tag value; `Err` carries an unsupported name.
    pub fn from_tag(v: &str) -> Result<Variant, String> {
        let l = v.trim().to_ascii_lowercase();
        match l.as_str() {
            "" | "standard" | "chess" | "normal" | "from position" => Ok(Variant::Standard),
            "chess960"
            | "chess 960"
            | "960"
            | "fischerandom"
            | "fischerrandom"
            | "fischer random"
            | "fischer random chess" => Ok(Variant::Chess960),
            _ => Err(v.to_string()),
        }
    }

    /// Interprets a `Game` tag value (a tag some programs write to say which game a
    /// record is, e.g. `[Game "Xiangqi"]`): `Ok` when it names chess (empty, `?`, a
    /// chess or Chess960 name), `Err` with the name when it names another game, which
    /// this crate must refuse rather than read as chess.
    pub fn from_game_tag(v: &str) -> Result<Variant, String> {
        let l = v.trim().to_ascii_lowercase();
        match l.as_str() {
            "?" | "western chess" | "international chess" | "orthodox chess" => {
                Ok(Variant::Standard)
            }
            _ => Variant::from_tag(v),
        }
    }
}

/// A `[%clk h:mm:ss]` value in seconds (fractions allowed).
pub type Clock = f64;

/// A `[%eval …]` value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Eval {
    /// Pawns from White's point of view.
    Pawns(f64),
    /// Mate in n (negative: Black mates).
    Mate(i32),
}

/// Something said after a move, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum After {
    /// A `{…}` or `;` comment, whitespace runs read as one space.
    Comment(String),
    /// A variation: moves replacing this one, from the position before it.
    Variation(Line),
}

/// One legal move with its annotations.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveNode {
    /// The move as cozy-chess plays it (castling is king-takes-own-rook);
    /// `None` for a null move (`--`, `Z0`), which passes the turn.
    pub mv: Option<Move>,
    /// Export SAN, regenerated from the position (minimal disambiguation, `+`/`#`).
    pub san: SanPlus,
    /// NAGs in input order (glyphs such as `!?` as their NAG numbers).
    pub nags: Vec<u8>,
    /// Comments and variations after the move, in input order.
    pub after: Vec<After>,
    /// Parsed from a `[%clk …]` command in the comments, which stay verbatim.
    pub clock: Option<Clock>,
    /// Parsed from a `[%eval …]` command in the comments, which stay verbatim.
    pub eval: Option<Eval>,
}

/// A sequence of moves (main line or variation) with the comments before its first move.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Line {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves, in order.
    pub moves: Vec<MoveNode>,
}

impl Line {
    /// The moves of this line with the position before each, the line starting from
    /// `start` (for a variation: the [`Ply::before`] of the move it replaces).
    pub fn plies<'a>(&'a self, start: &Board) -> Plies<'a> {
        Plies {
            board: start.clone(),
            nodes: self.moves.iter(),
        }
    }
}

/// Iterator over a line's moves as [`Ply`] items; see [`Game::plies`].
#[derive(Debug, Clone)]
pub struct Plies<'a> {
    board: Board,
    nodes: std::slice::Iter<'a, MoveNode>,
}

/// One move of a line, with the position it was played in.
#[derive(Debug, Clone)]
pub struct Ply<'a> {
    /// The position before the move.
    pub before: Board,
    /// The move with its annotations.
    pub node: &'a MoveNode,
}

impl<'a> Ply<'a> {
    /// The move as cozy-chess plays it (castling is king-takes-own-rook); `None` for a
    /// null move.
    pub fn mv(&self) -> Option<Move> {
        self.node.mv
    }

    /// The move's SAN. The model keeps the export spelling, regenerated from the
    /// position (`0-0`, `Ng1f3` or `e8(Q)` in the input read as `O-O`, `Nf3`, `e8=Q`).
    pub fn san(&self) -> &'a SanPlus {
        &self.node.san
    }

    /// The comments after the move, in order.
    pub fn comments(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.node.after.iter().filter_map(|a| match a {
            After::Comment(c) => Some(c.as_str()),
            After::Variation(_) => None,
        })
    }

    /// The variations replacing this move; each starts from [`Ply::before`]:
    /// `variation.plies(&ply.before)`.
    pub fn variations(&self) -> impl Iterator<Item = &'a Line> + 'a {
        self.node.after.iter().filter_map(|a| match a {
            After::Variation(v) => Some(v),
            After::Comment(_) => None,
        })
    }

    /// The position after the move.
    pub fn after(&self) -> Board {
        let mut b = self.before.clone();
        play(&mut b, self.node.mv);
        b
    }
}

impl<'a> Iterator for Plies<'a> {
    type Item = Ply<'a>;

    fn next(&mut self) -> Option<Ply<'a>> {
        let node = self.nodes.next()?;
        let before = self.board.clone();
        play(&mut self.board, node.mv);
        Some(Ply { before, node })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.nodes.size_hint()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// How serious a [`Diagnostic`] is.
pub enum Severity {
    /// Read with a tolerated deviation or a loss worth knowing; the game is whole.
    Warning,
    /// Something could not be read; the game holds what came before it.
    Error,
}

/// A located remark about a game that was still read.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// Where in the input.
    pub at: Pos,
    /// What was found, and what was done about it.
    pub message: String,
    /// What kind of remark it is: a stable name (`chess.illegal-move`, `chess.tag`,
    /// …; the table is the toolkit's docs/diagnostic-codes.md).
    pub code: &'static str,
}

/// The code of a tokeniser problem.
fn problem_code(problem: Problem) -> &'static str {
    match problem {
        Problem::NotAMove
        | Problem::UnterminatedComment
        | Problem::MalformedTag
        | Problem::Reserved
        | Problem::InvalidByte => "chess.syntax",
        Problem::UnmatchedClose | Problem::UnclosedVariation | Problem::ResultInVariation => {
            "chess.variation"
        }
        Problem::BadNag => "chess.nag",
    }
}

/// A game in the owned model. Moves are resolved at import; text that could not be
/// played is kept as an `XUnparsed: …` comment and reported as an error diagnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// Tag pairs in input order, values decoded. Seven Tag Roster names are
    /// spelled canonically; `FEN`/`SetUp` are not kept here but in `start`. A
    /// repeated name keeps its last value; earlier ones become `XDuplicate<Name>`.
    pub tags: Vec<(String, String)>,
    /// The rules the game is played under (from the `Variant` tag).
    pub variant: Variant,
    /// The starting position (from `FEN`, else the standard one).
    pub start: Board,
    /// How the `FEN` tag spelled castling rights (`KQkq` or Shredder's `HAha`), so the
    /// writer can keep that spelling; `None` without a `FEN` tag or castling letters.
    pub fen_castling: Option<CastlingStyle>,
    /// The halfmove clock of the start position as the `FEN` tag gave it. The move
    /// generator keeps at most 100 (and refuses a FEN above it), but the rules and
    /// other tools count on (a game continues past 100 unless a player claims), so the
    /// exact count is kept here and by [`Game::final_halfmove_clock`].
    pub start_halfmove_clock: u32,
    /// The game's tags gave a starting position (`FEN`), even the standard one: the
    /// writer keeps it rather than dropping it without a word.
    pub set_up: bool,
    /// The main line, with comments and variations.
    pub moves: Line,
    /// The termination marker (or the `Result` tag when the marker is missing).
    pub outcome: Outcome,
    /// Comments after the termination marker.
    pub final_comments: Vec<String>,
    /// Warnings and errors met while reading, located.
    pub diagnostics: Vec<Diagnostic>,
    /// Where the game starts in its file, and its 1-based index there.
    pub at: Pos,
    /// 1-based index of the game in its input.
    pub index: u64,
}

impl Default for Game {
    /// No tags, no moves, from the standard start (a copy of a board built once:
    /// `Board::default()` validates a whole position, and the reader makes a game
    /// per game read).
    fn default() -> Game {
        Game {
            tags: Vec::new(),
            variant: Variant::default(),
            start: crate::replay::start_board().clone(),
            fen_castling: None,
            start_halfmove_clock: 0,
            set_up: false,
            moves: Line::default(),
            outcome: Outcome::default(),
            final_comments: Vec::new(),
            diagnostics: Vec::new(),
            at: Pos::default(),
            index: 0,
        }
    }
}

/// A tag's value, by exact name or, failing that, case-insensitively.
fn tag_in<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .or_else(|| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)))
        .map(|(_, v)| v.as_str())
}

impl Game {
    /// A tag's value, by exact name or, failing that, case-insensitively.
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_in(&self.tags, name)
    }

    /// The main line as [`Ply`] items: position before, move, SAN, comments, and the
    /// variations (each iterable the same way from the ply's position).
    ///
    /// ```
    /// let game = chess_pgn::parse_all("1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 *").remove(0).unwrap();
    /// let plies: Vec<_> = game.plies().collect();
    /// assert_eq!(plies[0].san().to_string(), "e4");
    /// assert_eq!(plies[0].comments().collect::<Vec<_>>(), ["best"]);
    /// let sicilian = plies[1].variations().next().unwrap();
    /// let sans: Vec<String> = sicilian.plies(&plies[1].before).map(|p| p.san().to_string()).collect();
    /// assert_eq!(sans, ["c5", "Nf3"]);
    /// ```
    pub fn plies(&self) -> Plies<'_> {
        self.moves.plies(&self.start)
    }

    /// The main line as played moves (`None` = null move).
    pub fn mainline(&self) -> impl Iterator<Item = Option<Move>> + '_ {
        self.moves.moves.iter().map(|n| n.mv)
    }

    /// The position after the main line.
    pub fn final_board(&self) -> Board {
        let mut b = self.start.clone();
        for m in self.mainline() {
            play(&mut b, m);
        }
        b
    }

    /// The halfmove clock after the main line, counted on from
    /// [`Game::start_halfmove_clock`] beside the move generator's own (capped) one.
    ///
    /// ```
    /// let pgn = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 99 60\"]\n\n60. Ra2 Kd8 61. Ra3 *";
    /// let game = chess_pgn::parse_all(pgn).remove(0).unwrap();
    /// assert_eq!(game.final_halfmove_clock(), 102);
    /// // As python-chess gives it (`chess.pgn.read_game(…).end().board().fen()`).
    /// assert_eq!(game.final_fen(), "3k4/8/8/8/8/R7/8/4K3 b - - 102 61");
    /// ```
    pub fn final_halfmove_clock(&self) -> u32 {
        let mut b = self.start.clone();
        let mut clock = self.start_halfmove_clock;
        for m in self.mainline() {
            play(&mut b, m);
            // The generator resets its clock exactly when the rules do.
            clock = if b.halfmove_clock() == 0 {
                0
            } else {
                clock + 1
            };
        }
        clock
    }

    /// The FEN after the main line, with the exact halfmove clock.
    pub fn final_fen(&self) -> String {
        with_halfmove_clock(&self.final_board().to_string(), self.final_halfmove_clock())
    }

    /// Errors found while reading (illegal moves, unreadable tokens…).
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    /// The first error met while reading, if any: where the game stopped being
    /// played. The moves before it are in [`Game::moves`]; the text from it on is
    /// kept as an `XUnparsed: …` comment after the last good move (spec §6), so a
    /// converter writes the valid prefix and reports this diagnostic.
    ///
    /// ```
    /// let game = chess_pgn::parse_all("1. e4 e5 2. Nf3 Bxh9 Nc6 *").remove(0).unwrap();
    /// let err = game.first_error().unwrap();
    /// assert_eq!((err.at.line, err.at.col), (1, 17));
    /// assert_eq!(game.moves.moves.len(), 3);
    /// assert!(chess_pgn::to_pgn_string(&game).ends_with("2. Nf3 {XUnparsed: Bxh9 Nc6} *\n\n"));
    /// ```
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.errors().min_by_key(|d| d.at.offset)
    }

    /// Equality of what a game says, ignoring where it was read and what was
    /// reported about it: the criterion of the round-trip tests.
    pub fn same_content(&self, other: &Game) -> bool {
        crate::writer::export_tags(self) == crate::writer::export_tags(other)
            && self.variant == other.variant
            && self.start == other.start
            && self.moves == other.moves
            && self.outcome == other.outcome
            && self.final_comments == other.final_comments
    }
}

/// The move number and side to move along a line, for writers that name moves
/// (`12.`, `12...`) without needing the position: counted from the start, with no
/// replay. A null move leaves the turn unchanged when played in check (see
/// [`cozy_chess::Board::null_move`]), so a line holding one keeps and plays a board.
#[derive(Debug, Clone)]
pub struct Turn {
    number: u16,
    white: bool,
    board: Option<Board>,
}

impl Turn {
    /// The turn at `start`, for walking `line` (and its variations) from there.
    pub fn new(start: &Board, line: &Line) -> Turn {
        Turn {
            number: start.fullmove_number(),
            white: start.side_to_move() == cozy_chess::Color::White,
            board: has_null_move(line).then(|| start.clone()),
        }
    }

    /// The full move number of the next move.
    pub fn number(&self) -> u16 {
        self.number
    }

    /// Whether White plays the next move.
    pub fn white(&self) -> bool {
        self.white
    }

    /// Advances past one move of the line (`None`: a null move).
    pub fn play(&mut self, m: Option<Move>) {
        match &mut self.board {
            Some(b) => {
                play(b, m);
                self.number = b.fullmove_number();
                self.white = b.side_to_move() == cozy_chess::Color::White;
            }
            None => {
                // As `Board::play_unchecked` counts: saturating, after Black's move.
                if !self.white {
                    self.number = self.number.saturating_add(1);
                }
                self.white = !self.white;
            }
        }
    }
}

/// Whether a line or any of its variations holds a null move.
fn has_null_move(line: &Line) -> bool {
    line.moves.iter().any(|n| {
        n.mv.is_none()
            || n.after
                .iter()
                .any(|a| matches!(a, After::Variation(v) if has_null_move(v)))
    })
}

/// Plays a move or a null move (only ever given one that was resolved on `b`).
pub(crate) fn play(b: &mut Board, m: Option<Move>) {
    match m {
        Some(m) => b.play_unchecked(m),
        None => {
            if let Some(n) = b.null_move() {
                *b = n;
            }
        }
    }
}

/// The export SAN of `mv`, the move `written` was resolved to on `board`.
///
/// A piece move written without a from-file or from-rank resolved to exactly one legal
/// move of that kind to that square (else it would be ambiguous), so its export SAN
/// needs no disambiguation either and the search for rivals of [`San::from_move`] is
/// skipped; every other move is spelt by it. The test
/// `export_san_is_from_move_on_every_testdata_move` holds the two equal.
///
/// [`San::from_move`]: crate::san::San::from_move
fn export_san(board: &Board, written: crate::san::San, mv: Move) -> crate::san::San {
    use crate::san::San;
    use cozy_chess::Piece;
    let us = board.side_to_move();
    if let San::Normal {
        piece: Some(piece),
        file: None,
        rank: None,
        ..
    } = written
        && piece != Piece::Pawn
        && !board.colors(us).has(mv.to)
        && board.piece_on(mv.from) == Some(piece)
    {
        return San::Normal {
            piece: Some(piece),
            file: None,
            rank: None,
            capture: board.colors(!us).has(mv.to),
            to: mv.to,
            promotion: None,
        };
    }
    San::from_move(board, mv)
}

/// The move `san` names on `b` (`None`: a null move, impossible while in check).
fn resolve(b: &Board, san: &SanPlus) -> Result<Option<Move>, ResolveError> {
    match san.san {
        crate::san::San::Null => b.null_move().map(|_| None).ok_or(ResolveError::Illegal),
        _ => san.san.to_move(b).map(Some),
    }
}

/// Why a game could not be read into the model at all (it is skipped).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    #[error("game {index} at {at}: unsupported variant {name:?}")]
    /// A `Variant` other than standard chess and Chess960 (crazyhouse, antichess…).
    UnsupportedVariant {
        /// 1-based index of the game.
        index: u64,
        /// Where the game starts.
        at: Pos,
        /// The variant as named.
        name: String,
    },
    #[error(
        "game {index} at {at}: [Game {name:?}] names a game this reader does not implement (only chess and Chess960 are read)"
    )]
    /// A `Game` tag naming another game (`Xiangqi`, `Shogi`…): the game is refused
    /// rather than its moves read as chess.
    OtherGame {
        /// 1-based index of the game.
        index: u64,
        /// Where the `Game` tag is.
        at: Pos,
        /// The game as named.
        name: String,
    },
    #[error("game {index} at {at}: bad FEN {fen:?}: {reason}")]
    /// The `FEN` tag could not be read.
    BadFen {
        /// 1-based index of the game.
        index: u64,
        /// Where the game starts.
        at: Pos,
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    #[error("game {index} at {at}: SetUp \"1\" without a FEN tag")]
    /// `SetUp "1"` says the game starts from a set-up position but no `FEN` gives it.
    SetUpWithoutFen {
        /// 1-based index of the game.
        index: u64,
        /// Where the game starts.
        at: Pos,
    },
    #[error(transparent)]
    /// Reading the input failed (I/O, or a token over the size limit).
    Read(#[from] ReadError),
}

impl GameError {
    /// Where the game starts, when the error concerns one game.
    pub fn at(&self) -> Option<Pos> {
        match self {
            GameError::UnsupportedVariant { at, .. }
            | GameError::OtherGame { at, .. }
            | GameError::BadFen { at, .. }
            | GameError::SetUpWithoutFen { at, .. } => Some(*at),
            GameError::Read(_) => None,
        }
    }

    /// The diagnostic code of the error (a stable name, as [`Diagnostic::code`]).
    pub fn code(&self) -> &'static str {
        match self {
            GameError::UnsupportedVariant { .. } => "chess.variant",
            GameError::OtherGame { .. } => "chess.other-game",
            GameError::BadFen { .. } => "chess.fen",
            GameError::SetUpWithoutFen { .. } => "chess.setup",
            GameError::Read(ReadError::TokenTooLong { .. }) => "chess.too-large",
            GameError::Read(_) => "chess.read",
        }
    }
}

/// How a FEN spells castling rights. They differ only in Chess960 (or odd set-ups):
/// X-FEN names the outermost rook on a side `K`/`Q` and any other by its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingStyle {
    /// `KQkq`, with a file letter only for a rook that is not the outermost one.
    XFen,
    /// Shredder-FEN: always the rook's file letter (`HAha`, `GDgd`).
    Shredder,
}

impl CastlingStyle {
    /// The style of a FEN's castling field; `None` for `-` or a FEN without one.
    pub fn of_fen(fen: &str) -> Option<CastlingStyle> {
        let field = fen.split_whitespace().nth(2)?;
        if field == "-" || field.is_empty() {
            None
        } else if field.chars().all(|c| matches!(c, 'K' | 'Q' | 'k' | 'q')) {
            Some(CastlingStyle::XFen)
        } else {
            Some(CastlingStyle::Shredder)
        }
    }
}

/// The result a finished position decides, and why: checkmate loses for the side to
/// move, stalemate is a draw; `None` while a move is legal. A result that contradicts
/// it is the model reader's warning (`chess.result`), which a writer taking a direct
/// path must not lose.
pub fn game_end(board: &Board) -> Option<(Outcome, &'static str)> {
    let mut any = false;
    board.generate_moves(|_| {
        any = true;
        true
    });
    if any {
        return None;
    }
    Some(match (board.checkers().is_empty(), board.side_to_move()) {
        (false, cozy_chess::Color::White) => (Outcome::BlackWins, "checkmate, Black wins"),
        (false, cozy_chess::Color::Black) => (Outcome::WhiteWins, "checkmate, White wins"),
        (true, _) => (Outcome::Draw, "stalemate, a draw"),
    })
}

/// `fen` with its halfmove clock field (the fifth) replaced by `clock`.
pub fn with_halfmove_clock(fen: &str, clock: u32) -> String {
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let clock = clock.to_string();
    if fields.len() == 6 {
        fields[4] = &clock;
    }
    fields.join(" ")
}

/// The halfmove clock field of a FEN (the fifth), when it is a number.
pub(crate) fn fen_halfmove_clock(fen: &str) -> Option<u32> {
    fen.split_whitespace().nth(4)?.parse().ok()
}

/// A board's FEN with castling rights in the given style (cozy-chess's own `Display`
/// writes `K`/`Q` even for a rook that is not the outermost, which is ambiguous).
pub fn to_fen(board: &Board, style: CastlingStyle) -> String {
    let shredder = format!("{board:#}");
    if style == CastlingStyle::Shredder {
        return shredder;
    }
    let mut fields: Vec<String> = shredder.split(' ').map(str::to_string).collect();
    if fields.len() != 6 || fields[2] == "-" {
        return shredder;
    }
    let mut castling = String::new();
    for color in [cozy_chess::Color::White, cozy_chess::Color::Black] {
        let rights = board.castle_rights(color);
        let back = cozy_chess::Rank::First.relative_to(color);
        let king = board.king(color).file();
        let rooks: Vec<cozy_chess::File> = (board.colored_pieces(color, cozy_chess::Piece::Rook)
            & back.bitboard())
        .into_iter()
        .map(|sq| sq.file())
        .collect();
        let outer_short = rooks.iter().copied().filter(|&f| f > king).max();
        let outer_long = rooks.iter().copied().filter(|&f| f < king).min();
        for (right, outer, letter) in [
            (rights.short, outer_short, 'k'),
            (rights.long, outer_long, 'q'),
        ] {
            let Some(file) = right else { continue };
            let c = if Some(file) == outer {
                letter
            } else {
                char::from(file)
            };
            castling.push(if color == cozy_chess::Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    fields[2] = castling;
    fields.join(" ")
}

/// Parses a FEN as PGN files write it: 4-field EPD-like forms get `0 1`, and X-FEN
/// castling letters (`KQkq` meaning the outermost rook, as in Chess960 files) are
/// turned into Shredder files, which cozy-chess reads for both variants.
pub fn parse_fen(fen: &str) -> Result<Board, String> {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() == 4 {
        fields.extend(["0", "1"]);
    }
    if fields.len() != 6 {
        return Err("expected 6 fields".into());
    }
    let ranks: Vec<&str> = fields[0].split('/').collect();
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let mut out = String::new();
        for c in fields[2].chars() {
            let (white, row) = if c.is_ascii_uppercase() {
                (true, ranks.last())
            } else {
                (false, ranks.first())
            };
            let files = row.map(|r| expand_rank(r)).unwrap_or_default();
            let king = if white { 'K' } else { 'k' };
            let rook = if white { 'R' } else { 'r' };
            let kf = files.iter().position(|&p| p == king);
            let f = match (c.to_ascii_lowercase(), kf) {
                ('k', Some(k)) => files.iter().rposition(|&p| p == rook).filter(|&r| r > k),
                ('q', Some(k)) => files.iter().position(|&p| p == rook).filter(|&r| r < k),
                (x @ 'a'..='h', _) => Some(x as usize - 'a' as usize),
                _ => None,
            };
            let f = f.ok_or_else(|| format!("castling right {c} without a rook"))?;
            // An over-long rank can put the rook past file h: no file letter for it.
            let letter = char::from(b"abcdefgh".get(f).copied().ok_or_else(|| {
                format!("castling right {c}: rook beyond file h (rank too long)")
            })?);
            out.push(if white {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
        out
    };
    // The generator refuses a clock above 100; the game keeps the exact one.
    let halfmove = match fields[4].parse::<u32>() {
        Ok(n) if n > 100 => "100",
        _ => fields[4],
    };
    let norm = format!(
        "{} {} {} {} {} {}",
        fields[0], fields[1], castling, fields[3], halfmove, fields[5]
    );
    Board::from_fen(&norm, true).map_err(|e| format!("{e:?}"))
}

fn expand_rank(r: &str) -> Vec<char> {
    let mut v = Vec::with_capacity(8);
    for c in r.chars() {
        if let Some(d) = c.to_digit(10) {
            v.extend(std::iter::repeat_n('.', d as usize));
        } else {
            v.push(c);
        }
    }
    v
}

/// Parses `[%clk …]` and `[%eval …]` out of a comment.
pub fn parse_commands(comment: &str) -> (Option<Clock>, Option<Eval>) {
    let mut clk = None;
    let mut eval = None;
    let mut rest = comment;
    while let Some(i) = rest.find("[%") {
        rest = &rest[i + 2..];
        let end = rest.find(']').unwrap_or(rest.len());
        let body = rest[..end].trim();
        let (cmd, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let arg = arg.trim();
        match cmd {
            "clk" => {
                let mut secs = 0.0;
                let mut ok = !arg.is_empty();
                for part in arg.split(':') {
                    match part.parse::<f64>() {
                        Ok(x) => secs = secs * 60.0 + x,
                        Err(_) => ok = false,
                    }
                }
                if ok {
                    clk = Some(secs);
                }
            }
            "eval" => {
                let v = arg.split(',').next().unwrap_or("");
                eval = if let Some(m) = v.strip_prefix('#') {
                    m.parse().ok().map(Eval::Mate)
                } else {
                    v.parse().ok().map(Eval::Pawns)
                };
            }
            _ => {}
        }
        rest = &rest[end..];
    }
    (clk, eval)
}

/// A game keeps at most this many moves, comments and variations (together); the
/// rest of a larger game is skipped with a located error, the part before it is kept.
/// Real games have a few thousand at most; the cap bounds the model's memory (about
/// 200 bytes a node, so some 40 MB) whatever the input.
pub const MAX_GAME_NODES: usize = 200_000;

/// A game keeps at most this many tags; the rest are skipped with a located error (so
/// the game is reported, not converted). Real games have a few dozen; the cap bounds
/// the tag list, the name set and a writer's tag-loss map whatever the input (a game of
/// a million tags, 20 MB, took 260 to 370 MiB before it).
pub const MAX_GAME_TAGS: usize = 10_000;

/// A game keeps at most this many diagnostics (and one note that more were dropped).
pub const MAX_DIAGNOSTICS: usize = 1000;

/// Unparsed text kept after an error (the `XUnparsed:` comment) stops growing at this
/// many bytes; the rest is counted out, not kept.
pub const MAX_UNPARSED: usize = 1 << 20;

/// Variations nested deeper than this are skipped with a warning: the game tree is
/// recursive (dropping, writing and converting it recurse), so unbounded nesting in the
/// input would overflow a worker thread's stack.
pub const MAX_VARIATION_DEPTH: usize = 200;

struct Frame {
    board: Board,
    /// Position before the last move of this line: where a variation starts.
    before: Board,
    line: Line,
    /// Moves and comments of this line so far, counted in both modes: the diagnostics
    /// that depend on them ("NAG before any move", "empty variation") must not depend
    /// on whether the line is kept.
    moves: usize,
    comments: usize,
    /// Set once a move failed: the rest of this line is collected as text (left empty
    /// when only checking).
    dead: Option<String>,
    dead_depth: usize,
}

impl Frame {
    fn new(board: Board) -> Frame {
        Frame {
            board: board.clone(),
            before: board,
            line: Line::default(),
            moves: 0,
            comments: 0,
            dead: None,
            dead_depth: 0,
        }
    }
}

/// Builds [`Game`]s from reader events, resolving moves as they come.
///
/// [`GameBuilder::check_only`] makes a builder that reports the same diagnostics
/// without keeping the moves: see there.
#[derive(Default)]
pub struct GameBuilder {
    game: Game,
    /// Only the diagnostics are wanted (see [`GameBuilder::check_only`]).
    check_only: bool,
    /// The names of this game's tags so far (with the `XDuplicate…` names made), for
    /// the duplicate test in both modes; a builder reused from game to game reuses it.
    tag_names: TagNames,
    /// When only checking: the value of the `Result` tag (the one tag value that
    /// matters after the tags; the model path reads it from the game's tags).
    /// (Kept from game to game for its allocation; `has_result` says whether this game
    /// has one.)
    checked_result: String,
    has_result: bool,
    frames: Vec<Frame>,
    fatal: Option<GameError>,
    setup_one: bool,
    fen: Option<String>,
    variant_tag: Option<String>,
    /// The first `Game` tag that names another game, and where it is.
    other_game: Option<(String, Pos)>,
    index_base: u64,
    outcome_marker: bool,
    /// Moves, comments and variations kept so far in this game (see [`MAX_GAME_NODES`]).
    nodes: usize,
    /// Set once the game passed [`MAX_GAME_NODES`]: the rest is skipped.
    over_cap: bool,
    /// Tags read so far in this game (see [`MAX_GAME_TAGS`]).
    tags_read: usize,
    /// Cleared by [`GameBuilder::set_variations_possible`]: the position before each
    /// move (where a variation starts) is not kept.
    no_variations: bool,
    /// The main line's board at the end of the game last built (see
    /// [`GameBuilder::final_board`]).
    final_board: Option<Board>,
}

impl GameBuilder {
    /// A builder for checking games: every move is resolved and played, and every
    /// diagnostic (severity, position, message) and [`GameError`] is exactly the one
    /// the default builder gives, but the returned [`Game`] keeps only its tags,
    /// outcome, start position and diagnostics: no moves, comments, variations or
    /// `XUnparsed` text, and no export SAN or check marker is computed. It is the same
    /// code as the model path with the keeping switched off, so the two cannot drift;
    /// `cescacs check` uses it for classic PGN, and a differential test in
    /// `cescacs-convert` compares both over every classic PGN file of the test data.
    ///
    /// ```
    /// use chess_pgn::{GameBuilder, PgnReader};
    /// let pgn = b"[Result \"1-0\"]\n1. e4 e5 2. Nf3 Bxh9 0-1";
    /// let full = PgnReader::new(&pgn[..]).read_game(&mut GameBuilder::default()).unwrap().unwrap().unwrap();
    /// let checked = PgnReader::new(&pgn[..]).read_game(&mut GameBuilder::check_only()).unwrap().unwrap().unwrap();
    /// assert_eq!(full.diagnostics, checked.diagnostics);
    /// assert_eq!((full.moves.moves.len(), checked.moves.moves.len()), (3, 0));
    /// ```
    pub fn check_only() -> GameBuilder {
        GameBuilder {
            check_only: true,
            ..GameBuilder::default()
        }
    }

    /// Whether a variation can start in the games read from now on (true unless set
    /// otherwise). A reader that sees a game's bytes before reading them, as `cescacs
    /// check` does, sets it to false for a game without a `(`: the builder then keeps
    /// no copy of the position before each move (a tenth of the cost of a move when
    /// only checking). Should a variation start anyway, it is skipped with a warning:
    /// a wrong setting costs diagnostics, never a wrong verdict on a move.
    ///
    /// ```
    /// use chess_pgn::{GameBuilder, PgnReader};
    /// let mut builder = GameBuilder::check_only();
    /// builder.set_variations_possible(false);
    /// let game = PgnReader::new(&b"1. e4 e5 2. Nf3 *"[..]).read_game(&mut builder).unwrap().unwrap().unwrap();
    /// assert!(game.diagnostics.is_empty());
    /// let game = PgnReader::new(&b"1. e4 e5 (1... c5) *"[..]).read_game(&mut builder).unwrap().unwrap().unwrap();
    /// assert_eq!(game.diagnostics[0].message, "variation in a game said to have none skipped");
    /// ```
    pub fn set_variations_possible(&mut self, possible: bool) {
        self.no_variations = !possible;
    }

    /// The position after the main line of the game this builder built last, as its
    /// replay left it: [`Game::final_board`] without playing the moves again (a reader
    /// of final positions would otherwise replay every game twice). `None` before the
    /// first game and after a game that could not be read (a [`GameError`]).
    ///
    /// ```
    /// use chess_pgn::{GameBuilder, PgnReader};
    /// let mut builder = GameBuilder::default();
    /// let game = PgnReader::new(&b"1. e4 e5 (1... c5) 2. Nf3 *"[..]).read_game(&mut builder).unwrap().unwrap().unwrap();
    /// assert_eq!(builder.final_board(), Some(&game.final_board()));
    /// ```
    pub fn final_board(&self) -> Option<&Board> {
        self.final_board.as_ref()
    }

    /// The `Result` tag's value, as [`Game::tag`] finds it.
    /// A result (marker or tag) that contradicts a mate or stalemate on the board
    /// after the main line is a warning naming both; `*` contradicts nothing.
    fn check_result_against_end(&mut self) {
        let Some(f) = self.frames.first() else { return };
        if f.dead.is_some() || self.fatal.is_some() {
            return;
        }
        let Some((expected, what)) = game_end(&f.board) else {
            return;
        };
        let at = self.game.at;
        let marker = self.outcome_marker.then_some(self.game.outcome);
        let tag = self
            .result_tag()
            .and_then(|r| Outcome::parse(r.trim().as_bytes()));
        for (name, given) in [("result marker", marker), ("Result tag", tag)] {
            if let Some(given) = given
                && given != Outcome::Unknown
                && given != expected
            {
                self.diag(
                    "chess.result",
                    Severity::Warning,
                    at,
                    format!(
                        "{name} {} contradicts the final position: {what} ({})",
                        given.as_str(),
                        expected.as_str()
                    ),
                );
            }
        }
    }

    fn result_tag(&self) -> Option<&str> {
        if self.check_only {
            self.has_result.then_some(self.checked_result.as_str())
        } else {
            self.game.tag("Result")
        }
    }

    /// Unparsed text starting with `first`, or nothing when only checking.
    fn dead_text(&self, first: &str) -> String {
        if self.check_only {
            String::new()
        } else {
            dead_text(first)
        }
    }

    fn diag(&mut self, code: &'static str, severity: Severity, at: Pos, message: String) {
        let n = self.game.diagnostics.len();
        if n > MAX_DIAGNOSTICS {
            return;
        }
        // Past the cap one note says so; an input of garbage (say `/dev/zero`) then
        // costs no memory per byte.
        let (severity, message, code) = if n == MAX_DIAGNOSTICS {
            (
                Severity::Warning,
                format!("more than {MAX_DIAGNOSTICS} diagnostics in this game; the rest not kept"),
                "chess.too-large",
            )
        } else {
            (severity, message, code)
        };
        self.game.diagnostics.push(Diagnostic {
            severity,
            at,
            message,
            code,
        });
    }

    fn start_position(&mut self) {
        let at = self.game.at;
        let index = self.game.index;
        if let Some((name, at)) = self.other_game.take() {
            // Its moves are another game's: never replayed as chess moves.
            self.fatal = Some(GameError::OtherGame { index, at, name });
        }
        if let Some(v) = self.variant_tag.take() {
            match Variant::from_tag(&v) {
                Ok(var) => self.game.variant = var,
                Err(name) => {
                    if self.fatal.is_none() {
                        self.fatal = Some(GameError::UnsupportedVariant { index, at, name });
                    }
                }
            }
        }
        let board = match self.fen.take() {
            Some(fen) => match parse_fen(&fen).inspect(|b| {
                self.game.fen_castling = CastlingStyle::of_fen(&fen);
                self.game.set_up = true;
                self.game.start_halfmove_clock =
                    fen_halfmove_clock(&fen).unwrap_or(u32::from(b.halfmove_clock()));
            }) {
                Ok(b) => b,
                Err(reason) => {
                    if self.fatal.is_none() {
                        self.fatal = Some(GameError::BadFen {
                            index,
                            at,
                            fen,
                            reason,
                        });
                    }
                    crate::replay::start_board().clone()
                }
            },
            None => {
                if self.setup_one && self.fatal.is_none() {
                    self.fatal = Some(GameError::SetUpWithoutFen { index, at });
                }
                crate::replay::start_board().clone()
            }
        };
        self.game.start = board.clone();
        self.frames.push(Frame::new(board));
    }

    /// [`Visitor::tag`] for any tag (the usual one when only checking takes a
    /// shorter way there).
    #[inline(never)]
    fn tag_general(&mut self, name: &[u8], value: &[u8], escaped: bool, at: Pos) {
        // Names are compared as decoded text; an ASCII name is its own decoding, so
        // only the odd other name is decoded here (diagnostics decode when they speak).
        let decoded;
        let (name, key) = match ShortName::of(name) {
            // The key's words hold every byte of the name: ASCII when no high bit is set.
            Some(k) if (k.head | k.tail) & 0x8080_8080_8080_8080 == 0 => (name, Some(k)),
            None if name.is_ascii() => (name, None),
            _ => {
                decoded = text::decode(name);
                (decoded.as_bytes(), ShortName::of(decoded.as_bytes()))
            }
        };
        let (kind, exact) = TagName::of(name, key);
        let value = self.kept_value(name, value, escaped, kind, at);
        let Some(value) = self.setting_tag(kind, value, at) else {
            return;
        };
        let (name, key) = self.roster_name(name, key, kind, exact, at);
        self.keep_tag(name, key, kind, value, at);
    }

    /// A tag's value as kept: decoded and unescaped when it is needed, its breaks
    /// read as spaces (with a warning). Empty when only checking and not needed.
    fn kept_value(
        &mut self,
        name: &[u8],
        value: &[u8],
        escaped: bool,
        kind: TagName,
        at: Pos,
    ) -> String {
        const BREAKS: [char; 5] = ['\t', '\n', '\r', '\x0b', '\x0c'];
        // Checking needs the values of only the tags that decide how the game is read
        // (and `Result`, compared with the marker). Decoding and unescaping keep or
        // drop none of the break bytes, so the raw bytes tell whether there are any.
        let needed = !self.check_only || kind.value_needed();
        let (mut value, breaks) = if needed {
            let v = text::tag_value(value, escaped);
            let breaks = v.contains(BREAKS);
            (v, breaks)
        } else {
            (String::new(), crate::text::has_break(value))
        };
        if breaks {
            // Export cannot carry these in a string (spec §2), so read them as spaces.
            value = value.replace(BREAKS, " ");
            self.diag(
                "chess.tag",
                Severity::Warning,
                at,
                format!(
                    "tab or line break in tag {} read as a space",
                    text::decode(name)
                ),
            );
        }
        value
    }

    /// Notes what the tags that decide how the game is read say. `None` for `FEN`
    /// and `SetUp`, which are kept apart and not as tags; else the value, to keep.
    fn setting_tag(&mut self, kind: TagName, value: String, at: Pos) -> Option<String> {
        match kind {
            TagName::Fen => {
                self.fen = Some(value);
                return None;
            }
            TagName::SetUp => {
                self.setup_one = value.trim() == "1";
                return None;
            }
            TagName::Variant => self.variant_tag = Some(value.clone()),
            TagName::Game
                if self.other_game.is_none() && Variant::from_game_tag(&value).is_err() =>
            {
                self.other_game = Some((value.clone(), at));
            }
            _ => {}
        }
        Some(value)
    }

    /// The name a tag is kept under: a roster name spelled otherwise (another case)
    /// becomes the roster's spelling, with a warning.
    fn roster_name<'n>(
        &mut self,
        name: &'n [u8],
        key: Option<ShortName>,
        kind: TagName,
        exact: bool,
        at: Pos,
    ) -> (&'n [u8], Option<ShortName>) {
        match kind.roster() {
            Some(canon) if !exact => {
                self.diag(
                    "chess.tag",
                    Severity::Warning,
                    at,
                    format!("tag {} read as {canon}", text::decode(name)),
                );
                (canon.as_bytes(), ShortName::of(canon.as_bytes()))
            }
            _ => (name, key),
        }
    }

    /// Keeps a tag (when building the model), `Result`'s value (when checking), and
    /// reports a repeated name.
    fn keep_tag(
        &mut self,
        name: &[u8],
        key: Option<ShortName>,
        kind: TagName,
        value: String,
        at: Pos,
    ) {
        // A repeated name keeps its last value, the earlier one going to a new tag
        // `XDuplicate<Name>` (itself a name a later tag can repeat).
        let duplicate = self.tag_names.insert(name, key);
        if self.check_only {
            if kind == TagName::Result {
                self.checked_result = value;
                self.has_result = true;
            }
        } else {
            let tags = &mut self.game.tags;
            let earlier = if duplicate {
                tags.iter().position(|(n, _)| n.as_bytes() == name)
            } else {
                None
            };
            let name = text::decode(name);
            match earlier {
                Some(i) => {
                    let old = std::mem::replace(&mut tags[i].1, value);
                    tags.push((format!("XDuplicate{name}"), old));
                }
                None => tags.push((name.into_owned(), value)),
            }
        }
        if duplicate {
            self.duplicate_tag(name, at);
        }
    }

    /// A move that could not be played: the rest of the line becomes unparsed text.
    #[cold]
    fn move_error(&mut self, e: ResolveError, raw: &[u8], at: Pos) {
        let text = String::from_utf8_lossy(raw).into_owned();
        let dead = self.dead_text(&text);
        self.top().dead = Some(dead);
        let depth = self.frames.len() - 1;
        let what = if depth == 0 { "main line" } else { "variation" };
        let msg = match e {
            ResolveError::Illegal => format!("illegal move {text} in {what}"),
            ResolveError::Ambiguous => format!("ambiguous move {text} in {what}"),
            other => format!("{other}: {text} in {what}"),
        };
        self.diag("chess.illegal-move", Severity::Error, at, msg);
    }

    /// Reports a repeated tag name (canonical spelling).
    #[cold]
    fn duplicate_tag(&mut self, name: &[u8], at: Pos) {
        let name = text::decode(name);
        self.diag(
            "chess.tag",
            Severity::Warning,
            at,
            format!("duplicate tag {name}; earlier value kept as XDuplicate{name}"),
        );
    }

    /// A tag past [`MAX_GAME_TAGS`]: skipped, the error reported on the first one.
    #[cold]
    fn too_many_tags(&mut self, at: Pos) {
        if self.tags_read == MAX_GAME_TAGS + 1 {
            self.diag(
                "chess.too-large",
                Severity::Error,
                at,
                format!(
                    "game with more than {MAX_GAME_TAGS} tags: the rest of its tags is skipped"
                ),
            );
        }
    }

    /// Counts one more node; true (with the error reported once) when the game is
    /// over [`MAX_GAME_NODES`] and this node must be skipped.
    fn count_node(&mut self, at: Pos) -> bool {
        self.nodes += 1;
        if self.nodes <= MAX_GAME_NODES {
            return false;
        }
        self.over_cap = true;
        self.diag("chess.too-large",
            Severity::Error,
            at,
            format!(
                "game larger than {MAX_GAME_NODES} moves, comments and variations: the rest is skipped"
            ),
        );
        true
    }

    /// [`Visitor::san`] of any move in any mode.
    #[cold]
    #[inline(never)]
    fn san_general(&mut self, san: SanPlus, raw: &[u8], at: Pos) -> Control {
        if self.fatal.is_some() || self.over_cap || self.count_node(at) {
            return Control::SkipMovetext;
        }
        let keep = !self.check_only;
        let variations = !self.no_variations;
        let f = self.top();
        if let Some(d) = f.dead.as_mut() {
            if keep {
                push_dead(d, &String::from_utf8_lossy(raw));
            }
            return Control::Continue;
        }
        match resolve(&f.board, &san) {
            Ok(mv) if !keep => {
                f.before = f.board.clone();
                play(&mut f.board, mv);
                f.moves += 1;
            }
            Ok(mv) => {
                let export_san = match mv {
                    Some(m) => export_san(&f.board, san.san, m),
                    None => crate::san::San::Null,
                };
                if variations {
                    f.before = f.board.clone();
                }
                play(&mut f.board, mv);
                // The check marker is read off the position just reached, saving the
                // extra play that `SanPlus::from_move` would do.
                let export = SanPlus {
                    san: export_san,
                    suffix: crate::san::Suffix::of(&f.board),
                    glyph: None,
                };
                f.moves += 1;
                f.line.moves.push(MoveNode {
                    mv,
                    san: export,
                    nags: Vec::new(),
                    after: Vec::new(),
                    clock: None,
                    eval: None,
                });
                if let Some(g) = san.glyph
                    && let Some(m) = f.line.moves.last_mut()
                {
                    m.nags.push(g);
                }
            }
            Err(e) => self.move_error(e, raw, at),
        }
        Control::Continue
    }

    /// [`Visitor::san`] when keeping the model. The usual move (a legal move, not a
    /// null move, of a live line under the node cap, with no glyph) is resolved, given
    /// its export SAN and played here, the way [`Self::san_general`] does it for
    /// every move; anything else goes there. Not inlined: the checking loop stays as
    /// small as it was.
    #[inline(never)]
    fn san_model(&mut self, san: SanPlus, raw: &[u8], at: Pos) -> Control {
        if self.fatal.is_none()
            && !self.over_cap
            && self.nodes < MAX_GAME_NODES
            && san.glyph.is_none()
            && !matches!(san.san, crate::san::San::Null)
            && let Some(f) = self.frames.last_mut()
            && f.dead.is_none()
            && let Ok(mv) = san.san.to_move(&f.board)
        {
            self.nodes += 1;
            let export_san = export_san(&f.board, san.san, mv);
            if !self.no_variations {
                f.before = f.board.clone();
            }
            f.board.play_unchecked(mv);
            f.moves += 1;
            f.line.moves.push(MoveNode {
                mv: Some(mv),
                san: SanPlus {
                    san: export_san,
                    suffix: crate::san::Suffix::of(&f.board),
                    glyph: None,
                },
                nags: Vec::new(),
                after: Vec::new(),
                clock: None,
                eval: None,
            });
            return Control::Continue;
        }
        self.san_general(san, raw, at)
    }

    fn top(&mut self) -> &mut Frame {
        // begin_movetext always pushes the main-line frame before any movetext event.
        if self.frames.is_empty() {
            self.start_position();
        }
        let n = self.frames.len();
        &mut self.frames[n - 1]
    }
}

/// What a tag name means to the builder, told from its bytes without decoding them
/// (every name compared here is ASCII letters, and a name with another byte equals
/// none of them ignoring ASCII case, decoded or not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TagName {
    /// `FEN`, in any case: the start position, not kept as a tag.
    Fen,
    /// `SetUp`, in any case: not kept as a tag.
    SetUp,
    /// `Variant`, in any case: the rules, also kept as a tag.
    Variant,
    /// `Game`, in any case: which game the record is, also kept as a tag.
    Game,
    /// `Result`, in any case: a roster name whose value checking needs.
    Result,
    /// Another Seven Tag Roster name in any case, with its canonical spelling.
    Roster(&'static str),
    /// Any other name.
    Other,
}

impl TagName {
    /// The meaning of a name (whose [`ShortName`] is `key`), and whether it is spelled
    /// exactly as the canonical name it equals ignoring case.
    #[inline(always)]
    fn of(name: &[u8], key: Option<ShortName>) -> (TagName, bool) {
        // The length and first letter pick the one name a name can equal, ignoring case.
        let first = name.first().map_or(0, |b| b | 0x20);
        let (kind, canon) = match (name.len(), first) {
            (3, b'f') => (TagName::Fen, "FEN"),
            (4, b'g') => (TagName::Game, "Game"),
            (4, b's') => (TagName::Roster("Site"), "Site"),
            (4, b'd') => (TagName::Roster("Date"), "Date"),
            (5, b's') => (TagName::SetUp, "SetUp"),
            (5, b'e') => (TagName::Roster("Event"), "Event"),
            (5, b'r') => (TagName::Roster("Round"), "Round"),
            (5, b'w') => (TagName::Roster("White"), "White"),
            (5, b'b') => (TagName::Roster("Black"), "Black"),
            (6, b'r') => (TagName::Result, "Result"),
            (7, b'v') => (TagName::Variant, "Variant"),
            _ => return (TagName::Other, false),
        };
        let (Some(key), Some(want)) = (key, ShortName::of(canon.as_bytes())) else {
            return (TagName::Other, false);
        };
        // Canonical names are letters: a byte equals a letter ignoring ASCII case
        // exactly when it equals the lowercase letter once bit 5 is set.
        if key.ascii_letters_lowered() != want.ascii_letters_lowered() {
            return (TagName::Other, false);
        }
        debug_assert!(canon.as_bytes().eq_ignore_ascii_case(name));
        (kind, key == want)
    }

    /// The canonical spelling of a Seven Tag Roster name.
    fn roster(self) -> Option<&'static str> {
        match self {
            TagName::Result => Some("Result"),
            TagName::Roster(canon) => Some(canon),
            _ => None,
        }
    }

    /// Whether checking needs the value: the tags that decide how the game is read,
    /// and `Result` (compared with the marker).
    fn value_needed(self) -> bool {
        matches!(
            self,
            TagName::Fen | TagName::SetUp | TagName::Variant | TagName::Game | TagName::Result
        )
    }
}

/// A tag name of at most 16 bytes as two words and a length, built from overlapping
/// loads: two names have equal keys exactly when they are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct ShortName {
    head: u64,
    tail: u64,
    len: usize,
}

impl ShortName {
    #[inline(always)]
    fn of(name: &[u8]) -> Option<ShortName> {
        let n = name.len();
        let word4 = |b: Option<&[u8; 4]>| b.map_or(0, |b| u64::from(u32::from_le_bytes(*b)));
        let word8 = |b: Option<&[u8; 8]>| b.map_or(0, |b| u64::from_le_bytes(*b));
        let (head, tail) = match n {
            0 => (0, 0),
            // Bytes 0, n/2 and n-1 are all the bytes of a name this short.
            1..=3 => (
                u64::from(name[0]) | u64::from(name[n / 2]) << 8 | u64::from(name[n - 1]) << 16,
                0,
            ),
            4..=7 => (word4(name.first_chunk()), word4(name.last_chunk())),
            8..=16 => (word8(name.first_chunk()), word8(name.last_chunk())),
            _ => return None,
        };
        Some(ShortName { head, tail, len: n })
    }

    /// The key with bit 5 of every byte of the name set (`A`..`Z` read as `a`..`z`).
    fn ascii_letters_lowered(self) -> ShortName {
        let bytes = |n: usize| u64::MAX >> (64 - 8 * n.min(8));
        let lower = 0x2020_2020_2020_2020;
        let (head, tail) = match self.len {
            0 => (0, 0),
            1..=3 => (lower & bytes(3), 0),
            4..=7 => (lower & bytes(4), lower & bytes(4)),
            _ => (lower, lower),
        };
        ShortName {
            head: self.head | head,
            tail: self.tail | tail,
            len: self.len,
        }
    }

    /// The filter bit of the name (see [`TagNames`]).
    fn bit(self) -> u64 {
        let mix = (self.head ^ self.tail.rotate_left(29) ^ self.len as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        1 << (mix >> 58)
    }
}

/// The set of one game's tag names (decoded), for the duplicate test. Names of up to
/// 16 bytes (nearly all) are kept as [`ShortName`] keys, longer ones end to end in a
/// buffer; a 64-bit filter answers most lookups of a new name without a scan, and past
/// [`TagNames::SMALL`] names hash sets take over, so that a game with very many tags
/// costs linear time.
#[derive(Default)]
struct TagNames {
    short: Vec<ShortName>,
    long: Vec<u8>,
    /// End offset in `long` of each long name, in order.
    long_ends: Vec<usize>,
    /// One bit per short name, chosen by [`ShortName::bit`].
    filter: u64,
    /// Every name, once there are more than [`TagNames::SMALL`].
    many_short: std::collections::HashSet<ShortName>,
    many_long: std::collections::HashSet<Vec<u8>>,
    /// A prefixed name being built.
    scratch: Vec<u8>,
}

impl TagNames {
    /// Names looked up by a scan; more go to the hash sets.
    const SMALL: usize = 32;

    fn clear(&mut self) {
        self.short.clear();
        self.long.clear();
        self.long_ends.clear();
        self.filter = 0;
        self.many_short.clear();
        self.many_long.clear();
    }

    fn len(&self) -> usize {
        self.short.len() + self.long_ends.len()
    }

    #[inline(always)]
    fn contains(&self, name: &[u8], key: Option<ShortName>) -> bool {
        let many = self.len() > Self::SMALL;
        match key {
            Some(key) if many => self.many_short.contains(&key),
            Some(key) => self.filter & key.bit() != 0 && self.short.contains(&key),
            None if many => self.many_long.contains(name),
            None => {
                let mut start = 0;
                self.long_ends.iter().any(|&end| {
                    let found = &self.long[start..end] == name;
                    start = end;
                    found
                })
            }
        }
    }

    /// Adds a name (whose [`ShortName`] is `key`) when it is new and returns false;
    /// else adds `XDuplicate` + name (the tag the earlier value goes to) and returns
    /// true.
    #[inline(always)]
    fn insert(&mut self, name: &[u8], key: Option<ShortName>) -> bool {
        // The usual case, a short name among few: the filter bit computed once.
        if let Some(key) = key
            && self.len() < Self::SMALL
        {
            let bit = key.bit();
            if self.filter & bit == 0 || !self.short.contains(&key) {
                self.short.push(key);
                self.filter |= bit;
                return false;
            }
        } else if !self.contains(name, key) {
            self.add(name, key);
            return false;
        }
        self.add_duplicate(name);
        true
    }

    /// Adds `XDuplicate` + name: the tag the earlier value of a repeated name goes to.
    #[cold]
    fn add_duplicate(&mut self, name: &[u8]) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend_from_slice(b"XDuplicate");
        scratch.extend_from_slice(name);
        self.add(&scratch, ShortName::of(&scratch));
        self.scratch = scratch;
    }

    #[inline(always)]
    fn add(&mut self, name: &[u8], key: Option<ShortName>) {
        match key {
            Some(key) if self.len() < Self::SMALL => {
                self.short.push(key);
                self.filter |= key.bit();
            }
            _ => self.add_rare(name, key),
        }
    }

    /// [`TagNames::add`] for a long name or past [`TagNames::SMALL`] names.
    #[cold]
    fn add_rare(&mut self, name: &[u8], key: Option<ShortName>) {
        match key {
            Some(key) => {
                self.short.push(key);
                self.filter |= key.bit();
            }
            None => {
                self.long.extend_from_slice(name);
                self.long_ends.push(self.long.len());
            }
        }
        let n = self.len();
        if n == Self::SMALL + 1 {
            self.many_short.extend(self.short.iter().copied());
            let mut start = 0;
            for &end in &self.long_ends {
                self.many_long.insert(self.long[start..end].to_vec());
                start = end;
            }
        } else if n > Self::SMALL {
            match key {
                Some(key) => {
                    self.many_short.insert(key);
                }
                None => {
                    self.many_long.insert(name.to_vec());
                }
            }
        }
    }
}

/// Appends a token's text to an `XUnparsed` comment, with whitespace collapsed as in
/// every comment, so the text survives export unchanged.
fn push_dead(s: &mut String, piece: &str) {
    if s.len() > MAX_UNPARSED {
        if !s.ends_with(" …") {
            s.push_str(" …");
        }
        return;
    }
    for w in piece.split_whitespace() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(w);
    }
}

fn dead_text(first: &str) -> String {
    let mut s = String::from("XUnparsed:");
    push_dead(&mut s, first);
    s
}

impl Visitor for GameBuilder {
    type Output = Result<Game, GameError>;

    // The legal replay inlined into the move loop is large: the rare paths out of
    // line leave the loop room in the instruction cache (stop 41: the largest
    // `read_game` instance 26.7 KB -> 10.7 KB, `check` 2 M instructions fewer).
    const RARE_OUT_OF_LINE: bool = true;

    fn begin_game(&mut self, at: Pos) {
        self.tag_names.clear();
        self.tags_read = 0;
        self.has_result = false;
        self.game.at = at;
        self.index_base += 1;
        self.game.index = self.index_base;
    }

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, at: Pos) {
        self.tags_read += 1;
        if self.tags_read > MAX_GAME_TAGS {
            self.too_many_tags(at);
            return;
        }
        // The usual tag when only checking: an ASCII name that is not spelled as a
        // roster name in another case and whose value is not needed, a value without
        // breaks. All there is to do is the duplicate test; this is what the general
        // path does for such a tag, without its set-up.
        if self.check_only
            && let Some(key) = ShortName::of(name)
            && (key.head | key.tail) & 0x8080_8080_8080_8080 == 0
        {
            let (kind, exact) = TagName::of(name, Some(key));
            if !kind.value_needed()
                && (exact || kind.roster().is_none())
                && !crate::text::has_break(value)
            {
                if self.tag_names.insert(name, Some(key)) {
                    self.duplicate_tag(name, at);
                }
                return;
            }
            // `Result` so spelled, with a plain value: the value is its own decoding.
            if kind == TagName::Result
                && exact
                && !escaped
                && let Ok(v) = std::str::from_utf8(value)
                && v.is_ascii()
                && !crate::text::has_break(value)
            {
                self.checked_result.clear();
                self.checked_result.push_str(v);
                self.has_result = true;
                if self.tag_names.insert(name, Some(key)) {
                    self.duplicate_tag(name, at);
                }
                return;
            }
        }
        self.tag_general(name, value, escaped, at);
    }

    fn begin_movetext(&mut self) {
        self.start_position();
    }

    // Inlined into the reader's move loop (as the library replay's visitor is): the
    // call and its register saves cost 3 % of `cescacs check` on a typical file
    // (forced: with the attack-lookup resolution inside, plain `#[inline]` no longer
    // inlined it).
    #[inline(always)]
    fn san(&mut self, san: SanPlus, raw: &[u8], at: Pos) -> Control {
        // The usual move when only checking: a legal move (not a null move) of a live
        // line under the node cap (which [`Self::count_node`] would pass). Kept apart
        // from the general path so that it costs little more than the move's
        // resolution and play.
        if self.check_only
            && self.fatal.is_none()
            && !self.over_cap
            && self.nodes < MAX_GAME_NODES
            && !matches!(san.san, crate::san::San::Null)
            && let Some(f) = self.frames.last_mut()
            && f.dead.is_none()
            && let Ok(mv) = san.san.to_move(&f.board)
        {
            self.nodes += 1;
            if !self.no_variations {
                f.before = f.board.clone();
            }
            f.board.play_unchecked(mv);
            f.moves += 1;
            return Control::Continue;
        }
        if !self.check_only {
            return self.san_model(san, raw, at);
        }
        self.san_general(san, raw, at)
    }

    fn nag(&mut self, nag: u8, at: Pos) {
        if self.over_cap {
            return;
        }
        let keep = !self.check_only;
        let f = self.top();
        if let Some(d) = f.dead.as_mut() {
            if keep {
                push_dead(d, &format!("${nag}"));
            }
            return;
        }
        match f.moves {
            // $0 is the null annotation: export never writes it, so it is not kept.
            1.. if nag == 0 => self.diag(
                "chess.nag",
                Severity::Warning,
                at,
                "null annotation $0 dropped".into(),
            ),
            1.. => {
                if let Some(m) = f.line.moves.last_mut() {
                    m.nags.push(nag);
                }
            }
            0 => self.diag(
                "chess.nag",
                Severity::Warning,
                at,
                format!("NAG ${nag} before any move dropped"),
            ),
        }
    }

    fn comment(&mut self, raw: &[u8], at: Pos) {
        if self.over_cap || self.count_node(at) {
            return;
        }
        if self.check_only {
            // Nothing said about a comment depends on its text.
            if !self.outcome_marker {
                let f = self.top();
                if f.dead.is_none() && f.moves == 0 {
                    f.comments += 1;
                }
            }
            return;
        }
        let text = text::comment(raw);
        if self.outcome_marker {
            self.game.final_comments.push(text);
            return;
        }
        let f = self.top();
        if let Some(d) = f.dead.as_mut() {
            push_dead(d, &text);
            return;
        }
        match f.line.moves.last_mut() {
            Some(m) => {
                let (clk, eval) = parse_commands(&text);
                if clk.is_some() {
                    m.clock = clk;
                }
                if eval.is_some() {
                    m.eval = eval;
                }
                m.after.push(After::Comment(text));
            }
            None => {
                f.comments += 1;
                f.line.comments.push(text);
            }
        }
    }

    fn begin_variation(&mut self, at: Pos) -> Skip {
        if self.over_cap || self.count_node(at) {
            return Skip(true);
        }
        let keep = !self.check_only;
        let f = self.top();
        if let Some(d) = f.dead.as_mut() {
            if keep {
                push_dead(d, "(");
            }
            f.dead_depth += 1;
            return Skip(false);
        }
        if f.moves == 0 {
            self.diag(
                "chess.variation",
                Severity::Warning,
                at,
                "variation before any move dropped".into(),
            );
            return Skip(true);
        }
        if self.no_variations {
            // Set wrongly (`set_variations_possible`): where the variation starts
            // was not kept.
            self.diag(
                "chess.variation",
                Severity::Warning,
                at,
                "variation in a game said to have none skipped".into(),
            );
            return Skip(true);
        }
        if self.frames.len() > MAX_VARIATION_DEPTH {
            self.diag(
                "chess.too-deep",
                Severity::Warning,
                at,
                format!("variation nested deeper than {MAX_VARIATION_DEPTH} levels skipped"),
            );
            return Skip(true);
        }
        let f = self.top();
        let b = f.before.clone();
        self.frames.push(Frame::new(b));
        Skip(false)
    }

    fn end_variation(&mut self, at: Pos) {
        let keep = !self.check_only;
        let f = self.top();
        if f.dead.is_some() && f.dead_depth > 0 {
            f.dead_depth -= 1;
            if let Some(d) = f.dead.as_mut()
                && keep
            {
                push_dead(d, ")");
            }
            return;
        }
        if self.frames.len() < 2 {
            return;
        }
        let Some(mut done) = self.frames.pop() else {
            return;
        };
        if let Some(d) = done.dead.take() {
            if done.moves == 0 {
                done.comments += 1;
            }
            if keep {
                match done.line.moves.last_mut() {
                    Some(m) => m.after.push(After::Comment(d)),
                    None => done.line.comments.push(d),
                }
            }
        }
        let parent = self.top();
        if parent.dead.is_some() {
            return;
        }
        if done.moves == 0 && done.comments == 0 {
            self.diag(
                "chess.variation",
                Severity::Warning,
                at,
                "empty variation dropped".into(),
            );
            return;
        }
        if let Some(m) = parent.line.moves.last_mut() {
            m.after.push(After::Variation(done.line));
        }
    }

    fn outcome(&mut self, outcome: Outcome, at: Pos) {
        self.top();
        self.game.outcome = outcome;
        self.outcome_marker = true;
        if let Some(tag) = self
            .result_tag()
            .and_then(|r| Outcome::parse(r.trim().as_bytes()))
            && tag != outcome
        {
            self.diag(
                "chess.result",
                Severity::Warning,
                at,
                format!(
                    "result marker {} differs from Result tag {}",
                    outcome.as_str(),
                    tag.as_str()
                ),
            );
        }
    }

    fn escape(&mut self, text: &[u8], at: Pos) {
        let t = text::decode(text);
        self.diag(
            "chess.escape",
            Severity::Warning,
            at,
            format!(
                "escape line `%{}` dropped (the game model has no place for it)",
                t.trim_end()
            ),
        );
    }

    fn ignored(&mut self, text: &[u8], at: Pos) {
        let t = String::from_utf8_lossy(text);
        self.diag(
            "chess.spelling",
            Severity::Warning,
            at,
            format!("en passant marker `{t}` dropped (the move itself says it)"),
        );
    }

    fn problem(&mut self, problem: Problem, text: &[u8], at: Pos) {
        let t = String::from_utf8_lossy(text).into_owned();
        let severity = match problem {
            Problem::NotAMove => Severity::Error,
            _ => Severity::Warning,
        };
        if problem == Problem::NotAMove && self.fatal.is_none() {
            let keep = !self.check_only;
            let dead = self.dead_text(&t);
            let f = self.top();
            match f.dead.as_mut() {
                Some(d) => {
                    if keep {
                        push_dead(d, &t);
                    }
                    return;
                }
                None => f.dead = Some(dead),
            }
        }
        self.diag(
            problem_code(problem),
            severity,
            at,
            format!("{problem}: {t}"),
        );
    }

    fn end_game(&mut self) -> Self::Output {
        if self.frames.is_empty() {
            self.start_position();
        }
        // Unclosed variations were closed by the reader; fold any left anyway.
        while self.frames.len() > 1 {
            self.end_variation(self.game.at);
        }
        self.check_result_against_end();
        let mut main = match self.frames.pop() {
            Some(f) => {
                self.final_board = Some(f.board);
                (f.line, f.dead)
            }
            None => {
                self.final_board = None;
                Default::default()
            }
        };
        if let Some(d) = main.1.take() {
            match main.0.moves.last_mut() {
                Some(m) => m.after.push(After::Comment(d)),
                None => main.0.comments.push(d),
            }
        }
        let mut game = std::mem::take(&mut self.game);
        game.moves = main.0;
        if !self.outcome_marker {
            let result = if self.check_only {
                self.has_result.then_some(self.checked_result.as_str())
            } else {
                tag_in(&game.tags, "Result")
            };
            game.outcome = result
                .and_then(|r| Outcome::parse(r.trim().as_bytes()))
                .unwrap_or(Outcome::Unknown);
            game.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                at: game.at,
                message: format!("no result marker; using {}", game.outcome.as_str()),
                code: "chess.result",
            });
        }
        self.outcome_marker = false;
        self.tag_names.clear();
        self.has_result = false;
        self.nodes = 0;
        self.over_cap = false;
        self.tags_read = 0;
        self.setup_one = false;
        self.fen = None;
        self.variant_tag = None;
        self.other_game = None;
        match self.fatal.take() {
            Some(e) => {
                self.final_board = None;
                Err(e)
            }
            None => Ok(game),
        }
    }
}

/// Iterator of owned games over any reader; a game that cannot be modelled yields
/// `Err` (located) and iteration goes on with the next one.
pub struct Games<R> {
    reader: PgnReader<R>,
    builder: GameBuilder,
    done: bool,
}

impl<R: Read> Games<R> {
    /// Reads games from `inner` (buffered internally; pass any `Read`).
    pub fn new(inner: R) -> Games<R> {
        Games {
            reader: PgnReader::new(inner),
            builder: GameBuilder::default(),
            done: false,
        }
    }

    /// [`Games::new`] with a first buffer of `capacity` bytes (see
    /// [`PgnReader::with_capacity`]): for one game in memory, its length plus one.
    pub fn with_capacity(inner: R, capacity: usize) -> Games<R> {
        Games {
            reader: PgnReader::with_capacity(inner, capacity),
            builder: GameBuilder::default(),
            done: false,
        }
    }
}

impl<R: Read> Iterator for Games<R> {
    type Item = Result<Game, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.reader.read_game(&mut self.builder) {
            Ok(Some(r)) => Some(r),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e.into()))
            }
        }
    }
}

/// Reads every game of a string (convenience for tests and small inputs).
pub fn parse_all(pgn: &str) -> Vec<Result<Game, GameError>> {
    Games::new(pgn.as_bytes()).collect()
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        let mut s = String::new();
        let _ = write!(
            s,
            "{}: {kind}: {}",
            self.at,
            pgn_core::escape_controls(&self.message)
        );
        f.write_str(&s)
    }
}
