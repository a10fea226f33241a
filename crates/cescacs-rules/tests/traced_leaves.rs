//! The leaf positions where the four formerly open perft differences with the oracle
//! come from (docs/cescacs-rules-decisions.md §2.1). Each TLPD is the one the
//! author's program writes for the position (reached from the oracle entry by the
//! listed moves). Our rules must give the spec's answer; the program emulation must
//! give the program's.

use cescacs_rules::an::AnStyle;
use cescacs_rules::{Letters, Position, compat};

fn moves(pos: &Position, emulate: bool) -> Vec<String> {
    compat::set_emulate_author_program(emulate);
    let letters = Letters::default();
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_to_an_with(m, &letters, AnStyle::PROGRAM))
        .collect();
    compat::set_emulate_author_program(false);
    v.sort();
    v
}

fn load(tlpd: &str) -> Position {
    cescacs_tlpd::parse(tlpd).unwrap_or_else(|e| panic!("{tlpd}: {e}"))
}

/// #116 after `KE5-F6 E13-E9`: the double step checks the King on F6; taking the
/// checking pawn en passant (`F8@E11`) answers the check (spec §6.1, §9.16.2). The
/// program offers only captures on the checker's cell.
#[test]
fn en_passant_capture_of_the_checking_pawn() {
    let pos = load(
        "/27:rj/26:k1g/25:3r/24:1e1ep/23:2jepp/21:3ppp2/20:4n2/18:p6/17:2p5/15:2J5/12:3PP2/11:4E3/9:1d1p2P1/8:3PV2/7:3P1G2/6:3KR2/5:NP1EP1/4:R3P/3:1N2/2:G2/ w - P@E11[E9] 0 30",
    );
    assert!(pos.is_check());
    let ours = moves(&pos, false);
    assert_eq!(ours.len(), 5, "{ours:?}");
    assert!(ours.contains(&"F8@E11".to_string()), "{ours:?}");
    let program = moves(&pos, true);
    assert_eq!(program.len(), 4, "{program:?}");
    assert!(!program.iter().any(|m| m.starts_with("F8@")));
}

/// #189 after `RB16-K8`: double check by the Rook on K8 (file) and, discovered, the
/// Queen on T22 (diagonal through B16 .. E7). `KF4-G1` steps back along the Queen's
/// line, onto a cell the Queen attacks once the King has left F4.
#[test]
fn king_may_not_retreat_along_the_second_checkers_line() {
    let pos = load(
        "/26:1j1/25:1n1r/24:3e1/23:3ek1/22:d6/21:2p1p3/20:3p3/17:5p2/14:3p3/12:2E2P1/9:3P3n/8:3E1r1/7:1E2P3/6:1P5/5:1PJ1P1/4:2KEP/3:R1N1/2:2G/ w - - 2 42",
    );
    assert_eq!(pos.checkers().len(), 2);
    assert_eq!(
        moves(&pos, false),
        ["KF4-D4", "KF4-E1", "KF4-F2", "KF4-F6"].map(String::from)
    );
    assert!(moves(&pos, true).contains(&"KF4-G1".to_string()));
}

/// #123 after `KG17-F16 KD4-F4`: the white pawn F14 covers E17 and G17. It becomes
/// pinned (by the Rook on F26 against the King on F4) only once the black King has
/// left F16, so it still covers them: the program, whose pins are those of the
/// position before the move, agrees.
#[test]
fn pawn_pinned_only_after_the_king_move_still_covers() {
    let pos = load(
        "/26:1r1/22:1n5/20:p3j2/18:2p2p1/16:2ek3/14:1P1P3/11:5P2/8:1PE1P2/7:1PPP3g/5:2EEP1/4:2K2/3:R3/ b - - 2 69",
    );
    for emulate in [false, true] {
        let v = moves(&pos, emulate);
        assert_eq!(v.len(), 80, "emulate {emulate}");
        assert!(
            !v.iter()
                .any(|m| m.starts_with("KF16-E17") || m.starts_with("KF16-G17"))
        );
    }
}

/// #153 after `RE13-E19 KK16-K14`: the same with the pawn I15, the black Rook on E19
/// and the black King on F18 between them: `KF18-H18` is illegal.
#[test]
fn pawn_pinned_only_after_the_king_move_still_covers_on_a_file() {
    let pos = load("/19:3r4/18:p2k3/15:5P2/14:5K1/13:1p6/ b - - 20 123");
    for emulate in [false, true] {
        let v = moves(&pos, emulate);
        assert_eq!(v.len(), 46, "emulate {emulate}");
        assert!(!v.iter().any(|m| m.starts_with("KF18-H18")), "{v:?}");
    }
}
