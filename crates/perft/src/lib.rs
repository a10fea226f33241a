//! Perft drivers shared by the rule crates: limits, counts per root move, and one perft split over threads.
#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The deepest perft accepted. perft(5) from the C'escacs start has about 2·10⁹
/// leaves; a depth of 20 could not be counted in a lifetime in any position with a few
/// moves per ply, while per-ply buffers and the recursion stay a few kilobytes.
pub const MAX_PERFT_DEPTH: u32 = 20;

/// The most worker threads accepted.
pub const MAX_PERFT_JOBS: usize = 256;

/// Why a perft request was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PerftError {
    /// The depth exceeds [`MAX_PERFT_DEPTH`].
    #[error("perft depth {0} is above the maximum of {MAX_PERFT_DEPTH}")]
    DepthTooLarge(u32),
    /// The thread count is 0 or exceeds [`MAX_PERFT_JOBS`].
    #[error("{0} perft jobs: expected 1 to {MAX_PERFT_JOBS}")]
    Jobs(usize),
}

/// A position whose legal-move tree perft can count.
pub trait Node: Clone + Send + Sync {
    /// A legal move.
    type Move: Copy + Send + Sync;
    /// The legal moves, in the order [`PerftSplit::divide`] lists them.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// The position after the legal move `m`.
    fn after(&self, m: Self::Move) -> Self;
    /// Leaves of the legal-move tree of depth `depth` under this position, counted on
    /// the calling thread (1 at depth 0). The rule crate's fastest counter: the
    /// drivers call it once per task, so its set-up cost is paid a few thousand times
    /// per perft, not per node.
    fn leaves(&self, depth: u32) -> u64;
}

/// `Ok` when `depth` and `jobs` are within [`MAX_PERFT_DEPTH`] and [`MAX_PERFT_JOBS`].
pub fn check_limits(depth: u32, jobs: usize) -> Result<(), PerftError> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PerftError::DepthTooLarge(depth));
    }
    if jobs == 0 || jobs > MAX_PERFT_JOBS {
        return Err(PerftError::Jobs(jobs));
    }
    Ok(())
}

/// Leaves of the tree of depth `depth` under `pos`, on `jobs` threads (the same count
/// for every `jobs`; one job runs on the calling thread).
pub fn perft<N: Node>(pos: &N, depth: u32, jobs: usize) -> Result<u64, PerftError> {
    check_limits(depth, jobs)?;
    if jobs == 1 || depth <= 1 {
        return Ok(pos.leaves(depth));
    }
    Ok(split(pos, depth, jobs)?.nodes())
}

/// Leaves under each root move, in generation order, on `jobs` threads.
pub fn divide<N: Node>(
    pos: &N,
    depth: u32,
    jobs: usize,
) -> Result<Vec<(N::Move, u64)>, PerftError> {
    Ok(split(pos, depth, jobs)?.divide)
}

/// A perft shared among threads: the counts per root move and how the work fell to
/// each thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftSplit<M> {
    /// Leaves under each root move, in generation order.
    pub divide: Vec<(M, u64)>,
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

impl<M> PerftSplit<M> {
    /// The perft count: the sum over the root moves (1 at depth 0).
    pub fn nodes(&self) -> u64 {
        if self.depth == 0 {
            1
        } else {
            self.divide.iter().map(|x| x.1).sum()
        }
    }
}

/// Perft on `jobs` rayon threads of a pool of its own. Depth 2 hands out the root
/// moves; from depth 3 on the tasks are the (move, reply) pairs, subtrees of depth − 2
/// (see the crate documentation for why).
pub fn split<N: Node>(pos: &N, depth: u32, jobs: usize) -> Result<PerftSplit<N::Move>, PerftError> {
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
    let task = |p: &N, d: u32| {
        let n = p.leaves(d);
        let t = rayon::current_thread_index().unwrap_or(0).min(jobs - 1);
        leaves[t].fetch_add(n, Ordering::Relaxed);
        tasks.fetch_add(1, Ordering::Relaxed);
        largest.fetch_max(n, Ordering::Relaxed);
        n
    };
    let under_root = |m: N::Move| -> u64 {
        let p = pos.after(m);
        if depth <= 2 {
            return task(&p, depth - 1);
        }
        p.legal_moves()
            .par_iter()
            .map(|&r| task(&p.after(r), depth - 2))
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
        divide: root.into_iter().zip(counts).collect(),
        leaves_per_thread: leaves.into_iter().map(AtomicU64::into_inner).collect(),
        tasks: tasks.into_inner(),
        largest_task: largest.into_inner(),
        depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree whose first root move has a subtree far larger than the others: what
    /// the (move, reply) split exists for.
    #[derive(Clone)]
    struct Lopsided {
        ply: u32,
        heavy: bool,
    }

    impl Node for Lopsided {
        type Move = u8;
        fn legal_moves(&self) -> Vec<u8> {
            let n = if self.heavy { 9 } else { 2 };
            (0..n).collect()
        }
        fn after(&self, m: u8) -> Lopsided {
            Lopsided {
                ply: self.ply + 1,
                heavy: self.heavy || (self.ply == 0 && m == 0),
            }
        }
        fn leaves(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.legal_moves()
                .iter()
                .map(|&m| self.after(m).leaves(depth - 1))
                .sum()
        }
    }

    const ROOT: Lopsided = Lopsided {
        ply: 0,
        heavy: false,
    };

    #[test]
    fn threads_give_the_counts_of_one_thread() {
        for depth in 0..6 {
            let one = split(&ROOT, depth, 1).unwrap();
            assert_eq!(one.nodes(), ROOT.leaves(depth));
            for jobs in [2, 3, 8] {
                let many = split(&ROOT, depth, jobs).unwrap();
                assert_eq!(many.divide, one.divide);
                assert_eq!(
                    many.leaves_per_thread.iter().sum::<u64>(),
                    ROOT.leaves(depth)
                );
                assert_eq!(perft(&ROOT, depth, jobs), Ok(ROOT.leaves(depth)));
            }
        }
    }

    #[test]
    fn deep_splits_hand_out_move_reply_pairs() {
        let s = split(&ROOT, 5, 2).unwrap();
        // Root move 0 leads to 9 replies, move 1 to 2.
        assert_eq!(s.tasks, 11);
        assert_eq!(s.largest_task, 9 * 9 * 9);
        assert_eq!(split(&ROOT, 2, 2).unwrap().tasks, 2);
        assert_eq!(divide(&ROOT, 1, 1), Ok(vec![(0, 1), (1, 1)]));
    }

    #[test]
    fn limits_are_errors() {
        assert_eq!(
            perft(&ROOT, MAX_PERFT_DEPTH + 1, 1),
            Err(PerftError::DepthTooLarge(21))
        );
        assert_eq!(perft(&ROOT, 2, 0), Err(PerftError::Jobs(0)));
        assert_eq!(
            split(&ROOT, 2, MAX_PERFT_JOBS + 1),
            Err(PerftError::Jobs(257))
        );
        assert_eq!(
            PerftError::Jobs(0).to_string(),
            "0 perft jobs: expected 1 to 256"
        );
    }
}
