//! CTL-PGN game files for C'escacs: a pest grammar, a lossless game model, a tolerant
//! reader, an exact writer and legal replay.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diag;
pub mod escape;
pub mod fast;
pub mod grammar;
pub mod letters;
pub mod model;
pub mod plies;
pub mod read;
pub mod replay;
pub mod write;

pub use diag::{Code, Diagnostic, Severity};
pub use fast::{read_game, read_str};
pub use letters::{LetterTable, PieceKind};
pub use model::*;
pub use plies::{Plies, Ply};
pub use read::{MAX_GAME_NODES, MAX_GAME_TAGS, MAX_VARIATION_DEPTH, Record, split_records};
pub use replay::{Markers, Options, Replayed, Written, check, replay, replay_record, write};
pub use write::{Form, write_game, write_games};
