//! Worked examples of spec §10 and appendix B that the oracle does not cover.

use cescacs_rules::an::MoveText;
use cescacs_rules::{CheckMarker, Letters, MoveKind, Position, Status};

fn pos(s: &str) -> Position {
    cescacs_tlpd::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn play(p: &Position, token: &str) -> Position {
    let t = MoveText::parse(token, &Letters::default()).unwrap();
    let r = p.resolve(&t).unwrap_or_else(|e| panic!("{token}: {e}"));
    p.after(r.mv)
}

fn an(p: &Position) -> Vec<String> {
    let l = Letters::default();
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|&m| p.move_to_an(m, &l))
        .collect();
    v.sort();
    v
}

#[test]
fn all_24_castlings_on_the_appendix_b_board() {
    let p = pos("/27:1k/25:r3/3:R2R/1:1K/ w RKRrkr - 0 1");
    let castlings: Vec<_> = p
        .legal_moves()
        .iter()
        .filter(|m| m.kind() == MoveKind::Castling)
        .map(|m| m.castling_name().unwrap())
        .collect();
    assert_eq!(castlings.len(), 24, "{castlings:?}");
}

#[test]
fn scornful_pawn_example_10_14() {
    let p = pos("/27:1k/15:4p3/13:4P3/1:1K/ w -- - 0 30");
    let p = play(&p, "G13-F14");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/27:1k/15:4p3/14:3P3/1:1K/ b -- F14 0 30"
    );
    let pawn: Vec<String> = an(&p)
        .into_iter()
        .filter(|m| m.starts_with("G15"))
        .collect();
    assert_eq!(pawn, ["G15-G11", "G15-G13", "G15-H14", "G15@F14"]);
    let p = play(&p, "G15@F14");
    assert_eq!(cescacs_tlpd::write(&p), "/27:1k/14:3p3/1:1K/ w -- - 0 31");
}

#[test]
fn awaiting_and_forced_promotion_example_10_15() {
    let p = pos("/26:1P1/24:4k/11:2r5/6:3J3/4:2J2/3:RNNR/2:GJG/1:DK/0:V/ w -- - 0 40");
    let pawn: Vec<String> = an(&p)
        .into_iter()
        .filter(|m| m.starts_with("F26"))
        .collect();
    assert_eq!(pawn, ["F26-E27=&", "F26-F28=&", "F26-G27=&"]);
    let p = play(&p, "F26-F28=&");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/28:P/24:4k/11:2r5/6:3J3/4:2J2/3:RNNR/2:GJG/1:DK/0:V/ b -- - 0 40"
    );
    let p = play(&p, "RC11×RC3");
    // The spec lists the move without its marker; the new Rook on F28 checks K24
    // along G27-H26-I25 (a blockable check from afar).
    assert_eq!(an(&p), ["F28=R+∞"]);
    let p = play(&p, "F28=R");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/28:R/24:4k/6:3J3/4:2J2/3:rNNR/2:GJG/1:DK/0:V/ b -- - 0 41"
    );
}

#[test]
fn double_check_and_mate_examples_10_10_and_10_11() {
    let p = pos(
        "/26:2n/24:1kVJp/23:3epp/22:2eN3/20:2jpen1/19:4p3/17:6N1/16:4p2/12:1P5/8:1d5/7:4P3/6:1G2P2/5:3EPP/4:3EP/3:3R/2:1JG/1:1K/ w KR- - 11 54",
    );
    let p = play(&p, "VF24-D26++");
    assert_eq!(p.check_marker(), CheckMarker::Double);
    assert_eq!(an(&p), ["KD24-E23"]);
    let p = pos(
        "/27:1k/26:eej/25:2n1/24:pD1j1/23:p5/22:3j3/21:4n1G1/20:3pe2/19:4g3/18:5p1/17:5p2/16:g2rpJN/15:5P2/14:4P2/13:4p3/12:3d3/11:4PE1V/10:2P4/9:3p4/8:N1E4/7:3R4/5:P4P/4:3EP/3:2G1/2:1J1/1:1K/ b Kk - 6 43",
    );
    let l = Letters::default();
    let t = MoveText::parse("DF12×JF2#", &l).unwrap();
    let r = p.resolve(&t).unwrap();
    assert!(r.warnings.is_empty());
    assert_eq!(p.after(r.mv).status(), Status::Checkmate);
}

