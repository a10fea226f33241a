//! Opening inputs: files, standard input, pipes and FIFOs alike, compressed or not.
//!
//! An input is read once, from its first byte: the head (the first [`HEAD_BYTES`] of
//! its decompressed text) is kept so the caller can detect the format from content
//! without reopening anything — a pipe, a FIFO or `<(cat f)` cannot be read twice.
//!
//! Text that is not UTF-8 or a single-byte encoding is decoded to UTF-8 as it is read,
//! before the splitter and the format readers see it: UTF-16 (LE or BE, found by its
//! byte-order mark or by its zero bytes), and whatever `--encoding` names
//! ([`Input::with_encoding`] with [`TextEncoding::Decode`]: Big5, GB18030, CP1251 …).

use crate::{Framing, TextEncoding};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// How much decompressed text [`Input::head`] holds (less when the input is shorter).
pub const HEAD_BYTES: usize = 64 << 10;

/// This many zero bytes in a row in an input's head make it binary
/// ([`Input::binary_at`]): no text encoding but UTF-32 has them (UTF-16 is decoded
/// first), and binary files nearly always do.
pub const BINARY_NUL_RUN: usize = 8;

/// A compression recognised from an input's magic bytes or an output's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// gzip (`1F 8B`, `.gz`); concatenated members are read as one stream.
    Gzip,
    /// bzip2 (`BZh`, `.bz2`); concatenated streams too.
    Bzip2,
    /// Zstandard (`28 B5 2F FD`, `.zst`), as the lichess database ships.
    Zstd,
    /// xz (`FD 37 7A 58 5A 00`, `.xz`).
    Xz,
}

impl Compression {
    /// The compression whose magic bytes start `head`.
    pub fn from_magic(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1F, 0x8B]) {
            Some(Compression::Gzip)
        } else if head.starts_with(b"BZh") && head.get(3).is_some_and(|d| (b'1'..=b'9').contains(d))
        {
            Some(Compression::Bzip2)
        } else if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD])
            // A skippable frame (magic 0x184D2A50 to 0x184D2A5F, little-endian), as
            // `pzstd` writes first: the decoder skips it and reads the frames after.
            || (head.len() >= 4 && head[0] & 0xF0 == 0x50 && head[1..4] == [0x2A, 0x4D, 0x18])
        {
            Some(Compression::Zstd)
        } else if head.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Compression::Xz)
        } else {
            None
        }
    }

    /// The compression an output name asks for (`.gz`, `.bz2`, `.zst`, `.xz`).
    pub fn from_extension(path: &Path) -> Option<Compression> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "gz" => Some(Compression::Gzip),
            "bz2" => Some(Compression::Bzip2),
            "zst" => Some(Compression::Zstd),
            "xz" => Some(Compression::Xz),
            _ => None,
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Compression::Gzip => "gz",
            Compression::Bzip2 => "bz2",
            Compression::Zstd => "zst",
            Compression::Xz => "xz",
        }
    }

    /// The name of the compression in messages.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
        }
    }

    /// The decoder, each with its own integrity checks on: gzip's CRC-32 and length
    /// per member, bzip2's block and stream CRCs, zstd's frame checksums where the
    /// frame has one, xz's check of every block. A stream that fails one, or ends in
    /// the middle, is a read error naming the compression ([`Checked`]).
    fn decoder(self, raw: Box<dyn BufRead + Send>) -> io::Result<Box<dyn Read + Send>> {
        let codec: Box<dyn Read + Send> = match self {
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
            #[cfg(not(target_family = "wasm"))]
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
            #[cfg(not(target_family = "wasm"))]
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(raw)?),
            #[cfg(not(target_family = "wasm"))]
            Compression::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(raw)),
            #[cfg(target_family = "wasm")]
            other => return Err(unsupported(other)),
        };
        Ok(Box::new(Checked {
            inner: codec,
            codec: self,
        }))
    }
}

/// The error for a codec the WebAssembly build leaves out (its libraries are C).
#[cfg(target_family = "wasm")]
pub(crate) fn unsupported(c: Compression) -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        format!("{} is not supported in the WebAssembly build", c.name()),
    )
}

