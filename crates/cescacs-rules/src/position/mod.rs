//! Position, moves, generation, make/unmake and attack detection.

use crate::piece::{Piece, PieceKind, Side};
use crate::tables::{NO_CELL, NO_DIR, TABLES};
use cescacs_hex::{Cell, Direction, HexColour};
use std::ops::Deref;

mod attacks;
mod board;
mod makemove;
mod movegen;

/// Emulation of the author's program's blind spots, for oracle cross-checks only
/// (cargo feature `oracle-compat`, off by default: without it the switches below are
/// constants and the emulation vanishes from the move generator).
#[cfg(feature = "oracle-compat")]
pub mod compat;

/// The emulation switched off for good: every test folds to a constant.
#[cfg(not(feature = "oracle-compat"))]
pub(crate) mod compat {
    #[inline(always)]
    pub(crate) fn set_king_move_test(_on: bool) {}
    #[inline(always)]
    pub(crate) fn king_move_test() -> bool {
        false
    }
    #[inline(always)]
    pub(crate) fn set_elephant_only(_on: bool) {}
    #[inline(always)]
    pub(crate) fn ignore_elephant_two_step() -> bool {
        false
    }
}

const EMPTY: u8 = 0;
const KIND_MASK: u8 = 15;
const BLACK_BIT: u8 = 16;

const K: u8 = 1;
const D: u8 = 2;
const V: u8 = 3;
const R: u8 = 4;
const G: u8 = 5;
const N: u8 = 6;
const J: u8 = 7;
const E: u8 = 8;
const P: u8 = 9;

#[inline]
fn side_of(code: u8) -> Side {
    if code & BLACK_BIT != 0 {
        Side::Black
    } else {
        Side::White
    }
}

#[inline]
fn side_bit(side: Side) -> u8 {
    (side as u8) << 4
}

#[inline]
fn kind_code(kind: PieceKind) -> u8 {
    kind as u8 + 1
}

fn kind_from_code(code: u8) -> PieceKind {
    PieceKind::ALL[((code & KIND_MASK) - 1) as usize]
}

/// 169-bit set of cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Bits([u64; 3]);

impl Bits {
    #[inline]
    fn set(&mut self, c: Cell) {
        let i = c.index();
        self.0[i >> 6] |= 1 << (i & 63);
    }
    #[inline]
    fn clear(&mut self, c: Cell) {
        let i = c.index();
        self.0[i >> 6] &= !(1 << (i & 63));
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn contains(self, c: Cell) -> bool {
        let i = c.index();
        self.0[i >> 6] & (1 << (i & 63)) != 0
    }
    /// Whether `f` holds for some cell, in index order, stopping at the first.
    #[inline]
    fn any(self, mut f: impl FnMut(Cell) -> bool) -> bool {
        for (w, mut word) in self.0.into_iter().enumerate() {
            while word != 0 {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                if let Some(c) = Cell::from_index(w * 64 + b)
                    && f(c)
                {
                    return true;
                }
            }
        }
        false
    }
    #[inline]
    fn for_each(self, mut f: impl FnMut(Cell)) {
        for (w, mut word) in self.0.into_iter().enumerate() {
            while word != 0 {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                if let Some(c) = Cell::from_index(w * 64 + b) {
                    f(c);
                }
            }
        }
    }
}

/// Which castling / leap rights remain for one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SideCastling {
    /// The King has never moved (it may leap, and castle with unmoved rooks).
    pub king: bool,
    /// The queen's rook (C3 / C25) has never moved.
    pub queen_rook: bool,
    /// The king's rook (I3 / I25) has never moved.
    pub king_rook: bool,
}

/// Castling and leap rights of both sides, as the TLPD castling field carries them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    /// White's rights.
    pub white: SideCastling,
    /// Black's rights.
    pub black: SideCastling,
}

impl CastlingRights {
    /// Every right of both sides (the initial position).
    pub const ALL: CastlingRights = CastlingRights {
        white: SideCastling {
            king: true,
            queen_rook: true,
            king_rook: true,
        },
        black: SideCastling {
            king: true,
            queen_rook: true,
            king_rook: true,
        },
    };
    /// The rights of `side`.
    pub fn side(&self, side: Side) -> SideCastling {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }
    fn from_bits(b: u8) -> CastlingRights {
        let s = |b: u8| SideCastling {
            king: b & 1 != 0,
            queen_rook: b & 2 != 0,
            king_rook: b & 4 != 0,
        };
        CastlingRights {
            white: s(b & 7),
            black: s(b >> 3),
        }
    }
}

