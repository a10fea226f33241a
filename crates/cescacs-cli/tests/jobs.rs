//! `-j1` runs each game on the calling thread, any other job count through the
//! pipelined batch engine: two code paths that must give the same bytes. Compared on
//! every file of `testdata/` at once (every format, good and bad games, damaged files).

use std::path::{Path, PathBuf};
use std::process::Command;

fn testdata() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    dir
}

/// Exit code, standard output, and standard error without the run's duration.
fn run(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("run cescacs");
    let err = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| match l.rfind(" in ") {
            Some(i) if l.ends_with(" s") && l.contains("game(s) read") => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    (out.status.code(), out.stdout, err)
}

#[test]
fn one_job_and_three_give_the_same_bytes() {
    let data = testdata();
    let data = data.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("cescacs-jobs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = run(&["check", "-j", "1", data]);
    let three = run(&["check", "-j", "3", data]);
    assert_eq!(one, three, "check");
    assert_eq!(one.0, Some(1), "testdata has bad games: {}", one.2);
    assert!(one.2.matches(": error: ").count() > 50, "{}", one.2);

    let mut outputs = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.join(format!("j{jobs}.json"));
        let result = run(&[
            "convert",
            "--to",
            "pcn",
            "-j",
            jobs,
            "-o",
            out.to_str().unwrap(),
            data,
        ]);
        outputs.push((result, std::fs::read(&out).expect("the PCN output")));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "convert --to pcn");
    assert!(outputs[0].1.len() > 1 << 20);
    assert!(outputs[0].1 == outputs[1].1, "the PCN documents differ");
    let _ = std::fs::remove_dir_all(&dir);
}
