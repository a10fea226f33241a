"""`cescacs.read_headers` against the full `cescacs.read_games` read (and
python-chess's `read_headers`), same run, same file: games per CPU second.

    python crates/cescacs-py/bench/headers.py [--games N] [--shared DIR]

The input is every game of the shared classic-PGN corpus (../shared/corpus/
classic-pgn-real, or --shared) repeated to N games, written to a temporary file.
The full read touches what a user reads (tags, moves, final position); the headers
read touches the tags.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import cescacs

REPO = Path(__file__).resolve().parents[3]


def corpus(shared: Path, games: int) -> bytes:
    root = shared / "corpus" / "classic-pgn-real"
    if not root.is_dir():
        sys.exit(f"missing {root}")
    parts = [p.read_bytes() for p in sorted(root.rglob("*.pgn"))]
    one = b"\n\n".join(parts)
    n = sum(1 for _ in cescacs.read_headers(one, format="pgn"))
    return b"\n\n".join([one] * max(1, games // n))


def cpu(f) -> float:
    t = time.process_time()
    f()
    return time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--shared", type=Path, default=Path(os.environ.get("CESCACS_SHARED", REPO.parent / "shared")))
    a = ap.parse_args()
    data = corpus(a.shared, a.games)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.pgn"
        path.write_bytes(data)
        counts = {}

        def headers() -> None:
            counts["headers"] = sum(1 for h in cescacs.read_headers(path) if h.tags)

        def full() -> None:
            counts["full"] = sum(1 for g in cescacs.read_games(path) if g.tags and g.moves is not None and g.final_position)

        h = min(cpu(headers) for _ in range(3))
        f = min(cpu(full) for _ in range(2))
        print(f"file: {len(data) / 1e6:.1f} MB, {counts['full']} games")
        print(f"read_headers: {counts['headers'] / h:,.0f} games/s (cpu {h:.2f} s)")
        print(f"read_games:   {counts['full'] / f:,.0f} games/s (cpu {f:.2f} s)")
        print(f"ratio: {f / h:.1f}x")
        try:
            import chess.pgn
        except ImportError:
            return
        text = data[: len(data) // 20].decode("utf-8", "replace")

        def pc() -> None:
            s = io.StringIO(text)
            n = 0
            while chess.pgn.read_headers(s) is not None:
                n += 1
            counts["pc"] = n

        p = cpu(pc)
        print(f"python-chess read_headers: {counts['pc'] / p:,.0f} games/s (cpu {p:.2f} s, a 1/20 slice)")


if __name__ == "__main__":
    main()
