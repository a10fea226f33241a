//! The game model: everything a CTL-PGN record can say, in standard letters.
//!
//! Forms that carry no content (hyphen or capture spelling, `@N` for `@B`, `{:` for
//! `{#`, `^+` for `+^`, `3 - 0` for `3-0`, line layout, depth dots) are normalised by
//! the reader and reported as notes; everything else is kept.

use crate::letters::{LetterTable, PieceKind};
/// The record model speaks of the same sides and results as the rules (spec §6.2).
pub use cescacs_rules::{GameResult, Side};

/// Where something was read: byte range and 1-based line and column (in chars) of its
/// start, in the whole file.
///
/// A span is a location, not content: two spans always compare equal, so that a game
/// read back from written text equals the game it was written from.
#[derive(Debug, Clone, Copy, Default, Eq)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset past the last byte.
    pub end: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in chars.
    pub col: u32,
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

/// One `[Name "value"]` tag, value verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// Tag name as written.
    pub name: String,
    /// Value between the first and the last quote.
    pub value: String,
    /// Where the tag was read.
    pub span: Span,
}

/// One record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Game {
    /// Tags in file order (repetitions kept).
    pub tags: Vec<Tag>,
    /// The main line, with its comments and variations.
    pub main: Line,
    /// The result line, if the record has one (§9.4: it may be missing).
    pub result: Option<GameResult>,
    /// Comments after the result line.
    pub final_comments: Vec<Comment>,
    /// The whole record in the source.
    pub span: Span,
}

/// A sequence of half-moves with interleaved comments and variations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// Items in the order written.
    pub items: Vec<Item>,
}

/// One item of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A half-move.
    Move(MoveNode),
    /// A comment.
    Comment(Comment),
    /// An alternative to an earlier half-move of this line (§7.7).
    Variation(Variation),
}

/// `( ... )`: an alternative line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// The `$[n]` label, if any.
    pub label: Option<u32>,
    /// The moves of the alternative, starting with the replaced half-move's number.
    pub line: Line,
    /// Where the variation was read (from `(` to `)`).
    pub span: Span,
}

/// One half-move with its annotations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNode {
    /// Full-move number (as numbered in the record).
    pub number: u32,
    /// Whose move this is according to the numbering.
    pub side: Side,
    /// Written with `n?` (true move number unknown, §7.4).
    pub number_unknown: bool,
    /// The move itself, in standard letters.
    pub token: MoveToken,
    /// The check marker as written.
    pub check: Option<CheckMark>,
    /// The assessment (`?`, `!`, ...).
    pub assessment: Option<Assessment>,
    /// `(=)`: a draw was offered with this move.
    pub draw_offer: bool,
    /// `:`: the last move of the record.
    pub end_mark: bool,
    /// Where the half-move was read.
    pub span: Span,
}

/// The separator between origin and destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separator {
    /// `-` (also read: `‐` U+2010, `–` U+2013).
    Move,
    /// `×` (also read: `*`, `x`).
    Capture,
    /// `@`: scornful capture or en passant on the near skipped cell.
    NearEp,
    /// `@@`: en passant on the far skipped cell.
    FarEp,
}

impl Separator {
    /// The writer's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Separator::Move => "-",
            Separator::Capture => "×",
            Separator::NearEp => "@",
            Separator::FarEp => "@@",
        }
    }
}

/// Promotion suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Promotion {
    /// `=X`
    To(PieceKind),
    /// `=&`: the pawn waits for a regainable piece.
    Awaiting,
}

/// A cell as written in a move: a column letter and a line number (the grammar's
/// `coord`, two or three ASCII bytes, such as `F14`), kept inline so that a move
/// allocates nothing for its cells. It reads as a `&str` (`Deref`), and may name a
/// cell off the board (`P1`), which the replay reports.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellName {
    bytes: [u8; 3],
    len: u8,
}

impl CellName {
    /// The cell name `text`, if it is a column letter followed by one or two ASCII
    /// digits.
    pub fn new(text: &str) -> Option<CellName> {
        let b = text.as_bytes();
        if !(2..=3).contains(&b.len())
            || !b[0].is_ascii_uppercase()
            || !b[1..].iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        // Byte by byte: a `copy_from_slice` of 2 or 3 bytes becomes a `memcpy` call
        // whose narrow stores stall the wide load that follows (a store-forwarding
        // stall measured at a sixth of the fast reader's time).
        Some(CellName {
            bytes: [b[0], b[1], b.get(2).copied().unwrap_or(0)],
            len: b.len() as u8,
        })
    }

    /// No cell (a placeholder the fast reader overwrites).
    pub(crate) const BLANK: CellName = CellName {
        bytes: [0; 3],
        len: 0,
    };