/// The one-move special right created by the previous move (spec §4.4, §4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialRight {
    /// No special right.
    None,
    /// A pawn just made a double (`far == None`) or triple step and stands on `pawn`
    /// (or the piece it promoted to does). `near` is the skipped cell next to it,
    /// `far` the first skipped cell of a triple step.
    EnPassant {
        /// The cell of the pawn (or the piece it promoted to) that stepped.
        pawn: Cell,
        /// The skipped cell next to it.
        near: Cell,
        /// The first skipped cell of a triple step.
        far: Option<Cell>,
    },
    /// A pawn just made a scornful oblique step to `target`; the enemy pawn(s) in
    /// `capturers` (normally exactly one) may take it orthogonally on this move.
    Scornful {
        /// The cell of the scornful pawn.
        target: Cell,
        /// The enemy pawns that may take it.
        capturers: [Option<Cell>; 2],
    },
}

/// Everything needed to build a position, as read from a TLPD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The men on the 169 cells, by [`Cell::index`].
    pub board: [Option<Piece>; 169],
    /// The side to move.
    pub side_to_move: Side,
    /// Castling and leap rights (reconciled with the board by [`Position::from_setup`]).
    pub castling: CastlingRights,
    /// The en-passant or scornful-pawn right.
    pub special: SpecialRight,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// `None` when unknown (`?`).
    pub fullmove_number: Option<u32>,
}

/// Why [`Position::play`] refused a move: it is not one of the position's legal
/// moves (a move of another position, or one played twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the move {}-{} is not legal in this position", .mv.from(), .mv.to())]
#[non_exhaustive]
pub struct IllegalMove {
    /// The refused move.
    pub mv: Move,
}

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    #[error("{side:?} must have exactly one King, found {found}")]
    /// A side has no King or several.
    KingCount {
        /// The side.
        side: Side,
        /// How many Kings it has.
        found: usize,
    },
    #[error("{side:?} has {found} pieces of kind {kind:?}, at most {max} allowed")]
    /// More men of a kind than a side starts with.
    TooMany {
        /// The side.
        side: Side,
        /// The kind.
        kind: PieceKind,
        /// How many are on the board.
        found: usize,
        /// How many the side starts with.
        max: usize,
    },
    #[error("{side:?} has two bishops on {colour:?} cells")]
    /// Two bishops of one side on cells of one colour.
    BishopColour {
        /// The side.
        side: Side,
        /// The colour of both bishops' cells.
        colour: HexColour,
    },
    #[error("the side not to move is in check")]
    /// The side that just moved left its King in check.
    OpponentInCheck,
    #[error("en passant field does not fit the board: {0}")]
    /// The en-passant field contradicts the board.
    EnPassant(String),
    #[error("scornful-pawn field does not fit the board: {0}")]
    /// The scornful-pawn field contradicts the board.
    Scornful(String),
}

/// Kind of a move, as far as notation and make/unmake care.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move or capture that is none of the special kinds below.
    Normal,
    /// Pawn straight double step.
    DoubleStep,
    /// Pawn straight triple step.
    TripleStep,
    /// Pawn capture onto a skipped cell; the captured man stands elsewhere.
    EnPassant,
    /// Orthogonal capture of a scornful pawn.
    ScornfulCapture,
    /// Castling; the King's move is from/to, the rooks are implied.
    Castling,
    /// Forced promotion of an awaiting pawn, in place (`F28=R`).
    PromotionInPlace,
}

const MK_NORMAL: u8 = 0;
const MK_DOUBLE: u8 = 1;
const MK_TRIPLE: u8 = 2;
const MK_EP: u8 = 3;
const MK_SCORNFUL: u8 = 4;
const MK_CASTLE: u8 = 5;
const MK_PROMOTE: u8 = 6;

/// A move. Fields are private: a `Move` comes only from the generator of the position
/// it belongs to (directly, or by resolving notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Cell,
    to: Cell,
    kind: u8,
    /// kind code of the promotion piece, or 0.
    promo: u8,
    /// piece code of the captured man, or 0.
    captured: u8,
    /// castling index, or the cell index of the man taken en passant.
    aux: u8,
}

