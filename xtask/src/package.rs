//! `cargo xtask package-check`: every publishable crate builds from its `.crate` alone.
//!
//! `cargo package --no-verify` writes each archive; the archives are unpacked side by
//! side into a scratch workspace whose `[patch.crates-io]` points every crate of ours at
//! its unpacked copy (the packaged manifests name our crates by version, as crates.io
//! would serve them). Building that workspace proves that no package reaches outside
//! itself (a grammar, a `testdata/` file, a `../` path), which `cargo package`'s own
//! verification cannot show before the lower crates are on crates.io.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The top-level grammar (the normative file) and the crate's copy that `cargo package`
/// ships; pest_derive reads the copy.
pub const GRAMMAR: &str = "grammar/ctl-pgn.pest";
/// See [`GRAMMAR`].
pub const GRAMMAR_COPY: &str = "crates/ctl-pgn/src/ctl-pgn.pest";

/// Fails unless the crate's grammar copy is byte-identical to the normative file.
pub fn check_grammar_copy(root: &Path) -> Result<(), String> {
    let read = |p: &str| std::fs::read(root.join(p)).map_err(|e| format!("{p}: {e}"));
    if read(GRAMMAR)? != read(GRAMMAR_COPY)? {
        return Err(format!(
            "{GRAMMAR_COPY} differs from {GRAMMAR} (the normative grammar): \
             run `cp {GRAMMAR} {GRAMMAR_COPY}`"
        ));
    }
    Ok(())
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// The publishable crates in publish order, from `scripts/publish-order.py` (the one
/// place that order is computed).
fn publish_order(root: &Path) -> Result<Vec<String>, String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .arg("scripts/publish-order.py")
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "scripts/publish-order.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let order: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    if order.is_empty() {
        return Err("scripts/publish-order.py printed no crate".into());
    }
    Ok(order)
}

/// The `[profile.*]` tables of the root manifest, so that the scratch build reuses the
/// third-party artifacts already in the target directory.
fn profiles(root_manifest: &str) -> String {
    let mut out = String::new();
    let mut keep = false;
    for line in root_manifest.lines() {
        if line.starts_with('[') {
            keep = line.starts_with("[profile.");
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn target_dir(root: &Path) -> PathBuf {
    let t = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    if t.is_absolute() { t } else { root.join(t) }
}

/// `cargo xtask package-check`.
pub fn run_check() -> Result<bool, String> {
    let root = crate::root();
    check_grammar_copy(&root)?;
    let order = publish_order(&root)?;
    let version = env!("CARGO_PKG_VERSION");
    let target = target_dir(&root);
    println!("== packaging {} crates: {}", order.len(), order.join(", "));
    let mut package = cargo();
    // --allow-dirty: the check is about what a package contains, and a developer runs
    // it before committing; CI runs it in a clean clone anyway.
    package
        .args(["package", "--no-verify", "--allow-dirty", "--locked"])
        .current_dir(&root);
    for name in &order {
        package.args(["-p", name]);
    }
    run(&mut package, "cargo package")?;

    let scratch = target.join("package-check");
    if scratch.exists() {
        std::fs::remove_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    }
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let mut members = Vec::new();
    let mut patch = String::new();
    for name in &order {
        let archive = target
            .join("package")
            .join(format!("{name}-{version}.crate"));
        if !archive.is_file() {
            return Err(format!("{} was not written", archive.display()));
        }
        run(
            Command::new("tar")
                .arg("xzf")
                .arg(&archive)
                .arg("-C")
                .arg(&scratch),
            &format!("tar xzf {}", archive.display()),
        )?;
        let dir = format!("{name}-{version}");
        patch.push_str(&format!("{name} = {{ path = \"{dir}\" }}\n"));
        members.push(format!("\"{dir}\""));
    }
    let root_manifest =
        std::fs::read_to_string(root.join("Cargo.toml")).map_err(|e| format!("Cargo.toml: {e}"))?;
    let manifest = format!(
        "# Written by `cargo xtask package-check`: the unpacked packages, nothing else.\n\
         [workspace]\nresolver = \"3\"\nmembers = [{}]\n\n[patch.crates-io]\n{patch}\n{}",
        members.join(", "),
        profiles(&root_manifest)
    );
    std::fs::write(scratch.join("Cargo.toml"), manifest)
        .map_err(|e| format!("{}: {e}", scratch.display()))?;
    // The workspace's lock file pins the same third-party versions (cargo drops the
    // entries the scratch workspace does not need).
    std::fs::copy(root.join("Cargo.lock"), scratch.join("Cargo.lock"))
        .map_err(|e| format!("Cargo.lock: {e}"))?;

    println!("== building the unpacked packages in {}", scratch.display());
    // Libraries and binaries only: the packaged tests need the unpublished
    // `test-support` and the workspace's `testdata/`, which the packages do not carry.
    run(
        cargo()
            .args(["build", "--workspace", "--lib", "--bins"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(&scratch),
        "building the unpacked packages",
    )?;
    println!(
        "package-check: {} crates build from their packages alone",
        order.len()
    );
    Ok(true)
}

#[cfg(test)]
mod tests {
    /// The grammar pest_derive compiles is the normative one.
    #[test]
    fn ctl_pgn_grammar_copy_is_the_normative_grammar() {
        super::check_grammar_copy(&crate::root()).unwrap();
    }

    #[test]
    fn profiles_keeps_only_profile_tables() {
        let m = "[workspace]\nx = 1\n[profile.release]\ndebug = 0\n[patch.a]\ny = 2\n";
        assert_eq!(super::profiles(m), "[profile.release]\ndebug = 0\n");
    }
}
