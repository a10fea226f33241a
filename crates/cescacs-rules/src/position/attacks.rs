//! Attacks: whether a cell is attacked, the checkers, check markers, and pins (with
//! the oracle-emulation variants, inert unless the `oracle-compat` feature is on).

use super::*;

impl Position {
    /// Whether `target` is attacked by `by` (spec §3 "Attacks").
    #[inline]
    pub fn is_attacked(&self, target: Cell, by: Side) -> bool {
        self.attacked(target, by)
    }

    #[inline]
    pub(super) fn attacked(&self, target: Cell, by: Side) -> bool {
        self.attacked_inner(target, by, true)
    }

    /// Program emulation only: the author's program does not count the attacks of a
    /// piece pinned to its own King, except along the pin line.
    #[inline]
    pub(super) fn program_pin_blind(&self, attacker: Cell, by: Side, target: Cell) -> bool {
        if !compat::king_move_test() {
            return false;
        }
        let king = self.kings[by.index()];
        let d = TABLES.align[king.index()][attacker.index()];
        d != NO_DIR
            && TABLES.align[king.index()][target.index()] != d
            && self.pinned_for(by, king, attacker, d as usize)
    }

    pub(super) fn attacked_inner(&self, target: Cell, by: Side, king_leap: bool) -> bool {
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

    /// Whether `code`, a man of `by` and the first on ray `d` out of `target` at
    /// distance index `i` (0 = adjacent), attacks `target` along that ray.
    #[inline]
    fn line_attacker(code: u8, d: usize, i: usize, by: Side) -> bool {
        match code & KIND_MASK {
            R | V => d < 6,
            D => true,
            J | G => d >= 6,
            K => i == 0,
            E => {
                if d < 6 {
                    i < 2
                        && d == fwd(by).opposite() as usize
                        && (i == 0 || !compat::ignore_elephant_two_step())
                } else {
                    i == 0 && d != 6 && d != 9
                }
            }
            P => i == 0 && d >= 6 && pawn_capture_dirs(by.opponent()).contains(&dir(d)),
            _ => false,
        }
    }

    /// The attacker of `by` on ray `d` out of `target`, if the first man on it is one.
    #[inline]
    fn line_checker(&self, target: Cell, d: usize, by: Side) -> Option<(Cell, bool)> {
        let sb = side_bit(by);
        for (i, &c) in target.ray(dir(d)).iter().enumerate() {
            let p = self.board[c.index()];
            if p == EMPTY {
                continue;
            }
            return (p & BLACK_BIT == sb && Self::line_attacker(p, d, i, by))
                .then_some((c, i == 0));
        }
        None
    }

    /// Whether the man of `by` on `c`, a knight jump from `target`, attacks it.
    #[inline]
    fn jump_attacker(&self, c: Cell, by: Side) -> bool {
        let p = self.board[c.index()];
        if p == EMPTY || p & BLACK_BIT != side_bit(by) {
            return false;
        }
        match p & KIND_MASK {
            N | V | G => true,
            // An unmoved King not in check could capture by leaping (TS rule).
            K => self.king_unmoved(by) && !self.attacked_inner(c, by.opponent(), false),
            _ => false,
        }
    }

    /// Cells of the pieces of `by` that attack `target`, each with whether it is
    /// adjoining (neighbour or knight jump).
    pub(crate) fn checkers_of(&self, target: Cell, by: Side) -> Checkers {
        let mut out = Checkers::default();
        self.checkers_into(target, by, &mut out);
        out
    }

    /// `checkers_of` into a caller's list (a returned list would be copied right
    /// after its narrow stores: a store-forwarding stall).
    fn checkers_into(&self, target: Cell, by: Side, out: &mut Checkers) {
        for d in 0..12 {
            if let Some(c) = self.line_checker(target, d, by) {
                out.push(c);
            }
        }
        for &c in target.knight_jumps() {
            if self.jump_attacker(c, by) {
                out.push((c, true));
            }
        }
    }

    /// The checkers of the side to move after `m`, the move just played, found from
    /// the cells it changed: the side to move was not in check before `m` (the mover
    /// could not leave its opponent in check), and a check can only come from the man
    /// on `m.to()`, or along a line that `m` opened through its origin or the cell of
    /// a man taken en passant. `None` where that does not hold (castling moves
    /// rooks; an unmoved King of the mover a knight jump away attacks by leaping when
    /// its own cell is safe, which any move can change; the program emulation): then
    /// `checkers_of`. The checkers come in another order than `checkers_of`'s.
    #[cfg(test)]
    pub(crate) fn checkers_after(&self, m: Move) -> Option<Checkers> {
        let mut out = Checkers::default();
        self.checkers_after_into(m, &mut out).then_some(out)
    }

    /// `checkers_after` into a caller's empty list; false (and the list untouched)
    /// where it does not apply.
    fn checkers_after_into(&self, m: Move, out: &mut Checkers) -> bool {
        let by = self.side.opponent();
        let king = self.kings[self.side.index()];
        // The program emulation lets a side leave its King attacked: no assumption.
        if m.kind == MK_CASTLE
            || (self.king_unmoved(by) && knight_jump(king, self.kings[by.index()]))
            || compat::ignore_elephant_two_step()
        {
            return false;
        }
        let mut seen = [NO_DIR; 3];
        let taken = if m.kind == MK_EP {
            Cell::from_index(m.aux as usize)
        } else {
            None
        };
        for (k, c) in [Some(m.to), Some(m.from), taken].into_iter().enumerate() {
            let Some(c) = c else { continue };
            let d = TABLES.align[king.index()][c.index()];
            if d == NO_DIR || seen.contains(&d) {
                continue;
            }
            seen[k] = d;
            if let Some(found) = self.line_checker(king, d as usize, by) {
                out.push(found);
            }
        }
        if knight_jump(king, m.to) && self.jump_attacker(m.to, by) {
            out.push((m.to, true));
        }
        true
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
        let knight = matches!(checkers.as_slice(), [(c, _)] if knight_jump(king, *c));
        (marker, knight)
    }

    /// The check marker (and whether a single checker stands a knight jump away) and
    /// the mate/stalemate status of this position, sharing one search for a legal
    /// move between the two (a replay needs both after every move).
    pub fn marker_and_status(&self) -> (CheckMarker, bool, Status) {
        let (marker, knight, status, _) = self.evaluate_reached();
        (marker, knight, status)
    }

    /// [`Position::marker_and_status`], and whether the side to move is in check.
    pub(crate) fn evaluate_reached(&self) -> (CheckMarker, bool, Status, bool) {
        let king = self.kings[self.side.index()];
        let checkers = self.checkers_of(king, self.side.opponent());
        // The checkers and the attack test agree except where the program emulation
        // makes pinned pieces blind.
        let in_check = if compat::king_move_test() {
            self.is_check()
        } else {
            !checkers.as_slice().is_empty()
        };
        let has_move = self.has_legal_move(in_check);
        let status = match (has_move, in_check) {
            (true, _) => Status::Ongoing,
            (false, true) => Status::Checkmate,
            (false, false) => Status::Stalemate,
        };
        let marker = match checkers.as_slice() {
            [] => return (CheckMarker::None, false, status, in_check),
            // The checkers and the attack test agree outside the oracle emulation, so
            // the search above answers the mate question too.
            _ if in_check && !has_move => CheckMarker::Mate,
            _ if !in_check && !self.has_legal_move(true) => CheckMarker::Mate,
            [(_, true)] => CheckMarker::Adjoining,
            [_] => CheckMarker::Afar,
            _ => CheckMarker::Double,
        };
        let knight = matches!(checkers.as_slice(), [(c, _)] if knight_jump(king, *c));
        (marker, knight, status, in_check)
    }

    /// [`Position::evaluate_reached`] without the stalemate search: the status is
    /// `None` when the side to move is not in check (then the marker needs no search;
    /// a caller that needs the status runs `has_legal_move(false)`).
    /// `last`: the move that reached this position, when known (the checkers are
    /// then found from the cells it changed, see `checkers_after`).
    pub(crate) fn evaluate_reached_lazy(
        &self,
        last: Option<Move>,
    ) -> (CheckMarker, bool, Option<Status>, bool) {
        if compat::king_move_test() {
            let (marker, knight, status, in_check) = self.evaluate_reached();
            return (marker, knight, Some(status), in_check);
        }
        let king = self.kings[self.side.index()];
        let mut checkers = Checkers::default();
        if !last.is_some_and(|m| self.checkers_after_into(m, &mut checkers)) {
            self.checkers_into(king, self.side.opponent(), &mut checkers);
        }
        let (marker, knight) = match checkers.as_slice() {
            [] => return (CheckMarker::None, false, None, false),
            [(c, _)] if !self.has_legal_move(true) => {
                let knight = knight_jump(king, *c);
                return (CheckMarker::Mate, knight, Some(Status::Checkmate), true);
            }
            _ if !self.has_legal_move(true) => {
                return (CheckMarker::Mate, false, Some(Status::Checkmate), true);
            }
            [(c, true)] => (CheckMarker::Adjoining, knight_jump(king, *c)),
            [(c, false)] => (CheckMarker::Afar, knight_jump(king, *c)),
            _ => (CheckMarker::Double, false),
        };
        (marker, knight, Some(Status::Ongoing), true)
    }

    /// Whether the single checker (if exactly one) stands a knight jump from the King;
    /// used by the seed-mode writer, where `+^` is reserved for knight-jump checks.
    pub fn is_knight_jump_check(&self) -> bool {
        let king = self.kings[self.side.index()];
        let checkers = self.checkers_of(king, self.side.opponent());
        matches!(checkers.as_slice(), [(c, _)] if knight_jump(king, *c))
    }

    /// Whether the piece on `from`, on line `d` out of the King, shields the King
    /// from an enemy slider (or Elephant two-step) behind it.
    pub(super) fn pinned(&self, king: Cell, from: Cell, d: usize) -> bool {
        self.pinned_for(self.side, king, from, d)
    }

    /// `pinned` for the pieces of `side` (whose King is on `king`).
    pub(super) fn pinned_for(&self, side: Side, king: Cell, from: Cell, d: usize) -> bool {
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

    /// Program emulation: a King move as the author's program judges it. Its threat
    /// map is built once, before the move, with the King on its cell (so a line
    /// attacker's ray stops at the King: the "King's shade"), with the Elephant's
    /// two-step, and with the enemy's pins as they are before the move. When in
    /// check, the program covers the shade only on the line of the one checker that
    /// its check scan records as the King's `pin` (see `program_king_pin_line`).
    pub(super) fn program_king_move(&mut self, m: Move) -> bool {
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
    pub(super) fn program_king_pin_line(&self, king: Cell, checkers: &Checkers) -> Option<usize> {
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
    pub(super) fn program_ep_in_check(&self, m: Move) -> bool {
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
    pub(super) fn pinned_set(&self) -> Bits {
        let side = self.side;
        let king = self.kings[side.index()];
        let us = side_bit(side);
        let mut pinned = Bits::default();
        for d in 0..12 {
            // One walk per line: the first man, then the next one behind him (the
            // kinds that pin as in `pinned_for`).
            let ray = king.ray(dir(d));
            let Some(k) = ray.iter().position(|c| self.board[c.index()] != EMPTY) else {
                continue;
            };
            let shield = ray[k];
            if self.board[shield.index()] & BLACK_BIT != us {
                continue;
            }
            let Some(j) = ray[k + 1..]
                .iter()
                .position(|c| self.board[c.index()] != EMPTY)
            else {
                continue;
            };
            let p = self.board[ray[k + 1 + j].index()];
            if p & BLACK_BIT == us {
                continue;
            }
            let pins = match p & KIND_MASK {
                D => true,
                R | V => d < 6,
                J | G => d >= 6,
                // The Elephant's two-step through the vacated cell next to the King.
                E => {
                    k == 0
                        && j == 0
                        && d == fwd(side.opponent()).opposite() as usize
                        && !compat::ignore_elephant_two_step()
                }
                _ => false,
            };
            if pins {
                pinned.set(shield);
            }
        }
        pinned
    }
}
