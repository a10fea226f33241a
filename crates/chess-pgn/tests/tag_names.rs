//! Tag names: roster spellings, duplicates (also differing in case or encoding only),
//! names that are not UTF-8, games with many tags. The builder's tag path (a name
//! filter and table, no decoding of ASCII names) is compared with a direct reading of
//! the rules (decode, canonicalise, scan the earlier names), on both the model path and
//! the checking path.

use chess_pgn::{GameBuilder, Pos, STR, Severity, Visitor};

/// The raw tag events the reader gives for a text.
#[derive(Default)]
struct Raw(Vec<(Vec<u8>, Vec<u8>, bool, Pos)>);

impl Visitor for Raw {
    type Output = Vec<(Vec<u8>, Vec<u8>, bool, Pos)>;
    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, at: Pos) {
        self.0.push((name.to_vec(), value.to_vec(), escaped, at));
    }
    fn end_game(&mut self) -> Self::Output {
        std::mem::take(&mut self.0)
    }
}

/// What the rules say the tags of a game become: the kept tags in order and the tag
/// diagnostics, read the plain way (every name decoded, every earlier name scanned).
fn reference(events: &[(Vec<u8>, Vec<u8>, bool, Pos)]) -> (Vec<(String, String)>, Vec<String>) {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut said = Vec::new();
    for (name, value, escaped, _) in events {
        let mut name = chess_pgn::decode(name).into_owned();
        let mut value = chess_pgn::tag_value(value, *escaped);
        if value.contains(['\t', '\n', '\r', '\x0b', '\x0c']) {
            value = value.replace(['\t', '\n', '\r', '\x0b', '\x0c'], " ");
            said.push(format!("tab or line break in tag {name} read as a space"));
        }
        if name.eq_ignore_ascii_case("FEN") || name.eq_ignore_ascii_case("SetUp") {
            continue;
        }
        if let Some(canon) = STR.iter().find(|s| s.eq_ignore_ascii_case(&name))
            && *canon != name
        {
            said.push(format!("tag {name} read as {canon}"));
            name = canon.to_string();
        }
        match tags.iter().position(|(n, _)| *n == name) {
            Some(i) => {
                let old = std::mem::replace(&mut tags[i].1, value);
                tags.push((format!("XDuplicate{name}"), old));
                said.push(format!(
                    "duplicate tag {name}; earlier value kept as XDuplicate{name}"
                ));
            }
            None => tags.push((name, value)),
        }
    }
    (tags, said)
}

fn is_tag_message(m: &str) -> bool {
    m.starts_with("tab or line break in tag")
        || (m.starts_with("tag ") && m.contains(" read as "))
        || m.starts_with("duplicate tag ")
}

fn compare(what: &str, pgn: &[u8]) {
    let Some(events) = chess_pgn::PgnReader::new(pgn)
        .read_game(&mut Raw::default())
        .unwrap()
    else {
        return; // no game at all
    };
    let (tags, said) = reference(&events);
    let read = |b: &mut GameBuilder| {
        chess_pgn::PgnReader::new(pgn)
            .read_game(b)
            .unwrap()
            .unwrap()
    };
    let model = read(&mut GameBuilder::default());
    let checked = read(&mut GameBuilder::check_only());
    if let (Err(a), Err(b)) = (&model, &checked) {
        // A game refused (SetUp "1" without a FEN…) is refused alike.
        assert_eq!(a.to_string(), b.to_string(), "{what}");
        return;
    }
    let diags = |g: &Result<chess_pgn::Game, chess_pgn::GameError>| match g {
        Ok(g) => g.diagnostics.clone(),
        Err(e) => panic!("{what}: only one path refused the game: {e}"),
    };
    assert_eq!(diags(&model), diags(&checked), "{what}");
    let got: Vec<String> = diags(&model)
        .into_iter()
        .filter(|d| d.severity == Severity::Warning && is_tag_message(&d.message))
        .map(|d| d.message)
        .collect();
    assert_eq!(got, said, "{what}");
    assert_eq!(model.as_ref().unwrap().tags, tags, "{what}");
}

#[test]
fn duplicates_roster_case_and_encodings() {
    let cases: &[&[u8]] = &[
        b"[Event \"a\"]\n[event \"b\"]\n[EVENT \"c\"]\n\n*",
        b"[Foo \"a\"]\n[foo \"b\"]\n[Foo \"c\"]\n[FOO \"d\"]\n\n*",
        b"[Foo \"a\"]\n[Foo \"b\"]\n[XDuplicateFoo \"c\"]\n[Foo \"d\"]\n\n*",
        b"[XDuplicateFoo \"a\"]\n[Foo \"b\"]\n[Foo \"c\"]\n\n*",
        b"[result \"1-0\"]\n[RESULT \"0-1\"]\n[Result \"*\"]\n\n*",
        b"[result \"1-0\"]\n\n*",
        b"[Result \"1-0\"]\n[XDuplicateResult \"0-1\"]\n[Result \"0-1\"]\n\n0-1",
        b"[site \"x\"]\n[Date \"y\"]\n[date \"z\"]\n[rOUND \"1\"]\n[white \"w\"]\n[BLACK \"b\"]\n\n*",
        b"[Sitex \"x\"]\n[Sit \"x\"]\n[Evens \"x\"]\n[Whitf \"x\"]\n[Resulu \"x\"]\n\n*",
        // Windows-1252 `é` and UTF-8 `é`: the same name once decoded.
        b"[Ren\xe9 \"a\"]\n[Ren\xc3\xa9 \"b\"]\n[REN\xc3\xa9 \"c\"]\n\n*",
        b"[N\xff\xfe \"a\"]\n[N\xff\xfe \"b\"]\n\n*",
        b"[\xc9vent \"a\"]\n[Event \"b\"]\n\n*",
        b"[Variant \"Standard\"]\n[variant \"chess\"]\n[VARIANT \"\"]\n\n*",
        b"[SetUp \"0\"]\n[setup \"0\"]\n[Fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n*",
        b"[Annotator \"a\tb\"]\n[Annotator \"a\x0bb\"]\n[White \"x\x0c\"]\n[Long \"12345678901234567\r89\"]\n\n*",
        b"[Event \"x \\\\\t\\\"y\"]\n[Event \"\\\"\"]\n\n*",
        b"[A \"1\"]\n[B \"2\"]\n[A \"3\"]\n[XDuplicateA \"4\"]\n[XDuplicateXDuplicateA \"5\"]\n[A \"6\"]\n[XDuplicateA \"7\"]\n\n*",
    ];
    for (i, c) in cases.iter().enumerate() {
        compare(&format!("case {i}"), c);
    }
}

