"""Games/s per core of the `cescacs` package against python-chess, measured in the same
run: (1) one Python process reading and replaying classic PGN (CPU time of the
process); (2) the same Spark job in local mode, once with the package and once with
python-chess inside the tasks (wall time x cores).

    python crates/cescacs-py/bench/bench.py [--games N] [--spark] [--cores 2]

The input is the shared classic-PGN corpus (../shared/corpus/classic-pgn-real) repeated
to N games. python-chess is measured on a slice of it (it is ~100x slower); rates are
games per CPU second, so the sizes need not match.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import chess
import chess.pgn

import cescacs

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CESCACS_SHARED", REPO.parent / "shared"))


def corpus_bytes() -> bytes:
    root = SHARED / "corpus" / "classic-pgn-real"
    if not root.is_dir():
        sys.exit(f"missing {root}")
    chunks = []
    for p in sorted(root.rglob("*.pgn")):
        data = p.read_bytes()
        if b"[Variant" in data or b"\x00" in data:
            continue  # variants python-chess would read as standard chess
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        chunks.append(data.rstrip(b"\r\n") + b"\n\n")
    return b"".join(chunks)


def make_db(path: Path, games: int) -> int:
    body = corpus_bytes()
    per = sum(1 for _ in cescacs.read_games(body, format="pgn"))
    reps = max(1, games // per)
    with open(path, "wb") as f:
        for _ in range(reps):
            f.write(body)
    return per * reps


def python_chess_games(text: str):
    """Reads and replays every game (python-chess replays while reading)."""
    f = io.StringIO(text)
    while (game := chess.pgn.read_game(f)) is not None:
        board = game.end().board()
        yield game, board.fen()


def bench_python(db: Path, n_games: int, slice_games: int) -> float:
    t0 = time.process_time()
    count = 0
    for g in cescacs.read_games(db):
        _ = (g.final_position, g.moves, g.tags)
        count += 1
    ours = count / (time.process_time() - t0)

    text = db.read_text(encoding="utf-8")
    t0 = time.process_time()
    theirs_n = 0
    for _ in python_chess_games(text):
        theirs_n += 1
        if theirs_n >= slice_games:
            break
    theirs = theirs_n / (time.process_time() - t0)
    print(f"python, 1 core: cescacs {ours:,.0f} games/s ({count} games), "
          f"python-chess {theirs:,.0f} games/s ({theirs_n} games): {ours / theirs:.1f}x")

    # The Arrow reader (batches built in Rust) and the pandas DataFrame made from it.
    t0 = time.process_time()
    rows = sum(b.num_rows for b in cescacs.read_arrow(db))
    arrow = rows / (time.process_time() - t0)
    t0 = time.process_time()
    frame = cescacs.to_pandas(db)
    pandas = len(frame) / (time.process_time() - t0)
    print(f"python, 1 core: read_arrow {arrow:,.0f} games/s ({rows} games), "
          f"to_pandas {pandas:,.0f} games/s ({len(frame)} rows), read_games {ours:,.0f} games/s")
    return arrow


def _cpu_children() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu_self() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def bench_polars(db: Path, repeat: int = 3) -> None:
    """``read_arrow`` into a polars DataFrame against ``cescacs check -j1`` on the same
    real classic PGN, LF and CRLF: games per CPU second, best of ``repeat`` each,
    interleaved."""
    import subprocess

    import polars  # noqa: F401

    cli = REPO / "target" / "release" / "cescacs"
    if not cli.exists():
        print(f"polars vs check: skipped ({cli} missing: cargo build --release -p cescacs-cli)")
        return
    crlf = db.with_suffix(".crlf.pgn")
    crlf.write_bytes(db.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
    for label, path in (("LF", db), ("CRLF", crlf)):
        polars_best = check_best = float("inf")
        rows = 0
        for _ in range(repeat):
            c = _cpu_children()
            subprocess.run([str(cli), "check", "-q", "-j1", str(path)], check=False)
            check_best = min(check_best, _cpu_children() - c)
            c = _cpu_self()
            frame = cescacs.to_polars(path)
            polars_best = min(polars_best, _cpu_self() - c)
            rows = frame.height
            del frame
        ratio = check_best / polars_best
        print(f"real classic PGN {label} ({path.stat().st_size / 1e6:.1f} MB, {rows} games): read_arrow->polars "
              f"{rows / polars_best:,.0f} games per CPU-s, check -j1 {rows / check_best:,.0f}: {ratio:.2f} "
              f"(goal >= 0.80)")
    crlf.unlink()


def python_chess_rows(tasks):
    """The same Spark task with python-chess: read the task's byte range, one row per game."""
    import pyarrow as pa

    from cescacs.spark import _arrow_schema

    schema = _arrow_schema()
    for task in tasks:
        with open(task["file"], "rb") as f:
            f.seek(task["begin"])
            text = f.read(task["end"] - task["begin"]).decode("utf-8", "replace")
        rows = {k: [] for k in schema.names}
        index = task["index_base"]
        for game, fen in python_chess_games(text):
            rows["file"].append(task["name"])
            rows["index"].append(index)
            rows["line"].append(None)
            rows["format"].append("pgn")
            rows["tags"].append(list(game.headers.items()))
            board = game.board()
            sans = []
            for mv in game.mainline_moves():
                sans.append(board.san(mv))
                board.push(mv)
            rows["moves"].append(sans)
            rows["result"].append(game.headers.get("Result"))
            rows["final_position"].append(fen)
            rows["errors"].append([str(e) for e in game.errors])
            rows["warnings"].append([])
            rows["plies"].append(len(sans))
            rows["offset"].append(None)
            rows["length"].append(None)
            index += 1
            if len(rows["file"]) >= 4096:
                yield pa.RecordBatch.from_pydict(rows, schema=schema)
                rows = {k: [] for k in schema.names}
        if rows["file"]:
            yield pa.RecordBatch.from_pydict(rows, schema=schema)