impl Move {
    /// A placeholder for buffers, never a move of a position.
    const NULL: Move = Move {
        from: Cell::from_index(0).expect("cell 0"),
        to: Cell::from_index(0).expect("cell 0"),
        kind: 0,
        promo: 0,
        captured: 0,
        aux: 0,
    };
    /// Origin cell (the King's cell for castling).
    pub fn from(self) -> Cell {
        self.from
    }
    /// Destination cell (the King's for castling; the origin for a promotion in place).
    pub fn to(self) -> Cell {
        self.to
    }
    /// The kind of move.
    pub fn kind(self) -> MoveKind {
        match self.kind {
            MK_DOUBLE => MoveKind::DoubleStep,
            MK_TRIPLE => MoveKind::TripleStep,
            MK_EP => MoveKind::EnPassant,
            MK_SCORNFUL => MoveKind::ScornfulCapture,
            MK_CASTLE => MoveKind::Castling,
            MK_PROMOTE => MoveKind::PromotionInPlace,
            _ => MoveKind::Normal,
        }
    }
    /// The piece a pawn promotes to, if any.
    pub fn promotion(self) -> Option<PieceKind> {
        (self.promo != 0).then(|| kind_from_code(self.promo))
    }
    /// Whether the move takes a man (en passant and scornful captures included).
    pub fn is_capture(self) -> bool {
        self.captured != 0
    }
    /// The captured man, if any (for en passant, the piece removed from its own cell).
    pub fn captured(self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
    /// The cell of the captured man (differs from `to()` only for en passant).
    pub fn capture_cell(self) -> Option<Cell> {
        if self.captured == 0 {
            None
        } else if self.kind == MK_EP {
            Cell::from_index(self.aux as usize)
        } else {
            Some(self.to)
        }
    }
    /// Castling string (`KRK-HI`), with the standard letters.
    pub fn castling_name(self) -> Option<&'static str> {
        (self.kind == MK_CASTLE).then(|| TABLES.castlings[self.aux as usize].name.as_str())
    }
    /// For castling: the rook moves `(from, to)` of the side `side`.
    pub fn castling_rooks(self, side: Side) -> Vec<(Cell, Cell)> {
        if self.kind != MK_CASTLE {
            return Vec::new();
        }
        TABLES.castlings[self.aux as usize]
            .rooks
            .iter()
            .map(|r| (r[side.index()].0, r[side.index()].1))
            .collect()
    }
}

/// The legal moves of a position; derefs to `[Move]`.
#[derive(Clone, Default)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        self.moves.retain(|&m| keep(m));
    }
}

/// Where the generator writes moves: a growable list for full generation, a fixed
/// stack buffer for the per-cell generation of the notation path (no allocation).
pub(crate) trait MoveSink {
    fn push(&mut self, m: Move);
    fn len(&self) -> usize;
}

impl MoveSink for Vec<Move> {
    #[inline]
    fn push(&mut self, m: Move) {
        Vec::push(self, m)
    }
    #[inline]
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        self.moves.push(m)
    }
    #[inline]
    fn len(&self) -> usize {
        self.moves.len()
    }
}

/// Perft's leaf sink: counts the moves of an unpinned non-King piece as they are
/// generated (all legal when not in check) and keeps only en-passant captures, which
/// can uncover a line through the captured pawn, for the full test.
struct Counter<'a> {
    n: u64,
    /// Every move pushed, counted or deferred: `len` for the promotion expansion.
    pushed: usize,
    deferred: &'a mut Vec<Move>,
}

impl MoveSink for Counter<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        self.pushed += 1;
        if m.kind == MK_EP {
            self.deferred.push(m);
        } else {
            self.n += 1;
        }
    }
    #[inline]
    fn len(&self) -> usize {
        self.pushed
    }
}

/// Counts the moves pushed (whether a generator has any).
pub(crate) struct PushCount(pub(crate) usize);

impl MoveSink for PushCount {
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline]
    fn len(&self) -> usize {
        self.0
    }
}

/// The notation path's sink: keeps the moves from one cell to one cell as the
/// generator pushes them. `len` counts every move pushed, so that the promotion
/// expansion of `push_pawn` sees its own pushes.
pub(crate) struct ToCell {
    from: Cell,
    to: Cell,
    moves: [Move; ToCell::CAP],
    n: usize,
    /// The moves kept, once there are more than `CAP` (then `moves` is unused).
    spill: Vec<Move>,
    /// Every move pushed, kept or not.
    pushed: usize,
}

