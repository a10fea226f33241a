//! One game of any format, read and replayed: the shim the bindings use until the
//! per-game conversion library (`cescacs-convert`, issue "One conversion library under a
//! thin CLI") is merged. It calls the format crates exactly as `cescacs check` /
//! `convert` do (same readers, same replay, same messages) and keeps the parsed game so
//! that writing it in another format does not read it again. What it does not carry over
//! from the CLI: the per-writer "dropped on output" warnings (`cescacs-cli/src/losses.rs`
//! is private to the binary).

use cescacs_batch::{GameDiagnostic, RawGame, Severity};

/// A game-record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// C'escacs CTL-PGN.
    CtlPgn,
    /// Classic chess PGN.
    Pgn,
    /// Chinese chess PGN.
    XiangqiPgn,
    /// Xiangqi XML (output only).
    XiangqiXml,
    /// PCN JSON.
    Pcn,
}

impl Format {
    /// The name used on the command line and in Python.
    pub fn name(self) -> &'static str {
        match self {
            Format::CtlPgn => "ctl-pgn",
            Format::Pgn => "pgn",
            Format::XiangqiPgn => "xiangqi-pgn",
            Format::XiangqiXml => "xiangqi-xml",
            Format::Pcn => "pcn",
        }
    }

    /// The format named `s` (the CLI's spellings).
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s.to_ascii_lowercase().as_str() {
            "ctl-pgn" | "ctlpgn" | "cescacs" => Format::CtlPgn,
            "pgn" | "chess" => Format::Pgn,
            "xiangqi-pgn" | "xiangqi" => Format::XiangqiPgn,
            "xiangqi-xml" => Format::XiangqiXml,
            "pcn" | "json" | "jsonl" => Format::Pcn,
            _ => return None,
        })
    }
}

/// Infers the format from a file name and its first bytes (the CLI's rule).
pub fn detect(name: &str, head: &[u8]) -> Option<Format> {
    let name = name.to_ascii_lowercase();
    let name = strip_compression(&name);
    if name.ends_with(".ctl-pgn") || name.ends_with(".ctlpgn") {
        return Some(Format::CtlPgn);
    }
    if name.ends_with(".json") || name.ends_with(".jsonl") || name.ends_with(".pcn") {
        return Some(Format::Pcn);
    }
    sniff(head).or_else(|| name.ends_with(".pgn").then_some(Format::Pgn))
}

/// The name without a compression suffix.
pub fn strip_compression(name: &str) -> &str {
    for ext in [".gz", ".zst", ".bz2", ".xz"] {
        if let Some(s) = name.strip_suffix(ext) {
            return s;
        }
    }
    name
}

/// Guesses from content alone.
pub fn sniff(head: &[u8]) -> Option<Format> {
    let text = String::from_utf8_lossy(head);
    let lower = text.to_ascii_lowercase();
    let trimmed = lower.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') && trimmed.contains("\"board\"") {
        return Some(Format::Pcn);
    }
    if lower.contains("[variant \"c'escacs")
        || lower.contains("[variant \"cescacs")
        || lower.contains("[tlpd ")
        || lower.contains("[pdtl ")
    {
        return Some(Format::CtlPgn);
    }
    if lower.contains("[game \"chinese chess\"]")
        || lower.contains("[variant \"xiangqi\"]")
        || lower.contains("[format \"iccs\"]")
        || lower.contains("[format \"wxf\"]")
        || lower.contains("[format \"chinese\"]")
        || lower.contains("[redteam ")
        || lower.contains("[red ")
    {
        return Some(Format::XiangqiPgn);
    }
    let high = head.iter().filter(|&&b| b >= 0x80).count();
    if head.len() > 64 && high * 4 > head.len() {
        return Some(Format::XiangqiPgn);
    }
    if lower.contains("[event ") || lower.contains("[white ") || lower.trim_start().starts_with("1.")
    {
        return Some(Format::Pgn);
    }
    None
}

/// How a format is cut into records.
pub fn framing(format: Format, name: &str) -> cescacs_batch::Framing {
    match format {
        Format::Pcn if strip_compression(&name.to_ascii_lowercase()).ends_with(".jsonl") => {
            cescacs_batch::Framing::Lines
        }
        Format::Pcn => cescacs_batch::Framing::Whole,
        _ => cescacs_batch::Framing::Pgn,
    }
}

