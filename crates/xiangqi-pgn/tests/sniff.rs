//! Format detection help for the conversion library: xiangqi is recognised from its tags
//! and moves, classic chess with non-Latin text is not taken for xiangqi.

use xiangqi_pgn::{TextEncoding, encode, looks_like_xiangqi, xiangqi_confidence};

const CHINESE: &str = "[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\"]\n\n\
1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 马2进3 *\n";
const CHINESE_NO_TAGS: &str = "1. 炮二平五 马8进7 2. 马二进三 车9平8 *\n";
const WXF: &str = "1. C2.5 H8+7 2. H2+3 R9.8 *\n";
const ICCS: &str = "1. h2e2 h9g7 2. h0g2 i9h9 *\n";
const CHESS_CYRILLIC: &str = "[Event \"Чемпионат СССР\"]\n[Site \"Москва\"]\n\
[White \"Каспаров, Гарри\"]\n[Black \"Карпов, Анатолий\"]\n[Result \"1-0\"]\n\n\
1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 {Сицилианская защита, \
вариант Найдорфа} 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 9. Qd2 O-O 10. O-O-O Nbd7 1-0\n";

#[test]
fn xiangqi_is_recognised_in_every_notation_and_encoding() {
    for text in [CHINESE, CHINESE_NO_TAGS, WXF, ICCS] {
        assert!(looks_like_xiangqi(text.as_bytes()), "{text}");
        for enc in [TextEncoding::Gb18030, TextEncoding::Big5] {
            let trad = text
                .replace('马', "馬")
                .replace('车', "車")
                .replace('进', "進")
                .replace("全国象棋个人赛", "全國象棋個人賽");
            let src = if enc == TextEncoding::Big5 {
                &trad
            } else {
                text
            };
            assert!(looks_like_xiangqi(&encode(src, enc)), "{enc:?} {text}");
        }
    }
    assert!(xiangqi_confidence(CHINESE.as_bytes()) >= 90);
}

#[test]
fn a_head_cut_inside_a_character_still_reads() {
    let bytes = CHINESE.as_bytes();
    assert!(looks_like_xiangqi(&bytes[..bytes.len() - 2]));
}

#[test]
fn classic_pgn_with_cyrillic_is_not_xiangqi() {
    assert!(!looks_like_xiangqi(CHESS_CYRILLIC.as_bytes()));
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(CHESS_CYRILLIC);
    assert!(!looks_like_xiangqi(&cp1251));
    // Tagless chess movetext, and chess with Chinese player names.
    assert!(!looks_like_xiangqi(b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *"));
    let zh = "[White \"许银川\"]\n[Black \"吕钦\"]\n\n1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. Qc2 O-O *\n";
    assert!(!looks_like_xiangqi(zh.as_bytes()));
    assert!(!looks_like_xiangqi(&encode(zh, TextEncoding::Gb18030)));
    assert_eq!(xiangqi_confidence(CHESS_CYRILLIC.as_bytes()), 0);
}

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn shared_classic_corpus_is_not_xiangqi_and_xiangqi_corpus_is() {
    let classic = test_support::shared("corpus/classic-pgn-real");
    let xq = test_support::shared("corpus/xiangqi-real");
    let mut checked = (0, 0);
    for (root, want) in [(classic, false), (xq, true)] {
        let mut stack = vec![root];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "pgn") {
                    let bytes = std::fs::read(&p).unwrap();
                    let head = &bytes[..bytes.len().min(8192)];
                    assert_eq!(looks_like_xiangqi(head), want, "{}", p.display());
                    if want {
                        checked.1 += 1;
                    } else {
                        checked.0 += 1;
                    }
                }
            }
        }
    }
    assert!(checked.0 > 0 && checked.1 > 0, "{checked:?}");
}
