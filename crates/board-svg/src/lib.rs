//! SVG pictures of C'escacs, xiangqi and classic chess positions: the 169-hex board in
//! its three colours, the 9x10 xiangqi board and the 8x8 chess board, all in one look
//! (men as lettered discs, the last move as an arrow, an optional caption).
//!
//! The pictures take plain data (which man stands where) rather than a rules crate's
//! position type, so the rules crates stay free of drawing code and this crate free of
//! rules.
//!
//! ```
//! use board_svg::{cescacs_svg, HexMan, Side};
//! use cescacs_hex::Cell;
//!
//! let men = [
//!     HexMan { cell: "G1".parse().unwrap(), letter: 'K', side: Side::White },
//!     HexMan { cell: "G27".parse().unwrap(), letter: 'K', side: Side::Black },
//! ];
//! let last = Some(("G3".parse::<Cell>().unwrap(), "G1".parse::<Cell>().unwrap()));
//! let svg = cescacs_svg(&men, last, Some("after 1. KG3-G1"));
//! assert!(svg.starts_with("<svg") && svg.matches("<title>").count() == 169);
//! ```

#![warn(missing_docs)]

/// The README's examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

use cescacs_hex::{Cell, HexColour};
use std::fmt::Write;

/// The side a man belongs to (Red is drawn as White's counterpart in xiangqi).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// White (Red in xiangqi).
    White,
    /// Black.
    Black,
}

/// A man on the hex board, named by its CTL letter (`K D V R G N J E P`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HexMan {
    /// The cell it stands on.
    pub cell: Cell,
    /// Its CTL letter.
    pub letter: char,
    /// Whose man it is.
    pub side: Side,
}

/// Circumradius of one hex, in SVG user units.
const R: f64 = 22.0;
const MARGIN: f64 = 36.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;

/// The hex centre. Hexes are flat-topped: a column is a vertical stack (two lines per
/// hex height), neighbouring columns are offset by half a hex, and White sits at the
/// bottom as in the diagrams of the rules.
fn centre(cell: Cell) -> (f64, f64) {
    let x = MARGIN + R + f64::from(cell.column()) * 1.5 * R;
    let y = MARGIN + SQRT3 * R / 2.0 + f64::from(28 - cell.line()) * SQRT3 * R / 2.0;
    (x, y)
}

fn hex_points(cx: f64, cy: f64, r: f64) -> String {
    let mut s = String::new();
    for k in 0..6 {
        let angle = std::f64::consts::PI / 3.0 * f64::from(k);
        let _ = write!(
            s,
            "{:.1},{:.1} ",
            cx + r * angle.cos(),
            cy + r * angle.sin()
        );
    }
    s.pop();
    s
}

