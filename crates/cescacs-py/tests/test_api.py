"""The package's API on every format, against the CLI and the oracle."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import cescacs
from conftest import REPO, cli_errors, compress, corpus_files, run, shared_path

LOCATED = re.compile(r"^(?P<file>.*):(?P<line>\d+):(?P<col>\d+): game (?P<game>\d+): error: (?P<msg>.*)$", re.S)


def test_oracle_games_final_positions_equal_the_cli(cli):
    games_dir = shared_path("oracle", "games")
    manifest = [json.loads(l) for l in shared_path("oracle", "games.jsonl").read_text().splitlines() if l.strip()]
    files = [games_dir / m["file"] for m in manifest]
    out = run(cli, "replay", "--no-filename", *map(str, files))
    assert out.returncode == 0, out.stderr.decode()
    expected = out.stdout.decode().splitlines()
    got = []
    for f in files:
        games = list(cescacs.read_games(f))
        assert len(games) == 1 and games[0].errors == [], (f, games[0].errors)
        assert games[0].moves == [m for m in games[0].moves]  # a list of str
        got.append(games[0].final_position)
    assert got == expected
    # The oracle's own move lists are the main lines we read.
    for m, f in zip(manifest, files):
        moves = next(iter(cescacs.read_games(f))).moves
        assert len(moves) == m["plies"], f


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(p.parents[2])))
def test_corpora_games_and_errors_equal_the_cli(cli, tmp_path, path):
    games, errors = cli_errors(cli, path, tmp_path)
    got = list(cescacs.read_games(path))
    assert len(got) == games
    mine = []
    for g in got:
        assert g.file == str(path)
        for e in g.errors:
            m = LOCATED.match(e)
            assert m, e
            mine.append((int(m["game"]), int(m["line"]), int(m["col"]), m["msg"][:300]))
        if not g.errors and g.format != "pcn":
            # (A PCN document of a board no rules engine knows has no final position.)
            assert g.final_position, g
    assert mine == errors


def test_chess_final_positions_equal_python_chess():
    """python-chess, reading the same files, is the reference for chess positions."""
    import chess
    import chess.pgn

    n = skipped = 0
    for path in sorted(shared_path("corpus", "classic-pgn-real").rglob("*.pgn")):
        with open(path, encoding="utf-8", errors="replace") as f:
            theirs = []
            while (game := chess.pgn.read_game(f)) is not None:
                theirs.append(game)
        mine = list(cescacs.read_games(path))
        assert len(mine) == len(theirs), path
        for g, t in zip(mine, theirs):
            if g.errors or t.errors or "Variant" in g.tags and g.tags["Variant"].lower() not in (
                "standard", "chess960", "fischerandom", "from position"):
                continue
            board = t.board()
            sans = []
            for mv in t.mainline_moves():
                sans.append(board.san(mv))
                board.push(mv)
            strip = lambda m: m.rstrip("!?+#")
            if [strip(m) for m in sans] != [strip(m) for m in g.moves]:
                # python-chess read the movetext differently (e.g. German "Sf3"): no reference.
                skipped += 1
                continue
            a = g.final_position.split()
            b = t.end().board().fen(en_passant="fen").split()
            # Castling rights of Chess960 are written in X-FEN by one, Shredder-FEN by the other.
            assert (a[0], a[1], a[3:]) == (b[0], b[1], b[3:]), (path, g.index)
            n += 1
    assert n > 500 and skipped < 10, (n, skipped)


def test_every_format_reads_and_writes():
    ctl = (REPO / "testdata" / "ctl-pgn").rglob("*.ctl-pgn")
    g = next(x for p in sorted(ctl) for x in cescacs.read_games(p) if not x.errors)
    assert g.format == "ctl-pgn" and g.final_position.count("/") > 10
    assert g.to_string("ctl-pgn").startswith("[")
    doc = g.to_pcn()
    assert isinstance(doc, dict)
    assert "<svg" in g._repr_svg_()
    again = list(cescacs.read_games(g.to_pcn_json().encode(), format="pcn"))
    assert again[0].format == "pcn" and again[0].final_position == g.final_position
    with pytest.raises(cescacs.CescacsError, match="cannot be written as pgn"):
        g.to_string("pgn")

    xq = sorted((REPO / "testdata" / "xiangqi").rglob("*.pgn"))
    x = next(x for p in xq for x in cescacs.read_games(p) if not x.errors)
    assert x.format == "xiangqi-pgn"
    assert "<svg" in x._repr_svg_()
    assert x.to_string("xiangqi-pgn", notation="iccs")
    assert "<" in x.to_string("xiangqi-xml")

    pgn = b'[Event "e"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    (c,) = cescacs.read_games(pgn)
    assert (c.format, c.result, c.moves[-1]) == ("pgn", "1-0", "Qxf7#")
    assert c.final_position.startswith("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b")
    assert c._repr_svg_().startswith("<svg")
    assert cescacs.convert(pgn, to="pgn").startswith('[Event "e"]')


def test_read_games_is_lazy_and_accepts_pathlike_streams_and_compression(tmp_path):
    import gzip

    one = b'[Event "x"]\n\n1. d4 d5 *\n\n'
    data = one * 1000
    (tmp_path / "a.pgn").write_bytes(data)
    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(data))
    (tmp_path / "a.pgn.zst").write_bytes(compress(data, "zst"))
    it = cescacs.read_games(tmp_path / "a.pgn")
    first = next(it)
    assert first.index == 1 and first.line == 1
    for src in [tmp_path / "a.pgn", str(tmp_path / "a.pgn.gz"), tmp_path / "a.pgn.zst", data,
                gzip.compress(data), open(tmp_path / "a.pgn", "rb")]:
        games = list(cescacs.read_games(src))
        assert len(games) == 1000 and games[-1].index == 1000 and games[-1].line == 3997
        assert all(g.final_position == games[0].final_position for g in games)


def test_bad_input_is_reported_with_its_place():
    bad = b'[Event "a"]\n\n1. e4 e5 *\n\n[Event "b"]\n\n1. e4 Ke7 2. Kxe8 *\n\n[Event "c"]\n\n1. c4 *\n'
    games = list(cescacs.read_games(bad))
    assert [len(g.errors) > 0 for g in games] == [False, True, False]
    assert games[1].errors[0].startswith("<bytes>:7:")
    assert ": game 2: error: " in games[1].errors[0]
    # The position reached before the error.
    assert games[1].final_position.startswith("rnbqkbnr/pppppppp/8/8/4P3/")
    with pytest.raises(cescacs.CescacsError, match=r"<data>:7:\d+: game 2: error: "):
        cescacs.convert(bad, to="pcn")
    with pytest.raises(ValueError, match="unknown format"):
        cescacs.read_games(bad, format="nope")
    with pytest.raises(cescacs.CescacsError, match="nonexistent"):
        cescacs.read_games("/nonexistent/x.pgn")
    with pytest.raises(cescacs.CescacsError, match="cannot tell the game format"):
        cescacs.read_games(b"hello")
    (g,) = cescacs.read_games(b"\xff\xfe garbage [[[ {", format="ctl-pgn")
    assert g.errors
    (g,) = cescacs.read_games(b'{"board": [1, 2', format="pcn")
    assert g.errors and "JSON" in g.errors[0]
    with pytest.raises(TypeError):
        cescacs.convert(b"", to="pgn", colour=True)


def test_position_matches_the_cli_and_the_oracle(cli):
    p = cescacs.Position()
    out = run(cli, "moves")
    assert p.legal_moves() == out.stdout.decode().split()
    perft = json.loads(shared_path("oracle", "perft.json").read_text())
    for depth in ("1", "2", "3"):
        assert p.perft(int(depth)) == perft["depths"][depth]["nodes"]
    for line in shared_path("oracle", "positions.jsonl").read_text().splitlines()[:40]:
        entry = json.loads(line)
        q = cescacs.Position(entry["tlpd"])
        flagged = set(entry.get("impl_moves_leaving_king_attacked") or [])
        if entry.get("attacked_but_no_check_seen") or flagged:
            continue
        assert sorted(q.legal_moves()) == sorted(entry["moves"]), entry["tlpd"]
    start = p.tlpd()
    p.play(p.legal_moves()[0])
    assert p.tlpd() != start
    assert "<svg" in p._repr_svg_()
    with pytest.raises(cescacs.CescacsError):
        p.play("A1-A30")
    with pytest.raises(cescacs.CescacsError, match="bad TLPD"):
        cescacs.Position("not a position")


def test_convert_equals_the_cli(cli, tmp_path):
    cases = [
        (sorted((REPO / "testdata" / "ctl-pgn").rglob("*.ctl-pgn"))[:3], ["pcn", "ctl-pgn"]),
        (sorted(shared_path("corpus", "classic-pgn-real").rglob("*.pgn"))[:3], ["pcn", "pgn"]),
        (sorted(shared_path("corpus", "xiangqi-real").rglob("*.pgn"))[:3], ["pcn", "xiangqi-pgn", "xiangqi-xml"]),
    ]
    checked = 0
    for files, targets in cases:
        for f in files:
            for to in targets:
                out = run(cli, "convert", "-q", "--to", to, "-o", "-", str(f))
                if out.returncode != 0:
                    continue
                assert cescacs.convert(f.read_bytes(), to=to) == out.stdout.decode(), (f, to)
                checked += 1
    assert checked >= 10
