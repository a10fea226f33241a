"""Games as Arrow record batches, built by the Rust reader (no Python object per game)."""

from __future__ import annotations

import os
from typing import IO, Any, Optional, Sequence, Union

from . import _storage
from ._cescacs import read_arrow as _read_arrow

#: Rows per record batch unless told otherwise.
DEFAULT_BATCH_ROWS = 65536


def read_arrow(
    source: Union[str, "os.PathLike[str]", bytes, IO[bytes]],
    format: Optional[str] = None,
    storage_options: Optional[dict] = None,
    filesystem: Any = None,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    columns: Sequence[str] = (),
):
    """The games of ``source`` as a ``pyarrow.RecordBatchReader``, one row per game, with
    the columns of the Spark reader (:data:`cescacs.spark.GAME_SCHEMA`): ``file``,
    ``index``, ``line``, ``format``, ``tags``, ``moves``, ``result``, ``final_position``,
    ``errors``, ``warnings``, ``plies``, ``offset`` and ``length`` (the game's bytes in
    its decompressed file). ``columns`` adds per-ply lists parallel to the main line:
    ``"uci"`` (UCI for chess, ICCS for xiangqi), ``"clocks"`` (seconds, from
    ``[%clk]``) and ``"evals"`` (``{cp, mate}`` from ``[%eval]``, White's view); a list
    is null for a game kind without such data (C'escacs, PCN), an item null where the
    move has none. All are computed in Rust.

    ``source`` is what :func:`cescacs.read_games` takes: a path or URL (``s3://``…,
    through fsspec with ``storage_options`` or ``filesystem``; plain or compressed,
    decompressed in Rust), ``bytes``, or a binary file object. Batches hold at most ``batch_rows`` rows;
    memory stays bounded by one batch and the largest game. Needs pyarrow.
    """
    import pyarrow  # noqa: F401  (the reader is handed to pyarrow)

    if isinstance(source, memoryview):
        source = bytes(source)
    if isinstance(source, (bytes, bytearray)):
        return _read_arrow(source, format, batch_rows=batch_rows, columns=list(columns))
    if hasattr(source, "read"):
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else None
        return _read_arrow(source, format, name, batch_rows=batch_rows, columns=list(columns))
    path = os.fspath(source)  # type: ignore[arg-type]
    loc, inner = _storage.resolve(path, storage_options, filesystem)
    if not loc.local:
        stream = _storage.open_decompressed(loc, inner)
        return _read_arrow(stream, format, loc.url(inner), batch_rows=batch_rows, columns=list(columns))
    # Compressed or not, a local file is decompressed in Rust (by its magic bytes).
    return _read_arrow(inner, format, batch_rows=batch_rows, columns=list(columns))


def to_pandas(source, format: Optional[str] = None, **kwargs):
    """The games of ``source`` as a pandas DataFrame (see :func:`read_arrow`)."""
    return read_arrow(source, format, **kwargs).read_all().to_pandas()


def to_polars(source, format: Optional[str] = None, **kwargs):
    """The games of ``source`` as a polars DataFrame (see :func:`read_arrow`)."""
    import polars

    return polars.from_arrow(read_arrow(source, format, **kwargs).read_all())
