//! Position, moves, generation, make/unmake and attack detection.

use crate::piece::{Piece, PieceKind, Side};
use crate::tables::{NO_DIR, TABLES};
use cescacs_hex::{Cell, Direction, HexColour};
use std::ops::Deref;

/// Emulation of the author's program's blind spots, for oracle cross-checks only
/// (cargo feature `oracle-compat`, off by default: without it the switches below are
/// constants and the emulation vanishes from the move generator).
#[cfg(feature = "oracle-compat")]
pub mod compat {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicUsize, Ordering};

    thread_local! {
        static IGNORE_ELEPHANT_TWO_STEP: Cell<bool> = const { Cell::new(false) };
        static KING_MOVE_TEST: Cell<bool> = const { Cell::new(false) };
    }

    /// Set while testing a King move in program emulation: the program's threat map
    /// then skips the attacks of pinned pieces off their pin line.
    pub(crate) fn set_king_move_test(on: bool) {
        KING_MOVE_TEST.with(|c| c.set(on));
    }

    #[inline]
    pub(crate) fn king_move_test() -> bool {
        ACTIVE.load(Ordering::Relaxed) != 0 && KING_MOVE_TEST.with(|c| c.get())
    }

    /// When set (on this thread), the engine imitates the blind spots of the author's
    /// TypeScript program, as far as the oracle data reveal them: the Elephant's
    /// two-step forward attack is ignored for check and pins (spec §9.16.1) but
    /// counted for King destinations; King moves are judged on the position before
    /// the move (the King's shade covered only on the line of one checker, enemy
    /// pins as before the move, and off their pin line pinned pieces cover nothing);
    /// castling is not tested for the King's safety after the rooks move (spec
    /// §9.16.4); and in check an en-passant capture is allowed only as a block (spec
    /// §9.16.2). Never set it outside of tests that compare against that program's
    /// output.
    pub fn set_ignore_elephant_two_step(on: bool) {
        IGNORE_ELEPHANT_TWO_STEP.with(|c| {
            if c.get() != on {
                if on {
                    ACTIVE.fetch_add(1, Ordering::Relaxed);
                } else {
                    ACTIVE.fetch_sub(1, Ordering::Relaxed);
                }
            }
            c.set(on)
        });
    }

    /// Switches the Elephant part alone, keeping the thread counted as emulating.
    pub(crate) fn set_elephant_only(on: bool) {
        IGNORE_ELEPHANT_TWO_STEP.with(|c| c.set(on));
    }

    /// Threads with the emulation on; lets the normal path skip the thread-local.
    static ACTIVE: AtomicUsize = AtomicUsize::new(0);

    #[inline]
    pub(crate) fn ignore_elephant_two_step() -> bool {
        ACTIVE.load(Ordering::Relaxed) != 0 && IGNORE_ELEPHANT_TWO_STEP.with(|c| c.get())
    }
}

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
    fn contains(self, c: Cell) -> bool {
        let i = c.index();
        self.0[i >> 6] & (1 << (i & 63)) != 0
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
    pub white: SideCastling,
    pub black: SideCastling,
}

impl CastlingRights {
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
    None,
    /// A pawn just made a double (`far == None`) or triple step and stands on `pawn`
    /// (or the piece it promoted to does). `near` is the skipped cell next to it,
    /// `far` the first skipped cell of a triple step.
    EnPassant {
        pawn: Cell,
        near: Cell,
        far: Option<Cell>,
    },
    /// A pawn just made a scornful oblique step to `target`; the enemy pawn(s) in
    /// `capturers` (normally exactly one) may take it orthogonally on this move.
    Scornful {
        target: Cell,
        capturers: [Option<Cell>; 2],
    },
}

/// Everything needed to build a position, as read from a TLPD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 169],
    pub side_to_move: Side,
    pub castling: CastlingRights,
    pub special: SpecialRight,
    pub halfmove_clock: u32,
    /// `None` when unknown (`?`).
    pub fullmove_number: Option<u32>,
}

/// Why a [`Setup`] is not a playable position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{side:?} must have exactly one King, found {found}")]
    KingCount { side: Side, found: usize },
    #[error("{side:?} has {found} pieces of kind {kind:?}, at most {max} allowed")]
    TooMany {
        side: Side,
        kind: PieceKind,
        found: usize,
        max: usize,
    },
    #[error("{side:?} has two bishops on {colour:?} cells")]
    BishopColour { side: Side, colour: HexColour },
    #[error("the side not to move is in check")]
    OpponentInCheck,
    #[error("en passant field does not fit the board: {0}")]
    EnPassant(String),
    #[error("scornful-pawn field does not fit the board: {0}")]
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
    pub fn from(self) -> Cell {
        self.from
    }
    pub fn to(self) -> Cell {
        self.to
    }
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
    pub fn promotion(self) -> Option<PieceKind> {
        (self.promo != 0).then(|| kind_from_code(self.promo))
    }
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
    Ongoing,
    Checkmate,
    Stalemate,
}

