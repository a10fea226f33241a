//! `select`'s tag criteria (loose text, comparisons, `--any`, `--criteria`, `--exact`)
//! and board conditions (board-only FEN, `--fen-pattern`, `--positions`, `--material`)
//! in each game they apply to, on small inline files: no `../shared` needed. The counts
//! expected are read off the games by hand (the comments say why each game passes).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-criteria-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The number of games `select --count` gives, with the run's exit status checked.
fn count(path: &Path, args: &[&str]) -> usize {
    let mut all = vec!["select", "--count"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let out = cescacs(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn refused(path: &Path, args: &[&str]) -> String {
    let mut all = vec!["select", "--count"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let out = cescacs(&all);
    assert_eq!(out.status.code(), Some(2), "{args:?} must be refused");
    String::from_utf8(out.stderr).unwrap()
}

const CHESS: &str = r#"[Event "World Blitz"]
[Site "Almaty KAZ"]
[Date "2022.12.29"]
[White "Carlsen, Magnus"]
[Black "Nakamura, Hikaru"]
[Result "1-0"]
[WhiteElo "2812:0"]
[BlackElo "2768"]

1. e4 c5 2. Nf3 d6 1-0

[Event "Rapid open"]
[Site "Reykjavik"]
[Date "1972.??.??"]
[White "Fischer, Robert"]
[Black "Spassky, Boris"]
[Result "1/2-1/2"]
[WhiteElo "2785"]
[BlackElo "2660"]

1. d4 Nf6 2. c4 e6 1/2-1/2

[Event "club blitz"]
[Site "?"]
[Date "1999.05.01"]
[White "Amateur"]
[Black "carlsen fan"]
[Result "0-1"]
[WhiteElo "-"]
[SetUp "1"]
[FEN "8/5k2/8/8/3R4/8/1P6/K7 w - - 0 1"]

1. Kb1 Kf6 2. Kc1 Kf5 0-1
"#;

const XIANGQI: &str = r#"[Game "Chinese Chess"]
[Event "National Blitz"]
[Date "1998.03.01"]
[Red "Hu Ronghua"]
[Black "Xu Tianhong"]
[RedElo "2600"]
[Result "1-0"]

1. h2e2 h9g7 1-0

[Game "Chinese Chess"]
[Event "League"]
[Date "2005.??.??"]
[Red "Lü Qin"]
[Black "Hu Ronghua"]
[RedElo "2500"]
[Result "0-1"]

1. b0c2 b9c7 0-1
"#;

const CESCACS: &str = r#"[Variant "C'escacs"]
[Event "Cescacs Blitz"]
[Date "2021.07.20"]
[White "Ramon"]
[Black "Joan"]
[WhiteElo "1900"]
[Result "*"]

1. E7-E9, E21-E19
*

[Variant "C'escacs"]
[Event "Trial"]
[Date "2019.01.01"]
[White "Joan"]
[Black "Pere"]
[Result "*"]

1. E7-E9, E21-E19
*
"#;

#[test]
fn text_is_a_case_insensitive_substring_unless_exact() {
    let chess = file("a.pgn", CHESS);
    let xq = file("a.xqpgn.pgn", XIANGQI);
    let ctl = file("a.ctl-pgn", CESCACS);
    // Carlsen is White in game 1 and part of Black's name in game 3.
    assert_eq!(count(&chess, &["--player", "carlsen"]), 2);
    assert_eq!(
        count(&chess, &["--player", "*fischer*"]),
        1,
        "globs fold case too"
    );
    assert_eq!(
        count(&chess, &["--player", "Carlsen*"]),
        2,
        "a glob is the whole value"
    );
    assert_eq!(
        count(&chess, &["--player", "Carlsen, Magnus", "--exact"]),
        1
    );
    assert_eq!(count(&chess, &["--player", "carlsen", "--exact"]), 0);
    assert_eq!(count(&chess, &["--event", "BLITZ"]), 2);
    assert_eq!(count(&chess, &["--tag", "Event=*Blitz*"]), 2);
    assert_eq!(count(&chess, &["--site", "reyk"]), 1);
    assert_eq!(count(&xq, &["--player", "hu ron"]), 2, "Red or Black");
    assert_eq!(count(&xq, &["--event", "blitz"]), 1);
    assert_eq!(count(&ctl, &["--player", "JOAN"]), 2);
    assert_eq!(count(&ctl, &["--event", "blitz"]), 1);
}

#[test]
fn comparisons_read_numbers_and_dates() {
    let chess = file("b.pgn", CHESS);
    let xq = file("b.xqpgn.pgn", XIANGQI);
    let ctl = file("b.ctl-pgn", CESCACS);
    // "2812:0" is 2812, as pgn-extract reads it; "-" is no number.
    assert_eq!(count(&chess, &["--tag", "WhiteElo>=2800"]), 1);
    assert_eq!(count(&chess, &["--tag", "WhiteElo>=2700"]), 2);
    assert_eq!(count(&chess, &["--tag", "WhiteElo<2000"]), 0);
    assert_eq!(count(&chess, &["--tag", "BlackElo != 2768"]), 1);
    assert_eq!(count(&chess, &["--tag", "Date<2000"]), 2);
    assert_eq!(
        count(&chess, &["--tag", "Date>=1972.06"]),
        3,
        "1972.??.?? can be June"
    );
    assert_eq!(count(&xq, &["--tag", "RedElo>2550"]), 1);
    assert_eq!(count(&xq, &["--tag", "Date<2000"]), 1);
    assert_eq!(count(&ctl, &["--tag", "WhiteElo>=1900"]), 1);
    assert_eq!(count(&ctl, &["--tag", "Date>2020"]), 1);
    let e = refused(&chess, &["--tag", "WhiteElo>=high"]);
    assert!(e.contains("not a number"), "{e}");
    assert!(refused(&chess, &["--tag", "Date<soon"]).contains("date"));
    assert!(refused(&chess, &["--tag", "WhiteElo"]).contains("NAME OP VALUE"));
}

#[test]
fn any_joins_with_or_and_criteria_files_group_by_tag() {
    let chess = file("c.pgn", CHESS);
    let xq = file("c.xqpgn.pgn", XIANGQI);
    let ctl = file("c.ctl-pgn", CESCACS);
    assert_eq!(
        count(&chess, &["--player", "fischer", "--event", "club"]),
        0
    );
    assert_eq!(
        count(&chess, &["--player", "fischer", "--event", "club", "--any"]),
        2
    );
    assert_eq!(
        count(&xq, &["--event", "league", "--tag", "RedElo>2550", "--any"]),
        2
    );
    assert_eq!(
        count(&ctl, &["--player", "ramon", "--tag", "Black=pere", "--any"]),
        2
    );
    let criteria = file(
        "c.txt",
        "% players: either one\nWhite \"carlsen\"\nWhite \"fischer\"\nDate < \"2000\"\n",
    );
    let c = criteria.to_str().unwrap();
    assert_eq!(count(&chess, &["--criteria", c]), 1, "Fischer 1972");
    assert_eq!(count(&chess, &["--criteria", c, "--any"]), 3);
    let xq_criteria = file("x.txt", "Black \"Xu\"\nBlack \"Hu\"\nRedElo >= 2500\n");
    assert_eq!(
        count(&xq, &["--criteria", xq_criteria.to_str().unwrap()]),
        2
    );
    let ctl_criteria = file("y.txt", "White \"Joan\"\n");
    assert_eq!(
        count(&ctl, &["--criteria", ctl_criteria.to_str().unwrap()]),
        1
    );
    let bad = file("bad.txt", "White \"x\"\nWhiteElo > \"strong\"\n");
    let e = refused(&chess, &["--criteria", bad.to_str().unwrap()]);
    assert!(e.contains("line 2"), "{e}");
}

#[test]
fn nothing_matched_is_said() {
    let chess = file("d.pgn", CHESS);
    let out = cescacs(&[
        "select",
        "--count",
        "--player",
        "Kasparov",
        chess.to_str().unwrap(),
    ]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(err.contains("note: no game matched"), "{err}");
    let out = cescacs(&[
        "select",
        "--count",
        "--player",
        "Carlsen",
        chess.to_str().unwrap(),
    ]);
    assert!(
        !String::from_utf8(out.stderr)
            .unwrap()
            .contains("no game matched")
    );
}

#[test]
fn board_patterns_positions_and_material() {
    let chess = file("e.pgn", CHESS);
    let xq = file("e.xqpgn.pgn", XIANGQI);
    let ctl = file("e.ctl-pgn", CESCACS);
    // Board-only FEN: after 1. e4 c5 (game 1 only).
    let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR";
    assert_eq!(count(&chess, &["--position", sicilian]), 1);
    assert_eq!(
        count(&chess, &["--fen-pattern", "rnbqkbnr/*/*/*/*/*/*/RNBQKBNR"]),
        2
    );
    assert_eq!(
        count(&chess, &["--fen-pattern", "*/*/*/*/*/*/*/[Kk]*"]),
        1,
        "Ka1, then Kb1"
    );
    assert_eq!(
        count(&chess, &["--fen-pattern", "*/*/*/*/2PP4/*/*/*"]),
        1,
        "1. d4 … 2. c4"
    );
    let list = file(
        "p.txt",
        &format!(
            "% two openings\n{sicilian} w KQkq - 0 2\nrnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR\n"
        ),
    );
    assert_eq!(count(&chess, &["--positions", list.to_str().unwrap()]), 2);
    assert_eq!(
        count(&chess, &["--material", "RP"]),
        1,
        "R+P against a bare king"
    );
    assert_eq!(count(&chess, &["--material", "R+P vs "]), 1);
    assert_eq!(count(&chess, &["--material", "QR2B2N2P8 QR2B2N2P8"]), 2);
    assert_eq!(
        count(
            &chess,
            &["--material", "QRRBBNNPPPPPPPP vs QRRBBNNPPPPPPPP"]
        ),
        2
    );
    // Xiangqi: the cannon to the centre, and full material (men: A2 B2 N2 R2 C2 P5).
    assert_eq!(
        count(&xq, &["--fen-pattern", "*/*/*/*/*/*/*/1C2C4/*/*"]),
        1,
        "1. h2e2"
    );
    assert_eq!(
        count(&xq, &["--material", "0 A2B2N2R2C2P5 A2B2N2R2C2P5"]),
        2
    );
    assert_eq!(
        count(&xq, &["--material", "A2B2N2R2C2P5 A2B2N2R2C2P5"]),
        0,
        "two plies: too short for stability 2"
    );
    assert_eq!(count(&xq, &["--material", "R2 R2"]), 0);
    // C'escacs has no FEN ranks: the conditions never hold, and nothing fails.
    assert_eq!(count(&ctl, &["--fen-pattern", "*/*/*/*/*/*/*/*"]), 0);
    assert_eq!(count(&ctl, &["--material", "R R"]), 0);
    assert!(refused(&chess, &["--fen-pattern", "8/8/8"]).contains("ranks"));
    assert!(refused(&chess, &["--material", "R? Q"]).contains("material"));
}
