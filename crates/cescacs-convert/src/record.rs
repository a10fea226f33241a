//! One game read and replayed, whatever its format.

use crate::{Format, GameKind, Options, Severity, Strip, error, raw_game};
use cescacs_batch::{GameDiagnostic, RawGame};

/// The largest size hint for the next document's buffer: one huge document does not
/// inflate every later buffer for the rest of the run.
const SIZE_HINT_CAP: usize = 1 << 20;

thread_local! {
    static LAST_OUTPUT_LEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `f` on an empty buffer sized from the last document this thread wrote, and
/// returns the buffer as the output: written in place and handed on without a copy
/// (documents run to several times the size of their games), it seldom grows, since
/// the games of one file have documents of much the same size.
fn with_output<T>(f: impl FnOnce(&mut Vec<u8>) -> T) -> (Vec<u8>, T) {
    let last = LAST_OUTPUT_LEN.get().min(SIZE_HINT_CAP);
    let mut buf = Vec::with_capacity(last + last / 4);
    let result = f(&mut buf);
    // A declined document leaves nothing: the hint stays that of the last one written.
    if !buf.is_empty() {
        LAST_OUTPUT_LEN.set(buf.len());
    }
    (buf, result)
}

/// `convert --to pcn` of one classic PGN game without a game model, when
/// `pcn_convert::chess::write_pcn_from_pgn` takes the game: the outcome
/// [`crate::Converter::convert`] would give (the same document, no diagnostic).
/// `None` sends the game down the model path (a game the splitter flagged, anything
/// the model reader would report, a document over the size a reader accepts).
pub(crate) fn direct_pcn(game: &RawGame) -> Option<cescacs_batch::GameOutcome> {
    if game.problem.is_some() {
        return None;
    }
    // The bytes go out as they are: serde_json writes UTF-8 only, and the direct
    // writer's own bytes are ASCII.
    let (output, written) = with_output(|buf| {
        pcn_convert::chess::write_pcn_from_pgn(&game.bytes, buf)
            && buf.len() <= crate::MAX_PCN_DOCUMENT_BYTES
    });
    if !written {
        return None;
    }
    Some(cescacs_batch::GameOutcome {
        output,
        diagnostics: Vec::new(),
    })
}

/// `convert --to pgn` of one classic PGN game without a game model, when
/// `chess_pgn::export_pgn_bytes` takes the game: the outcome [`crate::Converter::convert`]
/// would give (the same text, no diagnostic). `None` sends the game down the model
/// path (a game the splitter flagged, anything the model reader would report).
pub(crate) fn direct_pgn(game: &RawGame) -> Option<cescacs_batch::GameOutcome> {
    if game.problem.is_some() {
        return None;
    }
    let (output, written) = with_output(|buf| chess_pgn::export_pgn_bytes(&game.bytes, buf));
    if !written {
        return None;
    }
    Some(cescacs_batch::GameOutcome {
        output,
        diagnostics: Vec::new(),
    })
}

/// A game in the model of the format crate that reads it.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Game {
    /// A C'escacs record (read from CTL-PGN, or from a PCN document of the hex board).
    Cescacs {
        /// The record as read.
        record: ctl_pgn::Game,
        /// The position after the last main-line move that could be played.
        position: Option<cescacs_rules::Position>,
        /// Main-line half-moves played.
        plies: usize,
        /// The first main-line half-moves as the reader's replay resolved them (empty
        /// for a game decoded from PCN): the PCN writer plays them without resolving.
        moves: Vec<cescacs_rules::Move>,
    },
    /// A classic chess game.
    Chess(chess_pgn::Game),
    /// A xiangqi game.
    Xiangqi(xiangqi_pgn::Game),
    /// A PCN document of a board none of the rules engines plays (it was replayed by
    /// the rules-free PCN replayer only).
    Pcn(pcn::Game),
}

impl Game {
    /// Which game this is; `None` for a PCN document of an unknown board.
    pub fn kind(&self) -> Option<GameKind> {
        match self {
            Game::Cescacs { .. } => Some(GameKind::Cescacs),
            Game::Chess(_) => Some(GameKind::Chess),
            Game::Xiangqi(_) => Some(GameKind::Xiangqi),
            Game::Pcn(_) => None,
        }
    }