/// Text as XML character data: markup characters escaped, and the characters XML 1.0
/// forbids (C0 controls other than tab and line breaks, lone surrogates cannot occur in
/// a `str`, U+FFFE/U+FFFF) replaced by U+FFFD, so no caption can make ill-formed SVG.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// Draws a C'escacs position: 169 hexes coloured by line (White, Black and "Color"),
/// column letters and line numbers, the men as lettered discs, the last move as an
/// arrow between highlighted cells, and an optional caption.
pub fn cescacs_svg(
    men: &[HexMan],
    last_move: Option<(Cell, Cell)>,
    caption: Option<&str>,
) -> String {
    let width = 2.0 * MARGIN + 2.0 * R + 14.0 * 1.5 * R;
    let board_h = 2.0 * MARGIN + SQRT3 * R + 28.0 * SQRT3 * R / 2.0;
    let height = board_h + caption.map_or(0.0, caption_height);
    let mut s = String::with_capacity(64 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fbfaf7"/>"##);
    for cell in Cell::all() {
        let (cx, cy) = centre(cell);
        let fill = match cell.colour() {
            HexColour::White => "#f3ead7",
            HexColour::Black => "#9c7a57",
            HexColour::Color => "#d2b48c",
        };
        let highlighted = last_move.is_some_and(|(from, to)| cell == from || cell == to);
        let stroke = if highlighted {
            r##"stroke="#2a7de1" stroke-width="3""##
        } else {
            r##"stroke="#5b4632" stroke-width="1""##
        };
        let _ = writeln!(
            s,
            r#"<polygon points="{}" fill="{fill}" {stroke}><title>{cell}</title></polygon>"#,
            hex_points(cx, cy, R - 0.5)
        );
    }
    // Column letters under the lowest and above the highest hex of each column; line
    // numbers beside the leftmost and rightmost hex of each line.
    for column in 0..15u8 {
        let cells: Vec<Cell> = Cell::all().filter(|c| c.column() == column).collect();
        if let (Some(low), Some(high)) = (
            cells.iter().min_by_key(|c| c.line()),
            cells.iter().max_by_key(|c| c.line()),
        ) {
            let (x, y) = centre(*low);
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">{}</text>"##,
                y + R + 6.0,
                low.column_letter()
            );
            let (x, y) = centre(*high);
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">{}</text>"##,
                y - R - 1.0,
                high.column_letter()
            );
        }
    }
    // Line numbers sit at the board's outer edges (not beside each line's end cell),
    // so they never collide with the column letters of the staircase edges.
    let (left_x, right_x) = (MARGIN - 4.0, width - MARGIN + 4.0);
    for line in 0..=28u8 {
        let y = MARGIN + SQRT3 * R / 2.0 + f64::from(28 - line) * SQRT3 * R / 2.0 + 3.5;
        let _ = writeln!(
            s,
            r##"<text x="{left_x:.1}" y="{y:.1}" font-size="10" text-anchor="end" fill="#555">{line}</text>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="{right_x:.1}" y="{y:.1}" font-size="10" text-anchor="start" fill="#555">{line}</text>"##
        );
    }
    for man in men {
        let (cx, cy) = centre(man.cell);
        let (disc, ink) = match man.side {
            Side::White => ("#ffffff", "#111111"),
            Side::Black => ("#1d1d1d", "#ffffff"),
        };
        let _ = writeln!(
            s,
            r##"<g><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{disc}" stroke="#111" stroke-width="1.5"/><text x="{cx:.1}" y="{:.1}" font-size="15" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text></g>"##,
            R * 0.62,
            cy + 5.5,
            escape(&man.letter.to_string())
        );
    }
    if let Some((from, to)) = last_move {
        arrow(&mut s, centre(from), centre(to));
    }
    if let Some(text) = caption {
        draw_caption(&mut s, text, width / 2.0, board_h);
    }
    s.push_str("</svg>\n");
    s
}

const CAPTION_CHARS: usize = 72;
const CAPTION_LINE: f64 = 14.0;

fn caption_height(text: &str) -> f64 {
    CAPTION_LINE * wrap(text, CAPTION_CHARS).len() as f64 + 8.0
}

/// A caption (usually a TLPD or FEN) under the board, in monospace, wrapped so that a
/// long position string stays inside the picture.
fn draw_caption(s: &mut String, text: &str, x: f64, top: f64) {
    for (i, part) in wrap(text, CAPTION_CHARS).iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="11" font-family="DejaVu Sans Mono, monospace" text-anchor="middle" fill="#222">{}</text>"##,
            top + 4.0 + CAPTION_LINE * i as f64,
            escape(part)
        );
    }
}

/// Splits a long caption into lines of at most `max` characters, after a `/` or at a
/// space where possible.
fn wrap(text: &str, max: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > max {
        let cut = rest[..max]
            .iter()
            .rposition(|&c| c == '/' || c == ' ')
            .map_or(max, |i| i + 1);
        lines.push(
            rest[..cut]
                .iter()
                .collect::<String>()
                .trim_end()
                .to_string(),
        );
        rest.drain(..cut);
    }
    lines.push(rest.into_iter().collect());
    lines
}

fn arrow(s: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    // Stop short of the centre so the arrow head does not hide the man's letter.
    let (tx, ty) = (x2 - ux * R * 0.7, y2 - uy * R * 0.7);
    let head = 9.0;
    let (lx, ly) = (
        tx - ux * head - uy * head * 0.5,
        ty - uy * head + ux * head * 0.5,
    );
    let (rx, ry) = (
        tx - ux * head + uy * head * 0.5,
        ty - uy * head - ux * head * 0.5,
    );
    let _ = writeln!(
        s,
        r##"<g opacity="0.8"><line x1="{x1:.1}" y1="{y1:.1}" x2="{tx:.1}" y2="{ty:.1}" stroke="#2a7de1" stroke-width="4" stroke-linecap="round"/><polygon points="{tx:.1},{ty:.1} {lx:.1},{ly:.1} {rx:.1},{ry:.1}" fill="#2a7de1"/></g>"##
    );
}

/// A xiangqi man at file 0..9 (a..i, from Red's left) and rank 0..10 (Red's back rank
/// is 0), named by its FEN letter (`K A B N R C P`, upper case Red).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XiangqiMan {
    /// File, 0 = a (Red's left).
    pub file: u8,
    /// Rank, 0 = Red's back rank.
    pub rank: u8,
    /// FEN letter: upper case Red, lower case Black.
    pub letter: char,
}

const XQ_STEP: f64 = 48.0;

