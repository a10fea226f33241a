//! `cargo xtask scaling`: hostile input families at growing sizes through the release
//! `cescacs check -j1` (or `convert -j1` to another format), with time and peak memory
//! per size and the ratio between neighbouring sizes, so that a regression to
//! superlinear time shows at once.
//!
//! Each family is one shape an attacker (or a broken exporter) can produce cheaply:
//! long runs of ellipses or dots, a line of thousands of comments, deep variations,
//! a PCN board of n cells with n moves, a long TLPD tag, for every input format a
//! stream of NUL bytes (`/dev/zero`: refused at once as binary input), and text with
//! no game boundary (stopped by the splitter's boundary limit), and games of many tags,
//! comments or moves converted to each output format (the writers' tag-loss warnings
//! and duplicate-tag tests were quadratic once). Sizes are counts of the
//! repeated unit (10× per step by default). Time and memory come from `/usr/bin/time`
//! (wall time, user + system CPU time, maximum resident set size of the child).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A 10× larger input may cost at most this many times more CPU time before the run
/// fails (10 is linear; the margin absorbs noise and allocator effects).
const MAX_RATIO: f64 = 25.0;
/// Below this CPU time a ratio is noise (process start-up dominates).
const MIN_SECONDS: f64 = 0.2;
/// The least CPU time a ratio is taken against: the clock counts 10 ms ticks, so a
/// step from 0.01 s is judged as if from this.
const MIN_BASE_SECONDS: f64 = 0.05;
/// Peak memory ratios are judged only above this many KiB.
const MIN_KIB: u64 = 64 * 1024;

struct Family {
    name: &'static str,
    /// `--from` value.
    from: &'static str,
    ext: &'static str,
    /// `None`: `check`; `Some(format)`: `convert --to format`.
    to: Option<&'static str>,
    make: fn(usize) -> Vec<u8>,
}

fn repeat(head: &str, unit: &str, n: usize, tail: &str) -> Vec<u8> {
    let mut s = String::with_capacity(head.len() + unit.len() * n + tail.len());
    s.push_str(head);
    for _ in 0..n {
        s.push_str(unit);
    }
    s.push_str(tail);
    s.into_bytes()
}

fn nested(head: &str, open: &str, n: usize, tail: &str) -> Vec<u8> {
    let mut v = repeat(head, open, n, "");
    v.extend(std::iter::repeat_n(b')', n));
    v.extend_from_slice(tail.as_bytes());
    v
}

/// A 1-D board of `n` cells, one piece walking across it in `n - 1` moves; every
/// other move names the piece instead of its square (the piece-name lookup path).
fn pcn_walk(n: usize) -> Vec<u8> {
    let n = n.max(2);
    let mut s = String::with_capacity(n * 40);
    s.push_str("{\"over?\":false,\"starting_position\":[\"W:K\"");
    for _ in 1..n {
        s.push_str(",null");
    }
    s.push_str("],\"previous_moves\":[");
    for i in 0..n - 1 {
        if i > 0 {
            s.push(',');
        }
        if i % 2 == 0 {
            let _ = write!(s, "[[{i},\"shift\",{}]]", i + 1);
        } else {
            let _ = write!(s, "[[\"W:K\",\"shift\",{}]]", i + 1);
        }
    }
    s.push_str("]}\n");
    s.into_bytes()
}

fn zeros(n: usize) -> Vec<u8> {
    vec![0; n]
}

/// `head`, then `n` tag lines of distinct names (`[T0 "v0"]`, `[T1 "v1"]`, …), then
/// `tail`.
fn tags(head: &str, n: usize, tail: &str) -> Vec<u8> {
    let mut s = String::from(head);
    for i in 0..n {
        let _ = writeln!(s, "[T{i} \"v{i}\"]");
    }
    s.push_str(tail);
    s.into_bytes()
}

