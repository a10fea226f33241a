//! Files that are not on the local disk (object storage, HDFS, …): Python opens them
//! (fsspec, see `python/cescacs/_storage.py`) and hands the splitter a callable that
//! returns a fresh binary file object with `read` and `seek`.

use crate::split::{self, ReadSeek, Source};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::io::{self, Read, Seek, SeekFrom};

/// A Python binary file object (`read(n)`, `seek(pos, whence)`) as a Rust reader.
struct PyFile(PyObject);

fn py_io(e: PyErr) -> io::Error {
    io::Error::other(e.to_string())
}

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::with_gil(|py| {
            let data = self
                .0
                .call_method1(py, "read", (buf.len(),))
                .map_err(py_io)?;
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

impl Seek for PyFile {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        let (offset, whence): (i64, u8) = match pos {
            SeekFrom::Start(n) => (
                i64::try_from(n).map_err(|_| io::Error::other("offset too large"))?,
                0,
            ),
            SeekFrom::Current(n) => (n, 1),
            SeekFrom::End(n) => (n, 2),
        };
        Python::with_gil(|py| {
            self.0
                .call_method1(py, "seek", (offset, whence))
                .map_err(py_io)?;
            self.0
                .call_method0(py, "tell")
                .and_then(|t| t.extract::<u64>(py))
                .map_err(py_io)
        })
    }
}

/// A file reopened through a Python callable; its size is known from the listing.
pub(crate) struct PySource {
    opener: PyObject,
    size: u64,
}

impl PySource {
    /// The file `opener()` opens, of `size` bytes.
    pub(crate) fn new(opener: PyObject, size: u64) -> Self {
        PySource { opener, size }
    }
}

impl Source for PySource {
    fn open(&self) -> io::Result<Box<dyn ReadSeek>> {
        let file = Python::with_gil(|py| self.opener.call0(py)).map_err(py_io)?;
        Ok(Box::new(PyFile(file)))
    }
    fn size(&self) -> io::Result<u64> {
        Ok(self.size)
    }
}

/// First pass of a Spark split over a file opened by `opener()` (a file of `size`
/// bytes): (begin, end, games, lines, end_is_boundary), as `scan_range` for a path.
#[pyfunction]
pub fn scan_source(
    py: Python<'_>,
    opener: PyObject,
    size: u64,
    start: u64,
    stop: u64,
    framing: &str,
    name: &str,
) -> PyResult<(u64, u64, u64, u64, bool)> {
    let framing = crate::framing_arg(framing)?;
    let source = PySource { opener, size };
    // The splitter takes the GIL only while it calls read/seek.
    let s = py
        .allow_threads(|| split::scan(&source, start, stop, framing))
        .map_err(|e| PyErr::from(crate::errors::Fail::Input(format!("{name}: {e}"))))?;
    Ok((s.begin, s.end, s.games, s.lines, s.end_is_boundary))
}