/// A decoder whose errors say which compression failed: a damaged stream is told
/// apart from a damaged game.
struct Checked<R> {
    inner: R,
    codec: Compression,
}

impl<R: Read> Read for Checked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            let kind = match e.kind() {
                io::ErrorKind::UnexpectedEof => "ends in the middle (truncated)",
                _ => "is corrupt",
            };
            io::Error::new(
                e.kind(),
                format!("{} stream {kind}: {e}", self.codec.name()),
            )
        })
    }
}

/// The encoding a format's reader decodes bytes that are not UTF-8 as, when no
/// encoding is given: what the warning of [`Input::warn_late_guess`] names. (One byte:
/// an `Input` is kept per file.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Guess {
    /// Classic PGN: each tag value and comment that is not UTF-8.
    Windows1252,
    /// Xiangqi PGN: each game that is not UTF-8.
    GbkOrBig5,
}

impl Guess {
    /// The name said in the warning.
    pub fn name(self) -> &'static str {
        match self {
            Guess::Windows1252 => "Windows-1252",
            Guess::GbkOrBig5 => "GBK or Big5",
        }
    }
}

/// One input stream: a file, standard input, or bytes in memory.
pub struct Input {
    /// The name used in diagnostics (`-` for standard input).
    pub name: String,
    /// The file's size in bytes when known (compressed or not), for progress and ETA:
    /// progress counts the bytes read from the file, before decompression or decoding.
    pub size: Option<u64>,
    /// The compression the input was stored with, already undone.
    pub compression: Option<Compression>,
    /// The encoding the text was decoded from into UTF-8 (UTF-16 found in the head, or
    /// named by [`Input::with_encoding`]); `None` when read as it is.
    pub decoded_from: Option<&'static encoding_rs::Encoding>,
    pub(crate) framing: Option<Framing>,
    pub(crate) encoding: Option<TextEncoding>,
    /// The encoding a reader guesses for bytes that are not UTF-8, when the head was
    /// UTF-8: the run then warns at the first such byte ([`Input::warn_late_guess`]).
    pub(crate) late_guess: Option<Guess>,
    /// How to open a regular file's input again (`None` for standard input, pipes and
    /// memory, and for a deferred file whose name spells its path and that needs
    /// nothing else). Boxed: a run over many files keeps one deferred input per file,
    /// so the inline size of `Input` is memory per file.
    source: Option<Box<Source>>,
    /// Closed by [`Input::defer`]: opened again when its turn comes.
    deferred: bool,
    head: Vec<u8>,
    pub(crate) reader: Box<dyn BufRead + Send>,
    /// Bytes read from the file itself (compressed, before any decoding): what progress
    /// counts against [`Input::size`].
    pub(crate) raw_read: Arc<AtomicU64>,
}

/// Where a regular file's input is opened again from.
struct Source {
    /// The file, unless the input's name spells it (then the name is the one copy:
    /// [`Input::defer`] drops this one)…
    path: Option<PathBuf>,
    /// …and, in a zip archive, the member.
    member: Option<crate::ZipMember>,
    /// The encoding given by [`Input::with_encoding`], applied again on reopening.
    asked: Option<TextEncoding>,
}

/// The byte counter of every deferred input: nothing reads from it, so one shared
/// counter saves an allocation per file.
fn unread() -> Arc<AtomicU64> {
    static UNREAD: std::sync::OnceLock<Arc<AtomicU64>> = std::sync::OnceLock::new();
    UNREAD.get_or_init(Arc::default).clone()
}

