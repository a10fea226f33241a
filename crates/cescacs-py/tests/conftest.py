"""Shared fixtures: the repository, ../shared (required), and the `cescacs` CLI the
package's results are compared with (built once per session in release mode)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[3]
# CESCACS_SHARED names it elsewhere (a worktree whose parent has no shared/ beside it).
SHARED = Path(os.environ.get("CESCACS_SHARED", REPO.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared; fails loudly (never skips) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.fail(f"required shared data is missing: {path} (../shared beside the repository)")
    return path


@pytest.fixture(scope="session")
def cli() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "-q", "-p", "cescacs-cli"], cwd=REPO, check=True
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    exe = target / "release" / "cescacs"
    assert exe.exists(), exe
    return exe


def run(cli: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(cli), *args], capture_output=True, cwd=REPO)


def cli_errors(cli: Path, path: Path, tmp: Path) -> Tuple[int, List[Tuple]]:
    """`cescacs check --report` on one file: (games, error diagnostics as
    (game, line, column, message)). The CLI clips long messages; callers compare the
    first 300 characters."""
    report = tmp / "report.json"
    run(cli, "check", "-q", "--report", str(report), str(path))
    data = json.loads(report.read_text())
    errors = [
        (d["game"], d["line"], d["column"], d["message"][:300])
        for d in data["diagnostics"]
        if d["severity"] == "error"
    ]
    return data["games"], errors


def corpus_files() -> List[Path]:
    """Every game file of the repository's testdata and of ../shared/corpus."""
    files: List[Path] = []
    roots = [REPO / "testdata" / d for d in ("ctl-pgn", "chess", "xiangqi", "pcn")]
    roots.append(shared_path("corpus"))
    for root in roots:
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.suffix.lower() in (".ctl-pgn", ".pgn", ".json", ".jsonl"):
                files.append(p)
    return files


def compress(data: bytes, codec: str) -> bytes:
    """`data` compressed as `codec` ("gz", "bz2", "xz", "zst"). Test fixtures only: the
    package itself decompresses all four in Rust. zstd is written by the `zstandard`
    package when installed, else by the `zstd` command."""
    import bz2
    import gzip
    import lzma
    import shutil

    if codec == "gz":
        return gzip.compress(data)
    if codec == "bz2":
        return bz2.compress(data)
    if codec == "xz":
        return lzma.compress(data)
    if codec == "zst":
        try:
            import zstandard

            return zstandard.ZstdCompressor(write_checksum=True).compress(data)
        except ImportError:
            exe = shutil.which("zstd")
            if exe is None:
                pytest.fail("writing .zst test data needs the zstandard package or the zstd command")
            return subprocess.run([exe, "-q", "-c"], input=data, capture_output=True, check=True).stdout
    raise ValueError(codec)


def classic_text() -> bytes:
    """A real classic PGN file of the shared corpus (232 games), for damaged copies."""
    return shared_path(
        "corpus", "classic-pgn-real", "derived-encodings", "twic-01-232games.crlf.pgn"
    ).read_bytes()


def local_spark(app: str, master: str = "local[2]", **conf):
    """A local Spark session bound to 127.0.0.1 only (driver, block manager, UI off),
    whose Python workers run this interpreter (a venv need not be activated)."""
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(master)
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
    )
    for k, v in conf.items():
        builder = builder.config(k, v)
    return builder.getOrCreate()
