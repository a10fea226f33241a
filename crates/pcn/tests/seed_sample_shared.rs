//! Workspace-only (excluded from the package): the seed sample as it lies in
//! `../shared/spec`, read through `test_support::shared`, must still be the copy in
//! tests/data and read the same way.

#[test]
#[ignore = "needs ../shared: cargo xtask corpus-check runs it"]
fn the_shared_sample_is_the_tested_copy_and_reads_with_its_cache_warning() {
    let path = test_support::shared("spec/pcn-seed-sample.json");
    let shared = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(
        shared,
        include_bytes!("data/seed-sample.pcn.json"),
        "{} changed: refresh crates/pcn/tests/data/seed-sample.pcn.json",
        path.display()
    );
    let (g, warnings) = pcn::from_slice_with_warnings(&shared).unwrap();
    assert_eq!(warnings.len(), 1);
    assert_eq!(
        warnings[0].path.to_string(),
        "...cache.current_position[4][0]"
    );
    let end = pcn::replay(&g).unwrap();
    assert_eq!(pcn::check_cache(&g, &end).len(), 4);
}
