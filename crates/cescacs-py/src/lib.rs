//! The native module `cescacs._cescacs` behind the Python package `cescacs`.
//!
//! Thin bindings: every source (a path, bytes, a binary file object) is opened by
//! `cescacs-batch`'s input layer, the CLI's (the four codecs undone in Rust, UTF-16
//! decoded, binary input refused), cut by its splitter, and read, replayed and written
//! by `cescacs-convert` (the per-game pipeline the CLI uses, so messages and results are
//! the CLI's). The Python package (`python/cescacs`) adds path handling and the Spark
//! data source on top. Every failure is a subclass of `cescacs.CescacsError` (see
//! `errors.rs`); the Rust work runs with the GIL released.

#![warn(missing_docs)]

// The Arrow reader builds batches of many megabytes, freed as soon as pyarrow or
// polars is done with them: glibc maps each one fresh from the kernel (a page fault per
// 4 KiB, zeroed) and unmaps it on free, where mimalloc keeps and reuses its pages
// (docs/scaling.md, "What stop 41 cut"). Only Rust's allocations are concerned:
// Python's objects keep Python's allocator, and an Arrow buffer handed to pyarrow is
// freed by its release callback, in Rust.
#[cfg(feature = "extension-module")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod arrow;
mod board;
mod chunks;
mod diagnostic;
mod edit;
mod errors;
mod feed;
mod headers;
mod interned;
mod model;
mod pickle;
mod remote;
mod seekable;
mod select;
pub mod split;

use cescacs_batch::{
    Framing, GameDiagnostic, GameSplitter, Input, Problem, RawGame, Severity, TextEncoding,
};
use cescacs_convert::{Format, Options, Record, StripError};
use errors::Fail;
use feed::{Feed, Next};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList};
use std::collections::VecDeque;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::{Mutex, MutexGuard, TryLockError};

/// An argument of a user-facing function, or `OptionError` naming it: pyo3's own
/// conversion would raise a bare `TypeError` or `OverflowError`.
fn arg<'py, T: FromPyObject<'py>>(value: &Bound<'py, PyAny>, name: &str) -> Result<T, Fail> {
    value
        .extract()
        .map_err(|e| Fail::Option(format!("{name}: {e}")))
}

/// An optional argument, as [`arg`].
fn opt_arg<'py, T: FromPyObject<'py>>(
    value: Option<&Bound<'py, PyAny>>,
    name: &str,
) -> Result<Option<T>, Fail> {
    value.map(|v| arg(v, name)).transpose()
}

fn format_arg(name: &str) -> Result<Format, Fail> {
    Format::from_str(name).map_err(|e| Fail::Option(e.to_string()))
}

fn input_framing(format: Format, name: &str) -> Framing {
    cescacs_convert::input_framing(format, cescacs_convert::without_compression(name))
}

fn framing_name(f: Framing) -> &'static str {
    match f {
        Framing::Pgn => "pgn",
        Framing::Lines => "lines",
        Framing::Whole => "whole",
        Framing::Json => "json",
    }
}

fn framing_arg(s: &str) -> Result<Framing, Fail> {
    match s {
        "pgn" => Ok(Framing::Pgn),
        "lines" => Ok(Framing::Lines),
        "whole" => Ok(Framing::Whole),
        "json" => Ok(Framing::Json),
        _ => Err(Fail::Option(format!(
            "unknown framing {s:?}: expected pgn, lines, whole or json"
        ))),
    }
}

/// Runs `f`, turning a panic (a bug: none is known) into an error instead of
/// `pyo3_runtime.PanicException`, which escapes `except Exception`.
fn unpanicked<T>(what: &str, f: impl FnOnce() -> Result<T, Fail>) -> Result<T, Fail> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(Fail::Internal(format!("{what}: internal error: {message}")))
    })
}

/// One game, read and replayed.
#[pyclass(frozen, module = "cescacs", name = "Game")]
struct Game {
    record: Record,
    file: String,
    index: u64,
    line: u64,
    /// Column of the game's first byte in its line (games can start mid-line).
    column: u64,
    offset: u64,
    /// Bytes of the game's text (from `offset`), as the splitter cut it.
    length: u64,
    /// What the record was read from, for pickling (see `pickle.rs`).
    origin: Origin,
}

/// Where a [`Game`]'s record came from.
#[derive(Clone)]
enum Origin {
    /// Read from these bytes: the `member`-th record of the raw game (a PCN array holds
    /// several).
    Raw { raw: Arc<RawGame>, member: usize },
    /// A file that could not be read at all (game 0), found walking a directory.
    File(cescacs_batch::Diagnostic),
}

impl Game {
    /// The located diagnostics of one severity, with their codes.
    fn diagnostics(&self, severity: Severity) -> Vec<(cescacs_batch::Diagnostic, &'static str)> {
        match &self.origin {
            Origin::File(d) => (d.severity == severity)
                .then(|| (d.clone(), diagnostic::FILE))
                .into_iter()
                .collect(),
            Origin::Raw { .. } => {
                // Where the record is in an input of several (PCN: `[0].`), as the
                // CLI's converter prefixes it.
                let prefix = self.record.location();
                self.record
                    .diagnostics()
                    .iter()
                    .filter(|d| d.severity == severity)
                    .map(|d| {
                        let at = (self.line, self.column);
                        let mut located =
                            diagnostic::locate(&self.file, self.index, at, self.offset, d);
                        located.message.insert_str(0, prefix);
                        (located, d.code)
                    })
                    .collect()
            }
        }
    }

