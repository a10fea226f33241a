//! `select` and `convert` options of issue 32 part A: `--eco`, `--plycount`,
//! `--duplicates`, `--rejected`, `--split N`, `--split-by`, in every game they apply to.
//! Inputs are the repository's `testdata/` (provenance there) and games written here;
//! no `../shared`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cescacs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cescacs"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn ok(args: &[&str]) -> String {
    let out = cescacs(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cescacs-i32a-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_dir_all(&p);
    let _ = std::fs::remove_file(&p);
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn testdata(rel: &str) -> String {
    s(&test_support::testdata().join(rel)).to_string()
}

/// One file of each game: TWIC chess (232 games), xiangqi (15), C'escacs (1).
fn inputs() -> [String; 3] {
    [
        testdata("chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn"),
        testdata("xiangqi/real/wukong-xiangqi/bulk_games_uci.pgn"),
        testdata("cescacs/2020-07-20.ctl-pgn"),
    ]
}

fn count(file: &str) -> usize {
    ok(&["select", "--count", file]).trim().parse().unwrap()
}

fn tag<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("[{name} \"");
    text.lines()
        .filter_map(|l| l.strip_prefix(&head)?.strip_suffix("\"]"))
        .collect()
}

#[test]
fn eco_names_the_last_position_of_the_table_and_a_range_selects() {
    // Expected values are the lines of data/chess-openings.tsv that name these
    // positions (B90 is reached here by another move order than the table's).
    let pgn = scratch("eco.pgn");
    std::fs::write(
        &pgn,
        "[White \"najdorf\"]\n\n1. Nf3 c5 2. e4 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. h3 *\n\n\
         [White \"nimzo\"]\n[ECO \"A00\"]\n[Variation \"old\"]\n\n1. c4 e6 2. Nc3 Nf6 3. d4 Bb4 *\n\n\
         [White \"none\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kb1 *\n",
    )
    .unwrap();
    let out = ok(&["select", s(&pgn), "--eco"]);
    assert_eq!(tag(&out, "ECO"), ["B90", "E20"]);
    assert_eq!(
        tag(&out, "Opening"),
        ["Sicilian Defense", "Nimzo-Indian Defense"]
    );
    assert_eq!(
        tag(&out, "Variation"),
        ["Najdorf Variation, English Attack"]
    );
    // Converted output carries the tags too.
    let out = ok(&["convert", "--to", "pgn", "--eco", s(&pgn)]);
    assert_eq!(tag(&out, "ECO"), ["B90", "E20"]);
    // A range selects by the opening the position gives, not by the old tag.
    let out = ok(&["select", "--eco", "E00-E99", s(&pgn)]);
    assert_eq!(tag(&out, "White"), ["nimzo"]);
    assert_eq!(
        ok(&["select", "--count", "--eco", "A", s(&pgn)]).trim(),
        "0"
    );
    let bad = cescacs(&["select", "--eco", "F00", s(&pgn)]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn eco_on_xiangqi_and_cescacs_adds_nothing_and_a_range_selects_nothing() {
    for input in &inputs()[1..] {
        let out = ok(&["select", input, "--eco"]);
        assert!(tag(&out, "ECO").is_empty(), "{input}");
        assert_eq!(
            ok(&["select", "--count", "--eco", "A-E", input]).trim(),
            "0"
        );
    }
}

#[test]
fn plycount_in_all_three_games() {
    let games = [
        (
            "chess.pgn",
            "[White \"a\"]\n[PlyCount \"99\"]\n\n1. e4 e5 2. Nf3 *\n",
            "3",
        ),
        ("xq.pgn", "[Red \"a\"]\n\n1. h2e2 h9g7 *\n", "2"),
        (
            "c.ctl-pgn",
            "[Variant \"C'escacs\"]\n\n1. E7-E9, E21-E19\n2. F8-F10\n*\n",
            "3",
        ),
    ];
    for (name, text, plies) in games {
        let f = scratch(name);
        std::fs::write(&f, text).unwrap();
        let out = ok(&["select", s(&f), "--plycount"]);
        assert_eq!(tag(&out, "PlyCount"), [plies], "{name}: {out}");
        let to = if name.ends_with(".ctl-pgn") {
            "ctl-pgn"
        } else if name == "xq.pgn" {
            "xiangqi-pgn"
        } else {
            "pgn"
        };
        let out = ok(&["convert", "--to", to, "--plycount", s(&f)]);
        assert_eq!(tag(&out, "PlyCount"), [plies], "{name} converted: {out}");
    }
}

#[test]
fn duplicates_and_rejected_lose_no_game_in_all_three_games() {
    for input in inputs() {
        let total = count(&input);
        // The file and a copy: every game of the copy is a duplicate.
        let (kept, dups, copy) = (scratch("kept.pgn"), scratch("dups.pgn"), scratch("copy"));
        std::fs::create_dir_all(&copy).unwrap();
        let copy = copy.join(Path::new(&input).file_name().unwrap());
        std::fs::copy(&input, &copy).unwrap();
        ok(&[
            "select",
            &input,
            s(&copy),
            "--duplicates",
            s(&dups),
            "-o",
            s(&kept),
        ]);
        let (k, d) = (count(s(&kept)), count(s(&dups)));
        assert_eq!(k + d, 2 * total, "{input}");
        assert!(d >= total, "{input}: {d} duplicates of {total}");
        // Selected and rejected together are the whole input, in the same bytes.
        let (sel, rej) = (scratch("sel.pgn"), scratch("rej.pgn"));
        ok(&[
            "select",
            &input,
            "--min-plies",
            "60",
            "--rejected",
            s(&rej),
            "-o",
            s(&sel),
        ]);
        let (a, b) = (count(s(&sel)), count(s(&rej)));
        assert_eq!(a + b, total, "{input}");
        let bytes = |p: &Path| {
            std::fs::read(p)
                .unwrap()
                .iter()
                .filter(|b| !b.is_ascii_whitespace())
                .count()
        };
        let original = std::fs::read(&input)
            .unwrap()
            .iter()
            .filter(|b| !b.is_ascii_whitespace())
            .count();
        assert_eq!(bytes(&sel) + bytes(&rej), original, "{input}");
    }
}

#[test]
fn bad_games_go_to_rejected() {
    let f = scratch("bad.pgn");
    std::fs::write(
        &f,
        "[White \"a\"]\n\n1. e4 e5 *\n\n[White \"b\"]\n\n1. e4 e5 2. Ke3 *\n",
    )
    .unwrap();
    let rej = scratch("bad-rej.pgn");
    let out = cescacs(&["select", s(&f), "--min-plies", "1", "--rejected", s(&rej)]);
    assert_eq!(out.status.code(), Some(1), "a bad game is still reported");
    let rejected = std::fs::read_to_string(&rej).unwrap();
    assert_eq!(tag(&rejected, "White"), ["b"]);
}

#[test]
fn split_files_hold_the_selected_games_in_order_in_all_three_games() {
    for input in inputs() {
        let whole = ok(&["select", &input]);
        let dir = scratch("split");
        ok(&[
            "select",
            &input,
            "--split",
            "7",
            "-o",
            &format!("{}/", s(&dir)),
        ]);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        let n =
            |p: &PathBuf| -> usize { p.file_stem().unwrap().to_str().unwrap().parse().unwrap() };
        files.sort_by_key(n);
        let total = count(&input);
        assert_eq!(files.len(), total.div_ceil(7), "{input}");
        let mut joined = String::new();
        for f in &files {
            let c = count(s(f));
            assert!(c <= 7 && c > 0);
            let text = std::fs::read_to_string(f).unwrap();
            if !joined.is_empty() && !joined.ends_with("\n\n") {
                joined.push('\n');
            }
            joined.push_str(&text);
        }
        assert_eq!(joined.trim_end(), whole.trim_end(), "{input}");
    }
}

#[test]
fn split_by_eco_and_by_tag() {
    let twic = &inputs()[0];
    let dir = scratch("by-eco");
    ok(&["select", twic, "--eco", "--split-by", "eco", "-o", s(&dir)]);
    let mut games = 0;
    for f in std::fs::read_dir(&dir).unwrap() {
        let f = f.unwrap().path();
        let text = std::fs::read_to_string(&f).unwrap();
        let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
        let ecos = tag(&text, "ECO");
        assert!(
            !ecos.is_empty() && ecos.iter().all(|e| *e == stem),
            "{stem}: {ecos:?}"
        );
        games += ecos.len();
    }
    assert_eq!(games, 232);
    // By tag, in xiangqi: one file per Red player.
    let xq = &inputs()[1];
    let dir = scratch("by-red");
    ok(&["select", xq, "--split-by", "Red", "-o", s(&dir)]);
    let total: usize = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| count(s(&f.unwrap().path())))
        .sum();
    assert_eq!(total, count(xq));
}

#[test]
fn split_refuses_a_directory_holding_an_input_and_keeps_modes() {
    let dir = scratch("holds-input");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.pgn");
    std::fs::write(&input, "[White \"a\"]\n\n1. e4 *\n").unwrap();
    let out = cescacs(&["select", s(&input), "--split", "1", "-o", s(&dir)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "nothing written"
    );
    let out = cescacs(&["select", s(&input), "--split", "1"]);
    assert_eq!(out.status.code(), Some(2), "a split needs -o DIR/");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let target = scratch("modes");
        std::fs::create_dir_all(&target).unwrap();
        let old = target.join("1.pgn");
        std::fs::write(&old, "old").unwrap();
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o600)).unwrap();
        ok(&["select", s(&input), "--split", "1", "-o", s(&target)]);
        let meta = std::fs::metadata(&old).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert!(std::fs::read_to_string(&old).unwrap().contains("1. e4"));
    }
    let same = scratch("same.pgn");
    let out = cescacs(&["select", s(&input), "--rejected", s(&input)]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--rejected over the input is refused"
    );
    let out = cescacs(&[
        "select",
        s(&input),
        "--duplicates",
        s(&same),
        "-o",
        s(&same),
    ]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--duplicates over the output is refused"
    );
}

