//! Criterion bench: xiangqi perft from the initial position.
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use xiangqi::{Position, perft};

fn bench(c: &mut Criterion) {
    let start = Position::initial();
    let mid = Position::from_fen(
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    )
    .unwrap();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("start depth 3", |b| b.iter(|| perft(black_box(&start), 3)));
    g.bench_function("start depth 4", |b| b.iter(|| perft(black_box(&start), 4)));
    g.bench_function("middlegame depth 3", |b| {
        b.iter(|| perft(black_box(&mid), 3))
    });
    g.bench_function("legal_moves start", |b| {
        b.iter(|| black_box(&start).legal_moves().len())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