/// Check marker of the position just reached (rich classification of spec §6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckMarker {
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
struct Checkers {
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
    fn as_slice(&self) -> &[(Cell, bool)] {
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

impl Position {
    /// The standard initial position.
    pub fn initial() -> Position {
        let mut board = [None; 169];
        let place = |board: &mut [Option<Piece>; 169], kind, cells: &[&str]| {
            for name in cells {
                let c: Cell = name.parse().expect("valid cell");
                board[c.index()] = Some(Piece::new(Side::White, kind));
                board[c.mirrored().index()] = Some(Piece::new(Side::Black, kind));
            }
        };
        place(&mut board, PieceKind::King, &["G1"]);
        place(&mut board, PieceKind::Queen, &["E1"]);
        place(&mut board, PieceKind::Wyvern, &["F0"]);
        place(&mut board, PieceKind::Pegasus, &["D2", "H2"]);
        place(&mut board, PieceKind::Bishop, &["F2", "F4", "F6"]);
        place(&mut board, PieceKind::Rook, &["C3", "I3"]);
        place(&mut board, PieceKind::Knight, &["E3", "G3"]);
        place(&mut board, PieceKind::Elephant, &["D4", "H4", "E5", "G5"]);
        place(
            &mut board,
            PieceKind::Pawn,
            &[
                "B4", "K4", "A5", "C5", "I5", "L5", "D6", "H6", "E7", "G7", "F8",
            ],
        );
        Position::from_setup(Setup {
            board,
            side_to_move: Side::White,
            castling: CastlingRights::ALL,
            special: SpecialRight::None,
            halfmove_clock: 0,
            fullmove_number: Some(1),
        })
        .expect("the initial position is valid")
    }

    /// Builds and validates a position. Castling flags are reconciled with the board
    /// (a flag survives only if its King / rook stands on its initial cell).
    pub fn from_setup(s: Setup) -> Result<Position, SetupError> {
        let mut pos = Position {
            board: [EMPTY; 169],
            occ: [Bits::default(); 2],
            kings: [Cell::from_index(0).expect("cell 0"); 2],
            side: s.side_to_move,
            castling: 0,
            special: SpecialRight::None,
            halfmove: s.halfmove_clock,
            fullmove: s.fullmove_number,
            hash: if s.side_to_move == Side::Black {
                TABLES.zobrist_black
            } else {
                0
            },
        };
        let mut counts = [[0usize; 9]; 2];
        let mut bishop_colours = [[0usize; 3]; 2];
        for c in Cell::all() {
            if let Some(p) = s.board[c.index()] {
                pos.set(c, p.code());
                counts[p.side.index()][p.kind.index()] += 1;
                if p.kind == PieceKind::King {
                    pos.kings[p.side.index()] = c;
                }
                if p.kind == PieceKind::Bishop {
                    bishop_colours[p.side.index()][c.colour().index()] += 1;
                }
            }
        }
        for side in [Side::White, Side::Black] {
            let found = counts[side.index()][PieceKind::King.index()];
            if found != 1 {
                return Err(SetupError::KingCount { side, found });
            }
            for kind in PieceKind::ALL {
                let found = counts[side.index()][kind.index()];
                let max = kind.initial_count() as usize;
                if found > max {
                    return Err(SetupError::TooMany {
                        side,
                        kind,
                        found,
                        max,
                    });
                }
            }
            for colour in HexColour::ALL {
                if bishop_colours[side.index()][colour.index()] > 1 {
                    return Err(SetupError::BishopColour { side, colour });
                }
            }
        }
        let mut bits = 0u8;
        for side in [Side::White, Side::Black] {
            let sc = s.castling.side(side);
            let sb = side_bit(side);
            let shift = 3 * side.index();
            let rh = TABLES.rook_home[side.index()];
            if sc.king && pos.board[TABLES.king_home[side.index()].index()] == K | sb {
                bits |= 1 << shift;
                if sc.queen_rook && pos.board[rh[0].index()] == R | sb {
                    bits |= 2 << shift;
                }
                if sc.king_rook && pos.board[rh[1].index()] == R | sb {
                    bits |= 4 << shift;
                }
            }
        }
        pos.set_castling(bits);
        pos.special = pos.validate_special(s.special)?;
        if pos.attacked(pos.kings[pos.side.opponent().index()], pos.side) {
            return Err(SetupError::OpponentInCheck);
        }
        Ok(pos)
    }

    fn validate_special(&self, sp: SpecialRight) -> Result<SpecialRight, SetupError> {
        let mover = self.side.opponent();
        match sp {
            SpecialRight::None => Ok(sp),
            SpecialRight::EnPassant { pawn, near, far } => {
                let code = self.board[pawn.index()];
                if code == EMPTY || side_of(code) != mover {
                    return Err(SetupError::EnPassant(format!(
                        "no piece of the side that just moved on {pawn}"
                    )));
                }
                // The skipped cells lie behind the pawn on its column, nearest first.
                let back = fwd(mover).opposite();
                let exp_near = pawn.step(back);
                let exp_far = exp_near.and_then(|c| c.step(back));
                if exp_near != Some(near) || (far.is_some() && far != exp_far) {
                    return Err(SetupError::EnPassant(format!(
                        "skipped cells are not directly behind {pawn}"
                    )));
                }
                for c in [Some(near), far].into_iter().flatten() {
                    if self.board[c.index()] != EMPTY {
                        return Err(SetupError::EnPassant(format!(
                            "skipped cell {c} is occupied"
                        )));
                    }
                }
                Ok(sp)
            }
            SpecialRight::Scornful { target, capturers } => {
                let code = self.board[target.index()];
                if code == EMPTY || side_of(code) != mover {
                    return Err(SetupError::Scornful(format!(
                        "no piece of the side that just moved on {target}"
                    )));
                }
                let enemy_pawn = P | side_bit(self.side);
                // Candidates: enemy pawns on the target's two cells ahead-oblique for the mover.
                let cands: Vec<Cell> = pawn_oblique_dirs(mover)
                    .iter()
                    .filter_map(|&d| target.step(d))
                    .filter(|c| self.board[c.index()] == enemy_pawn)
                    .collect();
                let given: Vec<Cell> = capturers.iter().flatten().copied().collect();
                let chosen: Vec<Cell> = if given.is_empty() {
                    if cands.len() == 2 {
                        // Ambiguous seed field: the scornful pawn came from the cell in
                        // front of its scorner, which must be empty now (spec §8.4).
                        let back = fwd(mover).opposite();
                        let v: Vec<Cell> = cands
                            .iter()
                            .copied()
                            .filter(|q| {
                                q.step(back)
                                    .and_then(|o| o.step(back))
                                    .is_some_and(|o| self.board[o.index()] == EMPTY)
                            })
                            .collect();
                        if v.is_empty() { cands.clone() } else { v }
                    } else {
                        cands.clone()
                    }
                } else {
                    given
                };
                if chosen.is_empty() || chosen.iter().any(|c| !cands.contains(c)) {
                    return Err(SetupError::Scornful(format!(
                        "no enemy pawn can take the scornful pawn on {target}"
                    )));
                }
                Ok(SpecialRight::Scornful {
                    target,
                    capturers: [chosen.first().copied(), chosen.get(1).copied()],
                })
            }
        }
    }

    /// The inverse of [`Position::from_setup`].
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 169];
        for c in Cell::all() {
            board[c.index()] = Piece::from_code(self.board[c.index()]);
        }
        Setup {
            board,
            side_to_move: self.side,
            castling: self.castling_rights(),
            special: self.special,
            halfmove_clock: self.halfmove,
            fullmove_number: self.fullmove,
        }
    }

