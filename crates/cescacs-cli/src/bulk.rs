//! Running a per-game function over many inputs: finding and opening the inputs, the
//! progress bar, diagnostics streamed to standard error and the report, the summary,
//! safe output and the exit status shared by `check`, `replay` and `convert`.

use cescacs_batch::{
    GameOutcome, Input, Options, OutputFile, RawGame, ReportWriter, RunError, Summary,
    TextEncoding, WalkNote,
};
use cescacs_convert::Format;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status: every game good.
pub const EXIT_OK: i32 = 0;
/// Exit status: the run finished but some games are bad.
pub const EXIT_BAD_GAMES: i32 = 1;
/// Exit status: the run could not be done (bad arguments, unreadable input, …).
pub const EXIT_CANNOT_RUN: i32 = 2;

/// What the command line says about running.
pub struct Settings<'a> {
    pub jobs: usize,
    pub report: Option<&'a Path>,
    /// Print only the summary, not each diagnostic.
    pub quiet: bool,
    /// How PGN-like text is scanned (default: guessed per input).
    pub encoding: Option<TextEncoding>,
}

/// Inputs handled by one per-game function (each input knows its framing).
pub struct Group<'a> {
    pub inputs: Vec<Input>,
    pub process: Box<dyn Fn(&RawGame) -> GameOutcome + Sync + 'a>,
}

/// What the summary calls a good game: `converted` for `convert`, `valid` otherwise.
#[derive(Clone, Copy)]
pub enum Verb {
    Check,
    Convert,
}

/// Prints why the command cannot run; returns the exit status saying so.
pub fn cannot_run(message: impl std::fmt::Display) -> i32 {
    error(message);
    EXIT_CANNOT_RUN
}

/// Runs every group in order into `sink` (`header`, the outputs joined by `separator`,
/// `footer`), streams the diagnostics and the report, prints one summary, commits the
/// output, and returns the exit status.
pub fn run_groups(
    groups: Vec<Group<'_>>,
    settings: &Settings<'_>,
    verb: Verb,
    mut sink: Sink,
    framing: Option<cescacs_convert::OutputFraming>,
    input_errors: bool,
) -> i32 {
    let framing = framing.unwrap_or_default();
    let mut session = match Session::new(settings.jobs, settings.quiet, settings.report) {
        Ok(s) => s,
        Err(code) => return code,
    };
    session.encoding = settings.encoding;
    session.verb = verb;
    if let Err(e) = sink.write_header(&framing.header) {
        return cannot_run(format!("write error: {e}"));
    }
    for group in groups {
        session.run(group.inputs, &mut sink, &framing.separator, &group.process);
    }
    session.finish(sink, &framing.footer, input_errors)
}
/// Exit status: stopped by SIGINT (the output, if any, left as it was).
pub const EXIT_INTERRUPTED: i32 = 130;
/// Exit status: the reader of standard output went away (`| head`); nothing printed.
pub const EXIT_BROKEN_PIPE: i32 = 141;

/// Prints an error line (one write: never cut, never a panic on a closed stderr).
pub fn error(message: impl std::fmt::Display) {
    cescacs_batch::print_line(&format!("error: {message}"));
}

/// The opened inputs of a run, grouped by format (in order of first appearance).
pub struct Groups {
    pub groups: Vec<(Format, Vec<Input>)>,
    /// The files, for refusing an output that is also an input.
    pub files: Vec<PathBuf>,
    /// An input could not be read or identified (reported; the rest still processed).
    pub had_errors: bool,
}

/// The name format detection looks at: without a compression extension.
fn detection_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    cescacs_convert::without_compression(&name).to_string()
}

/// Files a directory walk picks up: game files, compressed or not.
fn is_walked_file(path: &Path) -> bool {
    cescacs_convert::is_game_file(&detection_name(path))
}

/// A PCN document or array of documents, from its first bytes.
fn looks_like_pcn(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    let t = t.strip_prefix('[').map_or(t, str::trim_start);
    t.starts_with('{') && text.contains("\"board\"")
}

