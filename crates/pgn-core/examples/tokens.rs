//! Tokenizer-only throughput over a file held in memory (the ceiling for readers).
//!
//! cargo run --release -p pgn-core --example tokens -- <file.pgn>
use pgn_core::{Next, Tokenizer};

fn main() {
    let path = std::env::args().nth(1).expect("usage: tokens <file.pgn>");
    let data = std::fs::read(&path).expect("read");
    let start = std::time::Instant::now();
    let mut tok = Tokenizer::new();
    let mut rest = &data[..];
    let mut n = 0u64;
    loop {
        let (next, used) = tok.next(rest, true);
        rest = &rest[used..];
        match next {
            Next::Token(_) => n += 1,
            _ => break,
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "tokens={n} seconds={s:.3} mib_s={:.1} lines={}",
        data.len() as f64 / 1048576.0 / s,
        tok.pos().line
    );
}
