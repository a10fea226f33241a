//! A command's inputs: the paths walked, each file opened once (its head read), its
//! format chosen, and the files grouped by format, so that one [`crate::Converter`]
//! serves each group.
//!
//! Nothing is kept per file but one byte (its group): the walk is done again when a
//! group is run, its files taken as the run reaches them (docs/io.md "Many inputs").

use crate::Format;
use cescacs_batch::{
    Diagnostic, FileNote, Input, Severity, TextEncoding, WalkItem, WalkNote, Walking, ZipMember,
};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The name format detection looks at: the file name, lower case, without a
/// compression extension.
pub fn detection_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    crate::without_compression(&name).to_string()
}

/// A PCN document or array of documents, from its first bytes: an object with one
/// of the keys a PCN game has. `"starting_position"` and `"over?"` are what the PCN
/// writer emits (a walk reads back the tool's own output); `"board"` is the older form.
fn looks_like_pcn(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    let t = t.strip_prefix('[').map_or(t, str::trim_start);
    t.starts_with('{')
        && ["\"starting_position\"", "\"over?\"", "\"board\""]
            .iter()
            .any(|key| text.contains(key))
}

fn problem(severity: Severity, path: &Path, at: (u64, u64), message: String) -> FileNote {
    FileNote::Problem(Diagnostic::of_file(
        severity,
        path.display().to_string(),
        at,
        message,
    ))
}

/// What to say about text that is not UTF-8 and is read as a guessed encoding because
/// no `--encoding` was given ([`cescacs_batch::not_utf8_message`]): a warning now, when
/// the input's head (its first [`cescacs_batch::HEAD_BYTES`]) holds such a byte; else
/// the input is handed to the run to warn at the first such byte past the head
/// ([`Input::warn_late_guess`]). Double-byte text (GBK, Big5) is recognised by its byte
/// pairs and not warned about.
enum Guess {
    /// Nothing to say (UTF-8 only formats, decoded or double-byte text).
    None,
    /// The head holds a byte that is not UTF-8: this warning.
    Now(FileNote),
    /// The head is UTF-8: the run watches the rest for this guess.
    Later(cescacs_batch::Guess),
}

/// The encoding a format's reader guesses for bytes that are not UTF-8, if it guesses.
fn format_guess(format: Format) -> Option<cescacs_batch::Guess> {
    match format {
        Format::Pgn => Some(cescacs_batch::Guess::Windows1252),
        Format::XiangqiPgn => Some(cescacs_batch::Guess::GbkOrBig5),
        _ => None,
    }
}

fn single_byte_guess(input: &Input, format: Format, path: &Path) -> Guess {
    // Classic PGN reads such bytes as Windows-1252, xiangqi PGN as GBK or Big5; CTL-PGN
    // and PCN are UTF-8 only and say so in each game.
    let Some(guess) = format_guess(format) else {
        return Guess::None;
    };
    if input.decoded_from.is_some() {
        return Guess::None;
    }
    let head = input.head();
    let Err(error) = std::str::from_utf8(head) else {
        return Guess::Later(guess);
    };
    if error.error_len().is_none() {
        // A character cut by the head's end.
        return Guess::Later(guess);
    }
    if TextEncoding::detect(head) != TextEncoding::Bytes {
        return Guess::None;
    }
    let at = error.valid_up_to();
    let message = cescacs_batch::not_utf8_message(at as u64, head[at], guess.name());
    Guess::Now(problem(
        Severity::Warning,
        path,
        cescacs_batch::place_of(head, at, (1, 1)),
        message,
    ))
}

/// The inputs of a run, grouped by format (in order of first appearance).
pub struct Inputs {
    /// Each format met, with its inputs in walk order.
    pub groups: Vec<(Format, InputList)>,
    /// The files named on the command line that are read, for refusing an output that
    /// is also an input (files found in a walked directory are not listed: the walk
    /// already leaves the output and the report out, and a list of every file would
    /// grow with their number).
    pub files: Vec<PathBuf>,
    /// An input could not be read or identified (reported; the rest still opened).
    pub had_errors: bool,
}

