"""One large seekable ``.pgn.zst`` on every core: Spark ``local[2]`` reading the file cut
into frame-aligned ranges against the same file forced into one task, timed in wall
seconds *and* CPU seconds (the machine is shared: wall alone says little when other
jobs hold the cores).

    python crates/cescacs-py/bench/seekable_speedup.py [--mib 1100] [--repeat 2] [--split-mib 0]

The text is the shared classic corpus (``$CESCACS_SHARED/corpus/classic-pgn-real``)
repeated to ``--mib`` MiB, compressed in 4 MiB zstd frames that say their size. First,
untimed, the rows are checked: the range tasks' rows against the CLI game for game,
streamed (``rows_check.check_against_pcn``: numbering, every error's game/line/column
from ``cescacs check --report``, each game's tags/result/plies against ``cescacs convert
--to pcn``), and the one task's rows equal to the range tasks' (``content_digest``, every
column). Then the two jobs run interleaved (one task, ranges, one task, ranges …
``--repeat`` pairs), each ending in ``--job``: ``noop`` by default (Spark's noop sink:
every row made, nothing else, the least a user's job does), ``parquet``, or ``digest``
(every column of every row hashed in the JVM as well). CPU seconds are read from
``/proc`` for the Python workers (the tasks) and the JVM separately, and the speed-up
they predict on two free cores is printed beside the wall one; the load average is
printed before and after each run. Spark binds to 127.0.0.1. The generated files are
deleted at the end unless ``--keep``. On an idle machine, from the repository root:

    cargo build --release -p cescacs-cli
    SPARK_LOCAL_IP=127.0.0.1 CESCACS_SHARED=../shared \
        python crates/cescacs-py/bench/seekable_speedup.py --repeat 2
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import rows_check  # noqa: E402

FRAME = 4 << 20


def generate(out: Path, mib: int) -> int:
    """The corpus (and one damaged game) repeated to ``mib`` MiB, as zstd frames of
    ``FRAME`` bytes; the decompressed size."""
    import zstandard
    from bench import corpus_bytes

    # One damaged game per copy of the corpus (an illegal king move): its error must be
    # located alike by every task and the CLI, and hide none of the games after it.
    body = corpus_bytes() + b'[Event "damaged"]\n\n1. e4 e5 2. Ke3 Nf6 *\n\n'
    target = mib << 20
    cctx = zstandard.ZstdCompressor(level=3, write_content_size=True, threads=2)
    total = 0
    pending = b""
    with open(out, "wb") as f:
        while total < target:
            pending += body
            total += len(body)
            while len(pending) >= FRAME:
                f.write(cctx.compress(pending[:FRAME]))
                pending = pending[FRAME:]
        if pending:
            f.write(cctx.compress(pending))
    return total


def _ticks(pid: int):
    """(utime + stime, cutime + cstime) of ``pid`` in clock ticks, its parent, and its
    command line (empty for a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    own = int(fields[11]) + int(fields[12])
    children = int(fields[13]) + int(fields[14])
    return own, children, int(fields[1]), cmd


def cpu_seconds():
    """CPU seconds so far of this process's Spark processes: (Python workers, JVM).
    The JVM is this process's ``java`` child, counted by its own time only; the Python
    workers are every process below it (pyspark's daemon and the workers it forks), each
    with its own time and that of its reaped children, so a worker that has exited is
    still counted (in the daemon's children time) and so is a zombie not yet reaped
    (its own time; its command line is empty, so it is told by its parent, not its
    name)."""
    hz = os.sysconf("SC_CLK_TCK")
    info = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            t = _ticks(int(name))
            if t is not None:
                info[int(name)] = t
    def below(pid: int, top) -> bool:
        p, seen = info[pid][2], 0
        while p in info and p not in top and seen < 64:
            p, seen = info[p][2], seen + 1
        return p in top

    me = {os.getpid()}
    jvms = {pid for pid, t in info.items() if t[3].split(" ", 1)[0].endswith("java") and below(pid, me)}
    jvm = sum(info[pid][0] for pid in jvms)
    workers = sum(t[0] + t[1] for pid, t in info.items() if pid not in jvms and below(pid, jvms))
    return workers / hz, jvm / hz


def spark_session(cores: int):
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("cescacs-seekable-speedup")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )


#: The timed jobs. ``noop`` is what a user's job does at the least: every row made
#: (Spark's noop sink pulls every row of every task) and nothing else. ``parquet``
#: writes the rows, as the documented conversion does. ``digest`` also hashes every
#: column of every row in the JVM (``rows_check.content_digest``): JVM work a typical
#: job does not do, which weighs on the one-task run's second core.
JOBS = ("noop", "parquet", "digest")


def read(spark, path: Path, split_bytes: int, batch_rows: int):
    import cescacs.spark

    return cescacs.spark.read_games(
        spark, str(path), split_bytes=split_bytes, cut_compressed_bytes=None, batch_rows=batch_rows
    )


def run(spark, path: Path, split_bytes: int, job: str = "noop", batch_rows: int = 0) -> Dict[str, Any]:
    """One timed read (planning included) ending in ``job`` (:data:`JOBS`). Wall and CPU
    seconds, tasks, load average before and after (and the rows' content digest for the
    ``digest`` job)."""
    import cescacs.spark

    batch_rows = batch_rows or cescacs.spark.DEFAULT_BATCH_ROWS
    load0 = os.getloadavg()[0]
    w0, j0 = cpu_seconds()
    t = time.perf_counter()
    df = read(spark, path, split_bytes, batch_rows)
    rows = None
    if job == "digest":
        rows = rows_check.content_digest(df)
    elif job == "parquet":
        df.write.mode("overwrite").parquet(str(path.parent / "out.parquet"))
    else:
        df.write.format("noop").mode("overwrite").save()
    wall = time.perf_counter() - t
    w1, j1 = cpu_seconds()
    if job == "parquet":
        shutil.rmtree(path.parent / "out.parquet", ignore_errors=True)
    return {
        "wall": wall,
        "task_cpu": w1 - w0,
        "jvm_cpu": j1 - j0,
        "tasks": df.rdd.getNumPartitions(),
        "load": (load0, os.getloadavg()[0]),
        "rows": rows,
        "df": df,
    }


