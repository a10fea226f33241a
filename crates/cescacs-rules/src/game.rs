//! A game: a position plus its history, for repetition, the move-count rules and
//! the result.

use crate::an::{MoveText, ResolveError, Resolved};
use crate::piece::{PieceKind, Side};
use crate::position::{CheckMarker, Move, Position, Status};

/// Result of a game, with C'escacs scoring (stalemate is not a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `3-0`
    WhiteWins,
    /// `2-1`: White stalemated Black.
    WhiteStalemates,
    /// `1-1`
    Draw,
    /// `1-2`: Black stalemated White.
    BlackStalemates,
    /// `0-3`
    BlackWins,
    /// `*`
    Unfinished,
}

impl GameResult {
    /// The result as written in CTL-PGN (`3-0`, `2-1`, `1-1`, `1-2`, `0-3`, `*`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "3-0",
            GameResult::WhiteStalemates => "2-1",
            GameResult::Draw => "1-1",
            GameResult::BlackStalemates => "1-2",
            GameResult::BlackWins => "0-3",
            GameResult::Unfinished => "*",
        }
    }
    /// Points for (White, Black); `None` while unfinished.
    pub fn points(self) -> Option<(u8, u8)> {
        match self {
            GameResult::WhiteWins => Some((3, 0)),
            GameResult::WhiteStalemates => Some((2, 1)),
            GameResult::Draw => Some((1, 1)),
            GameResult::BlackStalemates => Some((1, 2)),
            GameResult::BlackWins => Some((0, 3)),
            GameResult::Unfinished => None,
        }
    }
    /// Reads `3-0` etc., also with spaces as the author's program writes them (`3 - 0`).
    pub fn parse(s: &str) -> Option<GameResult> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        Some(match t.as_str() {
            "3-0" => GameResult::WhiteWins,
            "2-1" => GameResult::WhiteStalemates,
            "1-1" => GameResult::Draw,
            "1-2" => GameResult::BlackStalemates,
            "0-3" => GameResult::BlackWins,
            "*" => GameResult::Unfinished,
            _ => return None,
        })
    }
}

impl std::fmt::Display for GameResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What [`Game::play_resolved`] learnt about the position it reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The check marker of the position reached.
    pub marker: CheckMarker,
    /// Whether its single checker (if exactly one) stands a knight jump from the King
    /// (seed-mode `+^`).
    pub knight_check: bool,
    /// The result, if the game had already ended before this move.
    pub after_end: Option<GameResult>,
}

/// Why a game ended by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (scored 2-1 / 1-2).
    Stalemate,
    /// 150 half-moves without capture or pawn move (automatic draw).
    SeventyFiveMoves,
    /// The same position for the fifth time (automatic draw).
    FivefoldRepetition,
    /// Neither side can possibly mate (site rule: K, K+N, K+J or K+E against such).
    InsufficientMaterial,
}

/// A draw the side to move may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// 100 half-moves without capture or pawn move.
    FiftyMoves,
    /// The current position has occurred three times.
    ThreefoldRepetition,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
/// Why [`Game::play`] refused a move.
#[non_exhaustive]
pub enum GameError {
    #[error("the game is over ({0})")]
    /// The game has already ended with this result.
    Finished(GameResult),
    #[error("the move is not legal in the current position")]
    /// The move is not legal in the current position.
    Illegal,
}

/// Position plus history: repetition (Zobrist keys), the 50/75-move rules and the
/// outcome.
///
/// Repetition costs O(1) amortised per move: the key is updated by `make`, and only the
/// positions since the last irreversible move (capture, pawn move or promotion, which
/// reset the half-move clock) are kept, since no earlier position can recur; the
/// 75-move rule ends the game before that window exceeds 150 plies.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// Keys of the positions since the last reset of the half-move clock, current last.
    keys: Vec<u64>,
    outcome: Option<(GameResult, Termination)>,
    /// Whether the side to move is in check, known from the last evaluation.
    in_check: bool,
    /// Set when [`Game::play_resolved`] left the stalemate test of the current
    /// position for later: the side to move is not in check and no automatic end
    /// applies, so `outcome` is `None` unless the side has no legal move. The next
    /// `play_resolved` answers it for free (its move is legal, so there was one);
    /// [`Game::outcome`] and the other readers test it when asked.
    stalemate_untested: bool,
}

