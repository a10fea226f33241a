//! SVG pictures of C'escacs, xiangqi and classic chess positions: the 169-hex board in
//! its three colours, the 9x10 xiangqi board and the 8x8 chess board, all in one look
//! (men as drawn figures, xiangqi characters as outlines needing no font, the last
//! move as an arrow, a king in check marked, an optional caption). [`layout`] and
//! [`defs`] give the board without men and the men's symbols, for a page that places
//! the men itself (the game viewer).
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

mod figures;
mod xiangqi_glyphs;

pub use figures::{defs, glyph_path, symbol_id};

/// Which board a picture is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardKind {
    /// Classic chess, 8 x 8; cells numbered `rank * 8 + file` (a1 = 0).
    Chess,
    /// Xiangqi, 9 x 10 points; numbered `rank * 9 + file` (Red's left back corner = 0).
    Xiangqi,
    /// C'escacs, 169 hexes; numbered in [`Cell::all`] order (see [`hex_index`]).
    Cescacs,
}

impl BoardKind {
    /// How many cells the board has (64, 90, 169).
    pub fn cells(self) -> usize {
        match self {
            BoardKind::Chess => 64,
            BoardKind::Xiangqi => 90,
            BoardKind::Cescacs => 169,
        }
    }

    /// The first letter of the board's symbol ids (`c`, `x`, `h`).
    pub(crate) fn prefix(self) -> char {
        match self {
            BoardKind::Chess => 'c',
            BoardKind::Xiangqi => 'x',
            BoardKind::Cescacs => 'h',
        }
    }

    /// The men's letters with their names, in the order of a legend: FEN letters for
    /// chess and xiangqi, CTL letters for C'escacs.
    pub fn legend(self) -> &'static [(char, &'static str)] {
        match self {
            BoardKind::Chess => &[
                ('K', "King"),
                ('Q', "Queen"),
                ('R', "Rook"),
                ('B', "Bishop"),
                ('N', "Knight"),
                ('P', "Pawn"),
            ],
            BoardKind::Xiangqi => &[
                ('K', "General"),
                ('A', "Advisor"),
                ('B', "Elephant"),
                ('N', "Horse"),
                ('R', "Chariot"),
                ('C', "Cannon"),
                ('P', "Soldier"),
            ],
            BoardKind::Cescacs => &[
                ('K', "King"),
                ('D', "Queen"),
                ('V', "Wyvern"),
                ('R', "Rook"),
                ('G', "Pegasus"),
                ('N', "Knight"),
                ('J', "Bishop"),
                ('E', "Elephant"),
                ('P', "Pawn"),
            ],
        }
    }
}

/// The index of a hex cell on the C'escacs board (its place in [`Cell::all`]).
pub fn hex_index(cell: Cell) -> u16 {
    Cell::all().position(|c| c == cell).unwrap_or(0) as u16
}

/// A man on any board: the cell index (see [`BoardKind`]), whose it is and its
/// upper-case letter (FEN letter for chess and xiangqi, CTL letter for C'escacs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Man {
    /// Cell index.
    pub cell: u16,
    /// Whose man it is.
    pub side: Side,
    /// Its letter, upper case.
    pub letter: char,
}

/// What is marked on a board besides the men.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Marks {
    /// The last move, from and to cell indices.
    pub last_move: Option<(u16, u16)>,
    /// The cell of a king in check.
    pub check: Option<u16>,
    /// The king in check is mated.
    pub mate: bool,
}

/// A board drawn without its men, with where each cell's centre is, so a man can be
/// placed (as `<use href="#{symbol_id}">`, [`Layout::man_size`] wide, centred) by
/// this crate or by a page's script.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Width of the picture without caption.
    pub width: f64,
    /// Height of the picture without caption.
    pub height: f64,
    /// The board's SVG elements (cells, lines, coordinates).
    pub background: String,
    /// Each cell's centre, by cell index.
    pub centres: Vec<(f64, f64)>,
    /// The width and height of a man.
    pub man_size: f64,
}

