//! Rules-free replay: apply the actions literally to a board and two hands.

use crate::board::{Board, Coord};
use crate::error::{ReplayError, ReplayReason};
use crate::model::{Action, Game, Move, Verb};
use crate::piece::{Piece, Side};
use std::collections::{BTreeSet, HashMap};

/// Replay settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Let `drop` take a piece that is not in its side's hand, as for Go stones drawn
    /// from an unlimited bowl. Off by default: a drop must then spend a captured piece.
    pub unlimited_reserve: bool,
}

/// A board plus the pieces each side holds in hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The squares after the moves played so far.
    pub board: Board,
    /// Pieces captured by the bottom side (upper-case abbreviations), in capture order.
    pub bottom_hand: Vec<Piece>,
    /// Pieces captured by the top side (lower-case abbreviations), in capture order.
    pub top_hand: Vec<Piece>,
    /// Every piece the bottom side took (`capture`, `remove`, `stun`), in order.
    bottom_taken: Vec<Taken>,
    /// Every piece the top side took, in order.
    top_taken: Vec<Taken>,
}

/// A piece taken off the board, as it stood there, and the square it was taken on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taken {
    /// The piece as it stood on the board (before any case flip into a hand).
    pub piece: Piece,
    /// The flattened square it stood on.
    pub square: usize,
}

/// A piece lifted by `jump`, hovering above a square until `land` or `stun`.
struct Airborne {
    piece: Piece,
    above: usize,
}

/// One change made by an action, kept so that a failing move can be taken back in
/// time proportional to what it touched (copying the board would cost every square).
enum Undo {
    /// The square held this before.
    Square(usize, Option<Piece>),
    /// A piece was pushed onto this side's hand.
    Pushed(Side),
    /// This piece was taken out of this side's hand at this index.
    Removed(Side, usize, Piece),
    /// A [`Taken`] record was pushed for this side.
    Took(Side),
}

/// Where each piece string stands, so that a coordinate given as a piece name is
/// resolved without scanning the board. Built on the first piece-name coordinate of a
/// replay and kept up to date by every square change.
#[derive(Default)]
struct PieceIndex {
    squares: HashMap<Piece, BTreeSet<usize>>,
}

impl PieceIndex {
    fn build(board: &Board) -> PieceIndex {
        let mut ix = PieceIndex::default();
        for (sq, p) in board.pieces() {
            ix.squares.entry(p.clone()).or_default().insert(sq);
        }
        ix
    }
    fn moved(&mut self, sq: usize, old: Option<&Piece>, new: Option<&Piece>) {
        if let Some(o) = old
            && let Some(set) = self.squares.get_mut(o)
        {
            set.remove(&sq);
            if set.is_empty() {
                self.squares.remove(o);
            }
        }
        if let Some(n) = new {
            self.squares.entry(n.clone()).or_default().insert(sq);
        }
    }
}

/// The position being replayed, the optional piece index and the undo log of the
/// move in progress.
struct Replayer<'a> {
    pos: &'a mut Position,
    index: Option<PieceIndex>,
    undo: Vec<Undo>,
}

impl Position {
    /// The seed has no hand field, so a game starts with empty hands.
    pub fn new(board: Board) -> Position {
        Position {
            board,
            bottom_hand: Vec::new(),
            top_hand: Vec::new(),
            bottom_taken: Vec::new(),
            top_taken: Vec::new(),
        }
    }

    /// The pieces `side` took from its opponent so far, in order, whether they went to
    /// its hand (`capture`) or left play (`remove`, `stun`).
    pub fn captures(&self, side: Side) -> &[Taken] {
        match side {
            Side::Bottom => &self.bottom_taken,
            Side::Top => &self.top_taken,
        }
    }

    fn taken_mut(&mut self, side: Side) -> &mut Vec<Taken> {
        match side {
            Side::Bottom => &mut self.bottom_taken,
            Side::Top => &mut self.top_taken,
        }
    }

    /// The pieces `side` holds in hand, in capture order.
    pub fn hand(&self, side: Side) -> &[Piece] {
        match side {
            Side::Bottom => &self.bottom_hand,
            Side::Top => &self.top_hand,
        }
    }

    fn hand_mut(&mut self, side: Side) -> &mut Vec<Piece> {
        match side {
            Side::Bottom => &mut self.bottom_hand,
            Side::Top => &mut self.top_hand,
        }
    }

    /// Plays one move. On error the position is left unchanged and the index of the
    /// failing action is returned with the reason.
    ///
    /// Costs time in proportion to the squares the move touches, plus one scan of the
    /// board when an action names a piece instead of a square (a whole replay through
    /// [`replay_with`] keeps an index instead and never rescans).
    pub fn apply(&mut self, mv: &Move, opts: ReplayOptions) -> Result<(), (usize, ReplayReason)> {
        let mut r = Replayer {
            pos: self,
            index: None,
            undo: Vec::new(),
        };
        r.apply(mv, opts)
    }
}

