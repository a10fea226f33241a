//! One command's run over several groups of inputs (each group with its own per-game
//! function): one report, one summary, one output committed at the end, and the exit
//! status. Front ends (the `cescacs` command, bindings) keep only the printing and the
//! progress display; every decision about what a run means lives here.

use crate::{
    Diagnostic, GameOutcome, Input, Options, OutputFile, Progress, RawGame, ReportWriter, RunError,
    Summary, TextEncoding,
};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status: every game good.
pub const EXIT_OK: i32 = 0;
/// Exit status: the run finished but some games are bad.
pub const EXIT_BAD_GAMES: i32 = 1;
/// Exit status: the run could not be done (bad arguments, unreadable input, …).
pub const EXIT_CANNOT_RUN: i32 = 2;
/// Exit status: stopped by SIGINT (the output, if any, left as it was).
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit status: the reader of standard output went away (`| head`); nothing printed.
pub const EXIT_BROKEN_PIPE: i32 = 141;

/// Inputs handled by one per-game function (each input knows its framing).
pub struct Group<'a> {
    /// The inputs, in order: taken one at a time as the run reaches them (from a walk
    /// still going, say), so that memory does not grow with their number.
    pub inputs: Box<dyn Iterator<Item = Input> + Send + 'a>,
    /// How many inputs there are, when known (for progress).
    pub files: Option<usize>,
    /// Their bytes in all, when known (for progress).
    pub total_bytes: Option<u64>,
    /// The per-game function (called from the worker threads).
    pub process: Box<dyn Fn(&RawGame) -> GameOutcome + Sync + 'a>,
}

/// Where the games' outputs go: nowhere, standard output, or a safe output file
/// (written beside the target, renamed over it only by [`Session::finish`]).
#[allow(clippy::large_enum_variant)] // one per run
pub enum Sink {
    /// Outputs are dropped (`check`).
    Null(io::Sink),
    /// Standard output, buffered.
    Stdout(Box<dyn Write>),
    /// A file, committed at the end of a complete run.
    File(OutputFile),
}

impl Sink {
    /// Standard output for `None` or `-`, else an [`OutputFile`] (`.gz`/`.bz2`/`.zst`/
    /// `.xz` names are compressed).
    pub fn open(path: Option<&Path>) -> io::Result<Sink> {
        match path {
            Some(p) if p.as_os_str() != "-" => OutputFile::create(p).map(Sink::File),
            _ => Ok(Sink::Stdout(Box::new(io::BufWriter::with_capacity(
                1 << 16,
                io::stdout(),
            )))),
        }
    }

    /// [`Sink::open`] for an output (`null`: no output at all), with `header` written.
    /// The error is the message saying why the command cannot run.
    pub fn with_header(path: Option<&Path>, null: bool, header: &[u8]) -> Result<Sink, String> {
        let mut sink = match null {
            true => Sink::Null(io::sink()),
            false => Sink::open(path).map_err(|e| {
                let name = path.unwrap_or(Path::new("-")).display();
                format!("cannot create {name}: {e}")
            })?,
        };
        sink.write_header(header)
            .map_err(|e| format!("write error: {e}"))?;
        Ok(sink)
    }

