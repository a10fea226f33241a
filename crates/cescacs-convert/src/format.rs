//! Which game-record format some bytes hold: from the file name, else from the first
//! bytes of the content.

use std::fmt;
use std::str::FromStr;

/// A game-record format the toolkit reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// C'escacs game files (CTL-PGN).
    CtlPgn,
    /// Classic chess PGN.
    Pgn,
    /// Chinese chess (xiangqi) PGN, in Chinese, WXF or ICCS move notation.
    XiangqiPgn,
    /// Chinese chess in the seed program's XML form (output only).
    XiangqiXml,
    /// PCN JSON documents (one per file, an array of them, or one per line in `.jsonl`).
    Pcn,
}

/// The game a format records: two formats convert into each other only when they
/// record the same game (PCN records any of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// C'escacs, the hexagonal chess of the CTL-PGN specification.
    Cescacs,
    /// Classic (orthodox or Chess960) chess.
    Chess,
    /// Xiangqi, Chinese chess.
    Xiangqi,
}

impl GameKind {
    /// The name used in messages: `C'escacs`, `chess`, `xiangqi`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Cescacs => "C'escacs",
            GameKind::Chess => "chess",
            GameKind::Xiangqi => "xiangqi",
        }
    }

    /// The native text format of this game.
    pub fn native_format(self) -> Format {
        match self {
            GameKind::Cescacs => Format::CtlPgn,
            GameKind::Chess => Format::Pgn,
            GameKind::Xiangqi => Format::XiangqiPgn,
        }
    }
}

impl Format {
    /// Every format, inputs first.
    pub const ALL: [Format; 5] = [
        Format::CtlPgn,
        Format::Pgn,
        Format::XiangqiPgn,
        Format::Pcn,
        Format::XiangqiXml,
    ];