#[test]
fn games_with_many_tags() {
    // Past the table's small size the names go to a hash set: duplicates are still
    // found, among hundreds of names, in any case.
    // Names longer than 16 bytes are kept apart from the short ones: mixed in, they
    // count towards the same limit.
    let name = |i: usize, long: usize| {
        if long > 0 && i.is_multiple_of(long) {
            format!("ALongTagNameNumber{i}")
        } else {
            format!("Tag{i}")
        }
    };
    for long in [0, 1, 3] {
        for n in [31, 32, 33, 34, 100, 300] {
            let mut pgn = Vec::new();
            for i in 0..n {
                pgn.extend(format!("[{} \"v{i}\"]\n", name(i, long)).bytes());
            }
            for i in (0..n).step_by(7) {
                let t = name(i, long);
                pgn.extend(format!("[{t} \"again\"]\n[{} \"case\"]\n", t.to_lowercase()).bytes());
            }
            pgn.extend(b"[Event \"e\"]\n[Tag0 \"third\"]\n[XDuplicateTag0 \"x\"]\n\n*");
            compare(&format!("{n} tags, long every {long}"), &pgn);
        }
    }
}

#[test]
fn random_tag_sections() {
    const NAMES: &[&[u8]] = &[
        b"Event",
        b"event",
        b"EVENT",
        b"Site",
        b"SITE",
        b"Date",
        b"date",
        b"Round",
        b"White",
        b"white",
        b"Black",
        b"BLACK",
        b"Result",
        b"result",
        b"FEN",
        b"fen",
        b"SetUp",
        b"setup",
        b"Variant",
        b"variant",
        b"ECO",
        b"eco",
        b"WhiteElo",
        b"BlackElo",
        b"Opening",
        b"A",
        b"a",
        b"XDuplicateEvent",
        b"XDuplicateA",
        b"XDuplicatea",
        b"Ren\xe9",
        b"Ren\xc3\xa9",
        b"\xc9vent",
        b"Sitf",
        b"Dste",
        b"T_1",
        b"WhiteFideId",
        b"Annotator",
        // Names alike but for one byte, at every length class of the name table.
        b"ab",
        b"aB",
        b"abc",
        b"axc",
        b"Abc",
        b"abcd",
        b"abce",
        b"WhiteXElo",
        b"WhiteYElo",
        b"0123456789abcdef",
        b"0123456789abcdeF",
        b"0123456789abcdefg",
        b"0123456789abcdefh",
        b"Result\xe9",
        b"R\xe9sult",
        b"Evenu",
        b"EVENT1",
    ];
    const VALUES: &[&[u8]] = &[
        b"",
        b"1-0",
        b"0-1",
        b"*",
        b"1/2-1/2",
        b"x",
        b"a\tb",
        b"long value with spaces",
        b"12345678\n",
        b"\\\"q\\\"",
        b"chess",
        b"1",
        b"0",
        b"caf\xe9",
    ];
    let mut rng = test_support::Rng::new(0x7a95_11ff);
    for case in 0..test_support::proptest_cases() * 4 {
        let mut pgn = Vec::new();
        let fen = rng.chance(10);
        for _ in 0..rng.below(60) {
            let name = rng.pick_cloned(NAMES);
            if name.eq_ignore_ascii_case(b"FEN") && !fen {
                continue;
            }
            let value: &[u8] = if name.eq_ignore_ascii_case(b"FEN") {
                b"4k3/8/8/8/8/8/8/4K3 w - - 0 1"
            } else if name.eq_ignore_ascii_case(b"SetUp") {
                if fen { b"1" } else { b"0" }
            } else if name.eq_ignore_ascii_case(b"Variant") {
                b"chess"
            } else {
                rng.pick_cloned(VALUES)
            };
            pgn.push(b'[');
            pgn.extend_from_slice(name);
            pgn.extend_from_slice(b" \"");
            pgn.extend_from_slice(value);
            pgn.extend_from_slice(b"\"]\n");
        }
        pgn.extend_from_slice(b"\n");
        let marker: &[&[u8]] = &[b"*", b"1-0", b"0-1", b""];
        pgn.extend_from_slice(rng.pick_cloned(marker));
        compare(
            &format!("case {case}: {}", String::from_utf8_lossy(&pgn)),
            &pgn,
        );
    }
}
