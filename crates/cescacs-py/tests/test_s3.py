"""Object storage: a local S3-compatible server (moto, bound to 127.0.0.1, started and
stopped here) holding every format, a PGN read as several splits, a .pgn.zst and a
.pgn.gz. ``read_games``, ``read_arrow`` and the Spark reader over ``s3://`` give the
games the CLI reads from the same files, game for game. Needs only the repository's
testdata (no ../shared)."""

from __future__ import annotations

import gzip
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cescacs
import cescacs.spark
from conftest import REPO, cli_errors

pytest.importorskip("moto")
pytest.importorskip("s3fs")

BUCKET = "games"
TD = REPO / "testdata"
SOURCES = {
    "ctl/worked-examples.ctl-pgn": TD / "ctl-pgn" / "spec" / "worked-examples.ctl-pgn",
    "chess/kasparov.pgn": TD / "chess" / "python-chess" / "kasparov-deep-blue-1997.pgn",
    "xq/winboard_san_1.pgn": TD / "xiangqi" / "real" / "wukong-xiangqi" / "winboard_san_1.pgn",
    "pcn/sample.pcn.json": TD / "pcn" / "sample-cross-style.pcn.json",
}
SPLIT = 64 * 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def local_files(tmp_path_factory) -> dict:
    """Key in the bucket -> the same bytes on the local disk (what the CLI reads)."""
    import zstandard

    root = tmp_path_factory.mktemp("s3src")
    out = {}
    for key, src in SOURCES.items():
        dst = root / key.replace("/", "_")
        dst.write_bytes(src.read_bytes())
        out[key] = dst
    twic = (TD / "chess" / "mliebelt-pgn-parser" / "test_pgn_twic-01-232games.pgn").read_bytes()
    big = (twic.rstrip(b"\r\n") + b"\n\n") * 2
    (root / "big.pgn").write_bytes(big)
    out["chess/big.pgn"] = root / "big.pgn"
    (root / "big2.pgn").write_bytes(big)
    (root / "big2.pgn.zst").write_bytes(zstandard.ZstdCompressor().compress(big))
    out["chess/big2.pgn.zst"] = root / "big2.pgn.zst"
    kasparov = SOURCES["chess/kasparov.pgn"].read_bytes()
    (root / "small.pgn.gz").write_bytes(gzip.compress(kasparov))
    out["chess/small.pgn.gz"] = root / "small.pgn.gz"
    doc = json.loads(SOURCES["pcn/sample.pcn.json"].read_text(encoding="utf-8"))
    (root / "sample.jsonl").write_text(
        "".join(json.dumps(doc) + "\n" for _ in range(3)), encoding="utf-8"
    )
    out["pcn/sample.jsonl"] = root / "sample.jsonl"
    return out