const FAMILIES: &[Family] = &[
    Family {
        name: "ctl-pgn ellipses `1. ... ...`",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: |n| repeat("1. ", "... ", n, "E7-E13 *\n"),
    },
    Family {
        name: "ctl-pgn run of dots `1. .....`",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: |n| repeat("1. ", ".", n, " *\n"),
    },
    Family {
        name: "ctl-pgn `{a}` comments, one line",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: |n| repeat("1. E7-E13 ", "{a} ", n, "*\n"),
    },
    Family {
        name: "ctl-pgn nested variations",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: |n| nested("1. E7-E13 ", "(1. E7-E13 ", n, " *\n"),
    },
    Family {
        // A syntax error at the end sends the record to the pest reader, which builds
        // the tree token by token before it meets the error.
        name: "ctl-pgn sibling variations, error at the end",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: |n| repeat("1. E7-E13 ", "(1. E7-E13) ", n, " E7- *\n"),
    },
    Family {
        name: "ctl-pgn TLPD tag of n ranks",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: |n| repeat("[TLPD \"", "/0:V", n, " w - - 0 1\"]\n\n1. E7-E13 *\n"),
    },
    Family {
        name: "pcn board of n cells, n moves",
        from: "pcn",
        ext: "json",
        to: None,
        make: pcn_walk,
    },
    Family {
        name: "xiangqi-pgn nested variations",
        from: "xiangqi-pgn",
        ext: "pgn",
        to: None,
        make: |n| {
            nested(
                "[Game \"Chinese Chess\"]\n\n1. h2e2 ",
                "(1. h2e2 ",
                n,
                " *\n",
            )
        },
    },
    Family {
        name: "pgn nested variations",
        from: "pgn",
        ext: "pgn",
        to: None,
        make: |n| nested("1. e4 ", "(1. d4 ", n, " *\n"),
    },
    Family {
        name: "pgn sibling variations `(1. d4 d5)`",
        from: "pgn",
        ext: "pgn",
        to: None,
        make: |n| repeat("1. e4 ", "(1. d4 d5) ", n, "*\n"),
    },
    Family {
        name: "pgn `{a}` comments, one line",
        from: "pgn",
        ext: "pgn",
        to: None,
        make: |n| repeat("1. e4 ", "{a} ", n, "*\n"),
    },
    Family {
        // Text that never ends a line or a game: the splitter's boundary limit, not
        // the binary check (no NUL byte), is what stops it.
        name: "pgn endless `x`, no line break",
        from: "pgn",
        ext: "pgn",
        to: None,
        make: |n| vec![b'x'; n],
    },
    Family {
        name: "xiangqi-pgn sibling variations `(1. h2e2)`",
        from: "xiangqi-pgn",
        ext: "pgn",
        to: None,
        make: |n| {
            repeat(
                "[Game \"Chinese Chess\"]\n\n1. h2e2 ",
                "(1. c3c4) ",
                n,
                "*\n",
            )
        },
    },
    Family {
        name: "xiangqi-pgn `{a}` comments, one line",
        from: "xiangqi-pgn",
        ext: "pgn",
        to: None,
        make: |n| repeat("[Game \"Chinese Chess\"]\n\n1. h2e2 ", "{a} ", n, "*\n"),
    },
    Family {
        name: "ctl-pgn endless NUL bytes",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: None,
        make: zeros,
    },
    Family {
        name: "pgn endless NUL bytes",
        from: "pgn",
        ext: "pgn",
        to: None,
        make: zeros,
    },
    Family {
        name: "xiangqi-pgn endless NUL bytes",
        from: "xiangqi-pgn",
        ext: "pgn",
        to: None,
        make: zeros,
    },
    Family {
        name: "pcn endless NUL bytes",
        from: "pcn",
        ext: "json",
        to: None,
        make: zeros,
    },
    Family {
        name: "pgn game of n tags, to PCN",
        from: "pgn",
        ext: "pgn",
        to: Some("pcn"),
        make: |n| tags("", n, "\n1. e4 e5 *\n"),
    },
    Family {
        name: "pgn game of n tags, to PGN",
        from: "pgn",
        ext: "pgn",
        to: Some("pgn"),
        make: |n| tags("", n, "\n1. e4 e5 *\n"),
    },
    Family {
        name: "pgn `{a}` comments, one line, to PCN",
        from: "pgn",
        ext: "pgn",
        to: Some("pcn"),
        make: |n| repeat("1. e4 ", "{a} ", n, "*\n"),
    },
    Family {
        name: "pgn knight shuffle of n moves, to PCN",
        from: "pgn",
        ext: "pgn",
        to: Some("pcn"),
        make: |n| repeat("", "Nf3 Nf6 Ng1 Ng8 ", n, "*\n"),
    },
    Family {
        name: "xiangqi-pgn game of n tags, to xiangqi PGN",
        from: "xiangqi-pgn",
        ext: "pgn",
        to: Some("xiangqi-pgn"),
        make: |n| tags("[Game \"Chinese Chess\"]\n", n, "\n1. h2e2 *\n"),
    },
    Family {
        name: "xiangqi-pgn game of n tags, to PCN",
        from: "xiangqi-pgn",
        ext: "pgn",
        to: Some("pcn"),
        make: |n| tags("[Game \"Chinese Chess\"]\n", n, "\n1. h2e2 *\n"),
    },
    Family {
        name: "ctl-pgn game of n tags, to PCN",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: Some("pcn"),
        make: |n| tags("", n, "\n1. E7-E13 *\n"),
    },
    Family {
        name: "ctl-pgn game of n tags, to CTL-PGN",
        from: "ctl-pgn",
        ext: "ctlpgn",
        to: Some("ctl-pgn"),
        make: |n| tags("", n, "\n1. E7-E13 *\n"),
    },
];

struct Measure {
    wall: f64,
    cpu: f64,
    max_kib: u64,
    exit: String,
}

