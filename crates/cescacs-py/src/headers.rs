//! `read_headers`: the tags of every game from its tag section alone, with the
//! headers-only readers `cescacs select` decides tag filters with
//! (`cescacs_convert::headers`): the movetext is neither parsed nor replayed.

use crate::feed::Feed;
use crate::{Game, Item, fill, lock, unpanicked};
use cescacs_batch::{RawGame, Severity};
use cescacs_convert::Format;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The tags of one game, with where it is.
#[pyclass(frozen, module = "cescacs")]
pub(crate) struct Headers {
    /// A game as `read_games` gives it, when the tag section alone could not be read
    /// (PCN, a damaged tag section, a file that could not be read): its tags and
    /// errors are the full read's.
    full: Option<Game>,
    tags: Vec<(String, String)>,
    /// Shared by the headers of one file.
    file: Arc<str>,
    index: u64,
    line: u64,
}

#[pymethods]
impl Headers {
    /// Tag pairs (a later tag of the same name wins, as in `Game.tags`).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.tags {
            // Tag names repeat from game to game: one shared string each.
            d.set_item(crate::interned::text(py, k), v)?;
        }
        Ok(d)
    }
    /// The file it was read from.
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }
    /// 1-based number of the game in its file (0 for a file that could not be read).
    #[getter]
    fn index(&self) -> u64 {
        self.index
    }
    /// 1-based line of the game's first byte in its file.
    #[getter]
    fn line(&self) -> u64 {
        self.line
    }
    /// Located errors when the tag section alone could not be read and the full read
    /// found errors; otherwise empty (the movetext is not looked at: use `read_games`
    /// to check games).
    #[getter]
    fn errors(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        match &self.full {
            Some(g) => g.py_diagnostics(py, Severity::Error),
            None => Ok(Vec::new()),
        }
    }
    /// The value of tag `name`, or `default`.
    #[pyo3(signature = (name, default=None))]
    fn get(&self, name: &str, default: Option<String>) -> Option<String> {
        self.tags
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .or(default)
    }
    fn __repr__(&self) -> String {
        format!(
            "<cescacs.Headers #{} of {:?}: {} tags>",
            self.index,
            self.file,
            self.tags.len()
        )
    }
}

/// The headers of one input, lazily (see [`crate::GameReader`] for threads).
#[pyclass(frozen, module = "cescacs")]
pub(crate) struct HeaderReader {
    state: Mutex<(Feed, VecDeque<Headers>)>,
}

impl HeaderReader {
    pub(crate) fn new(feed: Feed) -> HeaderReader {
        HeaderReader {
            state: Mutex::new((feed, VecDeque::new())),
        }
    }
}

/// Headers read per release of the GIL: a tag section takes about a microsecond to
/// read, so releasing and taking the GIL for each would cost as much as the reading.
const BATCH: usize = 256;

impl Item for Headers {
    /// The tag section alone, read with the headers-only readers.
    fn quick(
        format: Format,
        raw: &RawGame,
        feed: &mut Feed,
        index: u64,
        line: u64,
    ) -> Option<Headers> {
        let tags = cescacs_convert::headers(format, raw)?;
        Some(Headers {
            full: None,
            tags,
            file: feed.shared_name(),
            index,
            line,
        })
    }
    /// PCN, a damaged tag section, a file that could not be read: the full read's tags
    /// and errors.
    fn full(g: Game) -> Headers {
        Headers {
            tags: g.record.tags(),
            file: Arc::from(g.file.as_str()),
            index: g.index,
            line: g.line,
            full: Some(g),
        }
    }
}

#[pymethods]
impl HeaderReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Headers>> {
        let mut guard = lock(py, &self.state);
        let (feed, pending) = &mut *guard;
        if let Some(h) = pending.pop_front() {
            return Ok(Some(h));
        }
        let name = feed.name.clone();
        let next = py.allow_threads(|| {
            unpanicked(&name, || {
                fill(feed, pending, BATCH);
                Ok(pending.pop_front())
            })
        });
        match next {
            Ok(h) => Ok(h),
            Err(e) => {
                feed.close();
                pending.clear();
                Err(e.into())
            }
        }
    }
}
