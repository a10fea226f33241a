"""Seekable compressed files (several zstd frames that say their size, a zstd seek
table, BGZF) cut into byte ranges of their decompressed text with no serial stage:
every game of the file appears exactly once, numbered as the CLI numbers it, whatever
the number of pieces. Repository testdata only."""

from __future__ import annotations

import struct
import zlib

import pytest

import cescacs
import cescacs._cescacs as native
from conftest import REPO, cli_errors

TD = REPO / "testdata"


def _body() -> bytes:
    twic = (TD / "chess" / "mliebelt-pgn-parser" / "test_pgn_twic-01-232games.pgn").read_bytes()
    crlf = (TD / "chess" / "derived-encodings" / "najdorf.crlf.pgn").read_bytes()
    return twic.rstrip(b"\r\n") + b"\n\n" + crlf + b"\n\n\n" + twic


def _pieces(data: bytes, size: int):
    return [data[i : i + size] for i in range(0, len(data), size)]


def zstd_frames(data: bytes, size: int, seek_table: bool = False) -> bytes:
    """Independent zstd frames of ``size`` input bytes (the zstd seekable format's
    layout), each saying its content size, or with the format's seek table instead."""
    import zstandard

    out, entries = b"", []
    for part in _pieces(data, size):
        frame = zstandard.ZstdCompressor(write_content_size=not seek_table).compress(part)
        entries.append((len(frame), len(part)))
        out += frame
    if seek_table:
        table = b"".join(struct.pack("<II", c, d) for c, d in entries)
        table += struct.pack("<IBI", len(entries), 0, 0x8F92EAB1)
        out += struct.pack("<II", 0x184D2A5E, len(table)) + table
    return out


def bgzf(data: bytes, size: int) -> bytes:
    """BGZF (bgzip's layout): gzip members with a ``BC`` extra field giving their length,
    ended by an empty member."""
    out = b""
    for part in _pieces(data, size) + [b""]:
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        body = c.compress(part) + c.flush()
        total = 18 + len(body) + 8
        out += b"\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\xff\x06\x00BC\x02\x00"
        out += struct.pack("<H", total - 1) + body
        out += struct.pack("<II", zlib.crc32(part) & 0xFFFFFFFF, len(part))
    return out


KINDS = {
    "frames.pgn.zst": lambda b: zstd_frames(b, 50_000),
    "seektable.pgn.zst": lambda b: zstd_frames(b, 50_000, seek_table=True),
    "bgzf.pgn.gz": lambda b: bgzf(b, 60_000),
}


def _key(r):
    return (r["index"], r["line"], r["offset"], r["result"], r["final_position"], r["plies"], str(r["moves"]), str(r["errors"]), str(r["warnings"]))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_frame_table_and_reads_from_any_offset(tmp_path, name):
    body = _body()
    path = tmp_path / name
    path.write_bytes(KINDS[name](body))
    table = native.seekable_frames(str(path))
    assert table is not None and len(table[1]) > 5 and table[2] == len(body)
    f = native.FramedFile(str(path), table)
    assert f.read() == body
    for at in range(0, len(body), 37_501):
        f.seek(at)
        assert f.read(5000) == body[at : at + 5000]


def test_other_compressed_files_are_not_seekable(tmp_path):
    import gzip

    import zstandard

    one = tmp_path / "one.pgn.zst"
    one.write_bytes(zstandard.ZstdCompressor().compress(_body()))
    gz = tmp_path / "plain.pgn.gz"
    gz.write_bytes(gzip.compress(_body()))
    assert native.seekable_frames(str(one)) is None
    assert native.seekable_frames(str(gz)) is None


@pytest.mark.parametrize("name", sorted(KINDS))
@pytest.mark.parametrize("split", [40_000, 150_000, 10_000_000])
def test_spark_pieces_give_every_game_once(tmp_path, spark, cli, name, split):
    import cescacs.spark

    body = _body()
    path = tmp_path / name
    path.write_bytes(KINDS[name](body))
    games, _ = cli_errors(cli, path, tmp_path)
    df = cescacs.spark.read_games(spark, str(path), split_bytes=split, cut_compressed_bytes=None)
    if split < len(body) // 3:
        assert df.rdd.getNumPartitions() >= 3
    rows = sorted((r.asDict() for r in df.collect()), key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(1, games + 1))
    whole = cescacs.read_arrow(body, "pgn").read_all().to_pylist()
    assert [_key(r) for r in rows] == [_key(r) for r in whole]
    # Each game's byte range names its text in the decompressed file.
    for r in rows[:50]:
        text = body[r["offset"] : r["offset"] + r["length"]]
        assert text.lstrip().startswith(b"[")


