//! Criterion benchmarks: parse-only and parse+replay of the 232-game TWIC file,
//! and the owned model (import + export), from memory.
//!
//! cargo bench -p chess-pgn --bench throughput

use std::hint::black_box;

use chess_pgn::{Games, PgnReader, Pos, Replayer, Skip, Visitor, to_pgn_string};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

struct Count;

impl Visitor for Count {
    type Output = ();
    fn begin_variation(&mut self, _at: Pos) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) {}
}

fn corpus() -> Vec<u8> {
    let p = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn"
    );
    std::fs::read(p).expect("testdata/chess present")
}

fn bench(c: &mut Criterion) {
    let data = corpus();
    let mut g = c.benchmark_group("twic-232");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            let mut r = PgnReader::new(&data[..]);
            let mut n = 0;
            while r.read_game(&mut Count).unwrap().is_some() {
                n += 1;
            }
            black_box(n)
        })
    });
    g.bench_function("replay", |b| {
        b.iter(|| {
            let mut r = PgnReader::new(&data[..]);
            let mut v = Replayer::default();
            let mut plies = 0;
            while let Some(x) = r.read_game(&mut v).unwrap() {
                plies += x.plies;
            }
            black_box(plies)
        })
    });
    g.bench_function("model-import-export", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for game in Games::new(&data[..]).flatten() {
                bytes += to_pgn_string(&game).len();
            }
            black_box(bytes)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