def predicted(one: Dict[str, Any], cut: Dict[str, Any], cores: int = 2) -> float:
    """The wall speed-up the CPU seconds predict on ``cores`` free cores: each run's
    wall is at least its CPU spread over the cores, and the one-task run's at least its
    one Python worker's CPU (the serial part: the JVM's share runs beside it)."""
    one_wall = max(one["task_cpu"], (one["task_cpu"] + one["jvm_cpu"]) / cores)
    cut_wall = max((cut["task_cpu"] + cut["jvm_cpu"]) / cores, cut["task_cpu"] / cut["tasks"])
    return one_wall / cut_wall


def measure(
    path: Path, split_bytes: int, repeat: int, spark, job: str = "noop", batch_rows: int = 0
) -> List[Tuple[Dict[str, Any], Dict[str, Any]]]:
    """The same file forced into one task (A) and cut into ranges (B), interleaved
    A B A B…: one line per run and per pair; with the ``digest`` job, every run's rows
    must be the same."""
    pairs = []
    for r in range(repeat):
        one = run(spark, path, 1 << 50, job, batch_rows)
        cut = run(spark, path, split_bytes, job, batch_rows)
        for label, x in (("one task", one), (f"{cut['tasks']} range tasks", cut)):
            print(
                f"  pair {r + 1}: {label}: {x['wall']:.1f} s wall, task CPU {x['task_cpu']:.1f} s "
                f"({x['task_cpu'] / x['tasks']:.1f} s per task), JVM CPU {x['jvm_cpu']:.1f} s, "
                f"load average {x['load'][0]:.1f} -> {x['load'][1]:.1f}"
                + (f", {x['rows'][0]} rows" if x["rows"] else ""),
                flush=True,
            )
        print(
            f"  pair {r + 1} ({job}): speed-up {one['wall'] / cut['wall']:.2f}x wall; task CPU ranges/one "
            f"{cut['task_cpu'] / one['task_cpu']:.2f}; (task+JVM) CPU ranges/one "
            f"{(cut['task_cpu'] + cut['jvm_cpu']) / (one['task_cpu'] + one['jvm_cpu']):.2f}; "
            f"predicted on 2 free cores {predicted(one, cut):.2f}x",
            flush=True,
        )
        pairs.append((one, cut))
    if job == "digest":
        digests = {x["rows"] for pair in pairs for x in pair}
        assert len(digests) == 1, f"the runs' rows differ: {digests}"
        print(f"  every run's rows equal (count, content digest): {digests.pop()}", flush=True)
    return pairs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=1100, help="decompressed size")
    ap.add_argument(
        "--split-mib", type=int, default=0, help="range size (0: read_games's default, 128 MiB)"
    )
    ap.add_argument("--repeat", type=int, default=2, help="A B pairs")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/i28-speedup")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--job", choices=JOBS, default="noop", help="the timed job")
    ap.add_argument("--batch-rows", type=int, default=0, help="rows per Arrow batch (0: the reader's default)")
    ap.add_argument("--no-check", action="store_true", help="skip the untimed row checks")
    args = ap.parse_args()
    if not args.split_mib:
        import cescacs.spark

        args.split_mib = cescacs.spark.DEFAULT_SPLIT_BYTES >> 20
    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    db = root / "big.pgn.zst"
    if not db.exists():
        size = generate(db, args.mib)
        print(f"generated {db}: {size / 1e6:.1f} MB decompressed, {db.stat().st_size / 1e6:.1f} MB compressed")
    cli = REPO / "target/release/cescacs"
    spark = spark_session(args.cores)
    if not args.no_check:
        t = time.perf_counter()
        cli_games, cli_errors = rows_check.cli_report(cli, db, root / "report.json")
        print(f"cescacs check -j1: {cli_games} games, {len(cli_errors)} errors, {time.perf_counter() - t:.1f} s", flush=True)
        # Rows first (untimed): the range tasks' rows against the CLI, game for game,
        # and every column of every row the same as the one task's.
        t = time.perf_counter()
        cut = read(spark, db, args.split_mib << 20, args.batch_rows or 4096)
        n, compared = rows_check.check_against_pcn(cut, cli, db, cli_games, cli_errors)
        print(
            f"{cut.rdd.getNumPartitions()} range tasks' rows equal to the CLI game for game: {n} games numbered "
            f"1..{n}, {len(cli_errors)} errors at the same game/line/column, {compared} key-column digests "
            f"equal to `cescacs convert --to pcn` ({time.perf_counter() - t:.1f} s)",
            flush=True,
        )
        one = rows_check.content_digest(read(spark, db, 1 << 50, args.batch_rows or 4096))
        ranges = rows_check.content_digest(cut)
        assert one == ranges, f"one task {one}, ranges {ranges}"
        print(f"one task's rows and the range tasks' rows equal (count, content digest): {one}", flush=True)
    measure(db, args.split_mib << 20, args.repeat, spark, args.job, args.batch_rows)
    spark.stop()
    if not args.keep:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
