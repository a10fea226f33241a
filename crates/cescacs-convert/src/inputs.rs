//! A command's inputs: the paths walked, each file opened once (its head read), its
//! format chosen, and the files grouped by format, so that one [`crate::Converter`]
//! serves each group.

use crate::Format;
use cescacs_batch::{Diagnostic, FileNote, Input, Severity, TextEncoding, WalkNote};
use std::path::{Path, PathBuf};

/// The opened inputs of a run, grouped by format (in order of first appearance).
pub struct Inputs {
    /// Each format met, with its inputs in walk order.
    pub groups: Vec<(Format, Vec<Input>)>,
    /// The files named on the command line that are read, for refusing an output that
    /// is also an input (files found in a walked directory are not listed: the walk
    /// already leaves the output and the report out, and a list of every file would
    /// grow with their number).
    pub files: Vec<PathBuf>,
    /// An input could not be read or identified (reported; the rest still opened).
    pub had_errors: bool,
}

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

fn single_byte_guess(input: &Input, format: Format, path: &Path) -> Guess {
    // Classic PGN reads such bytes as Windows-1252, xiangqi PGN as GBK or Big5; CTL-PGN
    // and PCN are UTF-8 only and say so in each game.
    let guess = match format {
        Format::Pgn => cescacs_batch::Guess::Windows1252,
        Format::XiangqiPgn => cescacs_batch::Guess::GbkOrBig5,
        _ => return Guess::None,
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
    let before = &head[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col = 1 + String::from_utf8_lossy(&before[start..]).chars().count();
    let message = cescacs_batch::not_utf8_message(at as u64, head[at], guess.name());
    Guess::Now(problem(
        Severity::Warning,
        path,
        (line as u64, col as u64),
        message,
    ))
}

/// Walks `paths` (directories: the game files below them, compressed or not), opens
/// each file once, chooses its format (`from`, or [`crate::detect`] on its name and
/// head) and groups the files by format. `exclude` holds the run's output and report,
/// which are never inputs; `encoding` forces how PGN-like text is cut.
///
/// Every problem met is handed to `note` in order (a [`FileNote::Problem`] for what
/// belongs in the report: unreadable, binary, empty, format unknown); the files that
/// can be read are still grouped. Each regular file is closed again once its format
/// is known ([`Input::defer`]) and opened when the run reaches it: one file open at a
/// time, whatever the number of files. The error is the reason the
/// command cannot run at all (an output-only format given as input, no input left, an
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
    let keep =
        |p: &Path| crate::is_game_file(&detection_name(p)) || detection_name(p).ends_with(".zip");
    let walk = cescacs_batch::walk(paths, &keep, exclude);
    let mut g = Grouping {
        from,
        encoding,
        named: paths.iter().map(PathBuf::as_path).collect(),
        capacity: walk.files.len(),
        note,
        groups: Vec::new(),
        files: Vec::new(),
        empty: 0,
        had_errors: false,
    };
    for n in &walk.notes {
        g.had_errors |= n.is_error();
        (g.note)(&FileNote::from(n));
    }
    // Each file, or each member of a zip archive, taken in walk order as it comes: no
    // second list of every path is built beside the inputs.
    for path in walk.files {
        if path.as_os_str() == "-" || !cescacs_batch::is_zip(&path) {
            g.take(path, None)?;
            continue;
        }
        match cescacs_batch::zip_members(&path) {
            Ok(members) => {
                if g.named.contains(path.as_path()) && !g.files.contains(&path) {
                    g.files.push(path.clone());
                }
                for m in members {
                    let shown = PathBuf::from(cescacs_batch::member_name(&path, &m.name));
                    if crate::is_game_file(&detection_name(&shown)) {
                        g.take(shown, Some((&path, m)))?;
                    } else {
                        (g.note)(&FileNote::Info(format!(
                            "{}: note: not a game file; left out",
                            shown.display()
                        )));
                    }
                }
            }
            Err(e) => {
                (g.note)(&FileNote::from(&WalkNote::Unreadable(path, e.to_string())));
                g.had_errors = true;
            }
        }
    }
    let Grouping {
        mut groups,
        files,
        empty,
        had_errors,
        ..
    } = g;
    // The first group's room was every file found; others may hold some of them.
    groups.iter_mut().for_each(|(_, list)| list.shrink_to_fit());
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
        groups,
        files,
        had_errors,
    })
}