impl Game {
    /// A game starting at `start`, with its outcome evaluated already (a start position can be mate).
    pub fn new(start: Position) -> Game {
        let key = start.zobrist();
        let mut g = Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
            outcome: None,
            in_check: false,
            stalemate_untested: false,
        };
        g.in_check = g.position.is_check();
        g.outcome = g.evaluate();
        g
    }
    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// The current position and the moves played, without copying them.
    pub fn into_position_and_moves(self) -> (Position, Vec<Move>) {
        (self.position, self.moves)
    }

    /// Plays a legal move of the current position.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some((r, _)) = self.outcome() {
            return Err(GameError::Finished(r));
        }
        self.stalemate_untested = false;
        if !self.position.is_legal(m) {
            return Err(GameError::Illegal);
        }
        self.position.play_unchecked(m);
        self.moves.push(m);
        if self.position.halfmove_clock() == 0 {
            // A capture, pawn move or promotion: no earlier position can come back.
            self.keys.clear();
        }
        self.keys.push(self.position.zobrist());
        self.outcome = self.evaluate();
        self.in_check = self.position.is_check();
        Ok(())
    }

    /// Plays `m`, a legal move of the current position as [`Position::resolve`] or
    /// [`Position::resolve_unmarked`] found it, without testing its legality again,
    /// and evaluates the position reached once, for both the end of the game and the
    /// check marker: in check, one search for a legal move answers mate and `#`; not
    /// in check, the stalemate search runs only if an automatic end applies (it takes
    /// precedence), and otherwise waits until [`Game::outcome`] is asked, or the next
    /// move, legal, shows that there was a move.
    ///
    /// Unlike [`Game::play`], a move after an automatic end (a draw by the 75-move
    /// rule, fivefold repetition or insufficient material) is played too, as records
    /// sometimes go on; [`Game::outcome`] keeps the first end, and
    /// [`Played::after_end`] says that the game had ended. Repetition keys stay
    /// incremental, as in [`Game::play`].
    ///
    /// An illegal `m` leaves the game in an unspecified (but memory-safe) state; debug
    /// builds assert legality.
    pub fn play_resolved(&mut self, m: Move) -> Played {
        debug_assert!(self.position.is_legal(m), "play_resolved: illegal {m:?}");
        // `m` is legal, so a stalemate test left open by the last move says no.
        self.stalemate_untested = false;
        let after_end = self.outcome.map(|o| o.0);
        self.position.play_unchecked(m);
        self.moves.push(m);
        if self.position.halfmove_clock() == 0 {
            self.keys.clear();
        }
        self.keys.push(self.position.zobrist());
        let (marker, knight_check, status, in_check) = self.position.evaluate_reached_lazy(Some(m));
        self.in_check = in_check;
        if self.outcome.is_none() {
            match status {
                Some(status) => self.outcome = self.evaluate_with(status),
                None => {
                    // Not in check: stalemate only matters now if an automatic end
                    // would otherwise be recorded (stalemate comes first).
                    self.outcome = self.evaluate_with(Status::Ongoing);
                    if self.outcome.is_some() {
                        if !self.position.has_legal_move(false) {
                            self.outcome = self.evaluate_with(Status::Stalemate);
                        }
                    } else {
                        self.stalemate_untested = true;
                    }
                }
            }
        }
        Played {
            marker,
            knight_check,
            after_end,
        }
    }

    /// [`Position::resolve_unmarked`] on the current position, without testing again
    /// whether the side to move is in check (the game knows it from its last move).
    pub fn resolve_unmarked(&self, t: &MoveText) -> Result<Resolved, ResolveError> {
        self.position.resolve_in(t, Some(self.in_check))
    }

    /// How often the current position has occurred (1 = first time).
    pub fn repetition_count(&self) -> usize {
        let last = *self.keys.last().expect("keys never empty");
        // Only positions with the same side to move can be equal: every second key.
        self.keys
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == last)
            .count()
    }

    /// The draw the side to move may claim now, if any (threefold repetition or the 50-move rule).
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        if self.outcome().is_some() {
            None
        } else if self.repetition_count() >= 3 {
            Some(DrawClaim::ThreefoldRepetition)
        } else if self.position.halfmove_clock() >= 100 {
            Some(DrawClaim::FiftyMoves)
        } else {
            None
        }
    }

    /// The automatic end reached, if any: result and reason.
    pub fn outcome(&self) -> Option<(GameResult, Termination)> {
        if self.stalemate_untested && !self.position.has_legal_move(false) {
            return self.evaluate_with(Status::Stalemate);
        }
        self.outcome
    }

    /// The result: [`GameResult::Unfinished`] while the game goes on.
    pub fn result(&self) -> GameResult {
        self.outcome().map_or(GameResult::Unfinished, |o| o.0)
    }

    fn evaluate(&self) -> Option<(GameResult, Termination)> {
        self.evaluate_with(self.position.status())
    }

    /// The automatic end, given the current position's mate/stalemate status.
    fn evaluate_with(&self, status: Status) -> Option<(GameResult, Termination)> {
        let p = &self.position;
        let mover = p.side_to_move();
        match status {
            Status::Checkmate => {
                let r = match mover {
                    Side::White => GameResult::BlackWins,
                    Side::Black => GameResult::WhiteWins,
                };
                return Some((r, Termination::Checkmate));
            }
            Status::Stalemate => {
                let r = match mover {
                    Side::White => GameResult::BlackStalemates,
                    Side::Black => GameResult::WhiteStalemates,
                };
                return Some((r, Termination::Stalemate));
            }
            Status::Ongoing => {}
        }
        if insufficient_material(p) {
            return Some((GameResult::Draw, Termination::InsufficientMaterial));
        }
        if p.halfmove_clock() >= 150 {
            return Some((GameResult::Draw, Termination::SeventyFiveMoves));
        }
        // Five occurrences two plies apart need nine keys in the window.
        if self.keys.len() >= 9 && self.repetition_count() >= 5 {
            return Some((GameResult::Draw, Termination::FivefoldRepetition));
        }
        None
    }
}

