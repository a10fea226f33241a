//! Located diagnostics: `file:line:col: game N: message`.

use std::cell::Cell;
use std::fmt;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A tolerant form or a normalisation; the record is still read.
    Note,
    /// Something inconsistent that a tolerant reader repairs (wrong marker, missing
    /// result line, contradicting `Result` tag). An error in strict mode.
    Warning,
    /// The record (or the rest of it from this point) cannot be read or replayed.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// What a diagnostic is about (stable, for filtering and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// The grammar did not match: `expected …, found …`.
    Syntax,
    /// Unbalanced or misplaced variation brackets, numbering that cannot be followed.
    Structure,
    /// Variations nested deeper than [`crate::MAX_VARIATION_DEPTH`].
    TooDeep,
    /// A game of more than [`crate::MAX_GAME_NODES`] moves, comments and variations, or
    /// of more than [`crate::MAX_GAME_TAGS`] tags.
    TooLarge,
    /// A piece letter not valid under the record's letter set.
    Letter,
    /// A bad `Redefine` tag.
    Redefine,
    /// A tag problem (missing or wrong `Variant`).
    Tag,
    /// The start position (`TLPD` tag) cannot be read.
    StartPosition,
    /// A tolerant spelling was normalised (`^+`, `@N`, `x`, `3 - 0`, ...).
    Spelling,
    /// A move number that does not follow the previous one.
    Numbering,
    /// The move text is malformed for the rules crate.
    MoveSyntax,
    /// The move does not resolve to a legal move (no such piece, illegal, ambiguous,
    /// wrong capture letter, ...).
    IllegalMove,
    /// The check marker differs from the position reached.
    CheckMarker,
    /// No result line, or a missing `:` end indicator.
    MissingEnd,
    /// Result line or tag contradicts the game (mate) or each other.
    Result,
    /// A variation that does not replace a move of its enclosing line.
    Variation,
}

impl Code {
    /// The code's stable name (`ctl.syntax`, `ctl.illegal-move`, …; the table is the
    /// toolkit's docs/diagnostic-codes.md).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Syntax => "ctl.syntax",
            Code::Structure => "ctl.structure",
            Code::TooDeep => "ctl.too-deep",
            Code::TooLarge => "ctl.too-large",
            Code::Letter => "ctl.letter",
            Code::Redefine => "ctl.redefine",
            Code::Tag => "ctl.tag",
            Code::StartPosition => "ctl.start-position",
            Code::Spelling => "ctl.spelling",
            Code::Numbering => "ctl.numbering",
            Code::MoveSyntax => "ctl.move-syntax",
            Code::IllegalMove => "ctl.illegal-move",
            Code::CheckMarker => "ctl.check-marker",
            Code::MissingEnd => "ctl.missing-end",
            Code::Result => "ctl.result",
            Code::Variation => "ctl.variation",
        }
    }
}

/// A located message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{col}: game {game}: {severity}: {}", pgn_core::escape_controls(.file), pgn_core::escape_controls(.message))]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// What kind of problem.
    pub code: Code,
    /// File name given to the reader.
    pub file: String,
    /// 1-based index of the record in the file.
    pub game: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (chars).
    pub col: u32,
    /// `expected …, found …` for syntax errors; a sentence otherwise.
    pub message: String,
}

impl Diagnostic {
    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Byte offset -> (line, column) for one file, in O(log n) per lookup (pest's own
/// `line_col` scans from the start of the input, which is quadratic over a big file).
#[derive(Debug, Clone)]
pub(crate) struct LineIndex<'a> {
    src: &'a str,
    starts: Vec<usize>,
    /// The last answer, `(offset, line, column)`: spans are asked for in increasing
    /// order, so the next column is counted from there instead of from the line start
    /// (which made a long line of short tokens quadratic).
    last: Cell<(usize, usize, usize)>,
}

impl<'a> LineIndex<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr_newlines(src).map(|i| i + 1));
        LineIndex {
            src,
            starts,
            last: Cell::new((0, 0, 0)),
        }
    }

    /// 1-based line and column (in characters) of a byte offset. Amortised time in
    /// proportion to the distance from the previous query when queries go forward.
    pub(crate) fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.src.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let (last_offset, last_line, last_col) = self.last.get();
        let (from, base) = if last_line == line && last_offset <= offset && last_offset >= start {
            (last_offset, last_col)
        } else {
            (start, 0)
        };
        let col = base
            + self
                .src
                .get(from..offset)
                .map_or(offset - from, |s| s.chars().count());
        if self.src.is_char_boundary(offset) {
            self.last.set((offset, line, col));
        }
        (line as u32 + 1, col as u32 + 1)
    }
}

fn memchr_newlines(s: &str) -> impl Iterator<Item = usize> + '_ {
    s.bytes()
        .enumerate()
        .filter_map(|(i, b)| (b == b'\n').then_some(i))
}