/// Circumradius of one hex, in SVG user units.
const R: f64 = 22.0;
const MARGIN: f64 = 36.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;
const HEX_W: f64 = 2.0 * MARGIN + 2.0 * R + 14.0 * 1.5 * R;
const HEX_H: f64 = 2.0 * MARGIN + SQRT3 * R + 28.0 * SQRT3 * R / 2.0;

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
pub fn escape(text: &str) -> String {
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

/// A point seen from the other side when the board is flipped.
fn turn(flipped: bool, w: f64, h: f64, (x, y): (f64, f64)) -> (f64, f64) {
    if flipped { (w - x, h - y) } else { (x, y) }
}

/// The board of `kind` without men, White (Red) at the bottom, or at the top when
/// `flipped`. Coordinates follow each game's tradition: file letters and rank numbers
/// for chess; column letters and line numbers for C'escacs; for xiangqi, Red's files
/// numbered 一 to 九 from Red's right along Red's edge, Black's 1 to 9 from Black's
/// right along Black's edge.
pub fn layout(kind: BoardKind, flipped: bool) -> Layout {
    match kind {
        BoardKind::Chess => chess_layout(flipped),
        BoardKind::Xiangqi => xiangqi_layout(flipped),
        BoardKind::Cescacs => hex_layout(flipped),
    }
}

fn hex_layout(flipped: bool) -> Layout {
    let t = |p| turn(flipped, HEX_W, HEX_H, p);
    let mut s = String::with_capacity(48 * 1024);
    let mut centres = Vec::with_capacity(169);
    for cell in Cell::all() {
        let (cx, cy) = t(centre(cell));
        centres.push((cx, cy));
        let fill = match cell.colour() {
            HexColour::White => "#f3ead7",
            HexColour::Black => "#9c7a57",
            HexColour::Color => "#d2b48c",
        };
        let _ = writeln!(
            s,
            r##"<polygon points="{}" fill="{fill}" stroke="#5b4632" stroke-width="1"><title>{cell}</title></polygon>"##,
            hex_points(cx, cy, R - 0.5)
        );
    }
    // Column letters under the lowest and above the highest hex of each column; line
    // numbers at the board's outer edges (not beside each line's end cell), so they
    // never collide with the column letters of the staircase edges.
    for column in 0..15u8 {
        let cells: Vec<Cell> = Cell::all().filter(|c| c.column() == column).collect();
        if let (Some(low), Some(high)) = (
            cells.iter().min_by_key(|c| c.line()),
            cells.iter().max_by_key(|c| c.line()),
        ) {
            for (cell, dy) in [(low, R + 6.0), (high, -R - 1.0)] {
                let (x, y) = centre(*cell);
                let (x, y) = t((x, y + dy));
                let _ = writeln!(
                    s,
                    r##"<text x="{x:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">{}</text>"##,
                    y + if flipped { 9.0 } else { 0.0 },
                    cell.column_letter()
                );
            }
        }
    }
    for line in 0..=28u8 {
        let y = MARGIN + SQRT3 * R / 2.0 + f64::from(28 - line) * SQRT3 * R / 2.0;
        let y = if flipped { HEX_H - y } else { y } + 3.5;
        let (left_x, right_x) = (MARGIN - 4.0, HEX_W - MARGIN + 4.0);
        let _ = writeln!(
            s,
            r##"<text x="{left_x:.1}" y="{y:.1}" font-size="10" text-anchor="end" fill="#555">{line}</text><text x="{right_x:.1}" y="{y:.1}" font-size="10" text-anchor="start" fill="#555">{line}</text>"##
        );
    }
    Layout {
        width: HEX_W,
        height: HEX_H,
        background: s,
        centres,
        man_size: 2.0 * R * 0.9,
    }
}

const XQ_STEP: f64 = 48.0;
const XQ_W: f64 = 2.0 * MARGIN + 24.0 + 8.0 * XQ_STEP;
const XQ_H: f64 = 2.0 * MARGIN + 9.0 * XQ_STEP + 16.0;

fn xq_point(file: u8, rank: u8) -> (f64, f64) {
    (
        MARGIN + 12.0 + f64::from(file) * XQ_STEP,
        MARGIN + 8.0 + f64::from(9 - rank) * XQ_STEP,
    )
}

/// A character outline centred at (x, y), `size` units high.
fn glyph(s: &mut String, c: char, (x, y): (f64, f64), size: f64, ink: &str) {
    if let Some(d) = glyph_path(c) {
        let _ = writeln!(
            s,
            r#"<path transform="translate({:.1} {:.1}) scale({:.4})" d="{d}" fill="{ink}"/>"#,
            x - size / 2.0,
            y - size / 2.0,
            size / 1000.0
        );
    }
}

fn xiangqi_layout(flipped: bool) -> Layout {
    let t = |p| turn(flipped, XQ_W, XQ_H, p);
    let mut s = String::with_capacity(24 * 1024);
    let _ = writeln!(
        s,
        r##"<rect x="4" y="4" width="{:.0}" height="{:.0}" rx="6" fill="#f0d9a6"/>"##,
        XQ_W - 8.0,
        XQ_H - 8.0
    );
    let line = |s: &mut String, a: (f64, f64), b: (f64, f64)| {
        let (a, b) = (t(a), t(b));
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
    // The river's words, drawn as outlines: 楚河 on Black's half of the river (left as
    // Red sees it), 漢界 on Red's right.
    let river_y = (xq_point(0, 4).1 + xq_point(0, 5).1) / 2.0;
    for (i, c) in "楚河漢界".chars().enumerate() {
        let file = [1.0, 2.0, 6.0, 7.0][i];
        let x = MARGIN + 12.0 + file * XQ_STEP;
        glyph(&mut s, c, t((x, river_y)), 26.0, "#3b2a18");
    }
    // File numbers: Red counts 一..九 from its right (file i) along its edge; Black
    // counts 1..9 from its right (file a) along its edge.
    for file in 0..9u8 {
        let (x, y) = xq_point(file, 0);
        let red = "九八七六五四三二一"
            .chars()
            .nth(usize::from(file))
            .unwrap_or('一');
        glyph(&mut s, red, t((x, y + 28.0)), 14.0, "#c0141c");
        let (x, y) = xq_point(file, 9);
        let (x, y) = t((x, y - 27.0));
        let _ = writeln!(
            s,
            r##"<text x="{x:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#111">{}</text>"##,
            y + 4.5,
            file + 1
        );
    }
    let mut centres = Vec::with_capacity(90);
    for rank in 0..10u8 {
        for file in 0..9u8 {
            centres.push(t(xq_point(file, rank)));
        }
    }
    Layout {
        width: XQ_W,
        height: XQ_H,
        background: s,
        centres,
        man_size: 42.0,
    }
}

const SQ: f64 = 52.0;
const CHESS_W: f64 = 2.0 * MARGIN + 8.0 * SQ;

fn chess_square(file: u8, rank: u8) -> (f64, f64) {
    (
        MARGIN + f64::from(file) * SQ,
        MARGIN + f64::from(7 - rank) * SQ,
    )
}

fn chess_layout(flipped: bool) -> Layout {
    let mut s = String::with_capacity(16 * 1024);
    let files = "abcdefgh";
    let at = |file: u8, rank: u8| {
        if flipped {
            chess_square(7 - file, 7 - rank)
        } else {
            chess_square(file, rank)
        }
    };
    let mut centres = Vec::with_capacity(64);
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let (x, y) = at(file, rank);
            centres.push((x + SQ / 2.0, y + SQ / 2.0));
            // a1 is dark, like the hex board's darker "Black" cells.
            let fill = if (file + rank) % 2 == 0 {
                "#9c7a57"
            } else {
                "#f3ead7"
            };
            let name = format!("{}{}", &files[file as usize..=file as usize], rank + 1);
            let _ = writeln!(
                s,
                r#"<rect x="{x:.1}" y="{y:.1}" width="{SQ:.1}" height="{SQ:.1}" fill="{fill}"><title>{name}</title></rect>"#
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
        let (x, _) = at(i, 0);
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="#333">{}</text>"##,
            x + SQ / 2.0,
            CHESS_W - MARGIN + 16.0,
            &files[i as usize..=i as usize]
        );
        let (_, y) = at(0, i);
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" fill="#333">{}</text>"##,
            MARGIN - 8.0,
            y + SQ / 2.0 + 4.0,
            i + 1
        );
    }
    Layout {
        width: CHESS_W,
        height: CHESS_W,
        background: s,
        centres,
        man_size: SQ * 0.86,
    }
}

