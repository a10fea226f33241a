//! Property tests: random legal games (from `cescacs-rules`' generator, see `random/`)
//! survive write → read in every form of the writer: canonical, FAN, minimal and a
//! random `Redefine` letter set; the written text replays to the generator's position.

mod random;

use ctl_pgn::*;
use proptest::prelude::*;
use random::{Generated, Rng, Spec, generate};

fn spec() -> impl Strategy<Value = Spec> {
    (
        any::<u64>(),
        prop_oneof![2 => Just(0usize), 1 => 1usize..60],
        0usize..80,
        any::<bool>(),
    )
        .prop_map(|(seed, prefix, plies, decorate)| Spec {
            seed,
            prefix,
            plies,
            decorate,
        })
}

fn read(text: &str) -> Result<Game, TestCaseError> {
    read_game(text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))
}

/// Replays `text` (one record): no errors, every main-line move played, and the final
/// position is the generator's.
fn replays_to(text: &str, generated: &Generated) -> Result<(), TestCaseError> {
    let recs = replay("gen", text, Options::default());
    prop_assert_eq!(recs.len(), 1, "{}", text);
    let r = &recs[0];
    let errors: Vec<String> = r
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(ToString::to_string)
        .collect();
    prop_assert!(errors.is_empty(), "{:?}\n{}", errors, text);
    prop_assert!(r.complete, "{}", text);
    prop_assert_eq!(r.plies, generated.moves.len(), "{}", text);
    prop_assert!(
        r.position.as_ref() == Some(&generated.end),
        "final position differs\n{}",
        text
    );
    Ok(())
}

/// The tags with the record's letters undone: no `Redefine`, the TLPD in standard letters.
fn standard_tags(g: &Game) -> Vec<(String, String)> {
    let letters = g.letters().unwrap();
    g.tags
        .iter()
        .filter(|t| t.name != "Redefine")
        .map(|t| {
            let v = if t.name == "TLPD" {
                letters.tlpd_to_standard(&t.value)
            } else {
                t.value.clone()
            };
            (t.name.clone(), v)
        })
        .collect()
}

