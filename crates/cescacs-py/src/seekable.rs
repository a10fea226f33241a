//! Compressed files that can be read from the middle: a zstd file of several frames
//! (the zstd *seekable format*'s seek table, or frames whose headers carry their content
//! size) and a BGZF file (gzip members that carry their own length, as `bgzip` writes).
//! Their frame table, read from headers without decompressing, maps a decompressed offset
//! to the frame holding it, so the decompressed text is a seekable file of known length:
//! the plain-file splitter (`split.rs`) then cuts it into byte ranges that Spark tasks
//! read in parallel, with no serial stage. Other compressed files (one zstd frame, plain
//! gzip members, bzip2, xz) have no such table and go through the serial cut
//! (`chunks.rs`).

use crate::split::{ReadSeek, Source};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::sync::Mutex;

/// One frame: where it lies in the compressed file and in the decompressed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// Offset of the frame's first byte in the compressed file.
    pub compressed: u64,
    /// Offset of the frame's first decompressed byte in the decompressed text.
    pub decompressed: u64,
}

/// Which decoder undoes the frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// zstd frames (skippable frames, such as a seek table, are skipped by the decoder).
    Zstd,
    /// gzip members (BGZF).
    Gzip,
}

/// The frame table of a seekable compressed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frames {
    /// The codec.
    pub codec: Codec,
    /// The frames, in file order, each holding at least one decompressed byte.
    pub frames: Vec<Frame>,
    /// Length of the decompressed text.
    pub size: u64,
}

const ZSTD_MAGIC: u32 = 0xFD2F_B528;
const SEEK_TABLE_FOOTER: u32 = 0x8F92_EAB1;
const SEEK_TABLE_MAGIC: u32 = 0x184D_2A5E;

fn le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

fn read_exact_at(file: &mut dyn ReadSeek, at: u64, buf: &mut [u8]) -> io::Result<()> {
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(buf)
}

/// The frame table of `source` (`len` compressed bytes), or `None` when the file is not
/// in a seekable form or has fewer than two frames (nothing to gain). Only headers are
/// read: a seek table at the end, else one small read per zstd block or gzip member.
pub fn frame_table(source: &(impl Source + ?Sized)) -> io::Result<Option<Frames>> {
    let len = source.size()?;
    if len < 18 {
        return Ok(None);
    }
    let mut file = source.open()?;
    let mut magic = [0u8; 4];
    read_exact_at(&mut *file, 0, &mut magic)?;
    let table = if le(&magic) as u32 == ZSTD_MAGIC {
        match seek_table(&mut *file, len)? {
            Some(t) => Some(t),
            None => zstd_frames(&mut *file, len)?,
        }
    } else if magic[..2] == [0x1f, 0x8b] {
        bgzf_members(&mut *file, len)?
    } else {
        None
    };
    Ok(table.filter(|t| t.frames.len() >= 2))
}

/// The zstd seekable format's seek table (a skippable frame ending the file).
fn seek_table(file: &mut dyn ReadSeek, len: u64) -> io::Result<Option<Frames>> {
    let mut footer = [0u8; 9];
    read_exact_at(file, len - 9, &mut footer)?;
    if le(&footer[5..9]) as u32 != SEEK_TABLE_FOOTER {
        return Ok(None);
    }
    let count = le(&footer[0..4]);
    let entry = if footer[4] & 0x80 != 0 { 12 } else { 8 };
    let table_len = count * entry;
    // The skippable frame: magic, size, entries, footer.
    let Some(start) = len.checked_sub(table_len + 9 + 8) else {
        return Ok(None);
    };
    let mut header = [0u8; 8];
    read_exact_at(file, start, &mut header)?;
    if le(&header[0..4]) as u32 != SEEK_TABLE_MAGIC || le(&header[4..8]) != table_len + 9 {
        return Ok(None);
    }
    let mut entries = vec![0u8; usize::try_from(table_len).map_err(io::Error::other)?];
    file.read_exact(&mut entries)?;
    let (mut c, mut d) = (0u64, 0u64);
    let mut frames = Vec::new();
    for e in entries.chunks(entry as usize) {
        let (cs, ds) = (le(&e[0..4]), le(&e[4..8]));
        if ds > 0 {
            frames.push(Frame {
                compressed: c,
                decompressed: d,
            });
        }
        c += cs;
        d += ds;
    }
    if c != start {
        // The table does not describe this file's frames: not trusted.
        return Ok(None);
    }
    Ok(Some(Frames {
        codec: Codec::Zstd,
        frames,
        size: d,
    }))
}

