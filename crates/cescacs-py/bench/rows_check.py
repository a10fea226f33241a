"""Checks shared by the large-file Spark benches (``huge_zst.py``, ``seekable_speedup.py``):
the rows of a ``cescacs.spark.read_games`` DataFrame against the CLI on the same file.

Three levels, each bounded in memory whatever the file's size:

- :func:`cli_report` / :func:`check_against_report`: the game count and every error's
  game, line and column, from ``cescacs check --report``;
- :func:`check_against_pcn`: game for game, the numbering and a digest of each row's key
  columns (tags, result, plies) against the documents of ``cescacs convert --to pcn
  --jsonl``, both sides streamed (the CLI's standard output read line by line, the
  DataFrame through ``toLocalIterator`` one partition at a time);
- :func:`content_digest`: one order-free digest of every column of every row, computed by
  Spark, so two runs of the same file compare without collecting their rows.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

#: The CLI adds this tag on request; the DataFrame has the count as its ``plies`` column.
_PLYCOUNT = "PlyCount"


def cli_report(cli: Path, path: Path, report: Path) -> Tuple[int, List[Tuple[int, int, int]]]:
    """``cescacs check -q -j1 --report`` on ``path``: the game count and the sorted
    (game, line, column) of every error."""
    subprocess.run([str(cli), "check", "-q", "-j1", "--report", str(report), str(path)])
    data = json.loads(report.read_text())
    errors = sorted(
        (d["game"], d["line"], d["column"]) for d in data["diagnostics"] if d["severity"] == "error"
    )
    return data["games"], errors


def row_errors(df, name: str) -> List[Tuple[int, int, int]]:
    """The sorted (game, line, column) of every error the DataFrame's rows carry (an
    error reads ``FILE:LINE:COLUMN: message``)."""
    errs = df.selectExpr("index", "explode(errors) as e").toLocalIterator()
    return sorted(
        (int(r["index"]),) + tuple(int(v) for v in r["e"][len(name) + 1 :].split(":", 2)[:2]) for r in errs
    )


def check_against_report(df, name: str, games: int, errors: Sequence[Tuple[int, int, int]]) -> int:
    """Asserts the DataFrame has the CLI's game count and its errors at the same places;
    the number of errors."""
    n = df.count()
    assert n == games, f"{n} rows, the CLI read {games} games"
    got = row_errors(df, name)
    assert got == list(errors), (got[:3], list(errors)[:3])
    return len(got)


def digest(tags: Dict[str, str], result: Optional[str], plies: int) -> str:
    """The key columns of one game, spelt the same whichever side they come from: the
    tags in name order (without ``PlyCount``), the result marker, the main-line plies."""
    h = hashlib.blake2b(digest_size=16)
    for k in sorted(tags):
        if k != _PLYCOUNT:
            h.update(k.encode() + b"\x1f" + tags[k].encode() + b"\x1e")
    h.update(b"\x1d" + (result or "").encode() + b"\x1d" + str(plies).encode())
    return h.hexdigest()


def _pcn_digests(cli: Path, path: Path, skip: Iterable[int]) -> Iterator[Tuple[int, str]]:
    """(game number, digest) of every game the CLI converts, numbered as the CLI numbers
    games: the games in ``skip`` (those with an error, which the CLI does not write) get
    no document, so the numbering steps over them."""
    skipped = sorted(set(skip))
    proc = subprocess.Popen(
        [str(cli), "convert", "-q", "-j1", "--to", "pcn", "--jsonl", "--plycount", "-o", "-", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=1 << 20,
    )
    assert proc.stdout is not None
    game, k = 0, 0
    for line in proc.stdout:
        game += 1
        while k < len(skipped) and skipped[k] == game:
            game, k = game + 1, k + 1
        doc = json.loads(line)
        pgn = doc.get("...pgn") or {}
        tags = dict(pgn.get("tags") or [])
        # A null move is no PCN move: the document lists its ply apart (``null_plies``).
        plies = len(doc.get("previous_moves") or []) + len(pgn.get("null_plies") or [])
        yield game, digest(tags, pgn.get("result_token"), plies)
    proc.wait()


def check_against_pcn(
    df, cli: Path, path: Path, games: int, errors: Sequence[Tuple[int, int, int]]
) -> Tuple[int, int]:
    """Game for game against the CLI (``games`` and ``errors`` from :func:`cli_report`):
    the DataFrame's rows, in partition order, are numbered 1, 2, … up to ``games``; their
    errors are the CLI's, at the same game, line and column; and each row without an
    error has the digest of the CLI's PCN document for that game. Streams both sides
    (two partitions fetched ahead); returns (rows, rows compared by digest)."""
    name = str(path)
    rows = df.select("index", "tags", "result", "plies", "errors").toLocalIterator(prefetchPartitions=True)
    theirs = _pcn_digests(cli, path, (e[0] for e in errors))
    n = compared = 0
    got_errors: List[Tuple[int, int, int]] = []
    for r in rows:
        n += 1
        assert r["index"] == n, f"row {n} is numbered {r['index']}"
        if r["errors"]:
            got_errors.extend(
                (n,) + tuple(int(v) for v in e[len(name) + 1 :].split(":", 2)[:2]) for e in r["errors"]
            )
            continue
        game, want = next(theirs, (None, None))
        assert game == n, f"row {n}: the CLI's next written game is {game}"
        got = digest(dict(r["tags"] or {}), r["result"], r["plies"])
        assert got == want, f"game {n}: key columns differ from the CLI's PCN document"
        compared += 1
    left = next(theirs, None)
    assert left is None, f"the CLI wrote game {left[0]} beyond the {n} rows"
    assert n == games, f"{n} rows, the CLI read {games} games"
    assert sorted(got_errors) == list(errors), (sorted(got_errors)[:3], list(errors)[:3])
    return n, compared


def content_digest(df) -> Tuple[int, str]:
    """(rows, sum of a 64-bit hash of every column of each row) computed by Spark: equal
    for two DataFrames with the same rows in any order."""
    cols = (
        "index, line, format, to_json(tags), to_json(moves), result, final_position, "
        "to_json(errors), to_json(warnings), plies, offset, length"
    )
    r = df.selectExpr(f"cast(xxhash64({cols}) as decimal(38,0)) as h").selectExpr(
        "count(*) as n", "cast(sum(h) as string) as s"
    ).collect()[0]
    return int(r["n"]), r["s"]
