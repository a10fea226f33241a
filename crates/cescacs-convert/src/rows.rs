//! A game's row for a table reader (`read_arrow`, the Spark reader) without a game
//! model, when `chess_pgn::GameRow` takes the game: the columns [`Record`](crate::Record) gives for
//! it (tags, main line, result, final position, the opt-in per-ply columns), and no
//! diagnostic. Every other game (another format, a game the splitter flagged or cut
//! short, anything the model reader would report) is left to [`Record`](crate::Record), so a row is
//! the same whichever path made it (`tests/direct_rows.rs` holds the two together).

use crate::{Format, Score};
use cescacs_batch::RawGame;

/// The columns of one game read on the direct path, kept from one game to the next
/// (no allocation per game once its buffers have grown).
///
/// ```
/// use cescacs_convert::{DirectRow, Format, Record, raw_game};
/// let mut row = DirectRow::new(true, true, true);
/// let raw = raw_game(b"[White \"A\"]\n\n1. e4 {[%eval 0.2]} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n");
/// assert!(row.read(Format::Pgn, &raw));
/// let record = Record::read(Format::Pgn, &raw);
/// assert_eq!(row.moves().collect::<Vec<_>>(), record.main_line());
/// assert_eq!(Some(row.final_position().to_string()), record.final_position());
/// assert_eq!(row.evals().collect::<Vec<_>>(), record.evals().unwrap());
/// // A game the model reader warns about (no result marker): the model path's.
/// assert!(!row.read(Format::Pgn, &raw_game(b"1. e4 e5\n")));
/// ```
#[derive(Debug, Default)]
pub struct DirectRow {
    row: chess_pgn::GameRow,
    columns: chess_pgn::PlyColumns,
}

impl DirectRow {
    /// A row that also fills the per-ply columns asked for: `uci`
    /// ([`Record::uci_line`](crate::Record::uci_line)), `clocks` ([`Record::clocks`](crate::Record::clocks)), `evals`
    /// ([`Record::evals`](crate::Record::evals)).
    pub fn new(uci: bool, clocks: bool, evals: bool) -> DirectRow {
        DirectRow {
            row: chess_pgn::GameRow::default(),
            columns: chess_pgn::PlyColumns { uci, clocks, evals },
        }
    }

    /// Reads the game of `format` the splitter cut into the row and returns true; or
    /// returns false (the row's content is then unspecified) when the game is
    /// [`Record::read_all`](crate::Record::read_all)'s to read: a format other than classic PGN, a game the
    /// splitter flagged, cut or found truncated, anything the model reader reports,
    /// what `chess_pgn::GameRow` does not follow.
    pub fn read(&mut self, format: Format, game: &RawGame) -> bool {
        format == Format::Pgn
            && game.problem.is_none()
            && !game.truncated
            && crate::cut_short(format, game).is_none()
            && self.row.read(&game.bytes, self.columns)
    }

    /// [`Record::tags`](crate::Record::tags).
    pub fn tags(&self) -> impl ExactSizeIterator<Item = (&str, &str)> + '_ {
        self.row.tags()
    }

    /// [`Record::main_line`](crate::Record::main_line).
    pub fn moves(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.row.moves()
    }

    /// [`DirectRow::moves`] end to end, and where each ends in that text (what a
    /// table writer copies at once).
    pub fn moves_end_to_end(&self) -> (&str, &[u32]) {
        self.row.moves_end_to_end()
    }

    /// [`Record::plies`](crate::Record::plies).
    pub fn plies(&self) -> usize {
        self.row.plies()
    }

    /// [`Record::result`](crate::Record::result).
    pub fn result(&self) -> &'static str {
        self.row.outcome().as_str()
    }

    /// [`Record::final_position`](crate::Record::final_position).
    pub fn final_position(&self) -> &str {
        self.row.final_fen()
    }

    /// [`Record::uci_line`](crate::Record::uci_line) (empty unless asked for).
    pub fn uci(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.row.uci()
    }

    /// [`Record::clocks`](crate::Record::clocks) (empty unless asked for).
    pub fn clocks(&self) -> &[Option<f64>] {
        self.row.clocks()
    }

    /// [`Record::evals`](crate::Record::evals) (empty unless asked for).
    pub fn evals(&self) -> impl ExactSizeIterator<Item = Option<Score>> + '_ {
        self.row.evals().iter().map(|e| e.map(Score::from))
    }
}
