//! `convert --notation` and `--strip` on the command line: the names each target takes,
//! the errors for the others, and the flags reaching the library's options.

use std::path::PathBuf;
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn temp(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-convert-clean-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

const PGN: &str = "[Event \"E\"]\n[Opening \"Ruy\"]\n\n1. e4 {[%clk 0:03:00]} e5 $1 (1... c5) \
2. Nf3 {good} Nc6 3. Bb5 a6 4. O-O Nf6 5. d4 exd4 6. e5 Ne4 7. Re1 d5 8. exd6 Bxd6 *\n";

#[test]
fn chess_notations() {
    let file = temp("a.pgn", PGN);
    let f = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["convert", "--to", "pgn", "-q", f];
        args.extend_from_slice(extra);
        let out = cescacs(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let bare = ["--strip", "comments,variations,nags,tags"];
    let san = run(&bare);
    assert_eq!(san, run(&["--notation", "san", bare[0], bare[1]]));
    assert!(san.ends_with("\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 5. d4 exd4 6. e5 Ne4 7. Re1 d5 8. exd6\nBxd6 *\n\n"), "{san}");
    let lan = run(&["--notation", "lan", bare[0], bare[1]]);
    assert!(
        lan.contains(
            "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5 a7-a6 4. O-O Ng8-f6 5. d2-d4 e5xd4"
        ),
        "{lan}"
    );
    assert!(lan.contains("8. e5xd6 Bf8xd6 *"), "en passant: {lan}");
    let uci = run(&["--notation", "UCI", bare[0], bare[1]]);
    assert!(
        uci.contains("1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. e1g1 g8f6"),
        "{uci}"
    );
    // Without --strip everything is kept, in the chosen notation.
    let full = run(&["--notation", "lan"]);
    assert!(full.contains("[Opening \"Ruy\"]") && full.contains("{[%clk 0:03:00]}"));
    assert!(
        full.contains("$1 (1... c7-c5)") && full.contains("{good}"),
        "{full}"
    );
    let clock = run(&["--strip", "clock"]);
    assert!(
        clock.contains("1. e4 e5 $1 (1... c5) 2. Nf3 {good}"),
        "{clock}"
    );
}

#[test]
fn names_that_do_not_fit_the_target_are_errors() {
    let chess = temp("b.pgn", PGN);
    let xq = temp(
        "b-xq.pgn",
        "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n",
    );
    for (file, to, name, want) in [
        (
            &chess,
            "pgn",
            "wxf",
            "notation \"wxf\" cannot be used for pgn output: pgn takes san, lan or uci",
        ),
        (
            &xq,
            "xiangqi-pgn",
            "lan",
            "xiangqi output takes chinese, wxf or iccs",
        ),
        (
            &chess,
            "pcn",
            "uci",
            "only pgn (san, lan, uci) and xiangqi-pgn/xiangqi-xml (chinese, wxf, iccs) output",
        ),
        (
            &chess,
            "pgn",
            "long",
            "invalid value 'long' for '--notation <NAME>'",
        ),
    ] {
        let out = cescacs(&[
            "convert",
            "--to",
            to,
            "--notation",
            name,
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{to} {name}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{to} {name}: {err}");
    }
    // The xiangqi names work as before.
    let out = cescacs(&[
        "convert",
        "--to",
        "xiangqi-pgn",
        "--notation",
        "wxf",
        xq.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("C2.5"));
    let out = cescacs(&[
        "convert",
        "--to",
        "pgn",
        "--strip",
        "comments,moves",
        chess.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("unknown strip item \"moves\""), "{err}");
}
