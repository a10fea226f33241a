//! `perft`, `moves` and `show`: user limits and output errors end with a message and
//! an exit status, never a panic (exit status 101).

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Two Kings and a Rook: few moves per ply, the shape where a huge depth once
/// overflowed the stack.
const SMALL: &str = "/27:1k/25:r3/1:1K/ w - - 0 1";

#[test]
fn huge_perft_depths_are_refused_with_status_2() {
    for depth in ["4294967295", "1000000", "21"] {
        let out = cescacs(&["perft", depth]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "perft {depth}: {}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("maximum of 20"), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
    let out = cescacs(&["perft", "2", "--tlpd", SMALL]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = cescacs(&["perft", "1000000", "--tlpd", SMALL]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn perft_job_counts_are_checked_and_do_not_change_the_count() {
    for jobs in ["0", "100000"] {
        let out = cescacs(&["perft", "2", "--jobs", jobs]);
        assert_eq!(out.status.code(), Some(2), "-j {jobs}");
        assert!(stderr(&out).contains("perft jobs"), "{}", stderr(&out));
    }
    let out = cescacs(&["perft", "3", "--jobs", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "340385");
    let out = cescacs(&["perft", "2", "-j", "3", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(text.lines().count(), 69);
    assert_eq!(text.lines().last(), Some("4612"));
}

/// Runs the command with its standard output read by `reader`, then dropped.
fn with_closed_pipe(args: &[&str], lines_read: usize) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdout = child.stdout.take().expect("piped");
    let mut reader = BufReader::new(stdout);
    for _ in 0..lines_read {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        assert!(!line.is_empty());
    }
    drop(reader);
    child.wait_with_output().expect("the binary ends")
}

fn assert_quiet_end(out: &Output, what: &str) {
    let err = stderr(out);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert_ne!(out.status.code(), Some(101), "{what}: {err}");
    assert!(
        out.status.success() || err.contains("error:"),
        "{what}: status {:?} without a message",
        out.status
    );
}

#[test]
fn moves_into_a_closed_pipe_ends_quietly() {
    // `cescacs moves | true`
    let out = with_closed_pipe(&["moves"], 0);
    assert_quiet_end(&out, "moves | true");
}

#[test]
fn perft_divide_into_head_ends_quietly() {
    // `cescacs perft 3 --divide | head -1`
    let out = with_closed_pipe(&["perft", "3", "--divide"], 1);
    assert_quiet_end(&out, "perft 3 --divide | head -1");
    let out = with_closed_pipe(&["show"], 1);
    assert_quiet_end(&out, "show | head -1");
}

#[test]
fn moves_into_a_full_device_is_an_error_not_a_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        panic!("/dev/full is needed by this test (Linux)");
    };
    let out = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .arg("moves")
        .stdout(full)
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot write to standard output"),
        "{}",
        stderr(&out)
    );
}
