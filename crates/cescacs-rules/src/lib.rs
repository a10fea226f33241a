#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod an;
mod game;
mod piece;
mod position;
mod tables;

pub use cescacs_hex::{Cell, Direction, HexColour};
pub use game::{DrawClaim, Game, GameError, GameResult, Termination};
pub use piece::{Letters, LettersError, Piece, PieceKind, Side};
#[doc(hidden)]
pub use position::compat;
pub use position::{
    CastlingRights, CheckMarker, Move, MoveKind, MoveList, Position, Setup, SetupError,
    SideCastling, SpecialRight, Status, Undo,
};

/// Leaf count of the legal-move tree of depth `depth` (bulk counting at the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut p = pos.clone();
    let mut buffers = vec![Vec::with_capacity(256); depth as usize];
    perft_rec(&mut p, depth, &mut buffers)
}

fn perft_rec(p: &mut Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((buf, rest)) = buffers.split_first_mut() else {
        return 0;
    };
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
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut p = pos.clone();
    let list = pos.legal_moves();
    let mut buffers = vec![Vec::with_capacity(256); depth.max(1) as usize];
    list.iter()
        .map(|&m| {
            let undo = p.make(m);
            let n = if depth <= 1 {
                1
            } else {
                perft_rec(&mut p, depth - 1, &mut buffers)
            };
            p.unmake(undo);
            (m, n)
        })
        .collect()
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
