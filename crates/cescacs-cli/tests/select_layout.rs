//! `select` and `convert` options of issue 32 part B: `--fix-results`, `--fen-comments`,
//! `--ply-limit`, `--line-length`, `--no-move-numbers`, `--no-results`, `--stop-after`,
//! `--split-variations`, `--positions` with move sequences and `--eco` before an input,
//! in every game they apply to. Inputs are the repository's `testdata/` (provenance
//! there) and games written here; no `../shared`. The expected positions come from the
//! rules crates' own FEN/TLPD writers and, for chess, the FENs python-chess gives
//! (`board.fen()` after each move), written out here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> (String, String) {
    let out = cescacs(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-i32b-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn write(name: &str, text: &str) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn testdata(rel: &str) -> String {
    s(&test_support::testdata().join(rel)).to_string()
}

fn tag<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("[{name} \"");
    text.lines()
        .filter_map(|l| l.strip_prefix(&head)?.strip_suffix("\"]"))
        .collect()
}

/// The text of every `{…}` comment.
fn comments(text: &str) -> Vec<&str> {
    text.split('{')
        .skip(1)
        .filter_map(|c| c.split_once('}').map(|(c, _)| c.trim()))
        .collect()
}

/// The movetext (what follows the tag section) of a one-game text.
fn movetext(text: &str) -> &str {
    text.split_once("\n\n").map_or(text, |(_, m)| m).trim()
}

/// A xiangqi mate in one: Red's chariot b1 to b9; the black general on e9 has no
/// square (rank 8 is the other chariot's, d9 faces the red general).
const XIANGQI_MATE: &str = "[Game \"Chinese Chess\"]\n[FEN \"4k4/R8/9/9/9/9/9/9/1R7/3K5 w - - 0 1\"]\n[Result \"*\"]\n\n1. b1b9 1/2-1/2\n";

