//! Issue 13: time (best of several runs) and peak memory of the owned-model reader on generated hostile
//! inputs of 10k, 100k and 1M units, with the ratio between neighbours (10x input
//! should cost about 10x time). Run in release:
//!
//! cargo run --release -p chess-pgn --example scaling
use std::io::Read;
use std::time::Instant;

use chess_pgn::Games;

/// Peak resident memory so far (Linux), in MiB.
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// A reader that hands out at most 4 KiB per call, like a pipe.
struct Pipe<'a>(&'a [u8]);

impl Read for Pipe<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(4096).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fn family(name: &str, n: usize) -> Vec<u8> {
    let mut s = String::from("[Event \"scaling\"]\n\n1. e4 ");
    match name {
        "nested-variations" => {
            s.push_str(&"( e4 ".repeat(n));
            s.push_str(&")".repeat(n));
        }
        "comment-run" => s.push_str(&"{a} ".repeat(n)),
        "one-huge-comment" => {
            s.push('{');
            s.push_str(&"x ".repeat(n));
            s.push('}');
        }
        "dots" => s.push_str(&".".repeat(n)),
        "ellipses" => s.push_str(&"1... ".repeat(n)),
        "nags" => s.push_str(&"$1 ".repeat(n)),
        "sibling-variations" => s.push_str(&"(1. d4 d5) ".repeat(n)),
        "knight-shuffle" => {
            s.clear();
            s.push_str("[Event \"scaling\"]\n\n");
            for _ in 0..n / 4 {
                s.push_str("Nf3 Nf6 Ng1 Ng8 ");
            }
        }
        "stray-words" => s.push_str(&"junk ".repeat(n)),
        _ => unreachable!(),
    }
    s.push_str(" *\n");
    s.into_bytes()
}

fn main() {
    // Optional arguments: family names to run (default: all).
    let only: Vec<String> = std::env::args().skip(1).collect();
    let families = [
        "nested-variations",
        "comment-run",
        "one-huge-comment",
        "dots",
        "ellipses",
        "nags",
        "sibling-variations",
        "knight-shuffle",
        "stray-words",
    ];
    println!("| family | n | bytes | time (ms, best run) | ratio | peak RSS (MiB) |");
    println!("|---|---|---|---|---|---|");
    let sizes: Vec<usize> = std::env::var("SCALING_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![10_000, 100_000, 1_000_000]);
    for f in families {
        if !only.is_empty() && !only.iter().any(|o| o == f) {
            continue;
        }
        let mut prev: Option<f64> = None;
        for &n in &sizes {
            let data = family(f, n);
            // Best of at least three runs and 300 ms: the machine is shared, and the
            // fastest run is the one least disturbed.
            let mut ms = f64::MAX;
            let mut games = 0;
            let start = Instant::now();
            let mut runs = 0;
            while runs < 3 || start.elapsed().as_millis() < 300 {
                let t = Instant::now();
                games = 0;
                for g in Games::new(Pipe(&data)) {
                    std::hint::black_box(&g);
                    games += 1;
                }
                ms = ms.min(t.elapsed().as_secs_f64() * 1e3);
                runs += 1;
            }
            assert_eq!(games, 1, "{f} {n}");
            let ratio = prev.map_or(String::from("-"), |p| format!("{:.1}", ms / p));
            println!(
                "| {f} | {n} | {} | {ms:.2} | {ratio} | {:.0} |",
                data.len(),
                peak_mib()
            );
            prev = Some(ms);
        }
    }
}
