//! DOS code pages (`--encoding cp437|cp850`), the warning that names a guessed
//! encoding, and trailing text after the last game (a warning, not a bad game).

use std::path::PathBuf;
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-dos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A pgnmentor-style game: `Andr\x82s` is `Andrés` in cp437 and cp850.
const DOS: &[u8] = b"[Event \"Open\"]\n[White \"Andr\x82s, P.\"]\n[Black \"M\x81ller\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

#[test]
fn dos_code_pages_decode_and_a_guess_is_said() {
    let path = file("dos.pgn", DOS);
    let p = path.to_str().unwrap();
    for page in ["cp437", "cp850"] {
        let out = cescacs(&["convert", "--to", "pgn", "--encoding", page, p]);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("[White \"Andrés, P.\"]"), "{page}: {text}");
        assert!(text.contains("[Black \"Müller\"]"), "{page}: {text}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            !err.contains("not UTF-8"),
            "an encoding given is no guess: {err}"
        );
    }
    let out = cescacs(&["check", p]);
    assert_eq!(out.status.code(), Some(0), "a warning only");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "{p}:2:13: warning: not UTF-8 (byte 27 is 0x82): read as Windows-1252, a guess"
        )),
        "{err}"
    );
    assert!(
        err.contains("1 game(s) read, 1 valid, 0 bad, 1 warning(s)"),
        "{err}"
    );
    // Selections find the decoded name.
    let out = cescacs(&[
        "select",
        "--count",
        "--encoding",
        "cp850",
        "--player",
        "andrés",
        p,
    ]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "1");
    // UTF-8 text gets no warning.
    let utf8 = file("utf8.pgn", "[White \"Andrés\"]\n\n1. e4 *\n".as_bytes());
    let err = String::from_utf8(cescacs(&["check", utf8.to_str().unwrap()]).stderr).unwrap();
    assert!(!err.contains("not UTF-8"), "{err}");
}

#[test]
fn xiangqi_guesses_are_named_too() {
    let path = file(
        "x.xqpgn.pgn",
        b"[Game \"Chinese Chess\"]\n[Red \"Andr\x82s\"]\n\n1. h2e2 h9g7 *\n",
    );
    let err = String::from_utf8(cescacs(&["check", path.to_str().unwrap()]).stderr).unwrap();
    assert!(err.contains("read as GBK or Big5, a guess"), "{err}");
}

/// `count` ASCII copies of `game`, then `last`: its first byte that is not UTF-8 lies
/// past the 64 KB head the format is told from.
fn late(name: &str, game: &str, count: usize, last: &[u8]) -> (PathBuf, usize) {
    let mut bytes = game.repeat(count).into_bytes();
    assert!(bytes.len() > 70_000);
    let at = bytes.len() + last.iter().position(|b| *b >= 0x80).unwrap();
    bytes.extend_from_slice(last);
    (file(name, &bytes), at)
}

#[test]
fn a_guess_is_said_wherever_the_first_non_utf8_byte_is() {
    // Chess: Windows-1252, said once at the first such byte (the second is not said).
    let game = "[Event \"e\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
    let last =
        b"[Event \"e\"]\n[White \"Andr\x82s\"]\n[Black \"M\x81ller\"]\n[Result \"*\"]\n\n1. e4 *\n";
    let (path, at) = late("late.pgn", game, 1200, last);
    let p = path.to_str().unwrap();
    for jobs in ["1", "2"] {
        let out = cescacs(&["check", "-j", jobs, p]);
        assert_eq!(out.status.code(), Some(0), "a warning only");
        let err = String::from_utf8(out.stderr).unwrap();
        let line = 1200 * 7 + 2;
        let said = format!(
            "{p}:{line}:13: warning: not UTF-8 (byte {at} is 0x82): read as Windows-1252, a guess"
        );
        assert!(err.contains(&said), "{err}");
        assert_eq!(err.matches("not UTF-8").count(), 1, "{err}");
        assert!(
            err.contains("1201 game(s) read, 1201 valid, 0 bad, 1 warning(s)"),
            "{err}"
        );
    }
    // An encoding given is no guess.
    let out = cescacs(&["check", "--encoding", "cp437", p]);
    assert!(!String::from_utf8(out.stderr).unwrap().contains("not UTF-8"));
    // Xiangqi: GBK or Big5 for a lone high byte…
    let game = "[Game \"Chinese Chess\"]\n[Red \"a\"]\n\n1. h2e2 h9g7 *\n\n";
    let last = b"[Game \"Chinese Chess\"]\n[Red \"Andr\x82s\"]\n\n1. h2e2 h9g7 *\n";
    let (path, at) = late("late.xqpgn.pgn", game, 1800, last);
    let p = path.to_str().unwrap();
    let err = String::from_utf8(cescacs(&["check", p]).stderr).unwrap();
    let said = format!(
        "{p}:{}:11: warning: not UTF-8 (byte {at} is 0x82): read as GBK or Big5, a guess",
        1800 * 5 + 2
    );
    assert!(err.contains(&said), "{err}");
    // …and not for double-byte text, recognised by its pairs (at least 4) as in the
    // head (张三, 李四 in GBK).
    let last = b"[Game \"Chinese Chess\"]\n[Red \"\xd5\xc5\xc8\xfd\"]\n[Black \"\xc0\xee\xcb\xc4\"]\n\n1. h2e2 h9g7 *\n";
    let (path, _) = late("late-gbk.xqpgn.pgn", game, 1800, last);
    let err = String::from_utf8(cescacs(&["check", path.to_str().unwrap()]).stderr).unwrap();
    assert!(!err.contains("not UTF-8"), "{err}");
    // C'escacs: CTL-PGN is UTF-8 only; its reader says so in the game, no guess is made.
    let game = "[Variant \"C'escacs\"]\n[White \"a\"]\n\n1. E7-E9 *\n\n";
    let last = b"[Variant \"C'escacs\"]\n[White \"Andr\x82s\"]\n\n1. E7-E9 *\n";
    let (path, _) = late("late.ctl-pgn", game, 1800, last);
    let err = String::from_utf8(cescacs(&["check", path.to_str().unwrap()]).stderr).unwrap();
    assert!(!err.contains("a guess"), "{err}");
}

#[test]
fn trailing_text_is_a_warning_not_a_game() {
    // In all three games: a site's banner after the last game.
    let cases: [(&str, &[u8]); 3] = [
        ("t.pgn", b"[Event \"a\"]\n\n1. e4 e5 *\n\nDownloaded from www.example.org\nThanks!\n"),
        (
            "t.xqpgn.pgn",
            "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 *\n======\n欢迎访问象棋百科全书网\nhttp://www.xqbase.com/\n".as_bytes(),
        ),
        (
            "t.ctl-pgn",
            b"[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n\nvisit our site\n",
        ),
    ];
    for (name, bytes) in cases {
        let path = file(name, bytes);
        let out = cescacs(&["check", path.to_str().unwrap()]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}: {err}");
        assert!(
            err.contains("warning: text after the last game"),
            "{name}: {err}"
        );
        assert!(
            err.contains("1 game(s) read, 1 valid, 0 bad"),
            "{name}: {err}"
        );
    }
    // A cut game (a move, no result) at the end is still a game, not trailing text.
    let cut = file("cut.pgn", b"[Event \"a\"]\n\n1. e4 e5 *\n\ne4 e5\n");
    let err = String::from_utf8(cescacs(&["check", cut.to_str().unwrap()]).stderr).unwrap();
    assert!(err.contains("2 game(s) read"), "{err}");
    assert!(!err.contains("text after the last game"), "{err}");
}
