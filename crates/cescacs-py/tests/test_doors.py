"""The CLI's promise kept by the Python package (issue 26, cases 14-17, must-show 4):
one input layer (the CLI's) for every source, damaged input said to be damaged and
never an exception half-way, binary input refused, readers usable from any thread, the
GIL released, and every failure a documented subclass of ``cescacs.CescacsError``."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import cescacs
from conftest import REPO, classic_text, compress, run

CODECS = ("gz", "bz2", "xz", "zst")
LOCATED = re.compile(r"^(?P<file>.*):(?P<line>\d+):(?P<col>\d+): game (?P<game>\d+): error: (?P<msg>.*)$", re.S)


def sources(path: Path):
    """The same input as a path, bytes and a binary file object."""
    return [path, path.read_bytes(), open(path, "rb")]


def games_of(source):
    """Every game, never an exception half-way (the test fails if one is raised)."""
    return list(cescacs.read_games(source))


# -- case 15: one input layer, all four codecs in Rust ---------------------------------


def test_four_codecs_are_read_in_rust_with_no_optional_python_package(tmp_path):
    text = classic_text()
    for codec in CODECS:
        (tmp_path / f"db.pgn.{codec}").write_bytes(compress(text, codec))
    (tmp_path / "db.pgn").write_bytes(text)
    # The package must not need zstandard, nor the standard library's codecs: the child
    # process has them all refused.
    script = f"""
import sys
for m in ("zstandard", "gzip", "bz2", "lzma", "zlib"):
    sys.modules[m] = None
import cescacs
root = {str(tmp_path)!r}
plain = list(cescacs.read_games(root + "/db.pgn"))
want = [(g.tags, g.moves, g.errors) for g in plain]
for codec in {CODECS!r}:
    name = root + "/db.pgn." + codec
    data = open(name, "rb").read()
    for src in (name, data, open(name, "rb")):
        got = [(g.tags, g.moves, g.errors) for g in cescacs.read_games(src, format="pgn")]
        assert got == want, (codec, type(src), len(got), len(want))
    with cescacs.open_decompressed(name) as f:
        assert f.read() == open(root + "/db.pgn", "rb").read(), codec
print(len(plain))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["232"]


def test_corrupt_gzip_bytes_are_an_error_of_ours_not_bad_gzip_file():
    for data in [b"\x1f\x8b\x08\x00" + b"not deflate at all" * 10, b"\x1f\x8b"]:
        # Nothing to tell the format from: the refusal names the damage.
        with pytest.raises(cescacs.InputError, match="<bytes>: read error: "):
            cescacs.read_games(data)
        # The format given: one game carrying the located error.
        (game,) = list(cescacs.read_games(data, format="pgn"))
        assert LOCATED.match(game.errors[0]) and "read error" in game.errors[0]
        with pytest.raises(cescacs.CescacsError, match="read error"):
            cescacs.convert(data, to="pcn", from_="pgn")


# -- case 14: a damaged source yields every game before the damage, then the error -----


