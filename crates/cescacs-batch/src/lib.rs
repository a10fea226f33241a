//! Streaming, parallel validation and conversion of whole game databases in every supported format.
//!
//! The engine knows nothing about any game format. It cuts each input into games with
//! [`GameSplitter`] (a lexical cut at game boundaries), hands batches of games to a
//! per-game function on a rayon pool, and writes the results **in input order**. Reading
//! the next batch overlaps with processing the current one, and at most a few batches
//! are in memory at once, so memory is bounded by the batch size, not by the file. With
//! one job ([`Options::jobs`] = 1) there is no pool and no batch: each game is cut,
//! processed and written in turn on the calling thread.
//!
//! ```
//! use cescacs_batch::{run, GameOutcome, Input, Options, Severity};
//!
//! let text = "[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. ?? *\n";
//! let inputs = vec![Input::from_bytes("games.pgn", text.as_bytes().to_vec())];
//! let mut out = Vec::new();
//! let summary = run(inputs, &Options::default(), &mut out, |game| {
//!     let text = String::from_utf8_lossy(&game.bytes);
//!     if text.contains("??") {
//!         GameOutcome::error(2, 4, "expected a move, found \"??\"")
//!     } else {
//!         GameOutcome::output(text.to_uppercase().into_bytes())
//!     }
//! }, |_| {})
//! .unwrap();
//! assert_eq!((summary.games, summary.games_bad), (2, 1));
//! assert_eq!(summary.diagnostics[0].to_string(), "games.pgn:5:4: game 2: error: expected a move, found \"??\"");
//! assert!(String::from_utf8(out).unwrap().starts_with("[EVENT"));
//! ```

#![warn(missing_docs)]

#[cfg(not(target_family = "wasm"))]
mod ahead;
mod archive;
mod codepage;
mod input;
mod output;
mod report;
mod session;
mod split;
mod split_output;
mod walk;

pub use archive::{ZipMember, is_zip, member_name, zip_members};
pub use codepage::{CP437, CP850, CodePage};
/// The encodings of [`TextEncoding::Decode`].
pub use encoding_rs;
pub use input::{BINARY_NUL_RUN, Compression, Guess, HEAD_BYTES, Input};
pub use output::{OutputFile, interrupt_flag, remove_temporaries, stdout_closed, stdout_encoder};
pub use report::{ReportWriter, print_diagnostic, print_line};
pub use session::{
    EXIT_BAD_GAMES, EXIT_BROKEN_PIPE, EXIT_CANNOT_RUN, EXIT_INTERRUPTED, EXIT_OK, Finished, Group,
    Session, Sink,
};
pub use split::{GameSplitter, Problem, RawGame, TextEncoding};
pub use split_output::SplitOutput;
pub use walk::{FileNote, Walk, WalkItem, WalkNote, Walking, output_is_input, same_file, walk};

use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Expands directories (recursively, sorted by path for a stable order) into the files
/// below them whose names pass `keep`; plain paths and `-` are kept as given.
/// Fails on the first unreadable directory; [`walk`] reports and goes on instead.
pub fn expand_paths(paths: &[PathBuf], keep: &dyn Fn(&Path) -> bool) -> io::Result<Vec<PathBuf>> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) -> io::Result<()> {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, keep, out)?;
            } else if keep(&path) {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, keep, &mut out)?;
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The game is processed; something was tolerated or left out.
    Warning,
    /// The game is not processed.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

impl Problem {
    /// The diagnostic code of the problem (docs/diagnostic-codes.md).
    pub fn code(&self) -> &'static str {
        match self {
            Problem::Read { .. } => "read",
            Problem::Oversized { .. } => "oversized",
            Problem::NoBoundary { .. } => "no-boundary",
            Problem::Unclosed { .. } => "unclosed",
            Problem::TrailingText => "trailing-text",
        }
    }
}

/// A problem found in one game, located relative to the game's own first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDiagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// 1-based line within the game's bytes.
    pub line: u64,
    /// 1-based column (in characters) within that line.
    pub column: u64,
    /// What was expected and what was found.
    pub message: String,
    /// What kind of problem it is: a stable name for filtering (`read`, `chess.fen`,
    /// `ctl.illegal-move`, …), from the error type that found it; the table of codes
    /// is in docs/diagnostic-codes.md. Never printed in the diagnostic's line.
    pub code: &'static str,
}

/// What the per-game function returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameOutcome {
    /// Bytes to write for this game (ignored when the game has an error).
    pub output: Vec<u8>,
    /// Problems found, located in the game.
    pub diagnostics: Vec<GameDiagnostic>,
}

impl GameOutcome {
    /// A good game and what to write for it.
    pub fn output(output: Vec<u8>) -> Self {
        GameOutcome {
            output,
            diagnostics: Vec::new(),
        }
    }

    /// A bad game with one error (code [`GameOutcome::ERROR`]).
    pub fn error(line: u64, column: u64, message: impl Into<String>) -> Self {
        GameOutcome {
            output: Vec::new(),
            diagnostics: vec![GameDiagnostic {
                severity: Severity::Error,
                line,
                column,
                message: message.into(),
                code: GameOutcome::ERROR,
            }],
        }
    }

    /// The code of an error made by [`GameOutcome::error`]: the per-game function
    /// said no more.
    pub const ERROR: &'static str = "error";

    /// A bad game with one error the splitter found.
    fn problem(problem: &Problem) -> Self {
        let (line, column, message) = problem.describe();
        let mut outcome = GameOutcome::error(line, column, message);
        outcome.diagnostics[0].code = problem.code();
        outcome
    }

