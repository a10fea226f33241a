//! `cescacs.select(source, …)`: the games of one input that pass `cescacs select`'s
//! filters, decided by the same code (`cescacs_convert::Criteria` and `Filter`), given
//! back lazily as their text, as they were. Games a filter needed to read and could
//! not are not selected and are listed, located, in `errors`.

use crate::errors::Fail;
use cescacs_batch::{GameSplitter, Input, Problem};
use cescacs_convert::{Criteria, Filter, Format, Options, Verdict};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Mutex;

/// The selected games of one input, lazily: each is its text (`str`, decoded as
/// UTF-8 with unreadable bytes replaced).
#[pyclass(frozen, module = "cescacs")]
pub(crate) struct Selected {
    splitter: Mutex<Option<GameSplitter<Input>>>,
    filter: Filter,
    format: Format,
    name: String,
    errors: Mutex<Vec<String>>,
}

#[pymethods]
impl Selected {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let mut guard = crate::lock(py, &self.splitter);
        let splitter = &mut *guard;
        let next = py.allow_threads(|| {
            crate::unpanicked(&self.name, || {
                while let Some(s) = splitter.as_mut() {
                    let raw = match s.next_game() {
                        Ok(Some(raw)) => raw,
                        Ok(None) => break,
                        Err(e) => {
                            let at = s.line();
                            self.note(format!("{}:{at}: error: read error: {e}", self.name));
                            break;
                        }
                    };
                    if matches!(raw.problem, Some(Problem::TrailingText)) {
                        continue;
                    }
                    match self.filter.verdict(self.format, &raw, &Options::default()) {
                        Verdict::Selected => {
                            return Ok(Some(String::from_utf8_lossy(&raw.bytes).into_owned()));
                        }
                        Verdict::Rejected => {}
                        Verdict::Bad(diagnostics) => {
                            for d in diagnostics {
                                let at = (raw.line, raw.column);
                                let text = crate::located(
                                    &self.name,
                                    raw.index as u64,
                                    at,
                                    raw.offset,
                                    &d,
                                );
                                self.note(text);
                            }
                        }
                    }
                }
                *splitter = None;
                Ok(None)
            })
        })?;
        Ok(next)
    }

    /// The errors of the games a filter needed to read and could not (not selected),
    /// located as the CLI prints them, so far.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Vec<String> {
        crate::lock(py, &self.errors).clone()
    }
}

impl Selected {
    fn note(&self, text: String) {
        if let Ok(mut e) = self.errors.lock() {
            e.push(text);
        }
    }
}

fn read(path: Option<PathBuf>, option: &str) -> Result<Option<(String, String)>, Fail> {
    path.map(|p| {
        std::fs::read_to_string(&p)
            .map(|text| (p.display().to_string(), text))
            .map_err(|e| Fail::Input(format!("{option} {}: {e}", p.display())))
    })
    .transpose()
}

/// The games of `source` (as `read_games` takes it) that pass every filter given,
/// with the meaning of `cescacs select`'s options (docs/select.md): text is a
/// case-insensitive substring unless it has `* ? [` (a glob) or `exact` is set;
/// `tags` are `NAME=TEXT` or `NAME OP VALUE` (`WhiteElo>=2700`, `Date<2000`);
/// `criteria` and `positions` are paths of files in the CLI's forms; `any` joins the
/// tag conditions with OR.
#[pyfunction]
#[pyo3(signature = (source, format=None, name=None, *, player=None, event=None, site=None,
    tags=Vec::new(), criteria=None, exact=false, any=false, result=None, position=None,
    fen_patterns=Vec::new(), positions=None, material=Vec::new(), min_plies=None,
    max_plies=None, mate=false, stalemate=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn select(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<String>,
    name: Option<String>,
    player: Option<String>,
    event: Option<String>,
    site: Option<String>,
    tags: Vec<String>,
    criteria: Option<PathBuf>,
    exact: bool,
    any: bool,
    result: Option<String>,
    position: Option<String>,
    fen_patterns: Vec<String>,
    positions: Option<PathBuf>,
    material: Vec<String>,
    min_plies: Option<usize>,
    max_plies: Option<usize>,
    mate: bool,
    stalemate: bool,
) -> PyResult<Selected> {
    if let Some(f) = format.as_deref() {
        crate::format_arg(f)?;
    }
    let mut filter = Filter {
        result,
        min_plies,
        max_plies,
        mate,
        stalemate,
        ..Filter::default()
    };
    if let Some(p) = position {
        filter.position = Some(p.parse().map_err(Fail::Option)?);
    }
    let wanted = Criteria {
        player,
        event,
        site,
        tags,
        criteria: read(criteria, "criteria")?,
        exact,
        any,
        fen_patterns,
        positions: read(positions, "positions")?,
        material,
    };
    wanted.apply(&mut filter).map_err(Fail::Option)?;
    let mut input = crate::open_source(py, source, name, None)?;
    let name = input.name.clone();
    let format = crate::detect_or(format.as_deref(), &name, input.head())
        .map_err(|e| crate::unreadable(&mut input, e))?;
    crate::refuse_binary(&input, &name, format, 1)?;
    let encoding = crate::scan_encoding(&input);
    let splitter = GameSplitter::new(input, crate::split::max_game_bytes())
        .framing(crate::input_framing(format, &name))
        .encoding(encoding);
    Ok(Selected {
        splitter: Mutex::new(Some(splitter)),
        filter,
        format,
        name,
        errors: Mutex::new(Vec::new()),
    })
}
