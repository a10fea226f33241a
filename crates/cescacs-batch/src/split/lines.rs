//! The bulk path: whole plain lines taken at once, and the tests that hold it to the
//! line-by-line path.

use super::*;

/// The whole lines at the start of `bytes` (which starts a line) that the line-by-line
/// path would take into the current game without a cut and without changing the
/// scanner's state, `movetext` apart: usual tag lines while no movetext was seen,
/// blank lines, and movetext lines without `{ ( ) ; [ %` and without a result
/// token; and then a line like those whose last token is a result (the game's last
/// movetext line) with the blank lines after it. Lines end in LF or CR LF; a CR
/// anywhere else ends a line for the line-by-line path, so such a line is left to it.
/// Returns their length, how many lines there are, whether movetext was seen and
/// whether that line with its result was taken.
pub(super) fn plain_lines(bytes: &[u8], mut movetext: bool) -> Plain {
    let find = LineFinders::get();
    let (mut end, mut lines) = (0usize, 0u64);
    let mut brace_at = None;
    loop {
        let rest = &bytes[end..];
        // The usual tag line, `[` first and `]\n` last, with one search.
        if !movetext
            && rest.first() == Some(&b'[')
            && let Some(k) = find.tag_end(rest)
            && rest[k] == b']'
            && let Some(eol) = line_break(&rest[k + 1..])
            && k + 1 + eol <= PREFIX
        {
            end += k + 1 + eol;
            lines += 1;
            continue;
        }
        let Some(nl) = find.line_end(rest) else {
            break;
        };
        let line = &bytes[end..=end + nl];
        // A longer line is classified from its first bytes only: as here when they
        // hold a byte that is not blank, other than a tag's `[` (whose scan is kept to
        // those bytes). Its movetext is scanned whole either way.
        if line.len() > PREFIX && !prefix_classifies(line) {
            break;
        }
        // The line without its CR LF or LF: a CR left in it ends a line.
        let body = line
            .strip_suffix(b"\r\n")
            .unwrap_or(&line[..line.len() - 1]);
        let t = trim_start(line);
        if t.first() == Some(&b'[') {
            // After movetext a tag starts a game; a tag line that is not the usual
            // one (one `]`, its last non-blank byte) may carry movetext after its tags.
            if movetext || !is_usual_tag_line(body) {
                break;
            }
            end += line.len();
            lines += 1;
            continue;
        }
        let bits = LineBits::of(body);
        // Tokens end at blanks only when no `{ ( ) ; [ %` is there, and a CR inside
        // the line ends a line (a blank line holds no other of these bytes).
        if bits.stop {
            // A line with comments closed on it (lichess's clocks and evaluations,
            // annotators' notes) changes no more of the scanner's state than a plain
            // line does, but for where its last comment opened.
            let Some(c) = commented_line(body) else {
                break;
            };
            movetext |= c.movetext;
            brace_at = Some((lines, end + c.last_brace));
            if c.result {
                return result_line(bytes, end + line.len(), lines + 1, brace_at);
            }
        } else if !t.is_empty() {
            if bits.dash_or_star {
                // The line that ends the movetext with its result as last token leaves
                // the scanner after a result whatever came before it in the line (its
                // last token is looked at first: the game's last line is the usual
                // line with a result); a result followed by more tokens is the
                // line-by-line path's.
                let last = t.split(is_blank).rfind(|token| !token.is_empty());
                if last.is_some_and(|token| token.len() <= 8 && is_result(token)) {
                    return result_line(bytes, end + line.len(), lines + 1, brace_at);
                }
                if has_result(line) {
                    break;
                }
            }
            movetext = movetext || starts_movetext(line);
        }
        end += line.len();
        lines += 1;
    }
    Plain {
        len: end,
        lines,
        movetext,
        result: false,
        brace_at,
    }
}

/// Whether a line longer than [`PREFIX`] is classified by its first bytes: they hold a
/// byte that is not blank, other than a tag's `[` (whose scan is kept to those bytes).
fn prefix_classifies(line: &[u8]) -> bool {
    line[..PREFIX]
        .iter()
        .find(|b| !is_blank(b))
        .is_some_and(|&b| b != b'[')
}

