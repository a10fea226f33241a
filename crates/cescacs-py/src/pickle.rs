//! Pickling of `Game` (for `rdd.flatMap(read_games)`, multiprocessing): a game is
//! pickled as the bytes it was read from and its place in its file, and unpickled by
//! reading those bytes again, so the copy is the same game in every respect (tags,
//! moves, annotations, diagnostics and their places) without a serialised model.

use crate::errors::Fail;
use crate::{Game, Origin};
use cescacs_batch::{Diagnostic, Problem, RawGame, Severity};
use cescacs_convert::{Format, Record};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::str::FromStr;
use std::sync::Arc;

/// A splitter problem as plain values: (kind, text, a, b).
type ProblemState = Option<(String, String, u64, u64)>;

fn problem_state(p: &Problem) -> (String, String, u64, u64) {
    match p {
        Problem::Read { message } => ("read".into(), message.clone(), 0, 0),
        Problem::Oversized { limit } => ("oversized".into(), String::new(), *limit as u64, 0),
        Problem::NoBoundary { limit } => ("no-boundary".into(), String::new(), *limit as u64, 0),
        Problem::Unclosed { what, line, column } => {
            ("unclosed".into(), what.to_string(), *line, *column)
        }
        Problem::TrailingText => ("trailing-text".into(), String::new(), 0, 0),
    }
}

fn problem_of(state: ProblemState) -> Result<Option<Problem>, Fail> {
    let Some((kind, text, a, b)) = state else {
        return Ok(None);
    };
    Ok(Some(match kind.as_str() {
        "read" => Problem::Read { message: text },
        "oversized" => Problem::Oversized { limit: a as usize },
        "no-boundary" => Problem::NoBoundary { limit: a as usize },
        "trailing-text" => Problem::TrailingText,
        "unclosed" => Problem::Unclosed {
            what: text.chars().next().unwrap_or('{'),
            line: a,
            column: b,
        },
        _ => {
            return Err(Fail::Option(format!(
                "not a pickled game: problem {kind:?}"
            )));
        }
    }))
}

impl Game {
    /// The arguments of [`_game`] that make this game again.
    pub(crate) fn reduce<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let place = (
            self.record.format().name(),
            self.file.clone(),
            self.index,
            self.line,
            self.column,
            self.offset,
        );
        let origin = match &self.origin {
            Origin::Raw { raw, member } => (
                "raw",
                PyBytes::new(py, &raw.bytes),
                (
                    *member,
                    raw.index,
                    raw.line,
                    raw.column,
                    raw.offset,
                    raw.truncated,
                ),
                raw.problem.as_ref().map(problem_state),
            ),
            Origin::File(d) => (
                "file",
                PyBytes::new(py, d.message.as_bytes()),
                (
                    d.game,
                    d.line as usize,
                    d.column,
                    d.byte_offset,
                    0,
                    d.severity == Severity::Error,
                ),
                None,
            ),
        };
        PyTuple::new(
            py,
            [
                place.into_pyobject(py)?.into_any(),
                origin.into_pyobject(py)?.into_any(),
            ],
        )
    }
}

type Place = (String, String, u64, u64, u64, u64);
type Origins = (
    String,
    Vec<u8>,
    (usize, usize, u64, u64, u64, bool),
    ProblemState,
);

/// Makes a pickled game again (the inverse of `Game.__reduce__`).
#[pyfunction]
pub(crate) fn _game(py: Python<'_>, place: Place, origin: Origins) -> PyResult<Game> {
    let (format, file, index, line, column, offset) = place;
    let format = Format::from_str(&format).map_err(|e| Fail::Option(e.to_string()))?;
    let (kind, bytes, (a, b, c, d, e, flag), problem) = origin;
    if kind == "file" {
        let diag = Diagnostic {
            severity: if flag {
                Severity::Error
            } else {
                Severity::Warning
            },
            file,
            game: a,
            line: b as u64,
            column: c,
            byte_offset: d,
            game_offset: 0,
            message: String::from_utf8_lossy(&bytes).into_owned(),
        };
        return Ok(Game::unreadable(diag));
    }
    if kind != "raw" {
        return Err(Fail::Option(format!("not a pickled game: origin {kind:?}")).into());
    }
    let raw = RawGame {
        index: b,
        line: c,
        column: d,
        offset: e,
        bytes,
        truncated: flag,
        problem: problem_of(problem)?,
    };
    let member = a;
    let record = py.allow_threads(|| {
        crate::unpanicked(&file, || {
            let mut all = Record::read_all(format, &raw);
            if member >= all.len() {
                return Err(Fail::Option(format!(
                    "not a pickled game: record {member} of {}",
                    all.len()
                )));
            }
            Ok(all.swap_remove(member))
        })
    })?;
    Ok(Game {
        record,
        file,
        index,
        line,
        column,
        offset,
        length: raw.bytes.len() as u64,
        origin: Origin::Raw {
            raw: Arc::new(raw),
            member,
        },
    })
}
