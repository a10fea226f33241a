//! Positions, legal move generation, check and game end.

use std::fmt;
use std::ops::Deref;

use crate::tables::{ADVISOR, DIAG, ELEPHANT, GENERAL, HORSE, HORSE_ATTACKERS, RAYS, SOLDIER};
use crate::types::{Piece, Side, Square};

const GENERAL_CODE: u8 = 1;
const ADVISOR_CODE: u8 = 2;
const ELEPHANT_CODE: u8 = 3;
const HORSE_CODE: u8 = 4;
const CHARIOT_CODE: u8 = 5;
const CANNON_CODE: u8 = 6;
const SOLDIER_CODE: u8 = 7;
const BLACK_BIT: u8 = 8;

/// A move. Only the move generator creates moves, so a `Move` taken from
/// [`Position::legal_moves`] is always legal in that position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    /// The point the piece leaves.
    #[inline]
    pub fn from(self) -> Square {
        Square::from_raw(self.from)
    }

    /// The point the piece reaches.
    #[inline]
    pub fn to(self) -> Square {
        Square::from_raw(self.to)
    }

    /// ICCS text, e.g. `h2e2`.
    pub fn to_iccs(self) -> String {
        format!("{}{}", self.from(), self.to())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

// 128 is above the largest possible count of pseudo-legal moves for the piece set a
// valid FEN allows (at most 2 chariots * 17 + 2 cannons * 17 + 2 horses * 8 + 5
// soldiers * 3 + 8 + 8 + 4 = 119), so pushes never overflow.
const MOVE_CAPACITY: usize = 128;

/// A list of moves held inline (no heap allocation); derefs to `[Move]`.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MOVE_CAPACITY],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [Move { from: 0, to: 0 }; MOVE_CAPACITY],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, from: u8, to: u8) {
        if self.len < MOVE_CAPACITY {
            self.moves[self.len] = Move { from, to };
            self.len += 1;
        }
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Whether the game goes on. A side with no legal move loses, whether it is in check
/// (checkmate) or not (stalemate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has a legal move.
    Ongoing,
    /// The side to move is in check and has no legal move; it has lost.
    Checkmate,
    /// The side to move is not in check but has no legal move; it has lost too.
    Stalemate,
}

/// A position: placement, side to move and the two move counters.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: [u8; 90],
    pub(crate) side: Side,
    pub(crate) generals: [u8; 2],
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::initial()
    }
}

