//! Issue 26, the readers' cases end to end: a repeated `Variant` tag loses nothing
//! (case 5), a game of another game is refused by name (case 6), and no control
//! character of the input reaches the terminal (case 9).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str, content: &[u8]) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("readers-trust-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, content).unwrap();
    (dir, file)
}

fn cescacs(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_repeated_variant_tag_keeps_the_game_and_its_move() {
    let src = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/bad/ctl-duplicate-variant.ctl-pgn"),
    )
    .unwrap();
    let (dir, _) = scratch("dup.ctl-pgn", &src);
    let out = cescacs(&dir, &["convert", "--to", "ctl-pgn", "dup.ctl-pgn"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("[Event \"bad\"]"), "{text}\n{stderr}");
    assert_eq!(text.matches("NG3-I13").count(), 3, "{text}\n{stderr}");
    assert!(
        stderr.contains("dup.ctl-pgn:11:1: game 2: warning: Variant tag repeated"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_chess_game_in_a_xiangqi_file_is_refused_by_name() {
    let src = b"[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. C2=5 *\n\n[Game \"Chess\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n[Game \"Chinese Chess\"]\n[Variant \"Manchu\"]\n[Result \"*\"]\n\n1. C2=5 *\n";
    let (dir, _) = scratch("mixed.pgn", src);
    let out = cescacs(&dir, &["convert", "--to", "pcn", "mixed.pgn"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("mixed.pgn:6:1: game 2: error: [Game \"Chess\"] names a game"),
        "{stderr}"
    );
    assert!(
        stderr.contains("mixed.pgn:12:1: game 3: error: [Variant \"Manchu\"] names a game"),
        "{stderr}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.matches("starting_position").count(),
        1,
        "only the xiangqi game: {text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn terminal_escapes_never_reach_the_terminal() {
    for (name, src) in [
        (
            "esc.pgn",
            &b"[Event \"a\x1b]0;PWNED\x07b\"]\n[Result \"*\"]\n\n1. e4 zz\x1b[2J *\n"[..],
        ),
        (
            "esc.ctl-pgn",
            &b"[Variant \"C'escacs\"]\n[Result \"*\"]\n1. NG3-I13 zz\x1b[2J *\n"[..],
        ),
        (
            "escx.pgn",
            &b"[Game \"Chinese Chess\"]\n[Result \"*\"]\n\n1. C2=5 zz\x1b[2J *\n"[..],
        ),
    ] {
        let (dir, _) = scratch(name, src);
        for cmd in ["check", "convert"] {
            let args: &[&str] = if cmd == "check" {
                &["check", name]
            } else {
                &["convert", "--to", "pcn", name]
            };
            let out = cescacs(&dir, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("error"), "{name} {cmd}: {stderr}");
            assert!(
                !stderr.contains(['\x1b', '\x07', '\u{9b}']),
                "{name} {cmd}: a control character reached the terminal: {stderr:?}"
            );
            assert!(stderr.contains("\\u{1b}"), "{name} {cmd}: {stderr:?}");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
