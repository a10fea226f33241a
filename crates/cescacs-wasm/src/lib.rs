//! The WebAssembly module of the npm package `cescacs-wasm`: the toolkit in node and the browser.
//!
//! Built by `cargo xtask wasm` (see docs/wasm.md).
//!
//! Thin bindings, as the Python ones: the rules are `cescacs-rules`', `xiangqi`'s and
//! cozy-chess's, the moves on a board [`game_viewer::legal_moves`] and
//! [`game_viewer::play`], the reading and writing `cescacs-convert`'s, and the cutting
//! of a text into games `cescacs-batch`'s splitter, so every answer and every message
//! is the CLI's. What this crate adds is the calling convention: one JSON request in,
//! one JSON answer out ([`call`]), behind four C-ABI exports (`src/ffi.rs`) that the
//! hand-written glue in `js/` drives. It builds natively too, where the tests call
//! [`call`] directly.
//!
//! A request is `{"fn": NAME, "args": [...]}`; the answer is `{"ok": VALUE}` or
//! `{"error": MESSAGE}`. The functions and their arguments are those of `js/index.d.ts`.

#![warn(missing_docs)]

mod ffi;

use board_svg::BoardKind;
use cescacs_batch::{
    GameDiagnostic, GameSplitter, Input, Problem, RawGame, Severity, TextEncoding,
};
use cescacs_convert::{Format, Options, Record, StripError};
use game_viewer::XiangqiNotation;
use serde_json::{Map, Value, json};
use std::str::FromStr;

/// The name inputs are reported under when the caller gives none (as the Python
/// package's `<data>`).
pub const DEFAULT_NAME: &str = "<data>";

/// Runs one request (`{"fn": NAME, "args": [...]}`) and returns its JSON answer:
/// `{"ok": VALUE}`, or `{"error": MESSAGE}` for any bad argument, position, move or
/// game. Never panics on bad input: every failure is an answer.
pub fn call(request: &str) -> String {
    match dispatch(request) {
        Ok(v) => json!({ "ok": v }).to_string(),
        Err(e) => json!({ "error": e }).to_string(),
    }
}

fn dispatch(request: &str) -> Result<Value, String> {
    let request: Value = serde_json::from_str(request).map_err(|e| format!("bad request: {e}"))?;
    let name = request
        .get("fn")
        .and_then(Value::as_str)
        .ok_or("bad request: no \"fn\"")?;
    let empty = Vec::new();
    let args = request
        .get("args")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let arg = |i: usize| args.get(i).filter(|v| !v.is_null());
    let text = |i: usize, what: &str| -> Result<&str, String> {
        arg(i)
            .ok_or_else(|| format!("{name}: {what} is missing"))?
            .as_str()
            .ok_or_else(|| format!("{name}: {what} must be a string"))
    };
    let opt_text = |i: usize, what: &str| -> Result<Option<&str>, String> {
        arg(i).map(|_| text(i, what)).transpose()
    };
    match name {
        "perft" => {
            let depth = arg(0)
                .and_then(Value::as_u64)
                .ok_or("perft: depth must be a whole number")?;
            let depth = u32::try_from(depth).map_err(|_| format!("perft: depth {depth}"))?;
            Ok(json!(perft(depth, opt_text(1, "position")?)?))
        }
        "legalMoves" => {
            let (kind, notation) = game(opt_text(1, "game")?)?;
            let moves =
                game_viewer::legal_moves(kind, &position(kind, opt_text(0, "position")?), notation)
                    .map_err(|e| e.to_string())?;
            Ok(json!(moves.into_iter().map(|m| m.text).collect::<Vec<_>>()))
        }
        "moveTable" => {
            let (kind, notation) = game(opt_text(1, "game")?)?;
            let moves =
                game_viewer::legal_moves(kind, &position(kind, opt_text(0, "position")?), notation)
                    .map_err(|e| e.to_string())?;
            Ok(Value::Array(
                moves
                    .into_iter()
                    .map(|m| json!({"text": m.text, "from": m.from, "to": m.to}))
                    .collect(),
            ))
        }
        "play" => {
            let (kind, _) = game(opt_text(2, "game")?)?;
            let shown = game_viewer::play(
                kind,
                &position(kind, opt_text(0, "position")?),
                text(1, "move")?,
            )
            .map_err(|e| e.to_string())?;
            Ok(json!(shown.position))
        }
        "show" => {
            let (kind, _) = game(opt_text(1, "game")?)?;
            let shown = game_viewer::show(kind, &position(kind, opt_text(0, "position")?))
                .map_err(|e| e.to_string())?;
            Ok(json!({"position": shown.position, "board": shown.board,
                      "check": shown.check, "mate": shown.mate}))
        }
        "readGames" => {
            let options = arg(2)
                .map(|v| v.as_object().ok_or("readGames: options must be an object"))
                .transpose()?;
            let name = options
                .and_then(|o| o.get("name"))
                .and_then(Value::as_str)
                .unwrap_or(DEFAULT_NAME);
            read_games(text(0, "text")?, opt_text(1, "format")?, name).map(Value::Array)
        }
        "convert" => {
            let options = match arg(2) {
                None => Map::new(),
                Some(v) => v
                    .as_object()
                    .ok_or("convert: options must be an object")?
                    .clone(),
            };
            convert(text(0, "text")?, text(1, "to")?, &options).map(Value::String)
        }
        _ => Err(format!(
            "unknown function {name:?}: expected perft, legalMoves, moveTable, play, show, readGames or convert"
        )),
    }
}

