//! The command-line contract, exercised through the built binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Copies of a few `testdata/` files kept in the package, so that its tests run from
/// the published crate too.
fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

fn temp(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn perft_last_line_is_the_node_count() {
    // Reference counts from the spec and the author's implementation (oracle perft.json).
    for (depth, nodes) in [("1", "68"), ("2", "4612"), ("3", "340385")] {
        let out = cescacs(&["perft", depth]);
        assert!(out.status.success());
        assert_eq!(stdout(&out).lines().last(), Some(nodes), "depth {depth}");
    }
}

#[test]
fn perft_divide_sums_to_the_total() {
    let out = cescacs(&["perft", "2", "--divide"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 69);
    let sum: u64 = lines[..68]
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 4612);
    assert_eq!(lines[68], "4612");
}

#[test]
fn moves_of_the_initial_position() {
    let out = cescacs(&["moves"]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 68);
    // The oracle sorts by code point; these are its first two moves.
    assert!(text.starts_with("A5-A7\nA5-A9\n"), "{text}");
}

#[test]
fn moves_and_perft_from_a_tlpd() {
    // Spec appendix B: with only a black rook on C25, White has exactly the 24 castlings
    // among its moves.
    let tlpd = "/27:1k/25:r3/3:R2R/1:1K/ w RKRrkr - 0 1";
    let out = cescacs(&["moves", "--tlpd", tlpd]);
    assert!(out.status.success(), "{}", stderr(&out));
    let castlings = stdout(&out).lines().filter(|l| l.starts_with("KR")).count();
    assert_eq!(castlings, 24);
    let bad = cescacs(&["moves", "--tlpd", "/28:x/ w"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("invalid TLPD"));
}

#[test]
fn show_prints_a_diagram_and_draws_svg() {
    let out = cescacs(&["show"]);
    let text = stdout(&out);
    assert!(text.contains("/28:v/27:dk/26:gjg/"), "{text}");
    let svg = std::env::temp_dir().join(format!("cescacs-show-{}.svg", std::process::id()));
    let out = cescacs(&[
        "show",
        "--svg",
        svg.to_str().unwrap(),
        "--last-move",
        "G3-G1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("<title>").count(), 169);
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let out = cescacs(&["show", "--fen", fen]);
    assert!(stdout(&out).contains("R N B A K A B N R"));
}

#[test]
fn replay_prints_the_final_tlpd_of_a_real_game() {
    // Spec appendix B gives the final position of the 2020-07-20 game.
    let out = cescacs(&[
        "replay",
        testdata("ctl-pgn/real/2020-07-20.ctl-pgn")
            .to_str()
            .unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out).trim_end(),
        "/28:v/25:kDnr/24:p1jep/23:4pp/22:1N2p2/21:2e1p3/20:2pd3/13:2j5/9:4J3/8:5j1/7:2N2P2/6:2P1P2/5:PPR3/4:PE1EP/3:R3/2:K2/ b -- - 2 35"
    );
    // Its tolerated irregularities are warnings, not errors.
    assert!(stderr(&out).contains("warning: old check marker"));
}

#[test]
fn a_bad_game_is_reported_and_the_others_still_processed() {
    let db = "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n\n\
              [Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n2. F2-F3, *\n\n\
              [Variant \"C'escacs\"]\n\n1. E7-E11, E21-E17\n*\n";
    let path = temp("three.ctl-pgn", db);
    let report = path.with_extension("json");
    let out = cescacs(&[
        "check",
        path.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("three.ctl-pgn:9:4: game 2: error:"), "{err}");
    assert!(err.contains("3 game(s) read, 2 valid, 1 bad"), "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["games_bad"], 1);
    assert_eq!(json["diagnostics"][0]["game"], 2);
    assert_eq!(json["diagnostics"][0]["line"], 9);
    let replay = cescacs(&["replay", path.to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(1));
    assert_eq!(stdout(&replay).lines().count(), 2);
}

#[test]
fn convert_ctl_pgn_is_idempotent() {
    let src = testdata("ctl-pgn/real/2023-09-08.ctl-pgn");
    let once = cescacs(&["convert", "--to", "ctl-pgn", src.to_str().unwrap()]);
    assert!(once.status.success(), "{}", stderr(&once));
    let path = temp("once.ctl-pgn", &stdout(&once));
    let twice = cescacs(&["convert", "--to", "ctl-pgn", path.to_str().unwrap()]);
    assert_eq!(stdout(&once), stdout(&twice));
    let minimal = cescacs(&[
        "convert",
        "--to",
        "ctl-pgn",
        "--minimal",
        src.to_str().unwrap(),
    ]);
    assert!(!stdout(&minimal).contains('{'));
}

#[test]
fn unsupported_conversions_and_missing_files_cannot_run() {
    let src = testdata("ctl-pgn/real/2023-09-08.ctl-pgn");
    let out = cescacs(&["convert", "--to", "pgn", src.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("different games"));
    let out = cescacs(&["check", "/no/such/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pcn_round_trip_gives_back_the_same_record() {
    let src = testdata("ctl-pgn/real");
    let json = std::env::temp_dir().join(format!("cescacs-pcn-{}.json", std::process::id()));
    let to = cescacs(&[
        "convert",
        "--to",
        "pcn",
        "-o",
        json.to_str().unwrap(),
        src.to_str().unwrap(),
    ]);
    assert!(to.status.success(), "{}", stderr(&to));
    let docs: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(docs.as_array().unwrap().len(), 4);
    let back = cescacs(&["convert", "--to", "ctl-pgn", json.to_str().unwrap()]);
    assert!(back.status.success(), "{}", stderr(&back));
    let direct = cescacs(&["convert", "--to", "ctl-pgn", src.to_str().unwrap()]);
    assert_eq!(stdout(&back), stdout(&direct));
    // A C'escacs document cannot become a chess PGN.
    let wrong = cescacs(&["convert", "--to", "pgn", json.to_str().unwrap()]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(
        stderr(&wrong).contains("a C'escacs game cannot be written as pgn"),
        "{}",
        stderr(&wrong)
    );
}

#[test]
fn replay_names_the_file_of_each_game_when_there_are_several() {
    let a = temp("replay-a.ctl-pgn", "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n");
    let b = temp("replay-b.ctl-pgn", "[Variant \"C'escacs\"]\n\n1. E7-E11, E21-E17\n*\n");
    let out = cescacs(&["replay", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(&format!("{}:1: /28:", a.display())), "{lines:?}");
    assert!(lines[1].starts_with(&format!("{}:1: /28:", b.display())), "{lines:?}");
    let one = cescacs(&["replay", "-H", a.to_str().unwrap()]);
    assert!(stdout(&one).starts_with(&format!("{}:1: ", a.display())));
    let bare = cescacs(&["replay", "--no-filename", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(stdout(&bare).lines().all(|l| l.starts_with("/28:")));
    assert!(stderr(&out).contains("2 game(s) read, 2 valid, 0 bad"), "{}", stderr(&out));
}

#[test]
fn help_documents_every_option_and_argument() {
    for command in ["perft", "moves", "show", "replay", "check", "convert"] {
        let help = stdout(&cescacs(&[command, "-h"]));
        // clap prints an option or argument with no help text as a bare name: every
        // line that starts an entry must carry text after the name.
        for line in help.lines() {
            let entry = line.trim_start();
            if entry.starts_with('-') || entry.starts_with('<') {
                let text = entry.split("  ").skip(1).any(|t| !t.trim().is_empty());
                assert!(text, "`cescacs {command} --help`: no text for {entry:?}\n{help}");
            }
        }
    }
    let check = stdout(&cescacs(&["check", "--help"]));
    assert!(!check.contains("xiangqi-xml"), "{check}");
    assert!(stdout(&cescacs(&["convert", "--help"])).contains("xiangqi-xml"));
}
