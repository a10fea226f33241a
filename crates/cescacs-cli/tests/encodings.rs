//! Issue 12, input encodings through the `cescacs` binary: UTF-16 recognised by itself
//! (with or without a byte-order mark, either byte order), and `--encoding` reaching
//! the format readers, so that tags and comments come out decoded — a Big5 xiangqi
//! file whose trail bytes are `{`, `}` and `[` (徐 = AE 7D, 州 = A6 7B, 加 = A5 5B)
//! included, and a CP1251 classic PGN.

use cescacs_batch::encoding_rs;
use std::path::PathBuf;
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("run cescacs")
}

fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cescacs-enc-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn text(o: &[u8]) -> String {
    String::from_utf8(o.to_vec()).expect("UTF-8 output")
}

/// The summary line's counts: (read, valid/converted, bad).
fn summary(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    err.lines()
        .find(|l| l.contains("game(s) read"))
        .unwrap_or_else(|| panic!("no summary in {err}"))
        .to_string()
}

fn xiangqi_game(i: usize) -> String {
    format!(
        "[Game \"Chinese Chess\"]\n[Event \"徐州{i}\"]\n[Red \"加州\"]\n[Black \"徐\"]\n\n\
         1. 炮二平五 {{徐州}} 馬８進７ 2. 馬二進三 {{[徐]}} 車９平８ *\n\n"
    )
}

#[test]
fn big5_xiangqi_with_brace_trail_bytes_decodes_its_tags() {
    let utf8: String = (1..=20).map(xiangqi_game).collect();
    let (big5, _, unmappable) = encoding_rs::BIG5.encode(&utf8);
    assert!(!unmappable);
    for trail in [[0xAE, 0x7D], [0xA6, 0x7B], [0xA5, 0x5B]] {
        assert!(big5.windows(2).any(|w| w == trail), "{trail:x?}");
    }
    let path = file("big5.pgn", &big5);
    let p = path.to_str().unwrap();
    let out = cescacs(&["convert", "--encoding", "big5", "--to", "pcn", "--jsonl", p]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        summary(&out).contains("20 game(s) read, 20 converted"),
        "{}",
        summary(&out)
    );
    let pcn = text(&out.stdout);
    assert_eq!(pcn.lines().count(), 20);
    for i in 1..=20 {
        assert!(pcn.contains(&format!("徐州{i}")), "game {i}: {pcn}");
    }
    assert!(pcn.contains("加州"));
    // The same file read as xiangqi PGN written back in UTF-8: the comments too.
    let out = cescacs(&["convert", "--encoding", "big5", "--to", "xiangqi-pgn", p]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pgn = text(&out.stdout);
    assert_eq!(pgn.matches("[Event \"徐州").count(), 20);
    assert_eq!(pgn.matches("{[徐]}").count(), 20, "{pgn}");
}

/// Tags whose Big5 trail byte is `\` (功 = A5 5C), `[` (久 = A4 5B), and a name that
/// reads as other text in GB18030 (蓋), in ICCS games with no Chinese moves: before
/// `--encoding` reached the reader, these tags came out empty or as 籠.
#[test]
fn big5_tags_with_backslash_trail_bytes_decode_when_named() {
    let utf8: String = (1..=3)
        .map(|i| {
            format!(
                "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[Round \"{i}\"]\n[Red \"功\"]\n\
                 [Black \"蓋\"]\n[Site \"久\"]\n\n1. h2e2 h9g7 *\n\n"
            )
        })
        .collect();
    let (big5, _, _) = encoding_rs::BIG5.encode(&utf8);
    assert!(big5.windows(2).any(|w| w == [0xA5, 0x5C]));
    let path = file("big5-iccs.pgn", &big5);
    let out = cescacs(&[
        "convert",
        "--encoding",
        "big5",
        "--to",
        "xiangqi-pgn",
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pgn = text(&out.stdout);
    for tag in ["[Red \"功\"]", "[Black \"蓋\"]", "[Site \"久\"]"] {
        assert_eq!(pgn.matches(tag).count(), 3, "{tag}: {pgn}");
    }
}

fn chess_games(name: &str) -> String {
    (1..=30)
        .map(|i| format!("[Event \"g{i}\"]\n[White \"{name}\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 {{{name}}} 2. Nf3 *\n\n"))
        .collect()
}

#[test]
fn utf16_inputs_are_recognised_in_either_byte_order() {
    let utf8 = chess_games("Müller, Jörg");
    let le: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(utf8.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let be: Vec<u8> = utf8.encode_utf16().flat_map(u16::to_be_bytes).collect();
    for (name, bytes) in [("le-bom.pgn", le), ("be.pgn", be)] {
        let path = file(name, &bytes);
        let p = path.to_str().unwrap();
        // Detected as classic PGN (it was taken for something else), every game valid.
        let out = cescacs(&["check", p]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            summary(&out).contains("30 game(s) read, 30 valid"),
            "{name}: {}",
            summary(&out)
        );
        let out = cescacs(&["convert", "--to", "pgn", p]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        let pgn = text(&out.stdout);
        assert_eq!(
            pgn.matches("[White \"Müller, Jörg\"]").count(),
            30,
            "{name}: {pgn}"
        );
    }
}

#[test]
fn cp1251_classic_pgn_is_decoded_when_named() {
    let utf8 = chess_games("Каспаров, Гарри");
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&utf8);
    let path = file("cp1251.pgn", &cp1251);
    let p = path.to_str().unwrap();
    let out = cescacs(&["convert", "--encoding", "cp1251", "--to", "pgn", p]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        summary(&out).contains("30 game(s) read, 30 converted"),
        "{}",
        summary(&out)
    );
    let pgn = text(&out.stdout);
    assert_eq!(
        pgn.matches("[White \"Каспаров, Гарри\"]").count(),
        30,
        "{pgn}"
    );
}
