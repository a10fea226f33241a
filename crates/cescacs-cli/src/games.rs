//! Commands over game files: `check`, `convert`, `replay`.
//!
//! Each input is cut into games by `cescacs-batch`; every game is then handled on its
//! own by the format crates, so one bad game never stops the others and the work spreads
//! over all cores.

use crate::XiangqiNotation;
use crate::bulk::{BulkRun, EXIT_CANNOT_RUN, run_bulk};
use crate::format::{self, Format};
use crate::losses::{self, Loss};
use cescacs_batch::{Framing, GameDiagnostic, GameOutcome, RawGame, Severity};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub struct CheckArgs<'a> {
    pub inputs: &'a [PathBuf],
    pub from: Option<Format>,
    pub strict: bool,
    pub jobs: usize,
    pub report: Option<&'a Path>,
    pub quiet: bool,
}

pub struct ConvertArgs<'a> {
    pub inputs: &'a [PathBuf],
    pub to: Format,
    pub from: Option<Format>,
    pub output: Option<&'a Path>,
    pub notation: XiangqiNotation,
    pub fan: bool,
    pub minimal: bool,
    pub strict: bool,
    pub jobs: usize,
    pub report: Option<&'a Path>,
    pub quiet: bool,
}

/// What to do with each game.
#[derive(Clone, Copy)]
enum Job {
    Check,
    Replay,
    Convert(Target),
}

/// A conversion target with its options.
#[derive(Clone, Copy)]
struct Target {
    format: Format,
    notation: XiangqiNotation,
    fan: bool,
    minimal: bool,
    /// One PCN document per line instead of a JSON array.
    json_lines: bool,
}

/// The format of one input, from `--from`, else its name and first bytes.
fn input_format(path: &Path, from: Option<Format>) -> Result<Format, String> {
    if let Some(f) = from {
        return Ok(f);
    }
    let mut head = vec![0u8; 8192];
    let n = if path.as_os_str() == "-" {
        return Err("cannot tell the format of standard input: give --from".into());
    } else {
        let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut n = 0;
        while n < head.len() {
            match file.read(&mut head[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        n
    };
    format::detect(path, &head[..n]).ok_or_else(|| {
        format!(
            "{}: cannot tell the game format: give --from",
            path.display()
        )
    })
}

/// Groups inputs by format, keeping their order within each group.
fn group_inputs(
    inputs: &[PathBuf],
    from: Option<Format>,
) -> Result<Vec<(Format, Vec<PathBuf>)>, String> {
    let files =
        cescacs_batch::expand_paths(inputs, &format::is_game_file).map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err("no input files".into());
    }
    let mut groups: Vec<(Format, Vec<PathBuf>)> = Vec::new();
    for file in files {
        let f = input_format(&file, from)?;
        if f == Format::XiangqiXml {
            return Err(format!(
                "{}: xiangqi XML is an output format only",
                file.display()
            ));
        }
        match groups.iter_mut().find(|(g, _)| *g == f) {
            Some((_, list)) => list.push(file),
            None => groups.push((f, vec![file])),
        }
    }
    Ok(groups)
}

pub fn check(args: &CheckArgs<'_>) -> i32 {
    let groups = match group_inputs(args.inputs, args.from) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_CANNOT_RUN;
        }
    };
    let mut code = 0;
    for (format, files) in groups {
        let run = BulkRun {
            inputs: &files,
            jobs: args.jobs,
            report: args.report,
            quiet: args.quiet,
            framing: framing_of(format, &files),
            header: Vec::new(),
            separator: Vec::new(),
            footer: Vec::new(),
        };
        let strict = args.strict;
        code = code.max(run_bulk(run, &mut std::io::sink(), |g| {
            handle(format, Job::Check, strict, g)
        }));
    }
    code
}