    /// "a C'escacs game", … for messages.
    fn what(&self) -> &'static str {
        match self {
            Game::Cescacs { .. } => "a C'escacs game",
            Game::Chess(_) => "a chess game",
            Game::Xiangqi(_) => "a xiangqi game",
            Game::Pcn(_) => "an unknown board",
        }
    }
}

/// One game of any format, read and replayed: its tags, main line, result and final
/// position, and every problem found, located at a line and column relative to the
/// game's first line.
///
/// A record exists even when the game could not be read: [`Record::errors`] then says
/// why, and the accessors return what was read before the error (or nothing).
///
/// ```
/// use cescacs_convert::{Format, Options, Record};
///
/// let ctl = "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n*\n";
/// let record = Record::from_bytes(Format::CtlPgn, ctl.as_bytes());
/// assert_eq!(record.main_line(), ["E7-E9", "E21-E19"]);
/// assert!(record.final_position().unwrap().ends_with(" w RKRrkr - 0 2"));
/// let pcn = record.write(Format::Pcn, &Options::default()).unwrap();
/// assert!(pcn.text.starts_with('{') && pcn.warnings.is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct Record {
    pub(crate) format: Format,
    pub(crate) location: String,
    pub(crate) game: Option<Game>,
    /// The document a PCN input held, written back as it is when the target is PCN.
    pub(crate) source_pcn: Option<pcn::Game>,
    /// What converting the PCN document to the engine's model could not carry;
    /// reported when the record is written in a format other than PCN.
    pub(crate) pcn_warnings: Vec<GameDiagnostic>,
    pub(crate) diagnostics: Vec<GameDiagnostic>,
    /// A chess game's board after its main line, as the reader's replay left it (so
    /// that [`Record::final_position`] does not replay the game again). Whatever
    /// changes the main line of `game` clears it (see [`Record::game_mut`]).
    pub(crate) chess_final_board: Option<chess_pgn::cozy_chess::Board>,
}

/// A game written in a target format, with what the target could not carry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// The game in the target format (for PCN: one compact JSON document).
    pub text: String,
    /// One warning per item the target format dropped or changed.
    pub warnings: Vec<GameDiagnostic>,
}

/// Why a record cannot be written in a format.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The record has errors; a bad game is never written.
    #[error("the game has errors and is not written")]
    HasErrors,
    /// The target format records another game.
    #[error("{what} cannot be written as {to}")]
    CannotWrite {
        /// `a C'escacs game`, `a chess game`, …
        what: &'static str,
        /// The format asked for.
        to: Format,
    },
    /// Making the PCN document failed.
    #[error("cannot convert to PCN: {0}")]
    ToPcn(pcn_convert::ConvertError),
}

impl WriteError {
    /// The error as a diagnostic of the game (at 1:1).
    pub fn diagnostic(&self) -> GameDiagnostic {
        error(crate::codes::WRITE, self.to_string())
    }
}

impl Record {
    pub(crate) fn new(format: Format) -> Record {
        Record {
            format,
            location: String::new(),
            game: None,
            source_pcn: None,
            pcn_warnings: Vec::new(),
            diagnostics: Vec::new(),
            chess_final_board: None,
        }
    }

    /// The game model, to change: the final board kept from the read is dropped, since
    /// the main line may change.
    pub(crate) fn game_mut(&mut self) -> &mut Option<Game> {
        self.chess_final_board = None;
        &mut self.game
    }

    /// A chess game's board after its main line: the one the read left when it is
    /// still there, else replayed.
    fn chess_final_board(&self, g: &chess_pgn::Game) -> chess_pgn::cozy_chess::Board {
        match &self.chess_final_board {
            Some(b) => {
                debug_assert_eq!(*b, g.final_board(), "the kept final board is stale");
                b.clone()
            }
            None => g.final_board(),
        }
    }

    /// A chess game's FEN after its main line (as [`chess_pgn::Game::final_fen`]).
    fn chess_final_fen(&self, g: &chess_pgn::Game) -> String {
        match &self.chess_final_board {
            // The board's clock stops at 100 but equals the game's below that (both
            // reset on the same moves), so the FEN as the board writes it is the one
            // with the exact clock; at 100 the game's own count is needed.
            Some(b) if b.halfmove_clock() < 100 => {
                debug_assert_eq!(*b, g.final_board(), "the kept final board is stale");
                b.to_string()
            }
            _ => g.final_fen(),
        }
    }

