//! Running a per-game function over many inputs: the progress bar, the summary, the
//! report file and the exit status shared by `check`, `replay` and `convert`.

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

pub struct BulkRun<'a> {
    pub inputs: &'a [PathBuf],
    pub jobs: usize,
    pub report: Option<&'a Path>,
    /// Print each diagnostic on stderr as it is found (after the run, in input order).
    pub quiet: bool,
    pub framing: Framing,
    pub header: Vec<u8>,
    pub separator: Vec<u8>,
    pub footer: Vec<u8>,
}

/// Runs `process` over every game and returns the exit status; errors that stop the
/// run are printed here.
pub fn run_bulk<F>(run: BulkRun<'_>, sink: &mut dyn Write, process: F) -> i32
where
    F: Fn(&RawGame) -> GameOutcome + Sync,
{
    let paths = match cescacs_batch::expand_paths(run.inputs, &crate::format::is_game_file) {
        Ok(p) if !p.is_empty() => p,
        Ok(_) => {
            eprintln!("error: no input files");
            return EXIT_CANNOT_RUN;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_CANNOT_RUN;
        }
    };
    let mut inputs = Vec::with_capacity(paths.len());
    for path in &paths {
        match Input::open(path) {
            Ok(input) => inputs.push(input),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return EXIT_CANNOT_RUN;
            }
        }
    }
    let options = Options {
        jobs: run.jobs,
        framing: run.framing,
        header: run.header,
        separator: run.separator,
        footer: run.footer,
        ..Options::default()
    };
    let bar = progress_bar(inputs.iter().map(|i| i.size).sum::<Option<u64>>());
    let started = std::time::Instant::now();
    let mut sink = std::io::BufWriter::with_capacity(1 << 16, sink);
    let result = cescacs_batch::run(inputs, &options, &mut sink, process, |p| {
        if let Some(bar) = &bar {
            bar.set_position(p.bytes);
            let rate = p.games as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!("{} games, {rate:.0} games/s", p.games));
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    drop(sink);
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_CANNOT_RUN;
        }
    };
    finish(&summary, run.report, run.quiet, started.elapsed())
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
    report: Option<&Path>,
    quiet: bool,
    elapsed: std::time::Duration,
) -> i32 {
    if !quiet {
        for d in &summary.diagnostics {
            eprintln!("{d}");
        }
    }
    eprintln!("{summary} in {:.2} s", elapsed.as_secs_f64());
    if let Some(path) = report {
        if let Err(e) = std::fs::write(path, summary.to_json()) {
            eprintln!("error: cannot write report {}: {e}", path.display());
            return EXIT_CANNOT_RUN;
        }
    }
    if summary.exit_code() == 0 {
        EXIT_OK
    } else {
        EXIT_BAD_GAMES
    }
}