impl Input {
    /// Opens a file, or standard input for `-`, and reads its head. Compressed inputs
    /// (gzip, bzip2, zstd, xz, recognised by their magic bytes) are decompressed as a
    /// stream.
    pub fn open(path: &Path) -> io::Result<Input> {
        if path.as_os_str() == "-" {
            return Input::from_reader_with_size("-".to_string(), None, io::stdin());
        }
        let file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "is a directory",
            ));
        }
        // Pipes and FIFOs report 0; only regular files have a size worth showing.
        let size = meta.is_file().then_some(meta.len());
        let mut input = Input::from_reader_with_size(path.display().to_string(), size, file)?;
        if meta.is_file() {
            input.set_source(path.to_path_buf(), None);
        }
        Ok(input)
    }

    /// Closes a regular file's input and frees its buffers, keeping what it takes to
    /// open it again when a run reaches it (name, size, framing, encoding): a run over
    /// 100,000 files then holds one open at a time. What stays per file is compact
    /// (128 bytes inline, the name — which spells the path, kept once — and
    /// nothing else; see `docs/io.md`). Standard input, pipes and FIFOs, which cannot
    /// be read twice, and inputs in memory stay as they are. [`Input::head`] is empty
    /// after.
    ///
    /// The file is read again from its start: if it changed in between, what the run
    /// reads is what it holds then.
    pub fn defer(mut self) -> Input {
        if let Some(source) = self.source.as_mut().filter(|_| !self.deferred) {
            self.reader = Box::new(io::empty());
            self.head = Vec::new();
            self.raw_read = unread();
            if source.path.as_deref().and_then(Path::to_str) == Some(self.name.as_str()) {
                source.path = None;
            }
            // A plain file named by its path: the name says all (no box per file).
            if source.path.is_none() && source.member.is_none() && source.asked.is_none() {
                self.source = None;
            }
            self.name.shrink_to_fit();
            self.deferred = true;
        }
        self
    }

    /// A regular file (or, with `member`, a zip archive's member) not opened yet, as
    /// [`Input::defer`] leaves one: [`Input::reopen`] opens it when the run reaches
    /// it, and an error then is the run's read error of this input. `name` is what
    /// diagnostics call it (the path, or `archive.zip:member`); `encoding` is applied on
    /// opening, as [`Input::with_encoding`] would.
    pub fn unopened(
        name: String,
        path: PathBuf,
        member: Option<crate::ZipMember>,
        encoding: Option<TextEncoding>,
    ) -> Input {
        let plain = member.is_none() && encoding.is_none() && path.to_str() == Some(&name);
        let source = (!plain).then(|| {
            Box::new(Source {
                path: Some(path),
                member,
                asked: encoding,
            })
        });
        Input {
            name,
            size: None,
            compression: None,
            decoded_from: None,
            framing: None,
            encoding: None,
            source,
            deferred: true,
            head: Vec::new(),
            reader: Box::new(io::empty()),
            late_guess: None,
            raw_read: unread(),
        }
    }

    /// Whether the input was closed by [`Input::defer`] and not opened again yet.
    pub fn is_deferred(&self) -> bool {
        self.deferred
    }

    /// Opens a deferred input again (others are returned as they are). An error is
    /// kept and returned by the first read of the run, as [`Input::from_reader`] does.
    pub fn reopen(self) -> Input {
        if !self.deferred {
            return self;
        }
        let source = self.source.as_deref();
        let path = source
            .and_then(|s| s.path.clone())
            .unwrap_or_else(|| PathBuf::from(&self.name));
        let asked = source.and_then(|s| s.asked);
        let opened = match source.and_then(|s| s.member.as_ref()) {
            Some(m) => Input::open_zip_member(&path, m),
            None => Input::open(&path),
        };
        match opened {
            Ok(mut input) => {
                input.name = self.name;
                if let Some(f) = self.framing {
                    input = input.with_framing(f);
                }
                if let Some(e) = asked {
                    input = input.with_encoding(e);
                }
                input.late_guess = self.late_guess;
                input
            }
            Err(e) => {
                let mut failed = Input::failed(self.name, self.size, e);
                failed.framing = self.framing;
                failed
            }
        }
    }

    pub(crate) fn set_source(&mut self, path: PathBuf, member: Option<crate::ZipMember>) {
        self.source = Some(Box::new(Source {
            path: Some(path),
            member,
            asked: None,
        }));
    }

    fn failed(name: String, size: Option<u64>, e: io::Error) -> Input {
        Input {
            name,
            size,
            compression: None,
            decoded_from: None,
            framing: None,
            encoding: None,
            late_guess: None,
            source: None,
            deferred: false,
            head: Vec::new(),
            reader: Box::new(BufReader::new(FailingReader(Some(e)))),
            raw_read: Arc::default(),
        }
    }

    /// An input held in memory (tests, and formats read whole).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Input {
        // Damaged compressed bytes fail while the head is decoded: that error is the
        // run's first read error, as for any reader (never a panic).
        let size = bytes.len() as u64;
        Input::from_reader(name, Some(size), Cursor::new(bytes))
    }

    /// An input from any reader. Read errors while taking the head are kept and
    /// returned by the first read of the run.
    pub fn from_reader(
        name: impl Into<String>,
        size: Option<u64>,
        reader: impl Read + Send + 'static,
    ) -> Input {
        let name = name.into();
        match Input::from_reader_with_size(name.clone(), size, reader) {
            Ok(input) => input,
            Err(e) => Input::failed(name, size, e),
        }
    }

    pub(crate) fn from_reader_with_size(
        name: String,
        size: Option<u64>,
        reader: impl Read + Send + 'static,
    ) -> io::Result<Input> {
        let raw_read = Arc::new(AtomicU64::new(0));
        let counted = Counted {
            inner: reader,
            count: raw_read.clone(),
        };
        let mut raw = BufReader::with_capacity(1 << 16, counted);
        let magic = read_up_to(&mut raw, 6)?;
        let compression = Compression::from_magic(&magic);
        let raw: Box<dyn BufRead + Send> = Box::new(Cursor::new(magic).chain(raw));
        let mut text: Box<dyn Read + Send> = match compression {
            Some(c) => c.decoder(raw)?,
            None => Box::new(raw),
        };
        let head = read_up_to(&mut text, HEAD_BYTES)?;
        let reader = Box::new(BufReader::with_capacity(
            1 << 16,
            Cursor::new(head.clone()).chain(text),
        ));
        let input = Input {
            name,
            size,
            compression,
            decoded_from: None,
            framing: None,
            encoding: None,
            late_guess: None,
            source: None,
            deferred: false,
            head,
            reader,
            raw_read,
        };
        Ok(match utf16(&input.head) {
            Some(encoding) => input.decode(encoding),
            None => input,
        })
    }

    /// This input's text decoded from `encoding` to UTF-8 (its head read again).
    fn decode(mut self, encoding: &'static encoding_rs::Encoding) -> Input {
        let mut text = Utf8Decoder::new(self.reader, encoding);
        // A decoding error is a read error of the run (the head is what was read).
        let head = match read_up_to(&mut text, HEAD_BYTES) {
            Ok(h) => h,
            Err(e) => {
                self.reader = Box::new(BufReader::new(FailingReader(Some(e))));
                self.head.clear();
                return self;
            }
        };
        self.reader = Box::new(BufReader::with_capacity(
            1 << 16,
            Cursor::new(head.clone()).chain(text),
        ));
        self.head = head;
        self.decoded_from = Some(encoding);
        self.encoding = Some(TextEncoding::Bytes);
        self
    }

    /// The first bytes of the (decompressed) text, for format detection.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// Where the head holds a run of [`BINARY_NUL_RUN`] zero bytes, when this input was
    /// neither decoded (UTF-16 found in the head) nor given an encoding: binary data
    /// (an executable, an image, `/dev/zero`, a file whose tail was never written),
    /// not game text. Read as text, such bytes make a game of thousands of skipped
    /// characters or nothing at all instead of one clear error. A stray NUL byte
    /// inside text is left to the format readers, which report it in its game; an
    /// input given an encoding is read as that says.
    pub fn binary_at(&self) -> Option<usize> {
        if self.decoded_from.is_some() || self.encoding.is_some() {
            return None;
        }
        let mut from = 0;
        while let Some(i) = memchr::memchr(0, &self.head[from..]) {
            let at = from + i;
            let run = self.head[at..].iter().take_while(|&&b| b == 0).count();
            // A short input of zeros only is binary too.
            if run >= BINARY_NUL_RUN || (at == 0 && run == self.head.len()) {
                return Some(at);
            }
            from = at + run;
        }
        None
    }

    /// Cuts this input as `framing` says, whatever the run's default.
    pub fn with_framing(mut self, framing: Framing) -> Input {
        self.framing = Some(framing);
        self
    }

    /// Warns, once, at the first byte that is not UTF-8 anywhere in the input, naming
    /// `guess` (the encoding the format's reader decodes such bytes as): for an input
    /// whose head ([`HEAD_BYTES`]) is UTF-8, so that the caller had nothing to warn
    /// about on opening. Each game's bytes are checked as the run reads them, until the
    /// first such byte; nothing is read twice. Not for an input decoded to UTF-8 or
    /// given an encoding (then nothing is guessed).
    pub fn warn_late_guess(mut self, guess: Guess) -> Input {
        self.late_guess = Some(guess);
        self
    }

    /// Scans this input's text as `encoding` (default: guessed from the head).
    /// [`TextEncoding::Decode`] decodes the text to UTF-8 first, so that the format
    /// readers see it decoded too (tags, comments, Chinese moves), unless the input
    /// was already decoded as UTF-16 by its byte-order mark, which decides.
    pub fn with_encoding(mut self, encoding: TextEncoding) -> Input {
        if let Some(source) = self.source.as_mut() {
            source.asked = Some(encoding);
        }
        match encoding {
            TextEncoding::Decode(e) if self.decoded_from.is_none() => {
                if e == encoding_rs::UTF_8 {
                    self.encoding = Some(TextEncoding::Bytes);
                    self
                } else {
                    self.decode(e)
                }
            }
            TextEncoding::Decode(_) => self,
            TextEncoding::CodePage(page) if self.decoded_from.is_none() => {
                // The reader starts at the first byte: the head is read again, decoded.
                let mut text = crate::codepage::CodePageReader::new(self.reader, page);
                match read_up_to(&mut text, HEAD_BYTES) {
                    Ok(head) => {
                        self.reader = Box::new(BufReader::with_capacity(
                            1 << 16,
                            Cursor::new(head.clone()).chain(text),
                        ));
                        self.head = head;
                    }
                    Err(e) => {
                        self.reader = Box::new(BufReader::new(FailingReader(Some(e))));
                        self.head.clear();
                    }
                }
                self.encoding = Some(TextEncoding::Bytes);
                self
            }
            TextEncoding::CodePage(_) => self,
            other => {
                self.encoding = Some(other);
                self
            }
        }
    }
}