    /// A record that could not be read at all.
    pub(crate) fn failed(format: Format, diagnostic: GameDiagnostic) -> Record {
        let mut r = Record::new(format);
        r.diagnostics.push(diagnostic);
        r
    }

    /// Reads one game of `format` from the bytes the splitter cut (default options).
    ///
    /// A PCN input may hold several documents (a JSON array, or documents one after
    /// another); this returns the first and warns about the others: use
    /// [`Record::read_all`] to get them all.
    pub fn read(format: Format, game: &RawGame) -> Record {
        Record::read_with(format, game, &Options::default())
    }

    /// [`Record::read`] with options: `strict` makes every warning an error (and the
    /// CTL-PGN replay's tolerated irregularities errors in their own words).
    pub fn read_with(format: Format, game: &RawGame, options: &Options) -> Record {
        let mut all = Record::read_all_with(format, game, options);
        let more = all.len().saturating_sub(1);
        let mut first = if all.is_empty() {
            Record::failed(
                format,
                error(crate::codes::NO_GAME, "expected a game, found nothing"),
            )
        } else {
            all.swap_remove(0)
        };
        if more > 0 {
            first.diagnostics.push(crate::warning(
                crate::codes::MORE_GAMES,
                format!(
                    "{more} more game(s) in this input are not read (Record::read_all reads them)"
                ),
            ));
        }
        first
    }

    /// Reads one game from bytes in memory (see [`Record::read`]).
    pub fn from_bytes(format: Format, bytes: &[u8]) -> Record {
        Record::read(format, &raw_game(bytes))
    }

    /// Every game of the input: one for the PGN formats, one per document for PCN.
    /// Never empty.
    pub fn read_all(format: Format, game: &RawGame) -> Vec<Record> {
        Record::read_all_with(format, game, &Options::default())
    }

    /// [`Record::read_all`] with options.
    pub fn read_all_with(format: Format, game: &RawGame, options: &Options) -> Vec<Record> {
        // A game the splitter flagged (an unclosed comment cut at the next game, a game
        // over the size cap) is reported as the splitter saw it, as the batch engine does.
        if let Some(problem) = &game.problem {
            let (line, column, message) = problem.describe();
            let mut r = Record::new(format);
            r.diagnostics = vec![crate::diag(
                problem.code(),
                crate::Severity::Error,
                line,
                column,
                message,
            )];
            return vec![r];
        }
        if let Some(outcome) =
            cescacs_batch::oversized(game, cescacs_batch::Options::default().max_game_bytes)
        {
            let mut r = Record::new(format);
            r.diagnostics = outcome.diagnostics;
            return vec![r];
        }
        let records = match format {
            Format::CtlPgn => vec![crate::cescacs::read(game, options.strict)],
            Format::Pgn => vec![crate::chess::read(game)],
            Format::XiangqiPgn => vec![crate::xiangqi::read(game)],
            Format::Pcn => crate::pcn_input::read(game),
            Format::XiangqiXml => vec![Record::failed(
                format,
                error(
                    crate::codes::OUTPUT_ONLY,
                    "xiangqi XML is an output format only",
                ),
            )],
        };
        let mut records = records;
        if records.is_empty() {
            records.push(Record::failed(
                format,
                error(crate::codes::NO_GAME, "expected a game, found nothing"),
            ));
        }
        if let (Some(cut), Some(last)) = (crate::cut_short(format, game), records.last_mut()) {
            last.diagnostics.push(cut);
        }
        if options.strict {
            for d in records.iter_mut().flat_map(|r| &mut r.diagnostics) {
                d.severity = Severity::Error;
            }
        }
        records
    }

    /// The format the record was read from.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Which game the record holds; `None` when it could not be read, or for a PCN
    /// document of an unknown board.
    pub fn kind(&self) -> Option<GameKind> {
        self.game.as_ref().and_then(Game::kind)
    }

    /// Where the record is within its input when that input holds several (PCN:
    /// `document 2: `, `[3].`); empty otherwise. Converters prefix messages with it.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// The game in its format crate's model (absent when it could not be read).
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Every diagnostic of reading and replaying, in order.
    pub fn diagnostics(&self) -> &[GameDiagnostic] {
        &self.diagnostics
    }

    /// The errors: empty for a valid game.
    pub fn errors(&self) -> Vec<&GameDiagnostic> {
        self.of(Severity::Error)
    }

