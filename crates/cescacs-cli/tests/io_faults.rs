//! Issue 26, the command's input and output faults (cases 1, 2, 3, 4, 7, 8, 12), run
//! through the `cescacs` binary: exit status, what the report holds, what is left on
//! disk. Each test failed on the code before the fix.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("run cescacs")
}

/// Runs `cescacs` through `sh` with `shell` before it (`ulimit -n 64`, `>&-`).
fn in_shell(prefix: &str, args: &[&str], suffix: &str) -> Output {
    let script = format!("{prefix} exec \"$0\" \"$@\" {suffix}");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("run sh")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cescacs-io26-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The 232-game TWIC extract of testdata (MIT, see testdata/chess/PROVENANCE.md).
fn twic() -> PathBuf {
    test_support::testdata().join("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn")
}

fn copy_twic(d: &Path) -> PathBuf {
    let db = d.join("db.pgn");
    std::fs::copy(twic(), &db).unwrap();
    db
}

fn report(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Case 1: `--report` onto an input (itself, a hard link, a symbolic link) or onto the
/// output is refused with the input untouched; a report is renamed into place, never
/// truncated where it is.
#[test]
fn the_report_is_guarded_like_the_output() {
    let d = dir("report-guard");
    let db = copy_twic(&d);
    let before = std::fs::read(&db).unwrap();
    std::fs::hard_link(&db, d.join("hard.pgn")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&db, d.join("soft.pgn")).unwrap();
    for cmd in ["check", "convert", "select"] {
        for name in ["db.pgn", "hard.pgn", "soft.pgn"] {
            let target = d.join(name);
            let mut args = vec![cmd, "-q", s(&db), "--report", s(&target)];
            if cmd == "convert" {
                args.extend(["--to", "pgn", "-o", "/dev/null"]);
            }
            let out = cescacs(&args);
            assert_eq!(out.status.code(), Some(2), "{cmd} {name}: {}", stderr(&out));
            assert!(
                stderr(&out).contains("is also an input"),
                "{}",
                stderr(&out)
            );
            assert_eq!(std::fs::read(&db).unwrap(), before, "{cmd} {name}");
        }
    }
    // `-o F --report F`, F new: refused, nothing written.
    let f = d.join("new.json");
    let out = cescacs(&[
        "convert",
        "--to",
        "pcn",
        "-o",
        s(&f),
        "--report",
        s(&f),
        s(&db),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("also the output"), "{}", stderr(&out));
    assert!(!f.exists());
    // An old report is replaced by a rename: a hard link to it keeps the old text.
    let r = d.join("r.json");
    std::fs::write(&r, "old report").unwrap();
    std::fs::hard_link(&r, d.join("r-old.json")).unwrap();
    let out = cescacs(&["check", "-q", s(&db), "--report", s(&r)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(report(&r)["games"], 232);
    assert_eq!(
        std::fs::read_to_string(d.join("r-old.json")).unwrap(),
        "old report"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// Case 2: 2,000 one-game files under an open-file limit of 64 are all read.
#[cfg(unix)]
#[test]
fn many_files_under_a_small_open_file_limit_are_all_read() {
    let d = dir("many");
    let games = d.join("games");
    std::fs::create_dir(&games).unwrap();
    for i in 0..2000 {
        std::fs::write(
            games.join(format!("g{i:05}.pgn")),
            format!("[Event \"g{i}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"),
        )
        .unwrap();
    }
    let r = d.join("r.json");
    let out = in_shell(
        "ulimit -n 64 &&",
        &["check", "-q", s(&games), "--report", s(&r)],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = report(&r);
    assert_eq!(
        (r["files"].as_u64(), r["games"].as_u64()),
        (Some(2000), Some(2000))
    );
    // And converted into one output.
    let all = d.join("all.pgn");
    let out = in_shell(
        "ulimit -n 64 &&",
        &["convert", "-q", "--to", "pgn", "-o", s(&all), s(&games)],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&all).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2000);
    std::fs::remove_dir_all(&d).unwrap();
}

/// `db` packed by the command itself (`-o NAME.EXT` compresses), then one byte in the
/// middle of the packed stream flipped.
fn damaged_copy(d: &Path, db: &Path, ext: &str) -> PathBuf {
    let packed = d.join(format!("packed.pgn.{ext}"));
    let out = cescacs(&["convert", "-q", "--to", "pgn", "-o", s(&packed), s(db)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut bytes = std::fs::read(&packed).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    let bad = d.join(format!("bad.pgn.{ext}"));
    std::fs::write(&bad, bytes).unwrap();
    bad
}

/// Case 3 and case 4: a flipped byte in the middle of a `.gz`, `.zst`, `.bz2`, `.xz`
/// is a file-level error naming the file and the codec, in the report too; exit 2;
/// `convert -o` leaves the old output as it was (no game of the damaged stream is
/// committed) unless `--keep-damaged`.
#[test]
fn a_damaged_compressed_stream_commits_none_of_its_games() {
    let d = dir("damaged");
    let db = copy_twic(&d);
    for (ext, codec) in [
        ("gz", "gzip"),
        ("zst", "zstd"),
        ("bz2", "bzip2"),
        ("xz", "xz"),
    ] {
        let bad = damaged_copy(&d, &db, ext);
        let out_file = d.join("out.pgn");
        std::fs::write(&out_file, "old output").unwrap();
        let r = d.join("r.json");
        let args = [
            "convert",
            "-q",
            "--to",
            "pgn",
            "-o",
            s(&out_file),
            "--report",
            s(&r),
            s(&db),
            s(&bad),
        ];
        let out = cescacs(&args);
        assert_eq!(out.status.code(), Some(2), "{ext}: {}", stderr(&out));
        assert_eq!(
            std::fs::read_to_string(&out_file).unwrap(),
            "old output",
            "{ext}"
        );
        let rep = report(&r);
        assert_eq!(rep["files_failed"], 1, "{ext}: {rep}");
        let named = rep["diagnostics"].as_array().unwrap().iter().any(|x| {
            x["severity"] == "error"
                && x["file"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("bad.pgn.{ext}"))
                && x["message"].as_str().unwrap().contains(codec)
        });
        assert!(named, "{ext}: {rep}");
        // Never worded as if what came before were sound.
        let said = stderr(&out);
        assert!(
            !said.contains("the rest of this input is not read"),
            "{said}"
        );
        // Asked for: the output is written, the exit status still says 2.
        let out = cescacs(&[
            "convert",
            "-q",
            "--keep-damaged",
            "--to",
            "pgn",
            "-o",
            s(&out_file),
            s(&db),
            s(&bad),
        ]);
        assert_eq!(out.status.code(), Some(2), "{ext}: {}", stderr(&out));
        let kept = std::fs::read_to_string(&out_file).unwrap();
        assert!(kept.matches("[Event ").count() >= 232, "{ext}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// A zstd skippable frame (magic 0x184D2A5x, a 4-byte little-endian length, data).
fn skippable(n: u8, data: &[u8]) -> Vec<u8> {
    let mut v = vec![0x50 | n, 0x2A, 0x4D, 0x18];
    v.extend((data.len() as u32).to_le_bytes());
    v.extend(data);
    v
}

/// Case 3: a `.zst` starting with a skippable frame (as `pzstd` writes) and with one
/// between two frames is read whole.
#[test]
fn zstd_skippable_frames_anywhere_are_skipped() {
    let d = dir("pzstd");
    let db = copy_twic(&d);
    let packed = d.join("p.pgn.zst");
    let out = cescacs(&["convert", "-q", "--to", "pgn", "-o", s(&packed), s(&db)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let frame = std::fs::read(&packed).unwrap();
    let mut bytes = skippable(0, &[0, 0, 1, 0]);
    bytes.extend(&frame);
    bytes.extend(skippable(15, b"between the frames"));
    bytes.extend(&frame);
    let odd = d.join("pz.pgn.zst");
    std::fs::write(&odd, bytes).unwrap();
    let r = d.join("r.json");
    let out = cescacs(&["check", "-q", s(&odd), "--report", s(&r)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(report(&r)["games"], 464);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Case 4: file-level problems (binary input, a stream damaged from its first bytes,
/// an unreadable path, an empty file) are in the report, not only on standard error.
#[test]
fn the_report_holds_file_level_problems() {
    let d = dir("file-level");
    let db = copy_twic(&d);
    let zeros = d.join("zeros.pgn");
    std::fs::write(&zeros, vec![0u8; 4096]).unwrap();
    let broken = d.join("broken.pgn.gz");
    std::fs::write(
        &broken,
        [0x1F, 0x8B, 8, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
    )
    .unwrap();
    let empty = d.join("empty.pgn");
    std::fs::write(&empty, "").unwrap();
    let missing = d.join("missing.pgn");
    let r = d.join("r.json");
    let out = cescacs(&[
        "check",
        "-q",
        s(&db),
        s(&zeros),
        s(&broken),
        s(&empty),
        s(&missing),
        "--report",
        s(&r),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let rep = report(&r);
    let diags = rep["diagnostics"].as_array().unwrap();
    for (file, severity) in [
        (&zeros, "error"),
        (&broken, "error"),
        (&empty, "warning"),
        (&missing, "error"),
    ] {
        assert!(
            diags
                .iter()
                .any(|x| x["file"] == s(file) && x["severity"] == severity),
            "{}: {rep}",
            file.display()
        );
    }
    assert_eq!(rep["errors"], 3, "{rep}");
    assert_eq!(rep["files_failed"], 3, "{rep}");
    assert_eq!(rep["games"], 232, "{rep}");
    // An empty file alone: a warning, exit 0.
    let out = cescacs(&["check", s(&empty)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("empty input"), "{}", stderr(&out));
    std::fs::remove_dir_all(&d).unwrap();
}

/// Case 7: results that cannot be written never exit 0.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_exit_2() {
    let d = dir("closed");
    let db = copy_twic(&d);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(["select", "--count", s(&db)])
        .stdout(Stdio::from(full))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let commands: [&[&str]; 6] = [
        &["convert", "--to", "pcn", s(&db)],
        &["select", s(&db)],
        &["select", "--count", s(&db)],
        &["perft", "1"],
        &["moves"],
        &["show"],
    ];
    for args in commands {
        let out = in_shell("", args, ">&-");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("standard output"), "{}", stderr(&out));
    }
    // `>/dev/null` is a choice, not a closed output.
    let out = in_shell("", &["moves"], ">/dev/null");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::remove_dir_all(&d).unwrap();
}

/// Case 8: `-o` keeps an existing output's mode (and owner, when run as root); the
/// temporary file of a killed run is named and removed, one of a live run left.
#[cfg(unix)]
#[test]
fn an_output_keeps_its_mode_and_owner_and_stale_partials_are_named() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let d = dir("mode");
    let db = copy_twic(&d);
    let out_file = d.join("out.pgn");
    std::fs::write(&out_file, "old").unwrap();
    std::fs::set_permissions(&out_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    if root {
        std::os::unix::fs::chown(&out_file, Some(4321), Some(4322)).unwrap();
    }
    // No process has a PID above the kernel's largest (4,194,304).
    let dead = d.join(".out.pgn.partial-4194999");
    std::fs::write(&dead, "half").unwrap();
    let alive = d.join(format!(".out.pgn.partial-{}", std::process::id()));
    std::fs::write(&alive, "being written").unwrap();
    let out = cescacs(&["convert", "-q", "--to", "pgn", "-o", s(&out_file), s(&db)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::metadata(&out_file).unwrap();
    assert_eq!(meta.mode() & 0o777, 0o600);
    if root {
        assert_eq!((meta.uid(), meta.gid()), (4321, 4322));
    }
    assert!(
        std::fs::read_to_string(&out_file)
            .unwrap()
            .contains("[Event ")
    );
    let said = stderr(&out);
    assert!(!dead.exists(), "{said}");
    assert!(said.contains(".out.pgn.partial-4194999"), "{said}");
    assert!(alive.exists());
    assert!(said.contains("still running"), "{said}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Case 12: the command's own PCN output, found in a walk, is read back.
#[test]
fn own_pcn_output_is_read_back_in_a_walk() {
    let d = dir("own-pcn");
    let db = copy_twic(&d);
    let out_dir = d.join("d");
    std::fs::create_dir(&out_dir).unwrap();
    for name in ["all.jsonl", "all.json"] {
        let all = out_dir.join(name);
        let out = cescacs(&["convert", "-q", "--to", "pcn", "-o", s(&all), s(&db)]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let r = d.join("r.json");
    let out = cescacs(&["check", "-q", s(&out_dir), "--report", s(&r)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rep = report(&r);
    assert_eq!(
        (rep["files"].as_u64(), rep["games"].as_u64()),
        (Some(2), Some(464))
    );
    std::fs::remove_dir_all(&d).unwrap();
}

/// A zip archive of `members` (name, bytes), deflated.
fn zip_of(path: &Path, members: &[(&str, &[u8])]) {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in members {
        z.start_file(*name, options).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
}

/// Case 12: zip archives are read, in walks and named directly (no `--from`), each
/// member an input named `ARCHIVE:MEMBER`; a damaged member is exit 2.
#[test]
fn zip_archives_are_read_member_by_member() {
    let d = dir("zip");
    let twic = std::fs::read(twic()).unwrap();
    let walked = d.join("w");
    std::fs::create_dir(&walked).unwrap();
    let archive = walked.join("twic.zip");
    let one = b"[Event \"x\"]\n[Result \"*\"]\n\n1. e4 Ke7 *\n";
    zip_of(
        &archive,
        &[
            ("sub/twic.pgn", &twic),
            ("bad.pgn", one),
            ("readme.txt", b"hello"),
        ],
    );
    for target in [&walked, &archive] {
        let r = d.join("r.json");
        let out = cescacs(&["check", "-q", s(target), "--report", s(&r)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let rep = report(&r);
        assert_eq!(
            (rep["files"].as_u64(), rep["games"].as_u64()),
            (Some(2), Some(233))
        );
        let bad = &rep["diagnostics"][0];
        assert_eq!(
            bad["file"],
            format!("{}:bad.pgn", archive.display()),
            "{rep}"
        );
    }
    // One flipped byte inside the deflated TWIC member: its CRC fails.
    let mut bytes = std::fs::read(&archive).unwrap();
    let mid = bytes.len() / 3;
    bytes[mid] ^= 0x55;
    let damaged = d.join("damaged.zip");
    std::fs::write(&damaged, bytes).unwrap();
    let out = cescacs(&["check", "-q", s(&damaged)]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    std::fs::remove_dir_all(&d).unwrap();
}
