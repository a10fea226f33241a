#!/usr/bin/env python3
"""Throughput of python-chess on one PGN file (benchmark peer of chess-pgn).

Usage: python3 bench.py <file.pgn> parse|replay [max_games]

parse:  chess.pgn.read_game with a visitor that builds no game tree and skips
        variations. python-chess has no parse-only path: its reader still
        resolves each SAN on a board, so this is its fastest mode, not a pure parse.
replay: chess.pgn.read_game (the default GameBuilder, which parses and plays every
        SAN move); then the main line is walked.
With max_games, only that many games are read and the rates are computed on the
bytes actually consumed, so a slow peer can be measured on a prefix of the
same corpus.  Output format is shared with the Rust tools.
"""
import sys
import time

import chess
import chess.pgn


class CountVisitor(chess.pgn.BaseVisitor):
    """Accepts headers and moves, builds nothing, skips variations."""

    def __init__(self):
        self.errors = 0

    def begin_variation(self):
        return chess.pgn.SKIP

    def handle_error(self, error):
        # python-chess resolves every SAN even here (its reader needs the board);
        # count failures instead of raising, like the other tools.
        self.errors += 1

    def result(self):
        return self.errors


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in ("parse", "replay"):
        print("usage: bench.py <file.pgn> parse|replay [max_games]", file=sys.stderr)
        sys.exit(2)
    path, mode = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) == 4 else None
    games = errors = 0
    start = time.perf_counter()
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        while limit is None or games < limit:
            if mode == "parse":
                g = chess.pgn.read_game(f, Visitor=CountVisitor)
            else:
                g = chess.pgn.read_game(f)
            if g is None:
                break
            games += 1
            if mode == "parse":
                errors += bool(g)
            if mode == "replay":
                errors += bool(g.errors)
                for _ in g.mainline_moves():
                    pass
        consumed = f.buffer.tell() if limit is not None else None
    secs = time.perf_counter() - start
    if consumed is None:
        import os
        consumed = os.path.getsize(path)
    mib = consumed / (1024 * 1024)
    print(f"tool=python-chess mode={mode} bytes={consumed} games={games} seconds={secs:.3f} "
          f"mib_s={mib / secs:.2f} games_s={games / secs:.0f} errors={errors}")


if __name__ == "__main__":
    main()
