//! Sides, piece kinds and the piece-letter table.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// The two sides.
pub enum Side {
    /// White, moving first, towards line 28.
    White,
    /// Black, towards line 0.
    Black,
}

impl Side {
    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
    /// +1 for White (moves up the lines), -1 for Black.
    pub const fn forward(self) -> i8 {
        match self {
            Side::White => 1,
            Side::Black => -1,
        }
    }
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.opponent()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// The nine kinds of men.
pub enum PieceKind {
    /// King (`K`).
    King,
    /// Queen (`D`, *dama*).
    Queen,
    /// Wyvern (`V`): Rook moves plus knight jumps.
    Wyvern,
    /// Rook (`R`).
    Rook,
    /// Pegasus (`G`): Bishop moves plus knight jumps.
    Pegasus,
    /// Knight (`N`).
    Knight,
    /// Bishop (`J`).
    Bishop,
    /// Elephant (`E`).
    Elephant,
    /// Pawn (`P`).
    Pawn,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 9] = [
        PieceKind::King,
        PieceKind::Queen,
        PieceKind::Wyvern,
        PieceKind::Rook,
        PieceKind::Pegasus,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Elephant,
        PieceKind::Pawn,
    ];
    /// The kinds a pawn may promote to (the regainable kinds).
    pub const REGAINABLE: [PieceKind; 6] = [
        PieceKind::Queen,
        PieceKind::Wyvern,
        PieceKind::Rook,
        PieceKind::Pegasus,
        PieceKind::Knight,
        PieceKind::Bishop,
    ];
    /// Dense index 0..9, the position in [`PieceKind::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
    /// How many of this kind a side has at the start (and so can ever have).
    pub const fn initial_count(self) -> u8 {
        match self {
            PieceKind::King | PieceKind::Queen | PieceKind::Wyvern => 1,
            PieceKind::Rook | PieceKind::Pegasus | PieceKind::Knight => 2,
            PieceKind::Bishop => 3,
            PieceKind::Elephant => 4,
            PieceKind::Pawn => 11,
        }
    }
    /// The standard CTL letter (`K D V R G N J E P`).
    pub const fn standard_letter(self) -> char {
        STANDARD[self as usize]
    }
    /// The kind of a standard upper-case letter.
    pub fn from_standard_letter(c: char) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|k| k.standard_letter() == c)
    }
    /// Alternatives that `Redefine` may introduce (spec §7.1; `H` for the Elephant comes
    /// from the site glossary only, and is accepted only through `Redefine`).
    pub const fn redefine_alternatives(self) -> &'static [char] {
        match self {
            PieceKind::Bishop => &['A', 'B', 'F', 'L'],
            PieceKind::Knight => &['C', 'S'],
            PieceKind::Rook => &['T'],
            PieceKind::Wyvern => &['W'],
            PieceKind::Queen => &['Q'],
            PieceKind::Elephant => &['H'],
            PieceKind::King | PieceKind::Pegasus | PieceKind::Pawn => &[],
        }
    }
    /// The FAN glyph of this kind for one side (spec §7.6). The Wyvern and the Pegasus
    /// have no chess glyph; they take the Symbols for Legacy Computing ones.
    pub const fn fan(self, side: Side) -> &'static str {
        let (white, black) = match self {
            PieceKind::King => ("♔", "♚"),
            PieceKind::Queen => ("♕", "♛"),
            PieceKind::Wyvern => ("\u{1FA4F}", "\u{1FA52}"),
            PieceKind::Rook => ("♖", "♜"),
            PieceKind::Pegasus => ("\u{1FA50}", "\u{1FA53}"),
            PieceKind::Knight => ("♘", "♞"),
            PieceKind::Bishop => ("♗", "♝"),
            PieceKind::Elephant => ("☖", "☗"),
            PieceKind::Pawn => ("♙", "♟"),
        };
        match side {
            Side::White => white,
            Side::Black => black,
        }
    }
    /// The kind and side of a FAN glyph.
    pub fn from_fan(s: &str) -> Option<(PieceKind, Side)> {
        PieceKind::ALL.into_iter().find_map(|k| {
            [Side::White, Side::Black]
                .into_iter()
                .find(|&side| k.fan(side) == s)
                .map(|side| (k, side))
        })
    }
}

const STANDARD: [char; 9] = ['K', 'D', 'V', 'R', 'G', 'N', 'J', 'E', 'P'];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// A man: a side and a kind.
pub struct Piece {
    /// Its side.
    pub side: Side,
    /// Its kind.
    pub kind: PieceKind,
}