/// The inputs of one format, in walk order: iterating walks the paths again and hands
/// out each input of this format not opened yet ([`Input::unopened`]), so that a run
/// over 200,000 files holds one at a time. Standard input and pipes, which cannot be
/// read twice, are kept open from the first walk.
pub struct InputList {
    plan: Arc<Plan>,
    class: u8,
    len: usize,
    first: String,
    total_bytes: Option<u64>,
}

impl InputList {
    /// How many inputs.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none (never, for a group of [`Inputs`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first input's name (for a message about the whole group).
    pub fn first_name(&self) -> &str {
        &self.first
    }

    /// Their sizes in all, when every size is known (for progress).
    pub fn total_bytes(&self) -> Option<u64> {
        self.total_bytes
    }
}

impl IntoIterator for InputList {
    type Item = Input;
    type IntoIter = InputStream;

    fn into_iter(self) -> InputStream {
        InputStream {
            candidates: Candidates::new(&self.plan),
            plan: self.plan,
            class: self.class,
            index: 0,
        }
    }
}

/// The inputs of an [`InputList`], taken from a walk as the run reaches them.
pub struct InputStream {
    plan: Arc<Plan>,
    class: u8,
    candidates: Candidates,
    /// The candidate's index in walk order (the first walk's classes are by it).
    index: usize,
}

impl Iterator for InputStream {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            let Some(step) = self.candidates.next() else {
                let missing = self.index < self.plan.classes.len() && self.class == 0;
                self.index = usize::MAX;
                let first = self.plan.paths.first().filter(|_| missing)?;
                return Some(changed(first, "files went missing"));
            };
            let Step::Take(path, member) = step else {
                continue;
            };
            let i = self.index;
            self.index = self.index.saturating_add(1);
            if self.plan.tags.get(i) != Some(&tag(&path)) {
                // Not the file the second walk found here: said (by the first group
                // only), never read in a group not its own.
                if self.class == 0 {
                    return Some(changed(&path, "not found there before"));
                }
                continue;
            }
            if self.plan.classes.get(i) != Some(&self.class) {
                continue;
            }
            let kept = self.plan.kept.lock().ok().and_then(|mut kept| {
                let at = kept.iter().position(|(k, _)| *k == i)?;
                Some(kept.swap_remove(at).1)
            });
            if kept.is_some() {
                return kept;
            }
            let format = self.plan.formats[self.class as usize];
            let framing = crate::input_framing(format, &detection_name(&path));
            let name = path.display().to_string();
            let mut input = match member {
                Some((archive, m)) => Input::unopened(name, archive, Some(m), self.plan.encoding),
                None => Input::unopened(name, path, None, self.plan.encoding),
            };
            // The run watches for a byte that is not UTF-8 only where the head, read
            // again when the input is opened, had none (else detection said so).
            if let (None, Some(guess)) = (self.plan.encoding, format_guess(format)) {
                input = input.warn_late_guess(guess);
            }
            return Some(input.with_framing(framing));
        }
    }
}

/// An input that is a read error: the files changed between two walks of the run.
fn changed(path: &Path, what: &str) -> Input {
    let message = format!(
        "the files changed while the run went on ({what}): the inputs after this one may be \
         read in the wrong order or left out; run again over files that do not change"
    );
    let error = std::io::Error::other(message);
    Input::from_reader(path.display().to_string(), None, Failing(Some(error)))
}

/// A reader whose first read is the error it holds.
struct Failing(Option<std::io::Error>);

impl std::io::Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// A byte of a hash of a candidate's name: a later walk that does not find the same
/// name at the same place is told apart (but for 1 in 256) from one that does.
fn tag(path: &Path) -> u8 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    path.hash(&mut h);
    h.finish() as u8
}

