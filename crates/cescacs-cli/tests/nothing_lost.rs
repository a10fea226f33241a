//! Issue 12, "nothing lost": each case that used to lose a file or a game, run through
//! the `cescacs` binary with its result, its exit status and the count of games kept.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("run cescacs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cescacs-lost-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn chess_game(i: usize) -> String {
    format!("[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n")
}

fn bad_chess_game(i: usize) -> String {
    format!("[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 Ke7 *\n\n")
}

fn ctl_game(i: usize) -> String {
    format!("[Variant \"C'escacs\"]\n[Event \"g{i}\"]\n\n1. E7-E9, E21-E19\n*\n\n")
}

fn xiangqi_game(i: usize) -> String {
    format!("[Game \"Chinese Chess\"]\n[Event \"g{i}\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n\n")
}

/// 232 games, the 5th with a `{` never closed.
fn with_unclosed_comment(game: fn(usize) -> String) -> String {
    (1..=232)
        .map(|i| {
            let g = game(i);
            if i == 5 {
                g.replacen("\n\n1. ", "\n\n1. {never closed\n", 1)
            } else {
                g
            }
        })
        .collect()
}

#[test]
fn unclosed_comment_in_game_5_of_232_loses_only_game_5() {
    let d = dir("unclosed");
    for (name, game) in [
        ("c.pgn", chess_game as fn(usize) -> String),
        ("c.ctl-pgn", ctl_game),
        ("x.pgn", xiangqi_game),
    ] {
        let path = d.join(name);
        std::fs::write(&path, with_unclosed_comment(game)).unwrap();
        let out = cescacs(&["check", s(&path)]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(
            err.contains("232 game(s) read, 231 valid, 1 bad"),
            "{name}: {err}"
        );
        assert!(
            err.contains(&format!("{name}:"))
                && err.contains(": game 5: error: unclosed `{` comment"),
            "{name}: {err}"
        );
        let out = cescacs(&["convert", "--to", "pcn", "--jsonl", s(&path)]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 231);
    }
}

#[test]
fn games_without_blank_lines_or_tags_are_all_read() {
    let d = dir("noblank");
    let path = d.join("t.pgn");
    std::fs::write(&path, "1. e4 e5 *\n1. d4 d5 *\n[Event \"x\"]\n1. c4 *\n").unwrap();
    let out = cescacs(&["check", s(&path)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("3 game(s) read, 3 valid"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn output_onto_its_input_is_refused_and_the_input_kept() {
    let d = dir("onto");
    let path = d.join("k.pgn");
    let text: String = (1..=10).map(chess_game).collect();
    std::fs::write(&path, &text).unwrap();
    let out = cescacs(&["convert", "--to", "pgn", "-o", s(&path), s(&path)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is also an input"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // In a directory walk, the output is not an input.
    std::fs::write(d.join("other.pgn"), chess_game(1)).unwrap();
    let out = cescacs(&["convert", "--to", "pgn", "-o", s(&path), s(&d)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // In a walk, the output is left out (with a note), so it is replaced safely.
    assert!(
        stderr(&out).contains("left out of the walk"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn rerun_over_a_directory_does_not_read_its_own_output_or_report() {
    let d = dir("rerun");
    std::fs::write(
        d.join("a.pgn"),
        (1..=20).map(chess_game).collect::<String>(),
    )
    .unwrap();
    let out_path = d.join("out.json");
    let report = d.join("report.json");
    for _ in 0..3 {
        let out = cescacs(&[
            "convert",
            "--to",
            "pcn",
            "-o",
            s(&out_path),
            "--report",
            s(&report),
            s(&d),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("20 game(s) read, 20 converted"),
            "{}",
            stderr(&out)
        );
    }
    let docs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    assert_eq!(docs.as_array().unwrap().len(), 20);
    // The output reads back, element by element.
    let out = cescacs(&["check", s(&out_path)]);
    assert!(
        stderr(&out).contains("20 game(s) read, 20 valid"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unreadable_input_keeps_the_old_output() {
    let d = dir("unreadable");
    let out_path = d.join("out.pgn");
    std::fs::write(&out_path, "old").unwrap();
    let good = d.join("g.pgn");
    std::fs::write(&good, chess_game(1)).unwrap();
    let out = cescacs(&[
        "convert",
        "--to",
        "pgn",
        "-o",
        s(&out_path),
        s(&good),
        s(&d.join("missing.pgn")),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("missing.pgn: error: cannot read"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "old");
    let leftovers: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
    assert_eq!(leftovers.len(), 2, "no temporary file is left behind");
}

#[test]
fn one_report_for_every_format_group() {
    let d = dir("mixed");
    std::fs::write(
        d.join("a.pgn"),
        format!("{}1. e4 Ke7 Qz9 *\n", chess_game(1)),
    )
    .unwrap();
    std::fs::write(
        d.join("b.ctl-pgn"),
        format!("{}[Variant \"C'escacs\"]\n\n1. Z9-Z99 *\n", ctl_game(1)),
    )
    .unwrap();
    std::fs::write(d.join("c.json"), "").unwrap();
    std::fs::write(d.join("manifest.json"), "{\"files\": 3}").unwrap();
    let report = d.join("r.json");
    let out = cescacs(&["check", "--report", s(&report), s(&d)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let files: Vec<&str> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert!(files.iter().any(|f| f.ends_with("a.pgn")), "{json}");
    assert!(files.iter().any(|f| f.ends_with("b.ctl-pgn")), "{json}");
    assert!(
        !files.iter().any(|f| f.ends_with("manifest.json")),
        "{json}"
    );
    assert_eq!(json["games_bad"], 2);
    // Converting: a group that writes nothing does not break the JSON array.
    let out = cescacs(&[
        "convert",
        "--to",
        "pcn",
        s(&d.join("c.json")),
        s(&d.join("a.pgn")),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v.as_array().unwrap().len(), 1);
}

#[test]
fn pcn_arrays_and_json_lines_with_one_bad_document() {
    let d = dir("pcn");
    let pgn = d.join("g.pgn");
    std::fs::write(&pgn, (1..=50).map(chess_game).collect::<String>()).unwrap();
    for (name, jsonl) in [("all.json", false), ("all.jsonl", true)] {
        let path = d.join(name);
        let out = cescacs(&["convert", "--to", "pcn", "-o", s(&path), s(&pgn)]);
        assert_eq!(out.status.code(), Some(0));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(jsonl, !text.starts_with('['));
        // Damage the 7th document.
        let mut n = 0;
        let damaged: String = text
            .split_inclusive('\n')
            .map(|l| {
                if l.starts_with('{') {
                    n += 1;
                    if n == 7 {
                        return l.replacen('{', "{\"x\" ", 1);
                    }
                }
                l.to_string()
            })
            .collect();
        std::fs::write(&path, damaged).unwrap();
        let out = cescacs(&["check", s(&path)]);
        assert_eq!(out.status.code(), Some(1), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("50 game(s) read, 49 valid, 1 bad"),
            "{name}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn standard_input_and_pipes_need_no_from() {
    let text: String = (1..=30).map(chess_game).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("30 game(s) read, 30 valid"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn compressed_inputs_give_the_same_summary_as_plain() {
    let d = dir("packed");
    let plain = d.join("g.pgn");
    let text: String = (1..=300)
        .map(|i| {
            if i % 50 == 0 {
                bad_chess_game(i)
            } else {
                chess_game(i)
            }
        })
        .collect();
    std::fs::write(&plain, text).unwrap();
    let summary = |o: &Output| {
        stderr(o)
            .lines()
            .find(|l| l.contains("game(s) read"))
            .map(|l| l.split(" in ").next().unwrap().to_string())
            .unwrap()
    };
    let all = cescacs(&["check", s(&plain)]);
    assert!(
        summary(&all).contains("300 game(s) read, 294 valid, 6 bad"),
        "{}",
        stderr(&all)
    );
    // The same games, plain and packed four ways, give the same summary.
    let good = d.join("good.pgn");
    assert_eq!(
        cescacs(&["convert", "--to", "pgn", "-o", s(&good), s(&plain)])
            .status
            .code(),
        Some(1)
    );
    let reference = summary(&cescacs(&["check", s(&good)]));
    assert!(
        reference.contains("294 game(s) read, 294 valid, 0 bad"),
        "{reference}"
    );
    for ext in ["gz", "bz2", "zst", "xz"] {
        let packed = d.join(format!("good.pgn.{ext}"));
        let out = cescacs(&["convert", "--to", "pgn", "-o", s(&packed), s(&plain)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert_ne!(
            std::fs::read(&packed).unwrap()[..2],
            *b"[E",
            "{ext} is compressed"
        );
        let out = cescacs(&["check", s(&packed)]);
        assert_eq!(out.status.code(), Some(0), "{ext}: {}", stderr(&out));
        assert_eq!(summary(&out), reference, "{ext}");
    }
}

#[test]
fn sigint_halfway_keeps_the_old_output_and_whole_lines() {
    let d = dir("sigint");
    let game = |i: usize| {
        if i.is_multiple_of(100) {
            bad_chess_game(i)
        } else {
            chess_game(i)
        }
    };
    let out_path = d.join("out.json");
    std::fs::write(&out_path, "old output").unwrap();
    // The games come through a pipe that stays open until the signal is sent, so the
    // run cannot finish before it (a file was sometimes read to its end before the
    // signal came, on a fast or loaded machine).
    let mut child = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(["convert", "--to", "pcn", "-j", "1", "-o", s(&out_path), "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let first: String = (1..=25_000).map(game).collect();
        if stdin.write_all(first.as_bytes()).is_err() {
            return;
        }
        // Held open until the signal has been sent.
        let _ = released.recv();
        drop(stdin);
    });
    // Halfway: once the temporary output has grown.
    let started = std::time::Instant::now();
    loop {
        let partial = std::fs::read_dir(&d)
            .unwrap()
            .filter_map(|e| e.ok())
            .find(|e| e.file_name().to_string_lossy().contains(".partial-"));
        if partial.is_some_and(|p| p.metadata().map(|m| m.len() > 1 << 20).unwrap_or(false)) {
            break;
        }
        assert!(
            started.elapsed().as_secs() < 120,
            "the temporary output never grew past 1 MiB"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // The input ends only now: the run sees the signal with games still to read.
    let _ = release.send(());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "old output");
    assert!(err.ends_with('\n'));
    for line in err.lines() {
        assert!(
            line.contains(": game ") && line.contains(": error: ") || line.contains("game(s) read"),
            "incomplete or unexpected line {line:?}"
        );
    }
    assert!(err.contains("interrupted"), "{err}");
    let leftovers: Vec<_> = std::fs::read_dir(&d).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "the partial output is removed");
}

#[test]
fn endless_input_stops_with_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(["check", "--from", "ctl-pgn", "-q", "-"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = vec![b'x'; 1 << 20];
        // 200 MB without a newline: more than four times the 32 MB cap.
        for _ in 0..200 {
            if stdin.write_all(&block).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 bad"), "{}", stderr(&out));
    let j = cescacs(&["check", "-j", "100000", "-"]);
    assert_eq!(j.status.code(), Some(2));
    assert!(stderr(&j).contains("at most"), "{}", stderr(&j));
}

/// A fresh directory holding `g.pgn`, one game: the directory and the file.
fn dir_with_a_game(name: &str) -> (PathBuf, PathBuf) {
    let d = dir(name);
    let input = d.join("g.pgn");
    std::fs::write(&input, chess_game(1)).unwrap();
    (d, input)
}

#[test]
fn a_directory_as_output_is_refused_before_the_run() {
    let (d, input) = dir_with_a_game("outdir");
    let target = d.join("out");
    std::fs::create_dir(&target).unwrap();
    let out = cescacs(&["convert", "--to", "pcn", "-o", s(&target), s(&input)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
    // Nothing was read or written: no summary, no temporary file left.
    assert!(!stderr(&out).contains("game(s) read"), "{}", stderr(&out));
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 2);
    assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0);
}

/// `-o /dev/null` once renamed the output over the device (as root, the device became a
/// file). A pipe stands for every target that is not a regular file (the test must not
/// risk the machine's `/dev/null`): it is written in place and stays a pipe.
#[cfg(unix)]
#[test]
fn a_pipe_as_output_is_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let (d, input) = dir_with_a_game("fifo-out");
    let fifo = d.join("pipe");
    test_support::mkfifo(&fifo);
    let (tx, rx) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || tx.send(std::fs::read(path)));
    let out = cescacs(&[
        "convert",
        "--to",
        "pcn",
        "--jsonl",
        "-o",
        s(&fifo),
        s(&input),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "{kind:?}");
    // A renamed pipe would leave the reader waiting: a time limit, not a hang.
    let text = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the reader got the output")
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert!(doc.get("previous_moves").is_some(), "{doc}");
}
