//! Commands over game files: `check`, `convert`, `replay`, `select`. The inputs are
//! opened by `cescacs_convert::open_inputs`, the per-game work is `cescacs-convert`'s
//! and the run is a `cescacs_batch::Session`; this file shows progress and prints.

use crate::Common as Settings;
use cescacs_batch::{EXIT_CANNOT_RUN, FileNote, Finished, Group, Session, Sink, print_line};
use cescacs_convert::{Format, Inputs, Options, SelectedWriter};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Prints why the command cannot run; returns the exit status saying so.
pub fn cannot_run(message: impl std::fmt::Display) -> i32 {
    print_line(&format!("error: {message}"));
    EXIT_CANNOT_RUN
}

/// Starts the run (the SIGINT handler and the report) and opens the inputs, printing
/// what the walk notes; every problem of a whole input also goes to the report. The
/// report is refused when it is an input or the output; an output that is an input
/// is refused too. When no input can be read the report is still written (`Err` holds
/// the exit status).
pub(crate) fn open(
    paths: &[PathBuf],
    from: Option<Format>,
    s: &Settings,
    out: Option<&Path>,
) -> Result<(Session, Inputs), i32> {
    Session::check_jobs(s.jobs).map_err(cannot_run)?;
    let out = out.filter(|p| p.as_os_str() != "-");
    if let Some(report) = s.report.as_deref() {
        if let Some(input) = cescacs_batch::output_is_input(report, paths) {
            return Err(cannot_run(format!(
                "the report {} is also an input ({}): refused, nothing written",
                report.display(),
                input.display()
            )));
        }
        if out.is_some_and(|o| cescacs_batch::same_file(o, report)) {
            return Err(cannot_run(format!(
                "the report {} is also the output: refused, nothing written",
                report.display()
            )));
        }
    }
    let mut session = session(s)?;
    session.keep_damaged(s.keep_damaged);
    session.report_notes().iter().for_each(|n| print_line(n));
    let files = (out, s.report.as_deref());
    let opened = cescacs_convert::open_inputs(paths, from, s.encoding(), files, &mut |n| {
        print_line(&n.to_string());
        if let FileNote::Problem(d) = n {
            session.file_diagnostic(d);
        }
    });
    match opened {
        Ok(inputs) => Ok((session, inputs)),
        Err(e) => {
            let code = cannot_run(e);
            // The report still says what was found.
            let finished = session.finish(Sink::Null(std::io::sink()), b"", true);
            finished.errors.iter().for_each(|e| _ = cannot_run(e));
            Err(code.max(finished.code))
        }
    }
}

/// Refuses to run a command whose results go to standard output when it is closed.
fn stdout_open() -> Result<(), i32> {
    match cescacs_batch::stdout_closed() {
        true => Err(cannot_run(
            "standard output is closed: nowhere to write the results",
        )),
        false => Ok(()),
    }
}

/// The run's output: standard output or a file (its notes printed).
fn sink(output: Option<&Path>, null: bool, header: &[u8]) -> Result<Sink, i32> {
    if !null && output.is_none() {
        stdout_open()?;
    }
    let sink = Sink::with_header(output, null, header).map_err(cannot_run)?;
    sink.notes().iter().for_each(|n| print_line(n));
    Ok(sink)
}

/// Starts the run: the SIGINT handler and the report.
fn session(s: &Settings) -> Result<Session, i32> {
    Session::new(s.jobs, s.encoding(), s.report.as_deref()).map_err(cannot_run)
}

/// Runs every group into `sink`, with a progress bar per group and the diagnostics
/// printed (unless `quiet`) as they come.
pub(crate) fn run<'a>(
    session: &mut Session,
    groups: impl IntoIterator<Item = Group<'a>>,
    sink: &mut impl Write,
    sep: &[u8],
    quiet: bool,
) {
    for group in groups {
        let bar = progress_bar(group.total_bytes);
        let started = session.started();
        let on_diagnostic = |d: &cescacs_batch::Diagnostic| match (&bar, quiet) {
            (_, true) => {}
            (Some(bar), _) => bar.suspend(|| cescacs_batch::print_diagnostic(d)),
            (None, _) => cescacs_batch::print_diagnostic(d),
        };
        let files = group.files;
        let progress = |p: cescacs_batch::Progress| {
            if let Some(bar) = &bar {
                bar.set_position(p.bytes);
                let rate = p.games as f64 / started.elapsed().as_secs_f64().max(1e-9);
                // Several files: which one is being read and its own count.
                let file = match files {
                    Some(n @ 2..) => format!("file {}/{n}: {} games; ", p.file, p.file_games),
                    _ => String::new(),
                };
                bar.set_message(format!("{file}{} games, {rate:.0} games/s", p.games));
            }
        };
        let (inputs, process) = (group.inputs, group.process);
        session.run(inputs, sink, sep, process, on_diagnostic, progress);
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
    }
}