/// Writer options (the CLI's `--notation`, `--fan`, `--minimal`).
#[derive(Debug, Clone, Copy, Default)]
pub struct WriteOptions {
    /// Xiangqi move notation.
    pub notation: Option<xiangqi_pgn::Notation>,
    /// CTL-PGN with figurines.
    pub fan: bool,
    /// CTL-PGN without comments, variations and optional tags.
    pub minimal: bool,
}

/// The parsed game, kept for writing.
#[derive(Debug, Clone)]
pub enum Parsed {
    /// C'escacs game and its final position.
    Cescacs(Box<(ctl_pgn::Game, cescacs_rules::Position)>),
    /// Classic chess.
    Chess(Box<chess_pgn::Game>),
    /// Xiangqi.
    Xiangqi(Box<xiangqi_pgn::Game>),
}

/// One game read and replayed.
#[derive(Debug, Clone)]
pub struct Record {
    /// The format it was read from.
    pub format: Format,
    /// Tag pairs in input order.
    pub tags: Vec<(String, String)>,
    /// Main-line moves as written.
    pub moves: Vec<String>,
    /// The result marker, if any.
    pub result: Option<String>,
    /// TLPD (C'escacs) or FEN (chess, xiangqi) after the main line.
    pub final_position: Option<String>,
    /// Diagnostics located relative to the game's first line.
    pub diagnostics: Vec<GameDiagnostic>,
    /// The parsed game, when it could be read.
    pub parsed: Option<Parsed>,
}

fn diag(severity: Severity, line: u64, column: u64, message: impl Into<String>) -> GameDiagnostic {
    GameDiagnostic {
        severity,
        line: line.max(1),
        column: column.max(1),
        message: message.into(),
    }
}

impl Record {
    fn failed(format: Format, diagnostics: Vec<GameDiagnostic>) -> Record {
        Record {
            format,
            tags: Vec::new(),
            moves: Vec::new(),
            result: None,
            final_position: None,
            diagnostics,
            parsed: None,
        }
    }

    /// True when some diagnostic is an error.
    pub fn is_bad(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }

    /// The PCN document of the game.
    pub fn to_pcn(&self) -> Result<String, String> {
        let converted = match &self.parsed {
            None => return Err("the game could not be read".into()),
            Some(Parsed::Cescacs(g)) => pcn_convert::cescacs::to_pcn(&g.0),
            Some(Parsed::Chess(g)) => pcn_convert::chess::to_pcn(g),
            Some(Parsed::Xiangqi(g)) => pcn_convert::xiangqi::to_pcn(g),
        };
        converted
            .map(|(doc, _)| pcn::to_string(&doc))
            .map_err(|e| format!("cannot convert to PCN: {e}"))
    }

    /// The game written in `to`.
    pub fn write(&self, to: Format, options: &WriteOptions) -> Result<String, String> {
        if to == Format::Pcn {
            return self.to_pcn();
        }
        let style = |o: &WriteOptions| {
            xiangqi_pgn::MoveStyle::canonical(o.notation.unwrap_or(xiangqi_pgn::Notation::Chinese))
        };
        match (&self.parsed, to) {
            (None, _) => Err("the game could not be read".into()),
            (Some(Parsed::Cescacs(g)), Format::CtlPgn) => {
                let form = if options.minimal {
                    ctl_pgn::Form::Minimal
                } else if options.fan {
                    ctl_pgn::Form::Fan
                } else {
                    ctl_pgn::Form::Canonical
                };
                Ok(ctl_pgn::write_game(&g.0, form))
            }
            (Some(Parsed::Chess(g)), Format::Pgn) => Ok(chess_pgn::to_pgn_string(g)),
            (Some(Parsed::Xiangqi(g)), Format::XiangqiPgn) => {
                Ok(xiangqi_pgn::write_game(g, &style(options)))
            }
            (Some(Parsed::Xiangqi(g)), Format::XiangqiXml) => {
                Ok(xiangqi_pgn::write_xml_game(g, &style(options)))
            }
            (Some(p), to) => {
                let what = match p {
                    Parsed::Cescacs(_) => "a C'escacs game",
                    Parsed::Chess(_) => "a chess game",
                    Parsed::Xiangqi(_) => "a xiangqi game",
                };
                Err(format!("{what} cannot be written as {}", to.name()))
            }
        }
    }

