//! The exceptions of the package, one tree under `cescacs.CescacsError`:
//!
//! - `ParseError(CescacsError, ValueError)`: a game record that cannot be read,
//!   replayed or written (`convert` of a bad game, `Game.to_string`, a bad TLPD or move).
//! - `InputError(CescacsError, OSError)`: an input that cannot be read at all (missing,
//!   unreadable, binary, of a format that cannot be told); the file-level errors the
//!   CLI reports before reading any game.
//! - `OptionError(CescacsError, ValueError, TypeError)`: an argument the function
//!   cannot take (an unknown format or option, a bad value, a perft depth beyond the
//!   limit, a source that is neither bytes, a path nor a binary file).
//!
//! The classes are made with Python's `type()` at import, because pyo3's exception
//! macro takes one base and these need two or three (so that `except ValueError`,
//! `except OSError` and `except TypeError` keep working where they did). Errors found
//! with the GIL released are [`Fail`] values, turned into exceptions once it is back.

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};

/// A failure on its way to Python.
#[derive(Debug)]
pub(crate) enum Fail {
    /// `ParseError`.
    Parse(String),
    /// `InputError`.
    Input(String),
    /// `OptionError`.
    Option(String),
    /// A panic caught at the boundary (a bug): `CescacsError` itself.
    Internal(String),
}

struct Types {
    base: Py<PyType>,
    parse: Py<PyType>,
    input: Py<PyType>,
    option: Py<PyType>,
}

static TYPES: GILOnceCell<Types> = GILOnceCell::new();

fn class(
    py: Python<'_>,
    name: &str,
    bases: Vec<Bound<'_, PyType>>,
    doc: &str,
) -> PyResult<Py<PyType>> {
    let dict = PyDict::new(py);
    dict.set_item("__doc__", doc)?;
    dict.set_item("__module__", "cescacs")?;
    let made = py
        .get_type::<PyType>()
        .call1((name, PyTuple::new(py, bases)?, dict))?;
    Ok(made.downcast_into::<PyType>()?.unbind())
}

fn types(py: Python<'_>) -> PyResult<&Types> {
    TYPES.get_or_try_init(py, || {
        let builtins = py.import("builtins")?;
        let builtin = |name: &str| -> PyResult<Bound<'_, PyType>> {
            Ok(builtins.getattr(name)?.downcast_into::<PyType>()?)
        };
        let base = class(
            py,
            "CescacsError",
            vec![py.get_type::<PyException>()],
            "Every error the package raises. Messages are located as the CLI's \
             (``file:line:col: game N: error: ...``) where there is a place to name.",
        )?;
        let parse = class(
            py,
            "ParseError",
            vec![base.bind(py).clone(), builtin("ValueError")?],
            "A game record that cannot be read, replayed or written (``convert`` of a \
             bad game, ``Game.to_string``, a bad TLPD or move).",
        )?;
        let input = class(
            py,
            "InputError",
            vec![base.bind(py).clone(), builtin("OSError")?],
            "An input that cannot be read at all: missing or unreadable, binary data, \
             a format that cannot be told, a stream that fails before its first game.",
        )?;
        let option = class(
            py,
            "OptionError",
            vec![
                base.bind(py).clone(),
                builtin("ValueError")?,
                builtin("TypeError")?,
            ],
            "An argument the function cannot take: an unknown format, option or \
             framing, a bad option value, a perft depth beyond the limit, a source of \
             the wrong type.",
        )?;
        Ok(Types {
            base,
            parse,
            input,
            option,
        })
    })
}

/// Adds the classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let t = types(py)?;
    m.add("CescacsError", t.base.bind(py))?;
    m.add("ParseError", t.parse.bind(py))?;
    m.add("InputError", t.input.bind(py))?;
    m.add("OptionError", t.option.bind(py))?;
    Ok(())
}

impl From<Fail> for PyErr {
    fn from(fail: Fail) -> PyErr {
        Python::with_gil(|py| {
            let t = match types(py) {
                Ok(t) => t,
                Err(e) => return e,
            };
            let (ty, message) = match fail {
                Fail::Parse(m) => (&t.parse, m),
                Fail::Input(m) => (&t.input, m),
                Fail::Option(m) => (&t.option, m),
                Fail::Internal(m) => (&t.base, m),
            };
            PyErr::from_type(ty.bind(py).clone(), message)
        })
    }
}
