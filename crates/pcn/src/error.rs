//! Error types: a read error is a JSON path plus a reason, a replay error a move and
//! action index plus a reason.

use std::fmt;

/// One step of a JSON path: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// An object key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// Where in a document something went wrong, e.g. `previous_moves[12][0][1]`.
///
/// Keys made only of letters, digits, `_`, `?` (optionally after the `...` extension
/// prefix) print bare; any other key prints as `["key"]` so the path stays unambiguous.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct JsonPath(pub Vec<Segment>);

impl JsonPath {
    /// The path of the document itself (`$`).
    pub fn root() -> Self {
        JsonPath(Vec::new())
    }
    /// The steps from the root.
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
#[non_exhaustive]
pub enum PieceError {
    #[error("missing the \":\" between style and abbreviation")]
    /// No `:` between style and abbreviation.
    NoColon,
    #[error("more than one \":\"")]
    /// More than one `:`.
    ExtraColon,
    #[error("empty style")]
    /// Nothing before the `:`.
    EmptyStyle,
    #[error("empty abbreviation")]
    /// Nothing after the `:`.
    EmptyAbbreviation,
    #[error("character {0:?} is not allowed (only a-z, A-Z, 0-9, _)")]
    /// A character outside `A-Z a-z 0-9 _`.
    BadChar(char),
    #[error("the style mixes upper and lower case")]
    /// Upper and lower case letters in the style.
    MixedCaseStyle,
    #[error("the abbreviation mixes upper and lower case (its case is the side)")]
    /// Upper and lower case letters in the abbreviation.
    MixedCaseAbbreviation,
    #[error("the abbreviation has no letter, so its case cannot tell the side")]
    /// An abbreviation without a letter (no side).
    NoLetter,
}

/// The reason part of a [`ReadError`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Reason {
    #[error("invalid JSON: {message} at line {line} column {column}")]
    /// The bytes are not one JSON value.
    Syntax {
        /// serde_json's message.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    #[error("duplicate key {}", Quoted(.0))]
    /// An object holds the same key twice.
    DuplicateKey(String),
    #[error("expected {expected}, found {found}")]
    /// A value of the wrong JSON type.
    Type {
        /// What the seed wants here.
        expected: &'static str,
        /// What the document has.
        found: &'static str,
    },
    #[error("missing key {0:?}")]
    /// A required key is absent.
    MissingKey(&'static str),
    #[error("unknown key {} (extension keys start with \"...\")", Quoted(.0))]
    /// A key that is neither the seed's nor an extension (`...`).
    UnknownKey(String),
    #[error(
        "unsupported PCN edition: key {} belongs to the {edition} edition; this reader implements the seed edition",
        Quoted(key)
    )]
    /// A key of a later PCN edition.
    UnsupportedEdition {
        /// The key.
        key: String,
        /// The edition it belongs to.
        edition: &'static str,
    },
    #[error("unknown verb {}", Quoted(.0))]
    /// A verb that is not one of the seven.
    UnknownVerb(String),
    #[error("invalid piece {}: {why}", Quoted(value))]
    /// A string that is not a valid piece.
    BadPiece {
        /// The string.
        value: String,
        /// What is wrong with it.
        why: PieceError,
    },
    #[error("a board needs at least one square")]
    /// A board level with no square.
    EmptyBoard,
    #[error(
        "ragged board: expected {expected} elements like the first array of this level, found {found}"
    )]
    /// A board level whose length differs from its first sibling's.
    Ragged {
        /// The first sibling's length.
        expected: usize,
        /// This level's length.
        found: usize,
    },
    #[error("an action has 3 or 4 elements [subject, verb, object, options?], found {0}")]
    /// An action with other than 3 or 4 elements.
    ActionArity(usize),
    #[error("a move needs at least one action")]
    /// A move with no action.
    EmptyMove,
    #[error("coordinate has {found} indices but the board has {expected} dimensions")]
    /// A Cartesian coordinate with the wrong number of indices.
    CoordinateDimensions {
        /// The board's dimensions.
        expected: usize,
        /// The coordinate's indices.
        found: usize,
    },
    #[error("index {index} is off the board (dimension {dimension} has {extent} squares)")]
    /// A Cartesian index beyond its dimension's extent.
    OffBoard {
        /// The index.
        index: u64,
        /// Which dimension (0 = outermost).
        dimension: usize,
        /// That dimension's extent.
        extent: usize,
    },
    #[error("square {index} is off the board (it has {squares} squares)")]
    /// A flattened index beyond the last square.
    FlatOffBoard {
        /// The index.
        index: u64,
        /// The number of squares.
        squares: usize,
    },
    #[error("expected a non-negative integer index, found {0}")]
    /// A coordinate that is not a non-negative integer.
    NotAnIndex(String),
    #[error("the {role} of \"{verb}\" must be {must}")]
    /// A coordinate form the verb does not allow (a square for a drop's piece, a
    /// piece name for an empty target).
    WrongCoordinateForm {
        /// `subject` or `object`.
        role: &'static str,
        /// The verb.
        verb: &'static str,
        /// What it must be.
        must: &'static str,
    },
    #[error(
        "unknown option {} (the seed defines only \"promotion\"; extension options start with \"...\")", Quoted(.0)
    )]
    /// An option key other than `promotion` or an extension.
    UnknownOption(String),
    #[error(
        "invalid date-time {}: expected ISO 8601 YYYY-MM-DDThh:mm:ss[.fff][Z|+hh:mm|-hh:mm]", Quoted(.0)
    )]
    /// A `started_at` that is not an ISO 8601 date-time.
    BadTimestamp(String),
    #[error("board shape {found:?} differs from the starting position's {expected:?}")]
    /// A cached board whose shape is not the starting position's.
    ShapeMismatch {
        /// The starting position's shape.
        expected: Vec<usize>,
        /// The cached board's shape.
        found: Vec<usize>,
    },
    #[error("extension keys start with \"...\" and must not be a seed key, found {}", Quoted(.0))]
    /// An extension key that does not start with `...` or is a seed key.
    BadExtensionKey(String),
}