    /// The warnings: irregularities the readers tolerated.
    pub fn warnings(&self) -> Vec<&GameDiagnostic> {
        self.of(Severity::Warning)
    }

    fn of(&self, severity: Severity) -> Vec<&GameDiagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .collect()
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The tags in record order, names and values as read. Classic PGN keeps the start
    /// position apart from its tags (a `FEN` tag is not listed; see
    /// [`Record::final_position`] and the model's `start`).
    pub fn tags(&self) -> Vec<(String, String)> {
        match &self.game {
            None => Vec::new(),
            Some(Game::Cescacs { record, .. }) => record
                .tags
                .iter()
                .map(|t| (t.name.clone(), t.value.clone()))
                .collect(),
            Some(Game::Chess(g)) => g.tags.clone(),
            Some(Game::Xiangqi(g)) => g.tags.clone(),
            Some(Game::Pcn(doc)) => crate::pcn_input::tags(doc),
        }
    }

    /// The main-line moves: CTL-AN in the record's letters with check markers, SAN for
    /// chess (the export form, with `+`/`#`), xiangqi moves as written in the source
    /// (or in Chinese notation for games built from PCN), PCN moves as JSON.
    pub fn main_line(&self) -> Vec<String> {
        match &self.game {
            None => Vec::new(),
            Some(Game::Cescacs { record, .. }) => crate::cescacs::main_line(record),
            Some(Game::Chess(g)) => g.moves.moves.iter().map(|m| m.san.to_string()).collect(),
            Some(Game::Xiangqi(g)) => crate::xiangqi::main_line(g),
            Some(Game::Pcn(doc)) => crate::pcn_input::main_line(doc),
        }
    }

    /// The result as written (`1-0`, `3-0`, `*`, …); `None` when the record has none.
    pub fn result(&self) -> Option<String> {
        match &self.game {
            None | Some(Game::Pcn(_)) => None,
            Some(Game::Cescacs { record, .. }) => record.result.map(|r| r.as_str().to_string()),
            Some(Game::Chess(g)) => Some(g.outcome.as_str().to_string()),
            Some(Game::Xiangqi(g)) => Some(g.result.clone()),
        }
    }

    /// The position after the last main-line move that was played: TLPD for C'escacs,
    /// FEN for chess and xiangqi; `None` when the game could not be read.
    pub fn final_position(&self) -> Option<String> {
        match &self.game {
            None | Some(Game::Pcn(_)) => None,
            Some(Game::Cescacs { position, .. }) => position.as_ref().map(cescacs_tlpd::write),
            Some(Game::Chess(g)) => Some(self.chess_final_fen(g)),
            Some(Game::Xiangqi(g)) => Some(g.final_position().to_fen()),
        }
    }

    /// Main-line half-moves read (for C'escacs: played).
    pub fn plies(&self) -> usize {
        match &self.game {
            None => 0,
            Some(Game::Cescacs { plies, .. }) => *plies,
            Some(Game::Chess(g)) => g.moves.moves.len(),
            Some(Game::Xiangqi(g)) => g.line.moves.len(),
            Some(Game::Pcn(doc)) => doc.previous_moves.len(),
        }
    }

    /// Whether the final position is checkmate; `None` when unknown (no game, or an
    /// unknown board).
    pub fn is_checkmate(&self) -> Option<bool> {
        self.end().map(|(mate, _)| mate)
    }

    /// Whether the final position is stalemate (the side to move has no legal move and
    /// is not in check); `None` when unknown.
    pub fn is_stalemate(&self) -> Option<bool> {
        self.end().map(|(_, stalemate)| stalemate)
    }

    /// (checkmate, stalemate) of the final position.
    fn end(&self) -> Option<(bool, bool)> {
        match self.game.as_ref()? {
            Game::Cescacs { position, .. } => {
                let status = position.as_ref()?.status();
                Some((
                    status == cescacs_rules::Status::Checkmate,
                    status == cescacs_rules::Status::Stalemate,
                ))
            }
            Game::Chess(g) => Some(crate::chess::end(&self.chess_final_board(g))),
            Game::Xiangqi(g) => {
                let status = g.final_position().status();
                Some((
                    status == xiangqi::Status::Checkmate,
                    status == xiangqi::Status::Stalemate,
                ))
            }
            Game::Pcn(_) => None,
        }
    }

