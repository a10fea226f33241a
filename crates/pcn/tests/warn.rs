//! Workspace-only (excluded from the package): every document in testdata/pcn/warn is
//! accepted, with exactly the warnings of its `.expected` file (reader warnings, then
//! the comparison of the kept cache with the replay), one per line.
//! `PCN_BLESS=1` rewrites the `.expected` files from the current output.

mod common;
use common::testdata;

#[test]
fn every_document_with_a_bad_cache_is_read_with_its_expected_warnings() {
    let dir = testdata("warn");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "only {} documents", files.len());
    for f in &files {
        let (g, mut warnings) = pcn::from_slice_with_warnings(&std::fs::read(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: refused: {e}", f.display()));
        let end = pcn::replay(&g).unwrap();
        warnings.extend(pcn::check_cache(&g, &end));
        let got: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        if std::env::var_os("PCN_BLESS").is_some() {
            std::fs::write(f.with_extension("expected"), got.join("\n") + "\n").unwrap();
        }
        let expected = std::fs::read_to_string(f.with_extension("expected"))
            .unwrap_or_else(|_| panic!("{} has no .expected file", f.display()));
        let want: Vec<&str> = expected.lines().collect();
        assert_eq!(got, want, "{}", f.display());
    }
}
