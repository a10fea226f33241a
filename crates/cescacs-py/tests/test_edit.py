"""Editing (issue 29): Game.copy() sets tags, adds comments, cuts the main line, and
writes the edited game in any target format keeping every annotation. The round trip
over the shared classic corpus is checked against python-chess."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any, Dict, List

import pytest

import cescacs
from conftest import REPO, SHARED

CLOCKED = (
    b'[Event "x"]\n[White "a"]\n\n{pre} 1. e4 {[%clk 0:01:00] [%eval 0.3] hi} e5 $1 '
    b"(1... c5 {sic}) 2. Nf3 {[%clk 0:00:58]} Nc6 *\n"
)


def pgn_part(g: Any) -> Dict[str, Any]:
    doc: Dict[str, Any] = json.loads(g.to_pcn_json())
    return doc


def test_edits_keep_clock_and_eval_comments_in_every_target():
    (g,) = cescacs.read_games(CLOCKED, format="pgn")
    e = g.copy()
    e.set_tag("Annotator", "i29")
    e.set_tag("White", "b")
    e.add_comment(2, "edited")
    assert e.tags == {**g.tags, "Annotator": "i29", "White": "b"}
    assert g.tags["White"] == "a"  # the copy is a copy
    pgn = e.to_string("pgn")
    assert "{[%clk 0:01:00] [%eval 0.3] hi}" in pgn and "{edited}" in pgn and "(1... c5 {sic})" in pgn
    # PCN, read back: the annotations of the original plus the edit, nothing lost.
    (back,) = cescacs.read_games(e.to_string("pcn").encode(), format="pcn")
    ann = back.to_pcn()["...pgn"]["annotations"]
    first = [a for a in ann if a["ply"] == 0][0]
    assert first["clock"] == 60.0 and first["eval"] == {"pawns": 0.3}
    assert {"comment": "[%clk 0:01:00] [%eval 0.3] hi"} in first["after"]
    second = [a for a in ann if a["ply"] == 1][0]
    assert second["nags"] == [1] and {"comment": "edited"} in second["after"]
    assert back.moves == g.moves
    # The edited Game pickles and equals what its text reads as.
    import pickle

    made = e.game()
    assert pickle.loads(pickle.dumps(made)).to_string("pgn") == made.to_string("pgn") == pgn


def test_add_variation_is_written_in_every_target_and_read_back():
    (g,) = cescacs.read_games(CLOCKED, format="pgn")
    e = g.copy()
    e.add_variation(3, ["Nc3", "Nf6", "Bc4"])
    text = e.to_string("pgn")
    assert "(2. Nc3 Nf6 3. Bc4)" in text and "(1... c5 {sic})" in text
    (back,) = cescacs.read_games(text.encode(), format="pgn")
    assert back.moves == g.moves and not back.errors
    chess = pytest.importorskip("chess.pgn")
    pc = chess.read_game(io.StringIO(text))
    node = pc.next().next()  # after 1... e5
    assert [v.san() for v in node.variations] == ["Nf3", "Nc3"]
    v = node.variations[1]
    assert [v.move.uci()] + [m.uci() for m in v.mainline_moves()] == ["b1c3", "g8f6", "f1c4"]
    (pb,) = cescacs.read_games(e.to_string("pcn").encode(), format="pcn")
    assert "(2. Nc3 Nf6 3. Bc4)" in pb.to_string("pgn")
    for bad in (["Nc3", "Ke2"], ["Zz9"], []):
        with pytest.raises(cescacs.OptionError):
            e.add_variation(3, bad)


def test_truncate_and_refusals():
    (g,) = cescacs.read_games(CLOCKED, format="pgn")
    e = g.copy()
    e.truncate(1)
    assert e.moves == ["e4"]
    (back,) = cescacs.read_games(e.to_string("pgn").encode())
    assert back.moves == ["e4"] and back.result == "*"
    assert "[%clk 0:01:00]" in e.to_string("pgn")
    for bad in (lambda: e.truncate(5), lambda: e.add_comment(3, "x"), lambda: e.set_tag("FEN", "8/8/8/8/8/8/8/8 w - - 0 1"),
                lambda: e.add_comment(1, "a } b"), lambda: e.set_tag("Bad Name", "x")):
        with pytest.raises(cescacs.OptionError):
            bad()
    (c,) = cescacs.read_games(REPO / "testdata" / "cescacs" / "2020-07-20.ctl-pgn")
    ce = c.copy()
    ce.set_tag("Annotator", "i29")
    (cb,) = cescacs.read_games(ce.to_string("ctl-pgn").encode(), format="ctl-pgn")
    assert cb.tags["Annotator"] == "i29" and cb.moves == c.moves and cb.final_position == c.final_position
    with pytest.raises(cescacs.OptionError):
        ce.add_comment(1, "not yet")
    (pc,) = cescacs.read_games(g.to_pcn_json().encode(), format="pcn")
    with pytest.raises(cescacs.OptionError):
        pc.copy().set_tag("Event", "y")


def _classic_files() -> List[Path]:
    root = SHARED / "corpus" / "classic-pgn-real"
    return sorted(p for p in root.rglob("*.pgn"))


@pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason="needs ../shared (corpus round trip)")
def test_round_trip_over_the_shared_classic_corpus():
    chess = pytest.importorskip("chess.pgn")
    games_seen = 0
    for path in _classic_files():
        for g in cescacs.read_games(path):
            if g.errors:
                continue
            # The reference: the same game written and read back without edits.
            (plain,) = cescacs.read_games(g.to_string("pgn").encode(), format="pgn")
            e = g.copy()
            e.set_tag("Annotator", "i29b round trip")
            e.set_tag("Event", (g.tags.get("Event") or "") + " (edited)")
            e.add_comment(0, "edited before")
            if g.moves:
                e.add_comment(len(g.moves), "edited last")
            text = e.to_string("pgn")
            (back,) = cescacs.read_games(text.encode(), format="pgn")
            assert not back.errors, (path, g.index, back.errors)
            want = dict(plain.tags)
            want["Annotator"] = "i29b round trip"
            want["Event"] = (g.tags.get("Event") or "") + " (edited)"
            assert back.tags == want, (path, g.index)
            assert (back.moves, back.result, back.final_position) == (g.moves, g.result, g.final_position)
            # Comments: the reference's, plus the two edits, and nothing else.
            ref = pgn_part(plain)["...pgn"]
            got = pgn_part(back)["...pgn"]
            assert got.get("game_comment", []) == ref.get("game_comment", []) + ["edited before"]
            ref_ann = {a["ply"]: a for a in ref.get("annotations", [])}
            got_ann = {a["ply"]: a for a in got.get("annotations", [])}
            if g.moves:
                last = len(g.moves) - 1
                want_last = dict(ref_ann.get(last, {"ply": last}))
                want_last["after"] = list(want_last.get("after", [])) + [{"comment": "edited last"}]
                ref_ann[last] = want_last
            assert got_ann == ref_ann, (path, g.index)
            # python-chess reads the output to the same moves.
            pc = chess.read_game(io.StringIO(text))
            assert pc is not None
            assert [m.uci() for m in pc.mainline_moves()] == [
                m.uci() for m in chess.read_game(io.StringIO(g.to_string("pgn"))).mainline_moves()
            ]
            assert pc.headers["Annotator"] == "i29b round trip"
            games_seen += 1
    assert games_seen > 500
