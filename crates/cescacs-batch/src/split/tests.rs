use super::*;

/// The run scanner and the byte-by-byte scanner end in the same state (tokens,
/// comment and variation state, kept positions, column) on every input, however
/// the line is cut into chunks. Inputs are drawn from the bytes that matter, with
/// multi-byte UTF-8 and long tokens.
#[test]
fn run_scanner_matches_bytewise_scanner() {
    const PIECES: [&[u8]; 16] = [
        b" ",
        b"\t",
        b"\r",
        b"\n",
        b"{",
        b"}",
        b"(",
        b")",
        b";",
        b"1-0",
        b"*",
        b"e4",
        b"1/2-1/2",
        "é½".as_bytes(),
        b"Nbd7xyzlongtoken",
        b"\xC2\xBD-\xC2\xBD",
    ];
    const PLAIN: [&[u8]; 12] = [
        b" ",
        b"\t",
        b"\r\n",
        b"\n",
        b"}",
        b"1-0",
        b"*",
        b"e4",
        b"...",
        b"$1",
        "é½".as_bytes(),
        b"\xC2\xBD-\xC2\xBD",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..40_000 {
        // Every other input has none of `{ ( ) ;`: the plain-line path.
        let pieces = if round % 2 == 0 {
            &PIECES[..]
        } else {
            &PLAIN[..]
        };
        let mut text = Vec::new();
        for _ in 0..next(24) {
            text.extend_from_slice(pieces[next(pieces.len())]);
        }
        if next(2) == 0 {
            text.push(b'\n');
        }
        let start = Lexer {
            line: 3,
            column: 1 + next(5) as u64,
            in_brace: next(4) == 0,
            depth: next(2) as u32,
            ..Lexer::default()
        };
        let (mut a, mut b) = (start.clone(), start);
        a.scan_bytewise(&text, TextEncoding::Bytes);
        let mut rest = &text[..];
        while !rest.is_empty() {
            let k = 1 + next(rest.len());
            b.scan(&rest[..k], TextEncoding::Bytes);
            rest = &rest[k..];
        }
        // Bytes of the token buffer past its length are left over, not state.
        for l in [&mut a, &mut b] {
            let n = l.token_len;
            l.token[n..].fill(0);
        }
        assert_eq!(a, b, "{:?}", String::from_utf8_lossy(&text));
    }
}

fn split(text: &str) -> Vec<RawGame> {
    split_bytes(text.as_bytes(), 1 << 20, TextEncoding::Bytes)
}

fn split_bytes(text: &[u8], cap: usize, encoding: TextEncoding) -> Vec<RawGame> {
    GameSplitter::new(text, cap)
        .encoding(encoding)
        .collect::<io::Result<Vec<_>>>()
        .unwrap()
}

fn texts(games: &[RawGame]) -> Vec<String> {
    games
        .iter()
        .map(|g| String::from_utf8_lossy(&g.bytes).into_owned())
        .collect()
}

#[test]
fn splits_at_tags_after_movetext() {
    let games = split("[A \"1\"]\n[B \"2\"]\n\n1. e4 e5 *\n\n[A \"3\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].bytes, b"[A \"1\"]\n[B \"2\"]\n\n1. e4 e5 *\n\n");
    assert_eq!((games[1].index, games[1].line, games[1].offset), (2, 6, 29));
    assert_eq!(games[1].bytes, b"[A \"3\"]\n\n1. d4 *\n");
}

#[test]
fn movetext_on_the_tag_line() {
    // The shape of pgn-extract's test-nobadresults.pgn (pgn-extract reads 9 games).
    let text = "[Result \"1-0\"] e4 *\n[Result \"0-1\"] e4 0-1\n[A \"x]\"] [B \"\\\"\"] d4 1-0\n";
    let games = split(text);
    assert_eq!(
        texts(&games),
        [
            "[Result \"1-0\"] e4 *\n",
            "[Result \"0-1\"] e4 0-1\n",
            "[A \"x]\"] [B \"\\\"\"] d4 1-0\n"
        ]
    );
    assert_eq!(games[2].line, 3);
    // Tags alone on their lines, and a tag line holding a stray quote, as before.
    assert_eq!(
        split("[A \"1\"] [B \"2\"]\n1. e4 *\n[A \"3\"]\n1. d4 *\n").len(),
        2
    );
    assert_eq!(split("[Redefine \"A@J\", C@N\"] e4\n1. e4 *\n").len(), 1);
    // A comment opened on the tag line is still open on the next line.
    let games = split("[A \"1\"] e4 {a\n[b] c} *\n[A \"2\"] d4 *\n");
    assert_eq!(games.len(), 2, "{:?}", texts(&games));
    assert!(games[0].problem.is_none());
    // Big5 trail bytes inside a tag value (許 is B3 5C, a backslash) do not escape
    // the closing quote.
    let big5 = b"[White \"\xB3\x5C\"] e4 *\n[White \"\xB3\x5C\"] d4 *\n";
    assert_eq!(
        split_bytes(big5, 1 << 20, TextEncoding::DoubleByte).len(),
        2
    );
}

#[test]
fn no_blank_line_between_games() {
    let games = split("[A \"1\"]\n1. e4 *\n[A \"2\"]\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[1].line, 3);
}

#[test]
fn result_ends_a_game_without_tags_or_blank_line() {
    let games = split("e4 e5 *\nd4 d5 *\n");
    assert_eq!(texts(&games), ["e4 e5 *\n", "d4 d5 *\n"]);
    assert_eq!(games[1].line, 2);
    let games =
        split("1. e4 e5 1-0\n1. d4 d5 0-1\n1. c4 1/2-1/2 {a comment after}\n; note\n1. Nf3 *");
    assert_eq!(games.len(), 4, "{:?}", texts(&games));
    // Moves after the result, numbered on: the same game (its reader reports them).
    assert_eq!(split("1. e4 e5 *\n2. Nf3 *\n").len(), 1);
    // Tags and a result only, then the next game's tags.
    assert_eq!(split("[A \"1\"]\n*\n[A \"2\"]\n1. e4 *\n").len(), 2);
    assert!(games[2].bytes.ends_with(b"; note\n"));
    // Decoration after a result stays with its game.
    assert_eq!(split("1. e4 *\n  =========\n\n1. d4 *\n").len(), 2);
    // A result inside a comment or a variation ends nothing.
    let games = split("1. e4 {1-0}\nd5 (2. d4 *)\n3. c4 *\n");
    assert_eq!(games.len(), 1);
    assert!(games.iter().all(|g| g.problem.is_none()));
}

#[test]
fn unclosed_comment_is_cut_at_the_next_tag_section_and_flagged() {
    let text = "[G \"1\"]\n\n1. e4 *\n\n[G \"2\"]\n\n1. e4 {never closed\n2. Nf3 *\n\n[G \"3\"]\n\n1. d4 *\n";
    let games = split(text);
    assert_eq!(games.len(), 3, "{:?}", texts(&games));
    assert_eq!(games[0].problem, None);
    assert_eq!(
        games[1].problem,
        Some(Problem::Unclosed {
            what: '{',
            line: 3,
            column: 7
        })
    );
    assert_eq!(games[2].problem, None);
    assert_eq!(games[2].line, 10);
    // Without tags: a `1.` after a result token recovers too.
    let games = split("1. e4 (1. d4 e5 *\n1. c4 e5 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].problem, None);
    assert_eq!(games[0].bytes, b"1. e4 (1. d4 e5 *\n");
    assert_eq!(games[1].problem, None);
}

#[test]
fn brackets_inside_comments_do_not_split() {
    let text = "[A \"1\"]\n1. e4 {a comment\n[not a tag] still comment}\n; [x]\ne5 *\n";
    assert_eq!(split(text).len(), 1);
    let text = "[A \"1\"]\n1. e4 ; {not a comment start\n[B \"2\"]\n1. d4\n";
    assert_eq!(split(text).len(), 2);
}

#[test]
fn big5_trail_bytes_are_not_punctuation() {
    // 徐 = AE 7D (`}` as trail byte), 州 = A6 7B (`{` as trail byte).
    let mut text = b"[Event \"\xAE\x7D\"]\n\n1. \xA6\x7B h9g7 *\n\n".to_vec();
    text.extend_from_slice(b"[Event \"x\"]\n\n1. h2e2 {\xAE\x7D \xA6\x7B} *\n");
    assert_eq!(TextEncoding::detect(&text), TextEncoding::DoubleByte);
    let games = split_bytes(&text, 1 << 20, TextEncoding::DoubleByte);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| g.problem.is_none()));
    // Byte-wise, 州's `{` opens a comment that would swallow the next game (the
    // splitter recovers, but reports the game as damaged).
    let games = split_bytes(&text, 1 << 20, TextEncoding::Bytes);
    assert!(games[0].problem.is_some());
}

#[test]
fn encoding_detection() {
    assert_eq!(
        TextEncoding::detect("Иван Петров".as_bytes()),
        TextEncoding::Bytes
    );
    // CP1251 "Пётр Ильич Чайковский" {Иван Петров}: odd runs of high bytes.
    let cp1251 = b"[White \"\xCF\xB8\xF2\xF0 \xC8\xEB\xFC\xE8\xF7 \xD7\xE0\xE9\xEA\xEE\xE2\xF1\xEA\xE8\xE9\"] {\xC8\xE2\xE0\xED \xCF\xE5\xF2\xF0\xEE\xE2}";
    assert_eq!(TextEncoding::detect(cp1251), TextEncoding::Bytes);
    assert_eq!(
        TextEncoding::detect(b"caf\xE9 na\xEFve"),
        TextEncoding::Bytes
    );
    let gbk = b"[Red \"\xD0\xEC\xCC\xEC\xBA\xEC\"]\n1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5";
    assert_eq!(TextEncoding::detect(gbk), TextEncoding::DoubleByte);
}

#[test]
fn leading_blank_lines_and_crlf_and_cr() {
    let games = split("\r\n\r\n[A \"1\"]\r\n1. e4 *\r\n[A \"2\"]\r1. d4 *\r");
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].line, games[0].offset), (3, 4));
    assert_eq!((games[1].line, games[1].offset), (5, 22));
    assert_eq!(games[1].bytes, b"[A \"2\"]\r1. d4 *\r");
}

