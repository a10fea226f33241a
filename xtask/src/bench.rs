//! `cargo xtask bench`: speed claims, measured side by side in one run and printed as
//! ratios. Criterion benches of each crate, whole-CLI throughput and peak memory on a
//! generated database (jobs=1 against all cores), and the outside peers.

use std::path::{Path, PathBuf};
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
    if args.iter().any(|a| a == "--perft") {
        // Only the perft rows (one thread against two).
        perft_rows()?;
        return Ok(true);
    }
    if args.iter().any(|a| a == "--zst") {
        // Only the per-thread CPU of `check -j2` on a .zst file (issue 30).
        crate::bench_engine::zst_rows(&crate::build_cli()?, quick)?;
        return Ok(true);
    }
    if args.iter().any(|a| a == "--openings") {
        // Only issue 32's rows, on the same classic PGN file --ratios uses.
        let target_mb: u64 = if quick { 8 } else { 24 };
        let (_, pgn_path) = ratio_pgn(target_mb)?;
        let cli = crate::build_cli()?;
        println!("| row | ours | pgn-extract | ratio |\n|---|---:|---:|---:|");
        openings_and_split_rows(&quote(&cli), if quick { 1 } else { 3 }, &pgn_path)?;
        return Ok(true);
    }
    if args.iter().any(|a| a == "--ratios") {
        // Only the same-run ratio table (issue 14's rows), without criterion.
        ratios(quick)?;
        return Ok(true);
    }

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

    ratios(quick)?;

    let cli = crate::build_cli()?;
    perft_against_references(&cli)?;

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

/// The perft rows of the full bench: C'escacs perft(4) against the oracle's recorded
/// speed, xiangqi perft(5) against Fairy-Stockfish's recorded time.
fn perft_against_references(cli: &Path) -> Result<(), String> {
    println!("\n## Perft (single thread) against the reference implementations");
    let started = Instant::now();
    let out = Command::new(cli)
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
    Ok(())
}

/// User + system CPU seconds of this process, from /proc/self/stat (clock ticks).
fn self_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit_once(')').map_or("", |r| r.1);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// CPU seconds per run of `f`, repeated until `min_cpu` seconds were spent.
fn cpu_per_run(min_cpu: f64, mut f: impl FnMut()) -> f64 {
    let c0 = self_cpu();
    let mut runs = 0u32;
    loop {
        f();
        runs += 1;
        let spent = self_cpu() - c0;
        if spent >= min_cpu {
            return spent / f64::from(runs);
        }
    }
}

/// CPU seconds (user + system) of a child command, read with bash's `times` (the
/// children's totals), best of `rounds`.
fn child_cpu(rounds: u32, cmd: &str) -> Result<f64, String> {
    let mut best = f64::MAX;
    for _ in 0..rounds {
        // Bash's `time` keyword reads the children's rusage to the millisecond (`times`
        // counts 10 ms clock ticks: ±12 % on a 0.08 s `check`).
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "TIMEFORMAT='%3U %3S'; time {{ {cmd} >/dev/null 2>&1; }}"
            ))
            .output()
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stderr);
        let line = text.lines().last().ok_or("no `time` output")?;
        let secs: f64 = line
            .split_whitespace()
            .map(|t| t.parse::<f64>().unwrap_or(0.0))
            .sum();
        best = best.min(secs);
    }
    Ok(best)
}

