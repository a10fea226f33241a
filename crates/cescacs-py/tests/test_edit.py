"""Editing (issue 29): Game.copy() sets tags, adds comments, cuts the main line, and
writes the edited game in any target format keeping every annotation. The round trip
over the shared classic corpus is checked against python-chess."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any, Dict, List, Tuple

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
    ce.add_variation(1, ["D6-D10"])  # C'escacs variations (issue 29 part B, second round)
    (cv,) = cescacs.read_games(ce.to_string("ctl-pgn").encode(), format="ctl-pgn")
    assert not cv.errors and [n.move.san for n in cv.variations if n.move][1] == "D6-D10"


# == issue 29 part B: editing in every game


def _facts(g: cescacs.Game) -> Tuple[Any, ...]:
    return (g.tags, g.moves, g.result, g.final_position, [m.comments for m in g.mainline()])


def _read_back(text: str, fmt: str) -> cescacs.Game:
    (back,) = cescacs.read_games(text.encode(), format=fmt)  # type: ignore[arg-type]
    assert not back.errors, (back.errors, text)
    return back


def _games(sub: str, suffix: str) -> List[cescacs.Game]:
    out: List[cescacs.Game] = []
    for p in sorted((REPO / "testdata" / sub).rglob("*" + suffix)):
        try:
            out.extend(g for g in cescacs.read_games(p) if not g.errors and g.moves)
        except cescacs.InputError:
            continue
    return out


def _after(tlpd: str, move: str) -> str:
    p = cescacs.Position(tlpd)
    p.push(move)
    return p.fen()


def test_cescacs_comments_and_truncation_round_trip():
    games = _games("cescacs", ".ctl-pgn") + _games("ctl-pgn", ".ctl-pgn")
    assert len(games) > 20
    for g in games:
        fmt = g.format
        plain = _read_back(g.to_string(fmt), fmt)  # type: ignore[arg-type]
        n = len(g.moves)
        e = g.copy()
        e.set_tag("Annotator", "i29b")
        e.add_comment(0, "edited before")
        e.add_comment(n, "edited last")
        back = _read_back(e.to_string(fmt), fmt)  # type: ignore[arg-type]
        tags, moves, result, final, comments = _facts(plain)
        assert back.tags == {**tags, "Annotator": "i29b"}, (g.file, g.index)
        assert (back.moves, back.result, back.final_position) == (moves, result, final)
        want = list(comments)
        want[-1] = want[-1] + ["edited last"]
        assert [m.comments for m in back.mainline()] == want, (g.file, g.index)
        root = back.variations[0].parent
        assert root is not None and root.comments[-1:] == ["edited before"]
        # A variation replacing the middle half-move: another legal move from the
        # position before it, read back where the spec hangs it (§7.7).
        mid = (n + 1) // 2
        before = cescacs.Position(g.positions()[mid - 1])
        other = next(m for m in before.legal_moves() if _after(g.positions()[mid - 1], m) != g.positions()[mid])
        e.add_variation(mid, [other])
        back = _read_back(e.to_string(fmt), fmt)  # type: ignore[arg-type]
        node = back.variations[0].parent
        for _ in range(mid - 1):
            node = node.next()  # type: ignore[union-attr]
        assert node is not None
        alt = node.variations[-1]
        before.push(other)
        assert alt.move is not None and alt.fen == before.fen(), (g.file, g.index, other)
        assert back.moves == moves, (g.file, g.index)
        # Cut after half the moves: the prefix, its position, result `*`.
        half = n // 2
        if half == 0:
            continue
        t = g.copy()
        t.truncate(half)
        cut = _read_back(t.to_string(fmt), fmt)  # type: ignore[arg-type]
        assert cut.moves == moves[:half] and cut.result == "*", (g.file, g.index)
        assert cut.final_position == g.positions()[half]
        # And through PCN.
        (pc,) = cescacs.read_games(t.to_string("pcn").encode(), format="pcn")
        assert pc.final_position == cut.final_position and not pc.errors


def test_xiangqi_variations_round_trip():
    games = _games("xiangqi", ".pgn")
    assert len(games) > 10
    done = 0
    for g in games[:60]:
        moves = g.mainline()
        if len(moves) < 3:
            continue
        # An alternative to the second move: the board before it, another legal move.
        board = g.board_at(1)
        others = [m for m in board.legal_moves() if m.replace("-", "").lower() != moves[1].uci.lower()]
        if not others:
            continue
        other = others[0]
        e = g.copy()
        e.add_variation(2, [other])
        text = e.to_string("xiangqi-pgn")
        back = _read_back(text, "xiangqi-pgn")
        assert back.moves == _read_back(g.to_string("xiangqi-pgn"), "xiangqi-pgn").moves
        node = back.variations[0]
        alts = [v.move.uci for v in node.variations if v.move is not None]
        assert alts[0] == moves[1].uci and alts[-1] == other.replace("-", "").lower(), (alts, other)
        with pytest.raises(cescacs.OptionError):
            e.add_variation(2, ["a0a9"])
        done += 1
    assert done > 5


def test_records_read_from_pcn_are_edited():
    (g,) = cescacs.read_games(CLOCKED, format="pgn")
    c = _games("cescacs", ".ctl-pgn")[0]
    x = _games("xiangqi", ".pgn")[0]
    for game in (g, c, x):
        (pc,) = cescacs.read_games(game.to_pcn_json().encode(), format="pcn")
        e = pc.copy()
        e.set_tag("Annotator", "from pcn")
        e.add_comment(1, "pcn comment")
        back = _read_back(e.to_string("pcn"), "pcn")
        plain = _read_back(pc.to_string("pcn"), "pcn")
        assert back.tags == {**plain.tags, "Annotator": "from pcn"}
        assert (back.moves, back.result, back.final_position) == (plain.moves, plain.result, plain.final_position)
        assert back.mainline()[0].comments == plain.mainline()[0].comments + ["pcn comment"]
        own = _read_back(e.to_string(game.format), game.format)  # type: ignore[arg-type]
        # (Compared as UCI/ICCS: a xiangqi move's spelling as written is not kept in PCN.)
        assert [m.uci for m in own.mainline()] == [m.uci for m in game.mainline()]
        assert own.tags["Annotator"] == "from pcn"


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
