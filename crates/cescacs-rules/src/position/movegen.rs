//! Move generation: pseudo-legal generation per piece, the legality tests (pins once
//! per node, the lifted King, make/unmake for the rare cases), full and per-cell legal
//! lists, perft's bulk leaf counting, and end-of-game detection.

use super::*;

impl Position {
    /// Whether the game goes on, or ends by mate or stalemate (stops at the first legal move found).
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
    /// at the first one found. No move list and, when not in check, usually no copy
    /// of the position: a piece's moves are tested as the generator pushes them (see
    /// [`FirstLegal`]).
    pub(crate) fn has_legal_move(&self, in_check: bool) -> bool {
        let mut scratch = None;
        let mut sink = FirstLegal::new(self, in_check, &mut scratch);
        if !in_check {
            self.forced_promotions(&mut sink);
            if sink.pushed > 0 {
                return sink.found;
            }
        }
        // In check the King first: its steps are the likeliest way out. Otherwise the
        // King last: another piece's move is almost always legal and its test cheap (a
        // pin lookup), while each King step costs an attack test.
        let king = self.kings[self.side.index()];
        if in_check {
            self.piece_moves(&mut sink, king, true);
            if sink.found {
                return true;
            }
        }
        let mut own = self.occ[self.side.index()];
        own.clear(king);
        let found = own.any(|from| {
            sink.enter(from);
            self.piece_moves(&mut sink, from, in_check);
            sink.found
        });
        if found || in_check {
            return found;
        }
        sink.enter(king);
        self.piece_moves(&mut sink, king, false);
        sink.found
    }

    /// `has_legal_move` as it was before [`FirstLegal`]: every pseudo-legal move in a
    /// list, each tested on a copy of the position (the reference of the
    /// differential tests).
    #[cfg(test)]
    pub(crate) fn has_legal_move_by_list(&self, in_check: bool) -> bool {
        let mut scratch = self.clone();
        let mut all = Vec::new();
        self.pseudo(&mut all, in_check);
        all.iter().any(|&m| scratch.is_legal_pseudo(m, in_check))
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

    /// The legal moves from `from` to `to` into `out` (generation order), without a
    /// move list: the generator runs for the piece on `from` only, `out` keeps the
    /// moves that reach `to`, and only those are tested for legality (on a copy of the
    /// position only for a King move, castling, en passant or a move out of check).
    /// `in_check`: whether the side to move is in check, when the caller knows it.
    pub(crate) fn legal_from_to(
        &self,
        from: Cell,
        to: Cell,
        in_check: Option<bool>,
        out: &mut ToCell,
    ) {
        let in_check = in_check.unwrap_or_else(|| self.is_check());
        out.reset(from, to);
        if !in_check {
            // The forced-promotion rule, as in `pseudo_from`: pending promotions in
            // place are the only moves.
            self.forced_promotions(out);
        }
        if out.pushed == 0 {
            self.piece_moves_to(out, from, to, in_check);
        }
        let mut scratch: Option<Position> = None;
        out.retain(|m| self.is_legal_shared(m, in_check, &mut scratch));
    }

    /// [`Position::is_legal_pseudo`] on a shared position: the common case (a piece
    /// other than the King, not in check, not en passant) needs no write; the others
    /// run on `scratch`, a copy made on first use.
    #[inline]
    pub(super) fn is_legal_shared(
        &self,
        m: Move,
        in_check: bool,
        scratch: &mut Option<Position>,
    ) -> bool {
        let king = self.kings[self.side.index()];
        if !in_check && m.kind != MK_EP && m.kind != MK_CASTLE && m.from != king {
            return self.quiet_piece_move_is_legal(m, king);
        }
        scratch
            .get_or_insert_with(|| self.clone())
            .is_legal_pseudo(m, in_check)
    }

    /// Legality of a pseudo-legal move of a piece other than the King, not en passant
    /// nor castling, when the side to move is not in check: a piece off every line
    /// through its King is free; a piece on such a line is free if it stays on the
    /// line, else it must not be pinned.
    #[inline]
    pub(super) fn quiet_piece_move_is_legal(&self, m: Move, king: Cell) -> bool {
        let d = TABLES.align[king.index()][m.from.index()];
        if d == NO_DIR {
            return true;
        }
        if TABLES.align[king.index()][m.to.index()] == d {
            // Still on the same side of the King on the same line: still blocks.
            return true;
        }
        !self.pinned(king, m.from, d as usize)
    }

    /// Whether `m` is one of this position's legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        let mut buf = FixedMoves::new();
        let in_check = self.is_check();
        self.pseudo_from(m.from, in_check, &mut buf);
        buf.as_slice().contains(&m) && self.clone().is_legal_pseudo(m, in_check)
    }

