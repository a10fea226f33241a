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
``errors`` (located messages, as ``cescacs check`` prints them; empty for a good game),
``warnings`` (located, as the CLI's), ``plies``, and ``offset``/``length`` (the game's
bytes in its decompressed file). ``columns=`` adds per-ply ``uci``, ``clocks``,
``evals`` (:data:`EXTRA_COLUMNS`). ``file``, ``tags``, ``moves``, ``errors``,
``warnings``, their items and the items of ``uci`` are never null, and the DataFrame's
schema declares them non-null.

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
Spark pass (no parsing: the game splitter only; one task per core, each scanning its
share of the ranges) runs the real splitter over each range
and reports its games, its lines, and whether the range's end is a true game boundary;
a range whose end is not (a ``[`` line inside a multi-line comment) is merged with the
next on the driver. The driver then gives every range the number of the games and
lines before it, so ``index`` and ``line`` are those of the whole file.
A compressed file in a seekable form (several zstd frames that say their size, the
zstd seekable format's seek table, BGZF) is cut the same way in *decompressed* bytes,
at frame starts: its frame table, read from headers only, gives each range its first
frame, and every read of the first pass and of the parse starts decoding at a frame
start (``scan_frames``, ``FramedFile``), so each frame is decoded once per pass and
none only to be skipped. Other compressed files (plain gzip members, bzip2, xz, one
zstd frame) are one task each, or go through the serial cut below; whole-document PCN
(``.json``) is one task; JSON Lines (``.jsonl``) is cut at lines.

Every task holds one game at a time plus one Arrow batch of ``batch_rows`` rows.
Local paths must be readable by the executors under the same name (a local path in
local mode; a shared mount such as NFS on a cluster). URLs (``s3://``, ``gs://``,
``abfs://``, ``hdfs://``) are read by the executors through fsspec, which must be
installed there with the filesystem's package (``cescacs[s3]`` for S3).
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import COMPRESSED_SUFFIXES, CescacsError, InputError
from . import _cescacs, _storage

__all__ = ["read_games", "GAME_SCHEMA", "plan_splits", "game_files"]

#: The DataFrame's schema (Spark DDL). The columns marked ``NOT NULL`` are never null,
#: nor are the items of ``moves``, ``errors`` and ``warnings`` or the values of
#: ``tags`` (which DDL cannot say; the DataFrame's schema says it): Spark then skips
#: its null tests on them for every row it makes.
GAME_SCHEMA = (
    "file string NOT NULL, index long, line long, format string, "
    "tags map<string,string> NOT NULL, moves array<string> NOT NULL, result string, "
    "final_position string, errors array<string> NOT NULL, warnings array<string> NOT NULL, "
    "plies long, offset long, length long"
)

#: Spark DDL of the opt-in per-ply columns (``columns=`` of :func:`read_games`).
EXTRA_COLUMNS = {
    "uci": "uci array<string>",
    "clocks": "clocks array<double>",
    "evals": "evals array<struct<cp:int,mate:int>>",
}


def _spark_schema(columns=()):
    """:data:`GAME_SCHEMA` and the ``columns`` asked for as a ``StructType``, saying
    also which list items and map values are never null. ``mapInArrow`` turns every
    Arrow row into a Spark row with a projection that tests each value declared
    nullable (Java Flight Recorder: 17 % of the JVM's per-row time, a third of it on
    list items); declared non-null, the test is not made. Nothing here changes a value:
    the Rust reader and :func:`_error_batch` never write null where this says non-null
    (``test_the_declared_non_null_columns_hold_no_null``)."""
    from pyspark.sql.types import (
        ArrayType,
        DoubleType,
        IntegerType,
        LongType,
        MapType,
        StringType,
        StructField,
        StructType,
    )

    def strings(nullable_items: bool = False) -> ArrayType:
        return ArrayType(StringType(), nullable_items)

    fields = [
        StructField("file", StringType(), False),
        StructField("index", LongType(), True),
        StructField("line", LongType(), True),
        StructField("format", StringType(), True),
        StructField("tags", MapType(StringType(), StringType(), False), False),
        StructField("moves", strings(), False),
        StructField("result", StringType(), True),
        StructField("final_position", StringType(), True),
        StructField("errors", strings(), False),
        StructField("warnings", strings(), False),
        StructField("plies", LongType(), True),
        StructField("offset", LongType(), True),
        StructField("length", LongType(), True),
    ]
    evals = StructType([StructField("cp", IntegerType(), True), StructField("mate", IntegerType(), True)])
    extra = {
        # Null for a game kind without UCI; every item of a list is a move.
        "uci": StructField("uci", strings(), True),
        "clocks": StructField("clocks", ArrayType(DoubleType(), True), True),
        "evals": StructField("evals", ArrayType(evals, True), True),
    }
    return StructType(fields + [extra[c] for c in columns])


_TASK_SCHEMA = (
    "file string, name string, format string, framing string, compressed boolean, "
    "begin long, end long, index_base long, line_base long, loc int, frames int"
)

_GAME_SUFFIXES = (".ctl-pgn", ".ctlpgn", ".pgn", ".json", ".jsonl", ".pcn")

#: Default size of one task's byte range (Spark's own default split size).
DEFAULT_SPLIT_BYTES = 128 * 1024 * 1024

#: Default rows per Arrow batch handed from a task to Spark.
DEFAULT_BATCH_ROWS = 4096


def game_files(
    path: Union[str, "os.PathLike[str]", Sequence[str]],
    storage_options: Optional[dict] = None,
    filesystem=None,
) -> List[str]:
    """The game files under ``path`` (a file, a directory walked in sorted order, or a
    list of them), plain or compressed; URLs (``s3://…``) are listed through fsspec."""
    return [loc.url(f) for loc, f in _located_files(path, storage_options, filesystem)]


def _is_game_file(name: str) -> bool:
    lower = name.lower()
    for suffix in COMPRESSED_SUFFIXES:
        if lower.endswith(suffix):
            lower = lower[: -len(suffix)]
            break
    return lower.endswith(_GAME_SUFFIXES)


def _located_files(path, storage_options, filesystem) -> List[Tuple[_storage.Location, str]]:
    if isinstance(path, (list, tuple)):
        return [x for p in path for x in _located_files(p, storage_options, filesystem)]
    shown = os.fspath(path)
    loc, inner = _storage.resolve(shown, storage_options, filesystem)
    if not loc.isdir(inner):
        if not loc.exists(inner):
            raise InputError(f"{shown}: no such file or directory")
        return [(loc, inner)]
    return [(loc, f) for f in loc.walk_files(inner) if _is_game_file(f.rsplit("/", 1)[-1])]


def _head(loc: "_storage.Location", path: str) -> bytes:
    with _storage.open_decompressed(loc, path) as f:
        return f.read(8192)


def _scan(loc: "_storage.Location", path: str, size: int, s: int, e: int, framing: str, table=None):
    if table is not None:
        # s and e are frame starts: each frame of the range is decoded once, in Rust.
        if loc.local:
            return _cescacs.scan_frames(path, table[:3], s, e, framing, None, path)
        return _cescacs.scan_frames(
            lambda: loc.open(path), table[:3], s, e, framing, table[3], loc.url(path)
        )
    if loc.local:
        return _cescacs.scan_range(path, s, e, framing)
    return _cescacs.scan_source(lambda: loc.open(path), size, s, e, framing, loc.url(path))


def _framed(loc: "_storage.Location", path: str, table):
    """The decompressed text of a seekable compressed file (``table`` from
    :func:`_frame_table`), as a seekable binary file."""
    if loc.local:
        return _cescacs.FramedFile(path, table[:3])
    return _cescacs.FramedFile(lambda: loc.open(path), table[:3], table[3])


def _frame_table(loc: "_storage.Location", path: str, size: int):
    """``(codec, frames, decompressed size, compressed size)`` of a compressed file in a
    seekable form (several zstd frames that say their size, a zstd seek table, BGZF),
    read from its headers only; ``None`` for any other file."""
    try:
        if loc.local:
            t = _cescacs.seekable_frames(path)
        else:
            t = _cescacs.seekable_frames(lambda: loc.open(path), size, loc.url(path))
    except CescacsError:
        # Damaged headers: the one-task reader reports the damage, located.
        return None
    return None if t is None else (t[0], t[1], t[2], size)


def _range_count(size: int, split_bytes: int, parallelism: int) -> int:
    """How many ranges a file of ``size`` bytes is cut into: one per ``split_bytes``,
    rounded up to a multiple of ``parallelism`` (the cores Spark runs tasks on) when the
    file alone fills the cores, so that its equal ranges end together on every core
    (1.15 GB in 64 MiB ranges was 17 full ranges and a small one on 2 cores: one core
    idled for most of a task at the end)."""
    n = max(1, -(-size // max(1, split_bytes)))
    if parallelism > 1 and n >= parallelism:
        n = -(-n // parallelism) * parallelism
    return n


def _even_cuts(size: int, split_bytes: int, parallelism: int, starts: Optional[List[int]] = None) -> List[int]:
    """Range starts of a file of ``size`` (decompressed) bytes: ``_range_count`` ranges of
    equal length, each start moved to the nearest of ``starts`` (the frame starts of a
    seekable compressed file, so no task decodes a frame only to skip it) when given."""
    import bisect

    n = _range_count(size, split_bytes, parallelism)
    cuts = [0]
    for i in range(1, n):
        at = i * size // n
        if starts:
            j = bisect.bisect_left(starts, at)
            near = [starts[k] for k in (j - 1, j) if 0 <= k < len(starts)]
            at = min(near, key=lambda c: (abs(c - at), c))
        if cuts[-1] < at < size:
            cuts.append(at)
    return cuts


def _frame_cuts(table, split_bytes: int, parallelism: int = 1) -> List[int]:
    """Range starts of a seekable compressed file: frame starts (decompressed offsets)
    about ``split_bytes`` apart, so no task decodes a frame only to skip it."""
    return _even_cuts(table[2], split_bytes, parallelism, [d for _, d in table[1]])


def _parallelism(spark) -> int:
    try:
        return max(1, int(spark.sparkContext.defaultParallelism))
    except Exception:  # noqa: BLE001  (a stand-in session in a test: no balancing)
        return 1


def _unchanged_zips_stay_read() -> None:
    """Make ``zipimporter.invalidate_caches`` re-read a zip archive only when the file
    changed (Python < 3.12), in the Spark Python worker running this task.

    pyspark 3.5's worker calls ``importlib.invalidate_caches()`` before every task; on
    Python 3.10 and 3.11 that makes every zip importer on the path (one per package
    imported from ``pyspark.zip`` and py4j's zip) read its whole archive directory
    again, in Python (CPython gh-103200, lazy since 3.12): about 55 ms of worker CPU
    per task, two thirds of an empty task's (docs/scaling.md). An importer whose
    archive has the same inode, size and modification and change times as when it last
    read it would read the same directory, so it keeps what it read; a changed archive
    is read again as before. Called from the task functions, so the tasks after the
    first on each reused worker skip the re-reads."""
    import sys

    if sys.version_info >= (3, 12):
        return
    import zipimport

    cls = zipimport.zipimporter
    if getattr(cls.invalidate_caches, "_cescacs_stat_checked", False):
        return
    reread = cls.invalidate_caches

    def invalidate_caches(self) -> None:
        try:
            st = os.stat(self.archive)
            key: Any = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except OSError:
            key = None
        if key is None or self.__dict__.get("_cescacs_stat") != key:
            reread(self)
            self.__dict__["_cescacs_stat"] = key

    invalidate_caches._cescacs_stat_checked = True  # type: ignore[attr-defined]
    cls.invalidate_caches = invalidate_caches  # type: ignore[method-assign]


def _groups(jobs: List[Any], n: int) -> List[List[Any]]:
    """``jobs`` in at most ``n`` consecutive groups of nearly equal length."""
    n = max(1, min(n, len(jobs)))
    return [jobs[i * len(jobs) // n : (i + 1) * len(jobs) // n] for i in range(n)]


def plan_splits(
    spark,
    files: Sequence,
    format: Optional[str],
    split_bytes: int,
) -> List[Tuple]:
    """The tasks (one per byte range) for ``files`` (local paths, or (location, path)
    pairs as :mod:`cescacs._storage` resolves URLs), after the first pass."""
    return _plan(spark, files, format, split_bytes)[0]


def _plan(spark, files: Sequence, format: Optional[str], split_bytes: int):
    located = [f if isinstance(f, tuple) else _storage.resolve(os.fspath(f)) for f in files]
    parallelism = _parallelism(spark)
    locations: List = []
    plan = []
    to_scan: List[Any] = []
    # Plan entries of cut files, whose last range the first pass leaves out.
    unscanned: List[int] = []
    # Frame tables of seekable compressed files, by plan entry.
    tables: Dict[Any, Any] = {}
    for loc, path in located:
        if loc not in locations:
            locations.append(loc)
        li = locations.index(loc)
        name = loc.url(path)
        compressed = path.lower().endswith(COMPRESSED_SUFFIXES)
        try:
            fmt = format or _cescacs.detect(name, _head(loc, path))
            size = loc.size(path)
        except (CescacsError, OSError):
            # The task says what is wrong, as one row (the job goes on).
            fmt, size = None, 0
        if fmt is None:
            plan.append([li, path, name, format, "pgn", compressed, size, [(0, None, None, None, True)]])
            continue
        framing = _cescacs.framing(fmt, name)
        table = None
        if compressed and framing in ("pgn", "lines") and size > split_bytes // 64:
            # A seekable compressed file is cut like a plain one, in decompressed bytes.
            table = _frame_table(loc, path, size)
            if table is not None:
                tables[len(plan)] = table
                size = table[2]
        if (compressed and table is None) or framing in ("whole", "json") or size <= split_bytes:
            plan.append([li, path, name, fmt, framing, compressed, size, [(0, size, None, None, True)]])
            continue
        if table is not None:
            cuts = _frame_cuts(table, split_bytes, parallelism)
        else:
            cuts = _even_cuts(size, split_bytes, parallelism)
        ranges = list(zip(cuts, cuts[1:] + [size]))
        plan.append([li, path, name, fmt, framing, compressed, size, ranges])
        # The last range is not scanned: its counts would place no game after it, and
        # its first game is where the range before it ends (the same sync-point search
        # from the same offset), so a tenth of the first pass would be spent for
        # nothing with ten ranges.
        to_scan.extend((len(plan) - 1, i, s, e) for i, (s, e) in enumerate(ranges[:-1]))
        unscanned.append(len(plan) - 1)
    scanned: List[Tuple] = []
    if to_scan:
        jobs = [
            (k, i, plan[k][0], plan[k][1], plan[k][6], s, e, plan[k][4], tables.get(k))
            for k, i, s, e in to_scan
        ]

        def scan(group):
            _unchanged_zips_stay_read()
            out = []
            for k, i, li, path, size, s, e, framing, table in group:
                out.append((k, i, s, e, _scan(locations[li], path, size, s, e, framing, table)))
            return out

        # One Spark task per core, each scanning its share of the ranges in turn: a task
        # costs a fixed 50-100 ms of Python and JVM time (on Python < 3.12 most of it is
        # pyspark's worker re-reading its zipped modules' directories, which
        # _unchanged_zips_stay_read skips after a worker's first task), which 18 tasks
        # of a 0.7 s pass multiplied by three (docs/scaling.md).
        groups = _groups(jobs, parallelism)
        scanned = [
            x for part in spark.sparkContext.parallelize(groups, len(groups)).map(scan).collect() for x in part
        ]
    by_file: Dict[Any, Any] = {k: [] for k in unscanned}
    for k, i, s, e, result in scanned:
        by_file[k].append((i, s, e, result))
    for k, results in by_file.items():
        li, path, size, framing = plan[k][0], plan[k][1], plan[k][6], plan[k][4]
        results.sort()
        last_s, last_e = plan[k][7][-1]
        # The last range, not scanned: no counts, ends at the end of the file.
        results.append((len(results), last_s, last_e, None))
        merged: List[Tuple] = []
        j = 0
        while j < len(results):
            _, s, e, r = results[j]
            if r is None:
                r = (merged[-1][1] if merged else 0, e, None, None, True)
            # A range whose end is not a game boundary is merged with the next and
            # scanned again (on the driver: rare, and only the splitter runs).
            while not r[4]:
                j += 1
                e = results[j][2]
                r = _scan(locations[li], path, size, s, e, framing, tables.get(k))
            merged.append((r[0], r[1], r[2], r[3], True))
            j += 1
        plan[k][7] = merged
    tasks = []
    table_list = []
    for k, (li, path, name, fmt, framing, compressed, size, ranges) in enumerate(plan):
        index_base, line_base = 1, 1
        if locations[li].local:
            path = os.path.abspath(path)
        ti = -1
        if k in tables:
            table_list.append(tables[k])
            ti = len(table_list) - 1
        for begin, end, games, lines, _ in ranges:
            if len(ranges) > 1 and begin >= end:
                continue
            tasks.append((path, name, fmt, framing, compressed, begin, end, index_base, line_base, li, ti))
            if games is not None:
                index_base += games
                line_base += lines
    return tasks, locations, table_list


def _open_task(task, locations, batch_rows, tables=(), columns=()):
    """The game reader of one task: its whole file, or its byte range (of the
    decompressed text, for a seekable compressed file)."""
    source, end = _task_source(task, locations[task["loc"]], tables)
    return _cescacs.read_arrow(
        source,
        task["format"],
        task["name"],
        task["begin"],
        end,
        task["index_base"],
        task["line_base"],
        batch_rows,
        list(columns),
    )


def _task_source(task, loc, tables):
    """What the reader of one task reads, and where it stops (``None``: at the end of
    what is given). ``begin``, ``index_base`` and ``line_base`` place its games in their
    file whatever the source (0, 1 and 1 for a task of a whole file)."""
    if task["frames"] is not None and task["frames"] >= 0:
        # Given a FramedFile and a range, the reader decodes it in Rust from the frame
        # holding ``begin`` (a frame start, or just after one).
        return _framed(loc, task["file"], tables[task["frames"]]), task["end"]
    if task["frames"] == -2:
        # A chunk file of the serial cut: read whole, its offsets placed in its file.
        return (open(task["file"], "rb") if loc.local else loc.open(task["file"])), None
    if task["compressed"]:
        return _storage.open_decompressed(loc, task["file"]), None
    if loc.local:
        return task["file"], task["end"]
    return _storage.RangeReader(loc.open(task["file"]), task["begin"], task["end"]), None


_TASK_FIELDS = tuple(f.split()[0] for f in _TASK_SCHEMA.split(", "))


def _task_frame(spark, tasks: Sequence[Tuple], batch_rows: int, locations, tables, columns, schema):
    """One Spark task per entry of ``tasks``: each partition of ``spark.range`` names its
    task by number. The input of ``mapInArrow`` is then made in the JVM, with no Python
    RDD (and no second Python worker per task) to turn the task tuples into rows first:
    on 18 range tasks of a 1.15 GB file that saved 6.6 s of 37 s of task CPU
    (docs/scaling.md). The plan goes to the executors as a broadcast variable, which a
    Python worker loads once for all the tasks it runs (in the closure, every task would
    unpickle the whole plan: quadratic in the number of files)."""
    plan = spark.sparkContext.broadcast(list(tasks))

    def run(ids: Iterator) -> Iterator:
        _unchanged_zips_stay_read()
        for batch in ids:
            for i in batch.column(0).to_pylist():
                task = dict(zip(_TASK_FIELDS, plan.value[i]))
                yield from _rows([task], batch_rows, locations, tables, columns)

    n = len(tasks)
    return spark.range(0, n, 1, n).mapInArrow(run, schema)


def _rows(tasks: Iterable[Dict[str, Any]], batch_rows: int, locations, tables=(), columns=()) -> Iterator:
    # The Rust reader builds the Arrow batches: no Python object per game.
    for task in tasks:
        try:
            yield from _open_task(task, locations, batch_rows, tables, columns)
        except CescacsError as e:
            # A file that cannot be read at all is one row carrying its error (null
            # index and line); the other tasks' rows are all there.
            yield _error_batch(task, str(e), columns)


def _error_batch(task, message: str, columns=()):
    import pyarrow as pa

    schema = _arrow_schema(columns)
    row: Dict[str, Any] = {name: None for name in schema.names}
    row.update(
        file=task["name"], format=task["format"], tags=[], moves=[], errors=[message], warnings=[]
    )
    return pa.RecordBatch.from_pylist([row], schema=schema)


def _arrow_schema(columns=()):
    import pyarrow as pa

    extra = {
        "uci": pa.list_(pa.string()),
        "clocks": pa.list_(pa.float64()),
        "evals": pa.list_(pa.struct([("cp", pa.int32()), ("mate", pa.int32())])),
    }
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
            ("plies", pa.int64()),
            ("offset", pa.int64()),
            ("length", pa.int64()),
        ]
        + [(c, extra[c]) for c in columns]
    )


#: A compressed PGN file larger than this (compressed bytes) is cut by a serial first
#: stage into game-aligned chunks that all executors parse.
DEFAULT_CUT_COMPRESSED_BYTES = 16 * 1024 * 1024

#: Decompressed bytes per chunk of that first stage.
DEFAULT_CHUNK_BYTES = 32 * 1024 * 1024


def _cut(task, locations, chunk_bytes: int, stage) -> List[Tuple]:
    """The serial first stage of one compressed file: decompress it once, cut it into
    game-aligned chunk files under ``stage`` (a location and a directory), and return
    one task per chunk, numbered as the whole file."""
    loc = locations[task[9]]
    stage_loc, stage_dir = stage
    out = []
    stream = _storage.open_decompressed(loc, task[0])
    try:
        cutter = _cescacs.ChunkCutter(stream, task[1], chunk_bytes)
        for i, (chunk, begin, index_base, line_base) in enumerate(cutter):
            path = f"{stage_dir}/{abs(hash(task[0])):x}-{i:06d}.chunk"
            if stage_loc.local:
                with open(path, "wb") as f:
                    f.write(chunk)
            else:
                stage_loc.fs.pipe_file(path, chunk)
            out.append((path, begin, len(chunk), index_base, line_base))
    finally:
        stream.close()
    return out


def _stage(spark, stage_dir, storage_options, filesystem):
    """Where the chunk files go: ``stage_dir``, or a temporary directory in local mode."""
    if stage_dir is None:
        if not spark.sparkContext.master.startswith("local"):
            raise CescacsError(
                "cutting a compressed file on a cluster needs stage_dir= (a directory or URL "
                "every executor can read, e.g. s3://bucket/tmp/)"
            )
        import atexit
        import shutil
        import tempfile

        stage_dir = tempfile.mkdtemp(prefix="cescacs-chunks-")
        atexit.register(shutil.rmtree, stage_dir, True)
    loc, inner = _storage.resolve(os.fspath(stage_dir), storage_options, filesystem)
    if loc.local:
        os.makedirs(inner, exist_ok=True)
    return loc, inner


def read_games(
    spark,
    path: Union[str, "os.PathLike[str]", Sequence[str]],
    format: Optional[str] = None,
    split_bytes: int = DEFAULT_SPLIT_BYTES,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    storage_options: Optional[dict] = None,
    filesystem=None,
    cut_compressed_bytes: Optional[int] = DEFAULT_CUT_COMPRESSED_BYTES,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    stage_dir: Optional[str] = None,
    columns: Sequence[str] = (),
):
    """A DataFrame of every game under ``path`` (file, directory, or list), one row per
    game, with the columns of :data:`GAME_SCHEMA`. ``format`` forces one format for all
    files (else each file's is detected). Large plain files (and seekable compressed
    ones) are read by several tasks, about ``split_bytes`` each: a file of ``n`` such
    ranges, ``n`` at least Spark's default parallelism, is cut into a multiple of that
    parallelism of equal ranges, so its tasks end together on every core; see the
    module documentation for how they are cut.

    ``path`` may be a URL of any filesystem fsspec knows (``s3://``, ``gs://``,
    ``abfs://``, ``hdfs://``, ``file://``): the driver lists it and sizes its files,
    the executors read their byte ranges directly (no JVM connector).
    ``storage_options`` (credentials, ``endpoint_url``…) are passed to fsspec, or give
    a ready fsspec ``filesystem``.

    A compressed PGN file of more than ``cut_compressed_bytes`` (``None``: never) is
    read on every core: one task decompresses it once and cuts it into game-aligned
    chunk files of about ``chunk_bytes`` under ``stage_dir`` (a path or URL every
    executor reads; by default a temporary directory, local mode only), then one task
    per chunk parses it; game numbers and lines stay those of the whole file. The cut
    runs when ``read_games`` is called; the chunk files stay until the interpreter
    exits (temporary directory) or the caller removes them (``stage_dir``)."""
    columns = list(columns)
    for c in columns:
        if c not in EXTRA_COLUMNS:
            raise CescacsError(f"unknown column {c!r}: expected uci, clocks or evals")
    schema = _spark_schema(columns)
    files = _located_files(path, storage_options, filesystem)
    if not files:
        shown = path if isinstance(path, (list, tuple, str)) else os.fspath(path)  # type: ignore[arg-type]
        raise InputError(f"{shown}: no game files")
    tasks, locations, tables = _plan(spark, files, format, split_bytes)
    cut = []
    if cut_compressed_bytes is not None:
        for t in tasks:
            if t[4] and t[10] < 0 and t[3] == "pgn" and locations[t[9]].size(t[0]) > cut_compressed_bytes:
                cut.append(t)
        tasks = [t for t in tasks if t not in cut]
    sc = spark.sparkContext
    frames = []
    if tasks:
        frames.append(_task_frame(spark, tasks, batch_rows, locations, tables, columns, schema))
    if cut:
        stage = _stage(spark, stage_dir, storage_options, filesystem)
        locations.append(stage[0])
        stage_li = len(locations) - 1
        cut_jobs = sc.parallelize(cut, len(cut)).map(lambda t: _cut(t, locations, chunk_bytes, stage))
        chunk_tasks = []
        for t, chunks in zip(cut, cut_jobs.collect()):
            for path, begin, size, index_base, line_base in chunks:
                # A chunk is read as a plain byte range of its chunk file; its games keep
                # the whole file's name, numbers and lines.
                # frames = -2 marks a chunk file: its offsets count from `begin`, the
                # chunk's place in the decompressed file.
                chunk_tasks.append((path, t[1], t[2], t[3], False, begin, begin + size, index_base, line_base, stage_li, -2))
        frames.append(_task_frame(spark, chunk_tasks, batch_rows, locations, (), columns, schema))
    df = frames[0]
    for f in frames[1:]:
        df = df.unionByName(f)
    return df
