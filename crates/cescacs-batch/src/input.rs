//! Opening inputs: files, standard input, pipes and FIFOs alike, compressed or not.
//!
//! An input is read once, from its first byte: the head (the first [`HEAD_BYTES`] of
//! its decompressed text) is kept so the caller can detect the format from content
//! without reopening anything — a pipe, a FIFO or `<(cat f)` cannot be read twice.

use crate::{Framing, TextEncoding};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::Path;

/// How much decompressed text [`Input::head`] holds (less when the input is shorter).
pub const HEAD_BYTES: usize = 64 << 10;

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
        } else if head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) {
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

    fn decoder(self, raw: Box<dyn BufRead + Send>) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(raw)),
            Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(raw)),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(raw)?),
            Compression::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(raw)),
        })
    }
}

/// One input stream: a file, standard input, or bytes in memory.
pub struct Input {
    /// The name used in diagnostics (`-` for standard input).
    pub name: String,
    /// Total size in bytes when known, for progress and ETA (unknown when compressed).
    pub size: Option<u64>,
    /// The compression the input was stored with, already undone.
    pub compression: Option<Compression>,
    pub(crate) framing: Option<Framing>,
    pub(crate) encoding: Option<TextEncoding>,
    head: Vec<u8>,
    pub(crate) reader: Box<dyn BufRead + Send>,
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
        Input::from_reader_with_size(path.display().to_string(), size, file)
    }

    /// An input held in memory (tests, and formats read whole).
    pub fn from_bytes(name: impl Into<String>, bytes: Vec<u8>) -> Input {
        let size = bytes.len() as u64;
        Input::from_reader_with_size(name.into(), Some(size), Cursor::new(bytes))
            .expect("reading from memory cannot fail")
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
            Err(e) => Input {
                name,
                size,
                compression: None,
                framing: None,
                encoding: None,
                head: Vec::new(),
                reader: Box::new(BufReader::new(FailingReader(Some(e)))),
            },
        }
    }

    fn from_reader_with_size(
        name: String,
        size: Option<u64>,
        reader: impl Read + Send + 'static,
    ) -> io::Result<Input> {
        let mut raw = BufReader::with_capacity(1 << 16, reader);
        let magic = read_up_to(&mut raw, 6)?;
        let compression = Compression::from_magic(&magic);
        let raw: Box<dyn BufRead + Send> = Box::new(Cursor::new(magic).chain(raw));
        let (mut text, size): (Box<dyn Read + Send>, _) = match compression {
            Some(c) => (c.decoder(raw)?, None),
            None => (Box::new(raw), size),
        };
        let head = read_up_to(&mut text, HEAD_BYTES)?;
        let reader = Box::new(BufReader::with_capacity(
            1 << 16,
            Cursor::new(head.clone()).chain(text),
        ));
        Ok(Input {
            name,
            size,
            compression,
            framing: None,
            encoding: None,
            head,
            reader,
        })
    }

    /// The first bytes of the (decompressed) text, for format detection.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// Cuts this input as `framing` says, whatever the run's default.
    pub fn with_framing(mut self, framing: Framing) -> Input {
        self.framing = Some(framing);
        self
    }

    /// Scans this input's text as `encoding` (default: guessed from the head).
    pub fn with_encoding(mut self, encoding: TextEncoding) -> Input {
        self.encoding = Some(encoding);
        self
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
