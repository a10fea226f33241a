//! Throughput of chess-pgn on one PGN file, in the output format shared with the
//! benchmark peers (`peers/run-chess-bench.sh` parses it).
//!
//! cargo run --release -p chess-pgn --example throughput -- <file.pgn> parse|replay|check
//!
//! `parse`: tokens, tags and SAN parsed for every game, variations skipped (as the
//! pgn-reader peer does by default). `replay`: additionally every main-line move
//! resolved against the legal moves and played on cozy-chess. `check`: what
//! `cescacs check` runs on each game, the model builder with keeping switched off
//! (variations and tags checked too), over the whole file without the batch engine.

use std::fs::File;
use std::time::Instant;

use chess_pgn::{PgnReader, Pos, Replayer, Skip, Visitor};

struct Count;

impl Visitor for Count {
    type Output = ();
    fn begin_variation(&mut self, _at: Pos) -> Skip {
        Skip(true)
    }
    fn end_game(&mut self) {}
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 || !matches!(args[2].as_str(), "parse" | "replay" | "check") {
        eprintln!("usage: throughput <file.pgn> parse|replay|check");
        std::process::exit(2);
    }
    let path = &args[1];
    let bytes = std::fs::metadata(path)?.len();
    let start = Instant::now();
    let mut reader = PgnReader::new(File::open(path)?);
    let mut games = 0u64;
    let mut errors = 0u64;
    if args[2] == "parse" {
        while reader.read_game(&mut Count)?.is_some() {
            games += 1;
        }
    } else if args[2] == "check" {
        let mut b = chess_pgn::GameBuilder::check_only();
        while let Some(g) = reader.read_game(&mut b)? {
            games += 1;
            errors += u64::from(g.is_err());
        }
    } else {
        let mut r = Replayer::default();
        while let Some(g) = reader.read_game(&mut r)? {
            games += 1;
            errors += u64::from(g.error.is_some());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!(
        "tool=chess-pgn mode={} bytes={} games={} seconds={:.3} mib_s={:.2} games_s={:.0} errors={}",
        args[2],
        bytes,
        games,
        secs,
        mib / secs,
        games as f64 / secs,
        errors
    );
    Ok(())
}