/// The input's text (decompressed, decoded to UTF-8 when it was), from its first byte
/// (the head included): what the run's splitter reads, for callers that cut the games
/// themselves (the Python bindings). A decompression error is a read error here.
impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.reader.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.reader.consume(n)
    }
}

/// UTF-16 text, from the head of an input: a byte-order mark (`FF FE` little-endian,
/// `FE FF` big-endian), or, without one, text whose every other byte is zero (ASCII
/// in UTF-16: a PGN file's tags and moves), on the side that says the byte order. A
/// stream of zero bytes is not text of either order.
fn utf16(head: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    if head.starts_with(&[0xFF, 0xFE]) && !head.starts_with(&[0xFF, 0xFE, 0, 0]) {
        return Some(encoding_rs::UTF_16LE);
    }
    if head.starts_with(&[0xFE, 0xFF]) {
        return Some(encoding_rs::UTF_16BE);
    }
    let pairs = &head[..head.len().min(4096) & !1];
    if pairs.len() < 8 {
        return None;
    }
    let n = pairs.len() / 2;
    let (mut zero_even, mut zero_odd) = (0, 0);
    for p in pairs.chunks_exact(2) {
        match (p[0] == 0, p[1] == 0) {
            (true, false) => zero_even += 1,
            (false, true) => zero_odd += 1,
            _ => {}
        }
    }
    // Nearly every character ASCII, with its zero byte always on the same side.
    if zero_odd * 10 >= n * 9 {
        Some(encoding_rs::UTF_16LE)
    } else if zero_even * 10 >= n * 9 {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// Reads text in another encoding as UTF-8, a buffer at a time (memory independent of
/// the input's size). Malformed sequences become U+FFFD, as every decoder of the
/// Encoding Standard does; the byte-order mark, if any, is dropped.
struct Utf8Decoder<R> {
    inner: R,
    decoder: encoding_rs::Decoder,
    input: Vec<u8>,
    in_start: usize,
    in_end: usize,
    eof: bool,
    output: Vec<u8>,
    out_start: usize,
    done: bool,
}

impl<R: Read> Utf8Decoder<R> {
    fn new(inner: R, encoding: &'static encoding_rs::Encoding) -> Self {
        Utf8Decoder {
            inner,
            decoder: encoding.new_decoder_with_bom_removal(),
            input: vec![0; 1 << 16],
            in_start: 0,
            in_end: 0,
            eof: false,
            output: Vec::with_capacity(1 << 17),
            out_start: 0,
            done: false,
        }
    }
}

impl<R: Read> Read for Utf8Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.out_start < self.output.len() {
                let n = buf.len().min(self.output.len() - self.out_start);
                buf[..n].copy_from_slice(&self.output[self.out_start..self.out_start + n]);
                self.out_start += n;
                return Ok(n);
            }
            if self.done || buf.is_empty() {
                return Ok(0);
            }
            if self.in_start == self.in_end && !self.eof {
                let n = loop {
                    match self.inner.read(&mut self.input) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        other => break other?,
                    }
                };
                self.eof = n == 0;
                self.in_start = 0;
                self.in_end = n;
            }
            let src = &self.input[self.in_start..self.in_end];
            let room = self
                .decoder
                .max_utf8_buffer_length(src.len())
                .unwrap_or(1 << 18)
                .max(16);
            self.output.clear();
            self.output.resize(room, 0);
            let (result, read, written, _) =
                self.decoder.decode_to_utf8(src, &mut self.output, self.eof);
            self.in_start += read;
            self.output.truncate(written);
            self.out_start = 0;
            if self.eof
                && self.in_start == self.in_end
                && result == encoding_rs::CoderResult::InputEmpty
            {
                self.done = true;
            }
        }
    }
}

