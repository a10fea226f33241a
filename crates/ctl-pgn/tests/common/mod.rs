#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/ctl-pgn")
}

/// `shared/` beside the work tree (CI clones main with shared/ beside it), if present.
pub fn shared() -> Option<PathBuf> {
    let candidates = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from("/work/shared"),
    ];
    let found = candidates.into_iter().find(|p| p.join("oracle").is_dir());
    if found.is_none() {
        println!("notice: shared/ not found; tests on the full shared corpus are skipped");
    }
    found
}

pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.to_string_lossy().ends_with(ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
