//! `replay --each`, `show INPUT --game N --ply K` and `view`, against references:
//! python-chess's FEN after every half-move (an expected file it wrote), the xiangqi
//! crate's own replay (xiangqi-pgn's `main_line` iterator), and `replay`'s final TLPD.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// `(game, ply) -> position` from `replay --each FILE`.
fn each(file: &Path) -> BTreeMap<(usize, usize), String> {
    let out = cescacs(&["replay", "--each", file.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| {
            let (head, position) = l.split_once(": ").unwrap();
            let (g, p) = head.split_once(':').unwrap();
            (
                (g.parse().unwrap(), p.parse().unwrap()),
                position.to_string(),
            )
        })
        .collect()
}

#[test]
fn chess_positions_equal_python_chess_after_every_half_move() {
    // testdata/chess/replay-each/PROVENANCE.md: written by python-chess 1.11.1.
    let pgn = repo("testdata/chess/python-chess/kasparov-deep-blue-1997.pgn");
    let out = cescacs(&["replay", "--each", pgn.to_str().unwrap()]);
    assert!(out.status.success());
    let expected = std::fs::read_to_string(repo(
        "testdata/chess/replay-each/kasparov-deep-blue-1997.fens",
    ))
    .unwrap();
    assert_eq!(expected.lines().count(), 525);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

fn xiangqi_files(root: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            xiangqi_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "pgn") {
            out.push(p);
        }
    }
}

/// Every position of every game xiangqi-pgn reads without error, by its own replay,
/// against `replay --each`: (positions compared, games compared).
fn compare_xiangqi(root: &Path) -> (usize, usize) {
    let mut files = Vec::new();
    xiangqi_files(root, &mut files);
    let (mut positions, mut games) = (0, 0);
    for file in files {
        let ours = each(&file);
        let read = xiangqi_pgn::read_bytes(&std::fs::read(&file).unwrap(), "");
        for g in read.games.iter().filter(|g| g.error.is_none()) {
            let mut theirs = vec![g.game.start.to_fen()];
            theirs.extend(g.game.main_line().map(|p| p.after().to_fen()));
            for (ply, fen) in theirs.iter().enumerate() {
                assert_eq!(
                    ours.get(&(g.index, ply)),
                    Some(fen),
                    "{}: game {} ply {ply}",
                    file.display(),
                    g.index
                );
                positions += 1;
            }
            assert!(!ours.contains_key(&(g.index, theirs.len())));
            games += 1;
        }
    }
    (positions, games)
}

#[test]
fn xiangqi_positions_equal_the_xiangqi_crates_replay() {
    let (positions, games) = compare_xiangqi(&repo("testdata/xiangqi"));
    assert!(
        games > 50 && positions > 1000,
        "{games} games, {positions} positions"
    );
}

#[test]
#[ignore = "needs ../shared: cargo test -p cescacs-cli --test replay_each -- --ignored --nocapture"]
fn xiangqi_positions_on_the_shared_corpus() {
    for corpus in ["xiangqi-real", "xiangqi-generated"] {
        let (positions, games) =
            compare_xiangqi(&test_support::shared(&format!("corpus/{corpus}")));
        println!("{corpus}: {games} games, {positions} positions equal");
    }
}