/// FEN of the standard start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// The standard start position, Red to move.
    pub fn initial() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    pub(crate) fn from_parts(
        board: [u8; 90],
        side: Side,
        halfmove: u32,
        fullmove: u32,
    ) -> Position {
        let mut generals = [u8::MAX; 2];
        for (i, &c) in board.iter().enumerate() {
            if c & 7 == GENERAL_CODE {
                generals[usize::from(c & BLACK_BIT != 0)] = i as u8;
            }
        }
        Position {
            board,
            side,
            generals,
            halfmove,
            fullmove,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// Plies since the last capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Move number, starting at 1 and increased after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Where the general of `side` stands.
    pub fn general(&self, side: Side) -> Square {
        Square::from_raw(self.generals[side.index()])
    }

    /// Is the side to move in check (including by the facing generals)?
    pub fn is_check(&self) -> bool {
        self.is_attacked(self.generals[self.side.index()], self.side)
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal(&mut list);
        let in_check = self.is_check();
        let mut scratch = self.board;
        let mut kept = 0;
        for i in 0..list.len {
            let m = list.moves[i];
            if self.keeps_general_safe(&mut scratch, m, in_check) {
                list.moves[kept] = m;
                kept += 1;
            }
        }
        list.len = kept;
        list
    }

    /// Number of legal moves, without building the list twice (used by perft).
    pub fn count_legal_moves(&self) -> usize {
        let mut list = MoveList::new();
        self.pseudo_legal(&mut list);
        let in_check = self.is_check();
        let mut scratch = self.board;
        list.iter()
            .filter(|&&m| self.keeps_general_safe(&mut scratch, m, in_check))
            .count()
    }

    /// The legal move from `from` to `to`, if there is one.
    pub fn find_move(&self, from: Square, to: Square) -> Option<Move> {
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to)
    }

    /// Whether the game goes on; with no legal move the side to move has lost.
    pub fn status(&self) -> Status {
        if self.count_legal_moves() > 0 {
            Status::Ongoing
        } else if self.is_check() {
            Status::Checkmate
        } else {
            Status::Stalemate
        }
    }

    /// The winner if the side to move has no legal move (checkmate or stalemate).
    pub fn winner(&self) -> Option<Side> {
        match self.status() {
            Status::Ongoing => None,
            _ => Some(self.side.opposite()),
        }
    }

    /// The piece a move would capture.
    pub fn captured_by(&self, m: Move) -> Option<Piece> {
        Piece::from_code(self.board[m.to as usize])
    }

    /// Plays `m`, which must come from `self.legal_moves()` (a move of another position
    /// is played as a plain displacement, never a panic).
    pub fn play(&mut self, m: Move) {
        let captured = self.board[m.to as usize];
        let piece = self.board[m.from as usize];
        self.board[m.to as usize] = piece;
        self.board[m.from as usize] = 0;
        if piece & 7 == GENERAL_CODE {
            self.generals[usize::from(piece & BLACK_BIT != 0)] = m.to;
        }
        self.halfmove = if captured != 0 { 0 } else { self.halfmove + 1 };
        if self.side == Side::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
    }

    /// A copy of the position after `m`.
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play(m);
        p
    }

    // Fast filter: when not in check and the general does not move, a move can only
    // expose the general if it touches the general's file or rank (chariot, cannon,
    // facing general, or a new cannon screen) or empties a diagonal neighbour of the
    // general (a horse leg). Everything else is legal without trying it.
    #[inline]
    fn keeps_general_safe(&self, scratch: &mut [u8; 90], m: Move, in_check: bool) -> bool {
        let own = self.side.index();
        let g = self.generals[own];
        let moving_general = m.from == g;
        if !in_check && !moving_general {
            let (gf, gr) = (g % 9, g / 9);
            let (ff, fr, tf, tr) = (m.from % 9, m.from / 9, m.to % 9, m.to / 9);
            let on_lines = ff == gf || fr == gr || tf == gf || tr == gr;
            let d = &DIAG[g as usize];
            let leg = d.to[..d.n as usize].contains(&m.from);
            if !on_lines && !leg {
                return true;
            }
        }
        let captured = scratch[m.to as usize];
        scratch[m.to as usize] = scratch[m.from as usize];
        scratch[m.from as usize] = 0;
        let g_now = if moving_general { m.to } else { g };
        let safe = !attacked_on(scratch, g_now, self.side);
        scratch[m.from as usize] = scratch[m.to as usize];
        scratch[m.to as usize] = captured;
        safe
    }

    #[inline]
    fn is_attacked(&self, sq: u8, victim: Side) -> bool {
        attacked_on(&self.board, sq, victim)
    }

    fn pseudo_legal(&self, list: &mut MoveList) {
        let b = &self.board;
        let black = self.side == Side::Black;
        let own_bit = if black { BLACK_BIT } else { 0 };
        let side_idx = self.side.index();
        for s in 0..90u8 {
            let code = b[s as usize];
            if code == 0 || (code & BLACK_BIT) != own_bit {
                continue;
            }
            // An occupied target is a capture only if it holds an enemy piece.
            let free = |t: u8| {
                let c = b[t as usize];
                c == 0 || (c & BLACK_BIT) != own_bit
            };
            match code & 7 {
                CHARIOT_CODE => {
                    for ray in &RAYS[s as usize] {
                        for &t in &ray.sq[..ray.n as usize] {
                            let c = b[t as usize];
                            if c == 0 {
                                list.push(s, t);
                            } else {
                                if (c & BLACK_BIT) != own_bit {
                                    list.push(s, t);
                                }
                                break;
                            }
                        }
                    }
                }
                CANNON_CODE => {
                    for ray in &RAYS[s as usize] {
                        let mut screened = false;
                        for &t in &ray.sq[..ray.n as usize] {
                            let c = b[t as usize];
                            if !screened {
                                if c == 0 {
                                    list.push(s, t);
                                } else {
                                    screened = true;
                                }
                            } else if c != 0 {
                                if (c & BLACK_BIT) != own_bit {
                                    list.push(s, t);
                                }
                                break;
                            }
                        }
                    }
                }
                HORSE_CODE => {
                    let st = &HORSE[s as usize];
                    for i in 0..st.n as usize {
                        if b[st.via[i] as usize] == 0 && free(st.to[i]) {
                            list.push(s, st.to[i]);
                        }
                    }
                }
                ELEPHANT_CODE => {
                    let st = &ELEPHANT[s as usize];
                    for i in 0..st.n as usize {
                        if b[st.via[i] as usize] == 0 && free(st.to[i]) {
                            list.push(s, st.to[i]);
                        }
                    }
                }
                ADVISOR_CODE => {
                    let st = &ADVISOR[s as usize];
                    for &t in &st.to[..st.n as usize] {
                        if free(t) {
                            list.push(s, t);
                        }
                    }
                }
                GENERAL_CODE => {
                    let st = &GENERAL[s as usize];
                    for &t in &st.to[..st.n as usize] {
                        if free(t) {
                            list.push(s, t);
                        }
                    }
                }
                SOLDIER_CODE => {
                    let st = &SOLDIER[side_idx][s as usize];
                    for &t in &st.to[..st.n as usize] {
                        if free(t) {
                            list.push(s, t);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// Is the general of `victim` standing on `sq` attacked on board `b`?
#[inline]
fn attacked_on(b: &[u8; 90], sq: u8, victim: Side) -> bool {
    let enemy_bit = if victim == Side::Red { BLACK_BIT } else { 0 };
    let enemy = |kind: u8| kind | enemy_bit;
    // Chariots, cannons and the facing general along the four lines.
    for (d, ray) in RAYS[sq as usize].iter().enumerate() {
        let mut screened = false;
        for &t in &ray.sq[..ray.n as usize] {
            let c = b[t as usize];
            if c == 0 {
                continue;
            }
            if !screened {
                // Generals only ever meet on a file, so only the first two directions.
                if c == enemy(CHARIOT_CODE) || (d < 2 && c == enemy(GENERAL_CODE)) {
                    return true;
                }
                screened = true;
            } else {
                if c == enemy(CANNON_CODE) {
                    return true;
                }
                break;
            }
        }
    }
    let h = &HORSE_ATTACKERS[sq as usize];
    for i in 0..h.n as usize {
        if b[h.to[i] as usize] == enemy(HORSE_CODE) && b[h.via[i] as usize] == 0 {
            return true;
        }
    }
    // Enemy soldiers attack from one point "in front of" the victim (seen from the
    // victim) and, once across the river, from the two sides.
    let (x, y) = (sq % 9, sq / 9);
    let soldier = enemy(SOLDIER_CODE);
    let ahead = if victim == Side::Red {
        (y < 9).then(|| sq + 9)
    } else {
        (y > 0).then(|| sq - 9)
    };
    if ahead.is_some_and(|t| b[t as usize] == soldier) {
        return true;
    }
    let enemy_crossed = if victim == Side::Red { y <= 4 } else { y >= 5 };
    if enemy_crossed
        && ((x > 0 && b[sq as usize - 1] == soldier) || (x < 8 && b[sq as usize + 1] == soldier))
    {
        return true;
    }
    false
}

pub use perft::{MAX_PERFT_DEPTH, MAX_PERFT_JOBS, PerftError};

/// A perft shared among threads (see [`perft_split`]): the counts per root move and
/// how the work fell to each thread.
pub type PerftSplit = perft::PerftSplit<Move>;

/// Number of leaf nodes of the legal move tree of depth `depth` (bulk-counted at the
/// last level), on one thread.
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
        Position::after(self, m)
    }

    fn leaves(&self, depth: u32) -> u64 {
        perft_rec(self, depth)
    }
}

fn perft_rec(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut total = 0;
            for &m in pos.legal_moves().iter() {
                total += perft_rec(&pos.after(m), depth - 1);
            }
            total
        }
    }
}

/// Per-move perft counts, useful to find where two generators disagree.
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

/// Perft on `jobs` rayon threads. The 44 root moves of the start have subtrees of
/// quite different sizes, so from depth 3 on the tasks are the (move, reply) pairs,
/// about two thousand subtrees of depth − 2 spread by work stealing ([`perft::split`]).
pub fn perft_split(pos: &Position, depth: u32, jobs: usize) -> Result<PerftSplit, PerftError> {
    perft::split(pos, depth, jobs)
}

#[cfg(test)]
mod perft_tests {
    use super::*;

    #[test]
    fn threads_give_the_same_counts_and_limits_are_errors() {
        let p = Position::initial();
        assert_eq!(try_perft(&p, 3, 2), Ok(perft(&p, 3)));
        assert_eq!(try_divide(&p, 2, 3), Ok(divide(&p, 2)));
        assert_eq!(try_divide(&p, 3, 2), Ok(divide(&p, 3)));
        let split = perft_split(&p, 3, 2).unwrap();
        assert!(split.largest_task > 0 && split.largest_task < split.nodes() / 100);
        assert_eq!(split.nodes(), perft(&p, 3));
        assert_eq!(split.tasks as u64, perft(&p, 2));
        assert_eq!(split.leaves_per_thread.iter().sum::<u64>(), perft(&p, 3));
        assert_eq!(
            try_perft(&p, 4_294_967_295, 1),
            Err(PerftError::DepthTooLarge(4_294_967_295))
        );
        assert_eq!(try_perft(&p, 2, 0), Err(PerftError::Jobs(0)));
        assert_eq!(try_perft(&p, 2, 100_000), Err(PerftError::Jobs(100_000)));
    }
}
