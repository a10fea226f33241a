//! The native module `cescacs._cescacs` behind the Python package `cescacs`.
//!
//! Thin bindings: games are cut by `cescacs-batch`'s splitter and read, replayed and
//! written by `cescacs-convert` (the per-game pipeline the CLI uses, so messages and
//! results are the CLI's); the Python package (`python/cescacs`) adds compression,
//! path handling and the Spark data source on top.

#![warn(missing_docs)]

mod arrow;
mod chunks;
mod remote;
pub mod split;

use cescacs_batch::{Framing, GameDiagnostic, GameSplitter, Severity};
use cescacs_convert::{Format, Options, Record, StripError};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;
use std::str::FromStr;

create_exception!(
    _cescacs,
    CescacsError,
    pyo3::exceptions::PyValueError,
    "A game record that cannot be read, replayed or written; the message is located as the CLI's (file:line:col: game N: error: ...)."
);

fn format_arg(name: &str) -> PyResult<Format> {
    Format::from_str(name).map_err(|e| PyValueError::new_err(e.to_string()))
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

fn framing_arg(s: &str) -> PyResult<Framing> {
    match s {
        "pgn" => Ok(Framing::Pgn),
        "lines" => Ok(Framing::Lines),
        "whole" => Ok(Framing::Whole),
        "json" => Ok(Framing::Json),
        _ => Err(PyValueError::new_err(format!("unknown framing {s:?}"))),
    }
}

/// A Python file-like object (anything with `read(n) -> bytes`) as a Rust reader.
struct PyReader(PyObject);

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::with_gil(|py| {
            let data = self
                .0
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let bytes = data
                .downcast_bound::<PyBytes>(py)
                .map_err(|_| io::Error::other("read() did not return bytes"))?
                .as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
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
}

impl Game {
    fn located(&self, severity: Severity) -> Vec<String> {
        self.record
            .diagnostics()
            .iter()
            .filter(|d| d.severity == severity)
            .map(|d| {
                located(
                    &self.file,
                    self.index,
                    (self.line, self.column),
                    self.offset,
                    d,
                )
            })
            .collect()
    }
}

/// A game diagnostic placed in its file, as the batch engine places it: lines add up, and
/// a column on the game's first line counts from where the game starts in that line.
fn located(file: &str, index: u64, at: (u64, u64), offset: u64, d: &GameDiagnostic) -> String {
    let (line, column) = at;
    cescacs_batch::Diagnostic {
        severity: d.severity,
        file: file.to_string(),
        game: index as usize,
        line: line + d.line.saturating_sub(1),
        column: if d.line <= 1 {
            d.column + column.saturating_sub(1)
        } else {
            d.column
        },
        byte_offset: offset,
        message: d.message.clone(),
    }
    .to_string()
}

/// The write options of `to_string` and `convert`, checked against the target format
/// (`notation` must be one of `to`'s, as on the command line).
fn write_options(to: Format, options: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
    let mut out = Options::default();
    let Some(options) = options else {
        return Ok(out);
    };
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        match key.as_str() {
            "fan" => out.fan = value.is_truthy()?,
            "strict" => out.strict = value.is_truthy()?,
            "json_lines" => out.json_lines = value.is_truthy()?,
            "minimal" => out.minimal = value.is_truthy()?,
            "notation" => {
                let n: String = value.extract()?;
                out.set_notation(to, &n)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
            }
            "strip" => {
                // "comments,nags" or ["comments", "nags"].
                let list = match value.extract::<String>() {
                    Ok(s) => s,
                    Err(_) => value.extract::<Vec<String>>()?.join(","),
                };
                if !list.is_empty() {
                    out.strip = list
                        .parse()
                        .map_err(|e: StripError| PyValueError::new_err(e.to_string()))?;
                }
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "unknown option {key:?}: expected fan, minimal, notation, strip, strict or json_lines"
                )));
            }
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
        for (k, v) in self.record.tags() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }
    /// Main-line moves as written.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.main_line()
    }
    /// The result marker (`1-0`, `0-1`, `1/2-1/2`, `*`), or None.
    #[getter]
    fn result(&self) -> Option<String> {
        self.record.result()
    }
    /// TLPD (C'escacs) or FEN (chess, xiangqi) after the main line; None for a bad game.
    #[getter]
    fn final_position(&self) -> Option<String> {
        self.record.final_position()
    }
    /// Located error messages; empty for a valid game.
    #[getter]
    fn errors(&self) -> Vec<String> {
        self.located(Severity::Error)
    }
    /// Located warning messages.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.located(Severity::Warning)
    }
    /// The game as a PCN document (a dict).
    fn to_pcn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.to_pcn_json()?;
        py.import("json")?.call_method1("loads", (text,))
    }
    /// The game as one line of PCN JSON.
    fn to_pcn_json(&self) -> PyResult<String> {
        self.record
            .to_pcn()
            .map(|doc| pcn::to_string(&doc))
            .map_err(|e| self.error(e.to_string()))
    }
    /// The game written in `format` (options: fan, minimal, notation, strip).
    #[pyo3(signature = (format, **options))]
    fn to_string(&self, format: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let to = format_arg(format)?;
        let options = write_options(to, options)?;
        self.record
            .write(to, &options)
            .map(|w| w.text)
            .map_err(|e| self.error(e.to_string()))
    }
    /// The final board as SVG (Jupyter shows it), the last move highlighted.
    fn _repr_svg_(&self) -> Option<String> {
        self.record.svg()
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
    fn error(&self, message: String) -> PyErr {
        let d = GameDiagnostic {
            severity: Severity::Error,
            line: 1,
            column: 1,
            message,
        };
        CescacsError::new_err(located(
            &self.file,
            self.index,
            (self.line, self.column),
            self.offset,
            &d,
        ))
    }
}