/// Leaf nodes `depth` plies under `position` (TLPD; the initial position if `None`),
/// counted on the calling thread; a depth over the rules' limit is an error.
pub fn perft(depth: u32, position: Option<&str>) -> Result<u64, String> {
    let position = match position {
        None => cescacs_rules::Position::initial(),
        Some(s) => cescacs_tlpd::parse(s).map_err(|e| format!("bad TLPD {s:?}: {e}"))?,
    };
    cescacs_rules::try_perft(&position, depth, 1).map_err(|e| e.to_string())
}

/// The board and the move notation a `game` argument names: `cescacs` (the default),
/// `chess`, `xiangqi` (WXF), or `xiangqi:iccs`, `xiangqi:chinese`, `xiangqi:wxf`.
fn game(name: Option<&str>) -> Result<(BoardKind, XiangqiNotation), String> {
    let name = name.unwrap_or("cescacs").to_ascii_lowercase();
    let (board, notation) = name.split_once(':').unwrap_or((&name, "wxf"));
    let kind = match board {
        "cescacs" | "c'escacs" | "ctl" => BoardKind::Cescacs,
        "chess" => BoardKind::Chess,
        "xiangqi" => BoardKind::Xiangqi,
        other => {
            return Err(format!(
                "unknown game {other:?}: expected cescacs, chess or xiangqi"
            ));
        }
    };
    let notation = XiangqiNotation::from_name(notation).ok_or_else(|| {
        format!("unknown xiangqi notation {notation:?}: expected wxf, iccs or chinese")
    })?;
    Ok((kind, notation))
}

/// `position`, or the start position of `kind`.
fn position(kind: BoardKind, position: Option<&str>) -> String {
    match position {
        Some(p) => p.to_string(),
        None => game_viewer::start(kind).position,
    }
}

/// Every game of `text` (of `format`, else detected as the CLI detects it), read and
/// replayed: tags, main-line moves, the position after each of them, the final
/// position, and the errors and warnings located in the text as the CLI locates them.
/// A damaged game is reported in its own entry; the others are read all the same.
pub fn read_games(text: &str, format: Option<&str>, name: &str) -> Result<Vec<Value>, String> {
    let (from, mut splitter) = open(text, format, name)?;
    let mut games = Vec::new();
    let mut games_read = 0;
    loop {
        let raw = match splitter.next_game() {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
                // The input ends here as a game carrying the read error (as the CLI).
                let raw = RawGame {
                    index: games_read + 1,
                    line: splitter.line(),
                    column: 1,
                    offset: splitter.offset(),
                    bytes: Vec::new(),
                    truncated: true,
                    problem: Some(Problem::Read {
                        message: e.to_string(),
                    }),
                };
                let record = Record::read(from, &raw);
                games.push(game_value(name, games.len() as u64 + 1, &raw, &record));
                break;
            }
        };
        games_read = raw.index;
        for record in Record::read_all(from, &raw) {
            games.push(game_value(name, games.len() as u64 + 1, &raw, &record));
        }
    }
    Ok(games)
}

fn game_value(name: &str, index: u64, raw: &RawGame, record: &Record) -> Value {
    let located = |severity: Severity| -> Vec<String> {
        record
            .diagnostics()
            .iter()
            .filter(|d| d.severity == severity)
            .map(|d| located(name, index, raw, d))
            .collect()
    };
    let mut tags = Map::new();
    for (k, v) in record.tags() {
        tags.insert(k, Value::String(v));
    }
    let positions: Vec<String> = match game_viewer::steps(record) {
        Ok(steps) => steps.main.into_iter().map(|s| s.shown.position).collect(),
        Err(_) => Vec::new(),
    };
    json!({
        "format": record.format().name(),
        "index": index,
        "line": raw.line,
        "tags": tags,
        "moves": record.main_line(),
        "positions": positions,
        "finalPosition": record.final_position(),
        "result": record.result(),
        "errors": located(Severity::Error),
        "warnings": located(Severity::Warning),
    })
}

