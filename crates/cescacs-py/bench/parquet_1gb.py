"""A ~1 GB classic-PGN database (the shared corpus repeated) converted to Parquet by
Spark local[2]: time, peak RSS of the Python workers and of the JVM, row count equal
to the input's games. Writes under /tmp/gb. Run: python crates/cescacs-py/bench/parquet_1gb.py"""
import os, sys, time, threading, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench
from pathlib import Path
import cescacs, cescacs.spark
import os as _os, sys as _sys
_os.environ.setdefault("PYSPARK_PYTHON", _sys.executable)
from pyspark.sql import SparkSession
db = Path('/tmp/gb/db.pgn'); db.parent.mkdir(exist_ok=True)
body = bench.corpus_bytes()
per = sum(1 for _ in cescacs.read_games(body, format="pgn"))
reps = (1 << 30) // len(body) + 1
with open(db, 'wb') as f:
    for _ in range(reps): f.write(body)
games = per * reps
print(f"db {db.stat().st_size/1e9:.2f} GB, {games} games", flush=True)
peak = {"py": 0, "java": 0}
stop = False
def poll():
    while not stop:
        out = subprocess.run(["ps", "-eo", "rss,comm,args"], capture_output=True, text=True).stdout
        py = 0; jv = 0
        for l in out.splitlines()[1:]:
            rss, comm, *rest = l.split(None, 2)
            args = rest[0] if rest else ""
            if "pyspark.daemon" in args or "pyspark/daemon" in args or "pyspark.worker" in args:
                py = max(py, int(rss))
            if comm == "java":
                jv = max(jv, int(rss))
        peak["py"] = max(peak["py"], py); peak["java"] = max(peak["java"], jv)
        time.sleep(0.5)
threading.Thread(target=poll, daemon=True).start()
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled","false")
         .config("spark.driver.memory","2g").getOrCreate())
t = time.perf_counter()
df = cescacs.spark.read_games(spark, str(db))
df.write.mode("overwrite").parquet("/tmp/gb/out.parquet")
el = time.perf_counter() - t
n = spark.read.parquet("/tmp/gb/out.parquet").count()
stop = True
print(f"parquet: {el:.0f} s, rows {n} (input games {games}), equal={n==games}, "
      f"partitions {df.rdd.getNumPartitions()}, peak RSS python worker {peak['py']/1024:.0f} MB, JVM {peak['java']/1024:.0f} MB", flush=True)
spark.stop()
