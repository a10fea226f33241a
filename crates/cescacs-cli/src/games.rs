//! Commands over game files: `check`, `convert`, `replay`.
//!
//! Each input is cut into games by `cescacs-batch`; every game is then handled on its
//! own by the format crates, so one bad game never stops the others and the work spreads
//! over all cores.

use crate::XiangqiNotation;
use crate::bulk::{self, EXIT_CANNOT_RUN, Session, Sink, open_groups};
use crate::format::Format;
use crate::losses::{self, Loss};
use cescacs_batch::{GameDiagnostic, GameOutcome, RawGame, Severity, TextEncoding};
use std::path::{Path, PathBuf};

pub struct CheckArgs<'a> {
    pub inputs: &'a [PathBuf],
    pub from: Option<Format>,
    pub encoding: Option<TextEncoding>,
    pub strict: bool,
    pub jobs: usize,
    pub report: Option<&'a Path>,
    pub quiet: bool,
}

pub struct ConvertArgs<'a> {
    pub inputs: &'a [PathBuf],
    pub to: Format,
    pub from: Option<Format>,
    pub encoding: Option<TextEncoding>,
    pub output: Option<&'a Path>,
    pub jsonl: bool,
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

pub fn check(args: &CheckArgs<'_>) -> i32 {
    let mut session = match Session::new(args.jobs, args.quiet, args.report) {
        Ok(s) => s,
        Err(code) => return code,
    };
    session.encoding = args.encoding;
    let exclude: Vec<&Path> = args.report.into_iter().collect();
    let groups = match open_groups(args.inputs, args.from, args.encoding, &exclude) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let mut sink = Sink::Null(std::io::sink());
    for (format, inputs) in groups.groups {
        let strict = args.strict;
        session.run(inputs, &mut sink, b"", |g| {
            handle(format, Job::Check, strict, g)
        });
    }
    session.finish(sink, b"", groups.had_errors)
}

pub fn replay(files: &[PathBuf], strict: bool) -> i32 {
    let mut session = match Session::new(0, false, None) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let groups = match open_groups(files, Some(Format::CtlPgn), None, &[]) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let mut sink = match Sink::open(None) {
        Ok(s) => s,
        Err(code) => return code,
    };
    for (_, inputs) in groups.groups {
        session.run(inputs, &mut sink, b"", |g| {
            handle(Format::CtlPgn, Job::Replay, strict, g)
        });
    }
    session.finish(sink, b"", groups.had_errors)
}

pub fn convert(args: &ConvertArgs<'_>) -> i32 {
    let output = args.output.filter(|p| p.as_os_str() != "-");
    let mut session = match Session::new(args.jobs, args.quiet, args.report) {
        Ok(s) => s,
        Err(code) => return code,
    };
    session.encoding = args.encoding;
    let exclude: Vec<&Path> = output.into_iter().chain(args.report).collect();
    let groups = match open_groups(args.inputs, args.from, args.encoding, &exclude) {
        Ok(g) => g,
        Err(code) => return code,
    };
    if let Some(out) = output {
        if let Some(input) = cescacs_batch::output_is_input(out, &groups.files) {
            bulk::error(format_args!(
                "the output {} is also an input ({}): refused, nothing written",
                out.display(),
                input.display()
            ));
            return EXIT_CANNOT_RUN;
        }
    }
    if let Some(report) = args.report {
        if output.is_some_and(|o| cescacs_batch::output_is_input(o, &[report.to_path_buf()]).is_some())
        {
            bulk::error("the report and the output are the same file: refused");
            return EXIT_CANNOT_RUN;
        }
    }
    let json_lines = args.jsonl
        || output.is_some_and(|p| {
            let name = p.to_string_lossy().to_ascii_lowercase();
            [".jsonl", ".jsonl.gz", ".jsonl.bz2", ".jsonl.zst", ".jsonl.xz"]
                .iter()
                .any(|ext| name.ends_with(ext))
        });
    let target = Target {
        format: args.to,
        notation: args.notation,
        fan: args.fan,
        minimal: args.minimal,
        json_lines,
    };
    for (from, _) in &groups.groups {
        if let Err(e) = conversion_supported(*from, args.to) {
            bulk::error(e);
            return EXIT_CANNOT_RUN;
        }
    }
    let mut sink = match Sink::open(output) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let (header, separator, footer) = framing_out(target);
    if let Err(e) = sink.write_header(&header) {
        bulk::error(format_args!("write error: {e}"));
        return EXIT_CANNOT_RUN;
    }
    for (from, inputs) in groups.groups {
        let strict = args.strict;
        session.run(inputs, &mut sink, &separator, |g| {
            handle(from, Job::Convert(target), strict, g)
        });
    }
    session.finish(sink, &footer, groups.had_errors)
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
        let docs = match pcn::from_slice_many(bytes) {
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
    doc: Result<pcn::Game, pcn::ReadError>,
    prefix: &str,
    outcome: &mut GameOutcome,
    outputs: &mut Vec<String>,
) {
    let doc = match doc {
        Ok(d) => d,
        Err(e) => {
            outcome
                .diagnostics
                .push(diag(Severity::Error, 1, 1, format!("{prefix}{e}")));
            return;
        }
    };
    if let Err(e) = pcn::replay(&doc) {
        outcome
            .diagnostics
            .push(diag(Severity::Error, 1, 1, format!("{prefix}{e}")));
        return;
    }
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
