//! perft(4) from the start, legal move generation over the oracle positions, and
//! the cost of make/unmake. Run with `cargo bench -p cescacs-rules`.

use cescacs_rules::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn oracle_positions() -> Vec<Position> {
    // The shared reference data; test_support fails loudly when it is missing.
    let text = std::fs::read_to_string(test_support::shared("oracle/positions.jsonl"))
        .expect("oracle file readable");
    let mut v: Vec<Position> = text
        .lines()
        .filter_map(|l| {
            let start = l.find("\"tlpd\":\"")? + 8;
            let end = start + l[start..].find('"')?;
            cescacs_tlpd::parse(&l[start..end]).ok()
        })
        .collect();
    if v.is_empty() {
        v.push(Position::initial());
    }
    v
}

fn bench(c: &mut Criterion) {
    let start = Position::initial();
    let mut g = c.benchmark_group("cescacs");
    g.sample_size(10);
    g.bench_function("perft4_start", |b| b.iter(|| perft(black_box(&start), 4)));
    let positions = oracle_positions();
    eprintln!("movegen over {} oracle positions", positions.len());
    g.bench_function("legal_moves_oracle_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| p.legal_moves().len())
                .sum::<usize>()
        })
    });
    let mut pos = start.clone();
    let moves = start.legal_moves();
    g.bench_function("make_unmake_all_start_moves", |b| {
        b.iter(|| {
            for &m in moves.iter() {
                let u = pos.make(black_box(m));
                pos.unmake(u);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
