//! Where a reader's games come from: one input (a path, bytes, a stream) or every game
//! file below a directory, walked and opened as the CLI's commands open their inputs
//! (`cescacs_convert::open_inputs`: the same walk, order, zip members, refusals), one
//! file open at a time.

use cescacs_batch::{Diagnostic, FileNote, GameSplitter, Input, Problem, RawGame, TextEncoding};
use cescacs_convert::Format;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

/// What comes next out of a [`Feed`].
pub(crate) enum Next {
    /// A game's bytes (or a splitter problem), with the input's format and name.
    Raw(Format, RawGame),
    /// A problem of a whole file met while walking a directory (game 0).
    File(Diagnostic),
    /// Nothing more.
    End,
}

/// The inputs of a reader, cut into games.
pub(crate) struct Feed {
    splitter: Option<GameSplitter<Input>>,
    /// The current input's format and name.
    pub(crate) format: Format,
    pub(crate) name: String,
    /// `name` shared (see [`Feed::shared_name`]).
    shared: Option<Arc<str>>,
    /// Raw games read from the current input.
    games_read: usize,
    /// Records numbered in the current input (a PCN array holds several per raw game).
    pub(crate) records: u64,
    inputs: VecDeque<(Format, Input)>,
    problems: VecDeque<Diagnostic>,
    /// Placement of the first input in its file (Spark splits); later inputs of a
    /// directory start at 1.
    pub(crate) index_base: u64,
    pub(crate) line_base: u64,
    pub(crate) offset_base: u64,
}

/// The framing and encoding the splitter cuts `input` with, as the batch engine chooses
/// them.
pub(crate) fn splitter(input: Input, format: Format, name: &str) -> GameSplitter<Input> {
    let encoding = if input.decoded_from.is_some() {
        TextEncoding::Bytes
    } else {
        TextEncoding::detect(input.head())
    };
    GameSplitter::new(input, crate::split::max_game_bytes())
        .framing(crate::input_framing(format, name))
        .encoding(encoding)
}

impl Feed {
    /// One input, already opened and its format chosen.
    pub(crate) fn one(
        splitter: GameSplitter<Input>,
        format: Format,
        name: String,
        (index_base, line_base, offset_base): (u64, u64, u64),
    ) -> Feed {
        Feed {
            splitter: Some(splitter),
            format,
            name,
            shared: None,
            games_read: 0,
            records: 0,
            inputs: VecDeque::new(),
            problems: VecDeque::new(),
            index_base,
            line_base,
            offset_base,
        }
    }

    /// Every game file below `dir`, in the CLI's walk order, grouped by format as the
    /// CLI groups them. Files that cannot be read are problems yielded first, in the
    /// order met; they never stop the other files (an empty directory is an empty
    /// feed).
    pub(crate) fn tree(dir: &Path, from: Option<Format>) -> Feed {
        let mut problems = VecDeque::new();
        let mut note = |n: &FileNote| {
            if let FileNote::Problem(d) = n {
                problems.push_back(d.clone());
            }
        };
        let paths = [dir.to_path_buf()];
        let opened = cescacs_convert::open_inputs(&paths, from, None, (None, None), &mut note);
        let inputs: VecDeque<(Format, Input)> = match opened {
            Ok(o) => o
                .groups
                .into_iter()
                .flat_map(|(f, list)| list.into_iter().map(move |i| (f, i)))
                .collect(),
            // "No input could be read" (each problem already noted) or "no input files".
            Err(_) => VecDeque::new(),
        };
        // The reader's `format`: the first file's (each game has its own).
        let first = inputs.front().map(|(f, _)| *f);
        Feed {
            splitter: None,
            format: first.or(from).unwrap_or(Format::Pgn),
            name: dir.display().to_string(),
            shared: None,
            games_read: 0,
            records: 0,
            inputs,
            problems,
            index_base: 1,
            line_base: 1,
            offset_base: 0,
        }
    }