    /// A `coord` the fast reader matched: an ASCII upper-case letter and one or two
    /// ASCII digits (not checked again).
    #[inline(always)]
    pub(crate) fn from_coord(b: &[u8]) -> CellName {
        CellName {
            bytes: [b[0], b[1], b.get(2).copied().unwrap_or(0)],
            len: b.len() as u8,
        }
    }

    /// The name's bytes: an ASCII upper-case letter and one or two ASCII digits.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored (see `new`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

/// Appends a cell name byte by byte: its bytes are ASCII, and going through `&str`
/// would validate them as UTF-8 again for every move written.
fn push_cell(s: &mut String, cell: &CellName) {
    for &b in cell.as_bytes() {
        s.push(char::from(b));
    }
}

impl std::ops::Deref for CellName {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl std::fmt::Display for CellName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Debug for CellName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl PartialEq<str> for CellName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for CellName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Castling (§5.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Castling {
    /// `KRK-..` (King's side) or `KRD-..` (Queen's side) with two columns and an
    /// optional `O`/`OO` suffix.
    Single {
        /// `true` for `KRK`, `false` for `KRD`.
        king_side: bool,
        /// The two column letters.
        columns: String,
        /// The `O`/`OO` suffix.
        suffix: String,
    },
    /// `KRR-...` with three columns.
    Double {
        /// The three column letters.
        columns: String,
    },
}

/// A move token in standard letters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveToken {
    /// `[mover] from sep [captured] to [promotion]`.
    Ordinary {
        /// The moving piece; `None` for a pawn.
        mover: Option<PieceKind>,
        /// Origin cell, e.g. `F14`.
        from: CellName,
        /// Separator.
        sep: Separator,
        /// Captured piece letter; `None` for a pawn or no capture.
        captured: Option<PieceKind>,
        /// Destination cell.
        to: CellName,
        /// Promotion suffix.
        promotion: Option<Promotion>,
    },
    /// `F28=R`: the forced promotion of an awaiting pawn.
    ForcedPromotion {
        /// The pawn's cell.
        cell: CellName,
        /// The piece it becomes.
        piece: PieceKind,
    },
    /// Castling (boxed: rare, and its strings would make every move token, and so
    /// every item of a line, three times larger).
    Castling(Box<Castling>),
}

impl MoveToken {
    /// The token in standard letters, as CTL-AN (what `MoveText::parse` reads).
    pub fn to_standard(&self) -> String {
        self.render(&LetterTable::standard(), Side::White)
    }

    /// The token written with a letter table; `side` is the mover (FAN glyphs are
    /// colour-specific, the captured man being of the other colour).
    pub fn render(&self, letters: &LetterTable, side: Side) -> String {
        let mut s = String::new();
        self.render_into(letters, side, &mut s);
        s
    }

    /// [`MoveToken::render`] appended to `s`: no allocation but `s`'s own growth, for
    /// writers that reuse one buffer move after move.
    pub fn render_into(&self, letters: &LetterTable, side: Side, s: &mut String) {
        match self {
            MoveToken::Ordinary {
                mover,
                from,
                sep,
                captured,
                to,
                promotion,
            } => {
                if let Some(k) = mover {
                    letters.push_glyph(s, *k, side);
                }
                push_cell(s, from);
                s.push_str(sep.as_str());
                if let Some(k) = captured {
                    letters.push_glyph(s, *k, side.opponent());
                }
                push_cell(s, to);
                match promotion {
                    Some(Promotion::To(k)) => {
                        s.push('=');
                        letters.push_glyph(s, *k, side);
                    }
                    Some(Promotion::Awaiting) => s.push_str("=&"),
                    None => {}
                }
            }
            MoveToken::ForcedPromotion { cell, piece } => {
                push_cell(s, cell);
                s.push('=');
                letters.push_glyph(s, *piece, side);
            }
            MoveToken::Castling(c) => {
                // FAN keeps the letter form (§7.2); only `T@R` changes the prefix (§7.6).
                let rook = if letters.is_fan() {
                    'R'
                } else {
                    letters.letter(PieceKind::Rook)
                };
                s.push('K');
                s.push(rook);
                match &**c {
                    Castling::Single {
                        king_side,
                        columns,
                        suffix,
                    } => {
                        s.push(if *king_side { 'K' } else { 'D' });
                        s.push('-');
                        s.push_str(columns);
                        s.push_str(suffix);
                    }
                    Castling::Double { columns } => {
                        s.push(rook);
                        s.push('-');
                        s.push_str(columns);
                    }
                }
            }
        }
    }
}

/// Check markers (§6.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckMark {
    /// `+`: check (seed: any single check other than a knight jump).
    Check,
    /// `+^` (old spelling `^+`): seed: knight-jump check; SITE/TS: knight or adjacent.
    Unblockable,
    /// `+∞`: check from afar (SITE/TS).
    Afar,
    /// `++`: double check.
    Double,
    /// `#`: checkmate.
    Mate,
}

impl CheckMark {
    /// Every marker, in declaration order.
    pub const ALL: [CheckMark; 5] = [
        CheckMark::Check,
        CheckMark::Unblockable,
        CheckMark::Afar,
        CheckMark::Double,
        CheckMark::Mate,
    ];

