//! Cutting one plain file into byte ranges that start and end at game boundaries, so
//! that several tasks (Spark executors) can read one large file.
//!
//! The rule is the line-record reader's: a task is given a byte range `[start, end)`;
//! it begins at the first *sync point* at or after `start` and reads every game that
//! begins before the sync point at or after `end` (so it finishes the game that crosses
//! `end`, and the next task begins exactly where it stopped). A sync point is found
//! without context: the first line that begins with `[` and follows a line that does not
//! (a tag line after movetext or a blank line). It is almost always a game boundary, but
//! not always (a `[` line inside a `{…}` comment spanning lines after a blank line). So a
//! first pass, [`scan`], runs the real [`cescacs_batch::GameSplitter`] from the range's
//! sync point and checks that the game after the last one of the range begins exactly at
//! the next sync point; when it does not, the driver merges the range with the next one,
//! so the cut is always the one the whole-file splitter makes. The same pass counts the
//! range's games and lines, which gives every game its number and line in its file.

use cescacs_batch::{Framing, GameSplitter};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// A readable, seekable byte stream the splitter may open several times: a local file,
/// or (from Python) an object-storage file opened through fsspec.
pub trait Source {
    /// A fresh reader at offset 0.
    fn open(&self) -> io::Result<Box<dyn ReadSeek>>;
    /// The length in bytes.
    fn size(&self) -> io::Result<u64>;
}

impl Source for std::path::PathBuf {
    fn open(&self) -> io::Result<Box<dyn ReadSeek>> {
        self.as_path().open()
    }
    fn size(&self) -> io::Result<u64> {
        self.as_path().size()
    }
}

/// What [`Source::open`] gives.
pub trait ReadSeek: Read + Seek + Send {}
impl<T: Read + Seek + Send> ReadSeek for T {}

impl Source for Path {
    fn open(&self) -> io::Result<Box<dyn ReadSeek>> {
        Ok(Box::new(File::open(self)?))
    }
    fn size(&self) -> io::Result<u64> {
        Ok(std::fs::metadata(self)?.len())
    }
}

/// Largest game the splitter keeps whole (the CLI's default limit).
pub fn max_game_bytes() -> usize {
    cescacs_batch::Options::default().max_game_bytes
}

/// The first sync point at or after `pos` (see the module documentation), or the file's
/// length when there is none.
pub fn sync_point(path: &(impl Source + ?Sized), pos: u64, framing: Framing) -> io::Result<u64> {
    sync_point_with(path, pos, framing, false)
}

/// The sync point of a range starting at `pos` with `partial_first_line` set: the line
/// holding `pos` is taken as partial even when it starts exactly at `pos`, so the
/// search reads nothing before `pos`. A compressed file cut at its frame starts needs
/// this: reading the byte at `pos - 1` would decode the whole previous frame.
fn sync_point_with(
    path: &(impl Source + ?Sized),
    pos: u64,
    framing: Framing,
    partial_first_line: bool,
) -> io::Result<u64> {
    let len = path.size()?;
    if pos == 0 {
        return Ok(0);
    }
    // JSON documents are not cut at byte offsets: one task reads the file.
    if pos >= len || matches!(framing, Framing::Whole | Framing::Json) {
        return Ok(len);
    }
    // Read from pos - 1 so that a line starting exactly at pos is seen as starting.
    let from = if partial_first_line { pos } else { pos - 1 };
    let mut file = path.open()?;
    file.seek(SeekFrom::Start(from))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut offset = from;
    let mut line = Vec::new();
    // Whether the previous complete line began with `[`; None until one was seen whole.
    let mut previous_tag: Option<bool> = None;
    let mut first = true;
    loop {
        line.clear();
        let n = read_line(&mut reader, &mut line)?;
        if n == 0 {
            return Ok(len);
        }
        let start = offset;
        offset += n as u64;
        if first {
            // The rest of the line holding byte pos - 1.
            first = false;
            continue;
        }
        let is_tag = trim_start(&line).first() == Some(&b'[');
        match framing {
            // Blank lines belong to no record.
            Framing::Lines if !trim_start(&line).is_empty() => return Ok(start),
            Framing::Lines => {}
            _ => {
                if is_tag && previous_tag == Some(false) {
                    return Ok(start);
                }
            }
        }
        previous_tag = Some(is_tag);
    }
}