#[test]
fn tagless_file_is_one_game_and_empty_file_none() {
    assert_eq!(split("1. e4 e5 2. Nf3\n3. Bc4 *\n").len(), 1);
    assert!(split("").is_empty());
    assert!(split("\n \n").is_empty());
}

#[test]
fn oversized_game_is_truncated_and_flagged() {
    let text = "[A \"1\"]\n1. e4 e5 2. Nf3 Nc6 *\n[A \"2\"]\n1. d4 *\n";
    let games = split_bytes(text.as_bytes(), 20, TextEncoding::Bytes);
    assert_eq!(games.len(), 2);
    assert!(games[0].truncated && games[0].bytes.len() == 20);
    assert_eq!(games[0].problem, Some(Problem::Oversized { limit: 20 }));
    assert_eq!(games[1].problem, None);
}

#[test]
fn endless_line_stops_with_an_error_in_bounded_memory() {
    // 100 MB of zeros with no newline, read through a reader that makes them up.
    let zeros = io::Read::take(io::repeat(0), 100 << 20);
    let mut splitter = GameSplitter::new(io::BufReader::new(zeros), 1 << 20);
    let game = splitter.next_game().unwrap().unwrap();
    assert_eq!(game.problem, Some(Problem::NoBoundary { limit: 1 << 20 }));
    assert!(game.bytes.len() <= 256);
    assert!(splitter.next_game().unwrap().is_none());
}

