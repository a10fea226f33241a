//! Issue 30 part B's rows of `cargo xtask bench`: `check -j2` on a `.zst` real-games
//! file with the CPU of each of the pipeline's threads, and perft's instructions per
//! node under callgrind (the machines have no hardware counters; CPU time on a shared
//! machine moves with the load, instruction counts do not).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// CPU seconds (user + system) of each thread of a child process, summed by thread
/// name (the workers `cescacs-work-N` as one), read from `/proc/<pid>/task/*/stat`
/// every 20 ms while it runs: a thread's last reading before it ends is its total.
/// Also the child's wall time.
pub fn thread_cpu(cmd: &mut Command) -> Result<(BTreeMap<String, f64>, f64), String> {
    let ticks = 100.0; // USER_HZ on Linux
    let started = std::time::Instant::now();
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let tasks = PathBuf::from(format!("/proc/{}/task", child.id()));
    let mut last: BTreeMap<String, (String, u64)> = BTreeMap::new();
    loop {
        // Read before `try_wait`: once reaped, the threads' counters are gone.
        if let Ok(dir) = std::fs::read_dir(&tasks) {
            for task in dir.flatten() {
                let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
                    continue;
                };
                let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                    continue;
                };
                let name = stat[open + 1..close].to_string();
                let f: Vec<&str> = stat[close + 1..].split_whitespace().collect();
                let t = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
                // Fields 14 and 15 of stat(5): utime, stime (indices after the name).
                let cpu = t(11) + t(12);
                last.insert(task.file_name().to_string_lossy().into_owned(), (name, cpu));
            }
        }
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) if status.success() || status.code() == Some(1) => break,
            Some(status) => return Err(format!("{cmd:?} failed: {status}")),
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let mut by_name = BTreeMap::new();
    for (name, cpu) in last.into_values() {
        let name = match name.strip_prefix("cescacs-work-") {
            Some(_) => "cescacs-work-*".to_string(),
            None => name,
        };
        *by_name.entry(name).or_insert(0.0) += cpu as f64 / ticks;
    }
    Ok((by_name, wall))
}

/// A real-games classic PGN file of at least `megabytes` MB (the shared corpus's
/// classic games when `../shared` is there, else the TWIC file in `testdata/`,
/// repeated), compressed with zstd level 3 and a 64 KiB window: the repeated games
/// are then further apart than the window, so that decompression costs what it costs
/// on distinct games instead of copying long matches.
fn zst_file(megabytes: u64) -> Result<(PathBuf, u64), String> {
    let path = std::env::temp_dir().join(format!("cescacs-bench-real-{megabytes}mb.pgn.zst"));
    let shared = test_corpus();
    let mut games = Vec::new();
    for f in &shared {
        games.extend(std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?);
        games.push(b'\n');
    }
    let mut plain = 0u64;
    let file = std::fs::File::create(&path).map_err(|e| e.to_string())?;
    let mut z = zstd::stream::write::Encoder::new(file, 3).map_err(|e| e.to_string())?;
    z.window_log(16).map_err(|e| e.to_string())?;
    while plain < megabytes * 1_000_000 {
        z.write_all(&games).map_err(|e| e.to_string())?;
        plain += games.len() as u64;
    }
    z.finish().map_err(|e| e.to_string())?;
    Ok((path, plain))
}

/// The classic real-games files: `../shared/corpus/classic-pgn-real` (its LF files)
/// when present, else the TWIC file of `testdata/`.
fn test_corpus() -> Vec<PathBuf> {
    let shared = crate::shared().map(|s| s.join("corpus/classic-pgn-real/mliebelt-pgn-parser"));
    let mut files: Vec<PathBuf> = shared
        .and_then(|s| std::fs::read_dir(s).ok())
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    if files.is_empty() {
        files.push(
            crate::root().join("testdata/chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn"),
        );
    }
    files
}

/// `check -j2` on a `.zst` real-games file: the CPU share of each thread (issue 30
/// must-show 4: the splitter at most 15 % of the total).
pub fn zst_rows(cli: &Path, quick: bool) -> Result<(), String> {
    let mb = if quick { 20 } else { 60 };
    let (zst, plain) = zst_file(mb)?;
    let packed = std::fs::metadata(&zst).map_err(|e| e.to_string())?.len();
    println!(
        "\n## `check -j 2` on .zst: CPU per thread (issue 30; {:.1} MB of real games, {:.1} MB compressed)",
        plain as f64 / 1e6,
        packed as f64 / 1e6
    );
    println!("| thread | CPU | share of the total |\n|---|---:|---:|");
    let (threads, wall) = thread_cpu(Command::new(cli).args(["check", "-q", "-j", "2"]).arg(&zst))?;
    let total: f64 = threads.values().sum();
    for (name, cpu) in &threads {
        println!(
            "| `{name}` | {cpu:.2} s | {:.1} % |",
            cpu * 100.0 / total.max(1e-9)
        );
    }
    let split = threads.get("cescacs-split").copied().unwrap_or(0.0);
    println!(
        "| total | {total:.2} s ({wall:.2} s wall, {:.1} MiB/s of text per CPU-s) | splitter {:.1} % (target <= 15 %) |",
        plain as f64 / total.max(1e-9) / (1024.0 * 1024.0),
        split * 100.0 / total.max(1e-9)
    );
    let _ = std::fs::remove_file(&zst);
    Ok(())
}

/// Instructions per perft node under callgrind (`cescacs perft DEPTH`, start-up
/// included), when valgrind is installed.
pub fn perft_instructions(cli: &Path, depth: u32) -> Result<(), String> {
    let out = std::env::temp_dir().join(format!("cescacs-callgrind-{}.out", std::process::id()));
    let run = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file"])
        .arg(&out)
        .arg(cli)
        .args(["perft", &depth.to_string()])
        .stderr(Stdio::null())
        .output();
    let Ok(run) = run else {
        println!("C'escacs perft({depth}) instructions: valgrind not installed");
        return Ok(());
    };
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let nodes: Option<f64> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok());
    let ir: Option<f64> = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok());
    let (Some(nodes), Some(ir)) = (nodes, ir) else {
        println!(
            "C'escacs perft({depth}) instructions: callgrind gave no count ({})",
            run.status
        );
        return Ok(());
    };
    println!(
        "| C'escacs perft({depth}) under callgrind | {nodes:.0} nodes | {:.1} M instructions | {:.1} instructions per node |",
        ir / 1e6,
        ir / nodes
    );
    Ok(())
}