// == issue 32 part A: --eco and the split outputs against pgn-extract, same file, same run.
fn openings_and_split_rows(c: &str, rounds: u32, pgn: &Path) -> Result<(), String> {
    let pe = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let eco_table = "/usr/share/pgn-extract/eco.pgn";
    let dir = std::env::temp_dir().join(format!("cescacs-bench-split-{}", std::process::id()));
    let (d, f) = (quote(&dir), quote(pgn));
    let rows = [
        (
            "`select --eco`",
            format!("{c} select {f} --eco -j 1 -q -o {d}/eco.pgn"),
            format!("-s -e{eco_table} {f} -o {d}/pe-eco.pgn"),
            "`pgn-extract -e`",
        ),
        (
            "`select --split 1000`",
            format!("{c} select {f} --split 1000 -j 1 -q -o {d}/split/"),
            format!("-s -#1000 {f}"),
            "`pgn-extract -#1000`",
        ),
        (
            "`select --split-by eco`",
            format!("{c} select {f} --split-by eco -j 1 -q -o {d}/by-eco/"),
            format!("-s -e{eco_table} -E3 {f}"),
            "`pgn-extract -e -E3`",
        ),
        (
            "`select --duplicates`",
            format!("{c} select {f} --duplicates {d}/dups.pgn -j 1 -q -o {d}/kept.pgn"),
            format!("-s -d {d}/pe-dups.pgn {f} -o {d}/pe-kept.pgn"),
            "`pgn-extract -d`",
        ),
    ];
    for (ours_name, ours, theirs, theirs_name) in rows {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let ours_s = child_cpu(rounds, &ours)?;
        match pe {
            Some(pe) => {
                // pgn-extract writes -# and -E files into the current directory.
                let theirs_s = child_cpu(rounds, &format!("cd {d} && {pe} {theirs}"))?;
                println!(
                    "| {ours_name} classic PGN, -j 1 | {ours_s:.2} s | {theirs_name} {theirs_s:.2} s | {:.2}x the cost |",
                    ours_s / theirs_s
                );
            }
            None => println!(
                "| {ours_name} classic PGN, -j 1 | {ours_s:.2} s | pgn-extract not installed | - |"
            ),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// The classic PGN file of the ratio rows: the TWIC sample repeated to `target_mb`
/// MB, written into the temporary directory.
fn ratio_pgn(target_mb: u64) -> Result<(Vec<u8>, std::path::PathBuf), String> {
    let twic = std::fs::read(
        crate::root().join("testdata/chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn"),
    )
    .map_err(|e| e.to_string())?;
    let mut pgn = Vec::new();
    while (pgn.len() as u64) < target_mb * 1_000_000 {
        pgn.extend_from_slice(&twic);
        pgn.push(b'\n');
    }
    let pgn_path = std::env::temp_dir().join(format!("cescacs-ratio-{target_mb}mb.pgn"));
    std::fs::write(&pgn_path, &pgn).map_err(|e| e.to_string())?;
    Ok((pgn, pgn_path))
}

/// The rows of issue 14 as ratios measured in this run (CPU time): CTL-PGN library
/// parse and parse + replay against classic PGN's, `check -j1` CTL-PGN against classic
/// PGN, classic `check -j1` against the chess-pgn library replay, and `convert --to pcn`
/// against `check` per format.
pub fn ratios(quick: bool) -> Result<(), String> {
    use chess_pgn::{PgnReader, Pos, Replayer, Skip, Visitor};
    struct Count;
    impl Visitor for Count {
        type Output = ();
        fn begin_variation(&mut self, _at: Pos) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self) {}
    }
    let min_cpu = if quick { 0.5 } else { 2.0 };
    let mib = |bytes: usize, secs: f64| bytes as f64 / secs / (1024.0 * 1024.0);

    // Inputs: a generated C'escacs database and the TWIC classic PGN file, both repeated
    // to a few MB so that the CLI's start-up does not count.
    let target_mb: u64 = if quick { 8 } else { 24 };
    let ctl_path = std::env::temp_dir().join(format!("cescacs-ratio-{target_mb}mb.ctl-pgn"));
    if !ctl_path.is_file() {
        crate::gendb::generate_size(&ctl_path, target_mb, 7)?;
    }
    let ctl = std::fs::read_to_string(&ctl_path).map_err(|e| e.to_string())?;
    let (pgn, pgn_path) = ratio_pgn(target_mb)?;

    // Library rows.
    let ctl_plies: usize = ctl_pgn::replay("bench", &ctl, ctl_pgn::Options::default())
        .iter()
        .map(|r| r.plies)
        .sum();
    let ctl_parse = cpu_per_run(min_cpu, || {
        std::hint::black_box(ctl_pgn::read_str("bench", &ctl));
    });
    let ctl_replay = cpu_per_run(min_cpu, || {
        std::hint::black_box(ctl_pgn::replay("bench", &ctl, ctl_pgn::Options::default()));
    });
    let pgn_parse = cpu_per_run(min_cpu, || {
        let mut r = PgnReader::new(&pgn[..]);
        while let Ok(Some(_)) = r.read_game(&mut Count) {}
    });
    let mut pgn_plies = 0usize;
    let pgn_replay = cpu_per_run(min_cpu, || {
        let mut r = PgnReader::new(&pgn[..]);
        let mut v = Replayer::default();
        let mut plies = 0;
        while let Ok(Some(x)) = r.read_game(&mut v) {
            plies += x.plies;
        }
        pgn_plies = plies as usize;
    });

    println!("\n## Same-run ratios (CPU time; issue 14)");
    println!(
        "inputs: {} ({:.1} MB, {ctl_plies} plies), {} ({:.1} MB, {pgn_plies} plies)",
        ctl_path.display(),
        ctl.len() as f64 / 1e6,
        pgn_path.display(),
        pgn.len() as f64 / 1e6
    );
    println!("| path | ours | reference (same run) | ratio |\n|---|---:|---:|---:|");
    println!(
        "| CTL-PGN library parse | {:.1} MiB/s, {:.2} M plies/s | classic PGN parse {:.1} MiB/s, {:.2} M plies/s | {:.2} per byte, {:.2} per ply |",
        mib(ctl.len(), ctl_parse),
        ctl_plies as f64 / ctl_parse / 1e6,
        mib(pgn.len(), pgn_parse),
        pgn_plies as f64 / pgn_parse / 1e6,
        mib(ctl.len(), ctl_parse) / mib(pgn.len(), pgn_parse),
        (ctl_plies as f64 / ctl_parse) / (pgn_plies as f64 / pgn_parse)
    );
    println!(
        "| CTL-PGN library parse + replay | {:.1} MiB/s, {:.2} M plies/s | classic PGN replay {:.1} MiB/s, {:.2} M plies/s | {:.2} per byte, {:.2} per ply |",
        mib(ctl.len(), ctl_replay),
        ctl_plies as f64 / ctl_replay / 1e6,
        mib(pgn.len(), pgn_replay),
        pgn_plies as f64 / pgn_replay / 1e6,
        mib(ctl.len(), ctl_replay) / mib(pgn.len(), pgn_replay),
        (ctl_plies as f64 / ctl_replay) / (pgn_plies as f64 / pgn_replay)
    );

    // CLI rows (the binary as built now; its refactoring is another issue's).
    let cli = crate::build_cli()?;
    let rounds = if quick { 1 } else { 3 };
    let c = quote(&cli);
    let check = |p: &Path| child_cpu(rounds, &format!("{c} check -q -j 1 {}", quote(p)));
    // The CTL-PGN row compares two short runs: best of three, interleaved, so that
    // load from other work on the machine hits both alike.
    let (mut ctl_check, mut pgn_check) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        ctl_check = ctl_check.min(check(&ctl_path)?);
        pgn_check = pgn_check.min(check(&pgn_path)?);
    }
    println!(
        "| `check -j1` CTL-PGN | {:.1} MiB/s, {:.2} M plies/s | `check -j1` classic PGN {:.1} MiB/s | {:.2} per byte (target >= 0.25) |",
        mib(ctl.len(), ctl_check),
        ctl_plies as f64 / ctl_check / 1e6,
        mib(pgn.len(), pgn_check),
        mib(ctl.len(), ctl_check) / mib(pgn.len(), pgn_check)
    );
    // A tag filter reads tag sections only (docs/select.md).
    let select = format!(
        "{c} select --count -j 1 --player 'Carlsen*' {}",
        quote(&pgn_path)
    );
    let pgn_select = child_cpu(rounds, &select)?;
    println!(
        "| `select --player` classic PGN | {pgn_select:.2} s | `check` {pgn_check:.2} s | {:.2}x the cost |",
        pgn_select / pgn_check
    );
    openings_and_split_rows(&c, rounds, &pgn_path)?;
    cli_rows(&cli, quick, &ctl_path, &pgn_path, pgn_replay)?;
    real_games_rows(&c, quick, target_mb)?;
    // == issue 30 part B: the pipeline's threads on .zst
    crate::bench_engine::zst_rows(&cli, quick)?;
    perft_rows()?;
    Ok(())
}

/// Issue 14 items 2 and 3, measured in this run: classic PGN `check -j1` against the
/// chess-pgn library replay (in process) and against pgn-reader + shakmaty replaying
/// the same file (a process, as `check` is: start-up counted on both sides), and
/// `convert --to pcn` against `check` for each input format. `check` and `convert` of
/// one input run interleaved, best of several rounds, so that load from other work on
/// the machine hits both alike.
fn cli_rows(
    cli: &Path,
    quick: bool,
    ctl_path: &Path,
    pgn_path: &Path,
    pgn_replay: f64,
) -> Result<(), String> {
    // Runs of a tenth of a second on a shared machine: the best of many is the stable figure.
    let rounds = if quick { 5 } else { 9 };
    // CESCACS_BENCH_CLI measures these rows with another build (an older commit's
    // binary, for before/after numbers against the same references).
    let other = std::env::var_os("CESCACS_BENCH_CLI").map(std::path::PathBuf::from);
    let cli = other.as_deref().unwrap_or(cli);
    if let Some(p) = &other {
        println!("(the rows below measure {})", p.display());
    }
    let c = quote(cli);
    let out = std::env::temp_dir().join("cescacs-ratio-out.json");
    // Best CPU seconds of `check -j1` and of `convert --to pcn -j1`, interleaved.
    let pair = |input: &Path, from: &str| -> Result<(f64, f64), String> {
        let (mut check, mut convert) = (f64::MAX, f64::MAX);
        for _ in 0..rounds {
            check = check.min(child_cpu(
                1,
                &format!("{c} check -q -j 1 {from} {}", quote(input)),
            )?);
            convert = convert.min(child_cpu(
                1,
                &format!(
                    "{c} convert --to pcn -q -j 1 {from} -o {} {}",
                    quote(&out),
                    quote(input)
                ),
            )?);
        }
        Ok((check, convert))
    };
    let pgn_len = std::fs::metadata(pgn_path)
        .map_err(|e| e.to_string())?
        .len() as f64;
    let mib = |secs: f64| pgn_len / secs / (1024.0 * 1024.0);

    // Inputs of the two other formats: the generated xiangqi corpus of ../shared (all
    // notations) and PCN documents written by the CLI from the classic PGN file.
    let xq_path = std::env::temp_dir().join("cescacs-ratio.xiangqi.pgn");
    if !xq_path.is_file() {
        let dir = crate::shared()
            .map(|s| s.join("corpus/xiangqi-generated"))
            .filter(|d| d.is_dir())
            .ok_or("../shared/corpus/xiangqi-generated is missing")?;
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .map_err(|e| e.to_string())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
            .collect();
        files.sort();
        let mut text = Vec::new();
        for f in files {
            text.extend(std::fs::read(f).map_err(|e| e.to_string())?);
            text.extend_from_slice(b"\n\n");
        }
        std::fs::write(&xq_path, text).map_err(|e| e.to_string())?;
    }
    let pcn_path = std::env::temp_dir().join("cescacs-ratio.pcn.json");
    if !pcn_path.is_file() {
        // A quarter of the classic PGN file's games: PCN is about three times larger.
        let twic =
            crate::root().join("testdata/chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn");
        let lines = std::env::temp_dir().join("cescacs-ratio-twic.jsonl");
        let status = Command::new(cli)
            .args(["convert", "--to", "pcn", "--jsonl", "-q", "-o"])
            .arg(&lines)
            .arg(&twic)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| e.to_string())?;
        if !status.success() {
            return Err("writing the PCN input failed".into());
        }
        let docs = std::fs::read_to_string(&lines).map_err(|e| e.to_string())?;
        let docs: Vec<&str> = docs.lines().collect();
        let mut all = Vec::new();
        while (all.iter().map(|d: &&str| d.len()).sum::<usize>() as f64) < pgn_len * 0.75 {
            all.extend_from_slice(&docs);
        }
        std::fs::write(&pcn_path, format!("[\n{}\n]\n", all.join(",\n")))
            .map_err(|e| e.to_string())?;
        let _ = std::fs::remove_file(lines);
    }

    let (pgn_check, pgn_convert) = pair(pgn_path, "")?;
    println!(
        "| `check -j1` classic PGN | {:.1} MiB/s | chess-pgn library replay {:.1} MiB/s | {:.2} (target >= 0.8) |",
        mib(pgn_check),
        mib(pgn_replay),
        mib(pgn_check) / mib(pgn_replay)
    );
    // The same library replay as a process (start-up and file reading counted, as for
    // `check`), and the peer's, each measured by the same clock in rounds interleaved
    // with `check` itself: on a shared machine, runs minutes apart are not comparable.
    let check_cmd = format!("{c} check -q -j 1 {}", quote(pgn_path));
    let lib = library_replay_bin().map(|b| format!("{} {} replay", quote(&b), quote(pgn_path)));
    let peer = peer_replay_bin().map(|b| format!("{} {} replay", quote(&b), quote(pgn_path)));
    let (mut check_best, mut lib_best, mut peer_best) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..rounds * 2 {
        check_best = check_best.min(child_cpu(1, &check_cmd)?);
        if let Ok(cmd) = &lib {
            lib_best = lib_best.min(child_cpu(1, cmd)?);
        }
        if let Ok(cmd) = &peer {
            peer_best = peer_best.min(child_cpu(1, cmd)?);
        }
    }
    match &lib {
        Ok(_) => println!(
            "| `check -j1` classic PGN | {:.1} MiB/s | chess-pgn library replay (process, `throughput FILE replay`, interleaved) {:.1} MiB/s | {:.2} (target >= 0.8) |",
            mib(check_best),
            mib(lib_best),
            lib_best / check_best
        ),
        Err(e) => println!("| `check -j1` classic PGN | | library replay process: {e} | |"),
    }
    match &peer {
        Ok(_) => println!(
            "| `check -j1` classic PGN | {:.1} MiB/s | pgn-reader + shakmaty replay (process, interleaved) {:.1} MiB/s | {:.2} (target >= 1) |",
            mib(check_best),
            mib(peer_best),
            peer_best / check_best
        ),
        Err(e) => println!("| `check -j1` classic PGN | | pgn-reader + shakmaty: {e} | |"),
    }
    let mut rows = vec![("classic PGN", pgn_check, pgn_convert)];
    for (name, input, from) in [
        ("CTL-PGN", ctl_path, ""),
        ("xiangqi PGN", xq_path.as_path(), ""),
        (
            "PCN (from the classic PGN games)",
            pcn_path.as_path(),
            "--from pcn",
        ),
    ] {
        let (check, convert) = pair(input, from)?;
        rows.push((name, check, convert));
    }
    for (name, check, convert) in rows {
        println!(
            "| `convert --to pcn` {name} | {convert:.2} s | `check` {check:.2} s | {:.2}x the cost (target <= 1.5) |",
            convert / check
        );
    }
    let _ = std::fs::remove_file(&out);
    Ok(())
}

