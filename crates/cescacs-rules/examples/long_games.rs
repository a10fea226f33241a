//! Writes random but complete-looking CTL-PGN games of a chosen length, for the
//! scaling check of repetition tracking (`cescacs check` of a few very long games must
//! cost per byte what many short games cost):
//!
//! `cargo run --release -p cescacs-rules --example long_games -- GAMES PLIES [SEED] > f.ctl-pgn`
//!
//! To last, a game avoids captures and plays a pawn step only every ~100 plies (so the
//! 75-move rule never ends it), never repeats a position three times, and never plays
//! a move that ends the game; such a game needs about one irreversible move per 100
//! plies, so tens of thousands of plies are reachable.

use cescacs_rules::{Game, Letters, Move, PieceKind, Position};
use std::io::Write;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn is_pawn_move(p: &Position, m: Move) -> bool {
    p.piece_at(m.from())
        .is_some_and(|x| x.kind == PieceKind::Pawn)
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let plies: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(19_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let letters = Letters::default();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut shortest = usize::MAX;
    for g in 0..games {
        let mut rng = Rng(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let mut game = Game::new(Position::initial());
        let mut text = Vec::with_capacity(plies);
        while text.len() < plies {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            let want_pawn = pos.halfmove_clock() >= 100;
            let mut candidates: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| !m.is_capture() && is_pawn_move(&pos, m) == want_pawn)
                .collect();
            if candidates.is_empty() {
                candidates = legal.to_vec();
            }
            let mut played = false;
            for _ in 0..candidates.len() * 2 {
                let m = candidates[rng.below(candidates.len())];
                let mut trial = game.clone();
                if trial.play(m).is_ok()
                    && trial.outcome().is_none()
                    && trial.repetition_count() < 3
                {
                    text.push(pos.move_to_an(m, &letters));
                    game = trial;
                    played = true;
                    break;
                }
            }
            if !played {
                break;
            }
        }
        shortest = shortest.min(text.len());
        writeln!(out, "[Event \"long game {g}\"]")?;
        writeln!(out, "[Variant \"C'escacs\"]")?;
        writeln!(out, "[Result \"*\"]")?;
        writeln!(out)?;
        for (i, pair) in text.chunks(2).enumerate() {
            match pair {
                [w, b] => writeln!(out, "{}. {w}, {b}", i + 1)?,
                [w] => writeln!(out, "{}. {w}", i + 1)?,
                _ => {}
            }
        }
        writeln!(out, "*\n")?;
    }
    out.flush()?;
    eprintln!("{games} games, shortest {shortest} plies");
    Ok(())
}
