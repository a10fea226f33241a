//! Xiangqi (Chinese chess) rules: positions, legal move generation, check and mate, FEN and perft.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod fen;
mod position;
mod tables;
mod types;

pub use fen::{FenError, FenWarning, ParsedFen, parse_fen};
pub use position::{
    MAX_PERFT_DEPTH, MAX_PERFT_JOBS, Move, MoveList, PerftError, PerftSplit, Position, START_FEN,
    Status, divide, perft, perft_split, try_divide, try_perft,
};
pub use types::{Piece, PieceKind, Side, Square, SquareParseError};
