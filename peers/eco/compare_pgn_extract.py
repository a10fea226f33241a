#!/usr/bin/env python3
"""`cescacs select --eco` against `pgn-extract -e` (its own eco.pgn), file by file.

Usage: compare_pgn_extract.py CESCACS ECO.PGN FILE.pgn...

Each file's own ECO/Opening/Variation/SubVariation tags are removed first; a file where the
two tools write a different number of games is named and left out. Compared: the ECO code
of each game (the names of the two tables differ in wording). Prints the agreement, then each
difference as `ours theirs | moves`.
"""
import os
import re
import subprocess
import sys
import tempfile
import chess.pgn

cescacs, eco_pgn, files = sys.argv[1], sys.argv[2], sys.argv[3:]
strip = re.compile(r"^\[(ECO|Opening|Variation|SubVariation) ", re.M)


def games(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            moves = " ".join(str(m) for m in list(g.mainline_moves())[:16])
            out.append((g.headers.get("ECO", "-"), moves))
    return out


total = same = same_volume = 0
kinds = {}
with tempfile.TemporaryDirectory() as tmp:
    for path in files:
        src = os.path.join(tmp, "in.pgn")
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = "\n".join(l for l in f.read().split("\n") if not strip.match(l))
        with open(src, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        ours, theirs = os.path.join(tmp, "ours.pgn"), os.path.join(tmp, "pe.pgn")
        subprocess.run([cescacs, "select", src, "--eco", "-q", "-o", ours], stderr=subprocess.DEVNULL)
        subprocess.run(["pgn-extract", "-e" + eco_pgn, "-s", src, "-o", theirs], stderr=subprocess.DEVNULL)
        a, b = games(ours), games(theirs)
        if len(a) != len(b):
            print(f"{path}: {len(a)} games by cescacs, {len(b)} by pgn-extract: not compared")
            continue
        for (ea, moves), (eb, _) in zip(a, b):
            total += 1
            same += ea == eb
            same_volume += ea[:1] == eb[:1]
            if ea != eb:
                kind = "no class by cescacs" if ea == "-" else "no class by pgn-extract" if eb == "-" else "other code"
                kinds[kind] = kinds.get(kind, 0) + 1
                print(f"DIFF {ea} {eb} | {moves}")
print(f"TOTAL: {same} / {total} same ECO code, {same_volume} / {total} same volume; differences: {kinds}")
