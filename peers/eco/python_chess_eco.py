#!/usr/bin/env python3
"""Independent ECO classification with python-chess, for comparing `cescacs select --eco`.

Usage: python_chess_eco.py TABLE.tsv GAMES.pgn... > peer.tsv

The table is read as shipped (eco, name, pgn); each line is replayed with python-chess and
keyed by its EPD (python-chess writes the en passant square only when a capture there is
legal); the first line of a position keeps it. Each game's main line is replayed and every
position (the start included) looked up: the last one found wins. Games python-chess reports
errors for, and games not of standard chess, print `-` as their class.

Output: one line per game, `FILE<TAB>N<TAB>ECO<TAB>NAME` (N counts from 1; ECO and NAME are
`-` when the table names no position of the game).
"""
import sys
import io
import chess
import chess.pgn


def load(path):
    table = {}
    with open(path, encoding="utf-8") as f:
        next(f)
        for line in f:
            eco, name, pgn = line.rstrip("\n").split("\t")
            game = chess.pgn.read_game(io.StringIO(pgn))
            board = game.end().board()
            table.setdefault(board.epd(), (eco, name))
    return table


def main():
    table = load(sys.argv[1])
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            n = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                n += 1
                board = game.board()
                if game.errors or board.uci_variant != "chess" or board.chess960:
                    print(f"{path}\t{n}\t-\tbad-or-variant")
                    continue
                found = table.get(board.epd())
                for move in game.mainline_moves():
                    board.push(move)
                    found = table.get(board.epd(), found)
                eco, name = found if found else ("-", "-")
                print(f"{path}\t{n}\t{eco}\t{name}")


if __name__ == "__main__":
    main()