    /// The name on the command line and in messages (`ctl-pgn`, `pgn`, `xiangqi-pgn`,
    /// `xiangqi-xml`, `pcn`); [`FromStr`] reads it back.
    pub fn name(self) -> &'static str {
        match self {
            Format::CtlPgn => "ctl-pgn",
            Format::Pgn => "pgn",
            Format::XiangqiPgn => "xiangqi-pgn",
            Format::XiangqiXml => "xiangqi-xml",
            Format::Pcn => "pcn",
        }
    }

    /// The file name extension written for this format (`ctl-pgn`, `pgn`, `pgn`,
    /// `xml`, `json`), e.g. for the files of a split output.
    pub fn extension(self) -> &'static str {
        match self {
            Format::CtlPgn => "ctl-pgn",
            Format::Pgn | Format::XiangqiPgn => "pgn",
            Format::XiangqiXml => "xml",
            Format::Pcn => "json",
        }
    }

    /// Whether the toolkit reads this format (every format but xiangqi XML).
    pub fn is_input(self) -> bool {
        self != Format::XiangqiXml
    }

    /// The game this format records; `None` for PCN, which records any of them.
    pub fn game(self) -> Option<GameKind> {
        match self {
            Format::CtlPgn => Some(GameKind::Cescacs),
            Format::Pgn => Some(GameKind::Chess),
            Format::XiangqiPgn | Format::XiangqiXml => Some(GameKind::Xiangqi),
            Format::Pcn => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A format name that is none of [`Format::name`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown format {0:?}: expected one of ctl-pgn, pgn, xiangqi-pgn, xiangqi-xml, pcn")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

fn lower_name(name: &str) -> String {
    // Only the last path component: a directory called `x.pgn` says nothing.
    name.rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Whether a directory walk should pick up a file of this name (the game-record
/// extensions: `.ctl-pgn`, `.ctlpgn`, `.pgn`, `.json`, `.jsonl`, `.pcn`).
pub fn is_game_file(name: &str) -> bool {
    let name = lower_name(name);
    [".ctl-pgn", ".ctlpgn", ".pgn", ".json", ".jsonl", ".pcn"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// Infers the format of an input from its file name and its first bytes (8 KiB are
/// plenty). A `.ctl-pgn` or JSON name is decisive; a `.pgn` is looked into, since
/// C'escacs and xiangqi records are often saved as `.pgn` too, and is classic chess
/// when nothing says otherwise. `None` when neither name nor content tells.
///
/// ```
/// use cescacs_convert::{detect, Format};
/// assert_eq!(detect("games.pgn", b"[Game \"Chinese Chess\"]\n"), Some(Format::XiangqiPgn));
/// assert_eq!(detect("games.pgn", b"[Event \"Open\"]\n"), Some(Format::Pgn));
/// assert_eq!(detect("-", b"{\"board\": []}"), Some(Format::Pcn));
/// ```
pub fn detect(name: &str, head: &[u8]) -> Option<Format> {
    let name = lower_name(name);
    if name.ends_with(".ctl-pgn") || name.ends_with(".ctlpgn") {
        return Some(Format::CtlPgn);
    }
    if name.ends_with(".json") || name.ends_with(".jsonl") || name.ends_with(".pcn") {
        return Some(Format::Pcn);
    }
    sniff(head).or_else(|| name.ends_with(".pgn").then_some(Format::Pgn))
}

/// Guesses the format from content alone (standard input, unknown extensions, a
/// `.pgn` of any game): the tags that only one format uses, then the share of
/// non-ASCII bytes (xiangqi movetext in GBK or Big5), then the tags every PGN has.
pub fn sniff(head: &[u8]) -> Option<Format> {
    // UTF-16 with its byte-order mark (the batch engine's inputs arrive decoded; a
    // caller with raw bytes may not).
    use cescacs_batch::encoding_rs;
    if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(head)
        && encoding != encoding_rs::UTF_8
    {
        let (text, _) = encoding.decode_without_bom_handling(&head[bom..]);
        return sniff(text.as_bytes());
    }
    // Every test below is on ASCII text, which decoding (lossy UTF-8) and ASCII
    // lowercasing keep in place: the raw bytes are searched, ignoring ASCII case,
    // without copying the head.
    // (`from_utf8` first: it checks ASCII a word at a time, `from_utf8_lossy` a byte.)
    let text = match std::str::from_utf8(head) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(head),
    };
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') && contains_ignore_case(trimmed.as_bytes(), b"\"board\"") {
        return Some(Format::Pcn);
    }
    let tags = tags_seen(head);
    let seen = |t: SniffTag| tags & (1 << t as u32) != 0;
    if seen(SniffTag::CescacsVariant)
        || seen(SniffTag::CescacsVariantPlain)
        || seen(SniffTag::Tlpd)
        || seen(SniffTag::Pdtl)
    {
        return Some(Format::CtlPgn);
    }
    if seen(SniffTag::ChineseChess)
        || seen(SniffTag::XiangqiVariant)
        || seen(SniffTag::FormatIccs)
        || seen(SniffTag::FormatWxf)
        || seen(SniffTag::FormatChinese)
        || seen(SniffTag::RedTeam)
        || seen(SniffTag::Red)
    {
        return Some(Format::XiangqiPgn);
    }
    // Xiangqi is told from its own tags and moves (Chinese in any encoding, WXF, ICCS),
    // never from the share of high bytes: a classic PGN with Cyrillic or Chinese names
    // has as many high bytes as a GBK xiangqi file.
    if xiangqi_pgn::looks_like_xiangqi(head) {
        return Some(Format::XiangqiPgn);
    }
    // PCN written as a JSON array (what `--to pcn` writes), e.g. on standard input.
    if let Some(rest) = trimmed.strip_prefix('[')
        && rest.trim_start().starts_with('{')
    {
        return Some(Format::Pcn);
    }
    // The first word is read lowercased, as it always was.
    let first = trimmed.split_ascii_whitespace().next().unwrap_or("");
    if seen(SniffTag::Event)
        || seen(SniffTag::White)
        || trimmed.starts_with("1.")
        || starts_with_san(&first.to_ascii_lowercase())
    {
        return Some(Format::Pgn);
    }
    None
}

/// The tag openings [`sniff`] looks for, each a bit of [`tags_seen`]'s answer.
#[derive(Debug, Clone, Copy)]
enum SniffTag {
    CescacsVariant,
    CescacsVariantPlain,
    Tlpd,
    Pdtl,
    ChineseChess,
    XiangqiVariant,
    FormatIccs,
    FormatWxf,
    FormatChinese,
    RedTeam,
    Red,
    Event,
    White,
}

/// The openings, lowercase, in [`SniffTag`] order.
const SNIFF_TAGS: [&[u8]; 13] = [
    b"[variant \"c'escacs",
    b"[variant \"cescacs",
    b"[tlpd ",
    b"[pdtl ",
    b"[game \"chinese chess\"]",
    b"[variant \"xiangqi\"]",
    b"[format \"iccs\"]",
    b"[format \"wxf\"]",
    b"[format \"chinese\"]",
    b"[redteam ",
    b"[red ",
    b"[event ",
    b"[white ",
];

/// Which of [`SNIFF_TAGS`] occur in `head`, ignoring ASCII case, as bits: one pass
/// over the `[` of the head.
fn tags_seen(head: &[u8]) -> u32 {
    let mut seen = 0;
    for at in memchr::memchr_iter(b'[', head) {
        let rest = &head[at..];
        // Every opening is `[` and a letter: the next byte rules most of them out.
        let Some(&next) = rest.get(1) else { continue };
        for (i, tag) in SNIFF_TAGS.iter().enumerate() {
            if next | 0x20 == tag[1]
                && rest.len() >= tag.len()
                && rest[..tag.len()].eq_ignore_ascii_case(tag)
            {
                seen |= 1 << i;
            }
        }
    }
    seen
}

/// Whether `hay` contains `needle` (lowercase ASCII), ignoring ASCII case.
fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, _)) = needle.split_first() else {
        return true;
    };
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), hay).any(|at| {
        hay.len() - at >= needle.len() && hay[at..at + needle.len()].eq_ignore_ascii_case(needle)
    })
}