    /// The located diagnostics of one severity as the CLI prints them.
    fn located(&self, severity: Severity) -> Vec<String> {
        self.diagnostics(severity)
            .into_iter()
            .map(|(d, _)| d.to_string())
            .collect()
    }

    /// The result, as the record states it; for C'escacs, the CTL-PGN reader's rule
    /// (cescacs-rules.md §9.4): the result line, else a final mate, else the `Result`
    /// tag, else `*`, in the spec's own strings (`3-0 2-1 1-1 1-2 0-3 *`).
    fn stated_result(&self) -> Option<String> {
        match self.record.game() {
            Some(cescacs_convert::Game::Cescacs { record, .. }) => {
                Some(record.effective_result().as_str().to_string())
            }
            _ => self.record.result(),
        }
    }

    /// The diagnostics of one severity as `cescacs.Diagnostic` objects.
    fn py_diagnostics(&self, py: Python<'_>, severity: Severity) -> PyResult<Vec<PyObject>> {
        self.safe(|| self.diagnostics(severity))?
            .iter()
            .map(|(d, code)| diagnostic::to_py(py, d, code))
            .collect()
    }
}

/// A game diagnostic placed in its file, as the CLI's line.
fn located(file: &str, index: u64, at: (u64, u64), offset: u64, d: &GameDiagnostic) -> String {
    diagnostic::locate(file, index, at, offset, d).to_string()
}

/// The write options of `to_string` and `convert`: keyword arguments of both, typed in
/// their signatures (and in `_cescacs.pyi`), checked here against the target format
/// (`notation` must be one of `to`'s, as on the command line). Each value is checked
/// by hand so that a bad one is an `OptionError` naming the option.
struct WriteArgs<'py> {
    fan: Option<Bound<'py, PyAny>>,
    minimal: Option<Bound<'py, PyAny>>,
    notation: Option<Bound<'py, PyAny>>,
    strip: Option<Bound<'py, PyAny>>,
    strict: Option<Bound<'py, PyAny>>,
    json_lines: Option<Bound<'py, PyAny>>,
}

impl WriteArgs<'_> {
    /// The format `format` names and these arguments as its options: the one step
    /// from `to_string`'s arguments (`Game`'s and `GameEditor`'s) to a write.
    fn target(&self, format: &Bound<'_, PyAny>) -> Result<(Format, Options), Fail> {
        let to = format_arg(&arg::<String>(format, "format")?)?;
        Ok((to, write_options(to, self)?))
    }
}

/// `record` written in `to` with the GIL released: its text, or `fail` of why not.
fn write_record(
    py: Python<'_>,
    record: &Record,
    file: &str,
    (to, options): (Format, Options),
    fail: impl FnOnce(String) -> Fail + Send,
) -> PyResult<String> {
    let text = py.allow_threads(|| {
        unpanicked(file, || {
            record
                .write(to, &options)
                .map(|w| w.text)
                .map_err(|e| fail(e.to_string()))
        })
    })?;
    Ok(text)
}

fn write_options(to: Format, args: &WriteArgs<'_>) -> Result<Options, Fail> {
    let mut out = Options::default();
    let flag = |v: &Option<Bound<'_, PyAny>>, name: &str| -> Result<bool, Fail> {
        match v {
            None => Ok(false),
            Some(v) => v
                .extract::<bool>()
                .map_err(|e| Fail::Option(format!("{name}: {e}"))),
        }
    };
    out.fan = flag(&args.fan, "fan")?;
    out.minimal = flag(&args.minimal, "minimal")?;
    out.strict = flag(&args.strict, "strict")?;
    out.json_lines = flag(&args.json_lines, "json_lines")?;
    if let Some(n) = args.notation.as_ref().filter(|n| !n.is_none()) {
        let n: String = arg(n, "notation")?;
        out.set_notation(to, &n)
            .map_err(|e| Fail::Option(e.to_string()))?;
    }
    if let Some(value) = args.strip.as_ref().filter(|v| !v.is_none()) {
        // "comments,nags" or ["comments", "nags"].
        let list = match value.extract::<String>() {
            Ok(s) => s,
            Err(_) => value
                .extract::<Vec<String>>()
                .map_err(|e| Fail::Option(format!("strip: {e}")))?
                .join(","),
        };
        if !list.is_empty() {
            out.strip = list
                .parse()
                .map_err(|e: StripError| Fail::Option(e.to_string()))?;
        }
    }
    Ok(out)
}

