//! Rebuilds `testdata/xiangqi/encodings/` from a real UTF-8 Chinese-notation file:
//! the first 5 games, piece and direction characters switched to traditional forms
//! (Big5 has no simplified characters), written with encoding_rs as UTF-8, UTF-8 with
//! BOM and CRLF, GB18030 and Big5.
//!
//! `cargo run -p xiangqi-pgn --example make_encoding_fixtures -- SOURCE.pgn OUT_DIR`

use xiangqi_pgn::{TextEncoding, encode};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: make_encoding_fixtures SOURCE.pgn OUT_DIR");
        std::process::exit(2);
    }
    let src = std::fs::read_to_string(&args[1]).expect("readable UTF-8 source");
    let games: Vec<&str> = src.split("\n[Event").collect();
    let mut text = games[..5.min(games.len())].join("\n[Event");
    text.push('\n');
    let trad: String = text
        .chars()
        .map(|c| match c {
            '车' => '車',
            '马' => '馬',
            '进' => '進',
            '后' => '後',
            '帅' => '帥',
            '将' => '將',
            _ => c,
        })
        .collect();
    let out = std::path::Path::new(&args[2]);
    let crlf = trad.replace('\n', "\r\n");
    let files = [
        ("xqdb5.utf8.pgn", encode(&trad, TextEncoding::Utf8)),
        (
            "xqdb5.utf8bom-crlf.pgn",
            encode(&crlf, TextEncoding::Utf8Bom),
        ),
        ("xqdb5.gb18030.pgn", encode(&trad, TextEncoding::Gb18030)),
        ("xqdb5.big5.pgn", encode(&trad, TextEncoding::Big5)),
    ];
    for (name, bytes) in files {
        std::fs::write(out.join(name), bytes).expect("writable output");
    }
}
