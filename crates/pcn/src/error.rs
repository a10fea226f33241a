//! Error types: a read error is a JSON path plus a reason, a replay error a move and
//! action index plus a reason.

use std::fmt;

/// One step of a JSON path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    Key(String),
    Index(usize),
}

/// Where in a document something went wrong, e.g. `previous_moves[12][0][1]`.
///
/// Keys made only of letters, digits, `_`, `?` (optionally after the `...` extension
/// prefix) print bare; any other key prints as `["key"]` so the path stays unambiguous.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct JsonPath(pub Vec<Segment>);

impl JsonPath {
    pub fn root() -> Self {
        JsonPath(Vec::new())
    }
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }
    pub(crate) fn push_key(&mut self, k: &str) {
        self.0.push(Segment::Key(k.to_owned()));
    }
    pub(crate) fn push_index(&mut self, i: usize) {
        self.0.push(Segment::Index(i));
    }
    pub(crate) fn pop(&mut self) {
        self.0.pop();
    }
}

/// Longest user-supplied string an error message repeats in full: a 1 MB key must not
/// become a 1 MB message (twice: once in the path, once in the reason).
const MAX_SHOWN_CHARS: usize = 64;

/// Displays a string from the input the way `{:?}` would, cut to [`MAX_SHOWN_CHARS`]
/// characters with the full length stated. The error values keep the whole string.
pub(crate) struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.chars().count();
        if n <= MAX_SHOWN_CHARS {
            return write!(f, "{:?}", self.0);
        }
        let head: String = self.0.chars().take(MAX_SHOWN_CHARS).collect();
        write!(f, "{head:?}… ({n} characters)")
    }
}

fn bare_key(k: &str) -> bool {
    let body = k.strip_prefix("...").unwrap_or(k);
    !body.is_empty()
        && body
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '?')
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("$");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Key(k) if bare_key(k) && k.len() <= MAX_SHOWN_CHARS => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Segment::Key(k) => write!(f, "[{}]", Quoted(k))?,
            }
        }
        Ok(())
    }
}

/// Why a piece string is not valid (seed pattern `^[+]?[a-z0-9_]+:[a-z0-9_]+$`, case-insensitive,
/// plus the case rule that encodes the side).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PieceError {
    #[error("missing the \":\" between style and abbreviation")]
    NoColon,
    #[error("more than one \":\"")]
    ExtraColon,
    #[error("empty style")]
    EmptyStyle,
    #[error("empty abbreviation")]
    EmptyAbbreviation,
    #[error("character {0:?} is not allowed (only a-z, A-Z, 0-9, _)")]
    BadChar(char),
    #[error("the style mixes upper and lower case")]
    MixedCaseStyle,
    #[error("the abbreviation mixes upper and lower case (its case is the side)")]
    MixedCaseAbbreviation,
    #[error("the abbreviation has no letter, so its case cannot tell the side")]
    NoLetter,
}

/// The reason part of a [`ReadError`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Reason {
    #[error("invalid JSON: {message} at line {line} column {column}")]
    Syntax {
        message: String,
        line: usize,
        column: usize,
    },
    #[error("duplicate key {}", Quoted(.0))]
    DuplicateKey(String),
    #[error("expected {expected}, found {found}")]
    Type {
        expected: &'static str,
        found: &'static str,
    },
    #[error("missing key {0:?}")]
    MissingKey(&'static str),
    #[error("unknown key {} (extension keys start with \"...\")", Quoted(.0))]
    UnknownKey(String),
    #[error(
        "unsupported PCN edition: key {} belongs to the {edition} edition; this reader implements the seed edition",
        Quoted(key)
    )]
    UnsupportedEdition { key: String, edition: &'static str },
    #[error("unknown verb {}", Quoted(.0))]
    UnknownVerb(String),
    #[error("invalid piece {}: {why}", Quoted(value))]
    BadPiece { value: String, why: PieceError },
    #[error("a board needs at least one square")]
    EmptyBoard,
    #[error(
        "ragged board: expected {expected} elements like the first array of this level, found {found}"
    )]
    Ragged { expected: usize, found: usize },
    #[error("an action has 3 or 4 elements [subject, verb, object, options?], found {0}")]
    ActionArity(usize),
    #[error("a move needs at least one action")]
    EmptyMove,
    #[error("coordinate has {found} indices but the board has {expected} dimensions")]
    CoordinateDimensions { expected: usize, found: usize },
    #[error("index {index} is off the board (dimension {dimension} has {extent} squares)")]
    OffBoard {
        index: u64,
        dimension: usize,
        extent: usize,
    },
    #[error("square {index} is off the board (it has {squares} squares)")]
    FlatOffBoard { index: u64, squares: usize },
    #[error("expected a non-negative integer index, found {0}")]
    NotAnIndex(String),
    #[error("the {role} of \"{verb}\" must be {must}")]
    WrongCoordinateForm {
        role: &'static str,
        verb: &'static str,
        must: &'static str,
    },
    #[error(
        "unknown option {} (the seed defines only \"promotion\"; extension options start with \"...\")", Quoted(.0)
    )]
    UnknownOption(String),
    #[error(
        "invalid date-time {}: expected ISO 8601 YYYY-MM-DDThh:mm:ss[.fff][Z|+hh:mm|-hh:mm]", Quoted(.0)
    )]
    BadTimestamp(String),
    #[error("board shape {found:?} differs from the starting position's {expected:?}")]
    ShapeMismatch {
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    #[error("extension keys start with \"...\" and must not be a seed key, found {}", Quoted(.0))]
    BadExtensionKey(String),
}

/// A document was rejected: where, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct ReadError {
    pub path: JsonPath,
    pub reason: Reason,
}

impl ReadError {
    pub(crate) fn new(path: &JsonPath, reason: Reason) -> Self {
        ReadError {
            path: path.clone(),
            reason,
        }
    }
}

/// Why an action cannot be performed on the current position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayReason {
    #[error("no piece on square {0}")]
    EmptySquare(String),
    #[error("square {square} is occupied by {piece}")]
    Occupied { square: String, piece: String },
    #[error("piece {0} is not on the board")]
    PieceNotOnBoard(String),
    #[error("piece {piece} is ambiguous: it stands on {count} squares")]
    AmbiguousPiece { piece: String, count: usize },
    #[error("piece {piece} is not in the {side} hand")]
    NotInHand { piece: String, side: crate::Side },
    #[error("{taker} cannot take {taken}: same side")]
    OwnPiece { taker: String, taken: String },
    #[error("no piece is in the air above square {0}")]
    NotInTheAir(String),
    #[error("a piece is already in the air above square {0}; it must land first")]
    AlreadyInTheAir(String),
    #[error("the move ends with {piece} still in the air above square {square}")]
    EndsInTheAir { piece: String, square: String },
    #[error("promotion of {from} to {to} changes its side")]
    PromotionChangesSide { from: String, to: String },
    #[error("coordinate does not name a square of this board")]
    BadCoordinate,
    #[error("the subject of drop must be a piece name, found {0}")]
    DropNeedsPiece(String),
}

/// A game's actions could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("previous_moves[{move_index}][{action_index}]: {reason}")]
pub struct ReplayError {
    pub move_index: usize,
    pub action_index: usize,
    pub reason: ReplayReason,
}
