//! Prints perft node counts, time and speed from the start position (or a FEN).
//!
//! `cargo run --release -p xiangqi --example xiangqi_perft -- 5 [FEN]`; the environment
//! variable `PERFT_JOBS` shares the root moves among that many threads.

use std::time::Instant;

use xiangqi::{Position, try_perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen: Vec<String> = args.collect();
    let pos = if fen.is_empty() {
        Position::initial()
    } else {
        match Position::from_fen(&fen.join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad FEN: {e}");
                std::process::exit(2);
            }
        }
    };
    let jobs: usize = std::env::var("PERFT_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or(1);
    for d in 1..=depth {
        let start = Instant::now();
        let nodes = match try_perft(&pos, d, jobs) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        };
        let secs = start.elapsed().as_secs_f64();
        println!(
            "depth {d}  nodes {nodes:>12}  {secs:>8.3} s  {:>12.0} nodes/s",
            nodes as f64 / secs.max(1e-9)
        );
    }
}