pub fn replay(files: &[PathBuf], strict: bool) -> i32 {
    let run = BulkRun {
        inputs: files,
        jobs: 0,
        report: None,
        quiet: false,
        framing: Framing::Pgn,
        header: Vec::new(),
        separator: Vec::new(),
        footer: Vec::new(),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run_bulk(run, &mut out, |g| {
        handle(Format::CtlPgn, Job::Replay, strict, g)
    })
}

pub fn convert(args: &ConvertArgs<'_>) -> i32 {
    let groups = match group_inputs(args.inputs, args.from) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_CANNOT_RUN;
        }
    };
    let json_lines = args
        .output
        .is_some_and(|p| p.to_string_lossy().ends_with(".jsonl"));
    let target = Target {
        format: args.to,
        notation: args.notation,
        fan: args.fan,
        minimal: args.minimal,
        json_lines,
    };
    for (from, files) in &groups {
        if let Err(e) = conversion_supported(*from, args.to) {
            eprintln!("error: {}: {e}", files[0].display());
            return EXIT_CANNOT_RUN;
        }
    }
    let mut sink: Box<dyn Write> = match args.output {
        None => Box::new(std::io::stdout().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(std::io::stdout().lock()),
        Some(p) => match std::fs::File::create(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("error: cannot create {}: {e}", p.display());
                return EXIT_CANNOT_RUN;
            }
        },
    };
    let (header, separator, footer) = framing_out(target);
    let mut code = 0;
    let group_count = groups.len();
    for (i, (from, files)) in groups.into_iter().enumerate() {
        // Header and footer enclose the whole output, not each group.
        let run = BulkRun {
            inputs: &files,
            jobs: args.jobs,
            report: args.report,
            quiet: args.quiet,
            framing: framing_of(from, &files),
            header: if i == 0 {
                header.clone()
            } else {
                separator.clone()
            },
            separator: separator.clone(),
            footer: if i + 1 == group_count {
                footer.clone()
            } else {
                Vec::new()
            },
        };
        let strict = args.strict;
        code = code.max(run_bulk(run, &mut sink, |g| {
            handle(from, Job::Convert(target), strict, g)
        }));
    }
    code
}

/// How inputs are cut into games. JSON Lines files are cut at lines, so that one bad
/// document is one bad game and the others are still converted.
fn framing_of(format: Format, files: &[PathBuf]) -> Framing {
    match format {
        Format::Pcn
            if !files.is_empty()
                && files
                    .iter()
                    .all(|f| f.to_string_lossy().ends_with(".jsonl")) =>
        {
            Framing::Lines
        }
        Format::Pcn => Framing::Whole,
        _ => Framing::Pgn,
    }
}

/// What surrounds the per-game outputs.
fn framing_out(target: Target) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    match target.format {
        Format::Pcn if target.json_lines => (Vec::new(), b"\n".to_vec(), b"\n".to_vec()),
        Format::Pcn => (b"[\n".to_vec(), b",\n".to_vec(), b"\n]\n".to_vec()),
        Format::XiangqiXml => {
            let empty = xiangqi_pgn::write_xml(std::iter::empty(), &xiangqi_style(target.notation));
            // The document wrapper is what the writer puts around zero games.
            match empty.find("</") {
                Some(close) if empty[..close].contains('>') => (
                    empty.as_bytes()[..close].to_vec(),
                    Vec::new(),
                    empty.as_bytes()[close..].to_vec(),
                ),
                _ => (Vec::new(), Vec::new(), Vec::new()),
            }
        }
        _ => (Vec::new(), Vec::new(), Vec::new()),
    }
}

fn conversion_supported(from: Format, to: Format) -> Result<(), String> {
    use Format::*;
    let game_of = |f: Format| match f {
        CtlPgn => Some("C'escacs"),
        XiangqiPgn | XiangqiXml => Some("xiangqi"),
        Pgn => Some("chess"),
        Pcn => None,
    };
    match (game_of(from), game_of(to)) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "cannot convert a {a} record to {}: they are different games",
            to.name()
        )),
        _ => Ok(()),
    }
}

fn xiangqi_style(n: XiangqiNotation) -> xiangqi_pgn::MoveStyle {
    xiangqi_pgn::MoveStyle::canonical(match n {
        XiangqiNotation::Chinese => xiangqi_pgn::Notation::Chinese,
        XiangqiNotation::Wxf => xiangqi_pgn::Notation::Wxf,
        XiangqiNotation::Iccs => xiangqi_pgn::Notation::Iccs,
    })
}

