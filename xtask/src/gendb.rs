//! A large, realistic C'escacs database for throughput and memory measurements: the
//! oracle games' openings followed by random legal continuations, written by our own
//! CTL-PGN writer. Deterministic for a seed.

use cescacs_rules::an::MoveText;
use cescacs_rules::{Letters, Position, Side, Status};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A small, fast, seedable generator (SplitMix64); quality is ample for picking moves.
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

/// Opening move lists (CTL-AN) of the oracle games.
fn openings() -> Result<Vec<Vec<String>>, String> {
    let candidates: Vec<PathBuf> = [
        crate::shared().map(|s| s.join("oracle/games.jsonl")),
        Some(crate::root().join("testdata/cescacs/games.jsonl")),
    ]
    .into_iter()
    .flatten()
    .collect();
    let path = candidates
        .iter()
        .find(|p| p.is_file())
        .ok_or("no oracle games.jsonl found")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(moves) = v["moves"].as_array() {
            out.push(
                moves
                    .iter()
                    .filter_map(|m| m.as_str().map(str::to_string))
                    .collect(),
            );
        }
    }
    if out.is_empty() {
        return Err(format!("{}: no games", path.display()));
    }
    Ok(out)
}

/// One game as CTL-PGN text, canonicalised by the ctl-pgn writer.
fn game_text(index: u64, seed: u64, openings: &[Vec<String>]) -> String {
    let mut rng = Rng(seed ^ index.wrapping_mul(0xA076_1D64_78BD_642F));
    let letters = Letters::default();
    let opening = &openings[rng.below(openings.len())];
    let prefix = rng.below(opening.len().min(40) + 1);
    let plies = 20 + rng.below(140);
    let mut position = Position::initial();
    let mut moves: Vec<String> = Vec::with_capacity(plies);
    for ply in 0..plies {
        let legal = position.legal_moves();
        if legal.is_empty() || position.status() != Status::Ongoing {
            break;
        }
        // Follow the oracle opening while it lasts (resolving its text through the rules
        // crate), then play at random.
        let chosen = opening
            .get(ply)
            .filter(|_| ply < prefix)
            .and_then(|text| MoveText::parse(text, &letters).ok())
            .and_then(|text| position.resolve(&text).ok())
            .map(|r| r.mv);
        let m = chosen.unwrap_or_else(|| legal[rng.below(legal.len())]);
        moves.push(position.move_to_an(m, &letters));
        position.play_unchecked(m);
    }
    let mut raw = format!(
        "[Variant \"C'escacs\"]\n[Event \"Generated database\"]\n[Site \"cargo xtask gen-db\"]\n[Round \"{index}\"]\n[White \"Random\"]\n[Black \"Random\"]\n\n"
    );
    for (i, pair) in moves.chunks(2).enumerate() {
        raw.push_str(&format!("{}. {}", i + 1, pair[0]));
        if let Some(black) = pair.get(1) {
            raw.push_str(&format!(", {black}"));
        }
        raw.push('\n');
    }
    // Mate scores 3-0/0-3 and stalemate 2-1/1-2 for the side that delivered it (spec §6.2).
    let white_to_move = position.side_to_move() == Side::White;
    raw.push_str(match (position.status(), white_to_move) {
        (Status::Checkmate, true) => "0-3\n",
        (Status::Checkmate, false) => "3-0\n",
        (Status::Stalemate, true) => "1-2\n",
        (Status::Stalemate, false) => "2-1\n",
        _ => "*\n",
    });
    match ctl_pgn::read_game(&raw) {
        Ok(game) => ctl_pgn::write_game(&game.canonical(), ctl_pgn::Form::Canonical),
        // Our own generator wrote it: failing to read it back is a bug worth stopping for.
        Err(e) => panic!("generated game {index} does not read back: {e}\n{raw}"),
    }
}

/// Writes games until `games` are written; returns bytes written.
pub fn generate(out: &Path, games: u64, seed: u64) -> Result<u64, String> {
    let openings = openings()?;
    let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut written = 0u64;
    let chunk = 4096u64;
    let mut start = 0u64;
    while start < games {
        let end = (start + chunk).min(games);
        let texts: Vec<String> = (start..end)
            .into_par_iter()
            .map(|i| game_text(i + 1, seed, &openings))
            .collect();
        for t in texts {
            w.write_all(t.as_bytes()).map_err(|e| e.to_string())?;
            w.write_all(b"\n").map_err(|e| e.to_string())?;
            written += t.len() as u64 + 1;
        }
        start = end;
    }
    w.flush().map_err(|e| e.to_string())?;
    Ok(written)
}

/// Writes games until the file holds at least `megabytes` MB; returns (games, bytes).
pub fn generate_size(out: &Path, megabytes: u64, seed: u64) -> Result<(u64, u64), String> {
    // About 1.1 kB per game; measure a sample to size the run.
    let sample = std::env::temp_dir().join("cescacs-gen-sample.ctl-pgn");
    let bytes = generate(&sample, 2000, seed)?;
    let _ = std::fs::remove_file(&sample);
    let games = (megabytes * 1_000_000).div_ceil(bytes / 2000).max(1);
    let bytes = generate(out, games, seed)?;
    Ok((games, bytes))
}

pub fn cli(args: &[String]) -> Result<bool, String> {
    let games: u64 = crate::flag(args, "--games")?.ok_or("--games N is required")?;
    let out: PathBuf = crate::flag(args, "--out")?.ok_or("--out FILE is required")?;
    let seed: u64 = crate::flag(args, "--seed")?.unwrap_or(20261122);
    let started = std::time::Instant::now();
    let bytes = generate(&out, games, seed)?;
    eprintln!(
        "wrote {games} games, {:.1} MB, to {} in {:.1} s",
        bytes as f64 / 1e6,
        out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(true)
}
