//! One game record in, any other format out: the per-game pipeline of the toolkit.
//!
//! For every pair of formats this crate knows how to take the bytes of **one game**
//! (as cut from its file by [`cescacs_batch::GameSplitter`]), read them with the right
//! format crate, replay the moves with the rules engine, and write the game in the
//! target format, reporting every problem at its line and column and every piece of
//! information the target cannot carry as a warning. The `cescacs` command, the Python
//! package and any other front end use it, so they all give the same answers.
//!
//! * [`Format`], [`detect`] and [`sniff`]: which format some bytes hold.
//! * [`Record`]: one game read and replayed, in any format, with its tags, moves,
//!   result, final position, diagnostics, PCN form and picture.
//! * [`Converter`]: the function `cescacs_batch::run` applies to every game
//!   (check only, or convert), plus the framing around the outputs ([`OutputFraming`]).
//!
//! ```
//! use cescacs_convert::{Converter, Format, Options, Record};
//!
//! let pgn = b"[Event \"Casual\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
//! let record = Record::from_bytes(Format::Pgn, pgn);
//! assert!(record.errors().is_empty() && record.is_checkmate() == Some(true));
//! assert_eq!(record.main_line()[6], "Qxf7#");
//!
//! // The same game as PCN JSON, through the converter `cescacs convert` uses.
//! let converter = Converter::new(Format::Pgn, Some(Format::Pcn), Options::default()).unwrap();
//! let outcome = converter.convert(&cescacs_convert::raw_game(pgn));
//! assert!(!outcome.is_bad() && outcome.output.starts_with(b"{"));
//! ```
//!
//! Limits: a game is handled in memory; `cescacs_batch` refuses games larger than its
//! `max_game_bytes` before they reach this crate. Every reader here is linear in the
//! size of the game.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod annotate;
mod boards;
mod cescacs;
mod chess;
mod codes;
mod criteria;
mod eco;
mod format;
mod inputs;
mod jobs;
mod layout;
mod pcn_input;
mod ply_columns;
pub use pcn_input::MAX_PCN_DOCUMENT_BYTES;
mod edit;
mod picture;
mod positions;
mod record;
mod rows;
mod select;
mod strip;
mod tree;
mod xiangqi;

pub use annotate::{Annotate, FixedResult, fixed_result, game_hash, set_tag_lines};
pub use boards::{
    chess_fen, chess_legal_moves, chess_move, chess_perft, xiangqi_legal_moves, xiangqi_move,
};
/// The board picture of a C'escacs position (what [`Record::svg`] draws for C'escacs).
pub use cescacs::svg as cescacs_svg;
pub use cescacs_batch::{GameDiagnostic, GameOutcome, RawGame, Severity};
/// The chess board type of [`chess_fen`], [`chess_move`] and the other chess helpers is
/// cozy-chess's, re-exported (with the FEN reader and castling style they take) so that a
/// front end names the very version this crate was built with. [`GameHeaders`] is the
/// classic PGN tag-section scanner a headers-only front end reads with.
pub use chess_pgn::{CastlingStyle, GameHeaders, cozy_chess, parse_fen};
pub use codes::DIAGNOSTIC_CODES;
pub use criteria::{Compare, Criteria, TagCriterion, read_criteria};
pub use eco::{EcoRange, Opening, game_opening, opening_at, openings, record_opening};
pub use edit::EditError;
pub use format::{
    Format, GameKind, UnknownFormat, detect, is_game_file, sniff, without_compression,
};
pub use inputs::{InputList, InputStream, Inputs, detection_name, open_inputs};
pub use jobs::{
    converters, final_position_line, no_match_note, selection_framing, selection_summary,
    selections,
};
pub use layout::Layout;
pub use picture::{PictureError, chess_diagram, chess_svg, xiangqi_diagram, xiangqi_svg};
pub use positions::{BoardPattern, BoardTest, Material, after_moves};
pub use record::{Game, Record, WriteError, Written};
pub use rows::DirectRow;
pub use select::{
    Filter, Glob, SelectedWriter, Selection, SelectionExtras, SplitBy, Target, Verdict, headers,
};
pub use strip::{Strip, StripError};
pub use tree::{
    MoveTree, Node, PlyMove, Position as TreePosition, Score, Spelling, TreeError, move_tree,
};

