//! Structured diagnostics: each located problem of a game as a `cescacs.Diagnostic`
//! (a `str` equal to the CLI's line, with its parts as attributes), built here from the
//! batch engine's [`cescacs_batch::Diagnostic`], the value the CLI prints.

use cescacs_batch::{Diagnostic, GameDiagnostic, Severity};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;

// The `code` of a `cescacs.Diagnostic` is its `GameDiagnostic`'s: the kind of problem
// as the error type that found it names it (`cescacs_convert::DIAGNOSTIC_CODES`).

/// The code of a problem of a whole file (game 0: unreadable, binary, empty, format
/// unknown).
pub(crate) const FILE: &str = "file";

/// A game diagnostic placed in its file, as the batch engine places it
/// ([`Diagnostic::of_game`]). Game 0 at line 0 is a problem of the whole file.
pub(crate) fn locate(
    file: &str,
    index: u64,
    at: (u64, u64),
    offset: u64,
    d: &GameDiagnostic,
) -> Diagnostic {
    Diagnostic::of_game(file, index as usize, at, offset, d)
}

fn severity_name(s: Severity) -> String {
    s.to_string()
}

static CLASS: GILOnceCell<Py<PyAny>> = GILOnceCell::new();

/// `d` as a `cescacs.Diagnostic` (the class lives in `cescacs/_types.py`, a `str`
/// subclass, so lists of them still print, join and compare as the strings did).
pub(crate) fn to_py(py: Python<'_>, d: &Diagnostic, code: &str) -> PyResult<PyObject> {
    let class = CLASS.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(py.import("cescacs._types")?.getattr("Diagnostic")?.unbind())
    })?;
    let made = class.bind(py).call1((
        d.to_string(),
        &d.file,
        d.line,
        d.column,
        d.game,
        severity_name(d.severity),
        code,
        &d.message,
    ))?;
    Ok(made.unbind())
}
