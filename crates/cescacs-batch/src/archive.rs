//! Zip archives (the form in which pgnmentor and TWIC publish): each member file an
//! input of its own, named `ARCHIVE.zip:MEMBER`, read as a stream like any file.
//!
//! A member is decompressed on a thread of its own that hands the text over in chunks
//! (the `zip` crate's member reader borrows its archive, so it cannot be boxed as an
//! input); the channel holds two chunks, so memory stays bounded. Reading a member to
//! its end checks its CRC-32: a damaged member is a read error like a damaged stream.

use crate::Input;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// Whether `path` holds a zip archive: its first bytes are a zip local file header
/// (`PK 03 04`) or the end record of an empty archive (`PK 05 06`).
pub fn is_zip(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && (magic == *b"PK\x03\x04" || magic == *b"PK\x05\x06")
}

/// One file in a zip archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZipMember {
    /// Its index in the archive's directory.
    pub index: usize,
    /// Its name in the archive (`dir/games.pgn`), as stored.
    pub name: String,
    /// Its size once decompressed, as the archive says.
    pub size: u64,
}

/// The files of a zip archive, in the archive's order (directories left out).
pub fn zip_members(path: &Path) -> io::Result<Vec<ZipMember>> {
    let archive = zip::ZipArchive::new(BufReader::new(File::open(path)?)).map_err(zip_error)?;
    let mut members = Vec::new();
    let mut archive = archive;
    for index in 0..archive.len() {
        let file = archive.by_index_raw(index).map_err(zip_error)?;
        if file.is_dir() {
            continue;
        }
        members.push(ZipMember {
            index,
            name: file.name().to_string(),
            size: file.size(),
        });
    }
    Ok(members)
}

fn zip_error(e: zip::result::ZipError) -> io::Error {
    match e {
        zip::result::ZipError::Io(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidData, format!("zip archive: {other}")),
    }
}

/// The name a member is shown under: `ARCHIVE:MEMBER`.
pub fn member_name(archive: &Path, member: &str) -> String {
    format!("{}:{member}", archive.display())
}

impl Input {
    /// Opens one member of a zip archive as an input named `ARCHIVE:MEMBER` (its head
    /// read, like [`Input::open`]; a member that is itself gzip or zstd … is
    /// decompressed too). It can be deferred and reopened like a file.
    pub fn open_zip_member(archive: &Path, member: &ZipMember) -> io::Result<Input> {
        let reader = MemberReader::start(archive.to_path_buf(), member.index)?;
        let name = member_name(archive, &member.name);
        let mut input = Input::from_reader_with_size(name, Some(member.size), reader)?;
        input.set_source(archive.to_path_buf(), Some(member.clone()));
        Ok(input)
    }
}

type Chunk = io::Result<Vec<u8>>;

/// A member's text, from the thread that decompresses it.
struct MemberReader {
    chunks: mpsc::Receiver<Chunk>,
    chunk: Vec<u8>,
    at: usize,
    done: bool,
}

impl MemberReader {
    fn start(archive: PathBuf, index: usize) -> io::Result<MemberReader> {
        // Opened here so that a missing archive is an error of the open, not a read.
        let file = File::open(&archive)?;
        let (tx, rx) = mpsc::sync_channel::<Chunk>(2);
        std::thread::Builder::new()
            .name("zip member".into())
            .spawn(move || {
                let send_err = |tx: &mpsc::SyncSender<Chunk>, e| {
                    let _ = tx.send(Err(e));
                };
                let mut archive = match zip::ZipArchive::new(BufReader::new(file)) {
                    Ok(a) => a,
                    Err(e) => return send_err(&tx, zip_error(e)),
                };
                let mut member = match archive.by_index(index) {
                    Ok(m) => m,
                    Err(e) => return send_err(&tx, zip_error(e)),
                };
                loop {
                    let mut buf = vec![0u8; 1 << 16];
                    match member.read(&mut buf) {
                        // The end, said: a thread that stopped without saying it
                        // would otherwise look like a member that ended there.
                        Ok(0) => {
                            let _ = tx.send(Ok(Vec::new()));
                            return;
                        }
                        Ok(n) => {
                            buf.truncate(n);
                            // The input was dropped: stop decompressing.
                            if tx.send(Ok(buf)).is_err() {
                                return;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            let e = io::Error::new(e.kind(), format!("zip member is corrupt: {e}"));
                            return send_err(&tx, e);
                        }
                    }
                }
            })?;
        Ok(MemberReader {
            chunks: rx,
            chunk: Vec::new(),
            at: 0,
            done: false,
        })
    }
}

impl Read for MemberReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.chunk.len() {
            if self.done {
                return Ok(0);
            }
            match self.chunks.recv() {
                Ok(Ok(chunk)) if chunk.is_empty() => self.done = true,
                Ok(Ok(chunk)) => {
                    self.chunk = chunk;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Err(_) => {
                    self.done = true;
                    return Err(io::Error::other(
                        "zip member: decompression stopped before the end",
                    ));
                }
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
