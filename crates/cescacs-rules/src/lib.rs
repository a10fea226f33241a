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
pub mod tlpd;

pub use cescacs_hex::{Cell, Direction, HexColour};
pub use game::{DrawClaim, Game, GameError, GameResult, Played, Termination};
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

/// [`perft`] on `jobs` threads (the same count), and the limits checked. See
/// [`perft_split`] for how the tree is shared.
pub fn try_perft(pos: &Position, depth: u32, jobs: usize) -> Result<u64, PerftError> {
    check_limits(depth, jobs)?;
    if depth == 0 {
        return Ok(1);
    }
    if jobs == 1 {
        let mut p = pos.clone();
        let mut buffers = vec![Vec::with_capacity(256); depth as usize];
        return Ok(perft_rec(&mut p, depth, &mut buffers));
    }
    Ok(perft_split(pos, depth, jobs)?.nodes())
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
    Ok(perft_split(pos, depth, jobs)?.divide)
}

/// A perft shared among threads: the counts per root move and how the work fell to
/// each thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftSplit {
    /// Leaves under each root move, in generation order.
    pub divide: Vec<(Move, u64)>,
    /// Leaves counted by each worker thread (index = rayon's thread index): the
    /// balance of the split, since leaves are what costs.
    pub leaves_per_thread: Vec<u64>,
    /// Subtrees handed out as tasks (root moves at depth 2, (move, reply) pairs
    /// deeper).
    pub tasks: usize,
    /// Leaves of the largest task. With work stealing no thread idles longer than
    /// the largest task takes, so on `p` idle cores the speed-up is at least
    /// `p / (1 + p · largest_task / nodes)`, whatever the machine's load does to the
    /// leaves each thread ends up counting.
    pub largest_task: u64,
    /// The depth counted.
    pub depth: u32,
}

impl PerftSplit {
    /// The perft count: the sum over the root moves (1 at depth 0).
    pub fn nodes(&self) -> u64 {
        if self.depth == 0 {
            1
        } else {
            self.divide.iter().map(|x| x.1).sum()
        }
    }
}

/// Perft on `jobs` rayon threads. The root of C'escacs has 68 moves whose subtrees
/// differ a lot in size, so from depth 3 on the tasks are the (move, reply) pairs,
/// a few thousand subtrees of depth − 2 that rayon's work stealing spreads evenly:
/// no thread sits idle at the end waiting for another's big subtree. Depth 2 splits
/// the root moves; `jobs == 1` runs on the calling thread.
pub fn perft_split(pos: &Position, depth: u32, jobs: usize) -> Result<PerftSplit, PerftError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    check_limits(depth, jobs)?;
    if depth == 0 {
        return Ok(PerftSplit {
            divide: Vec::new(),
            leaves_per_thread: vec![1],
            tasks: 0,
            largest_task: 1,
            depth,
        });
    }
    let root = pos.legal_moves();
    let leaves: Vec<AtomicU64> = (0..jobs).map(|_| AtomicU64::new(0)).collect();
    let tasks = AtomicUsize::new(0);
    let largest = AtomicU64::new(0);
    // One task: the subtree under `p` of depth `d`, credited to the running thread.
    let task = |p: &mut Position, d: u32, buffers: &mut Vec<Vec<Move>>| {
        let n = perft_rec(p, d, buffers);
        let t = rayon::current_thread_index().unwrap_or(0).min(jobs - 1);
        leaves[t].fetch_add(n, Ordering::Relaxed);
        tasks.fetch_add(1, Ordering::Relaxed);
        largest.fetch_max(n, Ordering::Relaxed);
        n
    };
    let new_buffers = || vec![Vec::with_capacity(256); depth as usize];
    let under_root = |m: Move| -> u64 {
        let mut p = pos.clone();
        p.make(m);
        if depth <= 2 {
            return task(&mut p, depth - 1, &mut new_buffers());
        }
        let replies = p.legal_moves();
        replies
            .par_iter()
            .map_init(
                || (p.clone(), new_buffers()),
                |(q, buffers), &r| {
                    let undo = q.make(r);
                    let n = task(q, depth - 2, buffers);
                    q.unmake(undo);
                    n
                },
            )
            .sum()
    };
    // A pool of its own even for one job: the nested `par_iter` must not spill onto
    // rayon's global pool (all cores).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|_| PerftError::Jobs(jobs))?;
    let counts: Vec<u64> = pool.install(|| root.par_iter().map(|&m| under_root(m)).collect());
    Ok(PerftSplit {
        divide: root.iter().copied().zip(counts).collect(),
        leaves_per_thread: leaves.into_iter().map(AtomicU64::into_inner).collect(),
        tasks: tasks.into_inner(),
        largest_task: largest.into_inner(),
        depth,
    })
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