#[pymethods]
impl Game {
    /// The format the game was read from.
    #[getter]
    fn format(&self) -> &'static str {
        self.record.format().name()
    }
    /// The file it was read from (`<bytes>` for bytes).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }
    /// 1-based number of the game in its file.
    #[getter]
    fn index(&self) -> u64 {
        self.index
    }
    /// 1-based line of the game's first byte in its file.
    #[getter]
    fn line(&self) -> u64 {
        self.line
    }
    /// Tag pairs (a later tag of the same name wins, as in the readers).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.safe(|| self.record.tags())? {
            d.set_item(k, v)?;
        }
        Ok(d)
    }
    /// Main-line moves as written.
    #[getter]
    fn moves(&self) -> PyResult<Vec<String>> {
        self.safe(|| self.record.main_line())
    }
    /// The result: `1-0`, `0-1`, `1/2-1/2`, `*` for chess and xiangqi as written; for
    /// C'escacs one of `3-0 2-1 1-1 1-2 0-3 *` as the CTL-PGN reader takes it (result
    /// line, else a final mate, else the `Result` tag, else `*`). None when the record
    /// could not be read.
    #[getter]
    fn result(&self) -> PyResult<Option<String>> {
        self.safe(|| self.stated_result())
    }
    /// TLPD (C'escacs) or FEN (chess, xiangqi) after the main line; None for a bad game.
    #[getter]
    fn final_position(&self) -> PyResult<Option<String>> {
        self.safe(|| self.record.final_position())
    }
    /// Located errors (`cescacs.Diagnostic`, each a `str` equal to the CLI's line);
    /// empty for a valid game.
    #[getter]
    fn errors(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        self.py_diagnostics(py, Severity::Error)
    }
    /// Located warnings (`cescacs.Diagnostic`).
    #[getter]
    fn warnings(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        self.py_diagnostics(py, Severity::Warning)
    }
    /// The game as a PCN document (a dict).
    fn to_pcn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.to_pcn_json()?;
        py.import("json")?.call_method1("loads", (text,))
    }
    /// The game as one line of PCN JSON.
    fn to_pcn_json(&self) -> PyResult<String> {
        let text = unpanicked(&self.file, || {
            self.record
                .to_pcn()
                .map(|doc| pcn::to_string(&doc))
                .map_err(|e| self.error(e.to_string()))
        })?;
        Ok(text)
    }
    /// The game written in `format`: `fan` (figurine SAN), `minimal` (PCN without
    /// what can be derived), `notation` (the target's), `strip` (items or a
    /// comma-separated string), `strict`, `json_lines`.
    #[pyo3(signature = (format, *, fan=None, minimal=None, notation=None, strip=None, strict=None, json_lines=None))]
    #[allow(clippy::too_many_arguments)]
    fn to_string<'py>(
        &self,
        py: Python<'py>,
        format: &Bound<'py, PyAny>,
        fan: Option<Bound<'py, PyAny>>,
        minimal: Option<Bound<'py, PyAny>>,
        notation: Option<Bound<'py, PyAny>>,
        strip: Option<Bound<'py, PyAny>>,
        strict: Option<Bound<'py, PyAny>>,
        json_lines: Option<Bound<'py, PyAny>>,
    ) -> PyResult<String> {
        let target = WriteArgs {
            fan,
            minimal,
            notation,
            strip,
            strict,
            json_lines,
        }
        .target(format)?;
        write_record(py, &self.record, &self.file, target, |e| self.error(e))
    }
    /// The final board as SVG (Jupyter shows it), the last move highlighted.
    fn _repr_svg_(&self) -> PyResult<Option<String>> {
        self.safe(|| self.record.svg())
    }
    /// The game in the viewer of `cescacs view` (Jupyter shows it): the page in an
    /// iframe of its own, stepped with its buttons and arrow keys in the browser, with
    /// no kernel round trip and no network request. `None` when the record cannot be
    /// replayed (Jupyter then falls back to the SVG).
    fn _repr_html_(&self) -> PyResult<Option<String>> {
        self.safe(|| {
            let steps = game_viewer::steps(&self.record).ok()?;
            let game = game_viewer::game_value(&steps).to_string();
            let title = format!("{} #{}", self.file, self.index);
            let (_, page) = game_viewer::pages(&title, "game.html", &[game])
                .into_iter()
                .next()?;
            Some(format!(
                "<iframe srcdoc=\"{}\" title=\"{}\" sandbox=\"allow-scripts\" \
                 style=\"width:100%;height:620px;border:0\"></iframe>",
                html_attribute(&page),
                html_attribute(&title)
            ))
        })
    }
    // == issue 29 part A: the game model (model.rs)
    /// The main line as a sequence of `Move` objects, walked once when called (a reader
    /// of final positions never pays for it); the `Move` objects are made, all in one
    /// pass, when it is first iterated.
    fn mainline(slf: &Bound<'_, Self>) -> PyResult<model::Mainline> {
        let (me, game) = (slf.get(), slf.clone().unbind());
        Ok(slf
            .py()
            .allow_threads(|| model::mainline(&me.record, &me.file, game))?)
    }
    /// FEN (TLPD for C'escacs) of the start and after every main-line ply.
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        Ok(py.allow_threads(|| model::positions(&self.record, &self.file))?)
    }
    /// The position after `ply` main-line half-moves (0: the start) as a `Board`
    /// (chess, xiangqi) or `Position` (C'escacs).
    fn board_at(&self, py: Python<'_>, ply: usize) -> PyResult<PyObject> {
        model::board_at(py, &self.record, &self.file, ply)
    }
    /// The moves from the start as nodes of the move tree (the first is the main line's).
    #[getter]
    fn variations(slf: &Bound<'_, Self>) -> PyResult<Vec<model::GameNode>> {
        let (me, game) = (slf.get(), slf.clone().unbind());
        Ok(slf
            .py()
            .allow_threads(|| model::variations(&me.record, &me.file, game))?)
    }
    // == end issue 29 part A
    /// An editable copy: set tags, add comments, cut the main line, then write it with
    /// `to_string` (or make a `Game` of it with `game()`).
    fn copy(&self) -> edit::GameEditor {
        self.editor()
    }
    /// Pickling: the game's bytes and place, read again on unpickling.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, pyo3::types::PyTuple>)> {
        let py = slf.py();
        let make = py.import("cescacs._cescacs")?.getattr("_game")?;
        Ok((make, slf.get().reduce(py)?))
    }
    fn __repr__(&self) -> String {
        format!(
            "<cescacs.Game {} #{} of {:?}: {} moves, {} errors>",
            self.record.format().name(),
            self.index,
            self.file,
            self.record.main_line().len(),
            self.located(Severity::Error).len()
        )
    }
}

