//! `cargo xtask many-files`: issue 26's must-show 2. One directory of N one-game files
//! (100,000 by default) checked by the release CLI under a small open-file limit
//! (`ulimit -n 256`), its peak memory measured by `/usr/bin/time -v`. Fails unless
//! every file and game is read, the exit status is 0 and the peak stays under the
//! bound (100 MB). The files are made under `target/` and removed afterwards.

use std::path::Path;
use std::process::Command;

/// The peak resident memory the run must stay under, in KiB.
const MAX_RSS_KB: u64 = 100 * 1024;

pub fn run(args: &[String]) -> Result<bool, String> {
    let files: usize = crate::flag(args, "--files")?.unwrap_or(100_000);
    let limit: u32 = crate::flag(args, "--limit")?.unwrap_or(256);
    let bin = match crate::flag::<String>(args, "--bin")? {
        Some(b) => b.into(),
        None => crate::build_cli()?,
    };
    let root = crate::release_dir().join("many-files");
    let dir = root.join("games");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for i in 0..files {
        let game = format!("[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n");
        std::fs::write(dir.join(format!("g{i:06}.pgn")), game)
            .map_err(|e| format!("writing game {i}: {e}"))?;
    }
    let report = root.join("report.json");
    let result = measure(&bin, &dir, &report, limit);
    let _ = std::fs::remove_dir_all(&root);
    let (code, rss_kb, summary) = result?;
    let (read_files, games) = (summary["files"].as_u64(), summary["games"].as_u64());
    println!(
        "many-files: {files} one-game files, ulimit -n {limit}: exit {code:?}, files {read_files:?}, games {games:?}, peak RSS {:.1} MB (bound {} MB)",
        rss_kb as f64 / 1024.0,
        MAX_RSS_KB / 1024
    );
    let ok = code == Some(0)
        && read_files == Some(files as u64)
        && games == Some(files as u64)
        && rss_kb < MAX_RSS_KB;
    Ok(ok)
}

/// Runs `check` over `dir` under the open-file limit; the exit status, the peak RSS in
/// KiB and the report.
fn measure(
    bin: &Path,
    dir: &Path,
    report: &Path,
    limit: u32,
) -> Result<(Option<i32>, u64, serde_json::Value), String> {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -n {limit} && exec /usr/bin/time -v \"$0\" check -q \"$1\" --report \"$2\""
        ))
        .arg(bin)
        .arg(dir)
        .arg(report)
        .output()
        .map_err(|e| format!("cannot run sh: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rss_kb = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("Maximum resident set size (kbytes):"))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("no peak memory from /usr/bin/time -v:\n{stderr}"))?;
    let text =
        std::fs::read_to_string(report).map_err(|e| format!("no report ({e}):\n{stderr}"))?;
    let summary = serde_json::from_str(&text).map_err(|e| format!("report: {e}"))?;
    Ok((out.status.code(), rss_kb, summary))
}