impl ToCell {
    /// One origin and one destination carry at most one pawn move expanded into the
    /// six regainable pieces, or six promotions in place; only a King that may
    /// castle has more (a step or jump, and the castlings that end on that cell),
    /// which go to `spill`.
    const CAP: usize = 8;
    pub(crate) fn new() -> ToCell {
        let zero = Cell::from_index(0).expect("cell 0");
        ToCell {
            from: zero,
            to: zero,
            moves: [Move::NULL; ToCell::CAP],
            n: 0,
            spill: Vec::new(),
            pushed: 0,
        }
    }
    #[inline]
    fn reset(&mut self, from: Cell, to: Cell) {
        self.from = from;
        self.to = to;
        self.n = 0;
        self.spill.clear();
        self.pushed = 0;
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Move] {
        if self.spill.is_empty() {
            &self.moves[..self.n]
        } else {
            &self.spill
        }
    }
    /// Keeps the moves for which `keep` holds, in order.
    #[inline]
    fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        if self.spill.is_empty() {
            let mut j = 0;
            for i in 0..self.n {
                let m = self.moves[i];
                if keep(m) {
                    self.moves[j] = m;
                    j += 1;
                }
            }
            self.n = j;
        } else {
            self.spill.retain(|&m| keep(m));
            if self.spill.is_empty() {
                self.n = 0;
            }
        }
    }
}

impl MoveSink for ToCell {
    #[inline]
    fn push(&mut self, m: Move) {
        self.pushed += 1;
        if m.from == self.from && m.to == self.to {
            if self.n < ToCell::CAP {
                self.moves[self.n] = m;
                self.n += 1;
            } else {
                if self.spill.is_empty() {
                    self.spill.extend_from_slice(&self.moves);
                }
                self.spill.push(m);
            }
        }
    }
    #[inline]
    fn len(&self) -> usize {
        self.pushed
    }
}

/// The end-of-game search's sink: tests each move as the generator pushes it and
/// remembers whether one was legal (later pushes are ignored). Not in check, a piece
/// other than the King is tested against its pin, found once per piece
/// ([`FirstLegal::enter`]); the King's moves, castling, en passant and every move out
/// of check take the full test on a copy of the position, made on first use.
pub(crate) struct FirstLegal<'a> {
    pos: &'a Position,
    scratch: &'a mut Option<Position>,
    in_check: bool,
    king: Cell,
    /// The line through the King that the piece being generated is pinned on, or
    /// `NO_DIR` when it is free.
    pin: u8,
    pub(crate) found: bool,
    pub(crate) pushed: usize,
}

impl<'a> FirstLegal<'a> {
    pub(crate) fn new(
        pos: &'a Position,
        in_check: bool,
        scratch: &'a mut Option<Position>,
    ) -> FirstLegal<'a> {
        FirstLegal {
            pos,
            scratch,
            in_check,
            king: pos.kings[pos.side.index()],
            pin: NO_DIR,
            found: false,
            pushed: 0,
        }
    }
    /// The generator moves on to the piece on `from`: find its pin.
    #[inline]
    pub(crate) fn enter(&mut self, from: Cell) {
        self.pin = NO_DIR;
        if !self.in_check && from != self.king {
            let d = TABLES.align[self.king.index()][from.index()];
            if d != NO_DIR && self.pos.pinned(self.king, from, d as usize) {
                self.pin = d;
            }
        }
    }
}

impl MoveSink for FirstLegal<'_> {
    #[inline]
    fn push(&mut self, m: Move) {
        self.pushed += 1;
        if self.found {
            return;
        }
        self.found =
            if self.in_check || m.from == self.king || m.kind == MK_EP || m.kind == MK_CASTLE {
                let pos = self.pos;
                self.scratch
                    .get_or_insert_with(|| pos.clone())
                    .is_legal_pseudo(m, self.in_check)
            } else {
                // As `quiet_piece_move_is_legal`, with the pin found once for the piece.
                self.pin == NO_DIR || TABLES.align[self.king.index()][m.to.index()] == self.pin
            };
    }
    #[inline]
    fn len(&self) -> usize {
        self.pushed
    }
}

