//! Which game-record format a file holds: from `--from`/`--to`, else its extension,
//! else a look at its first bytes.

use clap::ValueEnum;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// C'escacs game files (CTL-PGN).
    #[value(name = "ctl-pgn")]
    CtlPgn,
    /// PCN JSON documents (one per file, or one per line in `.jsonl`).
    Pcn,
    /// Chinese chess PGN.
    #[value(name = "xiangqi-pgn")]
    XiangqiPgn,
    /// Chinese chess in the seed's XML form (output only).
    #[value(name = "xiangqi-xml")]
    XiangqiXml,
    /// Classic chess PGN.
    Pgn,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::CtlPgn => "ctl-pgn",
            Format::Pcn => "pcn",
            Format::XiangqiPgn => "xiangqi-pgn",
            Format::XiangqiXml => "xiangqi-xml",
            Format::Pgn => "pgn",
        }
    }
}

/// Files a directory walk picks up.
pub fn is_game_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    [".ctl-pgn", ".ctlpgn", ".pgn", ".json", ".jsonl", ".pcn"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Infers the format of an input from its name and its first bytes.
pub fn detect(path: &Path, head: &[u8]) -> Option<Format> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    if name.ends_with(".ctl-pgn") || name.ends_with(".ctlpgn") {
        return Some(Format::CtlPgn);
    }
    if name.ends_with(".json") || name.ends_with(".jsonl") || name.ends_with(".pcn") {
        return Some(Format::Pcn);
    }
    // A `.pgn` with nothing more telling is what the extension usually means: chess.
    sniff(head).or_else(|| name.ends_with(".pgn").then_some(Format::Pgn))
}

/// Guesses from content alone (standard input, unknown extensions, `.pgn` of any game).
pub fn sniff(head: &[u8]) -> Option<Format> {
    let text = String::from_utf8_lossy(head);
    let lower = text.to_ascii_lowercase();
    let trimmed = lower.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') && trimmed.contains("\"board\"") {
        return Some(Format::Pcn);
    }
    if lower.contains("[variant \"c'escacs")
        || lower.contains("[variant \"cescacs")
        || lower.contains("[tlpd ")
        || lower.contains("[pdtl ")
    {
        return Some(Format::CtlPgn);
    }
    if lower.contains("[game \"chinese chess\"]")
        || lower.contains("[variant \"xiangqi\"]")
        || lower.contains("[format \"iccs\"]")
        || lower.contains("[format \"wxf\"]")
        || lower.contains("[format \"chinese\"]")
        || lower.contains("[redteam ")
        || lower.contains("[red ")
    {
        return Some(Format::XiangqiPgn);
    }
    // Chinese-chess movetext in a non-UTF-8 encoding (GBK/Big5) decodes lossily into
    // replacement characters; classic PGN is ASCII or Latin-1 with far fewer high bytes.
    let high = head.iter().filter(|&&b| b >= 0x80).count();
    if head.len() > 64 && high * 4 > head.len() {
        return Some(Format::XiangqiPgn);
    }
    if lower.contains("[event ")
        || lower.contains("[white ")
        || lower.trim_start().starts_with("1.")
    {
        return Some(Format::Pgn);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_then_content() {
        assert_eq!(detect(Path::new("a.ctl-pgn"), b""), Some(Format::CtlPgn));
        assert_eq!(detect(Path::new("a.json"), b""), Some(Format::Pcn));
        assert_eq!(
            detect(Path::new("a.pgn"), b"[Game \"Chinese Chess\"]\n"),
            Some(Format::XiangqiPgn)
        );
        assert_eq!(
            detect(Path::new("a.pgn"), b"[Event \"x\"]\n[White \"y\"]\n"),
            Some(Format::Pgn)
        );
        assert_eq!(
            detect(Path::new("a.pgn"), b"[Variant \"C'escacs\"]\n"),
            Some(Format::CtlPgn)
        );
        assert_eq!(
            detect(Path::new("-"), b"  {\"board\": []}"),
            Some(Format::Pcn)
        );
        assert_eq!(detect(Path::new("a.txt"), b"hello"), None);
        assert_eq!(detect(Path::new("a.pgn"), b"hello"), Some(Format::Pgn));
    }
}
