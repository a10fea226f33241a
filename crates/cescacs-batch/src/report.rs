//! Diagnostics written as they are found: one line each, on standard error and in the
//! report file, so an interrupted run keeps everything it found and memory does not
//! grow with the number of bad games.

use crate::{Diagnostic, OutputFile, Summary};
use std::io::{self, Write};
use std::path::Path;

/// Prints one diagnostic on standard error as one write of one whole line, so an
/// interrupted or killed run never leaves half a line. A failing standard error
/// (`2>/dev/full`) is ignored: the exit status still tells.
pub fn print_diagnostic(d: &Diagnostic) {
    print_line(&d.to_string());
}

/// Prints a line on standard error with one write; errors are ignored.
pub fn print_line(text: &str) {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

/// The report of a whole run (`--report`), written as diagnostics are found, one per
/// line, so its memory does not grow and an interrupted run keeps what it found.
///
/// Two shapes, by the file name: `*.jsonl` gives JSON Lines (one object per
/// diagnostic, then one `{"summary": …}` line; every line is complete JSON, and a
/// report without its summary line is from a run that did not finish); any other name
/// gives one JSON document `{"diagnostics": [ … ], "files": …, "games": …, …}` whose
/// closing part is written by [`ReportWriter::finish`], also after SIGINT (then with
/// `"interrupted": true`).
///
/// The report is an [`OutputFile`]: written beside its name and renamed over it by
/// [`ReportWriter::finish`], so an old report is never truncated in place and a report
/// that could not be finished (a full disk) leaves the old one as it was.
pub struct ReportWriter {
    out: OutputFile,
    lines: bool,
    count: u64,
    failed: Option<io::Error>,
    /// The command (`check`, `convert`, `select`…) and the name its good games go by.
    command: Option<(String, &'static str)>,
    /// Counts only the command knows (`games_selected`…).
    fields: Vec<(String, u64)>,
}

impl ReportWriter {
    /// Creates the report's temporary file beside `path`; `path` itself is replaced by
    /// [`ReportWriter::finish`].
    pub fn create(path: &Path) -> io::Result<ReportWriter> {
        let lines = path
            .to_str()
            .is_some_and(|p| p.to_ascii_lowercase().ends_with(".jsonl"));
        let mut out = OutputFile::create(path)?;
        if !lines {
            out.write_all(b"{\"diagnostics\": [")?;
        }
        Ok(ReportWriter {
            out,
            lines,
            count: 0,
            failed: None,
            command: None,
            fields: Vec::new(),
        })
    }

    /// Appends one diagnostic. Errors are kept for [`ReportWriter::finish`].
    pub fn write(&mut self, d: &Diagnostic) {
        if self.failed.is_some() {
            return;
        }
        let lead: &[u8] = match (self.lines, self.count) {
            (true, _) => b"",
            (false, 0) => b"\n  ",
            (false, _) => b",\n  ",
        };
        self.count += 1;
        let result = self
            .out
            .write_all(lead)
            .and_then(|()| serde_json::to_writer(&mut self.out, d).map_err(io::Error::other))
            .and_then(|()| {
                if self.lines {
                    self.out.write_all(b"\n")
                } else {
                    Ok(())
                }
            })
            // Whole lines reach the file as they are found.
            .and_then(|()| self.out.flush());
        if let Err(e) = result {
            self.failed = Some(e);
        }
    }

    /// Names the command in the report (`"command": "check"`) and the count of games
    /// read without error after it (`games_valid` for `check`, `games_converted` for
    /// `convert`): [`Summary::games_converted`] is written under that name.
    pub fn command(&mut self, command: &str, good_games: &'static str) {
        self.command = Some((command.to_string(), good_games));
    }

    /// Adds a count to the summary (`games_selected`, `duplicates_dropped`).
    pub fn field(&mut self, key: &str, value: u64) {
        self.fields.push((key.to_string(), value));
    }

    /// The summary as written: the command's names and fields applied.
    fn summary_fields(
        &self,
        summary: &Summary,
    ) -> io::Result<serde_json::Map<String, serde_json::Value>> {
        let serde_json::Value::Object(mut fields) =
            serde_json::to_value(summary).map_err(io::Error::other)?
        else {
            unreachable!("a summary serialises to an object")
        };
        fields.remove("diagnostics");
        let mut out = serde_json::Map::new();
        if let Some((command, _)) = &self.command {
            out.insert("command".into(), command.clone().into());
        }
        let good = self.command.as_ref().map_or("games_converted", |c| c.1);
        for (key, value) in fields {
            let key = if key == "games_converted" {
                good.to_string()
            } else {
                key
            };
            out.insert(key, value);
        }
        for (key, value) in &self.fields {
            out.insert(key.clone(), (*value).into());
        }
        Ok(out)
    }

    /// What was found beside the report ([`OutputFile::notes`]).
    pub fn notes(&self) -> &[String] {
        self.out.notes()
    }

    /// Appends the summary and renames the report into place; returns the first error
    /// met (then the old report, if any, is left as it was).
    pub fn finish(mut self, summary: &Summary) -> io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let fields = self.summary_fields(summary)?;
        if self.lines {
            let line = serde_json::json!({ "summary": fields });
            serde_json::to_writer(&mut self.out, &line).map_err(io::Error::other)?;
            self.out.write_all(b"\n")?;
        } else {
            self.out.write_all(b"\n]")?;
            for (key, value) in fields {
                write!(self.out, ",\n\"{key}\": {value}")?;
            }
            self.out.write_all(b"\n}\n")?;
        }
        self.out.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    #[test]
    fn both_report_shapes_are_valid_json() {
        let dir = std::env::temp_dir();
        let d = Diagnostic {
            severity: Severity::Error,
            file: "a.pgn".into(),
            game: 2,
            line: 9,
            column: 4,
            byte_offset: 10,
            game_offset: 10,
            message: "bad \"move\"".into(),
        };
        let summary = Summary {
            games: 2,
            games_bad: 1,
            ..Summary::default()
        };
        for (name, n) in [("r.json", 0), ("r2.json", 2), ("r.jsonl", 2)] {
            let path = dir.join(format!("cescacs-report-{}-{name}", std::process::id()));
            let mut r = ReportWriter::create(&path).unwrap();
            for _ in 0..n {
                r.write(&d);
            }
            r.finish(&summary).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            if name.ends_with(".jsonl") {
                let lines: Vec<serde_json::Value> = text
                    .lines()
                    .map(|l| serde_json::from_str(l).unwrap())
                    .collect();
                assert_eq!(lines.len(), 3);
                assert_eq!(lines[2]["summary"]["games_bad"], 1);
            } else {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                assert_eq!(v["diagnostics"].as_array().unwrap().len(), n);
                assert_eq!(v["games_bad"], 1);
            }
            std::fs::remove_file(&path).unwrap();
        }
    }
}