impl Game {
    /// `f`'s value, or a `CescacsError` if it panicked (a bug; see [`unpanicked`]).
    fn safe<T>(&self, f: impl FnOnce() -> T) -> PyResult<T> {
        Ok(unpanicked(&self.file, || Ok(f()))?)
    }

    fn error(&self, message: String) -> Fail {
        let d = GameDiagnostic {
            severity: Severity::Error,
            line: 1,
            column: 1,
            message,
            code: "write",
        };
        Fail::Parse(located(
            &self.file,
            self.index,
            (self.line, self.column),
            self.offset,
            &d,
        ))
    }
}

/// `mutex`'s guard, waiting without the GIL while another thread holds it (the holder
/// may need the GIL to read a Python stream: waiting with it would deadlock).
fn lock<'a, T>(py: Python<'_>, mutex: &'a Mutex<T>) -> MutexGuard<'a, T> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            // Panics are caught inside the lock; a poisoned state is still whole.
            Err(TryLockError::Poisoned(p)) => return p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                py.allow_threads(|| std::thread::sleep(std::time::Duration::from_millis(1)))
            }
        }
    }
}

/// What a reader holds between two calls.
struct ReaderState {
    feed: Feed,
    pending: VecDeque<Game>,
}

/// The games of one input (or of every game file below a directory), lazily. Usable
/// from any thread: the state is behind a lock, so a reader made on one thread may be
/// iterated on another (one call at a time; a second thread waits for the first), and
/// the parsing runs with the GIL released.
#[pyclass(frozen, module = "cescacs")]
struct GameReader {
    state: Mutex<ReaderState>,
    format: Format,
}

impl GameReader {
    fn new(feed: Feed) -> GameReader {
        GameReader {
            format: feed.format,
            state: Mutex::new(ReaderState {
                feed,
                pending: VecDeque::new(),
            }),
        }
    }

    /// Up to `n` games, read with the GIL released.
    fn take(&self, py: Python<'_>, n: usize) -> PyResult<Vec<Game>> {
        let mut state = lock(py, &self.state);
        let state = &mut *state;
        let games = py.allow_threads(|| {
            let mut out = Vec::new();
            while out.len() < n {
                let name = state.feed.name.clone();
                let filled = unpanicked(&name, || {
                    fill(&mut state.feed, &mut state.pending, 1);
                    Ok(!state.pending.is_empty())
                });
                match filled {
                    Ok(true) => out.extend(state.pending.pop_front()),
                    Ok(false) => break,
                    Err(e) => {
                        state.feed.close();
                        state.pending.clear();
                        return Err(e);
                    }
                }
            }
            Ok(out)
        })?;
        Ok(games)
    }
}

/// What a reader makes of each game of its feed: a [`Game`] (the full read), or for
/// `read_headers` the tags alone when the tag section can be read by itself.
trait Item: Sized {
    /// The item of a raw game without the full read, if it can be made so; `index` and
    /// `line` place the game in its file.
    fn quick(
        _format: Format,
        _raw: &RawGame,
        _feed: &mut Feed,
        _index: u64,
        _line: u64,
    ) -> Option<Self> {
        None
    }
    /// The item of a fully read game.
    fn full(game: Game) -> Self;
}

impl Item for Game {
    fn full(game: Game) -> Game {
        game
    }
}

/// Reads the feed's next games into `pending` until it holds `want` items or the feed
/// ends. A read error (a damaged compressed stream, a failing file) ends the input as a
/// game of its own carrying the located error, as the CLI's batch engine reports it:
/// every game before it is yielded, and iteration never raises for a data problem.
fn fill<T: Item>(feed: &mut Feed, pending: &mut VecDeque<T>, want: usize) {
    while pending.len() < want {
        match feed.next() {
            Next::End => return,
            next => push_next(feed, pending, next),
        }
    }
}

/// The items of what came out of the feed, onto `pending` (nothing for the end).
fn push_next<T: Item>(feed: &mut Feed, pending: &mut VecDeque<T>, next: Next) {
    match next {
        Next::End => {}
        Next::File(d) => pending.push_back(T::full(Game::unreadable(d))),
        Next::Raw(format, raw) => {
            let line = feed.line_base + raw.line - 1;
            let index = feed.index_base + feed.records;
            if let Some(item) = T::quick(format, &raw, feed, index, line) {
                feed.records += 1;
                pending.push_back(item);
                feed.recycle(raw.bytes);
                return;
            }
            let offset = feed.offset_base + raw.offset;
            // A PCN array is one raw game of several records: each is numbered.
            let records = Record::read_all(format, &raw);
            let raw = Arc::new(raw);
            for (member, record) in records.into_iter().enumerate() {
                let index = feed.index_base + feed.records;
                feed.records += 1;
                pending.push_back(T::full(Game {
                    record,
                    file: feed.name.clone(),
                    index,
                    line,
                    column: raw.column,
                    offset,
                    length: raw.bytes.len() as u64,
                    origin: Origin::Raw {
                        raw: raw.clone(),
                        member,
                    },
                }));
            }
        }
    }
}

