"""The game model's speed against python-chess, same run, same file (issue 29 part A).
Rates are games per CPU second of this process (python-chess on a slice: it is ~100x
slower, and games per CPU second do not depend on the count):

1. Move objects for every ply: `for m in game.mainline(): m.san, m.uci` (and once more
   with `m.fen_after`) against python-chess's `read_game` +
   `for node in game.mainline(): node.move`;
2. final positions only: `game.final_position` against `read_game` + `end().board().fen()`;
3. headers only: `cescacs.read_headers` touching `h.tags` against the full read touching
   `tags`, `moves` and `final_position` (as bench/headers.py), on the same file.

The load average at the start and end is printed: the rates are CPU time of this
process, but a loaded machine still slows both sides (caches, frequency).

    python crates/cescacs-py/bench/model.py [--games N] [--slice N]

The input is the shared classic-PGN corpus (../shared/corpus/classic-pgn-real, or
$CESCACS_SHARED) repeated to N games, written to a temporary file and removed after.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import chess.pgn

import cescacs

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CESCACS_SHARED", REPO.parent / "shared"))


def corpus_bytes() -> bytes:
    root = SHARED / "corpus" / "classic-pgn-real"
    if not root.is_dir():
        sys.exit(f"missing {root}")
    chunks = []
    for p in sorted(root.rglob("*.pgn")):
        data = p.read_bytes()
        if b"[Variant" in data or b"\x00" in data:
            continue  # variants python-chess would read as standard chess
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        chunks.append(data.rstrip(b"\r\n") + b"\n\n")
    return b"".join(chunks)


def rate(run) -> tuple[float, int, int]:
    t0 = time.process_time()
    games, plies = run()
    return games / (time.process_time() - t0), games, plies


def ours_moves(db: Path, fen: bool):
    games = plies = 0
    for g in cescacs.read_games(db):
        for m in g.mainline():
            _ = (m.san, m.uci, m.fen_after) if fen else (m.san, m.uci)
            plies += 1
        games += 1
    return games, plies


def ours_final(db: Path):
    games = 0
    for g in cescacs.read_games(db):
        _ = g.final_position
        games += 1
    return games, 0


def ours_headers(db: Path):
    n = sum(1 for h in cescacs.read_headers(db) if h.tags)
    return n, 0


def ours_full(db: Path):
    n = sum(1 for g in cescacs.read_games(db) if g.tags and g.moves is not None and g.final_position)
    return n, 0


def theirs(text: str, limit: int, final: bool):
    f = io.StringIO(text)
    games = plies = 0
    while games < limit and (game := chess.pgn.read_game(f)) is not None:
        if final:
            _ = game.end().board().fen()
        else:
            for node in game.mainline():
                _ = node.move
                plies += 1
        games += 1
    return games, plies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--slice", type=int, default=1000)
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    body = corpus_bytes()
    per = sum(1 for _ in cescacs.read_games(body, format="pgn"))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "model-bench.pgn"
        db.write_bytes(body * max(1, args.games // per))
        text = db.read_text(encoding="utf-8")
        m_rate, m_games, m_plies = rate(lambda: ours_moves(db, False))
        mf_rate, _, _ = rate(lambda: ours_moves(db, True))
        f_rate, f_games, _ = rate(lambda: ours_final(db))
        pm_rate, pm_games, pm_plies = rate(lambda: theirs(text, args.slice, False))
        pf_rate, pf_games, _ = rate(lambda: theirs(text, args.slice, True))
        h_rate, _, _ = max(rate(lambda: ours_headers(db)) for _ in range(3))
        full_rate, _, _ = max(rate(lambda: ours_full(db)) for _ in range(2))
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (start {load0:.1f})")
    print(f"file: {db.name}, {m_games} games, {m_plies} plies ({per} corpus games repeated)")
    print(f"Move objects every ply (san, uci): cescacs {m_rate:,.0f} games/s, python-chess "
          f"{pm_rate:,.0f} games/s ({pm_games} games): {m_rate / pm_rate:.1f}x (goal >= 50x)")
    print(f"Move objects every ply (san, uci, fen_after): cescacs {mf_rate:,.0f} games/s: "
          f"{mf_rate / pm_rate:.1f}x")
    print(f"final positions only:   cescacs {f_rate:,.0f} games/s, python-chess "
          f"{pf_rate:,.0f} games/s ({pf_games} games): {f_rate / pf_rate:.1f}x (goal >= 100x)")
    print(f"read_headers: {h_rate:,.0f} games/s, full read {full_rate:,.0f} games/s: "
          f"{h_rate / full_rate:.1f}x (goal >= 10x)")


if __name__ == "__main__":
    main()
