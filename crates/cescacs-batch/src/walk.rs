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

/// One step of a [`Walking`]: a file to read or a note, in the order met.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WalkItem {
    /// A file (or `-`) to read.
    File(PathBuf),
    /// Something left out or worth a word.
    Note(WalkNote),
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
    file_id_and_links(path).map(|(id, _)| id)
}

/// The file's identity and whether another path may lead to it without a symbolic
/// link or a second name for its directory: a hard link (more than one link).
/// Elsewhere than on Unix, always.
fn file_id_and_links(path: &Path) -> Option<(FileId, bool)> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((FileId::Inode(meta.dev(), meta.ino()), meta.nlink() > 1))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        std::fs::canonicalize(path)
            .ok()
            .map(|p| (FileId::Path(p), true))
    }
}

/// Expands `paths`: directories recursively (names passing `keep`), files as given.
/// `exclude` lists the run's output and report: never inputs, whether named or walked.
/// [`Walking`] gives the same, one step at a time.
pub fn walk(paths: &[PathBuf], keep: fn(&Path) -> bool, exclude: &[&Path]) -> Walk {
    let mut out = Walk::default();
    for item in Walking::new(paths.to_vec(), keep, exclude) {
        match item {
            WalkItem::File(f) => out.files.push(f),
            WalkItem::Note(n) => out.notes.push(n),
        }
    }
    out
}

/// [`walk`] as an iterator: each directory is listed when the walk reaches it, so what
/// is held is the sorted names of the directories being walked (each name in one
/// buffer: its bytes and 8 more), not a list of every file found. A run reads its
/// first file before the walk has gone further.
pub struct Walking {
    paths: std::vec::IntoIter<PathBuf>,
    keep: fn(&Path) -> bool,
    excluded: HashSet<FileId>,
    /// The files taken that another path may lead to again: named ones, ones reached
    /// through a symbolic link, hard links. A plain file found in a walked directory
    /// is not remembered (a directory is walked once): that is what keeps memory
    /// independent of the number of files.
    seen_files: HashSet<FileId>,
    seen_dirs: HashSet<PathBuf>,
    /// The directories whose listing was read (canonical), for telling whether a
    /// file a link or a name leads to was already taken by the walk.
    listed: HashSet<PathBuf>,
    /// The directories being walked, innermost last.
    stack: Vec<Listing>,
    /// Steps found but not yet handed out (a listing's notes, a file's note and the file).
    pending: std::collections::VecDeque<WalkItem>,
}

/// A directory's entries, sorted, and how far the walk has gone in them.
struct Listing {
    dir: PathBuf,
    canonical: PathBuf,
    names: Names,
    next: usize,
}

/// Entry names in one buffer: a directory of 100,000 one-game files costs its names'
/// bytes and 8 bytes each, not a path allocation each.
#[derive(Default)]
struct Names {
    bytes: Vec<u8>,
    spans: Vec<(u32, u32)>,
}

impl Names {
    /// Adds a name; false when the listing has outgrown its 4 GiB of names.
    fn push(&mut self, name: &std::ffi::OsStr) -> bool {
        let name = name.as_encoded_bytes();
        let (Ok(start), Ok(len)) = (u32::try_from(self.bytes.len()), u32::try_from(name.len()))
        else {
            return false;
        };
        self.bytes.extend_from_slice(name);
        self.spans.push((start, len));
        true
    }

    fn get(&self, i: usize) -> Option<&[u8]> {
        let &(start, len) = self.spans.get(i)?;
        self.bytes.get(start as usize..(start + len) as usize)
    }

    /// Byte order of the names: the order of the paths they make in one directory.
    fn sort(&mut self) {
        let bytes = &self.bytes;
        let name = |&(s, l): &(u32, u32)| &bytes[s as usize..(s + l) as usize];
        self.spans.sort_unstable_by(|a, b| name(a).cmp(name(b)));
        self.spans.shrink_to_fit();
        self.bytes.shrink_to_fit();
    }
}

impl Walking {
    /// Starts a walk over `paths` (see [`walk`]).
    pub fn new(paths: Vec<PathBuf>, keep: fn(&Path) -> bool, exclude: &[&Path]) -> Walking {
        Walking {
            paths: paths.into_iter(),
            keep,
            excluded: exclude.iter().filter_map(|p| file_id(p)).collect(),
            seen_files: HashSet::new(),
            seen_dirs: HashSet::new(),
            listed: HashSet::new(),
            stack: Vec::new(),
            pending: Default::default(),
        }
    }

    fn note(&mut self, note: WalkNote) {
        self.pending.push_back(WalkItem::Note(note));
    }

    /// The next entry of the innermost directory, its listing dropped when done.
    fn next_entry(&mut self) -> Option<Option<PathBuf>> {
        let top = self.stack.last_mut()?;
        let Some(name) = top.names.get(top.next) else {
            self.stack.pop();
            return Some(None);
        };
        top.next += 1;
        Some(Some(top.dir.join(name_of(name))))
    }

