//! Helpers shared by the workspace's own tests: a seeded random source for the random
//! game generators, the property-test case count and the paths of the reference data.
//! Not published.
// Test helpers are read where they are called; documenting each is noise here.
#![allow(missing_docs)]

use std::path::{Path, PathBuf};

/// The workspace root (this crate lives in `crates/test-support`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `testdata/` of the workspace.
pub fn testdata() -> PathBuf {
    workspace_root().join("testdata")
}

/// The shared reference folder (`../shared` beside the workspace: spec, oracle, corpus),
/// or the folder named by `CESCACS_SHARED`.
///
/// Tests that need it fail loudly when it is missing: a test that skips silently would
/// report green on a machine that checked nothing.
pub fn shared_dir() -> PathBuf {
    let dir = std::env::var_os("CESCACS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared"));
    assert!(
        dir.join("oracle").is_dir() && dir.join("corpus").is_dir(),
        "the shared reference data is missing: expected {} (with oracle/ and corpus/) beside \
         the workspace, or CESCACS_SHARED naming it",
        dir.display()
    );
    dir
}

/// Every file below `dir` (recursively) whose extension is `ext` (without the dot),
/// sorted by path so that test output is stable. Panics when `dir` cannot be read.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| {
                e.unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                    .path()
            })
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, ext, out);
            } else if path.extension().is_some_and(|e| e == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, ext, &mut out);
    out
}

/// A path below [`shared_dir`], which must exist.
pub fn shared(relative: &str) -> PathBuf {
    let path = shared_dir().join(relative);
    assert!(
        path.exists(),
        "required shared reference file missing: {}",
        path.display()
    );
    path
}

/// xorshift64: a property test draws one seed, everything else follows from it, so a
/// failing case is reproduced from the seed alone.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Spread small seeds; `| 1` because xorshift is stuck at zero.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }
    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
    /// One element of a non-empty slice, cloned.
    pub fn pick_cloned<T: Clone>(&mut self, v: &[T]) -> T {
        self.pick(v).clone()
    }
}

/// Cases per property: 64 by default so `cargo test` stays fast, or `PROPTEST_CASES`
/// for a longer run.
pub fn proptest_cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
}

/// Every byte string of length 0 to `max_len` made of one of `fills` repeated, and each
/// of those with one byte replaced by each of the 256 values: for comparing a
/// word-at-a-time byte test with its byte-by-byte definition at every place and across
/// word borders. `f` gets each string in turn.
pub fn single_byte_variants(max_len: usize, fills: &[u8], mut f: impl FnMut(&[u8])) {
    for len in 0..=max_len {
        for &fill in fills {
            let mut v = vec![fill; len];
            f(&v);
            for at in 0..len {
                for x in 0..=255u8 {
                    v[at] = x;
                    f(&v);
                }
                v[at] = fill;
            }
        }
    }
}

/// Makes a named pipe at `path` (with `mkfifo` of coreutils; a test that needs one fails
/// loudly without it).
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo (coreutils) is needed by this test");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_and_bounds_hold() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
            let n = a.below(5);
            assert_eq!(n, b.below(5));
            assert!(n < 5);
        }
        assert_eq!(Rng::new(0).below(0), 0);
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
