//! The tolerated move spellings of spec §6 that pgn-extract reads: `e8(Q)`,
//! `Kh1`/`Kxh1`/`Kg1` for castling, `exd6e.p.` without a space.

use chess_pgn::{Games, Severity, to_pgn_string};

fn one(pgn: &str) -> chess_pgn::Game {
    let mut all: Vec<_> = Games::new(pgn.as_bytes()).collect();
    assert_eq!(all.len(), 1, "{pgn}");
    all.remove(0).expect("modelled")
}

fn sans(g: &chess_pgn::Game) -> String {
    g.moves
        .moves
        .iter()
        .map(|m| m.san.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn promotion_in_parentheses() {
    for (written, want) in [
        ("a8(Q)", "a8=Q+"),
        ("a8(N)", "a8=N"),
        ("a8(Q)+", "a8=Q+"),
        ("a7a8(R)", "a8=R+"),
    ] {
        let g = one(&format!(
            "[FEN \"7k/P7/8/8/8/8/8/K7 w - - 0 1\"]\n1. {written} Kh7 *"
        ));
        assert!(
            g.errors().next().is_none(),
            "{written}: {:?}",
            g.diagnostics
        );
        assert_eq!(sans(&g), format!("{want} Kh7"), "{written}");
        assert!(
            g.moves.moves[0].after.is_empty(),
            "no variation made of (Q)"
        );
    }
    // Black, a capture, and `(Q)` across the end of a read buffer: a reader fed one
    // byte at a time must see the same.
    let pgn = "[FEN \"4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1\"]\n1... bxa1(Q)# *";
    let g = one(pgn);
    assert_eq!(sans(&g), "bxa1=Q+");
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() || buf.is_empty() {
                return Ok(0);
            }
            buf[0] = self.0[0];
            self.0 = &self.0[1..];
            Ok(1)
        }
    }
    let g2 = Games::new(Trickle(pgn.as_bytes())).next().unwrap().unwrap();
    assert!(g2.same_content(&g));
    // A real variation after a promotion stays a variation.
    let g = one("[FEN \"7k/P7/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8=Q+ (1. Kb2) Kh7 *");
    assert_eq!(g.moves.moves[0].after.len(), 1);
    // `(Q)` after a move that is not a promotion is still a (bad) variation, reported.
    let g = one("1. e4 (Q) e5 *");
    assert!(g.errors().next().is_some());
}

#[test]
fn king_moves_written_for_castling() {
    let pre = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5";
    for castle in ["Kg1", "Kh1", "Kxh1", "Ke1h1", "O-O", "0-0", "e1g1"] {
        let g = one(&format!("{pre} 4. {castle} Nf6 *"));
        assert!(g.errors().next().is_none(), "{castle}: {:?}", g.diagnostics);
        assert_eq!(sans(&g), "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6", "{castle}");
    }
    // Not legal castling (pieces between king and rook): still an error.
    let g = one("1. e4 e5 2. Kxh1 *");
    assert_eq!(g.errors().count(), 1);
    // Queen side for Black.
    let g = one("[FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 1\"]\n1... Kxa8 *");
    assert_eq!(sans(&g), "O-O-O");
    let g = one("[FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 1\"]\n1... Kc8 *");
    assert_eq!(sans(&g), "O-O-O");
}

#[test]
fn en_passant_marker_glued_to_the_move() {
    let pre = "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n2. ";
    for written in ["exd6e.p.", "exd6 e.p.", "exd6ep", "exd6 ep"] {
        let g = one(&format!("{pre}{written} Kd7 *"));
        assert!(
            g.errors().next().is_none(),
            "{written}: {:?}",
            g.diagnostics
        );
        assert_eq!(sans(&g), "exd6 Kd7", "{written}");
        assert!(
            to_pgn_string(&g).contains("2. exd6 Kd7 *"),
            "{}",
            to_pgn_string(&g)
        );
    }
    // The marker is reported as dropped (a warning), once.
    let g = one(&format!("{pre}exd6e.p. Kd7 *"));
    let w: Vec<_> = g
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning && d.message.contains("en passant"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", g.diagnostics);
}
