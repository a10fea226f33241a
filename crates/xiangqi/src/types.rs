//! Sides, pieces and the 90 points of the board.

use std::fmt;
use std::str::FromStr;

/// The two players. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red, moving first (upper case in FEN).
    Red,
    /// Black (lower case in FEN).
    Black,
}

impl Side {
    /// The other side.
    #[inline]
    pub fn opposite(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (`K`).
    General,
    /// Advisor (`A`).
    Advisor,
    /// Elephant (`B`).
    Elephant,
    /// Horse (`N`).
    Horse,
    /// Chariot (`R`).
    Chariot,
    /// Cannon (`C`).
    Cannon,
    /// Soldier (`P`).
    Soldier,
}

impl PieceKind {
    /// All kinds, in a fixed order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Upper-case xqbase FEN letter (K A B N R C P).
    pub fn fen_letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// Reads a FEN letter of either case; `E` and `H` are old aliases of `B` and `N`.
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }

    /// Pieces that move diagonally are written with a destination file, never a distance.
    pub fn moves_diagonally(self) -> bool {
        matches!(
            self,
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
        )
    }
}

/// A piece of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub side: Side,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// The piece of `side` and `kind`.
    pub fn new(side: Side, kind: PieceKind) -> Piece {
        Piece { side, kind }
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub fn fen_char(self) -> char {
        let c = self.kind.fen_letter();
        match self.side {
            Side::Red => c,
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    // Board cells store a piece as one byte: 0 = empty, kind+1 for Red, kind+9 for Black.
    #[inline]
    pub(crate) fn code(self) -> u8 {
        self.kind as u8 + 1 + if self.side == Side::Black { 8 } else { 0 }
    }

    #[inline]
    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let side = if code & 8 != 0 {
            Side::Black
        } else {
            Side::Red
        };
        let kind = PieceKind::ALL[((code & 7) - 1) as usize];
        Some(Piece { side, kind })
    }
}

/// One of the 90 points. Files 0..8 are ICCS letters a..i from Red's left; ranks 0..9
/// start at Red's back rank. A `Square` can only name a point on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;

    /// The point on `file` (0..9) and `rank` (0..10), if it exists.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 9 && rank < 10).then_some(Square(rank * 9 + file))
    }

    /// The point with index `i` (`rank * 9 + file`).
    pub fn from_index(i: usize) -> Option<Square> {
        (i < Self::COUNT).then_some(Square(i as u8))
    }

    #[inline]
    pub(crate) const fn from_raw(i: u8) -> Square {
        Square(i)
    }

    /// File 0..8 (ICCS letter a..i).
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..9 (Red's back rank is 0).
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / 9
    }

    /// `rank * 9 + file`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// All points, rank by rank from Red's back rank.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8).map(Square)
    }
}

impl fmt::Display for Square {
    /// ICCS coordinates, e.g. `h2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Error for a coordinate that is not `a0`..`i9`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an ICCS square (a0..i9): {0:?}")]
pub struct SquareParseError(pub String);

impl FromStr for Square {
    type Err = SquareParseError;
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(SquareParseError(s.to_string()));
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        Square::new(file, rank).ok_or_else(|| SquareParseError(s.to_string()))
    }
}