def gzip_members(data: bytes, size: int) -> bytes:
    """Plain gzip members of ``size`` input bytes (``cat a.gz b.gz``, pigz -i style):
    no field says a member's length."""
    import gzip

    return b"".join(gzip.compress(p) for p in _pieces(data, size))


def bzip2_streams(data: bytes, size: int) -> bytes:
    """bzip2 streams of ``size`` input bytes concatenated (pbzip2's layout)."""
    import bz2

    return b"".join(bz2.compress(p) for p in _pieces(data, size))


SERIAL = {
    "members.pgn.gz": lambda b: gzip_members(b, 50_000),
    "one.pgn.bz2": lambda b: __import__("bz2").compress(b),
    "streams.pgn.bz2": lambda b: bzip2_streams(b, 50_000),
}


@pytest.mark.parametrize("name", sorted(SERIAL))
@pytest.mark.parametrize("split", [40_000, 150_000, 10_000_000])
def test_gzip_members_and_bzip2_every_game_once(tmp_path, spark, cli, name, split):
    """Plain multi-member gzip and bzip2 (one stream, or several) have no table of
    decompressed offsets: they go through the serial cut (docs/scaling.md), whose
    chunks hold every game once, numbered as the CLI numbers it."""
    import cescacs.spark

    body = _body()
    path = tmp_path / name
    path.write_bytes(SERIAL[name](body))
    assert native.seekable_frames(str(path)) is None
    games, _ = cli_errors(cli, path, tmp_path)
    df = cescacs.spark.read_games(
        spark, str(path), cut_compressed_bytes=0, chunk_bytes=split, split_bytes=split
    )
    if split < len(body) // 3:
        assert df.rdd.getNumPartitions() >= 3
    rows = sorted((r.asDict() for r in df.collect()), key=lambda r: r["index"])
    assert [r["index"] for r in rows] == list(range(1, games + 1))
    whole = cescacs.read_arrow(body, "pgn").read_all().to_pylist()
    assert [_key(r) for r in rows] == [_key(r) for r in whole]


def test_columns_uci_clocks_evals():
    pgn = (
        b'[Event "x"]\n\n1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58.5] }'
        b" 2. Nf3 { [%eval #-3] } Nc6 *\n"
    )
    t = cescacs.read_arrow(pgn, "pgn", columns=["uci", "clocks", "evals"]).read_all()
    assert t.schema.names[-3:] == ["uci", "clocks", "evals"]
    rows = t.to_pylist()
    assert rows[0]["uci"] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert rows[0]["clocks"] == [180.0, 178.5, None, None]
    assert rows[0]["evals"] == [{"cp": 17, "mate": None}, None, {"cp": None, "mate": -3}, None]
    xq = b'[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. h2e2 h9g7 *\n'
    row = cescacs.read_arrow(xq, "xiangqi-pgn", columns=["uci", "clocks"]).read_all().to_pylist()[0]
    assert row["uci"] == ["h2e2", "h9g7"] and row["clocks"] is None
    ctl = (REPO / "testdata/ctl-pgn/spec/worked-examples.ctl-pgn").read_bytes()
    row = cescacs.read_arrow(ctl, columns=["uci"]).read_all().to_pylist()[0]
    assert row["format"] == "ctl-pgn" and row["uci"] is None
    assert "uci" not in cescacs.read_arrow(pgn, "pgn").schema.names
    with pytest.raises(cescacs.CescacsError):
        cescacs.read_arrow(pgn, columns=["nope"])


def test_evals_equal_python_chess():
    import io

    import chess.pgn

    # python-chess reads at most two decimals (a third is ignored there, rounded here:
    # see docs/scaling.md), so the comparison keeps to two.
    values = ["0.17", "-1.23", "#3", "#-2", "0.29", "-0.57", "12.5", "0", "+0.5", "#0"]
    moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "d3", "Be7", "O-O", "O-O"]
    text = '[Event "e"]\n\n' + " ".join(
        f"{m} {{ [%eval {v}] [%clk 0:0{i}:1{i % 10}] }}" for i, (m, v) in enumerate(zip(moves, values))
    ) + " *\n"
    row = cescacs.read_arrow(text.encode(), "pgn", columns=["clocks", "evals"]).read_all().to_pylist()[0]
    nodes = list(chess.pgn.read_game(io.StringIO(text)).mainline())
    assert row["clocks"] == [n.clock() for n in nodes]
    want = [{"cp": n.eval().white().score(), "mate": n.eval().white().mate()} for n in nodes]
    assert row["evals"] == want


