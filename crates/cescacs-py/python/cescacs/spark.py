"""Reading game databases as a Spark DataFrame, computed on the executors.

::

    from pyspark.sql import SparkSession
    import cescacs.spark

    spark = SparkSession.builder.getOrCreate()
    df = cescacs.spark.read_games(spark, "/data/lichess/")
    df.write.parquet("/data/lichess.parquet")

One row per game: ``file``, ``index`` (the game's number in its file, from 1),
``line`` (its first line), ``format``, ``tags`` (map), ``moves`` (main line as
written), ``result``, ``final_position`` (TLPD or FEN; null for a bad game) and
``errors`` (located messages, as ``cescacs check`` prints them; empty for a good game)
and ``warnings`` (located, as the CLI's).

A damaged file never fails the job: a stream damaged half-way (a cut ``.gz``, a corrupt
``.zst``) gives its games up to the damage and then one row carrying the located read
error; a file that cannot be read at all (missing, binary, a format that cannot be told)
gives one row with null ``index`` and ``line`` and the error in ``errors``. The other
files' rows are all there. Decompression (gzip, bzip2, xz, zstd) is done in Rust: no
optional Python package is needed.

How a file is cut into tasks
----------------------------
A plain file larger than ``split_bytes`` is cut into byte ranges (Hadoop's
line-record-reader rule): the task of ``[start, end)`` begins at the first *sync point*
at or after ``start`` (a line starting with ``[`` after a line that does not) and reads
every game that begins before the sync point at or after ``end``, so it finishes the
game crossing ``end`` and the next task begins exactly where it stopped. A first, cheap
Spark pass (no parsing: the game splitter only) runs the real splitter over each range
and reports its games, its lines, and whether the range's end is a true game boundary;
a range whose end is not (a ``[`` line inside a multi-line comment) is merged with the
next on the driver. The driver then gives every range the number of the games and
lines before it, so ``index`` and ``line`` are those of the whole file.
Compressed files (gzip, bzip2, xz, zstd) and whole-document PCN (``.json``) are one task
each; JSON Lines (``.jsonl``) is cut at lines.

Every task holds one game at a time plus one Arrow batch of ``batch_rows`` rows.
Paths must be readable by the executors under the same name (a local path in local
mode; a shared mount such as NFS, or a path Spark copied with ``SparkFiles``, on a
cluster).
"""

from __future__ import annotations

import os
from typing import Iterator, List, Optional, Sequence, Tuple, Union

from . import COMPRESSED_SUFFIXES, CescacsError, InputError, open_decompressed
from . import _cescacs

__all__ = ["read_games", "GAME_SCHEMA", "plan_splits", "game_files"]

#: The DataFrame's schema (Spark DDL).
GAME_SCHEMA = (
    "file string, index long, line long, format string, tags map<string,string>, "
    "moves array<string>, result string, final_position string, errors array<string>, "
    "warnings array<string>"
)

_TASK_SCHEMA = (
    "file string, name string, format string, framing string, compressed boolean, "
    "begin long, end long, index_base long, line_base long"
)

_GAME_SUFFIXES = (".ctl-pgn", ".ctlpgn", ".pgn", ".json", ".jsonl", ".pcn")

#: Default size of one task's byte range (Spark's own default split size).
DEFAULT_SPLIT_BYTES = 128 * 1024 * 1024


def game_files(path: Union[str, "os.PathLike[str]", Sequence[str]]) -> List[str]:
    """The game files under ``path`` (a file, a directory walked in sorted order, or a
    list of them), plain or compressed."""
    if isinstance(path, (list, tuple)):
        return [f for p in path for f in game_files(p)]
    path = os.fspath(path)
    if not os.path.isdir(path):
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file or directory")
        return [path]
    out: List[str] = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            lower = name.lower()
            for suffix in COMPRESSED_SUFFIXES:
                if lower.endswith(suffix):
                    lower = lower[: -len(suffix)]
                    break
            if lower.endswith(_GAME_SUFFIXES):
                out.append(os.path.join(root, name))
    out.sort()
    return out


def _head(path: str) -> bytes:
    with open_decompressed(path) as f:
        return f.read(8192)


