//! SAN: parsing the tolerant import forms, resolving against legal moves, and
//! writing the exact export form (spec §6).

use std::fmt;

use cozy_chess::{BitBoard, Board, File, GameStatus, Move, Piece, Rank, Square};

/// A parsed, unresolved move token. `Copy` and allocation-free, so the streaming
/// path can hand one to a visitor per move at no cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move; over-disambiguated, long-algebraic and UCI forms all
    /// land here (a UCI move has `piece: None` with a full from-square).
    Normal {
        /// `None` when no letter was written: a pawn, unless a full from-square is
        /// given (then any piece on that square, as in UCI and `e2e4`).
        piece: Option<Piece>,
        /// From-file, when written.
        file: Option<File>,
        /// From-rank, when written.
        rank: Option<Rank>,
        /// Whether `x` (or `:`) was written.
        capture: bool,
        /// Destination square.
        to: Square,
        /// Promotion piece, when written.
        promotion: Option<Piece>,
    },
    /// `O-O` / `O-O-O` (also with zeros).
    Castle(CastleSide),
    /// `--`, `Z0`, `@@@@`, `0000`: recognised so they can be reported, never played.
    Null,
    /// Crazyhouse drop `N@f3`: recognised so it is reported as unsupported.
    Drop {
        /// The dropped piece.
        piece: Piece,
        /// Where it is dropped.
        to: Square,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
/// Which side castling goes to.
pub enum CastleSide {
    /// King side, `O-O`.
    Short,
    /// Queen side, `O-O-O`.
    Long,
}

/// Check marker as written (import ignores it when resolving, export recomputes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`.
    Check,
    /// `#`.
    Mate,
}

/// A move token with its check marker and an optional move-quality glyph
/// (`!`, `?`, `!!`, `??`, `!?`, `?!` as NAG 1–6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// The check or mate marker as written (export recomputes it).
    pub suffix: Option<Suffix>,
    /// A move-quality glyph written on the move, as its NAG (1–6).
    pub glyph: Option<u8>,
}

/// Why a token is not a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    #[error("not a move")]
    /// Not a move in any accepted spelling.
    Syntax,
}

/// Why a parsed move cannot be played in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    #[error("illegal move")]
    /// No legal move matches.
    Illegal,
    #[error("ambiguous move")]
    /// More than one legal move matches.
    Ambiguous,
    #[error("null moves are not supported")]
    /// A null move where one cannot be played.
    NullMove,
    #[error("piece drops are not supported (crazyhouse)")]
    /// A crazyhouse drop.
    Drop,
}

fn piece_letter(b: u8) -> Option<Piece> {
    // German letters (S L T D) are accepted because they clash with no English one;
    // German `B` (pawn) would clash with bishop, so it is not.
    Some(match b {
        b'N' | b'S' => Piece::Knight,
        b'B' | b'L' => Piece::Bishop,
        b'R' | b'T' => Piece::Rook,
        b'Q' | b'D' => Piece::Queen,
        b'K' => Piece::King,
        b'P' => Piece::Pawn,
        _ => return None,
    })
}

fn promo_letter(b: u8) -> Option<Piece> {
    // Lower case appears in UCI (`e7e8q`); `K` never promotes.
    match b.to_ascii_uppercase() {
        b'P' | b'K' => None,
        c => piece_letter(c),
    }
}

#[inline(always)]
fn file_of(b: u8) -> Option<File> {
    File::try_index(usize::from(b.wrapping_sub(b'a')))
}

#[inline(always)]
fn rank_of(b: u8) -> Option<Rank> {
    Rank::try_index(usize::from(b.wrapping_sub(b'1')))
}

/// Maps a move-quality glyph to its NAG (spec §7.1).
pub fn glyph_nag(s: &[u8]) -> Option<u8> {
    Some(match s {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => return None,
    })
}

impl SanPlus {
    /// Parses one move token in any of the import forms of spec §6.
    #[inline]
    pub fn parse(token: &[u8]) -> Result<SanPlus, SanError> {
        // Nearly all real moves are plain `e4`/`Nf3`/`exd5`/`Nbd7`: decode those
        // before any suffix handling.
        if let Some(san) = parse_common(token) {
            return Ok(SanPlus {
                san,
                suffix: None,
                glyph: None,
            });
        }
        Self::parse_general(token)
    }

