//! What the differential tests of the direct paths share (`direct_pgn.rs`,
//! `direct_pcn.rs`): `convert` writes most classic games without a game model, and each
//! such path is held to the model path (read with `chess-pgn`'s model, written by
//! `Record::write`) on every game of the test corpora and on games made to hit each
//! case.

use std::path::{Path, PathBuf};

/// The two corpus tests of a direct path, for the calling file's `differential()`:
/// every game of `testdata/`, and under `--ignored` every game of the shared corpus.
macro_rules! corpus_tests {
    () => {
        #[test]
        fn every_testdata_game_converts_as_the_model_path_does() {
            differential().every_game_of(&common::testdata());
        }

        #[test]
        #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
        fn every_corpus_game_converts_as_the_model_path_does() {
            differential().every_game_of(&common::shared_corpus());
        }
    };
}

use cescacs_batch::{GameOutcome, RawGame};
use cescacs_convert::{Converter, Format, Options, Record};

/// A direct path: appends what it writes of the one game in the bytes to the buffer
/// and returns true, or returns false with the buffer as it was (the game is then the
/// model path's).
pub type DirectPath = fn(&[u8], &mut Vec<u8>) -> bool;

/// A check of what the direct path wrote beyond equality with the model path (the
/// PCN document reads back).
pub type ReadBack = fn(&[u8]) -> Result<(), String>;

/// A direct path from classic PGN to `to`, and the converter that chooses between it
/// and the model path.
pub struct Differential {
    to: Format,
    converter: Converter,
    direct: DirectPath,
    read_back: ReadBack,
}

impl Differential {
    pub fn new(to: Format, direct: DirectPath, read_back: ReadBack) -> Differential {
        Differential {
            to,
            converter: Converter::new(Format::Pgn, Some(to), Options::default()).unwrap(),
            direct,
            read_back,
        }
    }

    /// What the model path gives for one game: the text and the diagnostics.
    fn model(&self, raw: &RawGame) -> GameOutcome {
        let record = Record::read(Format::Pgn, raw);
        let mut outcome = GameOutcome {
            output: Vec::new(),
            diagnostics: record.diagnostics().to_vec(),
        };
        if !record.has_errors() {
            match record.write(self.to, &Options::default()) {
                Ok(w) => {
                    outcome.diagnostics.extend(w.warnings);
                    outcome.output = w.text.into_bytes();
                }
                Err(e) => outcome.diagnostics.push(e.diagnostic()),
            }
        }
        outcome
    }

    /// Checks one game: `convert` gives what the model path gives, and so does the
    /// direct path when it takes the game (only games the model reader reports
    /// nothing about). True when the direct path took it.
    pub fn same(&self, raw: &RawGame, what: &str) -> bool {
        let mut direct = Vec::new();
        let taken = (self.direct)(&raw.bytes, &mut direct);
        let expected = self.model(raw);
        let got = self.converter.convert(raw);
        assert_eq!(
            String::from_utf8_lossy(&got.output),
            String::from_utf8_lossy(&expected.output),
            "{what}: the convert output differs from the model path's"
        );
        assert_eq!(got.diagnostics, expected.diagnostics, "{what}");
        if taken {
            assert!(
                expected.diagnostics.is_empty(),
                "{what}: the direct path took a game the model reader reports: {:?}",
                expected.diagnostics
            );
            assert_eq!(
                String::from_utf8_lossy(&direct),
                String::from_utf8_lossy(&expected.output),
                "{what}"
            );
            (self.read_back)(&direct).unwrap_or_else(|e| panic!("{what}: {e}"));
        } else {
            assert!(direct.is_empty(), "{what}: a declined game left output");
        }
        taken
    }

    /// Checks every game of the PGN files under `dirs`; (games, taken by the direct
    /// path).
    fn corpus(&self, dirs: &[PathBuf]) -> (usize, usize) {
        let (mut games, mut direct) = (0, 0);
        for dir in dirs {
            for file in test_support::files_with_extension(dir, "pgn") {
                let bytes = std::fs::read(&file).unwrap();
                let mut splitter = cescacs_batch::GameSplitter::new(&bytes[..], 1 << 24);
                while let Some(raw) = splitter.next_game().unwrap() {
                    let what = format!("{} game {}", file.display(), raw.index);
                    direct += usize::from(self.same(&raw, &what));
                    games += 1;
                }
            }
        }
        (games, direct)
    }

