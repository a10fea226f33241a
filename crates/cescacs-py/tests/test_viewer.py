"""Game._repr_html_: the viewer of `cescacs view` for one game, as Jupyter shows it."""

from __future__ import annotations

import html
import io

import chess
import chess.pgn

import cescacs
from conftest import REPO

XIANGQI = REPO / "testdata/xiangqi/real/walker8088-cchess/test2.pgn"
PGN = b'[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n'


def test_repr_html_is_the_viewer_in_a_sandboxed_iframe() -> None:
    (game,) = list(cescacs.read_games(PGN))
    shown = game._repr_html_()
    assert shown is not None
    assert shown.startswith('<iframe srcdoc="')
    assert 'sandbox="allow-scripts"' in shown
    page = html.unescape(shown.split('srcdoc="', 1)[1].split('"', 1)[0])
    assert page.lstrip().lower().startswith("<!doctype html>")
    # Every position after every ply is in the page (stepping needs no kernel): the
    # board part of python-chess's FEN after each move, as an independent reference.
    board = chess.pgn.read_game(io.StringIO(PGN.decode())).board()
    for move in chess.pgn.read_game(io.StringIO(PGN.decode())).mainline_moves():
        board.push(move)
        assert board.board_fen() in page, board.board_fen()
    # Self-contained: nothing is loaded from the network.
    for needle in ('src="http', "src='http", 'href="http', "@import", "fetch("):
        assert needle not in page, needle


def test_repr_html_of_a_cescacs_and_a_xiangqi_game() -> None:
    ctl = next(iter(cescacs.read_games(REPO / "testdata/ctl-pgn/oracle/game_0001.ctl-pgn")))
    xq = next(iter(cescacs.read_games(XIANGQI)))
    for game in (ctl, xq):
        assert not game.errors, game.errors
        shown = game._repr_html_()
        assert shown is not None and shown.startswith("<iframe srcdoc=")