#[test]
fn json_lines_and_whole_framing() {
    let text = "{\"a\": 1}\n\n{\"a\": [\n2]}\n";
    let lines: Vec<_> = GameSplitter::new(text.as_bytes(), 1 << 20)
        .framing(Framing::Lines)
        .collect::<io::Result<_>>()
        .unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        (lines[1].line, lines[1].bytes.as_slice()),
        (3, b"{\"a\": [\n".as_slice())
    );
    let whole: Vec<_> = GameSplitter::new(text.as_bytes(), 1 << 20)
        .framing(Framing::Whole)
        .collect::<io::Result<_>>()
        .unwrap();
    assert_eq!(whole.len(), 1);
    assert_eq!(whole[0].bytes, text.as_bytes());
}

fn json(text: &str, cap: usize) -> Vec<RawGame> {
    GameSplitter::new(text.as_bytes(), cap)
        .framing(Framing::Json)
        .collect::<io::Result<_>>()
        .unwrap()
}

#[test]
fn json_array_elements_are_records() {
    let text = "[\n{\"a\": \"x,]}\\\"\"},\n  {\"b\": [1, {\"c\": 2}]},\n{\"bad\": \n]\n";
    let docs = json(text, 1 << 20);
    assert_eq!(
        texts(&docs),
        [
            "{\"a\": \"x,]}\\\"\"}",
            "{\"b\": [1, {\"c\": 2}]}",
            "{\"bad\": \n]"
        ]
    );
    assert_eq!((docs[1].line, docs[1].column), (3, 3));
    // One document, and documents one after another.
    assert_eq!(json("\u{feff} {\"a\": 1}\n", 99).len(), 1);
    assert_eq!(json("{\"a\": 1}\n{\"a\": 2}{\"a\": 3}\n", 99).len(), 3);
    assert!(json("  \n", 99).is_empty());
    assert!(json("[]", 99).is_empty());
}