/// zstd frames walked header by header; `None` if a frame does not say its size.
fn zstd_frames(file: &mut dyn ReadSeek, len: u64) -> io::Result<Option<Frames>> {
    let mut reader = BufReader::with_capacity(1 << 12, file);
    let (mut at, mut d) = (0u64, 0u64);
    let mut frames = Vec::new();
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "damaged zstd frame header");
    while at < len {
        reader.seek(SeekFrom::Start(at))?;
        let mut head = [0u8; 4];
        reader.read_exact(&mut head)?;
        let magic = le(&head) as u32;
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            reader.read_exact(&mut head)?;
            at += 8 + le(&head);
            continue;
        }
        if magic != ZSTD_MAGIC {
            return Err(bad());
        }
        let mut fhd = [0u8; 1];
        reader.read_exact(&mut fhd)?;
        let fhd = fhd[0];
        let single_segment = fhd & 0x20 != 0;
        let checksum = fhd & 0x04 != 0;
        let dict_len = [0u64, 1, 2, 4][usize::from(fhd & 3)];
        let fcs_len = match fhd >> 6 {
            0 if single_segment => 1,
            0 => 0,
            1 => 2,
            2 => 4,
            _ => 8,
        };
        if fcs_len == 0 {
            return Ok(None);
        }
        let window = u64::from(!single_segment);
        let mut skip = vec![0u8; (window + dict_len) as usize];
        reader.read_exact(&mut skip)?;
        let mut fcs = vec![0u8; fcs_len];
        reader.read_exact(&mut fcs)?;
        let size = le(&fcs) + if fcs_len == 2 { 256 } else { 0 };
        let mut pos = at + 5 + window + dict_len + fcs_len as u64;
        loop {
            let mut block = [0u8; 3];
            reader.seek(SeekFrom::Start(pos))?;
            reader.read_exact(&mut block)?;
            let h = le(&block);
            let body = match (h >> 1) & 3 {
                1 => 1,
                3 => return Err(bad()),
                _ => h >> 3,
            };
            pos += 3 + body;
            if h & 1 == 1 {
                break;
            }
        }
        if checksum {
            pos += 4;
        }
        if size > 0 {
            frames.push(Frame {
                compressed: at,
                decompressed: d,
            });
        }
        d += size;
        at = pos;
    }
    Ok(Some(Frames {
        codec: Codec::Zstd,
        frames,
        size: d,
    }))
}

/// BGZF members (gzip members whose extra field `BC` gives their length; ISIZE, the
/// member's last four bytes, its decompressed length); `None` if a member has no `BC`.
fn bgzf_members(file: &mut dyn ReadSeek, len: u64) -> io::Result<Option<Frames>> {
    let (mut at, mut d) = (0u64, 0u64);
    let mut frames = Vec::new();
    while at < len {
        let mut head = [0u8; 12];
        read_exact_at(file, at, &mut head)?;
        if head[..3] != [0x1f, 0x8b, 8] || head[3] & 0x04 == 0 {
            return Ok(None);
        }
        let xlen = le(&head[10..12]) as usize;
        let mut extra = vec![0u8; xlen];
        file.read_exact(&mut extra)?;
        let mut block = None;
        let mut i = 0;
        while i + 4 <= xlen {
            let slen = le(&extra[i + 2..i + 4]) as usize;
            if extra[i..i + 2] == *b"BC" && slen == 2 && i + 6 <= xlen {
                block = Some(le(&extra[i + 4..i + 6]) + 1);
            }
            i += 4 + slen;
        }
        let Some(block) = block else {
            return Ok(None);
        };
        let mut isize = [0u8; 4];
        read_exact_at(file, at + block - 4, &mut isize)?;
        let size = le(&isize);
        if size > 0 {
            frames.push(Frame {
                compressed: at,
                decompressed: d,
            });
        }
        d += size;
        at += block;
    }
    Ok(Some(Frames {
        codec: Codec::Gzip,
        frames,
        size: d,
    }))
}

/// The decompressed text of a seekable compressed file as a seekable file: a seek
/// starts the decoder at the frame holding the target and skips to it (at most one
/// frame decoded for nothing).
pub struct FramedReader<S: Source + ?Sized + Sync> {
    source: std::sync::Arc<S>,
    table: std::sync::Arc<Frames>,
    decoder: Option<Box<dyn Read + Send>>,
    pos: u64,
}

