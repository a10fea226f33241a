//! The model builder's export SAN (taken from the written move when that is exact,
//! spelt by `SanPlus::from_move` otherwise) against `SanPlus::from_move` on the position
//! before the move, for every move of every line of every classic test game, and the
//! builder told that no variation can start against the default one.

use std::fs;
use std::path::{Path, PathBuf};

use chess_pgn::cozy_chess::Board;
use chess_pgn::{After, Game, GameBuilder, Games, Line, PgnReader, SanPlus};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess")
}

/// Moves of `line` (from `start`) and of its variations compared; returns how many.
fn compare_line(line: &Line, start: &Board, what: &str) -> usize {
    let mut seen = 0;
    for ply in line.plies(start) {
        if let Some(mv) = ply.mv() {
            let expected = SanPlus::from_move(&ply.before, mv);
            assert_eq!(
                (ply.node.san.san, ply.node.san.suffix),
                (expected.san, expected.suffix),
                "{what}: {} before {}",
                ply.node.san,
                ply.before
            );
            seen += 1;
        }
        for v in ply.variations() {
            seen += compare_line(v, &ply.before, what);
        }
    }
    seen
}

fn games() -> Vec<(String, Vec<u8>)> {
    let files = test_support::files_with_extension(&root(), "pgn");
    assert!(files.len() >= 20, "testdata missing");
    files
        .into_iter()
        .map(|p| (p.display().to_string(), fs::read(&p).unwrap()))
        .collect()
}

#[test]
fn export_san_is_from_move_on_every_testdata_move() {
    let mut moves = 0;
    for (name, bytes) in games() {
        for (i, g) in Games::new(&bytes[..]).enumerate() {
            let Ok(g) = g else { continue };
            moves += compare_line(&g.moves, &g.start, &format!("{name} game {}", i + 1));
        }
    }
    // Hand-written moves that take each way: a piece named alone, over-disambiguated,
    // disambiguation needed, a pinned rival, a capture, castling written as a king
    // move, promotion, check and mate.
    let hand = b"1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4 5. Re1 Nd6 6. Nc3 Nxb5 \
        7. Nxe5 Nxe5 8. Rxe5+ Be7 9. Nd5 O-O 10. Nxe7+ Kh8 11. Qh5 g6 12. Qh6 d6 \
        13. Qxf8# 1-0\n\n\
        1. d4 d5 2. Nd2 Nf6 3. Ngf3 Nbd7 4. N2b3 c6 5. Nbd2 e6 6. e4 dxe4 7. Nxe4 Nxe4 *\n\n\
        [FEN \"4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n[SetUp \"1\"]\n\n\
        1. b8=Q+ Kd7 2. Kg1 Kc6 3. Rxa7?! Kd5 4. Qb7+ *\n";
    for (i, g) in Games::new(&hand[..]).enumerate() {
        let g = g.unwrap();
        assert!(
            g.diagnostics.iter().all(|d| d.code == "chess.result"),
            "hand game {}: {:?}",
            i + 1,
            g.diagnostics
        );
        moves += compare_line(&g.moves, &g.start, &format!("hand game {}", i + 1));
    }
    assert!(moves > 10_000, "only {moves} moves compared");
}

fn read(bytes: &[u8], builder: &mut GameBuilder) -> Vec<Game> {
    let mut reader = PgnReader::new(bytes);
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(builder).unwrap() {
        if let Ok(g) = g {
            out.push(g);
        }
    }
    out
}

#[test]
fn a_game_without_a_paren_reads_the_same_told_it_has_no_variations() {
    let mut compared = 0;
    for (name, bytes) in games() {
        if bytes.contains(&b'(') {
            continue;
        }
        let mut told = GameBuilder::default();
        told.set_variations_possible(false);
        let (a, b) = (
            read(&bytes, &mut GameBuilder::default()),
            read(&bytes, &mut told),
        );
        assert_eq!(a, b, "{name}");
        compared += a.len();
    }
    assert!(compared > 100, "only {compared} games compared");
    // A variation where none was said to be possible is skipped with a warning, in the
    // model as when checking.
    let mut told = GameBuilder::default();
    told.set_variations_possible(false);
    let g = &read(b"1. e4 e5 (1... c5) 2. Nf3 *", &mut told)[0];
    assert!(
        g.moves
            .moves
            .iter()
            .all(|m| !m.after.iter().any(|a| matches!(a, After::Variation(_))))
    );
    assert_eq!(
        g.diagnostics[0].message,
        "variation in a game said to have none skipped"
    );
}
