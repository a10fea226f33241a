//! Board state: building and validating a position, reading it, and the low-level
//! writes that keep the occupancy sets and the Zobrist key in step.

use super::*;

impl Position {
    /// The standard initial position (built once, then copied: a replay starts every
    /// record from it).
    pub fn initial() -> Position {
        static INITIAL: std::sync::LazyLock<Position> =
            std::sync::LazyLock::new(Position::build_initial);
        INITIAL.clone()
    }

    fn build_initial() -> Position {
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

    pub(super) fn validate_special(&self, sp: SpecialRight) -> Result<SpecialRight, SetupError> {
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

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    /// The man on `c`, if any.
    pub fn piece_at(&self, c: Cell) -> Option<Piece> {
        Piece::from_code(self.board[c.index()])
    }

    /// The cell of the King of `side`.
    pub fn king(&self, side: Side) -> Cell {
        self.kings[side.index()]
    }

    /// The castling and leap rights left.
    pub fn castling_rights(&self) -> CastlingRights {
        CastlingRights::from_bits(self.castling)
    }

    /// The one-move special right created by the last move.
    pub fn special(&self) -> SpecialRight {
        self.special
    }

    /// Half-moves since the last capture, pawn move or promotion.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, `None` when unknown (`?` in a TLPD).
    pub fn fullmove_number(&self) -> Option<u32> {
        self.fullmove
    }

    #[inline]
    pub(super) fn set(&mut self, c: Cell, code: u8) {
        let old = self.board[c.index()];
        self.hash ^= TABLES.zobrist_piece[old as usize][c.index()]
            ^ TABLES.zobrist_piece[code as usize][c.index()];
        self.set_raw(c, code);
    }

    /// `set` without the key update, for `unmake`, which restores the key whole.
    #[inline]
    pub(super) fn set_raw(&mut self, c: Cell, code: u8) {
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
    pub(super) fn set_castling(&mut self, bits: u8) {
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
    pub(super) fn king_unmoved(&self, side: Side) -> bool {
        self.castling & (1 << (3 * side.index())) != 0
    }

    /// The regainable pieces of `side` that fit a promotion on `cell` (spec §4.6).
    pub fn regainable(&self, side: Side, cell: Cell) -> Vec<PieceKind> {
        self.regainable_iter(side, cell).collect()
    }

    /// [`Position::regainable`] without the allocation.
    pub(super) fn regainable_iter(
        &self,
        side: Side,
        cell: Cell,
    ) -> impl Iterator<Item = PieceKind> {
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

    /// Number of pieces of `side`, King included.
    pub fn piece_count(&self, side: Side) -> u32 {
        self.occ[side.index()].count()
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