/// The games of one input, lazily. Used by the thread that made it (its reader may be
/// a Python object).
#[pyclass(module = "cescacs", unsendable)]
struct GameReader {
    splitter: Option<GameSplitter<Box<dyn BufRead + Send>>>,
    format: Format,
    name: String,
    index_base: u64,
    line_base: u64,
    offset_base: u64,
    next_index: u64,
    pending: VecDeque<Game>,
}

impl GameReader {
    fn fill(&mut self) -> PyResult<bool> {
        while self.pending.is_empty() {
            let Some(splitter) = self.splitter.as_mut() else {
                return Ok(false);
            };
            let raw = match splitter.next_game() {
                Ok(Some(raw)) => raw,
                Ok(None) => {
                    self.splitter = None;
                    return Ok(false);
                }
                Err(e) => {
                    self.splitter = None;
                    return Err(CescacsError::new_err(format!("{}: {e}", self.name)));
                }
            };
            let line = self.line_base + raw.line - 1;
            let offset = self.offset_base + raw.offset;
            for record in Record::read_all(self.format, &raw) {
                self.next_index += 1;
                self.pending.push_back(Game {
                    record,
                    file: self.name.clone(),
                    index: self.index_base + self.next_index - 1,
                    line,
                    column: raw.column,
                    offset,
                });
            }
        }
        Ok(true)
    }
}

#[pymethods]
impl GameReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        let _ = py;
        if !self.fill()? {
            return Ok(None);
        }
        Ok(self.pending.pop_front())
    }
    /// The detected or given format.
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }
    /// Up to `n` games as columns, for Arrow: (index, line, tags as lists of pairs,
    /// moves, result, final_position, errors). Empty lists at the end.
    fn next_columns<'py>(&mut self, py: Python<'py>, n: usize) -> PyResult<Bound<'py, PyList>> {
        let index = PyList::empty(py);
        let line = PyList::empty(py);
        let tags = PyList::empty(py);
        let moves = PyList::empty(py);
        let result = PyList::empty(py);
        let final_position = PyList::empty(py);
        let errors = PyList::empty(py);
        let mut count = 0;
        while count < n && self.fill()? {
            let g = self.pending.pop_front().expect("filled");
            index.append(g.index)?;
            line.append(g.line)?;
            tags.append(PyList::new(py, g.record.tags())?)?;
            moves.append(PyList::new(py, g.record.main_line())?)?;
            result.append(g.record.result())?;
            final_position.append(g.record.final_position())?;
            errors.append(g.located(Severity::Error))?;
            count += 1;
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
            ],
        )
    }
}