impl Game {
    /// A file that could not be read at all: a game 0 whose only error is the file's.
    fn unreadable(d: cescacs_batch::Diagnostic) -> Game {
        let raw = RawGame {
            index: 0,
            line: 0,
            column: 0,
            offset: 0,
            bytes: Vec::new(),
            truncated: true,
            problem: Some(Problem::Read {
                message: d.message.clone(),
            }),
        };
        let record = Record::read_all(Format::Pgn, &raw).swap_remove(0);
        Game {
            record,
            file: d.file.clone(),
            index: 0,
            line: 0,
            column: 0,
            offset: 0,
            length: 0,
            origin: Origin::File(d),
        }
    }
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Game>> {
        Ok(self.take(py, 1)?.pop())
    }
    /// The detected or given format.
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }
    /// Up to `n` games as columns, for Arrow: (index, line, tags as lists of pairs,
    /// moves, result, final_position, errors, warnings). Empty lists at the end.
    fn next_columns<'py>(&self, py: Python<'py>, n: usize) -> PyResult<Bound<'py, PyList>> {
        let games = self.take(py, n)?;
        let index = PyList::empty(py);
        let line = PyList::empty(py);
        let tags = PyList::empty(py);
        let moves = PyList::empty(py);
        let result = PyList::empty(py);
        let final_position = PyList::empty(py);
        let errors = PyList::empty(py);
        let warnings = PyList::empty(py);
        for g in games {
            let (t, m, r, f, e, w) = g.safe(|| {
                (
                    g.record.tags(),
                    g.record.main_line(),
                    g.stated_result(),
                    g.record.final_position(),
                    g.located(Severity::Error),
                    g.located(Severity::Warning),
                )
            })?;
            index.append(g.index)?;
            line.append(g.line)?;
            tags.append(PyList::new(py, t)?)?;
            moves.append(PyList::new(py, m)?)?;
            result.append(r)?;
            final_position.append(f)?;
            errors.append(e)?;
            warnings.append(w)?;
        }
        PyList::new(
            py,
            [
                index.into_any(),
                line.into_any(),
                tags.into_any(),
                moves.into_any(),
                result.into_any(),
                final_position.into_any(),
                errors.into_any(),
                warnings.into_any(),
            ],
        )
    }
}

fn detect_or(format: Option<&str>, name: &str, head: &[u8]) -> Result<Format, Fail> {
    match format {
        Some(f) => format_arg(f),
        None => cescacs_convert::detect(cescacs_convert::without_compression(name), head)
            .ok_or_else(|| {
                Fail::Input(format!("{name}: cannot tell the game format: give format="))
            }),
    }
}

/// `fail`, unless the input has no head because its first read failed (a compressed
/// stream damaged at once): that error is the one to report, not the format nobody
/// could tell from nothing.
fn unreadable(input: &mut Input, fail: Fail) -> Fail {
    use std::io::BufRead;
    if !input.head().is_empty() {
        return fail;
    }
    match input.fill_buf() {
        Err(e) => Fail::Input(format!("{}: read error: {e}", input.name)),
        Ok(_) => fail,
    }
}

/// The CLI's refusal of binary input (docs/io.md "Binary input"), located in the head.
fn refuse_binary(input: &Input, name: &str, format: Format, line_base: u64) -> Result<(), Fail> {
    let Some(at) = input.binary_at() else {
        return Ok(());
    };
    let (line, col) = cescacs_batch::place_of(input.head(), at, (line_base, 1));
    Err(Fail::Input(format!(
        "{name}:{line}:{col}: error: NUL byte (byte {at}): binary data, not {} text; not read",
        format.name()
    )))
}

/// The text encoding the splitter scans with, as the batch engine chooses it: the
/// decoded text is UTF-8; otherwise guessed from the head.
fn scan_encoding(input: &Input) -> TextEncoding {
    if input.decoded_from.is_some() {
        TextEncoding::Bytes
    } else {
        TextEncoding::detect(input.head())
    }
}

/// Bytes in memory as an input. Not `Input::from_bytes`, which takes a failure to
/// read its head for impossible: damaged compressed bytes fail there. Here, as for a
/// file, such a failure is the first read's error: the input then reads as one game
/// carrying it.
fn in_memory(name: String, bytes: Vec<u8>) -> Input {
    let size = bytes.len() as u64;
    Input::from_reader(name, Some(size), io::Cursor::new(bytes))
}