/// How xiangqi moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum XiangqiNotation {
    /// Chinese vertical-line notation (`炮二平五`), the default.
    #[default]
    Chinese,
    /// WXF (`C2.5`).
    Wxf,
    /// ICCS coordinates (`h2e2`).
    Iccs,
}

impl XiangqiNotation {
    /// The name on the command line: `chinese`, `wxf`, `iccs`.
    pub fn name(self) -> &'static str {
        match self {
            XiangqiNotation::Chinese => "chinese",
            XiangqiNotation::Wxf => "wxf",
            XiangqiNotation::Iccs => "iccs",
        }
    }

    pub(crate) fn style(self) -> xiangqi_pgn::MoveStyle {
        xiangqi_pgn::MoveStyle::canonical(match self {
            XiangqiNotation::Chinese => xiangqi_pgn::Notation::Chinese,
            XiangqiNotation::Wxf => xiangqi_pgn::Notation::Wxf,
            XiangqiNotation::Iccs => xiangqi_pgn::Notation::Iccs,
        })
    }
}

impl std::str::FromStr for XiangqiNotation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        [Self::Chinese, Self::Wxf, Self::Iccs]
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown xiangqi notation {s:?}: expected chinese, wxf or iccs"))
    }
}

/// How classic chess moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
#[non_exhaustive]
pub enum ChessNotation {
    /// Standard algebraic notation (`Nf3`, `exd5`, `O-O`), the PGN export form.
    #[default]
    San,
    /// Long algebraic notation (`Ng1-f3`, `Bf1xb5+`, `e7-e8=Q`, castling `O-O`), as
    /// python-chess's `Board.lan()` writes it.
    Lan,
    /// UCI coordinates (`g1f3`, `e7e8q`; castling `e1g1`, king takes rook in
    /// Chess960), as python-chess's `Move.uci()` writes it.
    Uci,
}

impl ChessNotation {
    /// The name on the command line: `san`, `lan`, `uci`.
    pub fn name(self) -> &'static str {
        match self {
            ChessNotation::San => "san",
            ChessNotation::Lan => "lan",
            ChessNotation::Uci => "uci",
        }
    }

    pub(crate) fn write_options(self) -> chess_pgn::WriteOptions {
        chess_pgn::WriteOptions {
            notation: match self {
                ChessNotation::San => chess_pgn::Notation::San,
                ChessNotation::Lan => chess_pgn::Notation::Lan,
                ChessNotation::Uci => chess_pgn::Notation::Uci,
            },
            ..chess_pgn::WriteOptions::default()
        }
    }
}

impl std::str::FromStr for ChessNotation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        [Self::San, Self::Lan, Self::Uci]
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown chess notation {s:?}: expected san, lan or uci"))
    }
}

/// Why a `--notation` name does not fit the target format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "notation {name:?} cannot be used for {to} output: {}",
    match to {
        Format::Pgn => "pgn takes san, lan or uci",
        Format::XiangqiPgn | Format::XiangqiXml => "xiangqi output takes chinese, wxf or iccs",
        _ => "only pgn (san, lan, uci) and xiangqi-pgn/xiangqi-xml (chinese, wxf, iccs) output have a choice of move notation",
    }
)]
pub struct NotationError {
    /// The name as given.
    pub name: String,
    /// The target format.
    pub to: Format,
}

