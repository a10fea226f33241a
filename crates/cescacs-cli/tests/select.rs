//! `cescacs select` against an independent reference: a plain tag scan over the raw
//! text of the shared corpora, written here without any of the toolkit's readers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn corpus(rel: &str) -> PathBuf {
    test_support::shared(&format!("corpus/{rel}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-select-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The reference: games as lists of (tag, value), cut where a tag line follows a line
/// that is not a tag (the PGN export layout), values unescaped.
fn scan(text: &str) -> Vec<Vec<(String, String)>> {
    let mut games: Vec<Vec<(String, String)>> = Vec::new();
    let mut in_tags = false;
    for line in text.lines() {
        let t = line.trim().trim_start_matches('\u{feff}');
        let tag = t.starts_with('[') && t.ends_with(']') && t.contains('"');
        if tag {
            if !in_tags {
                games.push(Vec::new());
            }
            let name = t[1..].split(|c: char| c.is_whitespace()).next().unwrap();
            let value = &t[t.find('"').unwrap() + 1..t.rfind('"').unwrap()];
            let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
            games.last_mut().unwrap().push((name.to_string(), value));
        }
        in_tags = tag || (in_tags && t.is_empty());
    }
    games
}

/// A reference predicate over a game's tags.
type Keep<'a> = Box<dyn Fn(&[(String, String)]) -> bool + 'a>;

fn tag<'a>(game: &'a [(String, String)], name: &str) -> Option<&'a str> {
    game.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// The `--count` answer of `select`.
fn count(args: &[&str]) -> usize {
    let out = cescacs(&[&["select", "--count"], args].concat());
    let text = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        text.lines().count(),
        1,
        "only the count on stdout: {text}\n{err}"
    );
    assert!(err.contains(" selected, "), "{err}");
    text.trim().parse().unwrap()
}

fn reference(files: &[PathBuf], keep: impl Fn(&[(String, String)]) -> bool) -> usize {
    let texts = files
        .iter()
        .map(|f| String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned());
    texts
        .map(|t| scan(&t).iter().filter(|g| keep(g)).count())
        .sum()
}

fn elo(game: &[(String, String)], name: &str) -> Option<u32> {
    tag(game, name)?.trim().parse().ok()
}