    /// Whether the game has an error (and is therefore not written).
    pub fn is_bad(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// A problem located in its input: file, game number, line and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The input's name.
    pub file: String,
    /// 1-based game number in the input; 0 for a problem of the whole input
    /// (unreadable, binary, empty, a damaged compressed stream found on opening).
    pub game: usize,
    /// 1-based line in the input; 0 when the problem has no place in the text.
    pub line: u64,
    /// 1-based column (characters) in that line; 0 when the line is 0.
    pub column: u64,
    /// Byte offset of the diagnostic's place (its line and column) in the input's
    /// text (decoded text for a decoded input; the game's start when the place lies
    /// beyond the bytes kept of an oversized or damaged game); 0 for game 0.
    pub byte_offset: u64,
    /// Byte offset of the game's first byte in the input (0 for game 0).
    pub game_offset: u64,
    /// What was expected and what was found.
    pub message: String,
}

/// The byte offset, within a game's bytes, of `line`:`column` (1-based, columns in
/// characters as the splitter counts them: UTF-8 continuation bytes are not
/// characters). `None` when the place lies beyond the bytes.
pub fn offset_in_game(bytes: &[u8], line: u64, column: u64) -> Option<u64> {
    let mut at = 0usize;
    for _ in 1..line.max(1) {
        at += memchr::memchr(b'\n', &bytes[at..])? + 1;
    }
    let mut chars = 1u64;
    while chars < column.max(1) {
        let b = *bytes.get(at)?;
        if b == b'\n' {
            return None;
        }
        at += 1;
        while bytes.get(at).is_some_and(|b| (0x80..0xC0).contains(b)) {
            at += 1;
        }
        chars += 1;
    }
    Some(at as u64)
}

/// The warning for text that is not UTF-8 and is read as `guess` because no encoding
/// was given: DOS databases (cp437, cp850) use the same bytes for other letters
/// (`Andr\x82` is `André` there, `Andr‚` in Windows-1252), and nothing in the bytes
/// tells which was meant. `at` is the byte's offset in the input, `byte` its value.
pub fn not_utf8_message(at: u64, byte: u8, guess: &str) -> String {
    format!(
        "not UTF-8 (byte {at} is 0x{byte:02X}): read as {guess}, a guess; give --encoding \
         (cp437 or cp850 for DOS databases, latin-1, cp1251…) if names come out wrong"
    )
}

/// Line and column (characters, 1-based) of byte `at` in `text`, whose first byte is
/// at (`line`, `column`): where a diagnostic about that byte points (the inverse of
/// [`offset_in_game`]).
pub fn place_of(text: &[u8], at: usize, (line, column): (u64, u64)) -> (u64, u64) {
    let before = &text[..at];
    let lines = memchr::memchr_iter(b'\n', before).count() as u64;
    let (first, from) = match memchr::memrchr(b'\n', before) {
        Some(i) => (1, i + 1),
        None => (column.max(1), 0),
    };
    let chars = String::from_utf8_lossy(&before[from..]).chars().count() as u64;
    (line + lines, first + chars)
}

/// Messages quote the offending input, and input can be a 1 MB token or tag value: a
/// report line must stay readable and the report's memory bounded. Both ends are kept,
/// because readers put the location first and what was expected last.
const MAX_MESSAGE_CHARS: usize = 480;
const KEPT_HEAD_CHARS: usize = 320;
const KEPT_TAIL_CHARS: usize = 120;

fn clip_message(message: &str) -> String {
    let n = message.chars().count();
    if n <= MAX_MESSAGE_CHARS {
        return message.to_owned();
    }
    let head: String = message.chars().take(KEPT_HEAD_CHARS).collect();
    let tail: String = message.chars().skip(n - KEPT_TAIL_CHARS).collect();
    let cut = n - KEPT_HEAD_CHARS - KEPT_TAIL_CHARS;
    format!("{head} …[{cut} characters left out]… {tail}")
}

impl Diagnostic {
    /// A problem of a whole input, at `line`:`column` of its text when it has a place
    /// there (0 and 0 when not): game 0.
    pub fn of_file(
        severity: Severity,
        file: impl Into<String>,
        (line, column): (u64, u64),
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            file: file.into(),
            game: 0,
            line,
            column,
            byte_offset: 0,
            game_offset: 0,
            message: clip_message(&message.into()),
        }
    }

