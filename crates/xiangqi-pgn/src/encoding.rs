//! Text encoding detection: UTF-8 (with or without BOM), GB18030/GBK and Big5.

use std::borrow::Cow;

use encoding_rs::{BIG5, Encoding, GB18030};

/// The encodings found in real xiangqi files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 starting with the byte-order mark `EF BB BF`.
    Utf8Bom,
    /// GB18030, a superset of GBK and GB2312.
    Gb18030,
    /// Big5 (traditional Chinese, Taiwan and Hong Kong files).
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

    /// The encoding named by a label, as a user would write it for an `--encoding`
    /// switch (`utf-8`, `utf8`, `utf-8-bom`, `gb18030`, `gbk`, `gb2312`, `big5`, `cp950`;
    /// any case).
    pub fn from_label(label: &str) -> Option<TextEncoding> {
        Some(match label.trim().to_ascii_lowercase().as_str() {
            "utf-8" | "utf8" => TextEncoding::Utf8,
            "utf-8-bom" | "utf8-bom" | "utf-8-sig" => TextEncoding::Utf8Bom,
            "gb18030" | "gbk" | "gb2312" | "cp936" => TextEncoding::Gb18030,
            "big5" | "big-5" | "cp950" | "big5-hkscs" => TextEncoding::Big5,
            _ => return None,
        })
    }

    fn codec(self) -> &'static Encoding {
        match self {
            TextEncoding::Utf8 | TextEncoding::Utf8Bom => encoding_rs::UTF_8,
            TextEncoding::Gb18030 => GB18030,
            TextEncoding::Big5 => BIG5,
        }
    }
}

// Characters of genuine xiangqi text: pieces, moves, numerals, results, and the words
// of tags (events, rounds, places, names), in both simplified and traditional forms.
// A wrong legacy decoding produces CJK characters too, but mostly other ones, so the
// share of these tells GB18030 from Big5 even in a file whose moves are not Chinese.
const EXPECTED: &str = "车車俥马馬傌炮砲包兵卒进進退平前后後帅帥将將仕士相象一二三四五六七八九\
１２３４５６７８９红紅黑胜勝负負和棋局赛賽第轮輪届屆杯国國全个個人甲乙级級锦錦标標联聯队隊\
中华華年月日市省北京上海广廣东東天津南西州山江河湖深圳香港台臺湾灣澳门門大小公开開\
的是不了我在有他这這们們为為来來到说說会會对對时時地出道也就那要下以生自着著去之过過家学學\
可她里裡么麼心多而能好都然没沒于於起还還发發成事只作当當想看文无無开开手十用主行方又如所本见見\
经經头頭面同已老从從动動两兩长長知民样樣现現分外但身些与與高意把法此实實回理美点點明其种種声聲\
全工己话話儿兒者向情部正名定女问問力机機给給等几幾很业業最间間新什打便位因重被走电電四门門次\
王李张張刘劉陈陳杨楊赵趙吴吳周徐孙孫胡朱高林何郭马罗羅梁宋郑鄭谢謝韩韓唐冯馮许許邓鄧吕呂\
蒋蔣蔡汪田任姜范方石姚谭譚廖邹鄒熊金陆陸郝孔白崔康毛邱秦江史顾顧侯邵孟龙龍万萬段雷钱錢汤湯\
黎易常武乔喬贺賀赖賴龚龔文庞龐樊兰蘭殷施陶洪翟安颜顏倪严嚴牛温溫芦蘆季俞章鲁魯葛伍韦韋申尤\
毕畢聂聶焦向柳邢路岳齐齊梅莫庄莊辛管祝左涂谷祁时時舒耿牟卜詹关關苗凌费費纪紀靳盛童欧歐甄项項\
曲成游阳陽裴席卫衛查屈鲍鮑位覃霍翁隋植甘景薛单單包司柏宁寧柯阮桂闵閔欧解强強柴华車冉房边邊\
辰宇明亮伟偉芳娜敏静靜丽麗强軍军平杰傑磊洋勇艳艷涛濤超秀霞刚剛桂英华萍玉兵斌波辉輝鹏鵬";

