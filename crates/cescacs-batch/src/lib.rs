//! Streaming, parallel validation and conversion of whole game databases in every supported format.
//!
//! The engine knows nothing about any game format. It cuts each input into games with
//! [`GameSplitter`] (a lexical cut at game boundaries), hands batches of games to a
//! per-game function on a rayon pool, and writes the results **in input order**. Reading
//! the next batch overlaps with processing the current one, and at most a few batches
//! are in memory at once, so memory is bounded by the batch size, not by the file.
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

mod split;

pub use split::{GameSplitter, RawGame};

use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// One input stream: a file, standard input, or bytes in memory.
pub struct Input {
    /// The name used in diagnostics (`-` for standard input).
    pub name: String,
    /// Total size in bytes when known, for progress and ETA.
    pub size: Option<u64>,
    reader: Box<dyn BufRead + Send>,
}

impl Input {
    /// Opens a file, or standard input for `-`.
    pub fn open(path: &Path) -> io::Result<Input> {
        if path.as_os_str() == "-" {
            return Ok(Input {
                name: "-".into(),
                size: None,
                reader: Box::new(BufReader::with_capacity(1 << 16, io::stdin())),
            });
        }
        let file = File::open(path)?;
        let size = file.metadata().ok().map(|m| m.len());
        Ok(Input {
            name: path.display().to_string(),
            size,
            reader: Box::new(BufReader::with_capacity(1 << 16, file)),
        })
    }

    /// An input held in memory (tests, and formats read whole).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Input {
        Input {
            name: name.into(),
            size: Some(bytes.len() as u64),
            reader: Box::new(io::Cursor::new(bytes)),
        }
    }

    /// An input from any reader.
    pub fn from_reader(
        name: impl Into<String>,
        size: Option<u64>,
        reader: impl Read + Send + 'static,
    ) -> Input {
        Input {
            name: name.into(),
            size,
            reader: Box::new(BufReader::with_capacity(1 << 16, reader)),
        }
    }
}

/// Expands directories (recursively, sorted by path for a stable order) into the files
/// below them whose names pass `keep`; plain paths and `-` are kept as given.
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
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

/// A problem found in one game, located relative to the game's own first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameDiagnostic {
    pub severity: Severity,
    /// 1-based line within the game's bytes.
    pub line: u64,
    /// 1-based column (in characters) within that line.
    pub column: u64,
    pub message: String,
}

/// What the per-game function returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameOutcome {
    /// Bytes to write for this game (ignored when the game has an error).
    pub output: Vec<u8>,
    pub diagnostics: Vec<GameDiagnostic>,
}

impl GameOutcome {
    pub fn output(output: Vec<u8>) -> Self {
        GameOutcome {
            output,
            diagnostics: Vec::new(),
        }
    }

    pub fn error(line: u64, column: u64, message: impl Into<String>) -> Self {
        GameOutcome {
            output: Vec::new(),
            diagnostics: vec![GameDiagnostic {
                severity: Severity::Error,
                line,
                column,
                message: message.into(),
            }],
        }
    }

    pub fn is_bad(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// A problem located in its input: file, game number, line and column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub game: usize,
    pub line: u64,
    pub column: u64,
    pub byte_offset: u64,
    pub message: String,
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

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: game {}: {}: {}",
            self.file, self.line, self.column, self.game, self.severity, self.message
        )
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
    /// The whole input is one record (a JSON document).
    Whole,
}

/// Tuning knobs; the defaults suit multi-gigabyte files on a small machine.
#[derive(Debug, Clone)]
pub struct Options {
    /// How inputs are cut into records.
    pub framing: Framing,
    /// Worker threads; 0 means one per core.
    pub jobs: usize,
    /// A batch is closed when it holds this many bytes of games…
    pub batch_bytes: usize,
    /// …or this many games.
    pub batch_games: usize,
    /// Longer games are reported as errors instead of being held in memory.
    pub max_game_bytes: usize,
    /// Written before the first game's output, between two outputs, and after the last.
    pub header: Vec<u8>,
    pub separator: Vec<u8>,
    pub footer: Vec<u8>,
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
        }
    }
}

/// Counts and every diagnostic of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub games: usize,
    pub games_converted: usize,
    pub games_with_warnings: usize,
    pub games_bad: usize,
    pub warnings: usize,
    pub errors: usize,
    pub diagnostics: Vec<Diagnostic>,
}