    /// A problem of game `game` placed in its input: the game starts at `line`:`column`
    /// and byte `offset`; the reader's place `d` counts from the game's first line, so
    /// lines add up, and a column on that first line counts from where the game starts
    /// in it (a record can start mid-line). `byte_offset` is the game's start (callers
    /// holding the game's bytes can place it at the error, as the batch engine does).
    pub fn of_game(
        file: impl Into<String>,
        game: usize,
        (line, column): (u64, u64),
        offset: u64,
        d: &GameDiagnostic,
    ) -> Diagnostic {
        Diagnostic {
            severity: d.severity,
            file: file.into(),
            game,
            line: line + d.line.saturating_sub(1),
            column: if d.line <= 1 {
                d.column + column.saturating_sub(1)
            } else {
                d.column
            },
            byte_offset: offset,
            game_offset: offset,
            message: d.message.clone(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        if self.game > 0 {
            write!(f, ": game {}", self.game)?;
        }
        write!(f, ": {}: {}", self.severity, self.message)
    }
}

/// How an input is cut into records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framing {
    /// PGN-like files: a game starts at a tag line that follows movetext.
    #[default]
    Pgn,
    /// One record per non-blank line (JSON Lines).
    Lines,
    /// The whole input is one record.
    Whole,
    /// JSON documents: the elements of a top-level array, or top-level values one
    /// after another (one document, or JSON Lines); found by a lexical scan, so a
    /// file of any size is read document by document.
    Json,
}

/// Tuning knobs; the defaults suit multi-gigabyte files on a small machine.
#[derive(Debug, Clone)]
pub struct Options {
    /// How inputs are cut into records.
    pub framing: Framing,
    /// Worker threads; 0 means one per core, 1 runs everything on the calling thread.
    pub jobs: usize,
    /// A batch is closed when it holds this many bytes of games…
    pub batch_bytes: usize,
    /// …or this many games.
    pub batch_games: usize,
    /// Longer games are reported as errors instead of being held in memory.
    pub max_game_bytes: usize,
    /// Written before the first game's output…
    pub header: Vec<u8>,
    /// …between two outputs…
    pub separator: Vec<u8>,
    /// …and after the last (not when the run is interrupted).
    pub footer: Vec<u8>,
    /// How PGN-like text is scanned; `None`: guessed per input from its head.
    pub encoding: Option<TextEncoding>,
    /// Raised (by [`interrupt_flag`]'s handler) to stop the run after the current batch.
    pub stop: Option<Arc<AtomicBool>>,
    /// Raised by the sink when it wants no more games (`select --stop-after`): the run
    /// ends right after the game being written, as a complete run (the footer is
    /// written; not [`Summary::interrupted`]), and reads, processes and reports
    /// nothing after that game.
    pub enough: Option<Arc<AtomicBool>>,
    /// Write the separator before the first output too: this run continues the output
    /// of an earlier one (one output over several format groups).
    pub leading_separator: bool,
    /// A bad game's output is written too (without a separator), for a sink that
    /// sorts games by what they are (`select --rejected`); the game still counts as
    /// bad. Per-game functions of conversions give bad games no output.
    pub bad_output: bool,
    /// The inputs' bytes in all, when known, for [`Progress::total_bytes`] ([`run`]
    /// sums the sizes of its inputs; a stream of inputs cannot be summed before it is
    /// read).
    pub total_bytes: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            framing: Framing::Pgn,
            jobs: 0,
            batch_bytes: 4 << 20,
            batch_games: 4096,
            max_game_bytes: 32 << 20,
            header: Vec::new(),
            separator: Vec::new(),
            footer: Vec::new(),
            encoding: None,
            stop: None,
            enough: None,
            leading_separator: false,
            bad_output: false,
            total_bytes: None,
        }
    }
}

/// Counts (and, from [`run`], every diagnostic) of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Inputs read.
    pub files: usize,
    /// Inputs with a file-level error: unreadable, binary, or damaged (a read error or
    /// a compressed stream failing its check). Any makes the exit status 2.
    pub files_failed: usize,
    /// Games (records) found.
    pub games: usize,
    /// Games processed without error (written, when converting).
    pub games_converted: usize,
    /// Of those, games with warnings.
    pub games_with_warnings: usize,
    /// Games with an error.
    pub games_bad: usize,
    /// Warnings in all.
    pub warnings: usize,
    /// Errors in all.
    pub errors: usize,
    /// Stopped by [`Options::stop`] before the end: the counts cover what was done.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// Every diagnostic, in input order ([`run`] only; [`run_streaming`] hands them
    /// to its callback instead and keeps none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<Diagnostic>,
}

impl Summary {
    /// The process exit status: 0 all good, 1 some games bad, 2 some input failed
    /// ([`Summary::files_failed`]). (2 is also returned by callers when `run` itself
    /// fails.)
    pub fn exit_code(&self) -> i32 {
        if self.files_failed > 0 {
            2
        } else if self.games_bad > 0 {
            1
        } else {
            0
        }
    }

    /// The machine-readable report (`--report report.json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a summary always serialises")
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} file(s), {} game(s) read, {} converted, {} bad, {} warning(s), {} error(s)",
            self.files,
            self.games,
            self.games_converted,
            self.games_bad,
            self.warnings,
            self.errors
        )
    }
}

/// Progress after each batch, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Games done.
    pub games: usize,
    /// Input bytes done.
    pub bytes: u64,
    /// Input bytes in all, when every size is known.
    pub total_bytes: Option<u64>,
    /// The input being read (1-based, in the run's order), for per-file counts.
    pub file: usize,
    /// Games done in that input.
    pub file_games: usize,
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// An input could not be read (kept for callers; [`run`] now reports a read
    /// error as a located diagnostic and goes on with the next input).
    #[error("{file}: read error: {source}")]
    Read {
        /// The input's name.
        file: String,
        /// What failed.
        source: io::Error,
    },
    /// The output could not be written (a broken pipe included).
    #[error("write error: {0}")]
    Write(#[source] io::Error),
    /// The worker threads could not be started.
    #[error("could not start {jobs} worker threads: {reason}")]
    Pool {
        /// Threads asked for.
        jobs: usize,
        /// Why not.
        reason: String,
    },
}

/// The most worker threads a run accepts (more would only exhaust the machine).
pub const MAX_JOBS: usize = 1024;

struct Batch {
    file: usize,
    /// The input's name, for its games' diagnostics (not a list of every input's
    /// name: memory independent of the number of inputs).
    name: Arc<str>,
    games: Vec<RawGame>,
    bytes: u64,
    /// File bytes read for these games (compressed bytes of a compressed input).
    progress: u64,
    /// A warning about the input found while cutting these games, said before the
    /// game at this index of `games` ([`Input::warn_late_guess`]).
    note: Option<(usize, Diagnostic)>,
}

/// Runs `process` over every game of `inputs`, writing outputs in order to `sink`, and
/// returns the summary with every diagnostic in it. See [`run_streaming`].
pub fn run<W, F, P>(
    inputs: Vec<Input>,
    options: &Options,
    sink: &mut W,
    process: F,
    progress: P,
) -> Result<Summary, RunError>
where
    W: Write,
    F: Fn(&RawGame) -> GameOutcome + Sync,
    P: FnMut(Progress),
{
    let mut diagnostics = Vec::new();
    let options = &Options {
        total_bytes: inputs.iter().map(|i| i.size).sum::<Option<u64>>(),
        ..options.clone()
    };
    let mut summary = run_streaming(
        inputs,
        options,
        sink,
        process,
        |d| diagnostics.push(d.clone()),
        progress,
    )?;
    summary.diagnostics = diagnostics;
    Ok(summary)
}