/// What the first walk found, for walking again: the class of every candidate.
struct Plan {
    paths: Vec<PathBuf>,
    exclude: Vec<PathBuf>,
    encoding: Option<TextEncoding>,
    /// The format of each class, in order of first appearance.
    formats: Vec<Format>,
    /// Each candidate's class (an index into `formats`), or [`LEFT_OUT`].
    classes: Vec<u8>,
    /// Each candidate's [`tag`], to tell that a later walk finds the same files.
    tags: Vec<u8>,
    /// Inputs that cannot be opened again (standard input, pipes), by candidate index.
    kept: Mutex<Vec<(usize, Input)>>,
}

/// The class of a candidate that is not read (a problem, a file left out).
const LEFT_OUT: u8 = u8::MAX;

/// The walk's files with zip archives opened into their members, in one order that
/// every walk of the same paths gives again.
struct Candidates {
    walk: Walking,
    archive: PathBuf,
    members: std::vec::IntoIter<ZipMember>,
}

/// One step of [`Candidates`].
enum Step {
    /// A file or a zip member to take (the member with its archive).
    Take(PathBuf, Option<(PathBuf, ZipMember)>),
    /// A note of the walk itself (given by the first walk, before any file).
    Walk,
    /// A zip archive, its members next.
    Archive(PathBuf),
    /// Something said while opening archives (an error or information).
    Note(FileNote),
}

fn keep(p: &Path) -> bool {
    let name = detection_name(p);
    crate::is_game_file(&name) || name.ends_with(".zip")
}

impl Candidates {
    fn new(plan: &Plan) -> Candidates {
        let exclude: Vec<&Path> = plan.exclude.iter().map(PathBuf::as_path).collect();
        Candidates {
            walk: Walking::new(plan.paths.clone(), keep, &exclude),
            archive: PathBuf::new(),
            members: Vec::new().into_iter(),
        }
    }
}

impl Iterator for Candidates {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        if let Some(m) = self.members.next() {
            let shown = PathBuf::from(cescacs_batch::member_name(&self.archive, &m.name));
            if crate::is_game_file(&detection_name(&shown)) {
                return Some(Step::Take(shown, Some((self.archive.clone(), m))));
            }
            let note = format!("{}: note: not a game file; left out", shown.display());
            return Some(Step::Note(FileNote::Info(note)));
        }
        let path = match self.walk.next()? {
            WalkItem::Note(_) => return Some(Step::Walk),
            WalkItem::File(path) => path,
        };
        if path.as_os_str() == "-" || !cescacs_batch::is_zip(&path) {
            return Some(Step::Take(path, None));
        }
        Some(match cescacs_batch::zip_members(&path) {
            Ok(members) => {
                self.members = members.into_iter();
                self.archive = path.clone();
                Step::Archive(path)
            }
            Err(e) => Step::Note(FileNote::from(&WalkNote::Unreadable(path, e.to_string()))),
        })
    }
}

/// Walks `paths` (directories: the game files below them, compressed or not), opens
/// each file once, chooses its format (`from`, or [`crate::detect`] on its name and
/// head) and groups the files by format. `exclude` holds the run's output and report,
/// which are never inputs; `encoding` forces how PGN-like text is cut.
///
/// Every problem met is handed to `note` in order (the walk's notes first, then a
/// [`FileNote::Problem`] for what belongs in the report: unreadable, binary, empty,
/// format unknown); the files that can be read are still grouped. Each file is closed
/// again once its format is known and only its group is kept (one byte): iterating a
/// group ([`InputList`]) walks again and opens each file when the run reaches it. One
/// file open at a time, and memory independent of the number of files but for the
/// sorted names of the directory being walked. The error is the reason the command
/// cannot run at all (an output-only format given as input, no input left, an
/// `output` that is also an input or the `report`: nothing must be overwritten).
pub fn open_inputs(
    paths: &[PathBuf],
    from: Option<Format>,
    encoding: Option<TextEncoding>,
    (output, report): (Option<&Path>, Option<&Path>),
    note: &mut dyn FnMut(&FileNote),
) -> Result<Inputs, String> {
    let output = output.filter(|p| p.as_os_str() != "-");
    let exclude: Vec<&Path> = output.into_iter().chain(report).collect();
    let opened = open_grouped(paths, from, encoding, &exclude, note)?;
    if let Some(out) = output {
        let mut taken = opened.files.clone();
        taken.extend(report.map(Path::to_path_buf));
        if let Some(input) = cescacs_batch::output_is_input(out, &taken) {
            return Err(format!(
                "the output {} is also an input or the report ({}): refused, nothing written",
                out.display(),
                input.display()
            ));
        }
    }
    Ok(opened)
}

