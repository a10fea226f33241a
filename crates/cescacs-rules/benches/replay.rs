//! The per-ply notation path of a game replay: resolve a CTL-AN token, play it, and
//! classify the check of the position reached; and the same games through `Game`
//! (legality, repetition key, end detection). Input: the move lists of the oracle's
//! games (`../shared/oracle/games.jsonl`, through `test_support`).
//! Run with `cargo bench -p cescacs-rules --bench replay`.

use cescacs_rules::an::MoveText;
use cescacs_rules::{Game, Letters, Move, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

/// The move tokens of every game, up to the first one that does not resolve (the
/// oracle's games start from the initial position).
fn games() -> Vec<Vec<(MoveText, Move)>> {
    // The shared reference data; test_support fails loudly when it is missing.
    let text = std::fs::read_to_string(test_support::shared("oracle/games.jsonl"))
        .expect("oracle file readable");
    let letters = Letters::default();
    text.lines()
        .filter_map(|l| {
            let start = l.find("\"moves\": [")? + 10;
            let end = start + l[start..].find(']')?;
            let mut pos = Position::initial();
            let mut out = Vec::new();
            for tok in l[start..end].split(", ").map(|t| t.trim_matches('"')) {
                let Ok(mt) = MoveText::parse(tok, &letters) else {
                    break;
                };
                let Ok(r) = pos.resolve(&mt) else { break };
                pos.play_unchecked(r.mv);
                out.push((mt, r.mv));
            }
            Some(out)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let games = games();
    let plies: usize = games.iter().map(Vec::len).sum();
    eprintln!("{} games, {plies} plies", games.len());
    let mut g = c.benchmark_group("replay");
    g.sample_size(10);
    g.throughput(Throughput::Elements(plies as u64));
    g.bench_function("resolve_play_marker", |b| {
        b.iter(|| {
            let mut marks = 0usize;
            for game in &games {
                let mut pos = Position::initial();
                for (mt, _) in game {
                    let r = pos.resolve(black_box(mt)).expect("resolved before");
                    pos.play_unchecked(r.mv);
                    marks += pos.check_marker() as usize;
                }
                marks += pos.status() as usize;
            }
            marks
        })
    });
    g.bench_function("game_play", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for game in &games {
                let mut h = Game::new(Position::initial());
                for &(_, m) in game {
                    if h.play(black_box(m)).is_err() {
                        break;
                    }
                    n += 1;
                }
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