/// Walks, opens (reading each head once) and groups the inputs by format. `exclude`
/// holds the run's output and report, which are never inputs.
pub fn open_groups(
    paths: &[PathBuf],
    from: Option<Format>,
    encoding: Option<TextEncoding>,
    exclude: &[&Path],
) -> Result<Groups, i32> {
    let walk = cescacs_batch::walk(paths, &is_walked_file, exclude);
    let mut had_errors = false;
    for note in &walk.notes {
        had_errors |= note.is_error();
        cescacs_batch::print_line(&note.to_string());
    }
    let mut groups: Vec<(Format, Vec<Input>)> = Vec::new();
    let mut files = Vec::new();
    for path in walk.files {
        let named = paths.contains(&path);
        let input = match Input::open(&path) {
            Ok(i) => i,
            Err(e) => {
                let note = WalkNote::Unreadable(path.clone(), e.to_string());
                cescacs_batch::print_line(&note.to_string());
                had_errors = true;
                continue;
            }
        };
        let name = detection_name(&path);
        let format = match from {
            Some(f) => f,
            None => match cescacs_convert::detect(&name, input.head()) {
                Some(f) => f,
                None => {
                    error(format_args!(
                        "{}: cannot tell the game format: give --from",
                        path.display()
                    ));
                    had_errors = true;
                    continue;
                }
            },
        };
        if !format.is_input() {
            error(format_args!(
                "{}: {} is an output format only",
                path.display(),
                format.name()
            ));
            return Err(EXIT_CANNOT_RUN);
        }
        if format == Format::Pcn && from.is_none() && !named && !looks_like_pcn(input.head()) {
            // A manifest or a summary next to the games is not a bad game.
            cescacs_batch::print_line(&format!(
                "{}: note: JSON but not PCN (no \"board\"); left out of the walk",
                path.display()
            ));
            continue;
        }
        let mut input = input.with_framing(cescacs_convert::input_framing(format, &name));
        if let Some(e) = encoding {
            input = input.with_encoding(e);
        }
        files.push(path);
        match groups.iter_mut().find(|(g, _)| *g == format) {
            Some((_, list)) => list.push(input),
            None => groups.push((format, vec![input])),
        }
    }
    if groups.is_empty() {
        error("no input files");
        return Err(EXIT_CANNOT_RUN);
    }
    Ok(Groups {
        groups,
        files,
        had_errors,
    })
}

/// Where the games' outputs go: nowhere, standard output, or a safe output file.
#[allow(clippy::large_enum_variant)] // one per run
pub enum Sink {
    Null(std::io::Sink),
    Stdout(Box<dyn Write>),
    File(OutputFile),
}

impl Sink {
    /// Standard output or `path` (`-` is standard output); `.gz`/`.bz2`/`.zst`/`.xz`
    /// names are compressed.
    pub fn open(path: Option<&Path>) -> Result<Sink, i32> {
        match path {
            None => Ok(Sink::Stdout(Box::new(std::io::BufWriter::with_capacity(
                1 << 16,
                std::io::stdout(),
            )))),
            Some(p) if p.as_os_str() == "-" => Sink::open(None),
            Some(p) => match OutputFile::create(p) {
                Ok(f) => Ok(Sink::File(f)),
                Err(e) => {
                    error(format_args!("cannot create {}: {e}", p.display()));
                    Err(EXIT_CANNOT_RUN)
                }
            },
        }
    }

