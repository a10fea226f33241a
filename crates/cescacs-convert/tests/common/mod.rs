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

    /// Checks [`SET_UP_GAMES`], [`CHESS960_MOVETEXTS`] and [`SET_UP_CASES`].
    pub fn set_up_games(&self) {
        for (i, pgn) in SET_UP_GAMES.iter().enumerate() {
            self.game(pgn, true, &format!("set-up game {i}"));
        }
        for (movetext, taken) in CHESS960_MOVETEXTS {
            let pgn = format!("{CHESS960_HEAD}{movetext}\n");
            self.game(pgn.as_bytes(), *taken, &pgn);
        }
        for (pgn, taken) in SET_UP_CASES {
            self.game(pgn.as_bytes(), *taken, pgn);
        }
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

/// The tag section of cutechess's Chess960 games: X-FEN `KQkq` read as the outermost
/// rooks.
pub const CHESS960_HEAD: &str = "[Event \"?\"]\n[Result \"*\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Variant \"fischerandom\"]\n\n";

/// Movetexts after [`CHESS960_HEAD`], with whether both direct paths take them:
/// short and long castling with the king beside or apart from the rook.
pub const CHESS960_MOVETEXTS: &[(&str, bool)] = &[
    (
        "1. d4 {+0.13/12 0.29s} d5 {-0.17/15 0.30s} 2. Bf4 Bf5 3. O-O-O {castles} O-O-O 4. Ne3 Ne6 *",
        true,
    ),
    ("1. Ne3 Ne6 2. O-O O-O 3. d4 d5 4. Bd2 Bd7 *", true),
    // Long castling before the squares are empty: illegal.
    ("1. O-O-O *", false),
];

/// Games of a set-up start or of Chess960, with whether both direct paths take them.
pub const SET_UP_CASES: &[(&str, bool)] = &[
    // Shredder-FEN castling kept; a Chess960 game with no `FEN` and the
    // standard array.
    (
        "[Variant \"Chess960\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2\n",
        true,
    ),
    (
        "[Variant \"Chess960\"]\n\n1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2\n",
        true,
    ),
    // An inner rook named by its file in X-FEN; castling from a Chess960 FEN
    // whose castling field is `-`, and without a `Variant` tag (standard chess
    // from a set-up position, castling spelt X-FEN).
    (
        "[Variant \"Chess960\"]\n[FEN \"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O O-O-O *\n",
        true,
    ),
    (
        "[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\"]\n\n1. O-O O-O-O 2. Rfe1 *\n",
        true,
    ),
    (
        "[FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1\"]\n\n1. Kf1 Kd8 *\n",
        true,
    ),
    // Black to move, move 41; a comment before the first move; a halfmove clock
    // over the move generator's 100; EPD-like four fields; a four-digit move
    // number; the last `FEN` and `SetUp` of several.
    (
        "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 41\"]\n[SetUp \"1\"]\n\n41... Kd7 42. O-O Kc6 *\n",
        true,
    ),
    (
        "[FEN \"4k3/8/8/8/8/8/8/4K2R b K - 3 41\"]\n\n{before} 41... Kd7 {after} 42. Kd2 Kc6 *\n",
        true,
    ),
    (
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 120 60\"]\n\n60. Ra2 Kd8 61. Ra3 *\n",
        true,
    ),
    (
        "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q -\"]\n\n1. O-O-O Ke7 *\n",
        true,
    ),
    (
        "[FEN \"4k3/8/8/8/8/8/8/R3K3 b - - 0 999\"]\n\n999... Kd8 1000. Ra8+ Kc7 1001. Ra7+ *\n",
        true,
    ),
    (
        "[FEN \"8/8/8/8/8/8/8/k6K w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n[SetUp \"0\"]\n[SetUp \"1\"]\n\n1. Ra8+ Kd7 *\n",
        true,
    ),
    // A standard start given as a `FEN` is still written with one.
    (
        "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n[Variant \"Standard\"]\n\n1. e4 e5 1-0\n",
        true,
    ),
    // Mate from a set-up start; a marker that contradicts it; an escaped `FEN`
    // value (a backslash, which no FEN reads).
    (
        "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n\n1. Ra8# 1-0\n",
        true,
    ),
    (
        "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n\n1. Ra8# 0-1\n",
        false,
    ),
    (
        "[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\\\\\"]\n\n1. Ra8# 1-0\n",
        false,
    ),
    // Declined: `SetUp "1"` without a `FEN`, a `FEN` that does not read, a `FEN`
    // with a tab, a `FEN` name in another case, a move of the wrong side, 63 tags
    // and the `FEN` (past the 64 read directly), a variant not read.
    ("[SetUp \"1\"]\n\n1. e4 e5 1-0\n", false),
    ("[SetUp \" 1\u{a0}\"]\n\n1. e4 e5 1-0\n", false),
    ("[SetUp \"0\"]\n\n1. e4 e5 1-0\n", true),
    ("[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0\"]\n\n1. Kd2 *\n", false),
    (
        "[FEN \"4k3/8/8/8/8/8/8/4K3\tw - - 0 1\"]\n\n1. Kd2 *\n",
        false,
    ),
    (
        "[fen \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n",
        false,
    ),
    (
        "[Fen \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n1. Kd2 *\n",
        false,
    ),
    (
        "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n1. Kd2 *\n",
        false,
    ),
    (
        "[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[Variant \"Chess960\"]\n\n1. Kd2 *\n",
        false,
    ),
    (
        "[Variant \"Atomic\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n",
        false,
    ),
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