fn measure(bin: &Path, fam: &Family, file: &Path, limit: Duration) -> Result<Measure, String> {
    let out = file.with_extension("time");
    let converted = file.with_extension("out");
    let mut cmd = Command::new("/usr/bin/time");
    cmd.args(["-f", "%e %U %S %M %x", "-o"]).arg(&out).arg(bin);
    match fam.to {
        None => cmd.arg("check"),
        Some(to) => cmd.args(["convert", "--to", to, "-o"]).arg(&converted),
    };
    cmd.args(["-j1", "--from", fam.from])
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run /usr/bin/time: {e}"))?;
    let start = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if start.elapsed() > limit {
            // The whole group: `time` and the checker under it.
            let _ = Command::new("kill")
                .args(["-KILL", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return Ok(Measure {
                wall: start.elapsed().as_secs_f64(),
                cpu: f64::INFINITY,
                max_kib: 0,
                exit: "timeout".into(),
            });
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = fs::remove_file(&converted);
    let text = fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let last = text.lines().last().unwrap_or_default();
    let f: Vec<&str> = last.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    Ok(Measure {
        wall: num(0),
        cpu: num(1) + num(2),
        max_kib: num(3) as u64,
        exit: f.get(4).unwrap_or(&"?").to_string(),
    })
}

/// `cargo xtask scaling [--sizes 1000,10000,…] [--family SUBSTRING] [--timeout S]
/// [--bin PATH]`.
pub fn run(args: &[String]) -> Result<bool, String> {
    let sizes: Vec<usize> = match crate::flag::<String>(args, "--sizes")? {
        Some(s) => s
            .split(',')
            .map(|x| {
                x.trim()
                    .parse()
                    .map_err(|_| format!("--sizes: bad size {x:?}"))
            })
            .collect::<Result<_, _>>()?,
        None => vec![1_000, 10_000, 100_000, 1_000_000],
    };
    let filter = crate::flag::<String>(args, "--family")?;
    let limit = Duration::from_secs(crate::flag::<u64>(args, "--timeout")?.unwrap_or(60));
    let bin = match crate::flag::<PathBuf>(args, "--bin")? {
        Some(b) => b,
        None => crate::build_cli()?,
    };
    let dir = crate::root().join("target/scaling");
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    println!("binary: {}", bin.display());
    println!("| family | n | bytes | wall s | cpu s | cpu ratio | peak MiB | mem ratio | exit |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut failures = Vec::new();
    for (fi, fam) in FAMILIES.iter().enumerate() {
        if filter
            .as_ref()
            .is_some_and(|f| !fam.name.contains(f.as_str()))
        {
            continue;
        }
        let mut prev: Option<(usize, Measure)> = None;
        for &n in &sizes {
            let bytes = (fam.make)(n);
            let file = dir.join(format!("family{fi}-{n}.{}", fam.ext));
            fs::write(&file, &bytes).map_err(|e| format!("{}: {e}", file.display()))?;
            let m = measure(&bin, fam, &file, limit)?;
            let _ = fs::remove_file(&file);
            let (cpu_ratio, mem_ratio) = match &prev {
                Some((pn, p)) => {
                    let scale = n as f64 / *pn as f64;
                    let c = m.cpu / p.cpu.max(MIN_BASE_SECONDS);
                    let r = m.max_kib as f64 / p.max_kib.max(1) as f64;
                    // Judge against a 10× step; other steps are scaled to it.
                    let allowed = MAX_RATIO * scale / 10.0;
                    if m.cpu.is_infinite() || (m.cpu > MIN_SECONDS && c > allowed) {
                        failures.push(format!(
                            "{}: n {pn} -> {n}: CPU time ×{c:.1} (allowed ×{allowed:.0})",
                            fam.name
                        ));
                    }
                    if m.max_kib > MIN_KIB && r > allowed {
                        failures.push(format!(
                            "{}: n {pn} -> {n}: peak memory ×{r:.1} (allowed ×{allowed:.0})",
                            fam.name
                        ));
                    }
                    (format!("{c:.1}"), format!("{r:.1}"))
                }
                None => ("".into(), "".into()),
            };
            let cpu = if m.cpu.is_infinite() {
                format!(">{}", limit.as_secs())
            } else {
                format!("{:.2}", m.cpu)
            };
            println!(
                "| {} | {n} | {} | {:.2} | {cpu} | {cpu_ratio} | {:.1} | {mem_ratio} | {} |",
                fam.name,
                bytes.len(),
                m.wall,
                m.max_kib as f64 / 1024.0,
                m.exit
            );
            let timed_out = m.cpu.is_infinite();
            prev = Some((n, m));
            if timed_out {
                break;
            }
        }
    }
    if failures.is_empty() {
        println!("\nno superlinear step (CPU time or peak memory ×{MAX_RATIO} per 10× input)");
        Ok(true)
    } else {
        println!("\nsuperlinear:");
        for f in &failures {
            println!("  {f}");
        }
        Ok(false)
    }
}
