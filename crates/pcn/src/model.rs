//! The game document: moves, actions, status, cache, extensions.

use crate::board::{Board, Coord};
use crate::piece::Piece;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};
use std::fmt;
use std::str::FromStr;

/// Extension data: keys beginning with `...`, in document order.
pub type Extensions = Map<String, Value>;

/// The seven verbs of the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    /// Put a piece that is not on the board (in hand) onto an empty square.
    Drop,
    /// Take an opponent piece; it goes to the mover's hand (Shōgi style).
    Capture,
    /// Take an opponent piece; it leaves play (chess style).
    Remove,
    /// Move a piece to an empty square.
    Shift,
    /// Lift a piece above a square (to pass over it).
    Jump,
    /// Put the lifted piece down on an empty square.
    Land,
    /// Put the lifted piece down on an opponent piece, taking it out of play.
    Stun,
}

impl Verb {
    /// Every verb, in the seed's order.
    pub const ALL: [Verb; 7] = [
        Verb::Drop,
        Verb::Capture,
        Verb::Remove,
        Verb::Shift,
        Verb::Jump,
        Verb::Land,
        Verb::Stun,
    ];
    /// The verb as the seed spells it (lower case).
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Drop => "drop",
            Verb::Capture => "capture",
            Verb::Remove => "remove",
            Verb::Shift => "shift",
            Verb::Jump => "jump",
            Verb::Land => "land",
            Verb::Stun => "stun",
        }
    }
    /// Verbs whose object must hold an opponent piece that is taken.
    pub fn takes(self) -> bool {
        matches!(self, Verb::Capture | Verb::Remove | Verb::Stun)
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Verb {
    type Err = ();
    /// Exact, lower-case match: the seed spells verbs in lower case and a tolerant match
    /// would make `"Shift"` round-trip to a different byte string.
    fn from_str(s: &str) -> Result<Verb, ()> {
        Verb::ALL.into_iter().find(|v| v.as_str() == s).ok_or(())
    }
}

/// The optional fourth element of an action.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// The piece the subject becomes once the action is done.
    pub promotion: Option<Piece>,
    /// `...`-prefixed options, kept verbatim.
    pub extensions: Extensions,
}

impl Serialize for Options {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(p) = &self.promotion {
            m.serialize_entry("promotion", p)?;
        }
        for (k, v) in &self.extensions {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// `[subject, verb, object, options?]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    /// The acting piece: a square or a piece name.
    pub subject: Coord,
    /// What the action does.
    pub verb: Verb,
    /// The target square, or a piece name.
    pub object: Coord,
    /// The fourth element, when present.
    pub options: Option<Options>,
}

impl Action {
    /// An action without options.
    pub fn new(subject: impl Into<Coord>, verb: Verb, object: impl Into<Coord>) -> Action {
        Action {
            subject: subject.into(),
            verb,
            object: object.into(),
            options: None,
        }
    }
    /// `[from, "shift", to]`.
    pub fn shift(from: impl Into<Coord>, to: impl Into<Coord>) -> Action {
        Action::new(from, Verb::Shift, to)
    }
    /// `[from, "remove", to]`.
    pub fn remove(from: impl Into<Coord>, to: impl Into<Coord>) -> Action {
        Action::new(from, Verb::Remove, to)
    }
    /// `[from, "capture", to]`.
    pub fn capture(from: impl Into<Coord>, to: impl Into<Coord>) -> Action {
        Action::new(from, Verb::Capture, to)
    }
    /// `[piece, "drop", to]`.
    pub fn drop(piece: Piece, to: impl Into<Coord>) -> Action {
        Action::new(piece, Verb::Drop, to)
    }
    /// Adds the `promotion` option.
    pub fn promote(mut self, to: Piece) -> Action {
        self.options.get_or_insert_with(Options::default).promotion = Some(to);
        self
    }
    /// The `promotion` option, if any.
    pub fn promotion(&self) -> Option<&Piece> {
        self.options.as_ref().and_then(|o| o.promotion.as_ref())
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = if self.options.is_some() { 4 } else { 3 };
        let mut seq = s.serialize_seq(Some(n))?;
        seq.serialize_element(&self.subject)?;
        seq.serialize_element(self.verb.as_str())?;
        seq.serialize_element(&self.object)?;
        if let Some(o) = &self.options {
            seq.serialize_element(o)?;
        }
        seq.end()
    }
}

/// A move: one or more actions performed in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Move(pub Vec<Action>);

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl From<Vec<Action>> for Move {
    fn from(v: Vec<Action>) -> Move {
        Move(v)
    }
}

/// The `over?` / `...result?` table of the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// `over?` false, `...result?` null.
    InProgress,
    /// `over?` false, `...result?` false.
    TopProposesDraw,
    /// `over?` false, `...result?` true.
    BottomProposesDraw,
    /// `over?` true, `...result?` false.
    TopWon,
    /// `over?` true, `...result?` true.
    BottomWon,
    /// `over?` true, `...result?` null.
    Draw,
}