fn xq_point(file: u8, rank: u8) -> (f64, f64) {
    (
        MARGIN + 12.0 + f64::from(file) * XQ_STEP,
        MARGIN + f64::from(9 - rank) * XQ_STEP,
    )
}

/// The Chinese character of a man, traditional forms (帥仕相傌俥炮兵 / 將士象馬車砲卒).
fn xiangqi_glyph(letter: char) -> Option<char> {
    Some(match letter {
        'K' => '帥',
        'A' => '仕',
        'B' | 'E' => '相',
        'N' | 'H' => '傌',
        'R' => '俥',
        'C' => '炮',
        'P' => '兵',
        'k' => '將',
        'a' => '士',
        'b' | 'e' => '象',
        'n' | 'h' => '馬',
        'r' => '車',
        'c' => '砲',
        'p' => '卒',
        _ => return None,
    })
}

/// Draws a xiangqi position: the 9x10 grid with river and palaces, file labels, the men
/// as discs with their Chinese characters (red and black ink), and the last move.
pub fn xiangqi_svg(
    men: &[XiangqiMan],
    last_move: Option<((u8, u8), (u8, u8))>,
    caption: Option<&str>,
) -> String {
    let width = 2.0 * MARGIN + 24.0 + 8.0 * XQ_STEP;
    let board_h = 2.0 * MARGIN + 9.0 * XQ_STEP + 16.0;
    let height = board_h + caption.map_or(0.0, caption_height);
    let mut s = String::with_capacity(16 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Noto Sans CJK SC, WenQuanYi Zen Hei, DejaVu Sans, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#f0d9a6"/>"##);
    let line = |s: &mut String, a: (f64, f64), b: (f64, f64)| {
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#3b2a18" stroke-width="1.2"/>"##,
            a.0, a.1, b.0, b.1
        );
    };
    for rank in 0..10u8 {
        line(&mut s, xq_point(0, rank), xq_point(8, rank));
    }
    for file in 0..9u8 {
        if file == 0 || file == 8 {
            line(&mut s, xq_point(file, 0), xq_point(file, 9));
        } else {
            // Inner files stop at the river.
            line(&mut s, xq_point(file, 0), xq_point(file, 4));
            line(&mut s, xq_point(file, 5), xq_point(file, 9));
        }
    }
    for (r0, r1) in [(0u8, 2u8), (7, 9)] {
        line(&mut s, xq_point(3, r0), xq_point(5, r1));
        line(&mut s, xq_point(5, r0), xq_point(3, r1));
    }
    let (_, river_y) = xq_point(0, 4);
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="20" text-anchor="middle" fill="#3b2a18">楚 河　　　漢 界</text>"##,
        width / 2.0,
        river_y - XQ_STEP / 2.0 + 7.0
    );
    for file in 0..9u8 {
        let (x, y) = xq_point(file, 0);
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">{}</text>"##,
            y + 30.0,
            (b'a' + file) as char
        );
    }
    if let Some((from, to)) = last_move {
        for (f, r) in [from, to] {
            let (x, y) = xq_point(f, r);
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="22" fill="none" stroke="#2a7de1" stroke-width="3"/>"##
            );
        }
    }
    for man in men.iter().filter(|m| m.file < 9 && m.rank < 10) {
        let (x, y) = xq_point(man.file, man.rank);
        let ink = if man.letter.is_ascii_uppercase() {
            "#c0141c"
        } else {
            "#111111"
        };
        let glyph = xiangqi_glyph(man.letter).unwrap_or('?');
        let _ = writeln!(
            s,
            r##"<g><circle cx="{x:.1}" cy="{y:.1}" r="19" fill="#fbf3df" stroke="{ink}" stroke-width="2"/><text x="{x:.1}" y="{:.1}" font-size="20" text-anchor="middle" fill="{ink}">{glyph}</text></g>"##,
            y + 7.0
        );
    }
    if let Some((from, to)) = last_move {
        arrow(&mut s, xq_point(from.0, from.1), xq_point(to.0, to.1));
    }
    if let Some(text) = caption {
        draw_caption(&mut s, text, width / 2.0, board_h);
    }
    s.push_str("</svg>\n");
    s
}

/// A chess man on file 0..8 (a..h) and rank 0..8 (rank 1 is 0), named by its FEN
/// letter (`K Q R B N P`, upper case White).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChessMan {
    /// File, 0 = a.
    pub file: u8,
    /// Rank, 0 = rank 1.
    pub rank: u8,
    /// FEN letter: upper case White, lower case Black.
    pub letter: char,
}

/// Why a FEN's piece placement could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError(pub String);

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad FEN placement: {}", self.0)
    }
}

