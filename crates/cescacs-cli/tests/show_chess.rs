//! `cescacs show --fen` with a classic chess FEN: the text diagram and the SVG picture
//! (parsed as XML; 64 squares; the men of the FEN on their squares; the last move),
//! and the xiangqi and C'escacs boards unchanged beside it.

use std::collections::BTreeMap;
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn svg_of(fen: &str, extra: &[&str]) -> String {
    // One folder per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("cescacs-show-chess-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("board.svg");
    let path_s = path.to_str().unwrap();
    let mut args = vec!["show", "--fen", fen, "--svg", path_s];
    args.extend_from_slice(extra);
    let out = cescacs(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    svg
}

/// The squares of the picture (by their titles), the man drawn on each (a figure,
/// `<use href="#cw-K">`, centred on the square: its side and letter name the man as
/// FEN does) and the squares outlined as the last move's.
fn squares_and_men(svg: &str) -> (Vec<String>, BTreeMap<String, char>, Vec<String>) {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let mut squares = Vec::new();
    let mut centres = Vec::new();
    let mut highlighted = Vec::new();
    for rect in doc.descendants().filter(|n| n.has_tag_name("rect")) {
        let Some(title) = rect
            .children()
            .find(|c| c.has_tag_name("title"))
            .and_then(|t| t.text())
        else {
            continue;
        };
        let num = |a: &str| rect.attribute(a).unwrap().parse::<f64>().unwrap();
        let (x, y, w) = (num("x"), num("y"), num("width"));
        centres.push((title.to_string(), x + w / 2.0, y + w / 2.0));
        if rect.attribute("stroke").is_some() {
            highlighted.push(title.to_string());
        }
        squares.push(title.to_string());
    }
    let square_at = |cx: f64, cy: f64| {
        centres
            .iter()
            .find(|(_, x, y)| (x - cx).abs() < 0.5 && (y - cy).abs() < 0.5)
            .map(|(n, _, _)| n.clone())
            .expect("on a square")
    };
    let mut men = BTreeMap::new();
    for u in doc.descendants().filter(|n| n.has_tag_name("use")) {
        let Some(id) = u.attribute("href").and_then(|h| h.strip_prefix("#c")) else {
            continue;
        };
        let num = |a: &str| u.attribute(a).unwrap().parse::<f64>().unwrap();
        let (x, y, w) = (num("x"), num("y"), num("width"));
        let (side, letter) = id.split_once('-').unwrap();
        let letter = letter.chars().next().unwrap();
        let fen_letter = if side == "w" {
            letter.to_ascii_uppercase()
        } else {
            letter.to_ascii_lowercase()
        };
        assert!(
            men.insert(square_at(x + w / 2.0, y + w / 2.0), fen_letter)
                .is_none(),
            "two men on a square"
        );
    }
    (squares, men, highlighted)
}

/// The men of a FEN's placement, by square name, computed here independently.
fn fen_men(fen: &str) -> BTreeMap<String, char> {
    let mut out = BTreeMap::new();
    for (i, row) in fen.split(' ').next().unwrap().split('/').enumerate() {
        let rank = 8 - i;
        let mut file = 0u8;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(d) => file += d as u8,
                None => {
                    out.insert(format!("{}{rank}", (b'a' + file) as char), c);
                    file += 1;
                }
            }
        }
    }
    out
}

#[test]
fn chess_fen_draws_64_squares_and_the_men_of_the_fen() {
    for (fen, last, want_last) in [
        (
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            Some("e2-e4"),
            vec!["e2", "e4"],
        ),
        // Kiwipete, a test position of perft suites, with a castling move (`--last`).
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1",
            Some("e1g1"),
            vec!["e1", "g1"],
        ),
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", None, vec![]),
    ] {
        let mut extra = Vec::new();
        if let Some(l) = last {
            extra = vec!["--last", l];
        }
        let svg = svg_of(fen, &extra);
        let (squares, men, highlighted) = squares_and_men(&svg);
        assert_eq!(squares.len(), 64, "{fen}");
        let mut unique = squares.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 64);
        assert_eq!(men, fen_men(fen), "{fen}");
        assert_eq!(highlighted, want_last, "{fen}");
        assert!(svg.contains(fen), "the FEN is the caption");
    }
}

#[test]
fn chess_fen_text_diagram() {
    let out = cescacs(&["show", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "8 . . . . k . . .");
    assert_eq!(lines[7], "1 . . . . K . . R");
    assert_eq!(lines[8], "  a b c d e f g h");
    assert_eq!(lines[9], "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn bad_chess_fens_and_moves_are_clear_errors() {
    for (fen, extra, want) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP/RNBQKBNR w KQkq - 0 1",
            vec![],
            "rank 2 has 7 files",
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", vec![], "invalid chess FEN"),
        (
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            vec!["--svg", "/dev/null", "--last-move", "e2-e9"],
            "--last-move: expected a move as two squares like e2-e4",
        ),
    ] {
        let mut args = vec!["show", "--fen", fen];
        args.extend(extra);
        let out = cescacs(&args);
        assert_eq!(out.status.code(), Some(2), "{fen}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{fen}: {err}");
    }
}

#[test]
fn xiangqi_and_cescacs_boards_are_unchanged() {
    // The README's example: a xiangqi FEN (10 ranks) still draws the xiangqi board.
    let xq = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let out = cescacs(&["show", "--fen", xq]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("9 r n b a k a b n r\n") && text.contains("a b c d e f g h i"));
    let svg = svg_of(xq, &["--last-move", "h2-e2"]);
    roxmltree::Document::parse(&svg).unwrap();
    assert!(
        svg.contains("href=\"#xw-C\"") && svg.contains("href=\"#xb-K\""),
        "the xiangqi men"
    );
    // Their characters are outlines: no Chinese font needed.
    assert!(!svg.contains("炮") && svg.contains("<symbol id=\"xw-C\""));
    let out = cescacs(&["show"]);
    assert!(out.status.success());
}