    /// The game as a PCN document (the document itself for a PCN input).
    pub fn to_pcn(&self) -> Result<pcn::Game, WriteError> {
        self.pcn_with_warnings().map(|(doc, _)| doc)
    }

    fn pcn_with_warnings(&self) -> Result<(pcn::Game, Vec<GameDiagnostic>), WriteError> {
        if let Some(doc) = &self.source_pcn {
            return Ok((doc.clone(), Vec::new()));
        }
        let converted = match self.game.as_ref().ok_or(WriteError::HasErrors)? {
            Game::Cescacs { record, moves, .. } => {
                pcn_convert::cescacs::to_pcn_resolved(record, moves)
            }
            Game::Chess(g) => pcn_convert::chess::to_pcn(g),
            Game::Xiangqi(g) => pcn_convert::xiangqi::to_pcn(g),
            Game::Pcn(doc) => return Ok((doc.clone(), Vec::new())),
        };
        let (doc, warnings) = converted.map_err(WriteError::ToPcn)?;
        Ok((
            doc,
            warnings
                .iter()
                .map(|w| crate::warning(crate::codes::DROPPED, w.to_string()))
                .collect(),
        ))
    }

    /// Appends the game's PCN document (compact JSON, the bytes `pcn::to_string` writes
    /// of [`Record::to_pcn`]) to `out`, serialised straight from the game model where
    /// the converter can (no intermediate document or `serde_json::Value`), and returns
    /// what the conversion could not carry.
    fn write_pcn(&self, out: &mut Vec<u8>) -> Result<Vec<GameDiagnostic>, WriteError> {
        if let Some(doc) = &self.source_pcn {
            pcn::write_to(doc, out);
            return Ok(Vec::new());
        }
        let warnings = match self.game.as_ref().ok_or(WriteError::HasErrors)? {
            Game::Cescacs { record, moves, .. } => {
                pcn_convert::cescacs::write_pcn_resolved(record, moves, out)
            }
            Game::Chess(g) => pcn_convert::chess::write_pcn(g, out),
            Game::Pcn(doc) => {
                pcn::write_to(doc, out);
                return Ok(Vec::new());
            }
            _ => {
                let (doc, warnings) = self.pcn_with_warnings()?;
                pcn::write_to(&doc, out);
                return Ok(warnings);
            }
        }
        .map_err(WriteError::ToPcn)?;
        Ok(warnings
            .iter()
            .map(|w| crate::warning(crate::codes::DROPPED, w.to_string()))
            .collect())
    }

    /// The record with `strip`'s items removed (see [`Strip`]): the main line, start
    /// position and result stay as they are. A record read from PCN whose game a rules
    /// engine plays is then written to PCN from its stripped game model, with the
    /// warnings of what that model could not carry.
    ///
    /// ```
    /// use cescacs_convert::{Format, Options, Record, Strip};
    /// let pgn = "[Event \"E\"]\n[Opening \"x\"]\n\n1. e4 {best} $1 (1. d4) e5 *\n";
    /// let record = Record::from_bytes(Format::Pgn, pgn.as_bytes());
    /// let bare = record.stripped("comments,variations,nags,tags".parse().unwrap());
    /// let text = bare.write(Format::Pgn, &Options::default()).unwrap().text;
    /// assert!(text.ends_with("\n\n1. e4 e5 *\n\n") && !text.contains("Opening"));
    /// assert_eq!(bare.main_line(), record.main_line());
    /// ```
    pub fn stripped(&self, strip: Strip) -> Record {
        let mut r = self.clone();
        if strip.is_empty() {
            return r;
        }
        // Stripping keeps the main line: the kept final board stays right.
        match &mut r.game {
            Some(Game::Cescacs { record, .. }) => crate::strip::cescacs(record, strip),
            Some(Game::Chess(g)) => crate::strip::chess(g, strip),
            Some(Game::Xiangqi(g)) => crate::strip::xiangqi(g, strip),
            Some(Game::Pcn(doc)) => crate::strip::pcn(doc, strip),
            None => {}
        }
        match &r.game {
            Some(Game::Pcn(doc)) => r.source_pcn = Some(doc.clone()),
            // The document as read still holds what was stripped: PCN output is made
            // from the stripped model instead.
            _ => r.source_pcn = None,
        }
        r
    }