impl Summary {
    /// The process exit status: 0 all good, 1 some games bad.
    /// (2, "could not run", is returned by callers when `run` itself fails.)
    pub fn exit_code(&self) -> i32 {
        if self.games_bad > 0 { 1 } else { 0 }
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
    pub games: usize,
    pub bytes: u64,
    pub total_bytes: Option<u64>,
}

/// Why a run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{file}: read error: {source}")]
    Read { file: String, source: io::Error },
    #[error("write error: {0}")]
    Write(#[source] io::Error),
    #[error("could not start {jobs} worker threads: {reason}")]
    Pool { jobs: usize, reason: String },
}

struct Batch {
    file: usize,
    games: Vec<RawGame>,
    bytes: u64,
}

/// Runs `process` over every game of `inputs`, writing outputs in order to `sink`.
///
/// A game whose outcome has an error is reported and not written; the run goes on.
/// The run stops only when an input cannot be read or the sink cannot be written.
pub fn run<W, F, P>(
    inputs: Vec<Input>,
    options: &Options,
    sink: &mut W,
    process: F,
    mut progress: P,
) -> Result<Summary, RunError>
where
    W: Write,
    F: Fn(&RawGame) -> GameOutcome + Sync,
    P: FnMut(Progress),
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs)
        .build()
        .map_err(|e| RunError::Pool {
            jobs: options.jobs,
            reason: e.to_string(),
        })?;
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let total_bytes = inputs.iter().map(|i| i.size).sum::<Option<u64>>();
    let mut summary = Summary {
        files: inputs.len(),
        ..Summary::default()
    };
    let mut done = Progress {
        games: 0,
        bytes: 0,
        total_bytes,
    };
    let mut first_output = true;
    sink.write_all(&options.header).map_err(RunError::Write)?;

    // Two batches in flight: one being processed, one being read.
    let (tx, rx) = mpsc::sync_channel::<Result<Batch, RunError>>(1);
    // Three stages joined by bounded channels: the reader cuts games, a compute thread
    // keeps the pool busy with the next batch, and this thread writes in input order, so
    // the workers never wait for output to be written.
    let (done_tx, done_rx) = mpsc::sync_channel::<Result<(Batch, Vec<GameOutcome>), RunError>>(1);
    std::thread::scope(|scope| -> Result<(), RunError> {
        let reader_options = options.clone();
        scope.spawn(move || read_batches(inputs, &reader_options, &tx));
        let (pool, process) = (&pool, &process);
        scope.spawn(move || {
            for batch in rx {
                let result = batch.map(|batch| {
                    let outcomes: Vec<GameOutcome> = if options.jobs == 1 {
                        batch.games.iter().map(process).collect()
                    } else {
                        pool.install(|| batch.games.par_iter().map(process).collect())
                    };
                    (batch, outcomes)
                });
                let failed = result.is_err();
                if done_tx.send(result).is_err() || failed {
                    return;
                }
            }
        });
        for item in done_rx {
            let (batch, outcomes) = item?;
            for (game, outcome) in batch.games.iter().zip(outcomes) {
                summary.games += 1;
                let mut warned = false;
                for d in outcome.diagnostics.iter() {
                    match d.severity {
                        Severity::Warning => {
                            summary.warnings += 1;
                            warned = true;
                        }
                        Severity::Error => summary.errors += 1,
                    }
                    summary.diagnostics.push(Diagnostic {
                        severity: d.severity,
                        file: names[batch.file].clone(),
                        game: game.index,
                        line: game.line + d.line.saturating_sub(1),
                        column: d.column,
                        byte_offset: game.offset,
                        message: clip_message(&d.message),
                    });
                }
                if outcome.is_bad() {
                    summary.games_bad += 1;
                    continue;
                }
                summary.games_with_warnings += warned as usize;
                summary.games_converted += 1;
                if !first_output {
                    sink.write_all(&options.separator)
                        .map_err(RunError::Write)?;
                }
                first_output = false;
                sink.write_all(&outcome.output).map_err(RunError::Write)?;
            }
            done.games += batch.games.len();
            done.bytes += batch.bytes;
            progress(done);
        }
        Ok(())
    })?;
    sink.write_all(&options.footer).map_err(RunError::Write)?;
    sink.flush().map_err(RunError::Write)?;
    Ok(summary)
}

/// The reader thread: cuts every input into games and sends them in bounded batches.
fn read_batches(
    inputs: Vec<Input>,
    options: &Options,
    tx: &mpsc::SyncSender<Result<Batch, RunError>>,
) {
    for (file, input) in inputs.into_iter().enumerate() {
        let name = input.name.clone();
        let mut splitter =
            GameSplitter::new(input.reader, options.max_game_bytes).framing(options.framing);
        let mut batch = Batch {
            file,
            games: Vec::new(),
            bytes: 0,
        };
        loop {
            match splitter.next_game() {
                Ok(Some(mut game)) => {
                    if game.truncated {
                        // Keep only what is needed to report it; the rest was never held.
                        game.bytes.truncate(256);
                    }
                    batch.bytes += game.bytes.len() as u64;
                    batch.games.push(game);
                    if batch.bytes as usize >= options.batch_bytes
                        || batch.games.len() >= options.batch_games
                    {
                        let full = std::mem::replace(
                            &mut batch,
                            Batch {
                                file,
                                games: Vec::new(),
                                bytes: 0,
                            },
                        );
                        if tx.send(Ok(full)).is_err() {
                            return;
                        }
                    }
                }
                Ok(None) => break,
                Err(source) => {
                    let _ = tx.send(Err(RunError::Read { file: name, source }));
                    return;
                }
            }
        }
        if !batch.games.is_empty() && tx.send(Ok(batch)).is_err() {
            return;
        }
    }
}

/// The outcome to give a game the splitter had to cut: it is too large to process.
pub fn oversized(game: &RawGame, limit: usize) -> Option<GameOutcome> {
    game.truncated.then(|| {
        GameOutcome::error(
            1,
            1,
            format!("game is larger than the {limit}-byte limit; skipped"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_keep_both_ends() {
        let short = "expected a move, found `x`";
        assert_eq!(clip_message(short), short);
        let long = format!("found `{}`: expected a cell", "N".repeat(100_000));
        let clipped = clip_message(&long);
        assert!(clipped.chars().count() < MAX_MESSAGE_CHARS + 40, "{clipped}");
        assert!(clipped.starts_with("found `NNN"));
        assert!(clipped.ends_with("NNN`: expected a cell"));
        let cut = long.chars().count() - KEPT_HEAD_CHARS - KEPT_TAIL_CHARS;
        assert!(clipped.contains(&format!("…[{cut} characters left out]…")), "{clipped}");
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
        let err = run(inputs, &Options::default(), &mut Vec::new(), upper, |_| {}).unwrap_err();
        assert_eq!(err.to_string(), "x.pgn: read error: disk on fire");
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
}
