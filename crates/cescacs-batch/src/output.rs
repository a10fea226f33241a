//! Output that cannot hurt: written to a temporary file beside the target, renamed over
//! it only when the run has finished ([`OutputFile::commit`]); dropped without a commit
//! (an error, a panic unwinding, SIGINT) it removes the temporary file and the old
//! output stays as it was. A target that is not a regular file (`/dev/null`, a pipe, a
//! terminal) is written in place: renaming over it would replace the device or pipe
//! with a file. A symbolic link stays a link: the file it points to is replaced.
//!
//! An existing target keeps its mode and (where the process may set it) its owner and
//! group: the temporary file is given them before anything is written, so a private
//! file is never readable by others, not even while being written. Temporary files
//! left by a killed run (`.NAME.partial-PID`) are named in [`OutputFile::notes`] and
//! removed when their process is gone.

use crate::Compression;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
#[cfg(not(target_family = "wasm"))]
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

/// Temporary files not yet committed, removed by the interrupt handler before exit.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A writer that compresses (or not) into `W`.
pub(crate) enum Encoder<W: Write> {
    Plain(W),
    Gzip(flate2::write::GzEncoder<W>),
    #[cfg(not(target_family = "wasm"))]
    Bzip2(bzip2::write::BzEncoder<W>),
    #[cfg(not(target_family = "wasm"))]
    Zstd(zstd::stream::write::Encoder<'static, W>),
    #[cfg(not(target_family = "wasm"))]
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
            #[cfg(not(target_family = "wasm"))]
            Some(Compression::Bzip2) => Encoder::Bzip2(bzip2::write::BzEncoder::new(
                inner,
                bzip2::Compression::default(),
            )),
            #[cfg(not(target_family = "wasm"))]
            Some(Compression::Zstd) => {
                let mut e = zstd::stream::write::Encoder::new(inner, 3)?;
                // The frame checksum, as the `zstd` tool writes by default: without it
                // a damaged frame can decode to other text with no error.
                e.include_checksum(true)?;
                Encoder::Zstd(e)
            }
            #[cfg(not(target_family = "wasm"))]
            Some(Compression::Xz) => Encoder::Xz(liblzma::write::XzEncoder::new(inner, 6)),
            #[cfg(target_family = "wasm")]
            Some(other) => return Err(crate::input::unsupported(other)),
        })
    }

    pub(crate) fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Plain(w) => Ok(w),
            Encoder::Gzip(e) => e.finish(),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Bzip2(e) => e.finish(),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Zstd(e) => e.finish(),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Xz(e) => e.finish(),
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Encoder::Plain(w) => w.write(buf),
            Encoder::Gzip(e) => e.write(buf),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Bzip2(e) => e.write(buf),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Zstd(e) => e.write(buf),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Xz(e) => e.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Encoder::Plain(w) => w.flush(),
            Encoder::Gzip(e) => e.flush(),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Bzip2(e) => e.flush(),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Zstd(e) => e.flush(),
            #[cfg(not(target_family = "wasm"))]
            Encoder::Xz(e) => e.flush(),
        }
    }
}

/// An output file written safely; see the module documentation. The output is
/// compressed when its name ends in `.gz`, `.bz2`, `.zst` or `.xz`.
pub struct OutputFile {
    target: PathBuf,
    notes: Vec<String>,
    /// The temporary file beside the target; `None` when the target is written in place
    /// (it is not a regular file).
    temp: Option<PathBuf>,
    writer: Option<Encoder<BufWriter<File>>>,
}