impl Replayer<'_> {
    fn apply(&mut self, mv: &Move, opts: ReplayOptions) -> Result<(), (usize, ReplayReason)> {
        self.undo.clear();
        let mut air: Option<Airborne> = None;
        let mut result = Ok(());
        for (i, a) in mv.0.iter().enumerate() {
            if let Err(r) = self.act(a, &mut air, opts) {
                result = Err((i, r));
                break;
            }
        }
        if result.is_ok()
            && let Some(a) = air
        {
            result = Err((
                mv.0.len().saturating_sub(1),
                ReplayReason::EndsInTheAir {
                    piece: a.piece.to_string(),
                    square: self.pos.board.describe(a.above),
                },
            ));
        }
        if result.is_err() {
            self.rollback();
        }
        result
    }

    /// Takes back every change of the failed move, newest first.
    fn rollback(&mut self) {
        while let Some(u) = self.undo.pop() {
            match u {
                Undo::Square(sq, old) => {
                    let now = self.pos.board.set(sq, old.clone()).flatten();
                    if let Some(ix) = &mut self.index {
                        ix.moved(sq, now.as_ref(), old.as_ref());
                    }
                }
                Undo::Pushed(side) => {
                    self.pos.hand_mut(side).pop();
                }
                Undo::Removed(side, at, p) => self.pos.hand_mut(side).insert(at, p),
                Undo::Took(side) => {
                    self.pos.taken_mut(side).pop();
                }
            }
        }
    }

    /// Every square change goes through here: the undo log and the index follow it.
    fn set(&mut self, sq: usize, piece: Option<Piece>) -> Option<Piece> {
        let new = piece.clone();
        let old = self.pos.board.set(sq, piece).flatten();
        if let Some(ix) = &mut self.index {
            ix.moved(sq, old.as_ref(), new.as_ref());
        }
        self.undo.push(Undo::Square(sq, old.clone()));
        old
    }

    fn square(&mut self, c: &Coord) -> Result<usize, ReplayReason> {
        let Coord::Piece(p) = c else {
            return self.pos.board.resolve(c);
        };
        let board = &self.pos.board;
        let ix = self.index.get_or_insert_with(|| PieceIndex::build(board));
        match ix.squares.get(p) {
            None => Err(ReplayReason::PieceNotOnBoard(p.to_string())),
            Some(set) if set.len() == 1 => Ok(*set.iter().next().unwrap_or(&0)),
            Some(set) => Err(ReplayReason::AmbiguousPiece {
                piece: p.to_string(),
                count: set.len(),
            }),
        }
    }

    /// Whether `c` designates the hovering piece: its square, or its name.
    fn names_airborne(&mut self, c: &Coord, air: &Airborne) -> bool {
        match c {
            Coord::Piece(p) => *p == air.piece,
            _ => self.square(c).ok() == Some(air.above),
        }
    }

    fn empty_target(&mut self, c: &Coord) -> Result<usize, ReplayReason> {
        let to = self.square(c)?;
        match self.pos.board.get(to) {
            None => Ok(to),
            Some(p) => Err(ReplayReason::Occupied {
                square: self.pos.board.describe(to),
                piece: p.to_string(),
            }),
        }
    }

    fn victim(&mut self, c: &Coord, taker: &Piece) -> Result<(usize, Piece), ReplayReason> {
        let to = self.square(c)?;
        let Some(p) = self.pos.board.get(to) else {
            return Err(ReplayReason::EmptySquare(self.pos.board.describe(to)));
        };
        if p.side() == taker.side() {
            return Err(ReplayReason::OwnPiece {
                taker: taker.to_string(),
                taken: p.to_string(),
            });
        }
        Ok((to, p.clone()))
    }

    fn promote(piece: Piece, a: &Action) -> Result<Piece, ReplayReason> {
        match a.promotion() {
            None => Ok(piece),
            Some(to) if to.side() != piece.side() => Err(ReplayReason::PromotionChangesSide {
                from: piece.to_string(),
                to: to.to_string(),
            }),
            Some(to) => Ok(to.clone()),
        }
    }

    fn took(&mut self, side: Side, piece: Piece, square: usize) {
        self.pos.taken_mut(side).push(Taken { piece, square });
        self.undo.push(Undo::Took(side));
    }

    fn push_hand(&mut self, side: Side, p: Piece) {
        self.pos.hand_mut(side).push(p);
        self.undo.push(Undo::Pushed(side));
    }

    fn act(
        &mut self,
        a: &Action,
        air: &mut Option<Airborne>,
        opts: ReplayOptions,
    ) -> Result<(), ReplayReason> {
        match a.verb {
            Verb::Drop => {
                // The reader refuses this form; a Game assembled by hand may still hold it.
                let Coord::Piece(p) = &a.subject else {
                    return Err(ReplayReason::DropNeedsPiece(a.subject.to_string()));
                };
                let to = self.empty_target(&a.object)?;
                let placed = Self::promote(p.clone(), a)?;
                let side = p.side();
                // The most recent capture is the likeliest drop: search from the end.
                let hand = self.pos.hand_mut(side);
                match hand.iter().rposition(|h| h == p) {
                    Some(i) => {
                        let taken = hand.remove(i);
                        self.undo.push(Undo::Removed(side, i, taken));
                    }
                    None if opts.unlimited_reserve => {}
                    None => {
                        return Err(ReplayReason::NotInHand {
                            piece: p.to_string(),
                            side,
                        });
                    }
                }
                self.set(to, Some(placed));
            }
            Verb::Shift => {
                let to = self.empty_target(&a.object)?;
                let from = self.square(&a.subject)?;
                let Some(p) = self.pos.board.get(from).cloned() else {
                    return Err(ReplayReason::EmptySquare(self.pos.board.describe(from)));
                };
                let p = Self::promote(p, a)?;
                self.set(from, None);
                self.set(to, Some(p));
            }
            Verb::Capture | Verb::Remove => {
                let from = self.square(&a.subject)?;
                let Some(mover) = self.pos.board.get(from).cloned() else {
                    return Err(ReplayReason::EmptySquare(self.pos.board.describe(from)));
                };
                let (to, taken) = self.victim(&a.object, &mover)?;
                let moved = Self::promote(mover.clone(), a)?;
                if a.verb == Verb::Capture {
                    self.push_hand(mover.side(), taken.captured());
                }
                self.took(mover.side(), taken, to);
                self.set(from, None);
                self.set(to, Some(moved));
            }
            Verb::Jump => {
                let above = self.square(&a.object)?;
                match air.take() {
                    Some(hover) if self.names_airborne(&a.subject, &hover) => {
                        *air = Some(Airborne {
                            piece: Self::promote(hover.piece, a)?,
                            above,
                        });
                    }
                    Some(hover) => {
                        return Err(ReplayReason::AlreadyInTheAir(
                            self.pos.board.describe(hover.above),
                        ));
                    }
                    None => {
                        let from = self.square(&a.subject)?;
                        let Some(p) = self.pos.board.get(from).cloned() else {
                            return Err(ReplayReason::EmptySquare(self.pos.board.describe(from)));
                        };
                        let p = Self::promote(p, a)?;
                        self.set(from, None);
                        *air = Some(Airborne { piece: p, above });
                    }
                }
            }
            Verb::Land | Verb::Stun => {
                let hover = match air.take() {
                    Some(h) if self.names_airborne(&a.subject, &h) => h,
                    other => {
                        let at = self
                            .square(&a.subject)
                            .map(|s| self.pos.board.describe(s))
                            .unwrap_or_else(|_| a.subject.to_string());
                        *air = other;
                        return Err(ReplayReason::NotInTheAir(at));
                    }
                };
                let to = if a.verb == Verb::Land {
                    self.empty_target(&a.object).map(|to| (to, None))
                } else {
                    self.victim(&a.object, &hover.piece)
                        .map(|(to, p)| (to, Some(p)))
                };
                let (to, victim) = match to {
                    Ok(t) => t,
                    Err(e) => {
                        *air = Some(hover);
                        return Err(e);
                    }
                };
                if let Some(v) = victim {
                    self.took(hover.piece.side(), v, to);
                }
                let p = Self::promote(hover.piece, a)?;
                self.set(to, Some(p));
            }
        }
        Ok(())
    }
}

/// Replays every move of `game` from its starting position (empty hands).
pub fn replay(game: &Game) -> Result<Position, ReplayError> {
    replay_with(game, ReplayOptions::default())
}

/// [`replay`] with options.
pub fn replay_with(game: &Game, opts: ReplayOptions) -> Result<Position, ReplayError> {
    let mut pos = Position::new(game.starting_position.clone());
    // One replayer for the whole game, so the piece index is built at most once.
    let mut r = Replayer {
        pos: &mut pos,
        index: None,
        undo: Vec::new(),
    };
    for (move_index, mv) in game.previous_moves.iter().enumerate() {
        r.apply(mv, opts)
            .map_err(|(action_index, reason)| ReplayError {
                move_index,
                action_index,
                reason,
            })?;
    }
    Ok(pos)
}
