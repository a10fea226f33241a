//! `PlyMove::text_key` stands for a chess move's SAN and UCI exactly: the Python
//! binding hands out the strings of the first move it met with a key for every later
//! move with that key, so one key spelt two ways would give a wrong text.

use cescacs_convert::{Format, Record, move_tree};
use std::collections::HashMap;
use std::path::Path;

fn pgn_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
    entries.sort_by_key(|e| e.path());
    for e in entries {
        let p = e.path();
        if p.is_dir() {
            pgn_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "pgn") {
            out.push(p);
        }
    }
}

#[test]
fn one_key_one_spelling_over_the_chess_testdata() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/chess");
    let mut files = Vec::new();
    pgn_files(&root, &mut files);
    let mut seen: HashMap<u64, (String, String)> = HashMap::new();
    let mut moves = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let splitter = cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24);
        for raw in splitter.flatten() {
            for record in Record::read_all(Format::Pgn, &raw) {
                // Variations too: their moves are keyed as the main line's.
                let Ok(tree) = move_tree(&record, true) else {
                    continue;
                };
                for m in tree.nodes.iter().filter_map(|n| n.mv.as_ref()) {
                    let key = m.text_key().expect("a chess move has a key");
                    let texts = (m.san().to_string(), m.uci().to_string());
                    let first = seen.entry(key).or_insert_with(|| texts.clone());
                    assert_eq!(*first, texts, "key {key:#x} in {}", f.display());
                    moves += 1;
                }
            }
        }
    }
    // Many moves share a key (the same move in many games); distinct spellings do not.
    assert!(moves > 10_000, "only {moves} moves read");
    let mut spellings: Vec<_> = seen.values().collect();
    let keys = spellings.len();
    spellings.sort();
    spellings.dedup();
    assert_eq!(spellings.len(), keys, "two keys for one spelling");
}

#[test]
fn xiangqi_and_cescacs_moves_have_no_key() {
    let record = Record::from_bytes(
        Format::XiangqiPgn,
        b"[Game \"Chinese Chess\"]\n\n1. C2.5 *\n",
    );
    let tree = move_tree(&record, false).unwrap();
    assert_eq!(tree.main_moves().next().map(|m| m.text_key()), Some(None));
}