#[test]
fn cescacs_last_position_is_replays_and_show_picks_one_ply() {
    let file = repo("testdata/ctl-pgn/real/2023-09-08.ctl-pgn");
    let f = file.to_str().unwrap();
    let all = each(&file);
    let final_tlpd = String::from_utf8(cescacs(&["replay", f]).stdout).unwrap();
    let (last, position) = all.iter().next_back().unwrap();
    assert_eq!(last.1, 86);
    assert_eq!(format!("{position}\n"), final_tlpd);
    // show --game --ply is the same position as the line of replay --each.
    let out = cescacs(&["show", f, "--game", "1", "--ply", "40"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", all[&(1, 40)])
    );
    // Past the end: an error naming the game, no position.
    let out = cescacs(&["show", f, "--ply", "87"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no half-move 87"));
    assert!(out.stdout.is_empty());
}

#[test]
fn show_draws_the_position_with_its_data_position() {
    let pgn = repo("testdata/chess/python-chess/kasparov-deep-blue-1997.pgn");
    let dir = std::env::temp_dir().join(format!("cescacs-show-ply-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("p.svg");
    let out = cescacs(&[
        "show",
        pgn.to_str().unwrap(),
        "--game",
        "2",
        "--ply",
        "7",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let expected = &each(&pgn)[&(2, 7)];
    assert_eq!(
        doc.root_element().attribute("data-position"),
        Some(expected.as_str())
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn view_writes_one_page_with_every_game() {
    let dir = std::env::temp_dir().join(format!("cescacs-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let html = dir.join("v.html");
    let inputs = [
        repo("testdata/chess/python-chess/kasparov-deep-blue-1997.pgn"),
        repo("testdata/ctl-pgn/real/2023-09-08.ctl-pgn"),
        repo("testdata/xiangqi/real/walker8088-cchess/test.pgn"),
    ];
    let mut args = vec!["view", "-o", html.to_str().unwrap()];
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    let out = cescacs(&args);
    // test.pgn's site banner after its game is no game: a warning (it used to be a
    // bad second game, exit status 1), and every game is shown.
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("test.pgn:28:1: game 2: warning: text after the last game"),
        "{err}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    let start = page
        .find(r#"<script type="application/json" id="games">"#)
        .unwrap();
    let json = &page[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let games: serde_json::Value = serde_json::from_str(json).unwrap();
    let games = games.as_array().unwrap();
    let kinds: Vec<&str> = games.iter().map(|g| g["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "chess", "chess", "chess", "chess", "chess", "chess", "cescacs", "xiangqi"
        ]
    );
    // The page's positions are replay --each's.
    let all = each(&inputs[0]);
    for (ply, m) in games[1]["moves"].as_array().unwrap().iter().enumerate() {
        assert_eq!(m["p"].as_str().unwrap(), all[&(2, ply + 1)]);
    }
    // The output may not be an input.
    let out = cescacs(&[
        "view",
        "-o",
        inputs[0].to_str().unwrap(),
        inputs[0].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pcn_input_gives_the_positions_of_its_source_for_all_three_games() {
    let dir = std::env::temp_dir().join(format!("cescacs-each-pcn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, source) in [
        "testdata/chess/python-chess/kasparov-deep-blue-1997.pgn",
        "testdata/ctl-pgn/real/2023-09-08.ctl-pgn",
        "testdata/xiangqi/real/walker8088-cchess/zhongpao_dui_liepao_black_first.pgn",
    ]
    .into_iter()
    .enumerate()
    {
        let source = repo(source);
        let pcn = dir.join(format!("{i}.pcn.json"));
        let out = cescacs(&[
            "convert",
            "--to",
            "pcn",
            source.to_str().unwrap(),
            "-o",
            pcn.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (want, got) = (each(&source), each(&pcn));
        assert!(want.len() > 20, "{}", source.display());
        assert_eq!(got, want, "{}", source.display());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_and_mate_are_marked_in_every_picture() {
    let dir = std::env::temp_dir().join(format!("cescacs-marks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("m.svg");
    let s = svg.to_str().unwrap();
    let marks = |args: &[&str]| {
        let out = cescacs(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&svg).unwrap();
        roxmltree::Document::parse(&text).unwrap();
        (
            text.contains("class=\"bsv-check\""),
            text.contains("class=\"bsv-mate\""),
        )
    };
    // Fool's mate, as a FEN and as the last position of a game.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert_eq!(marks(&["show", "--fen", mated, "--svg", s]), (true, true));
    let checked = "rnbqkbnr/ppp2ppp/3p4/1B2p3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3";
    assert_eq!(
        marks(&["show", "--fen", checked, "--svg", s]),
        (true, false)
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(marks(&["show", "--fen", start, "--svg", s]), (false, false));
    // The C'escacs game of 2023-09-08 ends in mate (43... DF12xJF2#); ply 85 is not check.
    let ctl = repo("testdata/ctl-pgn/real/2023-09-08.ctl-pgn");
    let c = ctl.to_str().unwrap();
    assert_eq!(marks(&["show", c, "--svg", s]), (true, true));
    assert_eq!(
        marks(&["show", c, "--ply", "85", "--svg", s]),
        (false, false)
    );
    let tlpd = String::from_utf8(cescacs(&["replay", c]).stdout).unwrap();
    assert_eq!(
        marks(&["show", "--tlpd", tlpd.trim(), "--svg", s]),
        (true, true)
    );
    std::fs::remove_dir_all(&dir).ok();
}
