//! Prints, per game, the export SAN of every main-line move, one game per line
//! (`file<TAB>index<TAB>san san …`), for comparison with an independent
//! implementation (`peers/python-chess-bench/oracle.py --san`).
//!
//! cargo run --release -p chess-pgn --example dump_san -- testdata/chess
use std::path::{Path, PathBuf};

use chess_pgn::Games;

fn walk(d: &Path, out: &mut Vec<PathBuf>) {
    let mut v: Vec<PathBuf> = std::fs::read_dir(d)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|e| e == "pgn") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::args().nth(1).expect("usage: dump_san <folder>"));
    let mut files = Vec::new();
    walk(&root, &mut files);
    for f in files {
        let rel = f.strip_prefix(&root).unwrap_or(&f).display().to_string();
        let Ok(file) = std::fs::File::open(&f) else {
            continue;
        };
        for (i, g) in Games::new(file).enumerate() {
            if let Ok(g) = g {
                let sans: Vec<String> = g.moves.moves.iter().map(|m| m.san.to_string()).collect();
                println!("{rel}\t{}\t{}", i + 1, sans.join(" "));
            }
        }
    }
}