impl Piece {
    /// The man of `side` and `kind`.
    pub const fn new(side: Side, kind: PieceKind) -> Piece {
        Piece { side, kind }
    }
    /// Compact code used by the board array: 0 = empty, kind+1 for White, +16 for Black.
    pub(crate) const fn code(self) -> u8 {
        (self.kind as u8 + 1) | ((self.side as u8) << 4)
    }
    pub(crate) fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let side = if code & 16 != 0 {
            Side::Black
        } else {
            Side::White
        };
        let kind = PieceKind::ALL[((code & 15) - 1) as usize];
        Some(Piece { side, kind })
    }
}

/// Why a `Redefine` value was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LettersError {
    #[error("'{alt}' is not an allowed alternative letter for '{standard}'")]
    /// `alt` may not stand for `standard`.
    NotAllowed {
        /// The alternative letter.
        alt: char,
        /// The standard letter it would replace.
        standard: char,
    },
    #[error("malformed redefinition '{0}' (expected alt@std, e.g. T@R)")]
    /// Not of the form `alt@std`.
    Malformed(String),
    #[error("letter '{0}' would stand for two pieces")]
    /// The letter would stand for two pieces.
    Clash(char),
}

/// Piece letters, upper case (TLPD uses the lower case for Black). The default is the
/// standard set `K D V R G N J E P`; [`Letters::redefine`] applies a `Redefine` tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Letters {
    letters: [char; 9],
}

impl Default for Letters {
    fn default() -> Self {
        Letters { letters: STANDARD }
    }
}

impl Letters {
    /// Applies a `Redefine` value such as `A@J, T@R, C@N`. Stray quotes are dropped
    /// (the seed's own example has one).
    pub fn redefine(spec: &str) -> Result<Letters, LettersError> {
        let mut out = Letters::default();
        let cleaned: String = spec.chars().filter(|&c| c != '"').collect();
        for part in cleaned.split(',') {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let mut it = part.split('@');
            let (Some(alt), Some(std), None) = (it.next(), it.next(), it.next()) else {
                return Err(LettersError::Malformed(part.to_string()));
            };
            let (alt, std) = (alt.trim(), std.trim());
            let mut a = alt.chars();
            let mut s = std.chars();
            let (Some(alt), None, Some(standard), None) = (a.next(), a.next(), s.next(), s.next())
            else {
                return Err(LettersError::Malformed(part.to_string()));
            };
            let Some(kind) = PieceKind::from_standard_letter(standard) else {
                return Err(LettersError::Malformed(part.to_string()));
            };
            if !kind.redefine_alternatives().contains(&alt) {
                return Err(LettersError::NotAllowed { alt, standard });
            }
            out.letters[kind.index()] = alt;
        }
        for (i, a) in out.letters.iter().enumerate() {
            if out.letters[i + 1..].contains(a) {
                return Err(LettersError::Clash(*a));
            }
        }
        Ok(out)
    }

    /// The upper-case letter of a kind.
    pub fn letter(&self, kind: PieceKind) -> char {
        self.letters[kind.index()]
    }

    /// The kind an upper-case letter stands for under this table.
    pub fn kind_of(&self, ch: char) -> Option<PieceKind> {
        self.letters
            .iter()
            .position(|&c| c == ch)
            .map(|i| PieceKind::ALL[i])
    }

    /// The TLPD letter of a piece: upper case for White, lower case for Black.
    pub fn piece_char(&self, piece: Piece) -> char {
        let c = self.letter(piece.kind);
        match piece.side {
            Side::White => c,
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece a TLPD letter stands for.
    pub fn piece_of(&self, ch: char) -> Option<Piece> {
        if ch.is_ascii_uppercase() {
            self.kind_of(ch).map(|k| Piece::new(Side::White, k))
        } else if ch.is_ascii_lowercase() {
            self.kind_of(ch.to_ascii_uppercase())
                .map(|k| Piece::new(Side::Black, k))
        } else {
            None
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Letters::default().piece_char(*self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redefine_maps_letters_both_ways() {
        let l = Letters::redefine("A@J, T@R\", C@N").unwrap();
        assert_eq!(l.letter(PieceKind::Bishop), 'A');
        assert_eq!(l.kind_of('T'), Some(PieceKind::Rook));
        assert_eq!(l.kind_of('R'), None);
        assert_eq!(
            l.piece_of('c'),
            Some(Piece::new(Side::Black, PieceKind::Knight))
        );
        assert!(Letters::redefine("X@R").is_err());
        assert!(Letters::redefine("T").is_err());
        assert!(Letters::redefine("A@J, A@J").is_ok());
        for k in PieceKind::ALL {
            for s in [Side::White, Side::Black] {
                let p = Piece::new(s, k);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
    }
}