// == issue 30: real games with CR LF line ends, `convert --to pgn`, tag-only `select`.
/// Real games (the classic PGN files of `../shared/corpus/classic-pgn-real` not made
/// to test encodings, repeated to `target_mb` MB) with CR LF line ends, and the same
/// games with LF: `check -j1` on both against pgn-reader + shakmaty replaying the same
/// file, and `convert --to pgn`, `convert --to pcn`, `select` with a tag filter against
/// `check`, every command interleaved with the others in each round (CPU time, best
/// of the rounds). The files are built here, under the temporary directory, and
/// removed afterwards; without `../shared` the rows are skipped.
fn real_games_rows(c: &str, quick: bool, target_mb: u64) -> Result<(), String> {
    println!("\n## Real games, CR LF and LF (issue 30; CPU time, best of interleaved rounds)");
    let Some(dir) = crate::shared()
        .map(|s| s.join("corpus/classic-pgn-real"))
        .filter(|d| d.is_dir())
    else {
        println!("(skipped: ../shared/corpus/classic-pgn-real is missing)");
        return Ok(());
    };
    let (lf, files) = real_games_lf(&dir, target_mb)?;
    if lf.is_empty() {
        println!("(skipped: no classic PGN files under {})", dir.display());
        return Ok(());
    }
    let mut crlf = Vec::with_capacity(lf.len() + lf.len() / 20);
    for &b in &lf {
        if b == b'\n' {
            crlf.push(b'\r');
        }
        crlf.push(b);
    }
    let tmp = std::env::temp_dir();
    let id = std::process::id();
    let lf_path = tmp.join(format!("cescacs-real-{id}.lf.pgn"));
    let crlf_path = tmp.join(format!("cescacs-real-{id}.crlf.pgn"));
    let out = tmp.join(format!("cescacs-real-{id}.out"));
    std::fs::write(&lf_path, &lf).map_err(|e| e.to_string())?;
    std::fs::write(&crlf_path, &crlf).map_err(|e| e.to_string())?;
    let result = (|| -> Result<(), String> {
        let peer = peer_replay_bin();
        for (name, path, len) in [
            ("CR LF", &crlf_path, crlf.len()),
            ("LF", &lf_path, lf.len()),
        ] {
            println!(
                "{name}: {:.1} MB, {files} files of real games repeated",
                len as f64 / 1e6
            );
            real_games_table(c, quick, name, path, len, &out, &peer)?;
        }
        Ok(())
    })();
    for p in [&lf_path, &crlf_path, &out] {
        let _ = std::fs::remove_file(p);
    }
    result
}