/// Runs `process` over every game of `inputs`, writing outputs in order to `sink`;
/// each diagnostic goes to `on_diagnostic` as soon as its game's turn comes (input
/// order), and none is kept: memory does not grow with the number of bad games.
///
/// A game whose outcome has an error is reported and not written; the run goes on.
/// Games the splitter flagged ([`RawGame::problem`]: damaged, oversized) are reported
/// without calling `process`. A read error ends its input with a located diagnostic and
/// the run goes on with the next input. The run stops early only when the sink cannot
/// be written, or when [`Options::stop`] is raised (then [`Summary::interrupted`] is set
/// and the footer is not written).
///
/// With [`Options::jobs`] = 1 everything runs on the calling thread, one game at a
/// time; otherwise reading, processing and writing are three pipelined stages.
pub fn run_streaming<I, W, F, D, P>(
    inputs: I,
    options: &Options,
    sink: &mut W,
    process: F,
    on_diagnostic: D,
    progress: P,
) -> Result<Summary, RunError>
where
    I: IntoIterator<Item = Input>,
    I::IntoIter: Send,
    W: Write,
    F: Fn(&RawGame) -> GameOutcome + Sync,
    D: FnMut(&Diagnostic),
    P: FnMut(Progress),
{
    if options.jobs > MAX_JOBS {
        return Err(RunError::Pool {
            jobs: options.jobs,
            reason: format!("at most {MAX_JOBS} worker threads are allowed"),
        });
    }
    // Inputs are counted as the run takes them: they may come from a walk still going.
    let files = std::sync::atomic::AtomicUsize::new(0);
    let inputs = inputs.into_iter().inspect(|_| {
        files.fetch_add(1, Ordering::Relaxed);
    });
    let mut delivery = Delivery {
        options,
        sink,
        on_diagnostic,
        progress,
        summary: Summary::default(),
        done: Progress {
            games: 0,
            bytes: 0,
            total_bytes: options.total_bytes,
            file: 0,
            file_games: 0,
        },
        first_output: !options.leading_separator,
    };
    delivery
        .sink
        .write_all(&options.header)
        .map_err(RunError::Write)?;
    let handle = |game: &RawGame| handle_game(game, &process);
    if options.jobs == 1 {
        delivery.run_sequential(inputs, handle)?;
    } else {
        delivery.run_pipelined(inputs, handle)?;
    }
    let Delivery {
        mut summary, sink, ..
    } = delivery;
    summary.files = files.load(Ordering::Relaxed);
    if !summary.interrupted && options.stopped() {
        summary.interrupted = true;
    }
    if !summary.interrupted {
        sink.write_all(&options.footer).map_err(RunError::Write)?;
    }
    sink.flush().map_err(RunError::Write)?;
    Ok(summary)
}

/// One game's outcome: the per-game function's, or the splitter's problem.
fn handle_game(game: &RawGame, process: &impl Fn(&RawGame) -> GameOutcome) -> GameOutcome {
    // == issue 26 case 13 (select --invalid): a game cut at an unclosed comment still
    // holds its text as read, so the per-game function sees it (cescacs-convert's report
    // the cut as this engine would, and `select --invalid` writes it); an empty outcome
    // (a function that ignored it) gets the splitter's error here.
    match &game.problem {
        Some(problem @ Problem::Unclosed { .. }) => {
            let outcome = process(game);
            if outcome.output.is_empty() && outcome.diagnostics.is_empty() {
                GameOutcome::problem(problem)
            } else {
                outcome
            }
        }
        Some(problem @ Problem::TrailingText) => {
            let (line, column, message) = problem.describe();
            GameOutcome {
                output: Vec::new(),
                diagnostics: vec![GameDiagnostic {
                    severity: Severity::Warning,
                    line,
                    column,
                    message,
                    code: problem.code(),
                }],
            }
        }
        Some(problem) => GameOutcome::problem(problem),
        None => process(game),
    }
}

/// The writing end of a run: counts, diagnostics and outputs in input order.
struct Delivery<'a, W, D, P> {
    options: &'a Options,
    sink: &'a mut W,
    on_diagnostic: D,
    progress: P,
    summary: Summary,
    done: Progress,
    first_output: bool,
}