impl OutputFile {
    /// Creates the temporary file beside `target` (same directory, so the final rename
    /// is atomic). The target itself is not touched until [`OutputFile::commit`]. A
    /// directory is refused at once (the rename would fail only after the whole run);
    /// a target that exists and is not a regular file is opened for writing in place.
    pub fn create(target: &Path) -> io::Result<OutputFile> {
        let compression = Compression::from_extension(target);
        match std::fs::metadata(target) {
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "is a directory",
                ));
            }
            Ok(m) if !m.is_file() => {
                let file = std::fs::OpenOptions::new().write(true).open(target)?;
                let writer = Encoder::new(BufWriter::with_capacity(1 << 16, file), compression)?;
                return Ok(OutputFile {
                    target: target.to_path_buf(),
                    notes: Vec::new(),
                    temp: None,
                    writer: Some(writer),
                });
            }
            _ => {}
        }
        // Through a symbolic link: the file it points to is the one replaced (renaming
        // over the link would replace the link, and `/dev/stdout` is one). A link to a
        // file not there yet gets the file where it points.
        let target = match std::fs::symlink_metadata(target) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(target) {
                Ok(real) => real,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    let dest = std::fs::read_link(target)?;
                    match target.parent() {
                        Some(dir) if dest.is_relative() => dir.join(dest),
                        _ => dest,
                    }
                }
                Err(e) => return Err(e),
            },
            _ => target.to_path_buf(),
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".partial-");
        let notes = stale_partials(&dir, &prefix);
        let mut temp_name = prefix;
        temp_name.push(std::process::id().to_string());
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
        // The mode and owner of the file being replaced, given before the first byte
        // is written. Setting the owner fails unless the process may (root): the
        // file then belongs to whoever runs the command, as any new file does.
        if let Ok(old) = std::fs::metadata(&target)
            && old.is_file()
        {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                let _ = std::os::unix::fs::fchown(&file, Some(old.uid()), Some(old.gid()));
            }
            // After the owner: changing the owner clears the set-user-ID bits.
            if let Err(e) = file.set_permissions(old.permissions()) {
                drop(file);
                let _ = std::fs::remove_file(&temp);
                return Err(e);
            }
        }
        TEMPORARIES
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(temp.clone());
        let writer = Encoder::new(BufWriter::with_capacity(1 << 16, file), compression)?;
        Ok(OutputFile {
            target,
            notes,
            temp: Some(temp),
            writer: Some(writer),
        })
    }

    /// What was found beside the target: temporary files of earlier runs that were
    /// killed (removed when their process is gone, else left alone), one line each.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The temporary file being written (`None`: the target is written in place).
    pub fn temp_path(&self) -> Option<&Path> {
        self.temp.as_deref()
    }

    /// Finishes the compression, flushes, syncs and renames the temporary file over the
    /// target. On error the temporary file is removed and the target left as it was.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("written until committed");
        let file = writer
            .finish()
            .and_then(|w| w.into_inner().map_err(|e| e.into_error()))?;
        let Some(temp) = self.temp.take() else {
            // Written in place: a device or a pipe has nothing to sync or rename.
            return Ok(());
        };
        let done = file
            .sync_all()
            .and_then(|()| {
                drop(file);
                std::fs::rename(&temp, &self.target)
            })
            .inspect_err(|_| {
                let _ = std::fs::remove_file(&temp);
            });
        forget_temporary(&temp);
        done
    }
}

/// Finds the temporary files `PREFIX<pid>` a killed run left in `dir`: one whose process
/// is gone is removed, one whose process still runs (or whose liveness cannot be told)
/// is left alone; each is named in a note.
fn stale_partials(dir: &Path, prefix: &std::ffi::OsStr) -> Vec<String> {
    let Some(prefix) = prefix.to_str() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(prefix)) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let path = entry.path();
        if process_alive(pid) {
            notes.push(format!(
                "{}: warning: temporary output of process {pid}, which is still running; left alone",
                path.display()
            ));
            continue;
        }
        match std::fs::remove_file(&path) {
            Ok(()) => notes.push(format!(
                "{}: warning: temporary output of an earlier run (process {pid}) that did not finish; removed",
                path.display()
            )),
            Err(e) => notes.push(format!(
                "{}: warning: temporary output of an earlier run (process {pid}) that did not finish; cannot remove it: {e}",
                path.display()
            )),
        }
    }
    notes.sort();
    notes
}

/// Whether process `pid` may still be running: `/proc` tells on Linux; elsewhere it is
/// assumed alive, so nothing that may be another run's is removed.
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    proc.join(pid.to_string()).exists()
}

fn forget_temporary(path: &Path) {
    TEMPORARIES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|p| p != path);
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.writer.take().is_some()
            && let Some(temp) = self.temp.take()
        {
            let _ = std::fs::remove_file(&temp);
            forget_temporary(&temp);
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

/// Whether the command was started with standard output closed (`>&-`). The Rust
/// runtime opens `/dev/null` read-write in place of a closed standard stream, so
/// writes to it succeed and vanish; a shell's `>/dev/null` opens it write-only. On
/// Linux `/proc/self/fdinfo/1` tells the two apart; elsewhere this says `false`.
/// A command that writes its results on standard output refuses to run (exit 2)
/// rather than report success for results nobody can read.
pub fn stdout_closed() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target != Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        // O_ACCMODE is 3, O_RDWR 2.
        .is_some_and(|flags| flags & 3 == 2)
}

