//! Scaling check of the reader on generated hostile inputs (issue 13): for each family
//! and size, the CPU time of reading and the ratio to the size ten times smaller.
//! Each size runs in its own process, which reports its peak resident memory.
//!
//! ```text
//! cargo run --release -p xiangqi-pgn --example xiangqi_scaling            # every family, 10k..1M
//! cargo run --release -p xiangqi-pgn --example xiangqi_scaling nested 10000000
//! cargo run --release -p xiangqi-pgn --example xiangqi_scaling headers FILE.pgn
//! ```

use std::time::Instant;

use xiangqi_pgn::{TextEncoding, decode_as, detect, encode, games as games_iter, read_headers};

/// A family: its name and a generator of about `n` bytes.
type Family = (&'static str, fn(usize) -> String);

/// The families.
fn families() -> Vec<Family> {
    vec![
        ("nested", |n| {
            let k = n / 10;
            format!("1. h2e2 {}h9g7{} *\n", "(".repeat(k), ")".repeat(k))
        }),
        ("nested-games", |n| {
            // Balanced variations, depth 40, many games.
            let mut s = String::new();
            while s.len() < n {
                s.push_str("[Event \"v\"]\n\n1. h2e2 ");
                for _ in 0..40 {
                    s.push_str("(1. b2e2 h9g7 ");
                }
                s.push_str(&")".repeat(40));
                s.push_str(" h9g7 2. h0g2 *\n\n");
            }
            s
        }),
        ("comments-line", |n| {
            format!("1. h2e2 {} h9g7 *\n", "{a}".repeat(n / 3))
        }),
        ("empty-braces", |n| {
            format!("1. h2e2 {} *\n", "{}".repeat(n / 2))
        }),
        ("long-comment", |n| {
            format!("1. h2e2 {{{}}} *\n", "x ".repeat(n / 2))
        }),
        ("unclosed-comment", |n| {
            let mut s = String::from("[Event \"a\"]\n\n1. h2e2 {never closed\n");
            while s.len() < n {
                s.push_str("h2e2 } { [x] (y) 1-0\n");
            }
            s
        }),
        ("huge-tag", |n| {
            format!("[Event \"{}\"]\n\n1. h2e2 *\n", "x".repeat(n))
        }),
        ("unclosed-tags", |n| "[Event \"xxxxxxxx\n".repeat(n / 16)),
        ("huge-fen", |n| {
            format!("[FEN \"{}\"]\n\n1. h2e2 *\n", "r/".repeat(n / 2))
        }),
        ("long-word", |n| format!("1. {} *\n", "h".repeat(n))),
        ("nags", |n| format!("{} 1. h2e2 *\n", "$1 ".repeat(n / 3))),
        ("many-games", |n| {
            "[Event \"x\"]\n[Red \"r\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n\n".repeat(n / 50)
        }),
        ("tagless-games", |n| "1. h2e2 h9g7 *\n".repeat(n / 15)),
        ("gbk-games", |n| {
            "[Event \"全国象棋锦标赛\"]\n\n1. 炮二平五 马8进7 2. 马二进三 车9平8 *\n\n"
                .repeat(n / 90)
        }),
    ]
}

/// Reads one generated input the way a converter does (detect, decode, stream the
/// games, and the headers-only pass); returns CPU-ish wall time in seconds.
fn run(name: &str, make: fn(usize) -> String, n: usize) -> (f64, usize, usize) {
    let text = make(n);
    let bytes = if name == "gbk-games" {
        encode(&text, TextEncoding::Gb18030)
    } else {
        text.into_bytes()
    };
    let t = Instant::now();
    let enc = detect(&bytes).encoding;
    let decoded = decode_as(&bytes, enc);
    let mut games = 0;
    let mut moves = 0;
    for g in games_iter(&decoded, name) {
        games += 1;
        moves += g.game.line.moves.len();
    }
    let headers = read_headers(&decoded, name).count();
    let dt = t.elapsed().as_secs_f64();
    std::hint::black_box((moves, headers));
    (dt, bytes.len(), games)
}

/// Peak resident memory of this process in KB (Linux).
fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let fams = families();
    if let [cmd, path] = args.as_slice()
        && cmd == "headers"
    {
        // Headers-only against full reading on one file (issue 17).
        let bytes = std::fs::read(path).expect("readable file");
        let text = decode_as(&bytes, detect(&bytes).encoding);
        let t = Instant::now();
        let n = games_iter(&text, path).count();
        let full = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let h = read_headers(&text, path).count();
        let heads = t.elapsed().as_secs_f64();
        assert_eq!(n, h);
        println!(
            "{} bytes, {n} games: full read {full:.3} s, headers only {heads:.3} s ({:.1}x faster)",
            bytes.len(),
            full / heads.max(1e-9)
        );
        return;
    }
    if let [name, size] = args.as_slice() {
        let (_, make) = fams.iter().find(|(f, _)| f == name).expect("family");
        let (dt, bytes, games) = run(name, *make, size.parse().expect("size"));
        println!("{dt} {} {bytes} {games}", peak_kb());
        return;
    }
    let sizes: Vec<usize> = std::env::var("SIZES")
        .unwrap_or_else(|_| "10000,100000,1000000,10000000".into())
        .split(',')
        .map(|s| s.parse().expect("SIZES: numbers"))
        .collect();
    let me = std::env::current_exe().expect("own path");
    println!("family | size (bytes) | games | time (s) | ratio to previous size | peak RSS (MB)");
    for (name, _) in &fams {
        let mut prev: Option<f64> = None;
        for &n in &sizes {
            let out = std::process::Command::new(&me)
                .args([name.to_string(), n.to_string()])
                .output()
                .expect("child run");
            let line = String::from_utf8_lossy(&out.stdout);
            let f: Vec<f64> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap_or(0.0))
                .collect();
            let (dt, kb, bytes, games) = (f[0], f[1], f[2], f[3]);
            let ratio = prev.map_or("-".to_string(), |p| format!("{:.1}", dt / p.max(1e-6)));
            println!(
                "{name:16} | {bytes:>9} | {games:>7} | {dt:>8.4} | {ratio:>5} | {:>6.1}",
                kb / 1024.0
            );
            prev = Some(dt);
        }
    }
}
