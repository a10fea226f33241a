//! Xiangqi FEN: a tolerant reader (side letters `w`/`r`/`b`, missing fields) and an
//! exact writer.

use crate::position::Position;
use crate::types::{Piece, PieceKind, Side, Square};

/// Why a FEN string cannot describe a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    #[error("FEN is empty")]
    /// Nothing to read.
    Empty,
    #[error("FEN board has {0} ranks, expected 10")]
    /// The board does not have 10 ranks.
    RankCount(usize),
    #[error("FEN rank {rank} (counted from the top) has {width} points, expected 9")]
    /// A rank does not hold 9 points.
    RankWidth {
        /// The rank, counted from the top from 0.
        rank: usize,
        /// The points it holds.
        width: usize,
    },
    #[error("unexpected character {0:?} in the FEN board")]
    /// A character that is no piece letter, digit or `/`.
    BadChar(char),
    #[error("unexpected side-to-move field {0:?}, expected w, r or b")]
    /// The side-to-move field is not `w`, `r` or `b`.
    BadSide(String),
    #[error("{side:?} has {count} generals, expected exactly 1")]
    /// A side does not have exactly one general.
    GeneralCount {
        /// The side.
        side: Side,
        /// How many generals it has.
        count: usize,
    },
    #[error("{side:?} has {count} pieces of kind {kind:?}, more than a xiangqi set holds")]
    /// More pieces of a kind than a set holds.
    TooMany {
        /// The side.
        side: Side,
        /// The kind.
        kind: PieceKind,
        /// How many are on the board.
        count: usize,
    },
    #[error("the generals face each other on an open file (the side not to move is in check)")]
    /// The two generals face each other with nothing between them: the side to move
    /// could take the other general, a position no game reaches.
    FacingGenerals,
    #[error("the side not to move is in check")]
    /// The side that just moved left its general in check, a position no game reaches
    /// (refused as C'escacs TLPD and classic FEN refuse it; see docs/xiangqi-decisions.md).
    OpponentInCheck,
}

/// Things a FEN reader accepted but that do not follow the standard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenWarning {
    /// No side-to-move field: Red assumed.
    MissingSide,
    /// No halfmove/fullmove counters: 0 and 1 assumed.
    MissingCounters,
    /// A piece on a point it can never legally reach (composed problems do this).
    IllegalPlacement(Square, Piece),
}

/// A parsed FEN: the position plus the tolerated irregularities.
#[derive(Debug, Clone)]
pub struct ParsedFen {
    /// The position read.
    pub position: Position,
    /// What the reader tolerated.
    pub warnings: Vec<FenWarning>,
}

const MAX_COUNT: [usize; 7] = [1, 2, 2, 2, 2, 2, 5];

/// Reads a FEN, tolerating `r` for Red, a missing side (Red), missing counters, and
/// `E`/`H` piece letters.
pub fn parse_fen(s: &str) -> Result<ParsedFen, FenError> {
    let mut fields = s.split_whitespace();
    let board_field = fields.next().ok_or(FenError::Empty)?;
    let ranks: Vec<&str> = board_field.split('/').collect();
    if ranks.len() != 10 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = [0u8; 90];
    let mut counts = [[0usize; 7]; 2];
    for (row, text) in ranks.iter().enumerate() {
        let y = 9 - row as u8;
        let mut x: usize = 0;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                x += d as usize;
            } else if let Some(kind) = PieceKind::from_letter(c) {
                let side = if c.is_ascii_uppercase() {
                    Side::Red
                } else {
                    Side::Black
                };
                if x < 9 {
                    board[y as usize * 9 + x] = Piece::new(side, kind).code();
                }
                counts[side as usize][kind as usize] += 1;
                x += 1;
            } else {
                return Err(FenError::BadChar(c));
            }
        }
        if x != 9 {
            return Err(FenError::RankWidth {
                rank: row + 1,
                width: x,
            });
        }
    }
    for side in [Side::Red, Side::Black] {
        let g = counts[side as usize][0];
        if g != 1 {
            return Err(FenError::GeneralCount { side, count: g });
        }
        for kind in PieceKind::ALL {
            let count = counts[side as usize][kind as usize];
            if count > MAX_COUNT[kind as usize] {
                return Err(FenError::TooMany { side, kind, count });
            }
        }
    }
    let mut warnings = Vec::new();
    let side = match fields.next() {
        None => {
            warnings.push(FenWarning::MissingSide);
            Side::Red
        }
        Some(f) => match f.to_ascii_lowercase().as_str() {
            "w" | "r" => Side::Red,
            "b" => Side::Black,
            _ => return Err(FenError::BadSide(f.to_string())),
        },
    };
    // Castling and en-passant fields are always "-" in xiangqi; some writers drop them.
    let numbers: Vec<u32> = fields
        .filter(|f| *f != "-")
        .filter_map(|f| f.parse().ok())
        .collect();
    let (halfmove, fullmove) = match numbers.as_slice() {
        [h, f, ..] => (*h, (*f).max(1)),
        _ => {
            if !warnings.contains(&FenWarning::MissingSide) {
                warnings.push(FenWarning::MissingCounters);
            }
            (0, 1)
        }
    };
    let position = Position::from_parts(board, side, halfmove, fullmove);
    check_placement(&position, &mut warnings);
    check_side_not_to_move(&position)?;
    Ok(ParsedFen { position, warnings })
}

