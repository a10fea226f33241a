//! Allocation-free replay on the streaming path: resolve and play the main line.

use cozy_chess::Board;
use pgn_core::Pos;

use crate::model::{Variant, parse_fen};
use crate::reader::{Control, Outcome, Problem, Skip, Visitor};
use crate::san::{ResolveError, SanPlus};
use crate::text;

/// The standard start position, built once (`Board::default()` validates a whole
/// position, which costs more than reading a short game's tags).
///
/// ```
/// assert_eq!(*chess_pgn::start_board(), chess_pgn::cozy_chess::Board::default());
/// ```
pub fn start_board() -> &'static Board {
    static START: std::sync::OnceLock<Board> = std::sync::OnceLock::new();
    START.get_or_init(Board::default)
}

/// Why a game's main line could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    #[error("{at}: {error}: {san}")]
    /// A move could not be played.
    Move {
        /// Where the move is.
        at: Pos,
        /// The move as written.
        san: String,
        /// Why it could not be played.
        error: ResolveError,
    },
    #[error("{at}: not a move: {text}")]
    /// A movetext word that is no move.
    NotAMove {
        /// Where it is.
        at: Pos,
        /// The word.
        text: String,
    },
    #[error("{at}: bad FEN {fen:?}: {reason}")]
    /// The `FEN` tag could not be read.
    BadFen {
        /// Where the tag is.
        at: Pos,
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    #[error(
        "{at}: [Game {name:?}] names a game this reader does not implement (only chess and Chess960 are read)"
    )]
    /// A `Game` tag naming another game (`Xiangqi`, `Shogi`…): its moves are not
    /// replayed as chess moves.
    OtherGame {
        /// Where the tag is.
        at: Pos,
        /// The game as named.
        name: String,
    },
    #[error("{at}: unsupported variant {0:?}", .name)]
    /// A `Variant` other than standard chess and Chess960.
    UnsupportedVariant {
        /// Where the tag is.
        at: Pos,
        /// The variant as named.
        name: String,
    },
}

/// The result of replaying one game's main line.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// Where the game starts.
    pub at: Pos,
    /// Moves played (plies) before the end or the first error.
    pub plies: u32,
    /// The position reached.
    pub board: Board,
    /// The termination marker, when there was one.
    pub outcome: Option<Outcome>,
    /// The first problem met; moves before it were played.
    pub error: Option<ReplayError>,
}

/// A [`Visitor`] that plays the main line on cozy-chess and skips variations;
/// the only allocations happen when a game has an error or a `FEN` tag.
#[derive(Default)]
pub struct Replayer {
    board: Board,
    at: Pos,
    plies: u32,
    outcome: Option<Outcome>,
    error: Option<ReplayError>,
}

impl Visitor for Replayer {
    type Output = Replayed;

    fn begin_game(&mut self, at: Pos) {
        self.board = start_board().clone();
        self.at = at;
        self.plies = 0;
        self.outcome = None;
        self.error = None;
    }

    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, at: Pos) {
        if self.error.is_some() {
            return;
        }
        if name.eq_ignore_ascii_case(b"FEN") {
            let fen = text::tag_value(value, escaped);
            match parse_fen(&fen) {
                Ok(b) => self.board = b,
                Err(reason) => self.error = Some(ReplayError::BadFen { at, fen, reason }),
            }
        } else if name.eq_ignore_ascii_case(b"Game") {
            let v = text::tag_value(value, escaped);
            if let Err(name) = Variant::from_game_tag(&v) {
                self.error = Some(ReplayError::OtherGame { at, name });
            }
        } else if name.eq_ignore_ascii_case(b"Variant") {
            let v = text::tag_value(value, escaped);
            if let Err(name) = Variant::from_tag(&v) {
                self.error = Some(ReplayError::UnsupportedVariant { at, name });
            }
        }
    }

    fn san(&mut self, san: SanPlus, raw: &[u8], at: Pos) -> Control {
        if self.error.is_some() {
            return Control::SkipMovetext;
        }
        let resolved = match san.san {
            crate::san::San::Null => match self.board.null_move() {
                Some(b) => {
                    self.board = b;
                    self.plies += 1;
                    return Control::Continue;
                }
                None => Err(ResolveError::Illegal),
            },
            _ => san.san.to_move(&self.board),
        };
        match resolved {
            Ok(m) => {
                self.board.play_unchecked(m);
                self.plies += 1;
                Control::Continue
            }
            Err(error) => {
                self.error = Some(ReplayError::Move {
                    at,
                    san: String::from_utf8_lossy(raw).into_owned(),
                    error,
                });
                Control::SkipMovetext
            }
        }
    }

    fn begin_variation(&mut self, _at: Pos) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, outcome: Outcome, _at: Pos) {
        self.outcome = Some(outcome);
    }

    fn problem(&mut self, problem: Problem, text: &[u8], at: Pos) {
        if problem == Problem::NotAMove && self.error.is_none() {
            self.error = Some(ReplayError::NotAMove {
                at,
                text: String::from_utf8_lossy(text).into_owned(),
            });
        }
    }

    fn end_game(&mut self) -> Replayed {
        Replayed {
            at: self.at,
            plies: self.plies,
            board: std::mem::replace(&mut self.board, start_board().clone()),
            outcome: self.outcome,
            error: self.error.take(),
        }
    }
}