/// Reads one line ending at LF, CR LF or a lone CR, terminator included.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<usize> {
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(line.len());
        }
        if line.last() == Some(&b'\r') {
            if available[0] == b'\n' {
                line.push(b'\n');
                reader.consume(1);
            }
            return Ok(line.len());
        }
        match memchr::memchr2(b'\n', b'\r', available) {
            Some(i) if available[i] == b'\n' => {
                line.extend_from_slice(&available[..=i]);
                reader.consume(i + 1);
                return Ok(line.len());
            }
            Some(i) => {
                line.extend_from_slice(&available[..=i]);
                reader.consume(i + 1);
            }
            None => {
                let n = available.len();
                line.extend_from_slice(available);
                reader.consume(n);
            }
        }
    }
}

fn trim_start(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t' | b'\r' | b'\n', rest @ ..] = s {
        s = rest;
    }
    s
}

/// What the first pass learns about one range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// Where the range's first game begins.
    pub begin: u64,
    /// Where the next range's first game begins (the file length for the last range).
    pub end: u64,
    /// Games beginning in `[begin, end)`.
    pub games: u64,
    /// Lines in `[begin, end)`.
    pub lines: u64,
    /// Whether `end` is a game boundary of the whole-file cut.
    pub end_is_boundary: bool,
}

/// The first pass over `[start, stop)` of a plain file (see the module documentation).
pub fn scan(
    path: &(impl Source + ?Sized),
    start: u64,
    stop: u64,
    framing: Framing,
) -> io::Result<Scan> {
    scan_with(path, start, stop, framing, false)
}

/// [`scan`] for ranges cut at frame starts of a compressed file: the sync points are
/// found as [`sync_point_with`] finds them with a partial first line, so every read
/// starts at a frame start (no frame is decoded only to be skipped). Both sides of a
/// cut use the same rule, so the ranges still tile the file.
pub fn scan_from_frame_starts(
    path: &(impl Source + ?Sized),
    start: u64,
    stop: u64,
    framing: Framing,
) -> io::Result<Scan> {
    scan_with(path, start, stop, framing, true)
}

fn scan_with(
    path: &(impl Source + ?Sized),
    start: u64,
    stop: u64,
    framing: Framing,
    partial_first_line: bool,
) -> io::Result<Scan> {
    let begin = sync_point_with(path, start, framing, partial_first_line)?;
    let end = sync_point_with(path, stop, framing, partial_first_line)?.max(begin);
    let len = path.size()?;
    let mut file = path.open()?;
    file.seek(SeekFrom::Start(begin))?;
    let reader = BufReader::with_capacity(1 << 16, file);
    let mut splitter = GameSplitter::new(reader, max_game_bytes()).framing(framing);
    let mut games = 0;
    let mut lines = None;
    let mut end_is_boundary = end >= len;
    while let Some(game) = splitter.next_game()? {
        let at = begin + game.offset;
        if at >= end {
            end_is_boundary = at == end;
            lines = Some(game.line - 1);
            break;
        }
        games += 1;
    }
    let lines = match lines {
        Some(l) => l,
        // The last range: its line count places nothing after it, and counting it
        // again would read (for a compressed file, decode) the whole range twice.
        None if end >= len => splitter.line() - 1,
        None => count_lines(path, begin, end)?,
    };
    Ok(Scan {
        begin,
        end,
        games,
        lines,
        end_is_boundary,
    })
}