    /// The next raw game; a read error (a damaged compressed stream, a failing file)
    /// ends its input as a game of its own carrying the problem, as the CLI's batch
    /// engine reports it.
    pub(crate) fn next(&mut self) -> Next {
        if let Some(d) = self.problems.pop_front() {
            return Next::File(d);
        }
        loop {
            let Some(splitter) = self.splitter.as_mut() else {
                let Some((format, input)) = self.inputs.pop_front() else {
                    return Next::End;
                };
                // Opened again only now: one file open at a time (see `Input::defer`).
                let input = input.reopen();
                self.name = input.name.clone();
                let name = cescacs_convert::detection_name(Path::new(&self.name));
                self.splitter = Some(splitter(input, format, &name));
                self.format = format;
                self.games_read = 0;
                self.records = 0;
                continue;
            };
            match splitter.next_game() {
                // Text after the last game that holds no game: the CLI warns and counts
                // no game; a reader yields none (the splitter has already ended there).
                Ok(Some(raw)) if raw.problem == Some(Problem::TrailingText) => {}
                Ok(Some(raw)) => {
                    self.games_read = raw.index;
                    return Next::Raw(self.format, raw);
                }
                Ok(None) => self.splitter = None,
                Err(source) => {
                    let raw = RawGame {
                        index: self.games_read + 1,
                        line: splitter.line(),
                        column: 1,
                        offset: splitter.offset(),
                        bytes: Vec::new(),
                        truncated: true,
                        problem: Some(Problem::Read {
                            message: source.to_string(),
                        }),
                    };
                    self.splitter = None;
                    self.games_read = raw.index;
                    return Next::Raw(self.format, raw);
                }
            }
        }
    }

    /// Gives a game's buffer back to the splitter for a later game (a headers reader
    /// is done with the bytes once the tags are read: no allocation per game).
    pub(crate) fn recycle(&mut self, bytes: Vec<u8>) {
        if let Some(s) = self.splitter.as_mut() {
            s.recycle(bytes);
        }
    }

    /// The current input's name, shared by every item of the input (one allocation
    /// per file, not per game).
    pub(crate) fn shared_name(&mut self) -> Arc<str> {
        match &self.shared {
            Some(n) if **n == *self.name => n.clone(),
            _ => {
                let n: Arc<str> = Arc::from(self.name.as_str());
                self.shared = Some(n.clone());
                n
            }
        }
    }

    /// Drops what is left (after a failure).
    pub(crate) fn close(&mut self) {
        self.splitter = None;
        self.inputs.clear();
        self.problems.clear();
    }
}

/// A Python file-like object as a Rust reader: `read(n)` may return bytes, a
/// bytearray or text (a text-mode file, `io.StringIO`: encoded as UTF-8, the encoding
/// the readers expect; what does not fit the caller's buffer is kept for the next
/// call). It takes the GIL for each call, so it may be read from a thread that
/// released it.
pub(crate) struct PyReader {
    stream: pyo3::PyObject,
    /// Encoded text not yet handed out.
    left: Vec<u8>,
    at: usize,
}

impl PyReader {
    pub(crate) fn new(stream: pyo3::PyObject) -> PyReader {
        PyReader {
            stream,
            left: Vec::new(),
            at: 0,
        }
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use pyo3::prelude::*;
        use pyo3::types::{PyByteArray, PyBytes, PyString};
        if self.at < self.left.len() {
            let n = buf.len().min(self.left.len() - self.at);
            buf[..n].copy_from_slice(&self.left[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        Python::with_gil(|py| {
            let data = self
                .stream
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let data = data.bind(py);
            let bytes = if let Ok(b) = data.downcast::<PyBytes>() {
                b.as_bytes().to_vec()
            } else if let Ok(b) = data.downcast::<PyByteArray>() {
                b.to_vec()
            } else if let Ok(s) = data.downcast::<PyString>() {
                // `read(n)` of a text stream counts characters: up to 4n bytes.
                let text = s.to_cow().map_err(|e| io::Error::other(e.to_string()))?;
                let bytes = text.as_bytes();
                let n = bytes.len().min(buf.len());
                buf[..n].copy_from_slice(&bytes[..n]);
                self.left = bytes[n..].to_vec();
                self.at = 0;
                return Ok(n);
            } else if data.is_none() {
                // A non-blocking stream with nothing ready; nothing else to do but end.
                Vec::new()
            } else {
                return Err(io::Error::other(format!(
                    "read() returned {}, not bytes or str",
                    data.get_type()
                )));
            };
            if bytes.len() > buf.len() {
                return Err(io::Error::other(format!(
                    "read({}) returned {} bytes",
                    buf.len(),
                    bytes.len()
                )));
            }
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        })
    }
}