/// A source opened through the CLI's input layer (`cescacs_batch::Input`): bytes,
/// a binary file object or a path; compressed or not (gzip, bzip2, zstd, xz, found by
/// their magic bytes and undone in Rust), UTF-16 decoded. `range` reads a byte range
/// of a plain file (Spark splits). A file is opened as `Input::open` opens it, except
/// that a failure to read its head (a compressed stream damaged within its first
/// 64 KiB) is kept for the first read, as for every other source, instead of failing
/// the open: the reader then yields one game carrying the error.
fn open_source(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<String>,
    range: Option<(u64, Option<u64>)>,
) -> PyResult<Input> {
    if let Ok(bytes) = source.downcast::<PyBytes>() {
        let name = name.unwrap_or_else(|| "<bytes>".into());
        let bytes = bytes.as_bytes().to_vec();
        return Ok(py.allow_threads(|| in_memory(name, bytes)));
    }
    if let Ok(bytes) = source.downcast::<PyByteArray>() {
        let name = name.unwrap_or_else(|| "<bytes>".into());
        let bytes = bytes.to_vec();
        return Ok(py.allow_threads(|| in_memory(name, bytes)));
    }
    if let Ok(framed) = source.downcast::<seekable::FramedFile>() {
        // Decoded in Rust, from the frame holding `begin`: no Python call per read.
        let name = name.unwrap_or_else(|| "<stream>".into());
        let framed = framed.borrow();
        let (begin, end) = range.unwrap_or((0, None));
        let size = end.unwrap_or(framed.size()).saturating_sub(begin);
        // Only placed here: the first read decodes.
        let reader = framed
            .range(begin, end)
            .map_err(|e| Fail::Input(format!("{name}: {e}")))?;
        return Ok(py.allow_threads(|| Input::from_reader(name, Some(size), reader)));
    }
    if source.hasattr("read")? {
        let name = name.unwrap_or_else(|| "<stream>".into());
        let reader = feed::PyReader::new(source.clone().unbind());
        // The head is read here; an error in it is kept for the first read.
        return Ok(py.allow_threads(|| Input::from_reader(name, None, reader)));
    }
    let path: PathBuf = source.extract().map_err(|_| {
        Fail::Option(format!(
            "source must be bytes, a path or a binary file object, not {}",
            source.get_type()
        ))
    })?;
    let shown = name.unwrap_or_else(|| path.display().to_string());
    let opened = py.allow_threads(|| match range {
        None => {
            let file = std::fs::File::open(&path)?;
            let meta = file.metadata()?;
            if meta.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "is a directory",
                ));
            }
            let size = meta.is_file().then_some(meta.len());
            Ok(Input::from_reader(shown.clone(), size, file))
        }
        Some((begin, end)) => {
            let end = match end {
                Some(e) => e,
                None => std::fs::metadata(&path)?.len(),
            };
            let range = split::open_range(&path, begin, end)?;
            let size = end.saturating_sub(begin);
            Ok(Input::from_reader(shown.clone(), Some(size), range))
        }
    });
    opened.map_err(|e| Fail::Input(format!("{shown}: {e}")).into())
}

/// Reads games from `source`: bytes, a path (plain or compressed; a directory: every
/// game file below it, walked as the CLI walks it), or a file-like object, binary or
/// text (`name` then names it). `begin`/`end` read a byte range of a plain file and
/// `index_base`/`line_base` place it in its file (Spark splits).
#[pyfunction]
#[pyo3(signature = (source, format=None, name=None, begin=0, end=None, index_base=1, line_base=1))]
#[allow(clippy::too_many_arguments)]
fn read_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
    begin: u64,
    end: Option<u64>,
    index_base: u64,
    line_base: u64,
) -> PyResult<GameReader> {
    let feed = open_feed(
        py,
        source,
        format,
        name,
        (begin, end),
        (index_base, line_base),
    )?;
    Ok(GameReader::new(feed))
}

/// The tags of every game of `source` (as [`read_games`] takes it), read from the tag
/// sections alone: no movetext parsed, no replay.
#[pyfunction]
#[pyo3(signature = (source, format=None, name=None))]
fn read_headers(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
) -> PyResult<headers::HeaderReader> {
    let feed = open_feed(py, source, format, name, (0, None), (1, 1))?;
    Ok(headers::HeaderReader::new(feed))
}

/// The feed of a source; see [`read_games`].
fn open_feed(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
    (begin, end): (u64, Option<u64>),
    (index_base, line_base): (u64, u64),
) -> PyResult<Feed> {
    let range = (begin > 0 || end.is_some()).then_some((begin, end));
    let format: Option<String> = opt_arg(format, "format")?;
    let format = format.as_deref();
    let given = format.map(format_arg).transpose()?;
    let name: Option<String> = opt_arg(name, "name")?;
    if let Some(dir) = directory(source)
        && range.is_none()
    {
        if let Some(f) = given
            && !f.is_input()
        {
            return Err(Fail::Option(format!("{} is an output format only", f.name())).into());
        }
        return Ok(py.allow_threads(|| Feed::tree(&dir, given)));
    }
    let mut input = open_source(py, source, name, range)?;
    let name = input.name.clone();
    let format = detect_or(format, &name, input.head()).map_err(|e| unreadable(&mut input, e))?;
    refuse_binary(&input, &name, format, line_base)?;
    let splitter = feed::splitter(input, format, &name);
    Ok(Feed::one(
        splitter,
        format,
        name,
        (index_base, line_base, begin),
    ))
}

/// The path `source` names when it is a directory.
fn directory(source: &Bound<'_, PyAny>) -> Option<PathBuf> {
    if source.downcast::<PyBytes>().is_ok() || source.downcast::<PyByteArray>().is_ok() {
        return None;
    }
    let path: PathBuf = source.extract().ok()?;
    path.is_dir().then_some(path)
}

/// The decompressed text of a file, as a binary stream (`read`, `close`, a context
/// manager): the same input layer as [`read_games`], for callers that want the bytes.
#[pyclass(frozen, module = "cescacs")]
struct DecompressedFile {
    input: Mutex<Option<Input>>,
    name: String,
}

#[pymethods]
impl DecompressedFile {
    /// Up to `size` bytes (all that is left when `size` is negative or omitted);
    /// empty at the end.
    #[pyo3(signature = (size=-1))]
    fn read<'py>(&self, py: Python<'py>, size: i64) -> PyResult<Bound<'py, PyBytes>> {
        let mut guard = lock(py, &self.input);
        let Some(input) = guard.as_mut() else {
            return Err(Fail::Option(format!("{}: read of a closed file", self.name)).into());
        };
        let data = py.allow_threads(|| {
            let mut data = Vec::new();
            let result = if size < 0 {
                input.read_to_end(&mut data)
            } else {
                input.by_ref().take(size as u64).read_to_end(&mut data)
            };
            result.map(|_| data)
        });
        let data = data.map_err(|e| Fail::Input(format!("{}: {e}", self.name)))?;
        Ok(PyBytes::new(py, &data))
    }
    /// True: the stream is readable.
    fn readable(&self) -> bool {
        true
    }
    /// Closes the stream.
    fn close(&self, py: Python<'_>) {
        *lock(py, &self.input) = None;
    }
    /// The file's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }
    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    #[pyo3(signature = (*_args))]
    fn __exit__(&self, py: Python<'_>, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.close(py);
        false
    }
}

