//! C'escacs rules: positions, legal move generation, make/unmake, check, game end, perft and CTL-AN moves.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod an;
#[cfg(test)]
mod differential;
mod game;
mod piece;
mod position;
mod tables;
// The TLPD codec lives in cescacs-tlpd; the differential unit test compiles its source
// in (see the comment at the top of that file), and that source names the rules crate
// by its external name.
#[cfg(test)]
extern crate self as cescacs_rules;
#[cfg(test)]
#[path = "../../cescacs-tlpd/src/codec.rs"]
#[allow(dead_code)]
mod tlpd;

pub use cescacs_hex::{Cell, Direction, HexColour};
pub use game::{DrawClaim, Game, GameError, GameResult, Played, Termination};
pub use piece::{Letters, LettersError, Piece, PieceKind, Side};
#[cfg(feature = "oracle-compat")]
pub use position::compat;
pub use position::{
    CastlingRights, CheckMarker, IllegalMove, Move, MoveKind, MoveList, Position, Setup,
    SetupError, SideCastling, SpecialRight, Status, Undo,
};

pub use perft::{MAX_PERFT_DEPTH, MAX_PERFT_JOBS, PerftError};

/// A perft shared among threads (see [`perft_split`]): the counts per root move and
/// how the work fell to each thread.
pub type PerftSplit = perft::PerftSplit<Move>;

/// Leaf count of the legal-move tree of depth `depth`, on one thread (pins computed
/// once per node, bulk counting at the last ply).
///
/// # Panics
/// If `depth` exceeds [`MAX_PERFT_DEPTH`]; [`try_perft`] returns an error instead.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match try_perft(pos, depth, 1) {
        Ok(n) => n,
        Err(e) => panic!("{e}"),
    }
}

/// [`perft()`] on `jobs` threads (the same count), and the limits checked. See
/// [`perft_split`] for how the tree is shared.
pub fn try_perft(pos: &Position, depth: u32, jobs: usize) -> Result<u64, PerftError> {
    perft::perft(pos, depth, jobs)
}

impl perft::Node for Position {
    type Move = Move;

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).iter().copied().collect()
    }

    fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.make(m);
        p
    }

    fn leaves(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut p = self.clone();
        let mut buffers = vec![Vec::with_capacity(256); depth as usize];
        perft_rec(&mut p, depth, &mut buffers)
    }
}

fn perft_rec(p: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((buf, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return p.count_legal(buf);
    }
    p.legal_into(buf);
    let mut n = 0;
    for &m in buf.iter() {
        let undo = p.make(m);
        n += perft_rec(p, depth - 1, rest);
        p.unmake(undo);
    }
    n
}

/// Perft per root move, in generation order.
///
/// # Panics
/// If `depth` exceeds [`MAX_PERFT_DEPTH`]; [`try_divide`] returns an error instead.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    match try_divide(pos, depth, 1) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

/// [`divide`] on `jobs` threads (see [`perft_split`]).
pub fn try_divide(pos: &Position, depth: u32, jobs: usize) -> Result<Vec<(Move, u64)>, PerftError> {
    perft::divide(pos, depth, jobs)
}

/// Perft on `jobs` rayon threads. The root of C'escacs has 68 moves whose subtrees
/// differ a lot in size, so from depth 3 on the tasks are the (move, reply) pairs, a
/// few thousand subtrees of depth − 2 spread by work stealing ([`perft::split`]).
pub fn perft_split(pos: &Position, depth: u32, jobs: usize) -> Result<PerftSplit, PerftError> {
    perft::split(pos, depth, jobs)
}

/// A text picture of the board for terminals: one row per line (28 at the top), the
/// cells of a line in their columns, `.` for an empty cell.
pub fn diagram(pos: &Position) -> String {
    let letters = Letters::default();
    let mut out = String::new();
    for line in (0..=cescacs_hex::MAX_LINE).rev() {
        out.push_str(&format!("{line:>2} "));
        let mut row = String::new();
        for col in 0..15u8 {
            match Cell::new(col, line) {
                Some(c) => row.push(pos.piece_at(c).map_or('.', |p| letters.piece_char(p))),
                None => row.push(' '),
            }
            row.push(' ');
        }
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str("   ");
    for l in cescacs_hex::COLUMN_LETTERS {
        out.push(l);
        out.push(' ');
    }
    let side = match pos.side_to_move() {
        Side::White => "White",
        Side::Black => "Black",
    };
    out.push_str(&format!("\n{side} to move\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_position_has_68_moves_and_perft_2_is_4612() {
        let p = Position::initial();
        assert_eq!(p.legal_moves().len(), 68);
        assert_eq!(perft(&p, 2), 4612);
        assert_eq!(divide(&p, 2).iter().map(|x| x.1).sum::<u64>(), 4612);
    }

    #[test]
    fn threads_give_the_same_counts() {
        let p = Position::initial();
        assert_eq!(try_perft(&p, 3, 2), Ok(perft(&p, 3)));
        assert_eq!(try_perft(&p, 3, 3), Ok(340_385));
        assert_eq!(try_divide(&p, 2, 4), Ok(divide(&p, 2)));
        assert_eq!(try_divide(&p, 3, 2), Ok(divide(&p, 3)));
        assert_eq!(try_divide(&p, 1, 2), Ok(divide(&p, 1)));
        let split = perft_split(&p, 3, 2).unwrap();
        assert!(split.largest_task > 0 && split.largest_task < split.nodes() / 100);
        assert_eq!(split.nodes(), 340_385);
        assert_eq!(split.tasks, 4612);
        assert_eq!(split.leaves_per_thread.iter().sum::<u64>(), 340_385);
        assert_eq!(try_perft(&p, 0, 2), Ok(1));
    }

    #[test]
    fn limits_are_errors() {
        let p = Position::initial();
        assert_eq!(
            try_perft(&p, 4_294_967_295, 1),
            Err(PerftError::DepthTooLarge(4_294_967_295))
        );
        assert_eq!(
            try_perft(&p, 1_000_000, 2),
            Err(PerftError::DepthTooLarge(1_000_000))
        );
        assert_eq!(try_perft(&p, 2, 0), Err(PerftError::Jobs(0)));
        assert_eq!(try_perft(&p, 2, 100_000), Err(PerftError::Jobs(100_000)));
    }

    #[test]
    fn diagram_shows_every_cell() {
        let d = diagram(&Position::initial());
        let cells: usize = d
            .lines()
            .take(29)
            .map(|l| {
                l[3..]
                    .chars()
                    .filter(|c| *c == '.' || c.is_ascii_alphabetic())
                    .count()
            })
            .sum();
        assert_eq!(cells, 169);
        assert_eq!(
            d.lines().next(),
            Some(format!("28 {}v", " ".repeat(14)).as_str())
        );
    }
}