impl std::error::Error for FenError {}

const SQ: f64 = 52.0;

fn chess_square(file: u8, rank: u8) -> (f64, f64) {
    (
        MARGIN + f64::from(file) * SQ,
        MARGIN + f64::from(7 - rank) * SQ,
    )
}

fn chess_centre(file: u8, rank: u8) -> (f64, f64) {
    let (x, y) = chess_square(file, rank);
    (x + SQ / 2.0, y + SQ / 2.0)
}

/// The men of a FEN's first field (the piece placement; the other fields, if any,
/// are not looked at). Eight ranks of eight files, from rank 8 down.
pub fn chess_men_from_fen(fen: &str) -> Result<Vec<ChessMan>, FenError> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError(format!("{} ranks, expected 8", ranks.len())));
    }
    let mut men = Vec::new();
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
            } else if "KQRBNPkqrbnp".contains(c) {
                if file < 8 {
                    men.push(ChessMan {
                        file,
                        rank,
                        letter: c,
                    });
                }
                file += 1;
            } else {
                return Err(FenError(format!("unexpected {c:?} in rank {}", rank + 1)));
            }
            if file > 8 {
                return Err(FenError(format!("rank {} longer than 8 files", rank + 1)));
            }
        }
        if file != 8 {
            return Err(FenError(format!("rank {} has {file} files", rank + 1)));
        }
    }
    Ok(men)
}

/// Draws a chess position from a FEN (its placement field), with the FEN itself as
/// the caption unless `caption` is given.
///
/// ```
/// let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
/// let svg = board_svg::chess_fen_svg(fen, Some(((4, 1), (4, 3))), None).unwrap();
/// assert!(svg.starts_with("<svg") && svg.matches("<circle").count() == 32);
/// assert!(board_svg::chess_fen_svg("8/8 w - - 0 1", None, None).is_err());
/// ```
pub fn chess_fen_svg(
    fen: &str,
    last_move: Option<((u8, u8), (u8, u8))>,
    caption: Option<&str>,
) -> Result<String, FenError> {
    let men = chess_men_from_fen(fen)?;
    Ok(chess_svg(&men, last_move, Some(caption.unwrap_or(fen))))
}

