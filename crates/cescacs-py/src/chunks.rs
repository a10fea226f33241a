//! The serial first stage for one large compressed file: the decompressed stream is read
//! once and cut into chunks of about `chunk_bytes` that start and end at game boundaries
//! (the whole-file splitter's own cut, not a guess), each with the number and line of its
//! first game in the file, so that other tasks parse the chunks in parallel and number
//! the games as the CLI does.

use cescacs_batch::GameSplitter;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::io::{self, BufReader, Read};
use std::sync::{Arc, Mutex};

/// A reader that keeps a copy of every byte it hands out, until the cutter takes it.
struct Tee {
    inner: Box<dyn Read + Send>,
    seen: Arc<Mutex<Vec<u8>>>,
}

impl Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.seen
            .lock()
            .map_err(|_| io::Error::other("poisoned"))?
            .extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

/// One chunk: its bytes, its offset, the number and line of its first game.
type Chunk<'py> = (Bound<'py, PyBytes>, u64, u64, u64);

/// Iterates over `(chunk, begin, index_base, line_base)`: the chunk's bytes, the offset of
/// its first byte in the decompressed file, and the number and line of its first game.
#[pyclass(module = "cescacs", unsendable)]
pub struct ChunkCutter {
    splitter: Option<GameSplitter<BufReader<Tee>>>,
    seen: Arc<Mutex<Vec<u8>>>,
    name: String,
    chunk_bytes: u64,
    /// Offset of `seen[0]` in the file: where the current chunk begins.
    start: u64,
    index_base: u64,
    line_base: u64,
    games: u64,
}

impl ChunkCutter {
    /// Takes the bytes of the current chunk up to `end` (an offset in the file).
    fn take(&mut self, end: u64) -> PyResult<Vec<u8>> {
        let mut seen = self
            .seen
            .lock()
            .map_err(|_| PyErr::from(crate::errors::Fail::Internal("poisoned".into())))?;
        let n = usize::try_from(end - self.start)
            .unwrap_or(usize::MAX)
            .min(seen.len());
        let rest = seen.split_off(n);
        Ok(std::mem::replace(&mut *seen, rest))
    }
}

#[pymethods]
impl ChunkCutter {
    /// Cuts the (decompressed) binary stream `source` into chunks of about `chunk_bytes`
    /// (PGN framing: C'escacs, chess or xiangqi PGN); `name` names it in errors.
    #[new]
    fn new(source: PyObject, name: String, chunk_bytes: u64) -> Self {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let tee = Tee {
            inner: Box::new(crate::feed::PyReader::new(source)),
            seen: seen.clone(),
        };
        let splitter = GameSplitter::new(
            BufReader::with_capacity(1 << 16, tee),
            crate::split::max_game_bytes(),
        );
        ChunkCutter {
            splitter: Some(splitter),
            seen,
            name,
            chunk_bytes: chunk_bytes.max(1),
            start: 0,
            index_base: 1,
            line_base: 1,
            games: 0,
        }
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Chunk<'py>>> {
        loop {
            let Some(splitter) = self.splitter.as_mut() else {
                return Ok(None);
            };
            match splitter.next_game() {
                Ok(Some(game)) => {
                    if self.games > 0 && game.offset - self.start >= self.chunk_bytes {
                        let chunk = self.take(game.offset)?;
                        let out = (self.start, self.index_base, self.line_base);
                        self.start = game.offset;
                        self.index_base += self.games;
                        self.line_base = game.line;
                        self.games = 1;
                        return Ok(Some((PyBytes::new(py, &chunk), out.0, out.1, out.2)));
                    }
                    self.games += 1;
                }
                Ok(None) => {
                    // The splitter read to the end: what is left is the last chunk.
                    self.splitter = None;
                    let chunk = self.take(u64::MAX)?;
                    if chunk.is_empty() && self.games == 0 {
                        return Ok(None);
                    }
                    return Ok(Some((
                        PyBytes::new(py, &chunk),
                        self.start,
                        self.index_base,
                        self.line_base,
                    )));
                }
                Err(e) => {
                    self.splitter = None;
                    return Err(crate::errors::Fail::Input(format!("{}: {e}", self.name)).into());
                }
            }
        }
    }
}
