#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod an;
mod game;
mod piece;
mod position;
mod tables;
pub mod tlpd;

pub use cescacs_hex::{Cell, Direction, HexColour};
pub use game::{DrawClaim, Game, GameError, GameResult, Termination};
pub use piece::{Letters, LettersError, Piece, PieceKind, Side};
#[cfg(feature = "oracle-compat")]
pub use position::compat;
pub use position::{
    CastlingRights, CheckMarker, Move, MoveKind, MoveList, Position, Setup, SetupError,
    SideCastling, SpecialRight, Status, Undo,
};

/// The deepest perft accepted by [`try_perft`] and [`try_divide`]. perft(5) from the
/// start has about 2·10⁹ leaves; a depth of 20 could not be counted in a lifetime in
/// any position with a few moves per ply, while the per-ply buffers and the recursion
/// stay a few kilobytes.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The most worker threads [`try_perft`] and [`try_divide`] accept.
pub const MAX_PERFT_JOBS: usize = 256;

/// Why a perft request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    /// The depth exceeds [`MAX_PERFT_DEPTH`].
    #[error("perft depth {0} is above the maximum of {MAX_PERFT_DEPTH}")]
    DepthTooLarge(u32),
    /// The thread count is 0 or exceeds [`MAX_PERFT_JOBS`].
    #[error("{0} perft jobs: expected 1 to {MAX_PERFT_JOBS}")]
    Jobs(usize),
}

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

/// [`perft`] with the root moves shared among `jobs` threads (the same count), and
/// the limits checked.
pub fn try_perft(pos: &Position, depth: u32, jobs: usize) -> Result<u64, PerftError> {
    if depth == 0 {
        check_limits(depth, jobs)?;
        return Ok(1);
    }
    if jobs == 1 {
        check_limits(depth, jobs)?;
        let mut p = pos.clone();
        let mut buffers = vec![Vec::with_capacity(256); depth as usize];
        return Ok(perft_rec(&mut p, depth, &mut buffers));
    }
    Ok(try_divide(pos, depth, jobs)?.iter().map(|x| x.1).sum())
}

fn check_limits(depth: u32, jobs: usize) -> Result<(), PerftError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftError::DepthTooLarge(depth));
    }
    if jobs == 0 || jobs > MAX_PERFT_JOBS {
        return Err(PerftError::Jobs(jobs));
    }
    Ok(())
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
///
/// # Panics
/// If `depth` exceeds [`MAX_PERFT_DEPTH`]; [`try_divide`] returns an error instead.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    match try_divide(pos, depth, 1) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    }
}

/// [`divide`] on `jobs` threads: each takes the next unclaimed root move, so a
/// thread that drew small subtrees takes more of them.
pub fn try_divide(pos: &Position, depth: u32, jobs: usize) -> Result<Vec<(Move, u64)>, PerftError> {
    check_limits(depth, jobs)?;
    let list = pos.legal_moves();
    let mut counts = vec![0u64; list.len()];
    let subtree = |p: &mut Position, m: Move, buffers: &mut [Vec<Move>]| {
        let undo = p.make(m);
        let n = if depth <= 1 {
            1
        } else {
            perft_rec(p, depth - 1, buffers)
        };
        p.unmake(undo);
        n
    };
    let threads = jobs.min(list.len());
    if threads <= 1 {
        let mut p = pos.clone();
        let mut buffers = vec![Vec::with_capacity(256); depth.max(1) as usize];
        for (i, &m) in list.iter().enumerate() {
            counts[i] = subtree(&mut p, m, &mut buffers);
        }
    } else {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let results: Vec<Vec<(usize, u64)>> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut p = pos.clone();
                        let mut buffers = vec![Vec::with_capacity(256); depth.max(1) as usize];
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&m) = list.get(i) else { break };
                            mine.push((i, subtree(&mut p, m, &mut buffers)));
                        }
                        mine
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        for (i, n) in results.into_iter().flatten() {
            counts[i] = n;
        }
    }
    Ok(list.iter().copied().zip(counts).collect())
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