    /// The final board as SVG (C'escacs and xiangqi; `None` for chess).
    pub fn svg(&self) -> Option<String> {
        match &self.parsed {
            Some(Parsed::Cescacs(g)) => Some(cescacs_svg(&g.1)),
            Some(Parsed::Xiangqi(g)) => Some(xiangqi_svg(&g.final_position())),
            _ => None,
        }
    }
}

/// The SVG of a C'escacs position, captioned with its TLPD.
pub fn cescacs_svg(position: &cescacs_rules::Position) -> String {
    let letters = cescacs_rules::Letters::default();
    let men: Vec<board_svg::HexMan> = cescacs_hex::Cell::all()
        .filter_map(|cell| {
            position.piece_at(cell).map(|p| board_svg::HexMan {
                cell,
                letter: letters.letter(p.kind),
                side: if p.side == cescacs_rules::Side::White {
                    board_svg::Side::White
                } else {
                    board_svg::Side::Black
                },
            })
        })
        .collect();
    board_svg::cescacs_svg(&men, None, Some(&cescacs_tlpd::write(position)))
}

fn xiangqi_svg(position: &xiangqi::Position) -> String {
    let men: Vec<board_svg::XiangqiMan> = xiangqi::Square::all()
        .filter_map(|sq| {
            position.piece_at(sq).map(|p| board_svg::XiangqiMan {
                file: sq.file(),
                rank: sq.rank(),
                letter: p.fen_char(),
            })
        })
        .collect();
    board_svg::xiangqi_svg(&men, None, Some(&position.to_fen()))
}

/// Reads and replays one raw game of `format`. A PCN input may hold several documents
/// (a JSON array, JSON Lines): one record each.
pub fn read(format: Format, raw: &RawGame) -> Vec<Record> {
    if let Some(outcome) =
        cescacs_batch::oversized(raw, cescacs_batch::Options::default().max_game_bytes)
    {
        return vec![Record::failed(format, outcome.diagnostics)];
    }
    match format {
        Format::CtlPgn => vec![match utf8(&raw.bytes) {
            Ok(text) => cescacs_record(Format::CtlPgn, text, false),
            Err(d) => Record::failed(format, vec![d]),
        }],
        Format::Pgn => vec![chess_record(&raw.bytes)],
        Format::XiangqiPgn => vec![xiangqi_record(&raw.bytes)],
        Format::Pcn => pcn_records(&raw.bytes),
        Format::XiangqiXml => vec![Record::failed(
            format,
            vec![diag(Severity::Error, 1, 1, "xiangqi XML is an output format only")],
        )],
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, GameDiagnostic> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = &bytes[..e.valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        let col = good.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
        diag(
            Severity::Error,
            line,
            col,
            format!(
                "expected UTF-8 text, found byte 0x{:02X}",
                bytes[e.valid_up_to()]
            ),
        )
    })
}