/// What the writers are asked for, and how strict the readers are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Move notation of xiangqi PGN and XML output.
    pub xiangqi_notation: XiangqiNotation,
    /// Move notation of classic PGN output.
    pub chess_notation: ChessNotation,
    /// CTL-PGN output with FAN (Unicode) piece symbols.
    pub fan: bool,
    /// CTL-PGN output for a minimal reader: no comments, variations or `Redefine`
    /// (takes precedence over `fan`).
    pub minimal: bool,
    /// PCN output as JSON Lines (one document per line) instead of one JSON array.
    pub json_lines: bool,
    /// Tolerated irregularities (old check markers, a missing result, …) and every
    /// warning, loss warnings included, count as errors.
    pub strict: bool,
    /// What is removed from each game before it is written, in every target format
    /// (comments, variations, NAGs, clock commands, tags); removing is asked for, so
    /// it gives no loss warning.
    pub strip: Strip,
    /// Tags added to each game written (`--eco`, `--plycount`, `--hash`,
    /// `--fix-results`).
    pub annotate: Annotate,
    /// Layout and cuts of each game written (`--fen-comments`, `--ply-limit`,
    /// `--line-length`, `--no-move-numbers`, `--no-results`, `--split-variations`).
    pub layout: Layout,
}

impl Options {
    /// Sets the move notation of `to`'s output from its name (`san`, `lan`, `uci`
    /// for classic PGN; `chinese`, `wxf`, `iccs` for xiangqi PGN and XML; any case).
    /// A name that is not one of the target's is an error, as is any name for a
    /// target with a single notation (CTL-PGN, PCN): it would have no effect.
    ///
    /// ```
    /// use cescacs_convert::{ChessNotation, Format, Options};
    /// let mut options = Options::default();
    /// options.set_notation(Format::Pgn, "uci").unwrap();
    /// assert_eq!(options.chess_notation, ChessNotation::Uci);
    /// let err = options.set_notation(Format::XiangqiPgn, "lan").unwrap_err();
    /// assert_eq!(err.to_string(), "notation \"lan\" cannot be used for xiangqi-pgn output: xiangqi output takes chinese, wxf or iccs");
    /// ```
    pub fn set_notation(&mut self, to: Format, name: &str) -> Result<(), NotationError> {
        let bad = || NotationError {
            name: name.to_string(),
            to,
        };
        match to {
            Format::Pgn => self.chess_notation = name.parse().map_err(|_| bad())?,
            Format::XiangqiPgn | Format::XiangqiXml => {
                self.xiangqi_notation = name.parse().map_err(|_| bad())?;
            }
            Format::CtlPgn | Format::Pcn => return Err(bad()),
        }
        Ok(())
    }

    pub(crate) fn ctl_form(&self) -> ctl_pgn::Form {
        if self.minimal {
            ctl_pgn::Form::Minimal
        } else if self.fan {
            ctl_pgn::Form::Fan
        } else {
            ctl_pgn::Form::Canonical
        }
    }
}

/// Why a [`Converter`] cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input format is written but never read (xiangqi XML).
    #[error("{0} is an output format only")]
    OutputOnly(Format),
    /// The two formats record different games (chess to CTL-PGN, …).
    #[error("cannot convert a {} record to {to}: they are different games", .from.name())]
    DifferentGames {
        /// The game the input records.
        from: GameKind,
        /// The format asked for.
        to: Format,
    },
}

/// What surrounds the per-game outputs of a conversion: written before the first
/// game, between two games and after the last (a JSON array for PCN, the document
/// element for xiangqi XML, nothing for the PGN formats).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutputFraming {
    /// Before the first game's output.
    pub header: Vec<u8>,
    /// Between two outputs.
    pub separator: Vec<u8>,
    /// After the last output.
    pub footer: Vec<u8>,
}

impl OutputFraming {
    /// The framing of a target format with these options (empty for no target).
    pub fn of(to: Option<Format>, options: &Options) -> OutputFraming {
        let parts = |h: &[u8], s: &[u8], f: &[u8]| OutputFraming {
            header: h.to_vec(),
            separator: s.to_vec(),
            footer: f.to_vec(),
        };
        match to {
            Some(Format::Pcn) if options.json_lines => parts(b"", b"\n", b"\n"),
            Some(Format::Pcn) => parts(b"[\n", b",\n", b"\n]\n"),
            Some(Format::XiangqiXml) => {
                let style = options.xiangqi_notation.style();
                let empty = xiangqi_pgn::write_xml(std::iter::empty(), &style);
                // The document wrapper is what the writer puts around zero games.
                match empty.find("</") {
                    Some(close) if empty[..close].contains('>') => {
                        parts(&empty.as_bytes()[..close], b"", &empty.as_bytes()[close..])
                    }
                    _ => OutputFraming::default(),
                }
            }
            _ => OutputFraming::default(),
        }
    }
}