fn open_grouped(
    paths: &[PathBuf],
    from: Option<Format>,
    encoding: Option<TextEncoding>,
    exclude: &[&Path],
    note: &mut dyn FnMut(&FileNote),
) -> Result<Inputs, String> {
    let mut plan = Plan {
        paths: paths.to_vec(),
        exclude: exclude.iter().map(|p| p.to_path_buf()).collect(),
        encoding,
        formats: Vec::new(),
        classes: Vec::new(),
        tags: Vec::new(),
        kept: Mutex::default(),
    };
    let mut g = Grouping {
        from,
        encoding,
        named: paths.iter().map(PathBuf::as_path).collect(),
        note,
        groups: Vec::new(),
        kept: Vec::new(),
        files: Vec::new(),
        empty: 0,
        had_errors: false,
    };
    // The walk's notes first, as a walk done before the files are opened gives them.
    for item in Walking::new(paths.to_vec(), keep, exclude) {
        if let WalkItem::Note(n) = item {
            g.had_errors |= n.is_error();
            (g.note)(&FileNote::from(&n));
        }
    }
    g.classify(&mut plan)?;
    plan.classes.shrink_to_fit();
    plan.tags.shrink_to_fit();
    plan.formats = g.groups.iter().map(|s| s.format).collect();
    plan.kept = Mutex::new(std::mem::take(&mut g.kept));
    let Grouping {
        groups,
        files,
        empty,
        had_errors,
        ..
    } = g;
    // Only empty files (each warned about): a run over nothing, not a failure.
    if groups.is_empty() && (empty == 0 || had_errors) {
        return Err(if had_errors {
            "no input could be read (see above)"
        } else {
            "no input files"
        }
        .into());
    }
    Ok(Inputs {
        groups: lists(groups, Arc::new(plan)),
        files,
        had_errors,
    })
}

/// Each group seen as the list that walks again for its inputs.
fn lists(groups: Vec<GroupSeen>, plan: Arc<Plan>) -> Vec<(Format, InputList)> {
    let list = |(class, s): (usize, GroupSeen)| {
        let list = InputList {
            plan: Arc::clone(&plan),
            class: class as u8,
            len: s.len,
            first: s.first,
            total_bytes: s.total_bytes,
        };
        (s.format, list)
    };
    groups.into_iter().enumerate().map(list).collect()
}

/// What the first walk knows of one format's inputs.
struct GroupSeen {
    format: Format,
    len: usize,
    first: String,
    total_bytes: Option<u64>,
}

/// The inputs grouped so far, and what is needed to take the next one.
struct Grouping<'a, 'n> {
    from: Option<Format>,
    encoding: Option<TextEncoding>,
    /// The paths named on the command line.
    named: std::collections::HashSet<&'a Path>,
    note: &'n mut dyn FnMut(&FileNote),
    groups: Vec<GroupSeen>,
    kept: Vec<(usize, Input)>,
    files: Vec<PathBuf>,
    empty: usize,
    had_errors: bool,
}

