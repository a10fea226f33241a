//! `cargo xtask shard-sim`: the local stand-in for running the converter as a streaming
//! step of a cluster engine (docs/scaling.md). A database is cut into shards at game
//! boundaries only, each shard is converted by its own process, and the shards'
//! outputs, concatenated in shard order, must equal the single-process output byte for
//! byte.

use cescacs_batch::GameSplitter;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Cuts `db` into `n` shards of about equal size, never inside a game.
pub fn shard(db: &Path, n: usize, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let total = std::fs::metadata(db).map_err(|e| e.to_string())?.len();
    let target = total.div_ceil(n as u64).max(1);
    let file = std::fs::File::open(db).map_err(|e| e.to_string())?;
    let splitter = GameSplitter::new(BufReader::with_capacity(1 << 20, file), usize::MAX);
    let mut paths = Vec::new();
    let mut current: Option<(std::io::BufWriter<std::fs::File>, u64)> = None;
    for game in splitter {
        let game = game.map_err(|e| e.to_string())?;
        let full = current
            .as_ref()
            .is_some_and(|(_, size)| *size >= target && paths.len() < n);
        if current.is_none() || full {
            if let Some((mut w, _)) = current.take() {
                w.flush().map_err(|e| e.to_string())?;
            }
            let path = dir.join(format!("shard-{:03}.ctl-pgn", paths.len()));
            let f = std::fs::File::create(&path).map_err(|e| e.to_string())?;
            paths.push(path);
            current = Some((std::io::BufWriter::new(f), 0));
        }
        let (w, size) = current.as_mut().expect("a shard is open");
        w.write_all(&game.bytes).map_err(|e| e.to_string())?;
        *size += game.bytes.len() as u64;
    }
    if let Some((mut w, _)) = current {
        w.flush().map_err(|e| e.to_string())?;
    }
    Ok(paths)
}

pub fn run(args: &[String]) -> Result<bool, String> {
    let shards: usize = crate::flag(args, "--shards")?.unwrap_or(4);
    let megabytes: u64 = crate::flag(args, "--db-mb")?.unwrap_or(20);
    let cli = crate::build_cli()?;
    let dir = std::env::temp_dir().join("cescacs-shard-sim");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let db = dir.join("db.ctl-pgn");
    let (games, bytes) = crate::gendb::generate_size(&db, megabytes, 7)?;
    eprintln!("database: {games} games, {:.1} MB", bytes as f64 / 1e6);

    let single = dir.join("single.ctl-pgn");
    let status = Command::new(&cli)
        .args(["convert", "--to", "ctl-pgn", "-q", "-o"])
        .arg(&single)
        .arg(&db)
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("single-process conversion failed".into());
    }

    let parts = shard(&db, shards, &dir)?;
    // The shards run as independent processes, as cluster workers would.
    let children: Vec<_> = parts
        .iter()
        .map(|p| {
            Command::new(&cli)
                .args(["convert", "--to", "ctl-pgn", "-q", "-j", "1", "-o"])
                .arg(p.with_extension("out"))
                .arg(p)
                .stderr(Stdio::null())
                .spawn()
        })
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    for mut c in children {
        if !c.wait().map_err(|e| e.to_string())?.success() {
            return Err("a shard's conversion failed".into());
        }
    }
    let mut joined = Vec::new();
    for p in &parts {
        joined.extend(std::fs::read(p.with_extension("out")).map_err(|e| e.to_string())?);
    }
    let expected = std::fs::read(&single).map_err(|e| e.to_string())?;
    let same = joined == expected;
    println!(
        "{} shards ({}), concatenated output {} bytes vs single process {} bytes: {}",
        parts.len(),
        parts
            .iter()
            .map(|p| std::fs::metadata(p)
                .map(|m| format!("{:.1} MB", m.len() as f64 / 1e6))
                .unwrap_or_default())
            .collect::<Vec<_>>()
            .join(", "),
        joined.len(),
        expected.len(),
        if same { "IDENTICAL" } else { "DIFFERENT" }
    );
    Ok(same)
}
