//! Every visitor event of the streaming reader on the edges its fast paths touch
//! (the main line's moves and move numbers taken on the borrowed token, whole tag
//! pairs handed on directly, the tokenizer's one-load blank test): CR LF, lone CR,
//! `%` lines, `;` comments, braces inside comments, escaped quotes in tags,
//! non-ASCII bytes, `(Q)` promotions, `e.p.`, tokens that are not moves, a visitor
//! stopping the movetext, tags after movetext, byte order marks between games.
//!
//! `GOLDEN` was recorded from the reader as it was before those fast paths (main at
//! 2a3055e), so a fast path that changes any event, its order or its position
//! fails here. The same events must come through a 64-byte buffer fed one byte
//! per read, where every token crosses a refill.

use std::fmt::Write as _;
use std::io::Read;

use chess_pgn::{Control, Outcome, PgnReader, Pos, Problem, SanPlus, Skip, Visitor};

/// `OUT`: the reader's rare paths out of line ([`Visitor::RARE_OUT_OF_LINE`]), which
/// must change nothing read.
struct Rec<const OUT: bool> {
    out: String,
    /// The move on which `san` answers `SkipMovetext`.
    stop_at: &'static [u8],
    skip_variations: bool,
}

fn at(p: Pos) -> String {
    format!("{}:{}@{}", p.line, p.col, p.offset)
}

fn text(b: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(b))
}

impl<const OUT: bool> Visitor for Rec<OUT> {
    type Output = String;
    const RARE_OUT_OF_LINE: bool = OUT;
    fn begin_game(&mut self, p: Pos) {
        writeln!(self.out, "begin {}", at(p)).unwrap();
    }
    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, p: Pos) {
        let (n, v) = (text(name), text(value));
        writeln!(self.out, "tag {n} {v} {escaped} {}", at(p)).unwrap();
    }
    fn end_headers(&mut self) -> Skip {
        self.out.push_str("end_headers\n");
        Skip(false)
    }
    fn begin_movetext(&mut self) {
        self.out.push_str("movetext\n");
    }
    fn san(&mut self, san: SanPlus, raw: &[u8], p: Pos) -> Control {
        writeln!(self.out, "san {san:?} {} {}", text(raw), at(p)).unwrap();
        if raw == self.stop_at {
            Control::SkipMovetext
        } else {
            Control::Continue
        }
    }
    fn nag(&mut self, nag: u8, p: Pos) {
        writeln!(self.out, "nag {nag} {}", at(p)).unwrap();
    }
    fn comment(&mut self, t: &[u8], p: Pos) {
        writeln!(self.out, "comment {} {}", text(t), at(p)).unwrap();
    }
    fn begin_variation(&mut self, p: Pos) -> Skip {
        writeln!(self.out, "variation {}", at(p)).unwrap();
        Skip(self.skip_variations)
    }
    fn end_variation(&mut self, p: Pos) {
        writeln!(self.out, "end_variation {}", at(p)).unwrap();
    }
    fn outcome(&mut self, o: Outcome, p: Pos) {
        writeln!(self.out, "outcome {o:?} {}", at(p)).unwrap();
    }
    fn problem(&mut self, pr: Problem, t: &[u8], p: Pos) {
        writeln!(self.out, "problem {pr:?} {} {}", text(t), at(p)).unwrap();
    }
    fn escape(&mut self, t: &[u8], p: Pos) {
        writeln!(self.out, "escape {} {}", text(t), at(p)).unwrap();
    }
    fn ignored(&mut self, t: &[u8], p: Pos) {
        writeln!(self.out, "ignored {} {}", text(t), at(p)).unwrap();
    }
    fn end_game(&mut self) -> String {
        self.out.push_str("end_game\n");
        std::mem::take(&mut self.out)
    }
}

/// A reader that hands out one byte per call.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

