"""Typing (issue 29): the stubs match the built module (mypy.stubtest), the README's
examples pass `mypy --strict`, and a misspelt format, notation or strip item, or an
unknown option, is a type error. CI runs the same two commands (`.ci/run`, "python
typing")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1]
CONFIG = PKG / "pyproject.toml"

pytest.importorskip("mypy")


def mypy(*args: str) -> subprocess.CompletedProcess:
    # No cache: a .mypy_cache left under crates/ would be taken for a workspace member.
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--no-incremental",
         "--cache-dir", os.devnull, *args],
        capture_output=True, text=True,
    )


def readme_examples(tmp: Path) -> Path:
    text = (PKG / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    out = tmp / "readme_examples.py"
    out.write_text("\n\n".join(f"def example_{i}() -> None:\n" + "".join(
        "    " + line + "\n" for line in b.splitlines()) for i, b in enumerate(blocks)))
    return out


def test_stubs_match_the_module(tmp_path: Path):
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "cescacs", "--ignore-disjoint-bases",
         "--allowlist", str(PKG / "stubtest-allowlist.txt"), "--mypy-config-file", str(CONFIG)],
        capture_output=True, text=True, cwd=tmp_path,  # its cache goes there
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_readme_examples_pass_mypy_strict(tmp_path: Path):
    r = mypy("--strict", str(readme_examples(tmp_path)))
    assert r.returncode == 0, r.stdout + r.stderr


def test_misspellings_are_type_errors(tmp_path: Path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import cescacs\n"
        "def f(data: bytes) -> None:\n"
        "    g = next(iter(cescacs.read_games(data, format='pgnn')))\n"
        "    g.to_string('pcn', notation='sann')\n"
        "    cescacs.convert(data, to='pgn', strip=['coments'])\n"
        "    cescacs.convert(data, to='pgn', colour=True)\n"
        "    d: cescacs.Diagnostic = g.errors[0]\n"
        "    n: int = d.line + d.column + d.game\n"
        "    s: str = d.code + d.file\n"
    )
    r = mypy("--strict", str(bad))
    lines = [l for l in r.stdout.splitlines() if ": error:" in l]
    assert {int(l.split(":")[1]) for l in lines} == {3, 4, 5, 6}, r.stdout