/// Draws a position on any board: the board ([`layout`]), the men as figures, the last
/// move (highlighted cells and an arrow), a king in check (a red glow; a red ring as
/// well when mated), a legend of the men for C'escacs, and an optional caption. The
/// `<svg>` element carries `position` (a FEN or TLPD) as `data-position`.
pub fn picture(
    kind: BoardKind,
    men: &[Man],
    marks: &Marks,
    flipped: bool,
    position: Option<&str>,
    caption: Option<&str>,
) -> String {
    let layout = layout(kind, flipped);
    let legend_h = if kind == BoardKind::Cescacs {
        LEGEND_H
    } else {
        0.0
    };
    let width = layout.width;
    // A monospace font at 11 units is 6.6 to 7 units a character: wrap inside the
    // picture whichever is used.
    let chars = ((layout.width - 16.0) / 7.2) as usize;
    let height = layout.height + legend_h + caption.map_or(0.0, |c| caption_height(c, chars));
    let mut s = String::with_capacity(64 * 1024);
    let font = "DejaVu Sans, Arial, sans-serif";
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{font}""#
    );
    if let Some(p) = position {
        let _ = write!(s, r#" data-position="{}""#, escape(p));
    }
    s.push_str(">\n");
    s.push_str(&defs(kind));
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fbfaf7"/>"##);
    match (kind, marks.last_move) {
        // Squares and hexes are outlined; xiangqi's points get a ring (marks_svg).
        (BoardKind::Chess | BoardKind::Cescacs, Some((from, to))) => {
            s.push_str(&outline_cells(kind, &layout.background, &[from, to]));
        }
        _ => s.push_str(&layout.background),
    }
    marks_svg(&mut s, &layout, marks, true, kind == BoardKind::Xiangqi);
    for man in men {
        let Some(&(x, y)) = layout.centres.get(usize::from(man.cell)) else {
            continue;
        };
        let size = layout.man_size;
        let _ = writeln!(
            s,
            r##"<use href="#{}" x="{:.1}" y="{:.1}" width="{size:.1}" height="{size:.1}"/>"##,
            symbol_id(kind, man.side, man.letter),
            x - size / 2.0,
            y - size / 2.0
        );
    }
    marks_svg(&mut s, &layout, marks, false, false);
    if kind == BoardKind::Cescacs {
        legend(&mut s, kind, layout.height, width);
    }
    if let Some(text) = caption {
        draw_caption(&mut s, text, width / 2.0, layout.height + legend_h, chars);
    }
    s.push_str("</svg>\n");
    s
}

