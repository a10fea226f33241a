#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod encoding;
mod model;
pub mod notation;
mod reader;
mod writer;

pub use encoding::{TextEncoding, decode, encode};
pub use model::{Game, Line, MoveNode};
pub use notation::{MoveError, MoveStyle, Notation, render, resolve_any};
pub use reader::{FileRead, GameRead, ReadError, Warning, read_bytes, read_path, read_str};
pub use writer::{canonical_tags, write_game, write_games, write_xml, write_xml_game};

/// Replays a game's main line from its start and returns the final position; always
/// succeeds for games produced by the reader, whose moves come from the generator.
pub fn replay(game: &Game) -> xiangqi::Position {
    game.final_position()
}