static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// How long after SIGINT the process waits for the run to stop on its own before it
/// removes the temporary outputs and exits (a read blocked on a pipe never returns).
#[cfg(not(target_family = "wasm"))]
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
            #[cfg(not(target_family = "wasm"))]
            let _ = ctrlc::set_handler(move || {
                raised.store(true, Ordering::SeqCst);
                std::thread::sleep(GRACE);
                remove_temporaries();
                // Wait for a diagnostic line being written, so none is cut.
                let _lock = io::stderr().lock();
                std::process::exit(130);
            });
            // WebAssembly has no signals.
            #[cfg(target_family = "wasm")]
            drop(raised);
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
        let temp = out.temp_path().unwrap().to_path_buf();
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

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cescacs-batch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `-o /dev/null` once renamed a file over the device. A pipe stands for every
    /// target that is not a regular file: it is written in place and stays a pipe.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        test_support::mkfifo(&fifo);
        let path = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read(path));
        let mut out = OutputFile::create(&fifo).unwrap();
        assert_eq!(out.temp_path(), None);
        out.write_all(b"through the pipe").unwrap();
        out.commit().unwrap();
        // Checked before waiting for the reader, which a renamed pipe leaves blocked.
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{kind:?}");
        assert_eq!(reader.join().unwrap().unwrap(), b"through the pipe");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 26 case 8: a 600 output stays 600 (and keeps its owner as root).
    #[cfg(unix)]
    #[test]
    fn an_existing_output_keeps_its_mode_and_owner() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = scratch("mode");
        let target = dir.join("out.pgn");
        std::fs::write(&target, "old").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
        if root {
            std::os::unix::fs::chown(&target, Some(4321), Some(4322)).unwrap();
        }
        let mut out = OutputFile::create(&target).unwrap();
        let temp = std::fs::metadata(out.temp_path().unwrap()).unwrap();
        assert_eq!(temp.mode() & 0o777, 0o600, "private while being written");
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        let meta = std::fs::metadata(&target).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o600);
        if root {
            assert_eq!((meta.uid(), meta.gid()), (4321, 4322));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 26 case 8: a killed run's temporary file is named, and removed when its
    /// process is gone.
    #[test]
    fn stale_partials_are_named_and_removed_when_dead() {
        let dir = scratch("stale");
        let target = dir.join("out.pgn");
        let dead = dir.join(".out.pgn.partial-4194999");
        std::fs::write(&dead, "half").unwrap();
        let other = dir.join(".other.pgn.partial-4194999");
        std::fs::write(&other, "not ours").unwrap();
        let out = OutputFile::create(&target).unwrap();
        assert_eq!(out.notes().len(), 1, "{:?}", out.notes());
        assert!(out.notes()[0].contains(".out.pgn.partial-4194999"));
        assert!(!dead.exists() && other.exists());
        drop(out);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_directory_is_refused_before_anything_is_written() {
        let dir = scratch("dir-target");
        let target = dir.join("out");
        std::fs::create_dir(&target).unwrap();
        let e = OutputFile::create(&target)
            .err()
            .expect("a directory is refused");
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_stays_a_link_and_its_file_is_replaced() {
        let dir = scratch("link");
        let real = dir.join("real.pgn");
        let link = dir.join("link.pgn");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut out = OutputFile::create(&link).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        // A link to a file not there yet (relative): the file is made where it points.
        let dangling = dir.join("later.pgn");
        std::os::unix::fs::symlink("sub/made.pgn", &dangling).unwrap();
        std::fs::create_dir(dir.join("sub")).unwrap();
        let mut out = OutputFile::create(&dangling).unwrap();
        out.write_all(b"made").unwrap();
        out.commit().unwrap();
        let kind = std::fs::symlink_metadata(&dangling).unwrap().file_type();
        assert!(kind.is_symlink(), "{kind:?}");
        let made = std::fs::read_to_string(dir.join("sub/made.pgn")).unwrap();
        assert_eq!(made, "made");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