    #[inline(never)]
    fn parse_general(token: &[u8]) -> Result<SanPlus, SanError> {
        // A check on a plain move (`Nf3+`, `exd5+`) is the next most common shape:
        // one byte off the end, without the suffix search below.
        if let Some((&b'+', head)) = token.split_last()
            && let Some(san) = parse_common(head)
        {
            return Ok(SanPlus {
                san,
                suffix: Some(Suffix::Check),
                glyph: None,
            });
        }
        let mut s = token;
        let mut glyph = None;
        let mut suffix = None;
        // Most tokens end in a square or a piece letter: skip the suffix checks then.
        let last = *s.last().ok_or(SanError::Syntax)?;
        if matches!(last, b'!' | b'?' | b'+' | b'#' | b'h' | b'p' | b'e' | 0xA0) {
            let g = s
                .iter()
                .rev()
                .take_while(|&&c| c == b'!' || c == b'?')
                .count();
            if g > 0 {
                glyph = Some(glyph_nag(&s[s.len() - g..]).ok_or(SanError::Syntax)?);
                s = &s[..s.len() - g];
            }
            for (tail, suf) in [
                (&b"++"[..], Suffix::Mate),
                (b"#", Suffix::Mate),
                (b"+", Suffix::Check),
                (b"ch", Suffix::Check),
                ("\u{2020}".as_bytes(), Suffix::Check),
            ] {
                if let Some(rest) = s.strip_suffix(tail) {
                    s = rest;
                    suffix = Some(suf);
                    break;
                }
            }
            // `e.p.` arrives as separate tokens and is dropped by the reader; `ep` glued on is dropped here.
            if let Some(rest) = s.strip_suffix(b"ep")
                && rest.len() >= 2
            {
                s = rest;
            }
            // `exd6e.p.` without a space arrives as `exd6e` then `.`, `p`, `.`: the `e`
            // is dropped here and the reader drops the `p` that completes it. A move
            // never ends in `e` otherwise, so nothing else is read differently.
            if let Some(rest) = s.strip_suffix(b"e")
                && rest.len() >= 2
            {
                s = rest;
            }
        }
        let san = parse_san(s)?;
        Ok(SanPlus { san, suffix, glyph })
    }
}

