//! perft from the start position: `cargo run --release --example perft -p cescacs-rules -- DEPTH [JOBS]`
//! prints the count, wall time and nodes/s (use `time` for CPU time).
use cescacs_rules::{Position, try_perft};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let jobs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let pos = Position::initial();
    let t = Instant::now();
    let nodes = match try_perft(&pos, depth, jobs) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} nodes in {secs:.3} s on {jobs} thread(s): {:.0} nodes/s",
        nodes as f64 / secs
    );
}