/// Prints how the run ended (`summary` makes the line) and returns the exit status.
pub(crate) fn end(finished: Finished, summary: impl FnOnce(&Finished) -> String) -> i32 {
    if !finished.silent {
        finished.errors.iter().for_each(|e| _ = cannot_run(e));
        print_line(&summary(&finished));
    }
    finished.code
}

fn progress_bar(total: Option<u64>) -> Option<ProgressBar> {
    // No bar when stderr is a file or a pipe: logs stay clean.
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = total.map_or_else(ProgressBar::no_length, ProgressBar::new);
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} {msg} ETA {eta}",
    );
    bar.set_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()));
    Some(bar)
}

/// Says each layout option the writer of an output format has no place for (once per
/// option and format): asked for and ignored, never silently.
fn say_not_applied(options: &Options, outputs: impl IntoIterator<Item = Format>) {
    let mut said: Vec<Format> = Vec::new();
    for to in outputs {
        if said.contains(&to) {
            continue;
        }
        said.push(to);
        for option in options.layout.not_applied(to) {
            print_line(&format!(
                "warning: {option} does not apply to {} output (its writer has no such layout): ignored",
                to.name()
            ));
        }
    }
}

/// `check` (`to` is `None`) and `convert`; `--strict` and `--from` are `settings`'.
pub fn convert(
    paths: &[PathBuf],
    to: Option<Format>,
    output: Option<&Path>,
    mut options: Options,
    settings: &Settings,
) -> Result<i32, i32> {
    options.strict |= settings.strict;
    let output = output.filter(|p| p.as_os_str() != "-");
    if to.is_some() && output.is_none() {
        stdout_open()?;
    }
    let (mut session, inputs) = open(paths, settings.from.map(crate::lib), settings, output)?;
    match to {
        Some(_) => session.report_command("convert", "games_converted"),
        None => session.report_command("check", "games_valid"),
    }
    if let Some(to) = to.filter(|_| !inputs.groups.is_empty()) {
        say_not_applied(&options, [to]);
    }
    let groups = cescacs_convert::converters(inputs.groups, to, &options).map_err(cannot_run)?;
    let framing = cescacs_convert::OutputFraming::of(to, &options);
    let mut sink = sink(output, to.is_none(), &framing.header)?;
    let (sep, quiet) = (&framing.separator, settings.quiet);
    run(&mut session, groups, &mut sink, sep, quiet);
    let finished = session.finish(sink, &framing.footer, inputs.had_errors);
    let good = if to.is_some() { "converted" } else { "valid" };
    Ok(end(finished, |f| f.summary_line(good)))
}

pub fn replay(paths: &[PathBuf], strict: bool, with_name: bool, no_name: bool) -> Result<i32, i32> {
    let settings = Settings::default();
    stdout_open()?;
    let (mut session, inputs) = open(paths, Some(Format::CtlPgn), &settings, None)?;
    session.report_command("replay", "games_valid");
    let count: usize = inputs.groups.iter().map(|(_, i)| i.len()).sum();
    let named = with_name || (!no_name && count > 1);
    let options = Options {
        strict,
        ..Options::default()
    };
    // One group per file, taken as the run reaches it: the per-game function is told
    // its file.
    let files = inputs.groups.into_iter().flat_map(|(_, i)| i);
    let groups = files.map(|f| Group {
        process: Box::new(cescacs_convert::final_position_line(
            named.then(|| f.name.clone()),
            options.clone(),
        )),
        files: Some(1),
        total_bytes: f.size,
        inputs: Box::new(std::iter::once(f)),
    });
    let mut sink = Sink::Stdout(Box::new(std::io::BufWriter::new(std::io::stdout())));
    run(&mut session, groups, &mut sink, b"", false);
    let finished = session.finish(sink, b"", inputs.had_errors);
    Ok(end(finished, |f| f.summary_line("valid")))
}