@pytest.fixture(scope="module")
def s3(local_files):
    """A moto S3 server on 127.0.0.1 holding ``local_files``; its storage_options."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("moto server did not start")
                time.sleep(0.2)
        options = {
            "key": "testing",
            "secret": "testing",
            "client_kwargs": {"endpoint_url": f"http://127.0.0.1:{port}", "region_name": "us-east-1"},
        }
        import boto3
        import s3fs

        boto3.client(
            "s3",
            endpoint_url=f"http://127.0.0.1:{port}",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            region_name="us-east-1",
        ).create_bucket(Bucket=BUCKET)
        fs = s3fs.S3FileSystem(**options)
        for key, path in local_files.items():
            fs.pipe(f"{BUCKET}/{key}", path.read_bytes())
        yield options
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def spark():
    from conftest import local_spark

    session = local_spark("cescacs-test-s3")
    yield session
    session.stop()


def _plain(path: Path, tmp: Path) -> Path:
    """The decompressed copy the CLI reads."""
    if path.suffix in (".zst", ".gz"):
        plain = tmp / path.name.rsplit(".", 1)[0]
        with cescacs.open_decompressed(path) as src:
            plain.write_bytes(src.read())
        return plain
    return path


def _expected(cli, local_files, tmp) -> dict:
    """Per key: (CLI game count, CLI errors, games of the local reader)."""
    out = {}
    for key, path in local_files.items():
        sub = tmp / key.replace("/", "_")
        sub.mkdir()
        games, errors = cli_errors(cli, _plain(path, sub), sub)
        out[key] = (games, errors, list(cescacs.read_games(path)))
    return out


def _strip(errors, name):
    # Located messages start with the file's name, which differs (URL vs local path).
    out = []
    for e in errors:
        head, _, msg = e.partition(": error: ")
        line, col, _game = head[len(name) + 1 :].split(":", 2)
        out.append((int(line), int(col), msg[:300]))
    return out


def _check(key, rows, expected):
    """rows: dicts of one file's games, in order, against the CLI and the local reader."""
    games, errors, local = expected[key]
    url = f"s3://{BUCKET}/{key}"
    assert len(rows) == games == len(local), key
    assert [r["index"] for r in rows] == list(range(1, games + 1)), key
    got_errors = [(r["index"],) + e for r in rows for e in _strip(r["errors"], url)]
    assert got_errors == errors, key
    for r, g in zip(rows, local):
        assert r["file"] == url
        assert (r["line"], r["result"], r["final_position"], list(r["moves"]), dict(r["tags"])) == (
            g.line,
            g.result,
            g.final_position,
            g.moves,
            g.tags,
        ), (key, r["index"])
        assert _strip(r["errors"], url) == _strip(g.errors, g.file), (key, r["index"])


def _game_row(g) -> dict:
    return {
        "file": g.file,
        "index": g.index,
        "line": g.line,
        "result": g.result,
        "final_position": g.final_position,
        "moves": g.moves,
        "tags": g.tags,
        "errors": g.errors,
    }


def test_read_games_over_s3(s3, local_files, cli, tmp_path):
    expected = _expected(cli, local_files, tmp_path)
    for key in local_files:
        rows = [_game_row(g) for g in cescacs.read_games(f"s3://{BUCKET}/{key}", storage_options=s3)]
        _check(key, rows, expected)


def test_spark_over_s3(s3, local_files, cli, tmp_path, spark):
    expected = _expected(cli, local_files, tmp_path)
    df = cescacs.spark.read_games(spark, f"s3://{BUCKET}/", split_bytes=SPLIT, storage_options=s3)
    files = cescacs.spark.game_files(f"s3://{BUCKET}/", storage_options=s3)
    assert sorted(files) == sorted(f"s3://{BUCKET}/{k}" for k in local_files)
    big = cescacs.spark._located_files(f"s3://{BUCKET}/chess/big.pgn", s3, None)
    assert len(cescacs.spark.plan_splits(spark, big, None, SPLIT)) > 3, "several splits"
    by_file = {}
    for r in df.collect():
        by_file.setdefault(r["file"], []).append(r.asDict())
    # The big PGN was cut into several byte ranges, each read by its own task.
    assert df.rdd.getNumPartitions() > len(local_files) + 2
    assert {r["format"] for rows in by_file.values() for r in rows} == {"ctl-pgn", "pgn", "xiangqi-pgn", "pcn"}
    for key in local_files:
        rows = sorted(by_file[f"s3://{BUCKET}/{key}"], key=lambda r: r["index"])
        _check(key, rows, expected)


def test_read_arrow_over_s3(s3, local_files, cli, tmp_path):
    expected = _expected(cli, local_files, tmp_path)
    for key in local_files:
        table = cescacs.read_arrow(f"s3://{BUCKET}/{key}", storage_options=s3, batch_rows=7).read_all()
        rows = table.to_pylist()
        for r in rows:
            r["tags"] = dict(r["tags"])
        _check(key, rows, expected)
        assert [r["plies"] for r in rows] == [len(g.moves) for g in expected[key][2]]
