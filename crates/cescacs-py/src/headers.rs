//! `read_headers`: the tags of every game from its tag section alone: the movetext is
//! neither parsed nor replayed. A classic PGN game's section is scanned on the
//! splitter's buffer (`cescacs_convert::GameHeaders::read_plain`) into one string per game;
//! a section the scan does not take (rare: a repeated name, a `%` line among the tags,
//! a line break in a value) is read by the full reader, so the tags are always those
//! of `read_games`. Xiangqi and C'escacs sections are read with the headers-only
//! readers `cescacs select` decides tag filters with (`cescacs_convert::headers`).

use crate::feed::Feed;
use crate::{Game, Item, Origin, fill, lock, unpanicked};
use cescacs_batch::{RawGame, Severity};
use cescacs_convert::Format;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// Tag pairs in input order.
enum Tags {
    /// A classic PGN tag section as scanned: one string for the game (a copy of the
    /// scan's, made at its exact size: two allocations a game, not two a tag).
    Plain(cescacs_convert::GameHeaders),
    /// As another reader gave them.
    Pairs(Vec<(String, String)>),
}

impl Tags {
    fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        let (plain, pairs) = match self {
            Tags::Plain(h) => (Some(h.tags()), None),
            Tags::Pairs(p) => (None, Some(p.iter().map(|(n, v)| (n.as_str(), v.as_str())))),
        };
        plain
            .into_iter()
            .flatten()
            .chain(pairs.into_iter().flatten())
    }

    fn len(&self) -> usize {
        match self {
            Tags::Plain(h) => h.len(),
            Tags::Pairs(p) => p.len(),
        }
    }
}

/// The tags of one game, with where it is.
#[pyclass(frozen, module = "cescacs")]
pub(crate) struct Headers {
    /// A game as `read_games` gives it, when the tag section alone could not be read
    /// (PCN, a damaged tag section, a file that could not be read): its errors are the
    /// full read's. Boxed: a `Game` is large, and a header is moved several times on
    /// its way to Python (into the batch, out of it, into its Python object).
    full: Option<Box<Game>>,
    tags: Tags,
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
        // Tag names, and many values, repeat from game to game: one shared string
        // each, and one dict make-up per sequence of names, from tables borrowed once
        // for the section.
        crate::interned::with_tags(|t| match &self.tags {
            Tags::Plain(h) => t.dict(py, h.tags()),
            Tags::Pairs(p) => t.dict(py, p.iter().map(|(n, v)| (n.as_str(), v.as_str()))),
        })
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
            .filter(|(k, _)| *k == name)
            .last()
            .map(|(_, v)| v.to_string())
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
    /// The tag section alone: scanned on the splitter's buffer for classic PGN, read
    /// with the headers-only readers for xiangqi and C'escacs.
    fn quick(
        format: Format,
        raw: &RawGame,
        feed: &mut Feed,
        index: u64,
        line: u64,
    ) -> Option<Headers> {
        thread_local! {
            static SCRATCH: std::cell::RefCell<cescacs_convert::GameHeaders> =
                std::cell::RefCell::new(cescacs_convert::GameHeaders::default());
        }
        if raw.problem.is_some() {
            return None;
        }
        let tags = match format {
            Format::Pgn => SCRATCH.with_borrow_mut(|h| {
                let tags = h.read_plain(&raw.bytes).then(|| Tags::Plain(h.clone()));
                // A huge game's tag text is not kept for the games after it.
                if raw.bytes.len() > 1 << 20 {
                    *h = cescacs_convert::GameHeaders::default();
                }
                tags
            })?,
            _ => {
                let pairs = cescacs_convert::headers(format, raw)?;
                Tags::Pairs(pairs)
            }
        };
        Some(Headers {
            full: None,
            tags,
            file: feed.shared_name(),
            index,
            line,
        })
    }
    /// PCN, a tag section the plain scan does not take, a damaged one, a file that
    /// could not be read: the full read's tags (a chess game's `FEN` and `SetUp` as
    /// written, as the scan gives them); its errors only when the tag section cannot
    /// be read alone, as before the scan (the movetext is not checked by
    /// `read_headers`).
    fn full(g: Game) -> Headers {
        let mut tags = g.record.tags();
        let alone = match &g.origin {
            Origin::Raw { raw, member: 0 } if g.record.format() == Format::Pgn => {
                cescacs_convert::headers(Format::Pgn, raw)
            }
            _ => None,
        };
        if let Some(alone) = &alone {
            let set_up = |n: &str| n.eq_ignore_ascii_case("FEN") || n.eq_ignore_ascii_case("SetUp");
            tags.extend(alone.iter().filter(|(n, _)| set_up(n)).cloned());
        }
        Headers {
            tags: Tags::Pairs(tags),
            file: Arc::from(g.file.as_str()),
            index: g.index,
            line: g.line,
            full: alone.is_none().then(|| Box::new(g)),
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
