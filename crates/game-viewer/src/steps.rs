//! Every position of a game, whatever the format it was read from: the main line and
//! each variation, with the move as the source wrote it and what was said about it.

use board_svg::BoardKind;
use cescacs_convert::{
    GameKind, MoveTree, PlyMove, Record, Score, TreeError, TreePosition, move_tree,
};

/// The position before the first move, or after one half-move.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Shown {
    /// FEN (chess, xiangqi) or TLPD (C'escacs).
    pub position: String,
    /// One character per cell index of the board (see [`board_svg::BoardKind`]): the
    /// man's letter, upper case White (Red), lower case Black; `.` for an empty cell.
    pub board: String,
    /// The cell of the side to move's king when it is in check.
    pub check: Option<u16>,
    /// The side to move is checkmated.
    pub mate: bool,
}

/// One half-move with the position after it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Step {
    /// The move as the source wrote it (SAN for chess, regenerated; Chinese, WXF or
    /// ICCS for xiangqi as written; CTL-AN with its check marker for C'escacs).
    pub text: String,
    /// Full-move number.
    pub number: u32,
    /// Black (or xiangqi's Black) made this move.
    pub black: bool,
    /// The position after the move.
    pub shown: Shown,
    /// From and to cell indices.
    pub last_move: Option<(u16, u16)>,
    /// NAGs as numbers or glyphs as written (`$1`, `!?`).
    pub nags: Vec<String>,
    /// Comments after the move (commands such as `[%clk]` kept verbatim).
    pub comments: Vec<String>,
    /// The clock after the move (`[%clk]`), as `h:mm:ss`.
    pub clock: Option<String>,
    /// The engine evaluation (`[%eval]`): `+0.35` in pawns from White's view, `#-3`.
    pub eval: Option<String>,
    /// Alternatives to this move, each starting from the position before it.
    pub variations: Vec<Vec<Step>>,
}

/// A game's positions: the start, then every half-move of the main line (each with its
/// variations), as [`steps`] gives them.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSteps {
    /// Which board.
    pub kind: BoardKind,
    /// The tags in record order.
    pub tags: Vec<(String, String)>,
    /// Comments before the first move.
    pub intro: Vec<String>,
    /// The start position.
    pub start: Shown,
    /// The main line.
    pub main: Vec<Step>,
    /// The result as written, if any.
    pub result: Option<String>,
}

impl GameSteps {
    /// The position after `ply` main-line half-moves (0: the start); `None` past the
    /// end.
    pub fn position_after(&self, ply: usize) -> Option<&Shown> {
        match ply {
            0 => Some(&self.start),
            k => self.main.get(k - 1).map(|s| &s.shown),
        }
    }
}

/// The picture of a game after `ply` main-line half-moves (0: the start): the men,
/// the last move, a king in check or mated, and the position as caption and as the
/// picture's `data-position`; `None` past the end of the main line.
pub fn picture(steps: &GameSteps, ply: usize) -> Option<String> {
    let shown = steps.position_after(ply)?;
    let men: Vec<board_svg::Man> = shown
        .board
        .chars()
        .enumerate()
        .filter(|(_, c)| *c != '.')
        .map(|(i, c)| board_svg::Man {
            cell: i as u16,
            side: if c.is_ascii_uppercase() {
                board_svg::Side::White
            } else {
                board_svg::Side::Black
            },
            letter: c.to_ascii_uppercase(),
        })
        .collect();
    let marks = board_svg::Marks {
        last_move: ply.checked_sub(1).and_then(|i| steps.main[i].last_move),
        check: shown.check,
        mate: shown.mate,
    };
    let position = Some(shown.position.as_str());
    Some(board_svg::picture(
        steps.kind, &men, &marks, false, position, position,
    ))
}

/// Why a record's positions cannot be listed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepsError {
    /// The record could not be read: nothing to show.
    Unreadable,
    /// A PCN document of a board none of the rules engines plays.
    UnknownBoard,
    /// A C'escacs move could not be replayed (only in a record read with errors).
    Replay {
        /// The half-move's index from the game's start (0-based: 0 is the first
        /// half-move; a start position that cannot be read is 0 too).
        ply: usize,
        /// Why.
        reason: String,
    },
}

