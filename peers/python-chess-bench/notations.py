#!/usr/bin/env python3
"""Independent reference for chess-pgn's LAN and UCI writers: for every game of
every .pgn under a folder that python-chess replays without error, the main
line as python-chess writes it with `board.lan(move)` and `move.uci()`.

Usage: python3 notations.py testdata/chess > testdata/chess/oracle-lan-uci.tsv
Output: file<TAB>game<TAB>lan lan ...<TAB>uci uci ...   (one game per line)

python-chess (GPL-3.0) is only run as an external tool here, never linked.
"""
import os
import sys

import chess
import chess.pgn


def main(root):
    print(f"# python-chess {chess.__version__}: file\tgame\tlan\tuci")
    for dirpath, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if not name.endswith(".pgn"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8-sig", errors="replace") as f:
                index = 0
                while True:
                    game = chess.pgn.read_game(f)
                    if game is None:
                        break
                    index += 1
                    board = game.board()
                    if type(board).uci_variant != "chess" or game.errors:
                        continue
                    lans, ucis = [], []
                    for move in game.mainline_moves():
                        lans.append(board.lan(move))
                        ucis.append(move.uci())
                        board.push(move)
                    print(f"{rel}\t{index}\t{' '.join(lans)}\t{' '.join(ucis)}")


if __name__ == "__main__":
    main(sys.argv[1])
