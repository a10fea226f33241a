"""Pickling of Game (issue 29): a game pickles as its bytes and place and unpickles to
the same game; Spark's rdd.flatMap(read_games) works."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, List, Tuple

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


# == issue 29 part B: Move and GameNode pickling


def move_facts(m: cescacs.Move) -> Tuple[Any, ...]:
    ev = m.eval
    return (
        m.ply, m.san, m.written, m.uci, m.from_square, m.to_square, m.piece, m.captured,
        m.promotion, m.is_check, m.is_mate, m.comments, m.nags, m.clock,
        None if ev is None else (ev.cp, ev.mate), m.emt, m.fen_after, m.board().fen(),
    )


def node_facts(n: cescacs.GameNode) -> Tuple[Any, ...]:
    parent = n.parent
    return (
        n.ply, n.fen, n.comments, n.is_mainline(),
        None if n.move is None else move_facts(n.move),
        [v.fen for v in n.variations], None if parent is None else parent.fen,
    )


def all_nodes(game: cescacs.Game) -> List[cescacs.GameNode]:
    out: List[cescacs.GameNode] = []
    todo = list(game.variations)
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(n.variations)
    return out


CLOCKED = (
    b'[Event "x"]\n\n{pre} 1. e4 {[%clk 0:01:00] [%eval 0.3] hi} e5 $1 '
    b"(1... c5 {sic} 2. Nf3 (2. c3 d5)) 2. Nf3 {[%clk 0:00:58] [%eval #-3]} Nc6 *\n"
)


def test_moves_and_nodes_of_every_game_round_trip_through_pickle():
    games: List[cescacs.Game] = list(cescacs.read_games(CLOCKED, format="pgn"))
    for sub in ("chess", "xiangqi", "ctl-pgn", "cescacs"):
        for path in sorted((REPO / "testdata" / sub).rglob("*")):
            if path.suffix.lower() not in (".pgn", ".ctl-pgn"):
                continue
            try:
                games.extend(g for g in cescacs.read_games(path) if not g.errors)
            except cescacs.InputError:
                continue
    kinds = {g.format for g in games}
    assert {"pgn", "xiangqi-pgn", "ctl-pgn"} <= kinds, kinds
    moves_seen = nodes_seen = 0
    for g in games[:400]:
        moves = g.mainline()
        # A whole main line in one pickle: the game goes along once.
        back = pickle.loads(pickle.dumps(moves))
        assert back == moves and [move_facts(m) for m in back] == [move_facts(m) for m in moves]
        if moves:
            alone = pickle.dumps(moves[-1])
            assert len(pickle.dumps(moves)) < len(alone) + 64 * len(moves)
            m = pickle.loads(alone)
            assert m == moves[-1] and hash(m) == hash(moves[-1])
        moves_seen += len(moves)
        for n in all_nodes(g)[:200]:
            copy = pickle.loads(pickle.dumps(n))
            assert type(copy) is cescacs.GameNode and copy == n
            assert node_facts(copy) == node_facts(n), (g.file, g.index, n)
            nodes_seen += 1
    assert moves_seen > 5000 and nodes_seen > 5000, (moves_seen, nodes_seen)
    # The variations of CLOCKED: a node off the main line comes back off it.
    (g,) = cescacs.read_games(CLOCKED, format="pgn")
    c3 = g.variations[0].variations[1].variations[1]
    assert c3.move is not None and c3.move.san == "c3"
    back = pickle.loads(pickle.dumps(c3))
    assert back.move == c3.move and back.move is not None and back.move.san == "c3"
    assert not back.is_mainline() and back.next() is not None and back.next().move.san == "d5"  # type: ignore[union-attr]
    assert pickle.loads(pickle.dumps(c3.move)) == c3.move
    m = pickle.loads(pickle.dumps(g.mainline()[2]))
    assert m.clock == 58.0 and m.eval is not None and m.eval.mate == -3


def test_spark_rdd_flatmap_mainline_moves():
    files = sorted(str(p) for p in (REPO / "testdata" / "chess" / "python-chess").glob("*.pgn"))[:3]
    files.append(str(REPO / "testdata" / "cescacs" / "2020-07-20.ctl-pgn"))
    spark = local_spark("i29b-pickle-moves")
    try:
        rdd = spark.sparkContext.parallelize(files, 2).flatMap(cescacs.read_games)
        got = rdd.flatMap(lambda g: g.mainline()).collect()  # Move objects, pickled by the workers
        nodes = rdd.flatMap(lambda g: g.variations).collect()
    finally:
        spark.stop()
    local = [m for f in files for g in cescacs.read_games(f) for m in g.mainline()]
    assert len(local) > 100
    assert got == local
    assert [move_facts(m) for m in got] == [move_facts(m) for m in local]
    local_nodes = [n for f in files for g in cescacs.read_games(f) for n in g.variations]
    assert [node_facts(n) for n in nodes] == [node_facts(n) for n in local_nodes]