impl std::fmt::Display for StepsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepsError::Unreadable => write!(f, "the game could not be read"),
            StepsError::UnknownBoard => write!(f, "a PCN document of an unknown board"),
            StepsError::Replay { ply, reason } => {
                write!(f, "half-move {} could not be replayed: {reason}", ply + 1)
            }
        }
    }
}

impl std::error::Error for StepsError {}

/// The positions of a record: the start, and after every half-move of the main line
/// and of every variation, from the record's move tree ([`cescacs_convert::move_tree`],
/// the one walk of a game's moves for every consumer). A record read with errors gives
/// the moves read before the first error (its errors are the record's own,
/// [`Record::errors`]).
///
/// ```
/// use cescacs_convert::{Format, Record};
/// let record = Record::from_bytes(Format::Pgn, b"1. e4 e5 (1... c5) 2. Qh5 *\n");
/// let steps = game_viewer::steps(&record).unwrap();
/// assert_eq!(steps.main.len(), 3);
/// assert_eq!(steps.main[0].shown.position, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// assert_eq!(steps.main[1].variations[0][0].text, "c5");
/// ```
pub fn steps(record: &Record) -> Result<GameSteps, StepsError> {
    let tree = move_tree(record, true).map_err(|e| match e {
        TreeError::Unreadable => StepsError::Unreadable,
        TreeError::UnknownBoard => StepsError::UnknownBoard,
        TreeError::Replay { ply, reason } => StepsError::Replay {
            ply: ply.saturating_sub(1),
            reason,
        },
        e => StepsError::Replay {
            ply: 0,
            reason: e.to_string(),
        },
    })?;
    let root = tree.nodes.first().ok_or(StepsError::Unreadable)?;
    Ok(GameSteps {
        kind: match tree.kind {
            GameKind::Chess => BoardKind::Chess,
            GameKind::Xiangqi => BoardKind::Xiangqi,
            GameKind::Cescacs => BoardKind::Cescacs,
        },
        tags: record.tags(),
        intro: root.comments.clone(),
        start: shown(&root.position),
        main: line(&tree, tree.next(0)),
        result: record.result(),
    })
}

/// The half-moves from node `first` on, following each node's main continuation.
fn line(tree: &MoveTree, first: Option<usize>) -> Vec<Step> {
    let mut out = Vec::new();
    let mut at = first;
    while let Some(id) = at {
        out.extend(step(tree, id));
        at = tree.next(id);
    }
    out
}

/// The half-move leading to node `id` (`None` at the root).
fn step(tree: &MoveTree, id: usize) -> Option<Step> {
    let node = &tree.nodes[id];
    let (mv, parent) = (node.mv.as_ref()?, node.parent?);
    let before = &tree.nodes[parent].position;
    let (number, black) = match before {
        TreePosition::Chess { board, .. } => (
            u32::from(board.fullmove_number()),
            board.side_to_move() == chess_pgn::cozy_chess::Color::Black,
        ),
        TreePosition::Xiangqi(p) => (
            p.fullmove_number(),
            p.side_to_move() == xiangqi::Side::Black,
        ),
        TreePosition::Cescacs(p) => {
            let black = p.side_to_move() == cescacs_rules::Side::Black;
            // A TLPD start may leave the number out: count from 1 at the start.
            let number = p.fullmove_number().unwrap_or_else(|| {
                let start_black = matches!(&tree.nodes[0].position,
                    TreePosition::Cescacs(s) if s.side_to_move() == cescacs_rules::Side::Black);
                ((mv.ply - 1 + usize::from(start_black)) / 2 + 1) as u32
            });
            (number, black)
        }
    };
    // A variation replaces the main continuation it stands beside: the viewer shows
    // the parent's other children as alternatives to that move.
    let variations = if tree.next(parent) == Some(id) {
        tree.children(parent)
            .skip(1)
            .map(|v| line(tree, Some(v)))
            .collect()
    } else {
        Vec::new()
    };
    Some(Step {
        text: mv.written().to_string(),
        number,
        black,
        shown: shown(&node.position),
        last_move: last_move(before, mv),
        nags: mv.nags.clone(),
        comments: mv.comments.clone(),
        clock: mv.clock.map(clock),
        eval: mv.eval.map(|e| match e {
            Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) => format!("#{n}"),
        }),
        variations,
    })
}