impl Grouping<'_, '_> {
    /// The second walk: each file, or each member of a zip archive, taken in walk
    /// order as it comes; only its class (and name tag) is kept in `plan`.
    fn classify(&mut self, plan: &mut Plan) -> Result<(), String> {
        for step in Candidates::new(plan) {
            match step {
                Step::Walk => {}
                Step::Archive(path) => {
                    if self.named.contains(path.as_path()) && !self.files.contains(&path) {
                        self.files.push(path);
                    }
                }
                Step::Note(n) => {
                    let error = matches!(&n, FileNote::Problem(d) if d.severity == Severity::Error);
                    self.had_errors |= error;
                    (self.note)(&n);
                }
                Step::Take(path, member) => {
                    plan.tags.push(tag(&path));
                    let class = self.take(path, member, plan.classes.len())?;
                    plan.classes.push(class);
                }
            }
        }
        Ok(())
    }

    /// Opens one file (or zip member), the `index`th candidate of the walk, reads its
    /// head, chooses its format and returns its class ([`LEFT_OUT`] when a problem is
    /// noted and the input left out). The error is the reason the command cannot run
    /// at all.
    fn take(
        &mut self,
        path: PathBuf,
        member: Option<(PathBuf, ZipMember)>,
        index: usize,
    ) -> Result<u8, String> {
        let opened = match &member {
            Some((archive, m)) => Input::open_zip_member(archive, m),
            None => Input::open(&path),
        };
        let input = match opened {
            Ok(i) => i,
            Err(e) => {
                (self.note)(&FileNote::from(&WalkNote::Unreadable(path, e.to_string())));
                self.had_errors = true;
                return Ok(LEFT_OUT);
            }
        };
        let Some(format) = self.format_of(&input, &path)? else {
            return Ok(LEFT_OUT);
        };
        let name = detection_name(&path);
        let mut input = input.with_framing(crate::input_framing(format, &name));
        if let Some(e) = self.encoding {
            input = input.with_encoding(e);
        }
        if self.encoding.is_none() {
            match single_byte_guess(&input, format, &path) {
                Guess::Now(warning) => (self.note)(&warning),
                Guess::Later(guess) => input = input.warn_late_guess(guess),
                Guess::None => {}
            }
        }
        if let Some(problem) = binary_problem(&input, format, &path) {
            (self.note)(&problem);
            self.had_errors = true;
            return Ok(LEFT_OUT);
        }
        // Only a named file can be the output too (the walk leaves the output and the
        // report out of directories): walked files are not listed.
        if member.is_none() && self.named.contains(path.as_path()) {
            self.files.push(path);
        }
        Ok(self.group(format, input, index))
    }

    /// The input's format, or `None` when it is left out (empty, unknown, JSON that
    /// is not PCN met in a walk), each said. The error: an output-only format.
    fn format_of(&mut self, input: &Input, path: &Path) -> Result<Option<Format>, String> {
        if input.head().is_empty() {
            // Nothing to read: said, so that a file cut to nothing is not taken for
            // a database with no games in it.
            let message = "empty input: no games".to_string();
            (self.note)(&problem(Severity::Warning, path, (0, 0), message));
            self.empty += 1;
            return Ok(None);
        }
        let name = detection_name(path);
        let Some(format) = self.from.or_else(|| crate::detect(&name, input.head())) else {
            let message = "cannot tell the game format: give --from".to_string();
            (self.note)(&problem(Severity::Error, path, (0, 0), message));
            self.had_errors = true;
            return Ok(None);
        };
        if !format.is_input() {
            let name = format.name();
            return Err(format!(
                "{}: {name} is an output format only",
                path.display()
            ));
        }
        let named = self.named.contains(path);
        if format == Format::Pcn && self.from.is_none() && !named && !looks_like_pcn(input.head()) {
            // A manifest or a summary next to the games is not a bad game.
            (self.note)(&FileNote::Info(format!(
                "{}: note: JSON but not PCN (no \"starting_position\"); left out of the walk",
                path.display()
            )));
            return Ok(None);
        }
        Ok(Some(format))
    }