    #[inline]
    pub(super) fn push_move(
        &self,
        list: &mut impl MoveSink,
        from: Cell,
        to: Cell,
        kind: u8,
        captured: u8,
    ) {
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
    pub(super) fn push_pawn(&self, list: &mut impl MoveSink, mut m: Move) {
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
    pub(super) fn slide(&self, list: &mut impl MoveSink, from: Cell, dirs: std::ops::Range<usize>) {
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
    pub(super) fn jumps(&self, list: &mut impl MoveSink, from: Cell) {
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
    pub(super) fn step_to(&self, list: &mut impl MoveSink, from: Cell, to: Option<Cell>) {
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
    pub(super) fn forced_promotions(&self, list: &mut impl MoveSink) {
        let si = self.side.index();
        let own = self.occ[si].0;
        let mask = TABLES.promotion_bits[si];
        let on_edge = Bits([own[0] & mask[0], own[1] & mask[1], own[2] & mask[2]]);
        // Scalar test of the rare case (comparing the stored array stalls).
        if on_edge.0[0] | on_edge.0[1] | on_edge.0[2] == 0 {
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
    pub(super) fn pseudo(&self, list: &mut impl MoveSink, in_check: bool) {
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
    pub(super) fn piece_moves(&self, list: &mut impl MoveSink, from: Cell, in_check: bool) {
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

    /// The part of `piece_moves` that can end on `to`, in the same order (the caller's
    /// sink keeps only the moves to `to`): a slider's line to `to` is walked instead of
    /// all its lines, and a King's jumps and castlings are generated only when `to` is
    /// a jump or a castling destination.
    #[inline]
    pub(super) fn piece_moves_to(
        &self,
        list: &mut impl MoveSink,
        from: Cell,
        to: Cell,
        in_check: bool,
    ) {
        let side = self.side;
        let us = side_bit(side);
        let code = self.board[from.index()];
        if code == EMPTY || code & BLACK_BIT != us {
            return;
        }
        let d = TABLES.align[from.index()][to.index()];
        let (lines, jumps) = match code & KIND_MASK {
            K => {
                if d != NO_DIR && from.step(dir(d as usize)) == Some(to) {
                    self.step_to(list, from, Some(to));
                }
                if self.king_unmoved(side) && !in_check {
                    if knight_jump(from, to) {
                        // `jumps`, for the one jump to `to`.
                        self.step_to(list, from, Some(to));
                    }
                    if TABLES
                        .castlings
                        .iter()
                        .any(|c| c.king_to[side.index()] == to)
                    {
                        self.castlings(list);
                    }
                }
                return;
            }
            D => (0..12, false),
            V => (0..6, true),
            R => (0..6, false),
            G => (6..12, true),
            J => (6..12, false),
            N => {
                // `piece_moves`' jumps and rides, for the one cell `to`.
                if knight_jump(from, to) {
                    self.step_to(list, from, Some(to));
                } else if self.board[to.index()] == EMPTY
                    && let Some(&(mid, _)) = from.knight_rides().iter().find(|r| r.1 == to)
                    && self.board[mid.index()] == EMPTY
                {
                    self.push_move(list, from, to, MK_NORMAL, 0);
                }
                return;
            }
            _ => return self.piece_moves(list, from, in_check),
        };
        if d != NO_DIR && lines.contains(&(d as usize)) {
            for &c in from.ray(dir(d as usize)) {
                let p = self.board[c.index()];
                if c == to {
                    if p == EMPTY {
                        self.push_move(list, from, to, MK_NORMAL, 0);
                    } else if p & BLACK_BIT != us {
                        self.push_move(list, from, to, MK_NORMAL, p);
                    }
                    break;
                }
                if p != EMPTY {
                    break;
                }
            }
        }
        if jumps && knight_jump(from, to) {
            // `jumps`, for the one jump to `to`.
            self.step_to(list, from, Some(to));
        }
    }

    pub(super) fn pawn_moves(&self, list: &mut impl MoveSink, from: Cell) {
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

    pub(super) fn castlings(&self, list: &mut impl MoveSink) {
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
    pub(super) fn is_legal_pseudo(&mut self, m: Move, in_check: bool) -> bool {
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
            return self.quiet_piece_move_is_legal(m, king);
        }
        self.legal_by_make(m)
    }

    pub(super) fn legal_by_make(&mut self, m: Move) -> bool {
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

    /// Legality of a pseudo-legal move when not in check, given the node's pinned
    /// set: an unpinned piece's ordinary move is legal, a pinned piece's only along its
    /// pin line; the King, castling and en passant take the full test.
    #[inline]
    pub(super) fn is_legal_with_pins(&mut self, m: Move, king: Cell, pinned: Bits) -> bool {
        if m.from == king || m.kind == MK_EP || m.kind == MK_CASTLE {
            return self.is_legal_pseudo(m, false);
        }
        !pinned.contains(m.from)
            || TABLES.align[king.index()][m.to.index()]
                == TABLES.align[king.index()][m.from.index()]
    }

    /// Number of legal moves (for perft leaves): bulk counting, no make/unmake for
    /// the last ply. Unpinned pieces other than the King are counted without a move
    /// list (see `count_free_piece`); only the King's, the pinned pieces', castling
    /// and en-passant moves are stored and tested. In check, or with forced
    /// promotions pending, the plain path.
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
        let own = self.occ[self.side.index()].0;
        let mut free = Bits([
            own[0] & !pinned.0[0],
            own[1] & !pinned.0[1],
            own[2] & !pinned.0[2],
        ]);
        free.clear(king);
        free.for_each(|from| match self.count_free_piece(from) {
            Some(n) => counter.n += n,
            None => self.piece_moves(&mut counter, from, false),
        });
        // The pinned pieces' moves are tested with the King's (the pinned set holds
        // none of the King's cell: it is on no line out of itself).
        pinned.for_each(|from| self.piece_moves(counter.deferred, from, false));
        let mut n = counter.n;
        self.piece_moves(buf, king, false);
        for &m in buf.iter() {
            if self.is_legal_with_pins(m, king, pinned) {
                n += 1;
            }
        }
        n
    }

    /// The number of moves of the unpinned own man on `from` other than the King (all
    /// legal when not in check), counted on the board without making a move: a line
    /// walked to its first man, the knight jumps as a set less the own men, a pawn's
    /// targets from a table. `None` (the caller generates) for a pawn that may promote
    /// or that the special right concerns.
    #[inline]
    fn count_free_piece(&self, from: Cell) -> Option<u64> {
        let code = self.board[from.index()];
        let (lines, jumps) = match code & KIND_MASK {
            D => (0..12, false),
            V => (0..6, true),
            R => (0..6, false),
            G => (6..12, true),
            J => (6..12, false),
            N => {
                let mut n = self.count_jumps(from, code);
                for &(mid, to) in from.knight_rides() {
                    n += u64::from(
                        self.board[mid.index()] == EMPTY && self.board[to.index()] == EMPTY,
                    );
                }
                return Some(n);
            }
            E => return Some(self.count_elephant(from, code)),
            P => return self.count_pawn(from, code),
            _ => return None,
        };
        let us = code & BLACK_BIT;
        let mut n = 0;
        for d in lines {
            // The empty cells before the first man, and the man if he is an enemy.
            for &to in from.ray(dir(d)) {
                let p = self.board[to.index()];
                if p != EMPTY {
                    n += u64::from(p & BLACK_BIT != us);
                    break;
                }
                n += 1;
            }
        }
        if jumps {
            n += self.count_jumps(from, code);
        }
        Some(n)
    }

    /// The Elephant's moves, as `piece_moves` generates them.
    #[inline]
    fn count_elephant(&self, from: Cell, code: u8) -> u64 {
        let us = code & BLACK_BIT;
        let free = |to: Option<Cell>| {
            to.map_or(0, |to| {
                let p = self.board[to.index()];
                u64::from(p == EMPTY || p & BLACK_BIT != us)
            })
        };
        let forward = fwd(self.side);
        let mut n = 0;
        if let Some(s1) = from.step(forward) {
            let p = self.board[s1.index()];
            if p == EMPTY {
                n += 1 + free(s1.step(forward));
            } else if p & BLACK_BIT != us {
                n += 1;
            }
        }
        for d in NON_TRANSVERSAL_DIAGONALS {
            n += free(from.step(d));
        }
        n
    }

    /// The pawn's moves, as `pawn_moves` generates them; `None` when one of them may
    /// promote or the special right concerns this pawn (then the generator, and for
    /// en passant the full test).
    #[inline]
    fn count_pawn(&self, from: Cell, code: u8) -> Option<u64> {
        let side = self.side;
        let si = side.index();
        let i = from.index();
        if TABLES.near_promotion[si][i >> 6] & (1 << (i & 63)) != 0 {
            return None;
        }
        match self.special {
            SpecialRight::None => {}
            SpecialRight::EnPassant { near, far, .. } => {
                if pawn_capture_dirs(side)
                    .iter()
                    .any(|&d| from.step(d).is_some_and(|to| to == near || Some(to) == far))
                {
                    return None;
                }
            }
            SpecialRight::Scornful { capturers, .. } => {
                if capturers.contains(&Some(from)) {
                    return None;
                }
            }
        }
        let us = code & BLACK_BIT;
        let t = &TABLES.pawn_targets[si][i];
        let board = &self.board;
        let empty = |k: usize| t[k] != NO_CELL && board[t[k] as usize] == EMPTY;
        let mut n = 0;
        if empty(0) {
            n += 1;
            if empty(1) {
                n += 1 + u64::from(empty(2));
            }
        }
        n += u64::from(empty(3)) + u64::from(empty(4));
        for k in 5..7 {
            if t[k] != NO_CELL {
                let p = board[t[k] as usize];
                n += u64::from(p != EMPTY && p & BLACK_BIT != us);
            }
        }
        Some(n)
    }

    /// The knight jumps from `from` to an empty cell or an enemy's, for the man `code`:
    /// the jump set less the own men, counted (a few instructions where a walk over
    /// up to 12 cells branches on each).
    #[inline]
    fn count_jumps(&self, from: Cell, code: u8) -> u64 {
        let jumps = &TABLES.knight_bits[from.index()];
        let own = &self.occ[side_of(code).index()].0;
        u64::from(
            (jumps[0] & !own[0]).count_ones()
                + (jumps[1] & !own[1]).count_ones()
                + (jumps[2] & !own[2]).count_ones(),
        )
    }

    /// Whether an awaiting pawn of the side to move must promote now.
    pub(super) fn has_forced_promotion(&self) -> bool {
        let si = self.side.index();
        let own = self.occ[si].0;
        let mask = TABLES.promotion_bits[si];
        if (own[0] & mask[0]) | (own[1] & mask[1]) | (own[2] & mask[2]) == 0 {
            return false;
        }
        let mut n = PushCount(0);
        self.forced_promotions(&mut n);
        n.0 > 0
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

    /// Whether a legal en-passant or scornful capture exists. Only the pawns that can
    /// make one are generated: those a capture step away from a skipped cell (en
    /// passant), and the named capturers (scornful).
    pub(crate) fn special_capture_is_legal(&self) -> bool {
        let pawn = P | side_bit(self.side);
        let mut cands = [None::<Cell>; 4];
        match self.special {
            SpecialRight::None => return false,
            SpecialRight::EnPassant { near, far, .. } => {
                let mut k = 0;
                for target in [Some(near), far].into_iter().flatten() {
                    for d in pawn_capture_dirs(self.side) {
                        cands[k] = target.step(d.opposite());
                        k += 1;
                    }
                }
            }
            SpecialRight::Scornful { capturers, .. } => {
                cands[0] = capturers[0];
                cands[1] = capturers[1];
            }
        }
        let is_pawn = |c: &Cell| self.board[c.index()] == pawn;
        if !cands.iter().flatten().any(is_pawn) {
            return false;
        }
        let in_check = self.is_check();
        let mut scratch = self.clone();
        let mut buf = FixedMoves::new();
        cands.iter().flatten().filter(|c| is_pawn(c)).any(|&from| {
            self.pseudo_from(from, in_check, &mut buf);
            buf.as_slice().iter().any(|&m| {
                (m.kind == MK_EP || m.kind == MK_SCORNFUL) && scratch.is_legal_pseudo(m, in_check)
            })
        })
    }

    /// `special_capture_is_legal` as it was: every own pawn's moves (the reference of
    /// the differential test).
    #[cfg(test)]
    pub(crate) fn special_capture_is_legal_by_list(&self) -> bool {
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
}
