"""Where the game files live: local paths and any filesystem fsspec knows (``s3://``,
``gs://``, ``abfs://``, ``hdfs://``, ``file://``, …), for listing and sizes on the Spark
driver and for byte ranges on the executors.

A plain path without a scheme never imports fsspec: the local reader stays dependency
free. A URL needs ``fsspec`` and the filesystem's own package (``s3fs`` for ``s3://``,
``gcsfs`` for ``gs://``, ``adlfs`` for ``abfs://``); ``pip install "cescacs[s3]"`` pulls
the S3 ones. ``storage_options`` (credentials, ``endpoint_url``, …) go to fsspec
unchanged; a ready filesystem object may be given instead.
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, IO, List, Optional, Tuple

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")


def is_url(path: str) -> bool:
    """Whether ``path`` names a file through a URL scheme (``s3://…``, ``file://…``)."""
    return bool(_SCHEME.match(path))


class Location:
    """A filesystem and the options to recreate it on an executor (picklable)."""

    def __init__(
        self,
        protocol: Optional[str],
        storage_options: Optional[Dict[str, Any]] = None,
        filesystem: Any = None,
    ) -> None:
        self.protocol = protocol
        self.storage_options = dict(storage_options or {})
        self._fs = filesystem

    @property
    def local(self) -> bool:
        """Whether the files are read with the local reader (no fsspec)."""
        return self.protocol is None and self._fs is None

    @property
    def fs(self):
        """The fsspec filesystem (made on first use, on each process)."""
        if self._fs is None:
            import fsspec

            self._fs = fsspec.filesystem(self.protocol, **self.storage_options)
        return self._fs

    def __getstate__(self):
        # An fsspec filesystem pickles itself (its class and options), so a filesystem
        # object the caller gave reaches the executors as it was made.
        return {"protocol": self.protocol, "storage_options": self.storage_options, "fs": self._fs}

    def __setstate__(self, state):
        self.protocol = state["protocol"]
        self.storage_options = state["storage_options"]
        self._fs = state["fs"]

    def url(self, path: str) -> str:
        """The name a game file is shown under (the URL the user would write)."""
        if self.local:
            return path
        return self.fs.unstrip_protocol(path)

    def open(self, path: str) -> IO[bytes]:
        """A binary file object (``read``/``seek``) at offset 0."""
        if self.local:
            return open(path, "rb")
        # Block reads, no read-ahead cache beyond one block: byte ranges are read once.
        return self.fs.open(path, "rb", block_size=4 * 1024 * 1024, cache_type="readahead")

    def size(self, path: str) -> int:
        """The file's length in bytes."""
        if self.local:
            return os.path.getsize(path)
        return int(self.fs.size(path))

    def exists(self, path: str) -> bool:
        """Whether ``path`` is an existing file or directory."""
        if self.local:
            return os.path.exists(path)
        return bool(self.fs.exists(path))

    def isdir(self, path: str) -> bool:
        """Whether ``path`` is a directory (a prefix, in object storage)."""
        if self.local:
            return os.path.isdir(path)
        return bool(self.fs.isdir(path))

    def walk_files(self, path: str) -> List[str]:
        """Every file under the directory ``path``, in sorted order."""
        if self.local:
            out: List[str] = []
            for root, dirs, files in os.walk(path):
                dirs.sort()
                out.extend(os.path.join(root, name) for name in sorted(files))
            return sorted(out)
        return sorted(self.fs.find(path))


def resolve(
    path: str,
    storage_options: Optional[Dict[str, Any]] = None,
    filesystem: Any = None,
) -> Tuple[Location, str]:
    """The location of ``path`` and the path within it (fsspec's form, without scheme)."""
    if filesystem is not None:
        loc = Location(getattr(filesystem, "protocol", None), storage_options, filesystem)
        if loc.protocol is not None and not isinstance(loc.protocol, str):
            loc.protocol = loc.protocol[0]
        return loc, filesystem._strip_protocol(path) if is_url(path) else path
    if not is_url(path):
        if storage_options:
            raise ValueError(f"{path}: storage_options are for URLs (s3://, gs://, …)")
        return Location(None), path
    try:
        import fsspec  # noqa: F401
        from fsspec.core import split_protocol
    except ImportError as e:
        raise ImportError(
            f"{path}: reading URLs needs fsspec (pip install \"cescacs[s3]\" for s3://)"
        ) from e
    protocol, rest = split_protocol(path)
    if protocol == "file":
        return Location(None), rest
    loc = Location(protocol, storage_options)
    return loc, loc.fs._strip_protocol(path)


class RangeReader:
    """The bytes ``[begin, end)`` of a file object, as a binary stream."""

    def __init__(self, raw: IO[bytes], begin: int, end: int) -> None:
        raw.seek(begin)
        self._raw = raw
        self._left = max(0, end - begin)

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes (all that is left when ``n < 0``)."""
        if self._left <= 0:
            return b""
        if n < 0 or n > self._left:
            n = self._left
        data = self._raw.read(n)
        self._left -= len(data)
        return data

    def close(self) -> None:
        """Closes the underlying file."""
        self._raw.close()


def open_decompressed(loc: Location, path: str) -> IO[bytes]:
    """The file's bytes, decompressed (gzip, bzip2, xz, zstd: found by the magic bytes)."""
    if loc.local:
        from . import open_decompressed as local_open

        return local_open(path)
    raw = loc.fs.open(path, "rb", block_size=4 * 1024 * 1024, cache_type="readahead")
    # Decompressed in Rust (the codec found by its magic bytes, its checks run), as the
    # CLI reads a local file: no optional Python codec package is needed.
    from ._cescacs import open_decompressed as rust_open

    return rust_open(raw)  # type: ignore[return-value]