/// Draws a chess position: the 8x8 board with White at the bottom, file letters and
/// rank numbers, the men as lettered discs (white and black, as on the hex board),
/// the last move (`(file, rank)` from and to) highlighted with an arrow, and an
/// optional caption.
pub fn chess_svg(
    men: &[ChessMan],
    last_move: Option<((u8, u8), (u8, u8))>,
    caption: Option<&str>,
) -> String {
    let width = 2.0 * MARGIN + 8.0 * SQ;
    let board_h = 2.0 * MARGIN + 8.0 * SQ;
    let height = board_h + caption.map_or(0.0, caption_height);
    let mut s = String::with_capacity(16 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="DejaVu Sans, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fbfaf7"/>"##);
    let files = "abcdefgh";
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = chess_square(file, rank);
            // a1 is dark, like the hex board's darker "Black" cells.
            let fill = if (file + rank) % 2 == 0 {
                "#9c7a57"
            } else {
                "#f3ead7"
            };
            let highlighted =
                last_move.is_some_and(|(from, to)| (file, rank) == from || (file, rank) == to);
            let stroke = if highlighted {
                r##" stroke="#2a7de1" stroke-width="3""##
            } else {
                ""
            };
            let name = format!("{}{}", &files[file as usize..=file as usize], rank + 1);
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{SQ:.1}" height="{SQ:.1}" fill="{fill}"{stroke}><title>{name}</title></rect>"#
            );
        }
    }
    let _ = writeln!(
        s,
        r##"<rect x="{MARGIN:.1}" y="{MARGIN:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#5b4632" stroke-width="1.5"/>"##,
        8.0 * SQ,
        8.0 * SQ
    );
    for i in 0..8u8 {
        let (x, _) = chess_centre(i, 0);
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">{}</text>"##,
            board_h - MARGIN + 16.0,
            &files[i as usize..=i as usize]
        );
        let (_, y) = chess_centre(0, i);
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" fill="#333">{}</text>"##,
            MARGIN - 8.0,
            y + 4.0,
            i + 1
        );
    }
    for man in men.iter().filter(|m| m.file < 8 && m.rank < 8) {
        let (cx, cy) = chess_centre(man.file, man.rank);
        let (disc, ink) = if man.letter.is_uppercase() {
            ("#ffffff", "#111111")
        } else {
            ("#1d1d1d", "#ffffff")
        };
        let _ = writeln!(
            s,
            r##"<g><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{disc}" stroke="#111" stroke-width="1.5"/><text x="{cx:.1}" y="{:.1}" font-size="20" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text></g>"##,
            SQ * 0.36,
            cy + 7.0,
            escape(&man.letter.to_ascii_uppercase().to_string())
        );
    }
    if let Some((from, to)) = last_move
        && from.0 < 8
        && from.1 < 8
        && to.0 < 8
        && to.1 < 8
    {
        arrow(
            &mut s,
            chess_centre(from.0, from.1),
            chess_centre(to.0, to.1),
        );
    }
    if let Some(text) = caption {
        draw_caption(&mut s, text, width / 2.0, board_h);
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_board_has_every_cell_once_with_three_colours() {
        let svg = cescacs_svg(&[], None, None);
        assert_eq!(svg.matches("<polygon").count(), 169);
        assert_eq!(svg.matches("#f3ead7").count(), 57);
        assert_eq!(svg.matches("#9c7a57").count(), 57);
        assert_eq!(svg.matches("#d2b48c").count(), 55);
        for cell in ["F0", "F14", "F28", "P7", "Z21"] {
            assert!(svg.contains(&format!("<title>{cell}</title>")), "{cell}");
        }
    }

    #[test]
    fn neighbouring_hexes_touch_and_do_not_overlap() {
        let f14 = centre("F14".parse().unwrap());
        for other in ["F16", "G15", "G13", "F12", "E13", "E15"] {
            let c = centre(other.parse().unwrap());
            let d = ((c.0 - f14.0).powi(2) + (c.1 - f14.1).powi(2)).sqrt();
            assert!((d - SQRT3 * R).abs() < 1e-9, "{other}: {d}");
        }
        // White's side is drawn at the bottom.
        assert!(centre("F0".parse().unwrap()).1 > centre("F28".parse().unwrap()).1);
    }

    #[test]
    fn men_last_move_and_caption_are_drawn_and_escaped() {
        let men = [HexMan {
            cell: "E1".parse().unwrap(),
            letter: 'D',
            side: Side::White,
        }];
        let svg = cescacs_svg(
            &men,
            Some(("E3".parse().unwrap(), "E1".parse().unwrap())),
            Some("a < b"),
        );
        assert_eq!(svg.matches("<circle").count(), 1);
        assert_eq!(
            svg.matches(r##"stroke="#2a7de1" stroke-width="3""##)
                .count(),
            2
        );
        assert!(svg.contains("a &lt; b"));
        assert_eq!(
            wrap("/28:v/27:dk/26:gjg/", 8),
            vec!["/28:v/", "27:dk/", "26:gjg/"]
        );
    }

    #[test]
    fn chess_board_from_fen() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let svg = chess_fen_svg(start, None, None).unwrap();
        assert_eq!(svg.matches("<title>").count(), 64);
        assert_eq!(svg.matches("<circle").count(), 32);
        assert_eq!(svg.matches(r##"fill="#ffffff" stroke"##).count(), 16);
        assert!(svg.contains("<title>a1</title>") && svg.contains("<title>h8</title>"));
        // a1 dark, h1 light; White at the bottom.
        let (_, y1) = chess_square(0, 0);
        let (_, y8) = chess_square(0, 7);
        assert!(y1 > y8);
        for bad in [
            "",
            "8/8/8/8/8/8/8",
            "9/8/8/8/8/8/8/8",
            "7x/8/8/8/8/8/8/8",
            "ppppppppp/8/8/8/8/8/8/8",
        ] {
            assert!(chess_fen_svg(bad, None, None).is_err(), "{bad:?}");
        }
        let men = chess_men_from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert_eq!(
            men,
            vec![
                ChessMan {
                    file: 4,
                    rank: 7,
                    letter: 'k'
                },
                ChessMan {
                    file: 4,
                    rank: 0,
                    letter: 'K'
                },
                ChessMan {
                    file: 7,
                    rank: 0,
                    letter: 'R'
                },
            ]
        );
    }

    #[test]
    fn xiangqi_board_draws_men_in_red_and_black() {
        let men = [
            XiangqiMan {
                file: 4,
                rank: 0,
                letter: 'K',
            },
            XiangqiMan {
                file: 4,
                rank: 9,
                letter: 'k',
            },
            XiangqiMan {
                file: 9,
                rank: 0,
                letter: 'R',
            },
        ];
        let svg = xiangqi_svg(&men, Some(((4, 1), (4, 0))), None);
        assert!(svg.contains('帥') && svg.contains('將'));
        // The off-board man is not drawn.
        assert_eq!(svg.matches("#fbf3df").count(), 2);
    }
}