/// Counts the bytes read through it, for progress (another thread reads the count).
struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Input {
    /// Bytes read so far from the file itself (compressed, undecoded), including what
    /// buffers hold ahead of the games: progress against [`Input::size`].
    pub fn bytes_read(&self) -> u64 {
        self.raw_read.load(Ordering::Relaxed)
    }
}

struct FailingReader(Option<io::Error>);

impl Read for FailingReader {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// Reads until `n` bytes or the end of the stream (a pipe may deliver less per read).
fn read_up_to(reader: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut buf = Vec::with_capacity(n.min(1 << 16));
    reader.take(n as u64).read_to_end(&mut buf)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn compress(c: Compression, data: &[u8]) -> Vec<u8> {
        let mut out = crate::output::Encoder::new(Vec::new(), Some(c)).unwrap();
        out.write_all(data).unwrap();
        out.finish().unwrap()
    }

    /// Damaged compressed bytes held in memory are a read error of the run, not a panic
    /// (`from_bytes` used to `expect` that memory cannot fail).
    #[test]
    fn damaged_compressed_bytes_in_memory_are_a_read_error() {
        for c in [Compression::Gzip, Compression::Zstd, Compression::Xz] {
            let mut packed = compress(c, b"[Event \"x\"]\n\n1. e4 *\n");
            packed.truncate(packed.len() / 2);
            let mut input = Input::from_bytes("cut", packed);
            let mut back = Vec::new();
            assert!(input.reader.read_to_end(&mut back).is_err(), "{c:?}");
        }
    }

    #[test]
    fn compressed_inputs_are_recognised_and_read_as_text() {
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("[Game \"{i}\"]\n\n1. e4 *\n\n").into_bytes())
            .collect();
        for c in [
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Zstd,
            Compression::Xz,
        ] {
            let packed = compress(c, &text);
            assert_eq!(Compression::from_magic(&packed), Some(c));
            let mut input = Input::from_reader("x", None, Cursor::new(packed));
            assert_eq!(input.compression, Some(c));
            assert_eq!(input.head(), &text[..HEAD_BYTES]);
            let mut back = Vec::new();
            input.reader.read_to_end(&mut back).unwrap();
            assert!(back == text, "{c:?}");
        }
    }