/// The per-game function of a run: checks, or converts, one game of one input format.
///
/// It is `Sync` and cheap to share: `cescacs_batch::run` calls [`Converter::convert`]
/// from every worker thread.
#[derive(Debug, Clone)]
pub struct Converter {
    from: Format,
    to: Option<Format>,
    options: Options,
}

impl Converter {
    /// A converter from `from` to `to`, or a checker when `to` is `None`. Refuses the
    /// pairs that cannot work whatever the input: reading xiangqi XML, and formats of
    /// different games (PCN converts to and from every game; the game a PCN document
    /// records is known only per document, so a mismatch there is a per-game error).
    ///
    /// ```
    /// use cescacs_convert::{Converter, Format, Options};
    /// let err = Converter::new(Format::Pgn, Some(Format::CtlPgn), Options::default()).unwrap_err();
    /// assert_eq!(err.to_string(), "cannot convert a chess record to ctl-pgn: they are different games");
    /// ```
    pub fn new(
        from: Format,
        to: Option<Format>,
        options: Options,
    ) -> Result<Converter, ConvertError> {
        if !from.is_input() {
            return Err(ConvertError::OutputOnly(from));
        }
        if let (Some(a), Some(to)) = (from.game(), to)
            && let Some(b) = to.game()
            && a != b
        {
            return Err(ConvertError::DifferentGames { from: a, to });
        }
        Ok(Converter { from, to, options })
    }

    /// The input format.
    pub fn from(&self) -> Format {
        self.from
    }