#[test]
fn en_passant_examples_10_2_and_10_4() {
    let p = pos(
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/20:3e3/16:3P3/13:4P3/12:3p3/8:3E3/6:2PJP2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr G13@9-11 0 5",
    );
    let p = play(&p, "F12@@G9");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/20:3e3/16:3P3/9:4p3/8:3E3/6:2PJP2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 6"
    );
    let p = pos(
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:p2epp/22:3jp2/21:4p3/20:3p3/16:2p4/15:2pP4/14:2P4/8:3P3/7:4P3/6:3JP2/5:P2EPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr D16@18-20 0 9",
    );
    let p = play(&p, "E15@D18");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:p2epp/22:3jp2/21:4p3/20:3p3/18:2P4/15:2p5/14:2P4/8:3P3/7:4P3/6:3JP2/5:P2EPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr - 0 9"
    );
}

#[test]
fn castling_examples_10_6_to_10_8() {
    let p = pos(
        "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPD3/4:PE1EP/3:R3/2:2R/1:1K/0:V/ b RKrkr - 0 21",
    );
    let p = play(&p, "KRD-DE");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/28:v/27:r1/26:kjg/25:2nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPD3/4:PE1EP/3:R3/2:2R/1:1K/0:V/ w RK- - 1 22"
    );
    let p = pos(
        "/27:1k/25:1n1r/24:4p/23:3epp/22:2e2N1/20:2jpe2/19:4p3/18:2N4/16:4p2/15:5n2/12:1PJ4/8:1d5/7:4P3/6:1G2P2/5:3EPP/4:3EP/3:3R/2:1JG/1:VK/ b KRkr - 3 46",
    );
    let p = play(&p, "KRK-HH");
    assert_eq!(
        cescacs_tlpd::write(&p),
        "/25:1n2/24:3rp/23:3epp/22:2e1kN1/20:2jpe2/19:4p3/18:2N4/16:4p2/15:5n2/12:1PJ4/8:1d5/7:4P3/6:1G2P2/5:3EPP/4:3EP/3:3R/2:1JG/1:VK/ w KR- - 4 47"
    );
}

#[test]
fn stalemate_is_scored_2_1_not_a_draw() {
    // Black King F28; the Queen on H24 and the Elephant on G21 cover its five cells.
    let p = pos("/28:k/24:3D1/21:3E4/2:1K1/ b -- - 0 60");
    assert_eq!(p.status(), Status::Stalemate);
    assert!(p.legal_moves().is_empty());
    let g = cescacs_rules::Game::new(p);
    assert_eq!(g.result().as_str(), "2-1");
    assert_eq!(g.result().points(), Some((2, 1)));
    assert_eq!(
        g.outcome().map(|o| o.1),
        Some(cescacs_rules::Termination::Stalemate)
    );
}

#[test]
fn insufficient_material_and_move_rules() {
    let lone = pos("/28:k/2:1KJ/ w -- - 0 60");
    let g = cescacs_rules::Game::new(lone);
    assert_eq!(g.result().as_str(), "1-1");
    let clock = pos("/28:k/24:3D1/2:1K1/ w -- - 150 90");
    let g = cescacs_rules::Game::new(clock);
    assert_eq!(
        g.outcome().map(|o| o.1),
        Some(cescacs_rules::Termination::SeventyFiveMoves)
    );
    let claim = pos("/28:k/24:3D1/2:1K1/ w -- - 100 90");
    let g = cescacs_rules::Game::new(claim);
    assert_eq!(g.outcome(), None);
    assert_eq!(
        g.claimable_draw(),
        Some(cescacs_rules::DrawClaim::FiftyMoves)
    );
}
