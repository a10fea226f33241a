//! `cargo xtask bench-py`: the Python package against python-chess, in one process and
//! as Spark jobs in local mode (`crates/cescacs-py/bench/bench.py` does the measuring).
//! Needs a Python with `cescacs` (pip install crates/cescacs-py), `chess`, `pyspark`,
//! `pyarrow` installed: `PYTHON` names it (default `python3`).

use std::process::Command;

pub fn run(args: &[String]) -> Result<bool, String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let script = crate::root().join("crates/cescacs-py/bench/bench.py");
    let mut cmd = Command::new(&python);
    cmd.arg(&script);
    if args.is_empty() {
        cmd.arg("--spark");
    }
    cmd.args(args);
    let status = cmd
        .status()
        .map_err(|e| format!("{python} {}: {e}", script.display()))?;
    Ok(status.success())
}
