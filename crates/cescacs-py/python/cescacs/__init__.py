"""Read, replay and convert C'escacs, xiangqi and chess game records.

The toolkit's Rust readers (``cescacs-toolkit``) as a Python package::

    import cescacs
    for game in cescacs.read_games("games.pgn.zst"):
        if game.errors:
            print("\\n".join(game.errors))
        else:
            print(game.tags.get("White"), game.result, game.final_position)

Formats: ``"ctl-pgn"`` (C'escacs), ``"pgn"`` (classic chess), ``"xiangqi-pgn"``,
``"pcn"`` (JSON; one document per file, an array, or JSON Lines); ``"xiangqi-xml"`` is
an output format. Errors are :class:`CescacsError` (a ``ValueError``) carrying the same
located messages as the ``cescacs`` command (``file:line:col: game N: error: ...``).
For Apache Spark, see :mod:`cescacs.spark`.
"""

from __future__ import annotations

import os
from typing import IO, Iterator, Optional, Union

from . import _storage
from ._cescacs import CescacsError, Game, GameReader, Position, convert
from ._cescacs import detect as _detect
from ._cescacs import read_games as _read_games

__all__ = [
    "CescacsError",
    "Game",
    "GameReader",
    "Position",
    "convert",
    "read_games",
    "open_decompressed",
    "detect",
    "COMPRESSED_SUFFIXES",
    "read_arrow",
    "to_pandas",
    "to_polars",
]

#: File-name suffixes read through a decompressor (the codec is chosen by the suffix).
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_GZIP_MAGIC = b"\x1f\x8b"


def open_decompressed(path: Union[str, "os.PathLike[str]"]) -> IO[bytes]:
    """Opens a (possibly compressed) file as a binary stream, decompressing on the fly.

    ``.gz``, ``.bz2`` and ``.xz`` use the standard library; ``.zst`` needs the
    ``zstandard`` package (``pip install cescacs[zstd]``).
    """
    name = os.fspath(path).lower()
    if name.endswith(".gz"):
        import gzip

        return gzip.open(path, "rb")  # type: ignore[return-value]
    if name.endswith(".bz2"):
        import bz2

        return bz2.open(path, "rb")  # type: ignore[return-value]
    if name.endswith(".xz"):
        import lzma

        return lzma.open(path, "rb")  # type: ignore[return-value]
    if name.endswith(".zst"):
        try:
            import zstandard
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise CescacsError(f"{os.fspath(path)}: reading .zst needs the zstandard package") from e
        raw = open(path, "rb")
        return zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)  # type: ignore[return-value]
    return open(path, "rb")


def _decompress_bytes(data: bytes) -> bytes:
    if data.startswith(_GZIP_MAGIC):
        import gzip

        return gzip.decompress(data)
    if data.startswith(_ZSTD_MAGIC):
        import zstandard

        return zstandard.ZstdDecompressor().decompressobj().decompress(data)
    return data


def read_games(
    source: Union[str, "os.PathLike[str]", bytes, IO[bytes]],
    format: Optional[str] = None,
    storage_options: Optional[dict] = None,
    filesystem=None,
) -> Iterator[Game]:
    """Yields the games of ``source`` lazily, one :class:`Game` at a time.

    ``source`` is a path (``str`` or ``os.PathLike``; plain, or compressed with gzip,
    bzip2, xz or zstd as its suffix says), ``bytes`` (compressed or not), or a binary
    file object. Memory stays bounded by the largest game, whatever the file's size.
    ``format`` is ``"ctl-pgn"``, ``"pgn"``, ``"xiangqi-pgn"`` or ``"pcn"``; when
    ``None`` it is detected from the name and the first bytes, as the CLI does.
    A bad game is yielded with its ``errors``; it never stops the later games.
    A URL (``s3://``, ``gs://``, ``abfs://``, ``hdfs://``, ``file://``) is opened through
    fsspec with ``storage_options``, or through a ready fsspec ``filesystem``.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _read_games(_decompress_bytes(bytes(source)), format)
    if hasattr(source, "read"):
        return _read_games(source, format, getattr(source, "name", None))
    path = os.fspath(source)  # type: ignore[arg-type]
    if storage_options or filesystem is not None or _storage.is_url(path):
        loc, inner = _storage.resolve(path, storage_options, filesystem)
        if not loc.local:
            return _read_games(_storage.open_decompressed(loc, inner), format, loc.url(inner))
        path = inner
    if path.lower().endswith(COMPRESSED_SUFFIXES):
        return _read_games(open_decompressed(path), format, path)
    return _read_games(path, format)


from ._arrow import read_arrow, to_pandas, to_polars  # noqa: E402  (needs the helpers above)


def detect(name: str, head: bytes) -> Optional[str]:
    """The format a file of this name starting with these bytes holds, or ``None``."""
    return _detect(name, head)
