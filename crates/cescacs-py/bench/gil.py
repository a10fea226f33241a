"""How fast another Python thread runs while the package works (issue 26, case 17: the
GIL released in convert, read_games and perft). Prints each call's time and the other
thread's speed as a share of its speed alone. Needs ../shared (or CESCACS_SHARED).

    python crates/cescacs-py/bench/gil.py
"""

import os
import threading
import time
from pathlib import Path

import cescacs

REPO = Path(__file__).resolve().parents[3]
SHARED = Path(os.environ.get("CESCACS_SHARED", REPO.parent / "shared"))
text = (SHARED / "corpus/classic-pgn-real/derived-encodings/twic-01-232games.crlf.pgn").read_bytes()
data = text * max(1, (20 << 20) // len(text))
def rate(seconds=None, during=None):
    n=[0]; stop=threading.Event()
    def count():
        while not stop.is_set(): n[0]+=1
    t=threading.Thread(target=count); t.start()
    t0=time.perf_counter()
    if during: during()
    else: time.sleep(seconds)
    el=time.perf_counter()-t0; stop.set(); t.join()
    return n[0]/el, el
base,_=rate(2.0)
for name, f in [("convert 20 MB to pcn", lambda: cescacs.convert(data, to="pcn")),
                ("read_games 20 MB", lambda: sum(1 for _ in cescacs.read_games(data))),
                ("perft(4)", lambda: cescacs.Position().perft(4))]:
    r,el=rate(during=f)
    print(f"{name}: {el:.2f} s; other thread at {100*r/base:.0f} % of its idle speed")
print(f"{len(data)/1e6:.1f} MB")