/// The marks under the men (`under`: highlighted cells, the check glow) or over them
/// (the last move's arrow, the mate ring).
fn marks_svg(s: &mut String, layout: &Layout, marks: &Marks, under: bool, rings: bool) {
    let r = layout.man_size / 2.0;
    let at = |i: u16| layout.centres.get(usize::from(i)).copied();
    if under {
        if let Some((from, to)) = marks.last_move.filter(|_| rings) {
            for (x, y) in [at(from), at(to)].into_iter().flatten() {
                let _ = writeln!(
                    s,
                    r##"<circle class="bsv-last" cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#2a7de1" fill-opacity="0.18" stroke="#2a7de1" stroke-width="3"/>"##,
                    r * 1.05
                );
            }
        }
        if let Some((x, y)) = marks.check.and_then(at) {
            let _ = writeln!(
                s,
                r##"<circle class="bsv-check" cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="url(#bsv-check)"/>"##,
                r * 1.15
            );
        }
        return;
    }
    if let Some((from, to)) = marks.last_move
        && let (Some(a), Some(b)) = (at(from), at(to))
    {
        arrow(s, a, b, r);
    }
    if marks.mate
        && let Some((x, y)) = marks.check.and_then(at)
    {
        let _ = writeln!(
            s,
            r##"<circle class="bsv-mate" cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#d01010" stroke-width="4"/><text x="{:.1}" y="{:.1}" font-size="14" font-weight="bold" fill="#d01010">#</text>"##,
            r * 1.05,
            x + r * 0.75,
            y - r * 0.6
        );
    }
}

