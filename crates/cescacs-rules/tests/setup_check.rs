//! `Position::from_setup` refuses a position whose side not to move is in check, for
//! every attacker: each piece kind of either side on every cell, against the enemy
//! King, compared with the move generator (a position it accepts has no legal move
//! onto the enemy King's cell; one it refuses has a legal capture onto that cell when
//! a man of another kind stands there).

use cescacs_rules::{
    CastlingRights, Cell, Piece, PieceKind, Position, Setup, SetupError, Side, SpecialRight,
};

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

fn setup(men: &[(Cell, Piece)], side_to_move: Side) -> Setup {
    let mut board = [None; 169];
    for &(c, p) in men {
        board[c.index()] = Some(p);
    }
    Setup {
        board,
        side_to_move,
        castling: CastlingRights::default(),
        special: SpecialRight::None,
        halfmove_clock: 0,
        fullmove_number: Some(1),
    }
}

#[test]
fn every_attack_on_the_king_not_to_move_is_refused() {
    let (mut refused, mut accepted) = (0, 0);
    for mover in [Side::White, Side::Black] {
        let other = mover.opponent();
        let target = cell("F14");
        let own_king = if mover == Side::White {
            cell("G1")
        } else {
            cell("G27")
        };
        let far_king = if mover == Side::White {
            cell("G27")
        } else {
            cell("G1")
        };
        for kind in PieceKind::ALL {
            for at in Cell::all() {
                if at == target || at == own_king || at == far_king {
                    continue;
                }
                let attacker = (at, Piece { side: mover, kind });
                // The mover's own King is the attacker when `kind` is King.
                let mut men = vec![
                    (
                        target,
                        Piece {
                            side: other,
                            kind: PieceKind::King,
                        },
                    ),
                    attacker,
                ];
                if kind != PieceKind::King {
                    men.push((
                        own_king,
                        Piece {
                            side: mover,
                            kind: PieceKind::King,
                        },
                    ));
                }
                match Position::from_setup(setup(&men, mover)) {
                    Ok(p) => {
                        accepted += 1;
                        assert!(
                            p.legal_moves().iter().all(|m| m.to() != target),
                            "{kind:?} of {mover:?} on {at} attacks the King on {target}, accepted"
                        );
                    }
                    Err(SetupError::OpponentInCheck) => {
                        refused += 1;
                        // The same men with a Knight instead of the King, which stands far.
                        let mut men = vec![
                            (
                                far_king,
                                Piece {
                                    side: other,
                                    kind: PieceKind::King,
                                },
                            ),
                            (
                                target,
                                Piece {
                                    side: other,
                                    kind: PieceKind::Knight,
                                },
                            ),
                            attacker,
                        ];
                        if kind != PieceKind::King {
                            men.push((
                                own_king,
                                Piece {
                                    side: mover,
                                    kind: PieceKind::King,
                                },
                            ));
                        }
                        if let Ok(p) = Position::from_setup(setup(&men, mover)) {
                            assert!(
                                p.legal_moves().iter().any(|m| m.to() == target),
                                "{kind:?} of {mover:?} on {at}: refused, but takes nothing on {target}"
                            );
                        }
                    }
                    Err(_) => {}
                }
            }
        }
    }
    assert!(
        refused > 100 && accepted > 1000,
        "{refused} refused, {accepted} accepted"
    );
}