impl<S: Source + ?Sized + Sync + Send> FramedReader<S> {
    /// A reader at offset 0 of the decompressed text.
    pub fn new(source: std::sync::Arc<S>, table: std::sync::Arc<Frames>) -> Self {
        FramedReader {
            source,
            table,
            decoder: None,
            pos: 0,
        }
    }

    fn start(&mut self) -> io::Result<()> {
        let frames = &self.table.frames;
        let i = frames
            .partition_point(|f| f.decompressed <= self.pos)
            .saturating_sub(1);
        let frame = frames[i];
        let mut raw = self.source.open()?;
        raw.seek(SeekFrom::Start(frame.compressed))?;
        let raw = BufReader::with_capacity(1 << 16, raw);
        let mut decoder: Box<dyn Read + Send> = match self.table.codec {
            Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(raw)?),
            Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
        };
        let skip = self.pos - frame.decompressed;
        let skipped = io::copy(&mut (&mut decoder).take(skip), &mut io::sink())?;
        if skipped < skip {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the compressed file is shorter than its frame table says",
            ));
        }
        self.decoder = Some(decoder);
        Ok(())
    }
}

impl<S: Source + ?Sized + Sync + Send> Read for FramedReader<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.table.size {
            return Ok(0);
        }
        if self.decoder.is_none() {
            self.start()?;
        }
        let left = usize::try_from(self.table.size - self.pos).unwrap_or(usize::MAX);
        let n = buf.len().min(left);
        let decoder = self
            .decoder
            .as_mut()
            .ok_or_else(|| io::Error::other("no decoder"))?;
        let got = decoder.read(&mut buf[..n])?;
        if got == 0 && n > 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the compressed file ends before its frame table says",
            ));
        }
        self.pos += got as u64;
        Ok(got)
    }
}

impl<S: Source + ?Sized + Sync + Send> Seek for FramedReader<S> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::Current(n) => self.pos.checked_add_signed(n),
            SeekFrom::End(n) => self.table.size.checked_add_signed(n),
        }
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        if target != self.pos {
            self.pos = target;
            self.decoder = None;
        }
        Ok(self.pos)
    }
}

/// A source opened either from a local path or through a Python opener.
enum Raw {
    Path(std::path::PathBuf),
    Py(crate::remote::PySource),
}

impl Source for Raw {
    fn open(&self) -> io::Result<Box<dyn ReadSeek>> {
        match self {
            Raw::Path(p) => p.open(),
            Raw::Py(s) => s.open(),
        }
    }
    fn size(&self) -> io::Result<u64> {
        match self {
            Raw::Path(p) => p.size(),
            Raw::Py(s) => s.size(),
        }
    }
}

fn raw_source(source: &Bound<'_, PyAny>, size: Option<u64>) -> PyResult<Raw> {
    if source.is_callable() {
        let size = size.ok_or_else(|| {
            PyErr::from(crate::errors::Fail::Option(
                "size= is needed with an opener".into(),
            ))
        })?;
        return Ok(Raw::Py(crate::remote::PySource::new(
            source.clone().unbind(),
            size,
        )));
    }
    Ok(Raw::Path(source.extract()?))
}

/// A frame table as Python sees it: codec name, (compressed, decompressed) offset of
/// each frame, decompressed size.
type FrameTable = (String, Vec<(u64, u64)>, u64);

/// The frame table of a seekable compressed file (a local path, or an `opener()` of a
/// binary file object of `size` bytes): `(codec, [(compressed, decompressed) offset of
/// each frame], decompressed size)`, or `None` when it is not in a seekable form.
#[pyfunction]
#[pyo3(signature = (source, size=None, name=None))]
pub fn seekable_frames(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    size: Option<u64>,
    name: Option<String>,
) -> PyResult<Option<FrameTable>> {
    let raw = raw_source(source, size)?;
    let shown = name.unwrap_or_else(|| format!("{source}"));
    let table = py
        .allow_threads(|| frame_table(&raw))
        .map_err(|e| PyErr::from(crate::errors::Fail::Input(format!("{shown}: {e}"))))?;
    Ok(table.map(|t| {
        let codec = match t.codec {
            Codec::Zstd => "zstd",
            Codec::Gzip => "gzip",
        };
        let frames = t
            .frames
            .iter()
            .map(|f| (f.compressed, f.decompressed))
            .collect();
        (codec.to_string(), frames, t.size)
    }))
}

