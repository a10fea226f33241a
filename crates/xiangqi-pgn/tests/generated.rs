//! Oracle test against the generated corpus: 300 random games + 48 tandem drills, each
//! in 7 notation variants, with the final FEN in `manifest.jsonl`, found through
//! `test_support::shared` (the test fails loudly when the shared folder is missing);
//! `testdata/xiangqi/tandem-drills/` holds a copy of the drills checked the same way.

use std::path::{Path, PathBuf};

use xiangqi_pgn::{MoveStyle, Notation, read_bytes, write_game};

const VARIANTS: [&str; 7] = [
    "gen_iccs.pgn",
    "gen_iccs_upper_dash.pgn",
    "gen_wxf.pgn",
    "gen_wxf_ffish_dialect.pgn",
    "gen_chinese_xqbase.pgn",
    "gen_chinese_trad_fullwidth.pgn",
    "gen_chinese_cchess.pgn",
];

fn styles() -> Vec<(&'static str, MoveStyle)> {
    let mut upper = MoveStyle::canonical(Notation::Iccs);
    upper.iccs_upper_dash = true;
    let mut trad = MoveStyle::canonical(Notation::Chinese);
    trad.traditional = true;
    trad.fullwidth_black_digits = true;
    vec![
        ("gen_iccs.pgn", MoveStyle::canonical(Notation::Iccs)),
        ("gen_iccs_upper_dash.pgn", upper),
        ("gen_wxf.pgn", MoveStyle::canonical(Notation::Wxf)),
        (
            "gen_chinese_xqbase.pgn",
            MoveStyle::canonical(Notation::Chinese),
        ),
        ("gen_chinese_trad_fullwidth.pgn", trad),
    ]
}

struct Expected {
    final_fen: String,
    /// First ply whose `zh_cchess` text is ambiguous, if any.
    cchess_ambiguous_ply: Option<usize>,
}

fn manifest(dir: &Path) -> Vec<Expected> {
    let text = std::fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let moves = v["moves"].as_array().unwrap();
            let amb = moves.iter().position(|m| {
                m.get("ambiguous_in")
                    .and_then(|a| a.as_array())
                    .is_some_and(|a| a.iter().any(|x| x == "zh_cchess"))
            });
            Expected {
                final_fen: v["final_fen"].as_str().unwrap().to_string(),
                cchess_ambiguous_ply: amb,
            }
        })
        .collect()
}

/// Board and side of a FEN (the manifest's counters follow pyffish conventions).
fn board_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

/// The movetext of each game of a generated file (text between the tag block and the
/// blank line that ends the game).
fn movetexts(text: &str) -> Vec<String> {
    text.split("[Game ")
        .skip(1)
        .map(|g| {
            let body = g.split_once("\n\n").map(|x| x.1).unwrap_or("");
            body.trim_end_matches('\n').to_string() + "\n"
        })
        .collect()
}

fn check_dir(dir: &Path) -> usize {
    let expected = manifest(dir);
    let mut checked = 0;
    let targets: Vec<(&str, MoveStyle, Vec<String>)> = styles()
        .into_iter()
        .map(|(f, s)| {
            let t = std::fs::read_to_string(dir.join(f)).unwrap();
            (f, s, movetexts(&t))
        })
        .collect();
    for variant in VARIANTS {
        let bytes = std::fs::read(dir.join(variant)).unwrap();
        let file = read_bytes(&bytes, variant);
        // A canonical file written back in its own style is the same file, byte for byte.
        if let Some((_, style, _)) = targets.iter().find(|(f, _, _)| *f == variant) {
            let all: String = file
                .games
                .iter()
                .map(|g| write_game(&g.game, style))
                .collect();
            assert!(
                all.as_bytes() == bytes.as_slice(),
                "{variant} not reproduced byte for byte"
            );
        }
        assert_eq!(file.games.len(), expected.len(), "{variant}: game count");
        for (g, exp) in file.games.iter().zip(&expected) {
            if variant == "gen_chinese_cchess.pgn"
                && let Some(ply) = exp.cchess_ambiguous_ply
            {
                // The text really is ambiguous: the reader must say so, at that ply.
                let err = g.error.as_ref().map(|e| e.to_string()).unwrap_or_default();
                assert!(
                    err.contains("ambiguous"),
                    "{variant} game {}: {err}",
                    g.index
                );
                assert!(
                    err.contains(&format!("ply {ply}:")),
                    "{variant} game {}: {err}",
                    g.index
                );
                continue;
            }
            assert!(
                g.error.is_none(),
                "{variant} game {}: {:?}",
                g.index,
                g.error
            );
            assert_eq!(
                board_side(&g.game.final_position().to_fen()),
                board_side(&exp.final_fen),
                "{variant} game {}",
                g.index
            );
            for (target, style, texts) in &targets {
                let out = write_game(&g.game, style);
                let body = out.split_once("\n\n").map(|x| x.1).unwrap_or("");
                let body = body.trim_end_matches('\n').to_string() + "\n";
                assert_eq!(
                    body,
                    texts[g.index - 1],
                    "{variant} game {} written as {target}",
                    g.index
                );
            }
            checked += 1;
        }
    }
    checked
}

fn corpus() -> PathBuf {
    let manifest = test_support::shared("corpus/xiangqi-generated/manifest.jsonl");
    manifest.parent().expect("a folder").to_path_buf()
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn shared_generated_games_replay_and_convert() {
    let dir = corpus();
    let n = check_dir(&dir);
    assert!(n >= 300 * 6, "only {n} game/variant pairs checked");
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn shared_tandem_drills_replay_and_convert() {
    let dir = corpus();
    let n = check_dir(&dir.join("tandem-drills"));
    assert!(n >= 48 * 6, "only {n} game/variant pairs checked");
}

#[test]
fn local_drill_copy_replays_and_converts() {
    let dir = test_support::testdata().join("xiangqi/tandem-drills");
    let n = check_dir(&dir);
    assert!(n >= 48 * 6, "only {n} game/variant pairs checked");
}
