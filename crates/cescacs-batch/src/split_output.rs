//! One run's games written into several files of a directory (`select --split N`,
//! `--split-by TAG|eco`): each file an [`OutputFile`], so each is written beside its
//! target and renamed over it only when the run commits (through
//! [`SplitOutput::into_sinks`] and `Session::finish_all`); an interrupted or failed run
//! leaves every old file as it was.
//!
//! File names: `1.EXT`, `2.EXT`, … for files of N games (pgn-extract's `-#N` names);
//! the group's value for a split by value (`B33.pgn`, `Carlsen_Magnus.pgn`), its
//! characters other than ASCII letters, digits, `-` and `.` made `_` (an empty
//! value, or one starting with `.`, gets a leading `_`), so two values that differ only
//! there share a file. A split by value and by N together number the files of each
//! value (`B33-1.pgn`, `B33-2.pgn`).
//!
//! Limits: at most [`SplitOutput::MAX_OPEN`] files are open at once (a file stays open
//! until the run ends, as its temporary must be renamed then); a run that would need
//! more stops with an error naming the limit, nothing committed.

use crate::{OutputFile, Sink};
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The files of a split output; see the module documentation.
pub struct SplitOutput {
    dir: PathBuf,
    extension: String,
    header: Vec<u8>,
    every: Option<usize>,
    files: Vec<OutputFile>,
    paths: Vec<PathBuf>,
    /// Group (`""` when not split by value) -> (files made for it, games in its last
    /// file, index of its last file).
    groups: HashMap<String, (usize, usize, usize)>,
}

impl SplitOutput {
    /// Files open at once, at most (file descriptors and 64 KiB buffers).
    pub const MAX_OPEN: usize = 512;

    /// Files in `dir` (created when missing) named `….extension`, each starting with
    /// `header`, of at most `every` games (`None`: no limit).
    pub fn new(
        dir: &Path,
        extension: &str,
        header: &[u8],
        every: Option<usize>,
    ) -> io::Result<SplitOutput> {
        if every == Some(0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--split 0: a file holds at least one game",
            ));
        }
        std::fs::create_dir_all(dir)?;
        Ok(SplitOutput {
            dir: dir.to_path_buf(),
            extension: extension.to_string(),
            header: header.to_vec(),
            every,
            files: Vec::new(),
            paths: Vec::new(),
            groups: HashMap::new(),
        })
    }

    /// The index of the file the next game of `group` goes to (`None`: not split by
    /// value; [`SplitOutput::file`] gives the file), and whether that game is the
    /// file's first.
    pub fn next_game(&mut self, group: Option<&str>) -> io::Result<(usize, bool)> {
        let key = group.map(file_stem).unwrap_or_default();
        let every = self.every.unwrap_or(usize::MAX);
        let (made, games, index) = self.groups.get(&key).copied().unwrap_or((0, every, 0));
        if games < every {
            self.groups.insert(key, (made, games + 1, index));
            return Ok((index, false));
        }
        if self.files.len() >= Self::MAX_OPEN {
            return Err(io::Error::other(format!(
                "more than {} output files: split into fewer (a larger --split N, or another tag)",
                Self::MAX_OPEN
            )));
        }
        let n = made + 1;
        let name = match (group.is_some(), self.every.is_some()) {
            (true, true) => format!("{key}-{n}.{}", self.extension),
            (true, false) => format!("{key}.{}", self.extension),
            (false, _) => format!("{n}.{}", self.extension),
        };
        let path = self.dir.join(name);
        let mut file = OutputFile::create(&path)?;
        file.write_all(&self.header)?;
        self.files.push(file);
        self.paths.push(path);
        let index = self.files.len() - 1;
        self.groups.insert(key, (n, 1, index));
        Ok((index, true))
    }

    /// File `index` (from [`SplitOutput::next_game`]).
    pub fn file(&mut self, index: usize) -> &mut OutputFile {
        &mut self.files[index]
    }

    /// The files made, in the order they were started.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Every file as a sink, to be committed (or dropped) with the run's other outputs.
    pub fn into_sinks(self) -> Vec<Sink> {
        self.files.into_iter().map(Sink::File).collect()
    }
}

/// A group value as a file name (see the module documentation).
fn file_stem(value: &str) -> String {
    let mut stem: String = value
        .trim()
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '.' => c,
            _ => '_',
        })
        .collect();
    if stem.is_empty() || stem.starts_with('.') {
        stem.insert(0, '_');
    }
    stem
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_counts() {
        assert_eq!(file_stem("Carlsen, Magnus"), "Carlsen__Magnus");
        assert_eq!(file_stem("../x"), "_.._x");
        assert_eq!(file_stem(""), "_");
        let dir = std::env::temp_dir().join(format!("cescacs-split-{}", std::process::id()));
        let mut out = SplitOutput::new(&dir, "pgn", b"", Some(2)).unwrap();
        let firsts: Vec<bool> = (0..5).map(|_| out.next_game(None).unwrap().1).collect();
        assert_eq!(firsts, [true, false, true, false, true]);
        let _ = out.next_game(Some("B33")).unwrap();
        let names: Vec<_> = out
            .paths()
            .iter()
            .map(|p| p.file_name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["1.pgn", "2.pgn", "3.pgn", "B33-1.pgn"]);
        // Nothing is there before the commit.
        assert!(!dir.join("1.pgn").exists());
        drop(out);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
        assert!(SplitOutput::new(&dir, "pgn", b"", Some(0)).is_err());
    }
}