/// The games of `real_games_rows`: the `.pgn` files of `dir`'s `mliebelt-pgn-parser`
/// and `python-chess` folders, their CRs removed, repeated to `target_mb` MB (empty
/// when there are none), and the number of files.
fn real_games_lf(dir: &Path, target_mb: u64) -> Result<(Vec<u8>, usize), String> {
    let mut files = Vec::new();
    for sub in ["mliebelt-pgn-parser", "python-chess"] {
        let Ok(entries) = std::fs::read_dir(dir.join(sub)) else {
            continue;
        };
        files.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "pgn")),
        );
    }
    files.sort();
    let mut base = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| e.to_string())?;
        // LF line ends whatever the file had; CR LF is added to the copy by the caller.
        base.extend(bytes.iter().copied().filter(|&b| b != b'\r'));
        base.extend_from_slice(b"\n\n");
    }
    let mut lf = Vec::new();
    while !base.is_empty() && (lf.len() as u64) < target_mb * 1_000_000 {
        lf.extend_from_slice(&base);
    }
    Ok((lf, files.len()))
}

/// One table of `real_games_rows`: every command on the file at `path` (`len` bytes),
/// interleaved in each round, the best CPU time of the rounds, as ratios to `check`.
fn real_games_table(
    c: &str,
    quick: bool,
    name: &str,
    path: &Path,
    len: usize,
    out: &Path,
    peer: &Result<PathBuf, String>,
) -> Result<(), String> {
    let (f, o) = (quote(path), quote(out));
    let mut cmds = vec![
        ("`check -j1`", format!("{c} check -q -j 1 {f}")),
        (
            "`convert --to pgn -j1`",
            format!("{c} convert --to pgn -q -j 1 -o {o} {f}"),
        ),
        (
            "`convert --to pcn -j1`",
            format!("{c} convert --to pcn -q -j 1 -o {o} {f}"),
        ),
        (
            "`select --player 'Carlsen*' --count -j1`",
            format!("{c} select --count -q -j 1 --player 'Carlsen*' {f}"),
        ),
    ];
    if let Ok(b) = peer {
        cmds.push((
            "pgn-reader + shakmaty replay",
            format!("{} {f} replay", quote(b)),
        ));
    }
    let mut best = vec![f64::MAX; cmds.len()];
    for _ in 0..if quick { 3 } else { 7 } {
        for (i, (_, cmd)) in cmds.iter().enumerate() {
            best[i] = best[i].min(child_cpu(1, cmd)?);
        }
    }
    let check = best[0];
    let mib = |secs: f64| len as f64 / secs / (1024.0 * 1024.0);
    println!("| {name} | CPU | MiB/s | ratio |\n|---|---:|---:|---:|");
    println!("| `check -j1` | {check:.3} s | {:.1} | 1.00 |", mib(check));
    for (i, (what, _)) in cmds.iter().enumerate().skip(1) {
        let ratio = if what.starts_with("pgn-reader") {
            format!(
                "`check` is {:.2}x its speed (target >= 1.3)",
                best[i] / check
            )
        } else {
            let target = [
                "",
                " (target <= 1.5)",
                " (target <= 1.3)",
                " (target <= 0.35)",
            ];
            format!("{:.2}x the cost of `check`{}", best[i] / check, target[i])
        };
        println!(
            "| {what} | {:.3} s | {:.1} | {ratio} |",
            best[i],
            mib(best[i])
        );
    }
    if let Err(e) = peer {
        println!("| pgn-reader + shakmaty replay | | | {e} |");
    }
    Ok(())
}

