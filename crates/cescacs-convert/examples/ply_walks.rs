//! The per-ply columns (`uci`, `clocks`, `evals`) two ways on the same games: the flat
//! replay of `ply_columns.rs` (what the Arrow reader uses) and the move tree's walk
//! (`move_tree`, what Python's `Move` objects use). Checks that both give the same
//! values and prints the time of each.
//!
//! `cargo run --release -p cescacs-convert --example ply_walks -- FILE.pgn [REPEAT]`

use cescacs_convert::{Format, Record, Score, move_tree};
use std::time::Instant;

type Columns = (Vec<String>, Vec<Option<f64>>, Vec<Option<Score>>);

fn flat(r: &Record) -> Option<Columns> {
    Some((r.uci_line()?, r.clocks()?, r.evals()?))
}

fn tree(r: &Record) -> Option<Columns> {
    let t = move_tree(r, false).ok()?;
    let moves: Vec<_> = t
        .main_line()
        .filter_map(|i| t.nodes[i].mv.as_ref())
        .collect();
    Some((
        moves.iter().map(|m| m.uci().to_string()).collect(),
        moves.iter().map(|m| m.clock).collect(),
        moves.iter().map(|m| m.eval).collect(),
    ))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read(&args[1]).expect("a PGN file");
    let repeat: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(3);
    // Games cut at a tag line after a blank line: enough for a measurement.
    let text = String::from_utf8_lossy(&text).replace("\r\n", "\n");
    let records: Vec<Record> = text
        .split("\n\n[")
        .enumerate()
        .map(|(i, g)| {
            let g = if i == 0 {
                g.to_string()
            } else {
                format!("[{g}")
            };
            Record::from_bytes(Format::Pgn, g.as_bytes())
        })
        .filter(|r| r.game().is_some())
        .collect();
    let (mut same, mut differ, mut plies) = (0, 0, 0);
    for r in &records {
        match (flat(r), tree(r)) {
            (Some(a), Some(b)) if a == b => {
                same += 1;
                plies += a.0.len();
            }
            (None, None) => {}
            _ => differ += 1,
        }
    }
    println!(
        "{} games read, {same} equal both ways ({plies} plies), {differ} differ",
        records.len()
    );
    for (name, f) in [
        (
            "flat replay (ply_columns)",
            flat as fn(&Record) -> Option<Columns>,
        ),
        ("move tree walk", tree),
    ] {
        let mut best = f64::MAX;
        for _ in 0..repeat {
            let t = Instant::now();
            let n: usize = records.iter().filter_map(f).map(|c| c.0.len()).sum();
            best = best.min(t.elapsed().as_secs_f64());
            std::hint::black_box(n);
        }
        println!(
            "{name}: {:.1} ms, {:.0} plies/s",
            best * 1e3,
            plies as f64 / best
        );
    }
}