/// `cescacs select`.
#[derive(clap::Args)]
pub struct SelectArgs {
    /// Files or directories (`-` for standard input, with --from).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    #[command(flatten)]
    filters: crate::Filters,
    #[command(flatten)]
    criteria: crate::criteria::Criteria,
    /// Convert the selected games to this format (default: byte for byte as read).
    #[arg(long, value_enum, conflicts_with = "invalid")]
    to: Option<crate::OutputFormat>,
    /// Output file (`-` or absent: standard output).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
    /// Drop a game whose start position and main-line moves equal an earlier one's.
    #[arg(long)]
    dedupe: bool,
    /// Print only the number of selected games (no games are written).
    #[arg(long, conflicts_with = "output")]
    count: bool,
    #[command(flatten)]
    extras: crate::extras::SelectExtras,
    #[command(flatten)]
    common: Settings,
}

pub fn select(args: SelectArgs) -> Result<i32, i32> {
    let (settings, mut filter) = (&args.common, args.filters.filter());
    args.criteria.apply(&mut filter).map_err(cannot_run)?;
    let options = Options {
        json_lines: crate::json_lines(args.output.as_deref()),
        strict: settings.strict,
        annotate: args.extras.annotate(),
        layout: args.extras.layout.layout(),
        ..Options::default()
    };
    let dir = split_dir(
        &args.extras,
        args.output.as_deref(),
        args.count,
        &args.inputs,
    )?;
    let output = match dir {
        Some(_) => None,
        None => args.output.as_deref().filter(|p| p.as_os_str() != "-"),
    };
    if output.is_none() && dir.is_none() {
        stdout_open()?;
    }
    let sides = args.extras.side_outputs();
    check_side_outputs(&sides, &args.inputs, output, settings.report.as_deref())?;
    let (mut session, inputs) = open(
        &args.inputs,
        settings.from.map(crate::lib),
        settings,
        output,
    )?;
    // Selected or not, a game read without error is counted: not "converted".
    session.report_command("select", "games_without_error");
    let formats: Vec<Format> = inputs.groups.iter().map(|(f, _)| *f).collect();
    let to = args.to.map(crate::lib);
    if !args.count {
        say_not_applied(&options, formats.iter().map(|f| to.unwrap_or(*f)));
    }
    let (framing, separator) =
        cescacs_convert::selection_framing(&formats, to, &options).map_err(cannot_run)?;
    let mut sink = sink(output, args.count || dir.is_some(), &framing.header)?;
    let mut duplicates_sink = match &args.extras.duplicates {
        Some(p) => Some(self::sink(Some(p), false, &framing.header)?),
        None => None,
    };
    let mut rejected_sink = match &args.extras.rejected {
        Some(p) => Some(self::sink(Some(p), false, &framing.header)?),
        None => None,
    };
    let mut writer = SelectedWriter::new(&mut sink, separator);
    writer.stop_after(args.extras.stop_after.map(|n| n as usize));
    if args.extras.stop_after.is_some() {
        // Docs: select.md "--stop-after": no game after the limit is read.
        writer.stop_run(session.enough_flag());
    }
    if let Some(dir) = dir {
        let format = to.or(formats.first().copied()).unwrap_or(Format::Pgn);
        let every = args.extras.split.map(|n| n as usize);
        let split =
            cescacs_batch::SplitOutput::new(dir, format.extension(), &framing.header, every)
                .map_err(|e| cannot_run(format!("cannot write into {}: {e}", dir.display())))?;
        writer.split_into(split, args.extras.split_by.is_some());
    }
    if let Some(s) = duplicates_sink.as_mut() {
        writer.duplicates_to(Box::new(s));
    }
    if let Some(s) = rejected_sink.as_mut() {
        writer.rejected_to(Box::new(s));
        session.bad_output(true);
    }
    let keys = writer.keys();
    let dedupe = args.dedupe || args.extras.duplicates.is_some();
    let groups = cescacs_convert::selections(
        inputs.groups,
        &filter,
        to,
        dedupe,
        &args.extras.selection(),
        &options,
        &keys,
    )
    .map_err(cannot_run)?;
    run(&mut session, groups, &mut writer, b"", settings.quiet);
    let (kept, duplicates, rejected) = (writer.kept(), writer.duplicates, writer.rejected());
    let stopped = writer.stopped();
    let flushed = writer.flush_all();
    let split = writer.take_split();
    drop(writer);
    let files = split.as_ref().map_or(0, |s| s.paths().len());
    let sinks = std::iter::once(sink)
        .chain(split.map(|s| s.into_sinks()).unwrap_or_default())
        .chain(duplicates_sink)
        .chain(rejected_sink)
        .collect();
    session.report_field("games_selected", kept as u64);
    session.report_field("duplicates_dropped", duplicates as u64);
    if let Some(n) = args.extras.stop_after.filter(|_| stopped) {
        session.report_field("stopped_after", n);
    }
    let mut finished = session.finish_all(sinks, &framing.footer, inputs.had_errors);
    if let Err(e) = flushed {
        finished.errors.push(format!("write error: {e}"));
        finished.code = finished.code.max(EXIT_CANNOT_RUN);
    }
    if args.count && !finished.silent {
        print_count(&mut finished, kept);
    }
    if kept == 0 && !finished.silent && finished.summary.games > 0 {
        print_line(&cescacs_convert::no_match_note(&filter));
    }
    Ok(end(finished, |f| {
        let mut line = cescacs_convert::selection_summary(f, kept, duplicates);
        if args.extras.rejected.is_some() {
            line.push_str(&format!(", {rejected} game(s) written to --rejected"));
        }
        if let Some(d) = dir {
            line.push_str(&format!(", {files} file(s) in {}", d.display()));
        }
        if let Some(n) = args.extras.stop_after.filter(|_| stopped) {
            line.push_str(&format!(", stopped after {n} selected game(s)"));
        }
        line
    }))
}