@pytest.mark.parametrize(
    "path",
    [
        TD / "chess" / "mliebelt-pgn-parser" / "test_pgn_twic-01-232games.pgn",
        TD / "chess" / "derived-encodings" / "najdorf.crlf.pgn",
    ],
)
def test_columns_equal_python_chess(path):
    import io

    import chess.pgn

    rows = cescacs.read_arrow(str(path), columns=["uci", "clocks", "evals"]).read_all().to_pylist()
    text = io.StringIO(path.read_text(encoding="utf-8", errors="replace"))
    compared = 0
    for row in rows:
        game = chess.pgn.read_game(text)
        if row["errors"] or game.errors:
            continue
        nodes = list(game.mainline())
        assert row["uci"] == [n.move.uci() for n in nodes]
        assert row["clocks"] == [n.clock() for n in nodes]
        evals = []
        for n in nodes:
            e = n.eval()
            evals.append(None if e is None else {"cp": e.white().score(), "mate": e.white().mate()})
        assert row["evals"] == evals
        compared += 1
    assert compared > 0


@pytest.fixture(scope="module")
def spark():
    from conftest import local_spark

    session = local_spark("cescacs-test-seekable")
    yield session
    session.stop()


def test_ranges_are_equal_and_fill_every_core():
    """A file of 4 MiB frames cut for 2 cores: equal ranges (within one frame), as many
    as a multiple of the cores. The greedy cut this replaced gave 17 ranges of 64 MiB
    and one of 12 MiB for 1,100 MiB: the last task ran alone on one core."""
    import cescacs.spark

    frame, size = 4 << 20, 1100 << 20
    table = ("zstd", [(i, d) for i, d in enumerate(range(0, size, frame))], size)
    for split_mib, cores in ((64, 2), (128, 2), (64, 4), (128, 1)):
        cuts = cescacs.spark._frame_cuts(table, split_mib << 20, cores)
        lengths = [b - a for a, b in zip(cuts, cuts[1:] + [size])]
        assert all(c % frame == 0 for c in cuts)
        assert len(cuts) % cores == 0 and len(cuts) >= size // (split_mib << 20)
        assert max(lengths) - min(lengths) <= frame, (split_mib, cores, lengths)
    # A file smaller than the cores' share keeps one range per split_bytes.
    assert len(cescacs.spark._even_cuts(3 << 20, 1 << 20, 8)) == 3
    groups = cescacs.spark._groups(list(range(18)), 2)
    assert [len(g) for g in groups] == [9, 9] and sum(groups, []) == list(range(18))


def test_a_cut_inside_the_last_game_merges_with_the_unscanned_last_range(tmp_path, spark, cli):
    """The first pass does not scan a file's last range (its counts number nothing);
    when the range before it ends at a sync point that is no game boundary (a tag-like
    line inside a comment of the last game), the two are merged and scanned again, so
    the last game is read once, whole, numbered as the CLI numbers it."""
    import cescacs.spark

    prefix = b"".join(b'[Event "g%d"]\n\n1. e4 e5 *\n\n' % i for i in range(20))
    head, tail = b'[Event "last"]\n\n1. e4 {a\n[x]\n', b"} e5 *\n"
    # The file's middle (the one cut of two ranges) falls inside the last game's first
    # line, so the sync point after it is the "[x]" line inside the comment.
    pad = len(prefix) + 10 - len(head) - len(tail)
    text = prefix + head + b"y" * pad + tail
    assert len(prefix) < len(text) // 2 < len(prefix) + len(b'[Event "last"]')
    path = tmp_path / "cut-in-comment.pgn"
    path.write_bytes(text)
    split = -(-len(text) // 2)
    games, _ = cli_errors(cli, path, tmp_path)
    assert games == 21
    tasks = cescacs.spark.plan_splits(spark, [str(path)], None, split)
    assert [(t[5], t[6], t[7]) for t in tasks] == [(0, len(text), 1)]
    df = cescacs.spark.read_games(spark, str(path), split_bytes=split)
    rows = sorted((r.asDict() for r in df.collect()), key=lambda r: r["index"])
    whole = cescacs.read_arrow(text, "pgn").read_all().to_pylist()
    assert [_key(r) for r in rows] == [_key(r) for r in whole]
    assert [r["index"] for r in rows] == list(range(1, games + 1))
