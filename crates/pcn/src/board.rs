//! Boards of any dimension and the three ways to name a square.

use crate::error::Reason;
use crate::piece::Piece;
use serde::ser::{Serialize, SerializeSeq, Serializer};

/// A rectangular board of any number of dimensions, stored row-major (the flattened
/// index of the seed). Every square is playable; `None` is an empty square.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Vec<usize>,
    squares: Vec<Option<Piece>>,
}

impl Board {
    /// An empty board. Every extent must be at least 1 and there must be at least one
    /// dimension: the seed has no way to write a zero-sized level.
    pub fn empty(shape: &[usize]) -> Result<Board, Reason> {
        if shape.is_empty() || shape.contains(&0) {
            return Err(Reason::EmptyBoard);
        }
        let len = shape
            .iter()
            .try_fold(1usize, |acc, &e| acc.checked_mul(e))
            .ok_or(Reason::EmptyBoard)?;
        Ok(Board {
            shape: shape.to_vec(),
            squares: vec![None; len],
        })
    }

    pub(crate) fn from_parts(shape: Vec<usize>, squares: Vec<Option<Piece>>) -> Board {
        debug_assert_eq!(shape.iter().product::<usize>(), squares.len());
        Board { shape, squares }
    }

    /// Extent of each dimension, outermost first (`[10, 9]` for xiangqi).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// Number of squares.
    pub fn len(&self) -> usize {
        self.squares.len()
    }
    /// Never true for a board of this crate (every level has at least one square);
    /// present because `len` is. See [`Board::pieces`] for occupied squares.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }
    /// Occupied squares, in flattened order.
    pub fn pieces(&self) -> impl Iterator<Item = (usize, &Piece)> {
        self.squares
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (i, p)))
    }
    /// The squares in flattened (row-major) order.
    pub fn squares(&self) -> &[Option<Piece>] {
        &self.squares
    }
    /// The piece on flattened square `flat`; `None` when it is empty or off the board.
    pub fn get(&self, flat: usize) -> Option<&Piece> {
        self.squares.get(flat).and_then(Option::as_ref)
    }
    /// Puts `piece` on square `flat` (or clears it), returning what was there; `None`
    /// when `flat` is off the board.
    pub fn set(&mut self, flat: usize, piece: Option<Piece>) -> Option<Option<Piece>> {
        let slot = self.squares.get_mut(flat)?;
        Some(std::mem::replace(slot, piece))
    }
    /// Cartesian → flattened: `[r, c]` on R×C is `r*C + c`.
    pub fn flat_of(&self, coords: &[usize]) -> Option<usize> {
        if coords.len() != self.shape.len() {
            return None;
        }
        let mut flat = 0usize;
        for (&c, &extent) in coords.iter().zip(&self.shape) {
            if c >= extent {
                return None;
            }
            flat = flat * extent + c;
        }
        Some(flat)
    }
    /// Flattened → Cartesian.
    pub fn cartesian_of(&self, mut flat: usize) -> Option<Vec<usize>> {
        if flat >= self.len() {
            return None;
        }
        let mut out = vec![0; self.shape.len()];
        for (slot, &extent) in out.iter_mut().zip(&self.shape).rev() {
            *slot = flat % extent;
            flat /= extent;
        }
        Some(out)
    }
    /// Every flattened square holding exactly this piece string.
    pub fn find(&self, piece: &Piece) -> impl Iterator<Item = usize> + '_ {
        let piece = piece.clone();
        self.squares
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.as_ref() == Some(&piece))
            .map(|(i, _)| i)
    }
    /// Resolves any form of coordinate to a flattened square; a piece name must occur
    /// exactly once on the board.
    pub fn resolve(&self, c: &Coord) -> Result<usize, crate::ReplayReason> {
        use crate::ReplayReason as R;
        match c {
            Coord::Flat(i) if *i < self.len() => Ok(*i),
            Coord::Flat(_) => Err(R::BadCoordinate),
            Coord::Cartesian(v) => self.flat_of(v).ok_or(R::BadCoordinate),
            Coord::Piece(p) => {
                let mut it = self.find(p);
                match (it.next(), it.count()) {
                    (None, _) => Err(R::PieceNotOnBoard(p.to_string())),
                    (Some(i), 0) => Ok(i),
                    (Some(_), more) => Err(R::AmbiguousPiece {
                        piece: p.to_string(),
                        count: more + 1,
                    }),
                }
            }
        }
    }
    /// Human text for a square in error messages: `52 [6,4]`.
    pub(crate) fn describe(&self, flat: usize) -> String {
        match self.cartesian_of(flat) {
            Some(v) => format!(
                "{flat} [{}]",
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            None => flat.to_string(),
        }
    }

    /// Checks that a coordinate names a square of this shape (piece names always pass:
    /// whether they are unique depends on the position, which only replay knows).
    pub fn check_coord(shape: &[usize], c: &Coord) -> Result<(), Reason> {
        let squares: usize = shape.iter().product();
        match c {
            Coord::Flat(i) if *i >= squares => Err(Reason::FlatOffBoard {
                index: *i as u64,
                squares,
            }),
            Coord::Cartesian(v) if v.len() != shape.len() => Err(Reason::CoordinateDimensions {
                expected: shape.len(),
                found: v.len(),
            }),
            Coord::Cartesian(v) => {
                for (d, (&x, &extent)) in v.iter().zip(shape).enumerate() {
                    if x >= extent {
                        return Err(Reason::OffBoard {
                            index: x as u64,
                            dimension: d,
                            extent,
                        });
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

struct Level<'a> {
    board: &'a Board,
    depth: usize,
    offset: usize,
}

impl Serialize for Level<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let extent = self.board.shape[self.depth];
        let stride: usize = self.board.shape[self.depth + 1..].iter().product();
        let mut seq = s.serialize_seq(Some(extent))?;
        for i in 0..extent {
            let offset = self.offset + i * stride;
            if self.depth + 1 == self.board.shape.len() {
                seq.serialize_element(&self.board.squares[offset])?;
            } else {
                seq.serialize_element(&Level {
                    board: self.board,
                    depth: self.depth + 1,
                    offset,
                })?;
            }
        }
        seq.end()
    }
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Level {
            board: self,
            depth: 0,
            offset: 0,
        }
        .serialize(s)
    }
}

/// A square or piece reference, in the form the document used (kept for round trips).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Coord {
    /// One index per dimension, outermost first: `[6,4]`.
    Cartesian(Vec<usize>),
    /// Row-major flattened index: `52`.
    Flat(usize),
    /// A piece string that occurs once on the board, or a piece in hand (drops).
    Piece(Piece),
}

impl Coord {
    /// Whether this names a square (Cartesian or flattened) rather than a piece.
    pub fn is_square(&self) -> bool {
        !matches!(self, Coord::Piece(_))
    }
}

impl From<usize> for Coord {
    fn from(i: usize) -> Coord {
        Coord::Flat(i)
    }
}
impl From<Vec<usize>> for Coord {
    fn from(v: Vec<usize>) -> Coord {
        Coord::Cartesian(v)
    }
}
impl<const N: usize> From<[usize; N]> for Coord {
    fn from(v: [usize; N]) -> Coord {
        Coord::Cartesian(v.to_vec())
    }
}
impl From<Piece> for Coord {
    fn from(p: Piece) -> Coord {
        Coord::Piece(p)
    }
}

impl std::fmt::Display for Coord {
    /// The JSON spelling without quotes: `[6,4]`, `52`, `w:k`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Coord::Cartesian(v) => {
                let parts: Vec<String> = v.iter().map(ToString::to_string).collect();
                write!(f, "[{}]", parts.join(","))
            }
            Coord::Flat(i) => write!(f, "{i}"),
            Coord::Piece(p) => write!(f, "{p}"),
        }
    }
}

impl Serialize for Coord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Coord::Cartesian(v) => v.serialize(s),
            Coord::Flat(i) => s.serialize_u64(*i as u64),
            Coord::Piece(p) => p.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flattening_matches_the_seed() {
        let b = Board::empty(&[6, 2, 4]).unwrap();
        assert_eq!(b.flat_of(&[0, 1, 2]), Some(6));
        assert_eq!(b.flat_of(&[5, 0, 3]), Some(43));
        assert_eq!(b.cartesian_of(43), Some(vec![5, 0, 3]));
        let b = Board::empty(&[8, 8]).unwrap();
        assert_eq!(b.flat_of(&[7, 4]), Some(60));
        assert_eq!(b.flat_of(&[8, 0]), None);
        assert_eq!(b.cartesian_of(64), None);
    }
}