/// The directory `--split`/`--split-by` write into (`-o DIR/`), refused when it holds
/// an input or is missing.
fn split_dir<'a>(
    extras: &crate::extras::SelectExtras,
    output: Option<&'a Path>,
    count: bool,
    inputs: &[PathBuf],
) -> Result<Option<&'a Path>, i32> {
    let splitting = extras.split.is_some() || extras.split_by.is_some();
    match (splitting, output) {
        (true, Some(d)) if d.as_os_str() != "-" && !count => {
            check_split_dir(d, inputs)?;
            Ok(Some(d))
        }
        (true, _) => Err(cannot_run(
            "--split and --split-by write into a directory: give it with -o DIR/ (not with --count)",
        )),
        (false, _) => Ok(None),
    }
}

/// Prints `--count`'s number; a write that fails is the run's error (exit 2).
fn print_count(finished: &mut Finished, kept: usize) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{kept}").and_then(|()| out.flush()) {
        finished.errors.push(format!("cannot write the count: {e}"));
        finished.code = finished.code.max(EXIT_CANNOT_RUN);
    }
}

/// Refuses a split output directory that holds an input (a file of the split could
/// replace it).
fn check_split_dir(dir: &Path, inputs: &[PathBuf]) -> Result<(), i32> {
    let Ok(dir) = dir.canonicalize() else {
        return Ok(()); // not there yet: it holds nothing
    };
    for input in inputs {
        let within = input
            .canonicalize()
            .is_ok_and(|i| i.starts_with(&dir) || dir.starts_with(&i));
        if within {
            return Err(cannot_run(format!(
                "the output directory {} holds the input {}: refused, nothing written",
                dir.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// Refuses a `--duplicates`/`--rejected` file that is an input, the output, the
/// report or the other side file: nothing is written then.
fn check_side_outputs(
    sides: &[(&str, &Path)],
    inputs: &[PathBuf],
    output: Option<&Path>,
    report: Option<&Path>,
) -> Result<(), i32> {
    for (i, (name, path)) in sides.iter().enumerate() {
        if let Some(input) = cescacs_batch::output_is_input(path, inputs) {
            return Err(cannot_run(format!(
                "{name} {} is also an input ({}): refused, nothing written",
                path.display(),
                input.display()
            )));
        }
        let others = output
            .map(|o| ("the output", o))
            .into_iter()
            .chain(report.map(|r| ("the report", r)))
            .chain(sides[..i].iter().map(|(n, p)| (*n, *p)));
        for (other, o) in others {
            if path == &o || cescacs_batch::same_file(path, o) {
                return Err(cannot_run(format!(
                    "{name} {} is also {other}: refused, nothing written",
                    path.display()
                )));
            }
        }
    }
    Ok(())
}
