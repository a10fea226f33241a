#!/usr/bin/env python3
"""Independent check of `cescacs replay --each` on classic chess: python-chess
replays every game of every .pgn under the folders given and prints the FEN after
every main-line half-move, in the CLI's form (`GAME:PLY: FEN`, per file); with
--compare CESCACS it runs the CLI on each file too and counts equal and different
positions.

Usage:
  python3 replay_each.py FILE.pgn > expected.txt      (the form of the CLI's output)
  python3 replay_each.py --compare target/release/cescacs ../shared/corpus/classic-pgn-real
python-chess (GPL-3.0) is only run as an external tool here, never linked.
"""
import os
import subprocess
import sys

import chess
import chess.pgn


def positions(path):
    """{(game, ply): fen} for the games python-chess reads without error."""
    out = {}
    skipped = 0
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        index = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            index += 1
            if game.errors or game.headers.get("Variant", "Standard").lower() not in (
                "standard", "chess", "chess960", "fischerandom", "fischerrandom", "chess 960"
            ):
                skipped += 1
                continue
            board = game.board()
            out[(index, 0)] = board.fen()
            for ply, move in enumerate(game.mainline_moves(), 1):
                board.push(move)
                out[(index, ply)] = board.fen()
    return out, skipped


def ours(cescacs, path):
    run = subprocess.run([cescacs, "replay", "--each", path], capture_output=True, text=True)
    out = {}
    for line in run.stdout.splitlines():
        head, fen = line.split(": ", 1)
        game, ply = head.split(":")
        out[(int(game), int(ply))] = fen
    return out


def files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for dirpath, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                if name.endswith(".pgn"):
                    yield os.path.join(dirpath, name)


def main(argv):
    if argv[0] == "--compare":
        cescacs, roots = argv[1], argv[2:]
        equal = different = missing = skipped = games = 0
        for path in files(roots):
            theirs, s = positions(path)
            skipped += s
            mine = ours(cescacs, path)
            games += len({g for g, _ in theirs})
            for key, fen in theirs.items():
                if key not in mine:
                    missing += 1
                elif mine[key] == fen:
                    equal += 1
                else:
                    different += 1
                    if different <= 10:
                        print(f"{path}:{key[0]}:{key[1]}: python-chess {fen!r}, cescacs {mine[key]!r}")
        print(f"{games} games, {equal + different + missing} positions: {equal} equal, "
              f"{different} different, {missing} missing from cescacs; "
              f"{skipped} games python-chess could not read or plays another variant (not compared)")
        return 1 if different or missing else 0
    for path in files(argv):
        theirs, _ = positions(path)
        for (game, ply), fen in sorted(theirs.items()):
            print(f"{game}:{ply}: {fen}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