impl Status {
    /// The status the seed's two keys give (see the table of A.5).
    pub fn from_keys(over: bool, result: Option<bool>) -> Status {
        match (over, result) {
            (false, Some(false)) => Status::TopProposesDraw,
            (false, Some(true)) => Status::BottomProposesDraw,
            (false, None) => Status::InProgress,
            (true, Some(false)) => Status::TopWon,
            (true, Some(true)) => Status::BottomWon,
            (true, None) => Status::Draw,
        }
    }
    /// `(over?, ...result?)`.
    pub fn keys(self) -> (bool, Option<bool>) {
        match self {
            Status::TopProposesDraw => (false, Some(false)),
            Status::BottomProposesDraw => (false, Some(true)),
            Status::InProgress => (false, None),
            Status::TopWon => (true, Some(false)),
            Status::BottomWon => (true, Some(true)),
            Status::Draw => (true, None),
        }
    }
}

/// `{piece, from}` in a side's `captures` list.
#[derive(Debug, Clone, PartialEq)]
pub struct CaptureRecord {
    /// The piece taken.
    pub piece: Piece,
    /// Where it was taken (the crate writes the flattened square).
    pub from: Coord,
}

impl Serialize for CaptureRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("piece", &self.piece)?;
        m.serialize_entry("from", &self.from)?;
        m.end()
    }
}

/// `...cache.topside` / `...cache.bottomside`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideCache {
    /// Pieces the side may drop (its hand).
    pub dropable_pieces: Option<Vec<Piece>>,
    /// Pieces the side took.
    pub captures: Option<Vec<CaptureRecord>>,
    /// Any other key, kept verbatim (the cache is derived data; we do not judge it).
    pub other: Extensions,
}

impl Serialize for SideCache {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(v) = &self.dropable_pieces {
            m.serialize_entry("dropable_pieces", v)?;
        }
        if let Some(v) = &self.captures {
            m.serialize_entry("captures", v)?;
        }
        for (k, v) in &self.other {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The `...cache` section: derived data a reader may drop and recompute.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cache {
    /// The board after the moves.
    pub current_position: Option<Board>,
    /// The legal moves from there (needs the game's rules).
    pub possible_moves: Option<Vec<Move>>,
    /// The top side's hand and captures.
    pub topside: Option<SideCache>,
    /// The bottom side's hand and captures.
    pub bottomside: Option<SideCache>,
    /// Any other cached key, kept verbatim.
    pub other: Extensions,
}

impl Serialize for Cache {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(v) = &self.current_position {
            m.serialize_entry("current_position", v)?;
        }
        if let Some(v) = &self.possible_moves {
            m.serialize_entry("possible_moves", v)?;
        }
        if let Some(v) = &self.topside {
            m.serialize_entry("topside", v)?;
        }
        if let Some(v) = &self.bottomside {
            m.serialize_entry("bottomside", v)?;
        }
        for (k, v) in &self.other {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A seed-edition PCN game document.
///
/// Keys are written in the seed's order: `started_at`, `topside_player`,
/// `bottomside_player`, `over?`, `...result?`, `starting_position`, `previous_moves`,
/// `...cache`, then the extension keys in the order they were read or added.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    /// When the game started (ISO 8601).
    pub started_at: Option<String>,
    /// The name of the player whose pieces start at row 0 (lower case).
    pub topside_player: Option<String>,
    /// The name of the other player (upper case, moves first).
    pub bottomside_player: Option<String>,
    /// `over?` and `...result?`.
    pub status: Status,
    /// The board before the first move.
    pub starting_position: Board,
    /// The moves in playing order.
    pub previous_moves: Vec<Move>,
    /// Derived data (see the `cache` functions): may be absent, partial or stale.
    pub cache: Option<Cache>,
    /// `...` keys of the document, kept verbatim in order.
    pub extensions: Extensions,
}

impl Game {
    /// A game with no moves, in progress, from `starting_position`.
    pub fn new(starting_position: Board) -> Game {
        Game {
            started_at: None,
            topside_player: None,
            bottomside_player: None,
            status: Status::InProgress,
            starting_position,
            previous_moves: Vec::new(),
            cache: None,
            extensions: Extensions::new(),
        }
    }
}

impl Serialize for Game {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        self.serialize_entries(&mut m)?;
        m.end()
    }
}

impl Game {
    /// Every key of the document, in the order [`Game`]'s `Serialize` writes them.
    pub(crate) fn serialize_entries<M: SerializeMap>(&self, m: &mut M) -> Result<(), M::Error> {
        if let Some(v) = &self.started_at {
            m.serialize_entry("started_at", v)?;
        }
        if let Some(v) = &self.topside_player {
            m.serialize_entry("topside_player", v)?;
        }
        if let Some(v) = &self.bottomside_player {
            m.serialize_entry("bottomside_player", v)?;
        }
        let (over, result) = self.status.keys();
        m.serialize_entry("over?", &over)?;
        m.serialize_entry("...result?", &result)?;
        m.serialize_entry("starting_position", &self.starting_position)?;
        m.serialize_entry("previous_moves", &self.previous_moves)?;
        if let Some(c) = &self.cache {
            m.serialize_entry("...cache", c)?;
        }
        for (k, v) in &self.extensions {
            m.serialize_entry(k, v)?;
        }
        Ok(())
    }
}

/// A document followed by one more extension entry whose value is any `Serialize`
/// type (see [`crate::write_to_with`]).
pub(crate) struct WithTail<'a, T: ?Sized> {
    pub(crate) game: &'a Game,
    pub(crate) key: &'a str,
    pub(crate) value: &'a T,
}

impl<T: Serialize + ?Sized> Serialize for WithTail<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        self.game.serialize_entries(&mut m)?;
        m.serialize_entry(self.key, self.value)?;
        m.end()
    }
}