/// A file name without its compression extension (`.gz`, `.bz2`, `.zst`, `.xz`, any
/// case): the name that format detection and framing look at (`games.pgn.zst` is PGN).
pub fn without_compression(name: &str) -> &str {
    for ext in [".gz", ".bz2", ".zst", ".xz"] {
        let n = name.len();
        if n > ext.len()
            && name.is_char_boundary(n - ext.len())
            && name[n - ext.len()..].eq_ignore_ascii_case(ext)
        {
            return &name[..n - ext.len()];
        }
    }
    name
}

/// Whether text starts with a classic-chess SAN move (`e4`, `Nf3`, `exd5`, `O-O`): a
/// database of bare movetext without tags or move numbers.
fn starts_with_san(text: &str) -> bool {
    let token = text.split_ascii_whitespace().next().unwrap_or("");
    if token.starts_with("O-O") {
        return true;
    }
    let b = token.as_bytes();
    let body = match b.first() {
        Some(b'K' | b'Q' | b'R' | b'B' | b'N') => &b[1..],
        _ => b,
    };
    let body: Vec<u8> = body.iter().copied().filter(|&c| c != b'x').collect();
    // The destination square: a file letter and a rank digit, after at most a
    // disambiguating file or rank.
    body.windows(2)
        .take(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
        && body
            .first()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`sniff`] as first written (the whole head decoded and lowercased, searched
    /// once per tag): the new one must answer alike on every input.
    fn sniff_reference(head: &[u8]) -> Option<Format> {
        use cescacs_batch::encoding_rs;
        if let Some((encoding, bom)) = encoding_rs::Encoding::for_bom(head)
            && encoding != encoding_rs::UTF_8
        {
            let (text, _) = encoding.decode_without_bom_handling(&head[bom..]);
            return sniff_reference(text.as_bytes());
        }
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
        if xiangqi_pgn::looks_like_xiangqi(head) {
            return Some(Format::XiangqiPgn);
        }
        if let Some(rest) = trimmed.strip_prefix('[')
            && rest.trim_start().starts_with('{')
        {
            return Some(Format::Pcn);
        }
        if lower.contains("[event ")
            || lower.contains("[white ")
            || trimmed.starts_with("1.")
            || starts_with_san(trimmed)
        {
            return Some(Format::Pgn);
        }
        None
    }

    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn sniff_agrees_with_the_reference() {
        let mut all = Vec::new();
        files(&test_support::testdata(), &mut all);
        files(&test_support::shared_dir(), &mut all);
        all.sort();
        let mut rng = test_support::Rng::new(0x5111_ff00);
        let mut kinds = std::collections::HashSet::new();
        for p in &all {
            let bytes = std::fs::read(p).unwrap();
            let head = &bytes[..bytes.len().min(64 << 10)];
            let want = sniff_reference(head);
            assert_eq!(sniff(head), want, "{}", p.display());
            kinds.insert(want);
            for _ in 0..3 {
                let from = rng.below(head.len().min(512) + 1);
                let to = from + rng.below(head.len() - from + 1);
                let cut = &head[from..to];
                assert_eq!(
                    sniff(cut),
                    sniff_reference(cut),
                    "{} [{from}..{to}]",
                    p.display()
                );
            }
        }
        assert!(kinds.len() >= 4, "{kinds:?}");
        const PIECES: &[&str] = &[
            "[",
            "{",
            " ",
            "\n",
            "\u{feff}",
            "\u{a0}",
            "\"board\"",
            "\"BOARD\"",
            "[Variant \"",
            "C'escacs",
            "cescacs",
            "[TLPD ",
            "[pdtl ",
            "[Game \"Chinese Chess\"]",
            "xiangqi\"]",
            "[Format \"",
            "ICCS\"]",
            "wxf\"]",
            "Chinese\"]",
            "[RedTeam ",
            "[RED ",
            "[Event ",
            "[WHITE ",
            "1.",
            "e4",
            "Nf3",
            "O-O",
            "炮二平五",
            "é",
            "\u{130}",
            "\u{212a}",
        ];
        for case in 0..test_support::proptest_cases() * 16 {
            let mut s = String::new();
            for _ in 0..rng.below(12) {
                s.push_str(rng.pick_cloned(PIECES));
            }
            let mut b = s.into_bytes();
            if rng.chance(30) {
                let at = rng.below(b.len() + 1);
                b.insert(at, 0x80 + rng.below(0x80) as u8);
            }
            assert_eq!(
                sniff(&b),
                sniff_reference(&b),
                "case {case}: {:?}",
                String::from_utf8_lossy(&b)
            );
        }
    }

    #[test]
    fn extensions_then_content() {
        assert_eq!(detect("a.ctl-pgn", b""), Some(Format::CtlPgn));
        assert_eq!(detect("dir/A.JSON", b""), Some(Format::Pcn));
        assert_eq!(
            detect("a.pgn", b"[Game \"Chinese Chess\"]\n"),
            Some(Format::XiangqiPgn)
        );
        assert_eq!(
            detect("a.pgn", b"[Event \"x\"]\n[White \"y\"]\n"),
            Some(Format::Pgn)
        );
        assert_eq!(
            detect("a.pgn", b"[Variant \"C'escacs\"]\n"),
            Some(Format::CtlPgn)
        );
        assert_eq!(detect("-", b"  {\"board\": []}"), Some(Format::Pcn));
        assert_eq!(detect("a.txt", b"hello"), None);
        assert_eq!(detect("a.pgn", b"hello"), Some(Format::Pgn));
        assert_eq!(detect("x.pgn/a.txt", b"hello"), None);
    }

    #[test]
    fn classic_pgn_with_cyrillic_is_chess_not_xiangqi() {
        let utf8 = "[Event \"Чемпионат\"]\n[White \"Каспаров, Гарри\"]\n[Black \"Карпов, Анатолий\"]\n\n1. e4 e5 {Открытая игра, комментарий по-русски} 2. Nf3 Nc6 *\n";
        assert_eq!(sniff(utf8.as_bytes()), Some(Format::Pgn));
        // The same in CP1251: every Cyrillic letter one high byte.
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(utf8);
        assert!(cp1251.iter().filter(|&&b| b >= 0x80).count() * 4 > cp1251.len() / 2);
        assert_eq!(sniff(&cp1251), Some(Format::Pgn));
        assert_eq!(detect("-", cp1251.as_ref()), Some(Format::Pgn));
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_sniffed_as_its_text() {
        let text = "[Event \"x\"]\n[White \"Müller\"]\n\n1. e4 e5 *\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(sniff(&le), Some(Format::Pgn));
        assert_eq!(detect("a.pgn", &be), Some(Format::Pgn));
        let xq: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(
                "[Game \"Chinese Chess\"]\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        assert_eq!(detect("a.pgn", &xq), Some(Format::XiangqiPgn));
    }

    #[test]
    fn compression_extensions_are_not_part_of_the_format_name() {
        assert_eq!(without_compression("a.pgn.zst"), "a.pgn");
        assert_eq!(without_compression("A.PGN.GZ"), "A.PGN");
        assert_eq!(without_compression("a.ctl-pgn.bz2"), "a.ctl-pgn");
        assert_eq!(without_compression("a.jsonl.xz"), "a.jsonl");
        assert_eq!(without_compression(".gz"), ".gz");
        assert_eq!(without_compression("a.pgn"), "a.pgn");
    }

    #[test]
    fn bare_movetext_and_pcn_arrays_are_recognised() {
        assert_eq!(sniff(b"e4 e5 *\nd4 d5 *\n"), Some(Format::Pgn));
        assert_eq!(sniff(b"Nf3 d5 g3 *\n"), Some(Format::Pgn));
        assert_eq!(sniff(b"[\n{\"board\": []}\n]"), Some(Format::Pcn));
        assert_eq!(
            sniff("1. 炮二平五 马8进7 *".as_bytes()),
            Some(Format::XiangqiPgn)
        );
        assert_eq!(sniff(b"hello world"), None);
        assert_eq!(sniff(b"a"), None);
    }

    #[test]
    fn names_round_trip() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("chess".parse::<Format>().is_err());
        assert!(!Format::XiangqiXml.is_input());
    }

    #[test]
    fn game_files() {
        assert!(is_game_file("a/b.PGN"));
        assert!(is_game_file("b.jsonl"));
        assert!(!is_game_file("b.txt"));
    }
}