    /// Counts the input in its format's group and returns the group's class; an input
    /// that cannot be opened again (standard input, a pipe) is kept as it is.
    fn group(&mut self, format: Format, input: Input, index: usize) -> u8 {
        let class = match self.groups.iter().position(|s| s.format == format) {
            Some(c) => c,
            None => {
                self.groups.push(GroupSeen {
                    format,
                    len: 0,
                    first: input.name.clone(),
                    total_bytes: Some(0),
                });
                self.groups.len() - 1
            }
        };
        let seen = &mut self.groups[class];
        seen.len += 1;
        seen.total_bytes = seen.total_bytes.zip(input.size).map(|(a, b)| a + b);
        let input = input.defer();
        if !input.is_deferred() {
            self.kept.push((index, input));
        }
        // At most a handful of formats: a class fits a byte.
        class as u8
    }
}

/// The error for an input whose head holds binary data (docs: io.md "Binary input";
/// `--from` names a format, not bytes).
fn binary_problem(input: &Input, format: Format, path: &Path) -> Option<FileNote> {
    let at = input.binary_at()?;
    let message = format!(
        "NUL byte (byte {at}): binary data, not {} text; not read (give --encoding to read it as text)",
        format.name()
    );
    Some(problem(
        Severity::Error,
        path,
        cescacs_batch::place_of(input.head(), at, (1, 1)),
        message,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_streams_its_inputs_and_says_when_the_files_changed() {
        use std::io::Read;
        let dir = std::env::temp_dir().join(format!("cescacs-stream-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let game = "[Event \"x\"]\n\n1. e4 *\n";
        std::fs::write(dir.join("a.pgn"), game).unwrap();
        std::fs::write(
            dir.join("b.ctl-pgn"),
            "[Variant \"C'escacs\"]\n\n1. E7-E9 *\n",
        )
        .unwrap();
        std::fs::write(dir.join("c.pgn"), game).unwrap();
        let open = || {
            let paths = [dir.clone()];
            open_inputs(&paths, None, None, (None, None), &mut |_| {}).unwrap()
        };
        let names = |list: InputList| -> Vec<(String, bool)> {
            list.into_iter()
                .map(|i| {
                    let name = i.name.rsplit('/').next().unwrap().to_string();
                    (name, i.reopen().read_to_end(&mut Vec::new()).is_ok())
                })
                .collect()
        };
        // Each format's inputs in walk order, each opened only when taken.
        let mut groups = open().groups.into_iter();
        let (pgn, ctl) = (groups.next().unwrap(), groups.next().unwrap());
        assert_eq!(
            (pgn.0, pgn.1.len(), ctl.0),
            (Format::Pgn, 2, Format::CtlPgn)
        );
        let first = pgn.1.into_iter().next().unwrap();
        assert!(first.is_deferred());
        let pgn = open().groups.into_iter().next().unwrap().1;
        assert_eq!(names(pgn), [("a.pgn".into(), true), ("c.pgn".into(), true)]);
        // A file added between the walks: the files from it on are read errors of the
        // run, not read in another group or left out without a word. (The walks
        // compare one byte of a hash of each path: when the new file's byte equals
        // that of the file the first walk found in its place, the change is said at
        // the next file instead; which happens depends on the directory's name.)
        let pgn = open().groups.into_iter().next().unwrap().1;
        std::fs::write(dir.join("a2.pgn"), game).unwrap();
        let got = names(pgn);
        assert_eq!(got[0], ("a.pgn".into(), true));
        assert!(got[1..].iter().any(|(_, ok)| !ok), "{got:?}");
        assert!(!got.iter().any(|(n, ok)| n == "a2.pgn" && *ok), "{got:?}");
        if tag(&dir.join("a2.pgn")) != tag(&dir.join("b.ctl-pgn")) {
            assert!(
                got[1..].iter().any(|(n, ok)| n == "a2.pgn" && !ok),
                "{got:?}"
            );
        }
        // A file removed: said too.
        std::fs::remove_file(dir.join("a2.pgn")).unwrap();
        let pgn = open().groups.into_iter().next().unwrap().1;
        std::fs::remove_file(dir.join("c.pgn")).unwrap();
        let got = names(pgn);
        assert!(got.iter().any(|(_, ok)| !ok), "{got:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn inputs_are_grouped_by_format_and_problems_noted() {
        let dir = std::env::temp_dir().join(format!("cescacs-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("a.pgn");
        std::fs::write(&pgn, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
        let ctl = dir.join("b.ctl-pgn");
        std::fs::write(&ctl, "[Variant \"C'escacs\"]\n\n1. E7-E9 *\n").unwrap();
        let missing = dir.join("missing.pgn");
        let mut notes = Vec::new();
        let paths = [pgn.clone(), ctl, missing, pgn];
        let opened = open_inputs(&paths, None, None, (None, None), &mut |n| {
            notes.push(n.to_string())
        });
        let opened = opened.unwrap();
        let formats: Vec<(Format, usize)> =
            opened.groups.iter().map(|(f, i)| (*f, i.len())).collect();
        // A file named twice is read once.
        assert_eq!(formats, [(Format::Pgn, 1), (Format::CtlPgn, 1)]);
        assert!(opened.had_errors && notes.len() == 2, "{notes:?}");
        let none = open_inputs(&[], None, None, (None, None), &mut |_| {});
        assert_eq!(none.err().as_deref(), Some("no input files"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn binary_input_is_a_located_error_unless_an_encoding_is_given() {
        let dir = std::env::temp_dir().join(format!("cescacs-binary-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bin = dir.join("zeros.pgn");
        let mut bytes = b"[Event \"x\"]\n\n1. e4 ".to_vec();
        bytes.extend(std::iter::repeat_n(0u8, 1000));
        std::fs::write(&bin, &bytes).unwrap();
        let good = dir.join("good.pgn");
        std::fs::write(&good, "[Event \"x\"]\n\n1. e4 *\n").unwrap();
        for from in [None, Some(Format::Pgn)] {
            let mut notes = Vec::new();
            let paths = [bin.clone(), good.clone()];
            let opened = open_inputs(&paths, from, None, (None, None), &mut |n| {
                notes.push(n.to_string())
            })
            .unwrap();
            assert!(opened.had_errors);
            assert_eq!(
                opened.files,
                std::slice::from_ref(&good),
                "the next input goes on"
            );
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert!(
                notes[0].ends_with(
                    "zeros.pgn:3:7: error: NUL byte (byte 19): binary data, not pgn text; not read (give --encoding to read it as text)"
                ),
                "{notes:?}"
            );
            let none = open_inputs(
                std::slice::from_ref(&bin),
                from,
                None,
                (None, None),
                &mut |_| {},
            );
            assert_eq!(
                none.err().as_deref(),
                Some("no input could be read (see above)")
            );
        }
        // A stray NUL byte in text is the readers' to report, in its game.
        let stray = dir.join("stray.pgn");
        std::fs::write(&stray, b"[Event \"x\"]\n\n1. e4\0 *\n").unwrap();
        let opened = open_inputs(
            std::slice::from_ref(&stray),
            None,
            None,
            (None, None),
            &mut |_| {},
        );
        assert!(!opened.unwrap().had_errors);
        // An encoding named by the user decides: the bytes are read as text.
        let enc = Some(TextEncoding::Decode(
            cescacs_batch::encoding_rs::WINDOWS_1252,
        ));
        let opened = open_inputs(
            std::slice::from_ref(&bin),
            None,
            enc,
            (None, None),
            &mut |_| {},
        );
        assert!(!opened.unwrap().had_errors);
        // UTF-16 (zero bytes in every other place) is text, not binary.
        let utf16: Vec<u8> = "[Event \"x\"]\n\n1. e4 *\n"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        std::fs::write(&bin, utf16).unwrap();
        let opened = open_inputs(
            std::slice::from_ref(&bin),
            None,
            None,
            (None, None),
            &mut |_| {},
        );
        assert!(!opened.unwrap().had_errors);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