/// Opens a file (plain or compressed: gzip, bzip2, zstd, xz, found by its magic bytes)
/// as a stream of its decompressed bytes.
#[pyfunction]
fn open_decompressed(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<DecompressedFile> {
    let input = open_source(py, path, None, None)?;
    Ok(DecompressedFile {
        name: input.name.clone(),
        input: Mutex::new(Some(input)),
    })
}

/// The format of a file from its name and first bytes, or None.
#[pyfunction]
fn detect(name: &str, head: &[u8]) -> Option<&'static str> {
    cescacs_convert::detect(cescacs_convert::without_compression(name), head).map(Format::name)
}

/// How a format is cut into records: "pgn", "lines", "whole" or "json".
#[pyfunction]
fn framing(format: &str, name: &str) -> PyResult<&'static str> {
    Ok(framing_name(input_framing(format_arg(format)?, name)))
}

/// First pass of a Spark split (see `split.rs`): (begin, end, games, lines,
/// end_is_boundary) of the byte range `[start, stop)` of a plain file.
#[pyfunction]
fn scan_range(
    py: Python<'_>,
    path: PathBuf,
    start: u64,
    stop: u64,
    framing: &str,
) -> PyResult<(u64, u64, u64, u64, bool)> {
    let framing = framing_arg(framing)?;
    let s = py
        .allow_threads(|| split::scan(&path, start, stop, framing))
        .map_err(|e| Fail::Input(format!("{}: {e}", path.display())))?;
    Ok((s.begin, s.end, s.games, s.lines, s.end_is_boundary))
}

/// Converts every game of `data` to `to` as `cescacs convert` does (same input layer,
/// same per-game converter, same framing of the outputs); raises `ParseError` with
/// every located error if a game is bad. Runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (data, to, from_=None, *, fan=None, minimal=None, notation=None, strip=None, strict=None, json_lines=None))]
#[allow(clippy::too_many_arguments)]
fn convert<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    to: &Bound<'py, PyAny>,
    from_: Option<&Bound<'py, PyAny>>,
    fan: Option<Bound<'py, PyAny>>,
    minimal: Option<Bound<'py, PyAny>>,
    notation: Option<Bound<'py, PyAny>>,
    strip: Option<Bound<'py, PyAny>>,
    strict: Option<Bound<'py, PyAny>>,
    json_lines: Option<Bound<'py, PyAny>>,
) -> PyResult<String> {
    let to = format_arg(&arg::<String>(to, "to")?)?;
    let from_: Option<String> = opt_arg(from_, "from_")?;
    let args = WriteArgs {
        fan,
        minimal,
        notation,
        strip,
        strict,
        json_lines,
    };
    let options = write_options(to, &args)?;
    if let Some(f) = &from_ {
        format_arg(f)?;
    }
    let bytes: Vec<u8> = if let Ok(s) = data.downcast::<pyo3::types::PyString>() {
        s.extract::<String>()?.into_bytes()
    } else if let Ok(b) = data.downcast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(Fail::Option("data must be str or bytes".into()).into());
    };
    let name = "<data>";
    let text = py.allow_threads(|| {
        unpanicked(name, || {
            convert_bytes(name, bytes, to, from_.as_deref(), options)
        })
    })?;
    Ok(text)
}

fn convert_bytes(
    name: &str,
    bytes: Vec<u8>,
    to: Format,
    from_: Option<&str>,
    options: Options,
) -> Result<String, Fail> {
    let mut input = in_memory(name.to_string(), bytes);
    let from = detect_or(from_, name, input.head()).map_err(|e| unreadable(&mut input, e))?;
    refuse_binary(&input, name, from, 1)?;
    let converter = cescacs_convert::Converter::new(from, Some(to), options)
        .map_err(|e| Fail::Option(e.to_string()))?;
    let encoding = scan_encoding(&input);
    let mut splitter = GameSplitter::new(input, split::max_game_bytes())
        .framing(converter.framing(name))
        .encoding(encoding);
    let mut outputs = Vec::new();
    let mut errors = Vec::new();
    let mut games_read = 0;
    loop {
        let raw = match splitter.next_game() {
            // Not a game (text after the last one): the CLI's convert warns and skips it.
            Ok(Some(raw)) if raw.problem == Some(Problem::TrailingText) => continue,
            Ok(Some(raw)) => raw,
            Ok(None) => break,
            Err(e) => {
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
                errors.push(located(
                    name,
                    games_read as u64 + 1,
                    (splitter.line(), 1),
                    splitter.offset(),
                    &d,
                ));
                break;
            }
        };
        games_read = raw.index;
        let outcome = converter.convert(&raw);
        let at = |d: &GameDiagnostic| {
            located(
                name,
                raw.index as u64,
                (raw.line, raw.column),
                raw.offset,
                d,
            )
        };
        if outcome.is_bad() {
            errors.extend(
                outcome
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .map(at),
            );
        } else {
            outputs.push(outcome.output);
        }
    }
    if !errors.is_empty() {
        return Err(Fail::Parse(errors.join("\n")));
    }
    let framing = converter.output_framing();
    let mut out = framing.header.clone();
    for (i, o) in outputs.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(&framing.separator);
        }
        out.extend_from_slice(o);
    }
    out.extend_from_slice(&framing.footer);
    String::from_utf8(out).map_err(|e| Fail::Parse(format!("{name}: {e}")))
}

