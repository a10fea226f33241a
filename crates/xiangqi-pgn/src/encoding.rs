//! Text encoding detection: UTF-8 (with or without BOM), GB18030/GBK and Big5.

use encoding_rs::{BIG5, Encoding, GB18030};

/// The encodings found in real xiangqi files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    Utf8,
    Utf8Bom,
    /// GB18030, a superset of GBK and GB2312.
    Gb18030,
    Big5,
}

impl TextEncoding {
    /// A label for reports (`utf-8`, `utf-8-bom`, `gb18030`, `big5`).
    pub fn label(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            TextEncoding::Utf8Bom => "utf-8-bom",
            TextEncoding::Gb18030 => "gb18030",
            TextEncoding::Big5 => "big5",
        }
    }

    fn codec(self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 | TextEncoding::Utf8Bom => encoding_rs::UTF_8,
            TextEncoding::Gb18030 => GB18030,
            TextEncoding::Big5 => BIG5,
        }
    }
}

// Characters that appear in genuine xiangqi text; a wrong legacy decoding produces
// other CJK characters, so counting these tells GB18030 and Big5 apart.
const EXPECTED: &str = "车車俥马馬傌炮砲包兵卒进進退平前后後帅帥将將仕士相象一二三四五六七八九\
１２３４５６７８９红紅黑胜勝负負和";

fn score(text: &str) -> usize {
    text.chars().filter(|c| EXPECTED.contains(*c)).count()
}

/// Decodes a file's bytes. Valid UTF-8 wins; otherwise both legacy decodings are tried
/// and the one with more xiangqi characters is kept (GB18030 decodes Big5 bytes without
/// errors into nonsense, so "the first decoder that succeeds" is wrong).
pub fn decode(bytes: &[u8]) -> (String, TextEncoding) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return (
            String::from_utf8_lossy(rest).into_owned(),
            TextEncoding::Utf8Bom,
        );
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (s.to_string(), TextEncoding::Utf8);
    }
    let (gb, _, gb_err) = GB18030.decode(bytes);
    let (big5, _, big5_err) = BIG5.decode(bytes);
    let gb_score = score(&gb) as i64 - if gb_err { 1000 } else { 0 };
    let big5_score = score(&big5) as i64 - if big5_err { 1000 } else { 0 };
    if big5_score > gb_score {
        (big5.into_owned(), TextEncoding::Big5)
    } else {
        (gb.into_owned(), TextEncoding::Gb18030)
    }
}

/// Encodes text for writing; characters the encoding lacks become numeric references,
/// so nothing is dropped silently.
pub fn encode(text: &str, enc: TextEncoding) -> Vec<u8> {
    match enc {
        TextEncoding::Utf8 => text.as_bytes().to_vec(),
        TextEncoding::Utf8Bom => {
            let mut v = b"\xEF\xBB\xBF".to_vec();
            v.extend_from_slice(text.as_bytes());
            v
        }
        _ => enc.codec().encode(text).0.into_owned(),
    }
}