/// Fixed-capacity move buffer. One cell yields at most about 70 pseudo-legal moves
/// (a Queen in the open, or a King with its jumps and 24 castlings; a pawn's
/// promotions at most 7 x 6), and the forced promotions of a whole side at most
/// 11 x 6, so the capacity is never reached (a test checks the Queen's and the
/// King's maxima).
pub(crate) struct FixedMoves {
    moves: [Move; FixedMoves::CAP],
    n: usize,
}

impl FixedMoves {
    const CAP: usize = 160;
    #[inline]
    pub(crate) fn new() -> FixedMoves {
        let zero = Cell::from_index(0).expect("cell 0");
        FixedMoves {
            moves: [Move {
                from: zero,
                to: zero,
                kind: 0,
                promo: 0,
                captured: 0,
                aux: 0,
            }; FixedMoves::CAP],
            n: 0,
        }
    }
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.n = 0;
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.n]
    }
}

impl MoveSink for FixedMoves {
    #[inline]
    fn push(&mut self, m: Move) {
        self.moves[self.n] = m;
        self.n += 1;
    }
    #[inline]
    fn len(&self) -> usize {
        self.n
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// End state of a position, from the rules alone (no history).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a legal move.
    Ongoing,
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
}

/// Check marker of the position just reached (rich classification of spec §6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckMarker {
    /// No check.
    None,
    /// `+^`: one checker, adjacent or a knight jump away (cannot be blocked).
    Adjoining,
    /// `+∞`: one checker from afar (blockable).
    Afar,
    /// `++`: two checkers.
    Double,
    /// `#`
    Mate,
}

/// The pieces giving check: cell and whether adjoining. At most one per direction
/// and knight jump, so 24 entries always suffice.
#[derive(Clone, Copy)]
pub(crate) struct Checkers {
    list: [(Cell, bool); 24],
    n: usize,
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers {
            list: [(Cell::from_index(0).expect("cell 0"), false); 24],
            n: 0,
        }
    }
}

impl Checkers {
    #[inline]
    fn push(&mut self, c: (Cell, bool)) {
        self.list[self.n] = c;
        self.n += 1;
    }
    #[inline]
    pub(crate) fn as_slice(&self) -> &[(Cell, bool)] {
        &self.list[..self.n]
    }
}

/// Record of what [`Position::make`] changed, so [`Position::unmake`] can restore it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    writes: [(Cell, u8); 6],
    n: u8,
    castling: u8,
    special: SpecialRight,
    halfmove: u32,
    fullmove: Option<u32>,
    kings: [Cell; 2],
    hash: u64,
}

/// A C'escacs position: placement, side to move, castling/leap rights, the one-move
/// special right, and the clocks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    board: [u8; 169],
    occ: [Bits; 2],
    kings: [Cell; 2],
    side: Side,
    castling: u8,
    special: SpecialRight,
    halfmove: u32,
    fullmove: Option<u32>,
    /// Zobrist key of placement, side to move and castling rights, kept up to date by
    /// every write (the special right is added on demand by [`Position::zobrist`]).
    /// A function of the other fields, so derived equality is unaffected.
    hash: u64,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", crate::diagram(self))
    }
}

/// Whether `a` and `b` are a knight jump apart (a table lookup; `Cell::is_knight_jump`
/// scans the jump list).
#[inline]
fn knight_jump(a: Cell, b: Cell) -> bool {
    let i = b.index();
    TABLES.knight_bits[a.index()][i >> 6] & (1 << (i & 63)) != 0
}

#[inline]
fn dir(i: usize) -> Direction {
    Direction::ALL[i]
}

fn fwd(side: Side) -> Direction {
    match side {
        Side::White => Direction::ColumnUp,
        Side::Black => Direction::ColumnDown,
    }
}

fn pawn_capture_dirs(side: Side) -> [Direction; 2] {
    match side {
        Side::White => [Direction::LineUp, Direction::LineInvUp],
        Side::Black => [Direction::LineDown, Direction::LineInvDown],
    }
}

fn pawn_oblique_dirs(side: Side) -> [Direction; 2] {
    match side {
        Side::White => [Direction::FileUp, Direction::FileInvUp],
        Side::Black => [Direction::FileDown, Direction::FileInvDown],
    }
}

const NON_TRANSVERSAL_DIAGONALS: [Direction; 4] = [
    Direction::LineUp,
    Direction::LineInvUp,
    Direction::LineDown,
    Direction::LineInvDown,
];

#[cfg(test)]
mod tests;