    /// The writer's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            CheckMark::Check => "+",
            CheckMark::Unblockable => "+^",
            CheckMark::Afar => "+∞",
            CheckMark::Double => "++",
            CheckMark::Mate => "#",
        }
    }
}

/// Assessments (§7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assessment {
    /// `!` ($1)
    Good,
    /// `?` ($2)
    Mistake,
    /// `!!` ($3)
    Brilliant,
    /// `??` ($4)
    Blunder,
    /// `!?` ($5)
    Interesting,
    /// `?!` ($6)
    Dubious,
    /// `◇` ($7): forced or only move.
    Forced,
}

impl Assessment {
    /// Every assessment, in NAG order ($1 to $7).
    pub const ALL: [Assessment; 7] = [
        Assessment::Good,
        Assessment::Mistake,
        Assessment::Brilliant,
        Assessment::Blunder,
        Assessment::Interesting,
        Assessment::Dubious,
        Assessment::Forced,
    ];

    /// The spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Assessment::Good => "!",
            Assessment::Mistake => "?",
            Assessment::Brilliant => "!!",
            Assessment::Blunder => "??",
            Assessment::Interesting => "!?",
            Assessment::Dubious => "?!",
            Assessment::Forced => "◇",
        }
    }

    /// The NAG number.
    pub fn nag(self) -> u8 {
        match self {
            Assessment::Good => 1,
            Assessment::Mistake => 2,
            Assessment::Brilliant => 3,
            Assessment::Blunder => 4,
            Assessment::Interesting => 5,
            Assessment::Dubious => 6,
            Assessment::Forced => 7,
        }
    }

    pub(crate) fn from_str(s: &str) -> Option<Assessment> {
        Assessment::ALL.into_iter().find(|a| a.as_str() == s)
    }
}

/// The kind of a comment, from its marker (§7.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentKind {
    /// `{ ... }`
    General,
    /// `{@W: ...}`
    White,
    /// `{@B: ...}` (also read: `@N:`)
    Black,
    /// `{# ...}` (also read: SITE `{: ...}`)
    Auto,
    /// `{#W: ...}`
    AutoWhite,
    /// `{#B: ...}` (also read: `#N:`)
    AutoBlack,
}

impl CommentKind {
    /// The writer's marker.
    pub fn marker(self) -> &'static str {
        match self {
            CommentKind::General => "",
            CommentKind::White => "@W:",
            CommentKind::Black => "@B:",
            CommentKind::Auto => "#",
            CommentKind::AutoWhite => "#W:",
            CommentKind::AutoBlack => "#B:",
        }
    }
}

/// What a reference inside a comment points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceKind {
    /// `#14`, `#14@B`, `#.16$[1]@W`, `#14[#12.2]`.
    Move,
    /// `@W`, `@B`.
    Player,
    /// `~K`, `~PE13`.
    Piece,
    /// `$n`.
    Nag,
}

/// A reference found inside a comment's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// What it points at.
    pub kind: ReferenceKind,
    /// Its text.
    pub text: String,
    /// Byte offset in the comment text.
    pub offset: usize,
}

/// A comment; its text is kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// From the marker.
    pub kind: CommentKind,
    /// Text after the marker, up to (not including) `}`.
    pub text: String,
    /// References found in the text.
    pub references: Vec<Reference>,
    /// Where the comment was read.
    pub span: Span,
}

impl Game {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// The start-position tag (`TLPD`, SITE `PDTL`, typo `DPTL`, §9.2), in the record's
    /// letters.
    pub fn start_tlpd(&self) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| matches!(t.name.as_str(), "TLPD" | "PDTL" | "DPTL"))
            .map(|t| t.value.as_str())
    }

    /// The record's letter table from its `Redefine` tag (standard if none).
    pub fn letters(&self) -> Result<LetterTable, String> {
        match self.tag("Redefine") {
            Some(v) => LetterTable::from_redefine(v),
            None => Ok(LetterTable::standard()),
        }
    }

    /// The half-moves of the main line.
    pub fn main_moves(&self) -> impl Iterator<Item = &MoveNode> {
        self.main.moves()
    }
}

impl Line {
    /// The half-moves of this line (not of its variations).
    pub fn moves(&self) -> impl Iterator<Item = &MoveNode> {
        self.items.iter().filter_map(|i| match i {
            Item::Move(m) => Some(m),
            _ => None,
        })
    }
}
