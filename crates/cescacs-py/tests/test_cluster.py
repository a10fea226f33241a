"""A real Spark standalone cluster on 127.0.0.1: pyspark's own master and one worker
(started here, stopped after), the documented job (examples/convert_to_parquet.py)
submitted in client mode, the Parquet rows checked against the package read in one
process. Repository testdata only."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cescacs
from conftest import REPO

HERE = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(port: int, proc: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 90
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start")
            time.sleep(0.3)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    import pyspark

    home = Path(pyspark.__file__).parent
    logs = tmp_path_factory.mktemp("cluster-logs")
    env = dict(os.environ, SPARK_HOME=str(home), SPARK_LOCAL_IP="127.0.0.1",
               SPARK_WORKER_DIR=str(logs / "work"))
    port = _free_port()
    procs = []
    try:
        master = subprocess.Popen(
            [str(home / "bin" / "spark-class"), "org.apache.spark.deploy.master.Master",
             "--host", "127.0.0.1", "--port", str(port), "--webui-port", str(_free_port())],
            env=env, stdout=open(logs / "master.log", "wb"), stderr=subprocess.STDOUT,
        )
        procs.append(master)
        _wait_port(port, master, "master")
        url = f"spark://127.0.0.1:{port}"
        worker = subprocess.Popen(
            [str(home / "bin" / "spark-class"), "org.apache.spark.deploy.worker.Worker",
             "--host", "127.0.0.1", "--cores", "2", "--memory", "1g",
             "--webui-port", str(_free_port()), url],
            env=env, stdout=open(logs / "worker.log", "wb"), stderr=subprocess.STDOUT,
        )
        procs.append(worker)
        yield home, url, env
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def test_documented_job_on_a_standalone_cluster(cluster, tmp_path):
    home, url, env = cluster
    data = tmp_path / "games"
    data.mkdir()
    twic = (REPO / "testdata/chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn").read_bytes()
    (data / "big.pgn").write_bytes((twic.rstrip(b"\r\n") + b"\n\n") * 3)
    shutil.copy(REPO / "testdata/ctl-pgn/spec/worked-examples.ctl-pgn", data)
    shutil.copy(REPO / "testdata/xiangqi/real/wukong-xiangqi/winboard_san_1.pgn", data / "xq.pgn")
    out = tmp_path / "out.parquet"
    # Client mode: the driver runs here; the package is installed in this interpreter's
    # environment, which driver and executors both run (the "installed on every node"
    # recipe of docs/scaling.md; one machine here).
    cmd = [
        str(home / "bin" / "spark-submit"), "--master", url, "--deploy-mode", "client",
        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false",
        "--conf", f"spark.pyspark.python={sys.executable}",
        "--conf", f"spark.pyspark.driver.python={sys.executable}",
        "--executor-memory", "512m", "--total-executor-cores", "2",
        str(HERE / "examples" / "convert_to_parquet.py"), str(data), str(out),
    ]
    run = subprocess.run(cmd, env=env, capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr.decode()[-3000:]
    import pyarrow.parquet as pq

    rows = pq.read_table(out).to_pylist()
    by_file = {}
    for r in rows:
        by_file.setdefault(r["file"], []).append(r)
    assert sorted(by_file) == sorted(str(p) for p in data.iterdir())
    for f, mine in by_file.items():
        mine.sort(key=lambda r: r["index"])
        local = list(cescacs.read_games(f))
        assert [(r["index"], r["line"], r["final_position"], list(r["moves"]), list(r["errors"])) for r in mine] == [
            (g.index, g.line, g.final_position, g.moves, g.errors) for g in local
        ], f


def test_packed_venv_recipe(cluster, tmp_path):
    """docs/scaling.md's packed-virtualenv recipe, as written: a venv holding the wheel
    with its ``[spark]`` extra and venv-pack (both from PyPI), packed, shipped with
    ``--archives job-env.tar.gz#env``; executors run ``./env/bin/python``, the
    client-mode driver the unpacked venv's own Python. Needs a built wheel
    (``CESCACS_WHEEL``; CI's ``# == packed venv`` block builds and names it) and
    network access to PyPI."""
    wheel = os.environ.get("CESCACS_WHEEL")
    if not wheel:
        pytest.skip("CESCACS_WHEEL (a built cescacs wheel) is not set")
    import pyspark

    home, url, env = cluster
    # The executors' ./env/bin/python is the base interpreter the venv was made from:
    # if that one could import cescacs by itself, the test would prove nothing.
    base = getattr(sys, "_base_executable", sys.executable)
    bare = subprocess.run([base, "-c", "import cescacs"], capture_output=True, env={"PATH": "/usr/bin:/bin"})
    assert bare.returncode != 0, f"{base} imports cescacs without the packed venv"
    job = tmp_path / "job-env"
    subprocess.run([base, "-m", "venv", str(job)], check=True)
    # The driver's pyspark must be the cluster's version (py4j speaks to that JVM).
    subprocess.run(
        [str(job / "bin" / "pip"), "install", "-q", f"{wheel}[spark]", f"pyspark=={pyspark.__version__}",
         "venv-pack"],
        check=True, timeout=900,
    )
    packed = tmp_path / "job-env.tar.gz"
    subprocess.run([str(job / "bin" / "venv-pack"), "-q", "-p", str(job), "-o", str(packed)], check=True,
                   timeout=900)
    data = tmp_path / "games"
    data.mkdir()
    twic = (REPO / "testdata/chess/mliebelt-pgn-parser/test_pgn_twic-01-232games.pgn").read_bytes()
    (data / "big.pgn").write_bytes((twic.rstrip(b"\r\n") + b"\n\n") * 3)
    shutil.copy(REPO / "testdata/ctl-pgn/spec/worked-examples.ctl-pgn", data)
    out = tmp_path / "out.parquet"
    job_env = {k: v for k, v in env.items() if not k.startswith(("PYSPARK_", "PYTHON", "VIRTUAL_ENV"))}
    cmd = [
        str(home / "bin" / "spark-submit"), "--master", url, "--deploy-mode", "client",
        "--archives", f"{packed}#env",
        "--conf", "spark.pyspark.python=./env/bin/python",
        "--conf", f"spark.pyspark.driver.python={job / 'bin' / 'python'}",
        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false",
        "--executor-memory", "512m", "--total-executor-cores", "2",
        str(HERE / "examples" / "convert_to_parquet.py"), str(data), str(out),
    ]
    run = subprocess.run(cmd, env=job_env, capture_output=True, timeout=600)
    assert run.returncode == 0, run.stderr.decode()[-3000:]
    import pyarrow.parquet as pq

    rows = pq.read_table(out).to_pylist()
    for f in sorted(data.iterdir()):
        mine = sorted((r for r in rows if r["file"] == str(f)), key=lambda r: r["index"])
        local = list(cescacs.read_games(f))
        assert [(r["index"], r["line"], r["final_position"], list(r["errors"])) for r in mine] == [
            (g.index, g.line, g.final_position, g.errors) for g in local
        ], f
