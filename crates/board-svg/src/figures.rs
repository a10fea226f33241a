//! The men as drawn figures: SVG `<symbol>`s in a 100 x 100 box, one per man and
//! side, placed on a board with `<use href="#…">`. Our own drawings (simple shapes a
//! chess player recognises), except the xiangqi characters, whose outlines come from
//! Noto Serif CJK (see `xiangqi_glyphs.rs` and LICENSE-OFL).

use crate::xiangqi_glyphs::GLYPHS;
use crate::{BoardKind, Side};
use std::fmt::Write;

/// A man's outline parts: `F` paths are filled with the side's colour and outlined,
/// `D` are detail strokes in the outline colour (white on black men).
enum Part {
    F(&'static str),
    D(&'static str),
}
use Part::{D, F};

const BASE: Part = F("M22 80H78V90H22Z");

fn king() -> Vec<Part> {
    vec![
        F("M46 4H54V12H62V20H54V30H46V20H38V12H46Z"),
        F("M50 33C30 27 12 42 25 62L30 78H70L75 62C88 42 70 27 50 33Z"),
        D("M31 66H69"),
        BASE,
    ]
}

fn queen() -> Vec<Part> {
    vec![
        F("M18 28L32 62L36 24L46 58L50 16L54 58L64 24L68 62L82 28L72 78H28Z"),
        F(
            "M18 22A6 6 0 1 0 18.1 22ZM36 18A6 6 0 1 0 36.1 18ZM50 10A6 6 0 1 0 50.1 10ZM64 18A6 6 0 1 0 64.1 18ZM82 22A6 6 0 1 0 82.1 22Z",
        ),
        D("M30 68H70"),
        BASE,
    ]
}

fn rook() -> Vec<Part> {
    vec![
        F("M26 14H37V23H45V14H55V23H63V14H74V34L65 41V70H35V41L26 34Z"),
        F("M28 70H72V80H28Z"),
        D("M35 41H65"),
        BASE,
    ]
}

fn bishop() -> Vec<Part> {
    vec![
        F("M50 4A6 6 0 1 0 50.1 4Z"),
        F("M50 16C34 30 30 46 37 60H63C70 46 66 30 50 16Z"),
        D("M50 30L57 43"),
        F("M33 60H67V68H33Z"),
        F("M39 68L31 80H69L61 68Z"),
        BASE,
    ]
}

fn knight() -> Vec<Part> {
    vec![
        F(
            "M28 80L33 60C33 50 39 44 46 40L31 48C24 51 18 45 21 38L38 22L42 10L49 19C65 19 77 32 76 52L74 80Z",
        ),
        D("M44 28L49 30"),
        D("M60 30C66 40 66 56 62 72"),
        BASE,
    ]
}

fn pawn() -> Vec<Part> {
    vec![
        F("M50 14A14 14 0 1 0 50.1 14Z"),
        F("M37 46Q50 38 63 46L59 55Q66 68 72 80H28Q34 68 41 55Z"),
        BASE,
    ]
}

/// C'escacs Pegasus (diagonal rider and knight jumps): a horse with a feathered wing.
fn pegasus() -> Vec<Part> {
    let mut parts = knight();
    parts.insert(
        0,
        F("M58 46C66 26 80 16 96 10C92 22 88 30 82 34C90 34 94 34 97 32C92 44 84 50 74 52C82 54 86 56 90 56C82 64 70 64 62 60Z"),
    );
    parts.push(D("M70 30C78 26 86 22 92 16M74 40C82 40 88 38 94 34"));
    parts
}

/// C'escacs Wyvern (Víbria: orthogonal rider and knight jumps): a horned dragon's head
/// with a bat's wing.
fn wyvern() -> Vec<Part> {
    vec![
        F("M36 58L6 26L14 44L3 42L14 56L5 61L32 70Z"),
        F(
            "M28 80L32 60C30 48 37 38 47 33L24 34L38 25L33 14L50 20L56 6L61 21C75 26 79 42 76 58L74 80Z",
        ),
        D("M45 27L51 28"),
        D("M60 34L66 44L60 52L66 62"),
        BASE,
    ]
}

/// C'escacs Elephant, the halberdier ("alabarder"): a halberd on a mound.
fn elephant() -> Vec<Part> {
    vec![
        F("M50 2L55 13H45Z"),
        F("M46 13H54V78H46Z"),
        F("M54 20C70 18 80 30 80 44C70 40 62 42 54 46Z"),
        F("M46 28L32 22L36 32L46 38Z"),
        F("M24 80Q50 60 76 80Z"),
        BASE,
    ]
}

fn parts(kind: BoardKind, letter: char) -> Option<Vec<Part>> {
    Some(match (kind, letter) {
        (_, 'K') => king(),
        (BoardKind::Chess, 'Q') | (BoardKind::Cescacs, 'D') => queen(),
        (_, 'R') => rook(),
        (BoardKind::Chess, 'B') | (BoardKind::Cescacs, 'J') => bishop(),
        (_, 'N') => knight(),
        (_, 'P') => pawn(),
        (BoardKind::Cescacs, 'G') => pegasus(),
        (BoardKind::Cescacs, 'V') => wyvern(),
        (BoardKind::Cescacs, 'E') => elephant(),
        _ => return None,
    })
}

/// The letters a board's men are drawn for (upper case; the FEN or CTL letters).
pub(crate) fn letters(kind: BoardKind) -> &'static str {
    match kind {
        BoardKind::Chess => "KQRBNP",
        BoardKind::Xiangqi => "KABNRCP",
        BoardKind::Cescacs => "KDVRGNJEP",
    }
}

/// The id of a man's symbol: `cw-K` (chess, White King), `xb-R` (xiangqi, Black
/// Chariot), `hw-G` (hex board, White Pegasus).
pub fn symbol_id(kind: BoardKind, side: Side, letter: char) -> String {
    format!(
        "{}{}-{}",
        kind.prefix(),
        match side {
            Side::White => 'w',
            Side::Black => 'b',
        },
        letter.to_ascii_uppercase()
    )
}

/// The Chinese character of a xiangqi man, traditional forms (帥仕相傌俥炮兵 /
/// 將士象馬車砲卒).
pub(crate) fn xiangqi_char(side: Side, letter: char) -> Option<char> {
    let red = side == Side::White;
    Some(match letter.to_ascii_uppercase() {
        'K' => ['帥', '將'][usize::from(!red)],
        'A' => ['仕', '士'][usize::from(!red)],
        'B' | 'E' => ['相', '象'][usize::from(!red)],
        'N' | 'H' => ['傌', '馬'][usize::from(!red)],
        'R' => ['俥', '車'][usize::from(!red)],
        'C' => ['炮', '砲'][usize::from(!red)],
        'P' => ['兵', '卒'][usize::from(!red)],
        _ => return None,
    })
}

/// The outline of a character the xiangqi board uses (men, river, file numerals), as
/// path data in a 1000 x 1000 box; `None` for any other character.
pub fn glyph_path(c: char) -> Option<&'static str> {
    GLYPHS.iter().find(|(g, _)| *g == c).map(|(_, d)| *d)
}