fn diag(severity: Severity, line: u64, column: u64, message: impl Into<String>) -> GameDiagnostic {
    GameDiagnostic {
        severity,
        line: line.max(1),
        column: column.max(1),
        message: message.into(),
    }
}

/// Decodes a game that must be UTF-8, locating the first bad byte.
fn utf8(game: &RawGame) -> Result<&str, GameOutcome> {
    std::str::from_utf8(&game.bytes).map_err(|e| {
        let good = &game.bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        let col = good.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
        GameOutcome::error(
            line,
            col,
            format!(
                "expected UTF-8 text, found byte 0x{:02X}",
                game.bytes[e.valid_up_to()]
            ),
        )
    })
}

/// Handles one game of one format.
fn handle(format: Format, job: Job, strict: bool, game: &RawGame) -> GameOutcome {
    if let Some(outcome) =
        cescacs_batch::oversized(game, cescacs_batch::Options::default().max_game_bytes)
    {
        return outcome;
    }
    let mut outcome = match format {
        Format::CtlPgn => ctl_pgn_game(job, strict, game),
        Format::Pgn => chess_game(job, game),
        Format::XiangqiPgn => xiangqi_game(job, game),
        Format::Pcn => pcn_game(job, game),
        Format::XiangqiXml => GameOutcome::error(1, 1, "xiangqi XML is an output format only"),
    };
    if strict {
        for d in &mut outcome.diagnostics {
            d.severity = Severity::Error;
        }
    }
    outcome
}

fn chess_game(job: Job, raw: &RawGame) -> GameOutcome {
    let mut outcome = GameOutcome::default();
    let mut games = chess_pgn::Games::new(&raw.bytes[..]);
    let game = match games.next() {
        None => return GameOutcome::error(1, 1, "expected a game, found no movetext"),
        Some(Err(e)) => {
            let at = e.at().unwrap_or_default();
            // The engine adds file, game and line; keep only the reason.
            let reason = match &e {
                chess_pgn::model::GameError::UnsupportedVariant { name, .. } => {
                    format!("unsupported variant {name:?}")
                }
                chess_pgn::model::GameError::BadFen { fen, reason, .. } => {
                    format!("bad FEN {fen:?}: {reason}")
                }
                chess_pgn::model::GameError::SetUpWithoutFen { .. } => {
                    "SetUp \"1\" without a FEN tag".to_string()
                }
                chess_pgn::model::GameError::Read(r) => r.to_string(),
            };
            return GameOutcome::error(u64::from(at.line), u64::from(at.col), reason);
        }
        Some(Ok(g)) => g,
    };
    for d in &game.diagnostics {
        let severity = match d.severity {
            chess_pgn::model::Severity::Error => Severity::Error,
            chess_pgn::model::Severity::Warning => Severity::Warning,
        };
        outcome.diagnostics.push(diag(
            severity,
            u64::from(d.at.line),
            u64::from(d.at.col),
            d.message.clone(),
        ));
    }
    if games.next().is_some() {
        outcome.diagnostics.push(diag(
            Severity::Warning,
            1,
            1,
            "the splitter and the PGN reader disagree on game boundaries",
        ));
    }
    if outcome.is_bad() {
        return outcome;
    }
    match job {
        Job::Check | Job::Replay => {}
        Job::Convert(t) => match t.format {
            Format::Pgn => {
                push_losses(&mut outcome, losses::chess(&game), "");
                outcome.output = chess_pgn::to_pgn_string(&game).into_bytes()
            }
            Format::Pcn => pcn_out(&mut outcome, pcn_convert::chess::to_pcn(&game)),
            other => outcome
                .diagnostics
                .push(cannot_write("a chess game", other)),
        },
    }
    outcome
}