def plan_splits(
    spark, files: Sequence[str], format: Optional[str], split_bytes: int
) -> List[Tuple]:
    """The tasks (one per byte range) for ``files``, after the first pass."""
    plan = []
    to_scan = []
    for path in files:
        compressed = path.lower().endswith(COMPRESSED_SUFFIXES)
        try:
            fmt = format or _cescacs.detect(path, _head(path))
            size = os.path.getsize(path)
        except (CescacsError, OSError):
            # The task says what is wrong, as one row (the job goes on).
            fmt, size = None, 0
        if fmt is None:
            plan.append([path, format, "pgn", compressed, [(0, None, None, None, True)]])
            continue
        framing = _cescacs.framing(fmt, path)
        if compressed or framing in ("whole", "json") or size <= split_bytes:
            plan.append([path, fmt, framing, compressed, [(0, size, None, None, True)]])
            continue
        cuts = list(range(0, size, split_bytes))
        ranges = [(c, min(c + split_bytes, size)) for c in cuts]
        entry = [path, fmt, framing, compressed, ranges]
        plan.append(entry)
        to_scan.extend((len(plan) - 1, i, path, s, e, framing) for i, (s, e) in enumerate(ranges))
    if to_scan:
        def scan(job):
            k, i, path, s, e, framing = job
            return (k, i, s, e, _cescacs.scan_range(path, s, e, framing))

        scanned = (
            spark.sparkContext.parallelize(to_scan, len(to_scan)).map(scan).collect()
        )
        by_file = {}
        for k, i, s, e, result in scanned:
            by_file.setdefault(k, []).append((i, s, e, result))
        for k, results in by_file.items():
            path, framing = plan[k][0], plan[k][2]
            results.sort()
            merged = []
            j = 0
            while j < len(results):
                _, s, e, r = results[j]
                # A range whose end is not a game boundary is merged with the next and
                # scanned again (on the driver: rare, and only the splitter runs).
                while not r[4]:
                    j += 1
                    e = results[j][2]
                    r = _cescacs.scan_range(path, s, e, framing)
                merged.append((r[0], r[1], r[2], r[3], True))
                j += 1
            plan[k][4] = merged
    tasks = []
    for path, fmt, framing, compressed, ranges in plan:
        index_base, line_base = 1, 1
        for begin, end, games, lines, _ in ranges:
            if len(ranges) > 1 and begin >= end:
                continue
            tasks.append(
                (os.path.abspath(path), path, fmt, framing, compressed, begin, end, index_base, line_base)
            )
            if games is not None:
                index_base += games
                line_base += lines
    return tasks


def _task_games(task, batch_rows: int) -> Iterator:
    """The columns of a task's games, batch by batch; a file that cannot be read at
    all is one row carrying its error (null index and line)."""
    try:
        if task["compressed"] or task["end"] is None:
            reader = _cescacs.read_games(task["file"], task["format"], task["name"])
        else:
            reader = _cescacs.read_games(
                task["file"],
                task["format"],
                task["name"],
                task["begin"],
                task["end"],
                task["index_base"],
                task["line_base"],
            )
        fmt = reader.format
        while True:
            columns = reader.next_columns(batch_rows)
            if not columns[0]:
                return
            yield fmt, columns
    except CescacsError as e:
        yield task["format"], [[None], [None], [[]], [[]], [None], [None], [[str(e)]], [[]]]


def _rows(batches: Iterator, batch_rows: int) -> Iterator:
    import pyarrow as pa

    schema = _arrow_schema()
    for tasks in batches:
        for task in tasks.to_pylist():
            for fmt, columns in _task_games(task, batch_rows):
                index, line, tags, moves, result, final_position, errors, warnings = columns
                n = len(index)
                yield pa.RecordBatch.from_arrays(
                    [
                        pa.array([task["name"]] * n, pa.string()),
                        pa.array(index, pa.int64()),
                        pa.array(line, pa.int64()),
                        pa.array([fmt] * n, pa.string()),
                        pa.array(tags, pa.map_(pa.string(), pa.string())),
                        pa.array(moves, pa.list_(pa.string())),
                        pa.array(result, pa.string()),
                        pa.array(final_position, pa.string()),
                        pa.array(errors, pa.list_(pa.string())),
                        pa.array(warnings, pa.list_(pa.string())),
                    ],
                    schema=schema,
                )


def _arrow_schema():
    import pyarrow as pa

    return pa.schema(
        [
            ("file", pa.string()),
            ("index", pa.int64()),
            ("line", pa.int64()),
            ("format", pa.string()),
            ("tags", pa.map_(pa.string(), pa.string())),
            ("moves", pa.list_(pa.string())),
            ("result", pa.string()),
            ("final_position", pa.string()),
            ("errors", pa.list_(pa.string())),
            ("warnings", pa.list_(pa.string())),
        ]
    )


def read_games(
    spark,
    path: Union[str, "os.PathLike[str]", Sequence[str]],
    format: Optional[str] = None,
    split_bytes: int = DEFAULT_SPLIT_BYTES,
    batch_rows: int = 4096,
):
    """A DataFrame of every game under ``path`` (file, directory, or list), one row per
    game, with the columns of :data:`GAME_SCHEMA`. ``format`` forces one format for all
    files (else each file's is detected). Large plain files are read by several tasks
    (``split_bytes`` each); see the module documentation for how they are cut."""
    files = game_files(path)
    if not files:
        raise InputError(f"{os.fspath(path) if not isinstance(path, (list, tuple)) else path}: no game files")
    tasks = plan_splits(spark, files, format, split_bytes)
    task_df = spark.createDataFrame(
        spark.sparkContext.parallelize(tasks, len(tasks)), _TASK_SCHEMA
    )
    return task_df.mapInArrow(lambda it: _rows(it, batch_rows), GAME_SCHEMA)
