//! Xiangqi game records: PGN with Chinese, WXF, ICCS and SAN moves, their encodings, and XML output.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod encoding;
mod lexer;
mod model;
mod notation;
mod reader;
mod sniff;
mod writer;

pub use encoding::{Detection, TextEncoding, decode, decode_as, detect, encode};
pub use model::{Game, Line, MoveNode, Plies, Ply};
pub use notation::{MoveError, MoveStyle, Notation, render, resolve_any, tandem_order_sensitive};
pub use reader::{
    FileRead, GameRead, Games, Headers, MAX_FILE_WARNINGS, MAX_GAME_BYTES, MAX_VARIATION_DEPTH,
    MAX_WARNINGS_PER_GAME, ReadError, ReadOptions, Warning, WarningKind, games, games_with,
    names_another_game, read_bytes, read_bytes_with, read_headers, read_path, read_str,
    read_str_with,
};
pub use sniff::{Evidence, evidence, looks_like_xiangqi, xiangqi_confidence};
pub use writer::{
    WriteLayout, canonical_tags, write_game, write_game_with, write_games, write_xml,
    write_xml_game,
};

#[cfg(test)]
mod writer_hostile_tests;

/// Replays a game's main line from its start and returns the final position; always
/// succeeds for games produced by the reader, whose moves come from the generator.
pub fn replay(game: &Game) -> xiangqi::Position {
    game.final_position()
}
