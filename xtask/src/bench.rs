//! `cargo xtask bench`: speed claims, measured side by side in one run and printed as
//! ratios. Criterion benches of each crate, whole-CLI throughput and peak memory on a
//! generated database (jobs=1 against all cores), and the outside peers.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall time and peak resident memory of a child process. The peak is read from
/// `/proc/<pid>/status` (VmHWM, a high-water mark) while the child runs; the last
/// reading before it exits is its peak.
fn measure(cmd: &mut Command) -> Result<(Duration, u64), String> {
    let started = Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_path)
            && let Some(line) = text.lines().find(|l| l.starts_with("VmHWM:"))
        {
            let kb: u64 = line
                .split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            peak_kb = peak_kb.max(kb);
        }
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) if status.success() || status.code() == Some(1) => break,
            Some(status) => return Err(format!("{cmd:?} failed: {status}")),
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    Ok((started.elapsed(), peak_kb * 1024))
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(crate::root());
    c
}

/// Whole-CLI conversion of a generated database: jobs=1 vs all cores, peak memory.
pub fn cli_throughput(cli: &Path, db: &Path) -> Result<(), String> {
    let size = std::fs::metadata(db).map_err(|e| e.to_string())?.len() as f64;
    let out = std::env::temp_dir().join("cescacs-bench-out.ctl-pgn");
    let mut results = Vec::new();
    for jobs in ["1", "0"] {
        let (t, peak) = measure(
            Command::new(cli)
                .args(["convert", "--to", "ctl-pgn", "-q", "-j", jobs, "-o"])
                .arg(&out)
                .arg(db),
        )?;
        let label = if jobs == "1" {
            "jobs=1".to_string()
        } else {
            format!(
                "jobs={}",
                std::thread::available_parallelism().map_or(1, |n| n.get())
            )
        };
        println!(
            "| convert ctl-pgn -> ctl-pgn, {label} | {:.2} s | {:.1} MB/s | peak RSS {:.1} MB |",
            t.as_secs_f64(),
            size / 1e6 / t.as_secs_f64(),
            peak as f64 / 1e6
        );
        results.push(t.as_secs_f64());
    }
    println!(
        "| speed-up all cores / one core | {:.2}x | | |",
        results[0] / results[1]
    );
    let _ = std::fs::remove_file(out);
    Ok(())
}

pub fn run(args: &[String]) -> Result<bool, String> {
    let quick = args.iter().any(|a| a == "--quick");
    let megabytes: u64 = crate::flag(args, "--db-mb")?.unwrap_or(if quick { 50 } else { 200 });

    println!("## Criterion benches");
    let mut bench = cargo();
    bench.args([
        "bench",
        "--benches",
        "-p",
        "cescacs-rules",
        "-p",
        "xiangqi",
        "-p",
        "ctl-pgn",
        "-p",
        "chess-pgn",
        "--",
    ]);
    if quick {
        bench.arg("--quick");
    }
    let status = bench.status().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("cargo bench failed".into());
    }

    println!("\n## Perft (single thread) against the reference implementations");
    let cli = crate::build_cli()?;
    let started = Instant::now();
    let out = Command::new(&cli)
        .args(["perft", "4"])
        .output()
        .map_err(|e| e.to_string())?;
    let secs = started.elapsed().as_secs_f64();
    let nodes: f64 = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0.0);
    // The oracle (the author's TypeScript engine) needed ~160 CPU-s for the same count
    // (../shared/oracle/perft.json); it cannot be rerun here without its source.
    println!(
        "| C'escacs perft(4) | {nodes:.0} nodes | {secs:.2} s | {:.1} M nodes/s | {:.0}x the oracle's 157k nodes/s (recorded) |",
        nodes / secs / 1e6,
        nodes / secs / 157_000.0
    );

    let mut xq = cargo();
    xq.args([
        "run",
        "--release",
        "-q",
        "-p",
        "xiangqi",
        "--example",
        "xiangqi_perft",
        "--",
        "5",
    ]);
    let started = Instant::now();
    let out = xq.output().map_err(|e| e.to_string())?;
    let secs = started.elapsed().as_secs_f64();
    println!(
        "| xiangqi perft(5) | {} | {secs:.2} s incl. start-up | {:.1}x Fairy-Stockfish's 13.5 s (recorded) |",
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .replace('\n', " "),
        13.5 / secs
    );

    println!("\n## Whole CLI on a generated C'escacs database");
    let db = std::env::temp_dir().join(format!("cescacs-bench-{megabytes}mb.ctl-pgn"));
    if !db.is_file() {
        let (games, bytes) = crate::gendb::generate_size(&db, megabytes, 1)?;
        println!(
            "generated {games} games, {:.1} MB at {}",
            bytes as f64 / 1e6,
            db.display()
        );
    }
    println!("| run | time | throughput | memory |\n|---|---:|---:|---:|");
    cli_throughput(&cli, &db)?;

    println!("\n## Classic PGN against pgn-reader + shakmaty and python-chess (same run)");
    let script = crate::root().join("peers/run-chess-bench.sh");
    if script.is_file() {
        let games = if quick { "20000" } else { "100000" };
        let status = Command::new("bash")
            .arg(&script)
            .arg(games)
            .status()
            .map_err(|e| e.to_string())?;
        if !status.success() {
            eprintln!("warning: the chess peer benchmark failed");
        }
    }
    Ok(true)
}