/// The site's "mate is impossible" cases: each side has at most one of Knight,
/// Bishop or Elephant besides its King, and no pawn.
pub(crate) fn insufficient_material(p: &Position) -> bool {
    // Three pieces or more on a side can mate: the common case, from one popcount.
    if p.piece_count(Side::White) > 2 || p.piece_count(Side::Black) > 2 {
        return false;
    }
    [Side::White, Side::Black].iter().all(|&s| {
        let m = p.material(s);
        let others: u8 = m.iter().sum::<u8>() - 1;
        let minor = m[PieceKind::Knight.index()]
            + m[PieceKind::Bishop.index()]
            + m[PieceKind::Elephant.index()];
        others == 0 || (others == 1 && minor == 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_shuffle_repeats_to_a_fivefold_draw() {
        let mut g = Game::new(Position::initial());
        let names = ["NE3-C7", "NE25-C21", "NC7-E3", "NC21-E25"];
        'outer: for _ in 0..5 {
            for n in names {
                let m = *g
                    .position()
                    .legal_moves()
                    .iter()
                    .find(|m| format!("N{}-{}", m.from(), m.to()) == n)
                    .expect("knight move exists");
                g.play(m).unwrap();
                if g.outcome().is_some() {
                    break 'outer;
                }
            }
        }
        assert_eq!(g.repetition_count(), 5);
        assert_eq!(
            g.outcome(),
            Some((GameResult::Draw, Termination::FivefoldRepetition))
        );
        assert_eq!(g.result().points(), Some((1, 1)));
        assert!(g.play(g.position().legal_moves()[0]).is_err());
    }

    /// `play_resolved` agrees with `play` (position, repetition keys, outcome) and its
    /// marker with `check_marker`, along pseudo-random games until they end.
    #[test]
    fn play_resolved_agrees_with_play() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut ended = 0;
        for _ in 0..40 {
            let mut a = Game::new(Position::initial());
            let mut b = a.clone();
            for _ in 0..400 {
                let moves = a.position().legal_moves();
                if moves.is_empty() || a.outcome().is_some() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                a.play(m).unwrap();
                let played = b.play_resolved(m);
                assert_eq!(a.position(), b.position());
                assert_eq!(a.keys, b.keys);
                assert_eq!(a.outcome(), b.outcome());
                assert_eq!(a.in_check, b.in_check);
                assert_eq!(played.marker, a.position().check_marker());
                assert_eq!(played.after_end, None);
            }
            ended += usize::from(a.outcome().is_some());
        }
        assert!(ended > 0, "no game reached an end");
    }

    #[test]
    fn result_strings() {
        assert_eq!(GameResult::parse("3 - 0"), Some(GameResult::WhiteWins));
        assert_eq!(GameResult::WhiteStalemates.as_str(), "2-1");
        assert_eq!(GameResult::BlackStalemates.points(), Some((1, 2)));
    }
}
