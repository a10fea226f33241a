"""One large .ctl-pgn.zst (>= 1 GiB decompressed) read by Spark local[2]: the serial
first stage cuts it into game-aligned chunks that two tasks parse, against the same
file forced into one task (``cut_compressed_bytes=None``). Checks the rows equal the
CLI's (`cescacs check --report` on the file: game count and every located error) and,
game for game, the one-task run (index, line, result, final position, plies).

Run: python crates/cescacs-py/bench/huge_zst.py [--gib 1.0] [--dir /tmp/i28-huge]
(the generated files are deleted at the end unless --keep). Spark binds to 127.0.0.1."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import rows_check  # noqa: E402


def generate(out: Path, gib: float) -> int:
    """A gen-db database repeated to ``gib`` GiB, zstd-compressed; its size in bytes."""
    import zstandard

    base = out.with_suffix(".base.ctl-pgn")
    subprocess.run(
        ["cargo", "xtask", "gen-db", "--games", "20000", "--out", str(base), "--seed", "28"],
        cwd=REPO,
        check=True,
    )
    body = base.read_bytes().rstrip(b"\r\n") + b"\n\n"
    base.unlink()
    target = int(gib * (1 << 30))
    total = 0
    cctx = zstandard.ZstdCompressor(level=3, threads=2)
    with open(out, "wb") as f, cctx.stream_writer(f) as w:
        while total < target:
            w.write(body)
            total += len(body)
    return total


def seekable_copy(src: Path, out: Path, frame_bytes: int = 4 << 20) -> None:
    """The same text as independent zstd frames of ``frame_bytes`` that say their size
    (the zstd seekable format's layout): Spark cuts it with no serial stage."""
    import zstandard

    cctx = zstandard.ZstdCompressor(level=3, write_content_size=True)
    with open(src, "rb") as raw, zstandard.ZstdDecompressor().stream_reader(raw) as r, open(out, "wb") as f:
        while True:
            piece = r.read(frame_bytes)
            if not piece:
                break
            f.write(cctx.compress(piece))


def spark_session():
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master("local[2]")
        .appName("cescacs-huge-zst")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .getOrCreate()
    )


def timed(spark, df):
    """Wall seconds of writing ``df`` nowhere (every row built, none kept)."""
    t = time.perf_counter()
    df.write.format("noop").mode("overwrite").save()
    wall = time.perf_counter() - t
    return wall


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gib", type=float, default=1.0)
    ap.add_argument("--dir", default="/tmp/i28-huge")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--seekable-only", action="store_true", help="skip the serial-cut run")
    args = ap.parse_args()
    import cescacs.spark

    root = Path(args.dir)
    root.mkdir(parents=True, exist_ok=True)
    db = root / "huge.ctl-pgn.zst"
    if not db.exists():
        size = generate(db, args.gib)
    else:
        size = None
    print(f"file {db}: {db.stat().st_size / 1e6:.1f} MB compressed"
          + (f", {size / (1 << 30):.2f} GiB decompressed" if size else ""), flush=True)

    # The CLI's reading of the same file.
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "cescacs-cli"], cwd=REPO, check=True)
    t = time.perf_counter()
    cli = REPO / "target/release/cescacs"
    cli_games, cli_errors = rows_check.cli_report(cli, db, root / "report.json")
    cli_s = time.perf_counter() - t
    print(f"cli check: {cli_games} games, {len(cli_errors)} errors, {cli_s:.1f} s", flush=True)

    spark = spark_session()
    t = time.perf_counter()
    one = cescacs.spark.read_games(spark, str(db), cut_compressed_bytes=None)
    assert one.rdd.getNumPartitions() == 1
    t_one = time.perf_counter() - t + timed(spark, one)
    print(f"spark local[2], one task: {t_one:.1f} s wall (load average {os.getloadavg()[0]:.1f})", flush=True)

    # The same text in seekable form: byte ranges of the decompressed text, no serial stage.
    framed = root / "huge.frames.ctl-pgn.zst"
    if not framed.exists():
        seekable_copy(db, framed)
    t = time.perf_counter()
    sk = cescacs.spark.read_games(spark, str(framed), cut_compressed_bytes=None)
    t_plan = time.perf_counter() - t
    t_sk = t_plan + timed(spark, sk)
    print(f"spark local[2], seekable ({framed.stat().st_size / 1e6:.1f} MB, {sk.rdd.getNumPartitions()} range tasks, "
          f"plan {t_plan:.1f} s): {t_sk:.1f} s wall; speed-up {t_one / t_sk:.2f}x "
          f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    cols = ["index", "line", "result", "final_position", "plies"]
    a = sk.select(*cols).toPandas().sort_values("index").reset_index(drop=True)
    b = one.select(*cols).toPandas().sort_values("index").reset_index(drop=True)
    assert len(a) == cli_games, (len(a), cli_games)
    assert list(a["index"]) == list(range(1, cli_games + 1))
    assert a.equals(b), "seekable and one-task rows differ"
    print(f"seekable rows equal to the one-task run and the CLI count: {len(a)} games", flush=True)
    if args.seekable_only:
        spark.stop()
        if not args.keep:
            shutil.rmtree(root)
        return 0
    # The serial cut runs inside read_games: it is part of the time.
    t = time.perf_counter()
    cut = cescacs.spark.read_games(spark, str(db), chunk_bytes=32 << 20)
    t_stage = time.perf_counter() - t
    t_cut = t_stage + timed(spark, cut)
    print(f"serial cut stage: {t_stage:.1f} s, {cut.rdd.getNumPartitions()} chunk tasks", flush=True)
    print(f"spark local[2], cut (serial stage, then one parsing task per chunk, 2 at a time): {t_cut:.1f} s wall; "
          f"speed-up {t_one / t_cut:.2f}x", flush=True)

    # Rows: equal to the CLI, and game for game to the one-task run.
    cols = ["index", "line", "result", "final_position", "plies"]
    a = cut.select(*cols).toPandas().sort_values("index").reset_index(drop=True)
    b = one.select(*cols).toPandas().sort_values("index").reset_index(drop=True)
    assert list(a["index"]) == list(range(1, cli_games + 1))
    assert a.equals(b), "cut and one-task rows differ"
    n_err = rows_check.check_against_report(cut, str(db), cli_games, cli_errors)
    print(f"rows equal: {len(a)} games, {n_err} errors (CLI: {cli_games}, {len(cli_errors)})", flush=True)
    spark.stop()
    if not args.keep:
        shutil.rmtree(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