fn xiangqi_game(job: Job, raw: &RawGame) -> GameOutcome {
    let file = xiangqi_pgn::read_bytes(&raw.bytes, "");
    let mut outcome = GameOutcome::default();
    for w in &file.warnings {
        outcome.diagnostics.push(diag(
            Severity::Warning,
            w.line as u64,
            w.col as u64,
            w.message.clone(),
        ));
    }
    let Some(read) = file.games.into_iter().next() else {
        return GameOutcome::error(1, 1, "expected a game, found no movetext");
    };
    for w in &read.warnings {
        outcome.diagnostics.push(diag(
            Severity::Warning,
            w.line as u64,
            w.col as u64,
            w.message.clone(),
        ));
    }
    if let Some(e) = &read.error {
        let (line, col) = match e {
            xiangqi_pgn::ReadError::Move { line, col, .. }
            | xiangqi_pgn::ReadError::Fen { line, col, .. }
            | xiangqi_pgn::ReadError::Syntax { line, col, .. } => (*line, *col),
        };
        // The file name and game number are added by the batch engine.
        let message = e.to_string();
        let message = message.split_once(": ").map(|(_, m)| m).unwrap_or(&message);
        let message = message.split_once(": ").map(|(_, m)| m).unwrap_or(message);
        outcome
            .diagnostics
            .push(diag(Severity::Error, line as u64, col as u64, message));
        return outcome;
    }
    match job {
        Job::Check | Job::Replay => {}
        Job::Convert(t) => match t.format {
            Format::XiangqiPgn => {
                push_losses(
                    &mut outcome,
                    losses::xiangqi(&read.game, t.notation, false),
                    "",
                );
                outcome.output =
                    xiangqi_pgn::write_game(&read.game, &xiangqi_style(t.notation)).into_bytes()
            }
            Format::XiangqiXml => {
                push_losses(
                    &mut outcome,
                    losses::xiangqi(&read.game, t.notation, true),
                    "",
                );
                outcome.output =
                    xiangqi_pgn::write_xml_game(&read.game, &xiangqi_style(t.notation)).into_bytes()
            }
            Format::Pcn => pcn_out(&mut outcome, pcn_convert::xiangqi::to_pcn(&read.game)),
            other => outcome
                .diagnostics
                .push(cannot_write("a xiangqi game", other)),
        },
    }
    outcome
}

fn ctl_pgn_game(job: Job, strict: bool, raw: &RawGame) -> GameOutcome {
    let text = match utf8(raw) {
        Ok(t) => t,
        Err(outcome) => return outcome,
    };
    let mut records = ctl_pgn::replay::replay("", text, ctl_pgn::replay::Options { strict });
    let mut outcome = GameOutcome::default();
    if records.len() > 1 {
        outcome.diagnostics.push(diag(
            Severity::Warning,
            1,
            1,
            "the splitter and the CTL-PGN reader disagree on game boundaries",
        ));
    }
    if records.is_empty() {
        return GameOutcome::error(1, 1, "expected a game, found no movetext");
    }
    let record = records.swap_remove(0);
    for d in &record.diagnostics {
        let severity = match d.severity {
            // Notes record normalised spellings; they are not problems.
            ctl_pgn::Severity::Note => continue,
            ctl_pgn::Severity::Warning => Severity::Warning,
            ctl_pgn::Severity::Error => Severity::Error,
        };
        outcome.diagnostics.push(diag(
            severity,
            u64::from(d.line),
            u64::from(d.col),
            d.message.clone(),
        ));
    }
    if outcome.is_bad() {
        return outcome;
    }
    let (Some(game), Some(position)) = (record.game, record.position) else {
        return GameOutcome::error(1, 1, "the record could not be replayed");
    };
    match job {
        Job::Check => {}
        Job::Replay => {
            outcome.output = format!("{}\n", cescacs_tlpd::write(&position)).into_bytes()
        }
        Job::Convert(t) => match t.format {
            Format::CtlPgn => {
                let form = ctl_form(t);
                push_losses(&mut outcome, losses::ctl_pgn(&game, form), "");
                outcome.output = ctl_pgn::write_game(&game, form).into_bytes();
            }
            Format::Pcn => pcn_out(&mut outcome, pcn_convert::cescacs::to_pcn(&game)),
            other => outcome
                .diagnostics
                .push(cannot_write("a C'escacs game", other)),
        },
    }
    outcome
}