fn detect_or(format: Option<&str>, name: &str, head: &[u8]) -> PyResult<Format> {
    match format {
        Some(f) => format_arg(f),
        None => cescacs_convert::detect(cescacs_convert::without_compression(name), head)
            .ok_or_else(|| {
                CescacsError::new_err(format!("{name}: cannot tell the game format: give format="))
            }),
    }
}

/// Reads games from `source`: bytes, a path (plain file), or a binary file-like object
/// (`name` then names it). `index_base`/`line_base`/`offset_base` place a byte range in
/// its file (Spark splits).
#[pyfunction]
#[pyo3(signature = (source, format=None, name=None, begin=0, end=None, index_base=1, line_base=1))]
#[allow(clippy::too_many_arguments)]
fn read_games(
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    name: Option<String>,
    begin: u64,
    end: Option<u64>,
    index_base: u64,
    line_base: u64,
) -> PyResult<GameReader> {
    let (name, head, reader): (String, Vec<u8>, Box<dyn BufRead + Send>) =
        if let Ok(bytes) = source.downcast::<PyBytes>() {
            let bytes = bytes.as_bytes().to_vec();
            let head = bytes[..bytes.len().min(8192)].to_vec();
            let name = name.unwrap_or_else(|| "<bytes>".into());
            (name, head, Box::new(io::Cursor::new(bytes)))
        } else if source.hasattr("read")? {
            let name = name.unwrap_or_else(|| "<stream>".into());
            let mut reader = BufReader::with_capacity(1 << 16, PyReader(source.clone().unbind()));
            let head = reader.fill_buf()?.to_vec();
            (name, head, Box::new(reader))
        } else {
            let path: PathBuf = source.extract()?;
            let shown = name.unwrap_or_else(|| path.display().to_string());
            let open = |p: &PathBuf| -> io::Result<(Vec<u8>, Box<dyn BufRead + Send>)> {
                let mut head = vec![0u8; 8192];
                let mut f = std::fs::File::open(p)?;
                let mut n = 0;
                while n < head.len() {
                    match f.read(&mut head[n..])? {
                        0 => break,
                        k => n += k,
                    }
                }
                head.truncate(n);
                let end = match end {
                    Some(e) => e,
                    None => std::fs::metadata(p)?.len(),
                };
                let range = split::open_range(p, begin, end)?;
                Ok((head, Box::new(BufReader::with_capacity(1 << 16, range))))
            };
            let (head, reader) =
                open(&path).map_err(|e| CescacsError::new_err(format!("{shown}: {e}")))?;
            (shown, head, reader)
        };
    let format = detect_or(format, &name, &head)?;
    let splitter =
        GameSplitter::new(reader, split::max_game_bytes()).framing(input_framing(format, &name));
    Ok(GameReader {
        splitter: Some(splitter),
        format,
        name,
        index_base,
        line_base,
        offset_base: begin,
        next_index: 0,
        pending: VecDeque::new(),
    })
}

/// The format of a file from its name and first bytes, or None.
#[pyfunction]
fn detect(name: &str, head: &[u8]) -> Option<&'static str> {
    cescacs_convert::detect(cescacs_convert::without_compression(name), head).map(Format::name)
}

/// How a format is cut into records: "pgn", "lines" or "whole".
#[pyfunction]
fn framing(format: &str, name: &str) -> PyResult<&'static str> {
    Ok(framing_name(input_framing(format_arg(format)?, name)))
}

/// First pass of a Spark split (see `split.rs`): (begin, end, games, lines,
/// end_is_boundary) of the byte range `[start, stop)` of a plain file.
#[pyfunction]
fn scan_range(
    path: PathBuf,
    start: u64,
    stop: u64,
    framing: &str,
) -> PyResult<(u64, u64, u64, u64, bool)> {
    let s = split::scan(&path, start, stop, framing_arg(framing)?)
        .map_err(|e| CescacsError::new_err(format!("{}: {e}", path.display())))?;
    Ok((s.begin, s.end, s.games, s.lines, s.end_is_boundary))
}

