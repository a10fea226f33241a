"""The serial cut of a large compressed file (ChunkCutter + parallel parse): the same
rows, numbers and lines as the file read whole, at every chunk size. Repository
testdata only."""

from __future__ import annotations

import io

import pytest

import cescacs
import cescacs._cescacs as native
from conftest import REPO

TD = REPO / "testdata"


def _body() -> bytes:
    twic = (TD / "chess" / "mliebelt-pgn-parser" / "test_pgn_twic-01-232games.pgn").read_bytes()
    crlf = (TD / "chess" / "derived-encodings" / "najdorf.crlf.pgn").read_bytes()
    return twic.rstrip(b"\r\n") + b"\n\n" + crlf + b"\n\n\n" + twic


def _rows(table):
    cols = ["index", "line", "result", "final_position", "plies", "moves", "errors", "warnings"]
    return [tuple(str(r[c]) for c in cols) for r in table.to_pylist()]


@pytest.mark.parametrize("chunk_bytes", [1, 1000, 50_000, 10_000_000])
def test_chunks_give_the_whole_file_rows(chunk_bytes):
    body = _body()
    whole = cescacs.read_arrow(body, "pgn").read_all()
    got = []
    chunks = list(native.ChunkCutter(io.BytesIO(body), "db.pgn", chunk_bytes))
    assert b"".join(c for c, *_ in chunks) == body
    if chunk_bytes < 100_000:
        assert len(chunks) > 1
    for chunk, begin, index_base, line_base in chunks:
        t = native.read_arrow(chunk, "pgn", "<bytes>", begin, None, index_base, line_base).read_all()
        got.extend(_rows(t))
    assert got == _rows(whole)


def test_spark_cut_equals_one_task(tmp_path, spark):
    import zstandard

    import cescacs.spark

    db = tmp_path / "db.pgn.zst"
    db.write_bytes(zstandard.ZstdCompressor().compress(_body()))
    cut = cescacs.spark.read_games(spark, str(db), cut_compressed_bytes=0, chunk_bytes=40_000)
    one = cescacs.spark.read_games(spark, str(db), cut_compressed_bytes=None)
    assert cut.rdd.getNumPartitions() >= 3 and one.rdd.getNumPartitions() == 1
    a = sorted(cut.collect(), key=lambda r: r["index"])
    b = sorted(one.collect(), key=lambda r: r["index"])
    assert [r["index"] for r in a] == list(range(1, len(b) + 1))
    assert [r.asDict() for r in a] == [r.asDict() for r in b]


@pytest.fixture(scope="module")
def spark():
    from conftest import local_spark

    session = local_spark("cescacs-test-chunks")
    yield session
    session.stop()