/// A game diagnostic placed in its text, as the batch engine places it.
fn located(name: &str, index: u64, raw: &RawGame, d: &GameDiagnostic) -> String {
    cescacs_batch::Diagnostic::of_game(name, index as usize, (raw.line, raw.column), raw.offset, d)
        .to_string()
}

/// The text as the CLI's input layer opens it: its format (given, or detected from its
/// name and first bytes), binary data refused, and the splitter over it.
fn open(
    text: &str,
    format: Option<&str>,
    name: &str,
) -> Result<(Format, GameSplitter<Input>), String> {
    let bytes = text.as_bytes().to_vec();
    let size = bytes.len() as u64;
    let input = Input::from_reader(name.to_string(), Some(size), std::io::Cursor::new(bytes));
    let from = match format {
        Some(f) => format_arg(f)?,
        None => cescacs_convert::detect(cescacs_convert::without_compression(name), input.head())
            .ok_or_else(|| format!("{name}: cannot tell the game format: give the format"))?,
    };
    if let Some(at) = input.binary_at() {
        return Err(format!(
            "{name}: NUL byte (byte {at}): binary data, not {} text; not read",
            from.name()
        ));
    }
    let encoding = if input.decoded_from.is_some() {
        TextEncoding::Bytes
    } else {
        TextEncoding::detect(input.head())
    };
    let max = cescacs_batch::Options::default().max_game_bytes;
    let splitter = GameSplitter::new(input, max)
        .framing(cescacs_convert::input_framing(from, name))
        .encoding(encoding);
    Ok((from, splitter))
}

fn format_arg(name: &str) -> Result<Format, String> {
    Format::from_str(name).map_err(|e| e.to_string())
}

/// Every game of `text` converted to `to` as `cescacs convert` does (same splitter,
/// same per-game converter, same framing of the outputs). Options: `from`, `name`,
/// `fan`, `strict`, `jsonLines`, `minimal`, `notation`, `strip`. Any bad game makes it
/// an error listing every located error.
pub fn convert(text: &str, to: &str, options: &Map<String, Value>) -> Result<String, String> {
    let to = format_arg(to)?;
    let mut out = Options::default();
    let mut from = None;
    let mut name = DEFAULT_NAME;
    for (key, value) in options {
        let flag = || {
            value
                .as_bool()
                .ok_or_else(|| format!("convert: option {key} must be true or false"))
        };
        let string = || {
            value
                .as_str()
                .ok_or_else(|| format!("convert: option {key} must be a string"))
        };
        match key.as_str() {
            "from" => from = Some(string()?),
            "name" => name = string()?,
            "fan" => out.fan = flag()?,
            "strict" => out.strict = flag()?,
            "jsonLines" | "json_lines" => out.json_lines = flag()?,
            "minimal" => out.minimal = flag()?,
            "notation" => out.set_notation(to, string()?).map_err(|e| e.to_string())?,
            "strip" => {
                let list = match value {
                    Value::Array(items) => items
                        .iter()
                        .map(|v| v.as_str().unwrap_or("?"))
                        .collect::<Vec<_>>()
                        .join(","),
                    _ => string()?.to_string(),
                };
                if !list.is_empty() {
                    out.strip = list.parse().map_err(|e: StripError| e.to_string())?;
                }
            }
            _ => {
                return Err(format!(
                    "unknown option {key:?}: expected from, name, fan, minimal, notation, strip, strict or jsonLines"
                ));
            }
        }
    }
    let (from, mut splitter) = open(text, from, name)?;
    let converter =
        cescacs_convert::Converter::new(from, Some(to), out).map_err(|e| e.to_string())?;
    let mut outputs = Vec::new();
    let mut errors = Vec::new();
    let mut games_read = 0;
    loop {
        let raw = match splitter.next_game() {
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
                let raw = RawGame {
                    index: games_read + 1,
                    line: splitter.line(),
                    column: 1,
                    offset: splitter.offset(),
                    bytes: Vec::new(),
                    truncated: true,
                    problem: None,
                };
                let problem = Problem::Read {
                    message: e.to_string(),
                };
                let d = GameDiagnostic {
                    severity: Severity::Error,
                    line: 1,
                    column: 1,
                    message: problem.describe().2,
                    code: problem.code(),
                };
                errors.push(located(name, raw.index as u64, &raw, &d));
                break;
            }
        };
        games_read = raw.index;
        let outcome = converter.convert(&raw);
        if outcome.is_bad() {
            errors.extend(
                outcome
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .map(|d| located(name, raw.index as u64, &raw, d)),
            );
        } else {
            outputs.push(outcome.output);
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let framing = converter.output_framing();
    let mut text = framing.header.clone();
    for (i, o) in outputs.iter().enumerate() {
        if i > 0 {
            text.extend_from_slice(&framing.separator);
        }
        text.extend_from_slice(o);
    }
    text.extend_from_slice(&framing.footer);
    String::from_utf8(text).map_err(|e| format!("{name}: {e}"))
}
