//! The fast reader against the pest grammar (the normative reader): the same verdict,
//! the same diagnostics and the same model, spans included, on every CTL-PGN file of
//! `testdata/` and of the shared corpus, on generated games and on mutated files.

mod random;

use ctl_pgn::{Agreement, compare_readers};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let rd = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for e in rd {
        let p = e.expect("directory entry").path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.to_string_lossy().ends_with(".ctl-pgn") {
            out.push(p);
        }
    }
}

fn files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    walk(&test_support::testdata(), &mut v);
    let n = v.len();
    walk(&test_support::shared_dir(), &mut v);
    assert!(
        n > 50 && v.len() > n + 300,
        "expected the CTL-PGN files of testdata and shared"
    );
    v.sort();
    v
}

fn agree(name: &str, src: &str) {
    if let Agreement::Differ(why) = compare_readers(src) {
        panic!("{name}: the readers disagree: {why}\n--- input ---\n{src}");
    }
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn every_file_agrees() {
    for f in files() {
        let bytes = std::fs::read(&f).unwrap();
        // The readers take text; a file that is not UTF-8 is not CTL-PGN.
        if let Ok(src) = String::from_utf8(bytes) {
            agree(&f.display().to_string(), &src);
        }
    }
}

/// Characters that matter to the grammar, for mutations.
const ALPHABET: &[&str] = &[
    " ",
    "\n",
    "\t",
    "\r",
    ".",
    ",",
    "…",
    "...",
    "-",
    "–",
    "‐",
    "×",
    "*",
    "x",
    "@",
    "@@",
    "=",
    "&",
    "+",
    "^",
    "#",
    "∞",
    "?",
    "!",
    "◇",
    ":",
    "(",
    ")",
    "(=)",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "$[1]",
    "$",
    "~",
    "0",
    "1",
    "2",
    "3",
    "9",
    "28",
    "A",
    "B",
    "D",
    "E",
    "F",
    "G",
    "J",
    "K",
    "N",
    "P",
    "Q",
    "R",
    "T",
    "V",
    "W",
    "Z",
    "O",
    "♔",
    "♟",
    "🩏",
    "KRK-HIO",
    "E7-E13",
    "\u{FEFF}",
    "\u{A0}",
    "[Variant \"C'escacs\"]\n",
    "[Redefine \"FAN\"]\n",
    "[Redefine \"A@J, T@R\"]\n",
    "{#W:",
    "{@N:",
    "{:",
    "1-1",
    "3 - 0",
    "0-3",
    "2-1",
];

fn mutate(rng: &mut test_support::Rng, src: &str) -> String {
    let mut s = src.to_string();
    for _ in 0..1 + rng.below(4) {
        let mut at = rng.below(s.len() + 1);
        while !s.is_char_boundary(at) {
            at -= 1;
        }
        match rng.below(3) {
            0 => {
                let w: &str = rng.pick_cloned(ALPHABET);
                s.insert_str(at, w)
            }
            1 => {
                let mut end = (at + 1 + rng.below(6)).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, "");
            }
            _ => {
                let mut end = (at + 1 + rng.below(3)).min(s.len());
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                let with = rng.pick(ALPHABET).to_string();
                s.replace_range(at..end, &with);
            }
        }
    }
    s
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn mutated_files_agree() {
    let mut small: Vec<String> = files()
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .filter(|s| s.len() < 20_000)
        .collect();
    small.truncate(400);
    let mut rng = test_support::Rng::new(0x5eed_c7f1);
    for _ in 0..3000 {
        let base = rng.pick(&small);
        let m = mutate(&mut rng, base);
        agree("mutated", &m);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(test_support::proptest_cases()))]

    #[test]
    fn generated_games_agree(seed in any::<u64>(), plies in 0usize..60, prefix in 0usize..20, decorate in any::<bool>()) {
        let g = random::generate(random::Spec { seed, prefix, plies, decorate });
        agree("generated", &g.text);
        let mut rng = test_support::Rng::new(seed);
        for _ in 0..8 {
            agree("generated+mutated", &mutate(&mut rng, &g.text));
        }
    }

    #[test]
    fn arbitrary_text_agrees(s in "[ \\n.,…\\-×@=&+#?!:(){}\\[\\]\"$~0-9A-Z♔♟]{0,80}") {
        agree("arbitrary", &s);
    }
}