#[test]
fn json_unclosed_string_and_oversized_document_spare_the_others() {
    let docs = json("[{\"a\": \"no end\n}, {\"b\": 1}]", 1 << 20);
    assert_eq!(docs.len(), 2);
    assert!(matches!(
        docs[0].problem,
        Some(Problem::Unclosed {
            what: '"',
            line: 1,
            column: 8
        })
    ));
    assert_eq!(docs[1].problem, None);
    let big = format!("[{{\"a\": \"{}\"}}, {{\"b\": 1}}]", "x".repeat(300));
    let docs = json(&big, 100);
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0].problem, Some(Problem::Oversized { limit: 100 }));
    assert_eq!(docs[1].bytes, b"{\"b\": 1}");
}

#[test]
fn bom_is_kept_in_bytes_but_does_not_hide_a_tag() {
    let games = split("\u{feff}[A \"1\"]\n1. e4 *\n[A \"2\"]\n*\n");
    assert_eq!(games.len(), 2);
    assert!(games[0].bytes.starts_with(b"\xEF\xBB\xBF["));
}

/// A byte-order mark in the middle of a stream (files joined with `cat`) is a blank: the
/// tag line behind it starts one game, after a result or after a game without one, and
/// that game keeps all its tags (it used to be cut in two: the marked line alone, then
/// the rest of its tags, an invented game without a result).
#[test]
fn a_bom_inside_the_stream_starts_one_game_with_all_its_tags() {
    for end in ["\n", "\r\n"] {
        for first in ["1. e4 e5 1-0", "1. e4 e5"] {
            let text = format!(
                "[Event \"a\"]{end}{end}{first}{end}{end}\u{feff}[Event \"b\"]{end}[Site \"?\"]{end}{end}*{end}"
            );
            let games = split(&text);
            assert_eq!(games.len(), 2, "{text:?}");
            assert!(
                games[1].bytes.starts_with(b"\xEF\xBB\xBF[Event"),
                "{text:?}"
            );
            assert!(
                games[1].bytes.windows(6).any(|w| w == b"[Site "),
                "{text:?}"
            );
            assert_eq!(games[1].line, 5, "{text:?}");
        }
    }
}