def bench_spark(db: Path, small: Path, cores: int, arrow_rate: float) -> None:
    """Per core in task time (the Python workers' CPU seconds): the Spark reader
    against ``read_arrow`` in one process (``arrow_rate``) and against the same Spark
    job with python-chess in the tasks (same task plan, same ``mapInArrow`` over
    ``spark.range``, same rows); every job writes its rows to Spark's noop sink."""
    from seekable_speedup import cpu_seconds, spark_session

    import cescacs.spark

    spark = spark_session(cores)
    split = 16 << 20

    def timed(df):
        w0, j0 = cpu_seconds()
        t0 = time.perf_counter()
        df.write.format("noop").mode("overwrite").save()
        wall = time.perf_counter() - t0
        w1, j1 = cpu_seconds()
        return wall, w1 - w0, j1 - j0

    # Warm up the Python workers and the JVM once.
    cescacs.spark.read_games(spark, str(small), split_bytes=split).count()
    n = sum(1 for _ in cescacs.read_headers(db))
    t, task, jvm = timed(cescacs.spark.read_games(spark, str(db), split_bytes=split))
    ours = n / task
    tasks = cescacs.spark.plan_splits(spark, [str(small)], "pgn", max(1, os.path.getsize(small) // (2 * cores)))
    m = sum(1 for _ in cescacs.read_headers(small))
    fields = cescacs.spark._TASK_FIELDS

    def run(ids):
        for batch in ids:
            for i in batch.column(0).to_pylist():
                yield from python_chess_rows([dict(zip(fields, tasks[i]))])

    df = spark.range(0, len(tasks), 1, len(tasks)).mapInArrow(run, cescacs.spark.GAME_SCHEMA)
    u, theirs_task, theirs_jvm = timed(df)
    theirs = m / theirs_task
    print(f"spark local[{cores}], per core (task CPU): cescacs {ours:,.0f} games/s ({n} games, {task:.1f} s task CPU, "
          f"{jvm:.1f} s JVM CPU, {t:.1f} s wall), python-chess {theirs:,.0f} games/s ({m} games, "
          f"{theirs_task:.1f} s task CPU, {theirs_jvm:.1f} s JVM CPU, {u:.1f} s wall): {ours / theirs:.1f}x (goal >= 50x)")
    print(f"spark local[{cores}], per core (task CPU): Spark reader / read_arrow in one process: "
          f"{ours:,.0f} / {arrow_rate:,.0f} = {ours / arrow_rate:.2f} (goal >= 0.33)")
    spark.stop()


def bench_compressed(db: Path, cores: int) -> None:
    """One compressed file on every core: a seekable .zst (4 MiB frames that say their
    size) cut at frame starts into 16 MiB decompressed ranges, and a one-frame .zst
    through the serial cut, each against the same file forced into one task; wall and
    CPU seconds (``seekable_speedup.py`` does the same on a file of >= 1 GiB)."""
    import zstandard

    from seekable_speedup import cpu_seconds, measure, spark_session

    import cescacs.spark

    text = db.read_bytes()
    framed = db.with_suffix(".frames.pgn.zst")
    one = db.with_suffix(".one.pgn.zst")
    cctx = zstandard.ZstdCompressor(level=3, write_content_size=True)
    with open(framed, "wb") as f:
        for i in range(0, len(text), 4 << 20):
            f.write(cctx.compress(text[i : i + (4 << 20)]))
    one.write_bytes(cctx.compress(text))
    del text
    spark = spark_session(cores)
    split = 16 << 20
    print(f"spark local[{cores}], seekable .zst ({framed.stat().st_size / 1e6:.1f} MB), one task vs ranges:")
    pairs = measure(framed, split, 2, spark)
    t1, t2 = max(pairs, key=lambda p: p[0]["wall"] / p[1]["wall"])
    print(f"spark local[{cores}], seekable .zst: best {t1['wall'] / t2['wall']:.2f}x wall, task CPU one "
          f"{t1['task_cpu']:.1f} s / ranges {t2['task_cpu']:.1f} s ({t2['tasks']} tasks), "
          f"load average {t2['load'][1]:.1f}")
    w0, _ = cpu_seconds()
    t = time.perf_counter()
    df = cescacs.spark.read_games(spark, str(one), cut_compressed_bytes=0, chunk_bytes=split)
    n3 = df.count()
    t3 = time.perf_counter() - t
    w1, _ = cpu_seconds()
    print(f"spark local[{cores}], one-frame .zst, serial cut + {df.rdd.getNumPartitions()} chunk tasks: "
          f"{t3:.1f} s wall ({t1['wall'] / t3:.2f}x against one task), task CPU {w1 - w0:.1f} s, {n3} games")
    spark.stop()
    framed.unlink()
    one.unlink()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--slice", type=int, default=3_000, help="games python-chess reads")
    ap.add_argument("--spark", action="store_true")
    ap.add_argument("--cores", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db.pgn"
        n = make_db(db, args.games)
        small = Path(tmp) / "small.pgn"
        make_db(small, args.slice * 2)
        print(f"database: {n} games, {db.stat().st_size / 1e6:.1f} MB")
        arrow = bench_python(db, n, args.slice)
        bench_polars(db)
        if args.spark:
            bench_spark(db, small, args.cores, arrow)
            bench_compressed(db, args.cores)


if __name__ == "__main__":
    main()
