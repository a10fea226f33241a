//! Every picture is well-formed XML 1.0 whatever its caption holds: checked with a
//! strict parser (roxmltree), on captions made of every character class that can hurt
//! (markup characters, every C0 control, U+FFFE/U+FFFF, non-ASCII), and the caption
//! text comes back as written (the characters XML cannot hold shown as U+FFFD).

use board_svg::{HexMan, Side, XiangqiMan, cescacs_svg, chess_fen_svg, xiangqi_svg};

fn hostile_captions() -> Vec<String> {
    let mut v: Vec<String> = (0u32..0x20)
        .map(|c| format!("a{}b", char::from_u32(c).unwrap()))
        .collect();
    v.push("<tag> & \"quotes\" 'apos' ]]> <!-- x --> <![CDATA[".into());
    v.push("\u{fffe}\u{ffff}\u{7f}\u{85}\u{2028}徐州 ½".into());
    v.push("&amp; &#0; &#x1; &lt;".into());
    v.push("x".repeat(500) + "\u{1}/" + &"y/".repeat(100));
    v
}

fn check(svg: &str, caption: &str) {
    let doc = roxmltree::Document::parse(svg)
        .unwrap_or_else(|e| panic!("ill-formed SVG for caption {caption:?}: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // The caption's characters that XML can hold are all there, in order.
    let text: String = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    let keep: String = caption
        .chars()
        .map(|c| {
            if (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{fffe}' || c == '\u{ffff}' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .filter(|c| !c.is_whitespace())
        .collect();
    let got: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(
        got.contains(&keep),
        "caption {caption:?} not found in text {got:?}"
    );
}

#[test]
fn the_checker_rejects_what_xml_forbids() {
    // So that the test below can fail: a raw control character or an unescaped `<`
    // is refused by the parser used here.
    assert!(roxmltree::Document::parse("<svg>a\u{1}b</svg>").is_err());
    assert!(roxmltree::Document::parse("<svg>a < b</svg>").is_err());
    assert!(roxmltree::Document::parse("<svg>a &lt; b</svg>").is_ok());
}

#[test]
fn every_board_is_well_formed_with_hostile_captions() {
    let men = [HexMan {
        cell: "G1".parse().unwrap(),
        letter: 'K',
        side: Side::White,
    }];
    let xq = [XiangqiMan {
        file: 4,
        rank: 0,
        letter: 'K',
    }];
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for caption in hostile_captions() {
        check(&cescacs_svg(&men, None, Some(&caption)), &caption);
        check(
            &xiangqi_svg(&xq, Some(((4, 1), (4, 0))), Some(&caption)),
            &caption,
        );
        check(
            &chess_fen_svg(fen, Some(((4, 1), (4, 3))), Some(&caption)).unwrap(),
            &caption,
        );
    }
}