fn year(game: &[(String, String)]) -> Option<u32> {
    tag(game, "Date")?.get(..4)?.parse().ok()
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn tag_filters_on_the_classic_corpus_equal_a_plain_tag_scan() {
    let files = test_support::files_with_extension(&corpus("classic-pgn-real"), "pgn");
    assert!(files.len() > 10);
    let args: Vec<&str> = files.iter().map(|f| s(f)).collect();
    let with = |filter: &[&str]| count(&[filter, &["--from", "pgn"], &args[..]].concat());
    let player = |g: &[(String, String)], p: &str| {
        ["White", "Black"]
            .iter()
            .any(|side| tag(g, side).is_some_and(|v| v.starts_with(p)))
    };
    let cases: Vec<(Vec<&str>, Keep)> = vec![
        (
            vec!["--player", "Fischer*"],
            Box::new(|g| player(g, "Fischer")),
        ),
        (
            vec!["--player", "Aronian*"],
            Box::new(|g| player(g, "Aronian")),
        ),
        (
            vec!["--result", "1-0"],
            Box::new(|g| tag(g, "Result") == Some("1-0")),
        ),
        (
            vec!["--result", "1/2"],
            Box::new(|g| tag(g, "Result") == Some("1/2-1/2")),
        ),
        (
            vec!["--min-elo", "2700"],
            Box::new(|g| {
                ["WhiteElo", "BlackElo"]
                    .iter()
                    .any(|n| elo(g, n).is_some_and(|e| e >= 2700))
            }),
        ),
        (
            vec!["--date-from", "1990", "--date-to", "2010"],
            Box::new(|g| year(g).is_some_and(|y| (1990..=2010).contains(&y))),
        ),
        (
            vec!["--tag", "Event=*Olympiad*", "--result", "1/2-1/2"],
            Box::new(|g| {
                tag(g, "Event").is_some_and(|e| e.contains("Olympiad"))
                    && tag(g, "Result") == Some("1/2-1/2")
            }),
        ),
    ];
    for (filter, keep) in cases {
        let expected = reference(&files, keep);
        assert!(expected > 0, "{filter:?} selects something");
        assert_eq!(with(&filter), expected, "{filter:?}");
    }
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn tag_filters_on_the_xiangqi_and_cescacs_corpora_equal_a_plain_tag_scan() {
    let files = test_support::files_with_extension(&corpus("xiangqi-real/wukong-xiangqi"), "pgn");
    let args: Vec<&str> = files.iter().map(|f| s(f)).collect();
    let with = |filter: &[&str]| count(&[filter, &["--from", "xiangqi-pgn"], &args[..]].concat());
    let red = |g: &[(String, String)], p: &str| {
        ["Red", "White", "Black"]
            .iter()
            .any(|side| tag(g, side).is_some_and(|v| v.starts_with(p)))
    };
    for name in ["HU RongHua", "LIU DaHua", "XU"] {
        let expected = reference(&files, |g| red(g, name));
        assert!(expected > 0, "{name}");
        assert_eq!(with(&["--player", &format!("{name}*")]), expected, "{name}");
    }
    let expected = reference(&files, |g| tag(g, "Result") == Some("0-1"));
    assert_eq!(with(&["--result", "0-1"]), expected);

    let files = test_support::files_with_extension(&corpus("cescacs-real"), "ctl-pgn");
    let args: Vec<&str> = files.iter().map(|f| s(f)).collect();
    for (filter, keep) in [
        (
            ["--result", "0-3"],
            Box::new(|g: &[(String, String)]| tag(g, "Result") == Some("0-3")) as Keep,
        ),
        (
            ["--player", "*Sasal*"],
            Box::new(|g: &[(String, String)]| {
                ["White", "Black"]
                    .iter()
                    .any(|n| tag(g, n).is_some_and(|v| v.contains("Sasal")))
            }),
        ),
        (
            ["--date-from", "2022"],
            Box::new(|g: &[(String, String)]| year(g).is_some_and(|y| y >= 2022)),
        ),
    ] {
        let expected = reference(&files, keep);
        assert!(expected > 0, "{filter:?}");
        assert_eq!(
            count(&[&filter[..], &args[..]].concat()),
            expected,
            "{filter:?}"
        );
    }
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn dedupe_of_a_file_concatenated_with_itself_gives_the_original_games() {
    let cescacs_games: Vec<PathBuf> = ["2023-09-08", "2020-07-20", "2022-08-14.1", "2022-08-14.2"]
        .iter()
        .map(|n| corpus(&format!("cescacs-real/{n}.ctl-pgn")))
        .collect();
    let sets: [(&str, Vec<PathBuf>); 3] = [
        (
            "32games.pgn",
            vec![corpus(
                "classic-pgn-real/mliebelt-pgn-parser/test_pgn_32games.pgn",
            )],
        ),
        (
            "winboard.pgn",
            vec![corpus("xiangqi-real/wukong-xiangqi/winboard_san_1.pgn")],
        ),
        ("real.ctl-pgn", cescacs_games),
    ];
    for (name, files) in sets {
        // The games one after another, each file ending with a line break.
        let mut original = Vec::new();
        for f in files {
            original.extend(std::fs::read(f).unwrap());
            if !original.ends_with(b"\n") {
                original.push(b'\n');
            }
        }
        let games = scan(&String::from_utf8_lossy(&original)).len();
        let (once, twice) = (
            scratch(&format!("once-{name}")),
            scratch(&format!("twice-{name}")),
        );
        std::fs::write(&once, &original).unwrap();
        std::fs::write(&twice, [&original[..], &original[..]].concat()).unwrap();
        // The file alone, deduplicated, is the reference (a corpus file may repeat a game).
        let alone = cescacs(&["select", "--dedupe", s(&once)]);
        let err = String::from_utf8_lossy(&alone.stderr).to_string();
        assert!(alone.status.success(), "{err}");
        if err.contains(" 0 duplicate(s)") {
            // No game repeated: every byte comes back.
            assert!(alone.stdout == original, "{name}: {err}");
        }
        for jobs in ["1", "4"] {
            let out = cescacs(&["select", "--dedupe", "-j", jobs, s(&twice)]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{name}: {err}");
            assert!(out.stdout == alone.stdout, "{name} -j {jobs}: {err}");
            assert!(
                err.contains(&format!("{} game(s) read", 2 * games)),
                "{name}: {err}"
            );
        }
    }
}

/// Games `Event "i"`: every third has an illegal move, every fifth a word that is no move.
fn mixed_games(n: usize) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut bad = Vec::new();
    for i in 1..=n {
        let moves = match i {
            i if i % 3 == 0 => "1. e4 e5 2. Ke3 Nc6 *",
            i if i % 5 == 0 => "1. e4 e5 2. Nf3 hello Nc6 *",
            _ => "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *",
        };
        let game = format!(
            "[Event \"{i}\"]\n[White \"W{i}\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{moves}\n\n"
        );
        if i % 3 == 0 || i % 5 == 0 {
            bad.push(game.clone());
        }
        text.push_str(&game);
    }
    (text, bad)
}

#[test]
fn invalid_returns_exactly_the_games_check_reports_bad_byte_for_byte() {
    let (text, bad) = mixed_games(40);
    let file = scratch("mixed.pgn");
    std::fs::write(&file, &text).unwrap();
    let check = cescacs(&["check", s(&file)]);
    let reported: std::collections::BTreeSet<usize> = String::from_utf8_lossy(&check.stderr)
        .lines()
        .filter_map(|l| l.split(": game ").nth(1)?.split(':').next()?.parse().ok())
        .collect();
    let expected: std::collections::BTreeSet<usize> =
        (1..=40).filter(|i| i % 3 == 0 || i % 5 == 0).collect();
    assert_eq!(reported, expected);
    for jobs in ["1", "3"] {
        let out = cescacs(&["select", "--invalid", "-j", jobs, s(&file)]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap(), bad.concat());
    }
    assert_eq!(
        count(&["--invalid", "--player", "W1*", s(&file)]),
        4,
        "W10, W12, W15, W18"
    );
    // The games that need a replay report the bad ones and keep going.
    let out = cescacs(&["select", "--min-plies", "6", s(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("40 game(s) read, 21 selected")
            && err.contains(&format!("{} bad", expected.len())),
        "{err}"
    );
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn selected_games_convert_to_pcn() {
    let file = corpus("classic-pgn-real/python-chess/kasparov-deep-blue-1997.pgn");
    let n = count(&["--player", "Deep Blue*", "--result", "1-0", s(&file)]);
    assert!(n > 0);
    let out = cescacs(&[
        "select",
        "--player",
        "Deep Blue*",
        "--result",
        "1-0",
        "--to",
        "pcn",
        s(&file),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let docs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(docs.as_array().unwrap().len(), n);
    let jsonl = scratch("sel.jsonl");
    let out = cescacs(&[
        "select",
        "--player",
        "Deep Blue*",
        "--to",
        "pcn",
        "-o",
        s(&jsonl),
        s(&file),
    ]);
    assert!(out.status.success());
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    assert!(
        lines
            .lines()
            .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok())
    );
    let all = scan(&std::fs::read_to_string(&file).unwrap());
    let blue = all.iter().filter(|g| {
        ["White", "Black"]
            .iter()
            .any(|s| tag(g, s).is_some_and(|v| v.starts_with("Deep Blue")))
    });
    assert_eq!(lines.lines().count(), blue.count());
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn bad_filters_cannot_run() {
    let file = corpus("cescacs-real/2020-07-20.ctl-pgn");
    for args in [
        vec!["--tag", "Event"],
        vec!["--date-from", "1990.13"],
        vec!["--position", "not a position"],
        vec!["--player", "[ab"],
    ] {
        let out = cescacs(&[&["select"], &args[..], &[s(&file)]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = cescacs(&["select", "--invalid", "--to", "pcn", s(&file)]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn position_filter_finds_every_game_from_the_standard_start() {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Games of variants the replay does not play are reported, not selected, and a game
    // without tags is invisible to the reference's tag scan: both left out.
    let files: Vec<PathBuf> =
        test_support::files_with_extension(&corpus("classic-pgn-real"), "pgn")
            .into_iter()
            .filter(|f| {
                let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).to_lowercase();
                !text.contains("[variant \"antichess\"]")
                    && !text.contains("[variant \"crazyhouse\"]")
                    && text.contains('[')
            })
            .collect();
    let args: Vec<&str> = files.iter().map(|f| s(f)).collect();
    let expected = reference(&files, |g| {
        tag(g, "FEN").is_none_or(|f| f.starts_with(&START[..50]))
    });
    assert!(expected > 400);
    assert_eq!(
        count(&[&["--position", START][..], &args[..]].concat()),
        expected
    );
}

#[test]
fn help_documents_every_filter() {
    let help = String::from_utf8(cescacs(&["select", "-h"]).stdout).unwrap();
    for line in help.lines() {
        let entry = line.trim_start();
        if entry.starts_with('-') || entry.starts_with('<') {
            let text = entry.split("  ").skip(1).any(|t| !t.trim().is_empty());
            assert!(text, "`cescacs select -h`: no text for {entry:?}\n{help}");
        }
    }
    for flag in [
        "--tag",
        "--player",
        "--position",
        "--invalid",
        "--dedupe",
        "--count",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn dedupe_works_across_inputs_and_formats() {
    let pgn = corpus("classic-pgn-real/python-chess/kasparov-deep-blue-1997.pgn");
    let pcn = scratch("kasparov.pcn.json");
    let out = cescacs(&["convert", "--to", "pcn", "-q", "-o", s(&pcn), s(&pgn)]);
    assert!(out.status.success());
    // The same six games as PGN, then as PCN: the PCN copies are the duplicates.
    let out = cescacs(&[
        "select",
        "--dedupe",
        "--to",
        "pgn",
        "-j",
        "4",
        s(&pgn),
        s(&pcn),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("12 game(s) read, 6 selected, 6 duplicate(s) dropped"),
        "{err}"
    );
    let converted = cescacs(&["convert", "--to", "pgn", "-q", s(&pgn)]);
    assert!(out.stdout == converted.stdout, "the PGN copies, in order");
}
