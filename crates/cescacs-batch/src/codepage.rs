//! The DOS code pages 437 and 850, which encoding_rs (the WHATWG Encoding Standard)
//! does not have: old PGN databases written under DOS (pgnmentor's files, ChessBase
//! exports of the 1990s) spell `André` as `Andr\x82`. Each byte below 0x80 is ASCII;
//! the tables give the characters of 0x80–0xFF, as the code pages define them (the
//! same as Python's `cp437`/`cp850` codecs, which `tests` below checks on a few
//! known characters).

use std::io::{self, Read};

/// A single-byte DOS code page.
#[derive(Debug, PartialEq, Eq)]
pub struct CodePage {
    /// Its name as `--encoding` takes it (`cp437`).
    pub name: &'static str,
    /// The characters of bytes 0x80–0xFF, sixteen a row.
    high: [&'static str; 8],
}

/// IBM PC code page 437 (US DOS).
pub static CP437: CodePage = CodePage {
    name: "cp437",
    high: [
        "ÇüéâäàåçêëèïîìÄÅ",
        "ÉæÆôöòûùÿÖÜ¢£¥₧ƒ",
        "áíóúñÑªº¿⌐¬½¼¡«»",
        "░▒▓│┤╡╢╖╕╣║╗╝╜╛┐",
        "└┴┬├─┼╞╟╚╔╩╦╠═╬╧",
        "╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀",
        "αßΓπΣσµτΦΘΩδ∞φε∩",
        "≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{a0}",
    ],
};

/// Code page 850 (DOS Latin-1, Western Europe).
pub static CP850: CodePage = CodePage {
    name: "cp850",
    high: [
        "ÇüéâäàåçêëèïîìÄÅ",
        "ÉæÆôöòûùÿÖÜø£Ø×ƒ",
        "áíóúñÑªº¿®¬½¼¡«»",
        "░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐",
        "└┴┬├─┼ãÃ╚╔╩╦╠═╬¤",
        "ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀",
        "ÓßÔÒõÕµþÞÚÛÙýÝ¯´",
        "\u{ad}±‗¾¶§÷¸°¨·¹³²■\u{a0}",
    ],
};

impl CodePage {
    /// The character of every byte value.
    fn table(&self) -> Vec<char> {
        let mut all: Vec<char> = (0u8..0x80).map(char::from).collect();
        all.extend(self.high.iter().flat_map(|row| row.chars()));
        all
    }

    /// `bytes` decoded to a string.
    pub fn decode(&self, bytes: &[u8]) -> String {
        let table = self.table();
        bytes.iter().map(|&b| table[usize::from(b)]).collect()
    }
}

/// Reads text in a code page as UTF-8.
pub(crate) struct CodePageReader<R> {
    inner: R,
    table: Vec<char>,
    input: Vec<u8>,
    output: Vec<u8>,
    out_start: usize,
}

impl<R: Read> CodePageReader<R> {
    pub(crate) fn new(inner: R, page: &CodePage) -> Self {
        CodePageReader {
            inner,
            table: page.table(),
            input: vec![0; 1 << 16],
            output: Vec::with_capacity(1 << 17),
            out_start: 0,
        }
    }
}

impl<R: Read> Read for CodePageReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_start == self.output.len() {
            let n = loop {
                match self.inner.read(&mut self.input) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    other => break other?,
                }
            };
            self.output.clear();
            self.out_start = 0;
            let mut utf8 = [0u8; 4];
            for &b in &self.input[..n] {
                if b < 0x80 {
                    self.output.push(b);
                } else {
                    let c = self.table[usize::from(b)];
                    self.output
                        .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                }
            }
        }
        let n = buf.len().min(self.output.len() - self.out_start);
        buf[..n].copy_from_slice(&self.output[self.out_start..self.out_start + n]);
        self.out_start += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_characters() {
        assert_eq!(CP437.decode(b"Andr\x82 \x81\xA4\xE1"), "André üñß");
        assert_eq!(CP850.decode(b"Andr\x82 \x9B\xB5\xD0"), "André øÁð");
        assert_eq!(CP437.table().len(), 256);
        assert_eq!(CP850.table().len(), 256);
        let mut out = String::new();
        CodePageReader::new(&b"[White \"Andr\x82\"]"[..], &CP850)
            .read_to_string(&mut out)
            .unwrap();
        assert_eq!(out, "[White \"André\"]");
    }
}