/// Whether a line (without its line end) that starts with `[` is the usual tag line:
/// one `]`, its last non-blank byte, and no CR in it.
fn is_usual_tag_line(body: &[u8]) -> bool {
    let last = body.iter().rposition(|b| !is_blank(b)).unwrap_or(0);
    body[last] == b']'
        && memchr::memchr2(b']', b'\r', body) == Some(last)
        && !body[last..].contains(&b'\r')
}

/// Whether a run of bytes (tokens ending at blanks) holds a movetext token: one that
/// starts with a letter, a digit or a byte of a non-ASCII character.
fn starts_movetext(bytes: &[u8]) -> bool {
    bytes.split(is_blank).any(|token| {
        token
            .first()
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b >= 0x80)
    })
}

/// What [`plain_lines`] returns after the line that ends the movetext with its result
/// as last token (`len` and `lines` taken with it): that line and the blank lines
/// after it (spaces and tabs), which change nothing but the line count.
fn result_line(
    bytes: &[u8],
    mut len: usize,
    mut lines: u64,
    brace_at: Option<(u64, usize)>,
) -> Plain {
    while let Some(next) = bytes[len..]
        .iter()
        .position(|&b| !matches!(b, b' ' | b'\t'))
        .and_then(|k| Some(k + line_break(&bytes[len + k..])?))
    {
        len += next;
        lines += 1;
    }
    Plain {
        len,
        lines,
        movetext: true,
        result: true,
        brace_at,
    }
}

/// What a line with comments does to the scanner (see [`commented_line`]).
#[derive(Debug, PartialEq, Eq)]
struct Commented {
    /// A movetext token outside the comments.
    movetext: bool,
    /// The line's last token is a result token outside the comments.
    result: bool,
    /// The byte offset in the line of the `{` of its last comment.
    last_brace: usize,
}

/// A movetext line (its line break left out) whose `{` comments all close on it, read
/// as the line-by-line scanner reads it: outside the comments no `( ) ; [ % }` and no
/// CR, inside them no CR, and the line's last token not a result inside a comment nor
/// a result outside them followed by more (which would leave the scanner in a state
/// the bulk path does not take). `None` for any other line.
fn commented_line(body: &[u8]) -> Option<Commented> {
    let outside_stop = |b: &u8| matches!(b, b'(' | b')' | b';' | b'[' | b'%' | b'}' | b'\r');
    let (mut at, mut movetext, mut last_brace, mut result_seen) = (0, false, None, false);
    let tail = loop {
        let rest = &body[at..];
        let open = memchr::memchr(b'{', rest);
        let text = &rest[..open.unwrap_or(rest.len())];
        if text.iter().any(outside_stop) {
            return None;
        }
        result_seen =
            result_seen || (text.iter().any(|&b| b == b'-' || b == b'*') && has_result(text));
        movetext = movetext || starts_movetext(text);
        let Some(open) = open else {
            break text;
        };
        let inside = at + open + 1;
        let close = memchr::memchr(b'}', &body[inside..])?;
        let comment = &body[inside..inside + close];
        if comment.contains(&b'\r') {
            return None;
        }
        last_brace = Some(at + open);
        at = inside + close + 1;
        if !body[at..].iter().any(|b| !is_blank(b)) {
            // The line ends with this comment: its last token is the line's.
            let last = comment.split(is_blank).rfind(|token| !token.is_empty())?;
            if result_seen || (last.len() <= 8 && is_result(last)) {
                return None;
            }
            break &[][..];
        }
    };
    let result = match tail.split(is_blank).rfind(|token| !token.is_empty()) {
        Some(last) if last.len() <= 8 && is_result(last) => true,
        _ if result_seen => return None,
        _ => false,
    };
    Some(Commented {
        movetext,
        result,
        last_brace: last_brace?,
    })
}

/// The length of the line break `bytes` starts with: 1 for LF, 2 for CR LF, `None`
/// for anything else (a lone CR, or a CR whose LF is not in `bytes` yet).
#[inline(always)]
fn line_break(bytes: &[u8]) -> Option<usize> {
    match bytes {
        [b'\n', ..] => Some(1),
        [b'\r', b'\n', ..] => Some(2),
        _ => None,
    }
}

