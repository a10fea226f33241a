"""Read, replay and convert C'escacs, xiangqi and chess game records.

The toolkit's Rust readers (``cescacs-toolkit``) as a Python package::

    import cescacs
    for game in cescacs.read_games("games.pgn.zst"):   # or a directory, a text stream...
        if game.errors:                                # cescacs.Diagnostic objects (str)
            print("\\n".join(game.errors))
        else:
            print(game.tags.get("White"), game.result, game.final_position)

Formats: ``"ctl-pgn"`` (C'escacs), ``"pgn"`` (classic chess), ``"xiangqi-pgn"``,
``"pcn"`` (JSON; one document per file, an array, or JSON Lines); ``"xiangqi-xml"`` is
an output format. Every source goes through the ``cescacs`` command's own input layer
(Rust): gzip, bzip2, zstd and xz are recognised by their magic bytes and decompressed
without any optional Python package; UTF-16 is decoded; binary data is refused.

Errors: every exception the package raises is a :class:`CescacsError`:

- :class:`ParseError` (also a ``ValueError``): a game record that cannot be read,
  replayed or written (``convert`` of a bad game, ``Game.to_string``, a bad TLPD or move);
- :class:`InputError` (also an ``OSError``): an input that cannot be read at all
  (missing, unreadable, binary, a format that cannot be told, a stream that fails before
  its first game), raised by :func:`read_games` itself, before any game;
- :class:`OptionError` (also a ``ValueError`` and a ``TypeError``): an argument the
  function cannot take (unknown format or option, bad value, perft depth beyond the
  limit, a source of the wrong type).

Messages are located as the CLI's (``file:line:col: game N: error: ...``); a game's
``errors`` and ``warnings`` are :class:`Diagnostic` objects, ``str`` equal to that line
with ``file``, ``line``, ``column``, ``game``, ``severity``, ``code`` and ``message``.
Tags alone: :func:`read_headers`. Editing: ``Game.copy()``. Games pickle. Iterating a
reader never raises for a data problem: a bad game, and a stream damaged half-way (a cut
``.gz``, a corrupt ``.zst``), are games whose ``errors`` say what and where, after every
game read before the damage. Readers, games and positions may be used from any thread;
reading, ``convert`` and ``perft`` run with the GIL released.
For Apache Spark, see :mod:`cescacs.spark`.
"""

from __future__ import annotations

import os
from typing import IO, Any, Dict, Iterator, Optional, Tuple, Union

from . import _storage
from ._cescacs import (
    CescacsError,
    Game,
    GameReader,
    HeaderReader,
    Headers,
    InputError,
    OptionError,
    ParseError,
    Position,
    Selected,
    __version__,
    convert,
    select,
)
# == issue 29 part A: the game model
from ._cescacs import Board, GameNode, Mainline, Move, Score  # noqa: E402
from ._protocol import BoardLike  # noqa: E402
import collections.abc as _abc  # noqa: E402

# `Game.mainline()` is a sequence as `list` is (isinstance(..., Sequence) holds).
_abc.Sequence.register(Mainline)
# == end issue 29 part A
from ._cescacs import read_headers as _read_headers
from ._types import (
    Diagnostic,
    DiagnosticCode,
    InputFormat,
    Notation,
    OutputFormat,
    SeverityName,
    StripItem,
)
from ._cescacs import detect as _detect
from ._cescacs import open_decompressed as _open_decompressed
from ._cescacs import read_games as _read_games

__all__ = [
    "__version__",
    "Diagnostic",
    "DiagnosticCode",
    "InputFormat",
    "OutputFormat",
    "Notation",
    "StripItem",
    "SeverityName",
    "Headers",
    "HeaderReader",
    "read_headers",
    "CescacsError",
    "ParseError",
    "InputError",
    "OptionError",
    "Game",
    "GameReader",
    "Position",
    "Board",
    "Move",
    "Mainline",
    "GameNode",
    "Score",
    "BoardLike",
    "convert",
    "read_games",
    "select",
    "Selected",
    "open_decompressed",
    "detect",
    "COMPRESSED_SUFFIXES",
    "read_arrow",
    "to_pandas",
    "to_polars",
]

#: File-name suffixes of compressed game files (walks keep them; the codec itself is
#: recognised by the file's magic bytes).
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")


