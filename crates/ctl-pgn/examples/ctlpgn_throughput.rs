//! Throughput with CPU time as well as wall time (the criterion benchmark reports
//! wall time only, which a loaded machine inflates).
//!
//! `cargo run --release -p ctl-pgn --example ctlpgn_throughput -- DIR [ROUNDS] [parse|replay]`
//! (the last argument measures only the parse, or only parse + replay)
use std::time::Instant;

/// User + system CPU seconds of this process (Linux), from /proc/self/stat.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .map_or("../shared/oracle/games", String::as_str);
    let rounds: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "ctl-pgn"));
    files.sort();
    let mut text = String::new();
    for f in &files {
        text.push_str(&std::fs::read_to_string(f).unwrap_or_default());
        text.push('\n');
    }
    let measure = |name: &str, unit: &str, amount: f64, f: &dyn Fn()| {
        let (w0, c0) = (Instant::now(), cpu_seconds());
        for _ in 0..rounds {
            f();
        }
        let wall = w0.elapsed().as_secs_f64();
        let cpu = match (c0, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => f64::NAN,
        };
        let total = amount * f64::from(rounds);
        println!(
            "{name}: {:.2} {unit}/s wall, {:.2} {unit}/s CPU",
            total / wall,
            total / cpu
        );
    };
    let plies: usize = ctl_pgn::replay("t", &text, ctl_pgn::Options::default())
        .iter()
        .map(|r| r.plies)
        .sum();
    println!(
        "{} files, {} bytes, {plies} plies, {rounds} rounds",
        files.len(),
        text.len()
    );
    let only = args.get(2).map(String::as_str);
    if only != Some("replay") {
        measure("parse", "MB", text.len() as f64 / 1e6, &|| {
            std::hint::black_box(ctl_pgn::read_str("t", &text));
        });
    }
    if only == Some("parse") {
        return;
    }
    measure("parse+replay", "kplies", plies as f64 / 1e3, &|| {
        std::hint::black_box(ctl_pgn::replay("t", &text, ctl_pgn::Options::default()));
    });
}
