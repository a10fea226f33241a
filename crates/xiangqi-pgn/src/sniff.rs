//! Is this xiangqi? Recognised from what xiangqi files say (tags, start positions and
//! move texts), never from the share of high bytes: a classic chess PGN with Cyrillic
//! or Chinese names is still chess.

use crate::encoding::{TextEncoding, decode_as, detect};
use crate::lexer::{Lexer, Mark, TokKind};
use crate::notation::{Notation, TokenKind, classify, fold_fullwidth};

/// Tokens looked at: the first games of a file are enough.
const MAX_TOKENS: usize = 4000;

/// Evidence found in the head of a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Points for xiangqi: tags (`Game "Chinese Chess"`, `Format`, `Red`, a 9×10 FEN)
    /// and moves only xiangqi writes (Chinese `炮二平五`, WXF `C2.5`, ICCS `h2e2` with
    /// file `i` or rank `0`/`9`).
    pub xiangqi: u32,
    /// Points for classic chess: an 8×8 FEN, `ECO`, SAN with a queen, castling or
    /// promotion.
    pub chess: u32,
}

impl Evidence {
    /// A confidence in 0..=100 that the text is xiangqi.
    pub fn confidence(&self) -> u8 {
        if self.xiangqi == 0 {
            return 0;
        }
        let total = (self.xiangqi + self.chess) as f64;
        let share = self.xiangqi as f64 / total;
        let strength = (self.xiangqi.min(10) as f64) / 10.0;
        (100.0 * share * strength).round() as u8
    }
}

/// Decodes a file's first bytes, tolerating a multi-byte character cut at the end.
fn decode_head(head: &[u8]) -> String {
    match std::str::from_utf8(head) {
        Ok(s) => s.to_string(),
        Err(e) if e.error_len().is_none() => {
            // Valid UTF-8 cut in the middle of a character.
            String::from_utf8_lossy(&head[..e.valid_up_to()]).into_owned()
        }
        Err(_) => {
            let d = detect(head);
            let enc = match d.encoding {
                TextEncoding::Utf8 | TextEncoding::Utf8Bom => TextEncoding::Utf8,
                e => e,
            };
            decode_as(head, enc)
        }
    }
}

/// A Chinese move text in the strict shape `炮二平五` / `马8进7` / `前车进一`.
fn is_chinese_move(t: &str) -> bool {
    let c: Vec<char> = fold_fullwidth(t)
        .trim_end_matches(['+', '#', '!', '?'])
        .chars()
        .collect();
    const PIECES: &str = "车車俥马馬傌炮砲包兵卒帅帥将將仕士相象";
    const NUMS: &str = "一二三四五六七八九123456789";
    const PLACES: &str = "前后後中一二三四五";
    c.len() == 4
        && "进進退平".contains(c[2])
        && NUMS.contains(c[3])
        && (PIECES.contains(c[0]) || PLACES.contains(c[0]))
        && (NUMS.contains(c[1]) || PIECES.contains(c[1]))
}

/// Collects the evidence of a file's head (its first few kilobytes are enough).
pub fn evidence(head: &[u8]) -> Evidence {
    let text = decode_head(head);
    let mut ev = Evidence::default();
    for t in Lexer::new(&text, Mark::origin(), text.len()).take(MAX_TOKENS) {
        match &t.kind {
            TokKind::Tag(name, value) => {
                let n = name.to_ascii_lowercase();
                let v = value.trim().to_ascii_lowercase();
                match n.as_str() {
                    "game" | "variant" if v.contains("chinese chess") || v.contains("xiangqi") => {
                        ev.xiangqi += 10
                    }
                    "game" | "variant" if v == "chess" || v == "standard" || v.contains("960") => {
                        ev.chess += 10
                    }
                    "format" if Notation::from_name(value).is_some() => ev.xiangqi += 5,
                    "red" | "redteam" | "redelo" | "redclock" => ev.xiangqi += 3,
                    "ecco" => ev.xiangqi += 3,
                    "eco" => ev.chess += 3,
                    "fen" => {
                        let board = value.split_whitespace().next().unwrap_or("");
                        match board.split('/').count() {
                            10 => ev.xiangqi += 10,
                            8 => ev.chess += 10,
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            TokKind::Move(w) if w.chars().count() <= crate::lexer::MAX_MOVE_CHARS => {
                if is_chinese_move(w) {
                    ev.xiangqi += 2;
                    continue;
                }
                let f = fold_fullwidth(w);
                match classify(&f) {
                    Some(TokenKind::Wxf) if f.chars().count() == 4 => ev.xiangqi += 2,
                    Some(TokenKind::Coordinates | TokenKind::CoordinatesRank10) => {
                        let l = f.to_ascii_lowercase();
                        // Chess coordinates stay within a-h and 1-8.
                        if l.contains(['i', '0', '9']) {
                            ev.xiangqi += 2;
                        }
                    }
                    _ => {
                        // R, N, B, K and pawn moves are written alike in both games'
                        // SAN; a queen, castling or a promotion is chess, a cannon,
                        // elephant, advisor or horse letter (WinBoard) is xiangqi.
                        let b = f.as_bytes();
                        let chess_san = f.starts_with("O-O")
                            || f.contains("=Q")
                            || (b.first() == Some(&b'Q') && b.len() >= 3);
                        let xq_san = b.len() >= 3
                            && b"CHEA".contains(&b[0])
                            && b[1..].iter().any(|c| (b'a'..=b'i').contains(c))
                            && b[b.len() - 1].is_ascii_digit();
                        if chess_san {
                            ev.chess += 1;
                        } else if xq_san {
                            ev.xiangqi += 1;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    ev
}

/// How sure the text is xiangqi, 0..=100 (see [`evidence`]).
pub fn xiangqi_confidence(head: &[u8]) -> u8 {
    evidence(head).confidence()
}

/// True when the head of a file reads as xiangqi PGN: enough xiangqi tags or moves, and
/// clearly more of them than classic chess evidence. Chinese, WXF and ICCS moves are
/// recognised in UTF-8, GBK/GB18030 and Big5; a classic PGN with Cyrillic or Chinese
/// names (in UTF-8 or a legacy encoding) is not xiangqi.
///
/// ```
/// use xiangqi_pgn::looks_like_xiangqi;
/// assert!(looks_like_xiangqi("1. 炮二平五 马8进7 2. 马二进三 *".as_bytes()));
/// assert!(looks_like_xiangqi(b"1. C2.5 H8+7 2. H2+3 *"));
/// assert!(!looks_like_xiangqi("[White \"Каспаров\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *".as_bytes()));
/// ```
pub fn looks_like_xiangqi(head: &[u8]) -> bool {
    let ev = evidence(head);
    ev.xiangqi >= 4 && ev.xiangqi > 2 * ev.chess
}