#[test]
fn fix_results_from_the_final_position_in_all_three_games() {
    // Chess: fool's mate marked a draw.
    let chess = write(
        "mate.pgn",
        "[White \"a\"]\n[Result \"*\"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n",
    );
    let (out, err) = ok(&["select", s(&chess), "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["0-1"], "{out}");
    // Copied as it was: only the tag line changes; the warning names the marker.
    assert!(out.ends_with("1. f3 e5 2. g4 Qh4# 1/2-1/2\n"), "{out}");
    assert!(
        err.contains("1/2-1/2") && err.contains("checkmate"),
        "{err}"
    );
    let (out, _) = ok(&["convert", "--to", "pgn", s(&chess), "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["0-1"], "{out}");
    assert!(movetext(&out).ends_with("Qh4# 0-1"), "{out}");
    // Without the option, nothing changes.
    let (out, err) = ok(&["select", s(&chess)]);
    assert_eq!(tag(&out, "Result"), ["*"]);
    assert!(!err.contains("checkmate"));
    // A game that is not over keeps its marker as its result.
    let open = write("open.pgn", "[Result \"*\"]\n\n1. e4 e5 1-0\n");
    let (out, err) = ok(&["select", s(&open), "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["1-0"], "{out}");
    assert!(!err.contains("warning:"), "{err}");

    // Seven games against pgn-extract 19.04's `--fixresulttags` (docs/select.md): it
    // gives `0-1 0-1 * 1-0 1/2-1/2 1-0 *`; the 6th and 7th differ by rule (the marker,
    // the mate).
    let (out, _) = ok(&[
        "select",
        &testdata("select/fix-results.pgn"),
        "--fix-results",
    ]);
    assert_eq!(
        tag(&out, "Result"),
        ["0-1", "0-1", "*", "1-0", "1/2-1/2", "0-1", "1-0"]
    );

    // Xiangqi: the side to move with no move loses.
    let xq = write("xq-mate.pgn", XIANGQI_MATE);
    let (out, err) = ok(&["select", s(&xq), "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["1-0"], "{out}");
    assert!(err.contains("checkmate"), "{err}");
    let (out, _) = ok(&["convert", "--to", "xiangqi-pgn", s(&xq), "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["1-0"], "{out}");

    // C'escacs: a real game whose Result tag says 0-3 though White mates on move 35
    // (the same final move in 2022-08-14.2.ctl-pgn is tagged 3-0).
    let real = testdata("cescacs/2020-07-20.ctl-pgn");
    let (out, _) = ok(&["select", &real]);
    assert_eq!(tag(&out, "Result"), ["0-3"]);
    let (out, _) = ok(&["select", &real, "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["3-0"], "{out}");
    let (out, _) = ok(&["convert", "--to", "ctl-pgn", &real, "--fix-results"]);
    assert_eq!(tag(&out, "Result"), ["3-0"], "{out}");
}

#[test]
fn fen_comments_follow_each_main_line_move_in_all_three_games() {
    let chess = write("fen.pgn", "1. e4 {x} (1. d4) e5 2. Nf3 *\n");
    let (out, _) = ok(&["select", s(&chess), "--fen-comments"]);
    // python-chess: board.fen() after e4, e5, Nf3 (no en passant square: no capture).
    assert_eq!(
        comments(&out),
        [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "x",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        ],
        "{out}"
    );
    let xq = write("fen-xq.pgn", "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 *\n");
    let (out, _) = ok(&["select", s(&xq), "--fen-comments"]);
    assert_eq!(
        comments(&out),
        [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        ],
        "{out}"
    );
    // C'escacs: one TLPD per move, the last one the position `replay` gives.
    let real = testdata("cescacs/2020-07-20.ctl-pgn");
    let (out, _) = ok(&["select", &real, "--fen-comments"]);
    let tlpds = comments(&out);
    assert_eq!(tlpds.len(), 69, "{out}");
    let (end, _) = ok(&["replay", &real]);
    assert_eq!(tlpds.last().copied(), Some(end.trim()), "{out}");
}

#[test]
fn ply_limit_cuts_the_main_line_in_all_three_games() {
    let chess = write(
        "limit.pgn",
        "[Result \"1-0\"]\n\n1. e4 e5 (1... c5) 2. Nf3 Nc6 1-0\n",
    );
    let (out, _) = ok(&["select", s(&chess), "--ply-limit", "2"]);
    assert_eq!(movetext(&out), "1. e4 e5 (1... c5) *", "{out}");
    // A game that ends within the limit keeps its result.
    let (out, _) = ok(&["select", s(&chess), "--ply-limit", "4"]);
    assert_eq!(movetext(&out), "1. e4 e5 (1... c5) 2. Nf3 Nc6 1-0", "{out}");
    let xq = write(
        "limit-xq.pgn",
        "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 0-1\n",
    );
    let (out, _) = ok(&[
        "convert",
        "--to",
        "xiangqi-pgn",
        "--notation",
        "iccs",
        s(&xq),
        "--ply-limit",
        "1",
    ]);
    assert_eq!(movetext(&out), "1. h2e2 *", "{out}");
    let real = testdata("cescacs/2020-07-20.ctl-pgn");
    let (out, _) = ok(&["select", &real, "--ply-limit", "3", "--plycount"]);
    assert_eq!(tag(&out, "PlyCount"), ["3"], "{out}");
    assert!(out.contains("2. F8-F12"), "{out}");
    assert!(!out.contains("F20-F16"), "{out}");
}

#[test]
fn line_length_move_numbers_and_results_in_chess_and_xiangqi() {
    let twic = testdata("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn");
    let (out, _) = ok(&["select", &twic, "--line-length", "40", "--stop-after", "20"]);
    let long = out
        .lines()
        .filter(|l| !l.starts_with('[') && l.chars().count() > 40);
    assert_eq!(long.count(), 0);
    let (out, _) = ok(&[
        "select",
        &twic,
        "--no-move-numbers",
        "--no-results",
        "--stop-after",
        "5",
    ]);
    for game in out.split("\n\n\n").filter(|g| !g.trim().is_empty()) {
        let m = movetext(game);
        assert!(!m.split_whitespace().any(|t| t.ends_with('.')), "{m}");
        let last = m.split_whitespace().last().unwrap();
        assert!(!["1-0", "0-1", "1/2-1/2", "*"].contains(&last), "{m}");
    }
    assert_eq!(tag(&out, "Result").len(), 5);
    let xq = write(
        "layout-xq.pgn",
        "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 0-1\n",
    );
    let (out, _) = ok(&[
        "select",
        s(&xq),
        "--no-move-numbers",
        "--no-results",
        "--line-length",
        "10",
    ]);
    assert_eq!(movetext(&out), "炮二平五 马8进7\n马二进三 车9平8", "{out}");
    assert_eq!(tag(&out, "Result"), ["0-1"]);
}

#[test]
fn stop_after_keeps_the_first_selected_games_in_all_three_games() {
    for (file, n, head) in [
        (
            "chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn",
            7,
            "[Event ",
        ),
        (
            "xiangqi/real/wukong-xiangqi/bulk_games_uci.pgn",
            3,
            "[Event ",
        ),
        ("cescacs/2020-07-20.ctl-pgn", 1, "[Variant "),
    ] {
        let f = testdata(file);
        let (all, _) = ok(&["select", &f]);
        let (some, err) = ok(&["select", &f, "--stop-after", &n.to_string()]);
        assert!(all.starts_with(&some), "{file}");
        assert_eq!(some.matches(head).count(), n, "{file}");
        let (count, _) = ok(&["select", &f, "--count", "--stop-after", &n.to_string()]);
        assert_eq!(count.trim(), n.to_string(), "{file}: {err}");
    }
}

#[test]
fn each_variation_is_a_game_in_all_three_games() {
    let chess = write(
        "vars.pgn",
        "[White \"a\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4 d5 (1... Nf6 2. c4)) e5 2. Nf3 (2. f4) 1-0\n",
    );
    let (out, _) = ok(&["select", s(&chess), "--split-variations"]);
    let games: Vec<&str> = out.split("[Event").skip(1).collect();
    let lines: Vec<&str> = games.iter().map(|g| movetext(g)).collect();
    assert_eq!(
        lines,
        [
            "1. e4 e5 2. Nf3 1-0",
            "1. d4 d5 *",
            "1. d4 Nf6 2. c4 *",
            "1. e4 e5 2. f4 *"
        ],
        "{out}"
    );
    assert_eq!(tag(&out, "Result"), ["1-0", "*", "*", "*"]);
    let xq = write(
        "vars-xq.pgn",
        "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n\n1. h2e2 (1. b2e2) h9g7 0-1\n",
    );
    let (out, _) = ok(&[
        "convert",
        "--to",
        "xiangqi-pgn",
        "--notation",
        "iccs",
        s(&xq),
        "--split-variations",
    ]);
    let lines: Vec<&str> = out.split("[Game").skip(1).map(movetext).collect();
    assert_eq!(lines, ["1. h2e2 h9g7 0-1", "1. b2e2 *"], "{out}");
    let ctl = write(
        "vars.ctl-pgn",
        "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19 (1... F20-F18)\n2. F8-F10\n*\n",
    );
    let (out, _) = ok(&["select", s(&ctl), "--split-variations"]);
    let games: Vec<&str> = out.split("[Variant").skip(1).collect();
    assert_eq!(games.len(), 2, "{out}");
    assert!(
        games[0].contains("F8-F10") && !games[0].contains("F20-F18"),
        "{out}"
    );
    assert!(
        games[1].contains("E7-E9, F20-F18") && !games[1].contains("F8-F10"),
        "{out}"
    );
}

#[test]
fn positions_take_move_sequences_like_pgn_extract_x() {
    let twic = testdata("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn");
    let fen = write(
        "pos-fen.txt",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R\n",
    );
    let moves = write(
        "pos-moves.txt",
        "% the Sicilian with 2. Nf3\n1. e4 c5 2. Nf3\n",
    );
    let (a, _) = ok(&["select", "--count", &twic, "--positions", s(&fen)]);
    let (b, _) = ok(&["select", "--count", &twic, "--positions", s(&moves)]);
    assert_eq!(a, b);
    assert!(a.trim().parse::<usize>().unwrap() > 0);
    let xq_moves = write("pos-xq.txt", "h2e2 h9g7\n");
    let xq = write(
        "pos-xq.pgn",
        "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n[Game \"Chinese Chess\"]\n\n1. h2e2 b9c7 *\n",
    );
    let (n, _) = ok(&["select", "--count", s(&xq), "--positions", s(&xq_moves)]);
    assert_eq!(n.trim(), "1");
    let bad = write("pos-bad.txt", "e4 e4\n");
    let out = cescacs(&["select", "--count", s(&xq), "--positions", s(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 1") && err.contains("move sequence"),
        "{err}"
    );
}

#[test]
fn eco_before_an_input_takes_no_range() {
    let twic = testdata("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn");
    let (out, _) = ok(&["select", "--eco", &twic, "--stop-after", "3"]);
    assert_eq!(tag(&out, "ECO").len(), 3, "{out}");
    // A word that reads as a range is still the range.
    let (n, _) = ok(&["select", "--count", "--eco", "B", &twic]);
    let (all, _) = ok(&["select", "--count", "--eco", "B00-B99", &twic]);
    assert_eq!(n, all);
}

#[test]
fn a_late_non_utf8_byte_is_read_like_one_in_the_head() {
    // 1,500 ASCII games (about 98 KB, past the 64 KB head), then `Andr\x82` (cp437 é).
    let game = "[Event \"e\"]\n[White \"Andre\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
    let mut bytes = game.repeat(1500).into_bytes();
    bytes.extend_from_slice(
        b"[Event \"e\"]\n[White \"Andr\x82\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n",
    );
    let late = scratch("late.pgn");
    std::fs::write(&late, &bytes).unwrap();
    let early = scratch("early.pgn");
    let head = bytes.len() - game.len() * 1500;
    let mut first = bytes[game.len() * 1500..].to_vec();
    first.extend_from_slice(&bytes[..bytes.len() - head]);
    std::fs::write(&early, &first).unwrap();
    for f in [&late, &early] {
        // Windows-1252 (the guess) wherever the byte is.
        let (n, _) = ok(&["select", "--count", "--player", "Andr\u{201a}", s(f)]);
        assert_eq!(n.trim(), "1", "{f:?}");
        let (n, _) = ok(&[
            "select",
            "--count",
            "--encoding",
            "cp437",
            "--player",
            "Andr\u{e9}",
            s(f),
        ]);
        assert_eq!(n.trim(), "1", "{f:?}");
    }
    // The guess is said wherever the byte is, at its place.
    let (_, err) = ok(&["check", s(&early)]);
    assert!(err.contains(":2:13: warning: not UTF-8 (byte "), "{err}");
    let (_, err) = ok(&["check", s(&late)]);
    let at = game.len() * 1500 + 24;
    assert!(
        err.contains(&format!(
            ":{}:13: warning: not UTF-8 (byte {at} is 0x82): read as Windows-1252",
            1500 * 7 + 2
        )),
        "{err}"
    );
}

#[test]
fn layout_options_a_writer_has_no_place_for_are_said() {
    let ctl = testdata("cescacs/2020-07-20.ctl-pgn");
    let twic = testdata("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn");
    let xq = write(
        "said-xq.pgn",
        "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 0-1\n",
    );
    let layout = ["--line-length", "40", "--no-move-numbers", "--no-results"];
    let said = |err: &str, format: &str| {
        ["--line-length", "--no-move-numbers", "--no-results"]
            .iter()
            .filter(|o| {
                err.contains(&format!(
                    "warning: {o} does not apply to {format} output (its writer has no such layout): ignored"
                ))
            })
            .count()
    };
    // C'escacs: CTL-PGN is written in its specification's form; the run goes on and
    // copies the games as they were, as without the options.
    let (plain, _) = ok(&["select", &ctl]);
    let (out, err) = ok(&[&["select", &ctl][..], &layout[..]].concat());
    assert_eq!(said(&err, "ctl-pgn"), 3, "{err}");
    assert_eq!(out, plain);
    let (_, err) = ok(&[&["convert", "--to", "ctl-pgn", &ctl][..], &layout[..]].concat());
    assert_eq!(said(&err, "ctl-pgn"), 3, "{err}");
    // Only what is asked is said.
    let (_, err) = ok(&["select", &ctl, "--no-results", "--ply-limit", "3"]);
    assert_eq!(said(&err, "ctl-pgn"), 1, "{err}");
    assert!(!err.contains("--ply-limit"), "a cut applies: {err}");
    // Chess and xiangqi PGN take them; their PCN and XML forms do not.
    for f in [twic.as_str(), s(&xq)] {
        let (_, err) = ok(&[&["select", "--stop-after", "3", f][..], &layout[..]].concat());
        assert!(!err.contains("does not apply"), "{f}: {err}");
        let (_, err) = ok(&[&["convert", "--to", "pcn", f][..], &layout[..]].concat());
        assert_eq!(said(&err, "pcn"), 3, "{f}: {err}");
    }
    let (_, err) = ok(&["convert", "--to", "xiangqi-xml", s(&xq), "--no-results"]);
    assert_eq!(said(&err, "xiangqi-xml"), 1, "{err}");
    // Nothing is written by --count: nothing to say.
    let (_, err) = ok(&[&["select", "--count", &ctl][..], &layout[..]].concat());
    assert!(!err.contains("does not apply"), "{err}");
}

/// `n` good games, then bad ones (an illegal move each).
fn good_then_bad(n: usize, bad: usize) -> String {
    let good = "[Event \"good\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n";
    let bad_game = "[Event \"bad\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e5 *\n\n";
    good.repeat(n) + &bad_game.repeat(bad)
}

fn report_summary(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn stop_after_stops_reading_and_later_bad_games_do_not_count() {
    let f = write("stop-bad.pgn", &good_then_bad(5, 3000));
    for jobs in ["1", "2"] {
        let report = scratch(&format!("stop-{jobs}.json"));
        let out = cescacs(&[
            "select",
            "-j",
            jobs,
            "--stop-after",
            "3",
            // Converting reads the moves: a bad game is bad to `select` then.
            "--to",
            "pgn",
            "--report",
            s(&report),
            s(&f),
        ]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{err}");
        assert_eq!(
            String::from_utf8(out.stdout)
                .unwrap()
                .matches("[Event ")
                .count(),
            3
        );
        assert!(!err.contains("error:"), "{err}");
        assert!(err.contains("3 game(s) read, 3 selected"), "{err}");
        assert!(err.contains("stopped after 3 selected game(s)"), "{err}");
        let r = report_summary(&report);
        assert_eq!(r["stopped_after"], 3, "{r}");
        assert_eq!(r["games"], 3, "{r}");
        assert_eq!(r["games_bad"], 0, "{r}");
        assert_eq!(r["diagnostics"].as_array().map(Vec::len), Some(0), "{r}");
    }
    // Without the limit the bad games are there (exit status 1).
    let out = cescacs(&["select", "--to", "pgn", s(&f)]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn stop_after_reads_no_further_from_a_stream() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(["select", "--from", "pgn", "--stop-after", "4", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // 4 good games, then 64 MB of bad ones: written until the reader goes away.
    let chunk = good_then_bad(0, 2000).into_bytes();
    let total = 64usize << 20;
    let feeder = std::thread::spawn(move || {
        let mut written = 0usize;
        if stdin.write_all(good_then_bad(4, 0).as_bytes()).is_err() {
            return written;
        }
        while written < total {
            match stdin.write_all(&chunk) {
                Ok(()) => written += chunk.len(),
                Err(_) => break,
            }
        }
        written
    });
    let out = child.wait_with_output().unwrap();
    let written = feeder.join().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        String::from_utf8(out.stdout)
            .unwrap()
            .matches("[Event ")
            .count(),
        4
    );
    assert!(err.contains("stopped after 4 selected game(s)"), "{err}");
    // The run ended with most of the stream unread (the feeder met a closed pipe).
    assert!(written < total, "{written} of {total} bytes were read");
}