/// What [`plain_lines`] found.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Plain {
    /// The length of the lines taken.
    pub(super) len: usize,
    pub(super) lines: u64,
    /// Whether movetext was seen (before or in them).
    pub(super) movetext: bool,
    /// Whether the last line taken ends with a result token.
    pub(super) result: bool,
    /// The last `{` taken (all closed on their lines): its line, counted from the
    /// first line taken (0), and its offset in the bytes.
    pub(super) brace_at: Option<(u64, usize)>,
}

/// The searches of [`plain_lines`], built once: `memchr::memchr3` looks up its
/// vector code and builds its needle vectors on every call, which cost as much as the
/// search itself on a tag line.
struct LineFinders {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<(
        memchr::arch::x86_64::avx2::memchr::Three,
        memchr::arch::x86_64::avx2::memchr::One,
        memchr::arch::x86_64::avx2::memchr::Two,
    )>,
}

impl LineFinders {
    fn get() -> &'static LineFinders {
        static FINDERS: std::sync::OnceLock<LineFinders> = std::sync::OnceLock::new();
        FINDERS.get_or_init(|| LineFinders {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Three::new(b']', b'\r', b'\n')
                .zip(memchr::arch::x86_64::avx2::memchr::One::new(b'\n'))
                .zip(memchr::arch::x86_64::avx2::memchr::Two::new(b'-', b'*'))
                .map(|((three, one), two)| (three, one, two)),
        })
    }

    /// The first `]`, CR or LF.
    #[inline(always)]
    fn tag_end(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some((three, _, _)) = &self.avx2 {
            return three.find(bytes);
        }
        memchr::memchr3(b']', b'\r', b'\n', bytes)
    }

    /// The first LF.
    #[inline(always)]
    fn line_end(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, one, _)) = &self.avx2 {
            return one.find(bytes);
        }
        memchr::memchr(b'\n', bytes)
    }

    /// Whether `f` holds for the index of some `-` or `*`, tried in order.
    #[inline(always)]
    fn any_dash_or_star(&self, bytes: &[u8], f: impl FnMut(usize) -> bool) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Some((_, _, two)) = &self.avx2 {
            return two.iter(bytes).any(f);
        }
        memchr::memchr2_iter(b'-', b'*', bytes).any(f)
    }
}