/// A C'escacs position. Usable from any thread (the position is behind a lock).
#[pyclass(frozen, module = "cescacs", name = "Position")]
struct Position {
    position: Mutex<cescacs_rules::Position>,
}

impl Position {
    fn get(&self) -> cescacs_rules::Position {
        match self.position.lock() {
            Ok(p) => p.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }
}

#[pymethods]
impl Position {
    /// The initial position, or the one a TLPD (PDTL) string gives.
    #[new]
    #[pyo3(signature = (tlpd=None))]
    fn new(tlpd: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let tlpd: Option<String> = opt_arg(tlpd, "tlpd")?;
        let position = match tlpd.as_deref() {
            None => cescacs_rules::Position::initial(),
            Some(s) => unpanicked("TLPD", || {
                cescacs_tlpd::parse(s).map_err(|e| Fail::Parse(format!("bad TLPD {s:?}: {e}")))
            })?,
        };
        Ok(Position {
            position: Mutex::new(position),
        })
    }
    /// Every legal move in CTL-AN with its check marker, sorted (as `cescacs moves`).
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        let position = self.get();
        let moves = unpanicked("legal_moves", || {
            let letters = cescacs_rules::Letters::default();
            let mut moves: Vec<String> = position
                .legal_moves()
                .iter()
                .map(|&m| position.move_to_an(m, &letters))
                .collect();
            moves.sort_unstable();
            Ok(moves)
        })?;
        Ok(moves)
    }
    /// Plays a move given in CTL-AN; raises ParseError if it is not legal here.
    fn play(&self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv: String = arg(mv, "move")?;
        let mv = mv.as_str();
        let mut guard = match self.position.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        let position = &mut *guard;
        unpanicked(mv, || {
            let letters = cescacs_rules::Letters::default();
            let text = cescacs_rules::an::MoveText::parse(mv, &letters)
                .map_err(|e| Fail::Parse(format!("{mv:?}: {e}")))?;
            let resolved = position
                .resolve(&text)
                .map_err(|e| Fail::Parse(format!("{mv:?}: {e}")))?;
            position.play_unchecked(resolved.mv);
            Ok(())
        })?;
        Ok(())
    }
    /// The position as TLPD.
    fn tlpd(&self) -> String {
        cescacs_tlpd::write(&self.get())
    }
    /// Leaf nodes of the legal move tree `depth` plies deep, counted with the GIL
    /// released; a depth above the rules' limit raises OptionError.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth: u32 = arg(depth, "depth")?;
        let position = self.get();
        let n = py.allow_threads(move || {
            unpanicked("perft", || {
                cescacs_rules::try_perft(&position, depth, 1)
                    .map_err(|e| Fail::Option(e.to_string()))
            })
        })?;
        Ok(n)
    }
    /// The board as SVG, captioned with the TLPD.
    fn _repr_svg_(&self) -> String {
        cescacs_convert::cescacs_svg(&self.get(), None)
    }
    // == issue 29 part A: the board protocol shared with `Board` (board.rs)
    /// Plays a move given in CTL-AN (as `play`).
    fn push(&self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(mv)
    }
    /// The position as TLPD (as `tlpd`): the protocol's name.
    fn fen(&self) -> String {
        self.tlpd()
    }
    /// The side to move is in check.
    fn is_check(&self) -> bool {
        self.get().is_check()
    }
    /// The side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.get().status() == cescacs_rules::Status::Checkmate
    }
    /// The side to move has no legal move and is not in check.
    fn is_stalemate(&self) -> bool {
        self.get().status() == cescacs_rules::Status::Stalemate
    }
    // == end issue 29 part A
    fn __repr__(&self) -> String {
        format!("cescacs.Position({:?})", self.tlpd())
    }
    fn __str__(&self) -> String {
        self.tlpd()
    }
}

/// The native module.
#[pymodule]
fn _cescacs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Game>()?;
    m.add_class::<GameReader>()?;
    m.add_class::<DecompressedFile>()?;
    m.add_class::<Position>()?;
    m.add_class::<model::Move>()?;
    m.add_class::<model::Mainline>()?;
    m.add_class::<model::GameNode>()?;
    m.add_class::<model::Score>()?;
    m.add_class::<board::Board>()?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(read_headers, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_game, m)?)?;
    // == issue 29 part B: Move and GameNode pickling
    m.add_function(wrap_pyfunction!(pickle::_move, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_node, m)?)?;
    m.add_function(wrap_pyfunction!(pickle::_mainline, m)?)?;
    // == end issue 29 part B
    m.add_class::<headers::HeaderReader>()?;
    m.add_class::<headers::Headers>()?;
    m.add_class::<edit::GameEditor>()?;
    m.add_function(wrap_pyfunction!(open_decompressed, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(framing, m)?)?;
    m.add_function(wrap_pyfunction!(scan_range, m)?)?;
    m.add_function(wrap_pyfunction!(remote::scan_source, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::read_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(seekable::seekable_frames, m)?)?;
    m.add_function(wrap_pyfunction!(seekable::scan_frames, m)?)?;
    m.add_class::<seekable::FramedFile>()?;
    m.add_class::<chunks::ChunkCutter>()?;
    m.add_class::<select::Selected>()?;
    m.add_function(wrap_pyfunction!(select::select, m)?)?;
    Ok(())
}

/// `text` as the value of a double-quoted HTML attribute.
fn html_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}