/// The cells a move joins, from its squares as the tree spells them (chess castling
/// as the king's own move); `None` for a null move.
fn last_move(before: &TreePosition, mv: &PlyMove) -> Option<(u16, u16)> {
    let (from, to) = (mv.from_square(), mv.to_square());
    match before {
        TreePosition::Chess { board, .. } => {
            let m = chess_pgn::cozy_chess::Move {
                from: from.parse().ok()?,
                to: to.parse().ok()?,
                promotion: None,
            };
            Some((m.from as u16, crate::play::chess_to(board, m) as u16))
        }
        TreePosition::Xiangqi(_) => {
            Some((xq::index(from.parse().ok()?), xq::index(to.parse().ok()?)))
        }
        TreePosition::Cescacs(_) => Some((
            board_svg::hex_index(from.parse().ok()?),
            board_svg::hex_index(to.parse().ok()?),
        )),
    }
}

/// How a position of the tree is shown.
fn shown(p: &TreePosition) -> Shown {
    match p {
        TreePosition::Chess { board, .. } => chess::shown_as(board, p.fen()),
        TreePosition::Xiangqi(p) => xq::shown(p),
        TreePosition::Cescacs(p) => hex::shown(p),
    }
}

/// A clock in seconds as `h:mm:ss`.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

pub(crate) mod chess {
    use super::Shown;
    use chess_pgn::CastlingStyle;
    use chess_pgn::cozy_chess::{Board, Color, GameStatus, Square};

    /// How `board` is shown, its FEN written with cozy-chess's halfmove clock.
    pub(crate) fn shown(board: &Board, style: CastlingStyle) -> Shown {
        let clock = u32::from(board.halfmove_clock());
        shown_as(board, cescacs_convert::chess_fen(board, clock, style))
    }

    /// How `board` is shown, with `fen` as its position text.
    pub(super) fn shown_as(board: &Board, fen: String) -> Shown {
        let mut cells = String::with_capacity(64);
        for sq in Square::ALL {
            cells.push(match (board.piece_on(sq), board.color_on(sq)) {
                (Some(p), Some(Color::White)) => char::from(p).to_ascii_uppercase(),
                (Some(p), _) => char::from(p),
                _ => '.',
            });
        }
        let checked = !board.checkers().is_empty();
        Shown {
            position: fen,
            board: cells,
            check: checked.then(|| board.king(board.side_to_move()) as u16),
            mate: checked && board.status() == GameStatus::Won,
        }
    }
}

pub(crate) mod xq {
    use super::Shown;
    use xiangqi::{Position, Square, Status};

    pub(crate) fn index(sq: Square) -> u16 {
        u16::from(sq.rank()) * 9 + u16::from(sq.file())
    }

    pub(crate) fn shown(p: &Position) -> Shown {
        let mut cells = vec!['.'; 90];
        for sq in Square::all() {
            if let Some(piece) = p.piece_at(sq) {
                cells[usize::from(index(sq))] = piece.fen_char();
            }
        }
        let checked = p.is_check();
        Shown {
            position: p.to_fen(),
            board: cells.into_iter().collect(),
            check: checked.then(|| index(p.general(p.side_to_move()))),
            mate: checked && p.status() == Status::Checkmate,
        }
    }
}

pub(crate) mod hex {
    use super::Shown;
    use board_svg::hex_index;
    use cescacs_hex::Cell;
    use cescacs_rules::{Letters, Position, Side, Status};

    pub(crate) fn shown(p: &Position) -> Shown {
        let letters = Letters::default();
        let mut cells = String::with_capacity(169);
        for cell in Cell::all() {
            cells.push(match p.piece_at(cell) {
                Some(piece) if piece.side == Side::White => letters.letter(piece.kind),
                Some(piece) => letters.letter(piece.kind).to_ascii_lowercase(),
                None => '.',
            });
        }
        let checked = !p.checkers().is_empty();
        Shown {
            position: cescacs_tlpd::write(p),
            board: cells,
            check: checked.then(|| hex_index(p.king(p.side_to_move()))),
            mate: checked && p.status() == Status::Checkmate,
        }
    }
}
