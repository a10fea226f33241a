//! `cargo run --release --example perft -p cescacs-rules -- 4 [TLPD-free: start position]`
use cescacs_rules::{Position, perft};
use std::time::Instant;

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(4);
    let pos = Position::initial();
    let t = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} nodes in {secs:.3} s: {:.0} nodes/s",
        nodes as f64 / secs
    );
}