    /// Writes what comes before the first game (a broken pipe is left for later).
    pub fn write_header(&mut self, header: &[u8]) -> std::io::Result<()> {
        match self.writer().write_all(header) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
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

/// One run over several format groups: one report, one summary, one output.
pub struct Session {
    pub jobs: usize,
    pub quiet: bool,
    pub encoding: Option<TextEncoding>,
    report: Option<(PathBuf, ReportWriter)>,
    total: Summary,
    stop: Arc<AtomicBool>,
    started: std::time::Instant,
    failed: Option<i32>,
    verb: Verb,
}

impl Session {
    /// Starts a session: installs the SIGINT handler and creates the report.
    pub fn new(jobs: usize, quiet: bool, report: Option<&Path>) -> Result<Session, i32> {
        if jobs > cescacs_batch::MAX_JOBS {
            error(format_args!(
                "--jobs {jobs}: at most {} worker threads",
                cescacs_batch::MAX_JOBS
            ));
            return Err(EXIT_CANNOT_RUN);
        }
        let report = match report {
            None => None,
            Some(p) => match ReportWriter::create(p) {
                Ok(r) => Some((p.to_path_buf(), r)),
                Err(e) => {
                    error(format_args!("cannot write report {}: {e}", p.display()));
                    return Err(EXIT_CANNOT_RUN);
                }
            },
        };
        Ok(Session {
            jobs,
            quiet,
            encoding: None,
            report,
            total: Summary::default(),
            stop: cescacs_batch::interrupt_flag(),
            started: std::time::Instant::now(),
            failed: None,
            verb: Verb::Check,
        })
    }

    /// Whether the session was interrupted or met an error that ends it.
    pub fn stopped(&self) -> bool {
        self.failed.is_some() || self.stop.load(Ordering::Relaxed)
    }

    /// Runs `process` over one group of inputs, writing into `sink` with `separator`
    /// between outputs (also before the first, when earlier groups wrote some).
    pub fn run<F>(&mut self, inputs: Vec<Input>, sink: &mut Sink, separator: &[u8], process: F)
    where
        F: Fn(&RawGame) -> GameOutcome + Sync,
    {
        if self.stopped() {
            return;
        }
        let options = Options {
            jobs: self.jobs,
            separator: separator.to_vec(),
            encoding: self.encoding,
            stop: Some(Arc::clone(&self.stop)),
            leading_separator: self.total.games_converted > 0,
            ..Options::default()
        };
        let bar = progress_bar(inputs.iter().map(|i| i.size).sum::<Option<u64>>());
        let started = self.started;
        let (quiet, report) = (self.quiet, &mut self.report);
        let on_diagnostic = |d: &cescacs_batch::Diagnostic| {
            if !quiet {
                if let Some(bar) = &bar {
                    bar.suspend(|| cescacs_batch::print_diagnostic(d));
                } else {
                    cescacs_batch::print_diagnostic(d);
                }
            }
            if let Some((_, r)) = report.as_mut() {
                r.write(d);
            }
        };
        let progress = |p: cescacs_batch::Progress| {
            if let Some(bar) = &bar {
                bar.set_position(p.bytes);
                let rate = p.games as f64 / started.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{} games, {rate:.0} games/s", p.games));
            }
        };
        let result = cescacs_batch::run_streaming(
            inputs,
            &options,
            &mut sink.writer(),
            process,
            on_diagnostic,
            progress,
        );
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        match result {
            Ok(s) => {
                let t = &mut self.total;
                t.files += s.files;
                t.games += s.games;
                t.games_converted += s.games_converted;
                t.games_with_warnings += s.games_with_warnings;
                t.games_bad += s.games_bad;
                t.warnings += s.warnings;
                t.errors += s.errors;
                t.interrupted |= s.interrupted;
            }
            Err(RunError::Write(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.failed = Some(EXIT_BROKEN_PIPE);
            }
            Err(e) => {
                error(&e);
                self.failed = Some(EXIT_CANNOT_RUN);
            }
        }
    }

    /// Writes the footer and commits the output (unless interrupted or failed), closes
    /// the report, prints the summary and returns the exit status.
    pub fn finish(mut self, mut sink: Sink, footer: &[u8], input_errors: bool) -> i32 {
        let interrupted = self.stop.load(Ordering::Relaxed) || self.total.interrupted;
        self.total.interrupted = interrupted;
        let mut code = if self.total.games_bad > 0 || input_errors {
            EXIT_BAD_GAMES
        } else {
            EXIT_OK
        };
        if input_errors {
            code = EXIT_CANNOT_RUN;
        }
        if self.failed == Some(EXIT_BROKEN_PIPE) {
            // Whoever read our output is gone: end quietly.
            return EXIT_BROKEN_PIPE;
        }
        if let Some(failed) = self.failed {
            code = failed;
        } else if interrupted {
            code = EXIT_INTERRUPTED;
        } else if input_errors && matches!(sink, Sink::File(_)) {
            // Some input could not be read: an output without its games must not
            // replace the old one.
            error("an input could not be read: the output is left as it was");
        } else {
            let written = match &mut sink {
                Sink::Null(_) => Ok(()),
                Sink::Stdout(w) => w.write_all(footer).and_then(|()| w.flush()),
                Sink::File(f) => f.write_all(footer),
            };
            let committed = written.and_then(|()| match sink {
                Sink::File(f) => f.commit(),
                _ => Ok(()),
            });
            match committed {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return EXIT_BROKEN_PIPE,
                Err(e) => {
                    error(format_args!(
                        "write error: {e}; the output is left as it was"
                    ));
                    code = EXIT_CANNOT_RUN;
                }
            }
        }
        // An uncommitted output file is removed here (the old one stays as it was).
        let good = match self.verb {
            Verb::Check => "valid",
            Verb::Convert => "converted",
        };
        let t = &self.total;
        let mut line = format!(
            "{} file(s), {} game(s) read, {} {good}, {} bad, {} warning(s), {} error(s) in {:.2} s",
            t.files,
            t.games,
            t.games_converted,
            t.games_bad,
            t.warnings,
            t.errors,
            self.started.elapsed().as_secs_f64()
        );
        if interrupted {
            line.push_str(" (interrupted: output left as it was)");
        }
        cescacs_batch::print_line(&line);
        if let Some((path, r)) = self.report.take()
            && let Err(e) = r.finish(&self.total)
        {
            error(format_args!("cannot write report {}: {e}", path.display()));
            code = code.max(EXIT_CANNOT_RUN);
        }
        code
    }
}

fn progress_bar(total: Option<u64>) -> Option<ProgressBar> {
    // No bar when stderr is a file or a pipe: logs stay clean.
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = match total {
        Some(t) => ProgressBar::new(t),
        None => ProgressBar::no_length(),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}
