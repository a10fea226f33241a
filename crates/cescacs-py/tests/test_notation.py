"""Chess output notations and stripping through the Python package, against
python-chess run live: every game of the shared classic corpus that python-chess
replays is written by ``Game.to_string("pgn", notation=..., strip=...)`` and its moves
must be python-chess's ``board.lan(move)`` / ``move.uci()``, move by move."""

from __future__ import annotations

import io
from typing import List

import chess
import chess.pgn
import pytest

import cescacs

from conftest import shared_path

# German piece letters (`Sf3`, spec section 6) are a knight for us and a pawn move for
# python-chess: the one documented divergence of the corpus (chess-pgn's corpus test).
GERMAN = "mliebelt-pgn-parser/doc_sampleGameThrow.pgn"


def moves_of(pgn: str) -> List[str]:
    """The moves of one exported game: the movetext minus numbers and result."""
    tags, movetext = pgn.strip().split("\n\n", 1)
    assert tags.startswith("[Event ")
    assert not any(c in movetext for c in "{($;"), movetext
    return [
        t
        for t in movetext.split()
        if not t.endswith(".") and t not in ("1-0", "0-1", "1/2-1/2", "*")
    ]


def test_lan_and_uci_equal_python_chess_on_the_shared_classic_corpus():
    root = shared_path("corpus", "classic-pgn-real")
    games = moves = 0
    for path in sorted(root.rglob("*.pgn")):
        rel = path.relative_to(root).as_posix()
        ours = {g.index: g for g in cescacs.read_games(path)}
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            index = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                index += 1
                board = game.board()
                if type(board).uci_variant != "chess" or game.errors or rel == GERMAN:
                    continue
                lans, ucis = [], []
                for move in game.mainline_moves():
                    lans.append(board.lan(move))
                    ucis.append(move.uci())
                    board.push(move)
                g = ours[index]
                assert not g.errors, (rel, index, g.errors)
                strip = "comments,variations,nags"
                assert moves_of(g.to_string("pgn", notation="lan", strip=strip)) == lans, (rel, index)
                assert moves_of(g.to_string("pgn", notation="uci", strip=strip)) == ucis, (rel, index)
                games += 1
                moves += len(lans)
    assert games > 500 and moves > 45_000, (games, moves)


def test_convert_takes_notation_and_strip():
    pgn = (
        '[Event "e"]\n[Opening "x"]\n\n1. e4 {[%clk 0:03:00]} e5 $1 (1... c5) '
        "2. Nf3 {good [%clk 0:02:59]} Nc6 3. Bb5 a6 4. O-O *\n"
    )
    uci = cescacs.convert(pgn, to="pgn", notation="uci", strip="comments,variations,nags,tags")
    assert uci.endswith("\n\n1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. e1g1 *\n\n")
    assert "Opening" not in uci
    lan = cescacs.convert(pgn, to="pgn", notation="lan", strip=["clock"])
    assert "1. e2-e4 e7-e5 $1 (1... c7-c5) 2. Ng1-f3 {good} 2... Nb8-c6" in lan
    assert lan.endswith("4.\nO-O *\n\n")  # lines are packed to 80 characters
    # python-chess writes the same LAN for the same game.
    game = chess.pgn.read_game(io.StringIO(pgn))
    board = game.board()
    want = []
    for move in game.mainline_moves():
        want.append(board.lan(move))
        board.push(move)
    assert moves_of(cescacs.convert(pgn, to="pgn", notation="lan", strip="comments,variations,nags")) == want


def test_wrong_names_are_value_errors():
    pgn = "1. e4 e5 *\n"
    with pytest.raises(ValueError, match="pgn takes san, lan or uci"):
        cescacs.convert(pgn, to="pgn", notation="wxf")
    with pytest.raises(ValueError, match="xiangqi output takes chinese, wxf or iccs"):
        cescacs.convert(
            '[Game "Chinese Chess"]\n\n1. h2e2 *\n', to="xiangqi-pgn", notation="lan"
        )
    with pytest.raises(ValueError, match="unknown strip item"):
        cescacs.convert(pgn, to="pgn", strip="comments,moves")
    # Xiangqi notations as before.
    xq = '[Game "Chinese Chess"]\n[Format "ICCS"]\n\n1. h2e2 h9g7 *\n'
    assert "C2.5" in cescacs.convert(xq, to="xiangqi-pgn", notation="wxf")


def test_chess_games_have_a_board_picture():
    (g,) = cescacs.read_games(b"1. e4 e5 2. Nf3 *\n")
    svg = g._repr_svg_()
    assert svg.startswith("<svg") and svg.count('<use href="#c') == 32
    assert "<title>f3</title>" in svg