fn check_placement(p: &Position, warnings: &mut Vec<FenWarning>) {
    for sq in Square::all() {
        let Some(piece) = p.piece_at(sq) else {
            continue;
        };
        let (x, y) = (sq.file(), sq.rank());
        // Mirror Black onto Red's half so one set of rules covers both sides.
        let ry = if piece.side == Side::Red { y } else { 9 - y };
        let ok = match piece.kind {
            PieceKind::General => (3..=5).contains(&x) && ry <= 2,
            PieceKind::Advisor => {
                matches!((x, ry), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2))
            }
            PieceKind::Elephant => matches!(
                (x, ry),
                (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
            ),
            PieceKind::Soldier => ry >= 5 || (ry >= 3 && x % 2 == 0),
            _ => true,
        };
        if !ok {
            warnings.push(FenWarning::IllegalPlacement(sq, piece));
        }
    }
}

/// Refuses a position whose side not to move is in check: the move generator would
/// offer the capture of a general.
fn check_side_not_to_move(p: &Position) -> Result<(), FenError> {
    let (r, b) = (p.general(Side::Red), p.general(Side::Black));
    let (low, high) = (r.rank().min(b.rank()), r.rank().max(b.rank()));
    if r.file() == b.file()
        && (low + 1..high)
            .all(|y| Square::new(r.file(), y).is_some_and(|s| p.piece_at(s).is_none()))
    {
        return Err(FenError::FacingGenerals);
    }
    let mut other = p.clone();
    other.side = p.side.opposite();
    if other.is_check() {
        return Err(FenError::OpponentInCheck);
    }
    Ok(())
}

/// `let p: Position = fen.parse()?` reads a FEN as [`Position::from_fen`] does.
impl std::str::FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

/// Writes the FEN ([`Position::to_fen`]).
impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl Position {
    /// Reads a FEN (see [`parse_fen`]), dropping the warnings.
    pub fn from_fen(s: &str) -> Result<Position, FenError> {
        parse_fen(s).map(|p| p.position)
    }

    /// The FEN of this position, with `w` for Red.
    pub fn to_fen(&self) -> String {
        self.to_fen_with(false)
    }

    /// The FEN, writing Red to move as `r` (the seed's spelling) when `red_as_r` is set.
    pub fn to_fen_with(&self, red_as_r: bool) -> String {
        let mut s = self.board_fen();
        s.push(' ');
        s.push(match (self.side, red_as_r) {
            (Side::Black, _) => 'b',
            (Side::Red, true) => 'r',
            (Side::Red, false) => 'w',
        });
        s.push_str(&format!(" - - {} {}", self.halfmove, self.fullmove));
        s
    }

    /// Only the placement field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for y in (0..10u8).rev() {
            let mut empty = 0;
            for x in 0..9u8 {
                match self.piece_at(Square::new(x, y).unwrap()) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if y > 0 {
                s.push('/');
            }
        }
        s
    }
}
