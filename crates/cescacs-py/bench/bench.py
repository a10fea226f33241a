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


def bench_python(db: Path, n_games: int, slice_games: int) -> None:
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


def python_chess_rows(batches):
    """The same Spark task with python-chess: read the task's byte range, one row per game."""
    import pyarrow as pa

    from cescacs.spark import _arrow_schema

    schema = _arrow_schema()
    for tasks in batches:
        for task in tasks.to_pylist():
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


def bench_spark(db: Path, small: Path, cores: int) -> None:
    import os, sys
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import cescacs.spark

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    spark = (SparkSession.builder.master(f"local[{cores}]").appName("cescacs-bench")
             .config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1")
             .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate())
    split = 16 << 20

    def timed(df):
        t0 = time.perf_counter()
        n = df.count()
        return n, time.perf_counter() - t0

    # Warm up the Python workers and the JVM once.
    cescacs.spark.read_games(spark, str(small), split_bytes=split).count()
    n, t = timed(cescacs.spark.read_games(spark, str(db), split_bytes=split))
    ours = n / t / cores
    tasks = cescacs.spark.plan_splits(spark, [str(small)], "pgn", max(1, os.path.getsize(small) // (2 * cores)))
    task_df = spark.createDataFrame(spark.sparkContext.parallelize(tasks, len(tasks)), cescacs.spark._TASK_SCHEMA)
    df = task_df.mapInArrow(python_chess_rows, cescacs.spark.GAME_SCHEMA)
    m, u = timed(df)
    theirs = m / u / cores
    print(f"spark local[{cores}], per core: cescacs {ours:,.0f} games/s ({n} games, {t:.1f} s), "
          f"python-chess {theirs:,.0f} games/s ({m} games, {u:.1f} s): {ours / theirs:.1f}x")
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
        bench_python(db, n, args.slice)
        if args.spark:
            bench_spark(db, small, args.cores)
            bench_compressed(db, args.cores)


if __name__ == "__main__":
    main()
