//! Output that cannot hurt: written to a temporary file beside the target, renamed over
//! it only when the run has finished ([`OutputFile::commit`]); dropped without a commit
//! (an error, a panic unwinding, SIGINT) it removes the temporary file and the old
//! output stays as it was.

use crate::Compression;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Temporary files not yet committed, removed by the interrupt handler before exit.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A writer that compresses (or not) into `W`.
pub(crate) enum Encoder<W: Write> {
    Plain(W),
    Gzip(flate2::write::GzEncoder<W>),
    Bzip2(bzip2::write::BzEncoder<W>),
    Zstd(zstd::stream::write::Encoder<'static, W>),
    Xz(liblzma::write::XzEncoder<W>),
}

impl<W: Write> Encoder<W> {
    pub(crate) fn new(inner: W, compression: Option<Compression>) -> io::Result<Self> {
        Ok(match compression {
            None => Encoder::Plain(inner),
            Some(Compression::Gzip) => Encoder::Gzip(flate2::write::GzEncoder::new(
                inner,
                flate2::Compression::default(),
            )),
            Some(Compression::Bzip2) => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                inner,
                bzip2::Compression::default(),
            )),
            Some(Compression::Zstd) => Encoder::Zstd(zstd::stream::write::Encoder::new(inner, 3)?),
            Some(Compression::Xz) => Encoder::Xz(liblzma::write::XzEncoder::new(inner, 6)),
        })
    }

    pub(crate) fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Plain(w) => Ok(w),
            Encoder::Gzip(e) => e.finish(),
            Encoder::Bzip2(e) => e.finish(),
            Encoder::Zstd(e) => e.finish(),
            Encoder::Xz(e) => e.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Plain(w) => w.write(buf),
            Encoder::Gzip(e) => e.write(buf),
            Encoder::Bzip2(e) => e.write(buf),
            Encoder::Zstd(e) => e.write(buf),
            Encoder::Xz(e) => e.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Plain(w) => w.flush(),
            Encoder::Gzip(e) => e.flush(),
            Encoder::Bzip2(e) => e.flush(),
            Encoder::Zstd(e) => e.flush(),
            Encoder::Xz(e) => e.flush(),
        }
    }
}

/// An output file written safely; see the module documentation. The output is
/// compressed when its name ends in `.gz`, `.bz2`, `.zst` or `.xz`.
pub struct OutputFile {
    target: PathBuf,
    temp: PathBuf,
    writer: Option<Encoder<BufWriter<File>>>,
}

impl OutputFile {
    /// Creates the temporary file beside `target` (same directory, so the final rename
    /// is atomic). The target itself is not touched until [`OutputFile::commit`].
    pub fn create(target: &Path) -> io::Result<OutputFile> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".partial-{}", std::process::id()));
        let temp = dir.join(temp_name);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .or_else(|e| {
                // A leftover of a killed run with the same process id: ours to replace.
                if e.kind() == io::ErrorKind::AlreadyExists {
                    std::fs::remove_file(&temp)?;
                    File::create_new(&temp)
                } else {
                    Err(e)
                }
            })?;
        TEMPORARIES
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(temp.clone());
        let writer = Encoder::new(
            BufWriter::with_capacity(1 << 16, file),
            Compression::from_extension(target),
        )?;
        Ok(OutputFile {
            target: target.to_path_buf(),
            temp,
            writer: Some(writer),
        })
    }

    /// The temporary file being written.
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Finishes the compression, flushes, syncs and renames the temporary file over the
    /// target. On error the temporary file is removed and the target left as it was.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("written until committed");
        let file = writer
            .finish()
            .and_then(|w| w.into_inner().map_err(|e| e.into_error()))?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&self.temp, &self.target)?;
        forget_temporary(&self.temp);
        Ok(())
    }
}

fn forget_temporary(path: &Path) {
    TEMPORARIES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|p| p != path);
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.writer.is_some() {
            self.writer = None;
            let _ = std::fs::remove_file(&self.temp);
            forget_temporary(&self.temp);
        }
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.writer {
            Some(w) => w.write(buf),
            None => Err(io::Error::other("output already committed")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.writer {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

/// Standard output, compressed or not.
pub fn stdout_encoder(compression: Option<Compression>) -> io::Result<impl Write> {
    Encoder::new(BufWriter::with_capacity(1 << 16, io::stdout()), compression)
}

static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// How long after SIGINT the process waits for the run to stop on its own before it
/// removes the temporary outputs and exits (a read blocked on a pipe never returns).
const GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Installs the SIGINT/SIGTERM handler once and returns the flag it raises. Pass the
/// flag in [`crate::Options::stop`]: the run then stops after the batch in progress,
/// reporting every diagnostic found so far. If the run has not stopped within a few
/// seconds, the handler removes every uncommitted [`OutputFile`] and exits with 130.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    INTERRUPTED
        .get_or_init(|| {
            let flag = Arc::new(AtomicBool::new(false));
            let raised = Arc::clone(&flag);
            // If no handler can be installed the default one stays: the process dies at
            // once, and the old output is still intact (nothing was renamed over it).
            let _ = ctrlc::set_handler(move || {
                raised.store(true, Ordering::SeqCst);
                std::thread::sleep(GRACE);
                remove_temporaries();
                // Wait for a diagnostic line being written, so none is cut.
                let _lock = io::stderr().lock();
                std::process::exit(130);
            });
            flag
        })
        .clone()
}

/// Removes every uncommitted temporary output (also called by the interrupt handler).
pub fn remove_temporaries() {
    let list = std::mem::take(&mut *TEMPORARIES.lock().unwrap_or_else(|p| p.into_inner()));
    for path in list {
        let _ = std::fs::remove_file(path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_replaces_and_drop_keeps_the_old_file() {
        let dir = std::env::temp_dir().join(format!("cescacs-batch-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("out.pgn");
        std::fs::write(&target, "old").unwrap();
        let mut out = OutputFile::create(&target).unwrap();
        out.write_all(b"new").unwrap();
        let temp = out.temp_path().to_path_buf();
        assert!(temp.exists());
        drop(out);
        assert!(!temp.exists());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        let mut out = OutputFile::create(&target).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // Compressed by extension.
        let packed = dir.join("out.pgn.zst");
        let mut out = OutputFile::create(&packed).unwrap();
        out.write_all(b"[A \"1\"]\n*\n").unwrap();
        out.commit().unwrap();
        let bytes = std::fs::read(&packed).unwrap();
        assert_eq!(Compression::from_magic(&bytes), Some(Compression::Zstd));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
