//! Rules-free replay: apply the actions literally to a board and two hands.

use crate::board::{Board, Coord};
use crate::error::{ReplayError, ReplayReason};
use crate::model::{Action, Game, Move, Verb};
use crate::piece::{Piece, Side};

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
    pub board: Board,
    /// Pieces captured by the bottom side (upper-case abbreviations), in capture order.
    pub bottom_hand: Vec<Piece>,
    /// Pieces captured by the top side (lower-case abbreviations), in capture order.
    pub top_hand: Vec<Piece>,
}

/// A piece lifted by `jump`, hovering above a square until `land` or `stun`.
struct Airborne {
    piece: Piece,
    above: usize,
}

impl Position {
    /// The seed has no hand field, so a game starts with empty hands.
    pub fn new(board: Board) -> Position {
        Position {
            board,
            bottom_hand: Vec::new(),
            top_hand: Vec::new(),
        }
    }

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
    pub fn apply(&mut self, mv: &Move, opts: ReplayOptions) -> Result<(), (usize, ReplayReason)> {
        let mut next = self.clone();
        let mut air: Option<Airborne> = None;
        for (i, a) in mv.0.iter().enumerate() {
            next.act(a, &mut air, opts).map_err(|r| (i, r))?;
        }
        if let Some(a) = air {
            return Err((
                mv.0.len().saturating_sub(1),
                ReplayReason::EndsInTheAir {
                    piece: a.piece.to_string(),
                    square: next.board.describe(a.above),
                },
            ));
        }
        *self = next;
        Ok(())
    }

    fn square(&self, c: &Coord) -> Result<usize, ReplayReason> {
        self.board.resolve(c)
    }

    /// Whether `c` designates the hovering piece: its square, or its name.
    fn names_airborne(&self, c: &Coord, air: &Airborne) -> bool {
        match c {
            Coord::Piece(p) => *p == air.piece,
            _ => self.board.resolve(c).ok() == Some(air.above),
        }
    }

    fn lift(&mut self, c: &Coord) -> Result<(usize, Piece), ReplayReason> {
        let from = self.square(c)?;
        match self.board.set(from, None).flatten() {
            Some(p) => Ok((from, p)),
            None => Err(ReplayReason::EmptySquare(self.board.describe(from))),
        }
    }

    fn empty_target(&self, c: &Coord) -> Result<usize, ReplayReason> {
        let to = self.square(c)?;
        match self.board.get(to) {
            None => Ok(to),
            Some(p) => Err(ReplayReason::Occupied {
                square: self.board.describe(to),
                piece: p.to_string(),
            }),
        }
    }

    fn victim(&self, c: &Coord, taker: &Piece) -> Result<(usize, Piece), ReplayReason> {
        let to = self.square(c)?;
        let Some(p) = self.board.get(to) else {
            return Err(ReplayReason::EmptySquare(self.board.describe(to)));
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
                let side = p.side();
                let hand = self.hand_mut(side);
                match hand.iter().position(|h| h == p) {
                    Some(i) => {
                        hand.remove(i);
                    }
                    None if opts.unlimited_reserve => {}
                    None => {
                        return Err(ReplayReason::NotInHand {
                            piece: p.to_string(),
                            side,
                        });
                    }
                }
                let placed = Self::promote(p.clone(), a)?;
                self.board.set(to, Some(placed));
            }
            Verb::Shift => {
                let to = self.empty_target(&a.object)?;
                let (_, p) = self.lift(&a.subject)?;
                self.board.set(to, Some(Self::promote(p, a)?));
            }
            Verb::Capture | Verb::Remove => {
                let from = self.square(&a.subject)?;
                let Some(mover) = self.board.get(from).cloned() else {
                    return Err(ReplayReason::EmptySquare(self.board.describe(from)));
                };
                let (to, taken) = self.victim(&a.object, &mover)?;
                if a.verb == Verb::Capture {
                    self.hand_mut(mover.side()).push(taken.captured());
                }
                self.board.set(from, None);
                self.board.set(to, Some(Self::promote(mover, a)?));
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
                            self.board.describe(hover.above),
                        ));
                    }
                    None => {
                        let (_, p) = self.lift(&a.subject)?;
                        *air = Some(Airborne {
                            piece: Self::promote(p, a)?,
                            above,
                        });
                    }
                }
            }
            Verb::Land | Verb::Stun => {
                let hover = match air.take() {
                    Some(h) if self.names_airborne(&a.subject, &h) => h,
                    other => {
                        let at = self
                            .square(&a.subject)
                            .map(|s| self.board.describe(s))
                            .unwrap_or_else(|_| a.subject.to_string());
                        *air = other;
                        return Err(ReplayReason::NotInTheAir(at));
                    }
                };
                let to = if a.verb == Verb::Land {
                    self.empty_target(&a.object)
                } else {
                    self.victim(&a.object, &hover.piece).map(|(to, _)| to)
                };
                let to = match to {
                    Ok(t) => t,
                    Err(e) => {
                        *air = Some(hover);
                        return Err(e);
                    }
                };
                self.board.set(to, Some(Self::promote(hover.piece, a)?));
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
    for (move_index, mv) in game.previous_moves.iter().enumerate() {
        pos.apply(mv, opts)
            .map_err(|(action_index, reason)| ReplayError {
                move_index,
                action_index,
                reason,
            })?;
    }
    Ok(pos)
}
