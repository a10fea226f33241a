"""The Spark data source in local mode against the CLI, game for game."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

import cescacs
import cescacs.spark
from conftest import REPO, classic_text, cli_errors, compress, run, shared_path


@pytest.fixture(scope="module")
def spark():
    from conftest import local_spark

    session = local_spark("cescacs-test")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    """A directory with every format: C'escacs, xiangqi, PCN (.json, .jsonl), a classic
    PGN of a few MB (read as several splits), the same PGN zstd-compressed, and a gzip."""
    root = tmp_path_factory.mktemp("db")
    classic = sorted(shared_path("corpus", "classic-pgn-real").rglob("*.pgn"))
    chunks = []
    for p in classic:
        data = p.read_bytes()
        if b"Variant" in data[:2000]:
            continue
        chunks.append(data.rstrip(b"\r\n") + b"\n\n")
    body = b"".join(chunks)
    big = body * max(1, (3 << 20) // len(body) + 1)
    (root / "big.pgn").write_bytes(big)
    (root / "big2.pgn.zst").write_bytes(compress(body, "zst"))
    (root / "small.pgn.gz").write_bytes(gzip.compress(chunks[0]))
    for p in sorted((REPO / "testdata" / "ctl-pgn").rglob("*.ctl-pgn"))[:5]:
        shutil.copy(p, root / p.name)
    for p in sorted(shared_path("corpus", "cescacs-real").rglob("*.ctl-pgn")):
        shutil.copy(p, root / ("real-" + p.name))
    for p in sorted(shared_path("corpus", "xiangqi-real").rglob("*.pgn"))[:3]:
        shutil.copy(p, root / ("xq-" + p.name))
    for p in sorted(shared_path("corpus").rglob("*.json*"))[:4]:
        shutil.copy(p, root / ("pcn-" + p.name))
    return root


def test_rows_equal_the_cli_game_for_game(spark, database, cli, tmp_path):
    split = 1 << 20
    df = cescacs.spark.read_games(spark, str(database), split_bytes=split)
    assert df.rdd.getNumPartitions() > 3
    rows = df.collect()
    by_file = {}
    for r in rows:
        by_file.setdefault(r["file"], []).append(r)
    big = str(database / "big.pgn")
    assert os.path.getsize(big) > 3 * split
    tasks = cescacs.spark.plan_splits(spark, [big], None, split)
    assert len(tasks) > 1, "the PGN file must be read as more than one split"
    files = cescacs.spark.game_files(str(database))
    assert sorted(by_file) == sorted(files)
    formats = {r["format"] for r in rows}
    assert formats == {"ctl-pgn", "pgn", "xiangqi-pgn", "pcn"}
    for f in files:
        mine = sorted(by_file[f], key=lambda r: r["index"])
        assert [r["index"] for r in mine] == list(range(1, len(mine) + 1)), f
        # The same games as the Python reader (one process, whole file) ...
        local = list(cescacs.read_games(f))
        assert len(local) == len(mine), f
        for r, g in zip(mine, local):
            assert (r["line"], r["result"], r["final_position"], list(r["moves"]), list(r["errors"]),
                    list(r["warnings"]), dict(r["tags"])) == (
                g.line, g.result, g.final_position, g.moves, g.errors, g.warnings, g.tags), (f, r["index"])
        # ... and the CLI's: game count and every located error.
        plain = f
        if f.endswith((".zst", ".gz")):
            plain = str(tmp_path / Path(f).name.rsplit(".", 1)[0])
            with cescacs.open_decompressed(f) as src, open(plain, "wb") as dst:
                shutil.copyfileobj(src, dst)
        games, errors = cli_errors(cli, Path(plain), tmp_path)
        assert games == len(mine), f
        got = [
            (r["index"], int(e.split(":")[-4]) if False else None)
            for r in mine for e in r["errors"]
        ]
        mine_errors = []
        for r in mine:
            for e in r["errors"]:
                head, _, msg = e.partition(": error: ")
                loc = head[len(f) + 1:] if head.startswith(f) else head[len(plain) + 1:]
                line, col, game = loc.split(":", 2)
                mine_errors.append((r["index"], int(line), int(col), msg[:300]))
        assert mine_errors == errors, f
    # C'escacs final positions equal `cescacs replay`.
    for f in files:
        if f.endswith(".ctl-pgn"):
            out = run(cli, "replay", f).stdout.decode().splitlines()
            good = [r["final_position"] for r in sorted(by_file[f], key=lambda r: r["index"]) if not r["errors"]]
            assert good == out, f


def test_parquet_round_trip(spark, database, tmp_path):
    df = cescacs.spark.read_games(spark, str(database / "big.pgn"), split_bytes=1 << 20)
    out = str(tmp_path / "games.parquet")
    df.write.mode("overwrite").parquet(out)
    back = spark.read.parquet(out)
    assert back.count() == df.count() == sum(1 for _ in cescacs.read_games(database / "big.pgn"))


@pytest.fixture(scope="module")
def damaged(tmp_path_factory) -> Path:
    """Good files of every format (compressed with each codec too) beside a truncated
    .gz, a .zst with a byte flipped in its middle, and a file of zeros."""
    root = tmp_path_factory.mktemp("damaged")
    text = classic_text()
    (root / "classic.pgn").write_bytes(text)
    for codec in ("gz", "bz2", "xz", "zst"):
        (root / f"classic-{codec}.pgn.{codec}").write_bytes(compress(text, codec))
    for p in sorted((REPO / "testdata" / "ctl-pgn").rglob("*.ctl-pgn"))[:4]:
        shutil.copy(p, root / p.name)
    for p in sorted(shared_path("corpus", "xiangqi-real").rglob("*.pgn"))[:2]:
        shutil.copy(p, root / ("xq-" + p.name))
    for p in sorted(shared_path("corpus").rglob("*.json*"))[:2]:
        shutil.copy(p, root / ("pcn-" + p.name))
    many = text * 4
    packed = compress(many, "gz")
    (root / "zz-cut.pgn.gz").write_bytes(packed[: len(packed) * 2 // 3])
    packed = bytearray(compress(many, "zst"))
    packed[len(packed) // 2] ^= 0xFF
    (root / "zz-corrupt.pgn.zst").write_bytes(bytes(packed))
    (root / "zz-zeros.pgn").write_bytes(b"\0" * 70_000)
    return root


DAMAGED = ("zz-cut.pgn.gz", "zz-corrupt.pgn.zst", "zz-zeros.pgn")


def _diagnostics(report: dict, files) -> list:
    return sorted(
        (d["severity"], d["file"], d["game"], d["line"], d["column"], d["message"][:300])
        for d in report["diagnostics"]
        # Text after a file's last game that holds no game is a warning of the CLI's
        # about a place where no game is: a reader of games (and so a Spark row) has no
        # game to carry it on (docs/io.md, trailing text).
        if d["file"] in files and not d["message"].startswith("text after the last game")
    )


def _located(severity: str, file: str, index, text: str) -> tuple:
    head, _, msg = text.partition(f": {severity}: ")
    line, col, game = head[len(file) + 1:].split(":", 2)
    assert game.strip() == f"game {index}", text
    return (severity, file, index, int(line), int(col), msg[:300])


def test_a_damaged_file_never_fails_the_job(spark, damaged, cli, tmp_path):
    """Must-show 5: local[2] over good files of every format beside damaged ones."""
    rows = cescacs.spark.read_games(spark, str(damaged), split_bytes=1 << 16).collect()
    by_file = {}
    for r in rows:
        by_file.setdefault(os.path.basename(r["file"]), []).append(r)
    names = sorted(p.name for p in damaged.iterdir())
    # Every file has its rows, the damaged ones included.
    assert sorted(by_file) == names
    good = [n for n in names if n not in DAMAGED]
    assert {by_file[n][0]["format"] for n in good} == {"ctl-pgn", "pgn", "xiangqi-pgn", "pcn"}
    # The CLI, run on the good files, is the reference: the same game count, and every
    # error and warning (the warnings column), located the same way.
    report = tmp_path / "good.json"
    run(cli, "check", "-q", "--report", str(report), *(str(damaged / n) for n in good))
    ref = json.loads(report.read_text())
    assert sum(len(by_file[n]) for n in good) == ref["games"]
    assert ref["warnings"] > 0, "the good files must have warnings for the column to be tested"
    mine = []
    for n in good:
        f = str(damaged / n)
        for r in by_file[n]:
            mine += [_located("error", f, r["index"], e) for e in r["errors"]]
            mine += [_located("warning", f, r["index"], w) for w in r["warnings"]]
    assert sorted(mine) == _diagnostics(ref, {str(damaged / n) for n in good})
    # The damaged streams: their games up to the damage, then a row with the located
    # read error; the binary file: one row with the CLI's refusal.
    for n in ("zz-cut.pgn.gz", "zz-corrupt.pgn.zst"):
        mine = sorted(by_file[n], key=lambda r: r["index"])
        assert [r["index"] for r in mine] == list(range(1, len(mine) + 1)), n
        last = mine[-1]
        assert last["errors"], n
        assert _located("error", str(damaged / n), last["index"], last["errors"][-1])
    (zeros,) = by_file["zz-zeros.pgn"]
    assert zeros["index"] is None and zeros["line"] is None
    assert zeros["errors"] == [f"{damaged / 'zz-zeros.pgn'}:1:1: error: NUL byte (byte 0): binary data, not pgn text; not read"]
    out = run(cli, "check", "-q", str(damaged / "zz-zeros.pgn"))
    assert out.stderr.decode().startswith(zeros["errors"][0])
    # A path that is not there at all is the caller's mistake, said at once.
    with pytest.raises(cescacs.InputError, match="no such file"):
        cescacs.spark.read_games(spark, str(damaged / "not-there"))


def _assert_no_null_where_declared(array, dtype, where: str) -> None:
    """No null in ``array`` (pyarrow) below a place ``dtype`` (Spark) declares non-null."""
    from pyspark.sql.types import ArrayType, MapType, StructType

    if isinstance(dtype, ArrayType):
        items = array.flatten()
        assert dtype.containsNull or items.null_count == 0, f"{where}: a null item"
        _assert_no_null_where_declared(items, dtype.elementType, where + "[]")
    elif isinstance(dtype, MapType):
        assert array.keys.null_count == 0, f"{where}: a null key"
        assert dtype.valueContainsNull or array.items.null_count == 0, f"{where}: a null value"
    elif isinstance(dtype, StructType):
        for f in dtype.fields:
            child = array.field(f.name)
            assert f.nullable or child.null_count == 0, f"{where}.{f.name}: a null"
            _assert_no_null_where_declared(child, f.dataType, f"{where}.{f.name}")


@pytest.mark.parametrize("which", ["database", "damaged"])
def test_the_declared_non_null_columns_hold_no_null(spark, request, which):
    """The DataFrame declares ``file``, ``tags``, ``moves``, ``errors``, ``warnings`` and
    their items non-null (Spark then skips its null tests row by row). Declared wrongly,
    Spark would read a null as an empty or garbage value without a word: so every batch
    every task of both directories gives (every format, every codec, damaged streams, a
    binary file, the opt-in columns) is checked against the declaration, in Arrow."""
    import pyarrow as pa

    root = request.getfixturevalue(which)
    columns = list(cescacs.spark.EXTRA_COLUMNS)
    declared = cescacs.spark._spark_schema(columns)
    df = cescacs.spark.read_games(spark, str(root), split_bytes=1 << 16, columns=columns)
    assert df.schema == declared
    assert not declared["moves"].nullable and not declared["moves"].dataType.containsNull
    assert not declared["tags"].dataType.valueContainsNull
    files = cescacs.spark._located_files(str(root), None, None)
    tasks, locations, tables = cescacs.spark._plan(spark, files, None, 1 << 16)
    fields = cescacs.spark._TASK_FIELDS
    rows = 0
    for task in tasks:
        for batch in cescacs.spark._rows([dict(zip(fields, task))], 4096, locations, tables, columns):
            rows += batch.num_rows
            whole = pa.StructArray.from_arrays(batch.columns, names=batch.schema.names)
            _assert_no_null_where_declared(whole, declared, os.path.basename(task[1]))
    assert rows == df.count()


def test_an_unchanged_zip_is_not_read_again_and_a_changed_one_is(tmp_path, monkeypatch):
    """pyspark's worker invalidates the import caches before every task; a zip importer
    then keeps its directory unless its archive changed (``_unchanged_zips_stay_read``).
    Needs no Spark: the tasks call the same function."""
    import importlib
    import zipfile
    import zipimport

    # Restored at the end, so the rest of the session has the interpreter's own method.
    monkeypatch.setattr(zipimport.zipimporter, "invalidate_caches", zipimport.zipimporter.invalidate_caches)
    archive = tmp_path / "mods.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("cescacs_zip_probe_a.py", "VALUE = 1\n")
    monkeypatch.syspath_prepend(str(archive))
    for name in ("cescacs_zip_probe_a", "cescacs_zip_probe_b"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert importlib.import_module("cescacs_zip_probe_a").VALUE == 1
    assert isinstance(sys.path_importer_cache[str(archive)], zipimport.zipimporter)

    cescacs.spark._unchanged_zips_stay_read()
    cescacs.spark._unchanged_zips_stay_read()  # a second task on the same worker
    reads = []
    read_directory = zipimport._read_directory
    monkeypatch.setattr(zipimport, "_read_directory", lambda p: reads.append(p) or read_directory(p))
    for _ in range(3):
        importlib.invalidate_caches()
    if sys.version_info < (3, 12):
        # The first invalidation reads (nothing was recorded yet), the others do not.
        assert reads.count(str(archive)) == 1

    # A changed archive is read again: its new module is found.
    with zipfile.ZipFile(archive, "a") as z:
        z.writestr("cescacs_zip_probe_b.py", "VALUE = 2\n")
    importlib.invalidate_caches()
    assert importlib.import_module("cescacs_zip_probe_b").VALUE == 2