fn cescacs_record(format: Format, text: &str, strict: bool) -> Record {
    let mut records = ctl_pgn::replay::replay("", text, ctl_pgn::replay::Options { strict });
    let mut diagnostics = Vec::new();
    if records.len() > 1 {
        diagnostics.push(diag(
            Severity::Warning,
            1,
            1,
            "the splitter and the CTL-PGN reader disagree on game boundaries",
        ));
    }
    if records.is_empty() {
        return Record::failed(
            format,
            vec![diag(Severity::Error, 1, 1, "expected a game, found no movetext")],
        );
    }
    let record = records.swap_remove(0);
    for d in &record.diagnostics {
        let severity = match d.severity {
            ctl_pgn::Severity::Note => continue,
            ctl_pgn::Severity::Warning => Severity::Warning,
            ctl_pgn::Severity::Error => Severity::Error,
        };
        diagnostics.push(diag(
            severity,
            u64::from(d.line),
            u64::from(d.col),
            d.message.clone(),
        ));
    }
    let mut out = Record::failed(format, diagnostics);
    if let Some(game) = &record.game {
        out.tags = game
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        out.moves = game
            .main
            .items
            .iter()
            .filter_map(|item| match item {
                ctl_pgn::Item::Move(m) => text.get(m.span.start..m.span.end).map(str::to_string),
                _ => None,
            })
            .collect();
        out.result = game.result.map(|r| r.as_str().to_string());
    }
    if out.is_bad() {
        return out;
    }
    if let (Some(game), Some(position)) = (record.game, record.position) {
        out.final_position = Some(cescacs_tlpd::write(&position));
        out.parsed = Some(Parsed::Cescacs(Box::new((game, position))));
    } else {
        out.diagnostics.push(diag(
            Severity::Error,
            1,
            1,
            "the record could not be replayed",
        ));
    }
    out
}

fn chess_outcome(o: chess_pgn::Outcome) -> &'static str {
    match o {
        chess_pgn::Outcome::WhiteWins => "1-0",
        chess_pgn::Outcome::BlackWins => "0-1",
        chess_pgn::Outcome::Draw => "1/2-1/2",
        chess_pgn::Outcome::Unknown => "*",
    }
}

fn chess_record(bytes: &[u8]) -> Record {
    let mut games = chess_pgn::Games::new(bytes);
    let game = match games.next() {
        None => {
            return Record::failed(
                Format::Pgn,
                vec![diag(Severity::Error, 1, 1, "expected a game, found no movetext")],
            );
        }
        Some(Err(e)) => {
            let at = e.at().unwrap_or_default();
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
            return Record::failed(
                Format::Pgn,
                vec![diag(
                    Severity::Error,
                    u64::from(at.line),
                    u64::from(at.col),
                    reason,
                )],
            );
        }
        Some(Ok(g)) => g,
    };
    let mut diagnostics: Vec<GameDiagnostic> = game
        .diagnostics
        .iter()
        .map(|d| {
            let severity = match d.severity {
                chess_pgn::model::Severity::Error => Severity::Error,
                chess_pgn::model::Severity::Warning => Severity::Warning,
            };
            diag(
                severity,
                u64::from(d.at.line),
                u64::from(d.at.col),
                d.message.clone(),
            )
        })
        .collect();
    if games.next().is_some() {
        diagnostics.push(diag(
            Severity::Warning,
            1,
            1,
            "the splitter and the PGN reader disagree on game boundaries",
        ));
    }
    chess_from_game(game, diagnostics)
}

fn chess_from_game(game: chess_pgn::Game, diagnostics: Vec<GameDiagnostic>) -> Record {
    let mut out = Record::failed(Format::Pgn, diagnostics);
    out.tags = game.tags.clone();
    out.moves = game.moves.moves.iter().map(|n| n.san.to_string()).collect();
    out.result = Some(chess_outcome(game.outcome).to_string());
    if !out.is_bad() {
        out.final_position = Some(game.final_board().to_string());
        out.parsed = Some(Parsed::Chess(Box::new(game)));
    }
    out
}