/// A random `Redefine` value with at least one alternative letter.
fn random_redefine(seed: u64) -> String {
    let mut rng = Rng::new(seed ^ 0x5EED);
    let mut items = Vec::new();
    for k in PieceKind::ALL {
        let alts = k.redefine_alternatives();
        if !alts.is_empty() && (items.is_empty() || rng.chance(50)) {
            items.push(format!("{}@{}", rng.pick(alts), k.standard_letter()));
        }
    }
    items.join(", ")
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: test_support::proptest_cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The generator's text reads and replays to the position it reached.
    #[test]
    fn generated_records_replay(spec in spec()) {
        let g = generate(spec);
        replays_to(&g.text, &g)?;
    }

    /// Canonical: read(write(g)) is g's canonical model, writing is idempotent, and the
    /// written text replays to the same position.
    #[test]
    fn canonical_form_round_trips(spec in spec()) {
        let generated = generate(spec);
        let g = read(&generated.text)?;
        let text = write_game(&g, Form::Canonical);
        let back = read(&text)?;
        prop_assert_eq!(&back, &g.canonical(), "{}", text);
        prop_assert_eq!(write_game(&back, Form::Canonical), text.clone());
        replays_to(&text, &generated)?;
    }

    /// FAN: glyphs in movetext and TLPD; read back, the same moves, comments and
    /// variations, and the same tags once the letters are undone.
    #[test]
    fn fan_form_round_trips(spec in spec()) {
        let generated = generate(spec);
        let g = read(&generated.text)?;
        let canon = g.canonical();
        let text = write_game(&g, Form::Fan);
        let back = read(&text)?;
        prop_assert!(back.letters().unwrap().is_fan(), "{}", text);
        prop_assert_eq!(&back.main, &canon.main, "{}", text);
        prop_assert_eq!(back.result, canon.result);
        prop_assert_eq!(&back.final_comments, &canon.final_comments);
        prop_assert_eq!(standard_tags(&back), standard_tags(&canon), "{}", text);
        prop_assert_eq!(write_game(&back, Form::Fan), text.clone());
        prop_assert_eq!(write_game(&back, Form::Canonical), write_game(&g, Form::Fan));
        replays_to(&text, &generated)?;
    }

    /// Minimal: the main line with its move annotations, standard letters, no comments
    /// and no variations.
    #[test]
    fn minimal_form_keeps_the_main_line(spec in spec()) {
        let generated = generate(spec);
        let g = read(&generated.text)?;
        let canon = g.canonical();
        let text = write_game(&g, Form::Minimal);
        let movetext: Vec<&str> = text.lines().filter(|l| !l.starts_with('[')).collect();
        prop_assert!(
            movetext
                .iter()
                .all(|l| !l.starts_with(['.', '{', '(']) && !l.contains('{')),
            "{}",
            text
        );
        let back = read(&text)?;
        let main: Vec<Item> = canon
            .main
            .items
            .iter()
            .filter(|i| matches!(i, Item::Move(_)))
            .cloned()
            .collect();
        prop_assert_eq!(&back.main.items, &main, "{}", text);
        prop_assert_eq!(back.result, canon.result);
        prop_assert!(back.final_comments.is_empty());
        prop_assert_eq!(standard_tags(&back), standard_tags(&canon));
        prop_assert_eq!(write_game(&back, Form::Minimal), text.clone());
        replays_to(&text, &generated)?;
    }

    /// A random `Redefine` set: the canonical form writes the record's letters (movetext
    /// and TLPD) and reads back to the same model; the minimal form is the standard one.
    #[test]
    fn redefined_letters_round_trip(spec in spec()) {
        let generated = generate(spec);
        let plain = read(&generated.text)?;
        let value = random_redefine(spec.seed);
        let letters = LetterTable::from_redefine(&value).unwrap();
        let mut g = plain.clone();
        for t in &mut g.tags {
            if t.name == "TLPD" {
                t.value = letters.tlpd_from_standard(&t.value);
            }
        }
        g.tags.push(Tag { name: "Redefine".into(), value: value.clone(), span: Span::default() });
        let text = write_game(&g, Form::Canonical);
        prop_assert!(text.contains(&format!("[Redefine \"{value}\"]")), "{}", text);
        let back = read(&text)?;
        prop_assert_eq!(&back, &g.canonical(), "{}", text);
        prop_assert_eq!(write_game(&back, Form::Canonical), text.clone());
        prop_assert_eq!(write_game(&back, Form::Minimal), write_game(&plain, Form::Minimal));
        replays_to(&text, &generated)?;
    }

    /// Markers recomputed from the positions by the `write` entry point equal the ones
    /// `cescacs-rules` wrote into the generated record, in its own style.
    #[test]
    fn recomputed_markers_equal_the_generators(spec in spec()) {
        let generated = generate(spec);
        let g = read(&generated.text)?;
        let markers = if generated.rich { Markers::Rich } else { Markers::Seed };
        let out = ctl_pgn::write("gen", &generated.text, Form::Canonical, markers)
            .into_result()
            .map_err(|e| TestCaseError::fail(format!("{e:?}\n{}", generated.text)))?;
        prop_assert_eq!(out, write_game(&g, Form::Canonical));
    }
}

/// Regression (found by `canonical_form_round_trips`): a SITE automatic comment whose
/// text starts with a digit, `{:1...}`, was written `{#1...}`, which reads back as a
/// general comment holding the move reference `#1`; `{:W: x}` became `{#W: x}`, an
/// automatic comment on White.
#[test]
fn automatic_comments_keep_their_kind_and_text() {
    for src in [
        "1. E7-E13\n{:1. F8-F12 was better}\n*\n",
        "1. E7-E13\n{  :.5}\n*\n",
        "1. E7-E13\n{:W: not a White comment}\n*\n",
        "1. E7-E13\n{:N:x}\n*\n",
    ] {
        let g = read_game(src).unwrap();
        let Some(Item::Comment(c)) = g.main.items.last() else {
            panic!("{src}: {:?}", g.main.items)
        };
        assert_eq!(c.kind, CommentKind::Auto, "{src}");
        for form in [Form::Canonical, Form::Fan] {
            let text = write_game(&g, form);
            let back = read_game(&text).unwrap();
            assert_eq!(
                back.main.items.last(),
                Some(&Item::Comment(c.clone())),
                "{text}"
            );
        }
    }
}