    /// Checks every game of `dir` (a folder of `.pgn` files, searched in depth) and
    /// that the comparison was not vacuous: over 500 games, most taken by the direct
    /// path, and some not.
    pub fn every_game_of(&self, dir: &Path) {
        let (games, direct) = self.corpus(&[dir.to_path_buf()]);
        assert!(
            games > 500 && direct * 2 > games && direct < games,
            "{}: {direct} of {games} games taken by the direct path",
            dir.display()
        );
    }

    /// Checks games made of the tag section `head` and each movetext of `cases`, with
    /// whether the direct path takes it, then of each of [`DECLINED_MOVETEXTS`].
    pub fn movetexts(&self, head: &str, cases: &[(&str, bool)]) {
        let declined = DECLINED_MOVETEXTS.iter().map(|m| (*m, false));
        for (i, (movetext, taken)) in cases.iter().copied().chain(declined).enumerate() {
            let pgn = format!("{head}\n{movetext}\n");
            self.game(pgn.as_bytes(), taken, &format!("case {i}"));
        }
    }

    /// Checks that the direct path leaves each of [`DECLINED_GAMES`] and of `more` to
    /// the model path.
    pub fn declined_games(&self, more: &[&[u8]]) {
        for (i, pgn) in DECLINED_GAMES.iter().chain(more).enumerate() {
            self.game(pgn, false, &format!("declined game {i}"));
        }
    }

    /// Checks one whole game, with whether the direct path takes it.
    pub fn game(&self, pgn: &[u8], taken: bool, what: &str) {
        let raw = cescacs_convert::raw_game(pgn);
        assert_eq!(
            self.same(&raw, what),
            taken,
            "{what}: {}",
            String::from_utf8_lossy(pgn)
        );
    }

    /// A tag section of 64 tags is written directly; past it the model path, whose
    /// duplicate test is linear, takes the game (the same output either way).
    pub fn tag_limit(&self) {
        for (tags, taken) in [(64, true), (65, false)] {
            let section: String = (0..tags).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
            let pgn = format!("{section}\n1. e4 e5 1-0\n");
            self.game(pgn.as_bytes(), taken, &format!("{tags} tags"));
        }
    }
}

/// Movetexts both direct paths leave to the model path, which reports or carries
/// each: a variation, a null move, an illegal move, a NAG out of range, a NAG before
/// the first move, a result disagreeing with the tag, no result, an `e.p.` suffix, a
/// move after the result.
pub const DECLINED_MOVETEXTS: &[&str] = &[
    "1. e4 (1. d4 d5) e5 1-0",
    "1. e4 -- 2. d4 1-0",
    "1. e4 e5 2. Ke3 1-0",
    "1. e4 $0 e5 1-0",
    "$1 1. e4 e5 1-0",
    "1. e4 e5 0-1",
    "1. e4 e5",
    "1. e4 e5 e.p. 1-0",
    "1. e4 e5 1-0 2. d4",
];

/// Games of a set-up start or of Chess960, which both direct paths write.
pub const SET_UP_GAMES: &[&[u8]] = &[
    b"[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 1-0\n",
    b"[Variant \"chess960\"]\n\n1. e4 1-0\n",
];

/// Whole games both direct paths leave to the model path: a tag name the reader
/// renames, a repeated tag, a tab in a value, two games, an escaped line.
pub const DECLINED_GAMES: &[&[u8]] = &[
    b"[event \"x\"]\n\n1. e4 1-0\n",
    b"[Event \"x\"]\n[Event \"y\"]\n\n1. e4 1-0\n",
    b"[Event \"a\tb\"]\n\n1. e4 1-0\n",
    b"[Event \"x\"]\n\n1. e4 1-0\n\n[Event \"y\"]\n\n1. d4 0-1\n",
    b"%escape\n[Event \"x\"]\n\n1. e4 1-0\n",
];

/// The classic PGN games of `testdata/` (in the repository).
pub fn testdata() -> PathBuf {
    test_support::workspace_root().join("testdata/chess")
}

/// The shared corpus of real classic games (`../shared`, for `cargo xtask
/// corpus-check`).
pub fn shared_corpus() -> PathBuf {
    test_support::shared("corpus/classic-pgn-real")
}