/// The chess-pgn library's `throughput` example (replaying a file in a process of its
/// own), built here.
fn library_replay_bin() -> Result<PathBuf, String> {
    let status = cargo()
        .args([
            "build",
            "--release",
            "-q",
            "-p",
            "chess-pgn",
            "--example",
            "throughput",
        ])
        .status()
        .map_err(|e| format!("cannot build the example: {e}"))?;
    if !status.success() {
        return Err("building chess-pgn's throughput example failed".into());
    }
    Ok(crate::release_dir().join("examples/throughput"))
}

/// pgn-reader + shakmaty replaying a file (`peers/pgn-reader-bench`, GPL, built on its
/// own outside the workspace and never linked with our code).
fn peer_replay_bin() -> Result<PathBuf, String> {
    let dir = crate::root().join("peers/pgn-reader-bench");
    let target = dir.join("target");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-q"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .map_err(|e| format!("cannot build the peer: {e}"))?;
    if !status.success() {
        return Err("building the peer failed".into());
    }
    Ok(target.join("release/pgn-reader-bench"))
}

/// Wall and CPU seconds (user + system, all threads) of a child command, one run,
/// and the last line of its standard output.
fn child_wall_cpu(cmd: &str) -> Result<(f64, f64, String), String> {
    let out_path = std::env::temp_dir().join(format!("cescacs-bench-{}.out", std::process::id()));
    let started = Instant::now();
    // The inner redirection wins over `child_cpu`'s `>/dev/null` on the group.
    let cpu = child_cpu(1, &format!("{{ {cmd} >{}; }}", quote(&out_path)))?;
    let wall = started.elapsed().as_secs_f64();
    let stdout = std::fs::read_to_string(&out_path).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&out_path);
    let last = stdout.lines().last().unwrap_or_default().trim().to_string();
    Ok((wall, cpu, last))
}