    /// [`Record::write`] as bytes: a PCN document goes out as serialised (UTF-8 by
    /// construction), without the copy and check a `String` needs.
    pub(crate) fn write_bytes(
        &self,
        to: Format,
        options: &Options,
    ) -> Result<(Vec<u8>, Vec<GameDiagnostic>), WriteError> {
        if to != Format::Pcn
            || !options.strip.is_empty()
            || options.layout.changes_model()
            || self.has_errors()
            || self.game.is_none()
        {
            return self
                .write(to, options)
                .map(|w| (w.text.into_bytes(), w.warnings));
        }
        let (text, warnings) = with_output(|buf| self.write_pcn(buf));
        let warnings = self.pcn_write_warnings(text.len(), warnings?);
        Ok((text, warnings))
    }

    /// The warnings of a PCN document of `len` bytes written from this record.
    fn pcn_write_warnings(
        &self,
        len: usize,
        mut warnings: Vec<GameDiagnostic>,
    ) -> Vec<GameDiagnostic> {
        if self.source_pcn.is_none() {
            // A PCN input written from its (stripped) model: what the model could not
            // carry is lost here.
            warnings.extend(self.pcn_warnings.iter().cloned());
        }
        if len > crate::MAX_PCN_DOCUMENT_BYTES {
            // Written all the same (nothing is dropped), but the user must know that
            // our own reader refuses it.
            warnings.push(crate::warning(crate::codes::PCN_TOO_LARGE, format!(
                "the PCN document is {len} bytes, over the {} bytes a PCN reader of this toolkit accepts: it cannot be read back with cescacs",
                crate::MAX_PCN_DOCUMENT_BYTES
            )));
        }
        warnings
    }

    /// Writes the game in `to`, with one warning per item `to` cannot carry. A record
    /// with errors is not written. `options.strip` is applied first (see
    /// [`Record::stripped`]); what it removes gives no warning.
    pub fn write(&self, to: Format, options: &Options) -> Result<Written, WriteError> {
        if self.has_errors() {
            return Err(WriteError::HasErrors);
        }
        if !options.strip.is_empty() {
            let plain = Options {
                strip: Strip::NONE,
                ..options.clone()
            };
            return self.stripped(options.strip).write(to, &plain);
        }
        if options.layout.changes_model() {
            let plain = Options {
                layout: options.layout.written_only(),
                ..options.clone()
            };
            return options.layout.apply(self).write(to, &plain);
        }
        let game = self.game.as_ref().ok_or(WriteError::HasErrors)?;
        let mut written = match (game, to) {
            (_, Format::Pcn) => {
                let (bytes, warnings) = with_output(|buf| self.write_pcn(buf));
                // The writers write UTF-8 only (strings come from `String`s and
                // escapes), so this takes the bytes as they are.
                let text = String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                let warnings = self.pcn_write_warnings(text.len(), warnings?);
                return Ok(Written { text, warnings });
            }
            (Game::Cescacs { record, .. }, Format::CtlPgn) => {
                crate::cescacs::write(record, options)
            }
            (Game::Chess(g), Format::Pgn) => crate::chess::write(g, options),
            (Game::Xiangqi(g), Format::XiangqiPgn) => crate::xiangqi::write(g, options, false),
            (Game::Xiangqi(g), Format::XiangqiXml) => crate::xiangqi::write(g, options, true),
            (game, to) => {
                return Err(WriteError::CannotWrite {
                    what: game.what(),
                    to,
                });
            }
        };
        written.warnings.extend(self.pcn_warnings.iter().cloned());
        Ok(written)
    }

    /// The final position as an SVG picture, the last main-line move highlighted
    /// (`None` for a PCN document of an unknown board, and for games that could not be
    /// read).
    pub fn svg(&self) -> Option<String> {
        match self.game.as_ref()? {
            Game::Cescacs { position, .. } => Some(crate::cescacs::svg(
                position.as_ref()?,
                self.last_hex_move(),
            )),
            Game::Xiangqi(g) => Some(crate::xiangqi::svg(g)),
            Game::Chess(g) => Some(crate::picture::game_svg(g)),
            Game::Pcn(_) => None,
        }
    }

    fn last_hex_move(&self) -> Option<(cescacs_hex::Cell, cescacs_hex::Cell)> {
        let Some(Game::Cescacs { record, .. }) = &self.game else {
            return None;
        };
        crate::cescacs::last_move_cells(record)
    }
}