    /// Issue 26: every codec's own check catches a flipped byte in the middle (or the
    /// stream ends early), and the error names the codec.
    #[test]
    fn a_flipped_byte_fails_each_codecs_check() {
        let text: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("[Game \"{i}\"]\n\n1. e4 {{note {i}}} *\n\n").into_bytes())
            .collect();
        for c in [
            Compression::Gzip,
            Compression::Bzip2,
            Compression::Zstd,
            Compression::Xz,
        ] {
            let mut packed = compress(c, &text);
            let mid = packed.len() / 2;
            packed[mid] ^= 0x55;
            let mut input = Input::from_reader("x", None, Cursor::new(packed));
            let mut back = Vec::new();
            let e = input.reader.read_to_end(&mut back).expect_err(c.name());
            assert!(e.to_string().starts_with(c.name()), "{c:?}: {e}");
        }
    }

    /// Issue 26: a zstd file starting with a skippable frame (pzstd) is zstd.
    #[test]
    fn a_skippable_frame_first_is_zstd() {
        let text = b"[Game \"1\"]\n\n1. e4 *\n".to_vec();
        let mut packed = vec![0x5E, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3];
        packed.extend(compress(Compression::Zstd, &text));
        assert_eq!(Compression::from_magic(&packed), Some(Compression::Zstd));
        let input = Input::from_reader("x", None, Cursor::new(packed));
        assert_eq!(read_all(input), text);
    }

    /// Issue 26: a deferred input holds no file open and no buffer, and reads the same
    /// text once reopened, with its framing and encoding.
    #[test]
    fn a_deferred_input_is_opened_again_with_its_settings() {
        let dir = std::env::temp_dir().join(format!("cescacs-defer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.pgn.gz");
        let text = "[Event \"é\"]\n\n1. e4 *\n";
        let latin1: Vec<u8> = text.chars().map(|c| c as u8).collect();
        std::fs::write(&path, compress(Compression::Gzip, &latin1)).unwrap();
        let input = Input::open(&path)
            .unwrap()
            .with_framing(Framing::Lines)
            .with_encoding(TextEncoding::Decode(encoding_rs::WINDOWS_1252))
            .defer();
        assert!(input.is_deferred() && input.head().is_empty());
        let again = input.reopen();
        assert!(!again.is_deferred());
        assert_eq!(again.framing, Some(Framing::Lines));
        assert_eq!(again.compression, Some(Compression::Gzip));
        assert_eq!(read_all(again), text.as_bytes());
        // Gone in between: the first read says so.
        let input = Input::open(&path).unwrap().defer();
        std::fs::remove_file(&path).unwrap();
        let mut again = input.reopen();
        assert!(again.reader.read_to_end(&mut Vec::new()).is_err());
        // Standard input and memory stay open.
        assert!(!Input::from_bytes("m", b"x".to_vec()).defer().is_deferred());
        // A zip member's name is not its archive's path: both are kept.
        std::fs::write(&path, b"*").unwrap();
        let input = Input::open(&path).unwrap();
        let mut member = input.defer();
        member.name = format!("{}:inner.pgn", path.display());
        member.source = Some(Box::new(Source {
            path: Some(path.clone()),
            member: None,
            asked: None,
        }));
        assert_eq!(read_all(member.reopen()), b"*");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 26 (many inputs): a run keeps one deferred `Input` per file, so its inline
    /// size is memory per file (it was over 200 bytes: name, path, zip member and
    /// encodings inline); the name spells the path and is the one copy kept.
    #[test]
    fn a_deferred_input_is_compact() {
        assert!(
            std::mem::size_of::<Input>() <= 136,
            "{} bytes",
            std::mem::size_of::<Input>()
        );
        let dir = std::env::temp_dir().join(format!("cescacs-compact-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.pgn");
        std::fs::write(&path, "[Event \"e\"]\n\n1. e4 *\n").unwrap();
        let input = Input::open(&path).unwrap().defer();
        assert!(input.source.is_none(), "the path is kept once, as the name");
        assert_eq!(input.name.capacity(), input.name.len());
        assert_eq!(read_all(input.reopen()), b"[Event \"e\"]\n\n1. e4 *\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn read_all(mut input: Input) -> Vec<u8> {
        let mut back = Vec::new();
        input.reader.read_to_end(&mut back).unwrap();
        back
    }

    #[test]
    fn utf16_inputs_are_decoded_with_or_without_a_byte_order_mark() {
        let text: String = (0..3000)
            .map(|i| format!("[White \"Müller {i}\"]\n\n1. e4 e5 *\n\n"))
            .collect();
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, encoding) in [
            ([&[0xFF, 0xFE][..], &le].concat(), encoding_rs::UTF_16LE),
            ([&[0xFE, 0xFF][..], &be].concat(), encoding_rs::UTF_16BE),
            (le, encoding_rs::UTF_16LE),
            (be, encoding_rs::UTF_16BE),
        ] {
            let input = Input::from_bytes("x", bytes);
            assert_eq!(input.decoded_from, Some(encoding));
            assert_eq!(input.head(), &text.as_bytes()[..HEAD_BYTES]);
            assert_eq!(input.encoding, Some(TextEncoding::Bytes));
            assert!(read_all(input) == text.as_bytes(), "{encoding:?}");
        }
        // Zero bytes are not UTF-16; neither is UTF-8 or Latin-1 text.
        for bytes in [
            vec![0u8; 10_000],
            text.clone().into_bytes(),
            b"[A \"\xE9\"]\n*\n".to_vec(),
        ] {
            assert_eq!(Input::from_bytes("x", bytes).decoded_from, None);
        }
    }

    #[test]
    fn a_named_encoding_is_decoded_to_utf8() {
        // Big5 whose trail bytes are `}` and `{` (徐 = AE 7D, 州 = A6 7B).
        let text = "[Event \"徐州\"]\n\n1. 炮二平五 {徐州} *\n".repeat(5000);
        let (big5, _, bad) = encoding_rs::BIG5.encode(&text);
        assert!(!bad && big5.windows(2).any(|w| w == [0xAE, 0x7D]));
        let input = Input::from_bytes("x", big5.into_owned())
            .with_encoding(TextEncoding::Decode(encoding_rs::BIG5));
        assert_eq!(input.decoded_from, Some(encoding_rs::BIG5));
        assert_eq!(input.encoding, Some(TextEncoding::Bytes));
        assert!(input.head().starts_with("[Event \"徐州\"]".as_bytes()));
        assert!(read_all(input) == text.as_bytes());
        // A byte-order mark decides over the named encoding.
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("[A \"徐\"]\n*\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let input =
            Input::from_bytes("x", le).with_encoding(TextEncoding::Decode(encoding_rs::BIG5));
        assert_eq!(input.decoded_from, Some(encoding_rs::UTF_16LE));
        assert_eq!(read_all(input), "[A \"徐\"]\n*\n".as_bytes());
    }

    #[test]
    fn short_and_plain_inputs_keep_every_byte() {
        for text in [&b""[..], b"1", b"[A \"1\"]\n*\n"] {
            let mut input = Input::from_bytes("x", text.to_vec());
            assert_eq!(input.head(), text);
            assert_eq!(input.compression, None);
            let mut back = Vec::new();
            input.reader.read_to_end(&mut back).unwrap();
            assert_eq!(back, text);
        }
    }
}