/// Issue 14 item 4: perft(5) on one thread and on two, wall and CPU time. On an idle
/// machine the wall speed-up is the claim (target >= 1.8x on 2 cores); on a shared one
/// only the CPU utilisation (CPU / wall / jobs) and the work balance (leaves counted
/// per thread, from `perft_split`) mean something, so both are printed.
fn perft_rows() -> Result<(), String> {
    let cli = crate::build_cli()?;
    let c = quote(&cli);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("\n## Perft, one thread against two (issue 14 item 4; {cores} cores here)");
    println!(
        "| perft | jobs | wall | CPU | CPU / wall | nodes/s (wall) | nodes/s (CPU) |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    let mut walls = Vec::new();
    for jobs in [1, 2] {
        let (wall, cpu, last) = child_wall_cpu(&format!("{c} perft 5 --jobs {jobs}"))?;
        let nodes: f64 = last
            .parse()
            .map_err(|_| format!("perft printed `{last}`, not a count"))?;
        println!(
            "| C'escacs perft(5) `cescacs perft 5 --jobs {jobs}` | {jobs} | {wall:.2} s | {cpu:.2} s | {:.2} | {:.1} M | {:.1} M |",
            cpu / wall,
            nodes / wall / 1e6,
            nodes / cpu / 1e6
        );
        walls.push(wall);
    }
    println!(
        "| C'escacs speed-up jobs 2 / jobs 1 (wall) | | {:.2}x (target >= 1.8 on 2 idle cores) | | | | |",
        walls[0] / walls[1]
    );
    // == issue 30 part B: instructions per node, which the load does not move
    crate::bench_engine::perft_instructions(&cli, 4)?;
    let split = cescacs_rules::perft_split(&cescacs_rules::Position::initial(), 5, 2)
        .map_err(|e| e.to_string())?;
    print_balance(
        "C'escacs perft(5)",
        split.tasks,
        split.largest_task,
        &split.leaves_per_thread,
    );

    let xq = xiangqi::Position::initial();
    let mut walls = Vec::new();
    for jobs in [1, 2] {
        let c0 = self_cpu();
        let started = Instant::now();
        let n = xiangqi::try_perft(&xq, 5, jobs).map_err(|e| e.to_string())? as f64;
        let wall = started.elapsed().as_secs_f64();
        let cpu = self_cpu() - c0;
        println!(
            "| xiangqi perft(5) `xiangqi::try_perft(_, 5, {jobs})` | {jobs} | {wall:.2} s | {cpu:.2} s | {:.2} | {:.1} M | {:.1} M |",
            cpu / wall,
            n / wall / 1e6,
            n / cpu / 1e6
        );
        walls.push(wall);
    }
    println!(
        "| xiangqi speed-up jobs 2 / jobs 1 (wall) | | {:.2}x (target >= 1.8 on 2 idle cores) | | | | |",
        walls[0] / walls[1]
    );
    let split = xiangqi::perft_split(&xq, 5, 2).map_err(|e| e.to_string())?;
    print_balance(
        "xiangqi perft(5)",
        split.tasks,
        split.largest_task,
        &split.leaves_per_thread,
    );
    Ok(())
}

/// The split's granularity and the share of the leaves each thread counted. The
/// shares follow the CPU each thread got (on a loaded machine one thread may be
/// descheduled); the largest task bounds the idle time at the end whatever the load:
/// on 2 idle cores the speed-up is at least 2 / (1 + 2 · largest share).
fn print_balance(what: &str, tasks: usize, largest: u64, leaves: &[u64]) {
    let total: u64 = leaves.iter().sum();
    let shares: Vec<String> = leaves
        .iter()
        .map(|&n| format!("{:.1} %", n as f64 * 100.0 / total.max(1) as f64))
        .collect();
    let largest_share = largest as f64 / total.max(1) as f64;
    println!(
        "{what}, jobs 2: {tasks} tasks, largest task {:.2} % of the leaves (speed-up bound on 2 idle cores >= {:.2}x), leaves per thread {}",
        largest_share * 100.0,
        2.0 / (1.0 + 2.0 * largest_share),
        shares.join(" / ")
    );
}
