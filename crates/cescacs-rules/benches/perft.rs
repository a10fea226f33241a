use cescacs_rules::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let start = Position::initial();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("perft3_start", |b| b.iter(|| perft(&start, 3)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
