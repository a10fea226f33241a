//! Commands over game files: `check`, `convert`, `replay`.
//!
//! Inputs are grouped by format; `cescacs-batch` cuts each input into games and
//! `cescacs-convert` handles every game on its own, so one bad game never stops the
//! others and the work spreads over all cores.

use crate::bulk::{Group, Settings, Sink, Verb, cannot_run, open_groups, run_groups};
use cescacs_batch::{GameOutcome, Input};
use cescacs_convert::{Converter, Format, Options, OutputFraming, Record};
use std::path::{Path, PathBuf};

/// One converter per group of inputs (opened once, grouped by detected format), or
/// the exit status when the command cannot run. Also says whether some input could
/// not be read, and the files, for refusing an output that is also an input.
fn plan<'a>(
    inputs: &[PathBuf],
    from: Option<Format>,
    to: Option<Format>,
    options: &Options,
    settings: &Settings<'_>,
    exclude: &[&Path],
) -> Result<(Vec<Group<'a>>, Vec<PathBuf>, bool), i32> {
    if settings.jobs > cescacs_batch::MAX_JOBS {
        return Err(cannot_run(format!(
            "--jobs {}: at most {} worker threads",
            settings.jobs,
            cescacs_batch::MAX_JOBS
        )));
    }
    let opened = open_groups(inputs, from, settings.encoding, exclude)?;
    let mut groups = Vec::new();
    for (format, inputs) in opened.groups {
        let converter = Converter::new(format, to, options.clone())
            .map_err(|e| cannot_run(format!("{}: {e}", inputs[0].name)))?;
        groups.push(Group {
            inputs,
            process: Box::new(move |g| converter.convert(g)),
        });
    }
    Ok((groups, opened.files, opened.had_errors))
}

pub fn check(
    inputs: &[PathBuf],
    from: Option<Format>,
    options: Options,
    settings: &Settings<'_>,
) -> i32 {
    let exclude: Vec<&Path> = settings.report.into_iter().collect();
    match plan(inputs, from, None, &options, settings, &exclude) {
        Ok((groups, _, errors)) => run_groups(
            groups,
            settings,
            Verb::Check,
            Sink::Null(std::io::sink()),
            None,
            errors,
        ),
        Err(code) => code,
    }
}

pub fn convert(
    inputs: &[PathBuf],
    from: Option<Format>,
    to: Format,
    output: Option<&Path>,
    options: Options,
    settings: &Settings<'_>,
) -> i32 {
    let output = output.filter(|p| p.as_os_str() != "-");
    let exclude: Vec<&Path> = output.into_iter().chain(settings.report).collect();
    let (groups, files, errors) = match plan(inputs, from, Some(to), &options, settings, &exclude) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if let Some(out) = output {
        let mut taken = files.clone();
        taken.extend(settings.report.map(Path::to_path_buf));
        if let Some(input) = cescacs_batch::output_is_input(out, &taken) {
            return cannot_run(format!(
                "the output {} is also an input or the report ({}): refused, nothing written",
                out.display(),
                input.display()
            ));
        }
    }
    let sink = match Sink::open(output) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let framing = Some(OutputFraming::of(Some(to), &options));
    run_groups(groups, settings, Verb::Convert, sink, framing, errors)
}

pub fn replay(inputs: &[PathBuf], strict: bool, with_filename: bool, no_filename: bool) -> i32 {
    let opened = match open_groups(inputs, Some(Format::CtlPgn), None, &[]) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let files: Vec<Input> = opened.groups.into_iter().flat_map(|(_, i)| i).collect();
    let named = with_filename || (!no_filename && files.len() > 1);
    let options = Options {
        strict,
        ..Options::default()
    };
    let replay_one = move |name: Option<String>| {
        let options = options.clone();
        move |g: &cescacs_batch::RawGame| {
            let record = Record::read_with(Format::CtlPgn, g, &options);
            let mut outcome = GameOutcome {
                output: Vec::new(),
                diagnostics: record.diagnostics().to_vec(),
            };
            if let (false, Some(tlpd)) = (outcome.is_bad(), record.final_position()) {
                outcome.output = match &name {
                    Some(name) => format!("{name}:{}: {tlpd}\n", g.index),
                    None => format!("{tlpd}\n"),
                }
                .into_bytes();
            }
            outcome
        }
    };
    // One group per file: the per-game function is told its file.
    let groups = files.into_iter().map(|f| Group {
        process: Box::new(replay_one(named.then(|| f.name.clone()))),
        inputs: vec![f],
    });
    let settings = Settings {
        jobs: 0,
        report: None,
        quiet: false,
        encoding: None,
    };
    let sink = match Sink::open(None) {
        Ok(s) => s,
        Err(code) => return code,
    };
    run_groups(
        groups.collect(),
        &settings,
        Verb::Check,
        sink,
        None,
        opened.had_errors,
    )
}
