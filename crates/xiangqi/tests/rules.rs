//! The xiangqi rules against published references: perft counts, legal moves, the FEN codec.
use xiangqi::{FenWarning, Position, Side, Square, Status, parse_fen, perft};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn has_move(p: &Position, from: &str, to: &str) -> bool {
    p.find_move(sq(from), sq(to)).is_some()
}

#[test]
fn perft_start_position_to_depth_4() {
    let p = Position::initial();
    let expected = [44, 1_920, 79_666, 3_290_240];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

// Published reference counts for a middlegame test position (chessprogramming.org).
#[test]
fn perft_middlegame_to_depth_4() {
    let p = Position::from_fen(
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    )
    .unwrap();
    let expected = [38, 1_128, 43_929, 1_339_047];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
fn fen_round_trip_and_tolerances() {
    let start = Position::initial();
    assert_eq!(start.to_fen(), xiangqi::START_FEN);
    let r =
        parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1").unwrap();
    assert_eq!(r.position, start);
    let bare = parse_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").unwrap();
    assert_eq!(bare.position, start);
    assert!(bare.warnings.contains(&FenWarning::MissingSide));
    let side_only = parse_fen("3aka3/2c1n4/4bP3/9/4N4/9/9/9/9/4K4 w").unwrap();
    assert!(side_only.warnings.contains(&FenWarning::MissingCounters));
    let black = parse_fen("4k4/9/9/9/9/6p2/6p2/6p2/4A4/3AK4 b - - 0 1").unwrap();
    assert_eq!(black.position.side_to_move(), Side::Black);
    assert_eq!(
        black.position.to_fen(),
        "4k4/9/9/9/9/6p2/6p2/6p2/4A4/3AK4 b - - 0 1"
    );
    let old_letters =
        Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
            .unwrap();
    assert_eq!(old_letters, start);
    assert!(Position::from_fen("rnbakabnr/9/1c5c1").is_err());
    assert!(Position::from_fen("rnbaka1nr/9/9/9/9/9/9/9/9/RNBAKABNR x").is_err());
    assert!(Position::from_fen("3a1a3/9/9/9/9/9/9/9/9/4K4 w").is_err());
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/3QK4 w").is_err());
}

#[test]
fn flying_general_is_illegal() {
    // Red's advisor is the only piece between the generals: it may not leave the file.
    let p = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
    assert!(!has_move(&p, "e1", "d2"));
    assert!(!has_move(&p, "e1", "f0"));
    // The general itself may step off the file but not stay facing.
    assert!(has_move(&p, "e0", "d0"));
}

#[test]
fn horse_leg_and_elephant_eye_block() {
    let p = Position::from_fen("3k5/9/9/9/9/9/9/9/2N6/2B1K4 w - - 0 1").unwrap();
    // Horse c1 with c0 occupied by the elephant: the jump toward c-1 is off board anyway;
    // jumps to b3/d3 need c2 empty (it is), jumps to a2/e2 need b1/d1 empty.
    assert!(has_move(&p, "c1", "b3"));
    assert!(has_move(&p, "c1", "a2"));
    let blocked = Position::from_fen("3k5/9/9/9/9/9/9/2P6/2N6/2B1K4 w - - 0 1").unwrap();
    assert!(!has_move(&blocked, "c1", "b3"));
    assert!(!has_move(&blocked, "c1", "d3"));
    // Elephant c0 to e2 is blocked by a piece on d1 (the eye); a0-type moves stay home.
    let eye = Position::from_fen("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w - - 0 1").unwrap();
    assert!(!has_move(&eye, "c0", "e2"));
    assert!(has_move(&eye, "c0", "a2"));
    // An elephant may never cross the river.
    let river = Position::from_fen("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1").unwrap();
    assert!(!has_move(&river, "c4", "a6"));
    assert!(has_move(&river, "c4", "a2"));
}

#[test]
fn cannon_needs_exactly_one_screen_to_capture() {
    let p = Position::from_fen("3k5/9/9/9/9/9/1p7/9/1C7/4K4 w - - 0 1").unwrap();
    // No screen between b1 and b3: cannot capture, only move up to b2.
    assert!(!has_move(&p, "b1", "b3"));
    assert!(has_move(&p, "b1", "b2"));
    let screened = Position::from_fen("3k5/9/9/9/9/9/1p7/1P7/1C7/4K4 w - - 0 1").unwrap();
    assert!(has_move(&screened, "b1", "b3"));
    assert!(!has_move(&screened, "b1", "b4"));
}

#[test]
fn soldiers_move_sideways_only_after_the_river() {
    let p = Position::from_fen("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1").unwrap();
    assert!(has_move(&p, "e3", "e4"));
    assert!(!has_move(&p, "e3", "d3"));
    let crossed = Position::from_fen("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1").unwrap();
    assert!(has_move(&crossed, "e5", "d5"));
    assert!(!has_move(&crossed, "e5", "e4"));
}

#[test]
fn checkmate_and_stalemate_both_lose() {
    // Two chariots mate the bare black general.
    let mate = Position::from_fen("R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(mate.is_check());
    assert_eq!(mate.status(), Status::Checkmate);
    assert_eq!(mate.winner(), Some(Side::Red));
    // Black general on d9 not in check: d8 is covered by the chariot, e9 by the
    // facing red general.
    let stale = Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!stale.is_check());
    assert_eq!(stale.status(), Status::Stalemate);
    assert_eq!(stale.winner(), Some(Side::Red));
    assert_eq!(Position::initial().status(), Status::Ongoing);
}

#[test]
fn play_updates_counters() {
    let mut p = Position::initial();
    let m = p.find_move(sq("h2"), sq("e2")).unwrap();
    p.play(m);
    assert_eq!(p.side_to_move(), Side::Black);
    assert_eq!(p.halfmove_clock(), 1);
    let m = p.find_move(sq("h9"), sq("g7")).unwrap();
    p.play(m);
    assert_eq!(p.fullmove_number(), 2);
    let capture = p.find_move(sq("e2"), sq("e6")).unwrap();
    assert!(p.captured_by(capture).is_some());
    p.play(capture);
    assert_eq!(p.halfmove_clock(), 0);
}

#[test]
fn squares_parse_and_print() {
    assert_eq!(sq("a0").index(), 0);
    assert_eq!(sq("i9").index(), 89);
    assert_eq!(sq("h2").to_string(), "h2");
    assert!("j0".parse::<Square>().is_err());
    assert!("a10".parse::<Square>().is_err());
    assert!(Square::new(9, 0).is_none());
    assert_eq!(Square::all().count(), 90);
}

#[test]
fn a_fen_whose_side_not_to_move_is_in_check_is_refused() {
    // The red chariot on e5 gives check to the black general on e9.
    let red_to_move = "4k4/9/9/9/4R4/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(
        Position::from_fen(red_to_move).unwrap_err(),
        xiangqi::FenError::OpponentInCheck
    );
    assert!(Position::from_fen(&red_to_move.replace(" w ", " b ")).is_ok());
    // Generals facing on an open file: whoever is to move could take the other.
    for side in ["w", "b"] {
        let facing = format!("4k4/9/9/9/9/9/9/9/9/4K4 {side} - - 0 1");
        assert_eq!(
            parse_fen(&facing).unwrap_err(),
            xiangqi::FenError::FacingGenerals,
            "{facing}"
        );
    }
    assert!(parse_fen("4k4/9/9/9/4p4/9/9/9/9/4K4 w - - 0 1").is_ok());
}
