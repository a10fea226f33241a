//! Real games: the copied fixtures, and the full shared corpus (required: found through
//! `test_support::shared`, a loud failure when missing).

use std::path::{Path, PathBuf};

use xiangqi_pgn::read_path;

fn replay_share(dir: &Path) -> Option<(usize, usize)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    let (mut games, mut ok) = (0, 0);
    for f in files {
        let r = read_path(&f).unwrap();
        for g in &r.games {
            games += 1;
            if g.is_ok() {
                ok += 1;
            } else {
                eprintln!("{}", g.error.as_ref().unwrap());
            }
        }
    }
    Some((games, ok))
}

#[test]
fn copied_real_fixtures_replay_fully() {
    let root = test_support::testdata().join("xiangqi/real");
    let (g, ok) = replay_share(&root.join("walker8088-cchess")).unwrap();
    assert_eq!((g, ok), (4, 4));
    let (g, ok) = replay_share(&root.join("wukong-xiangqi")).unwrap();
    assert_eq!((g, ok), (48, 48));
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn shared_real_corpus_replays_at_least_98_percent() {
    for folder in ["wukong-xiangqi", "walker8088-cchess"] {
        let dir = test_support::shared(&format!("corpus/xiangqi-real/{folder}"));
        let (games, ok) = replay_share(&dir).expect("a readable folder");
        assert!(games > 0);
        assert!(ok * 100 >= games * 98, "{folder}: {ok}/{games}");
        eprintln!("{folder}: {ok}/{games} games replay fully");
    }
}