/// The decompressed text of a seekable compressed file as a binary file object
/// (`read`, `seek`, `tell`, `close`), given its frame table from `seekable_frames`.
#[pyclass(module = "cescacs")]
pub struct FramedFile {
    reader: Mutex<FramedReader<Raw>>,
    source: std::sync::Arc<Raw>,
    table: std::sync::Arc<Frames>,
}

impl FramedFile {
    /// A reader of the decompressed bytes `[begin, end)` (to the end when `end` is
    /// `None`), decoded in Rust with no Python call per read: what `read_arrow` reads
    /// when it is given a `FramedFile` and a range (a Spark range task).
    pub(crate) fn range(
        &self,
        begin: u64,
        end: Option<u64>,
    ) -> io::Result<impl Read + Send + use<>> {
        let mut reader = FramedReader::new(self.source.clone(), self.table.clone());
        reader.seek(SeekFrom::Start(begin))?;
        let end = end.unwrap_or(self.table.size).min(self.table.size);
        Ok(reader.take(end.saturating_sub(begin)))
    }

    /// The decompressed length.
    pub(crate) fn size(&self) -> u64 {
        self.table.size
    }
}

/// The parts of a frame table as Python gives it.
fn frames_of(table: &FrameTable) -> PyResult<Frames> {
    let codec = match table.0.as_str() {
        "zstd" => Codec::Zstd,
        "gzip" => Codec::Gzip,
        other => {
            return Err(crate::errors::Fail::Option(format!("unknown codec {other:?}")).into());
        }
    };
    if table.1.is_empty() {
        return Err(crate::errors::Fail::Option("an empty frame table".into()).into());
    }
    Ok(Frames {
        codec,
        frames: table
            .1
            .iter()
            .map(|&(c, d)| Frame {
                compressed: c,
                decompressed: d,
            })
            .collect(),
        size: table.2,
    })
}

/// The decompressed text of a seekable compressed file as a [`Source`].
struct Decompressed(std::sync::Arc<Raw>, std::sync::Arc<Frames>);

impl Source for Decompressed {
    fn open(&self) -> io::Result<Box<dyn ReadSeek>> {
        Ok(Box::new(FramedReader::new(self.0.clone(), self.1.clone())))
    }
    fn size(&self) -> io::Result<u64> {
        Ok(self.1.size)
    }
}

/// First pass of a Spark split over the decompressed text of a seekable compressed
/// file (its frame table from `seekable_frames`): (begin, end, games, lines,
/// end_is_boundary) of `[start, stop)`, as `scan_range` gives them for a plain file.
/// `start` and `stop` are frame starts (or the decompressed size): sync points are
/// then searched from them with the frame-start rule (`split::scan_from_frame_starts`),
/// so each frame of the range is decoded once and no frame only to be skipped.
#[pyfunction]
#[pyo3(signature = (source, table, start, stop, framing, size=None, name=None))]
#[allow(clippy::too_many_arguments)]
pub fn scan_frames(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    table: FrameTable,
    start: u64,
    stop: u64,
    framing: &str,
    size: Option<u64>,
    name: Option<String>,
) -> PyResult<(u64, u64, u64, u64, bool)> {
    let framing = crate::framing_arg(framing)?;
    let raw = raw_source(source, size)?;
    let shown = name.unwrap_or_else(|| format!("{source}"));
    let view = Decompressed(
        std::sync::Arc::new(raw),
        std::sync::Arc::new(frames_of(&table)?),
    );
    let s = py
        .allow_threads(|| crate::split::scan_from_frame_starts(&view, start, stop, framing))
        .map_err(|e| PyErr::from(crate::errors::Fail::Input(format!("{shown}: {e}"))))?;
    Ok((s.begin, s.end, s.games, s.lines, s.end_is_boundary))
}

#[pymethods]
impl FramedFile {
    #[new]
    #[pyo3(signature = (source, table, size=None))]
    fn new(source: &Bound<'_, PyAny>, table: FrameTable, size: Option<u64>) -> PyResult<Self> {
        let source = std::sync::Arc::new(raw_source(source, size)?);
        let table = std::sync::Arc::new(frames_of(&table)?);
        Ok(FramedFile {
            reader: Mutex::new(FramedReader::new(source.clone(), table.clone())),
            source,
            table,
        })
    }