/// The CTL-PGN writer form a target asks for.
fn ctl_form(t: Target) -> ctl_pgn::Form {
    if t.minimal {
        ctl_pgn::Form::Minimal
    } else if t.fan {
        ctl_pgn::Form::Fan
    } else {
        ctl_pgn::Form::Canonical
    }
}

/// Reports what a writer leaves out, one warning per dropped item.
fn push_losses(outcome: &mut GameOutcome, losses: Vec<Loss>, prefix: &str) {
    for (line, col, message) in losses {
        outcome.diagnostics.push(diag(
            Severity::Warning,
            line,
            col,
            format!("{prefix}{message}"),
        ));
    }
}

/// Adds a PCN document (one compact JSON line) or the reason it could not be made.
fn pcn_out(
    outcome: &mut GameOutcome,
    converted: Result<(pcn::Game, Vec<pcn_convert::Warning>), pcn_convert::ConvertError>,
) {
    match converted {
        Ok((doc, warnings)) => {
            for w in warnings {
                outcome
                    .diagnostics
                    .push(diag(Severity::Warning, 1, 1, w.to_string()));
            }
            outcome.output = pcn::to_string(&doc).into_bytes();
        }
        Err(e) => outcome.diagnostics.push(diag(
            Severity::Error,
            1,
            1,
            format!("cannot convert to PCN: {e}"),
        )),
    }
}

/// Which game a PCN document records, from its board's shape.
fn pcn_game_kind(doc: &pcn::Game) -> Option<Format> {
    match doc.starting_position.shape() {
        [169] => Some(Format::CtlPgn),
        [8, 8] => Some(Format::Pgn),
        [10, 9] | [9, 10] | [90] => Some(Format::XiangqiPgn),
        _ => None,
    }
}

/// A PCN input: one document, or a JSON array of documents (what `--to pcn` writes).
fn pcn_game(job: Job, raw: &RawGame) -> GameOutcome {
    // One document, a JSON array of documents (what `--to pcn` writes), or several
    // documents one after another (JSON Lines).
    // serde_json finds where each top-level value ends; pcn then reads each value's own
    // bytes, which (unlike a parsed `Value`) still shows a key written twice.
    let mut slices = Vec::new();
    let mut stream =
        serde_json::Deserializer::from_slice(&raw.bytes).into_iter::<serde::de::IgnoredAny>();
    let mut start = 0;
    while let Some(value) = stream.next() {
        if let Err(e) = value {
            return GameOutcome::error(
                e.line() as u64,
                e.column() as u64,
                format!("expected a JSON document: {e}"),
            );
        }
        let end = stream.byte_offset();
        slices.push(&raw.bytes[start..end]);
        start = end;
    }
    let several = slices.len() > 1;
    let mut outcome = GameOutcome::default();
    let mut outputs = Vec::new();
    for (n, bytes) in slices.into_iter().enumerate() {
        let at = if several {
            format!("document {}: ", n + 1)
        } else {
            String::new()
        };
        let docs = match pcn::from_slice_many_with_warnings(bytes) {
            Ok(docs) => docs,
            Err(e) => {
                outcome
                    .diagnostics
                    .push(diag(Severity::Error, 1, 1, format!("{at}{e}")));
                continue;
            }
        };
        let in_array = bytes.trim_ascii_start().starts_with(b"[");
        for (i, doc) in docs.into_iter().enumerate() {
            let prefix = if in_array {
                format!("{at}[{i}].")
            } else {
                at.clone()
            };
            pcn_document(job, doc, &prefix, &mut outcome, &mut outputs);
        }
    }
    let separator = match job {
        Job::Convert(t) if t.format == Format::Pcn && !t.json_lines => ",\n",
        Job::Convert(t) if t.format == Format::Pcn => "\n",
        _ => "",
    };
    outcome.output = outputs.join(separator).into_bytes();
    outcome
}