/// A document was rejected: where, and why.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct ReadError {
    /// Where.
    pub path: JsonPath,
    /// Why.
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
#[non_exhaustive]
pub enum ReplayReason {
    #[error("no piece on square {0}")]
    /// No piece on the square an action starts from or takes.
    EmptySquare(String),
    #[error("square {square} is occupied by {piece}")]
    /// The target square of `shift`, `drop` or `land` holds a piece.
    Occupied {
        /// The square.
        square: String,
        /// The piece on it.
        piece: String,
    },
    #[error("piece {0} is not on the board")]
    /// A piece name that is on no square.
    PieceNotOnBoard(String),
    #[error("piece {piece} is ambiguous: it stands on {count} squares")]
    /// A piece name that stands on several squares.
    AmbiguousPiece {
        /// The name.
        piece: String,
        /// On how many squares.
        count: usize,
    },
    #[error("piece {piece} is not in the {side} hand")]
    /// A drop of a piece its side does not hold.
    NotInHand {
        /// The piece.
        piece: String,
        /// The side.
        side: crate::Side,
    },
    #[error("{taker} cannot take {taken}: same side")]
    /// A take of one's own piece.
    OwnPiece {
        /// The moving piece.
        taker: String,
        /// The piece on the target square.
        taken: String,
    },
    #[error("no piece is in the air above square {0}")]
    /// `land` or `stun` with no piece in the air.
    NotInTheAir(String),
    #[error("a piece is already in the air above square {0}; it must land first")]
    /// `jump` while another piece is in the air.
    AlreadyInTheAir(String),
    #[error("the move ends with {piece} still in the air above square {square}")]
    /// A move that ends with a piece still in the air.
    EndsInTheAir {
        /// The piece.
        piece: String,
        /// The square it hovers above.
        square: String,
    },
    #[error("promotion of {from} to {to} changes its side")]
    /// A promotion to a piece of the other side.
    PromotionChangesSide {
        /// The piece before.
        from: String,
        /// The piece it would become.
        to: String,
    },
    #[error("coordinate does not name a square of this board")]
    /// A coordinate that names no square of the board.
    BadCoordinate,
    #[error("the subject of drop must be a piece name, found {0}")]
    /// A `drop` whose subject is a square.
    DropNeedsPiece(String),
}

/// A game's actions could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("previous_moves[{move_index}][{action_index}]: {reason}")]
pub struct ReplayError {
    /// Which move (0-based).
    pub move_index: usize,
    /// Which action of that move (0-based).
    pub action_index: usize,
    /// Why.
    pub reason: ReplayReason,
}
