"""Structured diagnostics (issue 29): every error and warning of a game is a
cescacs.Diagnostic whose parts are the CLI report's and whose str() is the CLI's line."""

from __future__ import annotations

import json
import pickle
import typing
from pathlib import Path

import cescacs
from conftest import REPO, run

BAD = REPO / "testdata" / "bad"


def cli_report(cli: Path, path: Path, tmp: Path):
    report = tmp / "report.json"
    run(cli, "check", "-q", "--report", str(report), str(path))
    return json.loads(report.read_text())["diagnostics"]


def test_diagnostics_are_the_cli_reports(cli: Path, tmp_path: Path):
    files = sorted(p for p in BAD.iterdir() if p.suffix != ".md")
    assert len(files) > 30
    seen = 0
    for path in files:
        try:
            games = list(cescacs.read_games(path))
        except cescacs.InputError:
            continue  # a file the CLI also refuses as a whole (binary, unknown format)
        # The package numbers each document of a PCN array as a game of its own; the
        # CLI numbers the array (one input record): there the game numbers differ.
        pcn = path.suffix in (".json", ".jsonl")
        ours = [
            (0 if pcn else d.game, d.line, d.column, d.severity, d.message[:300])
            for g in games
            for d in list(g.errors) + list(g.warnings)
        ]
        theirs = [
            (0 if pcn else d["game"], d["line"], d["column"], d["severity"], d["message"][:300])
            for d in cli_report(cli, path, tmp_path)
            if d["game"] > 0
        ]
        assert sorted(ours) == sorted(theirs), path.name
        for g in games:
            for d in list(g.errors) + list(g.warnings):
                seen += 1
                assert isinstance(d, cescacs.Diagnostic) and isinstance(d, str)
                assert d.file == str(path)
                assert str(d) == f"{d.file}:{d.line}:{d.column}: game {d.game}: {d.severity}: {d.message}"
                assert d.code in typing.get_args(cescacs.DiagnosticCode), d.code
                assert (d.severity == "error") == (d in g.errors)
    assert seen > 30


def test_diagnostics_can_be_filtered_and_still_print_as_strings():
    data = b'[Event "x"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "y"]\n\n1. e4 e5 2. Ke3 *\n'
    games = list(cescacs.read_games(data, format="pgn"))
    (bad,) = [g for g in games if g.errors]
    (d,) = bad.errors
    assert (d.file, d.game, d.line, d.severity, d.code) == ("<bytes>", 2, 7, "error", "chess.illegal-move")
    assert d.column == 1 + len("1. e4 e5 2. ")
    assert "\n".join(bad.errors) == str(d)  # the README's idiom
    assert repr(bad.errors) == repr([str(d)])
    assert bad.errors == [str(d)]
    copy = pickle.loads(pickle.dumps(d))
    assert (copy, copy.line, copy.column, copy.code, type(copy)) == (d, d.line, d.column, d.code, cescacs.Diagnostic)


def test_read_error_is_coded(tmp_path: Path):
    import gzip

    import random

    rng = random.Random(29)
    text = b"".join(
        b'[Event "%d %x"]\n\n1. e4 e5 *\n\n' % (i, rng.getrandbits(64)) for i in range(20000)
    )
    whole = gzip.compress(text)
    cut = whole[: len(whole) // 2]
    games = list(cescacs.read_games(cut, format="pgn"))
    last = games[-1]
    assert last.errors and last.errors[0].code == "read" and last.errors[0].severity == "error"
    assert all(not g.errors for g in games[:-1])


# == issue 29 part B: codes from the readers' error kinds


def test_codes_tell_the_kinds_apart():
    cases = [
        (b"1. e4 e5 2. Ke3 *\n", "pgn", "chess.illegal-move"),
        (b'[FEN "x"]\n[SetUp "1"]\n\n1. e4 *\n', "pgn", "chess.fen"),
        (b"[Variant \"C'escacs\"]\n\n1. E7-E15, E21-E19\n*\n", "ctl-pgn", "ctl.illegal-move"),
        (b'[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. a0a5 *\n', "xiangqi-pgn", "xiangqi.illegal-move"),
    ]
    for data, fmt, code in cases:
        (g,) = cescacs.read_games(data, format=fmt)  # type: ignore[arg-type]
        assert code in [d.code for d in g.errors], (data, g.errors)
    # Every diagnostic of the bad files has a code of the table.
    seen = set()
    for path in sorted(BAD.iterdir()):
        try:
            for g in cescacs.read_games(path):
                seen.update(d.code for d in list(g.errors) + list(g.warnings))
        except cescacs.InputError:
            continue
    assert seen <= set(typing.get_args(cescacs.DiagnosticCode)), seen
    assert len(seen) > 8, seen
