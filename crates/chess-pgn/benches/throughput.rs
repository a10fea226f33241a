//! Criterion benchmarks of the 232-game TWIC file, from memory: headers only (tags
//! kept, movetext tokenised but not parsed), parse-only (moves parsed, not played),
//! parse+replay, and the owned model (import + export).
//!
//! cargo bench -p chess-pgn --bench throughput

use std::hint::black_box;

use chess_pgn::{Games, Headers, PgnReader, Pos, Replayer, Skip, Visitor, to_pgn_string};
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
    // The floor: pgn-core's tokenizer alone over the whole buffer.
    g.bench_function("tokenise", |b| {
        b.iter(|| {
            let mut tok = pgn_core::Tokenizer::new();
            let mut rest = &data[..];
            let mut n = 0usize;
            loop {
                let (next, used) = tok.next(rest, true);
                rest = &rest[used..];
                match next {
                    pgn_core::Next::Token(_) => n += 1,
                    _ => break,
                }
            }
            black_box(n)
        })
    });
    // Tags only (movetext tokenised, not parsed): the path of tag filters.
    g.bench_function("headers-only", |b| {
        b.iter(|| {
            let mut n = 0;
            for h in Headers::new(&data[..]) {
                n += h.unwrap().len();
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
