//! Commands over game files: `check`, `convert`, `replay`.
//!
//! Inputs are grouped by format; `cescacs-batch` cuts each input into games and
//! `cescacs-convert` handles every game on its own, so one bad game never stops the
//! others and the work spreads over all cores.

use crate::bulk::{Group, Settings, Verb, cannot_run, run_groups};
use cescacs_batch::{Framing, GameOutcome};
use cescacs_convert::{Converter, Format, Options, OutputFraming, Record};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The files below the inputs (directories walked for game files, sorted).
fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let keep = |p: &Path| cescacs_convert::is_game_file(&p.to_string_lossy());
    let files = cescacs_batch::expand_paths(inputs, &keep).map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err("no input files".into());
    }
    Ok(files)
}

/// The format of one input, from `--from`, else its name and first bytes.
fn input_format(path: &Path, from: Option<Format>) -> Result<Format, String> {
    if let Some(f) = from {
        return Ok(f);
    }
    if path.as_os_str() == "-" {
        return Err("cannot tell the format of standard input: give --from".into());
    }
    let mut head = Vec::with_capacity(8192);
    std::fs::File::open(path)
        .and_then(|f| f.take(8192).read_to_end(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    cescacs_convert::detect(&path.to_string_lossy(), &head).ok_or_else(|| {
        format!(
            "{}: cannot tell the game format: give --from",
            path.display()
        )
    })
}

/// Groups inputs by format and framing, keeping their order within each group.
fn group_inputs(
    inputs: &[PathBuf],
    from: Option<Format>,
) -> Result<Vec<(Format, Framing, Vec<PathBuf>)>, String> {
    let mut groups: Vec<(Format, Framing, Vec<PathBuf>)> = Vec::new();
    for file in expand(inputs)? {
        let f = input_format(&file, from)?;
        let framing = cescacs_convert::input_framing(f, &file.to_string_lossy());
        match groups.iter_mut().find(|(g, m, _)| *g == f && *m == framing) {
            Some((_, _, list)) => list.push(file),
            None => groups.push((f, framing, vec![file])),
        }
    }
    Ok(groups)
}

/// One converter per group of inputs, or the reason the command cannot run.
fn plan<'a>(
    inputs: &[PathBuf],
    from: Option<Format>,
    to: Option<Format>,
    options: &Options,
) -> Result<Vec<Group<'a>>, String> {
    let mut groups = Vec::new();
    for (format, framing, files) in group_inputs(inputs, from)? {
        let converter = Converter::new(format, to, options.clone())
            .map_err(|e| format!("{}: {e}", files[0].display()))?;
        groups.push(Group {
            files,
            framing,
            process: Box::new(move |g| converter.convert(g)),
        });
    }
    Ok(groups)
}

pub fn check(
    inputs: &[PathBuf],
    from: Option<Format>,
    options: Options,
    settings: &Settings<'_>,
) -> i32 {
    match plan(inputs, from, None, &options) {
        Ok(groups) => run_groups(groups, settings, Verb::Check, &mut std::io::sink(), None),
        Err(e) => cannot_run(e),
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
    let groups = match plan(inputs, from, Some(to), &options) {
        Ok(g) => g,
        Err(e) => return cannot_run(e),
    };
    let mut sink: Box<dyn Write> = match output {
        None => Box::new(std::io::stdout().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(std::io::stdout().lock()),
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(f),
            Err(e) => return cannot_run(format!("cannot create {}: {e}", p.display())),
        },
    };
    let framing = Some(OutputFraming::of(Some(to), &options));
    run_groups(groups, settings, Verb::Convert, &mut sink, framing)
}

pub fn replay(inputs: &[PathBuf], strict: bool, with_filename: bool, no_filename: bool) -> i32 {
    let files = match expand(inputs) {
        Ok(f) => f,
        Err(e) => return cannot_run(e),
    };
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
        process: Box::new(replay_one(named.then(|| f.display().to_string()))),
        files: vec![f],
        framing: Framing::Pgn,
    });
    let settings = Settings {
        jobs: 0,
        report: None,
        quiet: false,
    };
    let mut out = std::io::stdout().lock();
    run_groups(groups.collect(), &settings, Verb::Check, &mut out, None)
}