/// The shapes that make up nearly all real movetext, decoded without the general
/// parser's bookkeeping: `e4`, `Nf3`, `exd5`, `Nxe5`, `Nbd7`, `R1e2`.
#[inline(always)]
fn parse_common(s: &[u8]) -> Option<San> {
    let sq = |f: u8, r: u8| Some(Square::new(file_of(f)?, rank_of(r)?));
    let normal = |piece, file, rank, capture, to| San::Normal {
        piece,
        file,
        rank,
        capture,
        to,
        promotion: None,
    };
    match *s {
        [f, r] => Some(normal(None, None, None, false, sq(f, r)?)),
        [p, f, r] => Some(normal(Some(real_piece(p)?), None, None, false, sq(f, r)?)),
        [a, b'x', f, r] => {
            let to = sq(f, r)?;
            match file_of(a) {
                // A pawn capture never lands on the first or last rank without promoting.
                Some(ff) if !matches!(r, b'1' | b'8') => {
                    Some(normal(None, Some(ff), None, true, to))
                }
                Some(_) => None,
                None => Some(normal(Some(real_piece(a)?), None, None, true, to)),
            }
        }
        [p, d, f, r] => {
            let piece = real_piece(p)?;
            let to = sq(f, r)?;
            match (file_of(d), rank_of(d)) {
                (Some(df), _) => Some(normal(Some(piece), Some(df), None, false, to)),
                (_, Some(dr)) => Some(normal(Some(piece), None, Some(dr), false, to)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// English piece letters other than `P`, for the fast path.
#[inline(always)]
fn real_piece(b: u8) -> Option<Piece> {
    Some(match b {
        b'N' => Piece::Knight,
        b'B' => Piece::Bishop,
        b'R' => Piece::Rook,
        b'Q' => Piece::Queen,
        b'K' => Piece::King,
        _ => return None,
    })
}

fn parse_san(s: &[u8]) -> Result<San, SanError> {
    if let Some(san) = parse_common(s) {
        return Ok(san);
    }
    match s {
        b"O-O" | b"0-0" | b"o-o" => return Ok(San::Castle(CastleSide::Short)),
        b"O-O-O" | b"0-0-0" | b"o-o-o" => return Ok(San::Castle(CastleSide::Long)),
        b"--" | b"Z0" | b"@@@@" | b"0000" => return Ok(San::Null),
        _ => {}
    }
    if s.len() < 2 || s.len() > 12 {
        return Err(SanError::Syntax);
    }
    let mut i = 0;
    let piece = piece_letter(s[0]);
    if piece.is_some() {
        i = 1;
    }
    if s.get(i) == Some(&b'@') {
        let piece = piece.unwrap_or(Piece::Pawn);
        let rest = &s[i + 1..];
        if rest.len() == 2
            && let (Some(f), Some(r)) = (file_of(rest[0]), rank_of(rest[1]))
        {
            return Ok(San::Drop {
                piece,
                to: Square::new(f, r),
            });
        }
        return Err(SanError::Syntax);
    }
    let mut body = &s[i..];
    // Promotion: `=Q`, `Q` right after the rank, or lower case in UCI.
    let mut promotion = None;
    if body.len() >= 3 {
        let last = body[body.len() - 1];
        if !last.is_ascii_digit() {
            let p = promo_letter(last).ok_or(SanError::Syntax)?;
            promotion = Some(p);
            body = &body[..body.len() - 1];
            if let Some(b) = body.strip_suffix(b"=") {
                body = b;
            }
        }
    }
    let n = body.len();
    if n < 2 {
        return Err(SanError::Syntax);
    }
    let to = match (file_of(body[n - 2]), rank_of(body[n - 1])) {
        (Some(f), Some(r)) => Square::new(f, r),
        _ => return Err(SanError::Syntax),
    };
    let mut pre = &body[..n - 2];
    let mut capture = false;
    if let Some(&c) = pre.last() {
        if c == b'x' || c == b':' {
            capture = true;
            pre = &pre[..pre.len() - 1];
        } else if c == b'-' {
            pre = &pre[..pre.len() - 1];
        }
    }
    let (file, rank) = match pre {
        [] => (None, None),
        [a] => match (file_of(*a), rank_of(*a)) {
            (Some(f), _) => (Some(f), None),
            (_, Some(r)) => (None, Some(r)),
            _ => return Err(SanError::Syntax),
        },
        [a, b] => match (file_of(*a), rank_of(*b)) {
            (Some(f), Some(r)) => (Some(f), Some(r)),
            _ => return Err(SanError::Syntax),
        },
        _ => return Err(SanError::Syntax),
    };
    Ok(San::Normal {
        piece,
        file,
        rank,
        capture,
        to,
        promotion,
    })
}

impl San {
    /// Finds the one legal move this notation names in `board`.
    ///
    /// Generate-and-match over the legal moves of the named piece only, so a pinned
    /// piece never makes a move ambiguous and check markers play no part.
    #[inline]
    pub fn to_move(&self, board: &Board) -> Result<Move, ResolveError> {
        // Nearly every move of a real game is the one unpinned piece of its kind that
        // attacks the target, played when not in check: found by attack lookups alone.
        match self.plain_move(board) {
            Some(mv) => Ok(mv),
            None => self.resolve_general(board),
        }
    }

    /// The move this notation names when it is a plain one: a king step, or a pawn,
    /// knight, bishop, rook or queen move (no UCI from-square, no en passant, no
    /// castling) to a square not ours, with exactly one candidate of that kind
    /// reaching it and no pinned candidate, out of check or taking or blocking a
    /// single checker. `None` leaves the move to
    /// [`San::resolve_general`], which decides every case (and decides these the
    /// same way: the differential test `plain_moves_resolve_as_the_general_path`).
    #[inline(always)]
    fn plain_move(&self, board: &Board) -> Option<Move> {
        let San::Normal {
            piece,
            file,
            rank,
            to,
            promotion,
            ..
        } = *self
        else {
            return None;
        };
        let us = board.side_to_move();
        let ours = board.colors(us);
        if ours.has(to) {
            return None;
        }
        let checkers = board.checkers();
        if !checkers.is_empty() && piece != Some(Piece::King) {
            // In check from one piece, a move other than the king's must take it or
            // step between (and a pinned piece can do neither).
            let checker = checkers.next_square()?;
            if checkers.len() > 1
                || !(checkers | cozy_chess::get_between_rays(board.king(us), checker)).has(to)
            {
                return None;
            }
        }
        let mut mask = ours;
        if let Some(f) = file {
            mask &= f.bitboard();
        }
        if let Some(r) = rank {
            mask &= r.bitboard();
        }
        let occ = board.occupied();
        let candidates = match piece {
            None if file.is_some() && rank.is_some() => return None,
            None | Some(Piece::Pawn) => plain_pawn_move(board, mask, to, file, promotion)?,
            Some(Piece::King) => {
                let king = board.king(us);
                if promotion.is_some()
                    || !mask.has(king)
                    || !cozy_chess::get_king_moves(king).has(to)
                    || attacked_by_them(board, to, board.occupied() ^ king.bitboard())
                {
                    return None;
                }
                // A king is never pinned (and never in `pinned`).
                king.bitboard()
            }
            Some(p) => {
                if promotion.is_some() {
                    return None;
                }
                let attackers = match p {
                    Piece::Knight => cozy_chess::get_knight_moves(to),
                    Piece::Bishop => cozy_chess::get_bishop_moves(to, occ),
                    Piece::Rook => cozy_chess::get_rook_moves(to, occ),
                    _ => {
                        cozy_chess::get_bishop_moves(to, occ) | cozy_chess::get_rook_moves(to, occ)
                    }
                };
                mask & board.pieces(p) & attackers
            }
        };
        // One candidate, not pinned (a pinned one may still move along its pin, or
        // make the move ambiguous: the general path's).
        if candidates.len() != 1 || !(candidates & board.pinned()).is_empty() {
            return None;
        }
        Some(Move {
            from: candidates.next_square()?,
            to,
            promotion,
        })
    }

    /// [`San::to_move`] for every move: candidates of the named kind that could reach
    /// the target, each checked for legality.
    #[inline(never)]
    fn resolve_general(&self, board: &Board) -> Result<Move, ResolveError> {
        let us = board.side_to_move();
        match *self {
            San::Null => Err(ResolveError::NullMove),
            San::Drop { .. } => Err(ResolveError::Drop),
            San::Castle(side) => castle_move(board, side).ok_or(ResolveError::Illegal),
            San::Normal {
                piece,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                let mut mask = board.colors(us);
                if let Some(f) = file {
                    mask &= f.bitboard();
                }
                if let Some(r) = rank {
                    mask &= r.bitboard();
                }
                let piece = match (piece, file, rank) {
                    (Some(p), _, _) => p,
                    // A full from-square without a letter (UCI, `e2e4`): whatever stands there.
                    (None, Some(f), Some(r)) => {
                        let from = Square::new(f, r);
                        let p = board.piece_on(from).ok_or(ResolveError::Illegal)?;
                        // UCI/long-algebraic castling is written king-two-squares.
                        // Chess960 UCI writes castling as king-takes-own-rook, as cozy-chess does.
                        if p == Piece::King && board.colors(us).has(to) {
                            let mv = Move {
                                from,
                                to,
                                promotion: None,
                            };
                            return if board.is_legal(mv) {
                                Ok(mv)
                            } else {
                                Err(ResolveError::Illegal)
                            };
                        }
                        if p == Piece::King
                            && promotion.is_none()
                            && let Some(m) = king_two_squares(board, from, to)
                        {
                            return Ok(m);
                        }
                        p
                    }
                    (None, _, _) => Piece::Pawn,
                };
                mask &= board.pieces(piece);
                // Only pieces that could reach `to` at all: usually one is left, and
                // `is_legal` on it is much cheaper than generating moves.
                mask &= match piece {
                    Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen | Piece::King => {
                        reach(piece, to)
                    }
                    // Squares from which one of our pawns would attack `to`.
                    Piece::Pawn if file.is_some_and(|f| f != to.file()) => {
                        cozy_chess::get_pawn_attacks(to, !us)
                    }
                    Piece::Pawn => to.file().bitboard(),
                };
                if piece == Piece::King && file.is_none() && rank.is_none() {
                    // `Kg1` for castling (king two squares), when no plain king move matches.
                    if let Some(m) = king_two_squares(board, board.king(us), to)
                        && !is_plain_king_target(board, to)
                    {
                        return Ok(m);
                    }
                }
                // `Kh1`/`Kxh1` (king onto its own rook) is how some programs write
                // castling, and how cozy-chess encodes it: legal exactly when that
                // castling is.
                if piece == Piece::King && board.colors(us).has(to) {
                    let mv = Move {
                        from: board.king(us),
                        to,
                        promotion: None,
                    };
                    let own_rook = board.pieces(Piece::Rook).has(to)
                        && file.is_none_or(|f| f == mv.from.file())
                        && rank.is_none_or(|r| r == mv.from.rank());
                    return if own_rook && promotion.is_none() && board.is_legal(mv) {
                        Ok(mv)
                    } else {
                        Err(ResolveError::Illegal)
                    };
                }
                let mut found: Option<Move> = None;
                let mut count = 0;
                for from in mask {
                    let mv = Move {
                        from,
                        to,
                        promotion,
                    };
                    let legal = match quick_legal(board, piece, mv) {
                        Some(l) => l,
                        None => board.is_legal(mv),
                    };
                    if legal {
                        found = Some(mv);
                        count += 1;
                    }
                }
                match count {
                    1 => found.ok_or(ResolveError::Illegal),
                    0 => Err(ResolveError::Illegal),
                    _ => Err(ResolveError::Ambiguous),
                }
            }
        }
    }

    /// The export SAN of a pawn's move: a capture names only the from-file.
    #[inline]
    pub(crate) fn pawn_move(mv: Move, capture: bool) -> San {
        San::Normal {
            piece: None,
            file: capture.then(|| mv.from.file()),
            rank: None,
            capture,
            to: mv.to,
            promotion: mv.promotion,
        }
    }

    /// The export SAN of a legal move, with minimal disambiguation (spec §6).
    /// The check marker is added by [`SanPlus::from_move`].
    pub fn from_move(board: &Board, mv: Move) -> San {
        let us = board.side_to_move();
        let piece = board.piece_on(mv.from).unwrap_or(Piece::Pawn);
        if piece == Piece::King && board.colors(us).has(mv.to) {
            return San::Castle(if mv.to.file() > mv.from.file() {
                CastleSide::Short
            } else {
                CastleSide::Long
            });
        }
        let capture = board.colors(!us).has(mv.to)
            || (piece == Piece::Pawn && mv.from.file() != mv.to.file());
        if piece == Piece::Pawn {
            return San::pawn_move(mv, capture);
        }
        // Other pieces of the same kind that can legally reach the same square.
        let others = board.colored_pieces(us, piece) & !mv.from.bitboard();
        let mut rivals = BitBoard::EMPTY;
        if piece != Piece::King && !others.is_empty() {
            for from in others & reach(piece, mv.to) {
                if board.is_legal(Move {
                    from,
                    to: mv.to,
                    promotion: None,
                }) {
                    rivals |= from.bitboard();
                }
            }
        }
        let (file, rank) = if rivals.is_empty() {
            (None, None)
        } else if (rivals & mv.from.file().bitboard()).is_empty() {
            (Some(mv.from.file()), None)
        } else if (rivals & mv.from.rank().bitboard()).is_empty() {
            (None, Some(mv.from.rank()))
        } else {
            (Some(mv.from.file()), Some(mv.from.rank()))
        };
        San::Normal {
            piece: Some(piece),
            file,
            rank,
            capture,
            to: mv.to,
            promotion: None,
        }
    }
}

/// The one pawn of `mask` (ours, on the written file and rank) that can move to `to`
/// in [`San::plain_move`]: a push to an empty square, or a capture of a piece there,
/// with a promotion exactly when it reaches the last rank. `None`: the general path's.
#[inline(always)]
fn plain_pawn_move(
    board: &Board,
    mask: BitBoard,
    to: Square,
    file: Option<File>,
    promotion: Option<Piece>,
) -> Option<BitBoard> {
    let us = board.side_to_move();
    let last = matches!(to.rank(), Rank::First | Rank::Eighth);
    let promotion_ok = match promotion {
        None => !last,
        Some(Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen) => last,
        Some(_) => false,
    };
    if !promotion_ok {
        return None;
    }
    let pawns = mask & board.pieces(Piece::Pawn);
    if file.is_some_and(|f| f != to.file()) {
        // A capture: of a piece that is there (en passant is the general path's).
        if !board.colors(!us).has(to) {
            return None;
        }
        return Some(pawns & cozy_chess::get_pawn_attacks(to, !us));
    }
    let occ = board.occupied();
    if occ.has(to) {
        return None;
    }
    let (step, home) = match us {
        cozy_chess::Color::White => (-1, Rank::Second),
        cozy_chess::Color::Black => (1, Rank::Seventh),
    };
    let behind = to.try_offset(0, step)?;
    if pawns.has(behind) {
        return Some(behind.bitboard());
    }
    let start = behind.try_offset(0, step)?;
    (!occ.has(behind) && start.rank() == home && pawns.has(start)).then(|| start.bitboard())
}

/// Whether a piece of the side not to move attacks `sq`, with `occ` as the occupied
/// squares (the moving king left out, so that it cannot hide behind itself).
#[inline(always)]
fn attacked_by_them(board: &Board, sq: Square, occ: BitBoard) -> bool {
    let them = !board.side_to_move();
    let theirs = |p: Piece| board.colored_pieces(them, p);
    let queens = theirs(Piece::Queen);
    let attackers = (cozy_chess::get_knight_moves(sq) & theirs(Piece::Knight))
        | (cozy_chess::get_king_moves(sq) & theirs(Piece::King))
        | (cozy_chess::get_pawn_attacks(sq, !them) & theirs(Piece::Pawn))
        | (cozy_chess::get_bishop_moves(sq, occ) & (theirs(Piece::Bishop) | queens))
        | (cozy_chess::get_rook_moves(sq, occ) & (theirs(Piece::Rook) | queens));
    !attackers.is_empty()
}

/// Legality of a candidate from `to_move` without the general check, for the common
/// case: side not in check, piece not pinned, not a king, not en passant. `None`
/// means "ask `Board::is_legal`". The candidate already lies on a ray, knight jump
/// or pawn-capture square of `to` (see [`reach`]), so only blockers, the target
/// and pawn geometry remain to be checked.
#[inline]
fn quick_legal(board: &Board, piece: Piece, mv: Move) -> Option<bool> {
    if piece == Piece::King || !board.checkers().is_empty() || board.pinned().has(mv.from) {
        return None;
    }
    let us = board.side_to_move();
    if board.colors(us).has(mv.to) {
        return Some(false);
    }
    let occ = board.occupied();
    match piece {
        Piece::Knight => Some(mv.promotion.is_none()),
        Piece::Bishop | Piece::Rook | Piece::Queen => Some(
            mv.promotion.is_none()
                && (cozy_chess::get_between_rays(mv.from, mv.to) & occ).is_empty(),
        ),
        Piece::Pawn => {
            let last = matches!(mv.to.rank(), Rank::First | Rank::Eighth);
            let promo_ok = match mv.promotion {
                None => !last,
                Some(Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen) => last,
                Some(_) => false,
            };
            if mv.from.file() != mv.to.file() {
                // Captures: an empty target is en passant or illegal; leave it to is_legal.
                return if board.colors(!us).has(mv.to) {
                    Some(promo_ok)
                } else {
                    None
                };
            }
            let (fr, tr) = (mv.from.rank() as i32, mv.to.rank() as i32);
            let step = if us == cozy_chess::Color::White {
                1
            } else {
                -1
            };
            let home = if us == cozy_chess::Color::White { 1 } else { 6 };
            let ok = !occ.has(mv.to)
                && (tr - fr == step
                    || (tr - fr == 2 * step
                        && fr == home
                        && (cozy_chess::get_between_rays(mv.from, mv.to) & occ).is_empty()));
            Some(ok && promo_ok)
        }
        Piece::King => None,
    }
}

/// Squares from which a piece of this kind could reach `to` on an empty board.
/// Unblocked rays, not magic lookups: the small ray tables stay in cache, and the
/// `is_legal` check that follows every use rejects a blocked slider anyway.
#[inline]
fn reach(piece: Piece, to: Square) -> BitBoard {
    match piece {
        Piece::Knight => cozy_chess::get_knight_moves(to),
        Piece::Bishop => cozy_chess::get_bishop_rays(to),
        Piece::Rook => cozy_chess::get_rook_rays(to),
        Piece::Queen => cozy_chess::get_bishop_rays(to) | cozy_chess::get_rook_rays(to),
        Piece::King => cozy_chess::get_king_moves(to),
        Piece::Pawn => BitBoard::FULL,
    }
}

fn is_plain_king_target(board: &Board, to: Square) -> bool {
    let us = board.side_to_move();
    let from = board.king(us);
    !board.colors(us).has(to)
        && board.is_legal(Move {
            from,
            to,
            promotion: None,
        })
}

fn castle_move(board: &Board, side: CastleSide) -> Option<Move> {
    let us = board.side_to_move();
    let rights = board.castle_rights(us);
    let file = match side {
        CastleSide::Short => rights.short?,
        CastleSide::Long => rights.long?,
    };
    let mv = Move {
        from: board.king(us),
        to: Square::new(file, Rank::First.relative_to(us)),
        promotion: None,
    };
    board.is_legal(mv).then_some(mv)
}

/// `e1g1` / `Kg1` written for castling: the king moving two files on its back rank.
fn king_two_squares(board: &Board, from: Square, to: Square) -> Option<Move> {
    let us = board.side_to_move();
    if from != board.king(us) || from.rank() != to.rank() {
        return None;
    }
    let (f, t) = (from.file() as i32, to.file() as i32);
    let side = match t - f {
        2 => CastleSide::Short,
        -2 => CastleSide::Long,
        _ => return None,
    };
    // Only the standard king files: in Chess960 UCI uses king-takes-rook already.
    if to.file() != File::G && to.file() != File::C {
        return None;
    }
    castle_move(board, side)
}

impl SanPlus {
    /// Export SAN for a legal move, including `+`/`#` computed by playing it.
    pub fn from_move(board: &Board, mv: Move) -> SanPlus {
        let san = San::from_move(board, mv);
        let mut after = board.clone();
        after.play_unchecked(mv);
        SanPlus {
            san,
            suffix: Suffix::of(&after),
            glyph: None,
        }
    }
}

impl Suffix {
    /// The marker a move deserves, judged from the position it produced.
    pub fn of(after: &Board) -> Option<Suffix> {
        if after.checkers().is_empty() {
            None
        } else if after.status() == GameStatus::Won {
            Some(Suffix::Mate)
        } else {
            Some(Suffix::Check)
        }
    }
}

/// A move's export spelling in a fixed buffer: the writers' hot path spells every
/// move, and `core::fmt` cost more than the rest of writing it.
pub(crate) struct SanText {
    /// 16 bytes (the longest spelling is 9): every index is taken modulo 16, so no
    /// byte written needs a bounds check.
    buf: [u8; 16],
    len: usize,
}

/// The letter of a piece other than a pawn (`P` for a pawn), as a byte.
#[inline(always)]
fn piece_byte(p: Piece) -> u8 {
    *b"PNBRQK".get(p as usize).unwrap_or(&b'P')
}

impl SanText {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.buf[self.len & 15] = b;
        self.len += 1;
    }

    /// Writes `b` at the end and counts it only when `keep`: the optional parts of a
    /// move are written without a branch on each.
    #[inline(always)]
    fn push_if(&mut self, b: u8, keep: bool) {
        self.buf[self.len & 15] = b;
        self.len += usize::from(keep);
    }

    fn push_str(&mut self, s: &[u8]) {
        for &b in s {
            self.push(b);
        }
    }

    #[inline(always)]
    fn push_square(&mut self, sq: Square) {
        self.push(b'a' + sq.file() as u8);
        self.push(b'1' + sq.rank() as u8);
    }

    /// A spelling not yet begun.
    #[inline(always)]
    const fn empty() -> SanText {
        SanText {
            buf: [0; 16],
            len: 0,
        }
    }

    /// The spelling of a [`San::Normal`] move from its parts (no piece letter for a
    /// pawn).
    #[inline(always)]
    fn normal(
        piece: Piece,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Piece>,
    ) -> SanText {
        let mut t = SanText::empty();
        t.push_if(piece_byte(piece), piece != Piece::Pawn);
        t.push_if(b'a' + file.map_or(0, |f| f as u8), file.is_some());
        t.push_if(b'1' + rank.map_or(0, |r| r as u8), rank.is_some());
        t.push_if(b'x', capture);
        t.push_square(to);
        if let Some(p) = promotion {
            t.push(b'=');
            t.push(piece_byte(p));
        }
        t
    }

    /// The spelling of [`San::pawn_move`]`(mv, capture)`, put together without the
    /// `San` (the direct export spells most moves so).
    #[inline(always)]
    pub(crate) fn pawn_move(mv: Move, capture: bool) -> SanText {
        let file = capture.then(|| mv.from.file());
        SanText::normal(Piece::Pawn, file, None, capture, mv.to, mv.promotion)
    }

    /// The spelling of a piece move (not a pawn's) with no from-square: `Nf3`,
    /// `Bxe5`.
    #[inline(always)]
    pub(crate) fn piece_move(piece: Piece, capture: bool, to: Square) -> SanText {
        SanText::normal(piece, None, None, capture, to, None)
    }

    /// Appends the check marker of `suffix` (`+`, `#`), if any.
    #[inline(always)]
    pub(crate) fn push_suffix(&mut self, suffix: Option<Suffix>) {
        match suffix {
            Some(Suffix::Check) => self.push(b'+'),
            Some(Suffix::Mate) => self.push(b'#'),
            None => {}
        }
    }

    /// The buffer the spelling starts, and the spelling's length.
    #[inline]
    pub(crate) fn padded(&self) -> (&[u8; 16], usize) {
        (&self.buf, self.len)
    }

    /// The spelling.
    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII letters, digits and signs are pushed.
        std::str::from_utf8(&self.buf[..self.len.min(16)]).unwrap_or("")
    }
}

impl San {
    /// The export spelling (the longest, `Qa1xb2=Q`, is 8 bytes).
    #[inline]
    pub(crate) fn text(&self) -> SanText {
        let mut t = SanText::empty();
        match *self {
            San::Normal {
                piece,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                let piece = piece.unwrap_or(Piece::Pawn);
                t = SanText::normal(piece, file, rank, capture, to, promotion);
            }
            San::Drop { piece, to } => {
                t.push_if(piece_byte(piece), piece != Piece::Pawn);
                t.push(b'@');
                t.push_square(to);
            }
            San::Castle(CastleSide::Short) => t.push_str(b"O-O"),
            San::Castle(CastleSide::Long) => t.push_str(b"O-O-O"),
            San::Null => t.push_str(b"--"),
        }
        t
    }
}

impl SanPlus {
    /// The export spelling, suffix included (the glyph is written as a NAG).
    #[inline]
    pub(crate) fn text(&self) -> SanText {
        let mut t = self.san.text();
        t.push_suffix(self.suffix);
        t
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

impl fmt::Display for SanPlus {
    /// The export form: the glyph is not written here because export uses `$n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text().as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(board: &mut Board, s: &str) -> Move {
        let sp = SanPlus::parse(s.as_bytes()).unwrap_or_else(|_| panic!("parse {s}"));
        let m = sp.san.to_move(board).unwrap_or_else(|e| panic!("{s}: {e}"));
        board.play(m);
        m
    }

    /// Every spelling a move can be given in (and random ones) against the general
    /// path, in positions of random games from several starts: the plain path may
    /// decline, but never find another answer.
    #[test]
    fn plain_moves_resolve_as_the_general_path() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            // Pins, en passant, promotions both ways, Chess960 castling.
            "4k3/1P4P1/8/8/1b6/8/3N1p2/R3K2R w KQ - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut rng = test_support::Rng::new(30);
        let pieces = [
            None,
            Some(Piece::Pawn),
            Some(Piece::Knight),
            Some(Piece::Bishop),
            Some(Piece::Rook),
            Some(Piece::Queen),
            Some(Piece::King),
        ];
        let mut compared = 0;
        for start in starts {
            for _ in 0..40 {
                let mut board: Board = start.parse().unwrap();
                for _ in 0..120 {
                    let mut moves = Vec::new();
                    board.generate_moves(|ms| {
                        moves.extend(ms);
                        false
                    });
                    if moves.is_empty() {
                        break;
                    }
                    let mut sans = Vec::new();
                    for &mv in &moves {
                        let piece = board.piece_on(mv.from);
                        let from_move = San::from_move(&board, mv);
                        sans.push(from_move);
                        for (file, rank) in [
                            (None, None),
                            (Some(mv.from.file()), None),
                            (None, Some(mv.from.rank())),
                            (Some(mv.from.file()), Some(mv.from.rank())),
                        ] {
                            for p in [piece, None] {
                                sans.push(San::Normal {
                                    piece: p,
                                    file,
                                    rank,
                                    capture: false,
                                    to: mv.to,
                                    promotion: mv.promotion,
                                });
                            }
                        }
                    }
                    for _ in 0..20 {
                        sans.push(San::Normal {
                            piece: *rng.pick(&pieces),
                            file: rng.chance(50).then(|| File::index(rng.below(8))),
                            rank: rng.chance(30).then(|| Rank::index(rng.below(8))),
                            capture: rng.chance(50),
                            to: Square::index(rng.below(64)),
                            promotion: *rng.pick(&pieces),
                        });
                    }
                    for san in sans {
                        if let Some(mv) = san.plain_move(&board) {
                            assert_eq!(Ok(mv), san.resolve_general(&board), "{san} in {board}");
                            compared += 1;
                        }
                    }
                    board.play(*rng.pick(&moves));
                }
            }
        }
        assert!(compared > 10_000, "{compared} plain moves compared");
    }

    #[test]
    fn import_forms_resolve() {
        let mut b = Board::default();
        for s in ["e2e4", "e7-e5", "Ng1-f3", "Pd7d6", "Bf1c4", "Nb8c6", "0-0"] {
            play(&mut b, s);
        }
        assert_eq!(b.king(cozy_chess::Color::White), Square::G1);
        let mut b = Board::default();
        for s in ["Sf3", "Sf6", "g3", "g6", "Lg2", "Lg7", "e1g1", "Kg8"] {
            play(&mut b, s);
        }
        assert_eq!(b.piece_on(Square::F1), Some(Piece::Rook));
        assert_eq!(b.piece_on(Square::F8), Some(Piece::Rook));
    }

    #[test]
    fn export_disambiguation_minimal_and_pins_ignored() {
        // Two knights can reach d2 -> file; rooks on one file -> rank.
        let b: Board = "4k3/8/8/8/8/5N2/8/1N2K2R w - - 0 1".parse().unwrap();
        let m = SanPlus::parse(b"Nbd2").unwrap().san.to_move(&b).unwrap();
        assert_eq!(SanPlus::from_move(&b, m).to_string(), "Nbd2");
        let b: Board = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        let m = Move {
            from: Square::A1,
            to: Square::A3,
            promotion: None,
        };
        assert_eq!(SanPlus::from_move(&b, m).to_string(), "R1a3");
        // The c3 knight is pinned, so Ne2 needs no disambiguation.
        let b: Board = "4k3/8/8/b7/8/2N5/8/4K1N1 w - - 0 1".parse().unwrap();
        let m = SanPlus::parse(b"Ne2").unwrap().san.to_move(&b).unwrap();
        assert_eq!(m.from, Square::G1);
        assert_eq!(SanPlus::from_move(&b, m).to_string(), "Ne2");
    }

    #[test]
    fn blocked_pushes_en_passant_and_blocked_sliders() {
        let r = |fen: &str, san: &str| {
            let b: Board = fen.parse().unwrap();
            SanPlus::parse(san.as_bytes()).unwrap().san.to_move(&b)
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(r(start, "Bc4"), Err(ResolveError::Illegal), "blocked by d2");
        assert_eq!(r(start, "e5"), Err(ResolveError::Illegal));
        let blocked = "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1";
        assert_eq!(r(blocked, "e4"), Err(ResolveError::Illegal), "e3 occupied");
        assert_eq!(r(blocked, "e3"), Err(ResolveError::Illegal));
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(r(ep, "exd6").map(|m| m.from), Ok(Square::E5));
        assert_eq!(
            r(ep, "exf6"),
            Err(ResolveError::Illegal),
            "nothing to capture"
        );
        // Black double push and a capture-promotion.
        let b = "4k3/4p3/8/8/8/8/6p1/4K2R b - - 0 1";
        assert_eq!(r(b, "e5").map(|m| m.from), Ok(Square::E7));
        assert_eq!(r(b, "gxh1=N").map(|m| m.promotion), Ok(Some(Piece::Knight)));
        assert_eq!(
            r(b, "gxh1"),
            Err(ResolveError::Illegal),
            "promotion missing"
        );
    }

    #[test]
    fn mate_promotion_and_errors() {
        let mut b = Board::default();
        for s in ["f3", "e5", "g4"] {
            play(&mut b, s);
        }
        let m = SanPlus::parse(b"Qh4").unwrap().san.to_move(&b).unwrap();
        assert_eq!(SanPlus::from_move(&b, m).to_string(), "Qh4#");
        let b: Board = "7k/P7/8/8/8/8/8/K7 w - - 0 1".parse().unwrap();
        for s in ["a8=Q", "a8Q", "a7a8q"] {
            let m = SanPlus::parse(s.as_bytes())
                .unwrap()
                .san
                .to_move(&b)
                .unwrap();
            assert_eq!(m.promotion, Some(Piece::Queen));
            assert_eq!(SanPlus::from_move(&b, m).to_string(), "a8=Q+");
        }
        assert_eq!(
            SanPlus::parse(b"a8").unwrap().san.to_move(&b),
            Err(ResolveError::Illegal)
        );
        assert_eq!(
            SanPlus::parse(b"N@f3").unwrap().san.to_move(&b),
            Err(ResolveError::Drop)
        );
        assert!(SanPlus::parse(b"hello").is_err());
        assert!(SanPlus::parse(b"1-0").is_err());
        let g = SanPlus::parse(b"Nf3!?").unwrap();
        assert_eq!(g.glyph, Some(5));
    }
}