#[test]
fn hash_codes_in_all_three_games_follow_the_main_line_only() {
    let games = [
        (
            "h.pgn",
            "[White \"a\"]\n\n1. e4 e5 2. Ng1f3 {c} (2. d4) *\n\n[White \"b\"]\n\n1. e2e4 e7e5 2. Nf3 *\n\n[White \"c\"]\n\n1. e4 e5 *\n",
            "pgn",
        ),
        (
            "h-xq.pgn",
            "[Red \"a\"]\n\n1. h2e2 h9g7 *\n\n[Red \"b\"]\n\n1. C2.5 H8+7 *\n\n[Red \"c\"]\n\n1. h2e2 *\n",
            "xiangqi-pgn",
        ),
        (
            "h.ctl-pgn",
            "[Variant \"C'escacs\"]\n[Event \"a\"]\n\n1. E7-E9, E21-E19\n*\n\n[Variant \"C'escacs\"]\n[Event \"b\"]\n\n1. E7-E9 {c}, E21-E19\n*\n\n[Variant \"C'escacs\"]\n[Event \"c\"]\n\n1. E7-E9\n*\n",
            "ctl-pgn",
        ),
    ];
    for (name, text, to) in games {
        let f = scratch(name);
        std::fs::write(&f, text).unwrap();
        for out in [
            ok(&["select", s(&f), "--hash"]),
            ok(&["convert", "--to", to, "--hash", s(&f)]),
        ] {
            let h = tag(&out, "HashCode");
            assert_eq!(h.len(), 3, "{name}: {out}");
            assert!(
                h.iter()
                    .all(|v| v.len() == 16 && v.bytes().all(|b| b.is_ascii_hexdigit()))
            );
            assert_eq!(h[0], h[1], "{name}: same moves, another spelling");
            assert_ne!(h[0], h[2], "{name}: other moves");
        }
    }
}
