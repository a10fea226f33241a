#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod fen;
mod position;
mod tables;
mod types;

pub use fen::{FenError, FenWarning, ParsedFen, parse_fen};
pub use position::{Move, MoveList, Position, START_FEN, Status, divide, perft};
pub use types::{Piece, PieceKind, Side, Square, SquareParseError};