def open_decompressed(path: Union[str, "os.PathLike[str]"]) -> IO[bytes]:
    """Opens a file (plain, or gzip, bzip2, xz or zstd, as its magic bytes say) as a
    binary stream of its decompressed bytes (``read``, ``close``, ``with``). Decompressed
    in Rust, as the CLI does; a damaged stream raises :class:`InputError` from ``read``."""
    return _open_decompressed(path)  # type: ignore[return-value]


#: What ``read_games`` and ``read_headers`` read: a path (``str`` or ``os.PathLike``; a
#: file, plain or compressed, or a directory), bytes, or a file object (binary or text).
Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes], IO[str]]


def _native_source(
    source: Source,
    format: Optional[InputFormat],
    storage_options: Optional[Dict[str, Any]],
    filesystem: Any,
) -> Tuple[Any, Optional[str]]:
    """``source`` as the native readers take it, with the name to show for it."""
    if isinstance(source, memoryview):
        return bytes(source), None
    if isinstance(source, (bytes, bytearray)):
        return source, None
    if hasattr(source, "read"):
        name = getattr(source, "name", None)
        return source, (name if isinstance(name, str) else None)
    try:
        path = os.fspath(source)  # type: ignore[arg-type]
    except TypeError as e:
        raise OptionError(f"source must be bytes, a path or a file object: {e}") from None
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if storage_options or filesystem is not None or _storage.is_url(path):
        loc, inner = _storage.resolve(path, storage_options, filesystem)
        if not loc.local:
            return _storage.open_decompressed(loc, inner), loc.url(inner)
        path = inner
    return path, None


def read_games(
    source: Source,
    format: Optional[InputFormat] = None,
    storage_options: Optional[Dict[str, Any]] = None,
    filesystem: Any = None,
) -> Iterator[Game]:
    """Yields the games of ``source`` lazily, one :class:`Game` at a time.

    ``source`` is a path (``str`` or ``os.PathLike``), ``bytes``, or a file object,
    binary or text (a text stream, ``io.StringIO``, is read as UTF-8 text); plain, or
    compressed with gzip, bzip2, xz or zstd (recognised by the magic bytes, whatever the
    name). A directory is walked as the ``cescacs`` command walks it: every game file
    below it (compressed or not, zip members), in the command's order, one open at a
    time; a file in it that cannot be read at all is a game numbered 0 whose ``errors``
    say why, and never hides the other files. Memory stays bounded by the largest game,
    whatever the file's size. ``format`` is ``"ctl-pgn"``, ``"pgn"``, ``"xiangqi-pgn"``
    or ``"pcn"``; when ``None`` it is detected from the name and the first bytes, as the
    CLI does. A bad game is yielded with its ``errors``; it never stops the later games.
    A stream damaged half-way ends with a game carrying the located read error. An input
    that cannot be read at all raises :class:`InputError` here, before any game.
    A URL (``s3://``, ``gs://``, ``abfs://``, ``hdfs://``, ``file://``) is opened through
    fsspec with ``storage_options``, or through a ready fsspec ``filesystem``; its
    bytes are decompressed in Rust as a local file's are.
    """
    native, name = _native_source(source, format, storage_options, filesystem)
    return _read_games(native, format, name)


def read_headers(
    source: Source,
    format: Optional[InputFormat] = None,
    storage_options: Optional[Dict[str, Any]] = None,
    filesystem: Any = None,
) -> Iterator[Headers]:
    """Yields the tags of each game of ``source`` (taken as :func:`read_games` takes
    it) as :class:`Headers` (``.tags``, ``.get(name)``, ``.file``, ``.index``,
    ``.line``), read from the tag sections alone: the movetext is neither parsed nor
    replayed. The tags are :func:`read_games`' ``Game.tags`` (a chess game's ``FEN``
    and ``SetUp`` added as written); a classic PGN tag section out of the plain form
    (a repeated name, a ``%`` line among the tags, a line break in a value) is read by
    the full reader to give them. PCN documents, and games whose tag section cannot be
    read alone, are read whole: their ``errors`` are then the full read's; otherwise
    ``errors`` is empty (use :func:`read_games` to check games)."""
    native, name = _native_source(source, format, storage_options, filesystem)
    return _read_headers(native, format, name)


from ._arrow import read_arrow, to_pandas, to_polars  # noqa: E402  (needs the helpers above)


def detect(name: str, head: bytes) -> Optional[str]:
    """The format a file of this name starting with these bytes holds, or ``None``."""
    return _detect(name, head)
