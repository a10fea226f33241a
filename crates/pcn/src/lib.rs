//! PCN, the Portable Chess Notation: a JSON game model for boards of any shape, with validation and a rules-free replayer.
//!
//! This crate implements the *seed* (2012) edition described in `docs/pcn.md`: boards
//! as nested arrays, pieces as `[+]style:abbreviation` strings whose case gives the
//! side, moves as lists of `[subject, verb, object, options?]` actions.
//!
//! * [`from_str`] / [`from_slice`] read and validate a document; errors carry a JSON
//!   path, e.g. `previous_moves[12][0][1]: unknown verb "shfit"`.
//! * [`to_string`] / [`to_string_pretty`] write it back deterministically.
//! * [`replay`] applies the actions literally and returns the final [`Position`].
//! * [`GameBuilder`] assembles a document for converters.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod board;
mod builder;
mod cache;
mod error;
mod model;
mod piece;
mod raw;
mod read;
mod replay;
mod write;

pub use board::{Board, Coord};
pub use builder::GameBuilder;
pub use cache::{Warning, WarningKind, check_cache, recompute_cache};
pub use error::{JsonPath, PieceError, ReadError, Reason, ReplayError, ReplayReason, Segment};
pub use model::{
    Action, Cache, CaptureRecord, Extensions, Game, Move, Options, SideCache, Status, Verb,
};
pub use piece::{Piece, Side};
pub use read::{
    from_slice, from_slice_many, from_slice_many_with_warnings, from_slice_with_warnings, from_str,
    from_value, is_date_time, validate,
};
pub use replay::{Position, ReplayOptions, Taken, replay, replay_with};
pub use write::{to_string, to_string_pretty, to_value, write_to, write_to_with};

impl<'de> serde::Deserialize<'de> for Game {
    /// Goes through the same two passes as [`from_str`]; the error message starts with
    /// the JSON path. Only the location of a syntax error is less precise than with
    /// [`from_str`] (the deserializer reports it in its own words).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        use serde::de::{DeserializeSeed, Error};
        let tracker = raw::Tracker::new();
        let tree = match raw::RawSeed::root(&tracker).deserialize(d) {
            Ok(t) => t,
            Err(e) => {
                if let Some(k) = tracker.duplicate() {
                    let p = tracker.path();
                    return Err(D::Error::custom(ReadError {
                        path: p,
                        reason: Reason::DuplicateKey(k),
                    }));
                }
                return Err(e);
            }
        };
        read::game(&tree).map_err(D::Error::custom)
    }
}

impl std::str::FromStr for Game {
    type Err = ReadError;
    fn from_str(s: &str) -> Result<Game, ReadError> {
        from_str(s)
    }
}
