//! Running per-game functions over many inputs: the progress bar, one summary for the
//! whole command, the report file and the exit status shared by `check`, `replay` and
//! `convert`.

use cescacs_batch::{Framing, GameOutcome, Input, Options, RawGame, Summary};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

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
}

/// Inputs handled by one per-game function, cut into games one way.
pub struct Group<'a> {
    pub files: Vec<PathBuf>,
    pub framing: Framing,
    pub process: Box<dyn Fn(&RawGame) -> GameOutcome + Sync + 'a>,
}

/// What the summary calls a good game: `converted` for `convert`, `valid` otherwise.
#[derive(Clone, Copy)]
pub enum Verb {
    Check,
    Convert,
}

/// Writes `pending` before the first non-empty write: the separator between the
/// outputs of two groups appears only when both wrote something.
struct Joined<W: Write> {
    inner: W,
    pending: Vec<u8>,
    wrote: bool,
}

impl<W: Write> Write for Joined<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !buf.is_empty() {
            if !self.pending.is_empty() {
                let pending = std::mem::take(&mut self.pending);
                self.inner.write_all(&pending)?;
            }
            self.wrote = true;
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Runs every group in order into `sink` (`header`, the outputs joined by `separator`,
/// `footer`), prints the diagnostics and one summary, and returns the exit status.
pub fn run_groups(
    groups: Vec<Group<'_>>,
    settings: &Settings<'_>,
    verb: Verb,
    sink: &mut dyn Write,
    framing: Option<cescacs_convert::OutputFraming>,
) -> i32 {
    let framing = framing.unwrap_or_default();
    // Files are opened one group at a time (a directory may hold more files than the
    // process may open), but a missing one stops the command before any output.
    let mut total = Some(0);
    for path in groups.iter().flat_map(|g| &g.files) {
        let size = match path.as_os_str() == "-" {
            true => None,
            false => match std::fs::metadata(path) {
                Ok(m) => Some(m.len()),
                Err(e) => return cannot_run(format!("{}: {e}", path.display())),
            },
        };
        total = total.zip(size).map(|(t, s)| t + s);
    }
    let bar = progress_bar(total);
    let started = std::time::Instant::now();
    let mut sink = Joined {
        inner: std::io::BufWriter::with_capacity(1 << 16, sink),
        pending: Vec::new(),
        wrote: false,
    };
    let mut summary = Summary::default();
    let (mut done_games, mut done_bytes) = (0, 0);
    if let Err(e) = sink.inner.write_all(&framing.header) {
        return cannot_run(format!("write error: {e}"));
    }
    for group in groups {
        let opened = group
            .files
            .iter()
            .map(|p| Input::open(p).map_err(|e| (p, e)));
        let inputs = match opened.collect::<Result<Vec<_>, _>>() {
            Ok(inputs) => inputs,
            Err((p, e)) => return cannot_run(format!("{}: {e}", p.display())),
        };
        if sink.wrote {
            sink.pending = framing.separator.clone();
        }
        let group_bytes: u64 = inputs.iter().filter_map(|i| i.size).sum();
        let options = Options {
            jobs: settings.jobs,
            framing: group.framing,
            separator: framing.separator.clone(),
            ..Options::default()
        };
        let result = cescacs_batch::run(inputs, &options, &mut sink, &group.process, |p| {
            if let Some(bar) = &bar {
                bar.set_position(done_bytes + p.bytes);
                let games = done_games + p.games;
                let rate = games as f64 / started.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{games} games, {rate:.0} games/s"));
            }
        });
        match result {
            Ok(s) => {
                done_games += s.games;
                done_bytes += group_bytes;
                merge(&mut summary, s);
            }
            Err(e) => {
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                return cannot_run(e.to_string());
            }
        }
    }
    sink.pending.clear();
    let flushed = sink
        .inner
        .write_all(&framing.footer)
        .and_then(|()| sink.flush());
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Err(e) = flushed {
        return cannot_run(format!("write error: {e}"));
    }
    finish(&summary, settings, verb, started.elapsed())
}

/// Prints why the command cannot run; returns the exit status saying so.
pub fn cannot_run(message: impl std::fmt::Display) -> i32 {
    eprintln!("error: {message}");
    EXIT_CANNOT_RUN
}

fn merge(total: &mut Summary, s: Summary) {
    total.files += s.files;
    total.games += s.games;
    total.games_converted += s.games_converted;
    total.games_with_warnings += s.games_with_warnings;
    total.games_bad += s.games_bad;
    total.warnings += s.warnings;
    total.errors += s.errors;
    total.diagnostics.extend(s.diagnostics);
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

fn finish(
    summary: &Summary,
    settings: &Settings<'_>,
    verb: Verb,
    elapsed: std::time::Duration,
) -> i32 {
    if !settings.quiet {
        for d in &summary.diagnostics {
            eprintln!("{d}");
        }
    }
    let good = match verb {
        Verb::Check => "valid",
        Verb::Convert => "converted",
    };
    eprintln!(
        "{} file(s), {} game(s) read, {} {good}, {} bad, {} warning(s), {} error(s) in {:.2} s",
        summary.files,
        summary.games,
        summary.games_converted,
        summary.games_bad,
        summary.warnings,
        summary.errors,
        elapsed.as_secs_f64()
    );
    if let Some(path) = settings.report
        && let Err(e) = std::fs::write(path, summary.to_json())
    {
        eprintln!("error: cannot write report {}: {e}", path.display());
        return EXIT_CANNOT_RUN;
    }
    if summary.exit_code() == 0 {
        EXIT_OK
    } else {
        EXIT_BAD_GAMES
    }
}