fn xiangqi_record(bytes: &[u8]) -> Record {
    let file = xiangqi_pgn::read_bytes(bytes, "");
    let mut diagnostics: Vec<GameDiagnostic> = file
        .warnings
        .iter()
        .map(|w| diag(Severity::Warning, w.line as u64, w.col as u64, w.message.clone()))
        .collect();
    let Some(read) = file.games.into_iter().next() else {
        return Record::failed(
            Format::XiangqiPgn,
            vec![diag(Severity::Error, 1, 1, "expected a game, found no movetext")],
        );
    };
    for w in &read.warnings {
        diagnostics.push(diag(
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
        // The reader's message starts with "name:line:col: "; keep only the reason.
        let message = e.to_string();
        let message = message.split_once(": ").map(|(_, m)| m).unwrap_or(&message);
        let message = message.split_once(": ").map(|(_, m)| m).unwrap_or(message);
        diagnostics.push(diag(Severity::Error, line as u64, col as u64, message));
    }
    xiangqi_from_game(read.game, diagnostics)
}

fn xiangqi_from_game(game: xiangqi_pgn::Game, diagnostics: Vec<GameDiagnostic>) -> Record {
    let mut out = Record::failed(Format::XiangqiPgn, diagnostics);
    out.tags = game.tags.clone();
    out.moves = game.line.moves.iter().map(|n| n.source.clone()).collect();
    out.result = (!game.result.is_empty()).then(|| game.result.clone());
    if !out.is_bad() {
        out.final_position = Some(game.final_position().to_fen());
        out.parsed = Some(Parsed::Xiangqi(Box::new(game)));
    }
    out
}

/// One document, a JSON array of documents, or JSON Lines: one record per document.
fn pcn_records(bytes: &[u8]) -> Vec<Record> {
    let failed = |line: u64, col: u64, m: String| {
        Record::failed(Format::Pcn, vec![diag(Severity::Error, line, col, m)])
    };
    let mut slices = Vec::new();
    let mut stream =
        serde_json::Deserializer::from_slice(bytes).into_iter::<serde::de::IgnoredAny>();
    let mut start = 0;
    while let Some(value) = stream.next() {
        if let Err(e) = value {
            return vec![failed(
                e.line() as u64,
                e.column() as u64,
                format!("expected a JSON document: {e}"),
            )];
        }
        let end = stream.byte_offset();
        slices.push(&bytes[start..end]);
        start = end;
    }
    let several = slices.len() > 1;
    let mut out = Vec::new();
    for (n, slice) in slices.into_iter().enumerate() {
        let at = if several {
            format!("document {}: ", n + 1)
        } else {
            String::new()
        };
        let docs = match pcn::from_slice_many(slice) {
            Ok(docs) => docs,
            Err(e) => {
                out.push(failed(1, 1, format!("{at}{e}")));
                continue;
            }
        };
        let in_array = slice.trim_ascii_start().starts_with(b"[");
        for (i, doc) in docs.into_iter().enumerate() {
            let prefix = if in_array {
                format!("{at}[{i}].")
            } else {
                at.clone()
            };
            out.push(pcn_record(doc, &prefix));
        }
    }
    if out.is_empty() {
        out.push(failed(1, 1, "expected a JSON document, found nothing".into()));
    }
    out
}

fn pcn_record(doc: Result<pcn::Game, pcn::ReadError>, prefix: &str) -> Record {
    let failed =
        |m: String| Record::failed(Format::Pcn, vec![diag(Severity::Error, 1, 1, m)]);
    let doc = match doc {
        Ok(d) => d,
        Err(e) => return failed(format!("{prefix}{e}")),
    };
    if let Err(e) = pcn::replay(&doc) {
        return failed(format!("{prefix}{e}"));
    }
    let warnings = |w: Vec<pcn_convert::Warning>| -> Vec<GameDiagnostic> {
        w.into_iter()
            .map(|w| diag(Severity::Warning, 1, 1, format!("{prefix}{w}")))
            .collect()
    };
    let mut record = match doc.starting_position.shape() {
        [169] => match pcn_convert::cescacs::from_pcn(&doc) {
            Ok((game, w)) => {
                // Replayed from its canonical text: the same replay as a CTL-PGN input.
                let text = ctl_pgn::write_game(&game, ctl_pgn::Form::Canonical);
                let mut r = cescacs_record(Format::Pcn, &text, false);
                r.diagnostics.extend(warnings(w));
                r
            }
            Err(e) => failed(format!("{prefix}{e}")),
        },
        [8, 8] => match pcn_convert::chess::from_pcn(&doc) {
            Ok((game, w)) => chess_from_game(game, warnings(w)),
            Err(e) => failed(format!("{prefix}{e}")),
        },
        [10, 9] | [9, 10] | [90] => match pcn_convert::xiangqi::from_pcn(&doc) {
            Ok((game, w)) => xiangqi_from_game(game, warnings(w)),
            Err(e) => failed(format!("{prefix}{e}")),
        },
        _ => failed(format!("{prefix}a PCN board of this shape is not a game we know")),
    };
    record.format = Format::Pcn;
    record
}