/// The inputs grouped so far, and what is needed to take the next one.
struct Grouping<'a, 'n> {
    from: Option<Format>,
    encoding: Option<TextEncoding>,
    /// The paths named on the command line.
    named: std::collections::HashSet<&'a Path>,
    /// How many files the walk found: the first group's room, so a run over 100,000
    /// files does not hold a list and its doubled copy at once while it grows.
    capacity: usize,
    note: &'n mut dyn FnMut(&FileNote),
    groups: Vec<(Format, Vec<Input>)>,
    files: Vec<PathBuf>,
    empty: usize,
    had_errors: bool,
}

impl Grouping<'_, '_> {
    /// Opens one file (or zip member), reads its head, chooses its format and groups
    /// it, closed again ([`Input::defer`]); a problem is noted and the input left out.
    /// The error is the reason the command cannot run at all.
    fn take(
        &mut self,
        path: PathBuf,
        member: Option<(&Path, cescacs_batch::ZipMember)>,
    ) -> Result<(), String> {
        let opened = match &member {
            Some((archive, m)) => Input::open_zip_member(archive, m),
            None => Input::open(&path),
        };
        let input = match opened {
            Ok(i) => i,
            Err(e) => {
                (self.note)(&FileNote::from(&WalkNote::Unreadable(path, e.to_string())));
                self.had_errors = true;
                return Ok(());
            }
        };
        if input.head().is_empty() {
            // Nothing to read: said, so that a file cut to nothing is not taken for
            // a database with no games in it.
            let message = "empty input: no games".to_string();
            (self.note)(&problem(Severity::Warning, &path, (0, 0), message));
            self.empty += 1;
            return Ok(());
        }
        let name = detection_name(&path);
        let Some(format) = self.from.or_else(|| crate::detect(&name, input.head())) else {
            let message = "cannot tell the game format: give --from".to_string();
            (self.note)(&problem(Severity::Error, &path, (0, 0), message));
            self.had_errors = true;
            return Ok(());
        };
        if !format.is_input() {
            let name = format.name();
            return Err(format!(
                "{}: {name} is an output format only",
                path.display()
            ));
        }
        let named = self.named.contains(path.as_path());
        if format == Format::Pcn && self.from.is_none() && !named && !looks_like_pcn(input.head()) {
            // A manifest or a summary next to the games is not a bad game.
            (self.note)(&FileNote::Info(format!(
                "{}: note: JSON but not PCN (no \"starting_position\"); left out of the walk",
                path.display()
            )));
            return Ok(());
        }
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
        if let Some(at) = input.binary_at() {
            // Docs: io.md "Binary input". `--from` names a format, not bytes.
            let before = &input.head()[..at];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let col = 1 + String::from_utf8_lossy(&before[start..]).chars().count();
            let message = format!(
                "NUL byte (byte {at}): binary data, not {} text; not read (give --encoding to read it as text)",
                format.name()
            );
            (self.note)(&problem(
                Severity::Error,
                &path,
                (line as u64, col as u64),
                message,
            ));
            self.had_errors = true;
            return Ok(());
        }
        // Only a named file can be the output too (the walk leaves the output and the
        // report out of directories): walked files are not listed.
        if member.is_none() && named {
            self.files.push(path);
        }
        let input = input.defer();
        match self.groups.iter_mut().find(|(g, _)| *g == format) {
            Some((_, list)) => list.push(input),
            None => {
                let room = if self.groups.is_empty() {
                    self.capacity
                } else {
                    0
                };
                let mut list = Vec::with_capacity(room);
                list.push(input);
                self.groups.push((format, list));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
