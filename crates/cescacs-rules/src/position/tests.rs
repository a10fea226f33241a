//! The shortcuts of the generator against plain make/unmake, and the fixed limits.

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

/// Perft's leaf count (moves counted on the board, not made) against the full legal
/// list on pseudo-random games played to their end, pawn moves preferred half the
/// time: promotions on arrival, awaiting pawns, en passant and scornful captures,
/// pins and checks occur along them (the start position's tree has few of those).
#[test]
fn leaf_count_agrees_with_the_legal_list_along_random_games() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut buf = Vec::new();
    let (mut positions, mut promotions, mut specials, mut checks) = (0, 0, 0, 0);
    for _ in 0..40 {
        let mut pos = Position::initial();
        for _ in 0..300 {
            let moves = pos.legal_moves();
            assert_eq!(pos.count_legal(&mut buf), moves.len() as u64, "\n{pos:?}");
            positions += 1;
            checks += usize::from(pos.is_check());
            specials += usize::from(pos.special != SpecialRight::None);
            promotions += moves.iter().filter(|m| m.promo != 0).count();
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pawns: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.board[m.from.index()] & KIND_MASK == P)
                .collect();
            let pool: &[Move] = if seed & (1 << 20) != 0 && !pawns.is_empty() {
                &pawns
            } else {
                &moves
            };
            let m = pool[(seed >> 33) as usize % pool.len()];
            pos.make(m);
        }
    }
    assert!(
        positions > 5_000 && promotions > 100 && specials > 100 && checks > 100,
        "{positions} positions, {promotions} promotion moves, {specials} special rights, {checks} checks"
    );
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
    after.play(king_away).unwrap();
    assert!(!after.is_check());
}

#[test]
fn play_refuses_a_move_not_legal_here_and_leaves_the_position_unchanged() {
    let start = Position::initial();
    let first = start.legal_moves()[0];

    // A legal move plays exactly as the unchecked path does.
    let mut checked = start.clone();
    checked.play(first).unwrap();
    let mut unchecked = start.clone();
    unchecked.play_unchecked(first);
    assert_eq!(checked, unchecked);
    assert_eq!(checked.zobrist(), unchecked.zobrist());
    assert_eq!(checked, start.after(first));

    // The same move again, now with Black to move: a move of another position.
    let before = checked.clone();
    assert_eq!(checked.play(first), Err(IllegalMove { mv: first }));
    assert_eq!(checked, before);
    assert_eq!(checked.zobrist(), before.zobrist());

    // A Black move of the position after White's first move, offered to the start.
    let black_reply = before.legal_moves()[0];
    let mut again = start.clone();
    assert!(again.play(black_reply).is_err());
    assert_eq!(again, start);
}

#[test]
fn play_refuses_pseudo_legal_moves_that_leave_the_king_in_check() {
    let mut board = [None; 169];
    let put = |b: &mut [Option<Piece>; 169], s: &str, side, kind| {
        b[s.parse::<Cell>().unwrap().index()] = Some(Piece::new(side, kind));
    };
    // The Rook on H8 is pinned by the Rook on H12: it may only stay on column H.
    put(&mut board, "H6", Side::White, PieceKind::King);
    put(&mut board, "H8", Side::White, PieceKind::Rook);
    put(&mut board, "H12", Side::Black, PieceKind::Rook);
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
    let mut pseudo = Vec::new();
    pos.pseudo(&mut pseudo, pos.is_check());
    let illegal: Vec<Move> = pseudo
        .iter()
        .copied()
        .filter(|&m| !pos.is_legal(m))
        .collect();
    assert!(
        !illegal.is_empty(),
        "the pinned Rook has moves off its column"
    );
    for m in illegal {
        let mut p = pos.clone();
        let err = p.play(m).unwrap_err();
        assert_eq!(err.mv, m);
        assert!(err.to_string().contains("is not legal"), "{err}");
        assert_eq!(p, pos, "{m:?} changed the position");
    }
    for &m in pos.legal_moves().iter() {
        let mut p = pos.clone();
        p.play(m).unwrap();
        assert_eq!(p, pos.after(m));
    }
}
