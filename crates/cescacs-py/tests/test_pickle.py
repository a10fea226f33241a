"""Pickling of Game (issue 29): a game pickles as its bytes and place and unpickles to
the same game; Spark's rdd.flatMap(read_games) works."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, Tuple

import cescacs
from conftest import REPO, local_spark


def facts(g: cescacs.Game) -> Tuple[Any, ...]:
    try:
        pcn = g.to_pcn_json()
    except cescacs.ParseError as e:
        pcn = str(e)
    return (
        g.format, g.file, g.index, g.line, g.tags, g.moves, g.result, g.final_position,
        list(g.errors), list(g.warnings), [d.code for d in g.errors + g.warnings], pcn,
    )


def game_files():
    roots = [REPO / "testdata" / d for d in ("ctl-pgn", "chess", "xiangqi", "pcn", "bad")]
    for root in roots:
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.suffix.lower() in (".ctl-pgn", ".pgn", ".json", ".jsonl"):
                yield p


def test_every_testdata_game_round_trips_through_pickle():
    n = 0
    for path in game_files():
        try:
            games = list(cescacs.read_games(path))
        except cescacs.InputError:
            continue
        for g in games:
            copy = pickle.loads(pickle.dumps(g))
            assert type(copy) is cescacs.Game
            assert facts(copy) == facts(g), (path, g.index)
            n += 1
    assert n > 500


def test_pcn_array_members_and_unreadable_files_round_trip(tmp_path: Path):
    one = next(iter(cescacs.read_games(REPO / "testdata" / "chess" / "python-chess" / sorted(
        p.name for p in (REPO / "testdata" / "chess" / "python-chess").glob("*.pgn"))[0])))
    doc = one.to_pcn_json()
    games = list(cescacs.read_games(f"[{doc},{doc},{doc}]".encode(), format="pcn"))
    assert [g.index for g in games] == [1, 2, 3]
    for g in games:
        assert facts(pickle.loads(pickle.dumps(g))) == facts(g)
    (tmp_path / "empty.pgn").write_bytes(b"")
    (bad,) = cescacs.read_games(tmp_path)
    copy = pickle.loads(pickle.dumps(bad))
    assert facts(copy) == facts(bad) and copy.warnings[0].code == "file"


def test_spark_rdd_flatmap_read_games():
    files = sorted(str(p) for p in (REPO / "testdata" / "chess" / "python-chess").glob("*.pgn"))[:4]
    files.append(str(REPO / "testdata" / "cescacs" / "2020-07-20.ctl-pgn"))
    spark = local_spark("i29-pickle")
    try:
        rdd = spark.sparkContext.parallelize(files, 2).flatMap(cescacs.read_games)
        got = rdd.collect()  # Game objects, pickled by the workers
        facts_remote = rdd.map(lambda g: (g.file, g.index, g.moves, g.final_position)).collect()
    finally:
        spark.stop()
    local = [g for f in files for g in cescacs.read_games(f)]
    assert [facts(g) for g in got] == [facts(g) for g in local]
    assert facts_remote == [(g.file, g.index, g.moves, g.final_position) for g in local]