    pub fn side_to_move(&self) -> Side {
        self.side
    }
    #[inline]
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        Piece::from_code(self.board[c.index()])
    }
    pub fn king(&self, side: Side) -> Cell {
        self.kings[side.index()]
    }
    pub fn castling_rights(&self) -> CastlingRights {
        CastlingRights::from_bits(self.castling)
    }
    pub fn special(&self) -> SpecialRight {
        self.special
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> Option<u32> {
        self.fullmove
    }

    #[inline]
    fn set(&mut self, c: Cell, code: u8) {
        let old = self.board[c.index()];
        self.hash ^= TABLES.zobrist_piece[old as usize][c.index()]
            ^ TABLES.zobrist_piece[code as usize][c.index()];
        self.set_raw(c, code);
    }

    /// `set` without the key update, for `unmake`, which restores the key whole.
    #[inline]
    fn set_raw(&mut self, c: Cell, code: u8) {
        let old = self.board[c.index()];
        if old != EMPTY {
            self.occ[side_of(old).index()].clear(c);
        }
        if code != EMPTY {
            self.occ[side_of(code).index()].set(c);
        }
        self.board[c.index()] = code;
    }

    /// Replaces the castling bits, keeping the key in step.
    #[inline]
    fn set_castling(&mut self, bits: u8) {
        let changed = self.castling ^ bits;
        if changed != 0 {
            for (i, key) in TABLES.zobrist_castling.iter().enumerate() {
                if changed & (1 << i) != 0 {
                    self.hash ^= key;
                }
            }
            self.castling = bits;
        }
    }

    #[inline]
    fn king_unmoved(&self, side: Side) -> bool {
        self.castling & (1 << (3 * side.index())) != 0
    }

    /// Whether `target` is attacked by `by` (spec §3 "Attacks").
    #[inline]
    pub fn is_attacked(&self, target: Cell, by: Side) -> bool {
        self.attacked(target, by)
    }

    #[inline]
    fn attacked(&self, target: Cell, by: Side) -> bool {
        self.attacked_inner(target, by, true)
    }

    /// Program emulation only: the author's program does not count the attacks of a
    /// piece pinned to its own King, except along the pin line.
    #[inline]
    fn program_pin_blind(&self, attacker: Cell, by: Side, target: Cell) -> bool {
        if !compat::king_move_test() {
            return false;
        }
        let king = self.kings[by.index()];
        let d = TABLES.align[king.index()][attacker.index()];
        d != NO_DIR
            && TABLES.align[king.index()][target.index()] != d
            && self.pinned_for(by, king, attacker, d as usize)
    }

    fn attacked_inner(&self, target: Cell, by: Side, king_leap: bool) -> bool {
        let sb = side_bit(by);
        let elephant_back = fwd(by).opposite() as usize;
        for d in 0..6 {
            for (i, &c) in target.ray(dir(d)).iter().enumerate() {
                let p = self.board[c.index()];
                if p == EMPTY {
                    continue;
                }
                if p & BLACK_BIT == sb {
                    let hit = match p & KIND_MASK {
                        R | D | V => true,
                        K => i == 0,
                        E => {
                            i < 2
                                && d == elephant_back
                                && (i == 0 || !compat::ignore_elephant_two_step())
                        }
                        _ => false,
                    };
                    if hit && !self.program_pin_blind(c, by, target) {
                        return true;
                    }
                }
                break;
            }
        }
        let pawn_dirs = pawn_capture_dirs(by.opponent());
        for d in 6..12 {
            for (i, &c) in target.ray(dir(d)).iter().enumerate() {
                let p = self.board[c.index()];
                if p == EMPTY {
                    continue;
                }
                if p & BLACK_BIT == sb {
                    let hit = match p & KIND_MASK {
                        J | D | G => true,
                        K => i == 0,
                        E => i == 0 && d != 6 && d != 9,
                        P => i == 0 && pawn_dirs.contains(&dir(d)),
                        _ => false,
                    };
                    if hit && !self.program_pin_blind(c, by, target) {
                        return true;
                    }
                }
                break;
            }
        }
        for &c in target.knight_jumps() {
            let p = self.board[c.index()];
            if p == EMPTY || p & BLACK_BIT != sb {
                continue;
            }
            match p & KIND_MASK {
                N | V | G if !self.program_pin_blind(c, by, target) => return true,
                // An unmoved King not in check could capture by leaping (TS rule).
                K if king_leap
                    && self.king_unmoved(by)
                    && !self.attacked_inner(c, by.opponent(), false) =>
                {
                    return true;
                }
                _ => {}
            }
        }
        false
    }

    /// Cells of the pieces of `by` that attack `target`, each with whether it is
    /// adjoining (neighbour or knight jump).
    fn checkers_of(&self, target: Cell, by: Side) -> Checkers {
        let sb = side_bit(by);
        let mut out = Checkers::default();
        let elephant_back = fwd(by).opposite() as usize;
        let pawn_dirs = pawn_capture_dirs(by.opponent());
        for d in 0..12 {
            for (i, &c) in target.ray(dir(d)).iter().enumerate() {
                let p = self.board[c.index()];
                if p == EMPTY {
                    continue;
                }
                if p & BLACK_BIT == sb {
                    let hit = match p & KIND_MASK {
                        R | V => d < 6,
                        D => true,
                        J | G => d >= 6,
                        K => i == 0,
                        E => {
                            if d < 6 {
                                i < 2
                                    && d == elephant_back
                                    && (i == 0 || !compat::ignore_elephant_two_step())
                            } else {
                                i == 0 && d != 6 && d != 9
                            }
                        }
                        P => i == 0 && d >= 6 && pawn_dirs.contains(&dir(d)),
                        _ => false,
                    };
                    if hit {
                        out.push((c, i == 0));
                    }
                }
                break;
            }
        }
        for &c in target.knight_jumps() {
            let p = self.board[c.index()];
            if p == EMPTY || p & BLACK_BIT != sb {
                continue;
            }
            let hit = match p & KIND_MASK {
                N | V | G => true,
                K => self.king_unmoved(by) && !self.attacked_inner(c, by.opponent(), false),
                _ => false,
            };
            if hit {
                out.push((c, true));
            }
        }
        out
    }

    /// Cells of the pieces giving check to the side to move.
    pub fn checkers(&self) -> Vec<Cell> {
        self.checkers_of(self.kings[self.side.index()], self.side.opponent())
            .as_slice()
            .iter()
            .map(|c| c.0)
            .collect()
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.attacked(self.kings[self.side.index()], self.side.opponent())
    }

    /// The check marker of this position (as the position just reached by a move).
    pub fn check_marker(&self) -> CheckMarker {
        self.check_marker_and_knight().0
    }

    /// The check marker, and whether the single checker (if exactly one) stands a
    /// knight jump from the King, from one scan of the King's surroundings.
    pub(crate) fn check_marker_and_knight(&self) -> (CheckMarker, bool) {
        let king = self.kings[self.side.index()];
        let checkers = self.checkers_of(king, self.side.opponent());
        let marker = match checkers.as_slice() {
            [] => return (CheckMarker::None, false),
            _ if !self.has_legal_move(true) => CheckMarker::Mate,
            [(_, true)] => CheckMarker::Adjoining,
            [_] => CheckMarker::Afar,
            _ => CheckMarker::Double,
        };
        let knight = matches!(checkers.as_slice(), [(c, _)] if king.is_knight_jump(*c));
        (marker, knight)
    }

    /// Whether the single checker (if exactly one) stands a knight jump from the King;
    /// used by the seed-mode writer, where `+^` is reserved for knight-jump checks.
    pub fn is_knight_jump_check(&self) -> bool {
        let king = self.kings[self.side.index()];
        let checkers = self.checkers_of(king, self.side.opponent());
        matches!(checkers.as_slice(), [(c, _)] if king.is_knight_jump(*c))
    }

    pub fn status(&self) -> Status {
        let in_check = self.is_check();
        if self.has_legal_move(in_check) {
            Status::Ongoing
        } else if in_check {
            Status::Checkmate
        } else {
            Status::Stalemate
        }
    }

    /// Whether the side to move has a legal move, given whether it is in check; stops
    /// at the first one found.
    pub(crate) fn has_legal_move(&self, in_check: bool) -> bool {
        let mut scratch = self.clone();
        let mut buf = FixedMoves::new();
        if !in_check {
            self.forced_promotions(&mut buf);
            if buf.len() > 0 {
                return buf
                    .as_slice()
                    .iter()
                    .any(|&m| scratch.is_legal_pseudo(m, in_check));
            }
        }
        // The King first: when in check its steps are the likeliest way out.
        let king = self.kings[self.side.index()];
        self.piece_moves(&mut buf, king, in_check);
        if buf
            .as_slice()
            .iter()
            .any(|&m| scratch.is_legal_pseudo(m, in_check))
        {
            return true;
        }
        let mut found = false;
        let mut own = self.occ[self.side.index()];
        own.clear(king);
        own.for_each(|from| {
            if found {
                return;
            }
            buf.clear();
            self.piece_moves(&mut buf, from, in_check);
            found = buf
                .as_slice()
                .iter()
                .any(|&m| scratch.is_legal_pseudo(m, in_check));
        });
        found
    }

    /// The pseudo-legal moves of the piece on `from` that the full generator would
    /// give, with the forced-promotion rule applied.
    pub(crate) fn pseudo_from(&self, from: Cell, in_check: bool, buf: &mut FixedMoves) {
        buf.clear();
        if !in_check {
            self.forced_promotions(buf);
            if buf.len() > 0 {
                let mut j = 0;
                for i in 0..buf.n {
                    if buf.moves[i].from == from {
                        buf.moves[j] = buf.moves[i];
                        j += 1;
                    }
                }
                buf.n = j;
                return;
            }
        }
        self.piece_moves(buf, from, in_check);
    }

    /// The legal moves of the piece on `from` into `buf` (generation order), without
    /// generating the other pieces' moves.
    pub(crate) fn legal_from(&self, from: Cell, buf: &mut FixedMoves) {
        let in_check = self.is_check();
        self.pseudo_from(from, in_check, buf);
        let mut scratch = self.clone();
        let mut j = 0;
        for i in 0..buf.n {
            let m = buf.moves[i];
            if scratch.is_legal_pseudo(m, in_check) {
                buf.moves[j] = m;
                j += 1;
            }
        }
        buf.n = j;
    }

    /// Whether `m` is one of this position's legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut buf = FixedMoves::new();
        let in_check = self.is_check();
        self.pseudo_from(m.from, in_check, &mut buf);
        buf.as_slice().contains(&m) && self.clone().is_legal_pseudo(m, in_check)
    }

    /// The regainable pieces of `side` that fit a promotion on `cell` (spec §4.6).
    pub fn regainable(&self, side: Side, cell: Cell) -> Vec<PieceKind> {
        self.regainable_iter(side, cell).collect()
    }

    /// [`Position::regainable`] without the allocation.
    fn regainable_iter(&self, side: Side, cell: Cell) -> impl Iterator<Item = PieceKind> {
        let mut counts = [0u8; 10];
        let mut bishop_on_colour = false;
        let colour = cell.colour();
        self.occ[side.index()].for_each(|c| {
            let code = self.board[c.index()];
            counts[(code & KIND_MASK) as usize] += 1;
            if code & KIND_MASK == J && c.colour() == colour {
                bishop_on_colour = true;
            }
        });
        PieceKind::REGAINABLE.iter().copied().filter(move |&k| {
            if k == PieceKind::Bishop {
                !bishop_on_colour
            } else {
                counts[kind_code(k) as usize] < k.initial_count()
            }
        })
    }

    // ---------------------------------------------------------------- generation

    #[inline]
    fn push_move(&self, list: &mut impl MoveSink, from: Cell, to: Cell, kind: u8, captured: u8) {
        list.push(Move {
            from,
            to,
            kind,
            promo: 0,
            captured,
            aux: 0,
        });
    }

    /// Pawn arrival: expands into one move per fitting regainable piece, or a single
    /// awaiting move when nothing fits.
    fn push_pawn(&self, list: &mut impl MoveSink, mut m: Move) {
        if TABLES.promotion[self.side.index()][m.to.index()] {
            // The pool depends only on own pieces, which `m` cannot change except by
            // the promotion itself.
            let start = list.len();
            for k in self.regainable_iter(self.side, m.to) {
                m.promo = kind_code(k);
                list.push(m);
            }
            if list.len() == start {
                m.promo = 0;
                list.push(m);
            }
        } else {
            list.push(m);
        }
    }

    #[inline]
    fn slide(&self, list: &mut impl MoveSink, from: Cell, dirs: std::ops::Range<usize>) {
        let us = side_bit(self.side);
        for d in dirs {
            for &to in from.ray(dir(d)) {
                let p = self.board[to.index()];
                if p == EMPTY {
                    self.push_move(list, from, to, MK_NORMAL, 0);
                } else {
                    if p & BLACK_BIT != us {
                        self.push_move(list, from, to, MK_NORMAL, p);
                    }
                    break;
                }
            }
        }
    }

    #[inline]
    fn jumps(&self, list: &mut impl MoveSink, from: Cell) {
        let us = side_bit(self.side);
        for &to in from.knight_jumps() {
            let p = self.board[to.index()];
            if p == EMPTY {
                self.push_move(list, from, to, MK_NORMAL, 0);
            } else if p & BLACK_BIT != us {
                self.push_move(list, from, to, MK_NORMAL, p);
            }
        }
    }

    #[inline]
    fn step_to(&self, list: &mut impl MoveSink, from: Cell, to: Option<Cell>) {
        if let Some(to) = to {
            let p = self.board[to.index()];
            if p == EMPTY {
                self.push_move(list, from, to, MK_NORMAL, 0);
            } else if side_of(p) != self.side {
                self.push_move(list, from, to, MK_NORMAL, p);
            }
        }
    }

    /// The forced promotions of awaiting pawns, if they apply (spec §4.6).
    fn forced_promotions(&self, list: &mut impl MoveSink) {
        let si = self.side.index();
        let own = self.occ[si].0;
        let mask = TABLES.promotion_bits[si];
        let on_edge = Bits([own[0] & mask[0], own[1] & mask[1], own[2] & mask[2]]);
        if on_edge == Bits::default() {
            return;
        }
        let pawn = P | side_bit(self.side);
        on_edge.for_each(|c| {
            if self.board[c.index()] == pawn {
                for k in self.regainable_iter(self.side, c) {
                    list.push(Move {
                        from: c,
                        to: c,
                        kind: MK_PROMOTE,
                        promo: kind_code(k),
                        captured: 0,
                        aux: 0,
                    });
                }
            }
        });
    }

    /// Pseudo-legal moves (own King possibly left attacked), given whether the side
    /// to move is in check.
    fn pseudo(&self, list: &mut impl MoveSink, in_check: bool) {
        let side = self.side;
        if !in_check {
            let start = list.len();
            self.forced_promotions(list);
            if list.len() > start {
                return;
            }
        }
        self.occ[side.index()].for_each(|from| self.piece_moves(list, from, in_check));
    }

    /// Pseudo-legal moves of the own piece on `from` (none if there is none), without
    /// the forced-promotion rule: callers apply it.
    #[inline]
    fn piece_moves(&self, list: &mut impl MoveSink, from: Cell, in_check: bool) {
        let side = self.side;
        let us = side_bit(side);
        let code = self.board[from.index()];
        if code == EMPTY || code & BLACK_BIT != us {
            return;
        }
        let elephant_fwd = fwd(side);
        match code & KIND_MASK {
            K => {
                for d in 0..12 {
                    self.step_to(list, from, from.step(dir(d)));
                }
                if self.king_unmoved(side) && !in_check {
                    self.jumps(list, from);
                    self.castlings(list);
                }
            }
            D => self.slide(list, from, 0..12),
            V => {
                self.slide(list, from, 0..6);
                self.jumps(list, from);
            }
            R => self.slide(list, from, 0..6),
            G => {
                self.slide(list, from, 6..12);
                self.jumps(list, from);
            }
            J => self.slide(list, from, 6..12),
            N => {
                self.jumps(list, from);
                for &(mid, to) in from.knight_rides() {
                    if self.board[mid.index()] == EMPTY && self.board[to.index()] == EMPTY {
                        self.push_move(list, from, to, MK_NORMAL, 0);
                    }
                }
            }
            E => {
                if let Some(s1) = from.step(elephant_fwd) {
                    let p = self.board[s1.index()];
                    if p == EMPTY {
                        self.push_move(list, from, s1, MK_NORMAL, 0);
                        self.step_to(list, from, s1.step(elephant_fwd));
                    } else if p & BLACK_BIT != us {
                        self.push_move(list, from, s1, MK_NORMAL, p);
                    }
                }
                for d in NON_TRANSVERSAL_DIAGONALS {
                    self.step_to(list, from, from.step(d));
                }
            }
            _ => self.pawn_moves(list, from),
        }
    }

    fn pawn_moves(&self, list: &mut impl MoveSink, from: Cell) {
        let side = self.side;
        let us = side_bit(side);
        let forward = fwd(side);
        let mk = |to: Cell, kind: u8, captured: u8, aux: u8| Move {
            from,
            to,
            kind,
            promo: 0,
            captured,
            aux,
        };
        if let Some(s1) = from.step(forward)
            && self.board[s1.index()] == EMPTY
        {
            self.push_pawn(list, mk(s1, MK_NORMAL, 0, 0));
            if let Some(s2) = s1.step(forward)
                && self.board[s2.index()] == EMPTY
            {
                self.push_pawn(list, mk(s2, MK_DOUBLE, 0, 0));
                if TABLES.triple[side.index()][from.index()]
                    && let Some(s3) = s2.step(forward)
                    && self.board[s3.index()] == EMPTY
                {
                    self.push_pawn(list, mk(s3, MK_TRIPLE, 0, 0));
                }
            }
        }
        for d in pawn_oblique_dirs(side) {
            if let Some(to) = from.step(d)
                && self.board[to.index()] == EMPTY
            {
                self.push_pawn(list, mk(to, MK_NORMAL, 0, 0));
            }
        }
        for d in pawn_capture_dirs(side) {
            if let Some(to) = from.step(d) {
                let p = self.board[to.index()];
                if p != EMPTY {
                    if p & BLACK_BIT != us {
                        self.push_pawn(list, mk(to, MK_NORMAL, p, 0));
                    }
                } else if let SpecialRight::EnPassant { pawn, near, far } = self.special
                    && (to == near || Some(to) == far)
                {
                    let victim = self.board[pawn.index()];
                    self.push_pawn(list, mk(to, MK_EP, victim, pawn.index() as u8));
                }
            }
        }
        if let SpecialRight::Scornful { target, capturers } = self.special
            && capturers.contains(&Some(from))
        {
            let victim = self.board[target.index()];
            self.push_pawn(list, mk(target, MK_SCORNFUL, victim, 0));
        }
    }

    fn castlings(&self, list: &mut impl MoveSink) {
        let side = self.side;
        let si = side.index();
        let rook = R | side_bit(side);
        let from = self.kings[si];
        for (idx, def) in TABLES.castlings.iter().enumerate() {
            let dest = def.king_to[si];
            if self.board[dest.index()] != EMPTY {
                continue;
            }
            let ok = def.rooks.iter().all(|r| {
                let (origin, _, path) = &r[si];
                let flag = if *origin == TABLES.rook_home[si][0] {
                    2
                } else {
                    4
                };
                self.castling & (flag << (3 * si)) != 0
                    && self.board[origin.index()] == rook
                    && path.iter().all(|c| self.board[c.index()] == EMPTY)
            });
            if ok && !self.attacked(dest, side.opponent()) {
                list.push(Move {
                    from,
                    to: dest,
                    kind: MK_CASTLE,
                    promo: 0,
                    captured: 0,
                    aux: idx as u8,
                });
            }
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::default();
        let in_check = self.is_check();
        self.pseudo(&mut list.moves, in_check);
        let mut scratch = self.clone();
        list.retain(|m| scratch.is_legal_pseudo(m, in_check));
        list
    }

    /// Legality of a pseudo-legal move. When not in check, a move by a piece off
    /// every line through its King is legal outright; a piece on such a line is tested
    /// for a pin by scanning that one line, and a King step by looking at its
    /// destination with the King lifted off the board. Castling, en passant and every
    /// move out of check go through make/unmake.
    #[inline]
    fn is_legal_pseudo(&mut self, m: Move, in_check: bool) -> bool {
        let us = self.side;
        let king = self.kings[us.index()];
        if !in_check && m.kind != MK_EP && m.kind != MK_CASTLE {
            if m.from == king {
                if compat::ignore_elephant_two_step() {
                    return self.legal_by_make(m);
                }
                self.board[king.index()] = EMPTY;
                let ok = !self.attacked(m.to, us.opponent());
                self.board[king.index()] = K | side_bit(us);
                return ok;
            }
            let d = TABLES.align[king.index()][m.from.index()];
            if d == NO_DIR {
                return true;
            }
            if TABLES.align[king.index()][m.to.index()] == d {
                // Still on the same side of the King on the same line: still blocks.
                return true;
            }
            return !self.pinned(king, m.from, d as usize);
        }
        self.legal_by_make(m)
    }

    /// Whether the piece on `from`, on line `d` out of the King, shields the King
    /// from an enemy slider (or Elephant two-step) behind it.
    fn pinned(&self, king: Cell, from: Cell, d: usize) -> bool {
        self.pinned_for(self.side, king, from, d)
    }

    /// `pinned` for the pieces of `side` (whose King is on `king`).
    fn pinned_for(&self, side: Side, king: Cell, from: Cell, d: usize) -> bool {
        let them = side_bit(side.opponent());
        let ray = king.ray(dir(d));
        let mut seen_from = false;
        for (i, &c) in ray.iter().enumerate() {
            let p = self.board[c.index()];
            if p == EMPTY {
                continue;
            }
            if !seen_from {
                if c != from {
                    return false;
                }
                seen_from = true;
                continue;
            }
            if p & BLACK_BIT != them {
                return false;
            }
            return match p & KIND_MASK {
                D => true,
                R | V => d < 6,
                J | G => d >= 6,
                // The Elephant's two-step through the vacated cell next to the King.
                E => {
                    i == 1
                        && d == fwd(side.opponent()).opposite() as usize
                        && !compat::ignore_elephant_two_step()
                }
                _ => false,
            };
        }
        false
    }

    fn legal_by_make(&mut self, m: Move) -> bool {
        let king = self.kings[self.side.index()];
        let us = self.side;
        if compat::ignore_elephant_two_step() {
            if m.kind == MK_CASTLE {
                // The program checks only the King's destination before castling (spec
                // §5.3 rule 3), not the King's safety once the rooks have moved (rule 6).
                return true;
            }
            if m.from == king {
                return self.program_king_move(m);
            }
            if m.kind == MK_EP && !self.program_ep_in_check(m) {
                return false;
            }
        }
        let undo = self.make(m);
        let ok = !self.attacked(self.kings[us.index()], us.opponent());
        self.unmake(undo);
        ok
    }

    /// Program emulation: a King move as the author's program judges it. Its threat
    /// map is built once, before the move, with the King on its cell (so a line
    /// attacker's ray stops at the King: the "King's shade"), with the Elephant's
    /// two-step, and with the enemy's pins as they are before the move. When in
    /// check, the program covers the shade only on the line of the one checker that
    /// its check scan records as the King's `pin` (see `program_king_pin_line`).
    fn program_king_move(&mut self, m: Move) -> bool {
        let them = self.side.opponent();
        compat::set_elephant_only(false);
        compat::set_king_move_test(true);
        let attacked = self.attacked(m.to, them);
        compat::set_king_move_test(false);
        compat::set_elephant_only(true);
        if attacked {
            return false;
        }
        let king = m.from;
        let checkers = self.checkers_of(king, them);
        if checkers.n == 0 {
            return true;
        }
        let Some(line) = self.program_king_pin_line(king, &checkers) else {
            return true;
        };
        let d = TABLES.align[king.index()][m.to.index()];
        let on_line = d != NO_DIR
            && (d as usize == line || dir(d as usize).opposite() as usize == line)
            && king.step(dir(d as usize)) == Some(m.to);
        !on_line || checkers.as_slice().iter().any(|c| c.0 == m.to)
    }

    /// The line (a direction index; the program excludes both senses) that the
    /// program stores as the checked King's `pin`. Its check scan visits knight jumps,
    /// then the orthogonal and the diagonal directions in its own order; the first
    /// checker along a line sets the pin, except that a far line checker found after a
    /// single adjacent one replaces it, and a second line checker found after a far
    /// one does not (so the shade behind the King on that second line stays open:
    /// `positions.jsonl` #189).
    fn program_king_pin_line(&self, king: Cell, checkers: &Checkers) -> Option<usize> {
        use Direction::*;
        const ORDER: [Direction; 12] = [
            ColumnUp,
            ColumnDown,
            FileUp,
            FileDown,
            FileInvUp,
            FileInvDown,
            TransversalLineInc,
            TransversalLineDec,
            LineUp,
            LineDown,
            LineInvUp,
            LineInvDown,
        ];
        #[derive(PartialEq)]
        enum State {
            None,
            Adjacent,
            Far,
            Double,
        }
        let mut state = State::None;
        let mut pin = None;
        // Knight-jump checkers come first and carry no line.
        for &(c, _) in checkers.as_slice() {
            if TABLES.align[king.index()][c.index()] == NO_DIR {
                state = if state == State::None {
                    State::Adjacent
                } else {
                    State::Double
                };
            }
        }
        for d in ORDER {
            let Some(&(c, adjacent)) = checkers
                .as_slice()
                .iter()
                .find(|(c, _)| TABLES.align[king.index()][c.index()] == d as u8)
            else {
                continue;
            };
            let kind = self.board[c.index()] & KIND_MASK;
            let line_piece = match kind {
                D => true,
                R | V => (d as usize) < 6,
                J | G => (d as usize) >= 6,
                _ => false,
            };
            state = match (state, line_piece, adjacent) {
                (State::None, true, _) => {
                    pin = Some(d as usize);
                    if adjacent {
                        State::Adjacent
                    } else {
                        State::Far
                    }
                }
                (State::None, false, _) => State::Adjacent,
                (State::Adjacent, true, false) => {
                    pin = Some(d as usize);
                    State::Double
                }
                _ => State::Double,
            };
        }
        pin
    }

    /// Program emulation: in check, the program offers a pawn's en-passant capture
    /// only where it blocks a single check (it lands on an empty cell, never on the
    /// checker's), so an en-passant capture of the checking pawn is missing (spec
    /// §9.16.2; `positions.jsonl` #116).
    fn program_ep_in_check(&self, m: Move) -> bool {
        let king = self.kings[self.side.index()];
        let checkers = self.checkers_of(king, self.side.opponent());
        let [(checker, _)] = checkers.as_slice() else {
            return checkers.n == 0;
        };
        let d = TABLES.align[king.index()][checker.index()];
        if d == NO_DIR || TABLES.align[king.index()][m.to.index()] != d {
            return false;
        }
        let ray = king.ray(dir(d as usize));
        let at = |c: Cell| ray.iter().position(|&x| x == c);
        matches!((at(m.to), at(*checker)), (Some(a), Some(b)) if a < b)
    }

    /// The own pieces pinned to the King of the side to move, from one scan of the
    /// twelve lines out of the King (the pinner's kinds as in `pinned_for`).
    fn pinned_set(&self) -> Bits {
        let side = self.side;
        let king = self.kings[side.index()];
        let us = side_bit(side);
        let mut pinned = Bits::default();
        for d in 0..12 {
            if let Some(&c) = king
                .ray(dir(d))
                .iter()
                .find(|c| self.board[c.index()] != EMPTY)
                && self.board[c.index()] & BLACK_BIT == us
                && self.pinned_for(side, king, c, d)
            {
                pinned.set(c);
            }
        }
        pinned
    }

    /// Legality of a pseudo-legal move when not in check, given the node's pinned
    /// set: an unpinned piece's ordinary move is legal, a pinned piece's only along its
    /// pin line; the King, castling and en passant take the full test.
    #[inline]
    fn is_legal_with_pins(&mut self, m: Move, king: Cell, pinned: Bits) -> bool {
        if m.from == king || m.kind == MK_EP || m.kind == MK_CASTLE {
            return self.is_legal_pseudo(m, false);
        }
        !pinned.contains(m.from)
            || TABLES.align[king.index()][m.to.index()]
                == TABLES.align[king.index()][m.from.index()]
    }

    /// Number of legal moves (for perft leaves): bulk counting. Unpinned pieces other
    /// than the King are counted as they are generated, without a move list; only
    /// the King's, the pinned pieces', castling and en-passant moves are stored and
    /// tested. In check, or with forced promotions pending, the plain path.
    pub(crate) fn count_legal(&mut self, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        let in_check = self.is_check();
        if in_check || self.has_forced_promotion() {
            self.pseudo(buf, in_check);
            let mut n = 0;
            for &m in buf.iter() {
                if self.is_legal_pseudo(m, in_check) {
                    n += 1;
                }
            }
            return n;
        }
        let king = self.kings[self.side.index()];
        let pinned = self.pinned_set();
        let mut counter = Counter {
            n: 0,
            pushed: 0,
            deferred: buf,
        };
        let mut own = self.occ[self.side.index()];
        own.clear(king);
        own.for_each(|from| {
            if pinned.contains(from) {
                self.piece_moves(counter.deferred, from, false);
            } else {
                self.piece_moves(&mut counter, from, false);
            }
        });
        let mut n = counter.n;
        self.piece_moves(buf, king, false);
        for &m in buf.iter() {
            if self.is_legal_with_pins(m, king, pinned) {
                n += 1;
            }
        }
        n
    }

    /// Whether an awaiting pawn of the side to move must promote now.
    fn has_forced_promotion(&self) -> bool {
        let si = self.side.index();
        let own = self.occ[si].0;
        let mask = TABLES.promotion_bits[si];
        if (own[0] & mask[0]) | (own[1] & mask[1]) | (own[2] & mask[2]) == 0 {
            return false;
        }
        let mut buf = FixedMoves::new();
        self.forced_promotions(&mut buf);
        buf.len() > 0
    }

    /// Legal moves into a reused buffer (pins computed once for the node).
    pub(crate) fn legal_into(&mut self, buf: &mut Vec<Move>) {
        buf.clear();
        let in_check = self.is_check();
        self.pseudo(buf, in_check);
        let king = self.kings[self.side.index()];
        let pinned = if in_check {
            Bits::default()
        } else {
            self.pinned_set()
        };
        let mut j = 0;
        for i in 0..buf.len() {
            let m = buf[i];
            let legal = if in_check {
                self.is_legal_pseudo(m, true)
            } else {
                self.is_legal_with_pins(m, king, pinned)
            };
            if legal {
                buf[j] = m;
                j += 1;
            }
        }
        buf.truncate(j);
    }

    // ---------------------------------------------------------------- make / unmake

    #[inline]
    fn write(&mut self, undo: &mut Undo, c: Cell, code: u8) {
        undo.writes[undo.n as usize] = (c, self.board[c.index()]);
        undo.n += 1;
        self.set(c, code);
    }

    /// Plays `m` in place and returns what is needed to take it back with
    /// [`Position::unmake`]. `m` must come from this position's generator.
    pub fn make(&mut self, m: Move) -> Undo {
        let mut undo = Undo {
            writes: [(m.from, 0); 6],
            n: 0,
            castling: self.castling,
            special: self.special,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            kings: self.kings,
            hash: self.hash,
        };
        let side = self.side;
        let si = side.index();
        let sb = side_bit(side);
        let moving = self.board[m.from.index()];
        let mut new_special = SpecialRight::None;
        let mut reset_clock = moving & KIND_MASK == P || m.captured != 0;
        match m.kind {
            MK_CASTLE => {
                let def = &TABLES.castlings[m.aux as usize];
                self.write(&mut undo, m.from, EMPTY);
                for r in &def.rooks {
                    self.write(&mut undo, r[si].0, EMPTY);
                }
                for r in &def.rooks {
                    self.write(&mut undo, r[si].1, R | sb);
                }
                self.write(&mut undo, m.to, K | sb);
                self.kings[si] = m.to;
                reset_clock = false;
            }
            MK_PROMOTE => {
                self.write(&mut undo, m.from, m.promo | sb);
                reset_clock = true;
            }
            _ => {
                if m.kind == MK_EP
                    && let Some(c) = Cell::from_index(m.aux as usize)
                {
                    self.write(&mut undo, c, EMPTY);
                }
                let placed = if m.promo != 0 { m.promo | sb } else { moving };
                self.write(&mut undo, m.from, EMPTY);
                self.write(&mut undo, m.to, placed);
                if moving & KIND_MASK == K {
                    self.kings[si] = m.to;
                }
                if moving & KIND_MASK == P {
                    let forward = fwd(side);
                    match m.kind {
                        MK_DOUBLE | MK_TRIPLE => {
                            let back = forward.opposite();
                            if let Some(near) = m.to.step(back) {
                                let far = if m.kind == MK_TRIPLE {
                                    near.step(back)
                                } else {
                                    None
                                };
                                new_special = SpecialRight::EnPassant {
                                    pawn: m.to,
                                    near,
                                    far,
                                };
                            }
                        }
                        MK_NORMAL if m.captured == 0 && m.from.column() != m.to.column() => {
                            // Scornful only when an enemy pawn faced the pawn (spec §4.4).
                            if let Some(front) = m.from.step(forward)
                                && self.board[front.index()] == P | side_bit(side.opponent())
                            {
                                new_special = SpecialRight::Scornful {
                                    target: m.to,
                                    capturers: [Some(front), None],
                                };
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        let mut castling = self.castling;
        if moving & KIND_MASK == K {
            // Rook flags only matter while the King is unmoved; dropping them keeps
            // one representation per TLPD castling field.
            castling &= !(7 << (3 * si));
        }
        // A rook flag dies when its rook leaves its initial cell or is captured there;
        // both touch that cell as `from` or `to`.
        if castling != 0 {
            for (s, homes) in TABLES.rook_home.iter().enumerate() {
                for (k, home) in homes.iter().enumerate() {
                    if m.from == *home || m.to == *home {
                        castling &= !((2u8 << k) << (3 * s));
                    }
                }
            }
        }
        self.set_castling(castling);
        self.special = new_special;
        self.halfmove = if reset_clock { 0 } else { self.halfmove + 1 };
        if side == Side::Black {
            self.fullmove = self.fullmove.map(|n| n + 1);
        }
        self.side = side.opponent();
        self.hash ^= TABLES.zobrist_black;
        undo
    }

    /// Takes back the move whose [`Undo`] this is (the last one made).
    pub fn unmake(&mut self, undo: Undo) {
        for i in (0..undo.n as usize).rev() {
            let (c, code) = undo.writes[i];
            self.set_raw(c, code);
        }
        self.hash = undo.hash;
        self.castling = undo.castling;
        self.special = undo.special;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.kings = undo.kings;
        self.side = self.side.opponent();
    }

    /// Plays a move. `m` must come from this position's generator; the state is
    /// unspecified otherwise.
    pub fn play(&mut self, m: Move) {
        let _ = self.make(m);
    }

    /// This position after `m`.
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play(m);
        p
    }

    /// Zobrist key of the repetition identity: placement, side to move, castling/leap
    /// rights and the special right, the latter only when a legal capture uses it.
    /// The placement, side and castling part is kept up to date by `make`/`unmake`;
    /// only the special right costs a legality test, and only when there is one.
    pub fn zobrist(&self) -> u64 {
        let mut h = self.hash;
        if self.special != SpecialRight::None && self.special_capture_is_legal() {
            let c = match self.special {
                SpecialRight::EnPassant { pawn, .. } => pawn,
                SpecialRight::Scornful { target, .. } => target,
                SpecialRight::None => unreachable!("checked above"),
            };
            h ^= TABLES.zobrist_special[c.index()];
        }
        h
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    #[cfg(test)]
    fn zobrist_from_scratch(&self) -> u64 {
        let mut h = 0u64;
        for side in &self.occ {
            side.for_each(|c| {
                h ^= TABLES.zobrist_piece[self.board[c.index()] as usize][c.index()];
            });
        }
        if self.side == Side::Black {
            h ^= TABLES.zobrist_black;
        }
        for i in 0..6 {
            if self.castling & (1 << i) != 0 {
                h ^= TABLES.zobrist_castling[i];
            }
        }
        h
    }

    /// Whether a legal en-passant or scornful capture exists; only pawns can make one.
    fn special_capture_is_legal(&self) -> bool {
        let in_check = self.is_check();
        let pawn = P | side_bit(self.side);
        let mut scratch = self.clone();
        let mut buf = FixedMoves::new();
        let mut found = false;
        self.occ[self.side.index()].for_each(|from| {
            if found || self.board[from.index()] != pawn {
                return;
            }
            self.pseudo_from(from, in_check, &mut buf);
            found = buf.as_slice().iter().any(|&m| {
                (m.kind == MK_EP || m.kind == MK_SCORNFUL) && scratch.is_legal_pseudo(m, in_check)
            });
        });
        found
    }

    /// Count of each kind for `side`, used by the insufficient-material rule.
    pub fn material(&self, side: Side) -> [u8; 9] {
        let mut counts = [0u8; 9];
        self.occ[side.index()].for_each(|c| {
            counts[((self.board[c.index()] & KIND_MASK) - 1) as usize] += 1;
        });
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcuts of `is_legal_pseudo` (unaligned pieces, pin scan, lifted King)
    /// must agree with plain make/unmake on every pseudo-legal move of a tree.
    fn compare(pos: &mut Position, depth: u32, checked: &mut u64) {
        let in_check = pos.is_check();
        let mut list = Vec::new();
        pos.pseudo(&mut list, in_check);
        for &m in &list {
            let fast = pos.is_legal_pseudo(m, in_check);
            let slow = pos.legal_by_make(m);
            assert_eq!(fast, slow, "{m:?} in\n{pos:?}");
            *checked += 1;
            if depth > 1 && slow {
                let u = pos.make(m);
                compare(pos, depth - 1, checked);
                pos.unmake(u);
            }
        }
    }

    fn check_keys(pos: &mut Position, depth: u32, checked: &mut u64) {
        assert_eq!(pos.hash, pos.zobrist_from_scratch(), "\n{pos:?}");
        *checked += 1;
        if depth == 0 {
            return;
        }
        for &m in pos.legal_moves().iter() {
            let u = pos.make(m);
            check_keys(pos, depth - 1, checked);
            pos.unmake(u);
            assert_eq!(pos.hash, pos.zobrist_from_scratch());
        }
    }

    #[test]
    fn incremental_key_equals_the_key_from_scratch() {
        let mut checked = 0;
        check_keys(&mut Position::initial(), 3, &mut checked);
        assert!(checked > 300_000, "{checked}");
    }

    /// The node-level paths of perft (pins once per node, bulk leaf counting) must
    /// agree with make/unmake on every pseudo-legal move.
    fn compare_node_paths(pos: &mut Position, depth: u32, checked: &mut u64) {
        let in_check = pos.is_check();
        let mut pseudo = Vec::new();
        pos.pseudo(&mut pseudo, in_check);
        let slow: Vec<Move> = pseudo
            .iter()
            .copied()
            .filter(|&m| pos.legal_by_make(m))
            .collect();
        let mut buf = Vec::new();
        pos.legal_into(&mut buf);
        assert_eq!(buf, slow, "\n{pos:?}");
        assert_eq!(pos.count_legal(&mut buf), slow.len() as u64, "\n{pos:?}");
        *checked += 1;
        if depth > 1 {
            for m in slow {
                let u = pos.make(m);
                compare_node_paths(pos, depth - 1, checked);
                pos.unmake(u);
            }
        }
    }

    #[test]
    fn node_paths_agree_with_make_unmake() {
        let mut checked = 0;
        compare_node_paths(&mut Position::initial(), 3, &mut checked);
        assert!(checked > 4_000, "{checked}");
    }

    #[test]
    fn fast_legality_agrees_with_make_unmake() {
        let mut checked = 0;
        compare(&mut Position::initial(), 3, &mut checked);
        assert!(checked > 300_000);
    }

    /// The per-cell paths (used by notation) must agree with the full legal list.
    fn compare_cell_paths(pos: &mut Position, depth: u32, checked: &mut u64) {
        let legal = pos.legal_moves();
        assert_eq!(pos.has_legal_move(pos.is_check()), !legal.is_empty());
        let mut buf = FixedMoves::new();
        for c in Cell::all() {
            pos.legal_from(c, &mut buf);
            let full: Vec<Move> = legal.iter().copied().filter(|m| m.from == c).collect();
            assert_eq!(buf.as_slice(), full.as_slice(), "{c} in\n{pos:?}");
        }
        for &m in legal.iter() {
            assert!(pos.is_legal(m));
            *checked += 1;
            if depth > 1 {
                let u = pos.make(m);
                compare_cell_paths(pos, depth - 1, checked);
                pos.unmake(u);
            }
        }
    }

    #[test]
    fn per_cell_generation_agrees_with_the_full_list() {
        let mut checked = 0;
        compare_cell_paths(&mut Position::initial(), 2, &mut checked);
        assert_eq!(checked, 68 + 4612);
    }

    /// `FixedMoves` has no overflow check: the busiest single cells (a Queen, or an
    /// unmoved King with every castling path open) must fit.
    #[test]
    fn one_cell_never_exceeds_the_fixed_capacity() {
        let mut most = 0;
        for q in Cell::all() {
            let mut board = [None; 169];
            let wk: Cell = "G1".parse().unwrap();
            let bk: Cell = "G27".parse().unwrap();
            if q == wk || q == bk {
                continue;
            }
            board[wk.index()] = Some(Piece::new(Side::White, PieceKind::King));
            board[bk.index()] = Some(Piece::new(Side::Black, PieceKind::King));
            for r in ["C3", "I3"] {
                let r: Cell = r.parse().unwrap();
                if r != q {
                    board[r.index()] = Some(Piece::new(Side::White, PieceKind::Rook));
                }
            }
            board[q.index()] = Some(Piece::new(Side::White, PieceKind::Queen));
            let Ok(pos) = Position::from_setup(Setup {
                board,
                side_to_move: Side::White,
                castling: CastlingRights::ALL,
                special: SpecialRight::None,
                halfmove_clock: 0,
                fullmove_number: Some(1),
            }) else {
                continue;
            };
            for c in [q, wk] {
                let mut v = Vec::new();
                pos.piece_moves(&mut v, c, false);
                most = most.max(v.len());
            }
        }
        assert!(most > 40 && most < FixedMoves::CAP, "{most}");
    }

    #[test]
    fn elephant_two_step_pins_and_checks() {
        let mut board = [None; 169];
        let put = |b: &mut [Option<Piece>; 169], s: &str, side, kind| {
            b[s.parse::<Cell>().unwrap().index()] = Some(Piece::new(side, kind));
        };
        put(&mut board, "H6", Side::White, PieceKind::King);
        put(&mut board, "H8", Side::White, PieceKind::Rook);
        put(&mut board, "H10", Side::Black, PieceKind::Elephant);
        put(&mut board, "G27", Side::Black, PieceKind::King);
        let pos = Position::from_setup(Setup {
            board,
            side_to_move: Side::White,
            castling: CastlingRights::default(),
            special: SpecialRight::None,
            halfmove_clock: 0,
            fullmove_number: Some(1),
        })
        .unwrap();
        let rook: Cell = "H8".parse().unwrap();
        // The rook may only capture the Elephant or stay on the column.
        for m in pos.legal_moves().iter().filter(|m| m.from() == rook) {
            assert_eq!(m.to().column(), rook.column(), "{m:?}");
        }
        let mut after = pos.clone();
        let king_away = *pos
            .legal_moves()
            .iter()
            .find(|m| m.from() == "H6".parse().unwrap() && m.to() == "G5".parse().unwrap())
            .unwrap();
        after.play(king_away);
        assert!(!after.is_check());
    }
}