@pytest.mark.parametrize("codec", CODECS)
def test_damaged_stream_yields_the_games_before_the_damage_then_a_located_error(tmp_path, codec):
    # Eight copies: more than one bzip2 block (900 kB), so that some decode before the cut.
    text = classic_text() * 8
    plain = games_of(text)
    packed = compress(text, codec)
    cut = tmp_path / f"cut.pgn.{codec}"
    cut.write_bytes(packed[: len(packed) * 3 // 4])
    for src in sources(cut):
        games = games_of(src)
        *before, last = games
        # Every game yielded whole before the damage is one of the file's, in order.
        assert 0 < len(before) < len(plain), (codec, len(before))
        for g, want in zip(before[:-1], plain):
            assert (g.tags, g.moves, g.errors) == (want.tags, want.moves, want.errors)
        # The last one carries the located read error.
        assert last.errors, codec
        m = LOCATED.match(last.errors[-1])
        assert m and int(m["game"]) == last.index == len(games), last.errors
        assert "read error" in m["msg"] or "error" in m["msg"], last.errors
        if isinstance(src, Path):
            assert m["file"] == str(cut)


def test_a_damaged_file_never_hides_the_good_one_beside_it(tmp_path):
    text = classic_text()
    packed = compress(text, "gz")
    (tmp_path / "a-cut.pgn.gz").write_bytes(packed[: len(packed) // 2])
    (tmp_path / "b-good.pgn").write_bytes(text)
    counts = {}
    for f in sorted(tmp_path.iterdir()):
        games = games_of(f)
        counts[f.name] = (len(games), sum(1 for g in games if g.errors))
    assert counts["b-good.pgn"] == (232, 0)
    n, bad = counts["a-cut.pgn.gz"]
    assert 0 < n < 232 and bad >= 1


# -- case 16: binary input refused as the CLI refuses it --------------------------------


def test_binary_input_is_refused_as_the_cli_refuses_it(cli, tmp_path):
    zeros = tmp_path / "zeros.pgn"
    zeros.write_bytes(b"\0" * 100_000)
    half = tmp_path / "half.pgn"
    half.write_bytes(b'[Event "x"]\n\n1. e4 ' + b"\0" * 1000)
    for f in (zeros, half):
        out = run(cli, "check", "-q", str(f))
        assert out.returncode == 2
        cli_line = out.stderr.decode().splitlines()[0]
        for src in sources(f):
            # Bytes have no name to tell the format by.
            fmt = "pgn" if isinstance(src, bytes) else None
            with pytest.raises(cescacs.InputError) as e:
                cescacs.read_games(src, format=fmt)
            mine = str(e.value)
            if isinstance(src, Path):
                # The CLI's message, less its command-line hint.
                assert cli_line.startswith(mine), (cli_line, mine)
            assert "binary data, not pgn text; not read" in mine
        with pytest.raises(cescacs.InputError, match="binary data"):
            cescacs.convert(f.read_bytes(), to="pcn", from_="pgn")


# -- case 17: threads, the GIL, and every failure a CescacsError -------------------------


def test_a_reader_made_on_one_thread_is_iterated_on_another():
    text = classic_text()
    reader = cescacs.read_games(text)
    with ThreadPoolExecutor(1) as pool:
        games = pool.submit(lambda: list(reader)).result()
    assert len(games) == 232
    # A reader shared by two threads: each game once, none lost.
    reader = cescacs.read_games(text)
    with ThreadPoolExecutor(2) as pool:
        parts = list(pool.map(lambda _: [g.index for g in reader], range(2)))
    assert sorted(parts[0] + parts[1]) == list(range(1, 233))
    # Positions too.
    p = cescacs.Position()
    with ThreadPoolExecutor(1) as pool:
        moves = pool.submit(p.legal_moves).result()
        pool.submit(p.play, moves[0]).result()
    assert p.tlpd() != cescacs.Position().tlpd()


def test_perft_beyond_the_limit_is_an_option_error():
    for depth in (25, 21, 2**32 - 1):
        with pytest.raises(cescacs.OptionError, match="perft depth"):
            cescacs.Position().perft(depth)
    with pytest.raises(cescacs.CescacsError):
        cescacs.Position().perft(-1)
    assert cescacs.Position().perft(1) > 0


def _moved_during(call) -> bool:
    """Whether another Python thread ran while `call` ran. The switch interval is made
    huge, so a call that keeps the GIL lets no other thread run at all (the counter
    cannot move); a call that releases it lets the counting thread in at once."""
    counter = [0]
    stop = threading.Event()
    started = threading.Event()

    def count():
        started.set()
        while not stop.is_set():
            counter[0] += 1
            # Lets the caller have the GIL back as soon as it asks (the huge interval).
            import time

            time.sleep(0)

    old = sys.getswitchinterval()
    t = threading.Thread(target=count)
    t.start()
    started.wait()
    sys.setswitchinterval(1000.0)
    try:
        for _ in range(20):
            before = counter[0]
            call()
            if counter[0] != before:
                return True
        return False
    finally:
        sys.setswitchinterval(old)
        stop.set()
        t.join()


def test_the_gil_is_released_in_convert_reading_and_perft():
    text = classic_text()
    assert _moved_during(lambda: cescacs.convert(text, to="pcn"))
    assert _moved_during(lambda: list(cescacs.read_games(text)))
    assert _moved_during(lambda: cescacs.Position().perft(3))
    # The check itself: a call that keeps the GIL is seen keeping it.
    assert not _moved_during(lambda: sum(range(200_000)))


def test_every_failure_is_a_documented_cescacs_error():
    pgn = b'[Event "e"]\n\n1. e4 e5 *\n'
    cases = [
        (cescacs.OptionError, lambda: cescacs.convert(pgn, to="nope")),
        (cescacs.OptionError, lambda: cescacs.convert(pgn, to="pgn", notation="zzz")),
        (cescacs.OptionError, lambda: cescacs.convert(pgn, to="pgn", strip="nothing-known")),
        # An unknown keyword is Python's own TypeError (the options are typed keyword
        # arguments); OptionError is a TypeError too, so one except clause takes both.
        (TypeError, lambda: cescacs.convert(pgn, to="pgn", colour=True)),
        (cescacs.OptionError, lambda: cescacs.convert(pgn, to="pgn", fan="yes")),
        (cescacs.OptionError, lambda: cescacs.convert(12, to="pgn")),
        (cescacs.OptionError, lambda: cescacs.read_games(pgn, format="nope")),
        (cescacs.OptionError, lambda: cescacs.read_games(12)),
        (cescacs.InputError, lambda: cescacs.read_games(io.StringIO("hello"))),
        (cescacs.OptionError, lambda: next(iter(cescacs.read_games(pgn))).to_string("nope")),
        (cescacs.InputError, lambda: cescacs.read_games("/nonexistent/x.pgn")),
        (cescacs.InputError, lambda: cescacs.read_games(b"hello")),
        (cescacs.InputError, lambda: cescacs.read_games(REPO / "Cargo.toml")),
        (cescacs.ParseError, lambda: cescacs.convert(pgn + b"\n[Event \"f\"]\n\n1. e5 *\n", to="pcn")),
        (cescacs.ParseError, lambda: cescacs.Position("not a position")),
        (cescacs.ParseError, lambda: cescacs.Position().play("A1-A30")),
    ]
    for kind, call in cases:
        with pytest.raises(kind) as e:
            call()
        assert kind is TypeError or isinstance(e.value, cescacs.CescacsError)
    # Where they were a ValueError / TypeError / OSError, they still are.
    assert issubclass(cescacs.OptionError, ValueError) and issubclass(cescacs.OptionError, TypeError)
    assert issubclass(cescacs.ParseError, ValueError)
    assert issubclass(cescacs.InputError, OSError)
    assert not issubclass(cescacs.CescacsError, ValueError)
    # A file object whose read() fails: the failure is a game carrying it, not a raise
    # half-way (or at once, when the very first read fails).

    class Failing(io.RawIOBase):
        def __init__(self):
            self.calls = 0

        def readable(self):
            return True

        def read(self, n=-1):
            self.calls += 1
            if self.calls > 1:
                raise RuntimeError("disk gone")
            return pgn * 10

    games = list(cescacs.read_games(Failing(), format="pgn"))
    assert "disk gone" in games[-1].errors[-1]
    # With no format to go by, the failure is the refusal's reason.
    with pytest.raises(cescacs.InputError, match="disk gone"):
        cescacs.read_games(Failing())


# -- must-show 4: every bad and hostile file ----------------------------------------------


def hostile_inputs(tmp_path: Path):
    """Small instances of the hostile families (docs/hostile-input.md, xtask
    fuzz.rs's hostile seeds, issue 26's damaged streams), as (name, bytes)."""
    rep = lambda head, unit, n, tail: (head + unit * n + tail).encode()
    nest = lambda head, open_, n, tail: (head + open_ * n + ")" * n + tail).encode()
    out = [
        ("ellipses.ctl-pgn", rep("1. ", "... ", 1000, "E7-E13 *\n")),
        ("dots.ctl-pgn", rep("1. ", ".", 4000, " *\n")),
        ("comments.ctl-pgn", rep("1. E7-E13 ", "{a} ", 1000, "*\n")),
        ("comment-lines.ctl-pgn", rep("1. E7-E13 ", "{}\n", 1000, "*\n")),
        ("variations.ctl-pgn", nest("1. E7-E13 ", "(1. E7-E13 ", 300, " *\n")),
        ("open-parens.ctl-pgn", rep("1. E7-E13 ", "(", 4000, " *\n")),
        ("tlpd.ctl-pgn", rep('[TLPD "', "/0:V", 1000, ' w - - 0 1"]\n\n1. E7-E13 *\n')),
        ("deep.pgn", nest("1. e4 ", "(1. d4 ", 1000, " *\n")),
        ("parens.pgn", rep("1. e4 ", "(", 4000, " *\n")),
        ("repeated.pgn", rep("", "1. e4 e5 ", 1000, "*\n")),
        ("deep-xq.pgn", nest('[Game "Chinese Chess"]\n\n1. h2e2 ', "(1. h2e2 ", 1000, " *\n")),
        ("arrays.jsonl", ("[" * 10_000 + "]" * 10_000 + "\n").encode()),
        ("long-tag.pgn", b'[Event "' + b"x" * 1_000_000 + b'"]\n\n1. e4 *\n'),
        ("zeros.pgn", b"\0" * 70_000),
        ("utf16.pgn", '[Event "x"]\n\n1. e4 e5 *\n'.encode("utf-16")),
        ("empty.pgn", b""),
        ("only-newlines.pgn", b"\n" * 10_000),
    ]
    rng = random.Random(26)
    out.append(("random.pgn", bytes(rng.randrange(256) for _ in range(20_000))))
    text = classic_text()[:200_000]
    for codec in CODECS:
        packed = compress(text, codec)
        out.append((f"cut.pgn.{codec}", packed[: len(packed) // 2]))
        flipped = bytearray(packed)
        flipped[len(flipped) // 2] ^= 0xFF
        out.append((f"flipped.pgn.{codec}", bytes(flipped)))
        out.append((f"header-only.pgn.{codec}", packed[:12]))
    return out


def bad_files(tmp_path: Path):
    files = sorted(p for p in (REPO / "testdata" / "bad").iterdir() if p.is_file())
    for name, data in hostile_inputs(tmp_path):
        p = tmp_path / name
        p.write_bytes(data)
        files.append(p)
    return files


def read_all_or_refuse(src) -> str:
    """Only two outcomes are allowed: a CescacsError when the reader is made (a
    file-level refusal), or games, bad ones with their errors."""
    try:
        reader = cescacs.read_games(src)
    except cescacs.CescacsError as e:
        assert str(e), src
        return "refused"
    n = 0
    for g in reader:
        n += 1
        for e in g.errors + g.warnings:
            assert isinstance(e, str) and e
        # Everything a game offers can be asked for.
        g.tags, g.moves, g.result, g.final_position
        try:
            g.to_pcn_json()
        except cescacs.CescacsError:
            pass
    return f"{n} games"


def test_every_bad_and_hostile_input_gives_a_cescacs_error_or_games_with_errors(tmp_path):
    files = bad_files(tmp_path)
    assert len(files) > 120
    outcomes = {}
    for f in files:
        if f.suffix in (".tsv", ".py", ".md"):
            continue
        for src in sources(f):
            outcomes[(f.name, type(src).__name__)] = read_all_or_refuse(src)
        try:
            cescacs.convert(f.read_bytes(), to="pcn")
        except cescacs.CescacsError:
            pass
    assert outcomes[("zeros.pgn", "PosixPath")] == "refused"


def _rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def threaded_reads(files, reads_per_thread: int, threads: int = 4):
    """`threads` workers doing `threads * reads_per_thread` reads of the files in turn;
    the readers are made on this thread and iterated on the workers, at most
    `8 * threads` waiting at a time (so that the memory measured is the readers', not a
    queue's). Returns the RSS (KiB) after each tenth of the run."""
    from collections import deque

    inputs = [f.read_bytes() for f in files]
    total = threads * reads_per_thread
    tenth = max(1, total // 10)
    rss = []
    waiting = deque()
    with ThreadPoolExecutor(threads) as pool:
        for k in range(total):
            try:
                reader = cescacs.read_games(inputs[(k * 7919) % len(inputs)])
            except cescacs.CescacsError:
                reader = None
            if reader is not None:
                waiting.append(pool.submit(lambda r=reader: sum(1 for _ in r)))
                del reader
            while len(waiting) > 8 * threads:
                waiting.popleft().result()
            if (k + 1) % tenth == 0:
                while waiting:
                    waiting.popleft().result()
                rss.append(_rss_kib())
        while waiting:
            waiting.popleft().result()
    return rss


def test_four_threads_read_bad_files_with_flat_memory(tmp_path):
    """4 threads x CESCACS_THREAD_READS reads (250 by default; 10,000 is must-show 4's
    run, see README): no PanicException, and the memory of the last tenth of the run
    no more than 64 MiB above that of its first tenth."""
    files = [f for f in bad_files(tmp_path) if f.suffix not in (".tsv", ".py", ".md")]
    files = [f for f in files if f.stat().st_size < 300_000]
    reads = int(os.environ.get("CESCACS_THREAD_READS", "250"))
    rss = threaded_reads(files, reads)
    print(f"\n4 threads x {reads} reads: RSS (KiB) by tenth: {rss}")
    assert rss[-1] - rss[0] < 64 * 1024, rss


def test_records_of_one_raw_game_are_numbered_one_after_another():
    import json

    one = json.dumps(json.loads(cescacs.convert(b'[Event "a"]\n\n1. e4 e5 *\n', to="pcn")))
    data = f"[{one},{one}]\n{one}\n".encode()
    games = list(cescacs.read_games(data, format="pcn"))
    assert [(g.index, g.line) for g in games] == [(1, 1), (2, 1), (3, 2)]