const INPUTS: &[(&[u8], &[u8], bool)] = &[
    // Tags with CR LF, an escaped quote, a `%` line, non-ASCII; a comment with a brace
    // inside; a `;` comment; the next game's tags after the result.
    (
        b"[Event \"a\"]\r\n[Site \"b \\\"q\\\" c\"]\r\n[Round \"1\"]\r\n%escape line\r\n[White \"Caf\xc3\xa9\"]\r\n\r\n1. e4 e5 2. Nf3 {comment {nested} 2... Nc6 ; line comment\r\n3. Bb5 a6 1-0\r\n[Event \"next\"]\n1. d4 *\n",
        b"",
        false,
    ),
    // Promotions written `(Q)`, pawns reaching the last rank without one, `e.p.` glued
    // on and written apart.
    (
        b"1. e4 d5 2. exd5 c5 3. dxc6e.p. p 4. cxb7 e 5. bxa8(Q)+ Kd7 6. a8 Qb8 7. h8(N) e8=Q 8. b1(r)# exd6 e.p. 9. a1 (Q) 0-1",
        b"",
        false,
    ),
    // Tokens that are not moves on the main line, glyphs, NAGs.
    (
        b"1. e4 zz9 Kx e ep N 2. Nf3!? Nc6+ Qxf7# $1 +- Z0 0000 -- 12\xe2\x80\xa6 Nf6 \xe2\x80\xa6 1/2-1/2",
        b"",
        false,
    ),
    // The visitor stops the movetext at a move: the rest is skipped, up to the result.
    (
        b"1. e4 e5 2. Bc4 (2. Nf3 Nc6) Nf6 {x} 3. Nf3 1-0\n\n1. d4 d5 *",
        b"Bc4",
        false,
    ),
    // Variations read, then skipped; a result inside a variation; `)` unmatched.
    (
        b"1. e4 (1. d4 d5) e5 (1... c5 2. Nf3 (2. c3) 1-0) 2. Nf3 ) *\n1. e4 (1. d4 (1. c4) d5) e5 *",
        b"",
        false,
    ),
    (
        b"1. e4 (1. d4 (1. c4) d5) e5 (1... c5 2. Nf3 1-0) 2. Nf3 *",
        b"",
        true,
    ),
    // A tag after movetext without a result; `%` inside a line and at a line's start.
    (
        b"[A \"1\"]\n1. e4 %x e5\n%esc\n2. Nf3\n[B \"2\"]\n1. d4 *",
        b"",
        false,
    ),
    // Broken tags; a byte order mark between games; lone CR line ends.
    (
        b"[Event \"x\"\n[Site \"y\"]\n1. e4 *\n[Event x]\n1. e4 *\n\xEF\xBB\xBF[Event \"b\"]\r1. e4 e5\r2. Nf3 *\r",
        b"",
        false,
    ),
    // Blanks of every kind between tokens, a DOS end-of-file byte, control bytes,
    // `<...>`, a string in movetext, an unterminated comment at the end.
    (
        b"1.e4\te5\x0b2.\x0cNf3  \n\n  Nc6\x01 <res> \"str\" ] 3.Bb5 \x1a{open",
        b"",
        false,
    ),
];

fn events<const OUT: bool>(
    input: &[u8],
    stop_at: &'static [u8],
    skip_variations: bool,
    small: bool,
) -> String {
    let mut v = Rec::<OUT> {
        out: String::new(),
        stop_at,
        skip_variations,
    };
    let mut all = String::new();
    if small {
        let mut r = PgnReader::with_capacity(OneByte(input), 64);
        while let Some(g) = r.read_game(&mut v).unwrap() {
            all.push_str(&g);
        }
    } else {
        let mut r = PgnReader::new(input);
        while let Some(g) = r.read_game(&mut v).unwrap() {
            all.push_str(&g);
        }
    }
    all
}

fn all_events<const OUT: bool>(small: bool) -> String {
    let mut s = String::new();
    for (i, (input, stop_at, skip)) in INPUTS.iter().enumerate() {
        writeln!(s, "== input {i}").unwrap();
        s.push_str(&events::<OUT>(input, stop_at, *skip, small));
    }
    s
}

#[test]
fn reader_events_are_as_before_the_fast_paths() {
    let whole = all_events::<false>(false);
    // Regenerating the golden file (only from a reader known to be right).
    if let Some(path) = std::env::var_os("WRITE_READER_EVENTS") {
        std::fs::write(path, &whole).unwrap();
    }
    assert_eq!(
        whole,
        all_events::<false>(true),
        "a 64-byte buffer fed a byte at a time"
    );
    assert_eq!(whole, all_events::<true>(false), "rare paths out of line");
    assert_eq!(
        whole,
        all_events::<true>(true),
        "rare paths out of line, a byte at a time"
    );
    let golden = include_str!("../../../testdata/chess/reader-events.txt");
    assert_eq!(whole, golden);
}