/// The board with the cells of `cells` outlined in the last move's blue.
fn outline_cells(kind: BoardKind, background: &str, cells: &[u16]) -> String {
    let mut out = background.to_string();
    for &i in cells {
        let name = match kind {
            BoardKind::Chess => format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1),
            _ => match Cell::all().nth(usize::from(i)) {
                Some(c) => c.to_string(),
                None => continue,
            },
        };
        let title = format!("><title>{name}</title>");
        let plain = match kind {
            BoardKind::Chess => title.clone(),
            _ => format!(r##" stroke="#5b4632" stroke-width="1"{title}"##),
        };
        out = out.replacen(
            &plain,
            &format!(r##" stroke="#2a7de1" stroke-width="3"{title}"##),
            1,
        );
    }
    out
}

const LEGEND_H: f64 = 54.0;

/// A row of the men with their letters and names.
fn legend(s: &mut String, kind: BoardKind, top: f64, width: f64) {
    let items = kind.legend();
    let step = (width - 20.0) / items.len() as f64;
    for (i, (letter, name)) in items.iter().enumerate() {
        let x = 10.0 + step * (i as f64 + 0.5);
        let _ = writeln!(
            s,
            r##"<use class="bsv-legend" href="#{}" x="{:.1}" y="{:.1}" width="26" height="26"/><text x="{x:.1}" y="{:.1}" font-size="10" text-anchor="middle" fill="#222">{letter} {name}</text>"##,
            symbol_id(kind, Side::White, *letter),
            x - 13.0,
            top + 2.0,
            top + 40.0
        );
    }
}

/// Draws a C'escacs position: 169 hexes coloured by line (White, Black and "Color"),
/// column letters and line numbers, the men as figures with a legend, the last move
/// as an arrow between highlighted cells, and an optional caption.
pub fn cescacs_svg(
    men: &[HexMan],
    last_move: Option<(Cell, Cell)>,
    caption: Option<&str>,
) -> String {
    let men: Vec<Man> = men
        .iter()
        .map(|m| Man {
            cell: hex_index(m.cell),
            side: m.side,
            letter: m.letter.to_ascii_uppercase(),
        })
        .collect();
    let marks = Marks {
        last_move: last_move.map(|(a, b)| (hex_index(a), hex_index(b))),
        ..Marks::default()
    };
    picture(BoardKind::Cescacs, &men, &marks, false, None, caption)
}

const CAPTION_LINE: f64 = 14.0;

fn caption_height(text: &str, chars: usize) -> f64 {
    CAPTION_LINE * wrap(text, chars).len() as f64 + 8.0
}

/// A caption (usually a TLPD or FEN) under the board, in monospace, wrapped so that a
/// long position string stays inside the picture.
fn draw_caption(s: &mut String, text: &str, x: f64, top: f64, chars: usize) {
    for (i, part) in wrap(text, chars).iter().enumerate() {
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

fn arrow(s: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), r: f64) {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    // Stop short of the centre so the arrow head does not hide the man.
    let (tx, ty) = (x2 - ux * r * 0.7, y2 - uy * r * 0.7);
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

/// A position on a rectangular board of `files` x `ranks` (chess, xiangqi): the men as
/// `(file, rank, FEN letter)`, upper case the first side; men and a last move off the
/// board are left out.
fn grid_picture(
    kind: BoardKind,
    (files, ranks): (u8, u8),
    men: impl Iterator<Item = (u8, u8, char)>,
    last_move: Option<((u8, u8), (u8, u8))>,
    caption: Option<&str>,
) -> String {
    let on_board = |(f, r): (u8, u8)| f < files && r < ranks;
    let index = |(f, r): (u8, u8)| u16::from(r) * u16::from(files) + u16::from(f);
    let men: Vec<Man> = men
        .filter(|&(f, r, _)| on_board((f, r)))
        .map(|(f, r, letter)| Man {
            cell: index((f, r)),
            side: if letter.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            },
            letter: letter.to_ascii_uppercase(),
        })
        .collect();
    let marks = Marks {
        last_move: last_move
            .filter(|&(a, b)| on_board(a) && on_board(b))
            .map(|(a, b)| (index(a), index(b))),
        ..Marks::default()
    };
    picture(kind, &men, &marks, false, None, caption)
}

/// Draws a xiangqi position: the 9x10 grid with river and palaces, the files numbered
/// from each side's view, the men as discs with their Chinese characters drawn as
/// outlines (red and black ink; no font needed), and the last move.
pub fn xiangqi_svg(
    men: &[XiangqiMan],
    last_move: Option<((u8, u8), (u8, u8))>,
    caption: Option<&str>,
) -> String {
    let men = men.iter().map(|m| (m.file, m.rank, m.letter));
    grid_picture(BoardKind::Xiangqi, (9, 10), men, last_move, caption)
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
/// assert!(svg.starts_with("<svg") && svg.matches("<use href=\"#c").count() == 32);
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
/// rank numbers, the men as figures, the last move (`(file, rank)` from and to)
/// highlighted with an arrow, and an optional caption.
pub fn chess_svg(
    men: &[ChessMan],
    last_move: Option<((u8, u8), (u8, u8))>,
    caption: Option<&str>,
) -> String {
    let men = men.iter().map(|m| (m.file, m.rank, m.letter));
    grid_picture(BoardKind::Chess, (8, 8), men, last_move, caption)
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
        assert_eq!(svg.matches("<use href=\"#hw-D\"").count(), 1);
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
        assert_eq!(svg.matches("<use href=\"#c").count(), 32);
        assert_eq!(svg.matches("<use href=\"#cw-").count(), 16);
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
        assert!(svg.contains("<use href=\"#xw-K\"") && svg.contains("<use href=\"#xb-K\""));
        // The off-board man is not drawn.
        assert_eq!(svg.matches("<use href=").count(), 2);
        // The characters are outlines: no text needs a Chinese font.
        assert!(!svg.contains('帥') && svg.contains(glyph_path('帥').unwrap()));
    }
}
