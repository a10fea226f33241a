//! Classic chess PGN games: tolerant streaming import, exact export, and SAN replay on a permissive rules crate.
//!
//! Three levels, from fastest to most convenient:
//!
//! * [`PgnReader`] + your own [`Visitor`]: streaming events, nothing allocated per move.
//! * [`PgnReader`] + [`Replayer`]: each game's main line resolved and played
//!   ([`Replayed`] holds the final position or the first located error).
//! * [`Games`]: an iterator of owned [`Game`]s (resolved move tree, comments, NAGs,
//!   variations, `[%clk]`/`[%eval]` fields, located diagnostics), written back in
//!   export format by [`write_game`] / [`to_pgn_string`].
//!
//! To check games, [`GameBuilder::check_only`] gives the model path's diagnostics
//! exactly, without building the model.
//!
//! ```
//! use chess_pgn::{Games, to_pgn_string};
//!
//! let pgn = "[White \"A\"]\n1.e4 e5 2.Nf3 {[%clk 0:03:00]} Nc6 3.Bb5 a6 1/2-1/2";
//! let game = Games::new(pgn.as_bytes()).next().unwrap().unwrap();
//! assert_eq!(game.moves.moves.len(), 6);
//! assert_eq!(game.moves.moves[2].clock, Some(180.0));
//! let out = to_pgn_string(&game);
//! assert!(out.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]"));
//! assert!(out.ends_with("\n\n1. e4 e5 2. Nf3 {[%clk 0:03:00]} 2... Nc6 3. Bb5 a6 1/2-1/2\n\n"));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// Private modules and one flat list of re-exports: the paths below are the API.
mod headers;
mod model;
mod notation;
mod reader;
mod replay;
mod rows;
mod san;
mod single;
mod stream;
mod text;
mod writer;

/// The board and move types of this crate's signatures ([`Replayer`], [`Replayed`],
/// [`parse_fen`], [`Ply`] …) are cozy-chess's, re-exported on purpose so that a user names
/// the very version this crate was built with; a major change of cozy-chess is a major
/// change of chess-pgn (docs/api.md).
pub use cozy_chess;
pub use headers::{GameHeaders, Headers, HeadersVisitor, known_tag_name};
pub use model::{
    After, CastlingStyle, Clock, Diagnostic, Eval, Game, GameBuilder, GameError, Games, Line,
    MAX_DIAGNOSTICS, MAX_GAME_NODES, MAX_GAME_TAGS, MAX_UNPARSED, MAX_VARIATION_DEPTH, MoveNode,
    Plies, Ply, Severity, Turn, Variant, game_end, parse_all, parse_commands, parse_fen, to_fen,
    with_halfmove_clock,
};
pub use notation::{Notation, lan, lan_with_suffix, uci};
pub use pgn_core::Pos;
pub use reader::{Control, MAX_TOKEN, Outcome, PgnReader, Problem, ReadError, Skip, Visitor};
pub use replay::{ReplayError, Replayed, Replayer, start_board};
pub use rows::{GameRow, PlyColumns};
pub use san::{CastleSide, ResolveError, San, SanError, SanPlus, Suffix, glyph_nag};
pub use single::read_single_game;
pub use stream::{export_pgn, export_pgn_bytes};
pub use text::{comment, decode, has_break, tag_value};
pub use writer::{
    MAX_LINE, STR, WriteOptions, WriteWarning, Written, export_tag_pairs, export_tags,
    export_tags_with, to_pgn_string, to_pgn_with, write_game,
};