/// Lines in `[begin, end)` (LF, CR LF and lone CR each end one).
pub fn count_lines(path: &(impl Source + ?Sized), begin: u64, end: u64) -> io::Result<u64> {
    let mut file = path.open()?;
    file.seek(SeekFrom::Start(begin))?;
    let mut reader = BufReader::with_capacity(1 << 16, file.take(end - begin));
    let mut line = Vec::new();
    let mut n = 0;
    loop {
        line.clear();
        if read_line(&mut reader, &mut line)? == 0 {
            return Ok(n);
        }
        n += 1;
    }
}

/// The bytes `[begin, end)` of a file, as a reader for the second pass.
pub fn open_range(path: &Path, begin: u64, end: u64) -> io::Result<impl Read + Send + 'static> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(begin))?;
    Ok(file.take(end.saturating_sub(begin)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp(name: &str, text: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("cescacs-py-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::File::create(&path)
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        path
    }

    fn whole(path: &Path) -> Vec<(u64, u64)> {
        let reader = BufReader::new(File::open(path).unwrap());
        GameSplitter::new(reader, 1 << 20)
            .map(|g| g.unwrap())
            .map(|g| (g.offset, g.line))
            .collect()
    }

    /// Every way of cutting the file into ranges gives the whole-file cut, once ranges
    /// whose end is not a boundary are merged with the next, as the driver does.
    fn check_every_cut(name: &str, text: &str) {
        check_every_cut_with(name, text, false);
        check_every_cut_with(name, text, true);
    }

    fn check_every_cut_with(name: &str, text: &str, partial_first_line: bool) {
        let path = temp(name, text);
        let expected = whole(&path);
        let len = text.len() as u64;
        for step in 1..=len {
            let mut starts: Vec<u64> = (0..len).step_by(step as usize).collect();
            let mut scans = Vec::new();
            let mut i = 0;
            while i < starts.len() {
                let stop = starts.get(i + 1).copied().unwrap_or(len);
                let s =
                    scan_with(&path, starts[i], stop, Framing::Pgn, partial_first_line).unwrap();
                if !s.end_is_boundary {
                    starts.remove(i + 1);
                    continue;
                }
                scans.push(s);
                i += 1;
            }
            let mut got = Vec::new();
            let mut line_base = 1;
            for s in &scans {
                let reader = BufReader::new(open_range(&path, s.begin, s.end).unwrap());
                let games: Vec<_> = GameSplitter::new(reader, 1 << 20)
                    .map(|g| g.unwrap())
                    .collect();
                assert_eq!(games.len() as u64, s.games, "step {step}");
                if s.end < len {
                    assert_eq!(s.lines, count_lines(&path, s.begin, s.end).unwrap());
                }
                got.extend(
                    games
                        .iter()
                        .map(|g| (s.begin + g.offset, line_base + g.line - 1)),
                );
                line_base += s.lines;
            }
            assert_eq!(got, expected, "step {step}");
        }
    }

    #[test]
    fn every_cut_gives_the_whole_file_cut() {
        check_every_cut(
            "plain.pgn",
            "[A \"1\"]\n[B \"2\"]\n\n1. e4 e5 *\n\n[A \"3\"]\n\n1. d4 *\n\n[A \"4\"]\r\n1. c4 *\r\n",
        );
    }

    #[test]
    fn a_tag_like_line_inside_a_comment_is_not_a_boundary() {
        check_every_cut(
            "comment.pgn",
            "[A \"1\"]\n\n1. e4 {see\n\n[A \"x\"] inside} e5 *\n\n[A \"2\"]\n1. d4 *\n",
        );
    }

    #[test]
    fn json_lines_cut_at_lines() {
        let text = "{\"a\":1}\n{\"a\":2}\n\n{\"a\":3}\n";
        let path = temp("cut.jsonl", text);
        let s = scan(&path, 3, 10, Framing::Lines).unwrap();
        assert_eq!(
            (s.begin, s.end, s.games, s.end_is_boundary),
            (8, 17, 1, true)
        );
    }
}
