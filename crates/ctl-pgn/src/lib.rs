//! CTL-PGN game files for C'escacs: a pest grammar, a lossless game model, a tolerant
//! reader, an exact writer and legal replay.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// Private modules and one flat list of re-exports: the paths below are the API.
mod diag;
mod escape;
mod fast;
mod games;
mod grammar;
mod letters;
mod model;
mod plies;
mod read;
mod replay;
mod write;

pub use diag::{Code, Diagnostic, Severity};
pub use escape::{decode, unescape};
// The fast reader is the one users read with; the grammar-driven reader (pest, from the
// normative grammar) is public as the reference the fast one is held to
// (`compare_readers`, the differential tests and fuzz targets).
pub use fast::{Agreement, compare_readers, read_game, read_str};
pub use games::names_another_game;
pub use letters::{LetterRead, LetterTable, PieceKind};
pub use model::{
    Assessment, Castling, CellName, CheckMark, Comment, CommentKind, Game, GameResult, Item, Line,
    MoveNode, MoveToken, Promotion, Reference, ReferenceKind, Separator, Side, Span, Tag,
    Variation,
};
pub use plies::{Plies, Ply};
pub use read::{
    MAX_GAME_NODES, MAX_GAME_TAGS, MAX_VARIATION_DEPTH, Record, WHOLE_PARSE_LIMIT,
    read_str as read_str_grammar, read_str_tokenwise as read_str_grammar_tokenwise, split_records,
};
pub use replay::{Markers, Options, Replayed, Written, check, replay, replay_record, write};
pub use write::{Form, half_text, write_game, write_games};
