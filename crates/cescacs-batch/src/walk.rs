//! Expanding the command line's files and directories into the inputs of a run.
//!
//! Symlinks are followed once (a canonical-path set makes loops harmless), a file named
//! twice is read once, the run's own output and report are never inputs, and nothing
//! is skipped without a [`WalkNote`] saying so.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Something the walk did not simply take, for the caller to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalkNote {
    /// A file reached a second time (named twice, or through a link): read once.
    Duplicate(PathBuf),
    /// A directory reached again through a link loop: not walked again.
    Loop(PathBuf),
    /// A file whose name is not valid UTF-8: read, shown lossily in diagnostics.
    NonUtf8Name(PathBuf),
    /// A file or directory that could not be read: left out, the rest processed.
    Unreadable(PathBuf, String),
    /// The run's own output or report found in a walked directory: left out.
    OwnOutput(PathBuf),
}

impl WalkNote {
    /// Whether the note is an error (exit status 1 or more) rather than information.
    pub fn is_error(&self) -> bool {
        matches!(self, WalkNote::Unreadable(..))
    }
}

impl fmt::Display for WalkNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkNote::Duplicate(p) => {
                write!(f, "{}: note: given more than once; read once", p.display())
            }
            WalkNote::Loop(p) => write!(
                f,
                "{}: note: directory reached again through a link; not walked again",
                p.display()
            ),
            WalkNote::NonUtf8Name(p) => write!(
                f,
                "{}: note: file name is not valid UTF-8 (shown with replacement characters)",
                p.display()
            ),
            WalkNote::Unreadable(p, e) => {
                write!(f, "{}: error: cannot read: {e}; left out", p.display())
            }
            WalkNote::OwnOutput(p) => write!(
                f,
                "{}: note: this run's own output or report; left out of the walk",
                p.display()
            ),
        }
    }
}

/// Something said about a whole input while finding and opening the inputs: a note
/// for the user only, or a located problem that also goes to the report and the
/// counts ([`crate::Session::file_diagnostic`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileNote {
    /// Information (a file given twice, a link loop, a file left out on purpose).
    Info(String),
    /// A problem of the input (game 0): unreadable, binary, empty, format unknown.
    Problem(crate::Diagnostic),
}

impl fmt::Display for FileNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileNote::Info(text) => f.write_str(text),
            FileNote::Problem(d) => d.fmt(f),
        }
    }
}

impl From<&WalkNote> for FileNote {
    fn from(note: &WalkNote) -> FileNote {
        match note {
            WalkNote::Unreadable(p, e) => FileNote::Problem(crate::Diagnostic::of_file(
                crate::Severity::Error,
                p.display().to_string(),
                (0, 0),
                format!("cannot read: {e}; left out"),
            )),
            other => FileNote::Info(other.to_string()),
        }
    }
}

/// The inputs of a run and what was noted while finding them.
#[derive(Debug, Default)]
pub struct Walk {
    /// Files (and `-`) in command-line order, directories expanded in sorted order.
    pub files: Vec<PathBuf>,
    /// Everything left out or worth a word, in the order found.
    pub notes: Vec<WalkNote>,
}

/// The identity of a file: device and inode where there are such, else its canonical path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(path: &Path) -> Option<FileId> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = &meta;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// Expands `paths`: directories recursively (names passing `keep`), files as given.
/// `exclude` lists the run's output and report: never inputs, whether named or walked.
pub fn walk(paths: &[PathBuf], keep: &dyn Fn(&Path) -> bool, exclude: &[&Path]) -> Walk {
    let excluded: HashSet<FileId> = exclude.iter().filter_map(|p| file_id(p)).collect();
    let mut w = Walker {
        keep,
        excluded,
        seen_files: HashSet::new(),
        seen_dirs: HashSet::new(),
        out: Walk::default(),
    };
    for path in paths {
        if path.as_os_str() == "-" {
            w.out.files.push(path.clone());
            continue;
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => w.dir(path),
            Ok(_) => w.file(path, true),
            Err(e) => w
                .out
                .notes
                .push(WalkNote::Unreadable(path.clone(), e.to_string())),
        }
    }
    w.out
}

struct Walker<'a> {
    keep: &'a dyn Fn(&Path) -> bool,
    excluded: HashSet<FileId>,
    seen_files: HashSet<FileId>,
    seen_dirs: HashSet<PathBuf>,
    out: Walk,
}

