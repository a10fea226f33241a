#!/usr/bin/env python3
"""Prints `N<TAB>ECO<TAB>NAME` for each game of a PGN file written by `cescacs select --eco`
(NAME rebuilt as `Opening: Variation`), for comparison with python_chess_eco.py."""
import sys
import chess.pgn

with open(sys.argv[1], encoding="utf-8-sig", errors="replace") as f:
    n = 0
    while (h := chess.pgn.read_headers(f)) is not None:
        n += 1
        eco = h.get("ECO", "-")
        name = h.get("Opening", "-")
        if "Variation" in h:
            name += ": " + h["Variation"]
        print(f"{n}\t{eco}\t{name}")
