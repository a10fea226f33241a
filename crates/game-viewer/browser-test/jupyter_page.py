"""Writes what Jupyter shows for a game (`Game._repr_html_()`, inside a notebook-like
page) and the positions python-chess gives after each ply, for `jupyter.mjs`.

    python jupyter_page.py OUT_DIR
"""

import io
import json
import sys
from pathlib import Path

import chess.pgn

import cescacs

PGN = '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n'

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
(game,) = list(cescacs.read_games(PGN.encode()))
shown = game._repr_html_()
assert shown is not None
(out / "jupyter.html").write_text(
    f'<!doctype html><html><body><div class="output_html">{shown}</div></body></html>'
)
reference = chess.pgn.read_game(io.StringIO(PGN))
board = reference.board()
fens = [board.fen()]
for move in reference.mainline_moves():
    board.push(move)
    fens.append(board.fen())
(out / "jupyter-expected.json").write_text(json.dumps(fens))