/// Checks or converts one PCN document of a [`pcn_game`] input; `prefix` says which.
fn pcn_document(
    job: Job,
    doc: Result<(pcn::Game, Vec<pcn::Warning>), pcn::ReadError>,
    prefix: &str,
    outcome: &mut GameOutcome,
    outputs: &mut Vec<String>,
) {
    let (mut doc, mut warnings) = match doc {
        Ok(d) => d,
        Err(e) => {
            outcome
                .diagnostics
                .push(diag(Severity::Error, 1, 1, format!("{prefix}{e}")));
            return;
        }
    };
    let end = match pcn::replay(&doc) {
        Ok(end) => end,
        Err(e) => {
            outcome
                .diagnostics
                .push(diag(Severity::Error, 1, 1, format!("{prefix}{e}")));
            return;
        }
    };
    // The cache is derived data: what was dropped or disagrees with the replay is a
    // warning, and a PCN output carries a cache recomputed from the replay.
    warnings.extend(pcn::check_cache(&doc, &end));
    for w in warnings {
        outcome
            .diagnostics
            .push(diag(Severity::Warning, 1, 1, format!("{prefix}{w}")));
    }
    pcn::recompute_cache(&mut doc, &end);
    let kind = pcn_game_kind(&doc);
    let Job::Convert(t) = job else {
        // Checking a PCN document: valid, replayable, and a game we know is legal.
        let legal = match kind {
            Some(Format::CtlPgn) => pcn_convert::cescacs::from_pcn(&doc).map(|_| ()),
            Some(Format::Pgn) => pcn_convert::chess::from_pcn(&doc).map(|_| ()),
            Some(_) => pcn_convert::xiangqi::from_pcn(&doc).map(|_| ()),
            None => Ok(()),
        };
        if let Err(e) = legal {
            outcome
                .diagnostics
                .push(diag(Severity::Error, 1, 1, format!("{prefix}{e}")));
        }
        return;
    };
    let text = match (kind, t.format) {
        (_, Format::Pcn) => Ok((pcn::to_string(&doc), Vec::new())),
        (Some(Format::CtlPgn), Format::CtlPgn) => {
            pcn_convert::cescacs::from_pcn(&doc).map(|(g, w)| {
                let form = ctl_form(t);
                push_losses(outcome, losses::ctl_pgn(&g, form), prefix);
                (ctl_pgn::write_game(&g, form), w)
            })
        }
        (Some(Format::Pgn), Format::Pgn) => pcn_convert::chess::from_pcn(&doc).map(|(g, w)| {
            push_losses(outcome, losses::chess(&g), prefix);
            (chess_pgn::to_pgn_string(&g), w)
        }),
        (Some(Format::XiangqiPgn), Format::XiangqiPgn) => pcn_convert::xiangqi::from_pcn(&doc)
            .map(|(g, w)| {
                push_losses(
                    outcome,
                    losses::xiangqi(&g, t.notation, false),
                    prefix,
                );
                (xiangqi_pgn::write_game(&g, &xiangqi_style(t.notation)), w)
            }),
        (Some(Format::XiangqiPgn), Format::XiangqiXml) => pcn_convert::xiangqi::from_pcn(&doc)
            .map(|(g, w)| {
                push_losses(outcome, losses::xiangqi(&g, t.notation, true), prefix);
                (
                    xiangqi_pgn::write_xml_game(&g, &xiangqi_style(t.notation)),
                    w,
                )
            }),
        (kind, to) => {
            let what = kind.map_or("an unknown board", |k| match k {
                Format::CtlPgn => "a C'escacs game",
                Format::Pgn => "a chess game",
                _ => "a xiangqi game",
            });
            let mut d = cannot_write(what, to);
            d.message = format!("{prefix}{}", d.message);
            outcome.diagnostics.push(d);
            return;
        }
    };
    match text {
        Ok((text, warnings)) => {
            for w in warnings {
                outcome
                    .diagnostics
                    .push(diag(Severity::Warning, 1, 1, format!("{prefix}{w}")));
            }
            outputs.push(text);
        }
        Err(e) => outcome
            .diagnostics
            .push(diag(Severity::Error, 1, 1, format!("{prefix}{e}"))),
    }
}

fn cannot_write(what: &str, to: Format) -> GameDiagnostic {
    diag(
        Severity::Error,
        1,
        1,
        format!("{what} cannot be written as {}", to.name()),
    )
}