    /// Up to `size` decompressed bytes (all that is left when negative).
    #[pyo3(signature = (size=-1))]
    fn read<'py>(&self, py: Python<'py>, size: i64) -> PyResult<Bound<'py, PyBytes>> {
        let data = py.allow_threads(|| -> io::Result<Vec<u8>> {
            let mut reader = self
                .reader
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?;
            let mut out = Vec::new();
            if size < 0 {
                reader.read_to_end(&mut out)?;
            } else {
                let want = size as usize;
                out.resize(want, 0);
                let mut got = 0;
                while got < want {
                    let n = reader.read(&mut out[got..])?;
                    if n == 0 {
                        break;
                    }
                    got += n;
                }
                out.truncate(got);
            }
            Ok(out)
        });
        let data = data.map_err(|e| PyErr::from(crate::errors::Fail::Input(e.to_string())))?;
        Ok(PyBytes::new(py, &data))
    }

    /// Moves to `offset` (from the start, the current position or the end).
    #[pyo3(signature = (offset, whence=0))]
    fn seek(&self, offset: i64, whence: u8) -> PyResult<u64> {
        let to =
            match whence {
                0 => SeekFrom::Start(u64::try_from(offset).map_err(|_| {
                    PyErr::from(crate::errors::Fail::Option("negative offset".into()))
                })?),
                1 => SeekFrom::Current(offset),
                _ => SeekFrom::End(offset),
            };
        let mut reader = self
            .reader
            .lock()
            .map_err(|_| PyErr::from(crate::errors::Fail::Internal("poisoned".into())))?;
        reader
            .seek(to)
            .map_err(|e| crate::errors::Fail::Option(e.to_string()).into())
    }

    /// The current offset in the decompressed text.
    fn tell(&self) -> PyResult<u64> {
        self.seek(0, 1)
    }

    fn readable(&self) -> bool {
        true
    }

    fn seekable(&self) -> bool {
        true
    }

    /// Drops the decoder (the file is reopened by the next read).
    fn close(&self) {
        if let Ok(mut r) = self.reader.lock() {
            r.decoder = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cescacs-py-seek-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::File::create(&path)
            .unwrap()
            .write_all(bytes)
            .unwrap();
        path
    }

    fn text() -> Vec<u8> {
        (0..2000)
            .map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 {{ game {i} }} 1-0\n\n"))
            .collect::<String>()
            .into_bytes()
    }

    fn zstd_frames_of(text: &[u8], piece: usize, seek_table: bool) -> Vec<u8> {
        let mut out = Vec::new();
        let mut entries = Vec::new();
        for part in text.chunks(piece) {
            let mut enc = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
            enc.set_pledged_src_size(Some(part.len() as u64)).unwrap();
            enc.include_contentsize(!seek_table).unwrap();
            enc.write_all(part).unwrap();
            let frame = enc.finish().unwrap();
            entries.push((frame.len() as u32, part.len() as u32));
            out.extend(frame);
        }
        if seek_table {
            out.extend(SEEK_TABLE_MAGIC.to_le_bytes());
            out.extend((entries.len() as u32 * 8 + 9).to_le_bytes());
            for (c, d) in &entries {
                out.extend(c.to_le_bytes());
                out.extend(d.to_le_bytes());
            }
            out.extend((entries.len() as u32).to_le_bytes());
            out.push(0);
            out.extend(SEEK_TABLE_FOOTER.to_le_bytes());
        }
        out
    }

    fn bgzf_of(text: &[u8], piece: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for part in text.chunks(piece).chain(std::iter::once(&[][..])) {
            let mut body = flate2::write::DeflateEncoder::new(Vec::new(), Default::default());
            body.write_all(part).unwrap();
            let body = body.finish().unwrap();
            let total = 18 + body.len() + 8;
            out.extend([
                0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0,
            ]);
            out.extend(((total - 1) as u16).to_le_bytes());
            out.extend(body);
            let mut crc = flate2::Crc::new();
            crc.update(part);
            out.extend(crc.sum().to_le_bytes());
            out.extend((part.len() as u32).to_le_bytes());
        }
        out
    }

    /// Every offset read through the frame table gives the text's bytes from there.
    fn check(name: &str, compressed: &[u8], codec: Codec) {
        let text = text();
        let path = temp(name, compressed);
        let table = frame_table(&path).unwrap().expect("seekable");
        assert_eq!(table.codec, codec);
        assert_eq!(table.size, text.len() as u64);
        assert!(table.frames.len() > 2);
        let mut reader = FramedReader::new(std::sync::Arc::new(path), std::sync::Arc::new(table));
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, text);
        for at in (0..text.len()).step_by(997) {
            reader.seek(SeekFrom::Start(at as u64)).unwrap();
            let mut buf = vec![0u8; 3000];
            let n = reader.read(&mut buf).unwrap();
            assert!(n > 0);
            assert_eq!(&buf[..n], &text[at..at + n]);
        }
    }

    #[test]
    fn zstd_frames_with_their_sizes() {
        check(
            "frames.pgn.zst",
            &zstd_frames_of(&text(), 7001, false),
            Codec::Zstd,
        );
    }

    #[test]
    fn zstd_seek_table() {
        check(
            "table.pgn.zst",
            &zstd_frames_of(&text(), 7001, true),
            Codec::Zstd,
        );
    }

    #[test]
    fn bgzf() {
        check("bgzf.pgn.gz", &bgzf_of(&text(), 7001), Codec::Gzip);
    }

    #[test]
    fn one_frame_or_plain_gzip_is_not_seekable() {
        let one = zstd::encode_all(&text()[..], 3).unwrap();
        assert_eq!(frame_table(&temp("one.zst", &one)).unwrap(), None);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        gz.write_all(&text()).unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(frame_table(&temp("plain.gz", &gz)).unwrap(), None);
        // zstd frames without their content size: no table (the serial cut reads it).
        let mut nosize = Vec::new();
        for part in text().chunks(7001) {
            let mut enc = zstd::stream::Encoder::new(Vec::new(), 3).unwrap();
            enc.include_contentsize(false).unwrap();
            enc.write_all(part).unwrap();
            nosize.extend(enc.finish().unwrap());
        }
        assert_eq!(frame_table(&temp("nosize.zst", &nosize)).unwrap(), None);
    }

    #[test]
    fn split_over_frames_gives_the_whole_file_cut() {
        // The plain-file splitter over the decompressed view: every game once.
        let text = text();
        let path = temp("split.pgn.zst", &zstd_frames_of(&text, 5003, false));
        let table = std::sync::Arc::new(frame_table(&path).unwrap().unwrap());
        let view = View(std::sync::Arc::from(path.as_path()), table);
        let size = view.size().unwrap();
        let mut games = 0;
        let mut lines = 0;
        for start in (0..size).step_by(9973) {
            let s = crate::split::scan(
                &view,
                start,
                (start + 9973).min(size),
                cescacs_batch::Framing::Pgn,
            )
            .unwrap();
            assert!(s.end_is_boundary);
            games += s.games;
            lines += s.lines;
        }
        assert_eq!(games, 2000);
        assert_eq!(lines, 2000 * 4);
    }

    #[test]
    fn ranges_at_frame_starts_give_the_whole_file_cut() {
        // Ranges of 1, 2 and 7 frames, cut where frames start (as the Spark plan cuts):
        // every game once, the lines adding up, each range's first game where the
        // previous one stopped.
        let text = text();
        let path = temp("starts.pgn.zst", &zstd_frames_of(&text, 5003, false));
        let table = std::sync::Arc::new(frame_table(&path).unwrap().unwrap());
        let view = Decompressed(std::sync::Arc::new(Raw::Path(path.clone())), table.clone());
        let size = table.size;
        for per in [1, 2, 7] {
            let mut cuts: Vec<u64> = table
                .frames
                .iter()
                .step_by(per)
                .map(|f| f.decompressed)
                .collect();
            cuts.push(size);
            let (mut games, mut lines, mut at) = (0, 0, 0);
            for w in cuts.windows(2) {
                let s = crate::split::scan_from_frame_starts(
                    &view,
                    w[0],
                    w[1],
                    cescacs_batch::Framing::Pgn,
                )
                .unwrap();
                assert!(s.end_is_boundary);
                assert_eq!(s.begin, at, "{per} frames per range");
                at = s.end;
                games += s.games;
                lines += s.lines;
            }
            assert_eq!(at, size);
            assert_eq!(games, 2000);
            assert_eq!(lines, 2000 * 4);
        }
    }

    struct View(std::sync::Arc<std::path::Path>, std::sync::Arc<Frames>);
    impl Source for View {
        fn open(&self) -> io::Result<Box<dyn ReadSeek>> {
            Ok(Box::new(FramedReader::new(self.0.clone(), self.1.clone())))
        }
        fn size(&self) -> io::Result<u64> {
            Ok(self.1.size)
        }
    }
}