/// The `<defs>` of a board: one `<symbol>` per man and side, and the gradient that
/// marks a king in check.
pub fn defs(kind: BoardKind) -> String {
    let mut s = String::with_capacity(8 * 1024);
    s.push_str("<defs>");
    s.push_str(
        r##"<radialGradient id="bsv-check"><stop offset="0" stop-color="#ff2a2a"/><stop offset="0.55" stop-color="#e41b1b" stop-opacity="0.85"/><stop offset="1" stop-color="#a80000" stop-opacity="0"/></radialGradient>"##,
    );
    for side in [Side::White, Side::Black] {
        for letter in letters(kind).chars() {
            let _ = write!(
                s,
                r#"<symbol id="{}" viewBox="0 0 100 100">"#,
                symbol_id(kind, side, letter)
            );
            if kind == BoardKind::Xiangqi {
                xiangqi_man(&mut s, side, letter);
            } else if let Some(parts) = parts(kind, letter) {
                let (fill, detail) = match side {
                    Side::White => ("#ffffff", "#111111"),
                    Side::Black => ("#262626", "#f2f2f2"),
                };
                for part in parts {
                    match part {
                        F(d) => {
                            let _ = write!(
                                s,
                                r##"<path d="{d}" fill="{fill}" stroke="#111111" stroke-width="3" stroke-linejoin="round"/>"##
                            );
                        }
                        D(d) => {
                            let _ = write!(
                                s,
                                r#"<path d="{d}" fill="none" stroke="{detail}" stroke-width="3" stroke-linecap="round"/>"#
                            );
                        }
                    }
                }
            }
            s.push_str("</symbol>");
        }
    }
    s.push_str("</defs>\n");
    s
}

fn xiangqi_man(s: &mut String, side: Side, letter: char) {
    let ink = match side {
        Side::White => "#c0141c",
        Side::Black => "#111111",
    };
    let _ = write!(
        s,
        r##"<circle cx="50" cy="50" r="46" fill="#fbf3df" stroke="{ink}" stroke-width="4"/><circle cx="50" cy="50" r="38" fill="none" stroke="{ink}" stroke-width="1.5"/>"##
    );
    if let Some(d) = xiangqi_char(side, letter).and_then(glyph_path) {
        let _ = write!(
            s,
            r#"<path transform="translate(18 18) scale(0.064)" d="{d}" fill="{ink}"/>"#
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_man_has_a_symbol_and_every_glyph_an_outline() {
        for kind in [BoardKind::Chess, BoardKind::Xiangqi, BoardKind::Cescacs] {
            let d = defs(kind);
            for side in [Side::White, Side::Black] {
                for l in letters(kind).chars() {
                    let id = symbol_id(kind, side, l);
                    assert!(d.contains(&format!("id=\"{id}\"")), "{id}");
                    if kind != BoardKind::Xiangqi {
                        assert!(parts(kind, l).is_some(), "{id}");
                    } else {
                        assert!(glyph_path(xiangqi_char(side, l).unwrap()).is_some());
                    }
                }
            }
        }
        for c in "楚河漢界一二三四五六七八九".chars() {
            assert!(glyph_path(c).is_some(), "{c}");
        }
        assert_eq!(glyph_path('x'), None);
    }

    #[test]
    fn cescacs_figures_are_all_different() {
        let drawn: Vec<String> = letters(BoardKind::Cescacs)
            .chars()
            .map(|l| {
                parts(BoardKind::Cescacs, l)
                    .unwrap()
                    .iter()
                    .map(|p| match p {
                        F(d) | D(d) => *d,
                    })
                    .collect()
            })
            .collect();
        for (i, a) in drawn.iter().enumerate() {
            for b in &drawn[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
