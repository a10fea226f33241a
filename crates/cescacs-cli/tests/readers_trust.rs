//! Issue 26, the readers' cases end to end: a repeated `Variant` tag loses nothing
//! (case 5), a game of another game is refused by name (case 6), and no control
//! character of the input reaches the terminal (case 9), positions that cannot happen are
//! refused (case 10), chess facts are kept (case 11) and damage is said (case 13).

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

#[test]
fn a_fen_clock_over_100_and_a_set_up_standard_start_are_kept() {
    // The clock counts on past 100 (python-chess gives `… b - - 102 61` after these
    // moves); a FEN tag with a clock above 100 was refused as a bad FEN before.
    let src = b"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 150 80\"]\n[Result \"*\"]\n\n80. Ra2 *\n\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let (dir, _) = scratch("clock.pgn", src);
    let out = cescacs(&dir, &["convert", "--to", "pgn", "clock.pgn"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        text.contains("[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 150 80\"]"),
        "{text}"
    );
    assert!(
        text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_result_contradicting_mate_is_named() {
    let src = b"[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1\n";
    let (dir, _) = scratch("mate.pgn", src);
    for args in [
        &["check", "mate.pgn"][..],
        &["convert", "--to", "pgn", "mate.pgn"][..],
    ] {
        let out = cescacs(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("warning: result marker 0-1 contradicts the final position: checkmate, White wins (1-0)"),
            "{args:?}: {stderr}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_file_cut_in_its_last_game_is_reported_truncated() {
    let src = b"[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Event \"y\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5";
    let (dir, _) = scratch("cut.pgn", src);
    for args in [
        &["check", "cut.pgn"][..],
        &["convert", "--to", "pgn", "cut.pgn"][..],
    ] {
        let out = cescacs(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr
                .contains("cut.pgn:9:27: game 2: error: the input ends in the middle of this game"),
            "{args:?}: {stderr}"
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("Bb5"), "the cut game is not written: {text}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn select_invalid_writes_every_game_check_reports_bad() {
    // Game 1 is cut at an unclosed `{` where game 2 starts; game 3 has an illegal move;
    // game 4 is cut in the middle of its last line.
    let src = b"[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {unclosed\n\n[Event \"b\"]\n[Result \"*\"]\n\n1. d4 *\n\n[Event \"c\"]\n[Result \"*\"]\n\n1. e5 *\n\n[Event \"d\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf";
    let (dir, _) = scratch("bad.pgn", src);
    let check = cescacs(&dir, &["check", "bad.pgn"]);
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(stderr.contains("3 bad"), "{stderr}");
    let out = cescacs(&dir, &["select", "--invalid", "bad.pgn"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for event in ["[Event \"a\"]", "[Event \"c\"]", "[Event \"d\"]"] {
        assert!(text.contains(event), "{event} missing: {text}");
    }
    assert!(text.contains("1. e4 {unclosed"), "{text}");
    assert!(!text.contains("[Event \"b\"]"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Case 10: a position whose side *not* to move is in check cannot happen; every game's
/// reader refuses it with an error in its game (C'escacs TLPD, classic FEN, xiangqi
/// FEN), and the same men with the other side to move are read.
#[test]
fn positions_that_cannot_happen_are_refused_in_every_game() {
    let cases: [(&str, &str, &str); 3] = [
        (
            "check.ctl-pgn",
            "[Variant \"C'escacs\"]\n[TLPD \"/27:1k/25:2D1/1:1K/ {side} -- - 0 1\"]\n\n*\n",
            // White's Queen next to Black's King.
            "w",
        ),
        (
            "check.pgn",
            "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4QK2 {side} - - 0 1\"]\n\n*\n",
            "w",
        ),
        (
            "check-xq.pgn",
            "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/3KR4 {side} - - 0 1\"]\n\n*\n",
            "w",
        ),
    ];
    for (name, template, impossible) in cases {
        let other = if impossible == "w" { "b" } else { "w" };
        let (dir, _) = scratch(name, template.replace("{side}", impossible).as_bytes());
        let out = cescacs(&dir, &["check", name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains(name) && stderr.contains("game 1: error"),
            "{name}: {stderr}"
        );
        std::fs::write(dir.join(name), template.replace("{side}", other)).unwrap();
        let out = cescacs(&dir, &["check", name]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}, {other} to move: {stderr}"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