impl<W: Write, D: FnMut(&Diagnostic), P: FnMut(Progress)> Delivery<'_, W, D, P> {
    /// One thread reads, processes and writes the games in turn, a few at a time: up to
    /// [`AHEAD_GAMES`] games (at most [`AHEAD_BYTES`] bytes, or one bigger game) are cut,
    /// then checked, then written. Each of the three steps then runs its own code for
    /// many games in a row, and that code stays in the core's instruction cache: one
    /// game at a time, the splitter, the reader and the delivery together are larger
    /// than the 32 KiB cache and evicted each other at every game (cachegrind on a real
    /// file: about 470 instruction-cache misses a game; see
    /// `docs/chess-pgn-benchmarks.md`, stop 41). The few games cut ahead are small
    /// enough to stay in the data cache, and their buffers go back to the splitter as
    /// before, so memory stays as without the pipeline (on the 8 MB bench file
    /// `check -j1` peaked at 12 MB where the pipeline takes 35 MB). What is reported is
    /// what one game at a time reported: notes, diagnostics and progress in the same
    /// order with the same counts; games cut ahead of a `--stop-after` limit are dropped
    /// unreported, as the pipeline's batches are.
    fn run_sequential(
        &mut self,
        inputs: impl Iterator<Item = Input>,
        handle: impl Fn(&RawGame) -> GameOutcome,
    ) -> Result<(), RunError> {
        let options = self.options;
        let mut ahead: Vec<Ahead> = Vec::with_capacity(AHEAD_GAMES);
        let mut outcomes: Vec<GameOutcome> = Vec::with_capacity(AHEAD_GAMES);
        for (file, input) in inputs.enumerate() {
            if options.stopped() || options.enough() {
                return Ok(());
            }
            // Progress comes as often as the pipeline's batches would bring it.
            let (mut games, mut bytes) = (0usize, 0u64);
            let name = input.name.clone();
            let mut all = InputGames::new(input, options);
            loop {
                all.cut_ahead(&mut ahead);
                if ahead.is_empty() {
                    break;
                }
                outcomes.extend(ahead.iter().map(|a| handle(&a.game)));
                for (a, outcome) in ahead.drain(..).zip(outcomes.drain(..)) {
                    if let Some(d) = &a.note {
                        self.input_note(d);
                    }
                    self.game(&name, &a.game, outcome)?;
                    if options.enough() {
                        return Ok(());
                    }
                    games += 1;
                    bytes += a.game.bytes.len() as u64;
                    // The next games are cut into these games' buffers: no allocation
                    // per game.
                    all.splitter.recycle(a.game.bytes);
                    if bytes as usize >= options.batch_bytes || games >= options.batch_games {
                        if self.batch_done(file, games, all.progress_until(a.raw_read)) {
                            return Ok(());
                        }
                        (games, bytes) = (0, 0);
                    }
                }
            }
            if self.batch_done(file, games, all.progress()) {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Three stages joined by bounded channels: the reader cuts games, a compute thread
    /// keeps the pool busy with the next batch, and the calling thread writes in input
    /// order, so the workers never wait for output to be written.
    fn run_pipelined(
        &mut self,
        inputs: impl Iterator<Item = Input> + Send,
        handle: impl Fn(&RawGame) -> GameOutcome + Sync,
    ) -> Result<(), RunError> {
        let options = self.options;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.jobs)
            // Named, as the other stages are, so that per-thread CPU can be read.
            .thread_name(|i| format!("cescacs-work-{i}"))
            .build()
            .map_err(|e| RunError::Pool {
                jobs: options.jobs,
                reason: e.to_string(),
            })?;
        // Two batches in flight: one being processed, one being read.
        let (tx, rx) = mpsc::sync_channel::<Batch>(1);
        let (done_tx, done_rx) = mpsc::sync_channel::<(Batch, Vec<GameOutcome>)>(1);
        // Games written go back to the reader, whose splitter reuses their buffers.
        let (used_tx, used_rx) = mpsc::sync_channel::<Vec<RawGame>>(2);
        std::thread::scope(|scope| -> Result<(), RunError> {
            let reader_options = options.clone();
            let named = |name: &str| std::thread::Builder::new().name(name.to_string());
            let started = named("cescacs-split").spawn_scoped(scope, move || {
                read_batches(inputs, &reader_options, &tx, &used_rx)
            });
            let (pool, handle) = (&pool, &handle);
            let started = started.and_then(|_| {
                named("cescacs-dispatch").spawn_scoped(scope, move || {
                    for batch in rx {
                        let outcomes: Vec<GameOutcome> =
                            pool.install(|| batch.games.par_iter().map(handle).collect());
                        if done_tx.send((batch, outcomes)).is_err() {
                            return;
                        }
                    }
                })
            });
            if let Err(e) = started {
                return Err(RunError::Pool {
                    jobs: options.jobs,
                    reason: e.to_string(),
                });
            }
            for (batch, outcomes) in done_rx {
                for (i, (game, outcome)) in batch.games.iter().zip(outcomes).enumerate() {
                    if let Some((_, d)) = batch.note.as_ref().filter(|(at, _)| *at == i) {
                        self.input_note(d);
                    }
                    self.game(&batch.name, game, outcome)?;
                    if options.enough() {
                        // Dropping the receiver stops the other stages.
                        return Ok(());
                    }
                }
                if self.batch_done(batch.file, batch.games.len(), batch.progress) {
                    // Dropping the receiver stops the other stages after their batch.
                    break;
                }
                // Full (the reader has two already) or gone: then dropped here.
                let _ = used_tx.try_send(batch.games);
            }
            Ok(())
        })
    }

    /// Reports a warning about a whole input found while reading it (no game's).
    fn input_note(&mut self, d: &Diagnostic) {
        self.summary.warnings += 1;
        (self.on_diagnostic)(d);
    }

    /// Reports one game's diagnostics and writes its output unless it is bad.
    fn game(&mut self, name: &str, game: &RawGame, outcome: GameOutcome) -> Result<(), RunError> {
        let summary = &mut self.summary;
        // A read error ends its input: the whole input failed, it is not one more game.
        let failed = matches!(game.problem, Some(Problem::Read { .. }));
        // Trailing text after the last game is said (a warning) but is no game.
        let trailing = game.problem == Some(Problem::TrailingText);
        summary.games += usize::from(!failed && !trailing);
        summary.files_failed += usize::from(failed);
        let mut warned = false;
        for d in outcome.diagnostics.iter() {
            match d.severity {
                Severity::Warning => {
                    summary.warnings += 1;
                    warned = true;
                }
                Severity::Error => summary.errors += 1,
            }
            (self.on_diagnostic)(&Diagnostic {
                byte_offset: game.offset
                    + offset_in_game(&game.bytes, d.line, d.column).unwrap_or(0),
                message: clip_message(&d.message),
                ..Diagnostic::of_game(
                    name.to_string(),
                    game.index,
                    (game.line, game.column),
                    game.offset,
                    d,
                )
            });
        }
        if outcome.is_bad() {
            summary.games_bad += usize::from(!failed);
            if self.options.bad_output && !outcome.output.is_empty() {
                self.sink
                    .write_all(&outcome.output)
                    .map_err(RunError::Write)?;
            }
            return Ok(());
        }
        if trailing {
            return Ok(());
        }
        summary.games_with_warnings += warned as usize;
        summary.games_converted += 1;
        if !self.first_output {
            self.sink
                .write_all(&self.options.separator)
                .map_err(RunError::Write)?;
        }
        self.first_output = false;
        self.sink
            .write_all(&outcome.output)
            .map_err(RunError::Write)
    }

    /// Reports progress after a batch; true when the run must stop.
    fn batch_done(&mut self, file: usize, games: usize, bytes: u64) -> bool {
        if self.done.file != file + 1 {
            self.done.file = file + 1;
            self.done.file_games = 0;
        }
        self.done.file_games += games;
        self.done.games += games;
        self.done.bytes += bytes;
        (self.progress)(self.done);
        if self.options.stopped() {
            self.summary.interrupted = true;
            return true;
        }
        false
    }
}

impl Options {
    /// Whether [`Options::stop`] was raised.
    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Whether [`Options::enough`] was raised.
    fn enough(&self) -> bool {
        self.enough
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// How many games [`Delivery::run_sequential`] cuts ahead of the one it writes…
const AHEAD_GAMES: usize = 32;
/// …and how many of their bytes (a bigger game is cut alone): a few dozen typical
/// games, which stay in the first- and second-level data caches from the cut to the
/// check.
const AHEAD_BYTES: usize = 64 << 10;

/// A game cut ahead, with what was found while cutting it.
struct Ahead {
    game: RawGame,
    /// The warning to say before the game ([`InputGames::note`]).
    note: Option<Diagnostic>,
    /// The input's count of bytes read once the game was cut, for progress.
    raw_read: u64,
}

/// The games of one input in order. A read error ends the input as a game of its own,
/// located after the last game read, so the run reports it and goes on with the next
/// input.
struct InputGames {
    splitter: GameSplitter<std::io::BufReader<Box<dyn io::BufRead + Send>>>,
    games_read: usize,
    ended: bool,
    /// The input's count of bytes read from the file, for progress.
    raw_read: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Of those, the bytes already reported.
    reported: u64,
    /// The input's name and the encoding its reader guesses for bytes that are not
    /// UTF-8, while no such byte has been met ([`Input::warn_late_guess`]).
    watch: Option<(Arc<str>, Guess)>,
    /// The warning for the first such byte, to be said before its game.
    note: Option<Diagnostic>,
}

/// Whether a head is UTF-8 but for a character its end cuts: only then is the rest
/// of the input watched for a byte that is not (one in the head was said when the
/// input's format was chosen).
fn head_is_utf8(head: &[u8]) -> bool {
    match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

impl InputGames {
    fn new(input: Input, options: &Options) -> InputGames {
        // A deferred input is opened only now: one open file at a time.
        let input = input.reopen();
        let framing = input.framing.unwrap_or(options.framing);
        let encoding = input
            .encoding
            .or(options.encoding)
            .unwrap_or_else(|| TextEncoding::detect(input.head()));
        // Buffered here, in a type the splitter knows: its many small `fill_buf` and
        // `consume` calls (a few per line) are then inlined, not virtual calls on the box.
        let raw_read = input.raw_read.clone();
        let asked = input.encoding.is_some() || options.encoding.is_some();
        let watch = input
            .late_guess
            .filter(|_| !asked && input.decoded_from.is_none() && head_is_utf8(input.head()))
            .map(|guess| (Arc::from(input.name.as_str()), guess));
        let reader = std::io::BufReader::with_capacity(1 << 16, input.reader);
        InputGames {
            raw_read,
            reported: 0,
            watch,
            note: None,
            splitter: GameSplitter::new(reader, options.max_game_bytes)
                .framing(framing)
                .encoding(encoding),
            games_read: 0,
            ended: false,
        }
    }
}

impl InputGames {
    /// Cuts the next games into `ahead` (empty when called): up to [`AHEAD_GAMES`]
    /// games, stopping after the one that brings their bytes to [`AHEAD_BYTES`]; none
    /// at the end of the input.
    fn cut_ahead(&mut self, ahead: &mut Vec<Ahead>) {
        let mut bytes = 0;
        while ahead.len() < AHEAD_GAMES && bytes < AHEAD_BYTES {
            let Some(game) = self.next() else {
                return;
            };
            bytes += game.bytes.len();
            ahead.push(Ahead {
                note: self.note.take(),
                raw_read: self.raw_read.load(std::sync::atomic::Ordering::Relaxed),
                game,
            });
        }
    }

    /// File bytes read since the last call, as they were when the game that read
    /// `raw_read` was cut: progress as if no game had been cut ahead.
    fn progress_until(&mut self, raw_read: u64) -> u64 {
        let delta = raw_read.saturating_sub(self.reported);
        self.reported = self.reported.max(raw_read);
        delta
    }

    /// File bytes read since the last call: progress counts what was read from the
    /// file (compressed bytes of a `.zst`), against the file's size.
    fn progress(&mut self) -> u64 {
        let now = self.raw_read.load(std::sync::atomic::Ordering::Relaxed);
        let delta = now.saturating_sub(self.reported);
        self.reported = now;
        delta
    }

    /// Looks for the first byte that is not UTF-8 in `game`, while watching. Most
    /// games are ASCII: an OR of their bytes (vectorised, cheaper than the UTF-8
    /// check's word loop) clears them; only the others get the UTF-8 check.
    fn watch_utf8(&mut self, game: &RawGame) {
        if self.watch.is_none() || game.bytes.iter().fold(0u8, |a, &b| a | b) < 0x80 {
            return;
        }
        let Err(e) = std::str::from_utf8(&game.bytes) else {
            return;
        };
        let Some((name, guess)) = self.watch.take() else {
            return;
        };
        if TextEncoding::detect(&game.bytes) != TextEncoding::Bytes {
            // Double-byte text (GBK, Big5), recognised by its byte pairs as in the
            // head: not a guess to warn about.
            return;
        }
        let at = e.valid_up_to();
        let place = place_of(&game.bytes, at, (game.line, game.column));
        let offset = game.offset + at as u64;
        self.note = Some(Diagnostic {
            byte_offset: offset,
            ..Diagnostic::of_file(
                Severity::Warning,
                name.to_string(),
                place,
                not_utf8_message(offset, game.bytes[at], guess.name()),
            )
        });
    }
}

impl Iterator for InputGames {
    type Item = RawGame;

    fn next(&mut self) -> Option<RawGame> {
        if self.ended {
            return None;
        }
        match self.splitter.next_game() {
            Ok(Some(game)) => {
                self.games_read = game.index;
                self.watch_utf8(&game);
                Some(game)
            }
            Ok(None) => {
                self.ended = true;
                None
            }
            Err(source) => {
                self.ended = true;
                Some(RawGame {
                    index: self.games_read + 1,
                    line: self.splitter.line(),
                    column: 1,
                    offset: self.splitter.offset(),
                    bytes: Vec::new(),
                    truncated: true,
                    problem: Some(Problem::Read {
                        message: source.to_string(),
                    }),
                })
            }
        }
    }
}

/// The reader thread: cuts every input into games and sends them in bounded batches.
/// `used`: batches already written, whose game buffers the splitter reuses.
fn read_batches(
    inputs: impl Iterator<Item = Input>,
    options: &Options,
    tx: &mpsc::SyncSender<Batch>,
    used: &mpsc::Receiver<Vec<RawGame>>,
) {
    for (file, input) in inputs.enumerate() {
        if options.stopped() || options.enough() {
            return;
        }
        // Each batch's vector is sized from the one before: grown from empty, a batch
        // of thousands of games reallocated (and the allocator zeroed fresh pages for)
        // a copy at every doubling.
        let mut batch_len = 0;
        let name: Arc<str> = Arc::from(input.name.as_str());
        let mut batch = Batch {
            file,
            name: name.clone(),
            games: Vec::new(),
            bytes: 0,
            progress: 0,
            note: None,
        };
        // Decompression on its own thread: this one then only cuts games.
        #[cfg(not(target_family = "wasm"))]
        let input = ahead::decompress_ahead(input.reopen());
        let mut all = InputGames::new(input, options);
        while let Some(game) = all.next() {
            if let Some(d) = all.note.take() {
                batch.note = Some((batch.games.len(), d));
            }
            batch.bytes += game.bytes.len() as u64;
            batch.games.push(game);
            if batch.bytes as usize >= options.batch_bytes
                || batch.games.len() >= options.batch_games
            {
                batch_len = batch_len.max(batch.games.len());
                batch.progress = all.progress();
                let mut games = Vec::new();
                while let Ok(mut written) = used.try_recv() {
                    for game in written.drain(..) {
                        all.splitter.recycle(game.bytes);
                    }
                    games = written;
                }
                games.reserve(batch_len);
                let full = std::mem::replace(
                    &mut batch,
                    Batch {
                        file,
                        name: name.clone(),
                        games,
                        bytes: 0,
                        progress: 0,
                        note: None,
                    },
                );
                if tx.send(full).is_err() {
                    return;
                }
            }
        }
        // The last batch of an input brings progress to the end of its file, games or
        // not (a file of nothing but blank lines is read too).
        batch.progress = all.progress();
        if (!batch.games.is_empty() || batch.progress > 0) && tx.send(batch).is_err() {
            return;
        }
    }
}

/// The outcome to give a game the splitter had to cut: it is too large to process.
/// ([`run`] reports such games itself; this is for callers that split on their own.)
pub fn oversized(game: &RawGame, limit: usize) -> Option<GameOutcome> {
    game.truncated
        .then(|| GameOutcome::problem(&Problem::Oversized { limit }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn long_messages_keep_both_ends() {
        let short = "expected a move, found `x`";
        assert_eq!(clip_message(short), short);
        let long = format!("found `{}`: expected a cell", "N".repeat(100_000));
        let clipped = clip_message(&long);
        assert!(
            clipped.chars().count() < MAX_MESSAGE_CHARS + 40,
            "{clipped}"
        );
        assert!(clipped.starts_with("found `NNN"));
        assert!(clipped.ends_with("NNN`: expected a cell"));
        let cut = long.chars().count() - KEPT_HEAD_CHARS - KEPT_TAIL_CHARS;
        assert!(
            clipped.contains(&format!("…[{cut} characters left out]…")),
            "{clipped}"
        );
    }

    fn db(n: usize, bad_every: usize) -> String {
        let mut s = String::new();
        for i in 1..=n {
            let mv = if bad_every > 0 && i % bad_every == 0 {
                "BAD"
            } else {
                "ok"
            };
            s.push_str(&format!("[Game \"{i}\"]\n\n1. {mv} *\n\n"));
        }
        s
    }

    fn upper(game: &RawGame) -> GameOutcome {
        let text = std::str::from_utf8(&game.bytes).unwrap();
        match text.find("BAD") {
            Some(at) => {
                let line = text[..at].matches('\n').count() as u64 + 1;
                GameOutcome::error(line, 4, "bad move")
            }
            None => GameOutcome::output(text.trim_end().to_uppercase().into_bytes()),
        }
    }

    fn run_with(jobs: usize, batch_games: usize, text: &str) -> (Summary, String) {
        let options = Options {
            jobs,
            batch_games,
            separator: b"\n".to_vec(),
            ..Options::default()
        };
        let mut out = Vec::new();
        let inputs = vec![Input::from_bytes("db.pgn", text.as_bytes().to_vec())];
        let summary = run(inputs, &options, &mut out, upper, |_| {}).unwrap();
        (summary, String::from_utf8(out).unwrap())
    }

    #[test]
    fn output_order_and_counts_do_not_depend_on_jobs_or_batching() {
        let text = db(1000, 97);
        let (s1, o1) = run_with(1, 4096, &text);
        let (s2, o2) = run_with(2, 7, &text);
        assert_eq!(s1, s2);
        assert_eq!(o1, o2);
        assert_eq!(
            (s1.games, s1.games_bad, s1.games_converted),
            (1000, 10, 990)
        );
        // Game 97 starts on line 4*96+1 = 385; its move is 2 lines further.
        let d = &s1.diagnostics[0];
        assert_eq!((d.game, d.line, d.column), (97, 387, 4));
        assert_eq!(d.to_string(), "db.pgn:387:4: game 97: error: bad move");
        let lines: Vec<&str> = o1.lines().filter(|l| l.starts_with("[GAME")).collect();
        assert_eq!(lines.len(), 990);
        assert_eq!(lines[96], "[GAME \"98\"]");
        assert_eq!(s1.exit_code(), 1);
    }

    /// The pipeline's reuse of game buffers and its decompression thread (issue 30)
    /// change nothing: a zstd input cut in many small batches on two workers gives
    /// the plain sequential run's output and summary.
    #[test]
    fn a_compressed_input_on_two_jobs_gives_the_sequential_output() {
        let text = db(1000, 97);
        let (s1, o1) = run_with(1, 4096, &text);
        let options = Options {
            jobs: 2,
            batch_games: 7,
            separator: b"\n".to_vec(),
            ..Options::default()
        };
        let packed = zstd::encode_all(text.as_bytes(), 3).expect("zstd encodes");
        let mut out = Vec::new();
        let inputs = vec![Input::from_bytes("db.pgn", packed)];
        let s2 = run(inputs, &options, &mut out, upper, |_| {}).unwrap();
        assert_eq!(s1, s2);
        assert_eq!(o1, String::from_utf8(out).unwrap());
    }

    #[test]
    fn several_inputs_keep_their_names_and_own_numbering() {
        let inputs = vec![
            Input::from_bytes("a.pgn", db(3, 2).into_bytes()),
            Input::from_bytes("b.pgn", db(3, 3).into_bytes()),
        ];
        let mut out = Vec::new();
        let s = run(inputs, &Options::default(), &mut out, upper, |_| {}).unwrap();
        let located: Vec<(String, usize)> = s
            .diagnostics
            .iter()
            .map(|d| (d.file.clone(), d.game))
            .collect();
        assert_eq!(
            located,
            vec![("a.pgn".to_string(), 2), ("b.pgn".to_string(), 3)]
        );
        assert_eq!(s.files, 2);
    }

    #[test]
    fn report_is_json_with_every_bad_game() {
        let (s, _) = run_with(2, 16, &db(50, 10));
        let report: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(report["games_bad"], 5);
        assert_eq!(report["diagnostics"].as_array().unwrap().len(), 5);
        assert_eq!(report["diagnostics"][4]["game"], 50);
    }

    #[test]
    fn unreadable_input_is_a_run_error() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let inputs = vec![Input::from_reader("x.pgn", None, Failing)];
        let s = run(inputs, &Options::default(), &mut Vec::new(), upper, |_| {}).unwrap();
        assert_eq!(
            s.diagnostics[0].to_string(),
            "x.pgn:1:1: game 1: error: read error: disk on fire; this input is damaged: the rest of it is not read, and the games read before may be damaged too"
        );
        assert_eq!(
            (s.games, s.games_bad, s.files_failed, s.errors),
            (0, 0, 1, 1)
        );
        assert_eq!(s.exit_code(), 2);
    }

    #[test]
    fn progress_reaches_the_total() {
        let text = db(100, 0);
        let mut last = None;
        let inputs = vec![Input::from_bytes("db", text.clone().into_bytes())];
        let options = Options {
            batch_games: 10,
            ..Options::default()
        };
        run(inputs, &options, &mut Vec::new(), upper, |p| last = Some(p)).unwrap();
        let p = last.unwrap();
        assert_eq!(
            (p.games, p.bytes, p.total_bytes),
            (100, text.len() as u64, Some(text.len() as u64))
        );
    }

    /// At `-j1` games are cut a few dozen ahead of the one being written: what is
    /// reported is still what one game at a time gave. Progress comes per batch of 500
    /// games with the counts of a game at a time, the diagnostics and outputs are the
    /// pipeline's; and a sink that wants no more after the 15th game's output gets no
    /// 16th, though games after it were cut.
    #[test]
    fn the_sequential_run_cuts_ahead_and_reports_as_one_game_at_a_time() {
        let text = db(3000, 300);
        let inputs = vec![Input::from_bytes("db.pgn", text.clone().into_bytes())];
        let options = Options {
            jobs: 1,
            batch_games: 500,
            separator: b"\n".to_vec(),
            ..Options::default()
        };
        let mut seen = Vec::new();
        let mut out = Vec::new();
        let s = run(inputs, &options, &mut out, upper, |p| seen.push(p.games)).unwrap();
        // The last report, at the end of the input, adds no game.
        assert_eq!(seen, [500, 1000, 1500, 2000, 2500, 3000, 3000]);
        let games: Vec<usize> = s.diagnostics.iter().map(|d| d.game).collect();
        assert_eq!(games, (1..=10).map(|k| k * 300).collect::<Vec<_>>());
        let (piped, all) = run_with(2, 7, &text);
        assert_eq!(s, piped);
        assert_eq!(String::from_utf8(out).unwrap(), all);

        struct Enough<'a>(Vec<u8>, usize, &'a AtomicBool);
        impl Write for Enough<'_> {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                if buf.starts_with(b"[GAME") {
                    self.1 += 1;
                    if self.1 == 15 {
                        self.2.store(true, Ordering::Relaxed);
                    }
                }
                self.0.extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let flag = Arc::new(AtomicBool::new(false));
        let options = Options {
            jobs: 1,
            enough: Some(Arc::clone(&flag)),
            ..Options::default()
        };
        let mut sink = Enough(Vec::new(), 0, &flag);
        let inputs = vec![Input::from_bytes("db.pgn", db(100, 0).into_bytes())];
        let s = run(inputs, &options, &mut sink, upper, |_| {}).unwrap();
        assert_eq!((s.games, sink.1), (15, 15));
    }
}