/// Converts every game of `data` to `to` as `cescacs convert` does (same per-game
/// converter, same framing of the outputs); raises with every located error if a game
/// is bad.
#[pyfunction]
#[pyo3(signature = (data, to, from_=None, **options))]
fn convert(
    data: &Bound<'_, PyAny>,
    to: &str,
    from_: Option<&str>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let to = format_arg(to)?;
    let options = write_options(to, options)?;
    let bytes: Vec<u8> = if let Ok(s) = data.extract::<String>() {
        s.into_bytes()
    } else if let Ok(b) = data.downcast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err("data must be str or bytes"));
    };
    let name = "<data>";
    let from = detect_or(from_, name, &bytes[..bytes.len().min(8192)])?;
    let converter = cescacs_convert::Converter::new(from, Some(to), options)
        .map_err(|e| CescacsError::new_err(e.to_string()))?;
    let mut splitter =
        GameSplitter::new(&bytes[..], split::max_game_bytes()).framing(converter.framing(name));
    let mut outputs = Vec::new();
    let mut errors = Vec::new();
    while let Some(raw) = splitter
        .next_game()
        .map_err(|e| CescacsError::new_err(e.to_string()))?
    {
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
        return Err(CescacsError::new_err(errors.join("\n")));
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
    String::from_utf8(out).map_err(|e| CescacsError::new_err(e.to_string()))
}

/// A C'escacs position.
#[pyclass(module = "cescacs", name = "Position")]
struct Position {
    position: cescacs_rules::Position,
}

#[pymethods]
impl Position {
    /// The initial position, or the one a TLPD (PDTL) string gives.
    #[new]
    #[pyo3(signature = (tlpd=None))]
    fn new(tlpd: Option<&str>) -> PyResult<Position> {
        let position = match tlpd {
            None => cescacs_rules::Position::initial(),
            Some(s) => cescacs_tlpd::parse(s)
                .map_err(|e| CescacsError::new_err(format!("bad TLPD {s:?}: {e}")))?,
        };
        Ok(Position { position })
    }
    /// Every legal move in CTL-AN with its check marker, sorted (as `cescacs moves`).
    fn legal_moves(&self) -> Vec<String> {
        let letters = cescacs_rules::Letters::default();
        let mut moves: Vec<String> = self
            .position
            .legal_moves()
            .iter()
            .map(|&m| self.position.move_to_an(m, &letters))
            .collect();
        moves.sort_unstable();
        moves
    }
    /// Plays a move given in CTL-AN; raises CescacsError if it is not legal here.
    fn play(&mut self, mv: &str) -> PyResult<()> {
        let letters = cescacs_rules::Letters::default();
        let text = cescacs_rules::an::MoveText::parse(mv, &letters)
            .map_err(|e| CescacsError::new_err(format!("{mv:?}: {e}")))?;
        let resolved = self
            .position
            .resolve(&text)
            .map_err(|e| CescacsError::new_err(format!("{mv:?}: {e}")))?;
        self.position.play(resolved.mv);
        Ok(())
    }
    /// The position as TLPD.
    fn tlpd(&self) -> String {
        cescacs_tlpd::write(&self.position)
    }
    /// Leaf nodes of the legal move tree `depth` plies deep.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let position = self.position.clone();
        py.allow_threads(move || cescacs_rules::perft(&position, depth))
    }
    /// The board as SVG, captioned with the TLPD.
    fn _repr_svg_(&self) -> String {
        cescacs_convert::cescacs_svg(&self.position, None)
    }
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
    m.add("CescacsError", m.py().get_type::<CescacsError>())?;
    m.add_class::<Game>()?;
    m.add_class::<GameReader>()?;
    m.add_class::<Position>()?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(detect, m)?)?;
    m.add_function(wrap_pyfunction!(framing, m)?)?;
    m.add_function(wrap_pyfunction!(scan_range, m)?)?;
    m.add_function(wrap_pyfunction!(remote::scan_source, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::read_arrow, m)?)?;
    m.add_class::<chunks::ChunkCutter>()?;
    Ok(())
}
