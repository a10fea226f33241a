#!/usr/bin/env python3
"""Independent oracle for chess-pgn's corpus test: replays every game of every
.pgn under a folder with python-chess and prints, per game, the main-line ply
count and the final position's FEN (or the error python-chess reports).

Usage: python3 oracle.py testdata/chess > testdata/chess/oracle.tsv
       python3 oracle.py --san testdata/chess   (main-line SAN per game, as
       chess-pgn's `dump_san` example prints it, to diff the two)
python-chess (GPL-3.0) is only run as an external tool here, never linked.
"""
import os
import sys

import chess
import chess.pgn


def main(root, san=False):
    if not san:
        print("# file\tgame\tvariant\tplies\tfinal_fen_or_error")
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
                    if san:
                        if type(board).uci_variant == "chess" and not game.errors:
                            print(f"{rel}\t{index}\t{' '.join(_sans(board, game))}")
                        continue
                    plies = 0
                    for node in game.mainline():
                        board.push(node.move)
                        plies += 1
                    err = "; ".join(str(e) for e in game.errors)
                    variant = type(board).uci_variant
                    final = ("ERROR " + err) if err else board.fen()
                    print(f"{rel}\t{index}\t{variant}\t{plies}\t{final}")


def _sans(board, game):
    out = []
    for move in game.mainline_moves():
        out.append(board.san(move))
        board.push(move)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "--san":
        main(sys.argv[2], san=True)
    else:
        main(sys.argv[1])