impl Walker<'_> {
    fn file(&mut self, path: &Path, named: bool) {
        if !named && !(self.keep)(path) {
            return;
        }
        let Some(id) = file_id(path) else {
            self.out.notes.push(WalkNote::Unreadable(
                path.to_path_buf(),
                "no such file".into(),
            ));
            return;
        };
        if self.excluded.contains(&id) {
            // Named on the command line, it is refused by the caller (an output that
            // is also an input); found in a walk, it is simply not an input.
            if !named {
                self.out.notes.push(WalkNote::OwnOutput(path.to_path_buf()));
                return;
            }
        }
        if !self.seen_files.insert(id) {
            self.out.notes.push(WalkNote::Duplicate(path.to_path_buf()));
            return;
        }
        if path.to_str().is_none() {
            self.out
                .notes
                .push(WalkNote::NonUtf8Name(path.to_path_buf()));
        }
        self.out.files.push(path.to_path_buf());
    }

    fn dir(&mut self, dir: &Path) {
        let canonical = match std::fs::canonicalize(dir) {
            Ok(c) => c,
            Err(e) => {
                self.out
                    .notes
                    .push(WalkNote::Unreadable(dir.to_path_buf(), e.to_string()));
                return;
            }
        };
        if !self.seen_dirs.insert(canonical) {
            self.out.notes.push(WalkNote::Loop(dir.to_path_buf()));
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => {
                self.out
                    .notes
                    .push(WalkNote::Unreadable(dir.to_path_buf(), e.to_string()));
                return;
            }
        };
        let mut paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(e) => self
                    .out
                    .notes
                    .push(WalkNote::Unreadable(dir.to_path_buf(), e.to_string())),
            }
        }
        paths.sort();
        for path in paths {
            match std::fs::metadata(&path) {
                Ok(m) if m.is_dir() => self.dir(&path),
                Ok(_) => self.file(&path, false),
                // A dangling link or a file gone since the listing.
                Err(e) => {
                    if (self.keep)(&path) {
                        self.out
                            .notes
                            .push(WalkNote::Unreadable(path, e.to_string()));
                    }
                }
            }
        }
    }
}

/// Whether two paths name the same file: the same device and inode when it exists,
/// else the same absolute path (two outputs not created yet).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (file_id(a), file_id(b)) {
        (Some(x), Some(y)) => x == y,
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => a == b,
        },
    }
}

/// Refuses an output that is also an input (same device and inode, so links and other
/// spellings of the path are caught too).
pub fn output_is_input(output: &Path, inputs: &[PathBuf]) -> Option<PathBuf> {
    let out = file_id(output)?;
    inputs
        .iter()
        .find(|i| i.as_os_str() != "-" && file_id(i).as_ref() == Some(&out))
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgn(p: &Path) -> bool {
        p.extension().is_some_and(|e| e == "pgn")
    }

    #[cfg(unix)]
    #[test]
    fn links_loops_duplicates_and_own_output() {
        use std::os::unix::fs::symlink;
        let root = std::env::temp_dir().join(format!("cescacs-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("d/sub")).unwrap();
        std::fs::write(root.join("d/a.pgn"), "*").unwrap();
        std::fs::write(root.join("d/sub/b.pgn"), "*").unwrap();
        std::fs::write(root.join("d/out.pgn"), "*").unwrap();
        std::fs::write(root.join("d/notes.txt"), "").unwrap();
        symlink(root.join("d"), root.join("d/sub/loop")).unwrap();
        symlink(root.join("d/sub"), root.join("d/sub/loop2")).unwrap();
        symlink(root.join("d/a.pgn"), root.join("d/link.pgn")).unwrap();
        symlink(root.join("nowhere.pgn"), root.join("d/dangling.pgn")).unwrap();
        let out = root.join("d/out.pgn");
        let w = walk(
            &[
                root.join("d"),
                root.join("d/a.pgn"),
                root.join("missing.pgn"),
            ],
            &pgn,
            &[&out],
        );
        let names: Vec<String> = w
            .files
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["d/a.pgn", "d/sub/b.pgn"]);
        let kinds: Vec<&str> = w
            .notes
            .iter()
            .map(|n| match n {
                WalkNote::Duplicate(_) => "dup",
                WalkNote::Loop(_) => "loop",
                WalkNote::OwnOutput(_) => "own",
                WalkNote::Unreadable(..) => "unreadable",
                WalkNote::NonUtf8Name(_) => "utf8",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "unreadable",
                "dup",
                "own",
                "loop",
                "loop",
                "dup",
                "unreadable"
            ]
        );
        assert_eq!(
            output_is_input(&root.join("d/link.pgn"), &w.files),
            Some(root.join("d/a.pgn"))
        );
        assert_eq!(output_is_input(&root.join("d/new.pgn"), &w.files), None);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_names_are_read_and_noted() {
        use std::os::unix::ffi::OsStrExt;
        let root = std::env::temp_dir().join(format!("cescacs-walk8-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let name = root.join(std::ffi::OsStr::from_bytes(b"caf\xE9.pgn"));
        std::fs::write(&name, "*").unwrap();
        let w = walk(std::slice::from_ref(&root), &pgn, &[]);
        assert_eq!(w.files, std::slice::from_ref(&name));
        assert_eq!(w.notes, [WalkNote::NonUtf8Name(name)]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
