//! Every malformed document in testdata/pcn/bad is rejected with its expected
//! `path: reason`.

mod common;
use common::testdata;

#[test]
fn every_bad_document_is_rejected_with_its_expected_error() {
    let dir = testdata("bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 30, "only {} bad documents", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let expected_path = f.with_extension("expected");
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("{} has no .expected file", f.display()));
        let bytes = std::fs::read(f).unwrap();
        match pcn::from_slice(&bytes) {
            Ok(_) => failures.push(format!("{}: accepted", f.display())),
            Err(e) => {
                if e.to_string() != expected.trim_end() {
                    failures.push(format!(
                        "{}:\n  expected {}\n  got      {}",
                        f.file_name().unwrap().to_string_lossy(),
                        expected.trim_end(),
                        e
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn very_deep_nesting_does_not_overflow_the_stack() {
    for depth in [200usize, 100_000] {
        let text = format!(
            "{{\"over?\":false,\"previous_moves\":[],\"starting_position\":{}{}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let e = pcn::from_str(&text).unwrap_err();
        assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
        // The same through the serde entry point.
        let e = serde_json::from_str::<pcn::Game>(&text).unwrap_err();
        assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
    }
}

#[test]
fn duplicate_keys_are_caught_through_serde_too() {
    let text = r#"{"over?":false,"over?":true,"starting_position":[null],"previous_moves":[]}"#;
    let e = serde_json::from_str::<pcn::Game>(text).unwrap_err();
    assert!(
        e.to_string().starts_with("$: duplicate key \"over?\""),
        "{e}"
    );
}

#[test]
fn the_error_carries_a_structured_path() {
    let text =
        r#"{"over?":false,"starting_position":[null,null],"previous_moves":[[[0,"shfit",1]]]}"#;
    let e = pcn::from_str(text).unwrap_err();
    use pcn::Segment::{Index, Key};
    assert_eq!(
        e.path.segments(),
        &[Key("previous_moves".into()), Index(0), Index(0), Index(1)]
    );
    assert_eq!(e.reason, pcn::Reason::UnknownVerb("shfit".into()));
}
