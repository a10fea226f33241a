//! Make/unmake and the Zobrist key of the repetition identity.

use super::*;

impl Position {
    #[inline]
    pub(super) fn write(&mut self, undo: &mut Undo, c: Cell, code: u8) {
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

    /// Plays `m` if it is one of this position's legal moves; otherwise refuses it and
    /// leaves the position unchanged. The test costs about one move generation from
    /// `m`'s origin cell; a caller that already knows the move is legal (it came from
    /// [`Position::legal_moves`] or [`Position::resolve`] of this very position) saves
    /// it with [`Position::play_unchecked`].
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove { mv: m });
        }
        let _ = self.make(m);
        Ok(())
    }

    /// Plays `m` without testing that it is legal here. `m` must be a legal move of
    /// this position (from its generator, directly or by resolving notation); for
    /// any other move the resulting state is unspecified (no panic, no memory
    /// unsafety, but the board may no longer be a C'escacs position). For moves of
    /// unknown origin use [`Position::play`].
    pub fn play_unchecked(&mut self, m: Move) {
        let _ = self.make(m);
    }

    /// This position after `m`, unchecked: `m` must be a legal move of this position,
    /// as for [`Position::play_unchecked`] (perft and notation writers call it on
    /// moves they just generated).
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(m);
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
    pub(super) fn zobrist_from_scratch(&self) -> u64 {
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
}