fn expected_set() -> &'static [char] {
    static SET: std::sync::OnceLock<Vec<char>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut v: Vec<char> = EXPECTED.chars().collect();
        v.sort_unstable();
        v.dedup();
        v
    })
}

fn score(text: &str) -> i64 {
    let set = expected_set();
    text.chars()
        .filter(|c| !c.is_ascii() && set.binary_search(c).is_ok())
        .count() as i64
}

/// Detection looks at this much of a file: enough text for a clear vote, and a bounded
/// cost on huge files.
const SAMPLE_BYTES: usize = 1 << 20;

/// What [`detect`] found: the encoding, and whether the choice was a close call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detection {
    /// The encoding chosen.
    pub encoding: TextEncoding,
    /// True when the bytes are not UTF-8 and neither legacy decoding was clearly
    /// better: the caller should say so, and offer to force an encoding.
    pub uncertain: bool,
    /// Score of the GB18030 decoding (expected characters, minus 5 per decoding error).
    pub gb18030_score: i64,
    /// Score of the Big5 decoding, on the same scale.
    pub big5_score: i64,
}

impl Detection {
    /// A one-line message for a warning about an uncertain guess.
    pub fn note(&self) -> String {
        format!(
            "encoding guessed as {} but uncertain (gb18030 scored {}, big5 {}): if names \
             or comments look garbled, read again with an explicit encoding",
            self.encoding.label(),
            self.gb18030_score,
            self.big5_score
        )
    }
}

/// Detects the encoding of a file's bytes. A UTF-8 byte-order mark or valid UTF-8 wins;
/// otherwise both legacy decodings are scored by how many characters of real xiangqi
/// files (pieces, numerals, result words, and the common characters of event and
/// player names) they produce, minus the decoding errors, and the better one is kept.
/// (GB18030 decodes Big5 bytes without errors into nonsense, so "the first decoder
/// that succeeds" is wrong.)
pub fn detect(bytes: &[u8]) -> Detection {
    let utf8 = |encoding| Detection {
        encoding,
        uncertain: false,
        gb18030_score: 0,
        big5_score: 0,
    };
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return utf8(TextEncoding::Utf8Bom);
    }
    if std::str::from_utf8(bytes).is_ok() {
        return utf8(TextEncoding::Utf8);
    }
    let sample = &bytes[..bytes.len().min(SAMPLE_BYTES)];
    let judge = |enc: &'static Encoding| {
        let (text, _) = enc.decode_without_bom_handling(sample);
        let errors = text.chars().filter(|&c| c == '\u{FFFD}').count() as i64;
        score(&text) - 5 * errors
    };
    let gb = judge(GB18030);
    let big5 = judge(BIG5);
    let (encoding, best, other) = if big5 > gb {
        (TextEncoding::Big5, big5, gb)
    } else {
        (TextEncoding::Gb18030, gb, big5)
    };
    // A clear choice wins by a margin of at least 3 characters and by half again.
    let uncertain = best - other < 3 || (other > 0 && best * 2 < other * 3);
    Detection {
        encoding,
        uncertain,
        gb18030_score: gb,
        big5_score: big5,
    }
}

/// Decodes bytes in a given encoding (a UTF-8 byte-order mark is dropped; invalid
/// sequences become U+FFFD).
pub fn decode_as(bytes: &[u8], enc: TextEncoding) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match enc {
        TextEncoding::Utf8 | TextEncoding::Utf8Bom => match String::from_utf8_lossy(bytes) {
            Cow::Borrowed(s) => s.to_string(),
            Cow::Owned(s) => s,
        },
        _ => enc
            .codec()
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// Decodes a file's bytes in the encoding [`detect`] finds.
pub fn decode(bytes: &[u8]) -> (String, TextEncoding) {
    let enc = detect(bytes).encoding;
    (decode_as(bytes, enc), enc)
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
