//! `cescacs convert --to pgn --notation lan|uci` against python-chess, on every game of
//! the shared classic corpus (`shared/corpus/classic-pgn-real`).
//!
//! The reference is python-chess 1.11.2's `board.lan(move)` and `move.uci()` for every
//! main-line move of every game it replays (`testdata/chess/oracle-lan-uci.tsv`, made by
//! `peers/python-chess-bench/notations.py`; `testdata/chess` is a byte copy of the shared
//! corpus, see its PROVENANCE.md). The command runs with `--strip
//! comments,variations,nags` so that the movetext is moves only, which tests stripping
//! too: the stripped game keeps its whole main line.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// (file relative to the corpus, 1-based game) -> (LAN moves, UCI moves), space-separated.
fn reference() -> HashMap<(String, usize), (String, String)> {
    let path = test_support::testdata().join("chess/oracle-lan-uci.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the python-chess reference)", path.display()));
    let mut out = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "{line}");
        out.insert(
            (f[0].to_string(), f[1].parse().unwrap()),
            (f[2].to_string(), f[3].to_string()),
        );
    }
    out
}

/// Converts one file; returns the moves of each written game (in input order) and the
/// 1-based indices of the input games that were bad (not written).
fn convert(file: &Path, notation: &str, scratch: &Path) -> (Vec<Vec<String>>, Vec<usize>) {
    let report = scratch.join(format!("report-{notation}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args([
            "convert",
            "--to",
            "pgn",
            "--notation",
            notation,
            "-j",
            "1",
            "-q",
        ])
        .args(["--strip", "comments,variations,nags", "--report"])
        .arg(&report)
        .arg(file)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let mut bad: Vec<usize> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| d["game"].as_u64().unwrap() as usize)
        .collect();
    bad.dedup();
    let text = String::from_utf8(out.stdout).unwrap();
    // Export form: tag lines, blank line, movetext, blank line; per game.
    let blocks: Vec<&str> = text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    assert_eq!(blocks.len() % 2, 0, "{}", file.display());
    let games = blocks
        .chunks(2)
        .map(|pair| {
            assert!(pair[0].starts_with("[Event "), "{}", pair[0]);
            assert!(!pair[1].contains(['{', '(', '$', ';']), "{}", pair[1]);
            pair[1]
                .split_whitespace()
                .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
                .map(str::to_string)
                .collect()
        })
        .collect();
    (games, bad)
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn lan_and_uci_output_equal_python_chess_on_the_shared_classic_corpus() {
    let root = test_support::shared("corpus/classic-pgn-real");
    let mut expected = reference();
    let scratch = std::env::temp_dir().join(format!("cescacs-notation-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let (mut games, mut moves, mut ours_only) = (0, 0, 0);
    for file in test_support::files_with_extension(&root, "pgn") {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let (lan_games, bad) = convert(&file, "lan", &scratch);
        let (uci_games, bad_uci) = convert(&file, "uci", &scratch);
        assert_eq!(bad, bad_uci, "{rel}");
        assert_eq!(lan_games.len(), uci_games.len(), "{rel}");
        let total = lan_games.len() + bad.len();
        let good = (1..=total).filter(|i| !bad.contains(i));
        for (index, (lan, uci)) in good.zip(lan_games.iter().zip(&uci_games)) {
            let Some((want_lan, want_uci)) = expected.remove(&(rel.clone(), index)) else {
                // python-chess refused this game (it reported an error): nothing to compare.
                ours_only += 1;
                continue;
            };
            if rel == "mliebelt-pgn-parser/doc_sampleGameThrow.pgn" {
                // German `Sf3` (spec §6) is a knight for us and a pawn move for
                // python-chess: the documented divergence of chess-pgn's corpus test.
                continue;
            }
            assert_eq!(
                lan.join(" "),
                want_lan,
                "{rel} game {index}: --notation lan"
            );
            assert_eq!(
                uci.join(" "),
                want_uci,
                "{rel} game {index}: --notation uci"
            );
            games += 1;
            moves += lan.len();
        }
        // Every game python-chess replays was converted by us.
        for i in &bad {
            assert!(
                !expected.contains_key(&(rel.clone(), *i)),
                "{rel} game {i}: python-chess replays it, convert reported it bad"
            );
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    assert!(
        expected.is_empty(),
        "games of the reference not met in the corpus: {:?}",
        expected.keys().take(5).collect::<Vec<_>>()
    );
    eprintln!(
        "--notation lan/uci identical to python-chess: {games} games, {moves} moves each \
         ({ours_only} games python-chess refuses)"
    );
    assert!(
        games > 500 && moves > 45_000,
        "{games} games, {moves} moves"
    );
}