    /// Writes what comes before the first game (a broken pipe is left for later).
    pub fn write_header(&mut self, header: &[u8]) -> io::Result<()> {
        match self.write_all(header) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        }
    }

    /// What was found beside an output file ([`OutputFile::notes`]).
    pub fn notes(&self) -> &[String] {
        match self {
            Sink::File(f) => f.notes(),
            _ => &[],
        }
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Null(w) => w,
            Sink::Stdout(w) => w,
            Sink::File(f) => f,
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

/// How a session ended: the exit status, the counts and what to tell the user.
#[derive(Debug)]
pub struct Finished {
    /// The exit status (see the `EXIT_*` constants).
    pub code: i32,
    /// The counts of every group together.
    pub summary: Summary,
    /// Seconds since the session started.
    pub seconds: f64,
    /// Error messages to print before the summary (without the `error: ` prefix).
    pub errors: Vec<String>,
    /// The reader of standard output went away: print nothing more.
    pub silent: bool,
}

impl Finished {
    /// The summary line, naming the good games `good` (`valid`, `converted`, …).
    pub fn summary_line(&self, good: &str) -> String {
        let t = &self.summary;
        let mut line = format!(
            "{} file(s), {} game(s) read, {} {good}, {} bad, {} warning(s), {} error(s) in {:.2} s",
            t.files, t.games, t.games_converted, t.games_bad, t.warnings, t.errors, self.seconds
        );
        if t.interrupted {
            line.push_str(" (interrupted: output left as it was)");
        }
        line
    }
}

/// One run over several groups of inputs: one report, one summary, one output.
pub struct Session {
    jobs: usize,
    encoding: Option<TextEncoding>,
    report: Option<(PathBuf, ReportWriter)>,
    total: Summary,
    stop: Arc<AtomicBool>,
    enough: Arc<AtomicBool>,
    started: std::time::Instant,
    failed: Option<i32>,
    errors: Vec<String>,
    input_errors: bool,
    keep_damaged: bool,
    bad_output: bool,
}

impl Session {
    /// Starts a session with `jobs` worker threads (0: one per core) and a report file:
    /// installs the SIGINT handler and creates the report. The error is the message
    /// saying why the command cannot run.
    pub fn new(
        jobs: usize,
        encoding: Option<TextEncoding>,
        report: Option<&Path>,
    ) -> Result<Session, String> {
        Session::check_jobs(jobs)?;
        let report = match report {
            None => None,
            Some(p) => match ReportWriter::create(p) {
                Ok(r) => Some((p.to_path_buf(), r)),
                Err(e) => return Err(format!("cannot write report {}: {e}", p.display())),
            },
        };
        Ok(Session {
            jobs,
            encoding,
            report,
            total: Summary::default(),
            stop: crate::interrupt_flag(),
            enough: Arc::default(),
            started: std::time::Instant::now(),
            failed: None,
            errors: Vec::new(),
            input_errors: false,
            keep_damaged: false,
            bad_output: false,
        })
    }

    /// Writes bad games' outputs too (see [`crate::Options::bad_output`]).
    pub fn bad_output(&mut self, on: bool) {
        self.bad_output = on;
    }

    /// Commit the output even when an input failed (unreadable, binary, a damaged
    /// stream): the games read before the damage are then kept, unchecked by the
    /// stream's own check. The exit status is still 2. Default: the output is left as
    /// it was (docs/io.md "Damaged compressed input").
    pub fn keep_damaged(&mut self, keep: bool) {
        self.keep_damaged = keep;
    }

    /// Names the command in the report and its count of good games
    /// ([`ReportWriter::command`]); without a report, nothing.
    pub fn report_command(&mut self, command: &str, good_games: &'static str) {
        if let Some((_, r)) = self.report.as_mut() {
            r.command(command, good_games);
        }
    }

    /// Adds a count to the report's summary ([`ReportWriter::field`]).
    pub fn report_field(&mut self, key: &str, value: u64) {
        if let Some((_, r)) = self.report.as_mut() {
            r.field(key, value);
        }
    }

    /// What was found beside the report ([`crate::OutputFile::notes`]).
    pub fn report_notes(&self) -> &[String] {
        self.report.as_ref().map_or(&[], |(_, r)| r.notes())
    }

    /// Records a problem of a whole input found before the run (unreadable, binary,
    /// empty, format unknown): it goes to the report and the counts; an error makes
    /// the exit status 2 and leaves an output file as it was.
    pub fn file_diagnostic(&mut self, d: &Diagnostic) {
        if let Some((_, r)) = self.report.as_mut() {
            r.write(d);
        }
        match d.severity {
            crate::Severity::Warning => self.total.warnings += 1,
            crate::Severity::Error => {
                self.total.errors += 1;
                self.total.files_failed += 1;
                self.input_errors = true;
            }
        }
    }

    /// Refuses more worker threads than [`crate::MAX_JOBS`] (checked by
    /// [`Session::new`] too; front ends call it before opening any input).
    pub fn check_jobs(jobs: usize) -> Result<(), String> {
        match jobs > crate::MAX_JOBS {
            true => Err(format!(
                "--jobs {jobs}: at most {} worker threads",
                crate::MAX_JOBS
            )),
            false => Ok(()),
        }
    }

    /// The flag a sink raises when it wants no more games (`Options::enough`):
    /// the run ends after the game being written, and the groups after it are not run.
    /// The session still ends as a complete run (outputs committed, exit status from
    /// the games delivered).
    pub fn enough_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.enough)
    }

    /// When the session started.
    pub fn started(&self) -> std::time::Instant {
        self.started
    }

    /// Whether the session was interrupted or met an error that ends it.
    pub fn stopped(&self) -> bool {
        self.failed.is_some() || self.stop.load(Ordering::Relaxed)
    }

    /// Runs `process` over one group of inputs, writing into `sink` with `separator`
    /// between outputs (also before the first, when earlier groups wrote some). Each
    /// diagnostic goes to the report and then to `on_diagnostic`; `progress` is called
    /// after each batch.
    pub fn run<I, W, F>(
        &mut self,
        inputs: I,
        sink: &mut W,
        separator: &[u8],
        process: F,
        mut on_diagnostic: impl FnMut(&Diagnostic),
        progress: impl FnMut(Progress),
    ) where
        I: IntoIterator<Item = Input>,
        I::IntoIter: Send,
        W: Write,
        F: Fn(&RawGame) -> GameOutcome + Sync,
    {
        if self.stopped() || self.enough.load(Ordering::Relaxed) {
            return;
        }
        let options = Options {
            jobs: self.jobs,
            separator: separator.to_vec(),
            encoding: self.encoding,
            stop: Some(Arc::clone(&self.stop)),
            enough: Some(Arc::clone(&self.enough)),
            leading_separator: self.total.games_converted > 0,
            bad_output: self.bad_output,
            ..Options::default()
        };
        let report = &mut self.report;
        let diagnostic = |d: &Diagnostic| {
            if let Some((_, r)) = report.as_mut() {
                r.write(d);
            }
            on_diagnostic(d);
        };
        let result = crate::run_streaming(inputs, &options, sink, process, diagnostic, progress);
        match result {
            Ok(s) => {
                let t = &mut self.total;
                t.files += s.files;
                t.files_failed += s.files_failed;
                t.games += s.games;
                t.games_converted += s.games_converted;
                t.games_with_warnings += s.games_with_warnings;
                t.games_bad += s.games_bad;
                t.warnings += s.warnings;
                t.errors += s.errors;
                t.interrupted |= s.interrupted;
            }
            Err(RunError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.failed = Some(EXIT_BROKEN_PIPE);
            }
            Err(e) => {
                self.errors.push(e.to_string());
                self.failed = Some(EXIT_CANNOT_RUN);
            }
        }
    }

    /// Writes the footer and commits the output (unless interrupted or failed), closes
    /// the report and says how the run ended. `input_errors`: some input could not be
    /// read or identified (exit status 2, and an output file is not replaced); so does
    /// an input that failed during the run (a damaged compressed stream, a read error)
    /// or one given to [`Session::file_diagnostic`], unless [`Session::keep_damaged`].
    pub fn finish(self, sink: Sink, footer: &[u8], input_errors: bool) -> Finished {
        self.finish_all(vec![sink], footer, input_errors)
    }

    /// [`Session::finish`] for a run with several outputs (`select --duplicates`,
    /// `--rejected`): each gets the footer and is committed under the same rule as
    /// the first, so that either all of them replace their targets or none does (a
    /// failure to commit one leaves the ones after it as they were).
    pub fn finish_all(mut self, sinks: Vec<Sink>, footer: &[u8], input_errors: bool) -> Finished {
        let input_errors = input_errors || self.input_errors || self.total.files_failed > 0;
        let interrupted = self.stop.load(Ordering::Relaxed) || self.total.interrupted;
        self.total.interrupted = interrupted;
        let mut code = match (input_errors, self.total.games_bad > 0) {
            (true, _) => EXIT_CANNOT_RUN,
            (false, true) => EXIT_BAD_GAMES,
            (false, false) => EXIT_OK,
        };
        let mut silent = self.failed == Some(EXIT_BROKEN_PIPE);
        if let Some(failed) = self.failed {
            code = failed;
        } else if interrupted {
            code = EXIT_INTERRUPTED;
        } else if input_errors
            && !self.keep_damaged
            && sinks.iter().any(|s| matches!(s, Sink::File(_)))
        {
            // An output without the games of an unreadable input, or with games of a
            // damaged one, must not replace the old one.
            self.errors.push(
                "an input could not be read or is damaged: the output is left as it was (--keep-damaged writes it)"
                    .into(),
            );
        } else {
            let mut committed = Ok(());
            for mut sink in sinks {
                let written = match &mut sink {
                    Sink::Null(_) => Ok(()),
                    Sink::Stdout(w) => w.write_all(footer).and_then(|()| w.flush()),
                    Sink::File(f) => f.write_all(footer),
                };
                committed = written.and_then(|()| match sink {
                    Sink::File(f) => f.commit(),
                    _ => Ok(()),
                });
                if committed.is_err() {
                    break;
                }
            }
            match committed {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    code = EXIT_BROKEN_PIPE;
                    silent = true;
                }
                Err(e) => {
                    self.errors
                        .push(format!("write error: {e}; the output is left as it was"));
                    code = EXIT_CANNOT_RUN;
                }
            }
        }
        // An uncommitted output file was dropped above: the old one stays as it was.
        if !silent
            && let Some((path, r)) = self.report.take()
            && let Err(e) = r.finish(&self.total)
        {
            self.errors
                .push(format!("cannot write report {}: {e}", path.display()));
            code = code.max(EXIT_CANNOT_RUN);
        }
        Finished {
            code,
            summary: self.total,
            seconds: self.started.elapsed().as_secs_f64(),
            errors: self.errors,
            silent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_sums_its_groups_and_says_bad_games() {
        let mut session = Session::new(1, None, None).unwrap();
        let mut out = Vec::new();
        for text in [
            "[A \"1\"]\n1. e4 *\n",
            "[A \"2\"]\n1. ?? *\n\n[A \"3\"]\n*\n",
        ] {
            let inputs = vec![Input::from_bytes("g.pgn", text.as_bytes().to_vec())];
            let process = |g: &RawGame| {
                if g.bytes.windows(2).any(|w| w == b"??") {
                    GameOutcome::error(2, 4, "bad move")
                } else {
                    GameOutcome::output(g.bytes.clone())
                }
            };
            let mut seen = 0;
            session.run(inputs, &mut out, b"", process, |_| seen += 1, |_| {});
            assert_eq!(seen, usize::from(text.contains("??")));
        }
        let end = session.finish(Sink::Null(io::sink()), b"", false);
        assert_eq!((end.summary.files, end.summary.games), (2, 3));
        assert_eq!((end.summary.games_bad, end.code), (1, EXIT_BAD_GAMES));
        assert!(
            end.summary_line("valid")
                .contains("3 game(s) read, 2 valid, 1 bad")
        );
        assert!(Session::new(crate::MAX_JOBS + 1, None, None).is_err());
    }
}