    fn entry(&mut self, path: PathBuf) {
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => self.dir(&path),
            Ok(_) => self.file(&path, false),
            // A dangling link or a file gone since the listing.
            Err(e) => {
                if (self.keep)(&path) {
                    self.note(WalkNote::Unreadable(path, e.to_string()));
                }
            }
        }
    }

    fn file(&mut self, path: &Path, named: bool) {
        if !named && !(self.keep)(path) {
            return;
        }
        let Some((id, hard_linked)) = file_id_and_links(path) else {
            self.note(WalkNote::Unreadable(
                path.to_path_buf(),
                "no such file".into(),
            ));
            return;
        };
        if self.excluded.contains(&id) {
            // Named on the command line, it is refused by the caller (an output that
            // is also an input); found in a walk, it is simply not an input.
            if !named {
                self.note(WalkNote::OwnOutput(path.to_path_buf()));
                return;
            }
        }
        let linked = named || hard_linked || path.is_symlink();
        let again = match linked {
            true => !self.seen_files.insert(id) || self.walked_already(path),
            false => self.seen_files.contains(&id),
        };
        if again {
            self.note(WalkNote::Duplicate(path.to_path_buf()));
            return;
        }
        if path.to_str().is_none() {
            self.note(WalkNote::NonUtf8Name(path.to_path_buf()));
        }
        self.pending.push_back(WalkItem::File(path.to_path_buf()));
    }

    /// Whether a file a name or a link leads to (one link only) was taken by the
    /// walk of its directory already: the directory was listed and the walk is past
    /// the file's name in it (names are walked in sorted order).
    fn walked_already(&self, path: &Path) -> bool {
        let Ok(real) = std::fs::canonicalize(path) else {
            return false;
        };
        let (Some(dir), Some(name)) = (real.parent(), real.file_name()) else {
            return false;
        };
        if !self.listed.contains(dir) || !(self.keep)(&real) {
            return false;
        }
        match self.stack.iter().find(|l| l.canonical == dir) {
            // Still being walked: the entries before the current one are done.
            Some(l) => l
                .next
                .checked_sub(1)
                .and_then(|current| l.names.get(current))
                .is_some_and(|current| name.as_encoded_bytes() < current),
            None => true,
        }
    }

    fn dir(&mut self, dir: &Path) {
        let canonical = match std::fs::canonicalize(dir) {
            Ok(c) => c,
            Err(e) => return self.note(WalkNote::Unreadable(dir.to_path_buf(), e.to_string())),
        };
        if !self.seen_dirs.insert(canonical.clone()) {
            return self.note(WalkNote::Loop(dir.to_path_buf()));
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(rd) => rd,
            Err(e) => return self.note(WalkNote::Unreadable(dir.to_path_buf(), e.to_string())),
        };
        let mut names = Names::default();
        for entry in entries {
            match entry {
                Ok(e) if names.push(&e.file_name()) => {}
                Ok(_) => {
                    let e = "more names than one listing holds (4 GiB); the rest left out";
                    self.note(WalkNote::Unreadable(dir.to_path_buf(), e.into()));
                    break;
                }
                Err(e) => self.note(WalkNote::Unreadable(dir.to_path_buf(), e.to_string())),
            }
        }
        names.sort();
        self.listed.insert(canonical.clone());
        self.stack.push(Listing {
            dir: dir.to_path_buf(),
            canonical,
            names,
            next: 0,
        });
    }
}

/// A name as [`Names`] holds it, back as a file name.
fn name_of(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        // Elsewhere the encoded bytes are not public: names are read as UTF-8, as
        // `Path::display` shows them.
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

impl Iterator for Walking {
    type Item = WalkItem;

    fn next(&mut self) -> Option<WalkItem> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            match self.next_entry() {
                Some(Some(path)) => self.entry(path),
                Some(None) => {}
                None => {
                    let path = self.paths.next()?;
                    if path.as_os_str() == "-" {
                        return Some(WalkItem::File(path));
                    }
                    match std::fs::metadata(&path) {
                        Ok(m) if m.is_dir() => self.dir(&path),
                        Ok(_) => self.file(&path, true),
                        Err(e) => self.note(WalkNote::Unreadable(path, e.to_string())),
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
            pgn,
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

    /// Plain files of a walked directory are not remembered (memory independent of
    /// their number), yet a file reached again through a link (before or after its
    /// own name) or a hard link is still read once.
    #[cfg(unix)]
    #[test]
    fn links_to_unremembered_files_are_still_read_once() {
        use std::os::unix::fs::symlink;
        let root = std::env::temp_dir().join(format!("cescacs-walkl-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("e")).unwrap();
        std::fs::create_dir_all(root.join("f")).unwrap();
        std::fs::write(root.join("e/z.pgn"), "*").unwrap();
        std::fs::write(root.join("f/h.pgn"), "*").unwrap();
        std::fs::write(root.join("f/g.pgn"), "*").unwrap();
        symlink(root.join("e/z.pgn"), root.join("e/b-link.pgn")).unwrap();
        std::fs::hard_link(root.join("f/h.pgn"), root.join("e/hard.pgn")).unwrap();
        symlink(root.join("e/z.pgn"), root.join("f/c.pgn")).unwrap();
        symlink(root.join("f/g.pgn"), root.join("e/x-later.pgn")).unwrap();
        let paths = [root.join("e"), root.join("f"), root.join("e/z.pgn")];
        let w = walk(&paths, pgn, &[]);
        let rel = |p: &PathBuf| p.strip_prefix(&root).unwrap().display().to_string();
        let files: Vec<String> = w.files.iter().map(rel).collect();
        assert_eq!(files, ["e/b-link.pgn", "e/hard.pgn", "e/x-later.pgn"]);
        let dups: Vec<String> = w
            .notes
            .iter()
            .map(|n| match n {
                WalkNote::Duplicate(p) => rel(p),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            dups,
            ["e/z.pgn", "f/c.pgn", "f/g.pgn", "f/h.pgn", "e/z.pgn"]
        );
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
        let w = walk(std::slice::from_ref(&root), pgn, &[]);
        assert_eq!(w.files, std::slice::from_ref(&name));
        assert_eq!(w.notes, [WalkNote::NonUtf8Name(name)]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