    /// The output format (`None`: check only).
    pub fn to(&self) -> Option<Format> {
        self.to
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// How inputs of this converter's format are cut into games, for a file of this
    /// name (`-` for standard input): PGN-like files at game boundaries, `.jsonl`
    /// files at lines (one bad document is one bad game), other JSON whole.
    pub fn framing(&self, name: &str) -> cescacs_batch::Framing {
        input_framing(self.from, name)
    }

    /// What surrounds the per-game outputs (see [`OutputFraming::of`]).
    pub fn output_framing(&self) -> OutputFraming {
        OutputFraming::of(self.to, &self.options)
    }

    /// Reads, replays and (when a target is set) writes one game. A game whose outcome
    /// has an error has no output; warnings include everything the target format
    /// could not carry. Never panics, whatever the bytes.
    pub fn convert(&self, game: &RawGame) -> GameOutcome {
        if let Some(outcome) =
            cescacs_batch::oversized(game, cescacs_batch::Options::default().max_game_bytes)
        {
            return outcome;
        }
        let mut outcome = if self.to.is_none() && self.from == Format::Pgn && game.problem.is_none()
        {
            // Checking classic PGN needs no game model: the same diagnostics without
            // building it (see `chess::check`).
            GameOutcome {
                output: Vec::new(),
                diagnostics: chess::check(game),
            }
        } else if self.from == Format::Pgn
            && self.to == Some(Format::Pcn)
            && self.options.strip.is_empty()
            && self.options.annotate.is_empty()
            && self.options.layout.is_empty()
            && let Some(outcome) = record::direct_pcn(game)
        {
            outcome
        } else if self.from == Format::Pgn
            && self.to == Some(Format::Pgn)
            && self.options.chess_notation == ChessNotation::San
            && self.options.strip.is_empty()
            && self.options.annotate.is_empty()
            && self.options.layout.is_empty()
            && let Some(outcome) = record::direct_pgn(game)
        {
            // The export form written as the reader reads (see `chess_pgn::export_pgn`).
            outcome
        } else {
            return self.strict(self.through_records(game));
        };
        // The paths that bypass the records see the cut end here.
        if let Some(cut) = cut_short(self.from, game) {
            outcome.output.clear();
            outcome.diagnostics.push(cut);
        }
        self.strict(outcome)
    }

    /// `outcome` with every warning an error under `--strict`.
    fn strict(&self, mut outcome: GameOutcome) -> GameOutcome {
        if self.options.strict {
            for d in &mut outcome.diagnostics {
                d.severity = Severity::Error;
            }
        }
        outcome
    }

    /// [`Converter::convert`] through the game model: read every record of `game`,
    /// write those without errors.
    fn through_records(&self, game: &RawGame) -> GameOutcome {
        let mut records = Record::read_all_with(self.from, game, &self.options);
        let layout = self.options.layout;
        if self.to.is_some() {
            for r in &mut records {
                // Cut and commented first: the tags added describe the game written.
                // (What `--strip` removes goes before: the position comments stay.)
                if layout.changes_model() && !r.has_errors() {
                    *r = layout.apply(&r.stripped(self.options.strip));
                }
                // Said before the tags are set: setting them settles the disagreement.
                let warnings = self.options.annotate.warnings(r);
                self.options.annotate.apply(r);
                r.diagnostics.extend(warnings);
            }
            if self.options.layout.split_variations {
                records = records
                    .into_iter()
                    .flat_map(|r| match r.has_errors() {
                        true => vec![r],
                        false => layout::split_variations(r),
                    })
                    .collect();
            }
        }
        let write_options = match layout.changes_model() {
            true => std::borrow::Cow::Owned(Options {
                layout: layout.written_only(),
                strip: Strip::NONE,
                ..self.options.clone()
            }),
            false => std::borrow::Cow::Borrowed(&self.options),
        };
        let mut outcome = GameOutcome::default();
        let mut outputs = Vec::new();
        for record in &records {
            let prefix = record.location();
            let start = outcome.diagnostics.len();
            outcome
                .diagnostics
                .extend(record.diagnostics().iter().cloned());
            if !record.has_errors()
                && let Some(to) = self.to
            {
                match record.write_bytes(to, &write_options) {
                    Ok((text, warnings)) => {
                        outcome.diagnostics.extend(warnings);
                        outputs.push(text);
                    }
                    Err(e) => outcome.diagnostics.push(e.diagnostic()),
                }
            }
            if !prefix.is_empty() {
                for d in &mut outcome.diagnostics[start..] {
                    d.message.insert_str(0, prefix);
                }
            }
        }
        // Several outputs come from one PCN input holding several documents.
        let separator = match self.to {
            Some(Format::Pcn) if self.options.json_lines => "\n",
            Some(Format::Pcn) => ",\n",
            _ => "",
        };
        outcome.output = match outputs.len() {
            0 => Vec::new(),
            1 => outputs.swap_remove(0),
            _ => outputs.join(separator.as_bytes()),
        };
        outcome
    }
}

/// How inputs of `format` are cut into games, for a file of this name.
pub fn input_framing(format: Format, name: &str) -> cescacs_batch::Framing {
    match format {
        Format::Pcn if name.to_ascii_lowercase().ends_with(".jsonl") => {
            cescacs_batch::Framing::Lines
        }
        // Array elements and top-level documents one by one, streaming, any file size.
        Format::Pcn => cescacs_batch::Framing::Json,
        _ => cescacs_batch::Framing::Pgn,
    }
}

/// A [`RawGame`] holding these bytes as game 1 of its input (for callers that have
/// one game in memory rather than a file to split).
pub fn raw_game(bytes: &[u8]) -> RawGame {
    RawGame {
        index: 1,
        line: 1,
        column: 1,
        offset: 0,
        bytes: bytes.to_vec(),
        truncated: false,
        problem: None,
    }
}

/// The results a game text can end with, in the three PGN-like formats (classic and
/// xiangqi PGN; C'escacs's `3-0` … `0-3`).
const RESULT_TOKENS: [&[u8]; 12] = [
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    "½-½".as_bytes(),
    b"1/2",
    b"=-=",
    b"*",
    b"3-0",
    b"2-1",
    b"1-1",
    b"1-2",
    b"0-3",
];

/// An input cut in the middle of its last game (an interrupted download): the game
/// ends mid-line (only the last game of an input can: the others end where the next
/// one's tag line starts) and neither with a result nor with a move marked mate. It is an error, located at the cut,
/// so that the game is not written as if it were complete (docs/io.md).
pub(crate) fn cut_short(format: Format, game: &RawGame) -> Option<GameDiagnostic> {
    if !matches!(format, Format::Pgn | Format::XiangqiPgn | Format::CtlPgn)
        || game.problem.is_some()
    {
        return None;
    }
    let bytes = &game.bytes;
    if bytes.last().is_none_or(|&b| b == b'\n' || b == b'\r') {
        return None;
    }
    let last = bytes
        .split(u8::is_ascii_whitespace)
        .rfind(|t| !t.is_empty())?;
    // A last move marked mate (`#`, as real C'escacs records end) finishes the game.
    if RESULT_TOKENS.contains(&last) || last.ends_with(b"#") {
        return None;
    }
    let line = 1 + memchr::memchr_iter(b'\n', bytes).count() as u64;
    let tail = memchr::memrchr(b'\n', bytes).map_or(&bytes[..], |n| &bytes[n + 1..]);
    let column = 1 + String::from_utf8_lossy(tail).chars().count() as u64;
    Some(diag(
        codes::TRUNCATED,
        Severity::Error,
        line,
        column,
        "the input ends in the middle of this game (a cut line, no result marker): \
         it looks truncated, so the game is not written as complete",
    ))
}

/// A diagnostic at a game-relative line and column (clamped to 1).
pub(crate) fn diag(
    code: &'static str,
    severity: Severity,
    line: u64,
    column: u64,
    message: impl Into<String>,
) -> GameDiagnostic {
    GameDiagnostic {
        severity,
        line: line.max(1),
        column: column.max(1),
        // Every reader's message passes here on its way to a terminal or a report.
        message: escape_message(message.into()),
        code,
    }
}

/// `message` with its control characters escaped (issue 26, case 9).
fn escape_message(message: String) -> String {
    match pgn_core::escape_controls(&message) {
        std::borrow::Cow::Borrowed(_) => message,
        std::borrow::Cow::Owned(escaped) => escaped,
    }
}

/// A warning about the whole game (1:1).
pub(crate) fn warning(code: &'static str, message: impl Into<String>) -> GameDiagnostic {
    diag(code, Severity::Warning, 1, 1, message)
}

/// An error about the whole game (1:1).
pub(crate) fn error(code: &'static str, message: impl Into<String>) -> GameDiagnostic {
    diag(code, Severity::Error, 1, 1, message)
}

/// Shortens a text for a message.
pub(crate) fn excerpt(s: &str) -> String {
    let flat: Vec<&str> = s.split_whitespace().collect();
    let flat = flat.join(" ");
    if flat.chars().count() <= 40 {
        flat
    } else {
        format!("{}…", flat.chars().take(40).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_pairs_are_refused() {
        let o = Options::default;
        assert!(Converter::new(Format::CtlPgn, Some(Format::Pgn), o()).is_err());
        assert!(Converter::new(Format::XiangqiPgn, Some(Format::CtlPgn), o()).is_err());
        assert_eq!(
            Converter::new(Format::XiangqiXml, None, o()).unwrap_err(),
            ConvertError::OutputOnly(Format::XiangqiXml)
        );
        assert!(Converter::new(Format::XiangqiPgn, Some(Format::XiangqiXml), o()).is_ok());
        assert!(Converter::new(Format::Pcn, Some(Format::Pgn), o()).is_ok());
        assert!(Converter::new(Format::Pgn, None, o()).is_ok());
    }

    #[test]
    fn framings() {
        let f = OutputFraming::of(Some(Format::Pcn), &Options::default());
        assert_eq!(f.header, b"[\n");
        let x = OutputFraming::of(Some(Format::XiangqiXml), &Options::default());
        assert!(String::from_utf8(x.header).unwrap().contains('<'));
        assert_eq!(
            input_framing(Format::Pcn, "a.JSONL"),
            cescacs_batch::Framing::Lines
        );
    }
}