/// Games whose cuts are known, each piece one game as the splitter must cut it: a `[`
/// line and a `%` line inside a multi-line comment, comments closed on their lines
/// (clocks and evaluations, a result inside one), a variation, a `%` escape line
/// after a result (it stays with its game), CR LF and CR-only line ends, a result
/// then a move number with no blank line, and an unclosed comment cut at a tag line.
const KNOWN_CUTS: &[&str] = &[
    "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 {a comment\n[not a tag] still the comment\n% no escape}\ne5 2. Nf3 {[%clk 0:03:00]} Nc6 {[%eval -0.3]} 1-0\n\n% an escape line [Event \"no\"]\n",
    "[Event \"c\"]\n\n1. d4 d5 {closed} 2. c4 (2. Nf3 {x} Nf6) e6 {[%clk 0:01:00]}\n3. Nc3 {[%eval 0.2]} 0-1\n\n",
    "[Event \"d\"]\r\n\r\n1. c4 {[%clk 0:01:00]} e5 {1-0 inside} 2. g3 *\r\n\r\n",
    "[Event \"e\"]\r\r1. Nf3 {lone CR ends} d5\r2. g3 {x}\r1/2-1/2\r\r",
    "[Event \"f\"]\n\n1. e4 e5 {one} {two} 2. Nf3 Nc6 {last} *\n",
    "1. d4 Nf6 *\n",
    "[Event \"g\"]\n\n1. e4 {[%clk 1]} e5 {x} 2. Nf3\n3. Bb5 {never closed\n4. O-O\n",
    "[Event \"h\"]\n\n1. d4 {[%clk 1]} *\n",
];

/// The line of byte `at` of `text`: LF, CR LF and a lone CR end a line.
fn line_at(text: &[u8], at: usize) -> u64 {
    let ends = (0..at)
        .filter(|&i| text[i] == b'\n' || (text[i] == b'\r' && text.get(i + 1) != Some(&b'\n')))
        .count();
    1 + ends as u64
}

fn assert_known_cuts(games: &[RawGame], text: &[u8], what: &str) {
    assert_eq!(games.len(), KNOWN_CUTS.len(), "{what}: {:?}", texts(games));
    let mut offset = 0;
    for (i, (game, piece)) in games.iter().zip(KNOWN_CUTS).enumerate() {
        let at = format!("{what}, game {}", i + 1);
        assert_eq!(String::from_utf8_lossy(&game.bytes), *piece, "{at}");
        assert_eq!(
            (game.index, game.line, game.column, game.offset),
            (i + 1, line_at(text, offset), 1, offset as u64),
            "{at}"
        );
        let problem = (i + 1 == 7).then_some(Problem::Unclosed {
            what: '{',
            line: 4,
            column: 8,
        });
        assert_eq!(game.problem, problem, "{at}");
        offset += piece.len();
    }
}

/// Cut into two reads at every byte (a line, a CR LF pair, a comment split between
/// two fills of the buffer), in bulk and line by line: the same known games.
#[test]
fn known_cuts_hold_with_a_read_cut_at_every_byte() {
    let text = KNOWN_CUTS.concat().into_bytes();
    for k in 0..=text.len() {
        for bulk in [true, false] {
            for capacity in [1 << 16, 5] {
                let reader =
                    io::BufReader::with_capacity(capacity, io::Read::chain(&text[..k], &text[k..]));
                let mut splitter = GameSplitter::new(reader, 1 << 20);
                splitter.bulk = bulk;
                let games = splitter.collect::<io::Result<Vec<_>>>().unwrap();
                let what = format!("read cut at byte {k}, bulk {bulk}, buffer {capacity}");
                assert_known_cuts(&games, &text, &what);
            }
        }
    }
}