/// The blanks that end a PGN token (the lexer's and every line test's).
pub(super) fn is_blank(b: &u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Whether a line whose tokens end at blanks only holds a result token (every result
/// token has a `-` or is `*`).
fn has_result(line: &[u8]) -> bool {
    LineFinders::get().any_dash_or_star(line, |i| {
        // The bytes beside it rule out most hits (castling's `O-O`, a `--`, `Rd1-d2`)
        // without finding the token: a result's `-` has `0`, `1`, `2` or the end of
        // `½` before it and `0`, `1` or the start of `½` after it; `*` stands alone.
        let before = i.checked_sub(1).map(|k| line[k]);
        let after = line.get(i + 1).copied();
        let possible = if line[i] == b'-' {
            matches!(before, Some(b'0' | b'1' | b'2' | 0xBD))
                && matches!(after, Some(b'0' | b'1' | 0xC2))
        } else {
            before.is_none_or(|b| is_blank(&b)) && after.is_none_or(|b| is_blank(&b))
        };
        if !possible {
            return false;
        }
        let start = line[..i].iter().rposition(is_blank).map_or(0, |k| k + 1);
        let end = line[i..]
            .iter()
            .position(is_blank)
            .map_or(line.len(), |k| i + k);
        end - start <= 8 && is_result(&line[start..end])
    })
}

/// What [`plain_lines`] needs to know of a line, in one pass.
#[derive(Debug, Default, PartialEq, Eq)]
struct LineBits {
    /// One of `{ ( ) ; [ %` or a CR (inside a line, the line break left out by the
    /// caller): the line-by-line path's.
    stop: bool,
    /// A `-` or `*`: there may be a result token.
    dash_or_star: bool,
}

impl LineBits {
    fn of(line: &[u8]) -> LineBits {
        // Sixteen bytes at a time into sixteen lanes of flags, without branches, so that
        // the compiler vectorises it; the lanes are folded once at the end. The last
        // sixteen bytes may overlap the ones before (the flags only grow).
        // (Comparisons or'ed together, not `matches!`, which compiles to branches.)
        let is_stop = |b: u8| {
            (b == b'{') as u8
                | (b == b'(') as u8
                | (b == b')') as u8
                | (b == b';') as u8
                | (b == b'[') as u8
                | (b == b'%') as u8
                | (b == b'\r') as u8
        };
        let is_dash = |b: u8| (b == b'-') as u8 | (b == b'*') as u8;
        let (mut stop, mut dash) = ([0u8; 16], [0u8; 16]);
        let mut add = |chunk: &[u8; 16]| {
            for i in 0..16 {
                stop[i] |= is_stop(chunk[i]);
                dash[i] |= is_dash(chunk[i]);
            }
        };
        if line.len() >= 16 {
            let (chunks, rest) = line.as_chunks::<16>();
            for chunk in chunks {
                add(chunk);
            }
            if !rest.is_empty() {
                add(line.last_chunk::<16>().expect("16 bytes or more"));
            }
        } else {
            for &b in line {
                stop[0] |= is_stop(b);
                dash[0] |= is_dash(b);
            }
        }
        LineBits {
            stop: u128::from_ne_bytes(stop) != 0,
            dash_or_star: u128::from_ne_bytes(dash) != 0,
        }
    }
}

/// The bulk path ([`GameSplitter::take_plain_lines`]) against the line-by-line path:
/// every field of every game must agree, on the real files and on damaged copies.
#[cfg(test)]
mod bulk_tests {
    use super::*;
    use test_support::Rng;

    fn split(
        text: &[u8],
        cap: usize,
        buffer: usize,
        encoding: TextEncoding,
        bulk: bool,
    ) -> Vec<(RawGame, Lexer)> {
        let reader = io::BufReader::with_capacity(buffer, text);
        let mut splitter = GameSplitter::new(reader, cap).encoding(encoding);
        splitter.bulk = bulk;
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            games.push((game, lexer(&splitter)));
        }
        // The lines and offset after the last game must agree too.
        games.push((
            RawGame {
                index: 0,
                line: splitter.line(),
                column: 0,
                offset: splitter.offset(),
                bytes: Vec::new(),
                truncated: false,
                problem: None,
            },
            lexer(&splitter),
        ));
        games
    }

    /// The scanner's state between games, which the bulk path claims not to change
    /// (stricter than the games alone: an unclosed variation barely shows in them).
    fn lexer<R>(splitter: &GameSplitter<R>) -> Lexer {
        let mut l = splitter.lex.clone();
        let n = l.token_len;
        l.token[n..].fill(0);
        l
    }

    fn assert_same(text: &[u8], cap: usize, buffer: usize, what: &str) {
        for encoding in [TextEncoding::Bytes, TextEncoding::detect(text)] {
            let slow = split(text, cap, buffer, encoding, false);
            let fast = split(text, cap, buffer, encoding, true);
            if slow != fast {
                let i = slow.iter().zip(&fast).position(|(a, b)| a != b);
                panic!(
                    "{what} (cap {cap}, buffer {buffer}, {encoding:?}): {} games line by line, {} in bulk; first difference at {i:?}: {:?} vs {:?}",
                    slow.len(),
                    fast.len(),
                    i.map(|i| &slow[i]),
                    i.map(|i| &fast[i])
                );
            }
        }
    }

    fn pgn_files() -> Vec<(String, Vec<u8>)> {
        let mut files = Vec::new();
        for dir in [
            test_support::testdata(),
            test_support::shared_dir().join("corpus"),
        ] {
            for ext in ["pgn", "ctl-pgn"] {
                for path in test_support::files_with_extension(&dir, ext) {
                    let bytes = std::fs::read(&path).unwrap();
                    files.push((path.display().to_string(), bytes));
                }
            }
        }
        assert!(
            files.len() > 40,
            "the PGN files of testdata/ and the shared corpus"
        );
        files
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn bulk_path_splits_the_real_files_as_line_by_line() {
        for (name, bytes) in pgn_files() {
            assert_same(&bytes, 1 << 20, 1 << 16, &name);
            // Small caps exercise truncation and the no-boundary stop; odd buffers
            // cut lines (and CR LF pairs) between two fills.
            let head = &bytes[..bytes.len().min(30_000)];
            assert_same(head, 1 << 20, 7, &name);
            assert_same(head, 300, 1 << 16, &name);
            assert_same(head, 100, 64, &name);
        }
    }

    const INSERTS: &[&[u8]] = &[
        b"{",
        b"}",
        b";",
        b"[",
        b"]",
        b"(",
        b")",
        b"%",
        b"\r",
        b"\r\n",
        b"\n",
        b"\n\n",
        b"1-0",
        b" 1-0 ",
        b"0-1",
        b"*",
        b" * ",
        b"1/2-1/2",
        b"\xC2\xBD-\xC2\xBD",
        b" 0-0 ",
        b"O-O",
        b"-",
        b"--",
        b"\n[Event \"x\"]\n",
        b"\n1. ",
        b"1. e4 ",
        b"\xFF",
        b"\xC2",
        b"\xAE\x7D",
        b" ",
        b"\t",
        b"\"",
        b"1-0\n1. e4",
        b"\xEF\xBB\xBF",
        b"O-O{",
        b"O-O(",
        b"e4;",
        b"1-0;",
        b"O-O%",
        b"-)",
        b"*{",
        b"e4{ x }",
        b"(e4 e5)",
        b"\n% x\n",
        b"1-0)",
        b"e4)*",
        b";1-0 ",
        b"(1-0 ",
        b"{1-0 ",
        b"}1-0",
        b"*;",
        b"e4(*",
    ];

    fn mutate(rng: &mut Rng, text: &[u8]) -> Vec<u8> {
        let mut t = text.to_vec();
        match rng.below(4) {
            0 => {
                // Line ends as CR LF, or lone CR.
                let mut out = Vec::with_capacity(t.len() * 2);
                let cr_only = rng.chance(30);
                for &b in &t {
                    if b == b'\n' {
                        out.push(b'\r');
                        if !cr_only {
                            out.push(b'\n');
                        }
                    } else {
                        out.push(b);
                    }
                }
                t = out;
            }
            1 => {
                // Blank lines removed.
                let mut out = Vec::with_capacity(t.len());
                for (i, &b) in t.iter().enumerate() {
                    if !(b == b'\n' && i > 0 && t[i - 1] == b'\n') {
                        out.push(b);
                    }
                }
                t = out;
            }
            _ => {}
        }
        for _ in 0..1 + rng.below(12) {
            let at = rng.below(t.len() + 1);
            match rng.below(3) {
                0 => {
                    let s = rng.pick_cloned(INSERTS);
                    t.splice(at..at, s.iter().copied());
                }
                1 if at < t.len() => t[at] = rng.next_u64() as u8,
                _ => {
                    let end = (at + rng.below(40)).min(t.len());
                    t.drain(at..end);
                }
            }
        }
        t
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn bulk_path_splits_damaged_files_as_line_by_line() {
        let files = pgn_files();
        let mut rng = Rng::new(0x5b1f);
        for round in 0..16 * test_support::proptest_cases() {
            let (name, bytes) = rng.pick(&files);
            // A window of a few games, cut anywhere.
            let start = rng.below(bytes.len());
            let end = (start + 200 + rng.below(6000)).min(bytes.len());
            let text = mutate(&mut rng, &bytes[start..end]);
            let cap = *rng.pick(&[1 << 20, 2000, 300, 64, 1]);
            let buffer = *rng.pick(&[1 << 16, 4096, 64, 7, 2, 1]);
            assert_same(&text, cap, buffer, &format!("{name} round {round}"));
        }
    }

    #[test]
    fn bulk_path_splits_token_soup_as_line_by_line() {
        // Short texts of PGN pieces glued by random separators: every delimiter next to
        // every result token, at line ends and starts.
        const PIECES: &[&[u8]] = &[
            b"1.",
            b"2.",
            b"e4",
            b"Nf3",
            b"O-O",
            b"0-0",
            b"--",
            b"1-0",
            b"0-1",
            b"*",
            b"1/2-1/2",
            b"\xC2\xBD-\xC2\xBD",
            b"{",
            b"}",
            b"(",
            b")",
            b";",
            b"%",
            b"[",
            b"]",
            b"\"",
            b"[Event \"x\"]",
            b"\xFF",
            b"\r",
            b"=====",
            b"1-0-",
            b"a-1-0",
        ];
        const GLUE: &[&[u8]] = &[b" ", b" ", b"\n", b"\n\n", b"\r\n", b"", b"\t"];
        let mut rng = Rng::new(0x50c9);
        for round in 0..32 * test_support::proptest_cases() {
            let mut text = Vec::new();
            if rng.chance(70) {
                text.extend_from_slice(b"[Event \"x\"]\n\n1. e4 e5\n2. d4 d5\n");
            }
            for _ in 0..rng.below(60) {
                let (piece, glue) = (*rng.pick(PIECES), *rng.pick(GLUE));
                text.extend_from_slice(piece);
                text.extend_from_slice(glue);
            }
            let cap = *rng.pick(&[1 << 20, 100, 20]);
            let buffer = *rng.pick(&[1 << 16, 16, 3, 1]);
            assert_same(
                &text,
                cap,
                buffer,
                &format!("round {round}: {:?}", String::from_utf8_lossy(&text)),
            );
        }
    }

    #[test]
    fn bulk_path_sees_results_next_to_every_delimiter() {
        let results: &[&str] = &["1-0", "0-1", "1/2-1/2", "*", "\u{BD}-\u{BD}", "0-0", "O-O"];
        let delimiters = [
            "", " ", ")", "(", "{", "}", ";", "%", "[", "]", "\r", "\t", "\"", "x",
        ];
        for r in results {
            for d in delimiters {
                for line in [
                    format!("{r}{d}"),
                    format!("{d}{r}"),
                    format!("e4 {r}{d} e5"),
                    // Past sixteen bytes, in the vectorised part of the line scan.
                    format!("Nf3 Nc6 4. Bb5 a6 5. Ba4 {r}{d}"),
                    format!("Nf3 Nc6 4. Bb5 a6 5. Ba4 {d}{r}"),
                ] {
                    for next in [
                        "1. d4 d5\n",
                        "d4\n",
                        "\n[Event \"y\"]\n\n1. c4 *\n",
                        "2. e4\n",
                    ] {
                        let text = format!(
                            "[Event \"x\"]\n\n1. e4 e5\n2. d4 d5\n3. c4 {line}\n{next}4. Nf3\n"
                        );
                        assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
                    }
                }
            }
        }
    }

    #[test]
    fn line_finders_find_what_memchr_finds() {
        let mut rng = Rng::new(0xf1d5);
        let find = LineFinders::get();
        for _ in 0..16 * test_support::proptest_cases() {
            let bytes: Vec<u8> = (0..rng.below(200))
                .map(|_| *rng.pick(b"ab ]\r\n[\"x-*"))
                .collect();
            assert_eq!(
                find.tag_end(&bytes),
                memchr::memchr3(b']', b'\r', b'\n', &bytes)
            );
            assert_eq!(find.line_end(&bytes), memchr::memchr(b'\n', &bytes));
            let mut found = Vec::new();
            find.any_dash_or_star(&bytes, |i| {
                found.push(i);
                false
            });
            assert_eq!(
                found,
                memchr::memchr2_iter(b'-', b'*', &bytes).collect::<Vec<_>>()
            );
        }
    }

    /// `text` with every line ending CR LF (`crlf`) or LF; lone CRs are kept.
    fn line_ends(text: &[u8], crlf: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() + text.len() / 16);
        for (i, &b) in text.iter().enumerate() {
            if b == b'\r' && text.get(i + 1) == Some(&b'\n') {
                continue;
            }
            if b == b'\n' && crlf {
                out.push(b'\r');
            }
            out.push(b);
        }
        out
    }

    /// Splitting a file and its CR LF copy gives the same games, CRs apart: the bulk
    /// path must not cut or count CR LF lines differently from LF ones.
    fn assert_crlf_splits_as_lf(name: &str, bytes: &[u8]) {
        let lf = line_ends(bytes, false);
        let crlf = line_ends(bytes, true);
        // A cap that no game of these files reaches: CRs would shift a smaller one.
        for (cap, buffer) in [(1 << 20, 1 << 16), (1 << 20, 64), (1 << 20, 7)] {
            let a = split(&lf, cap, buffer, TextEncoding::Bytes, true);
            let b = split(&crlf, cap, buffer, TextEncoding::Bytes, true);
            assert_eq!(a.len(), b.len(), "{name} (cap {cap}, buffer {buffer})");
            for ((a, _), (b, _)) in a.iter().zip(&b) {
                let what = format!("{name} game {} (cap {cap}, buffer {buffer})", a.index);
                assert_eq!(
                    (a.index, a.line, a.column),
                    (b.index, b.line, b.column),
                    "{what}"
                );
                assert_eq!(line_ends(&b.bytes, false), a.bytes, "{what}");
                assert_eq!(
                    (a.truncated, &a.problem),
                    (b.truncated, &b.problem),
                    "{what}"
                );
            }
        }
    }

    #[test]
    fn crlf_files_split_as_their_lf_copies() {
        let mut n = 0;
        for ext in ["pgn", "ctl-pgn"] {
            for path in test_support::files_with_extension(&test_support::testdata(), ext) {
                let bytes = std::fs::read(&path).unwrap();
                assert_crlf_splits_as_lf(&path.display().to_string(), &bytes);
                n += 1;
            }
        }
        assert!(n > 10, "the PGN files of testdata/");
    }

    #[test]
    #[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
    fn crlf_corpus_files_split_as_their_lf_copies() {
        for (name, bytes) in pgn_files() {
            assert_crlf_splits_as_lf(&name, &bytes);
        }
    }

    #[test]
    fn bulk_path_takes_crlf_lines() {
        // The lines a CR LF game is made of go in bulk as their LF copies do; a lone
        // CR (a line end of its own) is left to the line-by-line path.
        let game = "[Event \"x\"]\n[Site \"y\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 1-0\n\n";
        for crlf in [false, true] {
            let text = line_ends(game.as_bytes(), crlf);
            let tags = plain_lines(&text, false);
            assert_eq!((tags.len, tags.lines), (text.len(), 6), "crlf {crlf}");
            assert!(tags.movetext && tags.result, "crlf {crlf}");
        }
        let lone = plain_lines(b"1. e4 e5\r2. Nf3 Nc6\n", true);
        assert_eq!((lone.len, lone.lines), (0, 0));
        let lone_tag = plain_lines(b"[Event \"x\"]\r[Site \"y\"]\n", false);
        assert_eq!((lone_tag.len, lone_tag.lines), (0, 0));
    }

    #[test]
    fn bulk_path_takes_lines_with_closed_comments() {
        let text =
            "1. e4 {[%clk 0:03:00]} e5 {[%eval -0.3]}\n2. Nf3 {a \u{e9}{b} Nc6\n3. Bb5 {x} 1-0\n\n";
        let plain = plain_lines(text.as_bytes(), false);
        assert_eq!((plain.len, plain.lines), (text.len(), 4));
        assert!(plain.movetext && plain.result);
        // The last `{`: on the third line, at its eighth character.
        assert_eq!(plain.brace_at, Some((2, text.find("{x}").unwrap())));
        // Left to the line-by-line path: a comment left open, a result inside the
        // last comment, a result before more text, a variation, a stray `}`.
        for line in [
            "1. e4 {open\n",
            "1. e4 e5 {1-0}\n",
            "1. e4 1-0 {c}\n",
            "1. e4 {c} (1. d4) e5\n",
            "1. e4 } {c} e5\n",
            "1. e4 {c\r} e5\n",
        ] {
            assert_eq!(plain_lines(line.as_bytes(), true).len, 0, "{line:?}");
        }
        for round in 0..64 {
            let mut rng = Rng::new(0xc0 + round);
            let mut text = String::from("[Event \"x\"]\n\n");
            for _ in 0..rng.below(30) {
                text.push_str(rng.pick::<&str>(&[
                    "1. e4 ",
                    "{[%clk 0:01]} ",
                    "{1-0} ",
                    "{",
                    "}",
                    "1-0 ",
                    "*",
                    "\n",
                    "\r\n",
                    "(",
                    ")",
                    "e5 ",
                    "{\u{e9}} ",
                    "\n[Event \"y\"]\n",
                    "\n1. d4 ",
                ]));
            }
            assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
            assert_same(text.as_bytes(), 1 << 20, 5, &format!("{text:?}"));
        }
    }

    #[test]
    fn bulk_path_takes_long_lines_as_line_by_line() {
        // Lines past the classified prefix: plain, ending in a result, with a result
        // in the middle, with comments, and blanks or a `[` before their first token
        // past the prefix (the line-by-line path then sees a movetext line).
        let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 ".repeat(20);
        let blanks = " ".repeat(PREFIX + 3);
        let lines = [
            format!("{moves}\n"),
            format!("{moves}1-0\n"),
            format!("{moves}1-0 {moves}\n"),
            format!("{moves}{{[%clk 0:01:00]}} e4\n"),
            format!("{blanks}e4 e5\n"),
            format!("{blanks}[Event \"x\"]\n"),
            format!("  [Event \"x\"]{moves}\n"),
            format!("{moves}\r\n"),
            format!("{moves}\r{moves}\n"),
        ];
        for line in &lines {
            for before in ["", "1. d4 d5\n"] {
                let text =
                    format!("[Event \"x\"]\n\n{before}{line}2. c4 *\n\n[Event \"y\"]\n\n1. e4 *\n");
                for buffer in [1 << 16, 700, 7] {
                    assert_same(
                        text.as_bytes(),
                        1 << 20,
                        buffer,
                        &format!("{line:?} after {before:?}"),
                    );
                    assert_same(
                        text.as_bytes(),
                        900,
                        buffer,
                        &format!("{line:?} after {before:?}"),
                    );
                }
            }
        }
    }

    #[test]
    fn has_result_matches_a_token_by_token_test() {
        let mut rng = Rng::new(0x4e5);
        let pieces: &[&[u8]] = &[
            b"1-0",
            b"0-1",
            b"1/2-1/2",
            b"*",
            b"\xC2\xBD-\xC2\xBD",
            b"O-O",
            b"-",
            b"--",
            b"1",
            b"0",
            b"2",
            b"/",
            b" ",
            b"\t",
            b"e4",
            b"x",
            b"\xC2",
            b"\xBD",
            b"**",
        ];
        for _ in 0..64 * test_support::proptest_cases() {
            let mut line = Vec::new();
            for _ in 0..rng.below(8) {
                line.extend_from_slice(rng.pick::<&[u8]>(pieces));
            }
            let expected = line
                .split(is_blank)
                .any(|token| token.len() <= 8 && is_result(token));
            assert_eq!(
                has_result(&line),
                expected,
                "{:?}",
                String::from_utf8_lossy(&line)
            );
        }
    }

    #[test]
    fn line_bits_match_a_byte_by_byte_count() {
        let mut rng = Rng::new(0xb175);
        let alphabet = b"{}()[];%-*\r\n \tNe4x1.";
        for _ in 0..64 * test_support::proptest_cases() {
            let len = rng.below(70);
            let line: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.chance(50) {
                        *rng.pick(alphabet)
                    } else {
                        rng.next_u64() as u8
                    }
                })
                .collect();
            let expected = LineBits {
                stop: line.iter().any(|b| b"{();[%\r".contains(b)),
                dash_or_star: line.iter().any(|b| b"-*".contains(b)),
            };
            assert_eq!(LineBits::of(&line), expected, "{line:?}");
        }
    }

    #[test]
    fn bulk_path_leaves_unusual_tag_lines_to_the_tag_scan() {
        let lines = [
            "[A \"x\"] e4 ]",
            "[A \"x\"] 1-0 ]",
            "[A \"x\"]]",
            "[A \"]\"]",
            "[A \"x\"] [B \"y\"] e4 *",
            "[A \"x\"] e4",
            "  [A \"x\"]  ",
            "[A \"x\" e4 *",
            "[Result \"1-0\"] 1. e4 e5 1-0",
        ];
        for line in lines {
            for before in ["", "[Event \"x\"]\n", "1. e4 e5\n"] {
                let text = format!("{before}[Site \"y\"]\n{line}\n[Date \"z\"]\n\n1. d4 d5 *\n");
                assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
                let text =
                    format!("[Event \"x\"]\n\n1. e4 *\n\n{before}[Site \"y\"]\n{line}\n1. d4\n");
                assert_same(text.as_bytes(), 1 << 20, 1 << 16, &format!("{text:?}"));
            }
        }
    }
}
