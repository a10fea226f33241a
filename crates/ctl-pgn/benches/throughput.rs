//! Throughput on the oracle games concatenated into one file: parse only (bytes/s)
//! with the fast reader and with the pest reader, and parse + legal replay (plies/s).
//! Reads ../shared/oracle/games (required, through `test_support`).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::PathBuf;

fn corpus() -> (String, String) {
    let dirs = [test_support::shared("oracle/games")];
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ctl-pgn"))
            .collect();
        files.sort();
        let mut all = String::new();
        for f in &files {
            if let Ok(s) = std::fs::read_to_string(f) {
                all.push_str(&s);
                all.push('\n');
            }
        }
        if !all.is_empty() {
            return (format!("{} games from {}", files.len(), dir.display()), all);
        }
    }
    (String::from("no corpus"), String::new())
}

fn bench(c: &mut Criterion) {
    let (label, text) = corpus();
    let plies: usize = ctl_pgn::replay("bench", &text, ctl_pgn::Options::default())
        .iter()
        .map(|r| r.plies)
        .sum();
    eprintln!("corpus: {label}: {} bytes, {plies} plies", text.len());
    let mut g = c.benchmark_group("ctl-pgn");
    g.sample_size(20);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("parse", |b| b.iter(|| ctl_pgn::read_str("bench", &text)));
    g.bench_function("parse (pest)", |b| {
        b.iter(|| ctl_pgn::read_str_grammar("bench", &text))
    });
    g.throughput(Throughput::Elements(plies as u64));
    g.bench_function("parse+replay", |b| {
        b.iter(|| ctl_pgn::replay("bench", &text, ctl_pgn::Options::default()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
