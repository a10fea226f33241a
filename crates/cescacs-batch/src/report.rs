//! Diagnostics written as they are found: one line each, on standard error and in the
//! report file, so an interrupted run keeps everything it found and memory does not
//! grow with the number of bad games.

use crate::{Diagnostic, Summary};
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufWriter, Write};
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

/// The report of a whole run (`--report`), in JSON Lines: one object per diagnostic
/// as it is found, then one `{"summary": …}` object at the end. Every line is complete
/// JSON, so a report cut by SIGINT is still readable; a report without its summary
/// line is from a run that did not finish.
pub struct ReportWriter {
    out: BufWriter<File>,
    failed: Option<io::Error>,
}

#[derive(Serialize)]
struct SummaryLine<'a> {
    summary: &'a Summary,
}

impl ReportWriter {
    /// Creates (or truncates) the report file.
    pub fn create(path: &Path) -> io::Result<ReportWriter> {
        Ok(ReportWriter {
            out: BufWriter::new(File::create(path)?),
            failed: None,
        })
    }

    /// Appends one diagnostic line. Errors are kept for [`ReportWriter::finish`].
    pub fn write(&mut self, d: &Diagnostic) {
        if self.failed.is_some() {
            return;
        }
        let result = serde_json::to_writer(&mut self.out, d)
            .map_err(io::Error::other)
            .and_then(|()| self.out.write_all(b"\n"))
            // Whole lines reach the file as they are found (SIGINT loses none).
            .and_then(|()| self.out.flush());
        if let Err(e) = result {
            self.failed = Some(e);
        }
    }

    /// Appends the summary line and flushes; returns the first error met.
    pub fn finish(mut self, summary: &Summary) -> io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        serde_json::to_writer(&mut self.out, &SummaryLine { summary }).map_err(io::Error::other)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}
